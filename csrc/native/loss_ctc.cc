// ctc_loss (nn, issue 26, the last op): the kernels of _ctc_loss (the alpha recursion) and
// _ctc_loss_backward (the beta recursion and the gradient), their .Tensor overloads and out=
// variants, and PyTorch's composite ctc_loss.
//
// Sequence n's extended target l' puts a blank before, between and after its labels: blank, l1,
// blank, l2, ..., blank (2 * target_length + 1 states; l'_s is the blank at even s and label
// (s - 1) / 2 at odd s). alpha_t(s), the probability of the paths through frames 0..t that end
// in state s, is alpha_{t-1}(s) + alpha_{t-1}(s - 1) (+ alpha_{t-1}(s - 2) when l'_s is a label
// other than l'_{s-2}), times the frame's probability of l'_s; the loss is -log of
// alpha_{T'-1}(last) + alpha_{T'-1}(last - 1), T' the sequence's input length (Graves et al.,
// 2006). Everything is computed in log space (log_alpha is _ctc_loss's second output), with
// double accumulation. beta_t(s), the paths from state s at frame t to the end, runs the same
// recursion backwards. The gradient is PyTorch's formula: for t < T',
//   grad * (exp(log_probs[t, c]) - exp(log(sum_{s: l'_s = c} alpha_t(s) beta_t(s)) + nll
//                                      - log_probs[t, c]))
// and zero after: the derivative of the loss through a log_softmax of log_probs (the log-simplex
// projection; see PyTorch's gradcheck_wrapper_ctc_loss), not of the raw log_probs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/type_promotion.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::in_composite_op;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

[[noreturn]] void fail(const char* op, const std::string& what) {
  throw std::invalid_argument(std::string(op) + ": " + what);
}

/// log(exp(a) + exp(b) + exp(c)), -inf when all three are -inf; NaN propagates.
inline double log_sum3(double a, double b, double c) {
  double m = std::max(a, std::max(b, c));
  if (m == -kInf) m = 0;  // all -inf: log(0) = -inf below
  return std::log(std::exp(a - m) + std::exp(b - m) + std::exp(c - m)) + m;
}

/// log(exp(a) + exp(b)).
inline double log_add(double a, double b) { return log_sum3(a, b, -kInf); }

/// One call's sizes and lengths, checked as PyTorch's ctc_loss_allocate_outputs checks them.
struct Ctc {
  int64_t T = 0, N = 0, C = 0, blank = 0, max_target = 0;
  std::vector<int64_t> input_lengths, target_lengths;
  /// Where sequence n's labels start in the contiguous targets.
  std::vector<int64_t> offsets;
  /// The contiguous targets as int64 (Int targets converted).
  std::vector<int64_t> labels;
  int64_t states() const { return 2 * max_target + 1; }
  /// l'_s of sequence n: the blank at even s, its label (s - 1) / 2 at odd s.
  int64_t prime(int64_t n, int64_t s) const {
    return s % 2 == 0 ? blank : labels[static_cast<size_t>(offsets[n] + s / 2)];
  }
};

/// The checks of the tensors themselves, in PyTorch's order and words.
void check_ctc_tensors(const char* op, const Tensor& log_probs, const Tensor& targets) {
  const ScalarType dtype = log_probs.scalar_type();
  if (dtype != ScalarType::Float && dtype != ScalarType::Double) {
    throw std::runtime_error(std::string(op) + ": \"ctc_loss_cpu\" not implemented for '" +
                             to_string(dtype) + "'");
  }
  if (log_probs.numel() == 0) fail(op, "log_probs tensor must not be empty");
  if (targets.scalar_type() != ScalarType::Long && targets.scalar_type() != ScalarType::Int) {
    fail(op, "Expected tensor for argument #2 'targets' to have scalar type Long or Int; but got " +
                 std::string(to_string(targets.scalar_type())) + " instead");
  }
  if (log_probs.dim() != 3) {
    fail(op, "Expected 3-dimensional tensor, but got " + std::to_string(log_probs.dim()) +
                 "-dimensional tensor for argument #1 'log_probs'");
  }
  if (targets.dim() < 1 || targets.dim() > 2) {
    fail(op, "Expected 1 to 2 dimensions, but got " + std::to_string(targets.dim()) +
                 "-dimensional tensor for argument #2 'targets'");
  }
}

