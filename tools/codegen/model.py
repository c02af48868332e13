"""The parsed form of a function schema, PyTorch's JIT schema language.

    add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    ^^^ ^^^^^^ ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^    ^^^^^^
    name overload        arguments                                  returns

Everything is a frozen dataclass with a `parse()` classmethod, and `str()` gives back exactly the
text that was parsed: `FunctionSchema.parse` checks `str(parsed) == text`, so the model loses
nothing and a schema can be used as its own key. The design follows PyTorch's torchgen/model.py.

Errors are `SchemaParseError`s carrying the 0-based offset of the offending character, so the YAML
loader can point at `file:line:col`. The parser is a small hand-written scanner rather than a
series of `str.split` calls: it knows the offset of every token, and it is strict about spacing
(`, ` between arguments, ` -> ` before returns) because anything else would not round-trip.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from tools.codegen.contract import CPP_KEYWORDS, is_cpp_identifier
from tools.codegen.errors import Location, SchemaParseError

__all__ = [
    "BaseTy",
    "Type",
    "BaseType",
    "OptionalType",
    "ListType",
    "Annotation",
    "Argument",
    "Return",
    "Arguments",
    "BaseOperatorName",
    "OperatorName",
    "SchemaKind",
    "FunctionSchema",
    "CPP_KEYWORDS",
    "is_cpp_identifier",
]


# ---------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------

# CPP_KEYWORDS and is_cpp_identifier are the Bazel rules' too: tools/codegen/contract.py.
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# ---------------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------------


class BaseTy(enum.Enum):
    """The base types of the schema language; a type is one of these plus `?` and `[]` suffixes."""

    Generator = enum.auto()
    ScalarType = enum.auto()
    Tensor = enum.auto()
    int = enum.auto()
    Dimname = enum.auto()
    DimVector = enum.auto()
    float = enum.auto()
    str = enum.auto()
    bool = enum.auto()
    Layout = enum.auto()
    Device = enum.auto()
    DeviceIndex = enum.auto()
    Scalar = enum.auto()
    MemoryFormat = enum.auto()
    QScheme = enum.auto()
    Storage = enum.auto()
    Stream = enum.auto()
    SymInt = enum.auto()
    SymBool = enum.auto()
    ConstQuantizerPtr = enum.auto()
    GraphModule = enum.auto()


# Name -> BaseTy, looked up once per parsed type token.
_BASE_TYS: dict[str, BaseTy] = {t.name: t for t in BaseTy}


class Type:
    """A schema type: `BaseType`, `OptionalType` (`T?`) or `ListType` (`T[]`, `T[N]`)."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> "Type":
        """Parses a type such as `Tensor?[]` or `int[2]`; alias annotations are not part of a type."""
        p = _Parser(text)
        ty, annotation = p.type(allow_annotation=False)
        p.expect_end("type")
        return ty

    def is_tensor_like(self) -> bool:
        """Returns whether values of this type are or hold Tensors: Tensor, Tensor?, Tensor?[]."""
        raise NotImplementedError

    def is_base_ty_like(self, base_ty: BaseTy) -> bool:
        """Returns whether `base_ty` is this type's base, under any `?` / `[]`."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class BaseType(Type):
    """A type without suffixes: `Tensor`, `int`, `ScalarType`."""

    # The base type: BaseTy.Tensor for `Tensor`.
    name: BaseTy

    def __str__(self) -> str:
        # The member's `_name_` (its name): Enum's `name` property is a slow lookup in Python 3.11.
        return self.name._name_

    def is_tensor_like(self) -> bool:
        return self.name is BaseTy.Tensor

    def is_base_ty_like(self, base_ty: BaseTy) -> bool:
        return self.name is base_ty


@dataclass(frozen=True, slots=True)
class OptionalType(Type):
    """A type that also admits None: `Tensor?`, `int[]?`."""

    # The type when not None: BaseType(BaseTy.Tensor) for `Tensor?`.
    elem: Type

    def __str__(self) -> str:
        return f"{self.elem}?"

    def is_tensor_like(self) -> bool:
        return self.elem.is_tensor_like()

    def is_base_ty_like(self, base_ty: BaseTy) -> bool:
        return self.elem.is_base_ty_like(base_ty)


@dataclass(frozen=True, slots=True)
class ListType(Type):
    """A list: `Tensor[]`, `Tensor?[]`, `int[2]` (a fixed size, which also accepts one int)."""

    # The element type: OptionalType(BaseType(BaseTy.Tensor)) for `Tensor?[]`.
    elem: Type
    # The fixed size, or None when any length is allowed: 2 for `int[2]`, None for `int[]`.
    size: Optional[int]

    def __str__(self) -> str:
        size = "" if self.size is None else str(self.size)
        return f"{self.elem}[{size}]"

    def is_tensor_like(self) -> bool:
        return self.elem.is_tensor_like()

    def is_base_ty_like(self, base_ty: BaseTy) -> bool:
        return self.elem.is_base_ty_like(base_ty)


# ---------------------------------------------------------------------------------------------
# Alias annotations
# ---------------------------------------------------------------------------------------------

# `a`, `a!`, `a|b`, `a -> *`, `a! -> a|b`: alias sets are lowercase names.
_ANNOTATION_RE = re.compile(
    r"(?P<before>[a-z][a-z0-9_]*(?:\|[a-z][a-z0-9_]*)*)(?P<write>!?)"
    r"(?: -> (?P<after>\*|[a-z][a-z0-9_]*(?:\|[a-z][a-z0-9_]*)*))?"
)


@dataclass(frozen=True, slots=True)
class Annotation:
    """An alias annotation on a Tensor type, the text between the parentheses in `Tensor(a!)`.

    It says which alias set the Tensor belongs to and whether the op writes to it; PyTorch uses it
    to tell in-place and out= arguments (`(a!)`) and views (`(a)`) from plain inputs.
    """

    # The alias sets the value is in on entry: ("a",) for `a!`, ("a", "b") for `a|b`.
    alias_set: tuple[str, ...]
    # Whether the op writes to the value: True for `a!`.
    is_write: bool
    # The alias sets after the op, from ` -> `: ("*",) for `a -> *`, () when absent.
    alias_set_after: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> "Annotation":
        """Parses an annotation such as `a!` or `a -> *` (without the parentheses)."""
        return _parse_annotation(text, 0, text)

    def __str__(self) -> str:
        text = "|".join(self.alias_set)
        if self.is_write:
            text += "!"
        if self.alias_set_after:
            text += " -> " + "|".join(self.alias_set_after)
        return text


def _parse_annotation(source: str, start: int, text: str) -> Annotation:
    """Parses annotation `text`, which sits at `start` in `source` (for error offsets)."""
    m = _ANNOTATION_RE.fullmatch(text)
    if m is None:
        raise SchemaParseError(f"invalid alias annotation '({text})'", start)
    alias_set = tuple(m.group("before").split("|"))
    is_write = m.group("write") == "!"
    if is_write and len(alias_set) > 1:
        raise SchemaParseError(f"an alias annotation with '!' must name a single alias set, not '({text})'", start)
    after = m.group("after")
    return Annotation(alias_set, is_write, tuple(after.split("|")) if after else ())


def _type_str(ty: Type, annotation: Optional[Annotation]) -> str:
    """Returns the type as written, the annotation right after `Tensor`: `Tensor(a!)[]`."""
    text = str(ty)
    if annotation is None:
        return text
    # Annotations are only accepted on types whose base is Tensor, written first.
    return f"Tensor({annotation}){text[6:]}"


# ---------------------------------------------------------------------------------------------
# Arguments and returns
# ---------------------------------------------------------------------------------------------


def _writes(annotation: Optional[Annotation]) -> bool:
    return annotation is not None and annotation.is_write


def _parse_whole(text: str, part: Callable, what: str):
    """`part` (a _Parser method) of all of `text`; anything after it is an error naming `what`."""
    p = _Parser(text)
    value = part(p)
    p.expect_end(what)
    return value


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument: `Tensor(a!) self`, `int[1] dim=[]`, `ScalarType? dtype=None`."""

    # The argument's name, a C++ identifier: "self".
    name: str
    # The argument's type, without its annotation: OptionalType(BaseType(BaseTy.ScalarType)).
    type: Type
    # The default value exactly as written, or None if there is none: "[]", '"mean"', "None".
    default: Optional[str]
    # The alias annotation, or None: Annotation(("a",), True, ()) for `Tensor(a!) self`.
    annotation: Optional[Annotation]

    @classmethod
    def parse(cls, text: str) -> "Argument":
        """Parses one argument such as `Tensor(a!) self` or `int dim=0`."""
        return _parse_whole(text, _Parser.argument, "argument")

    @property
    def is_write(self) -> bool:
        """Whether the op writes to this argument (`Tensor(a!)`)."""
        return _writes(self.annotation)

    def __str__(self) -> str:
        cached = _INTERNED_TEXT.get(id(self))
        if cached is not None and cached[0] is self:
            return cached[1]
        return self._render()

    def _render(self) -> str:
        text = f"{_type_str(self.type, self.annotation)} {self.name}"
        if self.default is not None:
            text += f"={self.default}"
        return text


