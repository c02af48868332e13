// Formula helper of the flagtest spec (derivatives.yaml): joins the two halves' gradients.
#pragma once

#include "csrc/tensor.h"

namespace flagtest {
namespace helpers {

/// Returns the gradient of split_halves' input: the halves' gradients side by side (an undefined
/// half contributes zeros).
gradgen::Tensor join_halves(const gradgen::Tensor& grad_first, const gradgen::Tensor& grad_second,
                            gradgen::IntArrayRef self_sizes);

}  // namespace helpers
}  // namespace flagtest