/// The target lengths against the targets' shape: padded [N, S] rows or 1-D concatenated.
void ctc_target_offsets(const char* op, Ctc& g, const Tensor& targets, IntArrayRef lengths) {
  const std::string arg = " for argument #2 'targets'";
  int64_t total = 0;
  for (int64_t n = 0; n < g.N; ++n) {
    const int64_t tl = lengths[n];
    if (tl < 0) {
      fail(op,
           "Expected target_lengths to have value at least 0, but got value " + std::to_string(tl));
    }
    g.offsets.push_back(targets.dim() == 1 ? total : n * targets.size(1));
    total = tl > kMaxInt64 - total ? kMaxInt64 : total + tl;
    g.max_target = std::max(g.max_target, tl);
  }
  if (targets.dim() == 1 && targets.size(0) != total) {
    fail(op, "Expected tensor to have size " + std::to_string(total) +
                 " at dimension 0, but got size " + std::to_string(targets.size(0)) + arg);
  }
  if (targets.dim() == 2 && targets.size(0) != g.N) {
    fail(op, "Expected tensor to have size " + std::to_string(g.N) +
                 " at dimension 0, but got size " + std::to_string(targets.size(0)) + arg);
  }
  if (targets.dim() == 2 && targets.size(1) < g.max_target) {
    fail(op, "Expected tensor to have size at least " + std::to_string(g.max_target) +
                 " at dimension 1, but got size " + std::to_string(targets.size(1)) + arg);
  }
  g.target_lengths.assign(lengths.begin(), lengths.end());
}

/// The labels each sequence reads must be classes of log_probs (PyTorch's CPU kernel does not
/// check them and reads outside log_probs); the padding after them is never read.
void ctc_labels(const char* op, Ctc& g, const Tensor& targets) {
  const Tensor t = cast(targets, ScalarType::Long).contiguous();
  g.labels.assign(t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + t.numel());
  for (int64_t n = 0; n < g.N; ++n) {
    for (int64_t i = 0; i < g.target_lengths[n]; ++i) {
      const int64_t label = g.labels[static_cast<size_t>(g.offsets[n] + i)];
      if (label < 0 || label >= g.C) {
        throw std::out_of_range(std::string(op) + ": target " + std::to_string(label) + " (label " +
                                std::to_string(i) + " of sequence " + std::to_string(n) +
                                ") is out of bounds: expected a class in [0, " +
                                std::to_string(g.C) + ")");
      }
    }
  }
}

Ctc ctc_geometry(const char* op, const Tensor& log_probs, const Tensor& targets,
                 IntArrayRef input_lengths, IntArrayRef target_lengths, int64_t blank) {
  check_ctc_tensors(op, log_probs, targets);
  Ctc g;
  g.T = log_probs.size(0);
  g.N = log_probs.size(1);
  g.C = log_probs.size(2);
  g.blank = blank;
  if (blank < 0 || blank >= g.C) fail(op, "blank must be in label range");
  if (static_cast<int64_t>(input_lengths.size()) != g.N) {
    fail(op, "input_lengths must be of size batch_size");
  }
  if (static_cast<int64_t>(target_lengths.size()) != g.N) {
    fail(op, "target_lengths must be of size batch_size");
  }
  ctc_target_offsets(op, g, targets, target_lengths);
  for (int64_t n = 0; n < g.N; ++n) {
    const int64_t il = input_lengths[n];
    if (il < 0 || il > g.T) {
      fail(op, std::string("Expected input_lengths to have value ") +
                   (il < 0 ? "at least 0" : "at most " + std::to_string(g.T)) + ", but got value " +
                   std::to_string(il));
    }
  }
  g.input_lengths.assign(input_lengths.begin(), input_lengths.end());
  ctc_labels(op, g, targets);
  return g;
}

/// Sequence n's log-probabilities: lp(t, c) of log_probs [T, N, C] (contiguous).
template <typename T>
struct Frames {
  const T* data;
  int64_t N, C, n;
  double operator()(int64_t t, int64_t c) const {
    return static_cast<double>(data[(t * N + n) * C + c]);
  }
};

/// Fills sequence n's block la [T, states] (all -inf on entry) with log_alpha for the frames
/// before its input length; returns its negative log-likelihood.
template <typename T>
double ctc_alpha(const Ctc& g, int64_t n, const Frames<T>& lp, T* la) {
  const int64_t S = g.states(), il = g.input_lengths[n], tl = g.target_lengths[n];
  const int64_t L = 2 * tl + 1;
  // No frame: the empty target has probability 1 (PyTorch gives -0.0), any other 0.
  if (il == 0) return tl == 0 ? -0.0 : kInf;
  la[0] = static_cast<T>(lp(0, g.blank));
  if (tl > 0) la[1] = static_cast<T>(lp(0, g.prime(n, 1)));
  for (int64_t t = 1; t < il; ++t) {
    const T* prev = la + (t - 1) * S;
    T* row = la + t * S;
    for (int64_t s = 0; s < L; ++s) {
      const int64_t c = g.prime(n, s);
      const double step = s > 0 ? static_cast<double>(prev[s - 1]) : -kInf;
      const bool skips = s % 2 == 1 && s > 1 && g.prime(n, s - 2) != c;
      const double skip = skips ? static_cast<double>(prev[s - 2]) : -kInf;
      row[s] = static_cast<T>(log_sum3(static_cast<double>(prev[s]), step, skip) + lp(t, c));
    }
  }
  const T* last = la + (il - 1) * S;
  const double ll =
      tl == 0 ? static_cast<double>(last[0])
              : log_add(static_cast<double>(last[L - 1]), static_cast<double>(last[L - 2]));
  return -ll;
}

