// Hand-written helpers called by derivative formulas in specs/derivatives.yaml.
//
// The generated Functions.cpp does `using namespace details;` so a formula such as
//   tensors: cat_tensors_backward(grad, to_args_sizes(tensors), dim)
// calls these functions unqualified. Every helper is written with the
// differentiable ops of VariableType.h and the operators of csrc/ops.h, so it is
// itself differentiable: a double backward (create_graph=true) through it works,
// as in PyTorch's FunctionsManual.cpp. The exceptions say so (not_implemented).
//
// Arguments arrive as the Backward node saved them: sizes as std::vector<int64_t>
// (taken as IntArrayRef), an `int[1]? dim` as std::optional<std::vector<int64_t>>
// (taken as OptionalIntArrayRef), undefined Tensors for absent optionals and for
// outputs that received no gradient.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "csrc/autograd/grad_mode.h"  // GradMode::is_enabled() in PyTorch's formulas
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

// ---------------------------------------------------------------------------
// General
// ---------------------------------------------------------------------------

/// Throws std::runtime_error "the derivative for '<name>' is not implemented":
/// the formula of an input whose gradient gradgen does not compute. Declared to
/// return a Tensor so that it fits where a formula's value goes.
[[noreturn]] Tensor not_implemented(const char* name);
/// not_implemented for a Tensor[] input (the codegen rewrites the call).
[[noreturn]] std::vector<Tensor> not_implemented_list(const char* name);

/// Returns grad summed over the dims that broadcasting added or expanded, so that
/// it has `shape` (the operand's shape). Returns grad itself when it already has it.
Tensor sum_to(const Tensor& grad, IntArrayRef shape);

/// Returns t * s, or t itself when s is 1 (the common `alpha`).
Tensor maybe_multiply(const Tensor& t, const Scalar& s);

// ---------------------------------------------------------------------------
// Element-wise
// ---------------------------------------------------------------------------

/// d/dself of pow(self, exponent) for a Scalar exponent.
Tensor pow_backward(const Tensor& grad, const Tensor& self, const Scalar& exponent);
/// d/dself of pow(self, exponent) for a Tensor exponent (unreduced; broadcast shape).
Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Tensor& exponent);
/// d/dexponent of pow(self, exponent) = grad * result * log(self) (unreduced).
Tensor pow_backward_exponent(const Tensor& grad, const Tensor& self, const Tensor& exponent,
                             const Tensor& result);
/// The same for a number base (pow.Scalar: `2 ** x`).
Tensor pow_backward_exponent(const Tensor& grad, const Scalar& self, const Tensor& exponent,
                             const Tensor& result);
/// grad where min <= self <= max, 0 elsewhere (the mask itself has no gradient).
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max);

// ---------------------------------------------------------------------------
// Reductions
// ---------------------------------------------------------------------------

/// Expands the gradient of sum(self, dim, keepdim) back to self_sizes.
Tensor sum_backward(const Tensor& grad, IntArrayRef self_sizes, OptionalIntArrayRef dim,
                    bool keepdim);
/// The gradient of mean(self, dim, keepdim): sum_backward / (elements per mean).
Tensor mean_backward(const Tensor& grad, IntArrayRef self_sizes, OptionalIntArrayRef dim,
                     int64_t numel, bool keepdim);

/// The gradient of max.dim(self, dim, keepdim) (and any op selecting one element
/// per reduced slice): grad scattered to the positions in `indices`.
Tensor value_selecting_reduction_backward(const Tensor& grad, int64_t dim, const Tensor& indices,
                                          IntArrayRef self_sizes, bool keepdim);
/// The gradient of logsumexp(self, dim, keepdim): grad * exp(self - result).
Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result,
                          IntArrayRef dim, bool keepdim);

// ---------------------------------------------------------------------------
// Matrix products
// ---------------------------------------------------------------------------

/// The gradients of linear(input, weight, bias) for the inputs grad_input_mask
/// asks for (undefined for the others, and for all when grad is undefined).
std::tuple<Tensor, Tensor, Tensor> linear_backward(const Tensor& input, const Tensor& grad,
                                                   const Tensor& weight,
                                                   std::array<bool, 3> grad_input_mask);

// ---------------------------------------------------------------------------
// Shape ops and indexing
// ---------------------------------------------------------------------------

