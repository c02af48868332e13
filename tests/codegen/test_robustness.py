"""Issue 12: adversarial specs and command lines get one line `file:line[:col]: message` (or, for a
bad command line, one `gen_autograd: ...` line), never a traceback, a hang or broken output."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import TREE

from tools.codegen.errors import SpecError
from tools.codegen.gen_autograd import generate

GEN = str(TREE / "tools/codegen/gen_autograd.py")
MM = "- func: mm(Tensor self, Tensor mat2) -> Tensor\n"
MM_D = "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  self: mm(grad, mat2)\n  mat2: mm(self, grad)\n"


@pytest.fixture
def specs(tmp_path):
    def write(decls: str = MM, derivs: str = MM_D):
        nf = tmp_path / "native_functions.yaml"
        d = tmp_path / "derivatives.yaml"
        nf.write_text(decls)
        d.write_text(derivs)
        return str(nf), str(d)

    return write


def _error(specs, decls=MM, derivs=MM_D) -> str:
    nf, d = specs(decls, derivs)
    with pytest.raises(SpecError) as e:
        generate(nf, d, native_functions_name="nf.yaml", derivatives_name="d.yaml")
    return str(e.value)


def _run(*args: str):
    proc = subprocess.run([sys.executable, GEN, *args], capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


# ---------------------------------------------------------------------------------------------
# Analysis and emission
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "formula, message",
    [
        (
            "self: wrap_opt_if(mat2, grad_input_mask[5])\n  mat2: grad",
            "d.yaml:2:9: wrap_opt_if reads grad_input_mask[5], but this formula is for 1 input (self)",
        ),
        (
            "self, mat2: f(grad, wrap_opt_if(mat2, grad_input_mask[2]), grad_input_mask)",
            "d.yaml:2:15: wrap_opt_if reads grad_input_mask[2], but this formula is for 2 inputs (self, mat2)",
        ),
    ],
)
def test_wrap_opt_if_mask_index_out_of_range(specs, formula, message):
    assert _error(specs, derivs=f"- name: mm(Tensor self, Tensor mat2) -> Tensor\n  {formula}\n") == message


@pytest.mark.parametrize("n", [2, 26, 27, 40])
def test_autogen_out_of_an_op_with_many_returns(specs, n):
    rets = "(" + ", ".join(["Tensor"] * n) + ")"
    decls = f"- func: f(Tensor self) -> {rets}\n  autogen: f.out\n"
    nf, d = specs(decls, f"- name: f(Tensor self) -> {rets}\n  self: grads[0] + grads[1]\n")
    files = generate(nf, d)
    api = files["VariableType.h"]
    assert "f_out(" in api
    # One out= argument per return, in alias sets a..z, then z26, z27, ...
    assert api.count("Tensor& out") == n
    assert f"out{n - 1}" in api and f"out{n}" not in api


# ---------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--shards=abc"], "gen_autograd: flag --shards=abc: invalid literal for int() with base 10: 'abc'"),
        (["--shards=5000"], "gen_autograd: flag --shards=5000: 5000 is not an integer in the range [0, 256]"),
        (["--no_such_flag"], "gen_autograd: Unknown command line flag 'no_such_flag'"),
        (
            ["--namespace=a::"],
            "gen_autograd: --namespace='a::' is not a C++ namespace name such as 'a::b': it has an empty component",
        ),
        (
            ["--namespace=::a"],
            "gen_autograd: --namespace='::a' is not a C++ namespace name such as 'a::b': it has an empty component",
        ),
        (
            ["--namespace=my::class"],
            "gen_autograd: --namespace='my::class' is not a C++ namespace name such as 'a::b': "
            "'class' is a C++ keyword",
        ),
        (
            ["--formula_namespace=::a::9"],
            "gen_autograd: --formula_namespace='::a::9' is not a C++ namespace name such as 'a::b': "
            "'9' is not a C++ identifier",
        ),
        (
            ['--include_prefix=a"b'],
            "gen_autograd: --include_prefix='a\"b' is not a relative include path such as 'csrc/generated' "
            "(letters, digits, '_', '.', '+', '-' and '/')",
        ),
        (
            ["--formula_header=/abs/h.h"],
            "gen_autograd: --formula_header='/abs/h.h' is not a relative include path such as 'csrc/generated' "
            "(letters, digits, '_', '.', '+', '-' and '/')",
        ),
    ],
)
def test_flag_errors_are_one_line_exit_2(specs, tmp_path, flags, message):
    nf, d = specs()
    code, out, err = _run(f"--native_functions={nf}", f"--derivatives={d}", f"--out_dir={tmp_path / 'out'}", *flags)
    assert (code, out, err.splitlines()) == (2, "", [message])
    assert not (tmp_path / "out").exists()


def test_out_dir_that_is_a_file(specs, tmp_path):
    nf, d = specs()
    (tmp_path / "f").write_text("x")
    code, out, err = _run(f"--native_functions={nf}", f"--derivatives={d}", f"--out_dir={tmp_path / 'f'}")
    assert (code, err.splitlines()) == (2, [f"gen_autograd: --out_dir={tmp_path / 'f'} exists and is not a directory"])


def test_out_dir_below_a_file(specs, tmp_path):
    nf, d = specs()
    (tmp_path / "f").write_text("x")
    code, out, err = _run(f"--native_functions={nf}", f"--derivatives={d}", f"--out_dir={tmp_path / 'f' / 'out'}")
    assert (code, err.splitlines()) == (1, [f"gen_autograd: cannot write {tmp_path / 'f' / 'out'}: Not a directory"])


def test_missing_input_file_has_a_line(specs, tmp_path):
    _, d = specs()
    code, out, err = _run(
        f"--native_functions={tmp_path / 'nope.yaml'}",
        "--native_functions_name=specs/nope.yaml",
        f"--derivatives={d}",
        f"--out_dir={tmp_path / 'out'}",
    )
    assert (code, err.splitlines()) == (1, ["specs/nope.yaml:1: cannot read file: No such file or directory"])


def test_many_shards_are_quick(specs, tmp_path):
    nf, d = specs()
    code, out, err = _run(
        f"--native_functions={nf}", f"--derivatives={d}", f"--out_dir={tmp_path / 'out'}", "--shards=256"
    )
    assert (code, err) == (0, "")
    # Most shards are empty; each still has its files, as the Bazel rule declares them.
    assert len(list((tmp_path / "out").iterdir())) == 5 + 4 * 256


# ---------------------------------------------------------------------------------------------
# Formula text: one C++ expression, or an error at its column
# ---------------------------------------------------------------------------------------------

MM_ENTRY = "- name: mm(Tensor self, Tensor mat2) -> Tensor\n"


@pytest.mark.parametrize(
    "formula, message",
    [
        ("mm(grad, mat2", "d.yaml:2:11: '(' is never closed; expected ')'"),
        ("mm(grad, mat2))", "d.yaml:2:23: ')' closes nothing"),
        ("mm(grad, mat2]", "d.yaml:2:22: ']' does not match the '(' it closes; expected ')'"),
        ("mm(grad, mat2) }", "d.yaml:2:24: '}' closes nothing"),
        ("mm(grad, {mat2)", "d.yaml:2:23: ')' does not match the '{' it closes; expected '}'"),
        ("mm(grad, mat2) \\", "d.yaml:2:24: a backslash outside a string literal"),
        ("'mm(grad, \"mat2)'", 'd.yaml:2:19: unterminated string literal (" without a closing " on its line)'),
        ('"mm(grad, \'mat2)"', "d.yaml:2:19: unterminated character literal (' without a closing ' on its line)"),
        (
            "mm(grad, mat2); return {}",
            "d.yaml:2:23: ';' ends the generated statement; a formula is one C++ expression (a ';' may only "
            "end a statement in a lambda's braces)",
        ),
        ("mm(grad, mat2) // note", "d.yaml:2:24: '//' comments out the rest of the generated line; use /* ... */"),
        ("mm(grad, mat2) /* note", "d.yaml:2:24: '/*' starts a comment that is never closed with '*/'"),
        ("mm(grad, mat2)#x", "d.yaml:2:23: '#' outside a string literal (a formula cannot hold preprocessor text)"),
        ("mm(grad, @mat2)", "d.yaml:2:18: '@' is not C++"),
        ("''", "d.yaml:2:10: a formula must be a C++ expression, not empty"),
        ("mm(grad, result1)", "d.yaml:2:9: formula reads 'result1', but the outputs of mm are called 'result'"),
        ("mm(grad, mat2~)", "d.yaml:2:22: expected an operator or ',' between 'mat2' and '~'"),
        ("mm(grad, )", "d.yaml:2:18: expected an operand before ')' (after ',')"),
        ("mm(grad mat2)", "d.yaml:2:17: expected an operator or ',' between 'grad' and 'mat2'"),
        ("mm(grad, mat2) *", "d.yaml:2:25: the formula ends where an operand is expected (after '*')"),
        ("mm(grad, mat2).", "d.yaml:2:23: expected a name after '.'"),
        ("mm(grad, x ? mat2)", "d.yaml:2:20: '?' without its ':'"),
        ("x ? mm(grad, mat2 :y)", "d.yaml:2:27: ':' without a '?' before it"),
        ("mm(grad, mat2 :y)", "d.yaml:2:23: ':' without a '?' before it"),
    ],
)
def test_formula_must_be_one_expression(specs, formula, message):
    assert _error(specs, derivs=f"{MM_ENTRY}  self: {formula}\n") == message


def test_formula_may_hold_lambdas_block_comments_and_literals(specs):
    formula = (
        "mm(grad, f(mat2, [](int i){return -i;}, /*mode=*/\"a;b//c\", ')', -1e-5, static_cast<int64_t>(2), "
        "std::vector<int64_t>{}, at::zeros({}, w.v()), x ? y : z, a->b, !c, {1, 2}, g()))"
    )
    nf, d = specs(derivs=f"{MM_ENTRY}  self: |-\n    {formula}\n")
    cpp = generate(nf, d)["Functions.cpp"]
    assert f"  // self: {formula}\n" in cpp
    # The code is the formula in gradgen's C++: `at::` dropped, the method call `w.v()` made a
    # free call (tools/codegen/formula_env.py); the literals, lambda and comment are untouched.
    code = formula.replace("at::zeros({}, w.v())", "zeros({}, v(w))")
    assert f"any_grad_defined ? ({code}) : Tensor();" in cpp


def test_output_differentiability_condition_is_checked(specs):
    derivs = f"{MM_ENTRY}  self: grad\n  output_differentiability: ['self.dim() > (0']\n"
    assert _error(specs, derivs=derivs) == "d.yaml:3:44: '(' is never closed; expected ')'"


def test_multi_line_formula_is_one_line_in_code_and_comment(specs):
    nf, d = specs(derivs=f"{MM_ENTRY}  self: |-\n    mm(grad,\n       mat2)\n  mat2: mm(self, grad)\n")
    cpp = generate(nf, d)["Functions.cpp"]
    assert "  // self: mm(grad, mat2)\n" in cpp
    assert "mm(grad,\n" not in cpp


@pytest.mark.parametrize(
    "decls, derivs, message",
    [
        (
            "- func: f(Tensor self, Tensor grad_fn) -> Tensor\n",
            "- name: f(Tensor self, Tensor grad_fn) -> Tensor\n  self: grad\n",
            "nf.yaml:1:3: the declaration of f has an argument named 'grad_fn', a name the generated wrapper uses "
            "for its own variable",
        ),
        (
            "- func: f(Tensor self) -> Tensor grad_fn\n",
            "- name: f(Tensor self) -> Tensor grad_fn\n  self: grad\n",
            "nf.yaml:1:3: the declaration of f has a return named 'grad_fn', a name the generated wrapper uses "
            "for its own variable",
        ),
        (
            "- func: f(Tensor self, Tensor grad) -> Tensor\n",
            "- name: f(Tensor self, Tensor grad) -> Tensor\n  self: grad\n",
            "d.yaml:2:9: the formula saves 'grad', a name the generated backward code uses for its own variables; "
            "rename the argument or return in the declaration",
        ),
        (
            "- func: f(Tensor self, Tensor[] grads) -> Tensor\n",
            "- name: f(Tensor self, Tensor[] grads) -> Tensor\n  self: g(grads)\n",
            "d.yaml:2:9: the formula saves 'grads', a name the generated backward code uses for its own variables; "
            "rename the argument or return in the declaration",
        ),
    ],
)
def test_names_the_generated_code_uses_are_reserved(specs, decls, derivs, message):
    assert _error(specs, decls, derivs) == message


def test_string_defaults_with_escapes_are_cpp_literals(specs):
    decls = '- func: f(Tensor self, str a="\\"\'\\\\", str b=\'it"s\') -> Tensor\n'
    nf, d = specs(decls, decls.replace("func:", "name:") + "  self: grad\n")
    api = generate(nf, d)["VariableType.h"]
    assert 'std::string_view a = "\\"\'\\\\", std::string_view b = "it\\"s")' in api
