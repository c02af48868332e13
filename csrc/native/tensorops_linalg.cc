// The tensor op library's products, third batch (issue 23): dot, vdot, mv, addmv, addmm,
// addbmm, baddbmm, trace and linalg_cross are kernels with PyTorch's formulas; outer, ger, kron,
// cross and tensordot are CompositeImplicitAutograd as in PyTorch (written with the
// differentiable API: calls qualified `gradgen::` reach the differentiable op).
//
// Every matrix product goes through native::mm (the one GEMM of gemm.h for Float and Double,
// its exact loop for Long) on views of the operands, so no operand is copied. The add* ops
// compute beta * self + alpha * product with self broadcast to the product's shape; beta = 0
// ignores self (its NaN and inf do not propagate), as PyTorch's. Shape errors name the op and
// the shapes, in PyTorch's words; a dim out of range is an IndexError (std::out_of_range).
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// A 2-D view [rows, cols] of t's storage with the given strides, from element `offset`.
Tensor matrix_view(const Tensor& t, int64_t rows, int64_t cols, int64_t row_stride,
                   int64_t col_stride, int64_t offset = 0) {
  return loops::make_view(t, {rows, cols}, {row_stride, col_stride}, t.storage_offset() + offset);
}

// The i-th matrix of a 3-D tensor, as a view.
Tensor batch_matrix(const Tensor& t, int64_t i) {
  return matrix_view(t, t.size(1), t.size(2), t.stride(1), t.stride(2), i * t.stride(0));
}

// beta * self + alpha * product, self broadcast to product's (contiguous) shape; beta = 0
// ignores self. A new tensor of product's shape and dtype; for integer tensors beta and alpha
// are truncated to integers, as PyTorch's (beta = 0.5 is 0).
// int32, int16, int8 and uint8 products computed in int64 and converted back (multiplication and
// addition modulo 2^bits agree): `fn` is the op on int64 operands. Operands of differing dtypes
// are refused first, as the op itself would.
template <typename F>
std::optional<Tensor> narrow_integer_product(const char* op, const Tensor& self, const Tensor& a,
                                             const Tensor& b, F&& fn) {
  const ScalarType t = a.scalar_type();
  if (t != ScalarType::Int && t != ScalarType::Short && t != ScalarType::Char &&
      t != ScalarType::Byte) {
    return std::nullopt;
  }
  loops::check_same_dtype(op, "self", self, "mat1", a);
  loops::check_same_dtype(op, "mat1", a, "mat2", b);
  const auto wide = [](const Tensor& x) { return cast(x, ScalarType::Long); };
  return cast(fn(wide(self), wide(a), wide(b)), t);
}

Tensor add_scaled(const char* op, const Tensor& self, const Tensor& product, const Scalar& beta,
                  const Scalar& alpha) {
  const IntArrayRef shape = product.sizes();
  if (!loops::broadcasts_to(self.sizes(), shape)) {
    throw std::runtime_error(std::string(op) + ": the expanded size of self " +
                             shape_str(self.sizes()) + " must match the product's shape " +
                             shape_str(shape));
  }
  loops::check_same_dtype(op, "self", self, "the product", product);
  Tensor result = empty(shape, product.scalar_type());
  if (result.numel() == 0) return result;
  const bool use_self = beta.to_double() != 0.0;
  const DimVector self_strides = loops::broadcast_strides(self.sizes(), self.strides(), shape);
  const DimVector out_strides = loops::contiguous_strides(shape);
  loops::dispatch_arithmetic(result.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T b = is_floating_type<T>::value ? T(beta.to_double()) : T(beta.to_long());
    const T a = is_floating_type<T>::value ? T(alpha.to_double()) : T(alpha.to_long());
    T* out = result.data_ptr<T>();
    const T* p = product.data_ptr<T>();
    const T* s = self.data_ptr<T>();
    internal::for_each_offset(shape, out_strides, self_strides, [&](int64_t o, int64_t i) {
      out[o] = use_self ? b * s[i] + a * p[o] : a * p[o];
    });
  });
  return result;
}

