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

A second, structured generator (issue 28) covers the regions of the spec language and of the
command line that mutations rarely reach: every argument kind with defaults of every type, the
return types (Tensor?, Tensor[], tuples with optionals), names ending in `_` with and without
`Tensor(a!)`, forward-mode keys whose formulas use `grad` or read tangents and primals of every
argument, every saved-value rewriting README lists, very wide declarations, and every flag of
gen_autograd (namespaces, include prefixes, file names with odd characters, shard counts,
--out_dir naming or below a file). Its formulas are well-typed by construction, so an accepted
spec must compile with no error at all. Each spec is run through gen_autograd's command line (in
process); an error drops the declaration it names and the rest runs again, so one compile checks
every declaration of a spec that is accepted.

Each structured declaration explores one hazard (a default, the returns, the backward or the
forward formulas, the in-place rules, width) and is valid elsewhere, so one error does not hide
another. Besides Hypothesis's draws, the same generator runs in rounds (class Rounds): the k-th
time a site is asked it takes its k-th option, so over the default ten rounds of 40 declarations
every option of every site is taken (test_the_rounds_reach_every_option checks it), and a region a
fix guards is reached in CI whatever the draws.

The cases are fixed (derandomized) and few, so the test is bounded in time for CI (about two
minutes on a loaded 2-core machine). A campaign: GRADGEN_FUZZ_LONG=1 (2,000 mutated and 400
structured specs, each of up to 12 declarations; see README "Reliability"), or set
GRADGEN_FUZZ_EXAMPLES / GRADGEN_FUZZ_STRUCTURED / GRADGEN_FUZZ_ROUNDS to the counts wanted.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest
from conftest import REPO, TREE
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from tools.codegen import gen_autograd
from tools.codegen.errors import SpecError
from tools.codegen.gen_autograd import generate

LONG = os.environ.get("GRADGEN_FUZZ_LONG", "") not in ("", "0")
EXAMPLES = int(os.environ.get("GRADGEN_FUZZ_EXAMPLES", "2000" if LONG else "15"))
STRUCTURED = int(os.environ.get("GRADGEN_FUZZ_STRUCTURED", "400" if LONG else "3"))
# Specs of the structured generator with its choices taken in turn (Rounds), in every run.
ROUNDS = int(os.environ.get("GRADGEN_FUZZ_ROUNDS", "10"))
GXX = shutil.which("g++")
# The runtime headers generated code includes (csrc/...), from the source tree.
HEADERS = REPO / "csrc" / "autograd" / "formulas.h"
# The Python bindings (python_functions.cpp) compile against nanobind (from the pinned wheel, in
# this test's runfiles: @gradgen_py_deps//:nanobind_headers) and the interpreter's headers.
_NANOBIND = TREE.parent / "gradgen_py_deps" / "site" / "nanobind"
if not _NANOBIND.is_dir() and "TEST_SRCDIR" not in os.environ:
    # Outside Bazel: the nanobind of the running interpreter, if it has one.
    try:
        import nanobind

        _NANOBIND = Path(nanobind.__file__).parent
    except ImportError:
        pass
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


# ---------------------------------------------------------------------------------------------
# The structured generator (issue 28): the regions of the spec language and of the flags
# ---------------------------------------------------------------------------------------------

