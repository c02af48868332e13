// Kernels of the nn activations (torch.nn.functional's gelu, silu, elu, leaky_relu, hardtanh,
// softplus, the shrinks, log_sigmoid, threshold, glu, prelu) and of their backward ops, with
// their out= variants. Element by element with PyTorch's CPU formulas (the same branches, and
// expm1 / log1p where PyTorch uses them), so that values agree with PyTorch's to rounding.
//
// Floating inputs only (Double, Float), as PyTorch's CPU kernels, except threshold and hardtanh,
// which also take Long. A backward op's operands broadcast (grad_output against self) and are
// promoted to their result type first.
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/native/nn_loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::dispatch_floating;
using loops::binary_map;
using loops::dispatch_arithmetic;
using loops::ternary_map;
using loops::unary_map;

// out = f(self) for a floating self; make(tag) returns f for the element type.
template <typename Make>
Tensor floating_map(const char* op, const Tensor& self, Make&& make) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(floating_map, op, self, make);
  Tensor out;
  dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    out = unary_map<decltype(tag), decltype(tag)>(op, self, self.scalar_type(), make(tag));
  });
  return out;
}

// As floating_map, also for Long (threshold, hardtanh).
template <typename Make>
Tensor numeric_map(const char* op, const Tensor& self, Make&& make) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(numeric_map, op, self, make);
  Tensor out;
  dispatch_arithmetic(self.scalar_type(), op, [&](auto tag) {
    out = unary_map<decltype(tag), decltype(tag)>(op, self, self.scalar_type(), make(tag));
  });
  return out;
}

// out = f(grad_output, self), both promoted to their result type and broadcast.
template <typename Make>
Tensor backward_map(const char* op, const Tensor& grad_output, const Tensor& self, bool numeric,
                    Make&& make) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(backward_map, op, grad_output, self, numeric, make);
  const ScalarType dtype = result_type(grad_output, self);
  const Tensor g = cast(grad_output, dtype), x = cast(self, dtype);
  Tensor out;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>(op, g, x, dtype, make(tag));
  };
  if (numeric) {
    dispatch_arithmetic(dtype, op, run);
  } else {
    dispatch_floating(dtype, op, run);
  }
  return out;
}

// The approximate= of gelu: 'none' (erf) or 'tanh'; anything else is PyTorch's error.
bool gelu_uses_tanh(const char* op, std::string_view approximate) {
  if (approximate == "none") return false;
  if (approximate == "tanh") return true;
  throw std::invalid_argument(std::string(op) +
                              ": approximate argument must be either none or tanh, got '" +
                              std::string(approximate) + "'");
}

constexpr double kSqrt1_2 = M_SQRT1_2;                      // 1 / sqrt(2)
constexpr double kGeluBeta = M_2_SQRTPI * M_SQRT1_2 * 0.5;  // 1 / sqrt(2 pi)
constexpr double kGeluTanhK = M_SQRT2 * M_2_SQRTPI * 0.5;   // sqrt(2 / pi)
constexpr double kGeluTanhC = 0.044715;

}  // namespace

// ---------------------------------------------------------------------------
// gelu
// ---------------------------------------------------------------------------

Tensor gelu(const Tensor& self, std::string_view approximate) {
  const bool use_tanh = gelu_uses_tanh("gelu", approximate);
  return floating_map("gelu", self, [use_tanh](auto tag) {
    using T = decltype(tag);
    return [use_tanh](T x) -> T {
      if (use_tanh) {
        const T inner = T(kGeluTanhK) * (x + T(kGeluTanhC) * x * x * x);
        return T(0.5) * x * (T(1) + std::tanh(inner));
      }
      return x * T(0.5) * (T(1) + std::erf(x * T(kSqrt1_2)));
    };
  });
}

Tensor& gelu_out(const Tensor& self, std::string_view approximate, Tensor& out) {
  return write_out("gelu.out", gelu(self, approximate), out);
}

