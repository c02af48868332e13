// Tests for the autograd features built on the generated ops: in-place ops and
// their history, views, saved-variable checks, tensor hooks, retain_grad, the
// grad() API with create_graph, and the not_implemented formulas.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/basic_ops.h"
#include "csrc/autograd/engine.h"
#include "csrc/autograd/formulas.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/testing/gradcheck.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

using test_util::leaf;
using test_util::values;

using autograd::variable_list;

// ---------------------------------------------------------------------------
// In-place ops
// ---------------------------------------------------------------------------

TEST(InPlaceTest, RefusesALeafThatRequiresGrad) {
  Tensor w = leaf({2}, 0);
  EXPECT_THROW_MESSAGE(add_(w, ones({2})), std::runtime_error,
                       "add_: a leaf Variable that requires grad is being used in an in-place "
                       "operation.");
  EXPECT_THROW_MESSAGE(zero_(w), std::runtime_error,
                       "zero_: a leaf Variable that requires grad is being used in an in-place "
                       "operation.");
  EXPECT_EQ(w.version(), 0u) << "the refused op must not have run";
}

TEST(InPlaceTest, UpdatesALeafUnderNoGradLikeAnOptimizerStep) {
  Tensor w = tensor({1.0, 2.0}).set_requires_grad(true);
  {
    autograd::NoGradGuard no_grad;
    sub_(w, tensor({0.5, 0.5}), 2.0);  // w -= 2 * 0.5
  }
  EXPECT_EQ(values(w), (std::vector<double>{0.0, 1.0}));
  EXPECT_TRUE(w.is_leaf());
  EXPECT_TRUE(w.requires_grad());
  EXPECT_EQ(w.version(), 1u);
}

TEST(InPlaceTest, RebasesTheHistoryOfANonLeaf) {
  Tensor x = leaf({3}, 1);
  Tensor other = leaf({3}, 2);
  Tensor y = x * 2;  // MulBackward1
  mul_(y, other);    // y = (2x) * other, history rebased onto MulBackward0
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0");
  EXPECT_EQ(y.version(), 1u);
  y.backward(ones({3}));
  EXPECT_TRUE(allclose(x.grad(), other.detach() * 2));
  EXPECT_TRUE(allclose(other.grad(), x.detach() * 2));
}

TEST(InPlaceTest, GivesALeafThatNeedsNoGradAHistory) {
  Tensor acc = zeros({2});
  Tensor x = leaf({2}, 3);
  add_(acc, x, 3);
  EXPECT_FALSE(acc.is_leaf());
  EXPECT_EQ(acc.grad_fn()->name(), "AddBackward0");
  sum(acc).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3.0, 3.0}));
}

TEST(InPlaceTest, ASavedTensorModifiedLaterIsReportedWithNodeAndName) {
  Tensor x = leaf({2}, 4);
  Tensor y = exp(x);  // ExpBackward0 saves its result
  Tensor z = y * 1;   // keeps y a non-leaf that can be modified
  add_(y, ones({2}));
  EXPECT_THROW_MESSAGE(sum(z).backward(), std::runtime_error,
                       "ExpBackward0: saved tensor 'result' of shape [2] was modified by an "
                       "in-place operation: saved at version 0, now at version 1");
  // A saved input, modified through a view of it.
  Tensor a = leaf({2, 2}, 5);
  Tensor b = a * 1;
  Tensor c = mm(b, b);
  {
    autograd::NoGradGuard no_grad;
    Tensor row = select(b, 0, 0);
    zero_(row);
  }
  EXPECT_THROW_MESSAGE(sum(c).backward(), std::runtime_error,
                       "MmBackward0: saved tensor 'self' of shape [2, 2] was modified by an "
                       "in-place operation: saved at version 0, now at version 1");
}

TEST(InPlaceTest, SavesACloneOfSelfForFormulasThatReadIt) {
  // mul_'s formula for other reads self's value before the op.
  Tensor x = leaf({2}, 6);
  Tensor other = leaf({2}, 7);
  Tensor y = clone(x);
  const std::vector<double> before = values(y);
  mul_(y, other);
  y.backward(ones({2}));
  EXPECT_EQ(values(other.grad()), before);
}

