#include "csrc/autograd/formulas_decomp.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

namespace {

// Whether X is a (batch of) vector(s) of a solve with A (A's shape without its last dim, or
// 1-D), as PyTorch's linalg_solve_is_vector_rhs.
bool is_vector_rhs(const Tensor& A, const Tensor& X) {
  if (X.dim() == 1) return true;
  if (X.dim() != A.dim() - 1) return false;
  for (int64_t d = 0; d < X.dim(); ++d) {
    if (X.size(d) != A.size(d)) return false;
  }
  return true;
}

// Whether any element of t (a batch of determinants) is zero: data, not differentiated.
bool any_zero(const Tensor& t) {
  NoGradGuard no_grad;
  const Tensor z = eq(t.detach(), 0).contiguous();
  const bool* p = z.data_ptr<bool>();
  return std::any_of(p, p + z.numel(), [](bool b) { return b; });
}

// trace of every matrix: the sum of the diagonal.
Tensor batch_trace(const Tensor& M) { return sum(diagonal(M, 0, -2, -1), IntArrayRef{-1}); }

// t with two trailing dims of size 1, to scale matrices.
Tensor as_scale(const Tensor& t) { return unsqueeze(unsqueeze(t, -1), -1); }

// X of A X = B (left) or X A = B, without raising on a singular A (inf / NaN instead).
Tensor solve_quiet(const Tensor& A, const Tensor& B, bool left) {
  return std::get<0>(_linalg_solve_ex(A, B, left, false));
}

}  // namespace

Tensor mH(const Tensor& self) { return transpose(self, -2, -1); }
Tensor mT(const Tensor& self) { return transpose(self, -2, -1); }

Tensor lu_to_matrix(const Tensor& LU, const Tensor& pivots) {
  const int64_t n = LU.size(-1);
  const Tensor I = eye(n, LU.scalar_type());
  const Tensor M = matmul(add(tril(LU, -1), I), triu(LU));
  // Row i of M is row perm[i] of A (the swaps applied in order): A's row j is M's row inv[j].
  Tensor inv = empty(pivots.sizes(), ScalarType::Long);
  {
    const Tensor piv = pivots.contiguous();
    const int64_t batches = n == 0 ? 0 : piv.numel() / n;
    std::vector<int64_t> perm(static_cast<size_t>(n));
    for (int64_t b = 0; b < batches; ++b) {
      std::iota(perm.begin(), perm.end(), 0);
      const int64_t* p = piv.data_ptr<int64_t>() + b * n;
      for (int64_t k = 0; k < n; ++k) std::swap(perm[k], perm[p[k] - 1]);
      int64_t* q = inv.data_ptr<int64_t>() + b * n;
      for (int64_t i = 0; i < n; ++i) q[perm[i]] = i;
    }
  }
  std::vector<int64_t> sizes(LU.sizes().begin(), LU.sizes().end());
  return gather(M, -2, expand(unsqueeze(inv, -1), sizes));
}

Tensor cofactor_matrix(const Tensor& A) {
  const int64_t n = A.size(-1);
  if (n <= 1) return ones_like(A);  // the empty product: d a / d a = 1 for 1 x 1
  // rest[i] = every index but i: row i of A's minors (n rows of n - 1).
  std::vector<int64_t> rest;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < n; ++k) {
      if (k != i) rest.push_back(k);
    }
  }
  Tensor index = empty({n * (n - 1)}, ScalarType::Long);
  std::copy(rest.begin(), rest.end(), index.data_ptr<int64_t>());
  std::vector<int64_t> batch(A.sizes().begin(), A.sizes().end() - 2);
  auto with = [&batch](std::initializer_list<int64_t> tail) {
    std::vector<int64_t> s = batch;
    s.insert(s.end(), tail.begin(), tail.end());
    return s;
  };
  // (*, n (i), n - 1 (rows), n (j), n - 1 (cols)), then i, j first: (*, n, n, n - 1, n - 1).
  const Tensor rows = reshape(index_select(A, -2, index), with({n, n - 1, n}));
  const Tensor minors =
      transpose(reshape(index_select(rows, -1, index), with({n, n - 1, n, n - 1})), -3, -2);
  Tensor signs = empty({n, n}, A.scalar_type());
  gradgen::internal::dispatch_floating(A.scalar_type(), "cofactor", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) signs.data_ptr<T>()[i * n + j] = (i + j) % 2 ? T(-1) : T(1);
    }
  });
  return mul(linalg_det(minors), signs);
}

