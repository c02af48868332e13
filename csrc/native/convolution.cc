// Kernels of the convolution ops (nn, second batch): convolution and convolution_backward for 1
// to 3 spatial dims, channels first, groups, transposed or not; and the composites conv1d/2d/3d
// (with the 'valid' / 'same' padding overloads) and conv_transpose1d/2d/3d.
//
// Everything is one "regular" convolution of a Y-side [N, Cy, O...] from an X-side
// [N, Cx, I...] with a weight [Cy, Cx / groups, K...]:
//   forward          y = W @ im2col(x)              (per sample and group, through the GEMM)
//   backward input   x = col2im(W^T @ y)
//   backward weight  W = y @ im2col(x)^T            (summed over the samples)
// A convolution is the forward (X = input, Y = output); a transposed convolution, whose weight
// [Cin, Cout / groups, K...] is the regular weight of the convolution from its output back to
// its input, is the backward input (Y = input, X = output), and its gradients are the regular
// forward (for the input) and backward weight. The spatial dims are padded to 3 (size 1,
// kernel 1), so that one im2col serves 1-D, 2-D and 3-D.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/gemm.h"
#include "csrc/native/loops.h"
#include "csrc/native/simd/vectorized.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::in_composite_op;

/// The size of an im2col column buffer that stays in a core's L2 cache (see tiles()).
constexpr int64_t kTileBytes = 512 * 1024;
/// A column buffer up to this size is filled whole (one tile): it stays in the last-level cache,
/// and splitting it measured slower (the 3x3 stride-2 conv of bench/engine, 1.8 MB).
constexpr int64_t kWholeBytes = 4 * 1024 * 1024;

/// The regular convolution's geometry, spatial dims padded to 3.
struct Geometry {
  int64_t N = 0, Cx = 0, Cy = 0, groups = 1;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1}, pad[3] = {0, 0, 0}, dil[3] = {1, 1, 1};
  int64_t in_numel() const { return in[0] * in[1] * in[2]; }
  int64_t out_numel() const { return out[0] * out[1] * out[2]; }
  int64_t k_numel() const { return k[0] * k[1] * k[2]; }
  int64_t cxg() const { return Cx / groups; }
  int64_t cyg() const { return Cy / groups; }
  /// A 1x1 kernel with stride 1 and no padding: im2col is the input itself.
  bool pointwise() const {
    for (int d = 0; d < 3; ++d) {
      if (k[d] != 1 || stride[d] != 1 || pad[d] != 0) return false;
    }
    return true;
  }
};

/// The outputs o in [0, out) whose input o * s + off is in [0, in): [lo, hi), maybe empty.
std::pair<int64_t, int64_t> inside(int64_t out, int64_t in, int64_t s, int64_t off) {
  const int64_t lo = off >= 0 ? 0 : (-off + s - 1) / s;  // no division of negative numbers
  const int64_t last = in - 1 - off;
  return {lo, last < 0 ? 0 : std::min(out, last / s + 1)};
}

/// A tile of the output positions: the output rows [r0, r1), a row being one (o0, o1) with its
/// out[2] positions, so that the tile's columns are (r - r0) * out[2] + o2.
struct Tile {
  int64_t r0, r1;
  int64_t width(const Geometry& g) const { return (r1 - r0) * g.out[2]; }
  int64_t offset(const Geometry& g) const { return r0 * g.out[2]; }
};

/// col[(c, kd, kh, kw), tile column] = x[c, od*s + kd*d - p, ...] (0 outside), for the C
/// channels of x (contiguous [C, in...]) and the output positions of `tile`. The range of ow
/// reading inside x is computed once per kw, so that the innermost loop is a plain copy (with a
/// bounds check per element, im2col was 40% of the instructions of bench/engine's 3x3 conv
/// forward).
template <typename T>
void im2col(const Geometry& g, int64_t C, const T* x, T* col, Tile tile) {
  const int64_t W = tile.width(g), s2 = g.stride[2];
  for (int64_t c = 0; c < C; ++c) {
    const T* xc = x + c * g.in_numel();
    for (int64_t k0 = 0; k0 < g.k[0]; ++k0) {
      for (int64_t k1 = 0; k1 < g.k[1]; ++k1) {
        for (int64_t k2 = 0; k2 < g.k[2]; ++k2) {
          T* row = col + (((c * g.k[0] + k0) * g.k[1] + k1) * g.k[2] + k2) * W;
          const int64_t off = k2 * g.dil[2] - g.pad[2];
          const auto [lo, hi] = inside(g.out[2], g.in[2], s2, off);
          for (int64_t r = tile.r0; r < tile.r1; ++r) {
            const int64_t o0 = r / g.out[1], o1 = r % g.out[1];
            const int64_t i0 = o0 * g.stride[0] - g.pad[0] + k0 * g.dil[0];
            const int64_t i1 = o1 * g.stride[1] - g.pad[1] + k1 * g.dil[1];
            T* dst = row + (r - tile.r0) * g.out[2];
            if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1] || lo >= hi) {
              std::fill(dst, dst + g.out[2], T(0));
              continue;
            }
            const T* src = xc + (i0 * g.in[1] + i1) * g.in[2] + off;
            std::fill(dst, dst + lo, T(0));
            if (s2 == 1) {
              std::copy(src + lo, src + hi, dst + lo);
            } else {
              for (int64_t o2 = lo; o2 < hi; ++o2) dst[o2] = src[o2 * s2];
            }
            std::fill(dst + hi, dst + g.out[2], T(0));
          }
        }
      }
    }
  }
}

