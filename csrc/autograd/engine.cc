#include "csrc/autograd/engine.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "csrc/autograd/accumulate_grad.h"
#include "csrc/autograd/anomaly_mode.h"
#include "csrc/autograd/basic_ops.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/hooks.h"
#include "csrc/autograd/profiler.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/core_kernels.h"

namespace gradgen {
namespace autograd {

// Note [Engine bookkeeping without maps]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's GraphTask keeps dependencies and input buffers in hash maps keyed by
// node. Here, discovering the graph gives every reachable node a dense *slot*
// (0, 1, 2, ...), written into the node itself with the task's id (the Node's
// engine_task_/engine_slot_ fields); every per-node quantity is then an array
// indexed by slot, and all input buffers live in one flat vector. A task owns a
// node's tag from its claim (an atomic compare-and-swap from 0) to its end (a
// store of 0). A node another task owns, a leaf's AccumulateGrad shared by
// backward passes on two threads or an outer backward's node seen by a nested one
// (run from inside a node's apply), gets its slot from the task's `foreign` map.
class Engine {
 public:
  /// Runs one backward pass; returns the captured gradients of `inputs` (grad())
  /// or nothing (backward(), when inputs is null).
  static variable_list execute(const char* api, const variable_list& roots,
                               const variable_list& root_grads, bool retain_graph,
                               bool create_graph, const variable_list* inputs, bool allow_unused);

 private:
  static constexpr uint32_t kNoSlot = UINT32_MAX;

  struct Capture {
    uint32_t slot;
    uint32_t input_nr;
    size_t output_index;
  };
  // The state of one backward pass.
  struct GraphTask {
    explicit GraphTask(bool nested) : id(next_id()), nested(nested) { slots.reserve(32); }
    ~GraphTask() {
      // Release the tags this task owns (the release pairs with claim's acquire).
      for (const Slot& s : slots) {
        Node* node = s.node;
        if (node->engine_task_.load(std::memory_order_relaxed) == id) {
          node->engine_task_.store(0, std::memory_order_release);
        }
      }
    }
    static uint64_t next_id() {
      static std::atomic<uint64_t> counter{1};
      return counter.fetch_add(1, std::memory_order_relaxed);
    }

    uint32_t slot_of(const Node* node) const {
      if (node->engine_task_.load(std::memory_order_relaxed) == id) return node->engine_slot_;
      if (foreign.empty()) return kNoSlot;
      auto it = foreign.find(node);
      return it == foreign.end() ? kNoSlot : it->second;
    }
    // Gives `node` the next slot; returns false if it already had one.
    bool claim(Node* node) {
      const uint32_t slot = static_cast<uint32_t>(slots.size());
      // A node this task met while another task owned it keeps its slot in `foreign`, even
      // once that task has released the tag: else a second edge to it (a shared leaf's
      // AccumulateGrad reached from several ops) would take the free tag and a second slot,
      // splitting its gradient between the two.
      if (!foreign.empty() && foreign.count(node) != 0) return false;
      uint64_t owner = 0;
      if (node->engine_task_.compare_exchange_strong(owner, id, std::memory_order_acquire,
                                                     std::memory_order_relaxed)) {
        node->engine_slot_ = slot;
      } else if (owner == id || !foreign.emplace(node, slot).second) {
        return false;  // claimed already, in the tag or in `foreign`
      }
      slots.push_back({node, 0, 0});
      return true;
    }

    const uint64_t id;
    const bool nested;
    // What the engine keeps per node, by slot, in one array (one growth per discovered node).
    struct Slot {
      Node* node;
      uint32_t dependencies;   // edges from not-yet-run nodes
      uint32_t buffer_offset;  // index of its input 0 in buffers
    };
    std::vector<Slot> slots;
    std::vector<Tensor> buffers;          // all input buffers, back to back
    std::vector<uint8_t> should_execute;  // slot -> run apply()? (empty: all run)
    std::vector<uint8_t> has_capture;     // slot -> any Capture for this slot?
    std::vector<uint8_t> needed;          // grad(): slot -> runs or is captured (exec_info)
    std::vector<Capture> captures;
    std::unordered_map<const Node*, uint32_t> foreign;  // slots of nodes other tasks own
  };

