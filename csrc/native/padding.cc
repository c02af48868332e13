// Kernels of the padding ops (torch.nn.functional.pad's modes): constant_pad_nd (negative pads
// crop), reflection_pad1d/2d/3d and replication_pad1d/2d/3d with their backward ops and out=
// variants. pad and _pad_circular are composites (composite_nn.cc).
//
// Reflection and replication pad the last 1, 2 or 3 dims of an unbatched or batched input: output
// position j along a padded dim reads input position map(j), reflect(j - left) or
// clamp(j - left); the backward adds each output gradient into the position it read.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

// ---------------------------------------------------------------------------
// constant_pad_nd
// ---------------------------------------------------------------------------

Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  const char* op = "constant_pad_nd";
  const int64_t ndim = self.dim();
  const int64_t n = static_cast<int64_t>(pad.size());
  if (n % 2 != 0) {
    throw std::invalid_argument(std::string(op) +
                                ": Length of pad must be even but instead it equals " +
                                std::to_string(n));
  }
  if (n / 2 > ndim) {
    throw std::invalid_argument(
        std::string(op) +
        ": Length of pad should be no more than twice the number of dimensions of the input. Pad "
        "length is " +
        std::to_string(n) + " while the input has " + std::to_string(ndim) + " dimensions.");
  }
  // pad lists (left, right) pairs from the last dim backwards.
  DimVector out_sizes(self.sizes().begin(), self.sizes().end());
  Tensor src = self;
  for (int64_t k = 0; k < n / 2; ++k) {
    const int64_t d = ndim - 1 - k;
    const int64_t left = pad[2 * k], right = pad[2 * k + 1];
    const int64_t size = self.size(d) + left + right;
    if (size < 0) {
      throw std::invalid_argument(
          std::string(op) + ": The input size " + std::to_string(self.size(d)) +
          ", plus negative padding " + std::to_string(left) + " and " + std::to_string(right) +
          " resulted in a negative output size, which is invalid. Check dimension " +
          std::to_string(d) + " of your input.");
    }
    out_sizes[static_cast<size_t>(d)] = size;
    // Negative pads crop the input.
    const int64_t crop_left = std::max<int64_t>(-left, 0),
                  crop_right = std::max<int64_t>(-right, 0);
    src = narrow(src, d, crop_left, std::max<int64_t>(src.size(d) - crop_left - crop_right, 0));
  }
  Tensor out = full(out_sizes, value, self.scalar_type());
  Tensor dst = out;
  for (int64_t k = 0; k < n / 2; ++k) {
    const int64_t d = ndim - 1 - k;
    dst = narrow(dst, d, std::max<int64_t>(pad[2 * k], 0), src.size(d));
  }
  if (src.numel() > 0) gradgen::internal::copy_(dst, src);
  return out;
}

// ---------------------------------------------------------------------------
// reflection and replication padding
// ---------------------------------------------------------------------------

