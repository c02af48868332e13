// The autograd engine: runs Backward nodes to compute gradients.
//
// Two entry points, like torch.autograd:
//  - `backward(tensors, grad_tensors)` propagates from `tensors` through the graph
//    and accumulates into the .grad of every leaf that requires grad;
//  - `grad(outputs, inputs, grad_outputs)` returns the gradients of `outputs` with
//    respect to `inputs` without touching any .grad.
//
//   Tensor x = randn({2, 3}, 0).set_requires_grad(true);
//   Tensor y = mm(x, t(x));
//   backward({y}, {ones({2, 2})});                    // x.grad() += dy/dx . ones
//   variable_list g = grad({y}, {x}, {ones({2, 2})}); // g[0] == the same gradient
//
// The algorithm is PyTorch's (torch/csrc/autograd/engine.cpp), single-threaded:
//  1. Walk the graph reachable from the roots' grad_fns, counting for each node
//     how many edges point at it (its dependencies).
//  2. Seed the roots' gradients into their nodes' input buffers.
//  3. Repeatedly take the ready node (all dependencies satisfied) with the highest
//     sequence number, run its tensor hooks (register_hook, retain_grad; see
//     csrc/autograd/hooks.h) on its summed input buffer, run apply() on the buffer
//     with GradMode set to create_graph, free its saved tensors unless
//     retain_graph, check each returned gradient against the receiving node's
//     input metadata (shape and dtype), and add it into that node's input buffer
//     (in place when nobody else can see the buffer).
// For grad(), only nodes on a path to an input run; gradients are captured where
// they would enter the inputs' nodes, and AccumulateGrad nodes never run.
//
// Errors: a root that does not require grad, an implicit gradient for a root with
// more than one element, a node returning a gradient of the wrong shape or dtype
// (the message names the node and the input), an unused input in grad() unless
// allow_unused. Backward passes may nest (a node's apply() may call backward);
// concurrent passes from several threads over shared nodes are not supported.
#pragma once

#include "csrc/autograd/function.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {

/// Accumulates the gradients of `tensors` into the .grad of the graph's leaves.
/// grad_tensors[i] is the gradient of tensors[i] (same shape); an absent list or
/// an undefined entry means ones, allowed only for 1-element tensors. Without
/// retain_graph, saved tensors are freed, and a second backward through the same
/// nodes throws. With create_graph, the gradients have autograd history (for
/// higher-order derivatives).
void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
              bool retain_graph = false, bool create_graph = false);

/// Returns the gradients of `outputs` with respect to `inputs` (weighted by
/// grad_outputs, as in backward), one per input, without modifying any .grad.
/// An input that no output depends on is an error unless allow_unused, in which
/// case its gradient is undefined.
variable_list grad(const variable_list& outputs, const variable_list& inputs,
                   const variable_list& grad_outputs = {}, bool retain_graph = false,
                   bool create_graph = false, bool allow_unused = false);

/// The differentiable sum the engine reduces a broadcast gradient with (PyTorch's at::sum_to in
/// validate_outputs): a node may return the gradient of an input in the broadcast shape of the
/// op's result, and the engine sums it to the input's shape. The op library registers it (its
/// `sum_to` helper); without one, such a gradient is an error.
using SumToFn = Tensor (*)(const Tensor& grad, IntArrayRef shape);
void set_sum_to_fn(SumToFn fn) noexcept;

}  // namespace autograd
}  // namespace gradgen