/// The adjoint of im2col: adds every col entry of the tile into the x position it was read from.
template <typename T>
void col2im(const Geometry& g, int64_t C, const T* col, T* x, Tile tile) {
  const int64_t W = tile.width(g), s2 = g.stride[2];
  for (int64_t c = 0; c < C; ++c) {
    T* xc = x + c * g.in_numel();
    for (int64_t k0 = 0; k0 < g.k[0]; ++k0) {
      for (int64_t k1 = 0; k1 < g.k[1]; ++k1) {
        for (int64_t k2 = 0; k2 < g.k[2]; ++k2) {
          const T* row = col + (((c * g.k[0] + k0) * g.k[1] + k1) * g.k[2] + k2) * W;
          const int64_t off = k2 * g.dil[2] - g.pad[2];
          const auto [lo, hi] = inside(g.out[2], g.in[2], s2, off);
          if (lo >= hi) continue;
          for (int64_t r = tile.r0; r < tile.r1; ++r) {
            const int64_t o0 = r / g.out[1], o1 = r % g.out[1];
            const int64_t i0 = o0 * g.stride[0] - g.pad[0] + k0 * g.dil[0];
            const int64_t i1 = o1 * g.stride[1] - g.pad[1] + k1 * g.dil[1];
            if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1]) continue;
            const T* src = row + (r - tile.r0) * g.out[2];
            T* dst = xc + (i0 * g.in[1] + i1) * g.in[2] + off;
            for (int64_t o2 = lo; o2 < hi; ++o2) dst[o2 * s2] += src[o2];
          }
        }
      }
    }
  }
}

/// The tiles of the output positions. A column buffer ([C / groups * K, positions]) of at most
/// kWholeBytes is one tile; a larger one (7.2 MB for a 3x3 conv over 64 x 56 x 56) is split into
/// tiles of as many output rows as fit in kTileBytes (at least one), so that im2col writes a tile
/// and the GEMM reads it back while it is in the core's L2 cache: the 3x3 conv of bench/engine
/// then took 13% less CPU time, forward and backward (nn_bench_gradgen, 2026-12-07).
template <typename T>
std::vector<Tile> tiles(const Geometry& g) {
  const int64_t rows = g.out[0] * g.out[1];
  const int64_t row_bytes = g.cxg() * g.k_numel() * g.out[2] * static_cast<int64_t>(sizeof(T));
  int64_t per = rows;
  if (rows * row_bytes > kWholeBytes) per = std::max<int64_t>(1, kTileBytes / row_bytes);
  std::vector<Tile> result;
  for (int64_t r0 = 0; r0 < rows; r0 += per) result.push_back({r0, std::min(rows, r0 + per)});
  return result;
}

/// An uninitialized column buffer for the tiles (every entry is written before it is read).
template <typename T>
std::unique_ptr<T[]> column_buffer(const Geometry& g, const std::vector<Tile>& ts) {
  if (g.pointwise() || ts.empty()) return nullptr;
  return std::unique_ptr<T[]>(new T[static_cast<size_t>(g.cxg() * g.k_numel() * ts[0].width(g))]);
}

