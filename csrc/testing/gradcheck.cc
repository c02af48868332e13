#include "csrc/testing/gradcheck.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"

namespace gradgen {
namespace testing {

namespace {

using autograd::variable_list;

// Returns a pointer to the flat (row-major) element `index` of t, which may be strided.
double* element_ptr(const Tensor& t, int64_t index) {
  double* base = t.data_ptr<double>();
  int64_t offset = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    const int64_t size = t.size(d);
    offset += (index % size) * t.stride(d);
    index /= size;
  }
  return base + offset;
}

double element(const Tensor& t, int64_t index) { return *element_ptr(t, index); }

// "[1, 0]": the multi-index of flat element `index` in a tensor of shape `sizes`.
std::string multi_index(IntArrayRef sizes, int64_t index) {
  std::vector<int64_t> idx(sizes.size());
  for (size_t d = sizes.size(); d > 0; --d) {
    idx[d - 1] = index % sizes[d - 1];
    index /= sizes[d - 1];
  }
  return shape_str(idx);
}

// The inputs that require grad (float64): those whose Jacobians and tangents are checked.
std::vector<size_t> differentiable_inputs(const std::vector<Tensor>& inputs, const char* what) {
  std::vector<size_t> checked;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined() || !inputs[i].requires_grad()) continue;
    if (inputs[i].scalar_type() != ScalarType::Double) {
      throw std::invalid_argument(std::string(what) + ": input " + std::to_string(i) +
                                  " requires grad but has dtype " +
                                  to_string(inputs[i].scalar_type()) + "; expected Double");
    }
    checked.push_back(i);
  }
  return checked;
}

// What the Jacobian checks start from: the checked inputs (and their tensors) and the outputs
// of one forward pass with grad mode on.
struct JacobianRun {
  std::vector<size_t> checked;
  variable_list diff_inputs;
  std::vector<Tensor> outputs;
};

JacobianRun forward_for_jacobians(
    const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& fn,
    const std::vector<Tensor>& inputs, const char* what) {
  JacobianRun run;
  run.checked = differentiable_inputs(inputs, what);
  for (size_t i : run.checked) run.diff_inputs.push_back(inputs[i]);
  autograd::AutoGradMode enable(true);
  run.outputs = fn(inputs);
  return run;
}

// analytic[c][j * numel(input) + k] = d out[j] / d input_c[k], for the inputs `checked` (whose
// tensors are diff_inputs), by one backward pass per output element; zeros where out has no
// history or an input is unused.
std::vector<std::vector<double>> analytic_jacobian(const Tensor& out,
                                                   const std::vector<Tensor>& inputs,
                                                   const std::vector<size_t>& checked,
                                                   const variable_list& diff_inputs) {
  const int64_t out_numel = out.numel();
  std::vector<std::vector<double>> analytic(checked.size());
  for (size_t c = 0; c < checked.size(); ++c) {
    analytic[c].assign(static_cast<size_t>(out_numel * inputs[checked[c]].numel()), 0.0);
  }
  if (out.requires_grad() && !diff_inputs.empty()) {
    for (int64_t j = 0; j < out_numel; ++j) {
      Tensor one_hot = zeros(out.sizes(), out.scalar_type());
      one_hot.data_ptr<double>()[j] = 1.0;
      variable_list grads = autograd::grad({out}, diff_inputs, {one_hot},
                                           /*retain_graph=*/true, /*create_graph=*/false,
                                           /*allow_unused=*/true);
      for (size_t c = 0; c < checked.size(); ++c) {
        if (!grads[c].defined()) continue;
        const int64_t n = grads[c].numel();
        for (int64_t k = 0; k < n; ++k) analytic[c][j * n + k] = element(grads[c], k);
      }
    }
  }
  return analytic;
}

}  // namespace

