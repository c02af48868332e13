// The seed's claim (docs/architecture.md, "index ranges computed at run time"): a generated
// apply() that places gradients through IndexRangeGenerator costs no more than the same node
// written by hand with constant indices. Target: callgrind instructions of the generated
// apply() / the hand-written one <= 1.01.
//
// Each case takes the node the generated forward records (LincombBackward0 for
// lincomb({x1, x2}, c), CatBackward0 for cat of 8 tensors, MulBackward0 for mul(a, b): Tensor
// inputs only, all ranges compile-time constants), builds a hand-written twin with
// the same members, edges and formula calls but constant slots (`grad_inputs[2] = ...`), and
// calls apply() on both with the same gradient, with GradMode off as in the engine.
// With --grad=undefined the formulas are skipped (any_grad_defined is false): what is left
// is the slot logic itself (ranges, should_compute_output, copy_range), a sharper test.
//
//   index_range_bench --which=generated|hand [--case=lincomb|cat|mul] [--iters=N]
//                     [--grad=ones|undefined]
//
// Run under callgrind counting only inside the two apply() functions (what run.sh does):
//   valgrind --tool=callgrind --toggle-collect='*LincombBackward0::apply*'
//     --toggle-collect='*HandLincombBackward::apply*' index_range_bench --which=hand
// Without --which both run, timed with steady_clock (informative only).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "csrc/autograd/function.h"
#include "csrc/autograd/formulas.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/index_range.h"
#include "csrc/autograd/saved_variable.h"
#include "csrc/generated/Functions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace bench {

using namespace ::gradgen::autograd::generated::details;
using generated::CatBackward0;
using generated::LincombBackward0;
using generated::MulBackward0;

// LincombBackward0 written by hand for lincomb of exactly two tensors: slots 0 and 1 are
// the tensors, slot 2 is coeffs. Same members, same formula calls, same copies.
struct HandLincombBackward : public Node {
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "HandLincombBackward"; }
  void release_variables() override {
    tensors_.clear();
    tensors_released_ = true;
    coeffs_.reset_data();
  }
  std::vector<SavedVariable> tensors_;
  bool tensors_released_ = false;
  SavedVariable coeffs_;
  size_t tensors_size_ = 0;
};

variable_list HandLincombBackward::apply(variable_list&& grads) {
  variable_list grad_inputs(3);
  const auto& grad = grads[0];
  auto tensors = unpack_list(tensors_, tensors_released_, this, "tensors");
  auto coeffs = coeffs_.unpack(this, "coeffs");
  bool any_grad_defined = any_variable_defined(grads);
  if (should_compute_output(2)) {
    auto grad_result = any_grad_defined ? (lincomb_coeffs_backward(grad, tensors)) : Tensor();
    grad_inputs[2] = grad_result;
  }
  if (should_compute_output(0) || should_compute_output(1)) {
    auto grad_result = any_grad_defined ? (lincomb_tensors_backward(grad, coeffs, tensors.size()))
                                        : std::vector<Tensor>();
    if (!grad_result.empty()) {
      grad_inputs[0] = grad_result[0];
      grad_inputs[1] = grad_result[1];
    }
  }
  return grad_inputs;
}

// CatBackward0 written by hand for cat of exactly eight tensors: slots 0..7.
struct HandCatBackward : public Node {
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "HandCatBackward"; }
  std::vector<std::vector<int64_t>> tensors_args_sizes_symint;
  std::vector<ScalarType> tensors_args_scalartypes;
  int64_t dim = 0;
  size_t tensors_size_ = 0;
};

variable_list HandCatBackward::apply(variable_list&& grads) {
  variable_list grad_inputs(8);
  const auto& grad = grads[0];
  bool any_grad_defined = any_variable_defined(grads);
  if (should_compute_output(0) || should_compute_output(1) || should_compute_output(2) ||
      should_compute_output(3) || should_compute_output(4) || should_compute_output(5) ||
      should_compute_output(6) || should_compute_output(7)) {
    auto grad_result =
        any_grad_defined
            ? (cat_tensors_backward(grad, tensors_args_sizes_symint, tensors_args_scalartypes, dim))
            : std::vector<Tensor>();
    if (!grad_result.empty()) {
      for (size_t i = 0; i < 8; ++i) grad_inputs[i] = grad_result[i];
    }
  }
  return grad_inputs;
}

