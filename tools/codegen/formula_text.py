"""Identifiers in formula text: the one place that finds and renames them.

A formula is C++ text, read the way torchgen reads it: an identifier is used when it appears as
a whole word (PyTorch's `IDENT_REGEX`, `(^|\\W){}($|\\W)`), and it is renamed only where it is a
free name, not a member or the tail of a qualified name (`x.grad`, `p->self`, `at::result` keep
their spelling). Renaming uses lookarounds rather than PyTorch's pattern: that one consumes the
characters around a match, so in `grad * self * self` its single pass renames only the first
`self` (the second one's leading space was eaten by the first match).
"""

from __future__ import annotations

import functools
import re
from typing import Mapping

_WORD = re.compile(r"\w+")
# A free identifier: no word character, member access or `::` before it, no word character after.
_FREE = r"(?<![\w.>:])(?:{})(?!\w)"


@functools.lru_cache(maxsize=None)
def _words(text: str) -> frozenset:
    return frozenset(_WORD.findall(text))


def uses(name: str, text: str) -> bool:
    """Whether identifier `name` appears in `text` as a whole word (PyTorch's IDENT_REGEX test)."""
    return name in _words(text)


@functools.lru_cache(maxsize=None)
def _free_pattern(names: tuple) -> "re.Pattern[str]":
    # Longest first, so that `self_p` is not read as `self` followed by `_p`.
    return re.compile(_FREE.format("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))))


def rename(text: str, renames: Mapping[str, str]) -> str:
    """`text` with every free use of each key of `renames` replaced by its value, all at once
    (a replacement is never renamed again), adjacent uses included."""
    if not renames or not any(n in text for n in renames):
        return text
    return _free_pattern(tuple(renames)).sub(lambda m: renames[m.group(0)], text)
