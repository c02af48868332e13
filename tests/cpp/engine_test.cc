// Tests for the autograd core: the engine's scheduling, accumulation and checks,
// saved variables, GradMode, AccumulateGrad and the hooks generated code calls.
#include "csrc/autograd/engine.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/accumulate_grad.h"
#include "csrc/autograd/function.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/tracer.h"
#include "csrc/autograd/saved_variable.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/core_kernels.h"
#include "csrc/generated/VariableType.h"
#include "csrc/testing/gradcheck.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

using autograd::Edge;
using autograd::Node;
using autograd::variable_list;

// A node that logs its name when run and passes its (summed) input gradient to
// every next edge.
struct PassThrough : public Node {
  PassThrough(std::string name, std::vector<std::string>* log)
      : name_(std::move(name)), log_(log) {}
  variable_list apply(variable_list&& grads) override {
    log_->push_back(name_);
    variable_list out(num_outputs());
    for (size_t i = 0; i < out.size(); ++i) {
      if (should_compute_output(i)) out[i] = grads[0];
    }
    return out;
  }
  std::string name() const override { return name_; }

  std::string name_;
  std::vector<std::string>* log_;
};

// Makes a fresh tensor whose history is `node` (its input 0).
Tensor output_of(const std::shared_ptr<Node>& node, IntArrayRef sizes) {
  Tensor out = zeros(sizes);
  autograd::set_history(out, node);
  return out;
}

TEST(EngineTest, RunsADiamondInDependencyOrderAndSumsIntoTheJoin) {
  //        root
  //       /    \      both branches feed `join`, which must run once, last,
  //   left      right with the sum of both gradients.
  //       \    /
  //        join -> x (leaf)
  std::vector<std::string> log;
  Tensor x = zeros({2}).set_requires_grad(true);
  auto join = std::make_shared<PassThrough>("join", &log);
  join->add_input_metadata(x);
  join->add_next_edge(autograd::gradient_edge(x));
  auto left = std::make_shared<PassThrough>("left", &log);
  left->add_input_metadata(x);
  left->add_next_edge(Edge(join, 0));
  auto right = std::make_shared<PassThrough>("right", &log);
  right->add_input_metadata(x);
  right->add_next_edge(Edge(join, 0));
  auto root = std::make_shared<PassThrough>("root", &log);
  root->add_next_edge(Edge(left, 0));
  root->add_next_edge(Edge(right, 0));
  Tensor y = output_of(root, {2});

  EXPECT_LT(left->sequence_nr(), right->sequence_nr());
  y.backward(tensor({1.0, 3.0}));
  // Ready nodes run highest sequence number first: right was created after left.
  EXPECT_EQ(log, (std::vector<std::string>{"root", "right", "left", "join"}));
  EXPECT_TRUE(allclose(x.grad(), tensor({2.0, 6.0})));
}

TEST(EngineTest, AccumulatesIntoALeafUsedTwice) {
  // y = x @ x^T uses x twice (directly and through t); dy/dx sums both paths.
  Tensor x = randn({2, 3}, 1).set_requires_grad(true);
  Tensor go = randn({2, 2}, 2);
  auto f = [](const std::vector<Tensor>& in) { return mm(in[0], t(in[0])); };
  Tensor y = f({x});
  // Both uses share x's single AccumulateGrad node.
  auto acc = autograd::try_get_grad_accumulator(x);
  ASSERT_NE(acc, nullptr);
  EXPECT_EQ(acc->name(), "AccumulateGrad");

  y.backward(go, /*retain_graph=*/true);
  Tensor expected = testing::numerical_gradient(f, {x}, 0, go);
  EXPECT_TRUE(allclose(x.grad(), expected, 1e-6, 1e-6)) << x.grad() << "\nvs\n" << expected;

  // A second backward adds to .grad.
  y.backward(go);
  EXPECT_TRUE(allclose(x.grad(), internal::add(expected, expected), 1e-6, 1e-6));
}

