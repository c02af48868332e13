// ScalarType (a tensor's element type) and Scalar (one number of any such type).
//
// float64 (Double) is what gradcheck computes in. The dtypes are PyTorch's real ones: float32,
// float64, float16 (Half) and bfloat16 (BFloat16, both csrc/half.h, computed in float32), int64,
// int32, int16, int8, uint8 and bool. Kernels that compute instantiate only Double, Float and
// Long; the others compute through them (type_promotion.h's compute_dtype) or are refused by
// name, so each added dtype does not multiply every kernel's instantiations.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "csrc/half.h"

namespace gradgen {

/// The element type of a tensor. The first four keep their values (older code stores them).
enum class ScalarType : int8_t {
  Float,
  Double,
  Long,
  Bool,
  Int,
  Short,
  Char,
  Byte,
  Half,
  BFloat16
};

/// The number of ScalarTypes (tables indexed by a ScalarType's value).
constexpr int kNumScalarTypes = 10;

/// Returns the size in bytes of one element of type t.
inline size_t element_size(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return 4;
    case ScalarType::Double: return 8;
    case ScalarType::Long: return 8;
    case ScalarType::Bool: return 1;
    case ScalarType::Int: return 4;
    case ScalarType::Short: return 2;
    case ScalarType::Char: return 1;
    case ScalarType::Byte: return 1;
    case ScalarType::Half: return 2;
    case ScalarType::BFloat16: return 2;
  }
  return 0;
}

/// Returns the name used in error messages and printing, PyTorch's ("Double", "Byte").
inline const char* to_string(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::Long: return "Long";
    case ScalarType::Bool: return "Bool";
    case ScalarType::Int: return "Int";
    case ScalarType::Short: return "Short";
    case ScalarType::Char: return "Char";
    case ScalarType::Byte: return "Byte";
    case ScalarType::Half: return "Half";
    case ScalarType::BFloat16: return "BFloat16";
  }
  return "Unknown";
}

/// Returns true for Float, Double, Half and BFloat16, the types that can require grad.
inline bool is_floating_point(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half ||
         t == ScalarType::BFloat16;
}

/// Returns true for the integer types (Bool only with include_bool), PyTorch's isIntegralType.
inline bool is_integral(ScalarType t, bool include_bool) {
  return t == ScalarType::Long || t == ScalarType::Int || t == ScalarType::Short ||
         t == ScalarType::Char || t == ScalarType::Byte || (include_bool && t == ScalarType::Bool);
}

/// Maps a C++ element type to its ScalarType: scalar_type_of<double>::value == Double.
template <typename T>
struct scalar_type_of;
template <>
struct scalar_type_of<float> : std::integral_constant<ScalarType, ScalarType::Float> {};
template <>
struct scalar_type_of<double> : std::integral_constant<ScalarType, ScalarType::Double> {};
template <>
struct scalar_type_of<int64_t> : std::integral_constant<ScalarType, ScalarType::Long> {};
template <>
struct scalar_type_of<bool> : std::integral_constant<ScalarType, ScalarType::Bool> {};
template <>
struct scalar_type_of<int32_t> : std::integral_constant<ScalarType, ScalarType::Int> {};
template <>
struct scalar_type_of<int16_t> : std::integral_constant<ScalarType, ScalarType::Short> {};
template <>
struct scalar_type_of<int8_t> : std::integral_constant<ScalarType, ScalarType::Char> {};
template <>
struct scalar_type_of<uint8_t> : std::integral_constant<ScalarType, ScalarType::Byte> {};
template <>
struct scalar_type_of<Half> : std::integral_constant<ScalarType, ScalarType::Half> {};
template <>
struct scalar_type_of<BFloat16> : std::integral_constant<ScalarType, ScalarType::BFloat16> {};

/// One number: a double, an int64 or a bool, remembering which.
class Scalar {
 public:
  enum class Kind : int8_t { Double, Long, Bool };

  Scalar() : Scalar(0.0) {}
  template <typename T, std::enable_if_t<std::is_floating_point<T>::value, int> = 0>
  Scalar(T v) : kind_(Kind::Double) {
    v_.d = static_cast<double>(v);
  }
  template <typename T,
            std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int> = 0>
  Scalar(T v) : kind_(Kind::Long) {
    v_.i = static_cast<int64_t>(v);
  }
  Scalar(bool v) : kind_(Kind::Bool) { v_.b = v; }
  // Without these a Half would pick Scalar(bool) through its conversion to float.
  Scalar(Half v) : Scalar(static_cast<float>(v)) {}
  Scalar(BFloat16 v) : Scalar(static_cast<float>(v)) {}

  Kind kind() const { return kind_; }
  bool is_floating_point() const { return kind_ == Kind::Double; }
  bool is_integral() const { return kind_ == Kind::Long; }
  bool is_boolean() const { return kind_ == Kind::Bool; }

  /// Returns the value converted to double.
  double to_double() const {
    switch (kind_) {
      case Kind::Double: return v_.d;
      case Kind::Long: return static_cast<double>(v_.i);
      case Kind::Bool: return v_.b ? 1.0 : 0.0;
    }
    return 0.0;
  }
  /// PyTorch's spellings (c10::Scalar::toDouble, toFloat, toLong), which derivative formulas
  /// written in PyTorch's language call (celu's `1.0/alpha.toFloat()`).
  double toDouble() const { return to_double(); }
  float toFloat() const { return static_cast<float>(to_double()); }
  int64_t toLong() const { return to_long(); }
  bool isFloatingPoint() const { return is_floating_point(); }
  /// gradgen has no complex numbers: never complex, and toComplexDouble() is the real value (so
  /// `weight.isComplex() ? ... toComplexDouble() ... : ... toDouble() ...` compiles, lerp's).
  bool isComplex() const { return false; }
  double toComplexDouble() const { return to_double(); }
  /// Returns the value converted to int64 (doubles truncate toward zero).
  int64_t to_long() const {
    switch (kind_) {
      case Kind::Double: return static_cast<int64_t>(v_.d);
      case Kind::Long: return v_.i;
      case Kind::Bool: return v_.b ? 1 : 0;
    }
    return 0;
  }
  /// Returns the value converted to bool (non-zero is true).
  bool to_bool() const {
    switch (kind_) {
      case Kind::Double: return v_.d != 0.0;
      case Kind::Long: return v_.i != 0;
      case Kind::Bool: return v_.b;
    }
    return false;
  }
  /// Returns the value converted to T (an element type: double, float, Half, int8_t, bool...).
  /// Integers wrap into a narrower T as a C++ cast does (PyTorch's fill_ of int8 with 300 is 44).
  template <typename T>
  T to() const {
    if constexpr (std::is_same<T, bool>::value) {
      return to_bool();
    } else if constexpr (std::is_integral<T>::value) {
      return static_cast<T>(to_long());
    } else {
      return static_cast<T>(to_double());
    }
  }
  /// Returns the value as text: "2.5", "3", "true".
  std::string to_string() const;

 private:
  Kind kind_;
  union {
    double d;
    int64_t i;
    bool b;
  } v_;
};

}  // namespace gradgen
