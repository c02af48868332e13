// Kernels of the 3-D pooling ops and max_unpool2d / 3d (nn, issue 26's remaining ops):
// max_pool3d_with_indices and avg_pool3d with their backward ops, the composite max_pool3d, and
// max_unpool2d / max_unpool3d. Inputs are [N, C, D, H, W] or unbatched [C, D, H, W]; each (sample,
// channel) volume is pooled on its own. Output sizes and ceil_mode follow PyTorch's
// pooling_output_shape (a last window that would start in the padding is dropped); padding is at
// most half the kernel (pool3d_shape_check). A window holding NaN takes its last NaN (value and
// index), as PyTorch's CPU kernel, whose test is `val > max || isnan(val)`.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/pooling_common.h"
#include "csrc/native/type_promotion.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::in_composite_op;
using Triple = std::array<int64_t, 3>;

struct Pool3 {
  int64_t planes;
  Triple in, out, k, s, p, d;
  DimVector out_shape;
  int64_t in_volume() const { return in[0] * in[1] * in[2]; }
  int64_t out_volume() const { return out[0] * out[1] * out[2]; }
};

Triple three(const char* op, const char* name, IntArrayRef v, IntArrayRef fallback) {
  if (v.empty()) v = fallback;
  if (v.size() == 1) return {v[0], v[0], v[0]};
  if (v.size() == 3) return {v[0], v[1], v[2]};
  throw std::invalid_argument(std::string(op) + ": " + name +
                              " must either be a single int, or a tuple of three ints");
}

std::string triple_str(const Triple& t) {
  return std::to_string(t[0]) + "x" + std::to_string(t[1]) + "x" + std::to_string(t[2]);
}

/// The geometry of a 3-D pool; `max` selects max_pool3d's checks (dilation, its padding message)
/// over avg_pool3d's.
Pool3 pool3_geometry(const char* op, const Tensor& self, IntArrayRef kernel_size,
                     IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                     bool max) {
  bool ok = self.dim() == 4 || self.dim() == 5;
  for (int64_t d = self.dim() - 4; ok && d < self.dim(); ++d) ok = self.size(d) != 0;
  if (!ok) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected 4D or 5D (batch mode) tensor with optional 0 dim "
                                "batch size and non-zero other dims for input, but got: " +
                                shape_str(self.sizes()));
  }
  Pool3 g;
  g.k = three(op, "kernel_size", kernel_size, kernel_size);
  g.s = three(op, "stride", stride, kernel_size);
  g.p = three(op, "padding", padding, padding);
  g.d = three(op, "dilation", dilation, dilation);
  for (int i = 0; i < 3; ++i) {
    if (g.s[i] == 0) throw std::invalid_argument(std::string(op) + ": stride should not be zero");
  }
  for (int i = 0; i < 3; ++i) {
    if (g.k[i] <= 0 || g.s[i] <= 0 || g.d[i] <= 0) {
      throw std::invalid_argument(
          std::string(op) +
          ": kernel size, stride and dilation should be greater than zero, but "
          "got kernel_size " +
          triple_str(g.k) + ", stride " + triple_str(g.s) + " and dilation " + triple_str(g.d));
    }
    if (g.p[i] < 0 || g.p[i] > g.k[i] / 2) {
      throw std::invalid_argument(
          std::string(op) +
          (max ? ": pad should be smaller than or equal to half of kernel size, but got kT: " +
                     std::to_string(g.k[0]) + " kW: " + std::to_string(g.k[2]) +
                     " kH: " + std::to_string(g.k[1]) + " padT: " + std::to_string(g.p[0]) +
                     " padW: " + std::to_string(g.p[2]) + " padH: " + std::to_string(g.p[1])
               : ": pad should be at most half of effective kernel size, but got pad=" +
                     std::to_string(g.p[i]) + ", kernel_size=" + std::to_string(g.k[i]) +
                     " and dilation=1"));
    }
  }
  const int64_t nd = self.dim();
  for (int i = 0; i < 3; ++i) {
    g.in[i] = self.size(nd - 3 + i);
    g.out[i] = pool_output_size(g.in[i], g.k[i], g.p[i], g.s[i], g.d[i], ceil_mode);
  }
  if (g.out[0] < 1 || g.out[1] < 1 || g.out[2] < 1) {
    const std::string c = std::to_string(self.size(nd - 4));
    throw std::invalid_argument(std::string(op) + ": Given input size: (" + c + "x" +
                                triple_str(g.in) + "). Calculated output size: (" + c + "x" +
                                triple_str(g.out) + "). Output size is too small");
  }
  g.planes = self.numel() / g.in_volume();
  g.out_shape = DimVector(self.sizes().begin(), self.sizes().end());
  for (int i = 0; i < 3; ++i) g.out_shape[static_cast<size_t>(nd - 3 + i)] = g.out[i];
  return g;
}

