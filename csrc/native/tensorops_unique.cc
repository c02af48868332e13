// unique (issue 23, "Sorting"): _unique2, unique_dim and unique_consecutive, with PyTorch's CPU
// results. Values are ordered with NaN last and compared with ==, so each NaN stays a value of
// its own (as PyTorch's); equal values keep the first one met in a stable sort (-0.0 before
// 0.0 if it comes first). sorted=False orders as sorted=True, as PyTorch's CPU kernel does.
// inverse and counts are int64; when not asked for, _unique2 and unique_consecutive without a
// dim return them empty ([0]), the dim forms always compute them (as PyTorch's).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"

namespace gradgen {
namespace native {

namespace {

using Triple = std::tuple<Tensor, Tensor, Tensor>;

template <typename T>
bool less(T a, T b) {
  if constexpr (is_floating_type<T>::value) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

Tensor longs_of(const std::vector<int64_t>& v, IntArrayRef sizes) {
  Tensor t = empty(sizes, ScalarType::Long);
  std::copy(v.begin(), v.end(), t.data_ptr<int64_t>());
  return t;
}

Tensor no_longs() { return empty({0}, ScalarType::Long); }

// The flattened elements of self made unique: sorted (stable, NaN last), or consecutive runs.
Triple unique_elements(const Tensor& self, bool sort, bool return_inverse, bool return_counts) {
  const Tensor x = internal::copy_contiguous(self);
  const int64_t n = x.numel();
  std::vector<int64_t> inverse(static_cast<size_t>(n));
  std::vector<int64_t> counts;
  Tensor values;
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    const scalar_t* p = x.data_ptr<scalar_t>();
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    if (sort) {
      std::stable_sort(order.begin(), order.end(),
                       [p](int64_t a, int64_t b) { return less(p[a], p[b]); });
    }
    std::vector<scalar_t> out;
    for (int64_t k = 0; k < n; ++k) {
      const scalar_t v = p[order[static_cast<size_t>(k)]];
      if (out.empty() || !(out.back() == v)) {
        out.push_back(v);
        counts.push_back(0);
      }
      ++counts.back();
      inverse[static_cast<size_t>(order[static_cast<size_t>(k)])] =
          static_cast<int64_t>(out.size()) - 1;
    }
    values = empty({static_cast<int64_t>(out.size())}, self.scalar_type());
    std::copy(out.begin(), out.end(), values.data_ptr<scalar_t>());
  });
  return {values, return_inverse ? longs_of(inverse, self.sizes()) : no_longs(),
          return_counts ? longs_of(counts, {static_cast<int64_t>(counts.size())}) : no_longs()};
}

// The slices of self along dim made unique: sorted lexicographically, or consecutive runs.
Triple unique_slices(const Tensor& self, int64_t dim, bool sort, const char* op) {
  if (self.dim() == 0) {
    throw std::out_of_range("Dimension specified as " + std::to_string(dim) +
                            " but tensor has no dimensions");
  }
  const int64_t d = loops::index_dim(dim, self.dim(), op);
  const int64_t rows = self.size(d);
  if (rows == 0) {
    return {empty(self.sizes(), self.scalar_type()), no_longs(), no_longs()};
  }
  // Self with dim d moved to the front, as a contiguous [rows, width] block.
  DimVector sizes{self.size(d)}, strides{self.stride(d)};
  int64_t width = 1;
  for (int64_t k = 0; k < self.dim(); ++k) {
    if (k == d) continue;
    if (self.size(k) == 0) {
      throw std::runtime_error(
          "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
    }
    sizes.push_back(self.size(k));
    strides.push_back(self.stride(k));
    width *= self.size(k);
  }
  const Tensor front =
      internal::copy_contiguous(internal::as_strided(self, sizes, strides, self.storage_offset()));
  std::vector<int64_t> inverse(static_cast<size_t>(rows));
  std::vector<int64_t> counts;
  std::vector<int64_t> kept;  // the first row of each unique slice
  Tensor gathered;
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    const scalar_t* p = front.data_ptr<scalar_t>();
    auto row = [p, width](int64_t r) { return p + r * width; };
    auto equal = [&](int64_t a, int64_t b) { return std::equal(row(a), row(a) + width, row(b)); };
    std::vector<int64_t> order(static_cast<size_t>(rows));
    std::iota(order.begin(), order.end(), 0);
    if (sort) {
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        for (int64_t j = 0; j < width; ++j) {
          const scalar_t x = row(a)[j], y = row(b)[j];
          if (less(x, y)) return true;
          if (less(y, x)) return false;
        }
        return false;
      });
    }
    for (int64_t k = 0; k < rows; ++k) {
      const int64_t r = order[static_cast<size_t>(k)];
      if (kept.empty() || !equal(kept.back(), r)) {
        kept.push_back(r);
        counts.push_back(0);
      }
      ++counts.back();
      inverse[static_cast<size_t>(r)] = static_cast<int64_t>(kept.size()) - 1;
    }
    // The kept slices, in order: [kept, rest...].
    DimVector out_front(sizes.begin(), sizes.end());
    out_front[0] = static_cast<int64_t>(kept.size());
    gathered = empty(out_front, self.scalar_type());
    scalar_t* g = gathered.data_ptr<scalar_t>();
    for (size_t i = 0; i < kept.size(); ++i) {
      std::copy_n(row(kept[i]), width, g + static_cast<int64_t>(i) * width);
    }
  });
  DimVector out_sizes(self.sizes().begin(), self.sizes().end());
  out_sizes[d] = static_cast<int64_t>(kept.size());
  // gathered is [kept, rest...]: read it in self's dim order.
  const DimVector g_strides = loops::contiguous_strides(gathered.sizes());
  DimVector view_strides(static_cast<size_t>(self.dim()));
  for (int64_t k = 0, next = 1; k < self.dim(); ++k) {
    view_strides[k] = k == d ? g_strides[0] : g_strides[next++];
  }
  Tensor values = empty(out_sizes, self.scalar_type());
  internal::copy_(values, internal::as_strided(gathered, out_sizes, view_strides, 0));
  return {values, longs_of(inverse, {rows}),
          longs_of(counts, {static_cast<int64_t>(counts.size())})};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor& self, bool sorted, bool return_inverse,
                                            bool return_counts) {
  (void)sorted;  // PyTorch's CPU kernel sorts either way
  return unique_elements(self, true, return_inverse, return_counts);
}

std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& self, int64_t dim, bool sorted,
                                              bool return_inverse, bool return_counts) {
  (void)sorted;
  (void)return_inverse;
  (void)return_counts;
  return unique_slices(self, dim, true, "unique_dim");
}

std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& self, bool return_inverse,
                                                      bool return_counts,
                                                      std::optional<int64_t> dim) {
  if (dim.has_value()) return unique_slices(self, *dim, false, "unique_consecutive");
  return unique_elements(self, false, return_inverse, return_counts);
}

}  // namespace native
}  // namespace gradgen
