// Tensor hooks: functions of a tensor's gradient, run by the engine.
//
// `t.register_hook(fn)` (csrc/tensor.h) and `t.retain_grad()` store their state in
// one TensorHooks object shared by the tensor and the node that receives t's
// gradient (as in PyTorch, where hooks are "tensor pre-hooks" of that node):
//   - a non-leaf's hooks are a pre-hook of t.grad_fn() for input t.output_nr();
//   - a leaf's hooks are a pre-hook of its AccumulateGrad node, input 0, so they
//     also run when autograd::grad() captures the leaf's gradient.
// The engine runs a node's pre-hooks on its summed input buffer before capturing
// or applying it; nodes without hooks cost one empty-vector test.
//
//   Tensor h = mm(x, w);
//   h.register_hook([](const Tensor& g) { return mul(g, 2.0); });  // doubles dL/dh
//   h.retain_grad();                                               // h.grad() after backward
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {

/// The hooks of one tensor.
struct TensorHooks {
  /// (handle, hook) in registration order.
  std::vector<std::pair<unsigned, std::function<Tensor(const Tensor&)>>> fns;
  unsigned next_handle = 0;
  /// Set by retain_grad() on a non-leaf: store the gradient in owner->grad.
  bool retains_grad = false;
  /// The tensor whose hooks these are; cleared when it is destroyed.
  TensorImpl* owner = nullptr;
};

/// Runs `hooks` on a gradient arriving for their tensor: each hook in order (a
/// defined return value replaces the gradient), then retain_grad's capture.
/// `create_graph` says whether the backward records a graph (the retained
/// gradient then keeps its history). Throws, naming `node`, if a hook returns a
/// gradient of another shape or dtype.
Tensor run_tensor_hooks(TensorHooks& hooks, Tensor grad, bool create_graph, const char* node);

}  // namespace autograd
}  // namespace gradgen
