// The tensor op library's creation ops, third batch (issue 23): arange, linspace, logspace, eye,
// full_like and empty_like, with PyTorch's dtype rules and errors. Their out= variants compute
// in out's dtype and resize out (csrc/native/type_promotion.h's write_out).
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "csrc/core_kernels.h"
#include "csrc/default_dtype.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

std::string str(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// arange's elements start + i * step in dtype, with PyTorch's checks on the range.
Tensor arange_in(const char* op, const Scalar& start, const Scalar& end, const Scalar& step,
                 ScalarType dtype) {
  const bool integral = !is_floating_point(dtype);
  const double xstart = start.to_double(), xend = end.to_double(), xstep = step.to_double();
  if (xstep == 0) throw std::runtime_error(std::string(op) + ": step must be nonzero");
  if (!std::isfinite(xstart) || !std::isfinite(xend)) {
    throw std::runtime_error(std::string(op) + ": unsupported range: " + str(xstart) + " -> " +
                             str(xend));
  }
  if ((xstep > 0 && xend < xstart) || (xstep < 0 && xend > xstart)) {
    throw std::runtime_error(std::string(op) +
                             ": upper bound and larger bound inconsistent with step sign");
  }
  // The count in double, as PyTorch's (integer dtypes: from the integer values).
  const double count = integral ? std::ceil(static_cast<double>(end.to_long() - start.to_long()) /
                                            static_cast<double>(step.to_long()))
                                : std::ceil((xend - xstart) / xstep);
  if (!(count >= 0) || count > 9.0e18) {
    throw std::runtime_error(std::string(op) + ": invalid size, possible overflow?");
  }
  const int64_t n = static_cast<int64_t>(count);
  Tensor result = empty({n}, dtype);
  internal::dispatch_all(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* out = result.data_ptr<T>();
    if constexpr (is_floating_type<T>::value) {
      for (int64_t i = 0; i < n; ++i)
        out[i] = static_cast<T>(xstart + static_cast<double>(i) * xstep);
    } else {
      const int64_t s = start.to_long(), d = step.to_long();
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(s + i * d);
    }
  });
  return result;
}

// Long when every Scalar is an integer, else the default dtype (get_default_dtype()).
ScalarType arange_dtype(std::optional<ScalarType> dtype, const Scalar& start, const Scalar& end,
                        const Scalar& step) {
  if (dtype) return *dtype;
  const bool floating =
      start.is_floating_point() || end.is_floating_point() || step.is_floating_point();
  return floating ? get_default_dtype() : ScalarType::Long;
}

void check_steps(const char* op, int64_t steps) {
  if (steps < 0)
    throw std::runtime_error(std::string(op) + ": number of steps must be non-negative");
}

// linspace's points in dtype: from start for the first half, from end for the second, as
// PyTorch's kernel (so both ends are exact); integer dtypes step in double and truncate.
Tensor linspace_in(const Scalar& start, const Scalar& end, int64_t steps, ScalarType dtype) {
  check_steps("linspace", steps);
  Tensor result = empty({steps}, dtype);
  internal::dispatch_all(dtype, [&](auto tag) {
    using T = decltype(tag);
    using Step = std::conditional_t<is_floating_type<T>::value, T, double>;
    T* out = result.data_ptr<T>();
    const T a = static_cast<T>(is_floating_type<T>::value ? start.to_double() : start.to_long());
    const T b = static_cast<T>(is_floating_type<T>::value ? end.to_double() : end.to_long());
    if (steps == 1) out[0] = a;
    if (steps < 2) return;
    const Step step = (static_cast<Step>(b) - static_cast<Step>(a)) / static_cast<Step>(steps - 1);
    const int64_t halfway = steps / 2;
    for (int64_t i = 0; i < steps; ++i) {
      out[i] = i < halfway ? static_cast<T>(a + step * static_cast<Step>(i))
                           : static_cast<T>(b - step * static_cast<Step>(steps - i - 1));
    }
  });
  return result;
}

Tensor logspace_in(const Scalar& start, const Scalar& end, int64_t steps, double base,
                   ScalarType dtype) {
  check_steps("logspace", steps);
  Tensor result = empty({steps}, dtype);
  const double a = start.to_double(), b = end.to_double();
  const double step = steps > 1 ? (b - a) / static_cast<double>(steps - 1) : 0.0;
  const int64_t halfway = steps / 2;
  internal::dispatch_all(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* out = result.data_ptr<T>();
    for (int64_t i = 0; i < steps; ++i) {
      const double x = i < halfway ? a + step * static_cast<double>(i)
                                   : b - step * static_cast<double>(steps - i - 1);
      out[i] = static_cast<T>(std::pow(base, x));
    }
  });
  return result;
}

