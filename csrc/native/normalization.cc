// Kernels of the normalization ops (nn, second batch): native_layer_norm, native_group_norm and
// native_batch_norm with their backward ops, and the composites layer_norm, group_norm,
// batch_norm and rms_norm.
//
// Layer norm and group norm normalize contiguous blocks of the (contiguous) input: layer norm's
// rows of prod(normalized_shape) elements, group norm's (sample, group) blocks of C / group
// channels by HxW; both are the "block" loops below, with the weight indexed by the channel
// (group norm) or the position in the row (layer norm, where a row is one block of D = M
// "channels" of one element each). Batch norm normalizes each channel of [N, C, S] over N and S.
// Statistics are stored in the input's dtype. Layer norm's rows and batch norm's channels run in
// the vectorized kernels of csrc/native/simd/nn_kernels.h (sums in the input's precision within
// blocks, added in double), split across the intra-op threads (rows, channels) so that every
// result is the same whatever the thread count; group norm runs the block loops below, in double.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/gemm.h"
#include "csrc/native/loops.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/simd/nn_kernels.h"
#include "csrc/native/type_promotion.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::in_composite_op;

/// An optional tensor that is present and defined, made contiguous; else undefined.
Tensor present(const std::optional<Tensor>& t) {
  return t.has_value() && t->defined() ? t->contiguous() : Tensor();
}

std::string sizes_str(IntArrayRef s) { return shape_str(s); }

void check_floating(const char* op, const Tensor& t, const char* name) {
  if (t.scalar_type() != ScalarType::Float && t.scalar_type() != ScalarType::Double) {
    throw std::invalid_argument(std::string(op) + ": expected " + name +
                                " to be a floating point tensor (Float or Double), got " +
                                to_string(t.scalar_type()));
  }
}

void check_same_dtype(const char* op, const Tensor& input, const Tensor& t, const char* name) {
  if (t.defined() && t.scalar_type() != input.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": expected " + name + " of dtype " +
                                to_string(input.scalar_type()) + " (the input's), got " +
                                to_string(t.scalar_type()));
  }
}

void check_numel(const char* op, const Tensor& t, const char* name, int64_t n) {
  if (t.defined() && t.numel() != n) {
    throw std::invalid_argument(std::string(op) + ": Expected " + name + " to have " +
                                std::to_string(n) + " elements, but got " + name + " of shape " +
                                sizes_str(t.sizes()));
  }
}

// ---------------------------------------------------------------------------
// The block loops (layer norm, group norm): `blocks` blocks of D channels by S elements; the
// weight and bias have G * D entries, block b using entries (b % G) * D + d.
// ---------------------------------------------------------------------------

struct Blocks {
  int64_t blocks, G, D, S;
};

template <typename T>
void block_forward(const Blocks& k, const T* x, const T* w, const T* b, double eps, T* y, T* mean,
                   T* rstd) {
  const int64_t M = k.D * k.S;
  for (int64_t blk = 0; blk < k.blocks; ++blk) {
    const T* xb = x + blk * M;
    T* yb = y + blk * M;
    double sum = 0;
    for (int64_t i = 0; i < M; ++i) sum += xb[i];
    const double mu = M > 0 ? sum / M : 0;
    double sq = 0;
    for (int64_t i = 0; i < M; ++i) sq += (xb[i] - mu) * (xb[i] - mu);
    const double r = 1 / std::sqrt((M > 0 ? sq / M : 0) + eps);
    mean[blk] = static_cast<T>(mu);
    rstd[blk] = static_cast<T>(r);
    const int64_t c0 = (blk % k.G) * k.D;
    for (int64_t d = 0; d < k.D; ++d) {
      const double scale = r * (w ? static_cast<double>(w[c0 + d]) : 1.0);
      const double shift = (b ? static_cast<double>(b[c0 + d]) : 0.0) - mu * scale;
      const T s = static_cast<T>(scale), h = static_cast<T>(shift);
      const T* xd = xb + d * k.S;
      T* yd = yb + d * k.S;
      for (int64_t i = 0; i < k.S; ++i) yd[i] = xd[i] * s + h;
    }
  }
}

