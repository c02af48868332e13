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

from dataclasses import dataclass
from typing import List, Optional, Sequence

from tools.codegen import cpp
from tools.codegen.autograd_info import (
    DONT_PROFILE,
    DONT_RECORD_TRACE,
    Condition,
    DifferentiabilityInfo,
    SavedAttribute,
    WrapperKind,
)
from tools.codegen.load_native_functions import NativeFunction
from tools.codegen.model import Argument, FunctionSchema, SchemaKind


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
    """The right-hand side that fills member `var` from an input, before the kernel runs."""
    if var.kind == "tensor":
        if inplace and var.source == "self":
            # The kernel overwrites self: keep its value from before the call.
            return "SavedVariable(self.clone(), false)"
        return f"SavedVariable({var.source}, false)"
    if var.kind == "tensor_list":
        return f"make_saved_variable_list({var.source})"
    if var.fact is not None:
        return var.fact_expr(var.source)
    if arg is not None:
        t = cpp.argument_type(arg)
        if t == "IntArrayRef" or t.startswith("ArrayRef<"):
            return f"{var.source}.vec()"
        if t == "std::string_view":
            return f"std::string({var.source})"
        if t == "OptionalIntArrayRef":
            return f"{var.source}.has_value() ? std::optional<std::vector<int64_t>>({var.source}->vec()) : std::nullopt"
        if t == "std::optional<std::string_view>":
            return f"{var.source}.has_value() ? std::optional<std::string>(std::string({var.source}.value())) : std::nullopt"
    return var.source


def _save_output_expr(var: SavedAttribute, local: str) -> str:
    """The right-hand side that fills member `var` from an output the wrapper calls `local`."""
    if var.kind == "tensor_list":
        return f"make_saved_variable_list({local}, /*is_output=*/true)"
    if var.kind == "tensor":
        return f"SavedVariable({local}, true)"
    if var.fact is not None:
        return var.fact_expr(local)
    return local


def _condition(cond: Condition) -> str:
    """A wrap_opt_if condition as the forward tests it, on the node being built."""
    return "".join(p if isinstance(p, str) else f"grad_fn->should_compute_output({p})" for p in cond)


def _any_condition(conds) -> str:
    text = _condition(conds[0])
    for c in conds[1:]:
        text = f"({text}) || ({_condition(c)})"
    return text


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


def wrapper_code(f: NativeFunction, info: Optional[DifferentiabilityInfo], kind: WrapperKind) -> WrapperCode:
    """The differentiable API function for declaration `f`.

    `info` is its formulas (for an in-place variant: those of its out-of-place op), or None;
    `kind` the wrapper it gets (autograd_info.wrapper_kind).
    """
    func = f.func
    name = cpp_name(func)
    ret = cpp.returns_type(func)
    body = _hooks(f, str(func.name))
    if kind is WrapperKind.OUT:
        body += _out_body(f, ret)
    elif kind is WrapperKind.PLAIN:
        body += _plain_body(f, ret)
    elif kind is WrapperKind.NOT_IMPLEMENTED:
        body += _not_implemented_body(f, ret)
    else:
        assert info is not None and info.op is not None
        body += _differentiable_body(f, info, ret)
    return WrapperCode(
        schema=str(func),
        declaration=f"{ret} {name}({_params(func, True)});",
        native_declaration=f"{ret} {name}({_params(func, False)});",
        signature=f"{ret} {name}({_params(func, False)})",
        body=body,
    )


def _out_body(f: NativeFunction, ret: str) -> List[str]:
    """An out= variant: refuses inputs that require grad, then calls the kernel."""
    body = []
    checks = f.func.arguments.tensor_args
    if checks:
        pairs = ", ".join(f'{{"{a.name}", {a.name}}}' for a in checks)
        body.append(f'check_out_no_requires_grad("{f.func.name}", {{ {pairs} }});')
    return body + _plain_body(f, ret)


