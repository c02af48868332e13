// gradgen's speed on the nn workloads of issue 26 (conv, a small CNN, layer_norm, attention),
// the same as nn_bench_libtorch.cc, float32 (or --dtype), forward + backward:
//
//   conv3x3     conv2d 3x3, stride 1, padding 1, bias: x [8, 64, 56, 56] -> [8, 64, 56, 56]
//   conv3x3s2   the same with stride 2 -> [8, 64, 28, 28]
//   conv1x1     conv2d 1x1, stride 1, bias -> [8, 64, 56, 56]
//   dwconv3x3   depthwise conv2d 3x3 (groups 64, weight [64, 1, 3, 3]), padding 1, bias
//   convT       conv_transpose2d 3x3, stride 2, padding 1, output_padding 1, bias:
//               [8, 64, 28, 28] -> [8, 64, 56, 56]
//   cnn         a training step's forward and backward at batch 32, 3 x 32 x 32 images:
//               (conv 3x3 pad 1 no bias, batch_norm (training, batch stats), relu, max_pool 2) x 2
//               (3 -> 16 -> 32 channels), flatten, linear 2048 -> 10, cross_entropy
//   layer_norm  layer_norm over the last dim of [8, 128, 256], weight and bias
//   sdpa        scaled_dot_product_attention, q, k, v [8, 4, 128, 64] (batch 8, 4 heads,
//               seq 128, dim 256 split over the heads), no mask
//
// Every tensor but the CNN's images and labels is a leaf requiring grad; backward takes a fixed
// gradient (the CNN: from its loss). Data: scale * sin(0.37 * i + seed), i the row-major
// index, as in gradgen_bench.cc. After the timing each workload prints CHECK lines run.py
// compares with libtorch's: the norm of the output (the CNN: its loss) and of every gradient.
//
//   ./bazelw build -c opt //bench/engine:nn_bench_gradgen
//   bazel-bin/bench/engine/nn_bench_gradgen [--workloads=conv3x3,...] [--threads=2] [--repeats=N]
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "bench/engine/bench_common.h"
#include "csrc/autograd/engine.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/gemm.h"
#include "csrc/tensor.h"