  // The roots' edges and the gradients seeded into them.
  struct Roots {
    edge_list edges;
    variable_list grads;
  };
  // Ready nodes: a max-heap on (sequence_nr, slot).
  using ReadyQueue = std::vector<std::pair<uint64_t, uint32_t>>;

  // The steps of execute(), in order.
  static Roots seed_roots(const std::string& op, const variable_list& roots,
                          const variable_list& root_grads);
  static void discover(GraphTask& task, const edge_list& root_edges);
  // grad(): where to capture each input's gradient, and which nodes must run.
  static void set_up_captures(const std::string& op, GraphTask& task, const variable_list& inputs,
                              const edge_list& root_edges);
  // Seeds the roots' buffers and runs every ready node until none is left; `results` (grad()
  // only, else null) receives the captured gradients.
  struct RunOptions {
    bool retain_graph;
    bool create_graph;
    variable_list* results;
    bool detect_anomaly;  // AnomalyMode::is_enabled() when the pass started (anomaly_mode.h)
  };
  static void run(GraphTask& task, Roots& seeded, const RunOptions& options);
  // Runs one ready node: hooks, captures, apply(), then hands its gradients to the next nodes
  // (queueing those whose dependencies are all met). `node_inputs` is reused storage.
  static void run_node(GraphTask& task, uint32_t slot, const RunOptions& options,
                       variable_list& node_inputs, ReadyQueue& ready);
  static void check_all_used(const std::string& op, const variable_list& results);

  static void compute_should_execute(GraphTask& task, const edge_list& root_edges);
  // grad(): calls node.apply() with its edges to unneeded nodes hidden (Note [exec_info]).
  static variable_list apply_needed(const GraphTask& task, Node& node, variable_list&& inputs,
                                    bool detect_anomaly);
  static void validate_outputs(const Node& node, variable_list& grads);
  static void accumulate(Tensor& buffer, Tensor&& grad, bool create_graph);
  static void run_tensor_pre_hooks(Node& node, Tensor* buffer, bool create_graph);
};

namespace {

thread_local int engine_depth = 0;

struct DepthGuard {
  DepthGuard() { ++engine_depth; }
  ~DepthGuard() { --engine_depth; }
};

// Anomaly mode (anomaly_mode.h): what a node's errors say about where it was created.
std::string forward_site(const Node& node) {
  const AnomalyMetadata* metadata = node.anomaly_metadata();
  if (!metadata) {
    return "its forward op (no call site recorded: " + node.name() +
           " was created outside anomaly mode)";
  }
  std::string out = "forward op '" +
                    (metadata->forward_op.empty() ? std::string("?") : metadata->forward_op) + "'";
  if (!metadata->user_op.empty() && metadata->user_op != metadata->forward_op) {
    out += " (inside '" + metadata->user_op + "')";
  }
  if (!metadata->stack.empty()) {
    out += "; forward call site (most recent call last):\n" + metadata->stack;
  }
  return out;
}

template <typename T>
const char* non_finite_in(const Tensor& t) {
  const Tensor dense = t.contiguous();
  const T* data = dense.data_ptr<T>();
  bool inf = false;
  for (int64_t i = 0, n = dense.numel(); i < n; ++i) {
    if (std::isnan(data[i])) return "nan";
    if (std::isinf(data[i])) inf = true;
  }
  return inf ? "inf" : nullptr;
}

// Returns "nan" or "inf" if the floating tensor t holds one (nan first), else null.
const char* non_finite(const Tensor& t) {
  if (!t.defined()) return nullptr;
  switch (t.scalar_type()) {
    case ScalarType::Double: return non_finite_in<double>(t);
    case ScalarType::Float: return non_finite_in<float>(t);
    default: return nullptr;
  }
}

// Runs node.apply() in anomaly mode: an error it raises gets the node's forward call site
// appended (same exception type), and a gradient with NaN or inf raises, naming the node,
// the slot and the forward op. Out of line: the engine's loop only tests the mode.
[[gnu::noinline]] variable_list apply_checked(Node& node, variable_list&& inputs) {
  variable_list grads;
  try {
    grads = node.apply(std::move(inputs));
  } catch (const std::out_of_range& e) {
    throw std::out_of_range(std::string(e.what()) + "\n[anomaly mode] in " + node.name() +
                            ", created by " + forward_site(node));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(e.what()) + "\n[anomaly mode] in " + node.name() +
                                ", created by " + forward_site(node));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()) + "\n[anomaly mode] in " + node.name() +
                             ", created by " + forward_site(node));
  }
  for (size_t i = 0; i < grads.size(); ++i) {
    if (const char* what = non_finite(grads[i])) {
      throw std::runtime_error("Function '" + node.name() + "' returned " + what +
                               " values in its output " + std::to_string(i) +
                               ", the gradient for input slot " + std::to_string(i) + " of " +
                               forward_site(node));
    }
  }
  return grads;
}

}  // namespace

