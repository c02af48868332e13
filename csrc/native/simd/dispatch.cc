#include "csrc/native/simd/vectorized.h"
#include "csrc/native/simd/vectorized_isa.h"

namespace gradgen {
namespace native {
namespace vec {

namespace {

enum class Isa { kBaseline, kAvx2, kAvx512 };

// GRADGEN_VECTORIZED_BASELINE_ONLY: the sanitizer builds (--config=asan / tsan in
// .bazelrc) compile only the baseline kernels; the AVX2 and AVX-512 ones, Eigen
// instantiated twice more, would take most of their build time.
Isa best_isa() {
#if defined(GRADGEN_VECTORIZED_BASELINE_ONLY)
  return Isa::kBaseline;
#elif defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")) {
    return Isa::kAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::kAvx2;
#endif
  return Isa::kBaseline;
}

const KernelTable& table() {
  static const KernelTable& chosen = []() -> const KernelTable& {
    switch (best_isa()) {
#if !defined(GRADGEN_VECTORIZED_BASELINE_ONLY)
      case Isa::kAvx512: return avx512_table();
      case Isa::kAvx2: return avx2_table();
#endif
      default: return baseline_table();
    }
  }();
  return chosen;
}

}  // namespace

void gemm(double* out, int64_t ldc, const MatrixRef<double>& a, const MatrixRef<double>& b,
          bool accumulate) {
  table().gemm_d(out, ldc, a, b, accumulate);
}
void gemm(float* out, int64_t ldc, const MatrixRef<float>& a, const MatrixRef<float>& b,
          bool accumulate) {
  table().gemm_f(out, ldc, a, b, accumulate);
}
void tanh(const double* x, double* y, int64_t n) { table().tanh_d(x, y, n); }
void tanh(const float* x, float* y, int64_t n) { table().tanh_f(x, y, n); }
void exp(const double* x, double* y, int64_t n) { table().exp_d(x, y, n); }
void exp(const float* x, float* y, int64_t n) { table().exp_f(x, y, n); }
void sigmoid(const double* x, double* y, int64_t n) { table().sigmoid_d(x, y, n); }
void sigmoid(const float* x, float* y, int64_t n) { table().sigmoid_f(x, y, n); }
void axpy_rows(double a, const double* src, int64_t lds, int64_t ss, double* dst, int64_t ldd,
               int64_t sd, int64_t rows, int64_t n) {
  table().axpy_rows_d(a, src, lds, ss, dst, ldd, sd, rows, n);
}
void axpy_rows(float a, const float* src, int64_t lds, int64_t ss, float* dst, int64_t ldd,
               int64_t sd, int64_t rows, int64_t n) {
  table().axpy_rows_f(a, src, lds, ss, dst, ldd, sd, rows, n);
}
void softmax_rows(const double* x, double* y, int64_t rows, int64_t n, bool log) {
  table().softmax_rows_d(x, y, rows, n, log);
}
void softmax_rows(const float* x, float* y, int64_t rows, int64_t n, bool log) {
  table().softmax_rows_f(x, y, rows, n, log);
}
double dot_rows(const double* u, int64_t ldu, const double* v, int64_t ldv, int64_t sv,
                int64_t rows, int64_t n) {
  return table().dot_rows_d(u, ldu, v, ldv, sv, rows, n);
}
float dot_rows(const float* u, int64_t ldu, const float* v, int64_t ldv, int64_t sv, int64_t rows,
               int64_t n) {
  return table().dot_rows_f(u, ldu, v, ldv, sv, rows, n);
}

const char* isa() {
#if defined(GRADGEN_VECTORIZED_BASELINE_ONLY)
  return "baseline";
#else
  if (&table() == &avx512_table()) return "avx512";
  return &table() == &avx2_table() ? "avx2" : "baseline";
#endif
}

}  // namespace vec
}  // namespace native
}  // namespace gradgen
