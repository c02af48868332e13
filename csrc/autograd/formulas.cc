#include "csrc/autograd/formulas.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/gemm.h"
#include "csrc/native/loops.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/simd/pointwise.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

// ---------------------------------------------------------------------------
// General
// ---------------------------------------------------------------------------

Tensor not_implemented(const char* name) {
  throw std::runtime_error(std::string("the derivative for '") + name +
                           "' is not implemented in gradgen");
}

std::vector<Tensor> not_implemented_list(const char* name) { not_implemented(name); }

Tensor sum_to(const Tensor& grad, IntArrayRef shape) {
  if (grad.sizes().equals(shape)) return grad;
  const int64_t ndim = grad.dim();
  const int64_t lead = ndim - static_cast<int64_t>(shape.size());
  if (lead < 0 || !native::loops::broadcasts_to(shape, grad.sizes())) {
    throw std::invalid_argument("sum_to: a gradient of shape " + shape_str(grad.sizes()) +
                                " cannot be summed to shape " + shape_str(shape));
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < ndim; ++d) {
    if (d < lead || (shape[d - lead] == 1 && grad.size(d) != 1)) dims.push_back(d);
  }
  Tensor summed = dims.empty() ? grad : gradgen::sum(grad, dims, /*keepdim=*/true);
  return summed.sizes().equals(shape) ? summed : gradgen::reshape(summed, shape);
}

namespace {
// The engine sums a broadcast gradient to its input's shape with sum_to (csrc/autograd/engine.h).
const bool kSumToRegistered = (set_sum_to_fn(&sum_to), true);
}  // namespace

Tensor maybe_multiply(const Tensor& t, const Scalar& s) {
  const bool is_one = s.is_boolean() ? s.to_bool() : s.to_double() == 1.0;
  return is_one ? t : t * s;
}

// ---------------------------------------------------------------------------
// Element-wise
// ---------------------------------------------------------------------------

Tensor pow_backward(const Tensor& grad, const Tensor& self, const Scalar& exponent) {
  const double e = exponent.to_double();
  if (e == 0.0) return zeros_like(self);
  if (e == 1.0) return grad;
  if (e == 2.0) return grad * (2 * self);
  return grad * (e * gradgen::pow(self, e - 1.0));
}

Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Tensor& exponent) {
  // PyTorch's pow_backward_self: no gradient where the exponent is 0 (0 * 0^-1 would be NaN).
  // (The masks compare in the operands' result type: the exponent may be an integer tensor.)
  const Tensor zero_exponent = gradgen::eq(exponent, 0);
  if (exponent.scalar_type() == ScalarType::Bool) {
    // PyTorch's formula subtracts 1 from the exponent, which it refuses for bool tensors.
    throw std::invalid_argument(
        "pow_backward_self: Subtraction, the `-` operator, with a bool tensor is not supported. "
        "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  }
  const Tensor g = grad * (exponent * gradgen::pow(self, exponent - 1));
  return gradgen::where(zero_exponent, zeros_like(g), g);
}

Tensor pow_backward_exponent(const Tensor& grad, const Tensor& self, const Tensor& exponent,
                             const Tensor& result) {
  // PyTorch's pow_backward_exponent: no gradient where self == 0 and exponent >= 0 (the limit
  // of result * log(self) there is 0, not NaN or -inf).
  const Tensor zero_base = gradgen::mul(gradgen::eq(self, 0), gradgen::ge(exponent, 0));  // and
  // log of self in the result type, as PyTorch (an int64 or float32 base with a float64 exponent).
  const Tensor base =
      self.scalar_type() == result.scalar_type() ? self : gradgen::to(self, result.scalar_type());
  const Tensor g = result * gradgen::log(base);
  return grad * gradgen::where(zero_base, zeros_like(g), g);
}

Tensor pow_backward_exponent(const Tensor& grad, const Scalar& self, const Tensor& exponent,
                             const Tensor& result) {
  return pow_backward_exponent(grad, gradgen::full({}, self, result.scalar_type()), exponent,
                               result);
}

Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max) {
  // PyTorch's where((min <= self) & (self <= max), grad, 0): the mask is false at NaN (no
  // gradient there), and a clamped element gets 0 even from an inf or NaN grad (a product
  // with a 0/1 mask would give NaN). The mask is a constant of the formula: no history.
  Tensor mask;
  // float16 and bfloat16 compare as float32 (exact: the conversion is).
  const Tensor x =
      native::is_narrow(self.scalar_type()) ? native::widen(self, self.scalar_type()) : self;
  gradgen::internal::dispatch_floating(x.scalar_type(), "clamp_backward", [&](auto tag) {
    using T = decltype(tag);
    const bool has_lo = min.has_value(), has_hi = max.has_value();
    const T lo = has_lo ? min->to<T>() : T(0);
    const T hi = has_hi ? max->to<T>() : T(0);
    mask = native::loops::unary_map<T, bool>("clamp_backward", x, ScalarType::Bool, [=](T v) {
      return (!has_lo || v >= lo) && (!has_hi || v <= hi);
    });
  });
  return gradgen::where(mask, grad, zeros_like(grad));
}

// ---------------------------------------------------------------------------
// Reductions
// ---------------------------------------------------------------------------

Tensor sum_backward(const Tensor& grad, IntArrayRef self_sizes, OptionalIntArrayRef dim,
                    bool keepdim) {
  const int64_t ndim = static_cast<int64_t>(self_sizes.size());
  Tensor g = grad;
  if (!keepdim && ndim > 0) {
    const DimVector dims = native::loops::reduction_dims("sum_backward", dim, ndim);
    for (int64_t d : dims) g = gradgen::unsqueeze(g, d);  // ascending: positions stay right
  }
  return gradgen::expand(g, self_sizes);
}

Tensor mean_backward(const Tensor& grad, IntArrayRef self_sizes, OptionalIntArrayRef dim,
                     int64_t numel, bool keepdim) {
  const int64_t ndim = static_cast<int64_t>(self_sizes.size());
  int64_t count = numel;
  if (dim.has_value() && !dim->empty() && ndim > 0) {
    count = 1;
    for (int64_t d : native::loops::reduction_dims("mean_backward", dim, ndim)) {
      count *= self_sizes[d];
    }
  }
  return sum_backward(grad, self_sizes, dim, keepdim) / count;
}

Tensor value_selecting_reduction_backward(const Tensor& grad, int64_t dim, const Tensor& indices,
                                          IntArrayRef self_sizes, bool keepdim) {
  if (self_sizes.empty()) return grad;  // a 0-dim input: its only element was selected
  Tensor g = grad, index = indices;
  if (!keepdim) {
    g = gradgen::unsqueeze(grad, dim);
    index = gradgen::unsqueeze(indices, dim);
  }
  return gradgen::scatter_add(zeros(self_sizes, grad.scalar_type()), dim, index, g);
}

Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result,
                          IntArrayRef dim, bool keepdim) {
  Tensor g = grad, r = result;
  if (!keepdim && self.dim() > 0) {
    for (int64_t d : native::loops::reduction_dims("logsumexp_backward", dim, self.dim())) {
      g = gradgen::unsqueeze(g, d);
      r = gradgen::unsqueeze(r, d);
    }
  }
  return g * gradgen::exp(self - r);
}

