// Kernels of the flagtest spec (float64, contiguous 1-D inputs) and its formula helper.

#include <stdexcept>
#include <string>

#include "tests/flags/generated/NativeFunctions.h"
#include "tests/flags/helpers.h"

namespace flagtest {
namespace native {
namespace {

gradgen::Tensor scaled(const gradgen::Tensor& self, double factor) {
  gradgen::Tensor in = self.contiguous();
  gradgen::Tensor out = gradgen::empty(in.sizes());
  const double* x = in.data_ptr<double>();
  double* y = out.data_ptr<double>();
  for (int64_t i = 0; i < in.numel(); ++i) y[i] = factor * x[i];
  return out;
}

}  // namespace

gradgen::Tensor scale(const gradgen::Tensor& self, double factor) { return scaled(self, factor); }

gradgen::Tensor quiet_scale(const gradgen::Tensor& self, double factor) {
  return scaled(self, factor);
}

gradgen::Tensor sign_of(const gradgen::Tensor& self) {
  gradgen::Tensor in = self.contiguous();
  gradgen::Tensor out = gradgen::empty(in.sizes());
  const double* x = in.data_ptr<double>();
  double* y = out.data_ptr<double>();
  for (int64_t i = 0; i < in.numel(); ++i) y[i] = (x[i] > 0) - (x[i] < 0);
  return out;
}

gradgen::Tensor& scale_out(const gradgen::Tensor& self, double factor, gradgen::Tensor& out) {
  if (out.sizes().vec() != self.sizes().vec()) {
    throw std::invalid_argument("scale.out: out must have the shape of self, got " +
                                gradgen::shape_str(out.sizes()) + " and " +
                                gradgen::shape_str(self.sizes()));
  }
  gradgen::Tensor in = self.contiguous();
  const double* x = in.data_ptr<double>();
  double* y = out.data_ptr<double>();
  for (int64_t i = 0; i < in.numel(); ++i) y[i] = factor * x[i];
  return out;
}

std::tuple<gradgen::Tensor, gradgen::Tensor> split_halves(const gradgen::Tensor& self) {
  gradgen::Tensor in = self.contiguous();
  const int64_t half = in.numel() / 2;
  gradgen::Tensor a = gradgen::empty({half});
  gradgen::Tensor b = gradgen::empty({in.numel() - half});
  const double* x = in.data_ptr<double>();
  for (int64_t i = 0; i < half; ++i) a.data_ptr<double>()[i] = x[i];
  for (int64_t i = half; i < in.numel(); ++i) b.data_ptr<double>()[i - half] = x[i];
  return {a, b};
}

}  // namespace native

namespace helpers {

gradgen::Tensor join_halves(const gradgen::Tensor& grad_first, const gradgen::Tensor& grad_second,
                            gradgen::IntArrayRef self_sizes) {
  gradgen::Tensor out = gradgen::zeros(self_sizes);
  const int64_t half = out.numel() / 2;
  double* y = out.data_ptr<double>();
  if (grad_first.defined()) {
    gradgen::Tensor g = grad_first.contiguous();
    for (int64_t i = 0; i < half; ++i) y[i] = g.data_ptr<double>()[i];
  }
  if (grad_second.defined()) {
    gradgen::Tensor g = grad_second.contiguous();
    for (int64_t i = half; i < out.numel(); ++i) y[i] = g.data_ptr<double>()[i - half];
  }
  return out;
}

}  // namespace helpers
}  // namespace flagtest
