// The GEMM kernel of gemm_kernel.h for the baseline instruction set (16-byte vectors, no FMA).
#define GRADGEN_VEC_NS baseline
#include "csrc/native/simd/gemm_kernel_impl.h"

GRADGEN_GEMM_DEFINE_TABLE(baseline, 16)
