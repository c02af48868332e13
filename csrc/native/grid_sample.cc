// Kernels of grid_sampler_2d / grid_sampler_3d and their backward ops, the tap tables of their
// double backward (csrc/autograd/formulas_grid.cc) and the composite grid_sampler
// (nn, issue 26: resampling). grid [N, OH, OW, 2] holds (x, y) in [-1, 1] (align_corners: the
// corner pixels' centres; otherwise their outer edges); each point samples input [N, C, IH, IW]
// bilinearly (2 x 2 taps), at the nearest pixel (nearbyint: halves to even) or bicubically
// (4 x 4 taps, Keys' cubic with A = -0.75); a tap outside the image counts 0. The volumetric
// sampler reads input [N, C, ID, IH, IW] at grid [N, OD, OH, OW, 3] ((x, y, z)), trilinearly
// (2 x 2 x 2 taps) or at the nearest voxel; bicubic is 2-D only, as PyTorch's. padding_mode
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

// dims 2: ID = OD = 1. The input's sizes along x, y, z are IW, IH, ID.
struct GridGeometry {
  int64_t N, C, ID, IH, IW, OD, OH, OW;
  int64_t interp, padding;
  bool align;
  int dims;
  int64_t in_plane() const { return ID * IH * IW; }
  int64_t points() const { return OD * OH * OW; }
  int64_t axis_size(int d) const { return d == 0 ? IW : d == 1 ? IH : ID; }
};

