// The tensor op library's shape ops, second batch (issue 23): flatten, unflatten, movedim,
// broadcast_to and tensor_split are CompositeImplicitAutograd as in PyTorch (written with the
// differentiable API: calls qualified `gradgen::` reach the differentiable op, and the gradient
// flows through them); flip, tril and triu are kernels with PyTorch's formulas.
//
// A dim out of range is an IndexError from Python (std::out_of_range), naming the op, the dim
// and the range, as PyTorch's "Dimension out of range"; the other errors are RuntimeErrors, as
// PyTorch's.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

// `dim` wrapped into [0, ndim) (a 0-dim tensor takes -1 and 0), else std::out_of_range.
int64_t dim_index(int64_t dim, int64_t ndim, const char* op) {
  return loops::index_dim(dim, ndim, op);
}

std::string list_str(IntArrayRef v) { return shape_str(v); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// flatten, unflatten: reshapes (views when the strides allow it, as PyTorch's)
// ---------------------------------------------------------------------------------------------

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  const int64_t start = dim_index(start_dim, self.dim(), "flatten");
  const int64_t end = dim_index(end_dim, self.dim(), "flatten");
  if (start > end) {
    throw std::runtime_error("flatten: start_dim (" + std::to_string(start_dim) +
                             ") cannot come after end_dim (" + std::to_string(end_dim) + ")");
  }
  if (self.dim() == 0) return gradgen::reshape(self, std::vector<int64_t>{1});
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < start; ++d) shape.push_back(self.size(d));
  int64_t n = 1;
  for (int64_t d = start; d <= end; ++d) n *= self.size(d);
  shape.push_back(n);
  for (int64_t d = end + 1; d < self.dim(); ++d) shape.push_back(self.size(d));
  return gradgen::reshape(self, shape);
}

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  const int64_t d = dim_index(dim, self.dim(), "unflatten");
  if (sizes.empty()) throw std::runtime_error("unflatten: sizes must be non-empty");
  // One size may be -1 (inferred); the others must multiply to the dim's size.
  int64_t known = 1;
  int inferred = 0;
  for (int64_t s : sizes) {
    if (s == -1) {
      ++inferred;
    } else if (s < 0) {
      throw std::runtime_error("unflatten: invalid size " + std::to_string(s) + " in sizes " +
                               list_str(sizes));
    } else {
      known *= s;
    }
  }
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  const bool fits =
      inferred == 0 ? known == size : inferred == 1 && known != 0 && size % known == 0;
  if (!fits) {
    throw std::runtime_error("unflatten: provided sizes " + list_str(sizes) +
                             " don't multiply up to the size of dim " + std::to_string(dim) + " (" +
                             std::to_string(size) + ") in the input tensor of shape " +
                             shape_str(self.sizes()));
  }
  std::vector<int64_t> shape;
  for (int64_t k = 0; k < d; ++k) shape.push_back(self.size(k));
  for (int64_t s : sizes) shape.push_back(s == -1 ? size / known : s);
  for (int64_t k = d + 1; k < self.dim(); ++k) shape.push_back(self.size(k));
  return gradgen::view(self, shape);
}