void Engine::discover(GraphTask& task, const edge_list& root_edges) {
  std::vector<Node*> stack;
  stack.reserve(16);
  for (const Edge& edge : root_edges) {
    if (task.claim(edge.function.get())) stack.push_back(edge.function.get());
  }
  while (!stack.empty()) {
    Node* node = stack.back();
    stack.pop_back();
    for (const Edge& edge : node->next_edges_) {
      Node* next = edge.function.get();
      if (!next) continue;
      if (edge.input_nr >= next->num_inputs()) {
        throw std::runtime_error(
            node->name() + " has an edge to input " + std::to_string(edge.input_nr) + " of " +
            next->name() + ", which has only " + std::to_string(next->num_inputs()) + " inputs");
      }
      if (task.claim(next)) stack.push_back(next);
      ++task.slots[task.slot_of(next)].dependencies;
    }
  }
  uint32_t total = 0;
  for (GraphTask::Slot& slot : task.slots) {
    slot.buffer_offset = total;
    total += slot.node->num_inputs();
  }
  task.buffers.resize(total);
}

// For grad(): a node must run if one of its edges leads to a node that runs or
// whose input buffer is captured. Computed children-first by an iterative
// post-order walk (the graph is a DAG).
void Engine::compute_should_execute(GraphTask& task, const edge_list& root_edges) {
  const size_t n = task.slots.size();
  std::vector<uint8_t> feeds(task.has_capture);  // runs, or is captured
  std::vector<uint8_t> visited(n, 0);
  task.should_execute.assign(n, 0);
  std::vector<std::pair<uint32_t, size_t>> stack;  // (slot, next edge to visit)
  for (const Edge& root : root_edges) {
    const uint32_t root_slot = task.slot_of(root.function.get());
    if (visited[root_slot]) continue;
    visited[root_slot] = 1;
    stack.push_back({root_slot, 0});
    while (!stack.empty()) {
      const uint32_t slot = stack.back().first;
      const edge_list& edges = task.slots[slot].node->next_edges_;
      const size_t i = stack.back().second++;
      if (i < edges.size()) {
        if (edges[i].function) {
          const uint32_t child = task.slot_of(edges[i].function.get());
          if (!visited[child]) {
            visited[child] = 1;
            stack.push_back({child, 0});
          }
        }
        continue;
      }
      bool execute = false;
      for (const Edge& edge : edges) {
        if (edge.function && feeds[task.slot_of(edge.function.get())]) {
          execute = true;
          break;
        }
      }
      task.should_execute[slot] = execute;
      feeds[slot] = feeds[slot] || execute;
      stack.pop_back();
    }
  }
  task.needed = std::move(feeds);
}

namespace {

std::atomic<SumToFn> sum_to_fn{nullptr};

// Whether a tensor of shape `shape` broadcasts to `target` (so a gradient of shape `target` can be
// summed to `shape`).
bool expandable_to(IntArrayRef shape, IntArrayRef target) {
  if (shape.size() > target.size()) return false;
  const size_t lead = target.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] != 1 && shape[d] != target[lead + d]) return false;
  }
  return true;
}

}  // namespace

void set_sum_to_fn(SumToFn fn) noexcept { sum_to_fn.store(fn); }

