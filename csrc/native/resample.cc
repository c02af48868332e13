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
#include "csrc/util/op_context.h"

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

/// The identity axis of a dim of `n` positions.
Axis identity_axis(int64_t n) {
  Axis a;
  for (int64_t o = 0; o < n; ++o) {
    a.i.push_back(o);
    a.w.push_back(1.0);
  }
  return a;
}

/// The antialiased filters of PyTorch's _upsample_*_aa kernels (UpSampleKernel.cpp's
/// HelperInterpLinear / HelperInterpCubic::aa_filter): the triangle 1 - |x| for bilinear, Keys'
/// cubic with a = -0.5 (PIL's, not the -0.75 of the plain bicubic) for bicubic.
template <typename T>
T aa_filter(bool cubic, T x) {
  x = std::abs(x);
  if (!cubic) return x < T(1) ? T(1) - x : T(0);
  const T a = -0.5;
  if (x < T(1)) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < T(2)) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return T(0);
}

/// An antialiased axis as PyTorch's CPU kernel (_compute_indices_min_size_weights_aa), in the
/// input's precision T: the filter of interp_size taps (2 bilinear, 4 bicubic) is widened by the
/// scale when downsampling (support interp_size / 2 * scale, the filter's argument divided by
/// the scale), output o reads the inputs whose centres lie within the support of its centre
/// scale * (o + 0.5), and its weights are normalized to sum 1. align_corners only changes the
/// scale ((in - 1) / (out - 1)).
template <typename T>
Axis aa_axis(bool cubic, int64_t in, int64_t out, bool align_corners,
             std::optional<double> scales) {
  const int interp_size = cubic ? 4 : 2;
  // area_pixel_compute_scale in T.
  T scale;
  if (align_corners) {
    scale = out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  } else if (scales.has_value() && *scales > 0) {
    scale = static_cast<T>(1.0 / *scales);
  } else {
    scale = static_cast<T>(in) / static_cast<T>(out);
  }
  // The mixed float / double arithmetic of PyTorch's kernel, step by step (T is its scalar_t,
  // its literals double), so that the taps' bounds truncate as there.
  const T support = scale >= T(1) ? static_cast<T>((interp_size * 0.5) * scale)
                                  : static_cast<T>(interp_size * 0.5);
  const T invscale = scale >= T(1) ? static_cast<T>(1.0 / scale) : T(1);
  Axis a;
  a.taps = static_cast<int>(std::ceil(support)) * 2 + 1;
  std::vector<T> w(a.taps);
  for (int64_t o = 0; o < out; ++o) {
    const T center = static_cast<T>(scale * (static_cast<double>(o) + 0.5));
    const int64_t xmin =
        std::max(static_cast<int64_t>(static_cast<double>(center - support) + 0.5), int64_t{0});
    int64_t xsize =
        std::min(static_cast<int64_t>(static_cast<double>(center + support) + 0.5), in) - xmin;
    xsize = std::min(std::max(xsize, int64_t{0}), static_cast<int64_t>(a.taps));
    T total = 0;
    for (int64_t j = 0; j < xsize; ++j) {
      const T x = static_cast<T>((static_cast<double>(static_cast<T>(j + xmin) - center) + 0.5) *
                                 static_cast<double>(invscale));
      w[j] = aa_filter(cubic, x);
      total += w[j];
    }
    for (int64_t j = 0; j < a.taps; ++j) {
      const bool used = j < xsize;
      a.i.push_back(used ? xmin + j : 0);
      a.w.push_back(used && total != T(0) ? static_cast<double>(w[j] / total) : 0.0);
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

enum class Mode { kNearest, kLinear, kCubic, kLinearAA, kCubicAA };

/// The axis of one resampled dim. The antialiased modes' weights are computed in the input's
/// precision (float for every type but double), as PyTorch's.
Axis make_axis(Mode mode, int64_t in, int64_t out, bool align_corners, std::optional<double> scales,
               ScalarType dtype) {
  const bool in_double = dtype == ScalarType::Double;
  switch (mode) {
    case Mode::kNearest: return nearest_axis(in, out, scales);
    case Mode::kLinear: return linear_axis(in, out, align_corners, scales);
    case Mode::kCubic: return cubic_axis(in, out, align_corners, scales);
    case Mode::kLinearAA:
    case Mode::kCubicAA: {
      const bool cubic = mode == Mode::kCubicAA;
      return in_double ? aa_axis<double>(cubic, in, out, align_corners, scales)
                       : aa_axis<float>(cubic, in, out, align_corners, scales);
    }
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
    // PyTorch's antialiased forward kernel leaves a dim whose size does not change as it is
    // (even when scales say otherwise); its backward kernel does not (the weights of the scale),
    // and gradgen's backward ops compute what PyTorch's do.
    const bool aa = mode == Mode::kLinearAA || mode == Mode::kCubicAA;
    if (aa && !backward && input_size[2 + d] == output_size[d]) {
      axes.push_back(identity_axis(output_size[d]));
      continue;
    }
    axes.push_back(make_axis(mode, input_size[2 + d], output_size[d], align_corners, scales[d],
                             src.scalar_type()));
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

// Antialiased bilinear / bicubic resampling (PyTorch's _upsample_*2d_aa, interpolate's
// antialias=True): a filter as wide as the scale when downsampling, see aa_axis.
Tensor _upsample_bilinear2d_aa(const Tensor& self, IntArrayRef output_size, bool align_corners,
                               std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("_upsample_bilinear2d_aa", Mode::kLinearAA, self, output_size, self.sizes(),
                  align_corners, {scales_h, scales_w}, false);
}

Tensor _upsample_bilinear2d_aa_backward(const Tensor& grad_output, IntArrayRef output_size,
                                        IntArrayRef input_size, bool align_corners,
                                        std::optional<double> scales_h,
                                        std::optional<double> scales_w) {
  return upsample("_upsample_bilinear2d_aa_backward", Mode::kLinearAA, grad_output, output_size,
                  input_size, align_corners, {scales_h, scales_w}, true);
}

Tensor _upsample_bicubic2d_aa(const Tensor& self, IntArrayRef output_size, bool align_corners,
                              std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("_upsample_bicubic2d_aa", Mode::kCubicAA, self, output_size, self.sizes(),
                  align_corners, {scales_h, scales_w}, false);
}

Tensor _upsample_bicubic2d_aa_backward(const Tensor& grad_output, IntArrayRef output_size,
                                       IntArrayRef input_size, bool align_corners,
                                       std::optional<double> scales_h,
                                       std::optional<double> scales_w) {
  return upsample("_upsample_bicubic2d_aa_backward", Mode::kCubicAA, grad_output, output_size,
                  input_size, align_corners, {scales_h, scales_w}, true);
}

namespace {

/// PyTorch's upsample::compute_output_size and get_scale_value for the .vec overloads: exactly
/// one of output_size and scale_factors, one entry per spatial dim; a scale factor gives
/// floor(in * factor) and is passed on as the scale.
DimVector vec_output_size(const char* op, const Tensor& input, OptionalIntArrayRef output_size,
                          const std::optional<std::vector<double>>& scale_factors) {
  const int64_t spatial = input.dim() - 2;
  auto fail = [op](const std::string& what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
  };
  if (output_size.has_value() == scale_factors.has_value()) {
    fail("Must specify exactly one of output_size and scale_factors");
  }
  if (output_size.has_value()) {
    if (static_cast<int64_t>(output_size->size()) != spatial) {
      fail("expected output_size of " + std::to_string(spatial) + " elements, got " +
           std::to_string(output_size->size()));
    }
    return DimVector(output_size->begin(), output_size->end());
  }
  if (static_cast<int64_t>(scale_factors->size()) != spatial) {
    fail("expected scale_factors of " + std::to_string(spatial) + " elements, got " +
         std::to_string(scale_factors->size()));
  }
  DimVector out;
  for (int64_t d = 0; d < spatial; ++d) {
    out.push_back(static_cast<int64_t>(
        std::floor(static_cast<double>(input.size(2 + d)) * (*scale_factors)[d])));
  }
  return out;
}

std::optional<double> vec_scale(const std::optional<std::vector<double>>& scale_factors, size_t d) {
  if (!scale_factors.has_value()) return std::nullopt;
  return scale_factors->at(d);
}

}  // namespace

Tensor _upsample_bilinear2d_aa(const Tensor& input, OptionalIntArrayRef output_size,
                               bool align_corners,
                               const std::optional<std::vector<double>>& scale_factors) {
  const DimVector osize =
      vec_output_size("_upsample_bilinear2d_aa.vec", input, output_size, scale_factors);
  return internal::in_composite_op("_upsample_bilinear2d_aa.vec", [&] {
    return gradgen::_upsample_bilinear2d_aa(input, osize, align_corners,
                                            vec_scale(scale_factors, 0),
                                            vec_scale(scale_factors, 1));
  });
}

Tensor _upsample_bicubic2d_aa(const Tensor& input, OptionalIntArrayRef output_size,
                              bool align_corners,
                              const std::optional<std::vector<double>>& scale_factors) {
  const DimVector osize =
      vec_output_size("_upsample_bicubic2d_aa.vec", input, output_size, scale_factors);
  return internal::in_composite_op("_upsample_bicubic2d_aa.vec", [&] {
    return gradgen::_upsample_bicubic2d_aa(input, osize, align_corners, vec_scale(scale_factors, 0),
                                           vec_scale(scale_factors, 1));
  });
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
