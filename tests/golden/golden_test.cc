// The golden spec's generated code, compiled and run: every op's gradient is checked against
// finite differences in float64 (gradcheck), plus what each shape of wrapper must do.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "csrc/autograd/forward_ad.h"
#include "csrc/generated/VariableType.h"
#include "csrc/testing/gradcheck.h"
#include "tests/golden/generated/Functions.h"
#include "tests/golden/generated/VariableType.h"
#include "tests/golden/helpers.h"

namespace {

using gradgen::Tensor;
using gradgen::testing::fwgradcheck;
using gradgen::testing::gradcheck;
using gradgen::testing::gradgradcheck;

Tensor leaf(std::vector<double> data) {
  Tensor t = gradgen::tensor(std::move(data));
  t.set_requires_grad(true);
  return t;
}

TEST(GoldenTest, Foo) {
  std::string report;
  auto fn = [](const std::vector<Tensor>& x) { return golden::foo(x[0]); };
  EXPECT_TRUE(gradcheck(fn, {leaf({0.5, -1.0, 2.0})}, 1e-6, 1e-5, 1e-3, &report)) << report;
  EXPECT_TRUE(gradgradcheck(fn, {leaf({0.5, -1.0, 2.0})}, 1e-6, 1e-5, 1e-3, &report)) << report;
  // Forward mode, from the `result:` formula: out of place and in place (result is self).
  EXPECT_TRUE(fwgradcheck(fn, {leaf({0.5, -1.0, 2.0})}, 1e-6, 1e-5, 1e-3, &report)) << report;
  auto in_place = [](const std::vector<Tensor>& x) {
    Tensor y = gradgen::clone(x[0]);
    return golden::foo_(y);
  };
  EXPECT_TRUE(fwgradcheck(in_place, {leaf({0.5, -1.0, 2.0})}, 1e-6, 1e-5, 1e-3, &report)) << report;
}

TEST(GoldenTest, ForwardModeOfMulPairAndOpsWithoutAFormula) {
  std::string report;
  auto fn = [](const std::vector<Tensor>& x) { return golden::mul_pair(x[0], x[1]); };
  EXPECT_TRUE(fwgradcheck(fn, {leaf({1.0, 2.0}), leaf({3.0, -4.0})}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  gradgen::autograd::forward_ad::dual_level level;
  Tensor x = gradgen::autograd::forward_ad::make_dual(gradgen::tensor({1.0}), gradgen::ones({1}));
  EXPECT_THROW(golden::cube(x), std::runtime_error);  // no forward formula
}

TEST(GoldenTest, FooInPlaceSavesTheOutputsFactsFromSelf) {
  std::string report;
  auto fn = [](const std::vector<Tensor>& x) {
    Tensor y = gradgen::clone(x[0]);
    golden::foo_(y);
    return y;
  };
  EXPECT_TRUE(gradcheck(fn, {leaf({0.5, -1.0, 2.0})}, 1e-6, 1e-5, 1e-3, &report)) << report;
  Tensor x = leaf({1.0, 2.0});
  Tensor y = gradgen::clone(x);
  Tensor& r = golden::foo_(y);
  EXPECT_TRUE(r.is_same(y));
  EXPECT_EQ(y.grad_fn()->name(), "FooBackward0");
  auto* node = dynamic_cast<golden::autograd::generated::FooBackward0*>(y.grad_fn().get());
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->result_sizes, std::vector<int64_t>{2});
}

TEST(GoldenTest, FooOutWritesIntoOutAndRefusesInputsThatRequireGrad) {
  Tensor x = gradgen::tensor({0.0, 1.0});
  Tensor out = gradgen::zeros({2});
  EXPECT_TRUE(golden::foo_out(x, out).is_same(out));
  EXPECT_TRUE(gradgen::allclose(out, gradgen::exp(x)));
  x.set_requires_grad(true);
  EXPECT_THROW(golden::foo_out(x, out), std::exception);
}

TEST(GoldenTest, ScaledAndSquared) {
  std::string report;
  auto both = [](const std::vector<Tensor>& x) {
    auto [a, b] = golden::scaled_and_squared(x[0], 3.0);
    return std::vector<Tensor>{a, b};
  };
  EXPECT_TRUE(gradcheck(both, {leaf({0.5, -1.0, 2.0})}, 1e-6, 1e-5, 1e-3, &report)) << report;
  // Only the second output is used: the first one's gradient arrives undefined.
  auto second = [](const std::vector<Tensor>& x) {
    return std::get<1>(golden::scaled_and_squared(x[0], 3.0));
  };
  EXPECT_TRUE(gradcheck(second, {leaf({0.5, -1.0, 2.0})}, 1e-6, 1e-5, 1e-3, &report)) << report;
}

TEST(GoldenTest, WeightedSumOfAList) {
  std::string report;
  auto fn = [](const std::vector<Tensor>& x) { return golden::weighted_sum(x, {2.0, -1.0, 0.5}); };
  EXPECT_TRUE(gradcheck(fn, {leaf({1.0, 2.0}), leaf({3.0, 4.0}), leaf({-1.0, 0.5})}, 1e-6, 1e-5,
                        1e-3, &report))
      << report;
}

TEST(GoldenTest, ProdAllOfAList) {
  std::string report;
  auto fn = [](const std::vector<Tensor>& x) { return golden::prod_all(x); };
  EXPECT_TRUE(gradcheck(fn, {leaf({1.0, 2.0}), leaf({3.0, -4.0}), leaf({-1.0, 0.5})}, 1e-6, 1e-5,
                        1e-3, &report))
      << report;
  // An input that does not require grad gets no gradient, the others still do.
  Tensor a = leaf({1.0, 2.0});
  Tensor b = gradgen::tensor({3.0, 4.0});
  golden::prod_all({a, b}).backward(gradgen::ones({2}));
  EXPECT_TRUE(gradgen::allclose(a.grad(), b));
}

TEST(GoldenTest, MaybeMulWithAndWithoutTheOptionalTensor) {
  std::string report;
  auto with = [](const std::vector<Tensor>& x) { return golden::maybe_mul(x[0], x[1]); };
  EXPECT_TRUE(gradcheck(with, {leaf({1.0, 2.0}), leaf({3.0, -4.0})}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  auto without = [](const std::vector<Tensor>& x) { return golden::maybe_mul(x[0]); };
  EXPECT_TRUE(gradcheck(without, {leaf({1.0, 2.0})}, 1e-6, 1e-5, 1e-3, &report)) << report;
}

TEST(GoldenTest, MulPairSavesEachInputOnlyWhenTheOtherNeedsAGradient) {
  std::string report;
  auto fn = [](const std::vector<Tensor>& x) { return golden::mul_pair(x[0], x[1]); };
  EXPECT_TRUE(gradcheck(fn, {leaf({1.0, 2.0}), leaf({3.0, -4.0})}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(gradgradcheck(fn, {leaf({1.0, 2.0}), leaf({3.0, -4.0})}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  // Only self requires grad: other is saved (self's gradient needs it), self is not.
  Tensor self = leaf({1.0, 2.0});
  Tensor other = gradgen::tensor({3.0, -4.0});
  Tensor y = golden::mul_pair(self, other);
  auto* node = dynamic_cast<golden::autograd::generated::MulPairBackward0*>(y.grad_fn().get());
  ASSERT_NE(node, nullptr);
  EXPECT_FALSE(node->self_.has_data());
  EXPECT_TRUE(node->other_.has_data());
  y.backward(gradgen::ones({2}));
  EXPECT_TRUE(gradgen::allclose(self.grad(), other));
}

TEST(GoldenTest, CubeSeesRetainVariables) {
  std::string report;
  auto fn = [](const std::vector<Tensor>& x) { return golden::cube(x[0]); };
  EXPECT_TRUE(gradcheck(fn, {leaf({0.5, -1.0, 2.0})}, 1e-6, 1e-5, 1e-3, &report)) << report;
  Tensor x = leaf({2.0});
  golden::cube(x).backward(gradgen::ones({1}), /*retain_graph=*/true);
  EXPECT_TRUE(golden::helpers::last_retain_variables());
  golden::cube(x).backward(gradgen::ones({1}), /*retain_graph=*/false);
  EXPECT_FALSE(golden::helpers::last_retain_variables());
  EXPECT_TRUE(gradgen::allclose(x.grad(), gradgen::tensor({24.0})));
}

TEST(GoldenTest, ForeachFooRunsFoosFormulaOnEachElement) {
  std::string report;
  auto fn = [](const std::vector<Tensor>& x) { return golden::_foreach_foo(x); };
  EXPECT_TRUE(gradcheck(fn, {leaf({0.5, -1.0}), leaf({2.0}), leaf({1.0, 0.0, -0.5})}, 1e-6, 1e-5,
                        1e-3, &report))
      << report;
  std::vector<Tensor> y = golden::_foreach_foo({leaf({1.0})});
  EXPECT_EQ(y[0].grad_fn()->name(), "ForeachFooBackward0");
}

}  // namespace