/// Depthwise convolutions (one input channel per group: groups == Cx) skip im2col and the
/// GEMM: per sample and group the GEMM would be [Cy / groups, K] @ [K, O] with K the kernel's
/// size (9 for 3x3), far too thin for the GEMM's packing to pay, and im2col would copy the input
/// K times. Instead each kernel tap adds the shifted input plane times one weight into the output
/// plane (forward), and the adjoints do the same the other way (input gradient) or take the dot
/// product of the two planes (weight gradient), through the vectorized rows of vec::axpy_rows
/// and vec::dot_rows.
/// One kernel tap's block of an output plane: the outputs (o0, o1 in [o1, o1 + rows), o2 in
/// [o2, o2 + n)) whose inputs are inside x (the others read zero padding), at offsets x_at and
/// y_at within their planes; consecutive rows are x_row and y_row apart.
struct TapBlock {
  int64_t tap, x_at, y_at, rows, x_row, y_row, n;
};

/// Calls f(block) for every kernel tap and output row o0 that reads inside x.
template <typename F>
void for_each_tap_block(const Geometry& g, F&& f) {
  for (int64_t k0 = 0; k0 < g.k[0]; ++k0) {
    const int64_t off0 = k0 * g.dil[0] - g.pad[0];
    const auto [lo0, hi0] = inside(g.out[0], g.in[0], g.stride[0], off0);
    for (int64_t k1 = 0; k1 < g.k[1]; ++k1) {
      const int64_t off1 = k1 * g.dil[1] - g.pad[1];
      const auto [lo1, hi1] = inside(g.out[1], g.in[1], g.stride[1], off1);
      for (int64_t k2 = 0; k2 < g.k[2]; ++k2) {
        const int64_t off2 = k2 * g.dil[2] - g.pad[2];
        const auto [lo2, hi2] = inside(g.out[2], g.in[2], g.stride[2], off2);
        if (lo1 >= hi1 || lo2 >= hi2) continue;
        const int64_t tap = (k0 * g.k[1] + k1) * g.k[2] + k2;
        for (int64_t o0 = lo0; o0 < hi0; ++o0) {
          const int64_t i0 = o0 * g.stride[0] + off0, i1 = lo1 * g.stride[1] + off1;
          const int64_t i2 = lo2 * g.stride[2] + off2;
          f(TapBlock{tap, (i0 * g.in[1] + i1) * g.in[2] + i2,
                     (o0 * g.out[1] + lo1) * g.out[2] + lo2, hi1 - lo1, g.stride[1] * g.in[2],
                     g.out[2], hi2 - lo2});
        }
      }
    }
  }
}

/// Calls f(x_plane, y_plane, weights) for every (sample, output channel) of a depthwise
/// convolution: the offsets of x's plane (the channel's group), y's plane and its K weights.
template <typename F>
void for_each_depthwise_plane(const Geometry& g, F&& f) {
  for (int64_t n = 0; n < g.N; ++n) {
    for (int64_t c = 0; c < g.Cy; ++c) {
      f((n * g.Cx + c / g.cyg()) * g.in_numel(), (n * g.Cy + c) * g.out_numel(), c * g.k_numel());
    }
  }
}

template <typename T>
void depthwise_forward(const Geometry& g, const T* x, const T* w, T* y) {
  std::fill(y, y + g.N * g.Cy * g.out_numel(), T(0));
  for_each_depthwise_plane(g, [&](int64_t xp, int64_t yp, int64_t wp) {
    for_each_tap_block(g, [&](const TapBlock& b) {
      vec::axpy_rows(w[wp + b.tap], x + xp + b.x_at, b.x_row, g.stride[2], y + yp + b.y_at, b.y_row,
                     1, b.rows, b.n);
    });
  });
}

/// Adds the input gradient into x (which the caller zeroed).
template <typename T>
void depthwise_backward_input(const Geometry& g, const T* y, const T* w, T* x) {
  for_each_depthwise_plane(g, [&](int64_t xp, int64_t yp, int64_t wp) {
    for_each_tap_block(g, [&](const TapBlock& b) {
      vec::axpy_rows(w[wp + b.tap], y + yp + b.y_at, b.y_row, 1, x + xp + b.x_at, b.x_row,
                     g.stride[2], b.rows, b.n);
    });
  });
}

/// Adds the weight gradient into w (which the caller zeroed).
template <typename T>
void depthwise_backward_weight(const Geometry& g, const T* y, const T* x, T* w) {
  for_each_depthwise_plane(g, [&](int64_t xp, int64_t yp, int64_t wp) {
    for_each_tap_block(g, [&](const TapBlock& b) {
      w[wp + b.tap] += vec::dot_rows(y + yp + b.y_at, b.y_row, x + xp + b.x_at, b.x_row,
                                     g.stride[2], b.rows, b.n);
    });
  });
}

template <typename T>
MatrixRef<T> rows(const T* p, int64_t r, int64_t c) {
  return MatrixRef<T>{p, r, c, c, 1};
}
template <typename T>
MatrixRef<T> transposed_rows(const T* p, int64_t r, int64_t c) {
  // The transpose (c x r) of a row-major r x c matrix, read in place.
  return MatrixRef<T>{p, c, r, 1, c};
}

