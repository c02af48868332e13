// The hand-written op-info registry of //tests/cpp:op_sweep_test (op_info.h says what each kind
// of check does).
//
// Since issue 24 the generated gradient test //csrc:autograd_gradcheck_test (and its Python
// twin) checks gradgen's ops on the samples of specs/samples.yaml (docs/samples.md): gradcheck,
// gradgradcheck, fwgradcheck, hvpcheck (forward-over-reverse), reentrancy, grad_input_mask,
// history and layout on every sample, inputs laid out as views (`layout: transposed`, `strided`,
// `expanded`) and float32 kernels (`dtype: float32`) included, and for the in-place and out=
// variants their values, gradcheck, gradgradcheck and fwgradcheck through the in-place call, the
// version counter, the refusal of a leaf that requires grad, and out='s refusal of inputs that
// require grad and of tangents. A declaration checked there has no entry here: the sweep skips
// it (tools/codegen/samples_coverage.py lists them from the same plan). //tests/pytorch:
// formulas_test runs that test too on PyTorch's formulas, so no entry stays for its sake.
// What stays here is what that test cannot say or does not do:
// - the 30 declarations specs/samples.yaml skips ("checked by tests/cpp/op_info.cc: ..."):
//   inputs that must agree with a forward pass (pooling indices, saved statistics, embedding
//   bags' offsets), random ops, outputs that are not smooth functions of the input (unique) or
//   are auxiliary (LU, pivots), symmetric / positive-definite inputs, the SVD;
// - declarations the generated test has no case for: DONT_REQUIRE_DERIVATIVE ops
//   (kNoDerivative: no history, no tangent), not_implemented derivatives (kNotImplemented, such
//   as asinh_), samplers whose derivative is zero (kZeroGradient), ops whose forward mode must
//   refuse tangents (Forward::kNotImplemented: lstm_cell, whose gradients its samples check),
//   and variants whose functional has no sample or whose arguments differ from it (ger.out,
//   silu_backward.grad_input, ...);
// - CompositeImplicitAutograd ops: they have no formulas of their own, and a samples entry
//   names a declaration with formulas. Their entries check the composition (cross_entropy_loss,
//   pad, einsum, tile, ...), among them the convolutions (conv1d .. conv3d, .padding,
//   conv_transpose*), the pooling wrappers (max_pool1d/2d/3d,
//   max_pool1d_with_indices, avg_pool1d, adaptive_avg_pool1d/2d, adaptive_max_pool1d), the
//   norms (layer_norm, batch_norm, group_norm, instance_norm, rms_norm), prelu, the linalg
//   wrappers (linalg_det, linalg_inv, linalg_solve, ...), embedding_bag;
// - inputs another op makes inside the sample, which a sample's leaf cannot be: matrices made
//   well-conditioned, symmetric or positive-definite (x + 3 I, x x^T + n I: linalg_inv_ex and
//   the linalg wrappers), exactly singular ones, a forward pass's values (log_sigmoid_backward's
//   buffer, elu's result), exact zeros (prod, cumprod), signs +-1 (soft_margin_loss), a storage
//   offset (view of a narrowed tensor), scatter indices that never collide (scatter.src), a
//   float32 output of float64 inputs (softmax's dtype=);
// - as_strided of a transposed or expanded view: it reads the view's storage, while the
//   generated test compares an input laid out as a view with a contiguous copy, which holds
//   other values there (its contiguous samples are in specs/samples.yaml);
// - ties made by expand (sort, topk, kthvalue, median, mode, cummax, cummin): the gradient
//   through tied values is checked as d op(expand(x)) / dx, while an expanded sample input is
//   checked as a contiguous copy, whose tied elements finite differences cannot perturb alone.
#include "tests/cpp/op_info.h"

#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"

namespace gradgen {
namespace testing {

namespace {

// ---------------------------------------------------------------------------
// Building inputs
// ---------------------------------------------------------------------------

/// A float64 leaf of standard normal values that requires grad.
Tensor leaf(IntArrayRef sizes, uint64_t seed) { return randn(sizes, seed).set_requires_grad(true); }

/// Standard normal values that do not require grad.
Tensor value(IntArrayRef sizes, uint64_t seed) { return randn(sizes, seed); }

/// Values in [0.5, 2.5) (for log, sqrt, pow): |randn| folded and shifted.
Tensor positive(IntArrayRef sizes, uint64_t seed, bool requires_grad = true) {
  Tensor t;
  {
    autograd::NoGradGuard no_grad;
    t = add(abs(randn(sizes, seed)), 0.5);
  }
  return t.set_requires_grad(requires_grad);
}

/// Values with |x| >= 0.5 (for ops with a kink or pole at 0: abs, reciprocal, relu).
Tensor away_from_zero(IntArrayRef sizes, uint64_t seed) {
  Tensor t;
  {
    autograd::NoGradGuard no_grad;
    Tensor x = randn(sizes, seed);
    t = add(x, sign(x), 0.5);
  }
  return t.set_requires_grad(true);
}

/// A Long tensor holding `data` with shape `sizes`.
Tensor longs(std::vector<int64_t> data, IntArrayRef sizes) {
  Tensor t = empty(sizes, ScalarType::Long);
  for (size_t i = 0; i < data.size(); ++i) t.data_ptr<int64_t>()[i] = data[i];
  return t;
}

/// A Bool tensor holding `data` with shape `sizes`.
Tensor bools(std::vector<bool> data, IntArrayRef sizes) {
  Tensor t = empty(sizes, ScalarType::Bool);
  for (size_t i = 0; i < data.size(); ++i) t.data_ptr<bool>()[i] = data[i];
  return t;
}

OpFn one(std::function<Tensor(const Inputs&)> f) {
  return [f = std::move(f)](const Inputs& x) { return std::vector<Tensor>{f(x)}; };
}

/// A sample computing in float32: a larger finite-difference step, looser tolerances.
Sample in_float32(Sample s) {
  s.eps = 1e-3;
  s.atol = 1e-3;
  s.rtol = 1e-2;
  return s;
}

using Unary = std::function<Tensor(const Tensor&)>;
using Binary = std::function<Tensor(const Tensor&, const Tensor&)>;

enum class Domain { kAny, kPositive, kAwayFromZero };

Tensor in_domain(Domain domain, IntArrayRef sizes, uint64_t seed) {
  switch (domain) {
    case Domain::kPositive: return positive(sizes, seed);
    case Domain::kAwayFromZero: return away_from_zero(sizes, seed);
    default: return leaf(sizes, seed);
  }
}

// A unary op on a 0-dim tensor, a vector, a matrix and a transposed (strided) view.
std::vector<Sample> unary_samples(Unary op, Domain domain = Domain::kAny) {
  return {
      {"0-dim", {in_domain(domain, {}, 1)}, one([op](const Inputs& x) { return op(x[0]); })},
      {"[5]", {in_domain(domain, {5}, 2)}, one([op](const Inputs& x) { return op(x[0]); })},
      {"[2, 3]", {in_domain(domain, {2, 3}, 3)}, one([op](const Inputs& x) { return op(x[0]); })},
      {"transposed [3, 2] view", {in_domain(domain, {2, 3}, 4)}, one([op](const Inputs& x) {
         return op(t(x[0]));
       })},
  };
}

// A binary op on equal shapes, broadcasting shapes, a 0-dim operand, a strided
// operand, and with only one operand requiring grad.
std::vector<Sample> binary_samples(Binary op, Domain domain_a = Domain::kAny,
                                   Domain domain_b = Domain::kAny) {
  auto f = one([op](const Inputs& x) { return op(x[0], x[1]); });
  auto a = [domain_a](IntArrayRef s, uint64_t seed) { return in_domain(domain_a, s, seed); };
  auto b = [domain_b](IntArrayRef s, uint64_t seed) { return in_domain(domain_b, s, seed); };
  auto fixed = [&b](IntArrayRef s, uint64_t seed) { return b(s, seed).detach(); };
  return {
      {"[2, 3] and [2, 3]", {a({2, 3}, 1), b({2, 3}, 2)}, f},
      {"[2, 3] and [3] (broadcast)", {a({2, 3}, 3), b({3}, 4)}, f},
      {"[3, 1] and [1, 4] (both broadcast)", {a({3, 1}, 5), b({1, 4}, 6)}, f},
      {"[2] and [2, 1, 2] (rank grows)", {a({2}, 7), b({2, 1, 2}, 8)}, f},
      {"0-dim and [2, 2]", {a({}, 9), b({2, 2}, 10)}, f},
      {"1-element [1] and [1]", {a({1}, 11), b({1}, 12)}, f},
      {"transposed view and [3, 2]", {a({2, 3}, 13), b({3, 2}, 14)}, one([op](const Inputs& x) {
         return op(t(x[0]), x[1]);
       })},
      {"only self requires grad", {a({2, 3}, 15), fixed({2, 3}, 16)}, f},
  };
}

std::vector<Sample> inplace_unary_samples(Unary reference, std::function<void(Tensor&)> inplace,
                                          Domain domain = Domain::kAny) {
  auto f = one([reference](const Inputs& x) { return reference(x[0]); });
  InPlaceFn g = [inplace](Tensor& self, const Inputs&) { inplace(self); };
  return {
      {"[2, 3]", {in_domain(domain, {2, 3}, 1)}, f, g},
      {"0-dim", {in_domain(domain, {}, 2)}, f, g},
  };
}

// ---------------------------------------------------------------------------
// Linear algebra decompositions (issue 23): csrc/native/linalg_decomp.cc
// ---------------------------------------------------------------------------

/// A leaf of well-conditioned square matrices: standard normal plus shift * I.
Tensor conditioned(IntArrayRef sizes, uint64_t seed, double shift = 3.0) {
  Tensor t;
  {
    autograd::NoGradGuard no_grad;
    t = add(randn(sizes, seed), eye(sizes.back()), shift);
  }
  return t.set_requires_grad(true);
}

/// A float64 leaf holding `data` with shape `sizes` (singular matrices, ...).
Tensor leaf_of(std::vector<double> data, IntArrayRef sizes) {
  return tensor(std::move(data), sizes).set_requires_grad(true);
}

/// f on a float32 copy of x, back in float64: the op's float32 kernel under gradcheck.
Tensor via_float32(const Tensor& x, const std::function<Tensor(const Tensor&)>& f) {
  return to(f(to(x, ScalarType::Float)), ScalarType::Double);
}

/// Samples of a function of one square matrix: single, batched, 1 x 1, transposed, float32,
/// and (when `singular`) exactly singular matrices of rank n - 1 and n - 2.
std::vector<Sample> square_samples(std::function<Tensor(const Tensor&)> f, bool singular) {
  auto g = one([f](const Inputs& x) { return f(x[0]); });
  std::vector<Sample> s = {
      {"[3, 3]", {leaf({3, 3}, 1)}, g},
      {"batch [2, 2, 3, 3]", {conditioned({2, 2, 3, 3}, 2)}, g},
      {"[1, 1]", {conditioned({1, 1}, 3)}, g},
      {"transposed [4, 4]", {conditioned({4, 4}, 4)}, one([f](const Inputs& x) {
         return f(transpose(x[0], 0, 1));
       })},
      {"empty batch [0, 2, 2]", {leaf({0, 2, 2}, 5)}, g},
      in_float32({"float32 [3, 3]", {conditioned({3, 3}, 6)}, one([f](const Inputs& x) {
                    return via_float32(x[0], f);
                  })}),
  };
  if (singular) {
    s.push_back({"singular, rank 2 [3, 3]", {leaf_of({1, 2, 3, 2, 4, 6, 1, 0, 1}, {3, 3})}, g});
    s.push_back({"singular, rank 1 [3, 3]", {leaf_of({1, 1, 2, 2, 2, 4, 3, 3, 6}, {3, 3})}, g});
  }
  return s;
}

/// An out= sample writing f(A) of a [3, 3] matrix.
Sample square_out(std::function<Tensor(const Tensor&)> f,
                  std::function<Tensor(const Tensor&, Tensor&)> f_out) {
  return {"[3, 3]",
          {conditioned({3, 3}, 7)},
          one([f](const Inputs& x) { return f(x[0]); }),
          nullptr,
          [f_out](const Inputs& x, Tensor& o) { return f_out(x[0], o); }};
}

void add_lu_det_ops(std::vector<OpInfo>& ops) {
  auto grad_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples,
                        Forward forward = Forward::kFormula) {
    ops.push_back({std::move(name), Check::kGradient, std::move(samples), "", forward});
  };
  auto out_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kOut, std::move(samples)});
  };
  auto det_ = [](const Tensor& a) { return std::get<0>(_linalg_det(a)); };
  grad_op("_linalg_det", [=] { return square_samples(det_, true); });
  grad_op("linalg_det",
          [] { return square_samples([](const Tensor& a) { return linalg_det(a); }, true); });
  grad_op("det", [] { return square_samples([](const Tensor& a) { return det(a); }, true); });
  out_op("linalg_det.out", [] {
    return std::vector<Sample>{
        square_out([](const Tensor& a) { return linalg_det(a); },
                   [](const Tensor& a, Tensor& o) { return linalg_det_out(a, o); })};
  });
  auto logabs = [](const Tensor& a) { return std::get<1>(_linalg_slogdet(a)); };
  grad_op("_linalg_slogdet", [=] { return square_samples(logabs, false); });
  grad_op("linalg_slogdet", [] {
    return square_samples([](const Tensor& a) { return std::get<1>(linalg_slogdet(a)); }, false);
  });
  grad_op("slogdet", [] {
    return square_samples([](const Tensor& a) { return std::get<1>(slogdet(a)); }, false);
  });
  // logdet on matrices with a positive determinant (A A^T + I): a negative one is NaN.
  grad_op("logdet", [] {
    return square_samples(
        [](const Tensor& a) {
          return logdet(add(matmul(a, transpose(a, -2, -1)), eye(a.size(-1))));
        },
        false);
  });
  auto sign_out = [](const char* which) {
    return [which](const Tensor& a, Tensor& o) {
      Tensor other = zeros({0}, a.scalar_type());
      if (std::string(which) == "linalg") {
        linalg_slogdet_out(a, other, o);
      } else {
        slogdet_out(a, other, o);
      }
      return o;
    };
  };
  out_op("linalg_slogdet.out",
         [=] { return std::vector<Sample>{square_out(logabs, sign_out("linalg"))}; });
  out_op("slogdet.out", [=] { return std::vector<Sample>{square_out(logabs, sign_out("torch"))}; });
}

void add_lu_inverse_ops(std::vector<OpInfo>& ops) {
  auto grad_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kGradient, std::move(samples)});
  };
  auto out_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kOut, std::move(samples)});
  };
  auto inv_ = [](const Tensor& a) { return std::get<0>(linalg_inv_ex(a)); };
  grad_op("linalg_inv_ex", [=] { return square_samples(inv_, false); });
  grad_op("linalg_inv",
          [] { return square_samples([](const Tensor& a) { return linalg_inv(a); }, false); });
  grad_op("inverse",
          [] { return square_samples([](const Tensor& a) { return inverse(a); }, false); });
  out_op("linalg_inv.out", [] {
    return std::vector<Sample>{
        square_out([](const Tensor& a) { return linalg_inv(a); },
                   [](const Tensor& a, Tensor& o) { return linalg_inv_out(a, o); })};
  });
  out_op("inverse.out", [] {
    return std::vector<Sample>{
        square_out([](const Tensor& a) { return inverse(a); },
                   [](const Tensor& a, Tensor& o) { return inverse_out(a, o); })};
  });
}

/// Samples of solve(A, B, left): matrix and vector right-hand sides, broadcast batches, left and
/// right, only A or only B requiring grad, float32.
std::vector<Sample> solve_samples(std::function<Tensor(const Tensor&, const Tensor&, bool)> f) {
  auto l = one([f](const Inputs& x) { return f(x[0], x[1], true); });
  auto r = one([f](const Inputs& x) { return f(x[0], x[1], false); });
  return {
      {"[3, 3] and [3, 2]", {conditioned({3, 3}, 1), leaf({3, 2}, 2)}, l},
      {"left=False: [3, 3] and [2, 3]", {conditioned({3, 3}, 3), leaf({2, 3}, 4)}, r},
      {"vector [3]", {conditioned({3, 3}, 5), leaf({3}, 6)}, l},
      {"batched vectors [2, 3]", {conditioned({2, 3, 3}, 7), leaf({2, 3}, 8)}, l},
      {"broadcast [2, 1, 3, 3] and [4, 3, 1]",
       {conditioned({2, 1, 3, 3}, 9), leaf({4, 3, 1}, 10)},
       l},
      {"left=False, broadcast [3, 3] and [2, 4, 3]",
       {conditioned({3, 3}, 11), leaf({2, 4, 3}, 12)},
       r},
      {"only B requires grad", {conditioned({3, 3}, 13).detach(), leaf({3, 2}, 14)}, l},
      {"only A requires grad", {conditioned({3, 3}, 15), value({3, 2}, 16)}, l},
      {"empty batch [0, 2, 2]", {leaf({0, 2, 2}, 17), leaf({0, 2, 1}, 18)}, l},
      in_float32({"float32", {conditioned({3, 3}, 19), leaf({3, 2}, 20)}, one([f](const Inputs& x) {
                    return to(f(to(x[0], ScalarType::Float), to(x[1], ScalarType::Float), true),
                              ScalarType::Double);
                  })}),
  };
}

void add_lu_solve_ops(std::vector<OpInfo>& ops) {
  auto grad_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kGradient, std::move(samples)});
  };
  auto out_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kOut, std::move(samples)});
  };
  grad_op("_linalg_solve_ex", [] {
    return solve_samples([](const Tensor& a, const Tensor& b, bool left) {
      return std::get<0>(_linalg_solve_ex(a, b, left));
    });
  });
  grad_op("linalg_solve_ex", [] {
    return solve_samples([](const Tensor& a, const Tensor& b, bool left) {
      return std::get<0>(linalg_solve_ex(a, b, left));
    });
  });
  grad_op("linalg_solve", [] {
    return solve_samples(
        [](const Tensor& a, const Tensor& b, bool left) { return linalg_solve(a, b, left); });
  });
  auto two = [](std::function<Tensor(const Tensor&, const Tensor&)> f,
                std::function<Tensor(const Tensor&, const Tensor&, Tensor&)> f_out) {
    return std::vector<Sample>{
        {"[3, 3] and [3, 2]",
         {conditioned({3, 3}, 1), leaf({3, 2}, 2)},
         one([f](const Inputs& x) { return f(x[0], x[1]); }),
         nullptr,
         [f_out](const Inputs& x, Tensor& o) { return f_out(x[0], x[1], o); }}};
  };
  out_op("linalg_solve_ex.out", [=] {
    return two([](const Tensor& a, const Tensor& b) { return linalg_solve(a, b); },
               [](const Tensor& a, const Tensor& b, Tensor& o) {
                 Tensor info = zeros({0}, ScalarType::Long);
                 linalg_solve_ex_out(a, b, true, false, o, info);
                 return o;
               });
  });
  out_op("linalg_solve.out", [=] {
    return two([](const Tensor& a, const Tensor& b) { return linalg_solve(a, b); },
               [](const Tensor& a, const Tensor& b, Tensor& o) {
                 return linalg_solve_out(a, b, true, o);
               });
  });
}

/// A x A^T + n I of a square leaf: symmetric positive-definite, well conditioned.
Tensor spd(const Tensor& x) {
  return add(matmul(x, transpose(x, -2, -1)), eye(x.size(-1)), static_cast<double>(x.size(-1)));
}

/// Samples of a function of one symmetric positive-definite matrix built from a square leaf.
std::vector<Sample> spd_samples(std::function<Tensor(const Tensor&)> f) {
  auto g = one([f](const Inputs& x) { return f(spd(x[0])); });
  return {
      {"[3, 3]", {leaf({3, 3}, 1)}, g},
      {"batch [2, 3, 3]", {leaf({2, 3, 3}, 2)}, g},
      {"[1, 1]", {leaf({1, 1}, 3)}, g},
      {"empty batch [0, 2, 2]", {leaf({0, 2, 2}, 4)}, g},
      in_float32({"float32 [3, 3]", {leaf({3, 3}, 5)}, one([f](const Inputs& x) {
                    return via_float32(spd(x[0]), f);
                  })}),
  };
}

void add_cholesky_ops(std::vector<OpInfo>& ops) {
  auto both = [](std::function<Tensor(const Tensor&, bool)> f) {
    std::vector<Sample> s = spd_samples([f](const Tensor& a) { return f(a, false); });
    for (Sample& u : spd_samples([f](const Tensor& a) { return f(a, true); })) {
      u.name = "upper, " + u.name;
      s.push_back(u);
    }
    return s;
  };
  ops.push_back({"linalg_cholesky_ex", Check::kGradient, [=] {
                   return both([](const Tensor& a, bool up) {
                     return std::get<0>(linalg_cholesky_ex(a, up));
                   });
                 }});
  ops.push_back({"linalg_cholesky", Check::kGradient, [=] {
                   return both([](const Tensor& a, bool up) { return linalg_cholesky(a, up); });
                 }});
  auto out_sample = [](std::function<Tensor(const Tensor&, Tensor&)> f_out) {
    return std::vector<Sample>{
        {"[3, 3]",
         {leaf({3, 3}, 7)},
         one([](const Inputs& x) { return linalg_cholesky(spd(x[0])); }),
         nullptr,
         [f_out](const Inputs& x, Tensor& o) { return f_out(spd(x[0]), o); }}};
  };
  ops.push_back({"linalg_cholesky_ex.L", Check::kOut, [=] {
                   return out_sample([](const Tensor& a, Tensor& o) {
                     Tensor info = zeros({0}, ScalarType::Long);
                     linalg_cholesky_ex_out(a, false, false, o, info);
                     return o;
                   });
                 }});
  ops.push_back({"linalg_cholesky.out", Check::kOut, [=] {
                   return out_sample(
                       [](const Tensor& a, Tensor& o) { return linalg_cholesky_out(a, false, o); });
                 }});
}

/// Gauge-invariant outputs of an SVD (U's and Vh's columns / rows are determined up to sign):
/// |U|, S, |Vh| (as PyTorch's OpInfo checks them), of U's and Vh's first k vectors.
std::vector<Tensor> svd_invariants(const std::tuple<Tensor, Tensor, Tensor>& usv) {
  const auto& [u, s, vh] = usv;
  const int64_t k = s.size(-1);
  return {abs(narrow(u, -1, 0, k)), s, abs(narrow(vh, -2, 0, k))};
}

void add_svd_ops(std::vector<OpInfo>& ops) {
  auto samples = [](std::function<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, bool)> f) {
    auto thin = [f](const Inputs& x) { return svd_invariants(f(x[0], false)); };
    auto full = [f](const Inputs& x) { return svd_invariants(f(x[0], true)); };
    return std::vector<Sample>{
        {"[3, 3]", {leaf({3, 3}, 1)}, thin},
        {"tall [4, 3]", {leaf({4, 3}, 2)}, thin},
        {"wide [2, 4]", {leaf({2, 4}, 3)}, thin},
        {"full_matrices, [3, 3]", {leaf({3, 3}, 4)}, full},
        {"batch [2, 3, 2]", {leaf({2, 3, 2}, 5)}, thin},
        {"U S Vh", {leaf({4, 3}, 6)}, one([f](const Inputs& x) {
           auto [u, s, vh] = f(x[0], false);
           return matmul(mul(u, unsqueeze(s, -2)), vh);
         })},
        {"empty batch [0, 3, 2]", {leaf({0, 3, 2}, 7)}, thin},
        in_float32({"float32 S [3, 3]", {leaf({3, 3}, 8)}, one([f](const Inputs& x) {
                      return via_float32(x[0],
                                         [f](const Tensor& a) { return std::get<1>(f(a, false)); });
                    })}),
    };
  };
  ops.push_back({"_linalg_svd", Check::kGradient, [=] {
                   return samples([](const Tensor& a, bool full) { return _linalg_svd(a, full); });
                 }});
  ops.push_back({"linalg_svd", Check::kGradient, [=] {
                   return samples([](const Tensor& a, bool full) { return linalg_svd(a, full); });
                 }});
  ops.push_back({"svd", Check::kGradient, [=] {
                   return samples([](const Tensor& a, bool full) {
                     auto [u, s, v] = svd(a, !full);
                     return std::make_tuple(u, s, transpose(v, -2, -1));
                   });
                 }});
  ops.push_back({"linalg_svdvals", Check::kGradient, [] {
                   auto f = one([](const Inputs& x) { return linalg_svdvals(x[0]); });
                   return std::vector<Sample>{{"[3, 3]", {leaf({3, 3}, 1)}, f},
                                              {"wide [2, 5]", {leaf({2, 5}, 2)}, f},
                                              {"batch [2, 4, 3]", {leaf({2, 4, 3}, 3)}, f}};
                 }});
  auto s_out = [](std::function<void(const Tensor&, Tensor&)> f_out) {
    return std::vector<Sample>{{"S of [4, 3]",
                                {leaf({4, 3}, 9)},
                                one([](const Inputs& x) { return linalg_svdvals(x[0]); }),
                                nullptr,
                                [f_out](const Inputs& x, Tensor& o) {
                                  f_out(x[0], o);
                                  return o;
                                }}};
  };
  ops.push_back({"linalg_svd.U", Check::kOut, [=] {
                   return s_out([](const Tensor& a, Tensor& o) {
                     Tensor u = zeros({0}, a.scalar_type()), vh = zeros({0}, a.scalar_type());
                     linalg_svd_out(a, true, std::nullopt, u, o, vh);
                   });
                 }});
  ops.push_back({"linalg_svdvals.out", Check::kOut, [=] {
                   return s_out(
                       [](const Tensor& a, Tensor& o) { linalg_svdvals_out(a, std::nullopt, o); });
                 }});
  ops.push_back({"svd.U", Check::kOut, [=] {
                   return s_out([](const Tensor& a, Tensor& o) {
                     Tensor u = zeros({0}, a.scalar_type()), v = zeros({0}, a.scalar_type());
                     svd_out(a, true, true, u, o, v);
                   });
                 }});
}

/// x + x^T of a square leaf: symmetric.
Tensor sym(const Tensor& x) { return add(x, transpose(x, -2, -1)); }

void add_eigh_ops(std::vector<OpInfo>& ops) {
  // The eigenvalues and |V| (V's columns are determined up to sign) of a symmetric input.
  auto samples = [](std::function<std::tuple<Tensor, Tensor>(const Tensor&, const char*)> f) {
    auto of = [f](const char* uplo) {
      return [f, uplo](const Inputs& x) {
        auto [w, v] = f(sym(x[0]), uplo);
        return std::vector<Tensor>{w, abs(v)};
      };
    };
    return std::vector<Sample>{
        {"[3, 3]", {leaf({3, 3}, 1)}, of("L")},
        {"UPLO='U' [3, 3]", {leaf({3, 3}, 2)}, of("U")},
        {"batch [2, 4, 4]", {leaf({2, 4, 4}, 3)}, of("L")},
        {"[1, 1]", {leaf({1, 1}, 4)}, of("L")},
        {"V diag(L) V^T", {leaf({3, 3}, 5)}, one([f](const Inputs& x) {
           auto [w, v] = f(sym(x[0]), "L");
           return matmul(mul(v, unsqueeze(w, -2)), transpose(v, -2, -1));
         })},
        {"empty batch [0, 2, 2]", {leaf({0, 2, 2}, 6)}, of("L")},
        in_float32({"float32 eigenvalues [3, 3]", {leaf({3, 3}, 7)}, one([f](const Inputs& x) {
                      return via_float32(sym(x[0]),
                                         [f](const Tensor& a) { return std::get<0>(f(a, "L")); });
                    })}),
    };
  };
  ops.push_back({"_linalg_eigh", Check::kGradient, [=] {
                   return samples(
                       [](const Tensor& a, const char* uplo) { return _linalg_eigh(a, uplo); });
                 }});
  ops.push_back({"linalg_eigh", Check::kGradient, [=] {
                   return samples(
                       [](const Tensor& a, const char* uplo) { return linalg_eigh(a, uplo); });
                 }});
  ops.push_back(
      {"linalg_eigvalsh", Check::kGradient, [] {
         auto f = one([](const Inputs& x) { return linalg_eigvalsh(sym(x[0])); });
         return std::vector<Sample>{{"[3, 3]", {leaf({3, 3}, 1)}, f},
                                    {"batch [2, 3, 3]", {leaf({2, 3, 3}, 2)}, f},
                                    {"UPLO='U'", {leaf({3, 3}, 3)}, one([](const Inputs& x) {
                                       return linalg_eigvalsh(sym(x[0]), "U");
                                     })}};
       }});
  auto w_out = [](std::function<void(const Tensor&, Tensor&)> f_out) {
    return std::vector<Sample>{{"eigenvalues of [3, 3]",
                                {leaf({3, 3}, 9)},
                                one([](const Inputs& x) { return linalg_eigvalsh(sym(x[0])); }),
                                nullptr,
                                [f_out](const Inputs& x, Tensor& o) {
                                  f_out(sym(x[0]), o);
                                  return o;
                                }}};
  };
  ops.push_back({"linalg_eigh.eigvals", Check::kOut, [=] {
                   return w_out([](const Tensor& a, Tensor& o) {
                     Tensor v = zeros({0}, a.scalar_type());
                     linalg_eigh_out(a, "L", o, v);
                   });
                 }});
  ops.push_back({"linalg_eigvalsh.out", Check::kOut, [=] {
                   return w_out([](const Tensor& a, Tensor& o) { linalg_eigvalsh_out(a, "L", o); });
                 }});
}

/// nonzero_numpy (torch.nonzero(x, as_tuple=True)): Long outputs without history.
void add_nonzero_numpy(std::vector<OpInfo>& ops) {
  ops.push_back(
      {"nonzero_numpy", Check::kNoDerivative, [] {
         return std::vector<Sample>{
             {"[2, 3]", {leaf({2, 3}, 1)}, [](const Inputs& x) { return nonzero_numpy(x[0]); }},
             {"0-dim", {leaf({}, 2)}, [](const Inputs& x) { return nonzero_numpy(x[0]); }},
         };
       }});
}

