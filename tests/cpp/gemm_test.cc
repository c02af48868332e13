// The GEMM interface (csrc/native/gemm.h) against a plain triple loop in long double:
// every layout (row-major, transposed, strided, neither), beta 0 and 1, the tiny path, one
// and several threads (panels of rows and of columns); gradgen's kernel (simd/gemm_kernel.h) on
// sizes that are not multiples of its tiles or depth blocks, against a double-accumulating
// loop, with the same bits at 1, 2 and 3 threads; and the ops built on it (linear with its bias
// fused, mse_loss fused) against their unfused definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/gemm.h"
#include "csrc/native/simd/gemm_kernel.h"
#include "csrc/ops.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

using native::MatrixRef;

// A matrix stored with the given strides inside a buffer filled with a pattern (so that a
// kernel reading outside the matrix or at a wrong stride gets wrong numbers).
template <typename T>
struct Stored {
  std::vector<T> buffer;
  MatrixRef<T> ref;
};

template <typename T>
Stored<T> make(int64_t rows, int64_t cols, int64_t s0, int64_t s1, int seed) {
  Stored<T> m;
  const int64_t extent = (rows - 1) * s0 + (cols - 1) * s1 + 1;
  m.buffer.resize(static_cast<size_t>(extent));
  for (int64_t i = 0; i < extent; ++i) {
    m.buffer[static_cast<size_t>(i)] = T(std::sin(0.7 * double(i) + seed));
  }
  m.ref = {m.buffer.data(), rows, cols, s0, s1};
  return m;
}

template <typename T>
T at(const MatrixRef<T>& m, int64_t i, int64_t j) {
  return m.p[i * m.s0 + j * m.s1];
}

// Layouts of an r x c operand: row-major, column-major (a transpose), row-major with padded
// rows, and strides that fit neither order (copied by gemm()).
enum class Layout { kRow, kCol, kPadded, kNeither };

template <typename T>
Stored<T> operand(int64_t r, int64_t c, Layout layout, int seed) {
  switch (layout) {
    case Layout::kRow: return make<T>(r, c, c, 1, seed);
    case Layout::kCol: return make<T>(r, c, 1, r, seed);
    case Layout::kPadded: return make<T>(r, c, c + 3, 1, seed);
    default: return make<T>(r, c, 2 * c, 2, seed);
  }
}

template <typename T>
void check_gemm(int64_t m, int64_t k, int64_t n, Layout la, Layout lb, T beta, double tol) {
  const Stored<T> a = operand<T>(m, k, la, 1), b = operand<T>(k, n, lb, 2);
  const int64_t ldc = n + 1;  // a padded result: the padding must stay untouched
  std::vector<T> c(static_cast<size_t>(m * ldc));
  for (size_t i = 0; i < c.size(); ++i) c[i] = T(std::cos(0.3 * double(i)));
  const std::vector<T> before = c;
  native::gemm(a.ref, b.ref, beta, c.data(), ldc);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < ldc; ++j) {
      const size_t idx = static_cast<size_t>(i * ldc + j);
      if (j == n) {
        ASSERT_EQ(c[idx], before[idx]) << "padding overwritten at row " << i;
        continue;
      }
      long double want = beta == T(0) ? 0.0L : (long double)beta * before[idx];
      for (int64_t l = 0; l < k; ++l) want += (long double)at(a.ref, i, l) * at(b.ref, l, j);
      ASSERT_NEAR(double(c[idx]), double(want), tol * (1 + std::fabs(double(want))))
          << m << "x" << k << "x" << n << " layouts " << int(la) << "," << int(lb) << " beta "
          << beta << " at (" << i << ", " << j << ")";
    }
  }
}

class GemmTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { set_num_threads(GetParam()); }
  void TearDown() override { set_num_threads(1); }
};

