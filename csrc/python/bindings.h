// The parts of the gradgen._C module init (csrc/python/module.cc), one per file.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "csrc/tensor.h"

namespace gradgen {
namespace python {

/// gradgen.Tensor, its operators, gradgen.tensor and gradgen.from_numpy (tensor_bindings.cc).
void bind_tensor(nanobind::module_& m);

/// Grad mode, autograd.grad/backward, the graph's nodes, Generator and the factories
/// (autograd_bindings.cc).
void bind_autograd(nanobind::module_& m);

/// gradgen.dtype, layout, memory_format, device and their instances, and the exception
/// translators (types_bindings.cc).
void register_types(nanobind::module_& m);

/// A tensor over the memory of `source`, a CPU array (buffer protocol or DLPack), without a
/// copy unless its strides are negative (tensor_bindings.cc). A read-only array is shared
/// too, with a UserWarning, as torch.from_numpy does.
Tensor from_numpy(nanobind::handle source);

}  // namespace python
}  // namespace gradgen
