// The kernels of gemm_kernel.h, compiled once per instruction set: gemm_kernel_baseline.cc,
// gemm_kernel_avx2.cc and gemm_kernel_avx512.cc include this file with GRADGEN_VEC_NS set, then
// define their table with GRADGEN_GEMM_DEFINE_TABLE(ns, bytes), bytes the width of the vectors
// (16, 32 or 64). Internal to csrc/native/simd (bench/engine/gemm_bench.cc includes it too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "csrc/native/simd/gemm_kernel.h"

#if defined(__FMA__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace gradgen {
namespace native {
namespace vec {

struct GemmTable {
  void (*gemm_f)(float*, int64_t, const MatrixRef<float>&, const MatrixRef<float>&, bool);
  void (*gemm_d)(double*, int64_t, const MatrixRef<double>&, const MatrixRef<double>&, bool);
  GemmTile tile_f, tile_d;
};

const GemmTable& gemm_baseline_table();
const GemmTable& gemm_avx2_table();
const GemmTable& gemm_avx512_table();

#if defined(GRADGEN_VEC_NS)
namespace GRADGEN_VEC_NS {
namespace gemm_detail {

/// A buffer of at least n elements per thread and slot, 64-byte aligned, kept between calls.
template <typename T, int kSlot>
T* scratch(int64_t n) {
  struct Buffer {
    T* p = nullptr;
    int64_t size = 0;
    ~Buffer() { std::free(p); }
  };
  thread_local Buffer buffer;
  if (buffer.size < n) {
    std::free(buffer.p);
    const size_t bytes = (static_cast<size_t>(n) * sizeof(T) + 63) / 64 * 64;
    buffer.p = static_cast<T*>(std::aligned_alloc(64, bytes));
    buffer.size = buffer.p != nullptr ? n : 0;
    if (buffer.p == nullptr) throw std::bad_alloc();
  }
  return buffer.p;
}

/// How the micro-kernel reads A's element (r, p) of an MR-row panel: packed (p * MR + r), in
/// place from a row-major A (r * lda + p) or from a column-major one (r + p * lda).
enum class AKind { kPacked, kRow, kCol };

template <typename T, int kBytes>
struct Kernel {
  typedef T V __attribute__((vector_size(kBytes)));
  static constexpr int kLanes = kBytes / static_cast<int>(sizeof(T));
  // Registers: AVX-512 has 32 (14 x 2 accumulators + 2 of B), AVX2 16 (6 x 2 + 2 + a broadcast),
  // SSE2 16 (4 x 2 + 2 + a broadcast + a product, there being no FMA).
  static constexpr int kMr = kBytes == 64 ? 14 : (kBytes == 32 ? 6 : 4);
  static constexpr int kNv = 2;
  static constexpr int kNr = kNv * kLanes;
  // Depth block: an A panel (MR x kc) stays in L1; column block: a packed B block (kc x nc,
  // 1 MiB) in L2.
  static constexpr int64_t kKc = 256;
  static constexpr int64_t kNc = (int64_t(1) << 20) / (kKc * int64_t(sizeof(T))) / kNr * kNr;
  // Operands whose rows (row-major) or columns (a column-major A) are at most this many bytes
  // apart are read in place: packing costs more than it saves on them (float32 A @ B and A^T @ B,
  // N = 64: 131-138 GFLOP/s in place, 67-75 packed), and farther apart the lines of a panel
  // compete for the same L1 sets and pages (N = 1024, A @ B: 113-136 with one operand in place,
  // 143-149 with both packed). One core of the Xeon of docs/benchmarks.md, at load 3.
  static constexpr int64_t kDirectBytes = 2048;

  static V load(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof(V));
    return v;
  }
  static void store(T* p, V v) { std::memcpy(p, &v, sizeof(V)); }
  // x in every lane (x - 0 is x exactly, -0 included; the subtraction folds away).
  static V splat(T x) { return x - V{}; }

