// Tests of the tracer (csrc/autograd/tracer.h): the recorded graph (SSA text, JSON), replay
// on new inputs (the MLP training step of examples/mlp), constants, nesting and in-place ops.
// tests/flags checks DONT_RECORD_TRACE (no node, a hole where its output is used).
#include "csrc/autograd/tracer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

namespace tracer = autograd::tracer;

std::vector<std::string> ops_of(const tracer::Graph& g) {
  std::vector<std::string> out;
  for (const tracer::Node& n : g.nodes) out.push_back(n.op);
  return out;
}

TEST(Tracer, RecordsOpsAsSsaTextAndJson) {
  Tensor x = randn({2, 3}, 0);
  Tensor w = randn({3, 4}, 1);
  tracer::Graph g = tracer::trace(
      [](const std::vector<Tensor>& in) {
        Tensor h = mm(in[0], in[1]);
        return std::vector<Tensor>{add(tanh(h), h, 2.0)};
      },
      {x, w});
  EXPECT_EQ(g.str(),
            "graph(%0 : Double[2, 3], %1 : Double[3, 4]):\n"
            "  %2 : Double[2, 4] = mm(%0, %1)\n"
            "  %3 : Double[2, 4] = tanh(%2)\n"
            "  %4 : Double[2, 4] = add.Tensor(%3, %2, alpha=2)\n"
            "  return (%4)\n");
  const std::string json = g.json();
  EXPECT_NE(json.find("{\"op\": \"mm\", \"args\": [{\"name\": \"self\", \"value\": 0}, {\"name\": "
                      "\"mat2\", \"value\": 1}], \"outputs\": [2]}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("{\"name\": \"alpha\", \"constant\": \"2\"}"), std::string::npos) << json;
  EXPECT_NE(json.find("{\"id\": 0, \"kind\": \"input\", \"shape\": [2, 3], \"dtype\": \"Double\"}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"outputs\": [4]"), std::string::npos);
  EXPECT_TRUE(g.warnings.empty());
}

TEST(Tracer, TensorsThatAreNotInputsBecomeConstants) {
  Tensor bias = tensor({1.0, 2.0});
  tracer::Graph g = tracer::trace(
      [&](const std::vector<Tensor>& in) { return std::vector<Tensor>{mul(in[0], bias)}; },
      {tensor({3.0, 4.0})});
  EXPECT_EQ(g.str(),
            "graph(%0 : Double[2]):\n"
            "  %1 : Double[2] = constant()\n"
            "  %2 : Double[2] = mul.Tensor(%0, %1)\n"
            "  return (%2)\n");
  EXPECT_TRUE(allclose(g.replay({tensor({5.0, 6.0})})[0], tensor({5.0, 12.0})));
}

TEST(Tracer, CompositeOpsAreRecordedOnceNotTheirInnerOps) {
  // matmul calls mm inside; cross_entropy_loss calls log_softmax and nll_loss.
  tracer::Graph g = tracer::trace(
      [](const std::vector<Tensor>& in) { return std::vector<Tensor>{matmul(in[0], in[1])}; },
      {randn({2, 3}, 0), randn({3, 2}, 1)});
  EXPECT_EQ(ops_of(g), std::vector<std::string>{"matmul"});
}

TEST(Tracer, InPlaceOpsMakeANewValueAndReplay) {
  tracer::Graph g = tracer::trace(
      [](const std::vector<Tensor>& in) {
        Tensor y = mul(in[0], 2.0);
        add_(y, in[0], 1.0);  // y = 3 x
        return std::vector<Tensor>{y};
      },
      {tensor({1.0, 2.0})});
  EXPECT_EQ(g.str(),
            "graph(%0 : Double[2]):\n"
            "  %1 : Double[2] = mul.Scalar(%0, other=2)\n"
            "  %2 : Double[2] = add_.Tensor(%1, %0, alpha=1)\n"
            "  return (%2)\n");
  EXPECT_TRUE(allclose(g.replay({tensor({10.0, -1.0})})[0], tensor({30.0, -3.0})));
}

TEST(Tracer, TupleAndListOutputsAndListArguments) {
  tracer::Graph g = tracer::trace(
      [](const std::vector<Tensor>& in) {
        std::vector<Tensor> parts = chunk(in[0], 2);
        return std::vector<Tensor>{cat({parts[1], parts[0]}, 0)};
      },
      {tensor({1.0, 2.0, 3.0, 4.0})});
  EXPECT_EQ(g.str(),
            "graph(%0 : Double[4]):\n"
            "  %1 : Double[2], %2 : Double[2] = chunk(%0, chunks=2, dim=0)\n"
            "  %3 : Double[4] = cat([%2, %1], dim=0)\n"
            "  return (%3)\n");
  EXPECT_TRUE(allclose(g.replay({tensor({5.0, 6.0, 7.0, 8.0})})[0], tensor({7.0, 8.0, 5.0, 6.0})));
}

TEST(Tracer, ReplayChecksItsInputsAndNestedTracingIsRefused) {
  tracer::Graph g =
      tracer::trace([](const std::vector<Tensor>& in) { return std::vector<Tensor>{tanh(in[0])}; },
                    {tensor({1.0})});
  EXPECT_THROW(g.replay({}), std::invalid_argument);
  EXPECT_THROW(tracer::trace(
                   [&](const std::vector<Tensor>& in) {
                     tracer::trace([](const std::vector<Tensor>& i) { return i; }, in);
                     return in;
                   },
                   {tensor({1.0})}),
               std::logic_error);
  EXPECT_FALSE(tracer::is_tracing());
}

// The training step of examples/mlp (a 2-hidden-2 MLP with tanh, cross-entropy, SGD): the
// forward pass and the SGD update, traced once; the parameters' gradients are inputs (the
// backward pass runs outside the trace).
struct Step {
  static constexpr double kLr = 0.6;
  static Tensor logits(const Tensor& x, const Tensor& w1, const Tensor& b1, const Tensor& w2,
                       const Tensor& b2) {
    return linear(tanh(linear(x, w1, b1)), w2, b2);
  }
  // in: x, labels, w1, b1, w2, b2, then their gradients; out: loss, then the updated params.
  static std::vector<Tensor> run(const std::vector<Tensor>& in) {
    Tensor loss = cross_entropy_loss(logits(in[0], in[2], in[3], in[4], in[5]), in[1]);
    std::vector<Tensor> out{loss};
    for (int i = 0; i < 4; ++i) out.push_back(sub(in[2 + i], in[6 + i], kLr));
    return out;
  }
};

std::vector<Tensor> step_inputs(uint64_t seed) {
  Tensor x = randn({16, 2}, seed);
  Tensor labels = empty({16}, ScalarType::Long);
  for (int64_t i = 0; i < 16; ++i) labels.data_ptr<int64_t>()[i] = (i * 7 + seed) % 2;
  std::vector<Tensor> params = {randn({8, 2}, seed + 1), randn({8}, seed + 2),
                                randn({2, 8}, seed + 3), randn({2}, seed + 4)};
  for (Tensor& p : params) p.set_requires_grad(true);
  Tensor loss =
      cross_entropy_loss(Step::logits(x, params[0], params[1], params[2], params[3]), labels);
  std::vector<Tensor> grads = autograd::grad({loss}, params);
  std::vector<Tensor> in = {x, labels};
  autograd::NoGradGuard no_grad;
  for (Tensor& p : params) in.push_back(p.detach());
  for (Tensor& g : grads) in.push_back(g);
  return in;
}

TEST(Tracer, ReplayOfTheMlpStepReproducesItOnNewInputs) {
  const std::vector<Tensor> example = step_inputs(1);
  tracer::Graph g = tracer::trace(Step::run, example);
  EXPECT_EQ(ops_of(g),
            (std::vector<std::string>{"linear", "tanh", "linear", "cross_entropy_loss",
                                      "sub.Tensor", "sub.Tensor", "sub.Tensor", "sub.Tensor"}));
  EXPECT_TRUE(g.warnings.empty());
  for (uint64_t seed : {2, 3}) {
    const std::vector<Tensor> in = step_inputs(seed * 10);
    const std::vector<Tensor> expected = Step::run(in);
    const std::vector<Tensor> replayed = g.replay(in);
    ASSERT_EQ(replayed.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(test_util::values(replayed[i]), test_util::values(expected[i])) << "output " << i;
    }
    // Not the traced values: the step depends on its inputs.
    EXPECT_NE(test_util::values(replayed[0]), test_util::values(Step::run(example)[0]));
  }
}

}  // namespace
}  // namespace gradgen
