#include "csrc/autograd/variable_type_utils.h"

#include <stdexcept>
#include <string>

namespace gradgen {
namespace autograd {

namespace internal {

void throw_history_on_input(const Tensor& t, const Node& grad_fn) {
  std::string history = t.grad_fn() ? "grad_fn " + t.grad_fn()->name() : "requires_grad=true";
  throw std::runtime_error("set_history: the result given to " + grad_fn.name() +
                           " already has autograd history (" + history +
                           "); a kernel must return a fresh tensor, not one of its inputs");
}

// "add_" from "add_.Tensor": messages name the op as users call it.
static std::string base_name(const char* op) {
  std::string name = op;
  const size_t dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

void throw_inplace_on_leaf(const char* op) {
  throw std::runtime_error(base_name(op) +
                           ": a leaf Variable that requires grad is being used in an in-place "
                           "operation.");
}

void throw_inplace_on_view(const char* op) {
  throw std::runtime_error(
      base_name(op) +
      ": an in-place operation on a view (made by view, transpose, narrow, ...) that requires "
      "grad is not supported: the gradient of the view's base would be wrong. Apply the op out "
      "of place, or to a clone() of the view.");
}

void throw_inplace_with_views(const char* op, const Tensor& t) {
  throw std::runtime_error(
      base_name(op) + ": an in-place operation on a tensor of shape " + shape_str(t.sizes()) +
      " that requires grad while views of it (made by view, transpose, narrow, ...) are alive "
      "is not supported: their gradients would ignore the change. Apply the op out of place, "
      "or drop the views first.");
}

void throw_rebase_view(const Tensor& t, const Node& grad_fn) {
  const bool is_view = t.is_view();
  throw std::runtime_error(
      grad_fn.name() + ": an in-place operation wrote a result that requires grad into " +
      (is_view ? "a view of shape " : "a tensor of shape ") + shape_str(t.sizes()) +
      (is_view ? " (made by view, transpose, narrow, ...)"
               : " that has views (made by view, transpose, narrow, ...)") +
      ": not supported, as the gradients of " + (is_view ? "the view's base" : "its views") +
      " would be wrong (the data has been modified). Apply the op out of place.");
}

void move_hooks_on_rebase(TensorImpl& impl, const std::shared_ptr<Node>& grad_fn) {
  if (impl.grad_fn) impl.grad_fn->remove_tensor_pre_hook(impl.hooks.get());
  grad_fn->add_tensor_pre_hook(static_cast<uint32_t>(grad_fn->num_inputs()), impl.hooks);
}

}  // namespace internal

std::vector<std::vector<int64_t>> to_args_sizes(TensorList tensors) {
  std::vector<std::vector<int64_t>> sizes;
  sizes.reserve(tensors.size());
  for (const Tensor& t : tensors) sizes.push_back(t.sizes().vec());
  return sizes;
}

void check_out_no_requires_grad(const char* op, std::initializer_list<OutVariantArg> args) {
  if (!GradMode::is_enabled()) return;
  size_t position = 0;
  for (const OutVariantArg& arg : args) {
    if (arg.tensor && arg.tensor->requires_grad()) {
      // "add" names the out= overload "add.out"; keep names that already say it.
      std::string name = op;
      if (name.find('.') == std::string::npos &&
          (name.size() < 4 || name.compare(name.size() - 4, 4, "_out") != 0)) {
        name += ".out";
      }
      std::string which =
          arg.name ? "'" + std::string(arg.name) + "'" : "at position " + std::to_string(position);
      throw std::runtime_error(name +
                               ": out= variants do not support automatic differentiation, but "
                               "argument " +
                               which + " requires grad");
    }
    ++position;
  }
}

}  // namespace autograd
}  // namespace gradgen
