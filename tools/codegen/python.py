"""Translates op declarations into Python signatures, as PyTorch's Python bindings spell them.

This is the Python counterpart of cpp.py: one place answers "how is this argument passed from
Python, and how is it handed on to the C++ API". gen_python_functions.py only formats what is
computed here. The rules follow PyTorch's `gen_python_functions` / python_arg_parser:

  - every declaration whose variants include `function` is a function `gradgen.<name>`, and
    every one whose variants include `method` a method of `gradgen.Tensor` (its `self` is the
    object the method is called on);
  - declarations that share a Python name form one overloaded function: `add.Tensor`,
    `add.Scalar` and `add.out` are all `gradgen.add`, and the call picks the first overload
    whose parameters accept the arguments; `out=` variants take their outputs as the
    keyword-only `out` argument;
  - in a function, the argument `self` is called `input` (`gradgen.add(input, other)`);
  - schema defaults are Python defaults, arguments after `*` are keyword-only, `T?` accepts None,
    lists accept any sequence (an `int[N]` also a single int), `Scalar` an int, float or bool;
  - outputs the op writes to are returned as the very object passed in (`x.add_(y) is x`), tuple
    returns with names become named tuples (`gradgen.max(x, 0).values`), `Tensor[]` returns
    tuples.

The C++ types of the binding's parameters are those of csrc/python/casters.h's casters.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional, Sequence

from tools.codegen import cpp
from tools.codegen.model import Argument, BaseTy, BaseType, FunctionSchema, ListType, NativeFunction, OptionalType, Type

# Parameter types of the generated lambdas, by schema base type (no `?`, no list).
_BASE_PARAM_TYPES = {
    BaseTy.Tensor: "::gradgen::Tensor",
    BaseTy.int: "int64_t",
    BaseTy.SymInt: "int64_t",
    BaseTy.float: "double",
    BaseTy.bool: "bool",
    BaseTy.str: "std::string",
    BaseTy.Scalar: "::gradgen::Scalar",
    BaseTy.ScalarType: "::gradgen::ScalarType",
    BaseTy.Generator: "::gradgen::Generator",
    BaseTy.Layout: "::gradgen::Layout",
    BaseTy.Device: "::gradgen::Device",
    BaseTy.MemoryFormat: "::gradgen::MemoryFormat",
}

_INT_LIST = "::gradgen::python::IntList"

# Defaults naming enum values, as Python objects made from their C++ value.
_ENUM_DEFAULTS = {
    "contiguous_format": "::gradgen::MemoryFormat::Contiguous",
    "preserve_format": "::gradgen::MemoryFormat::Preserve",
    "strided": "::gradgen::Layout::Strided",
}

# `ScalarType? dtype=long`: dtype defaults by their schema names.
_SCALAR_TYPE_DEFAULTS = {
    "float": "::gradgen::ScalarType::Float",
    "double": "::gradgen::ScalarType::Double",
    "long": "::gradgen::ScalarType::Long",
    "bool": "::gradgen::ScalarType::Bool",
}

# `int reduction=Mean`: the values of ATen's Reduction enum, which Python passes as ints.
_REDUCTION_DEFAULTS = {"None_": 0, "Mean": 1, "Sum": 2}


# The most parameters a binding has. nanobind instantiates templates per parameter, nested, and
# g++ stops at its template depth (900) near 475 Tensor parameters; 300 compile (in minutes).
# A wider declaration keeps its C++ API and gets no Python binding (a comment says why).
MAX_PARAMETERS = 256


class Unbindable(Exception):
    """A declaration Python cannot call: the message says which argument or return, and why."""


@dataclass(frozen=True)
class PyParam:
    """One parameter of a binding: its Python name and how the C++ lambda receives it."""

    # The Python name: `input` for a function's `self`, else the schema's name.
    name: str
    # The lambda's parameter type: `const ::gradgen::Tensor&`, `std::optional<int64_t>`.
    cpp_type: str
    # Whether None is accepted (the schema type is optional).
    nullable: bool
    # The default as a C++ expression making a Python object (`nanobind::int_(1)`), or None.
    default: Optional[str]
    # Whether it comes after `*`.
    kwarg_only: bool


class Variant(enum.StrEnum):
    """How Python calls a declaration: `variants:` in native_functions.yaml."""

    FUNCTION = "function"  # of the module: gradgen.add(x, y)
    METHOD = "method"  # of gradgen.Tensor: x.add(y)


class ReturnKind(enum.StrEnum):
    """How a binding's lambda hands the C++ API's result to Python."""

    VOID = "void"
    VALUE = "value"  # the result converted as is
    SELF = "self"  # the Python object of an argument the op wrote to
    TUPLE = "tuple"  # a Tensor[] as a tuple
    NAMED_TUPLE = "named_tuple"
    # The objects passed as `out=(a, b)`, as a named tuple when `fields` are given, else a tuple.
    OUTS = "outs"


@dataclass(frozen=True)
class PyReturn:
    """How the lambda returns the C++ API's result."""

    kind: ReturnKind
    # For "self": the local variable holding that argument.
    argument: Optional[str] = None
    # For "named_tuple" (and "outs" with names): the field names, in order.
    fields: tuple[str, ...] = ()
    # For "outs": how many.
    count: int = 0


