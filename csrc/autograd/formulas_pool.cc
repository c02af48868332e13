#include "csrc/autograd/formulas_pool.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t dim) {
  return view_as(gather(flatten(grad, -dim), -1, flatten(indices, -dim)), indices);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