bool gradcheck(std::function<std::vector<Tensor>(const std::vector<Tensor>&)> fn,
               std::vector<Tensor> inputs, double eps, double atol, double rtol,
               std::string* report) {
  const auto [checked, diff_inputs, outputs] = forward_for_jacobians(fn, inputs, "gradcheck");

  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor& out = outputs[o];
    // Integer and boolean outputs (indices, masks) have no derivative to check.
    if (!out.defined() || out.scalar_type() != ScalarType::Double) continue;
    const int64_t out_numel = out.numel();

    const std::vector<std::vector<double>> analytic =
        analytic_jacobian(out, inputs, checked, diff_inputs);

    // Numerical Jacobian, one input element at a time.
    autograd::NoGradGuard no_grad;
    for (size_t c = 0; c < checked.size(); ++c) {
      const Tensor& input = inputs[checked[c]];
      const int64_t in_numel = input.numel();
      for (int64_t k = 0; k < in_numel; ++k) {
        double* x = element_ptr(input, k);
        const double original = *x;
        // clone(): an output may be a view of the input being perturbed.
        *x = original + eps;
        const Tensor plus = fn(inputs)[o].clone();
        *x = original - eps;
        const Tensor minus = fn(inputs)[o].clone();
        *x = original;
        for (int64_t j = 0; j < out_numel; ++j) {
          const double numerical = (element(plus, j) - element(minus, j)) / (2 * eps);
          const double a = analytic[c][j * in_numel + k];
          if (!(std::fabs(a - numerical) <= atol + rtol * std::fabs(numerical))) {
            if (report) {
              std::ostringstream msg;
              msg.precision(10);
              msg << "gradcheck: Jacobian mismatch for output " << o << " with respect to input "
                  << checked[c] << " (shape " << shape_str(input.sizes()) << ") at input element "
                  << k << " " << multi_index(input.sizes(), k) << " and output element " << j << " "
                  << multi_index(out.sizes(), j) << ": numerical " << numerical << ", analytical "
                  << a;
              *report = msg.str();
            }
            return false;
          }
        }
      }
    }
  }
  if (report) report->clear();
  return true;
}

bool gradcheck(std::function<Tensor(const std::vector<Tensor>&)> fn, std::vector<Tensor> inputs,
               double eps, double atol, double rtol, std::string* report) {
  return gradcheck([&fn](const std::vector<Tensor>& xs) { return std::vector<Tensor>{fn(xs)}; },
                   std::move(inputs), eps, atol, rtol, report);
}

JacobianMismatch jacobian_mismatch(
    const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& fn,
    const std::vector<Tensor>& inputs, double eps, double atol, double rtol) {
  const auto [checked, diff_inputs, outputs] =
      forward_for_jacobians(fn, inputs, "jacobian_mismatch");
  JacobianMismatch worst;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor& out = outputs[o];
    if (!out.defined() || out.scalar_type() != ScalarType::Double) continue;
    const int64_t out_numel = out.numel();
    const std::vector<std::vector<double>> analytic =
        analytic_jacobian(out, inputs, checked, diff_inputs);
    autograd::NoGradGuard no_grad;
    for (size_t c = 0; c < checked.size(); ++c) {
      const Tensor& input = inputs[checked[c]];
      const int64_t in_numel = input.numel();
      double largest = -1;
      for (int64_t k = 0; k < in_numel; ++k) {
        double* x = element_ptr(input, k);
        const double original = *x;
        *x = original + eps;
        const Tensor plus = fn(inputs)[o].clone();
        *x = original - eps;
        const Tensor minus = fn(inputs)[o].clone();
        *x = original;
        for (int64_t j = 0; j < out_numel; ++j) {
          const double numerical = (element(plus, j) - element(minus, j)) / (2 * eps);
          const double a = analytic[c][j * in_numel + k];
          const bool bad = !(std::fabs(a - numerical) <= atol + rtol * std::fabs(numerical));
          // A NaN difference counts as the largest.
          const double diff = std::isnan(a - numerical) ? INFINITY : std::fabs(a - numerical);
          if (bad && diff > largest) {
            largest = diff;
            worst.found = true;
            worst.output = o;
            worst.input = checked[c];
            worst.output_element = j;
            worst.input_element = k;
            worst.output_index = multi_index(out.sizes(), j);
            worst.input_index = multi_index(input.sizes(), k);
            worst.analytical = a;
            worst.numerical = numerical;
          }
        }
      }
      if (worst.found) return worst;
    }
  }
  return worst;
}

