// Helpers of the normalization ops' derivative formulas (specs/derivatives.yaml, section "nn,
// second batch"): the tangents and double backwards of layer norm, batch norm and group norm that
// PyTorch writes in FunctionsManual.cpp, with PyTorch's names and signatures, written again here
// with gradgen's differentiable API so that they are differentiable in turn.
//
// The three norms share one shape of computation: the input, viewed as a tensor whose "set
// dims" hold the elements normalized together, is xhat = (x - mean) * rstd, then
// y = xhat * weight + bias with weight broadcasting over the view. Each helper builds that view
// (a `NormView`, formulas_norm.cc) and calls one implementation. As in PyTorch, the double
// backwards take mean and rstd as functions of the input (the saved values are their values).
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

/// PyTorch's *_symint spellings of the norm backward ops (SymInts are integers in gradgen).
inline std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward_symint(
    const Tensor& grad_out, const Tensor& input, IntArrayRef normalized_shape, const Tensor& mean,
    const Tensor& rstd, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    std::array<bool, 3> output_mask) {
  return native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias,
                                    output_mask);
}
inline std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward_symint(
    const Tensor& grad_out, const Tensor& input, const Tensor& mean, const Tensor& rstd,
    const std::optional<Tensor>& weight, int64_t N, int64_t C, int64_t HxW, int64_t group,
    std::array<bool, 3> output_mask) {
  return native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group,
                                    output_mask);
}

// ---------------------------------------------------------------------------
// Layer norm
// ---------------------------------------------------------------------------

/// The tangent of native_layer_norm's output from the tangents of input, weight and bias (the
/// latter two undefined when absent).
Tensor layer_norm_jvp(const Tensor& input_p, const Tensor& input_t,
                      const std::optional<Tensor>& weight_p, const Tensor& weight_t,
                      const std::optional<Tensor>& bias_p, const Tensor& bias_t,
                      const Tensor& saved_mean, const Tensor& saved_invstd,
                      IntArrayRef normalized_shape);

/// The gradients of native_layer_norm_backward's input, weight and grad_out from the gradients
/// ggI, ggG, ggB of its three outputs (any undefined); output_mask says which are needed.
std::tuple<Tensor, Tensor, Tensor> layer_norm_double_backward(
    const Tensor& input, const std::optional<Tensor>& gamma, const Tensor& ggI, const Tensor& ggG,
    const Tensor& ggB, const Tensor& gO, const Tensor& save_mean, const Tensor& save_invstd,
    IntArrayRef normalized_shape, std::array<bool, 3> output_mask);

/// gradgen's own (PyTorch gives native_layer_norm_backward no forward formula): the tangents of
/// its three outputs, mean and rstd following the input (forward-over-reverse through
/// native_layer_norm needs them).
std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_jvp(
    const Tensor& grad_out_p, const Tensor& grad_out_t, const Tensor& input_p,
    const Tensor& input_t, const std::optional<Tensor>& weight_p, const Tensor& weight_t,
    const std::optional<Tensor>& bias_p, const Tensor& mean, const Tensor& rstd,
    IntArrayRef normalized_shape, std::array<bool, 3> output_mask);

// ---------------------------------------------------------------------------
// Batch norm (statistics over every dim but 1)
// ---------------------------------------------------------------------------

/// The tangent of native_batch_norm's output: with the batch's statistics (following the
/// input) when training, else with the running ones (constants).
Tensor batch_norm_jvp(const Tensor& input_p, const Tensor& input_t,
                      const std::optional<Tensor>& weight_p, const Tensor& weight_t,
                      const std::optional<Tensor>& bias_p, const Tensor& bias_t,
                      const std::optional<Tensor>& running_mean,
                      const std::optional<Tensor>& running_var, const Tensor& saved_mean,
                      const Tensor& saved_invstd, bool train, double eps);

/// The gradients of native_batch_norm_backward's input, weight and grad_out from the gradients
/// ggI, ggG, ggB of its outputs (any undefined).
std::tuple<Tensor, Tensor, Tensor> batchnorm_double_backward(
    const Tensor& input, const std::optional<Tensor>& gamma, const Tensor& ggI, const Tensor& ggG,
    const Tensor& ggB, const Tensor& gO, const std::optional<Tensor>& running_mean,
    const std::optional<Tensor>& running_var, bool train, double eps,
    const std::optional<Tensor>& save_mean, const std::optional<Tensor>& save_invstd,
    std::array<bool, 3> output_mask);

/// gradgen's own: the tangents of native_batch_norm_backward's outputs (as
/// layer_norm_backward_jvp).
std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_jvp(
    const Tensor& grad_out_p, const Tensor& grad_out_t, const Tensor& input_p,
    const Tensor& input_t, const std::optional<Tensor>& weight_p, const Tensor& weight_t,
    const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
    const std::optional<Tensor>& save_mean, const std::optional<Tensor>& save_invstd, bool train,
    double eps, std::array<bool, 3> output_mask);

// ---------------------------------------------------------------------------
// Group norm (input [N, C, HxW...], statistics per sample and group of C / group channels)
// ---------------------------------------------------------------------------

/// The gradients of native_group_norm's inputs from the gradients of its three outputs (dY of
/// the output, dmean and drstd of the statistics; any undefined): native_group_norm_backward
/// for dY (an op: differentiable again), plus the statistics' terms.
std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward_dispatcher(
    const Tensor& dY, const Tensor& dmean, const Tensor& drstd, const Tensor& X, const Tensor& mean,
    const Tensor& rstd, const std::optional<Tensor>& gamma, int64_t N, int64_t C, int64_t HxW,
    int64_t group, std::array<bool, 3> grad_input_mask);

/// The tangents of native_group_norm's three outputs.
Tensor group_norm_jvp(const Tensor& input_p, const Tensor& input_t,
                      const std::optional<Tensor>& weight_p, const Tensor& weight_t,
                      const std::optional<Tensor>& bias_p, const Tensor& bias_t, const Tensor& mean,
                      const Tensor& rstd, int64_t groups);
Tensor group_norm_mean_jvp(const Tensor& input_t, const Tensor& mean, int64_t groups);
Tensor group_norm_invstd_jvp(const Tensor& input_p, const Tensor& input_t, const Tensor& mean,
                             const Tensor& rstd, int64_t groups);

/// gradgen's own: the gradients of native_group_norm_backward's input, weight and grad_out from
/// the gradients ggI, ggG, ggB of its outputs (as layer_norm_double_backward).
std::tuple<Tensor, Tensor, Tensor> group_norm_double_backward(
    const Tensor& input, const std::optional<Tensor>& gamma, const Tensor& ggI, const Tensor& ggG,
    const Tensor& ggB, const Tensor& gO, const Tensor& mean, const Tensor& rstd, int64_t N,
    int64_t C, int64_t HxW, int64_t group, std::array<bool, 3> output_mask);

/// gradgen's own: the tangents of native_group_norm_backward's outputs.
std::tuple<Tensor, Tensor, Tensor> group_norm_backward_jvp(
    const Tensor& grad_out_p, const Tensor& grad_out_t, const Tensor& input_p,
    const Tensor& input_t, const std::optional<Tensor>& weight_p, const Tensor& weight_t,
    const Tensor& mean, const Tensor& rstd, int64_t N, int64_t C, int64_t HxW, int64_t group,
    std::array<bool, 3> output_mask);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
