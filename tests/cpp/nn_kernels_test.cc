// The kernels of csrc/native/simd/nn_kernels.h through their ops (issue 27): layer norm's rows,
// batch norm's channels and max pooling's planes, forward and backward, in float32 and float64,
// against plain loops in double; widths that are not multiples of the vector widths (16 floats,
// 8 doubles) nor of the 1024-element blocks, rows starting at unaligned addresses, one and two
// intra-op threads giving the same bits; and the gradients in float64 against finite differences.
// Also scaled_dot_product_attention's fused kernel (csrc/native/attention_kernel.h), its output
// and gradients against the definition in double across blocks of query rows, with every mask.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "csrc/autograd/engine.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/gemm.h"
#include "csrc/ops.h"
#include "csrc/testing/gradcheck.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

std::vector<double> vals(const Tensor& t) {
  const Tensor c = to(t, ScalarType::Double).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

// `src`'s values in dtype, stored `offset` elements into a larger buffer: a tensor whose rows
// start at addresses of any alignment.
Tensor stored_at(const Tensor& src, ScalarType dtype, int64_t offset) {
  const std::vector<double> v = vals(src);
  Tensor buffer = zeros({static_cast<int64_t>(v.size()) + offset + 16}, dtype);
  for (size_t i = 0; i < v.size(); ++i) {
    if (dtype == ScalarType::Float) {
      buffer.data_ptr<float>()[offset + static_cast<int64_t>(i)] = static_cast<float>(v[i]);
    } else {
      buffer.data_ptr<double>()[offset + static_cast<int64_t>(i)] = v[i];
    }
  }
  return reshape(narrow(buffer, 0, offset, static_cast<int64_t>(v.size())), src.sizes());
}

// Element-wise |got - want| <= tol * (1 + the largest |want|), naming the case.
void expect_close(const std::vector<double>& got, const std::vector<double>& want, double tol,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 1;
  for (double w : want) scale = std::max(scale, std::fabs(w));
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tol * scale) << what << ", element " << i;
  }
}

// The same values, bit for bit, NaN where the other has NaN.
void expect_same(const std::vector<double>& got, const std::vector<double>& want,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      ASSERT_TRUE(std::isnan(got[i])) << what << ", element " << i;
    } else {
      ASSERT_EQ(got[i], want[i]) << what << ", element " << i;
    }
  }
}

class ThreadsGuard {
 public:
  explicit ThreadsGuard(int n) { set_num_threads(n); }
  ~ThreadsGuard() { set_num_threads(1); }
};

double tolerance(ScalarType dtype) { return dtype == ScalarType::Float ? 2e-5 : 1e-11; }

// ---------------------------------------------------------------------------------------------
// Layer norm
// ---------------------------------------------------------------------------------------------

struct LayerNormOut {
  std::vector<double> y, mean, rstd, gx, gw, gb;
};

LayerNormOut layer_norm_run(const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& go,
                            int64_t m) {
  auto [y, mean, rstd] = native_layer_norm(x, {m}, w, b, 1e-5);
  auto [gx, gw, gb] = native_layer_norm_backward(go, x, {m}, mean, rstd, w, b, {true, true, true});
  return {vals(y), vals(mean), vals(rstd), vals(gx), vals(gw), vals(gb)};
}

// The definition in double, from the values the kernel saw.
LayerNormOut layer_norm_reference(const std::vector<double>& x, const std::vector<double>& w,
                                  const std::vector<double>& b, const std::vector<double>& go,
                                  int64_t rows, int64_t m) {
  LayerNormOut r;
  r.gw.assign(static_cast<size_t>(m), 0.0);
  r.gb.assign(static_cast<size_t>(m), 0.0);
  for (int64_t i = 0; i < rows; ++i) {
    const double* xr = x.data() + i * m;
    const double* gr = go.data() + i * m;
    double mu = 0, var = 0;
    for (int64_t d = 0; d < m; ++d) mu += xr[d];
    mu /= static_cast<double>(m);
    for (int64_t d = 0; d < m; ++d) var += (xr[d] - mu) * (xr[d] - mu);
    const double rs = 1 / std::sqrt(var / static_cast<double>(m) + 1e-5);
    r.mean.push_back(mu);
    r.rstd.push_back(rs);
    double s1 = 0, s2 = 0;
    for (int64_t d = 0; d < m; ++d) {
      const double xhat = (xr[d] - mu) * rs, g = gr[d] * w[d];
      r.y.push_back(xhat * w[d] + b[d]);
      s1 += g;
      s2 += g * xhat;
      r.gw[d] += gr[d] * xhat;
      r.gb[d] += gr[d];
    }
    for (int64_t d = 0; d < m; ++d) {
      const double xhat = (xr[d] - mu) * rs, g = gr[d] * w[d];
      r.gx.push_back(rs * (g - s1 / static_cast<double>(m) - xhat * s2 / static_cast<double>(m)));
    }
  }
  return r;
}

