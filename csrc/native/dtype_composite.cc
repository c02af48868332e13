// Kernels of the dtypes' composite ops (issue 23): true_divide (and true_divide_, .out), PyTorch's
// alias of div. True division computes integer and bool operands as the default float dtype
// (get_default_dtype()), float16 and bfloat16 in float32 rounded once (elementwise.cc's div); the
// gradient is div's.
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"

namespace gradgen {
namespace native {

Tensor true_divide(const Tensor& self, const Tensor& other) { return gradgen::div(self, other); }

Tensor true_divide(const Tensor& self, const Scalar& other) { return gradgen::div(self, other); }

// In place and out= (issue 23): div_'s and div.out's wrappers record the history or refuse it.
Tensor& true_divide_(Tensor& self, const Tensor& other) { return gradgen::div_(self, other); }

Tensor& true_divide_(Tensor& self, const Scalar& other) { return gradgen::div_(self, other); }

Tensor& true_divide_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return gradgen::div_out(self, other, out);
}

}  // namespace native
}  // namespace gradgen
