// einsum (issue 23, "Linear algebra"), CompositeImplicitAutograd as in PyTorch: written with
// differentiable ops (diagonal, permute, unsqueeze, sum, reshape, bmm), whose gradients it gets.
//
// PyTorch's rules: subscripts [a-zA-Z], `...` for broadcast dims (right-aligned across operands);
// an explicit output after `->`, else the implicit one (the ellipsis dims, then the subscripts
// that appear once, in alphabetical order, upper case first); a subscript repeated in an operand
// takes its diagonal; subscripts absent from the output are summed. Every operand is aligned to
// one dim order (the output's dims, then the summed ones) with size-1 dims where it lacks one; a
// summed dim only one operand has is summed at once, and the operands are then multiplied left to
// right, each pair through one bmm (batch dims, left-only, summed, right-only), as PyTorch's
// sumproduct_pair; non-floating dtypes multiply and sum instead. `path` is accepted and
// ignored: the contraction order is left to right.
#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "csrc/core_kernels.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"

namespace gradgen {
namespace native {

namespace {

constexpr int kEllipsis = -1;
constexpr int kLabels = 52;

std::string label_char(int label) {
  return std::string(1, static_cast<char>(label < 26 ? 'A' + label : 'a' + (label - 26)));
}

int label_of(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -2;
}

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("einsum(): " + what); }

// One term (an operand's or the output's): its labels with kEllipsis where `...` is; `pos` is the
// term's first character in the equation (for messages).
std::vector<int> parse_term(std::string_view term, size_t pos, const std::string& whose) {
  std::vector<int> labels;
  bool ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (c == ' ') continue;
    if (c == '.') {
      // PyTorch words the output's errors apart: "but an ellipsis (...) was already found".
      const bool output = whose == "output";
      if (ellipsis) {
        fail("found '.' for " + whose +
             (output ? " but an ellipsis (...) was already found"
                     : " for which an ellipsis was already found"));
      }
      if (term.substr(i, 3) != "...") {
        fail("found '.' for " + whose + " that is not part of any ellipsis" +
             (output ? " (...)" : ""));
      }
      ellipsis = true;
      labels.push_back(kEllipsis);
      i += 2;
      continue;
    }
    const int l = label_of(c);
    if (l < 0) {
      fail("invalid subscript given at index " + std::to_string(pos + i) +
           " in the equation string, subscripts must be in [a-zA-Z]");
    }
    labels.push_back(l);
  }
  return labels;
}

bool contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// left * right summed over the dims `sum_dims` (kept, of size 1): both have `n` dims of
// broadcastable sizes.
Tensor sumproduct_pair(Tensor left, Tensor right, const std::vector<int64_t>& sum_dims, int64_t n) {
  if (!is_floating_point(left.scalar_type()) || left.scalar_type() != right.scalar_type()) {
    const Tensor product = gradgen::mul(left, right);
    if (sum_dims.empty()) return product;
    return gradgen::sum(product, IntArrayRef(sum_dims), true);
  }
  // A summed dim of size 1 on one side: the other side summed over it first.
  std::vector<int64_t> summed;
  for (int64_t d : sum_dims) {
    const int64_t ls = left.size(d), rs = right.size(d);
    if (ls == 1 && rs != 1) {
      right = gradgen::sum(right, IntArrayRef(std::vector<int64_t>{d}), true);
    } else if (rs == 1 && ls != 1) {
      left = gradgen::sum(left, IntArrayRef(std::vector<int64_t>{d}), true);
    } else if (ls != 1) {
      summed.push_back(d);
    }
  }
  // The other dims: in both (batch), left only, right only (size 1 in both: batch).
  std::vector<int64_t> batch, lo, ro;
  int64_t b = 1, l = 1, r = 1, s = 1;
  for (int64_t d = 0; d < n; ++d) {
    if (contains(summed, d)) {
      s *= left.size(d);
      continue;
    }
    const int64_t ls = left.size(d), rs = right.size(d);
    if (ls != 1 && rs == 1) {
      lo.push_back(d);
      l *= ls;
    } else if (ls == 1 && rs != 1) {
      ro.push_back(d);
      r *= rs;
    } else {
      batch.push_back(d);
      b *= ls;  // equal sizes (checked by the caller), or both 1
    }
  }
  std::vector<int64_t> left_order, right_order;
  for (const auto* group : {&batch, &lo, &ro, &summed}) {
    left_order.insert(left_order.end(), group->begin(), group->end());
  }
  for (const auto* group : {&batch, &summed, &lo, &ro}) {
    right_order.insert(right_order.end(), group->begin(), group->end());
  }
  const Tensor a = gradgen::reshape(gradgen::permute(left, left_order), {b, l, s});
  const Tensor c = gradgen::reshape(gradgen::permute(right, right_order), {b, s, r});
  const Tensor product = gradgen::bmm(a, c);  // [b, l, r]
  // Back to n dims, in the order batch, lo, ro, summed (now of size 1), then to 0..n-1.
  std::vector<int64_t> order, sizes;
  for (int64_t d : batch) order.push_back(d), sizes.push_back(left.size(d));
  for (int64_t d : lo) order.push_back(d), sizes.push_back(left.size(d));
  for (int64_t d : ro) order.push_back(d), sizes.push_back(right.size(d));
  for (int64_t d : summed) order.push_back(d), sizes.push_back(1);
  std::vector<int64_t> inverse(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) inverse[static_cast<size_t>(order[static_cast<size_t>(k)])] = k;
  return gradgen::permute(gradgen::reshape(product, sizes), inverse);
}

// The parsed equation: each operand's subscripts, the dims its `...` stands for, the output's.
// Ids number the dims of the whole equation: ellipsis dim k is k, subscript l is E + l.
struct Equation {
  std::vector<std::vector<int>> terms;  // per operand: its labels, kEllipsis where `...` is
  std::vector<int64_t> ellipsis_dims;   // per operand: how many dims its `...` covers
  int64_t E = 0;                        // the ellipsis dims of the equation (right-aligned)
  std::vector<int64_t> label_count = std::vector<int64_t>(kLabels, 0);  // uses over the operands
  std::vector<int64_t> out_ids;  // the output's dims, in order
  bool output_has_ellipsis = false;
};

// The operands' terms: `lhs` split at its commas.
std::vector<std::vector<int>> parse_operands(std::string_view lhs) {
  std::vector<std::vector<int>> terms;
  size_t start = 0;
  while (true) {
    const size_t comma = lhs.find(',', start);
    const std::string_view term =
        lhs.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    terms.push_back(parse_term(term, start, "operand " + std::to_string(terms.size())));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return terms;
}

// Each operand's subscripts against its tensor's dims: how many its `...` covers, E, and how
// often each label is used.
void count_dims(Equation& eq, TensorList tensors) {
  eq.ellipsis_dims.assign(tensors.size(), 0);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& term = eq.terms[i];
    const bool has_ellipsis = std::count(term.begin(), term.end(), kEllipsis) > 0;
    const int64_t n_labels = static_cast<int64_t>(term.size()) - (has_ellipsis ? 1 : 0);
    const int64_t ndim = tensors[i].dim();
    if (has_ellipsis) {
      if (n_labels > ndim) {
        fail("the number of subscripts in the equation (" + std::to_string(n_labels) +
             ") is more than the number of dimensions (" + std::to_string(ndim) + ") for operand " +
             std::to_string(i));
      }
      eq.ellipsis_dims[i] = ndim - n_labels;
      eq.E = std::max(eq.E, eq.ellipsis_dims[i]);
    } else if (n_labels != ndim) {
      fail("the number of subscripts in the equation (" + std::to_string(n_labels) +
           ") does not match the number of dimensions (" + std::to_string(ndim) + ") for operand " +
           std::to_string(i) + " and no ellipsis was given");
    }
    for (int l : term) {
      if (l != kEllipsis) ++eq.label_count[static_cast<size_t>(l)];
    }
  }
}

// The output's ids: the explicit output after `->` (at `arrow`), else the implicit one (the
// ellipsis dims, then the labels used once, in label order).
void parse_output(Equation& eq, std::string_view equation, size_t arrow) {
  const int64_t E = eq.E;
  if (arrow == std::string_view::npos) {
    eq.output_has_ellipsis = true;
    for (int64_t k = 0; k < E; ++k) eq.out_ids.push_back(k);
    for (int l = 0; l < kLabels; ++l) {
      if (eq.label_count[static_cast<size_t>(l)] == 1) eq.out_ids.push_back(E + l);
    }
    return;
  }
  const std::vector<int> out = parse_term(equation.substr(arrow + 2), arrow + 2, "output");
  std::vector<bool> seen(kLabels, false);
  for (int l : out) {
    if (l == kEllipsis) {
      eq.output_has_ellipsis = true;
      for (int64_t k = 0; k < E; ++k) eq.out_ids.push_back(k);
      continue;
    }
    if (seen[static_cast<size_t>(l)]) {
      fail("output subscript " + label_char(l) + " appears more than once in the output");
    }
    if (eq.label_count[static_cast<size_t>(l)] == 0) {
      fail("output subscript " + label_char(l) +
           " does not appear in the equation for any input operand");
    }
    seen[static_cast<size_t>(l)] = true;
    eq.out_ids.push_back(E + l);
  }
}

// The equation checked against the operands (errors in PyTorch's order: the operands' terms,
// their number, their dims, then the output).
Equation parse_equation(std::string_view equation, TensorList tensors) {
  Equation eq;
  const size_t arrow = equation.find("->");
  eq.terms = parse_operands(equation.substr(0, arrow));
  if (eq.terms.size() < tensors.size())
    fail("more operands were provided than specified in the equation");
  if (eq.terms.size() > tensors.size())
    fail("fewer operands were provided than specified in the equation");
  count_dims(eq, tensors);
  parse_output(eq, equation, arrow);
  return eq;
}

// The operands' sizes, operand by operand and dim by dim in PyTorch's order and words: a repeated
// subscript's sizes must match (the later size first), and each subscript and ellipsis dim must
// broadcast with the sizes seen before it (size 1 broadcasts).
void check_sizes(const Equation& eq, TensorList tensors) {
  std::vector<int64_t> label_size(kLabels, 1), ell_size(static_cast<size_t>(eq.E), 1);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    std::vector<int64_t> first_dim(kLabels, -1);
    int64_t dim = 0;
    for (int l : eq.terms[i]) {
      if (l == kEllipsis) {
        for (int64_t j = eq.E - eq.ellipsis_dims[i]; j < eq.E; ++j, ++dim) {
          const int64_t size = t.size(dim);
          int64_t& seen = ell_size[static_cast<size_t>(j)];
          if (size == 1) continue;
          if (seen != 1 && seen != size) {
            fail("dimension " + std::to_string(dim) + " covered by ellipsis in operand " +
                 std::to_string(i) + "has size " + std::to_string(size) +
                 " which does not broadcast with previously seen ellipsis with size " +
                 std::to_string(seen) + " for the respective dimension");
          }
          seen = size;
        }
        continue;
      }
      const auto label = static_cast<size_t>(l);
      const int64_t size = t.size(dim);
      if (first_dim[label] >= 0) {
        const int64_t prev = t.size(first_dim[label]);
        if (size != prev) {
          fail("subscript " + label_char(l) + " is repeated for operand " + std::to_string(i) +
               " but the sizes don't match, " + std::to_string(size) +
               " != " + std::to_string(prev));
        }
      } else {
        first_dim[label] = dim;
        if (size != 1 && label_size[label] != 1 && label_size[label] != size) {
          fail("subscript " + label_char(l) + " has size " + std::to_string(size) +
               " for operand " + std::to_string(i) +
               " which does not broadcast with previously seen size " +
               std::to_string(label_size[label]));
        }
        if (size != 1) label_size[label] = size;
      }
      ++dim;
    }
  }
}

