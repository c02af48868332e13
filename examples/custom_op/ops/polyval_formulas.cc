// Formula helpers of polyval: see polyval_formulas.h.
#include "ops/polyval_formulas.h"

#include <stdexcept>
#include <string>

#include "csrc/autograd/basic_ops.h"
#include "csrc/autograd/grad_mode.h"

namespace custom_op {
namespace formulas {
namespace {

using gradgen::Tensor;

// Returns t's float64 data, contiguous; throws naming `what` unless t is float64 of x's shape.
Tensor checked_double(const Tensor& t, const Tensor& x, const std::string& what) {
  if (t.scalar_type() != gradgen::ScalarType::Double) {
    throw std::invalid_argument(what + ": expected a Double tensor, got " +
                                gradgen::to_string(t.scalar_type()));
  }
  if (!t.sizes().equals(x.sizes())) {
    throw std::invalid_argument(what + ": expected the shape of x, " +
                                gradgen::shape_str(x.sizes()) + ", got " +
                                gradgen::shape_str(t.sizes()));
  }
  return t.contiguous();
}

// Loops record no history: make a double backward through `result` fail loudly.
void guard_double_backward(Tensor& result, const char* formula, std::vector<Tensor> inputs) {
  if (gradgen::autograd::GradMode::is_enabled()) {
    gradgen::autograd::mark_not_twice_differentiable(result, formula, inputs);
  }
}

}  // namespace

std::vector<Tensor> polyval_coeffs_backward(const Tensor& grad, const Tensor& x, size_t n) {
  const Tensor g = checked_double(grad, x, "polyval_coeffs_backward: grad");
  const Tensor xc = checked_double(x, x, "polyval_coeffs_backward: x");
  const double* gp = g.data_ptr<double>();
  const double* xp = xc.data_ptr<double>();
  std::vector<Tensor> result;
  result.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Tensor gi = gradgen::empty(x.sizes());
    double* out = gi.data_ptr<double>();
    for (int64_t j = 0; j < x.numel(); ++j) {
      double power = 1;  // x^i
      for (size_t k = 0; k < i; ++k) power *= xp[j];
      out[j] = gp[j] * power;
    }
    guard_double_backward(gi, "polyval_coeffs_backward", {grad, x});
    result.push_back(gi);
  }
  return result;
}

Tensor polyval_x_backward(const Tensor& grad, const std::vector<Tensor>& coeffs, const Tensor& x) {
  const Tensor g = checked_double(grad, x, "polyval_x_backward: grad");
  const Tensor xc = checked_double(x, x, "polyval_x_backward: x");
  std::vector<Tensor> cs;
  for (size_t i = 0; i < coeffs.size(); ++i) {
    cs.push_back(
        checked_double(coeffs[i], x, "polyval_x_backward: coeffs[" + std::to_string(i) + "]"));
  }
  const double* gp = g.data_ptr<double>();
  const double* xp = xc.data_ptr<double>();
  Tensor result = gradgen::empty(x.sizes());
  double* out = result.data_ptr<double>();
  for (int64_t j = 0; j < x.numel(); ++j) {
    // Horner on the derivative: sum_{i>=1} i coeffs[i] x^(i-1).
    double slope = 0;
    for (size_t i = cs.size(); i-- > 1;) {
      slope = slope * xp[j] + static_cast<double>(i) * cs[i].data_ptr<double>()[j];
    }
    out[j] = gp[j] * slope;
  }
  std::vector<Tensor> inputs = {grad, x};
  inputs.insert(inputs.end(), coeffs.begin(), coeffs.end());
  guard_double_backward(result, "polyval_x_backward", inputs);
  return result;
}

}  // namespace formulas
}  // namespace custom_op
