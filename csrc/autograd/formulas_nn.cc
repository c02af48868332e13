#include "csrc/autograd/formulas_nn.h"

#include <cmath>
#include <stdexcept>
#include <string>

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

std::tuple<Tensor, Tensor> prelu_kernel_backward_reduced(const Tensor& grad, const Tensor& self,
                                                         const Tensor& weight) {
  if (!grad.defined()) return {};
  auto [grad_self, grad_weight] = _prelu_kernel_backward(grad, self, weight);
  return {sum_to(grad_self, self.sizes()), sum_to(grad_weight, weight.sizes())};
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

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
