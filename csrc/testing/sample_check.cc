#include "csrc/testing/sample_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

#include "csrc/autograd/accumulate_grad.h"
#include "csrc/autograd/engine.h"
#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/function.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"
#include "csrc/testing/gradcheck.h"

namespace gradgen {
namespace testing {

namespace {

// Set while the runner checks that an in-place variant refuses a leaf that requires grad.
thread_local bool leaf_self = false;
// The self the last in-place call modified (inplace_self's clone): its version counter is the
// one to check, the call's result being a conversion of it in a float32 case.
thread_local Tensor last_self;

// Runs `call`, which must throw a std::runtime_error whose message contains `expected`; returns
// the problem, or "".
std::string refusal_problem(const std::string& what, const std::string& expected,
                            const std::function<void()>& call) {
  try {
    call();
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find(expected) != std::string::npos) return "";
    return what + " threw another message: " + e.what() + " (expected: " + expected + ")";
  }
  return what + " did not throw (expected: " + expected + ")";
}

bool is_float(const Tensor& t) {
  return t.defined() &&
         (t.scalar_type() == ScalarType::Double || t.scalar_type() == ScalarType::Float);
}

// The values of one input, in float64 (converted to its dtype by the caller).
std::vector<double> input_values(const SampleInput& in, int64_t numel, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> v(static_cast<size_t>(numel));
  const bool integral = in.dtype == ScalarType::Long || in.dtype == ScalarType::Bool;
  if (in.domain == "distinct") {
    // A permutation of evenly spread values with a little jitter: no ties, no two values closer
    // than about 4 / numel (far beyond the finite differences' 1e-6).
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), gen);
    const double step = 4.0 / static_cast<double>(std::max<int64_t>(numel, 1));
    for (size_t k = 0; k < v.size(); ++k) {
      v[order[k]] = -2.0 + step * (static_cast<double>(k) + 0.25 + 0.5 * unit(gen));
      if (integral) v[order[k]] = static_cast<double>(k);
    }
    return v;
  }
  std::normal_distribution<double> normal(0.0, 1.0);
  for (double& x : v) {
    if (in.domain == "positive") {
      x = integral ? 1.0 + std::floor(3.0 * unit(gen)) : 0.5 + 1.5 * unit(gen);
    } else if (in.domain == "nonzero") {
      const double m = integral ? 1.0 + std::floor(3.0 * unit(gen)) : 0.5 + 1.5 * unit(gen);
      x = unit(gen) < 0.5 ? -m : m;
    } else if (in.domain == "range") {
      x = integral ? std::floor(in.lo + (in.hi - in.lo + 1) * unit(gen))
                   : in.lo + (in.hi - in.lo) * unit(gen);
      if (integral) x = std::min(x, in.hi);
    } else {
      x = integral ? std::floor(-3.0 + 7.0 * unit(gen)) : normal(gen);
    }
    if (in.dtype == ScalarType::Bool) x = x > 0 ? 1.0 : 0.0;
  }
  return v;
}

std::string failure(const SampleCase& c, const std::string& what) {
  return c.op + " sample " + std::to_string(c.sample) + " (" + c.label + "): " + what;
}

