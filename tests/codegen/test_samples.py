"""The samples language (tools/codegen/load_samples.py) and the generated gradient test
(gen_gradcheck_test.py, templates/gradcheck_test.cpp): what a samples file plans, every error's
exact message at its line and column, and the C++ the test is printed as."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import TREE

from tools.codegen.contract import GRADCHECK_PY_TEST, GRADCHECK_TEST, output_names
from tools.codegen.errors import SpecError
from tools.codegen.gen_autograd import generate

DECLS = """\
- func: polyval(Tensor[] coeffs, Tensor x) -> Tensor
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
- func: exp(Tensor self) -> Tensor
- func: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
- func: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
- func: argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
  flags: [DONT_REQUIRE_DERIVATIVE]
"""

DERIVS = """\
- name: polyval(Tensor[] coeffs, Tensor x) -> Tensor
  coeffs: polyval_coeffs_backward(grad, x, coeffs.size())
  x: polyval_x_backward(grad, coeffs, x)
- name: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  self: grad
  other: maybe_multiply(grad, alpha)
  result: self_t + maybe_multiply(other_t, alpha)
- name: exp(Tensor self) -> Tensor
  self: grad * result
  result: auto_element_wise
- name: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
  self: sum_backward(grad, self.sizes(), dim, keepdim)
- name: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  self: value_selecting_reduction_backward(grad, dim, indices, self.sizes(), keepdim)
  output_differentiability: [True, False]
"""

FULL = """\
- op: polyval
  skip_checks: {gradgradcheck: "first derivatives only"}
  samples:
    - args: {coeffs: [4], x: [4]}
    - args:
        coeffs: [[2, 3], [2, 3]]
        x: {shape: [2, 3], domain: positive}
- op: add.Tensor
  samples:
    - args: {self: [2, 3], other: [3], alpha: 2}
- op: exp
  samples:
    - args: {self: {shape: [3], domain: [-1, 1]}}
- op: sum.dim_IntList
  samples:
    - args: {self: [2, 3], dim: [1], keepdim: true}
- op: max.dim
  samples:
    - args: {self: {shape: [4], domain: distinct}, dim: 0}
