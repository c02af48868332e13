// Anomaly mode: find the forward op behind a NaN or inf in the backward pass.
//
//   {
//     autograd::DetectAnomaly anomaly;   // on for this thread until the scope ends
//     Tensor y = div(x, zeros_like(x)); // the DivBackward0 node records "div.Tensor"
//     y.sum().backward();               // throws: Function 'DivBackward0' returned nan
//   }                                   //   values in its output 0 (the gradient for
//                                       //   input slot 0 of forward op 'div.Tensor') ...
//
// While it is on, every node made by a generated op records its forward call site
// (AnomalyMetadata: the op's schema name, the outermost op the user called, and a
// stack: the Python one when the Python bindings installed a stack capture, else a
// C++ backtrace). The engine then runs each node through run_node_checked: a
// gradient holding NaN or inf raises std::runtime_error naming the node, the output
// slot (= the forward op's input slot), the forward op and its stack, and any other
// error raised by a node's apply() gets the same "forward op and stack" appended.
//
// Cost when off: set_history tests one thread-local bool per output, and the engine's
// per-node loop one bool it read when the pass started (predictable branches);
// nothing is recorded. Every generated op also keeps its schema name in a
// thread-local while it runs (profiler::current_op(), variable_type_utils.h).
//
// Like GradMode the switch is per thread: a backward pass started on a thread while
// the mode is on is checked, and nodes created on that thread record metadata.
#pragma once

#include <memory>
#include <string>

namespace gradgen {
namespace autograd {

struct Node;

class AnomalyMode {
 public:
  /// Returns true if anomaly mode is on for this thread.
  static bool is_enabled() noexcept { return enabled_; }
  static void set_enabled(bool enabled) noexcept { enabled_ = enabled; }

 private:
  static inline thread_local bool enabled_ = false;
};

/// Turns anomaly mode on (or off, with enabled=false) for its lifetime, then restores it.
class DetectAnomaly {
 public:
  explicit DetectAnomaly(bool enabled = true) noexcept : previous_(AnomalyMode::is_enabled()) {
    AnomalyMode::set_enabled(enabled);
  }
  ~DetectAnomaly() { AnomalyMode::set_enabled(previous_); }
  DetectAnomaly(const DetectAnomaly&) = delete;
  DetectAnomaly& operator=(const DetectAnomaly&) = delete;

 private:
  bool previous_;
};

/// Where a node was created: recorded by set_history while anomaly mode is on.
struct AnomalyMetadata {
  /// The schema name of the op that created the node ("div.Tensor"), or "" if unknown.
  std::string forward_op;
  /// The outermost op running then, the one the user called ("matmul" for mm inside it).
  std::string user_op;
  /// The forward call site, most recent call last ("" if no stack could be captured).
  std::string stack;
};

/// Returns a stack for the current call site, or "" when it has none (then a C++ backtrace is
/// used); the Python bindings install one that returns the Python stack. Called on the op's
/// thread, inside the op.
using StackCapture = std::string (*)();

/// Installs the process-wide stack capture (nullptr: a C++ backtrace). Install before use;
/// not synchronized with running ops.
void set_stack_capture(StackCapture capture) noexcept;

/// Returns the current stack: the installed capture's, or a C++ backtrace.
std::string capture_stack();

namespace internal {
/// Records the current call site in `node`, unless it has metadata already (set_history
/// calls this once per output). Only called while anomaly mode is on.
void record_anomaly_metadata(Node& node);
}  // namespace internal

}  // namespace autograd
}  // namespace gradgen