// ---------------------------------------------------------------------------
// Matrix products
// ---------------------------------------------------------------------------

std::tuple<Tensor, Tensor, Tensor> linear_backward(const Tensor& input, const Tensor& grad,
                                                   const Tensor& weight,
                                                   std::array<bool, 3> grad_input_mask) {
  if (!grad.defined()) return {};
  const int64_t out_features = weight.size(0), in_features = weight.size(1);
  Tensor grad_input, grad_weight, grad_bias;
  if (grad_input_mask[0]) grad_input = gradgen::matmul(grad, weight);
  if (grad_input_mask[1] || grad_input_mask[2]) {
    const Tensor g2 = gradgen::reshape(grad, {-1, out_features});
    if (grad_input_mask[1]) {
      grad_weight = gradgen::mm(gradgen::t(g2), gradgen::reshape(input, {-1, in_features}));
    }
    if (grad_input_mask[2]) grad_bias = gradgen::sum(g2, {0});
  }
  return {grad_input, grad_weight, grad_bias};
}

// ---------------------------------------------------------------------------
// Shape ops and indexing
// ---------------------------------------------------------------------------

std::vector<Tensor> cat_tensors_backward(const Tensor& grad,
                                         const std::vector<std::vector<int64_t>>& sizes,
                                         int64_t dim) {
  if (sizes.empty()) return {};
  // As PyTorch's: a legacy empty input (shape [0], which cat skipped) gets an empty gradient, and
  // dim wraps with the first other input's dims.
  auto legacy_empty = [](const std::vector<int64_t>& shape) {
    return shape.size() == 1 && shape[0] == 0;
  };
  size_t ref = 0;
  while (ref + 1 < sizes.size() && legacy_empty(sizes[ref])) ++ref;
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes[ref].size()), "cat_tensors_backward");
  std::vector<Tensor> grads;
  grads.reserve(sizes.size());
  int64_t offset = 0;
  for (const std::vector<int64_t>& shape : sizes) {
    if (legacy_empty(shape) && !legacy_empty(sizes[ref])) {
      grads.push_back(zeros({0}, grad.scalar_type()));
      continue;
    }
    const int64_t length = shape[d];
    grads.push_back(gradgen::narrow(grad, d, offset, length));
    offset += length;
  }
  return grads;
}

Tensor narrow_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, int64_t start,
                       int64_t length) {
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(self_sizes.size()), "narrow_backward");
  const int64_t size = self_sizes[d];
  const int64_t begin = start < 0 ? start + size : start;
  const int64_t after = size - begin - length;
  if (begin == 0 && after == 0) return grad;
  std::vector<Tensor> pieces;
  DimVector pad_sizes(self_sizes.begin(), self_sizes.end());
  if (begin > 0) {
    pad_sizes[d] = begin;
    pieces.push_back(zeros(pad_sizes, grad.scalar_type()));
  }
  pieces.push_back(grad);
  if (after > 0) {
    pad_sizes[d] = after;
    pieces.push_back(zeros(pad_sizes, grad.scalar_type()));
  }
  return gradgen::cat(pieces, d);
}

