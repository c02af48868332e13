#include "csrc/autograd/accumulate_grad.h"

#include <cstdint>
#include <limits>
#include <mutex>
#include <stdexcept>

#include "csrc/autograd/basic_ops.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"

namespace gradgen {
namespace autograd {

// Note [Accumulating from several threads]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Two things are shared when graphs on different threads use one leaf:
//  - the leaf's AccumulateGrad node, which both engines run: apply() holds the
//    node's lock while it reads and updates .grad (the engine's per-task
//    bookkeeping of shared nodes is in csrc/autograd/engine.cc, GraphTask::claim);
//  - the leaf's cached accumulator (TensorImpl::grad_accumulator, a weak_ptr),
//    which every forward op using the leaf reads and the first one writes: it is
//    guarded by one of kStripes spin locks chosen by the impl's address, so that
//    TensorImpl stays lock-free and the single-threaded cost is one uncontended
//    atomic exchange and store per leaf use.
// Both are SpinLocks: a std::mutex costs two calls into libc (~60 instructions
// per lock and unlock, measured with callgrind), a sizeable share of a small node.
// Hooks registered on a shared leaf run on whichever thread computed the gradient.

namespace {

constexpr size_t kStripes = 64;

struct alignas(64) Stripe {  // one cache line each: threads on different leaves do not contend
  SpinLock lock;
};

Stripe stripes[kStripes];

SpinLock& accumulator_lock(const TensorImpl* impl) {
  const uintptr_t p = reinterpret_cast<uintptr_t>(impl);
  return stripes[((p >> 4) * 0x9E3779B97F4A7C15ull) >> 58].lock;  // top 6 bits: kStripes = 64
}

}  // namespace

AccumulateGrad::AccumulateGrad(Tensor variable_)
    : Node(std::numeric_limits<uint64_t>::max()), variable(std::move(variable_)) {
  add_input_metadata(variable);
}

variable_list AccumulateGrad::apply(variable_list&& grads) {
  if (grads.empty() || !grads[0].defined()) return {};
  std::lock_guard<SpinLock> guard(grad_lock_);  // Note [Accumulating from several threads]
  Tensor& new_grad = grads[0];
  Tensor& grad = variable.mutable_grad();
  const bool recording = GradMode::is_enabled();  // the engine sets it to create_graph
  if (!grad.defined()) {
    if (recording) {
      grad = new_grad;  // keep its history for the double backward
    } else if (gradgen::internal::is_sole_owner(new_grad) && !new_grad.requires_grad()) {
      grad = std::move(new_grad);  // nobody else sees it: no copy needed
    } else {
      grad = new_grad.clone();  // .grad must not alias a tensor the caller holds
    }
  } else if (!recording && !grad.requires_grad() && grad.is_contiguous() && !grad.is_view() &&
             !grad.unsafe_impl()->fw_grad && !new_grad.unsafe_impl()->fw_grad) {
    // (Tensors with forward-mode tangents are summed by add_gradients, which sums those too.)
    gradgen::internal::add_(grad, new_grad);  // in place, like PyTorch's `grad += new_grad`
  } else {
    // Recording a graph (or .grad has history): sum differentiably.
    grad = add_gradients(grad, new_grad);
  }
  return {};
}

std::shared_ptr<Node> try_get_grad_accumulator(const Tensor& leaf) {
  TensorImpl* impl = leaf.unsafe_impl();
  if (!impl) return nullptr;
  std::lock_guard<SpinLock> guard(accumulator_lock(impl));
  return impl->grad_accumulator.lock();
}

std::shared_ptr<Node> grad_accumulator(const Tensor& leaf) {
  TensorImpl* impl = leaf.unsafe_impl();
  if (!impl) throw std::runtime_error("grad_accumulator: called on an undefined tensor");
  std::lock_guard<SpinLock> guard(accumulator_lock(impl));
  if (auto existing = impl->grad_accumulator.lock()) return existing;
  if (impl->grad_fn) {
    throw std::runtime_error("grad_accumulator: called on a non-leaf tensor (grad_fn " +
                             impl->grad_fn->name() + ")");
  }
  if (!impl->requires_grad) {
    throw std::runtime_error("grad_accumulator: called on a leaf that does not require grad");
  }
  // Node and control block in one block from the pool (csrc/util/block_pool.h): a leaf's
  // accumulator lives as long as the graphs that reach it, often one forward and backward.
  auto accumulator =
      std::allocate_shared<AccumulateGrad>(gradgen::internal::PoolAllocator<AccumulateGrad>(),
                                           leaf);
  if (impl->hooks) accumulator->add_tensor_pre_hook(0, impl->hooks);  // registered earlier
  impl->grad_accumulator = accumulator;
  return accumulator;
}

}  // namespace autograd
}  // namespace gradgen
