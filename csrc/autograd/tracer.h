// The tracer: records the ops a function calls as a graph that can be printed, saved as JSON
// and replayed on new inputs.
//
//   tracer::Graph g = tracer::trace(
//       [](const std::vector<Tensor>& in) { return std::vector<Tensor>{tanh(mm(in[0], in[1]))}; },
//       {x, w});
//   std::cout << g.str();          // graph(%0 : Double[2, 3], %1 : Double[3, 4]):
//                                  //   %2 : Double[2, 4] = mm(%0, %1)
//                                  //   %3 : Double[2, 4] = tanh(%2)
//                                  //   return (%3)
//   std::string json = g.json();
//   std::vector<Tensor> out = g.replay({x2, w2});   // calls mm then tanh on the new inputs
//
// Every generated wrapper of an op without DONT_RECORD_TRACE opens a TracedOp scope
// (tools/codegen/templates/VariableType.cpp, `hooks`) handing over each argument by name, and
// calls output() on its result before returning. Values are identified by the tensor's
// TensorImpl: an argument that is a traced function's input or an earlier op's output refers
// to that value; any other tensor becomes a constant of the graph (as in torch.jit.trace).
// Non-tensor arguments (int, float, Scalar, int[], ScalarType, ...) are recorded as
// constants. Only the outermost op is recorded: the ops a composite op (matmul) calls inside
// it are not, as PyTorch's tracer does.
//
// An op flagged DONT_RECORD_TRACE opens an UntracedOp instead: it leaves no node, and its
// outputs are marked; when a traced op then uses one, the graph has a hole there: the value is
// a constant (what it was while tracing), the text says `untraced[op]`, and the trace carries a
// warning (PyTorch warns in that case too). Replay reuses the traced value.
//
// Replay calls each node's op through what the generated wrapper hands over (its own address
// and the converter of its signature, from `replay(&fn)`): the recorded graph is an
// interpreter program over the generated API, with no name lookup. With nothing tracing, each
// scope costs one load and one well-predicted branch at entry, one on a member at output() and
// exit.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace tracer {

/// One argument of a node as replay passes it: a tensor, a list of tensors, or a constant of
/// any other type (stored as its owning type, e.g. std::vector<int64_t> for IntArrayRef).
struct Value {
  Tensor tensor;
  std::vector<Tensor> tensors;
  std::shared_ptr<const void> constant;
  const std::type_info* constant_type = nullptr;
};
using Stack = std::vector<Value>;

/// How replay calls one op: `fn`, the op's address, through `call`, a function shared by all
/// ops of one signature that converts the arguments, calls fn and flattens its outputs. Made by
/// replay(&op) (below). One converter per signature, not per op: a generated wrapper pays no
/// template instantiation of its own for being traceable.
struct ReplayFn {
  std::vector<Tensor> (*call)(void (*fn)(), Stack& stack) = nullptr;
  void (*fn)() = nullptr;
  explicit operator bool() const { return call != nullptr; }
  std::vector<Tensor> operator()(Stack& stack) const { return call(fn, stack); }
};

/// One value of the graph (%id).
struct ValueInfo {
  enum class Kind : uint8_t { kInput, kOutput, kConstant, kUntraced };
  Kind kind = Kind::kOutput;
  std::vector<int64_t> shape;
  ScalarType dtype = ScalarType::Double;
  bool defined = true;
  std::string untraced_op;  // kUntraced: the DONT_RECORD_TRACE op that produced it
  Tensor constant;          // kConstant, kUntraced: the tensor replay uses
};

/// One argument of a recorded op.
struct Arg {
  enum class Kind : uint8_t { kTensor, kOptionalTensor, kTensorList, kConstant };
  std::string name;
  Kind kind = Kind::kConstant;
  std::vector<int64_t> values;  // kTensor: one id; kOptionalTensor: zero or one; kTensorList
  std::string text;             // kConstant: printed form ("1", "[0, 1]", "None", "Float")
  Value constant;               // kConstant: what replay passes
};

/// One recorded op call.
struct Node {
  std::string op;  // schema name: "add.Tensor"
  std::vector<Arg> args;
  std::vector<int64_t> outputs;  // value ids, flattened (tuples, lists)
  ReplayFn replay;
};

/// A recorded trace.
class Graph {
 public:
  std::vector<ValueInfo> values;  // by id
  std::vector<int64_t> inputs;
  std::vector<int64_t> outputs;
  std::vector<Node> nodes;
  /// Holes (uses of an untraced op's output) and other reasons replay may differ.
  std::vector<std::string> warnings;

  /// SSA text: `graph(%0 : Double[2, 3], ...):`, one line per node, `return (...)`.
  std::string str() const;
  /// The graph as JSON: values (kind, shape, dtype), inputs, outputs, nodes (op, arguments
  /// by name: value ids or constants, outputs), warnings.
  std::string json() const;
  /// Runs the recorded ops on new inputs (as many as traced); returns the outputs.
  std::vector<Tensor> replay(const std::vector<Tensor>& inputs) const;
};

