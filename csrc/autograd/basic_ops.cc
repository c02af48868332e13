#include "csrc/autograd/basic_ops.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/core_kernels.h"

namespace gradgen {

// The tensor layer's hook for views (Note [Views] in csrc/tensor.h), defined here beside the
// node it makes so that csrc/tensor.cc needs no autograd.
const std::shared_ptr<autograd::Node>& internal::view_grad_fn(const Tensor& view) {
  TensorImpl& impl = *view.unsafe_impl();
  const uint64_t version = impl.storage->version;
  if (__builtin_expect(impl.view_version == version, 1)) return impl.grad_fn;
  const Tensor& base = impl.view_base;
  if (!impl.grad_fn && !base.requires_grad()) return impl.grad_fn;  // no history to follow
  if (impl.view_creation != ViewCreation::Default)
    autograd::internal::throw_view_base_modified(view);
  // The storage changed since grad_fn was set: the view's history now starts at the base's.
  auto fn = std::make_shared<autograd::AsStridedBackward0>(base, view);
  fn->add_next_edge(autograd::gradient_edge(base));
  fn->add_input_metadata(view);
  if (impl.hooks) {
    if (impl.grad_fn) impl.grad_fn->remove_tensor_pre_hook(impl.hooks.get());
    fn->add_tensor_pre_hook(0, impl.hooks);
  }
  impl.grad_fn = std::move(fn);
  impl.output_nr = 0;
  impl.view_version = version;
  if (__builtin_expect(autograd::AnomalyMode::is_enabled(), 0)) {
    autograd::internal::record_anomaly_metadata(*impl.grad_fn);
  }
  return impl.grad_fn;
}

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
  return out;
}

namespace autograd {

namespace {

// The storage elements [lo, hi) that the elements of some geometries occupy.
struct Span {
  int64_t lo = INT64_MAX;
  int64_t hi = INT64_MIN;
  void cover(const TensorGeometry& g) {
    int64_t first = g.storage_offset, last = g.storage_offset;
    for (size_t d = 0; d < g.sizes.size(); ++d) {
      if (g.sizes[d] == 0) return;  // no elements
      const int64_t reach = (g.sizes[d] - 1) * g.strides[d];
      (reach < 0 ? first : last) += reach;
    }
    lo = std::min(lo, first);
    hi = std::max(hi, last + 1);
  }
  int64_t size() const { return hi > lo ? hi - lo : 0; }
};

// Calls f(i, p) for the i-th element (row-major) of geometry g, at p in a scratch buffer that
// starts at storage element lo.
template <typename F>
void for_each_element(const TensorGeometry& g, int64_t lo, F&& f) {
  int64_t i = 0;
  const int64_t start = g.storage_offset - lo;
  gradgen::internal::for_each_offset(g.sizes, g.strides, g.strides,
                                     [&](int64_t off, int64_t) { f(i++, start + off); });
}

// Writes (or, with accumulate, adds) the elements of src, of g's shape, into buf at g's places.
template <typename T>
void scatter(std::vector<T>& buf, int64_t lo, const TensorGeometry& g, const Tensor& src,
             bool accumulate) {
  const Tensor dense = src.contiguous();
  const T* s = dense.data_ptr<T>();
  if (accumulate) {
    for_each_element(g, lo, [&](int64_t i, int64_t p) { buf[p] += s[i]; });
  } else {
    for_each_element(g, lo, [&](int64_t i, int64_t p) { buf[p] = s[i]; });
  }
}

// Returns a new contiguous tensor of g's shape holding buf's elements at g's places.
template <typename T>
Tensor gather(const std::vector<T>& buf, int64_t lo, const TensorGeometry& g) {
  Tensor out = make_tensor(g.sizes, g.dtype, "CopySlices");
  T* o = out.data_ptr<T>();
  for_each_element(g, lo, [&](int64_t i, int64_t p) { o[i] = buf[p]; });
  return out;
}

}  // namespace

variable_list AsStridedBackward0::apply(variable_list&& grads) {
  variable_list grad_inputs(1);
  const Tensor& grad = grads[0];
  if (!grad.defined() || !should_compute_output(0)) return grad_inputs;
  Span span;
  span.cover(base_);
  span.cover(view_);
  gradgen::internal::dispatch_floating(grad.scalar_type(), "AsStridedBackward0", [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> buf(static_cast<size_t>(span.size()), T(0));
    scatter(buf, span.lo, view_, grad, /*accumulate=*/true);
    // Base elements that share memory split its gradient, as PyTorch's as_strided_backward.
    std::vector<int32_t> count(buf.size(), 0);
    bool overlap = false;
    for_each_element(base_, span.lo, [&](int64_t, int64_t p) { overlap |= ++count[p] > 1; });
    if (overlap) {
      for (size_t p = 0; p < buf.size(); ++p) {
        if (count[p] > 1) buf[p] /= static_cast<T>(count[p]);
      }
    }
    grad_inputs[0] = gather(buf, span.lo, base_);
  });
  mark_not_twice_differentiable(grad_inputs[0], "AsStridedBackward0", {grad});
  return grad_inputs;
}

CopySlices::CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn)
    : base_(base), view_(view), fn_(std::move(fn)) {
  add_next_edge(gradient_edge(base));
  for (uint32_t i = 1; i < fn_->num_outputs(); ++i) add_next_edge(fn_->next_edge(i));
}

variable_list CopySlices::apply(variable_list&& grads) {
  variable_list grad_inputs(num_outputs());
  const Tensor& grad = grads[0];
  if (!grad.defined()) return grad_inputs;
  // fn computes what this node must: its edges are ours (the base's edge in place of the
  // view's), so its should_compute_output answers as ours, grad()'s masks included.
  fn_->set_next_edges(edge_list(next_edges()));
  Span span;
  span.cover(base_);
  span.cover(view_);
  gradgen::internal::dispatch_floating(grad.scalar_type(), "CopySlices", [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> buf(static_cast<size_t>(span.size()), T(0));
    scatter(buf, span.lo, base_, grad, /*accumulate=*/false);
    Tensor slice = gather(buf, span.lo, view_);  // the view's part of the base's gradient
    // A double backward may not pass through the slice (it has no history of grad).
    mark_not_twice_differentiable(slice, "CopySlices", {grad});
    variable_list res = (*fn_)({std::move(slice)});
    if (res.size() != fn_->num_outputs()) {
      throw std::runtime_error("CopySlices: " + fn_->name() + " returned " +
                               std::to_string(res.size()) + " gradients, expected " +
                               std::to_string(fn_->num_outputs()));
    }
    if (should_compute_output(0)) {
      // The view's elements get what fn computed for its self (zero when undefined).
      if (res[0].defined()) {
        scatter(buf, span.lo, view_, res[0], /*accumulate=*/false);
      } else {
        for_each_element(view_, span.lo, [&](int64_t, int64_t p) { buf[p] = T(0); });
      }
      grad_inputs[0] = gather(buf, span.lo, base_);
      mark_not_twice_differentiable(grad_inputs[0], "CopySlices", {grad, res[0]});
    }
    for (size_t i = 1; i < res.size(); ++i) grad_inputs[i] = std::move(res[i]);
  });
  return grad_inputs;
}

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