/// Splits the gradient of cat(tensors, dim) into one gradient per input, given
/// the inputs' sizes.
std::vector<Tensor> cat_tensors_backward(const Tensor& grad,
                                         const std::vector<std::vector<int64_t>>& sizes,
                                         int64_t dim);

/// Returns the gradient of narrow(self, dim, start, length): grad padded with
/// zeros back to self_sizes.
Tensor narrow_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, int64_t start,
                       int64_t length);

/// Returns the gradient of select(self, dim, index): grad placed at `index` of a
/// zero tensor of self_sizes.
Tensor select_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, int64_t index);

/// Returns the gradient of permute(self, dims): grad permuted by the inverse.
Tensor permute_backwards(const Tensor& grad, IntArrayRef dims);

/// The gradient of index_select(self, dim, index): grad's rows added at `index`
/// into zeros of self_sizes.
Tensor index_select_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim,
                             const Tensor& index);

/// The gradient of gather(self, dim, index): grad scattered (added) at `index`
/// into zeros of self_sizes.
Tensor gather_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim,
                       const Tensor& index);

// ---------------------------------------------------------------------------
// Lists out: `grads` holds one gradient per output, undefined where none arrived
// ---------------------------------------------------------------------------

/// The gradient of split(self, split_size, dim): the pieces' gradients (zeros
/// where undefined) concatenated back along dim.
Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim,
                      IntArrayRef self_sizes, ScalarType dtype);
/// The gradient of unbind(self, dim): the gradients stacked along dim.
Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim, IntArrayRef self_sizes,
                       ScalarType dtype);
/// The gradient of chunk(self, chunks, dim).
Tensor chunk_backward(const std::vector<Tensor>& grads, int64_t chunks, int64_t dim,
                      IntArrayRef self_sizes, ScalarType dtype);

// ---------------------------------------------------------------------------
// Neural-network ops
// ---------------------------------------------------------------------------

/// The gradient of softmax(self, dim) given its result: result * (grad - sum(grad * result)),
/// converted to the input's dtype.
Tensor softmax_backward_data(const Tensor& grad, const Tensor& result, int64_t dim,
                             ScalarType input_dtype);
/// The gradient of log_softmax(self, dim) given its result: grad - exp(result) * sum(grad).
Tensor log_softmax_backward_data(const Tensor& grad, const Tensor& result, int64_t dim,
                                 ScalarType input_dtype);
/// The gradient of mse_loss(self, target, reduction) with respect to self (swap
/// self and target for target's).
Tensor mse_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                         int64_t reduction);
/// The gradient of cumprod(self, dim) (= result), PyTorch's cumprod_backward: exact when self
/// holds zeros; O(n) per line, or, under create_graph, a differentiable O(n^2) form.
Tensor cumprod_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& result);
/// The gradient of nll_loss with respect to self (its log-probabilities).
Tensor nll_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                         const Tensor& weight, int64_t reduction, int64_t ignore_index);
/// The gradient of embedding(weight, indices, ...) with respect to weight: grad's
/// rows added into the rows `indices` names (none into padding_idx's; divided by
/// each index's count with scale_grad_by_freq).
Tensor embedding_backward(const Tensor& grad, const Tensor& indices, int64_t num_weights,
                          int64_t padding_idx, bool scale_grad_by_freq);
/// The gradients of lstm_cell(input, hx = [h, c], w_ih, w_hh, b_ih, b_hh), given
/// the gradients of hy and cy (either may be undefined), for the inputs
/// grad_input_mask asks for. The gates are recomputed from the saved inputs with
/// differentiable ops, so the result is differentiable again.
std::tuple<Tensor, std::vector<Tensor>, Tensor, Tensor, Tensor, Tensor> lstm_cell_backward(
    const Tensor& grad_hy, const Tensor& grad_cy, const Tensor& input,
    const std::vector<Tensor>& hx, const Tensor& w_ih, const Tensor& w_hh, const Tensor& b_ih,
    const Tensor& b_hh, std::array<bool, 6> grad_input_mask);

