// Products (issue 23, "Linear algebra", step 4): addr (a kernel with PyTorch's formula entry),
// chain_matmul and linalg_multi_dot (CompositeImplicitAutograd as in PyTorch: mm calls in the
// cheapest order of PyTorch's matrix-chain rule, whose gradients they get), and cdist
// (CompositeImplicitAutograd: PyTorch's matmul path for p = 2, linalg_vector_norm otherwise).
#include <limits>
#include <optional>
#include <utility>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

// ---------------------------------------------------------------------------------------------
// addr: beta * self + alpha * outer(vec1, vec2)
// ---------------------------------------------------------------------------------------------

Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta,
            const Scalar& alpha) {
  for (const auto& [name, t] : {std::pair<const char*, const Tensor*>{"vec1", &vec1},
                                std::pair<const char*, const Tensor*>{"vec2", &vec2}}) {
    if (t->dim() != 1) {
      throw std::runtime_error(std::string("addr: Expected 1-D argument ") + name + ", but got " +
                               std::to_string(t->dim()) + "-D");
    }
  }
  loops::check_same_dtype("addr", "vec1", vec1, "vec2", vec2);
  loops::check_same_dtype("addr", "self", self, "vec1", vec1);
  const int64_t n = vec1.size(0), m = vec2.size(0);
  const std::vector<int64_t> shape{n, m};
  if (!loops::broadcasts_to(self.sizes(), shape)) {
    throw std::runtime_error("addr: the expanded size of self " + shape_str(self.sizes()) +
                             " must match the outer product's shape " + shape_str(shape));
  }
  if (const auto reduced = reduced_float_dtype(self, vec1, vec2)) {
    // As PyTorch's CPU kernel: the products vec1[i] * vec2[j] rounded to the 16-bit dtype, then
    // beta * self + alpha * product in float32, rounded once (self unread when beta is 0).
    const Tensor product = in_float32(
        *reduced, [](const Tensor& x, const Tensor& y) { return native::outer(x, y); }, vec1, vec2);
    const bool use_self = beta.to_double() != 0.0;
    return in_float32(
        *reduced,
        [&](const Tensor& s, const Tensor& p) {
          const Tensor scaled = native::mul(p, alpha);
          return use_self ? native::add(native::mul(s, beta), scaled, 1) : scaled;
        },
        self, product);
  }
  Tensor result = empty(shape, vec1.scalar_type());
  if (result.numel() == 0) return result;
  // beta = 0: self is not read (its NaN and inf do not propagate), as PyTorch's.
  const bool use_self = beta.to_double() != 0.0;
  const DimVector ss = loops::broadcast_strides(self.sizes(), self.strides(), shape);
  loops::dispatch_arithmetic(result.scalar_type(), "addr", [&](auto tag) {
    using T = decltype(tag);
    const T b = is_floating_type<T>::value ? T(beta.to_double()) : T(beta.to_long());
    const T a = is_floating_type<T>::value ? T(alpha.to_double()) : T(alpha.to_long());
    T* out = result.data_ptr<T>();
    const T* s = self.data_ptr<T>();
    const T* x = vec1.data_ptr<T>();
    const T* y = vec2.data_ptr<T>();
    const int64_t xs = vec1.stride(0), ys = vec2.stride(0);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < m; ++j) {
        const T product = a * x[i * xs] * y[j * ys];
        out[i * m + j] = use_self ? b * s[i * ss[0] + j * ss[1]] + product : product;
      }
    }
  });
  return result;
}

Tensor& addr_(Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta,
              const Scalar& alpha) {
  const Tensor result = native::addr(self, vec1, vec2, beta, alpha);
  if (!result.sizes().equals(self.sizes())) {
    throw std::runtime_error("addr_: output with shape " + shape_str(self.sizes()) +
                             " doesn't match the broadcast shape " + shape_str(result.sizes()));
  }
  internal::assert_no_internal_overlap(self, "addr_");
  internal::copy_(self, result);  // bumps the version
  return self;
}

Tensor& addr_out(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta,
                 const Scalar& alpha, Tensor& out) {
  return write_out("addr.out", native::addr(self, vec1, vec2, beta, alpha), out);
}

