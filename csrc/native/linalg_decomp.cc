// Linear algebra decompositions (issue 23, "Linear algebra"): LU (det, slogdet, inv, solve),
// and the ops PyTorch builds on them. A batch `(*, m, n)` is a loop over its matrices, each
// copied into a row-major buffer of its dtype (float or double), factored there and written out.
//
// The LU factorization is LAPACK's getrf, written here (Eigen's PartialPivLU neither reports a
// zero pivot nor gives its row swaps as LAPACK's 1-based sequence): column by column, the first
// row of largest |a| below the diagonal is the pivot, the rows are swapped, the column below it
// divided by it and the trailing block updated; a zero pivot (an exactly singular matrix) sets
// info to its 1-based column, once, and the factorization goes on, as LAPACK's does.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/eigen/decomp_eigen.h"
#include "csrc/native/linalg_decomp_common.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace decomp {

void check_matrix(const char* api, const Tensor& A, const char* name) {
  if (A.dim() < 2) {
    throw std::runtime_error(std::string(api) + ": The input tensor " + name +
                             " must have at least 2 dimensions.");
  }
  check_floating(api, A, name);
}

void check_square(const char* api, const Tensor& A, const char* name) {
  check_matrix(api, A, name);
  if (A.size(-1) != A.size(-2)) {
    throw std::runtime_error(
        std::string(api) + ": " + name + " must be batches of square matrices, but they are " +
        std::to_string(A.size(-2)) + " by " + std::to_string(A.size(-1)) + " matrices");
  }
}

// PyTorch 2.13's refusal of float16 / bfloat16 (its CPU decompositions have no such instances):
// the LAPACK kernel's name, NotImplementedError, or "Low precision dtypes not supported".
[[noreturn]] void refuse_low_precision(const char* api, ScalarType dtype) {
  static const std::pair<std::string_view, const char*> kKernels[] = {
      {"linalg.det", "lu_cpu"},
      {"linalg.solve", "lu_cpu"},
      {"linalg.cholesky", "cholesky_cpu"},
      {"linalg.qr", "geqrf_cpu"},
      {"linalg.svd", "linalg_svd_cpu"},
      {"linalg.eigh", "linalg_eigh_cpu"}};
  for (const auto& [name, kernel] : kKernels) {
    if (name == api) refuse_dtype(kernel, dtype);
  }
  throw std::runtime_error(std::string(api) + ": Low precision dtypes not supported. Got " +
                           to_string(dtype));
}

void check_floating(const char* api, const Tensor& A, const char* name) {
  (void)name;
  if (is_reduced_float(A.scalar_type())) refuse_low_precision(api, A.scalar_type());
  if (A.scalar_type() != ScalarType::Float && A.scalar_type() != ScalarType::Double) {
    throw std::runtime_error(std::string(api) +
                             ": Expected a floating point or complex tensor as input. Got " +
                             to_string(A.scalar_type()));
  }
}

std::vector<int64_t> batch_shape(const Tensor& A, int64_t matrix_dims) {
  std::vector<int64_t> b(A.sizes().begin(), A.sizes().end() - matrix_dims);
  return b;
}

int64_t count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

std::vector<int64_t> concat(std::vector<int64_t> a, std::initializer_list<int64_t> b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void check_errors(const Tensor& info, const std::string& api, bool is_matrix, Failure what) {
  const Tensor c = info.contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  for (int64_t i = 0; i < c.numel(); ++i) {
    if (p[i] == 0) continue;
    const std::string where = is_matrix ? "" : ": (Batch element " + std::to_string(i) + ")";
    const std::string code = std::to_string(p[i]);
    switch (what) {
      case Failure::kSolve:
        throw std::runtime_error(api + where +
                                 ": The solver failed because the input matrix is singular.");
      case Failure::kInverse:
        throw std::runtime_error(api + where + ": The diagonal element " + code +
                                 " is zero, the inversion could not be completed because the "
                                 "input matrix is singular.");
      case Failure::kCholesky:
        throw std::runtime_error(api + where +
                                 ": The factorization could not be completed because the input "
                                 "is not positive-definite (the leading minor of order " +
                                 code + " is not positive-definite).");
      case Failure::kEig:
        throw std::runtime_error(api + where +
                                 ": The algorithm failed to converge because the input matrix "
                                 "is ill-conditioned or has too many repeated eigenvalues (error "
                                 "code: " +
                                 code + ").");
      case Failure::kSvd:
        throw std::runtime_error(api + where +
                                 ": The algorithm failed to converge because the input matrix "
                                 "is ill-conditioned or has too many repeated singular values "
                                 "(error code: " +
                                 code + ").");
    }
  }
}

}  // namespace decomp

