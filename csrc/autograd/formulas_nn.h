// Helpers of the nn op family's derivative formulas (specs/derivatives.yaml, section "nn"):
// the double backwards and tangents PyTorch writes in FunctionsManual.cpp, written again here with
// gradgen's differentiable API so that they are differentiable in turn (a third derivative works).
//
// Like formulas.h, these are called unqualified from the generated Functions.cpp and the forward
// wrappers (`using namespace details;`). Gradients arrive in the shape the backward op's operands
// broadcast to; the formulas sum them to each operand's shape (sum_to in the YAML).
#pragma once

#include <cstdint>
#include <string_view>
#include <tuple>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// d/dself of gelu_backward(grad_output, self, approximate), applied to grad:
/// grad * grad_output * gelu''(self), for approximate 'none' (erf) or 'tanh'.
Tensor gelu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self,
                            std::string_view approximate);

/// d/dself_or_result of elu_backward(grad_output, ..., self_or_result), applied to grad.
Tensor elu_double_backward(const Tensor& grad, const Tensor& grad_output, const Scalar& alpha,
                           const Scalar& scale, const Scalar& input_scale, bool is_result,
                           const Tensor& self_or_result);

/// d/dself of hardswish_backward(grad_output, self), applied to grad: grad * grad_output / 3
/// where -3 < self < 3, else 0.
Tensor hardswish_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self);

/// d/dself of softplus_backward(grad_output, self, beta, threshold), with grad the product of the
/// incoming gradient and grad_output: grad * beta * s * (1 - s), s = sigmoid(beta * self), where
/// beta * self < threshold (softplus is linear above it).
Tensor softplus_double_backward(const Tensor& grad, const Tensor& self, const Scalar& beta,
                                const Scalar& threshold);

/// d/dself of log_sigmoid_backward(grad_output, self, buffer), with grad the product of the
/// incoming gradient and grad_output: grad * (sigmoid(self) - 1) * sigmoid(self).
Tensor log_sigmoid_double_backward(const Tensor& grad, const Tensor& self);

/// glu(self, dim) = a * sigmoid(b), a and b the halves of self along dim. Its tangent from the
/// result: a_t * sigmoid(b) + result * (1 - sigmoid(b)) * b_t.
Tensor glu_jvp(const Tensor& glu, const Tensor& x, const Tensor& dx, int64_t dim);
/// d/dgrad_output of glu_backward(grad_output, self, dim), applied to grad (which has self's
/// shape): the halves of grad weighted by glu's partial derivatives.
Tensor glu_double_backward_grad_output(const Tensor& grad, const Tensor& self, int64_t dim);
/// d/dself of glu_backward(grad_output, self, dim), applied to grad.
Tensor glu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self,
                           int64_t dim);
/// The tangent of glu_backward(grad_output, self, dim).
Tensor glu_backward_jvp(const Tensor& grad_x, const Tensor& grad_glu, const Tensor& x,
                        const Tensor& dgrad_glu, const Tensor& dx, int64_t dim);

/// _prelu_kernel_backward(grad, self, weight) with each gradient summed to its operand's shape;
/// undefined gradients when grad is undefined.
std::tuple<Tensor, Tensor> prelu_kernel_backward_reduced(const Tensor& grad, const Tensor& self,
                                                         const Tensor& weight);
/// The gradients of _prelu_kernel_backward's inputs from the gradients ggs (of grad_self) and
/// ggw (of grad_weight), either possibly undefined; in the broadcast shape.
Tensor prelu_double_backward_grad_output(const Tensor& ggs, const Tensor& ggw, const Tensor& self,
                                         const Tensor& weight);
Tensor prelu_double_backward_self(const Tensor& ggw, const Tensor& grad_output, const Tensor& self);
Tensor prelu_double_backward_weight(const Tensor& ggs, const Tensor& grad_output,
                                    const Tensor& self);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
