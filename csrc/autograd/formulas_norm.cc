#include "csrc/autograd/formulas_norm.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/formulas.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

namespace {

/// An optional tensor as a Tensor, undefined when absent.
Tensor defined_or_undefined(const std::optional<Tensor>& t) {
  return t.has_value() && t->defined() ? *t : Tensor();
}

/// The input seen as a tensor whose `set` dims hold the elements normalized together:
/// `view` is the input's shape in that form, the statistics broadcast as `stat`, the weight
/// (and bias) as `weight`, and the weight's gradient sums over `weight_dims`.
struct NormView {
  std::vector<int64_t> view, set, stat, weight, weight_dims;
};

int64_t product(IntArrayRef sizes, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t n = 1;
  for (size_t i = from; i < sizes.size() && i < to; ++i) n *= sizes[i];
  return n;
}

/// Layer norm: rows of the normalized_shape's elements, [R, M].
NormView layer_norm_view(const Tensor& input, IntArrayRef normalized_shape) {
  const size_t axis = static_cast<size_t>(input.dim()) - normalized_shape.size();
  const int64_t R = product(input.sizes(), 0, axis), M = product(normalized_shape);
  return {{R, M}, {1}, {R, 1}, {1, M}, {0}};
}

/// Batch norm: [N, C, S], normalized over N and S per channel.
NormView batch_norm_view(const Tensor& input) {
  const int64_t N = input.size(0), C = input.size(1), S = product(input.sizes(), 2);
  return {{N, C, S}, {0, 2}, {1, C, 1}, {1, C, 1}, {0, 2}};
}

/// Group norm: [N, group, C / group, HxW], normalized per sample and group.
NormView group_norm_view(int64_t N, int64_t C, int64_t HxW, int64_t group) {
  const int64_t D = C / group;
  return {{N, group, D, HxW}, {2, 3}, {N, group, 1, 1}, {1, group, D, 1}, {0, 3}};
}

Tensor set_mean(const Tensor& t, const NormView& v) { return mean(t, IntArrayRef(v.set), true); }

/// P(u) = u - mean(u) - xhat * mean(u * xhat) over each set: rstd * P is the derivative of xhat
/// in the input (P is symmetric, so it is its own adjoint).
Tensor project(const Tensor& u, const Tensor& xhat, const NormView& v) {
  return u - set_mean(u, v) - xhat * set_mean(u * xhat, v);
}

/// mean and rstd of each set as functions of x (in the view), for the double backwards and the
/// backwards' tangents, which take the statistics as functions of the input: the saved values,
/// with the derivatives of every order of mean(x) and (var(x) + eps)^(-1/2), eps recovered
/// from the saved rstd (the backward ops have no eps argument).
std::pair<Tensor, Tensor> following_stats(const Tensor& xv, const Tensor& saved_mean,
                                          const Tensor& saved_rstd, const NormView& v) {
  const Tensor m = reshape(saved_mean, IntArrayRef(v.stat));
  const Tensor r = reshape(saved_rstd, IntArrayRef(v.stat));
  const Tensor mu = set_mean(xv, v);
  const Tensor centered = xv - mu;
  const Tensor var = set_mean(centered * centered, v);
  const Tensor eps = reciprocal(r * r) - var.detach();
  const Tensor rf = rsqrt(var + eps);
  return {m + (mu - mu.detach()), r + (rf - rf.detach())};
}

/// The statistics in the view: following the input (follow) or constants.
std::pair<Tensor, Tensor> view_stats(const Tensor& xv, const Tensor& saved_mean,
                                     const Tensor& saved_rstd, const NormView& v, bool follow) {
  if (follow) return following_stats(xv, saved_mean, saved_rstd, v);
  return {reshape(saved_mean, IntArrayRef(v.stat)), reshape(saved_rstd, IntArrayRef(v.stat))};
}

Tensor add_defined(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return a + b;
}

/// The tangent of xhat * weight + bias. follow: mean and rstd are the input's own statistics
/// (they move with it), else constants (batch norm in evaluation mode).
Tensor norm_jvp(const Tensor& x, const Tensor& dx, const Tensor& weight, const Tensor& dweight,
                const Tensor& dbias, const Tensor& mean_, const Tensor& rstd_, const NormView& v,
                bool follow) {
  const Tensor r = reshape(rstd_, IntArrayRef(v.stat));
  const Tensor xhat = (reshape(x, IntArrayRef(v.view)) - reshape(mean_, IntArrayRef(v.stat))) * r;
  const Tensor dxv = reshape(dx, IntArrayRef(v.view));
  const Tensor dxhat = follow ? r * project(dxv, xhat, v) : dxv * r;
  Tensor out = weight.defined() ? dxhat * reshape(weight, IntArrayRef(v.weight)) : dxhat;
  if (dweight.defined()) out = out + xhat * reshape(dweight, IntArrayRef(v.weight));
  if (dbias.defined()) out = out + reshape(dbias, IntArrayRef(v.weight));
  return reshape(out, x.sizes());
}

/// The double backward of every norm: the gradients of (input, weight, grad_out) of the norm's
/// backward (gI, gW, gB) given the gradients ggI, ggG, ggB of gI, gW, gB. With L = <ggI, gI> +
/// <ggG, gW> + <ggB, gB>, g = gO * weight and means over each set,
///   dL/dgO = weight * rstd P(ggI) + ggG * xhat + ggB          (gI, gW, gB are linear in gO)
///   dL/dw  = sum(gO * rstd P(ggI))                              (through g)
///   dL/dx  = rstd^2 (xhat (3 Sg Sa - mean(ggI g) + mean(g) mean(ggI))
///                    - Sa (g - mean(g)) - Sg (ggI - mean(ggI)))  (through mean, rstd, xhat in gI)
///          + rstd P(gO * ggG)                                   (through xhat in gW)
/// with Sg = mean(g xhat), Sa = mean(ggI xhat). Without `follow` (batch norm in evaluation mode:
/// gI = gO * weight * rstd with constant statistics) the terms are the linear ones.
std::tuple<Tensor, Tensor, Tensor> norm_double_backward(const Tensor& input, const Tensor& gamma,
                                                        const Tensor& ggI, const Tensor& ggG,
                                                        const Tensor& ggB, const Tensor& gO,
                                                        const Tensor& mean_, const Tensor& rstd_,
                                                        const NormView& v, bool follow,
                                                        std::array<bool, 3> output_mask) {
  const IntArrayRef view(v.view);
  const Tensor xv = reshape(input, view);
  const auto [mu, r] = view_stats(xv, mean_, rstd_, v, follow);
  const Tensor xhat = (xv - mu) * r;
  const Tensor go = reshape(gO, view);
  const Tensor w = gamma.defined() ? reshape(gamma, IntArrayRef(v.weight)) : Tensor();
  const Tensor a = ggI.defined() ? reshape(ggI, view) : Tensor();
  const Tensor gw = ggG.defined() ? reshape(ggG, IntArrayRef(v.weight)) : Tensor();
  const Tensor gb = ggB.defined() ? reshape(ggB, IntArrayRef(v.weight)) : Tensor();
  // rstd P(ggI) (the statistics following the input), or rstd ggI.
  const Tensor ra = !a.defined() ? Tensor() : (follow ? r * project(a, xhat, v) : r * a);

  Tensor gI, gG, ggO;
  if (output_mask[0]) {
    if (follow) {
      if (a.defined()) {
        const Tensor g = w.defined() ? go * w : go;
        const Tensor mg = set_mean(g, v), sg = set_mean(g * xhat, v);
        const Tensor ma = set_mean(a, v), sa = set_mean(a * xhat, v);
        gI = r * r *
             (xhat * (3 * sg * sa - set_mean(a * g, v) + mg * ma) - sa * (g - mg) - sg * (a - ma));
      }
      if (gw.defined()) gI = add_defined(gI, r * project(go * gw, xhat, v));
    } else if (gw.defined()) {
      gI = go * gw * r;
    }
    if (gI.defined()) gI = reshape(gI, input.sizes());
  }
  if (output_mask[1] && w.defined() && ra.defined()) {
    gG = reshape(sum(go * ra, IntArrayRef(v.weight_dims), false), gamma.sizes());
  }
  if (output_mask[2]) {
    if (ra.defined()) ggO = w.defined() ? w * ra : ra;
    if (gw.defined()) ggO = add_defined(ggO, gw * xhat);
    if (gb.defined()) ggO = ggO.defined() ? ggO + gb : expand(gb, view);
    if (ggO.defined()) ggO = reshape(ggO, gO.sizes());
  }
  return {gI, gG, ggO};
}

/// The tangents of a norm's backward (gI, gW, gB) from the tangents of grad_out, input and
/// weight (mean and rstd following the input when `follow`, as in the double backward). With
/// g = gO * w, gI = rstd P(g):
///   dgI = drstd P(g) + rstd (dg - mean(dg) - dxhat mean(g xhat) - xhat mean(dg xhat + g dxhat))
/// with dxhat = rstd P(dx), drstd = -rstd mean(xhat dx) * rstd; dgW = sum(dgO xhat + gO dxhat),
/// dgB = sum(dgO). weight_sizes is the shape of gW and gB.
std::tuple<Tensor, Tensor, Tensor> norm_backward_jvp(
    const Tensor& gO, const Tensor& gO_t, const Tensor& input, const Tensor& input_t,
    const Tensor& gamma, const Tensor& gamma_t, const Tensor& mean_, const Tensor& rstd_,
    const NormView& v, bool follow, IntArrayRef weight_sizes, std::array<bool, 3> output_mask) {
  const IntArrayRef view(v.view);
  const Tensor xv = reshape(input, view);
  const auto [mu, r] = view_stats(xv, mean_, rstd_, v, follow);
  const Tensor xhat = (xv - mu) * r;
  const Tensor go = reshape(gO, view), dgo = reshape(gO_t, view), dx = reshape(input_t, view);
  const Tensor w = gamma.defined() ? reshape(gamma, IntArrayRef(v.weight)) : Tensor();
  const Tensor dw =
      gamma.defined() && gamma_t.defined() ? reshape(gamma_t, IntArrayRef(v.weight)) : Tensor();
  const Tensor dxhat = follow ? r * project(dx, xhat, v) : r * dx;
  Tensor gI, gW, gB;
  if (output_mask[0]) {
    const Tensor g = w.defined() ? go * w : go;
    Tensor dg = w.defined() ? dgo * w : dgo;
    if (dw.defined()) dg = dg + go * dw;
    if (follow) {
      const Tensor sg = set_mean(g * xhat, v);
      const Tensor drstd = -r * r * set_mean(xhat * dx, v);
      gI = drstd * (g - set_mean(g, v) - xhat * sg) +
           r * (dg - set_mean(dg, v) - dxhat * sg - xhat * set_mean(dg * xhat + g * dxhat, v));
    } else {
      gI = dg * r;
    }
    gI = reshape(gI, input.sizes());
  }
  if (output_mask[1] && gamma.defined()) {
    gW = reshape(sum(dgo * xhat + go * dxhat, IntArrayRef(v.weight_dims), false), weight_sizes);
  }
  if (output_mask[2]) gB = reshape(sum(dgo, IntArrayRef(v.weight_dims), false), weight_sizes);
  return {gI, gW, gB};
}

}  // namespace