TENSOR_TYPES = ["Tensor", "Tensor?", "Tensor[]", "Tensor?[]"]
VALUE_TYPES = [
    "int", "int?", "int[]", "int[2]", "SymInt", "SymInt[]", "float", "float?", "float[]", "bool", "bool?",
    "bool[3]", "str", "str?", "Scalar", "Scalar?", "ScalarType", "ScalarType?", "MemoryFormat?", "Layout?",
    "Generator?",
]  # fmt: skip
# Defaults of every type, tried against every type.
DEFAULTS = [
    "None", "True", "False", "0", "-1", "2", "1.5", "1e-05", "-0.5", "[]", "[0,1]", "[-2,-1]", "[True,False,True]",
    '"a"', "'b'", '"q\\"x"', "Mean", "Sum", "None_", "long", "float", "half", "contiguous_format",
    "preserve_format", "strided", "x", "inf",
]  # fmt: skip
# Defaults that fit each type (PyTorch's spellings), drawn as often as any default.
FITTING = {
    "int": ["0", "-1", "Mean", "Sum"], "int?": ["None", "0"], "int[]": ["[]", "[0,1]"], "int[2]": ["1", "[0,1]"],
    "SymInt": ["-1"], "SymInt[]": ["[]"], "float": ["1e-05", "0.5", "2"], "float?": ["None"], "float[]": ["[]"],
    "bool": ["True", "False"], "bool?": ["None", "False"], "bool[3]": ["[True,False,True]"], "str": ['"a"', "'fro'"],
    "str?": ["None"], "Scalar": ["1", "0.5"], "Scalar?": ["None"], "ScalarType": ["long"],
    "ScalarType?": ["None", "long"], "MemoryFormat?": ["None", "contiguous_format", "preserve_format"],
    "Layout?": ["None", "strided"], "Generator?": ["None"], "Tensor?": ["None"], "Tensor[]": ["[]"],
}  # fmt: skip
RETURNS = [
    "Tensor", "Tensor", "Tensor?", "Tensor[]", "(Tensor, Tensor)", "(Tensor a, Tensor b)", "(Tensor a, Tensor? b)",
    "(Tensor?, Tensor)", "(Tensor, int)", "(Tensor[] a, Tensor b)", "Tensor?[]", "int", "bool", "float",
    "ScalarType", "()",
]  # fmt: skip
# The saved-value rewritings README lists ("Saved-value rewriting"), over a Tensor `{x}`, an
# optional Tensor `{o}` or a Tensor[] `{l}`.
REWRITINGS = {
    "x": [
        "{}.sizes()", "{}.sym_sizes()", "{}.size(0)", "{}.sym_size(-1)", "{}.strides()", "{}.sym_strides()",
        "{}.numel()", "{}.sym_numel()", "{}.scalar_type()", "{}.dim()", "{}.options()", "{}.layout()",
        "{}.is_conj()", "zeros_like({})", "TensorGeometry({})",
    ],
    "o": ["{}->sizes()", "{}->sym_sizes()"],
    "l": ["to_args_sizes({})", "to_args_sizes_symint({})", "to_args_scalartypes({})"],
}  # fmt: skip
# File names for --native_functions_name / --derivatives_name, odd ones included.
FILE_NAMES = ["{}.yaml", "specs/{}.yaml", "a b/{}.yaml", "x\n{}.yaml", "é/{}.yaml", "*/{}.yaml", "t\t{}.yaml", "{}\\",
              'q"\'/{}.yaml', "{}.yaml\r"]  # fmt: skip


def _kind(t: str) -> str:
    """ "x" Tensor, "o" Tensor?, "l" Tensor[], "" anything else (no gradient of its own)."""
    return {"Tensor": "x", "Tensor?": "o", "Tensor[]": "l"}.get(t, "")


def _output_names(returns: str):
    """The names formulas give the returns (`result`, `result0`, or the returns' own), with
    whether each is a Tensor."""
    parts = [] if returns == "()" else (returns[1:-1].split(", ") if returns.startswith("(") else [returns])
    out = []
    for i, r in enumerate(parts):
        ty, _, name = r.partition(" ")
        ty = ty.replace("(a!)", "")
        out.append((name or ("result" if len(parts) == 1 else f"result{i}"), ty))
    return out


class Draws:
    """The structured generator's choices, drawn by Hypothesis (which draws small numbers first)."""

    def __init__(self, draw):
        self._draw = draw

    def pick(self, site: str, options: Sequence):
        return self._draw(st.sampled_from(options))

    def number(self, site: str, lo: int, hi: int) -> int:
        return self._draw(st.integers(lo, hi))