/// avg_pool3d's window of output position o (one axis): its clipped bounds and its unclipped
/// length (the padding counted, as PyTorch's pool_size).
struct Span {
  int64_t lo, hi, padded;
};

Span avg_span(const Pool3& g, int axis, int64_t o) {
  int64_t lo = o * g.s[axis] - g.p[axis];
  int64_t hi = std::min(lo + g.k[axis], g.in[axis] + g.p[axis]);
  const int64_t padded = hi - lo;
  return {std::max<int64_t>(lo, 0), std::min(hi, g.in[axis]), padded};
}

void check_divisor(const char* op, std::optional<int64_t> divisor_override) {
  if (divisor_override.has_value() && *divisor_override == 0) {
    throw std::invalid_argument(std::string(op) + ": divisor must be not zero");
  }
}

/// Calls f(plane offset in, plane offset out, t0, t1, h0, h1, w0, w1, divisor, output index)
/// for every output position of an avg_pool3d.
template <typename F>
void for_each_avg_window(const Pool3& g, bool count_include_pad,
                         std::optional<int64_t> divisor_override, F&& f) {
  const int64_t V = g.in_volume(), OV = g.out_volume();
  for (int64_t p = 0; p < g.planes; ++p) {
    for (int64_t ot = 0; ot < g.out[0]; ++ot) {
      const Span t = avg_span(g, 0, ot);
      for (int64_t oh = 0; oh < g.out[1]; ++oh) {
        const Span h = avg_span(g, 1, oh);
        for (int64_t ow = 0; ow < g.out[2]; ++ow) {
          const Span w = avg_span(g, 2, ow);
          const int64_t divisor =
              divisor_override.has_value()
                  ? *divisor_override
                  : (count_include_pad ? t.padded * h.padded * w.padded
                                       : (t.hi - t.lo) * (h.hi - h.lo) * (w.hi - w.lo));
          f(p * V, t, h, w, divisor, p * OV + (ot * g.out[1] + oh) * g.out[2] + ow);
        }
      }
    }
  }
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(max_pool3d_with_indices, self, kernel_size, stride, padding,
                                   dilation, ceil_mode);
  const char* op = "max_pool3d_with_indices";
  const Pool3 g = pool3_geometry(op, self, kernel_size, stride, padding, dilation, ceil_mode, true);
  const Tensor x = self.contiguous();
  Tensor out = make_tensor(g.out_shape, self.scalar_type());
  Tensor indices = make_tensor(g.out_shape, ScalarType::Long);
  int64_t* pi = indices.data_ptr<int64_t>();
  const int64_t V = g.in_volume(), H = g.in[1], W = g.in[2];
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    int64_t o = 0;
    for (int64_t p = 0; p < g.planes; ++p) {
      const T* vol = px + p * V;
      for (int64_t ot = 0; ot < g.out[0]; ++ot) {
        int64_t t0 = ot * g.s[0] - g.p[0];
        const int64_t t1 = std::min(t0 + (g.k[0] - 1) * g.d[0] + 1, g.in[0]);
        while (t0 < 0) t0 += g.d[0];
        for (int64_t oh = 0; oh < g.out[1]; ++oh) {
          int64_t h0 = oh * g.s[1] - g.p[1];
          const int64_t h1 = std::min(h0 + (g.k[1] - 1) * g.d[1] + 1, H);
          while (h0 < 0) h0 += g.d[1];
          for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
            int64_t w0 = ow * g.s[2] - g.p[2];
            const int64_t w1 = std::min(w0 + (g.k[2] - 1) * g.d[2] + 1, W);
            while (w0 < 0) w0 += g.d[2];
            int64_t best = (t0 * H + h0) * W + w0;
            T m = -std::numeric_limits<T>::infinity();
            for (int64_t t = t0; t < t1; t += g.d[0]) {
              for (int64_t h = h0; h < h1; h += g.d[1]) {
                for (int64_t w = w0; w < w1; w += g.d[2]) {
                  const int64_t i = (t * H + h) * W + w;
                  const T v = vol[i];
                  if (v > m || std::isnan(v)) {
                    m = v;
                    best = i;
                  }
                }
              }
            }
            po[o] = m;
            pi[o] = best;
          }
        }
      }
    }
  });
  return {out, indices};
}

