// Kernels of the in-place and out= variants PyTorch has for ops gradgen declared out of place
// only (issue 23: "in-place variants where PyTorch has them, out= where PyTorch has one"):
// add_ / sub_ / div_ / pow_ / floor_divide_ with a number, pow_ with a tensor, the unary ops of
// the skeleton (neg_, log_, sqrt_, ...), the comparisons in place (eq_, lt_, ...), cumprod_,
// rsub, and the out= variants of the arithmetic, the unary ops, the reductions, matmul, bmm,
// cat, where, the index ops and randperm; copy_.
//
// Each one computes the out-of-place kernel's result and writes it: in place with write_inplace
// (the result must keep self's shape and cast to self's dtype: `x_int.sqrt_()` is refused as in
// PyTorch), out= with write_out (converted to out's dtype when can_cast allows, out resized with
// PyTorch's warning when it had elements). The generated wrappers do the rest: an in-place op
// refuses a leaf that requires grad, records the out-of-place op's formula and rebases the
// history (a view's base gets a CopySlices); an out= op refuses inputs that require grad.
#include <optional>
#include <stdexcept>
#include <string>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

// A number as the 0-dim tensor PyTorch makes of it (a "wrapped number"): of the dtype the op
// computes in with self, so that the Tensor kernel promotes as the Scalar one would.
Tensor wrapped(const Tensor& self, const Scalar& other) {
  return full({}, other, result_type(self, other));
}

// The dtype a reduction's out= variant computes in, as PyTorch: dtype= when given (out must then
// have it: PyTorch's "Expected out tensor to have dtype double, but got long int instead"), else
// out's own (sum(x_double, 1, out=long_tensor) sums the values converted to Long).
ScalarType out_dtype(const char* op, std::optional<ScalarType> dtype, const Tensor& out) {
  if (dtype && *dtype != out.scalar_type()) {
    throw std::runtime_error(std::string(op) + ": Expected out tensor to have dtype " +
                             to_string(*dtype) + ", but got " + to_string(out.scalar_type()) +
                             " instead");
  }
  return out.scalar_type();
}

// PyTorch's refusal of `-` with a bool operand (sub.Tensor's kernel says the same).
void check_sub_scalar(const char* op, const Tensor& self, const Scalar& other) {
  if (self.scalar_type() == ScalarType::Bool || other.kind() == Scalar::Kind::Bool) {
    throw std::invalid_argument(
        std::string(op) +
        ": Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
        "to invert a mask, use the `~` or `logical_not()` operator instead.");
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Arithmetic with a number, in place and out=
// ---------------------------------------------------------------------------------------------

Tensor& add_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return write_inplace("add_", self, add(self, other, alpha));
}

Tensor& add_out(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) {
  return write_out("add.Scalar_out", add(self, other, alpha), out);
}

Tensor& sub_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return write_out("sub.out", sub(self, other, alpha), out);
}

Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  check_sub_scalar("sub", self, other);
  return sub(self, wrapped(self, other), alpha);
}

Tensor& sub_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  check_sub_scalar("sub_", self, other);
  return write_inplace("sub_", self, sub(self, wrapped(self, other), alpha));
}

Tensor& sub_out(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) {
  check_sub_scalar("sub.Scalar_out", self, other);
  return write_out("sub.Scalar_out", sub(self, wrapped(self, other), alpha), out);
}

// other - alpha * self.
Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return sub(other, self, alpha);
}

Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  check_sub_scalar("rsub", self, other);
  return sub(wrapped(self, other), self, alpha);
}

Tensor& mul_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return write_out("mul.Scalar_out", mul(self, other), out);
}

Tensor& div_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("div.out", div(self, other), out);
}

Tensor& div_(Tensor& self, const Scalar& other) {
  return write_inplace("div_", self, div(self, other));
}

Tensor& div_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return write_out("div.Scalar_out", div(self, other), out);
}

Tensor& pow_(Tensor& self, const Scalar& exponent) {
  return write_inplace("pow_", self, pow(self, exponent));
}

Tensor& pow_(Tensor& self, const Tensor& exponent) {
  return write_inplace("pow_", self, pow(self, exponent));
}