  /// a * b + c, fused where the ISA has an FMA.
  static V madd(V a, V b, V c) {
#if defined(__AVX512F__)
    if constexpr (kBytes == 64 && sizeof(T) == 4) {
      return (V)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c);
    } else if constexpr (kBytes == 64) {
      return (V)_mm512_fmadd_pd((__m512d)a, (__m512d)b, (__m512d)c);
    }
#endif
#if defined(__FMA__)
    if constexpr (kBytes == 32 && sizeof(T) == 4) {
      return (V)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c);
    } else if constexpr (kBytes == 32) {
      return (V)_mm256_fmadd_pd((__m256d)a, (__m256d)b, (__m256d)c);
    }
#endif
    return a * b + c;
  }

  /// Where a panel's A and B are: A's (r, p) at a[r * ars + p * aps], B's row p at b + p * ldb.
  struct Operands {
    const T* a;
    int64_t ars, aps;
    const T* b;
    int64_t ldb;
  };

  /// c's tile (kRows x cols, cols <= NR) = or += the sum over p < kc of A(r, p) * B(p, :).
  template <int kRows, AKind kKind>
  static void tile(int64_t kc, const Operands& o, T* c, int64_t ldc, int64_t cols, bool add) {
    const int64_t ars = kKind == AKind::kPacked ? 1 : (kKind == AKind::kRow ? o.ars : 1);
    const int64_t aps = kKind == AKind::kPacked ? kMr : (kKind == AKind::kRow ? 1 : o.aps);
    V acc[kRows][kNv];
#pragma GCC unroll 16
    for (int r = 0; r < kRows; ++r) {
#pragma GCC unroll 4
      for (int v = 0; v < kNv; ++v) acc[r][v] = V{};
    }
    const T* a = o.a;
    const T* b = o.b;
    for (int64_t p = 0; p < kc; ++p, a += aps, b += o.ldb) {
      V bv[kNv];
#pragma GCC unroll 4
      for (int v = 0; v < kNv; ++v) bv[v] = load(b + v * kLanes);
#pragma GCC unroll 16
      for (int r = 0; r < kRows; ++r) {
        const V ar = splat(a[r * ars]);
#pragma GCC unroll 4
        for (int v = 0; v < kNv; ++v) acc[r][v] = madd(ar, bv[v], acc[r][v]);
      }
    }
    write_back<kRows>(acc, c, ldc, cols, add);
  }

  /// c = acc (or c + acc when `add`) on the first `cols` columns of the tile.
  template <int kRows>
  static void write_back(V (&acc)[kRows][kNv], T* c, int64_t ldc, int64_t cols, bool add) {
    if (cols == kNr) {
#pragma GCC unroll 16
      for (int r = 0; r < kRows; ++r) {
#pragma GCC unroll 4
        for (int v = 0; v < kNv; ++v) {
          T* cr = c + r * ldc + v * kLanes;
          store(cr, add ? load(cr) + acc[r][v] : acc[r][v]);
        }
      }
      return;
    }
    // A partial tile: the same sums (B's panel is padded with zeros), the same additions.
    alignas(64) T buffer[kRows][kNr];
#pragma GCC unroll 16
    for (int r = 0; r < kRows; ++r) {
#pragma GCC unroll 4
      for (int v = 0; v < kNv; ++v) store(&buffer[r][v * kLanes], acc[r][v]);
    }
    for (int r = 0; r < kRows; ++r) {
      for (int64_t j = 0; j < cols; ++j) {
        c[r * ldc + j] = add ? c[r * ldc + j] + buffer[r][j] : buffer[r][j];
      }
    }
  }

  /// A kc x nc block of B as the micro-kernel reads it: packed panels, or (row-major B) in place
  /// with only a partial last panel packed.
  struct BBlock {
    const T* packed;  // panel j / NR at packed + (j / NR) * kc * NR, rows of NR
    const T* direct;  // or row p of the block at direct + p * ldb
    int64_t ldb;
    const T* edge;  // the partial last panel, packed (direct only)
    int64_t kc, nc;
  };