Tensor gelu_backward(const Tensor& grad_output, const Tensor& self, std::string_view approximate) {
  const bool use_tanh = gelu_uses_tanh("gelu_backward", approximate);
  return backward_map("gelu_backward", grad_output, self, false, [use_tanh](auto tag) {
    using T = decltype(tag);
    return [use_tanh](T g, T x) -> T {
      if (use_tanh) {
        const T x_sq = x * x;
        const T inner = T(kGeluTanhK) * (x + T(kGeluTanhC) * x_sq * x);
        const T t = std::tanh(inner);
        const T left = T(0.5) * x;
        const T right = T(1) + t;
        const T left_derivative = T(0.5) * right;
        const T right_derivative =
            left * (T(1) - t * t) * T(kGeluTanhK) * (T(1) + T(3 * kGeluTanhC) * x_sq);
        return g * (left_derivative + right_derivative);
      }
      const T cdf = T(0.5) * (T(1) + std::erf(x * T(kSqrt1_2)));
      const T pdf = T(kGeluBeta) * std::exp(x * x * T(-0.5));
      return g * (cdf + x * pdf);
    };
  });
}

Tensor& gelu_backward_out(const Tensor& grad_output, const Tensor& self,
                          std::string_view approximate, Tensor& grad_input) {
  return write_out("gelu_backward.grad_input", gelu_backward(grad_output, self, approximate),
                   grad_input);
}

// ---------------------------------------------------------------------------
// silu, mish (their backward ops are composites: composite_nn.cc)
// ---------------------------------------------------------------------------

Tensor silu(const Tensor& self) {
  return floating_map("silu", self, [](auto tag) {
    using T = decltype(tag);
    return [](T x) { return x / (T(1) + std::exp(-x)); };
  });
}

Tensor& silu_out(const Tensor& self, Tensor& out) { return write_out("silu.out", silu(self), out); }

Tensor& silu_backward_out(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  // The fused kernel of PyTorch's silu_backward.grad_input.
  return write_out("silu_backward.grad_input",
                   backward_map("silu_backward", grad_output, self, false,
                                [](auto tag) {
                                  using T = decltype(tag);
                                  return [](T g, T x) {
                                    const T s = T(1) / (T(1) + std::exp(-x));
                                    return g * s * (T(1) + x * (T(1) - s));
                                  };
                                }),
                   grad_input);
}

Tensor mish(const Tensor& self) {
  return floating_map("mish", self, [](auto tag) {
    using T = decltype(tag);
    return [](T x) { return x * std::tanh(std::log1p(std::exp(x))); };
  });
}

Tensor& mish_out(const Tensor& self, Tensor& out) { return write_out("mish.out", mish(self), out); }

// ---------------------------------------------------------------------------
// elu, celu
// ---------------------------------------------------------------------------

Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale,
           const Scalar& input_scale) {
  return floating_map("elu", self, [&](auto tag) {
    using T = decltype(tag);
    const T negcoef = alpha.to<T>() * scale.to<T>(), poscoef = scale.to<T>();
    const T negiptcoef = input_scale.to<T>();
    return [=](T x) { return x <= T(0) ? std::expm1(x * negiptcoef) * negcoef : x * poscoef; };
  });
}

Tensor& elu_out(const Tensor& self, const Scalar& alpha, const Scalar& scale,
                const Scalar& input_scale, Tensor& out) {
  return write_out("elu.out", elu(self, alpha, scale, input_scale), out);
}