/// gx = rstd (g - mean(g) - xhat mean(g xhat)) with g = go * w per block; gw and gb (G * D
/// entries, accumulated in double) sum go * xhat and go over the blocks and S.
template <typename T>
void block_backward(const Blocks& k, const T* go, const T* x, const T* mean, const T* rstd,
                    const T* w, T* gx, std::vector<double>* gw, std::vector<double>* gb) {
  const int64_t M = k.D * k.S;
  for (int64_t blk = 0; blk < k.blocks; ++blk) {
    const T* xb = x + blk * M;
    const T* gob = go + blk * M;
    const double mu = mean[blk], r = rstd[blk];
    const int64_t c0 = (blk % k.G) * k.D;
    double s1 = 0, s2 = 0;  // sums of g and of g * xhat
    for (int64_t d = 0; d < k.D; ++d) {
      const double wd = w ? static_cast<double>(w[c0 + d]) : 1.0;
      double a = 0, bsum = 0;  // sums of go and go * xhat in this channel
      for (int64_t i = 0; i < k.S; ++i) {
        const double g = gob[d * k.S + i];
        a += g;
        bsum += g * (xb[d * k.S + i] - mu) * r;
      }
      s1 += a * wd;
      s2 += bsum * wd;
      if (gw) (*gw)[static_cast<size_t>(c0 + d)] += bsum;
      if (gb) (*gb)[static_cast<size_t>(c0 + d)] += a;
    }
    if (!gx) continue;
    T* gxb = gx + blk * M;
    const double m1 = M > 0 ? s1 / M : 0, m2 = M > 0 ? s2 / M : 0;
    for (int64_t d = 0; d < k.D; ++d) {
      const double wd = w ? static_cast<double>(w[c0 + d]) : 1.0;
      for (int64_t i = 0; i < k.S; ++i) {
        const int64_t j = d * k.S + i;
        const double xhat = (xb[j] - mu) * r;
        gxb[j] = static_cast<T>(r * (gob[j] * wd - m1 - xhat * m2));
      }
    }
  }
}

/// Layer norm's backward over `rows` rows of m: the rows cut into at most 8 chunks of a multiple
/// of 16 rows, a count that depends on the sizes only; the chunks run on the intra-op threads,
/// each adding into gw / gb slots of its own, which are summed in chunk order after.
template <typename T>
void layer_norm_backward_chunks(const T* go, const T* x, const T* mean, const T* rstd, const T* w,
                                T* gx, std::vector<double>* gw, std::vector<double>* gb,
                                int64_t rows, int64_t m) {
  constexpr int64_t kMaxChunks = 8, kRowAlign = 16;
  const int64_t chunk =
      (std::max(kRowAlign, (rows + kMaxChunks - 1) / kMaxChunks) + kRowAlign - 1) / kRowAlign *
      kRowAlign;
  const int64_t chunks = rows == 0 ? 0 : (rows + chunk - 1) / chunk;
  const size_t slot = static_cast<size_t>(m);
  // One chunk adds straight into gw / gb.
  std::vector<double> pw(gw && chunks > 1 ? static_cast<size_t>(chunks) * slot : 0);
  std::vector<double> pb(gb && chunks > 1 ? static_cast<size_t>(chunks) * slot : 0);
  double* pwp = gw ? (chunks > 1 ? pw.data() : gw->data()) : nullptr;
  double* pbp = gb ? (chunks > 1 ? pb.data() : gb->data()) : nullptr;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(chunk * m, 1));
  parallel_for(chunks, grain, 1, [=](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t r0 = c * chunk, n = std::min(rows - r0, chunk);
      const int64_t o = chunks > 1 ? c * m : 0;
      vec::layer_norm_backward_rows(go + r0 * m, x + r0 * m, mean + r0, rstd + r0, w,
                                    gx ? gx + r0 * m : nullptr, pwp ? pwp + o : nullptr,
                                    pbp ? pbp + o : nullptr, n, m);
    }
  });
  if (chunks <= 1) return;
  for (auto [acc, parts] :
       {std::pair<std::vector<double>*, const std::vector<double>*>{gw, &pw}, {gb, &pb}}) {
    if (!acc) continue;
    for (int64_t c = 0; c < chunks; ++c) {
      const double* part = parts->data() + c * m;
      for (int64_t j = 0; j < m; ++j) (*acc)[static_cast<size_t>(j)] += part[j];
    }
  }
}