  /// The B operand of the panel at column j of the block.
  static void panel_b(const BBlock& blk, int64_t j, Operands* o) {
    if (blk.direct != nullptr && j + kNr <= blk.nc) {
      o->b = blk.direct + j;
      o->ldb = blk.ldb;
    } else {
      o->b = blk.direct != nullptr ? blk.edge : blk.packed + (j / kNr) * blk.kc * kNr;
      o->ldb = kNr;
    }
  }

  /// One panel of kRows rows of A against every panel of the B block.
  template <int kRows, AKind kKind>
  static void row_panel(const BBlock& blk, Operands o, T* c, int64_t ldc, bool add) {
    for (int64_t j = 0; j < blk.nc; j += kNr) {
      panel_b(blk, j, &o);
      tile<kRows, kKind>(blk.kc, o, c + j, ldc, std::min<int64_t>(kNr, blk.nc - j), add);
    }
  }

  /// row_panel with the panel's row count (1..MR) known at compile time.
  template <int kRows, AKind kKind>
  static void rows_dispatch(int64_t rows, const BBlock& blk, const Operands& o, T* c, int64_t ldc,
                            bool add) {
    if constexpr (kRows > 0) {
      if (rows == kRows) return row_panel<kRows, kKind>(blk, o, c, ldc, add);
      rows_dispatch<kRows - 1, kKind>(rows, blk, o, c, ldc, add);
    }
  }

  /// B's columns [j0, j0 + cols) (cols <= NR) of a kc-row block, as a panel of NR columns
  /// (zeros after cols), rows NR apart.
  static void pack_b_panel(const MatrixRef<T>& b, int64_t j0, int64_t cols, T* dst) {
    const int64_t kc = b.rows;
    if (b.s1 == 1) {
      for (int64_t p = 0; p < kc; ++p) {
        std::memcpy(dst + p * kNr, b.p + p * b.s0 + j0, static_cast<size_t>(cols) * sizeof(T));
        std::fill(dst + p * kNr + cols, dst + (p + 1) * kNr, T(0));
      }
      return;
    }
    int64_t p = 0;
    if (b.s0 == 1 && cols == kNr) {
      // A column-major B (a transposed operand): kLanes x kLanes blocks transposed in registers.
      for (; p + kLanes <= kc; p += kLanes) {
        for (int v = 0; v < kNv; ++v) {
          transpose(b.p + (j0 + v * kLanes) * b.s1 + p, b.s1, kLanes, dst + p * kNr + v * kLanes,
                    kNr);
        }
      }
    }
    for (; p < kc; ++p) {
      for (int64_t q = 0; q < kNr; ++q) {
        dst[p * kNr + q] = q < cols ? b.p[p * b.s0 + (j0 + q) * b.s1] : T(0);
      }
    }
  }

  /// dst[i * ldd + q] = src[q * lds + i] for i < kLanes, q < count (count <= kLanes): the
  /// source's vectors (zeros past count) transposed in registers, log2(kLanes) rounds of
  /// two-vector shuffles, each swapping bit h of the row and column indices.
  static void transpose(const T* src, int64_t lds, int count, T* dst, int64_t ldd) {
    typedef typename IndexOf::type I __attribute__((vector_size(kBytes)));
    static constexpr ShuffleMasks masks = shuffle_masks();
    V x[kLanes];
    for (int q = 0; q < kLanes; ++q) x[q] = q < count ? load(src + q * lds) : V{};
#pragma GCC unroll 4
    for (int round = 0, h = kLanes / 2; h >= 1; ++round, h /= 2) {
      I lo_mask, hi_mask;
      std::memcpy(&lo_mask, masks.lo[round], sizeof(I));
      std::memcpy(&hi_mask, masks.hi[round], sizeof(I));
#pragma GCC unroll 16
      for (int i = 0; i < kLanes; ++i) {
        if (i & h) continue;
        const V lo = x[i], hi = x[i + h];
        x[i] = __builtin_shuffle(lo, hi, lo_mask);
        x[i + h] = __builtin_shuffle(lo, hi, hi_mask);
      }
    }
    if (count == kLanes) {
      for (int i = 0; i < kLanes; ++i) store(dst + i * ldd, x[i]);
    } else {
      for (int i = 0; i < kLanes; ++i) {
        std::memcpy(dst + i * ldd, &x[i], static_cast<size_t>(count) * sizeof(T));
      }
    }
  }