Tensor max_pool3d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                        IntArrayRef kernel_size, IntArrayRef stride,
                                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                                        const Tensor& indices) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(max_pool3d_with_indices_backward, grad_output, self, kernel_size,
                                   stride, padding, dilation, ceil_mode, indices);
  const char* op = "max_pool3d_with_indices_backward";
  const Pool3 g = pool3_geometry(op, self, kernel_size, stride, padding, dilation, ceil_mode, true);
  check_pool_grad_output(op, grad_output, g.out_shape, self);
  if (indices.scalar_type() != ScalarType::Long || !indices.sizes().equals(g.out_shape)) {
    throw std::invalid_argument(
        std::string(op) + ": expected Long indices of size " + shape_str(g.out_shape) + ", got " +
        to_string(indices.scalar_type()) + " of size " + shape_str(indices.sizes()));
  }
  return scatter_pool_indices(op, grad_output, indices, self, g.planes, g.in_volume());
}

std::tuple<Tensor&, Tensor&> max_pool3d_with_indices_out(const Tensor& self,
                                                         IntArrayRef kernel_size,
                                                         IntArrayRef stride, IntArrayRef padding,
                                                         IntArrayRef dilation, bool ceil_mode,
                                                         Tensor& out, Tensor& indices) {
  return write_pair("max_pool3d_with_indices.out",
                    native::max_pool3d_with_indices(self, kernel_size, stride, padding, dilation,
                                                    ceil_mode),
                    out, indices);
}

Tensor& max_pool3d_with_indices_backward_out(const Tensor& grad_output, const Tensor& self,
                                             IntArrayRef kernel_size, IntArrayRef stride,
                                             IntArrayRef padding, IntArrayRef dilation,
                                             bool ceil_mode, const Tensor& indices,
                                             Tensor& grad_input) {
  return write_out("max_pool3d_with_indices_backward.grad_input",
                   native::max_pool3d_with_indices_backward(grad_output, self, kernel_size, stride,
                                                            padding, dilation, ceil_mode, indices),
                   grad_input);
}

Tensor max_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return in_composite_op("max_pool3d", [&] {
    return std::get<0>(
        gradgen::max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
  });
}

Tensor avg_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  refuse_reduced_float("avg_pool3d_out_frame", self);  // as PyTorch 2.13's CPU kernel
  const char* op = "avg_pool3d";
  check_divisor(op, divisor_override);
  const Pool3 g = pool3_geometry(op, self, kernel_size, stride, padding, {1}, ceil_mode, false);
  const Tensor x = self.contiguous();
  Tensor out = make_tensor(g.out_shape, self.scalar_type());
  const int64_t H = g.in[1], W = g.in[2];
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for_each_avg_window(g, count_include_pad, divisor_override,
                        [&](int64_t base, const Span& t, const Span& h, const Span& w,
                            int64_t divisor, int64_t o) {
                          double sum = 0;
                          for (int64_t a = t.lo; a < t.hi; ++a) {
                            for (int64_t b = h.lo; b < h.hi; ++b) {
                              for (int64_t c = w.lo; c < w.hi; ++c) {
                                sum += px[base + (a * H + b) * W + c];
                              }
                            }
                          }
                          po[o] = static_cast<T>(sum / static_cast<double>(divisor));
                        });
  });
  return out;
}