TEST(NnKernelsTest, LayerNormMatchesPlainLoopsAtAnyOffsetAndThreadCount) {
  struct Case {
    int64_t rows, m;
  };
  // Widths around the vector widths and the 1024-element blocks; row counts around the 16-row
  // blocks of the backward; 300 x 257 is large enough to be split across two threads.
  const std::vector<Case> cases = {{1, 1},   {3, 7},    {2, 15},   {5, 16},   {4, 17},   {17, 31},
                                   {33, 33}, {37, 100}, {3, 1030}, {2, 2100}, {300, 257}};
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    for (const Case& c : cases) {
      const uint64_t seed = static_cast<uint64_t>(c.rows * 1000 + c.m);
      // A mean far from 0 (deviations, not sums of squares) and weights of either sign.
      const Tensor x0 = add(mul(randn({c.rows, c.m}, seed), 3.0), 2.0);
      const Tensor w0 = randn({c.m}, seed + 1), b0 = randn({c.m}, seed + 2);
      const Tensor go0 = randn({c.rows, c.m}, seed + 3);
      const std::string what = std::string(to_string(dtype)) + " rows " + std::to_string(c.rows) +
                               " m " + std::to_string(c.m);
      LayerNormOut first;
      for (int threads : {1, 2}) {
        ThreadsGuard guard(threads);
        for (int64_t offset : {0, 3}) {
          const Tensor x = stored_at(x0, dtype, offset), w = stored_at(w0, dtype, offset + 1);
          const Tensor b = stored_at(b0, dtype, 0), go = stored_at(go0, dtype, offset + 5);
          const LayerNormOut got = layer_norm_run(x, w, b, go, c.m);
          const std::string at =
              what + ", offset " + std::to_string(offset) + ", threads " + std::to_string(threads);
          if (threads == 1 && offset == 0) {
            first = got;
            const LayerNormOut want =
                layer_norm_reference(vals(x), vals(w), vals(b), vals(go), c.rows, c.m);
            const double tol = tolerance(dtype);
            expect_close(got.y, want.y, tol, at + ", y");
            expect_close(got.mean, want.mean, tol, at + ", mean");
            expect_close(got.rstd, want.rstd, tol, at + ", rstd");
            expect_close(got.gx, want.gx, tol, at + ", grad input");
            expect_close(got.gw, want.gw, tol, at + ", grad weight");
            expect_close(got.gb, want.gb, tol, at + ", grad bias");
            continue;
          }
          expect_same(got.y, first.y, at + ", y");
          expect_same(got.mean, first.mean, at + ", mean");
          expect_same(got.rstd, first.rstd, at + ", rstd");
          expect_same(got.gx, first.gx, at + ", grad input");
          expect_same(got.gw, first.gw, at + ", grad weight");
          expect_same(got.gb, first.gb, at + ", grad bias");
        }
      }
    }
  }
}

TEST(NnKernelsTest, LayerNormWithoutWeightOrBiasAndPartialMasks) {
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    const int64_t rows = 19, m = 21;
    const Tensor x = stored_at(randn({rows, m}, 41), dtype, 1);
    const Tensor go = stored_at(randn({rows, m}, 42), dtype, 2);
    const std::vector<double> ones(static_cast<size_t>(m), 1.0), zero(static_cast<size_t>(m), 0.0);
    const LayerNormOut want = layer_norm_reference(vals(x), ones, zero, vals(go), rows, m);
    auto [y, mean, rstd] = native_layer_norm(x, {m}, std::nullopt, std::nullopt, 1e-5);
    expect_close(vals(y), want.y, tolerance(dtype), "y without weight and bias");
    auto [gx, gw, gb] = native_layer_norm_backward(go, x, {m}, mean, rstd, std::nullopt,
                                                   std::nullopt, {true, true, true});
    expect_close(vals(gx), want.gx, tolerance(dtype), "grad input without weight");
    EXPECT_FALSE(gw.defined());
    EXPECT_FALSE(gb.defined());
    // Only the parameters' gradients.
    const Tensor w = stored_at(randn({m}, 43), dtype, 0), b = stored_at(randn({m}, 44), dtype, 0);
    auto [y2, mean2, rstd2] = native_layer_norm(x, {m}, w, b, 1e-5);
    auto [gx2, gw2, gb2] =
        native_layer_norm_backward(go, x, {m}, mean2, rstd2, w, b, {false, true, true});
    EXPECT_FALSE(gx2.defined());
    const LayerNormOut want2 = layer_norm_reference(vals(x), vals(w), vals(b), vals(go), rows, m);
    expect_close(vals(gw2), want2.gw, tolerance(dtype), "grad weight alone");
    expect_close(vals(gb2), want2.gb, tolerance(dtype), "grad bias alone");
  }
}