// ---------------------------------------------------------------------------------------------
// movedim: a permute
// ---------------------------------------------------------------------------------------------

Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  if (source.size() != destination.size()) {
    throw std::runtime_error("movedim: invalid source or destination dims: source " +
                             list_str(source) + " and destination " + list_str(destination) +
                             " do not have the same length");
  }
  const int64_t n = self.dim();
  std::vector<int64_t> src, dst;
  std::vector<bool> src_used(static_cast<size_t>(std::max<int64_t>(n, 1)), false);
  std::vector<bool> dst_used(src_used.size(), false);
  for (size_t i = 0; i < source.size(); ++i) {
    const int64_t s = dim_index(source[i], n, "movedim");
    const int64_t t = dim_index(destination[i], n, "movedim");
    if (src_used[static_cast<size_t>(s)]) {
      throw std::runtime_error("movedim: repeated dim in `source` " + list_str(source));
    }
    if (dst_used[static_cast<size_t>(t)]) {
      throw std::runtime_error("movedim: repeated dim in `destination` " + list_str(destination));
    }
    src_used[static_cast<size_t>(s)] = dst_used[static_cast<size_t>(t)] = true;
    src.push_back(s);
    dst.push_back(t);
  }
  if (n == 0) return gradgen::permute(self, std::vector<int64_t>());
  // order[t] = the input dim that lands at t: the moved ones where told, the others in order.
  std::vector<int64_t> order(static_cast<size_t>(n), -1);
  for (size_t i = 0; i < src.size(); ++i) order[static_cast<size_t>(dst[i])] = src[i];
  int64_t next = 0;
  for (int64_t t = 0; t < n; ++t) {
    if (order[static_cast<size_t>(t)] != -1) continue;
    while (src_used[static_cast<size_t>(next)]) ++next;
    order[static_cast<size_t>(t)] = next++;
  }
  return gradgen::permute(self, order);
}

Tensor movedim(const Tensor& self, int64_t source, int64_t destination) {
  const int64_t s[1] = {source};
  const int64_t d[1] = {destination};
  return native::movedim(self, IntArrayRef(s, 1), IntArrayRef(d, 1));
}

// ---------------------------------------------------------------------------------------------
// broadcast_to: expand
// ---------------------------------------------------------------------------------------------

Tensor broadcast_to(const Tensor& self, IntArrayRef size) { return gradgen::expand(self, size); }

// ---------------------------------------------------------------------------------------------
// tensor_split: narrow views
// ---------------------------------------------------------------------------------------------

namespace {

void check_splittable(const Tensor& self, const char* op) {
  if (self.dim() == 0) {
    throw std::runtime_error(std::string(op) +
                             ": expected at least a 1-dimensional tensor, but got a tensor with "
                             "0 dims");
  }
}

}  // namespace

std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim) {
  check_splittable(self, "tensor_split");
  const int64_t d = dim_index(dim, self.dim(), "tensor_split");
  if (sections <= 0) {
    throw std::runtime_error("tensor_split: number of sections must be larger than 0, got " +
                             std::to_string(sections));
  }
  // The first size % sections pieces have one element more (numpy.array_split's rule).
  const int64_t size = self.size(d);
  // Beyond the dim's size every piece is empty: a huge count (2**40) would only spend the
  // process's time and memory making them (PyTorch tries), so it is refused.
  constexpr int64_t kMaxEmptyPieces = int64_t{1} << 20;
  if (sections > size && sections - size > kMaxEmptyPieces) {
    throw std::runtime_error("tensor_split: " + std::to_string(sections) +
                             " sections of a dim of size " + std::to_string(size) +
                             " would make more than " + std::to_string(kMaxEmptyPieces) +
                             " empty tensors");
  }
  const int64_t base = size / sections, extra = size % sections;
  std::vector<Tensor> out;
  // Room for every piece first: a count no memory can hold (2**40 views of a dim of size 2**62)
  // fails here at once with std::bad_alloc (MemoryError in Python) instead of after hours.
  out.reserve(static_cast<size_t>(sections));
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t length = base + (i < extra ? 1 : 0);
    out.push_back(gradgen::narrow(self, d, start, length));
    start += length;
  }
  return out;
}

std::vector<Tensor> tensor_split(const Tensor& self, IntArrayRef indices, int64_t dim) {
  check_splittable(self, "tensor_split");
  const int64_t d = dim_index(dim, self.dim(), "tensor_split");
  const int64_t size = self.size(d);
  // Python's slice rules for each [previous, index) range: negative indices count from the
  // end, out-of-range ones are clamped, and an end before its start makes an empty piece.
  auto clamp = [size](int64_t i) {
    if (i < 0) i += size;
    return std::min(std::max<int64_t>(i, 0), size);
  };
  std::vector<Tensor> out;
  int64_t start = 0;
  for (size_t i = 0; i <= indices.size(); ++i) {
    const int64_t end = i < indices.size() ? std::max(clamp(indices[i]), start) : size;
    out.push_back(gradgen::narrow(self, d, start, end - start));
    start = i < indices.size() ? clamp(indices[i]) : size;
    start = std::min(std::max<int64_t>(start, 0), size);
  }
  return out;
}

