// The one GEMM interface of the runtime: every matrix product (mm, bmm, matmul, linear and
// the formulas that call them) goes through gemm() below, so that the library behind it can
// change in one place. Today it is Eigen's GEMM compiled per instruction set
// (csrc/native/simd/, AVX-512 / AVX2+FMA / baseline picked at run time): on the machines of
// this project it beat OpenBLAS, BLIS and MKL at every size measured (README, "Benchmarks";
// bench/engine/gemm_bench.cc).
//
// Intra-op threads: set_num_threads(n) lets a large product be split into n panels of rows (or
// of columns) of the result, computed by a pool of n - 1 worker threads and the calling thread.
// One thread (the default) runs everything on the calling thread, as before.
#pragma once

#include <cstdint>

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

}  // namespace native
}  // namespace gradgen