TEST_P(GemmTest, EveryLayoutAndBetaMatchesTheLoop) {
  EXPECT_EQ(get_num_threads(), GetParam());
  const Layout layouts[] = {Layout::kRow, Layout::kCol, Layout::kPadded, Layout::kNeither};
  // Tiny (plain loop), small and odd sizes, every pair of layouts.
  const int64_t small[][3] = {{1, 1, 1}, {2, 3, 4}, {4, 4, 4}, {7, 5, 3}, {33, 17, 9}};
  for (const auto& s : small) {
    for (Layout la : layouts) {
      for (Layout lb : layouts) {
        for (double beta : {0.0, 1.0, 0.5}) {
          check_gemm<double>(s[0], s[1], s[2], la, lb, beta, 1e-12);
          check_gemm<float>(s[0], s[1], s[2], la, lb, float(beta), 1e-4);
        }
      }
    }
  }
  // Products large enough to be split across threads, by rows (m >= n) and by columns.
  const int64_t large[][3] = {{130, 70, 200}, {200, 120, 64}, {64, 120, 200}};
  for (const auto& s : large) {
    for (Layout la : layouts) {
      check_gemm<double>(s[0], s[1], s[2], la, Layout::kCol, 0.0, 1e-12);
      check_gemm<float>(s[0], s[1], s[2], Layout::kRow, la, 1.0f, 1e-4);
    }
  }
}

TEST_P(GemmTest, EmptyDimensions) {
  // k == 0: the product is zero, so beta 0 zeroes c and beta 1 leaves it.
  std::vector<float> c = {5, 5, 5, 5};
  const float dummy = 0;
  native::gemm(MatrixRef<float>{&dummy, 2, 0, 0, 1}, MatrixRef<float>{&dummy, 0, 2, 2, 1}, 1.0f,
               c.data(), 2);
  EXPECT_EQ(c, (std::vector<float>{5, 5, 5, 5}));
  native::gemm(MatrixRef<float>{&dummy, 2, 0, 0, 1}, MatrixRef<float>{&dummy, 0, 2, 2, 1}, 0.0f,
               c.data(), 2);
  EXPECT_EQ(c, (std::vector<float>{0, 0, 0, 0}));
}

TEST_P(GemmTest, ConcurrentCallersGetTheirOwnProducts) {
  // Several threads share the pool: each product must be right whether it got the pool or
  // ran alone.
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      const int64_t n = 96 + 16 * t;
      const Stored<double> a = operand<double>(n, n, Layout::kRow, t),
                           b = operand<double>(n, n, Layout::kCol, t + 7);
      std::vector<double> c(static_cast<size_t>(n * n));
      for (int rep = 0; rep < 5; ++rep) {
        native::gemm(a.ref, b.ref, 0.0, c.data(), n);
        for (int64_t i = 0; i < n; i += 17) {
          for (int64_t j = 0; j < n; j += 13) {
            long double want = 0;
            for (int64_t l = 0; l < n; ++l) want += (long double)at(a.ref, i, l) * at(b.ref, l, j);
            if (std::fabs(double(c[size_t(i * n + j)] - want)) > 1e-10) ++failures[size_t(t)];
          }
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures, (std::vector<int>{0, 0, 0, 0}));
}

INSTANTIATE_TEST_SUITE_P(Threads, GemmTest, ::testing::Values(1, 2, 3));

// An r x c operand whose element (i, j) is a function of (i, j) and the seed whatever the layout,
// stored at p[i * s0 + j * s1] in a buffer whose other elements are NaN: a kernel reading at a
// wrong stride, or past the matrix, gets NaN.
template <typename T>
Stored<T> logical(int64_t r, int64_t c, int64_t s0, int64_t s1, int seed) {
  Stored<T> m;
  const int64_t extent = (r - 1) * s0 + (c - 1) * s1 + 1;
  m.buffer.assign(static_cast<size_t>(extent), std::numeric_limits<T>::quiet_NaN());
  for (int64_t i = 0; i < r; ++i) {
    for (int64_t j = 0; j < c; ++j) {
      m.buffer[static_cast<size_t>(i * s0 + j * s1)] = T(std::sin(0.37 * double(i * c + j) + seed));
    }
  }
  m.ref = {m.buffer.data(), r, c, s0, s1};
  return m;
}

// The strides of layout l (0 row-major, 1 column-major, 2 row-major padded, 3 column-major padded,
// 4 neither) for an r x c operand.
std::pair<int64_t, int64_t> strides(int l, int64_t r, int64_t c) {
  switch (l) {
    case 0: return {c, 1};
    case 1: return {1, r};
    case 2: return {c + 5, 1};
    case 3: return {1, r + 3};
    default: return {2 * c + 1, 2};
  }
}

// c = op(a) @ op(b) (+ c when beta is 1) for one shape, every pair of layouts, beta 0 (c full of
// NaN, which must not be read) and 1, against a double-accumulating loop: |error| <= tol * (1 +
// the sum of the terms' magnitudes). The padding column of c stays untouched.
template <typename T>
void check_kernel_shape(int64_t m, int64_t k, int64_t n, double tol) {
  const int64_t ldc = n + 2;
  const Stored<T> a0 = logical<T>(m, k, k, 1, 1), b0 = logical<T>(k, n, n, 1, 2);
  std::vector<double> sum(static_cast<size_t>(m * n)), mag(sum.size());
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0, g = 0;
      for (int64_t l = 0; l < k; ++l) {
        const double t = double(at(a0.ref, i, l)) * double(at(b0.ref, l, j));
        s += t;
        g += std::fabs(t);
      }
      sum[size_t(i * n + j)] = s;
      mag[size_t(i * n + j)] = g;
    }
  }
  for (int la = 0; la < 5; ++la) {
    for (int lb = 0; lb < 5; ++lb) {
      const auto [as0, as1] = strides(la, m, k);
      const auto [bs0, bs1] = strides(lb, k, n);
      const Stored<T> a = logical<T>(m, k, as0, as1, 1), b = logical<T>(k, n, bs0, bs1, 2);
      for (int beta = 0; beta < 2; ++beta) {
        std::vector<T> c(static_cast<size_t>(m * ldc));
        for (size_t i = 0; i < c.size(); ++i) {
          c[i] = beta ? T(std::cos(0.3 * double(i))) : std::numeric_limits<T>::quiet_NaN();
        }
        const std::vector<T> before = c;
        native::gemm(a.ref, b.ref, T(beta), c.data(), ldc);
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = n; j < ldc; ++j) {
            ASSERT_EQ(std::memcmp(&c[size_t(i * ldc + j)], &before[size_t(i * ldc + j)], sizeof(T)),
                      0);
          }
          for (int64_t j = 0; j < n; ++j) {
            const size_t idx = size_t(i * ldc + j);
            const double want = sum[size_t(i * n + j)] + (beta ? double(before[idx]) : 0.0);
            ASSERT_NEAR(double(c[idx]), want, tol * (1 + mag[size_t(i * n + j)]))
                << m << "x" << k << "x" << n << " layouts " << la << "," << lb << " beta " << beta
                << " at (" << i << ", " << j << ")";
          }
        }
      }
    }
  }
}

