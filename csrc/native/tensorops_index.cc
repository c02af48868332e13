// The indexing family (issue 23): PyTorch's advanced indexing, index.Tensor (and its out=),
// index_put_ / index_put, written for gradgen.
//
// indices holds one optional Long or Bool tensor per leading dim of self (a missing entry, or
// one past the list's end, is a full slice). A Bool mask of k dims stands for k Long index
// tensors, the columns of its nonzero(), after its shape is checked against the k dims it
// covers. The index tensors broadcast together to one shape B; the result is, when the indexed
// dims are adjacent, self's dims before them + B + self's dims after them, and otherwise B +
// self's non-indexed dims in order (PyTorch's placement rule). An index out of range is an
// IndexError (std::out_of_range) naming the index, the dim and its size, as PyTorch's message.
// slice.Tensor (Python's stepped slices) is here too: a strided view.
// index_put_ writes values (broadcast to the indexing result's shape) in that order, so with
// duplicate indices the last write wins, or, with accumulate, the values are summed.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_all;

// The indexing of self by indices, resolved: for every element of the result, the offset (in
// elements, from self.data_ptr) of the element of self it reads.
struct AdvancedIndex {
  DimVector result_sizes;
  std::vector<int64_t> offsets;  // one per result element, in row-major order
};

// The columns of nonzero(mask) as k Long tensors (k = mask.dim()), each 1-D.
std::vector<Tensor> mask_columns(const Tensor& mask) {
  const Tensor m = mask.contiguous();
  const int64_t k = m.dim();
  std::vector<std::vector<int64_t>> cols(static_cast<size_t>(k));
  const bool* pm = m.data_ptr<bool>();
  int64_t i = 0;
  loops::for_each_index(m.sizes(), [&](const int64_t* idx) {
    if (pm[i++]) {
      for (int64_t d = 0; d < k; ++d) cols[d].push_back(idx[d]);
    }
  });
  std::vector<Tensor> out;
  for (int64_t d = 0; d < k; ++d) {
    const int64_t n = static_cast<int64_t>(cols[d].size());
    Tensor t = empty({n}, ScalarType::Long);
    int64_t* pt = t.data_ptr<int64_t>();
    for (int64_t j = 0; j < n; ++j) pt[j] = cols[d][j];
    out.push_back(t);
  }
  return out;
}

// A Bool mask covering self's dims [start, start + mask.dim()): its shape must be theirs.
void check_mask(const Tensor& self, const Tensor& mask, int64_t start) {
  for (int64_t j = 0; j < mask.dim(); ++j) {
    const int64_t d = start + j;
    if (d >= self.dim()) {
      throw std::out_of_range("too many indices for tensor of dimension " +
                              std::to_string(self.dim()));
    }
    if (mask.size(j) != self.size(d)) {
      throw std::out_of_range("The shape of the mask " + shape_str(mask.sizes()) + " at index " +
                              std::to_string(j) +
                              " does not match the shape of the indexed tensor " +
                              shape_str(self.sizes()) + " at index " + std::to_string(d));
    }
  }
}

// One entry per dim of self after expanding the masks: a Long tensor or none (a full slice).
std::vector<std::optional<Tensor>> per_dim_indices(
    const char* op, const Tensor& self, const std::vector<std::optional<Tensor>>& indices) {
  std::vector<std::optional<Tensor>> per_dim;
  for (const std::optional<Tensor>& entry : indices) {
    if (!entry.has_value() || !entry->defined()) {
      per_dim.emplace_back(std::nullopt);
      continue;
    }
    const Tensor& t = *entry;
    if (t.scalar_type() == ScalarType::Bool) {
      check_mask(self, t, static_cast<int64_t>(per_dim.size()));
      for (Tensor& c : mask_columns(t)) per_dim.emplace_back(c);
    } else if (t.scalar_type() == ScalarType::Long) {
      per_dim.emplace_back(t);
    } else {
      throw std::out_of_range(std::string(op) +
                              ": tensors used as indices must be long, int, byte or bool "
                              "tensors, got " +
                              to_string(t.scalar_type()));
    }
  }
  if (static_cast<int64_t>(per_dim.size()) > self.dim()) {
    throw std::out_of_range("too many indices for tensor of dimension " +
                            std::to_string(self.dim()) + " (got " + std::to_string(per_dim.size()) +
                            ")");
  }
  while (static_cast<int64_t>(per_dim.size()) < self.dim()) per_dim.emplace_back(std::nullopt);
  return per_dim;
}

// Self's dims split into the indexed ones and the rest, and B, the index tensors' broadcast shape.
struct IndexedDims {
  std::vector<int64_t> indexed, rest;
  DimVector bshape;
};

