// The op sweep: every op declared in specs/native_functions.yaml, checked on the
// samples of its tests/cpp/op_info.cc entry (see op_info.h for what each kind of
// check does), or else by the generated gradient test //csrc:autograd_gradcheck_test
// on its specs/samples.yaml samples (the list $GRADGEN_SAMPLES_COVERAGE names, made by
// tools/codegen/samples_coverage.py: a data dependency). The list of ops comes from the
// YAML file itself (a data dependency of this test), so declaring an op with samples in
// neither place fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/testing/gradcheck.h"
#include "tests/cpp/op_info.h"

namespace gradgen {
namespace testing {
namespace {

std::string runfile(const std::string& path);

std::string native_functions_path() { return runfile("specs/native_functions.yaml"); }

std::string runfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir && workspace) return std::string(srcdir) + "/" + workspace + "/" + path;
  return path;
}

// The declarations the generated gradient test checks on specs/samples.yaml's samples (empty
// when $GRADGEN_SAMPLES_COVERAGE is unset: every op then needs an op_info.cc entry).
const std::set<std::string>& samples_coverage() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    const char* path = std::getenv("GRADGEN_SAMPLES_COVERAGE");
    if (path == nullptr) return out;
    std::ifstream in(runfile(path));
    if (!in)
      throw std::runtime_error(std::string("cannot read $GRADGEN_SAMPLES_COVERAGE: ") + path);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty()) out.insert(line);
    }
    return out;
  }();
  return names;
}

std::vector<std::string> declared() {
  try {
    return declared_ops(native_functions_path());
  } catch (const std::exception&) {
    return {};  // OpSweepCoverageTest reports it
  }
}

// Runs fn with every input detached (no autograd), for reference values.
std::vector<Tensor> run_detached(const OpFn& fn, const Inputs& inputs) {
  autograd::NoGradGuard no_grad;
  Inputs plain;
  for (const Tensor& x : inputs) plain.push_back(x.defined() ? x.detach().clone() : x);
  return fn(plain);
}

bool any_requires_grad(const Inputs& inputs) {
  return std::any_of(inputs.begin(), inputs.end(),
                     [](const Tensor& x) { return x.requires_grad(); });
}

void check_gradients(const OpInfo& info, const Sample& sample, const OpFn& fn) {
  ASSERT_TRUE(any_requires_grad(sample.inputs)) << "a sample must have an input requiring grad";
  std::string report;
  EXPECT_TRUE(gradcheck(fn, sample.inputs, sample.eps, sample.atol, sample.rtol, &report))
      << report;
  if (info.skip_gradgrad.empty()) {
    EXPECT_TRUE(gradgradcheck(fn, sample.inputs, sample.eps, sample.atol, sample.rtol, &report))
        << report;
  }
}

// Forward mode: the tangents of dual inputs against finite differences and reverse mode, and
// (with second derivatives) forward-over-reverse against finite differences of the gradient.
void check_forward(const OpInfo& info, const Sample& sample, const OpFn& fn, bool hvp) {
  std::string report;
  EXPECT_TRUE(fwgradcheck(fn, sample.inputs, sample.eps, sample.atol, sample.rtol, &report))
      << report;
  if (hvp && info.skip_gradgrad.empty()) {
    EXPECT_TRUE(hvpcheck(fn, sample.inputs, sample.eps, sample.atol, sample.rtol, &report))
        << report;
  }
}

// The inputs that require grad made dual (under the caller's dual level), the others as given.
Inputs dual_inputs(const Inputs& inputs) {
  Inputs duals;
  for (const Tensor& x : inputs) {
    duals.push_back(x.defined() && x.requires_grad()
                        ? autograd::forward_ad::make_dual(x.detach(), ones_like(x))
                        : x);
  }
  return duals;
}

// An op without a forward formula refuses dual inputs, naming itself; a composite's refusal
// names the inner op that refused, after the composite's own name (in_composite_op:
// "ctc_loss: forward-mode AD not implemented for _ctc_loss: ...").
void check_forward_not_implemented(const std::string& op, const std::function<void()>& call) {
  try {
    call();
    ADD_FAILURE() << op << " accepted a dual input without a forward formula";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what(), refusal = "forward-mode AD not implemented for ";
    const std::string composite = op.substr(0, op.find('.')) + ": " + refusal;
    EXPECT_TRUE(what.find(refusal + op) != std::string::npos || what.rfind(composite, 0) == 0)
        << what;
  }
}

