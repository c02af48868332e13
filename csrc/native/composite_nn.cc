// The nn family's CompositeImplicitAutograd kernels (selu, log_sigmoid, prelu, l1_loss, kl_div,
// margin_ranking_loss, and the backward
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

// ---------------------------------------------------------------------------
// Losses
// ---------------------------------------------------------------------------

namespace {

// PyTorch's apply_loss_reduction, with the differentiable reductions.
Tensor reduce_loss(const Tensor& loss, int64_t reduction) {
  if (reduction == Reduction::Mean) return gradgen::mean(loss);
  if (reduction == Reduction::Sum) return gradgen::sum(loss);
  if (reduction != Reduction::None) {
    throw std::invalid_argument(std::to_string(reduction) +
                                " is not a valid value for reduction (0 None, 1 Mean, 2 Sum)");
  }
  return loss;
}

}  // namespace

Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return in_composite_op("l1_loss",
                         [&] { return reduce_loss(gradgen::abs(self - target), reduction); });
}

Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction, bool log_target) {
  return in_composite_op("kl_div", [&] {
    if (log_target) return reduce_loss(gradgen::exp(target) * (target - self), reduction);
    // xlogy(target, target) - target * self, xlogy(0, 0) = 0: the log reads 1 where target is
    // 0, so that neither value nor gradient is NaN there.
    const Tensor zero = gradgen::eq(target, 0);
    const Tensor safe = gradgen::masked_fill(target, zero, 1);
    const Tensor xlogx = gradgen::masked_fill(target * gradgen::log(safe), zero, 0);
    return reduce_loss(xlogx - target * self, reduction);
  });
}

Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           double margin, int64_t reduction) {
  return in_composite_op("margin_ranking_loss", [&] {
    const Tensor unclamped = -target * (input1 - input2) + margin;
    return reduce_loss(gradgen::clamp(unclamped, 0), reduction);
  });
}

}  // namespace native
}  // namespace gradgen