IndexedDims indexed_dims(const char* op, const std::vector<std::optional<Tensor>>& per_dim) {
  IndexedDims dims;
  bool first = true;
  for (int64_t d = 0; d < static_cast<int64_t>(per_dim.size()); ++d) {
    if (!per_dim[d].has_value()) {
      dims.rest.push_back(d);
      continue;
    }
    dims.indexed.push_back(d);
    const IntArrayRef s = per_dim[d]->sizes();
    if (first) {
      dims.bshape.assign(s.begin(), s.end());
      first = false;
      continue;
    }
    // broadcast_shapes throws on a mismatch; PyTorch's message names all the shapes.
    try {
      dims.bshape = loops::broadcast_shapes(op, dims.bshape, s);
    } catch (const std::exception&) {
      std::string shapes;
      for (const std::optional<Tensor>& e : per_dim) {
        if (!e.has_value()) continue;
        if (!shapes.empty()) shapes += ", ";
        shapes += shape_str(e->sizes());
      }
      throw std::out_of_range(
          "shape mismatch: indexing tensors could not be broadcast together with shapes " + shapes);
    }
  }
  return dims;
}

// The result's dims: each is either a non-indexed dim of self or one of B's dims (at `bpos`).
struct ResultLayout {
  std::vector<int64_t> src;  // per result dim: self's dim, or -1 for B's dims
  int64_t bpos = 0;          // where B's dims start in the result
};

// PyTorch's placement rule: B where the indexed dims are when they are adjacent, else first.
ResultLayout result_layout(const Tensor& self, const IndexedDims& dims) {
  const std::vector<int64_t>& indexed = dims.indexed;
  bool adjacent = true;
  for (size_t j = 1; j < indexed.size(); ++j)
    adjacent = adjacent && indexed[j] == indexed[j - 1] + 1;
  const int64_t nb = static_cast<int64_t>(dims.bshape.size());
  ResultLayout layout;
  if (adjacent) {
    for (int64_t d = 0; d < indexed.front(); ++d) layout.src.push_back(d);
    layout.bpos = static_cast<int64_t>(layout.src.size());
    for (int64_t j = 0; j < nb; ++j) layout.src.push_back(-1);
    for (int64_t d = indexed.back() + 1; d < self.dim(); ++d) layout.src.push_back(d);
  } else {
    for (int64_t j = 0; j < nb; ++j) layout.src.push_back(-1);
    for (int64_t d : dims.rest) layout.src.push_back(d);
  }
  return layout;
}

// For every element of the result (sizes out.result_sizes), the offset in self it reads: each
// index tensor is read with its broadcast strides over B, and checked against its dim's size.
void gather_offsets(const Tensor& self, const std::vector<std::optional<Tensor>>& per_dim,
                    const IndexedDims& dims, const ResultLayout& layout, AdvancedIndex& out) {
  struct IndexView {
    int64_t dim;
    const int64_t* data;
    DimVector strides;  // over B
  };
  std::vector<IndexView> views;
  for (int64_t d : dims.indexed) {
    const Tensor& t = *per_dim[d];
    views.push_back(
        {d, t.data_ptr<int64_t>(), loops::broadcast_strides(t.sizes(), t.strides(), dims.bshape)});
  }
  int64_t numel = 1;
  for (int64_t s : out.result_sizes) numel *= s;
  out.offsets.reserve(static_cast<size_t>(numel));
  const int64_t nb = static_cast<int64_t>(dims.bshape.size());
  DimVector bidx(static_cast<size_t>(nb), 0);
  loops::for_each_index(out.result_sizes, [&](const int64_t* idx) {
    int64_t off = 0;
    for (size_t r = 0; r < layout.src.size(); ++r) {
      if (layout.src[r] >= 0) off += idx[r] * self.stride(layout.src[r]);
    }
    for (int64_t j = 0; j < nb; ++j) bidx[j] = idx[layout.bpos + j];
    for (const IndexView& v : views) {
      const int64_t size = self.size(v.dim);
      int64_t i = v.data[loops::offset_of(bidx.data(), v.strides)];
      if (i < -size || i >= size) {
        throw std::out_of_range("index " + std::to_string(i) + " is out of bounds for dimension " +
                                std::to_string(v.dim) + " with size " + std::to_string(size));
      }
      if (i < 0) i += size;
      off += i * self.stride(v.dim);
    }
    out.offsets.push_back(off);
  });
}

