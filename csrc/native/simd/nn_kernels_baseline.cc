// The kernels of nn_kernels.h for the baseline instruction set (see nn_kernels_impl.h).
#define GRADGEN_VEC_NS baseline
#include "csrc/native/simd/nn_kernels_impl.h"

GRADGEN_NN_KERNELS_DEFINE_TABLE(baseline)
