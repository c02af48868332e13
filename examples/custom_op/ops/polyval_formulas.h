// Formula helpers of polyval (ops/derivatives.yaml), called by the generated PolyvalBackward0.
//
// The generated Functions.cpp includes this header and does `using namespace
// ::custom_op::formulas;` (formula_headers and formula_namespaces in BUILD.bazel), so the formulas
// call these functions unqualified. They compute with plain loops over float64 data: first
// derivatives only. When a graph is being recorded (create_graph), their results carry an Error
// node, so a double backward through them fails loudly instead of returning a wrong gradient.
#pragma once

#include <cstddef>
#include <vector>

#include "csrc/tensor.h"

namespace custom_op {
namespace formulas {

/// Returns the gradients of polyval(coeffs, x) for its n coefficients: grad * x^i for
/// coeffs[i], i in [0, n).
std::vector<gradgen::Tensor> polyval_coeffs_backward(const gradgen::Tensor& grad,
                                                     const gradgen::Tensor& x, size_t n);

/// Returns the gradient of polyval(coeffs, x) for x: grad * (coeffs[1] + 2 coeffs[2] x + ...).
gradgen::Tensor polyval_x_backward(const gradgen::Tensor& grad,
                                   const std::vector<gradgen::Tensor>& coeffs,
                                   const gradgen::Tensor& x);

}  // namespace formulas
}  // namespace custom_op
