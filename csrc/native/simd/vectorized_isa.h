// The table of kernels one instruction set provides, and the macro defining it.
// Internal to csrc/native/simd.
#pragma once

#include <cstdint>

#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {
namespace vec {

struct KernelTable {
  void (*gemm_d)(double*, int64_t, const MatrixRef<double>&, const MatrixRef<double>&, bool);
  void (*gemm_f)(float*, int64_t, const MatrixRef<float>&, const MatrixRef<float>&, bool);
  void (*tanh_d)(const double*, double*, int64_t);
  void (*tanh_f)(const float*, float*, int64_t);
  void (*exp_d)(const double*, double*, int64_t);
  void (*exp_f)(const float*, float*, int64_t);
  void (*sigmoid_d)(const double*, double*, int64_t);
  void (*sigmoid_f)(const float*, float*, int64_t);
  void (*axpy_rows_d)(double, const double*, int64_t, int64_t, double*, int64_t, int64_t, int64_t,
                      int64_t);
  void (*axpy_rows_f)(float, const float*, int64_t, int64_t, float*, int64_t, int64_t, int64_t,
                      int64_t);
  double (*dot_rows_d)(const double*, int64_t, const double*, int64_t, int64_t, int64_t, int64_t);
  float (*dot_rows_f)(const float*, int64_t, const float*, int64_t, int64_t, int64_t, int64_t);
  void (*softmax_rows_d)(const double*, double*, int64_t, int64_t, bool);
  void (*softmax_rows_f)(const float*, float*, int64_t, int64_t, bool);
};

const KernelTable& baseline_table();
const KernelTable& avx2_table();
const KernelTable& avx512_table();

}  // namespace vec
}  // namespace native
}  // namespace gradgen

// A kernel added to KernelTable but not to this list would be a null pointer, called on first
// use: with the warning an error, it does not compile.
#pragma GCC diagnostic error "-Wmissing-field-initializers"

#define GRADGEN_VEC_DEFINE_TABLE(ns)                                                 \
  namespace gradgen {                                                                \
  namespace native {                                                                 \
  namespace vec {                                                                    \
  const KernelTable& ns##_table() {                                                  \
    static const KernelTable table = {                                               \
        &ns::gemm<double>,         &ns::gemm<float>,         &ns::tanh_double,       \
        &ns::tanh_float,           &ns::exp_impl<double>,    &ns::exp_impl<float>,   \
        &ns::sigmoid_impl<double>, &ns::sigmoid_impl<float>, &ns::axpy_rows<double>, \
        &ns::axpy_rows<float>,     &ns::dot_rows<double>,    &ns::dot_rows<float>,   \
        &ns::softmax_rows<double>, &ns::softmax_rows<float>,                         \
    };                                                                               \
    return table;                                                                    \
  }                                                                                  \
  }                                                                                  \
  }                                                                                  \
  }