std::string number(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

// The gradcheck part, "" when the Jacobians agree: names the input and the largest difference.
std::string jacobian_problem(const SampleFn& fn, const std::vector<Tensor>& inputs,
                             const SampleCase& c, size_t outputs) {
  const std::vector<SampleInput>& specs = c.inputs;
  const JacobianMismatch m = jacobian_mismatch(fn, inputs, c.eps, c.atol, c.rtol);
  if (!m.found) return "";
  std::string d = "d/d " + specs[m.input].label;
  if (outputs > 1) d = "d(output " + std::to_string(m.output) + ")/d " + specs[m.input].label;
  std::string where = "at " + m.input_index;
  if (m.output_index != m.input_index) where += " (output element " + m.output_index + ")";
  return d + ": analytical vs numerical differ " + where + ": " + number(m.analytical) + " vs " +
         number(m.numerical);
}

// The reentrancy part, "" when two backward passes agree within c.nondet_tol.
std::string reentrancy_problem(const SampleCase& c, const std::vector<Tensor>& inputs,
                               size_t outputs) {
  const JacobianMismatch m = reentrancy_mismatch(c.fn, inputs, c.nondet_tol);
  if (!m.found) return "";
  std::string d = "d/d " + c.inputs[m.input].label;
  if (outputs > 1) d = "d(output " + std::to_string(m.output) + ")/d " + c.inputs[m.input].label;
  std::string where = "at " + m.input_index;
  if (m.output_index != m.input_index) where += " (output element " + m.output_index + ")";
  // Digits enough to show a difference in the last places.
  std::ostringstream values;
  values.precision(12);
  values << m.analytical << " vs " << m.numerical;
  return d + ": backward is not reentrant: two runs differ " + where + ": " + values.str() +
         " (more than nondeterministic: " + number(c.nondet_tol) + ")";
}

// Whether a and b hold the same values (same shape; NaNs in the same places count as equal, as
// do equal infinities: _ctc_loss's log_alpha is -inf where no path is).
bool same_values(const Tensor& a, const Tensor& b) {
  if (!a.defined() || !b.defined()) return a.defined() == b.defined();
  if (!a.sizes().equals(b.sizes()) || a.scalar_type() != b.scalar_type()) return false;
  if (a.scalar_type() != ScalarType::Double) {
    return allclose(internal::to_dtype(a, ScalarType::Double),
                    internal::to_dtype(b, ScalarType::Double), 0, 0);
  }
  const Tensor x = a.contiguous(), y = b.contiguous();
  for (int64_t k = 0; k < x.numel(); ++k) {
    const double u = x.data_ptr<double>()[k], v = y.data_ptr<double>()[k];
    if ((std::isnan(u) && std::isnan(v)) || u == v) continue;
    if (!(std::fabs(u - v) <= 1e-10 + 1e-7 * std::fabs(v))) return false;
  }
  return true;
}

std::vector<Tensor> call(const SampleFn& fn, const std::vector<Tensor>& inputs, bool grad) {
  autograd::AutoGradMode mode(grad);
  return fn(inputs);
}

// The argument an input belongs to: "coeffs" for "coeffs[1]" (a Tensor[]'s elements are one
// formula's, computed together, as PyTorch's copy_range does).
std::string argument_of(const std::string& label) { return label.substr(0, label.find('[')); }

// Restores a node's edges when the mask check is done (or throws).
struct EdgesRestorer {
  autograd::Node& node;
  autograd::edge_list saved;
  ~EdgesRestorer() { node.set_next_edges(std::move(saved)); }
};

// grad_input_mask / should_compute_output: the node of the first output with history is called
// once with every edge valid, then once per input argument with only that argument's edges valid
// (what the engine's exec_info does for grad() of that input alone). The argument's gradients
// must be the same as in the full call, and no other argument's gradient may be computed.
std::string mask_problem(const SampleCase& c, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& outputs) {
  std::shared_ptr<autograd::Node> node;
  for (const Tensor& o : outputs) {
    if (o.defined() && o.grad_fn()) {
      node = o.grad_fn();
      break;
    }
  }
  if (!node) return "";
  // Which input owns each edge (-1: none of the sample's inputs, e.g. an inner node).
  std::vector<int> owner(node->num_outputs(), -1);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined() || !inputs[i].requires_grad()) continue;
    const std::shared_ptr<autograd::Node> acc = autograd::try_get_grad_accumulator(inputs[i]);
    for (uint32_t k = 0; k < node->num_outputs(); ++k) {
      if (acc && node->next_edge(k).function == acc) owner[k] = static_cast<int>(i);
    }
  }
  autograd::variable_list grads;
  for (uint32_t k = 0; k < node->num_inputs(); ++k) {
    const autograd::InputMetadata& m = node->input_metadata(k);
    grads.push_back(m.is_defined ? full(m.shape, 0.5, m.dtype) : Tensor());
  }
  autograd::NoGradGuard no_grad;
  const autograd::variable_list all = node->apply(autograd::variable_list(grads));
  std::vector<std::string> arguments;
  for (int i : owner) {
    if (i >= 0) arguments.push_back(argument_of(c.inputs[i].label));
  }
  std::sort(arguments.begin(), arguments.end());
  arguments.erase(std::unique(arguments.begin(), arguments.end()), arguments.end());
  if (arguments.size() < 2) return "";  // nothing to leave out
  EdgesRestorer restore{*node, node->next_edges()};
  for (const std::string& asked : arguments) {
    autograd::edge_list masked = restore.saved;
    for (uint32_t k = 0; k < masked.size(); ++k) {
      if (owner[k] < 0 || argument_of(c.inputs[owner[k]].label) != asked) masked[k] = {};
    }
    node->set_next_edges(std::move(masked));
    const autograd::variable_list some = node->apply(autograd::variable_list(grads));
    for (uint32_t k = 0; k < some.size() && k < all.size(); ++k) {
      if (owner[k] < 0) continue;
      const std::string& label = c.inputs[owner[k]].label;
      if (argument_of(label) == asked) {
        if (!same_values(some[k], all[k])) {
          return node->name() + " asked only for d/d " + asked + ": its gradient for " + label +
                 " differs from the one computed with every input";
        }
      } else if (some[k].defined()) {
        return node->name() + " asked only for d/d " + asked + " also computed d/d " + label +
               " (should_compute_output / grad_input_mask not honoured)";
      }
    }
  }
  return "";
}