// MulBackward0 written by hand: slot 0 is self, slot 1 is other. Only Tensor inputs, so
// every range is range(1): the case where the optimizer should fold ranges into constants.
struct HandMulBackward : public Node {
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "HandMulBackward"; }
  void release_variables() override {
    self_.reset_data();
    other_.reset_data();
  }
  SavedVariable self_;
  ScalarType other_scalar_type;
  ScalarType self_scalar_type;
  SavedVariable other_;
};

variable_list HandMulBackward::apply(variable_list&& grads) {
  variable_list grad_inputs(2);
  const auto& grad = grads[0];
  auto self = self_.unpack(this, "self");
  auto other = other_.unpack(this, "other");
  bool any_grad_defined = any_variable_defined(grads);
  if (should_compute_output(1)) {
    auto grad_result =
        any_grad_defined ? (mul_tensor_backward(grad, self, other_scalar_type)) : Tensor();
    grad_inputs[1] = grad_result;
  }
  if (should_compute_output(0)) {
    auto grad_result =
        any_grad_defined ? (mul_tensor_backward(grad, other, self_scalar_type)) : Tensor();
    grad_inputs[0] = grad_result;
  }
  return grad_inputs;
}

struct Pair {
  std::shared_ptr<Node> generated;
  std::shared_ptr<Node> hand;
  Tensor grad;      // what apply() receives
  size_t expected;  // slots apply() returns
};

Pair make_lincomb() {
  Tensor x1 = randn({16}, 1).set_requires_grad(true);
  Tensor x2 = randn({16}, 2).set_requires_grad(true);
  Tensor c = randn({2}, 3).set_requires_grad(true);
  Tensor out = gradgen::lincomb({x1, x2}, c);
  auto gen = std::dynamic_pointer_cast<LincombBackward0>(out.grad_fn());
  if (!gen) throw std::runtime_error("lincomb did not record a LincombBackward0");
  auto hand = std::make_shared<HandLincombBackward>();
  hand->set_next_edges(edge_list(gen->next_edges()));
  hand->tensors_ = gen->tensors_;
  hand->coeffs_ = gen->coeffs_;
  hand->tensors_size_ = gen->tensors_size_;
  hand->add_input_metadata(out);
  return {gen, hand, ones({16}), 3};
}

Pair make_cat() {
  std::vector<Tensor> xs;
  for (int i = 0; i < 8; ++i) xs.push_back(randn({16}, 10 + i).set_requires_grad(true));
  Tensor out = gradgen::cat(xs, 0);
  auto gen = std::dynamic_pointer_cast<CatBackward0>(out.grad_fn());
  if (!gen) throw std::runtime_error("cat did not record a CatBackward0");
  auto hand = std::make_shared<HandCatBackward>();
  hand->set_next_edges(edge_list(gen->next_edges()));
  hand->tensors_args_sizes_symint = gen->tensors_args_sizes_symint;
  hand->tensors_args_scalartypes = gen->tensors_args_scalartypes;
  hand->dim = gen->dim;
  hand->tensors_size_ = gen->tensors_size_;
  hand->add_input_metadata(out);
  return {gen, hand, ones({128}), 8};
}

Pair make_mul() {
  Tensor a = randn({16}, 4).set_requires_grad(true);
  Tensor b = randn({16}, 5).set_requires_grad(true);
  Tensor out = gradgen::mul(a, b);
  auto gen = std::dynamic_pointer_cast<MulBackward0>(out.grad_fn());
  if (!gen) throw std::runtime_error("mul did not record a MulBackward0");
  auto hand = std::make_shared<HandMulBackward>();
  hand->set_next_edges(edge_list(gen->next_edges()));
  hand->self_ = gen->self_;
  hand->other_ = gen->other_;
  hand->self_scalar_type = gen->self_scalar_type;
  hand->other_scalar_type = gen->other_scalar_type;
  hand->add_input_metadata(out);
  return {gen, hand, ones({16}), 2};
}

