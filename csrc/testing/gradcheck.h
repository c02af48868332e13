// gradcheck: compares analytic gradients with central finite differences.
//
// The analytic Jacobian of fn at `inputs` is built row by row with
// autograd::grad (one call per output element, with a one-hot grad_output); the
// numerical one perturbs each input element by +-eps and evaluates fn again
// (under NoGradGuard). They must agree within |a - n| <= atol + rtol * |n|.
// Inputs that do not require grad are held fixed and not checked. Inputs that
// require grad must be float64.
//
//   std::string report;
//   bool ok = gradcheck([](const std::vector<Tensor>& x) { return mm(x[0], x[1]); },
//                       {randn({2, 3}, 0).set_requires_grad(true),
//                        randn({3, 4}, 1).set_requires_grad(true)},
//                       1e-6, 1e-5, 1e-3, &report);
//   EXPECT_TRUE(ok) << report;
//
// On failure the report names the output, the input, the element of each (flat
// index and multi-index), and both values; only the first mismatch is reported.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "csrc/tensor.h"

namespace gradgen {
namespace testing {

/// Checks the gradients of a function returning one tensor.
bool gradcheck(std::function<Tensor(const std::vector<Tensor>&)> fn, std::vector<Tensor> inputs,
               double eps = 1e-6, double atol = 1e-5, double rtol = 1e-3,
               std::string* report = nullptr);

/// Checks the gradients of a function returning several tensors (each output's
/// Jacobian is checked; undefined, integer and boolean outputs are skipped).
bool gradcheck(std::function<std::vector<Tensor>(const std::vector<Tensor>&)> fn,
               std::vector<Tensor> inputs, double eps = 1e-6, double atol = 1e-5,
               double rtol = 1e-3, std::string* report = nullptr);

/// The largest disagreement between the analytic and the numerical Jacobian that gradcheck would
/// find (gradcheck reports the first one instead): output `output`, input `input`, at the
/// elements `output_element` / `input_element` (flat, row-major; the multi-indexes in
/// `output_index` / `input_index`, "[1, 0]").
struct JacobianMismatch {
  bool found = false;
  size_t output = 0;
  size_t input = 0;
  int64_t output_element = 0;
  int64_t input_element = 0;
  std::string output_index;
  std::string input_index;
  double analytical = 0;
  double numerical = 0;
};

/// Compares the Jacobians as gradcheck does, checking every element of the first (output,
/// input) pair that disagrees and returning its largest |analytical - numerical| (found false:
/// all agree within atol + rtol * |numerical|).
JacobianMismatch jacobian_mismatch(
    const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& fn,
    const std::vector<Tensor>& inputs, double eps = 1e-6, double atol = 1e-5, double rtol = 1e-3);

/// Returns the gradient of sum(grad_output * fn(inputs)) with respect to
/// inputs[index], by central finite differences (evaluated under NoGradGuard).
/// inputs[index] must be float64; its data is perturbed and restored.
Tensor numerical_gradient(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                          const std::vector<Tensor>& inputs, size_t index,
                          const Tensor& grad_output, double eps = 1e-6);

/// Checks second derivatives: runs gradcheck on the function
/// (inputs, grad_outputs) -> grad(fn(inputs), inputs, grad_outputs, create_graph=true)
/// with random grad_outputs (seeded, requiring grad). Inputs that do not require
/// grad are held fixed.
bool gradgradcheck(std::function<Tensor(const std::vector<Tensor>&)> fn, std::vector<Tensor> inputs,
                   double eps = 1e-6, double atol = 1e-5, double rtol = 1e-3,
                   std::string* report = nullptr);

/// Checks second derivatives of a function returning several tensors: each
/// float64 output gets its own random grad_output (integer and boolean outputs,
/// such as indices and masks, get none).
bool gradgradcheck(std::function<std::vector<Tensor>(const std::vector<Tensor>&)> fn,
                   std::vector<Tensor> inputs, double eps = 1e-6, double atol = 1e-5,
                   double rtol = 1e-3, std::string* report = nullptr);

/// Checks forward-mode derivatives (Jacobian-vector products). The inputs that require grad
/// (float64) get seeded random tangents v; fn runs on their dual tensors (forward_ad::make_dual,
/// under NoGradGuard: forward mode alone) and each float64 output's tangent J v must match
///   - central finite differences along v: (fn(x + eps v) - fn(x - eps v)) / (2 eps), element by
///     element within atol + rtol * |numerical|, and
///   - reverse mode: <u, J v> == sum_i <J_i^T u, v_i> for a seeded random u per output, with
///     J^T u from autograd::grad (within atol * numel + rtol * |<u, J v>|).
/// An output without a tangent counts as zeros. Opens (and closes) a dual level itself.
bool fwgradcheck(std::function<std::vector<Tensor>(const std::vector<Tensor>&)> fn,
                 std::vector<Tensor> inputs, double eps = 1e-6, double atol = 1e-5,
                 double rtol = 1e-3, std::string* report = nullptr);
bool fwgradcheck(std::function<Tensor(const std::vector<Tensor>&)> fn, std::vector<Tensor> inputs,
                 double eps = 1e-6, double atol = 1e-5, double rtol = 1e-3,
                 std::string* report = nullptr);

/// Checks forward-over-reverse (Hessian-vector products): with g(x) = grad(sum_k <u_k, fn(x)_k>,
/// x, create_graph=true) for seeded random u, the tangent forward mode gives g when the inputs
/// that require grad are dual with tangents v must match (g(x + eps v) - g(x - eps v)) / (2 eps).
/// For a scalar fn and u = 1 that tangent is H v.
bool hvpcheck(std::function<std::vector<Tensor>(const std::vector<Tensor>&)> fn,
              std::vector<Tensor> inputs, double eps = 1e-6, double atol = 1e-5, double rtol = 1e-3,
              std::string* report = nullptr);

/// PyTorch gradcheck's reentrancy check: the analytic Jacobian of every float64 output, taken
/// twice from one forward pass (one backward per output element each time), must agree within
/// `nondet_tol` (0: bitwise). The largest difference beyond it, as a JacobianMismatch whose
/// `analytical` and `numerical` hold the first and the second run's values.
JacobianMismatch reentrancy_mismatch(
    const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& fn,
    const std::vector<Tensor>& inputs, double nondet_tol = 0.0);

}  // namespace testing
}  // namespace gradgen