namespace {

using decomp::batch_shape;
using decomp::concat;
using decomp::count;

// LAPACK's getrf on the row-major n x n matrix a, in place: a holds L (unit, below the diagonal)
// and U; piv[k] is the 1-based row swapped with row k. Returns info (0, or the first zero pivot).
template <typename T>
int64_t getrf(T* a, int64_t n, int64_t* piv) {
  int64_t info = 0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = k;
    T best = std::abs(a[k * n + k]);
    for (int64_t i = k + 1; i < n; ++i) {
      const T v = std::abs(a[i * n + k]);
      if (v > best || (best != best)) {  // the first largest; NaN stops the search as LAPACK's
        best = v;
        p = i;
      }
    }
    piv[k] = p + 1;
    const T pivot = a[p * n + k];
    if (pivot == T(0)) {
      if (info == 0) info = k + 1;
      continue;  // the column below is all zero: nothing to eliminate
    }
    if (p != k) {
      for (int64_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[p * n + j]);
    }
    for (int64_t i = k + 1; i < n; ++i) {
      const T l = a[i * n + k] / pivot;
      a[i * n + k] = l;
      if (l == T(0)) continue;
      for (int64_t j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return info;
}

// Solves A X = B in place in b (row-major n x k) from getrf's lu and piv. A zero pivot divides by
// zero (inf / NaN, as LAPACK's getrs): callers check info first.
template <typename T>
void getrs(const T* lu, const int64_t* piv, int64_t n, T* b, int64_t k) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t p = piv[i] - 1;
    if (p != i) {
      for (int64_t j = 0; j < k; ++j) std::swap(b[i * k + j], b[p * k + j]);
    }
  }
  for (int64_t i = 0; i < n; ++i) {  // L y = P b, L unit lower
    for (int64_t r = 0; r < i; ++r) {
      const T l = lu[i * n + r];
      for (int64_t j = 0; j < k; ++j) b[i * k + j] -= l * b[r * k + j];
    }
  }
  for (int64_t i = n - 1; i >= 0; --i) {  // U x = y
    for (int64_t r = i + 1; r < n; ++r) {
      const T u = lu[i * n + r];
      for (int64_t j = 0; j < k; ++j) b[i * k + j] -= u * b[r * k + j];
    }
    const T d = lu[i * n + i];
    for (int64_t j = 0; j < k; ++j) b[i * k + j] /= d;
  }
}

// One matrix of a batch read as a row-major buffer: element (i, j) of matrix `index`.
template <typename T>
std::vector<T> read_matrix(const Tensor& contiguous, int64_t index, int64_t rows, int64_t cols) {
  const T* p = contiguous.data_ptr<T>() + index * rows * cols;
  return std::vector<T>(p, p + rows * cols);
}

// The LU factorizations of A's matrices: LU (A's shape), pivots (*, n) and info (*), all Long but
// LU.
std::tuple<Tensor, Tensor, Tensor> lu_factor_batch(const Tensor& A) {
  const int64_t n = A.size(-1);
  const std::vector<int64_t> batch = batch_shape(A, 2);
  Tensor LU = internal::copy_contiguous(A);
  Tensor pivots = empty(concat(batch, {n}), ScalarType::Long);
  Tensor info = zeros(batch, ScalarType::Long);
  internal::dispatch_floating(A.scalar_type(), "lu_factor", [&](auto tag) {
    using T = decltype(tag);
    T* a = LU.data_ptr<T>();
    int64_t* piv = pivots.data_ptr<int64_t>();
    int64_t* inf = info.data_ptr<int64_t>();
    for (int64_t b = 0; b < count(batch); ++b) inf[b] = getrf(a + b * n * n, n, piv + b * n);
  });
  return {LU, pivots, info};
}

// det from a factorization: the product of U's diagonal, negated per row swap.
template <typename T>
T det_of_lu(const T* lu, const int64_t* piv, int64_t n) {
  T d = T(1);
  for (int64_t i = 0; i < n; ++i) {
    d *= lu[i * n + i];
    if (piv[i] != i + 1) d = -d;
  }
  return d;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// det, slogdet
// ---------------------------------------------------------------------------------------------

std::tuple<Tensor, Tensor, Tensor> _linalg_det(const Tensor& A) {
  decomp::check_square("linalg.det", A, "A");
  auto [LU, pivots, info] = lu_factor_batch(A);
  const int64_t n = A.size(-1);
  const std::vector<int64_t> batch = batch_shape(A, 2);
  Tensor result = empty(batch, A.scalar_type());
  internal::dispatch_floating(A.scalar_type(), "linalg.det", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t b = 0; b < count(batch); ++b) {
      result.data_ptr<T>()[b] =
          det_of_lu(LU.data_ptr<T>() + b * n * n, pivots.data_ptr<int64_t>() + b * n, n);
    }
  });
  return {result, LU, pivots};
}

