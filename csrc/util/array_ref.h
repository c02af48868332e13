// ArrayRef<T>: a non-owning, read-only view of a contiguous run of T.
//
// Ops take their list arguments as ArrayRef (`IntArrayRef` for sizes, `TensorList`
// for Tensor[]) so that callers can pass a std::vector, a SmallVector, a braced
// list or a single element without copying:
//
//   Tensor z = zeros({2, 3});          // IntArrayRef from an initializer_list
//   Tensor c = cat({a, b}, 1);         // TensorList from an initializer_list
//   Tensor d = cat(tensors_vector);    // TensorList from a std::vector<Tensor>
//
// Like std::string_view, an ArrayRef must not outlive what it points to: a braced
// list lives only until the end of the full expression, so never store an ArrayRef
// built from one (copy it with vec()).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace gradgen {

template <typename T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;

  constexpr ArrayRef() noexcept = default;
  /// Views a single element as a list of one.
  constexpr ArrayRef(const T& one) noexcept : data_(&one), size_(1) {}
  /// Views `size` elements starting at `data`.
  constexpr ArrayRef(const T* data, size_t size) noexcept : data_(data), size_(size) {}
  // GCC warns that the view does not extend the list's lifetime; that is the
  // documented contract (see the file comment), as for std::string_view.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  /// Views the elements of a braced list (valid until the end of the full expression).
  constexpr ArrayRef(const std::initializer_list<T>& list) noexcept
      : data_(list.begin() == list.end() ? nullptr : list.begin()), size_(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  /// Views the elements of a std::vector.
  template <typename A>
  ArrayRef(const std::vector<T, A>& v) noexcept : data_(v.data()), size_(v.size()) {}
  /// Views any other contiguous container with data() and size() (e.g. SmallVector).
  template <typename C,
            typename = std::enable_if_t<
                !std::is_same<std::decay_t<C>, ArrayRef>::value &&
                !std::is_same<std::decay_t<C>, T>::value &&
                std::is_convertible<decltype(std::declval<const C&>().data()), const T*>::value>,
            typename = decltype(std::declval<const C&>().size())>
  ArrayRef(const C& container) noexcept : data_(container.data()), size_(container.size()) {}
  /// Views a C array.
  template <size_t N>
  constexpr ArrayRef(const T (&array)[N]) noexcept : data_(array), size_(N) {}

  constexpr const T* data() const noexcept { return data_; }
  constexpr size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr const T& operator[](size_t i) const noexcept { return data_[i]; }
  /// Returns element i, checking the bound.
  const T& at(size_t i) const {
    if (i >= size_) {
      throw std::out_of_range("ArrayRef::at: index " + std::to_string(i) +
                              " out of range for a list of " + std::to_string(size_));
    }
    return data_[i];
  }
  constexpr const T& front() const noexcept { return data_[0]; }
  constexpr const T& back() const noexcept { return data_[size_ - 1]; }
  constexpr iterator begin() const noexcept { return data_; }
  constexpr iterator end() const noexcept { return data_ + size_; }

  /// Returns the elements [start, start + n) as a view.
  constexpr ArrayRef slice(size_t start, size_t n) const noexcept {
    return ArrayRef(data_ + start, n);
  }
  /// Copies the elements into a std::vector.
  std::vector<T> vec() const { return std::vector<T>(data_, data_ + size_); }
  /// Returns true if both views hold equal elements.
  bool equals(ArrayRef other) const {
    if (size_ != other.size_) return false;
    for (size_t i = 0; i < size_; ++i) {
      if (!(data_[i] == other.data_[i])) return false;
    }
    return true;
  }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

template <typename T>
bool operator==(ArrayRef<T> a, ArrayRef<T> b) {
  return a.equals(b);
}
template <typename T>
bool operator!=(ArrayRef<T> a, ArrayRef<T> b) {
  return !a.equals(b);
}

}  // namespace gradgen