AdvancedIndex resolve(const char* op, const Tensor& self,
                      const std::vector<std::optional<Tensor>>& indices) {
  const std::vector<std::optional<Tensor>> per_dim = per_dim_indices(op, self, indices);
  const IndexedDims dims = indexed_dims(op, per_dim);
  AdvancedIndex out;
  if (dims.indexed.empty()) {
    // No index tensor: every dim is a full slice (a copy of self).
    out.result_sizes.assign(self.sizes().begin(), self.sizes().end());
    out.offsets.reserve(static_cast<size_t>(self.numel()));
    loops::for_each_index(self.sizes(), [&](const int64_t* idx) {
      out.offsets.push_back(loops::offset_of(idx, self.strides()));
    });
    return out;
  }
  const ResultLayout layout = result_layout(self, dims);
  for (size_t r = 0; r < layout.src.size(); ++r) {
    out.result_sizes.push_back(layout.src[r] < 0
                                   ? dims.bshape[static_cast<int64_t>(r) - layout.bpos]
                                   : self.size(layout.src[r]));
  }
  gather_offsets(self, per_dim, dims, layout, out);
  return out;
}

}  // namespace

Tensor index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices) {
  const AdvancedIndex ai = resolve("index", self, indices);
  Tensor out = empty(ai.result_sizes, self.scalar_type());
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = self.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (size_t j = 0; j < ai.offsets.size(); ++j) po[j] = px[ai.offsets[j]];
  });
  return out;
}

Tensor& index_out(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                  Tensor& out) {
  return write_out("index.Tensor_out", native::index(self, indices), out);
}

namespace {

// PyTorch's canDispatchToMaskedFill: one Bool (or Byte) mask as the only index tensor and one
// value, without accumulate, is masked_fill_, which converts the value to self's dtype.
bool is_masked_fill(const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                    bool accumulate) {
  if (accumulate || values.numel() != 1) return false;
  int masks = 0;
  for (const std::optional<Tensor>& i : indices) {
    if (!i.has_value() || !i->defined()) continue;
    if (i->scalar_type() != ScalarType::Bool && i->scalar_type() != ScalarType::Byte) return false;
    ++masks;
  }
  return masks == 1;
}

}  // namespace

Tensor& index_put_(Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                   const Tensor& values_, bool accumulate) {
  const Tensor values =
      values_.scalar_type() != self.scalar_type() && is_masked_fill(indices, values_, accumulate)
          ? cast(values_, self.scalar_type())
          : values_;
  if (values.scalar_type() != self.scalar_type()) {
    throw std::runtime_error("Index put requires the source and destination dtypes match, got " +
                             std::string(to_string(self.scalar_type())) +
                             " for the destination and " + to_string(values.scalar_type()) +
                             " for the source.");
  }
  const AdvancedIndex ai = resolve("index_put_", self, indices);
  if (!loops::broadcasts_to(values.sizes(), ai.result_sizes)) {
    throw std::runtime_error("shape mismatch: value tensor of shape " + shape_str(values.sizes()) +
                             " cannot be broadcast to indexing result of shape " +
                             shape_str(ai.result_sizes));
  }
  gradgen::internal::assert_no_internal_overlap(self, "index_put_");
  // values read at the broadcast strides, in the result's row-major order.
  const Tensor src = values.unsafe_impl()->storage.get() == self.unsafe_impl()->storage.get()
                         ? gradgen::internal::copy_contiguous(values)
                         : values;
  const DimVector vs = loops::broadcast_strides(src.sizes(), src.strides(), ai.result_sizes);
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* pv = src.data_ptr<T>();
    T* px = self.data_ptr<T>();
    size_t j = 0;
    loops::for_each_index(ai.result_sizes, [&](const int64_t* idx) {
      const T v = pv[loops::offset_of(idx, vs)];
      if constexpr (std::is_same_v<T, bool>) {
        px[ai.offsets[j]] = accumulate ? (px[ai.offsets[j]] || v) : v;
      } else {
        if (accumulate) {
          px[ai.offsets[j]] += v;
        } else {
          px[ai.offsets[j]] = v;
        }
      }
      ++j;
    });
  });
  self.bump_version();
  return self;
}

