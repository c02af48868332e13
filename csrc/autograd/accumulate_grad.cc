#include "csrc/autograd/accumulate_grad.h"

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "csrc/autograd/basic_ops.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"

namespace gradgen {
namespace autograd {

AccumulateGrad::AccumulateGrad(Tensor variable_)
    : Node(std::numeric_limits<uint64_t>::max()), variable(std::move(variable_)) {
  add_input_metadata(variable);
}

variable_list AccumulateGrad::apply(variable_list&& grads) {
  if (grads.empty() || !grads[0].defined()) return {};
  Tensor& new_grad = grads[0];
  Tensor& grad = variable.mutable_grad();
  const bool recording = GradMode::is_enabled();  // the engine sets it to create_graph
  if (!grad.defined()) {
    if (recording) {
      grad = new_grad;  // keep its history for the double backward
    } else if (gradgen::internal::is_sole_owner(new_grad) && !new_grad.requires_grad()) {
      grad = std::move(new_grad);  // nobody else sees it: no copy needed
    } else {
      grad = new_grad.clone();  // .grad must not alias a tensor the caller holds
    }
  } else if (!recording && !grad.requires_grad() && grad.is_contiguous() &&
             !grad.is_view()) {
    gradgen::internal::add_(grad, new_grad);  // in place, like PyTorch's `grad += new_grad`
  } else {
    // Recording a graph (or .grad has history): sum differentiably.
    grad = add_gradients(grad, new_grad);
  }
  return {};
}

std::shared_ptr<Node> try_get_grad_accumulator(const Tensor& leaf) {
  TensorImpl* impl = leaf.unsafe_impl();
  return impl ? impl->grad_accumulator.lock() : nullptr;
}

std::shared_ptr<Node> grad_accumulator(const Tensor& leaf) {
  TensorImpl* impl = leaf.unsafe_impl();
  if (!impl) throw std::runtime_error("grad_accumulator: called on an undefined tensor");
  if (auto existing = impl->grad_accumulator.lock()) return existing;
  if (impl->grad_fn) {
    throw std::runtime_error("grad_accumulator: called on a non-leaf tensor (grad_fn " +
                             impl->grad_fn->name() + ")");
  }
  if (!impl->requires_grad) {
    throw std::runtime_error("grad_accumulator: called on a leaf that does not require grad");
  }
  auto accumulator = std::make_shared<AccumulateGrad>(leaf);
  if (impl->hooks) accumulator->add_tensor_pre_hook(0, impl->hooks);  // registered earlier
  impl->grad_accumulator = accumulator;
  return accumulator;
}

}  // namespace autograd
}  // namespace gradgen
