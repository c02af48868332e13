// Kernels of the nn losses (torch.nn.functional's smooth_l1_loss, huber_loss, soft_margin_loss,
// binary_cross_entropy, binary_cross_entropy_with_logits) and of their backward ops, with their
// out= variants; l1_loss, kl_div and margin_ranking_loss are composites (composite_nn.cc).
// Element by element with PyTorch's CPU formulas, then reduced (Reduction::None, Mean, Sum).
// A backward op's grad_output is 0-dim for Mean and Sum (it broadcasts); Mean's gradient is
// divided by self's number of elements, as PyTorch's.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/nn_loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_floating;

void check_loss_reduction(const char* op, int64_t reduction) {
  if (reduction != Reduction::None && reduction != Reduction::Mean && reduction != Reduction::Sum) {
    throw std::invalid_argument(std::string(op) + ": " + std::to_string(reduction) +
                                " is not a valid value for reduction (0 None, 1 Mean, 2 Sum)");
  }
}

Tensor reduce(const Tensor& loss, int64_t reduction) {
  if (reduction == Reduction::Mean) return mean(loss, std::nullopt);
  if (reduction == Reduction::Sum) return sum(loss, std::nullopt);
  return loss;
}

// f(self, target) element by element (broadcast, in their floating result type), reduced.
template <typename Make>
Tensor pointwise_loss(const char* op, const Tensor& self, const Tensor& target, int64_t reduction,
                      Make&& make) {
  check_loss_reduction(op, reduction);
  if (const auto reduced = reduced_float_dtype(self, target)) {
    // float16 / bfloat16: each element's loss in float32, rounded, then reduced in the 16-bit
    // dtype, as PyTorch's kernels (a loss tensor, then its reduction).
    return reduce(in_float32(
                      *reduced,
                      [&](const Tensor& x, const Tensor& y) {
                        return pointwise_loss(op, x, y, Reduction::None, make);
                      },
                      self, target),
                  reduction);
  }
  const ScalarType dtype = result_type(self, target);
  const Tensor x = cast(self, dtype), y = cast(target, dtype);
  Tensor loss;
  dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    loss = loops::binary_map<T, T, T>(op, x, y, dtype, make(tag));
  });
  return reduce(loss, reduction);
}

// f(grad_output, self, target, norm) element by element, norm 1 / numel for Mean, else 1.
template <typename Make>
Tensor pointwise_loss_backward(const char* op, const Tensor& grad_output, const Tensor& self,
                               const Tensor& target, int64_t reduction, Make&& make) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(pointwise_loss_backward, op, grad_output, self, target,
                                   reduction, make);
  check_loss_reduction(op, reduction);
  ResultType promotion;
  promotion.add(grad_output);
  promotion.add(self);
  promotion.add(target);
  const ScalarType dtype = promotion.get();
  Tensor out;
  dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    const T norm = reduction == Reduction::Mean ? T(1) / static_cast<T>(self.numel()) : T(1);
    out = loops::ternary_map<T>(op, cast(grad_output, dtype), cast(self, dtype),
                                cast(target, dtype), make(tag, norm));
  });
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// smooth_l1_loss, huber_loss
// ---------------------------------------------------------------------------

Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  if (beta < 0) {
    throw std::invalid_argument(
        "smooth_l1_loss: smooth_l1_loss does not support negative values for beta.");
  }
  return pointwise_loss("smooth_l1_loss", self, target, reduction, [beta](auto tag) {
    using T = decltype(tag);
    const T b = static_cast<T>(beta);
    return [b](T x, T y) {
      const T z = std::abs(x - y);
      return z < b ? T(0.5) * z * z / b : z - T(0.5) * b;
    };
  });
}

Tensor& smooth_l1_loss_out(const Tensor& self, const Tensor& target, int64_t reduction, double beta,
                           Tensor& out) {
  return write_out("smooth_l1_loss.out", smooth_l1_loss(self, target, reduction, beta), out);
}

