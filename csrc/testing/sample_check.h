// The checks of the generated gradient test (`<name>_gradcheck_test` of an autograd_library with
// test_samples; docs/samples.md). The codegen writes one SampleCase per sample of the samples
// file (a Tensor[] given one shape: one per list length) and a main() that hands each to a
// SampleRunner; the checks themselves are here, written once:
//   - gradcheck: the analytic Jacobian of every float64 output with respect to every input that
//     requires grad against central finite differences (eps 1e-6, |a - n| <= atol + rtol |n|);
//   - gradgradcheck (the same for the first derivatives), fwgradcheck where the declaration has
//     a forward formula (tangents against finite differences and <u, J v> = <J^T u, v>), and
//     where both run hvpcheck (forward-over-reverse);
//   - layout: on inputs laid out as views (transposed, strided, expanded) the values and first
//     gradients are those on contiguous copies;
//   - reentrancy (two backward passes agree) and grad_input_mask (the node asked for one
//     argument's gradient computes only that one, the same values as when asked for all);
//   - history: differentiable outputs get a grad_fn when an input requires grad, the others none;
//   - inplace / out: the in-place variant (on a clone of self) gives the functional values and
//     passes gradcheck; the out= variant writes the functional values.
// A failure is one line naming the op, the sample, the input and the largest difference:
//   polyval sample 2 (coeffs: 3 x [4], x: [4]): d/d x: analytical vs numerical differ at [1]: 0.8
//   vs 1.6
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "csrc/tensor.h"

namespace gradgen {
namespace testing {

/// One tensor of a case, made deterministically from the case's seed.
struct SampleInput {
  // How messages name it: "x", "coeffs[1]".
  std::string label;
  std::vector<int64_t> shape;
  ScalarType dtype = ScalarType::Double;
  // "default" (standard normal), "positive" (in [0.5, 2]), "nonzero" (|v| in [0.5, 2]),
  // "distinct" (spread over [-2, 2], at least 4 / numel apart), "range" (uniform in [lo, hi]).
  std::string domain = "default";
  double lo = 0;
  double hi = 0;
  bool requires_grad = true;
  // How it lies in memory (`layout:`): "contiguous", "transposed" (the last two dims swapped in
  // storage), "strided" (every other element of a buffer twice as long in the last dim) or
  // "expanded" (stride 0 in dim 0: one slice of shape[1:] repeated). The values are those of
  // the contiguous tensor (for "expanded": its first slice, repeated).
  std::string layout = "contiguous";
};

using SampleFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
// The out= variant: writes into `outs` (made like the functional outputs).
using SampleOutFn = std::function<void(const std::vector<Tensor>&, std::vector<Tensor>&)>;

/// One case: an op's sample with its list lengths fixed, and the checks it gets.
struct SampleCase {
  std::string op;     // "add.Tensor"
  int sample = 0;     // 1-based, in the samples file's order
  std::string label;  // "self: [2, 3], other: [3]"
  std::vector<SampleInput> inputs;
  SampleFn fn;       // the functional op on the inputs
  SampleFn inplace;  // its in-place variant on a clone of self, or empty
  std::string inplace_name;
  SampleOutFn out;  // its out= variant, or empty
  std::string out_name;
  // Per output (a Tensor[] result: one for all), whether it is differentiable.
  std::vector<bool> differentiable_outputs;
  bool gradgradcheck = true;
  bool fwgradcheck = false;
  bool history = true;
  std::string skip;  // why the case is not run, or empty
  double atol = 1e-5;
  double rtol = 1e-3;
  // How far two backward passes over one graph may differ (`nondeterministic:` in the samples
  // file); 0: they must agree bitwise, as PyTorch's gradcheck asks by default.
  double nondet_tol = 0.0;
  // The finite differences' step (1e-3 for a float32 case: the op computes in float32).
  double eps = 1e-6;
  // hvpcheck (forward-over-reverse: the tangents of the first derivatives against their finite
  // differences), where fwgradcheck and gradgradcheck run too; `skip_checks: hvpcheck` clears it.
  bool hvpcheck = true;
};

/// A float64 leaf as the float32 tensor a float32 input of a case gives the op (differentiable:
/// gradients flow back to the leaf, through the library's registered `to`).
Tensor as_float32(const Tensor& leaf);
/// The float32 outputs of a float32 case in float64 (differentiable), so that the checks compare
/// float64 Jacobians; other outputs unchanged.
std::vector<Tensor> float64_outputs(std::vector<Tensor> outputs);

/// The `self` a generated in-place call modifies: a clone of `x` (a non-leaf when `x` requires
/// grad), or, while the runner checks the leaf refusal, a fresh leaf that requires grad.
Tensor inplace_self(const Tensor& x);

/// Makes the inputs of `c` (seeded by `seed`), as the runner does.
std::vector<Tensor> make_sample_inputs(const std::vector<SampleInput>& inputs, uint64_t seed);

/// Runs cases, prints one line per case (ok / FAIL / SKIP with the reason) and counts failures.
class SampleRunner {
 public:
  /// Runs every check of `c`; returns the failure message, empty when all pass.
  std::string run(const SampleCase& c);
  /// An op the samples file skips as a whole (`skip: <reason>` without samples).
  void skip_op(const std::string& op, const std::string& reason);
  /// A declaration with formulas and no sample: a failure when `required`, else a note.
  void missing(const std::string& op, const std::string& samples_file, bool required);
  /// Prints the summary; returns main()'s exit status (1 when a check failed).
  int finish() const;

 private:
  int cases_ = 0;
  int failed_ = 0;
  int skipped_ = 0;
  int missing_ = 0;
  uint64_t next_seed_ = 1;
};

}  // namespace testing
}  // namespace gradgen