Tensor elu_backward(const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                    const Scalar& input_scale, bool is_result, const Tensor& self_or_result) {
  if (is_result && alpha.to_double() < 0) {
    throw std::invalid_argument(
        "elu_backward: In-place elu backward calculation is triggered with a negative slope "
        "which is not supported. This is caused by calling in-place forward function with a "
        "negative slope, please call out-of-place version instead.");
  }
  return backward_map("elu_backward", grad_output, self_or_result, false, [&](auto tag) {
    using T = decltype(tag);
    const T negcoef = alpha.to<T>() * scale.to<T>(), poscoef = scale.to<T>();
    const T negiptcoef = input_scale.to<T>();
    // Written x > 0 ? ... : ... as PyTorch's kernel, so that a NaN takes the negative branch.
    return [=](T g, T x) -> T {
      if (is_result) return x > T(0) ? g * poscoef : g * negiptcoef * (x + negcoef);
      return x > T(0) ? g * poscoef : g * negiptcoef * negcoef * std::exp(x * negiptcoef);
    };
  });
}

Tensor& elu_backward_out(const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                         const Scalar& input_scale, bool is_result, const Tensor& self_or_result,
                         Tensor& grad_input) {
  return write_out("elu_backward.grad_input",
                   elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result),
                   grad_input);
}

Tensor celu(const Tensor& self, const Scalar& alpha) {
  if (alpha.to_double() == 0) {
    throw std::invalid_argument("celu: ZeroDivisionError: alpha cannot be 0 for CELU");
  }
  return elu(self, alpha, Scalar(1.0), Scalar(1.0 / alpha.to_double()));
}

// ---------------------------------------------------------------------------
// leaky_relu, hardtanh, hardsigmoid, hardswish
// ---------------------------------------------------------------------------

Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope) {
  return floating_map("leaky_relu", self, [&](auto tag) {
    using T = decltype(tag);
    const T slope = negative_slope.to<T>();
    return [slope](T x) { return x > T(0) ? x : x * slope; };
  });
}

Tensor& leaky_relu_out(const Tensor& self, const Scalar& negative_slope, Tensor& out) {
  return write_out("leaky_relu.out", leaky_relu(self, negative_slope), out);
}

Tensor leaky_relu_backward(const Tensor& grad_output, const Tensor& self,
                           const Scalar& negative_slope, bool self_is_result) {
  if (self_is_result && negative_slope.to_double() < 0) {
    throw std::invalid_argument(
        "leaky_relu_backward: In-place leakyReLu backward calculation is triggered with a "
        "negative slope which is not supported. This is caused by calling in-place forward "
        "function with a negative slope, please call out-of-place version instead. File an "
        "issue at https://github.com/pytorch/pytorch if you do require supporting in-place "
        "leakRelu backward calculation with negative slope");
  }
  return backward_map("leaky_relu_backward", grad_output, self, false, [&](auto tag) {
    using T = decltype(tag);
    const T slope = negative_slope.to<T>();
    return [slope](T g, T x) { return x > T(0) ? g : g * slope; };
  });
}

Tensor& leaky_relu_backward_out(const Tensor& grad_output, const Tensor& self,
                                const Scalar& negative_slope, bool self_is_result,
                                Tensor& grad_input) {
  return write_out("leaky_relu_backward.grad_input",
                   leaky_relu_backward(grad_output, self, negative_slope, self_is_result),
                   grad_input);
}

Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  if (self.scalar_type() == ScalarType::Bool) {
    throw std::invalid_argument("hardtanh: Bool inputs not supported for hardtanh");
  }
  return numeric_map("hardtanh", self, [&](auto tag) {
    using T = decltype(tag);
    const T lo = min_val.to<T>(), hi = max_val.to<T>();
    // clamp's order: NaN stays NaN, and hi wins when lo > hi.
    return [lo, hi](T x) {
      if (x != x) return x;
      return x < lo ? (lo > hi ? hi : lo) : (x > hi ? hi : x);
    };
  });
}

Tensor& hardtanh_out(const Tensor& self, const Scalar& min_val, const Scalar& max_val,
                     Tensor& out) {
  return write_out("hardtanh.out", hardtanh(self, min_val, max_val), out);
}

Tensor hardtanh_backward(const Tensor& grad_output, const Tensor& self, const Scalar& min_val,
                         const Scalar& max_val) {
  return backward_map("hardtanh_backward", grad_output, self, false, [&](auto tag) {
    using T = decltype(tag);
    const T lo = min_val.to<T>(), hi = max_val.to<T>();
    return [lo, hi](T g, T x) { return x > lo && x < hi ? g : T(0); };  // 0 at NaN
  });
}

