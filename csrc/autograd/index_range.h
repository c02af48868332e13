// Index ranges: how a Backward node maps gradients to its inputs by position.
//
// A generated `apply()` hands out one IndexRange per differentiable input, in
// argument order, then fills `grad_inputs` through them:
//
//   IndexRangeGenerator gen;
//   auto tensors_ix = gen.range(tensors_size_);  // a Tensor[] takes one slot per element
//   auto coeffs_ix = gen.range(1);               // a Tensor takes one slot
//   variable_list grad_inputs = undefined_gradients(gen.size());  // variable_list(gen.size())
//   if (should_compute_output({ coeffs_ix })) copy_range(grad_inputs, coeffs_ix, grad_coeffs);
//
// Everything here is header-only and constexpr-friendly so that, where the sizes
// are compile-time constants (every range(1)), the optimizer folds the ranges into
// the constant indices a hand-written node would use.
//
// Note [Index ranges computed at run time]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A derivative formula is written per input *name* ("tensors: ...", "coeffs: ..."),
// but a node's `apply()` receives and returns gradients by *position*: slot i of
// its result feeds `next_edge(i)`. A Tensor input takes one slot; a Tensor[] input
// takes as many slots as the list had elements when the forward ran, which the
// codegen cannot know. So positions are computed at run time from sizes the
// forward saved (`tensors_size_`): for lincomb(Tensor[] tensors, Tensor coeffs),
// coeffs' gradient is slot 2 after lincomb({x1, x2}, c) and slot 3 after
// lincomb({x1, x2, x3}, c). Inputs are numbered in argument order, Tensor and
// Tensor[] mixed in any order, with no special case. collect_next_edges (in
// variable_type_utils.h) builds the edges in the same order, so slot i and
// next_edge(i) always refer to the same input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "csrc/tensor.h"
#include "csrc/util/macros.h"

namespace gradgen {
namespace autograd {

using variable_list = std::vector<Tensor>;

// Note [Index ranges computed at run time] promises that generated apply() costs no more than
// hard-coded slots. That holds only if these helpers are inlined into apply(), where the
// constant ranges fold away, hence GRADGEN_ALWAYS_INLINE (csrc/util/macros.h), which forces it
// in optimized builds (the promise is about those; at -O0 nothing is inlined).

/// The most gradient slots a node can have: 2^59, far past what memory holds (2^59 Tensors take
/// 4 EiB), and low enough that a slot index times kMaxGradientSlotBytes (an Edge, a Tensor)
/// cannot wrap: Node::should_compute_output checks run-time slot indices in bytes.
constexpr size_t kMaxGradientSlots = size_t{1} << 59;
constexpr size_t kMaxGradientSlotBytes = 32;
static_assert(kMaxGradientSlots <= static_cast<size_t>(PTRDIFF_MAX) / sizeof(Tensor),
              "variable_list(n) must not test n against its max_size() below the bound");

/// The half-open range [first, second) of gradient slots that belong to one input.
using IndexRange = std::pair<size_t, size_t>;

/// Hands out consecutive IndexRanges, one per input, in argument order.
/// See Note [Index ranges computed at run time].
class IndexRangeGenerator {
 public:
  /// Returns the next n slots.
  GRADGEN_ALWAYS_INLINE constexpr IndexRange range(size_t n) noexcept {
    i_ += n;
    return {i_ - n, i_};
  }
  /// Returns the number of slots handed out so far (the size of grad_inputs).
  GRADGEN_ALWAYS_INLINE constexpr size_t size() const noexcept { return i_; }

 private:
  size_t i_ = 0;
};

namespace internal {
[[noreturn]] void throw_copy_range_single(IndexRange range, size_t out_size);
[[noreturn]] void throw_copy_range_list(IndexRange range, size_t out_size, size_t found);
[[noreturn]] void throw_gradient_slots(size_t n);
}  // namespace internal

/// Returns `grad_inputs` of a generated apply(): n undefined gradients, one per slot (n =
/// gen.size()); the same list as variable_list(n). What differs is what the optimizer knows
/// afterwards. vector(n) tests n == 0 (no allocation) and n > max_size() (length_error) apart,
/// and with a Tensor[] input n is a run-time value, so both tests stay in apply() and so does
/// the emptiness test of every loop over a range [0, n). One unsigned compare here sends both
/// cases out of line, to a throw, and leaves n in [1, max_size()] for the rest of apply(),
/// where those tests fold. A node has at least one slot: recording makes one only when an input
/// requires grad, and each Tensor input, each element of a Tensor[] input, takes a slot; so
/// n == 0 is a broken node, reported rather than answered with an empty list. Where every
/// range is constant (Tensor inputs only), n is a constant and the compare folds away.
GRADGEN_ALWAYS_INLINE variable_list undefined_gradients(size_t n) {
  if (__builtin_expect(n - 1 >= kMaxGradientSlots, 0)) internal::throw_gradient_slots(n);
  return variable_list(n);
}

/// Stores the gradient of a Tensor input into its slot; `range` must have length 1.
/// `range` comes from the IndexRangeGenerator that sized `out`, so it is within `out`; only its
/// length is checked (a constant for a Tensor input: the check folds away).
GRADGEN_ALWAYS_INLINE void copy_range(variable_list& out, IndexRange range, const Tensor& t) {
  if (range.second != range.first + 1) {
    internal::throw_copy_range_single(range, out.size());
  }
  out[range.first] = t;
}

/// Stores the gradients of a Tensor[] input into its slots, one per list element.
/// An empty list stands for "no gradient for any element" (what a formula yields
/// when every incoming gradient is undefined) and leaves the slots undefined;
/// otherwise the lengths must match.
GRADGEN_ALWAYS_INLINE void copy_range(variable_list& out, IndexRange range, ArrayRef<Tensor> ts) {
  if (ts.empty()) return;
  // The formula's list must have one gradient per element of the input list.
  if (range.second - range.first != ts.size()) {
    internal::throw_copy_range_list(range, out.size(), ts.size());
  }
  for (size_t i = 0; i < ts.size(); ++i) out[range.first + i] = ts[i];
}

/// Stores the gradients of a Tensor[] input; see the ArrayRef overload.
GRADGEN_ALWAYS_INLINE void copy_range(variable_list& out, IndexRange range,
                                      const std::vector<Tensor>& ts) {
  copy_range(out, range, ArrayRef<Tensor>(ts));
}

/// Returns true if any of the tensors is defined.
GRADGEN_ALWAYS_INLINE bool any_variable_defined(const variable_list& variables) {
  for (const Tensor& v : variables) {
    if (v.defined()) return true;
  }
  return false;
}

}  // namespace autograd
}  // namespace gradgen
