// SavedVariable: a tensor a Backward node keeps from the forward pass.
//
// A derivative formula often needs forward values (`mm`'s self and mat2, or an
// op's own result). The generated forward stores them as SavedVariables, and the
// generated apply() unpacks them:
//
//   grad_fn->self_ = SavedVariable(self, /*is_output=*/false);   // in the forward
//   auto self = self_.unpack(this, "self");                       // in apply()
//
// Guarantees:
//  - unpack() throws if the data was modified in place after it was saved
//    (Note [Version counter] in csrc/tensor.h), naming the node and the tensor;
//  - unpack() throws after reset_data() (called by release_variables() when a
//    backward ran without retain_graph), explaining how to keep the graph;
//  - the unpacked tensor keeps its autograd history, so formulas written with
//    differentiable ops are differentiable again (double backward).
//
// Note [Saved outputs do not own their grad_fn]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A saved *output* of an op has that op's node as its grad_fn. Storing the tensor
// as is would make the node own itself (node -> saved tensor -> grad_fn -> node),
// a cycle shared_ptr never frees. So, as PyTorch does, an output is saved without
// its grad_fn (a detached alias of the same data and version counter) plus its
// output_nr, and unpack() re-attaches `saved_for`, the node doing the unpacking,
// as grad_fn. Inputs and leaves are saved as they are: their grad_fn (or the
// leaf's AccumulateGrad) is another node, so gradients flow through them in a
// double backward. A saved view is kept as a non-view alias carrying the view's grad_fn
// (Note [Saved views do not own their base] in saved_variable.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {

struct Node;

class SavedVariable {
 public:
  /// Constructs an empty slot, which unpacks to an undefined tensor (e.g. an
  /// absent optional input).
  SavedVariable() = default;
  /// Saves t and its current version; is_output says whether t is an output of
  /// the node that saves it (Note [Saved outputs do not own their grad_fn]).
  SavedVariable(const Tensor& t, bool is_output);
  /// Saves an optional tensor; nullopt behaves like the default constructor.
  SavedVariable(const std::optional<Tensor>& t, bool is_output);

  /// Returns the saved tensor with its autograd history, checking that it was
  /// neither freed nor modified. `saved_for` is the node that saved it (used for
  /// error messages and as grad_fn of saved outputs); `name` is the argument name
  /// for error messages. list_index >= 0 names the element of a saved Tensor[].
  Tensor unpack(const Node* saved_for, const char* name, int64_t list_index = -1) const;

  /// Frees the saved data; a later unpack() throws the "second time" error.
  void reset_data();

  /// Returns true if a tensor was saved and not yet freed.
  bool has_data() const noexcept { return data_.defined(); }
  /// Returns the saved tensor as stored, without checks or history (undefined once freed or
  /// when nothing was saved): for inspection (to_dot), not for formulas.
  const Tensor& peek_data() const noexcept { return data_; }

 private:
  Tensor data_;
  uint64_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
  bool was_saved_ = false;        // false for the default constructor / nullopt
  bool is_saved_output_ = false;  // saved without grad_fn; re-attached on unpack
};

/// The shape and dtype of a tensor, without its data: what a node keeps for a
/// formula reading `zeros_like(x)` (saved as `x_info`, used as `x_info.zeros()`).
struct TypeAndSize {
  TypeAndSize() = default;
  TypeAndSize(const Tensor& t) : sizes(t.sizes().vec()), dtype(t.scalar_type()) {}
  /// Returns a tensor of zeros of the saved shape and dtype.
  Tensor zeros() const { return gradgen::zeros(sizes, dtype); }

  std::vector<int64_t> sizes;
  ScalarType dtype = ScalarType::Double;
};

/// Saves each tensor of a Tensor[] input, or (is_output) of a Tensor[] output of
/// the saving node.
std::vector<SavedVariable> make_saved_variable_list(TensorList tensors, bool is_output = false);
/// Saves each tensor of a Tensor?[] input (index.Tensor's indices); an absent one unpacks to an
/// undefined Tensor.
std::vector<SavedVariable> make_saved_variable_list(
    const std::vector<std::optional<Tensor>>& tensors, bool is_output = false);

/// Unpacks a saved Tensor[]; `released` is the node's `<name>_released_` flag,
/// set by release_variables(), which makes this throw the "second time" error.
std::vector<Tensor> unpack_list(const std::vector<SavedVariable>& saved, bool released,
                                const Node* saved_for, const char* name);

}  // namespace autograd
}  // namespace gradgen
