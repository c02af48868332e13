// Kernels of the neural-network ops: softmax, log_softmax, the losses (mse_loss,
// nll_loss), embedding, dropout (with a seeded gradgen::Generator), lstm_cell
// (composed of the other kernels), and cumprod.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/gemm.h"
#include "csrc/native/loops.h"
#include "csrc/native/simd/pointwise.h"
#include "csrc/native/simd/vectorized.h"
#include "csrc/native/type_promotion.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_floating;

// log_softmax of a float16 / bfloat16 x (contiguous, not empty) along its last dim as PyTorch's
// vectorized CPU kernel: in float32, but the row's sum of exponentials and its log rounded to
// x's dtype, then x - max - log rounded once.
template <typename R>
Tensor log_softmax_last_dim(const Tensor& x) {
  const Tensor wide = cast(x, ScalarType::Float);
  Tensor out = empty(x.sizes(), ScalarType::Float);
  const int64_t n = x.size(-1), rows = x.numel() / n;
  const float* px = wide.data_ptr<float>();
  float* po = out.data_ptr<float>();
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = px + r * n;
    float mx = in[0];
    for (int64_t k = 1; k < n; ++k) mx = std::max(mx, in[k]);
    float total = 0;
    for (int64_t k = 0; k < n; ++k) total += std::exp(in[k] - mx);
    const float lse = static_cast<float>(R(std::log(static_cast<float>(R(total)))));
    for (int64_t k = 0; k < n; ++k) po[r * n + k] = in[k] - mx - lse;
  }
  return cast(out, x.scalar_type());
}

// softmax (log_softmax when `log`) of x along d, into a fresh tensor.
Tensor softmax_impl(const char* op, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype, bool log) {
  const Tensor x =
      (dtype && *dtype != self.scalar_type() ? to(self, *dtype, false, false, std::nullopt) : self)
          .contiguous();
  // float16 / bfloat16 (given or asked for by dtype=): the float32 kernel, rounded once.
  if (log && x.numel() > 0 && x.dim() > 0 && wrap_dim(dim, x.dim(), op) == x.dim() - 1) {
    if (x.scalar_type() == ScalarType::Half) return log_softmax_last_dim<Half>(x);
    if (x.scalar_type() == ScalarType::BFloat16) return log_softmax_last_dim<BFloat16>(x);
  }
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(softmax_impl, op, x, dim, std::optional<ScalarType>(), log);
  const int64_t d = wrap_dim(dim, x.dim(), op);
  Tensor out = empty(x.sizes(), x.scalar_type());
  dispatch_floating(x.scalar_type(), op, [](auto) {});  // the dtype check, empty or not
  // Nothing to compute; the loops below would read in[0] of an empty dim (outer * inner rows).
  if (x.numel() == 0) return out;
  int64_t outer, size, inner;
  loops::split_around(x.sizes(), d, outer, size, inner);
  dispatch_floating(x.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    if (inner == 1) {
      // Contiguous rows (softmax over the last dim, attention's): the vectorized kernel.
      vec::softmax_rows(px, po, outer, size, log);
      return;
    }
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const T* in = px + o * size * inner + i;
        T* res = po + o * size * inner + i;
        T mx = in[0];
        for (int64_t k = 1; k < size; ++k) mx = std::max(mx, in[k * inner]);
        double total = 0;
        for (int64_t k = 0; k < size; ++k) total += std::exp(in[k * inner] - mx);
        if (log) {
          const T shift = static_cast<T>(mx + std::log(total));
          for (int64_t k = 0; k < size; ++k) res[k * inner] = in[k * inner] - shift;
        } else {
          for (int64_t k = 0; k < size; ++k) {
            res[k * inner] = static_cast<T>(std::exp(in[k * inner] - mx) / total);
          }
        }
      }
    }
  });
  return out;
}

void check_reduction(const char* op, int64_t reduction) {
  if (reduction != Reduction::None && reduction != Reduction::Mean && reduction != Reduction::Sum) {
    throw std::invalid_argument(std::string(op) +
                                ": reduction must be Reduction::None, Mean or "
                                "Sum, got " +
                                std::to_string(reduction));
  }
}

