// Kernels of the tensor op library's reductions and scans (issue 23): amax / amin, max / min
// over every element, min.dim, argmin, all / any, count_nonzero, nansum, prod, cumsum, var / std
// (with a correction) and var_mean / std_mean.
//
// Reduced dims follow reduce.cc's rules (negative dims count from the end, a repeated dim is an
// error; for `int[1]? dim` absent or empty means every dim). As PyTorch: NaN propagates through
// amax / amin / max / min (and the index of the first NaN is the arg-extremum), an empty
// reduction of a selecting op is an error naming the op (IndexError for a named dim of size 0),
// sums and products of bool and integer tensors are int64 and accumulate float32 in float64, and
// var / std divide by max(0, n - correction), warning as PyTorch does when that is <= 0.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_all;
using gradgen::internal::dispatch_floating;
using loops::dispatch_arithmetic;

// The lowest and highest values of T (the infinities for floating types): the identities of
// max and min.
template <typename T>
constexpr T lowest_of() {
  if constexpr (is_floating_type<T>::value) return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}
template <typename T>
constexpr T highest_of() {
  if constexpr (is_floating_type<T>::value) return std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::max();
}

template <typename T>
bool is_nan(T x) {
  if constexpr (is_floating_type<T>::value) return x != x;
  return false;
}

// PyTorch's checks of a selecting reduction (amax, max, argmin, ...) over `dims`: no element at
// all without a dim, or a named dim of size 0.
void check_nonempty_reduction(const char* op, const Tensor& self, IntArrayRef dims,
                              bool dim_given) {
  if (self.numel() != 0) return;
  if (!dim_given) {
    throw std::invalid_argument(std::string(op) +
                                "(): Expected reduction dim to be specified for input.numel() == "
                                "0. Specify the reduction dim with the 'dim' argument.");
  }
  for (int64_t d : dims) {
    if (self.dim() > 0 && self.size(d) == 0) {
      throw std::out_of_range(std::string(op) + "(): Expected reduction dim " + std::to_string(d) +
                              " to have non-zero size.");
    }
  }
}

// max (is_max) or min over dims, NaN propagating.
Tensor extremum(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim, bool is_max) {
  Tensor out;
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    // A bool accumulates as uint8_t (the reduction buffer is a std::vector of it).
    using A = std::conditional_t<std::is_same<T, bool>::value, uint8_t, T>;
    const A init = static_cast<A>(is_max ? lowest_of<T>() : highest_of<T>());
    out = loops::reduce<T, A, T>(
        op, self, dims, keepdim, self.scalar_type(), init,
        [is_max](A a, T v) {
          const A x = static_cast<A>(v);
          if (is_nan(a) || is_nan(x)) return is_nan(a) ? a : x;
          return (is_max ? x > a : x < a) ? x : a;
        },
        [](A a) { return static_cast<T>(a); });
  });
  return out;
}

// The tensor a sum or product reduces: converted to dtype= when given, else bool and integer
// tensors as int64 (as reduce.cc's sum_input).
Tensor accumulate_input(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype.has_value()) {
    check_differentiable_dtype(self, *dtype);
    return cast(self, *dtype);
  }
  return is_floating_point(self.scalar_type()) ? self : cast(self, ScalarType::Long);
}

template <typename T>
using acc_type = std::conditional_t<is_floating_type<T>::value, double, int64_t>;