class Rounds:
    """The structured generator's choices made in turn: the k-th time a site is asked, it gives
    its k-th option (modulo their number). Over a few specs every option of every site is taken,
    which Hypothesis's draws leave to luck: a region a fix guards is reached in the default run
    whatever the draws (test_the_rounds_reach_every_option checks it)."""

    def __init__(self):
        self.asked: Dict[str, int] = collections.Counter()
        self.reached: Dict[str, set] = collections.defaultdict(set)
        self.sizes: Dict[str, int] = {}

    def pick(self, site: str, options: Sequence):
        k = self.asked[site] % len(options)
        self.asked[site] += 1
        self.sizes[site] = len(options)
        self.reached[site].add(k)
        return options[k]

    def number(self, site: str, lo: int, hi: int) -> int:
        return self.pick(site, range(lo, hi + 1))


# Formulas that must be an error (not one C++ expression, or a keyword where an operand goes).
NOT_FORMULAS = ["mul(grad, or)", "mul(grad, throw)", "return grad", "mul(grad, not)", "grad bitand"]
# Forward formulas of the first output, over inputs {x} and {y} (of any kind: a value argument has
# no tangent or primal), `grad` (which a forward formula does not have), and PyTorch's auto_linear
# / auto_element_wise (which need one return).
FORWARD = [
    "{x}_t", "mul({x}_t, {y}_p)", "mul({x}_t, {y})", "mul({x}_t, 2)", "mul(grad, 2)", "grads[0]",
    "mul({x}_t, grad_input_mask[0])", "auto_linear", "auto_element_wise", "mul({x}_t, true and not false)",
]  # fmt: skip


# What one declaration explores: the regions where a spec may be wrong. Each declaration takes
# one, and is valid everywhere else, so that one error does not hide another: an error drops the
# whole declaration, and the region it explored would go unchecked.
HAZARDS = ["none", "default", "returns", "backward", "forward", "in-place", "wide"]
VALID_RETURNS = [r for r in RETURNS if "?" not in r]
SELF_TYPES = {
    "self type": ["Tensor"] * 6 + TENSOR_TYPES + VALUE_TYPES,
    "in-place self type": TENSOR_TYPES + VALUE_TYPES,
    # (A Tensor self, so that a primal read bare is a Tensor; Tensor? arguments follow it.)
    "forward self type": ["Tensor"],
}


def declaration(c, i: int):
    """One op `op<i>`: (its declaration, its derivatives entry), chosen by `c` (Draws or Rounds)
    across the regions above."""
    hazard = c.pick("hazard", HAZARDS)
    name = f"op{i}" + ("_" if hazard == "in-place" else "")
    if hazard == "wide":
        # Very wide declarations: past the Python binding's limit (python.MAX_PARAMETERS).
        args = [(f"a{k}", "Tensor", None) for k in range(c.pick("width", [270, 480]))]
    else:
        # (An in-place op's self has a site of its own, so every type meets the in-place rules.)
        # (A forward formula explores a self with a backward formula: its tangent then exists.)
        site = {"in-place": "in-place self type", "forward": "forward self type"}.get(hazard, "self type")
        args = [("self", c.pick(site, SELF_TYPES[site]), None)]
        for k in range(c.number("arguments", 0, 3)):
            t = c.pick("type", TENSOR_TYPES * 3 + VALUE_TYPES)
            default = None
            if hazard == "default" and c.number("any default?", 0, 1):
                default = c.pick("default", DEFAULTS)  # defaults of every type, against every type
            elif t in FITTING and c.number("default?", 0, 1):
                default = c.pick(f"fitting {t}", FITTING[t])
            args.append((["other", "a2", "a3"][k], t, default))
    annotate = hazard == "in-place" and c.number("annotate", 0, 3) > 0
    star = len(args) > 1 and hazard != "wide" and c.number("star", 0, 3) == 0
    texts = []
    for k, (n, t, default) in enumerate(args):
        shown = "Tensor(a!)" + t[6:] if annotate and n == "self" and t.startswith("Tensor") else t
        star_text = "*, " if star and k == len(args) - 1 else ""
        texts.append(star_text + f"{shown} {n}" + (f"={default}" if default else ""))
    if annotate and c.number("returns self", 0, 3) > 0:
        returns = "Tensor(a!)" if args[0][1] == "Tensor" else "()"
    elif hazard == "wide":
        returns = "Tensor"
    else:
        returns = c.pick("returns", RETURNS) if hazard == "returns" else c.pick("valid returns", VALID_RETURNS)
    schema = f"{name}({', '.join(texts)}) -> {returns}"
    outputs = _output_names(returns)
    lines = [f"- name: {schema}"] + _backward_lines(c, args[:1] if hazard == "wide" else args, outputs, hazard)
    if outputs and outputs[0][1] == "Tensor" and hazard == "forward":
        # Forward mode: the first output's tangent, from tangents and primals of the Tensor and
        # Tensor? arguments (with a backward formula or not) and of value arguments (which have
        # none), with one return or several (auto_linear's op then returns them all).
        x, y = _forward_operand(c, "tangent of", args), _forward_operand(c, "primal of", args, kinds="x")
        site = "forward, one return" if len(outputs) == 1 else "forward, several returns"
        lines.append(f"  {outputs[0][0]}: {c.pick(site, FORWARD).format(x=x, y=y)}")
    return f"- func: {schema}\n", "".join(line + "\n" for line in lines)


