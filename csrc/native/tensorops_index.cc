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
#include <optional>
#include <stdexcept>
#include <string>
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

AdvancedIndex resolve(const char* op, const Tensor& self,
                      const std::vector<std::optional<Tensor>>& indices) {
  // One entry per dim of self after expanding the masks: a Long tensor or none.
  std::vector<std::optional<Tensor>> per_dim;
  for (const std::optional<Tensor>& entry : indices) {
    if (!entry.has_value() || !entry->defined()) {
      per_dim.emplace_back(std::nullopt);
      continue;
    }
    const Tensor& t = *entry;
    if (t.scalar_type() == ScalarType::Bool) {
      const int64_t start = static_cast<int64_t>(per_dim.size());
      for (int64_t j = 0; j < t.dim(); ++j) {
        const int64_t d = start + j;
        if (d >= self.dim()) {
          throw std::out_of_range("too many indices for tensor of dimension " +
                                  std::to_string(self.dim()));
        }
        if (t.size(j) != self.size(d)) {
          throw std::out_of_range("The shape of the mask " + shape_str(t.sizes()) + " at index " +
                                  std::to_string(j) +
                                  " does not match the shape of the indexed tensor " +
                                  shape_str(self.sizes()) + " at index " + std::to_string(d));
        }
      }
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

  // The indexed dims, their broadcast shape, and whether they are adjacent.
  std::vector<int64_t> indexed, rest;
  DimVector bshape;
  bool first = true;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!per_dim[d].has_value()) {
      rest.push_back(d);
      continue;
    }
    indexed.push_back(d);
    const IntArrayRef s = per_dim[d]->sizes();
    if (first) {
      bshape.assign(s.begin(), s.end());
      first = false;
    } else {
      // broadcast_shapes throws on a mismatch; PyTorch's message names all the shapes.
      try {
        bshape = loops::broadcast_shapes(op, bshape, s);
      } catch (const std::exception&) {
        std::string shapes;
        for (const std::optional<Tensor>& e : per_dim) {
          if (!e.has_value()) continue;
          if (!shapes.empty()) shapes += ", ";
          shapes += shape_str(e->sizes());
        }
        throw std::out_of_range(
            "shape mismatch: indexing tensors could not be broadcast together with shapes " +
            shapes);
      }
    }
  }
  AdvancedIndex out;
  if (indexed.empty()) {
    // No index tensor: every dim is a full slice (a copy of self).
    out.result_sizes.assign(self.sizes().begin(), self.sizes().end());
    out.offsets.reserve(static_cast<size_t>(self.numel()));
    loops::for_each_index(self.sizes(), [&](const int64_t* idx) {
      out.offsets.push_back(loops::offset_of(idx, self.strides()));
    });
    return out;
  }
  bool adjacent = true;
  for (size_t j = 1; j < indexed.size(); ++j)
    adjacent = adjacent && indexed[j] == indexed[j - 1] + 1;
  // The result's dims: each is either a rest dim of self or one of B's dims (at `bpos`).
  const int64_t nb = static_cast<int64_t>(bshape.size());
  int64_t bpos = 0;                 // where B's dims start in the result
  std::vector<int64_t> result_src;  // per result dim: self's dim, or -1 for B's dims
  if (adjacent) {
    for (int64_t d = 0; d < indexed.front(); ++d) result_src.push_back(d);
    bpos = static_cast<int64_t>(result_src.size());
    for (int64_t j = 0; j < nb; ++j) result_src.push_back(-1);
    for (int64_t d = indexed.back() + 1; d < self.dim(); ++d) result_src.push_back(d);
  } else {
    for (int64_t j = 0; j < nb; ++j) result_src.push_back(-1);
    for (int64_t d : rest) result_src.push_back(d);
  }
  for (size_t r = 0; r < result_src.size(); ++r) {
    out.result_sizes.push_back(result_src[r] < 0 ? bshape[static_cast<int64_t>(r) - bpos]
                                                 : self.size(result_src[r]));
  }
  // Each index tensor, read with its broadcast strides over B.
  struct IndexView {
    int64_t dim;
    const int64_t* data;
    DimVector strides;  // over B
  };
  std::vector<IndexView> views;
  std::vector<Tensor> keep;
  for (int64_t d : indexed) {
    const Tensor& t = *per_dim[d];
    keep.push_back(t);
    views.push_back(
        {d, t.data_ptr<int64_t>(), loops::broadcast_strides(t.sizes(), t.strides(), bshape)});
  }
  int64_t numel = 1;
  for (int64_t s : out.result_sizes) numel *= s;
  out.offsets.reserve(static_cast<size_t>(numel));
  DimVector bidx(static_cast<size_t>(nb), 0);
  loops::for_each_index(out.result_sizes, [&](const int64_t* idx) {
    int64_t off = 0;
    for (size_t r = 0; r < result_src.size(); ++r) {
      if (result_src[r] >= 0) off += idx[r] * self.stride(result_src[r]);
    }
    for (int64_t j = 0; j < nb; ++j) bidx[j] = idx[bpos + j];
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

Tensor& index_put_(Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                   const Tensor& values, bool accumulate) {
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

}  // namespace native
}  // namespace gradgen
