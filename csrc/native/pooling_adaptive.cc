// Kernels of the adaptive pooling ops and avg_pool1d (nn, third batch): _adaptive_avg_pool2d and
// adaptive_max_pool2d with their backward ops, and the composites adaptive_avg_pool2d,
// adaptive_avg_pool1d, adaptive_max_pool1d and avg_pool1d. Inputs are [N, C, H, W] or unbatched
// [C, H, W]. Output element (oh, ow) pools the input rows floor(oh * H / OH) to
// ceil((oh + 1) * H / OH) (exclusive) and the columns likewise, as PyTorch's start_index /
// end_index, so windows may overlap and differ in size by one.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/pooling_common.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::in_composite_op;

struct Adaptive {
  int64_t planes, H, W, OH, OW;
  DimVector out_shape;
};

int64_t start_index(int64_t o, int64_t out, int64_t in) { return (o * in) / out; }
int64_t end_index(int64_t o, int64_t out, int64_t in) { return ((o + 1) * in + out - 1) / out; }

/// The geometry of an adaptive pool of the last two dims of self to output_size. The last
/// `nonempty` dims but the first must not be empty (PyTorch checks H and W for the average; C, H
/// and W for the maximum).
Adaptive adaptive_geometry(const char* op, const Tensor& self, IntArrayRef output_size,
                           int64_t nonempty) {
  if (output_size.size() != 2) {
    throw std::invalid_argument(std::string(op) + ": output_size must be 2, got " +
                                std::to_string(output_size.size()) + " sizes");
  }
  if (output_size[0] < 0 || output_size[1] < 0) {
    throw std::invalid_argument(
        std::string(op) + ": elements of output_size must be greater than or equal to 0 but " +
        "received {" + std::to_string(output_size[0]) + ", " + std::to_string(output_size[1]) +
        "}");
  }
  const int64_t nd = self.dim();
  if (nd != 3 && nd != 4) {
    throw std::invalid_argument(std::string(op) + "(): Expected 3D or 4D tensor, but got " +
                                shape_str(self.sizes()));
  }
  for (int64_t d = std::max<int64_t>(1, nd - nonempty); d < nd; ++d) {
    if (self.size(d) == 0) {
      throw std::invalid_argument(std::string(op) +
                                  "(): Expected input to have non-zero size for non-batch "
                                  "dimensions, but input has sizes " +
                                  shape_str(self.sizes()) + " with dimension " + std::to_string(d) +
                                  " being empty");
    }
  }
  Adaptive g;
  g.H = self.size(-2);
  g.W = self.size(-1);
  g.OH = output_size[0];
  g.OW = output_size[1];
  g.planes = self.numel() / (g.H * g.W);
  g.out_shape = DimVector(self.sizes().begin(), self.sizes().end());
  g.out_shape[nd - 2] = g.OH;
  g.out_shape[nd - 1] = g.OW;
  return g;
}

/// PyTorch's backward ops refuse an empty grad_output plane (and channels), as their forward ops
/// an empty input's.
void check_grad_output_nonempty(const char* op, const Tensor& grad_output) {
  for (int64_t d = 1; d < grad_output.dim(); ++d) {
    if (grad_output.size(d) == 0) {
      throw std::invalid_argument(std::string(op) +
                                  "(): Expected grad_output to have non-zero size for non-batch "
                                  "dimensions, but grad_output has sizes " +
                                  shape_str(grad_output.sizes()) + " with dimension " +
                                  std::to_string(d) + " being empty");
    }
  }
}

/// The single entry of a 1-D op's int[1] argument.
int64_t one_int(const char* op, const char* name, IntArrayRef v) {
  if (v.size() != 1) {
    throw std::invalid_argument(std::string(op) + "() argument '" + name +
                                "' should contain one int (got " + std::to_string(v.size()) + ")");
  }
  return v[0];
}

/// PyTorch's checkDimRange(op, self, 2, 4): a 1-D pool takes [C, L] or [N, C, L].
void check_1d_input(const char* op, const Tensor& self) {
  if (self.dim() != 2 && self.dim() != 3) {
    throw std::invalid_argument("Expected 2 to 3 dimensions, but got " +
                                std::to_string(self.dim()) +
                                "-dimensional tensor for argument #1 'self' (while checking "
                                "arguments for " +
                                op + ")");
  }
}

}  // namespace

