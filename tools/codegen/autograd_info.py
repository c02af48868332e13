"""The analysis model: what the loader learns about differentiating each op, for the emitters.

load_derivatives.py reads derivatives.yaml into these types; gen_autograd_functions.py and
gen_variable_type.py print them. Every fact an emitter needs is a field here (which inputs get a
gradient, which outputs get history, what the node saves and from which variable, whether a
formula reads `grad`, `grad_input_mask` or `retain_variables`, when a `wrap_opt_if` value is
saved, whether formulas run per element of `_foreach_*` lists), so no emitter reads formula text
or raises a SpecError. As torchgen/api/autograd.py in
PyTorch, which the loader and the emitters share the same way.

The analysis passes that need the declarations too live here: `match_infos` (which formulas each
declaration uses) and `wrapper_kinds` (which wrapper each declaration gets, and the coverage
errors: a differentiable op without formulas, formulas on an op flagged DONT_REQUIRE_DERIVATIVE).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

from tools.codegen import cpp
from tools.codegen.errors import Location, SpecError
from tools.codegen.formula_text import rename, uses
from tools.codegen.model import Argument, FunctionSchema, ListType, NativeFunction, OptionalType, SchemaKind, Type

__all__ = [
    "DONT_REQUIRE_DERIVATIVE",
    "DONT_PROFILE",
    "DONT_RECORD_TRACE",
    "SavedFact",
    "SavedAttribute",
    "Condition",
    "Derivative",
    "ForwardDerivative",
    "DifferentiabilityInfo",
    "ForwardAD",
    "ForwardFormula",
    "Tangent",
    "WrapperKind",
    "forward_ad_of",
    "formula_output_names",
    "is_composite_implicit",
    "match_infos",
    "wrapper_kind",
    "wrapper_kinds",
]

# Declaration flags (load_native_functions.FLAGS) that change the generated wrapper.
DONT_REQUIRE_DERIVATIVE = "DONT_REQUIRE_DERIVATIVE"
DONT_PROFILE = "DONT_PROFILE"
DONT_RECORD_TRACE = "DONT_RECORD_TRACE"


@dataclass(frozen=True)
class SavedFact:
    """A cheap fact about a variable that a node saves instead of the variable itself."""

    # What the fact is, for readers: "sizes", "argsize", "numel", "options", ...
    key: str
    # The C++ expression the forward evaluates to fill the member: a format string over `{var}`
    # (the variable's name in the forward wrapper) and `{arg}` (the fact's argument, such as the
    # dimension of `self.size(1)`): "{var}.sizes().vec()", "{var}.size({arg})".
    save: str


class SavedKind(enum.StrEnum):
    """What a node's saved member holds."""

    TENSOR = "tensor"  # a SavedVariable
    TENSOR_LIST = "tensor_list"  # a vector of them plus a released flag
    VALUE = "value"  # anything copied by value


@dataclass(frozen=True)
class SavedAttribute:
    """One member of a Backward node, filled by the forward and read by `apply()`."""

    # The member's name: `self_sizes`, `dim`, or for tensors the variable name (`self`), whose
    # member is `self_` (see `member`).
    name: str
    # The C++ type of the member, e.g. `std::vector<int64_t>`, `SavedVariable`.
    cpp_type: cpp.MemberType
    # What the member holds.
    kind: SavedKind
    # The variable the value is taken from, as formulas name it: `self`, `tensors`, `result`.
    source: str
    # Whether `source` is an output of the op (saved after the kernel ran) or an input (before).
    is_output: bool
    # The fact saved instead of the whole variable (`self.sizes()` -> `self_sizes`), or None when
    # the variable itself is saved.
    fact: Optional[SavedFact] = None
    # The fact's argument, as written: "1" for `self.size(1)`; None for facts without one.
    fact_arg: Optional[str] = None

    @property
    def member(self) -> str:
        """The member's C++ name: tensors take a trailing underscore (`self_`), as in PyTorch."""
        return self.name + "_" if self.kind is not SavedKind.VALUE else self.name

    def fact_expr(self, var: str) -> str:
        """The expression filling this fact's member, where the forward calls `source` `var`
        (an in-place wrapper's `result` is `self`)."""
        assert self.fact is not None, self
        return self.fact.save.format(var=var, arg=self.fact_arg)


