#include "csrc/autograd/tracer.h"

#include <string>
#include <vector>

namespace gradgen {
namespace autograd {
namespace tracer {

namespace {
std::vector<std::string>& trace() {
  static std::vector<std::string> ops;
  return ops;
}
}  // namespace

void record_op(const char* op) { trace().emplace_back(op); }

void start() {
  trace().clear();
  internal::tracing = true;
}

std::vector<std::string> stop() {
  internal::tracing = false;
  std::vector<std::string> ops;
  ops.swap(trace());
  return ops;
}

}  // namespace tracer

}  // namespace autograd
}  // namespace gradgen
