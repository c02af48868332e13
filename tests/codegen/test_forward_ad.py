"""Forward mode in the analysis and the generated wrappers: what `forward_ad_of` decides for each
declaration (formula rewriting, in-place handling, ops that refuse tangents) and the C++ printed."""

from __future__ import annotations

import pytest

from tools.codegen.autograd_info import ForwardFormula, Tangent, forward_ad_of, match_infos, wrapper_kinds
from tools.codegen.errors import SpecError
from tools.codegen.gen_autograd import generate
from tools.codegen.load_derivatives import load_derivatives
from tools.codegen.load_native_functions import parse_native_functions

DECLS = """\
- func: mul.Tensor(Tensor self, Tensor other) -> Tensor
- func: mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
- func: mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
- func: exp(Tensor self) -> Tensor
- func: exp_(Tensor(a!) self) -> Tensor(a!)
- func: cat(Tensor[] tensors, int dim=0) -> Tensor
- func: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
- func: cumprod(Tensor self, int dim) -> Tensor
- func: maybe_mul(Tensor self, Tensor? weight=None) -> Tensor
- func: pair(Tensor self) -> (Tensor a, Tensor b)
- func: both(Tensor self) -> (Tensor a, Tensor b)
- func: argmax(Tensor self) -> Tensor
  flags: [DONT_REQUIRE_DERIVATIVE]
- func: cube(Tensor self) -> Tensor
- func: cube_(Tensor(a!) self) -> Tensor(a!)
- func: square_sum(Tensor self, Tensor other) -> Tensor
"""

DERIVS = """\
- name: mul.Tensor(Tensor self, Tensor other) -> Tensor
  self: grad * other
  other: grad * self
  result: other_t * self_p + self_t * other_p
- name: exp(Tensor self) -> Tensor
  self: grad * result
  result: auto_element_wise
- name: cat(Tensor[] tensors, int dim=0) -> Tensor
  tensors: cat_tensors_backward(grad, to_args_sizes(tensors), dim)
  result: cat(tensors_t, dim)
- name: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  self: value_selecting_reduction_backward(grad, dim, indices, self.sizes(), keepdim)
  values: gather_with_keepdimed_indices(self_t, dim, indices, keepdim)
  output_differentiability: [True, False]
- name: cumprod(Tensor self, int dim) -> Tensor
  self: cumprod_backward(grad, self, dim, result)
- name: maybe_mul(Tensor self, Tensor? weight=None) -> Tensor
  self: grad
  weight: grad * self
  result: maybe_mul_jvp(self_t, weight_t, self_p, weight_p)
- name: pair(Tensor self) -> (Tensor a, Tensor b)
  self: pair_backward(grads, self)
  a: self_t
- name: both(Tensor self) -> (Tensor a, Tensor b)
  self: both_backward(grads, self)
  a, b: both_jvp(self_t)
- name: cube(Tensor self) -> Tensor
  self: 3*grad*self*self
  result: auto_element_wise
- name: square_sum(Tensor self, Tensor other) -> Tensor
  self: 2*grad*self
  other: 2*grad*other
  result: 2*self_t*self_p+2*other_t*other_p*other_p/other_p+self_p.sizes().size()*0+other_p.self_p
"""


@pytest.fixture
def plans(tmp_path):
    nf = tmp_path / "native_functions.yaml"
    d = tmp_path / "derivatives.yaml"
    nf.write_text(DECLS)
    d.write_text(DERIVS)
    functions = parse_native_functions(str(nf))
    matched = match_infos(functions, load_derivatives(str(d), functions))
    kinds = wrapper_kinds(functions, matched, "error", False)
    return {str(f.func.name): forward_ad_of(f, matched[str(f.func)], k) for f, k in zip(functions, kinds)}


def test_out_of_place_formulas_read_primals_as_the_inputs(plans):
    mul = plans["mul.Tensor"]
    assert mul.kind == "formulas" and mul.inputs == ("self", "other") and not mul.inplace
    assert mul.tangents == (Tangent("self", "tensor"), Tangent("other", "tensor"))
    assert mul.formulas == (ForwardFormula("result", False, "other_t * self + self_t * other", mul.formulas[0].loc),)
    assert not mul.needs_original_self
    # auto_element_wise: the backward formula with grad -> self_t (no conj: gradgen is real).
    assert plans["exp"].formulas[0].formula == "self_t * result"


def test_in_place_variants_keep_self_and_write_the_tangent_into_it(plans):
    mul_ = plans["mul_.Tensor"]
    assert mul_.inplace and mul_.needs_original_self
    assert mul_.formulas[0].output == "self"
    assert mul_.formulas[0].formula == "other_t * original_self_p + self_t * other"
    # exp_'s formula reads the result, which is self after the kernel: no copy of self needed.
    exp_ = plans["exp_"]
    assert exp_.inplace and not exp_.needs_original_self
    assert exp_.formulas[0].formula == "self_t * self"


def test_lists_optionals_and_named_outputs(plans):
    assert plans["cat"].tangents == (Tangent("tensors", "list"),)
    assert plans["maybe_mul"].tangents == (Tangent("self", "tensor"), Tangent("weight", "optional"))
    assert plans["maybe_mul"].formulas[0].formula == "maybe_mul_jvp(self_t, weight_t, self, weight)"
    (values,) = plans["max.dim"].formulas  # indices is not differentiable
    assert (
        values.output == "values" and values.formula == "gather_with_keepdimed_indices(self_t, dim, indices, keepdim)"
    )