/// The tile's columns of a row-major [r, O] matrix, read in place.
template <typename T>
MatrixRef<T> tile_rows(const T* p, int64_t r, int64_t O, const Geometry& g, Tile t) {
  return MatrixRef<T>{p + t.offset(g), r, t.width(g), O, 1};
}

/// y [N, Cy, out] = the regular convolution of x [N, Cx, in] (contiguous) with w: per sample,
/// group and tile, y[:, tile] = W @ im2col(x)[:, tile].
template <typename T>
void regular_forward(const Geometry& g, const T* x, const T* w, T* y) {
  if (g.cxg() == 1) return depthwise_forward(g, x, w, y);
  const int64_t ck = g.cxg() * g.k_numel(), O = g.out_numel();
  const std::vector<Tile> ts = tiles<T>(g);
  const std::unique_ptr<T[]> col = column_buffer<T>(g, ts);
  for (int64_t n = 0; n < g.N; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* xg = x + (n * g.Cx + grp * g.cxg()) * g.in_numel();
      const MatrixRef<T> wg = rows(w + grp * g.cyg() * ck, g.cyg(), ck);
      T* yg = y + (n * g.Cy + grp * g.cyg()) * O;
      if (g.pointwise()) {
        gemm(wg, rows(xg, ck, O), T(0), yg, O);
        continue;
      }
      for (const Tile& t : ts) {
        im2col(g, g.cxg(), xg, col.get(), t);
        gemm(wg, rows(col.get(), ck, t.width(g)), T(0), yg + t.offset(g), O);
      }
    }
  }
}

/// x [N, Cx, in] = the input gradient of the regular convolution for y [N, Cy, out]: per
/// sample, group and tile, col = W^T @ y[:, tile], added into x by col2im.
template <typename T>
void regular_backward_input(const Geometry& g, const T* y, const T* w, T* x) {
  const int64_t ck = g.cxg() * g.k_numel(), O = g.out_numel();
  std::fill(x, x + g.N * g.Cx * g.in_numel(), T(0));
  if (g.cxg() == 1) return depthwise_backward_input(g, y, w, x);
  const std::vector<Tile> ts = tiles<T>(g);
  const std::unique_ptr<T[]> col = column_buffer<T>(g, ts);
  for (int64_t n = 0; n < g.N; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* yg = y + (n * g.Cy + grp * g.cyg()) * O;
      T* xg = x + (n * g.Cx + grp * g.cxg()) * g.in_numel();
      const MatrixRef<T> wt = transposed_rows(w + grp * g.cyg() * ck, g.cyg(), ck);
      if (g.pointwise()) {
        gemm(wt, rows(yg, g.cyg(), O), T(0), xg, O);
        continue;
      }
      for (const Tile& t : ts) {
        gemm(wt, tile_rows(yg, g.cyg(), O, g, t), T(0), col.get(), t.width(g));
        col2im(g, g.cxg(), col.get(), xg, t);
      }
    }
  }
}

/// w [Cy, Cx / groups, k] = the weight gradient of the regular convolution of x for y: per
/// sample, group and tile, W += y[:, tile] @ im2col(x)[:, tile]^T.
template <typename T>
void regular_backward_weight(const Geometry& g, const T* y, const T* x, T* w) {
  const int64_t ck = g.cxg() * g.k_numel(), O = g.out_numel();
  std::fill(w, w + g.Cy * ck, T(0));
  if (g.cxg() == 1) return depthwise_backward_weight(g, y, x, w);
  const std::vector<Tile> ts = tiles<T>(g);
  const std::unique_ptr<T[]> col = column_buffer<T>(g, ts);
  for (int64_t n = 0; n < g.N; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* xg = x + (n * g.Cx + grp * g.cxg()) * g.in_numel();
      const T* yg = y + (n * g.Cy + grp * g.cyg()) * O;
      T* wg = w + grp * g.cyg() * ck;
      if (g.pointwise()) {
        gemm(rows(yg, g.cyg(), O), transposed_rows(xg, ck, O), T(1), wg, ck);
        continue;
      }
      for (const Tile& t : ts) {
        im2col(g, g.cxg(), xg, col.get(), t);
        gemm(tile_rows(yg, g.cyg(), O, g, t), transposed_rows(col.get(), ck, t.width(g)), T(1), wg,
             ck);
      }
    }
  }
}

std::string list_str(IntArrayRef v) { return shape_str(v); }