Tensor linalg_det(const Tensor& A) { return std::get<0>(gradgen::_linalg_det(A)); }

Tensor& linalg_det_out(const Tensor& A, Tensor& out) {
  return write_out("linalg_det.out", native::linalg_det(A), out);
}

Tensor det(const Tensor& self) { return gradgen::linalg_det(self); }

std::tuple<Tensor, Tensor, Tensor, Tensor> _linalg_slogdet(const Tensor& A) {
  decomp::check_square("linalg.slogdet", A, "A");
  auto [LU, pivots, info] = lu_factor_batch(A);
  const int64_t n = A.size(-1);
  const std::vector<int64_t> batch = batch_shape(A, 2);
  Tensor sign = empty(batch, A.scalar_type());
  Tensor logabsdet = empty(batch, A.scalar_type());
  internal::dispatch_floating(A.scalar_type(), "linalg.slogdet", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t b = 0; b < count(batch); ++b) {
      const T* lu = LU.data_ptr<T>() + b * n * n;
      const int64_t* piv = pivots.data_ptr<int64_t>() + b * n;
      T s = T(1), l = T(0);
      for (int64_t i = 0; i < n; ++i) {
        const T d = lu[i * n + i];
        if (d < T(0)) s = -s;
        if (piv[i] != i + 1) s = -s;
        l += std::log(std::abs(d));
      }
      // A zero pivot: sign 0 and log|det| = -inf, as PyTorch's.
      if (l == -std::numeric_limits<T>::infinity()) s = T(0);
      sign.data_ptr<T>()[b] = s;
      logabsdet.data_ptr<T>()[b] = l;
    }
  });
  return {sign, logabsdet, LU, pivots};
}

std::tuple<Tensor, Tensor> linalg_slogdet(const Tensor& A) {
  auto [sign, logabsdet, LU, pivots] = gradgen::_linalg_slogdet(A);
  return {sign, logabsdet};
}

std::tuple<Tensor&, Tensor&> linalg_slogdet_out(const Tensor& A, Tensor& sign, Tensor& logabsdet) {
  auto [s, l] = native::linalg_slogdet(A);
  write_out("linalg_slogdet.out", s, sign);
  write_out("linalg_slogdet.out", l, logabsdet);
  return {sign, logabsdet};
}

std::tuple<Tensor, Tensor> slogdet(const Tensor& self) { return gradgen::linalg_slogdet(self); }

std::tuple<Tensor&, Tensor&> slogdet_out(const Tensor& self, Tensor& sign, Tensor& logabsdet) {
  auto [s, l] = native::linalg_slogdet(self);
  write_out("slogdet.out", s, sign);
  write_out("slogdet.out", l, logabsdet);
  return {sign, logabsdet};
}

