// Kernels of the CompositeImplicitAutograd ops: written with the differentiable
// API (gradgen::mm, gradgen::reshape, ...), so their gradients flow through the
// ops they call and they need no formula, as in PyTorch. Inside namespace
// gradgen::native every call is qualified `gradgen::` so that it reaches the
// differentiable op, not the kernel of the same name.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::in_composite_op;

Tensor matmul_impl(const Tensor& self, const Tensor& other) {
  const int64_t da = self.dim(), db = other.dim();
  auto fail = [&]() -> Tensor {
    throw std::invalid_argument("matmul: shapes " + shape_str(self.sizes()) + " and " +
                                shape_str(other.sizes()) + " cannot be multiplied");
  };
  if (da == 0 || db == 0) return fail();
  if (self.size(-1) != other.size(db == 1 ? -1 : -2)) return fail();
  if (da == 1 && db == 1) return gradgen::dot(self, other);  // as PyTorch's (DotBackward0)
  if (da == 2 && db == 2) return gradgen::mm(self, other);
  if (da == 2 && db == 1)
    return gradgen::squeeze(gradgen::mm(self, gradgen::unsqueeze(other, 1)), 1);
  if (da == 1 && db == 2)
    return gradgen::squeeze(gradgen::mm(gradgen::unsqueeze(self, 0), other), 0);
  if (da >= 3 && db <= 2) {
    // Fold the batch dims into the rows: one mm.
    const Tensor o = db == 1 ? gradgen::unsqueeze(other, 1) : other;
    const Tensor r = gradgen::mm(gradgen::reshape(self, {-1, self.size(-1)}), o);
    DimVector out_sizes(self.sizes().begin(), self.sizes().end() - 1);
    if (db == 2) out_sizes.push_back(other.size(1));
    return gradgen::reshape(r, out_sizes);
  }
  // Batched: broadcast the batch dims, then one bmm.
  const Tensor a = da == 1 ? gradgen::unsqueeze(self, 0) : self;
  const Tensor b = db == 1 ? gradgen::unsqueeze(other, 1) : other;
  const int64_t n = a.size(-2), k = a.size(-1), m = b.size(-1);
  const DimVector batch =
      loops::broadcast_shapes("matmul", IntArrayRef(a.sizes().data(), a.dim() - 2),
                              IntArrayRef(b.sizes().data(), b.dim() - 2));
  int64_t batch_numel = 1;
  for (int64_t s : batch) batch_numel *= s;
  DimVector a_shape = batch, b_shape = batch, out_shape = batch;
  a_shape.push_back(n);
  a_shape.push_back(k);
  b_shape.push_back(k);
  b_shape.push_back(m);
  out_shape.push_back(n);
  out_shape.push_back(m);
  const Tensor a3 = gradgen::reshape(gradgen::expand(a, a_shape), {batch_numel, n, k});
  const Tensor b3 = gradgen::reshape(gradgen::expand(b, b_shape), {batch_numel, k, m});
  Tensor r = gradgen::reshape(gradgen::bmm(a3, b3), out_shape);
  if (da == 1) r = gradgen::squeeze(r, -2);
  if (db == 1) r = gradgen::squeeze(r, -1);
  return r;
}

// Class-probability targets (a floating target of self's shape), as PyTorch's
// cross_entropy_loss_prob_target: -sum_c w_c t_c log_softmax(self)_c per sample, the targets
// smoothed towards 1/C; Mean divides by the number of samples (not by the weights).
Tensor cross_entropy_probabilities(const Tensor& self, const Tensor& target,
                                   const std::optional<Tensor>& weight, int64_t reduction,
                                   double label_smoothing) {
  if (!target.sizes().equals(self.sizes())) {
    throw std::invalid_argument(
        "cross_entropy_loss: expected a target of self's shape for class probabilities, got " +
        shape_str(target.sizes()) + " and self " + shape_str(self.sizes()));
  }
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t classes = self.size(class_dim);
  const Tensor t =
      label_smoothing > 0 ? target * (1 - label_smoothing) + label_smoothing / classes : target;
  Tensor terms = gradgen::log_softmax(self, class_dim) * t;
  if (weight.has_value() && weight->defined()) {
    if (weight->dim() != 1 || weight->size(0) != classes) {
      throw std::invalid_argument("cross_entropy_loss: expected weight of shape [" +
                                  std::to_string(classes) + "], got " + shape_str(weight->sizes()));
    }
    DimVector w_shape(static_cast<size_t>(self.dim() - class_dim), 1);  // [C, 1, ..., 1]
    w_shape[0] = classes;
    terms = terms * gradgen::reshape(*weight, w_shape);
  }
  const Tensor per_sample = -gradgen::sum(terms, {class_dim});
  if (reduction == Reduction::None) return per_sample;
  if (reduction == Reduction::Sum) return gradgen::sum(per_sample);
  return gradgen::sum(per_sample) /
         static_cast<double>(self.numel() / std::max<int64_t>(classes, 1));
}

