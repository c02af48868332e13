// The kernels of nn_kernels.h for AVX-512 (F, DQ, VL, BW; called only on CPUs that have them).
#define GRADGEN_VEC_NS avx512
#include "csrc/native/simd/nn_kernels_impl.h"

GRADGEN_NN_KERNELS_DEFINE_TABLE(avx512)