// In-place ops on views and on tensors with live views: tests/cpp/views_test.cc.
TEST(InPlaceTest, ViewsFollowTheInPlaceChangesOfTheirTensor) {
  Tensor x = leaf({2, 3}, 26);
  Tensor y = x * 1;
  Tensor v = t(y);
  mul_(y, 2.0);  // v's history follows y's new one
  sum(v).backward();
  EXPECT_EQ(values(x.grad()), std::vector<double>(6, 2.0));
  Tensor plain = zeros({2, 3});
  Tensor pv = narrow(plain, 0, 0, 1);
  add_(plain, x);
  EXPECT_TRUE(pv.requires_grad());
  // Without autograd, views and in-place ops mix freely.
  autograd::NoGradGuard no_grad;
  Tensor base = zeros({2});
  Tensor alias = view(base, {2});
  add_(base, ones({2}));
  EXPECT_EQ(values(alias), (std::vector<double>{1, 1}));
}

// ---------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------

TEST(ViewTest, ViewOpsShareStorageAndVersion) {
  Tensor base = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  const double* data = base.data_ptr<double>();
  std::vector<Tensor> views = {view(base, {3, 2}),
                               reshape(base, {6}),
                               t(base),
                               transpose(base, 0, 1),
                               permute(base, {1, 0}),
                               narrow(base, 1, 1, 2),
                               select(base, 0, 1),
                               expand(unsqueeze(base, 0), {2, 2, 3}),
                               squeeze(view(base, {1, 6})),
                               to(base, ScalarType::Double)};
  for (const Tensor& v : split(base, 1, 0)) views.push_back(v);
  for (const Tensor& v : unbind(base, 1)) views.push_back(v);
  for (const Tensor& v : chunk(base, 3, 1)) views.push_back(v);
  for (const Tensor& v : views) {
    EXPECT_TRUE(v.is_view());
    EXPECT_EQ(v.unsafe_impl()->storage.get(), base.unsafe_impl()->storage.get());
  }
  EXPECT_EQ(narrow(base, 1, 1, 2).data_ptr<double>(), data + 1);
  EXPECT_EQ(values(select(base, 0, 1)), (std::vector<double>{4, 5, 6}));
  // A write through one is seen by all, and bumps the shared version.
  Tensor col = select(base, 1, 2);
  mul_(col, 10.0);
  EXPECT_EQ(values(base), (std::vector<double>{1, 2, 30, 4, 5, 60}));
  EXPECT_EQ(values(t(base)), (std::vector<double>{1, 4, 2, 5, 30, 60}));
  EXPECT_EQ(base.version(), 1u);
  EXPECT_EQ(views[0].version(), 1u);
}

