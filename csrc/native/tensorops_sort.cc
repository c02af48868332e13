// The tensor op library's sorting and roll, third batch (issue 23): sort (stable or not: always
// stable, which is one of the orders PyTorch allows and the one its CPU kernel gives), topk (the
// selection of PyTorch's CPU kernel, so ties and sorted=False come out in its order) and roll
// are kernels with PyTorch's formulas; argsort is CompositeImplicitAutograd, as in PyTorch.
//
// NaN sorts as the largest value (after +inf ascending, first descending), as PyTorch's; -0.0
// and 0.0 are ties. A dim out of range is an IndexError (std::out_of_range) naming the dim and
// the range; the other errors are RuntimeErrors, in PyTorch's words.
#include <algorithm>
#include <cmath>
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

std::string str(int64_t v) { return std::to_string(v); }

template <typename T>
bool is_nan(T v) {
  if constexpr (is_floating_type<T>::value) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// a before b in ascending order (NaN the largest) or in descending order (NaN first).
template <typename T>
bool before(T a, T b, bool descending) {
  if (descending) return is_nan(a) ? !is_nan(b) : a > b;
  return is_nan(b) ? !is_nan(a) : a < b;
}

// The geometry of the slices along dim d of t: the other dims iterate, dim d is the slice.
struct Slices {
  DimVector outer;     // t's sizes with dim d set to 1
  int64_t length = 1;  // the slice's length
  int64_t stride = 0;  // t's stride along d
};

Slices slices_of(const Tensor& t, int64_t d) {
  Slices s;
  s.outer = DimVector(t.sizes().begin(), t.sizes().end());
  if (t.dim() > 0) {
    s.length = t.size(d);
    s.stride = t.stride(d);
    s.outer[d] = 1;
  }
  return s;
}

// The first k of q (value, position) pairs in the order `largest` (descending) or not: a
// selection as PyTorch's CPU topk makes it, so that ties and sorted=False give its order
// (std::partial_sort when k is small against the slice, else std::nth_element and, when
// sorted, a sort of the k - 1 before the k-th); k = size sorts everything (stably).
template <typename T>
void select_first(std::vector<std::pair<T, int64_t>>& q, int64_t k, bool largest, bool sorted,
                  bool full_sort) {
  auto comp = [largest](const std::pair<T, int64_t>& x, const std::pair<T, int64_t>& y) {
    return before(x.first, y.first, largest);
  };
  const int64_t n = static_cast<int64_t>(q.size());
  if (full_sort) {
    std::stable_sort(q.begin(), q.end(), comp);
  } else if (k * 64 <= n) {
    std::partial_sort(q.begin(), q.begin() + k, q.end(), comp);
  } else {
    std::nth_element(q.begin(), q.begin() + (k - 1), q.end(), comp);
    if (sorted) std::sort(q.begin(), q.begin() + (k - 1), comp);
  }
}

// Writes the first k of every slice of self along d, as select_first orders them, into values
// and indices (contiguous, of self's shape with k along d). full_sort: sort's stable order.
void select_slices(const Tensor& self, int64_t d, bool largest, int64_t k, bool sorted,
                   bool full_sort, Tensor& values, Tensor& indices) {
  const Slices in = slices_of(self, d);
  if (self.numel() == 0 || k == 0) return;
  const DimVector out_strides = loops::contiguous_strides(values.sizes());
  const int64_t out_step = self.dim() > 0 ? out_strides[d] : 0;
  internal::dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = self.data_ptr<T>();
    T* vals = values.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    std::vector<std::pair<T, int64_t>> q(static_cast<size_t>(in.length));
    internal::for_each_offset(in.outer, self.strides(), out_strides, [&](int64_t i, int64_t o) {
      for (int64_t j = 0; j < in.length; ++j) q[j] = {src[i + j * in.stride], j};
      select_first(q, k, largest, sorted, full_sort);
      for (int64_t j = 0; j < k; ++j) {
        vals[o + j * out_step] = q[j].first;
        idx[o + j * out_step] = q[j].second;
      }
    });
  });
}