// PyTorch's grid_sampler argument checks (check_grid_sampler_common and _2d / _3d), with its
// messages; a mode outside PyTorch's enums is an error here (PyTorch reads garbage).
GridGeometry grid_geometry(const char* op, const Tensor& input, const Tensor& grid, int64_t interp,
                           int64_t padding, bool align, int dims = 2) {
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
  if (input.dim() != dims + 2 || grid.dim() != dims + 2) {
    fail("expected " + std::to_string(dims + 2) +
         "D input and grid with same number of dimensions, but got " + sizes);
  }
  if (dims == 3 && interp == kBicubic) fail("bicubic interpolation only supports 4D input");
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
  if (dims == 2) {
    return {input.size(0), input.size(1), 1,      input.size(2), input.size(3), 1,
            grid.size(1),  grid.size(2),  interp, padding,       align,         2};
  }
  return {input.size(0), input.size(1), input.size(2), input.size(3), input.size(4), grid.size(1),
          grid.size(2),  grid.size(3),  interp,        padding,       align,         3};
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
// the weight's derivatives by the source x, y, z.
template <typename T>
struct Tap {
  int64_t index;
  T w;
  T d[3];
};

// The taps of point p of sample n (the product of the 1-D taps in x, y and z, x fastest), and
// di[k] = d source coordinate k / d grid coordinate k.
template <typename T>
int point_taps(const GridGeometry& g, const T* grid, int64_t n, int64_t p, Tap<T>* out, T* di) {
  const T* xyz = grid + (n * g.points() + p) * g.dims;
  int64_t pos[3][4] = {{0}, {0}, {0}};
  T w[3][4] = {{1}, {1}, {1}}, dw[3][4] = {{0}, {0}, {0}}, d2w[3][4];
  int taps[3] = {1, 1, 1};
  for (int k = 0; k < g.dims; ++k) {
    const T coord = source_coordinate(xyz[k], g.axis_size(k), g, &di[k]);
    taps[k] = taps_1d(g, coord, g.axis_size(k), pos[k], w[k], dw[k], d2w[k]);
  }
  int count = 0;
  for (int l = 0; l < taps[2]; ++l) {
    for (int j = 0; j < taps[1]; ++j) {
      for (int i = 0; i < taps[0]; ++i) {
        const bool inside = pos[0][i] >= 0 && pos[1][j] >= 0 && pos[2][l] >= 0;
        Tap<T>& t = out[count++];
        t.index = inside ? (pos[2][l] * g.IH + pos[1][j]) * g.IW + pos[0][i] : -1;
        t.w = w[0][i] * w[1][j] * w[2][l];
        t.d[0] = dw[0][i] * w[1][j] * w[2][l];
        t.d[1] = w[0][i] * dw[1][j] * w[2][l];
        t.d[2] = w[0][i] * w[1][j] * dw[2][l];
      }
    }
  }
  return count;
}

// Calls fn(n, p, taps, count, di) for every output point.
template <typename T, typename F>
void for_each_point(const GridGeometry& g, const T* grid, F&& fn) {
  Tap<T> taps[16];
  for (int64_t n = 0; n < g.N; ++n) {
    for (int64_t p = 0; p < g.points(); ++p) {
      T di[3] = {0, 0, 0};
      const int count = point_taps(g, grid, n, p, taps, di);
      fn(n, p, taps, count, di);
    }
  }
}

// The sampler of dims 2 or 3 (input [N, C, (ID,) IH, IW], grid [N, (OD,) OH, OW, dims]).
Tensor sample_grid(const char* op, const Tensor& input, const Tensor& grid,
                   int64_t interpolation_mode, int64_t padding_mode, bool align_corners, int dims) {
  const GridGeometry g =
      grid_geometry(op, input, grid, interpolation_mode, padding_mode, align_corners, dims);
  std::vector<int64_t> out_shape{g.N, g.C, g.OD, g.OH, g.OW};
  if (dims == 2) out_shape.erase(out_shape.begin() + 2);
  Tensor out = zeros(out_shape, input.scalar_type());
  const Tensor x = input.contiguous(), gr = grid.contiguous();
  gradgen::internal::dispatch_floating(input.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for_each_point<T>(g, gr.data_ptr<T>(),
                      [&](int64_t n, int64_t p, const Tap<T>* cs, int count, const T*) {
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

std::tuple<Tensor, Tensor> sample_grid_backward(const char* op, const Tensor& grad_output,
                                                const Tensor& input, const Tensor& grid,
                                                int64_t interpolation_mode, int64_t padding_mode,
                                                bool align_corners, std::array<bool, 2> output_mask,
                                                int dims) {
  const GridGeometry g =
      grid_geometry(op, input, grid, interpolation_mode, padding_mode, align_corners, dims);
  std::vector<int64_t> out_shape{g.N, g.C, g.OD, g.OH, g.OW};
  if (dims == 2) out_shape.erase(out_shape.begin() + 2);
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
                      [&](int64_t n, int64_t p, const Tap<T>* cs, int count, const T* di) {
                        T sum[3] = {0, 0, 0};
                        for (int64_t c = 0; c < g.C; ++c) {
                          const int64_t plane = (n * g.C + c) * g.in_plane();
                          const T go_v = pgo[(n * g.C + c) * g.points() + p];
                          for (int k = 0; k < count; ++k) {
                            if (cs[k].index < 0) continue;
                            pgi[plane + cs[k].index] += cs[k].w * go_v;
                            const T v = go_v * px[plane + cs[k].index];
                            for (int d = 0; d < g.dims; ++d) sum[d] += v * cs[k].d[d];
                          }
                        }
                        for (int d = 0; d < g.dims; ++d) {
                          pgg[(n * g.points() + p) * g.dims + d] = sum[d] * di[d];
                        }
                      });
  });
  // As PyTorch's: the grid's gradient is always returned (only output_mask[0] is read).
  (void)output_mask[1];
  return {output_mask[0] ? gi : Tensor(), gg};
}

GridTapTable tap_table(const char* op, const Tensor& input, const Tensor& grid,
                       int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
                       int dims) {
  const GridGeometry g =
      grid_geometry(op, input, grid, interpolation_mode, padding_mode, align_corners, dims);
  const int64_t taps = g.interp == kNearest ? 1 : g.interp == kBilinear ? 2 : 4;
  const int64_t K = dims == 2 ? taps * taps : taps * taps * taps;
  const ScalarType dtype = input.scalar_type();
  GridTapTable table;
  table.index = zeros({g.N, K, g.points()}, ScalarType::Long);
  table.inside = zeros({g.N, K, g.points()}, dtype);
  for (int d = 0; d < dims; ++d) {
    table.d.push_back(zeros({g.N, g.points()}, dtype));
    table.o.push_back(zeros({g.N, g.points()}, dtype));
  }
  table.taps = taps;
  const Tensor gr = grid.contiguous();
  gradgen::internal::dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    const T* pg = gr.data_ptr<T>();
    int64_t* pidx = table.index.data_ptr<int64_t>();
    T* pin = table.inside.data_ptr<T>();
    // The fraction t = i - floor(i) of each source coordinate written as d * grid + o (the
    // coordinate maps are piecewise linear); nearest has no fraction (its weights are constant).
    Tap<T> tp[16];
    for (int64_t n = 0; n < g.N; ++n) {
      for (int64_t p = 0; p < g.points(); ++p) {
        T di[3] = {0, 0, 0};
        point_taps(g, pg, n, p, tp, di);
        const T* xyz = pg + (n * g.points() + p) * dims;
        const int64_t q = n * g.points() + p;
        for (int d = 0; d < dims; ++d) {
          T unused;
          const T i = source_coordinate(xyz[d], g.axis_size(d), g, &unused);
          const bool flat = g.interp == kNearest || !representable(i);
          table.d[d].template data_ptr<T>()[q] = flat ? T(0) : di[d];
          table.o[d].template data_ptr<T>()[q] = flat ? T(0) : i - std::floor(i) - di[d] * xyz[d];
        }
        for (int64_t k = 0; k < K; ++k) {
          const int64_t at = (n * K + k) * g.points() + p;
          pidx[at] = tp[k].index < 0 ? 0 : tp[k].index;
          pin[at] = tp[k].index < 0 ? T(0) : T(1);
        }
      }
    }
  });
  return table;
}

}  // namespace

Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(grid_sampler_2d, input, grid, interpolation_mode, padding_mode,
                                   align_corners);
  return sample_grid("grid_sampler_2d", input, grid, interpolation_mode, padding_mode,
                     align_corners, 2);
}

Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(grid_sampler_3d, input, grid, interpolation_mode, padding_mode,
                                   align_corners);
  return sample_grid("grid_sampler_3d", input, grid, interpolation_mode, padding_mode,
                     align_corners, 3);
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
  return sample_grid_backward("grid_sampler_2d_backward", grad_output, input, grid,
                              interpolation_mode, padding_mode, align_corners, output_mask, 2);
}

