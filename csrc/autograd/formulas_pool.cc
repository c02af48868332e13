#include "csrc/autograd/formulas_pool.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  const int64_t nd = self.dim();
  if (nd == 0) return reshape(self, {1});
  if (start_dim < 0) start_dim += nd;
  if (end_dim < 0) end_dim += nd;
  if (start_dim < 0 || end_dim >= nd || start_dim > end_dim) {
    throw std::out_of_range("flatten: dims (" + std::to_string(start_dim) + ", " +
                            std::to_string(end_dim) + ") out of range for a tensor of " +
                            std::to_string(nd) + " dims");
  }
  std::vector<int64_t> shape;
  int64_t merged = 1;
  for (int64_t d = 0; d < nd; ++d) {
    if (d < start_dim || d > end_dim) {
      shape.push_back(self.size(d));
    } else {
      merged *= self.size(d);
      if (d == end_dim) shape.push_back(merged);
    }
  }
  return reshape(self, IntArrayRef(shape));
}

Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t dim) {
  return view_as(gather(flatten(grad, -dim), -1, flatten(indices, -dim)), indices);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
