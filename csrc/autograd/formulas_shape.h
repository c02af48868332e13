// Formula helpers of the tensor op library's shape ops, second batch (issue 23): the names
// PyTorch's entries in specs/derivatives.yaml call, written with gradgen's differentiable API so
// that they are differentiable again (double backward).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "csrc/autograd/basic_ops.h"
#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// PyTorch's SymInt spellings of tril / triu (`grad.tril_symint(diagonal)`): gradgen's sizes
/// are ints, so they are the ops themselves.
inline Tensor tril_symint(const Tensor& self, int64_t diagonal) {
  return ::gradgen::tril(self, diagonal);
}
inline Tensor triu_symint(const Tensor& self, int64_t diagonal) {
  return ::gradgen::triu(self, diagonal);
}

/// d/dself of self.repeat(repeats) (PyTorch's repeat_backward): grad viewed as
/// [r0, s0, r1, s1, ...] (self's sizes padded with leading 1s to repeats' length) summed over the
/// repeat dims, in self's shape.
Tensor repeat_backward(const Tensor& grad, IntArrayRef repeats, IntArrayRef input_sizes);

/// d/dself of squeeze(self, dims): grad with the squeezed dims of size 1 put back.
Tensor unsqueeze_to(const Tensor& grad, IntArrayRef dims, IntArrayRef sizes);

/// PyTorch's slice_backward_wrapper: zeros of input_sizes with grad in self[start:end] along
/// dim (Python's slice rules: negative bounds count from the end, clamped; absent: the ends).
/// Only step 1 (the one narrow_copy's formula passes).
Tensor slice_backward_wrapper(const Tensor& grad, IntArrayRef input_sizes, int64_t dim,
                              std::optional<int64_t> start, std::optional<int64_t> end,
                              int64_t step);

/// d/dself of split_with_sizes(self, split_sizes, dim): the pieces' gradients (zeros where
/// none arrived) concatenated along dim.
Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, IntArrayRef split_sizes,
                                 int64_t dim, IntArrayRef sizes, const TensorOptions& options);

/// PyTorch's SymInt spelling of the op diagonal_backward.
inline Tensor diagonal_backward_symint(const Tensor& grad, IntArrayRef input_sizes, int64_t offset,
                                       int64_t dim1, int64_t dim2) {
  return ::gradgen::diagonal_backward(grad, input_sizes, offset, dim1, dim2);
}

/// PyTorch's SymInt spelling of the op unfold_backward (unfold's gradient).
inline Tensor unfold_backward_symint(const Tensor& grad, IntArrayRef input_sizes, int64_t dim,
                                     int64_t size, int64_t step) {
  return ::gradgen::unfold_backward(grad, input_sizes, dim, size, step);
}

/// d/dself of as_strided(self, size, stride, storage_offset) (PyTorch's as_strided_backward):
/// grad, laid at the view's places in self's storage (summed where the view's elements share
/// memory), read at self's places (divided by the count where self's own elements share
/// memory); zero where self is outside the view. Differentiable again (restride is).
Tensor as_strided_backward(const Tensor& grad, const TensorGeometry& input_geometry,
                           IntArrayRef size, IntArrayRef stride,
                           std::optional<int64_t> storage_offset);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