# A C++ condition over the inputs that need a gradient: text pieces, and the positions (in
# `args_with_derivatives`) of inputs whose "needs a gradient" bit goes there. `wrap_opt_if(x,
# grad_input_mask[1])` in the formula for `self, other` of `f(self, other)` gives (1,).
Condition = Tuple[Union[str, int], ...]


@dataclass(frozen=True)
class Derivative:
    """One formula of an entry: `self: mm(grad, t(mat2))` or `self, other: f(grad_input_mask)`."""

    # The formula after saved-value rewriting: `mm_mat1_backward(grad, mat2, self_sizes)`.
    formula: str
    # The formula as written in the YAML file.
    original_formula: str
    # The inputs it computes gradients for, in key order: ("self",) or ("self", "other").
    var_names: Tuple[str, ...]
    # The inputs and outputs it needs, as members of the node.
    saved_inputs: Tuple[SavedAttribute, ...]
    saved_outputs: Tuple[SavedAttribute, ...]
    # The `grad_<return name>` variables it uses.
    named_gradients: frozenset
    # Whether it reads `grad` (the first output's gradient; PyTorch's IDENT_REGEX test), and
    # `grad_input_mask` (a formula for several inputs asking which need one).
    uses_grad: bool
    uses_grad_input_mask: bool
    # Where the formula is written.
    loc: Location


@dataclass(frozen=True)
class ForwardDerivative:
    """A forward-mode formula (`result: auto_linear`) as written for the op: see `forward_ad_of`
    for what one declaration's wrapper makes of it."""

    # The formula, with `auto_element_wise` / `auto_linear` expanded like PyTorch does.
    formula: str
    # The outputs it defines: ("result",), ("values",).
    var_names: Tuple[str, ...]
    # The schema types of those outputs.
    var_types: Tuple[Type, ...]
    # Inputs whose tangent (`x_t`) and primal (`x_p`) the formula reads.
    required_inputs_fw_grad: Tuple[str, ...]
    required_inputs_primal: Tuple[str, ...]
    loc: Location


def list_size_member(arg_name: str) -> str:
    """The node member that keeps the length of Tensor[] input `arg_name`, which is how many
    gradient slots the input takes (apply()'s index ranges, VariableType's recording)."""
    return f"{arg_name}_size_"


@dataclass(frozen=True)
class ListSize:
    """A Tensor[] input whose length the node keeps: `grad_fn-><member> = <arg>.size();`."""

    arg: str
    member: str


@dataclass(frozen=True)
class GradSlots:
    """An input that gets gradients, and how many slots it takes: "1", or for a Tensor[] the
    member keeping its length (`list_size_member`)."""

    name: str
    size: str


@dataclass(frozen=True)
class DifferentiabilityInfo:
    """Everything known about how to differentiate one op (for one dispatch key)."""

    # The op's base name without overload: `max` for `max.dim`.
    name: str
    # The declaration the formulas are written against (the out-of-place one when it exists).
    func: NativeFunction
    # The Backward node's class name (`MaxBackward0`), or None when no input gets a gradient.
    op: Optional[str]
    # "Default", or the autograd dispatch key of a `dispatch:` section.
    dispatch_key: str
    derivatives: Tuple[Derivative, ...]
    forward_derivatives: Tuple[ForwardDerivative, ...]
    # Members of the node, deduplicated, in first-use order.
    all_saved_inputs: Tuple[SavedAttribute, ...]
    all_saved_outputs: Tuple[SavedAttribute, ...]
    # `grad_<name>` for every differentiable named tensor output; and those the formulas use.
    available_named_gradients: Tuple[str, ...]
    used_named_gradients: frozenset
    # The inputs that get a gradient, in argument order: the order of `apply()`'s outputs.
    args_with_derivatives: Tuple[Argument, ...]
    non_differentiable_arg_names: Tuple[str, ...]
    # One bool per output (None: all differentiable), or a single C++ condition.
    output_differentiability: Optional[Tuple[bool, ...]]
    output_differentiability_conditions: Optional[Tuple[str, ...]]
    # Where the entry is written.
    loc: Location
    # Whether a formula reads `grad` (the first output's gradient); then only the first output
    # is differentiable unless `output_differentiability` says otherwise.
    uses_grad: bool = False
    # Whether a formula reads `retain_variables` (the node then keeps that flag).
    uses_retain_variables: bool = False
    # The outputs that get history, as positions in `func.func.returns`.
    differentiable_outputs: Tuple[int, ...] = ()
    # The Tensor[] inputs with a gradient whose length the node keeps in a member of its own
    # (`list_size_member`), the ones whose formulas do not save that member already.
    list_size_members: Tuple[ListSize, ...] = ()
    # Saved members that `wrap_opt_if` keeps only on a condition: (member name, conditions), in
    # first-use order; the member is saved when any of its conditions holds.
    wrap_opt_if: Tuple[Tuple[str, Tuple[Condition, ...]], ...] = ()
    # Whether the op is a `_foreach_*` op: its formulas are per list element (`grads[i]`,
    # `self[i]`), and apply() runs each one for every element.
    foreach: bool = False

    @property
    def saved_member_names(self) -> List[str]:
        """Every member `apply()` reads, sorted: the manifest's `saved` list."""
        names = {s.member for s in self.all_saved_inputs + self.all_saved_outputs}
        names |= {slot.size for slot in self.grad_slots if slot.size != "1"}
        return sorted(names)

    @property
    def grad_slots(self) -> Tuple[GradSlots, ...]:
        """Each input that gets a gradient, in order, with how many slots it takes."""
        return tuple(
            GradSlots(a.name, list_size_member(a.name) if cpp.is_tensor_list(a.type) else "1")
            for a in self.args_with_derivatives
        )


