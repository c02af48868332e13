"""Emits Functions.h / Functions.cpp: one Backward node per differentiable op.

Each node's `apply()` lays out its inputs' gradient slots at run time with an
IndexRangeGenerator (a Tensor takes one slot, a Tensor[] as many as it had elements when the
forward ran, saved as `<name>_size_`), runs only the formulas whose inputs need a gradient
(`should_compute_output`), and copies each result into its range. See the architecture doc,
"The central idea: index ranges computed at run time".

What a node holds and runs is prepared here as data; the statements are the templates' (Mako
defs in templates/Functions.cpp and templates/Functions.h).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import List, Sequence, Tuple

from tools.codegen import cpp
from tools.codegen.autograd_info import Derivative, DifferentiabilityInfo, ListSize, SavedAttribute, SavedKind


@dataclass(frozen=True)
class SavedMember:
    """A member of the node holding a saved value, as the templates declare, unpack and free it."""

    # A SavedVariable, a vector of them and a released flag, or a value.
    kind: SavedKind
    # The name formulas use: `self`, `self_sizes`.
    name: str
    # The member: `self_`, `self_sizes`.
    member: str
    # The member's C++ type, and its initializer when it has one ("0", "false", or "").
    cpp_type: str
    init: str


@dataclass(frozen=True)
class GradInput:
    """An input that gets a gradient: `auto <name>_ix = gen.range(<size>);` in apply()."""

    name: str
    # How many gradient slots it takes: "1", or for a Tensor[] the member keeping its length.
    size: str


class FormulaShape(enum.StrEnum):
    """How apply() runs a formula."""

    # A `_foreach_*` op's per-element formula of one Tensor[] input (`grads[i]`, `self[i]`): run
    # for each element i.
    FOREACH = "foreach"
    # One input's gradient: run when any incoming gradient is defined, else the empty value.
    ONE_INPUT = "one_input"
    # A tuple of gradients, one per input, each copied where that input asks for it.
    SEVERAL_INPUTS = "several_inputs"


@dataclass(frozen=True)
class FormulaCode:
    """One formula, as apply() runs it (Functions.cpp's `formula` def)."""

    # The inputs it computes gradients for: ["self"], ["self", "other"].
    inputs: List[str]
    # The formula as written (for the comment above it), and as compiled.
    original: str
    formula: str
    # For a formula of one input: its value when every incoming gradient is undefined.
    empty: str
    # Whether it reads `grad_input_mask` (then apply() builds it).
    uses_grad_input_mask: bool
    # How apply() runs it (Functions.cpp's `formula_<shape>` def).
    shape: FormulaShape


@dataclass(frozen=True)
class NodeCode:
    """One Backward node, as data for the templates (Functions.h declares it, Functions.cpp
    defines its apply())."""

    # Class name: `MmBackward0`.
    op: str
    # `mm(Tensor self, Tensor mat2) -> Tensor`, printed above the class.
    schema: str
    # Its saved values, in first-use order, and the Tensor[] inputs whose length it keeps in a
    # member of its own.
    saved: List[SavedMember]
    size_members: List[ListSize]
    # The saved tensors and Tensor[]s (kinds "tensor", "tensor_list"), which the node's
    # visit_saved() hands to a SavedVisitor (to_dot shows them with their shapes).
    saved_tensors: List[SavedMember]
    # Whether the node keeps `retain_variables` (a formula reads it).
    uses_retain_variables: bool
    # apply(): the inputs' gradient slots, the gradients it reads (`grad`, `grad_<output>` at
    # their index in `grads`), whether a one-input formula needs `any_grad_defined`, the formulas.
    grad_inputs: List[GradInput]
    uses_grad: bool
    named_gradients: List[Tuple[str, int]]
    any_grad_defined: bool
    formulas: List[FormulaCode]


def _saved_member(var: SavedAttribute) -> SavedMember:
    return SavedMember(var.kind, var.name, var.member, var.cpp_type.spelling, var.cpp_type.init)


def _formula_code(d: Derivative, info: DifferentiabilityInfo) -> FormulaCode:
    by_name = {a.name: a for a in info.args_with_derivatives}
    is_list = len(d.var_names) == 1 and cpp.is_tensor_list(by_name[d.var_names[0]].type)
    return FormulaCode(
        inputs=list(d.var_names),
        original=d.original_formula.strip(),
        formula=d.formula,
        empty="std::vector<Tensor>()" if is_list else "Tensor()",
        uses_grad_input_mask=d.uses_grad_input_mask,
        shape=FormulaShape.FOREACH
        if info.foreach and len(d.var_names) == 1
        else FormulaShape.ONE_INPUT
        if len(d.var_names) == 1
        else FormulaShape.SEVERAL_INPUTS,
    )


def node_code(info: DifferentiabilityInfo) -> NodeCode:
    assert info.op is not None
    return NodeCode(
        op=info.op,
        schema=str(info.func.func),
        saved=[_saved_member(v) for v in info.all_saved_inputs + info.all_saved_outputs],
        size_members=list(info.list_size_members),
        saved_tensors=[
            _saved_member(v) for v in info.all_saved_inputs + info.all_saved_outputs if v.kind is not SavedKind.VALUE
        ],
        uses_retain_variables=info.uses_retain_variables,
        grad_inputs=[GradInput(slot.name, slot.size) for slot in info.grad_slots],
        uses_grad=info.uses_grad,
        named_gradients=[(n, info.available_named_gradients.index(n)) for n in sorted(info.used_named_gradients)],
        any_grad_defined=any(len(d.var_names) == 1 for d in info.derivatives) and not info.foreach,
        formulas=[_formula_code(d, info) for d in info.derivatives],
    )


def header_includes(nodes: Sequence[NodeCode]) -> List[str]:
    """The runtime headers the nodes' declarations need beyond those Functions.h always includes:
    basic_ops.h where a node saves a TensorGeometry (a formula's `TensorGeometry(x)`)."""
    if any(name == "TensorGeometry" for _, name in header_runtime_names(nodes)):
        return ["csrc/autograd/basic_ops.h"]
    return []


def header_runtime_names(nodes: Sequence[NodeCode]) -> List[Tuple[str, str]]:
    """(namespace, name) of the runtime names the nodes' declarations use (Functions.h), for
    using-declarations."""
    if not nodes:
        return []
    spellings = ["Node", "variable_list"]
    for n in nodes:
        spellings += [s.cpp_type for s in n.saved]
    return cpp.qualified_runtime_names(spellings)


def manifest_node(info: DifferentiabilityInfo) -> dict:
    """The node's entry in manifest.json (architecture doc, "Contracts")."""
    return {
        "name": info.op,
        "op": str(info.func.func.name),
        "inputs": [{"name": slot.name, "range": slot.size} for slot in info.grad_slots],
        "saved": info.saved_member_names,
    }


def nodes_of(infos: Sequence[DifferentiabilityInfo]) -> List[NodeCode]:
    return [node_code(i) for i in infos if i.op is not None]
