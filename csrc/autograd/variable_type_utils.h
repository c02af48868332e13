// What the generated VariableType.cpp calls: graph wiring, out= checks, and the
// profiler and tracer hooks.
//
// A generated differentiable op reads:
//
//   Tensor mm(const Tensor& self, const Tensor& mat2) {
//     profiler::RecordFunction profile_scope("mm", self, mat2);  // profiler.h
//     tracer::TracedOp trace_op("mm", tracer::replay(&mm), {"self", "mat2"}, self, mat2);
//     GradFn<MmBackward0> grad_fn;
//     if (compute_requires_grad(self, mat2)) {
//       grad_fn.create();
//       grad_fn->set_next_edges(collect_next_edges(self, mat2));
//       grad_fn->self_ = SavedVariable(self, false);
//       ...
//     }
//     Tensor result = native::mm(self, mat2);
//     if (grad_fn) set_history(result, grad_fn);
//     trace_op.output(result);
//     return result;
//   }
//
// The variadic helpers accept, in any mix, `const Tensor&`, `const
// std::optional<Tensor>&` and `TensorList` (or a std::vector<Tensor>); each
// Tensor or optional contributes one edge and each list one edge per element, in
// argument order, matching the slots of the node's IndexRangeGenerator (see Note
// [Index ranges computed at run time]). Everything on this path is inline and
// allocation-free apart from the edge vector itself.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "csrc/autograd/accumulate_grad.h"
#include "csrc/autograd/anomaly_mode.h"
#include "csrc/autograd/function.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/profiler.h"
#include "csrc/autograd/tracer.h"
#include "csrc/tensor.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace autograd {

/// Returns the edge t's gradient flows along: (grad_fn, output_nr) for a result of
/// a differentiable op, the AccumulateGrad node for a leaf that requires grad, and
/// an invalid edge otherwise (including an undefined t).
inline Edge gradient_edge(const Tensor& t) {
  if (const auto& fn = t.grad_fn()) return Edge(fn, t.output_nr());
  if (t.requires_grad()) return Edge(grad_accumulator(t), 0);
  return Edge();
}

namespace internal {

inline bool requires_grad_of(const Tensor& t) { return t.requires_grad(); }
inline bool requires_grad_of(const std::optional<Tensor>& t) {
  return t.has_value() && t->requires_grad();
}
inline bool requires_grad_of(TensorList ts) {
  for (const Tensor& t : ts) {
    if (t.requires_grad()) return true;
  }
  return false;
}

inline size_t edge_count(const Tensor&) { return 1; }
inline size_t edge_count(const std::optional<Tensor>&) { return 1; }
inline size_t edge_count(TensorList ts) { return ts.size(); }

inline void append_edges(edge_list& edges, const Tensor& t) { edges.push_back(gradient_edge(t)); }
inline void append_edges(edge_list& edges, const std::optional<Tensor>& t) {
  edges.push_back(t.has_value() ? gradient_edge(*t) : Edge());
}
inline void append_edges(edge_list& edges, TensorList ts) {
  for (const Tensor& t : ts) edges.push_back(gradient_edge(t));
}

[[noreturn]] void throw_history_on_input(const Tensor& t, const Node& grad_fn);
[[noreturn]] void throw_inplace_on_leaf(const char* op);
/// The in-place checks of a view (Note [Views] in csrc/tensor.h), out of line.
void check_inplace_on_view(const Tensor& self, const char* op);
/// rebase_history of a view: the base's history becomes a CopySlices node.
void rebase_view_history(Tensor& self, const std::shared_ptr<Node>& grad_fn);
/// Throws PyTorch's error for a view made in no_grad mode or by split & co whose storage was
/// modified in place (its grad_fn cannot follow the base's history).
[[noreturn]] void throw_view_base_modified(const Tensor& view);
void move_hooks_on_rebase(TensorImpl& impl, const std::shared_ptr<Node>& grad_fn);

}  // namespace internal

/// Returns true if GradMode is enabled and any argument requires grad: whether
/// the op must record a Backward node.
template <typename... Args>
inline bool compute_requires_grad(const Args&... args) {
  if (!GradMode::is_enabled()) return false;
  return (internal::requires_grad_of(args) || ...);
}

/// Returns one edge per differentiable input slot, in argument order.
template <typename... Args>
inline edge_list collect_next_edges(const Args&... args) {
  edge_list edges;
  edges.reserve((internal::edge_count(args) + ... + size_t{0}));
  (internal::append_edges(edges, args), ...);
  return edges;
}

