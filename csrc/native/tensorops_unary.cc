// Kernels of the tensor op library's element-wise unary ops (issue 23): the math functions
// (log1p, erf, lgamma, digamma, polygamma, the inverse and hyperbolic trigonometric functions,
// ...), rounding (floor, ceil, round, trunc, frac), sgn, square, logit, nan_to_num, the tests
// isnan / isinf / isfinite and logical_not, with their in-place and out= variants.
//
// Dtypes as in PyTorch: the math functions compute in self's floating dtype, integer and bool
// tensors as the default float dtype (get_default_dtype()); rounding keeps an integer tensor as it
// is and refuses bool; square keeps integers (a bool tensor squares to Long, as pow does); the
// tests and logical_not give Bool. An in-place variant computes out of place, then writes the
// result into self, refusing a result dtype self cannot hold (PyTorch's "result type Float can't be
// cast to the desired output type Long"); out= converts on write (write_out).
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_all;
using gradgen::internal::dispatch_floating;
using loops::dispatch_arithmetic;
using loops::unary_map;

// The dtype a floating function computes in: integer and bool tensors as the default float dtype.
ScalarType floating_dtype(ScalarType dtype) {
  return is_floating_point(dtype) ? dtype : default_float();
}

// f(x) in self's floating dtype (integer and bool: the default float dtype). f takes and returns
// double or float.
template <typename F>
Tensor floating_unary(const char* op, const Tensor& self, F&& f) {
  const ScalarType dtype = floating_dtype(self.scalar_type());
  if (is_narrow(dtype)) return cast(floating_unary(op, widen(self, dtype), f), dtype);
  const Tensor x = cast(self, dtype);
  Tensor out;
  dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    out = unary_map<T, T>(op, x, dtype, [&](T v) { return static_cast<T>(f(v)); });
  });
  return out;
}

// PyTorch's "<op>" not implemented for '<dtype>' (a NotImplementedError there).
[[noreturn]] void throw_not_implemented(const char* op, ScalarType dtype) {
  throw std::runtime_error(std::string("\"") + op + "\" not implemented for '" + to_string(dtype) +
                           "'");
}

// f(x) for a floating tensor; integer tensors are returned as a copy when `integers_unchanged`
// (floor of an integer is itself), else refused like bool tensors.
template <typename F>
Tensor rounding_unary(const char* op, const Tensor& self, bool integers_unchanged, F&& f) {
  const ScalarType dtype = self.scalar_type();
  if (is_integral(dtype, false) && integers_unchanged)
    return gradgen::internal::copy_contiguous(self);
  if (!is_floating_point(dtype)) throw_not_implemented(op, dtype);
  return floating_unary(op, self, f);
}

// ---------------------------------------------------------------------------------------------
// Special functions gradgen writes itself (no std:: equivalent). They compute in double.
// ---------------------------------------------------------------------------------------------

constexpr double kPi = 3.14159265358979323846;

// The digamma function psi(x) = d/dx lgamma(x). Poles at 0 and the negative integers: +-inf at
// +-0 (the sign of -x, as PyTorch), NaN at the negative integers. Negative x by the reflection
// psi(x) = psi(1 - x) - pi / tan(pi x) (tan of the fractional part, which is exact); small x
// shifted up to 10 by psi(x) = psi(x + 1) - 1 / x; then the asymptotic series
// log x - 1 / (2x) - sum_k B_2k / (2k x^2k).
double digamma_of(double x) {
  if (x == 0) return std::copysign(std::numeric_limits<double>::infinity(), -x);
  if (std::isnan(x)) return x;
  if (x < 0) {
    if (x == std::trunc(x)) return std::numeric_limits<double>::quiet_NaN();
    double ipart;
    const double frac = std::modf(x, &ipart);
    return digamma_of(1 - x) - kPi / std::tan(kPi * frac);
  }
  if (std::isinf(x)) return x;
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  // B_2k / (2k) for k = 1..7.
  static const double kB[] = {1.0 / 12,  -1.0 / 120,     1.0 / 252, -1.0 / 240,
                              1.0 / 132, -691.0 / 32760, 1.0 / 12};
  const double z = 1 / (x * x);
  double series = 0, zk = z;
  for (double b : kB) {
    series += b * zk;
    zk *= z;
  }
  return result + std::log(x) - 0.5 / x - series;
}