Tensor& hardtanh_backward_out(const Tensor& grad_output, const Tensor& self, const Scalar& min_val,
                              const Scalar& max_val, Tensor& grad_input) {
  return write_out("hardtanh_backward.grad_input",
                   hardtanh_backward(grad_output, self, min_val, max_val), grad_input);
}

Tensor hardsigmoid(const Tensor& self) {
  return floating_map("hardsigmoid", self, [](auto tag) {
    using T = decltype(tag);
    return [](T x) { return std::min(std::max(x + T(3), T(0)), T(6)) / T(6); };
  });
}

Tensor& hardsigmoid_out(const Tensor& self, Tensor& out) {
  return write_out("hardsigmoid.out", hardsigmoid(self), out);
}

Tensor hardsigmoid_backward(const Tensor& grad_output, const Tensor& self) {
  return backward_map("hardsigmoid_backward", grad_output, self, false, [](auto tag) {
    using T = decltype(tag);
    // PyTorch's constant is the float 1/6, also for double.
    const T one_sixth = static_cast<T>(1.0f / 6.0f);
    return [one_sixth](T g, T x) { return x > T(-3) && x < T(3) ? g * one_sixth : T(0); };
  });
}

Tensor& hardsigmoid_backward_out(const Tensor& grad_output, const Tensor& self,
                                 Tensor& grad_input) {
  return write_out("hardsigmoid_backward.grad_input", hardsigmoid_backward(grad_output, self),
                   grad_input);
}

Tensor hardswish(const Tensor& self) {
  return floating_map("hardswish", self, [](auto tag) {
    using T = decltype(tag);
    return [](T x) { return x * std::min(std::max(x + T(3), T(0)), T(6)) / T(6); };
  });
}

Tensor& hardswish_out(const Tensor& self, Tensor& out) {
  return write_out("hardswish.out", hardswish(self), out);
}

Tensor hardswish_backward(const Tensor& grad_output, const Tensor& self) {
  return backward_map("hardswish_backward", grad_output, self, false, [](auto tag) {
    using T = decltype(tag);
    // PyTorch's branches: 0 at -3, grad at 3, NaN for a NaN.
    return [](T g, T x) -> T {
      if (x <= T(-3)) return T(0);
      if (x >= T(3)) return g;
      return g * ((x / T(3)) + T(0.5));
    };
  });
}

Tensor& hardswish_backward_out(const Tensor& grad_output, const Tensor& self, Tensor& out) {
  return write_out("hardswish_backward.out", hardswish_backward(grad_output, self), out);
}

// ---------------------------------------------------------------------------
// softplus, softshrink, hardshrink
// ---------------------------------------------------------------------------

Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return floating_map("softplus", self, [&](auto tag) {
    using T = decltype(tag);
    const T b = beta.to<T>(), th = threshold.to<T>();
    return [b, th](T x) { return (x * b) > th ? x : std::log1p(std::exp(x * b)) / b; };
  });
}

Tensor& softplus_out(const Tensor& self, const Scalar& beta, const Scalar& threshold, Tensor& out) {
  return write_out("softplus.out", softplus(self, beta, threshold), out);
}

Tensor softplus_backward(const Tensor& grad_output, const Tensor& self, const Scalar& beta,
                         const Scalar& threshold) {
  return backward_map("softplus_backward", grad_output, self, false, [&](auto tag) {
    using T = decltype(tag);
    const T b = beta.to<T>(), th = threshold.to<T>();
    return [b, th](T g, T x) {
      const T z = std::exp(x * b);
      return (x * b) > th ? g : g * z / (z + T(1));
    };
  });
}