/// A Tensor of `sizes` holding `v` (doubles) in dtype.
Tensor from_doubles(const std::vector<double>& v, IntArrayRef sizes, ScalarType dtype) {
  Tensor t = make_tensor(sizes, dtype);
  gradgen::internal::dispatch_floating(dtype, "norm", [&](auto tag) {
    using T = decltype(tag);
    T* p = t.data_ptr<T>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<T>(v[i]);
  });
  return t;
}

std::tuple<Tensor, Tensor, Tensor> blocks_forward(const char* op, const Tensor& input,
                                                  const Tensor& w, const Tensor& b, const Blocks& k,
                                                  double eps, IntArrayRef stat_sizes) {
  const Tensor x = input.contiguous();
  Tensor y = make_tensor(input.sizes(), input.scalar_type());
  Tensor mean = make_tensor(stat_sizes, input.scalar_type());
  Tensor rstd = make_tensor(stat_sizes, input.scalar_type());
  gradgen::internal::dispatch_floating(input.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
    const T* bp = b.defined() ? b.data_ptr<T>() : nullptr;
    if (k.G == 1 && k.S == 1) {
      // Layer norm: blocks are rows of D single elements; the vectorized row kernel, rows split
      // across the threads (each row on its own: the split changes nothing).
      const int64_t m = k.D;
      const T* px = x.data_ptr<T>();
      T* py = y.data_ptr<T>();
      T* pm = mean.data_ptr<T>();
      T* pr = rstd.data_ptr<T>();
      parallel_for(k.blocks, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(m, 1)), 1,
                   [=](int64_t r0, int64_t r1) {
                     vec::layer_norm_rows(px + r0 * m, wp, bp, eps, py + r0 * m, pm + r0, pr + r0,
                                          r1 - r0, m);
                   });
      return;
    }
    block_forward<T>(k, x.data_ptr<T>(), wp, bp, eps, y.data_ptr<T>(), mean.data_ptr<T>(),
                     rstd.data_ptr<T>());
  });
  return {y, mean, rstd};
}

std::tuple<Tensor, Tensor, Tensor> blocks_backward(const char* op, const Tensor& grad_out,
                                                   const Tensor& input, const Tensor& mean,
                                                   const Tensor& rstd, const Tensor& w,
                                                   const Blocks& k, IntArrayRef weight_sizes,
                                                   std::array<bool, 3> mask) {
  if (!grad_out.sizes().equals(input.sizes())) {
    throw std::invalid_argument(std::string(op) + ": expected grad_out of the input's shape " +
                                sizes_str(input.sizes()) + ", got " + sizes_str(grad_out.sizes()));
  }
  if (mean.numel() != k.blocks || rstd.numel() != k.blocks) {
    throw std::invalid_argument(
        std::string(op) + ": expected mean and rstd of " + std::to_string(k.blocks) +
        " elements, got " + std::to_string(mean.numel()) + " and " + std::to_string(rstd.numel()));
  }
  check_same_dtype(op, input, grad_out, "grad_out");
  check_same_dtype(op, input, mean, "mean");
  check_same_dtype(op, input, rstd, "rstd");
  const Tensor go = grad_out.contiguous(), x = input.contiguous(), m = mean.contiguous(),
               r = rstd.contiguous();
  Tensor gx = mask[0] ? make_tensor(input.sizes(), input.scalar_type()) : Tensor();
  const bool want_w = mask[1] && w.defined();
  const size_t nw = static_cast<size_t>(k.G * k.D);
  std::vector<double> gw(want_w ? nw : 0), gb(mask[2] ? nw : 0);
  gradgen::internal::dispatch_floating(input.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
    T* gxp = gx.defined() ? gx.data_ptr<T>() : nullptr;
    if (k.G == 1 && k.S == 1) {
      layer_norm_backward_chunks<T>(go.data_ptr<T>(), x.data_ptr<T>(), m.data_ptr<T>(),
                                    r.data_ptr<T>(), wp, gxp, want_w ? &gw : nullptr,
                                    mask[2] ? &gb : nullptr, k.blocks, k.D);
      return;
    }
    block_backward<T>(k, go.data_ptr<T>(), x.data_ptr<T>(), m.data_ptr<T>(), r.data_ptr<T>(), wp,
                      gxp, want_w ? &gw : nullptr, mask[2] ? &gb : nullptr);
  });
  return {gx, want_w ? from_doubles(gw, weight_sizes, input.scalar_type()) : Tensor(),
          mask[2] ? from_doubles(gb, weight_sizes, input.scalar_type()) : Tensor()};
}

