// Views and in-place ops under autograd (Note [Views] in csrc/tensor.h): an in-place op on a
// view rewrites its base's history with a CopySlices node, a view whose base changed gets an
// AsStridedBackward0 grad_fn, the refusals PyTorch makes, and grad()'s exec_info (formulas of
// inputs that lead to no requested input are skipped, Note [exec_info] in engine.cc).
//
// Expected values come from PyTorch 2.13 running the same code (float64, the inputs A() and B()
// below, gradients of sum(out * W)); every case is also checked against finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/basic_ops.h"
#include "csrc/autograd/engine.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/testing/gradcheck.h"
#include "csrc/testing/sample_check.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

using autograd::variable_list;
using test_util::values;

Tensor A() { return tensor({0.5, -1.0, 2.0, 0.25, -1.5, 3.0}, {3, 2}).set_requires_grad(true); }
Tensor B() { return tensor({1.5, -2.0}).set_requires_grad(true); }
Tensor W() { return tensor({1, 2, 3, 4, 5, 6}, {3, 2}); }

// The gradients of sum(out * w) with respect to inputs, by grad().
variable_list grads_of(const Tensor& out, const variable_list& inputs, const Tensor& w) {
  return autograd::grad({sum(out * w)}, inputs);
}

void expect_gradcheck(std::function<Tensor(const std::vector<Tensor>&)> fn,
                      std::vector<Tensor> inputs) {
  std::string report;
  EXPECT_TRUE(testing::gradcheck(std::move(fn), std::move(inputs), 1e-6, 1e-5, 1e-3, &report))
      << report;
}

std::string name_of(const Tensor& t) { return t.grad_fn() ? t.grad_fn()->name() : "null"; }

// ---------------------------------------------------------------------------
// In-place ops on views: CopySlices
// ---------------------------------------------------------------------------

// x = a * 2; x[0].mul_(3)
Tensor row_mul(const std::vector<Tensor>& in) {
  Tensor x = in[0] * 2.0;
  Tensor row = select(x, 0, 0);
  mul_(row, 3.0);
  return x;
}

TEST(CopySlicesTest, InPlaceOnARowOfAResult) {
  Tensor a = A();
  Tensor x = a * 2.0;
  Tensor row = select(x, 0, 0);
  EXPECT_EQ(name_of(row), "SelectBackward0");
  mul_(row, 3.0);
  EXPECT_EQ(name_of(x), "CopySlices");
  EXPECT_EQ(name_of(row), "AsStridedBackward0");
  EXPECT_EQ(row.grad_fn()->next_edge(0).function, x.grad_fn());
  auto* copy_slices = dynamic_cast<autograd::CopySlices*>(x.grad_fn().get());
  ASSERT_NE(copy_slices, nullptr);
  EXPECT_EQ(copy_slices->fn()->name(), "MulBackward1");
  EXPECT_EQ(values(x), (std::vector<double>{3, -6, 4, 0.5, -3, 6}));
  // A view made after the op is an ordinary view of the new history.
  EXPECT_EQ(name_of(select(x, 0, 0)), "SelectBackward0");
  EXPECT_EQ(values(grads_of(x, {a}, W())[0]), (std::vector<double>{6, 12, 6, 8, 10, 12}));
  expect_gradcheck(row_mul, {A()});
  // backward() accumulates the same into .grad.
  Tensor a2 = A();
  sum(row_mul({a2}) * W()).backward();
  EXPECT_EQ(values(a2.grad()), (std::vector<double>{6, 12, 6, 8, 10, 12}));
}

// x = a * 2; x.select(0, 1).mul_(b): the in-place op's other input gets its gradient too.
Tensor row_mul_tensor(const std::vector<Tensor>& in) {
  Tensor x = in[0] * 2.0;
  Tensor row = select(x, 0, 1);
  mul_(row, in[1]);
  return x;
}

TEST(CopySlicesTest, TheInPlaceOpsOtherInputsGetTheirGradients) {
  Tensor a = A(), b = B();
  variable_list g = grads_of(row_mul_tensor({a, b}), {a, b}, W());
  EXPECT_EQ(values(g[0]), (std::vector<double>{2, 4, 9, -16, 10, 12}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{12, 2}));
  expect_gradcheck(row_mul_tensor, {A(), B()});
}