// Writes an in-place op's result into self, which must have the result's shape.
Tensor& write_self(const char* op, Tensor& self, const Tensor& result) {
  if (!result.sizes().equals(self.sizes())) {
    throw std::runtime_error(std::string(op) + ": output with shape " + shape_str(self.sizes()) +
                             " doesn't match the broadcast shape " + shape_str(result.sizes()));
  }
  internal::assert_no_internal_overlap(self, op);
  internal::copy_(self, result);  // bumps the version
  return self;
}

void check_vectors(const char* op, const Tensor& a, const Tensor& b) {
  if (a.dim() != 1 || b.dim() != 1) {
    throw std::runtime_error(std::string(op) + ": 1D tensors expected, but got " + str(a.dim()) +
                             "D and " + str(b.dim()) + "D tensors");
  }
  if (a.size(0) != b.size(0)) {
    throw std::runtime_error(std::string(op) + ": inconsistent tensor size, expected tensor [" +
                             str(a.size(0)) + "] and src [" + str(b.size(0)) +
                             "] to have the same number of elements, but got " + str(a.size(0)) +
                             " and " + str(b.size(0)) + " elements respectively");
  }
  if (a.scalar_type() != b.scalar_type()) {
    throw std::runtime_error(std::string(op) +
                             ": expected both vectors to have same dtype, but found " +
                             to_string(a.scalar_type()) + " and " + to_string(b.scalar_type()));
  }
}

// The product of two checked vectors, [1, k] @ [k, 1] through mm, as a 0-dim tensor.
Tensor vector_product(const Tensor& a, const Tensor& b) {
  const int64_t k = a.size(0);
  const Tensor m = native::mm(matrix_view(a, 1, k, k * a.stride(0), a.stride(0)),
                              matrix_view(b, k, 1, b.stride(0), 1));
  return loops::make_view(m, {}, {}, m.storage_offset());
}

// mat [n, k] @ vec [k] through mm, as a [n] tensor.
Tensor matrix_vector(const char* op, const Tensor& mat, const Tensor& vec, int64_t self_dim,
                     int64_t self_numel) {
  if (mat.dim() != 2 || vec.dim() != 1 || self_dim > 1) {
    throw std::runtime_error(std::string(op) + ": vector + matrix @ vector expected, got " +
                             str(self_dim) + ", " + str(mat.dim()) + ", " + str(vec.dim()));
  }
  if (mat.size(1) != vec.size(0) || (self_numel != mat.size(0) && self_numel != 1)) {
    throw std::runtime_error(std::string(op) + ": size mismatch, got input (" + str(self_numel) +
                             "), mat (" + str(mat.size(0)) + "x" + str(mat.size(1)) + "), vec (" +
                             str(vec.size(0)) + ")");
  }
  loops::check_same_dtype(op, "mat", mat, "vec", vec);
  const Tensor m = native::mm(mat, matrix_view(vec, vec.size(0), 1, vec.stride(0), 1));
  return loops::make_view(m, {mat.size(0)}, {1}, m.storage_offset());
}

void check_matrices(const char* op, const Tensor& mat1, const Tensor& mat2) {
  if (mat1.dim() != 2) {
    throw std::runtime_error(std::string(op) + ": mat1 must be a matrix, got " + str(mat1.dim()) +
                             "-D tensor");
  }
  if (mat2.dim() != 2) {
    throw std::runtime_error(std::string(op) + ": mat2 must be a matrix, got " + str(mat2.dim()) +
                             "-D tensor");
  }
  if (mat1.size(1) != mat2.size(0)) {
    throw std::runtime_error(std::string(op) + ": mat1 and mat2 shapes cannot be multiplied (" +
                             str(mat1.size(0)) + "x" + str(mat1.size(1)) + " and " +
                             str(mat2.size(0)) + "x" + str(mat2.size(1)) + ")");
  }
  loops::check_same_dtype(op, "mat1", mat1, "mat2", mat2);
}

