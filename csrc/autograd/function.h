// Node and Edge: the vertices and edges of the autograd graph.
//
// Every Backward node (generated or hand-written) derives from Node; the banner
// above `struct Node` explains the graph and the interface. Also here: Edge,
// edge_list, variable_list and InputMetadata (what a gradient must look like).
#pragma once

#include <array>  // generated apply(): std::array<bool, N> grad_input_mask
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <tuple>  // generated apply(): std::get<i>(grad_result) of multi-input formulas
#include <utility>
#include <vector>

#include "csrc/autograd/anomaly_mode.h"
#include "csrc/autograd/index_range.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {

struct Node;
struct TensorHooks;
class Engine;
class SavedVariable;

/// What a node saved for its formulas, visited by name (Node::visit_saved; to_dot prints it).
struct SavedVisitor {
  virtual ~SavedVisitor() = default;
  /// A saved tensor (an input or output of the forward op, e.g. "self", "result").
  virtual void visit(const char* name, const SavedVariable& saved) = 0;
  /// A saved Tensor[] (e.g. "tensors"); empty once released.
  virtual void visit(const char* name, const std::vector<SavedVariable>& saved) = 0;
};

using variable_list = std::vector<Tensor>;

/// One outgoing connection of a Node: the gradient computed for one of the node's
/// inputs flows to `function`'s input number `input_nr`. An Edge with a null
/// function is invalid: that input does not require grad and its gradient is skipped.
struct Edge {
  Edge() noexcept = default;
  Edge(std::shared_ptr<Node> function_, uint32_t input_nr_) noexcept
      : function(std::move(function_)), input_nr(input_nr_) {}

  /// Returns true if a gradient should flow along this edge.
  bool is_valid() const noexcept { return function != nullptr; }

  friend bool operator==(const Edge& a, const Edge& b) {
    return a.function == b.function && a.input_nr == b.input_nr;
  }

  /// The node receiving the gradient.
  std::shared_ptr<Node> function;
  /// Which of `function`'s inputs the gradient is for.
  uint32_t input_nr = 0;
};

/// A node's outgoing edges. From the pool of small blocks (csrc/util/block_pool.h), as the node
/// is: every recorded op makes one such vector, and its backward frees it.
using edge_list = std::vector<Edge, gradgen::internal::PoolAllocator<Edge>>;

/// What a node expects the gradient for one of its inputs to look like: the shape
/// and dtype of the forward output that the input corresponds to. The engine
/// checks every gradient against it (see Engine::validate_outputs).
struct InputMetadata {
  InputMetadata() = default;
  explicit InputMetadata(const Tensor& t)
      : dtype(t.scalar_type()), shape(t.sizes().begin(), t.sizes().end()), is_defined(true) {}

  ScalarType dtype = ScalarType::Double;
  DimVector shape;
  /// False for a placeholder input that never receives a gradient (not checked).
  bool is_defined = false;
};

//~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//                               Node
//~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A `Node` is an operation of the backward pass: it takes the gradients of a
// forward op's outputs and returns the gradients of that op's inputs. Every
// generated Backward node (`MmBackward0`, `CatBackward0`, ...) derives from it and
// overrides `apply`; so do the hand-written `AccumulateGrad` (a sink that adds
// its input into a leaf's .grad) and the nodes in basic_ops.h.
//
//                    Nodes in the Autograd Graph
//~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A differentiable forward op that records history creates one node, stores in
// it what its derivative formulas need (SavedVariables, sizes, scalars), points
// the node's `next_edges` at the nodes of its inputs (`collect_next_edges`), and
// makes itself the `grad_fn` of its outputs (`set_history`). Gradients therefore
// flow from outputs to inputs along edges: `next_edge(i)` receives slot i of what
// `apply` returns (see Note [Index ranges computed at run time]). When several
// edges point at the same input of a node, the engine sums what arrives before
// calling the node.
//
//                              Interface
//~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Inputs of a node correspond to outputs of the forward op: `add_input_metadata`
// records each one's shape and dtype (`num_inputs()` of them), which the engine
// checks gradients against. Outputs correspond to inputs of the forward op: one
// edge each (`num_outputs()`), set with `set_next_edges` / `add_next_edge`.
// `should_compute_output` lets a formula skip inputs that need no gradient.
// `release_variables` frees saved tensors after a backward without retain_graph.
// Every node gets a *sequence number*, increasing in creation order across all
// threads; the engine runs ready nodes highest number first, so the most recent
// forward op is differentiated first (the order PyTorch uses).
//
// Nodes are owned by std::shared_ptr: the outputs' grad_fn and the edges of later
// nodes hold them; nothing holds a node's own outputs, so the graph is acyclic.
// Destroying a long chain is iterative, not recursive (see ~Node).
//~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
struct Node : std::enable_shared_from_this<Node> {
 public:
  /// Constructs a node with the next sequence number.
  Node() noexcept : Node(next_sequence_nr()) {}
  /// Constructs a node with a given sequence number (AccumulateGrad uses the
  /// maximum so that .grad is updated as soon as its gradient is complete).
  explicit Node(uint64_t sequence_nr) noexcept : sequence_nr_(sequence_nr) {}

