// Autograd from Python: grad mode, backward/grad, the graph's nodes (t.grad_fn), plus
// Generator and the runtime's factories (zeros, ones, full, empty, randn).
#include <nanobind/stl/function.h>
#include <nanobind/stl/shared_ptr.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "csrc/autograd/accumulate_grad.h"
#include "csrc/autograd/anomaly_mode.h"
#include "csrc/autograd/dot.h"
#include "csrc/autograd/engine.h"
#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/function.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/profiler.h"
#include "csrc/autograd/tracer.h"
#include "csrc/generated/VariableType.h"
#include "csrc/generator.h"
#include "csrc/python/bind.h"
#include "csrc/python/bindings.h"

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

// Sizes given as zeros(2, 3), zeros((2, 3)) or zeros([2, 3]).
std::vector<int64_t> parse_sizes(const nb::args& args, const char* op) {
  nb::handle source = args;
  if (args.size() == 1 && !PyLong_Check(args[0].ptr()) && !PyIndex_Check(args[0].ptr())) {
    source = args[0];
  }
  IntList sizes;
  if (!nb::try_cast(source, sizes)) {
    throw nb::type_error(
        (std::string(op) + "(): expected sizes as ints or one sequence of ints, e.g. (2, 3)")
            .c_str());
  }
  return sizes.values;
}

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

Tensor finish(Tensor t, bool requires_grad) {
  if (requires_grad) t.set_requires_grad(true);
  return t;
}

}  // namespace

