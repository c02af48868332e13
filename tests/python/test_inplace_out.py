"""In-place variants and out= overloads of issue 23 (csrc/native/inplace_out.cc), as PyTorch's.

In place: the same object returned, the version counter bumped, a leaf that requires grad and a
result self cannot hold refused, gradients (and forward-mode tangents) through the in-place node,
a view's base updated. out=: the out tensor returned, resized (silently when empty, with
PyTorch's warning otherwise), the result converted to out's dtype when it may be and refused
when not, inputs that require grad refused. Values and gradients against PyTorch are in
tests/differential/cases_inplace_out.py.
"""

from __future__ import annotations

import math
import warnings

import pytest

import gradgen
import gradgen.forward_ad as fwAD


def f64(data, requires_grad=False):
    return gradgen.tensor(data, dtype=gradgen.float64, requires_grad=requires_grad)


@pytest.mark.parametrize(
    "op, arg, want",
    [
        ("add_", 1.0, [2.0, 5.0]),
        ("sub_", 1, [0.0, 3.0]),
        ("div_", 2.0, [0.5, 2.0]),
        ("pow_", 2.0, [1.0, 16.0]),
        ("floor_divide_", 3, [0.0, 1.0]),
        ("true_divide_", 4, [0.25, 1.0]),
        ("eq_", 4.0, [0.0, 1.0]),
        ("ne_", 4.0, [1.0, 0.0]),
        ("lt_", 4.0, [1.0, 0.0]),
        ("le_", 4.0, [1.0, 1.0]),
        ("gt_", 1.0, [0.0, 1.0]),
        ("ge_", 1.0, [1.0, 1.0]),
    ],
)
def test_inplace_with_a_number_returns_self_and_bumps_the_version(op, arg, want):
    x = f64([1.0, 4.0])
    v = x._version
    assert getattr(x, op)(arg) is x
    assert x.tolist() == want and x.dtype == gradgen.float64
    assert x._version > v


def test_add_and_sub_in_place_take_alpha():
    x = f64([1.0, 2.0])
    x.add_(f64([1.0, 1.0]), alpha=2).sub_(1.0, 3)
    assert x.tolist() == [0.0, 1.0]


def test_inplace_refuses_a_leaf_that_requires_grad_and_a_result_self_cannot_hold():
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        f64([1.0], requires_grad=True).sqrt_()
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        gradgen.tensor([1, 4]).sqrt_()
    with pytest.raises(RuntimeError, match="can't be cast"):
        gradgen.tensor([1, 4]).add_(1.5)
    n = gradgen.tensor([3, -4])
    assert n.neg_().tolist() == [-3, 4] and n.abs_().tolist() == [3, 4] and n.dtype == gradgen.int64


@pytest.mark.parametrize(
    "op, fn, deriv",
    [
        ("sqrt_", math.sqrt, lambda x: 0.5 / math.sqrt(x)),
        ("log_", math.log, lambda x: 1 / x),
        ("sigmoid_", lambda x: 1 / (1 + math.exp(-x)), lambda x: math.exp(-x) / (1 + math.exp(-x)) ** 2),
        ("tanh_", math.tanh, lambda x: 1 - math.tanh(x) ** 2),
        ("sin_", math.sin, math.cos),
        ("cos_", math.cos, lambda x: -math.sin(x)),
        ("reciprocal_", lambda x: 1 / x, lambda x: -1 / x**2),
        ("neg_", lambda x: -x, lambda x: -1.0),
        ("abs_", abs, lambda x: 1.0),
        ("exp_", math.exp, math.exp),
    ],
)
def test_unary_inplace_gradient_and_tangent_through_a_clone(op, fn, deriv):
    data = [0.5, 1.5, 2.0]
    x = f64(data, requires_grad=True)
    y = x.clone()
    assert getattr(y, op)() is y
    assert y.grad_fn is not None
    for a, b in zip(y.tolist(), data):
        assert abs(a - fn(b)) < 1e-12
    y.sum().backward()
    for g, b in zip(x.grad.tolist(), data):
        assert abs(g - deriv(b)) < 1e-9
    with fwAD.dual_level():
        d = fwAD.make_dual(f64(data), gradgen.ones(3, dtype=gradgen.float64)).clone()
        getattr(d, op)()
        tangent = fwAD.unpack_dual(d).tangent
        for t, b in zip(tangent.tolist(), data):
            assert abs(t - deriv(b)) < 1e-9


def test_inplace_on_a_view_updates_the_base_and_its_gradient():
    x = f64([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * 1.0
    y[1].pow_(2)
    assert y.tolist() == [[1.0, 2.0], [9.0, 16.0]]
    y.sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0], [6.0, 8.0]]


