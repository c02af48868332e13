// nn_kernels.h's functions: each calls the kernel of the instruction set vectorized.h's kernels
// run with (vec::isa(), picked once at the first call).
#include <cstring>

#include "csrc/native/simd/nn_kernels.h"
#include "csrc/native/simd/nn_kernels_impl.h"
#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {
namespace vec {

namespace {

const NnKernelTable& kernels() {
  static const NnKernelTable& chosen = []() -> const NnKernelTable& {
#if !defined(GRADGEN_VECTORIZED_BASELINE_ONLY)
    if (std::strcmp(isa(), "avx512") == 0) return nn_kernels_avx512_table();
    if (std::strcmp(isa(), "avx2") == 0) return nn_kernels_avx2_table();
#endif
    return nn_kernels_baseline_table();
  }();
  return chosen;
}

}  // namespace

void layer_norm_rows(const float* x, const float* w, const float* b, double eps, float* y,
                     float* mean, float* rstd, int64_t rows, int64_t m) {
  kernels().layer_norm_rows_f(x, w, b, eps, y, mean, rstd, rows, m);
}
void layer_norm_rows(const double* x, const double* w, const double* b, double eps, double* y,
                     double* mean, double* rstd, int64_t rows, int64_t m) {
  kernels().layer_norm_rows_d(x, w, b, eps, y, mean, rstd, rows, m);
}
void layer_norm_backward_rows(const float* go, const float* x, const float* mean, const float* rstd,
                              const float* w, float* gx, double* gw, double* gb, int64_t rows,
                              int64_t m) {
  kernels().layer_norm_backward_rows_f(go, x, mean, rstd, w, gx, gw, gb, rows, m);
}
void layer_norm_backward_rows(const double* go, const double* x, const double* mean,
                              const double* rstd, const double* w, double* gx, double* gw,
                              double* gb, int64_t rows, int64_t m) {
  kernels().layer_norm_backward_rows_d(go, x, mean, rstd, w, gx, gw, gb, rows, m);
}
void channel_moments(const float* x, int64_t ld, int64_t planes, int64_t S, double* mean,
                     double* sq) {
  kernels().channel_moments_f(x, ld, planes, S, mean, sq);
}
void channel_moments(const double* x, int64_t ld, int64_t planes, int64_t S, double* mean,
                     double* sq) {
  kernels().channel_moments_d(x, ld, planes, S, mean, sq);
}
void channel_normalize(const float* x, float* y, int64_t ld, int64_t planes, int64_t S, float mu,
                       float scale, float shift) {
  kernels().channel_normalize_f(x, y, ld, planes, S, mu, scale, shift);
}
void channel_normalize(const double* x, double* y, int64_t ld, int64_t planes, int64_t S, double mu,
                       double scale, double shift) {
  kernels().channel_normalize_d(x, y, ld, planes, S, mu, scale, shift);
}
void channel_grad_sums(const float* go, const float* x, int64_t ld, int64_t planes, int64_t S,
                       float mu, double* sum, double* dot) {
  kernels().channel_grad_sums_f(go, x, ld, planes, S, mu, sum, dot);
}
void channel_grad_sums(const double* go, const double* x, int64_t ld, int64_t planes, int64_t S,
                       double mu, double* sum, double* dot) {
  kernels().channel_grad_sums_d(go, x, ld, planes, S, mu, sum, dot);
}
void channel_grad_input(const float* go, const float* x, float* gx, int64_t ld, int64_t planes,
                        int64_t S, float mu, float a, float b, float c) {
  kernels().channel_grad_input_f(go, x, gx, ld, planes, S, mu, a, b, c);
}
void channel_grad_input(const double* go, const double* x, double* gx, int64_t ld, int64_t planes,
                        int64_t S, double mu, double a, double b, double c) {
  kernels().channel_grad_input_d(go, x, gx, ld, planes, S, mu, a, b, c);
}
void max_pool2d_planes(const float* x, const MaxPoolGeometry& g, int64_t planes, float* out,
                       int64_t* indices) {
  kernels().max_pool2d_planes_f(x, g, planes, out, indices);
}
void max_pool2d_planes(const double* x, const MaxPoolGeometry& g, int64_t planes, double* out,
                       int64_t* indices) {
  kernels().max_pool2d_planes_d(x, g, planes, out, indices);
}

void softmax_shift_rows(float* x, int64_t rows, int64_t n) {
  kernels().softmax_shift_rows_f(x, rows, n);
}
void softmax_shift_rows(double* x, int64_t rows, int64_t n) {
  kernels().softmax_shift_rows_d(x, rows, n);
}
void softmax_normalize_rows(float* x, int64_t rows, int64_t n) {
  kernels().softmax_normalize_rows_f(x, rows, n);
}
void softmax_normalize_rows(double* x, int64_t rows, int64_t n) {
  kernels().softmax_normalize_rows_d(x, rows, n);
}
void softmax_backward_rows(const float* p, float* g, int64_t rows, int64_t n) {
  kernels().softmax_backward_rows_f(p, g, rows, n);
}
void softmax_backward_rows(const double* p, double* g, int64_t rows, int64_t n) {
  kernels().softmax_backward_rows_d(p, g, rows, n);
}
void scale_rows(const float* src, int64_t ld, float s, float* dst, int64_t rows, int64_t n) {
  kernels().scale_rows_f(src, ld, s, dst, rows, n);
}
void scale_rows(const double* src, int64_t ld, double s, double* dst, int64_t rows, int64_t n) {
  kernels().scale_rows_d(src, ld, s, dst, rows, n);
}

}  // namespace vec
}  // namespace native
}  // namespace gradgen
