"""Tests for errors.py, yaml_loader.py and load_native_functions.py: positions and messages."""

from __future__ import annotations

import time

import pytest
import yaml

from tools.codegen import yaml_loader
from tools.codegen.errors import Location, SchemaParseError, SpecError
from tools.codegen.load_native_functions import NativeFunction, parse_native_functions
from tools.codegen.model import FunctionSchema, OperatorName
from tools.codegen.yaml_loader import Node, Seq, load_yaml, load_yaml_string, load_yaml_with_loc

# ---------------------------------------------------------------------------------------------
# errors.py
# ---------------------------------------------------------------------------------------------


def test_location_str():
    assert str(Location("specs/a.yaml", 3)) == "specs/a.yaml:3"
    assert str(Location("specs/a.yaml", 3, 9)) == "specs/a.yaml:3:9"


def test_spec_error_str():
    assert str(SpecError("bad")) == "bad"
    assert str(SpecError("bad", Location("a.yaml", 2, 5))) == "a.yaml:2:5: bad"


def test_schema_parse_error_is_a_spec_error_with_offset():
    with pytest.raises(SpecError) as info:
        FunctionSchema.parse("foo(Tensr x) -> Tensor")
    assert isinstance(info.value, SchemaParseError)
    assert info.value.offset == 4


# ---------------------------------------------------------------------------------------------
# yaml_loader.py
# ---------------------------------------------------------------------------------------------

POSITIONS_YAML = """\
# a comment
- func: foo(Tensr self) -> Tensor
  variants: function, method
  flags:
  - DONT_PROFILE
  - DONT_RECORD_TRACE
- func: 'bar(Tensr self) -> Tensor'
  dispatch: {CPU: bar_cpu}
"""


@pytest.fixture(params=["block reader", "C loader", "Python loader"])
def loader_kind(request, monkeypatch):
    """Runs a test with yaml_block.py's reader first (PyYAML for what it leaves to PyYAML), then
    with libyaml's loader alone, and again with PyYAML's pure-Python loader alone."""
    if request.param == "block reader":
        return request.param

    def unsupported(*args, **kwargs):
        raise yaml_loader.yaml_block.Unsupported("PyYAML asked for")

    monkeypatch.setattr(yaml_loader.yaml_block, "read_block_yaml", unsupported)
    if request.param == "Python loader":
        monkeypatch.setattr(yaml_loader, "_LocLoader", yaml_loader._loader_class(yaml.SafeLoader))
    elif not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML is built without libyaml")
    return request.param


def test_load_yaml_positions(loader_kind):
    data = load_yaml_string(POSITIONS_YAML, "nf.yaml")
    assert isinstance(data, Seq) and isinstance(data[0], Node)
    assert data == [
        {
            "func": "foo(Tensr self) -> Tensor",
            "variants": "function, method",
            "flags": ["DONT_PROFILE", "DONT_RECORD_TRACE"],
        },
        {"func": "bar(Tensr self) -> Tensor", "dispatch": {"CPU": "bar_cpu"}},
    ]
    assert str(data.loc) == "nf.yaml:2:1"
    assert str(data.item_loc(1)) == "nf.yaml:7:3"
    first = data[0]
    assert (first.line, first.col) == (2, 3)
    assert str(first.key_loc("variants")) == "nf.yaml:3:3"
    assert str(first.value_loc("variants")) == "nf.yaml:3:13"
    assert str(first.value_loc("func", 4)) == "nf.yaml:2:13"  # the 'T' of Tensr
    assert str(first["flags"].item_loc(1)) == "nf.yaml:6:5"
    # A quoted value: columns count from inside the quote.
    assert str(data[1].value_loc("func")) == "nf.yaml:7:10"
    assert str(data[1].value_loc("func", 4)) == "nf.yaml:7:14"
    assert str(data[1]["dispatch"].value_loc("CPU")) == "nf.yaml:8:19"


def test_value_loc_falls_back_to_value_start_when_offsets_do_not_map(loader_kind):
    data = load_yaml_string('func: "foo\\t(Tensr self) -> Tensor"\nname: >\n  folded text\n', "d.yaml")
    assert str(data.value_loc("func", 6)) == "d.yaml:1:8"
    assert str(data.value_loc("name", 3)) == "d.yaml:2:7"