Tensor& avg_pool3d_out(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                       IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                       std::optional<int64_t> divisor_override, Tensor& out) {
  return write_out("avg_pool3d.out",
                   native::avg_pool3d(self, kernel_size, stride, padding, ceil_mode,
                                      count_include_pad, divisor_override),
                   out);
}

Tensor avg_pool3d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                           IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad, std::optional<int64_t> divisor_override) {
  refuse_reduced_float("avg_pool3d_backward_out_frame", self);  // as PyTorch 2.13's
  const char* op = "avg_pool3d_backward";
  check_divisor(op, divisor_override);
  const Pool3 g = pool3_geometry(op, self, kernel_size, stride, padding, {1}, ceil_mode, false);
  check_pool_grad_output(op, grad_output, g.out_shape, self);
  const Tensor go = grad_output.contiguous();
  Tensor gi = zeros(self.sizes(), self.scalar_type());
  const int64_t H = g.in[1], W = g.in[2];
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* pg = go.data_ptr<T>();
    T* px = gi.data_ptr<T>();
    for_each_avg_window(g, count_include_pad, divisor_override,
                        [&](int64_t base, const Span& t, const Span& h, const Span& w,
                            int64_t divisor, int64_t o) {
                          const T v = pg[o] / static_cast<T>(divisor);
                          for (int64_t a = t.lo; a < t.hi; ++a) {
                            for (int64_t b = h.lo; b < h.hi; ++b) {
                              for (int64_t c = w.lo; c < w.hi; ++c) {
                                px[base + (a * H + b) * W + c] += v;
                              }
                            }
                          }
                        });
  });
  return gi;
}

Tensor& avg_pool3d_backward_out(const Tensor& grad_output, const Tensor& self,
                                IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                                bool ceil_mode, bool count_include_pad,
                                std::optional<int64_t> divisor_override, Tensor& grad_input) {
  return write_out("avg_pool3d_backward.grad_input",
                   native::avg_pool3d_backward(grad_output, self, kernel_size, stride, padding,
                                               ceil_mode, count_include_pad, divisor_override),
                   grad_input);
}

// max_unpool{2,3}d's work once the arguments are checked: zeros of the input's shape with its
// last output_size.size() dims replaced by output_size, each input element written at its index
// of its (sample, channel) plane or volume (the last of equal indices wins, as PyTorch's loop).
static Tensor unpool_scatter(const char* op, const Tensor& self, const Tensor& indices,
                             IntArrayRef output_size) {
  const auto spatial = static_cast<int64_t>(output_size.size());
  DimVector shape(self.sizes().begin(), self.sizes().end());
  int64_t in_plane = 1, out_plane = 1;
  std::string volume_str;
  for (int64_t d = 0; d < spatial; ++d) {
    in_plane *= self.size(self.dim() - spatial + d);
    out_plane *= output_size[d];
    shape[shape.size() - spatial + d] = output_size[d];
    volume_str += (d ? "x" : "") + std::to_string(output_size[d]);
  }
  const Tensor x = self.contiguous(), idx = indices.contiguous();
  Tensor out = zeros(shape, self.scalar_type());
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    // An empty output takes nothing (PyTorch returns before reading the indices).
    if (out.numel() == 0 || in_plane == 0) return;
    const int64_t planes = self.numel() / in_plane;
    const int64_t* pi = idx.data_ptr<int64_t>();
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t p = 0; p < planes; ++p) {
      for (int64_t k = 0; k < in_plane; ++k) {
        const int64_t i = pi[p * in_plane + k];
        if (i < 0 || i >= out_plane) {
          throw std::runtime_error(std::string(op) +
                                   ": Found an invalid max index: " + std::to_string(i) +
                                   " (output volumes are of size " + volume_str + ")");
        }
        po[p * out_plane + i] = px[p * in_plane + k];
      }
    }
  });
  return out;
}

Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntArrayRef output_size) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(max_unpool2d, self, indices, output_size);
  const char* op = "max_unpool2d";
  if (indices.scalar_type() != ScalarType::Long) {
    throw std::invalid_argument(
        std::string(op) +
        ": elements in indices should be type int64 but got: " + to_string(indices.scalar_type()));
  }
  if (output_size.size() != 2) {
    throw std::invalid_argument(std::string(op) +
                                ": There should be exactly two elements (height, width) in "
                                "output_size, but got " +
                                std::to_string(output_size.size()) + " elements.");
  }
  if (self.dim() != 3 && self.dim() != 4) {
    throw std::invalid_argument(std::string(op) +
                                ": Input to max_unpooling2d should be a 3d or 4d Tensor, but got "
                                "a tensor with " +
                                std::to_string(self.dim()) + " dimensions.");
  }
  if (!self.sizes().equals(indices.sizes())) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected shape of indices to be same as that of the input "
                                "tensor (" +
                                shape_str(self.sizes()) + ") but got indices tensor with shape: " +
                                shape_str(indices.sizes()));
  }
  for (int64_t d = self.dim() - 3; d < self.dim(); ++d) {
    if (self.size(d) == 0) {
      throw std::invalid_argument(std::string(op) +
                                  ": Expected input to have non-zero size for non-batch "
                                  "dimensions, but got " +
                                  shape_str(self.sizes()) + " with dimension " + std::to_string(d) +
                                  " being empty.");
    }
  }
  return unpool_scatter(op, self, indices, output_size);
}

