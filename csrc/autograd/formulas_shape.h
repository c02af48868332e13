// Formula helpers of the tensor op library's shape ops, second batch (issue 23): the names
// PyTorch's entries in specs/derivatives.yaml call, written with gradgen's differentiable API so
// that they are differentiable again (double backward).
#pragma once

#include <cstdint>

#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// PyTorch's SymInt spellings of tril / triu (`grad.tril_symint(diagonal)`): gradgen's sizes
/// are ints, so they are the ops themselves.
inline Tensor tril_symint(const Tensor& self, int64_t diagonal) {
  return ::gradgen::tril(self, diagonal);
}
inline Tensor triu_symint(const Tensor& self, int64_t diagonal) {
  return ::gradgen::triu(self, diagonal);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