Tensor& softplus_backward_out(const Tensor& grad_output, const Tensor& self, const Scalar& beta,
                              const Scalar& threshold, Tensor& grad_input) {
  return write_out("softplus_backward.grad_input",
                   softplus_backward(grad_output, self, beta, threshold), grad_input);
}

namespace {
void check_lambd(const char* op, const Scalar& lambd) {
  if (!(lambd.to_double() >= 0)) {
    throw std::invalid_argument(std::string(op) +
                                ": lambda must be greater or equal to 0, but found to be " +
                                std::to_string(lambd.to_double()) + ".");
  }
}
}  // namespace

Tensor softshrink(const Tensor& self, const Scalar& lambd) {
  check_lambd("softshrink", lambd);
  return floating_map("softshrink", self, [&](auto tag) {
    using T = decltype(tag);
    const T l = lambd.to<T>();
    return [l](T x) { return x > l ? x - l : (x < -l ? x + l : x * T(0)); };
  });
}

Tensor& softshrink_out(const Tensor& self, const Scalar& lambd, Tensor& out) {
  return write_out("softshrink.out", softshrink(self, lambd), out);
}

Tensor softshrink_backward(const Tensor& grad_output, const Tensor& self, const Scalar& lambd) {
  return backward_map("softshrink_backward", grad_output, self, false, [&](auto tag) {
    using T = decltype(tag);
    const T l = lambd.to<T>();
    return [l](T g, T x) { return x < -l || x > l ? g : T(0); };  // 0 at NaN
  });
}

Tensor& softshrink_backward_out(const Tensor& grad_output, const Tensor& self, const Scalar& lambd,
                                Tensor& grad_input) {
  return write_out("softshrink_backward.grad_input", softshrink_backward(grad_output, self, lambd),
                   grad_input);
}

Tensor hardshrink(const Tensor& self, const Scalar& lambd) {
  return floating_map("hardshrink", self, [&](auto tag) {
    using T = decltype(tag);
    const T l = lambd.to<T>();
    return [l](T x) { return x >= -l && x <= l ? T(0) : x; };
  });
}

Tensor& hardshrink_out(const Tensor& self, const Scalar& lambd, Tensor& out) {
  return write_out("hardshrink.out", hardshrink(self, lambd), out);
}

Tensor hardshrink_backward(const Tensor& grad_out, const Tensor& self, const Scalar& lambd) {
  return backward_map("hardshrink_backward", grad_out, self, false, [&](auto tag) {
    using T = decltype(tag);
    const T l = lambd.to<T>();
    return [l](T g, T x) { return x < -l || x > l ? g : T(0); };  // 0 at NaN
  });
}

Tensor& hardshrink_backward_out(const Tensor& grad_out, const Tensor& self, const Scalar& lambd,
                                Tensor& grad_input) {
  return write_out("hardshrink_backward.grad_input", hardshrink_backward(grad_out, self, lambd),
                   grad_input);
}

// ---------------------------------------------------------------------------
// log_sigmoid (log_sigmoid itself is a composite: composite_nn.cc)
// ---------------------------------------------------------------------------

std::tuple<Tensor, Tensor> log_sigmoid_forward(const Tensor& self) {
  // PyTorch's CPU kernel: buffer = exp(-|x|), output = min(x, 0) - log1p(buffer).
  const Tensor buffer = floating_map("log_sigmoid_forward", self, [](auto tag) {
    using T = decltype(tag);
    return [](T x) { return std::exp(-std::abs(x)); };
  });
  const Tensor output = floating_map("log_sigmoid_forward", self, [](auto tag) {
    using T = decltype(tag);
    return [](T x) { return std::min(x, T(0)) - std::log1p(std::exp(-std::abs(x))); };
  });
  return {output, buffer};
}

Tensor& log_sigmoid_out(const Tensor& self, Tensor& out) {
  return write_out("log_sigmoid.out", std::get<0>(log_sigmoid_forward(self)), out);
}

