// The tracer: records the ops a function calls (see tracer.cc).
#pragma once

#include <string>
#include <vector>

namespace gradgen {
namespace autograd {
namespace tracer {

namespace internal {
inline bool tracing = false;
}  // namespace internal

/// Returns true between start() and stop().
inline bool is_tracing() noexcept { return internal::tracing; }
/// Appends op to the trace (call only while tracing).
void record_op(const char* op);
/// Starts recording op names, discarding any previous trace.
void start();
/// Stops recording and returns the op names recorded since start(), in call order.
std::vector<std::string> stop();

}  // namespace tracer
}  // namespace autograd
}  // namespace gradgen
