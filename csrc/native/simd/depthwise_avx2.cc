// The kernels of depthwise.h for AVX2 + FMA (32-byte vectors; compiled with -mavx2 -mfma, called
// only on CPUs that have them).
#define GRADGEN_VEC_NS avx2
#include "csrc/native/simd/depthwise_impl.h"

GRADGEN_DEPTHWISE_DEFINE_TABLE(avx2, 32)