namespace {

enum class Mode { kReflect, kReplicate };

// The padding of the last `dims` (1 to 3) dims: padding = (left, right[, top, bottom[, front,
// back]]), the last dim first. Checks PyTorch's conditions and returns the output's shape.
DimVector padded_shape(const char* op, const Tensor& self, IntArrayRef padding, int dims,
                       Mode mode) {
  const int64_t ndim = self.dim();
  const bool ok_dims = ndim == dims + 1 || ndim == dims + 2;
  bool ok_sizes = ok_dims;
  for (int64_t d = ndim - dims; ok_dims && d < ndim; ++d) ok_sizes = ok_sizes && self.size(d) > 0;
  if (!ok_sizes) {
    throw std::invalid_argument(
        std::string(op) + ": Expected " + std::to_string(dims + 1) + "D or " +
        std::to_string(dims + 2) +
        "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for "
        "input, but got: " +
        shape_str(self.sizes()));
  }
  if (static_cast<int>(padding.size()) != 2 * dims) {
    throw std::invalid_argument(std::string(op) + ": padding must have " +
                                std::to_string(2 * dims) + " elements, got " +
                                std::to_string(padding.size()));
  }
  DimVector out(self.sizes().begin(), self.sizes().end());
  for (int k = 0; k < dims; ++k) {
    const int64_t d = ndim - 1 - k;
    const int64_t left = padding[2 * k], right = padding[2 * k + 1], size = self.size(d);
    // Negative padding crops, as in PyTorch.
    if (size + left + right <= 0) {
      throw std::invalid_argument(std::string(op) + ": input size " + std::to_string(size) +
                                  " with padding (" + std::to_string(left) + ", " +
                                  std::to_string(right) + ") at dimension " + std::to_string(d) +
                                  " leaves no output");
    }
    if (mode == Mode::kReflect && (left >= size || right >= size)) {
      throw std::invalid_argument(
          std::string(op) +
          ": Argument #4: Padding size should be less than the corresponding input dimension, "
          "but got: padding (" +
          std::to_string(left) + ", " + std::to_string(right) + ") at dimension " +
          std::to_string(d) + " of input " + shape_str(self.sizes()));
    }
    out[static_cast<size_t>(d)] = size + left + right;
  }
  return out;
}

// The input position output position j (of a dim padded by `left`) reads.
inline int64_t source_index(Mode mode, int64_t j, int64_t left, int64_t size) {
  int64_t i = j - left;
  if (mode == Mode::kReplicate) return std::min(std::max<int64_t>(i, 0), size - 1);
  if (i < 0) i = -i;
  if (i >= size) i = 2 * (size - 1) - i;
  return i;
}

// The map from output to input positions of the last `dims` (1 to 3) dims, flattened row-major
// over them: out_plane[p] reads in_plane[map[p]].
std::vector<int64_t> plane_map(Mode mode, IntArrayRef in_sizes, IntArrayRef out_sizes,
                               IntArrayRef padding, int dims) {
  const int64_t nd = static_cast<int64_t>(in_sizes.size());
  std::vector<int64_t> map{0};
  // From the outermost padded dim inwards: padding[2 * k] pads dim nd - 1 - k.
  for (int k = dims - 1; k >= 0; --k) {
    const int64_t in = in_sizes[nd - 1 - k], out = out_sizes[nd - 1 - k];
    std::vector<int64_t> next;
    next.reserve(map.size() * static_cast<size_t>(out));
    for (int64_t base : map) {
      for (int64_t j = 0; j < out; ++j) {
        next.push_back(base * in + source_index(mode, j, padding[2 * k], in));
      }
    }
    map.swap(next);
  }
  return map;
}

// The number of elements of the last `dims` dims of `sizes`.
int64_t plane_numel(IntArrayRef sizes, int dims) {
  int64_t n = 1;
  for (int k = 0; k < dims; ++k) n *= sizes[sizes.size() - 1 - static_cast<size_t>(k)];
  return n;
}

Tensor pad_forward(const char* op, const Tensor& self, IntArrayRef padding, int dims, Mode mode) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(pad_forward, op, self, padding, dims, mode);
  const DimVector out_sizes = padded_shape(op, self, padding, dims, mode);
  const std::vector<int64_t> map = plane_map(mode, self.sizes(), out_sizes, padding, dims);
  const Tensor x = self.contiguous();
  Tensor out = make_tensor(out_sizes, x.scalar_type());
  const int64_t in_plane = plane_numel(self.sizes(), dims);
  const int64_t out_plane = static_cast<int64_t>(map.size());
  const int64_t planes = in_plane == 0 ? 0 : x.numel() / in_plane;
  loops::dispatch_arithmetic(x.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t b = 0; b < planes; ++b) {
      const T* src = px + b * in_plane;
      T* dst = po + b * out_plane;
      for (int64_t p = 0; p < out_plane; ++p) dst[p] = src[map[static_cast<size_t>(p)]];
    }
  });
  return out;
}

Tensor pad_backward(const char* op, const Tensor& grad_output, const Tensor& self,
                    IntArrayRef padding, int dims, Mode mode) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(pad_backward, op, grad_output, self, padding, dims, mode);
  const DimVector out_sizes = padded_shape(op, self, padding, dims, mode);
  if (!grad_output.sizes().equals(out_sizes)) {
    throw std::invalid_argument(std::string(op) + ": expected grad_output of shape " +
                                shape_str(out_sizes) + ", got " + shape_str(grad_output.sizes()));
  }
  const std::vector<int64_t> map = plane_map(mode, self.sizes(), out_sizes, padding, dims);
  const Tensor g = grad_output.contiguous();
  Tensor grad_input = zeros(self.sizes(), g.scalar_type());
  const int64_t in_plane = plane_numel(self.sizes(), dims);
  const int64_t out_plane = static_cast<int64_t>(map.size());
  const int64_t planes = in_plane == 0 ? 0 : self.numel() / in_plane;
  gradgen::internal::dispatch_floating(g.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* pg = g.data_ptr<T>();
    T* pi = grad_input.data_ptr<T>();
    for (int64_t b = 0; b < planes; ++b) {
      const T* src = pg + b * out_plane;
      T* dst = pi + b * in_plane;
      for (int64_t p = 0; p < out_plane; ++p) dst[map[static_cast<size_t>(p)]] += src[p];
    }
  });
  return grad_input;
}

}  // namespace

Tensor reflection_pad1d(const Tensor& self, IntArrayRef padding) {
  return pad_forward("reflection_pad1d", self, padding, 1, Mode::kReflect);
}
Tensor& reflection_pad1d_out(const Tensor& self, IntArrayRef padding, Tensor& out) {
  return write_out("reflection_pad1d.out", reflection_pad1d(self, padding), out);
}
Tensor reflection_pad1d_backward(const Tensor& grad_output, const Tensor& self,
                                 IntArrayRef padding) {
  return pad_backward("reflection_pad1d_backward", grad_output, self, padding, 1, Mode::kReflect);
}
Tensor& reflection_pad1d_backward_out(const Tensor& grad_output, const Tensor& self,
                                      IntArrayRef padding, Tensor& grad_input) {
  return write_out("reflection_pad1d_backward.grad_input",
                   reflection_pad1d_backward(grad_output, self, padding), grad_input);
}

