// The op the user called, for error messages raised deep inside it.
//
// Every generated wrapper starts with `profiler::RecordFunction scope("add.Tensor")`
// (csrc/autograd/variable_type_utils.h), which also records the *outermost* op on
// this thread here. Errors raised below it (an accessor called on an undefined
// Tensor(), a shape whose size overflows) then name the op the user called, `add`,
// not the accessor or the kernel helper that noticed:
//
//   add(Tensor(), x)   ->  "add: expected a defined tensor for every argument, got an
//                           undefined Tensor() (scalar_type() called on it)"
//
// Composite ops (matmul, cross_entropy_loss, ...) run other generated ops inside
// theirs; those stay inner ops here, so the outermost name is the user's. Errors
// that the inner ops raise with their own name get the composite's name in front
// (in_composite_op below): "cross_entropy_loss: nll_loss: expected target ...".
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace gradgen {
namespace internal {

/// The outermost op running on this thread (a schema name such as "add.Tensor"), or null.
inline thread_local const char* current_op = nullptr;

/// Marks `op` as the op running on this thread for the scope's lifetime, unless an
/// outer op is already marked (then the outer one stays: it is the one the user called).
class OpScope {
 public:
  explicit OpScope(const char* op) noexcept : outermost_(current_op == nullptr) {
    if (outermost_) current_op = op;
  }
  ~OpScope() {
    if (outermost_) current_op = nullptr;
  }
  OpScope(const OpScope&) = delete;
  OpScope& operator=(const OpScope&) = delete;

 private:
  bool outermost_;
};

/// Returns the name errors should use: the op the user called (its overload name
/// dropped, "add.Tensor" -> "add", but "add.out" kept), or `fallback` outside any op.
inline std::string user_op_name(const char* fallback) {
  const char* op = current_op;
  if (!op) return fallback;
  std::string name = op;
  const size_t dot = name.find('.');
  if (dot != std::string::npos && name.compare(dot, std::string::npos, ".out") != 0) {
    name.resize(dot);
  }
  return name;
}

/// Returns message with "op: " in front, unless it already starts with it.
inline std::string prefixed_message(const char* op, const char* message) {
  std::string prefix = std::string(op) + ": ";
  if (std::string(message).compare(0, prefix.size(), prefix) == 0) return message;
  return prefix + message;
}

/// Runs body() (a composite op's kernel) and rethrows the errors of the ops it
/// calls with the composite's name in front, keeping their type
/// (std::out_of_range, std::invalid_argument, std::runtime_error).
template <typename F>
auto in_composite_op(const char* op, F&& body) -> decltype(body()) {
  try {
    return std::forward<F>(body)();
  } catch (const std::out_of_range& e) {
    throw std::out_of_range(prefixed_message(op, e.what()));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(prefixed_message(op, e.what()));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(prefixed_message(op, e.what()));
  }
}

}  // namespace internal
}  // namespace gradgen
