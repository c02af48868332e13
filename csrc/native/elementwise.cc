// Kernels of the element-wise ops: arithmetic with broadcasting (add, sub, mul,
// div, pow), their Scalar, in-place and out= variants, the unary math functions,
// and the fused backward kernels of tanh, sigmoid and relu.
//
// Dtypes follow PyTorch's type promotion (csrc/native/type_promotion.h): a binary op
// computes in the operands' result type (float32 + float64 is float64, int64 * 1.5 is the
// default dtype), add and mul of bools are `or` and `and`, true division and the unary math
// functions give the default dtype (get_default_dtype()) for integer and bool inputs, in-place
// ops refuse a result type of a higher category than self's, out= converts on write. The
// loops are in csrc/native/loops.h.
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/gemm.h"
#include "csrc/native/loops.h"
#include "csrc/native/simd/pointwise.h"
#include "csrc/native/simd/vectorized.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_all;
using gradgen::internal::dispatch_floating;
using loops::binary_map;
using loops::binary_map_;
using loops::dispatch_arithmetic;
using loops::unary_map;
using loops::unary_map_;

// Calls f(T{}) for dtype; `numeric` selects Double/Float/Long, else Double/Float.
template <typename F>
void dispatch_dtype(const char* op, ScalarType dtype, bool numeric, F&& f) {
  if (numeric) {
    dispatch_arithmetic(dtype, op, f);
  } else {
    dispatch_floating(dtype, op, f);
  }
}

// The operands of a binary op converted to the dtype it computes in (type_promotion.h).
struct Promoted {
  Tensor self, other;
  ScalarType dtype;
};
Promoted promote(const Tensor& self, const Tensor& other) {
  const ScalarType dtype = result_type(self, other);
  return {cast(self, dtype), cast(other, dtype), dtype};
}

// Computes an arithmetic op on Bool operands as PyTorch does (add is `or`, mul is `and`):
// in Long, then back to Bool (non-zero is true).
template <typename F>
Tensor via_long_if_bool(const Promoted& p, F&& compute) {
  if (p.dtype != ScalarType::Bool) return compute(p.self, p.other, p.dtype);
  return cast(compute(cast(p.self, ScalarType::Long), cast(p.other, ScalarType::Long),
                      ScalarType::Long),
              ScalarType::Bool);
}

// The in-place form of an out-of-place binary op: self = op(self, other), computed in the
// promoted dtype, which must be castable to self's (PyTorch's "result type Float can't be cast
// to the desired output type Long"), other broadcasting to self's shape. When self has the
// promoted dtype, `inplace(tag)` makes the element function applied in place; otherwise the
// out-of-place result is written back. Bumps self's version.
template <typename OutOfPlace, typename Make>
Tensor& inplace_binary(const char* op, Tensor& self, const Tensor& other, bool numeric,
                       OutOfPlace&& out_of_place, Make&& make_fn) {
  const ScalarType dtype = result_type(self, other);
  check_can_cast(op, dtype, self.scalar_type());
  if (dtype == self.scalar_type() && dtype != ScalarType::Bool && !is_narrow(dtype)) {
    const Tensor o = cast(other, dtype);
    dispatch_dtype(op, dtype, numeric, [&](auto tag) {
      using T = decltype(tag);
      binary_map_<T, T>(op, self, o, make_fn(tag));
    });
    self.bump_version();
    return self;
  }
  if (!loops::broadcasts_to(other.sizes(), self.sizes())) {
    throw std::invalid_argument(std::string(op) + ": other of shape " + shape_str(other.sizes()) +
                                " does not broadcast to the shape of self, " +
                                shape_str(self.sizes()) + ", which an in-place op cannot change");
  }
  gradgen::internal::copy_(self, cast(out_of_place(), self.scalar_type()));  // bumps the version
  return self;
}

// The dtype a floating op (div, the unary math functions) computes in: integer and bool
// operands count as the default float dtype, as in PyTorch.
ScalarType floating_dtype(ScalarType dtype) {
  return is_floating_point(dtype) ? dtype : default_float();
}

// f(x) in self's floating dtype; integer and bool tensors compute as the default float dtype.
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

