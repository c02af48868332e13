// Formula helpers of the indexing family (issue 23): the names PyTorch's index.Tensor entry in
// specs/derivatives.yaml calls, written with gradgen's differentiable API so that they are
// differentiable again.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "csrc/autograd/basic_ops.h"
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

/// slice's gradient (PyTorch's slice_backward_wrapper): grad written into zeros of the input's
/// shape at the positions the slice took, by the differentiable index_put (so that it is
/// differentiable again).
inline Tensor slice_backward_wrapper(const Tensor& grad, IntArrayRef input_sizes, int64_t dim,
                                     std::optional<int64_t> start, std::optional<int64_t> end,
                                     int64_t step) {
  const int64_t ndim = static_cast<int64_t>(input_sizes.size());
  const int64_t d = dim < 0 ? dim + ndim : dim;
  const int64_t size = input_sizes[d];
  auto clamp = [size](int64_t v) {
    if (v < 0) v += size;
    return v < 0 ? 0 : (v > size ? size : v);
  };
  const int64_t begin = clamp(start.value_or(0));
  const int64_t stop = std::max(begin, clamp(end.value_or(size)));
  const int64_t n = (stop - begin + step - 1) / step;
  Tensor positions = ::gradgen::empty({n}, ScalarType::Long);
  int64_t* p = positions.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) p[i] = begin + i * step;
  std::vector<std::optional<Tensor>> indices(static_cast<size_t>(d), std::nullopt);
  indices.emplace_back(positions);
  return ::gradgen::index_put(::gradgen::zeros(input_sizes, grad.scalar_type()), indices, grad,
                              false);
}

/// masked_select's gradient (PyTorch's masked_select_backward): grad written into zeros of the
/// broadcast shape of input and mask where mask is true (index_put with the expanded mask, so
/// that it is differentiable again); the engine sums it to input's shape.
inline Tensor masked_select_backward(const Tensor& grad, const Tensor& input, const Tensor& mask) {
  const IntArrayRef a = input.sizes(), b = mask.sizes();
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> shape(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    shape[i] = x == 1 ? y : x;
  }
  std::vector<std::optional<Tensor>> indices{::gradgen::expand(mask, shape)};
  return ::gradgen::index_put(::gradgen::zeros(shape, grad.scalar_type()), indices, grad, false);
}

/// take's gradient (PyTorch's take_backward): grad added into zeros of self's shape, read as
/// 1-D, at index (duplicates summed).
inline Tensor take_backward(const Tensor& grad, const Tensor& self, const Tensor& index) {
  std::vector<std::optional<Tensor>> flat_index{::gradgen::reshape(index, {-1})};
  const Tensor flat = ::gradgen::index_put(::gradgen::zeros({self.numel()}, grad.scalar_type()),
                                           flat_index, ::gradgen::reshape(grad, {-1}), true);
  return ::gradgen::reshape(flat, self.sizes());
}

/// at::_unique(index, sorted) as index_fill's value gradient calls it: the distinct entries of a
/// Long tensor (in first-seen order when not sorted) and, unused there, an empty inverse. A
/// template, so that an op `_unique` of gradgen's own, where declared, is preferred to it.
template <typename Bool>
std::tuple<Tensor, Tensor> _unique(const Tensor& self, Bool sorted) {
  const Tensor flat = ::gradgen::reshape(self, {-1}).contiguous();
  const int64_t* p = flat.data_ptr<int64_t>();
  std::vector<int64_t> seen;
  for (int64_t i = 0; i < flat.numel(); ++i) {
    if (std::find(seen.begin(), seen.end(), p[i]) == seen.end()) seen.push_back(p[i]);
  }
  if (static_cast<bool>(sorted)) std::sort(seen.begin(), seen.end());
  Tensor out = ::gradgen::empty({static_cast<int64_t>(seen.size())}, ScalarType::Long);
  std::copy(seen.begin(), seen.end(), out.data_ptr<int64_t>());
  return {out, ::gradgen::empty({0}, ScalarType::Long)};
}

/// masked_scatter's gradient of source (PyTorch's masked_scatter_backward): grad's elements
/// where mask is true, in order, then zeros for the source elements not used, in source's shape.
inline Tensor masked_scatter_backward_symint(const Tensor& grad, const Tensor& mask,
                                             IntArrayRef sizes) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  Tensor selected = ::gradgen::masked_select(grad, mask);
  const int64_t missing = numel - selected.numel();
  if (missing > 0) {
    const Tensor zeros = ::gradgen::zeros({missing}, grad.scalar_type());
    selected = ::gradgen::cat(std::vector<Tensor>{selected, zeros}, 0);
  }
  return ::gradgen::reshape(selected, sizes);
}