def formula_output_names(func: FunctionSchema) -> List[str]:
    """What formulas call the outputs: the wrapper's names for them (names_of_returns), except
    that an in-place op's output (`self` there) is `result`, as in the out-of-place op."""
    return ["result" if n == "self" else n for n in func.names_of_returns()]


# ---------------------------------------------------------------------------------------------
# Passes over declarations and infos together
# ---------------------------------------------------------------------------------------------


def is_composite_implicit(f: NativeFunction, implicit: bool) -> bool:
    """Whether `f`'s kernel is built from differentiable ops (CompositeImplicitAutograd), so its
    gradient flows through them and it needs no formula. With `implicit` (PyTorch's rule), a
    declaration without `dispatch:` or `structured_delegate:` is one; gradgen's own specs say so
    explicitly with `dispatch: {CompositeImplicitAutograd: ...}`."""
    for key, _ in f.dispatch:
        if key == "CompositeImplicitAutograd" or key == "CompositeImplicitAutogradNestedTensor":
            return True
    return implicit and not f.has_dispatch_section and not f.structured_delegate


def match_infos(
    functions: Sequence[NativeFunction],
    infos: Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]],
) -> Dict[str, Optional[DifferentiabilityInfo]]:
    """The formulas each declaration uses (by its schema string): its own entry, else (for an
    in-place variant) the out-of-place op's entry with the same signature. Default dispatch only.
    An in-place `_foreach_*` op does not take its out-of-place op's (per-element) formulas: as in
    PyTorch, it would record a node per element, which gradgen's wrappers do not do."""
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
        if info is None and f.func.kind() is SchemaKind.inplace and not f.func.name.name.base.startswith("_foreach_"):
            candidates = by_base.get(f.func.name.name.base, [])
            if candidates:
                sig = f.func.signature()
                info = next((i for s, i in candidates if s.signature() == sig), None)
        out[key] = info
    return out


@dataclass(frozen=True)
class HookFacts:
    """What a wrapper hands the profiler and the tracer (VariableType.cpp's `hooks`)."""

    # Whether the profiler sees the op (no DONT_PROFILE) and whether the tracer records a node
    # for it (no DONT_RECORD_TRACE; otherwise its outputs are marked as untraced).
    profile: bool
    trace: bool
    # Every argument, by name, in schema order: the profiler records their shapes, the tracer
    # their values (tensors by identity, the others as constants) and replays the op with them.
    args: Tuple[str, ...]
    # The C++ type of a pointer to the API function (`Tensor (*)(const Tensor&, const Tensor&)`):
    # the tracer's replay calls exactly this overload.
    function_pointer_type: str
    # Whether the tracer takes the results: it records Tensors, Tensor[]s and tuples of Tensors;
    # an op returning other values (`-> int`, `-> (Tensor, int)`) is neither recorded nor marked.
    records_outputs: bool = True