// PyTorch's tensor_split.tensor_indices_or_sections: an int64 tensor of 0 dims is a number of
// sections, of 1 dim a list of indices (read with its stride).
std::vector<Tensor> tensor_split(const Tensor& self, const Tensor& tensor_indices_or_sections,
                                 int64_t dim) {
  check_splittable(self, "tensor_split");
  const Tensor& t = tensor_indices_or_sections;
  if (t.scalar_type() != ScalarType::Long) {
    throw std::runtime_error(
        std::string(
            "tensor_split expected tensor_indices_or_sections to have dtype of long, but got ") +
        to_string(t.scalar_type()));
  }
  if (t.dim() != 0 && t.dim() != 1) {
    throw std::runtime_error(
        "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
        "one-dimensional tensor, but got a tensor with " +
        std::to_string(t.dim()) + " dims");
  }
  const Tensor c = t.contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  if (t.dim() == 0) return gradgen::tensor_split(self, p[0], dim);
  std::vector<int64_t> indices(p, p + c.numel());
  return gradgen::tensor_split(self, IntArrayRef(indices), dim);
}

// ---------------------------------------------------------------------------------------------
// flip: a copy read backwards along `dims`
// ---------------------------------------------------------------------------------------------

Tensor flip(const Tensor& self, IntArrayRef dims) {
  std::vector<bool> flipped(static_cast<size_t>(std::max<int64_t>(self.dim(), 1)), false);
  for (int64_t dim : dims) {
    const int64_t d = dim_index(dim, self.dim(), "flip");
    if (flipped[static_cast<size_t>(d)]) {
      throw std::runtime_error("flip: dim " + std::to_string(d) + " appears multiple times in " +
                               "the list of dims " + list_str(dims));
    }
    flipped[static_cast<size_t>(d)] = true;
  }
  Tensor result = empty(self.sizes(), self.scalar_type());
  if (self.numel() == 0) return result;
  // The input read with its strides negated along the flipped dims, from the last element of
  // each of them.
  DimVector src_strides(self.strides().begin(), self.strides().end());
  int64_t start = 0;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!flipped[static_cast<size_t>(d)]) continue;
    start += (self.size(d) - 1) * self.stride(d);
    src_strides[d] = -src_strides[d];
  }
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* out = result.data_ptr<scalar_t>();
    const scalar_t* in = self.data_ptr<scalar_t>() + start;
    internal::for_each_offset(self.sizes(), result.strides(), src_strides,
                              [&](int64_t o, int64_t i) { out[o] = in[i]; });
  });
  return result;
}

// ---------------------------------------------------------------------------------------------
// tril, triu
// ---------------------------------------------------------------------------------------------

namespace {

// The triangle of the last two dims: element (i, j) kept when j - i <= diagonal (lower) or
// j - i >= diagonal (upper), else zero.
Tensor triangle(const Tensor& self, int64_t diagonal, bool lower, const char* op) {
  if (self.dim() < 2) {
    throw std::runtime_error(std::string(op) +
                             ": input tensor must have at least 2 dimensions, got shape " +
                             shape_str(self.sizes()));
  }
  Tensor result = empty(self.sizes(), self.scalar_type());
  if (self.numel() == 0) return result;
  const int64_t n = self.dim();
  const int64_t rows = self.size(n - 2), cols = self.size(n - 1);
  const int64_t in_rs = self.stride(n - 2), in_cs = self.stride(n - 1);
  const IntArrayRef batch(self.sizes().data(), static_cast<size_t>(n - 2));
  const IntArrayRef in_batch(self.strides().data(), static_cast<size_t>(n - 2));
  const IntArrayRef out_batch(result.strides().data(), static_cast<size_t>(n - 2));
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* out = result.data_ptr<scalar_t>();
    const scalar_t* in = self.data_ptr<scalar_t>();
    internal::for_each_offset(batch, out_batch, in_batch, [&](int64_t o, int64_t i) {
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
          const bool keep = lower ? c - r <= diagonal : c - r >= diagonal;
          out[o + r * cols + c] = keep ? in[i + r * in_rs + c * in_cs] : scalar_t(0);
        }
      }
    });
  });
  return result;
}

