// Kernels of the shape ops. All but cat are views: they return a new TensorImpl
// over the input's storage (Note [Views] in csrc/tensor.h), computing only new
// sizes, strides and offset. reshape is a view when the strides allow it, and a
// copy otherwise (as in PyTorch). Dims may be negative (counted from the end).
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using loops::make_view;

// Marks the views one op returned together (split, unbind, chunk): autograd refuses in-place
// ops on them (Note [Views] in csrc/tensor.h). Views made in no_grad mode stay marked so.
std::vector<Tensor> multi_output_views(std::vector<Tensor> views) {
  for (Tensor& v : views) {
    TensorImpl* impl = v.unsafe_impl();
    if (impl->view->creation == ViewCreation::Default)
      impl->view->creation = ViewCreation::MultiOutput;
  }
  return views;
}

// Copies the elements that `src` and src_strides describe (of shape `sizes`) into
// dst, laid out by dst_strides, element by element in row-major order.
template <typename scalar_t>
void gather(scalar_t* dst, IntArrayRef dst_strides, const scalar_t* src, IntArrayRef sizes,
            IntArrayRef src_strides) {
  internal::for_each_offset(sizes, dst_strides, src_strides,
                            [&](int64_t od, int64_t os) { dst[od] = src[os]; });
}

// Resolves a -1 in `shape` from numel; throws naming op if the shape does not fit.
DimVector infer_size(const char* op, IntArrayRef shape, int64_t numel, IntArrayRef from) {
  DimVector out(shape.begin(), shape.end());
  // The sizes other than 0 must multiply without overflow (they become strides);
  // then so does `known` below.
  int64_t extent = 1;
  for (int64_t size : shape) {
    if (size > 1 && __builtin_mul_overflow(extent, size, &extent)) {
      throw std::runtime_error(std::string(op) + ": the number of elements of shape " +
                               shape_str(shape) + " overflows int64");
    }
  }
  int64_t known = 1;
  int infer = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (infer >= 0) {
        throw std::invalid_argument(std::string(op) + ": only one dim can be -1, got shape " +
                                    shape_str(shape));
      }
      infer = static_cast<int>(d);
    } else if (shape[d] < 0) {
      throw std::invalid_argument(std::string(op) + ": invalid shape " + shape_str(shape));
    } else {
      known *= shape[d];
    }
  }
  // With -1, the other sizes' product must be non-zero (else -1 could be anything) and divide
  // numel: 0 elements into [-1, 2] is [0, 2], as in PyTorch.
  const bool ambiguous = infer >= 0 && known == 0;
  if (infer >= 0 && known != 0 && numel % known == 0) {
    out[infer] = numel / known;
    known = numel;
  }
  if (known != numel || ambiguous) {
    throw std::invalid_argument(std::string(op) + ": shape " + shape_str(shape) +
                                " is invalid for an input of shape " + shape_str(from) + " (" +
                                std::to_string(numel) + " elements)");
  }
  return out;
}