void check_batches(const char* op, const Tensor& batch1, const Tensor& batch2) {
  for (const auto& [name, t] : {std::pair<const char*, const Tensor*>{"batch1", &batch1},
                                std::pair<const char*, const Tensor*>{"batch2", &batch2}}) {
    if (t->dim() != 3) {
      throw std::runtime_error(std::string(op) + ": " + name + " must be a 3D tensor, got " +
                               shape_str(t->sizes()));
    }
  }
  if (batch1.size(0) != batch2.size(0)) {
    throw std::runtime_error(std::string(op) +
                             ": batch1 and batch2 must have same number of batches, got " +
                             str(batch1.size(0)) + " and " + str(batch2.size(0)));
  }
  if (batch1.size(2) != batch2.size(1)) {
    throw std::runtime_error(std::string(op) + ": Incompatible matrix sizes for bmm (" +
                             str(batch1.size(1)) + "x" + str(batch1.size(2)) + " and " +
                             str(batch2.size(1)) + "x" + str(batch2.size(2)) + ")");
  }
  loops::check_same_dtype(op, "batch1", batch1, "batch2", batch2);
}

// The batch of products [b, n, m], each through mm.
Tensor batch_products(const Tensor& batch1, const Tensor& batch2) {
  const int64_t b = batch1.size(0), n = batch1.size(1), m = batch2.size(2);
  Tensor result = empty({b, n, m}, batch1.scalar_type());
  for (int64_t i = 0; i < b; ++i) {
    internal::copy_(batch_matrix(result, i),
                    native::mm(batch_matrix(batch1, i), batch_matrix(batch2, i)));
  }
  return result;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// dot, vdot, outer, ger (real dtypes only: vdot is dot, as PyTorch's for real tensors)
// ---------------------------------------------------------------------------------------------

Tensor dot(const Tensor& self, const Tensor& tensor) {
  check_vectors("dot", self, tensor);
  return vector_product(self, tensor);
}
Tensor& dot_out(const Tensor& self, const Tensor& tensor, Tensor& out) {
  return write_out("dot.out", native::dot(self, tensor), out);
}

Tensor vdot(const Tensor& self, const Tensor& other) {
  check_vectors("vdot", self, other);
  return vector_product(self, other);
}
Tensor& vdot_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("vdot.out", native::vdot(self, other), out);
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  for (const auto& [name, t] : {std::pair<const char*, const Tensor*>{"self", &self},
                                std::pair<const char*, const Tensor*>{"vec2", &vec2}}) {
    if (t->dim() != 1) {
      throw std::runtime_error(std::string("outer: Expected 1-D argument ") + name + ", but got " +
                               str(t->dim()) + "-D");
    }
  }
  return gradgen::mul(gradgen::reshape(self, std::vector<int64_t>{-1, 1}), vec2);
}
Tensor& outer_out(const Tensor& self, const Tensor& vec2, Tensor& out) {
  return write_out("outer.out", native::outer(self, vec2), out);
}

Tensor ger(const Tensor& self, const Tensor& vec2) { return gradgen::outer(self, vec2); }
Tensor& ger_out(const Tensor& self, const Tensor& vec2, Tensor& out) {
  return write_out("ger.out", native::outer(self, vec2), out);
}

// ---------------------------------------------------------------------------------------------
// mv, addmv, addmm, addbmm, baddbmm
// ---------------------------------------------------------------------------------------------

