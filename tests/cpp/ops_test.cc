// Forward values, dtypes and error messages of the ops in specs/, and the
// behaviour that finite differences cannot check (dropout's randomness,
// embedding's padding_idx and scale_grad_by_freq). Gradients are checked for
// every op by //tests/cpp:op_sweep_test.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/grad_mode.h"
#include "csrc/default_dtype.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/gemm.h"
#include "csrc/native/simd/vectorized.h"
#include "csrc/ops.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

std::vector<double> values(const Tensor& t) {
  Tensor c = to(t, ScalarType::Double).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

Tensor longs(std::vector<int64_t> data, IntArrayRef sizes) {
  Tensor t = empty(sizes, ScalarType::Long);
  for (size_t i = 0; i < data.size(); ++i) t.data_ptr<int64_t>()[i] = data[i];
  return t;
}

TEST(ElementwiseTest, BroadcastsLikeNumPy) {
  Tensor a = tensor({1, 2, 3}, {3, 1});
  Tensor b = tensor({10, 20}, {1, 2});
  Tensor s = a + b;
  EXPECT_EQ(s.sizes().vec(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values(s), (std::vector<double>{11, 21, 12, 22, 13, 23}));
  EXPECT_EQ(values(sub(tensor({5, 5}), tensor({1, 2}), 2)), (std::vector<double>{3, 1}));
  EXPECT_EQ(values(full({}, 2.0) * tensor({1, 2, 3})), (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(values(tensor({1, 2}) / 4), (std::vector<double>{0.25, 0.5}));
  EXPECT_EQ(values(1 - tensor({1, 2})), (std::vector<double>{0, -1}));
  EXPECT_EQ(values(2 / tensor({1, 4})), (std::vector<double>{2, 0.5}));
  EXPECT_EQ(values(-tensor({1, -2})), (std::vector<double>{-1, 2}));
  EXPECT_EQ(values(clamp(tensor({-2, 0.5, 3}), -1, 1)), (std::vector<double>{-1, 0.5, 1}));
  EXPECT_EQ(values(relu(tensor({-1, 2}))), (std::vector<double>{0, 2}));
  EXPECT_EQ(values(pow(tensor({2, 3}), 2)), (std::vector<double>{4, 9}));
  EXPECT_EQ(values(sign(tensor({-3, 0, 2}))), (std::vector<double>{-1, 0, 1}));
  // Strided operands: a transposed view.
  Tensor m = tensor({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(values(t(m) * m), (std::vector<double>{1, 6, 6, 16}));
}

TEST(ElementwiseTest, NamesTheOpAndBothShapesOrDtypesOnMismatch) {
  EXPECT_THROW_MESSAGE(add(zeros({2, 3}), zeros({4})), std::invalid_argument,
                       "add: shapes [2, 3] and [4] cannot be broadcast together (dim -1: 3 vs 4)");
  EXPECT_THROW_MESSAGE(sub(zeros({2}, ScalarType::Bool), zeros({2}, ScalarType::Bool)),
                       std::invalid_argument,
                       "sub: Subtraction, the `-` operator, with two bool tensors is not "
                       "supported. Use the `^` or `logical_xor()` operator instead.");
  Tensor long_self = zeros({2}, ScalarType::Long);
  EXPECT_THROW_MESSAGE(mul_(long_self, Scalar(1.5)), std::invalid_argument,
                       "mul_: result type Double can't be cast to the desired output type Long");
  Tensor self = zeros({3});
  EXPECT_THROW_MESSAGE(add_(self, zeros({2, 3})), std::invalid_argument,
                       "add_: other of shape [2, 3] does not broadcast to the shape of self, [3], "
                       "which an in-place op cannot change");
  Tensor long_out = zeros({2}, ScalarType::Long);
  EXPECT_THROW_MESSAGE(add_out(zeros({2}), zeros({2}), 1, long_out), std::invalid_argument,
                       "add.out: result type Double can't be cast to the desired output type Long");
}

// Sets the default dtype for one test, restoring the one it found (csrc/default_dtype.h).
class DefaultDtypeGuard {
 public:
  explicit DefaultDtypeGuard(ScalarType t) : previous_(get_default_dtype()) {
    set_default_dtype(t);
  }
  ~DefaultDtypeGuard() { set_default_dtype(previous_); }

 private:
  ScalarType previous_;
};

// PyTorch's torch.result_type: dimensioned tensors over zero-dim tensors over scalars, a lower
// priority counting only when its category (bool < integer < floating) is higher. Run under
// PyTorch's default dtype, float32 (the C++ runtime's is float64: DefaultDtypeIsRead below).
TEST(ElementwiseTest, PromotesTypesLikePyTorch) {
  DefaultDtypeGuard float32(ScalarType::Float);
  const ScalarType F = ScalarType::Float, D = ScalarType::Double, L = ScalarType::Long,
                   B = ScalarType::Bool;
  auto dim = [](ScalarType t) { return zeros({2}, t); };
  auto zero_dim = [](ScalarType t) { return zeros({}, t); };
  EXPECT_EQ(mul(dim(F), dim(D)).scalar_type(), D);
  EXPECT_EQ(mul(dim(L), dim(F)).scalar_type(), F);
  EXPECT_EQ(mul(dim(B), dim(L)).scalar_type(), L);
  EXPECT_EQ(mul(dim(F), zero_dim(D)).scalar_type(), F);  // same category: the dimensioned wins
  EXPECT_EQ(mul(dim(L), zero_dim(D)).scalar_type(), D);  // higher category: the zero-dim's dtype
  EXPECT_EQ(mul(dim(B), zero_dim(L)).scalar_type(), L);
  EXPECT_EQ(mul(zero_dim(F), zero_dim(D)).scalar_type(), D);
  EXPECT_EQ(mul(dim(L), Scalar(1.5)).scalar_type(), F);  // a float scalar: the default dtype
  EXPECT_EQ(mul(zero_dim(L), Scalar(1.5)).scalar_type(), F);
  EXPECT_EQ(mul(dim(D), Scalar(int64_t{2})).scalar_type(), D);
  EXPECT_EQ(mul(dim(B), Scalar(true)).scalar_type(), B);
  EXPECT_EQ(add(dim(B), Scalar(int64_t{1})).scalar_type(), L);
  EXPECT_EQ(div(dim(L), dim(L)).scalar_type(), F);  // true division
  EXPECT_EQ(exp(dim(L)).scalar_type(), F);
  EXPECT_EQ(eq(dim(L), zero_dim(D)).scalar_type(), B);
  EXPECT_EQ(values(mul(tensor({1, 2}), to(tensor({3, 4}), L))), (std::vector<double>{3, 8}));
  EXPECT_EQ(values(to(mul(to(tensor({1, 3}), L), Scalar(1.5)), D)),
            (std::vector<double>{1.5, 4.5}));
  EXPECT_EQ(values(to(add(to(tensor({1, 0}), B), to(tensor({1, 0}), B)), D)),
            (std::vector<double>{1, 0}));  // bool + bool is `or`
  EXPECT_EQ(values(to(pow(to(tensor({2, -3}), L), Scalar(int64_t{3})), D)),
            (std::vector<double>{8, -27}));
  // out= converts on write and resizes an empty out silently.
  Tensor out = zeros({0}, F);
  add_out(tensor({1, 2}), tensor({0.5, 0.25}), 1, out);
  EXPECT_EQ(out.scalar_type(), F);
  EXPECT_EQ(values(to(out, D)), (std::vector<double>{1.5, 2.25}));
  // Sums of bool and integer tensors are int64; dtype= converts first.
  EXPECT_EQ(sum(dim(B)).scalar_type(), L);
  EXPECT_EQ(sum(dim(F), std::optional<ScalarType>(D)).scalar_type(), D);
}

// The default dtype starts at Double in C++ and is what a float scalar meeting an integer tensor,
// true division of integers and the dtype-less floating factories give; non-floating is refused.
TEST(ElementwiseTest, DefaultDtypeIsRead) {
  EXPECT_EQ(get_default_dtype(), ScalarType::Double);
  const Tensor longs = zeros({2}, ScalarType::Long);
  EXPECT_EQ(mul(longs, Scalar(1.5)).scalar_type(), ScalarType::Double);
  EXPECT_EQ(div(longs, longs).scalar_type(), ScalarType::Double);
  {
    DefaultDtypeGuard half(ScalarType::Half);
    EXPECT_EQ(mul(longs, Scalar(1.5)).scalar_type(), ScalarType::Half);
    EXPECT_EQ(linspace(0, 1, 3).scalar_type(), ScalarType::Half);
    EXPECT_EQ(eye(2).scalar_type(), ScalarType::Half);
    EXPECT_EQ(arange(2.5).scalar_type(), ScalarType::Half);
    EXPECT_EQ(arange(3).scalar_type(), ScalarType::Long);
  }
  EXPECT_EQ(get_default_dtype(), ScalarType::Double);
  EXPECT_THROW_MESSAGE(set_default_dtype(ScalarType::Long), std::invalid_argument,
                       "set_default_dtype: only floating-point types are supported as the "
                       "default type, got Long");
}

TEST(ElementwiseTest, SupportsFloat32AndInt64) {
  Tensor f = to(tensor({0.5, -1}), ScalarType::Float);
  Tensor y = tanh(f);
  EXPECT_EQ(y.scalar_type(), ScalarType::Float);
  EXPECT_NEAR(values(y)[0], std::tanh(0.5), 1e-6);
  Tensor w = to(tensor({2, 3}), ScalarType::Float).set_requires_grad(true);
  sum(w * w).backward();
  EXPECT_EQ(w.grad().scalar_type(), ScalarType::Float);
  EXPECT_EQ(values(w.grad()), (std::vector<double>{4, 6}));
  Tensor l = longs({1, 2, 3}, {3});
  EXPECT_EQ(values(add(l, l, 2)), (std::vector<double>{3, 6, 9}));
  EXPECT_EQ(add(l, l).scalar_type(), ScalarType::Long);
  EXPECT_EQ(eq(l, longs({1, 0, 3}, {3})).scalar_type(), ScalarType::Bool);
  EXPECT_EQ(values(eq(l, longs({1, 0, 3}, {3}))), (std::vector<double>{1, 0, 1}));
}

TEST(ElementwiseTest, VectorizedKernelsMatchTheScalarMath) {
  std::vector<double> xs;
  for (int i = -40; i <= 40; ++i) xs.push_back(i * 0.37);
  xs.push_back(1e-12);
  xs.push_back(800.0);
  xs.push_back(-800.0);
  Tensor x = tensor(xs);
  const std::vector<double> th = values(tanh(x)), sg = values(sigmoid(x)), ex = values(exp(x));
  for (size_t i = 0; i < xs.size(); ++i) {
    EXPECT_NEAR(th[i], std::tanh(xs[i]), 4e-16 * std::fabs(std::tanh(xs[i])) + 1e-300) << xs[i];
    EXPECT_NEAR(sg[i], 1 / (1 + std::exp(-xs[i])), 1e-15) << xs[i];
    if (std::fabs(xs[i]) < 700) {
      EXPECT_NEAR(ex[i], std::exp(xs[i]), 1e-14 * std::exp(xs[i])) << xs[i];
    }
  }
  EXPECT_NE(std::string(native::vec::isa()), "");
}

// Eigen's vectorized exp clamps its argument near log(smallest normal): exp(-1000) was 5.6e-309
// on the elements that took the vector path (which ones depended on the buffer's alignment),
// where it is 0, as std::exp and PyTorch give; and subnormal results were lost. Every offset
// into a buffer, so that each element meets both the vector body and the scalar tail.
TEST(ElementwiseTest, ExpBelowTheNormalRangeIsExact) {
  for (ScalarType t : {ScalarType::Double, ScalarType::Float}) {
    // double: -800 .. -693 (subnormal below -708.4, 0 below -745.1); float: -110 .. -78.5.
    std::vector<double> xs;
    for (int i = 0; i < 64; ++i) {
      xs.push_back(t == ScalarType::Double ? -800.0 + i * 1.7 : -110.0 + i * 0.5);
    }
    const Tensor x = internal::to_dtype(tensor(xs), t);
    for (int64_t offset = 0; offset < 8; ++offset) {
      const Tensor part = narrow(x, 0, offset, 48);  // its data starts `offset` elements in
      const std::vector<double> in = values(part), got = values(exp(part));
      for (size_t i = 0; i < in.size(); ++i) {
        const double want = t == ScalarType::Double
                                ? std::exp(in[i])
                                : static_cast<double>(std::exp(static_cast<float>(in[i])));
        // Exact where exp is subnormal or 0 (std::exp computes those); elsewhere the vector
        // code's rounding (a few units in the last place).
        const bool below = in[i] < (t == ScalarType::Double ? -708.4 : -87.34);
        const double tol = below ? 0.0 : (t == ScalarType::Double ? 1e-15 : 5e-7) * want;
        EXPECT_NEAR(got[i], want, tol)
            << "exp(" << in[i] << ") in " << to_string(t) << ", offset " << offset;
      }
    }
  }
}

// Layer norm's rows run in the vectorized kernel (vec::layer_norm_rows, lanes of fixed order):
// against a plain double reference for widths around the lane count and the vector widths, with
// and without weight and bias, forward and backward; and, at every offset of the data into its
// buffer, bit for bit the same results (the lanes' order does not depend on alignment).
TEST(NormalizationTest, LayerNormRowsMatchTheReferenceAtEveryOffset) {
  const std::vector<int64_t> widths = {1, 2, 7, 8, 9, 15, 16, 17, 31, 64, 257};
  for (int64_t m : widths) {
    const int64_t rows = 3;
    const Tensor wide = randn({rows * m + 8}, 11 + static_cast<uint64_t>(m));
    const Tensor w = randn({m}, 5), b = randn({m}, 6), go = randn({rows, m}, 7);
    for (int64_t offset = 0; offset < 8; ++offset) {
      const Tensor x = reshape(narrow(wide, 0, offset, rows * m), {rows, m});
      const std::vector<double> xs = values(x);
      auto [y, mean, rstd] = native_layer_norm(x, {m}, w, b, 1e-5);
      auto [gx, gw, gb] =
          native_layer_norm_backward(go, x, {m}, mean, rstd, w, b, {true, true, true});
      const std::vector<double> ys = values(y), gxs = values(gx), ws = values(w), gos = values(go);
      std::vector<double> want_gw(static_cast<size_t>(m), 0.0);
      for (int64_t r = 0; r < rows; ++r) {
        double mu = 0, var = 0;
        for (int64_t d = 0; d < m; ++d) mu += xs[r * m + d];
        mu /= m;
        for (int64_t d = 0; d < m; ++d) var += (xs[r * m + d] - mu) * (xs[r * m + d] - mu);
        const double rs = 1 / std::sqrt(var / m + 1e-5);
        double s1 = 0, s2 = 0;
        for (int64_t d = 0; d < m; ++d) {
          const double xhat = (xs[r * m + d] - mu) * rs, g = gos[r * m + d] * ws[d];
          EXPECT_NEAR(ys[r * m + d], xhat * ws[d] + values(b)[d], 1e-12) << "m " << m;
          s1 += g;
          s2 += g * xhat;
          want_gw[d] += gos[r * m + d] * xhat;
        }
        for (int64_t d = 0; d < m; ++d) {
          const double xhat = (xs[r * m + d] - mu) * rs, g = gos[r * m + d] * ws[d];
          EXPECT_NEAR(gxs[r * m + d], rs * (g - s1 / m - xhat * s2 / m), 1e-10) << "m " << m;
        }
      }
      const std::vector<double> gws = values(gw);
      for (int64_t d = 0; d < m; ++d) EXPECT_NEAR(gws[d], want_gw[d], 1e-10) << "m " << m;
    }
    // One input copied to every offset of a buffer: the same bits each time.
    std::vector<double> first_y, first_gx;
    for (int64_t offset = 0; offset < 8; ++offset) {
      Tensor buffer = zeros({rows * m + 8});
      const std::vector<double> src = values(narrow(wide, 0, 0, rows * m));
      for (size_t i = 0; i < src.size(); ++i) buffer.data_ptr<double>()[offset + i] = src[i];
      const Tensor x = reshape(narrow(buffer, 0, offset, rows * m), {rows, m});
      auto [y, mean, rstd] = native_layer_norm(x, {m}, w, b, 1e-5);
      auto [gx, gw, gb] =
          native_layer_norm_backward(go, x, {m}, mean, rstd, w, b, {true, true, true});
      if (offset == 0) {
        first_y = values(y);
        first_gx = values(gx);
      } else {
        EXPECT_EQ(values(y), first_y) << "m " << m << ", offset " << offset;
        EXPECT_EQ(values(gx), first_gx) << "m " << m << ", offset " << offset;
      }
    }
  }
}

// Softmax over contiguous rows runs in vec::softmax_rows: against std::exp in double for widths
// around the vector widths, a row holding -inf and a row holding NaN (NaN out, as PyTorch), and
// the same bits at every offset of the data into its buffer.
TEST(NormalizationTest, SoftmaxRowsMatchTheReferenceAtEveryOffset) {
  for (int64_t n : {1, 3, 8, 9, 17, 128, 130}) {
    const int64_t rows = 4;
    Tensor x = randn({rows, n}, 21 + static_cast<uint64_t>(n));
    x.data_ptr<double>()[0] = -INFINITY;
    if (n > 1) x.data_ptr<double>()[n + 1] = NAN;
    const std::vector<double> xs = values(x);
    std::vector<double> first, first_log;
    for (int64_t offset = 0; offset < 8; ++offset) {
      Tensor buffer = zeros({rows * n + 8});
      for (size_t i = 0; i < xs.size(); ++i) buffer.data_ptr<double>()[offset + i] = xs[i];
      const Tensor at = reshape(narrow(buffer, 0, offset, rows * n), {rows, n});
      const std::vector<double> ys = values(softmax(at, 1)), ls = values(log_softmax(at, 1));
      if (offset == 0) {
        first = ys;
        first_log = ls;
        for (int64_t r = 0; r < rows; ++r) {
          const double* row = xs.data() + r * n;
          double mx = row[0], total = 0;
          for (int64_t k = 1; k < n; ++k) mx = mx < row[k] ? row[k] : mx;
          for (int64_t k = 0; k < n; ++k) total += std::exp(row[k] - mx);
          for (int64_t k = 0; k < n; ++k) {
            const double want = std::exp(row[k] - mx) / total;
            const double got = ys[r * n + k];
            if (std::isnan(want)) {
              EXPECT_TRUE(std::isnan(got)) << "n " << n << ", row " << r;
            } else {
              EXPECT_NEAR(got, want, 1e-15 + 1e-14 * want) << "n " << n << ", row " << r;
              const double want_log = row[k] - mx - std::log(total);
              if (std::isinf(want_log)) {
                EXPECT_EQ(ls[r * n + k], want_log) << "n " << n << ", row " << r;
              } else {
                EXPECT_NEAR(ls[r * n + k], want_log, 1e-13) << "n " << n << ", row " << r;
              }
            }
          }
        }
        continue;
      }
      for (size_t i = 0; i < ys.size(); ++i) {
        // NaN != NaN: compare the bits' meaning, NaN where the first run had NaN.
        if (std::isnan(first[i])) {
          EXPECT_TRUE(std::isnan(ys[i]));
        } else {
          EXPECT_EQ(ys[i], first[i]) << "n " << n << ", offset " << offset << ", element " << i;
          EXPECT_EQ(ls[i], first_log[i]) << "n " << n << ", offset " << offset;
        }
      }
    }
  }
}

TEST(ReductionTest, ComputesValuesAndShapes) {
  Tensor x = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(values(sum(x)), (std::vector<double>{21}));
  EXPECT_EQ(values(sum(x, {0})), (std::vector<double>{5, 7, 9}));
  EXPECT_EQ(sum(x, {1}, true).sizes().vec(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values(mean(x, {-1})), (std::vector<double>{2, 5}));
  EXPECT_EQ(values(mean(x)), (std::vector<double>{3.5}));
  auto [m, i] = max(tensor({3, 9, 9, 1}, {2, 2}), 1);
  EXPECT_EQ(values(m), (std::vector<double>{9, 9}));
  EXPECT_EQ(values(i), (std::vector<double>{1, 0}));
  EXPECT_EQ(values(argmax(tensor({3, 9, 1, 7}, {2, 2}))), (std::vector<double>{1}));
  EXPECT_NEAR(values(logsumexp(tensor({1000, 1000}), {0}))[0], 1000 + std::log(2.0), 1e-9);
  EXPECT_THROW_MESSAGE(sum(x, {0, -2}), std::invalid_argument,
                       "sum: dim 0 appears more than once in the list of dims [0, -2]");
  EXPECT_THROW_MESSAGE(sum(x, {2}), std::invalid_argument,
                       "sum: dim 2 out of range for a tensor with 2 dims (expected -2 <= dim < 2)");
}

TEST(MatmulTest, FollowsPyTorchShapeRules) {
  auto shape = [](const Tensor& t) { return t.sizes().vec(); };
  EXPECT_EQ(shape(matmul(ones({3}), ones({3}))), std::vector<int64_t>{});
  EXPECT_EQ(shape(matmul(ones({2, 3}), ones({3}))), std::vector<int64_t>{2});
  EXPECT_EQ(shape(matmul(ones({3}), ones({3, 4}))), std::vector<int64_t>{4});
  EXPECT_EQ(shape(matmul(ones({5, 2, 3}), ones({3, 4}))), (std::vector<int64_t>{5, 2, 4}));
  EXPECT_EQ(shape(matmul(ones({2, 1, 2, 3}), ones({5, 3, 4}))), (std::vector<int64_t>{2, 5, 2, 4}));
  EXPECT_EQ(values(matmul(tensor({1, 2, 3, 4}, {2, 2}), tensor({1, 1}))),
            (std::vector<double>{3, 7}));
  EXPECT_THROW_MESSAGE(matmul(ones({2, 3}), ones({2, 3})), std::invalid_argument,
                       "matmul: shapes [2, 3] and [2, 3] cannot be multiplied");
  EXPECT_THROW_MESSAGE(bmm(ones({2, 2, 3}), ones({3, 3, 2})), std::invalid_argument,
                       "bmm: expected self of shape [b, n, k] and mat2 of shape [b, k, m], got "
                       "[2, 2, 3] and [3, 3, 2]");
  // Eigen on every layout: row-major, column-major (transposed) and strided rows.
  Tensor a = reshape(tensor(std::vector<double>(64 * 48, 0.5)), {64, 48});
  Tensor b = reshape(tensor(std::vector<double>(48 * 32, 2.0)), {48, 32});
  EXPECT_EQ(values(mm(a, b))[0], 48.0);
  EXPECT_EQ(values(mm(t(t(a)), t(clone(t(b)))))[5], 48.0);
  Tensor wide = zeros({64, 96});
  EXPECT_EQ(values(mm(narrow(wide, 1, 0, 48), b))[0], 0.0);
}

// A 2-D convolution (no bias) and its two gradients by direct loops, in double: the reference
// of ConvolutionTest below.
struct Conv2dCase {
  int64_t N, C, H, W, Cy, K, stride, pad, dil, groups;
  int64_t out(int64_t in) const { return (in + 2 * pad - dil * (K - 1) - 1) / stride + 1; }
};

void conv2d_by_loops(const Conv2dCase& c, const std::vector<double>& x,
                     const std::vector<double>& w, const std::vector<double>& gy,
                     std::vector<double>& y, std::vector<double>& gx, std::vector<double>& gw) {
  const int64_t OH = c.out(c.H), OW = c.out(c.W), cin = c.C / c.groups, cout = c.Cy / c.groups;
  y.assign(c.N * c.Cy * OH * OW, 0.0);
  gx.assign(x.size(), 0.0);
  gw.assign(w.size(), 0.0);
  for (int64_t n = 0; n < c.N; ++n)
    for (int64_t co = 0; co < c.Cy; ++co)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          const int64_t yi = ((n * c.Cy + co) * OH + oh) * OW + ow;
          for (int64_t ci = 0; ci < cin; ++ci)
            for (int64_t kh = 0; kh < c.K; ++kh)
              for (int64_t kw = 0; kw < c.K; ++kw) {
                const int64_t ih = oh * c.stride - c.pad + kh * c.dil;
                const int64_t iw = ow * c.stride - c.pad + kw * c.dil;
                if (ih < 0 || ih >= c.H || iw < 0 || iw >= c.W) continue;
                const int64_t xi = ((n * c.C + co / cout * cin + ci) * c.H + ih) * c.W + iw;
                const int64_t wi = ((co * cin + ci) * c.K + kh) * c.K + kw;
                y[yi] += x[xi] * w[wi];
                gx[xi] += gy[yi] * w[wi];
                gw[wi] += gy[yi] * x[xi];
              }
        }
}

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want,
                     const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-10 * (1 + std::abs(want[i]))) << what << " at " << i;
  }
}

// Column buffers over 4 MB are filled a tile of output rows at a time (convolution.cc, tiles()):
// these geometries (4.7 and 4.9 MB per group) give 9 tiles of 7 rows and a last one of 1 (stride
// 1, two groups), and 10 tiles of strided, dilated rows. Forward and both gradients against the
// direct loops.
TEST(ConvolutionTest, TiledColumnBuffersMatchADirectLoop) {
  for (const Conv2dCase& c : {Conv2dCase{2, 32, 64, 64, 4, 3, 1, 1, 1, 2},
                              Conv2dCase{1, 16, 132, 128, 3, 3, 2, 2, 2, 1}}) {
    const Tensor x = randn({c.N, c.C, c.H, c.W}, 1);
    const Tensor w = randn({c.Cy, c.C / c.groups, c.K, c.K}, 2);
    const std::vector<int64_t> s{c.stride, c.stride}, p{c.pad, c.pad}, d{c.dil, c.dil};
    const Tensor y = convolution(x, w, std::nullopt, s, p, d, false, {0, 0}, c.groups);
    ASSERT_EQ(y.sizes().vec(), (std::vector<int64_t>{c.N, c.Cy, c.out(c.H), c.out(c.W)}));
    const Tensor gy = randn(y.sizes().vec(), 3);
    const auto [gx, gw, gb] = convolution_backward(gy, x, w, std::nullopt, s, p, d, false, {0, 0},
                                                   c.groups, {true, true, false});
    std::vector<double> ry, rgx, rgw;
    conv2d_by_loops(c, values(x), values(w), values(gy), ry, rgx, rgw);
    expect_near_all(values(y), ry, "output");
    expect_near_all(values(gx), rgx, "grad_input");
    expect_near_all(values(gw), rgw, "grad_weight");
  }
}

// Depthwise convolutions (groups == input channels) run the direct kernels of
// csrc/native/simd/depthwise.h: output rows in vectors of 2 to 16 elements with scalar edge columns
// and an overlapping last vector. Rows of widths around and beyond the vector widths (17, 37, 53,
// 64, 70), a channel multiplier, strides, dilation, no padding and more padding than the kernel
// covers (an input gradient with a negative shift), 1x1 and 5x5 kernels; float64 against the
// direct loops with a bias added, float32 against them too (looser).
TEST(ConvolutionTest, DepthwiseKernelsMatchADirectLoop) {
  for (const Conv2dCase& c :
       {Conv2dCase{2, 3, 19, 37, 3, 3, 1, 1, 1, 3}, Conv2dCase{1, 2, 20, 70, 4, 3, 1, 1, 1, 2},
        Conv2dCase{2, 2, 11, 53, 2, 3, 2, 1, 1, 2}, Conv2dCase{1, 3, 9, 40, 3, 3, 1, 2, 2, 3},
        Conv2dCase{1, 2, 7, 33, 2, 3, 1, 3, 1, 2}, Conv2dCase{1, 2, 8, 35, 2, 3, 1, 0, 1, 2},
        Conv2dCase{1, 2, 6, 17, 2, 1, 1, 0, 1, 2}, Conv2dCase{1, 2, 5, 64, 6, 5, 1, 2, 1, 2},
        Conv2dCase{1, 1, 4, 3, 1, 3, 1, 1, 1, 1}}) {
    SCOPED_TRACE("H " + std::to_string(c.H) + ", W " + std::to_string(c.W) + ", K " +
                 std::to_string(c.K) + ", stride " + std::to_string(c.stride) + ", pad " +
                 std::to_string(c.pad) + ", dil " + std::to_string(c.dil));
    const Tensor x = randn({c.N, c.C, c.H, c.W}, 1);
    const Tensor w = randn({c.Cy, 1, c.K, c.K}, 2);
    const Tensor b = randn({c.Cy}, 4);
    const std::vector<int64_t> s{c.stride, c.stride}, p{c.pad, c.pad}, d{c.dil, c.dil};
    const Tensor y = convolution(x, w, b, s, p, d, false, {0, 0}, c.groups);
    const Tensor gy = randn(y.sizes().vec(), 3);
    const auto [gx, gw, gb] = convolution_backward(gy, x, w, std::nullopt, s, p, d, false, {0, 0},
                                                   c.groups, {true, true, false});
    std::vector<double> ry, rgx, rgw;
    conv2d_by_loops(c, values(x), values(w), values(gy), ry, rgx, rgw);
    const std::vector<double> bias = values(b);
    const int64_t plane = c.out(c.H) * c.out(c.W);
    for (size_t i = 0; i < ry.size(); ++i) ry[i] += bias[(i / plane) % c.Cy];
    expect_near_all(values(y), ry, "output");
    expect_near_all(values(gx), rgx, "grad_input");
    expect_near_all(values(gw), rgw, "grad_weight");
    // float32: the same within float rounding.
    auto f32 = [](const Tensor& t) { return to(t, ScalarType::Float); };
    const Tensor yf = convolution(f32(x), f32(w), f32(b), s, p, d, false, {0, 0}, c.groups);
    const auto [gxf, gwf, gbf] =
        convolution_backward(f32(gy), f32(x), f32(w), std::nullopt, s, p, d, false, {0, 0},
                             c.groups, {true, true, false});
    for (const auto& [got, want] :
         {std::pair{values(yf), ry}, std::pair{values(gxf), rgx}, std::pair{values(gwf), rgw}}) {
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::abs(want[i]))) << "float32 at " << i;
      }
    }
  }
}

