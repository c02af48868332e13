// Kernels of the tensor op library's element-wise binary (and ternary) ops (issue 23): atan2,
// fmod, remainder, div with a rounding mode, floor_divide, maximum / minimum / fmax / fmin,
// hypot, lerp, addcmul, addcdiv, clamp_min / clamp_max / clamp with Tensor bounds, copysign,
// xlogy, the logical and bitwise ops; with their in-place and out= variants (where with Scalar
// branches is in tensorops_composite.cc).
//
// Operands broadcast (NumPy rules) and promote as add's do (type_promotion.h): a Scalar operand
// counts as a Python number. Floating ops (atan2, hypot, copysign, xlogy, lerp) compute integer
// operands as the default float dtype or refuse them, as PyTorch does; integer division by zero
// raises "ZeroDivisionError" as PyTorch's. An in-place variant computes out of place and writes
// the result into self, which must keep its shape and be able to hold the result's dtype.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_all;
using gradgen::internal::dispatch_floating;
using loops::binary_map;
using loops::dispatch_arithmetic;

[[noreturn]] void throw_not_implemented(const char* op, ScalarType dtype) {
  throw std::runtime_error(std::string("\"") + op + "\" not implemented for '" + to_string(dtype) +
                           "'");
}

ScalarType floating_dtype(ScalarType dtype) {
  return is_floating_point(dtype) ? dtype : default_float();
}

// A Scalar operand as a 0-dim tensor of the dtype the op computes in.
Tensor scalar_operand(const Scalar& s, ScalarType dtype) { return full({}, s, dtype); }

// f(a, b) in the floating dtype of the operands' result type (integers: the default float).
template <typename F>
Tensor floating_binary(const char* op, const Tensor& a, const Tensor& b, F&& f) {
  const ScalarType dtype = floating_dtype(result_type(a, b));
  if (is_narrow(dtype))
    return cast(floating_binary(op, widen(a, dtype), widen(b, dtype), f), dtype);
  const Tensor x = cast(a, dtype), y = cast(b, dtype);
  Tensor out;
  dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>(op, x, y, dtype, [&](T u, T v) { return static_cast<T>(f(u, v)); });
  });
  return out;
}

// f(a, b) in the operands' result type (Double, Float or Long; Bool refused).
template <typename F>
Tensor numeric_binary(const char* op, const Tensor& a, const Tensor& b, F&& f) {
  const ScalarType dtype = result_type(a, b);
  if (is_narrow(dtype)) return cast(numeric_binary(op, widen(a, dtype), widen(b, dtype), f), dtype);
  const Tensor x = cast(a, dtype), y = cast(b, dtype);
  Tensor out;
  dispatch_arithmetic(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>(op, x, y, dtype, [&](T u, T v) { return static_cast<T>(f(u, v)); });
  });
  return out;
}

// f(a, b) in the operands' result type, any dtype (Bool included).
template <typename F>
Tensor any_binary(const char* op, const Tensor& a, const Tensor& b, F&& f) {
  const ScalarType dtype = result_type(a, b);
  const Tensor x = cast(a, dtype), y = cast(b, dtype);
  Tensor out;
  dispatch_all(dtype, [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>(op, x, y, dtype, [&](T u, T v) { return static_cast<T>(f(u, v)); });
  });
  return out;
}