Tensor select_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, int64_t index) {
  const int64_t ndim = static_cast<int64_t>(self_sizes.size());
  const int64_t d = wrap_dim(dim, ndim, "select_backward");
  const int64_t i = index < 0 ? index + self_sizes[d] : index;
  return narrow_backward(gradgen::unsqueeze(grad, d), self_sizes, d, i, 1);
}

Tensor permute_backwards(const Tensor& grad, IntArrayRef dims) {
  const int64_t n = static_cast<int64_t>(dims.size());
  std::vector<int64_t> inverse(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) inverse[wrap_dim(dims[k], n, "permute_backwards")] = k;
  return gradgen::permute(grad, inverse);
}

Tensor index_select_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim,
                             const Tensor& index) {
  return gradgen::index_add(zeros(self_sizes, grad.scalar_type()), dim, index, grad);
}

Tensor gather_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim,
                       const Tensor& index) {
  return gradgen::scatter_add(zeros(self_sizes, grad.scalar_type()), dim, index, grad);
}

// ---------------------------------------------------------------------------
// Lists out
// ---------------------------------------------------------------------------

namespace {

// grads[i], or zeros of the shape piece i had (its size along dim is `length`).
Tensor grad_or_zeros(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, int64_t length,
                     ScalarType dtype) {
  if (grad.defined()) return grad;
  DimVector sizes(self_sizes.begin(), self_sizes.end());
  if (dim >= 0) sizes[dim] = length;
  return zeros(sizes, dtype);
}

}  // namespace

Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim,
                      IntArrayRef self_sizes, ScalarType dtype) {
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(self_sizes.size()), "split_backward");
  const int64_t size = self_sizes[d];
  std::vector<Tensor> pieces;
  pieces.reserve(grads.size());
  for (size_t i = 0; i < grads.size(); ++i) {
    const int64_t start = static_cast<int64_t>(i) * split_size;
    pieces.push_back(
        grad_or_zeros(grads[i], self_sizes, d, std::min(split_size, size - start), dtype));
  }
  return gradgen::cat(pieces, d);
}

Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim, IntArrayRef self_sizes,
                       ScalarType dtype) {
  const int64_t ndim = static_cast<int64_t>(self_sizes.size());
  const int64_t d = wrap_dim(dim, ndim, "unbind_backward");
  DimVector piece;
  for (int64_t k = 0; k < ndim; ++k) {
    if (k != d) piece.push_back(self_sizes[k]);
  }
  std::vector<Tensor> pieces;
  pieces.reserve(grads.size());
  for (const Tensor& g : grads) pieces.push_back(g.defined() ? g : zeros(piece, dtype));
  return gradgen::stack(pieces, d);
}

Tensor chunk_backward(const std::vector<Tensor>& grads, int64_t chunks, int64_t dim,
                      IntArrayRef self_sizes, ScalarType dtype) {
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(self_sizes.size()), "chunk_backward");
  const int64_t split_size = std::max<int64_t>((self_sizes[d] + chunks - 1) / chunks, 1);
  return split_backward(grads, split_size, d, self_sizes, dtype);
}

// ---------------------------------------------------------------------------
// Neural-network ops
// ---------------------------------------------------------------------------

namespace {

Tensor to_dtype(const Tensor& t, ScalarType dtype) {
  return t.scalar_type() == dtype ? t : gradgen::to(t, dtype);
}

}  // namespace

Tensor softmax_backward_data(const Tensor& grad, const Tensor& result, int64_t dim,
                             ScalarType input_dtype) {
  if (!GradMode::is_enabled()) {
    // No graph: float16 / bfloat16 in float32, rounded once, as PyTorch's kernel.
    GRADGEN_REDUCED_FLOAT_CALL_IN_FLOAT32(
        ::gradgen::autograd::generated::details::softmax_backward_data, grad, result, dim,
        input_dtype);
  }
  const Tensor g = result * (grad - gradgen::sum(grad * result, {dim}, /*keepdim=*/true));
  return to_dtype(g, input_dtype);
}

Tensor log_softmax_backward_data(const Tensor& grad, const Tensor& result, int64_t dim,
                                 ScalarType input_dtype) {
  if (!GradMode::is_enabled()) {
    GRADGEN_REDUCED_FLOAT_CALL_IN_FLOAT32(
        ::gradgen::autograd::generated::details::log_softmax_backward_data, grad, result, dim,
        input_dtype);
  }
  const Tensor g = grad - gradgen::exp(result) * gradgen::sum(grad, {dim}, /*keepdim=*/true);
  return to_dtype(g, input_dtype);
}