Tensor& pow_out(const Tensor& self, const Scalar& exponent, Tensor& out) {
  return write_out("pow.Tensor_Scalar_out", pow(self, exponent), out);
}

Tensor& pow_out(const Tensor& self, const Tensor& exponent, Tensor& out) {
  return write_out("pow.Tensor_Tensor_out", pow(self, exponent), out);
}

// A number to a tensor's powers: the number as a zero-dim operand of the result type (PyTorch
// wraps it, and its kernel reads it in that type).
Tensor pow(const Scalar& self, const Tensor& exponent) {
  return pow(wrapped(exponent, self), exponent);
}

Tensor& pow_out(const Scalar& self, const Tensor& exponent, Tensor& out) {
  return write_out("pow.Scalar_out", pow(self, exponent), out);
}

Tensor remainder(const Scalar& self, const Tensor& other) {
  return remainder(wrapped(other, self), other);
}

Tensor& max_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("max.out", maximum(self, other), out);
}

Tensor& min_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("min.out", minimum(self, other), out);
}

Tensor& max_out(const Tensor& self, Tensor& out) {
  return write_out("max.unary_out", max(self), out);
}

Tensor& min_out(const Tensor& self, Tensor& out) {
  return write_out("min.unary_out", min(self), out);
}

Tensor& floor_divide_(Tensor& self, const Scalar& other) {
  return write_inplace("floor_divide_", self, floor_divide(self, other));
}

// ---------------------------------------------------------------------------------------------
// copy_: src broadcast to self's shape and converted to its dtype (PyTorch's copy_)
// ---------------------------------------------------------------------------------------------

Tensor& copy_(Tensor& self, const Tensor& src, bool /*non_blocking: one device*/) {
  const DimVector shape = loops::broadcast_shapes("copy_", self.sizes(), src.sizes());
  if (!IntArrayRef(shape).equals(self.sizes())) {
    throw std::invalid_argument("copy_: output with shape " + shape_str(self.sizes()) +
                                " doesn't match the broadcast shape " + shape_str(shape));
  }
  Tensor value = native::expand(cast(src, self.scalar_type()), self.sizes(), false);
  // src may be (a view of) self's own storage: read it before writing.
  if (value.unsafe_impl()->storage.get() == self.unsafe_impl()->storage.get()) {
    value = gradgen::internal::copy_contiguous(value);
  }
  gradgen::internal::assert_no_internal_overlap(self, "copy_");
  gradgen::internal::copy_(self, value);  // bumps the version
  return self;
}

// ---------------------------------------------------------------------------------------------
// Unary, in place and out=
// ---------------------------------------------------------------------------------------------

#define GRADGEN_INPLACE_OUT_UNARY(name)                                                \
  Tensor& name##_(Tensor& self) { return write_inplace(#name "_", self, name(self)); } \
  Tensor& name##_out(const Tensor& self, Tensor& out) {                                \
    return write_out(#name ".out", name(self), out);                                   \
  }

GRADGEN_INPLACE_OUT_UNARY(neg)
GRADGEN_INPLACE_OUT_UNARY(log)
GRADGEN_INPLACE_OUT_UNARY(tanh)
GRADGEN_INPLACE_OUT_UNARY(sigmoid)
GRADGEN_INPLACE_OUT_UNARY(sin)
GRADGEN_INPLACE_OUT_UNARY(cos)
GRADGEN_INPLACE_OUT_UNARY(sqrt)
GRADGEN_INPLACE_OUT_UNARY(abs)
GRADGEN_INPLACE_OUT_UNARY(sign)
GRADGEN_INPLACE_OUT_UNARY(reciprocal)

#undef GRADGEN_INPLACE_OUT_UNARY

Tensor& exp_out(const Tensor& self, Tensor& out) { return write_out("exp.out", exp(self), out); }

Tensor& clamp_out(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max,
                  Tensor& out) {
  const Tensor result = clamp(self, min, max);
  // As PyTorch's clamp.out: out must have the result's dtype (no conversion on write).
  if (out.scalar_type() != result.scalar_type()) {
    throw std::runtime_error(std::string("clamp.out: Found dtype ") + to_string(out.scalar_type()) +
                             " but expected " + to_string(result.scalar_type()));
  }
  return write_out("clamp.out", result, out);
}