/// Traces fn on example_inputs: runs it once, recording every traced op it calls on this
/// thread. Throws std::logic_error if this thread is already tracing.
Graph trace(const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& fn,
            const std::vector<Tensor>& example_inputs);

/// Returns true while this thread runs trace().
bool is_tracing() noexcept;

namespace internal {
struct State;
/// How many threads are tracing: the one flag scopes read when nothing traces.
inline std::atomic<int> tracing_threads{0};
inline thread_local State* state = nullptr;

// Recording an op (tracer.cc); null when the op is nested in another one or not recorded.
Node* begin_op(const char* op, ReplayFn replay);
bool begin_untraced(const char* op);  // true if outermost (its outputs are then marked)
void end_op();
void add_tensor(Node* node, const char* name, const Tensor& t);
void add_optional_tensor(Node* node, const char* name, const std::optional<Tensor>& t);
void add_tensor_list(Node* node, const char* name, TensorList ts);
void add_constant(Node* node, const char* name, std::string text, Value v);
void add_output(Node* node, const Tensor& t);
void mark_untraced_output(const char* op, const Tensor& t);

// The type a constant argument of type T is kept as, and the conversions.
template <typename T>
struct Owned {
  using type = T;
  static const T& own(const T& v) { return v; }
  static const T& get(const type& v) { return v; }
};
template <typename T>
struct Owned<ArrayRef<T>> {
  using type = std::vector<T>;
  static type own(ArrayRef<T> v) { return v.vec(); }
  static ArrayRef<T> get(const type& v) { return ArrayRef<T>(v); }
};
template <>
struct Owned<OptionalIntArrayRef> {
  using type = std::optional<std::vector<int64_t>>;
  static type own(OptionalIntArrayRef v) { return v ? type(v->vec()) : std::nullopt; }
  static OptionalIntArrayRef get(const type& v) {
    return v ? OptionalIntArrayRef(IntArrayRef(*v)) : OptionalIntArrayRef();
  }
};
template <>
struct Owned<std::string_view> {
  using type = std::string;
  static type own(std::string_view v) { return type(v); }
  static std::string_view get(const type& v) { return v; }
};
template <>
struct Owned<std::optional<std::string_view>> {
  using type = std::optional<std::string>;
  static type own(std::optional<std::string_view> v) {
    return v ? type(std::string(*v)) : std::nullopt;
  }
  static std::optional<std::string_view> get(const type& v) {
    return v ? std::optional<std::string_view>(*v) : std::nullopt;
  }
};

// The printed form of a constant.
std::string format(int64_t v);
std::string format(double v);
std::string format(bool v);
std::string format(const Scalar& v);
std::string format(ScalarType v);
std::string format(std::string_view v);
std::string format(IntArrayRef v);
std::string format(ArrayRef<double> v);
std::string format(Layout v);
std::string format(Device v);
std::string format(MemoryFormat v);
inline std::string format(const Generator&) { return "<Generator>"; }
inline std::string format(OptionalIntArrayRef v) {
  return v.has_value() ? format(*v) : std::string("None");
}
template <typename T>
std::string format(const T&) {
  return "<constant>";  // a type without a printed form (replay still passes the value)
}
template <typename T>
std::string format(const std::optional<T>& v) {
  return v ? format(*v) : std::string("None");
}

template <typename T>
void add_arg(Node* node, const char* name, const T& v) {
  using O = Owned<T>;
  Value value;
  value.constant = std::make_shared<const typename O::type>(O::own(v));
  value.constant_type = &typeid(typename O::type);
  add_constant(node, name, format(v), std::move(value));
}
inline void add_arg(Node* node, const char* name, const Tensor& t) { add_tensor(node, name, t); }
inline void add_arg(Node* node, const char* name, const std::optional<Tensor>& t) {
  add_optional_tensor(node, name, t);
}
inline void add_arg(Node* node, const char* name, TensorList ts) {
  add_tensor_list(node, name, ts);
}

inline void add_args(Node*, const char* const*) {}
template <typename T, typename... Rest>
void add_args(Node* node, const char* const* names, const T& v, const Rest&... rest) {
  add_arg(node, *names, v);
  add_args(node, names + 1, rest...);
}

void throw_arg_names_mismatch(const char* op, size_t names, size_t args);

template <typename... Args>
[[gnu::cold, gnu::noinline]] Node* begin_with_args(const char* op, ReplayFn replay,
                                                   std::initializer_list<const char*> names,
                                                   const Args&... args) {
  if (names.size() != sizeof...(Args)) throw_arg_names_mismatch(op, names.size(), sizeof...(Args));
  Node* node = begin_op(op, replay);
  if (node) add_args(node, names.begin(), args...);
  return node;
}

inline void add_outputs(Node* node, const Tensor& t) { add_output(node, t); }
inline void add_outputs(Node* node, const std::vector<Tensor>& ts) {
  for (const Tensor& t : ts) add_output(node, t);
}
template <typename... Ts>
void add_outputs(Node* node, const std::tuple<Ts...>& ts) {
  std::apply([&](const auto&... t) { (add_outputs(node, t), ...); }, ts);
}

inline void mark_outputs(const char* op, const Tensor& t) { mark_untraced_output(op, t); }
inline void mark_outputs(const char* op, const std::vector<Tensor>& ts) {
  for (const Tensor& t : ts) mark_untraced_output(op, t);
}
template <typename... Ts>
void mark_outputs(const char* op, const std::tuple<Ts...>& ts) {
  std::apply([&](const auto&... t) { (mark_outputs(op, t), ...); }, ts);
}

// Replay's conversion of a stack value to parameter type P.
template <typename P>
decltype(auto) from_value(Value& v) {
  using D = std::decay_t<P>;
  if constexpr (std::is_same_v<D, Tensor>) {
    return static_cast<P>(v.tensor);
  } else if constexpr (std::is_same_v<D, std::optional<Tensor>>) {
    return v.tensor.defined() ? std::optional<Tensor>(v.tensor) : std::optional<Tensor>();
  } else if constexpr (std::is_same_v<D, TensorList>) {
    return TensorList(v.tensors);
  } else {
    using O = Owned<D>;
    if (v.constant_type == nullptr || *v.constant_type != typeid(typename O::type)) {
      throw std::logic_error("tracer: replay: a constant argument has the wrong type");
    }
    return O::get(*static_cast<const typename O::type*>(v.constant.get()));
  }
}

// (Not `flatten`: argument-dependent lookup would find the op gradgen::flatten too.)
inline std::vector<Tensor> flatten_outputs(const Tensor& t) { return {t}; }
inline std::vector<Tensor> flatten_outputs(std::vector<Tensor> ts) { return ts; }
template <typename... Ts>
std::vector<Tensor> flatten_outputs(const std::tuple<Ts...>& ts) {
  return std::apply([](const auto&... t) { return std::vector<Tensor>{t...}; }, ts);
}

template <typename R, typename... P>
struct Replayer {
  template <size_t... I>
  static std::vector<Tensor> call_with(R (*fn)(P...), Stack& stack, std::index_sequence<I...>) {
    if (stack.size() != sizeof...(P)) {
      throw std::logic_error("tracer: replay: wrong number of arguments");
    }
    if constexpr (std::is_void_v<R>) {
      fn(from_value<P>(stack[I])...);
      return {};
    } else {
      return flatten_outputs(fn(from_value<P>(stack[I])...));
    }
  }
  static std::vector<Tensor> call(void (*fn)(), Stack& stack) {
    // fn is the R (*)(P...) that replay() converted: converting it back is well defined.
    return call_with(reinterpret_cast<R (*)(P...)>(fn), stack, std::index_sequence_for<P...>{});
  }
};
}  // namespace internal

