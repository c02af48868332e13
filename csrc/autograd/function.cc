#include "csrc/autograd/function.h"

#include <cxxabi.h>

#include <cstdlib>
#include <typeinfo>

namespace gradgen {
namespace autograd {

// Note [Iterative graph destruction]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A chain of a million ops is a chain of a million nodes, each owning the next
// through an edge. Letting shared_ptr destroy them would recurse once per node and
// overflow the stack. Instead, the dying node moves every edge target it owns
// alone (use_count 1) onto a local stack and destroys them one at a time, first
// releasing each one's saved tensors (which may hold the same parents) and taking
// over the targets that it owned alone in turn. The generated code creates nodes
// with std::make_shared, so this must live in ~Node rather than in a deleter.
Node::~Node() {
  std::vector<std::shared_ptr<Node>> stack;
  auto take_sole_owned = [&stack](edge_list& edges) {
    for (Edge& edge : edges) {
      if (edge.function && edge.function.use_count() == 1) {
        stack.push_back(std::move(edge.function));
      }
    }
  };
  take_sole_owned(next_edges_);
  while (!stack.empty()) {
    std::shared_ptr<Node> node = std::move(stack.back());
    stack.pop_back();
    node->release_variables();
    take_sole_owned(node->next_edges_);
  }
}

std::string node_name(const Node& node) { return node.name(); }

std::string Node::name() const {
  const char* mangled = typeid(*this).name();
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string result = status == 0 && demangled ? demangled : mangled;
  std::free(demangled);
  return result;
}

void Node::remove_tensor_pre_hook(const TensorHooks* hooks) {
  for (auto it = tensor_pre_hooks_.begin(); it != tensor_pre_hooks_.end(); ++it) {
    if (it->second.get() == hooks) {
      tensor_pre_hooks_.erase(it);
      return;
    }
  }
}

void Node::throw_output_out_of_range(size_t i) const {
  throw std::runtime_error(name() + ": should_compute_output(" + std::to_string(i) +
                           ") out of range for a node with " + std::to_string(num_outputs()) +
                           " next edges");
}

namespace internal {

static std::string range_str(IndexRange range) {
  return "[" + std::to_string(range.first) + ", " + std::to_string(range.second) + ")";
}

void throw_copy_range_single(IndexRange range, size_t out_size) {
  throw std::runtime_error("copy_range: expected a range of length 1 for a Tensor input within " +
                           std::to_string(out_size) + " gradient slots, got " + range_str(range));
}

void throw_copy_range_list(IndexRange range, size_t out_size, size_t found) {
  throw std::runtime_error("copy_range: range " + range_str(range) + " within " +
                           std::to_string(out_size) + " gradient slots expects " +
                           std::to_string(range.second - range.first) + " gradients, got " +
                           std::to_string(found));
}

void throw_gradient_slots(size_t n) {
  if (n == 0) {
    throw std::logic_error(
        "apply(): a node with no gradient slots (recording makes a node only when one of its "
        "inputs requires grad, and each takes a slot)");
  }
  throw std::length_error("apply(): " + std::to_string(n) +
                          " gradient slots, more than a node can have (2^59)");
}

}  // namespace internal
}  // namespace autograd
}  // namespace gradgen
