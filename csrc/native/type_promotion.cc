#include "csrc/native/type_promotion.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>

#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/loops.h"

namespace gradgen {
namespace native {

namespace {

// bool < integer < floating.
int category(ScalarType t) {
  if (t == ScalarType::Bool) return 0;
  return is_integral(t, false) ? 1 : 2;
}

int promote_into(int acc, ScalarType t) {
  if (acc < 0) return static_cast<int>(t);
  return static_cast<int>(promote_types(static_cast<ScalarType>(acc), t));
}

// ATen's combine_categories: the higher priority wins unless the lower one is of a higher
// category (then they promote).
int combine(int higher, int lower) {
  if (higher < 0) return lower;
  if (lower < 0) return higher;
  const ScalarType h = static_cast<ScalarType>(higher), l = static_cast<ScalarType>(lower);
  if (is_floating_point(h)) return higher;
  if (h == ScalarType::Bool || is_floating_point(l)) return promote_into(higher, l);
  return higher;
}

// The engine converts a gradient to its input's dtype (float32 + float64: the float32 input's
// gradient) with the differentiable `to`, so that a double backward goes through the conversion.
Tensor differentiable_to(const Tensor& t, ScalarType dtype) {
  return gradgen::to(t, dtype, false, false, std::nullopt);
}
const bool kToDtypeRegistered = (gradgen::internal::set_to_dtype_fn(differentiable_to), true);

}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == ScalarType::Bool) return b;
  if (b == ScalarType::Bool) return a;
  const int ca = category(a), cb = category(b);
  if (ca != cb) return ca > cb ? a : b;  // an integer meets a floating type: the floating one
  // Within a category the wider wins; PyTorch's two exceptions are the pairs of equal width:
  // uint8 with int8 is int16, float16 with bfloat16 is float32.
  const size_t wa = element_size(a), wb = element_size(b);
  if (wa == wb) return ca == 1 ? ScalarType::Short : ScalarType::Float;
  return wa > wb ? a : b;
}

ScalarType compute_dtype(ScalarType t) {
  if (is_integral(t, false)) return ScalarType::Long;
  if (t == ScalarType::Half || t == ScalarType::BFloat16) return ScalarType::Float;
  return t;
}

bool can_cast(ScalarType from, ScalarType to) { return category(from) <= category(to); }

ResultType& ResultType::add(const Tensor& t) {
  if (!t.defined()) return *this;
  if (t.unsafe_impl()->is_wrapped_number) {
    const ScalarType type = t.scalar_type();
    wrapped_ = promote_into(wrapped_, is_floating_point(type) ? default_float() : type);
  } else if (t.dim() > 0) {
    dim_ = promote_into(dim_, t.scalar_type());
  } else {
    zero_ = promote_into(zero_, t.scalar_type());
  }
  return *this;
}

ResultType& ResultType::add(const Scalar& s) {
  const ScalarType t = s.is_floating_point() ? default_float()
                       : s.is_boolean()      ? ScalarType::Bool
                                             : ScalarType::Long;
  wrapped_ = promote_into(wrapped_, t);
  return *this;
}

ScalarType ResultType::get() const {
  const int r = combine(dim_, combine(zero_, wrapped_));
  return r < 0 ? ScalarType::Double : static_cast<ScalarType>(r);
}

ScalarType result_type(const Tensor& a, const Tensor& b) {
  if (a.scalar_type() == b.scalar_type()) return a.scalar_type();  // the common case, no state
  return ResultType().add(a).add(b).get();
}

ScalarType result_type(const Tensor& a, const Scalar& b) {
  return ResultType().add(a).add(b).get();
}

Tensor cast(const Tensor& t, ScalarType dtype) {
  if (t.scalar_type() == dtype) return t;
  Tensor out = make_tensor(t.sizes(), dtype);
  gradgen::internal::convert_into(out, t);
  return out;
}

Tensor widen(const Tensor& t, ScalarType result) {
  const ScalarType wide = compute_dtype(result);
  if (!t.defined() || t.scalar_type() == wide) return t;
  if (is_integral(result, false)) return cast(cast(t, result), wide);
  return cast(t, wide);
}

