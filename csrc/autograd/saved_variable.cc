#include "csrc/autograd/saved_variable.h"

#include <stdexcept>
#include <string>

#include "csrc/autograd/function.h"

namespace gradgen {
namespace autograd {

SavedVariable::SavedVariable(const Tensor& t, bool is_output) {
  if (!t.defined()) return;  // unpacks to an undefined tensor, like the default
  was_saved_ = true;
  saved_version_ = t.version();
  output_nr_ = t.output_nr();
  if (is_output && !t.is_leaf()) {
    // Note [Saved outputs do not own their grad_fn]
    is_saved_output_ = true;
    data_ = t.detach();
    // Forward-over-reverse: the copy shares the output's tangent (csrc/autograd/forward_ad.h).
    data_.unsafe_impl()->fw_grad = t.unsafe_impl()->fw_grad;
  } else if (t.is_view() && !(t.is_leaf() && t.requires_grad())) {
    // Note [Saved views do not own their base]: a view holds its base, whose grad_fn may
    // later be a CopySlices owning this node (an in-place op on a view that saved another
    // view of the same base): a cycle. Saved as a non-view alias with the view's history.
    data_ = t.detach();
    TensorImpl* impl = data_.unsafe_impl();
    impl->grad_fn = t.grad_fn();
    impl->output_nr = t.output_nr();
    impl->fw_grad = t.unsafe_impl()->fw_grad;  // forward-over-reverse, as above
  } else {
    // A non-view, or a view that is a leaf of its own (made under no_grad, then given
    // requires_grad): its gradient accumulates on this very tensor, so the saved value must be
    // the tensor itself. An alias would have neither its history nor its AccumulateGrad, and a
    // double backward through the formula would silently drop this input's part.
    data_ = t;
  }
}

SavedVariable::SavedVariable(const std::optional<Tensor>& t, bool is_output)
    : SavedVariable(t ? *t : Tensor(), is_output) {}

namespace {

std::string node_name(const Node* saved_for) {
  return saved_for ? saved_for->name() : std::string("<unknown node>");
}

// "self", or "tensors[1]" for an element of a saved list.
std::string tensor_label(const char* name, int64_t list_index) {
  std::string label = name;
  if (list_index >= 0) label += "[" + std::to_string(list_index) + "]";
  return label;
}

[[noreturn]] void throw_freed(const Node* saved_for, const char* name, int64_t list_index) {
  throw std::runtime_error(node_name(saved_for) +
                           ": trying to backward through the graph a second time (saved tensor '" +
                           tensor_label(name, list_index) +
                           "' was freed after the first backward); pass retain_graph=true to the "
                           "first backward");
}

}  // namespace

Tensor SavedVariable::unpack(const Node* saved_for, const char* name, int64_t list_index) const {
  if (!was_saved_) return Tensor();
  if (!data_.defined()) throw_freed(saved_for, name, list_index);
  if (data_.version() != saved_version_) {
    throw std::runtime_error(
        node_name(saved_for) + ": saved tensor '" + tensor_label(name, list_index) + "' of shape " +
        shape_str(data_.sizes()) + " was modified by an in-place operation: saved at version " +
        std::to_string(saved_version_) + ", now at version " + std::to_string(data_.version()));
  }
  if (!is_saved_output_) return data_;
  // Re-attach the saving node as grad_fn: a fresh handle sharing the data.
  Tensor out = data_.detach();
  out.unsafe_impl()->fw_grad = data_.unsafe_impl()->fw_grad;
  if (saved_for) {
    TensorImpl* impl = out.unsafe_impl();
    impl->grad_fn = std::const_pointer_cast<Node>(saved_for->shared_from_this());
    impl->output_nr = output_nr_;
  }
  return out;
}

void SavedVariable::reset_data() { data_ = Tensor(); }

std::vector<SavedVariable> make_saved_variable_list(TensorList tensors, bool is_output) {
  std::vector<SavedVariable> saved;
  saved.reserve(tensors.size());
  for (const Tensor& t : tensors) saved.emplace_back(t, is_output);
  return saved;
}

std::vector<SavedVariable> make_saved_variable_list(
    const std::vector<std::optional<Tensor>>& tensors, bool is_output) {
  std::vector<SavedVariable> saved;
  saved.reserve(tensors.size());
  for (const std::optional<Tensor>& t : tensors) {
    saved.emplace_back(t.has_value() ? *t : Tensor(), is_output);
  }
  return saved;
}

std::vector<Tensor> unpack_list(const std::vector<SavedVariable>& saved, bool released,
                                const Node* saved_for, const char* name) {
  if (released) throw_freed(saved_for, name, -1);
  std::vector<Tensor> tensors;
  tensors.reserve(saved.size());
  for (size_t i = 0; i < saved.size(); ++i) {
    tensors.push_back(saved[i].unpack(saved_for, name, static_cast<int64_t>(i)));
  }
  return tensors;
}

}  // namespace autograd
}  // namespace gradgen