Tensor linalg_det_backward(const Tensor& grad, const Tensor& det, const Tensor& A, const Tensor& LU,
                           const Tensor& pivots) {
  (void)LU;
  (void)pivots;
  if (!grad.defined()) return Tensor();
  if (A.numel() == 0) return zeros_like(A);
  if (any_zero(det)) return mul(as_scale(grad), cofactor_matrix(A));
  return mul(as_scale(mul(grad, det)), mT(linalg_inv(A)));
}

Tensor linalg_det_jvp(const Tensor& dA, const Tensor& det, const Tensor& LU, const Tensor& pivots,
                      bool use_A_T) {
  (void)use_A_T;
  const Tensor A = lu_to_matrix(LU, pivots);
  if (A.numel() == 0) return zeros_like(det);
  if (any_zero(det)) return sum(mul(cofactor_matrix(A), dA), IntArrayRef{-2, -1});
  return mul(det, batch_trace(solve_quiet(A, dA, true)));
}

Tensor slogdet_backward(const Tensor& grad_sign, const Tensor& grad_logabsdet, const Tensor& A,
                        const Tensor& signdet, const Tensor& LU, const Tensor& pivots) {
  (void)grad_sign;  // sign is piecewise constant for real A
  (void)signdet;
  (void)LU;
  (void)pivots;
  if (!grad_logabsdet.defined()) return Tensor();
  if (A.numel() == 0) return zeros_like(A);
  return mul(as_scale(grad_logabsdet), mT(std::get<0>(linalg_inv_ex(A, false))));
}

std::tuple<Tensor, Tensor> slogdet_jvp(const Tensor& LU, const Tensor& pivots, const Tensor& dA,
                                       const Tensor& sign, bool use_A_T) {
  (void)use_A_T;
  const Tensor A = lu_to_matrix(LU, pivots);
  if (A.numel() == 0) return {zeros_like(sign), zeros_like(sign)};
  return {zeros_like(sign), batch_trace(solve_quiet(A, dA, true))};
}

std::tuple<Tensor, Tensor> linalg_solve_backward(const Tensor& gX, const Tensor& X, const Tensor& A,
                                                 const Tensor& LU, const Tensor& pivots, bool left,
                                                 bool B_requires_grad) {
  (void)pivots;
  if (!gX.defined()) return {Tensor(), Tensor()};
  const bool vector = is_vector_rhs(LU, X);
  const Tensor Xm = vector ? unsqueeze(X, -1) : X;
  const Tensor gXm = vector ? unsqueeze(gX, -1) : gX;
  // A^T's solve gives B's gradient; A's is then minus its product with X.
  const Tensor gBm = solve_quiet(mT(A), gXm, left);
  const Tensor gA = left ? neg(matmul(gBm, mT(Xm))) : neg(matmul(mT(Xm), gBm));
  Tensor gB;
  if (B_requires_grad) gB = vector ? squeeze(gBm, -1) : gBm;
  return {gA, gB};
}

Tensor linalg_solve_jvp(const Tensor& dA, const Tensor& dB, const Tensor& X, const Tensor& LU,
                        const Tensor& pivots, bool left) {
  const Tensor A = lu_to_matrix(LU, pivots);
  const bool vector = is_vector_rhs(LU, X);
  const Tensor Xm = vector ? unsqueeze(X, -1) : X;
  const Tensor dBm = vector ? unsqueeze(dB, -1) : dB;
  const Tensor rhs = sub(dBm, left ? matmul(dA, Xm) : matmul(Xm, dA));
  const Tensor dX = solve_quiet(A, rhs, left);
  return vector ? squeeze(dX, -1) : dX;
}

namespace {

// The lower triangle of X with its diagonal halved (Cholesky's phi).
Tensor phi(const Tensor& X) { return sub(tril(X), mul(diag_embed(diagonal(X, 0, -2, -1)), 0.5)); }

}  // namespace

Tensor cholesky_backward(const Tensor& grad, bool upper, const Tensor& L) {
  if (!grad.defined()) return Tensor();
  const Tensor L_ = upper ? mT(L) : L;
  const Tensor gL = upper ? mT(grad) : grad;
  // L^-T phi(L^T gL) L^-1: a left solve with L^T, then a right solve with L.
  const Tensor inner = solve_quiet(mT(L_), phi(matmul(mT(L_), gL)), true);
  const Tensor gA = solve_quiet(L_, inner, false);
  return mul(add(gA, mT(gA)), 0.5);
}

Tensor cholesky_jvp(const Tensor& dA, const Tensor& L, bool upper) {
  const Tensor L_ = upper ? mT(L) : L;
  // L^-1 dA L^-T, then L phi(...).
  const Tensor inner = solve_quiet(mT(L_), solve_quiet(L_, dA, true), false);
  const Tensor dL = matmul(L_, phi(inner));
  return upper ? mT(dL) : dL;
}

