// Hand-written nodes the runtime itself needs (PyTorch's basic_ops.h).
//
//  - `Error`: a node that throws when backpropagated through. Formula helpers that
//    are not differentiable yet attach it to their result when a graph is being
//    recorded (create_graph), so a double backward through them fails loudly
//    instead of silently returning a wrong (history-less) gradient.
//  - `TensorCloneBackward`: the history of Tensor::clone() (an identity).
//  - `add_gradients`: the sum the engine uses when several gradients reach the
//    same input, and AccumulateGrad uses for .grad. It records an
//    `AddGradientsBackward` node when GradMode is on and an operand requires grad,
//    so that create_graph=true gives correct double-backward graphs without the
//    runtime depending on the generated `add` op.
#pragma once

#include <string>

#include "csrc/autograd/function.h"

namespace gradgen {
namespace autograd {

/// A node whose apply() throws std::runtime_error with its message.
struct Error : public Node {
  explicit Error(std::string message) : message_(std::move(message)) {}
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "Error"; }

 private:
  std::string message_;
};

/// The backward of Tensor::clone(): passes the gradient through unchanged.
struct TensorCloneBackward : public Node {
  variable_list apply(variable_list&& grads) override { return {std::move(grads[0])}; }
  std::string name() const override { return "TensorCloneBackward"; }
};

/// The backward of add_gradients: passes the incoming gradient to both operands.
struct AddGradientsBackward : public Node {
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "AddGradientsBackward"; }
};

/// Returns a + b (same shape and dtype), differentiable when GradMode is enabled.
/// The runtime cannot call the generated `gradgen::add` (the runtime library is
/// built without generated code, so that any spec can be compiled against it).
Tensor add_gradients(const Tensor& a, const Tensor& b);

/// Makes `result` (computed by `formula` without autograd) fail in a double
/// backward if any of `inputs` requires grad and GradMode is enabled: attaches an
/// Error node explaining that `formula` is not twice differentiable yet.
void mark_not_twice_differentiable(Tensor& result, const char* formula, TensorList inputs);

}  // namespace autograd
}  // namespace gradgen
