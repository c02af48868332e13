"""Issue 12: adversarial specs and command lines get one line `file:line[:col]: message` (or, for a
bad command line, one `gen_autograd: ...` line), never a traceback, a hang or broken output."""

from __future__ import annotations

import os
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
    # A usage error like the one above (it was exit 1, a message without file:line).
    nf, d = specs()
    (tmp_path / "f").write_text("x")
    out_dir = tmp_path / "f" / "a" / "out"
    code, out, err = _run(f"--native_functions={nf}", f"--derivatives={d}", f"--out_dir={out_dir}")
    assert (code, err.splitlines()) == (
        2,
        [f"gen_autograd: --out_dir={out_dir} is below {tmp_path / 'f'}, which is not a directory"],
    )


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


# The Python bindings and the wrappers in second processes (Note [Python bindings in a second
# process]): the same files as in one process; a spec error stops the child and leaves no process
# behind.
SPECS = TREE / "specs"


@pytest.mark.parametrize("shards, namespace", [(3, "gradgen"), (1, "my::ns"), (0, "gradgen")])
def test_second_processes_make_the_same_files(shards, namespace):
    args = (str(SPECS / "native_functions.yaml"), str(SPECS / "derivatives.yaml"))
    kwargs = dict(native_functions_name="nf.yaml", derivatives_name="d.yaml", shards=shards, namespace=namespace)
    assert generate(*args, parallel=True, **kwargs) == generate(*args, parallel=False, **kwargs)


def test_a_spec_error_stops_the_second_process(specs):
    nf, d = specs(derivs=MM_D + "  nope: grad\n")
    with pytest.raises(SpecError, match="nope"):
        generate(nf, d, parallel=True)
    with pytest.raises(ChildProcessError):  # no child left, not even a zombie
        os.waitpid(-1, os.WNOHANG)


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
        # C++'s alternative tokens are operators (`or` is `||`), and statement keywords are no operands
        # (the structured campaign of issue 28: each exited 0 with C++ that did not compile).
        ("mm(grad, or)", "d.yaml:2:18: expected an operand before 'or' (after ',')"),
        ("mm(grad, mat2 not)", "d.yaml:2:23: expected an operator or ',' between 'mat2' and 'not'"),
        ("mm(grad, throw)", "d.yaml:2:18: 'throw' is a C++ keyword that cannot stand in an expression"),
        ("return mm(grad, mat2)", "d.yaml:2:9: 'return' is a C++ keyword that cannot stand in an expression"),
        (
            "mm(grad, x ? mat2 :delete mat2)",
            "d.yaml:2:28: 'delete' is a C++ keyword that cannot stand in an expression",
        ),
    ],
)
def test_formula_must_be_one_expression(specs, formula, message):
    assert _error(specs, derivs=f"{MM_ENTRY}  self: {formula}\n") == message


def test_alternative_tokens_are_operators(specs):
    nf, d = specs(derivs=f"{MM_ENTRY}  self: mm(grad, mat2) * (true and not false)\n  mat2: mm(self, grad)\n")
    assert "(true and not false)" in generate(nf, d)["Functions.cpp"]


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


# ---------------------------------------------------------------------------------------------
# Issue 28: exit 0 means the C++ compiles (each class a campaign found; fuzz_test compiles them)
# ---------------------------------------------------------------------------------------------

F2 = "- func: f(Tensor self, Tensor other) -> Tensor\n"
F2_ENTRY = "- name: f(Tensor self, Tensor other) -> Tensor\n"


@pytest.mark.parametrize(
    "formulas, message",
    [
        (
            "  self: grad\n  other: grad\n  result: mul(grad, other_p)\n",
            "d.yaml:4:11: the forward formula for result of f uses 'grad', which only a backward formula has; "
            "a forward formula reads the inputs' tangents (<input>_t) and values (<input>_p)",
        ),
        (
            "  self: grad\n  other: grad\n  result: mul(self_t, grads[0])\n",
            "d.yaml:4:11: the forward formula for result of f uses 'grads', which only a backward formula has; "
            "a forward formula reads the inputs' tangents (<input>_t) and values (<input>_p)",
        ),
        (
            "  self: grad\n  result: add(self_t, other_t)\n",
            "d.yaml:3:11: the forward formula for result of f reads 'other_t', but 'other' has no backward formula "
            "(or is non_differentiable), so it has no tangent; write 'other' for its value, or give it a backward "
            "formula",
        ),
        (
            "  self: grad\n  other: non_differentiable\n  result: mul(self_t, other_p)\n",
            "d.yaml:4:11: the forward formula for result of f reads 'other_p', but 'other' has no backward formula "
            "(or is non_differentiable), so it has no primal; write 'other' for its value, or give it a backward "
            "formula",
        ),
    ],
)
def test_forward_formulas_read_only_what_the_wrapper_has(specs, formulas, message):
    assert _error(specs, F2, F2_ENTRY + formulas) == message


