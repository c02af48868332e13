// Helpers of the pooling ops' derivative formulas (specs/derivatives.yaml, section "nn, second
// batch: pooling"), with PyTorch's names, written with gradgen's differentiable API.
#pragma once

#include <cstdint>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

// Tensor::flatten(start_dim, end_dim) of PyTorch's formulas is the op flatten.using_ints.

/// Tensor::view_as(other): self reshaped to other's sizes.
inline Tensor view_as(const Tensor& self, const Tensor& other) {
  return reshape(self, other.sizes());
}

/// The gradient of a max pool's backward in grad_output: grad (of the input's shape) read at the
/// pooled positions, indices being flat positions within the last `dim` dims.
Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t dim);

/// PyTorch's _symint spelling of _adaptive_avg_pool2d (SymInts are integers in gradgen).
inline Tensor _adaptive_avg_pool2d_symint(const Tensor& self, IntArrayRef output_size) {
  return _adaptive_avg_pool2d(self, output_size);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