// Sum of (a[i] - b[i])^2 in double: vectorized (pointwise.h) over fixed chunks of
// kParallelGrain elements, split across the intra-op threads, whose sums are added in order, so
// that the bits do not depend on the thread count.
template <typename T>
double sum_squared_difference(const T* a, const T* b, int64_t n) {
  constexpr int64_t kChunk = kParallelGrain;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  if (chunks <= 1) return vec::sum_squared_difference(a, b, n);
  std::vector<double> partial(static_cast<size_t>(chunks));
  parallel_for(chunks, 1, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      const int64_t lo = c * kChunk;
      partial[c] = vec::sum_squared_difference(a + lo, b + lo, std::min(kChunk, n - lo));
    }
  });
  double total = 0;
  for (double p : partial) total += p;
  return total;
}

}  // namespace

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_impl("softmax", self, dim, dtype, false);
}

Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_impl("log_softmax", self, dim, dtype, true);
}

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  check_reduction("mse_loss", reduction);
  if (const auto reduced = reduced_float_dtype(self, target);
      reduced && reduction != Reduction::None) {
    // float16 / bfloat16: each element's loss in float32, rounded, then reduced in the 16-bit
    // dtype, as PyTorch's kernel (a loss tensor, then its reduction).
    const Tensor sq = native::mse_loss(self, target, Reduction::None);
    return reduction == Reduction::Sum ? sum(sq, std::nullopt) : mean(sq, std::nullopt);
  }
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(mse_loss, self, target, reduction);
  // self and target broadcast together (as torch.nn.functional.mse_loss; mse_loss_backward
  // sums each gradient back to its operand's shape).
  const bool floating =
      self.scalar_type() == ScalarType::Float || self.scalar_type() == ScalarType::Double;
  if (reduction != Reduction::None && floating && self.scalar_type() == target.scalar_type() &&
      self.sizes().equals(target.sizes())) {
    // Fused, as PyTorch's kernel: one pass over both operands, no temporaries.
    const Tensor a = self.contiguous(), b = target.contiguous();
    const int64_t n = a.numel();
    double total = 0;
    internal::dispatch_floating(a.scalar_type(), "mse_loss", [&](auto tag) {
      using T = decltype(tag);
      total = sum_squared_difference(a.data_ptr<T>(), b.data_ptr<T>(), n);
    });
    // Mean of no element: 0 / 0, NaN, as PyTorch.
    return full({}, reduction == Reduction::Sum ? total : total / double(n), a.scalar_type());
  }
  const Tensor sq = pow(sub(self, target, 1), 2);
  if (reduction == Reduction::None) return sq;
  return reduction == Reduction::Sum ? sum(sq, std::nullopt) : mean(sq, std::nullopt);
}

namespace {

/// The loss of self seen as [N, C, S] (S: the product of the spatial dims, 1 without) and a
/// target of N * S class indices, its shapes already checked.
Tensor nll_loss_kernel(const char* op, const Tensor& self, const Tensor& target,
                       const std::optional<Tensor>& weight, int64_t reduction,
                       int64_t ignore_index) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(nll_loss_kernel, op, self, target, weight, reduction,
                                   ignore_index);
  check_reduction(op, reduction);
  if (target.scalar_type() != ScalarType::Long) {
    throw std::invalid_argument(std::string(op) + ": expected target of dtype Long, got " +
                                std::string(to_string(target.scalar_type())));
  }
  const bool has_weight = weight.has_value() && weight->defined();
  const int64_t c = self.dim() == 1 ? self.size(0) : self.size(1);
  const int64_t n = self.dim() == 1 ? 1 : self.size(0);
  const int64_t spatial = c == 0 || n == 0 ? 0 : self.numel() / (n * c);
  if (has_weight && (weight->dim() != 1 || weight->size(0) != c)) {
    throw std::invalid_argument(
        std::string(op) +
        ": weight tensor should be defined either for all or no classes: expected weight of "
        "shape [" +
        std::to_string(c) + "], got " + shape_str(weight->sizes()));
  }
  const Tensor x = self.contiguous();
  const Tensor tg = target.contiguous();
  Tensor losses = empty(target.sizes(), self.scalar_type());
  Tensor out;
  dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    const int64_t* pt = tg.data_ptr<int64_t>();
    T* pl = losses.data_ptr<T>();
    double total = 0, total_weight = 0;
    for (int64_t i = 0; i < tg.numel(); ++i) {
      const int64_t t = pt[i];
      if (t == ignore_index) {
        pl[i] = 0;
        continue;
      }
      if (t < 0 || t >= c) {
        throw std::invalid_argument(std::string(op) + ": target " + std::to_string(t) +
                                    " out of range for " + std::to_string(c) + " classes");
      }
      const T w = has_weight ? weight->data_ptr<T>()[t * weight->stride(0)] : T(1);
      // Element (sample i / S, class t, position i % S) of the [N, C, S] input.
      pl[i] = -w * px[(i / spatial * c + t) * spatial + i % spatial];
      total += pl[i];
      total_weight += w;
    }
    if (reduction == Reduction::None) {
      out = losses;
    } else {
      out = empty({}, self.scalar_type());
      out.data_ptr<T>()[0] =
          static_cast<T>(reduction == Reduction::Sum ? total : total / total_weight);
    }
  });
  return out;
}

}  // namespace

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                int64_t reduction, int64_t ignore_index) {
  const bool batched = self.dim() == 2;
  if ((self.dim() != 1 && self.dim() != 2) || target.dim() != self.dim() - 1 ||
      (batched && target.size(0) != self.size(0))) {
    // PyTorch's nll_loss takes [C] and [N, C] only; nll_loss_nd (torch.nn.functional.nll_loss)
    // the K-dimensional [N, C, d1, ..., dK].
    throw std::invalid_argument(
        "nll_loss: expected self of shape [N, C] and target of shape [N] (or [C] and []; "
        "nll_loss_nd takes [N, C, d1, ..., dK]), got " +
        shape_str(self.sizes()) + " and " + shape_str(target.sizes()));
  }
  return nll_loss_kernel("nll_loss", self, target, weight, reduction, ignore_index);
}