namespace {

// mse_loss_backward without a graph: one fused pass, c * (self - target) with c = 2 grad
// (/ numel for Mean), instead of four element-wise ops; float16 / bfloat16 in float32, rounded
// once, as PyTorch's kernel.
Tensor mse_loss_backward_fused(const Tensor& grad, const Tensor& self, const Tensor& target,
                               int64_t reduction) {
  GRADGEN_REDUCED_FLOAT_CALL_IN_FLOAT32(mse_loss_backward_fused, grad, self, target, reduction);
  const Tensor a = self.contiguous(), b = target.contiguous();
  Tensor out = empty(a.sizes(), a.scalar_type());
  const int64_t n = a.numel();
  gradgen::internal::dispatch_floating(a.scalar_type(), "mse_loss_backward", [&](auto tag) {
    using T = decltype(tag);
    const T g = *grad.data_ptr<T>();
    const T c = reduction == Reduction::Mean ? T(2) * g / T(n) : T(2) * g;
    const T* pa = a.data_ptr<T>();
    const T* pb = b.data_ptr<T>();
    T* po = out.data_ptr<T>();
    // Vectorized, and split across the intra-op threads when large.
    native::parallel_for(n, native::kParallelGrain, 64, [=](int64_t begin, int64_t end) {
      native::vec::scaled_difference(pa + begin, pb + begin, c, po + begin, end - begin);
    });
  });
  return out;
}

}  // namespace

Tensor mse_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                         int64_t reduction) {
  const bool floating = self.scalar_type() == ScalarType::Float ||
                        self.scalar_type() == ScalarType::Double ||
                        native::is_reduced_float(self.scalar_type());
  if (!GradMode::is_enabled() && reduction != Reduction::None && grad.dim() == 0 && floating &&
      self.scalar_type() == target.scalar_type() && grad.scalar_type() == self.scalar_type() &&
      self.sizes().equals(target.sizes())) {
    return mse_loss_backward_fused(grad, self, target, reduction);
  }
  // grad is 0-dim for Mean and Sum: broadcasting spreads it. self and target may broadcast
  // together: the mean is over the broadcast shape, and the gradient sums back to self's shape
  // (torch.nn.functional.mse_loss's gradient; ATen's mse_loss divides by self's numel there).
  const Tensor diff = self - target;
  Tensor g = 2 * diff * grad;
  if (reduction == Reduction::Mean) g = g / diff.numel();
  return sum_to(g, self.sizes());
}

// ---------------------------------------------------------------------------
// cumprod
// ---------------------------------------------------------------------------

namespace {

// PyTorch's O(n) first-order cumprod_backward, exact with zeros, along each line of dim of the
// contiguous x (y = cumprod(x), g the gradient). With z the first zero of a line:
//   k < z:  sum_{k <= j < z} g_j y_j / x_k            (the later terms hold the zero x_z)
//   k = z:  y_{z-1} * sum_{z <= j < z2} g_j prod_{z < i <= j} x_i   (z2 the second zero)
//   k > z:  0                                         (every product holds x_z)
template <typename T>
void cumprod_backward_line(const T* x, const T* y, const T* g, T* out, int64_t n, int64_t step) {
  int64_t z = n;
  for (int64_t k = 0; k < n; ++k) {
    if (x[k * step] == T(0)) {
      z = k;
      break;
    }
  }
  T acc = 0;  // sum_{k <= j < z} g_j y_j, from the right
  for (int64_t k = z - 1; k >= 0; --k) {
    acc += g[k * step] * y[k * step];
    out[k * step] = acc / x[k * step];
  }
  if (z == n) return;
  T partial = 1, total = 0;  // prod_{z < i <= j} x_i, and the sum over j
  for (int64_t j = z; j < n; ++j) {
    if (j > z) {
      if (x[j * step] == T(0)) break;
      partial *= x[j * step];
    }
    total += g[j * step] * partial;
  }
  out[z * step] = (z == 0 ? T(1) : y[(z - 1) * step]) * total;
  for (int64_t k = z + 1; k < n; ++k) out[k * step] = 0;
}

// The product of x along dim (keepdim), differentiable: the last entry of cumprod.
Tensor prod_keepdim(const Tensor& x, int64_t dim) {
  return gradgen::narrow(gradgen::cumprod(x, dim), dim, x.size(dim) - 1, 1);
}

}  // namespace

