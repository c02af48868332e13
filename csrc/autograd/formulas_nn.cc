#include "csrc/autograd/formulas_nn.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/formulas.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

namespace {

/// x where mask holds, else 0 (mask a Bool tensor broadcasting with x).
Tensor masked(const Tensor& x, const Tensor& mask) { return where(mask, x, zeros_like(x)); }

/// The two halves of x along dim (glu's a and b).
std::pair<Tensor, Tensor> halves(const Tensor& x, int64_t dim) {
  const int64_t n = x.size(dim) / 2;
  return {narrow(x, dim, 0, n), narrow(x, dim, n, n)};
}

}  // namespace

Tensor zeros(IntArrayRef sizes, const TensorOptions& options) {
  return ::gradgen::zeros(sizes, options.dtype());
}

Tensor gelu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self,
                            std::string_view approximate) {
  const Tensor x_sq = self * self;
  if (approximate == "tanh") {
    // gelu(x) = x/2 (1 + tanh(u)), u = k (x + c x^3): gelu'' = (1 - t^2) (u' + x/2 (u'' - 2 t
    // u'^2)).
    const double k = M_SQRT2 * M_2_SQRTPI * 0.5, c = 0.044715;
    const Tensor t = tanh(k * (self + c * x_sq * self));
    const Tensor du = k * (1 + 3 * c * x_sq);
    const Tensor d2u = (6 * k * c) * self;
    const Tensor second = (1 - t * t) * (du + 0.5 * self * (d2u - 2 * t * du * du));
    return grad * grad_output * second;
  }
  // gelu(x) = x Phi(x): gelu'' = 2 phi(x) - x^2 phi(x).
  const double beta = M_2_SQRTPI * M_SQRT1_2 * 0.5;
  const Tensor pdf = beta * exp(-0.5 * x_sq);
  return grad * grad_output * (2 * pdf - x_sq * pdf);
}

Tensor elu_double_backward(const Tensor& grad, const Tensor& grad_output, const Scalar& alpha,
                           const Scalar& scale, const Scalar& input_scale, bool is_result,
                           const Tensor& self_or_result) {
  // Where self_or_result > 0 elu is linear (scale * x). Below: d/dx of
  // g alpha scale input_scale exp(input_scale x) is input_scale times that, and d/dr of
  // g input_scale (r + alpha scale) is g input_scale.
  const Tensor negative = lt(self_or_result, 0);  // PyTorch's mask: 0 at 0
  if (is_result) return masked(grad * grad_output * input_scale, negative);
  return masked(elu_backward(grad * grad_output * input_scale, alpha, scale, input_scale, false,
                             self_or_result),
                negative);
}

Tensor hardswish_double_backward(const Tensor& grad, const Tensor& grad_output,
                                 const Tensor& self) {
  return masked(grad * grad_output / 3.0, gt(self, -3.0) * lt(self, 3.0));
}

Tensor softplus_double_backward(const Tensor& grad, const Tensor& self, const Scalar& beta,
                                const Scalar& threshold) {
  const Tensor x = self * beta;
  // PyTorch's product with the mask (not a where): a NaN stays NaN.
  return sigmoid_backward(grad, sigmoid(x)) * lt(x, threshold) * beta;
}

Tensor log_sigmoid_double_backward(const Tensor& grad, const Tensor& self) {
  const Tensor z = sigmoid(self);
  return grad * (z - 1) * z;
}

Tensor glu_jvp(const Tensor& glu, const Tensor& x, const Tensor& dx, int64_t dim) {
  const Tensor s = sigmoid(halves(x, dim).second);
  auto [da, db] = halves(dx, dim);
  return da * s + glu * (1 - s) * db;
}

Tensor glu_double_backward_grad_output(const Tensor& grad, const Tensor& self, int64_t dim) {
  auto [ga, gb] = halves(grad, dim);
  auto [a, b] = halves(self, dim);
  const Tensor s = sigmoid(b);
  return ga * s + gb * a * s * (1 - s);
}

