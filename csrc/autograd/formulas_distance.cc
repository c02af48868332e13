#include "csrc/autograd/formulas_distance.h"

#include <cmath>

#include "csrc/autograd/formulas.h"
#include "csrc/native/loops.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

Tensor norm_backward(Tensor grad, const Tensor& self, const std::optional<Scalar>& p, Tensor norm,
                     IntArrayRef dim, bool keepdim) {
  const double ord = p.has_value() ? p->to_double() : 2.0;
  // The 0-"norm" counts nonzero elements: piecewise constant, PyTorch gives no gradient at all
  // (an undefined tensor, so x.grad stays None and autograd.grad asks for allow_unused).
  if (ord == 0.0) return Tensor();
  const DimVector dims = native::loops::reduction_dims("norm_backward", dim, self.dim());
  if (!keepdim && self.dim() != 0) {
    // grad and norm back to the keepdim shape, to broadcast against self.
    const DimVector keep = native::loops::reduced_shape(self.sizes(), dims, true);
    grad = reshape(grad, keep);
    norm = reshape(norm, keep);
  }
  if (ord == 1.0) return mul(sgn(self), grad);
  if (ord == 2.0) return mul(grad, masked_fill(div(self, norm), eq(norm, 0), 0));
  if (std::isinf(ord)) {
    const Tensor a = abs(self);
    const Tensor at_max = logical_or(eq(a, norm), isnan(a));
    const Tensor ones = where(at_max, 1.0, zeros_like(self));
    return mul(sgn(self), mul(div(grad, sum(ones, IntArrayRef(dims), true)), ones));
  }
  if (ord < 1.0) {
    const Tensor scaled = mul(sgn(self), masked_fill(pow(abs(self), ord - 1), eq(self, 0), 0));
    return mul(mul(scaled, grad), pow(norm, 1 - ord));
  }
  const Tensor scaled =
      ord < 2.0 ? mul(sgn(self), pow(abs(self), ord - 1)) : mul(self, pow(abs(self), ord - 2));
  return mul(scaled, masked_fill(div(grad, pow(norm, ord - 1)), eq(norm, 0), 0));
}

Tensor norm_jvp(const Tensor& self_p, const Tensor& self_t, const std::optional<Scalar>& p,
                const Tensor& norm, IntArrayRef dim, bool keepdim) {
  if ((p.has_value() ? p->to_double() : 2.0) == 0.0) return zeros_like(norm);  // as PyTorch's
  const Tensor d = norm_backward(ones_like(norm), self_p, p, norm, dim, keepdim);
  return sum(mul(d, self_t), dim, keepdim);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