void Engine::validate_outputs(const Node& node, variable_list& grads) {
  const edge_list& edges = node.next_edges_;
  if (grads.size() != edges.size()) {
    throw std::runtime_error(node.name() + " returned " + std::to_string(grads.size()) +
                             " gradients, expected " + std::to_string(edges.size()) +
                             " (one per next edge)");
  }
  for (size_t i = 0; i < grads.size(); ++i) {
    const Tensor& grad = grads[i];
    const Edge& edge = edges[i];
    if (!grad.defined() || !edge.is_valid()) continue;
    const InputMetadata& expected = edge.function->input_metadata(edge.input_nr);
    if (!expected.is_defined) continue;
    const TensorImpl& impl = *grad.unsafe_impl();
    // IntArrayRef::equals compares in a loop: a shape has a few dims, for which SmallVector's ==
    // (std::equal, a call of memcmp) costs several times as much.
    const IntArrayRef expected_shape(expected.shape.data(), expected.shape.size());
    if (!IntArrayRef(impl.sizes.data(), impl.sizes.size()).equals(expected_shape)) {
      // A gradient in the broadcast shape of the op's result is summed to the input's shape, as
      // PyTorch's validate_outputs does: formulas need no sum_to of their own.
      const SumToFn reduce = sum_to_fn.load(std::memory_order_relaxed);
      if (reduce == nullptr || !expandable_to(expected.shape, grad.sizes())) {
        throw std::runtime_error(node.name() + " returned a gradient of shape " +
                                 shape_str(grad.sizes()) + " for its input " + std::to_string(i) +
                                 ", expected " + shape_str(expected.shape));
      }
      grads[i] = reduce(grad, expected.shape);
    }
    // Each input's gradient has that input's dtype (PyTorch converts too: mixed-dtype ops).
    // (grads[i], not impl: the sum above may have replaced the tensor impl referred to.)
    if (grads[i].unsafe_impl()->dtype != expected.dtype) {
      grads[i] = gradgen::internal::to_dtype(grads[i], expected.dtype);
    }
  }
}

void Engine::run_tensor_pre_hooks(Node& node, Tensor* buffer, bool create_graph) {
  const std::string name = node.name();
  for (const auto& entry : node.tensor_pre_hooks_) {
    Tensor& grad = buffer[entry.first];
    if (grad.defined())
      grad = run_tensor_hooks(*entry.second, std::move(grad), create_graph, name.c_str());
  }
}

// Sums grad into an input buffer slot: in place when nobody else can see the
// buffer and no graph is being recorded, else out of place (differentiably).
void Engine::accumulate(Tensor& buffer, Tensor&& grad, bool create_graph) {
  if (!buffer.defined()) {
    buffer = std::move(grad);
  } else if (!create_graph && !buffer.requires_grad() && gradgen::internal::is_sole_owner(buffer)) {
    gradgen::internal::add_(buffer, grad);
  } else {
    buffer = add_gradients(buffer, grad);
  }
}

variable_list Engine::execute(const char* api, const variable_list& roots,
                              const variable_list& root_grads, bool retain_graph, bool create_graph,
                              const variable_list* inputs, bool allow_unused) {
  const std::string op = api;
  Roots seeded = seed_roots(op, roots, root_grads);

  DepthGuard depth;
  GraphTask task(/*nested=*/engine_depth > 1);
  discover(task, seeded.edges);

  variable_list results;
  if (inputs) {
    results.resize(inputs->size());
    set_up_captures(op, task, *inputs, seeded.edges);
  }

  // Formulas record a graph (and gradients are summed differentiably) only for
  // create_graph.
  AutoGradMode grad_mode(create_graph);
  run(task, seeded,
      {retain_graph, create_graph, inputs ? &results : nullptr, AnomalyMode::is_enabled()});

  if (inputs && !allow_unused) check_all_used(op, results);
  return results;
}