Tensor index_put(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                 const Tensor& values, bool accumulate) {
  Tensor out = gradgen::internal::copy_contiguous(self);
  native::index_put_(out, indices, values, accumulate);
  return out;
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step) {
  if (self.dim() == 0) {
    throw std::out_of_range("slice() cannot be applied to a 0-dim tensor (dim out of range)");
  }
  const int64_t d = wrap_dim(dim, self.dim(), "slice");
  if (step <= 0) throw std::runtime_error("slice step must be positive");
  const int64_t size = self.size(d);
  // PyTorch's clamping: negative bounds count from the end; both end up in [0, size].
  auto clamp = [size](int64_t v) {
    if (v < 0) v += size;
    return v < 0 ? 0 : (v > size ? size : v);
  };
  const int64_t begin = clamp(start.value_or(0));
  const int64_t stop = std::max(begin, clamp(end.value_or(size)));
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  sizes[d] = (stop - begin + step - 1) / step;
  strides[d] *= step;
  return loops::make_view(self, sizes, strides, self.storage_offset() + begin * self.stride(d));
}

// ---------------------------------------------------------------------------------------------
// masked_select, take, take_along_dim, nonzero, argwhere
// ---------------------------------------------------------------------------------------------

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  if (mask.scalar_type() != ScalarType::Bool) {
    throw std::runtime_error("masked_select: expected BoolTensor for mask, got " +
                             std::string(to_string(mask.scalar_type())));
  }
  const DimVector shape = loops::broadcast_shapes("masked_select", self.sizes(), mask.sizes());
  const DimVector ss = loops::broadcast_strides(self.sizes(), self.strides(), shape);
  const DimVector sm = loops::broadcast_strides(mask.sizes(), mask.strides(), shape);
  const bool* pm = mask.data_ptr<bool>();
  std::vector<int64_t> offsets;
  loops::for_each_index(shape, [&](const int64_t* idx) {
    if (pm[loops::offset_of(idx, sm)]) offsets.push_back(loops::offset_of(idx, ss));
  });
  Tensor out = empty({static_cast<int64_t>(offsets.size())}, self.scalar_type());
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = self.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (size_t j = 0; j < offsets.size(); ++j) po[j] = px[offsets[j]];
  });
  return out;
}

Tensor& masked_select_out(const Tensor& self, const Tensor& mask, Tensor& out) {
  return write_out("masked_select.out", native::masked_select(self, mask), out);
}

Tensor take(const Tensor& self, const Tensor& index) {
  if (index.scalar_type() != ScalarType::Long) {
    throw std::runtime_error("take(): Expected a long tensor for index, but got " +
                             std::string(to_string(index.scalar_type())));
  }
  const int64_t n = self.numel();
  if (n == 0 && index.numel() != 0) {
    throw std::out_of_range("take(): tried to take from an empty tensor (index out of range)");
  }
  const Tensor x = self.contiguous();
  Tensor out = empty(index.sizes(), self.scalar_type());
  const int64_t* pi = index.data_ptr<int64_t>();
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    int64_t j = 0;
    loops::for_each_index(index.sizes(), [&](const int64_t* idx) {
      int64_t i = pi[loops::offset_of(idx, index.strides())];
      if (i < -n || i >= n) {
        throw std::out_of_range("out of range: tried to access index " + std::to_string(i) +
                                " on a tensor of " + std::to_string(n) + " elements.");
      }
      if (i < 0) i += n;
      po[j++] = px[i];
    });
  });
  return out;
}

Tensor& take_out(const Tensor& self, const Tensor& index, Tensor& out) {
  return write_out("take.out", native::take(self, index), out);
}

// PyTorch's composite: written with the differentiable API (gather's gradient).
Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  if (indices.scalar_type() != ScalarType::Long) {
    throw std::runtime_error("torch.take_along_dim(): dtype of indices should be Long but got " +
                             std::string(to_string(indices.scalar_type())));
  }
  if (!dim.has_value()) {
    return gradgen::gather(gradgen::reshape(self, {-1}), 0, gradgen::reshape(indices, {-1}));
  }
  const int64_t d = wrap_dim(*dim, self.dim(), "take_along_dim");
  if (self.dim() != indices.dim()) {
    throw std::runtime_error(
        "torch.take_along_dim(): input and indices should have the same number of dimensions, "
        "but got " +
        std::to_string(self.dim()) + " dimensions for input, and " + std::to_string(indices.dim()) +
        " dimensions for indices");
  }
  if (self.dim() == 0) return gradgen::gather(self, d, indices);
  DimVector self_sizes(self.sizes().begin(), self.sizes().end());
  self_sizes[d] = indices.size(d);
  DimVector shape = loops::broadcast_shapes("take_along_dim", self_sizes, indices.sizes());
  const Tensor index_b = gradgen::expand(indices, shape);
  shape[d] = self.size(d);
  const Tensor self_b = gradgen::expand(self, shape);
  return gradgen::gather(self_b, d, index_b);
}

Tensor& take_along_dim_out(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim,
                           Tensor& out) {
  return write_out("take_along_dim.out", native::take_along_dim(self, indices, dim), out);
}

