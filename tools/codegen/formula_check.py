"""Checks that formula text is one C++ expression the generated code can hold.

A formula (and an `output_differentiability` condition) is pasted into generated C++ as an
expression: `grad_inputs[...] = <formula>;`, `if (<condition>) ...`. Text that is not one
expression would not fail here but in the C++ compiler, far from the spec line that caused it, or
worse, compile into something else: a `;` or an unbalanced `)` ends the statement early, a `//`
or a trailing backslash comments out generated code, an unterminated quote swallows it.

PyTorch's codegen trusts its own derivatives.yaml; gradgen's specs are written by users, so the
loader runs this tokenizer (C++'s tokens, as far as an expression needs them) over each formula
and reports the first problem at its column. It does not resolve names: a misspelt helper is
still the compiler's to report.
"""

from __future__ import annotations

import functools
import re
from typing import Optional, Tuple

__all__ = ["TOKEN", "expression_problem", "one_line"]

_CLOSING = {")": "(", "]": "[", "}": "{"}
_OPENING = {v: k for k, v in _CLOSING.items()}

# Characters that are no part of a C++ expression outside a literal, with the reason.
_FORBIDDEN = {
    ";": "';' ends the generated statement; a formula is one C++ expression (a ';' may only end a "
    "statement in a lambda's braces)",
    "\\": "a backslash outside a string literal",
    "#": "'#' outside a string literal (a formula cannot hold preprocessor text)",
    "`": "'`' is not C++",
    "@": "'@' is not C++",
    "$": "'$' is not C++",
}

_WHITESPACE_WITH_NEWLINE = re.compile(r"[ \t]*\n\s*")

# C++ tokens, as far as an expression needs them, in order of preference (longest operators first):
# the operand/operator check below and the rewriting of formula_env.py read formulas with them.
TOKEN = re.compile(
    r"""(?P<space>\s+)
    | (?P<comment>/\*.*?\*/)
    | (?P<literal>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
    | (?P<number>(?:\d|\.\d)(?:[eEpP][+-]|[\w.])*)
    | (?P<name>[A-Za-z_]\w*)
    | (?P<scope>::)
    | (?P<member>->\*?|\.\*?)
    | (?P<incdec>\+\+|--)
    | (?P<op><<=|>>=|<=>|&&|\|\||<<|>>|[-+*/%^&|<>=!]=|[-+*/%^&|<>=?:,~!])
    | (?P<open>[(\[{])
    | (?P<close>[)\]}])
    """,
    re.VERBOSE,
)
# Operators that may stand before an operand (prefix), and those that may not follow an operand.
_PREFIX = frozenset(["-", "+", "!", "~", "*", "&", "++", "--"])
_NOT_BINARY = frozenset(["!", "~"])
# C++'s alternative tokens are operators spelt as names (`a or b` is `a || b`): read as the operator.
_ALTERNATIVE = {
    "and": "&&", "or": "||", "not": "!", "xor": "^", "bitand": "&", "bitor": "|", "compl": "~",
    "not_eq": "!=", "and_eq": "&=", "or_eq": "|=", "xor_eq": "^=",
}  # fmt: skip
# Keywords that begin a statement or a declaration, or (`throw`, `delete`, `co_await`...) make
# a void or a coroutine expression: none can be an operand of a formula.
_NOT_OPERAND = frozenset(
    """
    alignas asm break case catch class concept consteval constexpr constinit continue co_await co_return
    co_yield default delete do else enum explicit export extern for friend goto if inline mutable namespace
    operator private protected public register requires return static static_assert struct switch template
    thread_local throw try typedef typename union using virtual volatile while
    """.split()
)
# The kind the check reads a name token as: an alternative token (`or`) as an operator (kept as
# spelt, for the messages), a keyword that cannot be an operand as kind "keyword"; other names
# are kind "name".
_NAME_KINDS = {**{k: "keyword" for k in _NOT_OPERAND}, **{k: "op" for k in _ALTERNATIVE}}


