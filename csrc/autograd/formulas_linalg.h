// Formula helpers of the tensor op library's products, third batch (issue 23): the names
// PyTorch's entries in specs/derivatives.yaml call, written with gradgen's differentiable API so
// that they are differentiable again (double backward).
#pragma once

#include <algorithm>
#include <cstdint>

#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// trace's gradient: zeros of the matrix's sizes with the (0-dim) grad on the main diagonal,
/// through diagonal_backward (whose own formula takes the diagonal back: double backward).
inline Tensor trace_backward_symint(const Tensor& grad, IntArrayRef sizes) {
  const int64_t k = std::min(sizes[0], sizes[1]);
  return ::gradgen::diagonal_backward(::gradgen::expand(grad, {k}), sizes, 0, 0, 1);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
