// Forward-mode AD: levels, make_dual / unpack_dual and their errors, tangents through views and
// in-place ops, ops without a forward formula, and forward-over-reverse (Hessian-vector products).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "csrc/testing/gradcheck.h"

namespace gradgen {
namespace {

namespace fwad = autograd::forward_ad;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(ForwardADTest, LevelsAreScopedAndNotNested) {
  EXPECT_EQ(fwad::current_level(), 0u);
  uint64_t first = 0;
  {
    fwad::dual_level level;
    first = level.level();
    EXPECT_EQ(fwad::current_level(), first);
    EXPECT_EQ(error_of([] { fwad::dual_level nested; }),
              "dual_level: level " + std::to_string(first) +
                  " is already active; nested dual levels are not supported (exit it first)");
  }
  EXPECT_EQ(fwad::current_level(), 0u);
  fwad::dual_level second;
  EXPECT_GT(second.level(), first) << "level ids are never reused";
}

TEST(ForwardADTest, TangentsAreClearedWhenTheLevelExits) {
  Tensor x = randn({2, 3}, 1);
  Tensor v = randn({2, 3}, 2);
  Tensor dual, y;
  {
    fwad::dual_level level;
    dual = fwad::make_dual(x, v);
    y = exp(dual);
    EXPECT_TRUE(allclose(fwad::fw_grad(y), v * exp(x), 1e-12, 1e-12));
  }
  EXPECT_FALSE(dual.unsafe_impl()->fw_grad->tangent.defined()) << "the level frees its tangents";
  EXPECT_FALSE(y.unsafe_impl()->fw_grad->tangent.defined());
  fwad::dual_level next;
  EXPECT_FALSE(fwad::fw_grad(dual).defined());
  EXPECT_FALSE(fwad::fw_grad(exp(dual)).defined()) << "no tangent from an old level";
}

TEST(ForwardADTest, MakeDualChecksItsArguments) {
  Tensor x = randn({2, 3}, 1);
  EXPECT_EQ(error_of([&] { fwad::make_dual(x, x); }),
            "make_dual: dual level none is not active (active level: none); open one with "
            "forward_ad::dual_level");
  fwad::dual_level level;
  EXPECT_EQ(error_of([&] { fwad::make_dual(x, randn({3}, 2)); }),
            "make_dual: expected a tangent of shape [2, 3] (the primal's), found [3]");
  EXPECT_EQ(error_of([&] {
              fwad::make_dual(x, zeros({2, 3}, ScalarType::Float));
            }),
            "make_dual: expected a tangent of dtype Double (the primal's), found Float");
  EXPECT_EQ(error_of([&] { fwad::make_dual(zeros({2}, ScalarType::Long), zeros({2})); }),
            "make_dual: expected a primal of a floating dtype, found Long");
  EXPECT_EQ(error_of([&] { fwad::make_dual(x, x, level.level() + 1); }),
            "make_dual: dual level " + std::to_string(level.level() + 1) +
                " is not active (active level: " + std::to_string(level.level()) +
                "); open one with forward_ad::dual_level");
}

TEST(ForwardADTest, UnpackDualGivesAPrimalViewAndTheTangent) {
  fwad::dual_level level;
  Tensor x = randn({2, 3}, 1).set_requires_grad(true);
  Tensor v = randn({2, 3}, 2);
  Tensor dual = fwad::make_dual(x, v);
  EXPECT_EQ(dual.data_ptr<double>(), x.data_ptr<double>()) << "a dual tensor shares the data";
  fwad::UnpackedDual parts = fwad::unpack_dual(dual);
  EXPECT_TRUE(parts.tangent.is_same(v));
  EXPECT_FALSE(fwad::fw_grad(parts.primal).defined()) << "the primal carries no tangent";
  EXPECT_EQ(parts.primal.data_ptr<double>(), x.data_ptr<double>());
  // Both are differentiable in reverse mode with respect to x.
  autograd::variable_list g = autograd::grad({sum(parts.primal * 3)}, {x});
  EXPECT_TRUE(allclose(g[0], full({2, 3}, 3.0)));
  EXPECT_FALSE(fwad::unpack_dual(x).tangent.defined());
}

TEST(ForwardADTest, JvpOfAComposition) {
  // y = tanh(x W): the tangent is (1 - y^2) * (v W).
  fwad::dual_level level;
  Tensor x = randn({3, 4}, 1), w = randn({4, 2}, 2), v = randn({3, 4}, 3);
  Tensor y = tanh(mm(fwad::make_dual(x, v), w));
  Tensor expected = (1 - tanh(mm(x, w)) * tanh(mm(x, w))) * mm(v, w);
  EXPECT_TRUE(allclose(fwad::unpack_dual(y).tangent, expected, 1e-12, 1e-12));
  EXPECT_FALSE(fwad::fw_grad(mm(x, w)).defined()) << "no dual input, no tangent";
}

TEST(ForwardADTest, AViewsTangentIsTheSameViewOfTheTangent) {
  fwad::dual_level level;
  Tensor v = randn({2, 3}, 2);
  Tensor dual = fwad::make_dual(randn({2, 3}, 1), v);
  Tensor tt = fwad::fw_grad(transpose(dual, 0, 1));
  EXPECT_EQ(tt.data_ptr<double>(), v.data_ptr<double>()) << "a view of the tangent, not a copy";
  EXPECT_EQ(tt.sizes().vec(), (std::vector<int64_t>{3, 2}));
  Tensor row = fwad::fw_grad(select(dual, 0, 1));
  EXPECT_EQ(row.data_ptr<double>(), v.data_ptr<double>() + 3);
}

TEST(ForwardADTest, InPlaceOpsUpdateTheTangentInPlace) {
  fwad::dual_level level;
  Tensor x = randn({2, 3}, 1), v = randn({2, 3}, 2), o = randn({2, 3}, 3);
  Tensor dual = fwad::make_dual(x.clone(), v.clone());
  Tensor tangent = fwad::fw_grad(dual);
  Tensor row = select(dual, 0, 0);  // its tangent is a view of dual's
  mul_(dual, o);
  EXPECT_TRUE(fwad::fw_grad(dual).is_same(tangent)) << "written into the existing tangent";
  EXPECT_TRUE(allclose(tangent, v * o, 1e-12, 1e-12));
  EXPECT_TRUE(allclose(fwad::fw_grad(row), select(v * o, 0, 0), 1e-12, 1e-12))
      << "the view's tangent sees the update";
  // A self without tangent gets one from the other operand's.
  Tensor plain = x.clone();
  add_(plain, fwad::make_dual(o, v), 2);
  EXPECT_TRUE(allclose(fwad::fw_grad(plain), v * 2, 1e-12, 1e-12));
  // mul_ reads self's value from before the kernel ran (original_self_p).
  Tensor self = x.clone();
  mul_(self, fwad::make_dual(o, v));
  EXPECT_TRUE(allclose(fwad::fw_grad(self), v * x, 1e-12, 1e-12));
}

TEST(ForwardADTest, InPlaceOnAViewGivesItsBaseATangent) {
  fwad::dual_level level;
  Tensor x = randn({3, 4}, 1), o = randn({4}, 2), v = randn({4}, 3);
  // The base has no tangent: it gets a zero one, of which the view's is the same view.
  Tensor base = x.clone();
  Tensor row = select(base, 0, 1);
  mul_(row, fwad::make_dual(o, v));
  const Tensor expected = stack({zeros({4}), v * select(x, 0, 1), zeros({4})}, 0);
  ASSERT_TRUE(fwad::fw_grad(base).defined());
  EXPECT_TRUE(allclose(fwad::fw_grad(base), expected, 1e-12, 1e-12));
  EXPECT_TRUE(allclose(fwad::fw_grad(row), select(expected, 0, 1), 1e-12, 1e-12));
  // The base has a tangent already, the (older) transposed view has none: the update lands in
  // the base's tangent too.
  Tensor w = randn({3, 4}, 4);
  Tensor dual = fwad::make_dual(x.clone(), w.clone());
  Tensor column = select(transpose(dual, 0, 1), 0, 2);
  add_(column, fwad::make_dual(randn({3}, 5), select(w, 1, 0)), 1);
  const Tensor expected2 = w + stack({zeros({3}), zeros({3}), select(w, 1, 0), zeros({3})}, 1);
  EXPECT_TRUE(allclose(fwad::fw_grad(dual), expected2, 1e-12, 1e-12));
}

TEST(ForwardADTest, OpsWithoutAForwardFormulaRefuseDualInputs) {
  fwad::dual_level level;
  Tensor x = fwad::make_dual(randn({2, 3}, 1), randn({2, 3}, 2));
  const Tensor h = zeros({2, 2}), w_ih = randn({8, 3}, 4), w_hh = randn({8, 2}, 5);
  EXPECT_EQ(error_of([&] {
              lstm_cell(x, {h, h}, w_ih, w_hh);
            }),
            "forward-mode AD not implemented for lstm_cell: its derivatives.yaml entry has no "
            "forward formula");
  Tensor out = zeros({2, 3});
  EXPECT_EQ(error_of([&] { add_out(x, x, 1, out); }),
            "forward-mode AD not implemented for add.out: out= variants do not support "
            "forward-mode AD");
  EXPECT_NO_THROW(lstm_cell(randn({2, 3}, 3), {h, h}, w_ih, w_hh))
      << "only dual inputs are refused";
}

TEST(ForwardADTest, ForwardOverReverseGivesHessianVectorProducts) {
  // f(x) = sum(x^3) / 3 + sum(tanh(x) * w): H = diag(2x + tanh''(x) w).
  Tensor x0 = randn({4}, 1), w = randn({4}, 2), v = randn({4}, 3);
  auto f = [&w](const Tensor& x) { return sum(pow(x, 3)) / 3 + sum(tanh(x) * w); };
  // x is used twice, so the backward sums two gradients carrying tangents: differentiably with
  // create_graph, and without it out of place too (a tensor with a tangent is never summed in
  // place, which would leave its tangent stale).
  auto hvp_of = [&](bool create_graph) {
    fwad::dual_level level;
    Tensor x = x0.detach().set_requires_grad(true);
    Tensor g = autograd::grad({f(fwad::make_dual(x, v))}, {x}, {}, false, create_graph)[0];
    return fwad::fw_grad(g).clone();
  };
  const Tensor hvp = hvp_of(true);
  EXPECT_TRUE(allclose(hvp_of(false), hvp, 1e-12, 1e-12));
  // Finite differences of the gradient along v.
  auto gradient = [&](const Tensor& x) {
    Tensor leaf = x.detach().set_requires_grad(true);
    return autograd::grad({f(leaf)}, {leaf})[0];
  };
  const double eps = 1e-6;
  Tensor numerical = (gradient(x0 + v * eps) - gradient(x0 - v * eps)) / (2 * eps);
  EXPECT_TRUE(allclose(hvp, numerical, 1e-6, 1e-7)) << hvp << "\nvs\n" << numerical;
  Tensor t = tanh(x0);
  Tensor exact = (2 * x0 + (-2 * t * (1 - t * t)) * w) * v;
  EXPECT_TRUE(allclose(hvp, exact, 1e-10, 1e-12)) << hvp << "\nvs\n" << exact;
}

TEST(ForwardADTest, AccumulatedGradsKeepTheirTangents) {
  // d/dx sum(x * x) = 2 x, whose tangent along v is 2 v; two backward passes sum into .grad.
  fwad::dual_level level;
  Tensor x = randn({3}, 1).set_requires_grad(true), v = randn({3}, 2);
  for (int pass = 0; pass < 2; ++pass) {
    Tensor dual = fwad::make_dual(x, v);
    sum(dual * dual).backward();
  }
  EXPECT_TRUE(allclose(x.grad(), x.detach() * 4, 1e-12, 1e-12));
  ASSERT_TRUE(fwad::fw_grad(x.grad()).defined());
  EXPECT_TRUE(allclose(fwad::fw_grad(x.grad()), v * 4, 1e-12, 1e-12));
}

TEST(ForwardADTest, GradcheckHelpersCatchAWrongTangent) {
  // fwgradcheck fails when a tangent is wrong: here the op is fine but the function drops the
  // dual-ness of its input halfway (detach), so forward mode sees zeros.
  std::string report;
  auto wrong = [](const std::vector<Tensor>& x) { return exp(x[0].detach()) + x[0]; };
  EXPECT_FALSE(testing::fwgradcheck(wrong, {randn({3}, 1).set_requires_grad(true)}, 1e-6, 1e-5,
                                    1e-3, &report));
  EXPECT_NE(report.find("fwgradcheck: the tangent of output 0 mismatch"), std::string::npos)
      << report;
  auto right = [](const std::vector<Tensor>& x) { return exp(x[0]) * x[1]; };
  EXPECT_TRUE(testing::fwgradcheck(right,
                                   {randn({3}, 1).set_requires_grad(true),
                                    randn({3}, 2).set_requires_grad(true)},
                                   1e-6, 1e-5, 1e-3, &report))
      << report;
}

}  // namespace
}  // namespace gradgen