def test_load_yaml_file_and_display_name(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("\n\n- 1\n")
    assert load_yaml(path, "specs/x.yaml").loc == Location("specs/x.yaml", 3, 1)
    assert load_yaml(path).file == str(path)
    assert load_yaml_with_loc(path, "x.yaml")[1] == Location("x.yaml", 3, 1)


# libyaml and PyYAML's Python parser word some problems differently; the positions agree.
@pytest.mark.parametrize(
    "text, c_message, python_message",
    [
        (
            "- func: foo(Tensor self) -> Tensor\n  variants: [function\n",
            "nf.yaml:3:1: did not find expected ',' or ']' (while parsing a flow sequence at line 2)",
            "nf.yaml:3:1: expected ',' or ']', but got '<stream end>' (while parsing a flow sequence at line 2)",
        ),
        # Indentation and quoting mistakes, said in the spec author's terms (both parsers alike).
        (
            "- func: foo(Tensor self) -> Tensor\n   variants: function\n",
            "nf.yaml:2:4: 'variants:' is indented 3 spaces, more than 'func:' on line 1 (2 spaces), so it reads as "
            "part of that key's value; indent it 2 spaces to make it a key beside 'func:'",
            None,
        ),
        (
            "- func: a\n  dispatch:\n    CPU: x\n      CUDA: y\n",
            "nf.yaml:4:7: 'CUDA:' is indented 6 spaces, more than 'CPU:' on line 3 (4 spaces), so it reads as part "
            "of that key's value; indent it 4 spaces to make it a key beside 'CPU:'",
            None,
        ),
        (
            "- name: foo(Tensor self) -> Tensor\n  self: grad * a: b\n",
            "nf.yaml:2:17: ':' followed by a space inside a value makes YAML read a key here; put the whole value "
            "in quotes (\"...\") when the ':' belongs to it",
            None,
        ),
        (
            "- func: foo(Tensor self) -> Tensor\n  variants: function\n dispatch: x\n",
            "nf.yaml:3:2: 'dispatch:' is indented 1 space, which lines up with no key above ('variants:' on line 2 "
            "is at 2 spaces); indent it like the other keys of its entry",
            None,
        ),
        (
            "- func: a\n  dispatch:\n    CPU: x\n   CUDA: y\n",
            "nf.yaml:4:4: 'CUDA:' is indented 3 spaces, which lines up with no key above ('CPU:' on line 3 is at 4 "
            "spaces); indent it like the other keys of its entry",
            None,
        ),
        (
            "- func: a\n  variants: x\n - func: b\n",
            "nf.yaml:3:2: this list item's '-' is indented 1 space, which lines up with no list above (the list "
            "from line 1 is at 0 spaces); line it up with the '-' of the other items",
            None,
        ),
        (
            "func: a\n- func: b\n",
            "nf.yaml:2:1: a list item ('-') at 0 spaces where the mapping from line 1 expects a key at 0 spaces; "
            "the items of one level are either all '- ' list items or all 'name:' keys",
            None,
        ),
        (
            "- func: a\n\tvariants: x\n",
            "nf.yaml:2:1: this line is indented with a tab; YAML indents with spaces only",
            None,
        ),
        (
            "- name: foo\n  self: grad *\n  x\n",
            "nf.yaml:3:3: 'x' is written where a key ('name: value') is expected; if it continues the value of "
            "'self:' on line 2, indent it more than that key (2 spaces) or write the value on one line",
            None,
        ),
        (
            "- func: a\n  variants: - function\n",
            "nf.yaml:2:13: a list item ('- ') cannot follow a key on the same line; write the list as [a, b], or "
            "put each '- item' on a line of its own, indented under the key",
            None,
        ),
        (
            "- func: 'abc\n",
            "nf.yaml:2:1: found unexpected end of stream (while scanning a quoted scalar at line 1)",
            None,
        ),
        ("- func: x\n  func: y\n", "nf.yaml:2:3: duplicate key 'func' (first written at line 1)", None),
        ("- func: x\n  dispatch: {[a]: b}\n", "nf.yaml:2:14: mapping keys must be scalars", None),
        (
            "- !!python/object:os.system x\n",
            "nf.yaml:1:3: the YAML tag !!python/object:os.system is not allowed in a spec file; values are "
            "strings, numbers, booleans, null, sequences and mappings",
            None,
        ),
        # Tags a spec cannot hold, on names, schemas and values; a plain date is a timestamp too.
        (
            "- func: !!timestamp 2020-01-01\n",
            "nf.yaml:1:9: the YAML tag !!timestamp is not allowed in a spec file; values are strings, numbers, "
            "booleans, null, sequences and mappings",
            None,
        ),
        (
            "- func: x\n  tags: 2020-01-01\n",
            "nf.yaml:2:9: the YAML tag !!timestamp is not allowed in a spec file; values are strings, numbers, "
            "booleans, null, sequences and mappings",
            None,
        ),
        (
            "- func: x\n  tags: !!binary aGVsbG8=\n",
            "nf.yaml:2:9: the YAML tag !!binary is not allowed in a spec file; values are strings, numbers, "
            "booleans, null, sequences and mappings",
            None,
        ),
        (
            "- func: x\n  tags: !!set {a, b}\n",
            "nf.yaml:2:9: the YAML tag !!set is not allowed in a spec file; values are strings, numbers, "
            "booleans, null, sequences and mappings",
            None,
        ),
        # Tags that do not fit the text or the node they are on.
        (
            "- func: !!float mm(Tensor self) -> Tensor\n",
            "nf.yaml:1:9: 'mm(Tensor self) -> Tensor' is not a valid !!float",
            None,
        ),
        ("- func: !!int x\n", "nf.yaml:1:9: 'x' is not a valid !!int", None),
        ("- func: x\n  structured: !!bool maybe\n", "nf.yaml:2:15: 'maybe' is not a valid !!bool", None),
        (
            "- func: !!int " + "1" * 50 + "x\n",
            "nf.yaml:1:9: '" + "1" * 40 + "...' is not a valid !!int",
            None,
        ),
        ("- !!seq {func: x}\n", "nf.yaml:1:3: the YAML tag !!seq needs a sequence, but this is a mapping", None),
        ("- !!map [x]\n", "nf.yaml:1:3: the YAML tag !!map needs a mapping, but this is a sequence", None),
        ("- func: !!str [x]\n", "nf.yaml:1:9: the YAML tag !!str needs a scalar, but this is a sequence", None),
        ("!!map [x]\n", "nf.yaml:1:1: the YAML tag !!map needs a mapping, but this is a sequence", None),
        # Every key is a name: null, booleans and numbers as keys are mistakes.
        ("- ~: x\n", "nf.yaml:1:3: a key must be a name, but '~' reads as !!null; quote it to make it a string", None),
        (
            "- func: x\n  true: 1\n",
            "nf.yaml:2:3: a key must be a name, but 'true' reads as !!bool; quote it to make it a string",
            None,
        ),
        (
            "- func: x\n  dispatch: {.nan: y}\n",
            "nf.yaml:2:14: a key must be a name, but '.nan' reads as !!float; quote it to make it a string",
            None,
        ),
        ("- {1: x}\n", "nf.yaml:1:4: a key must be a name, but '1' reads as !!int; quote it to make it a string", None),
        # Aliases: neither recursive nor expanding a file beyond MAX_EXPANDED_VALUES.
        ("- &a [x, *a]\n", "nf.yaml:1:3: an alias (*name) refers to a value that contains it", None),
        ("- &a {func: x, tags: *a}\n", "nf.yaml:1:3: an alias (*name) refers to a value that contains it", None),
        (
            "- func: x\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)),
            "nf.yaml:8:7: through aliases (*name) this value expands to more than 4,000,000 values; a spec file "
            "may not hold more",
            None,
        ),
        (  # merge keys double a mapping per level: 2**30 pairs
            "m0: &m0 {k: 1}\n"
            + "".join(f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}], k{i}: 1}}\n" for i in range(1, 31)),
            "nf.yaml:20:16: through aliases (*name) this value expands to more than 4,000,000 values; a spec file "
            "may not hold more",
            None,
        ),
    ],
)
def test_malformed_yaml(text, c_message, python_message, loader_kind):
    with pytest.raises(SpecError) as info:
        load_yaml_string(text, "nf.yaml")
    # The block reader leaves every malformed file to PyYAML's C loader.
    expected = c_message if loader_kind != "Python loader" else (python_message or c_message)
    assert str(info.value) == expected


