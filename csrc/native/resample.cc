// Resampling kernels (nn, third batch): pixel_shuffle / pixel_unshuffle, upsample_nearest1d/2d
// and upsample_bilinear2d with their backward ops. Inputs are [N, C, L] (1-D) or [N, C, H, W]
// (2-D); every (sample, channel) plane is resampled on its own. Source positions follow
// PyTorch's UpSample.h: nearest takes floor(dst * scale) in float (scale 1 / scales when given,
// else in / out; out == in and out == 2 * in exactly), bilinear takes
// scale * (dst + 0.5) - 0.5 clamped at 0 (align_corners: dst * (in - 1) / (out - 1)) and blends
// the two neighbours.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"
#include "csrc/ops.h"

namespace gradgen {
namespace native {

namespace {

/// One output axis: output position o reads w0[o] * in[i0[o]] + w1[o] * in[i1[o]].
struct Axis {
  std::vector<int64_t> i0, i1;
  std::vector<double> w0, w1;
};

double scale_value(std::optional<double> scales, int64_t in, int64_t out) {
  return scales.has_value() && *scales > 0 ? 1.0 / *scales
                                           : static_cast<double>(in) / static_cast<double>(out);
}

Axis nearest_axis(int64_t in, int64_t out, std::optional<double> scales) {
  Axis a;
  const float scale = static_cast<float>(scale_value(scales, in, out));
  for (int64_t o = 0; o < out; ++o) {
    int64_t i = o;
    if (out == 2 * in) {
      i = o >> 1;
    } else if (out != in) {
      i = std::min(static_cast<int64_t>(std::floor(static_cast<float>(o) * scale)), in - 1);
    }
    a.i0.push_back(i);
    a.i1.push_back(i);
    a.w0.push_back(1.0);
    a.w1.push_back(0.0);
  }
  return a;
}

Axis linear_axis(int64_t in, int64_t out, bool align_corners, std::optional<double> scales) {
  Axis a;
  const double scale = align_corners ? (out > 1 ? static_cast<double>(in - 1) / (out - 1) : 0.0)
                                     : scale_value(scales, in, out);
  for (int64_t o = 0; o < out; ++o) {
    if (out == in) {
      a.i0.push_back(o), a.i1.push_back(o), a.w0.push_back(1.0), a.w1.push_back(0.0);
      continue;
    }
    double real = align_corners ? scale * o : scale * (o + 0.5) - 0.5;
    if (!align_corners && real < 0) real = 0;
    const int64_t i = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
    const double lambda = std::min(std::max(real - static_cast<double>(i), 0.0), 1.0);
    a.i0.push_back(i);
    a.i1.push_back(i + (i < in - 1 ? 1 : 0));
    a.w0.push_back(1.0 - lambda);
    a.w1.push_back(lambda);
  }
  return a;
}

/// The checks of PyTorch's upsample_{1,2}d_common_check and of its kernels' meta functions.
void check_upsample(const char* op, IntArrayRef input_size, IntArrayRef output_size,
                    size_t spatial) {
  if (output_size.size() != spatial) {
    throw std::invalid_argument(std::string(op) + ": It is expected output_size equals to " +
                                std::to_string(spatial) + ", but got size " +
                                std::to_string(output_size.size()));
  }
  if (input_size.size() != spatial + 2) {
    throw std::invalid_argument(std::string(op) + ": It is expected input_size equals to " +
                                std::to_string(spatial + 2) + ", but got size " +
                                std::to_string(input_size.size()));
  }
  for (size_t d = 0; d < spatial; ++d) {
    if (input_size[2 + d] <= 0 || output_size[d] <= 0) {
      throw std::invalid_argument(std::string(op) +
                                  ": Input and output sizes should be greater than 0, but got "
                                  "input " +
                                  shape_str(input_size) + " and output " + shape_str(output_size));
    }
  }
}

void check_input(const char* op, const Tensor& self, size_t spatial) {
  bool ok = self.dim() == static_cast<int64_t>(spatial) + 2;
  for (int64_t d = 1; ok && d < self.dim(); ++d) ok = self.size(d) != 0;
  if (!ok) {
    throw std::invalid_argument(std::string(op) + ": Non-empty " + std::to_string(spatial + 2) +
                                "D data tensor expected but got a tensor with sizes " +
                                shape_str(self.sizes()));
  }
}

/// out[p, oh, ow] = sum of the 2 x 2 weighted neighbours of in[p] (backward: the transpose,
/// accumulated into in). H and W are the input's plane, rows / cols the output's axes.
Tensor resample(const char* op, const Tensor& src, IntArrayRef dst_shape, const Axis& rows,
                const Axis& cols, int64_t H, int64_t W, bool backward) {
  const Tensor x = src.contiguous();
  Tensor out = zeros(dst_shape, src.scalar_type());
  const int64_t OH = static_cast<int64_t>(rows.i0.size()),
                OW = static_cast<int64_t>(cols.i0.size());
  const int64_t planes = H * W == 0 ? 0 : (backward ? out.numel() : x.numel()) / (H * W);
  gradgen::internal::dispatch_floating(src.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t p = 0; p < planes; ++p) {
      for (int64_t oh = 0; oh < OH; ++oh) {
        const int64_t hs[2] = {rows.i0[oh], rows.i1[oh]};
        const double wh[2] = {rows.w0[oh], rows.w1[oh]};
        for (int64_t ow = 0; ow < OW; ++ow) {
          const int64_t ws[2] = {cols.i0[ow], cols.i1[ow]};
          const double ww[2] = {cols.w0[ow], cols.w1[ow]};
          const int64_t o = (p * OH + oh) * OW + ow;
          double acc = 0;
          for (int a = 0; a < 2; ++a) {
            for (int b = 0; b < 2; ++b) {
              const double w = wh[a] * ww[b];
              if (w == 0) continue;
              const int64_t i = (p * H + hs[a]) * W + ws[b];
              if (backward) {
                po[i] += static_cast<T>(w * static_cast<double>(px[o]));
              } else {
                acc += w * static_cast<double>(px[i]);
              }
            }
          }
          if (!backward) po[o] = static_cast<T>(acc);
        }
      }
    }
  });
  return out;
}

DimVector with_spatial(IntArrayRef sizes, IntArrayRef spatial) {
  DimVector s(sizes.begin(), sizes.end());
  for (size_t d = 0; d < spatial.size(); ++d) s[s.size() - spatial.size() + d] = spatial[d];
  return s;
}

void check_grad_output(const char* op, const Tensor& grad_output, IntArrayRef expected) {
  if (!grad_output.sizes().equals(expected)) {
    throw std::invalid_argument(
        std::string(op) + ": Expected grad_output to have the same shape as output " +
        shape_str(expected) + ", but got " + shape_str(grad_output.sizes()));
  }
}

}  // namespace