// The Hurwitz zeta function zeta(s, q) = sum_{k >= 0} (k + q)^-s for s > 1, as polygamma
// needs it: the first terms summed directly (at least 9, and until k + q > 9), the rest by the
// Euler-Maclaurin formula with the Bernoulli numbers B_2 .. B_24. q a non-positive integer: inf
// (a pole); q negative otherwise only for an integer s (q^-s is real).
double hurwitz_zeta(double s, double q) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  if (std::isnan(s) || std::isnan(q)) return std::numeric_limits<double>::quiet_NaN();
  if (s == 1) return kInf;
  if (s < 1) return std::numeric_limits<double>::quiet_NaN();
  if (q <= 0) {
    if (q == std::floor(q)) return kInf;
    if (s != std::floor(s)) return std::numeric_limits<double>::quiet_NaN();
  }
  // (2k)! / B_2k for k = 1..12.
  static const double kFactorialOverBernoulli[] = {
      2.0 / (1.0 / 6),
      24.0 / (-1.0 / 30),
      720.0 / (1.0 / 42),
      40320.0 / (-1.0 / 30),
      3628800.0 / (5.0 / 66),
      479001600.0 / (-691.0 / 2730),
      87178291200.0 / (7.0 / 6),
      20922789888000.0 / (-3617.0 / 510),
      6402373705728000.0 / (43867.0 / 798),
      2432902008176640000.0 / (-174611.0 / 330),
      1124000727777607680000.0 / (854513.0 / 138),
      620448401733239439360000.0 / (-236364091.0 / 2730),
  };
  double sum = std::pow(q, -s);
  double a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= 9) {
    ++i;
    a += 1;
    b = std::pow(a, -s);
    sum += b;
    if (std::fabs(b / sum) < kEps) return sum;
  }
  // The tail sum_{k >= a} k^-s ~ a^(1-s) / (s - 1) - a^-s / 2 + sum_j B_2j / (2j)! *
  // s (s + 1) ... (s + 2j - 2) a^(-s - 2j + 1); b is a^-s here.
  const double w = a;
  sum += b * w / (s - 1);
  sum -= 0.5 * b;
  double rising = 1, k = 0;
  for (double c : kFactorialOverBernoulli) {
    rising *= s + k;
    b /= w;
    const double t = rising * b / c;
    sum += t;
    if (std::fabs(t / sum) < kEps) break;
    k += 1;
    rising *= s + k;
    b /= w;
    k += 1;
  }
  return sum;
}

// The trigamma function psi'(x), as PyTorch computes it (so that digamma's gradient is
// PyTorch's to the last digits, about 1e-9 relative from the exact value): x < 1/2 reflected by
// psi'(1 - x) + psi'(x) = pi^2 / sin^2(pi x), six steps of psi'(x) = psi'(x + 1) + 1 / x^2, then
// the asymptotic series (1 + 1 / (2x) + 1 / (6x^2) - 1 / (30x^4) + 1 / (42x^6)) / x.
double trigamma_of(double x) {
  double sign = 1, result = 0;
  if (x < 0.5) {
    sign = -1;
    const double s = std::sin(kPi * x);
    result -= kPi * kPi / (s * s);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const double ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (1.0 / 6 - ixx * (1.0 / 30 - ixx * (1.0 / 42)))) / x;
  return sign * result;
}

// psi^(n)(x) = (-1)^(n + 1) n! zeta(n + 1, x) for n >= 2; trigamma for n = 1, digamma for 0.
double polygamma_of(int64_t n, double x) {
  if (n == 0) return digamma_of(x);
  if (n == 1) return trigamma_of(x);
  // n! overflows double past n = 170: stop there (n may be up to 2^63, which would never end).
  double factorial = 1;
  for (int64_t i = 2; i <= n && std::isfinite(factorial); ++i) factorial *= static_cast<double>(i);
  const double sign = (n % 2 == 1) ? 1.0 : -1.0;
  return sign * factorial * hurwitz_zeta(static_cast<double>(n + 1), x);
}

