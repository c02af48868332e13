// Kernels of the pooling ops (nn, second batch): max_pool2d_with_indices and avg_pool2d with
// their backward ops, and the composites max_pool2d, max_pool1d and max_pool1d_with_indices.
// Inputs are [N, C, H, W] or unbatched [C, H, W] (the 1-D ones [N, C, L] or [C, L], pooled as
// [.., 1, L]); each (sample, channel) plane is pooled on its own. Output sizes, padding
// limits and ceil_mode follow PyTorch's pooling_output_shape: with ceil_mode, a last window
// that would start in the right / bottom padding is dropped.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/gemm.h"
#include "csrc/native/loops.h"
#include "csrc/native/pooling_common.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/simd/nn_kernels.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::in_composite_op;

struct Pool {
  int64_t planes, H, W, OH, OW;
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  DimVector out_shape;
};

std::vector<int64_t> two(const char* op, const char* name, IntArrayRef v, IntArrayRef fallback) {
  if (v.empty()) v = fallback;
  if (v.size() == 1) return {v[0], v[0]};
  if (v.size() == 2) return {v[0], v[1]};
  throw std::invalid_argument(std::string(op) + ": " + name +
                              " must either be a single int, or a tuple of two ints");
}

Pool pool_geometry(const char* op, const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  if (self.dim() != 3 && self.dim() != 4) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected 3D or 4D (batch mode) tensor for input, got " +
                                shape_str(self.sizes()));
  }
  for (int64_t d = 1; d < self.dim(); ++d) {
    if (self.size(d) == 0) {
      throw std::invalid_argument(std::string(op) +
                                  ": Expected 3D or 4D (batch mode) tensor with optional 0 dim "
                                  "batch size for input, but got: " +
                                  shape_str(self.sizes()));
    }
  }
  const auto k = two(op, "kernel_size", kernel_size, kernel_size);
  const auto s = two(op, "stride", stride, kernel_size);
  const auto p = two(op, "padding", padding, padding);
  const auto dl = two(op, "dilation", dilation, dilation);
  if (k[0] <= 0 || k[1] <= 0) {
    throw std::invalid_argument(std::string(op) +
                                ": kernel_size should be greater than zero, but got kH: " +
                                std::to_string(k[0]) + " kW: " + std::to_string(k[1]));
  }
  if (s[0] <= 0 || s[1] <= 0) {
    throw std::invalid_argument(std::string(op) +
                                ": stride should be greater than zero, but got dH: " +
                                std::to_string(s[0]) + " dW: " + std::to_string(s[1]));
  }
  if (dl[0] <= 0 || dl[1] <= 0) {
    throw std::invalid_argument(std::string(op) +
                                ": dilation should be greater than zero, but got dilationH: " +
                                std::to_string(dl[0]) + " dilationW: " + std::to_string(dl[1]));
  }
  for (int i = 0; i < 2; ++i) {
    if (p[i] < 0 || p[i] > (dl[i] * (k[i] - 1) + 1) / 2) {
      throw std::invalid_argument(std::string(op) +
                                  ": pad should be at most half of effective kernel size, but "
                                  "got pad=" +
                                  std::to_string(p[i]) + ", kernel_size=" + std::to_string(k[i]) +
                                  " and dilation=" + std::to_string(dl[i]));
    }
  }
  Pool g;
  g.H = self.size(-2);
  g.W = self.size(-1);
  g.planes = self.numel() / (g.H * g.W);
  g.kh = k[0], g.kw = k[1], g.sh = s[0], g.sw = s[1], g.ph = p[0], g.pw = p[1], g.dh = dl[0],
  g.dw = dl[1];
  g.OH = pool_output_size(g.H, g.kh, g.ph, g.sh, g.dh, ceil_mode);
  g.OW = pool_output_size(g.W, g.kw, g.pw, g.sw, g.dw, ceil_mode);
  if (g.OH < 1 || g.OW < 1) {
    throw std::invalid_argument(std::string(op) + ": Given input size: (" +
                                std::to_string(self.size(-3)) + "x" + std::to_string(g.H) + "x" +
                                std::to_string(g.W) + "). Calculated output size: (" +
                                std::to_string(self.size(-3)) + "x" + std::to_string(g.OH) + "x" +
                                std::to_string(g.OW) + "). Output size is too small");
  }
  g.out_shape = DimVector(self.sizes().begin(), self.sizes().end());
  g.out_shape[g.out_shape.size() - 2] = g.OH;
  g.out_shape[g.out_shape.size() - 1] = g.OW;
  return g;
}

