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

import re
from typing import Optional, Tuple

__all__ = ["expression_problem", "one_line"]

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
    while i < len(text):
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
    return None


def one_line(text: str) -> str:
    """`text` with each line break (and the indentation around it) turned into one space.

    A formula written over several lines (`self: |-`) is the same expression on one line; one line
    is what fits the `// self: ...` comment above its generated code. Text without a line break is
    returned unchanged.
    """
    if "\n" not in text:
        return text
    return _WHITESPACE_WITH_NEWLINE.sub(" ", text.strip())
