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
//
// Thread safety (Note [Accumulating from several threads]): backward passes on
// different threads may share leaves. Each AccumulateGrad holds a lock while it
// updates .grad (as PyTorch locks per node), and the leaf's cached accumulator is
// read and created under a lock, so two graphs built and run concurrently from the
// same leaf sum both gradients into it, in some order.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "csrc/autograd/function.h"

namespace gradgen {
namespace autograd {

/// A lock for short critical sections (BasicLockable: use std::lock_guard). A
/// waiter spins and yields its time slice; uncontended, lock() and unlock() are
/// one atomic instruction each (a std::mutex costs two calls into libc).
class SpinLock {
 public:
  void lock() noexcept {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      while (locked_.load(std::memory_order_relaxed)) std::this_thread::yield();
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

struct AccumulateGrad : public Node {
  /// Creates the accumulator for `variable`, a leaf that requires grad.
  explicit AccumulateGrad(Tensor variable);

  /// Adds grads[0] into variable.grad(): the first gradient is stored (a detached
  /// copy unless the graph is being recorded, i.e. create_graph), later ones are
  /// added (in place when no graph is recorded). Returns no gradients. Holds
  /// grad_lock() meanwhile: backward passes on several threads may share this node.
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "AccumulateGrad"; }

  /// The lock apply() holds while it reads and writes variable.grad(). Hold it to
  /// read .grad while other threads may be accumulating into it.
  SpinLock& grad_lock() noexcept { return grad_lock_; }

  /// The leaf whose .grad this node updates.
  Tensor variable;

 private:
  SpinLock grad_lock_;
};

/// Returns the AccumulateGrad node of a leaf that requires grad, creating it on
/// first use. Thread-safe: threads using the same leaf get the same node.
std::shared_ptr<Node> grad_accumulator(const Tensor& leaf);

/// Returns the leaf's AccumulateGrad node if one is alive, else null. Thread-safe.
std::shared_ptr<Node> try_get_grad_accumulator(const Tensor& leaf);

}  // namespace autograd
}  // namespace gradgen
