#include "csrc/autograd/formulas_grid.h"

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

// The 2-D weights a_i(tx) b_j(ty) at k = j * taps + i, with a channel dim: [N, 1, K, P].
Tensor tap_outer(const Tensor& a, const Tensor& b) {
  const Tensor w = mul(unsqueeze(a, 1), unsqueeze(b, 2));  // [N, taps (y), taps (x), P]
  return unsqueeze(reshape(w, {w.size(0), w.size(1) * w.size(2), w.size(3)}), 1);
}

}  // namespace

// With s = <ggI, grad_input> + <ggG, grad_grid>, w_k tap k's weight, v_k the input it reads,
// dix / diy the source coordinate's slopes and D_k = dw_k/dx dix ggG_x + dw_k/dy diy ggG_y:
// ds/dgO = sum_k (w_k ggI_k + v_k D_k); ds/dinput scatters gO D_k; ds/dgrid_x = dix sum_c,k
// gO (dw_k/dx ggI_k + v_k (d2w_k/dx2 dix ggG_x + d2w_k/dxdy diy ggG_y)), and y alike.
std::tuple<Tensor, Tensor, Tensor> grid_sampler_2d_double_backward(
    const Tensor& ggI, const Tensor& ggG, const Tensor& grad_output, const Tensor& input,
    const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
    std::array<bool, 3> grad_input_mask) {
  if (!ggI.defined() && !ggG.defined()) return {};
  const native::GridTapTable tab =
      native::grid_sampler_2d_tap_table(input, grid, interpolation_mode, padding_mode,
                                        align_corners);
  const int64_t N = input.size(0), C = input.size(1), pixels = input.size(2) * input.size(3);
  const int64_t P = grid.size(1) * grid.size(2), K = tab.taps * tab.taps;
  const ScalarType dtype = input.scalar_type();
  const Tensor xy = reshape(grid, {N, P, 2});
  const Tensor tx = add(mul(select(xy, 2, 0), tab.dx), tab.ox);
  const Tensor ty = add(mul(select(xy, 2, 1), tab.dy), tab.oy);
  const std::vector<Cubic> cubics = tap_weights(interpolation_mode);
  std::array<Tensor, 3> a, b;
  for (int order = 0; order < 3; ++order) {
    a[order] = axis_weights(cubics, tx, order);
    b[order] = axis_weights(cubics, ty, order);
  }
  const Tensor inside = unsqueeze(tab.inside, 1);  // [N, 1, K, P]
  const Tensor index = expand(reshape(tab.index, {N, 1, K * P}), {N, C, K * P});
  auto taps_of = [&](const Tensor& t) {  // t [N, C, IH, IW] at the taps: [N, C, K, P]
    return mul(reshape(gather(reshape(t, {N, C, pixels}), 2, index), {N, C, K, P}), inside);
  };
  const Tensor v = taps_of(input);
  const Tensor gi = ggI.defined() ? taps_of(ggI) : zeros({N, C, K, P}, dtype);
  const Tensor gg = ggG.defined() ? reshape(ggG, {N, P, 2}) : zeros({N, P, 2}, dtype);
  auto per_point = [&](const Tensor& t) { return reshape(t, {N, 1, 1, P}); };
  const Tensor ex = per_point(mul(select(gg, 2, 0), tab.dx));  // dix ggG_x
  const Tensor ey = per_point(mul(select(gg, 2, 1), tab.dy));
  const Tensor go = reshape(grad_output, {N, C, 1, P});
  const Tensor w = tap_outer(a[0], b[0]), wx = tap_outer(a[1], b[0]), wy = tap_outer(a[0], b[1]);
  const Tensor wxx = tap_outer(a[2], b[0]), wxy = tap_outer(a[1], b[1]),
               wyy = tap_outer(a[0], b[2]);
  const Tensor D = add(mul(wx, ex), mul(wy, ey));  // [N, 1, K, P]
  const Tensor d_go = reshape(sum(add(mul(w, gi), mul(v, D)), IntArrayRef{2}), grad_output.sizes());
  const Tensor src = reshape(mul(mul(go, D), inside), {N, C, K * P});
  const Tensor d_in =
      reshape(scatter_add(zeros({N, C, pixels}, dtype), 2, index, src), input.sizes());
  auto grid_part = [&](const Tensor& dw, const Tensor& second, const Tensor& slope) {
    const Tensor term = mul(go, add(mul(dw, gi), mul(v, second)));
    return mul(sum(term, IntArrayRef{1, 2}), slope);  // [N, P]
  };
  const Tensor d_gx = grid_part(wx, add(mul(wxx, ex), mul(wxy, ey)), tab.dx);
  const Tensor d_gy = grid_part(wy, add(mul(wxy, ex), mul(wyy, ey)), tab.dy);
  const Tensor d_grid = reshape(stack({d_gx, d_gy}, 2), grid.sizes());
  return {grad_input_mask[0] ? d_go : Tensor(), grad_input_mask[1] ? d_in : Tensor(),
          grad_input_mask[2] ? d_grid : Tensor()};
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
