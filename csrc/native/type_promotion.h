// Type promotion as in PyTorch (torch.result_type, c10/core/ScalarType.h, ATen's
// ResultTypeState): which dtype an element-wise op, a comparison, `where` or an `out=`
// write computes in, and the casts that go with it.
//
// Categories: bool < integer < floating. Operands are of three priorities, highest first:
// tensors with at least one dim, zero-dim tensors, and scalars (gradgen::Scalar, which is
// what a Python number becomes). Within a priority the dtypes promote (Bool < Long < Float
// < Double); a lower priority only matters when its category is higher than the higher
// priority's: float32 tensor + float64 zero-dim tensor is float32, int64 tensor + float64
// zero-dim tensor is float64, int64 tensor + 1.5 is the default dtype (a floating scalar counts
// as get_default_dtype(), float32 in Python, as in PyTorch).
//
// Internal to the kernels (namespace gradgen::native), and what the Python bindings'
// torch.result_type / promote_types / can_cast report (csrc/python/dtype_functions.cc); not a
// C++ API.
#pragma once

#include <initializer_list>
#include <tuple>

#include "csrc/default_dtype.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace native {

/// The default floating dtype (csrc/default_dtype.h), which a floating scalar (a Python float)
/// counts as and integer inputs of floating functions compute in; read at each call, since
/// set_default_dtype may change it.
inline ScalarType default_float() { return get_default_dtype(); }

/// Returns the dtype both promote to (PyTorch's promoteTypes): bool < integers < floating types,
/// the wider within a category, with uint8 + int8 = int16 and float16 + bfloat16 = float32.
ScalarType promote_types(ScalarType a, ScalarType b);

/// The dtype a kernel computes a result of dtype t in: Long for the narrower integers (their
/// arithmetic wraps the same modulo 2^bits, so computing in int64 and casting back gives
/// PyTorch's results), Float for float16 and bfloat16 (as PyTorch's CPU kernels compute them),
/// t itself for Double, Float, Long and Bool. Kernels thus instantiate three element types only.
ScalarType compute_dtype(ScalarType t);

/// Returns true when a value of `from` may be written into `to` (PyTorch's canCast): never from
/// a higher category (bool < integer < floating) into a lower one.
bool can_cast(ScalarType from, ScalarType to);

/// True for the dtypes kernels compute through compute_dtype: the narrower integers, float16 and
/// bfloat16.
inline bool is_narrow(ScalarType t) { return compute_dtype(t) != t; }

/// Returns operand t of an op whose result type is `result`, converted to compute_dtype(result):
/// integers through `result` first (PyTorch converts every operand to the common dtype, so int8 +
/// an int64 zero-dim 300 adds 44), float16 and bfloat16 straight to float32 (PyTorch's
/// reduced-float kernels keep a scalar operand at float precision: float16 + 0.1 adds 0.1f).
Tensor widen(const Tensor& t, ScalarType result);

/// The operands of one op, accumulated by priority (ATen's ResultTypeState).
class ResultType {
 public:
  /// Adds a tensor (ignored when undefined): a dimensioned or a zero-dim operand.
  ResultType& add(const Tensor& t);
  /// Adds a scalar (a Python number): Double counts as default_float(), Long, Bool as themselves.
  ResultType& add(const Scalar& s);
  /// Returns the dtype the op computes in; Double if no operand was added.
  ScalarType get() const;

 private:
  int dim_ = -1, zero_ = -1, wrapped_ = -1;  // a ScalarType, or -1 for none yet
};

/// Returns the result type of two tensors.
ScalarType result_type(const Tensor& a, const Tensor& b);
/// Returns the result type of a tensor and a scalar.
ScalarType result_type(const Tensor& a, const Scalar& b);

/// Throws std::runtime_error in PyTorch's words ("Autograd not support dtype: Long") when a
/// differentiable op (sum, cumprod with dtype=) would give an input that requires grad, with
/// GradMode on, a result of a non-floating dtype. (Casts, to(), are allowed: their integer results
/// just get no history, csrc/autograd/variable_type_utils.h.)
void check_differentiable_dtype(const Tensor& input, ScalarType result);

/// Returns t converted to dtype (t itself when it already has it), without autograd history.
Tensor cast(const Tensor& t, ScalarType dtype);

/// Throws std::invalid_argument naming op, in PyTorch's words ("result type Float can't be cast
/// to the desired output type Long"), unless can_cast(result, out).
void check_can_cast(const char* op, ScalarType result, ScalarType out);

/// Writes `result` into `out` for an out= variant as PyTorch does: checks can_cast (the error
/// above), resizes out to result's shape when they differ (silently when out has no elements,
/// else with PyTorch's UserWarning, through gradgen::internal::warn), converts to out's dtype, and
/// bumps out's version. Returns out.
Tensor& write_out(const char* op, const Tensor& result, Tensor& out);

/// Writes an out-of-place result into self, for an in-place variant computed out of place: throws
/// naming op unless result has self's shape (PyTorch's "output with shape [2] doesn't match the
/// broadcast shape [2, 2]") and can_cast(result, self) (the error above); refuses a self whose
/// elements overlap; converts to self's dtype and bumps self's version. Returns self.
Tensor& write_inplace(const char* op, Tensor& self, const Tensor& result);

/// write_out of an op's (values, indices) into its out= tensors (sort.values, median.dim_values,
/// cummax.out, ...); throws naming op, as PyTorch does, unless indices is Long.
std::tuple<Tensor&, Tensor&> write_pair(const char* op, const std::tuple<Tensor, Tensor>& result,
                                        Tensor& values, Tensor& indices);

/// Resizes t in place to the contiguous shape `sizes` (PyTorch's resize_): keeps the storage
/// when it is large enough, else gives t a new one (the old elements are kept where they fit).
void resize_(const Tensor& t, IntArrayRef sizes);

}  // namespace native
}  // namespace gradgen