Tensor& triangle_(Tensor& self, int64_t diagonal, bool lower, const char* op) {
  const Tensor result = triangle(self, diagonal, lower, op);
  internal::assert_no_internal_overlap(self, op);
  internal::copy_(self, result);  // bumps the version
  return self;
}

}  // namespace

Tensor tril(const Tensor& self, int64_t diagonal) { return triangle(self, diagonal, true, "tril"); }
Tensor& tril_(Tensor& self, int64_t diagonal) { return triangle_(self, diagonal, true, "tril_"); }
Tensor& tril_out(const Tensor& self, int64_t diagonal, Tensor& out) {
  return write_out("tril.out", native::tril(self, diagonal), out);
}

Tensor triu(const Tensor& self, int64_t diagonal) {
  return triangle(self, diagonal, false, "triu");
}
Tensor& triu_(Tensor& self, int64_t diagonal) { return triangle_(self, diagonal, false, "triu_"); }
Tensor& triu_out(const Tensor& self, int64_t diagonal, Tensor& out) {
  return write_out("triu.out", native::triu(self, diagonal), out);
}

// ---------------------------------------------------------------------------------------------
// repeat, tile
// ---------------------------------------------------------------------------------------------

Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  const int64_t n = static_cast<int64_t>(repeats.size());
  if (n < self.dim()) {
    throw std::runtime_error("repeat: number of dimensions of repeat dims (" + std::to_string(n) +
                             ") can not be smaller than number of dimensions of tensor (" +
                             std::to_string(self.dim()) + ")");
  }
  for (int64_t r : repeats) {
    if (r < 0) {
      throw std::runtime_error("repeat: repeats can not be negative, got " + list_str(repeats));
    }
  }
  // The input seen as [1, s0, 1, s1, ...] expanded to [r0, s0, r1, s1, ...] (stride 0 along
  // the repeats), copied into a contiguous tensor of that shape: viewed as [r0 * s0, ...].
  const int64_t lead = n - self.dim();
  DimVector split_sizes, split_strides, out_sizes;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = i < lead ? 1 : self.size(i - lead);
    const int64_t st = i < lead ? 0 : self.stride(i - lead);
    split_sizes.push_back(repeats[i]);
    split_strides.push_back(0);
    split_sizes.push_back(s);
    split_strides.push_back(st);
    out_sizes.push_back(repeats[i] * s);
  }
  Tensor result = empty(out_sizes, self.scalar_type());
  if (result.numel() == 0) return result;
  const DimVector dst_strides = loops::contiguous_strides(split_sizes);
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* out = result.data_ptr<scalar_t>();
    const scalar_t* in = self.data_ptr<scalar_t>();
    internal::for_each_offset(split_sizes, dst_strides, split_strides,
                              [&](int64_t o, int64_t i) { out[o] = in[i]; });
  });
  return result;
}

Tensor tile(const Tensor& self, IntArrayRef dims) {
  // Fewer dims than self's: ones in front (numpy.tile's rule), then repeat.
  std::vector<int64_t> repeats(dims.begin(), dims.end());
  if (static_cast<int64_t>(repeats.size()) < self.dim()) {
    repeats.insert(repeats.begin(), static_cast<size_t>(self.dim()) - repeats.size(), 1);
  }
  return gradgen::repeat(self, repeats);
}