// Whether output o of c is differentiable (a Tensor[] result has one flag for all its tensors).
bool is_differentiable(const SampleCase& c, size_t o) {
  if (c.differentiable_outputs.empty()) return true;
  return c.differentiable_outputs[std::min(o, c.differentiable_outputs.size() - 1)];
}

// fn with its non-differentiable outputs left undefined, so that the Jacobian checks skip them,
// as PyTorch's gradcheck skips the outputs that do not require grad (a float output the
// formulas do not differentiate, such as native_layer_norm's mean, has none to compare).
SampleFn differentiable_part(const SampleCase& c, const SampleFn& fn) {
  if (!fn) return fn;
  return [&c, fn](const std::vector<Tensor>& inputs) {
    std::vector<Tensor> outputs = fn(inputs);
    for (size_t o = 0; o < outputs.size(); ++o) {
      if (!is_differentiable(c, o)) outputs[o] = Tensor();
    }
    return outputs;
  };
}

/// Which outputs have history: the differentiable floating ones when an input requires grad.
std::string history_problem(const SampleCase& c, const std::vector<Tensor>& outputs,
                            bool any_grad) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (!outputs[o].defined()) continue;
    const bool diff = is_differentiable(c, o);
    const bool floating = outputs[o].scalar_type() == ScalarType::Double ||
                          outputs[o].scalar_type() == ScalarType::Float;
    const bool expected = diff && floating && any_grad;
    if (outputs[o].requires_grad() != expected) {
      return "output " + std::to_string(o) +
             (expected
                  ? " has no history, though it is differentiable and an input requires grad"
                  : " has history, though it is " +
                        std::string(any_grad ? "not differentiable"
                                             : "computed from inputs that do not require grad"));
    }
  }
  return "";
}

/// First derivatives (Jacobians, reentrancy, grad_input_mask), then second and forward ones, of
/// the differentiable outputs of `d`.
std::string derivative_problem(const SampleCase& d, const std::vector<Tensor>& inputs,
                               const std::vector<Tensor>& outputs, bool any_grad) {
  std::string problem = jacobian_problem(d.fn, inputs, d, outputs.size());
  if (problem.empty() && any_grad) problem = reentrancy_problem(d, inputs, outputs.size());
  if (problem.empty() && any_grad) problem = mask_problem(d, inputs, outputs);
  if (!problem.empty()) return problem;
  std::string report;
  if (d.gradgradcheck && any_grad && !gradgradcheck(d.fn, inputs, d.eps, d.atol, d.rtol, &report)) {
    return "second derivatives: " + report;
  }
  if (d.fwgradcheck && any_grad && !fwgradcheck(d.fn, inputs, d.eps, d.atol, d.rtol, &report)) {
    return "forward mode: " + report;
  }
  if (d.hvpcheck && d.fwgradcheck && d.gradgradcheck && any_grad &&
      !hvpcheck(d.fn, inputs, d.eps, d.atol, d.rtol, &report)) {
    return "forward-over-reverse: " + report;
  }
  return "";
}