/// Sequence n's log_beta, [input_length, 2 * target_length + 1] row-major, -inf where no path is.
template <typename T>
std::vector<double> ctc_beta(const Ctc& g, int64_t n, const Frames<T>& lp) {
  const int64_t il = g.input_lengths[n], tl = g.target_lengths[n], L = 2 * tl + 1;
  std::vector<double> lb(static_cast<size_t>(il * L), -kInf);
  double* last = lb.data() + (il - 1) * L;
  last[L - 1] = lp(il - 1, g.blank);
  if (tl > 0) last[L - 2] = lp(il - 1, g.prime(n, L - 2));
  for (int64_t t = il - 2; t >= 0; --t) {
    const double* next = lb.data() + (t + 1) * L;
    double* row = lb.data() + t * L;
    for (int64_t s = 0; s < L; ++s) {
      const int64_t c = g.prime(n, s);
      const double step = s + 1 < L ? next[s + 1] : -kInf;
      const bool skips = s % 2 == 1 && s + 2 < L && g.prime(n, s + 2) != c;
      row[s] = log_sum3(next[s], step, skips ? next[s + 2] : -kInf) + lp(t, c);
    }
  }
  return lb;
}

/// Writes sequence n's gradient into gi [T, N, C] (zeros on entry) for its frames t < T'.
template <typename T>
void ctc_grad(const Ctc& g, int64_t n, const Frames<T>& lp, const T* la, double nll, double gr,
              bool zero_infinity, T* gi) {
  const int64_t il = g.input_lengths[n], L = 2 * g.target_lengths[n] + 1, S = g.states();
  if (il == 0 || (zero_infinity && nll == kInf)) return;
  const std::vector<double> lb = ctc_beta(g, n, lp);
  std::vector<double> lcab(static_cast<size_t>(g.C));
  for (int64_t t = 0; t < il; ++t) {
    std::fill(lcab.begin(), lcab.end(), -kInf);
    for (int64_t s = 0; s < L; ++s) {
      double& acc = lcab[static_cast<size_t>(g.prime(n, s))];
      acc = log_add(acc, static_cast<double>(la[t * S + s]) + lb[static_cast<size_t>(t * L + s)]);
    }
    for (int64_t c = 0; c < g.C; ++c) {
      const double x = lp(t, c);
      const double v = (std::exp(x) - std::exp(lcab[static_cast<size_t>(c)] + nll - x)) * gr;
      gi[(t * g.N + n) * g.C + c] = static_cast<T>(v);
    }
  }
}

/// The lengths of a .Tensor overload as a list, which must be of an integer dtype.
std::vector<int64_t> ctc_lengths(const char* op, const char* name, const Tensor& lengths) {
  if (!is_integral(lengths.scalar_type(), /*include_bool=*/false)) {
    fail(op, std::string(name) + " must be integral");
  }
  const Tensor l = cast(lengths, ScalarType::Long).contiguous();
  return std::vector<int64_t>(l.data_ptr<int64_t>(), l.data_ptr<int64_t>() + l.numel());
}

/// neg_log_likelihood, log_alpha and grad of _ctc_loss_backward against the call's sizes.
void check_ctc_saved(const char* op, const Ctc& g, const Tensor& grad, const Tensor& nll,
                     const Tensor& log_alpha) {
  auto check = [&](const char* name, const Tensor& t, std::vector<int64_t> sizes) {
    if (!t.sizes().equals(IntArrayRef(sizes))) {
      fail(op, "expected " + std::string(name) + " of size " + shape_str(IntArrayRef(sizes)) +
                   ", got " + shape_str(t.sizes()));
    }
    if (!is_floating_point(t.scalar_type())) {
      fail(op, "expected a floating point " + std::string(name) + ", got " +
                   to_string(t.scalar_type()));
    }
  };
  check("grad", grad, {g.N});
  check("neg_log_likelihood", nll, {g.N});
  check("log_alpha", log_alpha, {g.N, g.T, g.states()});
}

