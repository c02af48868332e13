// The direct kernels of depthwise convolutions (one input channel per group,
// csrc/native/convolution.cc): one 2-D plane of the output from one plane of the input and the
// channel's kernel, every tap of a block of outputs summed in vector registers (one load and
// one store of each output vector for all the taps), the weight gradient of a plane with one
// vector accumulator per tap, and the row sums of the bias gradient.
//
// Built like pointwise.h's loops for the baseline ISA, AVX2+FMA and AVX-512 (depthwise_*.cc, GCC
// vector types of 16, 32 or 64 bytes), the one vectorized.h's kernels run with picked at the
// first call. No Eigen. Single-threaded: convolution.cc splits the planes across the intra-op
// threads.
#pragma once

#include <cstdint>

namespace gradgen {
namespace native {
namespace vec {

/// One plane of a depthwise convolution: the output y [out_h, out_w] reads, at (o1, o2) and
/// kernel tap (k1, k2) in [0, k_h) x [0, k_w), the input x [in_h, in_w] at
/// (o1 * stride_h + k1 * dil_h + off_h, o2 * stride_w + k2 * dil_w + off_w); positions outside x
/// read 0. The offsets are minus the padding, or any other shift (an input gradient computed as
/// a convolution with the flipped kernel has off = padding - dil * (k - 1)).
struct DepthwisePlane {
  int64_t in_h, in_w, out_h, out_w;
  int64_t k_h, k_w, stride_h, stride_w, dil_h, dil_w, off_h, off_w;
};

/// y[o] = init + sum over the taps of w[k1 * k_w + k2] * x[...] (accumulate: y[o] += the sum,
/// init unused). Each output's terms are added in tap order (k1, then k2), whatever its position.
void depthwise_plane(const DepthwisePlane& p, const float* x, const float* w, float init,
                     bool accumulate, float* y);
void depthwise_plane(const DepthwisePlane& p, const double* x, const double* w, double init,
                     bool accumulate, double* y);

/// gw[k1 * k_w + k2] += the sum over y's positions o of gy[o] * x[the position tap (k1, k2) of o
/// reads], taps reading outside x left out. The order of the terms depends on the shape only.
void depthwise_plane_weight(const DepthwisePlane& p, const float* gy, const float* x, float* gw);
void depthwise_plane_weight(const DepthwisePlane& p, const double* gy, const double* x, double* gw);

/// out[r] += the sum of row r of x (`rows` contiguous rows of n elements), in double: the bias
/// gradient of convolutions (per sample and channel). The order of the terms depends on n only.
void add_row_sums(const float* x, int64_t rows, int64_t n, double* out);
void add_row_sums(const double* x, int64_t rows, int64_t n, double* out);

}  // namespace vec
}  // namespace native
}  // namespace gradgen
