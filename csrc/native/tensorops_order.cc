// The tensor op library's order statistics, fourth batch (issue 23): median and nanmedian (with
// and without dim), kthvalue and mode. Each picks one element of every slice along dim the way
// PyTorch's CPU kernel picks it, so that ties and NaN give PyTorch's values and indices:
//
// - median / nanmedian: the lower median, ties broken by position (the element at (n - 1) / 2
//   of a stable sort). median propagates NaN (the first NaN of the slice, with its index);
//   nanmedian leaves NaN out (a slice of NaN only: NaN, at the index PyTorch's
//   std::nth_element leaves first).
// - kthvalue: the k-th smallest by a median-of-three quickselect on (value, position) pairs with
//   NaN the largest, the algorithm of PyTorch's kernel, whose choice among ties it reproduces.
// - mode: the smallest of the most frequent values, with the position that ends its run after
//   std::sort of (value, position) pairs by value, as PyTorch's kernel.
//
// A dim out of range is an IndexError (std::out_of_range), and so is a dim of size 0 (PyTorch's
// "Expected reduction dim ... to have non-zero size"); without dim an empty tensor's median is
// NaN (the lowest integer for an integer tensor, as PyTorch's cast of NaN). Bool is refused by
// median, nanmedian and kthvalue (PyTorch's "not implemented for 'Bool'"); mode takes it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

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

template <typename T>
using Slot = std::pair<T, int64_t>;  // an element's value and its position in the slice

// PyTorch's "<op>" not implemented for 'Bool'.
void refuse_bool(const char* kernel, const Tensor& self) {
  if (self.scalar_type() == ScalarType::Bool) {
    throw std::runtime_error(std::string("\"") + kernel + "\" not implemented for 'Bool'");
  }
}

// The lower median of q (NaN skipped when skip_nan, else the first NaN wins), ties by position.
template <typename T>
Slot<T> median_of(std::vector<Slot<T>>& q, bool skip_nan) {
  if (!skip_nan) {
    for (const Slot<T>& s : q) {
      if (nan(s.first)) return s;
    }
  }
  auto last =
      std::stable_partition(q.begin(), q.end(), [](const Slot<T>& s) { return !nan(s.first); });
  const int64_t n = last - q.begin();
  if (n == 0) {
    // NaN only: PyTorch's std::nth_element of the positions, under which NaNs are all
    // equivalent, leaves its choice first.
    std::vector<int64_t> pos(q.size());
    std::iota(pos.begin(), pos.end(), 0);
    std::nth_element(pos.begin(), pos.begin(), pos.end(), [](int64_t, int64_t) { return false; });
    return {q[0].first, pos[0]};
  }
  auto by_value = [](const Slot<T>& a, const Slot<T>& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  };
  auto nth = q.begin() + (n - 1) / 2;
  std::nth_element(q.begin(), nth, last, by_value);
  return *nth;
}

// a > b with NaN the largest: the order of PyTorch's kthvalue selection.
template <typename T>
bool greater_or_nan(T a, T b) {
  return (nan(a) && !nan(b)) || a > b;
}

