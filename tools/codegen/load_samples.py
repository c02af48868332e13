"""Loads a samples file (docs/samples.md) and plans the generated gradient test of a library.

A samples file lists, for declarations of the library's native_functions.yaml named by full name
(`polyval`, `add.Tensor`), the inputs the generated `<name>_gradcheck_test` runs each check on:

  - op: polyval
    skip_checks: {gradgradcheck: "the formula helpers loop over float64 data"}
    samples:
      - args: {coeffs: [4], x: [4]}                    # a Tensor[] given one shape: lengths 1, 2, 3
      - args:
          coeffs: [[2, 3], [2, 3]]                     # a list of shapes: exactly these
          x: {shape: [2, 3], domain: positive, requires_grad: false}

The loader checks the file against the declarations and the analysis (names, arguments, shapes,
values, which declarations have formulas) and returns a `TestPlan`: every sample expanded into
the concrete cases the test runs, each with its tensors (shape, dtype, domain, requires_grad),
the C++ expressions of its other arguments and the checks it gets. The emitter
(gen_gradcheck_test.py) only formats that plan. A mistake is a SpecError at its line and column.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from tools.codegen import cpp
from tools.codegen.autograd_info import DifferentiabilityInfo, ForwardADKind, WrapperKind, forward_ad_of
from tools.codegen.errors import Location, SpecError
from tools.codegen.model import Argument, BaseTy, BaseType, ListType, NativeFunction, OptionalType, SchemaKind, Type
from tools.codegen.yaml_loader import Node, Seq, load_yaml

if TYPE_CHECKING:
    from tools.codegen import python

__all__ = ["CHECKS", "Layout", "TensorInput", "CaseArg", "Case", "OpPlan", "TestPlan", "plan_samples"]

# The checks a case can get; `skip_checks` names them. gradcheck is every case's (skip the case
# with `skip:` instead); the others apply where the declaration has what they check.
CHECKS = ("gradgradcheck", "fwgradcheck", "hvpcheck", "inplace", "out", "history")
_DTYPES = {"float64": "Double", "float32": "Float", "int64": "Long", "bool": "Bool"}
# MemoryFormat values, by their Python names (clone's `memory_format: contiguous_format`).
_MEMORY_FORMATS = {"contiguous_format": "Contiguous", "preserve_format": "Preserve"}
_DOMAINS = ("positive", "nonzero", "distinct")
_OP_KEYS = ("op", "samples", "skip", "skip_checks", "nondeterministic")
_SAMPLE_KEYS = ("args", "dtype", "skip", "skip_checks", "atol", "rtol", "nondeterministic")
_TENSOR_KEYS = ("shape", "shapes", "lengths", "dtype", "domain", "requires_grad", "layout")
# A Tensor[] given one shape is checked with these lengths: the slots of a Tensor after the list
# move with the length (x is slot 1, 2, 3 of polyval's node for 1, 2, 3 coefficients).
DEFAULT_LENGTHS = (1, 2, 3)
MAX_NUMEL = 4096
# A float32 case (a float32 tensor that requires grad: the op gets a float32 copy of a float64
# leaf) takes op_info.cc's in_float32 step and tolerances: float32 rounding (about 6e-8 relative)
# divided by a step of 1e-6 would swamp the derivative.
FLOAT32_EPS = 1e-3
FLOAT32_ATOL = 1e-3
FLOAT32_RTOL = 1e-2


class Layout(enum.StrEnum):
    """How a sample tensor lies in memory (`layout:`): the op gets a tensor of the sample's shape
    and values whose strides are those of a view."""

    CONTIGUOUS = "contiguous"
    # The last two dims swapped in storage (x.mT of a contiguous tensor): strides [..., 1, m].
    TRANSPOSED = "transposed"
    # Every other element of a buffer twice as long in the last dim: stride 2 there.
    STRIDED = "strided"
    # Stride 0 in dim 0: one slice of shape[1:] seen shape[0] times (x.expand(shape)).
    EXPANDED = "expanded"


# Per layout, what the shape needs for the view to be non-contiguous at all: the least rank, and
# the dims that must have at least 2 elements (a size-1 dim's stride is arbitrary).
_LAYOUT_NEEDS = {
    Layout.TRANSPOSED: (2, (-2, -1), "swaps the last two dims in storage"),
    Layout.STRIDED: (1, (-1,), "takes every other element of the last dim of a buffer twice as long"),
    Layout.EXPANDED: (1, (0,), "broadcasts dim 0 with stride 0 (one slice repeated)"),
}


@dataclass(frozen=True)
class TensorInput:
    """One tensor the test makes: `coeffs[1]` of shape [4], float64, uniform in [lo, hi]."""

    # How messages name it: "x", "coeffs[1]".
    label: str
    shape: Tuple[int, ...]
    # The runtime's ScalarType of the tensor the runner makes: "Double", "Float", "Long", "Bool".
    dtype: str
    # "default" (normal), "positive", "nonzero", "distinct" or "range" (uniform in [lo, hi]).
    domain: str
    lo: float
    hi: float
    requires_grad: bool
    # How it lies in memory (the runner makes it so; an expanded one is checked on a contiguous
    # copy by the derivative checks, whose finite differences cannot perturb shared memory).
    layout: Layout = Layout.CONTIGUOUS
    # A float64 leaf the op receives as float32 (`dtype: float32` with requires_grad): the call
    # converts it (differentiably), and the case's outputs back to float64.
    as_float32: bool = False


class ArgKind(enum.StrEnum):
    """How a case passes an argument: tensors taken from the case's inputs, or a C++ value."""

    TENSOR = "tensor"
    OPTIONAL_TENSOR = "optional_tensor"
    TENSOR_LIST = "tensor_list"  # `count` inputs from `first`
    OPTIONAL_TENSOR_LIST = "optional_tensor_list"  # Tensor?[]: `entries`, an input each or None
    VALUE = "value"


class ResultKind(enum.StrEnum):
    """How an op's result becomes the test's std::vector<Tensor>."""

    TENSOR = "tensor"
    TUPLE = "tuple"
    LIST = "list"


