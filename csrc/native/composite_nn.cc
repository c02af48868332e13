// The nn family's CompositeImplicitAutograd kernels (selu, log_sigmoid, prelu, l1_loss, kl_div,
// margin_ranking_loss, cosine_embedding_loss, triplet_margin_loss, pad, _pad_circular, and the
// backward
// ops PyTorch's autograd runs as composites: silu_backward, mish_backward): written with the
// differentiable API, so their gradients come from the ops they call, as in PyTorch. As in
// composite.cc, every call is qualified `gradgen::` to reach the differentiable op.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/autograd/variable_type_utils.h"
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

Tensor& selu_(Tensor& self) {
  // selu's constants, in place through elu_ (as PyTorch's). A leaf that requires grad (or a view
  // autograd cannot follow) is refused in selu_'s name, as by a generated in-place wrapper.
  constexpr double kAlpha = 1.6732632423543772848170429916717;
  constexpr double kScale = 1.0507009873554804934193349852946;
  autograd::check_inplace(self, "selu_");
  return in_composite_op("selu_",
                         [&]() -> Tensor& { return gradgen::elu_(self, kAlpha, kScale, 1); });
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

// cosine_embedding_loss and triplet_margin_loss as PyTorch's (aten/src/ATen/native/Loss.cpp).
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                             double margin, int64_t reduction) {
  return in_composite_op("cosine_embedding_loss", [&] {
    const int64_t targ_dim = target.dim();
    if (targ_dim != 1 && targ_dim != 0) {
      throw std::invalid_argument("0D or 1D target tensor expected, multi-target not supported");
    }
    if (targ_dim == 1 && (input1.dim() != 2 || input2.dim() != 2)) {
      throw std::invalid_argument(
          "1D target tensor expects 2D input tensors, but found inputs with sizes " +
          shape_str(input1.sizes()) + " and " + shape_str(input2.sizes()) + ".");
    }
    if (targ_dim == 0 && (input1.dim() != 1 || input2.dim() != 1)) {
      throw std::invalid_argument(
          "0D target tensor expects 1D input tensors, but found inputs with sizes " +
          shape_str(input1.sizes()) + " and " + shape_str(input2.sizes()) + ".");
    }
    constexpr double kEpsilon = 1e-12;
    const std::vector<int64_t> dims{targ_dim};
    const Tensor prod_sum = gradgen::sum(input1 * input2, IntArrayRef(dims), false);
    const Tensor mag_square1 = gradgen::sum(input1 * input1, IntArrayRef(dims), false) + kEpsilon;
    const Tensor mag_square2 = gradgen::sum(input2 * input2, IntArrayRef(dims), false) + kEpsilon;
    const Tensor cos = prod_sum / gradgen::sqrt(mag_square1 * mag_square2);
    const Tensor zeros = gradgen::zeros_like(cos);
    const Tensor pos = 1 - cos;
    const Tensor neg = gradgen::clamp_min(cos - margin, 0);
    const Tensor output = gradgen::where(gradgen::eq(target, 1), pos, zeros) +
                          gradgen::where(gradgen::eq(target, -1), neg, zeros);
    return reduce_loss(output, reduction);
  });
}

Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                           double margin, double p, double eps, bool swap, int64_t reduction) {
  return in_composite_op("triplet_margin_loss", [&] {
    const int64_t a_dim = anchor.dim(), p_dim = positive.dim(), n_dim = negative.dim();
    if (a_dim != p_dim || p_dim != n_dim) {
      throw std::invalid_argument(
          "The anchor, positive, and negative tensors are expected to have the same number of "
          "dimensions, but got: anchor " +
          std::to_string(a_dim) + "D, positive " + std::to_string(p_dim) + "D, and negative " +
          std::to_string(n_dim) + "D inputs");
    }
    const Tensor dist_pos = gradgen::pairwise_distance(anchor, positive, p, eps);
    Tensor dist_neg = gradgen::pairwise_distance(anchor, negative, p, eps);
    // The distance swap of Balntas et al., "Learning shallow convolutional feature descriptors
    // with triplet losses": the nearer of the negative's distances.
    if (swap)
      dist_neg = gradgen::minimum(dist_neg, gradgen::pairwise_distance(positive, negative, p, eps));
    return reduce_loss(gradgen::clamp_min(margin + dist_pos - dist_neg, 0), reduction);
  });
}