// sum (skipping NaN when `skip_nan`) or product over dims.
Tensor accumulate(const char* op, const Tensor& x, IntArrayRef dims, bool keepdim, bool product,
                  bool skip_nan) {
  if (x.scalar_type() == ScalarType::Bool) {
    return cast(accumulate(op, cast(x, ScalarType::Long), dims, keepdim, product, skip_nan),
                ScalarType::Bool);
  }
  if (const ScalarType t = x.scalar_type(); is_narrow(t)) {  // accumulated wide, rounded once
    return cast(accumulate(op, widen(x, t), dims, keepdim, product, skip_nan), t);
  }
  Tensor out;
  dispatch_arithmetic(x.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_type<T>;
    out = loops::reduce<T, A, T>(
        op, x, dims, keepdim, x.scalar_type(), product ? A(1) : A(0),
        [product, skip_nan](A a, T v) {
          if (skip_nan && is_nan(v)) return a;
          if constexpr (std::is_integral<A>::value) {  // wraps on overflow, as PyTorch
            const uint64_t ua = static_cast<uint64_t>(a), uv = static_cast<uint64_t>(v);
            return static_cast<A>(product ? ua * uv : ua + uv);
          } else {
            return product ? a * A(v) : a + A(v);
          }
        },
        [](A a) { return static_cast<T>(a); });
  });
  return out;
}

DimVector one_dim(const char* op, const Tensor& self, int64_t dim) {
  const int64_t d = wrap_dim(dim, self.dim(), op);
  return self.dim() == 0 ? DimVector() : DimVector{d};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// amax, amin, max, min, min.dim, argmin
// ---------------------------------------------------------------------------------------------

Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const DimVector dims = loops::reduction_dims("amax", dim, self.dim());
  check_nonempty_reduction("amax", self, dims, !dim.empty());
  return extremum("amax", self, dims, keepdim, true);
}
Tensor& amax_out(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out) {
  return write_out("amax.out", amax(self, dim, keepdim), out);
}
Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const DimVector dims = loops::reduction_dims("amin", dim, self.dim());
  check_nonempty_reduction("amin", self, dims, !dim.empty());
  return extremum("amin", self, dims, keepdim, false);
}
Tensor& amin_out(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out) {
  return write_out("amin.out", amin(self, dim, keepdim), out);
}

Tensor max(const Tensor& self) {
  const DimVector dims = loops::reduction_dims("max", std::nullopt, self.dim());
  check_nonempty_reduction("max", self, dims, false);
  return extremum("max", self, dims, false, true);
}
Tensor min(const Tensor& self) {
  const DimVector dims = loops::reduction_dims("min", std::nullopt, self.dim());
  check_nonempty_reduction("min", self, dims, false);
  return extremum("min", self, dims, false, false);
}

// As max.dim: the first minimum wins ties, the first NaN wins over everything.
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  const DimVector dims = one_dim("min", self, dim);
  check_nonempty_reduction("min", self, dims, true);
  const int64_t d = dims.empty() ? 0 : dims[0];
  const DimVector out_shape = loops::reduced_shape(self.sizes(), dims, keepdim);
  Tensor values = empty(out_shape, self.scalar_type());
  Tensor indices = empty(out_shape, ScalarType::Long);
  const Tensor x = self.contiguous();
  int64_t outer, size, inner;
  loops::split_around(x.sizes(), d, outer, size, inner);
  if (x.numel() == 0) return {values, indices};
  dispatch_all(self.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data_ptr<T>();
    T* pv = values.data_ptr<T>();
    int64_t* pi = indices.data_ptr<int64_t>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const T* base = px + o * size * inner + i;
        T best = base[0];
        int64_t best_k = 0;
        for (int64_t k = 1; k < size && !is_nan(best); ++k) {
          const T v = base[k * inner];
          if (v < best || is_nan(v)) {
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

std::tuple<Tensor&, Tensor&> min_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& min,
                                     Tensor& min_indices) {
  return write_pair("min.dim_min", native::min(self, dim, keepdim), min, min_indices);
}

Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  if (!dim.has_value()) {
    if (self.numel() == 0) {
      throw std::out_of_range(
          "argmin(): Expected reduction dim to be specified for input.numel() == 0.");
    }
    const Tensor flat = reshape(self.contiguous(), {-1});
    Tensor index = std::get<1>(min(flat, 0, false));
    if (!keepdim) return index;
    DimVector ones_shape(self.dim(), 1);
    return reshape(index, ones_shape);
  }
  const DimVector dims = one_dim("argmin", self, *dim);
  check_nonempty_reduction("argmin", self, dims, true);
  return std::get<1>(min(self, *dim, keepdim));
}
Tensor& argmin_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor& out) {
  return write_out("argmin.out", argmin(self, dim, keepdim), out);
}

