// What generated forward wrappers do with declaration flags, out= variants and tuple returns,
// observed at run time through the profiler and tracer hooks (tests/flags/native_functions.yaml).

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/profiler.h"
#include "csrc/autograd/tracer.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/testing/gradcheck.h"
#include "tests/flags/generated/VariableType.h"

namespace {

using gradgen::Tensor;
namespace profiler = gradgen::autograd::profiler;
namespace tracer = gradgen::autograd::tracer;

// Runs fn(x) under the profiler and the tracer; returns (profiled forward ops, traced ops).
template <typename F>
std::pair<std::vector<std::string>, std::vector<std::string>> observe(const Tensor& x, F fn) {
  std::vector<std::string> prof_ops;
  tracer::Graph graph;
  {
    profiler::Profile prof;
    graph =
        tracer::trace([&](const std::vector<Tensor>& in) { return std::vector<Tensor>{fn(in[0])}; },
                      {x});
    for (const profiler::Event& e : prof.events()) {
      if (e.kind == profiler::Event::Kind::kOp) prof_ops.push_back(e.name);
    }
  }
  std::vector<std::string> traced;
  for (const tracer::Node& n : graph.nodes) traced.push_back(n.op);
  return {prof_ops, traced};
}

TEST(DeclarationFlagsTest, UnflaggedOpIsProfiledAndTraced) {
  Tensor x = gradgen::tensor({1, 2, 3});
  auto [prof, trace] = observe(x, [](const Tensor& in) { return flagtest::scale(in, 2.0); });
  EXPECT_EQ(prof, std::vector<std::string>{"scale"});
  EXPECT_EQ(trace, std::vector<std::string>{"scale"});
}

TEST(DeclarationFlagsTest, DontProfileAndDontRecordTraceSkipBothHooks) {
  Tensor x = gradgen::tensor({1, 2, 3});
  auto [prof, trace] = observe(x, [](const Tensor& in) { return flagtest::quiet_scale(in, 2.0); });
  EXPECT_TRUE(prof.empty());
  EXPECT_TRUE(trace.empty());
}

TEST(DeclarationFlagsTest, DontProfileLeavesNoProfilerEvent) {
  Tensor x = gradgen::tensor({1, 2, 3});
  x.set_requires_grad(true);
  profiler::Profile prof;
  Tensor y = flagtest::quiet_scale(flagtest::scale(x, 2.0), 3.0);
  y.backward(gradgen::ones({3}));
  std::vector<std::string> names;
  for (const profiler::Event& e : prof.events()) names.push_back(e.name);
  // quiet_scale's node runs in the backward pass (the engine records nodes), but neither its
  // forward op nor the quiet_scale its formula calls appear; scale appears twice (forward, and
  // in ScaleBackward0's formula), with its argument shapes ([] for the float).
  EXPECT_EQ(std::count(names.begin(), names.end(), "scale"), 2) << ::testing::PrintToString(names);
  EXPECT_EQ(std::count(names.begin(), names.end(), "ScaleBackward0"), 1);
  EXPECT_EQ(std::count(names.begin(), names.end(), "quiet_scale"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "QuietScaleBackward0"), 1);
  for (const profiler::Event& e : prof.events()) {
    if (e.name == "scale") {
      EXPECT_EQ(e.input_shapes, (std::vector<std::vector<int64_t>>{{3}, {}}));
    }
  }
}

TEST(DeclarationFlagsTest, DontRecordTraceLeavesAHoleWhereItsOutputIsUsed) {
  Tensor x = gradgen::tensor({1.0, 2.0, 3.0});
  tracer::Graph g = tracer::trace(
      [](const std::vector<Tensor>& in) {
        Tensor q = flagtest::quiet_scale(in[0], 2.0);  // not traced: q is a hole
        return std::vector<Tensor>{flagtest::scale(q, 3.0)};
      },
      {x});
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].op, "scale");
  const int64_t q = g.nodes[0].args[0].values.at(0);
  EXPECT_EQ(g.values[q].kind, tracer::ValueInfo::Kind::kUntraced);
  EXPECT_EQ(g.values[q].untraced_op, "quiet_scale");
  ASSERT_EQ(g.warnings.size(), 1u);
  EXPECT_EQ(g.warnings[0],
            "the trace has a hole at %1: argument 'self' of scale (node 0) is an output of "
            "quiet_scale, which is not traced (DONT_RECORD_TRACE); replay uses the value it had "
            "while tracing");
  EXPECT_NE(g.str().find("%1 : Double[3] = untraced[quiet_scale]()"), std::string::npos) << g.str();
  // Replay on a new input: the hole keeps the traced value (2 * x), scale is recomputed.
  std::vector<Tensor> out = g.replay({gradgen::tensor({10.0, 20.0, 30.0})});
  EXPECT_TRUE(gradgen::allclose(out[0], gradgen::tensor({6.0, 12.0, 18.0})));
  // A traced op in its place leaves no hole, and replay follows the new input.
  tracer::Graph full = tracer::trace(
      [](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{flagtest::scale(flagtest::scale(in[0], 2.0), 3.0)};
      },
      {x});
  EXPECT_TRUE(full.warnings.empty());
  EXPECT_TRUE(gradgen::allclose(full.replay({gradgen::tensor({10.0, 20.0, 30.0})})[0],
                                gradgen::tensor({60.0, 120.0, 180.0})));
}