// ---------------------------------------------------------------------------------------------
// The comparisons: out= and in place (0 / 1 in self's dtype)
// ---------------------------------------------------------------------------------------------

#define GRADGEN_COMPARISON_INPLACE_OUT(name)                                 \
  Tensor& name##_out(const Tensor& self, const Tensor& other, Tensor& out) { \
    return write_out(#name ".Tensor_out", name(self, other), out);           \
  }                                                                          \
  Tensor& name##_out(const Tensor& self, const Scalar& other, Tensor& out) { \
    return write_out(#name ".Scalar_out", name(self, other), out);           \
  }                                                                          \
  Tensor& name##_(Tensor& self, const Tensor& other) {                       \
    return write_inplace(#name "_", self, name(self, other));                \
  }                                                                          \
  Tensor& name##_(Tensor& self, const Scalar& other) {                       \
    return write_inplace(#name "_", self, name(self, other));                \
  }

GRADGEN_COMPARISON_INPLACE_OUT(eq)
GRADGEN_COMPARISON_INPLACE_OUT(ne)
GRADGEN_COMPARISON_INPLACE_OUT(lt)
GRADGEN_COMPARISON_INPLACE_OUT(le)
GRADGEN_COMPARISON_INPLACE_OUT(gt)
GRADGEN_COMPARISON_INPLACE_OUT(ge)

#undef GRADGEN_COMPARISON_INPLACE_OUT

// ---------------------------------------------------------------------------------------------
// Reductions, scans, products, cat, where, indexing, randperm: out= (and cumprod_)
// ---------------------------------------------------------------------------------------------

Tensor& sum_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                std::optional<ScalarType> dtype, Tensor& out) {
  const ScalarType d = out_dtype("sum.IntList_out", dtype, out);
  return write_out("sum.IntList_out", sum(self, dim, keepdim, d), out);
}

Tensor& mean_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                 std::optional<ScalarType> dtype, Tensor& out) {
  return write_out("mean.out", mean(self, dim, keepdim, dtype), out);
}

Tensor& prod_out(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype,
                 Tensor& out) {
  const ScalarType d = out_dtype("prod.int_out", dtype, out);
  return write_out("prod.int_out", prod(self, dim, keepdim, d), out);
}

Tensor& logsumexp_out(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out) {
  return write_out("logsumexp.out", logsumexp(self, dim, keepdim), out);
}

Tensor& cumprod_(Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return write_inplace("cumprod_", self, cumprod(self, dim, dtype.value_or(self.scalar_type())));
}

Tensor& cumprod_out(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out) {
  const ScalarType d = out_dtype("cumprod.out", dtype, out);
  return write_out("cumprod.out", cumprod(self, dim, d), out);
}

Tensor& bmm_out(const Tensor& self, const Tensor& mat2, Tensor& out) {
  return write_out("bmm.out", bmm(self, mat2), out);
}

Tensor& matmul_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("matmul.out", matmul(self, other), out);
}

Tensor& cat_out(TensorList tensors, int64_t dim, Tensor& out) {
  return write_out("cat.out", cat(tensors, dim), out);
}

Tensor& where_out(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor& out) {
  return write_out("where.self_out", where(condition, self, other), out);
}

Tensor& index_select_out(const Tensor& self, int64_t dim, const Tensor& index, Tensor& out) {
  return write_out("index_select.out", index_select(self, dim, index), out);
}

Tensor& gather_out(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad,
                   Tensor& out) {
  return write_out("gather.out", gather(self, dim, index, sparse_grad), out);
}

Tensor& index_add_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                      const Scalar& alpha, Tensor& out) {
  return write_out("index_add.out", index_add(self, dim, index, source, alpha), out);
}

Tensor& scatter_add_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                        Tensor& out) {
  return write_out("scatter_add.out", scatter_add(self, dim, index, src), out);
}

// A permutation of out's dtype, as PyTorch (randperm(4, out=float_tensor) gives floats).
Tensor& randperm_out(int64_t n, Tensor& out) {
  return write_out("randperm.out",
                   randperm(n, out.scalar_type(), std::nullopt, std::nullopt, std::nullopt), out);
}

}  // namespace native
}  // namespace gradgen