template <typename F>
Tensor numeric_unary(const char* op, const Tensor& self, F&& f) {
  const ScalarType dtype = self.scalar_type();
  if (is_narrow(dtype)) return cast(numeric_unary(op, widen(self, dtype), f), dtype);
  Tensor out;
  dispatch_arithmetic(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    out = unary_map<T, T>(op, self, self.scalar_type(), [&](T x) { return static_cast<T>(f(x)); });
  });
  return out;
}

// f(x) through a vectorized kernel (vec::tanh, ...) when x is dense float32 or
// float64, else element by element with `scalar`.
template <typename Vectorized, typename Scalar>
Tensor vectorized_unary(const char* op, const Tensor& self, Vectorized&& vectorized,
                        Scalar&& scalar) {
  if (!self.is_contiguous() || !is_floating_point(self.scalar_type()) ||
      is_narrow(self.scalar_type())) {
    return floating_unary(op, self, scalar);
  }
  Tensor out;
  dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    out = make_tensor(self.sizes(), self.scalar_type());
    vectorized(self.data_ptr<T>(), out.data_ptr<T>(), self.numel());
  });
  return out;
}

template <typename T>
T sigmoid_of(T x) {
  // Stable for large |x|: never exponentiates a large positive number.
  if (x >= 0) return T(1) / (T(1) + std::exp(-x));
  const T e = std::exp(x);
  return e / (T(1) + e);
}

}  // namespace

// ---------------------------------------------------------------------------
// Binary arithmetic
// ---------------------------------------------------------------------------

namespace {

// PyTorch's alpha_check: an integral result takes no floating alpha, a bool alpha only a bool
// result.
void check_alpha(const char* op, ScalarType dtype, const Scalar& alpha) {
  if (alpha.is_boolean() && dtype != ScalarType::Bool) {
    throw std::invalid_argument(std::string(op) +
                                ": Boolean alpha only supported for Boolean results.");
  }
  if (alpha.is_floating_point() && !is_floating_point(dtype)) {
    throw std::invalid_argument(
        std::string(op) +
        ": For integral input tensors, argument alpha must not be a floating point number.");
  }
}

// PyTorch's sub_check: no subtraction with a bool operand.
void check_sub(const char* op, ScalarType a, ScalarType b) {
  if (a == ScalarType::Bool && b == ScalarType::Bool) {
    throw std::invalid_argument(std::string(op) +
                                ": Subtraction, the `-` operator, with two bool tensors is not "
                                "supported. Use the `^` or `logical_xor()` operator instead.");
  }
  if (a == ScalarType::Bool || b == ScalarType::Bool) {
    throw std::invalid_argument(
        std::string(op) +
        ": Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
        "to invert a mask, use the `~` or `logical_not()` operator instead.");
  }
}

// self + alpha * other, both of dtype (not Bool).
Tensor add_same(const Tensor& self, const Tensor& other, ScalarType dtype, const Scalar& alpha) {
  Tensor out;
  dispatch_arithmetic(dtype, "add", [&](auto tag) {
    using T = decltype(tag);
    const T a = alpha.to<T>();
    if (a == T(1)) {
      out = binary_map<T, T, T>("add", self, other, dtype,
                                [](T x, T y) { return static_cast<T>(x + y); });
    } else {
      out = binary_map<T, T, T>("add", self, other, dtype,
                                [a](T x, T y) { return static_cast<T>(x + a * y); });
    }
  });
  return out;
}

Tensor mul_same(const Tensor& self, const Tensor& other, ScalarType dtype) {
  Tensor out;
  dispatch_arithmetic(dtype, "mul", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("mul", self, other, dtype,
                              [](T x, T y) { return static_cast<T>(x * y); });
  });
  return out;
}

// x ** y for integers, as ATen's powi: exact by squaring; negative exponents give 1 for a base
// of 1, +-1 for -1, and 0 otherwise.
int64_t powi(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 1) return 1;
    if (base == -1) return (exp % 2 == 0) ? 1 : -1;
    return 0;
  }
  uint64_t result = 1, b = static_cast<uint64_t>(base);  // wraps on overflow, as ATen
  while (exp) {
    if (exp & 1) result *= b;
    exp >>= 1;
    b *= b;
  }
  return static_cast<int64_t>(result);
}

}  // namespace

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  if (const ScalarType r = result_type(self, other); is_narrow(r)) {
    check_alpha("add", r, alpha);
    return cast(add(widen(self, r), widen(other, r), alpha), r);
  }
  const Promoted p = promote(self, other);
  check_alpha("add", p.dtype, alpha);
  return via_long_if_bool(p, [&](const Tensor& a, const Tensor& b, ScalarType dtype) {
    return add_same(a, b, dtype, alpha);
  });
}

Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_alpha("add_", result_type(self, other), alpha);
  return inplace_binary(
      "add_", self, other, true, [&] { return add(self, other, alpha); },
      [&](auto tag) {
        using T = decltype(tag);
        const T a = alpha.to<T>();
        return [a](T x, T y) { return static_cast<T>(x + a * y); };
      });
}