// Calls node.apply() iters times; returns a checksum so that nothing is optimized away.
__attribute__((noinline)) double call_apply(Node& node, const Tensor& grad, size_t expected,
                                            int iters) {
  double checksum = 0;
  for (int i = 0; i < iters; ++i) {
    variable_list grads{grad};
    variable_list out = node.apply(std::move(grads));
    if (out.size() != expected || out[expected - 1].defined() != grad.defined()) {
      std::fprintf(stderr, "%s returned %zu slots\n", node.name().c_str(), out.size());
      std::exit(1);
    }
    if (grad.defined()) checksum += out[expected - 1].data_ptr<double>()[0];
  }
  return checksum;
}

}  // namespace bench
}  // namespace autograd
}  // namespace gradgen

int main(int argc, char** argv) {
  using namespace gradgen::autograd::bench;
  using gradgen::autograd::Node;
  std::string which, which_case = "lincomb";
  bool undefined_grad = false;
  int iters = 1000;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--which=", 8) == 0)
      which = argv[i] + 8;
    else if (std::strncmp(argv[i], "--case=", 7) == 0)
      which_case = argv[i] + 7;
    else if (std::strncmp(argv[i], "--iters=", 8) == 0)
      iters = std::atoi(argv[i] + 8);
    else if (std::strcmp(argv[i], "--grad=undefined") == 0)
      undefined_grad = true;
    else if (std::strcmp(argv[i], "--grad=ones") == 0)
      undefined_grad = false;
    else {
      std::fprintf(stderr,
                   "usage: %s [--which=generated|hand] [--case=lincomb|cat|mul] [--iters=N]\n"
                   "          [--grad=ones|undefined]\n",
                   argv[0]);
      return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }
  Pair p = which_case == "cat" ? make_cat() : which_case == "mul" ? make_mul() : make_lincomb();
  if (undefined_grad) p.grad = gradgen::Tensor();  // formulas skipped: only the slot logic runs
  gradgen::autograd::NoGradGuard no_grad;  // the engine runs apply() with create_graph=false
  // Warm-up (allocator, lazy statics) outside the region callgrind counts.
  call_apply(*p.generated, p.grad, p.expected, 3);
  call_apply(*p.hand, p.grad, p.expected, 3);
  if (which == "generated" || which == "hand") {
    Node& node = which == "generated" ? *p.generated : *p.hand;
    const double checksum = call_apply(node, p.grad, p.expected, iters);
    std::printf("index_range_bench: case %s, grad %s, %s (%s), %d apply() calls, checksum %g\n",
                which_case.c_str(), undefined_grad ? "undefined" : "ones", which.c_str(),
                node.name().c_str(), iters, checksum);
    return 0;
  }
  // No --which: time both, alternating, best of 5 (informative; callgrind is the measure).
  double best[2] = {1e30, 1e30};
  for (int round = 0; round < 5; ++round) {
    for (int k = 0; k < 2; ++k) {
      Node& node = k == 0 ? *p.generated : *p.hand;
      const auto t0 = std::chrono::steady_clock::now();
      call_apply(node, p.grad, p.expected, iters);
      const auto t1 = std::chrono::steady_clock::now();
      const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / iters;
      if (ns < best[k]) best[k] = ns;
    }
  }
  std::printf(
      "index_range_bench: case %s, grad %s: generated %.1f ns, hand-written %.1f ns"
      " per apply() (ratio %.3f)\n",
      which_case.c_str(), undefined_grad ? "undefined" : "ones", best[0], best[1],
      best[0] / best[1]);
  std::printf("RESULT index_range.%s.time_ratio %.6g\n", which_case.c_str(), best[0] / best[1]);
  return 0;
}