TEST(EngineTest, ReportsTheSecondBackwardWithoutRetainGraph) {
  Tensor a = randn({2, 3}, 0).set_requires_grad(true);
  Tensor b = randn({3, 2}, 1).set_requires_grad(true);
  Tensor y = mm(a, b);
  y.backward(ones({2, 2}));
  EXPECT_THROW_MESSAGE(y.backward(ones({2, 2})), std::runtime_error,
                       "MmBackward0: trying to backward through the graph a second time (saved "
                       "tensor 'self' was freed after the first backward); pass retain_graph=true "
                       "to the first backward");

  Tensor z = lincomb({a, a}, ones({2}));
  z.backward(ones({2, 3}));
  EXPECT_THROW_MESSAGE(z.backward(ones({2, 3})), std::runtime_error,
                       "LincombBackward0: trying to backward through the graph a second time "
                       "(saved tensor 'tensors' was freed after the first backward); pass "
                       "retain_graph=true to the first backward");
}

TEST(EngineTest, AllowsRepeatedBackwardWithRetainGraph) {
  Tensor a = randn({2, 3}, 0).set_requires_grad(true);
  Tensor b = randn({3, 2}, 1);
  Tensor y = mm(a, b);
  y.backward(ones({2, 2}), /*retain_graph=*/true);
  Tensor first = a.grad().clone();
  y.backward(ones({2, 2}));
  Tensor expected =
      testing::numerical_gradient([](const std::vector<Tensor>& in) { return mm(in[0], in[1]); },
                                  {a, b}, 0, ones({2, 2}));
  EXPECT_TRUE(allclose(first, expected, 1e-6, 1e-6));
  EXPECT_TRUE(allclose(a.grad(), internal::add(expected, expected), 1e-6, 1e-6));
}

TEST(EngineTest, ReportsASavedTensorModifiedInPlace) {
  Tensor a = randn({2, 3}, 0).set_requires_grad(true);
  Tensor b = randn({3, 2}, 1).set_requires_grad(true);
  Tensor y = mm(a, b);
  a.detach().bump_version();  // an in-place change through an alias of a's data
  EXPECT_THROW_MESSAGE(y.backward(ones({2, 2})), std::runtime_error,
                       "MmBackward0: saved tensor 'self' of shape [2, 3] was modified by an "
                       "in-place operation: saved at version 0, now at version 1");

  Tensor c = randn({2, 3}, 2).set_requires_grad(true);
  Tensor z = lincomb({a, c}, ones({2}));
  c.bump_version();
  EXPECT_THROW_MESSAGE(z.backward(ones({2, 3})), std::runtime_error,
                       "LincombBackward0: saved tensor 'tensors[1]' of shape [2, 3] was modified "
                       "by an in-place operation: saved at version 0, now at version 1");
}

// A node returning a gradient of the wrong shape for its only input.
struct BadBackward : public Node {
  variable_list apply(variable_list&&) override { return {ones({3, 2})}; }
  std::string name() const override { return "BadBackward"; }
};

struct WrongCountBackward : public Node {
  variable_list apply(variable_list&&) override { return {ones({2, 3}), ones({2, 3})}; }
  std::string name() const override { return "WrongCountBackward"; }
};

struct WrongDtypeBackward : public Node {
  variable_list apply(variable_list&&) override { return {ones({2, 3}, ScalarType::Float)}; }
  std::string name() const override { return "WrongDtypeBackward"; }
};

TEST(EngineTest, ChecksEveryGradientAgainstTheInputMetadata) {
  Tensor x = zeros({2, 3}).set_requires_grad(true);
  auto bad = std::make_shared<BadBackward>();
  bad->set_next_edges(autograd::collect_next_edges(x));
  EXPECT_THROW_MESSAGE(output_of(bad, {1}).backward(), std::runtime_error,
                       "BadBackward returned a gradient of shape [3, 2] for its input 0, expected "
                       "[2, 3]");

  auto wrong_count = std::make_shared<WrongCountBackward>();
  wrong_count->set_next_edges(autograd::collect_next_edges(x));
  EXPECT_THROW_MESSAGE(output_of(wrong_count, {1}).backward(), std::runtime_error,
                       "WrongCountBackward returned 2 gradients, expected 1 (one per next edge)");

  auto wrong_dtype = std::make_shared<WrongDtypeBackward>();
  wrong_dtype->set_next_edges(autograd::collect_next_edges(x));
  // A gradient of another dtype is converted to the input's, as PyTorch's validate_outputs does
  // (mixed-dtype ops: the float32 operand of float32 + float64 gets a float32 gradient).
  output_of(wrong_dtype, {1}).backward();
  ASSERT_TRUE(x.grad().defined());
  EXPECT_EQ(x.grad().scalar_type(), ScalarType::Double);
  EXPECT_TRUE(allclose(x.grad(), ones({2, 3})));
}