Tensor& add_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return write_out("add.out", add(self, other, alpha), out);
}

Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  const ScalarType dtype = result_type(self, other);
  check_alpha("add", dtype, alpha);
  if (is_narrow(dtype)) return cast(add(widen(self, dtype), other, alpha), dtype);
  if (dtype == ScalarType::Bool) {
    return cast(add(cast(self, ScalarType::Long), Scalar(other.to_long()), Scalar(alpha.to_long())),
                ScalarType::Bool);
  }
  const Tensor x = cast(self, dtype);
  Tensor out;
  dispatch_arithmetic(dtype, "add", [&](auto tag) {
    using T = decltype(tag);
    const T c = static_cast<T>(other.to<T>() * alpha.to<T>());
    out = unary_map<T, T>("add", x, dtype, [c](T v) { return static_cast<T>(v + c); });
  });
  return out;
}

Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub("sub", self.scalar_type(), other.scalar_type());
  if (const ScalarType r = result_type(self, other); is_narrow(r)) {
    check_alpha("sub", r, alpha);
    return cast(sub(widen(self, r), widen(other, r), alpha), r);
  }
  const Promoted p = promote(self, other);
  check_alpha("sub", p.dtype, alpha);
  Tensor out;
  dispatch_arithmetic(p.dtype, "sub", [&](auto tag) {
    using T = decltype(tag);
    const T a = alpha.to<T>();
    out = binary_map<T, T, T>("sub", p.self, p.other, p.dtype,
                              [a](T x, T y) { return static_cast<T>(x - a * y); });
  });
  return out;
}

Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub("sub_", self.scalar_type(), other.scalar_type());
  check_alpha("sub_", result_type(self, other), alpha);
  return inplace_binary(
      "sub_", self, other, true, [&] { return sub(self, other, alpha); },
      [&](auto tag) {
        using T = decltype(tag);
        const T a = alpha.to<T>();
        return [a](T x, T y) { return static_cast<T>(x - a * y); };
      });
}

Tensor mul(const Tensor& self, const Tensor& other) {
  if (const ScalarType r = result_type(self, other); is_narrow(r)) {
    return cast(mul(widen(self, r), widen(other, r)), r);
  }
  return via_long_if_bool(promote(self, other), mul_same);
}

Tensor& mul_(Tensor& self, const Tensor& other) {
  return inplace_binary(
      "mul_", self, other, true, [&] { return mul(self, other); },
      [](auto tag) {
        using T = decltype(tag);
        return [](T x, T y) { return static_cast<T>(x * y); };
      });
}

Tensor& mul_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("mul.out", mul(self, other), out);
}

Tensor mul(const Tensor& self, const Scalar& other) {
  const ScalarType dtype = result_type(self, other);
  if (is_narrow(dtype)) return cast(mul(widen(self, dtype), other), dtype);
  if (dtype == ScalarType::Bool) {
    return cast(mul(cast(self, ScalarType::Long), Scalar(other.to_long())), ScalarType::Bool);
  }
  const Tensor x = cast(self, dtype);
  Tensor out;
  dispatch_arithmetic(dtype, "mul", [&](auto tag) {
    using T = decltype(tag);
    const T c = other.to<T>();
    out = unary_map<T, T>("mul", x, dtype, [c](T v) { return static_cast<T>(v * c); });
  });
  return out;
}

Tensor& mul_(Tensor& self, const Scalar& other) {
  const ScalarType dtype = result_type(self, other);
  check_can_cast("mul_", dtype, self.scalar_type());
  if (dtype == ScalarType::Bool || is_narrow(self.scalar_type())) {
    gradgen::internal::copy_(self, mul(self, other));  // bumps the version
    return self;
  }
  dispatch_arithmetic(self.scalar_type(), "mul_", [&](auto tag) {
    using T = decltype(tag);
    const T c = other.to<T>();
    unary_map_<T>("mul_", self, [c](T x) { return static_cast<T>(x * c); });
  });
  self.bump_version();
  return self;
}