/// out = f(a, b, c) with a, b, c broadcast together, all of element type T, into a fresh
/// contiguous tensor of dtype.
template <typename T, typename F>
Tensor ternary_map(const char* op, const Tensor& a, const Tensor& b, const Tensor& c,
                   ScalarType dtype, F&& f) {
  const DimVector ab = loops::broadcast_shapes(op, a.sizes(), b.sizes());
  const DimVector shape = loops::broadcast_shapes(op, IntArrayRef(ab), c.sizes());
  Tensor out = make_tensor(shape, dtype);
  T* o = out.data_ptr<T>();
  const T* pa = a.data_ptr<T>();
  const T* pb = b.data_ptr<T>();
  const T* pc = c.data_ptr<T>();
  const DimVector so = loops::contiguous_strides(shape);
  const DimVector sa = loops::broadcast_strides(a.sizes(), a.strides(), shape);
  const DimVector sb = loops::broadcast_strides(b.sizes(), b.strides(), shape);
  const DimVector sc = loops::broadcast_strides(c.sizes(), c.strides(), shape);
  loops::strided_loop<4>(
      op, shape, {IntArrayRef(so), IntArrayRef(sa), IntArrayRef(sb), IntArrayRef(sc)},
      [&](const std::array<int64_t, 4>& off, int64_t n, const std::array<int64_t, 4>& is) {
        for (int64_t i = 0; i < n; ++i) {
          o[off[0] + i * is[0]] =
              f(pa[off[1] + i * is[1]], pb[off[2] + i * is[2]], pc[off[3] + i * is[3]]);
        }
      });
  return out;
}

[[noreturn]] void throw_zero_division() { throw std::runtime_error("ZeroDivisionError"); }

// Python's floor division of floats (as PyTorch's div_floor_floating): through fmod, so that
// a == b * floordiv(a, b) + mod(a, b) holds closely; a zero divisor gives a / b (inf or NaN).
template <typename T>
T floor_div_floating(T a, T b) {
  if (b == 0) return a / b;
  const T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= T(1);
  if (div == 0) return std::copysign(T(0), a / b);
  T floordiv = std::floor(div);
  if (div - floordiv > T(0.5)) floordiv += T(1);
  return floordiv;
}

int64_t floor_div_integer(int64_t a, int64_t b) {
  if (b == 0) throw_zero_division();
  if (b == -1) return static_cast<int64_t>(0ull - static_cast<uint64_t>(a));  // wraps at INT64_MIN
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t trunc_div_integer(int64_t a, int64_t b) {
  if (b == 0) throw_zero_division();
  if (b == -1) return static_cast<int64_t>(0ull - static_cast<uint64_t>(a));
  return a / b;
}

template <typename T>
T fmod_of(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    if (b == 0) throw_zero_division();
    if (b == -1) return 0;
    return a % b;
  } else {
    return std::fmod(a, b);
  }
}

// The remainder with the divisor's sign (Python's %).
template <typename T>
T remainder_of(T a, T b) {
  T mod = fmod_of(a, b);
  if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
  return mod;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// atan2, fmod, remainder, div with a rounding mode, floor_divide
// ---------------------------------------------------------------------------------------------

Tensor atan2(const Tensor& self, const Tensor& other) {
  return floating_binary("atan2", self, other, [](auto a, auto b) { return std::atan2(a, b); });
}
Tensor& atan2_(Tensor& self, const Tensor& other) {
  return write_inplace("atan2_", self, atan2(self, other));
}
Tensor& atan2_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("atan2.out", atan2(self, other), out);
}

Tensor fmod(const Tensor& self, const Tensor& other) {
  return numeric_binary("fmod", self, other, [](auto a, auto b) { return fmod_of(a, b); });
}
Tensor& fmod_(Tensor& self, const Tensor& other) {
  return write_inplace("fmod_", self, fmod(self, other));
}
Tensor& fmod_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("fmod.Tensor_out", fmod(self, other), out);
}
Tensor fmod(const Tensor& self, const Scalar& other) {
  return fmod(self, scalar_operand(other, result_type(self, other)));
}
Tensor& fmod_(Tensor& self, const Scalar& other) {
  return write_inplace("fmod_", self, fmod(self, other));
}
Tensor& fmod_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return write_out("fmod.Scalar_out", fmod(self, other), out);
}