def hook_facts(f: NativeFunction) -> HookFacts:
    """The profiler and tracer facts of declaration `f`'s wrapper."""
    func = f.func
    args = func.arguments.flat_all
    params = ", ".join([cpp.argument_type(a).spelling for a in args])
    recordable = all(
        (cpp.is_tensor(r.type) or cpp.is_tensor_list(r.type))
        and not isinstance(r.type, OptionalType)
        and not (isinstance(r.type, ListType) and isinstance(r.type.elem, OptionalType))
        for r in func.returns
    )
    if len(func.returns) > 1 and any(cpp.is_tensor_list(r.type) for r in func.returns):
        recordable = False  # a tuple holding a Tensor[]: flatten() takes Tensors only
    return HookFacts(
        profile=DONT_PROFILE not in f.flags,
        trace=DONT_RECORD_TRACE not in f.flags and recordable,
        records_outputs=recordable,
        args=tuple([a.name for a in args]),
        function_pointer_type=f"{cpp.returns_type(func).spelling} (*)({params})",
    )


class WrapperKind(enum.StrEnum):
    """The shape of a declaration's function in the differentiable API (VariableType.cpp prints
    each with its def `body_<value>`)."""

    # An out= variant: not differentiable, refuses inputs that require grad (as PyTorch).
    OUT = "out"
    # No gradient flows (DONT_REQUIRE_DERIVATIVE, no Tensor output, no differentiable input, a
    # composite kernel): calls the kernel.
    PLAIN = "plain"
    # A Tensor-returning op without formulas under missing_derivative=not_implemented: raises
    # when an input requires grad.
    NOT_IMPLEMENTED = "not_implemented"
    # Records a Backward node.
    DIFFERENTIABLE = "differentiable"


def wrapper_kind(
    f: NativeFunction,
    info: Optional[DifferentiabilityInfo],
    missing_derivative: str,
    composite: bool = False,
) -> WrapperKind:
    """Which wrapper declaration `f` gets, given its formulas `info` (from `match_infos`).

    `missing_derivative` says what a differentiable op without formulas gets: "error" (a spec
    error) or "not_implemented" (a wrapper that raises when asked for a gradient, PyTorch's way).
    `composite` marks a kernel built from differentiable ops, whose gradient flows through them.
    Raises SpecError for the coverage mistakes.
    """
    func = f.func
    if func.kind() in (SchemaKind.out, SchemaKind.scratch):
        return WrapperKind.OUT
    if info is None or info.op is None:
        tensor_outputs = [r for r in func.returns if r.type.is_tensor_like()]
        if DONT_REQUIRE_DERIVATIVE in f.flags or not tensor_outputs or info is not None or composite:
            return WrapperKind.PLAIN
        if missing_derivative == "error":
            raise SpecError(
                f"'{func.name}' returns a Tensor but has no derivative entry; add one to the "
                f"derivatives file, or flag it DONT_REQUIRE_DERIVATIVE if its outputs carry no gradient",
                f.loc,
            )
        return WrapperKind.NOT_IMPLEMENTED
    if DONT_REQUIRE_DERIVATIVE in f.flags:
        raise SpecError(
            f"'{func.name}' is flagged DONT_REQUIRE_DERIVATIVE but has derivative formulas; drop one of the two",
            f.loc,
        )
    if func.kind() is SchemaKind.functional and not any(r.type.is_tensor_like() for r in func.returns):
        # Nothing would carry the gradient back (the wrapper had no output to give history to).
        raise SpecError(
            f"the entry for {func.name} has formulas, but {func.name} returns no Tensor, so no gradient "
            "reaches them; flag it DONT_REQUIRE_DERIVATIVE and drop the entry, or return a Tensor",
            info.derivatives[0].loc if info.derivatives else info.loc,
        )
    return WrapperKind.DIFFERENTIABLE


def wrapper_kinds(
    functions: Sequence[NativeFunction],
    matched: Dict[str, Optional[DifferentiabilityInfo]],
    missing_derivative: str,
    implicit_composite: bool,
) -> List[WrapperKind]:
    """`wrapper_kind` of every declaration, in order: the coverage pass (first mistake raises)."""
    return [
        wrapper_kind(f, matched[str(f.func)], missing_derivative, is_composite_implicit(f, implicit_composite))
        for f in functions
    ]


# ---------------------------------------------------------------------------------------------
# Forward-mode AD: what each wrapper does with tangents (csrc/autograd/forward_ad.h)
# ---------------------------------------------------------------------------------------------


