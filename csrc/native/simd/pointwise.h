// Vectorized element-wise loops and row sums on dense arrays: relu, its gradient
// (threshold_backward), mse_loss's passes and the column sums of linear's bias gradient.
//
// Plain loops the compiler vectorizes, built like vectorized.h's kernels for the baseline ISA,
// AVX2+FMA and AVX-512 (pointwise_*.cc), the best one picked at the first call; the rest of the
// kernels are compiled for the baseline ISA only, where GCC's -O2 leaves such loops scalar.
// No Eigen: editing these does not rebuild the GEMM's three copies. Single-threaded: callers
// split large arrays across the intra-op threads (native::parallel_for, gemm.h).
#pragma once

#include <cstdint>

namespace gradgen {
namespace native {
namespace vec {

/// y[i] = x[i] > 0 ? x[i] : 0, NaN kept (x[i] <= 0 gives +0, as relu's scalar loop). y may be x.
void relu(const float* x, float* y, int64_t n);
void relu(const double* x, double* y, int64_t n);

/// out[i] = x[i] <= threshold ? 0 : g[i] (a NaN x passes g through).
void threshold_backward(const float* g, const float* x, float threshold, float* out, int64_t n);
void threshold_backward(const double* g, const double* x, double threshold, double* out, int64_t n);

/// out[i] = c * (a[i] - b[i]).
void scaled_difference(const float* a, const float* b, float c, float* out, int64_t n);
void scaled_difference(const double* a, const double* b, double c, double* out, int64_t n);

/// The sum of (a[i] - b[i])^2 in double, in 16 lanes (lane j takes i % 16 == j, the tail is
/// added first, then the lanes in order): the same bits whatever the ISA and alignment.
double sum_squared_difference(const float* a, const float* b, int64_t n);
double sum_squared_difference(const double* a, const double* b, int64_t n);

/// acc[j] += x[r * ld + j] for r in [0, rows) in order, j in [0, cols), in double: column
/// sums of a row-major matrix, each column summed in row order (the bits of a scalar loop).
void add_rows(const float* x, int64_t rows, int64_t cols, int64_t ld, double* acc);
void add_rows(const double* x, int64_t rows, int64_t cols, int64_t ld, double* acc);

}  // namespace vec
}  // namespace native
}  // namespace gradgen
