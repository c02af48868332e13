"""Emits python_functions.h / python_functions[_k].cpp: nanobind bindings of the whole API.

The third of the seed's generators (PyTorch's gen_python_functions): every declaration becomes a
Python function of the extension module and/or a method of `gradgen.Tensor`, overloads of one
name grouped into one Python callable. What a binding looks like, and which declarations Python
cannot call, is decided in python.py (during planning: Plan.python); this module splits the
bindings into shards and hands plain data to the templates.

For a library in namespace `ns`, python_functions.h declares `ns::python::bind_generated(m)`,
which defines everything on module `m` (and on the Tensor class, already registered by
`gradgen._C`). Each shard's file defines `bind_functions_<k>(m)`; a group of overloads is never
split across shards (it goes with the op's base name, like the C++ API: see Note [Shards] in
gen_autograd.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Tuple

from tools.codegen import python


@dataclass(frozen=True)
class PythonShard:
    """What one shard's file binds."""

    groups: Tuple[python.PyGroup, ...]
    skipped: Tuple[python.Skipped, ...]


def shards_of(bindings: python.Bindings, shards: int, shard_of: Callable[[str, int], int]) -> List[PythonShard]:
    """What each of `shards` files binds: a group goes with the shard of its op's base name."""
    by_shard_groups: List[List[python.PyGroup]] = [[] for _ in range(shards)]
    by_shard_skipped: List[List[python.Skipped]] = [[] for _ in range(shards)]
    for base, g in bindings.groups:
        by_shard_groups[shard_of(base, shards)].append(g)
    for base, s in bindings.skipped:
        by_shard_skipped[shard_of(base, shards)].append(s)
    return [PythonShard(tuple(g), tuple(s)) for g, s in zip(by_shard_groups, by_shard_skipped)]
