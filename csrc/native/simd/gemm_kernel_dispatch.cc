// gemm_kernel.h's functions: each calls the kernel of the instruction set vectorized.h's kernels
// run with (vec::isa(), picked once at the first call).
#include <cstring>

#include "csrc/native/simd/gemm_kernel.h"
#include "csrc/native/simd/gemm_kernel_impl.h"
#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {
namespace vec {

namespace {

const GemmTable& kernels() {
  static const GemmTable& chosen = []() -> const GemmTable& {
#if !defined(GRADGEN_VECTORIZED_BASELINE_ONLY)
    if (std::strcmp(isa(), "avx512") == 0) return gemm_avx512_table();
    if (std::strcmp(isa(), "avx2") == 0) return gemm_avx2_table();
#endif
    return gemm_baseline_table();
  }();
  return chosen;
}

}  // namespace

void packed_gemm(float* c, int64_t ldc, const MatrixRef<float>& a, const MatrixRef<float>& b,
                 bool accumulate) {
  kernels().gemm_f(c, ldc, a, b, accumulate);
}
void packed_gemm(double* c, int64_t ldc, const MatrixRef<double>& a, const MatrixRef<double>& b,
                 bool accumulate) {
  kernels().gemm_d(c, ldc, a, b, accumulate);
}

GemmTile packed_gemm_tile(bool single) { return single ? kernels().tile_f : kernels().tile_d; }

// On AVX-512 and AVX2 the kernel is ahead of Eigen's GEMM (docs/benchmarks.md, "GEMM library");
// with SSE2 only it was behind in 15 of 18 rows of one run, so baseline CPUs keep Eigen's. The
// sanitizer builds, which have the baseline kernels only, use it anyway: its packing and edge
// code is the same source as on AVX-512, and that is where ASan and TSan should look.
bool packed_gemm_enabled() {
#if defined(GRADGEN_VECTORIZED_BASELINE_ONLY)
  return true;
#else
  return std::strcmp(isa(), "baseline") != 0;
#endif
}

}  // namespace vec
}  // namespace native
}  // namespace gradgen
