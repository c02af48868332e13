// The helper of grid_sampler_2d_backward's derivative formula (specs/derivatives.yaml, "nn,
// issue 26, resampling"), with PyTorch's name.
#pragma once

#include <array>
#include <cstdint>
#include <tuple>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace native {

// In csrc/native/grid_sample.cc: the double backward's arithmetic (not an op of specs/).
std::tuple<Tensor, Tensor, Tensor> grid_sampler_2d_double_backward_kernel(
    const Tensor& ggI, const Tensor& ggG, const Tensor& grad_output, const Tensor& input,
    const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode, bool align_corners);

}  // namespace native

namespace autograd {
namespace generated {
namespace details {

/// The gradients of grid_sampler_2d_backward's two results (grads[0] of grad_input, grads[1]
/// of grad_grid, either undefined) by grad_output, input and grid, every mode. Computed by a
/// kernel: right, but not differentiable again (a third derivative raises; PyTorch's is
/// written with differentiable ops).
std::tuple<Tensor, Tensor, Tensor> grid_sampler_2d_double_backward(
    const Tensor& ggI, const Tensor& ggG, const Tensor& grad_output, const Tensor& input,
    const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
    std::array<bool, 3> grad_input_mask);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
