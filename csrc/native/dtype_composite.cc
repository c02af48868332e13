// Kernels of the dtypes' composite ops (issue 23): true_divide, PyTorch's alias of div. True
// division computes integer and bool operands as the default float dtype (get_default_dtype()),
// float16 and bfloat16 in float32 rounded once (elementwise.cc's div); the gradient is div's.
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"

namespace gradgen {
namespace native {

Tensor true_divide(const Tensor& self, const Tensor& other) { return gradgen::div(self, other); }

Tensor true_divide(const Tensor& self, const Scalar& other) { return gradgen::div(self, other); }

}  // namespace native
}  // namespace gradgen