Tensor cross_entropy_loss_impl(const Tensor& self, const Tensor& target,
                               const std::optional<Tensor>& weight, int64_t reduction,
                               int64_t ignore_index, double label_smoothing) {
  if (self.dim() == 0) {
    throw std::invalid_argument(
        "cross_entropy_loss: expected self of shape [C], [N, C] or [N, C, d1, ..., dK], got []");
  }
  if (!(label_smoothing >= 0 && label_smoothing <= 1)) {
    throw std::invalid_argument("cross_entropy_loss: label_smoothing must be in [0, 1], got " +
                                std::to_string(label_smoothing));
  }
  if (is_floating_point(target.scalar_type())) {
    return cross_entropy_probabilities(self, target, weight, reduction, label_smoothing);
  }
  if (self.dim() > 2) {
    // K-dimensional: [N, C, d1, ..., dK] with a target [N, d1, ..., dK] is the batch of the
    // N * d1 * ... * dK rows [.., C] (the class dim moved last); None reshapes back.
    const IntArrayRef spatial(self.sizes().data() + 2, self.sizes().size() - 2);
    const bool ok =
        target.dim() == self.dim() - 1 && target.size(0) == self.size(0) &&
        IntArrayRef(target.sizes().data() + 1, target.sizes().size() - 1).equals(spatial);
    if (!ok) {
      throw std::invalid_argument("cross_entropy_loss: expected target of shape [" +
                                  std::to_string(self.size(0)) + ", " +
                                  shape_str(spatial).substr(1) + " for self of shape " +
                                  shape_str(self.sizes()) + ", got " + shape_str(target.sizes()));
    }
    DimVector perm{0};
    for (int64_t d = 2; d < self.dim(); ++d) perm.push_back(d);
    perm.push_back(1);
    const Tensor rows = gradgen::reshape(gradgen::permute(self, perm), {-1, self.size(1)});
    const Tensor loss = cross_entropy_loss_impl(rows, gradgen::reshape(target, {-1}), weight,
                                                reduction, ignore_index, label_smoothing);
    return reduction == Reduction::None ? gradgen::reshape(loss, target.sizes()) : loss;
  }
  const int64_t class_dim = self.dim() - 1;
  const Tensor log_probs = gradgen::log_softmax(self, class_dim);
  const Tensor nll = gradgen::nll_loss(log_probs, target, weight, reduction, ignore_index);
  if (label_smoothing == 0) return nll;
  // PyTorch's label smoothing: mix in the mean (weighted) negative log-probability
  // of every class; ignored targets contribute nothing. The masks and the
  // normalizer are constants of the loss.
  const bool has_weight = weight.has_value() && weight->defined();
  const int64_t classes = self.size(class_dim);
  const Tensor smooth_per_sample =
      -gradgen::sum(has_weight ? log_probs * *weight : log_probs, {class_dim});
  Tensor ignored = zeros(target.sizes(), ScalarType::Bool);
  double normalizer = 0;
  {
    const Tensor tg = target.contiguous();
    const int64_t* pt = tg.data_ptr<int64_t>();
    bool* pi = ignored.data_ptr<bool>();
    const Tensor w =
        has_weight
            ? native::to(*weight, ScalarType::Double, false, false, std::nullopt).contiguous()
            : Tensor();
    for (int64_t i = 0; i < tg.numel(); ++i) {
      pi[i] = pt[i] == ignore_index;
      if (!pi[i]) normalizer += has_weight ? w.data_ptr<double>()[pt[i] * w.stride(0)] : 1.0;
    }
  }
  const Tensor smooth = gradgen::masked_fill(smooth_per_sample, ignored, 0);
  Tensor reduced;
  if (reduction == Reduction::None) {
    reduced = smooth;
  } else if (reduction == Reduction::Sum) {
    reduced = gradgen::sum(smooth);
  } else {
    reduced = gradgen::sum(smooth) / normalizer;
  }
  return (1 - label_smoothing) * nll + reduced * (label_smoothing / classes);
}

}  // namespace

// Errors of the ops a composite calls name the composite first (csrc/util/op_context.h).

Tensor matmul(const Tensor& self, const Tensor& other) {
  return in_composite_op("matmul", [&] { return matmul_impl(self, other); });
}

Tensor cross_entropy_loss(const Tensor& self, const Tensor& target,
                          const std::optional<Tensor>& weight, int64_t reduction,
                          int64_t ignore_index, double label_smoothing) {
  return in_composite_op("cross_entropy_loss", [&] {
    return cross_entropy_loss_impl(self, target, weight, reduction, ignore_index, label_smoothing);
  });
}

Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                   int64_t reduction, int64_t ignore_index) {
  if (self.dim() < 1) {
    throw std::invalid_argument("nll_loss_nd: input tensor should be 1D or more, got []");
  }
  loops::check_nll_loss_target("nll_loss_nd", self, target);
  return in_composite_op("nll_loss_nd", [&] {
    if (self.dim() <= 2) return gradgen::nll_loss(self, target, weight, reduction, ignore_index);
    if (self.dim() == 4) return gradgen::nll_loss2d(self, target, weight, reduction, ignore_index);
    // As PyTorch: [N, C, d1, ..., dK] as the image [N, C, 1, d1 * ... * dK].
    const int64_t n = self.size(0), c = self.size(1);
    const int64_t spatial = n == 0 || c == 0 ? 0 : self.numel() / (n * c);
    const Tensor loss = gradgen::nll_loss2d(gradgen::reshape(self, {n, c, 1, spatial}),
                                            gradgen::reshape(target, {n, 1, spatial}), weight,
                                            reduction, ignore_index);
    return reduction == Reduction::None ? gradgen::reshape(loss, target.sizes()) : loss;
  });
}

Tensor dropout(const Tensor& input, double p, bool train, std::optional<Generator> generator) {
  if (!train || p == 0) return input;
  return in_composite_op("dropout", [&] {
    return std::get<0>(gradgen::native_dropout(input, p, train, generator));
  });
}

}  // namespace native
}  // namespace gradgen
