"""yaml_block.py, the fast reader of block-style spec files: what it accepts it reads exactly as
PyYAML does (values, types, key order, every position), and the rest it leaves to PyYAML."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import TREE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.codegen import yaml_block, yaml_loader
from tools.codegen.errors import SpecError
from tools.codegen.yaml_loader import Node, Seq


def _block(text, name="t.yaml"):
    """yaml_block's reading, or None when it leaves the text to PyYAML."""
    try:
        data, (line, col, _) = yaml_block.read_block_yaml(text, name, yaml_loader._construct_scalar, Node, Seq)
    except yaml_block.Unsupported:
        return None
    return data, yaml_loader.Location(name, line + 1, col + 1)


def _same(fast, slow, path=()):
    """Asserts the two readings hold the same values, types, key order and positions."""
    assert type(fast) is type(slow), (path, type(fast), type(slow))
    if isinstance(fast, Node):
        assert list(fast) == list(slow), path
        assert fast.loc == slow.loc, path
        for key in fast:
            assert fast.key_loc(key) == slow.key_loc(key), (path, key)
            for offset in (0, 1, 4):
                assert fast.value_loc(key, offset) == slow.value_loc(key, offset), (path, key, offset)
            _same(fast[key], slow[key], path + (key,))
    elif isinstance(fast, Seq):
        assert len(fast) == len(slow), path
        assert fast.loc == slow.loc, path
        for i in range(len(fast)):
            for offset in (0, 2):
                assert fast.item_loc(i, offset) == slow.item_loc(i, offset), (path, i, offset)
            _same(fast[i], slow[i], path + (i,))
    else:
        assert fast == slow and type(fast) is type(slow), (path, fast, slow)


