#include "csrc/autograd/variable_type_utils.h"

#include <stdexcept>
#include <string>

#include "csrc/autograd/basic_ops.h"

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

// PyTorch's words for a view autograd cannot follow (its handle_view_on_rebase). `modified`
// says whether the view itself is being modified in place, or its base (or another view).
[[noreturn]] static void throw_view_error(const std::string& prefix, const Tensor& view,
                                          bool modified) {
  const TensorImpl& impl = *view.unsafe_impl();
  std::string message;
  if (impl.view->creation == ViewCreation::NoGradMode) {
    message = std::string("A view was created in no_grad mode and ") +
              (modified ? "is being modified inplace with grad mode enabled."
                        : "its base or another view of its base has been modified inplace with "
                          "grad mode enabled.") +
              " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
              "clarify your code by moving both the view and the inplace either both inside the "
              "no_grad block (if you don't want the inplace to be tracked) or both outside (if "
              "you want the inplace to be tracked).";
  } else {
    // The node that made the view (impl.grad_fn is not regenerated for such views).
    message = impl.grad_fn ? "Output " + std::to_string(impl.output_nr) + " of " +
                                 impl.grad_fn->name() + " is a view and "
                           : std::string("This view ");
    message += modified ? "is being modified inplace."
                        : "its base or another view of its base has been modified inplace.";
    message +=
        " This view is the output of a function that returns multiple views. Such functions "
        "do not allow the output views to be modified inplace. You should replace the "
        "inplace operation by an out-of-place one.";
  }
  throw std::runtime_error(prefix + message);
}

void check_inplace_on_view(const Tensor& self, const char* op) {
  if (!self.requires_grad()) return;  // nothing to rewrite (rebase_history checks again)
  const TensorImpl& impl = *self.unsafe_impl();
  if (impl.view->creation != ViewCreation::Default)
    throw_view_error(base_name(op) + ": ", self, true);
  if (impl.requires_grad && !self.grad_fn()) throw_inplace_on_leaf(op);
  const Tensor& base = impl.view->base;
  if (base.requires_grad() && base.is_leaf()) {
    throw std::runtime_error(base_name(op) +
                             ": a view of a leaf Variable that requires grad is being used in an "
                             "in-place operation.");
  }
}

void throw_view_base_modified(const Tensor& view) { throw_view_error("", view, false); }

void rebase_view_history(Tensor& self, const std::shared_ptr<Node>& grad_fn) {
  TensorImpl& impl = *self.unsafe_impl();
  // Reached when only another argument requires grad (check_inplace let the view pass).
  if (impl.view->creation != ViewCreation::Default) {
    throw_view_error(grad_fn->name() + ": ", self, true);
  }
  if (grad_fn->add_input_metadata(self) != 0) {  // the in-place op's input 0: the view
    throw std::runtime_error(grad_fn->name() +
                             ": functions which modify views in-place must return a single "
                             "Variable");
  }
  Tensor base = impl.view->base;
  TensorImpl& b = *base.unsafe_impl();
  auto copy_slices = std::make_shared<CopySlices>(base, self, grad_fn);
  if (b.hooks) move_hooks_on_rebase(b, copy_slices);
  b.output_nr = copy_slices->add_input_metadata(base);
  b.grad_fn = copy_slices;
  if (__builtin_expect(AnomalyMode::is_enabled(), 0)) {
    record_anomaly_metadata(*grad_fn);
    record_anomaly_metadata(*copy_slices);
  }
  // The view's history now follows the base's: regenerate it even if the kernel did not
  // bump the version.
  impl.view->version = b.storage->version + 1;
  gradgen::internal::view_grad_fn(self);
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

std::vector<ScalarType> to_args_scalartypes(TensorList tensors) {
  std::vector<ScalarType> dtypes;
  dtypes.reserve(tensors.size());
  for (const Tensor& t : tensors) dtypes.push_back(t.scalar_type());
  return dtypes;
}

std::vector<int64_t> strides_or_error(const Tensor& t, const char* /*name*/) {
  return t.strides().vec();
}

void check_out_no_requires_grad(const char* op, std::initializer_list<OutVariantArg> args) {
  if (!GradMode::is_enabled()) return;
  size_t position = 0;
  for (const OutVariantArg& arg : args) {
    bool requires_grad = arg.tensor && arg.tensor->requires_grad();
    for (const Tensor& t : arg.list) requires_grad = requires_grad || t.requires_grad();
    if (requires_grad) {
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