// ---------------------------------------------------------------------------
// Layer norm
// ---------------------------------------------------------------------------

std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_jvp(
    const Tensor& grad_out_p, const Tensor& grad_out_t, const Tensor& input_p,
    const Tensor& input_t, const std::optional<Tensor>& weight_p, const Tensor& weight_t,
    const std::optional<Tensor>& bias_p, const Tensor& mean, const Tensor& rstd,
    IntArrayRef normalized_shape, std::array<bool, 3> output_mask) {
  output_mask[2] = output_mask[2] && defined_or_undefined(bias_p).defined();
  return norm_backward_jvp(grad_out_p, grad_out_t, input_p, input_t, defined_or_undefined(weight_p),
                           weight_t, mean, rstd, layer_norm_view(input_p, normalized_shape), true,
                           normalized_shape, output_mask);
}

Tensor layer_norm_jvp(const Tensor& input_p, const Tensor& input_t,
                      const std::optional<Tensor>& weight_p, const Tensor& weight_t,
                      const std::optional<Tensor>& bias_p, const Tensor& bias_t,
                      const Tensor& saved_mean, const Tensor& saved_invstd,
                      IntArrayRef normalized_shape) {
  (void)bias_p;
  return norm_jvp(input_p, input_t, defined_or_undefined(weight_p), weight_t, bias_t, saved_mean,
                  saved_invstd, layer_norm_view(input_p, normalized_shape), true);
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_double_backward(
    const Tensor& input, const std::optional<Tensor>& gamma, const Tensor& ggI, const Tensor& ggG,
    const Tensor& ggB, const Tensor& gO, const Tensor& save_mean, const Tensor& save_invstd,
    IntArrayRef normalized_shape, std::array<bool, 3> output_mask) {
  return norm_double_backward(input, defined_or_undefined(gamma), ggI, ggG, ggB, gO, save_mean,
                              save_invstd, layer_norm_view(input, normalized_shape), true,
                              output_mask);
}

// ---------------------------------------------------------------------------
// Batch norm
// ---------------------------------------------------------------------------

namespace {

/// The statistics batch norm normalized with: the saved batch ones when training, else the
/// running mean and 1 / sqrt(running_var + eps).
std::pair<Tensor, Tensor> batch_norm_stats(const std::optional<Tensor>& running_mean,
                                           const std::optional<Tensor>& running_var,
                                           const Tensor& save_mean, const Tensor& save_invstd,
                                           bool train, double eps) {
  if (train) return {save_mean, save_invstd};
  const Tensor rm = defined_or_undefined(running_mean), rv = defined_or_undefined(running_var);
  if (!rm.defined() || !rv.defined()) {
    throw std::invalid_argument(
        "native_batch_norm: running_mean and running_var must be defined in evaluation mode");
  }
  return {rm, rsqrt(rv + eps)};
}

}  // namespace

Tensor batch_norm_jvp(const Tensor& input_p, const Tensor& input_t,
                      const std::optional<Tensor>& weight_p, const Tensor& weight_t,
                      const std::optional<Tensor>& bias_p, const Tensor& bias_t,
                      const std::optional<Tensor>& running_mean,
                      const std::optional<Tensor>& running_var, const Tensor& saved_mean,
                      const Tensor& saved_invstd, bool train, double eps) {
  (void)bias_p;
  auto [m, r] = batch_norm_stats(running_mean, running_var, saved_mean, saved_invstd, train, eps);
  return norm_jvp(input_p, input_t, defined_or_undefined(weight_p), weight_t, bias_t, m, r,
                  batch_norm_view(input_p), train);
}

std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_jvp(
    const Tensor& grad_out_p, const Tensor& grad_out_t, const Tensor& input_p,
    const Tensor& input_t, const std::optional<Tensor>& weight_p, const Tensor& weight_t,
    const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
    const std::optional<Tensor>& save_mean, const std::optional<Tensor>& save_invstd, bool train,
    double eps, std::array<bool, 3> output_mask) {
  auto [m, r] = batch_norm_stats(running_mean, running_var, defined_or_undefined(save_mean),
                                 defined_or_undefined(save_invstd), train, eps);
  return norm_backward_jvp(grad_out_p, grad_out_t, input_p, input_t, defined_or_undefined(weight_p),
                           weight_t, m, r, batch_norm_view(input_p), train, {input_p.size(1)},
                           output_mask);
}

std::tuple<Tensor, Tensor, Tensor> batchnorm_double_backward(
    const Tensor& input, const std::optional<Tensor>& gamma, const Tensor& ggI, const Tensor& ggG,
    const Tensor& ggB, const Tensor& gO, const std::optional<Tensor>& running_mean,
    const std::optional<Tensor>& running_var, bool train, double eps,
    const std::optional<Tensor>& save_mean, const std::optional<Tensor>& save_invstd,
    std::array<bool, 3> output_mask) {
  auto [m, r] = batch_norm_stats(running_mean, running_var, defined_or_undefined(save_mean),
                                 defined_or_undefined(save_invstd), train, eps);
  return norm_double_backward(input, defined_or_undefined(gamma), ggI, ggG, ggB, gO, m, r,
                              batch_norm_view(input), train, output_mask);
}

// ---------------------------------------------------------------------------
// Group norm
// ---------------------------------------------------------------------------

namespace {

NormView group_norm_view_of(const Tensor& input, int64_t group) {
  return group_norm_view(input.size(0), input.size(1), product(input.sizes(), 2), group);
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward_dispatcher(
    const Tensor& dY, const Tensor& dmean, const Tensor& drstd, const Tensor& X, const Tensor& mean,
    const Tensor& rstd, const std::optional<Tensor>& gamma, int64_t N, int64_t C, int64_t HxW,
    int64_t group, std::array<bool, 3> grad_input_mask) {
  Tensor gI, gW, gB;
  if (dY.defined()) {
    // mean and rstd detached: native_group_norm_backward's own double backward takes them as
    // functions of X (following them through native_group_norm too would count that twice).
    std::tie(gI, gW, gB) = native_group_norm_backward(dY, X, mean.detach(), rstd.detach(), gamma, N,
                                                      C, HxW, group, grad_input_mask);
  }
  if (grad_input_mask[0] && (dmean.defined() || drstd.defined())) {
    // mean = sum(x) / M and rstd = (mean((x - mean)^2) + eps)^(-1/2) per (sample, group):
    // d mean / dx = 1 / M, d rstd / dx = -rstd^3 (x - mean) / M.
    const int64_t M = (C / group) * HxW;
    const std::vector<int64_t> view = {N, group, M}, stat = {N, group, 1};
    Tensor extra;
    if (dmean.defined()) extra = expand(reshape(dmean, IntArrayRef(stat)) / M, IntArrayRef(view));
    if (drstd.defined()) {
      const Tensor r = reshape(rstd, IntArrayRef(stat));
      extra =
          add_defined(extra,
                      -reshape(drstd, IntArrayRef(stat)) * r * r * r *
                          (reshape(X, IntArrayRef(view)) - reshape(mean, IntArrayRef(stat))) / M);
    }
    gI = add_defined(gI, reshape(extra, X.sizes()));
  }
  return {gI, gW, gB};
}

Tensor group_norm_jvp(const Tensor& input_p, const Tensor& input_t,
                      const std::optional<Tensor>& weight_p, const Tensor& weight_t,
                      const std::optional<Tensor>& bias_p, const Tensor& bias_t, const Tensor& mean,
                      const Tensor& rstd, int64_t groups) {
  (void)bias_p;
  return norm_jvp(input_p, input_t, defined_or_undefined(weight_p), weight_t, bias_t, mean, rstd,
                  group_norm_view_of(input_p, groups), true);
}

Tensor group_norm_mean_jvp(const Tensor& input_t, const Tensor& mean, int64_t groups) {
  const int64_t N = input_t.size(0), M = product(input_t.sizes(), 1) / groups;
  return reshape(gradgen::mean(reshape(input_t, {N, groups, M}), IntArrayRef({2}), false),
                 mean.sizes());
}

Tensor group_norm_invstd_jvp(const Tensor& input_p, const Tensor& input_t, const Tensor& mean,
                             const Tensor& rstd, int64_t groups) {
  const int64_t N = input_p.size(0), M = product(input_p.sizes(), 1) / groups;
  const std::vector<int64_t> view = {N, groups, M}, stat = {N, groups, 1};
  const Tensor r = reshape(rstd, IntArrayRef(stat));
  const Tensor centered = reshape(input_p, IntArrayRef(view)) - reshape(mean, IntArrayRef(stat));
  return reshape(-(r * r * r) * gradgen::mean(centered * reshape(input_t, IntArrayRef(view)),
                                              IntArrayRef({2}), true),
                 rstd.sizes());
}

std::tuple<Tensor, Tensor, Tensor> group_norm_backward_jvp(
    const Tensor& grad_out_p, const Tensor& grad_out_t, const Tensor& input_p,
    const Tensor& input_t, const std::optional<Tensor>& weight_p, const Tensor& weight_t,
    const Tensor& mean, const Tensor& rstd, int64_t N, int64_t C, int64_t HxW, int64_t group,
    std::array<bool, 3> output_mask) {
  return norm_backward_jvp(grad_out_p, grad_out_t, input_p, input_t, defined_or_undefined(weight_p),
                           weight_t, mean, rstd, group_norm_view(N, C, HxW, group), true, {C},
                           output_mask);
}

std::tuple<Tensor, Tensor, Tensor> group_norm_double_backward(
    const Tensor& input, const std::optional<Tensor>& gamma, const Tensor& ggI, const Tensor& ggG,
    const Tensor& ggB, const Tensor& gO, const Tensor& mean, const Tensor& rstd, int64_t N,
    int64_t C, int64_t HxW, int64_t group, std::array<bool, 3> output_mask) {
  return norm_double_backward(input, defined_or_undefined(gamma), ggI, ggG, ggB, gO, mean, rstd,
                              group_norm_view(N, C, HxW, group), true, output_mask);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
