// The profiler: what generated forward ops and the engine's backward nodes cost.
//
//   {
//     profiler::Profile prof;                  // starts recording on every thread
//     Tensor loss = model(x);
//     loss.backward();
//     prof.stop();                             // or let it go out of scope
//     prof.export_chrome_trace("trace.json");  // chrome://tracing or ui.perfetto.dev
//     std::cout << prof.table();               // as torch.profiler's key_averages().table()
//   }
//
// Every generated wrapper of an op without DONT_PROFILE opens a RecordFunction scope
// (tools/codegen/templates/VariableType.cpp, `hooks`), and the engine opens a RecordNode scope
// around each node's apply() (engine.cc). With nothing recording, each scope costs one load of
// `internal::active` and one well-predicted branch at entry (and one on the saved flag at exit):
// the work is in the out-of-line, cold functions below. While a Profile is active every scope
// appends an Event to its thread's buffer: name, start and end (steady_clock ns since the
// profile began), the thread, the input shapes and the sequence number that links a forward op
// to the Backward node it created: a forward op records the number of the first node created
// while it ran (Node::peek_sequence_nr() at entry, kept if a node was created before its end),
// and the engine records each node's sequence_nr() when it runs it.
//
// A process-wide callback (set_callback) sees op entries and exits as well; tests use it.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "csrc/autograd/function.h"
#include "csrc/tensor.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace autograd {
namespace profiler {

/// Called with enter=true when a profiled op starts and enter=false when it ends.
using Callback = void (*)(const char* op, bool enter);

/// One recorded scope: a forward op or a backward node.
struct Event {
  enum class Kind : uint8_t { kOp, kBackward };
  std::string name;  // "mm", "MmBackward0"
  Kind kind = Kind::kOp;
  int64_t start_ns = 0;  // since the profile began
  int64_t end_ns = 0;
  uint32_t thread = 0;  // 1, 2, ... in the order threads first recorded
  // Forward op: the sequence number of the first node created while it ran, or -1 if none.
  // Backward node: its own sequence_nr() (AccumulateGrad nodes: -1).
  int64_t sequence_nr = -1;
  // Forward op: the shape of each argument ([] for a non-tensor or undefined one; a list's
  // elements one after the other). Backward node: the shapes of the gradients it received.
  std::vector<std::vector<int64_t>> input_shapes;
  uint32_t depth = 0;  // how many recorded scopes enclosed it on its thread
};

/// Statistics of the events of one name (key_averages()).
struct OpStats {
  std::string name;
  int64_t calls = 0;
  int64_t total_ns = 0;  // inclusive
  int64_t self_ns = 0;   // minus the recorded scopes directly inside
};

namespace internal {
/// True while a callback is installed or a Profile records: the one flag scopes read.
inline std::atomic<bool> active{false};
inline Callback callback = nullptr;
/// The innermost profiled op running on this thread (anomaly mode records it).
inline thread_local const char* innermost_op = nullptr;

struct ShapeList {
  std::vector<std::vector<int64_t>> shapes;
  void add(const Tensor& t) {
    shapes.push_back(t.defined() ? t.sizes().vec() : std::vector<int64_t>{});
  }
  void add(const std::optional<Tensor>& t) {
    if (t) {
      add(*t);
    } else {
      shapes.emplace_back();
    }
  }
  void add(TensorList ts) {
    for (const Tensor& t : ts) add(t);
  }
  void add(const std::vector<Tensor>& ts) { add(TensorList(ts)); }
  template <typename T>
  void add(const T&) {
    shapes.emplace_back();
  }
};

/// Starts an op's event (and calls the callback); returns its index in the thread's buffer
/// (-1 when no profile records).
[[gnu::cold]] int64_t enter_op(const char* op, ShapeList&& shapes);
[[gnu::cold]] void exit_op(const char* op, int64_t event);
[[gnu::cold]] int64_t enter_node(const Node& node, const variable_list& grads);
[[gnu::cold]] void exit_node(int64_t event);

template <typename... Args>
[[gnu::cold, gnu::noinline]] int64_t enter_op_with_shapes(const char* op, const Args&... args) {
  ShapeList shapes;
  (shapes.add(args), ...);
  return enter_op(op, std::move(shapes));
}
}  // namespace internal

/// Returns the schema name of the innermost generated op running on this thread, or null.
inline const char* current_op() noexcept { return internal::innermost_op; }

/// Installs the process-wide profiler callback (nullptr removes it). Install it
/// before the ops to observe start; not synchronized with running ops.
void set_callback(Callback callback);

/// Returns true while a Profile records or a callback is installed.
inline bool is_active() noexcept { return internal::active.load(std::memory_order_relaxed); }

/// The scope a generated wrapper opens: `RecordFunction profile_scope("mm", self, mat2);`.
/// Records the op while a profile is active (one branch otherwise). Also marks the op as the
/// one running on this thread, for error messages that name the op the user called
/// (gradgen::internal::OpScope, csrc/util/op_context.h).
class RecordFunction {
 public:
  template <typename... Args>
  explicit RecordFunction(const char* op, const Args&... args)
      : op_(op), outer_op_(internal::innermost_op), scope_(op) {
    internal::innermost_op = op;
    if (__builtin_expect(internal::active.load(std::memory_order_relaxed), 0)) {
      recording_ = true;
      event_ = internal::enter_op_with_shapes(op, args...);
    }
  }
  ~RecordFunction() {
    internal::innermost_op = outer_op_;
    if (__builtin_expect(recording_, 0)) internal::exit_op(op_, event_);
  }
  RecordFunction(const RecordFunction&) = delete;
  RecordFunction& operator=(const RecordFunction&) = delete;