  struct IndexOf {
    using type = typename std::conditional<sizeof(T) == 4, int32_t, int64_t>::type;
  };

  /// transpose()'s shuffles: in round r (h = kLanes / 2 >> r), lane j of the low row takes the
  /// low row's lane j, or the high row's lane j - h where bit h of j is set; the high row's the
  /// low row's lane j + h, or its own lane j.
  struct ShuffleMasks {
    typename IndexOf::type lo[8][kLanes], hi[8][kLanes];
  };
  static constexpr ShuffleMasks shuffle_masks() {
    ShuffleMasks m{};
    for (int round = 0, h = kLanes / 2; h >= 1; ++round, h /= 2) {
      for (int j = 0; j < kLanes; ++j) {
        m.lo[round][j] = (j & h) ? kLanes + j - h : j;
        m.hi[round][j] = (j & h) ? kLanes + j : j + h;
      }
    }
    return m;
  }

  /// A's rows [r0, r0 + rows) of a kc-column block, packed: (r, p) at dst[p * MR + r].
  static void pack_a_panel(const MatrixRef<T>& a, int64_t r0, int64_t rows, T* dst) {
    const T* src = a.p + r0 * a.s0;
    int64_t p = 0;
    if (a.s1 == 1) {
      // A row-major A: blocks of up to kLanes rows x kLanes columns transposed in registers.
      for (; p + kLanes <= a.cols; p += kLanes) {
        for (int64_t g = 0; g < rows; g += kLanes) {
          const int count = static_cast<int>(std::min<int64_t>(kLanes, rows - g));
          transpose(src + g * a.s0 + p, a.s0, count, dst + p * kMr + g, kMr);
        }
      }
    }
    if (a.s0 == 1) {
      for (; p < a.cols; ++p) {
        std::memcpy(dst + p * kMr, src + p * a.s1, static_cast<size_t>(rows) * sizeof(T));
      }
    }
    for (; p < a.cols; ++p) {
      for (int64_t r = 0; r < rows; ++r) dst[p * kMr + r] = src[r * a.s0 + p * a.s1];
    }
  }

  /// The B block as the micro-kernel reads it (packing it into the thread's buffer if needed).
  static BBlock prepare_b(const MatrixRef<T>& b) {
    BBlock blk{nullptr, nullptr, 0, nullptr, b.rows, b.cols};
    const int64_t full = b.cols / kNr * kNr;
    // In place: a row-major B whose rows are short enough that a panel's rows stay in few pages.
    if (b.s1 == 1 && b.s0 * int64_t(sizeof(T)) <= kDirectBytes) {
      blk.direct = b.p;
      blk.ldb = b.s0;
      if (full < b.cols) {
        T* edge = scratch<T, 1>(b.rows * kNr);
        pack_b_panel(b, full, b.cols - full, edge);
        blk.edge = edge;
      }
      return blk;
    }
    const int64_t panels = (b.cols + kNr - 1) / kNr;
    T* packed = scratch<T, 0>(panels * b.rows * kNr);
    if (b.s1 == 1) {
      // Row by row, so that B is read in the order of its storage.
      for (int64_t p = 0; p < b.rows; ++p) {
        const T* src = b.p + p * b.s0;
        T* dst = packed + p * kNr;
        for (int64_t j = 0; j < full; j += kNr, dst += b.rows * kNr) {
#pragma GCC unroll 4
          for (int v = 0; v < kNv; ++v) store(dst + v * kLanes, load(src + j + v * kLanes));
        }
      }
      if (full < b.cols) pack_b_panel(b, full, b.cols - full, packed + (full / kNr) * b.rows * kNr);
    } else {
      for (int64_t j = 0; j < b.cols; j += kNr) {
        pack_b_panel(b, j, std::min<int64_t>(kNr, b.cols - j), packed + (j / kNr) * b.rows * kNr);
      }
    }
    blk.packed = packed;
    return blk;
  }