/// The in-place variant: the out-of-place values and gradients, the version counter, second and
/// forward derivatives through it, and PyTorch's refusal of a leaf that requires grad.
std::string inplace_problem(const SampleCase& c, const std::vector<Tensor>& inputs, bool any_grad) {
  const std::vector<Tensor> expected = call(c.fn, inputs, false);
  last_self = Tensor();
  const std::vector<Tensor> got = call(c.inplace, inputs, false);
  const Tensor modified = last_self;
  for (size_t o = 0; o < expected.size() && o < got.size(); ++o) {
    if (!same_values(got[o], expected[o])) {
      return c.inplace_name + " (in-place) gives other values than " + c.op;
    }
  }
  std::string problem = jacobian_problem(differentiable_part(c, c.inplace), inputs, c, got.size());
  if (!problem.empty()) return c.inplace_name + " (in-place): " + problem;
  // The in-place call bumps its self's version counter (self is a fresh clone, at version 0).
  if (modified.defined() && modified.version() == 0) {
    return c.inplace_name + " (in-place) did not bump the version counter of self";
  }
  if (any_grad) {
    SampleFn through = differentiable_part(c, c.inplace);
    std::string report;
    if (c.gradgradcheck && !gradgradcheck(through, inputs, c.eps, c.atol, c.rtol, &report)) {
      return c.inplace_name + " (in-place): second derivatives: " + report;
    }
    if (c.fwgradcheck && !fwgradcheck(through, inputs, c.eps, c.atol, c.rtol, &report)) {
      return c.inplace_name + " (in-place): forward mode: " + report;
    }
  }
  if (!is_float(got.empty() ? Tensor() : got[0])) return "";
  // PyTorch's refusal of a leaf that requires grad, by the op's name.
  return refusal_problem(
      c.inplace_name + " (in-place) on a leaf that requires grad",
      c.inplace_name +
          ": a leaf Variable that requires grad is being used in an in-place operation.",
      [&] {
        leaf_self = true;
        struct Reset {
          ~Reset() { leaf_self = false; }
        } reset;
        call(c.inplace, inputs, true);
      });
}

/// Fresh outputs shaped as `like`, for an out= call.
std::vector<Tensor> outputs_like(const std::vector<Tensor>& like) {
  std::vector<Tensor> outs;
  for (const Tensor& e : like) outs.push_back(empty(e.sizes(), e.scalar_type()));
  return outs;
}

/// The out= variant: the functional values, and (PyTorch's out= variants support neither) the
/// refusal of inputs that require grad and of tangents.
std::string out_problem(const SampleCase& c, const std::vector<Tensor>& inputs, bool any_grad) {
  // out= variants refuse inputs that require grad: run them on detached copies.
  std::vector<Tensor> plain;
  for (const Tensor& t : inputs) plain.push_back(t.defined() ? t.detach() : t);
  const std::vector<Tensor> expected = call(c.fn, plain, false);
  std::vector<Tensor> outs = outputs_like(expected);
  {
    autograd::NoGradGuard no_grad;
    c.out(plain, outs);
  }
  for (size_t o = 0; o < expected.size(); ++o) {
    if (!same_values(outs[o], expected[o])) {
      return c.out_name + " (out=) writes other values than " + c.op + " returns (output " +
             std::to_string(o) + ")";
    }
  }
  if (!any_grad) return "";
  std::string problem =
      refusal_problem(c.out_name + " (out=) on inputs that require grad",
                      ": out= variants do not support automatic differentiation", [&] {
                        std::vector<Tensor> o2 = outputs_like(expected);
                        c.out(inputs, o2);
                      });
  if (!problem.empty()) return problem;
  return refusal_problem(
      c.out_name + " (out=) on dual inputs", "forward-mode AD not implemented for ", [&] {
        autograd::NoGradGuard no_grad;
        autograd::forward_ad::dual_level level;
        std::vector<Tensor> duals;
        for (const Tensor& t : inputs) {
          duals.push_back(
              t.defined() && t.requires_grad()
                  ? autograd::forward_ad::make_dual(t.detach(), ones(t.sizes(), t.scalar_type()))
                  : t);
        }
        std::vector<Tensor> o2 = outputs_like(expected);
        c.out(duals, o2);
      });
}

/// A contiguous copy of input i of c, requiring grad as it does, where `which` says so (an
/// expanded input that requires grad for the derivative checks, every laid-out one for the
/// layout check); else the input itself.
std::vector<Tensor> contiguous_copies(const SampleCase& c, const std::vector<Tensor>& inputs,
                                      bool every_layout) {
  std::vector<Tensor> out = inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& layout = c.inputs[i].layout;
    const bool copy =
        every_layout ? layout != "contiguous" : layout == "expanded" && inputs[i].requires_grad();
    if (!copy) continue;
    out[i] = inputs[i].detach().clone();
    if (inputs[i].requires_grad()) out[i].set_requires_grad(true);
  }
  return out;
}

