#include "csrc/autograd/formulas_conv.h"

#include <vector>

#include "csrc/autograd/formulas.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

namespace {

Tensor defined_or_undefined(const std::optional<Tensor>& t) {
  return t.has_value() && t->defined() ? *t : Tensor();
}

/// bias (of grad_output's channels, dim 1) shaped to broadcast over grad_output.
Tensor bias_view(const Tensor& bias, int64_t dims) {
  std::vector<int64_t> shape(static_cast<size_t>(dims), 1);
  shape[1] = bias.numel();
  return reshape(bias, IntArrayRef(shape));
}

}  // namespace

Tensor convolution_jvp(const Tensor& input_p, const Tensor& input_t, const Tensor& weight_p,
                       const Tensor& weight_t, const std::optional<Tensor>& bias_p,
                       const Tensor& bias_t, IntArrayRef stride, IntArrayRef padding,
                       IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                       int64_t groups) {
  (void)bias_p;
  const std::optional<Tensor> b =
      bias_t.defined() ? std::optional<Tensor>(bias_t) : std::optional<Tensor>();
  return convolution(input_t, weight_p, b, stride, padding, dilation, transposed, output_padding,
                     groups) +
         convolution(input_p, weight_t, std::nullopt, stride, padding, dilation, transposed,
                     output_padding, groups);
}

std::tuple<Tensor, Tensor, Tensor> _convolution_double_backward_symint(
    const std::optional<Tensor>& ggI_, const std::optional<Tensor>& ggW_,
    const std::optional<Tensor>& ggb_, const Tensor& gO, const Tensor& weight, const Tensor& self,
    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
    IntArrayRef output_padding, int64_t groups, std::array<bool, 3> output_mask) {
  const Tensor ggI = defined_or_undefined(ggI_), ggW = defined_or_undefined(ggW_),
               ggb = defined_or_undefined(ggb_);
  Tensor ggO, gI, gW;
  if (output_mask[0]) {
    if (ggI.defined()) {
      ggO = convolution(ggI, weight, std::nullopt, stride, padding, dilation, transposed,
                        output_padding, groups);
    }
    if (ggW.defined()) {
      const Tensor t = convolution(self, ggW, std::nullopt, stride, padding, dilation, transposed,
                                   output_padding, groups);
      ggO = ggO.defined() ? ggO + t : t;
    }
    if (ggb.defined()) {
      const Tensor b = bias_view(ggb, gO.dim());
      ggO = ggO.defined() ? ggO + b : expand(b, gO.sizes());
    }
  }
  if (output_mask[1] && ggW.defined()) {
    gI =
        std::get<0>(convolution_backward(gO, self, ggW, std::nullopt, stride, padding, dilation,
                                         transposed, output_padding, groups, {true, false, false}));
  }
  if (output_mask[2] && ggI.defined()) {
    gW =
        std::get<1>(convolution_backward(gO, ggI, weight, std::nullopt, stride, padding, dilation,
                                         transposed, output_padding, groups, {false, true, false}));
  }
  return {ggO, gI, gW};
}

Tensor convolution_backward_jvp_grad_bias(const Tensor& grad_out_t, const Tensor& grad_bias) {
  if (!grad_bias.defined()) return Tensor();
  std::vector<int64_t> dims = {0};
  for (int64_t d = 2; d < grad_out_t.dim(); ++d) dims.push_back(d);
  return sum(grad_out_t, IntArrayRef(dims), false);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
