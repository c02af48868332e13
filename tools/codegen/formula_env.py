"""PyTorch's formula language, made gradgen's C++: method calls, `at::` names, the names a formula calls.

PyTorch's derivatives.yaml writes formulas against ATen's C++ API, where every op is both a free
function (`at::mm(a, b)`) and a method of Tensor (`a.mm(b)`), and where `at::` / `c10::` qualify
names. gradgen's generated API has the free functions only (a Tensor method per op would tie the
tensor layer to every library's generated code), so the analysis rewrites each formula into the
free-function form before anything else reads it:

  * `recv.name(args)` becomes `name(recv, args)` for every method that is not one of the members
    listed in MEMBERS (Tensor's accessors such as `sizes()` / `sym_sizes()` / `scalar_type()`, and
    those of std::optional, std::vector and Scalar): `grad.t()` -> `t(grad)`,
    `self.transpose(1, 2).conj().bmm(grad)` -> `bmm(conj(transpose(self, 1, 2)), grad)`;
  * `at::`, `at::native::` and `c10::` before a name are dropped: `at::mm(...)` -> `mm(...)`,
    `at::Reduction::None` -> `Reduction::None`, `c10::SymInt` -> `SymInt` (formulas.h defines
    what these names mean in gradgen).

The formula as written stays the comment above its generated code; the rewritten one is the code.
`called_functions` lists the unqualified names a (rewritten) formula calls, which the analysis
checks against the environment's functions (`FormulaEnvironment`), so that a misspelt helper is a
spec error at its `file:line:col` instead of a C++ error in Functions.cpp.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import FrozenSet, Iterable, List, Optional, Sequence, Tuple

from tools.codegen.formula_check import TOKEN

__all__ = ["MEMBERS", "FormulaEnvironment", "called_functions", "header_function_names", "to_cpp"]

# Member functions a formula may call as methods; every other method call is rewritten into a call
# of the free function of that name. Tensor's accessors (csrc/tensor.h, with PyTorch's SymInt and
# layout spellings), std::optional's, the containers' (std::vector, IntArrayRef) and Scalar's.
MEMBERS: FrozenSet[str] = frozenset(
    """
    sizes size strides stride dim ndimension numel scalar_type storage_offset data_ptr item
    is_contiguous defined requires_grad grad grad_fn output_nr is_leaf version is_view base
    to_string is_same use_count detach
    sym_sizes sym_size sym_strides sym_stride sym_numel sym_storage_offset layout options is_conj
    is_neg dtype device is_complex is_floating_point is_sparse is_sparse_csr is_mkldnn is_meta
    is_cuda is_cpu is_nested is_quantized element_size itemsize suggest_memory_format sym_blocksize
    has_value value value_or reset
    empty begin end front back vec data at equals slice
    toDouble toFloat toLong toInt toBool isFloatingPoint isIntegral isBoolean isComplex toComplexDouble
    to_double to_long to_bool is_integral is_boolean
    guard_int expect_int as_int_unchecked
    """.split()
)

# Namespaces whose qualification is dropped (the names live in gradgen's formula environment).
_QUALIFIERS = ("at", "c10", "native")

# Words that are followed by `(` but are not function calls.
_KEYWORDS = frozenset(
    "sizeof alignof decltype static_cast dynamic_cast const_cast reinterpret_cast return if while "
    "for switch noexcept typeid".split()
)


def _tokens(text: str) -> List[Tuple[str, str, int, int]]:
    """(kind, token, start, end) of `text`, without white space and comments."""
    return [(m.lastgroup, m.group(), *m.span()) for m in TOKEN.finditer(text) if m.lastgroup not in _SKIPPED]


_SKIPPED = ("space", "comment")


def _matching(tokens: Sequence[Tuple[str, str, int, int]], i: int, step: int) -> Optional[int]:
    """The index of the bracket matching tokens[i], searching forward (step 1) or back (-1)."""
    depth = 0
    j = i
    while 0 <= j < len(tokens):
        kind = tokens[j][0]
        if kind == ("open" if step > 0 else "close"):
            depth += 1
        elif kind == ("close" if step > 0 else "open"):
            depth -= 1
            if depth == 0:
                return j
        j += step
    return None


def _receiver_start(tokens: Sequence[Tuple[str, str, int, int]], dot: int) -> Optional[int]:
    """The index of the first token of the postfix expression before the `.` at tokens[dot]:
    a name, a literal or a parenthesized expression, followed by calls, subscripts and members
    (`self`, `foo(a)`, `x.sizes()[0]`, `(a + b)`, `std::get<0>(t)` is not recognized: None)."""
    j = dot - 1
    while j >= 0:
        kind = tokens[j][0]
        if kind == "close":
            opener = _matching(tokens, j, -1)
            if opener is None:
                return None
            before = tokens[opener - 1] if opener > 0 else None
            if before is not None and (before[0] == "name" or before[0] == "close"):
                j = opener - 1  # a call or subscript applied to what precedes
                continue
            if before is not None and before[1] == ">":
                return None  # a template's arguments: not followed here
            return opener  # a parenthesized expression
        if kind == "name":
            before = tokens[j - 1] if j > 0 else None
            if before is not None and before[0] in ("member", "scope"):
                if before[0] == "scope" and (j < 2 or tokens[j - 2][0] not in ("name", "close")):
                    return j - 1  # `::name`
                j -= 2
                continue
            return j
        if kind in ("number", "literal"):
            return j
        return None
    return None


def _strip_qualifiers(text: str) -> str:
    """`at::mm(...)` -> `mm(...)`, `at::native::f` -> `f`, `c10::SymInt` -> `SymInt`; a name
    qualified by another namespace (`std::tuple`, `foo::at::x`) is left alone."""
    tokens = _tokens(text)
    cuts: List[Tuple[int, int]] = []
    i = 0
    while i + 1 < len(tokens):
        kind, tok, start, _ = tokens[i]
        prev = tokens[i - 1] if i > 0 else None
        if kind == "name" and tok in ("at", "c10") and tokens[i + 1][0] == "scope":
            if prev is None or prev[0] not in ("scope", "member"):
                j = i
                while j + 1 < len(tokens) and tokens[j][1] in _QUALIFIERS and tokens[j + 1][0] == "scope":
                    j += 2
                cuts.append((start, tokens[j][2]))
                i = j
                continue
        i += 1
    for start, end in reversed(cuts):
        text = text[:start] + text[end:]
    return text


def _rewrite_one_method(text: str) -> Optional[str]:
    """`text` with its first (leftmost) rewritable method call made a free call, or None."""
    tokens = _tokens(text)
    for i, (kind, tok, _, _) in enumerate(tokens):
        if kind != "member" or tok != ".":
            continue
        if i + 2 >= len(tokens) or tokens[i + 1][0] != "name" or tokens[i + 2][1] != "(":
            continue
        name = tokens[i + 1][1]
        if name in MEMBERS:
            continue
        start = _receiver_start(tokens, i)
        if start is None:
            continue
        close = _matching(tokens, i + 2, 1)
        if close is None:
            return None
        receiver = text[tokens[start][2] : tokens[i][2]].strip()
        args = text[tokens[i + 2][3] : tokens[close][2]].strip()
        call = f"{name}({receiver}{', ' + args if args else ''})"
        return text[: tokens[start][2]] + call + text[tokens[close][3] :]
    return None


# What _tokens passes over between two tokens: white space, comments, and characters no token
# starts with (`;` in a lambda's body, a quote that opens no literal, non-ASCII characters).
_BETWEEN_TOKENS = r"""(?:[\s;\\#`@$"'\x80-\U0010ffff]|/\*.*?\*/)*"""
# `.name(` as _tokens reads it: where a method call may be (also in a literal or a comment, which
# the tokens then tell apart). The name is the longest, as the name token is.
_METHOD_CALL = re.compile(rf"\.{_BETWEEN_TOKENS}([A-Za-z_]\w*){_BETWEEN_TOKENS}\(")


def _may_call_method(formula: str) -> bool:
    """False when `formula` certainly calls no method but MEMBERS: then it has nothing for
    _rewrite_one_method, and tokenizing it to find that out would be wasted. Tried at every `.`
    (the matches of a comment-like text may overlap)."""
    at = formula.find(".")
    while at >= 0:
        m = _METHOD_CALL.match(formula, at)
        if m is not None and m.group(1) not in MEMBERS:
            return True
        at = formula.find(".", at + 1)
    return False


@functools.lru_cache(maxsize=4096)
def to_cpp(formula: str) -> str:
    """The formula in the free-function C++ gradgen compiles (see the module docstring). A formula
    without method calls or `at::` / `c10::` names is returned unchanged."""
    if "::" in formula:
        formula = _strip_qualifiers(formula)
    while _may_call_method(formula):
        rewritten = _rewrite_one_method(formula)
        if rewritten is None:
            break
        formula = rewritten
    return formula


def called_functions(formula: str) -> List[Tuple[str, int]]:
    """(name, offset) of every unqualified function the formula calls: `name(` not after `.`,
    `->` or `::`, and not a keyword or a constructor of a template (`std::tuple<...>()`)."""
    tokens = _tokens(formula)
    out = []
    for i, (kind, tok, start, _) in enumerate(tokens):
        if kind != "name" or tok in _KEYWORDS or i + 1 >= len(tokens) or tokens[i + 1][1] != "(":
            continue
        if i > 0 and tokens[i - 1][0] in ("member", "scope"):
            continue
        out.append((tok, start))
    return out


# C++'s own types, whose functional casts (`int64_t(n)`, `double(x)`) a formula may write.
_BUILTIN = frozenset(
    "bool char short int long float double unsigned signed size_t ptrdiff_t int8_t int16_t int32_t "
    "int64_t uint8_t uint16_t uint32_t uint64_t".split()
)

# A C++ identifier followed by `(`, in a header with its comments removed: a superset of the
# functions it declares (it also finds calls in inline bodies, which is harmless for a check that
# only rejects names found nowhere).
_HEADER_CALLABLE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_HEADER_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
# `using Name = ...;`, `struct Name`, `class Name`, `enum class Name`: types a formula may construct.
_HEADER_TYPE = re.compile(r"\b(?:using|struct|class|enum(?:\s+class)?)\s+([A-Za-z_]\w*)")


def header_function_names(text: str) -> FrozenSet[str]:
    """The names a header makes callable (functions, and types that may be constructed)."""
    text = _HEADER_COMMENT.sub(" ", text)
    names = {m.group(1) for m in _HEADER_CALLABLE.finditer(text)}
    names.update(m.group(1) for m in _HEADER_TYPE.finditer(text))
    return frozenset(names - _KEYWORDS)


@dataclass(frozen=True)
class FormulaEnvironment:
    """The functions a formula may call: the library's own ops, the ops and helpers of the
    environment's headers (gradgen's formulas.h and the library's formula headers) and names
    given by hand. `unknown` returns what a formula calls that is none of them."""

    names: FrozenSet[str]

    @staticmethod
    def of(names: Iterable[str]) -> "FormulaEnvironment":
        return FormulaEnvironment(frozenset(names))

    def unknown(self, formula: str) -> List[Tuple[str, int]]:
        return [(n, at) for n, at in called_functions(formula) if n not in self.names and n not in _BUILTIN]

    def suggestion(self, name: str) -> str:
        close = difflib.get_close_matches(name, sorted(self.names), n=1, cutoff=0.75)
        return f" (did you mean '{close[0]}'?)" if close else ""