def test_merge_keys_may_be_overridden():
    data = load_yaml_string("base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\n", "m.yaml")
    assert data["derived"] == {"x": 1, "y": 3}


def test_missing_file(tmp_path):
    with pytest.raises(SpecError) as info:
        load_yaml(tmp_path / "nope.yaml", "specs/nope.yaml")
    assert str(info.value) == "specs/nope.yaml:1: cannot read file: No such file or directory"


def test_aliases_may_repeat_values_within_the_bound():
    text = "a: &a [x, y]\nb: [*a, *a]\nc: {<<: &m {k: 1}, j: 2}\nd: {<<: *m}\n"
    assert load_yaml_string(text, "m.yaml") == {
        "a": ["x", "y"],
        "b": [["x", "y"], ["x", "y"]],
        "c": {"k": 1, "j": 2},
        "d": {"k": 1},
    }


def test_file_size_is_bounded(tmp_path, monkeypatch):
    from tools.codegen import yaml_loader

    path = tmp_path / "big.yaml"
    path.write_text("- func: x\n" * 20)
    monkeypatch.setattr(yaml_loader, "MAX_FILE_BYTES", 100)
    with pytest.raises(SpecError) as info:
        load_yaml(path, "specs/big.yaml")
    assert str(info.value) == "specs/big.yaml:1: the file is larger than 0 MiB"


