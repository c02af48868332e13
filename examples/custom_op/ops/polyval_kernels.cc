// The kernel of polyval (ops/native_functions.yaml): the computation, without autograd.
//
// It implements the declaration the codegen writes into ops/generated/NativeFunctions.h,
// `custom_op::native::polyval`; the generated `custom_op::polyval` (VariableType.h) calls it and
// records PolyvalBackward0. float64, any strides.
#include <stdexcept>
#include <string>

#include "ops/generated/NativeFunctions.h"

namespace custom_op {
namespace native {

gradgen::Tensor polyval(gradgen::TensorList coeffs, const gradgen::Tensor& x) {
  if (coeffs.empty()) {
    throw std::invalid_argument("polyval: expected at least one coefficient, got an empty list");
  }
  if (x.scalar_type() != gradgen::ScalarType::Double) {
    throw std::invalid_argument(std::string("polyval: expected x of dtype Double, got ") +
                                gradgen::to_string(x.scalar_type()));
  }
  std::vector<gradgen::Tensor> cs;
  for (size_t i = 0; i < coeffs.size(); ++i) {
    if (!coeffs[i].sizes().equals(x.sizes()) || coeffs[i].scalar_type() != x.scalar_type()) {
      throw std::invalid_argument("polyval: expected coeffs[" + std::to_string(i) +
                                  "] of x's shape " + gradgen::shape_str(x.sizes()) +
                                  " and dtype Double, got " +
                                  gradgen::shape_str(coeffs[i].sizes()) + " and " +
                                  gradgen::to_string(coeffs[i].scalar_type()));
    }
    cs.push_back(coeffs[i].contiguous());
  }
  const gradgen::Tensor xc = x.contiguous();
  const double* xp = xc.data_ptr<double>();
  gradgen::Tensor result = gradgen::empty(x.sizes());
  double* out = result.data_ptr<double>();
  for (int64_t j = 0; j < x.numel(); ++j) {
    // Horner: (((c[n-1]) x + c[n-2]) x + ...) x + c[0].
    double value = 0;
    for (size_t i = cs.size(); i-- > 0;) value = value * xp[j] + cs[i].data_ptr<double>()[j];
    out[j] = value;
  }
  return result;
}

}  // namespace native
}  // namespace custom_op