void check_in_place(const OpInfo& info, const Sample& sample) {
  ASSERT_TRUE(sample.inplace) << "a kInPlace sample needs an in-place function";
  const std::string op = info.name.substr(0, info.name.find('.'));
  // Values match the out-of-place op, and the version counter moves.
  {
    autograd::NoGradGuard no_grad;
    Inputs plain;
    for (const Tensor& x : sample.inputs) plain.push_back(x.detach().clone());
    const Tensor expected = sample.fn(plain)[0];
    Tensor self = plain[0].clone();
    const uint64_t version = self.version();
    sample.inplace(self, plain);
    EXPECT_GT(self.version(), version) << op << " must bump the version counter";
    EXPECT_TRUE(allclose(self, expected, 1e-12, 1e-12)) << self << "\nvs\n" << expected;
  }
  // A leaf that requires grad is refused.
  {
    Tensor self = sample.inputs[0].detach().clone().set_requires_grad(true);
    try {
      sample.inplace(self, sample.inputs);
      ADD_FAILURE() << op << " on a leaf that requires grad did not throw";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()),
                op + ": a leaf Variable that requires grad is being used in an in-place "
                     "operation.");
    }
  }
  // Gradients flow through the rebased history of a non-leaf copy.
  const InPlaceFn inplace = sample.inplace;
  OpFn through_inplace = [inplace](const Inputs& x) {
    Tensor self = clone(x[0]);  // differentiable: a non-leaf when x[0] requires grad
    inplace(self, x);
    return std::vector<Tensor>{self};
  };
  if (any_requires_grad(sample.inputs)) {
    check_gradients(info, sample, through_inplace);
    // The clone's tangent is updated in place.
    check_forward(info, sample, through_inplace, /*hvp=*/false);
    // A self without tangent (a constant: only the other operands vary) gets one.
    const Tensor constant_self = sample.inputs[0].detach().clone();
    OpFn plain_self = [inplace, constant_self](const Inputs& x) {
      Tensor self = constant_self.clone();
      inplace(self, x);
      return std::vector<Tensor>{self};
    };
    if (sample.inputs.size() > 1) check_forward(info, sample, plain_self, /*hvp=*/false);
  }
}

void check_out(const Sample& sample, const std::string& name) {
  ASSERT_TRUE(sample.out) << "a kOut sample needs an out= function";
  const Tensor expected = run_detached(sample.fn, sample.inputs)[0];
  {
    autograd::NoGradGuard no_grad;
    Inputs plain;
    for (const Tensor& x : sample.inputs) plain.push_back(x.detach());
    Tensor out = zeros(expected.sizes(), expected.scalar_type());
    const uint64_t version = out.version();
    Tensor returned = sample.out(plain, out);
    EXPECT_TRUE(returned.is_same(out)) << name << " must return out";
    EXPECT_GT(out.version(), version);
    EXPECT_TRUE(allclose(out, expected, 1e-12, 1e-12)) << out << "\nvs\n" << expected;
  }
  ASSERT_TRUE(any_requires_grad(sample.inputs));
  {
    autograd::NoGradGuard no_grad;
    autograd::forward_ad::dual_level level;
    Tensor dual_out = zeros(expected.sizes(), expected.scalar_type());
    check_forward_not_implemented(name, [&] { sample.out(dual_inputs(sample.inputs), dual_out); });
  }
  Tensor out = zeros(expected.sizes(), expected.scalar_type());
  try {
    sample.out(sample.inputs, out);
    ADD_FAILURE() << name << " accepted inputs that require grad";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(name + ": out= variants do not support automatic "
                                                "differentiation"),
              std::string::npos)
        << e.what();
  }
}