// x = a * 1; v = x.narrow(0, 1, 2); v.select(1, 0).add_(b); x * v.sum(): a view of a view is
// modified, then the first view (whose base changed) is used.
Tensor view_of_view(const std::vector<Tensor>& in) {
  Tensor x = in[0] * 1.0;
  Tensor v = narrow(x, 0, 1, 2);
  Tensor w = select(v, 1, 0);
  EXPECT_TRUE(w.base().is_same(x));  // a view of a view keeps the root base
  add_(w, in[1]);
  // (gradcheck also runs this under no_grad, for its finite differences)
  if (autograd::GradMode::is_enabled()) {
    EXPECT_EQ(name_of(v), "AsStridedBackward0");
  }
  return x * sum(v);
}

TEST(CopySlicesTest, ViewsOfViews) {
  Tensor a = A(), b = B();
  variable_list g = grads_of(view_of_view({a, b}), {a, b}, W());
  EXPECT_EQ(values(g[0]), (std::vector<double>{3.25, 6.5, 20.25, 23.5, 26.75, 30}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{20.25, 26.75}));
  expect_gradcheck(view_of_view, {A(), B()});
}

// x = a * 1; x.t().mul_(c): the whole tensor through a transposed view.
Tensor transposed(const std::vector<Tensor>& in) {
  Tensor x = in[0] * 1.0;
  Tensor xt = t(x);
  mul_(xt, in[1]);
  return x;
}

TEST(CopySlicesTest, TransposedView) {
  Tensor a = A();
  Tensor c = tensor({2, -1, 0.5, 1, 3, -2}, {2, 3}).set_requires_grad(true);
  variable_list g = grads_of(transposed({a, c}), {a, c}, W());
  EXPECT_EQ(values(g[0]), (std::vector<double>{2, 2, -3, 12, 2.5, -12}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{0.5, 6, -7.5, -2, 1, 18}));
  expect_gradcheck(transposed, {A(), test_util::leaf({2, 3}, 3)});
}

TEST(CopySlicesTest, ChainsOfViews) {
  // view -> t -> select -> narrow, and view -> select -> view -> narrow.
  expect_gradcheck(
      [](const std::vector<Tensor>& in) {
        Tensor x = in[0] * 1.0;
        Tensor v = narrow(select(t(view(x, {3, 2})), 1, 2), 0, 0, 2);
        mul_(v, in[1]);
        return x;
      },
      {A(), B()});
  expect_gradcheck(
      [](const std::vector<Tensor>& in) {
        Tensor x = in[0] * 1.0;
        Tensor v = narrow(view(select(view(x, {2, 3}), 0, 1), {3}), 0, 1, 2);
        mul_(v, in[1]);
        return x;
      },
      {A(), B()});
}

TEST(CopySlicesTest, ABaseThatDidNotRequireGradGetsHistory) {
  Tensor b = B();
  Tensor x = zeros({3, 2});
  Tensor old_row = select(x, 0, 0);  // made before x had history
  Tensor row = select(x, 0, 1);
  add_(row, b);
  EXPECT_EQ(name_of(x), "CopySlices");
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(old_row.requires_grad());
  EXPECT_EQ(name_of(old_row), "AsStridedBackward0");
  EXPECT_FALSE(x.grad_fn()->next_edge(0).is_valid());  // x's old history: none
  Tensor r = x * x + x;
  EXPECT_EQ(values(grads_of(r, {b}, W())[0]), (std::vector<double>{12, -12}));
  expect_gradcheck(
      [](const std::vector<Tensor>& in) {
        Tensor x = zeros({3, 2});
        Tensor row = select(x, 0, 1);
        add_(row, in[0]);
        return x * x + x;
      },
      {B()});
}

TEST(CopySlicesTest, SuccessiveInPlaceOpsOnViewsAndTheBase) {
  auto f = [](const std::vector<Tensor>& in) {
    Tensor x = in[0] * 1.0;
    Tensor r0 = select(x, 0, 0);
    Tensor c1 = select(x, 1, 1);
    mul_(r0, in[1]);  // CopySlices(MulBackward0)
    mul_(c1, 3.0);    // CopySlices(CopySlices(...))
    mul_(x, in[0]);   // the base itself, its views alive
    return x + sum(r0) * sum(c1);
  };
  expect_gradcheck(f, {A(), B()});
}