 private:
  const char* op_;
  const char* outer_op_;    // the innermost op when this one started, restored at its end
  bool recording_ = false;  // active at entry, so enter/exit pair up
  int64_t event_ = -1;
  gradgen::internal::OpScope scope_;
};

/// The scope the engine opens around a node's apply(): records it as a backward event.
class RecordNode {
 public:
  RecordNode(const Node& node, const variable_list& grads) {
    if (__builtin_expect(internal::active.load(std::memory_order_relaxed), 0)) {
      recording_ = true;
      event_ = internal::enter_node(node, grads);
    }
  }
  ~RecordNode() { finish(); }
  /// Ends the node's event (before the engine hands its gradients on); idempotent.
  void finish() {
    if (__builtin_expect(recording_, 0)) {
      recording_ = false;
      internal::exit_node(event_);
    }
  }
  RecordNode(const RecordNode&) = delete;
  RecordNode& operator=(const RecordNode&) = delete;

 private:
  bool recording_ = false;
  int64_t event_ = -1;
};

/// Records every RecordFunction and RecordNode scope, on every thread, from construction
/// until stop() (or destruction). One Profile at a time: constructing a second while one
/// records throws std::logic_error.
class Profile {
 public:
  Profile();
  ~Profile();
  Profile(const Profile&) = delete;
  Profile& operator=(const Profile&) = delete;

  /// Stops recording and collects the events (idempotent). Scopes still open on other
  /// threads are dropped.
  void stop();

  /// The events, every thread's, ordered by (start, depth); stop()s first.
  const std::vector<Event>& events();
  /// Per name, sorted by total time (descending), then name.
  std::vector<OpStats> key_averages();
  /// The summary table of key_averages(), as torch.profiler's key_averages().table():
  /// Name, Self CPU %, Self CPU, CPU total %, CPU total, CPU time avg, # of Calls. At most
  /// row_limit rows (all with a negative limit).
  std::string table(int row_limit = -1);
  /// The Chrome trace event format (JSON): an "X" event per scope (args: input shapes,
  /// sequence number), "s"/"f" flow events from each forward op to the Backward node
  /// with its sequence number.
  std::string chrome_trace_json();
  /// Writes chrome_trace_json() to path; throws std::runtime_error if it cannot.
  void export_chrome_trace(const std::string& path);

 private:
  bool stopped_ = false;
  std::vector<Event> events_;
};

}  // namespace profiler
}  // namespace autograd
}  // namespace gradgen
