// Helpers of the nn op family's derivative formulas (specs/derivatives.yaml, section "nn"):
// the double backwards and tangents PyTorch writes in FunctionsManual.cpp, written again here with
// gradgen's differentiable API so that they are differentiable in turn (a third derivative works).
//
// Like formulas.h, these are called unqualified from the generated Functions.cpp and the forward
// wrappers (`using namespace details;`). Gradients arrive in the shape the backward op's operands
// broadcast to; the formulas sum them to each operand's shape (sum_to in the YAML).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

// ---------------------------------------------------------------------------
// PyTorch's formula vocabulary the nn entries use
// ---------------------------------------------------------------------------

/// A tensor compared with a number, as PyTorch's operators: Bool tensors (no gradient).
inline Tensor operator>(const Tensor& a, const Scalar& b) { return gt(a, b); }
inline Tensor operator<(const Tensor& a, const Scalar& b) { return lt(a, b); }
inline Tensor operator>=(const Tensor& a, const Scalar& b) { return ge(a, b); }
inline Tensor operator<=(const Tensor& a, const Scalar& b) { return le(a, b); }
inline Tensor operator<(const Scalar& a, const Tensor& b) { return gt(b, a); }
inline Tensor operator>(const Scalar& a, const Tensor& b) { return lt(b, a); }
/// -x of a number, of its kind (PyTorch's `self_p < -lambd`).
inline Scalar operator-(const Scalar& s) {
  return s.is_floating_point() ? Scalar(-s.to_double()) : Scalar(-s.to_long());
}
// logical_and / logical_or are ops (the tensor op library's); the formulas call those.
/// at::zeros(sizes, options): zeros of options' dtype. The dtype form stays available here.
Tensor zeros(IntArrayRef sizes, const TensorOptions& options);
inline Tensor zeros(IntArrayRef sizes, ScalarType dtype = ScalarType::Double) {
  return ::gradgen::zeros(sizes, dtype);
}
/// PyTorch's infinitely differentiable backwards of silu and mish: gradgen's silu_backward and
/// mish_backward are those (composites of differentiable ops).
inline Tensor infinitely_differentiable_silu_backward(const Tensor& grad, const Tensor& self) {
  return silu_backward(grad, self);
}
inline Tensor infinitely_differentiable_mish_backward(const Tensor& grad, const Tensor& self) {
  return mish_backward(grad, self);
}

// ---------------------------------------------------------------------------
// Activations
// ---------------------------------------------------------------------------

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

/// The gradients of _prelu_kernel_backward's inputs from the gradients ggs (of grad_self) and
/// ggw (of grad_weight), either possibly undefined; in the broadcast shape.
Tensor prelu_double_backward_grad_output(const Tensor& ggs, const Tensor& ggw, const Tensor& self,
                                         const Tensor& weight);
Tensor prelu_double_backward_self(const Tensor& ggw, const Tensor& grad_output, const Tensor& self);
Tensor prelu_double_backward_weight(const Tensor& ggs, const Tensor& grad_output,
                                    const Tensor& self);

// ---------------------------------------------------------------------------
// Losses. `grad` is the incoming gradient times grad_output where the name says so; Mean
// divides by self's number of elements, as the forward.
// ---------------------------------------------------------------------------

/// d/dself of smooth_l1_loss_backward (grad times grad_output): grad / beta where
/// |self - target| < beta, else 0 (zeros for beta 0).
Tensor smooth_l1_loss_double_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                      int64_t reduction, double beta);
/// d/dself of huber_loss_backward (grad times grad_output): grad where |self - target| < delta.
Tensor huber_loss_double_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                  int64_t reduction, double delta);
/// d/dgrad_output of huber_loss_backward, applied to grad (summed for Mean and Sum, where
/// grad_output is one number).
Tensor huber_loss_double_backward_grad_output(const Tensor& grad, const Tensor& grad_output,
                                              const Tensor& self, const Tensor& target,
                                              int64_t reduction, double delta);
/// d/dself of soft_margin_loss_backward (grad times grad_output): grad * target^2 z / (1 + z)^2
/// with z = exp(-target * self).
Tensor soft_margin_loss_double_backward(const Tensor& grad, const Tensor& self,
                                        const Tensor& target, int64_t reduction);