Tensor remainder(const Tensor& self, const Tensor& other) {
  return numeric_binary("remainder", self, other,
                        [](auto a, auto b) { return remainder_of(a, b); });
}
Tensor& remainder_(Tensor& self, const Tensor& other) {
  return write_inplace("remainder_", self, remainder(self, other));
}
Tensor& remainder_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("remainder.Tensor_out", remainder(self, other), out);
}
Tensor remainder(const Tensor& self, const Scalar& other) {
  return remainder(self, scalar_operand(other, result_type(self, other)));
}
Tensor& remainder_(Tensor& self, const Scalar& other) {
  return write_inplace("remainder_", self, remainder(self, other));
}
Tensor& remainder_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return write_out("remainder.Scalar_out", remainder(self, other), out);
}

Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) return div(self, other);
  const bool floor = *rounding_mode == "floor";
  if (!floor && *rounding_mode != "trunc") {
    throw std::invalid_argument(
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" +
        std::string(*rounding_mode) + "'");
  }
  return numeric_binary("div", self, other, [floor](auto a, auto b) {
    using T = decltype(a);
    if constexpr (std::is_integral<T>::value) {
      return floor ? floor_div_integer(a, b) : trunc_div_integer(a, b);
    } else {
      return floor ? floor_div_floating(a, b) : std::trunc(a / b);
    }
  });
}
Tensor& div_(Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  return write_inplace("div_", self, div(self, other, rounding_mode));
}
Tensor& div_out(const Tensor& self, const Tensor& other,
                std::optional<std::string_view> rounding_mode, Tensor& out) {
  return write_out("div.out_mode", div(self, other, rounding_mode), out);
}
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) return div(self, other);
  return div(self, scalar_operand(other, result_type(self, other)), rounding_mode);
}
Tensor& div_(Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return write_inplace("div_", self, div(self, other, rounding_mode));
}

Tensor floor_divide(const Tensor& self, const Tensor& other) {
  return div(self, other, std::string_view("floor"));
}
Tensor& floor_divide_(Tensor& self, const Tensor& other) {
  return write_inplace("floor_divide_", self, floor_divide(self, other));
}
Tensor& floor_divide_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("floor_divide.out", floor_divide(self, other), out);
}
Tensor floor_divide(const Tensor& self, const Scalar& other) {
  return floor_divide(self, scalar_operand(other, result_type(self, other)));
}

// ---------------------------------------------------------------------------------------------
// maximum, minimum (NaN propagates), fmax, fmin (NaN ignored), hypot
// ---------------------------------------------------------------------------------------------

Tensor maximum(const Tensor& self, const Tensor& other) {
  return any_binary("maximum", self, other, [](auto a, auto b) {
    if (a != a) return a;
    if (b != b) return b;
    return a > b ? a : b;
  });
}
Tensor& maximum_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("maximum.out", maximum(self, other), out);
}
Tensor minimum(const Tensor& self, const Tensor& other) {
  return any_binary("minimum", self, other, [](auto a, auto b) {
    if (a != a) return a;
    if (b != b) return b;
    return a < b ? a : b;
  });
}
Tensor& minimum_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("minimum.out", minimum(self, other), out);
}
Tensor fmax(const Tensor& self, const Tensor& other) {
  return numeric_binary("fmax", self, other, [](auto a, auto b) {
    if (a != a) return b;
    if (b != b) return a;
    return a > b ? a : b;
  });
}
Tensor& fmax_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("fmax.out", fmax(self, other), out);
}
Tensor fmin(const Tensor& self, const Tensor& other) {
  return numeric_binary("fmin", self, other, [](auto a, auto b) {
    if (a != a) return b;
    if (b != b) return a;
    return a < b ? a : b;
  });
}
Tensor& fmin_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("fmin.out", fmin(self, other), out);
}

Tensor hypot(const Tensor& self, const Tensor& other) {
  const ScalarType dtype = result_type(self, other);
  if (!is_floating_point(dtype)) throw_not_implemented("hypot", dtype);
  return floating_binary("hypot", self, other, [](auto a, auto b) { return std::hypot(a, b); });
}
Tensor& hypot_(Tensor& self, const Tensor& other) {
  return write_inplace("hypot_", self, hypot(self, other));
}
Tensor& hypot_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("hypot.out", hypot(self, other), out);
}