TEST(ViewTest, ReshapeCopiesWhenStridesForbidAViewAndViewRefuses) {
  Tensor base = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor r = reshape(t(base), {6});
  EXPECT_FALSE(r.is_view());
  EXPECT_EQ(values(r), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_THROW_MESSAGE(view(t(base), {6}), std::invalid_argument,
                       "view: shape [6] is not compatible with the input's shape [3, 2] and "
                       "strides [1, 3] (the elements are not laid out evenly); use reshape "
                       "instead");
}

TEST(ViewTest, GradientsFlowBackThroughChainsOfViews) {
  std::string report;
  auto f = [](const std::vector<Tensor>& x) {
    Tensor v = permute(unsqueeze(t(x[0]), 0), {2, 0, 1});  // [2, 1, 3]
    return sum(expand(v, {2, 4, 3}) * view(select(narrow(x[0], 1, 0, 1), 1, 0), {2, 1, 1}));
  };
  EXPECT_TRUE(testing::gradcheck(f, {leaf({2, 3}, 10)}, 1e-6, 1e-5, 1e-3, &report)) << report;
  EXPECT_TRUE(testing::gradgradcheck(f, {leaf({2, 3}, 11)}, 1e-6, 1e-5, 1e-3, &report)) << report;
}

// ---------------------------------------------------------------------------
// Hooks and retain_grad
// ---------------------------------------------------------------------------

TEST(HookTest, AHookOnANonLeafCanReplaceItsGradient) {
  Tensor x = leaf({3}, 12);
  Tensor h = x * 3;
  std::vector<double> seen;
  h.register_hook([&](const Tensor& g) { seen = values(g); });  // observes
  h.register_hook([](const Tensor& g) { return g * 2; });       // replaces
  sum(h * h).backward();
  EXPECT_EQ(seen, values(h.detach() * 2));           // d sum(h^2) / dh, before the doubling
  EXPECT_TRUE(allclose(x.grad(), x.detach() * 36));  // 2h * 2 * 3 = 36x
}

TEST(HookTest, AHookOnALeafRunsBeforeAccumulationAndCanBeRemoved) {
  Tensor x = leaf({2}, 13);
  int calls = 0;
  const unsigned handle = x.register_hook([&](const Tensor& g) {
    ++calls;
    return g * 10;
  });
  sum(x * 1).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{10, 10}));
  x.remove_hook(handle);
  sum(x * 1).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{11, 11}));
  EXPECT_EQ(calls, 1);
  // Registered before any op used the leaf: attached when its accumulator is made.
  Tensor y = leaf({2}, 14);
  y.register_hook([](const Tensor& g) { return g * 0; });
  sum(y * 5).backward();
  EXPECT_EQ(values(y.grad()), (std::vector<double>{0, 0}));
}

TEST(HookTest, HooksAlsoRunForAutogradGradCaptures) {
  Tensor x = leaf({2}, 15);
  x.register_hook([](const Tensor& g) { return g + 1; });
  Tensor h = x * 2;
  h.register_hook([](const Tensor& g) { return g * 3; });
  variable_list g = autograd::grad({sum(h)}, {x, h});
  EXPECT_EQ(values(g[0]), (std::vector<double>{7, 7}));  // 1 * 3 * 2 + 1
  EXPECT_EQ(values(g[1]), (std::vector<double>{3, 3}));
  EXPECT_FALSE(x.grad().defined());
}

TEST(HookTest, RejectsBadHooksAndTensorsWithoutGrad) {
  Tensor x = leaf({2}, 16);
  Tensor h = x * 1;
  h.register_hook([](const Tensor&) { return zeros({3}); });
  EXPECT_THROW_MESSAGE(sum(h).backward(), std::runtime_error,
                       "a tensor hook returned a gradient of shape [3] and dtype Double for a "
                       "tensor of shape [2] and dtype Double (the tensor whose gradient "
                       "MulBackward1 receives)");
  EXPECT_THROW_MESSAGE(zeros({2}).register_hook([](const Tensor& g) { return g; }),
                       std::runtime_error,
                       "register_hook: cannot register a hook on a tensor that does not require "
                       "grad");
}

TEST(RetainGradTest, KeepsANonLeafGradientAndAccumulatesIt) {
  Tensor x = leaf({2}, 17);
  Tensor h = x * 2;
  h.retain_grad();
  EXPECT_TRUE(h.retains_grad());
  Tensor loss = sum(h * h);
  loss.backward({}, /*retain_graph=*/true);
  EXPECT_TRUE(allclose(h.grad(), h.detach() * 2));
  loss.backward();
  EXPECT_TRUE(allclose(h.grad(), h.detach() * 4));
  EXPECT_FALSE(h.grad().requires_grad());
  // On a leaf: a no-op (leaves keep their gradient anyway).
  x.retain_grad();
  EXPECT_FALSE(x.retains_grad());
}

TEST(RetainGradTest, FollowsATensorThroughAnInPlaceOp) {
  Tensor x = leaf({2}, 18);
  Tensor h = x * 1;
  h.retain_grad();
  mul_(h, 3.0);  // h's history is now MulBackward1; its retained gradient is h's new one
  sum(h * h).backward();
  EXPECT_TRUE(allclose(h.grad(), h.detach() * 2));
  EXPECT_TRUE(allclose(x.grad(), x.detach() * 18));
}

// ---------------------------------------------------------------------------
// grad() and higher-order derivatives
// ---------------------------------------------------------------------------