// The strides that view (sizes, strides) as `shape` without copying, or nullopt
// (PyTorch's computeStride).
std::optional<DimVector> view_strides(IntArrayRef sizes, IntArrayRef strides, IntArrayRef shape) {
  DimVector out(shape.size(), 1);
  if (sizes.empty()) return out;
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  if (numel == 0) {
    if (sizes.equals(shape)) return DimVector(strides.begin(), strides.end());
    return loops::contiguous_strides(shape);
  }
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(sizes.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= sizes[tensor_d];
    if (tensor_d == 0 ||
        (sizes[tensor_d - 1] != 1 && strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

}  // namespace

Tensor t(const Tensor& self) {
  if (self.dim() > 2) {
    throw std::invalid_argument("t: expected a tensor with at most 2 dims, got shape " +
                                shape_str(self.sizes()));
  }
  if (self.dim() < 2) return make_view(self, self.sizes(), self.strides(), self.storage_offset());
  const int64_t sizes[2] = {self.size(1), self.size(0)};
  const int64_t strides[2] = {self.stride(1), self.stride(0)};
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  if (self.dim() == 0) {
    throw std::invalid_argument("narrow: expected a tensor with at least 1 dim, got shape []");
  }
  const int64_t d = wrap_dim(dim, self.dim(), "narrow");
  const int64_t size = self.size(d);
  const int64_t begin = start < 0 && start >= -size ? start + size : start;
  // begin > size - length, not begin + length > size: that sum overflows for huge arguments
  // (start 2**63 - 1, length 2**40 passed the check and made a view far outside the storage).
  if (begin < 0 || length < 0 || begin > size - length) {
    throw std::invalid_argument(
        "narrow: expected 0 <= start <= start + length <= " + std::to_string(size) + " for dim " +
        std::to_string(d) + " of self of shape " + shape_str(self.sizes()) + ", got start " +
        std::to_string(start) + " and length " + std::to_string(length));
  }
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  sizes[d] = length;
  return make_view(self, sizes, self.strides(), self.storage_offset() + begin * self.stride(d));
}

// PyTorch's legacy empty tensor: a 1-D tensor of no elements, which cat skips whatever the
// others' shapes are (torch.cat([torch.tensor([]), x]) is x).
static bool is_legacy_empty(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

Tensor cat(TensorList tensors, int64_t dim) {
  if (tensors.empty()) throw std::invalid_argument("cat: expected a non-empty list of tensors");
  // The shape comes from the first tensor that is not a legacy empty one; the dtype is the
  // result type of all of them (type_promotion.h): cat([int64, float32]) is float32.
  size_t ref = 0;
  while (ref + 1 < tensors.size() && is_legacy_empty(tensors[ref])) ++ref;
  const Tensor& first = tensors[ref];
  if (first.dim() == 0) {
    throw std::invalid_argument("cat: expected tensors with at least 1 dim, got tensors[" +
                                std::to_string(ref) + "] of shape []");
  }
  ResultType promotion;
  for (const Tensor& x : tensors) promotion.add(x);
  const ScalarType dtype = promotion.get();
  const int64_t d = wrap_dim(dim, first.dim(), "cat");
  DimVector out_sizes(first.sizes().begin(), first.sizes().end());
  out_sizes[d] = 0;
  std::vector<Tensor> pieces;
  pieces.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& x = tensors[i];
    if (is_legacy_empty(x) && !is_legacy_empty(first)) continue;
    bool matches = x.dim() == first.dim();
    for (int64_t k = 0; matches && k < x.dim(); ++k) {
      if (k != d && x.size(k) != first.size(k)) matches = false;
    }
    if (!matches) {
      throw std::invalid_argument("cat: expected tensors[" + std::to_string(i) +
                                  "] to match the shape of tensors[" + std::to_string(ref) + "], " +
                                  shape_str(first.sizes()) + ", except in dim " +
                                  std::to_string(d) + ", got " + shape_str(x.sizes()));
    }
    out_sizes[d] += x.size(d);
    pieces.push_back(cast(x, dtype));
  }
  Tensor result = empty(out_sizes, dtype);
  // Contiguous pieces along dim 0 (or any dim with nothing outside it) are plain
  // memcpy-like runs; the general case copies element by element.
  internal::dispatch_all(dtype, [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* out = result.data_ptr<scalar_t>();
    const int64_t step = result.stride(d);
    int64_t outer = 1;
    for (int64_t k = 0; k < d; ++k) outer *= out_sizes[k];
    int64_t offset = 0;  // position along dim d where the next piece starts
    for (const Tensor& x : pieces) {
      if (outer == 1 && x.is_contiguous()) {
        std::copy_n(x.data_ptr<scalar_t>(), x.numel(), out + offset * step);
      } else {
        gather(out + offset * step, result.strides(), x.data_ptr<scalar_t>(), x.sizes(),
               x.strides());
      }
      offset += x.size(d);
    }
  });
  return result;
}

Tensor view(const Tensor& self, IntArrayRef size) {
  const DimVector shape = infer_size("view", size, self.numel(), self.sizes());
  std::optional<DimVector> strides = view_strides(self.sizes(), self.strides(), shape);
  if (!strides) {
    throw std::invalid_argument(
        "view: shape " + shape_str(size) + " is not compatible with the input's shape " +
        shape_str(self.sizes()) + " and strides " + shape_str(self.strides()) +
        " (the elements are not laid out evenly); use reshape instead");
  }
  return make_view(self, shape, *strides, self.storage_offset());
}

Tensor reshape(const Tensor& self, IntArrayRef shape) {
  const DimVector sizes = infer_size("reshape", shape, self.numel(), self.sizes());
  if (std::optional<DimVector> strides = view_strides(self.sizes(), self.strides(), sizes)) {
    return make_view(self, sizes, *strides, self.storage_offset());
  }
  Tensor copy = internal::copy_contiguous(self);
  TensorImpl* impl = copy.unsafe_impl();
  impl->sizes.assign(sizes.begin(), sizes.end());
  impl->strides = loops::contiguous_strides(sizes);
  impl->refresh_numel_and_contiguity();
  return copy;
}

Tensor expand(const Tensor& self, IntArrayRef size, bool /*implicit*/) {
  const int64_t ndim = static_cast<int64_t>(size.size());
  const int64_t lead = ndim - self.dim();
  auto fail = [&]() -> Tensor {
    throw std::invalid_argument("expand: a tensor of shape " + shape_str(self.sizes()) +
                                " cannot be expanded to " + shape_str(size) +
                                " (only dims of size 1 can grow, and new dims go in front)");
  };
  if (lead < 0) return fail();
  DimVector sizes(ndim, 0), strides(ndim, 0);
  for (int64_t d = ndim - 1; d >= 0; --d) {
    const int64_t want = size[d];
    if (d < lead) {
      if (want < 0) return fail();
      sizes[d] = want;
      strides[d] = 0;
      continue;
    }
    const int64_t have = self.size(d - lead);
    if (want == -1 || want == have) {
      sizes[d] = have;
      strides[d] = self.stride(d - lead);
    } else if (have == 1 && want >= 0) {
      sizes[d] = want;
      strides[d] = 0;
    } else {
      return fail();
    }
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor squeeze(const Tensor& self) {
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.size(d) == 1) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  const int64_t d = wrap_dim(dim, self.dim(), "squeeze");
  if (self.dim() == 0 || self.size(d) != 1) {
    return make_view(self, self.sizes(), self.strides(), self.storage_offset());
  }
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  DimVector out_sizes, out_strides;
  for (int64_t k = 0; k < self.dim(); ++k) {
    if (k == d) continue;
    out_sizes.push_back(sizes[k]);
    out_strides.push_back(strides[k]);
  }
  return make_view(self, out_sizes, out_strides, self.storage_offset());
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  const int64_t d = wrap_dim(dim, self.dim() + 1, "unsqueeze");
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  const int64_t stride = d >= self.dim() ? 1 : sizes[d] * strides[d];
  sizes.push_back(0);
  strides.push_back(0);
  for (int64_t k = self.dim(); k > d; --k) {
    sizes[k] = sizes[k - 1];
    strides[k] = strides[k - 1];
  }
  sizes[d] = 1;
  strides[d] = stride;
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  const int64_t d0 = wrap_dim(dim0, self.dim(), "transpose");
  const int64_t d1 = wrap_dim(dim1, self.dim(), "transpose");
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  if (self.dim() > 0) {
    std::swap(sizes[d0], sizes[d1]);
    std::swap(strides[d0], strides[d1]);
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor permute(const Tensor& self, IntArrayRef dims) {
  const int64_t n = self.dim();
  if (static_cast<int64_t>(dims.size()) != n) {
    throw std::invalid_argument("permute: expected " + std::to_string(n) +
                                " dims for a tensor of shape " + shape_str(self.sizes()) +
                                ", got " + shape_str(dims));
  }
  DimVector sizes(n, 0), strides(n, 0);
  std::vector<bool> seen(static_cast<size_t>(n), false);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t d = wrap_dim(dims[k], n, "permute");
    if (seen[d]) {
      throw std::invalid_argument("permute: dims " + shape_str(dims) +
                                  " are not a permutation (dim " + std::to_string(d) + " repeats)");
    }
    seen[d] = true;
    sizes[k] = self.size(d);
    strides[k] = self.stride(d);
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  if (self.dim() == 0) {
    throw std::invalid_argument("select: expected a tensor with at least 1 dim, got shape []");
  }
  const int64_t d = wrap_dim(dim, self.dim(), "select");
  const int64_t size = self.size(d);
  if (index < -size || index >= size) {
    throw std::invalid_argument("select: index " + std::to_string(index) +
                                " out of range for dim " + std::to_string(d) + " of size " +
                                std::to_string(size) + " (shape " + shape_str(self.sizes()) + ")");
  }
  const int64_t i = index < 0 ? index + size : index;
  DimVector sizes, strides;
  for (int64_t k = 0; k < self.dim(); ++k) {
    if (k == d) continue;
    sizes.push_back(self.size(k));
    strides.push_back(self.stride(k));
  }
  return make_view(self, sizes, strides, self.storage_offset() + i * self.stride(d));
}

Tensor to(const Tensor& self, ScalarType dtype, bool /*non_blocking*/, bool copy,
          std::optional<MemoryFormat> /*memory_format*/) {
  if (dtype == self.scalar_type() && !copy) {
    return make_view(self, self.sizes(), self.strides(), self.storage_offset());
  }
  Tensor out = empty(self.sizes(), dtype);
  internal::convert_into(out, self);
  return out;
}

Tensor stack(TensorList tensors, int64_t dim) {
  if (tensors.empty()) throw std::invalid_argument("stack: expected a non-empty list of tensors");
  const int64_t d = wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> pieces;
  pieces.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!tensors[i].sizes().equals(tensors[0].sizes())) {
      throw std::invalid_argument("stack: expected all tensors to have the shape of tensors[0], " +
                                  shape_str(tensors[0].sizes()) + ", but tensors[" +
                                  std::to_string(i) + "] has shape " +
                                  shape_str(tensors[i].sizes()));
    }
    pieces.push_back(unsqueeze(tensors[i], d));
  }
  return cat(pieces, d);
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  if (self.dim() == 0) {
    throw std::invalid_argument("split: expected a tensor with at least 1 dim, got shape []");
  }
  const int64_t d = wrap_dim(dim, self.dim(), "split");
  const int64_t size = self.size(d);
  if (split_size < 0 || (split_size == 0 && size != 0)) {
    throw std::invalid_argument("split: expected a positive split_size, got " +
                                std::to_string(split_size) + " for dim " + std::to_string(d) +
                                " of size " + std::to_string(size));
  }
  std::vector<Tensor> pieces;
  if (size == 0) {
    pieces.push_back(narrow(self, d, 0, 0));
    return multi_output_views(std::move(pieces));
  }
  // Without elements the pieces cost no memory to describe but one view each: a bound, so that
  // ones(1).expand([0, 2**62]).split(3, 1) raises instead of making 2**62 / 3 views.
  constexpr int64_t kMaxEmptyPieces = int64_t{1} << 16;
  if (self.numel() == 0 && (size - 1) / split_size + 1 > kMaxEmptyPieces) {
    throw std::invalid_argument("split: expected at most " + std::to_string(kMaxEmptyPieces) +
                                " pieces of a tensor without elements, got " +
                                std::to_string((size - 1) / split_size + 1) + " (split_size " +
                                std::to_string(split_size) + " of dim " + std::to_string(d) +
                                ", of size " + std::to_string(size) + ")");
  }
  for (int64_t start = 0; start < size; start += split_size) {
    pieces.push_back(narrow(self, d, start, std::min(split_size, size - start)));
  }
  return multi_output_views(std::move(pieces));
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  if (self.dim() == 0) {
    throw std::invalid_argument("unbind: expected a tensor with at least 1 dim, got shape []");
  }
  const int64_t d = wrap_dim(dim, self.dim(), "unbind");
  std::vector<Tensor> pieces;
  pieces.reserve(static_cast<size_t>(self.size(d)));
  for (int64_t i = 0; i < self.size(d); ++i) pieces.push_back(select(self, d, i));
  return multi_output_views(std::move(pieces));
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  if (chunks <= 0) {
    throw std::invalid_argument("chunk: expected a positive number of chunks, got " +
                                std::to_string(chunks));
  }
  if (self.dim() == 0) {
    throw std::invalid_argument("chunk: expected a tensor with at least 1 dim, got shape []");
  }
  const int64_t d = wrap_dim(dim, self.dim(), "chunk");
  const int64_t size = self.size(d);
  if (size == 0) {
    // As PyTorch: `chunks` empty pieces (split would give one), so that code unpacking
    // a, b, c = x.chunk(3) (lstm_cell's gates of hidden size 0) gets what it asked for.
    // A bound, where PyTorch has none, so that chunk(2**62) of an empty tensor raises instead
    // of filling the memory with views (PyTorch takes 9 s for a million).
    constexpr int64_t kMaxEmptyChunks = int64_t{1} << 16;
    if (chunks > kMaxEmptyChunks) {
      throw std::invalid_argument("chunk: expected at most " + std::to_string(kMaxEmptyChunks) +
                                  " chunks of a dim of size 0, got " + std::to_string(chunks));
    }
    std::vector<Tensor> pieces;
    pieces.reserve(static_cast<size_t>(chunks));
    for (int64_t i = 0; i < chunks; ++i) pieces.push_back(narrow(self, d, 0, 0));
    return multi_output_views(std::move(pieces));
  }
  return split(self, std::max<int64_t>((size + chunks - 1) / chunks, 1), dim);
}

}  // namespace native
}  // namespace gradgen