/// The node a generated wrapper records: `grad_fn.create()` makes a T, `grad_fn->`
/// reaches its members, and it converts to the `std::shared_ptr<Node>` that
/// set_history / rebase_history take. It owns the node through a
/// `std::shared_ptr<Node>` made from a `Node*`, so the only shared_ptr code a
/// generated file instantiates is shared_ptr<Node>'s, once: with
/// `std::make_shared<T>()` every node type instantiated about 50 functions of
/// libstdc++'s shared_ptr machinery (control block, allocator, conversions), which
/// at -O0 was 60% of the compile of a generated VariableType_<k>.cpp
/// (bench/scale_bench.py, README "Scale"). The price is a second allocation (the
/// control block) per recorded op, which the pool of small blocks (csrc/util/block_pool.h)
/// makes cheap.
///
/// Everything but create() and `->` lives in the non-template base, so a node type
/// costs a generated file two small functions (and its constructor) to compile: with
/// all of it in the template, each node type instantiated five.
class GradFnBase {
 public:
  explicit operator bool() const { return node_ != nullptr; }
  operator const std::shared_ptr<Node>&() const { return node_; }

 protected:
  // The control block comes from the pool of small blocks, as the node does (Node's operator
  // new). Deletes node if it throws.
  void own(Node* node) {
    node_ = std::shared_ptr<Node>(node, std::default_delete<Node>(),
                                  gradgen::internal::PoolAllocator<Node>());
  }
  std::shared_ptr<Node> node_;
};

template <class T>
class GradFn : public GradFnBase {
 public:
  void create() { own(new T()); }
  T* operator->() const { return static_cast<T*>(node_.get()); }
};

/// Makes grad_fn the history of a fresh op result: records the result's shape and
/// dtype as grad_fn's next input and sets result.grad_fn()/output_nr(). Call once
/// per differentiable output, in output order. An undefined or non-floating result
/// gets a placeholder input (and no history: it never requires grad). Throws if the result already
/// has history (a kernel must not return one of its inputs).
inline void set_history(Tensor& result, const std::shared_ptr<Node>& grad_fn) {
  if (!grad_fn) return;
  TensorImpl* impl = result.unsafe_impl();
  // Outputs that are not floating point never require grad (PyTorch: a cast to int64, a
  // comparison): a placeholder input, no history.
  if (!impl || !is_floating_point(impl->dtype)) {
    grad_fn->add_input_metadata_placeholder();
    return;
  }
  if (impl->grad_fn || impl->requires_grad) internal::throw_history_on_input(result, *grad_fn);
  impl->output_nr = grad_fn->add_input_metadata(result);
  impl->grad_fn = grad_fn;
  if (__builtin_expect(AnomalyMode::is_enabled(), 0)) internal::record_anomaly_metadata(*grad_fn);
}

/// Calls set_history for each result, in order.
inline void set_history(std::vector<Tensor>& results, const std::shared_ptr<Node>& grad_fn) {
  for (Tensor& result : results) set_history(result, grad_fn);
}

// Note [In-place ops and autograd]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An in-place op (`add_`) overwrites self, so the generated wrapper
//  1. calls check_inplace(self, op): with GradMode on, a leaf that requires grad
//     may not be overwritten (its value is what the gradient is taken with respect
//     to), nor may a view of one, nor a view made in no_grad mode or by split & co
//     (Note [Views] in csrc/tensor.h);
//  2. builds the out-of-place op's node from self's *old* edge (saving a clone of
//     self if a formula reads it);
//  3. runs the kernel, which bumps self's version (Note [Version counter]), so
//     any node that saved the old self refuses to use it, and views of self
//     regenerate their grad_fn from self's new history when next asked;
//  4. calls rebase_history(self, grad_fn): self's history becomes the new node; for a
//     view, the base's history becomes a CopySlices node around it and the view's
//     grad_fn is regenerated from the base's.

/// Throws if the in-place op `op` ("add_.Tensor") may not modify self under
/// autograd: self is a leaf that requires grad, or a view (of a leaf that requires
/// grad, made in no_grad mode, or by split & co) that requires grad.
inline void check_inplace(const Tensor& self, const char* op) {
  if (!GradMode::is_enabled()) return;
  const TensorImpl* impl = self.unsafe_impl();
  if (!impl) return;  // the kernel reports the undefined tensor
  if (__builtin_expect(impl->is_view, 0)) return internal::check_inplace_on_view(self, op);
  if (impl->requires_grad && !impl->grad_fn) internal::throw_inplace_on_leaf(op);
}

