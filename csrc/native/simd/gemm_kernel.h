// gradgen's own GEMM kernel (issue 27): the products of csrc/native/gemm.h on CPUs with AVX-512
// and AVX2+FMA, and in the sanitizer builds (baseline ISA; other baseline CPUs keep Eigen's).
// Eigen's GEMM (vectorized.h), which it replaced there, ran at 66-90 GFLOP/s on float32 at
// N = 64..1024 on one core of this project's Xeon, against 70-110 for the MKL inside libtorch
// (docs/benchmarks.md, "GEMM library").
//
// The structure of GotoBLAS / BLIS: the depth is cut into blocks of at most kc terms, the columns
// into blocks of at most nc; a block of B is packed into panels of NR columns (NR = 2 vectors),
// the rows of A are taken MR at a time, and a micro-kernel keeps an MR x NR tile of C in vector
// registers (AVX-512 float: 14 x 32, 28 zmm accumulators, one broadcast of A per FMA row). A
// row-major B and a row- or column-major A are read in place when that is cheaper than copying
// them; every other layout is packed, so any strides are accepted.
//
// Built per instruction set like depthwise.h (gemm_kernel_{baseline,avx2,avx512}.cc, GCC vector
// types of 16, 32 or 64 bytes), the one vectorized.h's kernels run with picked at the first call.
// Single-threaded: gemm.cc splits large products into panels across the intra-op threads.
#pragma once

#include <cstdint>

#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {
namespace vec {

/// c (a.rows x b.cols, row-major with row stride ldc) = a @ b, or += a @ b when `accumulate`
/// (without it c is not read). a and b may have any strides; a.cols == b.rows > 0. Element (i, j)
/// is, for each block of the depth in order (blocks that depend on a.cols only), the sum of its
/// terms in order, accumulated from zero with one FMA per term (a multiply and an add where the
/// ISA has no FMA), then added to c: the same operations whatever the element's position, so that
/// a product split into panels of rows or columns gives the bits of the whole.
void packed_gemm(float* c, int64_t ldc, const MatrixRef<float>& a, const MatrixRef<float>& b,
                 bool accumulate);
void packed_gemm(double* c, int64_t ldc, const MatrixRef<double>& a, const MatrixRef<double>& b,
                 bool accumulate);

/// The micro-kernel's tile (MR rows x NR columns of c) for T = float (`single`) or double: the
/// panels of a product split across threads are multiples of it.
struct GemmTile {
  int64_t rows, cols;
};
GemmTile packed_gemm_tile(bool single);

/// Whether packed_gemm is the GEMM of this CPU's instruction set (otherwise gemm.h uses Eigen's):
/// AVX-512 and AVX2, and the baseline ISA in the sanitizer builds.
bool packed_gemm_enabled();

}  // namespace vec
}  // namespace native
}  // namespace gradgen
