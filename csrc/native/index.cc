// Kernels of the indexing ops: index_select, gather, and their adjoints index_add
// and scatter_add (which their backward formulas use), plus where and
// masked_fill, and the comparisons (eq, ne, lt, le, gt, ge). Indices are Long
// tensors; an index out of range is an error naming the op, the index and the size
// it indexes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_all;
using loops::check_same_dtype;

void check_index_dtype(const char* op, const Tensor& index) {
  if (index.scalar_type() != ScalarType::Long) {
    throw std::invalid_argument(std::string(op) + ": expected index of dtype Long, got " +
                                to_string(index.scalar_type()));
  }
}

int64_t checked_index(const char* op, int64_t i, int64_t size) {
  if (i < -size || i >= size) {
    throw std::invalid_argument(std::string(op) + ": index " + std::to_string(i) +
                                " out of range for a dim of size " + std::to_string(size));
  }
  return i < 0 ? i + size : i;
}

// The entries of a 0-dim or 1-D Long index, in order.
std::vector<int64_t> index_list(const char* op, const Tensor& index) {
  check_index_dtype(op, index);
  if (index.dim() > 1) {
    throw std::invalid_argument(std::string(op) + ": expected a 0-dim or 1-D index, got shape " +
                                shape_str(index.sizes()));
  }
  std::vector<int64_t> out;
  const int64_t* p = index.data_ptr<int64_t>();
  const int64_t stride = index.dim() == 0 ? 0 : index.stride(0);
  for (int64_t i = 0; i < index.numel(); ++i) out.push_back(p[i * stride]);
  return out;
}