Engine::Roots Engine::seed_roots(const std::string& op, const variable_list& roots,
                                 const variable_list& root_grads) {
  if (roots.empty()) throw std::invalid_argument(op + ": expected at least one output tensor");
  if (!root_grads.empty() && root_grads.size() != roots.size()) {
    throw std::invalid_argument(op + ": got " + std::to_string(root_grads.size()) +
                                " gradients for " + std::to_string(roots.size()) + " tensors");
  }
  Roots seeded;
  seeded.edges.reserve(roots.size());
  seeded.grads.resize(roots.size());
  for (size_t i = 0; i < roots.size(); ++i) {
    const Tensor& root = roots[i];
    if (!root.defined()) {
      throw std::invalid_argument(op + ": tensor " + std::to_string(i) + " is undefined");
    }
    if (!root.requires_grad()) {
      throw std::runtime_error(op + ": tensor " + std::to_string(i) +
                               " does not require grad and does not have a grad_fn");
    }
    seeded.edges.push_back(gradient_edge(root));
    const Tensor given = root_grads.empty() ? Tensor() : root_grads[i];
    if (!given.defined()) {
      if (root.numel() != 1) {
        throw std::runtime_error(op +
                                 ": grad can be implicitly created only for scalar outputs, "
                                 "but tensor " +
                                 std::to_string(i) + " has shape " + shape_str(root.sizes()) +
                                 "; pass its gradient explicitly");
      }
      seeded.grads[i] = ones(root.sizes(), root.scalar_type());
    } else {
      if (!given.sizes().equals(root.sizes()) || given.scalar_type() != root.scalar_type()) {
        throw std::invalid_argument(
            op + ": gradient " + std::to_string(i) + " has shape " + shape_str(given.sizes()) +
            " and dtype " + to_string(given.scalar_type()) + ", expected shape " +
            shape_str(root.sizes()) + " and dtype " + to_string(root.scalar_type()) +
            " (those of tensor " + std::to_string(i) + ")");
      }
      seeded.grads[i] = given;
    }
  }
  return seeded;
}

void Engine::set_up_captures(const std::string& op, GraphTask& task, const variable_list& inputs,
                             const edge_list& root_edges) {
  task.has_capture.assign(task.slots.size(), 0);
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Tensor& input = inputs[k];
    if (!input.requires_grad()) {
      throw std::runtime_error(op + ": input " + std::to_string(k) + " does not require grad");
    }
    Edge edge = input.grad_fn() ? Edge(input.grad_fn(), input.output_nr())
                                : Edge(try_get_grad_accumulator(input), 0);
    if (!edge.function) continue;
    const uint32_t slot = task.slot_of(edge.function.get());
    if (slot == kNoSlot) continue;
    task.captures.push_back({slot, edge.input_nr, k});
    task.has_capture[slot] = 1;
  }
  compute_should_execute(task, root_edges);
}

void Engine::run(GraphTask& task, Roots& seeded, const RunOptions& options) {
  for (size_t i = 0; i < seeded.edges.size(); ++i) {
    const Edge& edge = seeded.edges[i];
    const uint32_t slot = task.slot_of(edge.function.get());
    accumulate(task.buffers[task.slots[slot].buffer_offset + edge.input_nr],
               std::move(seeded.grads[i]), options.create_graph);
  }

  // The ready queue: a max-heap on (sequence_nr, slot).
  ReadyQueue ready;
  ready.reserve(16);
  for (const Edge& edge : seeded.edges) {
    const uint32_t slot = task.slot_of(edge.function.get());
    GraphTask::Slot& root = task.slots[slot];
    if (root.dependencies == 0) {
      root.dependencies = UINT32_MAX;  // queued once even if several roots share it
      ready.push_back({root.node->sequence_nr(), slot});
    }
  }
  std::make_heap(ready.begin(), ready.end());

  variable_list node_inputs;
  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end());
    const uint32_t slot = ready.back().second;
    ready.pop_back();
    run_node(task, slot, options, node_inputs, ready);
  }
}