// The convolutions split their work across the intra-op threads (per sample, per depthwise
// plane or channel, per chunk of samples for the weight gradient, whose partial sums are added
// in an order fixed by the shapes): two threads give the same bits as one.
TEST(ConvolutionTest, ResultsDoNotDependOnTheThreadCount) {
  struct Case {
    std::vector<int64_t> x, w;
    int64_t stride, pad, groups;
    bool transposed;
  };
  const Case cases[] = {
      {{3, 16, 24, 24}, {16, 16, 3, 3}, 1, 1, 1, false},  // im2col + GEMM per sample
      {{5, 32, 20, 20}, {24, 32, 1, 1}, 1, 0, 1, false},  // pointwise
      {{3, 16, 12, 12}, {16, 8, 3, 3}, 2, 1, 1, true},    // transposed, stride 2
      {{3, 32, 64, 64}, {32, 1, 3, 3}, 1, 1, 32, false},  // depthwise
      {{3, 32, 64, 64}, {32, 1, 3, 3}, 2, 1, 32, false},  // depthwise, stride 2
  };
  for (const Case& c : cases) {
    for (ScalarType dtype : {ScalarType::Double, ScalarType::Float}) {
      const Tensor x = to(randn(c.x, 1), dtype), w = to(randn(c.w, 2), dtype);
      const int64_t channels = c.transposed ? c.w[1] * c.groups : c.w[0];
      const Tensor b = to(randn({channels}, 3), dtype);
      const std::vector<int64_t> s{c.stride, c.stride}, p{c.pad, c.pad}, d{1, 1};
      const std::vector<int64_t> op{c.transposed ? c.stride - 1 : 0,
                                    c.transposed ? c.stride - 1 : 0};
      std::vector<std::vector<double>> runs[2];
      for (int threads : {1, 2}) {
        set_num_threads(threads);
        const Tensor y = convolution(x, w, b, s, p, d, c.transposed, op, c.groups);
        const Tensor gy = to(randn(y.sizes().vec(), 4), dtype);
        const auto [gx, gw, gb] =
            convolution_backward(gy, x, w, std::nullopt, s, p, d, c.transposed, op, c.groups,
                                 {true, true, false});
        runs[threads - 1] = {values(y), values(gx), values(gw)};
      }
      set_num_threads(1);
      for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(runs[0][i], runs[1][i]) << "x " << shape_str(c.x) << ", result " << i;
      }
    }
  }
}