  /// Nodes are neither copyable nor movable: edges refer to them by address.
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node();

  /// Nodes made with `new` (GradFn::create) come from the pool of small blocks
  /// (csrc/util/block_pool.h): a graph's nodes are all freed by its backward and made again by
  /// the next forward. The virtual destructor passes each node type's own size back.
  static void* operator new(size_t bytes) { return gradgen::internal::pooled_new(bytes); }
  static void operator delete(void* p, size_t bytes) noexcept {
    gradgen::internal::pooled_free(p, bytes);
  }
  /// An over-aligned node type goes to the global allocator.
  static void* operator new(size_t bytes, std::align_val_t align) {
    return ::operator new(bytes, align);
  }
  static void operator delete(void* p, size_t bytes, std::align_val_t align) noexcept {
    ::operator delete(p, bytes, align);
  }

  /// Computes the gradients of the forward inputs from those of the forward
  /// outputs. `grads` has num_inputs() entries (undefined where no gradient
  /// arrived); the result must have num_outputs() entries, undefined where
  /// should_compute_output is false.
  virtual variable_list apply(variable_list&& grads) = 0;

  /// Calls apply().
  variable_list operator()(variable_list&& grads) { return apply(std::move(grads)); }

  /// Returns the node's name for error messages ("MmBackward0").
  virtual std::string name() const;

  /// Frees saved tensors once the node will not run again (no retain_graph).
  virtual void release_variables() {}

  /// Visits the tensors the node saved for its formulas, in the generated members' order
  /// (generated nodes override it; the default saves nothing).
  virtual void visit_saved(SavedVisitor&) const {}

  /// Called just before apply() when the graph will not be kept (no retain_graph), as PyTorch's
  /// Node::will_release_variables: nodes whose formulas read `retain_variables` clear it.
  virtual void will_release_variables() {}

  // Inputs (one per forward output)
  //~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

  /// Records the shape and dtype of a forward output; returns its input number.
  uint32_t add_input_metadata(const Tensor& t) {
    input_metadata_.emplace_back(t);
    return static_cast<uint32_t>(input_metadata_.size() - 1);
  }
  /// Records a placeholder input whose gradient is never checked; returns its number.
  uint32_t add_input_metadata_placeholder() {
    input_metadata_.emplace_back();
    return static_cast<uint32_t>(input_metadata_.size() - 1);
  }
  /// Returns the metadata of input i.
  const InputMetadata& input_metadata(size_t i) const { return input_metadata_[i]; }
  /// Returns the number of inputs (gradients apply() receives).
  uint32_t num_inputs() const noexcept { return static_cast<uint32_t>(input_metadata_.size()); }

  // Outputs ("next edges", one per forward input)
  //~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

  /// Replaces all outgoing edges.
  void set_next_edges(edge_list&& next_edges) { next_edges_ = std::move(next_edges); }
  /// Appends an outgoing edge.
  void add_next_edge(Edge edge) { next_edges_.push_back(std::move(edge)); }
  /// Returns outgoing edge i.
  const Edge& next_edge(size_t i) const noexcept { return next_edges_[i]; }
  /// Returns all outgoing edges.
  const edge_list& next_edges() const noexcept { return next_edges_; }
  /// Returns the number of outgoing edges (gradients apply() returns).
  uint32_t num_outputs() const noexcept { return static_cast<uint32_t>(next_edges_.size()); }

