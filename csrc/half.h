// Half (IEEE binary16, PyTorch's float16) and BFloat16 (bfloat16): 16-bit storage types of
// tensors. As PyTorch's CPU kernels do, gradgen computes with them in float32: a Half converts
// implicitly to float, and a float (or anything convertible to float) converts to Half with
// round-to-nearest-even, so `static_cast<Half>(a + b)` of two Halfs is float32's sum rounded once.
//
// The conversions are written here (bit manipulation, no hardware F16C), small and inline because
// tensor.h includes this header: every element access of these dtypes goes through them.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace gradgen {

namespace half_detail {
inline uint32_t float_bits(float f) {
  uint32_t u;
  __builtin_memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  __builtin_memcpy(&f, &u, sizeof f);
  return f;
}
}  // namespace half_detail

/// Returns f as binary16 bits, rounded to nearest even (NaN becomes the quiet NaN 0x7e00 with
/// f's sign, as PyTorch's c10::Half; 65520 and above become infinity).
inline uint16_t float_to_half_bits(float f) {
  uint32_t x = half_detail::float_bits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) return static_cast<uint16_t>(sign | (x > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (x >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520: overflow
  if (x < 0x38800000u) {
    // Below 2^-14: a subnormal half, m * 2^-24. Adding 0.5 makes the FPU round |f| to a multiple
    // of 2^-24 (float's ulp at 0.5), to nearest even; the low bits are then m (0x400 is the
    // smallest normal, which is also the right encoding).
    const float rounded = half_detail::bits_float(x) + 0.5f;
    return static_cast<uint16_t>(sign | (half_detail::float_bits(rounded) - 0x3f000000u));
  }
  const uint32_t odd = (x >> 13) & 1u;
  x += 0xc8000000u + 0xfffu + odd;  // rebias the exponent (127 -> 15), round to nearest even
  return static_cast<uint16_t>(sign | (x >> 13));
}

/// Returns the float of binary16 bits h (exact).
inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return half_detail::bits_float(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // m * 2^-24
    return half_detail::bits_float(sign | half_detail::float_bits(magnitude));
  }
  return half_detail::bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

/// Returns f as bfloat16 bits, rounded to nearest even (NaN is 0x7fc0, as PyTorch's).
inline uint16_t float_to_bfloat16_bits(float f) {
  if (f != f) return 0x7fc0u;
  const uint32_t x = half_detail::float_bits(f);
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/// Returns the float of bfloat16 bits b (exact).
inline float bfloat16_bits_to_float(uint16_t b) {
  return half_detail::bits_float(static_cast<uint32_t>(b) << 16);
}

/// PyTorch's float16: stored in 16 bits, computed as float.
struct Half {
  uint16_t x = 0;
  Half() = default;
  Half(float f) : x(float_to_half_bits(f)) {}               // NOLINT(google-explicit-constructor)
  operator float() const { return half_bits_to_float(x); }  // NOLINT(google-explicit-constructor)
  // Compound assignment in float, rounded once (generic kernels accumulate with them).
  Half& operator+=(float v) { return *this = Half(static_cast<float>(*this) + v); }
  Half& operator-=(float v) { return *this = Half(static_cast<float>(*this) - v); }
  Half& operator*=(float v) { return *this = Half(static_cast<float>(*this) * v); }
  Half& operator/=(float v) { return *this = Half(static_cast<float>(*this) / v); }
  static Half from_bits(uint16_t bits) {
    Half h;
    h.x = bits;
    return h;
  }
};

/// PyTorch's bfloat16: float32's upper 16 bits, computed as float.
struct BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  BFloat16(float f) : x(float_to_bfloat16_bits(f)) {}  // NOLINT(google-explicit-constructor)
  operator float() const {                             // NOLINT(google-explicit-constructor)
    return bfloat16_bits_to_float(x);
  }
  // Compound assignment in float, rounded once (generic kernels accumulate with them).
  BFloat16& operator+=(float v) { return *this = BFloat16(static_cast<float>(*this) + v); }
  BFloat16& operator-=(float v) { return *this = BFloat16(static_cast<float>(*this) - v); }
  BFloat16& operator*=(float v) { return *this = BFloat16(static_cast<float>(*this) * v); }
  BFloat16& operator/=(float v) { return *this = BFloat16(static_cast<float>(*this) / v); }
  static BFloat16 from_bits(uint16_t bits) {
    BFloat16 b;
    b.x = bits;
    return b;
  }
};

/// std::is_floating_point, with Half and BFloat16: what generic kernels test to treat NaN and
/// infinity (std::is_floating_point itself may not be specialized).
template <typename T>
struct is_floating_type : std::is_floating_point<T> {};
template <>
struct is_floating_type<Half> : std::true_type {};
template <>
struct is_floating_type<BFloat16> : std::true_type {};

}  // namespace gradgen

namespace std {
// What generic kernel code asks of a floating element type (NaN, infinity, range).
template <typename T, uint16_t kMax, uint16_t kMin, uint16_t kEps, uint16_t kInf, uint16_t kNaN,
          uint16_t kDenorm, int kDigits>
struct gradgen_half_limits {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = kDigits;
  static T min() { return T::from_bits(kMin); }
  static T lowest() { return T::from_bits(static_cast<uint16_t>(kMax | 0x8000u)); }
  static T max() { return T::from_bits(kMax); }
  static T epsilon() { return T::from_bits(kEps); }
  static T infinity() { return T::from_bits(kInf); }
  static T quiet_NaN() { return T::from_bits(kNaN); }
  static T denorm_min() { return T::from_bits(kDenorm); }
};
template <>
class numeric_limits<gradgen::Half>
    : public gradgen_half_limits<gradgen::Half, 0x7bff, 0x0400, 0x1400, 0x7c00, 0x7e00, 0x0001,
                                 11> {};
template <>
class numeric_limits<gradgen::BFloat16>
    : public gradgen_half_limits<gradgen::BFloat16, 0x7f7f, 0x0080, 0x3c00, 0x7f80, 0x7fc0, 0x0001,
                                 8> {};
}  // namespace std
