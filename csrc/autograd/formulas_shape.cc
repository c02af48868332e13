#include "csrc/autograd/formulas_shape.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/formulas.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

Tensor repeat_backward(const Tensor& grad, IntArrayRef repeats, IntArrayRef input_sizes) {
  const size_t n = repeats.size();
  const size_t lead = n - input_sizes.size();
  // grad's dim i (of size r_i * s_i) split into (r_i, s_i); the r_i dims summed.
  std::vector<int64_t> split;
  std::vector<int64_t> repeat_dims;
  for (size_t i = 0; i < n; ++i) {
    const int64_t s = i < lead ? 1 : input_sizes[i - lead];
    repeat_dims.push_back(static_cast<int64_t>(split.size()));
    split.push_back(repeats[i]);
    split.push_back(s);
  }
  if (n == 0) return grad;
  const Tensor summed = ::gradgen::sum(::gradgen::reshape(grad, split), IntArrayRef(repeat_dims));
  return ::gradgen::reshape(summed, input_sizes);
}

Tensor unsqueeze_to(const Tensor& grad, IntArrayRef dims, IntArrayRef sizes) {
  const int64_t n = static_cast<int64_t>(sizes.size());
  std::vector<bool> squeezed(static_cast<size_t>(n), false);
  for (int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, n, "squeeze");
    if (n > 0 && sizes[static_cast<size_t>(d)] == 1) squeezed[static_cast<size_t>(d)] = true;
  }
  Tensor result = grad;
  for (int64_t d = 0; d < n; ++d) {
    if (squeezed[static_cast<size_t>(d)]) result = ::gradgen::unsqueeze(result, d);
  }
  return result;
}

Tensor slice_backward_wrapper(const Tensor& grad, IntArrayRef input_sizes, int64_t dim,
                              std::optional<int64_t> start, std::optional<int64_t> end,
                              int64_t step) {
  if (step != 1) {
    throw std::invalid_argument("slice_backward_wrapper: only step 1 is supported, got " +
                                std::to_string(step));
  }
  const int64_t n = static_cast<int64_t>(input_sizes.size());
  const int64_t d = wrap_dim(dim, n, "slice_backward");
  const int64_t size = input_sizes[static_cast<size_t>(d)];
  // at::slice's rules.
  int64_t s = start.value_or(0), e = end.value_or(size);
  if (s < 0) s += size;
  if (e < 0) e += size;
  s = s < 0 ? 0 : (s > size ? size : s);
  e = e < s ? s : (e > size ? size : e);
  // As PyTorch's (a copy of grad into that slice): a slice of another length is an error,
  // e.g. narrow_copy's start + length for a negative start.
  if (grad.dim() != n || grad.size(d) != e - s) {
    throw std::runtime_error("slice_backward: the gradient of shape " + shape_str(grad.sizes()) +
                             " does not fit the slice [" + std::to_string(s) + ":" +
                             std::to_string(e) + "] of dim " + std::to_string(d) +
                             " of a tensor of shape " + shape_str(input_sizes));
  }
  return narrow_backward(grad, input_sizes, d, s, e - s);
}

Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, IntArrayRef split_sizes,
                                 int64_t dim, IntArrayRef sizes, const TensorOptions& options) {
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes.size()), "split_with_sizes");
  std::vector<Tensor> pieces;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) {
      pieces.push_back(grads[i]);
      continue;
    }
    std::vector<int64_t> piece(sizes.begin(), sizes.end());
    piece[static_cast<size_t>(d)] = split_sizes[i];
    pieces.push_back(zeros(piece, options.dtype()));
  }
  return ::gradgen::cat(pieces, d);
}

Tensor as_strided_backward(const Tensor& grad, const TensorGeometry& input_geometry,
                           IntArrayRef size, IntArrayRef stride,
                           std::optional<int64_t> storage_offset) {
  TensorGeometry view;
  view.sizes.assign(size.begin(), size.end());
  view.strides.assign(stride.begin(), stride.end());
  view.storage_offset = storage_offset.value_or(input_geometry.storage_offset);
  view.dtype = input_geometry.dtype;
  return restride(grad, view, input_geometry, nullptr, &input_geometry);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
