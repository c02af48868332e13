#include "csrc/core_kernels.h"

#include <stdexcept>
#include <string>

#include "csrc/util/op_context.h"

namespace gradgen {
namespace internal {

namespace {

void check_same_shape_and_dtype(const char* op, const Tensor& a, const Tensor& b) {
  if (!a.defined() || !b.defined()) {
    throw std::invalid_argument(std::string(op) + ": expected two defined tensors");
  }
  if (!a.sizes().equals(b.sizes())) {
    throw std::invalid_argument(std::string(op) + ": expected tensors of the same shape, got " +
                                shape_str(a.sizes()) + " and " + shape_str(b.sizes()));
  }
  if (a.scalar_type() != b.scalar_type()) {
    throw std::invalid_argument(std::string(op) + ": expected tensors of the same dtype, got " +
                                to_string(a.scalar_type()) + " and " + to_string(b.scalar_type()));
  }
}

}  // namespace

void throw_internal_overlap(const Tensor& self, const char* op) {
  throw std::runtime_error(user_op_name(op) +
                           ": unsupported operation: more than one element of the written-to "
                           "tensor refers to a single memory location (shape " +
                           shape_str(self.sizes()) + ", strides " + shape_str(self.strides()) +
                           ", as expand() makes); clone() it before writing into it");
}

namespace {

// dispatch_floating, and float16 / bfloat16 too: the engine sums their gradients (each sum
// computed in float32 and rounded once, as PyTorch's CPU add).
template <typename F>
void dispatch_gradient_dtype(ScalarType dtype, const char* op, F&& f) {
  if (dtype == ScalarType::Half) return f(Half{});
  if (dtype == ScalarType::BFloat16) return f(BFloat16{});
  dispatch_floating(dtype, op, f);
}

}  // namespace

void convert_into(const Tensor& dst, const Tensor& src) {
  dispatch_all(src.scalar_type(), [&](auto from_tag) {
    using From = decltype(from_tag);
    dispatch_all(dst.scalar_type(), [&](auto to_tag) {
      using To = decltype(to_tag);
      To* po = dst.data_ptr<To>();
      const From* px = src.data_ptr<From>();
      if (src.is_contiguous()) {
        const int64_t n = src.numel();
        for (int64_t i = 0; i < n; ++i) po[i] = static_cast<To>(px[i]);
        return;
      }
      int64_t i = 0;
      for_each_offset(src.sizes(), src.strides(), src.strides(),
                      [&](int64_t off, int64_t) { po[i++] = static_cast<To>(px[off]); });
    });
  });
}

Tensor add(const Tensor& a, const Tensor& b) {
  check_same_shape_and_dtype("add", a, b);
  Tensor out = make_tensor(a.sizes(), a.scalar_type());
  dispatch_gradient_dtype(a.scalar_type(), "add", [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* o = out.data_ptr<scalar_t>();
    const scalar_t* pa = a.data_ptr<scalar_t>();
    const scalar_t* pb = b.data_ptr<scalar_t>();
    if (a.is_contiguous() && b.is_contiguous()) {
      const int64_t n = a.numel();
      for (int64_t i = 0; i < n; ++i) o[i] = pa[i] + pb[i];
    } else {
      int64_t i = 0;
      for_each_offset(a.sizes(), a.strides(), b.strides(),
                      [&](int64_t oa, int64_t ob) { o[i++] = pa[oa] + pb[ob]; });
    }
  });
  return out;
}

void add_(const Tensor& self, const Tensor& other) {
  check_same_shape_and_dtype("add_", self, other);
  assert_no_internal_overlap(self, "add_");
  dispatch_gradient_dtype(self.scalar_type(), "add_", [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* ps = self.data_ptr<scalar_t>();
    const scalar_t* po = other.data_ptr<scalar_t>();
    if (self.is_contiguous() && other.is_contiguous()) {
      const int64_t n = self.numel();
      for (int64_t i = 0; i < n; ++i) ps[i] = ps[i] + po[i];
    } else {
      for_each_offset(self.sizes(), self.strides(), other.strides(),
                      [&](int64_t os, int64_t oo) { ps[os] = ps[os] + po[oo]; });
    }
  });
  self.bump_version();
}

void fill_(const Tensor& self, const Scalar& value) {
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    const scalar_t v = value.to<scalar_t>();
    scalar_t* p = self.data_ptr<scalar_t>();
    for_each_offset(self.sizes(), self.strides(), self.strides(),
                    [&](int64_t off, int64_t) { p[off] = v; });
  });
  self.bump_version();
}

void copy_(const Tensor& dst, const Tensor& src) {
  if (!dst.defined() || !src.defined()) {
    throw std::invalid_argument("copy_: expected two defined tensors");
  }
  if (!dst.sizes().equals(src.sizes()) || dst.scalar_type() != src.scalar_type()) {
    throw std::invalid_argument("copy_: expected tensors of the same shape and dtype, got " +
                                shape_str(dst.sizes()) + " " + to_string(dst.scalar_type()) +
                                " and " + shape_str(src.sizes()) + " " +
                                to_string(src.scalar_type()));
  }
  assert_no_internal_overlap(dst, "copy_");
  dispatch_all(dst.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* pd = dst.data_ptr<scalar_t>();
    const scalar_t* ps = src.data_ptr<scalar_t>();
    if (dst.is_contiguous() && src.is_contiguous()) {
      const int64_t n = dst.numel();
      for (int64_t i = 0; i < n; ++i) pd[i] = ps[i];
    } else {
      for_each_offset(dst.sizes(), dst.strides(), src.strides(),
                      [&](int64_t od, int64_t os) { pd[od] = ps[os]; });
    }
  });
  dst.bump_version();
}

Tensor as_strided(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                  int64_t storage_offset) {
  if (sizes.size() != strides.size()) {
    throw std::invalid_argument("as_strided: expected as many strides as sizes, got sizes " +
                                shape_str(sizes) + " and strides " + shape_str(strides));
  }
  // The largest element offset reached, which must stay inside the storage.
  int64_t last = storage_offset;
  bool empty_view = false;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] < 0 || strides[d] < 0) {
      throw std::invalid_argument(
          "as_strided: expected non-negative sizes and strides, got sizes " + shape_str(sizes) +
          " and strides " + shape_str(strides));
    }
    int64_t reach = 0;
    if (sizes[d] == 0) {
      empty_view = true;
    } else if (__builtin_mul_overflow(sizes[d] - 1, strides[d], &reach) ||
               __builtin_add_overflow(last, reach, &last)) {
      throw std::runtime_error("as_strided: a view of sizes " + shape_str(sizes) + " and strides " +
                               shape_str(strides) +
                               " reaches past the largest int64 element offset");
    }
  }
  Tensor view = self.detach();
  TensorImpl* impl = view.unsafe_impl();
  const int64_t capacity = static_cast<int64_t>(impl->storage->nbytes / element_size(impl->dtype));
  if (storage_offset < 0 || (!empty_view && last >= capacity)) {
    throw std::invalid_argument(
        "as_strided: a view of sizes " + shape_str(sizes) + ", strides " + shape_str(strides) +
        " and offset " + std::to_string(storage_offset) + " reaches element " +
        std::to_string(last) + " of a storage of " + std::to_string(capacity) + " elements");
  }
  impl->sizes.assign(sizes.begin(), sizes.end());
  impl->strides.assign(strides.begin(), strides.end());
  impl->storage_offset = storage_offset;
  impl->refresh_numel_and_contiguity("as_strided");
  return view;
}

}  // namespace internal
}  // namespace gradgen