/// The in-place and out= variants of issue 23 the generated gradient test does not reach: the
/// in-place ops whose overload name differs from their functional one's (pow_.Scalar of
/// pow.Tensor_Scalar), the comparisons in place (a zero gradient, as PyTorch's entries) and
/// out= (no derivative), copy_ (gradgen's own entry), true_divide's composite variants,
/// matmul.out (matmul is composite), floor_divide_.Scalar (not differentiable, as PyTorch) and
/// randperm.out.
void add_inplace_out_ops(std::vector<OpInfo>& ops) {
  auto inplace_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kInPlace, std::move(samples)});
  };
  auto out_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kOut, std::move(samples)});
  };
  inplace_op("pow_.Scalar", [] {
    return std::vector<Sample>{
        {"[2, 3] ** 2.5",
         {positive({2, 3}, 1)},
         one([](const Inputs& x) { return pow(x[0], 2.5); }),
         [](Tensor& self, const Inputs&) { pow_(self, 2.5); }},
        {"[3] ** 3",
         {leaf({3}, 2)},
         one([](const Inputs& x) { return pow(x[0], 3); }),
         [](Tensor& self, const Inputs&) { pow_(self, 3); }},
    };
  });
  inplace_op("pow_.Tensor", [] {
    return std::vector<Sample>{
        {"[2, 3] ** [3]",
         {positive({2, 3}, 3), leaf({3}, 4)},
         one([](const Inputs& x) { return pow(x[0], x[1]); }),
         [](Tensor& self, const Inputs& x) { pow_(self, x[1]); }},
    };
  });
  using Compare = Tensor (*)(const Tensor&, const Tensor&);
  using CompareScalar = Tensor (*)(const Tensor&, const Scalar&);
  using CompareInPlace = Tensor& (*)(Tensor&, const Tensor&);
  using CompareScalarInPlace = Tensor& (*)(Tensor&, const Scalar&);
  using CompareOut = Tensor& (*)(const Tensor&, const Tensor&, Tensor&);
  using CompareScalarOut = Tensor& (*)(const Tensor&, const Scalar&, Tensor&);
  struct Comparison {
    const char* name;
    Compare cmp;
    CompareScalar cmp_scalar;
    CompareInPlace inplace;
    CompareScalarInPlace inplace_scalar;
    CompareOut out;
    CompareScalarOut out_scalar;
  };
  const Comparison comparisons[] = {
      {"eq", &eq, &eq, &eq_, &eq_, &eq_out, &eq_out},
      {"ne", &ne, &ne, &ne_, &ne_, &ne_out, &ne_out},
      {"lt", &lt, &lt, &lt_, &lt_, &lt_out, &lt_out},
      {"le", &le, &le, &le_, &le_, &le_out, &le_out},
      {"gt", &gt, &gt, &gt_, &gt_, &gt_out, &gt_out},
      {"ge", &ge, &ge, &ge_, &ge_, &ge_out, &ge_out},
  };
  for (const Comparison& c : comparisons) {
    const std::string name = c.name;
    // In place: 0 / 1 in self's dtype (float64), the out-of-place Bool result converted.
    inplace_op(name + "_.Tensor", [c] {
      return std::vector<Sample>{
          {"[2, 3] and [3]",
           {leaf({2, 3}, 1), value({3}, 2)},
           one([c](const Inputs& x) { return to(c.cmp(x[0], x[1]), ScalarType::Double); }),
           [c](Tensor& self, const Inputs& x) { c.inplace(self, x[1]); }},
      };
    });
    inplace_op(name + "_.Scalar", [c] {
      return std::vector<Sample>{
          {"[2, 3] and 0.25",
           {leaf({2, 3}, 3)},
           one([c](const Inputs& x) { return to(c.cmp_scalar(x[0], 0.25), ScalarType::Double); }),
           [c](Tensor& self, const Inputs&) { c.inplace_scalar(self, 0.25); }},
      };
    });
    out_op(name + ".Tensor_out", [c] {
      return std::vector<Sample>{
          {"[2, 3] and [3]",
           {leaf({2, 3}, 4), leaf({3}, 5)},
           one([c](const Inputs& x) { return c.cmp(x[0], x[1]); }),
           nullptr,
           [c](const Inputs& x, Tensor& o) { return c.out(x[0], x[1], o); }},
      };
    });
    out_op(name + ".Scalar_out", [c] {
      return std::vector<Sample>{
          {"[2, 3] and 0",
           {leaf({2, 3}, 6)},
           one([c](const Inputs& x) { return c.cmp_scalar(x[0], 0.0); }),
           nullptr,
           [c](const Inputs& x, Tensor& o) { return c.out_scalar(x[0], 0.0, o); }},
      };
    });
  }
  // copy_: src broadcast and converted; gradients to both (self's old value: zero).
  inplace_op("copy_", [] {
    return std::vector<Sample>{
        {"[2, 3] from [2, 3]",
         {leaf({2, 3}, 1), leaf({2, 3}, 2)},
         one([](const Inputs& x) { return mul(x[1], 1.0); }),
         [](Tensor& self, const Inputs& x) { copy_(self, x[1]); }},
        {"[2, 3] from [3] (broadcast)",
         {leaf({2, 3}, 3), leaf({3}, 4)},
         one([](const Inputs& x) {
           return expand(x[1], {2, 3}).contiguous();
         }),
         [](Tensor& self, const Inputs& x) { copy_(self, x[1]); }},
    };
  });
  // true_divide_ is div_ (CompositeImplicitAutograd): div_'s wrapper records the history and
  // refuses leaves (naming div_), so its gradient is checked through a clone.
  auto grad_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kGradient, std::move(samples)});
  };
  grad_op("true_divide_.Tensor", [] {
    return std::vector<Sample>{
        {"[2, 3] / [3]", {leaf({2, 3}, 1), positive({3}, 2)}, one([](const Inputs& x) {
           Tensor self = clone(x[0]);
           true_divide_(self, x[1]);
           return self;
         })},
    };
  });
  grad_op("true_divide_.Scalar", [] {
    return std::vector<Sample>{
        {"[2, 3] / 4", {leaf({2, 3}, 3)}, one([](const Inputs& x) {
           Tensor self = clone(x[0]);
           true_divide_(self, 4.0);
           return self;
         })},
    };
  });
  out_op("true_divide.out", [] {
    return std::vector<Sample>{
        {"[2, 3] / [3]",
         {leaf({2, 3}, 1), positive({3}, 2)},
         one([](const Inputs& x) { return div(x[0], x[1]); }),
         nullptr,
         [](const Inputs& x, Tensor& o) { return true_divide_out(x[0], x[1], o); }},
    };
  });
  // divide_ / multiply_ / subtract_ are div_ / mul_ / sub_ (PyTorch's aliases): through a clone.
  auto inplace_alias = [&grad_op](std::string name, bool scalar,
                                  std::function<void(Tensor&, const Tensor&)> op) {
    grad_op(std::move(name), [scalar, op] {
      Inputs in = scalar ? Inputs{leaf({2, 3}, 3)} : Inputs{leaf({2, 3}, 1), positive({3}, 2)};
      return std::vector<Sample>{
          {scalar ? "[2, 3] with 4" : "[2, 3] with [3]", in, one([op, scalar](const Inputs& x) {
             Tensor self = clone(x[0]);
             op(self, scalar ? Tensor() : x[1]);
             return self;
           })},
      };
    });
  };
  inplace_alias("divide_.Tensor", false, [](Tensor& s, const Tensor& o) { divide_(s, o); });
  inplace_alias("divide_.Scalar", true, [](Tensor& s, const Tensor&) { divide_(s, 4.0); });
  inplace_alias("divide_.Tensor_mode", false,
                [](Tensor& s, const Tensor& o) { divide_(s, o, std::nullopt); });
  inplace_alias("divide_.Scalar_mode", true,
                [](Tensor& s, const Tensor&) { divide_(s, 4.0, std::nullopt); });
  inplace_alias("multiply_.Tensor", false, [](Tensor& s, const Tensor& o) { multiply_(s, o); });
  inplace_alias("multiply_.Scalar", true, [](Tensor& s, const Tensor&) { multiply_(s, 4.0); });
  inplace_alias("subtract_.Tensor", false, [](Tensor& s, const Tensor& o) { subtract_(s, o, 2); });
  inplace_alias("subtract_.Scalar", true, [](Tensor& s, const Tensor&) { subtract_(s, 4.0, 2); });
  auto out_alias = [&out_op](std::string name, std::function<Tensor(const Inputs&)> ref,
                             std::function<Tensor&(const Inputs&, Tensor&)> op) {
    out_op(std::move(name), [ref, op] {
      return std::vector<Sample>{
          {"[2, 3] with [3]", {leaf({2, 3}, 1), positive({3}, 2)}, one(ref), nullptr, op},
      };
    });
  };
  out_alias(
      "divide.out", [](const Inputs& x) { return div(x[0], x[1]); },
      [](const Inputs& x, Tensor& o) -> Tensor& { return divide_out(x[0], x[1], o); });
  out_alias(
      "divide.out_mode", [](const Inputs& x) { return div(x[0], x[1], "floor"); },
      [](const Inputs& x, Tensor& o) -> Tensor& { return divide_out(x[0], x[1], "floor", o); });
  out_alias(
      "multiply.out", [](const Inputs& x) { return mul(x[0], x[1]); },
      [](const Inputs& x, Tensor& o) -> Tensor& { return multiply_out(x[0], x[1], o); });
  out_alias(
      "subtract.out", [](const Inputs& x) { return sub(x[0], x[1], 2); },
      [](const Inputs& x, Tensor& o) -> Tensor& { return subtract_out(x[0], x[1], 2, o); });
  out_op("matmul.out", [] {
    return std::vector<Sample>{
        {"[2, 3] @ [3, 4]",
         {leaf({2, 3}, 1), leaf({3, 4}, 2)},
         one([](const Inputs& x) { return matmul(x[0], x[1]); }),
         nullptr,
         [](const Inputs& x, Tensor& o) { return matmul_out(x[0], x[1], o); }},
        {"batched [2, 2, 3] @ [3]",
         {leaf({2, 2, 3}, 3), leaf({3}, 4)},
         one([](const Inputs& x) { return matmul(x[0], x[1]); }),
         nullptr,
         [](const Inputs& x, Tensor& o) { return matmul_out(x[0], x[1], o); }},
    };
  });
  // max / min: the binary forms' out= (maximum's values) and the full reductions' out=.
  out_op("max.out", [] {
    return std::vector<Sample>{
        {"max([2, 3], [3])",
         {leaf({2, 3}, 1), leaf({3}, 2)},
         one([](const Inputs& x) { return maximum(x[0], x[1]); }),
         nullptr,
         [](const Inputs& x, Tensor& o) { return max_out(x[0], x[1], o); }},
    };
  });
  out_op("min.out", [] {
    return std::vector<Sample>{
        {"min([2, 3], [3])",
         {leaf({2, 3}, 1), leaf({3}, 2)},
         one([](const Inputs& x) { return minimum(x[0], x[1]); }),
         nullptr,
         [](const Inputs& x, Tensor& o) { return min_out(x[0], x[1], o); }},
    };
  });
  out_op("max.unary_out", [] {
    return std::vector<Sample>{
        {"max([2, 3])",
         {leaf({2, 3}, 3)},
         one([](const Inputs& x) { return max(x[0]); }),
         nullptr,
         [](const Inputs& x, Tensor& o) { return max_out(x[0], o); }},
    };
  });
  out_op("min.unary_out", [] {
    return std::vector<Sample>{
        {"min([2, 3])",
         {leaf({2, 3}, 4)},
         one([](const Inputs& x) { return min(x[0]); }),
         nullptr,
         [](const Inputs& x, Tensor& o) { return min_out(x[0], o); }},
    };
  });
  // A number's remainder by a tensor: not differentiable, as in PyTorch (no entry).
  ops.push_back({"remainder.Scalar_Tensor", Check::kNotImplemented, [] {
                   return std::vector<Sample>{
                       {"2.5 % [2, 3]", {positive({2, 3}, 1)}, one([](const Inputs& x) {
                          return remainder(2.5, x[0]);
                        })},
                   };
                 }});
  ops.back().forward = Forward::kNotImplemented;
  // Not differentiable, as in PyTorch: backward raises, no forward formula.
  ops.push_back({"floor_divide_.Scalar", Check::kNotImplemented, [] {
                   return std::vector<Sample>{
                       {"[2, 3] // 0.7", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
                          Tensor self = clone(x[0]);
                          floor_divide_(self, 0.7);
                          return self;
                        })},
                   };
                 }});
  ops.back().forward = Forward::kNotImplemented;
  // randperm.out: no history (the factories' convention: an unused input requiring grad);
  // permutations of 0 and 1 elements are determined.
  ops.push_back({"randperm.out", Check::kNoDerivative, [] {
                   return std::vector<Sample>{
                       {"n = 1 into float64", {leaf({2}, 1)}, one([](const Inputs&) {
                          Tensor o = zeros({0}, ScalarType::Double);
                          return randperm_out(1, o);
                        })},
                       {"n = 0", {leaf({2}, 1)}, one([](const Inputs&) {
                          Tensor o = zeros({0}, ScalarType::Long);
                          return randperm_out(0, o);
                        })},
                   };
                 }});
}

/// Every decomposition op's entries (issue 23), appended to the registry.
void add_decomp_ops(std::vector<OpInfo>& ops) {
  add_lu_det_ops(ops);
  add_lu_inverse_ops(ops);
  add_lu_solve_ops(ops);
  add_cholesky_ops(ops);
  add_svd_ops(ops);
  add_eigh_ops(ops);
  add_nonzero_numpy(ops);
}

/// grid_sampler_2d's samples (issue 26, resampling): one per mode x padding x align_corners on
/// input [2, 2, 3, 4] and a grid [2, 3, 2, 2] of seeded points spread to about [-1.6, 1.6], so
/// that the padding modes see points outside the image. Finite differences need the points off
/// the kinks (integer source coordinates for bilinear and bicubic's floor, halves for nearest's
/// rounding, the image's edges for border / reflection): the sweep's step is 1e-6, and seeded
/// random points lie that close to a kink with a chance of about 1e-5 each; the seeds are fixed.
std::vector<Sample> grid_sampler_samples(
    std::function<std::vector<Tensor>(const Inputs&, int64_t, int64_t, bool)> f,
    bool with_grad_output) {
  static const char* modes[] = {"bilinear", "nearest", "bicubic"};
  static const char* paddings[] = {"zeros", "border", "reflection"};
  std::vector<Sample> samples;
  uint64_t seed = 1;
  for (int64_t mode = 0; mode < 3; ++mode) {
    for (int64_t padding = 0; padding < 3; ++padding) {
      for (bool align : {false, true}) {
        Inputs in = {leaf({2, 2, 3, 4}, seed), leaf({2, 3, 2, 2}, seed + 1)};
        if (with_grad_output) in.insert(in.begin(), leaf({2, 2, 3, 2}, seed + 2));
        seed += 3;
        samples.push_back(
            {std::string(modes[mode]) + ", " + paddings[padding] + (align ? ", align_corners" : ""),
             in, [=](const Inputs& x) { return f(x, mode, padding, align); }});
      }
    }
  }
  return samples;
}

/// The .vec overloads of the antialiased resampling ops (PyTorch's composites over
/// _upsample_bilinear2d_aa / _upsample_bicubic2d_aa): by output_size and by scale_factors.
void add_upsample_aa_vec_ops(std::vector<OpInfo>& ops) {
  using Scales = std::optional<std::vector<double>>;
  ops.push_back(
      {"_upsample_bilinear2d_aa.vec", Check::kGradient, [] {
         return std::vector<Sample>{
             {"output_size", {leaf({1, 2, 7, 5}, 1)}, one([](const Inputs& x) {
                return _upsample_bilinear2d_aa(x[0], IntArrayRef{3, 8}, false, Scales());
              })},
             {"scale_factors, align_corners", {leaf({1, 1, 6, 4}, 2)}, one([](const Inputs& x) {
                return _upsample_bilinear2d_aa(x[0], std::nullopt, true,
                                               Scales(std::vector<double>{0.4, 1.6}));
              })},
         };
       }});
  ops.push_back({"_upsample_bicubic2d_aa.vec", Check::kGradient, [] {
                   return std::vector<Sample>{
                       {"output_size", {leaf({1, 2, 5, 7}, 3)}, one([](const Inputs& x) {
                          return _upsample_bicubic2d_aa(x[0], IntArrayRef{8, 3}, false, Scales());
                        })},
                       {"scale_factors", {leaf({2, 1, 6, 4}, 4)}, one([](const Inputs& x) {
                          return _upsample_bicubic2d_aa(x[0], std::nullopt, false,
                                                        Scales(std::vector<double>{0.5, 1.5}));
                        })},
                   };
                 }});
}

/// grid_sampler_2d, its backward (gradgradcheck of the backward: third derivatives of
/// grid_sampler_2d), their out= variants and the composite grid_sampler.
void add_grid_sampler_ops(std::vector<OpInfo>& ops) {
  auto spread = [](const Tensor& g) { return mul(g, 1.2); };  // points outside [-1, 1] too
  auto sample = [=](const Inputs& x, int64_t mode, int64_t padding, bool align) {
    return std::vector<Tensor>{grid_sampler_2d(x[0], spread(x[1]), mode, padding, align)};
  };
  ops.push_back(
      {"grid_sampler", Check::kGradient, [=] {
         return std::vector<Sample>{
             {"bilinear, zeros",
              {leaf({1, 2, 3, 3}, 1), leaf({1, 2, 2, 2}, 2)},
              one([=](const Inputs& x) { return grid_sampler(x[0], spread(x[1]), 0, 0, false); })},
             {"bicubic, reflection, align_corners",
              {leaf({1, 1, 4, 3}, 3), leaf({1, 2, 3, 2}, 4)},
              one([=](const Inputs& x) { return grid_sampler(x[0], spread(x[1]), 2, 2, true); })},
         };
       }});
  ops.back().forward = Forward::kNotImplemented;
  ops.push_back(
      {"grid_sampler_2d", Check::kGradient, [=] {
         std::vector<Sample> s = grid_sampler_samples(sample, false);
         s.push_back({"transposed input, only the grid requires grad",
                      {value({1, 2, 4, 3}, 60), leaf({1, 2, 3, 2}, 61)},
                      one([=](const Inputs& x) {
                        return grid_sampler_2d(transpose(x[0], 2, 3), spread(x[1]), 0, 1, false);
                      })});
         s.push_back({"only the input requires grad",
                      {leaf({1, 1, 3, 3}, 62), value({1, 4, 1, 2}, 63)},
                      one([=](const Inputs& x) {
                        return grid_sampler_2d(x[0], spread(x[1]), 2, 0, false);
                      })});
         s.push_back(in_float32({"float32, bilinear, reflection",
                                 {leaf({1, 2, 3, 4}, 64), leaf({1, 2, 2, 2}, 65)},
                                 one([=](const Inputs& x) {
                                   return to(grid_sampler_2d(to(x[0], ScalarType::Float),
                                                             to(spread(x[1]), ScalarType::Float), 0,
                                                             2, false),
                                             ScalarType::Double);
                                 })}));
         return s;
       }});
  ops.back().forward = Forward::kNotImplemented;
  auto backward = [=](const Inputs& x, int64_t mode, int64_t padding, bool align) {
    auto [gi, gg] =
        grid_sampler_2d_backward(x[0], x[1], spread(x[2]), mode, padding, align, {true, true});
    return std::vector<Tensor>{gi, gg};
  };
  ops.push_back({"grid_sampler_2d_backward", Check::kGradient, [=] {
                   std::vector<Sample> s = grid_sampler_samples(backward, true);
                   s.push_back(
                       {"output_mask [false, true]: the grid's gradient only",
                        {leaf({1, 1, 2, 2}, 70), leaf({1, 1, 3, 3}, 71), leaf({1, 2, 2, 2}, 72)},
                        one([=](const Inputs& x) {
                          return std::get<1>(grid_sampler_2d_backward(x[0], x[1], spread(x[2]), 0,
                                                                      2, false, {false, true}));
                        })});
                   return s;
                 }});
  ops.back().forward = Forward::kNotImplemented;
}

/// ctc_loss's calls (issue 26, the last op): log_probs [T, N, C] = [6, 3, 5] made by log_softmax
/// of the sample's leaf inside the call. PyTorch's gradient of the loss with respect to log_probs
/// is that of the loss composed with log_softmax (the log-simplex projection, PyTorch's
/// gradcheck_wrapper_ctc_loss): it differs from the finite differences of the raw log_probs by
/// exp(log_probs), so gradcheck of the whole gradient holds only through the log_softmax, which
/// the samples language cannot say. specs/samples.yaml's samples of _ctc_loss take log_probs in
/// [-30, -20], where that term is below gradcheck's tolerance; these entries check it all, the
/// composites ctc_loss.IntList / .Tensor, and _ctc_loss_backward, whose neg_log_likelihood and
/// log_alpha must be a forward pass's (specs/samples.yaml skips it saying so).
struct CtcCall {
  std::vector<int64_t> targets, target_shape, input_lengths, target_lengths;
  int64_t blank = 0;
};

/// Padded targets [3, 4]: a repeated label (2, 2: a blank between them), a label repeated three
/// times, lengths 4, 2, 3; input lengths 6, 5, 6.
CtcCall ctc_padded() {
  return {{1, 2, 2, 3, 4, 1, 0, 0, 3, 3, 3, 0}, {3, 4}, {6, 5, 6}, {4, 2, 3}};
}

/// 1-D concatenated targets with blank 4 (class 0 a label), an empty target, input length 1.
CtcCall ctc_concatenated() { return {{0, 1, 1, 2, 0}, {5}, {6, 1, 4}, {3, 0, 2}, 4}; }

/// Sequence 0 cannot be aligned: 3 labels (two repeated: 5 frames needed) in 4 frames.
CtcCall ctc_impossible() { return {{1, 1, 1, 2, 3, 4}, {6}, {4, 6, 5}, {3, 2, 1}}; }

Tensor ctc_log_probs(const Tensor& x) { return log_softmax(x, 2); }

std::vector<Tensor> ctc_nll(const Inputs& x, const CtcCall& c,
                            ScalarType dtype = ScalarType::Long) {
  const Tensor targets = to(longs(c.targets, c.target_shape), dtype);
  return {std::get<0>(
      _ctc_loss(ctc_log_probs(x[0]), targets, c.input_lengths, c.target_lengths, c.blank))};
}

void add_ctc_forward_ops(std::vector<OpInfo>& ops, const std::string& no_double) {
  auto add = [&](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kGradient, std::move(samples), no_double,
                   Forward::kNotImplemented});
  };
  add("_ctc_loss", [] {
    return std::vector<Sample>{
        {"padded targets [3, 4]",
         {leaf({6, 3, 5}, 1)},
         [](const Inputs& x) { return ctc_nll(x, ctc_padded()); }},
        {"1-D targets, blank 4, an empty target",
         {leaf({6, 3, 5}, 2)},
         [](const Inputs& x) { return ctc_nll(x, ctc_concatenated()); }},
        {"Int targets",
         {leaf({6, 3, 5}, 3)},
         [](const Inputs& x) { return ctc_nll(x, ctc_padded(), ScalarType::Int); }},
        {"batch of 1, input length < T",
         {leaf({6, 1, 5}, 4)},
         [](const Inputs& x) {
           return ctc_nll(x, {{2, 1, 2}, {1, 3}, {5}, {3}});
         }},
        in_float32({"float32",
                    {leaf({6, 3, 5}, 5)},
                    [](const Inputs& x) {
                      const Tensor lp = to(ctc_log_probs(x[0]), ScalarType::Float);
                      const CtcCall c = ctc_padded();
                      const Tensor nll = std::get<0>(_ctc_loss(lp, longs(c.targets, c.target_shape),
                                                               c.input_lengths, c.target_lengths));
                      return std::vector<Tensor>{to(nll, ScalarType::Double)};
                    }}),
    };
  });
  add("_ctc_loss.Tensor", [] {
    return std::vector<Sample>{
        {"Int lengths",
         {leaf({6, 3, 5}, 6)},
         [](const Inputs& x) {
           const CtcCall c = ctc_concatenated();
           const int64_t n = static_cast<int64_t>(c.input_lengths.size());
           const Tensor il = to(longs(c.input_lengths, {n}), ScalarType::Int);
           const Tensor tl = longs(c.target_lengths, {n});
           return std::vector<Tensor>{std::get<0>(
               _ctc_loss(ctc_log_probs(x[0]), longs(c.targets, c.target_shape), il, tl, c.blank))};
         }},
    };
  });
}

Sample ctc_loss_sample(std::string name, CtcCall c, int64_t reduction, bool zero_infinity,
                       uint64_t seed, bool unbatched = false) {
  const std::vector<int64_t> shape =
      unbatched ? std::vector<int64_t>{6, 5} : std::vector<int64_t>{6, 3, 5};
  return {name, {leaf(shape, seed)}, one([=](const Inputs& x) {
            const Tensor lp = log_softmax(x[0], -1);
            return ctc_loss(lp, longs(c.targets, c.target_shape), c.input_lengths, c.target_lengths,
                            c.blank, reduction, zero_infinity);
          })};
}

void add_ctc_loss_ops(std::vector<OpInfo>& ops, const std::string& no_double) {
  auto add = [&](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kGradient, std::move(samples), no_double,
                   Forward::kNotImplemented});
  };
  add("ctc_loss.IntList", [] {
    return std::vector<Sample>{
        ctc_loss_sample("mean", ctc_padded(), Reduction::Mean, false, 1),
        ctc_loss_sample("sum, 1-D targets, blank 4", ctc_concatenated(), Reduction::Sum, false, 2),
        ctc_loss_sample("none", ctc_padded(), Reduction::None, false, 3),
        ctc_loss_sample("mean, zero_infinity, an impossible alignment", ctc_impossible(),
                        Reduction::Mean, true, 4),
        ctc_loss_sample("none, zero_infinity", ctc_impossible(), Reduction::None, true, 5),
        ctc_loss_sample("unbatched [6, 5], mean", {{3, 1, 3}, {3}, {6}, {3}}, Reduction::Mean,
                        false, 6, true),
    };
  });
  add("ctc_loss.Tensor", [] {
    return std::vector<Sample>{
        {"Long lengths, sum", {leaf({6, 3, 5}, 7)}, one([](const Inputs& x) {
           const CtcCall c = ctc_padded();
           return ctc_loss(log_softmax(x[0], 2), longs(c.targets, c.target_shape),
                           longs(c.input_lengths, {3}), longs(c.target_lengths, {3}), 0,
                           Reduction::Sum);
         })},
        {"unbatched, 0-dim lengths, mean", {leaf({6, 5}, 8)}, one([](const Inputs& x) {
           return ctc_loss(log_softmax(x[0], 1), longs({2, 4}, {2}), longs({5}, {}), longs({2}, {}),
                           0, Reduction::Mean);
         })},
    };
  });
}

/// (neg_log_likelihood, log_alpha) of a call, from detached log-probabilities.
std::tuple<Tensor, Tensor> ctc_forward_of(const Tensor& x, const CtcCall& c) {
  return _ctc_loss(ctc_log_probs(x.detach()), longs(c.targets, c.target_shape), c.input_lengths,
                   c.target_lengths, c.blank);
}

void add_ctc_backward_ops(std::vector<OpInfo>& ops) {
  // As PyTorch: _ctc_loss_backward has no derivative (backward raises), no forward formula.
  auto not_implemented = [&](std::string name, bool tensor_lengths) {
    ops.push_back(
        {std::move(name), Check::kNotImplemented, [=] {
           auto fn = [=](const Inputs& x) {
             const CtcCall c = ctc_padded();
             auto [nll, la] = ctc_forward_of(x[1], c);
             const Tensor lp = ctc_log_probs(x[1]), t = longs(c.targets, c.target_shape);
             if (tensor_lengths) {
               return std::vector<Tensor>{
                   _ctc_loss_backward(x[0], lp, t, longs(c.input_lengths, {3}),
                                      longs(c.target_lengths, {3}), nll, la, 0, false)};
             }
             return std::vector<Tensor>{_ctc_loss_backward(x[0], lp, t, c.input_lengths,
                                                           c.target_lengths, nll, la, 0, false)};
           };
           return std::vector<Sample>{{"padded targets", {leaf({3}, 1), leaf({6, 3, 5}, 2)}, fn}};
         }});
    ops.back().forward = Forward::kNotImplemented;
  };
  not_implemented("_ctc_loss_backward", false);
  not_implemented("_ctc_loss_backward.Tensor", true);
}

void add_ctc_out_ops(std::vector<OpInfo>& ops) {
  ops.push_back({"_ctc_loss_backward.out", Check::kOut, [] {
                   const CtcCall c = ctc_padded();
                   auto args = [=](const Inputs& x) {
                     auto [nll, la] = ctc_forward_of(x[1], c);
                     return std::make_tuple(longs(c.targets, c.target_shape), nll, la);
                   };
                   return std::vector<Sample>{
                       {"padded targets",
                        {leaf({3}, 3), leaf({6, 3, 5}, 4)},
                        one([=](const Inputs& x) {
                          auto [t, nll, la] = args(x);
                          return _ctc_loss_backward(x[0], x[1], t, c.input_lengths,
                                                    c.target_lengths, nll, la, 0, false);
                        }),
                        nullptr,
                        [=](const Inputs& x, Tensor& out) -> Tensor {
                          auto [t, nll, la] = args(x);
                          return _ctc_loss_backward_out(x[0], x[1], t, c.input_lengths,
                                                        c.target_lengths, nll, la, 0, false, out);
                        }},
                   };
                 }});
}

/// Every ctc_loss declaration's entries, appended to the registry.
// The overloads an audit against PyTorch found missing (issue 23b): CompositeImplicitAutograd
// ones (their gradients those of the ops they call) and the variants the generated test has no
// case for.
void add_overloads23_ops(std::vector<OpInfo>& ops) {
  auto grad_op = [&ops](std::string name, std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), Check::kGradient, std::move(samples)});
  };
  auto both = [](std::tuple<Tensor, Tensor> r) {
    return std::vector<Tensor>{std::get<0>(r), std::get<1>(r)};
  };
  // var / std / var_mean / std_mean with unbiased=: the .correction overloads' gradients.
  grad_op("var", [] {
    return std::vector<Sample>{
        {"unbiased", {leaf({2, 3}, 1)}, one([](const Inputs& x) { return var(x[0], true); })},
        {"biased", {leaf({4}, 2)}, one([](const Inputs& x) { return var(x[0], false); })},
    };
  });
  grad_op("var.dim", [] {
    return std::vector<Sample>{
        {"dim 1 biased keepdim", {leaf({2, 3}, 3)}, one([](const Inputs& x) {
           return var(x[0], IntArrayRef{1}, false, true);
         })},
        {"dims {0, -1} unbiased", {leaf({2, 3, 2}, 4)}, one([](const Inputs& x) {
           return var(x[0], IntArrayRef{0, -1}, true, false);
         })},
        {"dim None", {leaf({3, 2}, 5)}, one([](const Inputs& x) {
           return var(x[0], std::nullopt, false, false);
         })},
    };
  });
  grad_op("std", [] {
    return std::vector<Sample>{
        {"unbiased", {leaf({2, 3}, 6)}, one([](const Inputs& x) { return std(x[0], true); })},
        {"biased", {leaf({4}, 7)}, one([](const Inputs& x) { return std(x[0], false); })},
    };
  });
  grad_op("std.dim", [] {
    return std::vector<Sample>{
        {"dim 0 biased", {leaf({3, 2}, 8)}, one([](const Inputs& x) {
           return std(x[0], IntArrayRef{0}, false, false);
         })},
        {"dim 1 unbiased keepdim", {leaf({2, 3}, 9)}, one([](const Inputs& x) {
           return std(x[0], IntArrayRef{1}, true, true);
         })},
    };
  });
  grad_op("var_mean", [both] {
    return std::vector<Sample>{
        {"biased",
         {leaf({2, 3}, 10)},
         [both](const Inputs& x) { return both(var_mean(x[0], false)); }},
    };
  });
  grad_op("var_mean.dim", [both] {
    return std::vector<Sample>{
        {"dim 1 unbiased keepdim",
         {leaf({2, 3}, 11)},
         [both](const Inputs& x) { return both(var_mean(x[0], IntArrayRef{1}, true, true)); }},
    };
  });
  grad_op("std_mean", [both] {
    return std::vector<Sample>{
        {"unbiased",
         {leaf({2, 3}, 12)},
         [both](const Inputs& x) { return both(std_mean(x[0], true)); }},
    };
  });
  grad_op("std_mean.dim", [both] {
    return std::vector<Sample>{
        {"dim 0 biased",
         {leaf({3, 2}, 13)},
         [both](const Inputs& x) { return both(std_mean(x[0], IntArrayRef{0}, false, false)); }},
    };
  });
  // The out= variants whose functional has no samples.yaml entry (argmin, all, any: no
  // derivative; nanmean: a composite), and all.dims / any.dims.
  auto add_op = [&ops](std::string name, Check check,
                       std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), check, std::move(samples)});
  };
  auto out1 = [](std::string name, std::function<Tensor(const Tensor&)> f,
                 std::function<Tensor(const Tensor&, Tensor&)> f_out, Tensor input) {
    return Sample{std::move(name),
                  {std::move(input)},
                  one([f](const Inputs& x) { return f(x[0]); }),
                  nullptr,
                  [f_out](const Inputs& x, Tensor& o) { return f_out(x[0], o); }};
  };
  add_op("argmin.out", Check::kOut, [=] {
    return std::vector<Sample>{
        out1(
            "dim 1 keepdim", [](const Tensor& a) { return argmin(a, 1, true); },
            [](const Tensor& a, Tensor& o) { return argmin_out(a, 1, true, o); }, leaf({3, 4}, 1)),
        out1(
            "all elements", [](const Tensor& a) { return argmin(a); },
            [](const Tensor& a, Tensor& o) { return argmin_out(a, std::nullopt, false, o); },
            leaf({2, 3}, 2)),
    };
  });
  add_op("nanmean.out", Check::kOut, [=] {
    return std::vector<Sample>{
        out1(
            "dim 0", [](const Tensor& a) { return nanmean(a, IntArrayRef{0}); },
            [](const Tensor& a, Tensor& o) {
              return nanmean_out(a, IntArrayRef{0}, false, std::nullopt, o);
            },
            leaf({3, 2}, 3)),
    };
  });
  // Bool reductions of a tensor with zeros (relu of an input: some rows all zero, some not).
  auto some_zeros = [](const Tensor& a) { return relu(a); };
  add_op("all.out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "dim 1", [=](const Tensor& a) { return all(some_zeros(a), 1); },
        [=](const Tensor& a, Tensor& o) { return all_out(some_zeros(a), 1, false, o); },
        leaf({3, 2}, 4))};
  });
  add_op("all.all_out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "all", [=](const Tensor& a) { return all(a); },
        [=](const Tensor& a, Tensor& o) { return all_out(a, o); }, leaf({3, 2}, 5))};
  });
  add_op("any.out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "dim 0 keepdim", [=](const Tensor& a) { return any(some_zeros(a), 0, true); },
        [=](const Tensor& a, Tensor& o) { return any_out(some_zeros(a), 0, true, o); },
        leaf({3, 2}, 6))};
  });
  add_op("any.all_out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "all", [=](const Tensor& a) { return any(some_zeros(a)); },
        [=](const Tensor& a, Tensor& o) { return any_out(some_zeros(a), o); }, leaf({3, 2}, 7))};
  });
  // split.sizes: split_with_sizes's pieces, weighted so that each piece's gradient differs.
  grad_op("split.sizes", [] {
    auto weighted = [](const std::vector<Tensor>& pieces) {
      Tensor total = sum(pieces[0]);
      for (size_t i = 1; i < pieces.size(); ++i) {
        total = add(total, sum(mul(pieces[i], static_cast<double>(i + 1))));
      }
      return std::vector<Tensor>{total};
    };
    return std::vector<Sample>{
        {"[1, 2] along dim 1",
         {leaf({2, 3}, 1)},
         [=](const Inputs& x) {
           return weighted(split(x[0], IntArrayRef{1, 2}, 1));
         }},
        {"[2, 0, 1] along dim 0",
         {leaf({3, 2}, 2)},
         [=](const Inputs& x) {
           return weighted(split(x[0], IntArrayRef{2, 0, 1}, 0));
         }},
    };
  });
  // to.other: to other's dtype (float64 here, so gradients are checked in float64).
  grad_op("to.other", [] {
    const Tensor other = zeros({1}, ScalarType::Double);
    return std::vector<Sample>{
        {"same dtype", {leaf({2, 3}, 1)}, one([other](const Inputs& x) {
           return to(x[0], other);
         })},
        {"copy", {leaf({3}, 2)}, one([other](const Inputs& x) {
           return mul(to(x[0], other, false, true), x[0]);
         })},
    };
  });
  for (const bool is_all : {true, false}) {
    add_op(is_all ? "all.dims" : "any.dims", Check::kNoDerivative, [=] {
      auto f = [=](const Tensor& a, OptionalIntArrayRef d, bool k) {
        return is_all ? all(some_zeros(a), d, k) : any(some_zeros(a), d, k);
      };
      return std::vector<Sample>{
          {"dims {0, 1}", {leaf({3, 2, 2}, 8)}, one([=](const Inputs& x) {
             return f(x[0], IntArrayRef{0, 1}, false);
           })},
          {"dim None keepdim", {leaf({2, 3}, 9)}, one([=](const Inputs& x) {
             return f(x[0], std::nullopt, true);
           })},
      };
    });
  }
}

