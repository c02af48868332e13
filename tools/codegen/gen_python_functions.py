"""Emits python_functions.h / python_functions[_k].cpp: nanobind bindings of the whole API.

The third of the seed's generators (PyTorch's gen_python_functions): every declaration becomes a
Python function of the extension module and/or a method of `gradgen.Tensor`, overloads of one
name grouped into one Python callable. What a binding looks like is decided in python.py; this
module groups declarations, splits them into shards and hands plain data to the templates.

For a library in namespace `ns`, python_functions.h declares `ns::python::bind_generated(m)`,
which defines everything on module `m` (and on the Tensor class, already registered by
`gradgen._C`). Each shard's file defines `bind_functions_<k>(m)`; a group of overloads is never
split across shards (it goes with the op's base name, like the C++ API: see Note [Shards] in
gen_autograd.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Sequence, Tuple

from tools.codegen import python
from tools.codegen.model import NativeFunction


@dataclass(frozen=True)
class Skipped:
    """A declaration Python cannot call, with the reason, printed as a comment."""

    schema: str
    reason: str


@dataclass(frozen=True)
class PythonShard:
    """What one shard's file binds."""

    groups: Tuple[python.PyGroup, ...]
    skipped: Tuple[Skipped, ...]


def python_groups(
    functions: Sequence[NativeFunction],
) -> Tuple[List[Tuple[str, python.PyGroup]], List[Tuple[str, Skipped]]]:
    """Every Python function and method with the base name of its op (the shard key), in the
    order of the declarations file; and the declarations that cannot be bound."""
    overloads: Dict[Tuple[str, python.Variant], List[python.PyOverload]] = {}
    base_of: Dict[Tuple[str, python.Variant], str] = {}
    skipped: List[Tuple[str, Skipped]] = []
    for f in functions:
        base = f.func.name.name.base
        for kind in python.Variant:
            if kind not in f.variants:
                continue
            if kind is python.Variant.METHOD and f.func.is_out_fn():
                continue  # out= variants are functions only (`gradgen.add(x, y, out=z)`)
            try:
                o = python.overload(f.func, f.func.cpp_name(), kind)
            except python.Unbindable as e:
                skipped.append((base, Skipped(str(f.func), f"as a {kind}: {e}")))
                continue
            key = (python.python_name(f.func), kind)
            overloads.setdefault(key, []).append(o)
            base_of.setdefault(key, base)
    groups: List[Tuple[str, python.PyGroup]] = []
    for (name, kind), os_ in overloads.items():
        try:
            groups.append((base_of[(name, kind)], python.group(name, kind, os_)))
        except python.Unbindable as e:
            for o in os_:
                skipped.append((base_of[(name, kind)], Skipped(o.schema, f"as a {kind}: {e}")))
    return groups, skipped


def shards_of(
    groups: List[Tuple[str, python.PyGroup]],
    skipped: List[Tuple[str, Skipped]],
    shards: int,
    shard_of: Callable[[str, int], int],
) -> List[PythonShard]:
    by_shard_groups: List[List[python.PyGroup]] = [[] for _ in range(shards)]
    by_shard_skipped: List[List[Skipped]] = [[] for _ in range(shards)]
    for base, g in groups:
        by_shard_groups[shard_of(base, shards)].append(g)
    for base, s in skipped:
        by_shard_skipped[shard_of(base, shards)].append(s)
    return [PythonShard(tuple(g), tuple(s)) for g, s in zip(by_shard_groups, by_shard_skipped)]
