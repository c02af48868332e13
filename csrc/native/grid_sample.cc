// Kernels of grid_sampler_2d and its backward, the tap table of its double backward
// (csrc/autograd/formulas_grid.cc) and the composite grid_sampler
// (nn, issue 26: resampling). grid [N, OH, OW, 2] holds (x, y) in [-1, 1] (align_corners: the
// corner pixels' centres; otherwise their outer edges); each point samples input [N, C, IH, IW]
// bilinearly (2 x 2 taps), at the nearest pixel (nearbyint: halves to even) or bicubically
// (4 x 4 taps, Keys' cubic with A = -0.75); a tap outside the image counts 0. padding_mode
// border clips the source coordinate into the image, reflection reflects it about the image's
// edges first (bicubic pads each tap's position instead, as PyTorch). The weights' derivatives
// by the source coordinate, times the coordinate's by the grid, give the grid's gradient; the
// nearest mode's grid gradient is zero, as PyTorch's.
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "csrc/autograd/formulas_grid.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

enum Interp : int64_t { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum Padding : int64_t { kZeros = 0, kBorder = 1, kReflection = 2 };

struct GridGeometry {
  int64_t N, C, IH, IW, OH, OW;
  int64_t interp, padding;
  bool align;
  int64_t in_plane() const { return IH * IW; }
  int64_t points() const { return OH * OW; }
};

// PyTorch's grid_sampler argument checks (check_grid_sampler_common and _2d), with its
// messages; a mode outside PyTorch's enums is an error here (PyTorch reads garbage).
GridGeometry grid_geometry(const char* op, const Tensor& input, const Tensor& grid, int64_t interp,
                           int64_t padding, bool align) {
  auto fail = [op](const std::string& what) {
    throw std::invalid_argument(std::string(op) + ": grid_sampler(): " + what);
  };
  const std::string sizes = "input with sizes " + shape_str(input.sizes()) +
                            " and grid with sizes " + shape_str(grid.sizes());
  if (input.dim() < 1 || grid.dim() < 1 || input.size(0) != grid.size(0)) {
    fail("expected grid and input to have same batch size, but got " + sizes);
  }
  if (grid.size(-1) != input.dim() - 2) {
    fail("expected grid to have size " + std::to_string(input.dim() - 2) +
         " in last dimension, but got grid with sizes " + shape_str(grid.sizes()));
  }
  for (int64_t d = 2; d < input.dim(); ++d) {
    if (input.size(d) == 0) {
      fail("expected input to have non-empty spatial dimensions, but input has sizes " +
           shape_str(input.sizes()) + " with dimension " + std::to_string(d) + " being empty");
    }
  }
  if (input.dim() != 4 || grid.dim() != 4) {
    fail("expected 4D input and grid with same number of dimensions, but got " + sizes);
  }
  if (input.scalar_type() != grid.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": expected scalar type " +
                                to_string(input.scalar_type()) + " but found " +
                                to_string(grid.scalar_type()));
  }
  if (interp < kBilinear || interp > kBicubic) {
    fail("interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 (bicubic), got " +
         std::to_string(interp));
  }
  if (padding < kZeros || padding > kReflection) {
    fail("padding_mode must be 0 (zeros), 1 (border) or 2 (reflection), got " +
         std::to_string(padding));
  }
  return {input.size(0), input.size(1), input.size(2), input.size(3), grid.size(1),
          grid.size(2),  interp,        padding,       align};
}

// padding_mode applied to a source coordinate x over n pixels (PyTorch's compute_coordinates):
// border clips into [0, n - 1]; reflection reflects about the image's edges ([0, n - 1] with
// align_corners, else [-0.5, n - 0.5]) and then clips. *d is multiplied by dx'/dx.
template <typename T>
T pad_coordinate(T x, int64_t size, const GridGeometry& g, T* d) {
  const T n = static_cast<T>(size);
  if (g.padding == kReflection) {
    const T lo = g.align ? T(0) : T(-0.5), span = g.align ? n - 1 : n;
    if (span <= 0) {
      *d = 0;
      return 0;
    }
    T v = x - lo;
    if (v < 0) {
      v = -v;
      *d = -*d;
    }
    const T extra = std::fmod(v, span);
    const auto flips = static_cast<int64_t>(std::floor(v / span));
    if (flips % 2 == 0) {
      x = extra + lo;
    } else {
      x = span - extra + lo;
      *d = -*d;
    }
  }
  if (g.padding != kZeros) {
    if (x <= 0) {
      *d = 0;
      return 0;
    }
    if (x >= n - 1) {
      *d = 0;
      return n - 1;
    }
  }
  return x;
}

