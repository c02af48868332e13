// The kernels declared in vectorized.h, for one instruction set. Included by
// vectorized_baseline.cc and vectorized_avx2.cc with GRADGEN_VEC_NS naming the
// namespace the definitions go in (and, for AVX2, Eigen's namespace renamed).
// No include guard: meant to be included once per translation unit.
#include <Eigen/Core>

#include <cmath>
#include <cstdint>

#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {
namespace vec {
namespace GRADGEN_VEC_NS {

template <typename T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using ColMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
template <typename T>
using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
using OuterStride = Eigen::OuterStride<>;

template <typename T>
bool row_major(const MatrixRef<T>& m) {
  return (m.s1 == 1 || m.cols == 1) && (m.rows == 1 || m.s0 >= m.cols);
}
template <typename T>
bool col_major(const MatrixRef<T>& m) {
  return (m.s0 == 1 || m.rows == 1) && (m.cols == 1 || m.s1 >= m.rows);
}

// Calls f(map) with an Eigen view of m, or of a dense copy when its strides fit
// neither row- nor column-major order.
template <typename T, typename F>
void with_eigen(const MatrixRef<T>& m, F&& f) {
  if (row_major(m)) {
    Eigen::Map<const RowMatrix<T>, Eigen::Unaligned, OuterStride> map(
        m.p, m.rows, m.cols, OuterStride(m.rows == 1 ? m.cols : m.s0));
    f(map);
  } else if (col_major(m)) {
    Eigen::Map<const ColMatrix<T>, Eigen::Unaligned, OuterStride> map(
        m.p, m.rows, m.cols, OuterStride(m.cols == 1 ? m.rows : m.s1));
    f(map);
  } else {
    RowMatrix<T> copy(m.rows, m.cols);
    for (int64_t i = 0; i < m.rows; ++i) {
      for (int64_t j = 0; j < m.cols; ++j) copy(i, j) = m.p[i * m.s0 + j * m.s1];
    }
    f(copy);
  }
}

template <typename T>
void gemm(T* out, int64_t ldc, const MatrixRef<T>& a, const MatrixRef<T>& b, bool accumulate) {
  Eigen::Map<RowMatrix<T>, Eigen::Unaligned, OuterStride> result(out, a.rows, b.cols,
                                                                 OuterStride(ldc));
  with_eigen(a, [&](const auto& ea) {
    with_eigen(b, [&](const auto& eb) {
      if (accumulate) {
        result.noalias() += ea * eb;
      } else {
        result.noalias() = ea * eb;
      }
    });
  });
}

// tanh in double precision, after Cephes' tanh: near 0 (|x| <= 0.625) the
// rational function x + x^3 P(x^2) / Q(x^2); elsewhere (1 - e) / (1 + e) with
// e = exp(-2|x|), signed. Eigen computes the exps (vectorized); the fractions are a
// branch-free loop the compiler vectorizes. Full double precision, no overflow.
inline void tanh_double(const double* x, double* y, int64_t n) {
  constexpr int64_t kBlock = 512;  // keeps the exps in L1
  alignas(64) double e[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = n - start < kBlock ? n - start : kBlock;
    const double* xs = x + start;
    Eigen::Map<const Array<double>> in(xs, len);
    Eigen::Map<Array<double>> exps(e, len);
    exps = (-2.0 * in.abs()).exp();
    double* ys = y + start;
    for (int64_t i = 0; i < len; ++i) {
      const double v = xs[i];
      const double z = v * v;
      const double p = (-9.64399179425052238628E-1 * z - 9.92877231001918586564E1) * z -
                       1.61468768441708447952E3;
      const double q = ((z + 1.12811678491632931402E2) * z + 2.23548839060100448583E3) * z +
                       4.84406305325125486048E3;
      const bool near_zero = std::fabs(v) <= 0.625;
      const double numerator = near_zero ? v * (q + z * p) : std::copysign(1.0 - e[i], v);
      const double denominator = near_zero ? q : 1.0 + e[i];
      ys[i] = numerator / denominator;
    }
  }
}

inline void tanh_float(const float* x, float* y, int64_t n) {
  Eigen::Map<const Array<float>> in(x, n);
  Eigen::Map<Array<float>> out(y, n);
  out = in.tanh();
}

template <typename T>
void exp_impl(const T* x, T* y, int64_t n) {
  Eigen::Map<const Array<T>> in(x, n);
  Eigen::Map<Array<T>> out(y, n);
  out = in.exp();
}

template <typename T>
void sigmoid_impl(const T* x, T* y, int64_t n) {
  // exp(-x) overflows to inf for very negative x, giving exactly 0: no NaN.
  Eigen::Map<const Array<T>> in(x, n);
  Eigen::Map<Array<T>> out(y, n);
  out = T(1) / (T(1) + (-in).exp());
}

}  // namespace GRADGEN_VEC_NS
}  // namespace vec
}  // namespace native
}  // namespace gradgen
