"""Load op declarations (native_functions.yaml) into `NativeFunction`s.

The file is a list of mappings, one per op:

    - func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
      variants: function, method
      dispatch:
        CPU, CUDA: add
      flags: [DONT_RECORD_TRACE]

Every key PyTorch's own file uses is accepted, so that file loads unchanged; gradgen adds `flags`.
Keys that only matter to PyTorch's dispatcher (structured kernels, ufunc loops, ...) are kept
as written for whoever needs them, and are otherwise ignored. A key or value that is not allowed is
a SpecError at its own line and column.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Optional, Union

from tools.codegen.errors import Location, SchemaParseError, SpecError
from tools.codegen.model import FunctionSchema, NativeFunction, OperatorName
from tools.codegen.yaml_loader import Node, Seq, gc_paused, load_yaml_with_loc

__all__ = ["NativeFunction", "FLAGS", "VARIANTS", "KEYS", "parse_native_functions", "parse_native_function"]

# gradgen's own per-op switches, from the `flags:` key.
FLAGS = frozenset(
    [
        # Do not record the op in a trace.
        "DONT_RECORD_TRACE",
        # Do not wrap the op in a profiler range.
        "DONT_PROFILE",
        # The op may lack a derivatives.yaml entry without that being an error.
        "DONT_REQUIRE_DERIVATIVE",
    ]
)

# The values `variants:` may list: a free function `gradgen::add(a, b)`, a method `a.add(b)`.
VARIANTS = frozenset(["function", "method"])

# The values `device_check:` may have.
_DEVICE_CHECKS = frozenset(["ExactSame", "NoCheck"])


# ---------------------------------------------------------------------------------------------
# Values of each key
# ---------------------------------------------------------------------------------------------


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _expect(entry: Node, key: str, value: Any, kind: type, what: str) -> None:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SpecError(f"'{key}' must be {what}, not {_type_name(value)}", entry.value_loc(key))


def _bool(entry: Node, key: str) -> bool:
    value = entry[key]
    _expect(entry, key, value, bool, "True or False")
    return value


def _str(entry: Node, key: str) -> str:
    value = entry[key]
    _expect(entry, key, value, str, "a string")
    return value


def _str_list(entry: Node, key: str, *, allow_comma_string: bool) -> tuple[str, ...]:
    """Returns each string of a list (or of a comma-separated string, if allowed); `_item_loc`
    says where one is (asked only for a message: most declarations have lists and no mistake)."""
    value = entry[key]
    if isinstance(value, str) and allow_comma_string:
        return tuple(part.strip() for part in value.split(","))
    if isinstance(value, Seq):
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise SpecError(f"'{key}' must list strings, not {_type_name(item)}", value.item_loc(i))
        return tuple(value)
    what = "a list or a comma-separated string" if allow_comma_string else "a list of strings"
    raise SpecError(f"'{key}' must be {what}, not {_type_name(value)}", entry.value_loc(key))


def _item_loc(entry: Node, key: str, index: int) -> Location:
    """Where string `index` of `_str_list(entry, key, ...)` is written."""
    value = entry[key]
    if isinstance(value, str):
        # "function, method": the part's position from its offset in the string.
        parts = value.split(",")
        part = parts[index]
        offset = sum(len(p) + 1 for p in parts[:index])
        return entry.value_loc(key, offset + (len(part) - len(part.lstrip())))
    return value.item_loc(index)


def _operator_name(text: str, loc: Callable[[], Location]) -> OperatorName:
    try:
        return OperatorName.parse(text)
    except SchemaParseError as e:
        raise SpecError(e.message, loc()) from None


def _choices(entry: Node, key: str, allowed: frozenset, allow_comma_string: bool, expected: str) -> frozenset:
    """The strings of list `key`, each one of `allowed` (else: "unknown <what> ...; expected ...")."""
    found = _str_list(entry, key, allow_comma_string=allow_comma_string)
    for i, value in enumerate(found):
        if value not in allowed:
            raise SpecError(f"unknown {key[:-1]} '{value}'; expected {expected}", _item_loc(entry, key, i))
    return frozenset(found)


def _flags(entry: Node) -> dict[str, Any]:
    return {"flags": _choices(entry, "flags", FLAGS, False, "one of " + ", ".join(sorted(FLAGS)))}


def _variants(entry: Node) -> dict[str, Any]:
    return {"variants": _choices(entry, "variants", VARIANTS, True, "function or method")}


def _dispatch(entry: Node) -> dict[str, Any]:
    table = entry["dispatch"]
    if not isinstance(table, Node):
        raise SpecError(f"'dispatch' must be a mapping, not {_type_name(table)}", entry.value_loc("dispatch"))
    pairs: list[tuple[str, str]] = []
    seen: set[str] = set()
    for keys, kernel in table.items():
        if not isinstance(keys, str):
            raise SpecError("dispatch keys must be strings", table.key_loc(keys))
        if not isinstance(kernel, str):
            raise SpecError(
                f"the kernel for '{keys}' must be a string, not {_type_name(kernel)}", table.value_loc(keys)
            )
        for key in keys.split(","):
            key = key.strip()
            if not key:
                raise SpecError(f"empty dispatch key in '{keys}'", table.key_loc(keys))
            if key in seen:
                raise SpecError(f"dispatch key '{key}' is listed twice", table.key_loc(keys))
            seen.add(key)
            pairs.append((key, kernel))
    return {"dispatch": tuple(pairs), "has_dispatch_section": True}


def _device_check(entry: Node) -> dict[str, Any]:
    value = _str(entry, "device_check")
    if value not in _DEVICE_CHECKS:
        raise SpecError(
            f"unknown device_check '{value}'; expected ExactSame or NoCheck", entry.value_loc("device_check")
        )
    return {"device_check": value}


def _tags(entry: Node) -> dict[str, Any]:
    return {"tags": _str_list(entry, "tags", allow_comma_string=True)}


def _autogen(entry: Node) -> dict[str, Any]:
    names = _str_list(entry, "autogen", allow_comma_string=True)
    return {
        "autogen": tuple(_operator_name(n, lambda i=i: _item_loc(entry, "autogen", i)) for i, n in enumerate(names))
    }


def _precomputed(entry: Node) -> dict[str, Any]:
    return {"precomputed": _str_list(entry, "precomputed", allow_comma_string=False)}


def _cpp_no_default_args(entry: Node) -> dict[str, Any]:
    return {"cpp_no_default_args": _str_list(entry, "cpp_no_default_args", allow_comma_string=False)}


def _structured_delegate(entry: Node) -> dict[str, Any]:
    value = _str(entry, "structured_delegate")
    return {"structured_delegate": _operator_name(value, lambda: entry.value_loc("structured_delegate"))}


def _ufunc_inner_loop(entry: Node) -> dict[str, Any]:
    table = entry["ufunc_inner_loop"]
    if not isinstance(table, Node):
        raise SpecError(
            f"'ufunc_inner_loop' must be a mapping, not {_type_name(table)}", entry.value_loc("ufunc_inner_loop")
        )
    for key, value in table.items():
        if not isinstance(value, str):
            raise SpecError(f"the loop for '{key}' must be a string, not {_type_name(value)}", table.value_loc(key))
    return {"ufunc_inner_loop": tuple((str(k), v) for k, v in table.items())}


def _simple(key: str, read: Callable[[Node, str], Any]) -> Callable[[Node], dict[str, Any]]:
    return lambda entry: {key: read(entry, key)}


# Each accepted key (other than `func`) -> a function returning the NativeFunction fields it sets.
_KEY_READERS: dict[str, Callable[[Node], dict[str, Any]]] = {
    "autogen": _autogen,
    "category_override": _simple("category_override", _str),
    "cpp_no_default_args": _cpp_no_default_args,
    "device_check": _device_check,
    "device_guard": _simple("device_guard", _bool),
    "dispatch": _dispatch,
    "flags": _flags,
    "manual_cpp_binding": _simple("manual_cpp_binding", _bool),
    "manual_kernel_registration": _simple("manual_kernel_registration", _bool),
    "precomputed": _precomputed,
    "python_module": _simple("python_module", _str),
    "structured": _simple("structured", _bool),
    "structured_delegate": _structured_delegate,
    "structured_inherits": _simple("structured_inherits", _str),
    "tags": _tags,
    "ufunc_inner_loop": _ufunc_inner_loop,
    "use_const_ref_for_mutable_tensors": _simple("use_const_ref_for_mutable_tensors", _bool),
    "variants": _variants,
}

# Every key a declaration may have.
KEYS = frozenset(_KEY_READERS) | {"func"}
_EXPECTED_KEYS = ", ".join(sorted(KEYS))


# ---------------------------------------------------------------------------------------------
# Declarations
# ---------------------------------------------------------------------------------------------


def parse_native_function(entry: Node) -> NativeFunction:
    """Returns the NativeFunction for one mapping of native_functions.yaml."""
    for key in entry:
        if key not in KEYS:
            raise SpecError(
                f"unknown key '{key}' in a declaration; expected one of {_EXPECTED_KEYS}", entry.key_loc(key)
            )
    if "func" not in entry:
        raise SpecError("a declaration needs a 'func:' key with the op's schema", entry.loc)
    schema = entry["func"]
    if not isinstance(schema, str):
        raise SpecError(f"'func' must be a schema string, not {_type_name(schema)}", entry.value_loc("func"))
    try:
        func = FunctionSchema.parse(schema)
    except SchemaParseError as e:
        raise SchemaParseError(e.message, e.offset, entry.value_loc("func", e.offset)) from None

    fields: dict[str, Any] = {
        "flags": frozenset(),
        "variants": frozenset(["function"]),
        "dispatch": (),
        "manual_cpp_binding": False,
        "tags": (),
    }
    for key in entry:
        if key != "func":
            fields.update(_KEY_READERS[key](entry))
    return NativeFunction(func=func, loc=entry.loc, **fields)


def parse_native_functions(path: Union[str, os.PathLike], display_name: Optional[str] = None) -> list[NativeFunction]:
    """Returns the declarations of a native_functions.yaml file, in file order.

    `display_name` is the file name used in error locations (workspace-relative); it defaults to
    `path`. Raises SpecError at the offending line and column for malformed YAML, a file that is
    not a list of mappings, an unknown key or flag, a bad schema, or the same op and overload
    declared twice.
    """
    with gc_paused():
        return _parse_native_functions(path, display_name)


def _parse_native_functions(path: Union[str, os.PathLike], display_name: Optional[str]) -> list[NativeFunction]:
    data, root_loc = load_yaml_with_loc(path, display_name)
    if data is None:
        raise SpecError("expected a list of declarations ('- func: ...'), but the file is empty", root_loc)
    if not isinstance(data, Seq):
        raise SpecError(f"expected a list of declarations ('- func: ...'), not {_type_name(data)}", root_loc)
    functions: list[NativeFunction] = []
    # Each op name with overload -> the line of its first `func:`.
    first_seen: dict[OperatorName, int] = {}
    for i, entry in enumerate(data):
        if not isinstance(entry, Node):
            raise SpecError(
                f"expected a declaration (a mapping with 'func:'), not {_type_name(entry)}", data.item_loc(i)
            )
        f = parse_native_function(entry)
        func_loc = entry.value_loc("func")
        previous_line = first_seen.get(f.func.name)
        if previous_line is not None:
            raise SpecError(
                f"duplicate declaration of '{f.func.name}' (first declared at line {previous_line})", func_loc
            )
        first_seen[f.func.name] = func_loc.line
        functions.append(f)
    return functions