/// Layer norm's checks (PyTorch's messages); returns (rows, M).
std::pair<int64_t, int64_t> layer_norm_rows(const char* op, const Tensor& input,
                                            IntArrayRef normalized_shape, const Tensor& w,
                                            const Tensor& b) {
  const int64_t nd = static_cast<int64_t>(normalized_shape.size());
  if (nd < 1) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected normalized_shape to be at least 1-dimensional, i.e., "
                                "containing at least one element, but got normalized_shape = " +
                                sizes_str(normalized_shape));
  }
  for (const char* which : {"weight", "bias"}) {
    const Tensor& t = std::string(which) == "weight" ? w : b;
    if (t.defined() && !t.sizes().equals(normalized_shape)) {
      throw std::invalid_argument(std::string(op) + ": Expected " + which +
                                  " to be of same shape as normalized_shape, but got " + which +
                                  " of shape " + sizes_str(t.sizes()) +
                                  " and normalized_shape = " + sizes_str(normalized_shape));
    }
  }
  const int64_t axis = input.dim() - nd;
  bool ok = axis >= 0;
  for (int64_t i = 0; ok && i < nd; ++i) ok = input.size(axis + i) == normalized_shape[i];
  if (!ok) {
    std::string expected = "[*";
    for (int64_t s : normalized_shape) expected += ", " + std::to_string(s);
    throw std::invalid_argument(std::string(op) + ": Given normalized_shape=" +
                                sizes_str(normalized_shape) + ", expected input with shape " +
                                expected + "], but got input of size" + sizes_str(input.sizes()));
  }
  int64_t M = 1;
  for (int64_t s : normalized_shape) M *= s;
  int64_t R = 1;
  for (int64_t i = 0; i < axis; ++i) R *= input.size(i);
  return {R, M};
}

/// mean / rstd's shape for layer norm: the leading dims, then 1 per normalized dim.
DimVector layer_norm_stat_sizes(const Tensor& input, int64_t nd) {
  DimVector s(input.sizes().begin(), input.sizes().end());
  for (int64_t i = 0; i < nd; ++i) s[s.size() - 1 - static_cast<size_t>(i)] = 1;
  return s;
}

/// Group norm's checks; returns the blocks.
Blocks group_norm_blocks(const char* op, const Tensor& input, const Tensor& w, const Tensor& b,
                         int64_t N, int64_t C, int64_t HxW, int64_t group) {
  if (group <= 0 || C % group != 0) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected number of channels in input to be divisible by "
                                "num_groups, but got input of shape " +
                                sizes_str(input.sizes()) +
                                " and num_groups=" + std::to_string(group));
  }
  if (input.numel() != N * C * HxW) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected input of N * C * HxW = " + std::to_string(N * C * HxW) +
                                " elements, got " + sizes_str(input.sizes()));
  }
  check_numel(op, w, "weight", C);
  check_numel(op, b, "bias", C);
  return {N * group, group, C / group, HxW};
}

}  // namespace

// ---------------------------------------------------------------------------
// Layer norm
// ---------------------------------------------------------------------------

std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input,
                                                     IntArrayRef normalized_shape,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias,
                                                     double eps) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(native_layer_norm, input, normalized_shape, weight, bias, eps);
  const char* op = "native_layer_norm";
  check_floating(op, input, "input");
  const Tensor w = present(weight), b = present(bias);
  check_same_dtype(op, input, w, "weight");
  check_same_dtype(op, input, b, "bias");
  auto [R, M] = layer_norm_rows(op, input, normalized_shape, w, b);
  return blocks_forward(op, input, w, b, {R, 1, M, 1}, eps,
                        layer_norm_stat_sizes(input,
                                              static_cast<int64_t>(normalized_shape.size())));
}

