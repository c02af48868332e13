// The backward graph from Python: t.grad_fn's nodes (name(), next_functions, as in PyTorch) and
// gradgen.autograd's dot rendering.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "csrc/autograd/accumulate_grad.h"
#include "csrc/autograd/dot.h"
#include "csrc/autograd/function.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

using autograd::Node;

nb::tuple next_functions(const Node& node) {
  const auto& edges = node.next_edges();
  nb::list out;
  for (const autograd::Edge& edge : edges) {
    out.append(nb::make_tuple(edge.function, edge.input_nr));
  }
  return nb::tuple(out);
}

std::string node_repr(nb::handle self) {
  char address[32];
  std::snprintf(address, sizeof(address), "%p", static_cast<const void*>(self.ptr()));
  if (!nb::inst_ready(self)) {  // Node.__new__(Node): no C++ node behind it
    return std::string("<uninitialized ") + Py_TYPE(self.ptr())->tp_name + " object at " + address +
           ">";
  }
  const Node& node = nb::cast<const Node&>(self);
  return "<" + node.name() + " object at " + address + ">";
}

std::string to_dot(const std::vector<Tensor>& roots,
                   const std::vector<std::pair<std::string, Tensor>>& names) {
  return autograd::to_dot(roots, names);
}

}  // namespace

void init_graph(nb::module_& m) {
  nb::class_<Node>(m, "Node",
                   "A node of the backward graph (t.grad_fn): name() and next_functions, as in "
                   "PyTorch.")
      .def("name", &Node::name)
      .def_prop_ro("next_functions", &next_functions,
                   "((node or None, input_nr), ...): where this node's gradients flow.")
      .def_prop_ro("_sequence_nr", &Node::sequence_nr)
      .def("__repr__", &node_repr);
  nb::class_<autograd::AccumulateGrad, Node>(m, "AccumulateGrad",
                                             "The node that adds a leaf's gradient to its .grad.")
      .def_prop_ro("variable", [](const autograd::AccumulateGrad& n) { return n.variable; });

  m.def("_to_dot", &to_dot, "roots"_a, "names"_a);
}

}  // namespace python
}  // namespace gradgen
