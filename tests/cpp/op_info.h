// The op-info registry: for every op declared in specs/native_functions.yaml, how
// to call it (sample inputs of several shapes, broadcasting cases, optional
// arguments absent and present, lists of different lengths) and how to check it.
//
// //tests/cpp:op_sweep_test reads the declared op names from the YAML file
// itself and, for each, looks its entry up here: an op without one fails the
// sweep, unless the generated gradient test checks it on its specs/samples.yaml
// samples (then it has no entry here; op_info.cc's first comment says what stays).
// Checks by kind:
//   kGradient        gradcheck (first derivatives against finite differences, in
//                    float64) and gradgradcheck (second derivatives) on every sample;
//   kInPlace         the in-place result equals the out-of-place one, the version
//                    counter moves, a leaf that requires grad is refused with
//                    PyTorch's message, and gradients flow through the rebased
//                    history of a non-leaf (gradcheck and gradgradcheck);
//   kOut             the out= result equals the out-of-place one, and inputs that
//                    require grad are refused;
//   kNoDerivative    (DONT_REQUIRE_DERIVATIVE) outputs have no grad_fn even when
//                    the inputs require grad;
//   kNotImplemented  the forward works; backward raises "... not implemented".
//   kZeroGradient    a sampler whose derivative PyTorch defines as zero (normal, bernoulli,
//                    uniform_, ...): outputs have history, backward gives zeros of each input's
//                    shape (finite differences would see the noise move with the inputs, so
//                    gradcheck cannot apply), and a dual input gives a zero tangent or none.
// An op whose second derivative is not implemented says so in skip_gradgrad, with
// the reason; the sweep prints every skip.
//
// Forward mode, by `forward`:
//   kFormula         (kGradient, kInPlace) fwgradcheck on every sample: the tangents of dual
//                    inputs give J v, checked against finite differences and against
//                    reverse mode (<u, J v> == <J^T u, v>); for kGradient ops also
//                    hvpcheck (forward-over-reverse against finite differences of the
//                    gradient) unless skip_gradgrad is set. kOut: a dual input is refused;
//                    kNoDerivative: outputs get no tangent.
//   kNotImplemented  a dual input raises "forward-mode AD not implemented for <op>".
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "csrc/tensor.h"

namespace gradgen {
namespace testing {

using Inputs = std::vector<Tensor>;
/// Computes an op's outputs from a sample's inputs.
using OpFn = std::function<std::vector<Tensor>(const Inputs&)>;
/// Applies an in-place op to `self`, with the other operands from a sample's inputs.
using InPlaceFn = std::function<void(Tensor& self, const Inputs&)>;
/// Runs an out= variant writing into `out`; returns what the op returned.
using OutFn = std::function<Tensor(const Inputs&, Tensor& out)>;

enum class Check { kGradient, kInPlace, kOut, kNoDerivative, kNotImplemented, kZeroGradient };
enum class Forward { kFormula, kNotImplemented };

/// One way to call an op.
struct Sample {
  /// Says what the sample covers: "broadcast [2, 3] with [3]".
  std::string name;
  /// The inputs; those that require grad are the ones gradients are checked for.
  Inputs inputs;
  /// The op's outputs (for kInPlace and kOut: the out-of-place reference).
  OpFn fn;
  /// kInPlace: the in-place op; inputs[0] is the tensor it modifies.
  InPlaceFn inplace;
  /// kOut: the out= variant.
  OutFn out;
  /// Finite-difference step and tolerances (looser for samples computing in float32).
  double eps = 1e-6, atol = 1e-5, rtol = 1e-3;
};

struct OpInfo {
  /// The op as declared: "add.Tensor", "mm".
  std::string name;
  Check check = Check::kGradient;
  /// Builds the samples (lazily, so that a failing sample fails its own test).
  std::function<std::vector<Sample>()> samples;
  /// Non-empty: gradgradcheck is skipped, for this reason.
  std::string skip_gradgrad;
  /// How forward mode is checked (see the top of this file).
  Forward forward = Forward::kFormula;
};

/// Returns every registered op, in the order of specs/native_functions.yaml.
const std::vector<OpInfo>& op_infos();

/// Returns the registered op called `name`, or null.
const OpInfo* find_op_info(const std::string& name);

/// Returns the ops of `declared` that have no registry entry (or an entry with no
/// samples), in order: what the sweep reports as failures.
std::vector<std::string> ops_without_samples(const std::vector<std::string>& declared);

/// Returns the names of the ops declared in a native_functions.yaml file (the text
/// between `- func: ` and `(`), in file order; throws if the file cannot be read.
std::vector<std::string> declared_ops(const std::string& path);

}  // namespace testing
}  // namespace gradgen