Tensor cumprod_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& result) {
  if (self.numel() <= 1) return grad;
  const int64_t d = wrap_dim(dim, self.dim(), "cumprod_backward");
  const int64_t n = self.dim() == 0 ? 1 : self.size(d);
  if (n == 1) return grad;
  if (!GradMode::is_enabled()) {
    GRADGEN_REDUCED_FLOAT_CALL_IN_FLOAT32(::gradgen::autograd::generated::details::cumprod_backward,
                                          grad, self, dim, result);
    // In the result's dtype (cumprod's dtype= may differ from self's; the engine converts back).
    const ScalarType dtype = result.scalar_type();
    const Tensor x = gradgen::internal::to_dtype(self, dtype).contiguous();
    const Tensor y = result.contiguous();
    const Tensor g = gradgen::internal::to_dtype(grad, dtype).contiguous();
    Tensor out = zeros(self.sizes(), dtype);
    int64_t outer, size, inner;
    native::loops::split_around(x.sizes(), d, outer, size, inner);
    gradgen::internal::dispatch_floating(x.scalar_type(), "cumprod_backward", [&](auto tag) {
      using T = decltype(tag);
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          const int64_t at = o * size * inner + i;
          cumprod_backward_line(x.data_ptr<T>() + at, y.data_ptr<T>() + at, g.data_ptr<T>() + at,
                                out.data_ptr<T>() + at, size, inner);
        }
      }
    });
    return out;
  }
  // Under create_graph, PyTorch's O(n^2) form, differentiable (its own derivative is the second
  // derivative of cumprod): grad_input_k = sum_{j >= k} g_j prod_{i <= j, i != k} x_i.
  std::vector<Tensor> pieces;
  pieces.reserve(static_cast<size_t>(n));
  DimVector ones_size(self.sizes().begin(), self.sizes().end());
  ones_size[d] = 1;
  const Tensor ones_slice = gradgen::ones_like(gradgen::narrow(self, d, 0, 1));
  for (int64_t k = 0; k < n; ++k) {
    Tensor omitted;  // prod_{i < k} x_i * prod_{k < i <= j} x_i, for j = k .. n-1
    if (k == 0) {
      omitted =
          gradgen::cat({ones_slice, gradgen::cumprod(gradgen::narrow(self, d, 1, n - 1), d)}, d);
    } else if (k == n - 1) {
      omitted = prod_keepdim(gradgen::narrow(self, d, 0, k), d);
    } else {
      const Tensor until_k = prod_keepdim(gradgen::narrow(self, d, 0, k), d);
      const Tensor from_k1 = gradgen::cumprod(gradgen::narrow(self, d, k + 1, n - k - 1), d);
      omitted = gradgen::cat({until_k, until_k * from_k1}, d);
    }
    pieces.push_back(gradgen::sum(gradgen::narrow(grad, d, k, n - k) * omitted, {d}, true));
  }
  return gradgen::cat(pieces, d);
}

namespace {

// nll_loss_backward's coefficient of each target (in self's dtype; float16 / bfloat16 computed in
// float32, rounded once) and the class it lands on.
std::tuple<Tensor, Tensor> nll_loss_coefficients(const Tensor& self, const Tensor& target,
                                                 const Tensor& weight, int64_t reduction,
                                                 int64_t ignore_index) {
  GRADGEN_REDUCED_FLOAT_CALL_IN_FLOAT32(nll_loss_coefficients, self, target, weight, reduction,
                                        ignore_index);
  Tensor coef = empty(target.sizes(), self.scalar_type());
  Tensor index = empty(target.sizes(), ScalarType::Long);
  gradgen::internal::dispatch_floating(self.scalar_type(), "nll_loss_backward", [&](auto tag) {
    using T = decltype(tag);
    const Tensor tg = target.contiguous();
    const int64_t* pt = tg.data_ptr<int64_t>();
    T* pc = coef.data_ptr<T>();
    int64_t* pi = index.data_ptr<int64_t>();
    double total_weight = 0;
    const int64_t count = tg.numel();
    for (int64_t i = 0; i < count; ++i) {
      const bool ignored = pt[i] == ignore_index;
      pi[i] = ignored ? 0 : pt[i];
      const T w = ignored            ? T(0)
                  : weight.defined() ? weight.data_ptr<T>()[pt[i] * weight.stride(0)]
                                     : T(1);
      pc[i] = -w;
      total_weight += w;
    }
    if (reduction == Reduction::Mean) {
      // As PyTorch, also when the total weight is 0 (the loss is NaN): -w / 0 is NaN or inf
      // for every target that is not ignored; ignored ones keep 0.
      for (int64_t i = 0; i < count; ++i) {
        if (pt[i] != ignore_index) pc[i] = static_cast<T>(pc[i] / total_weight);
      }
    }
  });
  return {coef, index};
}

}  // namespace

Tensor nll_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                         const Tensor& weight, int64_t reduction, int64_t ignore_index) {
  // d loss / d self[n, t, s] = -w[t] (/ total weight for Mean) at each sample n and position s
  // of target t; 0 elsewhere and for ignored targets. The coefficients are constants (weight
  // gets no gradient). self is seen as [N, C, S] (S: the product of the spatial dims, 1 without).
  const int64_t c = self.dim() == 1 ? self.size(0) : self.size(1);
  const int64_t n = self.dim() == 1 ? 1 : self.size(0);
  const int64_t spatial = c == 0 || n == 0 ? 0 : self.numel() / (n * c);
  const auto [coef, index] = nll_loss_coefficients(self, target, weight, reduction, ignore_index);
  // grad is target-shaped for None, 0-dim otherwise; each coefficient lands on its target's class.
  const Tensor g = gradgen::reshape(grad * coef, {n, 1, spatial});
  const Tensor result = gradgen::scatter_add(zeros({n, c, spatial}, self.scalar_type()), 1,
                                             gradgen::reshape(index, {n, 1, spatial}), g);
  return gradgen::reshape(result, self.sizes());
}