"""


def _generate(write_yaml, samples: str, decls: str = DECLS, derivs: str = DERIVS, **kwargs):
    nf = write_yaml(decls, "native_functions.yaml")
    d = write_yaml(derivs, "derivatives.yaml")
    s = write_yaml(samples, "samples.yaml")
    return generate(
        str(nf),
        str(d),
        native_functions_name="ops/native_functions.yaml",
        derivatives_name="ops/derivatives.yaml",
        samples_path=str(s),
        samples_name="ops/samples.yaml",
        namespace="custom_op",
        include_prefix="ops/generated",
        **kwargs,
    )


def _plan(write_yaml, samples: str, decls: str = DECLS, derivs: str = DERIVS, **kwargs):
    from tools.codegen.autogen import add_autogen_variants
    from tools.codegen.autograd_info import match_infos, wrapper_kinds
    from tools.codegen.load_derivatives import load_derivatives
    from tools.codegen.load_native_functions import parse_native_functions
    from tools.codegen.load_samples import plan_samples

    nf = write_yaml(decls, "native_functions.yaml")
    d = write_yaml(derivs, "derivatives.yaml")
    s = write_yaml(samples, "samples.yaml")
    functions = add_autogen_variants(parse_native_functions(str(nf)))
    matched = match_infos(functions, load_derivatives(str(d), functions))
    kinds = wrapper_kinds(functions, matched, "error", False)
    return plan_samples(str(s), functions, matched, kinds, "ops/samples.yaml", **kwargs)


def _error(write_yaml, samples: str) -> str:
    with pytest.raises(SpecError) as e:
        _generate(write_yaml, samples)
    return str(e.value)


def test_a_list_given_one_shape_is_checked_with_lengths_1_2_and_3(write_yaml):
    plan = _plan(write_yaml, FULL)
    polyval = plan.ops[0]
    assert [c.label for c in polyval.cases] == [
        "coeffs: 1 x [4], x: [4]",
        "coeffs: 2 x [4], x: [4]",
        "coeffs: 3 x [4], x: [4]",
        "coeffs: 2 x [2, 3], x: [2, 3]",
    ]
    assert [c.sample for c in polyval.cases] == [1, 1, 1, 2]
    # x follows the list: input 3 of the third case, the inputs labelled for messages.
    third = polyval.cases[2]
    assert [i.label for i in third.inputs] == ["coeffs[0]", "coeffs[1]", "coeffs[2]", "x"]
    assert [(a.name, a.kind, a.first, a.count) for a in third.args] == [
        ("coeffs", "tensor_list", 0, 3),
        ("x", "tensor", 3, 1),
    ]
    assert polyval.cases[3].inputs[-1].domain == "positive"
    # polyval has no forward formula, no in-place or out= variant; gradgradcheck is skipped.
    assert third.checks == ("history",)


def test_the_plan_knows_variants_forward_formulas_values_and_defaults(write_yaml):
    plan = _plan(write_yaml, FULL)
    add, exp, sum_, max_ = plan.ops[1:]
    assert (add.cpp_name, add.inplace_cpp_name, add.out_cpp_name) == ("add", "add_", "add_out")
    assert add.cases[0].checks == ("gradgradcheck", "history", "fwgradcheck", "hvpcheck", "inplace", "out")
    assert [a.cpp for a in add.cases[0].args] == ["", "", "static_cast<const Scalar&>(Scalar(int64_t{2}))"]
    assert exp.has_forward_formula and (exp.cases[0].inputs[0].lo, exp.cases[0].inputs[0].hi) == (-1.0, 1.0)
    # Defaults the sample leaves out are the C++ API's defaults.
    # Each cast to its parameter's type, so that overloads never make a call ambiguous.
    assert [a.cpp for a in sum_.cases[0].args][1:] == [
        "static_cast<OptionalIntArrayRef>(OptionalIntArrayRef(std::vector<int64_t>{1}))",
        "static_cast<bool>(true)",
        "static_cast<std::optional<ScalarType>>(std::nullopt)",
    ]
    assert max_.result_kind == "tuple" and max_.differentiable_outputs == (True, False)
    assert max_.cases[0].inputs[0].domain == "distinct"


def test_nondeterministic_sets_how_far_two_backward_passes_may_differ(write_yaml):
    # The entry's tolerance, which a sample's own replaces; 0 (bitwise) without the key.
    entry = "- op: exp\n  nondeterministic: 1e-9\n  samples:\n    - args: {self: [2]}\n"
    entry += "    - args: {self: [3]}\n      nondeterministic: 1.0e-6\n"
    (exp,) = _plan(write_yaml, entry).ops
    assert [c.nondet_tol for c in exp.cases] == [1e-9, 1e-6]
    (plain,) = _plan(write_yaml, "- op: exp\n  samples: [{args: {self: [2]}}]\n").ops
    assert plain.cases[0].nondet_tol == 0.0
    test = _generate(write_yaml, FULL.replace("- op: exp\n", "- op: exp\n  nondeterministic: 1e-9\n"))[GRADCHECK_TEST]
    # Only a case with a tolerance spells it (SampleCase::nondet_tol defaults to 0).
    exp_case = next(line for line in test.splitlines() if 'SampleCase{"exp"' in line)
    assert exp_case.endswith(", 1e-05, 0.001, 1e-09});")
    add_case = next(line for line in test.splitlines() if 'SampleCase{"add.Tensor"' in line)
    assert add_case.endswith(", 1e-05, 0.001});")


def test_layouts_and_float32_are_planned_and_printed(write_yaml):
    # `layout:` lays a tensor out as a view (the runner makes it so); `dtype: float32` with
    # requires_grad (the default for a floating dtype) is a float64 leaf the call converts, with
    # op_info.cc's float32 step and tolerances, its outputs converted back to float64.
    samples = (
        "- op: add.Tensor\n  samples:\n"
        "    - args: {self: {shape: [2, 3], layout: transposed}, other: {shape: [2, 3], layout: expanded}}\n"
        "    - args: {self: {shape: [3], layout: strided}, other: [3]}\n"
        "    - args: {self: [2, 3], other: [3]}\n      dtype: float32\n"
        "    - args: {self: [2, 3], other: {shape: [3], dtype: float32, requires_grad: false}}\n"
    )
    (op,) = _plan(write_yaml, samples).ops
    first, strided, float32, plain = op.cases
    assert [i.layout.value for i in first.inputs] == ["transposed", "expanded"]
    assert first.label == "self: [2, 3] transposed, other: [2, 3] expanded"
    assert strided.label == "self: [3] strided, other: [3]"
    assert [i.shape for i in first.inputs] == [(2, 3), (2, 3)]
    assert float32.label == "self: [2, 3] float32, other: [3] float32"
    assert [(i.dtype, i.as_float32, i.requires_grad) for i in float32.inputs] == [("Double", True, True)] * 2
    assert (float32.eps, float32.atol, float32.rtol) == (1e-3, 1e-3, 1e-2)
    assert [(i.dtype, i.as_float32, i.requires_grad) for i in plain.inputs][1] == ("Float", False, False)
    assert (plain.eps, plain.atol, plain.rtol) == (1e-6, 1e-5, 1e-3)
    test = _generate(write_yaml, samples)[GRADCHECK_TEST]
    assert 'SampleInput{"self", {2, 3}, ScalarType::Double, "default", 0.0, 0.0, true, "transposed"}' in test
    assert 'SampleInput{"other", {2, 3}, ScalarType::Double, "default", 0.0, 0.0, true, "expanded"}' in test
    assert (
        "return ::gradgen::testing::float64_outputs(std::vector<Tensor>{::custom_op::add("
        "::gradgen::testing::as_float32(in[0]), ::gradgen::testing::as_float32(in[1])" in test
    )
    assert "inplace_self(::gradgen::testing::as_float32(in[0]))" in test
    # The float32 case spells its step after the default nondet_tol.
    assert ", 0.001, 0.01, 0.0, 0.001});" in test
    # Python: the same conversions, the layout in Input, the step in Case.
    py = _generate(write_yaml, samples, python_module="ops_py")[GRADCHECK_PY_TEST]
    assert "Input('self', (2, 3), 'float64', 'default', 0.0, 0.0, True, 'transposed')" in py
    assert "return float64_outputs(lib.add(as_float32(t[0]), as_float32(t[1])" in py
    assert "eps=0.001" in py


def test_a_forward_formula_the_wrapper_refuses_gets_no_fwgradcheck(write_yaml):
    # PyTorch's tuple forward formulas (`a, b: f(...)`) are refused by the wrapper ("defines
    # several outputs at once"): fwgradcheck and hvpcheck would only see that refusal.
    decls = DECLS + "- func: two(Tensor self) -> (Tensor a, Tensor b)\n"
    derivs = DERIVS + (
        "- name: two(Tensor self) -> (Tensor a, Tensor b)\n  self: grad_a + grad_b\n  a, b: two_jvp(self_t)\n"
    )
    (two,) = _plan(write_yaml, "- op: two\n  samples: [{args: {self: [2]}}]\n", decls=decls, derivs=derivs).ops
    assert not two.has_forward_formula
    assert "fwgradcheck" not in two.cases[0].checks and "hvpcheck" not in two.cases[0].checks


def test_infinite_and_nan_values_are_spelled_for_cpp_and_python(write_yaml):
    # YAML's .inf / -.inf / .nan (a norm's order, a clamp bound): C++ has no literal for them.
    decls = DECLS + "- func: vnorm(Tensor self, Scalar ord=2) -> Tensor\n"
    derivs = DERIVS + "- name: vnorm(Tensor self, Scalar ord=2) -> Tensor\n  self: grad\n"
    samples = "- op: vnorm\n  samples:\n    - args: {self: [2], ord: .inf}\n    - args: {self: [2], ord: -.inf}\n"
    files = _generate(write_yaml, samples, decls=decls, derivs=derivs, python_module="ops_py")
    test = files[GRADCHECK_TEST]
    assert "#include <limits>" in test
    assert "static_cast<const Scalar&>(Scalar(std::numeric_limits<double>::infinity()))" in test
    assert "static_cast<const Scalar&>(Scalar(-std::numeric_limits<double>::infinity()))" in test
    assert "float('-inf')" in files[GRADCHECK_PY_TEST]


def test_memory_formats_are_spelled_for_cpp_and_python(write_yaml):
    # clone's `MemoryFormat? memory_format`: PyTorch's Python names; anything else is an error.
    decls = DECLS + "- func: copy(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor\n"
    derivs = DERIVS + "- name: copy(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor\n  self: grad\n"
    samples = "- op: copy\n  samples:\n    - args: {self: [2], memory_format: contiguous_format}\n"
    samples += "    - args: {self: [2], memory_format: preserve_format}\n"
    files = _generate(write_yaml, samples, decls=decls, derivs=derivs, python_module="ops_py")
    test = files[GRADCHECK_TEST]
    assert "std::optional<MemoryFormat>(MemoryFormat::Contiguous)" in test
    assert "std::optional<MemoryFormat>(MemoryFormat::Preserve)" in test
    py = files[GRADCHECK_PY_TEST]
    assert "memory_format=gradgen.contiguous_format" in py
    assert "memory_format=gradgen.preserve_format" in py
    with pytest.raises(SpecError) as e:
        _generate(
            write_yaml,
            "- op: copy\n  samples:\n    - args: {self: [2], memory_format: channels_last}\n",
            decls=decls,
            derivs=derivs,
        )
    assert str(e.value) == (
        "ops/samples.yaml:3:40: argument 'memory_format' (MemoryFormat): expected a value of that type, got "
        "'channels_last'"
    )


def test_sized_lists_take_any_length_or_one_number_and_empty_defaults_compile(write_yaml):
    # PyTorch's `int[1] dims` takes a list of any length and a bare number (N copies); only
    # `bool[N]` is a fixed-length std::array. A default `[]` becomes a value-initialized
    # parameter (a braced list cannot be cast).
    decls = DECLS + "- func: roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor\n"
    derivs = DERIVS + "- name: roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor\n  self: grad\n"
    samples = "- op: roll\n  samples:\n    - args: {self: [2, 3], shifts: [1, 2], dims: [0, 1]}\n"
    samples += "    - args: {self: [2, 3], shifts: 4}\n"
    test = _generate(write_yaml, samples, decls, derivs, require_samples=False)[GRADCHECK_TEST]
    assert (
        "roll(in[0], static_cast<IntArrayRef>(std::vector<int64_t>{1, 2}), "
        "static_cast<IntArrayRef>(std::vector<int64_t>{0, 1}))" in test
    )
    assert (
        "roll(in[0], static_cast<IntArrayRef>(std::vector<int64_t>{4}), static_cast<IntArrayRef>(IntArrayRef()))"
        in test
    )


def test_declarations_with_formulas_and_no_samples_are_listed(write_yaml):
    plan = _plan(write_yaml, "- op: exp\n  samples: [{args: {self: [2]}}]\n")
    # Functional declarations recording a node; add_ and add.out are checked with add.Tensor,
    # argmax records none.
    assert plan.missing == ("polyval", "add.Tensor", "sum.dim_IntList", "max.dim")
    assert plan.require_samples


def test_the_generated_test_calls_each_variant_and_fails_on_missing_samples(write_yaml):
    files = _generate(write_yaml, FULL.split("- op: exp")[0] + "- op: exp\n  skip: not today\n")
    test = files[GRADCHECK_TEST]
    assert '#include "ops/generated/VariableType.h"' in test
    assert "return {::custom_op::polyval(TensorList(in.data() + 0, 3), in[3])};" in test
    alpha = "static_cast<const Scalar&>(Scalar(int64_t{2}))"
    assert f"Tensor self = ::gradgen::testing::inplace_self(in[0]);\n  ::custom_op::add_(self, in[1], {alpha});" in test
    assert f"::custom_op::add_out(in[0], in[1], {alpha}, outs[0]);" in test
    assert 'runner.skip_op("exp", "not today");' in test
    assert 'runner.missing("sum.dim_IntList", "ops/samples.yaml", true);' in test
    assert 'runner.missing("max.dim", "ops/samples.yaml", true);' in test
    assert sorted(files) == sorted(output_names(1, samples=True))
    # Deterministic: the same input, the same text.
    assert _generate(write_yaml, FULL)[GRADCHECK_TEST] == _generate(write_yaml, FULL)[GRADCHECK_TEST]


def test_require_samples_false_makes_missing_declarations_notes(write_yaml):
    test = _generate(write_yaml, "[]", require_samples=False)[GRADCHECK_TEST]
    assert 'runner.missing("polyval", "ops/samples.yaml", false);' in test


def test_without_samples_no_test_is_written(write_yaml):
    nf = write_yaml(DECLS, "native_functions.yaml")
    d = write_yaml(DERIVS, "derivatives.yaml")
    assert GRADCHECK_TEST not in generate(str(nf), str(d))


@pytest.mark.parametrize(
    "samples, message",
    [
        (
            "- op: polyvall\n  samples: []\n",
            "ops/samples.yaml:1:7: op 'polyvall' names no declaration of the library's functions file",
        ),
        (
            "- op: add\n  samples: []\n",
            "ops/samples.yaml:1:7: op 'add' names no declaration of the library's functions file; "
            "the declarations named add are: add.Tensor, add.out",
        ),
        (
            "- op: add_.Tensor\n  samples: []\n",
            "ops/samples.yaml:1:7: add_.Tensor is an inplace variant: name its functional declaration, "
            "whose samples check the in-place and out= variants too",
        ),
        (
            "- op: argmax\n  samples: []\n",
            "ops/samples.yaml:1:7: argmax has no derivative formulas: there is no gradient to check",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: [2], other: [2]}\n",
            "ops/samples.yaml:3:25: sample 1 of exp: 'other' is no argument of exp; its arguments are: self",
        ),
        (
            "- op: exp\n  samples:\n    - args: {}\n",
            "ops/samples.yaml:3:7: sample 1 of exp: expected a shape for the tensor 'self'",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: {shape: [2], domain: big}}\n",
            "ops/samples.yaml:3:41: argument 'self': domain: expected positive, nonzero, distinct or "
            "[lo, hi] with lo < hi, got 'big'",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: {shape: [2], dtype: int64, requires_grad: true}}\n",
            "ops/samples.yaml:3:62: argument 'self': requires_grad needs a floating dtype, float64 or "
            "float32 (a float64 leaf the op receives as float32); give requires_grad: false for an "
            "integer or boolean tensor",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: {shape: [2, 3], layout: sideways}}\n",
            "ops/samples.yaml:3:44: argument 'self': layout: expected one of contiguous, transposed, "
            "strided, expanded, got 'sideways'",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: {shape: [4], layout: transposed}}\n",
            "ops/samples.yaml:3:41: argument 'self': layout transposed swaps the last two dims in storage: "
            "it needs a tensor of rank 2 or more, got [4] (rank 1)",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: {shape: [3, 1], layout: transposed}}\n",
            "ops/samples.yaml:3:44: argument 'self': layout transposed swaps the last two dims in storage, "
            "so dim 1 needs 2 or more elements (else the tensor is contiguous all the same), got [3, 1]",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: {shape: [], layout: strided}}\n",
            "ops/samples.yaml:3:40: argument 'self': layout strided takes every other element of the last "
            "dim of a buffer twice as long: it needs a tensor of rank 1 or more, got [] (rank 0)",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: {shape: [1, 3], layout: expanded}}\n",
            "ops/samples.yaml:3:44: argument 'self': layout expanded broadcasts dim 0 with stride 0 (one "
            "slice repeated), so dim 0 needs 2 or more elements (else the tensor is contiguous all the "
            "same), got [1, 3]",
        ),
        (
            "- op: polyval\n  samples:\n    - args: {coeffs: {shapes: [[2, 2], [2]], layout: transposed}, x: [2]}\n",
            "ops/samples.yaml:3:54: argument 'coeffs': layout transposed swaps the last two dims in storage: "
            "it needs a tensor of rank 2 or more, got [2] (rank 1)",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: [2, x]}\n",
            "ops/samples.yaml:3:20: argument 'self': expected a shape, a list of sizes such as [2, 3] "
            "([] for a 0-dim tensor), got [2, 'x']",
        ),
        (
            "- op: exp\n  samples:\n    - args: {self: {shapes: [[2]]}}\n",
            "ops/samples.yaml:3:29: argument 'self' is a Tensor: give `shape`, not `shapes` (that is for Tensor[])",
        ),
        (
            "- op: max.dim\n  samples:\n    - args: {self: [2]}\n",
            "ops/samples.yaml:3:7: sample 1 of max.dim: expected a value for 'dim' (int), which has no default",
        ),
        (
            "- op: max.dim\n  samples:\n    - args: {self: [2], dim: 0.5}\n",
            "ops/samples.yaml:3:30: argument 'dim' (int): expected a value of that type, got 0.5",
        ),
        (
            "- op: exp\n  skip_checks: {gradgradcheck: ''}\n  samples: [{args: {self: [2]}}]\n",
            "ops/samples.yaml:2:33: skip_checks: gradgradcheck: expected the reason, a non-empty string, got ''",
        ),
        (
            "- op: exp\n  skip_checks: {inplace: none}\n  samples: [{args: {self: [2]}}]\n",
            "ops/samples.yaml:2:3: skip_checks: exp gets no inplace check (it has no such variant)",
        ),
        (
            "- op: exp\n  skip_checks: {gradcheck: no}\n  samples: [{args: {self: [2]}}]\n",
            "ops/samples.yaml:2:17: skip_checks: unknown check 'gradcheck'; expected one of: "
            "gradgradcheck, fwgradcheck, hvpcheck, inplace, out, history",
        ),
        (
            "- op: exp\n  samples: [{args: {self: [2]}}]\n- op: exp\n  samples: [{args: {self: [2]}}]\n",
            "ops/samples.yaml:3:7: a second entry for exp (the first is at ops/samples.yaml:1:7); "
            "list all its samples in one entry",
        ),
        (
            "- op: exp\n",
            "ops/samples.yaml:1:3: exp: expected `samples:` (or `skip: <reason>`)",
        ),
        (
            "- op: exp\n  sample: []\n",
            "ops/samples.yaml:2:3: unknown key 'sample' in a samples entry; expected one of: "
            "op, samples, skip, skip_checks, nondeterministic",
        ),
        (
            "- op: exp\n  samples: [{args: {self: [5000]}}]\n",
            "ops/samples.yaml:2:27: argument 'self': [5000] has 5000 elements; finite differences take "
            "two calls per element, keep samples at most 4096",
        ),
        (
            "- op: exp\n  nondeterministic: 0\n  samples: [{args: {self: [2]}}]\n",
            "ops/samples.yaml:2:21: nondeterministic: expected a positive number, got 0",
        ),
        ("op: exp\n", "ops/samples.yaml:1: a samples file must be a list of entries ('- op: ...')"),
    ],
)
def test_errors_name_the_place_and_what_was_expected(write_yaml, samples, message):
    assert _error(write_yaml, samples) == message


def test_the_driver_reports_a_samples_error_in_one_line_and_writes_nothing(write_yaml, tmp_path):
    nf = write_yaml(DECLS, "native_functions.yaml")
    d = write_yaml(DERIVS, "derivatives.yaml")
    s = write_yaml("- op: nope\n  samples: []\n", "samples.yaml")
    out = tmp_path / "out"
    run = subprocess.run(
        [
            sys.executable,
            str(TREE / "tools" / "codegen" / "gen_autograd.py"),
            f"--native_functions={nf}",
            f"--derivatives={d}",
            f"--samples={s}",
            "--samples_name=ops/samples.yaml",
            f"--out_dir={out}",
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1, run.stderr
    assert run.stderr == "ops/samples.yaml:1:7: op 'nope' names no declaration of the library's functions file\n"
    assert not out.exists()


def test_the_python_test_calls_the_bindings_as_a_user_would(write_yaml):
    # With a Python module: gradcheck_test.py, one case function per case. Tensor[] as a list,
    # keyword-only arguments by keyword, arguments left at their defaults left out (then the
    # rest by keyword), the in-place variant on a clone of self, out= by keyword.
    files = _generate(write_yaml, FULL, python_module="pkg/_ops")
    assert sorted(files) == sorted(output_names(1, samples=True, python_samples=True))
    test = files[GRADCHECK_PY_TEST]
    assert "\nfrom pkg import _ops as lib\n" in test
    assert "    return lib.polyval([t[0], t[1], t[2]], t[3])\n" in test
    assert "    return lib.add(t[0], t[1], alpha=2)\n" in test
    assert "    self = t[0].clone()\n    return lib.add_(self, t[1], alpha=2)\n" in test
    assert "    lib.add(t[0], t[1], alpha=2, out=outs[0])\n" in test
    # An out= form whose out argument has another name (PyTorch's `grad_input`) takes that keyword.
    decls = (
        DECLS
        + "- func: add.grad_input(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) grad_input) -> Tensor(a!)\n"
    )
    decls = decls.replace(
        "- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)\n", ""
    )
    renamed = _generate(write_yaml, FULL, decls=decls, python_module="pkg/_ops")[GRADCHECK_PY_TEST]
    assert "    lib.add(t[0], t[1], alpha=2, grad_input=outs[0])\n" in renamed
    assert "    return lib.sum(t[0], [1], True)\n" in test
    assert "    return lib.max(t[0], 0)\n" in test  # keepdim left out: the binding's default
    assert "differentiable_outputs=(True, False)," in test
    assert "gradgradcheck=False," in test  # polyval's skip_checks
    assert "MISSING = []" in test
    compile(test, "gradcheck_test.py", "exec")  # valid Python
    # Without a module: no Python test.
    assert GRADCHECK_PY_TEST not in _generate(write_yaml, FULL)


@pytest.mark.parametrize(
    "samples, message",
    [
        (
            "- op: max.dim\n  samples:\n    - args: {self: [2, 3], dim: 2}\n",
            "ops/samples.yaml:3:33: sample 1 of max.dim: dim 2 is out of range for self of rank 2: "
            "expected a value in [-2, 1]",
        ),
        (
            "- op: max.dim\n  samples:\n    - args: {self: [2, 3], dim: -3}\n",
            "ops/samples.yaml:3:33: sample 1 of max.dim: dim -3 is out of range for self of rank 2: "
            "expected a value in [-2, 1]",
        ),
        (
            # A 0-dim tensor wraps as rank 1 (PyTorch's rule): 0 and -1 are its dims, 1 is not.
            "- op: max.dim\n  samples:\n    - args: {self: [], dim: 1}\n",
            "ops/samples.yaml:3:29: sample 1 of max.dim: dim 1 is out of range for self of rank 0: "
            "expected a value in [-1, 0]",
        ),
        (
            "- op: sum.dim_IntList\n  samples:\n    - args: {self: [2, 3], dim: [0, -3]}\n",
            "ops/samples.yaml:3:33: sample 1 of sum.dim_IntList: dim -3 is out of range for self of "
            "rank 2: expected a value in [-2, 1]",
        ),
    ],
)
def test_a_dim_out_of_range_for_the_input_rank_is_an_error(write_yaml, samples, message):
    assert _error(write_yaml, samples) == message


def test_dims_in_range_pass_including_a_0_dim_input_as_rank_1(write_yaml):
    plan = _plan(
        write_yaml,
        "- op: max.dim\n  samples:\n    - args: {self: [], dim: -1}\n    - args: {self: [2, 3], dim: -2}\n"
        "- op: sum.dim_IntList\n  samples:\n    - args: {self: [2, 3], dim: [-1, 0]}\n",
        require_samples=False,
    )
    assert [len(op.cases) for op in plan.ops] == [2, 1]


_COL2IM = (
    "col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, "
    "int[2] stride) -> Tensor"
)

RANK_DECLS = f"""\
- func: avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0) -> Tensor
- func: {_COL2IM}
- func: stack(Tensor[] tensors, int dim=0) -> Tensor
"""

RANK_DERIVS = f"""\
- name: avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0) -> Tensor
  self: grad