Tensor logdet(const Tensor& self) {
  decomp::check_square("logdet", self, "A");
  auto [sign, logabsdet] = gradgen::linalg_slogdet(self);
  // A negative determinant has no real log: NaN there (PyTorch's where(sign == -1, nan, ...)).
  return gradgen::where(gradgen::eq(sign, -1), gradgen::full_like(logabsdet, NAN), logabsdet);
}

// ---------------------------------------------------------------------------------------------
// solve, inv
// ---------------------------------------------------------------------------------------------

namespace {

// Whether B is a (batch of) vector(s) for linalg.solve: 1-D, or A's shape without its last dim.
bool is_vector_rhs(const Tensor& A, const Tensor& B) {
  if (B.dim() == 1) return true;
  if (B.dim() != A.dim() - 1) return false;
  for (int64_t d = 0; d < B.dim(); ++d) {
    if (B.size(d) != A.size(d)) return false;
  }
  return true;
}

// X with A X = B for every matrix of the broadcast batch (B as (*, n, k)), from A's LU: result
// in B's broadcast shape. With left=false, X A = B, solved as A^T X^T = B^T on A^T's own LU.
Tensor solve_with_lu(const Tensor& A, const Tensor& B, bool left) {
  const int64_t n = A.size(-1);
  if ((left ? B.size(-2) : B.size(-1)) != n) {
    throw std::runtime_error(std::string("linalg.solve: Incompatible shapes of A and B for the "
                                         "equation ") +
                             (left ? "AX = B" : "XA = B") + " (" + std::to_string(n) + "x" +
                             std::to_string(n) + " and " + std::to_string(B.size(-2)) + "x" +
                             std::to_string(B.size(-1)) + ")");
  }
  const Tensor Am = left ? A : gradgen::transpose(A, -2, -1);
  const Tensor Bm = left ? B : gradgen::transpose(B, -2, -1);
  const int64_t k = Bm.size(-1);
  const DimVector batch =
      loops::broadcast_shapes("linalg.solve", batch_shape(Am, 2), batch_shape(Bm, 2));
  const std::vector<int64_t> bshape(batch.begin(), batch.end());
  const Tensor Ab = gradgen::expand(Am, concat(bshape, {n, n})).contiguous();
  Tensor X = internal::copy_contiguous(gradgen::expand(Bm, concat(bshape, {n, k})));
  internal::dispatch_floating(A.scalar_type(), "linalg.solve", [&](auto tag) {
    using T = decltype(tag);
    std::vector<int64_t> piv(static_cast<size_t>(n));
    for (int64_t b = 0; b < count(bshape); ++b) {
      std::vector<T> lu = read_matrix<T>(Ab, b, n, n);
      getrf(lu.data(), n, piv.data());
      getrs(lu.data(), piv.data(), n, X.data_ptr<T>() + b * n * k, k);
    }
  });
  return left ? X : gradgen::transpose(X, -2, -1).contiguous();
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor, Tensor> _linalg_solve_ex(const Tensor& A, const Tensor& B,
                                                            bool left, bool check_errors) {
  decomp::check_square("linalg.solve", A, "A");
  decomp::check_floating("linalg.solve", B, "B");
  if (A.scalar_type() != B.scalar_type()) {
    throw std::runtime_error(std::string("linalg.solve: Expected A and B to have the same dtype, "
                                         "but found A of type ") +
                             to_string(A.scalar_type()) + " and B of type " +
                             to_string(B.scalar_type()) + " instead");
  }
  // A vector B is a column (n, 1) for left=False too, as PyTorch's: X A = B then asks n == 1.
  const bool vector = is_vector_rhs(A, B);
  auto [LU, pivots, info] = lu_factor_batch(A);
  if (check_errors)
    decomp::check_errors(info, "torch.linalg.solve_ex", A.dim() == 2, decomp::Failure::kSolve);
  const Tensor Bm = vector ? gradgen::unsqueeze(B.detach(), -1) : B.detach();
  Tensor X = solve_with_lu(A.detach(), Bm, left);
  if (vector) X = gradgen::squeeze(X, -1).contiguous();
  return {X, LU, pivots, info};
}

std::tuple<Tensor, Tensor> linalg_solve_ex(const Tensor& A, const Tensor& B, bool left,
                                           bool check_errors) {
  auto [result, LU, pivots, info] = gradgen::_linalg_solve_ex(A, B, left, check_errors);
  return {result, info};
}

std::tuple<Tensor&, Tensor&> linalg_solve_ex_out(const Tensor& A, const Tensor& B, bool left,
                                                 bool check_errors, Tensor& result, Tensor& info) {
  auto [x, i] = native::linalg_solve_ex(A, B, left, check_errors);
  write_out("linalg_solve_ex.out", x, result);
  write_out("linalg_solve_ex.out", i, info);
  return {result, info};
}

Tensor linalg_solve(const Tensor& A, const Tensor& B, bool left) {
  auto [result, LU, pivots, info] = gradgen::_linalg_solve_ex(A, B, left, false);
  decomp::check_errors(info, "torch.linalg.solve", A.dim() == 2, decomp::Failure::kSolve);
  return result;
}

Tensor& linalg_solve_out(const Tensor& A, const Tensor& B, bool left, Tensor& out) {
  return write_out("linalg_solve.out", native::linalg_solve(A, B, left), out);
}

std::tuple<Tensor, Tensor> linalg_inv_ex(const Tensor& A, bool check_errors) {
  decomp::check_square("linalg.inv", A, "A");
  auto [LU, pivots, info] = lu_factor_batch(A);
  if (check_errors)
    decomp::check_errors(info, "linalg.inv_ex", A.dim() == 2, decomp::Failure::kInverse);
  const int64_t n = A.size(-1);
  const std::vector<int64_t> batch = batch_shape(A, 2);
  Tensor inverse = zeros(A.sizes(), A.scalar_type());
  internal::dispatch_floating(A.scalar_type(), "linalg.inv", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t b = 0; b < count(batch); ++b) {
      T* x = inverse.data_ptr<T>() + b * n * n;
      for (int64_t i = 0; i < n; ++i) x[i * n + i] = T(1);
      getrs(LU.data_ptr<T>() + b * n * n, pivots.data_ptr<int64_t>() + b * n, n, x, n);
    }
  });
  return {inverse, info};
}

