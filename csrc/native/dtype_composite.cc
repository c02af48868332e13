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

// divide, multiply, subtract: PyTorch's aliases of div, mul and sub. Each is the aliased op's
// call, so its wrapper records that op's node (DivBackward0, MulBackward0, ...), as in PyTorch.
Tensor divide(const Tensor& self, const Tensor& other) { return gradgen::div(self, other); }
Tensor divide(const Tensor& self, const Scalar& other) { return gradgen::div(self, other); }
Tensor divide(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  return gradgen::div(self, other, mode);
}
Tensor divide(const Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  return gradgen::div(self, other, mode);
}
Tensor& divide_(Tensor& self, const Tensor& other) { return gradgen::div_(self, other); }
Tensor& divide_(Tensor& self, const Scalar& other) { return gradgen::div_(self, other); }
Tensor& divide_(Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  return gradgen::div_(self, other, mode);
}
Tensor& divide_(Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  return gradgen::div_(self, other, mode);
}
Tensor& divide_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return gradgen::div_out(self, other, out);
}
Tensor& divide_out(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode,
                   Tensor& out) {
  return gradgen::div_out(self, other, mode, out);
}

Tensor multiply(const Tensor& self, const Tensor& other) { return gradgen::mul(self, other); }
Tensor multiply(const Tensor& self, const Scalar& other) { return gradgen::mul(self, other); }
Tensor& multiply_(Tensor& self, const Tensor& other) { return gradgen::mul_(self, other); }
Tensor& multiply_(Tensor& self, const Scalar& other) { return gradgen::mul_(self, other); }
Tensor& multiply_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return gradgen::mul_out(self, other, out);
}

Tensor subtract(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return gradgen::sub(self, other, alpha);
}
Tensor subtract(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return gradgen::sub(self, other, alpha);
}
Tensor& subtract_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  return gradgen::sub_(self, other, alpha);
}
Tensor& subtract_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return gradgen::sub_(self, other, alpha);
}
Tensor& subtract_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return gradgen::sub_out(self, other, alpha, out);
}

}  // namespace native
}  // namespace gradgen
