"""PyTorch's formula language made gradgen's C++ (tools/codegen/formula_env.py), and its checks."""

from __future__ import annotations

import pytest

from tools.codegen.formula_check import expression_problem
from tools.codegen.formula_env import MEMBERS, FormulaEnvironment, called_functions, header_function_names, to_cpp
from tools.codegen.gen_autograd import generate


@pytest.mark.parametrize(
    "pytorch, cpp",
    [
        ("grad.t()", "t(grad)"),
        ("grad.neg()", "neg(grad)"),
        ("grad.div(self.conj())", "div(grad, conj(self))"),
        ("grad * self.cos().conj()", "grad * conj(cos(self))"),
        ("grad * -self.sin().conj()", "grad * -conj(sin(self))"),
        ("self.transpose(1, 2).conj().bmm(grad)", "bmm(conj(transpose(self, 1, 2)), grad)"),
        ("grad.bmm(mat2.transpose(1, 2).conj())", "bmm(grad, conj(transpose(mat2, 1, 2)))"),
        ("-grad * (result * result).conj()", "-grad * conj((result * result))"),
        ("(a + b).sum_to_size(self.sym_sizes())", "sum_to_size((a + b), self.sym_sizes())"),
        ("f(x)[0].exp()", "exp(f(x)[0])"),
        ("grads[i].mul(2)", "mul(grads[i], 2)"),
        # Members stay members: accessors of Tensor, std::optional, containers and Scalar.
        ("grad.defined() ? grad.sum() : Tensor()", "grad.defined() ? sum(grad) : Tensor()"),
        ("self.sym_sizes()", "self.sym_sizes()"),
        ("train.has_value() && !train.value()", "train.has_value() && !train.value()"),
        ("tensors.size()", "tensors.size()"),
        ("alpha.toDouble()", "alpha.toDouble()"),
        ("bias->sym_sizes()", "bias->sym_sizes()"),
        # Scalars have methods too: `alpha.conj()` is conj(alpha).
        ("maybe_multiply(grad, alpha.conj())", "maybe_multiply(grad, conj(alpha))"),
        # at::, at::native:: and c10:: are dropped; other namespaces are not.
        ("at::mm(self_t, mat2_p) + at::mm(self_p, mat2_t)", "mm(self_t, mat2_p) + mm(self_p, mat2_t)"),
        ("at::Reduction::None", "Reduction::None"),
        ("c10::SymInt(1)", "SymInt(1)"),
        ("at::native::foo(x)", "foo(x)"),
        ("std::tuple<Tensor, Tensor>()", "std::tuple<Tensor, Tensor>()"),
        ("my::at::f(x)", "my::at::f(x)"),
        # Literals and numbers with dots are not method calls.
        ("grad * 0.5", "grad * 0.5"),
        ('f(grad, "a.b()")', 'f(grad, "a.b()")'),
        ("grad.to(self.scalar_type())", "to(grad, self.scalar_type())"),
        # A template argument list before the call is not followed: left as written.
        ("std::get<0>(t).exp()", "std::get<0>(t).exp()"),
    ],
)
def test_methods_become_free_calls(pytorch, cpp):
    assert to_cpp(pytorch) == cpp
    assert expression_problem(to_cpp(pytorch)) is None


def test_members_cover_the_saved_facts():
    """The accessors whose calls are saved as facts (`self.sym_sizes()` -> self_sym_sizes) must stay
    method calls, or the saved-value rewriting would not see them."""
    for name in ("sizes", "sym_sizes", "size", "sym_size", "numel", "sym_numel", "strides", "sym_strides"):
        assert name in MEMBERS
    for name in ("options", "layout", "scalar_type", "dim", "is_conj", "sym_blocksize"):
        assert name in MEMBERS


def test_called_functions():
    f = "GradMode::is_enabled() ? mm_mat1_backward(grad, std::max(a, b), x.sizes(), sizeof(int)) : t(g)"
    assert [n for n, _ in called_functions(f)] == ["mm_mat1_backward", "t"]
    assert called_functions("mm(a, b)") == [("mm", 0)]


def test_header_function_names():
    header = """
    // not_a_name(x) in a comment
    /* nor(this) */
    Tensor polyval_x_backward(const Tensor& grad,
                              const std::vector<Tensor>& coeffs);
    inline Tensor twice(const Tensor& t) { return helper(t) * 2; }
    using SymInt = int64_t;
    struct TensorOptions { int x; };
    """
    names = header_function_names(header)
    assert {"polyval_x_backward", "twice", "helper", "SymInt", "TensorOptions"} <= names
    assert "not_a_name" not in names and "nor" not in names and "return" not in names