Tensor eye_in(int64_t n, int64_t m, ScalarType dtype) {
  if (n < 0)
    throw std::runtime_error("eye: n must be greater or equal to 0, got " + std::to_string(n));
  if (m < 0)
    throw std::runtime_error("eye: m must be greater or equal to 0, got " + std::to_string(m));
  Tensor result = zeros({n, m}, dtype);
  internal::dispatch_all(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* out = result.data_ptr<T>();
    for (int64_t i = 0; i < std::min(n, m); ++i) out[i * m + i] = T(1);
  });
  return result;
}

}  // namespace

Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Layout>,
              std::optional<Device>, std::optional<bool>) {
  return arange_in("arange", 0, end, 1, arange_dtype(dtype, 0, end, 1));
}
Tensor arange(const Scalar& start, const Scalar& end, std::optional<ScalarType> dtype,
              std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  return arange_in("arange", start, end, 1, arange_dtype(dtype, start, end, 1));
}
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
              std::optional<bool>) {
  return arange_in("arange", start, end, step, arange_dtype(dtype, start, end, step));
}
Tensor& arange_out(const Scalar& end, Tensor& out) {
  return write_out("arange.out", arange_in("arange", 0, end, 1, out.scalar_type()), out);
}
Tensor& arange_out(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out) {
  return write_out("arange.start_out", arange_in("arange", start, end, step, out.scalar_type()),
                   out);
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
                std::optional<bool>) {
  return linspace_in(start, end, steps, dtype.value_or(get_default_dtype()));
}
Tensor& linspace_out(const Scalar& start, const Scalar& end, int64_t steps, Tensor& out) {
  return write_out("linspace.out", linspace_in(start, end, steps, out.scalar_type()), out);
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base,
                std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
                std::optional<bool>) {
  return logspace_in(start, end, steps, base, dtype.value_or(get_default_dtype()));
}
Tensor& logspace_out(const Scalar& start, const Scalar& end, int64_t steps, double base,
                     Tensor& out) {
  return write_out("logspace.out", logspace_in(start, end, steps, base, out.scalar_type()), out);
}

// The Tensor overloads: start / end must be 0-dim, as PyTorch's ("linspace only supports
// 0-dimensional start and end tensors, but got start with 1 dimension(s) and end with 0
// dimension(s)."); their values are the Scalar overload's start and end.
namespace {

Scalar endpoint(const Tensor& t) {
  if (t.scalar_type() == ScalarType::Bool) return Scalar(t.item<bool>());
  if (is_floating_point(t.scalar_type())) return Scalar(t.item<double>());
  return Scalar(t.item<int64_t>());
}

std::string dims_str(const char* which, const Tensor& t) {
  return std::string(which) + " with " + std::to_string(t.dim()) + " dimension(s)";
}

[[noreturn]] void throw_not_0dim(const char* op, const std::string& got) {
  throw std::runtime_error(std::string(op) + ": " + op +
                           " only supports 0-dimensional start and end tensors, but got " + got +
                           ".");
}

std::pair<Scalar, Scalar> endpoints(const char* op, const Tensor& start, const Tensor& end) {
  if (start.dim() != 0 || end.dim() != 0) {
    throw_not_0dim(op, dims_str("start", start) + " and " + dims_str("end", end));
  }
  return {endpoint(start), endpoint(end)};
}

std::pair<Scalar, Scalar> endpoints(const char* op, const Tensor& start, const Scalar& end) {
  if (start.dim() != 0) throw_not_0dim(op, dims_str("start", start));
  return {endpoint(start), end};
}

std::pair<Scalar, Scalar> endpoints(const char* op, const Scalar& start, const Tensor& end) {
  if (end.dim() != 0) throw_not_0dim(op, dims_str("end", end));
  return {start, endpoint(end)};
}

}  // namespace

#define GRADGEN_SPACE_TENSOR_OVERLOADS(Start, End, overload)                                     \
  Tensor linspace(Start start, End end, int64_t steps, std::optional<ScalarType> dtype,          \
                  std::optional<Layout>, std::optional<Device>, std::optional<bool>) {           \
    const auto [s, e] = endpoints("linspace", start, end);                                       \
    return linspace_in(s, e, steps, dtype.value_or(get_default_dtype()));                        \
  }                                                                                              \
  Tensor& linspace_out(Start start, End end, int64_t steps, Tensor& out) {                       \
    const auto [s, e] = endpoints("linspace", start, end);                                       \
    return write_out("linspace." overload "_out", linspace_in(s, e, steps, out.scalar_type()),   \
                     out);                                                                       \
  }                                                                                              \
  Tensor logspace(Start start, End end, int64_t steps, double base,                              \
                  std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>, \
                  std::optional<bool>) {                                                         \
    const auto [s, e] = endpoints("logspace", start, end);                                       \
    return logspace_in(s, e, steps, base, dtype.value_or(get_default_dtype()));                  \
  }                                                                                              \
  Tensor& logspace_out(Start start, End end, int64_t steps, double base, Tensor& out) {          \
    const auto [s, e] = endpoints("logspace", start, end);                                       \
    return write_out("logspace." overload "_out",                                                \
                     logspace_in(s, e, steps, base, out.scalar_type()), out);                    \
  }

GRADGEN_SPACE_TENSOR_OVERLOADS(const Tensor&, const Tensor&, "Tensor_Tensor")
GRADGEN_SPACE_TENSOR_OVERLOADS(const Tensor&, const Scalar&, "Tensor_Scalar")
GRADGEN_SPACE_TENSOR_OVERLOADS(const Scalar&, const Tensor&, "Scalar_Tensor")

#undef GRADGEN_SPACE_TENSOR_OVERLOADS

Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
           std::optional<bool>) {
  return eye_in(n, n, dtype.value_or(get_default_dtype()));
}
Tensor eye(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Layout>,
           std::optional<Device>, std::optional<bool>) {
  return eye_in(n, m, dtype.value_or(get_default_dtype()));
}
Tensor& eye_out(int64_t n, Tensor& out) {
  return write_out("eye.out", eye_in(n, n, out.scalar_type()), out);
}
Tensor& eye_out(int64_t n, int64_t m, Tensor& out) {
  return write_out("eye.m_out", eye_in(n, m, out.scalar_type()), out);
}

Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Layout>, std::optional<Device>, std::optional<bool>,
                 std::optional<MemoryFormat>) {
  return full(self.sizes(), fill_value, dtype.value_or(self.scalar_type()));
}

Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout>,
                  std::optional<Device>, std::optional<bool>, std::optional<MemoryFormat>) {
  return empty(self.sizes(), dtype.value_or(self.scalar_type()));
}

}  // namespace native
}  // namespace gradgen
