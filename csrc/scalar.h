// ScalarType (a tensor's element type) and Scalar (one number of any such type).
//
// float64 (Double) is what kernels and gradcheck compute in; Float, Long and Bool
// can be created, stored, printed and converted, so that ops with integer or
// boolean results have a type to return.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

namespace gradgen {

/// The element type of a tensor.
enum class ScalarType : int8_t { Float, Double, Long, Bool };

/// Returns the size in bytes of one element of type t.
inline size_t element_size(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return 4;
    case ScalarType::Double: return 8;
    case ScalarType::Long: return 8;
    case ScalarType::Bool: return 1;
  }
  return 0;
}

/// Returns the name used in error messages and printing ("Double").
inline const char* to_string(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::Long: return "Long";
    case ScalarType::Bool: return "Bool";
  }
  return "Unknown";
}

/// Returns true for Float and Double, the types that can require grad.
inline bool is_floating_point(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double;
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
  /// Returns the value converted to T (one of double, float, int64_t, bool).
  template <typename T>
  T to() const {
    if (std::is_same<T, bool>::value) return static_cast<T>(to_bool());
    if (std::is_integral<T>::value) return static_cast<T>(to_long());
    return static_cast<T>(to_double());
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