/// The outputs of c.fn and the gradients of <w, differentiable outputs> for fixed weights w
/// (1/4, 2/4, ..., 7/4, repeating: positions matter) with respect to the inputs that require
/// grad (undefined where unused).
std::vector<Tensor> values_and_gradients(const SampleCase& c, const std::vector<Tensor>& inputs) {
  std::vector<Tensor> result = call(c.fn, inputs, true);
  autograd::variable_list outs, weights, wrt;
  for (size_t o = 0; o < result.size(); ++o) {
    const Tensor& y = result[o];
    if (!is_differentiable(c, o) || !is_float(y) || !y.requires_grad()) continue;
    std::vector<double> w(static_cast<size_t>(y.numel()));
    for (size_t k = 0; k < w.size(); ++k) w[k] = static_cast<double>(k % 7 + 1) / 4.0;
    outs.push_back(y);
    weights.push_back(internal::to_dtype(gradgen::tensor(w, y.sizes()), y.scalar_type()));
  }
  for (const Tensor& x : inputs) {
    if (x.defined() && x.requires_grad()) wrt.push_back(x);
  }
  if (outs.empty() || wrt.empty()) return result;
  autograd::variable_list grads = autograd::grad(outs, wrt, weights, false, false, true);
  result.insert(result.end(), grads.begin(), grads.end());
  return result;
}

/// layout: on inputs laid out as the samples say (transposed, strided, expanded), the op gives
/// the values and first gradients it gives on contiguous copies (PyTorch's noncontiguous check).
std::string layout_problem(const SampleCase& c, const std::vector<Tensor>& inputs) {
  const bool laid_out = std::any_of(c.inputs.begin(), c.inputs.end(), [](const SampleInput& in) {
    return in.layout != "contiguous";
  });
  if (!laid_out) return "";
  const std::vector<Tensor> got = values_and_gradients(c, inputs);
  const std::vector<Tensor> want = values_and_gradients(c, contiguous_copies(c, inputs, true));
  const size_t outputs = call(c.fn, inputs, false).size();
  for (size_t k = 0; k < got.size() && k < want.size(); ++k) {
    if (same_values(got[k], want[k])) continue;
    const std::string what =
        k < outputs ? "output " + std::to_string(k) : "the gradient " + std::to_string(k - outputs);
    return "layout: " + what + " differs from the one computed on contiguous copies of the inputs";
  }
  return "";
}

std::string checks(const SampleCase& c, const std::vector<Tensor>& inputs) {
  const std::vector<Tensor> outputs = call(c.fn, inputs, true);
  const bool any_grad =
      std::any_of(inputs.begin(), inputs.end(), [](const Tensor& t) { return t.requires_grad(); });
  std::string problem = c.history ? history_problem(c, outputs, any_grad) : "";
  if (problem.empty()) problem = layout_problem(c, inputs);
  if (!problem.empty()) return problem;
  // Finite differences cannot perturb one element of memory that several elements share (as
  // PyTorch's gradcheck refuses to): an expanded input that requires grad is checked as a
  // contiguous copy; the layout check compared its values and gradients with that copy's.
  const std::vector<Tensor> perturbable = contiguous_copies(c, inputs, false);
  // The derivative checks see the differentiable outputs only (the history check saw them all).
  SampleCase d = c;
  d.fn = differentiable_part(c, c.fn);
  const bool copied = !std::equal(perturbable.begin(), perturbable.end(), inputs.begin(),
                                  [](const Tensor& a, const Tensor& b) { return a.is_same(b); });
  problem = derivative_problem(d, perturbable, copied ? call(c.fn, perturbable, true) : outputs,
                               any_grad);
  if (problem.empty() && c.inplace) problem = inplace_problem(c, perturbable, any_grad);
  if (problem.empty() && c.out) problem = out_problem(c, inputs, any_grad);
  return problem;
}