Tensor smooth_l1_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                               int64_t reduction, double beta) {
  return pointwise_loss_backward("smooth_l1_loss_backward", grad_output, self, target, reduction,
                                 [beta](auto tag, auto norm) {
                                   using T = decltype(tag);
                                   const T b = static_cast<T>(beta);
                                   return [b, norm](T g, T x, T y) {
                                     const T d = x - y;
                                     if (d <= -b) return -norm * g;
                                     if (d >= b) return norm * g;
                                     return norm * d * g / b;
                                   };
                                 });
}

Tensor& smooth_l1_loss_backward_out(const Tensor& grad_output, const Tensor& self,
                                    const Tensor& target, int64_t reduction, double beta,
                                    Tensor& grad_input) {
  return write_out("smooth_l1_loss_backward.grad_input",
                   smooth_l1_loss_backward(grad_output, self, target, reduction, beta), grad_input);
}

Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  if (!(delta > 0)) {
    throw std::invalid_argument(
        "huber_loss: huber_loss does not support non-positive values for delta.");
  }
  return pointwise_loss("huber_loss", self, target, reduction, [delta](auto tag) {
    using T = decltype(tag);
    const T dl = static_cast<T>(delta);
    return [dl](T x, T y) {
      const T z = std::abs(x - y);
      return z < dl ? T(0.5) * z * z : dl * (z - T(0.5) * dl);
    };
  });
}

Tensor& huber_loss_out(const Tensor& self, const Tensor& target, int64_t reduction, double delta,
                       Tensor& out) {
  return write_out("huber_loss.out", huber_loss(self, target, reduction, delta), out);
}

Tensor huber_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                           int64_t reduction, double delta) {
  return pointwise_loss_backward("huber_loss_backward", grad_output, self, target, reduction,
                                 [delta](auto tag, auto norm) {
                                   using T = decltype(tag);
                                   const T dl = static_cast<T>(delta);
                                   return [dl, norm](T g, T x, T y) {
                                     const T d = x - y;
                                     if (d <= -dl) return -norm * g * dl;
                                     if (d >= dl) return norm * g * dl;
                                     return norm * d * g;
                                   };
                                 });
}

Tensor& huber_loss_backward_out(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                int64_t reduction, double delta, Tensor& grad_input) {
  return write_out("huber_loss_backward.out",
                   huber_loss_backward(grad_output, self, target, reduction, delta), grad_input);
}

// ---------------------------------------------------------------------------
// soft_margin_loss
// ---------------------------------------------------------------------------

Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return pointwise_loss("soft_margin_loss", self, target, reduction, [](auto tag) {
    using T = decltype(tag);
    return [](T x, T y) { return std::log1p(std::exp(-x * y)); };
  });
}

Tensor& soft_margin_loss_out(const Tensor& self, const Tensor& target, int64_t reduction,
                             Tensor& out) {
  return write_out("soft_margin_loss.out", soft_margin_loss(self, target, reduction), out);
}

Tensor soft_margin_loss_backward(const Tensor& grad_output, const Tensor& self,
                                 const Tensor& target, int64_t reduction) {
  return pointwise_loss_backward("soft_margin_loss_backward", grad_output, self, target, reduction,
                                 [](auto tag, auto norm) {
                                   using T = decltype(tag);
                                   return [norm](T g, T x, T y) {
                                     const T z = std::exp(-y * x);
                                     return -norm * y * z / (T(1) + z) * g;
                                   };
                                 });
}

Tensor& soft_margin_loss_backward_out(const Tensor& grad_output, const Tensor& self,
                                      const Tensor& target, int64_t reduction, Tensor& grad_input) {
  return write_out("soft_margin_loss_backward.grad_input",
                   soft_margin_loss_backward(grad_output, self, target, reduction), grad_input);
}

// ---------------------------------------------------------------------------
// binary_cross_entropy, binary_cross_entropy_with_logits
// ---------------------------------------------------------------------------

