"""gradgen.autograd.gradcheck / gradgradcheck and gradgen.testing.run_case (the generated Python
gradient tests' checks): they pass on right gradients and name the input, the element and both
values on wrong ones. The wrong gradients are made with detach(), which leaves the values (what
finite differences see) alone and changes only what backward computes."""

import unittest

import pytest

import gradgen
from gradgen.autograd import GradcheckError, gradcheck, gradgradcheck
from gradgen.testing import Case, Input, run_case


def leaf(*shape, seed=0):
    g = gradgen.Generator().manual_seed(seed)
    return gradgen.randn(list(shape), dtype=gradgen.float64, generator=g).requires_grad_(True)


def test_right_gradients_pass_for_tensors_lists_and_several_outputs():
    a, b = leaf(2, 3), leaf(3, 4, seed=1)
    assert gradcheck(gradgen.mm, (a, b))
    assert gradgradcheck(lambda x, y: gradgen.mm(x, y).sin(), (a, b))
    assert gradcheck(lambda x, y: gradgen.cat([x, y.t()], 0), (a, leaf(3, 2, seed=2)))
    assert gradcheck(lambda x: (x.sin(), x.exp()), (a,))
    # Inputs that do not require grad, and non-tensor arguments, are passed through unchecked.
    assert gradcheck(lambda x, y, k: x * y * k, (a, a.detach(), 3.0))


def test_a_wrong_gradient_names_the_input_the_element_and_both_values():
    x = gradgen.tensor([1.0, 2.0, 3.0], dtype=gradgen.float64, requires_grad=True)
    with pytest.raises(GradcheckError, match=r"d/d x: analytical vs numerical differ at \[2\]: 3 vs 6") as e:
        gradcheck(lambda t: t * t.detach(), (x,), names=["x"])  # backward says x, the values 2x
    assert isinstance(e.value, RuntimeError)
    assert gradcheck(lambda t: t * t.detach(), (x,), raise_exception=False) is False


def test_gradgradcheck_finds_a_first_derivative_without_its_own_derivative():
    # x.detach() * x + (x - x.detach()) * x.detach() is x*x, with the right first derivative 2x,
    # but that derivative is made of detached values: its own derivative is missing.
    def f(t):
        d = t.detach()
        return d * t + (t - d) * d

    x = leaf(3)
    assert gradcheck(f, (x,))
    with pytest.raises(GradcheckError, match=r"d/d input 0: analytical vs numerical differ at \[0\]"):
        gradgradcheck(f, (x,))


def test_outputs_and_inputs_without_elements_have_empty_blocks():
    # fill.Tensor's sample [0, 2] with a 0-dim value: an output with no elements has an empty
    # Jacobian block, nothing to compare (it used to raise KeyError); the other blocks are checked.
    empty, v = leaf(0, 2), leaf(seed=1)
    assert gradcheck(lambda x, s: (x * s, s.exp()), (empty, v))
    assert gradcheck(lambda x, s: gradgen.fill(x, s), (empty, v))
    assert gradgradcheck(lambda x, s: (x * s, s.exp()), (empty, v))
    assert gradcheck(lambda x: x.sum() + 1.0, (empty,))  # an input without elements
    # A wrong gradient beside the empty output is still found.
    with pytest.raises(GradcheckError, match=r"d\(output 1\)/d input 1: analytical vs numerical differ"):
        gradcheck(lambda x, s: (x * s, s * s.detach()), (empty, v))


def test_bad_calls_are_clear_errors():
    with pytest.raises(ValueError, match="no input is a Tensor that requires grad"):
        gradcheck(gradgen.sin, (gradgen.tensor([1.0], dtype=gradgen.float64),))
    with pytest.raises(ValueError, match="float32; check in float64"):
        gradcheck(gradgen.sin, (gradgen.tensor([1.0], dtype=gradgen.float32, requires_grad=True),))
    with pytest.raises(TypeError, match="must return a Tensor or a sequence of Tensors, got int"):
        gradcheck(lambda t: 3, (leaf(2),))


def _case(fn, **kw):
    return Case(
        op="my_op", sample=2, label="x: [3]", inputs=(Input("x", (3,), "float64", "positive", 0, 0, True),), fn=fn, **kw
    )


