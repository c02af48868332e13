// OptionalArrayRef<T>: an ArrayRef<T> that may be absent (`int[1]? dim=None`).
//
// The codegen gives a schema argument of type `int[]?` the C++ type
// `OptionalIntArrayRef`. std::optional<IntArrayRef> would do, except that it cannot
// be built from a braced list (`sum(x, {0, 1})`) or a single int (`sum(x, 1)`);
// this small wrapper accepts both, plus std::nullopt, vectors and the
// std::optional<std::vector<int64_t>> a Backward node saves the argument as.
//
//   Tensor a = sum(x, {0, 1});          // dims 0 and 1
//   Tensor b = sum(x, std::nullopt);    // every dim
//
// Like ArrayRef it does not own its elements: never store one built from a
// braced list or a temporary.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "csrc/util/array_ref.h"

namespace gradgen {

template <typename T>
class OptionalArrayRef {
 public:
  constexpr OptionalArrayRef() noexcept = default;
  constexpr OptionalArrayRef(std::nullopt_t) noexcept {}
  OptionalArrayRef(ArrayRef<T> ref) noexcept : ref_(ref), has_value_(true) {}
  /// Views one element as a list of one (`sum(x, 1)`).
  OptionalArrayRef(const T& one) noexcept : ref_(one), has_value_(true) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  OptionalArrayRef(const std::initializer_list<T>& list) noexcept : ref_(list), has_value_(true) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  OptionalArrayRef(const std::vector<T>& v) noexcept : ref_(v), has_value_(true) {}
  OptionalArrayRef(const std::optional<std::vector<T>>& v) noexcept
      : ref_(v ? ArrayRef<T>(*v) : ArrayRef<T>()), has_value_(v.has_value()) {}
  OptionalArrayRef(const std::optional<ArrayRef<T>>& v) noexcept
      : ref_(v ? *v : ArrayRef<T>()), has_value_(v.has_value()) {}

  bool has_value() const noexcept { return has_value_; }
  explicit operator bool() const noexcept { return has_value_; }
  /// Returns the list; only meaningful when has_value().
  const ArrayRef<T>& value() const noexcept { return ref_; }
  /// Returns the list, or `fallback` when there is none (PyTorch's
  /// `dim.value_or(IntArrayRef({}))`).
  ArrayRef<T> value_or(ArrayRef<T> fallback) const noexcept { return has_value_ ? ref_ : fallback; }
  const ArrayRef<T>& operator*() const noexcept { return ref_; }
  const ArrayRef<T>* operator->() const noexcept { return &ref_; }

 private:
  ArrayRef<T> ref_;
  bool has_value_ = false;
};

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

}  // namespace gradgen