Tensor log_sigmoid_backward(const Tensor& grad_output, const Tensor& self, const Tensor& buffer) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(log_sigmoid_backward, grad_output, self, buffer);
  const char* op = "log_sigmoid_backward";
  ResultType promotion;
  promotion.add(grad_output);
  promotion.add(self);
  promotion.add(buffer);
  const ScalarType dtype = promotion.get();
  Tensor out;
  dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    out = ternary_map<T>(op, cast(self, dtype), cast(buffer, dtype), cast(grad_output, dtype),
                         [](T x, T z, T g) {
                           const bool negative = x < T(0);
                           const T max_deriv = negative ? T(1) : T(0);
                           const T sign = negative ? T(1) : T(-1);
                           return (max_deriv - sign * (z / (T(1) + z))) * g;
                         });
  });
  return out;
}

Tensor& log_sigmoid_backward_out(const Tensor& grad_output, const Tensor& self,
                                 const Tensor& buffer, Tensor& grad_input) {
  return write_out("log_sigmoid_backward.grad_input",
                   log_sigmoid_backward(grad_output, self, buffer), grad_input);
}

// ---------------------------------------------------------------------------
// threshold
// ---------------------------------------------------------------------------

Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  return numeric_map("threshold", self, [&](auto tag) {
    using T = decltype(tag);
    const T th = threshold.to<T>(), v = value.to<T>();
    return [th, v](T x) { return x <= th ? v : x; };
  });
}

Tensor& threshold_out(const Tensor& self, const Scalar& threshold, const Scalar& value,
                      Tensor& out) {
  return write_out("threshold.out", native::threshold(self, threshold, value), out);
}

// ---------------------------------------------------------------------------
// glu
// ---------------------------------------------------------------------------

namespace {

// Checks glu's halving dim (PyTorch's messages) and returns it wrapped.
int64_t glu_dim(const char* op, const Tensor& self, int64_t dim) {
  if (self.dim() == 0) {
    throw std::invalid_argument(std::string(op) +
                                ": glu does not support scalars because halving size must be even");
  }
  const int64_t d = wrap_dim(dim, self.dim(), op);
  if (self.size(d) % 2 != 0) {
    throw std::invalid_argument(std::string(op) +
                                ": Halving dimension must be even, but dimension " +
                                std::to_string(d) + " is size " + std::to_string(self.size(d)));
  }
  return d;
}

}  // namespace

Tensor glu(const Tensor& self, int64_t dim) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(glu, self, dim);
  const int64_t d = glu_dim("glu", self, dim);
  const int64_t n = self.size(d) / 2;
  const Tensor a = narrow(self, d, 0, n), b = narrow(self, d, n, n);
  Tensor out;
  dispatch_floating(self.scalar_type(), "glu", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("glu", a, b, self.scalar_type(),
                              [](T x, T y) { return x * (T(1) / (T(1) + std::exp(-y))); });
  });
  return out;
}

Tensor& glu_out(const Tensor& self, int64_t dim, Tensor& out) {
  return write_out("glu.out", glu(self, dim), out);
}

Tensor glu_backward(const Tensor& grad_output, const Tensor& self, int64_t dim) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(glu_backward, grad_output, self, dim);
  const char* op = "glu_backward";
  const int64_t d = glu_dim(op, self, dim);
  const int64_t n = self.size(d) / 2;
  DimVector half(self.sizes().begin(), self.sizes().end());
  half[static_cast<size_t>(d)] = n;
  if (!grad_output.sizes().equals(half)) {
    throw std::invalid_argument(std::string(op) + ": expected grad_output of shape " +
                                shape_str(half) + " (self " + shape_str(self.sizes()) +
                                " halved along dim " + std::to_string(d) + "), got " +
                                shape_str(grad_output.sizes()));
  }
  const ScalarType dtype = result_type(grad_output, self);
  const Tensor x = cast(self, dtype), g = cast(grad_output, dtype);
  const Tensor a = narrow(x, d, 0, n), b = narrow(x, d, n, n);
  Tensor grad_a, grad_b;
  dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    grad_a = binary_map<T, T, T>(op, g, b, dtype,
                                 [](T go, T y) { return go * (T(1) / (T(1) + std::exp(-y))); });
    grad_b = ternary_map<T>(op, g, a, b, [](T go, T x, T y) {
      const T s = T(1) / (T(1) + std::exp(-y));
      return go * x * s * (T(1) - s);
    });
  });
  return cat({grad_a, grad_b}, d);
}

