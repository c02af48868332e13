// Kernels of the matrix products (mm, bmm; matmul and linear compose them) and
// the skeleton's lincomb.
//
// Matrix products go through Eigen (a tuned single-threaded GEMM, vectorized for
// the CPU: csrc/native/simd/vectorized.h) on maps of our buffers, without copies
// for row-major and column-major (transposed) operands; other layouts are copied
// first. Tiny products (the 1x1 chains of benchmarks) skip Eigen's dispatch for a
// plain loop. float64 and float32; shape errors name
// the op and every shape involved.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"
#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {

namespace {

using vec::MatrixRef;

// out (m x n, row-major, contiguous) = a (m x k) * b (k x n).
template <typename T>
void matmul_into(T* out, const MatrixRef<T>& a, const MatrixRef<T>& b) {
  const int64_t m = a.rows, k = a.cols, n = b.cols;
  if (m * n * k <= 64) {
    // Tiny: a plain loop beats Eigen's size dispatch.
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        T acc = 0;
        for (int64_t l = 0; l < k; ++l) acc += a.p[i * a.s0 + l * a.s1] * b.p[l * b.s0 + j * b.s1];
        out[i * n + j] = acc;
      }
    }
    return;
  }
  vec::gemm(out, a, b);
}

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) {
  if (self.dim() != 2 || mat2.dim() != 2 || self.size(1) != mat2.size(0)) {
    throw std::invalid_argument("mm: expected self of shape [a, b] and mat2 of shape [b, c], got " +
                                shape_str(self.sizes()) + " and " + shape_str(mat2.sizes()));
  }
  loops::check_same_dtype("mm", "self", self, "mat2", mat2);
  const int64_t m = self.size(0), k = self.size(1), n = mat2.size(1);
  Tensor result = empty({m, n}, self.scalar_type());
  internal::dispatch_floating(self.scalar_type(), "mm", [&](auto tag) {
    using T = decltype(tag);
    matmul_into<T>(result.data_ptr<T>(), {self.data_ptr<T>(), m, k, self.stride(0), self.stride(1)},
                   {mat2.data_ptr<T>(), k, n, mat2.stride(0), mat2.stride(1)});
  });
  return result;
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  if (self.dim() != 3 || mat2.dim() != 3 || self.size(0) != mat2.size(0) ||
      self.size(2) != mat2.size(1)) {
    throw std::invalid_argument(
        "bmm: expected self of shape [b, n, k] and mat2 of shape [b, k, m], got " +
        shape_str(self.sizes()) + " and " + shape_str(mat2.sizes()));
  }
  loops::check_same_dtype("bmm", "self", self, "mat2", mat2);
  const int64_t b = self.size(0), n = self.size(1), k = self.size(2), m = mat2.size(2);
  Tensor result = empty({b, n, m}, self.scalar_type());
  internal::dispatch_floating(self.scalar_type(), "bmm", [&](auto tag) {
    using T = decltype(tag);
    T* out = result.data_ptr<T>();
    const T* a = self.data_ptr<T>();
    const T* c = mat2.data_ptr<T>();
    for (int64_t i = 0; i < b; ++i) {
      matmul_into<T>(out + i * n * m,
                     {a + i * self.stride(0), n, k, self.stride(1), self.stride(2)},
                     {c + i * mat2.stride(0), k, m, mat2.stride(1), mat2.stride(2)});
    }
  });
  return result;
}

Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  const bool has_bias = bias.has_value() && bias->defined();
  if (input.dim() < 1 || weight.dim() != 2 || input.size(-1) != weight.size(1) ||
      (has_bias && (bias->dim() != 1 || bias->size(0) != weight.size(0)))) {
    throw std::invalid_argument(
        "linear: expected input of shape [..., in], weight of shape [out, in] and bias of "
        "shape [out], got " +
        shape_str(input.sizes()) + ", " + shape_str(weight.sizes()) + " and " +
        (has_bias ? shape_str(bias->sizes()) : std::string("None")));
  }
  loops::check_same_dtype("linear", "input", input, "weight", weight);
  if (has_bias) loops::check_same_dtype("linear", "input", input, "bias", *bias);
  const int64_t in = weight.size(1), out_features = weight.size(0);
  const int64_t rows = input.numel() / std::max<int64_t>(in, 1);
  DimVector out_sizes(input.sizes().begin(), input.sizes().end());
  out_sizes.back() = out_features;
  Tensor result = empty(out_sizes, input.scalar_type());
  const Tensor x = input.contiguous();
  internal::dispatch_floating(input.scalar_type(), "linear", [&](auto tag) {
    using T = decltype(tag);
    T* out = result.data_ptr<T>();
    // [rows, in] @ weight^T: weight read with swapped strides (a column-major map).
    matmul_into<T>(out, {x.data_ptr<T>(), rows, in, in, 1},
                   {weight.data_ptr<T>(), in, out_features, weight.stride(1), weight.stride(0)});
    if (has_bias) {
      const T* pb = bias->data_ptr<T>();
      const int64_t sb = bias->stride(0);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t j = 0; j < out_features; ++j) out[r * out_features + j] += pb[j * sb];
      }
    }
  });
  return result;
}

Tensor& mm_out(const Tensor& self, const Tensor& mat2, Tensor& out) {
  Tensor result = mm(self, mat2);
  if (!out.sizes().equals(result.sizes()) || out.scalar_type() != result.scalar_type()) {
    throw std::invalid_argument("mm.out: expected out of shape " + shape_str(result.sizes()) +
                                " and dtype " + to_string(result.scalar_type()) + ", got shape " +
                                shape_str(out.sizes()) + " and dtype " +
                                to_string(out.scalar_type()));
  }
  internal::copy_(out, result);
  return out;
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
    loops::check_same_dtype("lincomb", "tensors", x, "coeffs", coeffs);
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
