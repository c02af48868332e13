// The kernels of vectorized.h for AVX-512 (F, DQ, VL, BW; this file is compiled
// with those flags and only called on CPUs that have them). Eigen's namespace is
// renamed, as in vectorized_avx2.cc.
#define Eigen EigenAvx512
#define GRADGEN_VEC_NS avx512
#include "csrc/native/simd/vectorized_impl.h"
#include "csrc/native/simd/vectorized_isa.h"

GRADGEN_VEC_DEFINE_TABLE(avx512)
