// The loops of pointwise.h for the baseline instruction set (see pointwise_impl.h).
#define GRADGEN_VEC_NS baseline
#include "csrc/native/simd/pointwise_impl.h"

GRADGEN_POINTWISE_DEFINE_TABLE(baseline)