// A node returning a gradient in a shape its input broadcasts to: the engine sums it to the
// input's shape (PyTorch's validate_outputs), differentiably, so formulas need no sum_to.
struct BroadcastBackward : public Node {
  explicit BroadcastBackward(Tensor g) : g_(std::move(g)) {}
  variable_list apply(variable_list&& grads) override { return {mul(grads[0], g_)}; }
  std::string name() const override { return "BroadcastBackward"; }
  Tensor g_;
};

TEST(EngineTest, SumsABroadcastGradientToItsInputsShape) {
  Tensor x = randn({3, 1}, 4).set_requires_grad(true);  // broadcasts to [2, 3, 4], not [2, 4, 4]
  // The gradient arrives as [2, 3, 4]: x's [3, 1] broadcast (a leading dim, the last expanded).
  Tensor weights = randn({2, 3, 4}, 5);
  auto node = std::make_shared<BroadcastBackward>(weights);
  node->set_next_edges(autograd::collect_next_edges(x));
  output_of(node, {2, 3, 4}).backward(ones({2, 3, 4}));
  ASSERT_TRUE(x.grad().defined());
  EXPECT_EQ(x.grad().sizes().vec(), (std::vector<int64_t>{3, 1}));
  EXPECT_TRUE(allclose(x.grad(), sum(sum(weights, {0}), {1}, /*keepdim=*/true)));

  // Under create_graph the sum is recorded: the gradient is differentiable again.
  Tensor w = randn({2, 3, 4}, 6).set_requires_grad(true);
  auto node2 = std::make_shared<BroadcastBackward>(w);
  node2->set_next_edges(autograd::collect_next_edges(x));
  variable_list g = autograd::grad({sum(output_of(node2, {2, 3, 4}))}, {x}, {}, true, true);
  ASSERT_EQ(g[0].sizes().vec(), (std::vector<int64_t>{3, 1}));
  EXPECT_TRUE(g[0].requires_grad());
  sum(g[0]).backward();
  EXPECT_TRUE(allclose(w.grad(), ones({2, 3, 4})));

  // A shape the input does not broadcast to is still an error.
  auto bad = std::make_shared<BroadcastBackward>(randn({2, 4, 4}, 7));
  bad->set_next_edges(autograd::collect_next_edges(x));
  EXPECT_THROW_MESSAGE(output_of(bad, {2, 4, 4}).backward(ones({2, 4, 4})), std::runtime_error,
                       "BroadcastBackward returned a gradient of shape [2, 4, 4] for its input 0, "
                       "expected [3, 1]");
}

// A node whose gradient drifts a little with every backward pass (an atomic-add kernel's
// summation order, say): y = x, dy/dx = 1 + calls * 1e-9.
struct DriftingBackward : public Node {
  variable_list apply(variable_list&& grads) override {
    return {mul(grads[0], 1.0 + 1e-9 * static_cast<double>(++calls))};
  }
  std::string name() const override { return "DriftingBackward"; }
  int calls = 0;
};

TEST(EngineTest, TheReentrancyCheckFindsABackwardThatDriftsAndAcceptsItWithinTheTolerance) {
  auto drifting = [](const std::vector<Tensor>& in) {
    auto node = std::make_shared<DriftingBackward>();
    node->set_next_edges(autograd::collect_next_edges(in[0]));
    Tensor out;
    {
      autograd::NoGradGuard no_grad;
      out = in[0].clone();
    }
    autograd::set_history(out, node);
    return std::vector<Tensor>{out};
  };
  const std::vector<Tensor> inputs = {randn({3}, 11).set_requires_grad(true)};
  const testing::JacobianMismatch m = testing::reentrancy_mismatch(drifting, inputs, 0.0);
  ASSERT_TRUE(m.found);
  EXPECT_EQ(m.input, 0u);
  // One backward per output element: the second pass's first call is the 4th.
  EXPECT_DOUBLE_EQ(m.analytical, 1.0 + 1e-9);
  EXPECT_DOUBLE_EQ(m.numerical, 1.0 + 4e-9);
  EXPECT_FALSE(testing::reentrancy_mismatch(drifting, inputs, 1e-6).found);
  // A deterministic op agrees bitwise.
  auto product = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{mul(in[0], in[1])};
  };
  EXPECT_FALSE(testing::reentrancy_mismatch(
                   product, {randn({2, 3}, 12).set_requires_grad(true), randn({2, 3}, 13)}, 0.0)
                   .found);
}

