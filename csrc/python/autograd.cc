// gradgen.autograd's engine from Python: grad mode, anomaly mode, backward/grad and forward-mode
// AD (python/gradgen/autograd.py and forward_ad.py wrap these).
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "csrc/autograd/anomaly_mode.h"
#include "csrc/autograd/engine.h"
#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/function.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

// Anomaly mode's stack capture: the Python stack of the op's caller, when the calling thread
// holds the GIL (an op called from Python); "" otherwise (then a C++ backtrace is recorded).
std::string python_stack() {
  if (!Py_IsInitialized() || !PyGILState_Check()) return "";
  try {
    nb::object frames = nb::module_::import_("traceback").attr("format_stack")();
    std::string out;
    for (nb::handle frame : frames) out += nb::cast<std::string>(frame);
    return out;
  } catch (const nb::python_error&) {
    return "";  // the interpreter is shutting down, say: no Python stack then
  }
}

std::optional<std::tuple<std::string, std::string, std::string>> anomaly_metadata(
    const autograd::Node& node) {
  const autograd::AnomalyMetadata* meta = node.anomaly_metadata();
  if (!meta) return std::nullopt;
  return std::make_tuple(meta->forward_op, meta->user_op, meta->stack);
}

// Gradients given as None stand for undefined ones (the engine's implicit ones).
autograd::variable_list defined_or_empty(const std::vector<std::optional<Tensor>>& grads) {
  autograd::variable_list out;
  out.reserve(grads.size());
  for (const auto& g : grads) out.push_back(g.value_or(Tensor()));
  return out;
}

void backward(const std::vector<Tensor>& tensors, const std::vector<std::optional<Tensor>>& grads,
              std::optional<bool> retain_graph, bool create_graph) {
  autograd::backward(tensors, defined_or_empty(grads), retain_graph.value_or(create_graph),
                     create_graph);
}

nb::tuple grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
               const std::vector<std::optional<Tensor>>& grads, std::optional<bool> retain_graph,
               bool create_graph, bool allow_unused) {
  autograd::variable_list result =
      autograd::grad(outputs, inputs, defined_or_empty(grads), retain_graph.value_or(create_graph),
                     create_graph, allow_unused);
  nb::list out;  // undefined (unused) gradients are None
  for (const Tensor& g : result) out.append(g);
  return nb::tuple(out);
}

Tensor make_dual(const Tensor& primal, const Tensor& tangent, uint64_t level) {
  return autograd::forward_ad::make_dual(primal, tangent, level);
}

std::tuple<Tensor, Tensor> unpack_dual(const Tensor& t, uint64_t level) {
  autograd::forward_ad::UnpackedDual parts = autograd::forward_ad::unpack_dual(t, level);
  return std::make_tuple(parts.primal, parts.tangent);
}

}  // namespace

void init_autograd(nb::module_& m) {
  m.def("is_grad_enabled", &autograd::GradMode::is_enabled,
        "Whether ops record the autograd graph on this thread.");
  m.def("_set_grad_enabled", &autograd::GradMode::set_enabled, "enabled"_a);

  autograd::set_stack_capture(&python_stack);
  m.def("is_anomaly_enabled", &autograd::AnomalyMode::is_enabled,
        "Whether anomaly mode is on for this thread (see gradgen.autograd.detect_anomaly).");
  m.def("_set_anomaly_enabled", &autograd::AnomalyMode::set_enabled, "enabled"_a);
  m.def("_anomaly_metadata", &anomaly_metadata, "node"_a);

  m.def("_backward", &backward, "tensors"_a, "grad_tensors"_a, "retain_graph"_a.none(),
        "create_graph"_a);
  m.def("_grad", &grad, "outputs"_a, "inputs"_a, "grad_outputs"_a, "retain_graph"_a.none(),
        "create_graph"_a, "allow_unused"_a);
}

void init_forward_ad(nb::module_& m) {
  m.def("_enter_dual_level", &autograd::forward_ad::enter_dual_level,
        "Opens a dual level and returns its id (one level at a time).");
  m.def("_exit_dual_level", &autograd::forward_ad::exit_dual_level, "level"_a,
        "Closes the active dual level, freeing its tangents.");
  m.def("_current_dual_level", &autograd::forward_ad::current_level,
        "The active dual level's id, 0 when none.");
  m.def("_make_dual", &make_dual, "primal"_a, "tangent"_a, "level"_a);
  m.def("_unpack_dual", &unpack_dual, "tensor"_a, "level"_a);
}

}  // namespace python
}  // namespace gradgen
