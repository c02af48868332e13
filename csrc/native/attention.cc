// scaled_dot_product_attention (nn, issue 26's remaining ops): PyTorch's math composite, written
// with the differentiable API (CompositeImplicitAutograd: its gradients come from the ops it
// calls). softmax(q k^T * scale + mask) v, scale 1 / sqrt(E) unless given, the scale split as
// sqrt(scale) on q and on k^T (as PyTorch's, for the same rounding); a bool mask keeps the
// positions where it is true (the others get -inf), a float mask is added; is_causal masks
// the positions above the diagonal of the [L, S] scores. Rows that are all -inf give 0
// (PyTorch's _safe_softmax), not NaN. enable_gqa repeats each key / value head over the
// query heads that share it. dropout_p > 0 drops attention weights with gradgen's default
// generator.
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
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
    const int64_t E = query.size(-1), L = query.size(-2), S = key.size(-2);
    const double s = scale.has_value() ? std::abs(*scale) : 1.0 / std::sqrt(static_cast<double>(E));
    const double root = std::sqrt(s);
    const Tensor q = query * ((scale.has_value() && *scale < 0) ? -root : root);
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
    Tensor attn = gradgen::matmul(q, gradgen::transpose(k, -2, -1) * root);
    const double inf = std::numeric_limits<double>::infinity();
    if (is_causal) {
      const Tensor keep = gradgen::tril(ones({L, S}, ScalarType::Bool));
      attn = gradgen::masked_fill(attn, gradgen::logical_not(keep), -inf);
    } else if (has_mask) {
      if (attn_mask->scalar_type() == ScalarType::Bool) {
        attn = gradgen::masked_fill(attn, gradgen::logical_not(*attn_mask), -inf);
      } else {
        attn = attn + *attn_mask;
      }
    }
    attn = safe_softmax(attn);
    if (dropout_p > 0) attn = gradgen::dropout(attn, dropout_p, true, std::nullopt);
    return gradgen::matmul(attn, v);
  });
}

}  // namespace native
}  // namespace gradgen