Tensor nll_loss2d(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                  int64_t reduction, int64_t ignore_index) {
  if (self.dim() != 4 || target.dim() != 3) {
    throw std::invalid_argument(
        "nll_loss2d: only batches of spatial targets supported (3D tensors) but got targets of "
        "dimension: " +
        std::to_string(target.dim()) + " (and self of shape " + shape_str(self.sizes()) +
        ", expected [N, C, H, W])");
  }
  loops::check_nll_loss_target("nll_loss2d", self, target);
  return nll_loss_kernel("nll_loss2d", self, target, weight, reduction, ignore_index);
}

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                 bool /*scale_grad_by_freq*/, bool sparse) {
  if (sparse) throw std::invalid_argument("embedding: sparse=True is not supported by gradgen");
  if (weight.dim() != 2) {
    throw std::invalid_argument("embedding: expected weight of shape [num_embeddings, dim], got " +
                                shape_str(weight.sizes()));
  }
  // -1 is "no padding row"; otherwise a row of weight (torch.nn.functional.embedding's check).
  if (padding_idx != -1 && (padding_idx < 0 || padding_idx >= weight.size(0))) {
    throw std::invalid_argument(
        "embedding: Padding_idx must be within num_embeddings (got " + std::to_string(padding_idx) +
        " for " + std::to_string(weight.size(0)) + " embeddings; -1 for no padding row)");
  }
  loops::check_embedding_indices("embedding", indices, weight.size(0));
  const Tensor rows = index_select(weight, 0, reshape(indices.contiguous(), {-1}));
  DimVector out_sizes(indices.sizes().begin(), indices.sizes().end());
  out_sizes.push_back(weight.size(1));
  return reshape(rows, out_sizes);
}

std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train,
                                          std::optional<Generator> generator) {
  if (!(p >= 0 && p <= 1)) {
    throw std::invalid_argument("native_dropout: expected a probability p in [0, 1], got " +
                                std::to_string(p));
  }
  if (input.numel() == 0) {
    // As aten's native_dropout: an empty input gets an empty mask of its own dtype.
    return {gradgen::internal::copy_contiguous(input), empty(input.sizes(), input.scalar_type())};
  }
  if (train.has_value() && !*train) {
    return {gradgen::internal::copy_contiguous(input), ones(input.sizes(), ScalarType::Bool)};
  }
  Generator gen = generator.has_value() ? *generator : default_generator();
  Tensor mask = empty(input.sizes(), ScalarType::Bool);
  bool* pm = mask.data_ptr<bool>();
  for (int64_t i = 0; i < mask.numel(); ++i) pm[i] = gen.next_double() >= p;  // keep w.p. 1 - p
  const double scale = p == 1 ? 0.0 : 1.0 / (1.0 - p);
  return {native_dropout_backward(input, mask, scale), mask};
}