// Sizes around the micro-kernel's tiles (AVX-512: 14 rows x 32 columns of floats, 16 of
// doubles; AVX2 6 x 16 / 8; baseline 4 x 8 / 4), its depth blocks (256 terms) and 1.
TEST(GemmKernelTest, OddSizesEveryLayoutMatchTheLoop) {
  const int64_t shapes[][3] = {{1, 7, 40},    {40, 7, 1},    {2, 1, 3},     {3, 300, 2},
                               {13, 5, 31},   {14, 16, 32},  {15, 33, 33},  {29, 64, 47},
                               {64, 64, 64},  {65, 257, 17}, {97, 129, 95}, {28, 513, 64},
                               {127, 3, 255}, {5, 260, 300}, {300, 40, 9},  {43, 100, 129}};
  for (const auto& s : shapes) {
    check_kernel_shape<float>(s[0], s[1], s[2], 2e-5);
    check_kernel_shape<double>(s[0], s[1], s[2], 1e-13);
  }
}

// The same bits whatever the number of threads: the panels of a split product (rows when m >= n,
// columns otherwise; sizes not multiples of the tiles, depth over one block) run the same sums.
template <typename T>
void check_threads_bitwise(int64_t m, int64_t k, int64_t n, int la, int lb, int beta) {
  const auto [as0, as1] = strides(la, m, k);
  const auto [bs0, bs1] = strides(lb, k, n);
  const Stored<T> a = logical<T>(m, k, as0, as1, 3), b = logical<T>(k, n, bs0, bs1, 4);
  std::vector<T> first;
  for (int threads : {1, 2, 3}) {
    set_num_threads(threads);
    std::vector<T> c(static_cast<size_t>(m * n));
    for (size_t i = 0; i < c.size(); ++i) c[i] = T(std::cos(0.1 * double(i)));
    native::gemm(a.ref, b.ref, T(beta), c.data(), n);
    if (threads == 1) {
      first = c;
    } else {
      ASSERT_EQ(std::memcmp(c.data(), first.data(), c.size() * sizeof(T)), 0)
          << m << "x" << k << "x" << n << " layouts " << la << "," << lb << " with " << threads
          << " threads";
    }
  }
  set_num_threads(1);
}