def _check(text):
    """Compares yaml_block's reading of `text` with both PyYAML loaders'; returns whether it read it."""
    fast = _block(text)
    for base in (yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        loader = yaml_loader._loader_class(base)
        original = yaml_loader._LocLoader
        yaml_loader._LocLoader = loader
        try:
            slow = yaml_loader._load_pyyaml(text, "t.yaml")
        except SpecError:
            assert fast is None, f"yaml_block read text that PyYAML refuses:\n{text}"
            continue
        finally:
            yaml_loader._LocLoader = original
        if fast is not None:
            _same(fast[0], slow[0])
            assert fast[1] == slow[1]
    _check_items(text, fast)
    return fast is not None


def _check_items(text, whole):
    """A file split into its top-level items (split_items), each item read on its own
    (load_block_item, as a persistent worker reads an edited derivative entry): each is what it
    is in the whole file, values and positions; and when the whole file is PyYAML's to read, so
    is the split or one of its items."""
    try:
        _, parts = yaml_block.split_items(text)
        items = [yaml_loader.load_block_item(item, first_line, "t.yaml") for first_line, item in parts]
    except yaml_block.Unsupported:
        return
    assert whole is not None, f"items read on their own from a file that yaml_block leaves to PyYAML:\n{text}"
    seq = whole[0]
    assert isinstance(seq, Seq) and len(seq) == len(items)
    for i, (value, loc) in enumerate(items):
        assert loc == seq.item_loc(i), i
        _same(value, seq[i], (i,))


SPEC_FILES = ["specs/native_functions.yaml", "specs/derivatives.yaml", "specs/samples.yaml"]


@pytest.mark.parametrize("name", SPEC_FILES)
def test_the_projects_specs(name):
    read = _check((TREE / name).read_bytes())
    if name != "specs/samples.yaml":  # its flow mappings ({a: 1}) are PyYAML's
        assert read, f"yaml_block left {name} to PyYAML"


@pytest.mark.parametrize("name", ["native_functions.yaml", "derivatives.yaml"])
def test_pytorchs_specs(pytorch_specs, name):
    # PyTorch's files are what the speed is for: both must be read here, not by PyYAML.
    assert _check((pytorch_specs / name).read_bytes()), f"yaml_block left PyTorch's {name} to PyYAML"


@pytest.mark.parametrize("name", ["specs/native_functions.yaml", "specs/derivatives.yaml"])
def test_spec_files_split_into_items(name):
    # The worker's way of reading derivatives.yaml must take these files item by item.
    _, parts = yaml_block.split_items((TREE / name).read_bytes())
    assert len(parts) == (TREE / name).read_text().count("\n- ")


@pytest.mark.parametrize(
    "text",
    [
        "- func: a(Tensor self) -> Tensor\n  variants: function, method\n",
        "- name: a\n  self: grad  # a comment\n  other: 'x y'\n  third: \"a -> b\"\n",
        "- a: 1\n  b: -2\n  c: 0x1F\n  d: 1_000\n  e: .5\n  f: 1e3\n  g: ~\n  h: null\n  i: yes\n  j: Off\n",
        "- a: [core, pointwise]\n  b: []\n  c: [1, true, x]\n  d: {}\n",
        "- a:\n  - x\n  - y\n  b: z\n",
        "- a:\n    - x\n    - y\n",
        "- dispatch:\n    CPU, CUDA: foo\n    Meta: bar\n  x: y\n",
        '- r: "first line\n      second line\n\n      after an empty line"\n  s: t\n',
        '- r: "a \\"quoted\\" word and a \\\\ backslash"\n',
        "# only a comment\n\n- a: b\n\n# trailing\n",
        "a: 1\nb:\n  c: 2\n",
        "- - nested\n",
        "- a: |\n    block\n",
        "- a: &x 1\n  b: *x\n",
        "- a: !!str 1\n",
        "- a: b\n  a: c\n",
        "- 1: b\n",
        "- a: b: c\n",
        "- a: b\n   c: d\n",
        "- a: 'it''s'\n",
        '- a: "tab\\there"\n',
        "- a: plain text\n    continued\n",
        "- a: 2001-12-14\n",
        "---\n- a: b\n",
        "- a: b\r\n",
        "- a: \u00e9\n",
        "# caf\u00e9\n- a: b\n",
        "- a: {x: 1}\n",
        "- a: [x, [y]]\n",
        "- a: b #c\n",
        "- a: b#c\n",
        "- a: '#x'\n",
        "- a:  spaced  \n",
        "- ? a\n  : b\n",
        "-\n  a: b\n",
        "",
        "- a: b\n- c\n",
        "- a: b\n  c: d\n# between\n- e: f\n  g: [h]\n",
        "- a: b\n-\n  c: d\n",
        "- a: b\nc: d\n",
        "  # indented comment\n- a: b\n",
        "  x\n- a: b\n",
        '- a: "x\ny"\n- b: c\n',
        "-x\n- a: b\n",
    ],
)
def test_examples(text):
    _check(text)


def test_what_it_reads_and_what_it_leaves():
    assert _check("- func: a\n  tags: [core]\n  dispatch:\n    CPU: a_cpu\n")
    assert _check('- name: a\n  self: "x\n    y"\n')
    for text in ["- a: |\n    block\n", "- a: &x 1\n", "- a: {x: 1}\n", "- a: 'it''s'\n", "- a: 2001-12-14\n"]:
        assert not _check(text), text


# Generated documents: lists of mappings with nested mappings, indentless lists, flow lists,
# plain scalars that YAML reads as numbers, booleans or null, quoted and multi-line scalars,
# comments and blank lines, and some mistakes (bad indentation, ': ' in a value).
_SAFE_WORDS = ["a", "func", "self", "grad * x", "CPU, CUDA", "yes", "No", "null", "~", "1", "-2", "0x1f", "1.5",
               ".inf", "1_0", "a -> b", "a #c", "[a]", "[a, 1]", "[]", "{}", "'q'", '"q"', '"a\\"b"',
               '"multi\n     line"', '"two\n\n     breaks"', "f(x, y)", "at::x(y)"]  # fmt: skip
_ODD_WORDS = ["x: y", "#c", "-", "- x", "on", "2001-01-01", "'it''s'", "&x", "*x", "!!str", "|", "[a, [b]]",
              "{a: 1}", '"unterminated', '"bad\n  indent"', "a\tb", "é"]  # fmt: skip
# Mostly what spec files hold, so that long documents are read through; now and then the rest.
_WORDS = st.one_of(st.sampled_from(_SAFE_WORDS), st.sampled_from(_SAFE_WORDS), st.sampled_from(_SAFE_WORDS),
                   st.sampled_from(_SAFE_WORDS), st.sampled_from(_ODD_WORDS))  # fmt: skip
_SAFE_KEYS = ["a", "b", "c", "func", "self", "CPU, CUDA", "x y", "Default"]
_KEYS = st.one_of(*[st.sampled_from(_SAFE_KEYS)] * 6, st.sampled_from(["a", "1", "on", "a:b", "'k'", "-k", "a ", "?"]))


@st.composite
def _documents(draw):
    lines = []

    def mapping(indent, depth, first_prefix=""):
        # Unique keys mostly (a repeated key is PyYAML's error to report).
        keys = draw(st.lists(_KEYS, min_size=1, max_size=4, unique=draw(st.integers(0, 9)) > 0))
        for n, key in enumerate(keys):
            pad = first_prefix if n == 0 and first_prefix else " " * indent
            kind = draw(st.integers(0, 9))
            if draw(st.integers(0, 15)) == 0:
                lines.append(draw(st.sampled_from(["", "# note", "   # indented note"])))
            extra = " " * draw(st.sampled_from([0] * 15 + [1]))
            if kind < 6 or depth > 2:
                lines.append(f"{pad}{extra}{key}: {draw(_WORDS)}")
            elif kind < 8:
                lines.append(f"{pad}{key}:")
                mapping(indent + draw(st.sampled_from([2, 4])), depth + 1)
            else:
                lines.append(f"{pad}{key}:")
                sequence(indent + draw(st.sampled_from([0, 2])), depth + 1)

    def sequence(indent, depth):
        for _ in range(draw(st.integers(1, 3))):
            if depth < 3 and draw(st.booleans()):
                mapping(indent + 2, depth + 1, first_prefix=" " * indent + "- ")
            else:
                lines.append(" " * indent + "- " + draw(_WORDS))

    sequence(0, 0)
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_documents())
def test_generated_documents(text):
    _check(text)


def test_loading_goes_through_the_block_reader(tmp_path):
    # yaml_loader uses the block reader for a plain file, and its positions in errors.
    path = Path(tmp_path) / "nf.yaml"
    path.write_text("- func: a\n  tags: [core]\n")
    data, loc = yaml_loader.load_yaml_with_loc(path, "nf.yaml")
    assert type(data._start) is tuple and str(loc) == "nf.yaml:1:1"
    assert str(data[0].value_loc("tags")) == "nf.yaml:2:9" and str(data[0]["tags"].item_loc(0, 2)) == "nf.yaml:2:12"