Tensor nonzero(const Tensor& self) {
  const int64_t nd = self.dim();
  std::vector<int64_t> coords;
  int64_t count = 0;  // rows: a 0-dim self has rows of no entries
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = self.data_ptr<T>();
    loops::for_each_index(self.sizes(), [&](const int64_t* idx) {
      if (px[loops::offset_of(idx, self.strides())] != T(0)) {
        coords.insert(coords.end(), idx, idx + nd);
        ++count;
      }
    });
  });
  Tensor out = empty({count, nd}, ScalarType::Long);
  int64_t* po = out.data_ptr<int64_t>();
  for (size_t j = 0; j < coords.size(); ++j) po[j] = coords[j];
  return out;
}

Tensor& nonzero_out(const Tensor& self, Tensor& out) {
  return write_out("nonzero.out", native::nonzero(self), out);
}

Tensor argwhere(const Tensor& self) { return native::nonzero(self); }

// ---------------------------------------------------------------------------------------------
// index_fill, index_copy, masked_scatter, scatter
// ---------------------------------------------------------------------------------------------

namespace {

// The entries of a 0-dim or 1-D Long index along dim d of a tensor with `size` there, wrapped
// (an IndexError naming the index and the size for one out of range).
std::vector<int64_t> dim_indices(const char* op, const Tensor& index, int64_t size, int64_t d) {
  if (index.scalar_type() != ScalarType::Long) {
    throw std::out_of_range(std::string(op) + "(): Expected dtype int64 for index, got " +
                            to_string(index.scalar_type()));
  }
  if (index.dim() > 1) {
    throw std::runtime_error(std::string(op) + "(): Index is supposed to be a vector, got shape " +
                             shape_str(index.sizes()));
  }
  std::vector<int64_t> out;
  const int64_t* p = index.data_ptr<int64_t>();
  const int64_t stride = index.dim() == 0 ? 0 : index.stride(0);
  for (int64_t i = 0; i < index.numel(); ++i) {
    int64_t v = p[i * stride];
    if (v < -size || v >= size) {
      throw std::out_of_range(std::string(op) + "(): index " + std::to_string(v) +
                              " is out of bounds for dimension " + std::to_string(d) +
                              " with size " + std::to_string(size));
    }
    out.push_back(v < 0 ? v + size : v);
  }
  return out;
}

// Calls f(dst offset in out, position j in the index list, inner offset) for every element of
// the slices of out (contiguous) at the given positions along d.
template <typename F>
void for_each_slice_element(const Tensor& out, int64_t d, const std::vector<int64_t>& rows, F&& f) {
  int64_t outer, n, inner;
  loops::split_around(out.sizes(), d, outer, n, inner);
  for (size_t j = 0; j < rows.size(); ++j) {
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) f((o * n + rows[j]) * inner + i, j, o, i);
    }
  }
}

}  // namespace

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = wrap_dim(dim, self.dim(), "index_fill");
  Tensor out = gradgen::internal::copy_contiguous(self);
  const std::vector<int64_t> rows =
      dim_indices("index_fill", index, self.dim() == 0 ? 1 : self.size(d), d);
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T v = value.to<T>();
    T* po = out.data_ptr<T>();
    for_each_slice_element(out, d, rows, [&](int64_t at, size_t, int64_t, int64_t) { po[at] = v; });
  });
  return out;
}

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  if (value.dim() != 0) {
    throw std::runtime_error(
        "index_fill_ only supports a 0-dimensional value tensor, but got tensor with " +
        std::to_string(value.dim()) + " dimension(s).");
  }
  Scalar v;
  dispatch_all(value.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    v = Scalar(value.data_ptr<T>()[0]);
  });
  return native::index_fill(self, dim, index, v);
}

Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  const int64_t d = wrap_dim(dim, self.dim(), "index_copy");
  if (source.scalar_type() != self.scalar_type()) {
    throw std::runtime_error(
        "index_copy_(): self and source expected to have the same dtype, "
        "but got (self) " +
        std::string(to_string(self.scalar_type())) + " and (source) " +
        to_string(source.scalar_type()));
  }
  const std::vector<int64_t> rows =
      dim_indices("index_copy", index, self.dim() == 0 ? 1 : self.size(d), d);
  DimVector expected(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) expected[d] = static_cast<int64_t>(rows.size());
  const bool scalar_source = source.dim() == 0 && rows.size() == 1;
  if (!scalar_source && !source.sizes().equals(expected)) {
    throw std::out_of_range(
        "index_copy_(): Source/destination tensor must have same slice "
        "shapes. Destination slice shape: " +
        shape_str(self.sizes()) + " at dimension " + std::to_string(d) +
        " and source slice shape: " + shape_str(source.sizes()) + " (expected source of shape " +
        shape_str(expected) + ")");
  }
  Tensor out = gradgen::internal::copy_contiguous(self);
  const Tensor src = source.contiguous();
  const int64_t m = static_cast<int64_t>(rows.size());
  int64_t outer, n, inner;
  loops::split_around(out.sizes(), d, outer, n, inner);
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* ps = src.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for_each_slice_element(out, d, rows, [&](int64_t at, size_t j, int64_t o, int64_t i) {
      po[at] = scalar_source ? ps[0] : ps[(o * m + static_cast<int64_t>(j)) * inner + i];
    });
  });
  return out;
}