// ---------------------------------------------------------------------------------------------
// linalg_multi_dot, chain_matmul
// ---------------------------------------------------------------------------------------------

namespace {

// mm of the chain ms[i..j] in the order PyTorch's matrix-chain rule picks (the fewest scalar
// multiplications; ties to the first split), from the table `split`.
Tensor chain(const std::vector<Tensor>& ms, const std::vector<std::vector<size_t>>& split, size_t i,
             size_t j) {
  if (i == j) return ms[i];
  const size_t k = split[i][j];
  return gradgen::mm(chain(ms, split, i, k), chain(ms, split, k + 1, j));
}

Tensor multi_dot(TensorList tensors, const char* op) {
  const size_t n = tensors.size();
  if (n < 2) {
    throw std::runtime_error(std::string(op) + "(): expected at least 2 tensors but got " +
                             std::to_string(n));
  }
  const int64_t first_dim = tensors[0].dim(), last_dim = tensors[n - 1].dim();
  if (first_dim != 1 && first_dim != 2) {
    throw std::runtime_error(std::string(op) + "(): the first tensor must be 1D or 2D but got " +
                             std::to_string(first_dim) + "D");
  }
  if (last_dim != 1 && last_dim != 2) {
    throw std::runtime_error(std::string(op) + "(): the last tensor must be 1D or 2D but got " +
                             std::to_string(last_dim) + "D");
  }
  for (size_t i = 1; i + 1 < n; ++i) {
    if (tensors[i].dim() != 2) {
      throw std::runtime_error(std::string(op) + "(): tensor " + std::to_string(i) +
                               " must be 2D but got " + std::to_string(tensors[i].dim()) + "D");
    }
  }
  for (size_t i = 1; i < n; ++i) {
    if (tensors[i].scalar_type() != tensors[0].scalar_type()) {
      throw std::runtime_error(std::string(op) +
                               "(): all tensors must have be the same dtype but tensor 0 is " +
                               to_string(tensors[0].scalar_type()) + " and tensor " +
                               std::to_string(i) + " " + to_string(tensors[i].scalar_type()));
    }
  }
  // The first as a row, the last as a column; the result squeezed back.
  std::vector<Tensor> ms(tensors.begin(), tensors.end());
  if (first_dim == 1) ms[0] = gradgen::unsqueeze(ms[0], 0);
  if (last_dim == 1) ms[n - 1] = gradgen::unsqueeze(ms[n - 1], 1);
  for (size_t i = 1; i < n; ++i) {
    if (ms[i - 1].size(1) != ms[i].size(0)) {
      throw std::runtime_error(std::string(op) + "(): tensors " + std::to_string(i - 1) + " and " +
                               std::to_string(i) + " with shapes " +
                               shape_str(tensors[i - 1].sizes()) + " and " +
                               shape_str(tensors[i].sizes()) + " cannot be multiplied");
    }
  }
  // Matrix-chain order: p[i] x p[i + 1] is ms[i]'s shape.
  std::vector<int64_t> p;
  for (const Tensor& m : ms) p.push_back(m.size(0));
  p.push_back(ms[n - 1].size(1));
  std::vector<std::vector<int64_t>> cost(n, std::vector<int64_t>(n, 0));
  std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
  for (size_t len = 1; len < n; ++len) {
    for (size_t i = 0; i + len < n; ++i) {
      const size_t j = i + len;
      cost[i][j] = std::numeric_limits<int64_t>::max();
      for (size_t k = i; k < j; ++k) {
        const int64_t c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
        if (c < cost[i][j]) {
          cost[i][j] = c;
          split[i][j] = k;
        }
      }
    }
  }
  Tensor result = chain(ms, split, 0, n - 1);
  if (first_dim == 1 && last_dim == 1) return gradgen::reshape(result, std::vector<int64_t>{});
  if (first_dim == 1) return gradgen::squeeze(result, int64_t{0});
  if (last_dim == 1) return gradgen::squeeze(result, int64_t{1});
  return result;
}

}  // namespace

Tensor linalg_multi_dot(TensorList tensors) { return multi_dot(tensors, "multi_dot"); }

Tensor& linalg_multi_dot_out(TensorList tensors, Tensor& out) {
  return write_out("linalg_multi_dot.out", native::linalg_multi_dot(tensors), out);
}