TEST(LinearTest, MatchesMatmulPlusBias) {
  Tensor x = randn({4, 3}, 1), w = randn({2, 3}, 2), b = randn({2}, 3);
  EXPECT_TRUE(allclose(linear(x, w, b), matmul(x, t(w)) + b));
  EXPECT_TRUE(allclose(linear(x, w), matmul(x, t(w))));
  EXPECT_THROW_MESSAGE(linear(x, randn({2, 4}, 4)), std::invalid_argument,
                       "linear: expected input of shape [..., in], weight of shape [out, in] and "
                       "bias of shape [out], got [4, 3], [2, 4] and None");
}

TEST(IndexingTest, SelectsGathersAndScatters) {
  Tensor x = tensor({1, 2, 3, 4, 5, 6}, {3, 2});
  EXPECT_EQ(values(index_select(x, 0, longs({2, 0}, {2}))), (std::vector<double>{5, 6, 1, 2}));
  EXPECT_EQ(values(gather(x, 1, longs({1, 0, 0}, {3, 1}))), (std::vector<double>{2, 3, 5}));
  EXPECT_EQ(values(scatter_add(zeros({2}), 0, longs({1, 1, 0}, {3}), tensor({1, 2, 3}))),
            (std::vector<double>{3, 3}));
  EXPECT_EQ(values(index_add(zeros({3}), 0, longs({2, 2}, {2}), tensor({1, 5}))),
            (std::vector<double>{0, 0, 6}));
  Tensor cond = eq(tensor({1, 0}), tensor({1, 1}));
  EXPECT_EQ(values(where(cond, tensor({10, 20}), tensor({-1, -2}))), (std::vector<double>{10, -2}));
  EXPECT_EQ(values(masked_fill(x, cond, 0)), (std::vector<double>{0, 2, 0, 4, 0, 6}));
  EXPECT_THROW_MESSAGE(index_select(x, 0, longs({3}, {1})), std::invalid_argument,
                       "index_select: index 3 out of range for a dim of size 3");
  EXPECT_THROW_MESSAGE(where(tensor({1}), x, x), std::invalid_argument,
                       "where: expected condition of dtype Bool, got Double");
}

