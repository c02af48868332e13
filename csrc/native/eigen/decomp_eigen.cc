// Eigen's QR, SVD and symmetric eigensolver behind decomp_eigen.h. Eigen's namespace is renamed
// (as the vectorized kernels' AVX copies do, csrc/native/simd/) so that its templates
// instantiated here never merge at link time with those of another build of Eigen's headers.
#define Eigen EigenDecomp
#include "csrc/native/eigen/decomp_eigen.h"

#include <Eigen/Eigenvalues>
#include <Eigen/Householder>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>

namespace gradgen {
namespace native {
namespace eigen_decomp {

namespace {

template <typename T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

template <typename T>
Eigen::Map<const RowMatrix<T>> in(const T* a, int64_t rows, int64_t cols) {
  return Eigen::Map<const RowMatrix<T>>(a, rows, cols);
}

template <typename T>
Eigen::Map<RowMatrix<T>> out(T* a, int64_t rows, int64_t cols) {
  return Eigen::Map<RowMatrix<T>>(a, rows, cols);
}

template <typename T>
void qr_impl(const T* a, int64_t m, int64_t n, bool complete, bool compute_q, T* q, T* r) {
  const int64_t k = std::min(m, n);
  const int64_t rows = complete ? m : k;
  Eigen::HouseholderQR<Matrix<T>> f(Matrix<T>(in(a, m, n)));
  out(r, rows, n) = f.matrixQR().topRows(rows).template triangularView<Eigen::Upper>();
  if (!compute_q) return;
  Matrix<T> Q = Matrix<T>::Identity(m, rows);
  Q.applyOnTheLeft(f.householderQ());
  out(q, m, rows) = Q;
}

template <typename T>
bool svd_impl(const T* a, int64_t m, int64_t n, bool full, bool compute_uv, T* u, T* s, T* vh) {
  const int64_t k = std::min(m, n);
  const unsigned options = !compute_uv ? 0u
                                       : (full ? Eigen::ComputeFullU | Eigen::ComputeFullV
                                               : Eigen::ComputeThinU | Eigen::ComputeThinV);
  Eigen::JacobiSVD<Matrix<T>> f(Matrix<T>(in(a, m, n)), options);
  if (f.info() != Eigen::Success) return false;
  for (int64_t i = 0; i < k; ++i) s[i] = f.singularValues()(i);
  if (!compute_uv) return true;
  out(u, m, full ? m : k) = f.matrixU();
  out(vh, full ? n : k, n) = f.matrixV().transpose();
  return true;
}

template <typename T>
bool eigh_impl(const T* a, int64_t n, bool upper, bool compute_v, T* w, T* v) {
  // Eigen reads the lower triangle: the upper one (UPLO='U') is mirrored into it first.
  Matrix<T> A(in(a, n, n));
  if (upper) A = A.template triangularView<Eigen::Upper>().transpose();
  Eigen::SelfAdjointEigenSolver<Matrix<T>> f(A, compute_v ? Eigen::ComputeEigenvectors
                                                          : Eigen::EigenvaluesOnly);
  if (f.info() != Eigen::Success) return false;
  for (int64_t i = 0; i < n; ++i) w[i] = f.eigenvalues()(i);
  if (compute_v) out(v, n, n) = f.eigenvectors();
  return true;
}

}  // namespace

void qr(const double* a, int64_t m, int64_t n, bool complete, bool compute_q, double* q,
        double* r) {
  qr_impl(a, m, n, complete, compute_q, q, r);
}
void qr(const float* a, int64_t m, int64_t n, bool complete, bool compute_q, float* q, float* r) {
  qr_impl(a, m, n, complete, compute_q, q, r);
}
bool svd(const double* a, int64_t m, int64_t n, bool full, bool compute_uv, double* u, double* s,
         double* vh) {
  return svd_impl(a, m, n, full, compute_uv, u, s, vh);
}
bool svd(const float* a, int64_t m, int64_t n, bool full, bool compute_uv, float* u, float* s,
         float* vh) {
  return svd_impl(a, m, n, full, compute_uv, u, s, vh);
}
bool eigh(const double* a, int64_t n, bool upper, bool compute_v, double* w, double* v) {
  return eigh_impl(a, n, upper, compute_v, w, v);
}
bool eigh(const float* a, int64_t n, bool upper, bool compute_v, float* w, float* v) {
  return eigh_impl(a, n, upper, compute_v, w, v);
}

}  // namespace eigen_decomp
}  // namespace native
}  // namespace gradgen