// True division: integer and bool operands divide as the default float dtype.
Tensor div(const Tensor& self, const Tensor& other) {
  const ScalarType dtype = floating_dtype(result_type(self, other));
  if (is_narrow(dtype)) return cast(div(widen(self, dtype), widen(other, dtype)), dtype);
  const Tensor a = cast(self, dtype), b = cast(other, dtype);
  Tensor out;
  dispatch_floating(dtype, "div", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("div", a, b, dtype, [](T x, T y) { return x / y; });
  });
  return out;
}

Tensor& div_(Tensor& self, const Tensor& other) {
  check_can_cast("div_", floating_dtype(result_type(self, other)), self.scalar_type());
  return inplace_binary(
      "div_", self, other, false, [&] { return div(self, other); },
      [](auto tag) {
        using T = decltype(tag);
        return [](T x, T y) { return x / y; };
      });
}

Tensor div(const Tensor& self, const Scalar& other) {
  const ScalarType dtype = floating_dtype(result_type(self, other));
  if (is_narrow(dtype)) return cast(div(widen(self, dtype), other), dtype);
  const Tensor x = cast(self, dtype);
  Tensor out;
  dispatch_floating(dtype, "div", [&](auto tag) {
    using T = decltype(tag);
    const T c = other.to<T>();
    out = unary_map<T, T>("div", x, dtype, [c](T v) { return v / c; });
  });
  return out;
}

Tensor pow(const Tensor& self, const Scalar& exponent) {
  const ScalarType dtype = result_type(self, exponent);
  if (is_narrow(dtype) && is_floating_point(dtype)) {
    return cast(pow(widen(self, dtype), exponent), dtype);
  }
  if (is_integral(dtype, /*include_bool=*/true)) {
    // Integer powers, exact (PyTorch refuses negative integer exponents of integer tensors).
    if (exponent.to_long() < 0) {
      throw std::invalid_argument("pow: Integers to negative integer powers are not allowed.");
    }
    const int64_t e = exponent.to_long();
    const Tensor r =
        unary_map<int64_t, int64_t>("pow", cast(self, ScalarType::Long), ScalarType::Long,
                                    [e](int64_t x) { return powi(x, e); });
    return cast(r, dtype);
  }
  const Tensor x = cast(self, dtype);
  // PyTorch's special exponents (aten's pow_tensor_scalar kernel), for its exact answers:
  // pow(-0.0, -0.5) is rsqrt(-0.0) = -inf there, where std::pow gives +inf.
  const double e = exponent.to_double();
  if (e == 0.0) return floating_unary("pow", x, [](auto v) { return decltype(v)(1); });
  if (e == 1.0) return floating_unary("pow", x, [](auto v) { return v; });
  if (e == 2.0) return floating_unary("pow", x, [](auto v) { return v * v; });
  if (e == 3.0) return floating_unary("pow", x, [](auto v) { return v * v * v; });
  if (e == 0.5) return floating_unary("pow", x, [](auto v) { return std::sqrt(v); });
  if (e == -0.5) {
    return floating_unary("pow", x, [](auto v) { return decltype(v)(1) / std::sqrt(v); });
  }
  if (e == -1.0) return floating_unary("pow", x, [](auto v) { return decltype(v)(1) / v; });
  if (e == -2.0) {
    return floating_unary("pow", x, [](auto v) { return decltype(v)(1) / (v * v); });
  }
  return floating_unary("pow", x, [e](auto v) { return std::pow(v, static_cast<decltype(v)>(e)); });
}

Tensor pow(const Tensor& self, const Tensor& exponent) {
  if (const ScalarType r = result_type(self, exponent); is_narrow(r)) {
    return cast(pow(widen(self, r), widen(exponent, r)), r);
  }
  const Promoted p = promote(self, exponent);
  if (p.dtype == ScalarType::Long) {
    return binary_map<int64_t, int64_t, int64_t>("pow", p.self, p.other, p.dtype, powi);
  }
  Tensor out;
  dispatch_floating(p.dtype, "pow", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("pow", p.self, p.other, p.dtype,
                              [](T x, T y) { return std::pow(x, y); });
  });
  return out;
}

// ---------------------------------------------------------------------------
// Unary
// ---------------------------------------------------------------------------

