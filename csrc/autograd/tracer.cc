#include "csrc/autograd/tracer.h"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "csrc/util/json.h"

namespace gradgen {
namespace autograd {
namespace tracer {

namespace internal {

struct State {
  Graph graph;
  // The value each tensor (by identity) holds now; the tensors are kept alive so that an
  // address is never reused by another tensor while tracing.
  std::unordered_map<const TensorImpl*, int64_t> id_of;
  // Outputs of DONT_RECORD_TRACE ops not used yet: the op that produced each.
  std::unordered_map<const TensorImpl*, std::string> untraced_of;
  std::vector<Tensor> keep_alive;
  int depth = 0;  // traced and untraced scopes open
};

namespace {

int64_t new_value(State& st, ValueInfo::Kind kind, const Tensor& t) {
  ValueInfo v;
  v.kind = kind;
  v.defined = t.defined();
  if (t.defined()) {
    v.shape = t.sizes().vec();
    v.dtype = t.scalar_type();
  }
  if (kind == ValueInfo::Kind::kConstant || kind == ValueInfo::Kind::kUntraced) v.constant = t;
  st.graph.values.push_back(std::move(v));
  const int64_t id = static_cast<int64_t>(st.graph.values.size() - 1);
  if (t.defined()) {
    st.id_of[t.unsafe_impl()] = id;
    st.keep_alive.push_back(t);
  }
  return id;
}

// The value a tensor used by a node (or returned) refers to; `use` says where, for warnings.
int64_t lookup(State& st, const Tensor& t, const std::string& use) {
  if (t.defined()) {
    auto it = st.id_of.find(t.unsafe_impl());
    if (it != st.id_of.end()) return it->second;
    auto hole = st.untraced_of.find(t.unsafe_impl());
    if (hole != st.untraced_of.end()) {
      const std::string op = hole->second;
      st.untraced_of.erase(hole);
      const int64_t id = new_value(st, ValueInfo::Kind::kUntraced, t);
      st.graph.values[static_cast<size_t>(id)].untraced_op = op;
      st.graph.warnings.push_back("the trace has a hole at %" + std::to_string(id) + ": " + use +
                                  " is an output of " + op +
                                  ", which is not traced (DONT_RECORD_TRACE); replay uses the "
                                  "value it had while tracing");
      return id;
    }
  }
  return new_value(st, ValueInfo::Kind::kConstant, t);
}

std::string use_of(const State& st, const char* name) {
  const Node& node = st.graph.nodes.back();
  return "argument '" + std::string(name) + "' of " + node.op + " (node " +
         std::to_string(st.graph.nodes.size() - 1) + ")";
}

}  // namespace

void throw_arg_names_mismatch(const char* op, size_t names, size_t args) {
  throw std::logic_error(std::string("tracer: ") + op + ": the wrapper names " +
                         std::to_string(names) + " arguments and passes " + std::to_string(args));
}

Node* begin_op(const char* op, ReplayFn replay) {
  State* st = state;
  if (st == nullptr) return nullptr;
  if (st->depth++ > 0) return nullptr;  // inside another op: only the outermost is recorded
  Node node;
  node.op = op;
  node.replay = replay;
  st->graph.nodes.push_back(std::move(node));
  return &st->graph.nodes.back();
}

bool begin_untraced(const char*) {
  State* st = state;
  if (st == nullptr) return false;
  return st->depth++ == 0;
}

void end_op() {
  if (state != nullptr && state->depth > 0) --state->depth;
}

void add_tensor(Node* node, const char* name, const Tensor& t) {
  Arg a;
  a.name = name;
  a.kind = Arg::Kind::kTensor;
  a.values.push_back(lookup(*state, t, use_of(*state, name)));
  node->args.push_back(std::move(a));
}

void add_optional_tensor(Node* node, const char* name, const std::optional<Tensor>& t) {
  Arg a;
  a.name = name;
  a.kind = Arg::Kind::kOptionalTensor;
  if (t.has_value()) a.values.push_back(lookup(*state, *t, use_of(*state, name)));
  node->args.push_back(std::move(a));
}

void add_tensor_list(Node* node, const char* name, TensorList ts) {
  Arg a;
  a.name = name;
  a.kind = Arg::Kind::kTensorList;
  for (size_t i = 0; i < ts.size(); ++i) {
    a.values.push_back(
        lookup(*state, ts[i], use_of(*state, name) + " element " + std::to_string(i)));
  }
  node->args.push_back(std::move(a));
}

void add_constant(Node* node, const char* name, std::string text, Value v) {
  Arg a;
  a.name = name;
  a.kind = Arg::Kind::kConstant;
  a.text = std::move(text);
  a.constant = std::move(v);
  node->args.push_back(std::move(a));
}

void add_output(Node* node, const Tensor& t) {
  State& st = *state;
  st.untraced_of.erase(t.unsafe_impl());
  node->outputs.push_back(new_value(st, ValueInfo::Kind::kOutput, t));
}

void mark_untraced_output(const char* op, const Tensor& t) {
  if (!t.defined()) return;
  State& st = *state;
  st.id_of.erase(t.unsafe_impl());  // an in-place untraced op: the old value is gone
  st.untraced_of[t.unsafe_impl()] = op;
  st.keep_alive.push_back(t);
}

std::string format(int64_t v) { return std::to_string(v); }
std::string format(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eni") == std::string::npos) s += ".";
  return s;
}
std::string format(bool v) { return v ? "True" : "False"; }
std::string format(const Scalar& v) { return v.to_string(); }
std::string format(ScalarType v) { return to_string(v); }
std::string format(std::string_view v) { return "\"" + std::string(v) + "\""; }
std::string format(IntArrayRef v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}
std::string format(ArrayRef<double> v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + format(v[i]);
  return out + "]";
}

std::string format(Layout) { return "strided"; }
std::string format(Device) { return "cpu"; }
std::string format(MemoryFormat v) {
  return v == MemoryFormat::Contiguous ? "contiguous_format" : "preserve_format";
}

}  // namespace internal

namespace {

std::string type_str(const ValueInfo& v) {
  if (!v.defined) return "None";
  return std::string(to_string(v.dtype)) + internal::format(IntArrayRef(v.shape));
}

std::string ref(int64_t id) { return "%" + std::to_string(id); }

using util::json_string;

std::string ids_json(const std::vector<int64_t>& ids) {
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out + "]";
}

const char* kind_name(ValueInfo::Kind k) {
  switch (k) {
    case ValueInfo::Kind::kInput: return "input";
    case ValueInfo::Kind::kOutput: return "output";
    case ValueInfo::Kind::kConstant: return "constant";
    case ValueInfo::Kind::kUntraced: return "untraced";
  }
  return "?";
}

}  // namespace

bool is_tracing() noexcept { return internal::state != nullptr; }

std::string Graph::str() const {
  std::string out = "graph(";
  for (size_t i = 0; i < inputs.size(); ++i) {
    out += (i ? ", " : "") + ref(inputs[i]) + " : " + type_str(values[inputs[i]]);
  }
  out += "):\n";
  // Constants and holes are printed just before their first use.
  std::unordered_set<int64_t> printed;
  auto define = [&](int64_t id) {
    const ValueInfo& v = values[static_cast<size_t>(id)];
    if (v.kind != ValueInfo::Kind::kConstant && v.kind != ValueInfo::Kind::kUntraced) return;
    if (!printed.insert(id).second) return;
    out += "  " + ref(id) + " : " + type_str(v) + " = ";
    if (v.kind == ValueInfo::Kind::kConstant) {
      out += "constant()\n";
    } else {
      out += "untraced[" + v.untraced_op + "]()  # hole: " + v.untraced_op +
             " is DONT_RECORD_TRACE; replay uses the traced value\n";
    }
  };
  for (const Node& node : nodes) {
    for (const Arg& a : node.args) {
      for (int64_t id : a.values) define(id);
    }
    std::string lhs;
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      lhs += (i ? ", " : "") + ref(node.outputs[i]) + " : " +
             type_str(values[static_cast<size_t>(node.outputs[i])]);
    }
    out += "  " + (lhs.empty() ? std::string() : lhs + " = ") + node.op + "(";
    for (size_t i = 0; i < node.args.size(); ++i) {
      const Arg& a = node.args[i];
      out += i ? ", " : "";
      switch (a.kind) {
        case Arg::Kind::kTensor: out += ref(a.values[0]); break;
        case Arg::Kind::kOptionalTensor:
          out += a.values.empty() ? a.name + "=None" : ref(a.values[0]);
          break;
        case Arg::Kind::kTensorList: {
          out += "[";
          for (size_t j = 0; j < a.values.size(); ++j) out += (j ? ", " : "") + ref(a.values[j]);
          out += "]";
          break;
        }
        case Arg::Kind::kConstant: out += a.name + "=" + a.text; break;
      }
    }
    out += ")\n";
  }
  for (int64_t id : outputs) define(id);
  out += "  return (";
  for (size_t i = 0; i < outputs.size(); ++i) out += (i ? ", " : "") + ref(outputs[i]);
  out += ")\n";
  for (const std::string& w : warnings) out += "# warning: " + w + "\n";
  return out;
}

std::string Graph::json() const {
  std::string out = "{\n  \"inputs\": " + ids_json(inputs) +
                    ",\n  \"outputs\": " + ids_json(outputs) + ",\n  \"values\": [";
  for (size_t i = 0; i < values.size(); ++i) {
    const ValueInfo& v = values[i];
    out += std::string(i ? "," : "") + "\n    {\"id\": " + std::to_string(i) + ", \"kind\": \"" +
           kind_name(v.kind) + "\"";
    if (v.defined) {
      out += ", \"shape\": " + ids_json(v.shape) + ", \"dtype\": \"" + to_string(v.dtype) + "\"";
    } else {
      out += ", \"shape\": null, \"dtype\": null";
    }
    if (v.kind == ValueInfo::Kind::kUntraced) out += ", \"op\": " + json_string(v.untraced_op);
    out += "}";
  }
  out += "\n  ],\n  \"nodes\": [";
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    out += std::string(i ? "," : "") + "\n    {\"op\": " + json_string(n.op) + ", \"args\": [";
    for (size_t j = 0; j < n.args.size(); ++j) {
      const Arg& a = n.args[j];
      out += std::string(j ? ", " : "") + "{\"name\": " + json_string(a.name);
      switch (a.kind) {
        case Arg::Kind::kTensor: out += ", \"value\": " + std::to_string(a.values[0]); break;
        case Arg::Kind::kOptionalTensor:
          out += ", \"value\": " + (a.values.empty() ? "null" : std::to_string(a.values[0]));
          break;
        case Arg::Kind::kTensorList: out += ", \"values\": " + ids_json(a.values); break;
        case Arg::Kind::kConstant: out += ", \"constant\": " + json_string(a.text); break;
      }
      out += "}";
    }
    out += "], \"outputs\": " + ids_json(n.outputs) + "}";
  }
  out += "\n  ],\n  \"warnings\": [";
  for (size_t i = 0; i < warnings.size(); ++i) {
    out += std::string(i ? ", " : "") + json_string(warnings[i]);
  }
  out += "]\n}\n";
  return out;
}

std::vector<Tensor> Graph::replay(const std::vector<Tensor>& new_inputs) const {
  if (new_inputs.size() != inputs.size()) {
    throw std::invalid_argument("tracer: replay: the graph takes " + std::to_string(inputs.size()) +
                                " inputs, got " + std::to_string(new_inputs.size()));
  }
  std::vector<Tensor> env(values.size());
  for (size_t i = 0; i < values.size(); ++i) env[i] = values[i].constant;
  for (size_t i = 0; i < inputs.size(); ++i) env[static_cast<size_t>(inputs[i])] = new_inputs[i];
  for (size_t k = 0; k < nodes.size(); ++k) {
    const Node& node = nodes[k];
    if (!node.replay) {
      throw std::logic_error("tracer: replay: node " + std::to_string(k) + " (" + node.op +
                             ") has no replay function");
    }
    Stack stack;
    stack.reserve(node.args.size());
    for (const Arg& a : node.args) {
      Value v;
      switch (a.kind) {
        case Arg::Kind::kTensor:
        case Arg::Kind::kOptionalTensor:
          if (!a.values.empty()) v.tensor = env[static_cast<size_t>(a.values[0])];
          break;
        case Arg::Kind::kTensorList:
          for (int64_t id : a.values) v.tensors.push_back(env[static_cast<size_t>(id)]);
          break;
        case Arg::Kind::kConstant: v = a.constant; break;
      }
      stack.push_back(std::move(v));
    }
    std::vector<Tensor> outs = node.replay(stack);
    if (outs.size() != node.outputs.size()) {
      throw std::logic_error("tracer: replay: node " + std::to_string(k) + " (" + node.op +
                             ") returned " + std::to_string(outs.size()) + " outputs, traced " +
                             std::to_string(node.outputs.size()));
    }
    for (size_t i = 0; i < outs.size(); ++i) env[static_cast<size_t>(node.outputs[i])] = outs[i];
  }
  std::vector<Tensor> result;
  for (int64_t id : outputs) result.push_back(env[static_cast<size_t>(id)]);
  return result;
}

Graph trace(const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& fn,
            const std::vector<Tensor>& example_inputs) {
  if (internal::state != nullptr) {
    throw std::logic_error("tracer::trace: this thread is already tracing");
  }
  internal::State st;
  for (const Tensor& t : example_inputs) {
    st.graph.inputs.push_back(internal::new_value(st, ValueInfo::Kind::kInput, t));
  }
  struct Guard {
    explicit Guard(internal::State* s) {
      internal::state = s;
      internal::tracing_threads.fetch_add(1);
    }
    ~Guard() {
      internal::tracing_threads.fetch_sub(1);
      internal::state = nullptr;
    }
  };
  std::vector<Tensor> outs;
  {
    Guard guard(&st);
    outs = fn(example_inputs);
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    st.graph.outputs.push_back(internal::lookup(st, outs[i], "output " + std::to_string(i)));
  }
  return std::move(st.graph);
}

}  // namespace tracer
}  // namespace autograd
}  // namespace gradgen
