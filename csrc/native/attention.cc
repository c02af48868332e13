// scaled_dot_product_attention (nn, issue 26's remaining ops): PyTorch's math composite, written
// with the differentiable API (CompositeImplicitAutograd: its gradients come from the ops it
// calls). softmax(q k^T * scale + mask) v, scale 1 / sqrt(E) unless given, the scale split as
// sqrt(scale) on q and on k^T (as PyTorch's, for the same rounding); a bool mask keeps the
// positions where it is true (the others get -inf), a float mask is added; is_causal masks
// the positions above the diagonal of the [L, S] scores. Rows that are all -inf give 0
// (PyTorch's _safe_softmax), not NaN. enable_gqa repeats each key / value head over the
// query heads that share it. dropout_p > 0 drops attention weights with gradgen's default
// generator.
//
// Without dropout, in float32 / float64, with no forward-mode tangent and a mask that needs no
// gradient (issue 27), the same function runs as one fused kernel (attention_kernel.h: blocks of
// queries against all keys, the [L, S] probabilities never stored) recorded as one node,
// ScaledDotProductAttentionBackward0, whose backward computes them again block by block; with
// create_graph it computes the gradients with the differentiable ops instead (the composite's
// formulas), so that they are differentiable again.
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/saved_variable.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/attention_kernel.h"
#include "csrc/native/loops.h"
#include "csrc/native/reduced_float.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

using gradgen::internal::in_composite_op;