Tensor native_dropout_backward(const Tensor& grad_output, const Tensor& mask, double scale) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(native_dropout_backward, grad_output, mask, scale);
  if (grad_output.numel() == 0 && mask.numel() == 0) {  // the empty mask of an empty input
    return empty(grad_output.sizes(), grad_output.scalar_type());
  }
  if (mask.scalar_type() != ScalarType::Bool) {
    throw std::invalid_argument("native_dropout_backward: expected mask of dtype Bool, got " +
                                std::string(to_string(mask.scalar_type())));
  }
  Tensor out;
  dispatch_floating(grad_output.scalar_type(), "native_dropout_backward", [&](auto tag) {
    using T = decltype(tag);
    const T s = static_cast<T>(scale);
    out = loops::binary_map<T, bool, T>("native_dropout_backward", grad_output, mask,
                                        grad_output.scalar_type(),
                                        [s](T g, bool keep) { return keep ? g * s : T(0); });
  });
  return out;
}

std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, TensorList hx, const Tensor& w_ih,
                                     const Tensor& w_hh, const std::optional<Tensor>& b_ih,
                                     const std::optional<Tensor>& b_hh) {
  if (hx.size() != 2) {
    throw std::invalid_argument("lstm_cell: expected hx = [h, c] (2 tensors), got " +
                                std::to_string(hx.size()));
  }
  const Tensor& h = hx[0];
  const Tensor& c = hx[1];
  if (input.dim() != 2 || h.dim() != 2 || !h.sizes().equals(c.sizes()) || w_ih.dim() != 2 ||
      w_hh.dim() != 2 || w_ih.size(0) != 4 * h.size(1) || w_hh.size(0) != 4 * h.size(1) ||
      h.size(0) != input.size(0)) {
    throw std::invalid_argument(
        "lstm_cell: expected input [B, I], h and c [B, H], w_ih [4H, I] and w_hh [4H, H], got " +
        shape_str(input.sizes()) + ", " + shape_str(h.sizes()) + ", " + shape_str(c.sizes()) +
        ", " + shape_str(w_ih.sizes()) + " and " + shape_str(w_hh.sizes()));
  }
  // The kernels it runs (linear for a bias of the wrong shape, ...) report as lstm_cell.
  return gradgen::internal::in_composite_op("lstm_cell", [&]() -> std::tuple<Tensor, Tensor> {
    const Tensor gates = add(linear(input, w_ih, b_ih), linear(h, w_hh, b_hh), 1);
    const std::vector<Tensor> g = chunk(gates, 4, 1);
    const Tensor in_gate = sigmoid(g[0]), forget_gate = sigmoid(g[1]);
    const Tensor cell_gate = tanh(g[2]), out_gate = sigmoid(g[3]);
    const Tensor cy = add(mul(forget_gate, c), mul(in_gate, cell_gate), 1);
    const Tensor hy = mul(out_gate, tanh(cy));
    return {hy, cy};
  });
}

Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  // As PyTorch: dtype= converts first; without it, bool and integer tensors multiply as int64.
  const ScalarType t =
      dtype.value_or(is_floating_point(self.scalar_type()) ? self.scalar_type() : ScalarType::Long);
  check_differentiable_dtype(self, t);
  if (t == ScalarType::Bool) {  // dtype=bool: the running `and`
    return cast(cumprod(self, dim, ScalarType::Long), ScalarType::Bool);
  }
  if (is_narrow(t)) {  // int8 & co multiply in int64 and wrap; float16 & co in float32
    return cast(cumprod(widen(self, t), dim, compute_dtype(t)), t);
  }
  const Tensor x = cast(self, t).contiguous();
  const int64_t d = wrap_dim(dim, x.dim(), "cumprod");
  Tensor out = empty(x.sizes(), x.scalar_type());
  // Empty: done. The loops below would walk outer * inner empty rows, 2**62 of them for
  // ones(1).expand([0, 2**62]).cumprod(0).
  if (x.numel() == 0) return out;
  int64_t outer, size, inner;
  loops::split_around(x.sizes(), d, outer, size, inner);
  loops::dispatch_arithmetic(x.scalar_type(), "cumprod", [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        T acc = 1;
        for (int64_t k = 0; k < size; ++k) {
          const int64_t at = (o * size + k) * inner + i;
          acc *= px[at];
          po[at] = acc;
        }
      }
    }
  });
  return out;
}

}  // namespace native
}  // namespace gradgen