Tensor& index_copy_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                       Tensor& out) {
  return write_out("index_copy.out", native::index_copy(self, dim, index, source), out);
}

Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  if (mask.scalar_type() != ScalarType::Bool) {
    throw std::runtime_error(
        "masked_scatter_ only supports boolean masks, but got mask with dtype " +
        std::string(to_string(mask.scalar_type())));
  }
  if (source.scalar_type() != self.scalar_type()) {
    throw std::runtime_error(
        "masked_scatter: expected self and source to have same dtypes but got " +
        std::string(to_string(self.scalar_type())) + " and " + to_string(source.scalar_type()));
  }
  const DimVector shape = loops::broadcast_shapes("masked_scatter", self.sizes(), mask.sizes());
  Tensor out = make_tensor(shape, self.scalar_type());
  gradgen::internal::copy_(out, loops::make_view(self, shape,
                                                 loops::broadcast_strides(self.sizes(),
                                                                          self.strides(), shape),
                                                 self.storage_offset()));
  const DimVector sm = loops::broadcast_strides(mask.sizes(), mask.strides(), shape);
  const bool* pm = mask.data_ptr<bool>();
  const Tensor src = source.contiguous();
  const int64_t available = src.numel();
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* ps = src.data_ptr<T>();
    T* po = out.data_ptr<T>();
    int64_t next = 0, j = 0;
    loops::for_each_index(shape, [&](const int64_t* idx) {
      if (pm[loops::offset_of(idx, sm)]) {
        if (next >= available) {
          throw std::runtime_error(
              "masked_scatter: expected source to have at least as many elements as the ones "
              "in mask (" +
              std::to_string(available) + " elements in source)");
        }
        po[j] = ps[next++];
      }
      ++j;
    });
  });
  return out;
}

namespace {

enum class Reduce { kNone, kAdd, kMultiply };

Reduce parse_reduce(std::string_view reduce) {
  if (reduce == "add") return Reduce::kAdd;
  if (reduce == "multiply") return Reduce::kMultiply;
  throw std::runtime_error("reduce argument must be either add or multiply, got " +
                           std::string(reduce));
}

// scatter's loop: for every element idx of index, out[... index[idx] at d ...] takes (or
// combines with) src[idx] (read at src's own strides) or value.
Tensor scatter_impl(const char* op, const Tensor& self, int64_t dim, const Tensor& index,
                    const Tensor* src, const Scalar& value, Reduce reduce) {
  const int64_t d = wrap_dim(dim, self.dim(), op);
  if (index.scalar_type() != ScalarType::Long) {
    throw std::runtime_error(std::string(op) + "(): Expected dtype int64 for index");
  }
  if (src != nullptr && src->scalar_type() != self.scalar_type()) {
    throw std::runtime_error(
        std::string(op) + "(): Expected self.dtype to be equal to src.dtype, got " +
        to_string(self.scalar_type()) + " and " + to_string(src->scalar_type()));
  }
  if (index.numel() > 0) {
    bool ok = index.dim() == self.dim() && (src == nullptr || src->dim() == index.dim());
    for (int64_t k = 0; ok && k < index.dim(); ++k) {
      if (k != d && index.size(k) > self.size(k)) ok = false;
      if (src != nullptr && index.size(k) > src->size(k)) ok = false;
    }
    if (!ok) {
      throw std::runtime_error(
          std::string(op) + "(): Expected index " + shape_str(index.sizes()) +
          " to be smaller than self " + shape_str(self.sizes()) + " apart from dimension " +
          std::to_string(d) +
          (src != nullptr ? " and to be smaller size than src " + shape_str(src->sizes()) : ""));
    }
  }
  Tensor out = gradgen::internal::copy_contiguous(self);
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* ps = src != nullptr ? src->data_ptr<T>() : nullptr;
    const T v = value.to<T>();
    const int64_t* pi = index.data_ptr<int64_t>();
    T* po = out.data_ptr<T>();
    DimVector at(static_cast<size_t>(self.dim()), 0);
    loops::for_each_index(index.sizes(), [&](const int64_t* idx) {
      for (int64_t k = 0; k < self.dim(); ++k) at[k] = idx[k];
      int64_t i = pi[loops::offset_of(idx, index.strides())];
      if (i < -size || i >= size) {
        throw std::runtime_error(std::string(op) + "(): index " + std::to_string(i) +
                                 " is out of bounds for dimension " + std::to_string(d) +
                                 " with size " + std::to_string(size));
      }
      if (self.dim() > 0) at[d] = i < 0 ? i + size : i;
      T& dst = po[loops::offset_of(at.data(), out.strides())];
      const T x = ps != nullptr ? ps[loops::offset_of(idx, src->strides())] : v;
      if constexpr (std::is_same_v<T, bool>) {
        dst = reduce == Reduce::kNone ? x : (reduce == Reduce::kAdd ? (dst || x) : (dst && x));
      } else {
        switch (reduce) {
          case Reduce::kNone: dst = x; break;
          case Reduce::kAdd: dst += x; break;
          case Reduce::kMultiply: dst *= x; break;
        }
      }
    });
  });
  return out;
}

}  // namespace

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_impl("scatter", self, dim, index, &src, Scalar(0), Reduce::kNone);
}

