// linalg_vector_norm, fourth batch (issue 23): norm.ScalarOpt_dim's kernel (distance.cc) over dim
// (None: every element), on self cast to dtype= when given (a floating dtype, no narrower than
// self's, as PyTorch's).
#include <optional>
#include <stdexcept>
#include <string>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord, OptionalIntArrayRef dim,
                          bool keepdim, std::optional<ScalarType> dtype) {
  if (dtype.has_value() && !is_floating_point(*dtype)) {
    throw std::runtime_error("linalg.vector_norm: dtype should be floating point or complex. Got " +
                             std::string(to_string(*dtype)));
  }
  if (dtype.has_value() && self.scalar_type() == ScalarType::Double &&
      *dtype == ScalarType::Float) {
    throw std::runtime_error(
        "linalg.vector_norm: the dtype of the input (Double) should be convertible without "
        "narrowing to the specified dtype (Float)");
  }
  const Tensor x = dtype.has_value() && *dtype != self.scalar_type() ? cast(self, *dtype) : self;
  const IntArrayRef dims = dim.has_value() ? *dim : IntArrayRef();
  return native::norm(x, std::optional<Scalar>(ord), dims, keepdim);
}

Tensor& linalg_vector_norm_out(const Tensor& self, const Scalar& ord, OptionalIntArrayRef dim,
                               bool keepdim, std::optional<ScalarType> dtype, Tensor& out) {
  return write_out("linalg_vector_norm.out",
                   native::linalg_vector_norm(self, ord, dim, keepdim, dtype), out);
}

namespace {

// self in dtype, refusing a narrowing one (Double to Float), as PyTorch's.
Tensor in_norm_dtype(const char* op, const Tensor& self, ScalarType dtype) {
  if (!is_floating_point(dtype)) {
    throw std::runtime_error(std::string(op) + ": dtype should be floating point or complex. Got " +
                             std::string(to_string(dtype)));
  }
  if (self.scalar_type() == ScalarType::Double && dtype == ScalarType::Float) {
    throw std::runtime_error(std::string(op) +
                             ": the dtype of the input (Double) should be convertible without "
                             "narrowing to the specified dtype (Float)");
  }
  return dtype == self.scalar_type() ? self : cast(self, dtype);
}

}  // namespace

Tensor norm(const Tensor& self, const Scalar& p) {
  return native::norm(self, std::optional<Scalar>(p), IntArrayRef(), false);
}
Tensor norm(const Tensor& self, std::optional<Scalar> p, ScalarType dtype) {
  return native::norm(in_norm_dtype("linalg.vector_norm", self, dtype), p, IntArrayRef(), false);
}
Tensor norm(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim, bool keepdim,
            ScalarType dtype) {
  return native::norm(in_norm_dtype("linalg.vector_norm", self, dtype), p, dim, keepdim);
}

Tensor& norm_out(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim, bool keepdim,
                 ScalarType dtype, Tensor& out) {
  return write_out("norm.dtype_out", native::norm(self, p, dim, keepdim, dtype), out);
}
Tensor& norm_out(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim, bool keepdim,
                 Tensor& out) {
  return write_out("norm.out", native::norm(self, p, dim, keepdim), out);
}

}  // namespace native
}  // namespace gradgen
