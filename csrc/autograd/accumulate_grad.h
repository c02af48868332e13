// AccumulateGrad: the node that adds a leaf's gradient into its .grad.
//
// Every leaf that requires grad gets one AccumulateGrad node the first time an op
// uses it; every later use shares it (the leaf's impl caches it in a weak_ptr, and
// the graph's edges own it), so the engine sums all of the leaf's incoming
// gradients into one buffer before it runs once. Its sequence number is the
// maximum, so .grad is written as soon as the gradient is complete.
//
//   Tensor w = randn({2, 2}, 0).set_requires_grad(true);
//   Tensor y = mm(w, w);        // both edges of MmBackward0 point at w's AccumulateGrad
//   y.backward(ones({2, 2}));   // w.grad() == the sum of both contributions
#pragma once

#include <memory>
#include <string>

#include "csrc/autograd/function.h"

namespace gradgen {
namespace autograd {

struct AccumulateGrad : public Node {
  /// Creates the accumulator for `variable`, a leaf that requires grad.
  explicit AccumulateGrad(Tensor variable);

  /// Adds grads[0] into variable.grad(): the first gradient is stored (a detached
  /// copy unless the graph is being recorded, i.e. create_graph), later ones are
  /// added (in place when no graph is recorded). Returns no gradients.
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "AccumulateGrad"; }

  /// The leaf whose .grad this node updates.
  Tensor variable;
};

/// Returns the AccumulateGrad node of a leaf that requires grad, creating it on
/// first use. Not thread-safe: build graphs that share a leaf on one thread.
std::shared_ptr<Node> grad_accumulator(const Tensor& leaf);

/// Returns the leaf's AccumulateGrad node if one is alive, else null.
std::shared_ptr<Node> try_get_grad_accumulator(const Tensor& leaf);

}  // namespace autograd
}  // namespace gradgen
