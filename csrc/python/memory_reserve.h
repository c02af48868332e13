// Out of memory where C++ cannot throw (memory_reserve.cc). nanobind registers each new Python
// object in its instance table inside noexcept functions: a std::bad_alloc from the table's
// growth there aborts the process. install_memory_reserve() (gradgen._C's init) keeps a reserve
// that the process's new_handler frees on the first failed allocation, so that one succeeds; the
// next Tensor handed to Python then raises MemoryError (memory_is_low(), in the Tensor caster of
// casters.h) until the reserve can be taken again.
#pragma once

namespace gradgen {
namespace python {

/// Takes the reserve and installs the new_handler that frees it (once per process).
void install_memory_reserve() noexcept;

/// True, with MemoryError set, when the reserve is spent and cannot be taken back.
bool memory_is_low() noexcept;

}  // namespace python
}  // namespace gradgen