Tensor glu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self,
                           int64_t dim) {
  // glu_backward = [gO s, gO a s (1 - s)] with s = sigmoid(b): its derivatives in a and b.
  auto [ga, gb] = halves(grad, dim);
  auto [a, b] = halves(self, dim);
  const Tensor s = sigmoid(b);
  const Tensor ds = s * (1 - s);
  const Tensor grad_a = gb * grad_output * ds;
  const Tensor grad_b = ga * grad_output * ds + gb * grad_output * a * ds * (1 - 2 * s);
  return cat({grad_a, grad_b}, dim);
}

Tensor glu_backward_jvp(const Tensor& /*grad_x*/, const Tensor& grad_glu, const Tensor& x,
                        const Tensor& dgrad_glu, const Tensor& dx, int64_t dim) {
  // Linear in grad_glu; in x, glu_backward is the gradient of <grad_glu, glu(x)>, whose
  // Jacobian (a Hessian) is symmetric: the double backward applied to dx is its tangent.
  return glu_backward(dgrad_glu, x, dim) + glu_double_backward(dx, grad_glu, x, dim);
}

Tensor prelu_double_backward_grad_output(const Tensor& ggs, const Tensor& ggw, const Tensor& self,
                                         const Tensor& weight) {
  const Tensor nonnegative = ge(self, 0);
  if (ggs.defined() && ggw.defined()) return where(nonnegative, ggs, ggs * weight + ggw * self);
  if (ggs.defined()) return where(nonnegative, ggs, ggs * weight);
  if (ggw.defined()) return masked(ggw * self, lt(self, 0));
  return zeros_like(self * weight);
}

Tensor prelu_double_backward_self(const Tensor& ggw, const Tensor& grad_output,
                                  const Tensor& self) {
  if (!ggw.defined()) return zeros_like(self);
  return masked(grad_output * ggw, lt(self, 0));
}

Tensor prelu_double_backward_weight(const Tensor& ggs, const Tensor& grad_output,
                                    const Tensor& self) {
  if (!ggs.defined()) return zeros_like(self);
  return masked(grad_output * ggs, lt(self, 0));
}

// ---------------------------------------------------------------------------
// Losses
// ---------------------------------------------------------------------------

namespace {

Tensor mean_scaled(const Tensor& t, const Tensor& self, int64_t reduction) {
  return reduction == Reduction::Mean ? t / static_cast<double>(self.numel()) : t;
}

Tensor times_weight(const Tensor& t, const std::optional<Tensor>& weight) {
  return weight.has_value() && weight->defined() ? t * *weight : t;
}

}  // namespace

Tensor smooth_l1_loss_double_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                      int64_t reduction, double beta) {
  if (beta == 0) return zeros_like(grad * self);  // l1_loss's: piecewise linear
  const Tensor d = abs(self - target);
  return mean_scaled(grad * lt(d, beta) / beta, self, reduction);
}

Tensor huber_loss_double_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                  int64_t reduction, double delta) {
  const Tensor d = abs(self - target);
  return mean_scaled(grad * lt(d, delta), self, reduction);
}

Tensor huber_loss_double_backward_grad_output(const Tensor& grad, const Tensor& grad_output,
                                              const Tensor& self, const Tensor& target,
                                              int64_t reduction, double delta) {
  if (reduction == Reduction::None) {
    return huber_loss_backward(grad, self, target, reduction, delta);
  }
  const Tensor r = huber_loss_backward(ones_like(grad_output), self, target, reduction, delta);
  return sum(r * grad);
}

Tensor soft_margin_loss_double_backward(const Tensor& grad, const Tensor& self,
                                        const Tensor& target, int64_t reduction) {
  const Tensor z = exp(-target * self);
  const Tensor one_plus_z = 1 + z;
  return mean_scaled(target * target * z / (one_plus_z * one_plus_z) * grad, self, reduction);
}

Tensor soft_margin_loss_double_backward_grad_output(const Tensor& grad, const Tensor& grad_output,
                                                    const Tensor& self, const Tensor& target,
                                                    int64_t reduction) {
  if (reduction == Reduction::None) {
    return soft_margin_loss_backward(grad, self, target, reduction);
  }
  const Tensor r = soft_margin_loss_backward(ones_like(grad_output), self, target, reduction);
  return sum(r * grad);
}

