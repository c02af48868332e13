// Helpers of the norm / distance ops' derivative formulas (specs/derivatives.yaml, section "nn,
// third batch"): PyTorch's norm_backward and norm_jvp, written with gradgen's differentiable API
// so that they are differentiable in turn.
#pragma once

#include <optional>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// The gradient of norm(self, p, dim, keepdim) (p absent: 2), `norm` being its result. Where the
/// norm is 0 the gradient is 0 (p > 1); p = inf shares the gradient among the elements at the
/// maximum (or NaN); p = 0 has none.
Tensor norm_backward(Tensor grad, const Tensor& self, const std::optional<Scalar>& p, Tensor norm,
                     IntArrayRef dim, bool keepdim);

/// The tangent of norm(self, p, dim, keepdim) along self_t: the gradient above with grad = 1,
/// times self_t, summed over dim.
Tensor norm_jvp(const Tensor& self_p, const Tensor& self_t, const std::optional<Scalar>& p,
                const Tensor& norm, IntArrayRef dim, bool keepdim);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