@dataclass(frozen=True)
class CaseArg:
    """One argument of a case's call: tensors taken from the inputs, or a C++ value."""

    name: str
    kind: ArgKind
    first: int = 0
    count: int = 0
    # For VALUE (and an absent Tensor?: "std::nullopt"): the C++ expression.
    cpp: str = ""
    # For VALUE: the Python expression of the value the sample gives, or None when the sample
    # leaves the argument at its default (the Python call then omits it: the binding's default
    # is what is checked). An absent Tensor? is omitted too.
    py: Optional[str] = None
    # The Python parameter's name (`input` for a function's `self`), and whether it is keyword-only.
    py_name: str = ""
    kwarg_only: bool = False
    # For OPTIONAL_TENSOR_LIST: per element, its input's index, or None for a null element.
    entries: Tuple[Optional[int], ...] = ()


@dataclass(frozen=True)
class Case:
    """One run of the checks: a sample with its Tensor[] lengths fixed."""

    # The sample's 1-based number in its op's list, as messages say it: "polyval sample 2".
    sample: int
    # The inputs, as messages show them: "coeffs: 3 x [4], x: [4]".
    label: str
    inputs: Tuple[TensorInput, ...]
    args: Tuple[CaseArg, ...]
    # The checks it gets besides gradcheck, from CHECKS.
    checks: Tuple[str, ...]
    # Why it is skipped (it is listed, not run), or "".
    skip: str
    atol: float
    rtol: float
    # How far two backward passes may differ (`nondeterministic:`); 0.0: not at all.
    nondet_tol: float = 0.0
    # The finite differences' step: 1e-6, FLOAT32_EPS for a float32 case.
    eps: float = 1e-6

    @property
    def float32(self) -> bool:
        """Whether an input reaches the op as float32 from a float64 leaf (outputs go back to float64)."""
        return any(i.as_float32 for i in self.inputs)


@dataclass(frozen=True)
class OpPlan:
    """A declaration with formulas and what its generated test does."""

    # "add.Tensor"
    op_name: str
    # The C++ API function: "add"; its in-place variant's ("add_") and out= variant's ("add_out").
    cpp_name: str
    inplace_cpp_name: Optional[str]
    out_cpp_name: Optional[str]
    # How many out tensors the out= variant takes (one per return).
    returns: int
    result_kind: ResultKind
    # Per return, whether it is differentiable (output_differentiability; all True by default).
    differentiable_outputs: Tuple[bool, ...]
    has_forward_formula: bool
    cases: Tuple[Case, ...]
    # Why the whole op is skipped, or "".
    skip: str
    # How Python calls it (python.py's bindings): the module function's name, or else the
    # gradgen.Tensor method's (None: not bound that way); the in-place variant's name, if bound,
    # and whether it is a method (`x.add_(y)`) or else a function (`lib.add_(x, y)`); whether the
    # function takes `out=`.
    py_function: Optional[str] = None
    py_method: Optional[str] = None
    py_inplace: Optional[str] = None
    py_inplace_is_method: bool = True
    py_out: bool = False
    # The keyword the out= form takes: the out argument's name (`out`, `grad_input`), or `out`
    # (a tuple) for several.
    py_out_name: str = "out"
    # The declarations of its in-place and out= variants that its cases check ("add_.Tensor",
    # "add.out"), or None: what the samples cover besides op_name (samples_coverage.py).
    inplace_declaration: Optional[str] = None
    out_declaration: Optional[str] = None


def covered_declarations(plan: "TestPlan") -> List[str]:
    """The declarations the plan's cases check: each op with cases (not skipped as a whole), and
    the in-place and out= variants its cases run, in the samples file's order."""
    return list(covering_entries(plan))


def covering_entries(plan: "TestPlan") -> Dict[str, str]:
    """covered_declarations, each mapped to the op of the entry whose cases check it (the
    generated test's messages name that op: `add.Tensor` for `add_.Tensor`)."""
    names: Dict[str, str] = {}
    for op in plan.ops:
        if op.skip or not op.cases:
            continue
        names[op.op_name] = op.op_name
        for variant in (op.inplace_declaration, op.out_declaration):
            if variant is not None:
                names[variant] = op.op_name
    return names


@dataclass(frozen=True)
class TestPlan:
    """Everything the generated test does, in the samples file's order."""

    samples_file: str
    ops: Tuple[OpPlan, ...]
    # Declarations with formulas and no entry in the samples file (the test fails naming them
    # when samples are required).
    missing: Tuple[str, ...]
    require_samples: bool


def _fail(message: str, loc: Location) -> SpecError:
    return SpecError(message, loc)


def _keys(node: Node, allowed: Sequence[str], what: str) -> None:
    for key in node:
        if key not in allowed:
            raise _fail(f"unknown key {key!r} in {what}; expected one of: {', '.join(allowed)}", node.key_loc(key))


def _reason(value: Any, loc: Location, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(f"{key}: expected the reason, a non-empty string, got {value!r}", loc)
    return value.strip()


def _skip_checks(value: Any, loc: Location) -> Dict[str, str]:
    if not isinstance(value, Node):
        raise _fail("skip_checks: expected a mapping from a check's name to the reason it is skipped", loc)
    for key in value:
        if key not in CHECKS:
            raise _fail(f"skip_checks: unknown check {key!r}; expected one of: {', '.join(CHECKS)}", value.key_loc(key))
        _reason(value[key], value.value_loc(key), f"skip_checks: {key}")
    return dict(value)


def _is_shape(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(d, int) and not isinstance(d, bool) for d in value)


def _shape(value: Any, loc: Location, what: str) -> Tuple[int, ...]:
    if not _is_shape(value):
        raise _fail(
            f"{what}: expected a shape, a list of sizes such as [2, 3] ([] for a 0-dim tensor), got {value!r}", loc
        )
    if any(d < 0 for d in value):
        raise _fail(f"{what}: sizes must not be negative, got {list(value)}", loc)
    if math.prod(value) > MAX_NUMEL:
        raise _fail(
            f"{what}: {list(value)} has {math.prod(value)} elements; finite differences take two calls per "
            f"element, keep samples at most {MAX_NUMEL}",
            loc,
        )
    return tuple(value)


def _domain(value: Any, loc: Location, what: str) -> Tuple[str, float, float]:
    if value is None:
        return "default", 0.0, 0.0
    if isinstance(value, str) and value in _DOMAINS:
        return value, 0.0, 0.0
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        and value[0] < value[1]
    ):
        return "range", float(value[0]), float(value[1])
    raise _fail(f"{what}: domain: expected positive, nonzero, distinct or [lo, hi] with lo < hi, got {value!r}", loc)