std::tuple<Tensor&, Tensor&> linalg_inv_ex_out(const Tensor& A, bool check_errors, Tensor& inverse,
                                               Tensor& info) {
  auto [x, i] = native::linalg_inv_ex(A, check_errors);
  write_out("linalg_inv_ex.inverse", x, inverse);
  write_out("linalg_inv_ex.inverse", i, info);
  return {inverse, info};
}

Tensor linalg_inv(const Tensor& A) {
  auto [inverse, info] = gradgen::linalg_inv_ex(A, false);
  decomp::check_errors(info, "linalg.inv", A.dim() == 2, decomp::Failure::kInverse);
  return inverse;
}

Tensor& linalg_inv_out(const Tensor& A, Tensor& out) {
  return write_out("linalg_inv.out", native::linalg_inv(A), out);
}

Tensor inverse(const Tensor& self) { return gradgen::linalg_inv(self); }

Tensor& inverse_out(const Tensor& self, Tensor& out) {
  return write_out("inverse.out", native::linalg_inv(self), out);
}

}  // namespace native
}  // namespace gradgen

namespace gradgen {
namespace native {

// ---------------------------------------------------------------------------------------------
// Cholesky
// ---------------------------------------------------------------------------------------------

namespace {

// LAPACK's potrf on the row-major n x n matrix a, lower: l (zeroed above the diagonal) with
// a = l l^T, read from a's lower triangle (transposed: its upper one). Returns info: 0, or the
// order of the first leading minor that is not positive-definite (l is then left part-done).
template <typename T>
int64_t potrf(const T* a, int64_t n, bool transposed, T* l) {
  auto at = [&](int64_t i, int64_t j) { return transposed ? a[j * n + i] : a[i * n + j]; };
  std::fill(l, l + n * n, T(0));
  for (int64_t j = 0; j < n; ++j) {
    T d = at(j, j);
    for (int64_t k = 0; k < j; ++k) d -= l[j * n + k] * l[j * n + k];
    if (!(d > T(0))) return j + 1;  // not positive (or NaN)
    const T root = std::sqrt(d);
    l[j * n + j] = root;
    for (int64_t i = j + 1; i < n; ++i) {
      T v = at(i, j);
      for (int64_t k = 0; k < j; ++k) v -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = v / root;
    }
  }
  return 0;
}

}  // namespace

std::tuple<Tensor, Tensor> linalg_cholesky_ex(const Tensor& self, bool upper, bool check_errors) {
  decomp::check_square("linalg.cholesky", self, "A");
  const int64_t n = self.size(-1);
  const std::vector<int64_t> batch = batch_shape(self, 2);
  const Tensor a = self.contiguous();
  Tensor L = empty(self.sizes(), self.scalar_type());
  Tensor info = zeros(batch, ScalarType::Long);
  internal::dispatch_floating(self.scalar_type(), "linalg.cholesky", [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> l(static_cast<size_t>(n * n));
    for (int64_t b = 0; b < count(batch); ++b) {
      info.data_ptr<int64_t>()[b] = potrf(a.data_ptr<T>() + b * n * n, n, upper, l.data());
      T* o = L.data_ptr<T>() + b * n * n;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) o[i * n + j] = upper ? l[j * n + i] : l[i * n + j];
      }
    }
  });
  if (check_errors) {
    decomp::check_errors(info, "linalg.cholesky_ex", self.dim() == 2, decomp::Failure::kCholesky);
  }
  return {L, info};
}

