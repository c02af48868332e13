// Autograd on several threads: what is supported (README, "Limits"), checked by
// value here and for data races under ThreadSanitizer:
//
//   ./bazelw test --config=tsan //tests/cpp:thread_test
//
//  - independent graphs, one per thread (no tensor shared);
//  - graphs that share leaves: each thread builds its own graph from the same leaf
//    and runs backward() or grad() concurrently; every gradient is summed into the
//    leaf's .grad (AccumulateGrad locks per node, Note [Accumulating from several
//    threads] in csrc/autograd/accumulate_grad.cc).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "csrc/autograd/accumulate_grad.h"
#include "csrc/autograd/engine.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

using test_util::values;

constexpr int kThreads = 4;

/// Runs body(thread_index) on kThreads threads that start together (a spin
/// barrier, so that first uses of shared state really race), and joins them.
template <typename F>
void run_on_threads(F&& body) {
  std::atomic<int> waiting{kThreads};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      waiting.fetch_sub(1);
      while (waiting.load() > 0) std::this_thread::yield();
      body(i);
    });
  }
  for (std::thread& t : threads) t.join();
}

/// A small recurrent graph: y = tanh(y @ w + b), `steps` times, then sum.
Tensor recurrent_loss(const Tensor& x, const Tensor& w, const Tensor& b, int steps) {
  Tensor y = x;
  for (int s = 0; s < steps; ++s) y = tanh(mm(y, w) + b);
  return sum(y);
}

// Tensors made on one thread and freed on another: each block joins the freeing thread's pool
// (csrc/util/block_pool.h), which frees it when that thread exits.
TEST(ThreadTest, TensorsFreedOnAnotherThreadThanTheirs) {
  std::vector<Tensor> made(64);
  for (size_t i = 0; i < made.size(); ++i) made[i] = full({1}, static_cast<double>(i));
  std::thread freer([&] {
    made.clear();  // every impl and storage into this thread's pool
    for (int i = 0; i < 64; ++i) {
      Tensor t = full({1}, 1.0);  // served from it
      EXPECT_EQ(values(t), std::vector<double>{1});
    }
  });
  freer.join();
  Tensor t = full({2}, 3.0);
  EXPECT_EQ(values(t), (std::vector<double>{3, 3}));
}

TEST(ThreadTest, IndependentGraphsOnDifferentThreads) {
  // The gradients each thread computes on its own leaves are those of a run on
  // one thread, bit for bit.
  std::vector<std::vector<double>> expected(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    Tensor w = test_util::leaf({4, 4}, 10 + i), b = test_util::leaf({4}, 20 + i);
    recurrent_loss(randn({3, 4}, 30 + i), w * 0.5, b, 20).backward();
    expected[i] = values(w.grad());
  }
  std::vector<std::vector<double>> got(kThreads);
  run_on_threads([&](int i) {
    Tensor w = test_util::leaf({4, 4}, 10 + i), b = test_util::leaf({4}, 20 + i);
    recurrent_loss(randn({3, 4}, 30 + i), w * 0.5, b, 20).backward();
    got[i] = values(w.grad());
  });
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(got[i], expected[i]) << "thread " << i;
}

TEST(ThreadTest, GraphsSharingALeafSumEveryGradientIntoIt) {
  // Each thread adds (i + 1) per element per iteration: small integers, exact in
  // float64 whatever the order of the additions.
  constexpr int kIterations = 50;
  Tensor w = zeros({8}).set_requires_grad(true);
  Tensor b = zeros({8}).set_requires_grad(true);
  run_on_threads([&](int i) {
    const Tensor c = full({8}, static_cast<double>(i + 1));
    for (int k = 0; k < kIterations; ++k) {
      // w is used twice in this graph (one AccumulateGrad, fed by two edges) and
      // by every other thread's graph at the same time.
      sum(w * c + w * 0 + b).backward();
    }
  });
  double total = 0;
  for (int i = 0; i < kThreads; ++i) total += (i + 1) * kIterations;
  EXPECT_EQ(values(w.grad()), std::vector<double>(8, total));
  EXPECT_EQ(values(b.grad()), std::vector<double>(8, kThreads * kIterations));
}

TEST(ThreadTest, FirstUsesOfASharedLeafOnSeveralThreadsGetOneAccumulator) {
  for (int round = 0; round < 20; ++round) {
    Tensor w = zeros({2}).set_requires_grad(true);
    std::vector<std::shared_ptr<autograd::Node>> seen(kThreads);
    run_on_threads([&](int i) { seen[i] = autograd::grad_accumulator(w); });
    for (int i = 1; i < kThreads; ++i) ASSERT_EQ(seen[i], seen[0]) << "round " << round;
  }
}

TEST(ThreadTest, GradOnSharedLeavesFromSeveralThreads) {
  // grad() captures at the shared leaf's AccumulateGrad node without running it,
  // while other threads' backward passes hold the same node.
  Tensor w = test_util::leaf({3, 3}, 1);
  std::vector<std::vector<double>> got(kThreads);
  run_on_threads([&](int i) {
    for (int k = 0; k < 20; ++k) {
      Tensor x = randn({2, 3}, 40 + i);
      Tensor loss = recurrent_loss(x, w, zeros({3}), 3);
      if (i % 2 == 0) {
        got[i] = values(autograd::grad({loss}, {w})[0]);
      } else {
        loss.backward();
      }
    }
  });
  for (int i = 0; i < kThreads; i += 2) {
    Tensor w1 = w.detach().set_requires_grad(true);
    Tensor loss = recurrent_loss(randn({2, 3}, 40 + i), w1, zeros({3}), 3);
    EXPECT_EQ(got[i], values(autograd::grad({loss}, {w1})[0])) << "thread " << i;
  }
  EXPECT_TRUE(w.grad().defined());  // the backward() threads accumulated
}

}  // namespace
}  // namespace gradgen
