// The few non-differentiable kernels the runtime itself needs, in gradgen::internal.
//
// The engine sums gradients, AccumulateGrad adds into .grad, Tensor::contiguous()
// copies, and tests build strided views; none of these can wait for (or depend on)
// the generated op layer. Op kernels (mm, cat, ...) live in csrc/native/ instead.
// These names are deliberately kept out of namespace gradgen itself, where the
// generated differentiable ops live (a future `gradgen::add` must not collide).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "csrc/tensor.h"

namespace gradgen {
namespace internal {

/// Calls f(T{}) with T the C++ type of a floating dtype; throws naming `op` for
/// any other dtype. Use with a generic lambda:
///   dispatch_floating(t.scalar_type(), "mm", [&](auto tag) {
///     using scalar_t = decltype(tag);
///     ...
///   });
template <typename F>
void dispatch_floating(ScalarType dtype, const char* op, F&& f) {
  switch (dtype) {
    case ScalarType::Double: f(double{}); return;
    case ScalarType::Float: f(float{}); return;
    default:
      throw std::invalid_argument(std::string(op) +
                                  ": expected a floating point tensor (Double or Float), got " +
                                  to_string(dtype));
  }
}

/// Calls f(T{}) with T the C++ type of any dtype (Half and BFloat16 convert to and from float:
/// arithmetic on them is float's, csrc/half.h). For kernels that only move or compare elements.
template <typename F>
void dispatch_all(ScalarType dtype, F&& f) {
  switch (dtype) {
    case ScalarType::Double: f(double{}); return;
    case ScalarType::Float: f(float{}); return;
    case ScalarType::Long: f(int64_t{}); return;
    case ScalarType::Bool: f(bool{}); return;
    case ScalarType::Int: f(int32_t{}); return;
    case ScalarType::Short: f(int16_t{}); return;
    case ScalarType::Char: f(int8_t{}); return;
    case ScalarType::Byte: f(uint8_t{}); return;
    case ScalarType::Half: f(Half{}); return;
    case ScalarType::BFloat16: f(BFloat16{}); return;
  }
}

/// Writes src's elements, converted as C++'s static_cast does (PyTorch's copy_: floats truncate
/// toward zero into integers, wider integers wrap into narrower), into dst, a contiguous tensor of
/// src's shape and any dtype. The one double dispatch of the runtime: casts and to() share it.
void convert_into(const Tensor& dst, const Tensor& src);

/// Calls f(offset_a, offset_b) for every element in row-major order, where the
/// offsets (in elements, relative to element 0) follow strides_a and strides_b.
/// The innermost dim is a plain loop; the outer dims advance like an odometer.
template <typename F>
void for_each_offset(IntArrayRef sizes, IntArrayRef strides_a, IntArrayRef strides_b, F&& f) {
  const size_t ndim = sizes.size();
  for (size_t d = 0; d < ndim; ++d) {
    if (sizes[d] == 0) return;
  }
  if (ndim == 0) return f(int64_t{0}, int64_t{0});
  const size_t inner = ndim - 1;
  const int64_t n = sizes[inner], step_a = strides_a[inner], step_b = strides_b[inner];
  DimVector index(inner, 0);
  int64_t off_a = 0, off_b = 0;
  while (true) {
    for (int64_t i = 0; i < n; ++i) f(off_a + i * step_a, off_b + i * step_b);
    // Increment the outer multi-index like an odometer, its innermost dim first.
    size_t d = inner;
    while (true) {
      if (d == 0) return;
      --d;
      if (++index[d] < sizes[d]) {
        off_a += strides_a[d];
        off_b += strides_b[d];
        break;
      }
      off_a -= strides_a[d] * (sizes[d] - 1);
      off_b -= strides_b[d] * (sizes[d] - 1);
      index[d] = 0;
    }
  }
}

/// Returns true if nobody but the caller's handle can observe t's data (one
/// handle to the impl, one impl on the storage) and its elements do not overlap
/// (it is contiguous: an expanded view repeats elements): t may then be updated
/// in place or stolen without anyone noticing. A tensor that has (or had) a forward-mode tangent
/// is not: updating it in place would leave its tangent stale (forward-over-reverse sums
/// gradients carrying tangents; see csrc/autograd/forward_ad.h).
inline bool is_sole_owner(const Tensor& t) {
  const TensorImpl* impl = t.unsafe_impl();
  return impl && impl->use_count() == 1 && impl->storage.use_count() == 1 && impl->is_contiguous &&
         !impl->fw_grad;
}

/// Throws std::runtime_error naming `op` (or the op the user called) if several
/// elements of `self` are one memory location (a dim of size > 1 with stride 0, as
/// expand() makes): writing into them in place would hit each location several
/// times, so in-place ops and out= refuse, as in PyTorch ("internal overlap").
/// fill_ / zero_ do not call it: writing one value several times is harmless.
inline void assert_no_internal_overlap(const Tensor& self, const char* op);

/// Returns a + b (same shape and dtype), computed without autograd history.
Tensor add(const Tensor& a, const Tensor& b);
/// Adds other into self in place (same shape and dtype) and bumps self's version.
void add_(const Tensor& self, const Tensor& other);
/// Sets every element of self to value and bumps self's version.
void fill_(const Tensor& self, const Scalar& value);
/// Copies src into dst elementwise (same shape and dtype; any strides) and bumps dst's version.
void copy_(const Tensor& dst, const Tensor& src);
/// Returns a view of self's storage with the given geometry, sharing data and
/// version counter, without autograd history. Throws if the view would reach
/// outside the storage. For tests and kernels (the differentiable view ops are
/// view, transpose, narrow, ...: csrc/native/shape.cc).
Tensor as_strided(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                  int64_t storage_offset);

[[noreturn]] void throw_internal_overlap(const Tensor& self, const char* op);

inline void assert_no_internal_overlap(const Tensor& self, const char* op) {
  const TensorImpl& impl = *self.unsafe_impl();
  if (impl.is_contiguous) return;
  for (size_t d = 0; d < impl.sizes.size(); ++d) {
    if (impl.strides[d] == 0 && impl.sizes[d] > 1) throw_internal_overlap(self, op);
  }
}

}  // namespace internal
}  // namespace gradgen
