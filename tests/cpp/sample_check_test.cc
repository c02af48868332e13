// The generated gradient test's in-place, out=, layout and float32 checks
// (csrc/testing/sample_check.h) on expm1 and variants of it that break one rule each: every
// broken one must fail, naming it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/testing/sample_check.h"

namespace gradgen {
namespace testing {
namespace {

// Whether `message` (a failure runner.run returned) says `what`.
::testing::AssertionResult Says(const std::string& message, const std::string& what) {
  if (message.find(what) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "the failure '" << message << "' does not say '" << what << "'";
}

SampleCase expm1_case() {
  SampleCase c;
  c.op = "expm1";
  c.sample = 1;
  c.label = "self: [2, 3]";
  SampleInput self;
  self.label = "self";
  self.shape = {2, 3};
  c.inputs = {self};
  c.fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{expm1(in[0])}; };
  c.differentiable_outputs = {true};
  c.fwgradcheck = true;
  c.inplace_name = "expm1_";
  c.out_name = "expm1_out";
  return c;
}

SampleFn the_inplace_variant() {
  return [](const std::vector<Tensor>& in) {
    Tensor self = inplace_self(in[0]);
    expm1_(self);
    return std::vector<Tensor>{self};
  };
}

SampleOutFn the_out_variant() {
  return
      [](const std::vector<Tensor>& in, std::vector<Tensor>& outs) { expm1_out(in[0], outs[0]); };
}

TEST(SampleCheckTest, TheRealVariantsPass) {
  SampleCase c = expm1_case();
  c.inplace = the_inplace_variant();
  c.out = the_out_variant();
  SampleRunner runner;
  EXPECT_EQ(runner.run(c), "");
}

TEST(SampleCheckTest, AnInPlaceVariantThatLeavesSelfAloneFails) {
  // The right values and gradients, but self is never written: its version does not move.
  SampleCase c = expm1_case();
  c.inplace = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{expm1(inplace_self(in[0]))};
  };
  SampleRunner runner;
  EXPECT_TRUE(Says(runner.run(c), "expm1_ (in-place) did not bump the version counter of self"));
}

TEST(SampleCheckTest, AnInPlaceVariantThatAcceptsALeafRequiringGradFails) {
  SampleCase c = expm1_case();
  c.inplace = [](const std::vector<Tensor>& in) {
    Tensor self = inplace_self(in[0]);
    if (self.is_leaf() && self.requires_grad()) {
      // No refusal: the values of a fresh tensor, and self's version bumped by hand.
      Tensor r = expm1(self);
      r.bump_version();
      return std::vector<Tensor>{r};
    }
    expm1_(self);
    return std::vector<Tensor>{self};
  };
  SampleRunner runner;
  EXPECT_TRUE(Says(runner.run(c),
                   "expm1_ (in-place) on a leaf that requires grad did not throw (expected: "
                   "expm1_: a leaf Variable that requires grad is being used in an in-place "
                   "operation.)"));
}

TEST(SampleCheckTest, AnOutVariantThatAcceptsInputsRequiringGradFails) {
  SampleCase c = expm1_case();
  c.out = [](const std::vector<Tensor>& in, std::vector<Tensor>& outs) {
    autograd::NoGradGuard no_grad;
    expm1_out(in[0].detach(), outs[0]);
  };
  SampleRunner runner;
  EXPECT_TRUE(Says(runner.run(c),
                   "expm1_out (out=) on inputs that require grad did not "
                   "throw (expected: : out= variants do not support automatic "
                   "differentiation)"));
}

SampleCase laid_out_case(const std::string& layout) {
  SampleCase c = expm1_case();
  c.inputs[0].layout = layout;
  c.label = "self: [2, 3] " + layout;
  return c;
}

TEST(SampleCheckTest, InputsAreLaidOutWithTheContiguousValues) {
  SampleInput in;
  in.label = "self";
  in.shape = {2, 3};
  const Tensor plain = make_sample_inputs({in}, 7)[0];
  in.layout = "transposed";
  const Tensor transposed = make_sample_inputs({in}, 7)[0];
  in.layout = "strided";
  const Tensor strided = make_sample_inputs({in}, 7)[0];
  in.layout = "expanded";
  const Tensor expanded = make_sample_inputs({in}, 7)[0];
  EXPECT_EQ(std::vector<int64_t>(transposed.strides().begin(), transposed.strides().end()),
            (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(std::vector<int64_t>(strided.strides().begin(), strided.strides().end()),
            (std::vector<int64_t>{6, 2}));
  EXPECT_EQ(std::vector<int64_t>(expanded.strides().begin(), expanded.strides().end()),
            (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(transposed.requires_grad() && transposed.is_leaf());
  EXPECT_TRUE(allclose(transposed.contiguous(), plain.detach(), 0, 0));
  EXPECT_TRUE(allclose(strided.contiguous(), plain.detach(), 0, 0));
  // Expanded: the first row, repeated.
  EXPECT_TRUE(allclose(select(expanded.contiguous(), 0, 1), select(plain.detach(), 0, 0), 0, 0));
}

TEST(SampleCheckTest, EveryLayoutPassesWithTheRealOp) {
  for (const std::string layout : {"transposed", "strided", "expanded"}) {
    SampleCase c = laid_out_case(layout);
    c.inplace = the_inplace_variant();
    c.out = the_out_variant();
    SampleRunner runner;
    EXPECT_EQ(runner.run(c), "") << layout;
  }
}

TEST(SampleCheckTest, AnOpWithAWrongStridedPathFailsTheLayoutCheck) {
  // Differentiable, right on contiguous inputs, twice too large on any other: gradcheck alone
  // would pass it (its finite differences see the same wrong function).
  for (const std::string layout : {"transposed", "strided", "expanded"}) {
    SampleCase c = laid_out_case(layout);
    c.fn = [](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{mul(expm1(in[0]), in[0].is_contiguous() ? 1.0 : 2.0)};
    };
    SampleRunner runner;
    EXPECT_TRUE(Says(runner.run(c),
                     "layout: output 0 differs from the one computed on contiguous copies of the "
                     "inputs"))
        << layout;
  }
}

TEST(SampleCheckTest, AFloat32CaseNeedsItsLargerStep) {
  // expm1's float32 kernel between float64 conversions: gradcheck passes with the float32 step
  // and tolerances the codegen gives a float32 case, and fails with float64's (rounding / 1e-6).
  SampleCase c = expm1_case();
  c.label = "self: [2, 3] float32";
  c.fn = [](const std::vector<Tensor>& in) { return float64_outputs({expm1(as_float32(in[0]))}); };
  c.eps = 1e-3;
  c.atol = 1e-3;
  c.rtol = 1e-2;
  SampleRunner runner;
  EXPECT_EQ(runner.run(c), "");
  EXPECT_EQ(c.fn(make_sample_inputs(c.inputs, 1))[0].scalar_type(), ScalarType::Double);
  c.eps = 1e-6;
  c.atol = 1e-5;
  c.rtol = 1e-3;
  EXPECT_TRUE(Says(runner.run(c), "d/d self: analytical vs numerical differ"));
}

}  // namespace
}  // namespace testing
}  // namespace gradgen