// ---------------------------------------------------------------------------
// PyTorch's formula environment
// ---------------------------------------------------------------------------
// What formulas copied from PyTorch's derivatives.yaml call, with PyTorch's names, signatures and
// meaning (PyTorch's FunctionsManual.h), written for gradgen. The codegen has already rewritten
// method calls into free calls (`grad.t()` -> `t(grad)`, tools/codegen/formula_env.py) and dropped
// `at::` / `c10::`; Tensor has PyTorch's accessor spellings (`sym_sizes()`, `layout()`,
// `options()`, csrc/tensor.h). gradgen has no complex dtype: the conjugations PyTorch's formulas
// apply for complex inputs are identities here, and so is handle_r_to_c.

/// The conjugate of a real tensor (or scalar): itself.
inline const Tensor& conj(const Tensor& t) { return t; }
inline const Scalar& conj(const Scalar& s) { return s; }
/// PyTorch takes the real part of a complex gradient of a real input; all of gradgen's are real.
inline const Tensor& handle_r_to_c(ScalarType /*self_st*/, const Tensor& gradient) {
  return gradient;
}
inline const Tensor& handle_r_to_c(const Tensor& /*self*/, const Tensor& gradient) {
  return gradient;
}
/// Element-wise comparisons written as operators, as PyTorch's formulas do (`self == 0`,
/// `self == other`): Bool tensors (the ordering operators are in formulas_nn.h).
Tensor operator==(const Tensor& a, const Scalar& b);
Tensor operator!=(const Tensor& a, const Scalar& b);
Tensor operator==(const Tensor& a, const Tensor& b);
Tensor operator!=(const Tensor& a, const Tensor& b);
Tensor operator<(const Tensor& a, const Tensor& b);
Tensor operator>(const Tensor& a, const Tensor& b);
Tensor operator<=(const Tensor& a, const Tensor& b);
Tensor operator>=(const Tensor& a, const Tensor& b);
/// `&` and `|` of Bool masks (`(self == 0) & (other <= 0)`): logical and / or.
Tensor operator&(const Tensor& a, const Tensor& b);
Tensor operator|(const Tensor& a, const Tensor& b);
/// The real part of a real tensor: itself (PyTorch's `at::real(...)` in var's and std's tangents).
inline const Tensor& real(const Tensor& t) { return t; }
/// at::ones(sizes, options): ones of options' dtype (the dtype form stays available here).
Tensor ones(IntArrayRef sizes, const TensorOptions& options);
inline Tensor ones(IntArrayRef sizes, ScalarType dtype = ScalarType::Double) {
  return ::gradgen::ones(sizes, dtype);
}
/// at::zeros_symint(sizes, options): zeros of options' dtype (normal's entries).
Tensor zeros_symint(IntArrayRef sizes, const TensorOptions& options);
/// at::scalar_tensor(s, options): a 0-dim tensor holding s, of options' dtype.
Tensor scalar_tensor(const Scalar& s, const TensorOptions& options);
/// self.new_zeros(size): zeros of self's dtype.
Tensor new_zeros_symint(const Tensor& self, IntArrayRef size);
/// PyTorch fills in place when no graph is being recorded and out of place otherwise (the
/// filled tensor may be saved); gradgen always fills a new tensor: the same values, and
/// differentiable when a formula is differentiated again.
Tensor masked_fill_inplace_if_safe(const Tensor& self, const Tensor& mask, const Scalar& value);
/// PyTorch's in-place method on a temporary (std's tangent `(...).masked_fill_(result == 0, 0)`):
/// a Tensor is a handle, so the call fills the temporary and returns it. gradgen's free
/// masked_fill_ takes an lvalue; this overload takes the rvalue the rewritten formula passes.
Tensor masked_fill_(Tensor&& self, const Tensor& mask, const Scalar& value);
/// Tensor methods whose free form gradgen's API spells differently.
Tensor expand_symint(const Tensor& self, IntArrayRef size);
Tensor reshape_symint(const Tensor& self, IntArrayRef shape);
Tensor sum_to_size(const Tensor& self, IntArrayRef size);
// expand_as and contiguous (`grad.contiguous()`, differentiable unlike Tensor::contiguous, the
// kernels' helper) are ops of the spec (csrc/native/tensorops_shape2.cc).

/// The inverse of squeeze(): grad reshaped back to the input's sizes (the squeezed dims of size
/// 1 put back), and of squeeze(dim): grad unsqueezed at dim if that dim had size 1.
Tensor unsqueeze_to(const Tensor& grad, IntArrayRef sizes);
Tensor unsqueeze_to(const Tensor& grad, int64_t dim, IntArrayRef sizes);