/// Makes grad_fn the history of self after an in-place op (see Note [In-place ops
/// and autograd]): self becomes grad_fn's input 0, and its hooks move along. For a
/// view, the base's history is rewritten (CopySlices) and the view's follows it.
inline void rebase_history(Tensor& self, const std::shared_ptr<Node>& grad_fn) {
  if (!grad_fn) return;
  TensorImpl* impl = self.unsafe_impl();
  if (__builtin_expect(impl->is_view, 0)) return internal::rebase_view_history(self, grad_fn);
  if (impl->hooks) internal::move_hooks_on_rebase(*impl, grad_fn);
  impl->output_nr = grad_fn->add_input_metadata(self);
  impl->grad_fn = grad_fn;
  if (__builtin_expect(AnomalyMode::is_enabled(), 0)) internal::record_anomaly_metadata(*grad_fn);
}

/// An in-place op on a list (`Tensor(a!)[] self`, PyTorch's `_foreach_add_` family): every
/// element is checked as check_inplace checks one tensor.
inline void check_inplace(TensorList self, const char* op) {
  for (const Tensor& t : self) check_inplace(t, op);
}

/// rebase_history of each element of an in-place op's list: element i becomes grad_fn's input i.
inline void rebase_history(TensorList self, const std::shared_ptr<Node>& grad_fn) {
  for (Tensor t : self) rebase_history(t, grad_fn);  // a handle: its impl is the element's
}

/// The same for a list of optional tensors (`Tensor(a!)?[] self`); absent elements are skipped.
inline void check_inplace(const std::vector<std::optional<Tensor>>& self, const char* op) {
  for (const std::optional<Tensor>& t : self) {
    if (t) check_inplace(*t, op);
  }
}
inline void rebase_history(const std::vector<std::optional<Tensor>>& self,
                           const std::shared_ptr<Node>& grad_fn) {
  for (std::optional<Tensor> t : self) {
    if (t) rebase_history(*t, grad_fn);
  }
}

/// Returns the sizes of each tensor (saved by `to_args_sizes(tensors)` in a formula).
std::vector<std::vector<int64_t>> to_args_sizes(TensorList tensors);

/// Returns the dtype of each tensor (saved by `to_args_scalartypes(tensors)` in a formula).
std::vector<ScalarType> to_args_scalartypes(TensorList tensors);

/// Returns t's strides, saved for a formula reading `t.strides()` / `t.sym_strides()`; `name` is
/// the argument's, for the error PyTorch gives where strides cannot be had (never in gradgen:
/// every tensor is strided).
std::vector<int64_t> strides_or_error(const Tensor& t, const char* name);

/// One argument checked by check_out_no_requires_grad: a tensor and, optionally,
/// its name for the error message.
struct OutVariantArg {
  OutVariantArg(const Tensor& t) : tensor(&t) {}
  OutVariantArg(const std::optional<Tensor>& t) : tensor(t ? &*t : nullptr) {}
  OutVariantArg(const char* name_, const Tensor& t) : name(name_), tensor(&t) {}
  /// A named optional tensor (binary_cross_entropy.out's `Tensor? weight`): absent is unchecked.
  OutVariantArg(const char* name_, const std::optional<Tensor>& t)
      : name(name_), tensor(t ? &*t : nullptr) {}
  /// A named Tensor[] (hstack.out's `tensors`): each element is checked.
  OutVariantArg(const char* name_, TensorList ts) : name(name_), list(ts) {}
  /// A Tensor?[] of index tensors (index.Tensor_out's `indices`): Long or Bool tensors, which
  /// cannot require grad, so unchecked.
  OutVariantArg(const char* name_, const std::vector<std::optional<Tensor>>& /*indices*/)
      : name(name_) {}

  const char* name = nullptr;
  const Tensor* tensor = nullptr;
  TensorList list;
};

/// Throws std::runtime_error if GradMode is enabled and any argument of the out=
/// variant `op` requires grad: out= variants do not record history. Accepts
/// `{self, other}` or, for a message naming the argument, `{{"self", self}, ...}`.
void check_out_no_requires_grad(const char* op, std::initializer_list<OutVariantArg> args);

}  // namespace autograd
}  // namespace gradgen
