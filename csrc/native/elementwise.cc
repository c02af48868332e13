// Kernels of the element-wise ops: arithmetic with broadcasting (add, sub, mul,
// div, pow), their Scalar, in-place and out= variants, the unary math functions,
// and the fused backward kernels of tanh, sigmoid and relu.
//
// Dtypes: both operands of a binary op must have the same dtype (errors name the
// op and both dtypes). add, sub, mul, neg, abs, sign, relu and clamp accept
// Double, Float and Long; the others, whose results are not integers, accept
// Double and Float. The loops are in csrc/native/loops.h.
#include <cmath>
#include <stdexcept>
#include <string>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"
#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_all;
using gradgen::internal::dispatch_floating;
using loops::binary_map;
using loops::binary_map_;
using loops::check_same_dtype;
using loops::dispatch_arithmetic;
using loops::unary_map;
using loops::unary_map_;

// Calls f(T{}) for the dtype of self and other (which must match); `numeric`
// selects Double/Float/Long, else Double/Float.
template <typename F>
void dispatch_binary(const char* op, const Tensor& self, const Tensor& other, bool numeric, F&& f) {
  check_same_dtype(op, "self", self, "other", other);
  if (numeric) {
    dispatch_arithmetic(self.scalar_type(), op, f);
  } else {
    dispatch_floating(self.scalar_type(), op, f);
  }
}

// Applies f(self, other) in place with broadcasting of other, then bumps the version.
template <typename Make>
Tensor& inplace_binary(const char* op, Tensor& self, const Tensor& other, bool numeric,
                       Make&& make_fn) {
  dispatch_binary(op, self, other, numeric, [&](auto tag) {
    using T = decltype(tag);
    binary_map_<T, T>(op, self, other, make_fn(tag));
  });
  self.bump_version();
  return self;
}

// Copies `result` into `out` (same shape and dtype), for out= variants.
Tensor& write_out(const char* op, const Tensor& result, Tensor& out) {
  if (!out.sizes().equals(result.sizes()) || out.scalar_type() != result.scalar_type()) {
    throw std::invalid_argument(
        std::string(op) + ": expected out of shape " + shape_str(result.sizes()) + " and dtype " +
        to_string(result.scalar_type()) + ", got shape " + shape_str(out.sizes()) + " and dtype " +
        to_string(out.scalar_type()));
  }
  gradgen::internal::copy_(out, result);  // bumps out's version
  return out;
}

template <typename F>
Tensor floating_unary(const char* op, const Tensor& self, F&& f) {
  Tensor out;
  dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    out = unary_map<T, T>(op, self, self.scalar_type(), [&](T x) { return static_cast<T>(f(x)); });
  });
  return out;
}

template <typename F>
Tensor numeric_unary(const char* op, const Tensor& self, F&& f) {
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
  if (!self.is_contiguous()) return floating_unary(op, self, scalar);
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

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  Tensor out;
  dispatch_binary("add", self, other, true, [&](auto tag) {
    using T = decltype(tag);
    const T a = alpha.to<T>();
    if (a == T(1)) {
      out = binary_map<T, T, T>("add", self, other, self.scalar_type(),
                                [](T x, T y) { return static_cast<T>(x + y); });
    } else {
      out = binary_map<T, T, T>("add", self, other, self.scalar_type(),
                                [a](T x, T y) { return static_cast<T>(x + a * y); });
    }
  });
  return out;
}

Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  return inplace_binary("add_", self, other, true, [&](auto tag) {
    using T = decltype(tag);
    const T a = alpha.to<T>();
    return [a](T x, T y) { return static_cast<T>(x + a * y); };
  });
}

Tensor& add_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return write_out("add.out", add(self, other, alpha), out);
}

Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  Tensor out;
  dispatch_arithmetic(self.scalar_type(), "add", [&](auto tag) {
    using T = decltype(tag);
    const T c = static_cast<T>(other.to<T>() * alpha.to<T>());
    out = unary_map<T, T>("add", self, self.scalar_type(),
                          [c](T x) { return static_cast<T>(x + c); });
  });
  return out;
}

Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  Tensor out;
  dispatch_binary("sub", self, other, true, [&](auto tag) {
    using T = decltype(tag);
    const T a = alpha.to<T>();
    out = binary_map<T, T, T>("sub", self, other, self.scalar_type(),
                              [a](T x, T y) { return static_cast<T>(x - a * y); });
  });
  return out;
}

Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  return inplace_binary("sub_", self, other, true, [&](auto tag) {
    using T = decltype(tag);
    const T a = alpha.to<T>();
    return [a](T x, T y) { return static_cast<T>(x - a * y); };
  });
}

Tensor mul(const Tensor& self, const Tensor& other) {
  Tensor out;
  dispatch_binary("mul", self, other, true, [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("mul", self, other, self.scalar_type(),
                              [](T x, T y) { return static_cast<T>(x * y); });
  });
  return out;
}

Tensor& mul_(Tensor& self, const Tensor& other) {
  return inplace_binary("mul_", self, other, true, [](auto tag) {
    using T = decltype(tag);
    return [](T x, T y) { return static_cast<T>(x * y); };
  });
}

