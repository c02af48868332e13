// The kernels of vectorized.h for the baseline instruction set (see vectorized_impl.h).
#define GRADGEN_VEC_NS baseline
#include "csrc/native/simd/vectorized_impl.h"
#include "csrc/native/simd/vectorized_isa.h"

GRADGEN_VEC_DEFINE_TABLE(baseline)
