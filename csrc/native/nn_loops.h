// Loops of the nn kernels (activation.cc, loss.cc) beyond loops.h's: a three-operand map.
//
// Internal to the kernels (namespace gradgen::native::loops); not an API.
#pragma once

#include <array>
#include <cstdint>

#include "csrc/native/loops.h"

namespace gradgen {
namespace native {
namespace loops {

/// out = f(a, b, c) with the three broadcast together, into a fresh contiguous tensor of a's
/// dtype; a, b and c all hold T (the caller converts them first).
template <typename T, typename F>
Tensor ternary_map(const char* op, const Tensor& a, const Tensor& b, const Tensor& c, F&& f) {
  const DimVector shape =
      broadcast_shapes(op, broadcast_shapes(op, a.sizes(), b.sizes()), c.sizes());
  Tensor out = make_tensor(shape, a.scalar_type());
  T* o = out.data_ptr<T>();
  const T* pa = a.data_ptr<T>();
  const T* pb = b.data_ptr<T>();
  const T* pc = c.data_ptr<T>();
  const DimVector so = contiguous_strides(shape);
  const DimVector sa = broadcast_strides(a.sizes(), a.strides(), shape);
  const DimVector sb = broadcast_strides(b.sizes(), b.strides(), shape);
  const DimVector sc = broadcast_strides(c.sizes(), c.strides(), shape);
  strided_loop<4>(op, shape, {IntArrayRef(so), IntArrayRef(sa), IntArrayRef(sb), IntArrayRef(sc)},
                  [&](const std::array<int64_t, 4>& off, int64_t n,
                      const std::array<int64_t, 4>& is) {
                    for (int64_t i = 0; i < n; ++i) {
                      o[off[0] + i * is[0]] =
                          f(pa[off[1] + i * is[1]], pb[off[2] + i * is[2]], pc[off[3] + i * is[3]]);
                    }
                  });
  return out;
}

}  // namespace loops
}  // namespace native
}  // namespace gradgen
