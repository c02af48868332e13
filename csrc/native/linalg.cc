// Kernels of the matrix products (mm, bmm; matmul and linear compose them) and
// the skeleton's lincomb.
//
// Matrix products go through the one GEMM interface (gemm.h) on our buffers, without
// copies for row-major and column-major (transposed) operands; other layouts are
// copied first. linear adds its bias inside the GEMM (beta = 1 on the broadcast
// bias), as PyTorch's addmm does. float64 and float32; shape errors name the op and
// every shape involved.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/gemm.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

// out (m x n, row-major, contiguous) = a (m x k) * b (k x n).
template <typename T>
void matmul_into(T* out, const MatrixRef<T>& a, const MatrixRef<T>& b) {
  gemm(a, b, T(0), out, b.cols);
}

// The same for int64: exact, wrapping on overflow as PyTorch's integer products do; a plain
// loop, no GEMM.
void integer_matmul_into(int64_t* result, const MatrixRef<int64_t>& a,
                         const MatrixRef<int64_t>& b) {
  auto* out = reinterpret_cast<uint64_t*>(result);
  const int64_t m = a.rows, k = a.cols, n = b.cols;
  std::fill(out, out + m * n, uint64_t{0});
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t p = 0; p < k; ++p) {
      const auto av = static_cast<uint64_t>(a.p[i * a.s0 + p * a.s1]);
      for (int64_t j = 0; j < n; ++j) {
        out[i * n + j] += av * static_cast<uint64_t>(b.p[p * b.s0 + j * b.s1]);
      }
    }
  }
}

// int32, int16, int8 and uint8 multiply and add modulo 2^bits: computing in int64 and
// converting back gives the same results as PyTorch's kernels in those types.
bool narrow_integer(ScalarType t) {
  return t == ScalarType::Int || t == ScalarType::Short || t == ScalarType::Char ||
         t == ScalarType::Byte;
}

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(mm, self, mat2);
  if (self.dim() != 2 || mat2.dim() != 2 || self.size(1) != mat2.size(0)) {
    throw std::invalid_argument("mm: expected self of shape [a, b] and mat2 of shape [b, c], got " +
                                shape_str(self.sizes()) + " and " + shape_str(mat2.sizes()));
  }
  loops::check_same_dtype("mm", "self", self, "mat2", mat2);
  if (narrow_integer(self.scalar_type())) {
    return cast(mm(cast(self, ScalarType::Long), cast(mat2, ScalarType::Long)), self.scalar_type());
  }
  const int64_t m = self.size(0), k = self.size(1), n = mat2.size(1);
  Tensor result = empty({m, n}, self.scalar_type());
  if (self.scalar_type() == ScalarType::Long) {
    integer_matmul_into(result.data_ptr<int64_t>(),
                        {self.data_ptr<int64_t>(), m, k, self.stride(0), self.stride(1)},
                        {mat2.data_ptr<int64_t>(), k, n, mat2.stride(0), mat2.stride(1)});
    return result;
  }
  internal::dispatch_floating(self.scalar_type(), "mm", [&](auto tag) {
    using T = decltype(tag);
    matmul_into<T>(result.data_ptr<T>(), {self.data_ptr<T>(), m, k, self.stride(0), self.stride(1)},
                   {mat2.data_ptr<T>(), k, n, mat2.stride(0), mat2.stride(1)});
  });
  return result;
}