@dataclass(frozen=True)
class PyOverload:
    """One overload of a Python function or method: one declaration, seen from Python."""

    # The declaration's schema, as written: the overload's docstring.
    schema: str
    # The operator with its overload, for messages: `max.dim_max`.
    op_name: str
    # The Python-visible parameters, in Python order (a method's `self` excluded).
    params: tuple[PyParam, ...]
    # For a method, the lambda's first parameter (the object itself): `::gradgen::Tensor& self`.
    self_param: Optional[str]
    # The C++ API call's arguments, in schema order, as expressions of the lambda's parameters.
    call_args: tuple[str, ...]
    # Whether PyTorch takes its sizes as varargs (`view(2, 3)`, see conventions()).
    varargs_int_list: bool
    # Where the call tries it among its name's overloads (see group()): (how many positional
    # arguments are Scalars, whether it is an out= variant).
    order: tuple[int, int]
    # The C++ API function, unqualified: `add`, `add_`, `add_out`.
    cpp_name: str
    # What the lambda returns.
    returns: PyReturn


@dataclass(frozen=True)
class PyGroup:
    """Every overload of one Python name, in the order a call tries them."""

    # `add`, `add_`, `max`.
    name: str
    # A function of the module or a method of gradgen.Tensor.
    kind: Variant
    overloads: tuple[PyOverload, ...]
    # The named tuple type its overloads return, if any: (type name, fields).
    named_tuple: Optional[tuple[str, tuple[str, ...]]]
    # PyTorch's calling conventions nanobind lacks, as conventions.h's Conventions flags (`kAxisAlias`,
    # ...): see conventions().
    conventions: tuple[str, ...] = ()
    # The named tuple type its out= overloads return (`out=(a, b)`), if any: PyTorch's
    # `<name>_out` (torch.return_types.max_out), with the same fields.
    out_named_tuple: Optional[tuple[str, tuple[str, ...]]] = None


def python_name(func: FunctionSchema) -> str:
    """The Python name: the operator name without overload (`add_`, `__iand__`,
    `foo_functional`); out= variants share the name of their functional op."""
    return str(func.name.name)


def _elem_param_type(t: Type, what: str) -> str:
    if isinstance(t, BaseType):
        if t.name in _BASE_PARAM_TYPES:
            return _BASE_PARAM_TYPES[t.name]
        raise Unbindable(f"{what} has type {t}, which has no Python conversion")
    if isinstance(t, ListType):
        elem = t.elem
        if isinstance(elem, BaseType) and elem.name in (BaseTy.int, BaseTy.SymInt):
            return _INT_LIST
        if isinstance(elem, BaseType) and elem.name is BaseTy.bool and t.size is not None:
            return f"std::array<bool, {t.size}>"
        if isinstance(elem, BaseType) and elem.name in (BaseTy.Tensor, BaseTy.float, BaseTy.Scalar):
            return f"std::vector<{_BASE_PARAM_TYPES[elem.name]}>"
        if isinstance(elem, OptionalType) and cpp.is_tensor(elem):
            return "std::vector<std::optional<::gradgen::Tensor>>"
    raise Unbindable(f"{what} has type {t}, which has no Python conversion")


def _param_type(a: Argument, what: str, numbers_as_tensors: bool = False) -> str:
    t = a.type
    if isinstance(t, OptionalType):
        return f"std::optional<{_elem_param_type(t.elem, what)}>"
    ty = _elem_param_type(t, what)
    if isinstance(t, BaseType) and t.name is BaseTy.Tensor:
        if a.is_write:
            return "::gradgen::Tensor&"
        return "const ::gradgen::python::TensorOrNumber&" if numbers_as_tensors else "const ::gradgen::Tensor&"
    return ty