@dataclass(frozen=True, slots=True)
class Return:
    """One returned value: `Tensor`, `Tensor(a!)`, `Tensor values` in a named tuple."""

    # The name in a named tuple return, or None: "values" in `-> (Tensor values, Tensor indices)`.
    name: Optional[str]
    # The returned type, without its annotation: BaseType(BaseTy.Tensor).
    type: Type
    # The alias annotation, or None: Annotation(("a",), True, ()) for `-> Tensor(a!)`.
    annotation: Optional[Annotation]

    @classmethod
    def parse(cls, text: str) -> "Return":
        """Parses one return such as `Tensor(a!)` or `Tensor values`."""
        return _parse_whole(text, _Parser.return_, "return")

    @property
    def is_write(self) -> bool:
        """Whether this returns an argument the op wrote to (`Tensor(a!)`)."""
        return _writes(self.annotation)

    def __str__(self) -> str:
        cached = _INTERNED_TEXT.get(id(self))
        if cached is not None and cached[0] is self:
            return cached[1]
        return self._render()

    def _render(self) -> str:
        text = _type_str(self.type, self.annotation)
        return text if self.name is None else f"{text} {self.name}"


# Keyword-only arguments that torchgen groups as TensorOptions (a factory function's dtype,
# layout, device, pin_memory), in order, with the base type each may have (also optional).
_TENSOR_OPTIONS = (
    ("dtype", BaseTy.ScalarType),
    ("layout", BaseTy.Layout),
    ("device", BaseTy.Device),
    ("pin_memory", BaseTy.bool),
)


def _is_tensor_option(arg: Argument, name: str, base_ty: BaseTy) -> bool:
    ty = arg.type
    if isinstance(ty, OptionalType):
        ty = ty.elem
    return arg.name == name and isinstance(ty, BaseType) and ty.name is base_ty