Tensor embedding_backward(const Tensor& grad, const Tensor& indices, int64_t num_weights,
                          int64_t padding_idx, bool scale_grad_by_freq) {
  // An index outside [0, num_weights) would be read out of bounds below (counts).
  gradgen::native::loops::check_embedding_indices("embedding_backward", indices, num_weights);
  const int64_t dim = grad.size(-1);
  const Tensor flat = gradgen::reshape(indices, {-1});
  Tensor g = gradgen::reshape(grad, {-1, dim});
  const int64_t n = flat.numel();
  if (padding_idx >= 0 || scale_grad_by_freq) {
    // Per-row constant factors: 0 for padding_idx, 1/count with scale_grad_by_freq.
    std::vector<int64_t> counts(static_cast<size_t>(num_weights), 0);
    const Tensor idx = flat.contiguous();
    const int64_t* pi = idx.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      ++counts[pi[i]];  // checked above
    }
    // In the dtype of `like` (grad's; float32 for float16 / bfloat16, rounded once).
    const auto make_factor = [&](const Tensor& like) {
      Tensor factor = empty({n, 1}, like.scalar_type());
      gradgen::internal::dispatch_floating(like.scalar_type(), "embedding_backward", [&](auto tag) {
        using T = decltype(tag);
        T* pf = factor.data_ptr<T>();
        for (int64_t i = 0; i < n; ++i) {
          T f = pi[i] == padding_idx ? T(0) : T(1);
          if (scale_grad_by_freq && counts[pi[i]] > 0) f /= static_cast<T>(counts[pi[i]]);
          pf[i] = f;
        }
      });
      return factor;
    };
    const ScalarType dtype = grad.scalar_type();
    g = g * (native::is_reduced_float(dtype) ? native::in_float32(dtype, make_factor, grad)
                                             : make_factor(grad));
  }
  return gradgen::index_add(zeros({num_weights, dim}, grad.scalar_type()), 0, flat, g);
}

std::tuple<Tensor, std::vector<Tensor>, Tensor, Tensor, Tensor, Tensor> lstm_cell_backward(
    const Tensor& grad_hy, const Tensor& grad_cy, const Tensor& input,
    const std::vector<Tensor>& hx, const Tensor& w_ih, const Tensor& w_hh, const Tensor& b_ih,
    const Tensor& b_hh, std::array<bool, 6> grad_input_mask) {
  if (!grad_hy.defined() && !grad_cy.defined()) return {};
  const Tensor& h = hx[0];
  const Tensor& c = hx[1];
  // Recompute the gates (as the kernel does) with differentiable ops.
  Tensor gates = gradgen::linear(input, w_ih, b_ih) + gradgen::linear(h, w_hh, b_hh);
  const std::vector<Tensor> g = gradgen::chunk(gates, 4, 1);
  const Tensor i = gradgen::sigmoid(g[0]), f = gradgen::sigmoid(g[1]);
  const Tensor cell = gradgen::tanh(g[2]), o = gradgen::sigmoid(g[3]);
  const Tensor cy = f * c + i * cell;
  const Tensor tanh_cy = gradgen::tanh(cy);
  // Back through hy = o * tanh(cy) and cy = f * c + i * cell.
  Tensor d_o, d_cy;
  if (grad_hy.defined()) {
    d_o = grad_hy * tanh_cy;
    d_cy = gradgen::tanh_backward(grad_hy * o, tanh_cy);
  } else {
    d_o = zeros_like(o);
    d_cy = zeros_like(cy);
  }
  if (grad_cy.defined()) d_cy = d_cy + grad_cy;
  const Tensor d_gates =
      gradgen::cat({gradgen::sigmoid_backward(d_cy * cell, i),
                    gradgen::sigmoid_backward(d_cy * c, f), gradgen::tanh_backward(d_cy * i, cell),
                    gradgen::sigmoid_backward(d_o, o)},
                   1);
  Tensor d_input, d_w_ih, d_w_hh, d_b_ih, d_b_hh;
  std::vector<Tensor> d_hx;
  if (grad_input_mask[0]) d_input = gradgen::mm(d_gates, w_ih);
  if (grad_input_mask[1]) d_hx = {gradgen::mm(d_gates, w_hh), d_cy * f};
  if (grad_input_mask[2]) d_w_ih = gradgen::mm(gradgen::t(d_gates), input);
  if (grad_input_mask[3]) d_w_hh = gradgen::mm(gradgen::t(d_gates), h);
  if (grad_input_mask[4] || grad_input_mask[5]) {
    const Tensor d_b = gradgen::sum(d_gates, {0});
    if (grad_input_mask[4]) d_b_ih = d_b;
    if (grad_input_mask[5]) d_b_hh = d_b;
  }
  return {d_input, d_hx, d_w_ih, d_w_hh, d_b_ih, d_b_hh};
}

// ---------------------------------------------------------------------------
// PyTorch's formula environment
// ---------------------------------------------------------------------------

