"""Emits VariableType.h / VariableType.cpp (the differentiable API) and NativeFunctions.h.

For an op with formulas, the forward wrapper builds the Backward node when an input requires
grad, saves what the formulas read, calls the kernel (`native::<op>`, written by hand) and wires
the outputs into the graph. Declarations flags shape the wrapper:
  DONT_REQUIRE_DERIVATIVE  no node at all (argmax, eq, ones_like: outputs carry no gradient);
  DONT_PROFILE             no profiler::RecordFunction scope (the profiler never sees the op);
  DONT_RECORD_TRACE        no node in a trace: a tracer::UntracedOp scope marks the outputs instead.
In-place variants (`add_`) reuse their out-of-place formula; `out=` variants are not
differentiable and refuse inputs that require grad, as in PyTorch.

Forward mode (Note [Forward AD in wrappers] in csrc/autograd/forward_ad.h): the plan
(plan.DeclarationPlan.forward_ad) says what each wrapper does with tangents; `ForwardADCode` holds the
statements, which VariableType.cpp's `forward_ad_before_<kind>` / `forward_ad_after_<kind>` defs print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from tools.codegen import cpp
from tools.codegen.autograd_info import (
    Condition,
    DifferentiabilityInfo,
    ForwardAD,
    ForwardADKind,
    HookFacts,
    ListSize,
    SavedAttribute,
    SavedKind,
    TangentKind,
    WrapperKind,
    formula_output_names,
)
from tools.codegen.model import Argument, FunctionSchema, NativeFunction, SchemaKind
from tools.codegen.plan import DeclarationPlan


@dataclass(frozen=True)
class SavedValue:
    """One member of the node the forward fills: `grad_fn-><member> = <value>;`."""

    member: str
    # The C++ expression: `SavedVariable(self, false)`, `self.sizes().vec()`.
    value: str
    # When not empty, the member is filled only if this C++ condition holds (wrap_opt_if).
    condition: str = ""


@dataclass(frozen=True)
class Output:
    """One output of the op, as the wrapper declares it: `Tensor values`."""

    cpp_type: str
    name: str


@dataclass(frozen=True)
class NodeRecording:
    """What a differentiable wrapper does around the kernel call (VariableType.cpp's
    `differentiable_body`)."""

    # Whether the op works in place on `self` (the node then takes self's history over).
    inplace: bool
    # The node's class: `MulBackward0`.
    node: str
    # The inputs that get a gradient: the node's next edges, in order.
    diff_args: List[str]
    # Members filled from the inputs before the kernel runs.
    saved_inputs: List[SavedValue]
    # Tensor[] inputs whose length the node keeps in a member.
    list_sizes: List[ListSize]
    # The op's outputs, as the wrapper's locals.
    outputs: List[Output]
    # Appended to `if (grad_fn` when output_differentiability is a condition: ` && (cond)`.
    history_condition: str
    # The outputs that get history.
    history: List[str]
    # Members filled from the outputs after the kernel ran.
    saved_outputs: List[SavedValue]


@dataclass(frozen=True)
class ForwardADCode:
    """What a wrapper does in forward mode, as C++ (VariableType.cpp's forward_ad defs)."""

    # NONE (nothing to do), NOT_IMPLEMENTED (throws before the kernel when `condition` holds) or
    # FORMULAS.
    kind: ForwardADKind
    # `forward_ad::any_fw_grad(self, other)`: whether an input has a tangent.
    condition: str
    # NOT_IMPLEMENTED: why, in the message.
    reason: str = ""
    # FORMULAS: whether self's value is kept before the kernel (`original_self_p`), the
    # statements declaring the tangents the formulas read, and those setting the outputs' ones.
    original_self: bool = False
    tangents: Tuple[str, ...] = ()
    # FORMULAS: whether self's tangent from before the op is kept (`original_self_t`), a copy
    # made before any formula writes into self's tangent.
    original_self_t: bool = False
    sets: Tuple[str, ...] = ()


def _forward_ad_code(fw: ForwardAD, op_name: str) -> ForwardADCode:
    if fw.kind is ForwardADKind.NONE or not fw.inputs:
        return ForwardADCode(ForwardADKind.NONE, "")
    condition = f"forward_ad::any_fw_grad({', '.join(fw.inputs)})"
    if fw.kind is ForwardADKind.NOT_IMPLEMENTED:
        return ForwardADCode(ForwardADKind.NOT_IMPLEMENTED, condition, reason=fw.reason)
    decl = {TangentKind.TENSOR: "Tensor", TangentKind.OPTIONAL: "Tensor", TangentKind.LIST: "std::vector<Tensor>"}
    tangents = tuple(f"{decl[t.kind]} {t.local} = forward_ad::tangent_or_zeros({t.name});" for t in fw.tangents)
    setter = "forward_ad::set_fw_grad_inplace" if fw.inplace else "forward_ad::set_fw_grad"
    sets = tuple(f'{setter}({f.output}, {f.formula}, "{op_name}");' for f in fw.formulas)
    return ForwardADCode(
        ForwardADKind.FORMULAS,
        condition,
        original_self=fw.needs_original_self,
        tangents=tangents,
        original_self_t=fw.needs_original_self_t,
        sets=sets,
    )


@dataclass(frozen=True)
class WrapperCode:
    """One function of the API, as data for the templates (VariableType.cpp's defs print it)."""

    # The schema, printed above the definition.
    schema: str
    # Definition's first line, without defaults (the headers' declarations: ApiDeclaration).
    signature: str
    # The shape of the body.
    kind: WrapperKind
    # The op's name with overload, in messages, the profiler and the tracer: `add.Tensor`.
    op_name: str
    # What it hands the profiler and the tracer.
    hooks: HookFacts
    # The C++ function's name (`add_`), which the tracer's replay calls.
    cpp_name: str
    # How the tracer's replay names that function: `add_`, or qualified (`::gradgen::threshold`)
    # when an argument has the op's name (threshold(Tensor self, Scalar threshold, Scalar value)),
    # which would shadow it.
    op_ref: str
    # The kernel call: `native::add(self, other, alpha)`, the C++ return type, and whether the op
    # returns nothing (the schema's `-> ()`).
    call: str
    return_type: str
    returns_void: bool
    # The Tensor inputs an out= wrapper refuses, or a not_implemented wrapper raises for, when
    # they require grad.
    checked_args: List[str]
    # For kind DIFFERENTIABLE: the node it records.
    node: Optional[NodeRecording] = None
    # Forward mode: None when the wrapper does nothing with tangents.
    forward_ad: ForwardADCode = ForwardADCode(ForwardADKind.NONE, "")


@dataclass(frozen=True)
class ApiDeclaration:
    """A declaration's function as the headers declare it (VariableType.h, NativeFunctions.h):
    made from the declaration alone, so the headers need no formulas (Note [Python bindings in a
    second process] in gen_autograd.py)."""

    # With trailing defaults: `Tensor cat(TensorList tensors, int64_t dim = 0);`
    declaration: str
    # The kernel's, for NativeFunctions.h: `Tensor cat(TensorList tensors, int64_t dim);`
    native_declaration: str
    # The C++ spellings of its parameter and return types, and of its parameters' defaults (what
    # a header outside namespace gradgen makes visible: see `header_runtime_names`).
    type_spellings: Tuple[str, ...]
    default_spellings: Tuple[str, ...]


def _signature(func: FunctionSchema) -> Tuple[str, str, List[str], List[str]]:
    """The C++ function's name and return type, its parameters' types, and its parameters."""
    types = [cpp.argument_type(a).spelling for a in func.arguments.flat_all]
    params = [f"{t} {a.name}" for t, a in zip(types, func.arguments.flat_all)]
    return func.cpp_name(), cpp.returns_type(func).spelling, types, params


def api_declaration(f: NativeFunction) -> ApiDeclaration:
    """How the headers declare declaration `f`'s function of the API and its kernel."""
    func = f.func
    name, ret, types, params = _signature(func)
    args = func.arguments.flat_all
    defaults = [cpp.default_value(a) for a in args]
    # C++ allows defaults only on a trailing run of parameters; cpp_no_default_args (PyTorch's
    # key: var(Tensor self, bool unbiased=True) beside var.correction) ends that run too.
    first_default = len(args)
    for i in range(len(args) - 1, -1, -1):
        if args[i].default is None or args[i].name in f.cpp_no_default_args:
            break
        first_default = i
    with_defaults = params[:first_default] + [f"{p} = {d}" for p, d in zip(params, defaults)][first_default:]
    return ApiDeclaration(
        declaration=f"{ret} {name}({', '.join(with_defaults)});",
        native_declaration=f"{ret} {name}({', '.join(params)});",
        type_spellings=(ret, *types),
        default_spellings=tuple(d or "" for d in defaults),
    )


def header_runtime_names(declarations: Sequence[ApiDeclaration], with_defaults: bool) -> List[Tuple[str, str]]:
    """(namespace, name) of the runtime names the headers' declarations use (with their
    defaults: VariableType.h; without: NativeFunctions.h), for using-declarations."""
    spellings: List[str] = []
    for w in declarations:
        spellings += w.type_spellings
        if with_defaults:
            spellings += w.default_spellings
    return cpp.qualified_runtime_names(spellings)


def _save_input_expr(var: SavedAttribute, arg: Optional[Argument], inplace: bool) -> str:
    """The right-hand side that fills member `var` from an input, before the kernel runs."""
    if var.kind is SavedKind.TENSOR:
        if inplace and var.source == "self":
            # The kernel overwrites self: keep its value from before the call.
            return "SavedVariable(self.clone(), false)"
        return f"SavedVariable({var.source}, false)"
    if var.kind is SavedKind.TENSOR_LIST:
        return f"make_saved_variable_list({var.source})"
    if var.fact is not None:
        return var.fact_expr(var.source)
    if arg is not None:
        return cpp.argument_type(arg).keep(var.source)
    return var.source


def _save_output_expr(var: SavedAttribute, local: str) -> str:
    """The right-hand side that fills member `var` from an output the wrapper calls `local`."""
    if var.kind is SavedKind.TENSOR_LIST:
        return f"make_saved_variable_list({local}, /*is_output=*/true)"
    if var.kind is SavedKind.TENSOR:
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


def wrapper_code(d: DeclarationPlan, namespace: str) -> WrapperCode:
    """The differentiable API function of a planned declaration (plan.py), in C++ namespace
    `namespace`."""
    f, info, kind = d.f, d.info, d.kind
    func = f.func
    name, ret, _, params = _signature(func)
    checked: List[str] = []
    if kind in (WrapperKind.OUT, WrapperKind.NOT_IMPLEMENTED):
        checked = [a.name for a in func.arguments.tensor_args]
    node = None
    if kind is WrapperKind.DIFFERENTIABLE:
        assert info is not None and info.op is not None
        node = _node_recording(f, info)
    return WrapperCode(
        schema=str(func),
        signature=f"{ret} {name}({', '.join(params)})",
        kind=kind,
        op_name=str(func.name),
        hooks=d.hooks,
        cpp_name=name,
        op_ref=f"::{namespace}::{name}" if name in d.hooks.args else name,
        call=f"native::{name}(" + ", ".join(a.name for a in func.arguments.flat_all) + ")",
        return_type=ret,
        returns_void=not func.returns,
        checked_args=checked,
        node=node,
        forward_ad=_forward_ad_code(d.forward_ad, str(func.name)),
    )


def _node_recording(f: NativeFunction, info: DifferentiabilityInfo) -> NodeRecording:
    func = f.func
    inplace = func.kind() is SchemaKind.inplace
    ret_names = list(func.names_of_returns())
    arg_by_name = {a.name: a for a in func.arguments.flat_all}
    conds = dict(info.wrap_opt_if)
    saved_inputs = [
        SavedValue(
            var.member,
            _save_input_expr(var, arg_by_name.get(var.source), inplace),
            _any_condition(conds[var.name]) if var.name in conds else "",
        )
        for var in info.all_saved_inputs
    ]
    # What formulas call each output -> the wrapper's local (an in-place op's `result` is `self`).
    local_of = dict(zip(formula_output_names(func), ret_names))
    saved_outputs = [
        SavedValue(var.member, _save_output_expr(var, local_of.get(var.source, var.source)))
        for var in info.all_saved_outputs
    ]
    cond = info.output_differentiability_conditions
    return NodeRecording(
        inplace=inplace,
        node=info.op or "",
        diff_args=[a.name for a in info.args_with_derivatives],
        saved_inputs=saved_inputs,
        list_sizes=list(info.list_size_members),
        outputs=[Output(cpp.return_type(r).spelling, n) for r, n in zip(func.returns, ret_names)],
        history_condition=f" && ({cond[0]})" if cond else "",
        # (An in-place op's `self` takes the node's history over instead: rebase_history.)
        history=[] if inplace else [ret_names[i] for i in info.differentiable_outputs],
        saved_outputs=saved_outputs,
    )
