"""Errors in spec files, reported as one line: `file:line[:col]: message`.

Every problem a user can cause (bad YAML, an unknown type in a schema, an unknown key) is a
`SpecError`. The driver prints `str(error)` and exits with status 1; no traceback reaches the user.
Anything else that escapes is a bug in the codegen and keeps its traceback on purpose.

Code deep inside the model often does not know where its input came from (a schema string does not
know its YAML line): it raises a `SchemaParseError` with an offset into its string, and the loader,
which knows where the string sits in its file, raises the `SpecError` at that line and column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

__all__ = ["Location", "SpecError", "SchemaParseError"]


@dataclass(frozen=True)
class Location:
    """A place in a spec file, 1-based, printed as `file:line` or `file:line:col`."""

    # The file name as shown to the user, workspace-relative: "specs/native_functions.yaml".
    file: str
    # The 1-based line number: 12.
    line: int
    # The 1-based column, or None when only the line is known: 9.
    col: Optional[int] = None

    def __str__(self) -> str:
        if self.col is None:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.col}"


class SpecError(Exception):
    """A mistake in a spec file; `str()` is `file:line[:col]: message`, or just the message."""

    def __init__(self, message: str, loc: Optional[Location] = None) -> None:
        super().__init__(message)
        # What is wrong, one line, no location: "unknown key 'foo' in a declaration; ...".
        self.message = message
        # Where it is wrong, or None when no place in a file is known.
        self.loc = loc

    def __str__(self) -> str:
        if self.loc is None:
            return self.message
        return f"{self.loc}: {self.message}"

    def __reduce__(self):  # keep `loc` when pickled (e.g. across multiprocessing)
        return (type(self), (self.message, self.loc))


class SchemaParseError(SpecError):
    """An error in a function schema string, at a 0-based `offset` into that string.

    The schema parser only sees the string. A caller that knows where the string sits in its YAML
    file turns the offset into a column (see `yaml_loader.Node.value_loc(key, offset)`).
    """

    def __init__(self, message: str, offset: int, loc: Optional[Location] = None) -> None:
        super().__init__(message, loc)
        # 0-based index into the schema text of the offending character: 4 in "foo(Tensr x) -> Tensor".
        self.offset = offset

    def __reduce__(self):
        return (type(self), (self.message, self.offset, self.loc))