# ---------------------------------------------------------------------------------------------
# load_native_functions.py
# ---------------------------------------------------------------------------------------------


def _load(write_yaml, text):
    return parse_native_functions(write_yaml(text), "specs/native_functions.yaml")


def _error(write_yaml, text) -> str:
    with pytest.raises(SpecError) as info:
        _load(write_yaml, text)
    return str(info.value)


def test_declarations_load(write_yaml):
    functions = _load(
        write_yaml,
        """\
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  variants: function, method
  dispatch:
    CPU, CUDA: add
    SparseCPU: add_sparse
  tags: [core, pointwise]

# in-place
- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
  variants: method
  flags: [DONT_RECORD_TRACE, DONT_PROFILE]
  manual_cpp_binding: True
  structured_delegate: add.out
  tags: pointwise

- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  flags:
  - DONT_REQUIRE_DERIVATIVE
  device_check: NoCheck
  autogen: add.Scalar_out, add.foo
""",
    )
    add, add_, add_out = functions
    assert str(add.func) == "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
    assert add.loc == Location("specs/native_functions.yaml", 1, 3)
    assert add.variants == frozenset({"function", "method"})
    assert add.dispatch == (("CPU", "add"), ("CUDA", "add"), ("SparseCPU", "add_sparse"))
    assert add.tags == ("core", "pointwise")
    assert add.flags == frozenset()
    assert add.manual_cpp_binding is False
    assert add_.loc.line == 9
    assert add_.flags == frozenset({"DONT_RECORD_TRACE", "DONT_PROFILE"})
    assert add_.variants == frozenset({"method"})
    assert add_.manual_cpp_binding is True
    assert add_.structured_delegate == OperatorName.parse("add.out")
    assert add_.tags == ("pointwise",)
    assert add_out.flags == frozenset({"DONT_REQUIRE_DERIVATIVE"})
    assert add_out.variants == frozenset({"function"})
    assert add_out.device_check == "NoCheck"
    assert add_out.autogen == (OperatorName.parse("add.Scalar_out"), OperatorName.parse("add.foo"))
    assert add_out.name == OperatorName.parse("add.out")


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "- func: mm(Tensor self, Tensor mat2) -> Tensor\n  foo: 1\n",
            "specs/native_functions.yaml:2:3: unknown key 'foo' in a declaration; expected one of autogen, "
            "category_override, cpp_no_default_args, device_check, device_guard, dispatch, flags, func, "
            "manual_cpp_binding, manual_kernel_registration, precomputed, python_module, structured, "
            "structured_delegate, structured_inherits, tags, ufunc_inner_loop, "
            "use_const_ref_for_mutable_tensors, variants",
        ),
        (
            "- func: mm(Tensor self, Tensor mat2) -> Tensor\n  flags: [DONT_PROFILE, DONT_TRACE]\n",
            "specs/native_functions.yaml:2:25: unknown flag 'DONT_TRACE'; expected one of "
            "DONT_PROFILE, DONT_RECORD_TRACE, DONT_REQUIRE_DERIVATIVE",
        ),
        (
            "- func: mm(Tensor self, Tensor mat2) -> Tensor\n  flags:\n  - DONT_PROFILE\n  - 3\n",
            "specs/native_functions.yaml:4:5: 'flags' must list strings, not a number",
        ),
        (
            "- func: mm(Tensor self, Tensor mat2) -> Tensor\n  flags: DONT_PROFILE\n",
            "specs/native_functions.yaml:2:10: 'flags' must be a list of strings, not a string",
        ),
        (
            "- func: mm(Tensor self, Tensor mat2) -> Tensor\n  variants: function, metod\n",
            "specs/native_functions.yaml:2:23: unknown variant 'metod'; expected function or method",
        ),
        (
            "- func: mm(Tensor self, Tensor mat2) -> Tensor\n  manual_cpp_binding: yes please\n",
            "specs/native_functions.yaml:2:23: 'manual_cpp_binding' must be True or False, not a string",
        ),
        (
            "- func: mm(Tensor self, Tensor mat2) -> Tensor\n  dispatch:\n    CPU: mm\n    CUDA, CPU: mm2\n",
            "specs/native_functions.yaml:4:5: dispatch key 'CPU' is listed twice",
        ),
        (
            "- func: mm(Tensor self, Tensor mat2) -> Tensor\n\n- func: mm(Tensor self, Tensor other) -> Tensor\n",
            "specs/native_functions.yaml:3:9: duplicate declaration of 'mm' (first declared at line 1)",
        ),
        (
            "# ops\n- func: mm(Tensor self, Tensr mat2) -> Tensor\n",
            "specs/native_functions.yaml:2:25: unknown type 'Tensr'",
        ),
        (
            "- func: 'mm(Tensor self, Tensor class) -> Tensor'\n",
            "specs/native_functions.yaml:1:33: 'class' is not a valid C++ identifier",
        ),
        (
            "- func: mm(Tensor self, Tensor mat2)\n",
            "specs/native_functions.yaml:1:37: missing ' -> ' and the return type after the argument list",
        ),
        (
            "- variants: function\n",
            "specs/native_functions.yaml:1:3: a declaration needs a 'func:' key with the op's schema",
        ),
        ("- func: [mm]\n", "specs/native_functions.yaml:1:9: 'func' must be a schema string, not a list"),
        (
            "\n\nfunc: mm(Tensor self) -> Tensor\n",
            "specs/native_functions.yaml:3:1: expected a list of declarations ('- func: ...'), not a mapping",
        ),
        (
            "- func: mm(Tensor self) -> Tensor\n- just a string\n",
            "specs/native_functions.yaml:2:3: expected a declaration (a mapping with 'func:'), not a string",
        ),
        (
            "# nothing\n",
            "specs/native_functions.yaml:1: expected a list of declarations ('- func: ...'), but the file is empty",
        ),
        (
            "- func: mm(Tensor self) -> Tensor\n  variants: [function\n",
            "specs/native_functions.yaml:3:1: did not find expected ',' or ']' "
            "(while parsing a flow sequence at line 2)",
        ),
        (
            "- func: mm(Tensor self) -> Tensor\n  structured_delegate: mm-out\n",
            "specs/native_functions.yaml:2:24: 'mm-out' is not a valid operator name",
        ),
    ],
)
def test_declaration_errors(write_yaml, text, message):
    assert _error(write_yaml, text) == message


def test_pytorch_native_functions_load_fast(pytorch_specs):
    start = time.perf_counter()
    functions = parse_native_functions(pytorch_specs / "native_functions.yaml", "pytorch/native_functions.yaml")
    elapsed = time.perf_counter() - start
    assert len(functions) == 2585
    assert all(isinstance(f, NativeFunction) for f in functions)
    add = next(f for f in functions if str(f.func.name) == "add.out")
    assert add.structured and add.structured_inherits == "TensorIteratorBase"
    assert ("SparseCPU", "add_out_sparse_cpu") in add.dispatch
    # Measured ~0.18 s on the development machine; the bound only catches gross regressions.
    assert elapsed < 2.0, f"loading PyTorch's native_functions.yaml took {elapsed:.2f} s"