// Moves the k-th smallest (from 0) of q to q[k]: quickselect with the median of the first, the
// middle and the last element as pivot (PyTorch's kthvalue selection, so its choice among ties).
template <typename T>
void quickselect(std::vector<Slot<T>>& q, int64_t k) {
  auto gt = [&q](int64_t i, int64_t j) { return greater_or_nan(q[i].first, q[j].first); };
  auto swap_at = [&q](int64_t i, int64_t j) { std::swap(q[i], q[j]); };
  int64_t lo = 0, hi = static_cast<int64_t>(q.size()) - 1;
  while (hi > lo) {
    if (hi == lo + 1) {
      if (gt(lo, hi)) swap_at(lo, hi);
      return;
    }
    swap_at(lo + (hi - lo) / 2, lo + 1);
    if (gt(lo + 1, hi)) swap_at(lo + 1, hi);
    if (gt(lo, hi)) swap_at(lo, hi);
    if (gt(lo + 1, lo)) swap_at(lo + 1, lo);
    const T pivot = q[lo].first;
    int64_t i = lo + 1, j = hi;
    while (true) {
      do ++i;
      while (greater_or_nan(pivot, q[i].first));
      do --j;
      while (greater_or_nan(q[j].first, pivot));
      if (j < i) break;
      swap_at(i, j);
    }
    swap_at(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
}

// The smallest of the most frequent values, with the position ending its run after std::sort.
template <typename T>
Slot<T> mode_of(std::vector<Slot<T>>& q) {
  std::sort(q.begin(), q.end(),
            [](const Slot<T>& a, const Slot<T>& b) { return a.first < b.first; });
  Slot<T> best = q[0];
  int64_t best_count = 0, count = 0;
  const size_t n = q.size();
  for (size_t i = 0; i < n; ++i) {
    ++count;
    if (i + 1 == n || q[i].first != q[i + 1].first) {
      if (count > best_count) {
        best = q[i];
        best_count = count;
      }
      count = 0;
    }
  }
  return best;
}

enum class Pick { kMedian, kNanMedian, kKth, kMode };

template <typename T>
Slot<T> pick_one(std::vector<Slot<T>>& q, Pick pick, int64_t k) {
  switch (pick) {
    case Pick::kMedian: return median_of(q, false);
    case Pick::kNanMedian: return median_of(q, true);
    case Pick::kKth: quickselect(q, k - 1); return q[k - 1];
    case Pick::kMode: return mode_of(q);
  }
  return q[0];
}

// The picked (value, index) of every slice of self along dim, with dim kept or not.
std::tuple<Tensor, Tensor> pick_along(const char* op, const Tensor& self, int64_t dim, bool keepdim,
                                      Pick pick, int64_t k) {
  const int64_t d = loops::index_dim(dim, self.dim(), op);
  DimVector keep(self.sizes().begin(), self.sizes().end());
  int64_t length = 1, stride = 0;
  if (self.dim() > 0) {
    length = keep[d];
    stride = self.stride(d);
    keep[d] = 1;
  }
  if (length == 0) {
    throw std::out_of_range(std::string(op) + "(): Expected reduction dim " + std::to_string(d) +
                            " to have non-zero size.");
  }
  if (pick == Pick::kKth && (k < 1 || k > length)) {
    throw std::runtime_error("kthvalue(): selected number k out of range for dimension " +
                             std::to_string(d) + " (k = " + std::to_string(k) +
                             ", the dim's size is " + std::to_string(length) + ")");
  }
  Tensor values = empty(keep, self.scalar_type());
  Tensor indices = empty(keep, ScalarType::Long);
  const DimVector out_strides = loops::contiguous_strides(keep);
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = self.data_ptr<T>();
    T* vals = values.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    std::vector<Slot<T>> q(static_cast<size_t>(length));
    internal::for_each_offset(keep, self.strides(), out_strides, [&](int64_t i, int64_t o) {
      for (int64_t j = 0; j < length; ++j) q[j] = {src[i + j * stride], j};
      const Slot<T> s = pick_one(q, pick, k);
      vals[o] = s.first;
      idx[o] = s.second;
    });
  });
  if (keepdim || self.dim() == 0) return {values, indices};
  DimVector shape;
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (i != d) shape.push_back(self.size(i));
  }
  const DimVector strides = loops::contiguous_strides(shape);
  return {loops::make_view(values, shape, strides, 0),
          loops::make_view(indices, shape, strides, 0)};
}

// The median (or nanmedian) of every element: a 0-dim tensor.
Tensor median_all(const Tensor& self, bool skip_nan) {
  Tensor result = empty({}, self.scalar_type());
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    if (self.numel() == 0) {
      if constexpr (is_floating_type<T>::value) {
        result.data_ptr<T>()[0] = std::numeric_limits<T>::quiet_NaN();
      } else {
        result.data_ptr<T>()[0] = std::numeric_limits<T>::lowest();
      }
      return;
    }
    const Tensor flat = self.contiguous();
    const T* src = flat.data_ptr<T>();
    std::vector<Slot<T>> q(static_cast<size_t>(self.numel()));
    for (int64_t j = 0; j < self.numel(); ++j) q[j] = {src[j], j};
    result.data_ptr<T>()[0] = median_of(q, skip_nan).first;
  });
  return result;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// median, nanmedian
// ---------------------------------------------------------------------------------------------

Tensor median(const Tensor& self) {
  refuse_bool("median_cpu", self);
  return median_all(self, false);
}
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim) {
  refuse_bool("median_out", self);
  return pick_along("median", self, dim, keepdim, Pick::kMedian, 0);
}
std::tuple<Tensor&, Tensor&> median_out(const Tensor& self, int64_t dim, bool keepdim,
                                        Tensor& values, Tensor& indices) {
  return write_pair("median.dim_values", native::median(self, dim, keepdim), values, indices);
}

Tensor nanmedian(const Tensor& self) {
  refuse_bool("median_cpu", self);
  return median_all(self, true);
}
std::tuple<Tensor, Tensor> nanmedian(const Tensor& self, int64_t dim, bool keepdim) {
  refuse_bool("median_out", self);
  return pick_along("nanmedian", self, dim, keepdim, Pick::kNanMedian, 0);
}
std::tuple<Tensor&, Tensor&> nanmedian_out(const Tensor& self, int64_t dim, bool keepdim,
                                           Tensor& values, Tensor& indices) {
  return write_pair("nanmedian.dim_values", native::nanmedian(self, dim, keepdim), values, indices);
}

// ---------------------------------------------------------------------------------------------
// kthvalue, mode
// ---------------------------------------------------------------------------------------------

std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  refuse_bool("kthvalue_cpu", self);
  return pick_along("kthvalue", self, dim, keepdim, Pick::kKth, k);
}
std::tuple<Tensor&, Tensor&> kthvalue_out(const Tensor& self, int64_t k, int64_t dim, bool keepdim,
                                          Tensor& values, Tensor& indices) {
  return write_pair("kthvalue.values", native::kthvalue(self, k, dim, keepdim), values, indices);
}

std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim, bool keepdim) {
  return pick_along("mode", self, dim, keepdim, Pick::kMode, 0);
}
std::tuple<Tensor&, Tensor&> mode_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& values,
                                      Tensor& indices) {
  return write_pair("mode.values", native::mode(self, dim, keepdim), values, indices);
}

}  // namespace native
}  // namespace gradgen
