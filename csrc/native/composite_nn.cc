// The nn family's CompositeImplicitAutograd kernels (selu, log_sigmoid, prelu, and the backward
// ops PyTorch's autograd runs as composites: silu_backward, mish_backward): written with the
// differentiable API, so their gradients come from the ops they call, as in PyTorch. As in
// composite.cc, every call is qualified `gradgen::` to reach the differentiable op.
#include <stdexcept>
#include <string>
#include <tuple>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

using gradgen::internal::in_composite_op;

Tensor silu_backward(const Tensor& grad_output, const Tensor& self) {
  // PyTorch's math_silu_backward: grad_output * s * (1 + self * (1 - s)), s = sigmoid(self).
  return in_composite_op("silu_backward", [&] {
    const Tensor s = gradgen::sigmoid(self);
    return grad_output * (s * (1 + self * (1 - s)));
  });
}

Tensor mish_backward(const Tensor& grad_output, const Tensor& self) {
  // PyTorch's math_mish_backward: with t = tanh(softplus(self)),
  // grad_output * (t + self * sigmoid(self) * (1 - t^2)).
  return in_composite_op("mish_backward", [&] {
    const Tensor s = gradgen::sigmoid(self);
    const Tensor t = gradgen::tanh(gradgen::softplus(self, 1, 20));
    return grad_output * (t + self * s * (1 - t * t));
  });
}

Tensor selu(const Tensor& self) {
  // SELU's constants (Klambauer et al., "Self-Normalizing Neural Networks"), as PyTorch's.
  constexpr double kAlpha = 1.6732632423543772848170429916717;
  constexpr double kScale = 1.0507009873554804934193349852946;
  return in_composite_op("selu", [&] { return gradgen::elu(self, kAlpha, kScale, 1); });
}

Tensor log_sigmoid(const Tensor& self) {
  return in_composite_op("log_sigmoid",
                         [&] { return std::get<0>(gradgen::log_sigmoid_forward(self)); });
}

Tensor prelu(const Tensor& self, const Tensor& weight_) {
  return in_composite_op("prelu", [&] {
    if (self.scalar_type() != weight_.scalar_type()) {
      throw std::invalid_argument(std::string("prelu: Type promoting not supported. Got ") +
                                  to_string(self.scalar_type()) + " and " +
                                  to_string(weight_.scalar_type()));
    }
    const int64_t self_dim = self.dim();
    if (weight_.numel() != 1) {
      if (self_dim == 0) throw std::invalid_argument("prelu: Not allow zero-dim input tensor.");
      const int64_t channel_size = self_dim > 1 ? self.size(1) : 1;
      if (channel_size != weight_.numel()) {
        throw std::invalid_argument(
            "prelu: Mismatch of parameter numbers and input channel size. Found parameter "
            "numbers = " +
            std::to_string(weight_.numel()) +
            " and channel size = " + std::to_string(channel_size) + ".");
      }
    }
    if (weight_.dim() > 1) {
      throw std::invalid_argument(
          "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = " +
          std::to_string(weight_.dim()));
    }
    // weight broadcasts over self's dim 1 (the channels): [C] -> [C, 1, ..., 1].
    Tensor weight = weight_;
    if (self_dim >= 2) {
      DimVector shape(static_cast<size_t>(self_dim), 1);
      shape[1] = weight_.numel();
      weight = gradgen::reshape(weight_, shape);
    }
    return gradgen::_prelu_kernel(self, weight);
  });
}

}  // namespace native
}  // namespace gradgen