/// avg_pool2d's window of output (oh, ow): its clipped bounds and its divisor.
struct Window {
  int64_t h0, h1, w0, w1, divisor;
};

Window avg_window(const Pool& g, int64_t oh, int64_t ow, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  int64_t h0 = oh * g.sh - g.ph, w0 = ow * g.sw - g.pw;
  int64_t h1 = std::min(h0 + g.kh, g.H + g.ph), w1 = std::min(w0 + g.kw, g.W + g.pw);
  const int64_t pool_size = (h1 - h0) * (w1 - w0);
  h0 = std::max<int64_t>(h0, 0);
  w0 = std::max<int64_t>(w0, 0);
  h1 = std::min(h1, g.H);
  w1 = std::min(w1, g.W);
  const int64_t divisor = divisor_override.has_value()
                              ? *divisor_override
                              : (count_include_pad ? pool_size : (h1 - h0) * (w1 - w0));
  return {h0, h1, w0, w1, divisor};
}

void check_divisor(const char* op, std::optional<int64_t> divisor_override) {
  if (divisor_override.has_value() && *divisor_override == 0) {
    throw std::invalid_argument(std::string(op) + ": divisor must be not zero");
  }
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(max_pool2d_with_indices, self, kernel_size, stride, padding,
                                   dilation, ceil_mode);
  const char* op = "max_pool2d_with_indices";
  const Pool g = pool_geometry(op, self, kernel_size, stride, padding, dilation, ceil_mode);
  const Tensor x = self.contiguous();
  Tensor out = make_tensor(g.out_shape, self.scalar_type());
  Tensor indices = make_tensor(g.out_shape, ScalarType::Long);
  int64_t* pi = indices.data_ptr<int64_t>();
  // The first maximum of each window wins; a NaN wins over numbers (the last NaN, as PyTorch's
  // loop, which keeps comparing). The vectorized kernel (csrc/native/simd/nn_kernels.h), planes
  // split across the intra-op threads.
  const vec::MaxPoolGeometry geometry{g.H,  g.W,  g.OH, g.OW, g.kh, g.kw,
                                      g.sh, g.sw, g.ph, g.pw, g.dh, g.dw};
  const int64_t plane_work = std::max<int64_t>(g.OH * g.OW * g.kh * g.kw, 1);
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    parallel_for(g.planes, std::max<int64_t>(1, kParallelGrain / plane_work), 1,
                 [&](int64_t p0, int64_t p1) {
                   vec::max_pool2d_planes(px + p0 * g.H * g.W, geometry, p1 - p0,
                                          po + p0 * g.OH * g.OW, pi + p0 * g.OH * g.OW);
                 });
  });
  return {out, indices};
}

Tensor max_pool2d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                        IntArrayRef kernel_size, IntArrayRef stride,
                                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                                        const Tensor& indices) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(max_pool2d_with_indices_backward, grad_output, self, kernel_size,
                                   stride, padding, dilation, ceil_mode, indices);
  const char* op = "max_pool2d_with_indices_backward";
  const Pool g = pool_geometry(op, self, kernel_size, stride, padding, dilation, ceil_mode);
  check_pool_grad_output(op, grad_output, g.out_shape, self);
  if (indices.scalar_type() != ScalarType::Long || !indices.sizes().equals(g.out_shape)) {
    throw std::invalid_argument(
        std::string(op) + ": expected Long indices of size " + shape_str(g.out_shape) + ", got " +
        to_string(indices.scalar_type()) + " of size " + shape_str(indices.sizes()));
  }
  return scatter_pool_indices(op, grad_output, indices, self, g.planes, g.H * g.W);
}

Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return in_composite_op("max_pool2d", [&] {
    return std::get<0>(
        gradgen::max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
  });
}

Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return in_composite_op("max_pool1d", [&] {
    if (self.dim() != 2 && self.dim() != 3) {
      throw std::invalid_argument("max_pool1d() Expected 2D or 3D input tensor, but got " +
                                  shape_str(self.sizes()));
    }
    auto one = [](const char* name, IntArrayRef v, IntArrayRef fallback) -> int64_t {
      if (v.empty()) v = fallback;
      if (v.size() != 1) {
        throw std::invalid_argument(std::string("max_pool1d() ") + name +
                                    " must be an int or int list of size 1 but got size " +
                                    std::to_string(v.size()));
      }
      return v[0];
    };
    const int64_t k = one("kernel_size", kernel_size, kernel_size);
    const int64_t s = one("stride", stride, kernel_size);
    const int64_t p = one("padding", padding, padding);
    const int64_t d = one("dilation", dilation, dilation);
    const Tensor out = gradgen::max_pool2d(gradgen::unsqueeze(self, -2), {1, k}, {1, s}, {0, p},
                                           {1, d}, ceil_mode);
    return gradgen::squeeze(out, -2);
  });
}

