#include "csrc/autograd/formulas_pool.h"

#include <optional>
#include <stdexcept>
#include <tuple>
#include <string>
#include <vector>

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t dim) {
  return view_as(gather(flatten(grad, -dim), -1, flatten(indices, -dim)), indices);
}

namespace {

/// gg (or a tangent) [V, D] at each maximum's row: [B, D], 0 for empty bags.
Tensor at_maxima(const Tensor& t, const Tensor& bag_size, const Tensor& maximum_indices) {
  const Tensor empty_bag = unsqueeze(eq(bag_size, 0), -1);
  return masked_fill(gather(t, 0, maximum_indices), empty_bag, 0);
}

}  // namespace

Tensor embedding_bag_jvp(const Tensor& weight_p, const Tensor& weight_t, const Tensor& indices,
                         const Tensor& offsets, const std::optional<Tensor>& per_sample_weights_p,
                         const Tensor& per_sample_weights_t, int64_t mode, bool include_last_offset,
                         int64_t padding_idx, const Tensor& bag_size,
                         const Tensor& maximum_indices) {
  Tensor out;
  if (weight_t.defined()) {
    out = mode == 2
              ? at_maxima(weight_t, bag_size, maximum_indices)
              : std::get<0>(_embedding_bag(weight_t, indices, offsets, false, mode, false,
                                           per_sample_weights_p, include_last_offset, padding_idx));
  }
  if (per_sample_weights_t.defined()) {
    const Tensor term =
        std::get<0>(_embedding_bag(weight_p, indices, offsets, false, 0, false,
                                   per_sample_weights_t, include_last_offset, padding_idx));
    out = out.defined() ? out + term : term;
  }
  return out;
}

Tensor _embedding_bag_backward_symint(const Tensor& grad, const Tensor& indices,
                                      const Tensor& offsets, const Tensor& offset2bag,
                                      const Tensor& bag_size, const Tensor& maximum_indices,
                                      int64_t num_weights, bool scale_grad_by_freq, int64_t mode,
                                      bool sparse, const std::optional<Tensor>& per_sample_weights,
                                      int64_t padding_idx) {
  (void)offsets;
  if (sparse) {
    throw std::invalid_argument(
        "_embedding_bag_backward: sparse gradients are not supported by gradgen");
  }
  if (scale_grad_by_freq) {
    throw std::invalid_argument(
        "_embedding_bag_backward: scale_grad_by_freq is not supported by gradgen's embedding_bag");
  }
  const Tensor zero = zeros({num_weights, grad.size(1)}, grad.scalar_type());
  if (mode == 2) {
    const Tensor g = masked_fill(grad, unsqueeze(eq(bag_size, 0), -1), 0);
    return scatter_add(zero, 0, maximum_indices, g);
  }
  Tensor rows = index_select(grad, 0, offset2bag);
  rows = masked_fill(rows, unsqueeze(eq(indices, padding_idx), -1), 0);
  if (mode == 1) {
    rows = rows / unsqueeze(clamp_min(index_select(bag_size, 0, offset2bag), 1), -1);
  }
  if (per_sample_weights.has_value() && per_sample_weights->defined()) {
    rows = rows * unsqueeze(*per_sample_weights, -1);
  }
  return index_add(zero, 0, indices, rows);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