/// `dense` (contiguous) as `layout` asks: its values at the strides of a view. A strided
/// tensor's buffer holds NaN (or 0 for integers) between its elements, so that a kernel reading
/// them shows; an expanded one repeats dense's first slice along dim 0 with stride 0.
Tensor laid_out(const Tensor& dense, const std::string& layout) {
  if (layout == "contiguous") return dense;
  const std::vector<int64_t> sizes(dense.sizes().begin(), dense.sizes().end());
  const size_t r = sizes.size();
  if (layout == "expanded") {
    std::vector<int64_t> strides(dense.strides().begin(), dense.strides().end());
    strides[0] = 0;
    return internal::as_strided(dense, sizes, strides, 0);
  }
  std::vector<int64_t> buffer_sizes = sizes;
  if (layout == "transposed") {
    std::swap(buffer_sizes[r - 2], buffer_sizes[r - 1]);
  } else if (layout == "strided") {
    buffer_sizes[r - 1] *= 2;
  } else {
    throw std::invalid_argument("unknown sample layout '" + layout + "'");
  }
  const Tensor buffer = is_float(dense) ? full(buffer_sizes, std::nan(""), dense.scalar_type())
                                        : zeros(buffer_sizes, dense.scalar_type());
  std::vector<int64_t> strides(buffer.strides().begin(), buffer.strides().end());
  if (layout == "transposed") {
    std::swap(strides[r - 2], strides[r - 1]);
  } else {
    strides[r - 1] *= 2;
  }
  Tensor view = internal::as_strided(buffer, sizes, strides, 0);
  internal::copy_(view, dense);
  return view;
}

}  // namespace

Tensor as_float32(const Tensor& leaf) { return internal::to_dtype(leaf, ScalarType::Float); }

std::vector<Tensor> float64_outputs(std::vector<Tensor> outputs) {
  for (Tensor& t : outputs) {
    if (t.defined() && t.scalar_type() == ScalarType::Float) {
      t = internal::to_dtype(t, ScalarType::Double);
    }
  }
  return outputs;
}

Tensor inplace_self(const Tensor& x) {
  if (leaf_self && is_float(x)) {
    Tensor leaf = x.detach().clone();
    leaf.set_requires_grad(true);
    return leaf;
  }
  last_self = x.clone();
  return last_self;
}

std::vector<Tensor> make_sample_inputs(const std::vector<SampleInput>& specs, uint64_t seed) {
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < specs.size(); ++i) {
    const SampleInput& in = specs[i];
    int64_t numel = 1;
    for (int64_t d : in.shape) numel *= d;
    const std::vector<double> v = input_values(in, numel, seed * 1000 + i);
    // Converted as a cast does (integers truncate toward zero, bools are non-zero).
    Tensor t = laid_out(internal::to_dtype(gradgen::tensor(v, in.shape), in.dtype).contiguous(),
                        in.layout);
    if (in.requires_grad) t.set_requires_grad(true);
    inputs.push_back(t);
  }
  return inputs;
}

std::string SampleRunner::run(const SampleCase& c) {
  ++cases_;
  const uint64_t seed = next_seed_++;
  if (!c.skip.empty()) {
    ++skipped_;
    std::printf("SKIP %s sample %d (%s): %s\n", c.op.c_str(), c.sample, c.label.c_str(),
                c.skip.c_str());
    return "";
  }
  std::string problem;
  try {
    problem = checks(c, make_sample_inputs(c.inputs, seed));
  } catch (const std::exception& e) {
    problem = std::string("threw: ") + e.what();
  }
  if (problem.empty()) {
    std::printf("ok   %s sample %d (%s)\n", c.op.c_str(), c.sample, c.label.c_str());
    return "";
  }
  ++failed_;
  const std::string message = failure(c, problem);
  std::printf("FAIL %s\n", message.c_str());
  std::fflush(stdout);
  return message;
}

void SampleRunner::skip_op(const std::string& op, const std::string& reason) {
  ++cases_;
  ++skipped_;
  std::printf("SKIP %s: %s\n", op.c_str(), reason.c_str());
}

void SampleRunner::missing(const std::string& op, const std::string& samples_file, bool required) {
  if (required) {
    ++missing_;
    std::printf(
        "FAIL %s: a declaration with derivative formulas has no samples in %s (give it "
        "samples, or `skip: <reason>`; require_samples = False makes this a note)\n",
        op.c_str(), samples_file.c_str());
  } else {
    std::printf("note %s has derivative formulas and no samples in %s\n", op.c_str(),
                samples_file.c_str());
  }
}

int SampleRunner::finish() const {
  std::printf("%d cases: %d passed, %d failed, %d skipped; %d declarations without samples\n",
              cases_, cases_ - failed_ - skipped_, failed_, skipped_, missing_);
  return failed_ == 0 && missing_ == 0 ? 0 : 1;
}

}  // namespace testing
}  // namespace gradgen