TEST(DeclarationFlagsTest, DontRequireDerivativeRecordsNoNode) {
  Tensor x = gradgen::tensor({-1, 0, 3});
  x.set_requires_grad(true);
  Tensor s = flagtest::sign_of(x);
  EXPECT_FALSE(s.requires_grad());
  EXPECT_EQ(s.grad_fn(), nullptr);
  EXPECT_TRUE(gradgen::allclose(s, gradgen::tensor({-1, 0, 1})));
  // The op with formulas does record one.
  EXPECT_EQ(flagtest::scale(x, 3.0).grad_fn()->name(), "ScaleBackward0");
}

TEST(OutVariantTest, WritesIntoOutAndRefusesInputsThatRequireGrad) {
  Tensor x = gradgen::tensor({1, 2});
  Tensor out = gradgen::zeros({2});
  Tensor& r = flagtest::scale_out(x, 4.0, out);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_TRUE(gradgen::allclose(out, gradgen::tensor({4, 8})));
  x.set_requires_grad(true);
  try {
    flagtest::scale_out(x, 4.0, out);
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "scale.out: out= variants do not support automatic differentiation, but argument 'self' "
        "requires grad");
  }
}

TEST(TupleReturnTest, NamedOutputsAreUnpackedAndTheirGradientsReachTheInput) {
  Tensor x = gradgen::tensor({1, 2, 3, 4});
  x.set_requires_grad(true);
  auto [first, second] = flagtest::split_halves(x);
  EXPECT_TRUE(gradgen::allclose(first, gradgen::tensor({1, 2})));
  EXPECT_EQ(first.output_nr(), 0u);
  EXPECT_EQ(second.output_nr(), 1u);
  // Only `second` is used: grad_first arrives undefined and the formula fills zeros.
  flagtest::scale(second, 5.0).backward(gradgen::ones({2}));
  EXPECT_TRUE(gradgen::allclose(x.grad(), gradgen::tensor({0, 0, 5, 5})));
}

TEST(TupleReturnTest, GradientMatchesFiniteDifferences) {
  Tensor x = gradgen::tensor({0.5, -1.0, 2.0, 3.0});
  x.set_requires_grad(true);
  std::string report;
  bool ok = gradgen::testing::gradcheck(
      [](const std::vector<Tensor>& in) {
        auto [a, b] = flagtest::split_halves(in[0]);
        return flagtest::scale(b, 2.0);
      },
      {x}, 1e-6, 1e-5, 1e-3, &report);
  EXPECT_TRUE(ok) << report;
}

}  // namespace
