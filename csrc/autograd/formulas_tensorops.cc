#include "csrc/autograd/formulas_tensorops.h"

#include "csrc/autograd/formulas.h"

#include <limits>

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

Tensor log1p_backward(const Tensor& grad, const Tensor& self) { return grad / (self + 1); }

Tensor sgn_backward(const Tensor& self, const Tensor& grad, const Tensor& result) {
  // PyTorch's complex formula (grad - sgn * Re(conj(sgn) * grad)) / |self| reduces to zeros on
  // real values, which is what PyTorch gives for real tensors (NaN, inf and 0 included).
  (void)self;
  (void)result;
  return zeros_like(grad);
}

Tensor infinitely_differentiable_logit_backward(const Tensor& grad, const Tensor& self,
                                                std::optional<double> eps) {
  const double lo = eps ? *eps : 0.0;
  const double hi = eps ? 1.0 - *eps : 1.0;
  const Tensor inside = mul(ge(self, lo), le(self, hi));  // `and` of two Bool tensors
  const double outside = eps ? 0.0 : std::numeric_limits<double>::quiet_NaN();
  const Tensor d = grad / (self * (1 - self));
  return where(inside, d, add(zeros_like(d), outside));
}


// ---------------------------------------------------------------------------------------------
// Element-wise binary
// ---------------------------------------------------------------------------------------------

std::tuple<Tensor, Tensor> atan2_backward(const Tensor& grad, const Tensor& self,
                                          const Tensor& other, std::array<bool, 2> grad_input_mask) {
  if (!grad.defined()) return {Tensor(), Tensor()};
  // 1 / (self^2 + other^2), 0 where that is 0 (self = other = 0: the gradient PyTorch gives).
  Tensor recip = reciprocal(self * self + other * other);
  recip = masked_fill(recip, isinf(recip), 0);
  return {grad_input_mask[0] ? sum_to(grad * other * recip, self.sizes()) : Tensor(),
          grad_input_mask[1] ? sum_to(grad * -self * recip, other.sizes()) : Tensor()};
}

Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, ScalarType self_st,
                                std::optional<std::string_view> rounding_mode) {
  if (rounding_mode.has_value()) return zeros_like(grad, self_st);
  return grad / other;
}

Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other,
                                 std::optional<std::string_view> rounding_mode) {
  if (rounding_mode.has_value()) return zeros_like(grad);
  // (self / other) / other, no other * other to underflow (as div.Tensor's formula).
  return -grad * ((self / other) / other);
}

Tensor clamp_backward(const Tensor& grad, const Tensor& self, const Tensor& min,
                      const Tensor& max) {
  // where(), not a product with the mask: a clamped element gets 0 even from an inf or NaN grad.
  const Tensor zero = zeros_like(grad);
  if (min.defined() && max.defined()) {
    return where(logical_and(ge(self, min), le(self, max)), grad, zero);
  }
  if (min.defined()) return where(ge(self, min), grad, zero);
  if (max.defined()) return where(le(self, max), grad, zero);
  return grad;
}

std::tuple<Tensor, Tensor> clamp_backward_min_max(const Tensor& grad, const Tensor& self,
                                                  const Tensor& min, const Tensor& max,
                                                  std::array<bool, 2> grad_input_mask) {
  Tensor grad_min, grad_max;
  if (!grad.defined()) return {grad_min, grad_max};
  const Tensor zero = zeros_like(grad);
  if (min.defined() && max.defined()) {
    if (grad_input_mask[0]) {
      grad_min = sum_to(where(logical_and(lt(self, min), lt(min, max)), grad, zero), min.sizes());
    }
    if (grad_input_mask[1]) {
      grad_max = sum_to(where(logical_or(gt(self, max), lt(max, min)), grad, zero), max.sizes());
    }
  } else if (min.defined() && grad_input_mask[0]) {
    grad_min = sum_to(where(lt(self, min), grad, zero), min.sizes());
  } else if (max.defined() && grad_input_mask[1]) {
    grad_max = sum_to(where(gt(self, max), grad, zero), max.sizes());
  }
  return {grad_min, grad_max};
}

Tensor clamp_jvp(const Tensor& self_p, const Tensor& self_t, const std::optional<Tensor>& min_,
                 const Tensor& min_t, const std::optional<Tensor>& max_, const Tensor& max_t) {
  const Tensor min_p = min_ ? *min_ : Tensor(), max_p = max_ ? *max_ : Tensor();
  // An absent tangent of a present bound counts as zeros.
  auto tangent = [](const Tensor& t, const Tensor& p) { return t.defined() ? t : zeros_like(p); };
  if (min_p.defined() && max_p.defined()) {
    const Tensor mt = tangent(min_t, min_p), xt = tangent(max_t, max_p);
    return where(gt(min_p, max_p), xt,
                 where(lt(self_p, min_p), mt, where(gt(self_p, max_p), xt, self_t)));
  }
  if (min_p.defined()) return where(gt(self_p, min_p), self_t, tangent(min_t, min_p));
  if (max_p.defined()) return where(lt(self_p, max_p), self_t, tangent(max_t, max_p));
  return self_t;
}

Tensor copysign_tensor_self_backward(const Tensor& grad, const Tensor& self, const Tensor& result) {
  return grad * masked_fill(result / self, eq(self, 0), 0);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
