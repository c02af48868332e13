// The kernels of nn_kernels.h for AVX2 + FMA (compiled with -mavx2 -mfma, called only on CPUs that
// have them).
#define GRADGEN_VEC_NS avx2
#include "csrc/native/simd/nn_kernels_impl.h"

GRADGEN_NN_KERNELS_DEFINE_TABLE(avx2)
