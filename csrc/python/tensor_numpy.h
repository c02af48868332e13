// What gradgen.tensor(data) takes from tensor_numpy.cc: the copy of an array.
#pragma once

#include <nanobind/nanobind.h>

#include <optional>

#include "csrc/tensor.h"

namespace gradgen {
namespace python {

/// A copy, without history, of `data` when it is an array: a NumPy array or scalar, or any
/// object with the buffer or DLPack protocol that nanobind can read on the CPU. std::nullopt
/// for other objects (sequences, numbers). Refuses NumPy's dtypes gradgen lacks (TypeError).
std::optional<Tensor> copy_of_array(nanobind::handle data);

}  // namespace python
}  // namespace gradgen