namespace {

// float16 / bfloat16 as PyTorch's CPU kernel (flash attention): in float32, the result rounded
// once; the casts are differentiable, so the gradients are float32 ones rounded.
Tensor attention_in_float32(const Tensor& query, const Tensor& key, const Tensor& value,
                            const std::optional<Tensor>& attn_mask, double dropout_p,
                            bool is_causal, std::optional<double> scale, bool enable_gqa) {
  const auto wide = [](const Tensor& t) {
    return is_reduced_float(t.scalar_type())
               ? gradgen::to(t, ScalarType::Float, false, false, std::nullopt)
               : t;
  };
  const bool has_mask = attn_mask.has_value() && attn_mask->defined();
  const std::optional<Tensor> mask = has_mask ? std::optional<Tensor>(wide(*attn_mask)) : attn_mask;
  return gradgen::to(gradgen::scaled_dot_product_attention(wide(query), wide(key), wide(value),
                                                           mask, dropout_p, is_causal, scale,
                                                           enable_gqa),
                     query.scalar_type(), false, false, std::nullopt);
}

/// Whether some row (last dim) of the scores is -inf throughout; empty scores and dtypes other
/// than float32 / float64 answer true (the general path). Reads the values only: no autograd op.
bool has_dead_row(const Tensor& scores) {
  if (scores.scalar_type() != ScalarType::Float && scores.scalar_type() != ScalarType::Double) {
    return true;
  }
  if (scores.numel() == 0) return true;  // the general path, at no cost
  const Tensor c = scores.contiguous();
  const int64_t n = c.size(-1), rows = c.numel() / n;
  bool dead = false;
  gradgen::internal::dispatch_floating(c.scalar_type(), "scaled_dot_product_attention",
                                       [&](auto tag) {
                                         using T = decltype(tag);
                                         const T* p = c.data_ptr<T>();
                                         const T minus_inf = -std::numeric_limits<T>::infinity();
                                         for (int64_t r = 0; r < rows && !dead; ++r) {
                                           const T* row = p + r * n;
                                           int64_t k = 0;
                                           while (k < n && row[k] == minus_inf) ++k;
                                           dead = k == n;
                                         }
                                       });
  return dead;
}

/// _safe_softmax over the last dim: a row of -inf only is all 0 (its scores set to 0 first, so
/// that neither the softmax nor its gradient sees the NaN of exp(-inf - -inf)). Such rows are
/// rare (a mask hiding a whole row, infinite inputs): the scores are searched for one first, and
/// without one the masks would change nothing (values and gradients), so softmax runs alone;
/// that saves four passes over the [.., L, S] scores and two in the backward. (The branch is on
/// values, inside the composite: a trace records scaled_dot_product_attention itself.)
Tensor safe_softmax(const Tensor& attn) {
  if (!has_dead_row(attn)) return gradgen::softmax(attn, -1, std::nullopt);
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor dead = gradgen::all(gradgen::eq(attn, -inf), -1, true);
  return gradgen::masked_fill(gradgen::softmax(gradgen::masked_fill(attn, dead, 0), -1,
                                               std::nullopt),
                              dead, 0);
}

/// The scores with the mask applied: -inf above the diagonal (causal) or where a bool mask is
/// false, or a float mask added; mask may be undefined.
Tensor masked_scores(const Tensor& attn, const Tensor& mask, bool causal) {
  const double inf = std::numeric_limits<double>::infinity();
  if (causal) {
    const Tensor keep = gradgen::tril(ones({attn.size(-2), attn.size(-1)}, ScalarType::Bool));
    return gradgen::masked_fill(attn, gradgen::logical_not(keep), -inf);
  }
  if (!mask.defined()) return attn;
  if (mask.scalar_type() == ScalarType::Bool) {
    return gradgen::masked_fill(attn, gradgen::logical_not(mask), -inf);
  }
  return attn + mask;
}

/// The fused kernel's gradients written with the differentiable ops (the composite's formulas:
/// softmax's backward and the products'), for a backward that records a graph or carries
/// forward-mode tangents.
autograd::variable_list math_backward(const AttentionArgs& a, const Tensor& go,
                                      std::array<bool, 3> needed) {
  const Tensor qs = a.q * a.q_scale, ks = a.k * a.k_scale;
  const Tensor p = safe_softmax(
      masked_scores(gradgen::matmul(qs, gradgen::transpose(ks, -2, -1)), a.mask, a.causal));
  autograd::variable_list grads(3);
  if (needed[2]) grads[2] = gradgen::matmul(gradgen::transpose(p, -2, -1), go);
  if (needed[0] || needed[1]) {
    const Tensor dp = gradgen::matmul(go, gradgen::transpose(a.v, -2, -1));
    const Tensor ds = p * (dp - gradgen::sum(p * dp, std::vector<int64_t>{-1}, true));
    if (needed[0]) grads[0] = gradgen::matmul(ds, ks) * a.q_scale;
    if (needed[1]) grads[1] = gradgen::matmul(gradgen::transpose(ds, -2, -1), qs) * a.k_scale;
  }
  return grads;
}

/// The node of the fused kernel: saves q, k, v (expanded to the output's batch dims) and the
/// mask, and computes the probabilities again in the backward.
struct ScaledDotProductAttentionBackward0 : public autograd::Node {
  autograd::variable_list apply(autograd::variable_list&& grads) override {
    autograd::variable_list out(3);
    const Tensor& go = grads[0];
    if (!go.defined()) return out;
    AttentionArgs a;
    a.q = query_.unpack(this, "query");
    a.k = key_.unpack(this, "key");
    a.v = value_.unpack(this, "value");
    a.mask = mask_.unpack(this, "attn_mask");
    a.causal = causal_;
    a.q_scale = q_scale_;
    a.k_scale = k_scale_;
    const std::array<bool, 3> needed{should_compute_output(0), should_compute_output(1),
                                     should_compute_output(2)};
    if (autograd::compute_requires_grad(go, a.q, a.k, a.v) ||
        autograd::forward_ad::any_fw_grad(go, a.q, a.k, a.v)) {
      return math_backward(a, go, needed);
    }
    const std::array<Tensor, 3> g = attention_backward(a, go, needed);
    return {g[0], g[1], g[2]};
  }
  std::string name() const override { return "ScaledDotProductAttentionBackward0"; }
  void release_variables() override {
    query_.reset_data();
    key_.reset_data();
    value_.reset_data();
    mask_.reset_data();
  }
  void visit_saved(autograd::SavedVisitor& visitor) const override {
    visitor.visit("query", query_);
    visitor.visit("key", key_);
    visitor.visit("value", value_);
    visitor.visit("attn_mask", mask_);
  }