Tensor& mul_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("mul.out", mul(self, other), out);
}

Tensor mul(const Tensor& self, const Scalar& other) {
  Tensor out;
  dispatch_arithmetic(self.scalar_type(), "mul", [&](auto tag) {
    using T = decltype(tag);
    const T c = other.to<T>();
    out = unary_map<T, T>("mul", self, self.scalar_type(),
                          [c](T x) { return static_cast<T>(x * c); });
  });
  return out;
}

Tensor& mul_(Tensor& self, const Scalar& other) {
  dispatch_arithmetic(self.scalar_type(), "mul_", [&](auto tag) {
    using T = decltype(tag);
    const T c = other.to<T>();
    unary_map_<T>("mul_", self, [c](T x) { return static_cast<T>(x * c); });
  });
  self.bump_version();
  return self;
}

Tensor div(const Tensor& self, const Tensor& other) {
  Tensor out;
  dispatch_binary("div", self, other, false, [&](auto tag) {
    using T = decltype(tag);
    out =
        binary_map<T, T, T>("div", self, other, self.scalar_type(), [](T x, T y) { return x / y; });
  });
  return out;
}

Tensor& div_(Tensor& self, const Tensor& other) {
  return inplace_binary("div_", self, other, false, [](auto tag) {
    using T = decltype(tag);
    return [](T x, T y) { return x / y; };
  });
}

Tensor div(const Tensor& self, const Scalar& other) {
  Tensor out;
  dispatch_floating(self.scalar_type(), "div", [&](auto tag) {
    using T = decltype(tag);
    const T c = other.to<T>();
    out = unary_map<T, T>("div", self, self.scalar_type(), [c](T x) { return x / c; });
  });
  return out;
}

Tensor pow(const Tensor& self, const Scalar& exponent) {
  // PyTorch's special exponents (aten's pow_tensor_scalar kernel), for its exact answers:
  // pow(-0.0, -0.5) is rsqrt(-0.0) = -inf there, where std::pow gives +inf.
  const double e = exponent.to_double();
  if (e == 0.0) return floating_unary("pow", self, [](auto x) { return decltype(x)(1); });
  if (e == 1.0) return floating_unary("pow", self, [](auto x) { return x; });
  if (e == 2.0) return floating_unary("pow", self, [](auto x) { return x * x; });
  if (e == 3.0) return floating_unary("pow", self, [](auto x) { return x * x * x; });
  if (e == 0.5) return floating_unary("pow", self, [](auto x) { return std::sqrt(x); });
  if (e == -0.5) {
    return floating_unary("pow", self, [](auto x) { return decltype(x)(1) / std::sqrt(x); });
  }
  if (e == -1.0) return floating_unary("pow", self, [](auto x) { return decltype(x)(1) / x; });
  if (e == -2.0) {
    return floating_unary("pow", self, [](auto x) { return decltype(x)(1) / (x * x); });
  }
  return floating_unary("pow", self,
                        [e](auto x) { return std::pow(x, static_cast<decltype(x)>(e)); });
}

Tensor pow(const Tensor& self, const Tensor& exponent) {
  Tensor out;
  check_same_dtype("pow", "self", self, "exponent", exponent);
  dispatch_floating(self.scalar_type(), "pow", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("pow", self, exponent, self.scalar_type(),
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

Tensor relu(const Tensor& self) {
  // NaN propagates (x != x), as in PyTorch.
  return numeric_unary("relu", self, [](auto x) { return x > 0 || x != x ? x : decltype(x)(0); });
}

Tensor& relu_(Tensor& self) {
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
  return numeric_unary("abs", self, [](auto x) { return x < 0 ? -x : x; });
}

Tensor sign(const Tensor& self) {
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
  Tensor out;
  dispatch_arithmetic(self.scalar_type(), "clamp", [&](auto tag) {
    using T = decltype(tag);
    const bool has_lo = min.has_value(), has_hi = max.has_value();
    const T lo = has_lo ? min->to<T>() : T(0);
    const T hi = has_hi ? max->to<T>() : T(0);
    out = unary_map<T, T>("clamp", self, self.scalar_type(), [=](T x) {
      if (has_lo && x < lo) x = lo;
      if (has_hi && x > hi) x = hi;
      return x;
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

Tensor tanh_backward(const Tensor& grad_output, const Tensor& output) {
  Tensor out;
  check_same_dtype("tanh_backward", "grad_output", grad_output, "output", output);
  dispatch_floating(output.scalar_type(), "tanh_backward", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("tanh_backward", grad_output, output, output.scalar_type(),
                              [](T g, T y) { return g * (T(1) - y * y); });
  });
  return out;
}

Tensor sigmoid_backward(const Tensor& grad_output, const Tensor& output) {
  Tensor out;
  check_same_dtype("sigmoid_backward", "grad_output", grad_output, "output", output);
  dispatch_floating(output.scalar_type(), "sigmoid_backward", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("sigmoid_backward", grad_output, output, output.scalar_type(),
                              [](T g, T y) { return g * y * (T(1) - y); });
  });
  return out;
}

Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  Tensor out;
  check_same_dtype("threshold_backward", "grad_output", grad_output, "self", self);
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
