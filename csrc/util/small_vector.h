// A vector that keeps its first N elements inline, without a heap allocation.
//
// Tensor sizes and strides (rarely more than 5 dims) and a node's input metadata
// (almost always 1 entry) are created once per op on the hot path; keeping them
// inline saves a malloc/free pair each. Past N elements the storage moves to the
// heap and behaves like std::vector.
//
// Example:
//   SmallVector<int64_t, 5> sizes = {2, 3};
//   sizes.push_back(4);          // still inline
//   IntArrayRef view = sizes;    // ArrayRef accepts anything with data()/size()
//
// Only what the runtime needs is implemented: no insert/erase in the middle.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

namespace gradgen {

template <typename T, size_t N>
class SmallVector {
  static_assert(N > 0, "SmallVector needs room for at least one inline element.");
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__,
                "SmallVector's heap storage uses plain operator new, which does not "
                "honour over-aligned types.");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() noexcept = default;
  SmallVector(size_t n, const T& value) { assign(n, value); }
  explicit SmallVector(size_t n) { resize(n); }
  SmallVector(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <typename It, typename = decltype(*std::declval<It>())>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { steal(std::move(other)); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      clear();
      release_heap();
      steal(std::move(other));
    }
    return *this;
  }
  ~SmallVector() {
    clear();
    release_heap();
  }

  /// Replaces the contents with the elements of [first, last).
  template <typename It>
  void assign(It first, It last) {
    clear();
    reserve(static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) new (data_ + size_++) T(*first);
  }
  /// Replaces the contents with n copies of value.
  void assign(size_t n, const T& value) {
    clear();
    reserve(n);
    for (size_t i = 0; i < n; ++i) new (data_ + size_++) T(value);
  }

  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  size_t capacity() const noexcept { return capacity_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](size_t i) noexcept { return data_[i]; }
  const T& operator[](size_t i) const noexcept { return data_[i]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }
  iterator begin() noexcept { return data_; }
  iterator end() noexcept { return data_ + size_; }
  const_iterator begin() const noexcept { return data_; }
  const_iterator end() const noexcept { return data_ + size_; }

  /// Ensures room for n elements without further allocation.
  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  /// Appends a copy of value.
  void push_back(const T& value) { emplace_back(value); }
  /// Appends value by move.
  void push_back(T&& value) { emplace_back(std::move(value)); }
  /// Constructs an element in place at the end and returns it.
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) {
      // Construct first: args may refer into our own storage.
      T tmp(std::forward<Args>(args)...);
      grow(capacity_ * 2);
      return *new (data_ + size_++) T(std::move(tmp));
    }
    return *new (data_ + size_++) T(std::forward<Args>(args)...);
  }
  /// Removes the last element.
  void pop_back() noexcept { data_[--size_].~T(); }
  /// Grows (value-initializing) or shrinks to n elements.
  void resize(size_t n) {
    reserve(n);
    while (size_ < n) new (data_ + size_++) T();
    while (size_ > n) pop_back();
  }
  /// Destroys all elements; keeps the capacity.
  void clear() noexcept {
    while (size_ > 0) pop_back();
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  T* inline_data() noexcept { return reinterpret_cast<T*>(inline_); }
  bool is_inline() const noexcept { return data_ == reinterpret_cast<const T*>(inline_); }
  void release_heap() noexcept {
    if (!is_inline()) {
      ::operator delete(data_);
      data_ = inline_data();
      capacity_ = N;
    }
  }
  void grow(size_t n) {
    T* fresh = static_cast<T*>(::operator new(n * sizeof(T)));
    for (size_t i = 0; i < size_; ++i) {
      new (fresh + i) T(std::move(data_[i]));
      data_[i].~T();
    }
    release_heap();
    data_ = fresh;
    capacity_ = n;
  }
  // Precondition: *this is empty and inline.
  void steal(SmallVector&& other) noexcept {
    if (other.is_inline()) {
      for (size_t i = 0; i < other.size_; ++i) new (data_ + i) T(std::move(other.data_[i]));
      size_ = other.size_;
      other.clear();
    } else {
      data_ = other.data_;
      size_ = other.size_;
      capacity_ = other.capacity_;
      other.data_ = other.inline_data();
      other.size_ = 0;
      other.capacity_ = N;
    }
  }

  T* data_ = inline_data();
  size_t size_ = 0;
  size_t capacity_ = N;
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

}  // namespace gradgen
