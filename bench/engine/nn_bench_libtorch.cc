// libtorch's speed on the nn workloads of nn_bench_gradgen.cc (same workloads, data, options
// and RESULT / CHECK lines), the anchor gradgen is measured against in the same run (issue 26).
//
// Not built by Bazel: libtorch is no dependency of the project. bench/engine/run.py --nn
// compiles it against a torch install as it does libtorch_bench.cc. It prints which
// convolution backend libtorch may use (oneDNN, a.k.a. mkldnn: compiled in, enabled); run it
// with ONEDNN_VERBOSE=1 to see the primitives oneDNN picks (run.py --nn does, once).
#include <ATen/Context.h>
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "bench/engine/bench_common.h"

namespace engine_bench {

using torch::Tensor;

torch::Dtype dtype_of(const Options& o) {
  return o.dtype == "float32" ? torch::kFloat32 : torch::kFloat64;
}

// scale * sin(0.37 * i + seed), i the row-major index: the values nn_bench_gradgen.cc uses.
Tensor data(at::IntArrayRef sizes, int seed, double scale, torch::Dtype dtype,
            bool requires_grad = true) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  const Tensor i = torch::arange(n, torch::kFloat64);
  Tensor out = (torch::sin(i * 0.37 + seed) * scale).reshape(sizes).to(dtype).contiguous();
  if (requires_grad) out.requires_grad_(true);
  return out;
}

double norm_of(const Tensor& t) {
  return t.defined() ? t.to(torch::kFloat64).square().sum().sqrt().item<double>() : NAN;
}

// As nn_bench_gradgen.cc's measure().
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

void conv(const Options& o, const std::string& name, int64_t k, int64_t stride, int64_t groups) {
  const auto dt = dtype_of(o);
  const int64_t N = 8, C = 64, H = 56, pad = k / 2, out_h = (H + 2 * pad - k) / stride + 1;
  const Tensor x = data({N, C, H, H}, 1, 1.0, dt);
  const Tensor w = data({C, C / groups, k, k}, 2, 1.0 / std::sqrt(double(C / groups * k * k)), dt);
  const Tensor b = data({C}, 3, 0.1, dt);
  const Tensor go = data({N, C, out_h, out_h}, 4, 1.0, dt, false);
  measure(o, name, 7, 2, {x, w, b}, go, [&] {
    return torch::conv2d(x, w, b, {stride, stride}, {pad, pad}, {1, 1}, groups);
  });
}

void conv_transpose(const Options& o) {
  const auto dt = dtype_of(o);
  const int64_t N = 8, C = 64, H = 28;
  const Tensor x = data({N, C, H, H}, 1, 1.0, dt);
  const Tensor w = data({C, C, 3, 3}, 2, 1.0 / std::sqrt(double(C * 9)), dt);
  const Tensor b = data({C}, 3, 0.1, dt);
  const Tensor go = data({N, C, 2 * H, 2 * H}, 4, 1.0, dt, false);
  measure(o, "convT", 7, 2, {x, w, b}, go, [&] {
    return torch::conv_transpose2d(x, w, b, {2, 2}, {1, 1}, {1, 1}, 1, {1, 1});
  });
}

void cnn(const Options& o) {
  const auto dt = dtype_of(o);
  const int64_t B = 32;
  const Tensor x = data({B, 3, 32, 32}, 1, 1.0, dt, false);
  const Tensor target = (torch::arange(B, torch::kLong) * 7).remainder(10);
  const Tensor w1 = data({16, 3, 3, 3}, 2, 1.0 / std::sqrt(27.0), dt);
  const Tensor g1 = data({16}, 4, 0.2, dt), e1 = data({16}, 5, 0.1, dt);
  const Tensor w2 = data({32, 16, 3, 3}, 6, 1.0 / 12.0, dt);
  const Tensor g2 = data({32}, 8, 0.2, dt), e2 = data({32}, 9, 0.1, dt);
  const Tensor fw = data({10, 2048}, 10, 1.0 / std::sqrt(2048.0), dt), fb = data({10}, 11, 0.1, dt);
  auto block = [&](const Tensor& h, const Tensor& w, const Tensor& g, const Tensor& e) {
    const Tensor c = torch::conv2d(h, w, {}, {1, 1}, {1, 1}, {1, 1}, 1);
    const Tensor n = torch::batch_norm(c, g, e, {}, {}, true, 0.1, 1e-5, false);
    return torch::max_pool2d(torch::relu(n), {2, 2});
  };
  measure(o, "cnn", 21, 3, {w1, g1, e1, w2, g2, e2, fw, fb}, Tensor(), [&] {
    const Tensor h = block(block(x, w1, g1, e1), w2, g2, e2);
    return torch::cross_entropy_loss(torch::linear(torch::flatten(h, 1), fw, fb), target);
  });
}

void layer_norm(const Options& o) {
  const auto dt = dtype_of(o);
  const Tensor x = data({8, 128, 256}, 1, 1.0, dt);
  const Tensor w = data({256}, 2, 0.5, dt), b = data({256}, 3, 0.1, dt);
  const Tensor go = data({8, 128, 256}, 4, 1.0, dt, false);
  measure(o, "layer_norm", 101, 10, {x, w, b}, go,
          [&] { return torch::layer_norm(x, {256}, w, b, 1e-5, true); });
}

void sdpa(const Options& o) {
  const auto dt = dtype_of(o);
  const Tensor q = data({8, 4, 128, 64}, 1, 1.0, dt), k = data({8, 4, 128, 64}, 2, 1.0, dt);
  const Tensor v = data({8, 4, 128, 64}, 3, 1.0, dt);
  const Tensor go = data({8, 4, 128, 64}, 4, 1.0, dt, false);
  measure(o, "sdpa", 31, 5, {q, k, v}, go,
          [&] { return torch::scaled_dot_product_attention(q, k, v); });
}

}  // namespace engine_bench

int main(int argc, char** argv) {
  using namespace engine_bench;
  Options o = parse(argc, argv);
  if (o.workloads == Options().workloads) {
    o.workloads = "conv3x3,conv3x3s2,conv1x1,dwconv3x3,convT,cnn,layer_norm,sdpa";
  }
  at::set_num_threads(o.threads);
  at::set_num_interop_threads(1);
  std::printf(
      "nn_bench_libtorch: torch %s, dtype %s, %d thread(s), mkldnn compiled in %d, "
      "enabled %d\n",
      TORCH_VERSION, o.dtype.c_str(), at::get_num_threads(), int(at::hasMKLDNN()),
      int(at::globalContext().userEnabledMkldnn()));
  std::printf("BACKEND mkldnn_available %d\nBACKEND mkldnn_enabled %d\n", int(at::hasMKLDNN()),
              int(at::globalContext().userEnabledMkldnn()));
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