Tensor _adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(_adaptive_avg_pool2d, self, output_size);
  const char* op = "adaptive_avg_pool2d";
  const Adaptive g = adaptive_geometry(op, self, output_size, 2);
  const Tensor x = self.contiguous();
  Tensor out = make_tensor(g.out_shape, self.scalar_type());
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t p = 0; p < g.planes; ++p) {
      const T* plane = px + p * g.H * g.W;
      for (int64_t oh = 0; oh < g.OH; ++oh) {
        const int64_t h0 = start_index(oh, g.OH, g.H), h1 = end_index(oh, g.OH, g.H);
        for (int64_t ow = 0; ow < g.OW; ++ow) {
          const int64_t w0 = start_index(ow, g.OW, g.W), w1 = end_index(ow, g.OW, g.W);
          double sum = 0;
          for (int64_t h = h0; h < h1; ++h) {
            for (int64_t w = w0; w < w1; ++w) sum += plane[h * g.W + w];
          }
          po[(p * g.OH + oh) * g.OW + ow] = static_cast<T>(sum / (h1 - h0) / (w1 - w0));
        }
      }
    }
  });
  return out;
}

Tensor _adaptive_avg_pool2d_backward(const Tensor& grad_output, const Tensor& self) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(_adaptive_avg_pool2d_backward, grad_output, self);
  const char* op = "adaptive_avg_pool2d_backward";
  if (grad_output.dim() != self.dim()) {
    throw std::invalid_argument(std::string(op) + ": expected grad_output of " +
                                std::to_string(self.dim()) + " dims (as self), got " +
                                shape_str(grad_output.sizes()));
  }
  check_grad_output_nonempty(op, grad_output);
  const Adaptive g = adaptive_geometry(op, self, {grad_output.size(-2), grad_output.size(-1)}, 2);
  check_pool_grad_output(op, grad_output, g.out_shape, self);
  const Tensor go = grad_output.contiguous();
  Tensor gi = zeros(self.sizes(), self.scalar_type());
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* pg = go.data_ptr<T>();
    T* px = gi.data_ptr<T>();
    for (int64_t p = 0; p < g.planes; ++p) {
      T* plane = px + p * g.H * g.W;
      for (int64_t oh = 0; oh < g.OH; ++oh) {
        const int64_t h0 = start_index(oh, g.OH, g.H), h1 = end_index(oh, g.OH, g.H);
        for (int64_t ow = 0; ow < g.OW; ++ow) {
          const int64_t w0 = start_index(ow, g.OW, g.W), w1 = end_index(ow, g.OW, g.W);
          const T v =
              pg[(p * g.OH + oh) * g.OW + ow] / static_cast<T>(h1 - h0) / static_cast<T>(w1 - w0);
          for (int64_t h = h0; h < h1; ++h) {
            for (int64_t w = w0; w < w1; ++w) plane[h * g.W + w] += v;
          }
        }
      }
    }
  });
  return gi;
}

Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  return in_composite_op("adaptive_avg_pool2d", [&] {
    if (output_size.size() != 2) {
      throw std::invalid_argument("adaptive_avg_pool2d: output_size must be 2");
    }
    if (output_size[0] < 0 || output_size[1] < 0) {
      throw std::invalid_argument(
          "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
          "received {" +
          std::to_string(output_size[0]) + ", " + std::to_string(output_size[1]) + "}");
    }
    // Output 1 x 1: the mean over H and W, as PyTorch computes it.
    if (output_size[0] == 1 && output_size[1] == 1) {
      return gradgen::mean(self, IntArrayRef({-1, -2}), true);
    }
    return gradgen::_adaptive_avg_pool2d(self, output_size);
  });
}

Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size) {
  return in_composite_op("adaptive_avg_pool1d", [&] {
    const char* op = "adaptive_avg_pool1d";
    check_1d_input(op, self);
    const int64_t size = one_int(op, "output_size", output_size);
    return gradgen::squeeze(gradgen::adaptive_avg_pool2d(gradgen::unsqueeze(self, -2), {1, size}),
                            -2);
  });
}

