// The kernels of depthwise.h for the baseline instruction set (16-byte vectors; see
// depthwise_impl.h).
#define GRADGEN_VEC_NS baseline
#include "csrc/native/simd/depthwise_impl.h"

GRADGEN_DEPTHWISE_DEFINE_TABLE(baseline, 16)
