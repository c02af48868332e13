// nonzero_numpy: torch.nonzero(x, as_tuple=True)'s columns (PyTorch's composite: nonzero, then
// unbind along dim 1; a 0-dim self is taken as 1-D with one element), and where(condition), the
// same columns.
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"

namespace gradgen {
namespace native {

std::vector<Tensor> nonzero_numpy(const Tensor& self) {
  const Tensor x = self.dim() == 0 ? gradgen::unsqueeze(self, 0) : self;
  return gradgen::unbind(gradgen::nonzero(x), 1);
}

std::vector<Tensor> where(const Tensor& condition) { return gradgen::nonzero_numpy(condition); }

}  // namespace native
}  // namespace gradgen
