// Stand-in for the generated bindings until the codegen's Python emitter lands (then
// //csrc/python:_C takes //csrc:autograd's python_sources instead and this file goes).
#include "csrc/python/bind.h"

namespace gradgen::python {
void bind_generated(nanobind::module_&) {}
}  // namespace gradgen::python
