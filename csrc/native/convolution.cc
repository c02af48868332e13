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
//
// Intra-op threads (set_num_threads): the samples are split across them (each thread with its
// own column buffer, its products whole on its thread), the weight gradient's samples in a fixed
// number of chunks with partial sums added in order, the depthwise kernels' planes or channels;
// results do not depend on the thread count (ConvolutionTest.ResultsDoNotDependOnTheThreadCount).
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
#include "csrc/native/simd/depthwise.h"
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
          // (o0, o1) of output row r, stepped along (a division per row was a fifth of the CNN
          // step's backward in bench/engine, at 16 x 16 outputs).
          int64_t o0 = tile.r0 / g.out[1], o1 = tile.r0 % g.out[1];
          for (int64_t r = tile.r0; r < tile.r1; ++r, ++o1) {
            if (o1 == g.out[1]) {
              o1 = 0;
              ++o0;
            }
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
          int64_t o0 = tile.r0 / g.out[1], o1 = tile.r0 % g.out[1];  // as im2col's
          for (int64_t r = tile.r0; r < tile.r1; ++r, ++o1) {
            if (o1 == g.out[1]) {
              o1 = 0;
              ++o0;
            }
            const int64_t i0 = o0 * g.stride[0] - g.pad[0] + k0 * g.dil[0];
            const int64_t i1 = o1 * g.stride[1] - g.pad[1] + k1 * g.dil[1];
            if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1]) continue;
            const T* src = row + (r - tile.r0) * g.out[2];
            T* dst = xc + (i0 * g.in[1] + i1) * g.in[2] + off;
            if (s2 == 1) {
              for (int64_t o2 = lo; o2 < hi; ++o2) dst[o2] += src[o2];  // vectorized
            } else {
              for (int64_t o2 = lo; o2 < hi; ++o2) dst[o2 * s2] += src[o2];
            }
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

/// An uninitialized column buffer for the tiles (every entry is written before it is read): up to
/// kWholeBytes, the calling thread's own buffer, kept from one call to the next (a new one per
/// call came from mmap, its pages faulted in again each time); larger, one of its own.
template <typename T>
class ColumnBuffer {
 public:
  ColumnBuffer(const Geometry& g, const std::vector<Tile>& ts) {
    if (g.pointwise() || ts.empty()) return;
    const int64_t n = g.cxg() * g.k_numel() * ts[0].width(g);
    if (n * static_cast<int64_t>(sizeof(T)) > kWholeBytes) {
      own_.reset(new T[static_cast<size_t>(n)]);
      p_ = own_.get();
      return;
    }
    thread_local std::unique_ptr<T[]> cached;
    thread_local int64_t cached_size = 0;
    if (cached_size < n) {
      cached.reset(new T[static_cast<size_t>(n)]);
      cached_size = n;
    }
    p_ = cached.get();
  }
  T* get() const { return p_; }

 private:
  std::unique_ptr<T[]> own_;
  T* p_ = nullptr;
};

/// Work below this many multiply-adds per task is not split across the intra-op threads (about
/// 10-50 us on one core: well above the cost of waking a worker).
constexpr int64_t kMinTaskMacs = int64_t(1) << 18;

/// The grain (items per task) of a parallel loop over items of `macs` multiply-adds each.
int64_t grain_for(int64_t macs) {
  return std::max<int64_t>(1, kMinTaskMacs / std::max<int64_t>(macs, 1));
}

/// The chunk of parallel_dynamic over n depthwise planes (or channels) of `macs` each: at least
/// the grain, and at most 64 chunks in all.
int64_t plane_chunk(int64_t n, int64_t macs) { return std::max(grain_for(macs), (n + 63) / 64); }

/// Depthwise convolutions (one input channel per group: groups == Cx) skip im2col and the
/// GEMM: per sample and group the GEMM would be [Cy / groups, K] @ [K, O] with K the kernel's
/// size (9 for 3x3), far too thin for the GEMM's packing to pay, and im2col would copy the input
/// K times. They run the direct kernels of simd/depthwise.h instead, one (sample, channel) plane
/// at a time, the planes split across the intra-op threads: the forward sums every tap of a
/// vector of outputs in registers; the input gradient (stride 1) is the forward with the kernel
/// flipped; the weight gradient keeps a vector accumulator per tap. Strided input gradients add
/// each tap's shifted plane into the input's (vec::axpy_rows).

