"""The length of every function defined in hand-written C++ (the project's ~80-line rule).

No clang front end is installed here (only clangd-14), and a structure test should need no
compiler, so this is a brace matcher over clang-format-formatted code, which is what
tools/lint/run.sh keeps csrc/ as:

* comments, string and character literals (raw strings too) and preprocessor lines are blanked
  first, so a brace or parenthesis inside them counts for nothing;
* at namespace, class or file scope, a `{` opens a function body when the text since the last
  `;`, `{` or `}` of that scope (its head) has a parameter list and is not a namespace, class,
  struct, union or enum head, nor an initialiser (`= {`). A constructor's member initialisers
  (`: a_(x), b_{y}`) are skipped to its real body;
* a function runs from the line of its name to the line of its closing `}`, both included (the
  Python rule's measure, ast's `lineno` to `end_lineno`). Lambdas and local classes count in the
  function that holds them; a lambda in an initialiser at namespace scope (a table of
  operators) is part of no function and not measured.

Run as a script (`python3 tests/codegen/cpp_functions.py csrc [--max 80]`) it lists every
function, or with --max only those over it, as `file:line name (n lines)`.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Iterator, NamedTuple

# Tokens the blanking pass recognises, in the order tried at each position.
_LEXEME = re.compile(
    r"""
      (?P<line_comment>//[^\n]*)
    | (?P<block_comment>/\*.*?\*/)
    | (?P<raw>R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)")
    | (?P<string>"(?:\\.|[^"\\\n])*")
    | (?P<char>(?<![0-9A-Za-z_])'(?:\\.|[^'\\\n])+')
    """,
    re.S | re.X,
)
# A line whose first non-blank character is `#` (with its `\` continuations).
_PREPROCESSOR = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
# Heads that open a scope which may define functions inside it, not a function.
_SCOPE_HEAD = re.compile(
    r"^(?:(?:public|protected|private)\s*:\s*)*(?:template\s*<.*>\s*)?(?:typedef\s+|inline\s+)?"
    r"(?:namespace|class|struct|union|enum|extern)\b",
    re.S,
)
# The name before a parameter list: `ns::Type<int>::name`, `operator()`, `operator+=`, `~Type`.
_NAME = re.compile(r"((?:[A-Za-z_]\w*(?:<[^<>()]*>)?::)*(?:operator\s*(?:\(\s*\)|[^\s(]+)|~?[A-Za-z_]\w*))\s*$")

# Words followed by a parenthesis that are not a function's name.
_NOT_NAMES = {"decltype", "alignas", "noexcept", "__attribute__", "__declspec", "throw", "sizeof"}
# A macro's name, by the project's spelling (NB_TYPE_CASTER, GRADGEN_BITWISE).
_MACRO = re.compile(r"^[A-Z][A-Z0-9_]*$")

# A member initialiser's member (or base) and its opening bracket; what follows one.
_INITIALISED = re.compile(r"\s*(?:[A-Za-z_][\w:]*(?:<[^{};]*?>)?)\s*([({])")
_NEXT_INITIALISER = re.compile(r"\s*(?:\.\.\.)?\s*(,|\{)")


class Function(NamedTuple):
    name: str
    line: int  # 1-based line of the name
    lines: int  # from the name's line to the closing brace's, both included


def _blank(match: re.Match) -> str:
    # Keeps the newlines, so offsets and line numbers stay those of the source.
    return re.sub(r"[^\n]", " ", match.group(0))


def blank_non_code(text: str) -> str:
    """`text` with comments, literals and preprocessor lines turned to spaces (newlines kept)."""
    text = _LEXEME.sub(_blank, text)
    return _PREPROCESSOR.sub(_blank, text)


def _matching(code: str, start: int, open_: str, close: str) -> int:
    """The offset just past the bracket closing the one at `start`."""
    depth = 0
    for i in range(start, len(code)):
        if code[i] == open_:
            depth += 1
        elif code[i] == close:
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError(f"unbalanced {open_!r} at offset {start}")


def _parameter_list(head: str) -> int:
    """The offset in `head` of the `(` opening the parameter list, or -1. Template argument
    lists are skipped (`template <typename T, int (*F)(T)>` has none), and so are `decltype(...)`
    and attributes before the name; a macro invoked without a `;` before the function
    (`NB_TYPE_CASTER(T, name)` in a class) is not its name."""
    candidates, depth, i = [], 0, 0
    while i < len(head):
        c = head[i]
        if c == "<" and head[:i].rstrip().endswith("template"):
            depth += 1
        elif c == ">" and depth:
            depth -= 1
        elif c == "(" and depth == 0:
            name = _NAME.search(head[:i])
            if name and name.group(1) not in _NOT_NAMES:
                candidates.append((i, name.group(1)))
            try:
                i = _matching(head, i, "(", ")")
            except ValueError:
                break
            continue
        i += 1
    while len(candidates) > 1 and _MACRO.match(candidates[0][1]):
        candidates.pop(0)
    return candidates[0][0] if candidates else -1


def _body_start(code: str, paren: int) -> int:
    """The offset of a function's body `{`, given its parameter list's `(`: after the list, its
    qualifiers and trailing return type, and a constructor's member initialisers."""
    i = _matching(code, paren, "(", ")")
    while True:
        c = code[i]
        if c == "{":
            return i
        if c == "(":
            i = _matching(code, i, "(", ")")
        elif c == "[":
            i = _matching(code, i, "[", "]")
        elif c == ":" and code[i + 1] != ":" and code[i - 1] != ":":
            i = _skip_initialisers(code, i + 1)
            if code[i] == "{":
                return i
        elif c in ";=":
            return -1  # a declaration, `= default`, `= delete`, or a call at scope level
        else:
            i += 1