def test_adjacent_uses_are_all_renamed_and_members_are_not(plans):
    # `grad*self*self`: each use is renamed, the second and third too (a single pass of PyTorch's
    # IDENT_REGEX, which consumes the characters around a match, renames only the first `self`).
    assert plans["cube"].formulas[0].formula == "3*self_t*self*self"
    cube_ = plans["cube_"]
    assert cube_.needs_original_self
    assert cube_.formulas[0].formula == "3*self_t*original_self_p*original_self_p"
    # Primals become the inputs wherever they are free names; a member `x.self_p` keeps its name.
    assert plans["square_sum"].formulas[0].formula == (
        "2*self_t*self+2*other_t*other*other/other+self.sizes().size()*0+other.self_p"
    )


def test_ops_that_refuse_tangents(plans):
    assert (plans["cumprod"].kind, plans["cumprod"].reason) == (
        "not_implemented",
        "its derivatives.yaml entry has no forward formula",
    )
    # A formula for some differentiable outputs only: refused, never a partial tangent.
    assert plans["pair"].kind == "not_implemented"
    assert plans["pair"].reason == "its derivatives.yaml entry has no forward formula for b"
    assert plans["both"].reason.startswith("its forward formula defines several outputs at once (a, b)")
    assert (plans["mul.out"].kind, plans["mul.out"].inputs) == ("not_implemented", ("self", "other", "out"))
    assert plans["argmax"].kind == "none"


def test_generated_wrappers(tmp_path):
    nf = tmp_path / "native_functions.yaml"
    d = tmp_path / "derivatives.yaml"
    nf.write_text(DECLS)
    d.write_text(DERIVS)
    cpp = generate(str(nf), str(d), native_functions_name="n.yaml", derivatives_name="d.yaml")["VariableType.cpp"]
    mul_ = cpp[cpp.index("Tensor& mul_(") :]
    mul_ = mul_[: mul_.index("\n}\n")]
    before, after = mul_.split("native::mul_(self, other);")
    assert "const bool fw_grad_defined = forward_ad::any_fw_grad(self, other);" in before
    assert "const Tensor original_self_p = fw_grad_defined ? self.detach().clone() : Tensor();" in before
    assert (
        "  if (fw_grad_defined) {\n"
        "    forward_ad::FormulaGuard formula_guard;\n"
        "    Tensor self_t = forward_ad::tangent_or_zeros(self);\n"
        "    Tensor other_t = forward_ad::tangent_or_zeros(other);\n"
        '    forward_ad::set_fw_grad_inplace(self, other_t * original_self_p + self_t * other, "mul_.Tensor");\n'
        "  }\n"
    ) in after
    assert "std::vector<Tensor> tensors_t = forward_ad::tangent_or_zeros(tensors);" in cpp
    assert (
        "  if (forward_ad::any_fw_grad(self)) {\n"
        '    forward_ad::throw_not_implemented("cumprod", "its derivatives.yaml entry has no forward formula");\n'
        "  }\n"
    ) in cpp
    argmax = cpp[cpp.index("Tensor argmax(") :]
    assert "forward_ad" not in argmax[: argmax.index("\n}\n")]


def test_an_argument_named_like_a_tangent_local_is_a_spec_error(tmp_path):
    nf = tmp_path / "native_functions.yaml"
    d = tmp_path / "derivatives.yaml"
    nf.write_text("- func: scale(Tensor self, Tensor self_t) -> Tensor\n")
    d.write_text(
        "- name: scale(Tensor self, Tensor self_t) -> Tensor\n"
        "  self: grad\n"
        "  self_t: non_differentiable\n"
        "  result: self_t\n"
    )
    with pytest.raises(SpecError) as e:
        generate(str(nf), str(d), native_functions_name="n.yaml", derivatives_name="d.yaml")
    assert str(e.value) == (
        "n.yaml:1:3: the declaration of scale has an argument named 'self_t', a name the generated wrapper "
        "uses for its forward-mode code"
    )


def test_original_self_t_is_selfs_tangent_from_before_the_op(tmp_path):
    # PyTorch's in-place entries (elu_, celu_, leaky_relu_) write into self_t from a function of
    # its old value: `self_t.copy_(f(original_self_t))`. The wrapper copies the old tangent first.
    nf = tmp_path / "native_functions.yaml"
    d = tmp_path / "derivatives.yaml"
    nf.write_text("- func: twice(Tensor self) -> Tensor\n- func: twice_(Tensor(a!) self) -> Tensor(a!)\n")
    d.write_text(
        "- name: twice(Tensor self) -> Tensor\n"
        "  self: 2 * grad\n"
        "  result: auto_linear\n"
        "- name: twice_(Tensor(a!) self) -> Tensor(a!)\n"
        "  self: 2 * grad\n"
        "  result: self_t.copy_(original_self_t * 2)\n"
    )
    cpp = generate(str(nf), str(d), native_functions_name="n.yaml", derivatives_name="d.yaml")["VariableType.cpp"]
    twice_ = cpp[cpp.index("Tensor& twice_(") :]
    twice_ = twice_[: twice_.index("\n}\n")]
    assert (
        "    Tensor self_t = forward_ad::tangent_or_zeros(self);\n"
        "    const Tensor original_self_t = self_t.clone();\n"
        '    forward_ad::set_fw_grad_inplace(self, copy_(self_t, original_self_t * 2), "twice_");\n'
    ) in twice_
    twice = cpp[cpp.index("Tensor twice(") :]
    assert "original_self_t" not in twice[: twice.index("\n}\n")]