- name: {_COL2IM}
  self: grad
- name: stack(Tensor[] tensors, int dim=0) -> Tensor
  tensors: grad
"""


@pytest.mark.parametrize(
    "samples, message",
    [
        (
            "- op: avg_pool2d\n  samples:\n    - args: {self: [4, 4], kernel_size: 2}\n",
            "ops/samples.yaml:3:20: sample 1 of avg_pool2d: avg_pool2d takes kernel_size as int[2], so self "
            "must have rank 3 (unbatched) or 4 (batched), got [4, 4] (rank 2)",
        ),
        (
            "- op: avg_pool2d\n  samples:\n    - args: {self: [1, 1, 1, 4, 4], kernel_size: 2}\n",
            "ops/samples.yaml:3:20: sample 1 of avg_pool2d: avg_pool2d takes kernel_size as int[2], so self "
            "must have rank 3 (unbatched) or 4 (batched), got [1, 1, 1, 4, 4] (rank 5)",
        ),
        (
            # col2im's input is columns: (C * kh * kw, L), or batched.
            "- op: col2im\n  samples:\n    - args: {self: [1, 1, 4, 9], output_size: 4, kernel_size: 2, "
            "dilation: 1, padding: 0, stride: 1}\n",
            "ops/samples.yaml:3:20: sample 1 of col2im: col2im takes kernel_size as int[2], so self must have "
            "rank 2 (unbatched) or 3 (batched), got [1, 1, 4, 9] (rank 4)",
        ),
        (
            # stack's dim indexes the result, one dimension more than each input.
            "- op: stack\n  samples:\n    - args: {tensors: [2, 3], dim: 3}\n",
            "ops/samples.yaml:3:36: sample 1 of stack: dim 3 is out of range for the result (rank 3): "
            "expected a value in [-3, 2]",
        ),
    ],
)
def test_a_sized_list_or_a_result_dim_that_does_not_fit_the_rank_is_an_error(write_yaml, samples, message):
    with pytest.raises(SpecError) as e:
        _generate(write_yaml, samples, decls=RANK_DECLS, derivs=RANK_DERIVS, require_samples=False)
    assert str(e.value) == message


def test_inputs_of_the_ranks_a_sized_list_fits_pass(write_yaml):
    text = _generate(
        write_yaml,
        "- op: avg_pool2d\n  samples:\n    - args: {self: [1, 4, 4], kernel_size: 2}\n"
        "    - args: {self: [2, 1, 4, 4], kernel_size: [2, 2]}\n"
        "- op: col2im\n  samples:\n    - args: {self: [4, 9], output_size: 4, kernel_size: 2, dilation: 1, "
        "padding: 0, stride: 1}\n"
        "- op: stack\n  samples:\n    - args: {tensors: [2, 3], dim: 2}\n    - args: {tensors: [2, 3], dim: -3}\n",
        decls=RANK_DECLS,
        derivs=RANK_DERIVS,
        require_samples=False,
    )[GRADCHECK_TEST]
    assert text.count("runner.run(SampleCase{") == 2 + 1 + 2 * 3


INDEX_DECLS = """\
- func: index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
- func: index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
"""

INDEX_DERIVS = """\
- name: index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
  self: grad