TEST(EngineTest, CreatesImplicitGradientsOnlyForOneElementRoots) {
  Tensor a = randn({1, 3}, 0).set_requires_grad(true);
  Tensor b = randn({3, 1}, 1);
  Tensor y = mm(a, b);  // shape [1, 1]
  y.backward();
  Tensor expected =
      testing::numerical_gradient([](const std::vector<Tensor>& in) { return mm(in[0], in[1]); },
                                  {a, b}, 0, ones({1, 1}));
  EXPECT_TRUE(allclose(a.grad(), expected, 1e-6, 1e-6));

  Tensor big = mm(t(a), t(b));  // shape [3, 3]
  EXPECT_THROW_MESSAGE(big.backward(), std::runtime_error,
                       "backward: grad can be implicitly created only for scalar outputs, but "
                       "tensor 0 has shape [3, 3]; pass its gradient explicitly");
  EXPECT_THROW_MESSAGE(big.backward(ones({3})), std::invalid_argument,
                       "backward: gradient 0 has shape [3] and dtype Double, expected shape [3, 3] "
                       "and dtype Double (those of tensor 0)");
  EXPECT_THROW_MESSAGE(ones({2}).backward(), std::runtime_error,
                       "backward: tensor 0 does not require grad and does not have a grad_fn");
}

TEST(EngineTest, GradReturnsGradientsWithoutTouchingDotGrad) {
  Tensor x = randn({2, 2}, 3).set_requires_grad(true);
  Tensor w = randn({2, 2}, 4).set_requires_grad(true);
  Tensor unused = randn({2}, 5).set_requires_grad(true);
  Tensor go = randn({2, 2}, 6);
  auto f = [](const std::vector<Tensor>& in) { return mm(in[0], in[1]); };
  Tensor y = f({x, w});

  variable_list g = autograd::grad({y}, {x}, {go}, /*retain_graph=*/true);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_TRUE(allclose(g[0], testing::numerical_gradient(f, {x, w}, 0, go), 1e-6, 1e-6));
  EXPECT_FALSE(x.grad().defined());
  EXPECT_FALSE(w.grad().defined());

  EXPECT_THROW_MESSAGE(autograd::grad({y}, {x, unused}, {go}, true), std::runtime_error,
                       "grad: input 1 was not used in the graph of the outputs (or received no "
                       "gradient); pass allow_unused=true to get an undefined gradient for it");
  variable_list g2 = autograd::grad({y}, {w, unused}, {go}, true, false, /*allow_unused=*/true);
  ASSERT_EQ(g2.size(), 2u);
  EXPECT_TRUE(allclose(g2[0], testing::numerical_gradient(f, {x, w}, 1, go), 1e-6, 1e-6));
  EXPECT_FALSE(g2[1].defined());

  // A non-leaf input: the gradient is captured where it enters the input's node.
  Tensor h = t(x);
  Tensor z = mm(h, w);
  variable_list gh = autograd::grad({z}, {h}, {go});
  auto g_of_h = [](const std::vector<Tensor>& in) { return mm(in[0], in[1]); };
  EXPECT_TRUE(
      allclose(gh[0], testing::numerical_gradient(g_of_h, {h.detach(), w}, 0, go), 1e-6, 1e-6));

  EXPECT_THROW_MESSAGE(autograd::grad({y}, {zeros({2})}, {go}), std::runtime_error,
                       "grad: input 0 does not require grad");
}