void bind_autograd(nb::module_& m) {
  // --- the graph ------------------------------------------------------------------------------
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

  m.def(
      "_to_dot",
      [](const std::vector<Tensor>& roots,
         const std::vector<std::pair<std::string, Tensor>>& names) {
        return autograd::to_dot(roots, names);
      },
      "roots"_a, "names"_a);

  // --- profiler (gradgen.profiler) -------------------------------------------------------------
  namespace profiler = autograd::profiler;
  nb::class_<profiler::Profile>(m, "_Profile",
                                "Records forward ops and backward nodes while it lives (C++ "
                                "profiler::Profile); see gradgen.profiler.profile.")
      .def(nb::init<>())
      .def("stop", &profiler::Profile::stop)
      .def("table", &profiler::Profile::table, "row_limit"_a = -1)
      .def("chrome_trace_json", &profiler::Profile::chrome_trace_json)
      .def("export_chrome_trace", &profiler::Profile::export_chrome_trace, "path"_a)
      .def("key_averages",
           [](profiler::Profile& p) {
             nb::list out;
             for (const profiler::OpStats& s : p.key_averages()) {
               out.append(nb::make_tuple(s.name, s.calls, s.total_ns, s.self_ns));
             }
             return out;
           })
      .def("events", [](profiler::Profile& p) {
        nb::list out;
        for (const profiler::Event& e : p.events()) {
          out.append(nb::make_tuple(e.name,
                                    e.kind == profiler::Event::Kind::kOp ? "op" : "backward",
                                    e.start_ns, e.end_ns, e.thread, e.sequence_nr, e.input_shapes,
                                    e.depth));
        }
        return out;
      });

  // --- tracer (gradgen.jit) -------------------------------------------------------------------
  namespace tracer = autograd::tracer;
  nb::class_<tracer::Graph>(m, "_TracedGraph", "A recorded trace (C++ tracer::Graph).")
      .def("str", &tracer::Graph::str)
      .def("json", &tracer::Graph::json)
      .def("replay", &tracer::Graph::replay, "inputs"_a)
      .def_prop_ro("warnings", [](const tracer::Graph& g) { return g.warnings; })
      .def_prop_ro("ops", [](const tracer::Graph& g) {
        std::vector<std::string> ops;
        for (const tracer::Node& n : g.nodes) ops.push_back(n.op);
        return ops;
      });
  m.def(
      "_trace",
      [](nb::callable fn, const std::vector<Tensor>& inputs) {
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
      },
      "fn"_a, "inputs"_a);

  // --- anomaly mode ---------------------------------------------------------------------------
  autograd::set_stack_capture(&python_stack);
  m.def("is_anomaly_enabled", &autograd::AnomalyMode::is_enabled,
        "Whether anomaly mode is on for this thread (see gradgen.autograd.detect_anomaly).");
  m.def("_set_anomaly_enabled", &autograd::AnomalyMode::set_enabled, "enabled"_a);
  m.def(
      "_anomaly_metadata",
      [](const Node& node) -> std::optional<std::tuple<std::string, std::string, std::string>> {
        const autograd::AnomalyMetadata* meta = node.anomaly_metadata();
        if (!meta) return std::nullopt;
        return std::make_tuple(meta->forward_op, meta->user_op, meta->stack);
      },
      "node"_a);

  // --- grad mode ------------------------------------------------------------------------------
  m.def("is_grad_enabled", &autograd::GradMode::is_enabled,
        "Whether ops record the autograd graph on this thread.");
  m.def("_set_grad_enabled", &autograd::GradMode::set_enabled, "enabled"_a);

  // --- backward and grad ----------------------------------------------------------------------
  m.def(
      "_backward",
      [](const std::vector<Tensor>& tensors, const std::vector<std::optional<Tensor>>& grads,
         std::optional<bool> retain_graph, bool create_graph) {
        autograd::variable_list grad_tensors;
        grad_tensors.reserve(grads.size());
        for (const auto& g : grads) grad_tensors.push_back(g.value_or(Tensor()));
        autograd::backward(tensors, grad_tensors, retain_graph.value_or(create_graph),
                           create_graph);
      },
      "tensors"_a, "grad_tensors"_a, "retain_graph"_a.none(), "create_graph"_a);
  m.def(
      "_grad",
      [](const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
         const std::vector<std::optional<Tensor>>& grads, std::optional<bool> retain_graph,
         bool create_graph, bool allow_unused) {
        autograd::variable_list grad_outputs;
        grad_outputs.reserve(grads.size());
        for (const auto& g : grads) grad_outputs.push_back(g.value_or(Tensor()));
        autograd::variable_list result =
            autograd::grad(outputs, inputs, grad_outputs, retain_graph.value_or(create_graph),
                           create_graph, allow_unused);
        nb::list out;  // undefined (unused) gradients are None
        for (const Tensor& g : result) out.append(g);
        return nb::tuple(out);
      },
      "outputs"_a, "inputs"_a, "grad_outputs"_a, "retain_graph"_a.none(), "create_graph"_a,
      "allow_unused"_a);

  // --- random numbers -------------------------------------------------------------------------
  nb::class_<Generator>(m, "Generator",
                        "A seeded random number generator (dropout's generator=...). Copies "
                        "share their state.")
      .def(nb::init<uint64_t>(), "seed"_a = Generator::kDefaultSeed)
      .def(
          "manual_seed",
          [](nb::pointer_and_handle<Generator> self, uint64_t seed) {
            self.p->manual_seed(seed);
            return nb::borrow(self.h);
          },
          "seed"_a)
      .def("initial_seed", &Generator::initial_seed)
      .def("__repr__", [](const Generator& g) {
        return "gradgen.Generator(seed=" + std::to_string(g.initial_seed()) + ")";
      });
  m.def(
      "default_generator", []() { return default_generator(); },
      "The process-wide generator used by ops given none (shares its state).");
  m.def(
      "manual_seed",
      [](uint64_t seed) {
        gradgen::manual_seed(seed);
        return default_generator();
      },
      "seed"_a, "Reseeds the default generator; returns it.");

  // --- forward-mode AD (python/gradgen/forward_ad.py wraps these) ------------------------------
  m.def("_enter_dual_level", &autograd::forward_ad::enter_dual_level,
        "Opens a dual level and returns its id (one level at a time).");
  m.def("_exit_dual_level", &autograd::forward_ad::exit_dual_level, "level"_a,
        "Closes the active dual level, freeing its tangents.");
  m.def("_current_dual_level", &autograd::forward_ad::current_level,
        "The active dual level's id, 0 when none.");
  m.def(
      "_make_dual",
      [](const Tensor& primal, const Tensor& tangent, uint64_t level) {
        return autograd::forward_ad::make_dual(primal, tangent, level);
      },
      "primal"_a, "tangent"_a, "level"_a);
  m.def(
      "_unpack_dual",
      [](const Tensor& t, uint64_t level) {
        autograd::forward_ad::UnpackedDual parts = autograd::forward_ad::unpack_dual(t, level);
        return std::make_tuple(parts.primal, parts.tangent);
      },
      "tensor"_a, "level"_a);

  // --- factories ------------------------------------------------------------------------------
  m.def(
      "zeros",
      [](nb::args size, std::optional<ScalarType> dtype, bool requires_grad) {
        return finish(zeros(parse_sizes(size, "zeros"), dtype.value_or(ScalarType::Double)),
                      requires_grad);
      },
      "size"_a, nb::kw_only(), "dtype"_a = nb::none(), "requires_grad"_a = false);
  m.def(
      "ones",
      [](nb::args size, std::optional<ScalarType> dtype, bool requires_grad) {
        return finish(ones(parse_sizes(size, "ones"), dtype.value_or(ScalarType::Double)),
                      requires_grad);
      },
      "size"_a, nb::kw_only(), "dtype"_a = nb::none(), "requires_grad"_a = false);
  m.def(
      "empty",
      [](nb::args size, std::optional<ScalarType> dtype, bool requires_grad) {
        return finish(empty(parse_sizes(size, "empty"), dtype.value_or(ScalarType::Double)),
                      requires_grad);
      },
      "size"_a, nb::kw_only(), "dtype"_a = nb::none(), "requires_grad"_a = false);
  m.def(
      "full",
      [](const IntList& size, const Scalar& fill_value, std::optional<ScalarType> dtype,
         bool requires_grad) {
        // torch infers the dtype from the value: full((2,), 7) is int64, full((2,), 7.) float.
        ScalarType type = ScalarType::Double;
        if (dtype) {
          type = *dtype;
        } else if (fill_value.is_integral()) {
          type = ScalarType::Long;
        } else if (fill_value.is_boolean()) {
          type = ScalarType::Bool;
        }
        return finish(full(size, fill_value, type), requires_grad);
      },
      "size"_a, "fill_value"_a, nb::kw_only(), "dtype"_a = nb::none(), "requires_grad"_a = false);
  m.def(
      "randn",
      [](nb::args size, std::optional<uint64_t> seed, std::optional<Generator> generator,
         std::optional<ScalarType> dtype, bool requires_grad) {
        // Standard normal samples, the same for the same seed everywhere. Without a seed, one
        // is drawn from `generator` (default: the default generator, see manual_seed).
        uint64_t s = seed ? *seed : (generator ? *generator : default_generator()).next_u64();
        Tensor t = randn(parse_sizes(size, "randn"), s);
        if (dtype && *dtype != ScalarType::Double) {
          if (!is_floating_point(*dtype)) {
            throw nb::type_error("randn(): expected a floating dtype (float32 or float64)");
          }
          t = gradgen::to(t, *dtype);
        }
        return finish(t, requires_grad);
      },
      "size"_a, nb::kw_only(), "seed"_a = nb::none(), "generator"_a = nb::none(),
      "dtype"_a = nb::none(), "requires_grad"_a = false);
}

}  // namespace python
}  // namespace gradgen