Tensor mv(const Tensor& self, const Tensor& vec) {
  return matrix_vector("mv", self, vec, 1, self.dim() == 2 ? self.size(0) : 1);
}
Tensor& mv_out(const Tensor& self, const Tensor& vec, Tensor& out) {
  return write_out("mv.out", native::mv(self, vec), out);
}

Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
             const Scalar& alpha) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(addmv, self, mat, vec, beta, alpha);
  if (auto r = narrow_integer_product("addmv", self, mat, vec,
                                      [&](const Tensor& s, const Tensor& x, const Tensor& y) {
                                        return native::addmv(s, x, y, beta, alpha);
                                      })) {
    return *r;
  }
  return add_scaled("addmv", self, matrix_vector("addmv", mat, vec, self.dim(), self.numel()), beta,
                    alpha);
}
Tensor& addmv_(Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
               const Scalar& alpha) {
  return write_self("addmv_", self, native::addmv(self, mat, vec, beta, alpha));
}
Tensor& addmv_out(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                  const Scalar& alpha, Tensor& out) {
  return write_out("addmv.out", native::addmv(self, mat, vec, beta, alpha), out);
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(addmm, self, mat1, mat2, beta, alpha);
  if (auto r = narrow_integer_product("addmm", self, mat1, mat2,
                                      [&](const Tensor& s, const Tensor& x, const Tensor& y) {
                                        return native::addmm(s, x, y, beta, alpha);
                                      })) {
    return *r;
  }
  check_matrices("addmm", mat1, mat2);
  return add_scaled("addmm", self, native::mm(mat1, mat2), beta, alpha);
}
Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
               const Scalar& alpha) {
  return write_self("addmm_", self, native::addmm(self, mat1, mat2, beta, alpha));
}
Tensor& addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                  const Scalar& alpha, Tensor& out) {
  return write_out("addmm.out", native::addmm(self, mat1, mat2, beta, alpha), out);
}

Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
              const Scalar& alpha) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(addbmm, self, batch1, batch2, beta, alpha);
  if (auto r = narrow_integer_product("addbmm", self, batch1, batch2,
                                      [&](const Tensor& s, const Tensor& x, const Tensor& y) {
                                        return native::addbmm(s, x, y, beta, alpha);
                                      })) {
    return *r;
  }
  check_batches("addbmm", batch1, batch2);
  const int64_t n = batch1.size(1), m = batch2.size(2);
  // The products summed over the batch, one mm per matrix (int64: the batch's products summed,
  // exact and wrapping).
  Tensor total;
  if (batch1.scalar_type() == ScalarType::Long) {
    const int64_t dims[] = {0};
    total = native::sum(native::bmm(batch1, batch2), IntArrayRef(dims, 1), false, std::nullopt);
  } else {
    total = zeros({n, m}, batch1.scalar_type());
    for (int64_t i = 0; i < batch1.size(0); ++i) {
      internal::add_(total, native::mm(batch_matrix(batch1, i), batch_matrix(batch2, i)));
    }
  }
  return add_scaled("addbmm", self, total, beta, alpha);
}
Tensor& addbmm_(Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                const Scalar& alpha) {
  return write_self("addbmm_", self, native::addbmm(self, batch1, batch2, beta, alpha));
}
Tensor& addbmm_out(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                   const Scalar& beta, const Scalar& alpha, Tensor& out) {
  return write_out("addbmm.out", native::addbmm(self, batch1, batch2, beta, alpha), out);
}

Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(baddbmm, self, batch1, batch2, beta, alpha);
  if (auto r = narrow_integer_product("baddbmm", self, batch1, batch2,
                                      [&](const Tensor& s, const Tensor& x, const Tensor& y) {
                                        return native::baddbmm(s, x, y, beta, alpha);
                                      })) {
    return *r;
  }
  check_batches("baddbmm", batch1, batch2);
  return add_scaled("baddbmm", self, batch_products(batch1, batch2), beta, alpha);
}
Tensor& baddbmm_(Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                 const Scalar& alpha) {
  return write_self("baddbmm_", self, native::baddbmm(self, batch1, batch2, beta, alpha));
}
Tensor& baddbmm_out(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                    const Scalar& beta, const Scalar& alpha, Tensor& out) {
  return write_out("baddbmm.out", native::baddbmm(self, batch1, batch2, beta, alpha), out);
}

// ---------------------------------------------------------------------------------------------
// kron, trace
// ---------------------------------------------------------------------------------------------