namespace {

void check_qr_differentiable(const Tensor& Q, const Tensor& R, std::string_view mode) {
  if (mode == "r") {
    throw std::runtime_error(
        "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
        "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
  }
  if (mode == "complete" && Q.size(-2) > R.size(-1)) {
    throw std::runtime_error(
        "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
  }
}

// qr's gradient for a square or tall A (R square and invertible); undefined gradients are zero.
Tensor qr_backward_tall(const Tensor& gQ, const Tensor& gR, const Tensor& Q, const Tensor& R) {
  Tensor M;
  if (gR.defined()) M = matmul(gR, mT(R));
  if (gQ.defined()) M = M.defined() ? sub(M, matmul(mT(Q), gQ)) : neg(matmul(mT(Q), gQ));
  const Tensor N = add(triu(M), mT(triu(M, 1)));
  const Tensor B = gQ.defined() ? add(gQ, matmul(Q, N)) : matmul(Q, N);
  return solve_quiet(mT(R), B, false);  // B R^-T
}

std::tuple<Tensor, Tensor> qr_jvp_tall(const Tensor& dA, const Tensor& Q, const Tensor& R) {
  const Tensor dA_Rinv = solve_quiet(R, dA, false);  // dA R^-1
  const Tensor X = matmul(mT(Q), dA_Rinv);
  const Tensor T = tril(X, -1);
  const Tensor upper = add(sub(X, T), mT(T));  // X - C, C = T - T^T
  return {sub(dA_Rinv, matmul(Q, upper)), matmul(upper, R)};
}

}  // namespace

Tensor linalg_qr_backward(const Tensor& gQ, const Tensor& gR, const Tensor& Q, const Tensor& R,
                          std::string_view mode) {
  check_qr_differentiable(Q, R, mode);
  if (!gQ.defined() && !gR.defined()) return Tensor();
  const int64_t m = Q.size(-2), n = R.size(-1);
  if (m >= n) return qr_backward_tall(gQ, gR, Q, R);
  // A = Q [R1 R2]: (Q, R1) = qr(A1) and R2 = Q^T A2, so A2 feeds Q's gradient through R2.
  const Tensor R1 = narrow(R, -1, 0, m), R2 = narrow(R, -1, m, n - m);
  Tensor gQ1 = gQ, gR1, gA2 = zeros_like(matmul(Q, R2));
  if (gR.defined()) {
    const Tensor gR2 = narrow(gR, -1, m, n - m);
    gR1 = narrow(gR, -1, 0, m);
    const Tensor extra = matmul(matmul(Q, R2), mT(gR2));
    gQ1 = gQ.defined() ? add(gQ, extra) : extra;
    gA2 = matmul(Q, gR2);
  }
  return cat({qr_backward_tall(gQ1, gR1, Q, R1), gA2}, -1);
}

std::tuple<Tensor, Tensor> linalg_qr_jvp(const Tensor& dA, const Tensor& Q, const Tensor& R,
                                         std::string_view mode) {
  check_qr_differentiable(Q, R, mode);
  const int64_t m = Q.size(-2), n = R.size(-1);
  if (m >= n) return qr_jvp_tall(dA, Q, R);
  const Tensor R1 = narrow(R, -1, 0, m), R2 = narrow(R, -1, m, n - m);
  auto [dQ, dR1] = qr_jvp_tall(narrow(dA, -1, 0, m), Q, R1);
  const Tensor dR2 = add(matmul(mT(dQ), matmul(Q, R2)), matmul(mT(Q), narrow(dA, -1, m, n - m)));
  return {dQ, cat({dR1, dR2}, -1)};
}

Tensor narrow_symint(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  return narrow(self, dim, start, length);
}

namespace {

// F_ij = 1 / (x_j - x_i) off the diagonal, 0 on it, for the last dim of x (*, k): (*, k, k).
// The diagonal's 0 - 0 is replaced by 1 before dividing, so no inf / NaN enters the graph there.
Tensor inverse_gaps(const Tensor& x) {
  const Tensor I = eye(x.size(-1), x.scalar_type());
  const Tensor gaps = sub(unsqueeze(x, -2), unsqueeze(x, -1));
  return div(add(neg(I), 1), add(gaps, I));
}

}  // namespace

Tensor svd_backward(const Tensor& gU, const Tensor& gS, const Tensor& gVh, const Tensor& U,
                    const Tensor& S, const Tensor& Vh) {
  if (!gU.defined() && !gS.defined() && !gVh.defined()) return Tensor();
  if (U.dim() < 2 || Vh.dim() < 2) {
    throw std::runtime_error(
        "linalg.svd: the derivative needs U and Vh, which compute_uv=False does not compute");
  }
  const int64_t m = U.size(-2), n = Vh.size(-1), k = S.size(-1);
  Tensor inner = gS.defined() ? diag_embed(gS) : zeros_like(matmul(mT(U), U));
  if (!gU.defined() && !gVh.defined()) return matmul(matmul(U, inner), Vh);
  const Tensor F = inverse_gaps(mul(S, S));
  const Tensor V = mT(Vh);
  const Tensor gV = gVh.defined() ? mT(gVh) : Tensor();
  if (gU.defined()) {
    const Tensor UtgU = matmul(mT(U), gU);
    inner = add(inner, mul(mul(F, sub(UtgU, mT(UtgU))), unsqueeze(S, -2)));
  }
  if (gV.defined()) {
    const Tensor VtgV = matmul(mT(V), gV);
    inner = add(inner, mul(unsqueeze(S, -1), mul(F, sub(VtgV, mT(VtgV)))));
  }
  Tensor gA = matmul(matmul(U, inner), Vh);
  if (gU.defined() && m > k) {
    const Tensor outside = sub(gU, matmul(U, matmul(mT(U), gU)));  // (I - U U^T) gU
    gA = add(gA, matmul(outside, div(Vh, unsqueeze(S, -1))));
  }
  if (gV.defined() && n > k) {
    const Tensor outside = sub(gV, matmul(V, matmul(mT(V), gV)));  // (I - V V^T) gV
    gA = add(gA, matmul(div(U, unsqueeze(S, -2)), mT(outside)));
  }
  return gA;
}

std::tuple<Tensor, Tensor, Tensor> linalg_svd_jvp(const Tensor& dA, const Tensor& U_,
                                                  const Tensor& S, const Tensor& Vh_,
                                                  bool full_matrices) {
  const int64_t m = dA.size(-2), n = dA.size(-1), k = S.size(-1);
  if (full_matrices && m != n) {
    throw std::runtime_error(
        "linalg_svd_jvp: the forward-mode derivative of linalg.svd is not defined for "
        "full_matrices=True when A is not square (U's or Vh's last vectors are not determined)");
  }
  const Tensor U = narrow(U_, -1, 0, k), Vh = narrow(Vh_, -2, 0, k);
  const Tensor V = mT(Vh);
  const Tensor dP = matmul(matmul(mT(U), dA), V);
  const Tensor F = inverse_gaps(mul(S, S));
  const Tensor Sr = unsqueeze(S, -2), Sc = unsqueeze(S, -1);  // scale columns / rows
  Tensor dU = matmul(U, mul(F, add(mul(dP, Sr), mul(Sc, mT(dP)))));
  Tensor dV = matmul(V, mul(F, add(mul(Sc, dP), mul(mT(dP), Sr))));
  if (m > k) dU = add(dU, div(sub(matmul(dA, V), matmul(U, dP)), Sr));
  if (n > k) dV = add(dV, div(sub(matmul(mT(dA), U), matmul(V, mT(dP))), Sr));
  return {dU, diagonal(dP, 0, -2, -1), mT(dV)};
}

namespace {

void check_eigh(const Tensor& V, bool is_hermitian) {
  if (!is_hermitian) {
    throw std::runtime_error(
        "linalg_eig_backward: gradgen has only the symmetric eigendecomposition (linalg.eigh)");
  }
  if (V.dim() < 2) {
    throw std::runtime_error(
        "linalg.eigh: the derivative needs the eigenvectors, which compute_v=False does not "
        "compute");
  }
}

}  // namespace

Tensor linalg_eig_backward(const Tensor& gL, const Tensor& gV, const Tensor& L, const Tensor& V,
                           bool is_hermitian, bool symeig_eigenvectors) {
  (void)symeig_eigenvectors;
  if (!gL.defined() && !gV.defined()) return Tensor();
  check_eigh(V, is_hermitian);
  Tensor inner = gL.defined() ? diag_embed(gL) : zeros_like(matmul(mT(V), V));
  if (gV.defined()) inner = add(inner, mul(inverse_gaps(L), matmul(mT(V), gV)));
  return matmul(matmul(V, inner), mT(V));
}

std::tuple<Tensor, Tensor> linalg_eig_jvp(const Tensor& dA, const Tensor& L, const Tensor& V,
                                          bool is_hermitian) {
  check_eigh(V, is_hermitian);
  const Tensor dP = matmul(matmul(mT(V), dA), V);
  return {diagonal(dP, 0, -2, -1), matmul(V, mul(inverse_gaps(L), dP))};
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
