// Kernels of what PyTorch code calls besides the math (specs/native_functions.yaml, "What
// PyTorch code calls besides the math"): fill / fill_, the new_* factories, isclose / equal, and
// the CompositeImplicitAutograd aliases and conversions (clip, absolute, negative, fix, type_as,
// view_as), which call the differentiable ops so that their gradients are those ops'. Errors in
// PyTorch's words.
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"
#include "csrc/default_dtype.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

using gradgen::internal::in_composite_op;

// ---------------------------------------------------------------------------------------------
// fill
// ---------------------------------------------------------------------------------------------

namespace {

/// The 0-dim tensor's value as a Scalar of its kind.
Scalar fill_value(const Tensor& value) {
  if (value.dim() != 0) {
    throw std::runtime_error("fill_ only supports 0-dimension value tensor but got tensor with " +
                             std::to_string(value.dim()) + " dimensions.");
  }
  if (value.scalar_type() == ScalarType::Bool) return Scalar(value.item<bool>());
  if (is_floating_point(value.scalar_type())) return Scalar(value.item<double>());
  return Scalar(value.item<int64_t>());
}

/// A tolerance as PyTorch prints it ("-1", "-0.5").
std::string number_str(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

Tensor fill(const Tensor& self, const Scalar& value) {
  return full(self.sizes(), value, self.scalar_type());
}

Tensor fill(const Tensor& self, const Tensor& value) {
  return full(self.sizes(), fill_value(value), self.scalar_type());
}

Tensor& fill_(Tensor& self, const Scalar& value) {
  gradgen::internal::fill_(self, value);  // bumps the version
  return self;
}

Tensor& fill_(Tensor& self, const Tensor& value) {
  gradgen::internal::fill_(self, fill_value(value));
  return self;
}

// ---------------------------------------------------------------------------------------------
// new_*: self's dtype unless told
// ---------------------------------------------------------------------------------------------

Tensor new_empty(const Tensor& self, IntArrayRef size, std::optional<ScalarType> dtype,
                 std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return empty(size, dtype.value_or(self.scalar_type()));
}

Tensor new_full(const Tensor& self, IntArrayRef size, const Scalar& fill_value,
                std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
                std::optional<bool>) {
  return full(size, fill_value, dtype.value_or(self.scalar_type()));
}

Tensor new_zeros(const Tensor& self, IntArrayRef size, std::optional<ScalarType> dtype,
                 std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return zeros(size, dtype.value_or(self.scalar_type()));
}

Tensor new_ones(const Tensor& self, IntArrayRef size, std::optional<ScalarType> dtype,
                std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return ones(size, dtype.value_or(self.scalar_type()));
}

// ---------------------------------------------------------------------------------------------
// isclose, equal (allclose is the Python package's: isclose(...).all())
// ---------------------------------------------------------------------------------------------

/// PyTorch's isclose: equal, or (with equal_nan) both NaN, or |self - other| finite and at most
/// atol + |rtol * other|, computed in the default dtype for integers.
Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  if (self.scalar_type() != other.scalar_type()) {
    throw std::runtime_error(std::string(to_string(self.scalar_type())) + " did not match " +
                             to_string(other.scalar_type()));
  }
  if (!(rtol >= 0)) {
    throw std::runtime_error("rtol must be greater than or equal to zero, but got " +
                             number_str(rtol));
  }
  if (!(atol >= 0)) {
    throw std::runtime_error("atol must be greater than or equal to zero, but got " +
                             number_str(atol));
  }
  autograd::NoGradGuard no_grad;
  Tensor close = gradgen::eq(self, other);
  const bool floating = is_floating_point(self.scalar_type());
  if (equal_nan && floating) {
    close = gradgen::logical_or(close,
                                gradgen::logical_and(gradgen::isnan(self), gradgen::isnan(other)));
  }
  if ((rtol == 0 && atol == 0) || self.scalar_type() == ScalarType::Bool) return close;
  const ScalarType t = floating ? self.scalar_type() : get_default_dtype();
  const Tensor s = gradgen::to(self, t), o = gradgen::to(other, t);
  const Tensor allowed = gradgen::add(gradgen::abs(gradgen::mul(o, Scalar(rtol))), Scalar(atol));
  const Tensor actual = gradgen::abs(gradgen::sub(s, o));
  return gradgen::logical_or(close, gradgen::logical_and(gradgen::isfinite(actual),
                                                         gradgen::le(actual, allowed)));
}

/// True when both have the same sizes and equal elements (compared after promotion, as
/// PyTorch's: a float and a double tensor of the same values are equal; NaN equals nothing).
bool equal(const Tensor& self, const Tensor& other) {
  if (!self.sizes().equals(other.sizes())) return false;
  autograd::NoGradGuard no_grad;
  return gradgen::all(gradgen::eq(self, other)).item<bool>();
}

// ---------------------------------------------------------------------------------------------
// CompositeImplicitAutograd aliases and conversions
// ---------------------------------------------------------------------------------------------

Tensor clip(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  return in_composite_op("clip", [&] { return gradgen::clamp(self, min, max); });
}

Tensor clip(const Tensor& self, const std::optional<Tensor>& min,
            const std::optional<Tensor>& max) {
  return in_composite_op("clip", [&] { return gradgen::clamp(self, min, max); });
}

Tensor absolute(const Tensor& self) {
  return in_composite_op("absolute", [&] { return gradgen::abs(self); });
}

Tensor negative(const Tensor& self) {
  return in_composite_op("negative", [&] { return gradgen::neg(self); });
}

Tensor fix(const Tensor& self) {
  return in_composite_op("fix", [&] { return gradgen::trunc(self); });
}

Tensor type_as(const Tensor& self, const Tensor& other) {
  return in_composite_op("type_as", [&] { return gradgen::to(self, other.scalar_type()); });
}

Tensor view_as(const Tensor& self, const Tensor& other) {
  return in_composite_op("view_as", [&] { return gradgen::view(self, other.sizes()); });
}

// torch.linalg.diagonal: diagonal with the last two dims by default (a view, DiagonalBackward0's).
Tensor linalg_diagonal(const Tensor& A, int64_t offset, int64_t dim1, int64_t dim2) {
  return in_composite_op("linalg_diagonal",
                         [&] { return gradgen::diagonal(A, offset, dim1, dim2); });
}

}  // namespace native
}  // namespace gradgen