def _call_arg(a: Argument, local: str) -> str:
    """The C++ API argument made of the lambda's parameter `local`."""
    t = a.type
    if isinstance(t, OptionalType) and isinstance(t.elem, ListType) and _elem_param_type(t.elem, "") == _INT_LIST:
        return f"::gradgen::python::to_optional_ref({local})"
    if isinstance(t, OptionalType) and isinstance(t.elem, BaseType) and t.elem.name is BaseTy.str:
        return f"::gradgen::python::optional_string_view({local})"
    return local


def _default(a: Argument) -> Optional[str]:
    """The schema default as a C++ expression that makes the Python object."""
    d = a.default
    if d is None:
        return None
    if d == "None":
        return "nanobind::none()"
    if d in ("True", "False"):
        return f"nanobind::bool_({d.lower()})"
    if d in _REDUCTION_DEFAULTS:
        return f"nanobind::int_({_REDUCTION_DEFAULTS[d]})"
    if d in _ENUM_DEFAULTS:
        return f"nanobind::cast({_ENUM_DEFAULTS[d]})"
    if a.type.is_base_ty_like(BaseTy.ScalarType) and d in _SCALAR_TYPE_DEFAULTS:
        return f"nanobind::cast({_SCALAR_TYPE_DEFAULTS[d]})"
    if d[:1] == '"':
        return f"nanobind::str({d})"  # a double-quoted schema string is a valid C++ literal
    if d[:1] == "'":
        return 'nanobind::str("' + d[1:-1].replace('"', '\\"') + '")'
    if d.startswith("[") and d.endswith("]"):
        items = [x.strip() for x in d[1:-1].split(",") if x.strip()]
        return "nanobind::make_tuple(" + ", ".join(_list_item(x, a) for x in items) + ")"
    return _number(d, a)


def _list_item(text: str, a: Argument) -> str:
    """An element of a list default: `True` of `bool[3] mask=[True, False, True]`, or a number."""
    if text in ("True", "False"):
        return f"nanobind::bool_({text.lower()})"
    return _number(text, a)


def _number(text: str, a: Argument) -> str:
    try:
        int(text)
        is_int = True
    except ValueError:
        is_int = False
    t = a.type.elem if isinstance(a.type, OptionalType) else a.type
    if isinstance(t, BaseType) and t.name is BaseTy.float:
        is_int = False
    if is_int:
        return f"nanobind::int_({text})"
    try:
        float(text)
    except ValueError:
        raise Unbindable(f"default {a.name}={text} has no Python spelling") from None
    literal = text if any(c in text for c in ".eE") or "inf" in text or "nan" in text else text + ".0"
    if literal in ("inf", "-inf", "nan"):
        literal = {"inf": "INFINITY", "-inf": "-INFINITY", "nan": "NAN"}[literal]
    return f"nanobind::float_({literal})"


def _returns(func: FunctionSchema, locals_by_arg: dict[str, str]) -> PyReturn:
    rets = func.returns
    if not rets:
        return PyReturn(ReturnKind.VOID)
    written = [r for r in rets if r.is_write]
    if written and len(func.arguments.out) > 1:
        if len(written) != len(rets) or len(rets) != len(func.arguments.out):
            raise Unbindable("its returns are not exactly its out arguments")
        names = tuple(r.name for r in rets) if all(r.name for r in rets) else ()
        return PyReturn(ReturnKind.OUTS, fields=names, count=len(rets))
    if written:
        if len(rets) != 1:
            raise Unbindable("it returns several outputs it writes to, which Python bindings do not support yet")
        target = next(
            (a for a in func.arguments.flat_all if a.annotation is not None and a.annotation == rets[0].annotation),
            None,
        )
        if target is None or not cpp.is_tensor(target.type):
            raise Unbindable("its written return matches no Tensor argument")
        return PyReturn(ReturnKind.SELF, argument=locals_by_arg[target.name])
    for r in rets:
        if r.type.is_tensor_like() and not (cpp.is_tensor(r.type) or cpp.is_tensor_list(r.type)):
            raise Unbindable(f"return type {r.type} has no Python conversion")
    if len(rets) == 1:
        return PyReturn(ReturnKind.TUPLE if cpp.is_tensor_list(rets[0].type) else ReturnKind.VALUE)
    if any(cpp.is_tensor_list(r.type) for r in rets):
        raise Unbindable("it returns a Tensor[] inside a tuple, which Python bindings do not support yet")
    if all(r.name for r in rets):
        return PyReturn(ReturnKind.NAMED_TUPLE, fields=tuple(r.name for r in rets))
    return PyReturn(ReturnKind.VALUE)