  autograd::SavedVariable query_, key_, value_, mask_;
  bool causal_ = false;
  double q_scale_ = 1, k_scale_ = 1;
};

/// Broadcasts `sizes` into `out` (right-aligned, as matmul's batch dims); false when they do
/// not broadcast.
bool broadcast_into(IntArrayRef sizes, std::vector<int64_t>& out) {
  if (sizes.size() > out.size()) out.insert(out.begin(), sizes.size() - out.size(), 1);
  const size_t shift = out.size() - sizes.size();
  for (size_t d = 0; d < sizes.size(); ++d) {
    int64_t& o = out[shift + d];
    if (o == 1) {
      o = sizes[d];
    } else if (sizes[d] != 1 && sizes[d] != o) {
      return false;
    }
  }
  return true;
}

IntArrayRef batch_dims(const Tensor& t) {
  return t.dim() < 2 ? IntArrayRef() : IntArrayRef(t.sizes().data(), t.sizes().size() - 2);
}

/// Whether the fused kernel computes this call (see the banner), with the output's batch dims.
bool fused_applies(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                   std::vector<int64_t>& batch) {
  const ScalarType dtype = q.scalar_type();
  if (dtype != ScalarType::Float && dtype != ScalarType::Double) return false;
  const int64_t L = q.size(-2), S = k.size(-2), E = q.size(-1);
  if (k.size(-1) != E || v.size(-2) != S || L == 0 || S == 0 || E == 0 || v.size(-1) == 0) {
    return false;  // empty, or the composite's errors
  }
  if (autograd::forward_ad::any_fw_grad(q, k, v, mask)) return false;
  if (mask.defined()) {
    if (mask.requires_grad() ||
        (mask.scalar_type() != ScalarType::Bool && mask.scalar_type() != dtype)) {
      return false;
    }
    if (mask.dim() == 0 || (mask.size(-1) != 1 && mask.size(-1) != S)) return false;
    if (mask.dim() >= 2 && mask.size(-2) != 1 && mask.size(-2) != L) return false;
  }
  batch.clear();
  if (!broadcast_into(batch_dims(q), batch) || !broadcast_into(batch_dims(k), batch) ||
      !broadcast_into(batch_dims(v), batch) ||
      (mask.defined() && !broadcast_into(batch_dims(mask), batch))) {
    return false;
  }
  for (int64_t n : batch) {
    if (n == 0) return false;
  }
  return true;
}

/// The fused kernel and its node, or an undefined tensor when it does not apply.
Tensor fused_attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                       bool causal, double q_scale, double k_scale) {
  std::vector<int64_t> batch;
  if (!fused_applies(q, k, v, mask, batch)) return Tensor();
  const auto expanded = [&batch](const Tensor& t, int64_t rows, int64_t cols) {
    std::vector<int64_t> shape = batch;
    shape.push_back(rows);
    shape.push_back(cols);
    return gradgen::expand(t, shape);
  };
  AttentionArgs a;
  a.q = expanded(q, q.size(-2), q.size(-1));
  a.k = expanded(k, k.size(-2), k.size(-1));
  a.v = expanded(v, v.size(-2), v.size(-1));
  if (mask.defined()) a.mask = expanded(mask, q.size(-2), k.size(-2));
  a.causal = causal;
  a.q_scale = q_scale;
  a.k_scale = k_scale;
  Tensor out = attention_forward(a);
  if (autograd::compute_requires_grad(a.q, a.k, a.v)) {
    auto node = std::make_shared<ScaledDotProductAttentionBackward0>();
    node->set_next_edges(autograd::collect_next_edges(a.q, a.k, a.v));
    node->query_ = autograd::SavedVariable(a.q, false);
    node->key_ = autograd::SavedVariable(a.k, false);
    node->value_ = autograd::SavedVariable(a.v, false);
    node->mask_ = autograd::SavedVariable(a.mask, false);
    node->causal_ = causal;
    node->q_scale_ = q_scale;
    node->k_scale_ = k_scale;
    autograd::set_history(out, node);
  }
  return out;
}

}  // namespace

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const std::optional<Tensor>& attn_mask, double dropout_p,
                                    bool is_causal, std::optional<double> scale, bool enable_gqa) {
  return in_composite_op("scaled_dot_product_attention", [&]() -> Tensor {
    const char* op = "scaled_dot_product_attention";
    if (query.dim() < 2 || key.dim() < 2 || value.dim() < 2) {
      throw std::invalid_argument(std::string(op) +
                                  ": expected query, key and value of at least 2 dims, got " +
                                  shape_str(query.sizes()) + ", " + shape_str(key.sizes()) +
                                  " and " + shape_str(value.sizes()));
    }
    if (query.scalar_type() != key.scalar_type() || query.scalar_type() != value.scalar_type()) {
      throw std::invalid_argument(
          std::string(op) +
          ": Expected query, key, and value to have the same dtype, but got query.dtype: " +
          to_string(query.scalar_type()) + " key.dtype: " + to_string(key.scalar_type()) +
          " and value.dtype: " + to_string(value.scalar_type()) + " instead.");
    }
    const bool has_mask = attn_mask.has_value() && attn_mask->defined();
    if (is_reduced_float(query.scalar_type())) {
      return attention_in_float32(query, key, value, attn_mask, dropout_p, is_causal, scale,
                                  enable_gqa);
    }
    if (is_causal && has_mask) {
      throw std::invalid_argument(std::string(op) +
                                  ": Explicit attn_mask should not be set when is_causal=True");
    }
    if (dropout_p < 0 || dropout_p > 1) {
      throw std::invalid_argument(std::string(op) +
                                  ": dropout probability has to be between 0 and 1, but got " +
                                  std::to_string(dropout_p));
    }
    const int64_t E = query.size(-1);
    const double s = scale.has_value() ? std::abs(*scale) : 1.0 / std::sqrt(static_cast<double>(E));
    const double root = std::sqrt(s);
    const double q_scale = (scale.has_value() && *scale < 0) ? -root : root;
    Tensor k = key, v = value;
    if (enable_gqa && query.dim() >= 3 && key.dim() >= 3) {
      const int64_t hq = query.size(-3), hk = key.size(-3), hv = value.size(-3);
      if (hk == 0 || hv == 0 || hq % hk != 0 || hq % hv != 0) {
        throw std::invalid_argument(std::string(op) +
                                    ": number of heads in key and value must divide the number "
                                    "of heads in query, got " +
                                    std::to_string(hq) + ", " + std::to_string(hk) + " and " +
                                    std::to_string(hv));
      }
      // repeat_interleave over the head dim: [..., h, S, E] to [..., h * r, S, E].
      auto repeat_heads = [](const Tensor& t, int64_t r) {
        std::vector<int64_t> expanded(t.sizes().begin(), t.sizes().end());
        expanded.insert(expanded.end() - 2, r);
        DimVector merged(t.sizes().begin(), t.sizes().end());
        merged[merged.size() - 3] *= r;
        return gradgen::reshape(gradgen::expand(gradgen::unsqueeze(t, -3), expanded), merged);
      };
      if (hk != hq) k = repeat_heads(key, hq / hk);
      if (hv != hq) v = repeat_heads(value, hq / hv);
    }
    const Tensor mask = has_mask ? *attn_mask : Tensor();
    if (dropout_p == 0) {
      const Tensor fused = fused_attention(query, k, v, mask, is_causal, q_scale, root);
      if (fused.defined()) return fused;
    }
    const Tensor q = query * q_scale;
    Tensor attn = gradgen::matmul(q, gradgen::transpose(k, -2, -1) * root);
    attn = safe_softmax(masked_scores(attn, mask, is_causal));
    if (dropout_p > 0) attn = gradgen::dropout(attn, dropout_p, true, std::nullopt);
    return gradgen::matmul(attn, v);
  });
}

}  // namespace native
}  // namespace gradgen