// ---------------------------------------------------------------------------
// Padding
// ---------------------------------------------------------------------------

Tensor _pad_circular(const Tensor& self, IntArrayRef pad) {
  return in_composite_op("_pad_circular", [&] {
    // ATen's check: the dims before the padded ones are the channel dim, or the batch and
    // channel dims (an unbatched input pads all but its first dim).
    const int64_t n = static_cast<int64_t>(pad.size()), dim = self.dim();
    const int64_t not_padded = dim - n / 2;
    if (n % 2 != 0 || (not_padded != 1 && not_padded != 2)) {
      throw std::invalid_argument(
          "_pad_circular: Invalid padding size, expected 1 or 2 non-padded dimensions, which would "
          "be equivalent to padding of length " +
          std::to_string((dim - 1) * 2) + " or " + std::to_string((dim - 2) * 2) +
          " respectively but got " + std::to_string(n));
    }
    Tensor x = self;
    for (int64_t k = 0; k < n / 2; ++k) {
      const int64_t d = self.dim() - 1 - k;
      const int64_t left = pad[2 * k], right = pad[2 * k + 1], size = self.size(d);
      if (left > size || right > size) {
        throw std::invalid_argument(
            "_pad_circular: Padding value causes wrapping around more than once.");
      }
      if (size + left + right < 0) {
        throw std::invalid_argument(
            "_pad_circular: Negative padding value is resulting in an empty dimension.");
      }
      // Negative pads crop first; positive ones then take slices from the other end of what is
      // left (PyTorch's order).
      const int64_t crop_left = std::max<int64_t>(-left, 0),
                    crop_right = std::max<int64_t>(-right, 0);
      const int64_t kept = size - crop_left - crop_right;
      if (left > kept || right > kept) {
        throw std::invalid_argument(
            "_pad_circular: Padding value causes wrapping around more than once.");
      }
      const Tensor core = gradgen::narrow(x, d, crop_left, kept);
      std::vector<Tensor> parts;
      if (left > 0) parts.push_back(gradgen::narrow(core, d, kept - left, left));
      parts.push_back(core);
      if (right > 0) parts.push_back(gradgen::narrow(core, d, 0, right));
      x = parts.size() == 1 ? core : gradgen::cat(parts, d);
    }
    return x;
  });
}

Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode,
           std::optional<double> value) {
  return in_composite_op("pad", [&]() -> Tensor {
    if (mode == "constant") return gradgen::constant_pad_nd(self, pad, value.value_or(0.0));
    if (value.has_value() && *value != 0) {
      throw std::invalid_argument("pad: Padding mode \"" + std::string(mode) +
                                  "\" doesn't take in value argument.");
    }
    const int64_t n = static_cast<int64_t>(pad.size()), dim = self.dim();
    if (n % 2 != 0 || n / 2 > dim) {
      throw std::invalid_argument(
          "pad: Padding length must be divisible by 2 and at most twice "
          "the number of dims, got " +
          std::to_string(n));
    }
    const bool circular = mode == "circular", reflect = mode == "reflect";
    if (!circular && !reflect && mode != "replicate") {
      throw std::invalid_argument("pad: Unrecognised padding mode " + std::string(mode));
    }
    // PyTorch's combinations for every non-constant mode (an unbatched input included).
    const bool supported = (n == 2 && (dim == 2 || dim == 3)) ||
                           (n == 4 && (dim == 3 || dim == 4)) || (n == 6 && (dim == 4 || dim == 5));
    if (!supported) {
      throw std::invalid_argument(
          "pad: Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now "
          "(1-D padding of a 2-D or 3-D input, 2-D padding of a 3-D or 4-D input, 3-D padding of "
          "a 4-D or 5-D input), got " +
          std::to_string(n / 2) + "-D padding of a " + std::to_string(dim) + "-D input");
    }
    if (circular) return gradgen::_pad_circular(self, pad);
    if (n == 2) {
      return reflect ? gradgen::reflection_pad1d(self, pad) : gradgen::replication_pad1d(self, pad);
    }
    if (n == 4) {
      return reflect ? gradgen::reflection_pad2d(self, pad) : gradgen::replication_pad2d(self, pad);
    }
    return reflect ? gradgen::reflection_pad3d(self, pad) : gradgen::replication_pad3d(self, pad);
  });
}

}  // namespace native
}  // namespace gradgen
