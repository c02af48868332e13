// Forward-mode automatic differentiation: dual tensors, levels, and what the generated wrappers
// call to propagate tangents (Jacobian-vector products).
//
//   {
//     forward_ad::dual_level level;                       // one level at a time
//     Tensor x = forward_ad::make_dual(x0, v);            // x0 carrying the tangent v
//     Tensor y = gradgen::tanh(gradgen::mm(x, w));        // wrappers compute y's tangent
//     Tensor jvp = forward_ad::unpack_dual(y).tangent;    // J v, no backward pass
//   }                                                     // every tangent of the level is gone
//
// A tangent lives in TensorImpl::fw_grad (one pointer; null for tensors that never had one) as a
// ForwardGrad: the tangent tensor and the id of the level it belongs to. Level ids are never
// reused, so a tangent of a level that has exited is ignored everywhere; the level also frees
// the tangents it registered when it exits.
//
// Note [Forward AD in wrappers]: a generated wrapper whose differentiable inputs have tangents
// at the active level runs the op's forward formula (`result: other_t * self_p + self_t *
// other_p` in derivatives.yaml) after the kernel, with the tangents of the other inputs taken as
// zeros, and attaches the formula's value to the output (set_fw_grad). The formula's own ops run
// under a FormulaGuard, so they compute no tangents themselves. An in-place op writes the new
// tangent into the existing one (so the tangents of views of it see the change) or sets it when
// there was none. A view op's formula is the same view of the input's tangent. An op without a
// forward formula throws "forward-mode AD not implemented for <op>" when an input has a tangent.
// Backward formulas run through the same wrappers, so with create_graph a backward pass over
// dual tensors propagates tangents too: forward-over-reverse (Hessian-vector products).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {

/// A tensor's tangent at one dual level (what TensorImpl::fw_grad points to).
struct ForwardGrad {
  uint64_t level = 0;
  Tensor tangent;
};

namespace forward_ad {

/// Opens a dual level and returns its id (ids start at 1 and are never reused). Only one level
/// can be active at a time: throws std::runtime_error when one is.
uint64_t enter_dual_level();
/// Closes `level`, which must be the active one, and frees every tangent made at it.
void exit_dual_level(uint64_t level);
/// The active level's id, or 0 when no level is active.
inline uint64_t current_level() noexcept;

/// RAII scope of a dual level: enter_dual_level() in the constructor, exit in the destructor.
class dual_level {
 public:
  dual_level() : level_(enter_dual_level()) {}
  ~dual_level() { exit_dual_level(level_); }
  dual_level(const dual_level&) = delete;
  dual_level& operator=(const dual_level&) = delete;
  uint64_t level() const noexcept { return level_; }

