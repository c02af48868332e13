// float16 and bfloat16 through a float32 kernel, as PyTorch's CPU kernels compute them.
//
// Kernels are instantiated for float64 and float32 only (dtypes.md). A kernel that accepts the
// two 16-bit floating dtypes starts with
//
//   GRADGEN_REDUCED_FLOAT_IN_FLOAT32(mm, self, mat2);
//
// which, when every floating tensor argument (a Tensor, an optional Tensor, a Tensor list) has
// the same 16-bit dtype, converts those arguments to float32 (exactly), calls the kernel again
// with them and rounds each float32 tensor it returns to the 16-bit dtype once (round to nearest
// even, csrc/half.h). Integer and bool tensors (indices, masks) and the other arguments pass
// unchanged, and so do the results that are not float32 (indices). When the floating tensors mix
// dtypes (float16 with float32) nothing is converted: the kernel's own dtype check answers, as
// before. A kernel whose float32 result is float32 on purpose (softmax's dtype=) must not use it
// for those calls.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "csrc/native/type_promotion.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace native {

/// True for float16 and bfloat16, the dtypes computed through float32 kernels.
inline bool is_reduced_float(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16;
}

namespace reduced_float {

/// The floating dtypes a call's tensor arguments have: `dtype` the first, `mixed` when another
/// differs from it.
struct Probe {
  std::optional<ScalarType> dtype;
  bool mixed = false;

  void see(const Tensor& t) {
    if (!t.defined() || !is_floating_point(t.scalar_type())) return;
    if (!dtype) {
      dtype = t.scalar_type();
    } else if (*dtype != t.scalar_type()) {
      mixed = true;
    }
  }
  void see(const std::optional<Tensor>& t) {
    if (t.has_value()) see(*t);
  }
  void see(TensorList ts) {
    for (const Tensor& t : ts) see(t);
  }
  void see(const std::vector<Tensor>& ts) { see(TensorList(ts)); }
  template <typename T>
  void see(const T&) {}
};

inline Tensor widen(ScalarType dtype, const Tensor& t) {
  return t.defined() && t.scalar_type() == dtype ? cast(t, ScalarType::Float) : t;
}
inline std::optional<Tensor> widen(ScalarType dtype, const std::optional<Tensor>& t) {
  if (!t.has_value()) return t;
  return widen(dtype, *t);
}
inline std::vector<Tensor> widen(ScalarType dtype, TensorList ts) {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(widen(dtype, t));
  return out;
}
inline std::vector<Tensor> widen(ScalarType dtype, const std::vector<Tensor>& ts) {
  return widen(dtype, TensorList(ts));
}
template <typename T>
const T& widen(ScalarType, const T& value) {
  return value;
}

inline Tensor narrow(ScalarType dtype, const Tensor& t) {
  return t.defined() && t.scalar_type() == ScalarType::Float ? cast(t, dtype) : t;
}
inline std::vector<Tensor> narrow(ScalarType dtype, const std::vector<Tensor>& ts) {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(narrow(dtype, t));
  return out;
}
template <typename... Ts>
std::tuple<Ts...> narrow(ScalarType dtype, const std::tuple<Ts...>& ts) {
  return std::apply([dtype](const auto&... t) { return std::tuple<Ts...>(narrow(dtype, t)...); },
                    ts);
}

}  // namespace reduced_float

/// Throws PyTorch's `"<kernel>" not implemented for 'Half'` (its NotImplementedError), for the ops
/// whose PyTorch 2.13 CPU kernel has no float16 / bfloat16 instance.
[[noreturn]] inline void refuse_dtype(const char* kernel, ScalarType dtype) {
  throw std::runtime_error(std::string("\"") + kernel + "\" not implemented for '" +
                           to_string(dtype) + "'");
}

/// refuse_dtype(kernel, t's dtype) when t is float16 or bfloat16: where PyTorch refuses.
inline void refuse_reduced_float(const char* kernel, const Tensor& t) {
  if (t.defined() && is_reduced_float(t.scalar_type())) refuse_dtype(kernel, t.scalar_type());
}

/// The 16-bit floating dtype every floating tensor argument has, or nullopt (no such argument,
/// a float32 or float64 one, or a mix).
template <typename... Args>
std::optional<ScalarType> reduced_float_dtype(const Args&... args) {
  reduced_float::Probe probe;
  (probe.see(args), ...);
  if (probe.mixed || !probe.dtype || !is_reduced_float(*probe.dtype)) return std::nullopt;
  return probe.dtype;
}

/// Calls kernel(args...) with the arguments of dtype `dtype` converted to float32 and returns its
/// results with each float32 tensor rounded to `dtype` once.
template <typename F, typename... Args>
auto in_float32(ScalarType dtype, F&& kernel, const Args&... args) {
  return reduced_float::narrow(dtype, kernel(reduced_float::widen(dtype, args)...));
}

}  // namespace native
}  // namespace gradgen

/// At the top of a function FN (qualified: gradgen::native::mm, formulas' helpers): a call whose
/// floating tensors are all float16 (or all bfloat16) returns FN's result for them computed in
/// float32, rounded (in_float32 above). The qualified name keeps argument-dependent lookup away
/// from gradgen's differentiable ops of the same name.
#define GRADGEN_REDUCED_FLOAT_CALL_IN_FLOAT32(FN, ...)                                         \
  if (const auto gradgen_reduced_ = ::gradgen::native::reduced_float_dtype(__VA_ARGS__)) {     \
    return ::gradgen::native::in_float32(                                                      \
        *gradgen_reduced_, [&](const auto&... gradgen_args_) { return FN(gradgen_args_...); }, \
        __VA_ARGS__);                                                                          \
  }

/// GRADGEN_REDUCED_FLOAT_CALL_IN_FLOAT32 of the kernel gradgen::native::KERNEL.
#define GRADGEN_REDUCED_FLOAT_IN_FLOAT32(KERNEL, ...) \
  GRADGEN_REDUCED_FLOAT_CALL_IN_FLOAT32(::gradgen::native::KERNEL, __VA_ARGS__)