// ---------------------------------------------------------------------------------------------
// all, any, count_nonzero
// ---------------------------------------------------------------------------------------------

namespace {

Tensor all_or_any(const char* op, const Tensor& self, IntArrayRef dims, bool keepdim, bool all) {
  const Tensor b = cast(self, ScalarType::Bool);
  return loops::reduce<bool, uint8_t, bool>(
      op, b, dims, keepdim, ScalarType::Bool, static_cast<uint8_t>(all),
      [all](uint8_t a, bool x) { return static_cast<uint8_t>(all ? (a && x) : (a || x)); },
      [](uint8_t a) { return a != 0; });
}

}  // namespace

Tensor all(const Tensor& self) {
  return all_or_any("all", self, loops::reduction_dims("all", std::nullopt, self.dim()), false,
                    true);
}
Tensor all(const Tensor& self, int64_t dim, bool keepdim) {
  return all_or_any("all", self, one_dim("all", self, dim), keepdim, true);
}
Tensor any(const Tensor& self) {
  return all_or_any("any", self, loops::reduction_dims("any", std::nullopt, self.dim()), false,
                    false);
}
Tensor any(const Tensor& self, int64_t dim, bool keepdim) {
  return all_or_any("any", self, one_dim("any", self, dim), keepdim, false);
}
// all.dims / any.dims: dim=None reduces every dim; dim=[] reduces none (each element's truth
// value), as PyTorch 2.13's.
Tensor all(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  if (dim.has_value() && dim->empty()) return cast(self, ScalarType::Bool);
  return all_or_any("all", self, loops::reduction_dims("all", dim, self.dim()), keepdim, true);
}
Tensor any(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  if (dim.has_value() && dim->empty()) return cast(self, ScalarType::Bool);
  return all_or_any("any", self, loops::reduction_dims("any", dim, self.dim()), keepdim, false);
}
// all / any write a Bool or Byte out only, as PyTorch's ("all only supports bool tensor for
// result, got: Float").
namespace {
Tensor& write_truth(const char* op, const char* name, const Tensor& result, Tensor& out) {
  if (out.scalar_type() != ScalarType::Bool && out.scalar_type() != ScalarType::Byte) {
    throw std::runtime_error(
        std::string(op) + ": " + name +
        " only supports bool tensor for result, got: " + to_string(out.scalar_type()));
  }
  return write_out(op, result, out);
}
}  // namespace
Tensor& all_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  return write_truth("all.out", "all", all(self, dim, keepdim), out);
}
Tensor& all_out(const Tensor& self, Tensor& out) {
  return write_truth("all.all_out", "all", all(self), out);
}
Tensor& all_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, Tensor& out) {
  return write_truth("all.dims_out", "all", all(self, dim, keepdim), out);
}
Tensor& any_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  return write_truth("any.out", "any", any(self, dim, keepdim), out);
}
Tensor& any_out(const Tensor& self, Tensor& out) {
  return write_truth("any.all_out", "any", any(self), out);
}
Tensor& any_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, Tensor& out) {
  return write_truth("any.dims_out", "any", any(self, dim, keepdim), out);
}

Tensor count_nonzero(const Tensor& self, IntArrayRef dim) {
  const DimVector dims = loops::reduction_dims("count_nonzero", dim, self.dim());
  const Tensor b = cast(self, ScalarType::Bool);
  return loops::reduce<bool, int64_t, int64_t>(
      "count_nonzero", b, dims, false, ScalarType::Long, int64_t{0},
      [](int64_t a, bool x) { return a + (x ? 1 : 0); }, [](int64_t a) { return a; });
}
Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim) {
  if (!dim.has_value()) return count_nonzero(self, IntArrayRef());
  const int64_t d = wrap_dim(*dim, self.dim(), "count_nonzero");
  return count_nonzero(self, IntArrayRef(&d, self.dim() == 0 ? 0 : 1));
}

