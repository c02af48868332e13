// gradgen.Tensor's autograd: requires_grad, .grad, grad_fn, backward(), detach() and
// register_hook with its RemovableHandle.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "csrc/autograd/function.h"
#include "csrc/autograd/hooks.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"
#include "csrc/python/tensor_access.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

// Calls a Python hook with the gradient; None keeps it, a Tensor replaces it.
struct PythonHook {
  nb::object fn;
  Tensor operator()(const Tensor& grad) const {
    nb::gil_scoped_acquire gil;
    nb::object result = fn(grad);
    if (result.is_none()) return Tensor();
    if (!is_tensor(result.ptr())) {
      throw nb::type_error(
          (std::string("hook: expected the hook to return None or a Tensor, got ") +
           Py_TYPE(result.ptr())->tp_name)
              .c_str());
    }
    return nb::cast<Tensor>(result);
  }
};

// What register_hook returns: handle.remove() unregisters the hook (torch's RemovableHandle).
struct RemovableHandle {
  std::shared_ptr<autograd::TensorHooks> hooks;
  unsigned id = 0;
  void remove() {
    if (!hooks) return;
    auto& fns = hooks->fns;
    for (auto it = fns.begin(); it != fns.end(); ++it) {
      if (it->first == id) {
        fns.erase(it);
        break;
      }
    }
    hooks.reset();
  }
};

nb::object requires_grad_(nb::pointer_and_handle<Tensor> self, bool requires_grad) {
  self.p->set_requires_grad(requires_grad);
  return nb::borrow(self.h);  // the same object, as PyTorch's in-place methods
}

void set_grad(Tensor& t, std::optional<Tensor> grad) {
  if (grad && grad->defined() &&
      (!grad->sizes().equals(t.sizes()) || grad->scalar_type() != t.scalar_type())) {
    throw std::runtime_error("grad: assigned grad of shape " + shape_str(grad->sizes()) +
                             " and dtype " + gradgen::to_string(grad->scalar_type()) +
                             " to a tensor of shape " + shape_str(t.sizes()) + " and dtype " +
                             gradgen::to_string(t.scalar_type()));
  }
  t.mutable_grad() = grad.value_or(Tensor());
}

void backward(const Tensor& t, std::optional<Tensor> gradient, std::optional<bool> retain_graph,
              bool create_graph) {
  t.backward(gradient.value_or(Tensor()), retain_graph.value_or(create_graph), create_graph);
}

RemovableHandle register_hook(const Tensor& t, nb::callable fn) {
  const unsigned id = t.register_hook(PythonHook{std::move(fn)});
  return RemovableHandle{t.unsafe_impl()->hooks, id};
}

}  // namespace

void init_tensor_autograd(nb::module_& m) {
  tensor_class_of(m)
      .def("detach", &Tensor::detach, "A tensor sharing the data, without autograd history.")
      .def_prop_ro("data", &Tensor::detach)
      .def_prop_rw("requires_grad", &Tensor::requires_grad,
                   [](Tensor& t, bool requires_grad) { t.set_requires_grad(requires_grad); })
      .def("requires_grad_", &requires_grad_, "requires_grad"_a = true)
      .def_prop_rw(
          "grad", [](const Tensor& t) { return t.grad(); }, &set_grad, nb::arg("grad").none())
      .def_prop_ro("grad_fn", [](const Tensor& t) { return t.grad_fn(); })
      .def_prop_ro("is_leaf", &Tensor::is_leaf)
      .def_prop_ro("retains_grad", &Tensor::retains_grad)
      .def("retain_grad", &Tensor::retain_grad)
      .def_prop_ro("output_nr", &Tensor::output_nr)
      .def("backward", &backward, "gradient"_a = nb::none(), "retain_graph"_a = nb::none(),
           "create_graph"_a = false,
           "Accumulates the gradient of this tensor into the .grad of the graph's leaves.")
      .def("register_hook", &register_hook, "hook"_a,
           "Calls hook(grad) whenever this tensor's gradient is computed; a Tensor it returns "
           "replaces the gradient. Returns a handle whose remove() unregisters it.");

  nb::class_<RemovableHandle>(m, "RemovableHandle",
                              "Returned by Tensor.register_hook: remove() unregisters the hook.")
      .def("remove", &RemovableHandle::remove);
}

}  // namespace python
}  // namespace gradgen