TEST(EngineTest, SupportsBackwardCalledFromInsideANode) {
  // `reentrant` runs a nested backward over a graph that shares node `shared`
  // with the outer pass; the outer pass must still find `shared` afterwards.
  std::vector<std::string> log;
  Tensor x = zeros({2}).set_requires_grad(true);
  auto shared = std::make_shared<PassThrough>("shared", &log);
  shared->add_input_metadata(x);
  shared->add_next_edge(autograd::gradient_edge(x));
  auto inner_root = std::make_shared<PassThrough>("inner", &log);
  inner_root->add_next_edge(Edge(shared, 0));
  Tensor inner = output_of(inner_root, {2});

  struct Reentrant : public PassThrough {
    using PassThrough::PassThrough;
    variable_list apply(variable_list&& grads) override {
      variable_list out = PassThrough::apply(std::move(grads));
      autograd::backward({inner}, {ones({2})}, /*retain_graph=*/true);
      return out;
    }
    Tensor inner;
  };
  auto outer_root = std::make_shared<Reentrant>("outer", &log);
  outer_root->inner = inner;
  outer_root->add_next_edge(Edge(shared, 0));
  Tensor outer = output_of(outer_root, {2});
  outer.backward(tensor({10.0, 20.0}));
  EXPECT_EQ(log, (std::vector<std::string>{"outer", "inner", "shared", "shared"}));
  EXPECT_TRUE(allclose(x.grad(), tensor({11.0, 21.0})));
}

TEST(EngineTest, HandlesLongChainsWithoutRecursion) {
  Tensor x = randn({2, 3}, 0).set_requires_grad(true);
  Tensor y = x;
  for (int i = 0; i < 100000; ++i) y = t(y);  // an even count: y has x's shape
  y.backward(ones({2, 3}));
  EXPECT_TRUE(allclose(x.grad(), ones({2, 3})));
  // Destroying a chain of a million nodes must not overflow the stack.
  Tensor z = x;
  for (int i = 0; i < 1000000; ++i) z = t(z);
  z = Tensor();
  SUCCEED();
}

TEST(GradModeTest, NoGradGuardStopsRecording) {
  Tensor a = randn({2, 2}, 0).set_requires_grad(true);
  {
    autograd::NoGradGuard no_grad;
    EXPECT_FALSE(autograd::GradMode::is_enabled());
    Tensor y = mm(a, a);
    EXPECT_TRUE(y.is_leaf());
    EXPECT_FALSE(y.requires_grad());
    {
      autograd::AutoGradMode enable(true);
      EXPECT_TRUE(mm(a, a).requires_grad());
    }
  }
  EXPECT_TRUE(autograd::GradMode::is_enabled());
  Tensor y = mm(a, a);
  EXPECT_FALSE(y.is_leaf());
  EXPECT_EQ(y.grad_fn()->name(), "MmBackward0");
  EXPECT_EQ(y.output_nr(), 0u);
  EXPECT_THROW_MESSAGE(y.set_requires_grad(false), std::runtime_error,
                       "set_requires_grad: only leaf tensors can change requires_grad; this tensor "
                       "was produced by MmBackward0 (use detach() to get a leaf)");
}

TEST(VariableTypeUtilsTest, CollectsOneEdgePerSlotInArgumentOrder) {
  Tensor leaf = zeros({2}).set_requires_grad(true);
  Tensor plain = zeros({2});
  Tensor nonleaf = t(leaf);
  std::optional<Tensor> absent;
  std::vector<Tensor> list = {plain, leaf};
  EXPECT_FALSE(autograd::compute_requires_grad(plain, absent));
  EXPECT_TRUE(autograd::compute_requires_grad(plain, TensorList(list)));
  autograd::edge_list edges =
      autograd::collect_next_edges(nonleaf, absent, TensorList(list), plain);
  ASSERT_EQ(edges.size(), 5u);
  EXPECT_EQ(edges[0].function, nonleaf.grad_fn());
  EXPECT_FALSE(edges[1].is_valid());
  EXPECT_FALSE(edges[2].is_valid());
  EXPECT_EQ(edges[3].function, autograd::grad_accumulator(leaf));
  EXPECT_FALSE(edges[4].is_valid());
  EXPECT_EQ(autograd::to_args_sizes(list), (std::vector<std::vector<int64_t>>{{2}, {2}}));
  {
    autograd::NoGradGuard no_grad;
    EXPECT_FALSE(autograd::compute_requires_grad(leaf));
  }
}

