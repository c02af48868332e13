// The kernels of vectorized.h for AVX2 + FMA (this file is compiled with -mavx2
// -mfma and only called on CPUs that have them). Eigen's namespace is renamed so
// that its templates, instantiated here with AVX2 code, are distinct symbols from
// the baseline instantiations of vectorized_baseline.cc.
#define Eigen EigenAvx2
#define GRADGEN_VEC_NS avx2
#include "csrc/native/simd/vectorized_impl.h"
#include "csrc/native/simd/vectorized_isa.h"

GRADGEN_VEC_DEFINE_TABLE(avx2)
