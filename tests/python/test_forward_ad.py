"""Forward-mode AD from Python: dual_level, make_dual, unpack_dual; JVPs and a Hessian-vector
product checked against central finite differences in float64."""

import math

import pytest

import gradgen
import gradgen.forward_ad as fwAD
from gradgen import autograd

EPS = 1e-6


def f(x, w):
    return gradgen.tanh(x * w) + x * x / 3


def test_jvp_matches_finite_differences():
    x_values, w_values, v_values = [0.5, -1.0, 2.0], [1.5, 0.3, -0.7], [1.0, -2.0, 0.5]
    w = gradgen.tensor(w_values, dtype=gradgen.float64)
    with fwAD.dual_level():
        y = f(
            fwAD.make_dual(
                gradgen.tensor(x_values, dtype=gradgen.float64), gradgen.tensor(v_values, dtype=gradgen.float64)
            ),
            w,
        )
        primal, tangent = fwAD.unpack_dual(y)
        jvp = tangent.tolist()
    assert primal.tolist() == pytest.approx(f(gradgen.tensor(x_values, dtype=gradgen.float64), w).tolist())
    up = f(gradgen.tensor([a + EPS * b for a, b in zip(x_values, v_values)], dtype=gradgen.float64), w).tolist()
    down = f(gradgen.tensor([a - EPS * b for a, b in zip(x_values, v_values)], dtype=gradgen.float64), w).tolist()
    numerical = [(u - d) / (2 * EPS) for u, d in zip(up, down)]
    assert jvp == pytest.approx(numerical, rel=1e-6, abs=1e-8)


def test_unpack_dual_is_a_named_tuple_and_tangents_end_with_the_level():
    x = gradgen.tensor([1.0, 2.0])
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, gradgen.ones(2))
        parts = fwAD.unpack_dual(dual)
        assert parts.tangent.tolist() == [1.0, 1.0]
        assert fwAD.unpack_dual(parts.primal).tangent is None
        assert fwAD.unpack_dual(x).tangent is None
    with fwAD.dual_level():
        assert fwAD.unpack_dual(dual).tangent is None  # a tangent of an old level is gone


def test_errors():
    x = gradgen.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="no dual level is active"):
        fwAD.make_dual(x, x)
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="nested dual levels are not supported"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match=r"expected a tangent of shape \[2\] \(the primal's\), found \[3\]"):
            fwAD.make_dual(x, gradgen.ones(3))
        dual = fwAD.make_dual(gradgen.ones(2, 3), gradgen.ones(2, 3))
        h = gradgen.zeros(2, 2)
        with pytest.raises(RuntimeError, match="forward-mode AD not implemented for lstm_cell"):
            gradgen.lstm_cell(dual, [h, h], gradgen.ones(8, 3), gradgen.ones(8, 2))


def test_hessian_vector_product_by_forward_over_reverse():
    # g(x) = sum(x^3) / 3 + sum(sin(x)): H v = (2 x - sin(x)) * v.
    x_values, v_values = [0.3, -1.2, 0.8], [1.0, 0.5, -2.0]
    x = gradgen.tensor(x_values, requires_grad=True, dtype=gradgen.float64)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, gradgen.tensor(v_values, dtype=gradgen.float64))
        (g,) = autograd.grad(gradgen.sum(dual * dual * dual / 3 + gradgen.sin(dual)), x, create_graph=True)
        hvp = fwAD.unpack_dual(g).tangent.tolist()
    exact = [(2 * a - math.sin(a)) * b for a, b in zip(x_values, v_values)]
    assert hvp == pytest.approx(exact, rel=1e-10, abs=1e-12)
