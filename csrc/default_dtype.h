// The process-wide default floating dtype, PyTorch's torch.get_default_dtype().
//
// It is what a floating result gets when nothing names its dtype: a Python float made into a
// tensor, a factory given no dtype whose result is floating (linspace, eye, rand, normal,
// arange with a float bound), and a floating scalar (a Python number) meeting an integer or
// bool tensor in type promotion (int64 tensor * 1.5, true division of integers).
//
// The C++ runtime starts at Double (gradgen's kernels and its C++ tests compute in float64);
// `import gradgen` sets Float, PyTorch's default. libtorch starts at Float in C++ too: that is
// a documented difference (docs/dtypes.md). The C++ factories with a dtype parameter of their
// own (zeros, ones, empty, full, tensor, randn in csrc/tensor.h) keep their Double default.
//
// One value for the process, as in PyTorch; not synchronized: set it before other threads run
// ops (PyTorch's is not thread-local either).
#pragma once

#include "csrc/scalar.h"

namespace gradgen {

/// Returns the default floating dtype: Double until set_default_dtype changes it.
ScalarType get_default_dtype() noexcept;

/// Sets the default floating dtype. Accepts PyTorch's choices, Float, Double, Half and
/// BFloat16; throws std::invalid_argument naming the dtype otherwise.
void set_default_dtype(ScalarType dtype);

}  // namespace gradgen