// bmm's products per intra-op thread: at least this many multiply-adds each (gemm.cc splits
// single products from 2^20 on).
constexpr int64_t kBatchParallelMacs = int64_t(1) << 19;

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(bmm, self, mat2);
  if (self.dim() != 3 || mat2.dim() != 3 || self.size(0) != mat2.size(0) ||
      self.size(2) != mat2.size(1)) {
    throw std::invalid_argument(
        "bmm: expected self of shape [b, n, k] and mat2 of shape [b, k, m], got " +
        shape_str(self.sizes()) + " and " + shape_str(mat2.sizes()));
  }
  loops::check_same_dtype("bmm", "self", self, "mat2", mat2);
  if (narrow_integer(self.scalar_type())) {
    return cast(bmm(cast(self, ScalarType::Long), cast(mat2, ScalarType::Long)),
                self.scalar_type());
  }
  const int64_t b = self.size(0), n = self.size(1), k = self.size(2), m = mat2.size(2);
  Tensor result = empty({b, n, m}, self.scalar_type());
  if (self.scalar_type() == ScalarType::Long) {
    int64_t* out = result.data_ptr<int64_t>();
    const int64_t* a = self.data_ptr<int64_t>();
    const int64_t* c = mat2.data_ptr<int64_t>();
    for (int64_t i = 0; i < b; ++i) {
      integer_matmul_into(out + i * n * m,
                          {a + i * self.stride(0), n, k, self.stride(1), self.stride(2)},
                          {c + i * mat2.stride(0), k, m, mat2.stride(1), mat2.stride(2)});
    }
    return result;
  }
  internal::dispatch_floating(self.scalar_type(), "bmm", [&](auto tag) {
    using T = decltype(tag);
    T* out = result.data_ptr<T>();
    const T* a = self.data_ptr<T>();
    const T* c = mat2.data_ptr<T>();
    // Several products split across the intra-op threads, whole (the pool is taken: gemm()
    // inside runs each on its task's thread, as with one thread, so the split changes no bits);
    // one large product is split into panels by gemm() itself.
    const int64_t macs = std::max<int64_t>(n * m * k, 1);
    parallel_for(b, std::max<int64_t>(1, kBatchParallelMacs / macs), 1,
                 [&](int64_t i0, int64_t i1) {
                   for (int64_t i = i0; i < i1; ++i) {
                     matmul_into<T>(out + i * n * m,
                                    {a + i * self.stride(0), n, k, self.stride(1), self.stride(2)},
                                    {c + i * mat2.stride(0), k, m, mat2.stride(1), mat2.stride(2)});
                   }
                 });
  });
  return result;
}

Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(linear, input, weight, bias);
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
  // The leading dimensions' product (not numel / in, which is 0 without input features).
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < input.dim(); ++d) rows *= input.size(d);
  DimVector out_sizes(input.sizes().begin(), input.sizes().end());
  out_sizes.back() = out_features;
  Tensor result = empty(out_sizes, input.scalar_type());
  // A 2-D input is read with its strides (a transposed one too); others are flattened to
  // [rows, in], which needs a copy only when they are not contiguous.
  const Tensor x = input.dim() == 2 ? input : input.contiguous();
  const int64_t xs0 = input.dim() == 2 ? x.stride(0) : in, xs1 = input.dim() == 2 ? x.stride(1) : 1;
  internal::dispatch_floating(input.scalar_type(), "linear", [&](auto tag) {
    using T = decltype(tag);
    T* out = result.data_ptr<T>();
    T beta = 0;
    if (has_bias && rows > 0) {
      // The bias broadcast into every row of the result, which the GEMM then adds to.
      const T* pb = bias->data_ptr<T>();
      const int64_t sb = bias->stride(0);
      for (int64_t j = 0; j < out_features; ++j) out[j] = pb[j * sb];
      // The other rows, split across the intra-op threads when large.
      const int64_t grain =
          std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(out_features, 1));
      parallel_for(rows - 1, grain, 1, [=](int64_t begin, int64_t end) {
        for (int64_t r = begin + 1; r < end + 1; ++r) {
          std::copy(out, out + out_features, out + r * out_features);
        }
      });
      beta = 1;
    }
    // [rows, in] @ weight^T: weight read with swapped strides (a column-major operand).
    gemm(MatrixRef<T>{x.data_ptr<T>(), rows, in, xs0, xs1},
         MatrixRef<T>{weight.data_ptr<T>(), in, out_features, weight.stride(1), weight.stride(0)},
         beta, out, out_features);
  });
  return result;
}

Tensor& mm_out(const Tensor& self, const Tensor& mat2, Tensor& out) {
  // Cast on write, resized like PyTorch's out= (silently when empty, else with its warning).
  return write_out("mm.out", mm(self, mat2), out);
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