TEST(ListOpsTest, SplitUnbindChunkAndStack) {
  Tensor x = reshape(tensor({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), {5, 2});
  std::vector<Tensor> s = split(x, 2);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2].sizes().vec(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(chunk(x, 2).size(), 2u);
  EXPECT_EQ(chunk(x, 2)[1].size(0), 2);
  std::vector<Tensor> u = unbind(x, 1);
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(values(u[1]), (std::vector<double>{1, 3, 5, 7, 9}));
  EXPECT_TRUE(allclose(stack(u, 1), x));
  EXPECT_EQ(stack({ones({2}), zeros({2})}).sizes().vec(), (std::vector<int64_t>{2, 2}));
  EXPECT_THROW_MESSAGE(stack({ones({2}), ones({3})}), std::invalid_argument,
                       "stack: expected all tensors to have the shape of tensors[0], [2], but "
                       "tensors[1] has shape [3]");
}

TEST(NnTest, SoftmaxLossesAndCrossEntropy) {
  Tensor logits = tensor({1, 2, 3, 1, 1, 1}, {2, 3});
  Tensor p = softmax(logits, 1);
  EXPECT_TRUE(allclose(sum(p, {1}), ones({2})));
  EXPECT_TRUE(allclose(exp(log_softmax(logits, 1)), p));
  Tensor target = longs({2, 0}, {2});
  const double expected =
      -(values(log_softmax(logits, 1))[2] + values(log_softmax(logits, 1))[3]) / 2;
  EXPECT_NEAR(values(cross_entropy_loss(logits, target))[0], expected, 1e-12);
  EXPECT_NEAR(values(nll_loss(log_softmax(logits, 1), target))[0], expected, 1e-12);
  EXPECT_EQ(values(mse_loss(tensor({1, 2}), tensor({0, 0}), Reduction::Sum)),
            (std::vector<double>{5}));
  EXPECT_EQ(values(mse_loss(tensor({1, 2}), tensor({0, 0}))), (std::vector<double>{2.5}));
  EXPECT_THROW_MESSAGE(nll_loss(logits, longs({3, 0}, {2})), std::invalid_argument,
                       "nll_loss: target 3 out of range for 3 classes");
}

TEST(EmbeddingTest, PaddingIdxAndScaleGradByFreqShapeTheGradient) {
  Tensor weight = randn({4, 2}, 1).set_requires_grad(true);
  Tensor indices = longs({1, 3, 1, 0}, {4});
  Tensor rows = embedding(weight, indices, /*padding_idx=*/1);
  EXPECT_TRUE(allclose(select(rows, 0, 0), select(weight.detach(), 0, 1)));  // still looked up
  sum(rows).backward();
  EXPECT_EQ(values(weight.grad()), (std::vector<double>{1, 1, 0, 0, 0, 0, 1, 1}));
  Tensor w2 = randn({4, 2}, 2).set_requires_grad(true);
  sum(embedding(w2, indices, -1, /*scale_grad_by_freq=*/true)).backward();
  EXPECT_EQ(values(w2.grad()), (std::vector<double>{1, 1, 1, 1, 0, 0, 1, 1}));
  EXPECT_THROW_MESSAGE(embedding(w2, indices, -1, false, /*sparse=*/true), std::invalid_argument,
                       "embedding: sparse=True is not supported by gradgen");
}

TEST(DropoutTest, IsReproducibleFromItsSeedAndScalesKeptValues) {
  Tensor x = ones({1000});
  auto [y1, mask1] = native_dropout(x, 0.25, true, Generator(42));
  auto [y2, mask2] = native_dropout(x, 0.25, true, Generator(42));
  auto [y3, mask3] = native_dropout(x, 0.25, true, Generator(43));
  EXPECT_EQ(values(mask1), values(mask2));
  EXPECT_NE(values(mask1), values(mask3));
  EXPECT_EQ(mask1.scalar_type(), ScalarType::Bool);
  const double kept = values(sum(to(mask1, ScalarType::Double)))[0];
  EXPECT_NEAR(kept / 1000, 0.75, 0.05);
  for (double v : values(y1)) EXPECT_TRUE(v == 0 || std::fabs(v - 1 / 0.75) < 1e-12);
  // A generator is a handle: copies share its state, so draws continue.
  Generator gen(7);
  Generator copy = gen;
  const uint64_t first = copy.next_u64();
  EXPECT_NE(gen.next_u64(), first);
  gen.manual_seed(7);
  EXPECT_EQ(gen.next_u64(), first);
  // Without a generator: the default one, reseedable.
  manual_seed(5);
  Tensor d1 = dropout(x, 0.5, true);
  manual_seed(5);
  EXPECT_EQ(values(dropout(x, 0.5, true)), values(d1));
  EXPECT_TRUE(dropout(x, 0.5, false).is_same(x));
  EXPECT_THROW_MESSAGE(native_dropout(x, 1.5, true), std::invalid_argument,
                       "native_dropout: expected a probability p in [0, 1], got 1.500000");
}

TEST(LstmCellTest, MatchesTheGateEquations) {
  const Tensor x = randn({2, 3}, 1), h = randn({2, 4}, 2), c = randn({2, 4}, 3);
  const Tensor w_ih = randn({16, 3}, 4), w_hh = randn({16, 4}, 5), b = randn({16}, 6);
  auto [hy, cy] = lstm_cell(x, {h, c}, w_ih, w_hh, b, b);
  std::vector<Tensor> g = chunk(linear(x, w_ih, b) + linear(h, w_hh, b), 4, 1);
  const Tensor expected_cy = sigmoid(g[1]) * c + sigmoid(g[0]) * tanh(g[2]);
  EXPECT_TRUE(allclose(cy, expected_cy, 1e-12, 1e-12));
  EXPECT_TRUE(allclose(hy, sigmoid(g[3]) * tanh(expected_cy), 1e-12, 1e-12));
  EXPECT_THROW_MESSAGE(lstm_cell(x, {h}, w_ih, w_hh), std::invalid_argument,
                       "lstm_cell: expected hx = [h, c] (2 tensors), got 1");
}

}  // namespace
}  // namespace gradgen