# The ops whose Tensor arguments also take a Python number, made a wrapped number (PyTorch's
# python_arg_parser, should_allow_numbers_as_tensors): `x.mul(2)` and `gradgen.add(2, x)` are
# mul.Tensor and add.Tensor, as in torch (the Tensor overloads are tried first, see group()).
# add.Scalar and the like stay bound for what only they accept: `x.add(1, 2)` (alpha by
# position, which torch accepts as a deprecated signature). By the operator's name without `_`.
NUMBERS_AS_TENSORS = frozenset(
    {"add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide", "copy"}
)


def overload(func: FunctionSchema, cpp_name: str, kind: Variant) -> PyOverload:
    """The binding of `func` as a function or a method. Raises Unbindable when Python cannot call it."""
    args = func.arguments
    is_method = Variant(kind) is Variant.METHOD
    if is_method and (
        args.self_arg is None or not cpp.is_tensor(args.self_arg.type) or isinstance(args.self_arg.type, OptionalType)
    ):
        raise Unbindable("a method needs a `Tensor self` argument")
    arg_names = {a.name for a in args.flat_all}
    params: list[PyParam] = []
    locals_by_arg: dict[str, str] = {}
    self_param = None
    several_outs = len(args.out) > 1
    numbers_as_tensors = func.name.name.base in NUMBERS_AS_TENSORS
    # By name (unique in a schema): a tuple's `in` compares dataclasses field by field.
    positional_names = {a.name for a in args.positional}
    out_names = {a.name for a in args.out}
    for a in args.flat_all:
        what = f"argument '{a.name}'"
        if several_outs and a.name in out_names:
            continue
        if is_method and a is args.self_arg:
            self_param = f"{_param_type(a, what)} self"
            locals_by_arg[a.name] = "self"
            continue
        pyname = a.name
        if a.name == "self" and "input" not in arg_names:
            pyname = "input"
        kwarg_only = a.name not in positional_names
        param_type = _param_type(a, what, numbers_as_tensors)
        params.append(PyParam(pyname, param_type, isinstance(a.type, OptionalType), _default(a), kwarg_only))
        locals_by_arg[a.name] = pyname
    if several_outs:
        # `out=(a, b)`: pointers to the Tensors inside the Python objects, so that the op writes
        # into them and the result is those very objects.
        if not all(cpp.is_tensor(a.type) and not isinstance(a.type, OptionalType) for a in args.out):
            raise Unbindable("its out arguments are not all Tensors")
        params.append(PyParam("out", "std::vector<::gradgen::Tensor*>", False, None, True))
        for i, a in enumerate(args.out):
            locals_by_arg[a.name] = f"*out[{i}]"
    if len(params) + (self_param is not None) > MAX_PARAMETERS:
        raise Unbindable(
            f"it has {len(params) + (self_param is not None)} parameters; a Python binding has at most "
            f"{MAX_PARAMETERS} (nanobind's templates nest once per parameter)"
        )
    call_args = tuple(_call_arg(a, locals_by_arg[a.name]) for a in args.flat_all)
    scalars = sum(1 for a in args.positional if a.type.is_base_ty_like(BaseTy.Scalar))
    order = (scalars, 1 if func.is_out_fn() else 0)
    returns = _returns(func, locals_by_arg)
    positional = [a for a in args.positional if not (is_method and a is args.self_arg)]
    varargs = len(positional) == 1 and _is_unsized_int_list(positional[0].type)
    return PyOverload(
        str(func), str(func.name), tuple(params), self_param, call_args, varargs, order, cpp_name, returns
    )


def _is_unsized_int_list(t: Type) -> bool:
    if isinstance(t, OptionalType):
        t = t.elem
    return (
        isinstance(t, ListType)
        and t.size is None
        and isinstance(t.elem, BaseType)
        and t.elem.name in (BaseTy.int, BaseTy.SymInt)
    )


