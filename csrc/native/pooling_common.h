// What the pooling kernels share (pooling.cc, pooling3d.cc, pooling_adaptive.cc): the number of
// windows, the grad_output check and the max pools' backward, which adds each output's gradient at
// the input position its index names.
// Internal to the kernels (namespace gradgen::native); not an API.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "csrc/native/gemm.h"
#include "csrc/native/loops.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace native {

/// The number of windows along one dim of size `in`: kernel k, padding p, stride s, dilation d
/// (PyTorch's pooling_output_shape). With ceil_mode a last partial window counts, unless it would
/// start in the padding.
inline int64_t pool_output_size(int64_t in, int64_t k, int64_t p, int64_t s, int64_t d,
                                bool ceil_mode) {
  const int64_t span = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
  // Floor division (span may be negative).
  int64_t out = (span >= 0 ? span / s : -((-span + s - 1) / s)) + 1;
  if (ceil_mode && (out - 1) * s >= in + p) --out;
  return out;
}

/// grad_output must have the output's sizes and self's dtype.
inline void check_pool_grad_output(const char* op, const Tensor& grad_output, IntArrayRef out_shape,
                                   const Tensor& self) {
  if (!grad_output.sizes().equals(out_shape)) {
    throw std::invalid_argument(std::string(op) + ": expected grad_output of size " +
                                shape_str(out_shape) + ", got " + shape_str(grad_output.sizes()));
  }
  if (grad_output.scalar_type() != self.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": expected grad_output of dtype " +
                                to_string(self.scalar_type()) + ", got " +
                                to_string(grad_output.scalar_type()));
  }
}

/// The gradient of a max pool's input (self's sizes): plane p's grad_output element o added at
/// flat position indices[p, o] of input plane p (in_plane elements each); an index out of the
/// plane throws naming op. Planes are zeroed and filled by the intra-op threads (each plane on
/// its own: the split changes nothing); an index out of range is only flagged there, and the
/// first one found again on the calling thread to throw.
inline Tensor scatter_pool_indices(const char* op, const Tensor& grad_output, const Tensor& indices,
                                   const Tensor& self, int64_t planes, int64_t in_plane) {
  const Tensor go = grad_output.contiguous(), idx = indices.contiguous();
  Tensor gi = make_tensor(self.sizes(), self.scalar_type());
  const int64_t* pi = idx.data_ptr<int64_t>();
  const int64_t out_plane = planes == 0 ? 0 : idx.numel() / planes;
  std::atomic<bool> bad{false};
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* pg = go.data_ptr<T>();
    T* px = gi.data_ptr<T>();
    const int64_t work = std::max<int64_t>(in_plane + out_plane, 1);
    parallel_for(planes, std::max<int64_t>(1, kParallelGrain / work), 1,
                 [&](int64_t p0, int64_t p1) {
                   std::fill(px + p0 * in_plane, px + p1 * in_plane, T(0));
                   for (int64_t p = p0; p < p1; ++p) {
                     const int64_t* ip = pi + p * out_plane;
                     const T* gp = pg + p * out_plane;
                     T* xp = px + p * in_plane;
                     for (int64_t o = 0; o < out_plane; ++o) {
                       const int64_t i = ip[o];
                       if (i < 0 || i >= in_plane) {
                         bad.store(true, std::memory_order_relaxed);
                         continue;
                       }
                       xp[i] += gp[o];
                     }
                   }
                 });
  });
  if (bad.load()) {
    for (int64_t o = 0; o < planes * out_plane; ++o) {
      if (pi[o] < 0 || pi[o] >= in_plane) {
        throw std::out_of_range(std::string(op) + ": index " + std::to_string(pi[o]) +
                                " is out of bounds for a plane of " + std::to_string(in_plane) +
                                " elements");
      }
    }
  }
  return gi;
}

}  // namespace native
}  // namespace gradgen