Tensor& scatter_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                    Tensor& out) {
  return write_out("scatter.src_out", native::scatter(self, dim, index, src), out);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return scatter_impl("scatter", self, dim, index, nullptr, value, Reduce::kNone);
}

Tensor& scatter_out(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                    Tensor& out) {
  return write_out("scatter.value_out", native::scatter(self, dim, index, value), out);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
               std::string_view reduce) {
  return scatter_impl("scatter", self, dim, index, &src, Scalar(0), parse_reduce(reduce));
}

Tensor& scatter_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                    std::string_view reduce, Tensor& out) {
  return write_out("scatter.reduce_out", native::scatter(self, dim, index, src, reduce), out);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
               std::string_view reduce) {
  return scatter_impl("scatter", self, dim, index, nullptr, value, parse_reduce(reduce));
}

Tensor& scatter_out(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                    std::string_view reduce, Tensor& out) {
  return write_out("scatter.value_reduce_out", native::scatter(self, dim, index, value, reduce),
                   out);
}

// ---------------------------------------------------------------------------------------------
// scatter_reduce
// ---------------------------------------------------------------------------------------------

namespace {

// scatter_reduce's `reduce`.
enum class ScatterReduction { kSum, kProd, kMean, kAmax, kAmin };

ScatterReduction scatter_reduction(std::string_view reduce) {
  if (reduce == "sum") return ScatterReduction::kSum;
  if (reduce == "prod") return ScatterReduction::kProd;
  if (reduce == "mean") return ScatterReduction::kMean;
  if (reduce == "amax" || reduce == "max") return ScatterReduction::kAmax;  // PyTorch takes these
  if (reduce == "amin" || reduce == "min") return ScatterReduction::kAmin;
  throw std::runtime_error("reduce argument must be either sum, prod, mean, amax or amin, got " +
                           std::string(reduce));
}

// The reduction's identity: what stands for self's value at a place when include_self is false.
template <typename T>
T reduction_identity(ScatterReduction r) {
  switch (r) {
    case ScatterReduction::kProd: return T(1);
    case ScatterReduction::kAmax:
      return std::numeric_limits<T>::has_infinity
                 ? static_cast<T>(-std::numeric_limits<T>::infinity())
                 : std::numeric_limits<T>::lowest();
    case ScatterReduction::kAmin:
      return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::max();
    default: return T(0);
  }
}

// One value x reduced into dst; `count` counts the values a mean divides by.
template <typename T>
void reduce_into(T& dst, T x, ScatterReduction r, int64_t& count) {
  switch (r) {
    case ScatterReduction::kSum:
    case ScatterReduction::kMean:
      dst += x;
      ++count;
      break;
    case ScatterReduction::kProd: dst *= x; break;
    case ScatterReduction::kAmax:
      if (x != x || x > dst) dst = x;  // NaN propagates
      break;
    case ScatterReduction::kAmin:
      if (x != x || x < dst) dst = x;
      break;
  }
}

// A mean's sums divided by their counts (integers: floor division, as PyTorch's).
template <typename T>
void divide_by_counts(T* po, int64_t numel, const std::vector<bool>& touched,
                      const std::vector<int64_t>& counts) {
  for (int64_t o = 0; o < numel; ++o) {
    if (!touched[o] || counts[o] == 0) continue;
    if constexpr (is_floating_type<T>::value) {
      po[o] = po[o] / static_cast<T>(counts[o]);
    } else {
      const T c = static_cast<T>(counts[o]);
      T q = po[o] / c;
      if ((po[o] % c != 0) && ((po[o] < 0) != (c < 0))) --q;  // floor, as PyTorch's
      po[o] = q;
    }
  }
}

}  // namespace

Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                      std::string_view reduce, bool include_self) {
  const ScatterReduction r = scatter_reduction(reduce);
  // The shape checks and index bounds are scatter's (a copy of self, then the writes).
  (void)scatter_impl("scatter_reduce", self, dim, index, &src, Scalar(0), Reduce::kNone);
  const int64_t d = wrap_dim(dim, self.dim(), "scatter_reduce");
  Tensor out = gradgen::internal::copy_contiguous(self);
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  std::vector<int64_t> counts(static_cast<size_t>(out.numel()), include_self ? 1 : 0);
  std::vector<bool> touched(static_cast<size_t>(out.numel()), false);
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      throw std::runtime_error("scatter_reduce: bool tensors are not supported");
    } else {
      const T* ps = src.data_ptr<T>();
      const int64_t* pi = index.data_ptr<int64_t>();
      T* po = out.data_ptr<T>();
      DimVector at(static_cast<size_t>(self.dim()), 0);
      loops::for_each_index(index.sizes(), [&](const int64_t* idx) {
        for (int64_t k = 0; k < self.dim(); ++k) at[k] = idx[k];
        const int64_t i = pi[loops::offset_of(idx, index.strides())];
        if (self.dim() > 0) at[d] = i < 0 ? i + size : i;
        const int64_t o = loops::offset_of(at.data(), out.strides());
        if (!include_self && !touched[o]) po[o] = reduction_identity<T>(r);
        touched[o] = true;
        reduce_into(po[o], ps[loops::offset_of(idx, src.strides())], r, counts[o]);
      });
      if (r == ScatterReduction::kMean) divide_by_counts(po, out.numel(), touched, counts);
    }
  });
  return out;
}

