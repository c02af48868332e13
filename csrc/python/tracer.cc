// gradgen.jit's tracer: records a Python function's ops into a C++ tracer::Graph and replays it.
#include <nanobind/stl/function.h>

#include <string>
#include <vector>

#include "csrc/autograd/tracer.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

namespace tracer = autograd::tracer;

std::vector<std::string> traced_ops(const tracer::Graph& g) {
  std::vector<std::string> ops;
  for (const tracer::Node& n : g.nodes) ops.push_back(n.op);
  return ops;
}

tracer::Graph trace(nb::callable fn, const std::vector<Tensor>& inputs) {
  // fn's result is converted here, so that a wrong one is a TypeError saying what was
  // expected (nanobind's std::function caster raises a bare std::bad_cast).
  auto call = [fn](const std::vector<Tensor>& ins) {
    nb::gil_scoped_acquire gil;
    nb::object result = fn(ins);
    std::vector<Tensor> outs;
    bool ok = PyList_Check(result.ptr()) || PyTuple_Check(result.ptr());
    if (ok) {
      for (nb::handle item : result) ok &= is_tensor(item.ptr()) && nb::inst_ready(item);
    }
    if (!ok || !nb::try_cast(result, outs)) {
      throw nb::type_error((std::string("trace: expected the traced function to return a "
                                        "list of Tensors, got ") +
                            Py_TYPE(result.ptr())->tp_name)
                               .c_str());
    }
    return outs;
  };
  return tracer::trace(call, inputs);
}

}  // namespace

void init_tracer(nb::module_& m) {
  nb::class_<tracer::Graph>(m, "_TracedGraph", "A recorded trace (C++ tracer::Graph).")
      .def("str", &tracer::Graph::str)
      .def("json", &tracer::Graph::json)
      .def("replay", &tracer::Graph::replay, "inputs"_a)
      .def_prop_ro("warnings", [](const tracer::Graph& g) { return g.warnings; })
      .def_prop_ro("ops", &traced_ops);
  m.def("_trace", &trace, "fn"_a, "inputs"_a);
}

}  // namespace python
}  // namespace gradgen
