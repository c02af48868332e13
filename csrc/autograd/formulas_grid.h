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

// In csrc/native/grid_sample.cc, without autograd: what grid_sampler_2d reads at each point
// (not an op of specs/). For input [N, C, IH, IW] and grid [N, OH, OW, 2], P = OH * OW points
// and K = taps^2 taps per point (taps 1, 2, 4 for nearest, bilinear, bicubic), in the order
// k = j * taps + i (i along x): index [N, K, P] (Long, the tap's flat pixel, 0 when outside)
// and inside [N, K, P] (1 or 0); per axis the fraction t = ix - floor(ix) of the padded source
// coordinate is d * grid + o locally (dx, ox, dy, oy [N, P]; d is 0 for nearest).
struct GridTapTable {
  Tensor index, inside, dx, ox, dy, oy;
  int64_t taps;
};
GridTapTable grid_sampler_2d_tap_table(const Tensor& input, const Tensor& grid,
                                       int64_t interpolation_mode, int64_t padding_mode,
                                       bool align_corners);

}  // namespace native

namespace autograd {
namespace generated {
namespace details {

/// The gradients of grid_sampler_2d_backward's two results (grads[0] of grad_input, grads[1]
/// of grad_grid, either undefined) by grad_output, input and grid, every mode. Written with
/// differentiable ops over grid_sampler_2d_tap_table (gather / scatter_add of the taps, weights
/// as polynomials of the fraction), so higher derivatives follow, as PyTorch's.
std::tuple<Tensor, Tensor, Tensor> grid_sampler_2d_double_backward(
    const Tensor& ggI, const Tensor& ggG, const Tensor& grad_output, const Tensor& input,
    const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
    std::array<bool, 3> grad_input_mask);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
