// Formula helpers of the tensor op library's scans, fourth batch (issue 23): the names PyTorch's
// cummax / cummin / logcumsumexp entries in specs/derivatives.yaml call, written with gradgen's
// differentiable API so that they are differentiable again.
#pragma once

#include <cstdint>
#include <limits>
#include <tuple>

#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// cummax's and cummin's gradient: grad scattered back (added) to the element each output
/// came from (PyTorch's cummaxmin_backward).
inline Tensor cummaxmin_backward(const Tensor& grad, const Tensor& input, const Tensor& indices,
                                 int64_t dim) {
  if (input.numel() == 0) return input;
  if (input.dim() == 0) return grad;
  return ::gradgen::scatter_add(::gradgen::zeros_like(input), dim, indices, grad);
}

/// logcumsumexp's gradient, PyTorch's: d self_j = sum over i >= j of grad_i exp(self_j -
/// result_i), computed as a reversed logcumsumexp of log|grad| - result, the positive and the
/// negative parts of grad apart (the lowest value standing for log 0).
inline Tensor logcumsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result,
                                    int64_t dim) {
  if (grad.dim() == 0 || grad.numel() == 0) return grad;
  const double lowest = self.scalar_type() == ScalarType::Float
                            ? static_cast<double>(std::numeric_limits<float>::lowest())
                            : std::numeric_limits<double>::lowest();
  auto reverse_logcumsumexp = [dim](const Tensor& x) {
    return ::gradgen::flip(::gradgen::logcumsumexp(::gradgen::flip(x, {dim}), dim), {dim});
  };
  const Tensor log_abs_grad = ::gradgen::log(::gradgen::abs(grad));
  const Tensor log_grad_positive = ::gradgen::where(::gradgen::gt(grad, 0), log_abs_grad, lowest);
  const Tensor log_grad_negative = ::gradgen::where(::gradgen::lt(grad, 0), log_abs_grad, lowest);
  const Tensor output_pos = ::gradgen::exp(
      ::gradgen::add(reverse_logcumsumexp(::gradgen::sub(log_grad_positive, result)), self));
  const Tensor output_neg = ::gradgen::exp(
      ::gradgen::add(reverse_logcumsumexp(::gradgen::sub(log_grad_negative, result)), self));
  return ::gradgen::sub(output_pos, output_neg);
}

/// logcumsumexp's tangent, PyTorch's: cumsum(exp(x - max) * t) / cumsum(exp(x - max)) along
/// dim (0 where the denominator is below 1e-13).
inline Tensor logcumsumexp_jvp(const Tensor& self_p, const Tensor& self_t, int64_t dim) {
  if (self_p.dim() == 0 || self_p.numel() == 0) return self_t;
  const Tensor self_p_exp =
      ::gradgen::exp(::gradgen::sub(self_p, std::get<0>(::gradgen::max(self_p, dim, true))));
  const Tensor cumsumexp_p = ::gradgen::cumsum(self_p_exp, dim);
  Tensor result = ::gradgen::cumsum(::gradgen::mul(self_p_exp, self_t), dim);
  result = ::gradgen::masked_fill(result, ::gradgen::lt(cumsumexp_p, 1e-13), 0);
  return ::gradgen::div(result, cumsumexp_p);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