@dataclass(frozen=True, slots=True)
class Arguments:
    """An argument list in three parts: positional, keyword-only (after `*`), and out.

    `out` are the trailing keyword-only arguments the op writes to (`*, Tensor(a!) out`): the
    results of an out= overload. Positional arguments the op writes to (in-place `self`) stay in
    `positional`.
    """

    # Arguments before `*`: (Argument("self", ...), Argument("other", ...)) for `add.Tensor`.
    positional: tuple[Argument, ...]
    # Arguments after `*` that are not outputs: (Argument("alpha", ...),) for `add.Tensor`.
    kwarg_only: tuple[Argument, ...]
    # Keyword-only written arguments, last: (Argument("out", ...),) for `add.out`.
    out: tuple[Argument, ...]
    # flat_all, made on first use and kept (every pass over a declaration asks for it).
    _flat_all: Optional[tuple[Argument, ...]] = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def parse(cls, text: str) -> "Arguments":
        """Parses an argument list without its parentheses: `Tensor self, *, Scalar alpha=1`."""
        p = _Parser(text)
        args = p.arguments(closing=None)
        p.expect_end("argument list")
        return args

    @property
    def flat_positional(self) -> tuple[Argument, ...]:
        """The arguments before `*`."""
        return self.positional

    @property
    def flat_kwarg_only(self) -> tuple[Argument, ...]:
        """The keyword-only arguments that are not out arguments."""
        return self.kwarg_only

    @property
    def flat_non_out(self) -> tuple[Argument, ...]:
        """All arguments but the out arguments, in schema order."""
        return self.positional + self.kwarg_only

    @property
    def flat_all(self) -> tuple[Argument, ...]:
        """All arguments in schema order."""
        flat = self._flat_all
        if flat is None:
            flat = self.positional + self.kwarg_only + self.out
            object.__setattr__(self, "_flat_all", flat)
        return flat

    @property
    def tensor_args(self) -> tuple[Argument, ...]:
        """The non-out arguments holding Tensors (Tensor, Tensor?, Tensor[], Tensor?[]): the
        candidates for differentiable inputs, in schema order."""
        return tuple(a for a in self.positional + self.kwarg_only if a.type.is_tensor_like())

    @property
    def self_arg(self) -> Optional[Argument]:
        """The positional argument named `self`, or None."""
        for a in self.positional:
            if a.name == "self":
                return a
        return None

    def _tensor_options_index(self) -> Optional[int]:
        n = len(_TENSOR_OPTIONS)
        kw = self.kwarg_only
        for i in range(len(kw) - n + 1):
            if all(_is_tensor_option(a, name, ty) for a, (name, ty) in zip(kw[i : i + n], _TENSOR_OPTIONS)):
                return i
        return None

    def signature(self, *, strip_default: bool = False) -> "Arguments":
        """Returns these arguments as used to group an op's variants (see FunctionSchema.signature):
        annotations, out arguments and the TensorOptions group dropped, and defaults if asked."""

        def strip(a: Argument) -> Argument:
            default = None if strip_default else a.default
            # Shared (see _SIGNATURE_PARTS); the stripped argument keeps its type alive, so the
            # type's id in the key is never reused.
            key = ("argument", a.name, id(a.type), default)
            stripped = _SIGNATURE_PARTS.get(key)
            if stripped is None:
                stripped = _SIGNATURE_PARTS[key] = Argument(a.name, a.type, default, None)
            return stripped

        kwarg_only = self.kwarg_only
        i = self._tensor_options_index()
        if i is not None:
            kwarg_only = kwarg_only[:i] + kwarg_only[i + len(_TENSOR_OPTIONS) :]
        return Arguments(tuple(map(strip, self.positional)), tuple(map(strip, kwarg_only)), ())

    def __str__(self) -> str:
        parts = [str(a) for a in self.positional]
        if self.kwarg_only or self.out:
            parts.append("*")
            parts.extend(str(a) for a in self.kwarg_only)
            parts.extend(str(a) for a in self.out)
        return ", ".join(parts)


# ---------------------------------------------------------------------------------------------
# Operator names
# ---------------------------------------------------------------------------------------------

# Python's augmented assignment operators: `__iadd__` is the in-place `__add__`.
_AUGMENTED_ASSIGNMENT_NAMES = frozenset(
    ["add", "sub", "mul", "div", "mod", "pow", "lshift", "rshift", "and", "xor", "or"]
)
_DUNDER_RE = re.compile(r"__([^_]+)__")
_FUNCTIONAL_SUFFIX = "_functional"


@dataclass(frozen=True, slots=True)
class BaseOperatorName:
    """An operator name without overload: `add`, `add_` (in-place), `__iand__`, `foo_functional`."""

    # The name without in-place / dunder / functional decoration: "add" for `add_` and `__iadd__`.
    base: str
    # Whether the op works in place: True for `add_` and `__iadd__`.
    inplace: bool
    # Whether the name is a Python magic method: True for `__and__`.
    dunder_method: bool
    # Whether the name ends in `_functional`: the functional variant of an op whose plain name is
    # taken by a mutable variant (`_native_batch_norm_legit_functional`). True there.
    functional_overload: bool = False

    @classmethod
    def parse(cls, text: str) -> "BaseOperatorName":
        """Parses an operator name such as `add_` or `__iand__` (without an overload name)."""
        if not is_cpp_identifier(text):
            raise SchemaParseError(f"'{text}' is not a valid operator name", 0)
        m = _DUNDER_RE.fullmatch(text)
        if m is not None:
            base = m.group(1)
            inplace = base[0] == "i" and base[1:] in _AUGMENTED_ASSIGNMENT_NAMES
            return cls(base[1:] if inplace else base, inplace, True, False)
        if text.endswith("_out"):
            raise SchemaParseError(
                f"operator name '{text}' must not end in '_out'; "
                f"name an out= variant with an overload, e.g. '{text[:-4]}.out'",
                len(text) - 4,
            )
        inplace = text.endswith("_")
        base = text[:-1] if inplace else text
        functional = base.endswith(_FUNCTIONAL_SUFFIX) and len(base) > len(_FUNCTIONAL_SUFFIX)
        if functional:
            if inplace:
                raise SchemaParseError(f"operator name '{text}' cannot be both '_functional' and in-place", 0)
            base = base[: -len(_FUNCTIONAL_SUFFIX)]
        return cls(base, inplace, False, functional)

    def __str__(self) -> str:
        if self.dunder_method:
            return f"__{'i' if self.inplace else ''}{self.base}__"
        if self.inplace:
            return f"{self.base}_"
        if self.functional_overload:
            return f"{self.base}{_FUNCTIONAL_SUFFIX}"
        return self.base


_OVERLOAD_RE = re.compile(r"[A-Za-z0-9_]+")
# Parsed operator names by their text (immutable, so shared): a schema's name is parsed again as
# its derivatives entry's, and `autogen:` and `structured_delegate:` name ops of the file. Their
# text is kept in _INTERNED_TEXT.
_OPERATOR_NAMES: dict[str, "OperatorName"] = {}