/// A parameter list of `dims` entries: one entry applies to every dim.
std::vector<int64_t> expand_param(const char* op, const char* name, IntArrayRef v, int64_t dims) {
  if (static_cast<int64_t>(v.size()) == dims) return std::vector<int64_t>(v.begin(), v.end());
  if (v.size() == 1) return std::vector<int64_t>(static_cast<size_t>(dims), v[0]);
  throw std::invalid_argument(std::string(op) + ": expected " + name +
                              " to be a single integer "
                              "value or a list of " +
                              std::to_string(dims) +
                              " values to match the convolution dimensions, but got " + name + "=" +
                              list_str(v));
}

/// The parameters of a convolution call, checked as PyTorch's ConvUtils check them.
struct Params {
  int64_t dims;
  std::vector<int64_t> stride, padding, dilation, output_padding;
  bool transposed;
  int64_t groups;
};

// The tensors of a call: a weight of 3 to 5 dims, an input of as many, of one dtype.
void check_tensors(const char* op, const Tensor& input, const Tensor& weight) {
  const int64_t wd = weight.dim();
  if (wd < 3 || wd > 5) {
    throw std::invalid_argument(std::string(op) +
                                ": expected a weight of 3, 4 or 5 dims ([out, in / groups, "
                                "kernel...] for 1 to 3 spatial dims), got weight of size " +
                                list_str(weight.sizes()));
  }
  if (input.dim() != wd) {
    throw std::invalid_argument(std::string(op) + ": Expected " + std::to_string(wd) +
                                "-dimensional input for " + std::to_string(wd) +
                                "-dimensional weight " + list_str(weight.sizes()) + ", but got " +
                                std::to_string(input.dim()) + "-dimensional input of size " +
                                list_str(input.sizes()) + " instead");
  }
  if (input.scalar_type() != weight.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": Input type (" +
                                to_string(input.scalar_type()) + ") and weight type (" +
                                to_string(weight.scalar_type()) + ") should be the same");
  }
}

// The per-dim parameters: positive strides and dilations, no negative padding, an
// output_padding only for a transposed convolution and smaller than its stride or dilation.
void check_dim_params(const char* op, const Params& p) {
  for (int64_t d = 0; d < p.dims; ++d) {
    if (p.stride[d] <= 0) {
      throw std::invalid_argument(std::string(op) + ": non-positive stride is not supported");
    }
    if (p.padding[d] < 0) {
      throw std::invalid_argument(std::string(op) + ": negative padding is not supported");
    }
    if (p.dilation[d] <= 0) {
      throw std::invalid_argument(std::string(op) + ": dilation should be greater than zero");
    }
    if (p.output_padding[d] < 0) {
      throw std::invalid_argument(std::string(op) + ": negative output_padding is not supported");
    }
    if (p.transposed && p.output_padding[d] >= std::max(p.stride[d], p.dilation[d])) {
      throw std::invalid_argument(
          std::string(op) +
          ": output padding must be smaller than either stride or dilation, "
          "but got output_padding=" +
          list_str(p.output_padding) + ", stride=" + list_str(p.stride) +
          ", dilation=" + list_str(p.dilation));
    }
    if (!p.transposed && p.output_padding[d] != 0) {
      throw std::invalid_argument(std::string(op) +
                                  ": output_padding is only supported for transposed convolution");
    }
  }
}

// The groups: positive, dividing the weight's dim 0, and the input's channels as the weight
// expects them (dim 1 times groups; a transposed convolution's: dim 0).
void check_groups(const char* op, const Tensor& input, const Tensor& weight, bool transposed,
                  int64_t groups) {
  if (groups <= 0) {
    throw std::invalid_argument(std::string(op) + ": non-positive groups is not supported");
  }
  const int64_t channels = input.size(1);
  if (weight.size(0) % groups != 0) {
    throw std::invalid_argument(std::string(op) + ": Given groups=" + std::to_string(groups) +
                                ", expected weight to be divisible by " + std::to_string(groups) +
                                " at dimension 0, but got weight of "
                                "size " +
                                list_str(weight.sizes()) + " instead");
  }
  if (!transposed && channels != weight.size(1) * groups) {
    throw std::invalid_argument(std::string(op) + ": Given groups=" + std::to_string(groups) +
                                ", weight of size " + list_str(weight.sizes()) +
                                ", expected input" + list_str(input.sizes()) + " to have " +
                                std::to_string(weight.size(1) * groups) + " channels, but got " +
                                std::to_string(channels) + " channels instead");
  }
  if (transposed && channels != weight.size(0)) {
    throw std::invalid_argument(std::string(op) + ": Given transposed=1, weight of size " +
                                list_str(weight.sizes()) + ", expected input" +
                                list_str(input.sizes()) + " to have " +
                                std::to_string(weight.size(0)) + " channels, but got " +
                                std::to_string(channels) + " channels instead");
  }
}