class TangentKind(enum.StrEnum):
    """How a wrapper holds an input's tangent."""

    TENSOR = "tensor"  # a Tensor
    OPTIONAL = "optional"  # a Tensor?: undefined when absent
    LIST = "list"  # a Tensor[]: a std::vector<Tensor>, one tangent per element


@dataclass(frozen=True)
class Tangent:
    """An input whose tangent a forward formula reads, as the local `<name>_t`."""

    name: str
    kind: TangentKind

    @property
    def local(self) -> str:
        return self.name + "_t"


@dataclass(frozen=True)
class ForwardFormula:
    """One output's tangent, as the wrapper computes it."""

    # The wrapper's local holding the output (`result`, `values`; `self` in place).
    output: str
    # Whether that output is a Tensor[] (the formula then gives a std::vector<Tensor>).
    output_is_list: bool
    # The C++ expression, rewritten for this wrapper: `<input>_p` -> the input, `result` (and the
    # other output names formulas use) -> the wrapper's local, in place `self_p` ->
    # `original_self_p` (self's value before the kernel ran).
    formula: str
    loc: Location


class ForwardADKind(enum.StrEnum):
    """What a wrapper does with tangents."""

    # Its outputs carry no tangent: a composite op, whose ops propagate them, or an op without
    # differentiable outputs.
    NONE = "none"
    FORMULAS = "formulas"  # computes its outputs' tangents
    NOT_IMPLEMENTED = "not_implemented"  # throws when an input has a tangent


@dataclass(frozen=True)
class ForwardAD:
    """What one wrapper does in forward mode (Note [Forward AD in wrappers])."""

    kind: ForwardADKind
    # The inputs whose tangents make the wrapper act, in argument order.
    inputs: Tuple[str, ...] = ()
    # NOT_IMPLEMENTED: why, for the message.
    reason: str = ""
    # FORMULAS: the tangents read (in argument order), whether self's value from before an
    # in-place kernel is kept (`original_self_p`), whether the op works in place (the tangent is
    # written into self's), and one formula per differentiable output.
    tangents: Tuple[Tangent, ...] = ()
    needs_original_self: bool = False
    # Whether a formula reads self's tangent from before the op (`original_self_t`, PyTorch's
    # in-place entries: elu_'s `self_t.copy_(elu_backward(original_self_t, ...))`).
    needs_original_self_t: bool = False
    inplace: bool = False
    formulas: Tuple[ForwardFormula, ...] = ()


def forward_ad_of(f: NativeFunction, info: Optional[DifferentiabilityInfo], kind: WrapperKind) -> ForwardAD:
    """The forward-mode behaviour of declaration `f`'s wrapper, given its formulas `info` (from
    `match_infos`: an in-place variant's are its out-of-place op's) and its wrapper `kind`.

    An op gets tangents computed when every differentiable output has a forward formula; an op
    with formulas for some outputs only, or none, throws "forward-mode AD not implemented" as soon
    as an input has a tangent (never a wrong tangent). out= variants throw too, and so does an op
    whose formula defines several outputs at once (PyTorch's tuple formulas), which gradgen does
    not generate.
    """
    func = f.func
    if kind is WrapperKind.OUT:
        # The outputs too: writing into a dual tensor would leave its tangent stale.
        tensors = tuple(a.name for a in func.arguments.flat_all if a.type.is_tensor_like())
        return ForwardAD(ForwardADKind.NOT_IMPLEMENTED, tensors, "out= variants do not support forward-mode AD")
    if kind is WrapperKind.NOT_IMPLEMENTED:
        tensors = tuple(a.name for a in func.arguments.tensor_args)
        return ForwardAD(ForwardADKind.NOT_IMPLEMENTED, tensors, "it has no derivative formulas")
    if kind is not WrapperKind.DIFFERENTIABLE:
        return ForwardAD(ForwardADKind.NONE)
    assert info is not None
    by_output = _forward_formulas_by_output(info)
    if isinstance(by_output, ForwardAD):
        return by_output
    diff_inputs = tuple(a.name for a in info.args_with_derivatives)
    read = {n for fw in by_output.values() for n in fw.required_inputs_fw_grad}
    needs_original_self_t = func.kind() is SchemaKind.inplace and any(
        uses("original_self_t", fw.formula) for fw in by_output.values()
    )
    if needs_original_self_t:
        read.add("self")  # original_self_t is a copy of self_t
    _check_no_local_is_hidden(f, read)
    arg_by_name = {a.name: a for a in func.arguments.flat_all}
    tangents = tuple(Tangent(name, _tangent_kind(arg_by_name[name].type)) for name in diff_inputs if name in read)
    needs_original_self, formulas = _wrapper_formulas(f, info, by_output)
    return ForwardAD(
        ForwardADKind.FORMULAS,
        diff_inputs,
        tangents=tangents,
        needs_original_self=needs_original_self,
        needs_original_self_t=needs_original_self_t,
        inplace=func.kind() is SchemaKind.inplace,
        formulas=formulas,
    )


