// Kernels of the reductions: sum, mean (over all dims or a list of dims, with
// keepdim), max.dim, argmax, logsumexp.
//
// Reduced dims are given as a list (`int[1]? dim`): absent or empty means every
// dim, negative dims count from the end, a repeated dim is an error. Sums of
// float32 tensors accumulate in float64. dtype= converts the input first, as PyTorch; without
// it, sums of bool and integer tensors are int64, and mean refuses them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <tuple>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/gemm.h"
#include "csrc/native/loops.h"
#include "csrc/native/simd/pointwise.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_floating;
using loops::dispatch_arithmetic;

// The tensor a sum reduces (PyTorch's get_dtype_from_self / its dtype= argument): converted to
// dtype= when given, else bool and integer tensors sum as int64.
Tensor sum_input(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype.has_value()) {
    check_differentiable_dtype(self, *dtype);
    return cast(self, *dtype);
  }
  return is_floating_point(self.scalar_type()) ? self : cast(self, ScalarType::Long);
}

// The tensor a mean reduces: converted to dtype= when given; either must be floating.
Tensor mean_input(const char* op, const Tensor& self, std::optional<ScalarType> dtype) {
  const ScalarType t = dtype.value_or(self.scalar_type());
  if (!is_floating_point(t)) {
    throw std::invalid_argument(
        std::string(op) + "(): could not infer output dtype. " +
        (dtype ? "Optional dtype" : "Input dtype") +
        " must be either a floating point or complex dtype. Got: " + to_string(t));
  }
  return cast(self, t);
}

// Accumulator type: double for floating types, int64 for Long.
template <typename T>
using acc_type = std::conditional_t<is_floating_type<T>::value, double, int64_t>;

// Whether dims (sorted, distinct) are self's leading dims, not all of them.
bool leading_dims(const Tensor& self, IntArrayRef dims) {
  if (dims.empty() || static_cast<int64_t>(dims.size()) >= self.dim()) return false;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// The sum of a dense float32 / float64 tensor over its leading dims (linear's bias gradient):
// the column sums of a rows x cols matrix, vectorized across the columns (pointwise.h), each
// column summed in row order in double (the bits of the generic loop), the columns split
// across the intra-op threads when large.
Tensor sum_leading_dims(const Tensor& self, IntArrayRef dims, bool keepdim) {
  int64_t rows = 1;
  for (int64_t d : dims) rows *= self.size(d);
  const int64_t cols = self.numel() / rows;
  std::vector<double> acc(static_cast<size_t>(cols), 0.0);
  Tensor out = make_tensor(loops::reduced_shape(self.sizes(), dims, keepdim), self.scalar_type());
  dispatch_floating(self.scalar_type(), "sum", [&](auto tag) {
    using T = decltype(tag);
    const T* x = self.data_ptr<T>();
    double* a = acc.data();
    const int64_t grain = std::max<int64_t>(16, kParallelGrain / rows);
    parallel_for(cols, grain, 16, [=](int64_t begin, int64_t end) {
      vec::add_rows(x + begin, rows, end - begin, cols, a + begin);
    });
    T* o = out.data_ptr<T>();
    for (int64_t j = 0; j < cols; ++j) o[j] = static_cast<T>(acc[j]);
  });
  return out;
}

Tensor sum_impl(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim) {
  if ((self.scalar_type() == ScalarType::Float || self.scalar_type() == ScalarType::Double) &&
      self.numel() > 0 && self.is_contiguous() && leading_dims(self, dims)) {
    return sum_leading_dims(self, dims, keepdim);
  }
  if (self.scalar_type() == ScalarType::Bool) {  // dtype=bool: any element true
    return cast(sum_impl(op, cast(self, ScalarType::Long), dims, keepdim), ScalarType::Bool);
  }
  // dtype=int8 & co accumulate in int64 and wrap once; float16 and bfloat16 in float32's kernel
  // (which accumulates in float64) and round once.
  if (const ScalarType t = self.scalar_type(); is_narrow(t)) {
    return cast(sum_impl(op, widen(self, t), dims, keepdim), t);
  }
  Tensor out;
  dispatch_arithmetic(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_type<T>;
    out = loops::reduce<T, A, T>(
        op, self, dims, keepdim, self.scalar_type(), A(0), [](A a, T x) { return a + A(x); },
        [](A a) { return static_cast<T>(a); });
  });
  return out;
}

Tensor mean_impl(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim) {
  int64_t count = 1;
  for (int64_t d : dims) count *= self.size(d);
  if (const ScalarType t = self.scalar_type(); is_narrow(t)) {
    return cast(mean_impl(op, widen(self, t), dims, keepdim), t);
  }
  Tensor out;
  dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const double n = static_cast<double>(count);
    out = loops::reduce<T, double, T>(
        op, self, dims, keepdim, self.scalar_type(), 0.0, [](double a, T x) { return a + x; },
        [n](double a) { return static_cast<T>(a / n); });
  });
  return out;
}

}  // namespace

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  const Tensor x = sum_input(self, dtype);
  return sum_impl("sum", x, loops::reduction_dims("sum", std::nullopt, x.dim()), false);
}

