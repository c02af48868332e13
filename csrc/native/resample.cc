// Resampling kernels (nn, third batch and issue 26's remaining ops): pixel_shuffle /
// pixel_unshuffle, upsample_nearest1d/2d/3d, upsample_linear1d, upsample_bilinear2d,
// upsample_bicubic2d and upsample_trilinear3d with their backward ops. Inputs are [N, C, L],
// [N, C, H, W] or [N, C, D, H, W]; every (sample, channel) volume is resampled on its own, one
// axis at a time (separable weights). Source positions follow PyTorch's UpSample.h: nearest takes
// floor(dst * scale) in float (scale 1 / scales when given, else in / out; out == in and
// out == 2 * in exactly), linear takes scale * (dst + 0.5) - 0.5 clamped at 0 (align_corners:
// dst * (in - 1) / (out - 1)) and blends the two neighbours, cubic takes the same position
// unclamped and weighs the four neighbours in[i - 1 .. i + 2] (clamped to the input) by the
// cubic convolution with A = -0.75.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"
#include "csrc/ops.h"

namespace gradgen {
namespace native {

namespace {

/// One output axis: output position o reads sum_k w[o * taps + k] * in[i[o * taps + k]].
struct Axis {
  int taps = 1;
  std::vector<int64_t> i;
  std::vector<double> w;
  int64_t size() const { return static_cast<int64_t>(i.size()) / taps; }
};

double scale_value(std::optional<double> scales, int64_t in, int64_t out) {
  return scales.has_value() && *scales > 0 ? 1.0 / *scales
                                           : static_cast<double>(in) / static_cast<double>(out);
}

/// The axis of a dim that is not resampled (size 1 on both sides).
Axis unit_axis() {
  Axis a;
  a.i = {0};
  a.w = {1.0};
  return a;
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
    a.i.push_back(i);
    a.w.push_back(1.0);
  }
  return a;
}

Axis linear_axis(int64_t in, int64_t out, bool align_corners, std::optional<double> scales) {
  Axis a;
  a.taps = 2;
  const double scale = align_corners ? (out > 1 ? static_cast<double>(in - 1) / (out - 1) : 0.0)
                                     : scale_value(scales, in, out);
  for (int64_t o = 0; o < out; ++o) {
    if (out == in) {
      a.i.insert(a.i.end(), {o, o});
      a.w.insert(a.w.end(), {1.0, 0.0});
      continue;
    }
    double real = align_corners ? scale * o : scale * (o + 0.5) - 0.5;
    if (!align_corners && real < 0) real = 0;
    const int64_t i = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
    const double lambda = std::min(std::max(real - static_cast<double>(i), 0.0), 1.0);
    a.i.insert(a.i.end(), {i, i + (i < in - 1 ? 1 : 0)});
    a.w.insert(a.w.end(), {1.0 - lambda, lambda});
  }
  return a;
}

/// PyTorch's cubic convolution with A = -0.75: the weights of in[i - 1 .. i + 2] at fraction t,
/// the positions clamped to the input (UpSample.h's get_cubic_upsample_coefficients and
/// upsample_get_value_bounded). The source position is not clamped at 0 (cubic = true).
Axis cubic_axis(int64_t in, int64_t out, bool align_corners, std::optional<double> scales) {
  Axis a;
  a.taps = 4;
  const double A = -0.75;
  auto near = [&](double x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };
  auto far = [&](double x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };
  const double scale = align_corners ? (out > 1 ? static_cast<double>(in - 1) / (out - 1) : 0.0)
                                     : scale_value(scales, in, out);
  for (int64_t o = 0; o < out; ++o) {
    const double real = align_corners ? scale * o : scale * (o + 0.5) - 0.5;
    const int64_t i = std::min(static_cast<int64_t>(std::floor(static_cast<float>(real))), in - 1);
    const double t = std::min(std::max(real - static_cast<double>(i), 0.0), 1.0);
    const double w[4] = {far(t + 1), near(t), near(1 - t), far(2 - t)};
    for (int k = 0; k < 4; ++k) {
      a.i.push_back(std::min(std::max(i - 1 + k, int64_t{0}), in - 1));
      a.w.push_back(w[k]);
    }
  }
  return a;
}

/// The checks of PyTorch's upsample_{1,2,3}d_common_check and of its kernels' meta functions.
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

/// out[p, od, oh, ow] = sum of the weighted neighbours of in[p] along the three axes (backward:
/// the transpose, accumulated into in). D, H and W are the input's volume, the axes' sizes the
/// output's.
Tensor resample(const char* op, const Tensor& src, IntArrayRef dst_shape, const Axis& deps,
                const Axis& rows, const Axis& cols, int64_t D, int64_t H, int64_t W,
                bool backward) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(resample, op, src, dst_shape, deps, rows, cols, D, H, W,
                                   backward);
  const Tensor x = src.contiguous();
  Tensor out = zeros(dst_shape, src.scalar_type());
  const int64_t OD = deps.size(), OH = rows.size(), OW = cols.size();
  const int64_t in_volume = D * H * W;
  const int64_t planes = in_volume == 0 ? 0 : (backward ? out.numel() : x.numel()) / in_volume;
  const int td = deps.taps, th = rows.taps, tw = cols.taps;
  gradgen::internal::dispatch_floating(src.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t p = 0; p < planes; ++p) {
      for (int64_t od = 0; od < OD; ++od) {
        for (int64_t oh = 0; oh < OH; ++oh) {
          for (int64_t ow = 0; ow < OW; ++ow) {
            const int64_t o = ((p * OD + od) * OH + oh) * OW + ow;
            double acc = 0;
            for (int a = 0; a < td; ++a) {
              const double wd = deps.w[od * td + a];
              if (wd == 0) continue;
              const int64_t id = p * D + deps.i[od * td + a];
              for (int b = 0; b < th; ++b) {
                const double wdh = wd * rows.w[oh * th + b];
                if (wdh == 0) continue;
                const int64_t ih = id * H + rows.i[oh * th + b];
                for (int c = 0; c < tw; ++c) {
                  const double w = wdh * cols.w[ow * tw + c];
                  if (w == 0) continue;
                  const int64_t i = ih * W + cols.i[ow * tw + c];
                  if (backward) {
                    po[i] += static_cast<T>(w * static_cast<double>(px[o]));
                  } else {
                    acc += w * static_cast<double>(px[i]);
                  }
                }
              }
            }
            if (!backward) po[o] = static_cast<T>(acc);
          }
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

enum class Mode { kNearest, kLinear, kCubic };

Axis make_axis(Mode mode, int64_t in, int64_t out, bool align_corners,
               std::optional<double> scales) {
  switch (mode) {
    case Mode::kNearest: return nearest_axis(in, out, scales);
    case Mode::kLinear: return linear_axis(in, out, align_corners, scales);
    case Mode::kCubic: return cubic_axis(in, out, align_corners, scales);
  }
  return unit_axis();
}

/// An upsample op (backward: its backward op) over the last output_size.size() dims of
/// input_size; scales one per spatial dim.
Tensor upsample(const char* op, Mode mode, const Tensor& src, IntArrayRef output_size,
                IntArrayRef input_size, bool align_corners,
                std::vector<std::optional<double>> scales, bool backward) {
  const size_t spatial = scales.size();
  if (!backward) check_input(op, src, spatial);
  check_upsample(op, input_size, output_size, spatial);
  if (backward) check_grad_output(op, src, with_spatial(input_size, output_size));
  // As PyTorch's storage size check, before the axes (one entry per output position) are built:
  // output_size [2^63 - 1] once spent minutes there.
  const DimVector out_shape = with_spatial(input_size, output_size);
  int64_t numel = 1;
  for (int64_t d : out_shape) {
    if (__builtin_mul_overflow(numel, d, &numel) ||
        numel > std::numeric_limits<int64_t>::max() / 8) {
      throw std::invalid_argument(
          std::string(op) +
          ": Storage size calculation overflowed with sizes=" + shape_str(out_shape));
    }
  }
  // Unresampled leading axes of size 1, so that every op is a 3-D resample.
  std::vector<Axis> axes(3 - spatial, unit_axis());
  int64_t in[3] = {1, 1, 1};
  for (size_t d = 0; d < spatial; ++d) {
    in[3 - spatial + d] = input_size[2 + d];
    axes.push_back(make_axis(mode, input_size[2 + d], output_size[d], align_corners, scales[d]));
  }
  return resample(op, src,
                  backward ? DimVector(input_size.begin(), input_size.end())
                           : with_spatial(input_size, output_size),
                  axes[0], axes[1], axes[2], in[0], in[1], in[2], backward);
}

}  // namespace

Tensor upsample_nearest1d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales) {
  return upsample("upsample_nearest1d", Mode::kNearest, self, output_size, self.sizes(), false,
                  {scales}, false);
}

Tensor upsample_nearest1d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                   IntArrayRef input_size, std::optional<double> scales) {
  return upsample("upsample_nearest1d_backward", Mode::kNearest, grad_output, output_size,
                  input_size, false, {scales}, true);
}

Tensor upsample_nearest2d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("upsample_nearest2d", Mode::kNearest, self, output_size, self.sizes(), false,
                  {scales_h, scales_w}, false);
}

Tensor upsample_nearest2d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                   IntArrayRef input_size, std::optional<double> scales_h,
                                   std::optional<double> scales_w) {
  return upsample("upsample_nearest2d_backward", Mode::kNearest, grad_output, output_size,
                  input_size, false, {scales_h, scales_w}, true);
}