Tensor numerical_gradient(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                          const std::vector<Tensor>& inputs, size_t index,
                          const Tensor& grad_output, double eps) {
  if (index >= inputs.size()) {
    throw std::invalid_argument("numerical_gradient: index " + std::to_string(index) +
                                " out of range for " + std::to_string(inputs.size()) + " inputs");
  }
  autograd::NoGradGuard no_grad;
  const Tensor& input = inputs[index];
  const Tensor go = grad_output.contiguous();
  Tensor result = zeros(input.sizes());
  double* out = result.data_ptr<double>();
  // sum(go * f) for one evaluation of fn.
  auto weighted_sum = [&]() {
    const Tensor y = fn(inputs).contiguous();
    if (!y.sizes().equals(go.sizes())) {
      throw std::invalid_argument("numerical_gradient: grad_output has shape " +
                                  shape_str(go.sizes()) + " but fn returned shape " +
                                  shape_str(y.sizes()));
    }
    double sum = 0;
    for (int64_t j = 0; j < y.numel(); ++j) sum += element(go, j) * element(y, j);
    return sum;
  };
  for (int64_t k = 0; k < input.numel(); ++k) {
    double* x = element_ptr(input, k);
    const double original = *x;
    *x = original + eps;
    const double plus = weighted_sum();
    *x = original - eps;
    const double minus = weighted_sum();
    *x = original;
    out[k] = (plus - minus) / (2 * eps);
  }
  return result;
}

bool gradgradcheck(std::function<std::vector<Tensor>(const std::vector<Tensor>&)> fn,
                   std::vector<Tensor> inputs, double eps, double atol, double rtol,
                   std::string* report) {
  // The grad_outputs' shapes come from one forward evaluation; every float64
  // output gets one (seeded, requiring grad, so that it is checked too).
  std::vector<Tensor> sample;
  {
    autograd::NoGradGuard no_grad;
    sample = fn(inputs);
  }
  std::vector<size_t> outs;
  const size_t n_inputs = inputs.size();
  std::vector<Tensor> extended = inputs;
  for (size_t o = 0; o < sample.size(); ++o) {
    if (!sample[o].defined() || sample[o].scalar_type() != ScalarType::Double) continue;
    outs.push_back(o);
    extended.push_back(randn(sample[o].sizes(), /*seed=*/12345 + o).set_requires_grad(true));
  }
  auto first_derivatives = [&fn, n_inputs, outs](const std::vector<Tensor>& xs) {
    std::vector<Tensor> primal(xs.begin(), xs.begin() + n_inputs);
    variable_list diff;
    std::vector<size_t> where;
    for (size_t i = 0; i < n_inputs; ++i) {
      if (primal[i].defined() && primal[i].requires_grad()) {
        diff.push_back(primal[i]);
        where.push_back(i);
      }
    }
    // gradcheck evaluates this under NoGradGuard for finite differences; the first
    // derivatives still need autograd, just without recording a graph of them.
    const bool record = autograd::GradMode::is_enabled();
    autograd::AutoGradMode enable(true);
    std::vector<Tensor> out = fn(primal);
    std::vector<Tensor> result(n_inputs);
    variable_list roots, grad_outputs;
    for (size_t k = 0; k < outs.size(); ++k) {
      if (out[outs[k]].requires_grad()) {
        roots.push_back(out[outs[k]]);
        grad_outputs.push_back(xs[n_inputs + k]);
      }
    }
    if (roots.empty() || diff.empty()) return result;
    variable_list grads = autograd::grad(roots, diff, grad_outputs, /*retain_graph=*/true,
                                         /*create_graph=*/record, /*allow_unused=*/true);
    for (size_t c = 0; c < where.size(); ++c) result[where[c]] = grads[c];
    return result;
  };
  using MultiOutput = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
  return gradcheck(MultiOutput(first_derivatives), std::move(extended), eps, atol, rtol, report);
}

bool gradgradcheck(std::function<Tensor(const std::vector<Tensor>&)> fn, std::vector<Tensor> inputs,
                   double eps, double atol, double rtol, std::string* report) {
  using MultiOutput = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
  return gradgradcheck(MultiOutput([&fn](const std::vector<Tensor>& xs) {
                         return std::vector<Tensor>{fn(xs)};
                       }),
                       std::move(inputs), eps, atol, rtol, report);
}

// ---------------------------------------------------------------------------------------------
// Forward mode
// ---------------------------------------------------------------------------------------------

