// to_dot: the backward graph of tensors as Graphviz DOT, to look at it.
//
//   Tensor w = randn({3, 2}, 0).set_requires_grad(true);
//   Tensor x = randn({4, 3}, 1);
//   Tensor loss = sum(tanh(mm(x, w)));
//   std::string dot = autograd::to_dot(loss, {{"w", w}, {"x", x}});
//   // dot -Tsvg graph.dot > graph.svg   (Debian's graphviz package)
//
// What the picture shows, read top to bottom in the direction gradients flow:
//  * each root tensor (an ellipse, with its name if given and its shape);
//  * each Backward node by name ("MmBackward0"), with the shapes of the gradients it
//    receives (the forward op's outputs, from its input metadata);
//  * each leaf that requires grad (its AccumulateGrad node) as a green box with the
//    name given in `names` (else "leaf") and its shape and dtype;
//  * edges labelled with the node's output slot, and ":j" (its input j) when the next
//    node has several inputs (a multi-output op's): a `Tensor[]` argument (cat's
//    tensors) is a run of consecutive slots 0, 1, 2, ...; a slot whose input needs no
//    gradient has no edge (a gap).
//  * under them, each tensor the node saved for its formulas, by the formula's name, with its
//    shape and dtype (`self: [4, 3]`, `tensors[1]: [2] Float`, the dtype named unless it is the
//    default one; `-` when the node holds none: an absent optional, or freed by a backward pass
//    without retain_graph), from the generated Node::visit_saved.
//
// The text is deterministic: nodes are numbered in breadth-first order from the roots
// (following edges in slot order), never by address.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "csrc/autograd/function.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {

/// Display names for tensors in to_dot (leaves or roots): (name, tensor) pairs. A tensor
/// listed twice gets its first name.
using DotNames = std::vector<std::pair<std::string, Tensor>>;

/// Returns the DOT text of the backward graph of `roots` (each must be defined).
std::string to_dot(const variable_list& roots, const DotNames& names = {});

/// Returns the DOT text of the backward graph of `root`.
std::string to_dot(const Tensor& root, const DotNames& names = {});

}  // namespace autograd
}  // namespace gradgen