Tensor ctc_backward(const char* op, const Tensor& grad, const Tensor& log_probs,
                    const Tensor& targets, IntArrayRef input_lengths, IntArrayRef target_lengths,
                    const Tensor& neg_log_likelihood, const Tensor& log_alpha, int64_t blank,
                    bool zero_infinity) {
  const Ctc g = ctc_geometry(op, log_probs, targets, input_lengths, target_lengths, blank);
  check_ctc_saved(op, g, grad, neg_log_likelihood, log_alpha);
  const ScalarType dtype = log_probs.scalar_type();
  const Tensor lp = log_probs.contiguous(), la = cast(log_alpha, dtype).contiguous();
  const Tensor nll = cast(neg_log_likelihood, dtype).contiguous();
  const Tensor gr = cast(grad, dtype).contiguous();
  Tensor gi = zeros(log_probs.sizes(), dtype);
  gradgen::internal::dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    const T *pla = la.data_ptr<T>(), *pnll = nll.data_ptr<T>(), *pgr = gr.data_ptr<T>();
    for (int64_t n = 0; n < g.N; ++n) {
      const Frames<T> frames{lp.data_ptr<T>(), g.N, g.C, n};
      ctc_grad(g, n, frames, pla + n * g.T * g.states(), static_cast<double>(pnll[n]),
               static_cast<double>(pgr[n]), zero_infinity, gi.data_ptr<T>());
    }
  });
  return gi;
}

std::tuple<Tensor, Tensor> ctc_forward(const char* op, const Tensor& log_probs,
                                       const Tensor& targets, IntArrayRef input_lengths,
                                       IntArrayRef target_lengths, int64_t blank) {
  const Ctc g = ctc_geometry(op, log_probs, targets, input_lengths, target_lengths, blank);
  const ScalarType dtype = log_probs.scalar_type();
  const Tensor lp = log_probs.contiguous();
  Tensor nll = make_tensor({g.N}, dtype);
  Tensor la = full({g.N, g.T, g.states()}, -kInf, dtype);
  gradgen::internal::dispatch_floating(dtype, op, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t n = 0; n < g.N; ++n) {
      const Frames<T> frames{lp.data_ptr<T>(), g.N, g.C, n};
      T* block = la.data_ptr<T>() + n * g.T * g.states();
      nll.data_ptr<T>()[n] = static_cast<T>(ctc_alpha(g, n, frames, block));
    }
  });
  return {nll, la};
}

/// PyTorch's ctc_loss after _ctc_loss: zero_infinity, then the reduction (mean: each loss over
/// its target length clamped to at least 1, then the mean; another value than Mean or Sum
/// leaves the losses unreduced, as PyTorch's).
Tensor ctc_reduce(Tensor res, IntArrayRef target_lengths, bool batched, int64_t reduction,
                  bool zero_infinity) {
  const ScalarType dtype = res.scalar_type();
  if (zero_infinity) {
    res = gradgen::where(gradgen::eq(res, Scalar(kInf)), zeros(IntArrayRef(), dtype), res);
  }
  if (reduction == Reduction::Mean) {
    const std::vector<double> lengths(target_lengths.begin(), target_lengths.end());
    const int64_t count = static_cast<int64_t>(lengths.size());
    const Tensor divisor = cast(tensor(lengths, {count}), dtype);
    return gradgen::mean(gradgen::div(res, gradgen::clamp_min(divisor, 1)));
  }
  if (reduction == Reduction::Sum) return gradgen::sum(res);
  return batched ? res : gradgen::squeeze(res, 0);
}

}  // namespace

std::tuple<Tensor, Tensor> _ctc_loss(const Tensor& log_probs, const Tensor& targets,
                                     IntArrayRef input_lengths, IntArrayRef target_lengths,
                                     int64_t blank, bool zero_infinity) {
  // zero_infinity acts in the backward (and in ctc_loss): the forward keeps an infinite loss.
  (void)zero_infinity;
  return ctc_forward("_ctc_loss", log_probs, targets, input_lengths, target_lengths, blank);
}

std::tuple<Tensor, Tensor> _ctc_loss(const Tensor& log_probs, const Tensor& targets,
                                     const Tensor& input_lengths, const Tensor& target_lengths,
                                     int64_t blank, bool zero_infinity) {
  const char* op = "_ctc_loss";
  const std::vector<int64_t> il = ctc_lengths(op, "input_lengths", input_lengths);
  const std::vector<int64_t> tl = ctc_lengths(op, "target_lengths", target_lengths);
  (void)zero_infinity;
  return ctc_forward(op, log_probs, targets, il, tl, blank);
}

