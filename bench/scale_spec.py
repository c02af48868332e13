"""The synthetic spec of the scale benchmark and test: any number of ops in six schema shapes.

  unary    u_NNNN(Tensor self) -> Tensor
  optional o_NNNN(Tensor self, Tensor? weight) -> Tensor                 (Tensor?)
  list     l_NNNN(Tensor[] xs, Tensor w, int dim=0) -> Tensor            (Tensor[] then Tensor)
  pair     p_NNNN(Tensor self, Tensor other) -> (Tensor out0, Tensor out1)   (tuple return)
  scalars  s_NNNN(Tensor self, float alpha=1, int[] dims=[]) -> Tensor
  mixed    m_NNNN(Tensor? bias, Tensor[] xs) -> (Tensor values, Tensor indices)

Formulas call helpers declared in FORMULAS_H (declared only: what uses the spec compiles the
generated code, it never links it). Used by bench/scale_bench.py (g++ on the generated files)
and tests/integration/scale_test.py (an autograd_library of it, built by Bazel).
"""

import os
from typing import Dict, List, Tuple

# kind -> (schema with {n} for the op name, formulas (input -> expression))
KINDS: List[Tuple[str, str, Dict[str, str]]] = [
    ("u", "{n}(Tensor self) -> Tensor", {"self": "unary_backward(grad, self)"}),
    (
        "o",
        "{n}(Tensor self, Tensor? weight) -> Tensor",
        {"self": "weighted_backward(grad, self, weight)", "weight": "unary_backward(grad, self)"},
    ),
    (
        "l",
        "{n}(Tensor[] xs, Tensor w, int dim=0) -> Tensor",
        {"xs": "list_backward(grad, w, xs.size(), dim)", "w": "list_w_backward(grad, xs)"},
    ),
    (
        "p",
        "{n}(Tensor self, Tensor other) -> (Tensor out0, Tensor out1)",
        {"self": "pair_backward(grad_out0, grad_out1, other)", "other": "pair_backward(grad_out1, grad_out0, self)"},
    ),
    (
        "s",
        "{n}(Tensor self, float alpha=1, int[] dims=[]) -> Tensor",
        {"self": "scale_backward(grad, alpha, dims, self.sizes())"},
    ),
    (
        "m",
        "{n}(Tensor? bias, Tensor[] xs) -> (Tensor values, Tensor indices)",
        {
            "bias": "pair_backward(grad_values, grad_indices, values)",
            "xs": "list_backward(grad_values, values, xs.size(), 0)",
        },
    ),
]

FORMULAS_H = """// Formula helpers of the synthetic spec (declared only: it is compiled, never linked).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "csrc/tensor.h"

namespace scale {
namespace formulas {
using gradgen::Tensor;
Tensor unary_backward(const Tensor& grad, const Tensor& self);
Tensor weighted_backward(const Tensor& grad, const Tensor& self, const std::optional<Tensor>& weight);
std::vector<Tensor> list_backward(const Tensor& grad, const Tensor& w, size_t n, int64_t dim);
Tensor list_w_backward(const Tensor& grad, const std::vector<Tensor>& xs);
Tensor pair_backward(const Tensor& a, const Tensor& b, const Tensor& other);
Tensor scale_backward(const Tensor& grad, double alpha, gradgen::IntArrayRef dims, gradgen::IntArrayRef sizes);
}  // namespace formulas
}  // namespace scale
"""


def op_name(i: int) -> str:
    """The name of op number i (its kind's letter, then i)."""
    return f"{KINDS[i % len(KINDS)][0]}_{i:04d}"


def spec_texts(ops: int, origin: str) -> Tuple[str, str, Dict[str, int]]:
    """native_functions.yaml and derivatives.yaml of `ops` ops, and how many ops of each kind."""
    decls: List[str] = []
    formulas: List[str] = []
    per_kind: Dict[str, int] = {}
    for i in range(ops):
        kind, schema, inputs = KINDS[i % len(KINDS)]
        full = schema.format(n=op_name(i))
        decls.append(f"- func: {full}\n")
        formulas.append(f"- name: {full}\n" + "".join(f"  {k}: {v}\n" for k, v in inputs.items()))
        per_kind[kind] = per_kind.get(kind, 0) + 1
    return (
        f"# Synthetic spec written by {origin}.\n" + "".join(decls),
        f"# Synthetic formulas written by {origin}.\n" + "".join(formulas),
        per_kind,
    )


def write_spec(spec_dir: str, header_path: str, ops: int, origin: str) -> Dict[str, int]:
    """Writes spec_dir/native_functions.yaml, spec_dir/derivatives.yaml and the helpers' header at
    header_path; returns how many ops of each kind."""
    functions, derivatives, per_kind = spec_texts(ops, origin)
    os.makedirs(spec_dir, exist_ok=True)
    os.makedirs(os.path.dirname(header_path), exist_ok=True)
    for path, text in (
        (os.path.join(spec_dir, "native_functions.yaml"), functions),
        (os.path.join(spec_dir, "derivatives.yaml"), derivatives),
        (header_path, FORMULAS_H),
    ):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    return per_kind
