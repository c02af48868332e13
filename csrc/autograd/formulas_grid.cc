#include "csrc/autograd/formulas_grid.h"

#include <algorithm>
#include <array>
#include <vector>

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

namespace {

// A 1-D tap's weight as a cubic c0 + c1 t + c2 t^2 + c3 t^3 in the fraction t.
using Cubic = std::array<double, 4>;

// The taps' weights of each mode: bilinear 1 - t, t; nearest 1; bicubic Keys' cubic convolution
// with A = -0.75 at distances t + 1, t, 1 - t, 2 - t, expanded in t.
std::vector<Cubic> tap_weights(int64_t mode) {
  if (mode == 0) return {{1, -1, 0, 0}, {0, 1, 0, 0}};
  if (mode == 1) return {{1, 0, 0, 0}};
  const double A = -0.75;
  return {{0, A, -2 * A, A}, {1, 0, -(A + 3), A + 2}, {0, -A, 2 * A + 3, -(A + 2)}, {0, 0, A, -A}};
}

Cubic derivative(const Cubic& c) { return {c[1], 2 * c[2], 3 * c[3], 0}; }

// c(t) with differentiable ops (Horner's rule).
Tensor evaluate(const Cubic& c, const Tensor& t) {
  Tensor r = mul(t, c[3]);
  r = mul(add(r, c[2]), t);
  r = mul(add(r, c[1]), t);
  return add(r, c[0]);
}

// The weights (or their `order`-th derivatives) of every tap of one axis: [N, taps, P].
Tensor axis_weights(const std::vector<Cubic>& cubics, const Tensor& t, int order) {
  std::vector<Tensor> w;
  for (Cubic c : cubics) {
    for (int k = 0; k < order; ++k) c = derivative(c);
    w.push_back(evaluate(c, t));
  }
  return stack(w, 1);
}

// The weights of every tap as the product of the axes' weights (axes[a] [N, taps, P], x first),
// x fastest, with a channel dim: [N, 1, K, P].
Tensor tap_outer(const std::vector<Tensor>& axes) {
  Tensor w = axes[0];
  for (size_t a = 1; a < axes.size(); ++a) {
    const Tensor e = axes[a];
    w = mul(unsqueeze(e, 2), unsqueeze(w, 1));  // [N, taps (a), K so far, P]
    w = reshape(w, {w.size(0), w.size(1) * w.size(2), w.size(3)});
  }
  return unsqueeze(w, 1);
}

// With s = <ggI, grad_input> + <ggG, grad_grid>, w_k tap k's weight, v_k the input it reads,
// di_a the source coordinate a's slope and D_k = sum_a dw_k/di_a di_a ggG_a:
// ds/dgO = sum_k (w_k ggI_k + v_k D_k); ds/dinput scatters gO D_k; ds/dgrid_a = di_a sum_c,k
// gO (dw_k/di_a ggI_k + v_k sum_b d2w_k/di_a di_b di_b ggG_b).
std::tuple<Tensor, Tensor, Tensor> grid_double_backward(const Tensor& ggI, const Tensor& ggG,
                                                        const Tensor& grad_output,
                                                        const Tensor& input, const Tensor& grid,
                                                        int64_t interpolation_mode,
                                                        int64_t padding_mode, bool align_corners,
                                                        std::array<bool, 3> grad_input_mask) {
  if (!ggI.defined() && !ggG.defined()) return {};
  const native::GridTapTable tab =
      native::grid_sampler_tap_table(input, grid, interpolation_mode, padding_mode, align_corners);
  const int dims = static_cast<int>(input.dim()) - 2;
  const int64_t N = input.size(0), C = input.size(1);
  const int64_t pixels = input.numel() / std::max<int64_t>(N * C, 1);
  const int64_t P = grid.numel() / std::max<int64_t>(N * dims, 1);
  const int64_t K = tab.index.size(1);
  const ScalarType dtype = input.scalar_type();
  const Tensor xyz = reshape(grid, {N, P, dims});
  const std::vector<Cubic> cubics = tap_weights(interpolation_mode);
  // weights[a][order]: axis a's tap weights or their order-th derivatives, [N, taps, P].
  std::vector<std::array<Tensor, 3>> weights(dims);
  for (int a = 0; a < dims; ++a) {
    const Tensor t = add(mul(select(xyz, 2, a), tab.d[a]), tab.o[a]);
    for (int order = 0; order < 3; ++order) weights[a][order] = axis_weights(cubics, t, order);
  }
  // The weights differentiated orders[a] times along each axis a.
  auto outer = [&](std::vector<int> orders) {
    std::vector<Tensor> axes;
    for (int a = 0; a < dims; ++a) axes.push_back(weights[a][orders[a]]);
    return tap_outer(axes);
  };
  auto unit = [dims](int a, int b = -1) {
    std::vector<int> orders(dims, 0);
    if (a >= 0) ++orders[a];
    if (b >= 0) ++orders[b];
    return orders;
  };
  const Tensor inside = unsqueeze(tab.inside, 1);  // [N, 1, K, P]
  const Tensor index = expand(reshape(tab.index, {N, 1, K * P}), {N, C, K * P});
  auto taps_of = [&](const Tensor& t) {  // t [N, C, spatial...] at the taps: [N, C, K, P]
    return mul(reshape(gather(reshape(t, {N, C, pixels}), 2, index), {N, C, K, P}), inside);
  };
  const Tensor v = taps_of(input);
  const Tensor gi = ggI.defined() ? taps_of(ggI) : zeros({N, C, K, P}, dtype);
  const Tensor gg = ggG.defined() ? reshape(ggG, {N, P, dims}) : zeros({N, P, dims}, dtype);
  std::vector<Tensor> e(dims);  // di_a ggG_a, [N, 1, 1, P]
  for (int a = 0; a < dims; ++a) {
    e[a] = reshape(mul(select(gg, 2, a), tab.d[a]), {N, 1, 1, P});
  }
  const Tensor go = reshape(grad_output, {N, C, 1, P});
  const Tensor w = outer(unit(-1));
  std::vector<Tensor> w1(dims);
  Tensor D;
  for (int a = 0; a < dims; ++a) {
    w1[a] = outer(unit(a));
    D = a == 0 ? mul(w1[a], e[a]) : add(D, mul(w1[a], e[a]));  // [N, 1, K, P]
  }
  const Tensor d_go = reshape(sum(add(mul(w, gi), mul(v, D)), IntArrayRef{2}), grad_output.sizes());
  const Tensor src = reshape(mul(mul(go, D), inside), {N, C, K * P});
  const Tensor d_in =
      reshape(scatter_add(zeros({N, C, pixels}, dtype), 2, index, src), input.sizes());
  std::vector<Tensor> d_grid(dims);
  for (int a = 0; a < dims; ++a) {
    Tensor second;
    for (int b = 0; b < dims; ++b) {
      const Tensor term = mul(outer(unit(a, b)), e[b]);
      second = b == 0 ? term : add(second, term);
    }
    const Tensor term = mul(go, add(mul(w1[a], gi), mul(v, second)));
    d_grid[a] = mul(sum(term, IntArrayRef{1, 2}), tab.d[a]);  // [N, P]
  }
  const Tensor d_g = reshape(stack(d_grid, 2), grid.sizes());
  return {grad_input_mask[0] ? d_go : Tensor(), grad_input_mask[1] ? d_in : Tensor(),
          grad_input_mask[2] ? d_g : Tensor()};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> grid_sampler_2d_double_backward(
    const Tensor& ggI, const Tensor& ggG, const Tensor& grad_output, const Tensor& input,
    const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
    std::array<bool, 3> grad_input_mask) {
  return grid_double_backward(ggI, ggG, grad_output, input, grid, interpolation_mode, padding_mode,
                              align_corners, grad_input_mask);
}

std::tuple<Tensor, Tensor, Tensor> grid_sampler_3d_double_backward(
    const Tensor& ggI, const Tensor& ggG, const Tensor& grad_output, const Tensor& input,
    const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
    std::array<bool, 3> grad_input_mask) {
  return grid_double_backward(ggI, ggG, grad_output, input, grid, interpolation_mode, padding_mode,
                              align_corners, grad_input_mask);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