// Overloads PyTorch has of ops gradgen declared (issue 23, decl23c): zeros / ones and the out=
// variants of the reductions and the samplers. A sampler's out= variant is checked against its
// functional form with a fresh generator of the same seed: the same draws.
void add_decl23c_ops(std::vector<OpInfo>& ops) {
  auto add_op = [&ops](std::string name, Check check,
                       std::function<std::vector<Sample>()> samples) {
    ops.push_back({std::move(name), check, std::move(samples)});
  };
  auto gen = [](uint64_t seed) { return std::optional<Generator>(Generator(seed)); };
  // A factory: an unused input requiring grad (the result has no history all the same).
  auto factory = [](std::string name, std::function<Tensor()> f) {
    return Sample{std::move(name), {leaf({2}, 1)}, one([f](const Inputs&) { return f(); })};
  };
  auto no_derivative = [&add_op](std::string name, std::vector<Sample> samples) {
    add_op(std::move(name), Check::kNoDerivative, [samples] { return samples; });
  };
  auto out1 = [](std::string name, std::function<Tensor(const Tensor&)> f,
                 std::function<Tensor(const Tensor&, Tensor&)> f_out, Tensor input) {
    return Sample{std::move(name),
                  {std::move(input)},
                  one([f](const Inputs& x) { return f(x[0]); }),
                  nullptr,
                  [f_out](const Inputs& x, Tensor& o) { return f_out(x[0], o); }};
  };
  no_derivative("zeros", {factory("[2, 3]",
                                  [] {
                                    return zeros({2, 3}, std::nullopt);
                                  }),
                          factory("Long", [] { return zeros({4}, ScalarType::Long); })});
  no_derivative("ones", {factory("[3, 1]",
                                 [] {
                                   return ones({3, 1}, std::nullopt);
                                 }),
                         factory("Bool", [] { return ones({2}, ScalarType::Bool); })});
  no_derivative("zeros.out", {factory("into a Long out", [] {
                  Tensor o = ones({5}, ScalarType::Long);
                  return zeros_out({2, 2}, o);
                })});
  no_derivative("ones.out", {factory("into a Double out", [] {
                  Tensor o = zeros({0}, ScalarType::Double);
                  return ones_out({3}, o);
                })});
  add_op("var.out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "dim 1 unbiased", [](const Tensor& a) { return var(a, IntArrayRef{1}, true, false); },
        [](const Tensor& a, Tensor& o) { return var_out(a, IntArrayRef{1}, true, false, o); },
        leaf({3, 4}, 2))};
  });
  add_op("std.out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "dims {0, 1} biased keepdim",
        [](const Tensor& a) {
          return std(a, IntArrayRef{0, 1}, false, true);
        },
        [](const Tensor& a, Tensor& o) {
          return std_out(a, IntArrayRef{0, 1}, false, true, o);
        },
        leaf({2, 3, 2}, 3))};
  });
  add_op("all.dims_out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "dims {0, 2}",
        [](const Tensor& a) {
          return all(relu(a), IntArrayRef{0, 2});
        },
        [](const Tensor& a, Tensor& o) {
          return all_out(relu(a), IntArrayRef{0, 2}, false, o);
        },
        leaf({2, 3, 2}, 4))};
  });
  add_op("any.dims_out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "dims {1} keepdim", [](const Tensor& a) { return any(relu(a), IntArrayRef{1}, true); },
        [](const Tensor& a, Tensor& o) { return any_out(relu(a), IntArrayRef{1}, true, o); },
        leaf({3, 2}, 5))};
  });
  // Random factories into out: no history (permutations of 0 and 1 elements, integers below 1
  // and samples of std 0 are determined; the others are checked against torch in Python).
  no_derivative("rand.out", {factory("[2, 3] into float32", [] {
                  Tensor o = zeros({0}, ScalarType::Float);
                  return rand_out({2, 3}, o);
                })});
  no_derivative("rand.generator_out", {factory("[3] into float64", [=] {
                  Tensor o = zeros({0}, ScalarType::Double);
                  return rand_out({3}, gen(1), o);
                })});
  no_derivative("randint.out", {factory("below 1 into Long", [] {
                  Tensor o = zeros({0}, ScalarType::Long);
                  return randint_out(1, {3}, o);
                })});
  no_derivative("randint.generator_out", {factory("below 4 into Double", [=] {
                  Tensor o = zeros({0}, ScalarType::Double);
                  return randint_out(4, {2, 2}, gen(2), o);
                })});
  no_derivative("randint.low_out", {factory("3 to 4 into Int", [] {
                  Tensor o = zeros({0}, ScalarType::Int);
                  return randint_out(3, 4, {2}, o);
                })});
  no_derivative("randint.low_generator_out", {factory("-2 to 2 into Long", [=] {
                  Tensor o = zeros({0}, ScalarType::Long);
                  return randint_out(-2, 2, {5}, gen(3), o);
                })});
  no_derivative("randperm.generator_out", {factory("5 into Long", [=] {
                  Tensor o = zeros({0}, ScalarType::Long);
                  return randperm_out(5, gen(4), o);
                })});
  no_derivative("normal.float_float_out", {factory("mean 1, std 2 into float64", [=] {
                  Tensor o = zeros({0}, ScalarType::Double);
                  return normal_out(1.0, 2.0, {3}, gen(5), o);
                })});
  // The samplers of tensors into out: the functional form's draws with the same seed.
  add_op("bernoulli.out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "p in (0, 1)", [=](const Tensor& a) { return bernoulli(sigmoid(a), gen(6)); },
        [=](const Tensor& a, Tensor& o) { return bernoulli_out(sigmoid(a), gen(6), o); },
        leaf({2, 3}, 6))};
  });
  add_op("multinomial.out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "2 of 4, 3 rows", [=](const Tensor& a) { return multinomial(abs(a), 2, false, gen(7)); },
        [=](const Tensor& a, Tensor& o) { return multinomial_out(abs(a), 2, false, gen(7), o); },
        leaf({3, 4}, 7))};
  });
  add_op("normal.Tensor_float_out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "std 0.5", [=](const Tensor& a) { return normal(a, 0.5, gen(8)); },
        [=](const Tensor& a, Tensor& o) { return normal_out(a, 0.5, gen(8), o); },
        leaf({2, 3}, 8))};
  });
  add_op("normal.float_Tensor_out", Check::kOut, [=] {
    return std::vector<Sample>{out1(
        "mean 1", [=](const Tensor& a) { return normal(1.0, abs(a), gen(9)); },
        [=](const Tensor& a, Tensor& o) { return normal_out(1.0, abs(a), gen(9), o); },
        leaf({4}, 9))};
  });
  add_op("normal.Tensor_Tensor_out", Check::kOut, [=] {
    return std::vector<Sample>{
        {"broadcast [2, 1] with [3]",
         {leaf({2, 1}, 10), leaf({3}, 11)},
         one([=](const Inputs& x) { return normal(x[0], abs(x[1]), gen(10)); }),
         nullptr,
         [=](const Inputs& x, Tensor& o) { return normal_out(x[0], abs(x[1]), gen(10), o); }}};
  });
  // linalg_diagonal: diagonal's gradient (a composite over diagonal).
  add_op("linalg_diagonal", Check::kGradient, [] {
    return std::vector<Sample>{
        {"last two dims", {leaf({2, 3, 4}, 18)}, one([](const Inputs& x) {
           return linalg_diagonal(x[0]);
         })},
        {"offset 1 over dims 0, 2", {leaf({3, 2, 4}, 19)}, one([](const Inputs& x) {
           return linalg_diagonal(x[0], 1, 0, 2);
         })},
    };
  });
  // bernoulli_ with a tensor of probabilities: a zero gradient for self and p, as PyTorch's.
  add_op("bernoulli_.Tensor", Check::kZeroGradient, [=] {
    return std::vector<Sample>{
        {"p broadcast [3] to [2, 3]", {leaf({2, 3}, 12), leaf({3}, 13)}, one([=](const Inputs& x) {
           Tensor self = clone(x[0]);
           bernoulli_(self, sigmoid(x[1]), gen(12));
           return self;
         })}};
  });
  no_derivative("where", {{"[2, 3] condition",
                           {leaf({2, 3}, 14)},
                           [](const Inputs& x) { return where(gt(x[0], 0.0)); }},
                          {"0-dim", {leaf({}, 15)}, [](const Inputs& x) { return where(x[0]); }}});
  // linspace / logspace with 0-dim tensor endpoints (inputs that require grad: no history).
  using Space = std::function<Tensor(const Tensor&, const Tensor&)>;
  auto space = [&no_derivative](std::string name, Space f) {
    no_derivative(std::move(name), {{"0-dim endpoints",
                                     {leaf({}, 16), leaf({}, 17)},
                                     one([f](const Inputs& x) { return f(x[0], x[1]); })}});
  };
  // The out= variants refuse endpoints that require grad (as PyTorch's): detached ones.
  auto into_double = [](std::function<Tensor(Tensor&)> f) {
    Tensor o = zeros({0}, ScalarType::Double);
    return f(o);
  };
  space("linspace.Tensor_Tensor",
        [](const Tensor& a, const Tensor& b) { return linspace(a, b, 5, std::nullopt); });
  space("linspace.Tensor_Scalar",
        [](const Tensor& a, const Tensor&) { return linspace(a, 3.0, 4, ScalarType::Double); });
  space("linspace.Scalar_Tensor",
        [](const Tensor&, const Tensor& b) { return linspace(-1, b, 3, std::nullopt); });
  space("linspace.Tensor_Tensor_out", [=](const Tensor& a, const Tensor& b) {
    return into_double([&](Tensor& o) { return linspace_out(a.detach(), b.detach(), 4, o); });
  });
  space("linspace.Tensor_Scalar_out", [=](const Tensor& a, const Tensor&) {
    return into_double([&](Tensor& o) { return linspace_out(a.detach(), 2.0, 3, o); });
  });
  space("linspace.Scalar_Tensor_out", [=](const Tensor&, const Tensor& b) {
    return into_double([&](Tensor& o) { return linspace_out(0, b.detach(), 3, o); });
  });
  space("logspace.Tensor_Tensor",
        [](const Tensor& a, const Tensor& b) { return logspace(a, b, 5, 10.0, std::nullopt); });
  space("logspace.Tensor_Scalar", [](const Tensor& a, const Tensor&) {
    return logspace(a, 1.0, 4, 2.0, ScalarType::Double);
  });
  space("logspace.Scalar_Tensor",
        [](const Tensor&, const Tensor& b) { return logspace(-1, b, 3, 10.0, std::nullopt); });
  space("logspace.Tensor_Tensor_out", [=](const Tensor& a, const Tensor& b) {
    return into_double([&](Tensor& o) { return logspace_out(a.detach(), b.detach(), 4, 10.0, o); });
  });
  space("logspace.Tensor_Scalar_out", [=](const Tensor& a, const Tensor&) {
    return into_double([&](Tensor& o) { return logspace_out(a.detach(), 2.0, 3, 2.0, o); });
  });
  space("logspace.Scalar_Tensor_out", [=](const Tensor&, const Tensor& b) {
    return into_double([&](Tensor& o) { return logspace_out(0, b.detach(), 3, 10.0, o); });
  });
}

void add_ctc_ops(std::vector<OpInfo>& ops) {
  const std::string no_double = "PyTorch has no derivative for _ctc_loss_backward";
  add_ctc_loss_ops(ops, no_double);
  add_ctc_forward_ops(ops, no_double);
  add_ctc_out_ops(ops);
  add_ctc_backward_ops(ops);
}

// ---------------------------------------------------------------------------
// The registry, in the order of specs/native_functions.yaml
// ---------------------------------------------------------------------------