// PyTorch's comparison and mask operators (formulas.h).
Tensor operator==(const Tensor& a, const Scalar& b) { return gradgen::eq(a, b); }
Tensor operator!=(const Tensor& a, const Scalar& b) { return gradgen::ne(a, b); }
Tensor operator==(const Tensor& a, const Tensor& b) { return gradgen::eq(a, b); }
Tensor operator!=(const Tensor& a, const Tensor& b) { return gradgen::ne(a, b); }
Tensor operator<(const Tensor& a, const Tensor& b) { return gradgen::lt(a, b); }
Tensor operator>(const Tensor& a, const Tensor& b) { return gradgen::gt(a, b); }
Tensor operator<=(const Tensor& a, const Tensor& b) { return gradgen::le(a, b); }
Tensor operator>=(const Tensor& a, const Tensor& b) { return gradgen::ge(a, b); }
Tensor operator&(const Tensor& a, const Tensor& b) { return gradgen::logical_and(a, b); }
Tensor operator|(const Tensor& a, const Tensor& b) { return gradgen::logical_or(a, b); }

Tensor ones(IntArrayRef sizes, const TensorOptions& options) {
  return gradgen::ones(sizes, options.dtype());
}
Tensor zeros_symint(IntArrayRef sizes, const TensorOptions& options) {
  return gradgen::zeros(sizes, options.dtype());
}
Tensor scalar_tensor(const Scalar& s, const TensorOptions& options) {
  return gradgen::full({}, s, options.dtype());
}
Tensor new_zeros_symint(const Tensor& self, IntArrayRef size) {
  return gradgen::zeros(size, self.scalar_type());
}
Tensor masked_fill_inplace_if_safe(const Tensor& self, const Tensor& mask, const Scalar& value) {
  return gradgen::masked_fill(self, mask, value);
}

Tensor masked_fill_(Tensor&& self, const Tensor& mask, const Scalar& value) {
  gradgen::masked_fill_(self, mask, value);
  return std::move(self);
}

Tensor expand_symint(const Tensor& self, IntArrayRef size) { return gradgen::expand(self, size); }

Tensor reshape_symint(const Tensor& self, IntArrayRef shape) {
  return gradgen::reshape(self, shape);
}

Tensor sum_to_size(const Tensor& self, IntArrayRef size) { return sum_to(self, size); }

Tensor unsqueeze_to(const Tensor& grad, IntArrayRef sizes) {
  return grad.sizes().equals(sizes) ? grad : gradgen::reshape(grad, sizes);
}

Tensor unsqueeze_to(const Tensor& grad, int64_t dim, IntArrayRef sizes) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (ndim == 0) return unsqueeze_to(grad, sizes);
  const int64_t d = wrap_dim(dim, ndim, "unsqueeze_to");
  return sizes[d] == 1 && grad.dim() < ndim ? gradgen::unsqueeze(grad, d) : grad;
}

Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, IntArrayRef /*mat1_sizes*/,
                        IntArrayRef /*mat1_strides*/, Layout /*mat1_layout*/, const Scalar& alpha) {
  return maybe_multiply(gradgen::mm(grad, gradgen::t(mat2)), alpha);
}

Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, IntArrayRef /*mat2_sizes*/,
                        IntArrayRef /*mat2_strides*/, Layout /*mat2_layout*/, const Scalar& alpha) {
  return maybe_multiply(gradgen::mm(gradgen::t(mat1), grad), alpha);
}

std::tuple<Tensor, Tensor> matmul_backward(const Tensor& grad, const Tensor& self,
                                           const Tensor& other,
                                           std::array<bool, 2> grad_input_mask) {
  if (!grad.defined()) return {};
  const int64_t a = self.dim(), b = other.dim();
  Tensor grad_self, grad_other;
  if (a == 1 && b == 1) {  // a dot product: grad is 0-dim
    if (grad_input_mask[0]) grad_self = grad * other;
    if (grad_input_mask[1]) grad_other = grad * self;
    return {grad_self, grad_other};
  }
  // The ranks matmul promotes its operands to: a 1-D self is a row [1, k], a 1-D other a
  // column [k, 1]; the gradient gets the dims that promotion added back.
  const Tensor s = a == 1 ? gradgen::unsqueeze(self, 0) : self;
  const Tensor o = b == 1 ? gradgen::unsqueeze(other, 1) : other;
  Tensor g = grad;
  if (a == 1) g = gradgen::unsqueeze(g, -2);
  if (b == 1) g = gradgen::unsqueeze(g, -1);
  if (grad_input_mask[0]) {
    grad_self = sum_to(gradgen::matmul(g, gradgen::transpose(o, -1, -2)), s.sizes());
    if (a == 1) grad_self = gradgen::squeeze(grad_self, 0);
  }
  if (grad_input_mask[1]) {
    grad_other = sum_to(gradgen::matmul(gradgen::transpose(s, -1, -2), g), o.sizes());
    if (b == 1) grad_other = gradgen::squeeze(grad_other, 1);
  }
  return {grad_self, grad_other};
}