// ---------------------------------------------------------------------------------------------
// squeeze.dims, narrow_copy, diagonal, diag_embed
// ---------------------------------------------------------------------------------------------

Tensor squeeze(const Tensor& self, IntArrayRef dim) {
  const int64_t n = self.dim();
  std::vector<bool> drop(static_cast<size_t>(std::max<int64_t>(n, 1)), false);
  std::vector<bool> seen(drop.size(), false);
  for (int64_t d : dim) {
    const int64_t k = dim_index(d, n, "squeeze");
    if (seen[static_cast<size_t>(k)]) {
      throw std::runtime_error("squeeze: dim " + std::to_string(k) +
                               " appears multiple times in the list of dims " + list_str(dim));
    }
    seen[static_cast<size_t>(k)] = true;
    if (n > 0 && self.size(k) == 1) drop[static_cast<size_t>(k)] = true;
  }
  DimVector sizes, strides;
  for (int64_t k = 0; k < n; ++k) {
    if (drop[static_cast<size_t>(k)]) continue;
    sizes.push_back(self.size(k));
    strides.push_back(self.stride(k));
  }
  return loops::make_view(self, sizes, strides, self.storage_offset());
}

Tensor narrow_copy(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  if (self.dim() == 0) {
    throw std::runtime_error("narrow_copy: expected a tensor with at least 1 dim, got shape []");
  }
  // PyTorch's narrow_copy checks its dim as a RuntimeError, not an IndexError.
  if (dim < -self.dim() || dim >= self.dim()) {
    throw std::runtime_error("narrow_copy: dim " + std::to_string(dim) +
                             " out of range for a tensor with " + std::to_string(self.dim()) +
                             " dims");
  }
  const int64_t d = dim < 0 ? dim + self.dim() : dim;
  const int64_t size = self.size(d);
  const int64_t begin = start < 0 && start >= -size ? start + size : start;
  if (begin < 0 || length < 0 || begin > size - length) {
    throw std::runtime_error("narrow_copy: start (" + std::to_string(start) + ") + length (" +
                             std::to_string(length) + ") exceeds dimension size (" +
                             std::to_string(size) + ") of dim " + std::to_string(d));
  }
  const Tensor view = native::narrow(self, d, begin, length);
  Tensor result = empty(view.sizes(), self.scalar_type());
  internal::copy_(result, view);
  return result;
}

Tensor& narrow_copy_out(const Tensor& self, int64_t dim, int64_t start, int64_t length,
                        Tensor& out) {
  return write_out("narrow_copy.out", native::narrow_copy(self, dim, start, length), out);
}

namespace {

struct DiagonalGeometry {
  DimVector sizes, strides;
  int64_t storage_offset;
};

// The view of the diagonal `offset` of dims (dim1, dim2) of a tensor of these sizes and
// strides: those dims removed, the diagonal appended as the last dim.
DiagonalGeometry diagonal_geometry(const char* op, IntArrayRef sizes, IntArrayRef strides,
                                   int64_t storage_offset, int64_t offset, int64_t dim1,
                                   int64_t dim2) {
  // Fewer than 2 dims: one of the dims is out of range (an IndexError, as PyTorch's).
  const int64_t n = static_cast<int64_t>(sizes.size());
  const int64_t d1 = dim_index(dim1, n, op), d2 = dim_index(dim2, n, op);
  if (d1 == d2) {
    throw std::runtime_error(std::string(op) + ": diagonal dimensions cannot be identical " +
                             std::to_string(dim1) + ", " + std::to_string(dim2));
  }
  int64_t length;
  DiagonalGeometry g;
  g.storage_offset = storage_offset;
  if (offset >= 0) {
    length = std::max<int64_t>(std::min(sizes[d1], sizes[d2] - offset), 0);
    if (length > 0) g.storage_offset += offset * strides[d2];
  } else {
    length = std::max<int64_t>(std::min(sizes[d1] + offset, sizes[d2]), 0);
    if (length > 0) g.storage_offset -= offset * strides[d1];
  }
  for (int64_t k = 0; k < n; ++k) {
    if (k == d1 || k == d2) continue;
    g.sizes.push_back(sizes[k]);
    g.strides.push_back(strides[k]);
  }
  g.sizes.push_back(length);
  g.strides.push_back(strides[d1] + strides[d2]);
  return g;
}

}  // namespace

Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const DiagonalGeometry g = diagonal_geometry("diagonal", self.sizes(), self.strides(),
                                               self.storage_offset(), offset, dim1, dim2);
  return loops::make_view(self, g.sizes, g.strides, g.storage_offset);
}