// The source coordinate of a grid coordinate over `size` pixels and its derivative *d.
// Bicubic pads its integer taps instead (PyTorch's get_value_bounded), so only unnormalizes.
template <typename T>
T source_coordinate(T coord, int64_t size, const GridGeometry& g, T* d) {
  const T n = static_cast<T>(size);
  const T x = g.align ? (coord + 1) / 2 * (n - 1) : ((coord + 1) * n - 1) / 2;
  *d = g.align ? (n - 1) / 2 : n / 2;
  return g.interp == kBicubic ? x : pad_coordinate(x, size, g, d);
}

// A coordinate far outside any image (or NaN) reads nothing: it must not reach an int64 cast.
template <typename T>
bool representable(T x) {
  return x > T(-1e15) && x < T(1e15);
}

// The 1-D taps of source coordinate x over `size` pixels: their positions (-1 outside the
// image) and each weight with its first and second derivatives by x. Returns the tap count.
template <typename T>
int taps_1d(const GridGeometry& g, T x, int64_t size, int64_t* pos, T* w, T* dw, T* d2w) {
  auto inside = [size](int64_t i) { return i >= 0 && i < size ? i : int64_t{-1}; };
  if (!representable(x)) {
    pos[0] = -1;
    w[0] = dw[0] = d2w[0] = 0;
    return 1;
  }
  if (g.interp == kNearest) {
    pos[0] = inside(static_cast<int64_t>(std::nearbyint(x)));  // halves to even, as PyTorch
    w[0] = 1;
    dw[0] = d2w[0] = 0;
    return 1;
  }
  const T f = std::floor(x), t = x - f;
  const auto x0 = static_cast<int64_t>(f);
  if (g.interp == kBilinear) {
    pos[0] = inside(x0);
    pos[1] = inside(x0 + 1);
    w[0] = 1 - t;
    w[1] = t;
    dw[0] = -1;
    dw[1] = 1;
    d2w[0] = d2w[1] = 0;
    return 2;
  }
  // Bicubic: Keys' cubic convolution with A = -0.75 (PyTorch's), taps x0 - 1 .. x0 + 2 at
  // distances t + 1, t, 1 - t, 2 - t; each tap padded by padding_mode as a coordinate.
  const T A = -0.75;
  auto near = [A](T u, T* v, T* d, T* d2) {  // |u| <= 1
    *v = ((A + 2) * u - (A + 3)) * u * u + 1;
    *d = (3 * (A + 2) * u - 2 * (A + 3)) * u;
    *d2 = 6 * (A + 2) * u - 2 * (A + 3);
  };
  auto far = [A](T u, T* v, T* d, T* d2) {  // 1 < |u| < 2
    *v = ((A * u - 5 * A) * u + 8 * A) * u - 4 * A;
    *d = (3 * A * u - 10 * A) * u + 8 * A;
    *d2 = 6 * A * u - 10 * A;
  };
  far(t + 1, &w[0], &dw[0], &d2w[0]);
  near(t, &w[1], &dw[1], &d2w[1]);
  near(1 - t, &w[2], &dw[2], &d2w[2]);
  far(2 - t, &w[3], &dw[3], &d2w[3]);
  dw[2] = -dw[2];  // the last two distances fall as x grows
  dw[3] = -dw[3];
  for (int k = 0; k < 4; ++k) {
    T unused = 1;
    const T p = pad_coordinate(static_cast<T>(x0 - 1 + k), size, g, &unused);
    pos[k] = inside(static_cast<int64_t>(p));
  }
  return 4;
}

// One input pixel a point reads: its flat index within the plane (-1 outside), its weight and
// the weight's derivatives by the source x, y (first and second).
template <typename T>
struct Tap {
  int64_t index;
  T w, dx, dy, dxx, dxy, dyy;
};

