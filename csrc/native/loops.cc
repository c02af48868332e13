#include "csrc/native/loops.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "csrc/autograd/grad_mode.h"

namespace gradgen {
namespace native {
namespace loops {

void throw_too_many_dims(const char* op, IntArrayRef shape) {
  throw std::invalid_argument(std::string(op) + ": tensors with more than " +
                              std::to_string(kMaxDims) + " dims are not supported, got shape " +
                              shape_str(shape));
}

void throw_dtype(const char* op, const char* what, ScalarType dtype) {
  throw std::invalid_argument(std::string(op) + ": expected " + what + ", got " + to_string(dtype));
}

void throw_dtype_mismatch(const char* op, const char* name_a, ScalarType a, const char* name_b,
                          ScalarType b) {
  throw std::invalid_argument(std::string(op) + ": expected " + name_a + " and " + name_b +
                              " to have the same dtype, got " + to_string(a) + " and " +
                              to_string(b));
}

DimVector broadcast_shapes(const char* op, IntArrayRef a, IntArrayRef b) {
  const size_t n = std::max(a.size(), b.size());
  DimVector shape(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) {
      throw std::invalid_argument(std::string(op) + ": shapes " + shape_str(a) + " and " +
                                  shape_str(b) + " cannot be broadcast together (dim " +
                                  std::to_string(-static_cast<int64_t>(i) - 1) + ": " +
                                  std::to_string(da) + " vs " + std::to_string(db) + ")");
    }
    shape[n - 1 - i] = da == 1 ? db : da;
  }
  return shape;
}

bool broadcasts_to(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  for (size_t i = 0; i < from.size(); ++i) {
    const int64_t f = from[from.size() - 1 - i];
    if (f != 1 && f != to[to.size() - 1 - i]) return false;
  }
  return true;
}

DimVector broadcast_strides(IntArrayRef sizes, IntArrayRef strides, IntArrayRef shape) {
  DimVector out(shape.size(), 0);
  const size_t lead = shape.size() - sizes.size();
  for (size_t d = 0; d < sizes.size(); ++d) {
    out[lead + d] = sizes[d] == 1 ? 0 : strides[d];
  }
  return out;
}

int64_t index_dim(int64_t dim, int64_t ndim, const char* op) {
  const int64_t n = ndim == 0 ? 1 : ndim;
  if (dim < -n || dim >= n) {
    throw std::out_of_range(std::string(op) + ": dim " + std::to_string(dim) +
                            " out of range for a tensor with " + std::to_string(ndim) +
                            " dims (expected to be in range of [" + std::to_string(-n) + ", " +
                            std::to_string(n - 1) + "])");
  }
  return dim < 0 ? dim + n : dim;
}

DimVector contiguous_strides(IntArrayRef shape) {
  DimVector strides(shape.size(), 1);
  int64_t n = 1;
  for (size_t d = shape.size(); d > 0; --d) {
    strides[d - 1] = n;
    n *= std::max<int64_t>(shape[d - 1], 1);
  }
  return strides;
}

DimVector reduction_dims(const char* op, OptionalIntArrayRef dims, int64_t ndim) {
  DimVector out;
  if (!dims.has_value() || dims->empty()) {
    for (int64_t d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  for (int64_t d : *dims) {
    const int64_t w = wrap_dim(d, ndim, op);
    if (std::find(out.begin(), out.end(), w) != out.end()) {
      throw std::invalid_argument(std::string(op) + ": dim " + std::to_string(w) +
                                  " appears more than once in the list of dims " +
                                  shape_str(*dims));
    }
    out.push_back(w);
  }
  if (ndim == 0) out.clear();  // dim 0 / -1 of a 0-dim tensor: nothing to reduce
  std::sort(out.begin(), out.end());
  return out;
}

DimVector reduced_shape(IntArrayRef sizes, IntArrayRef dims, bool keepdim) {
  DimVector shape;
  size_t j = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    const bool reduced = j < dims.size() && dims[j] == static_cast<int64_t>(d);
    if (reduced) ++j;
    if (!reduced) {
      shape.push_back(sizes[d]);
    } else if (keepdim) {
      shape.push_back(1);
    }
  }
  return shape;
}

// nll_loss_nd's target check: target [] for self [C], [N, d1, ..., dK] for self [N, C, d1, ...,
// dK] (PyTorch's messages).
void check_nll_loss_target(const char* op, const Tensor& self, const Tensor& target) {
  if (self.dim() == 1) {
    if (target.dim() != 0) {
      throw std::invalid_argument(std::string(op) + ": expected a 0-dim target for self of shape " +
                                  shape_str(self.sizes()) + ", got " + shape_str(target.sizes()));
    }
    return;
  }
  if (target.dim() >= 1 && target.size(0) != self.size(0)) {
    throw std::invalid_argument(std::string(op) + ": Expected input batch_size (" +
                                std::to_string(self.size(0)) + ") to match target batch_size (" +
                                std::to_string(target.size(0)) + ").");
  }
  DimVector expected{self.size(0)};
  for (int64_t d = 2; d < self.dim(); ++d) expected.push_back(self.size(d));
  if (!target.sizes().equals(expected)) {
    throw std::invalid_argument(std::string(op) + ": Expected target size " + shape_str(expected) +
                                ", got " + shape_str(target.sizes()));
  }
}

void check_embedding_indices(const char* op, const Tensor& indices, int64_t num_weights) {
  if (indices.scalar_type() != ScalarType::Long) {
    throw std::invalid_argument(std::string(op) + ": expected indices of dtype Long, got " +
                                to_string(indices.scalar_type()));
  }
  // Unlike index_select, no wrapping of negative indices (PyTorch's IndexError,
  // "index out of range in self"): the backward counts rows by index.
  const Tensor idx = indices.contiguous();
  const int64_t* p = idx.data_ptr<int64_t>();
  const int64_t n = idx.numel();
  for (int64_t i = 0; i < n; ++i) {
    if (p[i] >= 0 && p[i] < num_weights) continue;
    // Name the position as a multi-index of indices: indices[1, 2].
    DimVector position(static_cast<size_t>(idx.dim()), 0);
    int64_t rest = i;
    for (int64_t d = idx.dim() - 1; d >= 0; --d) {
      position[d] = rest % idx.size(d);
      rest /= idx.size(d);
    }
    std::string where = shape_str(position);
    where = idx.dim() == 0 ? "indices" : "indices[" + where.substr(1, where.size() - 2) + "]";
    throw std::out_of_range(std::string(op) + ": index out of range: " + where + " is " +
                            std::to_string(p[i]) + ", expected 0 <= index < " +
                            std::to_string(num_weights) + " (the number of rows of weight)");
  }
}

Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                 int64_t storage_offset) {
  const TensorImpl& base = *self.unsafe_impl();
  auto* impl = new TensorImpl();
  Tensor view(intrusive_ptr<TensorImpl>::adopt_new(impl));
  impl->storage = base.storage;
  impl->storage_offset = storage_offset;
  impl->dtype = base.dtype;
  impl->sizes.assign(sizes.begin(), sizes.end());
  impl->strides.assign(strides.begin(), strides.end());
  internal::init_view(*impl, self, autograd::GradMode::is_enabled());
  impl->refresh_numel_and_contiguity();
  return view;
}

}  // namespace loops
}  // namespace native
}  // namespace gradgen