/// The plane kernels' geometry of the spatial dims 1 and 2 (dim 0 is looped over here).
vec::DepthwisePlane plane_of(const Geometry& g) {
  return {g.in[1],     g.in[2],     g.out[1], g.out[2], g.k[1],    g.k[2],
          g.stride[1], g.stride[2], g.dil[1], g.dil[2], -g.pad[1], -g.pad[2]};
}

/// One output volume y [out...] = init + the depthwise convolution of the input volume x [in...]
/// with the kernel w [k...] (accumulate: y += the convolution): the plane kernel per output slice
/// o0 and kernel slice k0 reading inside x. g.pad may be negative (a shift the other way).
template <typename T>
void depthwise_volume(const Geometry& g, const vec::DepthwisePlane& pl, const T* x, const T* w,
                      T init, bool accumulate, T* y) {
  const int64_t xs = g.in[1] * g.in[2], ys = g.out[1] * g.out[2], ws = g.k[1] * g.k[2];
  for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
    bool added = accumulate;
    for (int64_t k0 = 0; k0 < g.k[0]; ++k0) {
      const int64_t i0 = o0 * g.stride[0] + k0 * g.dil[0] - g.pad[0];
      if (i0 < 0 || i0 >= g.in[0]) continue;
      vec::depthwise_plane(pl, x + i0 * xs, w + k0 * ws, init, added, y + o0 * ys);
      added = true;
    }
    if (!added) std::fill(y + o0 * ys, y + (o0 + 1) * ys, init);
  }
}

/// y = the depthwise convolution of x with w, plus bias[c] per output channel (bias may be null).
template <typename T>
void depthwise_forward(const Geometry& g, const T* x, const T* w, const T* bias, T* y) {
  const vec::DepthwisePlane pl = plane_of(g);
  const int64_t I = g.in_numel(), O = g.out_numel(), K = g.k_numel();
  parallel_dynamic(g.N * g.Cy, plane_chunk(g.N * g.Cy, O * K), [&](int64_t begin, int64_t end) {
    for (int64_t q = begin; q < end; ++q) {
      const int64_t n = q / g.Cy, c = q % g.Cy;
      depthwise_volume(g, pl, x + (n * g.Cx + c / g.cyg()) * I, w + c * K, bias ? bias[c] : T(0),
                       false, y + q * O);
    }
  });
}

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

/// x = the input gradient of the depthwise convolution for y, plus bias[c] per input channel
/// (the bias of a transposed convolution; may be null). Every x plane is written.
template <typename T>
void depthwise_backward_input(const Geometry& g, const T* y, const T* w, const T* bias, T* x) {
  const int64_t I = g.in_numel(), O = g.out_numel(), K = g.k_numel(), M = g.cyg();
  const bool unit_stride = g.stride[0] == 1 && g.stride[1] == 1 && g.stride[2] == 1;
  // Stride 1: x[i] = sum over the taps k of w[k] y[i + pad - k * dil], the forward convolution
  // of y with the flipped kernel, whose offset is pad - dil * (kernel - 1): the geometry with
  // the sides swapped and pad' = dil * (kernel - 1) - pad (maybe negative).
  Geometry f = g;
  for (int d = 0; d < 3; ++d) {
    std::swap(f.in[d], f.out[d]);
    f.pad[d] = g.dil[d] * (g.k[d] - 1) - g.pad[d];
  }
  const vec::DepthwisePlane pl = plane_of(f);
  parallel_dynamic(g.N * g.Cx, plane_chunk(g.N * g.Cx, M * O * K), [&](int64_t begin, int64_t end) {
    std::vector<T> flipped(static_cast<size_t>(K));
    for (int64_t q = begin; q < end; ++q) {
      const int64_t n = q / g.Cx, c = q % g.Cx;
      T* xp = x + q * I;
      const T init = bias ? bias[c] : T(0);
      if (!unit_stride || M == 0) std::fill(xp, xp + I, init);
      for (int64_t m = 0; m < M; ++m) {
        const int64_t cy = c * M + m;
        const T* yp = y + (n * g.Cy + cy) * O;
        const T* wp = w + cy * K;
        if (unit_stride) {
          for (int64_t t = 0; t < K; ++t) flipped[static_cast<size_t>(t)] = wp[K - 1 - t];
          depthwise_volume(f, pl, yp, flipped.data(), init, m > 0, xp);
          continue;
        }
        for_each_tap_block(g, [&](const TapBlock& b) {
          vec::axpy_rows(wp[b.tap], yp + b.y_at, b.y_row, 1, xp + b.x_at, b.x_row, g.stride[2],
                         b.rows, b.n);
        });
      }
    }
  });
}

