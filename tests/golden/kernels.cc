// Kernels of the golden spec (float64; gradgen's own kernels do the arithmetic) and its formula
// helpers (helpers.h).

#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/ops.h"
#include "tests/golden/generated/NativeFunctions.h"
#include "tests/golden/helpers.h"

namespace golden {
namespace native {

using gradgen::Tensor;

Tensor foo(const Tensor& self) { return gradgen::native::exp(self); }

Tensor& foo_(Tensor& self) { return gradgen::native::exp_(self); }

Tensor& foo_out(const Tensor& self, Tensor& out) {
  if (out.sizes().vec() != self.sizes().vec() || !out.is_contiguous()) {
    throw std::invalid_argument("foo.out: out must be contiguous, of the shape of self; got " +
                                gradgen::shape_str(out.sizes()) + " and " +
                                gradgen::shape_str(self.sizes()));
  }
  Tensor r = gradgen::native::exp(self).contiguous();
  for (int64_t i = 0; i < r.numel(); ++i) out.data_ptr<double>()[i] = r.data_ptr<double>()[i];
  return out;
}

std::tuple<Tensor, Tensor> scaled_and_squared(const Tensor& self, double alpha) {
  return {gradgen::native::mul(self, alpha), gradgen::native::mul(self, self)};
}

Tensor weighted_sum(gradgen::TensorList tensors, gradgen::ArrayRef<double> weights) {
  if (tensors.empty() || tensors.size() != weights.size()) {
    throw std::invalid_argument(
        "weighted_sum: expected as many weights as tensors (at least one), got " +
        std::to_string(weights.size()) + " and " + std::to_string(tensors.size()));
  }
  Tensor out = gradgen::native::mul(tensors[0], weights[0]);
  for (size_t i = 1; i < tensors.size(); ++i) {
    out = gradgen::native::add(out, gradgen::native::mul(tensors[i], weights[i]), 1);
  }
  return out;
}

Tensor prod_all(gradgen::TensorList tensors) {
  if (tensors.empty()) throw std::invalid_argument("prod_all: expected at least one tensor");
  Tensor out = gradgen::native::clone(tensors[0], std::nullopt);
  for (size_t i = 1; i < tensors.size(); ++i) out = gradgen::native::mul(out, tensors[i]);
  return out;
}

Tensor maybe_mul(const Tensor& self, const std::optional<Tensor>& weight) {
  if (weight.has_value() && weight->defined()) return gradgen::native::mul(self, *weight);
  return gradgen::native::clone(self, std::nullopt);
}

Tensor mul_pair(const Tensor& self, const Tensor& other) {
  return gradgen::native::mul(self, other);
}

Tensor cube(const Tensor& self) {
  return gradgen::native::mul(gradgen::native::mul(self, self), self);
}

std::vector<Tensor> _foreach_foo(gradgen::TensorList self) {
  std::vector<Tensor> out;
  for (const Tensor& t : self) out.push_back(gradgen::native::exp(t));
  return out;
}

}  // namespace native

namespace helpers {

using gradgen::Tensor;

namespace {

void check_sizes(const char* what, gradgen::IntArrayRef saved, const Tensor& t) {
  if (saved.vec() != t.sizes().vec()) {
    throw std::logic_error(std::string(what) + ": saved sizes " + gradgen::shape_str(saved) +
                           " are not the output's " + gradgen::shape_str(t.sizes()));
  }
}

bool retain_variables_seen = false;

}  // namespace

Tensor foo_backward(const Tensor& grad, gradgen::IntArrayRef result_sizes, const Tensor& result) {
  check_sizes("foo_backward", result_sizes, result);
  return grad * result;
}

Tensor scaled_and_squared_backward(const Tensor& grad0, const Tensor& grad1,
                                   gradgen::IntArrayRef result0_sizes, const Tensor& self,
                                   double alpha) {
  if (grad0.defined()) check_sizes("scaled_and_squared_backward", result0_sizes, grad0);
  Tensor out = gradgen::zeros_like(self);
  if (grad0.defined()) out = out + grad0 * alpha;
  if (grad1.defined()) out = out + 2 * self * grad1;
  return out;
}

std::vector<Tensor> weighted_sum_backward(const Tensor& grad, gradgen::ArrayRef<double> weights,
                                          const std::vector<std::vector<int64_t>>& sizes) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < sizes.size(); ++i) {
    check_sizes("weighted_sum_backward", sizes[i], grad);
    out.push_back(grad * weights[i]);
  }
  return out;
}

std::vector<Tensor> prod_all_backward(const Tensor& grad, const std::vector<Tensor>& tensors,
                                      const Tensor& result) {
  check_sizes("prod_all_backward", result.sizes(), grad);
  std::vector<Tensor> out;
  for (size_t i = 0; i < tensors.size(); ++i) {
    Tensor g = grad;
    for (size_t j = 0; j < tensors.size(); ++j) {
      if (j != i) g = g * tensors[j];
    }
    out.push_back(g);
  }
  return out;
}

Tensor wrap_opt_if(const Tensor& t, bool cond) { return cond ? t : Tensor(); }

std::tuple<Tensor, Tensor> mul_pair_backward(const Tensor& grad, const Tensor& self,
                                             const Tensor& other, std::array<bool, 2> mask) {
  if ((mask[0] && !other.defined()) || (mask[1] && !self.defined())) {
    throw std::logic_error("mul_pair_backward: a value the formula needs was not saved");
  }
  return {mask[0] ? grad * other : Tensor(), mask[1] ? grad * self : Tensor()};
}

Tensor cube_backward(const Tensor& grad, const Tensor& self, bool retain_variables) {
  retain_variables_seen = retain_variables;
  return 3 * self * self * grad;
}

bool last_retain_variables() { return retain_variables_seen; }

}  // namespace helpers
}  // namespace golden