// ---------------------------------------------------------------------------------------------
// Batch norm
// ---------------------------------------------------------------------------------------------

struct BatchNormOut {
  std::vector<double> y, mean, invstd, gx, gw, gb, running_mean, running_var;
};

BatchNormOut batch_norm_run(const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& go,
                            bool training, ScalarType dtype, int64_t C) {
  Tensor rm = stored_at(mul(randn({C}, 7), 0.1), dtype, 0);
  Tensor rv = stored_at(add(mul(randn({C}, 8), 0.1), 1.0), dtype, 0);
  auto [y, mean, invstd] = native_batch_norm(x, w, b, rm, rv, training, 0.1, 1e-5);
  BatchNormOut r{vals(y), vals(mean), vals(invstd), {}, {}, {}, vals(rm), vals(rv)};
  // The backward from the statistics before the update (evaluation: the running ones as given).
  const Tensor rm0 = stored_at(mul(randn({C}, 7), 0.1), dtype, 0);
  const Tensor rv0 = stored_at(add(mul(randn({C}, 8), 0.1), 1.0), dtype, 0);
  auto [gx, gw, gb] = native_batch_norm_backward(go, x, w, rm0, rv0, mean, invstd, training, 1e-5,
                                                 {true, true, true});
  r.gx = vals(gx);
  r.gw = vals(gw);
  r.gb = vals(gb);
  return r;
}

BatchNormOut batch_norm_reference(const std::vector<double>& x, const std::vector<double>& w,
                                  const std::vector<double>& b, const std::vector<double>& go,
                                  const std::vector<double>& rm, const std::vector<double>& rv,
                                  bool training, int64_t N, int64_t C, int64_t S) {
  BatchNormOut r;
  r.y.assign(x.size(), 0.0);
  r.gx.assign(x.size(), 0.0);
  const double count = static_cast<double>(N * S);
  for (int64_t c = 0; c < C; ++c) {
    auto at = [&](int64_t n, int64_t i) { return static_cast<size_t>((n * C + c) * S + i); };
    double mu = 0, sq = 0;
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t i = 0; i < S; ++i) mu += x[at(n, i)];
    }
    mu /= count;
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t i = 0; i < S; ++i) sq += (x[at(n, i)] - mu) * (x[at(n, i)] - mu);
    }
    const double m = training ? mu : rm[c];
    const double invstd = 1 / std::sqrt((training ? sq / count : rv[c]) + 1e-5);
    if (training) {
      r.mean.push_back(mu);
      r.invstd.push_back(invstd);
      r.running_mean.push_back(0.9 * rm[c] + 0.1 * mu);
      r.running_var.push_back(0.9 * rv[c] + 0.1 * sq / (count - 1));
    }
    double sum = 0, dot = 0;
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t i = 0; i < S; ++i) {
        const double xhat = (x[at(n, i)] - m) * invstd;
        r.y[at(n, i)] = xhat * w[c] + b[c];
        sum += go[at(n, i)];
        dot += go[at(n, i)] * xhat;
      }
    }
    r.gw.push_back(dot);
    r.gb.push_back(sum);
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t i = 0; i < S; ++i) {
        const double xhat = (x[at(n, i)] - m) * invstd;
        r.gx[at(n, i)] = training
                             ? w[c] * invstd * (go[at(n, i)] - sum / count - xhat * dot / count)
                             : w[c] * invstd * go[at(n, i)];
      }
    }
  }
  return r;
}