@pytest.mark.parametrize(
    "schema, formulas, message",
    [
        # A value argument has no tangent or primal local (found by the structured campaign of issue 28).
        (
            "f(Tensor self, int n) -> Tensor",
            "  self: grad\n  result: mul(self_t, n_p)\n",
            "d.yaml:3:11: the forward formula for result of f reads 'n_p', but 'n' is an int, not a tensor, so it "
            "has no primal; write 'n' for its value",
        ),
        (
            "f(Tensor self, float x) -> Tensor",
            "  self: grad\n  result: mul(x_t, 2)\n",
            "d.yaml:3:11: the forward formula for result of f reads 'x_t', but 'x' is a float, not a tensor, so it "
            "has no tangent; write 'x' for its value",
        ),
        # auto_linear applies the op to the tangents: with several returns that is not one tangent.
        (
            "f(Tensor self) -> (Tensor a, int b)",
            "  self: grad\n  a: auto_linear\n",
            "d.yaml:3:6: auto_linear for f needs an op with one return: f applied to the tangents gives all 2 of "
            "its returns, not the tangent of a; write the formula",
        ),
        (
            "f(Tensor self) -> (Tensor, Tensor)",
            "  self: grad\n  output_differentiability: [true, false]\n  result0: auto_linear\n",
            "d.yaml:4:12: auto_linear for f needs an op with one return: f applied to the tangents gives all 2 of "
            "its returns, not the tangent of result0; write the formula",
        ),
    ],
)
def test_forward_formulas_of_values_and_multi_return_ops(specs, schema, formulas, message):
    assert _error(specs, f"- func: {schema}\n", f"- name: {schema}\n{formulas}") == message


def test_a_value_argument_named_like_a_tangent_is_its_own_name(specs):
    schema = "f(Tensor self, int n, int n_t) -> Tensor"
    nf, d = specs(f"- func: {schema}\n", f"- name: {schema}\n  self: grad\n  result: mul(self_t, n_t)\n")
    assert "mul(self_t, n_t)" in generate(nf, d)["VariableType.cpp"]


def test_forward_formula_may_read_a_nondifferentiable_input_by_its_name(specs):
    nf, d = specs(F2, F2_ENTRY + "  self: grad\n  other: non_differentiable\n  result: mul(self_t, other)\n")
    assert "mul(self_t, other)" in generate(nf, d)["VariableType.cpp"]


@pytest.mark.parametrize(
    "schema, message",
    [
        (
            "f_(Tensor self) -> Tensor",
            "nf.yaml:1:9: in-place operator 'f_' (its name ends in '_') must write to its first argument 'self': "
            "declare it 'Tensor(a!) self'",
        ),
        (
            "f_(Tensor(a!) self, Tensor other) -> (Tensor(a!), Tensor)",
            "nf.yaml:1:9: in-place operator 'f_' must return self alone: '-> Tensor(a!)'",
        ),
        (
            "f_(Tensor(a!) self) -> Tensor",
            "nf.yaml:1:9: in-place operator 'f_' must return self alone: '-> Tensor(a!)'",
        ),
        (
            "f_(Tensor(a!)[] self) -> Tensor[]",
            "nf.yaml:1:9: in-place operator 'f_' with a self of type Tensor[] returns nothing: '-> ()'",
        ),
        (
            "f_(Tensor(a!)? self) -> ()",
            "nf.yaml:1:9: in-place operator 'f_' writes to 'self', which cannot be optional: declare it "
            "'Tensor(a!) self'",
        ),
        (
            "f(Tensor self) -> Tensor?",
            "nf.yaml:1:9: a return of type Tensor? is not supported: return a Tensor, a Tensor[] or a non-optional "
            "value",
        ),
        (
            "f(Tensor self) -> (Tensor a, Tensor?[] b)",
            "nf.yaml:1:9: a return of type Tensor?[] is not supported: return a Tensor, a Tensor[] or a non-optional "
            "value",
        ),
        (
            "f(Tensor self=False) -> Tensor",
            "nf.yaml:1:23: default 'False' of 'self' does not fit its type Tensor: a value of this type has no "
            "default but None (for its optional type)",
        ),
        (
            "f(Tensor self, int n=1.5) -> Tensor",
            "nf.yaml:1:30: default '1.5' of 'n' does not fit its type int: expected an integer",
        ),
        (
            'f(Tensor self, float x="a") -> Tensor',
            "nf.yaml:1:32: default '\"a\"' of 'x' does not fit its type float: expected a number",
        ),
        (
            "f(Tensor self, bool b=1) -> Tensor",
            "nf.yaml:1:31: default '1' of 'b' does not fit its type bool: expected True or False",
        ),
        (
            "f(Tensor self, str s=Mean) -> Tensor",
            "nf.yaml:1:30: default 'Mean' of 's' does not fit its type str: expected a string literal",
        ),
        (
            "f(Tensor self, int n=None) -> Tensor",
            "nf.yaml:1:30: default 'None' of 'n' does not fit its type int: None is the default of an optional type "
            "only (T?)",
        ),
        (
            "f(Tensor self, int[] d=[0,x]) -> Tensor",
            "nf.yaml:1:32: default '[0,x]' of 'd' does not fit its type int[]: expected an integer",
        ),
        (
            "f(Tensor self, ScalarType? t=half) -> Tensor",
            "nf.yaml:1:38: default 'half' of 't' does not fit its type ScalarType?: expected one of float, double, "
            "long, bool or None",
        ),
    ],
)
def test_declarations_the_wrapper_cannot_implement_are_errors(specs, schema, message):
    # A name ending in `_` without `Tensor(a!)` made the wrapper write through a `const Tensor&`
    # (and, with two returns, declare `self` twice); a `Tensor?` return had no tracer overload; a
    # default was pasted into C++ whatever its type.
    assert _error(specs, f"- func: {schema}\n", f"- name: {schema}\n  self: grad\n") == message