/// d/dgrad_output of soft_margin_loss_backward, applied to grad.
Tensor soft_margin_loss_double_backward_grad_output(const Tensor& grad, const Tensor& grad_output,
                                                    const Tensor& self, const Tensor& target,
                                                    int64_t reduction);
/// d/dtarget of binary_cross_entropy: grad * (log(1 - self) - log(self)) (times weight).
Tensor binary_cross_entropy_target_backward(const Tensor& grad, const Tensor& self,
                                            const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction);
/// The derivatives of binary_cross_entropy_backward(grad_output, self, target, weight): in self
/// (applied to grad times grad_output), in target, and in grad_output.
Tensor binary_cross_entropy_double_backward(const Tensor& grad_output, const Tensor& grad,
                                            const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction);
Tensor binary_cross_entropy_double_backward_target(const Tensor& grad, const Tensor& grad_output,
                                                   const Tensor& self, const Tensor& target,
                                                   const std::optional<Tensor>& weight,
                                                   int64_t reduction);
Tensor binary_cross_entropy_double_backward_grad_output(const Tensor& grad, const Tensor& self,
                                                        const Tensor& target,
                                                        const std::optional<Tensor>& weight,
                                                        int64_t reduction);
/// The derivatives of binary_cross_entropy_with_logits in self and in target.
Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad, const Tensor& self,
                                                 const Tensor& target,
                                                 const std::optional<Tensor>& weight,
                                                 const std::optional<Tensor>& pos_weight,
                                                 int64_t reduction);
Tensor binary_cross_entropy_with_logits_target_backward(const Tensor& grad, const Tensor& self,
                                                        const Tensor& target,
                                                        const std::optional<Tensor>& weight,
                                                        const std::optional<Tensor>& pos_weight,
                                                        int64_t reduction);

// ---------------------------------------------------------------------------
// Padding
// ---------------------------------------------------------------------------

/// PyTorch's *_symint spellings of the padding ops, which its formulas call (SymInt lists are
/// plain integers in gradgen).
inline Tensor constant_pad_nd_symint(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  return constant_pad_nd(self, pad, value);
}
inline Tensor reflection_pad1d_symint(const Tensor& self, IntArrayRef padding) {
  return reflection_pad1d(self, padding);
}
inline Tensor reflection_pad1d_backward_symint(const Tensor& grad_output, const Tensor& self,
                                               IntArrayRef padding) {
  return reflection_pad1d_backward(grad_output, self, padding);
}
inline Tensor reflection_pad2d_symint(const Tensor& self, IntArrayRef padding) {
  return reflection_pad2d(self, padding);
}
inline Tensor reflection_pad2d_backward_symint(const Tensor& grad_output, const Tensor& self,
                                               IntArrayRef padding) {
  return reflection_pad2d_backward(grad_output, self, padding);
}
inline Tensor replication_pad1d_symint(const Tensor& self, IntArrayRef padding) {
  return replication_pad1d(self, padding);
}
inline Tensor replication_pad1d_backward_symint(const Tensor& grad_output, const Tensor& self,
                                                IntArrayRef padding) {
  return replication_pad1d_backward(grad_output, self, padding);
}
inline Tensor replication_pad2d_symint(const Tensor& self, IntArrayRef padding) {
  return replication_pad2d(self, padding);
}
inline Tensor replication_pad2d_backward_symint(const Tensor& grad_output, const Tensor& self,
                                                IntArrayRef padding) {
  return replication_pad2d_backward(grad_output, self, padding);
}

inline Tensor reflection_pad3d_symint(const Tensor& self, IntArrayRef padding) {
  return reflection_pad3d(self, padding);
}
inline Tensor reflection_pad3d_backward_symint(const Tensor& grad_output, const Tensor& self,
                                               IntArrayRef padding) {
  return reflection_pad3d_backward(grad_output, self, padding);
}
inline Tensor replication_pad3d_symint(const Tensor& self, IntArrayRef padding) {
  return replication_pad3d(self, padding);
}
inline Tensor replication_pad3d_backward_symint(const Tensor& grad_output, const Tensor& self,
                                                IntArrayRef padding) {
  return replication_pad3d_backward(grad_output, self, padding);
}

/// The gradient of constant_pad_nd(self, pad): grad with the padding cut off (and, where pad
/// cropped, zeros put back), i.e. constant_pad_nd(grad, -pad).
Tensor constant_pad_nd_backward(const Tensor& grad, IntArrayRef pad);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
