// The vectorized inner kernels: matrix products (Eigen's GEMM), the
// transcendental element-wise loops (tanh, exp, sigmoid) on dense arrays, and the
// rows of scaled adds and dot products of depthwise convolutions, layer norm's rows and softmax's.
//
// Each is compiled three times, from vectorized_impl.h: for the baseline x86-64
// ISA (SSE2), for AVX2+FMA and for AVX-512; the first call picks the best one the
// CPU supports (__builtin_cpu_supports), so binaries stay portable and use the
// wide units where they exist. The AVX copies rename Eigen's namespace so that the
// sets of Eigen template instantiations never mix at link time.
#pragma once

#include <cstdint>

namespace gradgen {
namespace native {
namespace vec {

/// A rows x cols matrix at p with element strides (s0, s1).
template <typename T>
struct MatrixRef {
  const T* p;
  int64_t rows, cols, s0, s1;
};

/// out (a.rows x b.cols, row-major with row stride ldc) = a * b, or += a * b when
/// `accumulate`. Row-major and column-major (transposed) operands are read in place;
/// other layouts are copied first. Single-threaded: csrc/native/gemm.h is the
/// interface the kernels call, which splits large products across threads.
void gemm(double* out, int64_t ldc, const MatrixRef<double>& a, const MatrixRef<double>& b,
          bool accumulate);
void gemm(float* out, int64_t ldc, const MatrixRef<float>& a, const MatrixRef<float>& b,
          bool accumulate);

/// y[i] = tanh(x[i]) for i in [0, n).
void tanh(const double* x, double* y, int64_t n);
void tanh(const float* x, float* y, int64_t n);
/// y[i] = exp(x[i]).
void exp(const double* x, double* y, int64_t n);
void exp(const float* x, float* y, int64_t n);
/// y[i] = 1 / (1 + exp(-x[i])).
void sigmoid(const double* x, double* y, int64_t n);
void sigmoid(const float* x, float* y, int64_t n);

/// dst[r * ldd + j * sd] += a * src[r * lds + j * ss] for r in [0, rows), j in [0, n): the
/// kernel taps of depthwise convolutions (csrc/native/convolution.cc). src and dst do not overlap.
void axpy_rows(double a, const double* src, int64_t lds, int64_t ss, double* dst, int64_t ldd,
               int64_t sd, int64_t rows, int64_t n);
void axpy_rows(float a, const float* src, int64_t lds, int64_t ss, float* dst, int64_t ldd,
               int64_t sd, int64_t rows, int64_t n);
/// The sum over the same (r, j) of u[r * ldu + j] * v[r * ldv + j * sv].
double dot_rows(const double* u, int64_t ldu, const double* v, int64_t ldv, int64_t sv,
                int64_t rows, int64_t n);
float dot_rows(const float* u, int64_t ldu, const float* v, int64_t ldv, int64_t sv, int64_t rows,
               int64_t n);

/// Softmax (log_softmax when `log`) of `rows` contiguous rows of n > 0 elements, x into y (which
/// may be x): exp(x - max) / sum, the sum in double.
void softmax_rows(const double* x, double* y, int64_t rows, int64_t n, bool log);
void softmax_rows(const float* x, float* y, int64_t rows, int64_t n, bool log);

/// Returns the instruction set the kernels run with: "avx512", "avx2" or "baseline".
const char* isa();

}  // namespace vec
}  // namespace native
}  // namespace gradgen
