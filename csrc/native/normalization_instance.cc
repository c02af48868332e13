// instance_norm (nn, third batch), the composite of PyTorch's Normalization.cpp: input [N, C, ...]
// is batch-normalized as [1, N * C, ...] with the affine parameters and running statistics
// repeated N times; the running statistics are then the mean of their N updated copies.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/loops.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::in_composite_op;

std::optional<Tensor> repeat_if_defined(const std::optional<Tensor>& t, int64_t repeat) {
  if (!t.has_value() || !t->defined()) return std::nullopt;
  return gradgen::repeat(*t, {repeat});
}

/// running <- the mean of the N updated copies in repeated ([N * C]), in place.
void copy_back_mean(const Tensor& running, const Tensor& repeated, int64_t n, int64_t c) {
  autograd::NoGradGuard no_grad;
  const Tensor mean =
      gradgen::mean(gradgen::reshape(repeated, {n, c}), IntArrayRef({0}), false).contiguous();
  if (running.numel() != c) return;  // batch_norm has refused it already
  gradgen::internal::dispatch_floating(running.scalar_type(), "instance_norm", [&](auto tag) {
    using T = decltype(tag);
    T* pr = running.data_ptr<T>();
    const T* pm = mean.data_ptr<T>();
    const int64_t stride = running.dim() == 1 ? running.stride(0) : 1;
    for (int64_t i = 0; i < c; ++i) pr[i * stride] = pm[i];
  });
}

}  // namespace

Tensor instance_norm(const Tensor& input, const std::optional<Tensor>& weight,
                     const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                     const std::optional<Tensor>& running_var, bool use_input_stats,
                     double momentum, double eps, bool cudnn_enabled) {
  return in_composite_op("instance_norm", [&] {
    const bool has_mean = running_mean.has_value() && running_mean->defined();
    const bool has_var = running_var.has_value() && running_var->defined();
    if (!use_input_stats && !(has_mean && has_var)) {
      throw std::invalid_argument(
          "Expected running_mean and running_var to be defined when use_input_stats is false");
    }
    if (input.dim() < 2) {
      throw std::out_of_range("Dimension out of range (expected to be in range of [-" +
                              std::to_string(std::max<int64_t>(input.dim(), 1)) + ", " +
                              std::to_string(std::max<int64_t>(input.dim(), 1) - 1) +
                              "], but got 1)");
    }
    const int64_t b = input.size(0), c = input.size(1);
    DimVector shape(input.sizes().begin(), input.sizes().end());
    shape[1] = b * c;
    shape[0] = 1;
    const std::optional<Tensor> mean_ = repeat_if_defined(running_mean, b);
    const std::optional<Tensor> var_ = repeat_if_defined(running_var, b);
    const Tensor out =
        gradgen::batch_norm(gradgen::reshape(input, shape), repeat_if_defined(weight, b),
                            repeat_if_defined(bias, b), mean_, var_, use_input_stats, momentum, eps,
                            cudnn_enabled);
    if (has_mean) copy_back_mean(*running_mean, *mean_, b, c);
    if (has_var) copy_back_mean(*running_var, *var_, b, c);
    return gradgen::reshape(out, input.sizes());
  });
}

}  // namespace native
}  // namespace gradgen
