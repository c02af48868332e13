// multilabel_margin_loss (nn, third batch): the kernels of multilabel_margin_loss_forward /
// multilabel_margin_loss_backward and the composite multilabel_margin_loss (cosine_embedding_loss
// and triplet_margin_loss are in composite_nn.cc). A multilabel target row lists class indices up
// to its first -1; sample n's loss is the sum over its targets j and the other classes c of
// max(0, 1 - (x[j] - x[c])), divided by the number of classes.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
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

namespace {

using gradgen::internal::in_composite_op;

/// multilabel_margin_loss's frames and classes, its arguments checked as PyTorch's
/// multilabel_margin_loss_shape_check.
struct Multilabel {
  int64_t frames, classes;
};

Multilabel multilabel_shape(const char* op, const Tensor& self, const Tensor& target) {
  const int64_t nd = self.dim();
  if (!((nd == 2 && self.size(1) != 0) || (nd == 1 && self.size(0) != 0) || nd == 0)) {
    throw std::invalid_argument(std::string(op) +
                                ": Expected non-empty vector or matrix with optional 0-dim batch "
                                "size, but got: " +
                                shape_str(self.sizes()));
  }
  Multilabel m;
  m.frames = nd <= 1 ? 1 : self.size(0);
  m.classes = nd == 0 ? 1 : self.size(nd - 1);
  const bool ok =
      nd <= 1 ? target.dim() <= 1 && target.numel() == m.classes
              : target.dim() == 2 && target.size(0) == m.frames && target.size(1) == m.classes;
  if (!ok) {
    throw std::invalid_argument(std::string(op) +
                                ": inconsistent target size: " + shape_str(target.sizes()) +
                                " for input of size: " + shape_str(self.sizes()));
  }
  if (target.scalar_type() != ScalarType::Long) {
    throw std::invalid_argument(std::string(op) + ": expected a Long target, got " +
                                to_string(target.scalar_type()));
  }
  if (!is_floating_point(self.scalar_type())) {
    throw std::invalid_argument(std::string(op) + ": expected a floating point input, got " +
                                to_string(self.scalar_type()));
  }
  return m;
}

/// is_target (0 / 1 per class) from the target rows, each read up to its first -1.
std::vector<char> multilabel_targets(const char* op, const int64_t* pt, const Multilabel& m) {
  std::vector<char> is_target(static_cast<size_t>(m.frames * m.classes), 0);
  for (int64_t n = 0; n < m.frames; ++n) {
    for (int64_t j = 0; j < m.classes; ++j) {
      const int64_t t = pt[n * m.classes + j];
      if (t < 0) break;
      if (t >= m.classes) {
        throw std::out_of_range(std::string(op) + ": target index " + std::to_string(t) +
                                " is out of bounds for " + std::to_string(m.classes) + " classes");
      }
      is_target[n * m.classes + t] = 1;
    }
  }
  return is_target;
}

}  // namespace