// The taps of point p of sample n (the product of the 1-D taps in x and in y), and d source x /
// d grid x, d source y / d grid y.
template <typename T>
int point_taps(const GridGeometry& g, const T* grid, int64_t n, int64_t p, Tap<T>* out, T* dix,
               T* diy) {
  const T* xy = grid + (n * g.points() + p) * 2;
  const T ix = source_coordinate(xy[0], g.IW, g, dix);
  const T iy = source_coordinate(xy[1], g.IH, g, diy);
  int64_t px[4], py[4];
  T wx[4], dwx[4], d2wx[4], wy[4], dwy[4], d2wy[4];
  const int nx = taps_1d(g, ix, g.IW, px, wx, dwx, d2wx);
  const int ny = taps_1d(g, iy, g.IH, py, wy, dwy, d2wy);
  int count = 0;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const int64_t index = px[i] >= 0 && py[j] >= 0 ? py[j] * g.IW + px[i] : -1;
      out[count++] = {index,           wx[i] * wy[j],   dwx[i] * wy[j], wx[i] * dwy[j],
                      d2wx[i] * wy[j], dwx[i] * dwy[j], wx[i] * d2wy[j]};
    }
  }
  return count;
}

// Calls fn(n, p, taps, count, dix, diy) for every output point.
template <typename T, typename F>
void for_each_point(const GridGeometry& g, const T* grid, F&& fn) {
  Tap<T> taps[16];
  for (int64_t n = 0; n < g.N; ++n) {
    for (int64_t p = 0; p < g.points(); ++p) {
      T dix, diy;
      const int count = point_taps(g, grid, n, p, taps, &dix, &diy);
      fn(n, p, taps, count, dix, diy);
    }
  }
}

}  // namespace

Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(grid_sampler_2d, input, grid, interpolation_mode, padding_mode,
                                   align_corners);
  const char* op = "grid_sampler_2d";
  const GridGeometry g =
      grid_geometry(op, input, grid, interpolation_mode, padding_mode, align_corners);
  Tensor out = zeros({g.N, g.C, g.OH, g.OW}, input.scalar_type());
  const Tensor x = input.contiguous(), gr = grid.contiguous();
  gradgen::internal::dispatch_floating(input.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for_each_point<T>(g, gr.data_ptr<T>(),
                      [&](int64_t n, int64_t p, const Tap<T>* cs, int count, T, T) {
                        for (int64_t c = 0; c < g.C; ++c) {
                          const T* plane = px + (n * g.C + c) * g.in_plane();
                          T acc = 0;
                          for (int k = 0; k < count; ++k) {
                            if (cs[k].index >= 0) acc += cs[k].w * plane[cs[k].index];
                          }
                          po[(n * g.C + c) * g.points() + p] = acc;
                        }
                      });
  });
  return out;
}

Tensor& grid_sampler_2d_out(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                            int64_t padding_mode, bool align_corners, Tensor& out) {
  return write_out("grid_sampler_2d.out",
                   native::grid_sampler_2d(input, grid, interpolation_mode, padding_mode,
                                           align_corners),
                   out);
}

std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners,
                                                    std::array<bool, 2> output_mask) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(grid_sampler_2d_backward, grad_output, input, grid,
                                   interpolation_mode, padding_mode, align_corners, output_mask);
  const char* op = "grid_sampler_2d_backward";
  const GridGeometry g =
      grid_geometry(op, input, grid, interpolation_mode, padding_mode, align_corners);
  const std::vector<int64_t> out_shape{g.N, g.C, g.OH, g.OW};
  if (!grad_output.sizes().equals(out_shape)) {
    throw std::invalid_argument(std::string(op) + ": expected grad_output of shape " +
                                shape_str(out_shape) + ", got " + shape_str(grad_output.sizes()));
  }
  Tensor gi = zeros(input.sizes(), input.scalar_type());
  Tensor gg = zeros(grid.sizes(), grid.scalar_type());
  const Tensor x = input.contiguous(), gr = grid.contiguous(), go = grad_output.contiguous();
  gradgen::internal::dispatch_floating(input.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T *px = x.data_ptr<T>(), *pgo = go.data_ptr<T>();
    T *pgi = gi.data_ptr<T>(), *pgg = gg.data_ptr<T>();
    for_each_point<T>(g, gr.data_ptr<T>(),
                      [&](int64_t n, int64_t p, const Tap<T>* cs, int count, T dix, T diy) {
                        T sx = 0, sy = 0;
                        for (int64_t c = 0; c < g.C; ++c) {
                          const int64_t plane = (n * g.C + c) * g.in_plane();
                          const T go_v = pgo[(n * g.C + c) * g.points() + p];
                          for (int k = 0; k < count; ++k) {
                            if (cs[k].index < 0) continue;
                            pgi[plane + cs[k].index] += cs[k].w * go_v;
                            sx += go_v * px[plane + cs[k].index] * cs[k].dx;
                            sy += go_v * px[plane + cs[k].index] * cs[k].dy;
                          }
                        }
                        pgg[(n * g.points() + p) * 2] = sx * dix;
                        pgg[(n * g.points() + p) * 2 + 1] = sy * diy;
                      });
  });
  // As PyTorch's: the grid's gradient is always returned (only output_mask[0] is read).
  (void)output_mask[1];
  return {output_mask[0] ? gi : Tensor(), gg};
}

