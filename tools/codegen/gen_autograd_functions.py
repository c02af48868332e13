"""Emits Functions.h / Functions.cpp: one Backward node per differentiable op.

Each node's `apply()` lays out its inputs' gradient slots at run time with an
IndexRangeGenerator (a Tensor takes one slot, a Tensor[] as many as it had elements when the
forward ran, saved as `<name>_size_`), runs only the formulas whose inputs need a gradient
(`should_compute_output`), and copies each result into its range. See the architecture doc,
"The central idea: index ranges computed at run time".

Everything a template prints is prepared here as plain strings and lists; the templates only
loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Sequence

from tools.codegen import cpp
from tools.codegen.autograd_info import Derivative, DifferentiabilityInfo, SavedAttribute


@dataclass(frozen=True)
class NodeCode:
    """The text pieces of one Backward node, ready for the templates."""

    # Class name: `MmBackward0`.
    op: str
    # `mm(Tensor self, Tensor mat2) -> Tensor`, printed above the class.
    schema: str
    # Member declarations: `SavedVariable self_;`, `size_t tensors_size_;`.
    members: List[str]
    # Statements of release_variables().
    release: List[str]
    # Whether the node keeps `retain_variables` (a formula reads it).
    uses_retain_variables: bool
    # Body of apply(), one statement or block per entry, already indented by the emitter.
    body: List[str]


def _unpack(var: SavedAttribute) -> str:
    if var.kind == "tensor":
        return f'auto {var.name} = {var.member}.unpack(this, "{var.name}");'
    if var.kind == "tensor_list":
        return f'auto {var.name} = unpack_list({var.member}, {var.name}_released_, this, "{var.name}");'
    return ""


def _member_decls(var: SavedAttribute) -> List[str]:
    if var.kind == "tensor":
        return [f"SavedVariable {var.member};"]
    if var.kind == "tensor_list":
        return [f"std::vector<SavedVariable> {var.member};", f"bool {var.name}_released_ = false;"]
    init = ""
    if var.cpp_type in ("int64_t", "double", "size_t"):
        init = " = 0"
    elif var.cpp_type == "bool":
        init = " = false"
    return [f"{var.cpp_type} {var.member}{init};"]


def _release(var: SavedAttribute) -> List[str]:
    if var.kind == "tensor":
        return [f"{var.member}.reset_data();"]
    if var.kind == "tensor_list":
        return [f"{var.member}.clear();", f"{var.name}_released_ = true;"]
    return []


def _emit_derivative(d: Derivative, info: DifferentiabilityInfo) -> List[str]:
    by_name = {a.name: a for a in info.args_with_derivatives}
    formula = d.formula
    lines: List[str] = []
    if len(d.var_names) == 1:
        name = d.var_names[0]
        is_list = cpp.is_tensor_list(by_name[name].type)
        empty = "std::vector<Tensor>()" if is_list else "Tensor()"
        lines.append(f"if (should_compute_output({{ {name}_ix }})) {{")
        lines.append(f"  auto grad_result = any_grad_defined ? ({formula}) : {empty};")
        lines.append(f"  copy_range(grad_inputs, {name}_ix, grad_result);")
        lines.append("}")
        return lines
    ranges = ", ".join(f"{n}_ix" for n in d.var_names)
    lines.append(f"if (should_compute_output({{ {ranges} }})) {{")
    if d.uses_grad_input_mask:
        lines.append(f"  auto grad_input_mask = std::array<bool, {len(d.var_names)}>{{")
        for n in d.var_names:
            lines.append(f"    should_compute_output({{ {n}_ix }}),")
        lines.append("  };")
    lines.append(f"  auto grad_result = {formula};")
    for i, n in enumerate(d.var_names):
        lines.append(f"  if (should_compute_output({{ {n}_ix }})) {{")
        lines.append(f"    copy_range(grad_inputs, {n}_ix, std::get<{i}>(grad_result));")
        lines.append("  }")
    lines.append("}")
    return lines


def node_code(info: DifferentiabilityInfo) -> NodeCode:
    assert info.op is not None
    members: List[str] = []
    release: List[str] = []
    unpack: List[str] = []
    for var in info.all_saved_inputs + info.all_saved_outputs:
        members.extend(_member_decls(var))
        release.extend(_release(var))
        u = _unpack(var)
        if u:
            unpack.append(u)
    ranges: List[str] = []
    for a in info.args_with_derivatives:
        if cpp.is_tensor_list(a.type):
            if a.name in info.list_size_members:
                members.append(f"size_t {a.name}_size_ = 0;")
            ranges.append(f"auto {a.name}_ix = gen.range({a.name}_size_);")
        else:
            ranges.append(f"auto {a.name}_ix = gen.range(1);")

    body: List[str] = ["IndexRangeGenerator gen;"] + ranges
    body.append("variable_list grad_inputs(gen.size());")
    if info.uses_grad:
        body.append("const auto& grad = grads[0];")
    for name in sorted(info.used_named_gradients):
        body.append(f"const auto& {name} = grads[{info.available_named_gradients.index(name)}];")
    body.extend(unpack)
    if any(len(d.var_names) == 1 for d in info.derivatives):
        body.append("bool any_grad_defined = any_variable_defined(grads);")
    for d in info.derivatives:
        body.append(f"// {', '.join(d.var_names)}: {d.original_formula.strip()}")
        body.extend(_emit_derivative(d, info))
    body.append("return grad_inputs;")
    return NodeCode(
        op=info.op,
        schema=str(info.func.func),
        members=members,
        release=release,
        uses_retain_variables=info.uses_retain_variables,
        body=body,
    )


def manifest_node(info: DifferentiabilityInfo) -> dict:
    """The node's entry in manifest.json (architecture doc, "Contracts")."""
    return {
        "name": info.op,
        "op": str(info.func.func.name),
        "inputs": [
            {"name": a.name, "range": f"{a.name}_size_" if cpp.is_tensor_list(a.type) else "1"}
            for a in info.args_with_derivatives
        ],
        "saved": info.saved_member_names,
    }


def nodes_of(infos: Sequence[DifferentiabilityInfo]) -> List[NodeCode]:
    return [node_code(i) for i in infos if i.op is not None]
