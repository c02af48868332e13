// The tensor op library's scans, fourth batch (issue 23), beside cumsum and cumprod
// (tensorops_reduce.cc): cummax / cummin (the running max / min along dim with the index it came
// from) and logcumsumexp (log(cumsum(exp(x))) as a running log-add-exp, without overflow).
//
// As PyTorch's CPU kernels: a tie takes the later index (>= / <=), a NaN takes the lead with its
// index and only a later NaN replaces it; logcumsumexp of two infinities of one sign is that
// infinity, and it refuses integer and bool tensors ("logcumsumexp_out_cpu" not implemented). A
// dim out of range is an IndexError (std::out_of_range).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

template <typename T>
bool nan(T v) {
  if constexpr (is_floating_type<T>::value) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// Calls scan(src, dst, n, stride_in, stride_out) on every slice of self along dim, writing into
// a contiguous result of self's shape; the 0-dim tensor is one slice of one element.
template <typename F>
void for_each_slice(const char* op, const Tensor& self, int64_t dim, const Tensor& result,
                    F&& scan) {
  const int64_t d = loops::index_dim(dim, self.dim(), op);
  DimVector outer(self.sizes().begin(), self.sizes().end());
  int64_t length = 1, stride = 0, out_stride = 0;
  const DimVector out_strides = loops::contiguous_strides(result.sizes());
  if (self.dim() > 0) {
    length = outer[d];
    stride = self.stride(d);
    out_stride = out_strides[d];
    outer[d] = 1;
  }
  if (self.numel() == 0) return;
  internal::for_each_offset(outer, self.strides(), out_strides,
                            [&](int64_t i, int64_t o) { scan(i, o, length, stride, out_stride); });
}

std::tuple<Tensor, Tensor> cum_extremum(const char* op, const Tensor& self, int64_t dim,
                                        bool is_max) {
  Tensor values = empty(self.sizes(), self.scalar_type());
  Tensor indices = empty(self.sizes(), ScalarType::Long);
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = self.data_ptr<T>();
    T* vals = values.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    for_each_slice(op, self, dim, values,
                   [&](int64_t i, int64_t o, int64_t n, int64_t si, int64_t so) {
                     T best = src[i];
                     int64_t best_k = 0;
                     for (int64_t k = 0; k < n; ++k) {
                       const T x = src[i + k * si];
                       const bool wins = is_max ? x >= best : x <= best;
                       if (nan(x) || (!nan(best) && wins)) {
                         best = x;
                         best_k = k;
                       }
                       vals[o + k * so] = best;
                       idx[o + k * so] = best_k;
                     }
                   });
  });
  return {values, indices};
}

// log(exp(a) + exp(b)), NaN propagating; two infinities of one sign give that infinity.
template <typename T>
T log_add_exp(T a, T b) {
  const T lo = std::isnan(b) ? b : std::min(a, b);
  const T hi = std::isnan(b) ? b : std::max(a, b);
  if (lo != hi || std::isfinite(lo)) return hi + std::log1p(std::exp(lo - hi));
  return a;
}

}  // namespace

std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim) {
  return cum_extremum("cummax", self, dim, true);
}
std::tuple<Tensor&, Tensor&> cummax_out(const Tensor& self, int64_t dim, Tensor& values,
                                        Tensor& indices) {
  return write_pair("cummax.out", native::cummax(self, dim), values, indices);
}
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim) {
  return cum_extremum("cummin", self, dim, false);
}
std::tuple<Tensor&, Tensor&> cummin_out(const Tensor& self, int64_t dim, Tensor& values,
                                        Tensor& indices) {
  return write_pair("cummin.out", native::cummin(self, dim), values, indices);
}

Tensor logcumsumexp(const Tensor& self, int64_t dim) {
  if (!is_floating_point(self.scalar_type())) {
    throw std::runtime_error(std::string("\"logcumsumexp_out_cpu\" not implemented for '") +
                             to_string(self.scalar_type()) + "'");
  }
  if (const ScalarType t = self.scalar_type(); is_narrow(t)) {  // in float32, rounded once
    return cast(native::logcumsumexp(widen(self, t), dim), t);
  }
  Tensor result = empty(self.sizes(), self.scalar_type());
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_floating_type<T>::value) {
      const T* src = self.data_ptr<T>();
      T* out = result.data_ptr<T>();
      for_each_slice("logcumsumexp", self, dim, result,
                     [&](int64_t i, int64_t o, int64_t n, int64_t si, int64_t so) {
                       T acc = src[i];
                       out[o] = acc;
                       for (int64_t k = 1; k < n; ++k) {
                         acc = log_add_exp(acc, src[i + k * si]);
                         out[o + k * so] = acc;
                       }
                     });
    }
  });
  return result;
}
Tensor& logcumsumexp_out(const Tensor& self, int64_t dim, Tensor& out) {
  return write_out("logcumsumexp.out", native::logcumsumexp(self, dim), out);
}

}  // namespace native
}  // namespace gradgen