def _forward_operand(c, site: str, args, kinds: str = "xo") -> str:
    """An argument a forward formula reads: a Tensor (or, for a tangent, Tensor?) one, or (its
    own site, so that it is reached whatever the other draws) a value argument, which has no
    tangent or primal. (A Tensor? read bare is a std::optional, which `mul` does not take.)"""
    tensors = [n for n, t, _ in args if _kind(t) and _kind(t) in kinds] or ["self"]
    values = [n for n, t, _ in args if not t.startswith("Tensor")]
    if values and c.pick(f"{site}: kind", ["tensor", "value"]) == "value":
        return c.pick(f"{site}: value", values)
    return c.pick(site, tensors)


def _backward_lines(c, args, outputs, hazard: str) -> List[str]:
    """The entry's backward formulas, one per argument with a gradient of its own (or none)."""
    grad_ok = bool(outputs) and outputs[0][1] == "Tensor"
    tensors = [n for n, t, _ in args if _kind(t) == "x"]
    saveable = [(n, _kind(t)) for n, t, _ in args if _kind(t)] + [(n, "x") for n, t in outputs if t == "Tensor"]
    lines = []
    for n, t, _ in args:
        kind = _kind(t)
        if not kind and t != "Tensor?[]":
            continue
        choice = c.number("backward", 0, 6 if hazard == "backward" else 5)
        choice = 3 if hazard == "forward" and n == "self" else choice
        if choice == 0:
            continue
        if choice == 1 or t == "Tensor?[]":
            lines.append(f"  {n}: non_differentiable")
            continue
        formula = f'not_implemented("{n}")'
        if choice == 6:
            formula = c.pick("not a formula", NOT_FORMULAS)
        elif grad_ok and kind in "xo" and choice == 3:
            factors = tensors + [o for o, ty in outputs if ty == "Tensor"]
            formula = c.pick("factor", ["grad"] + [f"mul(grad, {y})" for y in factors])
        elif grad_ok and kind in "xo" and choice >= 4:
            y, ykind = c.pick("saved", saveable)
            formula = (
                f"mul(grad, static_cast<double>(sizeof({c.pick(f'rewriting {ykind}', REWRITINGS[ykind]).format(y)})))"
            )
        elif grad_ok and kind == "l" and choice >= 3:
            sizes = c.pick("list sizes", ["to_args_sizes", "to_args_sizes_symint"])
            formula = f"cat_tensors_backward(grad, {sizes}({n}), to_args_scalartypes({n}), 0)"
        lines.append(f"  {n}: {formula}")
    return lines


