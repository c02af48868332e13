// The one GEMM interface of the runtime: every matrix product (mm, bmm, matmul, linear and
// the formulas that call them) goes through gemm() below, so that the library behind it can
// change in one place. Matrices go through gradgen's own packed GEMM kernel
// (csrc/native/simd/gemm_kernel.h, compiled per instruction set, AVX-512 / AVX2+FMA picked at run
// time), vectors (a GEMV), and every product on CPUs without AVX2, through Eigen's
// (simd/vectorized.h). Eigen's GEMM was the kernel until issue 27: on an AMD EPYC it beat
// OpenBLAS, BLIS and MKL, on the Intel Xeon measured since it ran 15-25% behind libtorch's MKL at
// N = 256 and 1024, and the Debian BLAS libraries far behind both (docs/benchmarks.md, "GEMM
// library"; bench/engine/gemm_bench.cc).
//
// Intra-op threads: set_num_threads(n) lets a large product be split into n panels of rows (or
// of columns) of the result, computed by a pool of n - 1 worker threads and the calling thread.
// One thread (the default) runs everything on the calling thread, as before.
#pragma once

#include <cstdint>
#include <functional>

#include "csrc/native/simd/vectorized.h"

namespace gradgen {

/// Intra-op threads of the matrix products, the calling thread included (1 by default: no
/// worker thread is started). n < 1 is taken as 1. Thread-safe; the pool is shared by every
/// thread, and a product started while another one holds the pool runs on its own thread.
void set_num_threads(int n);
int get_num_threads();

namespace native {

using vec::MatrixRef;

/// c = op(a) @ op(b) + beta * c, with c an a.rows x b.cols row-major matrix of row stride ldc.
/// A transposed operand is a MatrixRef with swapped strides (t() of a row-major matrix is
/// column-major): it is read in place, never materialized; operands whose strides fit
/// neither order are copied once. beta 0 does not read c (it may hold garbage); beta 1 adds
/// to it, which fuses a bias broadcast into c beforehand (linear, addmm).
void gemm(const MatrixRef<float>& a, const MatrixRef<float>& b, float beta, float* c, int64_t ldc);
void gemm(const MatrixRef<double>& a, const MatrixRef<double>& b, double beta, double* c,
          int64_t ldc);

/// The library and instruction set behind gemm(), e.g. "eigen-avx512".
const char* gemm_backend();

/// Element-wise kernels and reductions split across the intra-op threads: below this many
/// elements per thread (PyTorch's GRAIN_SIZE) an op stays on the calling thread.
constexpr int64_t kParallelGrain = 32768;

/// The out-of-line part of parallel_for.
void parallel_ranges(int64_t n, int64_t grain, int64_t align,
                     const std::function<void(int64_t, int64_t)>& f);

/// Calls f(begin, end) on contiguous ranges covering [0, n), one per intra-op thread (the
/// calling thread takes the first) when there are several threads and n >= 2 * grain; otherwise
/// f(0, n) on the calling thread, with no other cost than the comparison. Range boundaries are
/// multiples of `align`. f must not depend on where the ranges split (element-wise ops; a
/// reduction splits into fixed chunks and combines them in order) so that results do not
/// depend on the thread count.
template <typename F>
inline void parallel_for(int64_t n, int64_t grain, int64_t align, F&& f) {
  if (n < 2 * grain) {
    f(int64_t{0}, n);
    return;
  }
  parallel_ranges(n, grain, align, f);
}

/// Calls f(begin, end) on the chunks [i, i + chunk) of [0, n) (the last one shorter), which the
/// intra-op threads (the calling thread included) take in turn as each becomes free: for items
/// of a few hundred microseconds or more (a convolution's samples), the work stays balanced when
/// another process slows one thread. With one thread, or n < 2 * chunk, or from inside another
/// parallel task: f(0, n) on the calling thread. f must not depend on where the chunks split or
/// which thread runs them.
void parallel_dynamic(int64_t n, int64_t chunk, const std::function<void(int64_t, int64_t)>& f);

}  // namespace native
}  // namespace gradgen
