#include "csrc/autograd/formulas.h"

#include <stdexcept>
#include <string>

#include "csrc/autograd/basic_ops.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"
#include "csrc/generated/VariableType.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

std::vector<Tensor> cat_tensors_backward(const Tensor& grad,
                                         const std::vector<std::vector<int64_t>>& sizes,
                                         int64_t dim) {
  if (sizes.empty()) return {};
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes[0].size()), "cat_tensors_backward");
  std::vector<Tensor> grads;
  grads.reserve(sizes.size());
  int64_t offset = 0;
  for (const std::vector<int64_t>& shape : sizes) {
    const int64_t length = shape[d];
    grads.push_back(gradgen::narrow(grad, d, offset, length));
    offset += length;
  }
  return grads;
}

Tensor narrow_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, int64_t start,
                       int64_t length) {
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(self_sizes.size()), "narrow_backward");
  const int64_t size = self_sizes[d];
  const int64_t begin = start < 0 ? start + size : start;
  const int64_t after = size - begin - length;
  if (begin == 0 && after == 0) return grad;
  std::vector<Tensor> pieces;
  DimVector pad_sizes(self_sizes.begin(), self_sizes.end());
  if (begin > 0) {
    pad_sizes[d] = begin;
    pieces.push_back(zeros(pad_sizes, grad.scalar_type()));
  }
  pieces.push_back(grad);
  if (after > 0) {
    pad_sizes[d] = after;
    pieces.push_back(zeros(pad_sizes, grad.scalar_type()));
  }
  return gradgen::cat(pieces, d);
}

std::vector<Tensor> lincomb_tensors_backward(const Tensor& grad, const Tensor& coeffs, size_t n) {
  std::vector<Tensor> grads;
  grads.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    // coeffs[i] * grad, as a one-term linear combination.
    const Tensor coeff = gradgen::narrow(coeffs, 0, static_cast<int64_t>(i), 1);
    grads.push_back(gradgen::lincomb({grad}, coeff));
  }
  return grads;
}

Tensor lincomb_coeffs_backward(const Tensor& grad, const std::vector<Tensor>& tensors) {
  const int64_t n = static_cast<int64_t>(tensors.size());
  Tensor result = zeros({n}, grad.scalar_type());
  const char* op = "lincomb_coeffs_backward";
  gradgen::internal::dispatch_floating(grad.scalar_type(), op, [&](auto tag) {
    using scalar_t = decltype(tag);
    const Tensor g = grad.contiguous();
    const scalar_t* gp = g.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    for (int64_t i = 0; i < n; ++i) {
      const Tensor x = tensors[i].contiguous();
      if (!x.sizes().equals(g.sizes())) {
        throw std::invalid_argument("lincomb_coeffs_backward: expected tensors[" +
                                    std::to_string(i) + "] of the gradient's shape " +
                                    shape_str(g.sizes()) + ", got " + shape_str(x.sizes()));
      }
      const scalar_t* xp = x.data_ptr<scalar_t>();
      scalar_t sum = 0;
      for (int64_t j = 0; j < g.numel(); ++j) sum += gp[j] * xp[j];
      out[i] = sum;
    }
  });
  // Plain loops record no history: make a double backward through it fail loudly.
  if (GradMode::is_enabled()) {
    std::vector<Tensor> inputs;
    inputs.reserve(tensors.size() + 1);
    inputs.push_back(grad);
    inputs.insert(inputs.end(), tensors.begin(), tensors.end());
    mark_not_twice_differentiable(result, "lincomb_coeffs_backward", inputs);
  }
  return result;
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
