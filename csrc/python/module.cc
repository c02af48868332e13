// gradgen._C: the extension module behind the `gradgen` Python package.
//
// Its init is module_init.h's parts, one per concern and file: the types every binding converts
// (casters.h) and gradgen.Tensor come first; then autograd, the factories and the generated
// bindings of gradgen's own ops (`bind_generated`, one m.def per op and its Tensor methods).
#include "csrc/default_dtype.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"
#include "csrc/util/block_pool.h"

namespace gradgen {
namespace python {
// Generated from specs/ by the codegen's Python emitter (python_functions.h of //csrc:autograd).
void bind_generated(nanobind::module_& m);
}  // namespace python
}  // namespace gradgen

// The runtime's warnings (gradgen::internal::warn: an out= tensor resized) as Python
// UserWarnings; an error raised by the warnings filter propagates.
static void warn_in_python(const std::string& message) {
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) < 0) throw nanobind::python_error();
}

NB_MODULE(_C, m) {
  m.doc() = "gradgen's C++ runtime: tensors, autograd and the generated ops.";
  // The dtype objects and gradgen.Tensor's type are kept for the life of the process on
  // purpose (the casters of every module use them): no leak report at exit.
  nanobind::set_leak_warnings(false);
  gradgen::python::install_memory_reserve();   // MemoryError, not an abort, when memory runs out
  gradgen::internal::prepare_pooled_blocks();  // the same: what would allocate at its first use
  gradgen::internal::set_warning_handler(warn_in_python);
  namespace python = gradgen::python;
  // PyTorch's default dtype in Python is float32; the C++ runtime starts at float64
  // (csrc/default_dtype.h). Set once, when gradgen._C is first imported.
  gradgen::set_default_dtype(gradgen::ScalarType::Float);
  python::init_exceptions(m);
  python::init_dtypes(m);
  python::init_tensor_class(m);
  python::init_tensor_conversion(m);
  python::init_tensor_numpy(m);
  python::init_tensor_indexing(m);
  python::init_tensor_autograd(m);
  python::init_tensor_operators(m);
  python::init_tensor_inplace_operators(m);
  python::init_graph(m);
  python::init_autograd(m);
  python::init_forward_ad(m);
  python::init_profiler(m);
  python::init_tracer(m);
  python::init_random(m);
  python::init_factories(m);
  python::init_dtype_functions(m);
  python::bind_generated(m);

  // Classes print as the package exports them (gradgen.Tensor, not gradgen._C.Tensor), in
  // reprs and in the overload listings of TypeErrors.
  for (const char* name :
       {"Tensor", "dtype", "layout", "memory_format", "device", "Generator", "RemovableHandle"}) {
    m.attr(name).attr("__module__") = "gradgen";
  }
  for (const char* name : {"Node", "AccumulateGrad"}) {
    m.attr(name).attr("__module__") = "gradgen.autograd";
  }
}
