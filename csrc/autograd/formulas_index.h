// Formula helpers of the indexing family (issue 23): the names PyTorch's index.Tensor entry in
// specs/derivatives.yaml calls, written with gradgen's differentiable API so that they are
// differentiable again.
#pragma once

#include <optional>
#include <vector>

#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// self.new_zeros(size, options): zeros of options' dtype.
inline Tensor new_zeros_symint(const Tensor& /*self*/, IntArrayRef size,
                               const TensorOptions& options) {
  return ::gradgen::zeros(size, options.dtype());
}

/// A saved Tensor?[] comes back from its node as a std::vector<Tensor>, an absent entry as an
/// undefined Tensor: the Tensor?[] it was.
inline std::vector<std::optional<Tensor>> optional_list(const std::vector<Tensor>& tensors) {
  std::vector<std::optional<Tensor>> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) {
    if (t.defined()) {
      out.emplace_back(t);
    } else {
      out.emplace_back(std::nullopt);
    }
  }
  return out;
}

/// `grad.index(indices)` and `grad.index_put(indices, ...)` of a formula, on saved indices.
inline Tensor index(const Tensor& self, const std::vector<Tensor>& indices) {
  return ::gradgen::index(self, optional_list(indices));
}
inline Tensor index_put(const Tensor& self, const std::vector<Tensor>& indices,
                        const Tensor& values, bool accumulate) {
  return ::gradgen::index_put(self, optional_list(indices), values, accumulate);
}

/// index's gradient: grad added (accumulate=True) into zeros of self's shape at the indexed
/// places (PyTorch's index_backward), by the differentiable index_put.
inline Tensor index_backward(const Tensor& zeros_like_self,
                             const std::vector<std::optional<Tensor>>& indices,
                             const Tensor& grad) {
  return ::gradgen::index_put(zeros_like_self, indices, grad, true);
}
inline Tensor index_backward(const Tensor& zeros_like_self, const std::vector<Tensor>& indices,
                             const Tensor& grad) {
  return index_backward(zeros_like_self, optional_list(indices), grad);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