// ---------------------------------------------------------------------------------------------
// nansum, prod
// ---------------------------------------------------------------------------------------------

Tensor nansum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
              std::optional<ScalarType> dtype) {
  const Tensor x = accumulate_input(self, dtype);
  return accumulate("nansum", x, loops::reduction_dims("nansum", dim, x.dim()), keepdim, false,
                    true);
}
Tensor& nansum_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype, Tensor& out) {
  return write_out("nansum.out", nansum(self, dim, keepdim, dtype), out);
}

Tensor prod(const Tensor& self, std::optional<ScalarType> dtype) {
  const Tensor x = accumulate_input(self, dtype);
  return accumulate("prod", x, loops::reduction_dims("prod", std::nullopt, x.dim()), false, true,
                    false);
}
Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  const Tensor x = accumulate_input(self, dtype);
  return accumulate("prod", x, one_dim("prod", x, dim), keepdim, true, false);
}

// ---------------------------------------------------------------------------------------------
// cumsum
// ---------------------------------------------------------------------------------------------

// Running sums along dim, accumulated in double (float types) or int64 (wrapping, as PyTorch);
// bool and integer tensors sum as int64 unless dtype= says otherwise.
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const Tensor x = accumulate_input(self, dtype).contiguous();
  const int64_t d = wrap_dim(dim, x.dim(), "cumsum");
  if (x.scalar_type() == ScalarType::Bool) {
    return cast(cumsum(cast(x, ScalarType::Long), dim, std::nullopt), ScalarType::Bool);
  }
  if (const ScalarType t = x.scalar_type(); is_narrow(t)) {
    return cast(cumsum(widen(x, t), dim, std::nullopt), t);
  }
  Tensor out = make_tensor(x.sizes(), x.scalar_type());
  if (x.numel() == 0) return out;
  int64_t outer, size, inner;
  loops::split_around(x.sizes(), x.dim() == 0 ? 0 : d, outer, size, inner);
  dispatch_arithmetic(x.scalar_type(), "cumsum", [&](auto tag) {
    using T = decltype(tag);
    using A = acc_type<T>;
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        A acc = 0;
        for (int64_t k = 0; k < size; ++k) {
          const int64_t at = (o * size + k) * inner + i;
          if constexpr (std::is_integral<A>::value) {
            acc = static_cast<A>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(px[at]));
          } else {
            acc += static_cast<A>(px[at]);
          }
          po[at] = static_cast<T>(acc);
        }
      }
    }
  });
  return out;
}

Tensor& cumsum_out(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out) {
  return write_out("cumsum.out", cumsum(self, dim, dtype), out);
}

Tensor& cumsum_(Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const Tensor result = cumsum(self, dim, dtype.value_or(self.scalar_type()));
  gradgen::internal::assert_no_internal_overlap(self, "cumsum_");
  gradgen::internal::copy_(self, cast(result, self.scalar_type()));  // bumps the version
  return self;
}

// ---------------------------------------------------------------------------------------------
// var, std, var_mean, std_mean
// ---------------------------------------------------------------------------------------------