TEST(CopySlicesTest, ASavedViewModifiedThroughAnotherViewIsDetected) {
  // mul_ saves other (a view of x); the in-place op bumps x's version: as PyTorch, the
  // backward refuses the stale value. The graph (x -> CopySlices -> MulBackward0 -> saved
  // view of x) must not be a reference cycle: the asan config's leak check would fail.
  Tensor a = A();
  Tensor x = a * 1.0;
  Tensor r0 = select(x, 0, 0);
  Tensor r1 = select(x, 0, 1);
  mul_(r0, r1);
  EXPECT_THROW_MESSAGE(sum(x).backward(), std::runtime_error,
                       "MulBackward0: saved tensor 'other' of shape [2] was modified by an "
                       "in-place operation: saved at version 0, now at version 1");
}

TEST(CopySlicesTest, HooksOfTheBaseSeeItsWholeGradient) {
  Tensor a = A();
  Tensor x = a * 2.0;
  std::vector<double> seen;
  x.register_hook([&](const Tensor& g) { seen = values(g); });
  Tensor row = select(x, 0, 2);
  mul_(row, 10.0);
  sum(x * W()).backward();
  EXPECT_EQ(seen, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values(a.grad()), (std::vector<double>{2, 4, 6, 8, 100, 120}));
}