/// Adds the weight gradient into w (which the caller zeroed): per output channel, the sum over
/// the samples (in order) of the plane kernel's tap sums; the channels split across the threads.
template <typename T>
void depthwise_backward_weight(const Geometry& g, const T* y, const T* x, T* w) {
  const vec::DepthwisePlane pl = plane_of(g);
  const int64_t I = g.in_numel(), O = g.out_numel(), K = g.k_numel();
  const int64_t xs = g.in[1] * g.in[2], ys = g.out[1] * g.out[2], ws = g.k[1] * g.k[2];
  parallel_dynamic(g.Cy, plane_chunk(g.Cy, g.N * O * K), [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      for (int64_t n = 0; n < g.N; ++n) {
        const T* xp = x + (n * g.Cx + c / g.cyg()) * I;
        const T* yp = y + (n * g.Cy + c) * O;
        for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
          for (int64_t k0 = 0; k0 < g.k[0]; ++k0) {
            const int64_t i0 = o0 * g.stride[0] + k0 * g.dil[0] - g.pad[0];
            if (i0 < 0 || i0 >= g.in[0]) continue;
            vec::depthwise_plane_weight(pl, yp + o0 * ys, xp + i0 * xs, w + c * K + k0 * ws);
          }
        }
      }
    }
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

/// Fills the columns [at, at + width) of the rows of a row-major [rows, ld] matrix with
/// value[r] (value null: 0).
template <typename T>
void fill_rows(T* p, int64_t rows, int64_t ld, int64_t at, int64_t width, const T* value) {
  for (int64_t r = 0; r < rows; ++r) {
    std::fill(p + r * ld + at, p + r * ld + at + width, value ? value[r] : T(0));
  }
}

/// Runs per_sample(n, col) for every sample n, the samples split across the intra-op threads
/// (each range with its own column buffer `col`) when they are worth it; a product inside a
/// task runs on its thread. One sample's results do not depend on the split.
template <typename T, typename F>
void for_each_sample(const Geometry& g, const std::vector<Tile>& ts, F&& per_sample) {
  const int64_t macs = g.Cy * g.cxg() * g.k_numel() * g.out_numel();
  parallel_dynamic(g.N, grain_for(macs), [&](int64_t begin, int64_t end) {
    const ColumnBuffer<T> col(g, ts);
    for (int64_t n = begin; n < end; ++n) per_sample(n, col.get());
  });
}

/// y [N, Cy, out] = the regular convolution of x [N, Cx, in] (contiguous) with w, plus bias[c]
/// per output channel (bias may be null): per sample, group and tile, y[:, tile] = bias +
/// W @ im2col(x)[:, tile], the bias written where the GEMM adds its product.
template <typename T>
void regular_forward(const Geometry& g, const T* x, const T* w, const T* bias, T* y) {
  if (g.cxg() == 1) return depthwise_forward(g, x, w, bias, y);
  const int64_t ck = g.cxg() * g.k_numel(), O = g.out_numel();
  const std::vector<Tile> ts = tiles<T>(g);
  const T beta = bias ? T(1) : T(0);
  for_each_sample<T>(g, ts, [&](int64_t n, T* col) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* xg = x + (n * g.Cx + grp * g.cxg()) * g.in_numel();
      const MatrixRef<T> wg = rows(w + grp * g.cyg() * ck, g.cyg(), ck);
      T* yg = y + (n * g.Cy + grp * g.cyg()) * O;
      const T* bg = bias ? bias + grp * g.cyg() : nullptr;
      if (g.pointwise()) {
        if (bias) fill_rows(yg, g.cyg(), O, 0, O, bg);
        gemm(wg, rows(xg, ck, O), beta, yg, O);
        continue;
      }
      for (const Tile& t : ts) {
        im2col(g, g.cxg(), xg, col, t);
        if (bias) fill_rows(yg, g.cyg(), O, t.offset(g), t.width(g), bg);
        gemm(wg, rows(col, ck, t.width(g)), beta, yg + t.offset(g), O);
      }
    }
  });
}

