"""Translates schema types into the C++ types of gradgen's runtime.

One place answers "what C++ type does this argument, return or saved value have", so the
emitters never spell a type themselves. The runtime's vocabulary (csrc/tensor.h) follows ATen's:

  schema type          argument type                         saved member type
  Tensor               const Tensor&                         SavedVariable
  Tensor(a!)           Tensor&                               SavedVariable
  Tensor?              const std::optional<Tensor>&          SavedVariable
  Tensor[]             TensorList                            std::vector<SavedVariable>
  Tensor?[]            const std::vector<std::optional<Tensor>>&  std::vector<SavedVariable>
  int, SymInt          int64_t                               int64_t
  int[], SymInt[]      IntArrayRef                           std::vector<int64_t>
  int[]?               OptionalIntArrayRef                   std::optional<std::vector<int64_t>>
  float / float[]      double / ArrayRef<double>             double / std::vector<double>
  bool[3]              std::array<bool, 3>                   std::array<bool, 3>
  str / str?           std::string_view / std::optional<std::string_view>   std::string / std::optional<std::string>
  Scalar               const Scalar&                         Scalar
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Tuple

from tools.codegen.model import (
    Argument,
    BaseTy,
    BaseType,
    FunctionSchema,
    ListType,
    OptionalType,
    Return,
    Type,
)

# Value types of the non-tensor base types, by schema name. Types the gradgen runtime does not
# implement yet (Layout, Device, ...) keep ATen's names, so code generated for PyTorch's specs is
# complete and reads like ATen's.
_BASE_VALUE_TYPES = {
    "int": "int64_t",
    "SymInt": "int64_t",
    "float": "double",
    "bool": "bool",
    "str": "std::string_view",
    "Scalar": "Scalar",
    "ScalarType": "ScalarType",
    "Layout": "Layout",
    "Device": "Device",
    "DeviceIndex": "DeviceIndex",
    "Generator": "Generator",
    "Dimname": "Dimname",
    "MemoryFormat": "MemoryFormat",
    "QScheme": "QScheme",
    "Storage": "Storage",
    "Stream": "Stream",
    "ConstQuantizerPtr": "ConstQuantizerPtr",
    "GraphModule": "GraphModule",
    "Tensor": "Tensor",
}


def _base_name(t: BaseType) -> str:
    return t.name._name_  # the enum member's name, without Enum's slow `name` property


def value_type(t: Type) -> str:
    """The C++ type that owns a value of schema type `t` (what a struct member holds)."""
    if isinstance(t, BaseType):
        name = _base_name(t)
        if name == "str":
            return "std::string"
        return _BASE_VALUE_TYPES.get(name, name)
    if isinstance(t, OptionalType):
        return f"std::optional<{value_type(t.elem)}>"
    if isinstance(t, ListType):
        elem = t.elem
        if isinstance(elem, BaseType) and _base_name(elem) == "bool" and t.size is not None:
            return f"std::array<bool, {t.size}>"
        return f"std::vector<{value_type(elem)}>"
    raise AssertionError(f"unknown type {t}")


def is_tensor(t: Type) -> bool:
    """Tensor or Tensor? : one gradient slot, saved as a SavedVariable."""
    if isinstance(t, OptionalType):
        t = t.elem
    return isinstance(t, BaseType) and t.name == BaseTy.Tensor


def is_tensor_list(t: Type) -> bool:
    """Tensor[] or Tensor?[] : as many gradient slots as elements at run time."""
    return isinstance(t, ListType) and is_tensor(t.elem)


@dataclass(frozen=True)
class CType:
    """A C++ parameter or return type, as a value (torchgen's `NamedCType` without the name): how it
    is spelled, the type itself once `const` and `&` are dropped, and how a parameter of it becomes
    the owning value a Backward node keeps (a view such as `IntArrayRef` is copied into a
    `std::vector<int64_t>`). Emitters print these; none of them takes a spelling apart again."""

    spelling: str
    # `const std::optional<Tensor>&` -> `std::optional<Tensor>`.
    value: str
    # The expression that makes an owning copy of a parameter named {0} ("{0}": it already is one).
    owning_copy: str = "{0}"

    def __str__(self) -> str:
        return self.spelling

    def keep(self, source: str) -> str:
        """The owning copy of the parameter `source`, for a saved member."""
        return self.owning_copy.format(source)

    @property
    def empty(self) -> str:
        """A value-initialized value (`IntArrayRef()`, `std::optional<double>()`)."""
        return f"{self.value}()"


def _by_value(value: str, owning_copy: str = "{0}") -> CType:
    return CType(value, value, owning_copy)


def _const_ref(value: str) -> CType:
    return CType(f"const {value}&", value)


# Views and their owning copies.
_VEC = "{0}.vec()"
_STRING = "std::string({0})"
_OPTIONAL_VEC = "{0}.has_value() ? std::optional<std::vector<int64_t>>({0}->vec()) : std::nullopt"
_OPTIONAL_STRING = "{0}.has_value() ? std::optional<std::string>(std::string({0}.value())) : std::nullopt"


# (id of a schema type, whether written to) -> (the type, its CType). Schema types are interned by
# the parser (model._TYPE_CACHE), so a spec has a few hundred of them and its arguments tens of
# thousands; the type is kept with its CType so that its id is never reused.
_ARGUMENT_TYPES: Dict[Tuple[int, bool], Tuple[Type, CType]] = {}


def argument_type(a: Argument) -> CType:
    """The C++ parameter type of a schema argument."""
    t = a.type
    mutable = a.annotation is not None and a.annotation.is_write
    key = (id(t), mutable)
    found = _ARGUMENT_TYPES.get(key)
    if found is not None and found[0] is t:
        return found[1]
    ctype = _argument_type(t, mutable)
    _ARGUMENT_TYPES[key] = (t, ctype)
    return ctype


def _argument_type(t: Type, mutable: bool) -> CType:
    if isinstance(t, BaseType):
        name = _base_name(t)
        if name == "Tensor":
            return CType("Tensor&", "Tensor") if mutable else _const_ref("Tensor")
        if name == "Scalar":
            return _const_ref("Scalar")
        if name == "str":
            return _by_value("std::string_view", _STRING)
        return _by_value(_BASE_VALUE_TYPES.get(name, name))
    if isinstance(t, OptionalType):
        elem = t.elem
        if isinstance(elem, BaseType) and _base_name(elem) == "Tensor":
            return _const_ref("std::optional<Tensor>")
        if (
            isinstance(elem, ListType)
            and isinstance(elem.elem, BaseType)
            and _base_name(elem.elem) in ("int", "SymInt")
        ):
            return _by_value("OptionalIntArrayRef", _OPTIONAL_VEC)
        if isinstance(elem, BaseType):
            name = _base_name(elem)
            optional = f"std::optional<{_BASE_VALUE_TYPES.get(name, name)}>"
            return _by_value(optional, _OPTIONAL_STRING if name == "str" else "{0}")
        return _const_ref(f"std::optional<{value_type(elem)}>")
    if isinstance(t, ListType):
        elem = t.elem
        if isinstance(elem, BaseType):
            name = _base_name(elem)
            if name == "Tensor":
                return _by_value("TensorList")
            if name in ("int", "SymInt"):
                return _by_value("IntArrayRef", _VEC)
            if name == "bool" and t.size is not None:
                return _by_value(f"std::array<bool, {t.size}>")
            if name == "Dimname":
                return _by_value("DimnameList")
            return _by_value(f"ArrayRef<{value_type(elem)}>", _VEC)
        return _const_ref(value_type(t))
    raise AssertionError(f"unknown type {t}")


# The same for returns (Tensor(a!) is `Tensor&`, other written types are returned by value).
_RETURN_TYPES: Dict[Tuple[int, bool], Tuple[Type, CType]] = {}


def return_type(r: Return) -> CType:
    t = r.type
    written = r.annotation is not None and r.annotation.is_write
    key = (id(t), written)
    found = _RETURN_TYPES.get(key)
    if found is not None and found[0] is t:
        return found[1]
    ctype = _return_type(t, written)
    _RETURN_TYPES[key] = (t, ctype)
    return ctype


def _return_type(t: Type, written: bool) -> CType:
    if isinstance(t, ListType) and is_tensor(t.elem):
        return _by_value("std::vector<Tensor>")
    if written and is_tensor(t):
        return CType("Tensor&", "Tensor")
    return _by_value(value_type(t))


def returns_type(func: FunctionSchema) -> CType:
    rets = func.returns
    if len(rets) == 0:
        return _by_value("void")
    if len(rets) == 1:
        return return_type(rets[0])
    return _by_value("std::tuple<" + ", ".join(return_type(r).spelling for r in rets) + ">")


@dataclass(frozen=True)
class MemberType:
    """The C++ type of a Backward node's member: its spelling, and its initializer where a
    default-constructed member would be indeterminate (a scalar: "0", "false"), else ""."""

    spelling: str
    init: str = ""


# Members of these types start zeroed: a node whose formula never ran still has defined values.
_ZERO_INIT = {"int64_t": "0", "double": "0", "size_t": "0", "bool": "false"}


# Member types by spelling, and by (id of a schema type, is_output) with the type (as
# _ARGUMENT_TYPES): every saved value of every formula asks for one.
_MEMBER_TYPES: Dict[str, MemberType] = {}
_SAVED_MEMBER_TYPES: Dict[Tuple[int, bool], Tuple[Type, MemberType]] = {}


def member_type(spelling: str) -> MemberType:
    """The member type spelled `spelling` ("int64_t", "std::vector<int64_t>", ...)."""
    found = _MEMBER_TYPES.get(spelling)
    if found is None:
        found = _MEMBER_TYPES[spelling] = MemberType(spelling, _ZERO_INIT.get(spelling, ""))
    return found


def saved_member_type(t: Type, is_output: bool = False) -> MemberType:
    """The member type a Backward node uses to keep a value of schema type `t`."""
    key = (id(t), is_output)
    found = _SAVED_MEMBER_TYPES.get(key)
    if found is not None and found[0] is t:
        return found[1]
    member = _saved_member_type(t, is_output)
    _SAVED_MEMBER_TYPES[key] = (t, member)
    return member


def _saved_member_type(t: Type, is_output: bool) -> MemberType:
    if is_tensor(t):
        return member_type("SavedVariable")
    if is_tensor_list(t):
        return member_type("std::vector<SavedVariable>")
    if isinstance(t, BaseType) and _base_name(t) == "Scalar" and is_output:
        return member_type("SavedVariable")
    return member_type(value_type(t))


# Escapes a schema string literal and a C++ one spell alike (`\"`, `\n`, ...); others are kept as text.
_CPP_ESCAPES = frozenset("\"'\\?abfnrtv0")


def _cpp_string(body: str) -> str:
    """A C++ string literal for the text between a schema default's quotes (`a\"b`, `it's`)."""
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and body[i + 1] in _CPP_ESCAPES:
            out.append(body[i : i + 2])
            i += 2
            continue
        out.append({"\\": "\\\\", '"': '\\"', "\n": "\\n"}.get(c, c))
        i += 1
    return '"' + "".join(out) + '"'


def default_value(a: Argument) -> Optional[str]:
    """The C++ spelling of a schema default, for the declaration of the differentiable API."""
    d = a.default
    if d is None:
        return None
    t = a.type
    if d == "None":
        return "std::nullopt"
    lt = t.elem if isinstance(t, OptionalType) else t
    if isinstance(lt, ListType) and not d.startswith("["):
        # `int[2] stride=1` means {1, 1} and `bool[3] m=False` {false, false, false}: the one
        # element spelled as a default of the element type (a pasted `false` is no std::array).
        one = default_value(Argument(a.name, lt.elem, d, None))
        return "{" + ", ".join([one] * (lt.size if lt.size is not None else 1)) + "}"
    if d == "True":
        return "true"
    if d == "False":
        return "false"
    if d.startswith("[") and d.endswith("]"):
        # Each element spelled as a default of the element type: `bool[3] m=[True, False, True]`
        # is `{true, false, true}` (a pasted `True` names nothing in C++), `float[] s=[1]` is `{1.0}`.
        lt = t.elem if isinstance(t, OptionalType) else t
        elem = lt.elem if isinstance(lt, ListType) else lt
        items = [x.strip() for x in d[1:-1].split(",") if x.strip()]
        return "{" + ", ".join(default_value(Argument(a.name, elem, x, None)) for x in items) + "}"
    if d.startswith('"') or d.startswith("'"):
        return _cpp_string(d[1:-1])
    if isinstance(t, BaseType) and _base_name(t) == "float" and d.lstrip("-").isdigit():
        return d + ".0"
    if d == "contiguous_format":
        return "MemoryFormat::Contiguous"
    if d == "preserve_format":
        return "MemoryFormat::Preserve"
    if d == "strided":
        return "Layout::Strided"
    if t.is_base_ty_like(BaseTy.ScalarType) and d in ("float", "double", "long", "bool"):
        return f"ScalarType::{d.capitalize()}"  # `ScalarType? dtype=long`
    if d in ("Mean", "Sum", "None_"):
        # `None_` is the schema's spelling (a bare None means an optional's nullopt); the
        # enumerator is Reduction::None, as ATen's.
        return f"Reduction::{d.rstrip('_')}"
    return d


# Words of C++ types and defaults spelled here that are not names of gradgen's runtime.
_CXX_WORDS = frozenset(["const", "int64_t", "double", "bool", "void", "size_t", "int", "true", "false", "nullptr"])
# A name not qualified by a namespace (not after `::`), outside string literals.
_UNQUALIFIED_NAME = re.compile(r"(?<![:\w])[A-Za-z_]\w*(?!\w)")
_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')
# The runtime's names that live in gradgen::autograd rather than gradgen.
_AUTOGRAD_NAMES = frozenset(["Node", "SavedVariable", "TensorGeometry", "TypeAndSize", "variable_list"])


def runtime_names(spellings: Iterable[str]) -> List[str]:
    """The runtime names (sorted) that C++ types and defaults spelled by this module use:
    `const std::optional<Tensor>&` uses Tensor; `MemoryFormat::Contiguous` uses MemoryFormat.
    Generated headers outside namespace gradgen make exactly these visible, with using-declarations
    (see `runtime_namespace`)."""
    names = set()
    for text in set(spellings):  # the same few types, spelled once per member or parameter
        names.update(_UNQUALIFIED_NAME.findall(_STRING_LITERAL.sub("", text)))
    return sorted(n for n in names - _CXX_WORDS if n != "std")


def runtime_namespace(name: str) -> str:
    """The namespace of a runtime name (runtime_names): `::gradgen`, or `::gradgen::autograd`.
    `Reduction` (of `Reduction::Mean`) is a namespace holding an enum of the same name, and a
    using-declaration may not name a namespace: the enum is the name made visible, and
    `Reduction::Mean` then names its enumerator."""
    if name == "Reduction":
        return "::gradgen::Reduction"
    return "::gradgen::autograd" if name in _AUTOGRAD_NAMES else "::gradgen"


def qualified_runtime_names(spellings: Iterable[str]) -> List[Tuple[str, str]]:
    """(namespace, name) of each runtime name `spellings` use, for `using <ns>::<name>;`."""
    return sorted((runtime_namespace(n), n) for n in runtime_names(spellings))