std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(
    const Tensor& grad_out, const Tensor& input, IntArrayRef normalized_shape, const Tensor& mean,
    const Tensor& rstd, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    std::array<bool, 3> output_mask) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(native_layer_norm_backward, grad_out, input, normalized_shape,
                                   mean, rstd, weight, bias, output_mask);
  const char* op = "native_layer_norm_backward";
  check_floating(op, input, "input");
  const Tensor w = present(weight), b = present(bias);
  check_same_dtype(op, input, w, "weight");
  auto [R, M] = layer_norm_rows(op, input, normalized_shape, w, b);
  // grad_bias only where a bias exists, as PyTorch (its CPU kernel leaves it undefined).
  output_mask[2] = output_mask[2] && b.defined();
  return blocks_backward(op, grad_out, input, mean, rstd, w, {R, 1, M, 1}, normalized_shape,
                         output_mask);
}

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                  const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  double eps, bool cudnn_enable) {
  (void)cudnn_enable;
  return in_composite_op("layer_norm", [&] {
    return std::get<0>(gradgen::native_layer_norm(input, normalized_shape, weight, bias, eps));
  });
}

// ---------------------------------------------------------------------------
// Group norm
// ---------------------------------------------------------------------------

std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, int64_t N,
                                                     int64_t C, int64_t HxW, int64_t group,
                                                     double eps) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(native_group_norm, input, weight, bias, N, C, HxW, group, eps);
  const char* op = "native_group_norm";
  check_floating(op, input, "input");
  const Tensor w = present(weight), b = present(bias);
  check_same_dtype(op, input, w, "weight");
  check_same_dtype(op, input, b, "bias");
  const Blocks k = group_norm_blocks(op, input, w, b, N, C, HxW, group);
  return blocks_forward(op, input, w, b, k, eps, {N, group});
}

std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward(
    const Tensor& grad_out, const Tensor& input, const Tensor& mean, const Tensor& rstd,
    const std::optional<Tensor>& weight, int64_t N, int64_t C, int64_t HxW, int64_t group,
    std::array<bool, 3> output_mask) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(native_group_norm_backward, grad_out, input, mean, rstd, weight,
                                   N, C, HxW, group, output_mask);
  const char* op = "native_group_norm_backward";
  check_floating(op, input, "input");
  const Tensor w = present(weight);
  check_same_dtype(op, input, w, "weight");
  const Blocks k = group_norm_blocks(op, input, w, Tensor(), N, C, HxW, group);
  return blocks_backward(op, grad_out, input, mean, rstd, w, k, {C}, output_mask);
}

Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool cudnn_enabled) {
  (void)cudnn_enabled;
  return in_composite_op("group_norm", [&] {
    if (input.dim() < 2) {
      throw std::invalid_argument("Expected at least 2 dimensions for input tensor but received " +
                                  std::to_string(input.dim()));
    }
    const int64_t N = input.size(0), C = input.size(1);
    if (num_groups <= 0 || C % num_groups != 0) {
      throw std::invalid_argument(
          "Expected number of channels in input to be divisible by num_groups, but got input of "
          "shape " +
          shape_str(input.sizes()) + " and num_groups=" + std::to_string(num_groups));
    }
    for (const auto* t : {&weight, &bias}) {
      if (t->has_value() && (*t)->defined() && ((*t)->dim() != 1 || (*t)->numel() != C)) {
        throw std::invalid_argument(std::string("Expected ") + (t == &weight ? "weight" : "bias") +
                                    " to be a vector of size equal to the number of channels in "
                                    "input, but got " +
                                    (t == &weight ? "weight" : "bias") + " of shape " +
                                    shape_str((*t)->sizes()) + " and input of shape " +
                                    shape_str(input.sizes()));
      }
    }
    int64_t HxW = 1;
    for (int64_t d = 2; d < input.dim(); ++d) HxW *= input.size(d);
    return std::get<0>(gradgen::native_group_norm(input, weight, bias, N, C, HxW, num_groups, eps));
  });
}

// ---------------------------------------------------------------------------
// Batch norm: [N, C, S], each channel over N and S
// ---------------------------------------------------------------------------