// ---------------------------------------------------------------------------------------------
// lerp, addcmul, addcdiv
// ---------------------------------------------------------------------------------------------

namespace {

// self + weight * (end - self), computed from the nearer end as PyTorch does (exact at
// weight 0 and 1).
template <typename T>
T lerp_of(T self, T end, T weight) {
  return std::abs(weight) < T(0.5) ? self + weight * (end - self)
                                   : end - (end - self) * (T(1) - weight);
}

void check_lerp_dtypes(const char* op, const Tensor& self, const Tensor& other, const char* name) {
  if (self.scalar_type() != other.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": expected dtype " +
                                to_string(self.scalar_type()) + " for `" + name +
                                "` but got dtype " + to_string(other.scalar_type()));
  }
}

}  // namespace

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(lerp, self, end, weight);
  check_lerp_dtypes("lerp", self, end, "end");
  if (!is_floating_point(self.scalar_type())) throw_not_implemented("lerp", self.scalar_type());
  Tensor out;
  dispatch_floating(self.scalar_type(), "lerp", [&](auto tag) {
    using T = decltype(tag);
    const T w = weight.to<T>();
    out = binary_map<T, T, T>("lerp", self, end, self.scalar_type(),
                              [w](T a, T b) { return lerp_of(a, b, w); });
  });
  return out;
}
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(lerp, self, end, weight);
  check_lerp_dtypes("lerp", self, end, "end");
  check_lerp_dtypes("lerp", self, weight, "weight");
  if (!is_floating_point(self.scalar_type())) throw_not_implemented("lerp", self.scalar_type());
  Tensor out;
  dispatch_floating(self.scalar_type(), "lerp", [&](auto tag) {
    using T = decltype(tag);
    out = ternary_map<T>("lerp", self, end, weight, self.scalar_type(),
                         [](T a, T b, T w) { return lerp_of(a, b, w); });
  });
  return out;
}
Tensor& lerp_(Tensor& self, const Tensor& end, const Scalar& weight) {
  return write_inplace("lerp_", self, lerp(self, end, weight));
}
Tensor& lerp_(Tensor& self, const Tensor& end, const Tensor& weight) {
  return write_inplace("lerp_", self, lerp(self, end, weight));
}
Tensor& lerp_out(const Tensor& self, const Tensor& end, const Scalar& weight, Tensor& out) {
  return write_out("lerp.Scalar_out", lerp(self, end, weight), out);
}
Tensor& lerp_out(const Tensor& self, const Tensor& end, const Tensor& weight, Tensor& out) {
  return write_out("lerp.Tensor_out", lerp(self, end, weight), out);
}

