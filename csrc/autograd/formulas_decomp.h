// Helpers of the decompositions' derivative formulas (specs/derivatives.yaml, "linear algebra
// decompositions"): PyTorch's names and signatures (linalg_det_backward, slogdet_backward,
// linalg_solve_backward, their jvps, ...), written for gradgen from the math with its
// differentiable API, so that they are differentiable in turn (double backward). Real dtypes:
// every adjoint (mH) is a transpose.
//
// The LU and pivots these formulas receive are the ones gradgen's kernels give
// (csrc/native/linalg_decomp.cc): always A's own factorization, A = P L U, pivots 1-based row
// swaps; so the `use_A_T` flag of PyTorch's jvps (whose LU is A^T's when A is contiguous) has
// nothing to choose here and is ignored.
#pragma once

#include <string_view>
#include <tuple>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// PyTorch's Tensor::mH() and mT(): the last two dims transposed (real: no conjugate).
Tensor mH(const Tensor& self);
Tensor mT(const Tensor& self);

/// A = P L U back from a factorization (LU: L below the diagonal, unit, and U; pivots: 1-based
/// row swaps), with differentiable ops (the permutation is data).
Tensor lu_to_matrix(const Tensor& LU, const Tensor& pivots);

/// The cofactor matrix of every matrix of A, cof(A)_ij = (-1)^(i+j) det(A without row i and
/// column j): det's gradient, det(A) A^-T where A is invertible and defined where it is not.
Tensor cofactor_matrix(const Tensor& A);

/// The gradient of det at A: grad * cof(A), computed as grad * det * A^-T when no matrix of the
/// batch is singular, else through the cofactors (what PyTorch's SVD path gives: the derivative
/// of the polynomial det, nonzero at rank n - 1).
Tensor linalg_det_backward(const Tensor& grad, const Tensor& det, const Tensor& A, const Tensor& LU,
                           const Tensor& pivots);

/// det's tangent along dA: det * tr(A^-1 dA), or sum(cof(A) * dA) with a singular matrix.
Tensor linalg_det_jvp(const Tensor& dA, const Tensor& det, const Tensor& LU, const Tensor& pivots,
                      bool use_A_T);

/// The gradient of (sign, logabsdet) = slogdet(A): grad_logabsdet * A^-T (sign is piecewise
/// constant: no gradient). A singular matrix gives inf / NaN, as PyTorch's (no error).
Tensor slogdet_backward(const Tensor& grad_sign, const Tensor& grad_logabsdet, const Tensor& A,
                        const Tensor& signdet, const Tensor& LU, const Tensor& pivots);

/// The tangents of (sign, logabsdet): zero and tr(A^-1 dA).
std::tuple<Tensor, Tensor> slogdet_jvp(const Tensor& LU, const Tensor& pivots, const Tensor& dA,
                                       const Tensor& sign, bool use_A_T);

/// The gradients of X = solve(A, B) (left: A X = B; else X A = B) from X's gradient gX:
/// gB = A^-T gX (left) or gX A^-T, gA = -gB X^T (left) or -X^T gB; B's only when asked.
std::tuple<Tensor, Tensor> linalg_solve_backward(const Tensor& gX, const Tensor& X, const Tensor& A,
                                                 const Tensor& LU, const Tensor& pivots, bool left,
                                                 bool B_requires_grad);

/// X's tangent: A^-1 (dB - dA X) (left), or (dB - X dA) A^-1.
Tensor linalg_solve_jvp(const Tensor& dA, const Tensor& dB, const Tensor& X, const Tensor& LU,
                        const Tensor& pivots, bool left);

/// The gradient of L = cholesky(A) (A = L L^T; upper: U = L^T) from L's gradient gL:
/// L^-T phi(L^T gL) L^-1, phi taking the lower triangle with its diagonal halved, symmetrized
/// (A is taken symmetric, as PyTorch's).
Tensor cholesky_backward(const Tensor& grad, bool upper, const Tensor& L);

/// L's tangent: L phi(L^-1 dA L^-T) (upper: its transpose).
Tensor cholesky_jvp(const Tensor& dA, const Tensor& L, bool upper);

/// The gradient of (Q, R) = qr(A, mode) (A = Q R; m >= n, or m < n taken as A = Q [R1 R2]):
/// (gQ + Q N) R^-T with N = triu(M) + triu(M, 1)^T, M = gR R^T - Q^T gQ. Raises, as PyTorch's,
/// for mode 'r' (no Q) and for 'complete' with m > n (Q's last columns are not determined).
Tensor linalg_qr_backward(const Tensor& gQ, const Tensor& gR, const Tensor& Q, const Tensor& R,
                          std::string_view mode);

/// The tangents (dQ, dR) of qr along dA: X = Q^T dA R^-1, C = tril(X, -1) - tril(X, -1)^T,
/// dR = (X - C) R, dQ = dA R^-1 - Q (X - C) (m < n: from A's first m columns, dR2 from
/// R2 = Q^T A2). The same refusals as the backward.
std::tuple<Tensor, Tensor> linalg_qr_jvp(const Tensor& dA, const Tensor& Q, const Tensor& R,
                                         std::string_view mode);

/// PyTorch's Tensor::narrow_symint (sizes are concrete here): narrow.
Tensor narrow_symint(const Tensor& self, int64_t dim, int64_t start, int64_t length);

/// The gradient of (U, S, Vh) = svd(A) (thin: U m x k, Vh k x n) from their gradients (any may
/// be undefined), Townsend's formula: U [diag(gS) + (F o (U^T gU - gU^T U)) S + S (F o (V^T gV -
/// gV^T V))] Vh, plus (I - U U^T) gU S^-1 Vh for m > k and U S^-1 gV^T (I - V V^T) for n > k,
/// F_ij = 1 / (s_j^2 - s_i^2) off the diagonal (infinite for repeated singular values, as
/// PyTorch's).
Tensor svd_backward(const Tensor& gU, const Tensor& gS, const Tensor& gVh, const Tensor& U,
                    const Tensor& S, const Tensor& Vh);

/// The tangents (dU, dS, dVh) of the SVD along dA: dP = U^T dA V, dS = diag(dP),
/// dU = U (F o (dP S + S dP^T)) + (dA V - U dP) S^-1, dV = V (F o (S dP + dP^T S)) +
/// (dA^T U - V dP^T) S^-1. With full_matrices and m != n, U's or V's last columns have no
/// tangent: raises, as PyTorch's.
std::tuple<Tensor, Tensor, Tensor> linalg_svd_jvp(const Tensor& dA, const Tensor& U,
                                                  const Tensor& S, const Tensor& Vh,
                                                  bool full_matrices);

/// The gradient of the eigendecomposition A = V diag(L) V^T of a symmetric A from the
/// eigenvalues' and eigenvectors' gradients (either may be undefined):
/// V (diag(gL) + F o (V^T gV)) V^T, F_ij = 1 / (L_j - L_i) off the diagonal (infinite for
/// repeated eigenvalues, as PyTorch's). Only is_hermitian (gradgen has no linalg_eig).
Tensor linalg_eig_backward(const Tensor& gL, const Tensor& gV, const Tensor& L, const Tensor& V,
                           bool is_hermitian, bool symeig_eigenvectors = true);

/// The tangents (dL, dV): dP = V^T dA V, dL = diag(dP), dV = V (F o dP).
std::tuple<Tensor, Tensor> linalg_eig_jvp(const Tensor& dA, const Tensor& L, const Tensor& V,
                                          bool is_hermitian);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