namespace {

struct Channels {
  int64_t N, C, S;
};

Channels batch_norm_channels(const char* op, const Tensor& input) {
  if (input.dim() < 2) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected input of at least 2 dims ([N, C, ...]), got " +
                                sizes_str(input.sizes()));
  }
  int64_t S = 1;
  for (int64_t d = 2; d < input.dim(); ++d) S *= input.size(d);
  return {input.size(0), input.size(1), S};
}

/// Reads element c of a 1-D tensor of any stride, as double.
template <typename T>
double at(const Tensor& t, int64_t c) {
  return static_cast<double>(t.data_ptr<T>()[c * t.stride(0)]);
}

/// The parameters and running statistics: input's dtype, C elements each, and the running
/// statistics given in evaluation mode.
void check_batch_norm_args(const char* op, const Tensor& input, const Channels& k, const Tensor& w,
                           const Tensor& b, const Tensor& rm, const Tensor& rv, bool training) {
  for (const auto& [t, name] : {std::pair<const Tensor&, const char*>{w, "weight"},
                                {b, "bias"},
                                {rm, "running_mean"},
                                {rv, "running_var"}}) {
    check_same_dtype(op, input, t, name);
    if (t.defined() && (t.dim() != 1 || t.numel() != k.C)) {
      throw std::invalid_argument(std::string(op) + ": " + name + " should contain " +
                                  std::to_string(k.C) + " elements not " +
                                  std::to_string(t.numel()));
    }
  }
  if (!training && (!rm.defined() || !rv.defined())) {
    throw std::invalid_argument(std::string(op) +
                                ": running_mean and running_var must be defined in evaluation "
                                "mode (training=False)");
  }
}

/// Channels per intra-op thread: at least kParallelGrain elements each.
int64_t channel_grain(int64_t per_channel) {
  return std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(per_channel, 1));
}

/// Running statistics: an exponential average, the variance unbiased (as PyTorch).
template <typename T>
void update_running_stats(const Tensor& rm, const Tensor& rv, int64_t c, double momentum, double mu,
                          double sq, int64_t count) {
  if (rm.defined()) {
    T* p = rm.data_ptr<T>() + c * rm.stride(0);
    *p = static_cast<T>((1 - momentum) * *p + momentum * mu);
  }
  if (rv.defined()) {
    const double unbiased = count > 1 ? sq / (count - 1) : INFINITY;
    T* p = rv.data_ptr<T>() + c * rv.stride(0);
    *p = static_cast<T>((1 - momentum) * *p + momentum * unbiased);
  }
}