Params check_params(const char* op, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                    IntArrayRef padding, IntArrayRef dilation, bool transposed,
                    IntArrayRef output_padding, int64_t groups) {
  check_tensors(op, input, weight);
  Params p;
  p.dims = weight.dim() - 2;
  p.stride = expand_param(op, "stride", stride, p.dims);
  p.padding = expand_param(op, "padding", padding, p.dims);
  p.dilation = expand_param(op, "dilation", dilation, p.dims);
  p.output_padding = expand_param(op, "output_padding", output_padding, p.dims);
  p.transposed = transposed;
  p.groups = groups;
  check_dim_params(op, p);
  check_groups(op, input, weight, transposed, groups);
  return p;
}

/// The regular geometry of a call, with the output's (convolution) or the X-side's (transposed)
/// spatial sizes computed from the input's; checks that the kernel fits the padded input.
Geometry geometry(const char* op, const Tensor& input, const Tensor& weight, const Params& p) {
  Geometry g;
  g.N = input.size(0);
  g.groups = p.groups;
  const int off = 3 - static_cast<int>(p.dims);
  for (int64_t d = 0; d < p.dims; ++d) {
    const int e = off + static_cast<int>(d);
    g.k[e] = weight.size(2 + d);
    g.stride[e] = p.stride[d];
    g.pad[e] = p.padding[d];
    g.dil[e] = p.dilation[d];
  }
  if (!p.transposed) {
    g.Cx = input.size(1);
    g.Cy = weight.size(0);
    std::vector<int64_t> padded, kernel;
    bool fits = true;
    for (int64_t d = 0; d < p.dims; ++d) {
      const int e = off + static_cast<int>(d);
      g.in[e] = input.size(2 + d);
      padded.push_back(g.in[e] + 2 * g.pad[e]);
      kernel.push_back(g.dil[e] * (g.k[e] - 1) + 1);
      fits = fits && padded.back() >= kernel.back();
      g.out[e] = fits ? (padded.back() - kernel.back()) / g.stride[e] + 1 : 0;
    }
    if (!fits) {
      auto join = [](const std::vector<int64_t>& v) {
        std::string s = "(";
        for (size_t i = 0; i < v.size(); ++i) s += (i ? " x " : "") + std::to_string(v[i]);
        return s + ")";
      };
      throw std::invalid_argument(std::string(op) + ": Calculated padded input size per channel: " +
                                  join(padded) + ". Kernel size: " + join(kernel) +
                                  ". Kernel size can't be greater than actual input size");
    }
  } else {
    g.Cy = input.size(1);
    g.Cx = weight.size(1) * p.groups;
    for (int64_t d = 0; d < p.dims; ++d) {
      const int e = off + static_cast<int>(d);
      g.out[e] = input.size(2 + d);
      g.in[e] = (g.out[e] - 1) * g.stride[e] - 2 * g.pad[e] + g.dil[e] * (g.k[e] - 1) +
                p.output_padding[d] + 1;
      if (g.in[e] <= 0) {
        throw std::invalid_argument(std::string(op) +
                                    ": the output of the transposed "
                                    "convolution of input " +
                                    list_str(input.sizes()) + " with weight " +
                                    list_str(weight.sizes()) + " would have size " +
                                    std::to_string(g.in[e]) + " at spatial dim " +
                                    std::to_string(d) + "; it must be positive");
      }
    }
  }
  return g;
}

/// The shape [N, C, spatial...] of the X-side or Y-side.
DimVector side_shape(const Geometry& g, int64_t dims, bool x_side) {
  DimVector s = {g.N, x_side ? g.Cx : g.Cy};
  for (int64_t d = 0; d < dims; ++d) {
    s.push_back(x_side ? g.in[3 - dims + d] : g.out[3 - dims + d]);
  }
  return s;
}

