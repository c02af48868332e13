// The helpers of grid_sampler_2d_backward's and grid_sampler_3d_backward's derivative formulas
// (specs/derivatives.yaml, "nn, issue 26, resampling"), with PyTorch's names.
#pragma once

#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace native {

// In csrc/native/grid_sample.cc, without autograd: what grid_sampler_2d / _3d reads at each
// point (not an op of specs/). For input [N, C, (ID,) IH, IW] and grid [N, (OD,) OH, OW, dims],
// P points and K = taps^dims taps per point (taps 1, 2, 4 for nearest, bilinear, bicubic), in
// the order k = (l * taps + j) * taps + i (i along x, l along z): index [N, K, P] (Long, the
// tap's flat pixel, 0 when outside) and inside [N, K, P] (1 or 0); per axis (x, y, z) the
// fraction t = i - floor(i) of the padded source coordinate is d[a] * grid + o[a] locally
// (d[a], o[a] [N, P]; d is 0 for nearest).
struct GridTapTable {
  Tensor index, inside;
  std::vector<Tensor> d, o;
  int64_t taps = 1;
};
GridTapTable grid_sampler_tap_table(const Tensor& input, const Tensor& grid,
                                    int64_t interpolation_mode, int64_t padding_mode,
                                    bool align_corners);

}  // namespace native

namespace autograd {
namespace generated {
namespace details {

/// The gradients of grid_sampler_2d_backward's two results (grads[0] of grad_input, grads[1]
/// of grad_grid, either undefined) by grad_output, input and grid, every mode. Written with
/// differentiable ops over grid_sampler_tap_table (gather / scatter_add of the taps, weights
/// as polynomials of the fraction), so higher derivatives follow, as PyTorch's.
std::tuple<Tensor, Tensor, Tensor> grid_sampler_2d_double_backward(
    const Tensor& ggI, const Tensor& ggG, const Tensor& grad_output, const Tensor& input,
    const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
    std::array<bool, 3> grad_input_mask);

/// The same for grid_sampler_3d_backward (bilinear and nearest).
std::tuple<Tensor, Tensor, Tensor> grid_sampler_3d_double_backward(
    const Tensor& ggI, const Tensor& ggG, const Tensor& grad_output, const Tensor& input,
    const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
    std::array<bool, 3> grad_input_mask);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
