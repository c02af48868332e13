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