// The one dim order every operand is aligned to: the output's dims, then the summed ones.
struct DimOrder {
  std::vector<int64_t> target;  // per id: its position, -1 for an id no operand has
  int64_t n_out = 0;            // positions [0, n_out) are the output's
  int64_t total = 0;            // the positions
};

DimOrder dim_order(const Equation& eq) {
  DimOrder order;
  const int64_t E = eq.E;
  order.n_out = static_cast<int64_t>(eq.out_ids.size());
  order.target.assign(static_cast<size_t>(E + kLabels), -1);
  for (int64_t k = 0; k < order.n_out; ++k)
    order.target[static_cast<size_t>(eq.out_ids[static_cast<size_t>(k)])] = k;
  order.total = order.n_out;
  if (!eq.output_has_ellipsis) {
    for (int64_t k = 0; k < E; ++k) order.target[static_cast<size_t>(k)] = order.total++;
  }
  for (int l = 0; l < kLabels; ++l) {
    if (eq.label_count[static_cast<size_t>(l)] > 0 &&
        order.target[static_cast<size_t>(E + l)] < 0) {
      order.target[static_cast<size_t>(E + l)] = order.total++;
    }
  }
  return order;
}

// Operand i's ids, one per dim of its tensor (its `...` right-aligned among the E ellipsis dims).
std::vector<int64_t> operand_ids(const Equation& eq, size_t i) {
  std::vector<int64_t> ids;
  const int64_t ell = eq.ellipsis_dims[i];
  for (int l : eq.terms[i]) {
    if (l == kEllipsis) {
      for (int64_t k = 0; k < ell; ++k) ids.push_back(eq.E - ell + k);
    } else {
      ids.push_back(eq.E + l);
    }
  }
  return ids;
}