TEST(VariableTypeUtilsTest, RejectsOutVariantsOnTensorsRequiringGrad) {
  Tensor self = zeros({2});
  Tensor other = zeros({2}).set_requires_grad(true);
  EXPECT_NO_THROW(autograd::check_out_no_requires_grad("add", {self, self}));
  EXPECT_THROW_MESSAGE(autograd::check_out_no_requires_grad("add", {self, other}),
                       std::runtime_error,
                       "add.out: out= variants do not support automatic differentiation, but "
                       "argument at position 1 requires grad");
  EXPECT_THROW_MESSAGE(autograd::check_out_no_requires_grad("add", {{"self", other}}),
                       std::runtime_error,
                       "add.out: out= variants do not support automatic differentiation, but "
                       "argument 'self' requires grad");
}

std::vector<std::string>* g_profiled = nullptr;
void record_entry(const char* op, bool enter) {
  if (enter) g_profiled->push_back(op);
}

TEST(HooksTest, ProfilerAndTracerSeeTheOpsGeneratedCodeRuns) {
  Tensor a = randn({2, 2}, 0);
  std::vector<std::string> seen;
  g_profiled = &seen;
  autograd::profiler::set_callback(record_entry);
  mm(a, t(a));
  autograd::profiler::set_callback(nullptr);
  mm(a, a);
  EXPECT_EQ(seen, (std::vector<std::string>{"t", "mm"}));

  EXPECT_FALSE(autograd::tracer::is_tracing());
  autograd::tracer::Graph g = autograd::tracer::trace(
      [](const std::vector<Tensor>& in) {
        EXPECT_TRUE(autograd::tracer::is_tracing());
        return std::vector<Tensor>{cat({in[0], narrow(in[0], 0, 0, 1)}, 0)};
      },
      {a});
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.nodes[0].op, "narrow");
  EXPECT_EQ(g.nodes[1].op, "cat");
  EXPECT_FALSE(autograd::tracer::is_tracing());
}

TEST(SavedVariableTest, UnpacksOutputsWithTheirNodeAndDefaultsToUndefined) {
  autograd::SavedVariable empty_slot;
  EXPECT_FALSE(empty_slot.unpack(nullptr, "bias").defined());
  EXPECT_FALSE(
      autograd::SavedVariable(std::optional<Tensor>(), false).unpack(nullptr, "b").defined());

  // A saved output must not keep its own node alive (no cycle), yet unpack with it.
  Tensor a = randn({2, 2}, 0).set_requires_grad(true);
  Tensor y = mm(a, a);
  std::weak_ptr<Node> node = y.grad_fn();
  auto saved = std::make_unique<autograd::SavedVariable>(y, /*is_output=*/true);
  Tensor unpacked = saved->unpack(y.grad_fn().get(), "result");
  EXPECT_EQ(unpacked.grad_fn(), y.grad_fn());
  EXPECT_EQ(unpacked.output_nr(), 0u);
  unpacked = Tensor();
  y = Tensor();
  EXPECT_TRUE(node.expired());
  EXPECT_TRUE(saved->has_data());
  saved->reset_data();
  EXPECT_FALSE(saved->has_data());
}

TEST(IndexRangeTest, HandsOutConsecutiveRangesAndChecksCopies) {
  constexpr auto ranges = [] {
    autograd::IndexRangeGenerator gen;
    gen.range(1);
    auto b = gen.range(3);
    return std::make_pair(b, gen.size());
  }();
  static_assert(ranges.first.first == 1 && ranges.first.second == 4 && ranges.second == 4,
                "IndexRangeGenerator must be usable in constant expressions.");

  variable_list out(4);
  autograd::copy_range(out, {0, 1}, ones({1}));
  autograd::copy_range(out, {1, 4}, std::vector<Tensor>{zeros({1}), zeros({2}), zeros({3})});
  EXPECT_EQ(out[3].numel(), 3);
  autograd::copy_range(out, {1, 4}, std::vector<Tensor>{});  // "no gradients": untouched
  EXPECT_EQ(out[3].numel(), 3);
  EXPECT_THROW_MESSAGE(autograd::copy_range(out, {1, 3}, ones({1})), std::runtime_error,
                       "copy_range: expected a range of length 1 for a Tensor input within 4 "
                       "gradient slots, got [1, 3)");
  EXPECT_THROW_MESSAGE(
      autograd::copy_range(out, {1, 4}, std::vector<Tensor>{ones({1})}), std::runtime_error,
      "copy_range: range [1, 4) within 4 gradient slots expects 3 gradients, got 1");
  EXPECT_TRUE(autograd::any_variable_defined(out));
  EXPECT_FALSE(autograd::any_variable_defined(variable_list(2)));
}

