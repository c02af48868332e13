// The generated gradient test's in-place and out= checks (csrc/testing/sample_check.h) on
// expm1 and variants of it that break one rule each: every broken one must fail, naming it.
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

}  // namespace
}  // namespace testing
}  // namespace gradgen
