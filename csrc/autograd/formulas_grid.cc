#include "csrc/autograd/formulas_grid.h"

#include "csrc/autograd/basic_ops.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

std::tuple<Tensor, Tensor, Tensor> grid_sampler_2d_double_backward(
    const Tensor& ggI, const Tensor& ggG, const Tensor& grad_output, const Tensor& input,
    const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
    std::array<bool, 3> grad_input_mask) {
  if (!ggI.defined() && !ggG.defined()) return {};
  auto [d_go, d_in, d_grid] =
      native::grid_sampler_2d_double_backward_kernel(ggI.defined() ? ggI.detach() : Tensor(),
                                                     ggG.defined() ? ggG.detach() : Tensor(),
                                                     grad_output.detach(), input.detach(),
                                                     grid.detach(), interpolation_mode,
                                                     padding_mode, align_corners);
  const char* what = "grid_sampler_2d_backward's gradient (grid_sampler_2d_double_backward)";
  std::vector<Tensor> inputs{grad_output, input, grid};
  if (ggI.defined()) inputs.push_back(ggI);
  if (ggG.defined()) inputs.push_back(ggG);
  for (Tensor* t : {&d_go, &d_in, &d_grid}) mark_not_twice_differentiable(*t, what, inputs);
  return {grad_input_mask[0] ? d_go : Tensor(), grad_input_mask[1] ? d_in : Tensor(),
          grad_input_mask[2] ? d_grid : Tensor()};
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