Tensor diagonal_backward(const Tensor& grad_output, IntArrayRef input_sizes, int64_t offset,
                         int64_t dim1, int64_t dim2) {
  Tensor result = zeros(input_sizes, grad_output.scalar_type());
  const DiagonalGeometry g = diagonal_geometry("diagonal_backward", result.sizes(),
                                               result.strides(), 0, offset, dim1, dim2);
  if (!grad_output.sizes().equals(IntArrayRef(g.sizes))) {
    throw std::runtime_error("diagonal_backward: expected grad_output of shape " +
                             shape_str(g.sizes) + ", got " + shape_str(grad_output.sizes()));
  }
  internal::copy_(internal::as_strided(result, g.sizes, g.strides, g.storage_offset), grad_output);
  return result;
}

Tensor diag_embed(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  if (self.dim() == 0) {
    throw std::runtime_error("diag_embed: expected a tensor with at least 1 dim, got shape []");
  }
  const int64_t n = self.dim() + 1;
  const int64_t d1 = dim_index(dim1, n, "diag_embed"), d2 = dim_index(dim2, n, "diag_embed");
  if (d1 == d2) {
    throw std::runtime_error("diag_embed: diagonal dimensions cannot be identical " +
                             std::to_string(dim1) + ", " + std::to_string(dim2));
  }
  // The result's sizes: self's batch dims with two dims of size last + |offset| inserted.
  const int64_t side = self.size(-1) + (offset < 0 ? -offset : offset);
  DimVector sizes;
  int64_t next = 0;
  for (int64_t k = 0; k < n; ++k) {
    sizes.push_back(k == d1 || k == d2 ? side : self.size(next++));
  }
  Tensor result = zeros(sizes, self.scalar_type());
  const DiagonalGeometry g =
      diagonal_geometry("diag_embed", result.sizes(), result.strides(), 0, offset, d1, d2);
  internal::copy_(internal::as_strided(result, g.sizes, g.strides, g.storage_offset), self);
  return result;
}

// ---------------------------------------------------------------------------------------------
// split_with_sizes: narrow views, marked as one op's outputs (no in-place op on them)
// ---------------------------------------------------------------------------------------------

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  check_splittable(self, "split_with_sizes");
  const int64_t d = dim_index(dim, self.dim(), "split_with_sizes");
  const int64_t size = self.size(d);
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    if (s < 0) {
      throw std::runtime_error(
          "split_with_sizes: expects split_sizes to have non-negative "
          "entries, but got split_sizes=" +
          list_str(split_sizes));
    }
    total += s;
  }
  if (total != size) {
    throw std::runtime_error("split_with_sizes: expects split_sizes to sum exactly to " +
                             std::to_string(size) + " (input tensor's size at dimension " +
                             std::to_string(d) + "), but got split_sizes=" + list_str(split_sizes));
  }
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    Tensor piece = native::narrow(self, d, start, s);
    TensorImpl* impl = piece.unsafe_impl();
    if (impl->view->creation == ViewCreation::Default) {
      impl->view->creation = ViewCreation::MultiOutput;
    }
    out.push_back(std::move(piece));
    start += s;
  }
  return out;
}

}  // namespace native
}  // namespace gradgen
