// The kernels declared in vectorized.h, for one instruction set. Included by
// vectorized_baseline.cc and vectorized_avx2.cc with GRADGEN_VEC_NS naming the
// namespace the definitions go in (and, for AVX2, Eigen's namespace renamed).
// No include guard: meant to be included once per translation unit.
#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

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

// Eigen's GEMM blocking (the cache block sizes it computes for a product) with packing
// buffers kept per thread, instead of one malloc and free of each (up to megabytes, so
// above glibc's mmap threshold, with page faults) per product.
template <typename T>
class CachedBlocking : public Eigen::internal::level3_blocking<T, T> {
 public:
  // A column-major rows x cols result with `depth` terms (what gemm_blocking_space does).
  CachedBlocking(Eigen::Index rows, Eigen::Index cols, Eigen::Index depth) {
    this->m_mc = rows;
    this->m_nc = cols;
    this->m_kc = depth;
    Eigen::internal::computeProductBlockingSizes<T, T, 1>(this->m_kc, this->m_mc, this->m_nc,
                                                          Eigen::Index(1));
    this->m_blockA = buffer(0, this->m_mc * this->m_kc);
    this->m_blockB = buffer(1, this->m_kc * this->m_nc);
  }

 private:
  struct Buffers {
    T* p[2] = {nullptr, nullptr};
    Eigen::Index size[2] = {0, 0};
    ~Buffers() {
      for (T* q : p) Eigen::internal::aligned_free(q);
    }
  };

  static T* buffer(int which, Eigen::Index size) {
    thread_local Buffers buffers;
    if (buffers.size[which] < size) {
      Eigen::internal::aligned_free(buffers.p[which]);
      buffers.p[which] = nullptr;
      buffers.size[which] = 0;
      buffers.p[which] =
          static_cast<T*>(Eigen::internal::aligned_malloc(sizeof(T) * static_cast<size_t>(size)));
      buffers.size[which] = size;
    }
    return buffers.p[which];
  }
};

// out (row-major, row stride ldc) += a @ b through Eigen's GEMM kernel, with the operands'
// storage orders as template arguments and the cached blocking.
template <typename T, int LhsOrder, int RhsOrder>
void gemm_kernel(T* out, int64_t ldc, const T* a, int64_t lda, const T* b, int64_t ldb, int64_t m,
                 int64_t n, int64_t k) {
  // The row-major product is computed as its column-major transpose (n x m).
  CachedBlocking<T> blocking(n, m, k);
  Eigen::internal::general_matrix_matrix_product<Eigen::Index, T, LhsOrder, false, T, RhsOrder,
                                                 false, Eigen::RowMajor, 1>::run(m, n, k, a, lda, b,
                                                                                 ldb, out, 1, ldc,
                                                                                 T(1), blocking,
                                                                                 nullptr);
}