// Checks gather/scatter_add's index against self (same number of dims; each
// index dim at most self's, except along dim).
void check_gather_shapes(const char* op, const Tensor& self, int64_t d, const Tensor& index) {
  check_index_dtype(op, index);
  bool ok = index.dim() == self.dim();
  for (int64_t k = 0; ok && k < self.dim(); ++k) {
    if (k != d && index.size(k) > self.size(k)) ok = false;
  }
  if (!ok) {
    throw std::invalid_argument(std::string(op) + ": expected index with as many dims as self, " +
                                "no larger except in dim " + std::to_string(d) +
                                ", got self of shape " + shape_str(self.sizes()) +
                                " and index of shape " + shape_str(index.sizes()));
  }
}

}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = wrap_dim(dim, self.dim(), "index_select");
  const std::vector<int64_t> rows = index_list("index_select", index);
  if (self.dim() == 0 && rows.size() != 1) {
    // A 0-dim result has room for one element (PyTorch raises the same).
    throw std::invalid_argument(
        "index_select: index to a 0-dim tensor can have only 1 value, got " +
        std::to_string(rows.size()) + " value(s)");
  }
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  DimVector out_sizes(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) out_sizes[d] = static_cast<int64_t>(rows.size());
  Tensor out = empty(out_sizes, self.scalar_type());
  const Tensor x = self.contiguous();
  int64_t outer, n, inner;
  loops::split_around(x.sizes(), d, outer, n, inner);
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    const int64_t m = static_cast<int64_t>(rows.size());
    for (int64_t j = 0; j < m; ++j) {
      const int64_t r = checked_index("index_select", rows[j], size);
      for (int64_t o = 0; o < outer; ++o) {
        std::copy_n(px + (o * n + r) * inner, inner, po + (o * m + j) * inner);
      }
    }
  });
  return out;
}

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(index_add, self, dim, index, source, alpha);
  const int64_t d = wrap_dim(dim, self.dim(), "index_add");
  const std::vector<int64_t> rows = index_list("index_add", index);
  if (self.dim() == 0 && rows.size() != 1) {
    // source is then 0-dim too: one element, which m > 1 rows would read past.
    throw std::invalid_argument("index_add: index to a 0-dim tensor can have only 1 value, got " +
                                std::to_string(rows.size()) + " value(s)");
  }
  check_same_dtype("index_add", "self", self, "source", source);
  DimVector expected(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) expected[d] = static_cast<int64_t>(rows.size());
  if (!source.sizes().equals(expected)) {
    throw std::invalid_argument("index_add: expected source of shape " + shape_str(expected) +
                                " (self's, with dim " + std::to_string(d) +
                                " the index's length), got " + shape_str(source.sizes()));
  }
  Tensor out = gradgen::internal::copy_contiguous(self);
  const Tensor src = source.contiguous();
  int64_t outer, n, inner;
  loops::split_around(out.sizes(), d, outer, n, inner);
  loops::dispatch_real(self.scalar_type(), "index_add", [&](auto tag) {
    using T = decltype(tag);
    const T a = alpha.to<T>();
    const T* ps = src.data_ptr<T>();
    T* po = out.data_ptr<T>();
    const int64_t m = static_cast<int64_t>(rows.size());
    for (int64_t j = 0; j < m; ++j) {
      const int64_t r = checked_index("index_add", rows[j], n);
      for (int64_t o = 0; o < outer; ++o) {
        T* dst = po + (o * n + r) * inner;
        const T* from = ps + (o * m + j) * inner;
        for (int64_t i = 0; i < inner; ++i) dst[i] = static_cast<T>(dst[i] + a * from[i]);
      }
    }
  });
  return out;
}

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  const int64_t d = wrap_dim(dim, self.dim(), "gather");
  check_gather_shapes("gather", self, d, index);
  Tensor out = empty(index.sizes(), self.scalar_type());
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = self.data_ptr<T>();
    const int64_t* pi = index.data_ptr<int64_t>();
    T* po = out.data_ptr<T>();
    int64_t j = 0;
    DimVector at(self.dim(), 0);
    loops::for_each_index(index.sizes(), [&](const int64_t* idx) {
      for (int64_t k = 0; k < self.dim(); ++k) at[k] = idx[k];
      const int64_t i = pi[loops::offset_of(idx, index.strides())];
      if (self.dim() > 0) at[d] = checked_index("gather", i, size);
      po[j++] = px[loops::offset_of(at.data(), self.strides())];
    });
  });
  return out;
}

Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(scatter_add, self, dim, index, src);
  const int64_t d = wrap_dim(dim, self.dim(), "scatter_add");
  check_gather_shapes("scatter_add", self, d, index);
  check_same_dtype("scatter_add", "self", self, "src", src);
  if (!src.sizes().equals(index.sizes())) {
    throw std::invalid_argument("scatter_add: expected src of the index's shape, " +
                                shape_str(index.sizes()) + ", got " + shape_str(src.sizes()));
  }
  Tensor out = gradgen::internal::copy_contiguous(self);
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  loops::dispatch_real(self.scalar_type(), "scatter_add", [&](auto tag) {
    using T = decltype(tag);
    const T* ps = src.data_ptr<T>();
    const int64_t* pi = index.data_ptr<int64_t>();
    T* po = out.data_ptr<T>();
    DimVector at(self.dim(), 0);
    loops::for_each_index(index.sizes(), [&](const int64_t* idx) {
      for (int64_t k = 0; k < self.dim(); ++k) at[k] = idx[k];
      const int64_t i = pi[loops::offset_of(idx, index.strides())];
      if (self.dim() > 0) at[d] = checked_index("scatter_add", i, size);
      T& dst = po[loops::offset_of(at.data(), out.strides())];
      dst = static_cast<T>(dst + ps[loops::offset_of(idx, src.strides())]);
    });
  });
  return out;
}