/// x [N, Cx, in] = the input gradient of the regular convolution for y [N, Cy, out], plus
/// bias[c] per X-side channel (a transposed convolution's bias; may be null): per sample, group
/// and tile, col = W^T @ y[:, tile], added into x by col2im.
template <typename T>
void regular_backward_input(const Geometry& g, const T* y, const T* w, const T* bias, T* x) {
  if (g.cxg() == 1) return depthwise_backward_input(g, y, w, bias, x);
  const int64_t ck = g.cxg() * g.k_numel(), O = g.out_numel(), I = g.in_numel();
  const std::vector<Tile> ts = tiles<T>(g);
  for_each_sample<T>(g, ts, [&](int64_t n, T* col) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* yg = y + (n * g.Cy + grp * g.cyg()) * O;
      T* xg = x + (n * g.Cx + grp * g.cxg()) * I;
      const T* bg = bias ? bias + grp * g.cxg() : nullptr;
      const MatrixRef<T> wt = transposed_rows(w + grp * g.cyg() * ck, g.cyg(), ck);
      if (g.pointwise()) {
        if (bias) fill_rows(xg, g.cxg(), I, 0, I, bg);
        gemm(wt, rows(yg, g.cyg(), O), bias ? T(1) : T(0), xg, O);
        continue;
      }
      fill_rows(xg, g.cxg(), I, 0, I, bg);  // col2im adds to it
      for (const Tile& t : ts) {
        gemm(wt, tile_rows(yg, g.cyg(), O, g, t), T(0), col, t.width(g));
        col2im(g, g.cxg(), col, xg, t);
      }
    }
  });
}

/// The number of partial weight gradients of regular_backward_weight: up to 8 chunks of
/// samples, fewer when their buffers would pass 64 MB. Depends on the shapes only, so that the
/// result does not depend on the thread count.
template <typename T>
int64_t weight_chunks(const Geometry& g) {
  const int64_t bytes = g.Cy * g.cxg() * g.k_numel() * static_cast<int64_t>(sizeof(T));
  const int64_t by_memory = (int64_t(64) << 20) / std::max<int64_t>(bytes, 1);
  return std::max<int64_t>(1, std::min<int64_t>({g.N, 8, by_memory}));
}

