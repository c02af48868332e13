#include "csrc/autograd/anomaly_mode.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "csrc/autograd/function.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace autograd {
namespace {

StackCapture stack_capture = nullptr;

// A C++ backtrace, one frame a line, most recent call last (as Python prints its stack). Names
// come from the dynamic symbol table: frames of a binary linked without -rdynamic show as
// module+offset.
std::string frame_name(void* frame) {
  Dl_info info{};
  if (::dladdr(frame, &info) && info.dli_sname) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
    std::string name = status == 0 && demangled ? demangled : info.dli_sname;
    std::free(demangled);
    return name;
  }
  std::string module = info.dli_fname ? info.dli_fname : "?";
  module = module.substr(module.rfind('/') + 1);
  char offset[32];
  std::snprintf(offset, sizeof(offset), "+0x%zx",
                static_cast<size_t>(reinterpret_cast<uintptr_t>(frame) -
                                    reinterpret_cast<uintptr_t>(info.dli_fbase)));
  return module + offset;
}

std::string cpp_backtrace() {
  constexpr int kMaxFrames = 48;
  void* frames[kMaxFrames];
  const int n = ::backtrace(frames, kMaxFrames);
  std::vector<std::string> names;
  int first = 0;  // the innermost frame to print: the one that called the op
  for (int i = 0; i < n; ++i) {
    names.push_back(frame_name(frames[i]));
    const std::string& name = names.back();
    if (name.find("gradgen::autograd::internal::record_anomaly_metadata") == 0 ||
        name.find("gradgen::autograd::set_history") == 0 ||
        name.find("gradgen::autograd::rebase_history") == 0 ||
        name.find("gradgen::autograd::capture_stack") == 0) {
      first = i + 1;
    }
  }
  std::string out;
  for (int i = n - 1; i >= first; --i) out += "  " + names[i] + "\n";
  return out;
}

}  // namespace

void set_stack_capture(StackCapture capture) noexcept { stack_capture = capture; }

std::string capture_stack() {
  if (stack_capture) {
    std::string stack = stack_capture();
    if (!stack.empty()) return stack;
  }
  return cpp_backtrace();
}

namespace internal {

void record_anomaly_metadata(Node& node) {
  if (node.anomaly_metadata()) return;
  auto metadata = std::make_unique<AnomalyMetadata>();
  if (const char* op = profiler::current_op()) metadata->forward_op = op;
  if (const char* op = gradgen::internal::current_op) metadata->user_op = op;
  metadata->stack = capture_stack();
  node.set_anomaly_metadata(std::move(metadata));
}

}  // namespace internal
}  // namespace autograd
}  // namespace gradgen