// The diagonal of each subscript repeated in operand i, until none is: diagonal() moves the
// dim last, so `ids` follows.
Tensor take_diagonals(Tensor t, std::vector<int64_t>& ids, int64_t E, size_t i) {
  for (bool again = true; again;) {
    again = false;
    for (size_t p = 0; p < ids.size() && !again; ++p) {
      for (size_t q = p + 1; q < ids.size() && !again; ++q) {
        if (ids[p] != ids[q]) continue;
        const int64_t sp = t.size(static_cast<int64_t>(p)), sq = t.size(static_cast<int64_t>(q));
        if (sp != sq) {
          fail("subscript " + label_char(static_cast<int>(ids[p] - E)) +
               " is repeated for operand " + std::to_string(i) + " but the sizes don't match, " +
               std::to_string(sp) + " != " + std::to_string(sq));
        }
        t = gradgen::diagonal(t, 0, static_cast<int64_t>(p), static_cast<int64_t>(q));
        const int64_t id = ids[p];
        ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(q));
        ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(p));
        ids.push_back(id);
        again = true;
      }
    }
  }
  return t;
}

// `t` (dims `ids`, none repeated) permuted to the dim order, with a size-1 dim at each position
// it lacks; `has` is set at the positions it has.
Tensor align(Tensor t, const std::vector<int64_t>& ids, const DimOrder& order,
             std::vector<bool>& has) {
  const auto& target = order.target;
  std::vector<int64_t> perm(ids.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    return target[static_cast<size_t>(ids[static_cast<size_t>(a)])] <
           target[static_cast<size_t>(ids[static_cast<size_t>(b)])];
  });
  t = gradgen::permute(t, perm);
  for (int64_t id : ids) has[static_cast<size_t>(target[static_cast<size_t>(id)])] = true;
  for (int64_t p = 0; p < order.total; ++p) {
    if (!has[static_cast<size_t>(p)]) t = gradgen::unsqueeze(t, p);
  }
  return t;
}

