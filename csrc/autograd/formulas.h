// Hand-written helpers called by derivative formulas in specs/derivatives.yaml.
//
// The generated Functions.cpp does `using namespace details;` so a formula such as
//   tensors: cat_tensors_backward(grad, to_args_sizes(tensors), dim)
// calls these functions unqualified. Helpers written with the differentiable ops
// of VariableType.h (gradgen::narrow, gradgen::cat, ...) are themselves
// differentiable, so a double backward (create_graph=true) through them works.
// Helpers computed with plain loops say so and attach an Error node (basic_ops.h)
// when a graph is recorded, so a double backward through them fails loudly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// Splits the gradient of cat(tensors, dim) into one gradient per input, given
/// the inputs' sizes. Differentiable (uses gradgen::narrow).
std::vector<Tensor> cat_tensors_backward(const Tensor& grad,
                                         const std::vector<std::vector<int64_t>>& sizes,
                                         int64_t dim);

/// Returns the gradient of narrow(self, dim, start, length): grad padded with
/// zeros back to self_sizes. Differentiable (uses gradgen::cat).
Tensor narrow_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, int64_t start,
                       int64_t length);

/// Returns the gradients of lincomb(tensors, coeffs) for its n tensors:
/// coeffs[i] * grad. Differentiable in grad and coeffs (uses gradgen::lincomb and
/// gradgen::narrow).
std::vector<Tensor> lincomb_tensors_backward(const Tensor& grad, const Tensor& coeffs, size_t n);

/// Returns the gradient of lincomb(tensors, coeffs) for coeffs: the 1-D tensor of
/// sum(grad * tensors[i]). Computed with plain loops: not twice differentiable yet.
Tensor lincomb_coeffs_backward(const Tensor& grad, const std::vector<Tensor>& tensors);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
