#include "csrc/autograd/forward_ad.h"

#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "csrc/autograd/function.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/core_kernels.h"

namespace gradgen {
namespace autograd {
namespace forward_ad {
namespace {

// The levels' state: the next id and the tangents made at the active level (freed at its exit).
struct Levels {
  std::mutex mutex;
  uint64_t next_id = 1;
  std::vector<std::weak_ptr<ForwardGrad>> registered;
};

Levels& levels() {
  static Levels* state = new Levels();  // never destroyed: tensors may outlive static destructors
  return *state;
}

// The reverse-mode node of make_dual and unpack_dual's primal: both are aliases of their input,
// so the gradient passes through unchanged.
struct AliasBackward : public Node {
  explicit AliasBackward(const char* name) : name_(name) {}
  variable_list apply(variable_list&& grads) override { return {std::move(grads[0])}; }
  std::string name() const override { return name_; }

 private:
  const char* name_;
};

// A new tensor sharing t's data, with t as its reverse-mode input, without a tangent.
Tensor alias_of(const Tensor& t, const char* node_name) {
  Tensor out = t.detach();
  if (GradMode::is_enabled() && t.requires_grad()) {
    auto grad_fn = std::make_shared<AliasBackward>(node_name);
    grad_fn->add_next_edge(gradient_edge(t));
    out.unsafe_impl()->output_nr = grad_fn->add_input_metadata(out);
    out.unsafe_impl()->grad_fn = std::move(grad_fn);
  }
  return out;
}

std::string level_str(uint64_t level) {
  return level == 0 ? std::string("none") : std::to_string(level);
}

void check_active(uint64_t level, const char* what) {
  const uint64_t active = current_level();
  if (level == 0 || level != active) {
    throw std::runtime_error(std::string(what) + ": dual level " + level_str(level) +
                             " is not active (active level: " + level_str(active) +
                             "); open one with forward_ad::dual_level");
  }
}

// Attaches `tangent` to impl at the active level (reusing its ForwardGrad when it has one, which
// the detached copies a SavedVariable keeps may share) and registers it for the level's exit.
void attach(TensorImpl* impl, Tensor tangent) {
  std::shared_ptr<ForwardGrad> grad = impl->fw_grad;
  if (!grad) grad = std::make_shared<ForwardGrad>();
  grad->level = current_level();
  grad->tangent = std::move(tangent);
  impl->fw_grad = grad;
  Levels& state = levels();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.registered.push_back(grad);
}

void check_tangent(const Tensor& output, const Tensor& tangent, const char* op) {
  if (tangent.sizes() != output.sizes() || tangent.scalar_type() != output.scalar_type()) {
    throw std::runtime_error(
        std::string(op) + ": the forward-mode formula gave a tangent of shape " +
        shape_str(tangent.sizes()) + " and dtype " + to_string(tangent.scalar_type()) +
        " for an output of shape " + shape_str(output.sizes()) + " and dtype " +
        to_string(output.scalar_type()));
  }
}

}  // namespace

uint64_t enter_dual_level() {
  Levels& state = levels();
  std::lock_guard<std::mutex> lock(state.mutex);
  const uint64_t active = internal::active_level.load(std::memory_order_relaxed);
  if (active != 0) {
    throw std::runtime_error("dual_level: level " + std::to_string(active) +
                             " is already active; nested dual levels are not supported (exit it "
                             "first)");
  }
  const uint64_t id = state.next_id++;
  internal::active_level.store(id, std::memory_order_relaxed);
  return id;
}

void exit_dual_level(uint64_t level) {
  std::vector<std::weak_ptr<ForwardGrad>> registered;
  {
    Levels& state = levels();
    std::lock_guard<std::mutex> lock(state.mutex);
    const uint64_t active = internal::active_level.load(std::memory_order_relaxed);
    if (level != active) {
      throw std::runtime_error("exit_dual_level: level " + level_str(level) +
                               " is not the active level (" + level_str(active) + ")");
    }
    internal::active_level.store(0, std::memory_order_relaxed);
    registered.swap(state.registered);
  }
  // Free the tangents (outside the lock: freeing a tangent may free other tensors).
  for (const std::weak_ptr<ForwardGrad>& weak : registered) {
    if (std::shared_ptr<ForwardGrad> grad = weak.lock()) {
      if (grad->level == level) grad->tangent = Tensor();
    }
  }
}

Tensor make_dual(const Tensor& primal, const Tensor& tangent, uint64_t level) {
  check_active(level, "make_dual");
  if (!primal.defined()) throw std::invalid_argument("make_dual: the primal is undefined");
  if (!tangent.defined()) throw std::invalid_argument("make_dual: the tangent is undefined");
  if (!is_floating_point(primal.scalar_type())) {
    throw std::invalid_argument(std::string("make_dual: expected a primal of a floating dtype, "
                                            "found ") +
                                to_string(primal.scalar_type()));
  }
  if (tangent.sizes() != primal.sizes()) {
    throw std::invalid_argument("make_dual: expected a tangent of shape " +
                                shape_str(primal.sizes()) + " (the primal's), found " +
                                shape_str(tangent.sizes()));
  }
  if (tangent.scalar_type() != primal.scalar_type()) {
    throw std::invalid_argument(std::string("make_dual: expected a tangent of dtype ") +
                                to_string(primal.scalar_type()) + " (the primal's), found " +
                                to_string(tangent.scalar_type()));
  }
  Tensor dual = alias_of(primal, "MakeDualBackward");
  // Views of the dual take the same view of the tangent, which needs the primal's layout.
  Tensor t = tangent;
  if (primal.is_contiguous() && !tangent.is_contiguous()) t = tangent.contiguous();
  attach(dual.unsafe_impl(), std::move(t));
  return dual;
}

Tensor make_dual(const Tensor& primal, const Tensor& tangent) {
  return make_dual(primal, tangent, current_level());
}

UnpackedDual unpack_dual(const Tensor& t, uint64_t level) {
  check_active(level, "unpack_dual");
  if (!t.defined()) return {};
  return {alias_of(t, "UnpackDualBackward"), fw_grad(t, level)};
}

UnpackedDual unpack_dual(const Tensor& t) { return unpack_dual(t, current_level()); }

Tensor fw_grad(const Tensor& t, uint64_t level) {
  if (level == 0 || level != current_level()) return Tensor();
  const Tensor* tangent = internal::tangent_of(t.unsafe_impl());
  return tangent ? *tangent : Tensor();
}

Tensor fw_grad(const Tensor& t) { return fw_grad(t, current_level()); }

Tensor tangent_or_zeros(const Tensor& t) {
  if (!t.defined()) return Tensor();
  const Tensor* tangent = internal::tangent_of(t.unsafe_impl());
  return tangent ? *tangent : zeros(t.sizes(), t.scalar_type());
}

Tensor tangent_or_zeros(const std::optional<Tensor>& t) {
  return t.has_value() ? tangent_or_zeros(*t) : Tensor();
}

std::vector<Tensor> tangent_or_zeros(TensorList ts) {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(tangent_or_zeros(t));
  return out;
}

void set_fw_grad(const Tensor& output, const Tensor& tangent, const char* op) {
  if (!output.defined() || !tangent.defined()) return;
  if (!is_floating_point(output.scalar_type())) return;
  check_tangent(output, tangent, op);
  attach(output.unsafe_impl(), tangent);
}

void set_fw_grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& tangents,
                 const char* op) {
  if (outputs.size() != tangents.size()) {
    throw std::runtime_error(std::string(op) + ": the forward-mode formula gave " +
                             std::to_string(tangents.size()) + " tangents for " +
                             std::to_string(outputs.size()) + " outputs");
  }
  for (size_t i = 0; i < outputs.size(); ++i) set_fw_grad(outputs[i], tangents[i], op);
}

namespace {

// A tensor over `storage_of`'s storage with `geometry_of`'s sizes and strides, its offset moved
// by `offset_shift`: the view of a base's tangent that a view of the base is.
Tensor alias_with_geometry(const Tensor& storage_of, const Tensor& geometry_of,
                           int64_t offset_shift) {
  const TensorImpl& src = *geometry_of.unsafe_impl();
  auto* impl = new TensorImpl();
  Tensor out(intrusive_ptr<TensorImpl>::adopt_new(impl));
  impl->storage = storage_of.unsafe_impl()->storage;
  impl->storage_offset = src.storage_offset + offset_shift;
  impl->dtype = src.dtype;
  impl->sizes = src.sizes;
  impl->strides = src.strides;
  impl->refresh_numel_and_contiguity();
  return out;
}

// A zero tangent for t laid out as t is (the same strides and offset over a storage of t's
// storage's size), so that every view of t maps onto the same view of it.
Tensor zeros_with_layout(const Tensor& t) {
  const size_t nbytes = t.unsafe_impl()->storage->nbytes;
  Tensor holder = zeros({static_cast<int64_t>(nbytes)}, ScalarType::Bool);  // nbytes zero bytes
  return alias_with_geometry(holder, t, 0);
}

// An in-place op on a view that has no tangent (Note [Forward AD in wrappers]): as PyTorch, the
// view's tangent becomes the same view of its base's tangent (a zero one if the base had none),
// so the update reaches the base. Returns the view's new tangent, or an undefined tensor when
// the base's tangent is not laid out like the base (then only the view gets a tangent).
Tensor tangent_through_base(const Tensor& self, const char* op) {
  if (!self.is_view()) return Tensor();
  const Tensor& base = self.unsafe_impl()->view->base;
  if (!base.defined() || base.scalar_type() != self.scalar_type()) return Tensor();
  const Tensor* base_tangent = internal::tangent_of(base.unsafe_impl());
  Tensor bt;
  if (base_tangent) {
    if (!base_tangent->strides().equals(base.strides())) return Tensor();
    bt = *base_tangent;
  } else {
    bt = zeros_with_layout(base);
    set_fw_grad(base, bt, op);
  }
  Tensor view_tangent = alias_with_geometry(bt, self, bt.storage_offset() - base.storage_offset());
  set_fw_grad(self, view_tangent, op);
  return view_tangent;
}

}  // namespace

void set_fw_grad_inplace(const Tensor& self, const Tensor& tangent, const char* op) {
  if (!tangent.defined()) return;
  const Tensor* existing = internal::tangent_of(self.unsafe_impl());
  if (!existing) {
    const Tensor view_tangent = tangent_through_base(self, op);
    if (!view_tangent.defined()) {
      set_fw_grad(self, tangent, op);
      return;
    }
    check_tangent(self, tangent, op);
    gradgen::internal::copy_(view_tangent, tangent);
    return;
  }
  if (existing->is_same(tangent)) return;  // the formula updated the tangent itself (zero_)
  check_tangent(self, tangent, op);
  gradgen::internal::copy_(*existing, tangent);
}

void throw_not_implemented(const char* op, const char* why) {
  throw std::runtime_error(std::string("forward-mode AD not implemented for ") + op + ": " + why);
}

}  // namespace forward_ad
}  // namespace autograd
}  // namespace gradgen
