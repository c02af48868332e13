// GradMode: whether differentiable ops record the autograd graph, per thread.
//
// Generated forward functions build a Backward node only if GradMode is enabled
// and an input requires grad (compute_requires_grad in variable_type_utils.h).
// The engine sets GradMode to `create_graph` while it runs backward formulas, so
// the formulas record a graph (for double backward) only when asked to.
//
//   {
//     NoGradGuard no_grad;          // e.g. an optimizer step updating weights
//     Tensor y = mm(w, x);          // y.grad_fn() is null
//   }                               // the previous mode is restored here
#pragma once

namespace gradgen {
namespace autograd {

struct GradMode {
  /// Returns true if ops on this thread record the autograd graph (the default).
  static bool is_enabled() noexcept { return enabled_; }
  /// Sets whether ops on this thread record the autograd graph.
  static void set_enabled(bool enabled) noexcept { enabled_ = enabled; }

 private:
  static inline thread_local bool enabled_ = true;
};

/// Sets GradMode for the lifetime of the guard, then restores the previous mode.
class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) noexcept : previous_(GradMode::is_enabled()) {
    GradMode::set_enabled(enabled);
  }
  ~AutoGradMode() { GradMode::set_enabled(previous_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool previous_;
};

/// Disables GradMode for the lifetime of the guard.
class NoGradGuard : public AutoGradMode {
 public:
  NoGradGuard() noexcept : AutoGradMode(false) {}
};

}  // namespace autograd
}  // namespace gradgen