// The aligned operands' sizes must broadcast.
void check_broadcast(const std::vector<Tensor>& ops, TensorList tensors, int64_t total) {
  for (int64_t p = 0; p < total; ++p) {
    int64_t size = 1;
    for (size_t i = 0; i < ops.size(); ++i) {
      const int64_t s = ops[i].size(p);
      if (s == 1) continue;
      if (size != 1 && s != size) {
        std::string shapes;
        for (size_t j = 0; j < ops.size(); ++j) {
          shapes +=
              (j ? " " : "") + shape_str(tensors[j].sizes()) + "->" + shape_str(ops[j].sizes());
        }
        fail("operands do not broadcast with remapped shapes (original->remapped): " + shapes);
      }
      size = s;
    }
  }
}

// A summed dim only one operand has: summed in it at once.
void sum_unshared(std::vector<Tensor>& ops, std::vector<std::vector<bool>>& has,
                  const DimOrder& order) {
  for (size_t i = 0; i < ops.size(); ++i) {
    std::vector<int64_t> alone;
    for (int64_t p = order.n_out; p < order.total; ++p) {
      bool other = false;
      for (size_t j = 0; j < ops.size(); ++j)
        other = other || (j != i && has[j][static_cast<size_t>(p)]);
      if (has[i][static_cast<size_t>(p)] && !other) alone.push_back(p);
    }
    if (!alone.empty()) {
      ops[i] = gradgen::sum(ops[i], IntArrayRef(alone), true);
      for (int64_t p : alone) has[i][static_cast<size_t>(p)] = false;
    }
  }
}