Tensor binary_cross_entropy_target_backward(const Tensor& grad, const Tensor& self,
                                            const Tensor& target,
                                            const std::optional<Tensor>& weight,
                                            int64_t reduction) {
  // -logit(self) = -log(self / (1 - self)).
  const Tensor grad_target = -log(self / (1 - self)) * grad;
  return mean_scaled(times_weight(grad_target, weight), target, reduction);
}

Tensor binary_cross_entropy_double_backward(const Tensor& grad_output, const Tensor& grad,
                                            const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight,
                                            int64_t reduction) {
  // d/dx of (x - y) / (x (1 - x)) = (x^2 - 2 x y + y) / (x (1 - x))^2, with PyTorch's 1e-12
  // added to x and 1 - x.
  const double eps = 1e-12;
  const Tensor x_eps = self + eps;
  const Tensor one_minus_x_eps = 1 - self + eps;
  Tensor g = (self * self - 2 * self * target + target) /
             (x_eps * x_eps * (one_minus_x_eps * one_minus_x_eps));
  g = g * (grad * grad_output);
  return mean_scaled(times_weight(g, weight), self, reduction);
}

Tensor binary_cross_entropy_double_backward_target(const Tensor& grad, const Tensor& grad_output,
                                                   const Tensor& self, const Tensor& target,
                                                   const std::optional<Tensor>& weight,
                                                   int64_t reduction) {
  // d/dy of grad_output (x - y) / max(x (1 - x), 1e-12).
  const Tensor denominator = clamp((1 - self) * self, 1e-12);
  const Tensor g = times_weight(-grad * grad_output, weight) / denominator;
  return mean_scaled(g, self, reduction);
}

Tensor binary_cross_entropy_double_backward_grad_output(const Tensor& grad, const Tensor& self,
                                                        const Tensor& target,
                                                        const std::optional<Tensor>& weight,
                                                        int64_t reduction) {
  const double eps = 1e-12;
  // Unreduced: the formula sums it to grad_output's shape (0-dim for Mean and Sum).
  const Tensor g = times_weight((self - target) / ((self + eps) * (1 - self + eps)) * grad, weight);
  return mean_scaled(g, self, reduction);
}

Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad, const Tensor& self,
                                                 const Tensor& target,
                                                 const std::optional<Tensor>& weight,
                                                 const std::optional<Tensor>& pos_weight,
                                                 int64_t reduction) {
  Tensor g;
  if (pos_weight.has_value() && pos_weight->defined()) {
    // d/dx of (1 - y) x - (1 + (p - 1) y) log_sigmoid(x) = (p y + 1 - y) sigmoid(x) - p y.
    const Tensor t = *pos_weight * target;
    g = (t + 1 - target) * sigmoid(self) - t;
  } else {
    g = sigmoid(self) - target;
  }
  return mean_scaled(times_weight(g * grad, weight), self, reduction);
}

Tensor binary_cross_entropy_with_logits_target_backward(const Tensor& grad, const Tensor& self,
                                                        const Tensor& target,
                                                        const std::optional<Tensor>& weight,
                                                        const std::optional<Tensor>& pos_weight,
                                                        int64_t reduction) {
  Tensor g;
  if (pos_weight.has_value() && pos_weight->defined()) {
    // d/dy: -x - (p - 1) log_sigmoid(x) = log_sigmoid(-x) - p log_sigmoid(x).
    g = log_sigmoid(-self) - log_sigmoid(self) * *pos_weight;
  } else {
    g = -self;
  }
  return mean_scaled(times_weight(g * grad, weight), target, reduction);
}

// ---------------------------------------------------------------------------
// Padding
// ---------------------------------------------------------------------------

Tensor constant_pad_nd_backward(const Tensor& grad, IntArrayRef pad) {
  std::vector<int64_t> negated(pad.begin(), pad.end());
  for (int64_t& p : negated) p = -p;
  return constant_pad_nd(grad, negated, 0);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