def _not_implemented_body(f: NativeFunction, ret: str) -> List[str]:
    """An op without formulas: raises when an input requires grad, else calls the kernel."""
    body = []
    tensor_args = [a.name for a in f.func.arguments.tensor_args]
    if tensor_args:
        body.append(f"if (compute_requires_grad({', '.join(tensor_args)})) {{")
        body.append(f'  throw_not_implemented("{f.func.name}");')
        body.append("}")
    return body + _plain_body(f, ret)


def _differentiable_body(f: NativeFunction, info: DifferentiabilityInfo, ret: str) -> List[str]:
    """Builds the node when an input requires grad, calls the kernel, records the history."""
    func = f.func
    ret_names = list(func.names_of_returns())
    body = []
    if func.kind() is SchemaKind.inplace:
        body.append(f'check_inplace(self, "{func.name}");')
    body += _make_node(f, info)
    body += _call_kernel(f, ret, ret_names)
    body += _record_history(f, info, ret_names)
    if len(func.returns) == 1:
        body.append(f"return {ret_names[0]};")
    elif func.returns:
        body.append(f"return {ret}({', '.join(ret_names)});")
    return body


def _make_node(f: NativeFunction, info: DifferentiabilityInfo) -> List[str]:
    """`grad_fn`, made and filled with the inputs' saved values when an input requires grad."""
    inplace = f.func.kind() is SchemaKind.inplace
    diff_args = ", ".join(a.name for a in info.args_with_derivatives)
    arg_by_name = {a.name: a for a in f.func.arguments.flat_all}
    body = [
        f"std::shared_ptr<{info.op}> grad_fn;",
        f"if (compute_requires_grad({diff_args})) {{",
        f"  grad_fn = std::make_shared<{info.op}>();",
        f"  grad_fn->set_next_edges(collect_next_edges({diff_args}));",
    ]
    conds = dict(info.wrap_opt_if)
    for var in info.all_saved_inputs:
        stmt = f"grad_fn->{var.member} = {_save_input_expr(var, arg_by_name.get(var.source), inplace)};"
        if var.name in conds:
            body.append(f"  if ({_any_condition(conds[var.name])}) {stmt}")
        else:
            body.append(f"  {stmt}")
    for name in info.list_size_members:
        body.append(f"  grad_fn->{name}_size_ = {name}.size();")
    body.append("}")
    return body


def _call_kernel(f: NativeFunction, ret: str, ret_names: Sequence[str]) -> List[str]:
    func = f.func
    call = _call(f)
    if len(func.returns) == 1:
        return [f"{call};"] if func.kind() is SchemaKind.inplace else [f"{ret} {ret_names[0]} = {call};"]
    body = [f"{cpp.return_type(r)} {n};" for r, n in zip(func.returns, ret_names)]
    body.append(f"std::tie({', '.join(ret_names)}) = {call};")
    return body


def _record_history(f: NativeFunction, info: DifferentiabilityInfo, ret_names: Sequence[str]) -> List[str]:
    """Wires the outputs into the graph and saves the outputs the formulas read."""
    cond = ""
    if info.output_differentiability_conditions:
        cond = f" && ({info.output_differentiability_conditions[0]})"
    body = [f"if (grad_fn{cond}) {{"]
    if f.func.kind() is SchemaKind.inplace:
        body.append("  rebase_history(self, grad_fn);")
    else:
        body += [f"  set_history({ret_names[i]}, grad_fn);" for i in info.differentiable_outputs]
    # Formulas call the outputs `result` (one) / `result0`.. or their names; the wrapper's locals
    # are those names, except an in-place op's output, which is `self`.
    local_of = {("result" if n == "self" else n): n for n in ret_names}
    for var in info.all_saved_outputs:
        body.append(f"  grad_fn->{var.member} = {_save_output_expr(var, local_of.get(var.source, var.source))};")
    body.append("}")
    return body
