// pointwise.h's functions: each calls the loop of the instruction set vectorized.h's kernels
// run with (vec::isa(), picked once at the first call).
#include <cstring>

#include "csrc/native/simd/pointwise.h"
#include "csrc/native/simd/pointwise_impl.h"
#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {
namespace vec {

namespace {

const PointwiseTable& pointwise() {
  static const PointwiseTable& chosen = []() -> const PointwiseTable& {
#if !defined(GRADGEN_VECTORIZED_BASELINE_ONLY)
    if (std::strcmp(isa(), "avx512") == 0) return pointwise_avx512_table();
    if (std::strcmp(isa(), "avx2") == 0) return pointwise_avx2_table();
#endif
    return pointwise_baseline_table();
  }();
  return chosen;
}

}  // namespace

void relu(const float* x, float* y, int64_t n) { pointwise().relu_f(x, y, n); }
void relu(const double* x, double* y, int64_t n) { pointwise().relu_d(x, y, n); }
void threshold_backward(const float* g, const float* x, float threshold, float* out, int64_t n) {
  pointwise().threshold_backward_f(g, x, threshold, out, n);
}
void threshold_backward(const double* g, const double* x, double threshold, double* out,
                        int64_t n) {
  pointwise().threshold_backward_d(g, x, threshold, out, n);
}
void scaled_difference(const float* a, const float* b, float c, float* out, int64_t n) {
  pointwise().scaled_difference_f(a, b, c, out, n);
}
void scaled_difference(const double* a, const double* b, double c, double* out, int64_t n) {
  pointwise().scaled_difference_d(a, b, c, out, n);
}
double sum_squared_difference(const float* a, const float* b, int64_t n) {
  return pointwise().sum_squared_difference_f(a, b, n);
}
double sum_squared_difference(const double* a, const double* b, int64_t n) {
  return pointwise().sum_squared_difference_d(a, b, n);
}
void add_rows(const float* x, int64_t rows, int64_t cols, int64_t ld, double* acc) {
  pointwise().add_rows_f(x, rows, cols, ld, acc);
}
void add_rows(const double* x, int64_t rows, int64_t cols, int64_t ld, double* acc) {
  pointwise().add_rows_d(x, rows, cols, ld, acc);
}

}  // namespace vec
}  // namespace native
}  // namespace gradgen
