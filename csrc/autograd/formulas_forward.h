// Hand-written helpers called by the forward-mode formulas of specs/derivatives.yaml (the
// `result: ...` lines), kept apart from the backward helpers of formulas.h.
//
// A forward formula computes an output's tangent from the inputs' tangents (`self_t`) and values
// (`self_p`); the generated wrappers run it after the kernel (Note [Forward AD in wrappers] in
// csrc/autograd/forward_ad.h). Like formulas.h, every helper is written with the differentiable
// ops, so tangents computed in a backward pass (forward-over-reverse) are differentiable too.
#pragma once

#include <cstdint>
#include <optional>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// The tangent of logsumexp(self, dim, keepdim): sum over dim of softmax(self) * self_t,
/// the weights computed as exp(self - logsumexp(self)) (no overflow for large self).
Tensor logsumexp_jvp(const Tensor& self_p, const Tensor& self_t, IntArrayRef dim, bool keepdim);

/// The tangents of softmax(self, dim) and log_softmax(self, dim) from their result y:
/// y * (t - sum(y * t, dim)) and t - sum(exp(y) * t, dim), with t = self_t converted to the
/// result's dtype (the ops' `dtype` argument may change it).
Tensor softmax_jvp(const Tensor& result, const Tensor& self_t, int64_t dim);
Tensor log_softmax_jvp(const Tensor& result, const Tensor& self_t, int64_t dim);

/// The tangent of the values of max.dim(self, dim, keepdim): self_t at the selected indices.
Tensor gather_with_keepdimed_indices(const Tensor& self_t, int64_t dim, const Tensor& indices,
                                     bool keepdim);

/// The tangent of cumprod(self, dim) from its result y, by the product rule along dim:
/// t_0 = self_t_0 and t_k = t_{k-1} * self_k + y_{k-1} * self_t_k, exact where self has zeros
/// (PyTorch's cumprod_jvp divides by self where it can), in the result's dtype.
Tensor cumprod_jvp(const Tensor& self_t, const Tensor& self_p, const Tensor& result, int64_t dim);

/// `t` reduced as a loss with `reduction` (Reduction::None, Mean or Sum) reduces its elements.
Tensor apply_loss_reduction(const Tensor& t, int64_t reduction);

/// The tangent of linear(input, weight, bias): input_t W^T + input w_t^T + bias_t, where an
/// undefined bias_t (no bias) adds nothing.
Tensor linear_jvp(const Tensor& input_p, const Tensor& input_t, const Tensor& weight_p,
                  const Tensor& weight_t, const Tensor& bias_t);

/// The tangents of cat(tensors, dim) and stack(tensors, dim), PyTorch's forward formulas: the
/// tangents of the inputs (zeros for an input without one at the current level), concatenated or
/// stacked; undefined when no input has a tangent.
Tensor cat_jvp(TensorList tensors, int64_t dim);
Tensor stack_jvp(TensorList tensors, int64_t dim);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