def _dtype(value: Any, loc: Location, what: str) -> str:
    if value not in _DTYPES:
        raise _fail(f"{what}: dtype: expected one of {', '.join(_DTYPES)}, got {value!r}", loc)
    return _DTYPES[value]


@dataclass(frozen=True)
class _TensorSpec:
    """A Tensor / Tensor[] argument of a sample, before its lengths are expanded."""

    shapes: Tuple[Tuple[int, ...], ...]  # for a list with `lengths`: the one shape
    lengths: Optional[Tuple[int, ...]]  # None: exactly `shapes`
    dtype: str
    domain: Tuple[str, float, float]
    requires_grad: Tuple[bool, ...]  # one per shape, or one for all
    layout: Layout = Layout.CONTIGUOUS


def _layout(value: Any, loc: Location, what: str, shapes: Sequence[Tuple[int, ...]]) -> Layout:
    """Reads `layout:` and checks that every shape it applies to can have it."""
    names = [m.value for m in Layout]
    if not isinstance(value, str) or value not in names:
        raise _fail(f"{what}: layout: expected one of {', '.join(names)}, got {value!r}", loc)
    layout = Layout(value)
    if layout is Layout.CONTIGUOUS:
        return layout
    rank, dims, does = _LAYOUT_NEEDS[layout]
    for shape in shapes:
        if len(shape) < rank:
            raise _fail(
                f"{what}: layout {layout.value} {does}: it needs a tensor of rank {rank} or more, "
                f"got {_shape_label(shape)} (rank {len(shape)})",
                loc,
            )
        small = [d % len(shape) for d in dims if shape[d] < 2]
        if small:
            raise _fail(
                f"{what}: layout {layout.value} {does}, so dim {small[0]} needs 2 or more elements "
                f"(else the tensor is contiguous all the same), got {_shape_label(shape)}",
                loc,
            )
    return layout


def _tensor_spec(value: Any, loc: Location, name: str, is_list: bool, default_dtype: str) -> _TensorSpec:
    """Reads a Tensor (is_list False) or Tensor[] argument's value."""
    what = f"argument {name!r}"
    fields: Dict[str, Any] = {}
    locs: Dict[str, Location] = {}
    if isinstance(value, Node):
        _keys(value, _TENSOR_KEYS, f"the tensor argument {name!r}")
        fields = dict(value)
        locs = {k: value.value_loc(k) for k in value}
    elif is_list and isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        fields = {"shapes": value}
        locs = {"shapes": loc}
    else:
        fields = {"shape": value}
        locs = {"shape": loc}
    dtype = _dtype(fields["dtype"], locs["dtype"], what) if "dtype" in fields else default_dtype
    domain = _domain(fields.get("domain"), locs.get("domain", loc), what)
    if not is_list:
        for key in ("shapes", "lengths"):
            if key in fields:
                raise _fail(f"{what} is a Tensor: give `shape`, not `{key}` (that is for Tensor[])", locs[key])
    if "shape" in fields and "shapes" in fields:
        raise _fail(f"{what}: give `shape` (with `lengths`) or `shapes`, not both", locs["shapes"])
    lengths: Optional[Tuple[int, ...]] = None
    if "shapes" in fields:
        raw = fields["shapes"]
        if not isinstance(raw, list) or not raw:
            raise _fail(f"{what}: shapes: expected a non-empty list of shapes such as [[4], [4]]", locs["shapes"])
        shapes = tuple(_shape(s, locs["shapes"], what) for s in raw)
        if "lengths" in fields:
            raise _fail(f"{what}: `lengths` goes with one `shape`, not with `shapes`", locs["lengths"])
    else:
        if "shape" not in fields:
            raise _fail(f"{what}: expected its shape", loc)
        shapes = (_shape(fields["shape"], locs["shape"], what),)
        if is_list:
            raw = fields.get("lengths", list(DEFAULT_LENGTHS))
            if (
                not isinstance(raw, list)
                or not raw
                or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in raw)
            ):
                raise _fail(
                    f"{what}: lengths: expected a list of list lengths such as [1, 2, 3]", locs.get("lengths", loc)
                )
            lengths = tuple(raw)
    layout = _layout(fields["layout"], locs["layout"], what, shapes) if "layout" in fields else Layout.CONTIGUOUS
    rg = fields.get("requires_grad", dtype in ("Double", "Float"))
    if isinstance(rg, bool):
        requires_grad: Tuple[bool, ...] = (rg,)
    elif (
        isinstance(rg, list)
        and is_list
        and lengths is None
        and len(rg) == len(shapes)
        and all(isinstance(b, bool) for b in rg)
    ):
        requires_grad = tuple(rg)
    else:
        raise _fail(
            f"{what}: requires_grad: expected true or false"
            + (" (or, with `shapes`, one per shape)" if is_list else "")
            + f", got {rg!r}",
            locs.get("requires_grad", loc),
        )
    if any(requires_grad) and dtype not in ("Double", "Float"):
        raise _fail(
            f"{what}: requires_grad needs a floating dtype, float64 or float32 (a float64 leaf the op "
            "receives as float32); give requires_grad: false for an integer or boolean tensor",
            locs.get("requires_grad", locs.get("dtype", loc)),
        )
    return _TensorSpec(shapes, lengths, dtype, domain, requires_grad, layout)


@dataclass(frozen=True)
class _IndexListSpec:
    """A Tensor?[] argument of a sample (index.Tensor's indices): per element, an index tensor
    (int64 with values inside the dimension it indexes, or a bool mask) or None."""

    entries: Tuple[Optional[_TensorSpec], ...]