Tensor upsample_nearest3d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales_d, std::optional<double> scales_h,
                          std::optional<double> scales_w) {
  return upsample("upsample_nearest3d", Mode::kNearest, self, output_size, self.sizes(), false,
                  {scales_d, scales_h, scales_w}, false);
}

Tensor upsample_nearest3d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                   IntArrayRef input_size, std::optional<double> scales_d,
                                   std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("upsample_nearest3d_backward", Mode::kNearest, grad_output, output_size,
                  input_size, false, {scales_d, scales_h, scales_w}, true);
}

Tensor upsample_linear1d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                         std::optional<double> scales) {
  return upsample("upsample_linear1d", Mode::kLinear, self, output_size, self.sizes(),
                  align_corners, {scales}, false);
}

Tensor upsample_linear1d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                  IntArrayRef input_size, bool align_corners,
                                  std::optional<double> scales) {
  return upsample("upsample_linear1d_backward", Mode::kLinear, grad_output, output_size, input_size,
                  align_corners, {scales}, true);
}

Tensor upsample_bilinear2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                           std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("upsample_bilinear2d", Mode::kLinear, self, output_size, self.sizes(),
                  align_corners, {scales_h, scales_w}, false);
}

Tensor upsample_bilinear2d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                    IntArrayRef input_size, bool align_corners,
                                    std::optional<double> scales_h,
                                    std::optional<double> scales_w) {
  return upsample("upsample_bilinear2d_backward", Mode::kLinear, grad_output, output_size,
                  input_size, align_corners, {scales_h, scales_w}, true);
}