std::tuple<Tensor, Tensor> grid_sampler_3d_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners,
                                                    std::array<bool, 2> output_mask) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(grid_sampler_3d_backward, grad_output, input, grid,
                                   interpolation_mode, padding_mode, align_corners, output_mask);
  return sample_grid_backward("grid_sampler_3d_backward", grad_output, input, grid,
                              interpolation_mode, padding_mode, align_corners, output_mask, 3);
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

GridTapTable grid_sampler_tap_table(const Tensor& input, const Tensor& grid,
                                    int64_t interpolation_mode, int64_t padding_mode,
                                    bool align_corners) {
  const int dims = static_cast<int>(input.dim()) - 2;
  return tap_table(dims == 3 ? "grid_sampler_3d_double_backward"
                             : "grid_sampler_2d_double_backward",
                   input, grid, interpolation_mode, padding_mode, align_corners, dims == 3 ? 3 : 2);
}

// PyTorch's composite: the 3-D kernel for 5-D input, else the 2-D one (cuDNN's is not in
// gradgen).
Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                    int64_t padding_mode, bool align_corners) {
  return internal::in_composite_op("grid_sampler", [&] {
    if (input.dim() == 5) {
      return gradgen::grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners);
    }
    return gradgen::grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners);
  });
}

}  // namespace native
}  // namespace gradgen
