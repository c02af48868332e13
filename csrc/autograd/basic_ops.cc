#include "csrc/autograd/basic_ops.h"

#include <memory>
#include <stdexcept>

#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/core_kernels.h"

namespace gradgen {

// A member of Tensor, defined here beside its node so that csrc/tensor.cc needs no autograd.
Tensor Tensor::clone() const {
  if (!defined()) internal::throw_undefined_tensor("clone");
  Tensor out = internal::copy_contiguous(*this);
  if (autograd::GradMode::is_enabled() && requires_grad()) {
    auto grad_fn = std::make_shared<autograd::TensorCloneBackward>();
    grad_fn->add_next_edge(autograd::gradient_edge(*this));
    out.unsafe_impl()->output_nr = grad_fn->add_input_metadata(out);
    out.unsafe_impl()->grad_fn = std::move(grad_fn);
  }
  // Forward mode: the clone's tangent is a clone of the tangent (csrc/autograd/forward_ad.h).
  if (autograd::forward_ad::any_fw_grad(*this)) {
    autograd::forward_ad::set_fw_grad(out, autograd::forward_ad::fw_grad(*this).detach().clone(),
                                      "clone");
  }
  return out;
}

namespace autograd {

variable_list Error::apply(variable_list&& /*grads*/) { throw std::runtime_error(message_); }

variable_list AddGradientsBackward::apply(variable_list&& grads) {
  variable_list grad_inputs(2);
  if (should_compute_output(0)) grad_inputs[0] = grads[0];
  if (should_compute_output(1)) grad_inputs[1] = grads[0];
  return grad_inputs;
}

Tensor add_gradients(const Tensor& a, const Tensor& b) {
  Tensor result = gradgen::internal::add(a, b);
  if (compute_requires_grad(a, b)) {
    auto grad_fn = std::make_shared<AddGradientsBackward>();
    grad_fn->set_next_edges(collect_next_edges(a, b));
    set_history(result, grad_fn);
  }
  // Forward-over-reverse: gradients summed in a backward with create_graph carry tangents.
  if (forward_ad::any_fw_grad(a, b)) {
    forward_ad::set_fw_grad(result,
                            gradgen::internal::add(forward_ad::tangent_or_zeros(a),
                                                   forward_ad::tangent_or_zeros(b)),
                            "add_gradients");
  }
  return result;
}

void mark_not_twice_differentiable(Tensor& result, const char* formula, TensorList inputs) {
  if (!compute_requires_grad(inputs)) return;
  auto grad_fn = std::make_shared<Error>(
      std::string(formula) +
      " is not twice differentiable yet: its result was used in a double backward "
      "(create_graph=true)");
  grad_fn->set_next_edges(collect_next_edges(inputs));
  set_history(result, grad_fn);
}

}  // namespace autograd
}  // namespace gradgen