/// w [Cy, Cx / groups, k] = the weight gradient of the regular convolution of x for y: per
/// sample, group and tile, W += y[:, tile] @ im2col(x)[:, tile]^T. The samples are split into
/// weight_chunks() chunks, each summed into a partial gradient of its own (the chunks split
/// across the intra-op threads), the partials then added in order.
template <typename T>
void regular_backward_weight(const Geometry& g, const T* y, const T* x, T* w) {
  const int64_t ck = g.cxg() * g.k_numel(), O = g.out_numel(), size = g.Cy * ck;
  if (g.cxg() == 1) {
    std::fill(w, w + size, T(0));
    return depthwise_backward_weight(g, y, x, w);
  }
  const std::vector<Tile> ts = tiles<T>(g);
  // Adds (or writes, beta 0 on the first product) samples [begin, end)'s gradient into wc.
  auto samples = [&](int64_t begin, int64_t end, T* col, T* wc) {
    T beta = T(0);
    for (int64_t n = begin; n < end; ++n) {
      for (int64_t grp = 0; grp < g.groups; ++grp) {
        const T* xg = x + (n * g.Cx + grp * g.cxg()) * g.in_numel();
        const T* yg = y + (n * g.Cy + grp * g.cyg()) * O;
        T* wg = wc + grp * g.cyg() * ck;
        if (g.pointwise()) {
          gemm(rows(yg, g.cyg(), O), transposed_rows(xg, ck, O), beta, wg, ck);
          continue;
        }
        T tile_beta = beta;
        for (const Tile& t : ts) {
          im2col(g, g.cxg(), xg, col, t);
          gemm(tile_rows(yg, g.cyg(), O, g, t), transposed_rows(col, ck, t.width(g)), tile_beta, wg,
               ck);
          tile_beta = T(1);
        }
      }
      beta = T(1);
    }
  };
  const int64_t chunks = weight_chunks<T>(g);
  if (chunks == 1 || ts.empty()) {
    std::fill(w, w + size, T(0));
    const ColumnBuffer<T> col(g, ts);
    samples(0, g.N, col.get(), w);
    return;
  }
  const std::unique_ptr<T[]> partial(new T[static_cast<size_t>(chunks * size)]);
  const int64_t macs = g.N / chunks * size * O;
  parallel_dynamic(chunks, grain_for(macs), [&](int64_t begin, int64_t end) {
    const ColumnBuffer<T> col(g, ts);
    for (int64_t c = begin; c < end; ++c) {
      samples(c * g.N / chunks, (c + 1) * g.N / chunks, col.get(), partial.get() + c * size);
    }
  });
  parallel_for(size, kParallelGrain, 16, [&](int64_t begin, int64_t end) {
    std::copy(partial.get() + begin, partial.get() + end, w + begin);
    for (int64_t c = 1; c < chunks; ++c) {
      const T* p = partial.get() + c * size;
      for (int64_t i = begin; i < end; ++i) w[i] += p[i];
    }
  });
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
    // The bias is written where the kernels start their sums (no second pass over the output).
    const T* bp = b.defined() ? b.data_ptr<T>() : nullptr;
    if (!transposed) {
      regular_forward<T>(g, x.data_ptr<T>(), w.data_ptr<T>(), bp, out.data_ptr<T>());
    } else {
      regular_backward_input<T>(g, x.data_ptr<T>(), w.data_ptr<T>(), bp, out.data_ptr<T>());
    }
  });
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
        regular_backward_input<T>(g, ys, w.data_ptr<T>(), nullptr, gi.data_ptr<T>());
      } else {
        regular_forward<T>(g, xs, w.data_ptr<T>(), nullptr, gi.data_ptr<T>());
      }
    }
    if (gw.defined()) regular_backward_weight<T>(g, ys, xs, gw.data_ptr<T>());
  });
  Tensor gb;
  if (output_mask[2]) {
    // The bias gradient: per channel, the sums of its planes in double (vec::add_row_sums), the
    // samples added in order; the channels split across the intra-op threads.
    const int64_t N = go.size(0), C = go.size(1), S = C == 0 || N == 0 ? 0 : go.numel() / (N * C);
    gb = make_tensor({C}, go.scalar_type());
    gradgen::internal::dispatch_floating(go.scalar_type(), op, [&](auto tag) {
      using T = decltype(tag);
      const T* g = go.data_ptr<T>();
      T* out = gb.data_ptr<T>();
      parallel_dynamic(C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(N * S, 1)),
                       [&](int64_t begin, int64_t end) {
                         std::vector<double> sums(static_cast<size_t>(end - begin), 0.0);
                         for (int64_t n = 0; n < N; ++n) {
                           vec::add_row_sums(g + (n * C + begin) * S, end - begin, S, sums.data());
                         }
                         for (int64_t c = begin; c < end; ++c) {
                           out[c] = static_cast<T>(sums[static_cast<size_t>(c - begin)]);
                         }
                       });
    });
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
