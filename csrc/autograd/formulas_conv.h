// Helpers of the convolution ops' derivative formulas (specs/derivatives.yaml, section "nn,
// second batch: convolution"), with PyTorch's names and signatures, written with gradgen's
// differentiable API (convolution and convolution_backward are ops with formulas of their own,
// so every derivative here is differentiable again).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <tuple>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// PyTorch's *_symint spelling of convolution_backward (SymInts are integers in gradgen).
inline std::tuple<Tensor, Tensor, Tensor> convolution_backward_symint(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight,
    OptionalIntArrayRef bias_sizes, IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
    bool transposed, IntArrayRef output_padding, int64_t groups, std::array<bool, 3> output_mask) {
  return convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
                              transposed, output_padding, groups, output_mask);
}

/// The tangent of convolution(input, weight, bias): it is bilinear in (input, weight), so
/// conv(input_t, weight) + conv(input, weight_t) + bias_t.
Tensor convolution_jvp(const Tensor& input_p, const Tensor& input_t, const Tensor& weight_p,
                       const Tensor& weight_t, const std::optional<Tensor>& bias_p,
                       const Tensor& bias_t, IntArrayRef stride, IntArrayRef padding,
                       IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                       int64_t groups);

/// The gradients of convolution_backward's (grad_output, input, weight) from the gradients
/// ggI, ggW, ggb of its outputs (any undefined), in that order:
///   ggO = conv(ggI, weight) + conv(input, ggW) + ggb,
///   gI  = the input gradient of conv(input, ggW) for grad_output (from ggW),
///   gW  = the weight gradient of conv(ggI, weight) for grad_output (from ggI).
std::tuple<Tensor, Tensor, Tensor> _convolution_double_backward_symint(
    const std::optional<Tensor>& ggI, const std::optional<Tensor>& ggW,
    const std::optional<Tensor>& ggb, const Tensor& gO, const Tensor& weight, const Tensor& self,
    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
    IntArrayRef output_padding, int64_t groups, std::array<bool, 3> output_mask);

/// The tangent of convolution_backward's grad_bias: grad_output_t summed over every dim but 1.
Tensor convolution_backward_jvp_grad_bias(const Tensor& grad_out_t, const Tensor& grad_bias);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
