// The loops of pointwise.h, compiled once per instruction set: pointwise_baseline.cc,
// pointwise_avx2.cc and pointwise_avx512.cc include this file with GRADGEN_VEC_NS set, then
// define their table with GRADGEN_POINTWISE_DEFINE_TABLE. Internal to csrc/native/simd.
#pragma once

#include <cstdint>

#include "csrc/native/simd/pointwise.h"

namespace gradgen {
namespace native {
namespace vec {

struct PointwiseTable {
  void (*relu_f)(const float*, float*, int64_t);
  void (*relu_d)(const double*, double*, int64_t);
  void (*threshold_backward_f)(const float*, const float*, float, float*, int64_t);
  void (*threshold_backward_d)(const double*, const double*, double, double*, int64_t);
  void (*scaled_difference_f)(const float*, const float*, float, float*, int64_t);
  void (*scaled_difference_d)(const double*, const double*, double, double*, int64_t);
  double (*sum_squared_difference_f)(const float*, const float*, int64_t);
  double (*sum_squared_difference_d)(const double*, const double*, int64_t);
  void (*add_rows_f)(const float*, int64_t, int64_t, int64_t, double*);
  void (*add_rows_d)(const double*, int64_t, int64_t, int64_t, double*);
};

const PointwiseTable& pointwise_baseline_table();
const PointwiseTable& pointwise_avx2_table();
const PointwiseTable& pointwise_avx512_table();

#if defined(GRADGEN_VEC_NS)
namespace GRADGEN_VEC_NS {

// Branch-free selects, so that the loops vectorize (compares and blends).
template <typename T>
void relu(const T* x, T* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const T v = x[i];
    y[i] = v <= T(0) ? T(0) : v;
  }
}

template <typename T>
void threshold_backward(const T* g, const T* x, T threshold, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] <= threshold ? T(0) : g[i];
}

template <typename T>
void scaled_difference(const T* a, const T* b, T c, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = c * (a[i] - b[i]);
}

template <typename T>
double sum_squared_difference(const T* a, const T* b, int64_t n) {
  constexpr int64_t kLanes = 16;
  double lanes[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int64_t j = 0; j < kLanes; ++j) {
      const double d = double(a[i + j]) - double(b[i + j]);
      lanes[j] += d * d;
    }
  }
  double total = 0;
  for (; i < n; ++i) {
    const double d = double(a[i]) - double(b[i]);
    total += d * d;
  }
  for (double lane : lanes) total += lane;
  return total;
}

template <typename T>
void add_rows(const T* x, int64_t rows, int64_t cols, int64_t ld, double* acc) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = x + r * ld;
    for (int64_t j = 0; j < cols; ++j) acc[j] += double(row[j]);
  }
}

}  // namespace GRADGEN_VEC_NS
#endif

}  // namespace vec
}  // namespace native
}  // namespace gradgen

// A kernel added to PointwiseTable but not to this list would be a null pointer, called on
// first use: with the warning an error, it does not compile.
#pragma GCC diagnostic error "-Wmissing-field-initializers"

#define GRADGEN_POINTWISE_DEFINE_TABLE(ns)         \
  namespace gradgen {                              \
  namespace native {                               \
  namespace vec {                                  \
  const PointwiseTable& pointwise_##ns##_table() { \
    static const PointwiseTable table = {          \
        &ns::relu<float>,                          \
        &ns::relu<double>,                         \
        &ns::threshold_backward<float>,            \
        &ns::threshold_backward<double>,           \
        &ns::scaled_difference<float>,             \
        &ns::scaled_difference<double>,            \
        &ns::sum_squared_difference<float>,        \
        &ns::sum_squared_difference<double>,       \
        &ns::add_rows<float>,                      \
        &ns::add_rows<double>,                     \
    };                                             \
    return table;                                  \
  }                                                \
  }                                                \
  }                                                \
  }