std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  return in_composite_op("max_pool1d_with_indices", [&] {
    // PyTorch's checks and words (its max_pool1d_with_indices names max_pool1d).
    if (self.dim() != 2 && self.dim() != 3) {
      throw std::invalid_argument("Expected 2 to 3 dimensions, but got " +
                                  std::to_string(self.dim()) +
                                  "-dimensional tensor for argument #1 'self' (while checking "
                                  "arguments for max_pool1d)");
    }
    auto one = [](const char* name, IntArrayRef v, IntArrayRef fallback) -> int64_t {
      if (v.empty()) v = fallback;
      if (v.size() != 1) {
        throw std::invalid_argument(std::string("max_pool1d() argument '") + name +
                                    "' should contain one int (got " + std::to_string(v.size()) +
                                    ")");
      }
      return v[0];
    };
    const int64_t k = one("kernel_size", kernel_size, kernel_size);
    const int64_t s = one("stride", stride, kernel_size);
    const int64_t p = one("padding", padding, padding);
    const int64_t d = one("dilation", dilation, dilation);
    // The window's positions within the 1 x L plane are positions along L.
    auto [out, indices] = gradgen::max_pool2d_with_indices(gradgen::unsqueeze(self, -2), {1, k},
                                                           {1, s}, {0, p}, {1, d}, ceil_mode);
    return std::tuple<Tensor, Tensor>{gradgen::squeeze(out, -2), gradgen::squeeze(indices, -2)};
  });
}

Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(avg_pool2d, self, kernel_size, stride, padding, ceil_mode,
                                   count_include_pad, divisor_override);
  const char* op = "avg_pool2d";
  check_divisor(op, divisor_override);
  const Pool g = pool_geometry(op, self, kernel_size, stride, padding, {1}, ceil_mode);
  const Tensor x = self.contiguous();
  Tensor out = make_tensor(g.out_shape, self.scalar_type());
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t p = 0; p < g.planes; ++p) {
      const T* plane = px + p * g.H * g.W;
      for (int64_t oh = 0; oh < g.OH; ++oh) {
        for (int64_t ow = 0; ow < g.OW; ++ow) {
          const Window win = avg_window(g, oh, ow, count_include_pad, divisor_override);
          double sum = 0;
          for (int64_t h = win.h0; h < win.h1; ++h) {
            for (int64_t w = win.w0; w < win.w1; ++w) sum += plane[h * g.W + w];
          }
          po[(p * g.OH + oh) * g.OW + ow] = static_cast<T>(sum / win.divisor);
        }
      }
    }
  });
  return out;
}

Tensor avg_pool2d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                           IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad, std::optional<int64_t> divisor_override) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(avg_pool2d_backward, grad_output, self, kernel_size, stride,
                                   padding, ceil_mode, count_include_pad, divisor_override);
  const char* op = "avg_pool2d_backward";
  check_divisor(op, divisor_override);
  const Pool g = pool_geometry(op, self, kernel_size, stride, padding, {1}, ceil_mode);
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
        for (int64_t ow = 0; ow < g.OW; ++ow) {
          const Window win = avg_window(g, oh, ow, count_include_pad, divisor_override);
          const T v = pg[(p * g.OH + oh) * g.OW + ow] / static_cast<T>(win.divisor);
          for (int64_t h = win.h0; h < win.h1; ++h) {
            for (int64_t w = win.w0; w < win.w1; ++w) plane[h * g.W + w] += v;
          }
        }
      }
    }
  });
  return gi;
}

}  // namespace native
}  // namespace gradgen