Tensor reflection_pad2d(const Tensor& self, IntArrayRef padding) {
  return pad_forward("reflection_pad2d", self, padding, 2, Mode::kReflect);
}
Tensor& reflection_pad2d_out(const Tensor& self, IntArrayRef padding, Tensor& out) {
  return write_out("reflection_pad2d.out", reflection_pad2d(self, padding), out);
}
Tensor reflection_pad2d_backward(const Tensor& grad_output, const Tensor& self,
                                 IntArrayRef padding) {
  return pad_backward("reflection_pad2d_backward", grad_output, self, padding, 2, Mode::kReflect);
}
Tensor& reflection_pad2d_backward_out(const Tensor& grad_output, const Tensor& self,
                                      IntArrayRef padding, Tensor& grad_input) {
  return write_out("reflection_pad2d_backward.grad_input",
                   reflection_pad2d_backward(grad_output, self, padding), grad_input);
}

Tensor replication_pad1d(const Tensor& self, IntArrayRef padding) {
  return pad_forward("replication_pad1d", self, padding, 1, Mode::kReplicate);
}
Tensor& replication_pad1d_out(const Tensor& self, IntArrayRef padding, Tensor& out) {
  return write_out("replication_pad1d.out", replication_pad1d(self, padding), out);
}
Tensor replication_pad1d_backward(const Tensor& grad_output, const Tensor& self,
                                  IntArrayRef padding) {
  return pad_backward("replication_pad1d_backward", grad_output, self, padding, 1,
                      Mode::kReplicate);
}
Tensor& replication_pad1d_backward_out(const Tensor& grad_output, const Tensor& self,
                                       IntArrayRef padding, Tensor& grad_input) {
  return write_out("replication_pad1d_backward.grad_input",
                   replication_pad1d_backward(grad_output, self, padding), grad_input);
}

Tensor replication_pad2d(const Tensor& self, IntArrayRef padding) {
  return pad_forward("replication_pad2d", self, padding, 2, Mode::kReplicate);
}
Tensor& replication_pad2d_out(const Tensor& self, IntArrayRef padding, Tensor& out) {
  return write_out("replication_pad2d.out", replication_pad2d(self, padding), out);
}
Tensor replication_pad2d_backward(const Tensor& grad_output, const Tensor& self,
                                  IntArrayRef padding) {
  return pad_backward("replication_pad2d_backward", grad_output, self, padding, 2,
                      Mode::kReplicate);
}
Tensor& replication_pad2d_backward_out(const Tensor& grad_output, const Tensor& self,
                                       IntArrayRef padding, Tensor& grad_input) {
  return write_out("replication_pad2d_backward.grad_input",
                   replication_pad2d_backward(grad_output, self, padding), grad_input);
}

Tensor reflection_pad3d(const Tensor& self, IntArrayRef padding) {
  return pad_forward("reflection_pad3d", self, padding, 3, Mode::kReflect);
}
Tensor& reflection_pad3d_out(const Tensor& self, IntArrayRef padding, Tensor& out) {
  return write_out("reflection_pad3d.out", reflection_pad3d(self, padding), out);
}
Tensor reflection_pad3d_backward(const Tensor& grad_output, const Tensor& self,
                                 IntArrayRef padding) {
  return pad_backward("reflection_pad3d_backward", grad_output, self, padding, 3, Mode::kReflect);
}
Tensor& reflection_pad3d_backward_out(const Tensor& grad_output, const Tensor& self,
                                      IntArrayRef padding, Tensor& grad_input) {
  return write_out("reflection_pad3d_backward.grad_input",
                   reflection_pad3d_backward(grad_output, self, padding), grad_input);
}

Tensor replication_pad3d(const Tensor& self, IntArrayRef padding) {
  return pad_forward("replication_pad3d", self, padding, 3, Mode::kReplicate);
}
Tensor& replication_pad3d_out(const Tensor& self, IntArrayRef padding, Tensor& out) {
  return write_out("replication_pad3d.out", replication_pad3d(self, padding), out);
}
Tensor replication_pad3d_backward(const Tensor& grad_output, const Tensor& self,
                                  IntArrayRef padding) {
  return pad_backward("replication_pad3d_backward", grad_output, self, padding, 3,
                      Mode::kReplicate);
}
Tensor& replication_pad3d_backward_out(const Tensor& grad_output, const Tensor& self,
                                       IntArrayRef padding, Tensor& grad_input) {
  return write_out("replication_pad3d_backward.grad_input",
                   replication_pad3d_backward(grad_output, self, padding), grad_input);
}

}  // namespace native
}  // namespace gradgen
