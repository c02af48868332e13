// Formula helpers of the tensor op library (issue 23): the FunctionsManual.cpp functions that
// its entries in specs/derivatives.yaml call, written with gradgen's differentiable API so that
// they are differentiable again (double backward), like those of formulas.h.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string_view>
#include <tuple>

#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

// The <cmath> constants PyTorch's formulas name (POSIX, not ISO C++: a strict -std= hides them).
#ifndef M_LN2
#define M_LN2 0.693147180559945309417232121458176568
#endif
#ifndef M_LN10
#define M_LN10 2.30258509299404568401799145468436421
#endif
#ifndef M_2_SQRTPI
#define M_2_SQRTPI 1.12837916709551257389615890312154517
#endif
#ifndef M_PI_4
#define M_PI_4 0.785398163397448309615660845819875721
#endif

namespace gradgen {

// PyTorch's formulas say GradMode::is_enabled() (logit's); forward formulas are expanded in
// namespace gradgen (VariableType.cpp), backward ones in gradgen::autograd::generated.
using autograd::GradMode;

namespace autograd {
namespace generated {
namespace details {

/// d/dself of log1p(self): grad / (self + 1).
Tensor log1p_backward(const Tensor& grad, const Tensor& self);

/// d/dself of sgn(self) (PyTorch's sgn_backward) on real values: zeros, NaN and 0 included.
Tensor sgn_backward(const Tensor& self, const Tensor& grad, const Tensor& result);

/// d/dself of logit(self, eps) written with differentiable ops: grad / (self * (1 - self))
/// inside [eps, 1 - eps] (or [0, 1] without eps); outside it 0 with eps and NaN without.
Tensor infinitely_differentiable_logit_backward(const Tensor& grad, const Tensor& self,
                                                std::optional<double> eps);

// ---------------------------------------------------------------------------------------------
// Element-wise binary
// ---------------------------------------------------------------------------------------------

/// d/dself and d/dother of atan2(self, other): grad * other / (self^2 + other^2) and
/// -grad * self / (self^2 + other^2) (0 where both are 0), each summed to its operand's shape;
/// undefined where grad_input_mask says the gradient is not needed.
std::tuple<Tensor, Tensor> atan2_backward(const Tensor& grad, const Tensor& self,
                                          const Tensor& other, std::array<bool, 2> grad_input_mask);

/// d/dself of div(self, other, rounding_mode): grad / other for true division, zeros (a step
/// function) with a rounding mode. In the broadcast shape (the formula sums it to self's).
Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, ScalarType self_st,
                                std::optional<std::string_view> rounding_mode);
/// The same for a Scalar divisor (div.Scalar_mode).
Tensor div_tensor_self_backward(const Tensor& grad, const Scalar& other, ScalarType self_st,
                                std::optional<std::string_view> rounding_mode);
/// d/dother of div(self, other, rounding_mode): -grad * self / other^2, zeros with a mode.
Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other,
                                 std::optional<std::string_view> rounding_mode);

/// d/dself of clamp(self, min, max) with Tensor bounds (undefined when absent): grad where
/// min <= self <= max, else 0 (in the broadcast shape).
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max);
/// d/dmin and d/dmax of clamp(self, min, max): grad where the bound is the result (self below
/// min < max for min; self above max, or max below min, for max), summed to the bounds' shapes.
std::tuple<Tensor, Tensor> clamp_backward_min_max(const Tensor& grad, const Tensor& self,
                                                  const Tensor& min, const Tensor& max,
                                                  std::array<bool, 2> grad_input_mask);
/// The tangent of clamp(self, min, max): the tangent of whichever operand the result is.
Tensor clamp_jvp(const Tensor& self_p, const Tensor& self_t, const std::optional<Tensor>& min_,
                 const Tensor& min_t, const std::optional<Tensor>& max_, const Tensor& max_t);

/// d/dself of copysign(self, other): grad * (result / self), 0 where self is 0.
Tensor copysign_tensor_self_backward(const Tensor& grad, const Tensor& self, const Tensor& result);

// ---------------------------------------------------------------------------------------------
// Reductions and scans
// ---------------------------------------------------------------------------------------------

/// `output` of a reduction over dims with keepdim=false given back its reduced dims (of size 1),
/// so that it broadcasts against the input; itself with keepdim.
Tensor restore_reduced_dims(const Tensor& output, IntArrayRef dims, bool keepdim);
/// grad spread evenly over the positions of mask (the ties of amax / amin): grad * mask / count.
Tensor scale_grad_by_count(const Tensor& grad, const Tensor& mask, IntArrayRef dims);
/// The tangent of amax / amin: the mean of the tangents at the extremal positions.
Tensor amaxamin_jvp(const Tensor& x, const Tensor& dx, const Tensor& result, IntArrayRef dim,
                    bool keepdim);
/// The gradient of aminmax: each defined one of grad_min / grad_max spread evenly over the ties of
/// its extremum, as amin's and amax's (dim: the one reduced dim; none: every dim).
Tensor aminmax_backward(const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                        const Tensor& grad_min, const Tensor& grad_max, const Tensor& min,
                        const Tensor& max);
/// The tangent of one output of aminmax (`result`, its min or its max): amaxamin_jvp's.
Tensor aminmax_jvp(const Tensor& x, const Tensor& dx, const Tensor& result,
                   std::optional<int64_t> dim, bool keepdim);
/// The gradient of max() / min() / median() over every element: grad split evenly between the
/// elements equal to the result (the NaNs when the result is NaN).
Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& input, const Tensor& value);
/// The tangent of max() / min(): the mean of the tangents at the elements equal to the result.
Tensor evenly_read_jvp(const Tensor& fw_grad, const Tensor& input, const Tensor& value);
/// The gradient of nansum: sum's times 0 at the NaNs.
Tensor nansum_backward(const Tensor& grad, const Tensor& self, OptionalIntArrayRef dims,
                       bool keepdim);
/// The gradient of prod(self): grad * result / self without zeros, else the exact products of
/// the other elements (PyTorch's prod_safe_zeros_backward, through cumprod).
Tensor prod_backward(const Tensor& grad, const Tensor& input, const Tensor& result);
/// The gradient of prod(self, dim, keepdim), likewise.
Tensor prod_backward(const Tensor& grad, const Tensor& input, const Tensor& result, int64_t dim,
                     bool keepdim);
/// The gradient of cumsum(self, dim): the reversed cumulative sum of grad along dim.
Tensor cumsum_backward(const Tensor& grad, int64_t dim);
/// The gradient of var(self, dim, correction, keepdim): 2 (self - mean) / (n - correction) *
/// grad; over every element with n <= correction: inf, NaN where self equals its mean.
Tensor var_backward(const Tensor& grad, const Tensor& self, OptionalIntArrayRef dim,
                    const std::optional<Scalar>& correction, bool keepdim);
/// The gradient of std: var's of grad / (2 std), 0 where std is 0.
Tensor std_backward(const Tensor& result, const Tensor& grad, const Tensor& self,
                    OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim);
/// The gradients of var_mean / std_mean: var's (std's) plus mean's, either gradient absent.
Tensor var_mean_backward(const Tensor& gvar, const Tensor& gmean, const Tensor& self,
                         OptionalIntArrayRef dim, const std::optional<Scalar>& correction,
                         bool keepdim);
Tensor std_mean_backward(const Tensor& gstd, const Tensor& gmean, const Tensor& self,
                         const Tensor& std_result, OptionalIntArrayRef dim,
                         const std::optional<Scalar>& correction, bool keepdim);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