def _skip_initialisers(code: str, i: int) -> int:
    """From after a constructor's `:`, the offset of its body's `{` (each `member(...)` or
    `member{...}` skipped)."""
    while True:
        m = _INITIALISED.match(code, i)
        if not m:
            return i
        bracket = m.start(1)
        i = _matching(code, bracket, code[bracket], ")" if code[bracket] == "(" else "}")
        m = _NEXT_INITIALISER.match(code, i)
        if not m:
            return i
        if m.group(1) == "{":
            return m.start(1)
        i = m.end()


def functions(text: str) -> Iterator[Function]:
    """Every function defined in the C++ source `text`, in order (not those inside a function)."""
    code = blank_non_code(text)
    yield from _scope(code, 0, len(code))


def _scope(code: str, begin: int, end: int) -> Iterator[Function]:
    """The functions in code[begin:end], a namespace, class or file scope."""
    head_start = i = begin
    while i < end:
        c = code[i]
        if c in ";}":
            head_start = i = i + 1
            continue
        if c != "{":
            i += 1
            continue
        head = code[head_start:i]
        close = _matching(code, i, "{", "}")
        paren = _parameter_list(head)
        if _SCOPE_HEAD.match(head.strip()):
            yield from _scope(code, i + 1, close - 1)
        elif paren >= 0 and not re.search(r"=\s*$", head):
            body = _body_start(code, head_start + paren)
            if body >= 0:
                close = _matching(code, body, "{", "}")
                name = _NAME.search(head[:paren])
                first = code.count("\n", 0, head_start + name.start(1)) + 1
                last = code.count("\n", 0, close - 1) + 1
                yield Function(re.sub(r"\s+", "", name.group(1)), first, last - first + 1)
        # A `{` that opens neither (an initialiser, a lambda at scope level): skipped whole.
        head_start = i = close
        if i < end and code[i] == ";":
            head_start = i = i + 1


def long_functions(paths, root: Path, max_lines: int) -> list:
    """`file:line name (n lines)` for each function over `max_lines` in `paths`."""
    return [
        f"{p.relative_to(root)}:{f.line} {f.name} ({f.lines} lines)"
        for p in paths
        for f in functions(p.read_text())
        if f.lines > max_lines
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="files, or directories searched for *.h and *.cc")
    parser.add_argument("--max", type=int, help="list only the functions longer than this")
    args = parser.parse_args(argv)
    found = (p for d in args.dirs for p in ([d] if d.is_file() else d.rglob("*")))
    paths = sorted(p for p in found if p.suffix in (".h", ".cc"))
    for p in paths:
        for f in functions(p.read_text()):
            if args.max is None or f.lines > args.max:
                print(f"{p}:{f.line} {f.name} ({f.lines} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
