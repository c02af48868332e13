// Tests of the example's op, custom_op::polyval, end to end: the user's kernel, the generated
// PolyvalBackward0 with the user's formula helpers, and gradgen's engine. Gradients are compared
// with central finite differences in float64 (gradgen's csrc/testing/gradcheck.h).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/function.h"
#include "csrc/tensor.h"
#include "csrc/testing/gradcheck.h"
#include "ops/generated/Functions.h"
#include "ops/generated/VariableType.h"

namespace custom_op {
namespace {

using gradgen::Tensor;
using gradgen::TensorList;
using gradgen::testing::gradcheck;
using gradgen::testing::numerical_gradient;
using Inputs = std::vector<Tensor>;

Tensor leaf(gradgen::IntArrayRef sizes, uint64_t seed) {
  return gradgen::randn(sizes, seed).set_requires_grad(true);
}

std::vector<double> values(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

// polyval of the first n inputs (the coefficients) at the last one (x).
Tensor polyval_of(const Inputs& in) {
  return polyval(TensorList(in.data(), in.size() - 1), in.back());
}

TEST(PolyvalTest, ComputesThePolynomialElementWise) {
  Tensor x = gradgen::tensor({0, 1, 2, -1}, {2, 2});
  Tensor c0 = gradgen::tensor({1, 1, 1, 1}, {2, 2});
  Tensor c1 = gradgen::tensor({2, 2, 2, 2}, {2, 2});
  Tensor c2 = gradgen::tensor({3, 0, 1, 1}, {2, 2});
  // 1 + 2x + c2 x^2 at x = 0, 1, 2, -1.
  EXPECT_EQ(values(polyval({c0, c1, c2}, x)), (std::vector<double>{1, 3, 9, 0}));
  EXPECT_EQ(values(polyval({c1}, x)), values(c1));
  EXPECT_EQ(polyval({c0, c1}, x).sizes().vec(), (std::vector<int64_t>{2, 2}));
}

TEST(PolyvalTest, RejectsBadInputsNamingTheProblem) {
  Tensor x = gradgen::zeros({2});
  try {
    polyval(std::vector<Tensor>{}, x);
    ADD_FAILURE() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "polyval: expected at least one coefficient, got an empty list");
  }
  try {
    polyval({gradgen::zeros({2}), gradgen::zeros({3})}, x);
    ADD_FAILURE() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "polyval: expected coeffs[1] of x's shape [2] and dtype Double, got [3] and Double");
  }
}

TEST(PolyvalGradcheckTest, MatchesFiniteDifferencesForOneTwoAndThreeCoefficients) {
  std::string report;
  for (size_t n = 1; n <= 3; ++n) {
    Inputs inputs;
    for (size_t i = 0; i < n; ++i) inputs.push_back(leaf({2, 3}, 10 + i));
    inputs.push_back(leaf({2, 3}, 20));
    EXPECT_TRUE(gradcheck(polyval_of, inputs, 1e-6, 1e-5, 1e-3, &report))
        << n << " coefficients: " << report;
  }
}

TEST(PolyvalGradcheckTest, MatchesFiniteDifferencesWhenOnlySomeInputsRequireGrad) {
  std::string report;
  // Only x.
  EXPECT_TRUE(gradcheck(polyval_of, {gradgen::randn({3}, 1), gradgen::randn({3}, 2), leaf({3}, 3)},
                        1e-6, 1e-5, 1e-3, &report))
      << report;
  // Only the middle coefficient.
  EXPECT_TRUE(gradcheck(polyval_of,
                        {gradgen::randn({3}, 1), leaf({3}, 2), gradgen::randn({3}, 3),
                         gradgen::randn({3}, 4)},
                        1e-6, 1e-5, 1e-3, &report))
      << report;
}

// Runs polyval with n coefficients, then checks each slot of PolyvalBackward0::apply against the
// finite-difference gradient of the input it belongs to, and the .grad each leaf receives. All
// inputs have one shape, so only the values tell the slots apart.
void check_slots(size_t n) {
  SCOPED_TRACE("polyval with " + std::to_string(n) + " coefficients");
  Inputs all;
  for (size_t i = 0; i < n; ++i) all.push_back(leaf({2, 3}, 40 + i));
  all.push_back(leaf({2, 3}, 50));
  const Tensor& x = all.back();
  Tensor y = polyval_of(all);
  ASSERT_EQ(y.grad_fn()->name(), "PolyvalBackward0");
  ASSERT_EQ(y.grad_fn()->num_outputs(), n + 1);

  Tensor go = gradgen::randn({2, 3}, 60);
  gradgen::autograd::variable_list slots = y.grad_fn()->apply({go});
  ASSERT_EQ(slots.size(), n + 1);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(gradgen::allclose(slots[i], numerical_gradient(polyval_of, all, i, go), 1e-6, 1e-6))
        << "slot " << i << " should hold the gradient of coeffs[" << i << "]";
  }
  // The Tensor after the list: slot 2 for two coefficients, slot 3 for three.
  EXPECT_TRUE(gradgen::allclose(slots[n], numerical_gradient(polyval_of, all, n, go), 1e-6, 1e-6))
      << "slot " << n << " should hold the gradient of x";
  EXPECT_FALSE(gradgen::allclose(slots[n], slots[n - 1], 1e-6, 1e-6))
      << "x's and coeffs[n-1]'s gradients should differ for these inputs";

  // Through the engine, each slot reaches its own leaf.
  y.backward(go);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(
        gradgen::allclose(all[i].grad(), numerical_gradient(polyval_of, all, i, go), 1e-6, 1e-6))
        << "coeffs[" << i << "].grad()";
  }
  EXPECT_TRUE(gradgen::allclose(x.grad(), numerical_gradient(polyval_of, all, n, go), 1e-6, 1e-6))
      << "x.grad()";
}

TEST(PolyvalSlotsTest, XIsSlot2WithTwoCoefficientsAndSlot3WithThree) {
  check_slots(2);
  check_slots(3);
}

}  // namespace
}  // namespace custom_op