Tensor where(const Tensor& condition, const Tensor& self_, const Tensor& other_) {
  if (condition.scalar_type() != ScalarType::Bool) {
    throw std::invalid_argument("where: expected condition of dtype Bool, got " +
                                std::string(to_string(condition.scalar_type())));
  }
  // self and other promote (type_promotion.h): where(c, int64, float32) is float32.
  const ScalarType dtype = result_type(self_, other_);
  const Tensor self = cast(self_, dtype), other = cast(other_, dtype);
  const DimVector shape =
      loops::broadcast_shapes("where",
                              loops::broadcast_shapes("where", condition.sizes(), self.sizes()),
                              other.sizes());
  Tensor out = empty(shape, self.scalar_type());
  const DimVector sc = loops::broadcast_strides(condition.sizes(), condition.strides(), shape);
  const DimVector sa = loops::broadcast_strides(self.sizes(), self.strides(), shape);
  const DimVector sb = loops::broadcast_strides(other.sizes(), other.strides(), shape);
  const DimVector so = loops::contiguous_strides(shape);
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const bool* pc = condition.data_ptr<bool>();
    const T* pa = self.data_ptr<T>();
    const T* pb = other.data_ptr<T>();
    T* po = out.data_ptr<T>();
    loops::strided_loop<4>("where", shape,
                           {IntArrayRef(so), IntArrayRef(sc), IntArrayRef(sa), IntArrayRef(sb)},
                           [&](const std::array<int64_t, 4>& off, int64_t n,
                               const std::array<int64_t, 4>& is) {
                             for (int64_t i = 0; i < n; ++i) {
                               po[off[0] + i * is[0]] = pc[off[1] + i * is[1]]
                                                            ? pa[off[2] + i * is[2]]
                                                            : pb[off[3] + i * is[3]];
                             }
                           });
  });
  return out;
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  if (mask.scalar_type() != ScalarType::Bool) {
    throw std::invalid_argument("masked_fill: expected mask of dtype Bool, got " +
                                std::string(to_string(mask.scalar_type())));
  }
  // Out of place, self and mask broadcast together (PyTorch's expand_outplace); the result has
  // self's dtype, value converted to it.
  if (self.scalar_type() == ScalarType::Float && value.is_floating_point()) {
    const double v = value.to_double();
    if (std::isfinite(v) && std::abs(v) > std::numeric_limits<float>::max()) {
      throw std::runtime_error(
          "masked_fill: value cannot be converted to type float without "
          "overflow");  // PyTorch's checked conversion of the value
    }
  }
  const DimVector shape = loops::broadcast_shapes("masked_fill", self.sizes(), mask.sizes());
  Tensor out = make_tensor(shape, self.scalar_type());
  gradgen::internal::copy_(out, loops::make_view(self, shape,
                                                 loops::broadcast_strides(self.sizes(),
                                                                          self.strides(), shape),
                                                 self.storage_offset()));
  const DimVector sm = loops::broadcast_strides(mask.sizes(), mask.strides(), shape);
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T v = value.to<T>();
    const bool* pm = mask.data_ptr<bool>();
    T* po = out.data_ptr<T>();
    loops::strided_loop<2>("masked_fill", out.sizes(), {out.strides(), IntArrayRef(sm)},
                           [&](const std::array<int64_t, 2>& off, int64_t n,
                               const std::array<int64_t, 2>& is) {
                             for (int64_t i = 0; i < n; ++i) {
                               if (pm[off[1] + i * is[1]]) po[off[0] + i * is[0]] = v;
                             }
                           });
  });
  return out;
}

// In place: mask broadcasts to self's shape, which cannot grow (PyTorch's message).
Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Scalar& value) {
  Tensor filled = masked_fill(self, mask, value);
  if (!filled.sizes().equals(self.sizes())) {
    throw std::invalid_argument("masked_fill_: output with shape " + shape_str(self.sizes()) +
                                " doesn't match the broadcast shape " + shape_str(filled.sizes()));
  }
  gradgen::internal::assert_no_internal_overlap(self, "masked_fill_");
  gradgen::internal::copy_(self, filled);  // bumps the version
  return self;
}

namespace {

// self <cmp> other elementwise with broadcasting, compared in the operands' result type
// (type_promotion.h: eq(int64 1, float 1.0) is true), into a Bool tensor.
template <typename Cmp>
Tensor compare(const char* op, const Tensor& self, const Tensor& other, ScalarType dtype, Cmp cmp) {
  const Tensor a = cast(self, dtype), b = cast(other, dtype);
  Tensor out;
  dispatch_all(dtype, [&](auto tag) {
    using T = decltype(tag);
    out = loops::binary_map<T, T, bool>(op, a, b, ScalarType::Bool,
                                        [cmp](T x, T y) { return cmp(x, y); });
  });
  return out;
}

// A scalar compared with a tensor: a 0-dim tensor of the result type.
Tensor scalar_operand(const Scalar& s, ScalarType dtype) { return full({}, s, dtype); }

}  // namespace

#define GRADGEN_COMPARISON(name, expr)                               \
  Tensor name(const Tensor& self, const Tensor& other) {             \
    return compare(#name, self, other, result_type(self, other),     \
                   [](auto x, auto y) { return expr; });             \
  }                                                                  \
  Tensor name(const Tensor& self, const Scalar& other) {             \
    const ScalarType dtype = result_type(self, other);               \
    return compare(#name, self, scalar_operand(other, dtype), dtype, \
                   [](auto x, auto y) { return expr; });             \
  }

GRADGEN_COMPARISON(eq, x == y)
GRADGEN_COMPARISON(ne, x != y)
GRADGEN_COMPARISON(lt, x < y)
GRADGEN_COMPARISON(le, x <= y)
GRADGEN_COMPARISON(gt, x > y)
GRADGEN_COMPARISON(ge, x >= y)

#undef GRADGEN_COMPARISON

}  // namespace native
}  // namespace gradgen