def test_environment_finds_unknown_names_with_a_suggestion():
    env = FormulaEnvironment.of(["mm", "t", "mm_mat1_backward"])
    assert env.unknown("mm_mat1_backwrd(grad, t(mat2))") == [("mm_mat1_backwrd", 0)]
    assert env.suggestion("mm_mat1_backwrd") == " (did you mean 'mm_mat1_backward'?)"
    assert env.unknown(to_cpp("grad.t().mm(x)")) == []


def test_pytorch_formulas_all_rewrite_to_one_expression():
    """Every formula of PyTorch 2.14.1's derivatives.yaml becomes one C++ expression with no method
    call left but members'."""
    import re

    import yaml
    from conftest import pytorch_specs_dir

    path = pytorch_specs_dir() / "derivatives.yaml"
    if not path.is_file():
        pytest.skip(f"PyTorch's derivatives.yaml is not at {path}")
    with open(path, encoding="utf-8") as fh:
        entries = yaml.safe_load(fh)
    count = 0
    for entry in entries:
        sections = entry["dispatch"].values() if "dispatch" in entry else [entry]
        for section in sections:
            for key, formula in section.items():
                if key in ("name", "output_differentiability") or formula == "non_differentiable":
                    continue
                cpp = to_cpp(str(formula))
                assert expression_problem(cpp) is None, (formula, cpp)
                left = {m.group(1) for m in re.finditer(r"\.(\w+)\(", cpp)} - MEMBERS
                assert not left, (formula, cpp)
                count += 1
    assert count > 1000


@pytest.fixture
def specs(write_yaml):
    def write(native: str, derivs: str):
        return str(write_yaml(native)), str(write_yaml(derivs, "derivatives.yaml"))

    return write


def test_auto_element_wise_replaces_adjacent_uses(specs):
    """`grad * self * self`: every use of self becomes the primal self_p (printed `self` in the
    wrapper). One regex pass used to miss the second of two adjacent uses, and the bare `self` left
    behind was refused as ambiguous."""
    nf, d = specs(
        native="- func: cube(Tensor self) -> Tensor\n",
        derivs="- name: cube(Tensor self) -> Tensor\n  self: grad*self*self*3\n  result: auto_element_wise\n",
    )
    vt = generate(nf, d)["VariableType.cpp"]
    assert 'set_fw_grad(result, self_t*self*self*3, "cube")' in vt


def test_method_formula_generates_free_calls_and_keeps_the_text_as_comment(specs):
    nf, d = specs(
        native="- func: foo(Tensor self, Tensor other) -> Tensor\n",
        derivs=(
            "- name: foo(Tensor self, Tensor other) -> Tensor\n"
            "  self: grad.mul(other.conj())\n"
            "  other: at::mul(grad, self).neg()\n"
            "  result: self_t.mul(other_p) + other_t.mul(self_p)\n"
        ),
    )
    out = generate(nf, d)
    cpp = out["Functions.cpp"]
    assert "// self: grad.mul(other.conj())" in cpp
    assert "(mul(grad, conj(other)))" in cpp
    assert "(neg(mul(grad, self)))" in cpp
    assert 'set_fw_grad(result, mul(self_t, other) + mul(other_t, self), "foo")' in out["VariableType.cpp"]


def test_unknown_function_is_a_spec_error_at_its_formula(specs, write_yaml):
    header = write_yaml("Tensor mul(const Tensor& a, const Tensor& b);\nTensor twice(const Tensor& t);\n", "env.h")
    nf, d = specs(
        native="- func: foo(Tensor self) -> Tensor\n",
        derivs="- name: foo(Tensor self) -> Tensor\n  self: twice(grad.mul(self)) + twise(grad)\n",
    )
    from tools.codegen.errors import SpecError

    with pytest.raises(SpecError) as e:
        generate(nf, d, derivatives_name="d.yaml", environment_headers=[str(header)])
    assert str(e.value).startswith(
        "d.yaml:2:9: the formula for self of foo calls 'twise', which the formula environment does not "
        "define (did you mean 'twice'?)"
    )
    # The spec's own ops, the headers' functions, the names given and C++'s casts are all callable.
    ok = "- name: foo(Tensor self) -> Tensor\n  self: twice(foo(grad.mul(self))) * double(1) + extra(grad)\n"
    nf, d = specs(native="- func: foo(Tensor self) -> Tensor\n", derivs=ok)
    generate(nf, d, environment_headers=[str(header)], environment_functions=["extra"])
    # Without an environment (generate() called directly, PyTorch's own specs) nothing is checked.
    nf, d = specs(native="- func: foo(Tensor self) -> Tensor\n", derivs=ok.replace("twice(", "twise("))
    generate(nf, d)