TEST(GradApiTest, CreateGraphGivesSecondAndThirdDerivatives) {
  Tensor x = tensor({0.5, -1.5, 2.0}).set_requires_grad(true);
  Tensor y = sum(pow(x, 3));
  variable_list g1 = autograd::grad({y}, {x}, {}, false, /*create_graph=*/true);
  EXPECT_TRUE(allclose(g1[0], 3 * pow(x.detach(), 2)));
  ASSERT_TRUE(g1[0].requires_grad());
  variable_list g2 = autograd::grad({sum(g1[0])}, {x}, {}, false, true);
  EXPECT_TRUE(allclose(g2[0], 6 * x.detach()));
  variable_list g3 = autograd::grad({sum(g2[0])}, {x});
  EXPECT_EQ(values(g3[0]), (std::vector<double>{6, 6, 6}));
}

TEST(GradApiTest, HonoursGradOutputsAndAllowUnused) {
  Tensor a = leaf({2}, 19), b = leaf({2}, 20), unused = leaf({1}, 21);
  Tensor y1 = a * b, y2 = exp(a);
  variable_list g = autograd::grad({y1, y2}, {a, b, unused}, {ones({2}), full({2}, 2.0)},
                                   /*retain_graph=*/false, /*create_graph=*/false,
                                   /*allow_unused=*/true);
  EXPECT_TRUE(allclose(g[0], b.detach() + 2 * exp(a.detach())));
  EXPECT_TRUE(allclose(g[1], a.detach()));
  EXPECT_FALSE(g[2].defined());
  EXPECT_FALSE(a.grad().defined());
}

TEST(GradApiTest, ASecondBackwardWithoutRetainGraphIsAClearError) {
  Tensor x = leaf({2}, 22);
  Tensor y = sum(tanh(x));
  y.backward();
  EXPECT_THROW_MESSAGE(y.backward(), std::runtime_error,
                       "TanhBackward0: trying to backward through the graph a second time (saved "
                       "tensor 'result' was freed after the first backward); pass "
                       "retain_graph=true to the first backward");
}

TEST(GradApiTest, MultiOutputOpsRouteEachGradientToItsOutput) {
  Tensor x = leaf({3, 4}, 23);
  auto [values_, indices] = max(x, 1);
  EXPECT_EQ(indices.scalar_type(), ScalarType::Long);
  EXPECT_FALSE(indices.requires_grad());
  EXPECT_EQ(values_.output_nr(), 0u);
  sum(values_).backward();
  // One 1 per row, at the argmax.
  EXPECT_EQ(values(sum(x.grad(), {1})), (std::vector<double>{1, 1, 1}));
  std::vector<Tensor> parts = split(x, 2, 1);
  EXPECT_EQ(parts[1].output_nr(), 1u);
  EXPECT_EQ(parts[0].grad_fn(), parts[1].grad_fn());
}

// ---------------------------------------------------------------------------
// Formulas that raise
// ---------------------------------------------------------------------------

TEST(NotImplementedTest, RaisesAtBackwardNamingTheDerivative) {
  // specs/ has no not_implemented formula left (cumprod's was ported): the helpers directly.
  EXPECT_THROW_MESSAGE(autograd::generated::details::not_implemented("cumprod"), std::runtime_error,
                       "the derivative for 'cumprod' is not implemented in gradgen");
  EXPECT_THROW_MESSAGE(autograd::generated::details::not_implemented_list("foo: tensors"),
                       std::runtime_error,
                       "the derivative for 'foo: tensors' is not implemented in gradgen");
}

TEST(NotImplementedTest, MarkNotTwiceDifferentiableFailsOnlyInADoubleBackward) {
  Tensor x = leaf({2}, 25);
  Tensor result = x.detach() * 2;
  autograd::mark_not_twice_differentiable(result, "my_backward", {x});
  EXPECT_THROW_MESSAGE(sum(result).backward(), std::runtime_error,
                       "my_backward is not twice differentiable yet: its result was used in a "
                       "double backward (create_graph=true)");
}

}  // namespace
}  // namespace gradgen
