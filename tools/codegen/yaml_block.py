"""A fast reader for the plain block-style YAML that spec files are written in.

Spec files (PyTorch's native_functions.yaml and derivatives.yaml, ours) use a small part of YAML:
a block sequence of block mappings, one `key: value` per line, values that are plain or quoted
one-line scalars or `[a, b]` lists, and comments. PyYAML's C loader reads that in ~0.1 s for
PyTorch's 16k lines, most of it spent making a node object and two mark objects for every value
and then a Python object from each node. This module reads the same text line by line and makes
the values directly, with each position as a small tuple; that is 3-4x faster.

It is an accelerator, not a second YAML implementation: `read_block_yaml` returns the value only
when the whole file is in the part it knows, and otherwise raises `Unsupported`, on which
yaml_loader.py loads the file with PyYAML as before. Anything unusual sends the file there:
anchors, aliases, tags, block scalars (`|`, `>`), a scalar continued on the next line, flow
mappings, escapes in quoted scalars, tabs, carriage returns, non-ASCII text outside comments,
duplicate keys, keys that are not names, a document marker, and every syntax error (so that all
messages come from one place). What it accepts, it must read exactly as PyYAML does: the same
values, types and positions; tests/codegen/test_native_functions.py compares the two on every
spec file in the repository, on PyTorch's, and on generated documents.

Positions: a mapping key or a scalar value is `(line, column, kind)` (0-based, as PyYAML's marks;
kind PLAIN or QUOTED: the text of the value starts at that column, or one after for quoted), a
mapping or sequence is `(line, column, CONTAINER)`. yaml_loader.py's `_node_loc` turns them into
Locations exactly as it does PyYAML's nodes.
"""

from __future__ import annotations

import re
from typing import Any, Callable, List, Tuple

import yaml

__all__ = ["Unsupported", "read_block_yaml", "split_items", "PLAIN", "QUOTED", "QUOTED_WHOLE", "CONTAINER"]

PLAIN = 1
QUOTED = 2
CONTAINER = 0
# A quoted scalar whose text is not the value character for character (escapes, or folded from
# several lines): its Location is its start, whatever the offset.
QUOTED_WHOLE = 3


class Unsupported(Exception):
    """The text uses YAML this reader leaves to PyYAML (or is not valid YAML)."""


