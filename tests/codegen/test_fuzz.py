"""Property-based fuzzing of the codegen (issue 12): mutated specs keep the README's promise.

Hypothesis builds small spec pairs (declarations + formulas) from pieces of valid specs and
mutates them with what broke the codegen before: YAML tags, odd keys, aliases, quotes,
backslashes, unbalanced brackets, line breaks, `resultN`, names of generated locals. For every
case, `generate()` either raises a SpecError whose text is one line `file:line[:col]: message`, or
returns C++ that compiles: Functions.cpp, VariableType.cpp and the Python bindings
(python_functions.cpp, against nanobind and Python's headers) go through `g++ -fsyntax-only`
against the runtime headers. The codegen checks a formula's form, not what its names mean (see
tools/codegen/formula_check.py), so a compiler error about a name or a type that a mutation made
up in a formula (`mul(grad, othr)`) is the compiler's to report and is accepted; any other error
(syntax, a broken comment or literal, a clash with generated code) fails the test.

The cases are fixed (derandomized) and few (40, about 25 s under Bazel), so the test is bounded
in time for CI; run with GRADGEN_FUZZ_EXAMPLES=2000 to search harder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path

import pytest
from conftest import REPO, TREE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.codegen.errors import SpecError
from tools.codegen.gen_autograd import generate

EXAMPLES = int(os.environ.get("GRADGEN_FUZZ_EXAMPLES", "40"))
GXX = shutil.which("g++")
# The runtime headers generated code includes (csrc/...), from the source tree.
HEADERS = REPO / "csrc" / "autograd" / "formulas.h"
# The Python bindings (python_functions.cpp) compile against nanobind (from the pinned wheel, in
# this test's runfiles: @gradgen_py_deps//:nanobind_headers) and the interpreter's headers.
_NANOBIND = TREE.parent / "gradgen_py_deps" / "site" / "nanobind"
_PYTHON_INCLUDE = Path(sysconfig.get_paths()["include"])
PYTHON_FLAGS = (
    [f"-I{_NANOBIND / 'include'}", f"-I{_NANOBIND / 'ext' / 'robin_map' / 'include'}", f"-I{_PYTHON_INCLUDE}"]
    if (_NANOBIND / "include" / "nanobind" / "nanobind.h").is_file() and (_PYTHON_INCLUDE / "Python.h").is_file()
    else None
)

# The ops csrc/ops.h and csrc/autograd/formulas.h call; declared without formulas.
SUPPORT = "".join(
    f"- func: {schema}\n  flags: [DONT_REQUIRE_DERIVATIVE]\n"
    for schema in [
        "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
        "sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "mul.Tensor(Tensor self, Tensor other) -> Tensor",
        "mul.Scalar(Tensor self, Scalar other) -> Tensor",
        "div.Tensor(Tensor self, Tensor other) -> Tensor",
        "div.Scalar(Tensor self, Scalar other) -> Tensor",
        "neg(Tensor self) -> Tensor",
        "reciprocal(Tensor self) -> Tensor",
        "mm(Tensor self, Tensor mat2) -> Tensor",
    ]
)

# Ops under test: (declaration lines, derivative entry lines). Each is valid as written.
SUBJECTS = [
    (
        "- func: f(Tensor self, Tensor other) -> Tensor\n  variants: function, method\n",
        "- name: f(Tensor self, Tensor other) -> Tensor\n  self: mul(grad, other)\n  other: mul(grad, self)\n",
    ),
    (
        "- func: g(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)\n  autogen: g.out\n",
        "- name: g(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)\n"
        "  self: mul(grad, values)\n  output_differentiability: [true, false]\n",
    ),
    (
        '- func: h(Tensor self, Tensor other, *, str mode="a", float eps=1e-5) -> Tensor\n',
        '- name: h(Tensor self, Tensor other, *, str mode="a", float eps=1e-5) -> Tensor\n'
        "  self: mul(grad, other)\n  other: wrap_opt_if(self, grad_input_mask[0])\n",
    ),
    (
        "- func: k(Tensor[] xs, Tensor y) -> Tensor\n",
        '- name: k(Tensor[] xs, Tensor y) -> Tensor\n  xs: not_implemented("k")\n  y: div(grad, result)\n',
    ),
]

# Pieces that broke the codegen before (issue 12), and pieces of valid specs.
TOKENS = [
    "~",
    "true",
    ".nan",
    "1",
    "!!float ",
    "!!bool ",
    "!!seq ",
    "!!map ",
    "!!int ",
    "!!timestamp ",
    "!!str ",
    "!!binary ",
    "&a ",
    "*a",
    "<<: *a",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ",",
    ":",
    ": ",
    "-",
    "\\",
    "\\\\",
    '"',
    "'",
    '\\"',
    "#",
    "//",
    "/*",
    ";",
    "|-\n    ",
    "\n",
    "\n  ",
    "  ",
    "result",
    "result1",
    "result7",
    "grad",
    "grads[1]",
    "grad_fn",
    "grad_input_mask[3]",
    "self",
    "other",
    "Tensor",
    "Tensor(a!)",
    "Tensor?",
    "int[2]",
    'str s="x\\"y"',
    "*, ",
    "->",
    "out",
    "values",
    "non_differentiable",
    "output_differentiability: [true]",
    "dispatch: {Default: {self: grad}}",
    "wrap_opt_if(self, grad_input_mask[1])",
    'not_implemented("x")',
    "grads[0]",
    "flags: [x]",
]


@st.composite
def specs(draw):
    """(declarations, derivatives): a few subjects, each then mutated a few times."""
    chosen = draw(st.lists(st.sampled_from(range(len(SUBJECTS))), min_size=1, max_size=3, unique=True))
    texts = ["".join(SUBJECTS[i][0] for i in chosen), "".join(SUBJECTS[i][1] for i in chosen)]
    for _ in range(draw(st.integers(0, 3))):
        which = draw(st.integers(0, 1))
        text = texts[which]
        pos = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "replace", "delete"]))
        if action == "delete":
            texts[which] = text[:pos] + text[pos + draw(st.integers(1, 8)) :]
        else:
            token = draw(st.sampled_from(TOKENS))
            cut = draw(st.integers(1, 8)) if action == "replace" else 0
            texts[which] = text[:pos] + token + text[pos + cut :]
    return SUPPORT + texts[0], texts[1]


_ONE_LINE_ERROR = re.compile(r"(nf|d)\.yaml:\d+(:\d+)?: [^\n]+")
# g++'s errors about what a formula's names and types mean (see the module docstring).
_MEANING_ERROR = re.compile(
    r"error: (‘[^’]*’ was not declared in this scope|no matching function for call to|cannot convert|"
    r"could not convert|invalid conversion|no match for|‘[^’]*’ has no member named|invalid operands|"
    r"request for member|‘[^’]*’ cannot be used as a function)"
)


def _syntax_errors(files: dict, work: Path) -> str:
    out = work / "csrc" / "generated"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name, text in files.items():
        (out / name).write_text(text)
    problems = []
    compiled = [("Functions.cpp", []), ("VariableType.cpp", [])]
    if PYTHON_FLAGS is not None:
        compiled.append(("python_functions.cpp", PYTHON_FLAGS))
    for name, flags in compiled:
        proc = subprocess.run(
            [GXX, "-std=c++17", "-fsyntax-only", f"-I{work}", f"-I{REPO}", *flags, str(out / name)],
            capture_output=True,
            text=True,
        )
        errors = [line for line in proc.stderr.splitlines() if " error: " in line]
        if proc.returncode and not (errors and all(_MEANING_ERROR.search(e) for e in errors)):
            problems.append(proc.stderr)
    return "\n".join(problems)


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same cases every run: CI results do not depend on luck
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(specs())
def test_every_spec_is_an_error_line_or_compiling_cpp(case):
    decls, derivs = case
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "nf.yaml").write_text(decls)
        (work / "d.yaml").write_text(derivs)
        try:
            files = generate(
                str(work / "nf.yaml"),
                str(work / "d.yaml"),
                native_functions_name="nf.yaml",
                derivatives_name="d.yaml",
            )
        except SpecError as e:
            assert _ONE_LINE_ERROR.fullmatch(str(e)), str(e)
            return
        errors = _syntax_errors(files, work)
        assert not errors, f"exit 0 with C++ that does not compile:\n{errors}"


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
def test_an_op_and_a_functional_variant_of_its_name_are_two_functions(tmp_path):
    # `foo_functional` is the functional variant of a mutable `foo` in PyTorch's naming, but a
    # spec may also declare `foo` itself with the same parameters: the C++ names must differ (they
    # were both `foo`, a redefinition), and the Python binding must call its own op.
    decls = SUPPORT + "- func: foo(Tensor self) -> Tensor\n- func: foo_functional(Tensor self) -> Tensor\n"
    derivs = (
        "- name: foo(Tensor self) -> Tensor\n  self: grad\n"
        "- name: foo_functional(Tensor self) -> Tensor\n  self: mul(grad, 2)\n"
    )
    (tmp_path / "nf.yaml").write_text(decls)
    (tmp_path / "d.yaml").write_text(derivs)
    files = generate(
        str(tmp_path / "nf.yaml"), str(tmp_path / "d.yaml"), native_functions_name="nf.yaml", derivatives_name="d.yaml"
    )
    api = files["VariableType.cpp"]
    assert api.count("\nTensor foo(const Tensor& self) {") == 1
    assert api.count("\nTensor foo_functional(const Tensor& self) {") == 1
    assert "::gradgen::foo_functional(" in files["python_functions.cpp"]
    assert not _syntax_errors(files, tmp_path)


@pytest.mark.skipif("TEST_SRCDIR" not in os.environ, reason="outside Bazel, nanobind may not be at hand")
def test_the_python_bindings_are_compiled_too():
    assert PYTHON_FLAGS is not None, f"nanobind's headers are not at {_NANOBIND} or Python's at {_PYTHON_INCLUDE}"