void add_bias(Tensor& out, const Tensor& bias) {
  const int64_t N = out.size(0), C = out.size(1), S = C == 0 || N == 0 ? 0 : out.numel() / (N * C);
  gradgen::internal::dispatch_floating(out.scalar_type(), "convolution", [&](auto tag) {
    using T = decltype(tag);
    T* o = out.data_ptr<T>();
    const T* b = bias.data_ptr<T>();
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t c = 0; c < C; ++c) {
        T* p = o + (n * C + c) * S;
        for (int64_t i = 0; i < S; ++i) p[i] += b[c];
      }
    }
  });
}

}  // namespace

Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                   IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                   IntArrayRef output_padding, int64_t groups) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(convolution, input, weight, bias, stride, padding, dilation,
                                   transposed, output_padding, groups);
  const char* op = "convolution";
  const Params p = check_params(op, input, weight, stride, padding, dilation, transposed,
                                output_padding, groups);
  const Geometry g = geometry(op, input, weight, p);
  const Tensor b = bias.has_value() && bias->defined() ? bias->contiguous() : Tensor();
  const int64_t out_channels = transposed ? g.Cx : g.Cy;
  if (b.defined() && (b.dim() != 1 || b.numel() != out_channels)) {
    throw std::invalid_argument(
        std::string(op) + ": Given weight of size " + list_str(weight.sizes()) +
        ", expected bias to be 1-dimensional with " + std::to_string(out_channels) +
        " elements, but got bias of size " + list_str(b.sizes()) + " instead");
  }
  if (b.defined() && b.scalar_type() != input.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": Input type (" +
                                to_string(input.scalar_type()) + ") and bias type (" +
                                to_string(b.scalar_type()) + ") should be the same");
  }
  const Tensor x = input.contiguous(), w = weight.contiguous();
  Tensor out = make_tensor(side_shape(g, p.dims, transposed), input.scalar_type());
  gradgen::internal::dispatch_floating(input.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    if (!transposed) {
      regular_forward<T>(g, x.data_ptr<T>(), w.data_ptr<T>(), out.data_ptr<T>());
    } else {
      regular_backward_input<T>(g, x.data_ptr<T>(), w.data_ptr<T>(), out.data_ptr<T>());
    }
  });
  if (b.defined()) add_bias(out, b);
  return out;
}

std::tuple<Tensor, Tensor, Tensor> convolution_backward(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight,
    OptionalIntArrayRef bias_sizes, IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
    bool transposed, IntArrayRef output_padding, int64_t groups, std::array<bool, 3> output_mask) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(convolution_backward, grad_output, input, weight, bias_sizes,
                                   stride, padding, dilation, transposed, output_padding, groups,
                                   output_mask);
  (void)bias_sizes;
  const char* op = "convolution_backward";
  const Params p = check_params(op, input, weight, stride, padding, dilation, transposed,
                                output_padding, groups);
  const Geometry g = geometry(op, input, weight, p);
  const DimVector out_shape = side_shape(g, p.dims, transposed);
  if (!grad_output.sizes().equals(out_shape)) {
    throw std::invalid_argument(std::string(op) + ": expected grad_output of size " +
                                list_str(out_shape) + ", got " + list_str(grad_output.sizes()));
  }
  if (grad_output.scalar_type() != input.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": expected grad_output of dtype " +
                                to_string(input.scalar_type()) + ", got " +
                                to_string(grad_output.scalar_type()));
  }
  const Tensor go = grad_output.contiguous(), x = input.contiguous(), w = weight.contiguous();
  Tensor gi = output_mask[0] ? make_tensor(input.sizes(), input.scalar_type()) : Tensor();
  Tensor gw = output_mask[1] ? make_tensor(weight.sizes(), weight.scalar_type()) : Tensor();
  gradgen::internal::dispatch_floating(input.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    // Regular: X = input, Y = grad_output. Transposed: X = grad_output, Y = input.
    const T* xs = transposed ? go.data_ptr<T>() : x.data_ptr<T>();
    const T* ys = transposed ? x.data_ptr<T>() : go.data_ptr<T>();
    if (gi.defined()) {
      if (!transposed) {
        regular_backward_input<T>(g, ys, w.data_ptr<T>(), gi.data_ptr<T>());
      } else {
        regular_forward<T>(g, xs, w.data_ptr<T>(), gi.data_ptr<T>());
      }
    }
    if (gw.defined()) regular_backward_weight<T>(g, ys, xs, gw.data_ptr<T>());
  });
  Tensor gb;
  if (output_mask[2]) {
    std::vector<int64_t> dims = {0};
    for (int64_t d = 2; d < grad_output.dim(); ++d) dims.push_back(d);
    gb = native::sum(grad_output, IntArrayRef(dims), false, std::nullopt);
  }
  return {gi, gw, gb};
}

// ---------------------------------------------------------------------------
// Composites
// ---------------------------------------------------------------------------