Tensor chain_matmul(TensorList matrices) {
  if (matrices.empty()) throw std::runtime_error("chain_matmul(): Expected one or more matrices");
  for (const Tensor& m : matrices) {
    if (m.dim() != 2) {
      throw std::runtime_error("chain_matmul(): Tensor dimension is " + std::to_string(m.dim()) +
                               ", expected 2 instead.");
    }
  }
  if (matrices.size() == 1) return gradgen::clone(matrices[0]);
  return multi_dot(matrices, "chain_matmul");
}

Tensor& chain_matmul_out(TensorList matrices, Tensor& out) {
  return write_out("chain_matmul.out", native::chain_matmul(matrices), out);
}

// ---------------------------------------------------------------------------------------------
// cdist
// ---------------------------------------------------------------------------------------------

Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  for (const auto& [name, t] : {std::pair<const char*, const Tensor*>{"X1", &x1},
                                std::pair<const char*, const Tensor*>{"X2", &x2}}) {
    if (t->dim() < 2) {
      throw std::runtime_error(std::string("cdist only supports at least 2D tensors, ") + name +
                               " got: " + std::to_string(t->dim()) + "D");
    }
    if (!is_floating_point(t->scalar_type())) {
      throw std::runtime_error(std::string("cdist only supports floating-point dtypes, ") + name +
                               " got: " + to_string(t->scalar_type()));
    }
  }
  const int64_t c = x1.size(-1);
  if (c != x2.size(-1)) {
    throw std::runtime_error("X1 and X2 must have the same number of columns. X1: " +
                             std::to_string(c) + " X2: " + std::to_string(x2.size(-1)));
  }
  if (!(p >= 0)) throw std::runtime_error("cdist only supports non-negative p values");
  refuse_reduced_float("cdist", x1);  // PyTorch 2.13's CPU cdist has no 16-bit instance
  const int64_t mode = compute_mode.value_or(0);
  if (mode < 0 || mode > 2) {
    throw std::runtime_error("cdist: " + std::to_string(mode) +
                             " is not a valid value for compute_mode (0, 1 or 2)");
  }
  loops::check_same_dtype("cdist", "x1", x1, "x2", x2);
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2);
  // Batch dims broadcast.
  const IntArrayRef b1(x1.sizes().data(), static_cast<size_t>(x1.dim() - 2));
  const IntArrayRef b2(x2.sizes().data(), static_cast<size_t>(x2.dim() - 2));
  const DimVector batch = loops::broadcast_shapes("cdist", b1, b2);
  std::vector<int64_t> s1(batch.begin(), batch.end()), s2(batch.begin(), batch.end());
  s1.insert(s1.end(), {r1, c});
  s2.insert(s2.end(), {r2, c});
  const Tensor a = gradgen::expand(x1, s1), b = gradgen::expand(x2, s2);
  const bool empty = r1 == 0 || r2 == 0 || c == 0;
  if (!empty && p == 2.0 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)))) {
    // PyTorch's _euclidean_dist: [-2a, |a|^2, 1] . [b, 1, |b|^2] in one matmul.
    const std::vector<int64_t> last{-1};
    const Tensor an = gradgen::sum(gradgen::pow(a, 2), IntArrayRef(last), true);
    const Tensor bn = gradgen::sum(gradgen::pow(b, 2), IntArrayRef(last), true);
    const Tensor a_ = gradgen::cat({gradgen::mul(a, -2), an, gradgen::ones_like(an)}, -1);
    const Tensor b_ = gradgen::cat({b, gradgen::ones_like(bn), bn}, -1);
    const Tensor squared = gradgen::matmul(a_, gradgen::transpose(b_, -1, -2));
    return gradgen::sqrt(gradgen::clamp_min(squared, 1e-30));
  }
  const Tensor diff = gradgen::sub(gradgen::unsqueeze(a, -2), gradgen::unsqueeze(b, -3));
  // No columns: zeros (as PyTorch's), still connected to the inputs.
  if (c == 0) return gradgen::sum(diff, IntArrayRef(std::vector<int64_t>{-1}), false);
  return gradgen::linalg_vector_norm(diff, p, IntArrayRef(std::vector<int64_t>{-1}), false);
}

}  // namespace native
}  // namespace gradgen