void check_no_derivative(const Sample& sample) {
  ASSERT_TRUE(any_requires_grad(sample.inputs));
  for (const Tensor& out : sample.fn(sample.inputs)) {
    EXPECT_FALSE(out.requires_grad());
    EXPECT_EQ(out.grad_fn(), nullptr);
  }
  autograd::forward_ad::dual_level level;
  for (const Tensor& out : sample.fn(dual_inputs(sample.inputs))) {
    EXPECT_FALSE(autograd::forward_ad::fw_grad(out).defined()) << "an output got a tangent";
  }
}

void check_not_implemented(const Sample& sample) {
  std::vector<Tensor> outs = sample.fn(sample.inputs);
  ASSERT_FALSE(outs.empty());
  ASSERT_TRUE(outs[0].requires_grad());
  try {
    outs[0].backward(ones(outs[0].sizes(), outs[0].scalar_type()));
    ADD_FAILURE() << "backward did not raise";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not implemented"), std::string::npos) << e.what();
  }
}

bool all_zero(const Tensor& t) { return allclose(t, zeros(t.sizes(), t.scalar_type()), 0, 0); }

void check_zero_gradient(const Sample& sample) {
  ASSERT_TRUE(any_requires_grad(sample.inputs));
  std::vector<Tensor> outs = sample.fn(sample.inputs);
  std::vector<Tensor> wrt, grad_outputs;
  for (const Tensor& x : sample.inputs) {
    if (x.requires_grad()) wrt.push_back(x);
  }
  for (const Tensor& out : outs) {
    ASSERT_TRUE(out.requires_grad()) << "a differentiable output has no history";
    grad_outputs.push_back(ones(out.sizes(), out.scalar_type()));
  }
  const std::vector<Tensor> grads = autograd::grad(outs, wrt, grad_outputs, false, false, true);
  for (size_t i = 0; i < wrt.size(); ++i) {
    ASSERT_TRUE(grads[i].defined()) << "input " << i << " got no gradient";
    EXPECT_TRUE(grads[i].sizes().equals(wrt[i].sizes())) << "input " << i;
    EXPECT_TRUE(all_zero(grads[i])) << "input " << i << "'s gradient is not zero: " << grads[i];
  }
  autograd::forward_ad::dual_level level;
  for (const Tensor& out : sample.fn(dual_inputs(sample.inputs))) {
    const Tensor tangent = autograd::forward_ad::fw_grad(out);
    if (tangent.defined()) {
      EXPECT_TRUE(all_zero(tangent)) << "a nonzero tangent: " << tangent;
    }
  }
}

// Ops whose forward mode is checked as not implemented although their OpInfo says kFormula: the
// comma-separated names of $GRADGEN_SWEEP_NO_FORWARD_FORMULA. //tests/pytorch:formulas_test sets it
// for the ops whose PyTorch entry has no forward formula where gradgen's own has one.
bool forward_formula_removed(const std::string& name) {
  const char* list = std::getenv("GRADGEN_SWEEP_NO_FORWARD_FORMULA");
  if (list == nullptr) return false;
  const std::string names = std::string(",") + list + ",";
  return names.find("," + name + ",") != std::string::npos;
}

class OpSweepTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OpSweepTest, ChecksEverySample) {
  const std::string& name = GetParam();
  const OpInfo* registered = find_op_info(name);
  if (registered == nullptr && samples_coverage().count(name)) {
    GTEST_SKIP() << name
                 << " is checked by //csrc:autograd_gradcheck_test on its samples in "
                    "specs/samples.yaml";
  }
  ASSERT_NE(registered, nullptr) << "'" << name
                                 << "' is declared in specs/native_functions.yaml but has no "
                                    "entry in tests/cpp/op_info.cc and no samples in "
                                    "specs/samples.yaml; give it samples";
  OpInfo effective = *registered;
  if (forward_formula_removed(name)) effective.forward = Forward::kNotImplemented;
  const OpInfo* info = &effective;
  const std::vector<Sample> samples = info->samples();
  ASSERT_FALSE(samples.empty()) << name << " has no samples";
  if (!info->skip_gradgrad.empty()) {
    std::cout << "[ SKIPPED  ] gradgradcheck of " << name << ": " << info->skip_gradgrad << "\n";
  }
  for (const Sample& sample : samples) {
    SCOPED_TRACE(name + ": " + sample.name);
    if (info->forward == Forward::kNotImplemented) {
      autograd::NoGradGuard no_grad;
      autograd::forward_ad::dual_level level;
      check_forward_not_implemented(name, [&] { sample.fn(dual_inputs(sample.inputs)); });
    }
    switch (info->check) {
      case Check::kGradient:
        check_gradients(*info, sample, sample.fn);
        if (info->forward == Forward::kFormula) check_forward(*info, sample, sample.fn, true);
        break;
      case Check::kInPlace: check_in_place(*info, sample); break;
      case Check::kOut: check_out(sample, name); break;
      case Check::kNoDerivative: check_no_derivative(sample); break;
      case Check::kNotImplemented: check_not_implemented(sample); break;
      case Check::kZeroGradient: check_zero_gradient(sample); break;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Declared, OpSweepTest, ::testing::ValuesIn(declared()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string id = param.param;
                           std::replace(id.begin(), id.end(), '.', '_');
                           return id;
                         });

TEST(OpSweepCoverageTest, RegistryMatchesTheDeclarations) {
  std::vector<std::string> names;
  ASSERT_NO_THROW(names = declared_ops(native_functions_path()));
  ASSERT_GE(names.size(), 50u) << "expected at least 50 ops in specs/native_functions.yaml";
  const std::set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size()) << "an op is declared twice";
  std::vector<std::string> missing;
  for (const std::string& name : ops_without_samples(names)) {
    if (!samples_coverage().count(name)) missing.push_back(name);
  }
  std::vector<std::string> extra;
  for (const OpInfo& info : op_infos()) {
    if (!unique.count(info.name)) extra.push_back(info.name);
  }
  EXPECT_TRUE(missing.empty()) << "declared without samples in tests/cpp/op_info.cc or "
                                  "specs/samples.yaml: "
                               << ::testing::PrintToString(missing);
  EXPECT_TRUE(extra.empty()) << "samples for ops that are not declared: "
                             << ::testing::PrintToString(extra);
  size_t skipped = 0;
  for (const OpInfo& info : op_infos()) skipped += !info.skip_gradgrad.empty();
  // logcumsumexp; multilabel_margin_loss(_forward), ctc_loss.IntList / .Tensor and
  // _ctc_loss(.Tensor), whose backward kernels PyTorch has no derivative for either.
  EXPECT_LE(skipped, 7u) << "keep the list of ops without second-derivative checks short";
}

TEST(OpSweepCoverageTest, ReadsTheSamplesCoverage) {
  // The generated gradient test's list is read (a data dependency), and names declared ops.
  ASSERT_NE(std::getenv("GRADGEN_SAMPLES_COVERAGE"), nullptr);
  const std::set<std::string>& covered = samples_coverage();
  EXPECT_GE(covered.size(), 250u);
  EXPECT_EQ(covered.count("add.Tensor"), 1u);
  EXPECT_EQ(covered.count("add_.Tensor"), 1u);  // its in-place variant, checked with it
  EXPECT_EQ(covered.count("frobnicate"), 0u);
}

TEST(OpSweepCoverageTest, ReportsADeclaredOpWithoutSamples) {
  // What happens when someone adds `- func: frobnicate(Tensor self) -> Tensor` to the
  // spec and forgets tests/cpp/op_info.cc: the op is reported (and its sweep case fails).
  const std::string path = ::testing::TempDir() + "/native_functions.yaml";
  {
    std::ofstream out(path);
    // Two ops that keep their op_info.cc entries (a random op's samples cannot be YAML's).
    out << "# a comment\n- func: native_dropout(Tensor input, float p, bool? train) -> (Tensor, "
           "Tensor)\n\n"
           "- func: frobnicate(Tensor self) -> Tensor\n  flags: [DONT_PROFILE]\n"
           "- func: bernoulli(Tensor self, *, Generator? generator=None) -> Tensor\n";
  }
  const std::vector<std::string> names = declared_ops(path);
  EXPECT_EQ(names, (std::vector<std::string>{"native_dropout", "frobnicate", "bernoulli"}));
  EXPECT_EQ(ops_without_samples(names), std::vector<std::string>{"frobnicate"});
  EXPECT_THROW(declared_ops(path + ".missing"), std::runtime_error);
}

}  // namespace
}  // namespace testing
}  // namespace gradgen
