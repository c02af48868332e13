// The loops of pointwise.h for AVX-512 (F, DQ, VL, BW; called only on CPUs that have them).
#define GRADGEN_VEC_NS avx512
#include "csrc/native/simd/pointwise_impl.h"

GRADGEN_POINTWISE_DEFINE_TABLE(avx512)