def test_comparison_in_place_has_a_zero_gradient():
    x = f64([1.0, 2.0], requires_grad=True)
    y = x.clone()
    y.lt_(1.5)
    (y * 3).sum().backward()
    assert y.tolist() == [1.0, 0.0] and x.grad.tolist() == [0.0, 0.0]


def test_copy_broadcasts_converts_and_is_differentiable_for_both():
    dst = f64([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], requires_grad=True)
    src = gradgen.tensor([1.0, 2.0, 3.0], dtype=gradgen.float32, requires_grad=True)
    y = dst * 1.0
    assert y.copy_(src) is y
    assert y.dtype == gradgen.float64 and y.tolist() == [[1.0, 2.0, 3.0]] * 2
    (y * f64([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    assert dst.grad.tolist() == [[0.0] * 3] * 2
    assert src.grad.dtype == gradgen.float32 and src.grad.tolist() == [5.0, 7.0, 9.0]
    z = gradgen.zeros(3, dtype=gradgen.int64)
    assert z.copy_(f64([1.7, -2.7, 0.2])).tolist() == [1, -2, 0]
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        gradgen.zeros(2, 3).copy_(gradgen.ones(1, 2, 3))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        f64([1.0], requires_grad=True).copy_(f64([2.0]))


def test_rsub():
    x = f64([1.0, 2.0])
    assert gradgen.rsub(x, 5.0, alpha=2).tolist() == [3.0, 1.0]
    assert gradgen.rsub(x, f64([1.0, 1.0])).tolist() == [0.0, -1.0]
    with pytest.raises(RuntimeError, match="bool"):
        gradgen.rsub(gradgen.tensor([True]), 1)


def test_out_returns_out_and_keeps_its_dtype():
    a = f64([[1.0, 2.0], [3.0, 4.0]])
    cases = [
        (lambda o: gradgen.add(a, 1.5, out=o), [[2.5, 3.5], [4.5, 5.5]]),
        (lambda o: gradgen.mul(a, 2.0, out=o), [[2.0, 4.0], [6.0, 8.0]]),
        (lambda o: gradgen.sub(a, a, alpha=2, out=o), [[-1.0, -2.0], [-3.0, -4.0]]),
        (lambda o: gradgen.div(a, 2.0, out=o), [[0.5, 1.0], [1.5, 2.0]]),
        (lambda o: gradgen.pow(a, 2, out=o), [[1.0, 4.0], [9.0, 16.0]]),
        (lambda o: gradgen.sum(a, 1, out=o), [3.0, 7.0]),
        (lambda o: gradgen.mean(a, 0, out=o), [2.0, 3.0]),
        (lambda o: gradgen.prod(a, 1, out=o), [2.0, 12.0]),
        (lambda o: gradgen.cumprod(a, 1, out=o), [[1.0, 2.0], [3.0, 12.0]]),
        (lambda o: gradgen.matmul(a, a, out=o), [[7.0, 10.0], [15.0, 22.0]]),
        (lambda o: gradgen.cat([a, a], 1, out=o), [[1.0, 2.0, 1.0, 2.0], [3.0, 4.0, 3.0, 4.0]]),
        (lambda o: gradgen.where(a > 2, a, 0.0 * a, out=o), [[0.0, 0.0], [3.0, 4.0]]),
    ]
    for call, want in cases:
        o = gradgen.zeros(0, dtype=gradgen.float32)
        assert call(o) is o
        assert o.dtype == gradgen.float32 and o.tolist() == want


def test_out_dtype_rules():
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        gradgen.exp(f64([1.0]), out=gradgen.zeros(0, dtype=gradgen.int64))
    # sum / prod / cumprod compute in out's dtype when dtype= is not given, as PyTorch.
    o = gradgen.zeros(0, dtype=gradgen.int64)
    assert gradgen.sum(f64([[1.5, 1.5]]), 1, out=o).tolist() == [2]
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype"):
        gradgen.sum(f64([[1.5]]), 1, dtype=gradgen.float64, out=gradgen.zeros(0, dtype=gradgen.int64))
    o = gradgen.zeros(0, dtype=gradgen.float64)
    assert gradgen.randperm(3, out=o) is o and sorted(o.tolist()) == [0.0, 1.0, 2.0]


def test_out_resizes_with_pytorchs_warning_and_refuses_inputs_that_require_grad():
    o = gradgen.zeros(5, dtype=gradgen.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gradgen.exp(f64([0.0, 0.0]), out=o)
    assert o.tolist() == [1.0, 1.0]
    assert any("was resized" in str(w.message) for w in caught)
    with pytest.raises(RuntimeError, match="exp.out: out= variants do not support automatic differentiation"):
        gradgen.exp(f64([1.0], requires_grad=True), out=gradgen.zeros(0, dtype=gradgen.float64))