Tensor neg(const Tensor& self) {
  return numeric_unary("neg", self, [](auto x) { return -x; });
}

Tensor exp(const Tensor& self) {
  return vectorized_unary(
      "exp", self, [](const auto* x, auto* y, int64_t n) { vec::exp(x, y, n); },
      [](auto x) { return std::exp(x); });
}

Tensor& exp_(Tensor& self) {
  if (is_narrow(self.scalar_type())) {
    check_can_cast("exp_", floating_dtype(self.scalar_type()), self.scalar_type());
    gradgen::internal::copy_(self, cast(exp(self), self.scalar_type()));  // bumps the version
    return self;
  }
  dispatch_floating(self.scalar_type(), "exp_", [&](auto tag) {
    using T = decltype(tag);
    unary_map_<T>("exp_", self, [](T x) { return std::exp(x); });
  });
  self.bump_version();
  return self;
}

Tensor log(const Tensor& self) {
  return floating_unary("log", self, [](auto x) { return std::log(x); });
}

Tensor tanh(const Tensor& self) {
  return vectorized_unary(
      "tanh", self, [](const auto* x, auto* y, int64_t n) { vec::tanh(x, y, n); },
      [](auto x) { return std::tanh(x); });
}

Tensor sigmoid(const Tensor& self) {
  return vectorized_unary(
      "sigmoid", self, [](const auto* x, auto* y, int64_t n) { vec::sigmoid(x, y, n); },
      [](auto x) { return sigmoid_of(x); });
}

// Whether t is a dense float32 or float64 tensor, which the vectorized loops of pointwise.h take.
static bool dense_floating(const Tensor& t) {
  const ScalarType dtype = t.scalar_type();
  return (dtype == ScalarType::Float || dtype == ScalarType::Double) && t.is_contiguous();
}

Tensor relu(const Tensor& self) {
  if (dense_floating(self)) {
    // Vectorized, and split across the intra-op threads when large.
    Tensor out = make_tensor(self.sizes(), self.scalar_type());
    dispatch_floating(self.scalar_type(), "relu", [&](auto tag) {
      using T = decltype(tag);
      const T* x = self.data_ptr<T>();
      T* y = out.data_ptr<T>();
      parallel_for(self.numel(), kParallelGrain, 64, [=](int64_t begin, int64_t end) {
        vec::relu(x + begin, y + begin, end - begin);
      });
    });
    return out;
  }
  // NaN propagates (x != x), as in PyTorch.
  return numeric_unary("relu", self, [](auto x) { return x > 0 || x != x ? x : decltype(x)(0); });
}

Tensor& relu_(Tensor& self) {
  if (is_narrow(self.scalar_type())) {
    gradgen::internal::copy_(self, relu(self));  // bumps the version
    return self;
  }
  dispatch_arithmetic(self.scalar_type(), "relu_", [&](auto tag) {
    using T = decltype(tag);
    unary_map_<T>("relu_", self, [](T x) { return x > 0 || x != x ? x : T(0); });
  });
  self.bump_version();
  return self;
}

Tensor sin(const Tensor& self) {
  return floating_unary("sin", self, [](auto x) { return std::sin(x); });
}

Tensor cos(const Tensor& self) {
  return floating_unary("cos", self, [](auto x) { return std::cos(x); });
}

Tensor sqrt(const Tensor& self) {
  return floating_unary("sqrt", self, [](auto x) { return std::sqrt(x); });
}

Tensor abs(const Tensor& self) {
  // std::fabs for floating types: |-0.0| is +0.0 (and NaN's sign is cleared), as in PyTorch.
  return numeric_unary("abs", self, [](auto x) {
    if constexpr (is_floating_type<decltype(x)>::value) {
      return std::fabs(x);
    } else {
      return x < 0 ? -x : x;
    }
  });
}

Tensor sign(const Tensor& self) {
  if (self.scalar_type() == ScalarType::Bool) return clone(self, std::nullopt);  // as PyTorch
  return numeric_unary("sign", self, [](auto x) {
    using T = decltype(x);
    return static_cast<T>((T(0) < x) - (x < T(0)));
  });
}

Tensor reciprocal(const Tensor& self) {
  return floating_unary("reciprocal", self, [](auto x) { return decltype(x)(1) / x; });
}

