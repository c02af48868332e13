"""Emits VariableType.h / VariableType.cpp (the differentiable API) and NativeFunctions.h.

For an op with formulas, the forward wrapper builds the Backward node when an input requires
grad, saves what the formulas read, calls the kernel (`native::<op>`, written by hand) and wires
the outputs into the graph. Declarations flags shape the wrapper:
  DONT_REQUIRE_DERIVATIVE  no node at all (argmax, eq, ones_like: outputs carry no gradient);
  DONT_PROFILE             no profiler::RecordFunction scope;
  DONT_RECORD_TRACE        no tracer::record_op call.
In-place variants (`add_`) reuse their out-of-place formula; `out=` variants are not
differentiable and refuse inputs that require grad, as in PyTorch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from tools.codegen import cpp
from tools.codegen.errors import SpecError
from tools.codegen.load_derivatives import IDENT_REGEX, DifferentiabilityInfo, SavedAttribute
from tools.codegen.load_native_functions import NativeFunction
from tools.codegen.model import Argument, FunctionSchema

DONT_REQUIRE_DERIVATIVE = "DONT_REQUIRE_DERIVATIVE"
DONT_PROFILE = "DONT_PROFILE"
DONT_RECORD_TRACE = "DONT_RECORD_TRACE"


@dataclass(frozen=True)
class WrapperCode:
    """One function of the API, as text pieces for the templates."""

    # The schema, printed above the definition.
    schema: str
    # Declaration, with trailing defaults: `Tensor cat(TensorList tensors, int64_t dim = 0);`
    declaration: str
    # Kernel declaration for NativeFunctions.h: `Tensor cat(TensorList tensors, int64_t dim);`
    native_declaration: str
    # Definition's first line, without defaults.
    signature: str
    # Body statements, each a line.
    body: List[str]


def cpp_name(func: FunctionSchema) -> str:
    """C++ function name: `add`, `add_` for in-place, `add_out` for out= variants."""
    name = func.name.name
    base = name.base
    if name.dunder_method:
        base = f"__{base}__"
    if name.inplace:
        return base + "_"
    if func.is_out_fn():
        return base + "_out"
    return base


def _params(func: FunctionSchema, with_defaults: bool) -> str:
    args = func.arguments.flat_all
    # C++ allows defaults only on a trailing run of parameters.
    first_default = len(args)
    if with_defaults:
        for i in range(len(args) - 1, -1, -1):
            if args[i].default is None:
                break
            first_default = i
    parts = []
    for i, a in enumerate(args):
        p = f"{cpp.argument_type(a)} {a.name}"
        if with_defaults and i >= first_default:
            p += f" = {cpp.default_value(a)}"
        parts.append(p)
    return ", ".join(parts)


def _save_input_expr(var: SavedAttribute, arg: Optional[Argument], inplace: bool) -> str:
    """The right-hand side that fills member `var` in the forward."""
    if var.kind == "tensor":
        name = var.name
        if inplace and name == "self":
            # The kernel overwrites self: keep its value from before the call.
            return "SavedVariable(self.clone(), false)"
        return f"SavedVariable({name}, false)"
    if var.kind == "tensor_list":
        return f"make_saved_variable_list({var.name})"
    if var.expr != var.name:
        # A replacement such as `self.sizes()` or `to_args_sizes(tensors)`.
        if var.cpp_type == "std::vector<int64_t>" and re.search(r"\.(sym_)?(sizes|strides)\(\)$", var.expr):
            return var.expr.replace("sym_sizes()", "sizes()").replace("sym_strides()", "strides()") + ".vec()"
        if var.expr.startswith("to_args_sizes_symint("):
            return var.expr.replace("to_args_sizes_symint(", "to_args_sizes(")
        return var.expr.replace(".sym_size(", ".size(").replace(".sym_numel()", ".numel()")
    if arg is not None:
        t = cpp.argument_type(arg)
        if t == "IntArrayRef" or t.startswith("ArrayRef<"):
            return f"{var.name}.vec()"
        if t == "std::string_view":
            return f"std::string({var.name})"
        if t == "OptionalIntArrayRef":
            return f"{var.name}.has_value() ? std::optional<std::vector<int64_t>>({var.name}->vec()) : std::nullopt"
        if t == "std::optional<std::string_view>":
            return f"{var.name}.has_value() ? std::optional<std::string>(std::string({var.name}.value())) : std::nullopt"
    return var.name


def differentiable_outputs(
    func: FunctionSchema, info: DifferentiabilityInfo, ret_names: Sequence[str]
) -> List[str]:
    """The outputs that get history, as PyTorch decides: `output_differentiability` when given;
    else every Tensor output, except that formulas using plain `grad` make only the first output
    differentiable (derivatives.yaml's header: "all but the first output will be marked as
    non-differentiable")."""
    if info.output_differentiability is not None:
        return [n for n, d in zip(ret_names, info.output_differentiability) if d]
    candidates = [
        n for n, r in zip(ret_names, func.returns)
        if r.type.is_tensor_like() and n not in info.non_differentiable_arg_names
    ]
    if any(re.search(IDENT_REGEX.format("grad"), d.formula) for d in info.derivatives):
        return candidates[:1]
    return candidates


def _wrap_opt_if_conditions(info: DifferentiabilityInfo) -> Dict[str, str]:
    """`wrap_opt_if(x, grad_input_mask[1])` in a formula: save x only when that input needs grad."""
    conds: Dict[str, str] = {}
    for d in info.derivatives:
        for m in re.finditer(r"wrap_opt_if\((\w+),", d.formula):
            name = m.group(1)
            # The condition runs from after the comma to the matching parenthesis.
            depth, i, start = 1, m.end(), m.end()
            while i < len(d.formula) and depth:
                depth += {"(": 1, ")": -1}.get(d.formula[i], 0)
                i += 1
            cond = d.formula[start : i - 1].strip()

            def mask_to_node(mm: "re.Match[str]", d=d) -> str:
                var = d.var_names[int(mm.group(1))]
                idx = [a.name for a in info.args_with_derivatives].index(var)
                return f"grad_fn->should_compute_output({idx})"

            cond = re.sub(r"grad_input_mask\[(\d+)\]", mask_to_node, cond)
            conds[name] = f"({conds[name]}) || ({cond})" if name in conds else cond
    return conds


def _hooks(f: NativeFunction, op_name: str) -> List[str]:
    lines = []
    if DONT_PROFILE not in f.flags:
        lines.append(f'profiler::RecordFunction profile_scope("{op_name}");')
    if DONT_RECORD_TRACE not in f.flags:
        lines.append(f'if (tracer::is_tracing()) tracer::record_op("{op_name}");')
    return lines


def _call(f: NativeFunction) -> str:
    return f"native::{cpp_name(f.func)}(" + ", ".join(a.name for a in f.func.arguments.flat_all) + ")"


def _plain_body(f: NativeFunction, ret: str) -> List[str]:
    call = _call(f)
    return [f"return {call};" if ret != "void" else f"{call};"]


def wrapper_code(
    f: NativeFunction,
    info: Optional[DifferentiabilityInfo],
    missing_derivative: str,
    composite: bool = False,
) -> WrapperCode:
    """The differentiable API function for declaration `f`.

    `info` is its formulas (for an in-place variant: those of its out-of-place op), or None.
    `missing_derivative` says what a differentiable op without formulas gets: "error" (a spec
    error) or "not_implemented" (a wrapper that raises when asked for a gradient, PyTorch's way).
    `composite` marks a kernel built from differentiable ops, whose gradient flows through them.
    """
    func = f.func
    name = cpp_name(func)
    ret = cpp.returns_type(func)
    op_name = str(func.name)
    decl = f"{ret} {name}({_params(func, True)});"
    native_decl = f"{ret} {name}({_params(func, False)});"
    sig = f"{ret} {name}({_params(func, False)})"
    body = _hooks(f, op_name)

    if func.is_out_fn():
        checks = [a for a in func.arguments.flat_non_out if cpp.is_tensor(a.type) or cpp.is_tensor_list(a.type)]
        if checks:
            pairs = ", ".join(f'{{"{a.name}", {a.name}}}' for a in checks)
            body.append(f'check_out_no_requires_grad("{op_name}", {{ {pairs} }});')
        body.extend(_plain_body(f, ret))
        return WrapperCode(str(func), decl, native_decl, sig, body)

    tensor_outputs = [r for r in func.returns if r.type.is_tensor_like()]
    if info is None or info.op is None:
        if (
            DONT_REQUIRE_DERIVATIVE in f.flags
            or not tensor_outputs
            or (info is not None and info.op is None)
            or composite
        ):
            body.extend(_plain_body(f, ret))
            return WrapperCode(str(func), decl, native_decl, sig, body)
        if missing_derivative == "error":
            raise SpecError(
                f"'{op_name}' returns a Tensor but has no derivative entry; add one to the "
                f"derivatives file, or flag it DONT_REQUIRE_DERIVATIVE if its outputs carry no gradient",
                f.loc,
            )
        tensor_args = [a.name for a in func.arguments.flat_all if cpp.is_tensor(a.type) or cpp.is_tensor_list(a.type)]
        if tensor_args:
            body.append(f"if (compute_requires_grad({', '.join(tensor_args)})) {{")
            body.append(f'  throw_not_implemented("{op_name}");')
            body.append("}")
        body.extend(_plain_body(f, ret))
        return WrapperCode(str(func), decl, native_decl, sig, body)

    if DONT_REQUIRE_DERIVATIVE in f.flags:
        raise SpecError(
            f"'{op_name}' is flagged DONT_REQUIRE_DERIVATIVE but has derivative formulas; drop one of the two",
            f.loc,
        )
    inplace = func.name.name.inplace
    diff_args = [a.name for a in info.args_with_derivatives]
    arg_by_name = {a.name: a for a in func.arguments.flat_all}
    node = info.op
    if inplace:
        body.append(f'check_inplace(self, "{op_name}");')
    body.append(f"std::shared_ptr<{node}> grad_fn;")
    body.append(f"if (compute_requires_grad({', '.join(diff_args)})) {{")
    body.append(f"  grad_fn = std::make_shared<{node}>();")
    body.append(f"  grad_fn->set_next_edges(collect_next_edges({', '.join(diff_args)}));")
    conds = _wrap_opt_if_conditions(info)
    for var in info.all_saved_inputs:
        rhs = _save_input_expr(var, arg_by_name.get(var.name), inplace)
        stmt = f"grad_fn->{var.member} = {rhs};"
        if var.name in conds:
            body.append(f"  if ({conds[var.name]}) {stmt}")
        else:
            body.append(f"  {stmt}")
    saved_names = {v.name for v in info.all_saved_inputs}
    for a in info.args_with_derivatives:
        if cpp.is_tensor_list(a.type) and f"{a.name}_size_" not in saved_names:
            body.append(f"  grad_fn->{a.name}_size_ = {a.name}.size();")
    body.append("}")

    ret_names = cpp.return_names(func)
    call = _call(f)
    if len(func.returns) == 1:
        rname = ret_names[0]
        if inplace:
            body.append(f"{call};")
        else:
            body.append(f"{ret} {rname} = {call};")
    else:
        for r, n in zip(func.returns, ret_names):
            body.append(f"{cpp.return_type(r)} {n};")
        body.append(f"std::tie({', '.join(ret_names)}) = {call};")

    hist = differentiable_outputs(func, info, ret_names)
    cond = ""
    if info.output_differentiability_conditions:
        cond = f" && ({info.output_differentiability_conditions[0]})"
    body.append(f"if (grad_fn{cond}) {{")
    if inplace:
        body.append(f"  rebase_history(self, grad_fn);")
    else:
        for n in hist:
            body.append(f"  set_history({n}, grad_fn);")
    out_by_name = {("result" if n == "self" else n): n for n in ret_names}
    for var in info.all_saved_outputs:
        local = out_by_name.get(var.name, var.name)
        if var.kind == "tensor_list":
            body.append(f"  grad_fn->{var.member} = make_saved_variable_list({local}, /*is_output=*/true);")
        elif var.kind == "tensor":
            body.append(f"  grad_fn->{var.member} = SavedVariable({local}, true);")
        else:
            body.append(f"  grad_fn->{var.member} = {_save_input_expr(var, None, False).replace(var.name, local, 1)};")
    body.append("}")
    if len(func.returns) == 1:
        body.append(f"return {ret_names[0]};")
    elif func.returns:
        body.append(f"return {ret}({', '.join(ret_names)});")
    return WrapperCode(str(func), decl, native_decl, sig, body)


def match_infos(
    functions: Sequence[NativeFunction],
    infos: Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]],
) -> Dict[str, Optional[DifferentiabilityInfo]]:
    """The formulas each declaration uses (by its schema string): its own entry, else (for an
    in-place variant) the out-of-place op's entry with the same signature. Default dispatch only."""
    by_schema: Dict[str, DifferentiabilityInfo] = {}
    by_base: Dict[str, List[Tuple[FunctionSchema, DifferentiabilityInfo]]] = {}
    for schema, per_key in infos.items():
        info = per_key.get("Default") or next(iter(per_key.values()))
        by_schema[str(schema)] = info
        by_base.setdefault(schema.name.name.base, []).append((schema, info))
    out: Dict[str, Optional[DifferentiabilityInfo]] = {}
    for f in functions:
        key = str(f.func)
        info = by_schema.get(key)
        if info is None and f.func.name.name.inplace and not f.func.is_out_fn():
            candidates = by_base.get(f.func.name.name.base, [])
            if candidates:
                sig = f.func.signature()
                info = next((i for s, i in candidates if s.signature() == sig), None)
        out[key] = info
    return out