namespace {

// self + value * f(tensor1, tensor2) in the three tensors' result type.
template <typename F>
Tensor pointwise_ternary(const char* op, const Tensor& self, const Tensor& tensor1,
                         const Tensor& tensor2, const Scalar& value, F&& f) {
  ResultType promotion;
  promotion.add(self).add(tensor1).add(tensor2);
  const ScalarType dtype = promotion.get();
  if (is_narrow(dtype)) {
    return cast(pointwise_ternary(op, widen(self, dtype), widen(tensor1, dtype),
                                  widen(tensor2, dtype), value, f),
                dtype);
  }
  // An integral result takes value truncated to an integer (PyTorch casts it too).
  const Tensor a = cast(self, dtype), b = cast(tensor1, dtype), c = cast(tensor2, dtype);
  Tensor out;
  dispatch_arithmetic(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    const T v = value.to<T>();
    out = ternary_map<T>(op, a, b, c, dtype,
                         [&](T x, T y, T z) { return static_cast<T>(x + v * f(y, z)); });
  });
  return out;
}

}  // namespace

Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
               const Scalar& value) {
  return pointwise_ternary("addcmul", self, tensor1, tensor2, value,
                           [](auto y, auto z) { return y * z; });
}
Tensor& addcmul_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return write_inplace("addcmul_", self, addcmul(self, tensor1, tensor2, value));
}
Tensor& addcmul_out(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value, Tensor& out) {
  return write_out("addcmul.out", addcmul(self, tensor1, tensor2, value), out);
}

Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
               const Scalar& value) {
  if (!is_floating_point(tensor1.scalar_type()) && !is_floating_point(tensor2.scalar_type())) {
    throw std::invalid_argument(
        "addcdiv: Integer division with addcdiv is no longer supported, and in a future  "
        "release addcdiv will perform a true division of tensor1 and tensor2. The historic "
        "addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / "
        "tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
        "tensor2) for float inputs. The future addcdiv behavior is just the latter "
        "implementation: (input + value * tensor1 / tensor2), for all dtypes.");
  }
  return pointwise_ternary("addcdiv", self, tensor1, tensor2, value,
                           [](auto y, auto z) { return y / z; });
}
Tensor& addcdiv_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return write_inplace("addcdiv_", self, addcdiv(self, tensor1, tensor2, value));
}
Tensor& addcdiv_out(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value, Tensor& out) {
  return write_out("addcdiv.out", addcdiv(self, tensor1, tensor2, value), out);
}

// ---------------------------------------------------------------------------------------------
// clamp_min, clamp_max, clamp with Tensor bounds
// ---------------------------------------------------------------------------------------------

Tensor clamp_min(const Tensor& self, const Scalar& min) { return clamp(self, min, std::nullopt); }
Tensor& clamp_min_(Tensor& self, const Scalar& min) {
  return write_inplace("clamp_min_", self, clamp_min(self, min));
}
Tensor& clamp_min_out(const Tensor& self, const Scalar& min, Tensor& out) {
  return write_out("clamp_min.out", clamp_min(self, min), out);
}
Tensor clamp_max(const Tensor& self, const Scalar& max) { return clamp(self, std::nullopt, max); }
Tensor& clamp_max_(Tensor& self, const Scalar& max) {
  return write_inplace("clamp_max_", self, clamp_max(self, max));
}
Tensor& clamp_max_out(const Tensor& self, const Scalar& max, Tensor& out) {
  return write_out("clamp_max.out", clamp_max(self, max), out);
}
Tensor& clamp_(Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  return write_inplace("clamp_", self, clamp(self, min, max));
}

// Tensor bounds: maximum / minimum (NaN in either operand propagating, as PyTorch's kernels).
Tensor clamp_min(const Tensor& self, const Tensor& min) { return maximum(self, min); }
Tensor& clamp_min_(Tensor& self, const Tensor& min) {
  return write_inplace("clamp_min_", self, clamp_min(self, min));
}
Tensor& clamp_min_out(const Tensor& self, const Tensor& min, Tensor& out) {
  return write_out("clamp_min.Tensor_out", clamp_min(self, min), out);
}
Tensor clamp_max(const Tensor& self, const Tensor& max) { return minimum(self, max); }
Tensor& clamp_max_(Tensor& self, const Tensor& max) {
  return write_inplace("clamp_max_", self, clamp_max(self, max));
}
Tensor& clamp_max_out(const Tensor& self, const Tensor& max, Tensor& out) {
  return write_out("clamp_max.Tensor_out", clamp_max(self, max), out);
}