Tensor clamp(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  if (!min && !max) {
    throw std::invalid_argument("clamp: at least one of min and max must be given");
  }
  ResultType promotion;
  promotion.add(self);
  if (min) promotion.add(*min);
  if (max) promotion.add(*max);
  const ScalarType dtype = promotion.get();
  if (is_narrow(dtype)) return cast(clamp(widen(self, dtype), min, max), dtype);
  const Tensor x = cast(self, dtype);
  Tensor out;
  dispatch_arithmetic(dtype, "clamp", [&](auto tag) {
    using T = decltype(tag);
    const bool has_lo = min.has_value(), has_hi = max.has_value();
    const T lo = has_lo ? min->to<T>() : T(0);
    const T hi = has_hi ? max->to<T>() : T(0);
    out = unary_map<T, T>("clamp", x, dtype, [=](T v) {
      if (has_lo && v < lo) v = lo;
      if (has_hi && v > hi) v = hi;
      return v;
    });
  });
  return out;
}

Tensor& zero_(Tensor& self) {
  gradgen::internal::fill_(self, Scalar(0));  // bumps the version
  return self;
}

Tensor clone(const Tensor& self, std::optional<MemoryFormat> /*memory_format*/) {
  return gradgen::internal::copy_contiguous(self);  // row-major for both formats gradgen knows
}

// ---------------------------------------------------------------------------
// Fused backward kernels
// ---------------------------------------------------------------------------

Tensor tanh_backward(const Tensor& grad_output_, const Tensor& output_) {
  if (const ScalarType r = result_type(grad_output_, output_); is_narrow(r)) {
    return cast(tanh_backward(widen(grad_output_, r), widen(output_, r)), r);
  }
  const Promoted p = promote(grad_output_, output_);
  const Tensor &grad_output = p.self, &output = p.other;
  Tensor out;
  dispatch_floating(output.scalar_type(), "tanh_backward", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("tanh_backward", grad_output, output, output.scalar_type(),
                              [](T g, T y) { return g * (T(1) - y * y); });
  });
  return out;
}

Tensor sigmoid_backward(const Tensor& grad_output_, const Tensor& output_) {
  if (const ScalarType r = result_type(grad_output_, output_); is_narrow(r)) {
    return cast(sigmoid_backward(widen(grad_output_, r), widen(output_, r)), r);
  }
  const Promoted p = promote(grad_output_, output_);
  const Tensor &grad_output = p.self, &output = p.other;
  Tensor out;
  dispatch_floating(output.scalar_type(), "sigmoid_backward", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("sigmoid_backward", grad_output, output, output.scalar_type(),
                              [](T g, T y) { return g * y * (T(1) - y); });
  });
  return out;
}

Tensor threshold_backward(const Tensor& grad_output_, const Tensor& self_,
                          const Scalar& threshold) {
  if (const ScalarType r = result_type(grad_output_, self_); is_narrow(r)) {
    return cast(threshold_backward(widen(grad_output_, r), widen(self_, r), threshold), r);
  }
  if (dense_floating(grad_output_) && dense_floating(self_) &&
      grad_output_.scalar_type() == self_.scalar_type() &&
      grad_output_.sizes().equals(self_.sizes())) {
    // Vectorized, and split across the intra-op threads when large.
    Tensor out = make_tensor(self_.sizes(), self_.scalar_type());
    dispatch_floating(self_.scalar_type(), "threshold_backward", [&](auto tag) {
      using T = decltype(tag);
      const T* g = grad_output_.data_ptr<T>();
      const T* x = self_.data_ptr<T>();
      T* o = out.data_ptr<T>();
      const T th = threshold.to<T>();
      parallel_for(out.numel(), kParallelGrain, 64, [=](int64_t begin, int64_t end) {
        vec::threshold_backward(g + begin, x + begin, th, o + begin, end - begin);
      });
    });
    return out;
  }
  const Promoted p = promote(grad_output_, self_);
  const Tensor &grad_output = p.self, &self = p.other;
  Tensor out;
  dispatch_arithmetic(self.scalar_type(), "threshold_backward", [&](auto tag) {
    using T = decltype(tag);
    const T th = threshold.to<T>();
    out = binary_map<T, T, T>("threshold_backward", grad_output, self, self.scalar_type(),
                              [th](T g, T x) { return x <= th ? T(0) : g; });
  });
  return out;
}

}  // namespace native
}  // namespace gradgen