std::tuple<Tensor&, Tensor&> _ctc_loss_out(const Tensor& log_probs, const Tensor& targets,
                                           IntArrayRef input_lengths, IntArrayRef target_lengths,
                                           int64_t blank, bool zero_infinity, Tensor& out0,
                                           Tensor& out1) {
  const char* op = "_ctc_loss.out";
  (void)zero_infinity;
  auto [nll, la] = ctc_forward(op, log_probs, targets, input_lengths, target_lengths, blank);
  write_out(op, nll, out0);
  write_out(op, la, out1);
  return {out0, out1};
}

std::tuple<Tensor&, Tensor&> _ctc_loss_out(const Tensor& log_probs, const Tensor& targets,
                                           const Tensor& input_lengths,
                                           const Tensor& target_lengths, int64_t blank,
                                           bool zero_infinity, Tensor& out0, Tensor& out1) {
  const char* op = "_ctc_loss.Tensor_out";
  (void)zero_infinity;
  const std::vector<int64_t> il = ctc_lengths(op, "input_lengths", input_lengths);
  const std::vector<int64_t> tl = ctc_lengths(op, "target_lengths", target_lengths);
  auto [nll, la] = ctc_forward(op, log_probs, targets, il, tl, blank);
  write_out(op, nll, out0);
  write_out(op, la, out1);
  return {out0, out1};
}

Tensor _ctc_loss_backward(const Tensor& grad, const Tensor& log_probs, const Tensor& targets,
                          IntArrayRef input_lengths, IntArrayRef target_lengths,
                          const Tensor& neg_log_likelihood, const Tensor& log_alpha, int64_t blank,
                          bool zero_infinity) {
  return ctc_backward("_ctc_loss_backward", grad, log_probs, targets, input_lengths, target_lengths,
                      neg_log_likelihood, log_alpha, blank, zero_infinity);
}

Tensor _ctc_loss_backward(const Tensor& grad, const Tensor& log_probs, const Tensor& targets,
                          const Tensor& input_lengths, const Tensor& target_lengths,
                          const Tensor& neg_log_likelihood, const Tensor& log_alpha, int64_t blank,
                          bool zero_infinity) {
  const char* op = "_ctc_loss_backward";
  const std::vector<int64_t> il = ctc_lengths(op, "input_lengths", input_lengths);
  const std::vector<int64_t> tl = ctc_lengths(op, "target_lengths", target_lengths);
  return ctc_backward(op, grad, log_probs, targets, il, tl, neg_log_likelihood, log_alpha, blank,
                      zero_infinity);
}

Tensor& _ctc_loss_backward_out(const Tensor& grad, const Tensor& log_probs, const Tensor& targets,
                               IntArrayRef input_lengths, IntArrayRef target_lengths,
                               const Tensor& neg_log_likelihood, const Tensor& log_alpha,
                               int64_t blank, bool zero_infinity, Tensor& out) {
  const char* op = "_ctc_loss_backward.out";
  const Tensor gi = ctc_backward(op, grad, log_probs, targets, input_lengths, target_lengths,
                                 neg_log_likelihood, log_alpha, blank, zero_infinity);
  return write_out(op, gi, out);
}

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                IntArrayRef target_lengths, int64_t blank, int64_t reduction, bool zero_infinity) {
  return in_composite_op("ctc_loss", [&] {
    // Unbatched [T, C] is one sequence (and any rank but 3 is unsqueezed, so that _ctc_loss
    // names the rank it got, as PyTorch's).
    const bool batched = log_probs.dim() == 3;
    const Tensor lp = batched ? log_probs : gradgen::unsqueeze(log_probs, 1);
    // As PyTorch's: the targets are converted to Long (floating targets truncated).
    const Tensor res =
        std::get<0>(gradgen::_ctc_loss(lp, cast(targets, ScalarType::Long), input_lengths,
                                       target_lengths, blank, zero_infinity));
    return ctc_reduce(res, target_lengths, batched, reduction, zero_infinity);
  });
}

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank, int64_t reduction,
                bool zero_infinity) {
  return in_composite_op("ctc_loss", [&] {
    // As PyTorch's: the lengths become lists and the IntList overload runs (CtcLossBackward0).
    const std::vector<int64_t> il = ctc_lengths("ctc_loss", "input_lengths", input_lengths);
    const std::vector<int64_t> tl = ctc_lengths("ctc_loss", "target_lengths", target_lengths);
    return native::ctc_loss(log_probs, targets, il, tl, blank, reduction, zero_infinity);
  });
}

}  // namespace native
}  // namespace gradgen