// min(max(self, min), max), NaN in any operand propagating (PyTorch's clamp kernel); one bound:
// maximum or minimum.
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min,
             const std::optional<Tensor>& max) {
  const bool has_min = min.has_value() && min->defined();
  const bool has_max = max.has_value() && max->defined();
  if (!has_min && !has_max) {
    throw std::invalid_argument("clamp: At least one of 'min' or 'max' must not be None");
  }
  if (!has_max) return maximum(self, *min);
  if (!has_min) return minimum(self, *max);
  ResultType promotion;
  promotion.add(self).add(*min).add(*max);
  const ScalarType dtype = promotion.get();
  if (is_narrow(dtype)) {
    return cast(clamp(widen(self, dtype), widen(*min, dtype), widen(*max, dtype)), dtype);
  }
  const Tensor a = cast(self, dtype), lo = cast(*min, dtype), hi = cast(*max, dtype);
  Tensor out;
  dispatch_arithmetic(dtype, "clamp", [&](auto tag) {
    using T = decltype(tag);
    out = ternary_map<T>("clamp", a, lo, hi, dtype, [](T x, T l, T h) {
      if (x != x) return x;
      if (l != l) return l;
      if (h != h) return h;
      return std::min(std::max(x, l), h);
    });
  });
  return out;
}
Tensor& clamp_(Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  return write_inplace("clamp_", self, clamp(self, min, max));
}
Tensor& clamp_out(const Tensor& self, const std::optional<Tensor>& min,
                  const std::optional<Tensor>& max, Tensor& out) {
  return write_out("clamp.Tensor_out", clamp(self, min, max), out);
}

// ---------------------------------------------------------------------------------------------
// copysign, xlogy
// ---------------------------------------------------------------------------------------------

Tensor copysign(const Tensor& self, const Tensor& other) {
  return floating_binary("copysign", self, other,
                         [](auto a, auto b) { return std::copysign(a, b); });
}
Tensor& copysign_(Tensor& self, const Tensor& other) {
  return write_inplace("copysign_", self, copysign(self, other));
}
Tensor& copysign_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("copysign.out", copysign(self, other), out);
}
Tensor copysign(const Tensor& self, const Scalar& other) {
  return copysign(self, scalar_operand(other, result_type(self, other)));
}
Tensor& copysign_(Tensor& self, const Scalar& other) {
  return write_inplace("copysign_", self, copysign(self, other));
}
Tensor& copysign_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return write_out("copysign.Scalar_out", copysign(self, other), out);
}

// x * log(y), 0 where x is 0 (unless y is NaN).
Tensor xlogy(const Tensor& self, const Tensor& other) {
  return floating_binary("xlogy", self, other, [](auto x, auto y) {
    using T = decltype(x);
    if (y != y) return std::numeric_limits<T>::quiet_NaN();
    if (x == 0) return T(0);
    return static_cast<T>(x * std::log(y));
  });
}
Tensor xlogy(const Tensor& self, const Scalar& other) {
  return xlogy(self, scalar_operand(other, result_type(self, other)));
}
Tensor& xlogy_(Tensor& self, const Tensor& other) {
  return write_inplace("xlogy_", self, xlogy(self, other));
}
Tensor& xlogy_(Tensor& self, const Scalar& other) {
  return write_inplace("xlogy_", self, xlogy(self, other));
}
Tensor& xlogy_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("xlogy.OutTensor", xlogy(self, other), out);
}
Tensor xlogy(const Scalar& self, const Tensor& other) {
  return xlogy(scalar_operand(self, result_type(other, self)), other);
}
Tensor& xlogy_out(const Scalar& self, const Tensor& other, Tensor& out) {
  return write_out("xlogy.OutScalar_Self", xlogy(self, other), out);
}
Tensor& xlogy_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return write_out("xlogy.OutScalar_Other", xlogy(self, other), out);
}

// ---------------------------------------------------------------------------------------------
// Logical (any dtypes, non-zero is true; Bool results) and bitwise (Long and Bool) ops
// ---------------------------------------------------------------------------------------------