Tensor mul_tensor_backward(const Tensor& grad, const Tensor& other, ScalarType /*self_st*/) {
  return grad * other;
}

Tensor mul_tensor_backward(const Tensor& grad, const Scalar& other, ScalarType /*self_st*/) {
  return grad * other;
}

Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, ScalarType /*self_st*/) {
  return grad / other;
}

Tensor div_tensor_self_backward(const Tensor& grad, const Scalar& other, ScalarType /*self_st*/) {
  return grad / other;
}

Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other) {
  return -grad * ((self / other) / other);
}

std::vector<Tensor> cat_tensors_backward(const Tensor& grad,
                                         const std::vector<std::vector<int64_t>>& sizes,
                                         const std::vector<ScalarType>& dtypes, int64_t dim) {
  std::vector<Tensor> grads = cat_tensors_backward(grad, sizes, dim);
  for (size_t i = 0; i < grads.size() && i < dtypes.size(); ++i) {
    grads[i] = to_dtype(grads[i], dtypes[i]);
  }
  return grads;
}

std::vector<Tensor> stack_tensors_backward(const Tensor& grad, int64_t dim,
                                           const std::vector<ScalarType>& dtypes) {
  std::vector<Tensor> grads = gradgen::unbind(grad, dim);
  for (size_t i = 0; i < grads.size() && i < dtypes.size(); ++i) {
    grads[i] = to_dtype(grads[i], dtypes[i]);
  }
  return grads;
}

Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim) {
  const Tensor* like = nullptr;
  for (const Tensor& g : grads) {
    if (g.defined()) {
      like = &g;
      break;
    }
  }
  if (like == nullptr) {
    throw std::runtime_error("unbind_backward: none of the " + std::to_string(grads.size()) +
                             " gradients is defined");
  }
  std::vector<Tensor> pieces;
  pieces.reserve(grads.size());
  for (const Tensor& g : grads) pieces.push_back(g.defined() ? g : zeros_like(*like));
  return gradgen::stack(pieces, dim);
}

Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim,
                      IntArrayRef self_sizes, const TensorOptions& options) {
  return split_backward(grads, split_size, dim, self_sizes, options.dtype());
}

Tensor gather_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& index,
                       bool sparse_grad) {
  if (sparse_grad) not_implemented("gather with sparse_grad=True (gradgen has no sparse tensors)");
  return gather_backward(grad, self.sizes(), dim, index);
}

Tensor value_selecting_reduction_backward_symint(const Tensor& grad, int64_t dim,
                                                 const Tensor& indices, IntArrayRef self_sizes,
                                                 bool keepdim) {
  return value_selecting_reduction_backward(grad, dim, indices, self_sizes, keepdim);
}

Tensor index_select_backward_symint(const Tensor& grad, IntArrayRef self_sizes, int64_t dim,
                                    const Tensor& index) {
  return index_select_backward(grad, self_sizes, dim, index);
}

Tensor select_backward_symint(const Tensor& grad, IntArrayRef self_sizes, int64_t dim,
                              int64_t index) {
  return select_backward(grad, self_sizes, dim, index);
}

Tensor embedding_backward_symint(const Tensor& grad, const Tensor& indices, int64_t num_weights,
                                 int64_t padding_idx, bool scale_grad_by_freq, bool sparse) {
  if (sparse) not_implemented("embedding with sparse=True (gradgen has no sparse tensors)");
  return embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq);
}

Tensor infinitely_differentiable_native_dropout_backward(const Tensor& grad, const Tensor& mask,
                                                         double scale) {
  return grad * (gradgen::to(mask, grad.scalar_type()) * scale);
}

Tensor native_dropout_double_backward(const Tensor& ggI, const Tensor& /*grad*/, const Tensor& mask,
                                      double scale) {
  return infinitely_differentiable_native_dropout_backward(ggI, mask, scale);
}

// ---------------------------------------------------------------------------
// The skeleton's lincomb
// ---------------------------------------------------------------------------

std::vector<Tensor> lincomb_tensors_backward(const Tensor& grad, const Tensor& coeffs, size_t n) {
  std::vector<Tensor> grads;
  grads.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    // coeffs[i] * grad, as a one-term linear combination.
    const Tensor coeff = gradgen::narrow(coeffs, 0, static_cast<int64_t>(i), 1);
    grads.push_back(gradgen::lincomb({grad}, coeff));
  }
  return grads;
}

Tensor lincomb_coeffs_backward(const Tensor& grad, const std::vector<Tensor>& tensors) {
  std::vector<Tensor> entries;
  entries.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!tensors[i].sizes().equals(grad.sizes())) {
      throw std::invalid_argument("lincomb_coeffs_backward: expected tensors[" + std::to_string(i) +
                                  "] of the gradient's shape " + shape_str(grad.sizes()) +
                                  ", got " + shape_str(tensors[i].sizes()));
    }
    entries.push_back(gradgen::reshape(gradgen::sum(grad * tensors[i]), {1}));
  }
  return gradgen::cat(entries, 0);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
