// The Python objects the casters of casters.h convert to and from (gradgen.float64,
// gradgen.strided, gradgen.Tensor's type, ...). dtypes.cc and the Tensor class make them in
// gradgen._C's init; type_objects.cc keeps them, one copy per process (a shared library in
// Bazel's dynamic links), for every extension module. Python's C API only: nanobind's API needs
// the state of the module calling it, which this library, linked by several modules, does not
// have.
#pragma once

#include <nanobind/nanobind.h>

#include "csrc/tensor.h"

namespace gradgen {
namespace python {

/// Returns the Python type gradgen.Tensor (null before gradgen._C is initialized).
PyObject* tensor_type() noexcept;

/// Returns true if `o` is a gradgen.Tensor (or a subclass).
bool is_tensor(PyObject* o) noexcept;

/// The Python objects of the enum-like types: new references, never null once registered.
PyObject* dtype_object(ScalarType t) noexcept;
PyObject* layout_object(Layout l) noexcept;
PyObject* memory_format_object(MemoryFormat f) noexcept;
PyObject* device_object(Device d) noexcept;

/// Parses `o` into the C++ value; returns false (no Python error set) when it is not one.
/// `convert` allows the looser forms (Python types for dtypes, strings for devices; layouts and
/// memory formats have none).
bool dtype_from_object(PyObject* o, bool convert, ScalarType* out) noexcept;
bool layout_from_object(PyObject* o, bool convert, Layout* out) noexcept;
bool memory_format_from_object(PyObject* o, bool convert, MemoryFormat* out) noexcept;
bool device_from_object(PyObject* o, bool convert, Device* out) noexcept;

/// Returns the dtype's Python name without the module: "float64".
const char* dtype_name(ScalarType t) noexcept;

/// The objects gradgen._C's init makes (borrowed; set_type_objects keeps references).
struct TypeObjects {
  PyObject* dtypes[kNumScalarTypes] = {};  // indexed by ScalarType
  PyObject* strided = nullptr;
  PyObject* contiguous_format = nullptr;
  PyObject* preserve_format = nullptr;
  PyObject* cpu = nullptr;
  PyObject* device_type = nullptr;  // gradgen.device
};
/// For gradgen._C's init only: records the objects the casters convert to and from.
void set_type_objects(const TypeObjects& objects) noexcept;
/// For gradgen._C's init only: records gradgen.Tensor's Python type for is_tensor().
void set_tensor_type(PyObject* type) noexcept;

}  // namespace python
}  // namespace gradgen
