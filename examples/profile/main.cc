// The profiler and the tracer on the training step of examples/mlp (a 2-48-2 tanh MLP,
// cross-entropy, full-batch SGD on 400 points):
//  1. profiles 20 steps (forward, backward, update) and prints key_averages' table;
//     with --trace=PATH also writes the Chrome trace (chrome://tracing, ui.perfetto.dev);
//  2. traces the forward pass and the update (gradients as inputs), prints the graph, and
//     checks that replaying it on other parameters gives what calling the ops gives.
//
//   ./bazelw run //examples/profile [-- --trace=/tmp/mlp_trace.json]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/profiler.h"
#include "csrc/autograd/tracer.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"

using namespace gradgen;
namespace profiler = gradgen::autograd::profiler;
namespace tracer = gradgen::autograd::tracer;

namespace {

constexpr double kLr = 0.6;

Tensor parameter(IntArrayRef sizes, double scale, uint64_t seed) {
  Tensor p;
  {
    autograd::NoGradGuard no_grad;
    p = randn(sizes, seed) * scale;
  }
  return p.set_requires_grad(true);
}

Tensor logits(const Tensor& x, const std::vector<Tensor>& p) {
  return linear(tanh(linear(x, p[0], p[1])), p[2], p[3]);
}

// in: x, labels, the four parameters, their four gradients; out: loss, updated parameters.
std::vector<Tensor> step(const std::vector<Tensor>& in) {
  std::vector<Tensor> params(in.begin() + 2, in.begin() + 6);
  std::vector<Tensor> out{cross_entropy_loss(logits(in[0], params), in[1])};
  for (int i = 0; i < 4; ++i) out.push_back(sub(in[2 + i], in[6 + i], kLr));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string trace_path;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--trace=", 8) == 0) trace_path = argv[i] + 8;
  }
  const int64_t n = 400;
  Tensor x = randn({n, 2}, 7);
  Tensor labels = empty({n}, ScalarType::Long);
  for (int64_t i = 0; i < n; ++i) labels.data_ptr<int64_t>()[i] = i % 2;
  std::vector<Tensor> params = {parameter({48, 2}, 1.0, 11), parameter({48}, 0.5, 12),
                                parameter({2, 48}, 1.0 / std::sqrt(48.0), 13),
                                parameter({2}, 0.0, 14)};

  // 1. Profile 20 training steps.
  {
    profiler::Profile prof;
    for (int s = 0; s < 20; ++s) {
      Tensor loss = cross_entropy_loss(logits(x, params), labels);
      loss.backward();
      autograd::NoGradGuard no_grad;
      for (Tensor& p : params) {
        sub_(p, p.grad(), kLr);
        p.mutable_grad() = Tensor();
      }
    }
    prof.stop();
    std::printf("profile of 20 steps (%zu events):\n%s\n", prof.events().size(),
                prof.table(12).c_str());
    if (!trace_path.empty()) {
      prof.export_chrome_trace(trace_path);
      std::printf("wrote the Chrome trace to %s\n\n", trace_path.c_str());
    }
  }

  // 2. Trace one step, replay it on the current parameters.
  auto inputs = [&] {
    Tensor loss = cross_entropy_loss(logits(x, params), labels);
    std::vector<Tensor> grads = autograd::grad({loss}, params);
    std::vector<Tensor> in = {x, labels};
    for (Tensor& p : params) in.push_back(p.detach());
    for (Tensor& g : grads) in.push_back(g);
    return in;
  };
  tracer::Graph graph = tracer::trace(step, inputs());
  std::printf("traced step:\n%s\n", graph.str().c_str());
  for (Tensor& p : params) {
    autograd::NoGradGuard no_grad;
    add_(p, ones(p.sizes()), 0.1);  // other parameters
  }
  const std::vector<Tensor> in = inputs();
  const std::vector<Tensor> replayed = graph.replay(in);
  const std::vector<Tensor> direct = step(in);
  bool same = replayed.size() == direct.size();
  for (size_t i = 0; same && i < direct.size(); ++i)
    same = allclose(replayed[i], direct[i], 0.0, 0.0);  // bit for bit
  std::printf("replay on other parameters: loss %.6f, the same as calling the ops: %s\n",
              replayed[0].item<double>(), same ? "yes" : "NO");
  return same ? 0 : 1;
}