std::vector<OpInfo> make_registry() {
  std::vector<OpInfo> ops;
  auto add_op = [&ops](std::string name, Check check, std::function<std::vector<Sample>()> samples,
                       std::string skip_gradgrad = "") {
    ops.push_back({std::move(name), check, std::move(samples), std::move(skip_gradgrad)});
  };
  auto grad_op = [&add_op](std::string name, std::function<std::vector<Sample>()> samples) {
    add_op(std::move(name), Check::kGradient, std::move(samples));
  };

  // The skeleton ops -------------------------------------------------------

  // Element-wise, binary ---------------------------------------------------
  // true_divide (issue 23, dtypes): div's composite alias, differentiated through div.
  grad_op("true_divide.Tensor", [] {
    return binary_samples([](const Tensor& a, const Tensor& b) { return true_divide(a, b); },
                          Domain::kAny, Domain::kAwayFromZero);
  });
  grad_op("true_divide.Scalar",
          [] { return unary_samples([](const Tensor& a) { return true_divide(a, 4); }); });

  // divide / multiply / subtract: PyTorch's aliases of div / mul / sub, through those ops.
  grad_op("divide.Tensor", [] {
    return binary_samples([](const Tensor& a, const Tensor& b) { return divide(a, b); },
                          Domain::kAny, Domain::kAwayFromZero);
  });
  grad_op("divide.Scalar",
          [] { return unary_samples([](const Tensor& a) { return divide(a, 4); }); });
  grad_op("divide.Tensor_mode", [] {
    return binary_samples([](const Tensor& a,
                             const Tensor& b) { return divide(a, b, std::nullopt); },
                          Domain::kAny, Domain::kAwayFromZero);
  });
  grad_op("divide.Scalar_mode",
          [] { return unary_samples([](const Tensor& a) { return divide(a, 4, std::nullopt); }); });
  grad_op("multiply.Tensor", [] {
    return binary_samples([](const Tensor& a, const Tensor& b) { return multiply(a, b); },
                          Domain::kAny, Domain::kAny);
  });
  grad_op("multiply.Scalar",
          [] { return unary_samples([](const Tensor& a) { return multiply(a, 4); }); });
  grad_op("subtract.Tensor", [] {
    return binary_samples([](const Tensor& a, const Tensor& b) { return subtract(a, b, 2); },
                          Domain::kAny, Domain::kAny);
  });
  grad_op("subtract.Scalar",
          [] { return unary_samples([](const Tensor& a) { return subtract(a, 4, 2); }); });

  // Element-wise, unary ----------------------------------------------------
  add_op("zero_", Check::kInPlace, [] {
    return inplace_unary_samples([](const Tensor& a) { return zeros_like(a); },
                                 [](Tensor& self) { zero_(self); });
  });

  // Reductions --------------------------------------------------------------

  // Matrix products ---------------------------------------------------------
  grad_op("matmul", [] {
    auto f = one([](const Inputs& x) { return matmul(x[0], x[1]); });
    return std::vector<Sample>{
        {"[3] . [3]", {leaf({3}, 1), leaf({3}, 2)}, f},
        {"[2, 3] @ [3]", {leaf({2, 3}, 3), leaf({3}, 4)}, f},
        {"[3] @ [3, 2]", {leaf({3}, 5), leaf({3, 2}, 6)}, f},
        {"[2, 3] @ [3, 4]", {leaf({2, 3}, 7), leaf({3, 4}, 8)}, f},
        {"[2, 2, 3] @ [3, 4] (batch folded)", {leaf({2, 2, 3}, 9), leaf({3, 4}, 10)}, f},
        {"[2, 2, 3] @ [3]", {leaf({2, 2, 3}, 11), leaf({3}, 12)}, f},
        {"[3] @ [2, 3, 2]", {leaf({3}, 13), leaf({2, 3, 2}, 14)}, f},
        {"[2, 1, 2, 3] @ [3, 3, 2] (batch broadcast)",
         {leaf({2, 1, 2, 3}, 15), leaf({3, 3, 2}, 16)},
         f},
    };
  });

  // Shape ops ---------------------------------------------------------------
  grad_op("view", [] {
    return std::vector<Sample>{
        {"[2, 3] as [3, 2]", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
           return view(x[0], {3, 2});
         })},
        {"[2, 3] as [-1]", {leaf({2, 3}, 2)}, one([](const Inputs& x) {
           return view(x[0], {-1});
         })},
        {"0-dim as [1, 1]", {leaf({}, 3)}, one([](const Inputs& x) {
           return view(x[0], {1, 1});
         })},
        {"[1] as []", {leaf({1}, 4)}, one([](const Inputs& x) { return view(x[0], {}); })},
        {"narrowed rows as a vector", {leaf({4, 3}, 5)}, one([](const Inputs& x) {
           return view(narrow(x[0], 0, 1, 2), {6});
         })},
    };
  });

  // Lists in and out --------------------------------------------------------

  // Indexing ----------------------------------------------------------------

  // Neural-network ops ------------------------------------------------------
  // softmax's float32 output of a float64 input (dtype=Float), converted back: what samples
  // cannot say (their float32 inputs convert the outputs; this output alone is float32).
  grad_op("softmax.int", [] {
    return std::vector<Sample>{
        in_float32({"dtype=Float", {leaf({2, 3}, 4)}, one([](const Inputs& x) {
                      return to(softmax(x[0], 1, ScalarType::Float), ScalarType::Double);
                    })}),
    };
  });
  // nll_loss_nd is a composite (no samples in YAML): through nll_loss for K = 0, nll_loss2d for
  // K = 2, nll_loss2d of [N, C, 1, S] otherwise.
  grad_op("nll_loss_nd", [] {
    return std::vector<Sample>{
        {"K = 1, Mean", {leaf({2, 3, 2}, 1), longs({0, 2, 1, 1}, {2, 2})}, one([](const Inputs& x) {
           return nll_loss_nd(x[0], x[1]);
         })},
        {"K = 3, None",
         {leaf({1, 2, 2, 1, 2}, 2), longs({0, 1, 1, 0}, {1, 2, 1, 2})},
         one([](const Inputs& x) {
           return nll_loss_nd(x[0], x[1], std::nullopt, Reduction::None);
         })},
        {"K = 0, [3, 4]", {leaf({3, 4}, 3), longs({1, 0, 3}, {3})}, one([](const Inputs& x) {
           return nll_loss_nd(x[0], x[1]);
         })},
    };
  });
  grad_op("cross_entropy_loss", [] {
    const Tensor target = longs({1, 0, 3}, {3});
    return std::vector<Sample>{
        {"[3, 4] logits", {leaf({3, 4}, 1), target}, one([](const Inputs& x) {
           return cross_entropy_loss(x[0], x[1]);
         })},
        {"weighted, Sum",
         {leaf({3, 4}, 2), target, positive({4}, 3, false)},
         one([](const Inputs& x) { return cross_entropy_loss(x[0], x[1], x[2], Reduction::Sum); })},
        {"label_smoothing=0.1", {leaf({3, 4}, 4), target}, one([](const Inputs& x) {
           return cross_entropy_loss(x[0], x[1], std::nullopt, Reduction::Mean, -100, 0.1);
         })},
        {"label_smoothing=0.2, weighted, ignore_index",
         {leaf({3, 4}, 5), longs({1, 3, 3}, {3}), positive({4}, 6, false)},
         one([](const Inputs& x) {
           return cross_entropy_loss(x[0], x[1], x[2], Reduction::Mean, 3, 0.2);
         })},
        {"label_smoothing, None", {leaf({3, 4}, 7), target}, one([](const Inputs& x) {
           return cross_entropy_loss(x[0], x[1], std::nullopt, Reduction::None, -100, 0.3);
         })},
    };
  });
  grad_op("native_dropout", [] {
    // A fresh generator per call: every evaluation draws the same mask.
    auto with_p = [](double p, std::optional<bool> train) {
      return [=](const Inputs& x) {
        auto [out, mask] = native_dropout(x[0], p, train, Generator(7));
        return std::vector<Tensor>{out, mask};
      };
    };
    return std::vector<Sample>{
        {"p=0.5", {leaf({4, 5}, 1)}, with_p(0.5, true)},
        {"p=0.2, train unset", {leaf({10}, 2)}, with_p(0.2, std::nullopt)},
        {"train=False", {leaf({3}, 3)}, with_p(0.5, false)},
        {"p=1", {leaf({3}, 4)}, with_p(1.0, true)},
    };
  });
  grad_op("native_dropout_backward", [] {
    return std::vector<Sample>{
        {"[2, 3] with a mask",
         {leaf({2, 3}, 1), bools({true, false, true, true, false, false}, {2, 3})},
         one([](const Inputs& x) { return native_dropout_backward(x[0], x[1], 2.0); })},
    };
  });
  grad_op("dropout", [] {
    return std::vector<Sample>{
        {"train, p=0.3", {leaf({3, 4}, 1)}, one([](const Inputs& x) {
           return dropout(x[0], 0.3, true, Generator(3));
         })},
        {"eval", {leaf({3}, 2)}, one([](const Inputs& x) { return dropout(x[0], 0.3, false); })},
    };
  });
  grad_op("cumprod", [] {
    // Zeros: none, one (first, middle, last of a line), two in a line, a line of zeros.
    auto with_zeros = [](std::vector<double> data, IntArrayRef sizes) {
      return tensor(std::move(data), sizes).set_requires_grad(true);
    };
    auto along = [](int64_t d) { return one([d](const Inputs& x) { return cumprod(x[0], d); }); };
    return std::vector<Sample>{
        {"[2, 3] dim 1", {leaf({2, 3}, 1)}, along(1)},
        {"[3, 2] dim 0", {leaf({3, 2}, 2)}, along(0)},
        {"[4] one zero in the middle", {with_zeros({1.5, 0, -0.7, 2}, {4})}, along(0)},
        {"[2, 4] zeros first and last",
         {with_zeros({0, 1.2, -0.8, 1.1, 0.9, -1.3, 0.6, 0}, {2, 4})},
         along(1)},
        {"[5] two zeros", {with_zeros({0.8, 0, 1.4, 0, -1.1}, {5})}, along(0)},
        {"[3, 2] dim 0 a column of zeros",
         {with_zeros({0, 1.1, 0, -0.9, 0, 1.3}, {3, 2})},
         along(0)},
        {"transposed view", {leaf({3, 4}, 3)}, one([](const Inputs& x) {
           return cumprod(t(x[0]), -1);
         })},
        {"0-dim", {leaf({}, 4)}, along(0)},
    };
  });

  // No derivative -------------------------------------------------------------
  add_op("zeros_like", Check::kNoDerivative, [] {
    return std::vector<Sample>{
        {"[2, 3]", {leaf({2, 3}, 1)}, one([](const Inputs& x) { return zeros_like(x[0]); })},
        {"dtype=Long", {leaf({2}, 2)}, one([](const Inputs& x) {
           return zeros_like(x[0], ScalarType::Long);
         })},
    };
  });
  add_op("ones_like", Check::kNoDerivative, [] {
    return std::vector<Sample>{
        {"[2, 3]", {leaf({2, 3}, 1)}, one([](const Inputs& x) { return ones_like(x[0]); })},
        {"dtype=Float", {leaf({2}, 2)}, one([](const Inputs& x) {
           return ones_like(x[0], ScalarType::Float);
         })},
    };
  });
  add_op("argmax", Check::kNoDerivative, [] {
    return std::vector<Sample>{
        {"all elements", {leaf({3, 4}, 1)}, one([](const Inputs& x) { return argmax(x[0]); })},
        {"dim 1 keepdim", {leaf({3, 4}, 2)}, one([](const Inputs& x) {
           return argmax(x[0], 1, true);
         })},
    };
  });
  // The comparisons: Bool results, no history, also with mixed dtypes (type promotion).
  using Compare = Tensor (*)(const Tensor&, const Tensor&);
  using CompareScalar = Tensor (*)(const Tensor&, const Scalar&);
  const std::pair<const char*, std::pair<Compare, CompareScalar>> comparisons[] = {
      {"eq", {&eq, &eq}}, {"ne", {&ne, &ne}}, {"lt", {&lt, &lt}},
      {"le", {&le, &le}}, {"gt", {&gt, &gt}}, {"ge", {&ge, &ge}},
  };
  for (const auto& [name, fns] : comparisons) {
    const Compare cmp = fns.first;
    const CompareScalar cmp_scalar = fns.second;
    add_op(std::string(name) + ".Tensor", Check::kNoDerivative, [cmp] {
      return std::vector<Sample>{
          {"[2, 3] and [3]", {leaf({2, 3}, 1), leaf({3}, 2)}, one([cmp](const Inputs& x) {
             return cmp(x[0], x[1]);
           })},
          {"float64 [2, 3] and a float32 0-dim", {leaf({2, 3}, 3)}, one([cmp](const Inputs& x) {
             return cmp(x[0], to(randn({}, 4), ScalarType::Float));
           })},
      };
    });
    add_op(std::string(name) + ".Scalar", Check::kNoDerivative, [cmp_scalar] {
      return std::vector<Sample>{
          {"[2, 3] and 0.25", {leaf({2, 3}, 1)}, one([cmp_scalar](const Inputs& x) {
             return cmp_scalar(x[0], Scalar(0.25));
           })},
          {"[2, 3] and 0 (int)", {leaf({2, 3}, 2)}, one([cmp_scalar](const Inputs& x) {
             return cmp_scalar(x[0], Scalar(int64_t{0}));
           })},
      };
    });
  }
  // Ops without a forward formula in specs/derivatives.yaml: gradgen's lstm_cell is one node
  // (PyTorch's is composite, and its fused cell has no forward formula either). Its gradients
  // are checked on its samples in specs/samples.yaml; this entry checks that forward mode
  // refuses tangents, which the generated test does not check.
  grad_op("lstm_cell", [] {
    const int64_t batch = 2, in = 3, hidden = 2;
    return std::vector<Sample>{
        {"hy and cy",
         {leaf({batch, in}, 10), leaf({batch, hidden}, 11), leaf({batch, hidden}, 12),
          leaf({4 * hidden, in}, 13), leaf({4 * hidden, hidden}, 14), leaf({4 * hidden}, 15),
          leaf({4 * hidden}, 16)},
         [](const Inputs& x) {
           auto [hy, cy] = lstm_cell(x[0], {x[1], x[2]}, x[3], x[4], x[5], x[6]);
           return std::vector<Tensor>{hy, cy};
         }},
    };
  });
  for (OpInfo& info : ops) {
    if (info.name == "lstm_cell") info.forward = Forward::kNotImplemented;
  }

  // nn: activations (issue 26) ------------------------------------------------
  // Values away from the kinks (0, +-lambd, the clamp bounds, +-3): `spread` scales standard
  // normal values so that samples reach both sides of hardsigmoid's and hardswish's +-3.
  {
    auto spread = [](IntArrayRef sizes, uint64_t seed, double scale) {
      Tensor t;
      {
        autograd::NoGradGuard no_grad;
        t = mul(randn(sizes, seed), scale);
      }
      return t.set_requires_grad(true);
    };
    // An out= sample: `reference` computes what `out_fn` writes.
    auto out_sample = [](std::string name, Inputs inputs, OpFn reference, OutFn out_fn) {
      return std::vector<Sample>{
          {std::move(name), std::move(inputs), std::move(reference), nullptr, std::move(out_fn)}};
    };
    using Unary1 = std::function<Tensor(const Tensor&)>;
    using Binary1 = std::function<Tensor(const Tensor&, const Tensor&)>;
    auto unary_out = [&out_sample](Unary1 op, std::function<Tensor(const Tensor&, Tensor&)> out) {
      return out_sample("[2, 3]", {away_from_zero({2, 3}, 1)},
                        one([op](const Inputs& x) { return op(x[0]); }),
                        [out](const Inputs& x, Tensor& o) { return out(x[0], o); });
    };
    auto backward_out =
        [&out_sample](Binary1 op,
                      std::function<Tensor(const Tensor&, const Tensor&, Tensor&)> out) {
          return out_sample("[2, 3] and [2, 3]", {leaf({2, 3}, 1), away_from_zero({2, 3}, 2)},
                            one([op](const Inputs& x) { return op(x[0], x[1]); }),
                            [out](const Inputs& x, Tensor& o) { return out(x[0], x[1], o); });
        };

    grad_op("silu_backward", [] {
      return binary_samples([](const Tensor& g, const Tensor& x) { return silu_backward(g, x); });
    });
    add_op("silu_backward.grad_input", Check::kOut, [backward_out] {
      return backward_out([](const Tensor& g, const Tensor& x) { return silu_backward(g, x); },
                          [](const Tensor& g, const Tensor& x, Tensor& o) -> Tensor {
                            return silu_backward_out(g, x, o);
                          });
    });
    grad_op("mish_backward", [] {
      return binary_samples([](const Tensor& g, const Tensor& x) { return mish_backward(g, x); });
    });
    grad_op("selu", [] {
      return unary_samples([](const Tensor& a) { return selu(a); }, Domain::kAwayFromZero);
    });
    // Composite (elu_ with SELU's constants): elu_'s formulas, which read the result.
    add_op("selu_", Check::kInPlace, [] {
      return inplace_unary_samples([](const Tensor& a) { return selu(a); },
                                   [](Tensor& self) { selu_(self); }, Domain::kAwayFromZero);
    });
    // Bounds at +-0.25 (or +-2) from values at least 0.5 away from 0: none sits on a bound.
    // lambd 0.25 with values at least 0.5 away from 0: none sits on +-lambd.
    grad_op("log_sigmoid", [spread] {
      auto s = unary_samples([](const Tensor& a) { return log_sigmoid(a); });
      s.push_back({"large |x|", {spread({6}, 9, 10)}, one([](const Inputs& x) {
                     return log_sigmoid(x[0]);
                   })});
      return s;
    });
    add_op("log_sigmoid.out", Check::kOut, [unary_out] {
      return unary_out([](const Tensor& a) { return log_sigmoid(a); },
                       [](const Tensor& a, Tensor& o) -> Tensor { return log_sigmoid_out(a, o); });
    });
    // The buffer output is not differentiable: the samples check the output.
    // buffer is computed from self inside the sample, as log_sigmoid_forward would: the
    // formulas account for it through self.
    grad_op("log_sigmoid_backward", [] {
      return binary_samples([](const Tensor& g, const Tensor& x) {
        return log_sigmoid_backward(g, x, std::get<1>(log_sigmoid_forward(x)));
      });
    });
    add_op("log_sigmoid_backward.grad_input", Check::kOut, [backward_out] {
      return backward_out(
          [](const Tensor& g, const Tensor& x) {
            return log_sigmoid_backward(g, x, std::get<1>(log_sigmoid_forward(x)));
          },
          [](const Tensor& g, const Tensor& x, Tensor& o) -> Tensor {
            return log_sigmoid_backward_out(g, x, std::get<1>(log_sigmoid_forward(x)), o);
          });
    });
    grad_op("prelu", [] {
      auto f = one([](const Inputs& x) { return prelu(x[0], x[1]); });
      return std::vector<Sample>{
          {"[2, 3, 4] with a weight per channel", {away_from_zero({2, 3, 4}, 1), leaf({3}, 2)}, f},
          {"[2, 3] with one weight", {away_from_zero({2, 3}, 3), leaf({1}, 4)}, f},
          {"[5] with a 0-dim weight", {away_from_zero({5}, 5), leaf({}, 6)}, f},
          {"only weight requires grad", {away_from_zero({2, 3}, 7).detach(), leaf({3}, 8)}, f},
      };
    });
  }

  // nn: losses (issue 26) ---------------------------------------------------
  {
    const std::vector<std::pair<std::string, int64_t>> reductions = {{"None", Reduction::None},
                                                                     {"Mean", Reduction::Mean},
                                                                     {"Sum", Reduction::Sum}};
    // Probabilities in [0.1, 0.9) (binary_cross_entropy's self and target).
    auto probabilities = [](IntArrayRef sizes, uint64_t seed, bool requires_grad) {
      Tensor t;
      {
        autograd::NoGradGuard no_grad;
        t = add(mul(sigmoid(randn(sizes, seed)), 0.8), 0.1);
      }
      return t.set_requires_grad(requires_grad);
    };
    // Signs +-1 (soft_margin_loss's and margin_ranking_loss's target).
    auto signs = [](IntArrayRef sizes, uint64_t seed) {
      autograd::NoGradGuard no_grad;
      return sign(away_from_zero(sizes, seed)).detach();
    };
    // loss(self, target, reduction) for each reduction, both requiring grad, plus a
    // broadcast-free [5] sample with only self requiring grad. `apart` keeps self - target away
    // from the kinks (|d| = beta or delta = 1, 0): target = self + d with |d| in [0.5, 1.5).
    using Loss = std::function<Tensor(const Tensor&, const Tensor&, int64_t)>;
    auto loss_samples = [reductions](Loss f, bool target_grad) {
      std::vector<Sample> s;
      uint64_t seed = 1;
      for (const auto& [name, r] : reductions) {
        Tensor target = leaf({2, 3}, seed + 1);
        if (!target_grad) target = target.detach();
        s.push_back({"reduction " + name,
                     {leaf({2, 3}, seed), target},
                     one([f, r = r](const Inputs& x) { return f(x[0], x[1], r); })});
        seed += 2;
      }
      s.push_back({"0-dim, Mean", {leaf({}, 20), leaf({}, 21).detach()}, one([f](const Inputs& x) {
                     return f(x[0], x[1], Reduction::Mean);
                   })});
      return s;
    };
    using LossBackward =
        std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t)>;
    auto loss_backward_samples = [reductions](LossBackward f, bool target_grad) {
      std::vector<Sample> s;
      uint64_t seed = 1;
      for (const auto& [name, r] : reductions) {
        Tensor g = r == Reduction::None ? leaf({2, 3}, seed) : leaf({}, seed);
        Tensor target = leaf({2, 3}, seed + 2);
        if (!target_grad) target = target.detach();
        s.push_back({"reduction " + name,
                     {g, leaf({2, 3}, seed + 1), target},
                     one([f, r = r](const Inputs& x) { return f(x[0], x[1], x[2], r); })});
        seed += 3;
      }
      return s;
    };

    grad_op("l1_loss", [loss_samples] {
      // self - target away from 0: self away from 0, target small.
      auto s = loss_samples([](const Tensor& a, const Tensor& b,
                               int64_t r) { return l1_loss(a, mul(b, 0.1), r); },
                            true);
      for (Sample& sample : s) sample.inputs[0] = away_from_zero(sample.inputs[0].sizes(), 30);
      return s;
    });
    // beta (delta) 2.5 and 0.4 around standard normal differences: both branches, no kink hit.
    grad_op("soft_margin_loss", [loss_samples, signs] {
      auto s = loss_samples([](const Tensor& a, const Tensor& b,
                               int64_t r) { return soft_margin_loss(a, b, r); },
                            false);
      for (Sample& sample : s) sample.inputs[1] = signs(sample.inputs[1].sizes(), 40);
      return s;
    });
    grad_op("soft_margin_loss_backward", [loss_backward_samples, signs] {
      auto s =
          loss_backward_samples([](const Tensor& g, const Tensor& a, const Tensor& b,
                                   int64_t r) { return soft_margin_loss_backward(g, a, b, r); },
                                false);
      for (Sample& sample : s) sample.inputs[2] = signs(sample.inputs[2].sizes(), 41);
      return s;
    });
    grad_op("kl_div", [reductions, probabilities] {
      std::vector<Sample> s;
      uint64_t seed = 1;
      for (const auto& [name, r] : reductions) {
        s.push_back({"reduction " + name,
                     {leaf({2, 3}, seed), probabilities({2, 3}, seed + 1, true)},
                     one([r = r](const Inputs& x) { return kl_div(x[0], x[1], r); })});
        s.push_back({"log_target, reduction " + name,
                     {leaf({2, 3}, seed + 2), leaf({2, 3}, seed + 3)},
                     one([r = r](const Inputs& x) { return kl_div(x[0], x[1], r, true); })});
        seed += 4;
      }
      return s;
    });
    grad_op("margin_ranking_loss", [reductions, signs] {
      std::vector<Sample> s;
      uint64_t seed = 1;
      for (const auto& [name, r] : reductions) {
        s.push_back({"reduction " + name,
                     {leaf({5}, seed), leaf({5}, seed + 1), signs({5}, seed + 2)},
                     one([r = r](const Inputs& x) {
                       return margin_ranking_loss(x[0], x[1], x[2], 0.1, r);
                     })});
        seed += 3;
      }
      return s;
    });
  }

  // nn: padding (issue 26) --------------------------------------------------
  {
    struct PadOp {
      std::string name;
      std::function<Tensor(const Tensor&, IntArrayRef)> forward;
      std::function<Tensor(const Tensor&, const Tensor&, IntArrayRef)> backward;
      int dims;
    };
    const std::vector<PadOp> pad_ops = {
        {"reflection_pad1d", [](const Tensor& a, IntArrayRef p) { return reflection_pad1d(a, p); },
         [](const Tensor& g, const Tensor& a, IntArrayRef p) {
           return reflection_pad1d_backward(g, a, p);
         },
         1},
        {"reflection_pad2d", [](const Tensor& a, IntArrayRef p) { return reflection_pad2d(a, p); },
         [](const Tensor& g, const Tensor& a, IntArrayRef p) {
           return reflection_pad2d_backward(g, a, p);
         },
         2},
        {"replication_pad1d",
         [](const Tensor& a, IntArrayRef p) { return replication_pad1d(a, p); },
         [](const Tensor& g, const Tensor& a, IntArrayRef p) {
           return replication_pad1d_backward(g, a, p);
         },
         1},
        {"replication_pad2d",
         [](const Tensor& a, IntArrayRef p) { return replication_pad2d(a, p); },
         [](const Tensor& g, const Tensor& a, IntArrayRef p) {
           return replication_pad2d_backward(g, a, p);
         },
         2},
    };
    for (const PadOp& p : pad_ops) {
      // Unbatched and batched inputs; paddings up to size - 1 (reflection's limit).
      const std::vector<int64_t> pad =
          p.dims == 1 ? std::vector<int64_t>{2, 1} : std::vector<int64_t>{2, 1, 0, 2};
      const std::vector<int64_t> unbatched =
          p.dims == 1 ? std::vector<int64_t>{2, 4} : std::vector<int64_t>{2, 3, 4};
      const std::vector<int64_t> batched =
          p.dims == 1 ? std::vector<int64_t>{2, 2, 3} : std::vector<int64_t>{2, 1, 3, 3};
      auto out_shape = [pad](std::vector<int64_t> s) {
        s[s.size() - 1] += pad[0] + pad[1];
        if (pad.size() == 4) s[s.size() - 2] += pad[2] + pad[3];
        return s;
      };
      grad_op(p.name, [p, pad, unbatched, batched] {
        auto f = one([p, pad](const Inputs& x) { return p.forward(x[0], pad); });
        return std::vector<Sample>{
            {"unbatched", {leaf(unbatched, 1)}, f},
            {"batched", {leaf(batched, 2)}, f},
            {"no padding", {leaf(unbatched, 3)}, one([p](const Inputs& x) {
               return p.forward(x[0], std::vector<int64_t>(2 * static_cast<size_t>(p.dims), 0));
             })},
        };
      });
      grad_op(p.name + "_backward", [p, pad, unbatched, batched, out_shape] {
        auto f = one([p, pad](const Inputs& x) { return p.backward(x[0], x[1], pad); });
        return std::vector<Sample>{
            {"unbatched", {leaf(out_shape(unbatched), 1), leaf(unbatched, 2)}, f},
            {"batched", {leaf(out_shape(batched), 3), leaf(batched, 4)}, f},
        };
      });
    }
    grad_op("_pad_circular", [] {
      return std::vector<Sample>{
          {"[1, 2, 4] (1, 2)", {leaf({1, 2, 4}, 1)}, one([](const Inputs& x) {
             return _pad_circular(x[0], {1, 2});
           })},
          {"[1, 1, 3, 3] (1, 0, 2, 1)", {leaf({1, 1, 3, 3}, 2)}, one([](const Inputs& x) {
             return _pad_circular(x[0], {1, 0, 2, 1});
           })},
          {"negative crops", {leaf({1, 2, 4}, 3)}, one([](const Inputs& x) {
             return _pad_circular(x[0], {-1, 2});
           })},
      };
    });
    grad_op("pad", [] {
      auto with = [](std::vector<int64_t> p, std::string mode, std::optional<double> value) {
        return one([p, mode, value](const Inputs& x) { return pad(x[0], p, mode, value); });
      };
      return std::vector<Sample>{
          {"constant, default value", {leaf({2, 3}, 1)}, with({1, 1}, "constant", std::nullopt)},
          {"constant 2.5", {leaf({2, 3}, 2)}, with({0, 2, 1, 0}, "constant", 2.5)},
          {"reflect 1-D", {leaf({1, 2, 4}, 3)}, with({2, 3}, "reflect", std::nullopt)},
          {"reflect 2-D", {leaf({1, 3, 3}, 4)}, with({1, 2, 2, 1}, "reflect", std::nullopt)},
          {"replicate 1-D", {leaf({2, 3}, 5)}, with({3, 1}, "replicate", std::nullopt)},
          {"replicate 2-D", {leaf({2, 1, 2, 3}, 6)}, with({1, 2, 3, 0}, "replicate", std::nullopt)},
          {"circular", {leaf({1, 2, 4}, 7)}, with({1, 3}, "circular", std::nullopt)},
      };
    });
  }
  // Tensor op library (issue 23), first batch: element-wise unary ops ----------
  {
    // Leaves of values in (lo, hi): lo + (hi - lo) * sigmoid(randn), for ops defined on an
    // interval (asin, atanh, logit, erfinv, acosh).
    auto between = [](double lo, double hi) {
      return [lo, hi](IntArrayRef sizes, uint64_t seed) {
        Tensor t;
        {
          autograd::NoGradGuard no_grad;
          t = add(mul(sigmoid(randn(sizes, seed)), hi - lo), lo);
        }
        return t.set_requires_grad(true);
      };
    };
    using Make = std::function<Tensor(IntArrayRef, uint64_t)>;
    const Make any = [](IntArrayRef sizes, uint64_t seed) { return leaf(sizes, seed); };
    const Make pos = [](IntArrayRef sizes, uint64_t seed) { return positive(sizes, seed); };
    // unary_samples with the inputs from `make`, plus an expanded (stride-0) input.
    auto samples_of = [](Unary op, Make make) {
      auto f = one([op](const Inputs& x) { return op(x[0]); });
      return std::vector<Sample>{
          {"0-dim", {make({}, 1)}, f},
          {"[5]", {make({5}, 2)}, f},
          {"[2, 3]", {make({2, 3}, 3)}, f},
          {"transposed [3, 2] view", {make({2, 3}, 4)}, one([op](const Inputs& x) {
             return op(t(x[0]));
           })},
          {"expanded [3, 2] view", {make({2}, 5)}, one([op](const Inputs& x) {
             return op(expand(x[0], {3, 2}));
           })},
      };
    };
    auto inplace_of = [](Unary ref, std::function<void(Tensor&)> inplace, Make make) {
      auto f = one([ref](const Inputs& x) { return ref(x[0]); });
      InPlaceFn g = [inplace](Tensor& self, const Inputs&) { inplace(self); };
      return std::vector<Sample>{
          {"[2, 3]", {make({2, 3}, 1)}, f, g},
          {"0-dim", {make({}, 2)}, f, g},
      };
    };
    auto out_of = [](Unary ref, std::function<Tensor(const Tensor&, Tensor&)> out, Make make) {
      return std::vector<Sample>{
          {"[2, 3]",
           {make({2, 3}, 1)},
           one([ref](const Inputs& x) { return ref(x[0]); }),
           nullptr,
           [out](const Inputs& x, Tensor& o) { return out(x[0], o); }},
      };
    };
    struct UnaryOp {
      const char* name;
      Unary fn;
      std::function<void(Tensor&)> inplace;
      std::function<Tensor(const Tensor&, Tensor&)> out;
      Make make;
    };
#define GRADGEN_UNARY_OP(op, make)                                                                \
  UnaryOp {                                                                                       \
#op, [](const Tensor&                                                                         \
                a) { return op(a); },                                                             \
                                   [](Tensor &                                                    \
                                      a) { op##_(a); },                                           \
                                                     [](const Tensor& a, Tensor& o)               \
                                                          -> Tensor { return op##_out(a, o); },   \
                                                                                             make \
  }
    const UnaryOp unary_ops[] = {
        GRADGEN_UNARY_OP(log1p, pos),
        GRADGEN_UNARY_OP(expm1, any),
        GRADGEN_UNARY_OP(log2, pos),
        GRADGEN_UNARY_OP(log10, pos),
        GRADGEN_UNARY_OP(exp2, any),
        GRADGEN_UNARY_OP(rsqrt, pos),
        GRADGEN_UNARY_OP(square, any),
        GRADGEN_UNARY_OP(erf, any),
        GRADGEN_UNARY_OP(erfc, any),
        GRADGEN_UNARY_OP(erfinv, between(-0.9, 0.9)),
        GRADGEN_UNARY_OP(lgamma, pos),
        GRADGEN_UNARY_OP(digamma, pos),
        GRADGEN_UNARY_OP(asin, between(-0.9, 0.9)),
        GRADGEN_UNARY_OP(acos, between(-0.9, 0.9)),
        GRADGEN_UNARY_OP(atan, any),
        GRADGEN_UNARY_OP(sinh, any),
        GRADGEN_UNARY_OP(cosh, any),
        GRADGEN_UNARY_OP(asinh, any),
        GRADGEN_UNARY_OP(acosh, between(1.2, 4.0)),
        GRADGEN_UNARY_OP(atanh, between(-0.9, 0.9)),
        GRADGEN_UNARY_OP(tan, between(-1.2, 1.2)),
        GRADGEN_UNARY_OP(floor, any),
        GRADGEN_UNARY_OP(ceil, any),
        GRADGEN_UNARY_OP(round, any),
        GRADGEN_UNARY_OP(trunc, any),
        GRADGEN_UNARY_OP(frac, any),
        GRADGEN_UNARY_OP(sgn, any),
    };
#undef GRADGEN_UNARY_OP
    for (const UnaryOp& u : unary_ops) {
      const std::string name = u.name;
      grad_op(name, [=] { return samples_of(u.fn, u.make); });
      if (name == "asinh" || name == "acosh" || name == "atanh") {
        // As PyTorch: the in-place variant's derivative is not_implemented (and so has no
        // forward formula either); its values are the out-of-place op's.
        add_op(name + "_", Check::kNotImplemented, [=] {
          auto through_inplace = one([u](const Inputs& x) {
            Tensor self = clone(x[0]);
            u.inplace(self);
            return self;
          });
          return std::vector<Sample>{{"[2, 3]", {u.make({2, 3}, 1)}, through_inplace}};
        });
        ops.back().forward = Forward::kNotImplemented;
      }
      // The other in-place variants and every out= variant: the generated gradient test.
    }
    add_op("polygamma_", Check::kInPlace, [=] {
      return inplace_of([](const Tensor& a) { return polygamma(1, a); },
                        [](Tensor& a) { polygamma_(a, 1); }, pos);
    });
    // As PyTorch: no derivative (backward raises), no forward formula.
    add_op("logit_backward", Check::kNotImplemented, [=] {
      return std::vector<Sample>{
          {"[2, 3] with eps",
           {leaf({2, 3}, 1), between(0.1, 0.9)({2, 3}, 2)},
           one([](const Inputs& x) { return logit_backward(x[0], x[1], 0.2); })},
          {"[3] without eps", {leaf({3}, 3), between(0.1, 0.9)({3}, 4)}, one([](const Inputs& x) {
             return logit_backward(x[0], x[1]);
           })},
      };
    });
    ops.back().forward = Forward::kNotImplemented;
    // nan_to_num: finite inputs (the derivative is 1 there); the replaced values' gradient (0)
    // is checked against PyTorch by the differential test.
    const std::pair<const char*, Unary> tests[] = {
        {"isnan", [](const Tensor& a) { return isnan(a); }},
        {"isinf", [](const Tensor& a) { return isinf(a); }},
        {"isfinite", [](const Tensor& a) { return isfinite(a); }},
        {"logical_not", [](const Tensor& a) { return logical_not(a); }},
    };
    for (const auto& [name, fn] : tests) {
      const Unary f = fn;
      add_op(name, Check::kNoDerivative, [f] {
        return std::vector<Sample>{
            {"[2, 3]", {leaf({2, 3}, 1)}, one([f](const Inputs& x) { return f(x[0]); })},
            {"[2, 3] / 0 (inf and nan)", {leaf({2, 3}, 2)}, one([f](const Inputs& x) {
               return f(div(x[0], mul(x[0], 0)));
             })},
        };
      });
    }
    add_op("logical_not.out", Check::kOut, [=] {
      return out_of([](const Tensor& a) { return logical_not(a); },
                    [](const Tensor& a, Tensor& o) -> Tensor { return logical_not_out(a, o); },
                    any);
    });
  }

  // Tensor op library (issue 23), first batch: element-wise binary ops ---------
  {
    auto out2 = [](Binary ref, std::function<Tensor(const Tensor&, const Tensor&, Tensor&)> out,
                   Domain da = Domain::kAny, Domain db = Domain::kAny) {
      return std::vector<Sample>{
          {"[2, 3] and [3]",
           {in_domain(da, {2, 3}, 1), in_domain(db, {3}, 2)},
           one([ref](const Inputs& x) { return ref(x[0], x[1]); }),
           nullptr,
           [out](const Inputs& x, Tensor& o) { return out(x[0], x[1], o); }},
      };
    };
    // fmod / remainder: the divisor at least 0.5 from 0; the quotients are away from integers
    // for these seeds (the gradient jumps there).
    for (const bool floor : {false, true}) {
      const std::string op = floor ? "remainder" : "fmod";
      const Binary f =
          floor ? Binary([](const Tensor& a, const Tensor& b) { return remainder(a, b); })
                : Binary([](const Tensor& a, const Tensor& b) { return fmod(a, b); });
      using ScalarFn = std::function<Tensor(const Tensor&, const Scalar&)>;
      const ScalarFn fs =
          floor ? ScalarFn([](const Tensor& a, const Scalar& b) { return remainder(a, b); })
                : ScalarFn([](const Tensor& a, const Scalar& b) { return fmod(a, b); });
      grad_op(op + ".Tensor",
              [=] { return binary_samples(f, Domain::kAny, Domain::kAwayFromZero); });
      grad_op(op + ".Scalar", [=] {
        auto s = unary_samples([=](const Tensor& a) { return fs(a, 0.7); });
        s.push_back({"negative divisor", {leaf({2, 3}, 9)}, one([=](const Inputs& x) {
                       return fs(x[0], -0.45);
                     })});
        return s;
      });
    }
    // floor_divide: no derivative in PyTorch (backward raises), no forward formula.
    add_op("floor_divide", Check::kNotImplemented, [] {
      return std::vector<Sample>{{"[2, 3] and [3]",
                                  {leaf({2, 3}, 1), away_from_zero({3}, 2)},
                                  one([](const Inputs& x) { return floor_divide(x[0], x[1]); })}};
    });
    ops.back().forward = Forward::kNotImplemented;
    add_op("floor_divide_.Tensor", Check::kNotImplemented, [] {
      return std::vector<Sample>{
          {"[2, 3] and [3]", {leaf({2, 3}, 1), away_from_zero({3}, 2)}, one([](const Inputs& x) {
             Tensor self = clone(x[0]);
             floor_divide_(self, x[1]);
             return self;
           })}};
    });
    ops.back().forward = Forward::kNotImplemented;
    add_op("floor_divide.out", Check::kOut, [=] {
      return out2([](const Tensor& a, const Tensor& b) { return floor_divide(a, b); },
                  [](const Tensor& a, const Tensor& b, Tensor& o) -> Tensor {
                    return floor_divide_out(a, b, o);
                  },
                  Domain::kAny, Domain::kAwayFromZero);
    });
    add_op("floor_divide.Scalar", Check::kNotImplemented, [] {
      return std::vector<Sample>{{"[2, 3] by 0.7", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
                                    return floor_divide(x[0], 0.7);
                                  })}};
    });
    ops.back().forward = Forward::kNotImplemented;
    const std::pair<const char*, Binary> extrema[] = {
        {"maximum", [](const Tensor& a, const Tensor& b) { return maximum(a, b); }},
        {"minimum", [](const Tensor& a, const Tensor& b) { return minimum(a, b); }},
        {"fmax", [](const Tensor& a, const Tensor& b) { return fmax(a, b); }},
        {"fmin", [](const Tensor& a, const Tensor& b) { return fmin(a, b); }},
    };
    for (size_t i = 0; i < 4; ++i) {
      const Binary f = extrema[i].second;
      // Ties are checked against PyTorch by the differential test (the gradient jumps there, so
      // finite differences of it do not apply).
      grad_op(extrema[i].first, [=] { return binary_samples(f); });
    }
    // Three operands: equal shapes, all three broadcasting, one not requiring grad.
    auto ternary = [](std::function<Tensor(const Tensor&, const Tensor&, const Tensor&)> op,
                      std::function<Tensor(IntArrayRef, uint64_t)> third) {
      auto f = one([op](const Inputs& x) { return op(x[0], x[1], x[2]); });
      return std::vector<Sample>{
          {"[2, 3] x3", {leaf({2, 3}, 1), leaf({2, 3}, 2), third({2, 3}, 3)}, f},
          {"[2, 1], [3], [1, 3] (broadcast)", {leaf({2, 1}, 4), leaf({3}, 5), third({1, 3}, 6)}, f},
          {"0-dim self", {leaf({}, 7), leaf({2, 2}, 8), third({2, 2}, 9)}, f},
          {"transposed view",
           {leaf({3, 2}, 10), leaf({2, 3}, 11), third({2, 3}, 12)},
           one([op](const Inputs& x) { return op(t(x[0]), x[1], x[2]); })},
          {"third needs no grad",
           {leaf({2, 3}, 13), leaf({2, 3}, 14), third({2, 3}, 15).detach()},
           f},
      };
    };
    const std::function<Tensor(IntArrayRef, uint64_t)> any3 = [](IntArrayRef s, uint64_t seed) {
      return leaf(s, seed);
    };
    const std::function<Tensor(IntArrayRef, uint64_t)> away3 = [](IntArrayRef s, uint64_t seed) {
      return away_from_zero(s, seed);
    };
    for (const bool is_div : {false, true}) {
      const std::string op = is_div ? "addcdiv" : "addcmul";
      auto f = [is_div](const Tensor& a, const Tensor& b, const Tensor& c, const Scalar& v) {
        return is_div ? addcdiv(a, b, c, v) : addcmul(a, b, c, v);
      };
      const auto third = is_div ? away3 : any3;
      grad_op(op, [=] {
        auto s = ternary([f](const Tensor& a, const Tensor& b,
                             const Tensor& c) { return f(a, b, c, 1); },
                         third);
        s.push_back({"value=-1.5",
                     {leaf({2, 3}, 30), leaf({2, 3}, 31), third({3}, 32)},
                     one([f](const Inputs& x) { return f(x[0], x[1], x[2], -1.5); })});
        return s;
      });
      const Tensor c = is_div ? away_from_zero({}, 50).detach() : value({}, 50);
    }
    // clamp with Tensor bounds: self far from the bounds (|self| >= 0.5, bounds within 0.3 of
    // +-0.2), so no element sits on a bound.
    // Logical and bitwise ops: Bool / Long results without history (the sweep checks that for
    // inputs that require grad; the values are checked against PyTorch by the differential test).
    const std::pair<const char*, Binary> logical[] = {
        {"logical_and", [](const Tensor& a, const Tensor& b) { return logical_and(a, b); }},
        {"logical_or", [](const Tensor& a, const Tensor& b) { return logical_or(a, b); }},
        {"logical_xor", [](const Tensor& a, const Tensor& b) { return logical_xor(a, b); }},
    };
    using Out2 = std::function<Tensor(const Tensor&, const Tensor&, Tensor&)>;
    const Out2 logical_out[] = {
        [](const Tensor& a, const Tensor& b, Tensor& o) -> Tensor {
          return logical_and_out(a, b, o);
        },
        [](const Tensor& a, const Tensor& b, Tensor& o) -> Tensor {
          return logical_or_out(a, b, o);
        },
        [](const Tensor& a, const Tensor& b, Tensor& o) -> Tensor {
          return logical_xor_out(a, b, o);
        },
    };
    for (size_t i = 0; i < 3; ++i) {
      const Binary f = logical[i].second;
      const Out2 o = logical_out[i];
      add_op(logical[i].first, Check::kNoDerivative, [=] {
        return std::vector<Sample>{
            {"[2, 3] and [3]", {leaf({2, 3}, 1), leaf({3}, 2)}, one([f](const Inputs& x) {
               return f(x[0], x[1]);
             })},
            {"with zeros", {leaf({2, 3}, 3)}, one([f](const Inputs& x) {
               return f(x[0], relu(x[0]));
             })},
        };
      });
      add_op(std::string(logical[i].first) + ".out", Check::kOut, [=] { return out2(f, o); });
    }
    // Bitwise: integer operands made from inputs that require grad (to() drops the history).
    const std::pair<const char*, Binary> bitwise[] = {
        {"bitwise_and", [](const Tensor& a, const Tensor& b) { return bitwise_and(a, b); }},
        {"bitwise_or", [](const Tensor& a, const Tensor& b) { return bitwise_or(a, b); }},
        {"bitwise_xor", [](const Tensor& a, const Tensor& b) { return bitwise_xor(a, b); }},
    };
    using BinaryScalar = std::function<Tensor(const Tensor&, const Scalar&)>;
    const BinaryScalar bitwise_scalar[] = {
        [](const Tensor& a, const Scalar& b) { return bitwise_and(a, b); },
        [](const Tensor& a, const Scalar& b) { return bitwise_or(a, b); },
        [](const Tensor& a, const Scalar& b) { return bitwise_xor(a, b); },
    };
    auto ints = [](const Tensor& x) { return to(mul(x, 10), ScalarType::Long); };
    for (size_t i = 0; i < 3; ++i) {
      const Binary f = bitwise[i].second;
      const BinaryScalar fs = bitwise_scalar[i];
      add_op(std::string(bitwise[i].first) + ".Tensor", Check::kNoDerivative, [=] {
        return std::vector<Sample>{
            {"Long [2, 3] and [3]", {leaf({2, 3}, 1), leaf({3}, 2)}, one([=](const Inputs& x) {
               return f(ints(x[0]), ints(x[1]));
             })},
            {"Bool", {leaf({2, 3}, 3), leaf({2, 3}, 4)}, one([=](const Inputs& x) {
               return f(gt(x[0], 0), gt(x[1], 0));
             })},
        };
      });
      add_op(std::string(bitwise[i].first) + ".Scalar", Check::kNoDerivative, [=] {
        return std::vector<Sample>{
            {"Long [2, 3] and 6", {leaf({2, 3}, 1)}, one([=](const Inputs& x) {
               return fs(ints(x[0]), 6);
             })},
        };
      });
    }
    add_op("bitwise_not", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"Long [2, 3]", {leaf({2, 3}, 1)}, one([=](const Inputs& x) {
             return bitwise_not(ints(x[0]));
           })},
          {"Bool [3]", {leaf({3}, 2)}, one([](const Inputs& x) {
             return bitwise_not(gt(x[0], 0));
           })},
      };
    });
    // The bitwise ops' in-place, out= and Scalar_Tensor variants, and the logical ops in place:
    // operands made from inputs that require grad (no history); kNoDerivative (the values and
    // the refusals are checked against PyTorch by the differential test, cases_bitwise_ops.py).
    struct BitwiseFns {
      const char* name;
      std::function<Tensor(const Scalar&, const Tensor&)> scalar_tensor;
      std::function<void(Tensor&, const Tensor&)> inplace;
      std::function<void(Tensor&, const Scalar&)> inplace_scalar;
      std::function<void(const Tensor&, const Tensor&, Tensor&)> out;
      std::function<void(const Tensor&, const Scalar&, Tensor&)> out_scalar;
      std::function<void(const Scalar&, const Tensor&, Tensor&)> out_scalar_tensor;
    };
    const BitwiseFns bitwise_variants[] = {
        {"bitwise_and", [](const Scalar& a, const Tensor& b) { return bitwise_and(a, b); },
         [](Tensor& a, const Tensor& b) { bitwise_and_(a, b); },
         [](Tensor& a, const Scalar& b) { bitwise_and_(a, b); },
         [](const Tensor& a, const Tensor& b, Tensor& o) { bitwise_and_out(a, b, o); },
         [](const Tensor& a, const Scalar& b, Tensor& o) { bitwise_and_out(a, b, o); },
         [](const Scalar& a, const Tensor& b, Tensor& o) { bitwise_and_out(a, b, o); }},
        {"bitwise_or", [](const Scalar& a, const Tensor& b) { return bitwise_or(a, b); },
         [](Tensor& a, const Tensor& b) { bitwise_or_(a, b); },
         [](Tensor& a, const Scalar& b) { bitwise_or_(a, b); },
         [](const Tensor& a, const Tensor& b, Tensor& o) { bitwise_or_out(a, b, o); },
         [](const Tensor& a, const Scalar& b, Tensor& o) { bitwise_or_out(a, b, o); },
         [](const Scalar& a, const Tensor& b, Tensor& o) { bitwise_or_out(a, b, o); }},
        {"bitwise_xor", [](const Scalar& a, const Tensor& b) { return bitwise_xor(a, b); },
         [](Tensor& a, const Tensor& b) { bitwise_xor_(a, b); },
         [](Tensor& a, const Scalar& b) { bitwise_xor_(a, b); },
         [](const Tensor& a, const Tensor& b, Tensor& o) { bitwise_xor_out(a, b, o); },
         [](const Tensor& a, const Scalar& b, Tensor& o) { bitwise_xor_out(a, b, o); },
         [](const Scalar& a, const Tensor& b, Tensor& o) { bitwise_xor_out(a, b, o); }},
    };
    for (const BitwiseFns& f : bitwise_variants) {
      const std::string n = f.name;
      auto sample = [](std::string what, Inputs in, std::function<Tensor(const Inputs&)> fn) {
        return std::vector<Sample>{{std::move(what), std::move(in), one(std::move(fn))}};
      };
      add_op(n + "_.Tensor", Check::kNoDerivative, [=] {
        return sample("Long [2, 3] with Int [3] in place", {leaf({2, 3}, 1)}, [=](const Inputs& x) {
          Tensor self = ints(x[0]);
          f.inplace(self, to(longs({5, -3, 12}, {3}), ScalarType::Int));
          return self;
        });
      });
      add_op(n + "_.Scalar", Check::kNoDerivative, [=] {
        return sample("Char [2, 3] with 300 in place", {leaf({2, 3}, 2)}, [=](const Inputs& x) {
          Tensor self = to(ints(x[0]), ScalarType::Char);
          f.inplace_scalar(self, 300);
          return self;
        });
      });
      add_op(n + ".Tensor_out", Check::kNoDerivative, [=] {
        return sample("Long [2, 3] and Bool [3] into Short [0]", {leaf({2, 3}, 3), leaf({3}, 4)},
                      [=](const Inputs& x) {
                        Tensor out = zeros({0}, ScalarType::Short);
                        f.out(ints(x[0]), gt(x[1], 0), out);
                        return out;
                      });
      });
      add_op(n + ".Scalar_out", Check::kNoDerivative, [=] {
        return sample("Long [2, 3] and 6 into Float [0]", {leaf({2, 3}, 5)}, [=](const Inputs& x) {
          Tensor out = zeros({0}, ScalarType::Float);
          f.out_scalar(ints(x[0]), 6, out);
          return out;
        });
      });
      add_op(n + ".Scalar_Tensor", Check::kNoDerivative, [=] {
        return sample("-40 and Long [2, 3]", {leaf({2, 3}, 6)},
                      [=](const Inputs& x) { return f.scalar_tensor(-40, ints(x[0])); });
      });
      add_op(n + ".Scalar_Tensor_out", Check::kNoDerivative, [=] {
        return sample("5 and Long [2, 3] into Long [0]", {leaf({2, 3}, 7)}, [=](const Inputs& x) {
          Tensor out = zeros({0}, ScalarType::Long);
          f.out_scalar_tensor(5, ints(x[0]), out);
          return out;
        });
      });
    }
    add_op("bitwise_not_", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"Long [2, 3] in place", {leaf({2, 3}, 1)}, one([=](const Inputs& x) {
             Tensor self = ints(x[0]);
             bitwise_not_(self);
             return self;
           })},
      };
    });
    add_op("bitwise_not.out", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"Long [2, 3] into Long [0]", {leaf({2, 3}, 2)}, one([=](const Inputs& x) {
             Tensor out = zeros({0}, ScalarType::Long);
             bitwise_not_out(ints(x[0]), out);
             return out;
           })},
      };
    });
    using InplaceBinary = std::function<void(Tensor&, const Tensor&)>;
    const std::pair<const char*, InplaceBinary> logical_inplace[] = {
        {"logical_and_", [](Tensor& a, const Tensor& b) { logical_and_(a, b); }},
        {"logical_or_", [](Tensor& a, const Tensor& b) { logical_or_(a, b); }},
        {"logical_xor_", [](Tensor& a, const Tensor& b) { logical_xor_(a, b); }},
    };
    for (const auto& [name, f] : logical_inplace) {
      const InplaceBinary g = f;
      add_op(name, Check::kNoDerivative, [=] {
        return std::vector<Sample>{
            {"Double [2, 3] (a copy) and [3]",
             {leaf({2, 3}, 1), leaf({3}, 2)},
             one([g](const Inputs& x) {
               Tensor self = relu(x[0]).detach();  // self is written: no history
               g(self, relu(x[1]));
               return self;
             })},
        };
      });
    }
    add_op("logical_not_", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"Long [2, 3] in place", {leaf({2, 3}, 3)}, one([=](const Inputs& x) {
             Tensor self = ints(x[0]);
             logical_not_(self);
             return self;
           })},
      };
    });
    // Shifts: integer operands made from inputs that require grad (to() drops the history),
    // shifted by constant amounts, some out of range (negative, 64 or more); every variant is
    // kNoDerivative (the values are checked against PyTorch by the differential test).
    struct ShiftFns {
      const char* name;
      std::function<Tensor(const Tensor&, const Tensor&)> tensor;
      std::function<Tensor(const Tensor&, const Scalar&)> tensor_scalar;
      std::function<Tensor(const Scalar&, const Tensor&)> scalar_tensor;
      std::function<void(Tensor&, const Tensor&)> inplace;
      std::function<void(Tensor&, const Scalar&)> inplace_scalar;
      std::function<void(const Tensor&, const Tensor&, Tensor&)> out;
      std::function<void(const Tensor&, const Scalar&, Tensor&)> out_tensor_scalar;
      std::function<void(const Scalar&, const Tensor&, Tensor&)> out_scalar_tensor;
    };
    const ShiftFns shifts[] = {
        {"bitwise_left_shift",
         [](const Tensor& a, const Tensor& b) { return bitwise_left_shift(a, b); },
         [](const Tensor& a, const Scalar& b) { return bitwise_left_shift(a, b); },
         [](const Scalar& a, const Tensor& b) { return bitwise_left_shift(a, b); },
         [](Tensor& a, const Tensor& b) { bitwise_left_shift_(a, b); },
         [](Tensor& a, const Scalar& b) { bitwise_left_shift_(a, b); },
         [](const Tensor& a, const Tensor& b, Tensor& o) { bitwise_left_shift_out(a, b, o); },
         [](const Tensor& a, const Scalar& b, Tensor& o) { bitwise_left_shift_out(a, b, o); },
         [](const Scalar& a, const Tensor& b, Tensor& o) { bitwise_left_shift_out(a, b, o); }},
        {"bitwise_right_shift",
         [](const Tensor& a, const Tensor& b) { return bitwise_right_shift(a, b); },
         [](const Tensor& a, const Scalar& b) { return bitwise_right_shift(a, b); },
         [](const Scalar& a, const Tensor& b) { return bitwise_right_shift(a, b); },
         [](Tensor& a, const Tensor& b) { bitwise_right_shift_(a, b); },
         [](Tensor& a, const Scalar& b) { bitwise_right_shift_(a, b); },
         [](const Tensor& a, const Tensor& b, Tensor& o) { bitwise_right_shift_out(a, b, o); },
         [](const Tensor& a, const Scalar& b, Tensor& o) { bitwise_right_shift_out(a, b, o); },
         [](const Scalar& a, const Tensor& b, Tensor& o) { bitwise_right_shift_out(a, b, o); }},
    };
    for (const ShiftFns& f : shifts) {
      const std::string n = f.name;
      auto amounts = [] { return longs({0, 3, -1, 64, 70, 1}, {2, 3}); };
      auto sample = [](std::string what, Inputs in, std::function<Tensor(const Inputs&)> fn) {
        return std::vector<Sample>{{std::move(what), std::move(in), one(std::move(fn))}};
      };
      add_op(n + ".Tensor", Check::kNoDerivative, [=] {
        return std::vector<Sample>{
            {"Long [2, 3] by [2, 3]", {leaf({2, 3}, 1)}, one([=](const Inputs& x) {
               return f.tensor(ints(x[0]), amounts());
             })},
            {"Int [2, 3] by Long [3]", {leaf({2, 3}, 2)}, one([=](const Inputs& x) {
               return f.tensor(to(ints(x[0]), ScalarType::Int), longs({1, 2, 31}, {3}));
             })},
        };
      });
      add_op(n + "_.Tensor", Check::kNoDerivative, [=] {
        return sample("Long [2, 3] in place", {leaf({2, 3}, 3)}, [=](const Inputs& x) {
          Tensor self = ints(x[0]);
          f.inplace(self, amounts());
          return self;
        });
      });
      add_op(n + ".Tensor_out", Check::kNoDerivative, [=] {
        return sample("Long [2, 3] into [0]", {leaf({2, 3}, 4)}, [=](const Inputs& x) {
          Tensor out = zeros({0}, ScalarType::Long);
          f.out(ints(x[0]), amounts(), out);
          return out;
        });
      });
      add_op(n + ".Tensor_Scalar", Check::kNoDerivative, [=] {
        return sample("Long [2, 3] by 2", {leaf({2, 3}, 5)},
                      [=](const Inputs& x) { return f.tensor_scalar(ints(x[0]), 2); });
      });
      add_op(n + "_.Tensor_Scalar", Check::kNoDerivative, [=] {
        return sample("Long [2, 3] by 3 in place", {leaf({2, 3}, 6)}, [=](const Inputs& x) {
          Tensor self = ints(x[0]);
          f.inplace_scalar(self, 3);
          return self;
        });
      });
      add_op(n + ".Tensor_Scalar_out", Check::kNoDerivative, [=] {
        return sample("Long [2, 3] by 1 into [0]", {leaf({2, 3}, 7)}, [=](const Inputs& x) {
          Tensor out = zeros({0}, ScalarType::Long);
          f.out_tensor_scalar(ints(x[0]), 1, out);
          return out;
        });
      });
      add_op(n + ".Scalar_Tensor", Check::kNoDerivative, [=] {
        return sample("-40 by [2, 3]", {leaf({2, 3}, 8)}, [=](const Inputs& x) {
          return f.scalar_tensor(-40, to(abs(ints(x[0])), ScalarType::Long));
        });
      });
      add_op(n + ".Scalar_Tensor_out", Check::kNoDerivative, [=] {
        return sample("5 by [2, 3] into [0]", {leaf({2, 3}, 9)}, [=](const Inputs& x) {
          Tensor out = zeros({0}, ScalarType::Long);
          f.out_scalar_tensor(5, abs(ints(x[0])), out);
          return out;
        });
      });
    }
    // where with Scalar branches (composite over where.self).
    grad_op("where.ScalarSelf", [] {
      const Tensor cond = bools({true, false, true, false, false, true}, {2, 3});
      return std::vector<Sample>{
          {"[2, 3]", {leaf({2, 3}, 1)}, one([cond](const Inputs& x) {
             return where(cond, 1.5, x[0]);
           })},
          {"other [3] broadcast", {leaf({3}, 2)}, one([cond](const Inputs& x) {
             return where(cond, -2, x[0]);
           })},
      };
    });
    grad_op("where.ScalarOther", [] {
      const Tensor cond = bools({true, false, true, false, false, true}, {2, 3});
      return std::vector<Sample>{
          {"[2, 3]", {leaf({2, 3}, 1)}, one([cond](const Inputs& x) {
             return where(cond, x[0], 0.5);
           })},
          {"self [2, 1] broadcast", {leaf({2, 1}, 2)}, one([cond](const Inputs& x) {
             return where(cond, x[0], 3);
           })},
      };
    });
    add_op("where.Scalar", Check::kNoDerivative, [] {
      return std::vector<Sample>{
          {"condition from an input that requires grad",
           {leaf({2, 3}, 1)},
           one([](const Inputs& x) { return where(gt(x[0], 0), 1.5, -0.5); })},
      };
    });
  }

  // Tensor op library (issue 23), first batch: reductions and scans ------------
  {
    // Distinct values (no ties: the tie gradients are checked against PyTorch by the
    // differential test, as finite differences do not apply there).
    auto dims_samples = [](std::function<Tensor(const Tensor&, IntArrayRef, bool)> op) {
      std::vector<Sample> s;
      for (bool keepdim : {false, true}) {
        const std::string k = keepdim ? " keepdim" : "";
        s.push_back({"dim 1" + k, {leaf({2, 3, 4}, 1)}, one([=](const Inputs& x) {
                       return op(x[0], {1}, keepdim);
                     })});
        s.push_back({"dims {0, -1}" + k, {leaf({2, 3, 4}, 2)}, one([=](const Inputs& x) {
                       return op(x[0], {0, -1}, keepdim);
                     })});
        s.push_back({"all dims" + k, {leaf({2, 3}, 3)}, one([=](const Inputs& x) {
                       return op(x[0], {}, keepdim);
                     })});
        s.push_back({"0-dim" + k, {leaf({}, 4)}, one([=](const Inputs& x) {
                       return op(x[0], {}, keepdim);
                     })});
        s.push_back({"transposed view, dim 0" + k, {leaf({2, 3}, 5)}, one([=](const Inputs& x) {
                       return op(t(x[0]), {0}, keepdim);
                     })});
      }
      return s;
    };
    // aminmax: both outputs differentiable; distinct random values (no ties, which finite
    // differences cannot check: the differential test checks them against PyTorch).
    grad_op("max.other", [] {
      return binary_samples([](const Tensor& a, const Tensor& b) { return max(a, b); });
    });
    grad_op("min.other", [] {
      return binary_samples([](const Tensor& a, const Tensor& b) { return min(a, b); });
    });
    add_op("argmin", Check::kNoDerivative, [] {
      return std::vector<Sample>{
          {"all elements", {leaf({3, 4}, 1)}, one([](const Inputs& x) { return argmin(x[0]); })},
          {"dim 1 keepdim", {leaf({3, 4}, 2)}, one([](const Inputs& x) {
             return argmin(x[0], 1, true);
           })},
      };
    });
    using Reduce = std::function<Tensor(const Tensor&)>;
    const std::pair<const char*, Reduce> bool_reductions[] = {
        {"all", [](const Tensor& a) { return all(a); }},
        {"all.dim", [](const Tensor& a) { return all(a, 1, true); }},
        {"any", [](const Tensor& a) { return any(a); }},
        {"any.dim", [](const Tensor& a) { return any(a, 0); }},
        {"count_nonzero.dim_IntList",
         [](const Tensor& a) {
           return count_nonzero(a, IntArrayRef({0, 1}));
         }},
        {"count_nonzero",
         [](const Tensor& a) { return count_nonzero(a, std::optional<int64_t>(1)); }},
    };
    for (const auto& [name, fn] : bool_reductions) {
      const Reduce f = fn;
      add_op(name, Check::kNoDerivative, [f] {
        return std::vector<Sample>{
            {"[2, 3]", {leaf({2, 3}, 1)}, one([f](const Inputs& x) { return f(x[0]); })},
            {"[2, 3] with zeros", {leaf({2, 3}, 2)}, one([f](const Inputs& x) {
               return f(relu(x[0]));
             })},
        };
      });
    }
    grad_op("nanmean", [=] {
      auto s =
          dims_samples([](const Tensor& a, IntArrayRef d, bool k) { return nanmean(a, d, k); });
      s.push_back(
          {"dim None", {leaf({2, 3}, 20)}, one([](const Inputs& x) { return nanmean(x[0]); })});
      return s;
    });
    // prod: without zeros, and with one, two and a row of zeros (PyTorch's exact gradient).
    auto with_zeros = [](std::vector<double> data, IntArrayRef sizes) {
      return tensor(std::move(data), sizes).set_requires_grad(true);
    };
    grad_op("prod", [=] {
      auto s = unary_samples([](const Tensor& a) { return prod(a); });
      s.push_back({"one zero", {with_zeros({1.5, 0, -0.7, 2}, {4})}, one([](const Inputs& x) {
                     return prod(x[0]);
                   })});
      s.push_back({"two zeros", {with_zeros({0, 1.5, 0, 2}, {2, 2})}, one([](const Inputs& x) {
                     return prod(x[0]);
                   })});
      return s;
    });
    grad_op("prod.dim_int", [=] {
      std::vector<Sample> s;
      for (bool keepdim : {false, true}) {
        const std::string k = keepdim ? " keepdim" : "";
        s.push_back({"[3, 4] dim 1" + k, {leaf({3, 4}, 1)}, one([=](const Inputs& x) {
                       return prod(x[0], 1, keepdim);
                     })});
        s.push_back({"[2, 4] zeros, dim -1" + k,
                     {with_zeros({0, 1.2, -0.8, 1.1, 0.9, 0, 0.6, 0}, {2, 4})},
                     one([=](const Inputs& x) { return prod(x[0], -1, keepdim); })});
        s.push_back({"[3, 2] a column of zeros, dim 0" + k,
                     {with_zeros({0, 1.1, 0, -0.9, 0, 1.3}, {3, 2})},
                     one([=](const Inputs& x) { return prod(x[0], 0, keepdim); })});
      }
      s.push_back({"0-dim", {leaf({}, 9)}, one([](const Inputs& x) { return prod(x[0], 0); })});
      return s;
    });
  }

  // tensor ops, second batch (issue 23): shape ops ----------------------------------------
  {
    auto f1 = [](std::function<Tensor(const Tensor&)> op) {
      return one([op](const Inputs& x) { return op(x[0]); });
    };
    // A shape op on a [2, 3, 4] leaf, a transposed view, an expanded (stride 0) input and an
    // empty one, each through `op`.
    auto shape_samples = [f1](std::function<Tensor(const Tensor&)> op) {
      return std::vector<Sample>{
          {"[2, 3, 4]", {leaf({2, 3, 4}, 1)}, f1(op)},
          {"transposed view", {leaf({4, 3, 2}, 2)}, f1([op](const Tensor& a) {
             return op(transpose(a, 0, 2));
           })},
          {"expanded [3, 1] -> [2, 3, 4]", {leaf({3, 1}, 3)}, f1([op](const Tensor& a) {
             return op(expand(a, {2, 3, 4}));
           })},
          {"empty [2, 0, 4]", {leaf({2, 0, 4}, 4)}, f1(op)},
      };
    };
    grad_op("flatten.using_ints", [=] {
      auto s = shape_samples([](const Tensor& a) { return flatten(a); });
      for (auto& [lo, hi] : std::vector<std::pair<int64_t, int64_t>>{{1, 2}, {0, 1}, {-2, -1}}) {
        s.push_back({"dims " + std::to_string(lo) + ".." + std::to_string(hi),
                     {leaf({2, 3, 4}, 5)},
                     f1([lo = lo, hi = hi](const Tensor& a) { return flatten(a, lo, hi); })});
      }
      s.push_back({"0-dim", {leaf({}, 6)}, f1([](const Tensor& a) { return flatten(a); })});
      return s;
    });
    grad_op("unflatten.int", [=] {
      auto s = shape_samples([](const Tensor& a) { return unflatten(a, -1, {2, 2}); });
      s.push_back({"-1 inferred", {leaf({6, 2}, 5)}, f1([](const Tensor& a) {
                     return unflatten(a, 0, {3, -1});
                   })});
      return s;
    });
    grad_op("movedim.intlist", [=] {
      auto s = shape_samples([](const Tensor& a) { return movedim(a, {0, 2}, {2, 0}); });
      s.push_back({"one dim to the front", {leaf({2, 3, 4}, 5)}, f1([](const Tensor& a) {
                     return movedim(a, IntArrayRef({-1}), IntArrayRef({0}));
                   })});
      return s;
    });
    grad_op("movedim.int",
            [=] { return shape_samples([](const Tensor& a) { return movedim(a, 0, -1); }); });
    grad_op("broadcast_to", [=] {
      return std::vector<Sample>{
          {"[3] -> [2, 3]", {leaf({3}, 1)}, f1([](const Tensor& a) {
             return broadcast_to(a, {2, 3});
           })},
          {"[3, 1] -> [2, 3, 4] with -1", {leaf({3, 1}, 2)}, f1([](const Tensor& a) {
             return broadcast_to(a, {2, -1, 4});
           })},
          {"0-dim -> [2]", {leaf({}, 3)}, f1([](const Tensor& a) { return broadcast_to(a, {2}); })},
          {"transposed view", {leaf({1, 3}, 4)}, f1([](const Tensor& a) {
             return broadcast_to(t(a), {3, 2});
           })},
      };
    });
    auto pieces = [](std::function<std::vector<Tensor>(const Tensor&)> op) {
      return [op](const Inputs& x) { return op(x[0]); };
    };
    grad_op("tensor_split.sections", [=] {
      return std::vector<Sample>{
          {"[7, 2] in 3", {leaf({7, 2}, 1)}, pieces([](const Tensor& a) {
             return tensor_split(a, 3);
           })},
          {"[2, 5] in 2 along -1", {leaf({2, 5}, 2)}, pieces([](const Tensor& a) {
             return tensor_split(a, 2, -1);
           })},
          {"[2, 3] in 5 (empty pieces)", {leaf({2, 3}, 3)}, pieces([](const Tensor& a) {
             return tensor_split(a, 5, 1);
           })},
          {"transposed view", {leaf({3, 4}, 4)}, pieces([](const Tensor& a) {
             return tensor_split(t(a), 3);
           })},
      };
    });
    grad_op("tensor_split.indices", [=] {
      return std::vector<Sample>{
          {"[6, 2] at [1, 4]", {leaf({6, 2}, 1)}, pieces([](const Tensor& a) {
             return tensor_split(a, IntArrayRef({1, 4}));
           })},
          {"negative, out of range and decreasing indices",
           {leaf({2, 5}, 2)},
           pieces([](const Tensor& a) {
             return tensor_split(a, IntArrayRef({-2, 9, 1}), 1);
           })},
          {"no indices", {leaf({3}, 3)}, pieces([](const Tensor& a) {
             return tensor_split(a, IntArrayRef());
           })},
      };
    });
    grad_op("tensor_split.tensor_indices_or_sections", [=] {
      const Tensor one = longs({1}, {1}), two = longs({1, 2}, {2}), three = longs({3}, {});
      return std::vector<Sample>{
          {"[2, 3] at tensor [1]", {leaf({2, 3}, 1)}, pieces([=](const Tensor& a) {
             return tensor_split(a, one, 1);
           })},
          {"[2, 3] at tensor [1, 2]", {leaf({2, 3}, 2)}, pieces([=](const Tensor& a) {
             return tensor_split(a, two, 1);
           })},
          {"[7, 2] in tensor 3", {leaf({7, 2}, 3)}, pieces([=](const Tensor& a) {
             return tensor_split(a, three);
           })},
      };
    });
    for (bool lower : {true, false}) {
      const std::string name = lower ? "tril" : "triu";
      auto tri = [lower](const Tensor& a, int64_t d) { return lower ? tril(a, d) : triu(a, d); };
      grad_op(name, [=] {
        std::vector<Sample> s;
        for (int64_t d : {0, 1, -1, 5, -5}) {
          s.push_back({"[3, 4] diagonal " + std::to_string(d),
                       {leaf({3, 4}, 1)},
                       f1([=](const Tensor& a) { return tri(a, d); })});
        }
        s.push_back({"batch [2, 3, 3]", {leaf({2, 3, 3}, 2)}, f1([=](const Tensor& a) {
                       return tri(a, 0);
                     })});
        s.push_back({"transposed view", {leaf({4, 3}, 3)}, f1([=](const Tensor& a) {
                       return tri(t(a), 1);
                     })});
        s.push_back({"expanded", {leaf({1, 3}, 4)}, f1([=](const Tensor& a) {
                       return tri(expand(a, {3, 3}), 0);
                     })});
        s.push_back(
            {"empty [0, 3]", {leaf({0, 3}, 5)}, f1([=](const Tensor& a) { return tri(a, 0); })});
        return s;
      });
    }
    grad_op("tile", [=] {
      auto s = shape_samples([](const Tensor& a) { return tile(a, {2, 1, 2}); });
      s.push_back({"fewer dims than self", {leaf({2, 3}, 5)}, f1([](const Tensor& a) {
                     return tile(a, {2});
                   })});
      return s;
    });
  }

  // tensor ops, third batch (issue 23): products -----------------------------------------
  {
    // An out= sample: `f` the op, `g` its out= variant, on `inputs`.
    auto out_sample = [](std::string name, Inputs inputs, std::function<Tensor(const Inputs&)> f,
                         OutFn g) {
      return std::vector<Sample>{
          {std::move(name), std::move(inputs), one(std::move(f)), nullptr, std::move(g)}};
    };
    // A [3] vector read with stride 2 (a column of a [3, 2] leaf).
    auto strided3 = [](uint64_t seed) { return leaf({3, 2}, seed); };
    for (bool is_vdot : {false, true}) {
      const std::string name = is_vdot ? "vdot" : "dot";
      auto f = [is_vdot](const Tensor& a, const Tensor& b) {
        return is_vdot ? vdot(a, b) : dot(a, b);
      };
      grad_op(name, [=] {
        return std::vector<Sample>{
            {"[3] . [3]", {leaf({3}, 1), leaf({3}, 2)}, one([f](const Inputs& x) {
               return f(x[0], x[1]);
             })},
            {"strided operand", {strided3(3), leaf({3}, 4)}, one([f](const Inputs& x) {
               return f(select(x[0], 1, 1), x[1]);
             })},
            {"empty [0] . [0]", {leaf({0}, 5), leaf({0}, 6)}, one([f](const Inputs& x) {
               return f(x[0], x[1]);
             })},
            {"only tensor requires grad", {value({4}, 7), leaf({4}, 8)}, one([f](const Inputs& x) {
               return f(x[0], x[1]);
             })},
        };
      });
    }
    for (bool is_ger : {false, true}) {
      const std::string name = is_ger ? "ger" : "outer";
      auto f = [is_ger](const Tensor& a, const Tensor& b) {
        return is_ger ? ger(a, b) : outer(a, b);
      };
      grad_op(name, [=] {
        return std::vector<Sample>{
            {"[3] x [4]", {leaf({3}, 1), leaf({4}, 2)}, one([f](const Inputs& x) {
               return f(x[0], x[1]);
             })},
            {"strided operand", {strided3(3), leaf({2}, 4)}, one([f](const Inputs& x) {
               return f(select(x[0], 1, 0), x[1]);
             })},
            {"empty [0] x [2]", {leaf({0}, 5), leaf({2}, 6)}, one([f](const Inputs& x) {
               return f(x[0], x[1]);
             })},
        };
      });
      add_op(name + ".out", Check::kOut, [=] {
        return out_sample(
            "[3] x [2]", {leaf({3}, 1), leaf({2}, 2)},
            [f](const Inputs& x) { return f(x[0], x[1]); },
            [is_ger](const Inputs& x, Tensor& o) -> Tensor {
              return is_ger ? ger_out(x[0], x[1], o) : outer_out(x[0], x[1], o);
            });
      });
    }
    // The add* ops: self, then the two factors; beta and alpha as given.
    using Add3 = std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&,
                                      const Scalar&)>;
    using Add3_ =
        std::function<void(Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&)>;
    using Add3Out = std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&,
                                         const Scalar&, Tensor&)>;
    struct AddShapes {
      std::vector<int64_t> self, broadcast_self, a, b;
    };
    auto add_family = [=](std::string name, AddShapes s, Add3 f, Add3_ f_, Add3Out f_out) {
      grad_op(name, [=] {
        auto call = [f](Scalar beta, Scalar alpha) {
          return one([=](const Inputs& x) { return f(x[0], x[1], x[2], beta, alpha); });
        };
        return std::vector<Sample>{
            {"beta 1, alpha 1", {leaf(s.self, 1), leaf(s.a, 2), leaf(s.b, 3)}, call(1, 1)},
            {"broadcast self, beta 0.5, alpha -2",
             {leaf(s.broadcast_self, 4), leaf(s.a, 5), leaf(s.b, 6)},
             call(0.5, -2)},
            {"0-dim self", {leaf({}, 7), leaf(s.a, 8), leaf(s.b, 9)}, call(2, 1)},
            {"beta 0 (self ignored)",
             {leaf(s.self, 10), leaf(s.a, 11), leaf(s.b, 12)},
             call(0, 1.5)},
            {"only the factors require grad",
             {value(s.self, 13), leaf(s.a, 14), leaf(s.b, 15)},
             call(1, 1)},
        };
      });
    };
    add_family(
        "addmv", {{2}, {1}, {2, 3}, {3}},
        [](auto& a, auto& b, auto& c, auto& beta, auto& alpha) {
          return addmv(a, b, c, beta, alpha);
        },
        [](Tensor& a, auto& b, auto& c, auto& beta, auto& alpha) { addmv_(a, b, c, beta, alpha); },
        [](auto& a, auto& b, auto& c, auto& beta, auto& alpha, Tensor& o) -> Tensor {
          return addmv_out(a, b, c, beta, alpha, o);
        });
    add_family(
        "addmm", {{2, 4}, {4}, {2, 3}, {3, 4}},
        [](auto& a, auto& b, auto& c, auto& beta, auto& alpha) {
          return addmm(a, b, c, beta, alpha);
        },
        [](Tensor& a, auto& b, auto& c, auto& beta, auto& alpha) { addmm_(a, b, c, beta, alpha); },
        [](auto& a, auto& b, auto& c, auto& beta, auto& alpha, Tensor& o) -> Tensor {
          return addmm_out(a, b, c, beta, alpha, o);
        });
    add_family(
        "addbmm", {{2, 4}, {2, 1}, {3, 2, 3}, {3, 3, 4}},
        [](auto& a, auto& b, auto& c, auto& beta, auto& alpha) {
          return addbmm(a, b, c, beta, alpha);
        },
        [](Tensor& a, auto& b, auto& c, auto& beta, auto& alpha) { addbmm_(a, b, c, beta, alpha); },
        [](auto& a, auto& b, auto& c, auto& beta, auto& alpha, Tensor& o) -> Tensor {
          return addbmm_out(a, b, c, beta, alpha, o);
        });
    add_family(
        "baddbmm", {{2, 2, 4}, {4}, {2, 2, 3}, {2, 3, 4}},
        [](auto& a, auto& b, auto& c, auto& beta, auto& alpha) {
          return baddbmm(a, b, c, beta, alpha);
        },
        [](Tensor& a, auto& b, auto& c, auto& beta, auto& alpha) {
          baddbmm_(a, b, c, beta, alpha);
        },
        [](auto& a, auto& b, auto& c, auto& beta, auto& alpha, Tensor& o) -> Tensor {
          return baddbmm_out(a, b, c, beta, alpha, o);
        });
    grad_op("kron", [=] {
      auto f = one([](const Inputs& x) { return kron(x[0], x[1]); });
      return std::vector<Sample>{
          {"[2, 3] x [2, 2]", {leaf({2, 3}, 1), leaf({2, 2}, 2)}, f},
          {"[3] x [2, 2] (fewer dims)", {leaf({3}, 3), leaf({2, 2}, 4)}, f},
          {"transposed", {leaf({3, 2}, 5), leaf({2}, 6)}, one([](const Inputs& x) {
             return kron(t(x[0]), x[1]);
           })},
          {"0-dim", {leaf({}, 7), leaf({2}, 8)}, f},
      };
    });
    add_op("kron.out", Check::kOut, [=] {
      return out_sample(
          "[2] x [3]", {leaf({2}, 1), leaf({3}, 2)},
          [](const Inputs& x) { return kron(x[0], x[1]); },
          [](const Inputs& x, Tensor& o) -> Tensor { return kron_out(x[0], x[1], o); });
    });
    add_op("cross.out", Check::kOut, [=] {
      return out_sample(
          "[2, 3] dim 1", {leaf({2, 3}, 1), leaf({2, 3}, 2)},
          [](const Inputs& x) { return cross(x[0], x[1], 1); },
          [](const Inputs& x, Tensor& o) -> Tensor { return cross_out(x[0], x[1], 1, o); });
    });
    grad_op("cross", [=] {
      return std::vector<Sample>{
          {"[2, 3] dim -1", {leaf({2, 3}, 1), leaf({2, 3}, 2)}, one([](const Inputs& x) {
             return cross(x[0], x[1], -1);
           })},
          {"[3, 2] dim None (the first of size 3)",
           {leaf({3, 2}, 3), leaf({3, 2}, 4)},
           one([](const Inputs& x) { return cross(x[0], x[1]); })},
      };
    });
    grad_op("tensordot", [=] {
      return std::vector<Sample>{
          {"[2, 3, 4] . [3, 4, 2] over two dims",
           {leaf({2, 3, 4}, 1), leaf({3, 4, 2}, 2)},
           one([](const Inputs& x) {
             return tensordot(x[0], x[1], {1, 2}, {0, 1});
           })},
          {"crossed dims", {leaf({3, 2}, 3), leaf({2, 4, 3}, 4)}, one([](const Inputs& x) {
             return tensordot(x[0], x[1], {0, 1}, {2, 0});
           })},
          {"no dims (outer product)", {leaf({2}, 5), leaf({3}, 6)}, one([](const Inputs& x) {
             return tensordot(x[0], x[1], IntArrayRef(), IntArrayRef());
           })},
          {"a size-1 dim against size 3",
           {leaf({1, 2}, 7), leaf({3, 2}, 8)},
           one([](const Inputs& x) { return tensordot(x[0], x[1], {0}, {0}); })},
      };
    });
    add_op("tensordot.out", Check::kOut, [=] {
      return out_sample(
          "[2, 3] . [3, 2]", {leaf({2, 3}, 1), leaf({3, 2}, 2)},
          [](const Inputs& x) { return tensordot(x[0], x[1], {1}, {0}); },
          [](const Inputs& x, Tensor& o) -> Tensor {
            return tensordot_out(x[0], x[1], {1}, {0}, o);
          });
    });
  }

  // tensor ops, third batch (issue 23): sorting and roll -----------------------------------
  {
    using Pair = std::tuple<Tensor, Tensor>;
    auto values_of = [](std::function<Pair(const Tensor&)> op) {
      return one([op](const Inputs& x) { return std::get<0>(op(x[0])); });
    };
    // Sorting samples on distinct random values: a [2, 5] leaf along each dim, a transposed
    // view, an expanded input (repeated values: ties), a 0-dim and an empty one.
    auto sort_samples = [=](std::function<Pair(const Tensor&, int64_t)> op) {
      return std::vector<Sample>{
          {"[2, 5] dim -1", {leaf({2, 5}, 1)}, values_of([op](const Tensor& a) {
             return op(a, -1);
           })},
          {"[3, 4] dim 0", {leaf({3, 4}, 2)}, values_of([op](const Tensor& a) {
             return op(a, 0);
           })},
          {"transposed view", {leaf({4, 3}, 3)}, values_of([op](const Tensor& a) {
             return op(t(a), 1);
           })},
          {"expanded (ties)", {leaf({3, 1}, 4)}, values_of([op](const Tensor& a) {
             return op(expand(a, {3, 4}), 1);
           })},
          {"0-dim", {leaf({}, 5)}, values_of([op](const Tensor& a) { return op(a, 0); })},
          {"empty [0, 3]", {leaf({0, 3}, 6)}, values_of([op](const Tensor& a) {
             return op(a, 1);
           })},
      };
    };
    grad_op("sort", [=] {
      auto s = sort_samples([](const Tensor& a, int64_t d) { return sort(a, d); });
      s.push_back({"descending", {leaf({2, 5}, 7)}, values_of([](const Tensor& a) {
                     return sort(a, 1, true);
                   })});
      return s;
    });
    grad_op("sort.stable", [=] {
      auto s = sort_samples(
          [](const Tensor& a, int64_t d) { return sort(a, std::optional<bool>(true), d, true); });
      s.push_back({"stable unset", {leaf({4}, 7)}, values_of([](const Tensor& a) {
                     return sort(a, std::optional<bool>(), 0, false);
                   })});
      return s;
    });
    // argsort's indices carry no gradient: the sample's output is self gathered by them.
    auto gathered = [](std::function<Tensor(const Tensor&)> op) {
      return one([op](const Inputs& x) { return gather(x[0], -1, op(x[0])); });
    };
    grad_op("argsort", [=] {
      return std::vector<Sample>{
          {"[2, 5]", {leaf({2, 5}, 1)}, gathered([](const Tensor& a) { return argsort(a); })},
          {"descending", {leaf({2, 5}, 2)}, gathered([](const Tensor& a) {
             return argsort(a, -1, true);
           })},
      };
    });
    grad_op("argsort.stable", [=] {
      return std::vector<Sample>{
          {"[2, 5] descending", {leaf({2, 5}, 1)}, gathered([](const Tensor& a) {
             return argsort(a, true, -1, true);
           })},
      };
    });
    add_op("argsort.stable_out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"[2, 5]",
           {leaf({2, 5}, 1)},
           one([](const Inputs& x) { return argsort(x[0], true, -1, false); }),
           nullptr,
           [](const Inputs& x, Tensor& o) { return argsort_out(x[0], true, -1, false, o); }},
      };
    });
    grad_op("topk", [=] {
      auto top = [](int64_t k, int64_t d, bool largest, bool sorted) {
        return [=](const Tensor& a) { return topk(a, k, d, largest, sorted); };
      };
      return std::vector<Sample>{
          {"[2, 5] k 3", {leaf({2, 5}, 1)}, values_of(top(3, -1, true, true))},
          {"smallest along dim 0", {leaf({4, 3}, 2)}, values_of(top(2, 0, false, true))},
          {"unsorted", {leaf({6}, 3)}, values_of(top(4, 0, true, false))},
          {"k 0", {leaf({2, 3}, 4)}, values_of(top(0, 1, true, true))},
          {"k = size, transposed", {leaf({3, 2}, 5)}, one([](const Inputs& x) {
             return std::get<0>(topk(t(x[0]), 3));
           })},
          {"0-dim", {leaf({}, 6)}, values_of(top(1, 0, true, true))},
      };
    });
  }

  // tensor ops, third batch (issue 23): creation ---------------------------------------------
  {
    // The factories take no tensor: each sample has a leaf that requires grad beside the call
    // (kNoDerivative checks that the outputs carry no history or tangent even so).
    auto factory = [](std::string name, std::function<Tensor()> f) {
      return Sample{std::move(name), {leaf({2}, 1)}, one([f](const Inputs&) { return f(); })};
    };
    // An out= factory: writes into an empty tensor of dtype, which it resizes.
    auto into = [](ScalarType dtype, std::function<Tensor(Tensor&)> f) {
      return [dtype, f] {
        Tensor out = zeros({0}, dtype);
        return f(out);
      };
    };
    auto no_derivative = [&add_op](std::string name, std::vector<Sample> samples) {
      add_op(std::move(name), Check::kNoDerivative, [samples] { return samples; });
    };
    no_derivative("arange", {factory("end 5 (Long)", [] { return arange(5); }),
                             factory("end 2.5 (Double)", [] { return arange(2.5); }),
                             factory("dtype Float", [] { return arange(3, ScalarType::Float); })});
    no_derivative("arange.start", {factory("1 to 4", [] {
                    return arange(Scalar(1), Scalar(4), std::optional<ScalarType>());
                  })});
    no_derivative("arange.start_step",
                  {factory("0 to 1 by 0.25", [] { return arange(0, 1, 0.25); }),
                   factory("10 to 0 by -3", [] { return arange(10, 0, -3); })});
    no_derivative("arange.out",
                  {factory("into a Double out",
                           into(ScalarType::Double, [](Tensor& o) { return arange_out(4, o); }))});
    no_derivative("arange.start_out",
                  {factory("into a Long out", into(ScalarType::Long, [](Tensor& o) {
                             return arange_out(1, 7, 2, o);
                           }))});
    no_derivative("linspace", {factory("0 to 1 in 5", [] { return linspace(0, 1, 5); }),
                               factory("1 step", [] { return linspace(2, 3, 1); })});
    no_derivative("linspace.out",
                  {factory("into a Float out", into(ScalarType::Float, [](Tensor& o) {
                             return linspace_out(-1, 1, 4, o);
                           }))});
    no_derivative("logspace", {factory("base 10", [] { return logspace(0, 2, 3); }),
                               factory("base 2", [] { return logspace(0, 3, 4, 2.0); })});
    no_derivative("logspace.out",
                  {factory("into a Double out", into(ScalarType::Double, [](Tensor& o) {
                             return logspace_out(0, 1, 3, 10.0, o);
                           }))});
    no_derivative("eye", {factory("3", [] { return eye(3); })});
    no_derivative("eye.m", {factory("2 x 3, Bool", [] { return eye(2, 3, ScalarType::Bool); })});
    no_derivative("eye.out", {factory("into a Long out", into(ScalarType::Long, [](Tensor& o) {
                                        return eye_out(2, o);
                                      }))});
    no_derivative("eye.m_out",
                  {factory("into a Double out",
                           into(ScalarType::Double, [](Tensor& o) { return eye_out(2, 4, o); }))});
    no_derivative("full_like", {{"[2, 3] with 7", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
                                   return full_like(x[0], 7);
                                 })},
                                {"dtype Long", {leaf({2}, 2)}, one([](const Inputs& x) {
                                   return full_like(x[0], 2, ScalarType::Long);
                                 })}});
    // empty_like's elements are uninitialized: the sample's output is its shape and dtype, filled.
    no_derivative("empty_like", {{"[2, 3]", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
                                    return full_like(empty_like(x[0]), 1);
                                  })}});
  }

  // nn, second batch (issue 26): normalization ------------------------------------
  // native_layer_norm, native_batch_norm and native_group_norm: specs/samples.yaml.
  // The backward ops' samples compute mean / rstd (save_mean / save_invstd) from the detached
  // input inside the sample, so that finite differences see them follow the input, as the
  // double backward formulas take them (PyTorch's convention).
  {
    using OptT = std::optional<Tensor>;
    auto opt = [](const Tensor& t) { return t.defined() ? OptT(t) : OptT(); };
    auto defined_only = [](std::tuple<Tensor, Tensor, Tensor> t) {
      std::vector<Tensor> out;
      for (const Tensor& o : {std::get<0>(t), std::get<1>(t), std::get<2>(t)}) {
        if (o.defined()) out.push_back(o);
      }
      return out;
    };
    auto lnb_case = [=](std::string name, std::vector<int64_t> shape, std::vector<int64_t> norm,
                        bool w, bool b, uint64_t seed) {
      // {grad_out, input[, weight]}; the bias only says whether grad_bias is computed.
      Inputs in = {leaf(shape, seed), leaf(shape, seed + 1)};
      if (w) in.push_back(leaf(norm, seed + 2));
      const Tensor bias = b ? value(norm, seed + 3) : Tensor();
      return Sample{name, in, [=](const Inputs& x) {
                      const Tensor wt = w ? x[2] : Tensor();
                      Tensor m, r;
                      {
                        autograd::NoGradGuard no_grad;
                        auto s = native_layer_norm(x[1].detach(), norm,
                                                   wt.defined() ? opt(wt.detach()) : OptT(),
                                                   opt(bias), 1e-5);
                        m = std::get<1>(s);
                        r = std::get<2>(s);
                      }
                      return defined_only(native_layer_norm_backward(x[0], x[1], norm, m, r,
                                                                     opt(wt), opt(bias),
                                                                     {true, true, true}));
                    }};
    };
    grad_op("native_layer_norm_backward", [=] {
      return std::vector<Sample>{
          lnb_case("[2, 3, 4] over [4], weight and bias", {2, 3, 4}, {4}, true, true, 1),
          lnb_case("[3, 2, 3] over [2, 3], no weight or bias", {3, 2, 3}, {2, 3}, false, false, 5),
          lnb_case("[4, 5] over [5], weight only", {4, 5}, {5}, true, false, 9),
          {"only grad_input asked",
           {leaf({3, 4}, 13), leaf({3, 4}, 14), leaf({4}, 15)},
           [=](const Inputs& x) {
             Tensor m, r;
             {
               autograd::NoGradGuard no_grad;
               auto s = native_layer_norm(x[1].detach(), {4}, x[2].detach(), std::nullopt, 1e-5);
               m = std::get<1>(s);
               r = std::get<2>(s);
             }
             return defined_only(native_layer_norm_backward(x[0], x[1], {4}, m, r, x[2],
                                                            std::nullopt, {true, false, false}));
           }},
      };
    });
    grad_op("layer_norm", [=] {
      return std::vector<Sample>{
          {"[2, 3, 4] over [3, 4], weight and bias",
           {leaf({2, 3, 4}, 1), leaf({3, 4}, 2), leaf({3, 4}, 3)},
           one([](const Inputs& x) {
             return layer_norm(x[0], {3, 4}, x[1], x[2]);
           })},
          {"[3, 5] defaults", {leaf({3, 5}, 4)}, one([](const Inputs& x) {
             return layer_norm(x[0], {5});
           })},
          {"eps 0.1", {leaf({2, 4}, 5), leaf({4}, 6)}, one([](const Inputs& x) {
             return layer_norm(x[0], {4}, x[1], std::nullopt, 0.1);
           })},
      };
    });

    auto bnb_case = [=](std::string name, std::vector<int64_t> shape, bool w, bool train,
                        uint64_t seed, std::array<bool, 3> mask = {true, true, true}) {
      const int64_t C = shape[1];
      Inputs in = {leaf(shape, seed), leaf(shape, seed + 1)};
      if (w) in.push_back(leaf({C}, seed + 2));
      const Tensor rm = value({C}, seed + 3);
      const Tensor rv = positive({C}, seed + 4, false);
      return Sample{name, in, [=](const Inputs& x) {
                      const Tensor wt = w ? x[2] : Tensor();
                      Tensor sm, si;
                      if (train) {
                        autograd::NoGradGuard no_grad;
                        auto s = native_batch_norm(x[1].detach(), std::nullopt, std::nullopt,
                                                   std::nullopt, std::nullopt, true, 0.1, 1e-5);
                        sm = std::get<1>(s);
                        si = std::get<2>(s);
                      }
                      return defined_only(
                          native_batch_norm_backward(x[0], x[1], opt(wt), train ? OptT() : OptT(rm),
                                                     train ? OptT() : OptT(rv), opt(sm), opt(si),
                                                     train, 1e-5, mask));
                    }};
    };
    grad_op("native_batch_norm_backward", [=] {
      return std::vector<Sample>{
          bnb_case("training [4, 3], weight", {4, 3}, true, true, 1),
          bnb_case("training [2, 3, 2], no weight", {2, 3, 2}, false, true, 6),
          bnb_case("evaluation [3, 2, 2], weight", {3, 2, 2}, true, false, 11),
          bnb_case("training, grad_input only", {3, 2}, true, true, 16, {true, false, false}),
      };
    });
    grad_op("batch_norm", [=] {
      return std::vector<Sample>{
          {"training [4, 2, 3]",
           {leaf({4, 2, 3}, 1), leaf({2}, 2), leaf({2}, 3)},
           one([](const Inputs& x) {
             return batch_norm(x[0], x[1], x[2], std::nullopt, std::nullopt, true, 0.1, 1e-5,
                               false);
           })},
          {"evaluation [3, 2]", {leaf({3, 2}, 4)}, one([](const Inputs& x) {
             return batch_norm(x[0], std::nullopt, std::nullopt, zeros({2}), ones({2}), false, 0.1,
                               1e-5, false);
           })},
      };
    });

    grad_op("native_group_norm_backward", [=] {
      auto gnb = [=](std::string name, std::vector<int64_t> shape, int64_t group, bool w,
                     uint64_t seed) {
        const int64_t N = shape[0], C = shape[1];
        int64_t HxW = 1;
        for (size_t i = 2; i < shape.size(); ++i) HxW *= shape[i];
        Inputs in = {leaf(shape, seed), leaf(shape, seed + 1)};
        if (w) in.push_back(leaf({C}, seed + 2));
        return Sample{name, in, [=](const Inputs& x) {
                        const Tensor wt = w ? x[2] : Tensor();
                        Tensor m, r;
                        {
                          autograd::NoGradGuard no_grad;
                          auto s = native_group_norm(x[1].detach(), std::nullopt, std::nullopt, N,
                                                     C, HxW, group, 1e-5);
                          m = std::get<1>(s);
                          r = std::get<2>(s);
                        }
                        return defined_only(native_group_norm_backward(x[0], x[1], m, r, opt(wt), N,
                                                                       C, HxW, group,
                                                                       {true, true, true}));
                      }};
      };
      return std::vector<Sample>{
          gnb("[2, 4, 3], 2 groups, weight", {2, 4, 3}, 2, true, 1),
          gnb("[2, 6, 2, 2], 3 groups, no weight", {2, 6, 2, 2}, 3, false, 5),
      };
    });
    grad_op("group_norm", [=] {
      return std::vector<Sample>{
          {"[2, 4, 2, 2], 2 groups",
           {leaf({2, 4, 2, 2}, 1), leaf({4}, 2), leaf({4}, 3)},
           one([](const Inputs& x) { return group_norm(x[0], 2, x[1], x[2]); })},
          {"[3, 2] defaults, transposed view", {leaf({2, 3}, 4)}, one([](const Inputs& x) {
             return group_norm(t(x[0]), 1);
           })},
      };
    });
    grad_op("rms_norm", [=] {
      return std::vector<Sample>{
          {"[2, 3, 4] over [4], weight",
           {leaf({2, 3, 4}, 1), leaf({4}, 2)},
           one([](const Inputs& x) { return rms_norm(x[0], {4}, x[1]); })},
          {"[3, 2, 2] over [2, 2], eps 0.1", {leaf({3, 2, 2}, 3)}, one([](const Inputs& x) {
             return rms_norm(x[0], {2, 2}, std::nullopt, 0.1);
           })},
      };
    });
  }

  // nn, second batch (issue 26): convolution ------------------------------------
  // convolution and convolution_backward: specs/samples.yaml. These composites have no formulas.
  {
    grad_op("conv1d", [] {
      return std::vector<Sample>{
          {"[2, 2, 6] stride 2, bias",
           {leaf({2, 2, 6}, 1), leaf({3, 2, 3}, 2), leaf({3}, 3)},
           one([](const Inputs& x) { return conv1d(x[0], x[1], x[2], {2}, IntArrayRef({0})); })},
          {"unbatched [2, 5]", {leaf({2, 5}, 4), leaf({2, 2, 2}, 5)}, one([](const Inputs& x) {
             return conv1d(x[0], x[1], std::nullopt, {1}, {1});
           })},
      };
    });
    grad_op("conv2d", [] {
      return std::vector<Sample>{
          {"[1, 2, 4, 4] padding 1, dilation 2, bias",
           {leaf({1, 2, 4, 4}, 1), leaf({2, 2, 2, 2}, 2), leaf({2}, 3)},
           one([](const Inputs& x) { return conv2d(x[0], x[1], x[2], {1}, {1}, {2}); })},
          {"unbatched [2, 3, 3], groups 2",
           {leaf({2, 3, 3}, 4), leaf({4, 1, 2, 2}, 5)},
           one([](const Inputs& x) {
             return conv2d(x[0], x[1], std::nullopt, {1}, IntArrayRef({0}), {1}, 2);
           })},
      };
    });
    grad_op("conv3d", [] {
      return std::vector<Sample>{
          {"[1, 1, 3, 3, 3], bias",
           {leaf({1, 1, 3, 3, 3}, 1), leaf({2, 1, 2, 2, 2}, 2), leaf({2}, 3)},
           one([](const Inputs& x) { return conv3d(x[0], x[1], x[2], {1}, IntArrayRef({0})); })},
      };
    });
    auto same_case = [](int64_t dims, std::string padding, std::vector<int64_t> x,
                        std::vector<int64_t> w, std::vector<int64_t> dilation, uint64_t seed) {
      return Sample{padding + " " + shape_str(w) + " dilation " + shape_str(dilation),
                    {leaf(x, seed), leaf(w, seed + 1)},
                    one([=](const Inputs& v) {
                      switch (dims) {
                        case 1: return conv1d(v[0], v[1], std::nullopt, {1}, padding, dilation);
                        case 2: return conv2d(v[0], v[1], std::nullopt, {1}, padding, dilation);
                        default: return conv3d(v[0], v[1], std::nullopt, {1}, padding, dilation);
                      }
                    })};
    };
    grad_op("conv1d.padding", [=] {
      return std::vector<Sample>{
          same_case(1, "same", {1, 2, 5}, {2, 2, 3}, {1}, 1),
          same_case(1, "same", {1, 2, 5}, {2, 2, 2}, {1}, 3),
          same_case(1, "valid", {2, 1, 5}, {2, 1, 3}, {2}, 5),
      };
    });
    grad_op("conv2d.padding", [=] {
      return std::vector<Sample>{
          same_case(2, "same", {1, 2, 4, 4}, {2, 2, 2, 3}, {1}, 1),
          same_case(2, "same", {1, 1, 4, 4}, {1, 1, 2, 2}, {2}, 3),
          same_case(2, "valid", {1, 1, 4, 4}, {2, 1, 3, 3}, {1}, 5),
      };
    });
    grad_op("conv3d.padding", [=] {
      return std::vector<Sample>{
          same_case(3, "same", {1, 1, 3, 3, 3}, {1, 1, 2, 3, 2}, {1}, 1),
      };
    });
    grad_op("conv_transpose1d", [] {
      return std::vector<Sample>{
          {"[1, 2, 4] stride 2, output_padding 1, bias",
           {leaf({1, 2, 4}, 1), leaf({2, 3, 3}, 2), leaf({3}, 3)},
           one([](const Inputs& x) { return conv_transpose1d(x[0], x[1], x[2], {2}, {1}, {1}); })},
          {"unbatched, groups 2", {leaf({2, 3}, 4), leaf({2, 1, 2}, 5)}, one([](const Inputs& x) {
             return conv_transpose1d(x[0], x[1], std::nullopt, {1}, {0}, {0}, 2);
           })},
      };
    });
    grad_op("conv_transpose2d.input", [] {
      return std::vector<Sample>{
          {"[1, 2, 3, 3] stride 2, dilation 2",
           {leaf({1, 2, 3, 3}, 1), leaf({2, 2, 2, 2}, 2), leaf({2}, 3)},
           one([](const Inputs& x) {
             return conv_transpose2d(x[0], x[1], x[2], {2}, {1}, {1}, 1, {2});
           })},
      };
    });
    grad_op("conv_transpose3d.input", [] {
      return std::vector<Sample>{
          {"[1, 1, 2, 2, 2]",
           {leaf({1, 1, 2, 2, 2}, 1), leaf({1, 2, 2, 2, 2}, 2)},
           one([](const Inputs& x) { return conv_transpose3d(x[0], x[1]); })},
      };
    });
  }

  // nn, second batch (issue 26): pooling ------------------------------------------
  {
    struct P2 {
      std::vector<int64_t> k, s, p, d;
      bool ceil;
    };
    grad_op("max_pool2d_with_indices_backward", [=] {
      auto bwd = [](std::string name, std::vector<int64_t> in, std::vector<int64_t> out, P2 c,
                    uint64_t seed) {
        return Sample{name, {leaf(out, seed), leaf(in, seed + 1)}, one([=](const Inputs& x) {
                        const Tensor idx = std::get<1>(
                            max_pool2d_with_indices(x[1].detach(), c.k, c.s, c.p, c.d, c.ceil));
                        return max_pool2d_with_indices_backward(x[0], x[1], c.k, c.s, c.p, c.d,
                                                                c.ceil, idx);
                      })};
      };
      return std::vector<Sample>{
          bwd("overlapping windows", {1, 2, 4, 4}, {1, 2, 3, 3}, {{2}, {1}, {0}, {1}, false}, 1),
          bwd("ceil_mode with padding", {1, 1, 5, 5}, {1, 1, 3, 3}, {{2}, {2}, {1}, {1}, true}, 3),
      };
    });
    grad_op("max_pool2d", [] {
      return std::vector<Sample>{
          {"[1, 2, 4, 5] kernel [2, 3]", {leaf({1, 2, 4, 5}, 1)}, one([](const Inputs& x) {
             return max_pool2d(x[0], {2, 3});
           })},
      };
    });
    grad_op("max_pool1d_with_indices", [] {
      auto pooled = [](std::vector<int64_t> k, std::vector<int64_t> st, std::vector<int64_t> pad,
                       std::vector<int64_t> dil, bool ceil) {
        return [=](const Inputs& x) {
          auto [out, idx] = max_pool1d_with_indices(x[0], k, st, pad, dil, ceil);
          return std::vector<Tensor>{out, idx};
        };
      };
      return std::vector<Sample>{
          {"[2, 3, 9] kernel 3, stride 2, padding 1, ceil_mode",
           {leaf({2, 3, 9}, 1)},
           pooled({3}, {2}, {1}, {1}, true)},
          {"unbatched [2, 7], dilation 2", {leaf({2, 7}, 2)}, pooled({2}, {}, {0}, {2}, false)},
      };
    });
    grad_op("max_pool1d", [] {
      return std::vector<Sample>{
          {"[2, 3, 7] kernel 3, stride 2, padding 1",
           {leaf({2, 3, 7}, 1)},
           one([](const Inputs& x) { return max_pool1d(x[0], {3}, {2}, {1}); })},
          {"unbatched [2, 6], ceil_mode", {leaf({2, 6}, 2)}, one([](const Inputs& x) {
             return max_pool1d(x[0], {2}, {2}, {1}, {1}, true);
           })},
      };
    });
  }
  // nn, third batch (issue 26): adaptive pooling, avg_pool1d -------------------------
  {
    grad_op("adaptive_avg_pool2d", [] {
      return std::vector<Sample>{
          {"[1, 2, 5, 5] to [1, 1] (the mean)", {leaf({1, 2, 5, 5}, 1)}, one([](const Inputs& x) {
             return adaptive_avg_pool2d(x[0], {1, 1});
           })},
          {"[2, 3, 4, 6] to [3, 2]", {leaf({2, 3, 4, 6}, 2)}, one([](const Inputs& x) {
             return adaptive_avg_pool2d(x[0], {3, 2});
           })},
      };
    });
    grad_op("adaptive_avg_pool1d", [] {
      return std::vector<Sample>{
          {"[2, 3, 7] to 3", {leaf({2, 3, 7}, 1)}, one([](const Inputs& x) {
             return adaptive_avg_pool1d(x[0], {3});
           })},
          {"unbatched [2, 5] to 5", {leaf({2, 5}, 2)}, one([](const Inputs& x) {
             return adaptive_avg_pool1d(x[0], {5});
           })},
      };
    });
    grad_op("adaptive_max_pool2d_backward", [] {
      return std::vector<Sample>{
          {"[1, 2, 5, 7] from [3, 4]",
           {leaf({1, 2, 3, 4}, 1), leaf({1, 2, 5, 7}, 2)},
           one([](const Inputs& x) {
             const Tensor idx = std::get<1>(adaptive_max_pool2d(x[1].detach(), {3, 4}));
             return adaptive_max_pool2d_backward(x[0], x[1], idx);
           })},
      };
    });
    grad_op("adaptive_max_pool1d", [] {
      return std::vector<Sample>{
          {"[2, 3, 7] to 3",
           {leaf({2, 3, 7}, 1)},
           [](const Inputs& x) {
             auto [out, idx] = adaptive_max_pool1d(x[0], {3});
             return std::vector<Tensor>{out, idx};
           }},
          {"unbatched [2, 5] to 4",
           {leaf({2, 5}, 2)},
           [](const Inputs& x) {
             auto [out, idx] = adaptive_max_pool1d(x[0], {4});
             return std::vector<Tensor>{out, idx};
           }},
      };
    });
    grad_op("avg_pool1d", [] {
      return std::vector<Sample>{
          {"[2, 3, 7] kernel 3, stride 2, padding 1",
           {leaf({2, 3, 7}, 1)},
           one([](const Inputs& x) { return avg_pool1d(x[0], {3}, {2}, {1}); })},
          {"unbatched [2, 6], ceil_mode, padding not counted",
           {leaf({2, 6}, 2)},
           one([](const Inputs& x) { return avg_pool1d(x[0], {2}, {2}, {1}, true, false); })},
      };
    });
  }
  // nn, third batch (issue 26): norms, distances, instance_norm, one_hot, margin losses ----
  {
    grad_op("cosine_similarity", [] {
      return std::vector<Sample>{
          {"[3, 4] dim 1", {leaf({3, 4}, 1), leaf({3, 4}, 2)}, one([](const Inputs& x) {
             return cosine_similarity(x[0], x[1]);
           })},
          {"[1, 4] broadcast with [3, 4], dim 0 of [4, 3]",
           {leaf({4, 1}, 3), leaf({4, 3}, 4)},
           one([](const Inputs& x) { return cosine_similarity(x[0], x[1], 0); })},
      };
    });
    grad_op("pairwise_distance", [] {
      return std::vector<Sample>{
          {"[3, 4] p 2", {leaf({3, 4}, 1), leaf({3, 4}, 2)}, one([](const Inputs& x) {
             return pairwise_distance(x[0], x[1]);
           })},
          {"[4] broadcast with [3, 4], p 1, keepdim",
           {leaf({4}, 3), leaf({3, 4}, 4)},
           one([](const Inputs& x) { return pairwise_distance(x[0], x[1], 1.0, 1e-6, true); })},
          {"p 3", {leaf({2, 5}, 5), leaf({2, 5}, 6)}, one([](const Inputs& x) {
             return pairwise_distance(x[0], x[1], 3.0);
           })},
      };
    });
    grad_op("instance_norm", [] {
      return std::vector<Sample>{
          {"[2, 3, 4] with weight and bias",
           {leaf({2, 3, 4}, 1), leaf({3}, 2), leaf({3}, 3)},
           one([](const Inputs& x) {
             return instance_norm(x[0], x[1], x[2], std::nullopt, std::nullopt, true, 0.1, 1e-5,
                                  false);
           })},
          {"[2, 2, 2, 3] with running statistics updated",
           {leaf({2, 2, 2, 3}, 4)},
           one([](const Inputs& x) {
             const Tensor mean = zeros({2}, ScalarType::Double),
                          var = ones({2}, ScalarType::Double);
             return instance_norm(x[0], std::nullopt, std::nullopt, mean, var, true, 0.1, 1e-5,
                                  false);
           })},
          {"[2, 3, 4] evaluation, running statistics",
           {leaf({2, 3, 4}, 5), leaf({3}, 6), value({3}, 7), positive({3}, 8, false)},
           one([](const Inputs& x) {
             return instance_norm(x[0], x[1], std::nullopt, x[2], x[3], false, 0.1, 1e-5, false);
           })},
      };
    });
    add_op("one_hot", Check::kNoDerivative, [] {
      return std::vector<Sample>{
          {"[2, 3] classes inferred", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
             return one_hot(to(mul(abs(x[0]), 2), ScalarType::Long));
           })},
          {"[4] 7 classes", {leaf({4}, 2)}, one([](const Inputs& x) {
             return one_hot(to(mul(abs(x[0]), 2), ScalarType::Long), 7);
           })},
      };
    });
    const Tensor targets3 = longs({1, -1, 1}, {3});
    grad_op("cosine_embedding_loss", [=] {
      auto cel = [=](std::string name, int64_t reduction, double margin, uint64_t seed) {
        return Sample{name, {leaf({3, 4}, seed), leaf({3, 4}, seed + 1)}, one([=](const Inputs& x) {
                        return cosine_embedding_loss(x[0], x[1], targets3, margin, reduction);
                      })};
      };
      return std::vector<Sample>{
          cel("[3, 4] mean", Reduction::Mean, 0.0, 1),
          cel("[3, 4] sum, margin -0.5", Reduction::Sum, -0.5, 3),
          cel("[3, 4] none", Reduction::None, 0.0, 5),
          {"0-dim target, [4] inputs", {leaf({4}, 7), leaf({4}, 8)}, one([](const Inputs& x) {
             return cosine_embedding_loss(x[0], x[1], longs({1}, {}));
           })},
      };
    });
    grad_op("triplet_margin_loss", [] {
      auto tml = [](std::string name, double p, bool swap, int64_t reduction, uint64_t seed) {
        return Sample{name,
                      {leaf({3, 4}, seed), leaf({3, 4}, seed + 1), leaf({3, 4}, seed + 2)},
                      one([=](const Inputs& x) {
                        return triplet_margin_loss(x[0], x[1], x[2], 2.0, p, 1e-6, swap, reduction);
                      })};
      };
      return std::vector<Sample>{
          tml("[3, 4] p 2 mean", 2.0, false, Reduction::Mean, 1),
          tml("p 1, swap, none", 1.0, true, Reduction::None, 4),
          tml("p 3, swap, sum", 3.0, true, Reduction::Sum, 7),
      };
    });
    const Tensor ml_target = longs({3, 0, -1, 1, 1, 2, 3, 0, 2, -1, 0, 0}, {3, 4});
    const std::string no_double = "PyTorch has no derivative for multilabel_margin_loss_backward";
    add_op(
        "multilabel_margin_loss_forward", Check::kGradient,
        [=] {
          auto mlm = [=](std::string name, int64_t reduction, uint64_t seed) {
            return Sample{name, {leaf({3, 4}, seed)}, one([=](const Inputs& x) {
                            return std::get<0>(
                                multilabel_margin_loss_forward(x[0], ml_target, reduction));
                          })};
          };
          return std::vector<Sample>{
              mlm("[3, 4] mean", Reduction::Mean, 1),
              mlm("[3, 4] sum", Reduction::Sum, 2),
              mlm("[3, 4] none", Reduction::None, 3),
              {"[4] unbatched", {leaf({4}, 4)}, one([](const Inputs& x) {
                 return std::get<0>(
                     multilabel_margin_loss_forward(x[0], longs({2, 1, -1, 0}, {4}), 1));
               })},
          };
        },
        no_double);
    ops.back().forward = Forward::kNotImplemented;
    add_op(
        "multilabel_margin_loss", Check::kGradient,
        [=] {
          return std::vector<Sample>{
              {"[3, 4] mean", {leaf({3, 4}, 5)}, one([=](const Inputs& x) {
                 return multilabel_margin_loss(x[0], ml_target);
               })},
          };
        },
        no_double);
    ops.back().forward = Forward::kNotImplemented;
    // As PyTorch: no derivative (backward raises), no forward formula.
    add_op("multilabel_margin_loss_backward", Check::kNotImplemented, [=] {
      return std::vector<Sample>{
          {"[3, 4] mean", {leaf({}, 1), leaf({3, 4}, 2)}, one([=](const Inputs& x) {
             const Tensor is_target =
                 std::get<1>(multilabel_margin_loss_forward(x[1].detach(), ml_target, 1));
             return multilabel_margin_loss_backward(x[0], x[1], ml_target, 1, is_target);
           })},
      };
    });
    ops.back().forward = Forward::kNotImplemented;
  }
  // nn, third batch (issue 26): resampling -------------------------------------------
  {}  // tensor ops, fourth batch (issue 23): order statistics ----------------------------------
  {
    using Pair = std::tuple<Tensor, Tensor>;
    using PairOp = std::function<Pair(const Tensor&)>;
    auto values_of = [](PairOp op) {
      return one([op](const Inputs& x) { return std::get<0>(op(x[0])); });
    };
    // Samples of a (values, indices) reduction along a dim: each dim of a [3, 4] leaf, keepdim,
    // a transposed view, an expanded input (ties), a 0-dim one and a [2, 0] one reduced along
    // its non-empty dim.
    auto dim_samples = [=](std::function<Pair(const Tensor&, int64_t, bool)> op) {
      auto along = [op](int64_t d, bool keep) {
        return [op, d, keep](const Tensor& a) { return op(a, d, keep); };
      };
      return std::vector<Sample>{
          {"[3, 4] dim 1", {leaf({3, 4}, 1)}, values_of(along(1, false))},
          {"[5, 2] dim 0 keepdim", {leaf({5, 2}, 2)}, values_of(along(0, true))},
          {"[2, 3, 4] dim -2", {leaf({2, 3, 4}, 3)}, values_of(along(-2, false))},
          {"transposed view", {leaf({4, 3}, 4)}, values_of([op](const Tensor& a) {
             return op(t(a), 1, false);
           })},
          {"expanded (ties)", {leaf({3, 1}, 5)}, values_of([op](const Tensor& a) {
             return op(expand(a, {3, 5}), 1, false);
           })},
          {"0-dim", {leaf({}, 6)}, values_of(along(0, false))},
          {"[2, 0] along dim 0", {leaf({2, 0}, 7)}, values_of(along(0, false))},
      };
    };
    // The whole-tensor medians: distinct values (odd and even counts), ties, 0-dim.
    auto all_samples = [](Unary op) {
      auto f = one([op](const Inputs& x) { return op(x[0]); });
      return std::vector<Sample>{
          {"[3, 3]", {leaf({3, 3}, 1)}, f},
          {"[2, 3] (even count: the lower median)", {leaf({2, 3}, 2)}, f},
          {"expanded (ties share the gradient)", {leaf({1}, 3)}, one([op](const Inputs& x) {
             return op(expand(x[0], {4}));
           })},
          {"0-dim", {leaf({}, 4)}, f},
      };
    };
    grad_op("median", [=] { return all_samples([](const Tensor& a) { return median(a); }); });
    grad_op("median.dim", [=] {
      return dim_samples([](const Tensor& a, int64_t d, bool k) { return median(a, d, k); });
    });
    grad_op("nanmedian", [=] { return all_samples([](const Tensor& a) { return nanmedian(a); }); });
    grad_op("nanmedian.dim", [=] {
      return dim_samples([](const Tensor& a, int64_t d, bool k) { return nanmedian(a, d, k); });
    });
    grad_op("kthvalue", [=] {
      auto s = dim_samples([](const Tensor& a, int64_t d, bool k) { return kthvalue(a, 1, d, k); });
      s.push_back({"k 3 of 5", {leaf({2, 5}, 8)}, values_of([](const Tensor& a) {
                     return kthvalue(a, 3);
                   })});
      s.push_back({"k = size, keepdim", {leaf({4, 3}, 9)}, values_of([](const Tensor& a) {
                     return kthvalue(a, 4, 0, true);
                   })});
      return s;
    });
    // mode of distinct values is the smallest; the expanded sample repeats values.
    grad_op("mode", [=] {
      return dim_samples([](const Tensor& a, int64_t d, bool k) { return mode(a, d, k); });
    });
  }
  // tensor ops, fourth batch (issue 23): scans ------------------------------------------------
  {
    // A scan along each dim of a [3, 4] leaf, a transposed view, an expanded input (ties), a
    // 0-dim one and an empty one.
    auto scan_samples = [](std::function<Tensor(const Tensor&, int64_t)> op) {
      auto f = [op](int64_t d) { return one([op, d](const Inputs& x) { return op(x[0], d); }); };
      return std::vector<Sample>{
          {"[3, 4] dim 1", {leaf({3, 4}, 1)}, f(1)},
          {"[4, 3] dim 0", {leaf({4, 3}, 2)}, f(0)},
          {"[2, 3, 2] dim -2", {leaf({2, 3, 2}, 3)}, f(-2)},
          {"transposed view", {leaf({4, 3}, 4)}, one([op](const Inputs& x) {
             return op(t(x[0]), 1);
           })},
          {"expanded (ties)", {leaf({3, 1}, 5)}, one([op](const Inputs& x) {
             return op(expand(x[0], {3, 4}), 1);
           })},
          {"0-dim", {leaf({}, 6)}, f(0)},
          {"empty [0, 3]", {leaf({0, 3}, 7)}, f(1)},
      };
    };
    grad_op("cummax", [=] {
      return scan_samples([](const Tensor& a, int64_t d) { return std::get<0>(cummax(a, d)); });
    });
    grad_op("cummin", [=] {
      return scan_samples([](const Tensor& a, int64_t d) { return std::get<0>(cummin(a, d)); });
    });
    // PyTorch's backward stands the lowest double in for log 0; differentiated again, lowest -
    // lowest cancels to finite garbage (and NaN tangents), so the second derivative is not
    // checked: see the report of issue 23's scans.
    add_op(
        "logcumsumexp", Check::kGradient,
        [=] {
          auto s = scan_samples([](const Tensor& a, int64_t d) { return logcumsumexp(a, d); });
          s.push_back({"large values", {leaf({5}, 8)}, one([](const Inputs& x) {
                         return logcumsumexp(mul(x[0], 300.0), 0);
                       })});
          return s;
        },
        "PyTorch's logcumsumexp_backward (the lowest value for log 0) is not twice differentiable");
  }
  // tensor ops, fourth batch (issue 23): searchsorted and bucketize (no gradient) -------------
  {
    auto sorted = [] { return std::get<0>(sort(value({6}, 1), 0)); };
    auto sorted_rows = [] { return std::get<0>(sort(value({2, 5}, 2), 1)); };
    auto into = [](std::function<Tensor(const Inputs&, Tensor&)> f) { return f; };
    add_op("bucketize.Tensor", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"left", {leaf({2, 3}, 3)}, one([=](const Inputs& x) {
             return bucketize(x[0], sorted());
           })},
          {"right", {leaf({4}, 4)}, one([=](const Inputs& x) {
             return bucketize(x[0], sorted(), false, true);
           })},
      };
    });
    add_op("bucketize.Tensor_out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"[2, 3]",
           {leaf({2, 3}, 3)},
           one([=](const Inputs& x) { return bucketize(x[0], sorted()); }),
           nullptr,
           into([=](const Inputs& x, Tensor& o) -> Tensor {
             return bucketize_out(x[0], sorted(), false, false, o);
           })},
      };
    });
    add_op("bucketize.Scalar", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"0.25", {leaf({6}, 1)}, one([](const Inputs& x) {
             return bucketize(Scalar(0.25), std::get<0>(sort(x[0], 0)));
           })},
      };
    });
    add_op("searchsorted.Tensor", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"1-D sequence", {leaf({6}, 1), leaf({2, 3}, 2)}, one([](const Inputs& x) {
             return searchsorted(std::get<0>(sort(x[0], 0)), x[1]);
           })},
          {"rows, right", {leaf({2, 5}, 3), leaf({2, 3}, 4)}, one([](const Inputs& x) {
             return searchsorted(std::get<0>(sort(x[0], 1)), x[1], false, true);
           })},
          {"sorter, side right", {leaf({6}, 5), leaf({4}, 6)}, one([](const Inputs& x) {
             return searchsorted(x[0], x[1], false, false, "right", argsort(x[0]));
           })},
      };
    });
    add_op("searchsorted.Tensor_out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"rows",
           {leaf({2, 3}, 4)},
           one([=](const Inputs& x) { return searchsorted(sorted_rows(), x[0]); }),
           nullptr,
           into([=](const Inputs& x, Tensor& o) -> Tensor {
             return searchsorted_out(sorted_rows(), x[0], false, false, std::nullopt, std::nullopt,
                                     o);
           })},
      };
    });
    add_op("searchsorted.Scalar", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"-0.5", {leaf({6}, 1)}, one([](const Inputs& x) {
             return searchsorted(std::get<0>(sort(x[0], 0)), Scalar(-0.5));
           })},
      };
    });
    add_op("searchsorted.Scalar_out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"0.5",
           {leaf({6}, 1)},
           one([](const Inputs& x) {
             return searchsorted(std::get<0>(sort(x[0], 0)), Scalar(0.5));
           }),
           nullptr,
           into([](const Inputs& x, Tensor& o) -> Tensor {
             return searchsorted_out(std::get<0>(sort(x[0], 0)), Scalar(0.5), false, false,
                                     std::nullopt, std::nullopt, o);
           })},
      };
    });
  }
  // tensor ops, random sampling (issue 23) ----------------------------------------------------
  {
    // A fresh generator per call, so that every evaluation draws the same numbers.
    auto gen = [](uint64_t seed) { return std::optional<Generator>(Generator(seed)); };
    auto factory = [](std::string name, std::function<Tensor()> f) {
      return Sample{std::move(name), {leaf({2}, 1)}, one([f](const Inputs&) { return f(); })};
    };
    auto no_derivative = [&add_op](std::string name, std::vector<Sample> samples) {
      add_op(std::move(name), Check::kNoDerivative, [samples] { return samples; });
    };
    auto zero_gradient = [&add_op](std::string name, std::vector<Sample> samples) {
      add_op(std::move(name), Check::kZeroGradient, [samples] { return samples; });
    };
    // An in-place sampler on a differentiable copy of the sample's input.
    auto on_copy = [](std::function<void(Tensor&)> f) {
      return one([f](const Inputs& x) {
        Tensor self = clone(x[0]);
        f(self);
        return self;
      });
    };
    no_derivative("rand", {factory("[2, 3]",
                                   [] {
                                     return rand({2, 3});
                                   }),
                           factory("Float", [] { return rand({4}, ScalarType::Float); })});
    no_derivative("rand.generator", {factory("[3]", [=] { return rand({3}, gen(1)); })});
    no_derivative("rand_like", {{"[2, 3]", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
                                   return rand_like(x[0]);
                                 })}});
    no_derivative("rand_like.generator", {{"[4]", {leaf({4}, 1)}, one([=](const Inputs& x) {
                                             return rand_like(x[0], gen(2));
                                           })}});
    no_derivative("randn_like", {{"[2, 3]", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
                                    return randn_like(x[0]);
                                  })}});
    no_derivative("randn_like.generator", {{"[4]", {leaf({4}, 1)}, one([=](const Inputs& x) {
                                              return randn_like(x[0], gen(3));
                                            })}});
    no_derivative("randint", {factory("below 5", [] { return randint(5, {3, 2}); })});
    no_derivative("randint.generator",
                  {factory("below 3", [=] { return randint(3, {4}, gen(4)); })});
    no_derivative("randint.low", {factory("-2 to 2, Double",
                                          [] { return randint(-2, 2, {5}, ScalarType::Double); })});
    no_derivative("randint.low_generator", {factory("1 to 9", [=] {
                    return randint(1, 9, {2, 2}, gen(5));
                  })});
    no_derivative("randperm", {factory("6", [] { return randperm(6); })});
    no_derivative("randperm.generator", {factory("4", [=] { return randperm(4, gen(6)); })});
    no_derivative("normal.float_float",
                  {factory("mean 1, std 2", [=] { return normal(1.0, 2.0, {3}, gen(7)); })});
    no_derivative("tril_indices",
                  {factory("3 x 4, offset 1", [] { return tril_indices(3, 4, 1); })});
    no_derivative("triu_indices",
                  {factory("4 x 3, offset -1", [] { return triu_indices(4, 3, -1); })});
    add_op("multinomial", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"2 of 4 rows of weights", {away_from_zero({3, 4}, 1)}, one([=](const Inputs& x) {
             return multinomial(abs(x[0]), 2, false, gen(8));
           })},
      };
    });
    zero_gradient("bernoulli", {{"p in (0, 1)", {leaf({2, 3}, 1)}, one([=](const Inputs& x) {
                                   return bernoulli(sigmoid(x[0]), gen(9));
                                 })}});
    // PyTorch has no derivative for bernoulli.p: backward raises, forward mode too.
    ops.push_back({"bernoulli.p", Check::kNotImplemented,
                   [=] {
                     return std::vector<Sample>{
                         {"p = 0.3", {leaf({4}, 1)}, one([=](const Inputs& x) {
                            return bernoulli(x[0], 0.3, gen(10));
                          })}};
                   },
                   "", Forward::kNotImplemented});
    zero_gradient("bernoulli_.float", {{"[2, 3]", {leaf({2, 3}, 1)}, on_copy([=](Tensor& self) {
                                          bernoulli_(self, 0.5, gen(11));
                                        })}});
    zero_gradient("normal.Tensor_float", {{"std 0.5", {leaf({2, 3}, 1)}, one([=](const Inputs& x) {
                                             return normal(x[0], 0.5, gen(12));
                                           })}});
    zero_gradient("normal.float_Tensor", {{"mean 1", {leaf({4}, 1)}, one([=](const Inputs& x) {
                                             return normal(1.0, abs(x[0]), gen(13));
                                           })}});
    zero_gradient("normal.Tensor_Tensor",
                  {{"both", {leaf({3}, 1), leaf({3}, 2)}, one([=](const Inputs& x) {
                      return normal(x[0], abs(x[1]), gen(14));
                    })}});
    zero_gradient("normal_", {{"[2, 2]", {leaf({2, 2}, 1)}, on_copy([=](Tensor& self) {
                                 normal_(self, 0.0, 1.0, gen(15));
                               })}});
    zero_gradient("uniform_", {{"[3]", {leaf({3}, 1)}, on_copy([=](Tensor& self) {
                                  uniform_(self, -1.0, 1.0, gen(16));
                                })}});
    zero_gradient("exponential_", {{"[3]", {leaf({3}, 1)}, on_copy([=](Tensor& self) {
                                      exponential_(self, 2.0, gen(17));
                                    })}});
    zero_gradient("random_.from", {{"3 to 7", {leaf({3}, 1)}, on_copy([=](Tensor& self) {
                                      random_(self, 3, 7, gen(18));
                                    })}});
    zero_gradient("random_.to", {{"below 4", {leaf({3}, 1)}, on_copy([=](Tensor& self) {
                                    random_(self, 4, gen(19));
                                  })}});
    zero_gradient("random_", {{"[3]", {leaf({3}, 1)}, on_copy([=](Tensor& self) {
                                 random_(self, gen(20));
                               })}});
  }
  // tensor ops, fifth batch (issue 23, "Shapes"): diag, expand_as, broadcast_tensors, meshgrid,
  // the stacks and splits, contiguous (CompositeImplicitAutograd) ---------------------------
  {
    auto f1 = [](std::function<Tensor(const Tensor&)> op) {
      return one([op](const Inputs& x) { return op(x[0]); });
    };
    auto all = [](std::function<std::vector<Tensor>(const Inputs&)> op) { return op; };
    auto out_of = [](std::string name, Inputs inputs, std::function<Tensor(const Inputs&)> f,
                     OutFn g) {
      return std::vector<Sample>{
          {std::move(name), std::move(inputs), one(std::move(f)), nullptr, std::move(g)}};
    };
    grad_op("diag", [=] {
      return std::vector<Sample>{
          {"[3] -> [3, 3]", {leaf({3}, 1)}, f1([](const Tensor& a) { return diag(a); })},
          {"[3], diagonal 1", {leaf({3}, 2)}, f1([](const Tensor& a) { return diag(a, 1); })},
          {"[2], diagonal -2", {leaf({2}, 3)}, f1([](const Tensor& a) { return diag(a, -2); })},
          {"[3, 4] -> its diagonal", {leaf({3, 4}, 4)}, f1([](const Tensor& a) {
             return diag(a);
           })},
          {"[3, 4], diagonal 2", {leaf({3, 4}, 5)}, f1([](const Tensor& a) { return diag(a, 2); })},
          {"transposed [4, 3], diagonal -1", {leaf({3, 4}, 6)}, f1([](const Tensor& a) {
             return diag(t(a), -1);
           })},
          {"empty [0]", {leaf({0}, 7)}, f1([](const Tensor& a) { return diag(a); })},
      };
    });
    add_op("diag.out", Check::kOut, [=] {
      return out_of(
          "[3, 3], diagonal 1", {leaf({3, 3}, 1)}, [](const Inputs& x) { return diag(x[0], 1); },
          [](const Inputs& x, Tensor& o) -> Tensor { return diag_out(x[0], 1, o); });
    });
    grad_op("expand_as", [=] {
      return std::vector<Sample>{
          {"[3] as [2, 3]", {leaf({3}, 1)}, f1([](const Tensor& a) {
             return expand_as(a, zeros({2, 3}));
           })},
          {"[3, 1] as [2, 3, 4]", {leaf({3, 1}, 2)}, f1([](const Tensor& a) {
             return expand_as(a, zeros({2, 3, 4}));
           })},
          {"0-dim as [2]", {leaf({}, 3)}, f1([](const Tensor& a) {
             return expand_as(a, zeros({2}));
           })},
          {"other requires grad too (no gradient)",
           {leaf({2, 1}, 4), leaf({2, 3}, 5)},
           one([](const Inputs& x) { return expand_as(x[0], x[1]); })},
      };
    });
    grad_op("broadcast_tensors", [=] {
      return std::vector<Sample>{
          {"[2, 1], [3], 0-dim",
           {leaf({2, 1}, 1), leaf({3}, 2), leaf({}, 3)},
           all([](const Inputs& x) { return broadcast_tensors(x); })},
          {"one tensor", {leaf({2, 3}, 4)}, all([](const Inputs& x) {
             return broadcast_tensors(x);
           })},
          {"transposed view and [1, 3]",
           {leaf({3, 2}, 5), leaf({1, 3}, 6)},
           all([](const Inputs& x) {
             return broadcast_tensors(std::vector<Tensor>{t(x[0]), x[1]});
           })},
      };
    });
    grad_op("meshgrid", [=] {
      return std::vector<Sample>{
          {"[2], [3]", {leaf({2}, 1), leaf({3}, 2)}, all([](const Inputs& x) {
             return meshgrid(x);
           })},
          {"0-dim, [2], [3]", {leaf({}, 3), leaf({2}, 4), leaf({3}, 5)}, all([](const Inputs& x) {
             return meshgrid(x);
           })},
      };
    });
    grad_op("meshgrid.indexing", [=] {
      return std::vector<Sample>{
          {"ij", {leaf({2}, 1), leaf({3}, 2)}, all([](const Inputs& x) {
             return meshgrid(x, "ij");
           })},
          {"xy", {leaf({2}, 3), leaf({3}, 4), leaf({4}, 5)}, all([](const Inputs& x) {
             return meshgrid(x, "xy");
           })},
          {"xy, one tensor", {leaf({3}, 6)}, all([](const Inputs& x) {
             return meshgrid(x, "xy");
           })},
          {"an empty one", {leaf({0}, 7), leaf({2}, 8)}, all([](const Inputs& x) {
             return meshgrid(x, "xy");
           })},
      };
    });
    using Stack = std::function<Tensor(TensorList)>;
    auto stack_samples = [](Stack op) {
      auto f = one([op](const Inputs& x) { return op(x); });
      return std::vector<Sample>{
          {"0-dim and 0-dim", {leaf({}, 1), leaf({}, 2)}, f},
          {"[2] and [3]", {leaf({2}, 3), leaf({2}, 4)}, f},
          {"[2, 3] and [2, 3]", {leaf({2, 3}, 5), leaf({2, 3}, 6)}, f},
          {"[2, 3, 2] twice", {leaf({2, 3, 2}, 7), leaf({2, 3, 2}, 8)}, f},
          {"transposed view", {leaf({3, 2}, 9)}, one([op](const Inputs& x) {
             return op(std::vector<Tensor>{t(x[0]), t(x[0])});
           })},
      };
    };
    auto stack_out = [=](std::string op_name, Stack op,
                         std::function<Tensor(TensorList, Tensor&)> out) {
      add_op(op_name, Check::kOut, [=] {
        return out_of(
            "[2, 3] and [2, 3]", {leaf({2, 3}, 1), leaf({2, 3}, 2)},
            [op](const Inputs& x) { return op(x); },
            [out](const Inputs& x, Tensor& o) -> Tensor { return out(x, o); });
      });
    };
    grad_op("hstack", [=] {
      auto s = stack_samples([](TensorList x) { return hstack(x); });
      s.push_back({"[2, 1] and [2, 3]",
                   {leaf({2, 1}, 10), leaf({2, 3}, 11)},
                   one([](const Inputs& x) { return hstack(x); })});
      return s;
    });
    stack_out(
        "hstack.out", [](TensorList x) { return hstack(x); },
        [](TensorList x, Tensor& o) -> Tensor& { return hstack_out(x, o); });
    grad_op("vstack", [=] {
      auto s = stack_samples([](TensorList x) { return vstack(x); });
      s.push_back({"[3] and [2, 3]", {leaf({3}, 10), leaf({2, 3}, 11)}, one([](const Inputs& x) {
                     return vstack(x);
                   })});
      return s;
    });
    stack_out(
        "vstack.out", [](TensorList x) { return vstack(x); },
        [](TensorList x, Tensor& o) -> Tensor& { return vstack_out(x, o); });
    grad_op("dstack", [=] {
      auto s = stack_samples([](TensorList x) { return dstack(x); });
      s.push_back({"[2, 3] and [2, 3, 2]",
                   {leaf({2, 3}, 10), leaf({2, 3, 2}, 11)},
                   one([](const Inputs& x) { return dstack(x); })});
      return s;
    });
    stack_out(
        "dstack.out", [](TensorList x) { return dstack(x); },
        [](TensorList x, Tensor& o) -> Tensor& { return dstack_out(x, o); });
    grad_op("column_stack", [=] {
      auto s = stack_samples([](TensorList x) { return column_stack(x); });
      s.push_back({"[2], 0-dim... [2, 2]",
                   {leaf({2}, 10), leaf({2, 2}, 11)},
                   one([](const Inputs& x) { return column_stack(x); })});
      return s;
    });
    stack_out(
        "column_stack.out", [](TensorList x) { return column_stack(x); },
        [](TensorList x, Tensor& o) -> Tensor& { return column_stack_out(x, o); });
    auto split_of = [](std::function<std::vector<Tensor>(const Tensor&)> op) {
      return [op](const Inputs& x) { return op(x[0]); };
    };
    grad_op("hsplit.int", [=] {
      return std::vector<Sample>{
          {"[6] in 3", {leaf({6}, 1)}, split_of([](const Tensor& a) { return hsplit(a, 3); })},
          {"[2, 4] in 2", {leaf({2, 4}, 2)}, split_of([](const Tensor& a) {
             return hsplit(a, 2);
           })},
          {"transposed view", {leaf({4, 3}, 3)}, split_of([](const Tensor& a) {
             return hsplit(t(a), 2);
           })},
      };
    });
    grad_op("hsplit.array", [=] {
      return std::vector<Sample>{
          {"[5] at [1, 3]", {leaf({5}, 1)}, split_of([](const Tensor& a) {
             return hsplit(a, IntArrayRef({1, 3}));
           })},
          {"[2, 5] at [2, -1, 9]", {leaf({2, 5}, 2)}, split_of([](const Tensor& a) {
             return hsplit(a, IntArrayRef({2, -1, 9}));
           })},
      };
    });
    grad_op("vsplit.int", [=] {
      return std::vector<Sample>{
          {"[4, 2] in 2", {leaf({4, 2}, 1)}, split_of([](const Tensor& a) {
             return vsplit(a, 2);
           })},
          {"[3, 2, 2] in 3", {leaf({3, 2, 2}, 2)}, split_of([](const Tensor& a) {
             return vsplit(a, 3);
           })},
      };
    });
    grad_op("vsplit.array", [=] {
      return std::vector<Sample>{
          {"[5, 2] at [2]", {leaf({5, 2}, 1)}, split_of([](const Tensor& a) {
             return vsplit(a, IntArrayRef({2}));
           })},
      };
    });
    grad_op("dsplit.int", [=] {
      return std::vector<Sample>{
          {"[2, 2, 4] in 2", {leaf({2, 2, 4}, 1)}, split_of([](const Tensor& a) {
             return dsplit(a, 2);
           })},
      };
    });
    grad_op("dsplit.array", [=] {
      return std::vector<Sample>{
          {"[2, 1, 5] at [1, 4]", {leaf({2, 1, 5}, 1)}, split_of([](const Tensor& a) {
             return dsplit(a, IntArrayRef({1, 4}));
           })},
      };
    });
    grad_op("contiguous", [=] {
      return std::vector<Sample>{
          {"contiguous [2, 3] (itself)", {leaf({2, 3}, 1)}, f1([](const Tensor& a) {
             return contiguous(a);
           })},
          {"transposed view (a copy)", {leaf({3, 2}, 2)}, f1([](const Tensor& a) {
             return contiguous(t(a));
           })},
          {"expanded", {leaf({3, 1}, 3)}, f1([](const Tensor& a) {
             return contiguous(expand(a, {3, 2}));
           })},
      };
    });
  }
  // tensor ops, fifth batch (issue 23, "Shapes"): repeat_interleave, unfold, as_strided -------
  {
    auto f1 = [](std::function<Tensor(const Tensor&)> op) {
      return one([op](const Inputs& x) { return op(x[0]); });
    };
    add_op("repeat_interleave.Tensor", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"repeats from argsort", {leaf({4}, 1)}, one([](const Inputs& x) {
             return repeat_interleave(argsort(x[0]));
           })},
          {"output_size", {leaf({3}, 2)}, one([](const Inputs& x) {
             return repeat_interleave(argsort(x[0]), 3);
           })},
      };
    });
    grad_op("repeat_interleave.self_Tensor", [=] {
      return std::vector<Sample>{
          {"[2, 3] dim 0", {leaf({2, 3}, 1)}, f1([](const Tensor& a) {
             return repeat_interleave(a, longs({1, 2}, {2}), 0);
           })},
          {"[2, 3] dim -1, a zero", {leaf({2, 3}, 2)}, f1([](const Tensor& a) {
             return repeat_interleave(a, longs({2, 0, 3}, {3}), -1);
           })},
          {"dim None (flattened)", {leaf({2, 2}, 3)}, f1([](const Tensor& a) {
             return repeat_interleave(a, longs({1, 0, 2, 1}, {4}));
           })},
          {"one repeat for all, output_size", {leaf({3}, 4)}, f1([](const Tensor& a) {
             return repeat_interleave(a, longs({2}, {1}), 0, 6);
           })},
          {"transposed view", {leaf({3, 2}, 5)}, f1([](const Tensor& a) {
             return repeat_interleave(t(a), longs({2, 1}, {2}), 0);
           })},
      };
    });
    grad_op("repeat_interleave.self_int", [=] {
      return std::vector<Sample>{
          {"[2, 3] dim 1", {leaf({2, 3}, 1)}, f1([](const Tensor& a) {
             return repeat_interleave(a, 2, 1);
           })},
          {"dim None", {leaf({2, 3}, 2)}, f1([](const Tensor& a) {
             return repeat_interleave(a, 3);
           })},
          {"0-dim", {leaf({}, 3)}, f1([](const Tensor& a) { return repeat_interleave(a, 2); })},
          {"0 repeats", {leaf({2}, 4)}, f1([](const Tensor& a) {
             return repeat_interleave(a, 0, 0);
           })},
          {"transposed view", {leaf({3, 2}, 5)}, f1([](const Tensor& a) {
             return repeat_interleave(t(a), 2, 0);
           })},
      };
    });
    // as_strided of a view reads the view's storage, not its elements: a sample input laid out
    // as a view would be compared with a contiguous copy, which holds other values there. These
    // two stay; the contiguous samples are in specs/samples.yaml.
    grad_op("as_strided", [=] {
      return std::vector<Sample>{
          {"of a transposed view", {leaf({3, 2}, 4)}, f1([](const Tensor& a) {
             return as_strided(t(a), {2}, {4});
           })},
          {"of an expanded input (self overlaps)", {leaf({3, 1}, 5)}, f1([](const Tensor& a) {
             return as_strided(expand(a, {3, 2}), {3}, {1});
           })},
      };
    });
  }
  // unique (issue 23, "Sorting"): the values' gradient is not implemented, as in PyTorch --------
  {
    auto unique_op = [&](std::string name, std::vector<Sample> (*samples)()) {
      add_op(std::move(name), Check::kNotImplemented, samples);
      ops.back().forward = Forward::kNotImplemented;
    };
    unique_op("_unique2", [] {
      auto f = [](bool inverse, bool counts) {
        return [=](const Inputs& x) {
          auto [v, i, c] = _unique2(round(x[0]), true, inverse, counts);
          return std::vector<Tensor>{v, i, c};
        };
      };
      return std::vector<Sample>{
          {"[3, 4] rounded (repeats)", {leaf({3, 4}, 1)}, f(true, true)},
          {"values only", {leaf({5}, 2)}, f(false, false)},
      };
    });
    unique_op("unique_dim", [] {
      return std::vector<Sample>{
          {"rows of [4, 2]",
           {leaf({4, 2}, 1)},
           [](const Inputs& x) {
             auto [v, i, c] = unique_dim(cat({x[0], x[0]}, 0), 0);
             return std::vector<Tensor>{v, i, c};
           }},
          {"columns",
           {leaf({2, 3}, 2)},
           [](const Inputs& x) {
             auto [v, i, c] = unique_dim(x[0], -1, true, true, true);
             return std::vector<Tensor>{v, i, c};
           }},
      };
    });
    unique_op("unique_consecutive", [] {
      return std::vector<Sample>{
          {"elements",
           {leaf({6}, 1)},
           [](const Inputs& x) {
             auto [v, i, c] = unique_consecutive(repeat_interleave(x[0], 2), true, true);
             return std::vector<Tensor>{v, i, c};
           }},
          {"rows",
           {leaf({2, 3}, 2)},
           [](const Inputs& x) {
             auto [v, i, c] = unique_consecutive(repeat_interleave(x[0], 2, 0), false, false, 0);
             return std::vector<Tensor>{v, i, c};
           }},
      };
    });
  }
  // einsum (issue 23, "Linear algebra"): CompositeImplicitAutograd -----------------------------
  {
    auto eq = [](std::string equation) {
      return one([equation](const Inputs& x) { return einsum(equation, x); });
    };
    grad_op("einsum", [=] {
      return std::vector<Sample>{
          {"ij,jk->ik (mm)", {leaf({2, 3}, 1), leaf({3, 4}, 2)}, eq("ij,jk->ik")},
          {"ij,jk (implicit)", {leaf({2, 3}, 3), leaf({3, 2}, 4)}, eq("ij,jk")},
          {"bij,bjk->bik (bmm)", {leaf({2, 2, 3}, 5), leaf({2, 3, 2}, 6)}, eq("bij,bjk->bik")},
          {"ii->i (diagonal)", {leaf({3, 3}, 7)}, eq("ii->i")},
          {"ii (trace)", {leaf({3, 3}, 8)}, eq("ii")},
          {"i,i-> (dot)", {leaf({4}, 9), leaf({4}, 10)}, eq("i,i->")},
          {"i,j->ij (outer)", {leaf({2}, 11), leaf({3}, 12)}, eq("i,j->ij")},
          {"...ij,...jk->...ik (broadcast batch)",
           {leaf({2, 1, 2, 3}, 13), leaf({3, 3, 2}, 14)},
           eq("...ij,...jk->...ik")},
          {"ij->ji, a transposed view", {leaf({3, 2}, 15)}, one([](const Inputs& x) {
             return einsum("ij->ji", std::vector<Tensor>{t(x[0])});
           })},
          {"ijk-> (sum)", {leaf({2, 3, 2}, 16)}, eq("ijk->")},
          {"ij,jk,kl->il (a chain)",
           {leaf({2, 3}, 17), leaf({3, 2}, 18), leaf({2, 2}, 19)},
           eq("ij,jk,kl->il")},
          {"ij,ij->ij (product)", {leaf({2, 3}, 20), leaf({2, 3}, 21)}, eq("ij,ij->ij")},
          {"bn,anm,bm->ba (bilinear)",
           {leaf({2, 3}, 22), leaf({2, 3, 2}, 23), leaf({2, 2}, 24)},
           eq("bn,anm,bm->ba")},
          {"iij,jk->ik (diagonal then product)",
           {leaf({2, 2, 3}, 25), leaf({3, 2}, 26)},
           eq("iij,jk->ik")},
          {"Ab,bC (upper case, implicit)", {leaf({2, 3}, 27), leaf({3, 2}, 28)}, eq("Ab,bC")},
          {"i,ij->j", {leaf({2}, 29), leaf({2, 3}, 30)}, eq("i,ij->j")},
          {"...->... (0-dim)", {leaf({}, 31)}, eq("...->...")},
          {"ij,kl->ijkl, summed ellipsis",
           {leaf({2, 2}, 32), leaf({1, 2, 2}, 33)},
           eq("ij,...kl->ijkl")},
      };
    });
  }
  // products (issue 23, "Linear algebra", step 4): addr, chain_matmul, linalg_multi_dot --------
  {
    auto list_fn = [](std::function<Tensor(TensorList)> f) {
      return one([f](const Inputs& x) { return f(x); });
    };
    grad_op("linalg_multi_dot", [=] {
      auto f = list_fn([](TensorList x) { return linalg_multi_dot(x); });
      return std::vector<Sample>{
          {"two matrices", {leaf({2, 3}, 1), leaf({3, 2}, 2)}, f},
          {"four matrices (reordered)",
           {leaf({4, 1}, 3), leaf({1, 3}, 4), leaf({3, 2}, 5), leaf({2, 1}, 6)},
           f},
          {"vector, matrix, vector", {leaf({3}, 7), leaf({3, 2}, 8), leaf({2}, 9)}, f},
          {"vector first", {leaf({2}, 10), leaf({2, 3}, 11), leaf({3, 2}, 12)}, f},
          {"vector last", {leaf({2, 3}, 13), leaf({3}, 14)}, f},
      };
    });
    add_op("linalg_multi_dot.out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"three",
           {leaf({2, 3}, 1), leaf({3, 2}, 2), leaf({2, 2}, 3)},
           one([](const Inputs& x) { return linalg_multi_dot(x); }),
           nullptr,
           [](const Inputs& x, Tensor& o) -> Tensor { return linalg_multi_dot_out(x, o); }},
      };
    });
    grad_op("chain_matmul", [=] {
      auto f = list_fn([](TensorList x) { return chain_matmul(x); });
      return std::vector<Sample>{
          {"one matrix (a copy)", {leaf({2, 3}, 1)}, f},
          {"three", {leaf({2, 3}, 2), leaf({3, 4}, 3), leaf({4, 2}, 4)}, f},
      };
    });
    add_op("chain_matmul.out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"two",
           {leaf({2, 3}, 1), leaf({3, 2}, 2)},
           one([](const Inputs& x) { return chain_matmul(x); }),
           nullptr,
           [](const Inputs& x, Tensor& o) -> Tensor { return chain_matmul_out(x, o); }},
      };
    });
  }
  // cdist (issue 23, "Linear algebra", step 4): CompositeImplicitAutograd ----------------------
  {
    auto d = [](double p, std::optional<int64_t> mode) {
      return one([p, mode](const Inputs& x) { return cdist(x[0], x[1], p, mode); });
    };
    grad_op("cdist", [=] {
      return std::vector<Sample>{
          {"p 2 (no mm)", {leaf({3, 2}, 1), leaf({4, 2}, 2)}, d(2.0, std::nullopt)},
          {"p 2, mm (mode 1)", {leaf({3, 2}, 3), leaf({4, 2}, 4)}, d(2.0, 1)},
          {"p 2, mm (27 rows)", {leaf({27, 2}, 5), leaf({2, 2}, 6)}, d(2.0, std::nullopt)},
          {"p 2, no mm (mode 2)", {leaf({27, 2}, 7), leaf({2, 2}, 8)}, d(2.0, 2)},
          {"p 1", {leaf({3, 3}, 9), leaf({2, 3}, 10)}, d(1.0, std::nullopt)},
          {"p inf",
           {leaf({3, 3}, 11), leaf({2, 3}, 12)},
           d(std::numeric_limits<double>::infinity(), std::nullopt)},
          {"p 3", {leaf({2, 3}, 13), leaf({2, 3}, 14)}, d(3.0, std::nullopt)},
          {"batches broadcast",
           {leaf({2, 1, 3, 2}, 15), leaf({3, 2, 2}, 16)},
           d(2.0, std::nullopt)},
      };
    });
  }
  // nn (issue 26, remaining ops): 3-D reflection and replication padding -------------------
  {
    using PadFn = std::function<Tensor(const Tensor&, IntArrayRef)>;
    using PadBackwardFn = std::function<Tensor(const Tensor&, const Tensor&, IntArrayRef)>;
    struct Pad3d {
      std::string name;
      PadFn forward;
      PadBackwardFn backward;
    };
    const std::vector<Pad3d> pads = {
        {"reflection_pad3d", [](const Tensor& a, IntArrayRef p) { return reflection_pad3d(a, p); },
         [](const Tensor& g, const Tensor& a, IntArrayRef p) {
           return reflection_pad3d_backward(g, a, p);
         }},
        {"replication_pad3d",
         [](const Tensor& a, IntArrayRef p) { return replication_pad3d(a, p); },
         [](const Tensor& g, const Tensor& a, IntArrayRef p) {
           return replication_pad3d_backward(g, a, p);
         }},
    };
    // (left, right, top, bottom, front, back), each below its dim's size (reflection's limit).
    const std::vector<int64_t> pad{2, 1, 0, 2, 1, 1};
    const std::vector<int64_t> unbatched{2, 2, 3, 3}, batched{1, 2, 2, 3, 4};
    auto out_shape = [pad](std::vector<int64_t> s) {
      for (size_t k = 0; k < 3; ++k) s[s.size() - 1 - k] += pad[2 * k] + pad[2 * k + 1];
      return s;
    };
    for (const Pad3d& p : pads) {
      grad_op(p.name, [p, pad, unbatched, batched] {
        auto f = one([p, pad](const Inputs& x) { return p.forward(x[0], pad); });
        return std::vector<Sample>{
            {"unbatched", {leaf(unbatched, 1)}, f},
            {"batched", {leaf(batched, 2)}, f},
            {"no padding", {leaf(unbatched, 3)}, one([p](const Inputs& x) {
               return p.forward(x[0], std::vector<int64_t>(6, 0));
             })},
            {"negative crops, transposed", {leaf({1, 1, 4, 3, 3}, 4)}, one([p](const Inputs& x) {
               return p.forward(transpose(x[0], 2, 4), {-1, 1, 1, 0, 0, -1});
             })},
        };
      });
      grad_op(p.name + "_backward", [p, pad, unbatched, batched, out_shape] {
        auto f = one([p, pad](const Inputs& x) { return p.backward(x[0], x[1], pad); });
        return std::vector<Sample>{
            {"unbatched", {leaf(out_shape(unbatched), 1), leaf(unbatched, 2)}, f},
            {"batched", {leaf(out_shape(batched), 3), leaf(batched, 4)}, f},
        };
      });
    }
  }
  // nn (issue 26, remaining ops): 3-D pooling and max_unpool2d ------------------------------
  {
    struct P3 {
      std::vector<int64_t> k, s, p, d;
      bool ceil;
    };
    auto mp3_bwd = [](std::string name, std::vector<int64_t> in, std::vector<int64_t> out, P3 c,
                      uint64_t seed) {
      return Sample{name, {leaf(out, seed), leaf(in, seed + 1)}, one([=](const Inputs& x) {
                      const Tensor idx = std::get<1>(
                          max_pool3d_with_indices(x[1].detach(), c.k, c.s, c.p, c.d, c.ceil));
                      return max_pool3d_with_indices_backward(x[0], x[1], c.k, c.s, c.p, c.d,
                                                              c.ceil, idx);
                    })};
    };
    grad_op("max_pool3d_with_indices_backward", [=] {
      return std::vector<Sample>{
          mp3_bwd("overlapping windows", {1, 2, 3, 3, 3}, {1, 2, 2, 2, 2},
                  {{2}, {1}, {0}, {1}, false}, 1),
          mp3_bwd("ceil_mode with padding", {1, 1, 3, 5, 3}, {1, 1, 2, 3, 2},
                  {{2}, {2}, {1}, {1}, true}, 3),
      };
    });
    add_op("max_pool3d_with_indices_backward.grad_input", Check::kOut, [] {
      auto f = [](const Inputs& x) {
        const Tensor idx = std::get<1>(max_pool3d_with_indices(x[1], {2}, {1}));
        return max_pool3d_with_indices_backward(x[0], x[1], {2}, {1}, {0}, {1}, false, idx);
      };
      return std::vector<Sample>{
          {"overlapping windows",
           {leaf({1, 1, 2, 2, 2}, 1), leaf({1, 1, 3, 3, 3}, 2)},
           one(f),
           nullptr,
           [](const Inputs& x, Tensor& o) -> Tensor {
             const Tensor idx = std::get<1>(max_pool3d_with_indices(x[1], {2}, {1}));
             return max_pool3d_with_indices_backward_out(x[0], x[1], {2}, {1}, {0}, {1}, false, idx,
                                                         o);
           }},
      };
    });
    grad_op("max_pool3d", [] {
      return std::vector<Sample>{
          {"[1, 2, 3, 4, 5] kernel [1, 2, 3]", {leaf({1, 2, 3, 4, 5}, 1)}, one([](const Inputs& x) {
             return max_pool3d(x[0], {1, 2, 3});
           })},
      };
    });
    // Indices from a max pool of a fixed input: distinct positions within each output plane.
    auto unpool_indices = [](std::vector<int64_t> shape) {
      return std::get<1>(max_pool2d_with_indices(value(shape, 7), {2}, {2}));
    };
    grad_op("max_unpool2d", [=] {
      return std::vector<Sample>{
          {"[1, 2, 2, 2] to [4, 4]", {leaf({1, 2, 2, 2}, 1)}, one([=](const Inputs& x) {
             return max_unpool2d(x[0], unpool_indices({1, 2, 4, 4}), {4, 4});
           })},
          {"unbatched [2, 2, 3] to [5, 6]", {leaf({2, 2, 3}, 2)}, one([=](const Inputs& x) {
             return max_unpool2d(x[0], unpool_indices({2, 5, 6}), {5, 6});
           })},
      };
    });
    add_op("max_unpool2d.out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"[1, 2, 2, 2] to [4, 4]",
           {leaf({1, 2, 2, 2}, 1)},
           one([=](const Inputs& x) {
             return max_unpool2d(x[0], unpool_indices({1, 2, 4, 4}), {4, 4});
           }),
           nullptr,
           [=](const Inputs& x, Tensor& o) -> Tensor {
             return max_unpool2d_out(x[0], unpool_indices({1, 2, 4, 4}), {4, 4}, o);
           }},
      };
    });
    // max_unpool3d: indices of a 3-D max pool of a fixed input (distinct within each volume).
    auto unpool3_indices = [](std::vector<int64_t> shape, std::vector<int64_t> k) {
      return std::get<1>(max_pool3d_with_indices(value(shape, 8), k, k));
    };
    grad_op("max_unpool3d", [=] {
      return std::vector<Sample>{
          {"[1, 2, 2, 2, 2] to [4, 4, 4]", {leaf({1, 2, 2, 2, 2}, 1)}, one([=](const Inputs& x) {
             return max_unpool3d(x[0], unpool3_indices({1, 2, 4, 4, 4}, {2}), {4, 4, 4}, {2, 2, 2},
                                 {0, 0, 0});
           })},
          {"unbatched [2, 1, 2, 3] to [3, 5, 6]",
           {leaf({2, 1, 2, 3}, 2)},
           one([=](const Inputs& x) {
             return max_unpool3d(x[0], unpool3_indices({2, 3, 5, 6}, {3, 2, 2}), {3, 5, 6},
                                 {3, 2, 2}, {0, 0, 0});
           })},
          {"transposed input", {leaf({1, 1, 2, 2, 2}, 3)}, one([=](const Inputs& x) {
             return max_unpool3d(transpose(x[0], -1, -2), unpool3_indices({1, 1, 4, 4, 4}, {2}),
                                 {4, 4, 4}, {2, 2, 2}, {0, 0, 0});
           })},
      };
    });
    add_op("max_unpool3d.out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"[1, 1, 2, 2, 2] to [4, 4, 4]",
           {leaf({1, 1, 2, 2, 2}, 1)},
           one([=](const Inputs& x) {
             return max_unpool3d(x[0], unpool3_indices({1, 1, 4, 4, 4}, {2}), {4, 4, 4}, {2, 2, 2},
                                 {0, 0, 0});
           }),
           nullptr,
           [=](const Inputs& x, Tensor& o) -> Tensor {
             return max_unpool3d_out(x[0], unpool3_indices({1, 1, 4, 4, 4}, {2}), {4, 4, 4},
                                     {2, 2, 2}, {0, 0, 0}, o);
           }},
      };
    });
  }
  // nn (issue 26, remaining ops): im2col / col2im: specs/samples.yaml.
  // nn (issue 26, remaining ops): scaled_dot_product_attention (math composite) -------------
  {
    grad_op("scaled_dot_product_attention", [] {
      // A bool mask with a row masked everywhere (its output and gradients are 0).
      auto keep = [] { return gt(tensor({1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0}, {3, 4}), 0.5); };
      return std::vector<Sample>{
          {"[2, 3, 4] x [2, 4, 4]",
           {leaf({2, 3, 4}, 1), leaf({2, 4, 4}, 2), leaf({2, 4, 3}, 3)},
           one([](const Inputs& x) { return scaled_dot_product_attention(x[0], x[1], x[2]); })},
          {"causal, scale 0.3, heads",
           {leaf({1, 2, 3, 2}, 4), leaf({1, 2, 3, 2}, 5), leaf({1, 2, 3, 2}, 6)},
           one([](const Inputs& x) {
             return scaled_dot_product_attention(x[0], x[1], x[2], std::nullopt, 0.0, true, 0.3);
           })},
          {"bool mask, a row masked everywhere",
           {leaf({1, 3, 2}, 7), leaf({1, 4, 2}, 8), leaf({1, 4, 2}, 9)},
           one([keep](const Inputs& x) {
             return scaled_dot_product_attention(x[0], x[1], x[2], keep());
           })},
          {"float mask (differentiable), negative scale",
           {leaf({2, 2, 3}, 10), leaf({2, 3, 3}, 11), leaf({2, 3, 2}, 12), leaf({2, 3}, 13)},
           one([](const Inputs& x) {
             return scaled_dot_product_attention(x[0], x[1], x[2], x[3], 0.0, false, -0.5);
           })},
          {"enable_gqa, 4 query heads over 2",
           {leaf({1, 4, 2, 2}, 14), leaf({1, 2, 3, 2}, 15), leaf({1, 2, 3, 2}, 16)},
           one([](const Inputs& x) {
             return scaled_dot_product_attention(x[0], x[1], x[2], std::nullopt, 0.0, false,
                                                 std::nullopt, true);
           })},
      };
    });
  }
  // nn (issue 26, remaining ops): embedding_bag ----------------------------------------------
  {
    // Bags [0, 2, 2], [], [5, 1], [4, 3, 2] of a 6-row table.
    auto idx = [] { return longs({0, 2, 2, 5, 1, 4, 3, 2}, {8}); };
    auto offs = [] { return longs({0, 3, 3, 5}, {4}); };
    auto bag = [=](std::string name, int64_t mode, bool last, int64_t pad, uint64_t seed,
                   bool weighted = false) {
      return Sample{name, {leaf({6, 3}, seed)}, [=](const Inputs& x) {
                      const std::optional<Tensor> psw =
                          weighted ? std::optional<Tensor>(value({8}, 8)) : std::nullopt;
                      auto r =
                          _embedding_bag(x[0], idx(), offs(), false, mode, false, psw, last, pad);
                      return std::vector<Tensor>{std::get<0>(r), std::get<1>(r), std::get<2>(r),
                                                 std::get<3>(r)};
                    }};
    };
    grad_op("_embedding_bag", [=] {
      return std::vector<Sample>{
          bag("sum", 0, false, -1, 1),
          bag("mean", 1, false, -1, 2),
          bag("max", 2, false, -1, 3),
          bag("mean, padding_idx 2", 1, false, 2, 5),
          bag("max, include_last_offset", 2, true, -1, 6),
          bag("sum, per_sample_weights (fixed)", 0, false, -1, 7, true),
      };
    });
    grad_op("embedding_bag", [=] {
      return std::vector<Sample>{
          {"mean",
           {leaf({6, 3}, 1)},
           [=](const Inputs& x) {
             return std::vector<Tensor>{std::get<0>(embedding_bag(x[0], idx(), offs(), false, 1))};
           }},
      };
    });
    grad_op("embedding_bag.padding_idx", [=] {
      return std::vector<Sample>{
          {"max, padding_idx -4",
           {leaf({6, 3}, 1)},
           [=](const Inputs& x) {
             return std::vector<Tensor>{std::get<0>(
                 embedding_bag(x[0], idx(), offs(), false, 2, false, std::nullopt, false, -4))};
           }},
      };
    });
    auto parts = [=](int64_t mode, int64_t pad) {
      return _embedding_bag(value({6, 3}, 9), idx(), offs(), false, mode, false, std::nullopt,
                            false, pad);
    };
    auto dense = [=](std::string name, int64_t mode, int64_t pad, bool weighted, uint64_t seed) {
      return Sample{name, {leaf({4, 3}, seed)}, one([=](const Inputs& x) {
                      auto r = parts(mode, pad);
                      const std::optional<Tensor> psw =
                          weighted ? std::optional<Tensor>(value({8}, 8)) : std::nullopt;
                      return _embedding_bag_dense_backward(x[0], idx(), std::get<1>(r),
                                                           std::get<2>(r), std::get<3>(r), 6, false,
                                                           mode, psw, pad);
                    })};
    };
    // The backward ops' own gradients are not implemented, as PyTorch's.
    add_op("_embedding_bag_dense_backward", Check::kNotImplemented, [=] {
      return std::vector<Sample>{
          dense("max", 2, -1, false, 1),
          dense("mean, padding_idx 2", 1, 2, false, 2),
          dense("sum, per_sample_weights", 0, -1, true, 3),
      };
    });
    add_op("_embedding_bag_per_sample_weights_backward", Check::kNotImplemented, [=] {
      return std::vector<Sample>{
          {"sum", {leaf({4, 3}, 1), leaf({6, 3}, 2)}, one([=](const Inputs& x) {
             auto r = parts(0, -1);
             return _embedding_bag_per_sample_weights_backward(x[0], x[1], idx(), offs(),
                                                               std::get<1>(r), 0, -1);
           })},
      };
    });
  }
  // slice.Tensor (Python's stepped slices): a strided view --------------------------------
  // indexing (issue 23): masked_select, take, take_along_dim, nonzero, argwhere --------------
  {
    auto into = [](std::function<Tensor(const Inputs&, Tensor&)> f) { return f; };
    grad_op("take_along_dim", [] {
      return std::vector<Sample>{
          {"[3, 4] dim 1", {leaf({3, 4}, 1)}, one([](const Inputs& x) {
             return take_along_dim(x[0], longs({0, 3, 1, 1, 2, 0}, {3, 2}), 1);
           })},
          {"[3, 4] dim 0, indices [1, 4] broadcast", {leaf({3, 4}, 2)}, one([](const Inputs& x) {
             return take_along_dim(x[0], longs({2, 0, 1, 2}, {1, 4}), 0);
           })},
          {"[2, 3] flattened (dim None)", {leaf({2, 3}, 3)}, one([](const Inputs& x) {
             return take_along_dim(x[0], longs({5, 0, 5}, {3}));
           })},
          {"self [1, 3] broadcast to indices [2, 3], dim 1",
           {leaf({1, 3}, 4)},
           one([](const Inputs& x) {
             return take_along_dim(x[0], longs({2, 1, 0, 0, 1, 2}, {2, 3}), 1);
           })},
      };
    });
    add_op("take_along_dim.out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"[3, 4] dim 1",
           {leaf({3, 4}, 1)},
           one([](const Inputs& x) {
             return take_along_dim(x[0], longs({0, 3, 1}, {3, 1}), 1);
           }),
           nullptr,
           into([](const Inputs& x, Tensor& o) -> Tensor {
             return take_along_dim_out(x[0], longs({0, 3, 1}, {3, 1}), 1, o);
           })},
      };
    });
    auto sparse = [](const Inputs& x) { return where(gt(x[0], 0.3), x[0], zeros_like(x[0])); };
    add_op("nonzero", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"[3, 4]", {leaf({3, 4}, 1)}, one([=](const Inputs& x) { return nonzero(sparse(x)); })},
          {"0-dim", {leaf({}, 2)}, one([](const Inputs& x) { return nonzero(x[0]); })},
      };
    });
    add_op("nonzero.out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"[3, 4]",
           {leaf({3, 4}, 1)},
           one([=](const Inputs& x) { return nonzero(sparse(x)); }),
           nullptr,
           into([=](const Inputs& x, Tensor& o) -> Tensor { return nonzero_out(sparse(x), o); })},
      };
    });
    add_op("argwhere", Check::kNoDerivative, [=] {
      return std::vector<Sample>{
          {"[2, 3, 2]", {leaf({2, 3, 2}, 1)}, one([=](const Inputs& x) {
             return argwhere(sparse(x));
           })},
      };
    });
  }
  // indexing (issue 23): index_fill, index_copy, masked_scatter, scatter ----------------------
  {
    auto into = [](std::function<Tensor(const Inputs&, Tensor&)> f) { return f; };
    grad_op("scatter.src", [] {
      return std::vector<Sample>{
          {"[3, 4] dim 0", {leaf({3, 4}, 1), leaf({2, 4}, 2)}, one([](const Inputs& x) {
             return scatter(x[0], 0, longs({0, 1, 2, 0, 2, 0, 1, 1}, {2, 4}), x[1]);
           })},
          {"[3, 4] dim 1", {leaf({3, 4}, 3), leaf({3, 2}, 4)}, one([](const Inputs& x) {
             return scatter(x[0], 1, longs({3, 0, 1, 2, 2, 0}, {3, 2}), x[1]);
           })},
      };
    });
    ops.push_back(OpInfo{
        "scatter.reduce", Check::kNotImplemented,
        [] {
          return std::vector<Sample>{
              {"[3, 4] dim 0, multiply",
               {leaf({3, 4}, 1), leaf({2, 4}, 2)},
               one([](const Inputs& x) {
                 return scatter(x[0], 0, longs({0, 1, 2, 0, 0, 0, 1, 1}, {2, 4}), x[1], "multiply");
               })},
          };
        },
        "", Forward::kNotImplemented});
    ops.push_back(OpInfo{
        "scatter.value_reduce", Check::kNotImplemented,
        [] {
          return std::vector<Sample>{
              {"[3, 4] dim 1, add", {leaf({3, 4}, 1)}, one([](const Inputs& x) {
                 return scatter(x[0], 1, longs({3, 3, 0, 1, 2, 2}, {3, 2}), Scalar(2.0), "add");
               })},
          };
        },
        "", Forward::kNotImplemented});
    add_op("scatter.reduce_out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"[3, 4] dim 0, add",
           {leaf({3, 4}, 1), leaf({2, 4}, 2)},
           one([](const Inputs& x) {
             return scatter(x[0], 0, longs({0, 1, 2, 0, 0, 0, 1, 1}, {2, 4}), x[1], "add");
           }),
           nullptr,
           into([](const Inputs& x, Tensor& o) -> Tensor {
             return scatter_out(x[0], 0, longs({0, 1, 2, 0, 0, 0, 1, 1}, {2, 4}), x[1], "add", o);
           })},
      };
    });
    add_op("scatter.value_reduce_out", Check::kOut, [=] {
      return std::vector<Sample>{
          {"[3, 4] dim 1, multiply",
           {leaf({3, 4}, 1)},
           one([](const Inputs& x) {
             return scatter(x[0], 1, longs({3, 3, 0, 1, 2, 2}, {3, 2}), Scalar(2.0), "multiply");
           }),
           nullptr,
           into([](const Inputs& x, Tensor& o) -> Tensor {
             return scatter_out(x[0], 1, longs({3, 3, 0, 1, 2, 2}, {3, 2}), Scalar(2.0), "multiply",
                                o);
           })},
      };
    });
  }
  // indexing (issue 23): the in-place variants ---------------------------------------------
  {
    struct InPlace {
      const char* name;
      std::vector<std::vector<int64_t>> shapes;  // self's first, then the other leaves'
      std::function<Tensor(const Inputs&)> fn;
      InPlaceFn inplace;
      bool not_implemented = false;
    };
    const Tensor i24 = longs({0, 1, 2, 0, 2, 0, 1, 1}, {2, 4});
    const std::vector<InPlace> variants{
        {"scatter_.reduce",
         {{3, 4}, {2, 4}},
         [=](const Inputs& x) { return scatter(x[0], 0, i24, x[1], "multiply"); },
         [=](Tensor& self, const Inputs& x) { scatter_(self, 0, i24, x[1], "multiply"); },
         true},
        {"scatter_.value_reduce",
         {{3, 4}},
         [=](const Inputs& x) { return scatter(x[0], 0, i24, Scalar(2.0), "add"); },
         [=](Tensor& self, const Inputs&) { scatter_(self, 0, i24, Scalar(2.0), "add"); },
         true},
    };
    for (const InPlace& v : variants) {
      add_op(v.name, v.not_implemented ? Check::kNotImplemented : Check::kInPlace, [=] {
        Inputs inputs;
        uint64_t seed = 1;
        for (const std::vector<int64_t>& shape : v.shapes) inputs.push_back(leaf(shape, seed++));
        return std::vector<Sample>{{std::string(v.name), inputs, one(v.fn), v.inplace}};
      });
    }
  }
  // What PyTorch code calls besides the math (issue 23) ----------------------------------------
  // fill / fill_, index_add_ and scatter_add_ are checked on specs/samples.yaml's samples (fill,
  // index_add, scatter_add and their in-place variants); their values, and these ops', against
  // PyTorch in tests/differential/cases_api.py. Here: the new_* factories, isclose and equal (no
  // history), and the CompositeImplicitAutograd ops, whose gradients are the ops' they call.
  {
    const Tensor float_other = zeros({1}, ScalarType::Float);
    add_op("new_empty", Check::kNoDerivative, [] {
      return std::vector<Sample>{
          {"[3, 2]", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
             return new_empty(x[0], {3, 2});
           })},
          {"dtype=Long", {leaf({2}, 2)}, one([](const Inputs& x) {
             return new_empty(x[0], {4}, ScalarType::Long);
           })},
      };
    });
    add_op("new_full", Check::kNoDerivative, [] {
      return std::vector<Sample>{
          {"[3, 2] of 2.5", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
             return new_full(x[0], {3, 2}, 2.5);
           })},
          {"dtype=Int", {leaf({2}, 2)}, one([](const Inputs& x) {
             return new_full(x[0], {2}, 7, ScalarType::Int);
           })},
      };
    });
    add_op("new_zeros", Check::kNoDerivative, [] {
      return std::vector<Sample>{
          {"[3, 2]", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
             return new_zeros(x[0], {3, 2});
           })},
          {"[0, 2], dtype=Float", {leaf({2}, 2)}, one([](const Inputs& x) {
             return new_zeros(x[0], {0, 2}, ScalarType::Float);
           })},
      };
    });
    add_op("new_ones", Check::kNoDerivative, [] {
      return std::vector<Sample>{
          {"0-dim", {leaf({2, 3}, 1)}, one([](const Inputs& x) { return new_ones(x[0], {}); })},
          {"dtype=Bool", {leaf({2}, 2)}, one([](const Inputs& x) {
             return new_ones(x[0], {2, 2}, ScalarType::Bool);
           })},
      };
    });
    grad_op("type_as", [float_other] {
      return std::vector<Sample>{
          {"same dtype (an alias)", {leaf({2, 3}, 1), leaf({2}, 2)}, one([](const Inputs& x) {
             return type_as(x[0], x[1]);
           })},
          in_float32({"as Float and back", {leaf({2, 3}, 3)}, one([float_other](const Inputs& x) {
                        return to(type_as(x[0], float_other), ScalarType::Double);
                      })}),
      };
    });
    grad_op("view_as", [] {
      const Tensor shape32 = zeros({3, 2}), shape11 = zeros({1, 1}), scalar = zeros({});
      return std::vector<Sample>{
          {"[2, 3] as [3, 2]", {leaf({2, 3}, 1)}, one([shape32](const Inputs& x) {
             return view_as(x[0], shape32);
           })},
          {"0-dim as [1, 1]", {leaf({}, 2)}, one([shape11](const Inputs& x) {
             return view_as(x[0], shape11);
           })},
          {"[1] as a 0-dim tensor", {leaf({1}, 3)}, one([scalar](const Inputs& x) {
             return view_as(x[0], scalar);
           })},
          {"times other, which requires grad",
           {leaf({6}, 4), leaf({2, 3}, 5)},
           one([](const Inputs& x) { return mul(view_as(x[0], x[1]), x[1]); })},
      };
    });
    add_op("isclose", Check::kNoDerivative, [] {
      return std::vector<Sample>{
          {"[2, 3] and [3] (broadcast)", {leaf({2, 3}, 1), leaf({3}, 2)}, one([](const Inputs& x) {
             return isclose(x[0], x[1]);
           })},
          {"rtol, atol, equal_nan", {leaf({4}, 3), leaf({4}, 4)}, one([](const Inputs& x) {
             return isclose(x[0], x[1], 0.5, 0.1, true);
           })},
      };
    });
    // equal returns a bool: the sample returns it as a 0-dim Bool tensor.
    add_op("equal", Check::kNoDerivative, [] {
      return std::vector<Sample>{
          {"[2, 3] with itself", {leaf({2, 3}, 1)}, one([](const Inputs& x) {
             return bools({equal(x[0], x[0])}, {});
           })},
          {"[3] and [3]", {leaf({3}, 2), leaf({3}, 3)}, one([](const Inputs& x) {
             return bools({equal(x[0], x[1])}, {});
           })},
      };
    });
    // The aliases, on clamp's, abs's, neg's and trunc's samples.
    grad_op("clip", [] {
      auto s = unary_samples([](const Tensor& a) { return clip(a, -0.25, 0.25); },
                             Domain::kAwayFromZero);
      s.push_back({"min only", {away_from_zero({2, 3}, 10)}, one([](const Inputs& x) {
                     return clip(x[0], 0.25);
                   })});
      s.push_back({"max only", {away_from_zero({2, 3}, 11)}, one([](const Inputs& x) {
                     return clip(x[0], std::nullopt, -0.25);
                   })});
      return s;
    });
    grad_op("clip.Tensor", [] {
      auto bound = [](IntArrayRef s, uint64_t seed, double centre) {
        Tensor t;
        {
          autograd::NoGradGuard no_grad;
          t = add(mul(tanh(randn(s, seed)), 0.1), centre);
        }
        return t.set_requires_grad(true);
      };
      return std::vector<Sample>{
          {"bounds broadcast [3] and [2, 1]",
           {away_from_zero({2, 3}, 1), bound({3}, 2, -0.2), bound({2, 1}, 3, 0.2)},
           one([](const Inputs& x) { return clip(x[0], x[1], x[2]); })},
          {"min only", {away_from_zero({2, 3}, 4), bound({3}, 5, 0.0)}, one([](const Inputs& x) {
             return clip(x[0], x[1], std::nullopt);
           })},
      };
    });
    grad_op("absolute", [] {
      return unary_samples([](const Tensor& a) { return absolute(a); }, Domain::kAwayFromZero);
    });
    grad_op("negative", [] { return unary_samples([](const Tensor& a) { return negative(a); }); });
    grad_op("fix", [] { return unary_samples([](const Tensor& a) { return fix(a); }); });
  }
  add_decomp_ops(ops);
  add_inplace_out_ops(ops);
  add_grid_sampler_ops(ops);
  add_upsample_aa_vec_ops(ops);
  add_ctc_ops(ops);
  add_overloads23_ops(ops);
  add_decl23c_ops(ops);
  return ops;
}

}  // namespace

const std::vector<OpInfo>& op_infos() {
  static const std::vector<OpInfo> registry = make_registry();
  return registry;
}

const OpInfo* find_op_info(const std::string& name) {
  static const std::map<std::string, const OpInfo*> by_name = [] {
    std::map<std::string, const OpInfo*> m;
    for (const OpInfo& info : op_infos()) m[info.name] = &info;
    return m;
  }();
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

std::vector<std::string> ops_without_samples(const std::vector<std::string>& declared) {
  std::vector<std::string> missing;
  for (const std::string& name : declared) {
    const OpInfo* info = find_op_info(name);
    if (!info || !info->samples || info->samples().empty()) missing.push_back(name);
  }
  return missing;
}

std::vector<std::string> declared_ops(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("declared_ops: cannot read " + path);
  std::vector<std::string> names;
  std::string line;
  const std::string prefix = "- func:";
  while (std::getline(in, line)) {
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    size_t begin = line.find_first_not_of(' ', prefix.size());
    size_t end = line.find('(', begin);
    if (begin == std::string::npos || end == std::string::npos) continue;
    names.push_back(line.substr(begin, end - begin));
  }
  return names;
}

}  // namespace testing
}  // namespace gradgen