Tensor& glu_backward_out(const Tensor& grad_output, const Tensor& self, int64_t dim,
                         Tensor& grad_input) {
  return write_out("glu_backward.grad_input", glu_backward(grad_output, self, dim), grad_input);
}

// ---------------------------------------------------------------------------
// prelu's kernels (prelu itself is a composite: composite_nn.cc)
// ---------------------------------------------------------------------------

Tensor _prelu_kernel(const Tensor& self, const Tensor& weight) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(_prelu_kernel, self, weight);
  loops::check_same_dtype("_prelu_kernel", "self", self, "weight", weight);
  Tensor out;
  dispatch_floating(self.scalar_type(), "_prelu_kernel", [&](auto tag) {
    using T = decltype(tag);
    out = binary_map<T, T, T>("_prelu_kernel", self, weight, self.scalar_type(),
                              [](T x, T w) { return x > T(0) ? x : w * x; });
  });
  return out;
}

std::tuple<Tensor, Tensor> _prelu_kernel_backward(const Tensor& grad_output, const Tensor& self,
                                                  const Tensor& weight) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(_prelu_kernel_backward, grad_output, self, weight);
  const char* op = "_prelu_kernel_backward";
  loops::check_same_dtype(op, "self", self, "weight", weight);
  loops::check_same_dtype(op, "grad_output", grad_output, "self", self);
  // Both gradients in the shape the three broadcast to, as PyTorch's (autograd sums them).
  Tensor grad_self, grad_weight;
  dispatch_floating(self.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    grad_self = ternary_map<T>(op, grad_output, self, weight,
                               [](T g, T x, T w) { return x > T(0) ? g : w * g; });
    grad_weight = ternary_map<T>(op, grad_output, self, weight,
                                 [](T g, T x, T) { return x > T(0) ? T(0) : x * g; });
  });
  return {grad_self, grad_weight};
}

// ---------------------------------------------------------------------------
// In-place variants (elu_, celu_, leaky_relu_, hardtanh_, threshold_, silu_, mish_,
// hardsigmoid_, hardswish_): the out-of-place kernel's values written into self, which keeps its
// dtype (each op's result dtype is self's); the copy bumps self's version.
// ---------------------------------------------------------------------------

Tensor& elu_(Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return write_inplace("elu_", self, native::elu(self, alpha, scale, input_scale));
}

Tensor& celu_(Tensor& self, const Scalar& alpha) {
  return write_inplace("celu_", self, native::celu(self, alpha));
}

Tensor& leaky_relu_(Tensor& self, const Scalar& negative_slope) {
  return write_inplace("leaky_relu_", self, native::leaky_relu(self, negative_slope));
}

Tensor& hardtanh_(Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  return write_inplace("hardtanh_", self, native::hardtanh(self, min_val, max_val));
}

Tensor& threshold_(Tensor& self, const Scalar& threshold, const Scalar& value) {
  return write_inplace("threshold_", self, native::threshold(self, threshold, value));
}

Tensor& silu_(Tensor& self) { return write_inplace("silu_", self, native::silu(self)); }

Tensor& mish_(Tensor& self) { return write_inplace("mish_", self, native::mish(self)); }

Tensor& hardsigmoid_(Tensor& self) {
  return write_inplace("hardsigmoid_", self, native::hardsigmoid(self));
}

Tensor& hardswish_(Tensor& self) {
  return write_inplace("hardswish_", self, native::hardswish(self));
}

}  // namespace native
}  // namespace gradgen