namespace {

using MultiFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

// x + scale * v, as a fresh contiguous float64 tensor without history.
Tensor shifted(const Tensor& x, const Tensor& v, double scale) {
  Tensor out = zeros(x.sizes());
  double* o = out.data_ptr<double>();
  for (int64_t k = 0; k < x.numel(); ++k) o[k] = element(x, k) + scale * element(v, k);
  return out;
}

// The inputs with those in `checked` replaced by x + scale * v (detached), the others as given.
std::vector<Tensor> shifted_inputs(const std::vector<Tensor>& inputs,
                                   const std::vector<size_t>& checked,
                                   const std::vector<Tensor>& tangents, double scale) {
  std::vector<Tensor> out = inputs;
  for (size_t c = 0; c < checked.size(); ++c) {
    out[checked[c]] = shifted(inputs[checked[c]], tangents[c], scale);
  }
  return out;
}

double dot(const Tensor& a, const Tensor& b) {
  double sum = 0;
  for (int64_t k = 0; k < a.numel(); ++k) sum += element(a, k) * element(b, k);
  return sum;
}

bool is_double(const Tensor& t) { return t.defined() && t.scalar_type() == ScalarType::Double; }

// Compares `analytic` (undefined: zeros) with `numerical` element by element.
bool compare(const char* what, const std::string& label, const Tensor& analytic,
             const Tensor& numerical, double atol, double rtol, std::string* report) {
  if (analytic.defined() && !analytic.sizes().equals(numerical.sizes())) {
    if (report) {
      *report = std::string(what) + ": " + label + " has shape " + shape_str(analytic.sizes()) +
                ", expected " + shape_str(numerical.sizes());
    }
    return false;
  }
  for (int64_t j = 0; j < numerical.numel(); ++j) {
    const double n = element(numerical, j);
    const double a = analytic.defined() ? element(analytic, j) : 0.0;
    if (!(std::fabs(a - n) <= atol + rtol * std::fabs(n))) {
      if (report) {
        std::ostringstream msg;
        msg.precision(10);
        msg << what << ": " << label << " mismatch at element " << j << " "
            << multi_index(numerical.sizes(), j) << ": numerical " << n << ", forward mode " << a
            << (analytic.defined() ? "" : " (no tangent)");
        *report = msg.str();
      }
      return false;
    }
  }
  return true;
}

// The outputs of fn at dual inputs (the checked ones carrying `tangents`) and their tangents,
// J v (undefined where an output has none or is not float64). Forward mode alone: no graph.
std::pair<std::vector<Tensor>, std::vector<Tensor>> forward_jvps(
    const MultiFn& fn, const std::vector<Tensor>& inputs, const std::vector<size_t>& checked,
    const std::vector<Tensor>& tangents) {
  autograd::NoGradGuard no_grad;
  autograd::forward_ad::dual_level level;
  std::vector<Tensor> duals = inputs;
  for (size_t c = 0; c < checked.size(); ++c) {
    duals[checked[c]] = autograd::forward_ad::make_dual(inputs[checked[c]].detach(), tangents[c]);
  }
  std::vector<Tensor> outputs = fn(duals), jvps;
  for (const Tensor& out : outputs) {
    Tensor t = is_double(out) ? autograd::forward_ad::fw_grad(out) : Tensor();
    jvps.push_back(t.defined() ? t.clone() : t);  // clone: the level frees its tangents
  }
  return {std::move(outputs), std::move(jvps)};
}

// Checks each float64 output's tangent against central finite differences along the tangents.
bool check_jvps_numerically(const MultiFn& fn, const std::vector<Tensor>& inputs,
                            const std::vector<size_t>& checked, const std::vector<Tensor>& tangents,
                            const std::vector<Tensor>& outputs, const std::vector<Tensor>& jvps,
                            double eps, double atol, double rtol, std::string* report) {
  std::vector<Tensor> plus, minus;
  {
    autograd::NoGradGuard no_grad;
    for (const Tensor& t : fn(shifted_inputs(inputs, checked, tangents, eps))) {
      plus.push_back(t.defined() ? t.clone() : t);
    }
    for (const Tensor& t : fn(shifted_inputs(inputs, checked, tangents, -eps))) {
      minus.push_back(t.defined() ? t.clone() : t);
    }
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (!is_double(outputs[o])) continue;
    Tensor numerical = zeros(outputs[o].sizes());
    double* nd = numerical.data_ptr<double>();
    for (int64_t j = 0; j < numerical.numel(); ++j) {
      nd[j] = (element(plus[o], j) - element(minus[o], j)) / (2 * eps);
    }
    if (!compare("fwgradcheck", "the tangent of output " + std::to_string(o), jvps[o], numerical,
                 atol, rtol, report)) {
      return false;
    }
  }
  return true;
}

// Checks forward against reverse mode: <u, J v> == <J^T u, v> for random u.
bool check_jvps_against_reverse(const MultiFn& fn, const std::vector<Tensor>& inputs,
                                const std::vector<size_t>& checked,
                                const std::vector<Tensor>& tangents,
                                const std::vector<Tensor>& jvps, double atol, double rtol,
                                std::string* report) {
  variable_list diff_inputs, roots, grad_outputs;
  for (size_t c : checked) diff_inputs.push_back(inputs[c]);
  std::vector<Tensor> reverse_outputs;
  {
    autograd::AutoGradMode enable(true);
    reverse_outputs = fn(inputs);
  }
  double u_jv = 0;
  for (size_t o = 0; o < reverse_outputs.size(); ++o) {
    const Tensor& out = reverse_outputs[o];
    if (!is_double(out)) continue;
    Tensor u = randn(out.sizes(), /*seed=*/999 + o);
    if (jvps[o].defined()) u_jv += dot(u, jvps[o]);
    if (out.requires_grad()) {
      roots.push_back(out);
      grad_outputs.push_back(u);
    }
  }
  double jtu_v = 0;
  int64_t numel = 0;
  if (!roots.empty() && !diff_inputs.empty()) {
    variable_list grads = autograd::grad(roots, diff_inputs, grad_outputs, /*retain_graph=*/false,
                                         /*create_graph=*/false, /*allow_unused=*/true);
    for (size_t c = 0; c < checked.size(); ++c) {
      numel += tangents[c].numel();
      if (grads[c].defined()) jtu_v += dot(grads[c], tangents[c]);
    }
  }
  if (std::fabs(u_jv - jtu_v) <= atol * static_cast<double>(numel + 1) + rtol * std::fabs(jtu_v)) {
    return true;
  }
  if (report) {
    std::ostringstream msg;
    msg.precision(10);
    msg << "fwgradcheck: forward and reverse mode disagree: <u, J v> = " << u_jv
        << " (forward mode), <J^T u, v> = " << jtu_v << " (reverse mode)";
    *report = msg.str();
  }
  return false;
}

}  // namespace