def test_every_default_pytorch_writes_fits_its_type(specs):
    decls = (
        "- func: f(Tensor self, ScalarType? dtype=long, MemoryFormat m=contiguous_format, "
        "MemoryFormat? p=preserve_format, int r=Mean, int[2] s=1, int[1] d=[-2,-1], float e=1e-05, "
        "Scalar a=0.5, str? q=None, str w='fro', bool? k=False) -> Tensor\n"
    )
    nf, d = specs(decls, decls.replace("func:", "name:") + "  self: grad\n")
    api = generate(nf, d)["VariableType.h"]
    assert "std::optional<ScalarType> dtype = ScalarType::Long" in api
    assert "std::optional<MemoryFormat> p = MemoryFormat::Preserve" in api


def test_reduction_default_outside_namespace_gradgen_names_the_enum(specs):
    decls = "- func: f(Tensor self, int reduction=Mean) -> Tensor\n"
    nf, d = specs(decls, decls.replace("func:", "name:") + "  self: grad\n")
    api = generate(nf, d, namespace="mylib")["VariableType.h"]
    # `Reduction` is a namespace holding an enum of that name: a using-declaration may name only the enum.
    assert "using ::gradgen::Reduction::Reduction;\n" in api
    assert "int64_t reduction = Reduction::Mean" in api


@pytest.mark.parametrize(
    "flag, shown",
    [
        ("--derivatives_name=a\nb.yaml", "--derivatives_name='a\\nb.yaml'"),
        ("--native_functions_name=x\r.yaml", "--native_functions_name='x\\r.yaml'"),
        ("--native_functions_name=x.yaml\\", "--native_functions_name='x.yaml\\\\'"),
    ],
)
def test_file_names_with_line_breaks_are_usage_errors(specs, tmp_path, flag, shown):
    # The name is in a `//` comment of every file and in each one-line error: a line break (or a
    # backslash ending the comment) broke both.
    nf, d = specs()
    code, out, err = _run(f"--native_functions={nf}", f"--derivatives={d}", f"--out_dir={tmp_path / 'out'}", flag)
    message = (
        f"gen_autograd: {shown} cannot be the name of a file in messages and generated comments: it has a "
        "control character (a line break, a tab, ...) or ends in a backslash"
    )
    assert (code, out, err.splitlines()) == (2, "", [message])
    assert not (tmp_path / "out").exists()


def test_formulas_for_an_op_returning_no_tensor_are_an_error(specs):
    # Found by fuzz_test's structured specs: the wrapper assigned the kernel's void to a tuple.
    decls = "- func: f(Tensor[] self, Scalar other) -> ()\n"
    assert _error(specs, decls, decls.replace("func:", "name:") + '  self: not_implemented("f")\n') == (
        "d.yaml:2:9: the entry for f has formulas, but f returns no Tensor, so no gradient reaches them; flag it "
        "DONT_REQUIRE_DERIVATIVE and drop the entry, or return a Tensor"
    )


def test_the_tracer_takes_only_the_results_it_can_record(specs):
    # Found by fuzz_test's structured specs: `-> int` and `-> (Tensor, int)` were handed to the
    # tracer, which records Tensors, Tensor[]s and tuples of Tensors only.
    decls = (
        "- func: n(Tensor self) -> int\n  flags: [DONT_REQUIRE_DERIVATIVE]\n"
        "- func: g(Tensor self) -> (Tensor a, int b)\n"
    )
    nf, d = specs(decls, "- name: g(Tensor self) -> (Tensor a, int b)\n  self: grad\n")
    api = generate(nf, d)["VariableType.cpp"]
    body_n = api[api.index("\nint64_t n(") :]
    body_g = api[api.index("\nstd::tuple<Tensor, int64_t> g(") :]
    for body in (body_n[: body_n.index("\n}\n")], body_g[: body_g.index("\n}\n")]):
        assert "trace_op.output" not in body and "tracer::TracedOp" not in body