std::tuple<Tensor, Tensor> multilabel_margin_loss_forward(const Tensor& self, const Tensor& target,
                                                          int64_t reduction) {
  refuse_reduced_float("multilabel_margin_loss_forward_out_frame", self);  // as PyTorch's
  const char* op = "multilabel_margin_loss_forward";
  const Multilabel m = multilabel_shape(op, self, target);
  if (reduction < Reduction::None || reduction > Reduction::Sum) {
    throw std::invalid_argument(std::string(op) + ": " + std::to_string(reduction) +
                                " is not a valid value for reduction (0 None, 1 Mean, 2 Sum)");
  }
  const Tensor x = self.contiguous(), t = target.contiguous();
  const std::vector<char> is_t = multilabel_targets(op, t.data_ptr<int64_t>(), m);
  const int64_t* pt = t.data_ptr<int64_t>();
  Tensor output = reduction == Reduction::None && self.dim() == 2
                      ? make_tensor({m.frames}, self.scalar_type())
                      : make_tensor(IntArrayRef(), self.scalar_type());
  Tensor is_target = make_tensor(target.sizes(), self.scalar_type());
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* pi = is_target.data_ptr<T>();
    for (size_t i = 0; i < is_t.size(); ++i) pi[i] = static_cast<T>(is_t[i]);
    double total = 0;
    for (int64_t n = 0; n < m.frames; ++n) {
      const T* row = px + n * m.classes;
      double sum = 0;
      for (int64_t j = 0; j < m.classes; ++j) {
        const int64_t tj = pt[n * m.classes + j];
        if (tj < 0) break;
        for (int64_t c = 0; c < m.classes; ++c) {
          if (is_t[n * m.classes + c]) continue;
          const double z = 1.0 - static_cast<double>(row[tj]) + static_cast<double>(row[c]);
          if (z > 0) sum += z;
        }
      }
      sum /= static_cast<double>(m.classes);
      if (reduction == Reduction::None && self.dim() == 2) {
        output.data_ptr<T>()[n] = static_cast<T>(sum);
      }
      total += sum;
    }
    if (reduction == Reduction::Mean) total /= static_cast<double>(m.frames);
    if (!(reduction == Reduction::None && self.dim() == 2)) {
      output.data_ptr<T>()[0] = static_cast<T>(total);
    }
  });
  return {output, is_target};
}

Tensor multilabel_margin_loss_backward(const Tensor& grad_output, const Tensor& self,
                                       const Tensor& target, int64_t reduction,
                                       const Tensor& is_target) {
  refuse_reduced_float("multilabel_margin_loss_backward_out_frame", self);  // as PyTorch's
  const char* op = "multilabel_margin_loss_backward";
  const Multilabel m = multilabel_shape(op, self, target);
  const bool per_frame = reduction == Reduction::None && self.dim() == 2;
  if (per_frame ? grad_output.numel() != m.frames : grad_output.numel() != 1) {
    throw std::invalid_argument(std::string(op) + ": expected grad_output of " +
                                std::to_string(per_frame ? m.frames : 1) + " elements, got " +
                                shape_str(grad_output.sizes()));
  }
  if (!is_target.sizes().equals(target.sizes())) {
    throw std::invalid_argument(std::string(op) + ": expected is_target of size " +
                                shape_str(target.sizes()) + ", got " +
                                shape_str(is_target.sizes()));
  }
  const Tensor x = self.contiguous(), t = target.contiguous();
  const Tensor go = cast(grad_output, self.scalar_type()).contiguous();
  const Tensor it = cast(is_target, self.scalar_type()).contiguous();
  const int64_t* pt = t.data_ptr<int64_t>();
  Tensor gi = zeros(self.sizes(), self.scalar_type());
  gradgen::internal::dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T *px = x.data_ptr<T>(), *pg = go.data_ptr<T>(), *pit = it.data_ptr<T>();
    T* pgi = gi.data_ptr<T>();
    const double scale = reduction == Reduction::Mean ? 1.0 / static_cast<double>(m.frames) : 1.0;
    for (int64_t n = 0; n < m.frames; ++n) {
      const T* row = px + n * m.classes;
      T* grow = pgi + n * m.classes;
      const double g =
          static_cast<double>(pg[per_frame ? n : 0]) * scale / static_cast<double>(m.classes);
      for (int64_t j = 0; j < m.classes; ++j) {
        const int64_t tj = pt[n * m.classes + j];
        if (tj < 0) break;
        for (int64_t c = 0; c < m.classes; ++c) {
          if (pit[n * m.classes + c] != T(0)) continue;
          const double z = 1.0 - static_cast<double>(row[tj]) + static_cast<double>(row[c]);
          if (z > 0) {
            grow[tj] -= static_cast<T>(g);
            grow[c] += static_cast<T>(g);
          }
        }
      }
    }
  });
  return gi;
}

Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  refuse_reduced_float("multilabel_margin_loss_forward_out_frame", self);  // PyTorch's words alone
  return in_composite_op("multilabel_margin_loss", [&] {
    return std::get<0>(gradgen::multilabel_margin_loss_forward(self, target, reduction));
  });
}

}  // namespace native
}  // namespace gradgen