TEST(CopySlicesTest, SecondDerivativesThroughCopySlicesAndAsStrided) {
  std::string report;
  EXPECT_TRUE(testing::gradgradcheck(row_mul_tensor, {A(), B()}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(testing::gradgradcheck(view_of_view, {A(), B()}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  auto base_then_views = [](const std::vector<Tensor>& in) {
    Tensor x = in[0] * in[0];
    Tensor e = expand(narrow(x, 0, 1, 1), {3, 2});  // overlapping: the gradients are summed
    Tensor row = select(x, 0, 2);
    mul_(row, in[1]);
    mul_(x, in[0]);
    return e * x;
  };
  EXPECT_TRUE(testing::gradgradcheck(base_then_views, {A(), B()}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  // exp_ saves its result (the view): a double backward goes through exp_'s node's own edges.
  auto exp_of_row = [](const std::vector<Tensor>& in) {
    Tensor x = in[0] * 1.0;
    Tensor row = select(x, 0, 1);
    exp_(row);
    return x;
  };
  EXPECT_TRUE(testing::gradgradcheck(exp_of_row, {A()}, 1e-6, 1e-5, 1e-3, &report)) << report;
}

TEST(CopySlicesTest, RestrideIsItsOwnAdjoint) {
  // <restride(g, src, dst), h> == <g, restride(h, dst, src)>, overlap and zeroing included.
  Tensor base = zeros({3, 4});
  const autograd::TensorGeometry b(base), e(expand(narrow(base, 0, 1, 1), {2, 4}));
  const autograd::TensorGeometry col(select(base, 1, 2));
  Tensor g = randn({2, 4}, 1), h = randn({3, 4}, 2);
  for (const autograd::TensorGeometry* zero :
       {static_cast<const autograd::TensorGeometry*>(nullptr), &col}) {
    const double lhs = sum(autograd::restride(g, e, b, zero, &b) * h).item<double>();
    const double rhs = sum(g * autograd::restride(h, b, e, zero, &b)).item<double>();
    EXPECT_NEAR(lhs, rhs, 1e-12);
  }
  // The expanded view's two rows land on one base row: summed.
  EXPECT_EQ(values(autograd::restride(ones({2, 4}), e, b)),
            (std::vector<double>{0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0}));
}

// ---------------------------------------------------------------------------
// In-place ops on a base whose views are alive: AsStridedBackward0
// ---------------------------------------------------------------------------

TEST(AsStridedBackwardTest, AViewUsedAfterItsBaseWasModified) {
  Tensor a = A(), b = B();
  Tensor x = a * 2.0;
  Tensor v = select(x, 0, 0);
  const uint64_t version = v.version();
  mul_(x, b);
  EXPECT_EQ(v.version(), version + 1);
  EXPECT_EQ(name_of(v), "AsStridedBackward0");
  EXPECT_EQ(v.grad_fn()->next_edge(0).function, x.grad_fn());
  Tensor r = v * tensor({1.0, -1.0});
  variable_list g = grads_of(r, {a, b}, tensor({2.0, 3.0}));
  EXPECT_EQ(values(g[0]), (std::vector<double>{6, 12, 0, 0, 0, 0}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{2, 6}));
  expect_gradcheck(
      [](const std::vector<Tensor>& in) {
        Tensor x = in[0] * 2.0;
        Tensor v = select(x, 0, 0);
        mul_(x, in[1]);
        return v * tensor({1.0, -1.0});
      },
      {A(), B()});
}

TEST(AsStridedBackwardTest, AnExpandedViewSumsTheGradientsOfRepeatedElements) {
  Tensor a = A();
  Tensor x = a * 2.0;
  Tensor e = expand(narrow(x, 0, 0, 1), {4, 2});
  mul_(x, 3.0);
  Tensor w = tensor({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2});
  EXPECT_EQ(values(grads_of(e, {a}, w)[0]), (std::vector<double>{96, 120, 0, 0, 0, 0}));
  expect_gradcheck(
      [](const std::vector<Tensor>& in) {
        Tensor x = in[0] * 2.0;
        Tensor e = expand(narrow(x, 0, 0, 1), {4, 2});
        mul_(x, in[0]);
        return e;
      },
      {A()});
}

TEST(AsStridedBackwardTest, NarrowTransposeViewBases) {
  auto f = [](const std::vector<Tensor>& in) {
    Tensor x = in[0] * 1.0;
    Tensor n = narrow(x, 1, 1, 1);
    Tensor tr = transpose(x, 0, 1);
    Tensor v = view(x, {6});
    Tensor row = select(x, 0, 2);
    mul_(row, in[1]);  // through a view: n, tr and v follow
    return sum(n) * tr + view(v, {2, 3});
  };
  expect_gradcheck(f, {A(), B()});
}

TEST(AsStridedBackwardTest, ViewsOfALeafFollowItsChangesInNoGradMode) {
  Tensor a = A();
  Tensor v = select(a, 0, 1);
  {
    autograd::NoGradGuard no_grad;
    mul_(a, 2.0);  // as an optimizer step would
  }
  EXPECT_EQ(name_of(v), "AsStridedBackward0");
  sum(v * tensor({1.0, 2.0})).backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{0, 0, 1, 2, 0, 0}));
}

TEST(AsStridedBackwardTest, DetachedAliasesRecordNoHistory) {
  Tensor a = A();
  Tensor x = a * 2.0;
  Tensor v = select(x, 0, 0);
  Tensor d = x.detach();
  EXPECT_FALSE(d.is_view());
  Tensor drow = select(d, 0, 0);
  mul_(drow, 0.0);  // no history: d does not require grad
  EXPECT_FALSE(d.requires_grad());
  EXPECT_EQ(name_of(x), "MulBackward1");
  EXPECT_EQ(name_of(v), "AsStridedBackward0");  // its storage changed
  EXPECT_EQ(values(v), (std::vector<double>{0, 0}));
}

// ---------------------------------------------------------------------------
// Refusals (PyTorch's errors)
// ---------------------------------------------------------------------------

TEST(ViewRefusalTest, AViewOfALeafThatRequiresGrad) {
  Tensor a = A();
  Tensor row = select(a, 0, 0);
  EXPECT_THROW_MESSAGE(mul_(row, 2.0), std::runtime_error,
                       "mul_: a view of a leaf Variable that requires grad is being used in an "
                       "in-place operation.");
  EXPECT_EQ(a.version(), 0u);  // refused before writing
  autograd::NoGradGuard no_grad;
  mul_(row, 2.0);  // allowed without autograd
  EXPECT_EQ(values(a)[0], 1.0);
}

TEST(ViewRefusalTest, OutputsOfMultiOutputViewOps) {
  Tensor x = A() * 1.0;
  std::vector<Tensor> pieces = split(x, 1, 0);
  EXPECT_THROW_MESSAGE(
      mul_(pieces[1], 2.0), std::runtime_error,
      "mul_: Output 1 of SplitBackward0 is a view and is being modified inplace. This view is "
      "the output of a function that returns multiple views. Such functions do not allow the "
      "output views to be modified inplace. You should replace the inplace operation by an "
      "out-of-place one.");
  Tensor piece_view = view(unbind(x, 1)[0], {3});  // a view of one inherits the refusal
  EXPECT_THROW(mul_(piece_view, 2.0), std::runtime_error);
  // Modifying the base makes their histories unusable.
  mul_(x, 2.0);
  EXPECT_THROW_MESSAGE(pieces[0].grad_fn(), std::runtime_error,
                       "Output 0 of SplitBackward0 is a view and its base or another view of its "
                       "base has been modified inplace. This view is the output of a function "
                       "that returns multiple views. Such functions do not allow the output views "
                       "to be modified inplace. You should replace the inplace operation by an "
                       "out-of-place one.");
  // Only another argument requires grad: refused once the history would be rewritten.
  Tensor plain = zeros({3, 2});
  std::vector<Tensor> chunks = chunk(plain, 3, 0);
  EXPECT_THROW(mul_(chunks[0], B()), std::runtime_error);
}

TEST(ViewRefusalTest, AViewMadeInNoGradMode) {
  Tensor x = A() * 1.0;
  Tensor row;
  {
    autograd::NoGradGuard no_grad;
    row = select(x, 0, 0);
  }
  EXPECT_TRUE(row.requires_grad());  // through its base, as in PyTorch
  EXPECT_EQ(name_of(row), "null");
  EXPECT_THROW_MESSAGE(
      mul_(row, 2.0), std::runtime_error,
      "mul_: A view was created in no_grad mode and is being modified inplace with grad mode "
      "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can "
      "clarify your code by moving both the view and the inplace either both inside the no_grad "
      "block (if you don't want the inplace to be tracked) or both outside (if you want the "
      "inplace to be tracked).");
  mul_(x, 2.0);
  EXPECT_THROW_MESSAGE(
      row.grad_fn(), std::runtime_error,
      "A view was created in no_grad mode and its base or another view of its base has been "
      "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
      "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
      "inplace either both inside the no_grad block (if you don't want the inplace to be "
      "tracked) or both outside (if you want the inplace to be tracked).");
}

// A leaf that is a view made in no_grad mode, then given requires_grad (issue 23): a formula
// that uses the saved input must see the leaf itself, so that the second derivative has the
// saved input's part. Expected values are the calculus ones, checked elementwise.
TEST(ViewRefusalTest, ALeafViewMadeInNoGradModeHasSecondDerivatives) {
  Tensor base = tensor({0.5, -1.0, 2.0, 0.25, -1.5, 3.0}, {3, 2});
  struct Case {
    const char* name;
    std::function<Tensor(const Tensor&)> f;
    std::function<double(double)> second;  // f''(x) elementwise
  };
  const std::vector<Case> cases = {
      {"v*v*v", [](const Tensor& v) { return v * v * v; }, [](double x) { return 6 * x; }},
      {"sin", [](const Tensor& v) { return sin(v); }, [](double x) { return -std::sin(x); }},
      {"exp(v)*v", [](const Tensor& v) { return exp(v) * v; },
       [](double x) { return std::exp(x) * (2 + x); }},
  };
  for (const Case& c : cases) {
    Tensor v;
    {
      autograd::NoGradGuard no_grad;
      v = transpose(base, 0, 1);
    }
    v.set_requires_grad(true);
    ASSERT_TRUE(v.is_view() && v.is_leaf()) << c.name;
    Tensor g = autograd::grad({sum(c.f(v))}, {v}, {}, /*retain_graph=*/true,
                              /*create_graph=*/true)[0];
    ASSERT_TRUE(g.requires_grad()) << c.name;
    Tensor h = autograd::grad({sum(g)}, {v})[0];
    const std::vector<double> x = values(v), got = values(h);
    ASSERT_EQ(got.size(), x.size()) << c.name;
    for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(got[i], c.second(x[i]), 1e-12) << c.name;
  }
}

// ---------------------------------------------------------------------------
// exec_info: grad() skips the formulas of inputs that lead to no requested input
// ---------------------------------------------------------------------------

// A node of two inputs that records which of its outputs it was asked for.
struct Probe : autograd::Node {
  variable_list apply(variable_list&& grads) override {
    asked.push_back({should_compute_output(0), should_compute_output(1)});
    variable_list out(2);
    if (should_compute_output(0)) out[0] = grads[0];
    if (should_compute_output(1)) out[1] = grads[0];
    return out;
  }
  std::string name() const override { return "Probe"; }
  std::vector<std::vector<bool>> asked;
};

Tensor probed(const Tensor& a, const Tensor& b, std::shared_ptr<Probe>& probe) {
  probe = std::make_shared<Probe>();
  probe->set_next_edges(autograd::collect_next_edges(a, b));
  Tensor out = zeros({2});
  autograd::set_history(out, probe);
  return out;
}

TEST(ExecInfoTest, GradSkipsTheFormulasOfUnrequestedInputs) {
  Tensor a = B(), b = B();
  std::shared_ptr<Probe> probe;
  Tensor out = probed(a * 1.0, b * 1.0, probe);
  autograd::grad({out}, {a}, {ones({2})}, /*retain_graph=*/true);
  autograd::grad({out}, {b}, {ones({2})}, /*retain_graph=*/true);
  // An input the outputs do not depend on: nothing runs.
  autograd::grad({out}, {b * 1.0}, {ones({2})}, /*retain_graph=*/true, false, true);
  out.backward(ones({2}));
  ASSERT_EQ(probe->asked.size(), 3u);  // grad() of an unreachable input runs nothing
  EXPECT_EQ(probe->asked[0], (std::vector<bool>{true, false}));
  EXPECT_EQ(probe->asked[1], (std::vector<bool>{false, true}));
  EXPECT_EQ(probe->asked[2], (std::vector<bool>{true, true}));  // backward(): all
  // The hidden edges are back: the graph is unchanged.
  EXPECT_TRUE(probe->next_edge(0).is_valid());
  EXPECT_TRUE(probe->next_edge(1).is_valid());
}

TEST(ExecInfoTest, CopySlicesPassesTheMasksToTheInPlaceOpsNode) {
  Tensor a = A(), b = B();
  Tensor x = a * 1.0;
  Tensor row = select(x, 0, 0);
  autograd::check_inplace(row, "probe_");
  auto probe = std::make_shared<Probe>();
  probe->set_next_edges(autograd::collect_next_edges(row, b));
  row.bump_version();  // what the in-place kernel would do
  autograd::rebase_history(row, probe);
  EXPECT_EQ(name_of(x), "CopySlices");
  variable_list g = autograd::grad({sum(x * W())}, {a}, {}, /*retain_graph=*/true);
  EXPECT_EQ(values(g[0]), (std::vector<double>{1, 2, 3, 4, 5, 6}));  // Probe: identity
  autograd::grad({sum(x * W())}, {b}, {}, /*retain_graph=*/true);
  ASSERT_EQ(probe->asked.size(), 2u);
  EXPECT_EQ(probe->asked[0], (std::vector<bool>{true, false}));
  EXPECT_EQ(probe->asked[1], (std::vector<bool>{false, true}));
}

TEST(ExecInfoTest, AThrowingFormulaRestoresTheEdges) {
  struct Thrower : autograd::Node {
    variable_list apply(variable_list&&) override { throw std::runtime_error("boom"); }
  };
  Tensor a = B(), b = B();
  auto node = std::make_shared<Thrower>();
  node->set_next_edges(autograd::collect_next_edges(a, b));
  Tensor out = zeros({2});
  autograd::set_history(out, node);
  EXPECT_THROW(autograd::grad({out}, {a}, {ones({2})}), std::runtime_error);
  EXPECT_TRUE(node->next_edge(1).is_valid());
}

// A node of two inputs that computes both gradients whatever it is asked for.
struct Greedy : autograd::Node {
  variable_list apply(variable_list&& grads) override { return {grads[0], grads[0] * 2.0}; }
  std::string name() const override { return "GreedyBackward"; }
};

// The generated gradient test's grad_input_mask check (csrc/testing/sample_check.h) finds a
// node that computes a gradient it was not asked for, and passes the generated nodes' mul.
TEST(ExecInfoTest, TheSampleCheckFindsANodeThatIgnoresTheMask) {
  testing::SampleCase c;
  c.op = "greedy";
  c.sample = 1;
  c.label = "a: [2], b: [2]";
  c.inputs = {{"a", {2}}, {"b", {2}}};
  c.gradgradcheck = false;
  c.fn = [](const std::vector<Tensor>& in) {
    auto node = std::make_shared<Greedy>();
    node->set_next_edges(autograd::collect_next_edges(in[0], in[1]));
    Tensor out;
    {
      autograd::NoGradGuard no_grad;
      out = in[0] + in[1] * 2.0;
    }
    autograd::set_history(out, node);
    return std::vector<Tensor>{out};
  };
  testing::SampleRunner runner;
  EXPECT_EQ(runner.run(c),
            "greedy sample 1 (a: [2], b: [2]): GreedyBackward asked only for d/d a also computed "
            "d/d b (should_compute_output / grad_input_mask not honoured)");
  c.fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0] * in[1]}; };
  EXPECT_EQ(runner.run(c), "");
  EXPECT_EQ(runner.finish(), 1);
}

}  // namespace
}  // namespace gradgen
