// Helpers of the pooling and resampling ops' derivative formulas (specs/derivatives.yaml,
// sections "nn, second batch: pooling" and "nn, third batch"), with PyTorch's names, written with
// gradgen's differentiable API.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>

#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

// Tensor::flatten(start_dim, end_dim) of PyTorch's formulas is the op flatten.using_ints.

// Tensor::view_as(other) is the op view_as (specs/native_functions.yaml).

/// The gradient of a max pool's backward in grad_output: grad (of the input's shape) read at the
/// pooled positions, indices being flat positions within the last `dim` dims.
Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t dim);

/// PyTorch's _symint spellings of the upsample ops and their backward ops (SymInts are integers
/// in gradgen).
inline Tensor upsample_nearest1d_symint(const Tensor& self, IntArrayRef output_size,
                                        std::optional<double> scales) {
  return upsample_nearest1d(self, output_size, scales);
}
inline Tensor upsample_nearest1d_backward_symint(const Tensor& grad, IntArrayRef output_size,
                                                 IntArrayRef input_size,
                                                 std::optional<double> scales) {
  return upsample_nearest1d_backward(grad, output_size, input_size, scales);
}
inline Tensor upsample_nearest2d_symint(const Tensor& self, IntArrayRef output_size,
                                        std::optional<double> scales_h,
                                        std::optional<double> scales_w) {
  return upsample_nearest2d(self, output_size, scales_h, scales_w);
}
inline Tensor upsample_nearest2d_backward_symint(const Tensor& grad, IntArrayRef output_size,
                                                 IntArrayRef input_size,
                                                 std::optional<double> scales_h,
                                                 std::optional<double> scales_w) {
  return upsample_nearest2d_backward(grad, output_size, input_size, scales_h, scales_w);
}
inline Tensor upsample_bilinear2d_symint(const Tensor& self, IntArrayRef output_size,
                                         bool align_corners, std::optional<double> scales_h,
                                         std::optional<double> scales_w) {
  return upsample_bilinear2d(self, output_size, align_corners, scales_h, scales_w);
}
inline Tensor upsample_bilinear2d_backward_symint(const Tensor& grad, IntArrayRef output_size,
                                                  IntArrayRef input_size, bool align_corners,
                                                  std::optional<double> scales_h,
                                                  std::optional<double> scales_w) {
  return upsample_bilinear2d_backward(grad, output_size, input_size, align_corners, scales_h,
                                      scales_w);
}

/// The same for the 1-D linear, 2-D bicubic and 3-D upsample ops (issue 26, remaining ops).
inline Tensor upsample_linear1d_symint(const Tensor& self, IntArrayRef output_size,
                                       bool align_corners, std::optional<double> scales) {
  return upsample_linear1d(self, output_size, align_corners, scales);
}
inline Tensor upsample_linear1d_backward_symint(const Tensor& grad, IntArrayRef output_size,
                                                IntArrayRef input_size, bool align_corners,
                                                std::optional<double> scales) {
  return upsample_linear1d_backward(grad, output_size, input_size, align_corners, scales);
}
inline Tensor upsample_bicubic2d_symint(const Tensor& self, IntArrayRef output_size,
                                        bool align_corners, std::optional<double> scales_h,
                                        std::optional<double> scales_w) {
  return upsample_bicubic2d(self, output_size, align_corners, scales_h, scales_w);
}
inline Tensor upsample_bicubic2d_backward_symint(const Tensor& grad, IntArrayRef output_size,
                                                 IntArrayRef input_size, bool align_corners,
                                                 std::optional<double> scales_h,
                                                 std::optional<double> scales_w) {
  return upsample_bicubic2d_backward(grad, output_size, input_size, align_corners, scales_h,
                                     scales_w);
}
inline Tensor upsample_trilinear3d_symint(const Tensor& self, IntArrayRef output_size,
                                          bool align_corners, std::optional<double> scales_d,
                                          std::optional<double> scales_h,
                                          std::optional<double> scales_w) {
  return upsample_trilinear3d(self, output_size, align_corners, scales_d, scales_h, scales_w);
}
inline Tensor upsample_trilinear3d_backward_symint(const Tensor& grad, IntArrayRef output_size,
                                                   IntArrayRef input_size, bool align_corners,
                                                   std::optional<double> scales_d,
                                                   std::optional<double> scales_h,
                                                   std::optional<double> scales_w) {
  return upsample_trilinear3d_backward(grad, output_size, input_size, align_corners, scales_d,
                                       scales_h, scales_w);
}
inline Tensor upsample_nearest3d_symint(const Tensor& self, IntArrayRef output_size,
                                        std::optional<double> scales_d,
                                        std::optional<double> scales_h,
                                        std::optional<double> scales_w) {
  return upsample_nearest3d(self, output_size, scales_d, scales_h, scales_w);
}
inline Tensor upsample_nearest3d_backward_symint(const Tensor& grad, IntArrayRef output_size,
                                                 IntArrayRef input_size,
                                                 std::optional<double> scales_d,
                                                 std::optional<double> scales_h,
                                                 std::optional<double> scales_w) {
  return upsample_nearest3d_backward(grad, output_size, input_size, scales_d, scales_h, scales_w);
}