// Left to right: the summed dims that no later operand has are summed in each product.
Tensor contract(const std::vector<Tensor>& ops, const std::vector<std::vector<bool>>& has,
                const DimOrder& order) {
  const int64_t total = order.total;
  Tensor result = ops[0];
  std::vector<bool> has_result = has[0];
  for (size_t i = 1; i < ops.size(); ++i) {
    std::vector<int64_t> sum_dims;
    for (int64_t p = order.n_out; p < total; ++p) {
      if (!has_result[static_cast<size_t>(p)] && !has[i][static_cast<size_t>(p)]) continue;
      bool later = false;
      for (size_t j = i + 1; j < ops.size(); ++j) later = later || has[j][static_cast<size_t>(p)];
      if (!later) sum_dims.push_back(p);
    }
    result = sumproduct_pair(result, ops[i], sum_dims, total);
    for (int64_t p = 0; p < total; ++p) {
      has_result[static_cast<size_t>(p)] =
          (has_result[static_cast<size_t>(p)] || has[i][static_cast<size_t>(p)]) &&
          !contains(sum_dims, p);
    }
  }
  return result;
}

}  // namespace

Tensor einsum(std::string_view equation, TensorList tensors, OptionalIntArrayRef path) {
  (void)path;  // the contraction order is left to right
  if (tensors.empty()) fail("must provide at least one operand");
  const Equation eq = parse_equation(equation, tensors);
  check_sizes(eq, tensors);
  const DimOrder order = dim_order(eq);
  // Each operand: diagonals of repeated subscripts, then aligned to the `total` positions.
  std::vector<Tensor> ops;
  std::vector<std::vector<bool>> has(tensors.size(),
                                     std::vector<bool>(static_cast<size_t>(order.total), false));
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::vector<int64_t> ids = operand_ids(eq, i);
    const Tensor t = take_diagonals(tensors[i], ids, eq.E, i);
    ops.push_back(align(t, ids, order, has[i]));
  }
  check_broadcast(ops, tensors, order.total);
  sum_unshared(ops, has, order);
  const Tensor result = contract(ops, has, order);
  // The summed dims are of size 1 now: the output's dims alone.
  if (order.total == order.n_out) return result;
  std::vector<int64_t> out_sizes;
  for (int64_t p = 0; p < order.n_out; ++p) out_sizes.push_back(result.size(p));
  return gradgen::reshape(result, out_sizes);
}

}  // namespace native
}  // namespace gradgen