TEST(IndexRangeTest, UndefinedGradientsSizesTheListAndRefusesZeroAndHugeCounts) {
  const variable_list grads = autograd::undefined_gradients(3);
  ASSERT_EQ(grads.size(), 3u);
  EXPECT_FALSE(autograd::any_variable_defined(grads));
  EXPECT_THROW_MESSAGE(
      autograd::undefined_gradients(0), std::logic_error,
      "apply(): a node with no gradient slots (recording makes a node only when one of "
      "its inputs requires grad, and each takes a slot)");
  EXPECT_THROW_MESSAGE(
      autograd::undefined_gradients(autograd::kMaxGradientSlots + 1), std::length_error,
      "apply(): 576460752303423489 gradient slots, more than a node can have (2^59)");
  // The largest count too: the one compare, n - 1 >= 2^59, bounds both ends.
  EXPECT_THROW(autograd::undefined_gradients(~size_t{0}), std::length_error);
}

TEST(IndexRangeTest, ShouldComputeOutputChecksRunTimeRangesAgainstTheEdges) {
  std::vector<std::string> log;
  auto node = std::make_shared<PassThrough>("Ranges", &log);
  auto sink = std::make_shared<PassThrough>("Sink", &log);
  // Edges: slot 0 and 2 invalid, slot 1 and 3 valid.
  node->add_next_edge(Edge());
  node->add_next_edge(Edge(sink, 0));
  node->add_next_edge(Edge());
  node->add_next_edge(Edge(sink, 0));
  // Run-time ranges (volatile: not constants the compiler can see), as a Tensor[] input's are.
  volatile size_t lo = 0, hi = 1;
  EXPECT_FALSE(node->should_compute_output({{lo, hi}}));
  lo = 0, hi = 2;
  EXPECT_TRUE(node->should_compute_output({{lo, hi}}));
  lo = 2, hi = 2;  // an empty list's range: nothing to compute
  EXPECT_FALSE(node->should_compute_output({{lo, hi}}));
  lo = 2, hi = 3;
  EXPECT_FALSE(node->should_compute_output({{0, 1}, {lo, hi}}));
  EXPECT_TRUE(node->should_compute_output({{0, 1}, {lo, hi}, {3, 4}}));
  // Constant ranges take the index form; the answers are the same.
  EXPECT_FALSE(node->should_compute_output({{0, 1}, {2, 3}}));
  EXPECT_TRUE(node->should_compute_output({{2, 4}}));
  // Past the edges, in either form: an error naming the node, not a read past the end.
  lo = 4, hi = 5;
  EXPECT_THROW_MESSAGE(
      node->should_compute_output({{lo, hi}}), std::runtime_error,
      "Ranges: should_compute_output(4) out of range for a node with 4 next edges");
  EXPECT_THROW_MESSAGE(
      node->should_compute_output({{5, 6}}), std::runtime_error,
      "Ranges: should_compute_output(5) out of range for a node with 4 next edges");
  // A range beyond the slot bound takes the index form and still reports, without wrapping.
  lo = autograd::kMaxGradientSlots, hi = autograd::kMaxGradientSlots + 2;
  EXPECT_THROW_MESSAGE(node->should_compute_output({{lo, hi}}), std::runtime_error,
                       "Ranges: should_compute_output(576460752303423488) out of range for a node "
                       "with 4 next edges");
  EXPECT_TRUE(log.empty());
}

}  // namespace
}  // namespace gradgen
