// The loops of pointwise.h for AVX2 + FMA (compiled with -mavx2 -mfma, called only on CPUs that
// have them).
#define GRADGEN_VEC_NS avx2
#include "csrc/native/simd/pointwise_impl.h"

GRADGEN_POINTWISE_DEFINE_TABLE(avx2)