template <typename T>
void gemm(T* out, int64_t ldc, const MatrixRef<T>& a, const MatrixRef<T>& b, bool accumulate) {
  const int64_t m = a.rows, k = a.cols, n = b.cols;
  const bool a_row = row_major(a), b_row = row_major(b);
  if (m + n + k < 20 || m == 1 || n == 1 || k == 0 || !(a_row || col_major(a)) ||
      !(b_row || col_major(b))) {
    // Small products, vectors and copied operands: Eigen's own dispatch (a coefficient-wise
    // product or a GEMV, which allocate nothing).
    Eigen::Map<RowMatrix<T>, Eigen::Unaligned, OuterStride> result(out, m, n, OuterStride(ldc));
    with_eigen(a, [&](const auto& ea) {
      with_eigen(b, [&](const auto& eb) {
        if (accumulate) {
          result.noalias() += ea * eb;
        } else {
          result.noalias() = ea * eb;
        }
      });
    });
    return;
  }
  if (!accumulate) {
    for (int64_t i = 0; i < m; ++i) std::fill(out + i * ldc, out + i * ldc + n, T(0));
  }
  const int64_t lda = a_row ? (m == 1 ? k : a.s0) : (k == 1 ? m : a.s1);
  const int64_t ldb = b_row ? (k == 1 ? n : b.s0) : (n == 1 ? k : b.s1);
  constexpr int R = Eigen::RowMajor, C = Eigen::ColMajor;
  if (a_row && b_row) {
    gemm_kernel<T, R, R>(out, ldc, a.p, lda, b.p, ldb, m, n, k);
  } else if (a_row) {
    gemm_kernel<T, R, C>(out, ldc, a.p, lda, b.p, ldb, m, n, k);
  } else if (b_row) {
    gemm_kernel<T, C, R>(out, ldc, a.p, lda, b.p, ldb, m, n, k);
  } else {
    gemm_kernel<T, C, C>(out, ldc, a.p, lda, b.p, ldb, m, n, k);
  }
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

// Eigen computes the elements before the destination's first aligned address with scalar code,
// whose results differ from the vector code's in the last bits, so y[i] depended on where the
// buffer happened to start: one op on the same values gave different bits from one call to the
// next (a backward pass was then not reproducible). Blocks are computed into an aligned buffer,
// where the split between vector body and scalar tail depends on n only, and copied out.
// f(in, out, xs, ys, len) writes out (an aligned map of ys) from in (xs); ys may be fixed up after.
template <typename T, typename F>
void aligned_blocks(const T* x, T* y, int64_t n, F&& f) {
  constexpr int64_t kBlock = 512;  // in L1
  alignas(64) T buffer[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = n - start < kBlock ? n - start : kBlock;
    Eigen::Map<const Array<T>> in(x + start, len);
    Eigen::Map<Array<T>, Eigen::Aligned64> out(buffer, len);
    f(in, out, x + start, buffer, len);
    std::memcpy(y + start, buffer, static_cast<size_t>(len) * sizeof(T));
  }
}

inline void tanh_float(const float* x, float* y, int64_t n) {
  aligned_blocks(x, y, n,
                 [](const auto& in, auto& out, const float*, float*, int64_t) { out = in.tanh(); });
}

// Below log(smallest normal) exp is subnormal or 0. Eigen's vectorized exp clamps its argument
// near there (double: -709.78 gives 5.6e-309 for exp(-1000), where std::exp and PyTorch give 0),
// so those elements are computed again with std::exp.
template <typename T>
constexpr T kExpNormalLimit = sizeof(T) == 8 ? T(-708.3964185322641) : T(-87.33654475);

template <typename T>
void exp_impl(const T* x, T* y, int64_t n) {
  aligned_blocks(x, y, n, [](const auto& in, auto& out, const T* xs, T* ys, int64_t len) {
    out = in.exp();
    for (int64_t i = 0; i < len; ++i) {
      if (xs[i] < kExpNormalLimit<T>) ys[i] = std::exp(xs[i]);
    }
  });
}

template <typename T>
void sigmoid_impl(const T* x, T* y, int64_t n) {
  // exp(-x) overflows to inf for very negative x, giving exactly 0: no NaN.
  aligned_blocks(x, y, n, [](const auto& in, auto& out, const T*, T*, int64_t) {
    out = T(1) / (T(1) + (-in).exp());
  });
}

// Contiguous rows (unit strides, the stride-1 convolutions) go through Eigen's maps, which
// vectorize; strided ones (stride-2 convolutions) are plain loops.
template <typename T>
void axpy_rows(T a, const T* src, int64_t lds, int64_t ss, T* dst, int64_t ldd, int64_t sd,
               int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* s = src + r * lds;
    T* d = dst + r * ldd;
    if (ss == 1 && sd == 1) {
      Eigen::Map<Array<T>>(d, n) += a * Eigen::Map<const Array<T>>(s, n);
    } else {
      for (int64_t j = 0; j < n; ++j) d[j * sd] += a * s[j * ss];
    }
  }
}

template <typename T>
T dot_rows(const T* u, int64_t ldu, const T* v, int64_t ldv, int64_t sv, int64_t rows, int64_t n) {
  T total = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const T* ur = u + r * ldu;
    const T* vr = v + r * ldv;
    if (sv == 1) {
      total += (Eigen::Map<const Array<T>>(ur, n) * Eigen::Map<const Array<T>>(vr, n)).sum();
    } else {
      T acc = 0;
      for (int64_t j = 0; j < n; ++j) acc += ur[j] * vr[j * sv];
      total += acc;
    }
  }
  return total;
}

// Softmax's row sums run in double, in kLanes independent lanes (fixed order, whatever the
// buffer's alignment, so results are reproducible) that the compiler vectorizes.
constexpr int64_t kLanes = 8;

// The sum of term(i) for i in [0, m), term(i) a double.
template <typename F>
double lane_sum(int64_t m, F&& term) {
  double lane[kLanes] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + kLanes <= m; i += kLanes) {
    for (int64_t j = 0; j < kLanes; ++j) lane[j] += term(i + j);
  }
  double total = 0;
  for (; i < m; ++i) total += term(i);
  for (int64_t j = 0; j < kLanes; ++j) total += lane[j];
  return total;
}

// Softmax (log_softmax when `log`) of contiguous rows of n elements: exp through exp_impl (the
// vectorized exp, reproducible per block), the row sums in double lanes.
template <typename T>
void softmax_rows(const T* x, T* y, int64_t rows, int64_t n, bool log) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * n;
    T* yr = y + r * n;
    T mx = xr[0];
    for (int64_t k = 1; k < n; ++k) mx = mx < xr[k] ? xr[k] : mx;  // std::max's NaN rule
    for (int64_t k = 0; k < n; ++k) yr[k] = xr[k] - mx;
    exp_impl(yr, yr, n);
    const double total = lane_sum(n, [&](int64_t k) { return static_cast<double>(yr[k]); });
    if (log) {
      const T shift = static_cast<T>(mx + std::log(total));
      for (int64_t k = 0; k < n; ++k) yr[k] = xr[k] - shift;
    } else {
      for (int64_t k = 0; k < n; ++k) yr[k] = static_cast<T>(yr[k] / total);
    }
  }
}

}  // namespace GRADGEN_VEC_NS
}  // namespace vec
}  // namespace native
}  // namespace gradgen