// Writes the float32 running statistic `src` back into the 16-bit one `dst` (1-D, any stride),
// rounded, in place and without a version bump, as the kernel's own update.
void write_back(const std::optional<Tensor>& dst, const std::optional<Tensor>& src) {
  if (!dst.has_value() || !dst->defined()) return;
  const Tensor rounded = cast(*src, dst->scalar_type()).contiguous();
  gradgen::internal::dispatch_all(dst->scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    T* to = dst->data_ptr<T>();
    const T* from = rounded.data_ptr<T>();
    for (int64_t i = 0; i < dst->numel(); ++i) to[i * dst->stride(0)] = from[i];
  });
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> native_batch_norm(const Tensor& input,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias,
                                                     const std::optional<Tensor>& running_mean,
                                                     const std::optional<Tensor>& running_var,
                                                     bool training, double momentum, double eps) {
  if (const auto dtype = reduced_float_dtype(input, weight, bias, running_mean, running_var)) {
    // float16 / bfloat16: the float32 kernel, which updates float32 copies of the running
    // statistics; those are written back, rounded (PyTorch's kernel updates them in place).
    const std::optional<Tensor> rm = reduced_float::widen(*dtype, running_mean);
    const std::optional<Tensor> rv = reduced_float::widen(*dtype, running_var);
    auto result = in_float32(
        *dtype,
        [&](const Tensor& x, const std::optional<Tensor>& w, const std::optional<Tensor>& b) {
          return native::native_batch_norm(x, w, b, rm, rv, training, momentum, eps);
        },
        input, weight, bias);
    if (training) {
      write_back(running_mean, rm);
      write_back(running_var, rv);
    }
    return result;
  }
  const char* op = "native_batch_norm";
  check_floating(op, input, "input");
  const Channels k = batch_norm_channels(op, input);
  const Tensor w = present(weight), b = present(bias);
  // The running statistics are written in place: used as given (strided), not copied.
  const Tensor rm = running_mean.has_value() && running_mean->defined() ? *running_mean : Tensor();
  const Tensor rv = running_var.has_value() && running_var->defined() ? *running_var : Tensor();
  check_batch_norm_args(op, input, k, w, b, rm, rv, training);
  const Tensor x = input.contiguous();
  Tensor y = make_tensor(input.sizes(), input.scalar_type());
  Tensor save_mean = make_tensor({training ? k.C : 0}, input.scalar_type());
  Tensor save_invstd = make_tensor({training ? k.C : 0}, input.scalar_type());
  const int64_t count = k.N * k.S;
  gradgen::internal::dispatch_floating(input.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* py = y.data_ptr<T>();
    // Channels split across the threads (each one on its own: the split changes nothing).
    parallel_for(k.C, channel_grain(count), 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        // Channel c: N planes of S elements, C * S apart.
        const T* pc = px + c * k.S;
        double mu, invstd;
        if (training) {
          double sq;
          vec::channel_moments(pc, k.C * k.S, k.N, k.S, &mu, &sq);
          const double var = count > 0 ? sq / count : 0;
          invstd = 1 / std::sqrt(var + eps);
          save_mean.data_ptr<T>()[c] = static_cast<T>(mu);
          save_invstd.data_ptr<T>()[c] = static_cast<T>(invstd);
          update_running_stats<T>(rm, rv, c, momentum, mu, sq, count);
        } else {
          mu = at<T>(rm, c);
          invstd = 1 / std::sqrt(at<T>(rv, c) + eps);
        }
        // y = (x - mean) * invstd * w + b.
        const double scale = invstd * (w.defined() ? static_cast<double>(w.data_ptr<T>()[c]) : 1.0);
        const double shift = b.defined() ? static_cast<double>(b.data_ptr<T>()[c]) : 0.0;
        vec::channel_normalize(pc, py + c * k.S, k.C * k.S, k.N, k.S, static_cast<T>(mu),
                               static_cast<T>(scale), static_cast<T>(shift));
      }
    });
  });
  return {y, save_mean, save_invstd};
}