namespace {

/// Runs a conv of `dims` spatial dims on a batched input, or on an unbatched one as a batch of
/// one (PyTorch's conv1d/2d/3d and conv_transpose*).
Tensor batchify(const char* op, const Tensor& input, int64_t dims,
                const std::function<Tensor(const Tensor&)>& conv) {
  if (input.dim() != dims + 1 && input.dim() != dims + 2) {
    throw std::invalid_argument("Expected " + std::to_string(dims + 1) + "D (unbatched) or " +
                                std::to_string(dims + 2) + "D (batched) input to " + op +
                                ", but got input of size: " + shape_str(input.sizes()));
  }
  if (input.dim() == dims + 2) return conv(input);
  return gradgen::squeeze(conv(gradgen::unsqueeze(input, 0)), 0);
}

Tensor conv_nd(const char* op, int64_t dims, const Tensor& input, const Tensor& weight,
               const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
               IntArrayRef dilation, int64_t groups) {
  return in_composite_op(op, [&] {
    return batchify(op, input, dims, [&](const Tensor& x) {
      return gradgen::convolution(x, weight, bias, stride, padding, dilation, false, {0}, groups);
    });
  });
}

/// PyTorch's _convolution_mode: 'valid' is no padding; 'same' pads by dilation * (kernel - 1)
/// in total per dim, half on each side, an odd one's extra element at the end (the input padded
/// first with constant_pad_nd).
Tensor conv_padding_mode(const char* op, int64_t dims, const Tensor& input, const Tensor& weight,
                         const std::optional<Tensor>& bias, IntArrayRef stride,
                         std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return in_composite_op(op, [&] {
    if (padding == "valid") {
      return conv_nd(op, dims, input, weight, bias, stride, {0}, dilation, groups);
    }
    if (padding != "same") {
      throw std::invalid_argument("Invalid padding string: '" + std::string(padding) + "'");
    }
    for (int64_t s : stride) {
      if (s != 1) {
        throw std::invalid_argument("padding='same' is not supported for strided convolutions");
      }
    }
    if (weight.dim() != dims + 2) {
      throw std::invalid_argument(std::string(op) + ": expected a weight of " +
                                  std::to_string(dims + 2) + " dims, got " +
                                  shape_str(weight.sizes()));
    }
    const std::vector<int64_t> dil = expand_param(op, "dilation", dilation, dims);
    std::vector<int64_t> pad(static_cast<size_t>(dims));
    std::vector<int64_t> extra;  // constant_pad_nd's list: (left, right) from the last dim
    bool asymmetric = false;
    for (int64_t d = 0; d < dims; ++d) {
      const int64_t total = dil[d] * (weight.size(2 + d) - 1);
      pad[d] = total / 2;
      asymmetric = asymmetric || total % 2 != 0;
    }
    Tensor x = input;
    if (asymmetric) {
      for (int64_t d = dims - 1; d >= 0; --d) {
        const int64_t total = dil[d] * (weight.size(2 + d) - 1);
        extra.push_back(0);
        extra.push_back(total % 2);
      }
      x = gradgen::constant_pad_nd(input, extra, 0);
    }
    return conv_nd(op, dims, x, weight, bias, stride, pad, dilation, groups);
  });
}

Tensor conv_transpose_nd(const char* op, int64_t dims, const Tensor& input, const Tensor& weight,
                         const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                         IntArrayRef output_padding, int64_t groups, IntArrayRef dilation) {
  return in_composite_op(op, [&] {
    return batchify(op, input, dims, [&](const Tensor& x) {
      return gradgen::convolution(x, weight, bias, stride, padding, dilation, true, output_padding,
                                  groups);
    });
  });
}

}  // namespace

Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd("conv3d", 3, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntArrayRef stride, std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_padding_mode("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntArrayRef stride, std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_padding_mode("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntArrayRef stride, std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_padding_mode("conv3d", 3, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight,
                        const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                        IntArrayRef output_padding, int64_t groups, IntArrayRef dilation) {
  return conv_transpose_nd("conv_transpose1d", 1, input, weight, bias, stride, padding,
                           output_padding, groups, dilation);
}
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight,
                        const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                        IntArrayRef output_padding, int64_t groups, IntArrayRef dilation) {
  return conv_transpose_nd("conv_transpose2d", 2, input, weight, bias, stride, padding,
                           output_padding, groups, dilation);
}
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight,
                        const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                        IntArrayRef output_padding, int64_t groups, IntArrayRef dilation) {
  return conv_transpose_nd("conv_transpose3d", 3, input, weight, bias, stride, padding,
                           output_padding, groups, dilation);
}

}  // namespace native
}  // namespace gradgen