@dataclass(frozen=True, slots=True)
class OperatorName:
    """An operator name with its overload name: `add_.Tensor`, `max.dim`, `mm`."""

    # The operator name: BaseOperatorName("add", inplace=True, ...) for `add_.Tensor`.
    name: BaseOperatorName
    # The overload name, "" when there is none: "Tensor" for `add_.Tensor`.
    overload_name: str

    @classmethod
    def parse(cls, text: str) -> "OperatorName":
        """Parses `name` or `name.overload`."""
        parsed = _OPERATOR_NAMES.get(text)
        if parsed is not None:
            return parsed
        base, dot, overload = text.partition(".")
        name = BaseOperatorName.parse(base)
        if dot and _OVERLOAD_RE.fullmatch(overload) is None:
            raise SchemaParseError(f"'{overload}' is not a valid overload name", len(base) + 1)
        parsed = _OPERATOR_NAMES[text] = cls(name, overload)
        _INTERNED_TEXT[id(parsed)] = (parsed, parsed._render())
        return parsed

    def __str__(self) -> str:
        cached = _INTERNED_TEXT.get(id(self))
        if cached is not None and cached[0] is self:
            return cached[1]
        return self._render()

    def _render(self) -> str:
        if self.overload_name:
            return f"{self.name}.{self.overload_name}"
        return str(self.name)


# ---------------------------------------------------------------------------------------------
# Function schemas
# ---------------------------------------------------------------------------------------------


class SchemaKind(enum.StrEnum):
    """What an op does with its arguments, as torchgen's SchemaKind."""

    # Returns new values and writes to nothing: `add.Tensor`.
    functional = "functional"
    # Writes to `self` and returns it; the name ends in `_`: `add_.Tensor`.
    inplace = "inplace"
    # Writes its results to keyword-only out arguments: `add.out`.
    out = "out"
    # Writes to a positional argument without an in-place name: `_native_batch_norm_legit`.
    mutable = "mutable"
    # An out= op with scratch out arguments (names starting with `_scratch_`).
    scratch = "scratch"


# Parsed schemas by their text: a derivatives.yaml entry's `name:` is its declaration's `func:`
# (PyTorch's 688 entries), and a persistent worker parses the same files again. Schemas are
# immutable, so sharing them is safe; only schemas that parsed (and round-tripped) are kept.
_PARSED_SCHEMAS: dict[str, "FunctionSchema"] = {}


@dataclass(frozen=True, slots=True)
class FunctionSchema:
    """A whole schema: `add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`."""

    # The operator and overload name: OperatorName.parse("add.Tensor").
    name: OperatorName
    # The arguments: Arguments(positional=(self, other), kwarg_only=(alpha,), out=()).
    arguments: Arguments
    # The returned values, () for `-> ()`: (Return(None, BaseType(BaseTy.Tensor), None),).
    returns: tuple[Return, ...]
    # Computed on first use and kept, being asked for again and again (matching, messages,
    # comments); no part of the schema's value (not compared, hashed or shown): the text, and
    # signature() without and with strip_default.
    _text: Optional[str] = field(default=None, init=False, repr=False, compare=False)
    _signature: Optional["FunctionSchema"] = field(default=None, init=False, repr=False, compare=False)
    _signature_stripped: Optional["FunctionSchema"] = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def parse(cls, text: str) -> "FunctionSchema":
        """Parses a schema; raises SchemaParseError with the offset of the offending character."""
        schema = _PARSED_SCHEMAS.get(text)
        if schema is not None:
            return schema
        schema = _Parser(text).schema()
        rendered = schema._render()
        if rendered != text:  # the parser is strict, so this is a bug in it rather than the input
            at = next((i for i, (a, b) in enumerate(zip(rendered, text)) if a != b), min(len(rendered), len(text)))
            raise SchemaParseError(f"schema does not round-trip: parsed as '{rendered}'", at)
        object.__setattr__(schema, "_text", rendered)
        _PARSED_SCHEMAS[text] = schema
        return schema

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._render()
            object.__setattr__(self, "_text", text)
        return text

    def __hash__(self) -> int:
        # Schemas key the analysis' dicts; equal schemas have equal text, which is rendered once
        # (hashing every field, argument by argument, is not).
        return hash(str(self))

    def _render(self) -> str:
        if len(self.returns) == 1:
            returns = str(self.returns[0])
        else:
            returns = "(" + ", ".join(map(str, self.returns)) + ")"
        return f"{self.name}({self.arguments}) -> {returns}"

    def is_out_fn(self) -> bool:
        """Whether this is an out= overload (it has out arguments): `add.out`."""
        return bool(self.arguments.out)

    def cpp_name(self) -> str:
        """The C++ function's name: `add`, `add_` for in-place, `add_out` for out= variants; a
        functional variant keeps its suffix (`foo_functional`, as torchgen names it), since `foo`
        may be an op of its own with the same parameters."""
        name = self.name.name
        base = name.base
        if name.dunder_method:
            base = f"__{base}__"
        if name.functional_overload:
            base += "_functional"
        if name.inplace:
            return base + "_"
        if self.is_out_fn():
            return base + "_out"
        return base

    def kind(self) -> SchemaKind:
        """Returns whether the op is functional, in-place, out=, mutable or scratch.

        One difference from torchgen on purpose: an op that writes to `self` without an in-place
        name (`set_data(Tensor(a!) self, ...)`) is `mutable` here; torchgen only looks at the
        arguments after self and calls it functional, which would hide the write.
        """
        if self.name.name.inplace:
            return SchemaKind.inplace
        args = self.arguments
        if args.out:
            for a in args.out:
                if a.name.startswith("_scratch_"):
                    return SchemaKind.scratch
            return SchemaKind.out
        # Asked of every declaration several times: plain loops, no generators.
        for part in (args.positional, args.kwarg_only):
            for a in part:
                if a.annotation is not None and a.annotation.is_write:
                    return SchemaKind.mutable
        return SchemaKind.functional

    def names_of_returns(self, fallback_name: str = "result") -> tuple[str, ...]:
        """Returns the name each returned value goes by in generated code (the wrapper's locals,
        what formulas call the outputs), as torchgen's `cpp.return_names`: `self` for an
        in-place op, the out argument's name for an out= op, the return's own name (with `_return`
        added if an argument has that name), else
        `result` for a single return and `result0`, `result1`, ... for several."""
        names = []
        inplace = self.name.name.inplace
        out = self.arguments.out
        for i, r in enumerate(self.returns):
            if inplace:
                names.append("self")
            elif out:
                names.append(out[i].name if i < len(out) else f"{fallback_name}{i}")
            elif r.name is not None:
                clash = any(a.name == r.name for a in self.arguments.flat_all)
                names.append(f"{r.name}_return" if clash else r.name)
            else:
                names.append(fallback_name if len(self.returns) == 1 else f"{fallback_name}{i}")
        return tuple(names)

    def signature(self, *, strip_default: bool = False) -> "FunctionSchema":
        """Returns the schema shared by an op's functional, in-place and out= variants.

        As torchgen's `FunctionSchema.signature()`: no overload name, not in-place, no out
        arguments, no TensorOptions group (`dtype, layout, device, pin_memory`), no annotations,
        unnamed returns; an argument the op writes to but does not return becomes an extra return
        (so `_foreach_add_.List(...) -> ()` matches `_foreach_add.List(...) -> Tensor[]`).
        `add_.Tensor`, `add.out` and `add.Tensor` all give
        `add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`. derivatives.yaml entries are
        matched to the variants of an op with it.
        """
        memo = "_signature_stripped" if strip_default else "_signature"
        sig = getattr(self, memo)
        if sig is None:
            sig = self._make_signature(strip_default)
            object.__setattr__(self, memo, sig)
        return sig

    def _make_signature(self, strip_default: bool) -> "FunctionSchema":
        args = self.arguments
        returned = {r.annotation for r in self.returns if r.annotation is not None}
        self_arg = args.self_arg
        # Order matters: self, then out, then the positional arguments after self (all of them
        # when there is no self), so that in-place, out= and mutable variants give the same extra
        # returns. (As torchgen, written positional arguments before self are not counted.)
        if self_arg is not None:
            after_self = args.positional[args.positional.index(self_arg) + 1 :]
            written = (self_arg,) + args.out + after_self
        else:
            written = args.out + args.positional
        extra_returns = tuple(_plain_return(a.type) for a in written if a.is_write and a.annotation not in returned)
        returns = tuple(_plain_return(r.type) for r in self.returns) + extra_returns
        base, dunder = self.name.name.base, self.name.name.dunder_method
        name = _SIGNATURE_PARTS.get(("name", base, dunder))
        if name is None:
            name = _SIGNATURE_PARTS["name", base, dunder] = OperatorName(BaseOperatorName(base, False, dunder), "")
        return FunctionSchema(name, args.signature(strip_default=strip_default), returns)