  /// Returns true if output i's gradient is needed (its edge is valid).
  GRADGEN_ALWAYS_INLINE bool should_compute_output(size_t i) const {
    if (i >= next_edges_.size()) throw_output_out_of_range(i);
    return next_edges_[i].is_valid();
  }
  /// Returns true if any output in any of the ranges is needed.
  GRADGEN_ALWAYS_INLINE bool should_compute_output(std::initializer_list<IndexRange> ranges) const {
    // A run-time range (a Tensor[] input's slots) is checked against the edges in bytes:
    // next_edges_.size() divides the pointers' distance by sizeof(Edge) (24, a multiply by an
    // inverse), which the index form would pay on every call. Below kMaxGradientSlots,
    // i * sizeof(Edge) cannot wrap; a generated apply() knows its ranges are
    // (undefined_gradients), and that test folds. A constant range keeps the index form, whose
    // constant bound the compiler already turns into bytes.
    static_assert(sizeof(Edge) <= kMaxGradientSlotBytes, "an Edge larger than a slot's bound");
    for (const IndexRange& range : ranges) {
      if (__builtin_constant_p(range.second) || range.second > kMaxGradientSlots) {
        for (size_t i = range.first; i < range.second; ++i) {
          if (should_compute_output(i)) return true;
        }
        continue;
      }
      const Edge* const edges = next_edges_.data();
      const size_t extent =
          static_cast<size_t>(reinterpret_cast<const char*>(edges + next_edges_.size()) -
                              reinterpret_cast<const char*>(edges));
      for (size_t i = range.first; i < range.second; ++i) {
        if (i * sizeof(Edge) >= extent) throw_output_out_of_range(i);
        if (edges[i].is_valid()) return true;
      }
    }
    return false;
  }

  // Tensor pre-hooks (see csrc/autograd/hooks.h)
  //~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

  /// Runs `hooks` on input `input_nr`'s gradient before the node uses it.
  void add_tensor_pre_hook(uint32_t input_nr, std::shared_ptr<TensorHooks> hooks) {
    tensor_pre_hooks_.emplace_back(input_nr, std::move(hooks));
  }
  /// Stops running `hooks` (after an in-place op moved them to another node).
  void remove_tensor_pre_hook(const TensorHooks* hooks);
  /// Returns the (input number, hooks) pairs, in registration order.
  const std::vector<std::pair<uint32_t, std::shared_ptr<TensorHooks>>>& tensor_pre_hooks()
      const noexcept {
    return tensor_pre_hooks_;
  }

  // Miscellaneous
  //~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

  /// Returns the node's sequence number (creation order; see the banner).
  uint64_t sequence_nr() const noexcept { return sequence_nr_; }

  /// Returns where the node was created (recorded while anomaly mode is on, see
  /// csrc/autograd/anomaly_mode.h), or null.
  const AnomalyMetadata* anomaly_metadata() const noexcept { return anomaly_metadata_.get(); }
  /// Replaces the node's anomaly metadata.
  void set_anomaly_metadata(std::unique_ptr<AnomalyMetadata> metadata) noexcept {
    anomaly_metadata_ = std::move(metadata);
  }

  /// Returns a fresh sequence number.
  static uint64_t next_sequence_nr() noexcept {
    return sequence_counter_.fetch_add(1, std::memory_order_relaxed);
  }
  /// Returns the number the next node will get (the profiler links forward ops to nodes).
  static uint64_t peek_sequence_nr() noexcept {
    return sequence_counter_.load(std::memory_order_relaxed);
  }

 private:
  friend class Engine;
  [[noreturn]] void throw_output_out_of_range(size_t i) const;

  static inline std::atomic<uint64_t> sequence_counter_{0};

  const uint64_t sequence_nr_;
  edge_list next_edges_;
  SmallVector<InputMetadata, 1> input_metadata_;
  std::vector<std::pair<uint32_t, std::shared_ptr<TensorHooks>>> tensor_pre_hooks_;
  std::unique_ptr<AnomalyMetadata> anomaly_metadata_;  // null unless anomaly mode was on

  // Scratch space of the engine's graph task that owns this node (see engine.cc):
  // the task's id (0: none) and the node's slot in that task's arrays. Lets the
  // engine's per-node loop index arrays instead of looking nodes up in a map. The
  // id is atomic: backward passes on several threads may share a node (a leaf's
  // AccumulateGrad); only the owner writes or reads the slot.
  std::atomic<uint64_t> engine_task_{0};
  uint32_t engine_slot_ = 0;
};

}  // namespace autograd
}  // namespace gradgen