def structured_spec(c, count: Optional[int] = None):
    """(ops, flags): `count` declarations (else 4 to 12) with their entries, and the command line's
    options."""
    ops = [declaration(c, i) for i in range(count or c.number("declarations", 4, 12))]
    namespace = c.pick("namespace", ["gradgen", "gradgen", "mylib", "a::b_c", "gradgen::ext"])
    prefix = "csrc/generated" if namespace == "gradgen" else c.pick("include prefix", ["my/gen", "x-y.z/+p", "lib"])
    flags = dict(
        namespace=namespace,
        include_prefix=prefix,
        native_functions_name=c.pick("nf name", FILE_NAMES).format("nf"),
        derivatives_name=c.pick("d name", FILE_NAMES).format("d"),
        shards=c.pick("shards", [1, 1, 1, 2, 0]),
        missing_derivative=c.pick("missing", ["error", "not_implemented"]),
        implicit_composite=c.pick("implicit", [False, True]),
        out_dir=c.pick("out dir", ["fresh", "fresh", "a file", "below a file"]),
    )
    return ops, flags


@st.composite
def structured_specs(draw):
    return structured_spec(Draws(draw))


# Declarations per round: a spec compiles once, whatever its size (an error drops the declaration it
# names and the codegen runs again, in process), so large specs reach many options per compile.
ROUND_SIZE = 40


@functools.lru_cache(maxsize=1)
def _rounds(n: int):
    """The first n specs of the structured generator taking its choices in turn, and its record
    (made once: every round's test reads its own spec from it)."""
    c = Rounds()
    return [structured_spec(c, ROUND_SIZE) for _ in range(n)], c