TEST(GemmKernelTest, SameBitsAtEveryThreadCount) {
  const int64_t shapes[][3] = {{157, 300, 93}, {61, 97, 203}, {301, 33, 290}, {40, 700, 45}};
  for (const auto& s : shapes) {
    for (int la = 0; la < 5; ++la) {
      check_threads_bitwise<float>(s[0], s[1], s[2], la, (la + 1) % 5, la % 2);
      check_threads_bitwise<double>(s[0], s[1], s[2], (la + 2) % 5, la, (la + 1) % 2);
    }
  }
}

TEST(GemmBackendTest, NamesTheLibrary) {
  const std::string want =
      std::string(native::vec::packed_gemm_enabled() ? "gradgen-" : "eigen-") + native::vec::isa();
  EXPECT_EQ(std::string(native::gemm_backend()), want);
  set_num_threads(0);
  EXPECT_EQ(get_num_threads(), 1);
}

Tensor seq(IntArrayRef sizes, double scale, double phase) {
  Tensor t = empty(sizes, ScalarType::Double);
  for (int64_t i = 0; i < t.numel(); ++i)
    t.data_ptr<double>()[i] = scale * std::sin(0.37 * i + phase);
  return t;
}

void expect_close(const Tensor& got, const Tensor& want, double tol) {
  ASSERT_EQ(got.sizes().vec(), want.sizes().vec());
  const std::vector<double> g = test_util::values(got.contiguous()),
                            w = test_util::values(want.contiguous());
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], tol) << "element " << i;
}

TEST(LinearTest, FusedBiasMatchesMmPlusBias) {
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    const Tensor x = seq({70, 40}, 1.0, 1), w = seq({130, 40}, 0.5, 2), b = seq({130}, 1.0, 3);
    expect_close(linear(x, w, b), add(mm(x, t(w)), b), 1e-12);
    expect_close(linear(x, w), mm(x, t(w)), 1e-12);
    // A transposed 2-D input is read in place; a 3-D one is flattened.
    const Tensor xt = t(seq({40, 70}, 1.0, 4));
    expect_close(linear(xt, w, b), add(mm(xt, t(w)), b), 1e-12);
    const Tensor x3 = seq({2, 35, 40}, 1.0, 5);
    expect_close(linear(x3, w, b), reshape(add(mm(reshape(x3, {70, 40}), t(w)), b), {2, 35, 130}),
                 1e-12);
    // No rows, and no input features (the result is the bias).
    EXPECT_EQ(linear(seq({0, 40}, 1.0, 0), w, b).sizes().vec(), (std::vector<int64_t>{0, 130}));
    expect_close(linear(seq({3, 0}, 1.0, 0), seq({4, 0}, 1.0, 0), seq({4}, 1.0, 6)),
                 expand(seq({4}, 1.0, 6), {3, 4}), 0);
  }
  set_num_threads(1);
}

TEST(MseLossTest, FusedMatchesItsDefinition) {
  for (ScalarType dt : {ScalarType::Double, ScalarType::Float}) {
    const double tol = dt == ScalarType::Double ? 1e-12 : 1e-5;
    const Tensor a = to(seq({37, 29}, 1.0, 1), dt), b = to(seq({37, 29}, 0.5, 2), dt);
    const Tensor sq = pow(sub(a, b, 1), 2);
    expect_close(to(mse_loss(a, b, Reduction::Mean), ScalarType::Double),
                 to(mean(sq), ScalarType::Double), tol);
    expect_close(to(mse_loss(a, b, Reduction::Sum), ScalarType::Double),
                 to(sum(sq), ScalarType::Double), tol * 100);
    expect_close(to(mse_loss(a, b, Reduction::None), ScalarType::Double),
                 to(sq, ScalarType::Double), tol);
    // A non-contiguous operand takes the same path's answer.
    const Tensor at_ = t(to(seq({29, 37}, 1.0, 3), dt));
    expect_close(to(mse_loss(at_, b, Reduction::Mean), ScalarType::Double),
                 to(mean(pow(sub(at_, b, 1), 2)), ScalarType::Double), tol);
  }
}

