// Tests for the five skeleton ops (mm, t, narrow, cat, lincomb) end to end:
// kernels, generated nodes, formula helpers and the engine. Every gradient is
// compared with central finite differences (csrc/testing/gradcheck.h).
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/core_kernels.h"
#include "csrc/generated/Functions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"
#include "csrc/testing/gradcheck.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

using test_util::leaf;
using test_util::values;

using autograd::variable_list;
using testing::gradcheck;
using testing::gradgradcheck;
using testing::numerical_gradient;
using Inputs = std::vector<Tensor>;

// ---------------------------------------------------------------------------
// Forward values and kernel errors
// ---------------------------------------------------------------------------

TEST(SkeletonKernelsTest, ComputeTheExpectedValues) {
  Tensor a = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor b = tensor({1, 0, 0, 1, 1, 1}, {3, 2});
  EXPECT_EQ(values(mm(a, b)), (std::vector<double>{4, 5, 10, 11}));
  EXPECT_EQ(values(t(a)), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(t(a).sizes().vec(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values(t(tensor({1, 2}))), (std::vector<double>{1, 2}));
  EXPECT_EQ(values(narrow(a, 1, 1, 2)), (std::vector<double>{2, 3, 5, 6}));
  EXPECT_EQ(values(narrow(a, -1, -1, 1)), (std::vector<double>{3, 6}));
  EXPECT_EQ(values(cat({a, a}, 0)), (std::vector<double>{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values(cat({a, narrow(a, 1, 0, 1)}, 1)), (std::vector<double>{1, 2, 3, 1, 4, 5, 6, 4}));
  EXPECT_EQ(values(lincomb({a, a}, tensor({2, -1}))), values(a));
}

TEST(SkeletonKernelsTest, AcceptStridedInputs) {
  // The transpose of m as a strided view (no copy): [[1, 4], [2, 5], [3, 6]].
  Tensor m = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor mt = internal::as_strided(m, {3, 2}, {1, 3}, 0);
  ASSERT_FALSE(mt.is_contiguous());
  EXPECT_EQ(values(mm(m, mt)), (std::vector<double>{14, 32, 32, 77}));
  EXPECT_EQ(values(t(mt)), values(m));
  EXPECT_EQ(values(narrow(mt, 0, 1, 2)), (std::vector<double>{2, 5, 3, 6}));
  EXPECT_EQ(values(cat({mt, mt}, 1)), (std::vector<double>{1, 4, 1, 4, 2, 5, 2, 5, 3, 6, 3, 6}));
  EXPECT_EQ(values(lincomb({mt}, tensor({2}))), (std::vector<double>{2, 8, 4, 10, 6, 12}));
}

TEST(SkeletonKernelsTest, ReportShapeErrorsNamingTheOpAndShapes) {
  EXPECT_THROW_MESSAGE(mm(zeros({2, 3}), zeros({4, 5})), std::invalid_argument,
                       "mm: expected self of shape [a, b] and mat2 of shape [b, c], got [2, 3] and "
                       "[4, 5]");
  EXPECT_THROW_MESSAGE(mm(zeros({3}), zeros({3, 1})), std::invalid_argument,
                       "mm: expected self of shape [a, b] and mat2 of shape [b, c], got [3] and "
                       "[3, 1]");
  EXPECT_THROW_MESSAGE(mm(zeros({1, 1}), zeros({1, 1}, ScalarType::Float)), std::invalid_argument,
                       "mm: expected self and mat2 to have the same dtype, got Double and Float");
  EXPECT_THROW_MESSAGE(t(zeros({2, 3, 4})), std::invalid_argument,
                       "t: expected a tensor with at most 2 dims, got shape [2, 3, 4]");
  EXPECT_THROW_MESSAGE(narrow(zeros({2, 3}), 1, 2, 2), std::invalid_argument,
                       "narrow: expected 0 <= start <= start + length <= 3 for dim 1 of self of "
                       "shape [2, 3], got start 2 and length 2");
  EXPECT_THROW_MESSAGE(
      narrow(zeros({2, 3}), 2, 0, 1), std::invalid_argument,
      "narrow: dim 2 out of range for a tensor with 2 dims (expected -2 <= dim < 2)");
  EXPECT_THROW_MESSAGE(cat({zeros({2, 3}), zeros({3, 4})}, 1), std::invalid_argument,
                       "cat: expected tensors[1] to match the shape of tensors[0], [2, 3], except "
                       "in dim 1, got [3, 4]");
  EXPECT_THROW_MESSAGE(cat(std::vector<Tensor>{}, 0), std::invalid_argument,
                       "cat: expected a non-empty list of tensors");
  EXPECT_THROW_MESSAGE(lincomb({zeros({2}), zeros({2})}, zeros({3})), std::invalid_argument,
                       "lincomb: expected coeffs of shape [2] (one per tensor), got [3]");
  EXPECT_THROW_MESSAGE(lincomb({zeros({2}), zeros({3})}, zeros({2})), std::invalid_argument,
                       "lincomb: expected all tensors to have the shape of tensors[0], [2], but "
                       "tensors[1] has shape [3]");
}

// ---------------------------------------------------------------------------
// Gradients against finite differences
// ---------------------------------------------------------------------------

TEST(SkeletonGradcheckTest, Mm) {
  std::string report;
  auto f = [](const Inputs& x) { return mm(x[0], x[1]); };
  EXPECT_TRUE(gradcheck(f, {leaf({2, 3}, 0), leaf({3, 4}, 1)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(gradcheck(f, {leaf({1, 1}, 2), leaf({1, 5}, 3)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  // Only one side requires grad.
  EXPECT_TRUE(gradcheck(f, {leaf({2, 3}, 4), randn({3, 2}, 5)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(gradcheck(f, {randn({2, 3}, 4), leaf({3, 2}, 5)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
}

TEST(SkeletonGradcheckTest, T) {
  std::string report;
  auto f = [](const Inputs& x) { return t(x[0]); };
  EXPECT_TRUE(gradcheck(f, {leaf({2, 3}, 0)}, 1e-6, 1e-5, 1e-3, &report)) << report;
  EXPECT_TRUE(gradcheck(f, {leaf({4}, 1)}, 1e-6, 1e-5, 1e-3, &report)) << report;
  // Composition: d/dx of t(mm(x, t(x))).
  auto g = [](const Inputs& x) { return t(mm(x[0], t(x[0]))); };
  EXPECT_TRUE(gradcheck(g, {leaf({3, 2}, 2)}, 1e-6, 1e-5, 1e-3, &report)) << report;
}

TEST(SkeletonGradcheckTest, Narrow) {
  std::string report;
  for (int64_t dim : {0, 1, -1}) {
    for (auto [start, length] : {std::pair<int64_t, int64_t>{0, 1}, {1, 2}, {-2, 2}, {0, 3}}) {
      auto f = [=](const Inputs& x) { return narrow(x[0], dim, start, length); };
      EXPECT_TRUE(gradcheck(f, {leaf({3, 3}, 0)}, 1e-6, 1e-5, 1e-3, &report))
          << "dim " << dim << " start " << start << " length " << length << ": " << report;
    }
  }
}

TEST(SkeletonGradcheckTest, CatOfOneTwoAndThreeTensorsInDims0And1) {
  std::string report;
  for (int64_t dim : {0, 1}) {
    for (size_t n = 1; n <= 3; ++n) {
      Inputs inputs;
      for (size_t i = 0; i < n; ++i) {
        // Different sizes along `dim` so that each slot's gradient has its own shape.
        std::vector<int64_t> sizes = {2, 2};
        sizes[dim] = static_cast<int64_t>(i) + 1;
        inputs.push_back(leaf(sizes, 10 + i));
      }
      auto f = [dim](const Inputs& x) { return cat(x, dim); };
      EXPECT_TRUE(gradcheck(f, inputs, 1e-6, 1e-5, 1e-3, &report))
          << n << " tensors, dim " << dim << ": " << report;
    }
  }
  // A list mixing tensors that do and do not require grad.
  auto f = [](const Inputs& x) { return cat(x, 0); };
  EXPECT_TRUE(gradcheck(f, {randn({1, 2}, 1), leaf({2, 2}, 2), randn({1, 2}, 3)}, 1e-6, 1e-5, 1e-3,
                        &report))
      << report;
}

TEST(SkeletonGradcheckTest, Lincomb) {
  std::string report;
  for (size_t n = 1; n <= 3; ++n) {
    Inputs inputs;
    for (size_t i = 0; i < n; ++i) inputs.push_back(leaf({2, 3}, 20 + i));
    inputs.push_back(leaf({static_cast<int64_t>(n)}, 30));
    auto f = [n](const Inputs& x) { return lincomb(TensorList(x.data(), n), x[n]); };
    EXPECT_TRUE(gradcheck(f, inputs, 1e-6, 1e-5, 1e-3, &report)) << n << " tensors: " << report;
  }
}

TEST(SkeletonGradcheckTest, ReportsAWrongGradient) {
  // A deliberately broken function: the forward scales by 2 but the graph only
  // knows t (factor 1).
  auto broken = [](const Inputs& x) {
    Tensor y = t(x[0]);
    if (!autograd::GradMode::is_enabled()) y = internal::add(y, y);  // doubles the values
    return y;
  };
  std::string report;
  EXPECT_FALSE(
      gradcheck(broken, {tensor({1.0, 2.0}).set_requires_grad(true)}, 1e-6, 1e-5, 1e-3, &report));
  EXPECT_EQ(report,
            "gradcheck: Jacobian mismatch for output 0 with respect to input 0 (shape [2]) at "
            "input element 0 [0] and output element 0 [0]: numerical 2, analytical 1");
}

// ---------------------------------------------------------------------------
// Double backward (create_graph) against finite differences
// ---------------------------------------------------------------------------

TEST(SkeletonGradgradcheckTest, MmTNarrowCatAndLincombTensors) {
  std::string report;
  EXPECT_TRUE(gradgradcheck([](const Inputs& x) { return mm(x[0], x[1]); },
                            {leaf({2, 3}, 0), leaf({3, 2}, 1)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(gradgradcheck([](const Inputs& x) { return mm(x[0], t(x[0])); }, {leaf({2, 3}, 2)},
                            1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(gradgradcheck([](const Inputs& x) { return narrow(mm(x[0], x[0]), 1, 1, 2); },
                            {leaf({3, 3}, 3)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  EXPECT_TRUE(gradgradcheck(
      [](const Inputs& x) {
        return cat({mm(x[0], x[1]), x[0]}, 0);
      },
      {leaf({2, 2}, 4), leaf({2, 2}, 5)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
  // lincomb's tensors formula is differentiable (coeffs held fixed here).
  EXPECT_TRUE(gradgradcheck(
      [](const Inputs& x) {
        return lincomb({mm(x[0], x[0]), x[0]}, x[1]);
      },
      {leaf({2, 2}, 6), randn({2}, 7)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
}

TEST(SkeletonGradgradcheckTest, LincombIsTwiceDifferentiableInTensorsAndCoeffs) {
  // lincomb_coeffs_backward is written with differentiable ops (sum, mul, cat).
  std::string report;
  EXPECT_TRUE(gradgradcheck(
      [](const Inputs& x) {
        return lincomb({x[0], x[1]}, x[2]);
      },
      {leaf({2, 2}, 0), leaf({2, 2}, 1), leaf({2}, 2)}, 1e-6, 1e-5, 1e-3, &report))
      << report;
}

// ---------------------------------------------------------------------------
// Index ranges: which slot of apply()'s result belongs to which input
// ---------------------------------------------------------------------------

// Runs lincomb(tensors, coeffs) with n list elements, then checks the slots of
// LincombBackward0::apply on a ones gradient and the .grad each leaf receives.
void check_lincomb_slots(size_t n) {
  SCOPED_TRACE("lincomb with " + std::to_string(n) + " tensors");
  Inputs tensors;
  for (size_t i = 0; i < n; ++i) tensors.push_back(leaf({2, 3}, 40 + i));
  Tensor coeffs = leaf({static_cast<int64_t>(n)}, 50);
  Tensor y = lincomb(tensors, coeffs);
  ASSERT_EQ(y.grad_fn()->name(), "LincombBackward0");
  ASSERT_EQ(y.grad_fn()->num_outputs(), n + 1);

  Inputs all = tensors;
  all.push_back(coeffs);
  auto f = [n](const Inputs& x) { return lincomb(TensorList(x.data(), n), x[n]); };
  Tensor go = ones({2, 3});

  variable_list grad_inputs = y.grad_fn()->apply({go});
  ASSERT_EQ(grad_inputs.size(), n + 1);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(grad_inputs[i].sizes().vec(), (std::vector<int64_t>{2, 3})) << "slot " << i;
    EXPECT_TRUE(allclose(grad_inputs[i], numerical_gradient(f, all, i, go), 1e-6, 1e-6))
        << "slot " << i << " should hold the gradient of tensors[" << i << "]";
  }
  // The last slot, n (2 for two tensors, 3 for three), is coeffs' gradient.
  EXPECT_EQ(grad_inputs[n].sizes().vec(), (std::vector<int64_t>{static_cast<int64_t>(n)}));
  EXPECT_TRUE(allclose(grad_inputs[n], numerical_gradient(f, all, n, go), 1e-6, 1e-6));

  // Through the engine, each slot reaches its own leaf.
  y.backward(go);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(allclose(tensors[i].grad(), numerical_gradient(f, all, i, go), 1e-6, 1e-6))
        << "tensors[" << i << "].grad()";
  }
  EXPECT_TRUE(allclose(coeffs.grad(), numerical_gradient(f, all, n, go), 1e-6, 1e-6))
      << "coeffs.grad()";
}

TEST(IndexRangeSlotsTest, LincombCoeffsIsSlot2WithTwoTensorsAndSlot3WithThree) {
  check_lincomb_slots(2);
  check_lincomb_slots(3);
}

TEST(IndexRangeSlotsTest, CatGivesEachListElementItsOwnSlot) {
  Tensor a = leaf({1, 2}, 0), b = leaf({2, 2}, 1), c = leaf({3, 2}, 2);
  Tensor y = cat({a, b, c}, 0);
  variable_list grad_inputs = y.grad_fn()->apply({randn({6, 2}, 3)});
  ASSERT_EQ(grad_inputs.size(), 3u);
  EXPECT_EQ(grad_inputs[0].size(0), 1);
  EXPECT_EQ(grad_inputs[1].size(0), 2);
  EXPECT_EQ(grad_inputs[2].size(0), 3);
}

// ---------------------------------------------------------------------------
// should_compute_output skips the work for inputs that need no gradient
// ---------------------------------------------------------------------------

std::map<std::string, int>* g_op_counts = nullptr;
void count_ops(const char* op, bool enter) {
  if (enter) ++(*g_op_counts)[op];
}

// Counts the ops the backward of mm(a, b) runs.
std::map<std::string, int> ops_in_mm_backward(bool a_requires_grad, bool b_requires_grad) {
  Tensor a = randn({2, 3}, 0).set_requires_grad(a_requires_grad);
  Tensor b = randn({3, 2}, 1).set_requires_grad(b_requires_grad);
  Tensor y = mm(a, b);
  std::map<std::string, int> counts;
  g_op_counts = &counts;
  autograd::profiler::set_callback(count_ops);
  y.backward(ones({2, 2}));
  autograd::profiler::set_callback(nullptr);
  return counts;
}

TEST(ShouldComputeOutputTest, SkipsFormulasForInputsThatNeedNoGradient) {
  EXPECT_EQ(ops_in_mm_backward(true, false), (std::map<std::string, int>{{"mm", 1}, {"t", 1}}));
  EXPECT_EQ(ops_in_mm_backward(false, true), (std::map<std::string, int>{{"mm", 1}, {"t", 1}}));
  EXPECT_EQ(ops_in_mm_backward(true, true), (std::map<std::string, int>{{"mm", 2}, {"t", 2}}));

  Tensor a = leaf({2, 3}, 0);
  Tensor b = randn({3, 2}, 1);
  Tensor y = mm(a, b);
  variable_list grad_inputs = y.grad_fn()->apply({ones({2, 2})});
  ASSERT_EQ(grad_inputs.size(), 2u);
  EXPECT_TRUE(grad_inputs[0].defined());
  EXPECT_FALSE(grad_inputs[1].defined()) << "mat2 needs no gradient: its slot stays undefined";
}

TEST(ShouldComputeOutputTest, UndefinedIncomingGradientsGiveUndefinedSlots) {
  Tensor a = leaf({2, 3}, 0);
  Tensor y = cat({a, a}, 0);
  variable_list grad_inputs = y.grad_fn()->apply({Tensor()});
  ASSERT_EQ(grad_inputs.size(), 2u);
  EXPECT_FALSE(grad_inputs[0].defined());
  EXPECT_FALSE(grad_inputs[1].defined());
}

}  // namespace
}  // namespace gradgen