Tensor upsample_nearest1d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales) {
  const char* op = "upsample_nearest1d";
  check_input(op, self, 1);
  check_upsample(op, self.sizes(), output_size, 1);
  const int64_t L = self.size(2);
  return resample(op, self, with_spatial(self.sizes(), output_size), nearest_axis(1, 1, {}),
                  nearest_axis(L, output_size[0], scales), 1, L, false);
}

Tensor upsample_nearest1d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                   IntArrayRef input_size, std::optional<double> scales) {
  const char* op = "upsample_nearest1d_backward";
  check_upsample(op, input_size, output_size, 1);
  check_grad_output(op, grad_output, with_spatial(input_size, output_size));
  const int64_t L = input_size[2];
  return resample(op, grad_output, input_size, nearest_axis(1, 1, {}),
                  nearest_axis(L, output_size[0], scales), 1, L, true);
}

Tensor upsample_nearest2d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  const char* op = "upsample_nearest2d";
  check_input(op, self, 2);
  check_upsample(op, self.sizes(), output_size, 2);
  const int64_t H = self.size(2), W = self.size(3);
  return resample(op, self, with_spatial(self.sizes(), output_size),
                  nearest_axis(H, output_size[0], scales_h),
                  nearest_axis(W, output_size[1], scales_w), H, W, false);
}

Tensor upsample_nearest2d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                   IntArrayRef input_size, std::optional<double> scales_h,
                                   std::optional<double> scales_w) {
  const char* op = "upsample_nearest2d_backward";
  check_upsample(op, input_size, output_size, 2);
  check_grad_output(op, grad_output, with_spatial(input_size, output_size));
  const int64_t H = input_size[2], W = input_size[3];
  return resample(op, grad_output, input_size, nearest_axis(H, output_size[0], scales_h),
                  nearest_axis(W, output_size[1], scales_w), H, W, true);
}

Tensor upsample_bilinear2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                           std::optional<double> scales_h, std::optional<double> scales_w) {
  const char* op = "upsample_bilinear2d";
  check_input(op, self, 2);
  check_upsample(op, self.sizes(), output_size, 2);
  const int64_t H = self.size(2), W = self.size(3);
  return resample(op, self, with_spatial(self.sizes(), output_size),
                  linear_axis(H, output_size[0], align_corners, scales_h),
                  linear_axis(W, output_size[1], align_corners, scales_w), H, W, false);
}