def _write_exp(t, outs):
    outs[0][...] = t[0].exp()  # an out= form writing the wrong op's values


def test_run_case_passes_and_reports_the_op_the_sample_and_the_problem():
    run_case(_case(lambda t: t[0].exp(), inplace=lambda t: t[0].clone().exp_(), inplace_name="exp_"))
    with pytest.raises(AssertionError, match=r"my_op sample 2 \(x: \[3\]\): d/d x: analytical vs numerical differ"):
        run_case(_case(lambda t: t[0] * t[0].detach()))
    with pytest.raises(AssertionError, match=r"my_op sample 2 \(x: \[3\]\): output 0 has no history"):
        run_case(_case(lambda t: t[0].detach().exp()))
    with pytest.raises(AssertionError, match=r"exp_ \(in-place\) gives other values than my_op"):
        run_case(_case(lambda t: t[0].exp(), inplace=lambda t: t[0].clone().relu_(), inplace_name="exp_"))
    with pytest.raises(AssertionError, match=r"my_op \(out=\) writes other values than my_op returns \(output 0\)"):
        run_case(_case(lambda t: t[0].log(), out=_write_exp))
    with pytest.raises(AssertionError, match=r"second derivatives: "):

        def f(t):
            d = t[0].detach()
            return d * t[0] + (t[0] - d) * d

        run_case(_case(f))
    with pytest.raises(unittest.SkipTest, match="my_op sample 2 .*: not today"):
        run_case(_case(lambda t: t[0], skip="not today"))


def test_the_inputs_follow_their_domains():
    specs = (
        Input("p", (50,), "float64", "positive", 0, 0, False),
        Input("r", (50,), "float64", "range", -0.5, 0.25, False),
        Input("d", (7,), "float64", "distinct", 0, 0, False),
        Input("i", (20,), "int64", "range", 0, 3, False),
        Input("b", (5,), "bool", "default", 0, 0, False),
    )
    p, r, d, i, b = gradcheck_inputs = gradgen.testing.make_inputs(specs, seed=3)
    assert all(v > 0 for v in p.tolist())
    assert all(-0.5 <= v <= 0.25 for v in r.tolist())
    assert len(set(d.tolist())) == 7
    assert i.dtype == gradgen.int64 and set(i.tolist()) <= {0, 1, 2, 3}
    assert b.dtype == gradgen.bool
    again = gradgen.testing.make_inputs(specs, seed=3)
    assert [t.tolist() for t in again] == [t.tolist() for t in gradcheck_inputs]


def test_an_output_without_elements_passes_gradcheck():
    # Nothing to compare (flip of a [2, 0] tensor): no Jacobian rows, no KeyError.
    assert gradcheck(lambda x: x.flip([0]), (leaf(2, 0),))


def test_the_inputs_are_laid_out_with_their_values_and_the_layout_check_catches_a_wrong_strided_path():
    spec = Input("x", (2, 3), "float64", "default", 0, 0, True)
    (plain,) = gradgen.testing.make_inputs((spec,), seed=5)
    for layout, strides in (("transposed", (1, 2)), ("strided", (6, 2)), ("expanded", (0, 1))):
        (x,) = gradgen.testing.make_inputs((_laid(spec, layout),), seed=5)
        assert tuple(x.stride()) == strides and x.requires_grad and x.is_leaf, layout
        want = plain.tolist() if layout != "expanded" else [plain.tolist()[0]] * 2
        assert x.tolist() == want, layout
        run_case(Case(op="my_op", sample=1, label=layout, inputs=(_laid(spec, layout),), fn=lambda t: t[0].exp()))
        wrong = lambda t: t[0].exp() * (1.0 if t[0].is_contiguous() else 2.0)  # noqa: E731
        with pytest.raises(AssertionError, match="layout: output 0 differs from the one computed on contiguous copies"):
            run_case(Case(op="my_op", sample=1, label="x", inputs=(_laid(spec, layout),), fn=wrong))


def _laid(spec, layout):
    return Input(spec.label, spec.shape, spec.dtype, spec.domain, spec.lo, spec.hi, spec.requires_grad, layout)