def _index_bounds(spec: _TensorSpec) -> Tuple[float, float]:
    """The least and greatest values an int64 tensor of `spec` can hold (sample_check's rules)."""
    kind, lo, hi = spec.domain
    if kind == "positive":
        return 1, 3
    if kind == "nonzero" or kind == "default":
        return -3, 3
    if kind == "distinct":
        return 0, math.prod(spec.shapes[0]) - 1
    return math.ceil(lo), math.floor(hi)


def _index_list_spec(
    value: Any, loc: Location, name: str, self_shape: Optional[Tuple[int, ...]], where: str
) -> _IndexListSpec:
    """Reads a Tensor?[] argument's value: a list of null or index tensors, each indexing the
    next dimension(s) of `self` (as PyTorch's advanced indexing does)."""
    what = f"argument {name!r}"
    if not isinstance(value, list) or not value:
        raise _fail(
            f"{what} (Tensor?[]): expected a non-empty list of null or index tensors, such as "
            "[null, {shape: [2], domain: [0, 2]}]",
            loc,
        )
    entries: List[Optional[_TensorSpec]] = []
    dim = 0
    for k, v in enumerate(value):
        here = value.item_loc(k) if isinstance(value, Seq) else loc
        label = f"{name}[{k}]"
        if self_shape is not None and dim >= max(len(self_shape), 1):
            raise _fail(f"{where}: {label}: too many indices for self of rank {len(self_shape)}", here)
        if v is None:
            entries.append(None)
            dim += 1
            continue
        spec = _tensor_spec(v, here, label, False, "Long")
        if spec.dtype not in ("Long", "Bool"):
            raise _fail(f"argument {label!r}: an index is int64 or bool, got {spec.dtype}", here)
        shape = spec.shapes[0]
        if spec.dtype == "Bool":
            # A mask covers as many dimensions as it has, of the same sizes.
            if self_shape is not None and tuple(self_shape[dim : dim + len(shape)]) != shape:
                raise _fail(
                    f"{where}: {label}: a mask of shape {_shape_label(shape)} does not match dims "
                    f"{dim}.. of self {_shape_label(self_shape)}",
                    here,
                )
            dim += max(len(shape), 1)
        elif self_shape is not None and self_shape:
            size = self_shape[dim]
            if spec.domain[0] == "default":
                # By default the values are those of the dimension it indexes: 0..size-1.
                if size == 0:
                    raise _fail(f"{where}: {label} indexes dim {dim} of self, which is empty", here)
                spec = replace(spec, domain=("range", 0.0, float(size - 1)))
            else:
                lo, hi = _index_bounds(spec)
                if lo < -size or hi > size - 1:
                    raise _fail(
                        f"{where}: {label} indexes dim {dim} of self (size {size}): its values must stay in "
                        f"[{-size}, {size - 1}], but its domain gives {lo:g}..{hi:g}",
                        here,
                    )
            dim += 1
        else:
            dim += 1
        entries.append(spec)
    return _IndexListSpec(tuple(entries))


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _double(v: float) -> str:
    if math.isnan(v):
        return "std::numeric_limits<double>::quiet_NaN()"
    if math.isinf(v):
        return ("-" if v < 0 else "") + "std::numeric_limits<double>::infinity()"
    r = repr(float(v))
    return r if any(c in r for c in ".en") else r + ".0"


def _value_cpp(t: Type, value: Any, loc: Location, name: str) -> str:
    """The C++ expression of a sample's value for a non-tensor argument of schema type `t`."""
    what = f"argument {name!r} ({t})"
    if isinstance(t, OptionalType):
        if value is None:
            return "std::nullopt"
        inner = _value_cpp(t.elem, value, loc, name)
        if isinstance(t.elem, ListType) and str(t.elem.elem) in ("int", "SymInt"):
            return f"OptionalIntArrayRef({inner})"
        return f"std::optional<{cpp.value_type(t.elem)}>({inner})"
    if isinstance(t, BaseType):
        n = t.name
        if n in (BaseTy.int, BaseTy.SymInt) and _int(value):
            return f"int64_t{{{value}}}"
        if n == BaseTy.float and _number(value):
            return _double(value)
        if n == BaseTy.bool and isinstance(value, bool):
            return "true" if value else "false"
        if (
            n == BaseTy.str
            and isinstance(value, str)
            and value.isprintable()
            and '"' not in value
            and "\\" not in value
        ):
            return f'std::string_view("{value}")'
        if n == BaseTy.Scalar:
            if isinstance(value, bool):
                return f"Scalar({'true' if value else 'false'})"
            if _int(value):
                return f"Scalar(int64_t{{{value}}})"
            if _number(value):
                return f"Scalar({_double(value)})"
        if n == BaseTy.ScalarType and value in _DTYPES:
            return f"ScalarType::{_DTYPES[value]}"
        if n == BaseTy.MemoryFormat and value in _MEMORY_FORMATS:
            return f"MemoryFormat::{_MEMORY_FORMATS[value]}"
        if n not in (
            BaseTy.int,
            BaseTy.SymInt,
            BaseTy.float,
            BaseTy.bool,
            BaseTy.str,
            BaseTy.Scalar,
            BaseTy.ScalarType,
            BaseTy.MemoryFormat,
        ):
            raise _fail(f"{what}: samples cannot give a value of type {t} yet; leave it at its default", loc)
    if isinstance(t, ListType) and t.size is not None and str(t.elem) != "bool" and _number(value):
        # PyTorch's `int[N]` / `float[N]`: one number stands for N copies (`kernel_size: 3`).
        value = [value] * t.size
    if isinstance(t, ListType) and isinstance(value, list):
        elem = str(t.elem)
        # Only `bool[N]` (a std::array) has a fixed length; `int[1] dims` takes any list.
        if elem == "bool" and t.size is not None and len(value) != t.size:
            raise _fail(f"{what}: expected {t.size} values, got {len(value)}", loc)
        if elem in ("int", "SymInt") and all(_int(v) for v in value):
            return "std::vector<int64_t>{" + ", ".join(str(v) for v in value) + "}"
        if elem == "float" and all(_number(v) for v in value):
            return "std::vector<double>{" + ", ".join(_double(v) for v in value) + "}"
        if elem == "bool" and t.size is not None and all(isinstance(v, bool) for v in value):
            return f"std::array<bool, {t.size}>{{{{" + ", ".join("true" if v else "false" for v in value) + "}}"
    raise _fail(f"{what}: expected a value of that type, got {value!r}", loc)