/// d/dmat1 and d/dmat2 of alpha * mm(mat1, mat2); the saved sizes, strides and layout of the
/// input are PyTorch's hint for the gradient's memory layout (gradgen's GEMM takes any strides,
/// so the gradient is always row-major).
Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, IntArrayRef mat1_sizes,
                        IntArrayRef mat1_strides, Layout mat1_layout, const Scalar& alpha);
Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, IntArrayRef mat2_sizes,
                        IntArrayRef mat2_strides, Layout mat2_layout, const Scalar& alpha);
/// The gradients of matmul(self, other) for every combination of ranks (1-D, 2-D, batched and
/// broadcast), for the inputs grad_input_mask asks for.
std::tuple<Tensor, Tensor> matmul_backward(const Tensor& grad, const Tensor& self,
                                           const Tensor& other,
                                           std::array<bool, 2> grad_input_mask);

/// d/dself of self * other (unreduced: the engine sums a broadcast gradient to self's shape).
Tensor mul_tensor_backward(const Tensor& grad, const Tensor& other, ScalarType self_st);
Tensor mul_tensor_backward(const Tensor& grad, const Scalar& other, ScalarType self_st);
/// d/dself of self / other.
Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, ScalarType self_st);
Tensor div_tensor_self_backward(const Tensor& grad, const Scalar& other, ScalarType self_st);
/// d/dother of self / other: -grad * self / other^2, computed as (self / other) / other.
Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other);

/// cat's gradient with the inputs' dtypes (each piece converted back to its input's dtype).
std::vector<Tensor> cat_tensors_backward(const Tensor& grad,
                                         const std::vector<std::vector<int64_t>>& sizes,
                                         const std::vector<ScalarType>& dtypes, int64_t dim);
/// stack's gradient: grad unbound along dim, each piece in its input's dtype.
std::vector<Tensor> stack_tensors_backward(const Tensor& grad, int64_t dim,
                                           const std::vector<ScalarType>& dtypes);

/// unbind's gradient (PyTorch's two-argument form): undefined pieces become zeros shaped like a
/// defined one.
Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim);
/// split's gradient, with the input's options instead of its dtype.
Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim,
                      IntArrayRef self_sizes, const TensorOptions& options);
/// gather's gradient from the input itself (PyTorch's signature); sparse_grad must be false.
Tensor gather_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& index,
                       bool sparse_grad);
/// PyTorch's _symint spellings of gradgen's helpers (sizes are plain integers).
Tensor value_selecting_reduction_backward_symint(const Tensor& grad, int64_t dim,
                                                 const Tensor& indices, IntArrayRef self_sizes,
                                                 bool keepdim);
Tensor index_select_backward_symint(const Tensor& grad, IntArrayRef self_sizes, int64_t dim,
                                    const Tensor& index);
Tensor select_backward_symint(const Tensor& grad, IntArrayRef self_sizes, int64_t dim,
                              int64_t index);
/// embedding's gradient; `sparse` (a sparse gradient) is not supported: gradgen has no sparse
/// tensors.
Tensor embedding_backward_symint(const Tensor& grad, const Tensor& indices, int64_t num_weights,
                                 int64_t padding_idx, bool scale_grad_by_freq, bool sparse);

/// native_dropout's gradient: grad * mask * scale, differentiable (PyTorch uses it when grad
/// mode is on), and the gradient of native_dropout_backward with respect to its grad_output.
Tensor infinitely_differentiable_native_dropout_backward(const Tensor& grad, const Tensor& mask,
                                                         double scale);
Tensor native_dropout_double_backward(const Tensor& ggI, const Tensor& grad, const Tensor& mask,
                                      double scale);

// ---------------------------------------------------------------------------
// The skeleton's lincomb
// ---------------------------------------------------------------------------

/// Returns the gradients of lincomb(tensors, coeffs) for its n tensors:
/// coeffs[i] * grad.
std::vector<Tensor> lincomb_tensors_backward(const Tensor& grad, const Tensor& coeffs, size_t n);

/// Returns the gradient of lincomb(tensors, coeffs) for coeffs: the 1-D tensor of
/// sum(grad * tensors[i]).
Tensor lincomb_coeffs_backward(const Tensor& grad, const std::vector<Tensor>& tensors);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
