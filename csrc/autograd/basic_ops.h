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
//  - `CopySlices` and `AsStridedBackward0`: the nodes of in-place ops on views
//    (Note [Views] in csrc/tensor.h, PyTorch's torch/csrc/autograd/functions/tensor.h).
#pragma once

#include <memory>
#include <optional>
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

/// Where a tensor's elements are in its storage: sizes, strides and offset (and the dtype).
struct TensorGeometry {
  /// An empty geometry (0-dim, offset 0): what a node holds before its wrapper saves one.
  TensorGeometry() = default;
  explicit TensorGeometry(const Tensor& t)
      : sizes(t.sizes().begin(), t.sizes().end()),
        strides(t.strides().begin(), t.strides().end()),
        storage_offset(t.storage_offset()),
        dtype(t.scalar_type()) {}

  DimVector sizes;
  DimVector strides;
  int64_t storage_offset = 0;
  ScalarType dtype = ScalarType::Float;
};

/// The linear map the view nodes below are made of (PyTorch's as_strided_backward, generalized):
/// writes g (of src's shape) into a scratch buffer laid out like the storage, at src's places
/// (summing where src's elements share memory), zeroes the places of `zero` (if given), divides
/// each place by the number of `count`'s elements there (if given, where it exceeds 1), and
/// reads the buffer at dst's places. The geometries must describe the same storage. With
/// GradMode on and g requiring grad it is recorded (RestrideBackward): its derivative is the
/// same map from dst to src, so what is built of it is differentiable any number of times.
Tensor restride(const Tensor& g, const TensorGeometry& src, const TensorGeometry& dst,
                const TensorGeometry* zero = nullptr, const TensorGeometry* count = nullptr);

/// The backward of restride(): restride from dst back to src, with the same zeroing and counts.
struct RestrideBackward : public Node {
  RestrideBackward(const TensorGeometry& src, const TensorGeometry& dst, const TensorGeometry* zero,
                   const TensorGeometry* count);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "RestrideBackward"; }

  TensorGeometry src_;  // of the forward restride: the gradient goes from dst_ to src_
  TensorGeometry dst_;
  std::optional<TensorGeometry> zero_;
  std::optional<TensorGeometry> count_;
};

/// The history of a view whose storage was modified in place after its grad_fn was set
/// (Note [Views]): maps the view's gradient into its root base's geometry (zero outside the
/// view, summed where view elements share memory, split where base elements do, as PyTorch's
/// as_strided_backward). Its one edge is the base's gradient edge. Named AsStridedBackward0, as
/// PyTorch's (which reuses its as_strided node); the C++ name leaves that one to the generated
/// node of the op as_strided.
struct ViewAsStridedBackward : public Node {
  ViewAsStridedBackward(const Tensor& base, const Tensor& view) : base_(base), view_(view) {}
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "AsStridedBackward0"; }

  TensorGeometry base_;
  TensorGeometry view_;
};

/// The base's history after an in-place op `fn` wrote into a view of it (PyTorch's CopySlices):
/// the base's gradient passes through unchanged, except the view's slice of it, which goes
/// through `fn` (as the gradient of fn's self); fn's gradients for its other inputs go to
/// their edges. Edges: 0 is the base's history before the op, i >= 1 are fn's edges i. fn is
/// owned here and keeps its own edges (0: the view's history before the op); it is a node of
/// the graph only through its saved outputs. Differentiable again (create_graph), as fn is.
struct CopySlices : public Node {
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "CopySlices"; }
  void release_variables() override { fn_->release_variables(); }
  void will_release_variables() override { fn_->will_release_variables(); }
  /// The in-place op's node.
  const std::shared_ptr<Node>& fn() const noexcept { return fn_; }

  TensorGeometry base_;
  TensorGeometry view_;

 private:
  std::shared_ptr<Node> fn_;
};

/// The backward of copy_into (PyTorch's CopyBackwards): self's old value gets a zero
/// gradient, src the gradient itself.
struct CopyBackwards : public Node {
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "CopyBackwards"; }
};

/// Copies src (same shape and dtype) into self in place, with autograd: an in-place op like the
/// generated ones (check_inplace, then rebase_history, so a view's base gets a CopySlices).
/// What Python's `x[key] = value` runs. Returns self.
Tensor& copy_into(Tensor& self, const Tensor& src);

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