# The parts of signatures (FunctionSchema.signature): stripped arguments, unnamed returns and
# operator names, shared, so that equal parts are one object and comparing the signatures of an
# op's variants (as matching derivatives.yaml entries does, for every variant) stops at identity.
_SIGNATURE_PARTS: dict[tuple, object] = {}


def _plain_return(t: Type) -> Return:
    """`Return(None, t, None)`, shared (the return keeps `t` alive, so its id is never reused)."""
    key = ("return", id(t))
    r = _SIGNATURE_PARTS.get(key)
    if r is None:
        r = _SIGNATURE_PARTS[key] = Return(None, t, None)
    return r


# ---------------------------------------------------------------------------------------------
# The parser
# ---------------------------------------------------------------------------------------------

_OPNAME_TOKEN_RE = re.compile(r"[^\s(),]*")
_NAME_TOKEN_RE = re.compile(r"[^\s,()=]*")
_TYPE_TOKEN_RE = re.compile(r"[^\s,()]*")
_LIST_SUFFIX_RE = re.compile(r"\[([0-9]*)\]")
_ANNOTATION_TOKEN_RE = re.compile(r"\(([^(),]*)\)")
# A default value: a string literal (with backslash escapes), a list, or a bare token
# (number, True/False/None, enum names like `Mean` or `contiguous_format`).
_DEFAULT_RE = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|\[[^\[\]()]*\]|[A-Za-z0-9_.+\-]+")

# Parsed arguments by their text (`Tensor self`, `Scalar alpha=1`, `Tensor(a!) out`), with the
# offset of the name in it: PyTorch's 2,585 schemas hold about 14,000 arguments but under 2,000
# distinct ones. An argument is looked up by the text up to the next ',' or parenthesis (one
# annotation allowed), and stored only when its parse ended exactly there and its default fits
# its type: every token of an argument stops at ',', ')' and the end of the text, so the same
# text parses the same way wherever it is. Arguments are immutable, so sharing them is safe.
_ARGUMENT_SEGMENT_RE = re.compile(r"[^,()]*(?:\([^(),]*\)[^,()]*)?")
_ARGUMENT_CACHE: dict[str, tuple["Argument", int]] = {}
# Whole argument lists by their text (see _Parser._argument_list): PyTorch's 2,585 schemas have
# 1,286 distinct ones (`Tensor self, Tensor other, *, Scalar alpha=1` is add's, sub's, ...).
_ARGUMENTS_CACHE: dict[str, "Arguments"] = {}
# The same for returns (`Tensor`, `Tensor(a!)`, `Tensor values`), by the same segment rule.
_RETURN_CACHE: dict[str, tuple["Return", int]] = {}
# The text of each argument and return in those caches and of each operator name in
# _OPERATOR_NAMES, by id (the caches keep them alive, so an id is never reused): schemas render
# them to check their round trip, and the analysis and the emitters print them.
_INTERNED_TEXT: dict[int, tuple[object, str]] = {}

# Parsed types by their text (types are immutable, so sharing them is safe); saves most of the
# work on PyTorch's file, where a few dozen type spellings cover ten thousand arguments.
_TYPE_CACHE: dict[str, Type] = {}


def _check_inplace(name: OperatorName, arguments: "Arguments", returns: tuple, fail: Callable[..., Exception]) -> None:
    """torchgen's rule for a name ending in `_` (or `__iadd__`...): the op writes to `self`
    (`Tensor(a!) self`) and returns it (`-> Tensor(a!)`), or returns nothing when `self` is a list.
    Without it the wrapper would write through a `const Tensor&` (PyTorch's in-place ops all
    follow it)."""
    self_arg = arguments.self_arg
    if self_arg is None or not self_arg.is_write:
        raise fail(
            f"in-place operator '{name.name}' (its name ends in '_') must write to its first argument "
            "'self': declare it 'Tensor(a!) self'",
            0,
        )
    if isinstance(self_arg.type, OptionalType):
        # The wrapper checks and rebases the history of the tensor it writes to: there must be one.
        raise fail(
            f"in-place operator '{name.name}' writes to 'self', which cannot be optional: "
            f"declare it '{_type_str(self_arg.type.elem, self_arg.annotation)} self'",
            0,
        )
    if isinstance(self_arg.type, BaseType):
        if len(returns) != 1 or returns[0].annotation != self_arg.annotation:
            raise fail(
                f"in-place operator '{name.name}' must return self alone: "
                f"'-> {_type_str(self_arg.type, self_arg.annotation)}'",
                0,
            )
    elif returns:
        raise fail(f"in-place operator '{name.name}' with a self of type {self_arg.type} returns nothing: '-> ()'", 0)