Tensor upsample_bicubic2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("upsample_bicubic2d", Mode::kCubic, self, output_size, self.sizes(),
                  align_corners, {scales_h, scales_w}, false);
}

Tensor upsample_bicubic2d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                   IntArrayRef input_size, bool align_corners,
                                   std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("upsample_bicubic2d_backward", Mode::kCubic, grad_output, output_size, input_size,
                  align_corners, {scales_h, scales_w}, true);
}

Tensor upsample_trilinear3d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                            std::optional<double> scales_d, std::optional<double> scales_h,
                            std::optional<double> scales_w) {
  return upsample("upsample_trilinear3d", Mode::kLinear, self, output_size, self.sizes(),
                  align_corners, {scales_d, scales_h, scales_w}, false);
}

Tensor upsample_trilinear3d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                     IntArrayRef input_size, bool align_corners,
                                     std::optional<double> scales_d, std::optional<double> scales_h,
                                     std::optional<double> scales_w) {
  return upsample("upsample_trilinear3d_backward", Mode::kLinear, grad_output, output_size,
                  input_size, align_corners, {scales_d, scales_h, scales_w}, true);
}

// out= and grad_input= variants of the ops above (issue 26, remaining ops): the out-of-place
// result written into the given tensor, as write_out does for every op.
Tensor& upsample_linear1d_out(const Tensor& self, IntArrayRef output_size, bool align_corners,
                              std::optional<double> scales, Tensor& out) {
  return write_out("upsample_linear1d.out",
                   native::upsample_linear1d(self, output_size, align_corners, scales), out);
}