std::tuple<Tensor&, Tensor&> linalg_cholesky_ex_out(const Tensor& self, bool upper,
                                                    bool check_errors, Tensor& L, Tensor& info) {
  auto [l, i] = native::linalg_cholesky_ex(self, upper, check_errors);
  write_out("linalg_cholesky_ex.L", l, L);
  write_out("linalg_cholesky_ex.L", i, info);
  return {L, info};
}

Tensor linalg_cholesky(const Tensor& self, bool upper) {
  auto [L, info] = gradgen::linalg_cholesky_ex(self, upper, false);
  decomp::check_errors(info, "linalg.cholesky", self.dim() == 2, decomp::Failure::kCholesky);
  return L;
}

Tensor& linalg_cholesky_out(const Tensor& self, bool upper, Tensor& out) {
  return write_out("linalg_cholesky.out", native::linalg_cholesky(self, upper), out);
}

}  // namespace native
}  // namespace gradgen

namespace gradgen {
namespace native {

// ---------------------------------------------------------------------------------------------
// QR (Eigen's Householder QR, csrc/native/eigen/decomp_eigen.h)
// ---------------------------------------------------------------------------------------------

std::tuple<Tensor, Tensor> linalg_qr(const Tensor& A, std::string_view mode) {
  decomp::check_matrix("linalg.qr", A, "A");
  const bool complete = mode == "complete";
  const bool compute_q = mode != "r";
  if (!complete && compute_q && mode != "reduced") {
    throw std::runtime_error("qr received unrecognized mode '" + std::string(mode) +
                             "' but expected one of 'reduced' (default), 'r', or 'complete'");
  }
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  const int64_t rows = complete ? m : k;
  const std::vector<int64_t> batch = batch_shape(A, 2);
  const Tensor a = A.contiguous();
  Tensor Q =
      compute_q ? zeros(concat(batch, {m, rows}), A.scalar_type()) : empty({0}, A.scalar_type());
  Tensor R = zeros(concat(batch, {rows, n}), A.scalar_type());
  if (m == 0 || n == 0) {
    // No reflection: Q is the identity's first columns.
    if (compute_q)
      Q = gradgen::expand(gradgen::eye(m, rows, A.scalar_type()), Q.sizes()).contiguous();
    return {Q, R};
  }
  internal::dispatch_floating(A.scalar_type(), "linalg.qr", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t b = 0; b < count(batch); ++b) {
      eigen_decomp::qr(a.data_ptr<T>() + b * m * n, m, n, complete, compute_q,
                       compute_q ? Q.data_ptr<T>() + b * m * rows : nullptr,
                       R.data_ptr<T>() + b * rows * n);
    }
  });
  return {Q, R};
}