TEST(NnKernelsTest, BatchNormMatchesPlainLoopsAtAnyOffsetAndThreadCount) {
  // [N, C, spatial...]: planes of 1, 7, 35, 33 elements (tails only, one vector and a tail);
  // the last one large enough per channel to be split across two threads.
  const std::vector<std::vector<int64_t>> shapes = {{5, 3},     {4, 2, 7},    {4, 3, 5, 7},
                                                    {3, 2, 33}, {2, 3, 1030}, {8, 4, 64, 65}};
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    for (const auto& shape : shapes) {
      const int64_t N = shape[0], C = shape[1];
      int64_t S = 1;
      for (size_t d = 2; d < shape.size(); ++d) S *= shape[d];
      const uint64_t seed = static_cast<uint64_t>(N * 100 + C * 10 + S);
      const Tensor x0 = add(mul(randn(shape, seed), 2.0), 1.5);
      const Tensor w0 = randn({C}, seed + 1), b0 = randn({C}, seed + 2);
      const Tensor go0 = randn(shape, seed + 3);
      for (bool training : {true, false}) {
        const std::string what = std::string(to_string(dtype)) + " shape " + shape_str(shape) +
                                 (training ? ", training" : ", evaluation");
        BatchNormOut first;
        for (int threads : {1, 2}) {
          ThreadsGuard guard(threads);
          for (int64_t offset : {0, 5}) {
            const Tensor x = stored_at(x0, dtype, offset), go = stored_at(go0, dtype, offset + 1);
            const Tensor w = stored_at(w0, dtype, 0), b = stored_at(b0, dtype, 0);
            const BatchNormOut got = batch_norm_run(x, w, b, go, training, dtype, C);
            const std::string at = what + ", offset " + std::to_string(offset) + ", threads " +
                                   std::to_string(threads);
            if (threads == 1 && offset == 0) {
              first = got;
              const Tensor rm = stored_at(mul(randn({C}, 7), 0.1), dtype, 0);
              const Tensor rv = stored_at(add(mul(randn({C}, 8), 0.1), 1.0), dtype, 0);
              const BatchNormOut want = batch_norm_reference(vals(x), vals(w), vals(b), vals(go),
                                                             vals(rm), vals(rv), training, N, C, S);
              const double tol = tolerance(dtype);
              expect_close(got.y, want.y, tol, at + ", y");
              expect_close(got.gx, want.gx, tol, at + ", grad input");
              expect_close(got.gw, want.gw, tol, at + ", grad weight");
              expect_close(got.gb, want.gb, tol, at + ", grad bias");
              if (training) {
                expect_close(got.mean, want.mean, tol, at + ", mean");
                expect_close(got.invstd, want.invstd, tol, at + ", invstd");
                expect_close(got.running_mean, want.running_mean, tol, at + ", running_mean");
                expect_close(got.running_var, want.running_var, tol, at + ", running_var");
              }
              continue;
            }
            expect_same(got.y, first.y, at + ", y");
            expect_same(got.mean, first.mean, at + ", mean");
            expect_same(got.invstd, first.invstd, at + ", invstd");
            expect_same(got.gx, first.gx, at + ", grad input");
            expect_same(got.gw, first.gw, at + ", grad weight");
            expect_same(got.gb, first.gb, at + ", grad bias");
            expect_same(got.running_var, first.running_var, at + ", running_var");
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Max pool
// ---------------------------------------------------------------------------------------------

struct PoolCase {
  int64_t H, W, k, s, p, d;
  bool ceil;
};

int64_t out_size(int64_t in, const PoolCase& c) {
  const int64_t span = in + 2 * c.p - c.d * (c.k - 1) - 1 + (c.ceil ? c.s - 1 : 0);
  int64_t out = span / c.s + 1;
  if (c.ceil && (out - 1) * c.s >= in + c.p) --out;
  return out;
}

TEST(NnKernelsTest, MaxPoolMatchesPlainLoopsWithTiesNaNAndInfinities) {
  const std::vector<PoolCase> cases = {{8, 8, 2, 2, 0, 1, false},   {9, 11, 2, 2, 0, 1, true},
                                       {6, 40, 2, 2, 1, 1, false},  {7, 9, 3, 2, 1, 1, false},
                                       {10, 10, 3, 1, 1, 1, false}, {11, 13, 3, 2, 1, 2, false},
                                       {5, 37, 3, 3, 0, 1, true},   {12, 35, 2, 1, 0, 1, false},
                                       {4, 4, 4, 4, 2, 1, false},   {13, 70, 3, 2, 1, 1, true}};
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    for (const PoolCase& c : cases) {
      const int64_t planes = 6, OH = out_size(c.H, c), OW = out_size(c.W, c);
      // Values rounded to one decimal (ties), with NaNs and infinities sprinkled in.
      std::vector<double> xs = vals(randn({planes, c.H, c.W}, static_cast<uint64_t>(c.H * c.W)));
      for (size_t i = 0; i < xs.size(); ++i) {
        xs[i] = std::round(xs[i] * 10) / 10;
        if (i % 37 == 5) xs[i] = NAN;
        if (i % 23 == 7) xs[i] = -INFINITY;
        if (i % 41 == 3) xs[i] = INFINITY;
      }
      if (planes > 2) {
        // A plane of -inf only: every index the window's first valid position.
        for (int64_t i = 0; i < c.H * c.W; ++i)
          xs[static_cast<size_t>(2 * c.H * c.W + i)] = -INFINITY;
      }
      Tensor src = zeros({planes, c.H, c.W});
      std::copy(xs.begin(), xs.end(), src.data_ptr<double>());
      xs = vals(stored_at(src, dtype, 0));  // as the kernel sees them
      std::vector<double> want, want_index;
      for (int64_t pl = 0; pl < planes; ++pl) {
        for (int64_t oh = 0; oh < OH; ++oh) {
          for (int64_t ow = 0; ow < OW; ++ow) {
            double m = -INFINITY;
            int64_t best = -1;
            for (int64_t i = 0; i < c.k; ++i) {
              for (int64_t j = 0; j < c.k; ++j) {
                const int64_t h = oh * c.s - c.p + i * c.d, w = ow * c.s - c.p + j * c.d;
                if (h < 0 || h >= c.H || w < 0 || w >= c.W) continue;
                const double v = xs[static_cast<size_t>((pl * c.H + h) * c.W + w)];
                if (best < 0) best = h * c.W + w;
                if (v > m || std::isnan(v)) {
                  m = v;
                  best = h * c.W + w;
                }
              }
            }
            want.push_back(m);
            want_index.push_back(static_cast<double>(best));
          }
        }
      }
      const std::string what = std::string(to_string(dtype)) + " " + std::to_string(c.H) + "x" +
                               std::to_string(c.W) + " k" + std::to_string(c.k) + " s" +
                               std::to_string(c.s) + " p" + std::to_string(c.p) + " d" +
                               std::to_string(c.d) + (c.ceil ? " ceil" : "");
      for (int threads : {1, 2}) {
        ThreadsGuard guard(threads);
        for (int64_t offset : {0, 1}) {
          const Tensor x = stored_at(src, dtype, offset);
          auto [out, index] =
              max_pool2d_with_indices(x, {c.k, c.k}, {c.s, c.s}, {c.p, c.p}, {c.d, c.d}, c.ceil);
          ASSERT_EQ(out.sizes().vec(), (std::vector<int64_t>{planes, OH, OW})) << what;
          const std::string at = what + ", offset " + std::to_string(offset);
          expect_same(vals(out), want, at + ", values");
          expect_same(vals(to(index, ScalarType::Double)), want_index, at + ", indices");
        }
      }
    }
  }
}

// The backward's scatter runs on the threads; a bad index is still reported, naming the first.
TEST(NnKernelsTest, MaxPoolBackwardScattersOnThreadsAndRejectsBadIndices) {
  for (int threads : {1, 2}) {
    ThreadsGuard guard(threads);
    const Tensor x = randn({64, 4, 32, 33}, 3);
    auto [out, index] = max_pool2d_with_indices(x, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false);
    const Tensor go = randn(out.sizes(), 4);
    const std::vector<double> gi =
        vals(max_pool2d_with_indices_backward(go, x, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false, index));
    std::vector<double> want(static_cast<size_t>(x.numel()), 0.0);
    const std::vector<double> gos = vals(go), idx = vals(to(index, ScalarType::Double));
    const int64_t planes = 64 * 4, out_plane = out.numel() / planes, in_plane = 32 * 33;
    for (int64_t p = 0; p < planes; ++p) {
      for (int64_t o = 0; o < out_plane; ++o) {
        want[static_cast<size_t>(p * in_plane + static_cast<int64_t>(idx[p * out_plane + o]))] +=
            gos[static_cast<size_t>(p * out_plane + o)];
      }
    }
    expect_same(gi, want, "scatter, threads " + std::to_string(threads));
    Tensor bad = index.contiguous();
    bad.data_ptr<int64_t>()[5 * out_plane + 7] = in_plane;
    bad.data_ptr<int64_t>()[9 * out_plane] = -1;
    EXPECT_THROW_MESSAGE(
        max_pool2d_with_indices_backward(go, x, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false, bad),
        std::out_of_range,
        "max_pool2d_with_indices_backward: index 1056 is out of bounds for a plane of 1056 "
        "elements");
  }
}

// Attention's softmax skips _safe_softmax's masks when no row of the scores is -inf
// throughout: the same values as with a mask keeping everything; a mask hiding a whole row
// still gives 0 there, and gradients through both paths.
TEST(NnKernelsTest, AttentionWithAndWithoutDeadRows) {
  using test_util::leaf;
  const Tensor q = randn({2, 3, 5, 4}, 1), k = randn({2, 3, 6, 4}, 2), v = randn({2, 3, 6, 4}, 3);
  const Tensor keep_all = ones({5, 6}, ScalarType::Bool);
  expect_close(vals(scaled_dot_product_attention(q, k, v)),
               vals(scaled_dot_product_attention(q, k, v, keep_all)), 1e-15, "no mask");
  Tensor hide_row = ones({5, 6}, ScalarType::Bool);
  for (int64_t j = 0; j < 6; ++j) hide_row.data_ptr<bool>()[2 * 6 + j] = false;
  const std::vector<double> out = vals(scaled_dot_product_attention(q, k, v, hide_row));
  for (int64_t b = 0; b < 6; ++b) {
    for (int64_t e = 0; e < 4; ++e) EXPECT_EQ(out[static_cast<size_t>((b * 5 + 2) * 4 + e)], 0.0);
  }
  std::string report;
  for (const std::optional<Tensor>& mask :
       {std::optional<Tensor>(), std::optional<Tensor>(hide_row)}) {
    EXPECT_TRUE(testing::gradcheck(
        [&](const std::vector<Tensor>& in) {
          return scaled_dot_product_attention(in[0], in[1], in[2], mask);
        },
        {leaf({1, 2, 5, 3}, 4), leaf({1, 2, 6, 3}, 5), leaf({1, 2, 6, 3}, 6)}, 1e-6, 1e-5, 1e-3,
        &report))
        << report;
  }
}

// ---------------------------------------------------------------------------------------------
// The fused attention kernel (csrc/native/attention_kernel.h)
// ---------------------------------------------------------------------------------------------

struct AttentionRef {
  std::vector<double> out, dq, dk, dv;
};

// Attention of contiguous q [B, L, E], k [B, S, E], v [B, S, Ev] in double, bias [B, L, S]
// added to the scores (-inf hides one; a row hidden everywhere gives 0), and its gradients for
// go [B, L, Ev]: the definition, one row at a time.
AttentionRef attention_reference(const std::vector<double>& q, const std::vector<double>& k,
                                 const std::vector<double>& v, const std::vector<double>& go,
                                 const std::vector<double>& bias, int64_t B, int64_t L, int64_t S,
                                 int64_t E, int64_t Ev, double scale) {
  AttentionRef r;
  r.out.assign(static_cast<size_t>(B * L * Ev), 0.0);
  r.dq.assign(static_cast<size_t>(B * L * E), 0.0);
  r.dk.assign(static_cast<size_t>(B * S * E), 0.0);
  r.dv.assign(static_cast<size_t>(B * S * Ev), 0.0);
  std::vector<double> p(static_cast<size_t>(S)), dp(static_cast<size_t>(S));
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t i = 0; i < L; ++i) {
      const double* qi = q.data() + (b * L + i) * E;
      const double* gi = go.data() + (b * L + i) * Ev;
      double mx = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < S; ++j) {
        double s = 0;
        for (int64_t e = 0; e < E; ++e) s += qi[e] * k[static_cast<size_t>((b * S + j) * E + e)];
        p[j] = s * scale + bias[static_cast<size_t>((b * L + i) * S + j)];
        mx = std::max(mx, p[j]);
      }
      if (mx == -std::numeric_limits<double>::infinity()) continue;
      double sum = 0, dot = 0;
      for (int64_t j = 0; j < S; ++j) sum += p[j] = std::exp(p[j] - mx);
      for (int64_t j = 0; j < S; ++j) {
        p[j] /= sum;
        dp[j] = 0;
        for (int64_t e = 0; e < Ev; ++e) {
          const size_t at = static_cast<size_t>((b * S + j) * Ev + e);
          r.out[static_cast<size_t>((b * L + i) * Ev + e)] += p[j] * v[at];
          dp[j] += gi[e] * v[at];
          r.dv[at] += p[j] * gi[e];
        }
        dot += p[j] * dp[j];
      }
      for (int64_t j = 0; j < S; ++j) {
        const double ds = p[j] * (dp[j] - dot) * scale;
        for (int64_t e = 0; e < E; ++e) {
          r.dq[static_cast<size_t>((b * L + i) * E + e)] +=
              ds * k[static_cast<size_t>((b * S + j) * E + e)];
          r.dk[static_cast<size_t>((b * S + j) * E + e)] += ds * qi[e];
        }
      }
    }
  }
  return r;
}

enum class MaskKind { kNone, kBool, kFloat, kCausal };

struct AttentionCase {
  std::string name;
  int64_t B, L, S, E, Ev;
  MaskKind mask;
  double scale;  // 0: the default 1 / sqrt(E)
};

// The case's mask [L, S] (undefined for none and causal) and the bias it means, per batch.
Tensor attention_mask(const AttentionCase& c, ScalarType dtype, std::vector<double>& bias) {
  const double inf = std::numeric_limits<double>::infinity();
  bias.assign(static_cast<size_t>(c.B * c.L * c.S), 0.0);
  std::vector<double> row_bias(static_cast<size_t>(c.L * c.S), 0.0);
  Tensor mask;
  const std::vector<double> r = vals(randn({c.L, c.S}, 77));
  for (int64_t i = 0; i < c.L; ++i) {
    for (int64_t j = 0; j < c.S; ++j) {
      const size_t at = static_cast<size_t>(i * c.S + j);
      const bool hidden = r[at] < -1.0 || i == 3 || i == c.L - 1;  // rows 3 and L - 1: all
      if (c.mask == MaskKind::kCausal) row_bias[at] = j > i ? -inf : 0.0;
      if (c.mask == MaskKind::kBool) row_bias[at] = hidden ? -inf : 0.0;
      if (c.mask == MaskKind::kFloat) row_bias[at] = hidden ? -inf : r[at];
    }
  }
  if (c.mask == MaskKind::kBool) mask = eq(tensor(row_bias, {c.L, c.S}), 0.0);
  if (c.mask == MaskKind::kFloat) mask = to(tensor(row_bias, {c.L, c.S}), dtype);
  for (int64_t b = 0; b < c.B; ++b) {
    std::copy(row_bias.begin(), row_bias.end(), bias.begin() + b * c.L * c.S);
  }
  return mask;
}

// Output and gradients of q, k, v (in that order) of scaled_dot_product_attention on `threads`
// intra-op threads; q is a transposed (strided) view.
std::vector<std::vector<double>> attention_run(const AttentionCase& c, const Tensor& q,
                                               const Tensor& k, const Tensor& v, const Tensor& go,
                                               const Tensor& mask, int threads) {
  ThreadsGuard guard(threads);
  const std::optional<Tensor> m = mask.defined() ? std::optional<Tensor>(mask) : std::nullopt;
  const std::optional<double> scale = c.scale != 0 ? std::optional<double>(c.scale) : std::nullopt;
  const Tensor out =
      scaled_dot_product_attention(q, k, v, m, 0.0, c.mask == MaskKind::kCausal, scale);
  EXPECT_EQ(out.grad_fn()->name(), "ScaledDotProductAttentionBackward0") << c.name;
  const std::vector<Tensor> g = autograd::grad({out}, {q, k, v}, {go});
  return {vals(out), vals(g[0]), vals(g[1]), vals(g[2])};
}

// Query blocks of 160 rows (2^21 / (S * E)) or, for one matrix, 32 (2^19 / (S * E)), the last
// one short; rows masked
// everywhere; every mask; a negative scale; in float32 and float64, on one and two threads.
TEST(NnKernelsTest, FusedAttentionMatchesPlainLoopsAtAnyThreadCount) {
  const std::vector<AttentionCase> cases = {
      {"no mask", 3, 170, 300, 40, 9, MaskKind::kNone, 0},
      {"bool mask", 2, 170, 300, 40, 9, MaskKind::kBool, 0},
      {"float mask, negative scale", 2, 37, 300, 40, 5, MaskKind::kFloat, -0.2},
      {"causal, L > S", 2, 70, 45, 17, 33, MaskKind::kCausal, 0},
      {"causal, one matrix", 1, 70, 300, 40, 9, MaskKind::kCausal, 0.3},
      {"small, odd", 2, 5, 3, 1, 2, MaskKind::kNone, 0},
  };
  for (const ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    for (const AttentionCase& c : cases) {
      const std::string what = c.name + (dtype == ScalarType::Float ? ", float32" : ", float64");
      const Tensor q =
          transpose(to(randn({c.B, c.E, c.L}, 1), dtype), 1, 2).set_requires_grad(true);
      const Tensor k = to(randn({c.B, c.S, c.E}, 2), dtype).set_requires_grad(true);
      const Tensor v = to(randn({c.B, c.S, c.Ev}, 3), dtype).set_requires_grad(true);
      const Tensor go = to(randn({c.B, c.L, c.Ev}, 4), dtype);
      std::vector<double> bias;
      const Tensor mask = attention_mask(c, dtype, bias);
      const auto one = attention_run(c, q, k, v, go, mask, 1);
      const auto two = attention_run(c, q, k, v, go, mask, 2);
      const double scale = c.scale != 0 ? c.scale : 1 / std::sqrt(static_cast<double>(c.E));
      const AttentionRef r = attention_reference(vals(q), vals(k), vals(v), vals(go), bias, c.B,
                                                 c.L, c.S, c.E, c.Ev, scale);
      const std::vector<std::vector<double>> want = {r.out, r.dq, r.dk, r.dv};
      const char* names[] = {"output", "dq", "dk", "dv"};
      for (size_t t = 0; t < 4; ++t) {
        expect_close(one[t], want[t], tolerance(dtype), what + ", " + names[t]);
        expect_same(two[t], one[t], what + ", " + names[t] + ", two threads");
      }
    }
  }
}

// Broadcast batch dims (a key and value shared by the heads, a mask per batch), enable_gqa and
// the paths left to the composite (dropout, a mask requiring grad) give the composite's values.
TEST(NnKernelsTest, FusedAttentionBroadcastsAsTheComposite) {
  using test_util::leaf;
  const Tensor q = leaf({2, 3, 9, 4}, 1), k = leaf({2, 1, 11, 4}, 2), v = leaf({11, 5}, 3);
  Tensor mask = gt(randn({2, 1, 9, 11}, 4), -1.0);
  const Tensor out = scaled_dot_product_attention(q, k, v, mask);
  EXPECT_EQ(std::vector<int64_t>(out.sizes().begin(), out.sizes().end()),
            (std::vector<int64_t>{2, 3, 9, 5}));
  EXPECT_EQ(out.grad_fn()->name(), "ScaledDotProductAttentionBackward0");
  // The math composite's value: the float mask requiring grad takes it.
  const Tensor bias = masked_fill(zeros({2, 1, 9, 11}, ScalarType::Double), logical_not(mask),
                                  -std::numeric_limits<double>::infinity())
                          .set_requires_grad(true);
  const Tensor math = scaled_dot_product_attention(q, k, v, bias);
  EXPECT_NE(math.grad_fn()->name(), "ScaledDotProductAttentionBackward0");
  expect_close(vals(out), vals(math), 1e-12, "broadcast batch dims");
  const Tensor go = randn({2, 3, 9, 5}, 5);
  const std::vector<Tensor> g1 = autograd::grad({out}, {q, k, v}, {go});
  const std::vector<Tensor> g2 = autograd::grad({math}, {q, k, v}, {go});
  for (size_t i = 0; i < 3; ++i) expect_close(vals(g1[i]), vals(g2[i]), 1e-12, "gradient");
  std::string report;
  EXPECT_TRUE(testing::gradcheck(
      [&](const std::vector<Tensor>& in) {
        return scaled_dot_product_attention(in[0], in[1], in[2], std::nullopt, 0.0, true);
      },
      {leaf({2, 2, 7, 3}, 6), leaf({1, 2, 6, 3}, 7), leaf({2, 1, 6, 2}, 8)}, 1e-6, 1e-5, 1e-3,
      &report))
      << report;
  const Tensor dropped = scaled_dot_product_attention(q, k, v, std::nullopt, 0.5);
  EXPECT_NE(dropped.grad_fn()->name(), "ScaledDotProductAttentionBackward0");
}

// ---------------------------------------------------------------------------------------------
// Gradients in float64 against finite differences (rows crossing the 16-row blocks and chunks)
// ---------------------------------------------------------------------------------------------

TEST(NnKernelsTest, GradientsMatchFiniteDifferences) {
  using test_util::leaf;
  std::string report;
  EXPECT_TRUE(testing::gradcheck(
      [](const std::vector<Tensor>& in) {
        return layer_norm(in[0], {19}, in[1], in[2], 1e-5, true);
      },
      {leaf({37, 19}, 1), leaf({19}, 2), leaf({19}, 3)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(testing::gradcheck(
      [](const std::vector<Tensor>& in) {
        return batch_norm(in[0], in[1], in[2], std::nullopt, std::nullopt, true, 0.1, 1e-5, false);
      },
      {leaf({3, 4, 19}, 4), leaf({4}, 5), leaf({4}, 6)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(testing::gradcheck(
      [](const std::vector<Tensor>& in) {
        return max_pool2d(in[0], {3, 3}, {2, 2}, {1, 1}, {1, 1}, false);
      },
      {leaf({2, 3, 9, 11}, 7)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(testing::gradcheck(
      [](const std::vector<Tensor>& in) {
        return max_pool2d(in[0], {2, 2}, {2, 2}, {0, 0}, {1, 1}, true);
      },
      {leaf({2, 2, 7, 9}, 8)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
}

}  // namespace
}  // namespace gradgen
