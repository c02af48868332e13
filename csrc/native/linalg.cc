// Kernels for the linear-algebra ops of specs/native_functions.yaml: mm, lincomb.
//
// Kernels are plain functions on tensors: no autograd (the generated
// VariableType.cpp wraps them), float64 and float32, any strides. Shape errors
// name the op and every shape involved.
#include <Eigen/Core>

#include <stdexcept>
#include <string>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"

namespace gradgen {
namespace native {

namespace {

void check_same_dtype(const char* op, const char* name_a, const Tensor& a, const char* name_b,
                      const Tensor& b) {
  if (a.scalar_type() != b.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": expected " + name_a + " and " + name_b +
                                " to have the same dtype, got " + to_string(a.scalar_type()) +
                                " and " + to_string(b.scalar_type()));
  }
}

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) {
  if (self.dim() != 2 || mat2.dim() != 2 || self.size(1) != mat2.size(0)) {
    throw std::invalid_argument(
        "mm: expected self of shape [a, b] and mat2 of shape [b, c], got " +
        shape_str(self.sizes()) + " and " + shape_str(mat2.sizes()));
  }
  check_same_dtype("mm", "self", self, "mat2", mat2);
  const int64_t m = self.size(0), k = self.size(1), n = mat2.size(1);
  Tensor result = empty({m, n}, self.scalar_type());
  internal::dispatch_floating(self.scalar_type(), "mm", [&](auto tag) {
    using scalar_t = decltype(tag);
    using Matrix = Eigen::Matrix<scalar_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Strides = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;
    Eigen::Map<Matrix> out(result.data_ptr<scalar_t>(), m, n);
    if (self.is_contiguous() && mat2.is_contiguous()) {
      Eigen::Map<const Matrix> a(self.data_ptr<scalar_t>(), m, k);
      Eigen::Map<const Matrix> b(mat2.data_ptr<scalar_t>(), k, n);
      out.noalias() = a * b;
    } else {
      // Row-major maps: the outer stride steps between rows, the inner one within.
      Eigen::Map<const Matrix, Eigen::Unaligned, Strides> a(
          self.data_ptr<scalar_t>(), m, k, Strides(self.stride(0), self.stride(1)));
      Eigen::Map<const Matrix, Eigen::Unaligned, Strides> b(
          mat2.data_ptr<scalar_t>(), k, n, Strides(mat2.stride(0), mat2.stride(1)));
      out.noalias() = a * b;
    }
  });
  return result;
}

Tensor lincomb(TensorList tensors, const Tensor& coeffs) {
  if (tensors.empty()) throw std::invalid_argument("lincomb: expected a non-empty list of tensors");
  const int64_t n = static_cast<int64_t>(tensors.size());
  if (coeffs.dim() != 1 || coeffs.size(0) != n) {
    throw std::invalid_argument("lincomb: expected coeffs of shape [" + std::to_string(n) +
                                "] (one per tensor), got " + shape_str(coeffs.sizes()));
  }
  const Tensor& first = tensors[0];
  for (int64_t i = 0; i < n; ++i) {
    const Tensor& x = tensors[i];
    if (!x.sizes().equals(first.sizes())) {
      throw std::invalid_argument(
          "lincomb: expected all tensors to have the shape of tensors[0], " +
          shape_str(first.sizes()) + ", but tensors[" + std::to_string(i) + "] has shape " +
          shape_str(x.sizes()));
    }
    check_same_dtype("lincomb", "tensors", x, "coeffs", coeffs);
  }
  Tensor result = zeros(first.sizes(), first.scalar_type());
  internal::dispatch_floating(first.scalar_type(), "lincomb", [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* out = result.data_ptr<scalar_t>();
    const int64_t numel = result.numel();
    const Tensor c = coeffs.contiguous();
    const scalar_t* cp = c.data_ptr<scalar_t>();
    for (int64_t i = 0; i < n; ++i) {
      const Tensor x = tensors[i].contiguous();
      const scalar_t* xp = x.data_ptr<scalar_t>();
      const scalar_t ci = cp[i];
      for (int64_t j = 0; j < numel; ++j) out[j] += ci * xp[j];
    }
  });
  return result;
}

}  // namespace native
}  // namespace gradgen