def conventions(overloads: tuple[PyOverload, ...]) -> tuple[str, ...]:
    """PyTorch's python_arg_parser conventions a name's overloads take, which nanobind's matching
    lacks (csrc/python/conventions.cc implements them, apply_conventions):

      - `kAxisAlias` / `kKeepdimsAlias`: NumPy's `axis=` for a parameter `dim`, `keepdims=` for
        `keepdim` (`x.sum(axis=1, keepdims=True)`), wherever an overload has one;
      - `kVarargsIntList`: sizes as varargs (`x.view(2, 3)`, `x.permute(2, 0, 1)`) where an
        overload's only positional parameter (a method's self aside) is an `int[]`. As PyTorch's
        calls show, a sized list (`int[1]? dim` of std) does not take varargs: `x.std(0, 1)` is
        refused by PyTorch too;
      - `kRequiresGrad`: `requires_grad=` (a bool set on the result) for a factory, an overload
        taking TensorOptions (`dtype`, `layout`, `device`, `pin_memory`), as PyTorch's parser
        adds it to every such op (`gradgen.arange(3., requires_grad=True)`).
    """
    names = {p.name for o in overloads for p in o.params}
    flags = []
    if "dim" in names:
        flags.append("kAxisAlias")
    if "keepdim" in names:
        flags.append("kKeepdimsAlias")
    if any(o.varargs_int_list for o in overloads):
        flags.append("kVarargsIntList")
    if any({"dtype", "layout", "device", "pin_memory"} <= {p.name for p in o.params} for o in overloads):
        if "requires_grad" not in names:
            flags.append("kRequiresGrad")
    return tuple(flags)


def group(name: str, kind: Variant, overloads: list[PyOverload]) -> PyGroup:
    """The overloads of one Python name, in the order they are tried, with their named tuple."""
    # Those taking Tensors where others take Scalars first (PyTorch tries `add(Tensor, Tensor)`
    # before `add(Tensor, Scalar)`), out= variants last; file order among equals (a stable sort).
    ordered = tuple(sorted(overloads, key=lambda o: o.order))
    fields = {
        o.returns.fields
        for o in ordered
        if o.returns.kind in (ReturnKind.NAMED_TUPLE, ReturnKind.OUTS) and o.returns.fields
    }
    named_tuple = out_named_tuple = None
    if fields:
        if len(fields) > 1:
            raise Unbindable(f"the overloads of '{name}' return named tuples with different fields")
        kinds = {o.returns.kind for o in ordered if o.returns.fields}
        if ReturnKind.NAMED_TUPLE in kinds:
            named_tuple = (name, next(iter(fields)))
        if ReturnKind.OUTS in kinds:
            out_named_tuple = (name + "_out", next(iter(fields)))
    return PyGroup(name, Variant(kind), ordered, named_tuple, conventions(ordered), out_named_tuple)


@dataclass(frozen=True)
class Skipped:
    """A declaration Python cannot call, with the reason, printed as a comment."""

    schema: str
    reason: str


@dataclass(frozen=True)
class Bindings:
    """A spec's Python API, as planned: each group of overloads with the base name of its op (the
    shard key), in the order of the declarations file, and the declarations left unbound."""

    groups: tuple[tuple[str, PyGroup], ...]
    skipped: tuple[tuple[str, Skipped], ...]


def bindings(
    functions: Sequence[NativeFunction],
) -> Bindings:
    """Every Python function and method of `functions`, and the declarations Python cannot call."""
    overloads: dict[tuple[str, Variant], list[PyOverload]] = {}
    base_of: dict[tuple[str, Variant], str] = {}
    skipped: list[tuple[str, Skipped]] = []
    for f in functions:
        base = f.func.name.name.base
        for kind in Variant:
            if kind not in f.variants:
                continue
            if kind is Variant.METHOD and f.func.is_out_fn():
                continue  # out= variants are functions only (`gradgen.add(x, y, out=z)`)
            try:
                o = overload(f.func, f.func.cpp_name(), kind)
            except Unbindable as e:
                skipped.append((base, Skipped(str(f.func), f"as a {kind}: {e}")))
                continue
            key = (python_name(f.func), kind)
            overloads.setdefault(key, []).append(o)
            base_of.setdefault(key, base)
    groups: list[tuple[str, PyGroup]] = []
    for (name, kind), os_ in overloads.items():
        try:
            groups.append((base_of[(name, kind)], group(name, kind, os_)))
        except Unbindable as e:
            for o in os_:
                skipped.append((base_of[(name, kind)], Skipped(o.schema, f"as a {kind}: {e}")))
    return Bindings(tuple(groups), tuple(skipped))