void Engine::run_node(GraphTask& task, uint32_t slot, const RunOptions& options,
                      variable_list& node_inputs, ReadyQueue& ready) {
  const bool create_graph = options.create_graph;
  variable_list* results = options.results;
  Node* node = task.slots[slot].node;
  Tensor* buffer = task.buffers.data() + task.slots[slot].buffer_offset;

  // Tensor hooks and retain_grad see the summed gradient first (hooks.h).
  if (!node->tensor_pre_hooks_.empty()) run_tensor_pre_hooks(*node, buffer, create_graph);

  if (results) {
    if (task.has_capture[slot]) {
      for (const Capture& capture : task.captures) {
        if (capture.slot == slot) (*results)[capture.output_index] = buffer[capture.input_nr];
      }
    }
    if (!task.should_execute[slot]) return;
  }

  node_inputs.assign(std::make_move_iterator(buffer),
                     std::make_move_iterator(buffer + node->num_inputs()));
  if (!options.retain_graph) node->will_release_variables();
  profiler::RecordNode record_node(*node, node_inputs);  // one branch when not profiling
  variable_list grads =
      results ? apply_needed(task, *node, std::move(node_inputs), options.detect_anomaly)
      : __builtin_expect(options.detect_anomaly, 0) ? apply_checked(*node, std::move(node_inputs))
                                                    : node->apply(std::move(node_inputs));
  record_node.finish();
  if (!options.retain_graph) node->release_variables();
  validate_outputs(*node, grads);

  const edge_list& edges = node->next_edges_;
  for (size_t i = 0; i < edges.size(); ++i) {
    const Edge& edge = edges[i];
    if (!edge.function) continue;
    const uint32_t next = task.slot_of(edge.function.get());  // claimed in discover()
    if (grads[i].defined()) {
      accumulate(task.buffers[task.slots[next].buffer_offset + edge.input_nr], std::move(grads[i]),
                 create_graph);
    }
    if (--task.slots[next].dependencies == 0) {
      ready.push_back({edge.function->sequence_nr(), next});
      std::push_heap(ready.begin(), ready.end());
    }
  }
}

// Note [exec_info]
// ~~~~~~~~~~~~~~~~
// grad(outputs, inputs) needs only the gradients that lead to an input: a node runs
// only if it is on a path to one (should_execute), and, as PyTorch's exec_info, a
// node that runs computes only the formulas of its inputs whose edges lead to a node
// that runs or is captured (`needed`). The generated apply() asks
// should_compute_output per input range, which reads the edges: so the edges to
// unneeded nodes are hidden (made invalid) while apply() runs, and restored after,
// even when apply() throws. CopySlices hands its edges to the node it wraps, so the
// masks reach that node too. backward() runs every formula whose edge is valid.
variable_list Engine::apply_needed(const GraphTask& task, Node& node, variable_list&& inputs,
                                   bool detect_anomaly) {
  struct Hidden {
    Node& node;
    std::vector<std::pair<size_t, std::shared_ptr<Node>>> edges;  // (index, function)
    ~Hidden() {
      for (auto& e : edges) node.next_edges_[e.first].function = std::move(e.second);
    }
  } hidden{node, {}};
  for (size_t i = 0; i < node.next_edges_.size(); ++i) {
    Edge& edge = node.next_edges_[i];
    if (edge.function && !task.needed[task.slot_of(edge.function.get())]) {
      hidden.edges.emplace_back(i, std::move(edge.function));
    }
  }
  return __builtin_expect(detect_anomaly, 0) ? apply_checked(node, std::move(inputs))
                                             : node.apply(std::move(inputs));
}

void Engine::check_all_used(const std::string& op, const variable_list& results) {
  for (size_t k = 0; k < results.size(); ++k) {
    if (!results[k].defined()) {
      throw std::runtime_error(
          op + ": input " + std::to_string(k) +
          " was not used in the graph of the outputs (or received no gradient); pass "
          "allow_unused=true to get an undefined gradient for it");
    }
  }
}

void backward(const variable_list& tensors, const variable_list& grad_tensors, bool retain_graph,
              bool create_graph) {
  Engine::execute("backward", tensors, grad_tensors, retain_graph, create_graph,
                  /*inputs=*/nullptr, /*allow_unused=*/false);
}

variable_list grad(const variable_list& outputs, const variable_list& inputs,
                   const variable_list& grad_outputs, bool retain_graph, bool create_graph,
                   bool allow_unused) {
  return Engine::execute("grad", outputs, grad_outputs, retain_graph, create_graph, &inputs,
                         allow_unused);
}

}  // namespace autograd

void Tensor::backward(const Tensor& gradient, bool retain_graph, bool create_graph) const {
  autograd::backward({*this}, {gradient}, retain_graph, create_graph);
}

}  // namespace gradgen
