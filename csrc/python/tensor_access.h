// What the parts of gradgen.Tensor's bindings (tensor_*.cc) share: the class the first of them
// makes, and the address of an element. Private to //csrc/python:bindings.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>

#include "csrc/tensor.h"

namespace gradgen {
namespace python {

/// gradgen.Tensor's class, made by init_tensor_class, for the init_tensor_* that add methods.
inline nanobind::class_<Tensor> tensor_class_of(nanobind::module_& m) {
  return nanobind::borrow<nanobind::class_<Tensor>>(m.attr("Tensor"));
}

/// The address of the element `offset` elements past the tensor's first (strides included).
inline const char* element_address(const Tensor& t, int64_t offset) {
  const TensorImpl& impl = *t.unsafe_impl();
  return static_cast<const char*>(impl.storage->data) +
         (impl.storage_offset + offset) * static_cast<int64_t>(element_size(impl.dtype));
}

}  // namespace python
}  // namespace gradgen