// The inverse error function: erfinv(y) for y in [-1, 1] (+-inf at +-1, NaN outside). A first
// guess from M. Giles' single-precision approximation ("Approximating the erfinv function",
// GPU Computing Gems, 2011), refined by Newton steps on erf(x) = y (on erfc(|x|) = 1 - |y| in
// the tails, where 1 - y is exact and erf would lose the digits).
double erfinv_of(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1) return std::numeric_limits<double>::infinity();
  if (y == -1) return -std::numeric_limits<double>::infinity();
  if (y == 0) return y;  // keeps -0
  double w = -std::log((1.0 - y) * (1.0 + y));
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double x = p * y;
  const double two_over_sqrt_pi = 1.1283791670955126;
  const double ay = std::fabs(y);
  for (int step = 0; step < 3; ++step) {
    const double ax = std::fabs(x);
    const double slope = two_over_sqrt_pi * std::exp(-ax * ax);
    if (slope == 0) break;
    // f(|x|) = erf(|x|) - |y|, or -(erfc(|x|) - (1 - |y|)), the same function.
    const double f = ay < 0.5 ? std::erf(ax) - ay : (1.0 - ay) - std::erfc(ax);
    const double next = ax - f / slope;
    x = std::copysign(next, y);
  }
  return x;
}

// Rounds half to even (PyTorch's round: std::nearbyint in the default rounding mode).
template <typename T>
T round_half_even(T x) {
  return std::nearbyint(x);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The floating math functions: op, op_ and op.out from one element function.
// ---------------------------------------------------------------------------------------------

#define GRADGEN_FLOATING_UNARY(name, expr)                                             \
  Tensor name(const Tensor& self) {                                                    \
    return floating_unary(#name, self, [](auto x) {                                    \
      using T = decltype(x);                                                           \
      return static_cast<T>(expr);                                                     \
    });                                                                                \
  }                                                                                    \
  Tensor& name##_(Tensor& self) { return write_inplace(#name "_", self, name(self)); } \
  Tensor& name##_out(const Tensor& self, Tensor& out) {                                \
    return write_out(#name ".out", name(self), out);                                   \
  }

GRADGEN_FLOATING_UNARY(log1p, std::log1p(x))
GRADGEN_FLOATING_UNARY(expm1, std::expm1(x))
GRADGEN_FLOATING_UNARY(log2, std::log2(x))
GRADGEN_FLOATING_UNARY(log10, std::log10(x))
GRADGEN_FLOATING_UNARY(exp2, std::exp2(x))
GRADGEN_FLOATING_UNARY(rsqrt, T(1) / std::sqrt(x))
GRADGEN_FLOATING_UNARY(erf, std::erf(x))
GRADGEN_FLOATING_UNARY(erfc, std::erfc(x))
GRADGEN_FLOATING_UNARY(erfinv, erfinv_of(static_cast<double>(x)))
GRADGEN_FLOATING_UNARY(lgamma, std::lgamma(x))
GRADGEN_FLOATING_UNARY(digamma, digamma_of(static_cast<double>(x)))
GRADGEN_FLOATING_UNARY(asin, std::asin(x))
GRADGEN_FLOATING_UNARY(acos, std::acos(x))
GRADGEN_FLOATING_UNARY(atan, std::atan(x))
GRADGEN_FLOATING_UNARY(sinh, std::sinh(x))
GRADGEN_FLOATING_UNARY(cosh, std::cosh(x))
GRADGEN_FLOATING_UNARY(asinh, std::asinh(x))
GRADGEN_FLOATING_UNARY(acosh, std::acosh(x))
GRADGEN_FLOATING_UNARY(atanh, std::atanh(x))
GRADGEN_FLOATING_UNARY(tan, std::tan(x))

#undef GRADGEN_FLOATING_UNARY

Tensor polygamma(int64_t n, const Tensor& self) {
  if (n < 0) throw std::invalid_argument("polygamma: polygamma(n, x) does not support negative n.");
  return floating_unary("polygamma", self, [n](auto x) {
    return static_cast<decltype(x)>(polygamma_of(n, static_cast<double>(x)));
  });
}

Tensor& polygamma_(Tensor& self, int64_t n) {
  return write_inplace("polygamma_", self, polygamma(n, self));
}

Tensor& polygamma_out(int64_t n, const Tensor& self, Tensor& out) {
  return write_out("polygamma.out", polygamma(n, self), out);
}

// ---------------------------------------------------------------------------------------------
// Rounding
// ---------------------------------------------------------------------------------------------

#define GRADGEN_ROUNDING_UNARY(name, integers_unchanged, expr)                         \
  Tensor name(const Tensor& self) {                                                    \
    return rounding_unary(#name, self, integers_unchanged, [](auto x) {                \
      using T = decltype(x);                                                           \
      return static_cast<T>(expr);                                                     \
    });                                                                                \
  }                                                                                    \
  Tensor& name##_(Tensor& self) { return write_inplace(#name "_", self, name(self)); } \
  Tensor& name##_out(const Tensor& self, Tensor& out) {                                \
    return write_out(#name ".out", name(self), out);                                   \
  }

