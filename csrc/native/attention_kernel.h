// The fused kernel behind scaled_dot_product_attention (issue 27), forward and backward, for
// float32 and float64 without dropout. Internal to csrc/native (attention.cc calls it and records
// its backward node).
//
// Each matrix of the batch (a (batch, head) pair) is one task of the intra-op threads: its
// queries are taken a block of rows at a time, whose scores against every key (a block of at
// most 2^21 / (S * E) rows by S, 2^19 / (S * E) for a single matrix) stay in cache: scaled,
// masked, turned into probabilities (the vectorized row steps of nn_kernels.h around vec::exp; a
// row masked everywhere gives 0) and multiplied by the values. The [L, S] matrix of
// probabilities is never stored: the backward computes each block's again, with the same
// products, so the same bits, and from them the gradients of the block's queries and its part
// of the keys' and values'. Every product goes through gemm() (csrc/native/gemm.h), small enough
// or inside a task so that it is never split across threads, and a matrix's blocks run in order
// on one thread, so the results do not depend on the thread count.
#pragma once

#include <array>

#include "csrc/tensor.h"

namespace gradgen {
namespace native {

/// The operands of one fused attention: q [..., L, E], k [..., S, E], v [..., S, Ev] with the
/// same batch dims (any strides: expanded views are read in place), L, S, E, Ev > 0, float32 or
/// float64; mask undefined, or bool (true keeps the score) or of q's dtype (added), expanded to
/// [..., L, S]; causal masks the scores above the diagonal (not with a mask). The scores are
/// (q * q_scale) (k * k_scale)^T, each scale rounded to the dtype and applied to its operand as
/// the math composite does.
struct AttentionArgs {
  Tensor q, k, v, mask;
  bool causal = false;
  double q_scale = 1, k_scale = 1;
};

/// softmax(scores) v, contiguous [..., L, Ev]; rows whose scores are all -inf give 0.
Tensor attention_forward(const AttentionArgs& a);

/// The gradients of q, k and v (contiguous, of their expanded shapes) from that of the output
/// (any strides); the ones not `needed` are undefined.
std::array<Tensor, 3> attention_backward(const AttentionArgs& a, const Tensor& grad_out,
                                         std::array<bool, 3> needed);

}  // namespace native
}  // namespace gradgen
