// Norms and distances (nn, third batch): the kernel of norm.ScalarOpt_dim (the p-norm over
// dims), and the composites cosine_similarity, pairwise_distance and one_hot, written as
// PyTorch's (aten/src/ATen/native/Distance.cpp, Onehot.cpp) with the differentiable API, so their
// gradients come from the ops they call.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

using gradgen::internal::in_composite_op;

Tensor norm(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim, bool keepdim) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(norm, self, p, dim, keepdim);
  const char* op = "norm";
  if (!is_floating_point(self.scalar_type())) {
    throw std::invalid_argument(
        "linalg.vector_norm: Expected a floating point or complex tensor as input. Got " +
        std::string(to_string(self.scalar_type())));
  }
  const double ord = p.has_value() ? p->to_double() : 2.0;
  const DimVector dims = loops::reduction_dims(op, dim, self.dim());
  if (ord < 0 || std::isinf(ord)) {
    for (int64_t d : dims) {
      if (self.size(d) == 0) {
        throw std::invalid_argument(
            "linalg.vector_norm cannot compute the " + p->to_string() +
            " norm on the selected dimension because the dimension is empty");
      }
    }
  }
  Tensor out;
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const double init = ord == -std::numeric_limits<double>::infinity()
                            ? std::numeric_limits<double>::infinity()
                            : 0.0;
    out = loops::reduce<T, double, T>(
        op, self, dims, keepdim, self.scalar_type(), init,
        [ord](double a, T x) {
          const double v = std::abs(static_cast<double>(x));
          if (ord == 2.0) return a + v * v;
          if (ord == 1.0) return a + v;
          if (ord == 0.0) return a + (v != 0 ? 1.0 : 0.0);
          // NaN wins, and stays: it compares false with everything.
          if (std::isinf(ord)) return (std::isnan(v) || (ord > 0 ? v > a : v < a)) ? v : a;
          return a + std::pow(v, ord);
        },
        [ord](double a) {
          if (ord == 2.0) return static_cast<T>(std::sqrt(a));
          if (ord == 0.0 || ord == 1.0 || std::isinf(ord)) return static_cast<T>(a);
          return static_cast<T>(std::pow(a, 1.0 / ord));
        });
  });
  return out;
}

Tensor cosine_similarity(const Tensor& x1_, const Tensor& x2_, int64_t dim, double eps) {
  return in_composite_op("cosine_similarity", [&] {
    const ScalarType common = result_type(x1_, x2_);
    if (!is_floating_point(common)) {
      throw std::invalid_argument(
          "expected common dtype to be floating point, yet common dtype is " +
          std::string(to_string(common)));
    }
    const DimVector shape = loops::broadcast_shapes("cosine_similarity", x1_.sizes(), x2_.sizes());
    const Tensor x1 = gradgen::expand(gradgen::to(x1_, common), shape);
    const Tensor x2 = gradgen::expand(gradgen::to(x2_, common), shape);
    // Each divided by its norm first (the result stays in [-1, 1]); the norm is clamped to eps
    // in value only, as PyTorch's clamp_min_ under NoGradGuard: the gradient is the norm's.
    const std::vector<int64_t> dims{dim};
    auto clamped_norm = [&](const Tensor& x) {
      const Tensor n = gradgen::norm(x, Scalar(2.0), IntArrayRef(dims), true);
      return n + (gradgen::clamp_min(n, eps) - n).detach();
    };
    return gradgen::sum((x1 / clamped_norm(x1)) * (x2 / clamped_norm(x2)), IntArrayRef(dims),
                        false);
  });
}

Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  return in_composite_op("pairwise_distance", [&] {
    // Either may be broadcast: the last dim of the larger.
    const int64_t innermost = std::max(x1.dim(), x2.dim()) - 1;
    const std::vector<int64_t> dims{innermost};
    return gradgen::norm(x1 - x2 + eps, Scalar(p), IntArrayRef(dims), keepdim);
  });
}

Tensor one_hot(const Tensor& self, int64_t num_classes) {
  return in_composite_op("one_hot", [&] {
    if (self.scalar_type() != ScalarType::Long) {
      throw std::invalid_argument("one_hot is only applicable to index tensor of type LongTensor.");
    }
    DimVector shape(self.sizes().begin(), self.sizes().end());
    if (self.numel() == 0) {
      if (num_classes <= 0) {
        throw std::invalid_argument("Can not infer total number of classes from empty tensor.");
      }
      shape.push_back(num_classes);
      return gradgen::zeros(shape, ScalarType::Long);
    }
    const Tensor x = self.contiguous();
    const int64_t* px = x.data_ptr<int64_t>();
    int64_t lo = px[0], hi = px[0];
    for (int64_t i = 1; i < x.numel(); ++i) {
      lo = std::min(lo, px[i]);
      hi = std::max(hi, px[i]);
    }
    if (lo < 0) throw std::invalid_argument("Class values must be non-negative.");
    if (num_classes == -1) {
      num_classes = hi + 1;
    } else if (num_classes <= hi) {
      throw std::invalid_argument("Class values must be smaller than num_classes.");
    }
    shape.push_back(num_classes);
    Tensor out = gradgen::zeros(shape, ScalarType::Long);
    int64_t* po = out.data_ptr<int64_t>();
    for (int64_t i = 0; i < x.numel(); ++i) po[i * num_classes + px[i]] = 1;
    return out;
  });
}

}  // namespace native
}  // namespace gradgen