std::tuple<Tensor, Tensor> sort_impl(const char* op, const Tensor& self, int64_t dim,
                                     bool descending) {
  const int64_t d = loops::index_dim(dim, self.dim(), op);
  Tensor values = empty(self.sizes(), self.scalar_type());
  Tensor indices = empty(self.sizes(), ScalarType::Long);
  select_slices(self, d, descending, slices_of(self, d).length, true, true, values, indices);
  return {values, indices};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// sort, argsort, topk
// ---------------------------------------------------------------------------------------------

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return sort_impl("sort", self, dim, descending);
}
std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> /*stable*/, int64_t dim,
                                bool descending) {
  return sort_impl("sort", self, dim, descending);
}
std::tuple<Tensor&, Tensor&> sort_out(const Tensor& self, int64_t dim, bool descending,
                                      Tensor& values, Tensor& indices) {
  return write_pair("sort.values", sort_impl("sort", self, dim, descending), values, indices);
}
std::tuple<Tensor&, Tensor&> sort_out(const Tensor& self, std::optional<bool> /*stable*/,
                                      int64_t dim, bool descending, Tensor& values,
                                      Tensor& indices) {
  return write_pair("sort.values_stable", sort_impl("sort", self, dim, descending), values,
                    indices);
}

Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(gradgen::sort(self, dim, descending));
}
Tensor argsort(const Tensor& self, bool stable, int64_t dim, bool descending) {
  return std::get<1>(gradgen::sort(self, std::optional<bool>(stable), dim, descending));
}
Tensor& argsort_out(const Tensor& self, bool stable, int64_t dim, bool descending, Tensor& out) {
  return write_out("argsort.stable_out", native::argsort(self, stable, dim, descending), out);
}

std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                bool sorted) {
  const int64_t d = loops::index_dim(dim, self.dim(), "topk");
  const int64_t length = slices_of(self, d).length;
  if (k < 0 || k > length) {
    throw std::runtime_error("topk: selected index k out of range (k = " + str(k) +
                             ", the size of dim " + str(dim) + " is " + str(length) + ")");
  }
  DimVector shape(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) shape[d] = k;
  Tensor values = empty(shape, self.scalar_type());
  Tensor indices = empty(shape, ScalarType::Long);
  select_slices(self, d, largest, k, sorted, false, values, indices);
  return {values, indices};
}
std::tuple<Tensor&, Tensor&> topk_out(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                      bool sorted, Tensor& values, Tensor& indices) {
  return write_pair("topk.values", native::topk(self, k, dim, largest, sorted), values, indices);
}

// ---------------------------------------------------------------------------------------------
// roll
// ---------------------------------------------------------------------------------------------

namespace {

// The view of t's elements [start, start + length) along dim d.
Tensor narrow_view(const Tensor& t, int64_t d, int64_t start, int64_t length) {
  DimVector sizes(t.sizes().begin(), t.sizes().end());
  sizes[d] = length;
  return loops::make_view(t, sizes, t.strides(), t.storage_offset() + start * t.stride(d));
}

// A new tensor: t rolled by shift along dim d (element i goes to (i + shift) mod size).
Tensor roll_one(const Tensor& t, int64_t shift, int64_t d) {
  Tensor result = empty(t.sizes(), t.scalar_type());
  const int64_t n = t.size(d);
  if (t.numel() == 0) return result;
  const int64_t s = ((shift % n) + n) % n;
  internal::copy_(narrow_view(result, d, 0, s), narrow_view(t, d, n - s, s));
  internal::copy_(narrow_view(result, d, s, n - s), narrow_view(t, d, 0, n - s));
  return result;
}

}  // namespace

Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (shifts.empty()) throw std::runtime_error("roll: `shifts` required");
  if (dims.empty() && shifts.size() == 1) {
    // The flattened tensor rolled, then given back self's shape.
    const Tensor flat = self.contiguous();
    const Tensor rolled =
        roll_one(loops::make_view(flat, {self.numel()}, {1}, flat.storage_offset()), shifts[0], 0);
    return loops::make_view(rolled, self.sizes(), loops::contiguous_strides(self.sizes()), 0);
  }
  if (shifts.size() != dims.size()) {
    throw std::runtime_error("roll: shifts and dimensions must align. shifts: " +
                             str(static_cast<int64_t>(shifts.size())) +
                             ", dims:" + str(static_cast<int64_t>(dims.size())));
  }
  Tensor result = self;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = loops::index_dim(dims[i], self.dim(), "roll");
    if (self.dim() == 0) continue;
    result = roll_one(result, shifts[i], d);
  }
  return result.is_same(self) ? self.clone() : result;
}

}  // namespace native
}  // namespace gradgen
