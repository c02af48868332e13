// Formula helpers of linalg_vector_norm, fourth batch (issue 23): PyTorch's
// linalg_vector_norm_backward / _jvp over norm.ScalarOpt_dim's norm_backward / norm_jvp
// (formulas_distance.h), dim None being every dim. With dtype= the result's dtype may differ from
// self's: self is taken in the result's dtype and the gradient given back in self's.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "csrc/autograd/formulas_distance.h"
#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// norm_backward / norm_jvp over every element (norm.Scalar's and norm.ScalarOpt_dtype's entries).
inline Tensor norm_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& p,
                            const Tensor& norm) {
  return norm_backward(grad, self, p, norm, IntArrayRef(), false);
}
inline Tensor norm_jvp(const Tensor& self_p, const Tensor& self_t, const std::optional<Scalar>& p,
                       const Tensor& norm) {
  return norm_jvp(self_p, self_t, p, norm, IntArrayRef(), false);
}

inline std::vector<int64_t> vector_norm_dims(OptionalIntArrayRef dim) {
  if (!dim.has_value()) return {};
  return std::vector<int64_t>(dim->begin(), dim->end());
}

inline Tensor linalg_vector_norm_backward(const Tensor& grad, const Tensor& self, const Scalar& ord,
                                          const Tensor& result, OptionalIntArrayRef dim,
                                          bool keepdim) {
  const ScalarType dtype = result.scalar_type();
  const Tensor x = self.scalar_type() == dtype ? self : ::gradgen::to(self, dtype);
  const Tensor g =
      norm_backward(grad, x, std::optional<Scalar>(ord), result, vector_norm_dims(dim), keepdim);
  return !g.defined() || g.scalar_type() == self.scalar_type()
             ? g
             : ::gradgen::to(g, self.scalar_type());
}

inline Tensor linalg_vector_norm_jvp(const Tensor& self_p, const Tensor& self_t, const Scalar& ord,
                                     const Tensor& result, OptionalIntArrayRef dim, bool keepdim) {
  const ScalarType dtype = result.scalar_type();
  const Tensor x = self_p.scalar_type() == dtype ? self_p : ::gradgen::to(self_p, dtype);
  const Tensor t = self_t.scalar_type() == dtype ? self_t : ::gradgen::to(self_t, dtype);
  return norm_jvp(x, t, std::optional<Scalar>(ord), result, vector_norm_dims(dim), keepdim);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