_INT_LITERAL = re.compile(r"-?[0-9]+")
_FLOAT_LITERAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
# Bare names a default may be, by the base type they fit (the C++ spelling is cpp.default_value's).
_NAMED_DEFAULTS = {
    BaseTy.int: ("Mean", "Sum", "None_"),  # `int reduction=Mean`: ATen's Reduction enum
    BaseTy.ScalarType: ("float", "double", "long", "bool"),
    BaseTy.MemoryFormat: ("contiguous_format", "preserve_format"),
    BaseTy.Layout: ("strided",),
}
_NUMBER_TYPES = frozenset([BaseTy.int, BaseTy.SymInt, BaseTy.DeviceIndex])


def default_problem(ty: "Type", default: str) -> Optional[str]:
    """Why `default` cannot be the default of a value of type `ty` (`Tensor self=False`,
    `int n="a"`), or None: each default becomes C++ pasted into the API's declarations."""
    optional = isinstance(ty, OptionalType)
    t = ty.elem if optional else ty
    if default == "None":
        return None if optional else "None is the default of an optional type only (T?)"
    if isinstance(t, ListType):
        if default.startswith("["):
            items = [x.strip() for x in default[1:-1].split(",")] if default[1:-1].strip() else []
        else:
            items = [default]  # `int[2] stride=1` means [1, 1]
        for item in items:
            why = default_problem(t.elem, item) if item != "None" else "a list element cannot be None"
            if why is not None:
                return why
        return None
    if isinstance(t, OptionalType):
        t = t.elem
    if not isinstance(t, BaseType):
        return "expected a value of that type"
    base = t.name
    if default in _NAMED_DEFAULTS.get(base, ()):
        return None
    if base is BaseTy.bool or base is BaseTy.SymBool:
        return None if default in ("True", "False") else "expected True or False"
    if base in _NUMBER_TYPES:
        return None if _INT_LITERAL.fullmatch(default) else "expected an integer"
    if base in (BaseTy.float, BaseTy.Scalar):
        return None if _FLOAT_LITERAL.fullmatch(default) else "expected a number"
    if base is BaseTy.str:
        quoted = default[:1] in "\"'" and len(default) >= 2 and default[-1] == default[0]
        return None if quoted else "expected a string literal"
    names = _NAMED_DEFAULTS.get(base)
    if names:
        return f"expected one of {', '.join(names)}" + (" or None" if optional else "")
    return "a value of this type has no default but None (for its optional type)"