Tensor& scatter_reduce_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                           std::string_view reduce, bool include_self, Tensor& out) {
  return write_out("scatter_reduce.two_out",
                   native::scatter_reduce(self, dim, index, src, reduce, include_self), out);
}

// ---------------------------------------------------------------------------------------------
// The in-place variants: the op's result written into self, which keeps its shape.
// ---------------------------------------------------------------------------------------------

namespace {

Tensor& write_index_inplace(const char* op, Tensor& self, const Tensor& result) {
  if (!result.sizes().equals(self.sizes())) {
    throw std::runtime_error(std::string(op) + ": output with shape " + shape_str(self.sizes()) +
                             " doesn't match the broadcast shape " + shape_str(result.sizes()));
  }
  gradgen::internal::assert_no_internal_overlap(self, op);
  gradgen::internal::copy_(self, result);  // bumps the version
  return self;
}

}  // namespace

Tensor& index_fill_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return write_index_inplace("index_fill_", self, native::index_fill(self, dim, index, value));
}

Tensor& index_fill_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  return write_index_inplace("index_fill_", self, native::index_fill(self, dim, index, value));
}

Tensor& index_copy_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  return write_index_inplace("index_copy_", self, native::index_copy(self, dim, index, source));
}

Tensor& masked_scatter_(Tensor& self, const Tensor& mask, const Tensor& source) {
  return write_index_inplace("masked_scatter_", self, native::masked_scatter(self, mask, source));
}

Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return write_index_inplace("scatter_", self, native::scatter(self, dim, index, src));
}

Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return write_index_inplace("scatter_", self, native::scatter(self, dim, index, value));
}

Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                 std::string_view reduce) {
  return write_index_inplace("scatter_", self, native::scatter(self, dim, index, src, reduce));
}

Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                 std::string_view reduce) {
  return write_index_inplace("scatter_", self, native::scatter(self, dim, index, value, reduce));
}

Tensor& scatter_reduce_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                        std::string_view reduce, bool include_self) {
  return write_index_inplace("scatter_reduce_", self,
                             native::scatter_reduce(self, dim, index, src, reduce, include_self));
}

Tensor& index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                   const Scalar& alpha) {
  return write_index_inplace("index_add_", self,
                             native::index_add(self, dim, index, source, alpha));
}

Tensor& scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return write_index_inplace("scatter_add_", self, native::scatter_add(self, dim, index, src));
}

}  // namespace native
}  // namespace gradgen