def _cli(args):
    """gen_autograd's command line, in process: (exit status, stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = gen_autograd._run_request(args)
    return code, err.getvalue()


def _compile_all(out: Path, work: Path) -> str:
    """Every .cpp file under `out` through g++ -fsyntax-only (two at a time): their errors."""
    files = sorted(out.rglob("*.cpp"))
    problems = []
    for k in range(0, len(files), 2):
        procs = []
        for f in files[k : k + 2]:
            flags = PYTHON_FLAGS if f.name.startswith("python_functions") else []
            if flags is None:
                continue
            cmd = [GXX, "-std=c++17", "-fsyntax-only", f"-I{work}", f"-I{REPO}", *flags, str(f)]
            procs.append(subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True))
        for proc in procs:
            _, stderr = proc.communicate()
            if proc.returncode:
                problems += [line for line in stderr.splitlines() if " error: " in line][:5] or [stderr]
    return "\n".join(problems)


def _owner(message: str, nf_name: str, d_name: str, spans) -> int:
    """The op whose lines the error `file:line[:col]: ...` points into, or -1."""
    for name, which in ((nf_name, 0), (d_name, 1)):
        m = re.match(re.escape(name) + r":(\d+)(:\d+)?: ", message)
        if m:
            line = int(m.group(1))
            for i, span in enumerate(spans):
                if span[which][0] <= line < span[which][1]:
                    return i
    return -1


def check_structured(ops, flags) -> dict:
    """Runs one structured spec (issue 28); returns counts {"cases", "compiled"}; raises
    AssertionError on an error that is not one line at a location, or accepted C++ that fails."""
    counts = {"cases": 0, "compiled": 0}
    ns = flags["namespace"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if ns != "gradgen":
            # A library in its own namespace builds on gradgen's API (csrc/generated), as users' do.
            (work / "s.yaml").write_text(SUPPORT)
            (work / "e.yaml").write_text("[]\n")
            base = generate(str(work / "s.yaml"), str(work / "e.yaml"))
            (work / "csrc" / "generated").mkdir(parents=True)
            for n, text in base.items():
                (work / "csrc" / "generated" / n).write_text(text)
        out = work / flags["include_prefix"]
        names = [flags["native_functions_name"], flags["derivatives_name"]]
        kind = flags["out_dir"]
        if kind != "fresh":
            # --out_dir naming a regular file, or below one: one usage line, exit 2.
            (work / "f").write_text("x")
            bad = work / "f" if kind == "a file" else work / "f" / "out"
            code, err = _cli([f"--native_functions={work}/nf.yaml", f"--derivatives={work}/d.yaml", f"--out_dir={bad}"])
            counts["cases"] += 1
            assert code == 2 and re.fullmatch(r"gen_autograd: [^\n]+\n", err), (kind, code, err)
        ops = list(ops)
        while ops:
            decls = (SUPPORT if ns == "gradgen" else "") + "".join(o[0] for o in ops)
            derivs = "".join(o[1] for o in ops) or "[]\n"
            (work / "nf.yaml").write_text(decls)
            (work / "d.yaml").write_text(derivs)
            # Each op's lines in both files: [start, end), 1-based.
            spans, nl, dl = [], decls.count("\n") - sum(o[0].count("\n") for o in ops) + 1, 1
            for o in ops:
                spans.append(((nl, nl + o[0].count("\n")), (dl, dl + o[1].count("\n"))))
                nl, dl = spans[-1][0][1], spans[-1][1][1]
            args = [
                f"--native_functions={work}/nf.yaml",
                f"--derivatives={work}/d.yaml",
                f"--native_functions_name={names[0]}",
                f"--derivatives_name={names[1]}",
                f"--out_dir={out}",
                f"--namespace={ns}",
                f"--include_prefix={flags['include_prefix']}",
                f"--shards={flags['shards']}",
                f"--missing_derivative={flags['missing_derivative']}",
                f"--{'' if flags['implicit_composite'] else 'no'}implicit_composite",
            ]
            code, err = _cli(args)
            counts["cases"] += 1
            if code == 2:
                # The only usage mistakes drawn are file names a comment cannot hold.
                assert re.fullmatch(r"gen_autograd: --(native_functions|derivatives)_name=[^\n]+\n", err), err
                assert not out.exists(), "a usage error wrote files"
                names = ["nf.yaml", "d.yaml"]
                continue
            if code == 1:
                assert err.count("\n") == 1 and err.endswith("\n"), f"not one line:\n{err}"
                i = _owner(err, names[0], names[1], spans)
                assert i >= 0, f"an error outside the drawn declarations, or without file:line: {err}"
                assert not out.exists(), "a failed run wrote files"
                del ops[i]
                continue
            assert code == 0 and err == "", (code, err)
            errors = _compile_all(out, work)
            counts["compiled"] += 1
            assert not errors, f"exit 0 with C++ that does not compile ({decls}\n{derivs}\n{flags}):\n{errors}"
            return counts
    return counts  # every declaration was an error


TOTALS = {"cases": 0, "compiled": 0}


def _op(schema: str, *formulas: str):
    return f"- func: {schema}\n", f"- name: {schema}\n" + "".join(f"  {f}\n" for f in formulas)


# The classes of issue 28, each an op that exited 0 with C++ that did not compile, in one spec run
# first (Phase.explicit): each op must now be an error line or compile, so the default run finds
# any of them again.
ISSUE_28 = (
    [
        _op("op0(Tensor self) -> Tensor", "self: grad", "result: mul(grad, 2)"),
        _op(
            "op1(Tensor self, Tensor other) -> Tensor",
            "self: grad",
            "other: non_differentiable",
            "result: mul(self_t, other_p)",
        ),
        _op("op2(Tensor self, Tensor other) -> Tensor", "self: grad", "result: add(self_t, other_t)"),
        _op("op3_(Tensor self) -> Tensor", "self: grad"),
        _op("op4_(Tensor self, Tensor other) -> (Tensor, Tensor)", "self: grads[0]", "other: grads[1]"),
        _op("op5(Tensor self) -> Tensor?", "self: grad"),
        _op("op6(Tensor self, Tensor other=False) -> Tensor", "self: grad"),
        _op("op7(Tensor self, int reduction=Mean) -> Tensor", "self: grad"),
        _op(
            "op8(Tensor[] tensors, int dim=0) -> Tensor",
            "tensors: cat_tensors_backward(grad, to_args_sizes(tensors), to_args_scalartypes(tensors), dim)",
        ),
        _op(f"op9({', '.join(f'Tensor a{k}' for k in range(480))}) -> Tensor", "a0: grad"),
        _op("op10(Tensor[] self, Scalar other) -> ()", 'self: not_implemented("op10")'),
        _op("op11(Tensor self) -> (Tensor a, int b)", "self: grad"),
        # Found by the structured campaign (issue 28, second round).
        _op("op12(Tensor self, Tensor other) -> Tensor", "self: mul(grad, or)", "other: return grad"),
        _op("op13(Tensor self) -> (Tensor a, int b)", "self: grad", "a: auto_linear"),
        _op("op14_(Tensor(a!)? self) -> ()", 'self: not_implemented("op14_")'),
        _op("op15(Tensor self, int n) -> Tensor", "self: grad", "result: mul(self_t, n_p)"),
    ],
    dict(
        namespace="mylib",
        include_prefix="lib",
        native_functions_name="x\nnf.yaml",
        derivatives_name="d.yaml",
        shards=1,
        missing_derivative="error",
        implicit_composite=False,
        out_dir="below a file",
    ),
)  # fmt: skip


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
@settings(
    max_examples=STRUCTURED,
    deadline=None,
    derandomize=True,
    database=None,
    # A case compiles for seconds: report the failing spec as drawn (it names its declarations).
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@example(ISSUE_28)
@given(structured_specs())
def test_every_structured_spec_is_an_error_line_or_compiles_cleanly(case):
    ops, flags = case
    for k, v in check_structured(ops, flags).items():
        TOTALS[k] += v
    if LONG:
        print(f"structured: {TOTALS['cases']} cases, {TOTALS['compiled']} compiled", file=sys.stderr)


# Sites whose options depend on the declaration drawn (its argument names): reached, not all.
_DYNAMIC_SITES = ("factor", "saved", "tangent of", "primal of", "tangent of: value", "primal of: value")


def test_the_rounds_reach_every_option():
    # Every option of every site of the structured generator is taken within the default run's
    # rounds (or the rounds would leave a region to luck, as Hypothesis's draws did).
    _, c = _rounds(ROUNDS)
    missed = {
        site: sorted(set(range(c.sizes[site])) - c.reached[site])
        for site in c.sizes
        if site not in _DYNAMIC_SITES and len(c.reached[site]) < c.sizes[site]
    }
    assert not missed, f"options not reached in {ROUNDS} rounds: {missed}"
    assert all(len(c.reached[site]) > 1 for site in _DYNAMIC_SITES), dict(c.reached)
    assert {"forward, several returns", "in-place self type", "tangent of: kind", "not a formula"} <= set(c.sizes)


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
@pytest.mark.parametrize("k", range(ROUNDS))
def test_every_round_is_an_error_line_or_compiles_cleanly(k):
    ops, flags = _rounds(ROUNDS)[0][k]
    for key, v in check_structured(ops, flags).items():
        TOTALS[key] += v


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


def _generate_op(tmp_path: Path, schema: str, formulas: str = "  self: grad\n", **flags):
    """generate() of SUPPORT plus one op declared by `schema` with the entry's `formulas`."""
    (tmp_path / "nf.yaml").write_text(SUPPORT + f"- func: {schema}\n")
    (tmp_path / "d.yaml").write_text(f"- name: {schema}\n" + formulas)
    return generate(str(tmp_path / "nf.yaml"), str(tmp_path / "d.yaml"), **flags)


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
def test_sizes_of_an_optional_tensor_are_saved_as_a_vector(tmp_path):
    # Found by a structured campaign: `o->sizes()` saved an optional IntArrayRef into the node's
    # std::optional<std::vector<int64_t>>, which does not convert.
    schema = "o(Tensor self, Tensor? w) -> Tensor"
    files = _generate_op(tmp_path, schema, "  self: mul(grad, static_cast<double>(sizeof(w->sizes())))\n")
    assert "w->sizes().vec()" in files["VariableType.cpp"]
    assert not _syntax_errors(files, tmp_path)


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
def test_an_in_place_op_on_a_list_returning_nothing_compiles(tmp_path):
    # Found by a 5,000-spec campaign: `op0_(Tensor(a!)[] self) -> ()` (the shape of PyTorch's
    # _foreach_add_) assigned the kernel's void to `std::tie()` and checked / rebased a TensorList
    # as one Tensor; then `Tensor(a!)?[] self`, a list of optional tensors.
    schemas = ["op0_(Tensor(a!)[] self, *, Layout? other=None) -> ()", "op1_(Tensor(a!)?[] self, Tensor[] other) -> ()"]
    (tmp_path / "nf.yaml").write_text(SUPPORT + "".join(f"- func: {s}\n" for s in schemas))
    (tmp_path / "d.yaml").write_text(
        f'- name: {schemas[0]}\n  self: not_implemented("self")\n'
        f'- name: {schemas[1]}\n  self: non_differentiable\n  other: not_implemented("other")\n'
    )
    files = generate(str(tmp_path / "nf.yaml"), str(tmp_path / "d.yaml"))
    assert "std::tie() =" not in files["VariableType.cpp"]
    assert not _syntax_errors(files, tmp_path)


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
def test_a_saved_tensor_geometry_compiles_in_another_namespace(tmp_path):
    # Found by the structured campaign: `TensorGeometry(a)` (a saved-value rewriting) declared a
    # `gradgen::TensorGeometry` member (it is gradgen::autograd's, in basic_ops.h, which the
    # header did not include) with no default constructor.
    schema = "op10(Tensor self, Tensor a) -> Tensor"
    formula = "  self: mul(grad, static_cast<double>(sizeof(TensorGeometry(a))))\n"
    files = _generate_op(tmp_path, schema, formula, namespace="mylib")
    assert '#include "csrc/autograd/basic_ops.h"' in files["Functions.h"]
    assert not _syntax_errors(files, tmp_path)


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
def test_a_list_default_of_bools_compiles_in_another_namespace(tmp_path):
    # Found by the structured campaign: `bool[3] m=[True,False,True]` was pasted as
    # `{True,False,True}`; outside namespace gradgen the header then declared `using
    # ::gradgen::False;` (a name the runtime does not have), and inside it `True` names nothing.
    # Each element is now spelled as a default of the element type, in C++ and in Python.
    schema = "op4(Tensor self, bool[3] m=[True,False,True], float[2] s=[1,2.5], int[] d=[-2,-1]) -> Tensor"
    files = _generate_op(tmp_path, schema, namespace="mylib")
    assert "m={true, false, true}" in files["VariableType.h"].replace(" = ", "=")
    assert "s={1.0, 2.5}" in files["VariableType.h"].replace(" = ", "=")
    assert "::False" not in "".join(files.values())
    assert (
        "nanobind::make_tuple(nanobind::bool_(true), nanobind::bool_(false), nanobind::bool_(true))"
        in (files["python_functions.cpp"])
    )
    assert not _syntax_errors(files, tmp_path)


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
def test_a_scalar_default_of_a_bool_list_is_repeated(tmp_path):
    # Found by the rounds campaign (300 rounds): `bool[3] m=False` was pasted as `false`, which no
    # std::array<bool, 3> converts from. A scalar default of a list means it in every position, as
    # `int[2] stride=1` means [1, 1]: each position spelled as a default of the element type.
    schema = "op5(Tensor self, bool[3] m=False, float[2] s=1, int[2]? k=3) -> Tensor"
    files = _generate_op(tmp_path, schema, namespace="mylib")
    header = files["VariableType.h"].replace(" = ", "=")
    assert "m={false, false, false}" in header and "s={1.0, 1.0}" in header and "k={3, 3}" in header
    assert not _syntax_errors(files, tmp_path)


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
@pytest.mark.skipif(not HEADERS.is_file(), reason=f"the runtime headers are not at {REPO}/csrc")
def test_a_reduction_default_of_none_names_the_enumerator(tmp_path):
    # Found by the rounds campaign (round 74): `int r=None_` was spelled Reduction::None_, which
    # the runtime's enum (as ATen's) does not have: it is Reduction::None.
    schema = "op6(Tensor self, int r=None_, int s=Sum) -> Tensor"
    files = _generate_op(tmp_path, schema, namespace="mylib")
    assert "r=Reduction::None," in files["VariableType.h"].replace(" = ", "=")
    assert not _syntax_errors(files, tmp_path)