namespace {

// (variance, mean) over dims: the mean first, then the squared deviations from it summed in
// double and divided by max(0, n - correction) (inf or NaN when that is 0, as PyTorch).
std::tuple<Tensor, Tensor> var_mean_impl(const char* op, const Tensor& self,
                                         OptionalIntArrayRef dim, std::optional<Scalar> correction,
                                         bool keepdim, bool take_sqrt) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(var_mean_impl, op, self, dim, correction, keepdim, take_sqrt);
  if (!is_floating_point(self.scalar_type())) {
    throw std::invalid_argument(std::string(op) +
                                ": std and var only support floating point and complex dtypes");
  }
  const DimVector dims = loops::reduction_dims(op, dim, self.dim());
  int64_t n = 1;
  for (int64_t d : dims) n *= self.size(d);
  const double c = correction.has_value() ? correction->to_double() : 1.0;
  const double divisor = std::max(0.0, static_cast<double>(n) - c);
  if (divisor <= 0) {
    gradgen::internal::warn(
        std::string(op) +
        "(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
        "factor (input numel divided by output numel).");
  }
  Tensor var, mean;
  dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const double count = static_cast<double>(n);
    mean = loops::reduce<T, double, T>(
        op, self, dims, true, self.scalar_type(), 0.0, [](double a, T x) { return a + x; },
        [count](double a) { return static_cast<T>(a / count); });
    const T* pm = mean.data_ptr<T>();
    DimVector m_strides = loops::contiguous_strides(mean.sizes());
    for (int64_t d : dims) m_strides[d] = 0;
    std::vector<double> acc(static_cast<size_t>(mean.numel()), 0.0);
    const T* px = self.data_ptr<T>();
    loops::strided_loop<2>(op, self.sizes(), {IntArrayRef(m_strides), self.strides()},
                           [&](const std::array<int64_t, 2>& off, int64_t len,
                               const std::array<int64_t, 2>& is) {
                             for (int64_t i = 0; i < len; ++i) {
                               const int64_t o = off[0] + i * is[0];
                               const double dev = static_cast<double>(px[off[1] + i * is[1]]) -
                                                  static_cast<double>(pm[o]);
                               acc[o] += dev * dev;
                             }
                           });
    Tensor r = empty(mean.sizes(), self.scalar_type());
    T* pr = r.data_ptr<T>();
    for (size_t i = 0; i < acc.size(); ++i) {
      const double v = acc[i] / divisor;
      pr[i] = static_cast<T>(take_sqrt ? std::sqrt(v) : v);
    }
    var = r;
  });
  if (!keepdim) {
    const DimVector out_shape = loops::reduced_shape(self.sizes(), dims, false);
    var = reshape(var, out_shape);
    mean = reshape(mean, out_shape);
  }
  return {var, mean};
}

}  // namespace

Tensor var(const Tensor& self, OptionalIntArrayRef dim, std::optional<Scalar> correction,
           bool keepdim) {
  return std::get<0>(var_mean_impl("var", self, dim, correction, keepdim, false));
}
Tensor std(const Tensor& self, OptionalIntArrayRef dim, std::optional<Scalar> correction,
           bool keepdim) {
  return std::get<0>(var_mean_impl("std", self, dim, correction, keepdim, true));
}
Tensor& var_out(const Tensor& self, OptionalIntArrayRef dim, std::optional<Scalar> correction,
                bool keepdim, Tensor& out) {
  return write_out("var.correction_out", var(self, dim, correction, keepdim), out);
}
Tensor& std_out(const Tensor& self, OptionalIntArrayRef dim, std::optional<Scalar> correction,
                bool keepdim, Tensor& out) {
  return write_out("std.correction_out", std(self, dim, correction, keepdim), out);
}
// The unbiased= out= variants: correction 1 when unbiased, else 0 (var.dim's composite).
Tensor& var_out(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim,
                Tensor& out) {
  return write_out("var.out", var(self, dim, Scalar(unbiased ? 1 : 0), keepdim), out);
}
Tensor& std_out(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim,
                Tensor& out) {
  return write_out("std.out", std(self, dim, Scalar(unbiased ? 1 : 0), keepdim), out);
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    std::optional<Scalar> correction, bool keepdim) {
  return var_mean_impl("var_mean", self, dim, correction, keepdim, false);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    std::optional<Scalar> correction, bool keepdim) {
  return var_mean_impl("std_mean", self, dim, correction, keepdim, true);
}

}  // namespace native
}  // namespace gradgen