namespace {

template <typename F>
Tensor logical_binary(const char* op, const Tensor& a, const Tensor& b, F&& f) {
  return binary_map<bool, bool, bool>(op, cast(a, ScalarType::Bool), cast(b, ScalarType::Bool),
                                      ScalarType::Bool, f);
}

// The checks of an in-place variant before it computes, in PyTorch's order: the broadcast shape
// must be self's, then self must hold the result type.
void check_inplace(const char* op, const Tensor& self, const Tensor& other, ScalarType result) {
  const DimVector shape = loops::broadcast_shapes(op, self.sizes(), other.sizes());
  if (!self.sizes().equals(IntArrayRef(shape.data(), shape.size()))) {
    throw std::invalid_argument(std::string(op) + ": output with shape " + shape_str(self.sizes()) +
                                " doesn't match the broadcast shape " +
                                shape_str(IntArrayRef(shape.data(), shape.size())));
  }
  check_can_cast(op, result, self.scalar_type());
}

// The C++ type name PyTorch's dtype messages print ("long int" for Long).
const char* cpp_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Long: return "long int";
    case ScalarType::Bool: return "bool";
    case ScalarType::Int: return "int";
    case ScalarType::Short: return "short int";
    case ScalarType::Char: return "signed char";
    case ScalarType::Byte: return "unsigned char";
    case ScalarType::Half: return "c10::Half";
    case ScalarType::BFloat16: return "c10::BFloat16";
  }
  return "";
}

// PyTorch's derived (`autogen:`) out= variants, bitwise_*.Scalar_Tensor_out, take only an out of
// the result's dtype ("Expected out tensor to have dtype long int, but got float instead").
void check_same_out_dtype(const char* op, const Tensor& result, const Tensor& out) {
  if (out.scalar_type() != result.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": Expected out tensor to have dtype " +
                                cpp_type_name(result.scalar_type()) + ", but got " +
                                cpp_type_name(out.scalar_type()) + " instead");
  }
}

template <typename F>
Tensor bitwise_binary(const char* op, const Tensor& a, const Tensor& b, F&& f) {
  const ScalarType dtype = result_type(a, b);
  if (is_floating_point(dtype)) throw_not_implemented(op, dtype);
  if (dtype == ScalarType::Bool) {
    return binary_map<bool, bool, bool>(op, cast(a, dtype), cast(b, dtype), dtype, f);
  }
  // The narrower integers in int64, wrapped back: bitwise results fit their operands' width.
  const Tensor x = widen(a, dtype), y = widen(b, dtype);
  return cast(binary_map<int64_t, int64_t, int64_t>(op, x, y, ScalarType::Long, f), dtype);
}

}  // namespace

Tensor logical_and(const Tensor& self, const Tensor& other) {
  return logical_binary("logical_and", self, other, [](bool a, bool b) { return a && b; });
}
Tensor& logical_and_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("logical_and.out", logical_and(self, other), out);
}
Tensor logical_or(const Tensor& self, const Tensor& other) {
  return logical_binary("logical_or", self, other, [](bool a, bool b) { return a || b; });
}
Tensor& logical_or_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("logical_or.out", logical_or(self, other), out);
}
Tensor logical_xor(const Tensor& self, const Tensor& other) {
  return logical_binary("logical_xor", self, other, [](bool a, bool b) { return a != b; });
}
Tensor& logical_xor_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("logical_xor.out", logical_xor(self, other), out);
}