std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntArrayRef output_size) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(adaptive_max_pool2d, self, output_size);
  const char* op = "adaptive_max_pool2d";
  const Adaptive g = adaptive_geometry(op, self, output_size, 3);
  const Tensor x = self.contiguous();
  Tensor out = make_tensor(g.out_shape, self.scalar_type());
  Tensor indices = make_tensor(g.out_shape, ScalarType::Long);
  int64_t* pi = indices.data_ptr<int64_t>();
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t p = 0; p < g.planes; ++p) {
      const T* plane = px + p * g.H * g.W;
      for (int64_t oh = 0; oh < g.OH; ++oh) {
        const int64_t h0 = start_index(oh, g.OH, g.H), h1 = end_index(oh, g.OH, g.H);
        for (int64_t ow = 0; ow < g.OW; ++ow) {
          const int64_t w0 = start_index(ow, g.OW, g.W), w1 = end_index(ow, g.OW, g.W);
          int64_t best = h0 * g.W + w0;
          T m = -std::numeric_limits<T>::infinity();
          for (int64_t h = h0; h < h1; ++h) {
            for (int64_t w = w0; w < w1; ++w) {
              const T v = plane[h * g.W + w];
              // The first maximum wins; a NaN wins over numbers (the last NaN, as PyTorch's
              // loop, which keeps comparing).
              if (v > m || std::isnan(v)) {
                m = v;
                best = h * g.W + w;
              }
            }
          }
          po[(p * g.OH + oh) * g.OW + ow] = m;
          pi[(p * g.OH + oh) * g.OW + ow] = best;
        }
      }
    }
  });
  return {out, indices};
}

Tensor adaptive_max_pool2d_backward(const Tensor& grad_output, const Tensor& self,
                                    const Tensor& indices) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(adaptive_max_pool2d_backward, grad_output, self, indices);
  const char* op = "adaptive_max_pool2d_backward";
  if (self.dim() != 3 && self.dim() != 4) {
    throw std::invalid_argument(std::string(op) + "(): Expected 3D or 4D tensor, but got " +
                                shape_str(self.sizes()));
  }
  if (indices.scalar_type() != ScalarType::Long || indices.dim() != self.dim()) {
    throw std::invalid_argument(std::string(op) + ": expected Long indices of " +
                                std::to_string(self.dim()) + " dims, got " +
                                to_string(indices.scalar_type()) + " of size " +
                                shape_str(indices.sizes()));
  }
  check_grad_output_nonempty(op, grad_output);
  const Adaptive g = adaptive_geometry(op, self, {indices.size(-2), indices.size(-1)}, 3);
  if (!indices.sizes().equals(g.out_shape)) {
    throw std::invalid_argument(std::string(op) + ": expected indices of size " +
                                shape_str(g.out_shape) + ", got " + shape_str(indices.sizes()));
  }
  check_pool_grad_output(op, grad_output, g.out_shape, self);
  return scatter_pool_indices(op, grad_output, indices, self, g.planes, g.H * g.W);
}

std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self, IntArrayRef output_size) {
  return in_composite_op("adaptive_max_pool1d", [&] {
    const char* op = "adaptive_max_pool1d";
    check_1d_input(op, self);
    const int64_t size = one_int(op, "output_size", output_size);
    for (int64_t d = 1; d < self.dim(); ++d) {
      if (self.size(d) == 0) {
        throw std::invalid_argument(
            "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch "
            "dimensions, but input has sizes " +
            shape_str(self.sizes()) + " with dimension " + std::to_string(d) + " being empty");
      }
    }
    auto [out, indices] = gradgen::adaptive_max_pool2d(gradgen::unsqueeze(self, -2), {1, size});
    return std::tuple<Tensor, Tensor>{gradgen::squeeze(out, -2), gradgen::squeeze(indices, -2)};
  });
}

Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad) {
  return in_composite_op("avg_pool1d", [&] {
    const char* op = "avg_pool1d";
    if (stride.empty()) stride = kernel_size;
    check_1d_input(op, self);
    const int64_t k = one_int(op, "kernel_size", kernel_size);
    const int64_t s = one_int(op, "stride", stride);
    const int64_t p = one_int(op, "padding", padding);
    const Tensor out = gradgen::avg_pool2d(gradgen::unsqueeze(self, -2), {1, k}, {1, s}, {0, p},
                                           ceil_mode, count_include_pad, std::nullopt);
    return gradgen::squeeze(out, -2);
  });
}

}  // namespace native
}  // namespace gradgen