  /// c (m x nc) = or += a (m x kc) @ the B block.
  static void block(T* c, int64_t ldc, const MatrixRef<T>& a, const BBlock& blk, bool add) {
    const bool row = a.s1 == 1 && a.s0 * int64_t(sizeof(T)) <= kDirectBytes;
    const bool col = a.s0 == 1 && a.s1 * int64_t(sizeof(T)) <= kDirectBytes;
    const AKind kind = row ? AKind::kRow : (col ? AKind::kCol : AKind::kPacked);
    T* packed = kind == AKind::kPacked ? scratch<T, 2>(kMr * a.cols) : nullptr;
    for (int64_t i = 0; i < a.rows; i += kMr) {
      const int64_t rows = std::min<int64_t>(kMr, a.rows - i);
      Operands o{a.p + i * a.s0, a.s0, a.s1, nullptr, 0};
      T* ci = c + i * ldc;
      switch (kind) {
        case AKind::kRow: rows_dispatch<kMr, AKind::kRow>(rows, blk, o, ci, ldc, add); break;
        case AKind::kCol: rows_dispatch<kMr, AKind::kCol>(rows, blk, o, ci, ldc, add); break;
        default:
          pack_a_panel(a, i, rows, packed);
          o.a = packed;
          rows_dispatch<kMr, AKind::kPacked>(rows, blk, o, ci, ldc, add);
      }
    }
  }

  static void gemm(T* c, int64_t ldc, const MatrixRef<T>& a, const MatrixRef<T>& b,
                   bool accumulate) {
    const int64_t m = a.rows, k = a.cols, n = b.cols;
    // Depth blocks of equal size (but the last), from k alone: the order of every sum.
    const int64_t blocks = (k + kKc - 1) / kKc;
    const int64_t step = (k + blocks - 1) / blocks;
    for (int64_t j = 0; j < n; j += kNc) {
      const int64_t nc = std::min(kNc, n - j);
      for (int64_t p = 0; p < k; p += step) {
        const int64_t kc = std::min(step, k - p);
        const BBlock blk = prepare_b({b.p + p * b.s0 + j * b.s1, kc, nc, b.s0, b.s1});
        block(c + j, ldc, {a.p + p * a.s1, m, kc, a.s0, a.s1}, blk, accumulate || p > 0);
      }
    }
  }
};

}  // namespace gemm_detail

template <typename T, int kBytes>
void gemm(T* c, int64_t ldc, const MatrixRef<T>& a, const MatrixRef<T>& b, bool accumulate) {
  gemm_detail::Kernel<T, kBytes>::gemm(c, ldc, a, b, accumulate);
}

template <typename T, int kBytes>
constexpr GemmTile tile() {
  return {gemm_detail::Kernel<T, kBytes>::kMr, gemm_detail::Kernel<T, kBytes>::kNr};
}

}  // namespace GRADGEN_VEC_NS
#endif  // GRADGEN_VEC_NS

}  // namespace vec
}  // namespace native
}  // namespace gradgen

#define GRADGEN_GEMM_DEFINE_TABLE(ns, bytes) \
  namespace gradgen {                        \
  namespace native {                         \
  namespace vec {                            \
  const GemmTable& gemm_##ns##_table() {     \
    static const GemmTable table = {         \
        &ns::gemm<float, bytes>,             \
        &ns::gemm<double, bytes>,            \
        ns::tile<float, bytes>(),            \
        ns::tile<double, bytes>(),           \
    };                                       \
    return table;                            \
  }                                          \
  }                                          \
  }                                          \
  }
