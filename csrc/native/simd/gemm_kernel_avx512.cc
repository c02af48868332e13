// The GEMM kernel of gemm_kernel.h for AVX-512 (64-byte vectors; F, DQ, VL, BW, called only on CPUs
// that have them).
#define GRADGEN_VEC_NS avx512
#include "csrc/native/simd/gemm_kernel_impl.h"

GRADGEN_GEMM_DEFINE_TABLE(avx512, 64)
