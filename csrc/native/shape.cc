// Kernels for the shape ops of specs/native_functions.yaml: t, narrow, cat.
//
// `t` and `narrow` are views in PyTorch (they share the input's storage). Here
// they return copies for now: views need autograd support for in-place changes
// through a view (PyTorch's rebase_history / CopySlices), which comes in a later
// issue. All dtypes are supported; inputs may have any strides.
#include <stdexcept>
#include <string>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"

namespace gradgen {
namespace native {

namespace {

// Copies the elements that `src` and src_strides describe (of shape `sizes`) into
// dst, laid out by dst_strides, element by element in row-major order.
template <typename scalar_t>
void gather(scalar_t* dst, IntArrayRef dst_strides, const scalar_t* src, IntArrayRef sizes,
            IntArrayRef src_strides) {
  internal::for_each_offset(sizes, dst_strides, src_strides,
                            [&](int64_t od, int64_t os) { dst[od] = src[os]; });
}

}  // namespace

Tensor t(const Tensor& self) {
  if (self.dim() > 2) {
    throw std::invalid_argument("t: expected a tensor with at most 2 dims, got shape " +
                                shape_str(self.sizes()));
  }
  if (self.dim() < 2) return self.clone();  // nothing to transpose; still a fresh tensor
  const int64_t rows = self.size(0), cols = self.size(1);
  Tensor result = empty({cols, rows}, self.scalar_type());
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    // Read self through swapped strides: element (j, i) of the result is self(i, j).
    const int64_t swapped[2] = {self.stride(1), self.stride(0)};
    gather(result.data_ptr<scalar_t>(), result.strides(), self.data_ptr<scalar_t>(),
           result.sizes(), IntArrayRef(swapped));
  });
  return result;
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  if (self.dim() == 0) {
    throw std::invalid_argument("narrow: expected a tensor with at least 1 dim, got shape []");
  }
  const int64_t d = wrap_dim(dim, self.dim(), "narrow");
  const int64_t size = self.size(d);
  const int64_t begin = start < 0 && start >= -size ? start + size : start;
  if (begin < 0 || length < 0 || begin + length > size) {
    throw std::invalid_argument("narrow: expected 0 <= start <= start + length <= " +
                                std::to_string(size) + " for dim " + std::to_string(d) +
                                " of self of shape " + shape_str(self.sizes()) + ", got start " +
                                std::to_string(start) + " and length " + std::to_string(length));
  }
  DimVector out_sizes(self.sizes().begin(), self.sizes().end());
  out_sizes[d] = length;
  Tensor result = empty(out_sizes, self.scalar_type());
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    gather(result.data_ptr<scalar_t>(), result.strides(),
           self.data_ptr<scalar_t>() + begin * self.stride(d), result.sizes(), self.strides());
  });
  return result;
}

Tensor cat(TensorList tensors, int64_t dim) {
  if (tensors.empty()) throw std::invalid_argument("cat: expected a non-empty list of tensors");
  const Tensor& first = tensors[0];
  if (first.dim() == 0) {
    throw std::invalid_argument(
        "cat: expected tensors with at least 1 dim, got tensors[0] of shape []");
  }
  const int64_t d = wrap_dim(dim, first.dim(), "cat");
  DimVector out_sizes(first.sizes().begin(), first.sizes().end());
  out_sizes[d] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& x = tensors[i];
    bool matches = x.dim() == first.dim();
    for (int64_t k = 0; matches && k < x.dim(); ++k) {
      if (k != d && x.size(k) != first.size(k)) matches = false;
    }
    if (!matches) {
      throw std::invalid_argument("cat: expected tensors[" + std::to_string(i) +
                                  "] to match the shape of tensors[0], " +
                                  shape_str(first.sizes()) + ", except in dim " +
                                  std::to_string(d) + ", got " + shape_str(x.sizes()));
    }
    if (x.scalar_type() != first.scalar_type()) {
      throw std::invalid_argument("cat: expected all tensors to have dtype " +
                                  std::string(to_string(first.scalar_type())) + ", got tensors[" +
                                  std::to_string(i) + "] of dtype " + to_string(x.scalar_type()));
    }
    out_sizes[d] += x.size(d);
  }
  Tensor result = empty(out_sizes, first.scalar_type());
  internal::dispatch_all(first.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* out = result.data_ptr<scalar_t>();
    const int64_t step = result.stride(d);
    int64_t offset = 0;  // position along dim d where the next piece starts
    for (const Tensor& x : tensors) {
      gather(out + offset * step, result.strides(), x.data_ptr<scalar_t>(), x.sizes(), x.strides());
      offset += x.size(d);
    }
  });
  return result;
}

}  // namespace native
}  // namespace gradgen