@dataclass(frozen=True)
class _GivenValue:
    """A value a sample gives a non-tensor argument, in C++ and in Python."""

    cpp: str
    py: str


_PY_DTYPES = {
    "float64": "gradgen.float64",
    "float32": "gradgen.float32",
    "int64": "gradgen.int64",
    "bool": "gradgen.bool",
}


def _value_py(t: Type, value: Any) -> str:
    """The Python expression of a value _value_cpp accepted (so its type fits `t`)."""
    if value is None:
        return "None"
    if isinstance(t, OptionalType):
        t = t.elem
    if isinstance(t, BaseType) and t.name == BaseTy.ScalarType:
        return _PY_DTYPES[value]
    if isinstance(t, BaseType) and t.name == BaseTy.MemoryFormat:
        return f"gradgen.{value}"
    if isinstance(t, ListType) and t.size is not None and not isinstance(value, list):
        value = [value] * t.size
    if isinstance(value, list):
        return "[" + ", ".join(_value_py(t.elem if isinstance(t, ListType) else t, v) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    if isinstance(t, BaseType) and t.name == BaseTy.float and _int(value):
        return repr(float(value))
    return repr(value)


def _result_kind(f: NativeFunction) -> Optional[ResultKind]:
    rets = f.func.returns
    if len(rets) == 1 and cpp.is_tensor_list(rets[0].type) and not isinstance(rets[0].type, OptionalType):
        return ResultKind.LIST
    if rets and all(isinstance(r.type, BaseType) and r.type.name == BaseTy.Tensor for r in rets):
        return ResultKind.TENSOR if len(rets) == 1 else ResultKind.TUPLE
    return None


def _find_declaration(name: str, loc: Location, by_name: Dict[str, NativeFunction]) -> NativeFunction:
    if name in by_name:
        return by_name[name]
    base = name.split(".", 1)[0]
    near = sorted(n for n in by_name if n.split(".", 1)[0] == base)
    hint = f"; the declarations named {base} are: {', '.join(near)}" if near else ""
    raise _fail(f"op {name!r} names no declaration of the library's functions file{hint}", loc)


def _variant(f: NativeFunction, functions: Sequence[NativeFunction], kind: SchemaKind) -> Optional[NativeFunction]:
    """The in-place or out= declaration taking the same inputs as functional `f`, if any."""
    base = f.func.name.name.base
    want = [(str(a.type), a.name) for a in f.func.arguments.flat_non_out]
    for g in functions:
        if g is f or g.func.name.name.base != base or g.func.kind() is not kind:
            continue
        args = g.func.arguments.flat_non_out
        if kind is SchemaKind.out:
            if [(str(a.type), a.name) for a in args] == want and len(g.func.arguments.out) == len(f.func.returns):
                return g
        elif [(str(a.type), a.name) for a in args] == want and g.func.name.overload_name == f.func.name.overload_name:
            # The types too: pow_.Scalar (Tensor self, Scalar exponent) is pow.Tensor_Scalar's
            # in-place variant, not pow.Scalar's (Scalar self, Tensor exponent).
            return g
    return None


def _shape_label(shape: Tuple[int, ...]) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _expand(
    f: NativeFunction,
    sample: Node,
    number: int,
    loc: Location,
    op_checks: Dict[str, str],
    applicable: Sequence[str],
    nondet_tol: float = 0.0,
) -> List[Case]:
    """The cases of one sample: one per length of each Tensor[] given with `lengths`; `nondet_tol`
    is the entry's `nondeterministic:`, which the sample's own replaces."""
    _keys(sample, _SAMPLE_KEYS, f"sample {number} of {f.func.name}")
    if "args" not in sample:
        raise _fail(f"sample {number} of {f.func.name}: expected `args`, a mapping from argument names to values", loc)
    args = sample["args"]
    if not isinstance(args, Node):
        raise _fail(
            f"sample {number} of {f.func.name}: args: expected a mapping from argument names to values",
            sample.value_loc("args"),
        )
    dtype = _dtype(sample["dtype"], sample.value_loc("dtype"), f"sample {number}") if "dtype" in sample else "Double"
    skip = _reason(sample["skip"], sample.value_loc("skip"), "skip") if "skip" in sample else ""
    checks = dict(op_checks)
    if "skip_checks" in sample:
        checks.update(_skip_checks(sample["skip_checks"], sample.value_loc("skip_checks")))
    nondet_tol = _tolerance(sample, "nondeterministic", nondet_tol)
    specs = _argument_specs(f, args, number, loc, dtype)
    float32 = any(isinstance(s, _TensorSpec) and s.dtype == "Float" and any(s.requires_grad) for _, s in specs)
    defaults = (("atol", FLOAT32_ATOL), ("rtol", FLOAT32_RTOL)) if float32 else (("atol", 1e-5), ("rtol", 1e-3))
    atol, rtol = (_tolerance(sample, key, default) for key, default in defaults)
    _check_ranks(f, specs, args, number)
    # Every combination of the lengths of the Tensor[] arguments given with `lengths`.
    combos: List[Dict[str, int]] = [{}]
    for a, spec in specs:
        if isinstance(spec, _TensorSpec) and spec.lengths is not None:
            combos = [dict(c, **{a.name: n}) for c in combos for n in spec.lengths]
    run_checks = tuple(c for c in applicable if c not in checks)
    cases = []
    for combo in combos:
        kwarg_only = [a not in f.func.arguments.positional for a, _ in specs]
        labels, inputs, case_args = _case_arguments(specs, combo, kwarg_only)
        eps = FLOAT32_EPS if float32 else 1e-6
        cases.append(Case(number, ", ".join(labels), inputs, case_args, run_checks, skip, atol, rtol, nondet_tol, eps))
    return cases


# Arguments naming a dimension of the op's input (`self`, or the elements of `tensors`), wrapped
# as PyTorch wraps them: -r..r-1 for rank r, a 0-dim tensor counting as rank 1.
_DIM_ARGUMENTS = ("dim", "dims", "dim0", "dim1", "dim2", "start_dim", "end_dim")
# Ops whose dimension arguments index the result, one dimension more than the input.
_DIM_OF_RESULT = ("unsqueeze", "stack", "diag_embed")
# The sized lists of an N-d convolution or pooling (int[N] kernel_size, stride, dilation; not
# padding, whose pad ops take 2N values): the input is unbatched (rank N + 1) or batched (N + 2).
_SPATIAL_ARGUMENTS = ("kernel_size", "stride", "dilation")
# ... but for col2im, whose input is columns (C * prod(kernel_size), L): rank 2 or 3 (batched).
_SPATIAL_RANKS = {"col2im": lambda n: (2, 3)}


def _input_shape(specs: Sequence[Tuple[Argument, Any]]) -> Optional[Tuple[str, Tuple[int, ...]]]:
    """The shape dimension arguments refer to: `self`'s, or the first element of `tensors`'s."""
    for a, spec in specs:
        if a.name in ("self", "input", "tensors") and isinstance(spec, _TensorSpec):
            return (f"{a.name}[0]" if a.name == "tensors" else a.name), spec.shapes[0]
    return None


def _sized_int_list(t: Type) -> Optional[int]:
    t = t.elem if isinstance(t, OptionalType) else t
    if isinstance(t, ListType) and str(t.elem) in ("int", "SymInt") and t.size is not None:
        return t.size
    return None


def _check_ranks(f: NativeFunction, specs: Sequence[Tuple[Argument, Any]], args: Node, number: int) -> None:
    """Rejects what the op refuses for the sample's ranks, known before it runs: a dimension out
    of range for the input's rank, an N-d convolution or pooling on an input of another rank."""
    found = _input_shape(specs)
    if found is None:
        return
    label, shape = found
    base = f.func.name.name.base
    where = f"sample {number} of {f.func.name}"
    for a, spec in specs:
        if a.name not in args or not isinstance(spec, _GivenValue):
            continue
        value = args[a.name]
        loc = args.value_loc(a.name)
        if a.name in _DIM_ARGUMENTS and value is not None:
            rank = max(len(shape), 1) + (1 if base in _DIM_OF_RESULT else 0)
            for v in value if isinstance(value, list) else [value]:
                if _int(v) and not -rank <= v < rank:
                    of = f"the result (rank {rank})" if base in _DIM_OF_RESULT else f"{label} of rank {len(shape)}"
                    raise _fail(
                        f"{where}: {a.name} {v} is out of range for {of}: expected a value in [{-rank}, {rank - 1}]",
                        loc,
                    )
    for a, _ in specs:
        n = _sized_int_list(a.type)
        if a.name not in _SPATIAL_ARGUMENTS or n is None:
            continue
        ranks = _SPATIAL_RANKS[base](n) if base in _SPATIAL_RANKS else (n + 1, n + 2)
        if len(shape) not in ranks:
            loc = args.value_loc(label.split("[")[0])
            raise _fail(
                f"{where}: {f.func.name} takes {a.name} as {a.type}, so {label} must have rank "
                f"{ranks[0]} (unbatched) or {ranks[1]} (batched), got {_shape_label(shape)} (rank {len(shape)})",
                loc,
            )
        break


def _tolerance(sample: Node, key: str, default: float) -> float:
    if key not in sample:
        return default
    value = sample[key]
    if isinstance(value, str):
        # YAML 1.1 (PyYAML) reads `1e-9`, without a dot, as a string.
        try:
            value = float(value)
        except ValueError:
            pass
    if not _number(value) or not value > 0 or value == math.inf:
        raise _fail(f"{key}: expected a positive number, got {sample[key]!r}", sample.value_loc(key))
    return float(value)


def _argument_specs(
    f: NativeFunction, args: Node, number: int, loc: Location, dtype: str
) -> List[Tuple[Argument, Any]]:
    """Per argument of `f`: a tensor spec, a _GivenValue (a value the sample gives), the C++
    expression of its default, or None (an absent Tensor?)."""
    params = f.func.arguments.flat_non_out
    names = {a.name for a in params}
    for key in args:
        if key not in names:
            raise _fail(
                f"sample {number} of {f.func.name}: {key!r} is no argument of {f.func.name}; its arguments are: "
                + ", ".join(a.name for a in params),
                args.key_loc(key),
            )
    specs: List[Tuple[Argument, Any]] = []
    for a in params:
        here = args.value_loc(a.name) if a.name in args else loc
        if cpp.is_tensor_list(a.type):
            if isinstance(a.type.elem, OptionalType):
                if a.name not in args:
                    raise _fail(f"sample {number} of {f.func.name}: expected a value for {a.name!r} ({a.type})", loc)
                self_shape = next(
                    (sp.shapes[0] for b, sp in specs if b.name == "self" and isinstance(sp, _TensorSpec)), None
                )
                specs.append(
                    (a, _index_list_spec(args[a.name], here, a.name, self_shape, f"sample {number} of {f.func.name}"))
                )
                continue
            if a.name not in args:
                raise _fail(f"sample {number} of {f.func.name}: expected a value for {a.name!r} ({a.type})", loc)
            specs.append((a, _tensor_spec(args[a.name], here, a.name, True, dtype)))
        elif cpp.is_tensor(a.type):
            optional = isinstance(a.type, OptionalType)
            if a.name not in args or (optional and args[a.name] is None):
                if not optional:
                    raise _fail(f"sample {number} of {f.func.name}: expected a shape for the tensor {a.name!r}", loc)
                specs.append((a, None))
            else:
                specs.append((a, _tensor_spec(args[a.name], here, a.name, False, dtype)))
        elif a.name in args:
            specs.append(
                (a, _GivenValue(_value_cpp(a.type, args[a.name], here, a.name), _value_py(a.type, args[a.name])))
            )
        else:
            default = cpp.default_value(a) if a.default is not None else None
            if default is None:
                raise _fail(
                    f"sample {number} of {f.func.name}: expected a value for {a.name!r} ({a.type}), "
                    "which has no default",
                    loc,
                )
            if default.strip() == "{}":
                # An empty list or an empty optional (`int[1] dims=[]`): a braced list cannot be
                # cast, so the parameter's type is value-initialized instead.
                default = cpp.argument_type(a).empty
            elif default.startswith("{") and isinstance(a.type, ListType):
                # A list default (`int[2] padding=0` is `{0, 0}`): the braced list becomes a
                # value of its owning type (std::vector<int64_t>{0, 0}), which can be cast.
                default = cpp.saved_member_type(a.type).spelling + default
            specs.append((a, default))
    return specs


def _case_arguments(
    specs: Sequence[Tuple[Argument, Any]], combo: Dict[str, int], kwarg_only: Sequence[bool]
) -> Tuple[List[str], Tuple[TensorInput, ...], Tuple[CaseArg, ...]]:
    """One case's labels, tensor inputs and call arguments, with the Tensor[] lengths `combo`;
    kwarg_only: per argument, whether it comes after `*`."""
    inputs: List[TensorInput] = []
    case_args: List[CaseArg] = []
    labels: List[str] = []
    all_names = {a.name for a, _ in specs}
    names = {
        a.name: dict(py_name="input" if a.name == "self" and "input" not in all_names else a.name, kwarg_only=kw)
        for (a, _), kw in zip(specs, kwarg_only)
    }
    for a, spec in specs:
        # Values are cast to the parameter's C++ type: a bare `std::nullopt` or literal would
        # make overloads ambiguous (sum(self, std::nullopt): the dtype or the dim overload?).
        if spec is None or isinstance(spec, (str, _GivenValue)):
            value = "std::nullopt" if spec is None else spec.cpp if isinstance(spec, _GivenValue) else spec
            py = spec.py if isinstance(spec, _GivenValue) else None
            if spec is None and a.default is None:
                py = "None"  # an absent `Tensor? weight` without a default is still passed: None
            case_args.append(
                CaseArg(
                    a.name,
                    ArgKind.VALUE,
                    cpp=f"static_cast<{cpp.argument_type(a).spelling}>({value})",
                    py=py,
                    **names[a.name],
                )
            )
            continue
        if isinstance(spec, _IndexListSpec):
            entries: List[Optional[int]] = []
            shown = []
            for k, e in enumerate(spec.entries):
                if e is None:
                    entries.append(None)
                    shown.append("None")
                    continue
                entries.append(len(inputs))
                shown.append(_shape_label(e.shapes[0]))
                inputs.append(
                    TensorInput(f"{a.name}[{k}]", e.shapes[0], e.dtype, e.domain[0], e.domain[1], e.domain[2], False)
                )
            case_args.append(CaseArg(a.name, ArgKind.OPTIONAL_TENSOR_LIST, entries=tuple(entries), **names[a.name]))
            labels.append(f"{a.name}: [{', '.join(shown)}]")
            continue
        is_list = cpp.is_tensor_list(a.type)
        shapes = spec.shapes * combo[a.name] if spec.lengths is not None else spec.shapes
        rg = spec.requires_grad * len(shapes) if len(spec.requires_grad) == 1 else spec.requires_grad
        first = len(inputs)
        for k, shape in enumerate(shapes):
            label = f"{a.name}[{k}]" if is_list else a.name
            inputs.append(_input(label, shape, spec, rg[k]))
        kind = ArgKind.TENSOR_LIST if is_list else ArgKind.TENSOR
        if isinstance(a.type, OptionalType) and not is_list:
            kind = ArgKind.OPTIONAL_TENSOR
        case_args.append(CaseArg(a.name, kind, first, len(shapes), **names[a.name]))
        if not is_list:
            label = f"{a.name}: {_shape_label(shapes[0])}"
        elif len(set(shapes)) == 1:
            label = f"{a.name}: {len(shapes)} x {_shape_label(shapes[0])}"
        else:
            label = f"{a.name}: [{', '.join(_shape_label(s) for s in shapes)}]"
        labels.append(label + _label_suffix(inputs[first:]))
    return labels, tuple(inputs), tuple(case_args)


def _input(label: str, shape: Tuple[int, ...], spec: _TensorSpec, requires_grad: bool) -> TensorInput:
    """The tensor the runner makes for one shape of `spec`: a float32 one that requires grad is a
    float64 leaf the call converts."""
    through = spec.dtype == "Float" and requires_grad
    kind, lo, hi = spec.domain
    dtype = "Double" if through else spec.dtype
    return TensorInput(label, shape, dtype, kind, lo, hi, requires_grad, spec.layout, through)


def _label_suffix(inputs: Sequence[TensorInput]) -> str:
    """What a case's label adds to an argument's shape: its layout, float32 (not the defaults)."""
    words = []
    if inputs and inputs[0].layout is not Layout.CONTIGUOUS:
        words.append(inputs[0].layout.value)
    if inputs and inputs[0].as_float32:
        words.append("float32")
    return "".join(" " + w for w in words)


def plan_samples(
    path: str,
    functions: Sequence[NativeFunction],
    matched: Dict[str, Optional[DifferentiabilityInfo]],
    kinds: Sequence[WrapperKind],
    display_name: Optional[str] = None,
    require_samples: bool = True,
) -> TestPlan:
    """Reads the samples file at `path` against the library's declarations (`functions`, with the
    formulas each uses and its wrapper kind) and returns what the generated test runs."""
    file = display_name or path
    entries = load_yaml(path, file)
    if entries is None:
        entries = Seq()
    if not isinstance(entries, Seq):
        raise SpecError("a samples file must be a list of entries ('- op: ...')", Location(file, 1))
    by_name = {str(f.func.name): f for f in functions}
    kind_of = {str(f.func): k for f, k in zip(functions, kinds)}
    # The declarations that need samples: those recording a node, functional (their in-place and
    # out= variants are checked with them).
    needed = [
        f
        for f in functions
        if kind_of[str(f.func)] is WrapperKind.DIFFERENTIABLE and f.func.kind() is SchemaKind.functional
    ]
    seen: Dict[str, Location] = {}
    ops: List[OpPlan] = []
    for i, node in enumerate(entries):
        if not isinstance(node, Node):
            raise _fail("expected an entry, a mapping starting with 'op: <declaration name>'", entries.item_loc(i))
        _keys(node, _OP_KEYS, "a samples entry")
        if "op" not in node or not isinstance(node["op"], str):
            raise _fail("expected 'op: <declaration name>' (such as polyval or add.Tensor)", node.loc)
        name_loc = node.value_loc("op")
        name = node["op"].strip()
        f = _find_declaration(name, name_loc, by_name)
        if name in seen:
            raise _fail(
                f"a second entry for {name} (the first is at {seen[name]}); list all its samples in one entry", name_loc
            )
        seen[name] = name_loc
        ops.append(_op_plan(node, name, f, functions, matched.get(str(f.func)), kind_of[str(f.func)]))
    missing = tuple(str(f.func.name) for f in needed if str(f.func.name) not in seen)
    return TestPlan(file, tuple(ops), missing, require_samples)


def _op_plan(
    node: Node,
    name: str,
    f: NativeFunction,
    functions: Sequence[NativeFunction],
    info: Optional[DifferentiabilityInfo],
    kind: WrapperKind,
) -> OpPlan:
    """The plan of one samples entry `node`, naming declaration `f`."""
    name_loc = node.value_loc("op")
    if f.func.kind() is not SchemaKind.functional:
        raise _fail(
            f"{name} is an {f.func.kind().value} variant: name its functional declaration, whose samples "
            "check the in-place and out= variants too",
            name_loc,
        )
    if kind is not WrapperKind.DIFFERENTIABLE or info is None:
        raise _fail(f"{name} has no derivative formulas: there is no gradient to check", name_loc)
    result_kind = _result_kind(f)
    if result_kind is None:
        raise _fail(
            f"{name} returns {', '.join(str(r.type) for r in f.func.returns)}: samples check ops returning Tensors",
            name_loc,
        )
    skip = _reason(node["skip"], node.value_loc("skip"), "skip") if "skip" in node else ""
    op_checks = _skip_checks(node["skip_checks"], node.value_loc("skip_checks")) if "skip_checks" in node else {}
    nondet_tol = _tolerance(node, "nondeterministic", 0.0)
    inplace = _variant(f, functions, SchemaKind.inplace)
    out = _variant(f, functions, SchemaKind.out)
    # Forward mode as the wrapper does it: a formula gradgen does not generate (one defining
    # several outputs at once, PyTorch's tuple formulas) or one missing for an output makes the
    # wrapper refuse tangents, which the op sweep checks; fwgradcheck needs computed tangents.
    has_forward = forward_ad_of(f, info, kind).kind is ForwardADKind.FORMULAS
    applicable = ["gradgradcheck", "history"]
    if has_forward:
        # hvpcheck (forward-over-reverse) runs where both gradgradcheck and fwgradcheck do.
        applicable += ["fwgradcheck", "hvpcheck"]
    if inplace is not None and result_kind is ResultKind.TENSOR:
        applicable.append("inplace")
    if out is not None:
        applicable.append("out")
    for check in op_checks:
        if check not in applicable:
            lacks = "forward formula" if check in ("fwgradcheck", "hvpcheck") else "such variant"
            raise _fail(f"skip_checks: {name} gets no {check} check (it has no {lacks})", node.key_loc("skip_checks"))
    cases: List[Case] = []
    if "samples" in node:
        samples = node["samples"]
        if not isinstance(samples, Seq) or not samples:
            raise _fail("samples: expected a non-empty list of samples ('- args: {...}')", node.value_loc("samples"))
        for k, sample in enumerate(samples):
            if not isinstance(sample, Node):
                raise _fail("expected a sample, a mapping with `args`", samples.item_loc(k))
            cases += _expand(f, sample, k + 1, samples.item_loc(k), op_checks, applicable, nondet_tol)
    elif not skip:
        raise _fail(f"{name}: expected `samples:` (or `skip: <reason>`)", node.loc)
    # The outputs that get history, as the analysis decided (output_differentiability, or only
    # the first when the formulas read plain `grad`); every output for an op without formulas.
    returns = range(len(f.func.returns))
    diff = (
        tuple(i in info.differentiable_outputs for i in returns) if info is not None else tuple(True for _ in returns)
    )
    return OpPlan(
        op_name=name,
        cpp_name=_cpp_name(f),
        inplace_cpp_name=_cpp_name(inplace) if inplace is not None else None,
        out_cpp_name=_cpp_name(out) if out is not None else None,
        returns=len(f.func.returns),
        result_kind=result_kind,
        differentiable_outputs=tuple(diff),
        has_forward_formula=has_forward,
        cases=tuple(cases),
        skip=skip,
        **_python_calls(f, inplace, out),
        inplace_declaration=(
            str(inplace.func.name) if inplace is not None and any("inplace" in c.checks for c in cases) else None
        ),
        out_declaration=str(out.func.name) if out is not None and any("out" in c.checks for c in cases) else None,
    )


def _bindable(f: NativeFunction, kind: python.Variant) -> bool:
    from tools.codegen import python

    if kind not in f.variants:
        return False
    try:
        python.overload(f.func, f.func.cpp_name(), kind)
    except python.Unbindable:
        return False
    return True


def _python_calls(
    f: NativeFunction, inplace: Optional[NativeFunction], out: Optional[NativeFunction]
) -> Dict[str, Any]:
    """How the Python bindings (gen_python_functions.py's rules) call `f` and its variants."""
    from tools.codegen import python

    function = python.python_name(f.func) if _bindable(f, python.Variant.FUNCTION) else None
    method = python.python_name(f.func) if function is None and _bindable(f, python.Variant.METHOD) else None
    inplace_method = inplace is not None and _bindable(inplace, python.Variant.METHOD)
    inplace_function = inplace is not None and _bindable(inplace, python.Variant.FUNCTION)
    return dict(
        py_function=function,
        py_method=method,
        py_inplace=python.python_name(inplace.func) if inplace_method or inplace_function else None,
        py_inplace_is_method=inplace_method,
        py_out=function is not None and out is not None and _bindable(out, python.Variant.FUNCTION),
        py_out_name=out.func.arguments.out[0].name if out is not None and len(out.func.arguments.out) == 1 else "out",
    )


def _cpp_name(f: NativeFunction) -> str:
    return f.func.cpp_name()
