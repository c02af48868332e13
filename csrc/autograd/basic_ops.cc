#include "csrc/autograd/basic_ops.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/core_kernels.h"

namespace gradgen {

// The tensor layer's hook for views (Note [Views] in csrc/tensor.h), defined here beside the
// node it makes so that csrc/tensor.cc needs no autograd.
const std::shared_ptr<autograd::Node>& internal::view_grad_fn(const Tensor& view) {
  TensorImpl& impl = *view.unsafe_impl();
  const uint64_t version = impl.storage->version;
  if (__builtin_expect(impl.view->version == version, 1)) return impl.grad_fn;
  const Tensor& base = impl.view->base;
  if (!impl.grad_fn && !base.requires_grad()) return impl.grad_fn;  // no history to follow
  if (impl.view->creation != ViewCreation::Default)
    autograd::internal::throw_view_base_modified(view);
  // The storage changed since grad_fn was set: the view's history now starts at the base's.
  auto fn = std::make_shared<autograd::ViewAsStridedBackward>(base, view);
  fn->add_next_edge(autograd::gradient_edge(base));
  fn->add_input_metadata(view);
  if (impl.hooks) {
    if (impl.grad_fn) impl.grad_fn->remove_tensor_pre_hook(impl.hooks.get());
    fn->add_tensor_pre_hook(0, impl.hooks);
  }
  impl.grad_fn = std::move(fn);
  impl.output_nr = 0;
  impl.view->version = version;
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
  // Forward mode: the clone's tangent is a clone of the tangent (csrc/autograd/forward_ad.h).
  if (autograd::forward_ad::any_fw_grad(*this)) {
    autograd::forward_ad::set_fw_grad(out, autograd::forward_ad::fw_grad(*this).detach().clone(),
                                      "clone");
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

// Adds the elements of src, of g's shape, into buf at g's places.
template <typename T>
void scatter_add(std::vector<T>& buf, int64_t lo, const TensorGeometry& g, const Tensor& src) {
  const Tensor dense = src.contiguous();
  const T* s = dense.data_ptr<T>();
  for_each_element(g, lo, [&](int64_t i, int64_t p) { buf[p] += s[i]; });
}

// Returns a new contiguous tensor of g's shape (and `dtype`) holding buf's elements at g's places.
template <typename T>
Tensor gather(const std::vector<T>& buf, int64_t lo, const TensorGeometry& g, ScalarType dtype) {
  Tensor out = make_tensor(g.sizes, dtype, "restride");
  T* o = out.data_ptr<T>();
  for_each_element(g, lo, [&](int64_t i, int64_t p) { o[i] = buf[p]; });
  return out;
}

const TensorGeometry* ptr(const std::optional<TensorGeometry>& g) { return g ? &*g : nullptr; }

}  // namespace

Tensor restride(const Tensor& g, const TensorGeometry& src, const TensorGeometry& dst,
                const TensorGeometry* zero, const TensorGeometry* count) {
  Span span;
  span.cover(src);
  span.cover(dst);
  if (zero) span.cover(*zero);
  if (count) span.cover(*count);
  Tensor out;
  gradgen::internal::dispatch_floating(g.scalar_type(), "restride", [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> buf(static_cast<size_t>(span.size()), T(0));
    scatter_add(buf, span.lo, src, g);
    if (zero) for_each_element(*zero, span.lo, [&](int64_t, int64_t p) { buf[p] = T(0); });
    if (count) {
      std::vector<int32_t> n(buf.size(), 0);
      bool overlap = false;
      for_each_element(*count, span.lo, [&](int64_t, int64_t p) { overlap |= ++n[p] > 1; });
      if (overlap) {
        for (size_t p = 0; p < buf.size(); ++p) {
          if (n[p] > 1) buf[p] /= static_cast<T>(n[p]);
        }
      }
    }
    out = gather(buf, span.lo, dst, g.scalar_type());
  });
  if (compute_requires_grad(g)) {
    auto grad_fn = std::make_shared<RestrideBackward>(src, dst, zero, count);
    grad_fn->set_next_edges(collect_next_edges(g));
    set_history(out, grad_fn);
  }
  return out;
}

RestrideBackward::RestrideBackward(const TensorGeometry& src, const TensorGeometry& dst,
                                   const TensorGeometry* zero, const TensorGeometry* count)
    : src_(src), dst_(dst) {
  if (zero) zero_ = *zero;
  if (count) count_ = *count;
}

variable_list RestrideBackward::apply(variable_list&& grads) {
  variable_list grad_inputs(1);
  // The map is linear, and scatter-add is the transpose of gather; the scaling is diagonal.
  if (grads[0].defined() && should_compute_output(0)) {
    grad_inputs[0] = restride(grads[0], dst_, src_, ptr(zero_), ptr(count_));
  }
  return grad_inputs;
}

variable_list ViewAsStridedBackward::apply(variable_list&& grads) {
  variable_list grad_inputs(1);
  if (grads[0].defined() && should_compute_output(0)) {
    grad_inputs[0] = restride(grads[0], view_, base_, nullptr, /*count=*/&base_);
  }
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
  // fn computes what this node must: while it runs, its edges i >= 1 are ours and its edge 0
  // (the view's history before the op) is hidden when ours (the base's) is, so that its
  // should_compute_output answers as ours, grad()'s masks included. They are restored after:
  // a double backward goes through fn's own edges (a saved output of fn has fn as grad_fn).
  struct Restore {
    Node& fn;
    edge_list edges;
    ~Restore() { fn.set_next_edges(std::move(edges)); }
  } restore{*fn_, fn_->next_edges()};
  edge_list edges(next_edges());
  edges[0] = next_edge(0).is_valid() ? restore.edges[0] : Edge();
  fn_->set_next_edges(std::move(edges));
  variable_list res = (*fn_)({restride(grad, base_, view_)});  // the view's slice of grad
  if (res.size() != fn_->num_outputs()) {
    throw std::runtime_error("CopySlices: " + fn_->name() + " returned " +
                             std::to_string(res.size()) + " gradients, expected " +
                             std::to_string(fn_->num_outputs()));
  }
  if (should_compute_output(0)) {
    // The base's gradient outside the view, plus what fn computed for the view (its self).
    Tensor outside = restride(grad, base_, base_, /*zero=*/&view_);
    grad_inputs[0] =
        res[0].defined() ? add_gradients(outside, restride(res[0], view_, base_)) : outside;
  }
  for (size_t i = 1; i < res.size(); ++i) grad_inputs[i] = std::move(res[i]);
  return grad_inputs;
}

variable_list CopyBackwards::apply(variable_list&& grads) {
  variable_list grad_inputs(2);
  const Tensor& grad = grads[0];
  if (!grad.defined()) return grad_inputs;
  if (should_compute_output(0)) grad_inputs[0] = zeros(grad.sizes(), grad.scalar_type());
  if (should_compute_output(1)) grad_inputs[1] = grad;
  return grad_inputs;
}

Tensor& copy_into(Tensor& self, const Tensor& src) {
  check_inplace(self, "copy_");
  std::shared_ptr<CopyBackwards> grad_fn;
  if (compute_requires_grad(self, src)) {
    grad_fn = std::make_shared<CopyBackwards>();
    grad_fn->set_next_edges(collect_next_edges(self, src));
  }
  gradgen::internal::copy_(self, src);  // bumps self's version
  rebase_history(self, grad_fn);
  return self;
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