std::tuple<Tensor&, Tensor&> linalg_qr_out(const Tensor& A, std::string_view mode, Tensor& Q,
                                           Tensor& R) {
  auto [q, r] = native::linalg_qr(A, mode);
  write_out("linalg_qr.out", q, Q);
  write_out("linalg_qr.out", r, R);
  return {Q, R};
}

}  // namespace native
}  // namespace gradgen

namespace gradgen {
namespace native {

// ---------------------------------------------------------------------------------------------
// SVD (Eigen's Jacobi SVD, csrc/native/eigen/decomp_eigen.h)
// ---------------------------------------------------------------------------------------------

namespace {

void check_no_driver(const std::optional<std::string_view>& driver) {
  if (driver.has_value()) {
    throw std::runtime_error(
        "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
        "cuSOLVER backend.");
  }
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _linalg_svd(const Tensor& A, bool full_matrices, bool compute_uv,
                                               std::optional<std::string_view> driver) {
  decomp::check_matrix("linalg.svd", A, "A");
  check_no_driver(driver);
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  const int64_t ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
  const std::vector<int64_t> batch = batch_shape(A, 2);
  const Tensor a = A.contiguous();
  Tensor S = empty(concat(batch, {k}), A.scalar_type());
  if (!compute_uv) {
    Tensor none = empty({0}, A.scalar_type());
    internal::dispatch_floating(A.scalar_type(), "linalg.svd", [&](auto tag) {
      using T = decltype(tag);
      for (int64_t b = 0; b < count(batch) && k > 0; ++b) {
        eigen_decomp::svd(a.data_ptr<T>() + b * m * n, m, n, false, false, nullptr,
                          S.data_ptr<T>() + b * k, nullptr);
      }
    });
    return {none, S, empty({0}, A.scalar_type())};
  }
  // An empty matrix has no singular values; its full U / Vh are identities.
  Tensor U = internal::copy_contiguous(
      gradgen::expand(gradgen::eye(m, ucols, A.scalar_type()), concat(batch, {m, ucols})));
  Tensor Vh = internal::copy_contiguous(
      gradgen::expand(gradgen::eye(vrows, n, A.scalar_type()), concat(batch, {vrows, n})));
  if (k == 0) return {U, S, Vh};
  Tensor info = zeros(batch, ScalarType::Long);
  internal::dispatch_floating(A.scalar_type(), "linalg.svd", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t b = 0; b < count(batch); ++b) {
      const bool ok = eigen_decomp::svd(a.data_ptr<T>() + b * m * n, m, n, full_matrices, true,
                                        U.data_ptr<T>() + b * m * ucols, S.data_ptr<T>() + b * k,
                                        Vh.data_ptr<T>() + b * vrows * n);
      if (!ok) info.data_ptr<int64_t>()[b] = 1;
    }
  });
  decomp::check_errors(info, "linalg.svd", A.dim() == 2, decomp::Failure::kSvd);
  return {U, S, Vh};
}

std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& A, bool full_matrices,
                                              std::optional<std::string_view> driver) {
  return gradgen::_linalg_svd(A, full_matrices, true, driver);
}

std::tuple<Tensor&, Tensor&, Tensor&> linalg_svd_out(const Tensor& A, bool full_matrices,
                                                     std::optional<std::string_view> driver,
                                                     Tensor& U, Tensor& S, Tensor& Vh) {
  auto [u, s, vh] = native::linalg_svd(A, full_matrices, driver);
  write_out("linalg_svd.U", u, U);
  write_out("linalg_svd.U", s, S);
  write_out("linalg_svd.U", vh, Vh);
  return {U, S, Vh};
}

Tensor linalg_svdvals(const Tensor& A, std::optional<std::string_view> driver) {
  // U and Vh are computed too: S's gradient needs them (PyTorch computes them when a gradient
  // may be asked for).
  return std::get<1>(gradgen::_linalg_svd(A, false, true, driver));
}

Tensor& linalg_svdvals_out(const Tensor& A, std::optional<std::string_view> driver, Tensor& out) {
  return write_out("linalg_svdvals.out", native::linalg_svdvals(A, driver), out);
}

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& self, bool some, bool compute_uv) {
  auto [U, S, Vh] = gradgen::_linalg_svd(self, !some, true, std::nullopt);
  if (!compute_uv) {
    // torch.svd's U and V are then zero (m x m and n x n), and only S carries a gradient.
    const std::vector<int64_t> batch = batch_shape(self, 2);
    const int64_t m = self.size(-2), n = self.size(-1);
    return {zeros(concat(batch, {m, m}), self.scalar_type()), S,
            zeros(concat(batch, {n, n}), self.scalar_type())};
  }
  return {U, S, gradgen::transpose(Vh, -2, -1)};
}