void check_differentiable_dtype(const Tensor& input, ScalarType result) {
  if (is_floating_point(result) || !input.requires_grad() || !autograd::GradMode::is_enabled()) {
    return;
  }
  throw std::runtime_error(std::string("Autograd not support dtype: ") + to_string(result));
}

void check_can_cast(const char* op, ScalarType result, ScalarType out) {
  if (can_cast(result, out)) return;
  throw std::invalid_argument(std::string(op) + ": result type " + to_string(result) +
                              " can't be cast to the desired output type " + to_string(out));
}

void resize_(const Tensor& t, IntArrayRef sizes) {
  TensorImpl& impl = *t.unsafe_impl();
  const int64_t numel = gradgen::internal::checked_numel(sizes, "resize_");
  const size_t needed = static_cast<size_t>(impl.storage_offset + numel) * element_size(impl.dtype);
  if (needed > impl.storage->nbytes) {
    // A storage is one allocation, so growing it gives the tensor new bytes: a view would stop
    // sharing them with its base and its other views (PyTorch grows the shared storage).
    if (impl.is_view) {
      throw std::runtime_error(
          "resize_: cannot grow a view of shape " + shape_str(t.sizes()) + " to " +
          shape_str(sizes) +
          ": its storage is shared with its base; pass a tensor that is not a view");
    }
    intrusive_ptr<StorageImpl> storage = StorageImpl::allocate(needed);
    const size_t keep = std::min(impl.storage->nbytes, needed);
    if (keep > 0) std::memcpy(storage->data, impl.storage->data, keep);
    storage->version = impl.storage->version;
    impl.storage = std::move(storage);
  }
  impl.sizes.assign(sizes.begin(), sizes.end());
  const DimVector strides = loops::contiguous_strides(sizes);
  impl.strides.assign(strides.begin(), strides.end());
  impl.refresh_numel_and_contiguity("resize_");
}

Tensor& write_out(const char* op, const Tensor& result, Tensor& out) {
  check_can_cast(op, result.scalar_type(), out.scalar_type());
  if (!out.sizes().equals(result.sizes())) {
    if (out.numel() != 0) {
      // PyTorch's words (aten/src/ATen/native/Resize.cpp), and its behaviour: resize, and warn.
      const std::string message =
          "An output with one or more elements was resized since it had shape " +
          shape_str(out.sizes()) + ", which does not match the required output shape " +
          shape_str(result.sizes()) +
          ". This behavior is deprecated, and in a future PyTorch release outputs will not be "
          "resized unless they have zero elements. You can explicitly reuse an out tensor t by "
          "resizing it, inplace, to zero elements with t.resize_(0).";
      gradgen::internal::warn(message);
    }
    resize_(out, result.sizes());
  }
  gradgen::internal::copy_(out, cast(result, out.scalar_type()));  // bumps out's version
  return out;
}

Tensor& write_inplace(const char* op, Tensor& self, const Tensor& result) {
  if (!result.sizes().equals(self.sizes())) {
    throw std::invalid_argument(std::string(op) + ": output with shape " + shape_str(self.sizes()) +
                                " doesn't match the broadcast shape " + shape_str(result.sizes()));
  }
  check_can_cast(op, result.scalar_type(), self.scalar_type());
  gradgen::internal::assert_no_internal_overlap(self, op);
  gradgen::internal::copy_(self, cast(result, self.scalar_type()));  // bumps the version
  return self;
}

std::tuple<Tensor&, Tensor&> write_pair(const char* op, const std::tuple<Tensor, Tensor>& result,
                                        Tensor& values, Tensor& indices) {
  if (indices.scalar_type() != ScalarType::Long) {
    throw std::runtime_error(std::string(op) +
                             ": Expected out tensor indices to have dtype Long, but got " +
                             to_string(indices.scalar_type()));
  }
  write_out(op, std::get<0>(result), values);
  write_out(op, std::get<1>(result), indices);
  return std::forward_as_tuple(values, indices);
}

}  // namespace native
}  // namespace gradgen
