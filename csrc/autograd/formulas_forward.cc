#include "csrc/autograd/formulas_forward.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/forward_ad.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

Tensor logsumexp_jvp(const Tensor& self_p, const Tensor& self_t, IntArrayRef dim, bool keepdim) {
  const Tensor weights = exp(self_p - logsumexp(self_p, dim, /*keepdim=*/true));
  return sum(weights * self_t, dim, keepdim);
}

Tensor softmax_jvp(const Tensor& result, const Tensor& self_t, int64_t dim) {
  const Tensor t = to(self_t, result.scalar_type());
  return result * (t - sum(result * t, IntArrayRef(dim), /*keepdim=*/true));
}

Tensor log_softmax_jvp(const Tensor& result, const Tensor& self_t, int64_t dim) {
  const Tensor t = to(self_t, result.scalar_type());
  return t - sum(exp(result) * t, IntArrayRef(dim), /*keepdim=*/true);
}

Tensor cumprod_jvp(const Tensor& self_t, const Tensor& self_p, const Tensor& result, int64_t dim) {
  const Tensor t = to(self_t, result.scalar_type());
  const Tensor x = to(self_p, result.scalar_type());
  if (x.dim() == 0) return t;  // cumprod of a 0-dim tensor is the tensor
  const int64_t d = wrap_dim(dim, x.dim(), "cumprod_jvp");
  const int64_t n = x.size(d);
  if (n <= 1) return clone(t);
  // One differentiable op per step (tangents computed in a backward stay differentiable).
  std::vector<Tensor> pieces;
  pieces.reserve(static_cast<size_t>(n));
  pieces.push_back(narrow(t, d, 0, 1));
  for (int64_t k = 1; k < n; ++k) {
    pieces.push_back(pieces.back() * narrow(x, d, k, 1) +
                     narrow(result, d, k - 1, 1) * narrow(t, d, k, 1));
  }
  return cat(pieces, d);
}

Tensor gather_with_keepdimed_indices(const Tensor& self_t, int64_t dim, const Tensor& indices,
                                     bool keepdim) {
  if (self_t.dim() == 0) return clone(self_t);  // a 0-dim self is its own maximum
  if (keepdim) return gather(self_t, dim, indices);
  return squeeze(gather(self_t, dim, unsqueeze(indices, dim)), dim);
}

Tensor apply_loss_reduction(const Tensor& t, int64_t reduction) {
  switch (reduction) {
    case Reduction::None: return t;
    case Reduction::Mean: return mean(t);
    case Reduction::Sum: return sum(t);
  }
  throw std::invalid_argument("apply_loss_reduction: unknown reduction " +
                              std::to_string(reduction));
}

Tensor linear_jvp(const Tensor& input_p, const Tensor& input_t, const Tensor& weight_p,
                  const Tensor& weight_t, const Tensor& bias_t) {
  Tensor out = linear(input_t, weight_p) + linear(input_p, weight_t);
  return bias_t.defined() ? out + bias_t : out;
}

Tensor cat_jvp(TensorList tensors, int64_t dim) {
  if (!forward_ad::has_fw_grad(tensors)) return Tensor();
  return cat(forward_ad::tangent_or_zeros(tensors), dim);
}

Tensor stack_jvp(TensorList tensors, int64_t dim) {
  if (!forward_ad::has_fw_grad(tensors)) return Tensor();
  return stack(forward_ad::tangent_or_zeros(tensors), dim);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
