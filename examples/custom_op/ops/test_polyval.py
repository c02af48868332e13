"""polyval from Python: the module that `python_module = "polyval_ops_py"` builds."""

import polyval_ops_py
import pytest

import gradgen


def t(data, requires_grad=True):
    return gradgen.tensor(data, dtype=gradgen.float64, requires_grad=requires_grad)


def test_values_and_gradients_against_finite_differences():
    c0, c1, c2 = t([1.0, -1.0]), t([2.0, 0.5]), t([0.5, 3.0])
    x = t([0.3, -1.2])
    y = polyval_ops_py.polyval([c0, c1, c2], x)
    expected = [a + b * v + c * v * v for a, b, c, v in zip(c0.tolist(), c1.tolist(), c2.tolist(), x.tolist())]
    assert y.tolist() == pytest.approx(expected)
    assert y.grad_fn.name() == "PolyvalBackward0"
    y.sum().backward()
    assert c2.grad.tolist() == pytest.approx([v * v for v in x.tolist()])
    # d/dx by central differences, computed in Python.
    eps = 1e-6

    def f(xs):
        return [a + b * v + c * v * v for a, b, c, v in zip(c0.tolist(), c1.tolist(), c2.tolist(), xs)]

    xs = x.tolist()
    numeric = [
        (
            f([v + eps if j == i else v for j, v in enumerate(xs)])[i]
            - f([v - eps if j == i else v for j, v in enumerate(xs)])[i]
        )
        / (2 * eps)
        for i in range(2)
    ]
    assert x.grad.tolist() == pytest.approx(numeric, rel=1e-6)


def test_x_gradient_lands_in_the_slot_after_the_list():
    x = t([2.0])
    for n in (2, 3):
        y = polyval_ops_py.polyval([t([1.0]) for _ in range(n)], x)
        assert len(y.grad_fn.next_functions) == n + 1


def test_grad_mode_is_shared_with_gradgen():
    with gradgen.no_grad():
        y = polyval_ops_py.polyval([t([1.0]), t([2.0])], t([3.0]))
    assert y.grad_fn is None and not y.requires_grad


def test_a_wrong_call_lists_the_signature():
    with pytest.raises(TypeError, match=r"polyval\(coeffs: "):
        polyval_ops_py.polyval(t([1.0]), 2)
