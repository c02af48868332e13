// The GEMM kernel of gemm_kernel.h for AVX2 + FMA (32-byte vectors; compiled with -mavx2 -mfma,
// called only on CPUs that have them).
#define GRADGEN_VEC_NS avx2
#include "csrc/native/simd/gemm_kernel_impl.h"

GRADGEN_GEMM_DEFINE_TABLE(avx2, 32)