def _tangent_kind(t: Type) -> TangentKind:
    if cpp.is_tensor_list(t):
        return TangentKind.LIST
    return TangentKind.OPTIONAL if isinstance(t, OptionalType) else TangentKind.TENSOR


def _forward_formulas_by_output(info: DifferentiabilityInfo) -> Union[Dict[str, ForwardDerivative], ForwardAD]:
    """The forward formula of each differentiable output, by the name formulas call it; or the
    refusal when an output has none or a formula defines several outputs at once."""
    diff_inputs = tuple(a.name for a in info.args_with_derivatives)
    by_output: Dict[str, ForwardDerivative] = {}
    for fw in info.forward_derivatives:
        if len(fw.var_names) != 1:
            # PyTorch's `sign, logabsdet: f(...)` returns a tuple; gradgen generates one formula per
            # output, so such an op refuses tangents rather than computing them wrongly.
            return ForwardAD(
                ForwardADKind.NOT_IMPLEMENTED,
                diff_inputs,
                f"its forward formula defines several outputs at once ({', '.join(fw.var_names)}), "
                "which gradgen does not generate",
            )
        by_output[fw.var_names[0]] = fw
    formula_names = formula_output_names(info.func.func)
    missing = [formula_names[i] for i in info.differentiable_outputs if formula_names[i] not in by_output]
    if not info.forward_derivatives or missing:
        what = "no forward formula" if not info.forward_derivatives else f"no forward formula for {', '.join(missing)}"
        return ForwardAD(ForwardADKind.NOT_IMPLEMENTED, diff_inputs, f"its derivatives.yaml entry has {what}")
    return by_output


def _check_no_local_is_hidden(f: NativeFunction, read: set) -> None:
    # The wrapper's own locals (templates/VariableType.cpp) must not hide an argument.
    own = {"fw_grad_defined", "formula_guard", "original_self_p", "original_self_t"} | {n + "_t" for n in read}
    for a in f.func.arguments.flat_all:
        if a.name in own:
            raise SpecError(
                f"the declaration of {f.func.name} has an argument named '{a.name}', a name the generated "
                "wrapper uses for its forward-mode code",
                f.loc,
            )


def _wrapper_formulas(
    f: NativeFunction, info: DifferentiabilityInfo, by_output: Dict[str, ForwardDerivative]
) -> Tuple[bool, Tuple[ForwardFormula, ...]]:
    """Each differentiable output's forward formula rewritten for `f`'s wrapper, and whether one
    reads self's value from before an in-place kernel (`original_self_p`)."""
    func = f.func
    diff_inputs = tuple(a.name for a in info.args_with_derivatives)
    formula_names = formula_output_names(info.func.func)
    inplace = func.kind() is SchemaKind.inplace
    locals_ = ["self"] if inplace else list(func.names_of_returns())
    needs_original_self = False
    formulas = []
    for i in info.differentiable_outputs:
        fw = by_output[formula_names[i]]
        text = fw.formula
        for name in diff_inputs:
            if inplace and name == "self" and (uses("self_p", text) or uses("original_self_p", text)):
                # PyTorch's in-place entries name it themselves (`polygamma_`'s
                # `self_t.mul_(polygamma(n + 1, original_self_p))`); others reuse the out-of-place
                # op's formula, whose `self_p` is self's value before the kernel.
                needs_original_self = True
                text = rename(text, {"self_p": "original_self_p"})
            else:
                text = rename(text, {name + "_p": name})
        for formula_name, local in zip(formula_names, locals_ if not inplace else ["self"] * len(formula_names)):
            if formula_name != local:
                text = rename(text, {formula_name: local})
        output = locals_[0] if inplace else locals_[i]
        formulas.append(ForwardFormula(output, cpp.is_tensor_list(func.returns[i].type), text, fw.loc))
    return needs_original_self, tuple(formulas)