std::tuple<Tensor, Tensor, Tensor> native_batch_norm_backward(
    const Tensor& grad_out, const Tensor& input, const std::optional<Tensor>& weight,
    const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
    const std::optional<Tensor>& save_mean, const std::optional<Tensor>& save_invstd, bool train,
    double eps, std::array<bool, 3> output_mask) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(native_batch_norm_backward, grad_out, input, weight,
                                   running_mean, running_var, save_mean, save_invstd, train, eps,
                                   output_mask);
  const char* op = "native_batch_norm_backward";
  check_floating(op, input, "input");
  const Channels k = batch_norm_channels(op, input);
  if (!grad_out.sizes().equals(input.sizes())) {
    throw std::invalid_argument(std::string(op) + ": expected grad_out of the input's shape " +
                                sizes_str(input.sizes()) + ", got " + sizes_str(grad_out.sizes()));
  }
  check_same_dtype(op, input, grad_out, "grad_out");
  const Tensor w = present(weight);
  // The statistics the forward normalized with: the saved batch ones, or the running ones.
  const Tensor m = present(train ? save_mean : running_mean);
  const Tensor v = present(train ? save_invstd : running_var);
  const char* mname = train ? "save_mean" : "running_mean";
  const char* vname = train ? "save_invstd" : "running_var";
  if (!m.defined() || !v.defined()) {
    throw std::invalid_argument(std::string(op) + ": " + mname + " and " + vname +
                                " must be defined when train=" + (train ? "True" : "False"));
  }
  for (const auto& [t, name] :
       {std::pair<const Tensor&, const char*>{w, "weight"}, {m, mname}, {v, vname}}) {
    check_same_dtype(op, input, t, name);
    check_numel(op, t, name, k.C);
  }
  const Tensor go = grad_out.contiguous(), x = input.contiguous();
  Tensor gx = output_mask[0] ? make_tensor(input.sizes(), input.scalar_type()) : Tensor();
  const bool want_w = output_mask[1] && w.defined();
  Tensor gw = want_w ? make_tensor({k.C}, input.scalar_type()) : Tensor();
  Tensor gb = output_mask[2] ? make_tensor({k.C}, input.scalar_type()) : Tensor();
  const int64_t count = k.N * k.S;
  gradgen::internal::dispatch_floating(input.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* pg = go.data_ptr<T>();
    const T* px = x.data_ptr<T>();
    // Channels split across the threads (each one on its own: the split changes nothing).
    parallel_for(k.C, channel_grain(count), 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        const T mu = m.data_ptr<T>()[c];
        const double invstd = train ? static_cast<double>(v.data_ptr<T>()[c])
                                    : 1 / std::sqrt(static_cast<double>(v.data_ptr<T>()[c]) + eps);
        const double wc = w.defined() ? static_cast<double>(w.data_ptr<T>()[c]) : 1.0;
        // The sums of go and of go * (x - mean) (times invstd: of go * xhat).
        double sum = 0, dev = 0;
        vec::channel_grad_sums(pg + c * k.S, px + c * k.S, k.C * k.S, k.N, k.S, mu, &sum, &dev);
        const double dot = dev * invstd;
        if (want_w) gw.data_ptr<T>()[c] = static_cast<T>(dot);
        if (gb.defined()) gb.data_ptr<T>()[c] = static_cast<T>(sum);
        if (!gx.defined()) continue;
        // gx = w invstd (go - m1 - xhat m2). Training: the statistics follow the input (m1, m2
        // the means of go and go * xhat); evaluation: constants (m1 = m2 = 0).
        const double m1 = train && count > 0 ? sum / count : 0,
                     m2 = train && count > 0 ? dot / count : 0;
        const double a = wc * invstd;
        vec::channel_grad_input(pg + c * k.S, px + c * k.S, gx.data_ptr<T>() + c * k.S, k.C * k.S,
                                k.N, k.S, mu, static_cast<T>(a), static_cast<T>(-a * invstd * m2),
                                static_cast<T>(-a * m1));
      }
    });
  });
  return {gx, gw, gb};
}

Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                  const std::optional<Tensor>& running_var, bool training, double momentum,
                  double eps, bool cudnn_enabled) {
  (void)cudnn_enabled;
  return in_composite_op("batch_norm", [&] {
    return std::get<0>(gradgen::native_batch_norm(input, weight, bias, running_mean, running_var,
                                                  training, momentum, eps));
  });
}

// ---------------------------------------------------------------------------
// RMS norm (composite)
// ---------------------------------------------------------------------------

Tensor rms_norm(const Tensor& input, IntArrayRef normalized_shape,
                const std::optional<Tensor>& weight, std::optional<double> eps) {
  return in_composite_op("rms_norm", [&] {
    const char* op = "rms_norm";
    if (is_reduced_float(input.scalar_type())) {
      // As PyTorch's composite: float16 / bfloat16 normalized in float32 (eps float32's), the
      // result cast back before the weight multiplies it.
      const Tensor x = gradgen::to(input, ScalarType::Float, false, false, std::nullopt);
      const Tensor out = gradgen::to(gradgen::rms_norm(x, normalized_shape, std::nullopt, eps),
                                     input.scalar_type(), false, false, std::nullopt);
      return weight.has_value() && weight->defined() ? gradgen::mul(out, *weight) : out;
    }
    check_floating(op, input, "input");
    const Tensor w = weight.has_value() && weight->defined() ? *weight : Tensor();
    layer_norm_rows(op, input, normalized_shape, w, Tensor());
    const double e = eps.has_value()
                         ? *eps
                         : (input.scalar_type() == ScalarType::Float
                                ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                : std::numeric_limits<double>::epsilon());
    std::vector<int64_t> dims;
    for (size_t i = 0; i < normalized_shape.size(); ++i) {
      dims.push_back(input.dim() - 1 - static_cast<int64_t>(i));
    }
    const Tensor out =
        gradgen::mul(input, gradgen::rsqrt(gradgen::add(gradgen::mean(gradgen::mul(input, input),
                                                                      IntArrayRef(dims), true),
                                                        e)));
    return w.defined() ? gradgen::mul(out, w) : out;
  });
}

}  // namespace native
}  // namespace gradgen
