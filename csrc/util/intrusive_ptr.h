// intrusive_ptr<T>: a shared pointer whose reference count lives in the object.
//
// TensorImpl and StorageImpl are created once or twice per op, so their handles
// should be one pointer wide and cost one allocation (std::make_shared would give
// two words per handle and a separate control block for weak references, which
// neither needs). Node stays on std::shared_ptr: the generated code uses
// std::make_shared and shared_from_this.
//
// A type opts in by deriving from intrusive_target; the last release calls
// `intrusive_ptr_destroy(T*)`, found by argument-dependent lookup, so that the
// type can free itself however it was allocated (StorageImpl keeps its data in
// the same allocation).
//
//   struct Foo : intrusive_target { int x = 0; };
//   inline void intrusive_ptr_destroy(Foo* p) { delete p; }
//   intrusive_ptr<Foo> a = intrusive_ptr<Foo>::adopt_new(new Foo);
//   intrusive_ptr<Foo> b = a;   // a.use_count() == 2
#pragma once

#include "csrc/util/macros.h"

#include <atomic>
#include <cstdint>
#include <utility>

namespace gradgen {

/// Base class holding the reference count used by intrusive_ptr.
class intrusive_target {
 public:
  /// Returns the number of intrusive_ptr handles to this object.
  uint32_t use_count() const noexcept { return refcount_.load(std::memory_order_acquire); }

 protected:
  intrusive_target() noexcept = default;
  intrusive_target(const intrusive_target&) = delete;
  intrusive_target& operator=(const intrusive_target&) = delete;
  ~intrusive_target() = default;

 private:
  template <typename T>
  friend class intrusive_ptr;
  mutable std::atomic<uint32_t> refcount_{0};
};

template <typename T>
class intrusive_ptr {
 public:
  constexpr intrusive_ptr() noexcept = default;
  constexpr intrusive_ptr(std::nullptr_t) noexcept {}
  /// Takes shared ownership of a freshly created object (its count goes to 1).
  static intrusive_ptr adopt_new(T* fresh) noexcept { return intrusive_ptr(fresh); }

  GRADGEN_ALWAYS_INLINE intrusive_ptr(const intrusive_ptr& other) noexcept : ptr_(other.ptr_) {
    retain();
  }
  GRADGEN_ALWAYS_INLINE intrusive_ptr(intrusive_ptr&& other) noexcept : ptr_(other.ptr_) {
    other.ptr_ = nullptr;
  }
  GRADGEN_ALWAYS_INLINE intrusive_ptr& operator=(const intrusive_ptr& other) noexcept {
    intrusive_ptr(other).swap(*this);
    return *this;
  }
  GRADGEN_ALWAYS_INLINE intrusive_ptr& operator=(intrusive_ptr&& other) noexcept {
    intrusive_ptr(std::move(other)).swap(*this);
    return *this;
  }
  GRADGEN_ALWAYS_INLINE ~intrusive_ptr() { release(); }

  T* get() const noexcept { return ptr_; }
  T* operator->() const noexcept { return ptr_; }
  T& operator*() const noexcept { return *ptr_; }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }
  /// Returns the number of handles to the object, or 0 for a null handle.
  uint32_t use_count() const noexcept { return ptr_ ? ptr_->use_count() : 0; }
  /// Drops this handle's reference.
  void reset() noexcept { intrusive_ptr().swap(*this); }
  GRADGEN_ALWAYS_INLINE void swap(intrusive_ptr& other) noexcept { std::swap(ptr_, other.ptr_); }

  friend bool operator==(const intrusive_ptr& a, const intrusive_ptr& b) {
    return a.ptr_ == b.ptr_;
  }
  friend bool operator!=(const intrusive_ptr& a, const intrusive_ptr& b) {
    return a.ptr_ != b.ptr_;
  }

 private:
  explicit intrusive_ptr(T* fresh) noexcept : ptr_(fresh) { retain(); }
  GRADGEN_ALWAYS_INLINE void retain() noexcept {
    if (ptr_) ptr_->refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  GRADGEN_ALWAYS_INLINE void release() noexcept {
    if (ptr_ && ptr_->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      intrusive_ptr_destroy(ptr_);
    }
    ptr_ = nullptr;
  }

  T* ptr_ = nullptr;
};

}  // namespace gradgen