# PyYAML's reader refuses these characters (yaml.reader.Reader.NON_PRINTABLE); tabs and carriage
# returns are valid YAML but left to PyYAML here, and so is every non-ASCII character of a line
# that is not a comment (checked per line: PyYAML's columns count characters of the decoded text).
_REFUSED = re.compile("[^\x0a\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

# What may start a plain scalar here: not an indicator (YAML 1.1, chapter 4 / PyYAML's scanner),
# and '-', '?' and ':' only when followed by a character other than a space (`-1`, `:x`).
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")

# A key: a plain name up to the first ': ' (or ':' at the end of the line).
_KEY_END = re.compile(r":(?: |$)")
# A line of a block mapping: `key: value` or `key:` (then the value is the block below), the key a
# plain scalar that does not start with an indicator and has no ':' or '#' in it; group 2 is the
# rest of the line after the spaces (None for `key:`).
_KEY_LINE = re.compile(r"([^-?:,\[\]{}#&*!|>'\"%@` ][^:#]*|[-?:][^ :#][^:#]*):(?: +(.*))?$")
# Document markers and directives, at the start of a line: left to PyYAML.
_DOCUMENT_MARKS = re.compile(r"^(?:---|\.\.\.|%)", re.M)


def _is_entry(content: str) -> bool:
    """Whether a line's content starts a block sequence entry: `- x` or `-` alone."""
    return content[0] == "-" and (len(content) == 1 or content[1] == " ")


def _resolver_table() -> dict:
    """PyYAML's implicit resolvers of the safe loader, by first character ('' for the empty value)."""
    return yaml.resolver.Resolver.yaml_implicit_resolvers


_STR = "tag:yaml.org,2002:str"


class _Reader:
    def __init__(
        self, lines: List[str], construct: Callable[[str, str], Any], node_type: type, seq_type: type, first_line: int
    ) -> None:
        # Each significant line (not blank, not a comment): [line number, indent, content], where
        # content has no indentation and no trailing spaces or comment. `lines` are the file's
        # from line `first_line` (0-based) on; numbers are the file's.
        self.lines = lines
        self.first_line = first_line
        self.rows = rows = []
        append = rows.append
        for number, line in enumerate(lines, first_line):
            content = line.lstrip(" ")
            if content and content[0] != "#":
                append([number, len(line) - len(content), content.rstrip(" ")])
        self.construct = construct
        # The indentation of the block being read (a continuation line of a quoted scalar must be
        # indented more), and the last line of the quoted scalar just read when it went on.
        self.block_indent = 0
        self.resume = None
        self.node_type = node_type
        self.seq_type = seq_type
        self.resolvers = _resolver_table()

    # -- scalars ------------------------------------------------------------------------------

    def scalar(self, text: str, line: int, col: int, flow: bool = False) -> Tuple[Any, tuple]:
        """The value of the one-line scalar `text` at (line, col), and its position."""
        first = text[0]
        if first == '"' or first == "'":
            end = text.find(first, 1)
            if first == '"' and (end < 0 or "\\" in text[:end]):
                if flow:
                    raise Unsupported("escape or line break in a quoted flow item")
                return self.double_quoted(line, col)
            if end < 0 or (first == "'" and text[end + 1 : end + 2] == "'"):
                raise Unsupported("single-quoted scalar with an escape or on several lines")
            rest = text[end + 1 :].lstrip(" ")
            if rest and not (rest[0] == "#" and text[end + 1] == " "):
                raise Unsupported("text after a quoted scalar")
            return text[1:end], (line, col, QUOTED)
        if first == "{":
            if text == "{}" or (text.startswith("{}") and text[2:].lstrip(" ").startswith("#") and text[2] == " "):
                node = self.node_type()
                node.file = self.file
                node._start = (line, col, CONTAINER)
                node._nodes = {}
                return node, node._start
            raise Unsupported("flow mapping")
        if first in _INDICATORS and (first not in "-?:" or len(text) == 1 or text[1] == " "):
            raise Unsupported("indicator")
        # A comment starts at ' #'.
        hash_at = text.find(" #")
        if hash_at >= 0:
            text = text[:hash_at].rstrip(" ")
        if ": " in text or text.endswith(":") or (flow and any(c in text for c in ",[]{}#")):
            raise Unsupported("':' in a plain scalar")
        resolvers = self.resolvers.get(text[0])
        if resolvers:
            for tag, regexp in resolvers:
                if regexp.match(text):
                    return self.construct(tag, text), (line, col, PLAIN)
        return text, (line, col, PLAIN)

    def double_quoted(self, line: int, col: int) -> Tuple[Any, tuple]:
        """A double-quoted scalar from (line, col) that has `\\"` or `\\\\` in it or goes on over the
        next lines (folded as YAML does: a line break becomes a space, an empty line a line
        break). Sets `self.resume` to the last line it reads."""
        raw = self.lines
        first = self.first_line
        parts: List[str] = []
        number, i = line, col + 1
        text = raw[number - first]
        folded = False
        while True:
            j = i
            while j < len(text) and text[j] != '"' and text[j] != "\\":
                j += 1
            parts.append(text[i:j])
            if j < len(text) and text[j] == "\\":
                escaped = text[j + 1 : j + 2]
                if escaped not in ('"', "\\"):
                    raise Unsupported('escape other than \\" and \\\\')
                parts.append(escaped)
                i = j + 2
                folded = True
                continue
            if j < len(text):  # the closing quote
                rest = text[j + 1 :].lstrip(" ")
                if rest and not (rest[0] == "#" and text[j + 1] == " "):
                    raise Unsupported("text after a quoted scalar")
                break
            # A line break: trailing spaces dropped; the next non-empty line joined with a space,
            # or with a line break per empty line in between.
            parts[-1] = parts[-1].rstrip(" ")
            breaks = 0
            while True:
                number += 1
                if number - first >= len(raw):
                    raise Unsupported("unterminated quoted scalar")
                text = raw[number - first]
                stripped = text.lstrip(" ")
                if stripped:
                    break
                breaks += 1
            if len(text) - len(stripped) <= self.block_indent or stripped.startswith(("---", "...")):
                raise Unsupported("continuation line not indented more than its block")
            parts.append("\n" * breaks if breaks else " ")
            i = len(text) - len(stripped)
            folded = True
        self.resume = number
        return "".join(parts), (line, col, QUOTED_WHOLE if folded else QUOTED)

    def after(self, i: int, line: int) -> int:
        """The first row after row i that starts below `line`, or below the quoted scalar that
        ended there and went on over more lines."""
        if self.resume is not None:
            line, self.resume = self.resume, None
        rows, n = self.rows, len(self.rows)
        i += 1
        while i < n and rows[i][0] <= line:
            i += 1
        return i

    def flow_seq(self, text: str, line: int, col: int) -> Tuple[Any, tuple]:
        """`[a, b]` on one line: plain items only."""
        end = text.find("]")
        if end < 0 or "[" in text[1:end]:
            raise Unsupported("flow sequence")
        rest = text[end + 1 :].lstrip(" ")
        if rest and not (rest[0] == "#" and text[end + 1] == " "):
            raise Unsupported("text after a flow sequence")
        seq = self.seq_type()
        seq.file = self.file
        seq._start = (line, col, CONTAINER)
        positions = []
        inner = text[1:end]
        if inner.strip(" "):
            offset = col + 1
            for part in inner.split(","):
                stripped = part.lstrip(" ")
                if not stripped.strip(" "):
                    raise Unsupported("empty flow item")
                value, pos = self.scalar(stripped.rstrip(" "), line, offset + len(part) - len(stripped), flow=True)
                seq.append(value)
                positions.append(pos)
                offset += len(part) + 1
        seq._items = positions
        return seq, seq._start

    def value(self, text: str, line: int, col: int) -> Tuple[Any, tuple]:
        if text[0] == "[":
            return self.flow_seq(text, line, col)
        return self.scalar(text, line, col)

    # -- blocks -------------------------------------------------------------------------------

    def block(self, i: int) -> Tuple[Any, tuple, int]:
        """The block collection starting at row i: (value, position, next row)."""
        row = self.rows[i]
        content = row[2]
        if _is_entry(content):
            return self.sequence(i, row[1])
        return self.mapping(i, row[1])

    def sequence(self, i: int, indent: int) -> Tuple[Any, tuple, int]:
        rows = self.rows
        seq = self.seq_type()
        seq.file = self.file
        start = seq._start = (rows[i][0], indent, CONTAINER)
        positions = []
        n = len(rows)
        while i < n:
            number, row_indent, content = rows[i]
            if row_indent != indent or not _is_entry(content):
                break
            item = content[1:].lstrip(" ")
            if not item or item[0] == "#":
                raise Unsupported("item on the next line")
            item_col = indent + len(content) - len(item)
            if _is_entry(item):
                raise Unsupported("nested compact sequence")
            if _KEY_END.search(item) and item[0] not in "'\"[{":
                # `- key: value ...`: a mapping whose keys are at the item's column.
                rows[i] = [number, item_col, item]
                value, pos, i = self.mapping(i, item_col)
            else:
                self.block_indent = indent
                value, pos = self.value(item, number, item_col)
                i = self.after(i, number)
                if i < n and rows[i][1] > indent:
                    raise Unsupported("a scalar continued on the next line")
            seq.append(value)
            positions.append(pos)
        if i < n and rows[i][1] > indent:
            raise Unsupported("bad indentation")
        seq._items = positions
        return seq, start, i

    def mapping(self, i: int, indent: int) -> Tuple[Any, tuple, int]:
        rows = self.rows
        node = self.node_type()
        node.file = self.file
        start = node._start = (rows[i][0], indent, CONTAINER)
        nodes = node._nodes = {}
        n = len(rows)
        resolvers = self.resolvers
        while i < n:
            number, row_indent, content = rows[i]
            if row_indent != indent or _is_entry(content):
                break
            match = _KEY_LINE.match(content)
            if match is None:
                raise Unsupported("not a key")
            key_text = match.group(1)
            if key_text[-1] == " ":
                raise Unsupported("key")
            first = resolvers.get(key_text[0])
            if first and any(regexp.match(key_text) for _, regexp in first):
                raise Unsupported("key that is not a string")
            if key_text in nodes:
                raise Unsupported("duplicate key")
            key_pos = (number, indent, PLAIN)
            rest = match.group(2)
            if rest and rest[0] != "#":
                self.block_indent = indent
                value, value_pos = self.value(rest, number, indent + len(content) - len(rest))
                i = self.after(i, number)
                if i < n and rows[i][1] > indent:
                    raise Unsupported("a scalar continued on the next line")
            else:
                i += 1
                # The value is the block below: more indented, or a list at the key's own indent.
                if i < n and (rows[i][1] > indent or (rows[i][1] == indent and _is_entry(rows[i][2]))):
                    value, value_pos, i = self.block(i)
                else:
                    raise Unsupported("empty value")
            node[key_text] = value
            nodes[key_text] = (key_pos, value_pos)
        if i < n and rows[i][1] > indent:
            raise Unsupported("bad indentation")
        return node, start, i


def _checked_text(text: Any) -> str:
    """`text` (bytes, read as UTF-8, or str) as a str, or Unsupported when a part of it is left
    to PyYAML whatever its structure."""
    if isinstance(text, bytes):
        if text[:3] == b"\xef\xbb\xbf" or text[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in text:
            raise Unsupported("byte-order mark or UTF-16/32")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise Unsupported("not UTF-8") from None
    if not isinstance(text, str) or _REFUSED.search(text) or _DOCUMENT_MARKS.search(text):
        raise Unsupported("characters PyYAML refuses, tabs, carriage returns, a document marker")
    if not text.isascii() and any(
        not line.lstrip(" ").startswith("#") for line in text.split("\n") if not line.isascii()
    ):
        raise Unsupported("non-ASCII text outside comments")
    if _resolver_table().get(None):  # resolvers for any first character: not how PyYAML ships
        raise Unsupported("wildcard implicit resolvers")
    return text


def read_block_yaml(
    text: Any, file: str, construct: Callable[[str, str], Any], node_type: type, seq_type: type, first_line: int = 0
) -> Tuple[Any, tuple]:
    """The value of a spec file in block style and the position of its top value, or Unsupported.

    `text`: the file (bytes, read as UTF-8, or str). `construct(tag, text)` makes a non-string
    scalar as PyYAML's safe loader does. `node_type` / `seq_type` (yaml_loader's Node and Seq) are
    filled with the values, `file`, `_start` and `_nodes` / `_items` (positions as tuples).
    `first_line`: the 0-based line of the file where `text` starts (an item of split_items).
    """
    text = _checked_text(text)
    reader = _Reader(text.split("\n"), construct, node_type, seq_type, first_line)
    reader.file = file
    if not reader.rows or reader.rows[0][1] != 0:
        raise Unsupported("empty, or a first value indented")
    value, pos, i = reader.block(0)
    if i != len(reader.rows):
        raise Unsupported("text after the top value")
    return value, pos


# A line that starts at column 0 with something other than a comment.
_TOP_LINE = re.compile(r"^[^ #\n]", re.M)


def split_items(text: Any) -> Tuple[str, List[Tuple[int, str]]]:
    """A file whose top value is a block sequence (`- name: ...` items at column 0, derivatives.yaml),
    as (its text, [(0-based first line of an item, the item's text up to the next item)]), or
    Unsupported. Read separately with read_block_yaml(item, first_line=...), each item is what
    it is in the whole file: the reader reads an item from its own lines only, and every check
    of the whole text is made here (a persistent worker re-reads only the items that changed,
    Note [Worker cache] in gen_autograd.py). Lines before the first item must be blank or
    comments, and every other line at column 0 must start an item."""
    text = _checked_text(text)
    starts = [m.start() for m in _TOP_LINE.finditer(text)]
    if not starts or any(
        line.strip(" ") and not line.lstrip(" ").startswith("#") for line in text[: starts[0]].split("\n")
    ):
        raise Unsupported("no item at column 0, or a value before the first")
    items = []
    line = text.count("\n", 0, starts[0])
    ends = starts[1:] + [len(text)]
    for start, end in zip(starts, ends):
        if text[start] != "-" or text[start + 1 : start + 2] not in (" ", "\n", ""):
            raise Unsupported("a line at column 0 that is not an item")
        items.append((line, text[start:end]))
        line += text.count("\n", start, end)
    return text, items
