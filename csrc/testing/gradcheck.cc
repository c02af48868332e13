#include "csrc/testing/gradcheck.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "csrc/autograd/engine.h"
#include "csrc/autograd/grad_mode.h"

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

}  // namespace

bool gradcheck(std::function<std::vector<Tensor>(const std::vector<Tensor>&)> fn,
               std::vector<Tensor> inputs, double eps, double atol, double rtol,
               std::string* report) {
  std::vector<size_t> checked;  // indices of inputs that require grad
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined() || !inputs[i].requires_grad()) continue;
    if (inputs[i].scalar_type() != ScalarType::Double) {
      throw std::invalid_argument("gradcheck: input " + std::to_string(i) +
                                  " requires grad but has dtype " +
                                  to_string(inputs[i].scalar_type()) + "; expected Double");
    }
    checked.push_back(i);
  }
  variable_list diff_inputs;
  for (size_t i : checked) diff_inputs.push_back(inputs[i]);

  std::vector<Tensor> outputs;
  {
    autograd::AutoGradMode enable(true);
    outputs = fn(inputs);
  }

  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor& out = outputs[o];
    // Integer and boolean outputs (indices, masks) have no derivative to check.
    if (!out.defined() || out.scalar_type() != ScalarType::Double) continue;
    const int64_t out_numel = out.numel();

    // analytic[c][j * numel(input) + k] = d out[j] / d input_c[k]
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

}  // namespace testing
}  // namespace gradgen
