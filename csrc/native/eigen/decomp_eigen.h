// The decompositions computed with Eigen (csrc/native/eigen/decomp_eigen.cc) for the kernels
// of csrc/native/linalg_decomp.cc: QR (Householder), SVD (Jacobi, with column-pivoting QR
// first) and the symmetric eigendecomposition. One matrix at a time, on row-major buffers;
// declarations only, so that Eigen's headers stay out of the kernels' compiles (as
// csrc/native/simd/vectorized.h keeps them out of the GEMM's callers).
#pragma once

#include <cstdint>

namespace gradgen {
namespace native {
namespace eigen_decomp {

/// A = Q R of the m x n matrix a (k = min(m, n)): q is m x (complete ? m : k), r is
/// (complete ? m : k) x n, upper triangular; LAPACK's geqrf sign convention (Householder
/// reflections; R's diagonal may be negative). With compute_q false, q is not written.
void qr(const double* a, int64_t m, int64_t n, bool complete, bool compute_q, double* q, double* r);
void qr(const float* a, int64_t m, int64_t n, bool complete, bool compute_q, float* q, float* r);

/// A = U diag(S) Vh of the m x n matrix a: s (k) decreasing, u is m x (full ? m : k), vh is
/// (full ? n : k) x n; with compute_uv false only s is written. Returns false if the iteration
/// did not converge.
bool svd(const double* a, int64_t m, int64_t n, bool full, bool compute_uv, double* u, double* s,
         double* vh);
bool svd(const float* a, int64_t m, int64_t n, bool full, bool compute_uv, float* u, float* s,
         float* vh);

/// The eigenvalues w (n, ascending) and, with compute_v, the orthonormal eigenvectors v (n x n,
/// columns) of the symmetric matrix whose lower (upper: its upper) triangle a holds. Returns
/// false if the iteration did not converge.
bool eigh(const double* a, int64_t n, bool upper, bool compute_v, double* w, double* v);
bool eigh(const float* a, int64_t n, bool upper, bool compute_v, float* w, float* v);

}  // namespace eigen_decomp
}  // namespace native
}  // namespace gradgen