Tensor upsample_bilinear2d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                    IntArrayRef input_size, bool align_corners,
                                    std::optional<double> scales_h,
                                    std::optional<double> scales_w) {
  const char* op = "upsample_bilinear2d_backward";
  check_upsample(op, input_size, output_size, 2);
  check_grad_output(op, grad_output, with_spatial(input_size, output_size));
  const int64_t H = input_size[2], W = input_size[3];
  return resample(op, grad_output, input_size,
                  linear_axis(H, output_size[0], align_corners, scales_h),
                  linear_axis(W, output_size[1], align_corners, scales_w), H, W, true);
}

namespace {

/// pixel_shuffle (shuffle) or pixel_unshuffle of the last three dims by r.
Tensor shuffle_pixels(const char* op, const char* factor_name, const Tensor& self, int64_t r,
                      bool shuffle) {
  if (self.dim() < 3) {
    throw std::invalid_argument(std::string(op) +
                                " expects input to have at least 3 dimensions, but got input "
                                "with " +
                                std::to_string(self.dim()) + " dimension(s)");
  }
  if (r <= 0) {
    throw std::invalid_argument(std::string(op) + " expects " + factor_name +
                                " to be greater than 0, but got: " + std::to_string(r));
  }
  int64_t r2 = 0;
  if (__builtin_mul_overflow(r, r, &r2)) {
    // As PyTorch's (a ValueError there, from its Python-level check; r * r would wrap to 0).
    throw std::invalid_argument(std::string(op) + ": " + (shuffle ? "upscale" : "downscale") +
                                " factor is too large, (" + factor_name +
                                ")^2 overflowed: " + factor_name + "=" + std::to_string(r));
  }
  const int64_t C = self.size(-3), H = self.size(-2), W = self.size(-1);
  if (shuffle && C % r2 != 0) {
    throw std::invalid_argument(
        "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
        "upscale_factor, but input.size(-3)=" +
        std::to_string(C) + " is not divisible by " + std::to_string(r2));
  }
  if (!shuffle && (H % r != 0 || W % r != 0)) {
    const bool h = H % r != 0;
    throw std::invalid_argument(std::string("pixel_unshuffle expects ") + (h ? "height" : "width") +
                                " to be divisible by downscale_factor, but input.size(" +
                                (h ? "-2)=" : "-1)=") + std::to_string(h ? H : W) +
                                " is not divisible by " + std::to_string(r));
  }
  // The small side: [C / r^2, H, W] for a shuffle's output, the input for an unshuffle.
  const int64_t c = shuffle ? C / r2 : C, h = shuffle ? H : H / r, w = shuffle ? W : W / r;
  DimVector shape(self.sizes().begin(), self.sizes().end());
  const size_t nd = shape.size();
  shape[nd - 3] = c;
  shape[nd - 2] = h;
  shape[nd - 1] = w;
  if ((!shuffle && __builtin_mul_overflow(C, r2, &shape[nd - 3])) ||
      (shuffle && (__builtin_mul_overflow(H, r, &shape[nd - 2]) ||
                   __builtin_mul_overflow(W, r, &shape[nd - 1])))) {
    throw std::invalid_argument(std::string(op) + ": the output's size overflows with " +
                                factor_name + "=" + std::to_string(r));
  }
  const Tensor x = self.contiguous();
  Tensor out = make_tensor(shape, self.scalar_type());
  const int64_t planes = C * H * W == 0 ? 0 : self.numel() / (C * H * W);
  // Element (ci, i, j, y, x) of the channel-split side is (ci, y * r + i, x * r + j) of the
  // spatial side.
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t p = 0; p < planes; ++p) {
      for (int64_t ci = 0; ci < c; ++ci) {
        for (int64_t i = 0; i < r; ++i) {
          for (int64_t j = 0; j < r; ++j) {
            for (int64_t y = 0; y < h; ++y) {
              for (int64_t xx = 0; xx < w; ++xx) {
                const int64_t split = (((p * c + ci) * r + i) * r + j) * h * w + y * w + xx;
                const int64_t spatial = ((p * c + ci) * h * r + y * r + i) * w * r + xx * r + j;
                if (shuffle) {
                  po[spatial] = px[split];
                } else {
                  po[split] = px[spatial];
                }
              }
            }
          }
        }
      }
    }
  });
  return out;
}

}  // namespace

Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor) {
  return shuffle_pixels("pixel_shuffle", "upscale_factor", self, upscale_factor, true);
}

Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor) {
  return shuffle_pixels("pixel_unshuffle", "downscale_factor", self, downscale_factor, false);
}

}  // namespace native
}  // namespace gradgen
