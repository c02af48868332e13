// Formula helpers of the golden spec (derivatives.yaml). They compute with the differentiable
// API, so each gradient is itself differentiable.
#pragma once

#include <array>
#include <tuple>
#include <vector>

#include "csrc/tensor.h"

namespace golden {
namespace helpers {

/// The gradient of foo (exp): grad * result. Checks that the saved sizes are result's.
gradgen::Tensor foo_backward(const gradgen::Tensor& grad, gradgen::IntArrayRef result_sizes,
                             const gradgen::Tensor& result);

/// The gradient of scaled_and_squared's input: alpha * grad0 + 2 * self * grad1 (an undefined
/// gradient contributes nothing). Checks that the saved sizes are the first output's.
gradgen::Tensor scaled_and_squared_backward(const gradgen::Tensor& grad0,
                                            const gradgen::Tensor& grad1,
                                            gradgen::IntArrayRef result0_sizes,
                                            const gradgen::Tensor& self, double alpha);

/// The gradients of weighted_sum's inputs: weights[i] * grad, each of the input's shape.
std::vector<gradgen::Tensor> weighted_sum_backward(const gradgen::Tensor& grad,
                                                   gradgen::ArrayRef<double> weights,
                                                   const std::vector<std::vector<int64_t>>& sizes);

/// The gradients of prod_all's inputs: grad * (product of all the other inputs).
std::vector<gradgen::Tensor> prod_all_backward(const gradgen::Tensor& grad,
                                               const std::vector<gradgen::Tensor>& tensors,
                                               const gradgen::Tensor& result);

/// `t` when `cond`, else an undefined tensor: what a formula sees of a value wrap_opt_if did not
/// save.
gradgen::Tensor wrap_opt_if(const gradgen::Tensor& t, bool cond);

/// The gradients of mul_pair(self, other) = self * other, for the inputs `mask` asks for. Throws
/// when a value the formula needs was not saved.
std::tuple<gradgen::Tensor, gradgen::Tensor> mul_pair_backward(const gradgen::Tensor& grad,
                                                               const gradgen::Tensor& self,
                                                               const gradgen::Tensor& other,
                                                               std::array<bool, 2> mask);

/// The gradient of cube: 3 * self^2 * grad. Records `retain_variables` for the test.
gradgen::Tensor cube_backward(const gradgen::Tensor& grad, const gradgen::Tensor& self,
                              bool retain_variables);

/// The `retain_variables` of the last cube_backward call.
bool last_retain_variables();

}  // namespace helpers
}  // namespace golden
