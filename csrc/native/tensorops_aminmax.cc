// The kernel of aminmax (issue 23): the minimum and the maximum of a tensor over one dim, or over
// every dim (dim=None), as amin and amax compute them (NaN propagates; every dtype, Bool
// included), with PyTorch's refusals of empty reductions and its out= variant.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  // What amin / amax reduce: {dim}, or every dim (the empty list), and nothing of a 0-dim self
  // (dim 0 and -1 name it, as in PyTorch; the results stay 0-dim even with keepdim).
  DimVector dims;
  if (dim.has_value()) {
    const int64_t d = wrap_dim(*dim, self.dim(), "aminmax");
    if (self.dim() > 0) {
      if (self.size(d) == 0) {
        throw std::out_of_range("aminmax: Expected reduction dim " + std::to_string(d) +
                                " to have non-zero size.");
      }
      dims.push_back(d);
    }
  } else if (self.numel() == 0) {
    throw std::runtime_error(
        "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
        "identity.");
  }
  return {amin(self, dims, keepdim), amax(self, dims, keepdim)};
}

std::tuple<Tensor&, Tensor&> aminmax_out(const Tensor& self, std::optional<int64_t> dim,
                                         bool keepdim, Tensor& min, Tensor& max) {
  const auto [lo, hi] = aminmax(self, dim, keepdim);
  write_out("aminmax.out", lo, min);
  write_out("aminmax.out", hi, max);
  return {min, max};
}

}  // namespace native
}  // namespace gradgen
