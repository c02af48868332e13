// libtorch's autograd speed on the workloads of gradgen_bench.cc (same options, same
// RESULT lines), the anchor gradgen is measured against in the same run (issue 4).
//
// Not built by Bazel: libtorch is no dependency of the project. bench/engine/run.sh compiles
// it when it finds a torch install, roughly:
//
//   TORCH=$(python -c 'import torch, os; print(os.path.dirname(torch.__file__))')
//   g++ -O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=1 -I. -I$TORCH/include \
//       -I$TORCH/include/torch/csrc/api/include bench/engine/libtorch_bench.cc \
//       -L$TORCH/lib -Wl,-rpath,$TORCH/lib -ltorch -ltorch_cpu -lc10 -o libtorch_bench
//
// --threads intra-op threads (at::set_num_threads, 1 by default), CPU, the dtype of --dtype.
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bench/engine/bench_common.h"

namespace engine_bench {

torch::TensorOptions options_of(const Options& o) {
  return torch::TensorOptions().dtype(o.dtype == "float32" ? torch::kFloat32 : torch::kFloat64);
}

// scale * sin(0.37 * i + seed), i the row-major index: the values gradgen_bench.cc uses.
torch::Tensor data(at::IntArrayRef sizes, int seed, double scale, const torch::TensorOptions& opt) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  torch::Tensor i = torch::arange(n, torch::kFloat64);
  return (torch::sin(i * 0.37 + seed) * scale).reshape(sizes).to(opt.dtype());
}

double sum_of(const torch::Tensor& t) {
  return t.defined() ? t.to(torch::kFloat64).sum().item<double>() : NAN;
}

double norm_of(const torch::Tensor& t) {
  return t.defined() ? t.to(torch::kFloat64).square().sum().sqrt().item<double>() : NAN;
}

void chain(const Options& o) {
  const auto opt = options_of(o);
  torch::Tensor x = torch::full({1}, 0.5, opt);
  torch::Tensor w = torch::full({1}, 0.999, opt).requires_grad_(true);
  torch::Tensor b = torch::full({1}, 0.001, opt).requires_grad_(true);
  torch::Tensor y;
  const int n = o.chain_len;
  run_workload(
      o, "chain", 2.0 * n, 2.0 * n, /*repeats=*/31, /*warmup=*/5,
      [&] {
        y = x;
        for (int i = 0; i < n; ++i) y = y * w + b;
      },
      [&] {
        y.backward();
        y = torch::Tensor();
      },
      [&] {
        w.mutable_grad() = torch::Tensor();
        b.mutable_grad() = torch::Tensor();
      });
  y = x;
  for (int i = 0; i < n; ++i) y = y * w + b;
  check("chain.y", sum_of(y));
  y.backward();
  check("chain.w_grad", sum_of(w.grad()));
  check("chain.b_grad", sum_of(b.grad()));
}

void step(const Options& o) {
  const auto opt = options_of(o);
  const int64_t n = o.n;
  torch::Tensor y = data({n, n}, 1, 1.0, opt).requires_grad_(true);
  torch::Tensor W = data({n, n}, 2, 8.0 / n, opt).requires_grad_(true);
  torch::Tensor go = torch::ones({n, n}, opt);
  torch::Tensor out;
  run_workload(
      o, "step", 2, 2, repeats_for(o.n, 301), /*warmup=*/n >= 256 ? 2 : 30,
      [&] { out = torch::tanh(torch::matmul(y, W)); },
      [&] {
        out.backward(go);
        out = torch::Tensor();
      },
      [&] {
        y.mutable_grad() = torch::Tensor();
        W.mutable_grad() = torch::Tensor();
      });
  out = torch::tanh(torch::matmul(y, W));
  check("step.out", sum_of(out));
  check("step.out_norm", norm_of(out));
  out.backward(go);
  check("step.y_grad", sum_of(y.grad()));
  check("step.W_grad", sum_of(W.grad()));
  check("step.W_grad_norm", norm_of(W.grad()));
}

void mlp(const Options& o) {
  const auto opt = options_of(o);
  const int64_t n = o.n;
  const double scale = 1.0 / std::sqrt(double(n));
  torch::Tensor x = data({n, n}, 3, 1.0, opt);
  torch::Tensor W1 = data({n, n}, 4, scale, opt).requires_grad_(true);
  torch::Tensor b1 = data({n}, 5, 0.1, opt).requires_grad_(true);
  torch::Tensor W2 = data({n, n}, 6, scale, opt).requires_grad_(true);
  torch::Tensor b2 = data({n}, 7, 0.1, opt).requires_grad_(true);
  torch::Tensor target = data({n, n}, 8, 0.5, opt);
  torch::Tensor loss;
  auto forward = [&] {
    return torch::mse_loss(torch::linear(torch::relu(torch::linear(x, W1, b1)), W2, b2), target);
  };
  auto reset = [&] {
    for (torch::Tensor* p : {&W1, &b1, &W2, &b2}) p->mutable_grad() = torch::Tensor();
  };
  run_workload(
      o, "mlp", 4, 4, repeats_for(o.n, 301), /*warmup=*/n >= 256 ? 2 : 30,
      [&] { loss = forward(); },
      [&] {
        loss.backward();
        loss = torch::Tensor();
      },
      reset);
  loss = forward();
  check("mlp.loss", sum_of(loss));
  loss.backward();
  check("mlp.W1_grad_norm", norm_of(W1.grad()));
  check("mlp.b1_grad_norm", norm_of(b1.grad()));
  check("mlp.W2_grad_norm", norm_of(W2.grad()));
  check("mlp.b2_grad_norm", norm_of(b2.grad()));
  reset();
}

void cat_workload(const Options& o) {
  const auto opt = options_of(o);
  std::vector<torch::Tensor> xs;
  for (int i = 0; i < 8; ++i) xs.push_back(data({16}, 10 + i, 1.0, opt).requires_grad_(true));
  torch::Tensor u = data({128}, 20, 1.0, opt).requires_grad_(true);
  torch::Tensor loss;
  run_workload(
      o, "cat", 3, 3, /*repeats=*/1001, /*warmup=*/100,
      [&] { loss = (torch::cat(xs, 0) + u).sum(); },
      [&] {
        loss.backward();
        loss = torch::Tensor();
      },
      [&] {
        for (torch::Tensor& x : xs) x.mutable_grad() = torch::Tensor();
        u.mutable_grad() = torch::Tensor();
      });
  loss = (torch::cat(xs, 0) + u).sum();
  check("cat.loss", sum_of(loss));
  loss.backward();
  double g = sum_of(u.grad());
  for (const torch::Tensor& x : xs) g += sum_of(x.grad());
  check("cat.grads", g);
}

}  // namespace engine_bench

int main(int argc, char** argv) {
  using namespace engine_bench;
  const Options o = parse(argc, argv);
  at::set_num_threads(o.threads);
  at::set_num_interop_threads(1);
  std::printf("libtorch_bench: torch %s, mode %s, dtype %s, chain_len %d, n %d, %d thread(s)%s\n",
              TORCH_VERSION, o.mode.c_str(), o.dtype.c_str(), o.chain_len, o.n,
              at::get_num_threads(), RUNNING_ON_VALGRIND ? ", under valgrind" : "");
  struct Case {
    const char* name;
    void (*run)(const Options&);
  };
  const Case cases[] = {{"chain", chain}, {"step", step}, {"cat", cat_workload}, {"mlp", mlp}};
  return run_selected(o, cases);
}