namespace engine_bench {

using gradgen::Tensor;
using Ints = std::vector<int64_t>;

gradgen::ScalarType dtype_of(const Options& o) {
  return o.dtype == "float32" ? gradgen::ScalarType::Float : gradgen::ScalarType::Double;
}

// scale * sin(0.37 * i + seed), computed in double: the values nn_bench_libtorch.cc uses.
Tensor data(gradgen::IntArrayRef sizes, int seed, double scale, gradgen::ScalarType dtype,
            bool requires_grad = true) {
  Tensor out = gradgen::empty(sizes, dtype);
  for (int64_t i = 0; i < out.numel(); ++i) {
    const double v = scale * std::sin(0.37 * static_cast<double>(i) + seed);
    if (dtype == gradgen::ScalarType::Float) {
      out.data_ptr<float>()[i] = static_cast<float>(v);
    } else {
      out.data_ptr<double>()[i] = v;
    }
  }
  if (requires_grad) out.set_requires_grad(true);
  return out;
}

// Square root of the sum of squares, in double: plain sums of values of either sign cancel.
double norm_of(const Tensor& t) {
  if (!t.defined()) return NAN;
  const Tensor c = t.contiguous();
  double s = 0;
  for (int64_t i = 0; i < c.numel(); ++i) {
    const double v = c.scalar_type() == gradgen::ScalarType::Float ? c.data_ptr<float>()[i]
                                                                   : c.data_ptr<double>()[i];
    s += v * v;
  }
  return std::sqrt(s);
}

// Times fwd() then backward (from `go`, or from the scalar fwd() returns when `go` is
// undefined); then one more iteration for the CHECK lines.
void measure(const Options& o, const std::string& name, int repeats, int warmup,
             const std::vector<Tensor>& leaves, const Tensor& go,
             const std::function<Tensor()>& fwd) {
  Tensor out;
  auto reset = [&] {
    for (const Tensor& p : leaves) p.mutable_grad() = Tensor();
  };
  run_workload(
      o, name, 1, 1, repeats, warmup, [&] { out = fwd(); },
      [&] {
        out.backward(go);
        out = Tensor();
      },
      reset);
  out = fwd();
  check(name + (go.defined() ? ".out_norm" : ".loss"), norm_of(out));
  out.backward(go);
  for (size_t i = 0; i < leaves.size(); ++i) {
    check(name + ".grad" + std::to_string(i) + "_norm", norm_of(leaves[i].grad()));
  }
  reset();
}

// One conv2d workload (not transposed): x [8, 64, 56, 56], weight [64, 64 / groups, k, k].
void conv(const Options& o, const std::string& name, int64_t k, int64_t stride, int64_t groups) {
  const auto dt = dtype_of(o);
  const int64_t N = 8, C = 64, H = 56, pad = k / 2, out_h = (H + 2 * pad - k) / stride + 1;
  const Tensor x = data({N, C, H, H}, 1, 1.0, dt);
  const Tensor w = data({C, C / groups, k, k}, 2, 1.0 / std::sqrt(double(C / groups * k * k)), dt);
  const Tensor b = data({C}, 3, 0.1, dt);
  const Tensor go = data({N, C, out_h, out_h}, 4, 1.0, dt, false);
  const Ints st{stride, stride}, pd{pad, pad}, dl{1, 1};
  measure(o, name, 7, 2, {x, w, b}, go,
          [&] { return gradgen::conv2d(x, w, b, st, pd, dl, groups); });
}

void conv_transpose(const Options& o) {
  const auto dt = dtype_of(o);
  const int64_t N = 8, C = 64, H = 28;
  const Tensor x = data({N, C, H, H}, 1, 1.0, dt);
  const Tensor w = data({C, C, 3, 3}, 2, 1.0 / std::sqrt(double(C * 9)), dt);
  const Tensor b = data({C}, 3, 0.1, dt);
  const Tensor go = data({N, C, 2 * H, 2 * H}, 4, 1.0, dt, false);
  const Ints st{2, 2}, pd{1, 1}, op{1, 1}, dl{1, 1};
  measure(o, "convT", 7, 2, {x, w, b}, go,
          [&] { return gradgen::conv_transpose2d(x, w, b, st, pd, op, 1, dl); });
}

void cnn(const Options& o) {
  const auto dt = dtype_of(o);
  const int64_t B = 32;
  const Tensor x = data({B, 3, 32, 32}, 1, 1.0, dt, false);
  Tensor target = gradgen::empty({B}, gradgen::ScalarType::Long);
  for (int64_t i = 0; i < B; ++i) target.data_ptr<int64_t>()[i] = (7 * i) % 10;
  const Tensor w1 = data({16, 3, 3, 3}, 2, 1.0 / std::sqrt(27.0), dt);
  const Tensor g1 = data({16}, 4, 0.2, dt), e1 = data({16}, 5, 0.1, dt);
  const Tensor w2 = data({32, 16, 3, 3}, 6, 1.0 / 12.0, dt);
  const Tensor g2 = data({32}, 8, 0.2, dt), e2 = data({32}, 9, 0.1, dt);
  const Tensor fw = data({10, 2048}, 10, 1.0 / std::sqrt(2048.0), dt), fb = data({10}, 11, 0.1, dt);
  const Ints one{1, 1}, two{2, 2};
  // conv 3x3 pad 1 without bias (batch_norm cancels it: its gradient would be rounding noise),
  // batch_norm with batch statistics (no running stats), relu, 2x2 max pool.
  auto block = [&](const Tensor& h, const Tensor& w, const Tensor& g, const Tensor& e) {
    const Tensor c = gradgen::conv2d(h, w, std::nullopt, one, one, one, 1);
    const Tensor n =
        gradgen::batch_norm(c, g, e, std::nullopt, std::nullopt, true, 0.1, 1e-5, false);
    return gradgen::max_pool2d(gradgen::relu(n), two);
  };
  measure(o, "cnn", 21, 3, {w1, g1, e1, w2, g2, e2, fw, fb}, Tensor(), [&] {
    const Tensor h = block(block(x, w1, g1, e1), w2, g2, e2);
    return gradgen::cross_entropy_loss(gradgen::linear(gradgen::flatten(h, 1), fw, fb), target);
  });
}

void layer_norm(const Options& o) {
  const auto dt = dtype_of(o);
  const Tensor x = data({8, 128, 256}, 1, 1.0, dt);
  const Tensor w = data({256}, 2, 0.5, dt), b = data({256}, 3, 0.1, dt);
  const Tensor go = data({8, 128, 256}, 4, 1.0, dt, false);
  const Ints shape{256};
  measure(o, "layer_norm", 101, 10, {x, w, b}, go,
          [&] { return gradgen::layer_norm(x, shape, w, b, 1e-5, true); });
}

void sdpa(const Options& o) {
  const auto dt = dtype_of(o);
  const Tensor q = data({8, 4, 128, 64}, 1, 1.0, dt), k = data({8, 4, 128, 64}, 2, 1.0, dt);
  const Tensor v = data({8, 4, 128, 64}, 3, 1.0, dt);
  const Tensor go = data({8, 4, 128, 64}, 4, 1.0, dt, false);
  measure(o, "sdpa", 31, 5, {q, k, v}, go,
          [&] { return gradgen::scaled_dot_product_attention(q, k, v); });
}

}  // namespace engine_bench

int main(int argc, char** argv) {
  using namespace engine_bench;
  Options o = parse(argc, argv);
  // bench_common.h's default list is gradgen_bench's; here it means every nn workload.
  if (o.workloads == Options().workloads) {
    o.workloads = "conv3x3,conv3x3s2,conv1x1,dwconv3x3,convT,cnn,layer_norm,sdpa";
  }
  gradgen::set_num_threads(o.threads);
  std::printf("nn_bench_gradgen: dtype %s, %d thread(s), GEMM %s\n", o.dtype.c_str(),
              gradgen::get_num_threads(), gradgen::native::gemm_backend());
  struct Case {
    const char* name;
    std::function<void(const Options&)> run;
  };
  const Case cases[] = {
      {"conv3x3", [](const Options& p) { conv(p, "conv3x3", 3, 1, 1); }},
      {"conv3x3s2", [](const Options& p) { conv(p, "conv3x3s2", 3, 2, 1); }},
      {"conv1x1", [](const Options& p) { conv(p, "conv1x1", 1, 1, 1); }},
      {"dwconv3x3", [](const Options& p) { conv(p, "dwconv3x3", 3, 1, 64); }},
      {"convT", conv_transpose},
      {"cnn", cnn},
      {"layer_norm", layer_norm},
      {"sdpa", sdpa},
  };
  return run_selected(o, cases);
}
