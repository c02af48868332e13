// gradgen.profiler's recorder: the C++ profiler::Profile, its events and per-op statistics as
// tuples for python/gradgen/profiler.py.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "csrc/autograd/profiler.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

namespace profiler = autograd::profiler;

// (name, calls, total_ns, self_ns) per op.
nb::list key_averages(profiler::Profile& p) {
  nb::list out;
  for (const profiler::OpStats& s : p.key_averages()) {
    out.append(nb::make_tuple(s.name, s.calls, s.total_ns, s.self_ns));
  }
  return out;
}

// (name, "op" or "backward", start_ns, end_ns, thread, sequence_nr, input_shapes, depth).
nb::list events(profiler::Profile& p) {
  nb::list out;
  for (const profiler::Event& e : p.events()) {
    out.append(nb::make_tuple(e.name, e.kind == profiler::Event::Kind::kOp ? "op" : "backward",
                              e.start_ns, e.end_ns, e.thread, e.sequence_nr, e.input_shapes,
                              e.depth));
  }
  return out;
}

}  // namespace

void init_profiler(nb::module_& m) {
  nb::class_<profiler::Profile>(m, "_Profile",
                                "Records forward ops and backward nodes while it lives (C++ "
                                "profiler::Profile); see gradgen.profiler.profile.")
      .def(nb::init<>())
      .def("stop", &profiler::Profile::stop)
      .def("table", &profiler::Profile::table, "row_limit"_a = -1)
      .def("chrome_trace_json", &profiler::Profile::chrome_trace_json)
      .def("export_chrome_trace", &profiler::Profile::export_chrome_trace, "path"_a)
      .def("key_averages", &key_averages)
      .def("events", &events);
}

}  // namespace python
}  // namespace gradgen