std::tuple<Tensor&, Tensor&> grid_sampler_2d_backward_out(const Tensor& grad_output,
                                                          const Tensor& input, const Tensor& grid,
                                                          int64_t interpolation_mode,
                                                          int64_t padding_mode, bool align_corners,
                                                          std::array<bool, 2> output_mask,
                                                          Tensor& out0, Tensor& out1) {
  // An output the mask leaves out is written as zeros of its shape (PyTorch's out= leaves it
  // as given; zeros keep the two results defined).
  auto [gi, gg] = native::grid_sampler_2d_backward(grad_output, input, grid, interpolation_mode,
                                                   padding_mode, align_corners, {true, true});
  if (!output_mask[0]) gi = zeros_like(gi);
  if (!output_mask[1]) gg = zeros_like(gg);
  const char* op = "grid_sampler_2d_backward.out";
  write_out(op, gi, out0);
  write_out(op, gg, out1);
  return {out0, out1};
}

GridTapTable grid_sampler_2d_tap_table(const Tensor& input, const Tensor& grid,
                                       int64_t interpolation_mode, int64_t padding_mode,
                                       bool align_corners) {
  const char* op = "grid_sampler_2d_double_backward";
  const GridGeometry g =
      grid_geometry(op, input, grid, interpolation_mode, padding_mode, align_corners);
  const int64_t taps = g.interp == kNearest ? 1 : g.interp == kBilinear ? 2 : 4;
  const ScalarType dtype = input.scalar_type();
  GridTapTable table{zeros({g.N, taps * taps, g.points()}, ScalarType::Long),
                     zeros({g.N, taps * taps, g.points()}, dtype),
                     zeros({g.N, g.points()}, dtype),
                     zeros({g.N, g.points()}, dtype),
                     zeros({g.N, g.points()}, dtype),
                     zeros({g.N, g.points()}, dtype),
                     taps};
  const Tensor gr = grid.contiguous();
  gradgen::internal::dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    const T* pg = gr.data_ptr<T>();
    int64_t* pidx = table.index.data_ptr<int64_t>();
    T* pin = table.inside.data_ptr<T>();
    T *pdx = table.dx.data_ptr<T>(), *pox = table.ox.data_ptr<T>();
    T *pdy = table.dy.data_ptr<T>(), *poy = table.oy.data_ptr<T>();
    // The fraction t = ix - floor(ix) written as d * grid + o (the coordinate maps are
    // piecewise linear); nearest has no fraction (its weights are constant).
    auto fraction = [&g](T coord, T ix, T d, T* dd, T* o) {
      *dd = g.interp == kNearest || !representable(ix) ? T(0) : d;
      *o = g.interp == kNearest || !representable(ix) ? T(0) : ix - std::floor(ix) - d * coord;
    };
    Tap<T> tp[16];
    for (int64_t n = 0; n < g.N; ++n) {
      for (int64_t p = 0; p < g.points(); ++p) {
        T dix, diy;
        point_taps(g, pg, n, p, tp, &dix, &diy);
        const T* xy = pg + (n * g.points() + p) * 2;
        T d;
        const int64_t q = n * g.points() + p;
        fraction(xy[0], source_coordinate(xy[0], g.IW, g, &d), dix, &pdx[q], &pox[q]);
        fraction(xy[1], source_coordinate(xy[1], g.IH, g, &d), diy, &pdy[q], &poy[q]);
        for (int64_t k = 0; k < taps * taps; ++k) {
          const int64_t at = (n * taps * taps + k) * g.points() + p;
          pidx[at] = tp[k].index < 0 ? 0 : tp[k].index;
          pin[at] = tp[k].index < 0 ? T(0) : T(1);
        }
      }
    }
  });
  return table;
}

// PyTorch's composite: the 2-D kernel for 4-D input (grid_sampler_3d and cuDNN's are not in
// gradgen; 5-D input is refused naming that).
Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                    int64_t padding_mode, bool align_corners) {
  if (input.dim() == 5) {
    throw std::runtime_error(
        "grid_sampler: 5-D input needs grid_sampler_3d, which gradgen does not implement");
  }
  return internal::in_composite_op("grid_sampler", [&] {
    return gradgen::grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners);
  });
}

}  // namespace native
}  // namespace gradgen