Tensor& max_unpool2d_out(const Tensor& self, const Tensor& indices, IntArrayRef output_size,
                         Tensor& out) {
  return write_out("max_unpool2d.out", native::max_unpool2d(self, indices, output_size), out);
}

namespace {

// PyTorch's max_unpooling3d_shape_check for the forward op: stride and padding are only
// checked (the indices alone place the elements).
void check_unpool3d_args(const char* op, const Tensor& self, const Tensor& indices,
                         IntArrayRef output_size, IntArrayRef stride, IntArrayRef padding) {
  auto fail = [op](const std::string& what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
  };
  if (indices.scalar_type() != ScalarType::Long) {
    fail(std::string("elements in indices should be type int64 but got: ") +
         to_string(indices.scalar_type()));
  }
  if (self.dim() != 4 && self.dim() != 5) {
    fail("Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with " +
         std::to_string(self.dim()) + " dimensions.");
  }
  const std::pair<const char*, IntArrayRef> triples[] = {{"output_size", output_size},
                                                         {"stride", stride},
                                                         {"padding", padding}};
  for (const auto& [name, v] : triples) {
    if (v.size() != 3) {
      fail(std::string("There should be exactly three elements (depth, height, width) in ") + name +
           ", but got " + std::to_string(v.size()) + " elements.");
    }
  }
  if (!self.sizes().equals(indices.sizes())) {
    fail("Expected shape of indices to be same as that of the input tensor (" +
         shape_str(self.sizes()) +
         ") but got indices tensor with shape: " + shape_str(indices.sizes()));
  }
  // Dim 0 (the batch, or an unbatched input's channels) may be empty, as PyTorch's check.
  for (int64_t d = 1; d < self.dim(); ++d) {
    if (self.size(d) == 0) {
      fail("Expected input to have non-zero size for non-batch dimensions, but got " +
           shape_str(self.sizes()) + " with dimension " + std::to_string(d) + " being empty.");
    }
  }
  if (stride[0] <= 0 || stride[1] <= 0 || stride[2] <= 0) {
    fail("strides should be greater than zero, but got stride: " + shape_str(stride));
  }
  if (output_size[0] < 0 || output_size[1] < 0 || output_size[2] < 0) {
    fail("output_size must contain non-negative spatial dimensions, but got output_size=" +
         shape_str(output_size));
  }
}

}  // namespace

Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntArrayRef output_size,
                    IntArrayRef stride, IntArrayRef padding) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(max_unpool3d, self, indices, output_size, stride, padding);
  const char* op = "max_unpool3d";
  check_unpool3d_args(op, self, indices, output_size, stride, padding);
  return unpool_scatter(op, self, indices, output_size);
}

Tensor& max_unpool3d_out(const Tensor& self, const Tensor& indices, IntArrayRef output_size,
                         IntArrayRef stride, IntArrayRef padding, Tensor& out) {
  return write_out("max_unpool3d.out",
                   native::max_unpool3d(self, indices, output_size, stride, padding), out);
}

}  // namespace native
}  // namespace gradgen