bool fwgradcheck(MultiFn fn, std::vector<Tensor> inputs, double eps, double atol, double rtol,
                 std::string* report) {
  const std::vector<size_t> checked = differentiable_inputs(inputs, "fwgradcheck");
  std::vector<Tensor> tangents;
  for (size_t c = 0; c < checked.size(); ++c) {
    tangents.push_back(randn(inputs[checked[c]].sizes(), /*seed=*/777 + c));
  }
  const auto [outputs, jvps] = forward_jvps(fn, inputs, checked, tangents);
  if (!check_jvps_numerically(fn, inputs, checked, tangents, outputs, jvps, eps, atol, rtol,
                              report) ||
      !check_jvps_against_reverse(fn, inputs, checked, tangents, jvps, atol, rtol, report)) {
    return false;
  }
  if (report) report->clear();
  return true;
}

bool fwgradcheck(std::function<Tensor(const std::vector<Tensor>&)> fn, std::vector<Tensor> inputs,
                 double eps, double atol, double rtol, std::string* report) {
  return fwgradcheck(MultiFn([&fn](const std::vector<Tensor>& xs) {
                       return std::vector<Tensor>{fn(xs)};
                     }),
                     std::move(inputs), eps, atol, rtol, report);
}

bool hvpcheck(MultiFn fn, std::vector<Tensor> inputs, double eps, double atol, double rtol,
              std::string* report) {
  const std::vector<size_t> checked = differentiable_inputs(inputs, "hvpcheck");
  if (checked.empty()) throw std::invalid_argument("hvpcheck: no input requires grad");
  std::vector<Tensor> tangents;
  for (size_t c = 0; c < checked.size(); ++c) {
    tangents.push_back(randn(inputs[checked[c]].sizes(), /*seed=*/555 + c));
  }
  // g(x) = grad(sum_k <u_k, fn(x)_k>, x): one gradient per checked input (undefined: zeros).
  // With `dual`, the inputs are dual tensors and the result is the gradients' tangents.
  auto gradients = [&](const std::vector<Tensor>& xs, bool dual) {
    autograd::AutoGradMode enable(true);
    std::vector<Tensor> leaves = xs, args = xs;
    variable_list diff;
    for (size_t c = 0; c < checked.size(); ++c) {
      leaves[checked[c]] = xs[checked[c]].detach().set_requires_grad(true);
      args[checked[c]] = dual ? autograd::forward_ad::make_dual(leaves[checked[c]], tangents[c])
                              : leaves[checked[c]];
      diff.push_back(leaves[checked[c]]);
    }
    std::vector<Tensor> outs = fn(args);
    variable_list roots, grad_outputs;
    for (size_t o = 0; o < outs.size(); ++o) {
      if (!is_double(outs[o]) || !outs[o].requires_grad()) continue;
      roots.push_back(outs[o]);
      grad_outputs.push_back(randn(outs[o].sizes(), /*seed=*/333 + o));
    }
    std::vector<Tensor> result;
    if (roots.empty()) return result;
    variable_list grads = autograd::grad(roots, diff, grad_outputs, /*retain_graph=*/false,
                                         /*create_graph=*/true, /*allow_unused=*/true);
    for (size_t c = 0; c < checked.size(); ++c) {
      Tensor g = grads[c];
      if (dual) g = g.defined() ? autograd::forward_ad::fw_grad(g) : Tensor();
      result.push_back(g.defined() ? g.detach().clone() : g);
    }
    return result;
  };
  std::vector<Tensor> hvp;
  {
    autograd::forward_ad::dual_level level;
    hvp = gradients(inputs, /*dual=*/true);
  }
  const std::vector<Tensor> plus = gradients(shifted_inputs(inputs, checked, tangents, eps), false);
  const std::vector<Tensor> minus =
      gradients(shifted_inputs(inputs, checked, tangents, -eps), false);
  for (size_t c = 0; c < hvp.size(); ++c) {
    const Tensor& x = inputs[checked[c]];
    Tensor numerical = zeros(x.sizes());
    double* nd = numerical.data_ptr<double>();
    for (int64_t k = 0; k < x.numel(); ++k) {
      const double p = plus[c].defined() ? element(plus[c], k) : 0.0;
      const double m = minus[c].defined() ? element(minus[c], k) : 0.0;
      nd[k] = (p - m) / (2 * eps);
    }
    if (!compare("hvpcheck", "the tangent of the gradient of input " + std::to_string(checked[c]),
                 hvp[c], numerical, atol, rtol, report)) {
      return false;
    }
  }
  if (report) report->clear();
  return true;
}