class _Parser:
    """A scanner over one schema text; each method parses one construct at `self.pos`."""

    __slots__ = ("text", "pos", "name_offset", "default_offset")

    def __init__(self, text: str) -> None:
        # The text being parsed: "add.Tensor(Tensor self, ...) -> Tensor".
        self.text = text
        # The offset of the next character to read.
        self.pos = 0
        # The offset of the last argument or return name read, and of the last default.
        self.name_offset = 0
        self.default_offset = 0

    def fail(self, message: str, offset: Optional[int] = None) -> SchemaParseError:
        return SchemaParseError(message, self.pos if offset is None else offset)

    def expect_end(self, what: str) -> None:
        if self.pos != len(self.text):
            raise self.fail(f"unexpected text after the {what}: '{self.text[self.pos :]}'")

    # schema := name '(' arguments ')' ' -> ' returns
    def schema(self) -> FunctionSchema:
        text = self.text
        m = _OPNAME_TOKEN_RE.match(text, 0)
        token = m.group()
        if not token:
            raise self.fail("expected an operator name")
        name = self._with_offset(OperatorName.parse, token, 0)
        self.pos = m.end()
        if self.pos == len(text) or text[self.pos] != "(":
            raise self.fail(f"expected '(' after the operator name '{token}'")
        open_paren = self.pos
        self.pos += 1
        arguments = self._argument_list(open_paren)
        self.pos += 1  # the ')'
        if text.startswith(" -> ", self.pos):
            self.pos += 4
        elif self.pos == len(text):
            raise self.fail("missing ' -> ' and the return type after the argument list")
        elif text[self.pos] == ")":
            raise self.fail("unbalanced parentheses: unexpected ')'")
        elif text.startswith("->", self.pos) or text[self.pos].isspace():
            raise self.fail("expected ' -> ' (one space each side) after the argument list")
        else:
            raise self.fail("missing ' -> ' after the argument list")
        returns = self.returns()
        self.expect_end("return type")
        if name.name.inplace and arguments.out:
            raise self.fail(f"in-place operator '{name.name}' cannot have out arguments", 0)
        if name.name.inplace:
            _check_inplace(name, arguments, returns, self.fail)
        for r in returns:
            # The wrappers record history on Tensor and Tensor[] returns; an optional one has no
            # way to say "no tensor" to the tracer (PyTorch's specs return none).
            t = r.type.elem if isinstance(r.type, ListType) else r.type
            if isinstance(t, OptionalType):
                raise self.fail(
                    f"a return of type {r.type} is not supported: return a Tensor, a Tensor[] or a non-optional value",
                    0,
                )
        return FunctionSchema(name, arguments, returns)

    def _with_offset(self, parse, token: str, start: int):
        """Runs `parse(token)`, shifting the offset of its errors by `start`."""
        try:
            return parse(token)
        except SchemaParseError as e:
            raise SchemaParseError(e.message, start + e.offset) from None

    def _argument_list(self, open_paren: int) -> Arguments:
        """The arguments after the schema's `(` at `open_paren`, up to its `)`. A list parsed
        before is looked up by its text, up to the first `) -> `: a list's parse ends at the `)`
        that follows it, wherever that is, so the same text followed by `)` parses the same."""
        text = self.text
        start = self.pos
        end = text.find(") -> ", start)
        if end >= 0:
            cached = _ARGUMENTS_CACHE.get(text[start:end])
            if cached is not None:
                self.pos = end
                return cached
        arguments = self.arguments(closing=open_paren)
        _ARGUMENTS_CACHE[text[start : self.pos]] = arguments
        return arguments

    # arguments := (argument | '*') (', ' (argument | '*'))*
    # Ends before `)` (at `closing`'s match) or at the end of the text when `closing` is None.
    def arguments(self, closing: Optional[int]) -> Arguments:
        text = self.text
        end = len(text)
        positional: list[Argument] = []
        kwarg_only: list[Argument] = []
        out: list[Argument] = []
        seen: set[str] = set()
        star: Optional[int] = None  # offset of `*`
        if (self.pos < end and text[self.pos] == ")") or (closing is None and self.pos == end):
            return Arguments((), (), ())
        if closing is not None and self.pos == end:
            raise self.fail("unbalanced parentheses: '(' is never closed", closing)
        while True:
            if self.pos < end and text[self.pos] == "*":
                if star is not None:
                    raise self.fail("'*' may appear only once")
                star = self.pos
                self.pos += 1
            else:
                start = self.pos
                segment = _ARGUMENT_SEGMENT_RE.match(text, start).group()
                cached = _ARGUMENT_CACHE.get(segment)
                if cached is not None:
                    arg = cached[0]
                    name_offset = start + cached[1]
                    self.pos = start + len(segment)
                else:
                    arg = self.argument()
                    name_offset = self.name_offset
                if arg.name in seen:
                    raise self.fail(f"duplicate argument name '{arg.name}'", name_offset)
                seen.add(arg.name)
                if star is None:
                    positional.append(arg)
                elif arg.is_write:
                    if arg.default is not None:
                        raise self.fail(f"out argument '{arg.name}' cannot have a default", name_offset + len(arg.name))
                    out.append(arg)
                elif out:
                    raise self.fail(f"keyword-only argument '{arg.name}' must come before the out arguments", start)
                else:
                    kwarg_only.append(arg)
                if cached is None:
                    if arg.default is not None:
                        why = default_problem(arg.type, arg.default)
                        if why is not None:
                            raise self.fail(
                                f"default '{arg.default}' of '{arg.name}' does not fit its type {arg.type}: {why}",
                                self.default_offset,
                            )
                    if self.pos == start + len(segment):
                        _ARGUMENT_CACHE[segment] = (arg, name_offset - start)
                        _INTERNED_TEXT[id(arg)] = (arg, arg._render())
            # separator or end
            if text.startswith(", ", self.pos):
                self.pos += 2
                continue
            at_close = self.pos < end and text[self.pos] == ")"
            if (closing is not None and at_close) or (closing is None and self.pos == end):
                break
            if closing is not None and self.pos == end:
                raise self.fail("unbalanced parentheses: '(' is never closed", closing)
            if text[self.pos] == ",":
                raise self.fail("expected ', ' (comma and one space) between arguments")
            raise self.fail("expected ', ' or ')' after an argument")
        if star is not None and not kwarg_only and not out:
            raise self.fail("'*' must be followed by a keyword-only argument", star)
        return Arguments(tuple(positional), tuple(kwarg_only), tuple(out))

    # argument := type ' ' name ('=' default)?
    def argument(self) -> Argument:
        ty, annotation = self.type(allow_annotation=True)
        name = self.name("an argument")
        default = None
        text = self.text
        if self.pos < len(text) and text[self.pos] == "=":
            self.pos += 1
            m = _DEFAULT_RE.match(text, self.pos)
            if m is None:
                c = text[self.pos] if self.pos < len(text) else ""
                if c == "[":
                    raise self.fail("unbalanced brackets: '[' is never closed")
                if c in "\"'":
                    raise self.fail("unterminated string literal")
                raise self.fail("expected a default value after '='")
            default = m.group()
            self.default_offset = self.pos
            self.pos = m.end()
        return Argument(name, ty, default, annotation)

    # name := identifier, after exactly one space; `what` is "an argument" or "a return"
    def name(self, what: str) -> str:
        text = self.text
        if self.pos >= len(text) or text[self.pos] != " ":
            raise self.fail(f"expected a space and {what} name after the type")
        self.pos += 1
        m = _NAME_TOKEN_RE.match(text, self.pos)
        token = m.group()
        if not token:
            if self.pos < len(text) and text[self.pos].isspace():
                raise self.fail("expected one space between the type and the name")
            raise self.fail(f"expected {what} name after the type")
        if not is_cpp_identifier(token):
            raise self.fail(f"'{token}' is not a valid C++ identifier")
        self.name_offset = self.pos
        self.pos = m.end()
        return token

    # returns := '()' | return | '(' return (', ' return)+ ')'
    def returns(self) -> tuple[Return, ...]:
        text = self.text
        if not text.startswith("(", self.pos):
            return (self.return_(),)
        open_paren = self.pos
        self.pos += 1
        if text.startswith(")", self.pos):
            self.pos += 1
            return ()
        returns: list[Return] = []
        seen: set[str] = set()
        while True:
            r = self.return_()
            if r.name is not None:
                if r.name in seen:
                    raise self.fail(f"duplicate return name '{r.name}'", self.name_offset)
                seen.add(r.name)
            returns.append(r)
            if text.startswith(", ", self.pos):
                self.pos += 2
                continue
            if text.startswith(")", self.pos):
                self.pos += 1
                break
            if self.pos == len(text):
                raise self.fail("unbalanced parentheses: '(' is never closed", open_paren)
            raise self.fail("expected ', ' or ')' after a return")
        if len(returns) == 1:
            raise self.fail("a single return is written without parentheses", open_paren)
        return tuple(returns)

    # return := type (' ' name)?
    def return_(self) -> Return:
        text = self.text
        start = self.pos
        segment = _ARGUMENT_SEGMENT_RE.match(text, start).group()
        end = start + len(segment)
        # Only where the segment is followed by ',', ')' or the end: a `(` after it would start
        # an annotation of a return without a name (`Tensor(a`), which the cached parse never saw.
        cached = _RETURN_CACHE.get(segment) if end == len(text) or text[end] in ",)" else None
        if cached is not None:
            r, name_offset = cached
            self.pos = start + len(segment)
            if r.name is not None:
                self.name_offset = start + name_offset
            return r
        ty, annotation = self.type(allow_annotation=True)
        name = None
        if self.text.startswith(" ", self.pos):
            name = self.name("a return")
        r = Return(name, ty, annotation)
        if self.pos == start + len(segment):
            _RETURN_CACHE[segment] = (r, self.name_offset - start)
            _INTERNED_TEXT[id(r)] = (r, r._render())
        return r

    # type := identifier ('(' annotation ')')? ('?' | '[' digits? ']')*
    def type(self, allow_annotation: bool) -> tuple[Type, Optional[Annotation]]:
        text = self.text
        start = self.pos
        m = _IDENT_RE.match(text, start)
        if m is None:
            raise self.fail("expected a type")
        base = m.group()
        self.pos = m.end()
        annotation = None
        if text.startswith("(", self.pos):
            am = _ANNOTATION_TOKEN_RE.match(text, self.pos)
            if am is None:
                raise self.fail("unbalanced parentheses: '(' is never closed")
            if base != "Tensor":
                raise self.fail(f"alias annotations are only allowed on Tensor, not on '{base}'")
            if not allow_annotation:
                raise self.fail("an alias annotation is not part of a type")
            annotation = _parse_annotation(text, self.pos + 1, am.group(1))
            self.pos = am.end()
        suffix_start = self.pos
        while self.pos < len(text):
            c = text[self.pos]
            if c == "?":
                self.pos += 1
            elif c == "[":
                lm = _LIST_SUFFIX_RE.match(text, self.pos)
                if lm is None:
                    raise self.fail("unbalanced brackets: '[' is never closed")
                self.pos = lm.end()
            else:
                break
        if self.pos < len(text) and text[self.pos] not in " ,)":
            token = _TYPE_TOKEN_RE.match(text, start).group()
            raise self.fail(f"invalid type '{token}'", start)
        spelled = base + text[suffix_start : self.pos]
        ty = _TYPE_CACHE.get(spelled)
        if ty is None:
            ty = self._build_type(base, start, suffix_start)
            _TYPE_CACHE[spelled] = ty
        return ty, annotation

    def _build_type(self, base: str, start: int, suffix_start: int) -> Type:
        base_ty = _BASE_TYS.get(base)
        if base_ty is None:
            raise self.fail(f"unknown type '{base}'", start)
        ty: Type = BaseType(base_ty)
        i = suffix_start
        text = self.text
        while i < self.pos:
            if text[i] == "?":
                if isinstance(ty, OptionalType):
                    raise self.fail("a type cannot be optional twice", i)
                ty = OptionalType(ty)
                i += 1
            else:
                lm = _LIST_SUFFIX_RE.match(text, i)
                size = lm.group(1)
                if size and (size[0] == "0"):
                    raise self.fail(f"invalid list size '{size}'", i + 1)
                ty = ListType(ty, int(size) if size else None)
                i = lm.end()
        return ty


