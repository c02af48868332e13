#include "csrc/autograd/dot.h"

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "csrc/autograd/accumulate_grad.h"
#include "csrc/autograd/saved_variable.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/default_dtype.h"

namespace gradgen {
namespace autograd {
namespace {

// A DOT string literal's body: quotes and backslashes escaped, newlines as \n.
std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// The dtype is named unless it is the default one (Double in C++, Float in Python), as reprs do.
std::string shape_and_dtype(IntArrayRef shape, ScalarType dtype) {
  std::string out = shape_str(shape);
  if (dtype != get_default_dtype()) out += std::string(" ") + to_string(dtype);
  return out;
}

// One line per saved tensor: "self: [4, 3]", "tensors[1]: [2] Float", "result: freed".
struct SavedLines : SavedVisitor {
  std::string lines;
  void add(const std::string& name, const SavedVariable& v) {
    const Tensor& t = v.peek_data();
    lines += "\n" + name + ": " + (t.defined() ? shape_and_dtype(t.sizes(), t.scalar_type()) : "-");
  }
  void visit(const char* name, const SavedVariable& v) override { add(name, v); }
  void visit(const char* name, const std::vector<SavedVariable>& list) override {
    if (list.empty()) lines += "\n" + std::string(name) + ": -";
    for (size_t i = 0; i < list.size(); ++i) {
      add(std::string(name) + "[" + std::to_string(i) + "]", list[i]);
    }
  }
};

class DotWriter {
 public:
  explicit DotWriter(const DotNames& names) {
    for (const auto& entry : names) {
      if (entry.second.defined()) names_.emplace(entry.second.unsafe_impl(), entry.first);
    }
  }

  std::string write(const variable_list& roots) {
    body_ += "digraph autograd {\n";
    body_ += "  node [shape=box, style=filled, fillcolor=white, fontname=\"Helvetica\"];\n";
    body_ += "  edge [fontname=\"Helvetica\", fontsize=10];\n";
    for (size_t i = 0; i < roots.size(); ++i) {
      const Tensor& root = roots[i];
      if (!root.defined()) {
        throw std::invalid_argument("to_dot: root " + std::to_string(i) + " is undefined");
      }
      const std::string id = "t" + std::to_string(i);
      std::string label = name_of(root, roots.size() == 1 ? "output" : "output " + id.substr(1));
      label += "\n" + shape_and_dtype(root.sizes(), root.scalar_type());
      body_ +=
          "  " + id + " [label=\"" + escape(label) + "\", shape=ellipse, fillcolor=\"#cfe2f3\"];\n";
      Edge edge = gradient_edge(root);
      if (edge.function)
        edges_ += "  " + id + " -> " + id_of(edge.function.get()) + edge_attrs(edge, -1);
    }
    // Breadth-first over the nodes found so far (id_of appends to order_).
    for (size_t k = 0; k < order_.size(); ++k) {
      const Node* node = order_[k];
      const std::string id = ids_.at(node);
      body_ += "  " + id + " [" + node_attrs(*node) + "];\n";
      const edge_list& next = node->next_edges();
      for (size_t slot = 0; slot < next.size(); ++slot) {
        const Edge& edge = next[slot];
        if (!edge.function) continue;
        edges_ += "  " + id + " -> " + id_of(edge.function.get()) +
                  edge_attrs(edge, static_cast<int64_t>(slot));
      }
    }
    return body_ + edges_ + "}\n";
  }

 private:
  std::string name_of(const Tensor& t, const std::string& fallback) const {
    auto it = names_.find(t.unsafe_impl());
    return it == names_.end() ? fallback : it->second;
  }

  const std::string& id_of(const Node* node) {
    auto it = ids_.find(node);
    if (it != ids_.end()) return it->second;
    order_.push_back(node);
    return ids_.emplace(node, "n" + std::to_string(order_.size() - 1)).first->second;
  }

  // slot: the source node's output slot, or -1 for a root tensor's edge.
  static std::string edge_attrs(const Edge& edge, int64_t slot) {
    std::string label = slot >= 0 ? std::to_string(slot) : "";
    if (edge.input_nr != 0 || edge.function->num_inputs() > 1) {
      label += ":" + std::to_string(edge.input_nr);
    }
    return label.empty() ? ";\n" : " [label=\" " + label + "\"];\n";
  }

  std::string node_attrs(const Node& node) const {
    if (const auto* leaf = dynamic_cast<const AccumulateGrad*>(&node)) {
      const Tensor& t = leaf->variable;
      std::string label = name_of(t, "leaf");
      if (t.defined()) label += "\n" + shape_and_dtype(t.sizes(), t.scalar_type());
      return "label=\"" + escape(label) + "\", fillcolor=\"#d9ead3\"";
    }
    std::string label = node.name();
    for (uint32_t i = 0; i < node.num_inputs(); ++i) {
      const InputMetadata& meta = node.input_metadata(i);
      label += i == 0 ? "\n" : ", ";
      label += meta.is_defined ? shape_and_dtype(meta.shape, meta.dtype) : "-";
    }
    SavedLines saved;
    node.visit_saved(saved);
    label += saved.lines;
    return "label=\"" + escape(label) + "\"";
  }

  std::unordered_map<const TensorImpl*, std::string> names_;
  std::unordered_map<const Node*, std::string> ids_;
  std::vector<const Node*> order_;
  std::string body_;
  std::string edges_;
};

}  // namespace

std::string to_dot(const variable_list& roots, const DotNames& names) {
  return DotWriter(names).write(roots);
}

std::string to_dot(const Tensor& root, const DotNames& names) {
  return to_dot(variable_list{root}, names);
}

}  // namespace autograd
}  // namespace gradgen