Tensor sum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
           std::optional<ScalarType> dtype) {
  const Tensor x = sum_input(self, dtype);
  return sum_impl("sum", x, loops::reduction_dims("sum", dim, x.dim()), keepdim);
}

Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  const Tensor x = mean_input("mean", self, dtype);
  return mean_impl("mean", x, loops::reduction_dims("mean", std::nullopt, x.dim()), false);
}

Tensor mean(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
            std::optional<ScalarType> dtype) {
  const Tensor x = mean_input("mean", self, dtype);
  return mean_impl("mean", x, loops::reduction_dims("mean", dim, x.dim()), keepdim);
}

std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, self.dim(), "max");
  if (self.dim() > 0 && self.size(d) == 0) {
    throw std::invalid_argument("max: cannot reduce an empty dimension (dim " +
                                std::to_string(dim) + " of shape " + shape_str(self.sizes()) + ")");
  }
  if (const ScalarType t = self.scalar_type(); is_narrow(t)) {
    auto [values, indices] = max(widen(self, t), dim, keepdim);
    return {cast(values, t), indices};
  }
  const DimVector dims = self.dim() == 0 ? DimVector() : DimVector{d};
  const DimVector out_shape = loops::reduced_shape(self.sizes(), dims, keepdim);
  Tensor values = empty(out_shape, self.scalar_type());
  Tensor indices = empty(out_shape, ScalarType::Long);
  const Tensor x = self.contiguous();
  int64_t outer, size, inner;
  loops::split_around(x.sizes(), d, outer, size, inner);
  dispatch_arithmetic(self.scalar_type(), "max", [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* pv = values.data_ptr<T>();
    int64_t* pi = indices.data_ptr<int64_t>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const T* base = px + o * size * inner + i;
        T best = base[0];
        int64_t best_k = 0;
        // As PyTorch: the first maximum wins ties, and NaN wins (the first NaN: x != x).
        for (int64_t k = 1; k < size && !(best != best); ++k) {
          const T v = base[k * inner];
          if (v > best || v != v) {
            best = v;
            best_k = k;
          }
        }
        pv[o * inner + i] = best;
        pi[o * inner + i] = best_k;
      }
    }
  });
  return {values, indices};
}

std::tuple<Tensor&, Tensor&> max_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& max,
                                     Tensor& max_values) {
  return write_pair("max.dim_max", native::max(self, dim, keepdim), max, max_values);
}

Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const DimVector dims = loops::reduction_dims("logsumexp", dim, self.dim());
  if (const ScalarType t = self.scalar_type(); is_narrow(t) && is_floating_point(t)) {
    if (self.numel() == 0) return cast(logsumexp(widen(self, t), dim, keepdim), t);
    // PyTorch's composite, each step in the 16-bit dtype (computed in float32, rounded): the
    // maxes (an infinite one taken as 0), sum(exp(self - maxes)), its log, plus the maxes.
    Tensor m = amax(self, IntArrayRef(dims), true);
    m = masked_fill(m, isinf(m), Scalar(0.0));
    const Tensor total = sum(exp(sub(self, m, 1)), IntArrayRef(dims), keepdim, std::nullopt);
    return add(log(total), keepdim ? m : reshape(m, total.sizes()), 1);
  }
  Tensor out;
  dispatch_floating(self.scalar_type(), "logsumexp", [&](auto tag) {
    using T = decltype(tag);
    // max first (kept), then log(sum(exp(x - max))) + max: no overflow.
    const Tensor m = loops::reduce<T, T, T>(
        "logsumexp", self, dims, true, self.scalar_type(), -std::numeric_limits<T>::infinity(),
        [](T a, T x) { return x > a || x != x ? x : a; }, [](T a) { return a; });  // NaN wins
    const T* pm = m.data_ptr<T>();
    // Sum of exp(x - max) per output element, through the same reduction layout.
    DimVector m_strides = loops::contiguous_strides(m.sizes());
    for (int64_t d : dims) m_strides[d] = 0;
    std::vector<double> acc(static_cast<size_t>(m.numel()), 0.0);
    const T* px = self.data_ptr<T>();
    loops::strided_loop<2>("logsumexp", self.sizes(), {IntArrayRef(m_strides), self.strides()},
                           [&](const std::array<int64_t, 2>& off, int64_t n,
                               const std::array<int64_t, 2>& is) {
                             for (int64_t i = 0; i < n; ++i) {
                               const int64_t o = off[0] + i * is[0];
                               const T mx = pm[o];
                               const T x = px[off[1] + i * is[1]];
                               if (std::isfinite(mx)) acc[o] += std::exp(x - mx);
                             }
                           });
    Tensor r = empty(loops::reduced_shape(self.sizes(), dims, keepdim), self.scalar_type());
    T* pr = r.data_ptr<T>();
    for (int64_t i = 0; i < m.numel(); ++i) {
      pr[i] = std::isfinite(pm[i]) ? static_cast<T>(std::log(acc[i]) + pm[i]) : pm[i];
    }
    out = r;
  });
  return out;
}

Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  if (!dim.has_value()) {
    // Over all elements, as if flattened.
    const Tensor flat = reshape(self.contiguous(), {-1});
    Tensor index = std::get<1>(max(flat, 0, false));
    if (!keepdim) return index;
    DimVector ones_shape(self.dim(), 1);
    return reshape(index, ones_shape);
  }
  return std::get<1>(max(self, *dim, keepdim));
}

}  // namespace native
}  // namespace gradgen
