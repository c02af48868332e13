// Arithmetic operators on Tensor, spelled with the differentiable API.
//
//   Tensor y = -x * w + b / 2;   // neg, mul.Tensor, div.Scalar, add.Tensor: all recorded
//
// They make derivative formulas read like PyTorch's (`grad * other`,
// `-2 * output * grad_output`) and, because they call the generated ops, a
// formula written with them is itself differentiable (double backward).
// They live here rather than in csrc/tensor.h, which must not depend on the
// generated code. Scalars convert implicitly: `x * 2`, `1 - x`, `x / n`.
#pragma once

#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"

namespace gradgen {

inline Tensor operator-(const Tensor& a) { return neg(a); }

inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator+(const Tensor& a, const Scalar& b) { return add(a, b); }
inline Tensor operator+(const Scalar& a, const Tensor& b) { return add(b, a); }

inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator-(const Tensor& a, const Scalar& b) { return add(a, b, -1); }
inline Tensor operator-(const Scalar& a, const Tensor& b) { return add(neg(b), a); }

inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator*(const Tensor& a, const Scalar& b) { return mul(a, b); }
inline Tensor operator*(const Scalar& a, const Tensor& b) { return mul(b, a); }

inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
inline Tensor operator/(const Tensor& a, const Scalar& b) { return div(a, b); }
inline Tensor operator/(const Scalar& a, const Tensor& b) { return mul(reciprocal(b), a); }

}  // namespace gradgen
