#include "csrc/autograd/hooks.h"

#include <stdexcept>
#include <string>

#include "csrc/autograd/accumulate_grad.h"
#include "csrc/autograd/basic_ops.h"
#include "csrc/autograd/function.h"
#include "csrc/core_kernels.h"

namespace gradgen {

namespace {

// Returns t's hooks, creating them on first use and attaching them to the node that
// receives t's gradient (its grad_fn, or a leaf's AccumulateGrad if one is alive;
// grad_accumulator() attaches them when it creates one later).
autograd::TensorHooks& hooks_of(const Tensor& t) {
  TensorImpl* impl = t.unsafe_impl();
  (void)t.grad_fn();  // a view's grad_fn is regenerated first if stale (Note [Views])
  if (!impl->hooks) {
    impl->hooks = std::make_shared<autograd::TensorHooks>();
    impl->hooks->owner = impl;
    if (impl->grad_fn) {
      impl->grad_fn->add_tensor_pre_hook(impl->output_nr, impl->hooks);
    } else if (auto accumulator = autograd::try_get_grad_accumulator(t)) {
      accumulator->add_tensor_pre_hook(0, impl->hooks);
    }
  }
  return *impl->hooks;
}

}  // namespace

unsigned Tensor::register_hook_impl(std::function<Tensor(const Tensor&)> hook) const {
  checked("register_hook");
  if (!requires_grad()) {
    throw std::runtime_error(
        "register_hook: cannot register a hook on a tensor that does not require grad");
  }
  autograd::TensorHooks& hooks = hooks_of(*this);
  hooks.fns.emplace_back(hooks.next_handle, std::move(hook));
  return hooks.next_handle++;
}

void Tensor::remove_hook(unsigned handle) const {
  const TensorImpl& impl = checked("remove_hook");
  if (!impl.hooks) return;
  auto& fns = impl.hooks->fns;
  for (auto it = fns.begin(); it != fns.end(); ++it) {
    if (it->first == handle) {
      fns.erase(it);
      return;
    }
  }
}

void Tensor::retain_grad() const {
  checked("retain_grad");
  if (!requires_grad()) {
    throw std::runtime_error(
        "retain_grad: cannot retain the gradient of a tensor that does "
        "not require grad");
  }
  if (is_leaf()) return;  // leaves keep their .grad anyway
  hooks_of(*this).retains_grad = true;
}

bool Tensor::retains_grad() const noexcept {
  return impl_ && impl_->hooks && impl_->hooks->retains_grad;
}

void TensorImpl::release_hooks() noexcept { hooks->owner = nullptr; }

namespace autograd {

Tensor run_tensor_hooks(TensorHooks& hooks, Tensor grad, bool create_graph, const char* node) {
  // By index: a hook may register further hooks (they run from the next backward on).
  const size_t n = hooks.fns.size();
  for (size_t i = 0; i < n && i < hooks.fns.size(); ++i) {
    Tensor replacement = hooks.fns[i].second(grad);
    if (!replacement.defined()) continue;
    if (!replacement.sizes().equals(grad.sizes()) ||
        replacement.scalar_type() != grad.scalar_type()) {
      throw std::runtime_error(
          std::string("a tensor hook returned a gradient of shape ") +
          shape_str(replacement.sizes()) + " and dtype " + to_string(replacement.scalar_type()) +
          " for a tensor of shape " + shape_str(grad.sizes()) + " and dtype " +
          to_string(grad.scalar_type()) + " (the tensor whose gradient " + node + " receives)");
    }
    grad = std::move(replacement);
  }
  if (hooks.retains_grad && hooks.owner) {
    Tensor& retained = hooks.owner->grad;
    if (!retained.defined()) {
      retained = create_graph ? grad : grad.clone();
    } else if (create_graph || retained.requires_grad()) {
      retained = add_gradients(retained, grad);
    } else {
      retained = gradgen::internal::add(retained, grad);
    }
  }
  return grad;
}

}  // namespace autograd
}  // namespace gradgen