TEST(MseLossTest, GradientsOfBothOperandsWithAndWithoutGraph) {
  for (bool create_graph : {false, true}) {
    for (int64_t reduction : {Reduction::Mean, Reduction::Sum, Reduction::None}) {
      Tensor a = seq({5, 6}, 1.0, 1).set_requires_grad(true);
      Tensor b = seq({5, 6}, 0.5, 2).set_requires_grad(true);
      Tensor loss = mse_loss(a, b, reduction);
      if (reduction == Reduction::None) loss = sum(mul(loss, seq({5, 6}, 1.0, 3)));
      const std::vector<Tensor> g = autograd::grad({loss}, {a, b}, {}, create_graph, create_graph);
      const double scale = reduction == Reduction::Mean ? 2.0 / 30 : 2.0;
      Tensor want = mul(sub(a.detach(), b.detach(), 1), scale);
      if (reduction == Reduction::None) want = mul(want, seq({5, 6}, 1.0, 3));
      expect_close(g[0].detach(), want, 1e-12);
      expect_close(g[1].detach(), neg(want), 1e-12);
      EXPECT_EQ(g[0].requires_grad(), create_graph);
    }
  }
}

// The element-wise kernels and reductions of the MLP step (relu, threshold_backward, mse_loss and
// its backward, the bias gradient's sum over the leading dims) are vectorized and split across
// the intra-op threads above native::kParallelGrain elements: the same bits with 1, 2 and 3
// threads, and the values of their definitions. Sizes straddle the grain and are not multiples
// of the vector width or of the split's alignment.
std::vector<double> bits_of(const Tensor& t) {
  return test_util::values(to(t, ScalarType::Double));
}

TEST(PointwiseTest, ThreadedKernelsAreDeterministicAndExact) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double}) {
    for (const std::vector<int64_t>& shape :
         std::vector<std::vector<int64_t>>{{7, 5}, {300, 257}, {3, 41, 999}}) {
      const Tensor x = to(seq(shape, 1.0, 1), dt), y = to(seq(shape, 0.5, 2), dt);
      const Tensor g = to(seq(shape, 2.0, 3), dt);
      std::vector<std::vector<double>> first;
      for (int threads : {1, 2, 3}) {
        set_num_threads(threads);
        // mse_loss's gradient without a graph: the fused backward, scaled by the upstream
        // gradient (the sum of squares) through a second loss.
        Tensor xg = x.detach().set_requires_grad(true);
        const Tensor scale = mse_loss(x, y, Reduction::Sum);
        const Tensor loss = mul(mse_loss(xg, y, Reduction::Mean), scale);
        const Tensor grad_x = autograd::grad({loss}, {xg})[0];
        std::vector<Tensor> got;
        {
          autograd::NoGradGuard no_grad;
          got = {relu(x),
                 threshold_backward(g, x, 0.25),
                 mse_loss(x, y, Reduction::Mean),
                 scale,
                 grad_x,
                 sum(x, {0}),
                 sum(x, {0, 1}, /*keepdim=*/true)};
        }
        std::vector<std::vector<double>> bits;
        for (const Tensor& t : got) bits.push_back(bits_of(t));
        if (threads == 1) {
          first = bits;
          // Against their definitions.
          const std::vector<double> xv = bits_of(x), yv = bits_of(y), gv = bits_of(g);
          const int64_t n = x.numel(), rows = shape[0], cols = n / rows;
          double sq = 0;
          for (int64_t i = 0; i < n; ++i) {
            EXPECT_EQ(bits[0][i], xv[i] > 0 ? xv[i] : 0.0);
            EXPECT_EQ(bits[1][i], xv[i] <= 0.25 ? 0.0 : gv[i]);
            sq += (xv[i] - yv[i]) * (xv[i] - yv[i]);
          }
          EXPECT_NEAR(bits[2][0], sq / double(n), 1e-6 * sq / double(n));
          EXPECT_NEAR(bits[3][0], sq, 1e-6 * sq);
          const double c = 2 * bits[3][0] / double(n);
          for (int64_t i = 0; i < n; ++i) {
            ASSERT_NEAR(bits[4][i], c * (xv[i] - yv[i]), 1e-6 * std::fabs(c)) << i;
          }
          for (int64_t j = 0; j < cols; ++j) {
            double col = 0;
            for (int64_t r = 0; r < rows; ++r) col += xv[r * cols + j];
            ASSERT_NEAR(bits[5][j], col, dt == ScalarType::Float ? 1e-4 : 1e-12) << j;
          }
        } else {
          for (size_t k = 0; k < bits.size(); ++k) {
            EXPECT_EQ(bits[k], first[k]) << "output " << k << " with " << threads << " threads";
          }
        }
      }
    }
  }
  set_num_threads(1);
}

}  // namespace
}  // namespace gradgen
