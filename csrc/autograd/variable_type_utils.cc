#include "csrc/autograd/variable_type_utils.h"

#include <stdexcept>
#include <string>

namespace gradgen {
namespace autograd {

namespace internal {

void throw_history_on_input(const Tensor& t, const Node& grad_fn) {
  std::string history = t.grad_fn() ? "grad_fn " + t.grad_fn()->name() : "requires_grad=true";
  throw std::runtime_error("set_history: the result given to " + grad_fn.name() +
                           " already has autograd history (" + history +
                           "); a kernel must return a fresh tensor, not one of its inputs");
}

}  // namespace internal

std::vector<std::vector<int64_t>> to_args_sizes(TensorList tensors) {
  std::vector<std::vector<int64_t>> sizes;
  sizes.reserve(tensors.size());
  for (const Tensor& t : tensors) sizes.push_back(t.sizes().vec());
  return sizes;
}

void check_out_no_requires_grad(const char* op, std::initializer_list<OutVariantArg> args) {
  if (!GradMode::is_enabled()) return;
  size_t position = 0;
  for (const OutVariantArg& arg : args) {
    if (arg.tensor && arg.tensor->requires_grad()) {
      // "add" names the out= overload "add.out"; keep names that already say it.
      std::string name = op;
      if (name.find('.') == std::string::npos &&
          (name.size() < 4 || name.compare(name.size() - 4, 4, "_out") != 0)) {
        name += ".out";
      }
      std::string which = arg.name ? "'" + std::string(arg.name) + "'"
                                   : "at position " + std::to_string(position);
      throw std::runtime_error(name +
                               ": out= variants do not support automatic differentiation, but "
                               "argument " + which + " requires grad");
    }
    ++position;
  }
}

namespace profiler {

void set_callback(Callback callback) { internal::callback = callback; }

}  // namespace profiler

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