// The in-place and out= variants check, as PyTorch's, that the result type casts to self's (out's)
// dtype before computing: int64 &= float32 is "result type Float can't be cast to the desired
// output type Long", not the refusal of floats (in place, after the broadcast shape is checked).
#define GRADGEN_BITWISE(name, op)                                                           \
  Tensor name(const Tensor& self, const Tensor& other) {                                    \
    return bitwise_binary(#name "_cpu", self, other,                                        \
                          [](auto a, auto b) { return static_cast<decltype(a)>(a op b); }); \
  }                                                                                         \
  Tensor name(const Tensor& self, const Scalar& other) {                                    \
    const ScalarType dtype = result_type(self, other);                                      \
    if (is_floating_point(dtype)) throw_not_implemented(#name "_cpu", dtype);               \
    return name(self, scalar_operand(other, dtype));                                        \
  }                                                                                         \
  Tensor name(const Scalar& self, const Tensor& other) {                                    \
    const ScalarType dtype = result_type(other, self);                                      \
    if (is_floating_point(dtype)) throw_not_implemented(#name "_cpu", dtype);               \
    return name(scalar_operand(self, dtype), other);                                        \
  }                                                                                         \
  Tensor& name##_(Tensor& self, const Tensor& other) {                                      \
    check_inplace(#name "_", self, other, result_type(self, other));                        \
    return write_inplace(#name "_", self, name(self, other));                               \
  }                                                                                         \
  Tensor& name##_(Tensor& self, const Scalar& other) {                                      \
    check_can_cast(#name "_", result_type(self, other), self.scalar_type());                \
    return write_inplace(#name "_", self, name(self, other));                               \
  }                                                                                         \
  Tensor& name##_out(const Tensor& self, const Tensor& other, Tensor& out) {                \
    check_can_cast(#name ".Tensor_out", result_type(self, other), out.scalar_type());       \
    return write_out(#name ".Tensor_out", name(self, other), out);                          \
  }                                                                                         \
  Tensor& name##_out(const Tensor& self, const Scalar& other, Tensor& out) {                \
    check_can_cast(#name ".Scalar_out", result_type(self, other), out.scalar_type());       \
    return write_out(#name ".Scalar_out", name(self, other), out);                          \
  }                                                                                         \
  Tensor& name##_out(const Scalar& self, const Tensor& other, Tensor& out) {                \
    const Tensor result = name(self, other);                                                \
    check_same_out_dtype(#name ".Scalar_Tensor_out", result, out);                          \
    return write_out(#name ".Scalar_Tensor_out", result, out);                              \
  }

GRADGEN_BITWISE(bitwise_and, &)
GRADGEN_BITWISE(bitwise_or, |)
GRADGEN_BITWISE(bitwise_xor, ^)

#undef GRADGEN_BITWISE

Tensor bitwise_not(const Tensor& self) {
  if (self.scalar_type() == ScalarType::Bool) {
    return loops::unary_map<bool, bool>("bitwise_not", self, ScalarType::Bool,
                                        [](bool x) { return !x; });
  }
  if (!is_integral(self.scalar_type(), false)) {
    throw_not_implemented("bitwise_not_cpu", self.scalar_type());
  }
  const Tensor x = widen(self, self.scalar_type());
  return cast(loops::unary_map<int64_t, int64_t>("bitwise_not", x, ScalarType::Long,
                                                 [](int64_t v) { return ~v; }),
              self.scalar_type());
}
Tensor& bitwise_not_(Tensor& self) {
  return write_inplace("bitwise_not_", self, bitwise_not(self));
}
// PyTorch's bitwise_not.out takes only an out of self's dtype ("Found dtype Short but expected
// Char"), checked before the refusal of floats.
Tensor& bitwise_not_out(const Tensor& self, Tensor& out) {
  if (out.scalar_type() != self.scalar_type()) {
    throw std::invalid_argument(std::string("bitwise_not.out: Found dtype ") +
                                to_string(out.scalar_type()) + " but expected " +
                                to_string(self.scalar_type()));
  }
  return write_out("bitwise_not.out", bitwise_not(self), out);
}

// The logical ops in place: self keeps its dtype, any dtype (the Bool result converted: a float
// tensor gets 0.0 and 1.0), as PyTorch's.
Tensor& logical_and_(Tensor& self, const Tensor& other) {
  return write_inplace("logical_and_", self, logical_and(self, other));
}
Tensor& logical_or_(Tensor& self, const Tensor& other) {
  return write_inplace("logical_or_", self, logical_or(self, other));
}
Tensor& logical_xor_(Tensor& self, const Tensor& other) {
  return write_inplace("logical_xor_", self, logical_xor(self, other));
}
Tensor& logical_not_(Tensor& self) {
  return write_inplace("logical_not_", self, logical_not(self));
}

}  // namespace native
}  // namespace gradgen