Tensor kron(const Tensor& self, const Tensor& other) {
  // Both operands with n dims (leading 1s added); self's dim i at position 2i and other's at
  // 2i + 1 of a 2n-dim product, whose pairs of dims then merge.
  const int64_t n = std::max(self.dim(), other.dim());
  std::vector<int64_t> a_shape(2 * n, 1), b_shape(2 * n, 1), shape(n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t ia = i - (n - self.dim()), ib = i - (n - other.dim());
    a_shape[2 * i] = ia >= 0 ? self.size(ia) : 1;
    b_shape[2 * i + 1] = ib >= 0 ? other.size(ib) : 1;
    shape[i] = a_shape[2 * i] * b_shape[2 * i + 1];
  }
  return gradgen::reshape(gradgen::mul(gradgen::reshape(self, a_shape),
                                       gradgen::reshape(other, b_shape)),
                          shape);
}
Tensor& kron_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("kron.out", native::kron(self, other), out);
}

Tensor trace(const Tensor& self) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(trace, self);
  if (self.dim() != 2) {
    throw std::runtime_error("trace: expected a matrix, but got tensor with dim " +
                             str(self.dim()));
  }
  if (self.scalar_type() == ScalarType::Bool) {
    throw std::runtime_error("trace: not implemented for 'Bool'");
  }
  const Tensor& x = self;
  const ScalarType dtype = self.scalar_type();
  Tensor result = empty({}, dtype);
  const int64_t k = std::min(x.size(0), x.size(1)), step = x.stride(0) + x.stride(1);
  loops::dispatch_arithmetic(dtype, "trace", [&](auto tag) {
    using T = decltype(tag);
    const T* p = x.data_ptr<T>();
    T total = 0;
    for (int64_t i = 0; i < k; ++i) total += p[i * step];
    *result.data_ptr<T>() = total;
  });
  return result;
}

// ---------------------------------------------------------------------------------------------
// linalg_cross, cross
// ---------------------------------------------------------------------------------------------

Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(linalg_cross, self, other, dim);
  const char* op = "linalg.cross";
  if (self.dim() != other.dim()) {
    throw std::runtime_error("linalg.cross: inputs must have the same number of dimensions.");
  }
  const int64_t d = loops::index_dim(dim, self.dim(), op);
  if (self.dim() == 0 || self.size(d) != 3 || other.size(d) != 3) {
    throw std::runtime_error("linalg.cross: inputs dimension " + str(dim) +
                             " must have length 3. Got " + str(self.dim() == 0 ? 1 : self.size(d)) +
                             " and " + str(other.dim() == 0 ? 1 : other.size(d)));
  }
  loops::check_same_dtype(op, "self", self, "other", other);
  const DimVector shape = loops::broadcast_shapes(op, self.sizes(), other.sizes());
  // Both operands broadcast and made contiguous: element (o, c, i) at (o * 3 + c) * inner + i.
  auto dense = [&](const Tensor& t) {
    return internal::copy_contiguous(
        internal::as_strided(t, shape, loops::broadcast_strides(t.sizes(), t.strides(), shape),
                             t.storage_offset()));
  };
  const Tensor a = dense(self), b = dense(other);
  Tensor result = empty(shape, self.scalar_type());
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < d; ++i) outer *= shape[i];
  for (int64_t i = d + 1; i < static_cast<int64_t>(shape.size()); ++i) inner *= shape[i];
  loops::dispatch_arithmetic(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* x = a.data_ptr<T>();
    const T* y = b.data_ptr<T>();
    T* out = result.data_ptr<T>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t e0 = o * 3 * inner + i, e1 = e0 + inner, e2 = e1 + inner;
        out[e0] = x[e1] * y[e2] - x[e2] * y[e1];
        out[e1] = x[e2] * y[e0] - x[e0] * y[e2];
        out[e2] = x[e0] * y[e1] - x[e1] * y[e0];
      }
    }
  });
  return result;
}
Tensor& linalg_cross_out(const Tensor& self, const Tensor& other, int64_t dim, Tensor& out) {
  return write_out("linalg_cross.out", native::linalg_cross(self, other, dim), out);
}

