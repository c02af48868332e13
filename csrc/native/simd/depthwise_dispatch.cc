// depthwise.h's functions: each calls the kernel of the instruction set vectorized.h's kernels
// run with (vec::isa(), picked once at the first call).
#include <cstring>

#include "csrc/native/simd/depthwise.h"
#include "csrc/native/simd/depthwise_impl.h"
#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {
namespace vec {

namespace {

const DepthwiseTable& depthwise() {
  static const DepthwiseTable& chosen = []() -> const DepthwiseTable& {
#if !defined(GRADGEN_VECTORIZED_BASELINE_ONLY)
    if (std::strcmp(isa(), "avx512") == 0) return depthwise_avx512_table();
    if (std::strcmp(isa(), "avx2") == 0) return depthwise_avx2_table();
#endif
    return depthwise_baseline_table();
  }();
  return chosen;
}

}  // namespace

void depthwise_plane(const DepthwisePlane& p, const float* x, const float* w, float init,
                     bool accumulate, float* y) {
  depthwise().plane_f(p, x, w, init, accumulate, y);
}
void depthwise_plane(const DepthwisePlane& p, const double* x, const double* w, double init,
                     bool accumulate, double* y) {
  depthwise().plane_d(p, x, w, init, accumulate, y);
}
void depthwise_plane_weight(const DepthwisePlane& p, const float* gy, const float* x, float* gw) {
  depthwise().plane_weight_f(p, gy, x, gw);
}
void depthwise_plane_weight(const DepthwisePlane& p, const double* gy, const double* x,
                            double* gw) {
  depthwise().plane_weight_d(p, gy, x, gw);
}

void add_row_sums(const float* x, int64_t rows, int64_t n, double* out) {
  depthwise().add_row_sums_f(x, rows, n, out);
}
void add_row_sums(const double* x, int64_t rows, int64_t n, double* out) {
  depthwise().add_row_sums_d(x, rows, n, out);
}

}  // namespace vec
}  // namespace native
}  // namespace gradgen