GRADGEN_ROUNDING_UNARY(floor, true, std::floor(x))
GRADGEN_ROUNDING_UNARY(ceil, true, std::ceil(x))
GRADGEN_ROUNDING_UNARY(round, true, round_half_even(x))
GRADGEN_ROUNDING_UNARY(trunc, true, std::trunc(x))
GRADGEN_ROUNDING_UNARY(frac, false, x - std::trunc(x))

#undef GRADGEN_ROUNDING_UNARY

// As PyTorch: x * 10^d rounded, divided back (for d < 0: divided by 10^-d, rounded, multiplied),
// half to even; integer tensors are refused (PyTorch's "round_cpu" not implemented for 'Long').
Tensor round(const Tensor& self, int64_t decimals) {
  if (!is_floating_point(self.scalar_type())) throw_not_implemented("round", self.scalar_type());
  const bool negative = decimals < 0;
  return floating_unary("round", self, [=](auto x) {
    using T = decltype(x);
    const T ten_pow =
        static_cast<T>(std::pow(T(10), static_cast<T>(negative ? -decimals : decimals)));
    return negative ? static_cast<T>(round_half_even(x / ten_pow) * ten_pow)
                    : static_cast<T>(round_half_even(x * ten_pow) / ten_pow);
  });
}

Tensor& round_(Tensor& self, int64_t decimals) {
  return write_inplace("round_", self, round(self, decimals));
}

Tensor& round_out(const Tensor& self, int64_t decimals, Tensor& out) {
  return write_out("round.decimals_out", round(self, decimals), out);
}

// ---------------------------------------------------------------------------------------------
// sgn, square, logit, nan_to_num
// ---------------------------------------------------------------------------------------------

// On real dtypes sgn is sign: -1, 0 or 1 (0 for NaN), bool unchanged.
Tensor sgn(const Tensor& self) {
  if (self.scalar_type() == ScalarType::Bool) return gradgen::internal::copy_contiguous(self);
  if (is_narrow(self.scalar_type())) {
    return cast(sgn(widen(self, self.scalar_type())), self.scalar_type());
  }
  Tensor out;
  dispatch_arithmetic(self.scalar_type(), "sgn", [&](auto tag) {
    using T = decltype(tag);
    // NaN gives 0, as in PyTorch (neither comparison holds).
    out = unary_map<T, T>("sgn", self, self.scalar_type(),
                          [](T x) { return static_cast<T>((T(0) < x) - (x < T(0))); });
  });
  return out;
}

Tensor& sgn_(Tensor& self) { return write_inplace("sgn_", self, sgn(self)); }

Tensor& sgn_out(const Tensor& self, Tensor& out) { return write_out("sgn.out", sgn(self), out); }

// self * self in self's dtype; a bool tensor gives Long (PyTorch's pow(self, 2) promotes it).
Tensor square(const Tensor& self) {
  const ScalarType dtype =
      self.scalar_type() == ScalarType::Bool ? ScalarType::Long : self.scalar_type();
  if (is_narrow(dtype)) return cast(square(widen(self, dtype)), dtype);
  const Tensor x = cast(self, dtype);
  Tensor out;
  dispatch_arithmetic(dtype, "square", [&](auto tag) {
    using T = decltype(tag);
    out = unary_map<T, T>("square", x, dtype, [](T v) { return static_cast<T>(v * v); });
  });
  return out;
}

Tensor& square_(Tensor& self) { return write_inplace("square_", self, square(self)); }

Tensor& square_out(const Tensor& self, Tensor& out) {
  return write_out("square.out", square(self), out);
}

// log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given (NaN stays NaN).
Tensor logit(const Tensor& self, std::optional<double> eps) {
  const bool clamp = eps.has_value();
  const double lo = clamp ? *eps : 0.0, hi = clamp ? 1.0 - *eps : 1.0;
  return floating_unary("logit", self, [=](auto x) {
    using T = decltype(x);
    if (clamp) x = x < T(lo) ? T(lo) : (x > T(hi) ? T(hi) : x);
    return static_cast<T>(std::log(x / (T(1) - x)));
  });
}

Tensor& logit_(Tensor& self, std::optional<double> eps) {
  return write_inplace("logit_", self, logit(self, eps));
}

Tensor& logit_out(const Tensor& self, std::optional<double> eps, Tensor& out) {
  return write_out("logit.out", logit(self, eps), out);
}