/// The same for the antialiased resampling ops.
inline Tensor _upsample_bilinear2d_aa_symint(const Tensor& self, IntArrayRef output_size,
                                             bool align_corners, std::optional<double> scales_h,
                                             std::optional<double> scales_w) {
  return _upsample_bilinear2d_aa(self, output_size, align_corners, scales_h, scales_w);
}
inline Tensor _upsample_bilinear2d_aa_backward_symint(const Tensor& grad, IntArrayRef output_size,
                                                      IntArrayRef input_size, bool align_corners,
                                                      std::optional<double> scales_h,
                                                      std::optional<double> scales_w) {
  return _upsample_bilinear2d_aa_backward(grad, output_size, input_size, align_corners, scales_h,
                                          scales_w);
}
inline Tensor _upsample_bicubic2d_aa_symint(const Tensor& self, IntArrayRef output_size,
                                            bool align_corners, std::optional<double> scales_h,
                                            std::optional<double> scales_w) {
  return _upsample_bicubic2d_aa(self, output_size, align_corners, scales_h, scales_w);
}
inline Tensor _upsample_bicubic2d_aa_backward_symint(const Tensor& grad, IntArrayRef output_size,
                                                     IntArrayRef input_size, bool align_corners,
                                                     std::optional<double> scales_h,
                                                     std::optional<double> scales_w) {
  return _upsample_bicubic2d_aa_backward(grad, output_size, input_size, align_corners, scales_h,
                                         scales_w);
}

/// PyTorch's _symint spelling of col2im (im2col's formula).
inline Tensor col2im_symint(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
                            IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  return col2im(self, output_size, kernel_size, dilation, padding, stride);
}

/// PyTorch's _embedding_bag_backward_symint (_embedding_bag's formula), written with
/// differentiable ops so that the gradient can be differentiated again: each index's bag
/// gradient (scaled by per_sample_weights, by 1 / count for mean, 0 at padding_idx) added at its
/// row; for max the bag gradient added at each maximum's row. Dense only (sparse raises), and
/// scale_grad_by_freq is refused.
Tensor _embedding_bag_backward_symint(const Tensor& grad, const Tensor& indices,
                                      const Tensor& offsets, const Tensor& offset2bag,
                                      const Tensor& bag_size, const Tensor& maximum_indices,
                                      int64_t num_weights, bool scale_grad_by_freq, int64_t mode,
                                      bool sparse, const std::optional<Tensor>& per_sample_weights,
                                      int64_t padding_idx);

/// gradgen's forward formula of _embedding_bag's output (PyTorch has none): linear in weight
/// (a bag of the tangents; for max the tangent at each maximum's row) and in
/// per_sample_weights.
Tensor embedding_bag_jvp(const Tensor& weight_p, const Tensor& weight_t, const Tensor& indices,
                         const Tensor& offsets, const std::optional<Tensor>& per_sample_weights_p,
                         const Tensor& per_sample_weights_t, int64_t mode, bool include_last_offset,
                         int64_t padding_idx, const Tensor& bag_size,
                         const Tensor& maximum_indices);

/// PyTorch's _symint spelling of _adaptive_avg_pool2d (SymInts are integers in gradgen).
inline Tensor _adaptive_avg_pool2d_symint(const Tensor& self, IntArrayRef output_size) {
  return _adaptive_avg_pool2d(self, output_size);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
