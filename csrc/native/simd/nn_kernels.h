// Vectorized kernels of the normalization and pooling ops (issue 27): layer norm's rows, batch
// norm's channels and 2-D max pooling's planes, forward and backward; and the row steps of the
// fused attention's softmax (csrc/native/attention_kernel.cc).
//
// Built like pointwise.h's loops, once per instruction set (nn_kernels_{baseline,avx2,avx512}.cc,
// the best one picked at the first call, as vectorized.h's kernels), without Eigen. The loops
// use GCC's vector extensions over 64-byte vectors (16 floats or 8 doubles), which each build
// lowers to its own registers: the lanes, and so the order of every sum, are the same whatever
// the instruction set and the alignment of the data, and depend only on the sizes.
//
// Sums run in the input's precision (float32 lanes for float32, as ATen's kernels) within blocks
// of at most 1024 elements, each block's lanes folded in a fixed tree and added in double.
// Single-threaded: the callers (csrc/native/normalization.cc, pooling.cc) split rows, channels and
// planes across the intra-op threads.
#pragma once

#include <cstdint>

namespace gradgen {
namespace native {
namespace vec {

/// Layer norm of `rows` contiguous rows of m elements: y = (x - mean) * rstd * w + b per row, the
/// row's mean and rstd = 1 / sqrt(var + eps) written out; w, b may be null.
void layer_norm_rows(const float* x, const float* w, const float* b, double eps, float* y,
                     float* mean, float* rstd, int64_t rows, int64_t m);
void layer_norm_rows(const double* x, const double* w, const double* b, double eps, double* y,
                     double* mean, double* rstd, int64_t rows, int64_t m);

/// Its backward, in two passes over each row: gx = rstd (g - mean(g) - xhat mean(g xhat)) with
/// g = go * w, xhat = (x - mean) * rstd; gw[j] += sum of go * xhat and gb[j] += sum of go over the
/// rows (m doubles each; the rows summed in the input's precision 16 at a time, then added in
/// double). w, gx, gw, gb may be null.
void layer_norm_backward_rows(const float* go, const float* x, const float* mean, const float* rstd,
                              const float* w, float* gx, double* gw, double* gb, int64_t rows,
                              int64_t m);
void layer_norm_backward_rows(const double* go, const double* x, const double* mean,
                              const double* rstd, const double* w, double* gx, double* gw,
                              double* gb, int64_t rows, int64_t m);

/// Batch norm's channel: `planes` planes of S contiguous elements at x + n * ld. The mean of its
/// elements and the sum of their squared deviations from it (two passes).
void channel_moments(const float* x, int64_t ld, int64_t planes, int64_t S, double* mean,
                     double* sq);
void channel_moments(const double* x, int64_t ld, int64_t planes, int64_t S, double* mean,
                     double* sq);

/// y = (x - mu) * scale + shift over the channel's planes (y with x's layout).
void channel_normalize(const float* x, float* y, int64_t ld, int64_t planes, int64_t S, float mu,
                       float scale, float shift);
void channel_normalize(const double* x, double* y, int64_t ld, int64_t planes, int64_t S, double mu,
                       double scale, double shift);

/// The sums of go and of go * (x - mu) over the channel's planes (go with x's layout).
void channel_grad_sums(const float* go, const float* x, int64_t ld, int64_t planes, int64_t S,
                       float mu, double* sum, double* dot);
void channel_grad_sums(const double* go, const double* x, int64_t ld, int64_t planes, int64_t S,
                       double mu, double* sum, double* dot);

/// gx = a * go + b * (x - mu) + c over the channel's planes.
void channel_grad_input(const float* go, const float* x, float* gx, int64_t ld, int64_t planes,
                        int64_t S, float mu, float a, float b, float c);
void channel_grad_input(const double* go, const double* x, double* gx, int64_t ld, int64_t planes,
                        int64_t S, double mu, double a, double b, double c);

/// A 2-D max pool's geometry: input plane H x W, output OH x OW, kernel, stride, padding,
/// dilation (the output sizes computed by the caller, ceil_mode included).
struct MaxPoolGeometry {
  int64_t H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw;
};

/// Max pools `planes` contiguous planes of x into out, with each maximum's flat index in its
/// input plane: the first maximum of the window in row-major order, a NaN over any number (the
/// last NaN), as PyTorch's kernel.
void max_pool2d_planes(const float* x, const MaxPoolGeometry& g, int64_t planes, float* out,
                       int64_t* indices);
void max_pool2d_planes(const double* x, const MaxPoolGeometry& g, int64_t planes, double* out,
                       int64_t* indices);

/// Attention's softmax around the exponential (vec::exp): softmax_shift_rows subtracts from each
/// of `rows` contiguous rows of n > 0 elements its maximum; softmax_normalize_rows multiplies each
/// row by the inverse of its sum (in the input's precision within blocks, added in double).
void softmax_shift_rows(float* x, int64_t rows, int64_t n);
void softmax_shift_rows(double* x, int64_t rows, int64_t n);
void softmax_normalize_rows(float* x, int64_t rows, int64_t n);
void softmax_normalize_rows(double* x, int64_t rows, int64_t n);

/// Softmax's backward over rows of n: g = p * (g - sum(p * g)) per row (p and g contiguous rows).
void softmax_backward_rows(const float* p, float* g, int64_t rows, int64_t n);
void softmax_backward_rows(const double* p, double* g, int64_t rows, int64_t n);

/// dst (packed rows of n) = src (rows of n contiguous elements, ld apart) * s.
void scale_rows(const float* src, int64_t ld, float s, float* dst, int64_t rows, int64_t n);
void scale_rows(const double* src, int64_t ld, double s, double* dst, int64_t rows, int64_t n);

}  // namespace vec
}  // namespace native
}  // namespace gradgen
