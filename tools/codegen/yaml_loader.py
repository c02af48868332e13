"""Load a YAML spec file, remembering where every mapping, key and value came from.

Mappings load as `Node` (a dict) and sequences as `Seq` (a list); both carry their own position and
the position of each key / value / item, so later stages can report `file:line:col` for exactly
the token that is wrong. Scalars load as plain Python values (str, int, bool, float, None).

PyTorch's torchgen does the same with a loader that adds a `__line__` key to every mapping; keeping
the positions outside the dict gives columns as well and leaves the data itself untouched.

Speed: a file in plain block style (every spec file of PyTorch's and ours except samples.yaml,
whose `{a: 1}` mappings are flow style) is read by yaml_block.py, line by line, with positions kept
as tuples: PyTorch's native_functions.yaml in about half the time of the C loader below, with the
same values and positions (tests/codegen/test_yaml_block.py). Every other file, and every file
with a mistake, goes to PyYAML, whose errors are the ones reported.

PyYAML's path: parsing runs in libyaml (PyYAML's C loader) when available. Positions are not computed
while loading: each mapping keeps PyYAML's nodes for its keys and values (one tuple per key) and
works out a Location only when asked. Strings, most of a spec, skip PyYAML's generic dispatch, and
the garbage collector is paused while loading (see `gc_paused`). Loading PyTorch's 16k-line
native_functions.yaml takes ~0.1 s, about half of a plain `yaml.load` with the C loader.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
from typing import Any, Callable, Hashable, Iterator, Optional, Union

import yaml

from tools.codegen import yaml_block
from tools.codegen.errors import Location, SpecError

__all__ = [
    "Node",
    "Seq",
    "load_yaml",
    "load_yaml_with_loc",
    "load_yaml_string",
    "gc_paused",
    "read_spec_bytes",
    "load_block_item",
]

try:
    _BaseLoader: type = yaml.CSafeLoader  # libyaml: parsing in C
except AttributeError:  # PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader

_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"

# The only values a spec holds. Any other tag (`!!binary`, `!!set`, `!!timestamp`, a plain date,
# `!!python/...`) is an error, and so is a tag that does not fit its node (`!!seq {a: 1}`).
_ALLOWED_TAGS: dict[str, type] = {
    "tag:yaml.org,2002:str": yaml.ScalarNode,
    "tag:yaml.org,2002:int": yaml.ScalarNode,
    "tag:yaml.org,2002:float": yaml.ScalarNode,
    "tag:yaml.org,2002:bool": yaml.ScalarNode,
    "tag:yaml.org,2002:null": yaml.ScalarNode,
    "tag:yaml.org,2002:seq": yaml.SequenceNode,
    "tag:yaml.org,2002:map": yaml.MappingNode,
}
_KIND_NAMES = {yaml.ScalarNode: "a scalar", yaml.SequenceNode: "a sequence", yaml.MappingNode: "a mapping"}

# Bounds on what one spec file may hold. PyTorch's native_functions.yaml is 0.6 MB and about 60k
# values; aliases (`&a` / `*a`) may repeat a value, but not multiply a file into billions of
# values (an "alias bomb", which would otherwise keep every later stage busy for minutes).
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_EXPANDED_VALUES = 4_000_000


def _tag_name(tag: str) -> str:
    """`tag:yaml.org,2002:float` -> `!!float`; other tags as written."""
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix) :] if tag.startswith(prefix) else tag


def _excerpt(text: str) -> str:
    """`text` quoted for a one-line message, cut after 40 characters."""
    return repr(text if len(text) <= 40 else text[:40] + "...")


def _check_expansion(root: yaml.Node, display_name: str) -> None:
    """Raises SpecError when aliases make `root` recursive or expand it beyond MAX_EXPANDED_VALUES.

    Counts every value as often as aliases repeat it (a merge key `<<: *a` copies a's pairs), in
    time linear in the file: each node's expanded size is computed once.
    """
    size: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            total = 1
            if isinstance(node, yaml.MappingNode):
                total += sum(size[id(k)] + size[id(v)] for k, v in node.value)
            elif isinstance(node, yaml.SequenceNode):
                total += sum(size[id(item)] for item in node.value)
            if total > MAX_EXPANDED_VALUES:
                raise SpecError(
                    f"through aliases (*name) this value expands to more than {MAX_EXPANDED_VALUES:,} values; "
                    "a spec file may not hold more",
                    _node_loc(display_name, node),
                )
            size[key] = total
            continue
        if key in size:
            continue
        if key in on_path:
            raise SpecError("an alias (*name) refers to a value that contains it", _node_loc(display_name, node))
        if isinstance(node, yaml.ScalarNode):
            size[key] = 1
            continue
        on_path.add(key)
        stack.append((node, True))
        if isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        else:
            children = list(node.value)
        stack.extend((child, False) for child in children if id(child) not in size)


# Where an anchor (`&name`) may start: `&` at the start of the file or after a space, a flow
# indicator, ':', '?', '-' or a byte-order mark, followed by a character an anchor name may hold.
# Without one the file has no aliases (an alias of an undefined anchor is the parser's error), so
# nothing in it can repeat or recurse and `_check_expansion` has nothing to find.
_ANCHOR = re.compile(r"(?:^|[\s\[\]{},:?\-\ufeff])&[^\s\[\]{},]")


def _may_have_anchors(text: Any) -> bool:
    """Returns False only when `text` (the file, bytes or str) certainly holds no anchor."""
    if isinstance(text, bytes):
        if b"&" not in text:
            return False
        if b"\x00" in text:  # UTF-16 or UTF-32: not searched here
            return True
        text = text.decode("utf-8", errors="replace")
    return not isinstance(text, str) or ("&" in text and _ANCHOR.search(text) is not None)


def _node_loc(file: str, node: Any, offset: int = 0) -> Location:
    """Returns where `node` starts, or where character `offset` of its string value is.

    `node` is PyYAML's node, or yaml_block.py's position tuple `(line, column, kind)`.
    Offsets map to columns only when the scalar is on one line and its text is the value itself
    (plain, or quoted without escapes); otherwise the scalar's own start is returned.
    """
    if type(node) is tuple:
        line, col, kind = node
        col += 1
        if kind == yaml_block.QUOTED or kind == yaml_block.QUOTED_WHOLE:
            col += 1  # point inside the quotes
        if kind == yaml_block.PLAIN or kind == yaml_block.QUOTED:
            col += offset  # the text is the value, character for character
        return Location(file, line + 1, col)
    start = node.start_mark
    col = start.column + 1
    if isinstance(node, yaml.ScalarNode) and node.style in ("'", '"'):
        col += 1  # point inside the quotes
    # Plain scalars have style None from the Python parser but "" from libyaml.
    if offset and isinstance(node, yaml.ScalarNode) and node.style in (None, "", "'", '"'):
        end = node.end_mark
        quotes = 2 if node.style else 0
        if start.line == end.line and end.column - start.column - quotes == len(node.value):
            col += offset
    return Location(file, start.line + 1, col)


class _Positioned:
    """Where a loaded mapping or sequence starts (`file`, and `_start`: PyYAML's start mark, or
    yaml_block.py's position tuple)."""

    __slots__ = ()
    file: str
    _start: Any

    def _line_col(self) -> tuple[int, int]:
        start = self._start
        if type(start) is tuple:
            return start[0], start[1]
        return start.line, start.column

    @property
    def line(self) -> int:
        """The 1-based line where it starts: 12."""
        return self._line_col()[0] + 1

    @property
    def col(self) -> int:
        """The 1-based column where it starts: 3 for `- func: ...`."""
        return self._line_col()[1] + 1

    @property
    def loc(self) -> Location:
        """Returns where it starts."""
        line, col = self._line_col()
        return Location(self.file, line + 1, col + 1)


class Node(_Positioned, dict):
    """A YAML mapping: a dict that also knows where it and each of its keys and values are."""

    # PyYAML's nodes are kept rather than positions computed up front: most positions are never
    # asked for, and keeping a reference is the cheapest thing to do while loading.
    __slots__ = ("file", "_start", "_nodes")

    # The file name as shown in errors: "specs/native_functions.yaml".
    file: str
    # Where the mapping starts (its first key, for a block mapping): PyYAML's mark, or
    # yaml_block.py's (line, column, kind).
    _start: Any
    # Per key, where its key and its value are: PyYAML's key node and value node,
    # {"func": (ScalarNode(...), ScalarNode(...))}, or yaml_block.py's position tuples.
    _nodes: dict[Hashable, tuple[Any, Any]]

    def key_loc(self, key: Hashable) -> Location:
        """Returns where `key` is written."""
        return _node_loc(self.file, self._nodes[key][0])

    def value_loc(self, key: Hashable, offset: int = 0) -> Location:
        """Returns where the value of `key` is, or where its character `offset` is.

        `offset` indexes the loaded string (e.g. a `SchemaParseError.offset`). When the string
        cannot be mapped back column by column (it spans lines or contains escapes), the value's
        own start is returned.
        """
        return _node_loc(self.file, self._nodes[key][1], offset)


class Seq(_Positioned, list):
    """A YAML sequence: a list that also knows where it and each of its items are."""

    __slots__ = ("file", "_start", "_items")

    # The file name as shown in errors: "specs/native_functions.yaml".
    file: str
    # Where the sequence starts (its first '-', for a block sequence): PyYAML's mark, or
    # yaml_block.py's (line, column, kind).
    _start: Any
    # Where each item is, in order: its YAML node, or yaml_block.py's position tuple.
    _items: list[Any]

    def item_loc(self, index: int, offset: int = 0) -> Location:
        """Returns where item `index` is, or where its character `offset` is (see Node.value_loc)."""
        return _node_loc(self.file, self._items[index], offset)


class _LocConstructor:
    """Mixed into a safe loader: builds `Node` / `Seq` with positions instead of dict / list."""

    def __init__(self, stream: Any, display_name: str) -> None:
        super().__init__(stream)
        self.display_name = display_name

    def _value(self, node: yaml.Node) -> Any:
        # Strings are most of a spec; skip PyYAML's generic dispatch for them.
        if node.tag == _STR_TAG and isinstance(node, yaml.ScalarNode):
            return node.value
        self._check_tag(node)
        if not isinstance(node, yaml.ScalarNode):
            return self.construct_object(node)
        try:
            return self.construct_object(node)
        except (ValueError, KeyError, TypeError):  # `!!int abc`, `!!bool maybe`, `!!float x`
            raise SpecError(
                f"{_excerpt(node.value)} is not a valid {_tag_name(node.tag)}", _node_loc(self.display_name, node)
            ) from None

    def _check_tag(self, node: yaml.Node) -> None:
        """Raises SpecError for a tag a spec cannot hold, or one that does not fit its node."""
        kind = _ALLOWED_TAGS.get(node.tag)
        if kind is None:
            raise SpecError(
                f"the YAML tag {_tag_name(node.tag)} is not allowed in a spec file; values are strings, "
                "numbers, booleans, null, sequences and mappings",
                _node_loc(self.display_name, node),
            )
        if not isinstance(node, kind):
            raise SpecError(
                f"the YAML tag {_tag_name(node.tag)} needs {_KIND_NAMES[kind]}, but this is {_KIND_NAMES[type(node)]}",
                _node_loc(self.display_name, node),
            )

    def _construct_node(self, node: yaml.MappingNode):
        data = Node()
        data.file = self.display_name
        data._start = node.start_mark
        nodes: dict[Hashable, tuple[yaml.Node, yaml.Node]] = {}
        data._nodes = nodes
        yield data  # let aliases refer to this mapping before it is filled

        # Merge keys (`<<: *anchor`) are spliced in front of the mapping's own pairs; an own key
        # may override a merged one, but two own keys with one name are a mistake.
        first_own = 0
        if any(k.tag == _MERGE_TAG for k, _ in node.value):
            own_count = sum(1 for k, _ in node.value if k.tag != _MERGE_TAG)
            self.flatten_mapping(node)
            first_own = len(node.value) - own_count
        own_keys: dict[Hashable, yaml.Node] = {}
        value_of = self._value
        for i, (key_node, value_node) in enumerate(node.value):
            key = value_of(key_node)
            if type(key) is not str:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise SpecError("mapping keys must be scalars", _node_loc(self.display_name, key_node))
                # `~:`, `true:`, `.nan:`, `1:` load as None, True, nan, 1: every key of a spec is a name.
                raise SpecError(
                    f"a key must be a name, but {_excerpt(key_node.value)} reads as {_tag_name(key_node.tag)}; "
                    "quote it to make it a string",
                    _node_loc(self.display_name, key_node),
                )
            if i >= first_own:
                first = own_keys.get(key)
                if first is not None:
                    raise SpecError(
                        f"duplicate key {key!r} (first written at line {first.start_mark.line + 1})",
                        _node_loc(self.display_name, key_node),
                    )
                own_keys[key] = key_node
            data[key] = value_of(value_node)
            nodes[key] = (key_node, value_node)

    def _construct_seq(self, node: yaml.SequenceNode):
        data = Seq()
        data.file = self.display_name
        data._start = node.start_mark
        data._items = node.value
        yield data
        value_of = self._value
        data.extend([value_of(item) for item in node.value])


def _loader_class(base: type) -> type:
    """Returns a loader class on `base` (yaml.CSafeLoader or yaml.SafeLoader) that keeps positions."""
    loader = type("_LocLoader", (_LocConstructor, base), {})
    loader.add_constructor("tag:yaml.org,2002:map", _LocConstructor._construct_node)
    loader.add_constructor("tag:yaml.org,2002:seq", _LocConstructor._construct_seq)
    return loader


_LocLoader = _loader_class(_BaseLoader)


def _content_lines(text: Any) -> list[str]:
    """The lines of the file being loaded (bytes decoded as UTF-8, bad bytes replaced)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    return text.splitlines() if isinstance(text, str) else []


def _spaces(n: int) -> str:
    return f"{n} space" if n == 1 else f"{n} spaces"


def _key_start(line: str) -> Optional[tuple[int, str]]:
    """(column, name) of the key a block line starts with: `  - func: x` -> (4, "func"); else None."""
    col = len(line) - len(line.lstrip(" "))
    while line.startswith("- ", col) or line[col:] == "-":
        col += 2
        col += len(line[col:]) - len(line[col:].lstrip(" "))
    rest = line[col:]
    colon = rest.find(":")
    name = rest[:colon] if colon > 0 else ""
    if (
        name
        and not name.startswith(("#", "'", '"', "[", "{"))
        and " " not in name.strip()
        and (colon + 1 == len(rest) or rest[colon + 1] in " \t")
    ):
        return col, name.strip()
    return None


def _key_above(lines: list[str], line_no: int) -> Optional[tuple[int, int, str]]:
    """(line number, column, name) of the nearest key above 0-based line `line_no`, or None."""
    for i in range(min(line_no, len(lines)) - 1, -1, -1):
        stripped = lines[i].strip()
        if not stripped or stripped.startswith("#"):
            continue
        key = _key_start(lines[i])
        if key is not None:
            return i + 1, key[0], key[1]
    return None


def _explain(e: yaml.MarkedYAMLError, lines: list[str], display_name: str) -> Optional[SpecError]:
    """The usual indentation and quoting mistakes in the author's terms, or None for the others.

    PyYAML (libyaml or the Python parser, each worded its own way) says what its grammar expected
    ("mapping values are not allowed here"); this says which line is indented how much against
    which key above, from the text of the file, so both parsers give the same message.
    """
    mark = e.problem_mark
    if mark is None:
        return None
    problem = e.problem or ""
    line = lines[mark.line] if mark.line < len(lines) else ""
    indent = len(line) - len(line.lstrip(" "))
    above = _key_above(lines, mark.line)
    here = _key_start(line)

    def at(line_no: int, col: int) -> Location:
        return Location(display_name, line_no, col + 1)

    if "\t" in line[: len(line) - len(line.lstrip(" \t"))]:
        return SpecError(
            "this line is indented with a tab; YAML indents with spaces only", at(mark.line + 1, line.index("\t"))
        )
    if problem.startswith("mapping values are not allowed"):
        if here is not None and here[0] == indent and mark.column == indent + len(here[1]) and above:
            above_line, above_col, above_name = above
            if indent > above_col:
                return SpecError(
                    f"'{here[1]}:' is indented {_spaces(indent)}, more than '{above_name}:' on line {above_line} "
                    f"({_spaces(above_col)}), so it reads as part of that key's value; indent it "
                    f"{_spaces(above_col)} to make it a key beside '{above_name}:'",
                    at(mark.line + 1, indent),
                )
        return SpecError(
            "':' followed by a space inside a value makes YAML read a key here; put the whole value in quotes "
            "(\"...\") when the ':' belongs to it",
            at(mark.line + 1, mark.column),
        )
    if "sequence entries are not allowed" in problem:
        return SpecError(
            "a list item ('- ') cannot follow a key on the same line; write the list as [a, b], or put each "
            "'- item' on a line of its own, indented under the key",
            at(mark.line + 1, mark.column),
        )
    if problem.startswith("could not find expected ':'") and e.context_mark is not None:
        cm = e.context_mark
        text = lines[cm.line].strip() if cm.line < len(lines) else ""
        where = ""
        key = _key_above(lines, cm.line)
        if key is not None:
            where = (
                f"; if it continues the value of '{key[2]}:' on line {key[0]}, indent it more than that key "
                f"({_spaces(key[1])}) or write the value on one line"
            )
        return SpecError(
            f"{_excerpt(text)} is written where a key ('name: value') is expected{where}", at(cm.line + 1, cm.column)
        )
    block_end = problem.startswith(("did not find expected '-' indicator", "did not find expected key")) or (
        problem.startswith("expected <block end>")
    )
    if block_end and e.context_mark is not None and indent == mark.column:
        return _misaligned(e, line, indent, here, above, at)
    return None


def _misaligned(
    e: yaml.MarkedYAMLError,
    line: str,
    indent: int,
    here: Optional[tuple],
    above: Optional[tuple],
    at: Callable[[int, int], Location],
) -> Optional[SpecError]:
    """A block that ends where YAML did not expect: a list item or key lined up with nothing."""
    mark, cm = e.problem_mark, e.context_mark
    if line.lstrip(" ").startswith("-") and "mapping" in (e.context or ""):
        return SpecError(
            f"a list item ('-') at {_spaces(indent)} where the mapping from line {cm.line + 1} expects a key at "
            f"{_spaces(cm.column)}; the items of one level are either all '- ' list items or all 'name:' keys",
            at(mark.line + 1, indent),
        )
    if line.lstrip(" ").startswith("-"):
        return SpecError(
            f"this list item's '-' is indented {_spaces(indent)}, which lines up with no list above (the list "
            f"from line {cm.line + 1} is at {_spaces(cm.column)}); line it up with the '-' of the other items",
            at(mark.line + 1, indent),
        )
    if here is not None and above is not None:
        above_line, above_col, above_name = above
        return SpecError(
            f"'{here[1]}:' is indented {_spaces(indent)}, which lines up with no key above ('{above_name}:' on "
            f"line {above_line} is at {_spaces(above_col)}); indent it like the other keys of its entry",
            at(mark.line + 1, indent),
        )
    return None


def _yaml_error(e: yaml.YAMLError, display_name: str, text: Any = None) -> SpecError:
    """Turns PyYAML's error into a one-line SpecError at the problem's position."""
    if isinstance(e, yaml.MarkedYAMLError):
        explained = _explain(e, _content_lines(text), display_name)
        if explained is not None:
            return explained
        mark = e.problem_mark or e.context_mark
        message = e.problem or e.context or "invalid YAML"
        if e.problem and e.context and e.context_mark is not None:
            # "did not find expected ',' or ']' (while parsing a flow sequence at line 2)": where
            # the unclosed construct began is usually where the mistake is.
            message += f" ({e.context} at line {e.context_mark.line + 1})"
        if mark is not None:
            return SpecError(message, Location(display_name, mark.line + 1, mark.column + 1))
        return SpecError(message, Location(display_name, 1))
    # ReaderError (bad encoding or control characters) has no line; keep PyYAML's own text.
    return SpecError(" ".join(str(e).split()), Location(display_name, 1))


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pauses Python's cyclic garbage collector for the duration, if it was running.

    Loading a spec allocates a few hundred thousand long-lived, acyclic objects; every few
    thousand allocations the collector would walk all of them again. On PyTorch's file that
    more than doubles the time to load and parse (0.18 s -> 0.44 s). Nothing here creates
    cycles worth collecting early; the collector resumes afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# The safe loader's constructors of the non-string scalars a spec may hold (yaml_block.py's
# `construct`): `1`, `1.5`, `true`, `~` read as PyYAML reads them.
_SCALAR_TAGS = frozenset(t for t, kind in _ALLOWED_TAGS.items() if kind is yaml.ScalarNode and t != _STR_TAG)
_SAFE_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _construct_scalar(tag: str, text: str) -> Any:
    if tag not in _SCALAR_TAGS:  # `2024-01-01` (a timestamp), `=`, `<<`: PyYAML's path says why
        raise yaml_block.Unsupported(tag)
    return _SAFE_CONSTRUCTOR.yaml_constructors[tag](_SAFE_CONSTRUCTOR, yaml.ScalarNode(tag, text))


def _load(stream: Any, display_name: str) -> tuple[Any, Location]:
    # Most spec files are plain block YAML, which yaml_block.py reads 3-4x faster than PyYAML
    # does, with the same values and positions; anything else (and every error) is PyYAML's.
    try:
        with gc_paused():
            data, (line, col, _) = yaml_block.read_block_yaml(stream, display_name, _construct_scalar, Node, Seq)
        return data, Location(display_name, line + 1, col + 1)
    except yaml_block.Unsupported:
        pass
    return _load_pyyaml(stream, display_name)


def _load_pyyaml(stream: Any, display_name: str) -> tuple[Any, Location]:
    loader = _LocLoader(stream, display_name)
    try:
        with gc_paused():
            node = loader.get_single_node()
            if node is None:  # an empty document
                return None, Location(display_name, 1)
            if _may_have_anchors(stream):
                _check_expansion(node, display_name)
            loader._check_tag(node)
            data = loader.construct_document(node)
        return data, Location(display_name, node.start_mark.line + 1, node.start_mark.column + 1)
    except yaml.YAMLError as e:
        raise _yaml_error(e, display_name, stream) from None
    finally:
        loader.dispose()


def load_yaml_with_loc(path: Union[str, os.PathLike], display_name: Optional[str] = None) -> tuple[Any, Location]:
    """Returns the data of a one-document YAML file and where its top-level value starts.

    `display_name` is the file name used in every Location (pass a workspace-relative path so no
    absolute path leaks into messages); it defaults to `path` as given.
    Raises SpecError for an unreadable file or malformed YAML, at the problem's line and column.
    """
    name = display_name if display_name is not None else os.fspath(path)
    return _load(read_spec_bytes(path, name), name)


def read_spec_bytes(path: Union[str, os.PathLike], name: str) -> bytes:
    """The bytes of spec file `path` (shown as `name`). Raises SpecError when it cannot be read or
    is too large."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise SpecError(f"cannot read file: {e.strerror}", Location(name, 1)) from None
    if len(text) > MAX_FILE_BYTES:
        raise SpecError(f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB", Location(name, 1))
    return text


def load_block_item(text: str, first_line: int, display_name: str) -> tuple[Any, Location]:
    """One item of yaml_block.split_items, read on its own: its value and where it is, exactly as
    in the whole file. Raises yaml_block.Unsupported when the file is PyYAML's to read (then
    load_yaml reads the whole file, and reports its mistakes)."""
    with gc_paused():
        seq, _ = yaml_block.read_block_yaml(text, display_name, _construct_scalar, Node, Seq, first_line)
    if not isinstance(seq, Seq) or len(seq) != 1:
        raise yaml_block.Unsupported("not one item")
    return seq[0], seq.item_loc(0)


def load_yaml(path: Union[str, os.PathLike], display_name: Optional[str] = None) -> Any:
    """Returns the data of a one-document YAML file: `Node` for mappings, `Seq` for sequences.

    See `load_yaml_with_loc` for `display_name` and errors.
    """
    return load_yaml_with_loc(path, display_name)[0]


def load_yaml_string(text: str, display_name: str) -> Any:
    """Like `load_yaml`, for YAML text already in memory (tests, generated specs)."""
    return _load(text, display_name)[0]
