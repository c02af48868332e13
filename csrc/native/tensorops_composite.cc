// The tensor op library's CompositeImplicitAutograd kernels (issue 23): written with the
// differentiable API, so their gradients flow through the ops they call (as composite.cc's).
// Calls are qualified `gradgen::` to reach the differentiable op, not the kernel.
#include <stdexcept>
#include <string>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

// A Scalar operand as a 0-dim tensor of the dtype the op computes in.
Tensor scalar_operand(const Scalar& s, ScalarType dtype) { return full({}, s, dtype); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// where with Scalar branches, over where.self: a Scalar branch is a 0-dim tensor of the dtype
// the tensor branch and the number promote to (so a float32 branch stays float32).
// ---------------------------------------------------------------------------------------------

Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return gradgen::where(condition, scalar_operand(self, result_type(other, self)), other);
}

Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return gradgen::where(condition, self, scalar_operand(other, result_type(self, other)));
}

Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  ResultType promotion;
  promotion.add(self).add(other);
  const ScalarType dtype = promotion.get();
  return gradgen::where(condition, scalar_operand(self, dtype), scalar_operand(other, dtype));
}

// max.other / min.other: maximum / minimum under max's and min's names, as in PyTorch.
Tensor max(const Tensor& self, const Tensor& other) { return gradgen::maximum(self, other); }
Tensor min(const Tensor& self, const Tensor& other) { return gradgen::minimum(self, other); }

// nansum over the number of non-NaN elements (PyTorch's nanmean): NaN where every element is.
Tensor nanmean(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
               std::optional<ScalarType> dtype) {
  if (!is_floating_point(self.scalar_type())) {
    throw std::invalid_argument(
        std::string("nanmean(): expected input to have floating point or complex dtype but got ") +
        to_string(self.scalar_type()));
  }
  const Tensor count = gradgen::sum(gradgen::logical_not(gradgen::isnan(self)), dim, keepdim);
  return gradgen::div(gradgen::nansum(self, dim, keepdim, dtype), count);
}

}  // namespace native
}  // namespace gradgen
