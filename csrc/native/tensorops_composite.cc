// The tensor op library's CompositeImplicitAutograd kernels (issue 23): written with the
// differentiable API, so their gradients flow through the ops they call (as composite.cc's).
// Calls are qualified `gradgen::` to reach the differentiable op, not the kernel.
#include <stdexcept>
#include <string>
#include <vector>

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
// nanmean.out: nanmean's result written into out (the wrapper refuses inputs that require grad).
Tensor& nanmean_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                    std::optional<ScalarType> dtype, Tensor& out) {
  return write_out("nanmean.out", gradgen::nanmean(self, dim, keepdim, dtype), out);
}

// split.sizes: split_with_sizes (PyTorch's split_symint with a list of sizes).
std::vector<Tensor> split(const Tensor& self, IntArrayRef split_size, int64_t dim) {
  return gradgen::split_with_sizes(self, split_size, dim);
}

// to.other: to other's dtype (gradgen has one device).
Tensor to(const Tensor& self, const Tensor& other, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return gradgen::to(self, other.scalar_type(), non_blocking, copy, memory_format);
}

// var / std / var_mean / std_mean with unbiased=: the .correction overloads with correction 1
// (Bessel's) when unbiased, else 0, as PyTorch's composites.
Tensor var(const Tensor& self, bool unbiased) {
  return gradgen::var(self, std::nullopt, Scalar(unbiased ? 1 : 0));
}
Tensor var(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return gradgen::var(self, dim, Scalar(unbiased ? 1 : 0), keepdim);
}
Tensor std(const Tensor& self, bool unbiased) {
  return gradgen::std(self, std::nullopt, Scalar(unbiased ? 1 : 0));
}
Tensor std(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return gradgen::std(self, dim, Scalar(unbiased ? 1 : 0), keepdim);
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, bool unbiased) {
  return gradgen::var_mean(self, std::nullopt, Scalar(unbiased ? 1 : 0));
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim, bool unbiased,
                                    bool keepdim) {
  return gradgen::var_mean(self, dim, Scalar(unbiased ? 1 : 0), keepdim);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, bool unbiased) {
  return gradgen::std_mean(self, std::nullopt, Scalar(unbiased ? 1 : 0));
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim, bool unbiased,
                                    bool keepdim) {
  return gradgen::std_mean(self, dim, Scalar(unbiased ? 1 : 0), keepdim);
}

}  // namespace native
}  // namespace gradgen
