// The tensor op library's shape ops, fifth batch (issue 23, "Shapes"): diag, expand_as,
// broadcast_tensors, meshgrid, hstack / vstack / dstack / column_stack, hsplit / vsplit / dsplit
// and contiguous, CompositeImplicitAutograd as in PyTorch: written with the differentiable API
// (calls qualified `gradgen::` reach the differentiable op), whose gradients they get.
//
// Errors are PyTorch's (RuntimeError, its message with the op's name); a dim out of range is an
// IndexError (loops::index_dim).
#include <algorithm>
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

}  // namespace native
}  // namespace gradgen
