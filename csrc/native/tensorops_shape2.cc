// The tensor op library's shape ops, fifth batch (issue 23, "Shapes"): diag, expand_as,
// broadcast_tensors, meshgrid, hstack / vstack / dstack / column_stack, hsplit / vsplit / dsplit
// contiguous and repeat_interleave's self_ forms, CompositeImplicitAutograd as in PyTorch: written
// with the differentiable API (calls qualified `gradgen::` reach the differentiable op), whose
// gradients they get. repeat_interleave.Tensor (int64, no gradient), unfold and as_strided
// (views) and unfold_backward are kernels, with PyTorch's formulas for the last three.
//
// Errors are PyTorch's (RuntimeError, its message with the op's name); a dim out of range is an
// IndexError (loops::index_dim).
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

void check_non_empty(TensorList tensors, const char* op) {
  if (tensors.empty()) {
    throw std::runtime_error(std::string(op) + " expects a non-empty TensorList");
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// diag, expand_as, broadcast_tensors
// ---------------------------------------------------------------------------------------------

Tensor diag(const Tensor& self, int64_t diagonal) {
  if (self.dim() == 1) return gradgen::diag_embed(self, diagonal, 0, 1);
  if (self.dim() == 2) return gradgen::clone(gradgen::diagonal(self, diagonal, 0, 1));
  throw std::runtime_error("diag(): Supports 1D or 2D tensors. Got " + std::to_string(self.dim()) +
                           "D");
}

Tensor& diag_out(const Tensor& self, int64_t diagonal, Tensor& out) {
  return write_out("diag.out", native::diag(self, diagonal), out);
}

Tensor expand_as(const Tensor& self, const Tensor& other) {
  return gradgen::expand(self, other.sizes());
}

std::vector<Tensor> broadcast_tensors(TensorList tensors) {
  DimVector shape;
  for (const Tensor& t : tensors) {
    shape = loops::broadcast_shapes("broadcast_tensors", shape, t.sizes());
  }
  std::vector<Tensor> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(gradgen::expand(t, shape));
  return out;
}

// ---------------------------------------------------------------------------------------------
// meshgrid
// ---------------------------------------------------------------------------------------------

std::vector<Tensor> meshgrid(TensorList tensors, std::string_view indexing) {
  if (indexing != "ij" && indexing != "xy") {
    throw std::runtime_error(
        "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: " +
        std::string(indexing));
  }
  const size_t n = tensors.size();
  check_non_empty(tensors, "meshgrid");
  for (size_t i = 0; i < n; ++i) {
    if (tensors[i].dim() > 1) {
      throw std::runtime_error(
          "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: tensors[" +
          std::to_string(i) + "] of shape " + shape_str(tensors[i].sizes()));
    }
    if (tensors[i].scalar_type() != tensors[0].scalar_type()) {
      throw std::runtime_error(
          "meshgrid expects all tensors to have the same dtype: tensors[0] is " +
          std::string(to_string(tensors[0].scalar_type())) + ", tensors[" + std::to_string(i) +
          "] is " + to_string(tensors[i].scalar_type()));
    }
  }
  // 'xy': the first two inputs swapped, the grids made as for 'ij', their first two swapped back
  // (PyTorch's way: the first two dims of every grid are then exchanged).
  std::vector<Tensor> inputs(tensors.begin(), tensors.end());
  const bool swap = indexing == "xy" && n >= 2;
  if (swap) std::swap(inputs[0], inputs[1]);
  std::vector<int64_t> shape;
  for (const Tensor& t : inputs) shape.push_back(t.numel());
  std::vector<Tensor> grids;
  std::vector<int64_t> view_shape(n, 1);
  for (size_t i = 0; i < n; ++i) {
    view_shape[i] = -1;
    grids.push_back(gradgen::expand(gradgen::reshape(inputs[i], view_shape), shape));
    view_shape[i] = 1;
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}

// Without indexing: 'ij' (PyTorch warns that it will be required; gradgen.meshgrid warns too).
std::vector<Tensor> meshgrid(TensorList tensors) { return native::meshgrid(tensors, "ij"); }

// ---------------------------------------------------------------------------------------------
// hstack, vstack, dstack, column_stack: cat of the inputs made at least 1-, 2- or 3-D
// ---------------------------------------------------------------------------------------------

namespace {

// numpy.atleast_{1,2,3}d: 0-D -> [1] / [1, 1] / [1, 1, 1]; 1-D [n] -> [1, n] / [1, n, 1];
// 2-D [m, n] -> [m, n, 1] (for 3).
Tensor at_least(const Tensor& t, int64_t dims) {
  if (t.dim() >= dims) return t;
  if (t.dim() == 0) return gradgen::reshape(t, std::vector<int64_t>(static_cast<size_t>(dims), 1));
  if (t.dim() == 1) {
    Tensor r = gradgen::unsqueeze(t, 0);
    return dims == 3 ? gradgen::unsqueeze(r, 2) : r;
  }
  return gradgen::unsqueeze(t, 2);  // 2-D, dims 3
}

std::vector<Tensor> all_at_least(TensorList tensors, int64_t dims) {
  std::vector<Tensor> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(at_least(t, dims));
  return out;
}

}  // namespace

Tensor hstack(TensorList tensors) {
  check_non_empty(tensors, "hstack");
  const std::vector<Tensor> rs = all_at_least(tensors, 1);
  return gradgen::cat(rs, rs[0].dim() == 1 ? 0 : 1);
}

Tensor& hstack_out(TensorList tensors, Tensor& out) {
  return write_out("hstack.out", native::hstack(tensors), out);
}

Tensor vstack(TensorList tensors) {
  check_non_empty(tensors, "vstack");
  return gradgen::cat(all_at_least(tensors, 2), 0);
}

Tensor& vstack_out(TensorList tensors, Tensor& out) {
  return write_out("vstack.out", native::vstack(tensors), out);
}

Tensor dstack(TensorList tensors) {
  check_non_empty(tensors, "dstack");
  return gradgen::cat(all_at_least(tensors, 3), 2);
}

Tensor& dstack_out(TensorList tensors, Tensor& out) {
  return write_out("dstack.out", native::dstack(tensors), out);
}

Tensor column_stack(TensorList tensors) {
  check_non_empty(tensors, "column_stack");
  // 0-D and 1-D inputs become columns ([n, 1]); the others are concatenated as they are.
  std::vector<Tensor> columns;
  columns.reserve(tensors.size());
  for (const Tensor& t : tensors) {
    columns.push_back(t.dim() <= 1 ? gradgen::reshape(t, std::vector<int64_t>{t.numel(), 1}) : t);
  }
  return gradgen::cat(columns, 1);
}

Tensor& column_stack_out(TensorList tensors, Tensor& out) {
  return write_out("column_stack.out", native::column_stack(tensors), out);
}

// ---------------------------------------------------------------------------------------------
// hsplit, vsplit, dsplit: tensor_split along dim 1 (0 for a 1-D tensor), 0 and 2
// ---------------------------------------------------------------------------------------------

namespace {

void check_split_dims(const Tensor& self, int64_t min_dims, const char* op) {
  if (self.dim() < min_dims) {
    throw std::runtime_error("torch." + std::string(op) + " requires a tensor with at least " +
                             std::to_string(min_dims) + " dimension" + (min_dims > 1 ? "s" : "") +
                             ", but got a tensor with " + std::to_string(self.dim()) +
                             " dimensions!");
  }
}

std::vector<Tensor> split_sections(const Tensor& self, int64_t sections, int64_t dim,
                                   const char* op) {
  const int64_t size = self.size(dim);
  if (sections == 0 || size % sections != 0) {
    throw std::runtime_error("torch." + std::string(op) + " attempted to split along dimension " +
                             std::to_string(dim) + ", but the size of the dimension " +
                             std::to_string(size) + " is not divisible by the split_size " +
                             std::to_string(sections) + "!");
  }
  return gradgen::tensor_split(self, sections, dim);
}

}  // namespace

std::vector<Tensor> hsplit(const Tensor& self, int64_t sections) {
  check_split_dims(self, 1, "hsplit");
  return split_sections(self, sections, self.dim() == 1 ? 0 : 1, "hsplit");
}

std::vector<Tensor> hsplit(const Tensor& self, IntArrayRef indices) {
  check_split_dims(self, 1, "hsplit");
  return gradgen::tensor_split(self, indices, self.dim() == 1 ? 0 : 1);
}

std::vector<Tensor> vsplit(const Tensor& self, int64_t sections) {
  check_split_dims(self, 2, "vsplit");
  return split_sections(self, sections, 0, "vsplit");
}

std::vector<Tensor> vsplit(const Tensor& self, IntArrayRef indices) {
  check_split_dims(self, 2, "vsplit");
  return gradgen::tensor_split(self, indices, 0);
}

std::vector<Tensor> dsplit(const Tensor& self, int64_t sections) {
  check_split_dims(self, 3, "dsplit");
  return split_sections(self, sections, 2, "dsplit");
}

std::vector<Tensor> dsplit(const Tensor& self, IntArrayRef indices) {
  check_split_dims(self, 3, "dsplit");
  return gradgen::tensor_split(self, indices, 2);
}

// ---------------------------------------------------------------------------------------------
// contiguous
// ---------------------------------------------------------------------------------------------

Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  if (memory_format != MemoryFormat::Contiguous) {
    throw std::runtime_error("preserve memory format is unsupported by the contiguous operator");
  }
  return self.is_contiguous() ? self : gradgen::clone(self, MemoryFormat::Contiguous);
}

// ---------------------------------------------------------------------------------------------
// repeat_interleave: the index kernel (int64, no gradient) and its composites over index_select
// ---------------------------------------------------------------------------------------------

Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size) {
  if (repeats.dim() != 1) {
    throw std::runtime_error("repeat_interleave only accept 1D vector as repeat");
  }
  if (repeats.scalar_type() != ScalarType::Long) {
    throw std::runtime_error(std::string("repeat_interleave: repeats must be a Long tensor, got ") +
                             to_string(repeats.scalar_type()));
  }
  const Tensor r = internal::copy_contiguous(repeats);
  const int64_t* rp = r.data_ptr<int64_t>();
  int64_t total = 0;
  for (int64_t i = 0; i < r.numel(); ++i) {
    if (rp[i] < 0) throw std::runtime_error("repeats can not be negative");
    total += rp[i];
  }
  if (output_size.has_value() && *output_size != total) {
    throw std::runtime_error("allocated size does not match required size: output_size " +
                             std::to_string(*output_size) + ", repeats sum to " +
                             std::to_string(total));
  }
  Tensor result = empty({total}, ScalarType::Long);
  int64_t* out = result.data_ptr<int64_t>();
  for (int64_t i = 0, k = 0; i < r.numel(); ++i) {
    for (int64_t j = 0; j < rp[i]; ++j) out[k++] = i;
  }
  return result;
}

Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  const Tensor input = dim.has_value() ? self : gradgen::flatten(self);
  const int64_t d = dim.has_value() ? loops::index_dim(*dim, input.dim(), "repeat_interleave") : 0;
  const int64_t size = input.dim() == 0 ? 1 : input.size(d);
  Tensor r = repeats;
  if (repeats.dim() == 0 || (repeats.dim() == 1 && repeats.size(0) == 1)) {
    r = gradgen::expand(gradgen::reshape(repeats, std::vector<int64_t>{1}), {size});
  } else if (repeats.dim() == 1) {
    if (repeats.size(0) != size) {
      throw std::runtime_error(
          "repeats must have the same size as input along dim, but got repeats.size(0) = " +
          std::to_string(repeats.size(0)) + " and input.size(" + std::to_string(d) +
          ") = " + std::to_string(size));
    }
  } else {
    throw std::runtime_error("repeats must be 0-dim or 1-dim tensor");
  }
  return gradgen::index_select(input, d, native::repeat_interleave(r, output_size));
}

Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  if (repeats < 0) throw std::runtime_error("Repeats must be non-negative");
  Tensor input = dim.has_value() ? self : gradgen::flatten(self);
  const int64_t d = dim.has_value() ? loops::index_dim(*dim, input.dim(), "repeat_interleave") : 0;
  // The new dim after d must exist: a 0-dim self with a dim is an IndexError, as PyTorch's
  // (whose unsqueeze(dim + 1) raises it).
  if (dim.has_value()) loops::index_dim(d + 1, input.dim() + 1, "repeat_interleave");
  if (input.dim() == 0) input = gradgen::reshape(input, std::vector<int64_t>{1});
  const int64_t total = input.size(d) * repeats;
  if (output_size.has_value() && *output_size != total) {
    throw std::runtime_error("allocated size does not match required size: output_size " +
                             std::to_string(*output_size) + ", the result has " +
                             std::to_string(total));
  }
  // Each element along d expanded `repeats` times in a new dim after it, the two dims merged.
  std::vector<int64_t> expanded(input.sizes().begin(), input.sizes().end());
  expanded.insert(expanded.begin() + d + 1, repeats);
  std::vector<int64_t> merged(input.sizes().begin(), input.sizes().end());
  merged[static_cast<size_t>(d)] = total;
  return gradgen::reshape(gradgen::expand(gradgen::unsqueeze(input, d + 1), expanded), merged);
}