Tensor cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim) {
  if (dim.has_value()) return gradgen::linalg_cross(self, other, *dim);
  // PyTorch's deprecated default: the first dim of size 3.
  gradgen::internal::warn(
      "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
      "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
      "agree with that of linalg.cross in a future release.");
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (self.size(i) == 3) return gradgen::linalg_cross(self, other, i);
  }
  throw std::runtime_error("cross: no dimension of size 3 in input, got shape " +
                           shape_str(self.sizes()));
}
Tensor& cross_out(const Tensor& self, const Tensor& other, std::optional<int64_t> dim,
                  Tensor& out) {
  return write_out("cross.out", native::cross(self, other, dim), out);
}

// ---------------------------------------------------------------------------------------------
// tensordot
// ---------------------------------------------------------------------------------------------

namespace {

// The dims of `dims` wrapped, refusing repeats; `contracted[d]` marks them.
std::vector<int64_t> contracted_dims(const Tensor& t, IntArrayRef dims, std::vector<bool>& mark) {
  mark.assign(static_cast<size_t>(t.dim()), false);
  std::vector<int64_t> out;
  for (int64_t d : dims) {
    const int64_t w = loops::index_dim(d, t.dim(), "tensordot");
    if (mark[w]) {
      throw std::runtime_error("tensordot: dim " + str(w) +
                               " appears multiple times in the list of dims");
    }
    mark[w] = true;
    out.push_back(w);
  }
  return out;
}

}  // namespace

Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self,
                 IntArrayRef dims_other) {
  if (dims_self.size() != dims_other.size()) {
    throw std::runtime_error("tensordot: both dimension lists should have same length");
  }
  std::vector<bool> in_a, in_b;
  const std::vector<int64_t> ca = contracted_dims(self, dims_self, in_a);
  const std::vector<int64_t> cb = contracted_dims(other, dims_other, in_b);
  Tensor a = self, b = other;
  int64_t k = 1;
  for (size_t i = 0; i < ca.size(); ++i) {
    const int64_t sa = self.size(ca[i]), sb = other.size(cb[i]);
    if (sa != sb && sa != 1 && sb != 1) {
      throw std::runtime_error(
          "tensordot: contracted dimensions need to match, but first has "
          "size " +
          str(sa) + " in dim " + str(ca[i]) + " and second has size " + str(sb) + " in dim " +
          str(cb[i]));
    }
    // A size-1 dim against a longer one: the longer one summed first (PyTorch's broadcast).
    if (sa != sb && sa == 1) b = gradgen::sum(b, IntArrayRef({cb[i]}), true);
    if (sa != sb && sb == 1) a = gradgen::sum(a, IntArrayRef({ca[i]}), true);
    k *= std::min(sa, sb);
  }
  // self permuted to (free..., contracted...) as [p, k]; other to (contracted..., free...).
  std::vector<int64_t> perm_a, perm_b = cb, out_shape;
  int64_t p = 1, q = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (in_a[d]) continue;
    perm_a.push_back(d);
    out_shape.push_back(self.size(d));
    p *= self.size(d);
  }
  perm_a.insert(perm_a.end(), ca.begin(), ca.end());
  for (int64_t d = 0; d < other.dim(); ++d) {
    if (in_b[d]) continue;
    perm_b.push_back(d);
    out_shape.push_back(other.size(d));
    q *= other.size(d);
  }
  const Tensor lhs = gradgen::reshape(gradgen::permute(a, perm_a), std::vector<int64_t>{p, k});
  const Tensor rhs = gradgen::reshape(gradgen::permute(b, perm_b), std::vector<int64_t>{k, q});
  return gradgen::reshape(gradgen::mm(lhs, rhs), out_shape);
}
Tensor& tensordot_out(const Tensor& self, const Tensor& other, IntArrayRef dims_self,
                      IntArrayRef dims_other, Tensor& out) {
  return write_out("tensordot.out", native::tensordot(self, other, dims_self, dims_other), out);
}

}  // namespace native
}  // namespace gradgen