// grad / (x (1 - x)); outside [eps, 1 - eps] 0 with eps, outside [0, 1] NaN without.
Tensor logit_backward(const Tensor& grad_output, const Tensor& self, std::optional<double> eps) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(logit_backward, grad_output, self, eps);
  const ScalarType dtype = floating_dtype(result_type(grad_output, self));
  const Tensor g = cast(grad_output, dtype), x = cast(self, dtype);
  const bool has_eps = eps.has_value();
  const double lo = has_eps ? *eps : 0.0, hi = has_eps ? 1.0 - *eps : 1.0;
  Tensor out;
  dispatch_floating(dtype, "logit_backward", [&](auto tag) {
    using T = decltype(tag);
    out = loops::binary_map<T, T, T>("logit_backward", g, x, dtype, [=](T dy, T v) {
      // With eps only values inside the bounds pass (NaN gives 0); without, only those outside
      // [0, 1] give NaN (NaN gives NaN), as PyTorch's kernel.
      if (has_eps) return v >= T(lo) && v <= T(hi) ? static_cast<T>(dy / (v * (T(1) - v))) : T(0);
      if (v < T(0) || v > T(1)) return std::numeric_limits<T>::quiet_NaN();
      return static_cast<T>(dy / (v * (T(1) - v)));
    });
  });
  return out;
}

// NaN, +inf and -inf replaced: by 0, the dtype's largest and lowest finite values unless given.
// Integer and bool tensors have none of them and are copied.
Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  if (const auto reduced = reduced_float_dtype(self)) {
    // In float32, with the 16-bit dtype's largest finite values as the default replacements.
    const double big = *reduced == ScalarType::Half ? 65504.0 : 3.3895313892515355e38;
    return in_float32(
        *reduced,
        [&](const Tensor& x) {
          return native::nan_to_num(x, nan, posinf.value_or(big), neginf.value_or(-big));
        },
        self);
  }
  if (!is_floating_point(self.scalar_type())) return gradgen::internal::copy_contiguous(self);
  Tensor out;
  dispatch_floating(self.scalar_type(), "nan_to_num", [&](auto tag) {
    using T = decltype(tag);
    const T n = nan ? static_cast<T>(*nan) : T(0);
    const T p = posinf ? static_cast<T>(*posinf) : std::numeric_limits<T>::max();
    const T m = neginf ? static_cast<T>(*neginf) : std::numeric_limits<T>::lowest();
    out = unary_map<T, T>("nan_to_num", self, self.scalar_type(), [=](T x) {
      if (x != x) return n;
      if (x == std::numeric_limits<T>::infinity()) return p;
      if (x == -std::numeric_limits<T>::infinity()) return m;
      return x;
    });
  });
  return out;
}

Tensor& nan_to_num_(Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                    std::optional<double> neginf) {
  return write_inplace("nan_to_num_", self, nan_to_num(self, nan, posinf, neginf));
}

Tensor& nan_to_num_out(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf, Tensor& out) {
  return write_out("nan_to_num.out", nan_to_num(self, nan, posinf, neginf), out);
}

// ---------------------------------------------------------------------------------------------
// Tests and logical_not: Bool results
// ---------------------------------------------------------------------------------------------

namespace {

template <typename F>
Tensor bool_unary(const char* op, const Tensor& self, F&& f) {
  Tensor out;
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    out = unary_map<T, bool>(op, self, ScalarType::Bool, [&](T x) { return f(x); });
  });
  return out;
}

}  // namespace

Tensor isnan(const Tensor& self) {
  return bool_unary("isnan", self, [](auto x) { return x != x; });
}

Tensor isinf(const Tensor& self) {
  return bool_unary("isinf", self, [](auto x) {
    using T = decltype(x);
    if constexpr (is_floating_type<T>::value) return std::isinf(x);
    return false;
  });
}

Tensor isfinite(const Tensor& self) {
  return bool_unary("isfinite", self, [](auto x) {
    using T = decltype(x);
    if constexpr (is_floating_type<T>::value) return std::isfinite(x);
    return true;
  });
}

Tensor logical_not(const Tensor& self) {
  return bool_unary("logical_not", self, [](auto x) { return !static_cast<bool>(x); });
}

// Any out dtype: the Bool result converted (PyTorch computes into out's dtype the same way).
Tensor& logical_not_out(const Tensor& self, Tensor& out) {
  return write_out("logical_not.out", logical_not(self), out);
}

}  // namespace native
}  // namespace gradgen