JacobianMismatch reentrancy_mismatch(const MultiFn& fn, const std::vector<Tensor>& inputs,
                                     double nondet_tol) {
  const auto [checked, diff_inputs, outputs] =
      forward_for_jacobians(fn, inputs, "reentrancy_mismatch");
  JacobianMismatch worst;
  double largest = nondet_tol;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor& out = outputs[o];
    if (!out.defined() || out.scalar_type() != ScalarType::Double) continue;
    const auto first = analytic_jacobian(out, inputs, checked, diff_inputs);
    const auto second = analytic_jacobian(out, inputs, checked, diff_inputs);
    for (size_t c = 0; c < checked.size(); ++c) {
      const int64_t in_numel = inputs[checked[c]].numel();
      for (size_t e = 0; e < first[c].size(); ++e) {
        const double a = first[c][e], b = second[c][e];
        if (std::isnan(a) && std::isnan(b)) continue;
        const double diff = std::isnan(a - b) ? INFINITY : std::fabs(a - b);
        if (!(diff > largest)) continue;
        largest = diff;
        const int64_t j = static_cast<int64_t>(e) / in_numel,
                      k = static_cast<int64_t>(e) % in_numel;
        worst = JacobianMismatch{true,
                                 o,
                                 checked[c],
                                 j,
                                 k,
                                 multi_index(out.sizes(), j),
                                 multi_index(inputs[checked[c]].sizes(), k),
                                 a,
                                 b};
      }
    }
  }
  return worst;
}

}  // namespace testing
}  // namespace gradgen