Tensor& upsample_linear1d_backward_out(const Tensor& grad_output, IntArrayRef output_size,
                                       IntArrayRef input_size, bool align_corners,
                                       std::optional<double> scales, Tensor& grad_input) {
  return write_out("upsample_linear1d_backward.grad_input",
                   native::upsample_linear1d_backward(grad_output, output_size, input_size,
                                                      align_corners, scales),
                   grad_input);
}

Tensor& upsample_bicubic2d_out(const Tensor& self, IntArrayRef output_size, bool align_corners,
                               std::optional<double> scales_h, std::optional<double> scales_w,
                               Tensor& out) {
  return write_out("upsample_bicubic2d.out",
                   native::upsample_bicubic2d(self, output_size, align_corners, scales_h, scales_w),
                   out);
}

Tensor& upsample_bicubic2d_backward_out(const Tensor& grad_output, IntArrayRef output_size,
                                        IntArrayRef input_size, bool align_corners,
                                        std::optional<double> scales_h,
                                        std::optional<double> scales_w, Tensor& grad_input) {
  return write_out("upsample_bicubic2d_backward.grad_input",
                   native::upsample_bicubic2d_backward(grad_output, output_size, input_size,
                                                       align_corners, scales_h, scales_w),
                   grad_input);
}

Tensor& upsample_trilinear3d_out(const Tensor& self, IntArrayRef output_size, bool align_corners,
                                 std::optional<double> scales_d, std::optional<double> scales_h,
                                 std::optional<double> scales_w, Tensor& out) {
  return write_out("upsample_trilinear3d.out",
                   native::upsample_trilinear3d(self, output_size, align_corners, scales_d,
                                                scales_h, scales_w),
                   out);
}

Tensor& upsample_trilinear3d_backward_out(const Tensor& grad_output, IntArrayRef output_size,
                                          IntArrayRef input_size, bool align_corners,
                                          std::optional<double> scales_d,
                                          std::optional<double> scales_h,
                                          std::optional<double> scales_w, Tensor& grad_input) {
  return write_out("upsample_trilinear3d_backward.grad_input",
                   native::upsample_trilinear3d_backward(grad_output, output_size, input_size,
                                                         align_corners, scales_d, scales_h,
                                                         scales_w),
                   grad_input);
}

Tensor& upsample_nearest3d_out(const Tensor& self, IntArrayRef output_size,
                               std::optional<double> scales_d, std::optional<double> scales_h,
                               std::optional<double> scales_w, Tensor& out) {
  return write_out("upsample_nearest3d.out",
                   native::upsample_nearest3d(self, output_size, scales_d, scales_h, scales_w),
                   out);
}

Tensor& upsample_nearest3d_backward_out(const Tensor& grad_output, IntArrayRef output_size,
                                        IntArrayRef input_size, std::optional<double> scales_d,
                                        std::optional<double> scales_h,
                                        std::optional<double> scales_w, Tensor& grad_input) {
  return write_out("upsample_nearest3d_backward.grad_input",
                   native::upsample_nearest3d_backward(grad_output, output_size, input_size,
                                                       scales_d, scales_h, scales_w),
                   grad_input);
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