// ---------------------------------------------------------------------------------------------
// unfold (a view), unfold_backward, as_strided (a view)
// ---------------------------------------------------------------------------------------------

Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  const int64_t d = loops::index_dim(dimension, self.dim(), "unfold");
  const int64_t max_size = self.dim() == 0 ? 1 : self.size(d);
  if (size > max_size) {
    throw std::runtime_error("maximum size for tensor at dimension " + std::to_string(d) + " is " +
                             std::to_string(max_size) + " but size is " + std::to_string(size));
  }
  if (size < 0) {
    throw std::runtime_error("size is " + std::to_string(size) + " but must be >= 0");
  }
  if (step <= 0) {
    throw std::runtime_error("step is " + std::to_string(step) + " but must be > 0");
  }
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  const int64_t stride = self.dim() == 0 ? 1 : self.stride(d);
  if (self.dim() > 0) {
    sizes[d] = (max_size - size) / step + 1;
    strides[d] = step * stride;
  }
  sizes.push_back(size);
  strides.push_back(stride);
  return loops::make_view(self, sizes, strides, self.storage_offset());
}

Tensor unfold_backward(const Tensor& grad_in, IntArrayRef input_sizes, int64_t dim, int64_t size,
                       int64_t step) {
  const int64_t n = static_cast<int64_t>(input_sizes.size());
  const int64_t d = loops::index_dim(dim, n, "unfold_backward");
  if (step <= 0) {
    throw std::runtime_error("unfold_backward: step is " + std::to_string(step) +
                             " but must be > 0");
  }
  const int64_t length = n == 0 ? 1 : input_sizes[static_cast<size_t>(d)];
  const int64_t windows = size > length ? 0 : (length - size) / step + 1;
  // grad_in's expected shape: input_sizes with dim d the window count, then the window size.
  DimVector expected(input_sizes.begin(), input_sizes.end());
  if (n > 0) expected[d] = windows;
  expected.push_back(size);
  if (!grad_in.sizes().equals(IntArrayRef(expected))) {
    throw std::runtime_error("unfold_backward: expected grad_in of shape " + shape_str(expected) +
                             ", got " + shape_str(grad_in.sizes()));
  }
  Tensor result = zeros(input_sizes, grad_in.scalar_type());
  if (result.numel() == 0 || grad_in.numel() == 0) return result;
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= input_sizes[static_cast<size_t>(k)];
  for (int64_t k = d + 1; k < n; ++k) inner *= input_sizes[static_cast<size_t>(k)];
  const Tensor g = internal::copy_contiguous(grad_in);  // [outer, windows, inner, size]
  internal::dispatch_all(grad_in.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* out = result.data_ptr<scalar_t>();  // [outer, length, inner]
    const scalar_t* in = g.data_ptr<scalar_t>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t w = 0; w < windows; ++w) {
        for (int64_t i = 0; i < inner; ++i) {
          for (int64_t j = 0; j < size; ++j) {
            out[(o * length + w * step + j) * inner + i] +=
                in[((o * windows + w) * inner + i) * size + j];
          }
        }
      }
    }
  });
  return result;
}

Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset) {
  if (size.size() != stride.size()) {
    throw std::runtime_error("mismatch in length of strides and shape");
  }
  for (int64_t s : stride) {
    if (s < 0) {
      throw std::runtime_error(
          "as_strided: Negative strides are not supported at the moment, got strides: " +
          shape_str(stride));
    }
  }
  for (int64_t s : size) {
    if (s < 0) {
      throw std::runtime_error("as_strided: negative sizes are not allowed, got sizes: " +
                               shape_str(size));
    }
  }
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  if (offset < 0) {
    throw std::runtime_error("as_strided: Tensor: invalid storage offset " +
                             std::to_string(offset));
  }
  // PyTorch's setStorage check: the elements reached must lie inside the storage.
  const TensorImpl* impl = self.unsafe_impl();
  const int64_t storage_numel =
      static_cast<int64_t>(impl->storage->nbytes / element_size(self.scalar_type()));
  bool empty_view = false;
  int64_t needed = offset + 1;
  for (size_t k = 0; k < size.size(); ++k) {
    if (size[k] == 0) empty_view = true;
    int64_t reach = 0;
    if (size[k] > 0 && (__builtin_mul_overflow(size[k] - 1, stride[k], &reach) ||
                        __builtin_add_overflow(needed, reach, &needed))) {
      throw std::runtime_error("as_strided: sizes " + shape_str(size) + " and strides " +
                               shape_str(stride) + " overflow int64");
    }
  }
  if (!empty_view && needed > storage_numel) {
    throw std::runtime_error(
        "setStorage: sizes " + shape_str(size) + ", strides " + shape_str(stride) +
        ", storage offset " + std::to_string(offset) + ", and itemsize " +
        std::to_string(element_size(self.scalar_type())) + " requiring a storage size of " +
        std::to_string(needed * static_cast<int64_t>(element_size(self.scalar_type()))) +
        " are out of bounds for storage of size " + std::to_string(impl->storage->nbytes));
  }
  return loops::make_view(self, size, stride, offset);
}

}  // namespace native
}  // namespace gradgen