 private:
  uint64_t level_;
};

/// Returns a dual tensor: a new tensor sharing primal's data (a view of it, differentiable in
/// reverse mode with respect to primal) whose tangent at `level` is `tangent`. The tangent must
/// have the primal's shape and dtype, and the primal a floating dtype; `level` must be active.
/// A non-contiguous tangent of a contiguous primal is made contiguous (a view op on the dual
/// takes the same view of the tangent, which must then be possible).
Tensor make_dual(const Tensor& primal, const Tensor& tangent, uint64_t level);
/// make_dual at the active level.
Tensor make_dual(const Tensor& primal, const Tensor& tangent);

/// A dual tensor taken apart.
struct UnpackedDual {
  /// A view of the tensor without tangent (differentiable in reverse mode).
  Tensor primal;
  /// Its tangent at the level; undefined when it has none.
  Tensor tangent;
};
/// Returns t's primal and tangent at `level` (which must be active).
UnpackedDual unpack_dual(const Tensor& t, uint64_t level);
/// unpack_dual at the active level.
UnpackedDual unpack_dual(const Tensor& t);

/// Returns t's tangent at `level` (the active one by default), or an undefined tensor.
Tensor fw_grad(const Tensor& t, uint64_t level);
Tensor fw_grad(const Tensor& t);

// ---------------------------------------------------------------------------------------------
// What the generated wrappers call (Note [Forward AD in wrappers])
// ---------------------------------------------------------------------------------------------

namespace internal {
// The active level's id (0: none). Written under the levels' mutex, read without it.
inline std::atomic<uint64_t> active_level{0};
// > 0 while a forward formula runs (FormulaGuard): its ops compute no tangents.
inline thread_local int formula_depth = 0;
// The tangent of impl at the active level, or null.
inline const Tensor* tangent_of(const TensorImpl* impl) noexcept {
  if (!impl) return nullptr;
  const ForwardGrad* g = impl->fw_grad.get();
  if (!g || !g->tangent.defined()) return nullptr;
  return g->level == active_level.load(std::memory_order_relaxed) ? &g->tangent : nullptr;
}
}  // namespace internal

inline uint64_t current_level() noexcept {
  return internal::active_level.load(std::memory_order_relaxed);
}

/// Whether t has a tangent at the active level.
inline bool has_fw_grad(const Tensor& t) noexcept {
  return internal::tangent_of(t.unsafe_impl()) != nullptr;
}
inline bool has_fw_grad(const std::optional<Tensor>& t) noexcept {
  return t.has_value() && has_fw_grad(*t);
}
inline bool has_fw_grad(const std::vector<std::optional<Tensor>>& ts) noexcept {
  for (const std::optional<Tensor>& t : ts) {
    if (has_fw_grad(t)) return true;
  }
  return false;
}
inline bool has_fw_grad(TensorList ts) noexcept {
  for (const Tensor& t : ts) {
    if (has_fw_grad(t)) return true;
  }
  return false;
}

/// Whether a wrapper must compute tangents: a level is active, no formula is running, and one of
/// `args` (Tensors, optional Tensors, lists) has a tangent. One load when no level is active.
template <typename... Args>
inline bool any_fw_grad(const Args&... args) noexcept {
  if (__builtin_expect(current_level() == 0, 1) || internal::formula_depth > 0) return false;
  return (has_fw_grad(args) || ...);
}

/// Scope in which a forward formula runs: the wrappers it calls compute no tangents (tangents
/// are first order; the formula's primals would otherwise make it compute tangents of tangents).
class FormulaGuard {
 public:
  FormulaGuard() noexcept { ++internal::formula_depth; }
  ~FormulaGuard() { --internal::formula_depth; }
  FormulaGuard(const FormulaGuard&) = delete;
  FormulaGuard& operator=(const FormulaGuard&) = delete;
};

/// The tangent of t at the active level, or zeros of t's shape and dtype when it has none (the
/// `<name>_t` of a formula). An absent optional gives an undefined tensor.
Tensor tangent_or_zeros(const Tensor& t);
Tensor tangent_or_zeros(const std::optional<Tensor>& t);
/// tangent_or_zeros of each element (the `<name>_t` of a Tensor[] input).
std::vector<Tensor> tangent_or_zeros(TensorList ts);

/// Makes `tangent` the tangent of a fresh output of `op` at the active level. Outputs of an
/// integer or boolean dtype get none; an undefined tangent sets nothing. Throws if the tangent's
/// shape or dtype is not the output's (a wrong forward formula).
void set_fw_grad(const Tensor& output, const Tensor& tangent, const char* op);
/// set_fw_grad for each output of a Tensor[]-returning op (as many tangents as outputs).
void set_fw_grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& tangents,
                 const char* op);
/// For an in-place op on self: copies `tangent` into self's tangent when it has one (views of
/// that tangent see the new values), else makes it self's tangent.
void set_fw_grad_inplace(const Tensor& self, const Tensor& tangent, const char* op);

/// Throws std::runtime_error: "<op>: forward-mode AD not implemented for <op>" and why.
[[noreturn]] void throw_not_implemented(const char* op, const char* why);

}  // namespace forward_ad
}  // namespace autograd
}  // namespace gradgen