- name: index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
  self: grad
  values: grad
"""


def _index_generate(write_yaml, samples: str):
    return _generate(write_yaml, samples, decls=INDEX_DECLS, derivs=INDEX_DERIVS, require_samples=False)


def test_a_tensor_list_of_optionals_takes_null_or_index_tensors_inside_the_dim_they_index(write_yaml):
    out = _index_generate(
        write_yaml,
        "- op: index.Tensor\n  samples:\n"
        "    - args: {self: [4, 3], indices: [null, [2, 2]]}\n"
        "    - args: {self: [4, 3], indices: [{shape: [2], domain: [-4, -1]}]}\n"
        "    - args: {self: [2, 3], indices: [{shape: [2, 3], dtype: bool}]}\n"
        "- op: index_put\n  samples:\n"
        "    - args: {self: [4, 3], indices: [{shape: [3], domain: distinct}], values: [3, 3]}\n",
    )
    test = out[GRADCHECK_TEST]
    # The null element is std::nullopt; the index is an int64 input that does not require grad,
    # its values by default those of the dim it indexes (dim 1, of size 3: 0..2).
    assert "index(in[0], std::vector<std::optional<Tensor>>{std::nullopt, std::optional<Tensor>(in[1])})" in test
    assert 'SampleInput{"indices[1]", {2, 2}, ScalarType::Long, "range", 0.0, 2.0, false}' in test
    assert '"self: [4, 3], indices: [None, [2, 2]]"' in test
    assert 'SampleInput{"indices[0]", {2}, ScalarType::Long, "range", -4.0, -1.0, false}' in test
    # A mask keeps the default values (true where a standard draw is positive).
    assert 'SampleInput{"indices[0]", {2, 3}, ScalarType::Bool, "default", 0.0, 0.0, false}' in test
    assert (
        "index_put(in[0], std::vector<std::optional<Tensor>>{std::optional<Tensor>(in[1])}, in[2], "
        "static_cast<bool>(false))" in test
    )
    assert 'SampleInput{"indices[0]", {3}, ScalarType::Long, "distinct", 0.0, 0.0, false}' in test


@pytest.mark.parametrize(
    "samples, message",
    [
        (
            "- op: index.Tensor\n  samples:\n    - args: {self: [4, 3], indices: [2]}\n",
            "ops/samples.yaml:3:38: argument 'indices[0]': expected a shape, a list of sizes such as [2, 3] "
            "([] for a 0-dim tensor), got 2",
        ),
        (
            "- op: index.Tensor\n  samples:\n    - args: {self: [4, 3], indices: []}\n",
            "ops/samples.yaml:3:37: argument 'indices' (Tensor?[]): expected a non-empty list of null or index "
            "tensors, such as [null, {shape: [2], domain: [0, 2]}]",
        ),
        (
            "- op: index.Tensor\n  samples:\n    - args: {self: [4, 3], indices: [null, null, [2]]}\n",
            "ops/samples.yaml:3:50: sample 1 of index.Tensor: indices[2]: too many indices for self of rank 2",
        ),
        (
            "- op: index.Tensor\n  samples:\n    - args: {self: [4, 3], indices: [{shape: [2], domain: [0, 4]}]}\n",
            "ops/samples.yaml:3:38: sample 1 of index.Tensor: indices[0] indexes dim 0 of self (size 4): its "
            "values must stay in [-4, 3], but its domain gives 0..4",
        ),
        (
            "- op: index.Tensor\n  samples:\n    - args: {self: [2, 3], indices: [{shape: [5], domain: distinct}]}\n",
            "ops/samples.yaml:3:38: sample 1 of index.Tensor: indices[0] indexes dim 0 of self (size 2): its "
            "values must stay in [-2, 1], but its domain gives 0..4",
        ),
        (
            "- op: index.Tensor\n  samples:\n    - args: {self: [4, 3], indices: [{shape: [2], dtype: float64}]}\n",
            "ops/samples.yaml:3:38: argument 'indices[0]': an index is int64 or bool, got Double",
        ),
        (
            "- op: index.Tensor\n  samples:\n    - args: {self: [4, 3], indices: [{shape: [3, 4], dtype: bool}]}\n",
            "ops/samples.yaml:3:38: sample 1 of index.Tensor: indices[0]: a mask of shape [3, 4] does not match "
            "dims 0.. of self [4, 3]",
        ),
        (
            "- op: index.Tensor\n  samples:\n    - args: {self: [4, 3]}\n",
            "ops/samples.yaml:3:7: sample 1 of index.Tensor: expected a value for 'indices' (Tensor?[])",
        ),
    ],
)
def test_errors_in_a_tensor_list_of_optionals_name_the_element(write_yaml, samples, message):
    with pytest.raises(SpecError) as e:
        _index_generate(write_yaml, samples)
    assert str(e.value) == message
