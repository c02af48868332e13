#include "csrc/autograd/formulas_tensorops.h"

#include "csrc/autograd/formulas.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

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
                                          const Tensor& other,
                                          std::array<bool, 2> grad_input_mask) {
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

Tensor div_tensor_self_backward(const Tensor& grad, const Scalar& other, ScalarType self_st,
                                std::optional<std::string_view> rounding_mode) {
  if (rounding_mode.has_value()) return zeros_like(grad, self_st);
  return div_tensor_self_backward(grad, other, self_st);
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

// ---------------------------------------------------------------------------------------------
// Reductions and scans
// ---------------------------------------------------------------------------------------------

namespace {

// dims wrapped for a tensor of ndim dims, sorted; every dim when dims is empty.
std::vector<int64_t> wrapped_dims(IntArrayRef dims, int64_t ndim) {
  std::vector<int64_t> out;
  if (dims.empty()) {
    for (int64_t d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  for (int64_t d : dims) out.push_back(d < 0 ? d + std::max<int64_t>(ndim, 1) : d);
  std::sort(out.begin(), out.end());
  return out;
}

// t reversed along dim (index_select with the reversed indices: differentiable).
Tensor flip_dim(const Tensor& t, int64_t dim) {
  const int64_t n = t.size(dim);
  Tensor index = empty({n}, ScalarType::Long);
  for (int64_t i = 0; i < n; ++i) index.data_ptr<int64_t>()[i] = n - 1 - i;
  return index_select(t, dim, index);
}

// The product of every element of input along dim but the one at each position (exact with
// zeros): exclusive cumulative products from the left times those from the right.
Tensor prod_safe_zeros_backward(const Tensor& grad, const Tensor& input, int64_t dim) {
  if (input.numel() == 0) return expand(grad, input.sizes());
  const int64_t n = input.size(dim);
  const Tensor ones = ones_like(narrow(input, dim, 0, 1));
  const Tensor left = cumprod(cat({ones, narrow(input, dim, 0, n - 1)}, dim), dim);
  const Tensor right =
      flip_dim(cumprod(cat({ones, flip_dim(narrow(input, dim, 1, n - 1), dim)}, dim), dim), dim);
  return grad * (left * right);
}

}  // namespace

Tensor restore_reduced_dims(const Tensor& output, IntArrayRef dims, bool keepdim) {
  if (keepdim) return output;
  const int64_t total = output.dim() + static_cast<int64_t>(dims.size());
  std::vector<int64_t> shape(static_cast<size_t>(total), 0);
  for (int64_t d : dims) shape[static_cast<size_t>(d < 0 ? d + total : d)] = 1;
  int64_t j = 0;
  for (int64_t& s : shape) {
    if (s == 0) s = output.size(j++);
  }
  return reshape(output, shape);
}

Tensor scale_grad_by_count(const Tensor& grad, const Tensor& mask, IntArrayRef dims) {
  return (grad / sum(mask, dims, true)) * mask;
}

Tensor amaxamin_jvp(const Tensor& x, const Tensor& dx, const Tensor& result, IntArrayRef dim,
                    bool keepdim) {
  const Tensor mask = eq(x, restore_reduced_dims(result, dim, keepdim));
  return sum(where(mask, dx, 0), dim, keepdim) / sum(mask, dim, keepdim);
}

namespace {

// The dims aminmax reduced, listed (so that restore_reduced_dims and keepdim work for dim=None
// too): {dim} wrapped, none for a 0-dim self, every dim without dim.
std::vector<int64_t> aminmax_dims(const Tensor& self, std::optional<int64_t> dim) {
  std::vector<int64_t> dims;
  if (self.dim() == 0) return dims;
  if (dim.has_value()) return {wrap_dim(*dim, self.dim(), "aminmax")};
  for (int64_t d = 0; d < self.dim(); ++d) dims.push_back(d);
  return dims;
}

}  // namespace

Tensor aminmax_backward(const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                        const Tensor& grad_min, const Tensor& grad_max, const Tensor& min,
                        const Tensor& max) {
  const std::vector<int64_t> dims = aminmax_dims(self, dim);
  Tensor grad_input = zeros_like(self);
  // Only the outputs that reached the loss have a gradient (aminmax(x).max alone: no grad_min).
  for (const auto& [grad, value] : {std::pair(grad_min, min), std::pair(grad_max, max)}) {
    if (!grad.defined()) continue;
    const Tensor mask = eq(self, restore_reduced_dims(value, dims, keepdim));
    grad_input =
        grad_input + scale_grad_by_count(restore_reduced_dims(grad, dims, keepdim), mask, dims);
  }
  return grad_input;
}

Tensor aminmax_jvp(const Tensor& x, const Tensor& dx, const Tensor& result,
                   std::optional<int64_t> dim, bool keepdim) {
  return amaxamin_jvp(x, dx, result, aminmax_dims(x, dim), keepdim);
}

namespace {

// Where input is the selected value (input is NaN where value is: NaN != NaN).
Tensor selected_mask(const Tensor& input, const Tensor& value) {
  return logical_or(eq(input, value), logical_and(isnan(input), isnan(value)));
}

}  // namespace

Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& input, const Tensor& value) {
  const Tensor mask = selected_mask(input, value);
  return where(mask, grad / sum(mask), zeros_like(input));
}

Tensor evenly_read_jvp(const Tensor& fw_grad, const Tensor& input, const Tensor& value) {
  const Tensor mask = selected_mask(input, value);
  return sum(where(mask, fw_grad, 0)) / sum(mask);
}

Tensor nansum_backward(const Tensor& grad, const Tensor& self, OptionalIntArrayRef dims,
                       bool keepdim) {
  // A product with the mask, as PyTorch: an inf or NaN gradient gives NaN at the NaNs too.
  return sum_backward(grad, self.sizes(), dims, keepdim) * logical_not(isnan(self));
}

Tensor prod_backward(const Tensor& grad, const Tensor& input, const Tensor& result) {
  if (input.dim() == 0) return grad;
  if (!any(eq(input, 0)).item<bool>()) return grad * (result / input);
  const Tensor flat = reshape(input, {-1});
  return reshape(prod_safe_zeros_backward(expand(grad, flat.sizes()), flat, 0), input.sizes());
}

Tensor prod_backward(const Tensor& grad_, const Tensor& input, const Tensor& result_, int64_t dim,
                     bool keepdim) {
  if (input.dim() == 0) return grad_;
  const int64_t d = dim < 0 ? dim + input.dim() : dim;
  const Tensor grad = keepdim ? grad_ : unsqueeze(grad_, d);
  const Tensor result = keepdim ? result_ : unsqueeze(result_, d);
  if (!any(eq(input, 0)).item<bool>()) return grad * (result / input);
  return prod_safe_zeros_backward(grad, input, d);
}

Tensor cumsum_backward(const Tensor& grad, int64_t dim) {
  if (grad.numel() <= 1 || grad.dim() == 0) return grad;
  const int64_t d = dim < 0 ? dim + grad.dim() : dim;
  if (grad.size(d) == 1) return grad;
  return flip_dim(cumsum(flip_dim(grad, d), d), d);
}

Tensor var_backward(const Tensor& grad_, const Tensor& self, OptionalIntArrayRef dim,
                    const std::optional<Scalar>& correction_, bool keepdim) {
  const double correction = correction_.has_value() ? correction_->to_double() : 1.0;
  const bool all = self.dim() == 0 || !dim.has_value() || dim->empty();
  if (all) {
    const double dof = static_cast<double>(self.numel()) - correction;
    if (dof <= 0) {
      // 2 / dof is inf; 0 * inf is NaN where self equals its mean.
      return grad_ * where(eq(self, mean(self)), std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity());
    }
    return (2.0 / dof) * grad_ * (self - mean(self));
  }
  const std::vector<int64_t> dims = wrapped_dims(*dim, self.dim());
  Tensor grad = grad_;
  if (!keepdim && self.dim() > 1) {
    for (int64_t d : dims) grad = unsqueeze(grad, d);
  }
  int64_t n = 1;
  for (int64_t d : dims) n *= self.size(d);
  return (2.0 / (static_cast<double>(n) - correction)) * grad *
         (self - mean(self, IntArrayRef(dims), true));
}

Tensor std_backward(const Tensor& result, const Tensor& grad, const Tensor& self,
                    OptionalIntArrayRef dim, const std::optional<Scalar>& correction,
                    bool keepdim) {
  const Tensor grad_var = masked_fill(grad / (result * 2), eq(result, 0), 0);
  return var_backward(grad_var, self, dim, correction, keepdim);
}

Tensor var_mean_backward(const Tensor& gvar, const Tensor& gmean, const Tensor& self,
                         OptionalIntArrayRef dim, const std::optional<Scalar>& correction,
                         bool keepdim) {
  Tensor gself;
  if (gvar.defined()) gself = var_backward(gvar, self, dim, correction, keepdim);
  if (gmean.defined()) {
    const Tensor aux = mean_backward(gmean, self.sizes(), dim, self.numel(), keepdim);
    gself = gself.defined() ? gself + aux : aux;
  }
  return gself;
}

Tensor std_mean_backward(const Tensor& gstd, const Tensor& gmean, const Tensor& self,
                         const Tensor& std_result, OptionalIntArrayRef dim,
                         const std::optional<Scalar>& correction, bool keepdim) {
  Tensor gself;
  if (gstd.defined()) gself = std_backward(std_result, gstd, self, dim, correction, keepdim);
  if (gmean.defined()) {
    const Tensor aux = mean_backward(gmean, self.sizes(), dim, self.numel(), keepdim);
    gself = gself.defined() ? gself + aux : aux;
  }
  return gself;
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