def _literal_end(text: str, start: int) -> Optional[int]:
    """The index after the string or character literal opening at `start`, or None if unterminated."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == quote:
            return i + 1
        if c == "\n":
            return None
        i += 1
    return None


# A run of characters the bracket and literal scan below passes over one by one.
_PLAIN_RUN = re.compile(r"[^\"'/;\\#`@$()\[\]{}]+")


@functools.lru_cache(maxsize=4096)
def expression_problem(text: str) -> Optional[Tuple[int, str]]:
    """Returns (offset, message) of the first reason `text` is not one C++ expression, or None.

    Checked: not empty; string and character literals terminated on their line; (), [] and {}
    balanced and properly nested; `/* */` comments closed; no `;` (but in a lambda's braces), `//` comment, preprocessor
    text or backslash outside a literal.
    """
    if not text.strip():
        return 0, "a formula must be a C++ expression, not empty"
    stack: list[Tuple[str, int]] = []
    i = 0
    n = len(text)
    while i < n:
        plain = _PLAIN_RUN.match(text, i)
        if plain is not None:
            i = plain.end()
            if i == n:
                break
        c = text[i]
        if c in "\"'":
            end = _literal_end(text, i)
            if end is None:
                kind = "string" if c == '"' else "character"
                return i, f"unterminated {kind} literal ({c} without a closing {c} on its line)"
            i = end
            continue
        if c == "/" and text[i + 1 : i + 2] == "/":
            return i, "'//' comments out the rest of the generated line; use /* ... */"
        if c == "/" and text[i + 1 : i + 2] == "*":
            end = text.find("*/", i + 2)
            if end < 0:
                return i, "'/*' starts a comment that is never closed with '*/'"
            i = end + 2  # `/*rounding_mode=*/"trunc"`, as PyTorch's formulas write it
            continue
        if c == ";" and any(opened == "{" for opened, _ in stack):
            pass  # a statement in a lambda's body: `[](SymInt i){return -i;}`
        elif c in _FORBIDDEN:
            return i, _FORBIDDEN[c]
        if c in _OPENING:
            stack.append((c, i))
        elif c in _CLOSING:
            if not stack:
                return i, f"'{c}' closes nothing"
            opened, at = stack.pop()
            if opened != _CLOSING[c]:
                return i, f"'{c}' does not match the '{opened}' it closes; expected '{_OPENING[opened]}'"
        i += 1
    if stack:
        opened, at = stack[-1]
        return at, f"'{opened}' is never closed; expected '{_OPENING[opened]}'"
    return _operator_problem(text)


def _operator_problem(text: str) -> Optional[Tuple[int, str]]:
    """Operands and operators alternate: `f(a, b) * -c`, not `f(a, ) *` or `a b`.

    Runs on text whose brackets and literals are known to be well formed. A lambda (`[` where an
    operand is expected) is skipped up to the end of its body: its parameters and statements are
    not an expression.
    """
    tokens = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "space" or kind == "comment":
            continue
        tok = m.group()
        if kind == "name":
            kind = _NAME_KINDS.get(tok, kind)
        tokens.append((kind, tok, m.start()))
    expect_operand = True  # at the start, after an operator, a '(' or a ','
    prev = ""
    # Per open bracket (and the top level), the `?` still waiting for their `:`, and where.
    ternaries: list[list[int]] = [[]]
    i = 0
    while i < len(tokens):
        kind, tok, at = tokens[i]
        if kind == "open" and not (expect_operand and tok == "["):
            ternaries.append([])
        elif kind == "close" or tok == ",":
            if ternaries[-1]:
                return ternaries[-1][-1], "'?' without its ':'"
            if kind == "close" and len(ternaries) > 1:
                ternaries.pop()
        elif tok == "?":
            ternaries[-1].append(at)
        elif tok == ":":
            if not ternaries[-1]:
                return at, "':' without a '?' before it"
            ternaries[-1].pop()
        if kind == "keyword":
            return at, f"'{tok}' is a C++ keyword that cannot stand in an expression"
        if expect_operand:
            if kind == "open" and tok == "[":
                i = _skip_lambda(tokens, i)
                expect_operand = False
                prev = "lambda"
                continue
            if kind in ("name", "number", "literal"):
                expect_operand = False
            elif (
                kind == "scope"
                or (kind in ("op", "incdec") and _ALTERNATIVE.get(tok, tok) in _PREFIX)
                or kind == "open"
            ):
                pass
            elif kind == "close" and prev in ("(", "{", "["):
                expect_operand = False  # `f()`, `{}`
            else:
                return at, f"expected an operand before '{tok}'" + (f" (after '{prev}')" if prev else "")
        else:
            if kind in ("name", "number", "literal") or (kind == "op" and _ALTERNATIVE.get(tok, tok) in _NOT_BINARY):
                return at, f"expected an operator or ',' between '{prev}' and '{tok}'"
            if kind in ("member", "scope"):
                nxt = tokens[i + 1] if i + 1 < len(tokens) else None
                if nxt is None or nxt[0] != "name" and nxt[1] != "~":
                    return at, f"expected a name after '{tok}'"
                i += 1
                kind, tok, at = tokens[i]
            elif kind in ("op", "open"):
                expect_operand = True
            # `close` and postfix `++`/`--` keep an operand before them.
        prev = tok
        i += 1
    if ternaries[-1]:
        return ternaries[-1][-1], "'?' without its ':'"
    if expect_operand:
        return len(text.rstrip()), "the formula ends where an operand is expected" + (
            f" (after '{prev}')" if prev else ""
        )
    return None


def _skip_lambda(tokens: list, i: int) -> int:
    """The index after the lambda whose `[` is tokens[i]: its captures, parameters and `{...}` body."""
    depth = 0
    seen_body = False
    while i < len(tokens):
        kind, tok, _ = tokens[i]
        if kind == "open":
            depth += 1
            seen_body = seen_body or (tok == "{" and depth == 1)
        elif kind == "close":
            depth -= 1
            if depth == 0 and tok == "}" and seen_body:
                return i + 1
        i += 1
    return i


def one_line(text: str) -> str:
    """`text` with each line break (and the indentation around it) turned into one space.

    A formula written over several lines (`self: |-`) is the same expression on one line; one line
    is what fits the `// self: ...` comment above its generated code. Text without a line break is
    returned unchanged.
    """
    if "\n" not in text:
        return text
    return _WHITESPACE_WITH_NEWLINE.sub(" ", text.strip())
