// searchsorted and bucketize, fourth batch (issue 23): the index of each value of self in a
// sorted sequence, by PyTorch's binary search (left: the first element not below the value,
// right: the first above it; both written with PyTorch's comparisons, so NaN values land at the
// end), through `sorter` when given. Int64 results, int32 with out_int32=True (an out= tensor
// must have that dtype, as PyTorch checks); the values are compared as doubles. No gradient
// (DONT_REQUIRE_DERIVATIVE).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

// The element i of t (contiguous) as a double.
double at(const Tensor& t, int64_t i) {
  double v = 0;
  internal::dispatch_all(t.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    v = static_cast<double>(t.data_ptr<T>()[i]);
  });
  return v;
}

std::string dims_of(const Tensor& t) { return shape_str(t.sizes()); }

bool effective_right(bool right, std::optional<std::string_view> side) {
  if (!side.has_value()) return right;
  if (*side != "left" && *side != "right") {
    throw std::runtime_error("searchsorted(): side can only be 'left' or 'right' but got " +
                             std::string(*side));
  }
  if (right && *side == "left") {
    throw std::runtime_error(
        "searchsorted(): side and right can't be set to opposites, got side of left while right "
        "was True");
  }
  return *side == "right";
}

void check_args(const Tensor& seq, const Tensor& self, const std::optional<Tensor>& sorter) {
  if (seq.dim() == 0) {
    throw std::runtime_error(
        "searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension");
  }
  bool leading_match = seq.dim() == self.dim() && self.dim() > 0;
  for (int64_t d = 0; leading_match && d + 1 < seq.dim(); ++d) {
    leading_match = seq.size(d) == self.size(d);
  }
  if (seq.dim() != 1 && !leading_match) {
    throw std::runtime_error(
        "searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
        "boundaries tensor and input value tensor must match, but we got boundaries tensor " +
        dims_of(seq) + " and input value tensor " + dims_of(self));
  }
  if (sorter.has_value() && sorter->defined()) {
    if (sorter->scalar_type() != ScalarType::Long) {
      throw std::runtime_error("searchsorted(): sorter must be a tensor of long dtype but got " +
                               std::string(to_string(sorter->scalar_type())));
    }
    if (!sorter->sizes().equals(seq.sizes())) {
      throw std::runtime_error(
          "searchsorted(): boundary and sorter must have the same size, but got boundary tensor " +
          dims_of(seq) + "and got sorter tensor " + dims_of(*sorter));
    }
  }
}

// PyTorch's check of an out= tensor: Int with out_int32, else Long (no cast).
void check_out_dtype(const Tensor& out, bool out_int32) {
  const ScalarType want = out_int32 ? ScalarType::Int : ScalarType::Long;
  if (out.scalar_type() != want) {
    throw std::runtime_error(
        std::string("torch.searchsorted(): output tensor's dtype is wrong, it can only be "
                    "Int(int32) or Long(int64) depending on whether out_int32 flag is True, but we "
                    "got output tensor's dtype ") +
        to_string(out.scalar_type()) + " and out_int32 flag is " + (out_int32 ? "True" : "False"));
  }
}

}  // namespace

Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const std::optional<Tensor>& sorter) {
  check_args(sorted_sequence, self, sorter);
  const bool upper = effective_right(right, side);
  const Tensor seq = sorted_sequence.contiguous();
  const Tensor values = self.contiguous();
  const bool has_sorter = sorter.has_value() && sorter->defined();
  const Tensor order = has_sorter ? sorter->contiguous() : Tensor();
  const int64_t n = seq.size(seq.dim() - 1);
  const int64_t row = self.dim() > 0 ? self.size(self.dim() - 1) : 1;
  Tensor out = empty(self.sizes(), out_int32 ? ScalarType::Int : ScalarType::Long);
  int64_t* po = out_int32 ? nullptr : out.data_ptr<int64_t>();
  int32_t* po32 = out_int32 ? out.data_ptr<int32_t>() : nullptr;
  for (int64_t i = 0; i < self.numel(); ++i) {
    const double v = at(values, i);
    const int64_t base = seq.dim() == 1 ? 0 : (i / row) * n;
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      const int64_t k = has_sorter ? order.data_ptr<int64_t>()[base + mid] + base : base + mid;
      const double b = at(seq, k);
      if (upper ? !(b > v) : !(b >= v)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (po32 != nullptr) {
      po32[i] = static_cast<int32_t>(lo);
    } else {
      po[i] = lo;
    }
  }
  return out;
}

Tensor& searchsorted_out(const Tensor& sorted_sequence, const Tensor& self, bool out_int32,
                         bool right, std::optional<std::string_view> side,
                         const std::optional<Tensor>& sorter, Tensor& out) {
  check_out_dtype(out, out_int32);
  return write_out("searchsorted.Tensor_out",
                   native::searchsorted(sorted_sequence, self, out_int32, right, side, sorter),
                   out);
}

Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const std::optional<Tensor>& sorter) {
  if (sorted_sequence.dim() != 1) {
    throw std::runtime_error(
        "searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, "
        "but we got boundaries tensor dim(" +
        std::to_string(sorted_sequence.dim()) + ") and input value's dim(0) numel(1)");
  }
  const ScalarType dtype = self.is_integral() ? ScalarType::Long : ScalarType::Double;
  return native::searchsorted(sorted_sequence, full({}, self, dtype), out_int32, right, side,
                              sorter);
}

Tensor& searchsorted_out(const Tensor& sorted_sequence, const Scalar& self, bool out_int32,
                         bool right, std::optional<std::string_view> side,
                         const std::optional<Tensor>& sorter, Tensor& out) {
  check_out_dtype(out, out_int32);
  return write_out("searchsorted.Scalar_out",
                   native::searchsorted(sorted_sequence, self, out_int32, right, side, sorter),
                   out);
}

Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  if (boundaries.dim() != 1) {
    throw std::runtime_error("bucketize: boundaries tensor must be 1 dimension, but got dim(" +
                             std::to_string(boundaries.dim()) + ")");
  }
  return native::searchsorted(boundaries, self, out_int32, right, std::nullopt, std::nullopt);
}

Tensor& bucketize_out(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right,
                      Tensor& out) {
  check_out_dtype(out, out_int32);
  return write_out("bucketize.Tensor_out", native::bucketize(self, boundaries, out_int32, right),
                   out);
}

Tensor bucketize(const Scalar& self, const Tensor& boundaries, bool out_int32, bool right) {
  const ScalarType dtype = self.is_integral() ? ScalarType::Long : ScalarType::Double;
  return native::bucketize(full({}, self, dtype), boundaries, out_int32, right);
}

}  // namespace native
}  // namespace gradgen