/// The replay function of a generated op (a pointer to one overload: `replay(&mm)`, or
/// `replay(static_cast<Tensor (*)(const Tensor&)>(&exp))` when the name is overloaded).
template <typename R, typename... P>
ReplayFn replay(R (*fn)(P...)) {
  return ReplayFn{&internal::Replayer<R, P...>::call, reinterpret_cast<void (*)()>(fn)};
}

/// The scope a traced generated wrapper opens:
/// `TracedOp trace_op("mm", replay(&mm), {"self", "mat2"}, self, mat2);` (the arguments'
/// names, then the arguments), then `trace_op.output(result);` before returning.
class TracedOp {
 public:
  template <typename... Args>
  TracedOp(const char* op, ReplayFn replay, std::initializer_list<const char*> names,
           const Args&... args) {
    if (__builtin_expect(internal::tracing_threads.load(std::memory_order_relaxed) != 0, 0) &&
        internal::state != nullptr) {
      active_ = true;
      node_ = internal::begin_with_args(op, replay, names, args...);
    }
  }
  ~TracedOp() {
    if (__builtin_expect(active_, 0)) internal::end_op();
  }
  TracedOp(const TracedOp&) = delete;
  TracedOp& operator=(const TracedOp&) = delete;

  /// Records the op's result (a Tensor, a tuple of them or a list).
  template <typename T>
  void output(const T& result) {
    if (__builtin_expect(active_, 0) && node_ != nullptr) internal::add_outputs(node_, result);
  }

 private:
  bool active_ = false;
  Node* node_ = nullptr;  // null when nested in another op (not recorded)
};

/// The scope of a DONT_RECORD_TRACE wrapper: no node; output() marks the result as untraced.
class UntracedOp {
 public:
  explicit UntracedOp(const char* op) : op_(op) {
    if (__builtin_expect(internal::tracing_threads.load(std::memory_order_relaxed) != 0, 0) &&
        internal::state != nullptr) {
      active_ = true;
      outermost_ = internal::begin_untraced(op);
    }
  }
  ~UntracedOp() {
    if (__builtin_expect(active_, 0)) internal::end_op();
  }
  UntracedOp(const UntracedOp&) = delete;
  UntracedOp& operator=(const UntracedOp&) = delete;

  template <typename T>
  void output(const T& result) {
    if (__builtin_expect(active_, 0) && outermost_) internal::mark_outputs(op_, result);
  }

 private:
  const char* op_;
  bool active_ = false;
  bool outermost_ = false;
};

}  // namespace tracer
}  // namespace autograd
}  // namespace gradgen
