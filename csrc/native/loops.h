// Loops shared by the kernels in csrc/native/: dtype dispatch, broadcasting,
// strided iteration, and the element-wise/reduction drivers built on them.
//
// Every kernel writes a fresh, contiguous (row-major) result. Inputs may have any
// strides, including the zero strides of broadcast and expanded tensors. The hot
// cases cost no shape bookkeeping at all:
//   - same shape and both contiguous (which includes every pair of 1-element
//     tensors): one flat loop;
//   - otherwise dims are broadcast, then coalesced (adjacent dims that are laid
//     out as one merge), and the innermost run is a tight loop with the common
//     stride patterns (1/1, 1/0, 0/1) special-cased so the compiler vectorizes.
//
// Internal to the kernels (namespace gradgen::native::loops); not an API.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace native {
namespace loops {

/// The most dims a tensor may have in an element-wise or reduction kernel.
constexpr int kMaxDims = 25;

[[noreturn]] void throw_too_many_dims(const char* op, IntArrayRef shape);
[[noreturn]] void throw_dtype(const char* op, const char* what, ScalarType dtype);
[[noreturn]] void throw_dtype_mismatch(const char* op, const char* name_a, ScalarType a,
                                       const char* name_b, ScalarType b);

/// Throws naming op and both dtypes unless a and b have the same dtype.
inline void check_same_dtype(const char* op, const char* name_a, const Tensor& a,
                             const char* name_b, const Tensor& b) {
  if (a.scalar_type() != b.scalar_type()) {
    throw_dtype_mismatch(op, name_a, a.scalar_type(), name_b, b.scalar_type());
  }
}

/// Calls f(T{}) for Double, Float or Long; throws naming op for Bool.
template <typename F>
void dispatch_arithmetic(ScalarType dtype, const char* op, F&& f) {
  switch (dtype) {
    case ScalarType::Double: f(double{}); return;
    case ScalarType::Float: f(float{}); return;
    case ScalarType::Long: f(int64_t{}); return;
    default: throw_dtype(op, "a numeric tensor (Double, Float or Long)", dtype);
  }
}

/// Calls f(T{}) for Double, Float or any integer dtype (Long, Int, Short, Char, Byte); throws
/// naming op for Bool and the 16-bit floats (which a kernel takes in float32 first,
/// reduced_float.h).
template <typename F>
void dispatch_real(ScalarType dtype, const char* op, F&& f) {
  switch (dtype) {
    case ScalarType::Double: f(double{}); return;
    case ScalarType::Float: f(float{}); return;
    case ScalarType::Long: f(int64_t{}); return;
    case ScalarType::Int: f(int32_t{}); return;
    case ScalarType::Short: f(int16_t{}); return;
    case ScalarType::Char: f(int8_t{}); return;
    case ScalarType::Byte: f(uint8_t{}); return;
    default: throw_dtype(op, "a numeric tensor (Double, Float or an integer dtype)", dtype);
  }
}

/// Returns the shape a and b broadcast to (NumPy rules); throws naming op and
/// both shapes if they do not broadcast.
DimVector broadcast_shapes(const char* op, IntArrayRef a, IntArrayRef b);

/// Returns true if a tensor of shape `from` broadcasts to `to` without changing `to`.
bool broadcasts_to(IntArrayRef from, IntArrayRef to);

/// Returns the strides that make a tensor of (sizes, strides) read as `shape`
/// (right-aligned; 0 where a dim is broadcast). Requires broadcasts_to(sizes, shape).
DimVector broadcast_strides(IntArrayRef sizes, IntArrayRef strides, IntArrayRef shape);

/// Returns row-major strides for `shape`.
DimVector contiguous_strides(IntArrayRef shape);

/// Returns dim wrapped into [0, ndim) (a 0-dim tensor takes -1 and 0); throws std::out_of_range
/// (an IndexError from Python, as PyTorch's "Dimension out of range") naming op, the dim and the
/// range otherwise.
int64_t index_dim(int64_t dim, int64_t ndim, const char* op);

/// Iterates over `shape` for N operands laid out by `strides[k]` (in elements).
/// Calls inner(offsets, n, inner_strides) once per run of the innermost
/// (coalesced) dim: operand k's elements are at offsets[k] + i * inner_strides[k]
/// for i in [0, n). Dims of size 1 are skipped; an empty shape calls nothing.
template <size_t N, typename F>
void strided_loop(const char* op, IntArrayRef shape, const std::array<IntArrayRef, N>& strides,
                  F&& inner) {
  const int ndim = static_cast<int>(shape.size());
  if (ndim > kMaxDims) throw_too_many_dims(op, shape);
  int64_t sz[kMaxDims];
  int64_t st[N][kMaxDims];
  int nd = 0;
  // Innermost dim first; merge a dim into the previous (inner) one when every
  // operand steps over the inner dim exactly as one stride of this one.
  for (int d = ndim - 1; d >= 0; --d) {
    const int64_t size = shape[d];
    if (size == 0) return;
    if (size == 1) continue;
    bool merge = nd > 0;
    for (size_t k = 0; merge && k < N; ++k) {
      merge = strides[k][d] == st[k][nd - 1] * sz[nd - 1];
    }
    if (merge) {
      sz[nd - 1] *= size;
      continue;
    }
    sz[nd] = size;
    for (size_t k = 0; k < N; ++k) st[k][nd] = strides[k][d];
    ++nd;
  }
  std::array<int64_t, N> offsets{};
  std::array<int64_t, N> inner_strides{};
  if (nd == 0) {
    inner(offsets, int64_t{1}, inner_strides);
    return;
  }
  for (size_t k = 0; k < N; ++k) inner_strides[k] = st[k][0];
  const int64_t n = sz[0];
  int64_t index[kMaxDims] = {0};
  while (true) {
    inner(offsets, n, inner_strides);
    int d = 1;
    for (; d < nd; ++d) {
      if (++index[d] < sz[d]) {
        for (size_t k = 0; k < N; ++k) offsets[k] += st[k][d];
        break;
      }
      for (size_t k = 0; k < N; ++k) offsets[k] -= st[k][d] * (sz[d] - 1);
      index[d] = 0;
    }
    if (d >= nd) return;
  }
}

/// out[i] = f(in[i]) for a fresh contiguous out of in's shape and dtype `out_dtype`.
/// in_t/out_t are the C++ element types of the input and output.
template <typename in_t, typename out_t, typename F>
Tensor unary_map(const char* op, const Tensor& in, ScalarType out_dtype, F&& f) {
  Tensor out = make_tensor(in.sizes(), out_dtype);
  out_t* o = out.data_ptr<out_t>();
  const in_t* x = in.data_ptr<in_t>();
  if (in.is_contiguous()) {
    const int64_t n = in.numel();
    for (int64_t i = 0; i < n; ++i) o[i] = f(x[i]);
    return out;
  }
  const DimVector out_strides = contiguous_strides(in.sizes());
  strided_loop<2>(op, in.sizes(), {IntArrayRef(out_strides), in.strides()},
                  [&](const std::array<int64_t, 2>& off, int64_t n,
                      const std::array<int64_t, 2>& is) {
                    out_t* po = o + off[0];
                    const in_t* px = x + off[1];
                    for (int64_t i = 0; i < n; ++i) po[i * is[0]] = f(px[i * is[1]]);
                  });
  return out;
}

/// out = f(a, b) elementwise with broadcasting, into a fresh contiguous tensor of
/// dtype out_dtype. a_t, b_t, out_t are the C++ element types.
template <typename a_t, typename b_t, typename out_t, typename F>
Tensor binary_map(const char* op, const Tensor& a, const Tensor& b, ScalarType out_dtype, F&& f) {
  const a_t* pa = a.data_ptr<a_t>();
  const b_t* pb = b.data_ptr<b_t>();
  const TensorImpl& ia = *a.unsafe_impl();
  const TensorImpl& ib = *b.unsafe_impl();
  if (ia.is_contiguous && ib.is_contiguous && ia.sizes == ib.sizes) {
    // The fast path: same shape, dense (every pair of 1-element tensors).
    Tensor out = make_tensor(a.sizes(), out_dtype);
    out_t* o = out.data_ptr<out_t>();
    const int64_t n = ia.numel;
    for (int64_t i = 0; i < n; ++i) o[i] = f(pa[i], pb[i]);
    return out;
  }
  const DimVector shape = broadcast_shapes(op, a.sizes(), b.sizes());
  Tensor out = make_tensor(shape, out_dtype);
  out_t* o = out.data_ptr<out_t>();
  const DimVector sa = broadcast_strides(a.sizes(), a.strides(), shape);
  const DimVector sb = broadcast_strides(b.sizes(), b.strides(), shape);
  const DimVector so = contiguous_strides(shape);
  strided_loop<3>(op, shape, {IntArrayRef(so), IntArrayRef(sa), IntArrayRef(sb)},
                  [&](const std::array<int64_t, 3>& off, int64_t n,
                      const std::array<int64_t, 3>& is) {
                    out_t* po = o + off[0];
                    const a_t* x = pa + off[1];
                    const b_t* y = pb + off[2];
                    if (is[0] == 1 && is[1] == 1 && is[2] == 1) {
                      for (int64_t i = 0; i < n; ++i) po[i] = f(x[i], y[i]);
                    } else if (is[0] == 1 && is[1] == 1 && is[2] == 0) {
                      const b_t yv = *y;
                      for (int64_t i = 0; i < n; ++i) po[i] = f(x[i], yv);
                    } else if (is[0] == 1 && is[1] == 0 && is[2] == 1) {
                      const a_t xv = *x;
                      for (int64_t i = 0; i < n; ++i) po[i] = f(xv, y[i]);
                    } else {
                      for (int64_t i = 0; i < n; ++i) {
                        po[i * is[0]] = f(x[i * is[1]], y[i * is[2]]);
                      }
                    }
                  });
  return out;
}

/// self = f(self, other) elementwise in place; other must broadcast to self's
/// shape (throws naming op otherwise), and self may not repeat a memory location
/// (internal::assert_no_internal_overlap). Does not bump the version (callers do).
template <typename self_t, typename other_t, typename F>
void binary_map_(const char* op, const Tensor& self, const Tensor& other, F&& f) {
  gradgen::internal::assert_no_internal_overlap(self, op);
  self_t* ps = self.data_ptr<self_t>();
  const other_t* po = other.data_ptr<other_t>();
  const TensorImpl& is_ = *self.unsafe_impl();
  const TensorImpl& io = *other.unsafe_impl();
  if (is_.is_contiguous && io.is_contiguous && is_.sizes == io.sizes) {
    const int64_t n = is_.numel;
    for (int64_t i = 0; i < n; ++i) ps[i] = f(ps[i], po[i]);
    return;
  }
  if (!broadcasts_to(other.sizes(), self.sizes())) {
    throw std::invalid_argument(std::string(op) + ": other of shape " + shape_str(other.sizes()) +
                                " does not broadcast to the shape of self, " +
                                shape_str(self.sizes()) + ", which an in-place op cannot change");
  }
  const DimVector so = broadcast_strides(other.sizes(), other.strides(), self.sizes());
  strided_loop<2>(op, self.sizes(), {self.strides(), IntArrayRef(so)},
                  [&](const std::array<int64_t, 2>& off, int64_t n,
                      const std::array<int64_t, 2>& is) {
                    self_t* x = ps + off[0];
                    const other_t* y = po + off[1];
                    for (int64_t i = 0; i < n; ++i) x[i * is[0]] = f(x[i * is[0]], y[i * is[1]]);
                  });
}

/// self = f(self) elementwise in place (any strides, but no repeated memory
/// location: internal::assert_no_internal_overlap). Does not bump the version.
template <typename self_t, typename F>
void unary_map_(const char* op, const Tensor& self, F&& f) {
  gradgen::internal::assert_no_internal_overlap(self, op);
  self_t* ps = self.data_ptr<self_t>();
  if (self.is_contiguous()) {
    const int64_t n = self.numel();
    for (int64_t i = 0; i < n; ++i) ps[i] = f(ps[i]);
    return;
  }
  strided_loop<1>(op, self.sizes(), {self.strides()},
                  [&](const std::array<int64_t, 1>& off, int64_t n,
                      const std::array<int64_t, 1>& is) {
                    self_t* x = ps + off[0];
                    for (int64_t i = 0; i < n; ++i) x[i * is[0]] = f(x[i * is[0]]);
                  });
}

/// Returns sorted, wrapped, distinct dims; an absent or empty list means all dims.
/// Throws naming op for a dim out of range or repeated.
DimVector reduction_dims(const char* op, OptionalIntArrayRef dims, int64_t ndim);

/// Returns self's shape with `dims` (sorted, distinct) reduced: set to 1 with
/// keepdim, removed otherwise.
DimVector reduced_shape(IntArrayRef sizes, IntArrayRef dims, bool keepdim);

/// Reduces self over `dims` (sorted, distinct, wrapped) into a fresh contiguous
/// tensor: acc starts at `init`; each element x updates acc = combine(acc, x);
/// finish(acc) gives the stored value. acc_t is the accumulator type.
template <typename in_t, typename acc_t, typename out_t, typename Combine, typename Finish>
Tensor reduce(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim,
              ScalarType out_dtype, acc_t init, Combine&& combine, Finish&& finish) {
  const DimVector keep_shape = reduced_shape(self.sizes(), dims, /*keepdim=*/true);
  const int64_t out_numel = [&] {
    int64_t n = 1;
    for (int64_t s : keep_shape) n *= s;
    return n;
  }();
  // Accumulate into a contiguous buffer of the keepdim shape, read with stride 0
  // along the reduced dims.
  std::vector<acc_t> acc(static_cast<size_t>(out_numel), init);
  const in_t* x = self.data_ptr<in_t>();
  if (self.is_contiguous() && out_numel == 1) {
    acc_t a = init;
    const int64_t n = self.numel();
    for (int64_t i = 0; i < n; ++i) a = combine(a, x[i]);
    acc[0] = a;
  } else {
    DimVector acc_strides = contiguous_strides(keep_shape);
    for (int64_t d : dims) acc_strides[d] = 0;
    strided_loop<2>(op, self.sizes(), {IntArrayRef(acc_strides), self.strides()},
                    [&](const std::array<int64_t, 2>& off, int64_t n,
                        const std::array<int64_t, 2>& is) {
                      acc_t* pa = acc.data() + off[0];
                      const in_t* px = x + off[1];
                      if (is[0] == 0) {
                        acc_t a = *pa;
                        for (int64_t i = 0; i < n; ++i) a = combine(a, px[i * is[1]]);
                        *pa = a;
                      } else {
                        for (int64_t i = 0; i < n; ++i) {
                          pa[i * is[0]] = combine(pa[i * is[0]], px[i * is[1]]);
                        }
                      }
                    });
  }
  Tensor out = make_tensor(reduced_shape(self.sizes(), dims, keepdim), out_dtype);
  out_t* o = out.data_ptr<out_t>();
  for (int64_t i = 0; i < out_numel; ++i) o[i] = finish(acc[i]);
  return out;
}

/// Calls f(outer, size, inner) describing self (made contiguous by the caller)
/// as [outer, size, inner] around dim d.
inline void split_around(IntArrayRef sizes, int64_t d, int64_t& outer, int64_t& size,
                         int64_t& inner) {
  outer = 1;
  inner = 1;
  for (int64_t i = 0; i < d; ++i) outer *= sizes[i];
  size = sizes.empty() ? 1 : sizes[d];
  for (size_t i = static_cast<size_t>(d) + 1; i < sizes.size(); ++i) inner *= sizes[i];
}

/// Calls f(index) for every multi-index of `shape` in row-major order; index is
/// a const int64_t* to shape.size() entries. Nothing for an empty shape.
template <typename F>
void for_each_index(IntArrayRef shape, F&& f) {
  const size_t n = shape.size();
  for (int64_t s : shape) {
    if (s == 0) return;
  }
  DimVector index(n, 0);
  while (true) {
    f(static_cast<const int64_t*>(index.data()));
    size_t d = n;
    while (d > 0) {
      --d;
      if (++index[d] < shape[d]) break;
      index[d] = 0;
      if (d == 0) return;
    }
    if (n == 0) return;
  }
}

/// Returns sum_d index[d] * strides[d].
inline int64_t offset_of(const int64_t* index, IntArrayRef strides) {
  int64_t off = 0;
  for (size_t d = 0; d < strides.size(); ++d) off += index[d] * strides[d];
  return off;
}

/// Throws naming op unless indices is a Long tensor of row numbers of a weight with
/// num_weights rows: std::out_of_range naming the first bad index's position (e.g.
/// `indices[1, 2] is -1`) for one outside [0, num_weights). Negative indices are
/// not wrapped (PyTorch's embedding refuses them too).
void check_embedding_indices(const char* op, const Tensor& indices, int64_t num_weights);

/// nll_loss_nd's and nll_loss2d's target check: target [] for self [C], [N, d1, ..., dK] for
/// self [N, C, d1, ..., dK] (PyTorch's messages).
void check_nll_loss_target(const char* op, const Tensor& self, const Tensor& target);

/// Returns a view of self's storage with the given geometry (Note [Views] in
/// csrc/tensor.h): a fresh TensorImpl, no autograd history, is_view set.
Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                 int64_t storage_offset);

}  // namespace loops
}  // namespace native
}  // namespace gradgen