namespace {

// PyTorch's checks: self and target of one shape, self's values in [0, 1].
void check_bce(const char* op, const Tensor& self, const Tensor& target) {
  if (!self.sizes().equals(target.sizes())) {
    throw std::invalid_argument(
        std::string(op) + ": Using a target size (" + shape_str(target.sizes()) +
        ") that is different to the input size (" + shape_str(self.sizes()) +
        ") is deprecated. Please ensure they have the same size.");
  }
}

Tensor weighted(const Tensor& t, const std::optional<Tensor>& weight) {
  return weight.has_value() && weight->defined() ? mul(t, *weight) : t;
}

}  // namespace

Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                            const std::optional<Tensor>& weight, int64_t reduction) {
  const char* op = "binary_cross_entropy";
  check_bce(op, self, target);
  Tensor loss = pointwise_loss(op, self, target, Reduction::None, [op](auto tag) {
    using T = decltype(tag);
    return [op](T x, T y) {
      if (!(x >= T(0) && x <= T(1))) {
        throw std::invalid_argument(std::string(op) +
                                    ": all elements of input should be between 0 and 1");
      }
      // log clamped at -100, so that x = 0 or 1 gives a finite loss (PyTorch's choice).
      return (y - T(1)) * std::max(static_cast<T>(std::log1p(-x)), T(-100)) -
             y * std::max(static_cast<T>(std::log(x)), T(-100));
    };
  });
  check_loss_reduction(op, reduction);
  return reduce(weighted(loss, weight), reduction);
}

Tensor& binary_cross_entropy_out(const Tensor& self, const Tensor& target,
                                 const std::optional<Tensor>& weight, int64_t reduction,
                                 Tensor& out) {
  return write_out("binary_cross_entropy.out",
                   binary_cross_entropy(self, target, weight, reduction), out);
}

Tensor binary_cross_entropy_backward(const Tensor& grad_output, const Tensor& self,
                                     const Tensor& target, const std::optional<Tensor>& weight,
                                     int64_t reduction) {
  const Tensor grad =
      pointwise_loss_backward("binary_cross_entropy_backward", grad_output, self, target, reduction,
                              [](auto tag, auto norm) {
                                using T = decltype(tag);
                                return [norm](T g, T x, T y) {
                                  constexpr T kEpsilon = T(1e-12);
                                  return norm * g * (x - y) / std::max((T(1) - x) * x, kEpsilon);
                                };
                              });
  return weighted(grad, weight);
}

Tensor& binary_cross_entropy_backward_out(const Tensor& grad_output, const Tensor& self,
                                          const Tensor& target, const std::optional<Tensor>& weight,
                                          int64_t reduction, Tensor& grad_input) {
  return write_out("binary_cross_entropy_backward.grad_input",
                   binary_cross_entropy_backward(grad_output, self, target, weight, reduction),
                   grad_input);
}

Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const std::optional<Tensor>& weight,
                                        const std::optional<Tensor>& pos_weight,
                                        int64_t reduction) {
  const char* op = "binary_cross_entropy_with_logits";
  check_loss_reduction(op, reduction);
  check_bce(op, self, target);
  // (1 - target) * self - log_weight * log_sigmoid(self), log_weight = 1 + (pos_weight - 1) *
  // target (1 without pos_weight), as PyTorch's kernel.
  Tensor log_sigmoid_self = std::get<0>(log_sigmoid_forward(self));
  if (pos_weight.has_value() && pos_weight->defined()) {
    const Tensor log_weight = add(mul(add(*pos_weight, Scalar(-1), 1), target), Scalar(1), 1);
    log_sigmoid_self = mul(log_sigmoid_self, log_weight);
  }
  const Tensor loss = sub(mul(add(neg(target), Scalar(1), 1), self), log_sigmoid_self, 1);
  return reduce(weighted(loss, weight), reduction);
}

}  // namespace native
}  // namespace gradgen