@dataclass(frozen=True)
class NativeFunction:
    """One op declaration from native_functions.yaml."""

    # The op's schema: FunctionSchema.parse("add.Tensor(Tensor self, ...) -> Tensor").
    func: FunctionSchema
    # Where the declaration starts (its first key): Location("specs/native_functions.yaml", 12, 3).
    loc: Location
    # gradgen's flags: frozenset({"DONT_RECORD_TRACE"}); empty by default.
    flags: frozenset[str]
    # How the op is exposed: frozenset({"function", "method"}); {"function"} by default.
    variants: frozenset[str]
    # Kernel per dispatch key, in file order, `CPU, CUDA: add` split into one pair per key:
    # (("CPU", "add"), ("CUDA", "add")); () when there is no `dispatch:`.
    dispatch: tuple[tuple[str, str], ...]
    # Whether the C++ API is written by hand rather than generated: False by default.
    manual_cpp_binding: bool
    # Tags on the op: ("core", "pointwise"); () by default.
    tags: tuple[str, ...]
    # Whether the kernel registration is written by hand: False by default.
    manual_kernel_registration: bool = False
    # Whether the op checks that all Tensor arguments are on one device: "ExactSame" (default) or
    # "NoCheck".
    device_check: str = "ExactSame"
    # Whether a device guard is set before calling the kernel: True by default.
    device_guard: bool = True
    # Whether this is a structured kernel (PyTorch's meta + impl split): False by default.
    structured: bool = False
    # The out= op this op's structured kernel delegates to: OperatorName.parse("add.out"), or None.
    structured_delegate: Optional[OperatorName] = None
    # The base class of a structured kernel: "TensorIteratorBase", or None.
    structured_inherits: Optional[str] = None
    # Values a structured kernel's meta function precomputes, as written:
    # ("dim -> int dim",); () by default.
    precomputed: tuple[str, ...] = ()
    # The Python submodule the op is bound in: "nn", "linalg"; None for the top level.
    python_module: Optional[str] = None
    # Overrides how PyTorch's codegen categorizes the op: "factory", or None.
    category_override: Optional[str] = None
    # Arguments whose defaults the C++ API leaves out: ("dim",); () by default.
    cpp_no_default_args: tuple[str, ...] = ()
    # Whether mutable Tensor arguments are passed as `const Tensor&`: False by default.
    use_const_ref_for_mutable_tensors: bool = False
    # Ops PyTorch's codegen derives from this one: (OperatorName.parse("add.out"),); () by default.
    autogen: tuple[OperatorName, ...] = ()
    # PyTorch ufunc inner loops, as written: (("Generic", "add (AllAndComplex, ...)"),); ().
    ufunc_inner_loop: tuple[tuple[str, str], ...] = ()
    # Whether the declaration has a `dispatch:` key at all (`dispatch: {}` counts): PyTorch makes
    # a declaration without one CompositeImplicitAutograd. False by default.
    has_dispatch_section: bool = False

    @property
    def name(self) -> OperatorName:
        """The op's name with overload: `add.Tensor`."""
        return self.func.name