std::tuple<Tensor&, Tensor&, Tensor&> svd_out(const Tensor& self, bool some, bool compute_uv,
                                              Tensor& U, Tensor& S, Tensor& V) {
  auto [u, s, v] = native::svd(self, some, compute_uv);
  write_out("svd.U", u, U);
  write_out("svd.U", s, S);
  write_out("svd.U", v, V);
  return {U, S, V};
}

}  // namespace native
}  // namespace gradgen

namespace gradgen {
namespace native {

// ---------------------------------------------------------------------------------------------
// eigh (Eigen's self-adjoint eigensolver, csrc/native/eigen/decomp_eigen.h)
// ---------------------------------------------------------------------------------------------

std::tuple<Tensor, Tensor> _linalg_eigh(const Tensor& A, std::string_view UPLO, bool compute_v) {
  decomp::check_square("linalg.eigh", A, "A");
  if (UPLO != "L" && UPLO != "U") {
    throw std::runtime_error("Expected UPLO argument to be 'L' or 'U', but got " +
                             std::string(UPLO));
  }
  const int64_t n = A.size(-1);
  const std::vector<int64_t> batch = batch_shape(A, 2);
  const Tensor a = A.contiguous();
  Tensor w = empty(concat(batch, {n}), A.scalar_type());
  Tensor v = compute_v ? empty(A.sizes(), A.scalar_type()) : empty({0}, A.scalar_type());
  Tensor info = zeros(batch, ScalarType::Long);
  internal::dispatch_floating(A.scalar_type(), "linalg.eigh", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t b = 0; b < count(batch) && n > 0; ++b) {
      const bool ok = eigen_decomp::eigh(a.data_ptr<T>() + b * n * n, n, UPLO == "U", compute_v,
                                         w.data_ptr<T>() + b * n,
                                         compute_v ? v.data_ptr<T>() + b * n * n : nullptr);
      if (!ok) info.data_ptr<int64_t>()[b] = 1;
    }
  });
  decomp::check_errors(info, "linalg.eigh", A.dim() == 2, decomp::Failure::kEig);
  return {w, v};
}

std::tuple<Tensor, Tensor> linalg_eigh(const Tensor& self, std::string_view UPLO) {
  return gradgen::_linalg_eigh(self, UPLO, true);
}

std::tuple<Tensor&, Tensor&> linalg_eigh_out(const Tensor& self, std::string_view UPLO,
                                             Tensor& eigvals, Tensor& eigvecs) {
  auto [w, v] = native::linalg_eigh(self, UPLO);
  write_out("linalg_eigh.eigvals", w, eigvals);
  write_out("linalg_eigh.eigvals", v, eigvecs);
  return {eigvals, eigvecs};
}

Tensor linalg_eigvalsh(const Tensor& self, std::string_view UPLO) {
  // The eigenvectors are computed too: the eigenvalues' gradient needs them (PyTorch computes
  // them when a gradient may be asked for).
  return std::get<0>(gradgen::_linalg_eigh(self, UPLO, true));
}

Tensor& linalg_eigvalsh_out(const Tensor& self, std::string_view UPLO, Tensor& out) {
  return write_out("linalg_eigvalsh.out", native::linalg_eigvalsh(self, UPLO), out);
}

}  // namespace native
}  // namespace gradgen