/// scatter_reduce's gradients of self and src (PyTorch's scatter_reduce_backward): sum passes
/// grad; mean divides it by each place's count; prod multiplies by the product of the others
/// (the places and elements that are zero handled apart, as PyTorch's); amax / amin split it
/// evenly between the elements equal to the result. With include_self=False the places written
/// get no gradient for self. Written with the differentiable API, so it is differentiable again.
inline std::tuple<Tensor, Tensor> scatter_reduce_backward(const Tensor& grad, const Tensor& self,
                                                          int64_t dim, const Tensor& index,
                                                          const Tensor& src,
                                                          std::string_view reduce,
                                                          bool include_self, const Tensor& result) {
  namespace g = ::gradgen;
  Tensor grad_self, grad_src;
  if (reduce == "sum") {
    grad_self = grad;
    grad_src = g::gather(grad, dim, index);
  } else if (reduce == "prod") {
    const Tensor masked_self = g::masked_fill(self, g::eq(self, 0), 1);
    const Tensor masked_self_result =
        g::scatter_reduce(masked_self, dim, index, src, reduce, include_self);
    grad_self = g::div(g::mul(grad, masked_self_result), masked_self);
    const Tensor src_zero = g::eq(src, 0);
    const Tensor src_num_zeros = g::gather(g::scatter_add(g::zeros_like(self), dim, index,
                                                          g::to(src_zero, self.scalar_type())),
                                           dim, index);
    const Tensor src_single_zero = g::logical_and(src_zero, g::eq(src_num_zeros, 1));
    const Tensor masked_src = g::masked_fill(src, src_single_zero, 1);
    const Tensor masked_src_result =
        g::scatter_reduce(self, dim, index, masked_src, reduce, include_self);
    grad_src = g::where(src_single_zero, g::gather(g::mul(grad, masked_src_result), dim, index),
                        g::div(g::gather(g::mul(grad, result), dim, index),
                               g::masked_fill(src, src_zero, 1)));
    // PyTorch's DelayedError: with two zeros of src reduced into one place, src's gradient is
    // right but not differentiable again.
    const Tensor many = g::gt(src_num_zeros, 1).contiguous();
    const bool* pm = many.data_ptr<bool>();
    if (std::any_of(pm, pm + many.numel(), [](bool b) { return b; })) {
      Tensor once = grad_src.detach();
      mark_not_twice_differentiable(
          once,
          "scatter_reduce(): the gradient of src when more than one zero of src is reduced into "
          "the same place of self",
          {grad, self, src});
      grad_src = once;
    }
  } else if (reduce == "mean") {
    Tensor n = include_self ? g::ones_like(grad) : g::zeros_like(grad);
    n = g::scatter_add(n, dim, index, g::ones_like(src));
    n = g::masked_fill(n, g::eq(n, 0), 1);
    grad_self = g::div(grad, n);
    grad_src = g::gather(grad_self, dim, index);
  } else if (reduce == "amax" || reduce == "amin") {
    const Tensor value = g::gather(result, dim, index);
    const Tensor self_is_result = g::to(g::eq(self, result), self.scalar_type());
    const Tensor src_is_result = g::to(g::eq(src, value), self.scalar_type());
    const Tensor n = g::scatter_add(self_is_result, dim, index, src_is_result);
    const Tensor grad_distributed = g::div(grad, n);
    grad_self = g::mul(self_is_result, grad_distributed);
    grad_src = g::mul(src_is_result, g::gather(grad_distributed, dim, index));
  } else {
    // "max" and "min", which the forward also takes (as PyTorch's), have no gradient there.
    throw std::runtime_error(
        "Expected 'reduce' argument to be one of 'sum', 'prod', 'mean', "
        "'amax' or 'amin' but got " +
        std::string(reduce) + ".");
  }
  if (!include_self) grad_self = g::scatter(grad_self, dim, index, Scalar(0));
  return {grad_self, grad_src};
}

/// scatter_reduce's tangent: the derivatives of each place of the result by self's element there
/// and by the src elements reduced into it (the backward's, at a gradient of ones), applied to
/// the tangents.
inline Tensor scatter_reduce_jvp(const Tensor& self_p, const Tensor& self_t, int64_t dim,
                                 const Tensor& index, const Tensor& src_p, const Tensor& src_t,
                                 std::string_view reduce, bool include_self, const Tensor& result) {
  namespace g = ::gradgen;
  auto [d_self, d_src] = scatter_reduce_backward(g::ones_like(result), self_p, dim, index, src_p,
                                                 reduce, include_self, result);
  return g::add(g::mul(self_t, d_self),
                g::scatter_add(g::zeros_like(result), dim, index, g::mul(src_t, d_src)));
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
