"""Autograd from Python: backward, grad, create_graph, hooks, retain_grad, grad modes.

Gradients are checked against central finite differences in float64.
"""

import math

import pytest

import gradgen
from gradgen import autograd

EPS = 1e-6


def f(x, w):
    """A scalar function of two vectors built from operators only: [1, 1] shaped result."""
    y = x * x * w + x / 3 - w**2 + (x * w) ** 3 / 7
    return y[None] @ (x + 2)[:, None]  # [1, n] @ [n, 1]


def numeric_grad(fn, values, i):
    """d fn / d values[i] by central differences (fn takes a list of floats)."""
    up, down = list(values), list(values)
    up[i] += EPS
    down[i] -= EPS
    return (fn(up) - fn(down)) / (2 * EPS)


def value_of(x_values, w_values):
    with gradgen.no_grad():
        return f(
            gradgen.tensor(x_values, dtype=gradgen.float64), gradgen.tensor(w_values, dtype=gradgen.float64)
        ).item()


X = [0.3, -1.2, 0.7]
W = [1.1, 0.4, -0.6]


def test_backward_matches_finite_differences():
    x = gradgen.tensor(X, requires_grad=True, dtype=gradgen.float64)
    w = gradgen.tensor(W, requires_grad=True, dtype=gradgen.float64)
    out = f(x, w)
    assert out.shape == (1, 1)
    out.backward()
    for i in range(3):
        assert x.grad[i].item() == pytest.approx(numeric_grad(lambda v: value_of(v, W), X, i), rel=1e-6, abs=1e-8)
        assert w.grad[i].item() == pytest.approx(numeric_grad(lambda v: value_of(X, v), W, i), rel=1e-6, abs=1e-8)


def test_gradients_accumulate_and_can_be_cleared():
    x = gradgen.tensor([2.0], requires_grad=True)
    (x * 3).backward()
    (x * 3).backward()
    assert x.grad.tolist() == [6.0]
    x.grad = None
    assert x.grad is None
    (x * x).backward(gradgen.tensor([1.0]))
    assert x.grad.tolist() == [4.0]


def test_grad_returns_without_touching_dot_grad():
    x = gradgen.tensor(X, requires_grad=True, dtype=gradgen.float64)
    w = gradgen.tensor(W, requires_grad=True, dtype=gradgen.float64)
    gx, gw = autograd.grad(f(x, w), (x, w))
    assert x.grad is None and w.grad is None
    for i in range(3):
        assert gx[i].item() == pytest.approx(numeric_grad(lambda v: value_of(v, W), X, i), rel=1e-6, abs=1e-8)
    assert gw.shape == (3,)


def test_create_graph_gives_second_derivatives():
    x = gradgen.tensor(X, requires_grad=True, dtype=gradgen.float64)
    w = gradgen.tensor(W, dtype=gradgen.float64)
    (gx,) = autograd.grad(f(x, w), x, create_graph=True)
    assert gx.grad_fn is not None
    # d/dx_j of sum_i gx_i, against finite differences of the first derivative.
    (hx,) = autograd.grad(gx[None] @ gradgen.ones(3, dtype=gradgen.float64)[:, None], x)

    def first_derivative_sum(values):
        xv = gradgen.tensor(values, requires_grad=True, dtype=gradgen.float64)
        (g,) = autograd.grad(f(xv, gradgen.tensor(W, dtype=gradgen.float64)), xv)
        return sum(g.tolist())

    for j in range(3):
        assert hx[j].item() == pytest.approx(numeric_grad(first_derivative_sum, X, j), rel=1e-5, abs=1e-7)


def test_backward_with_create_graph_then_backward_again():
    x = gradgen.tensor([1.5], requires_grad=True)
    y = x**3
    y.backward(create_graph=True)  # x.grad = 3x^2, with history
    g = x.grad
    assert g.grad_fn is not None
    x.grad = None
    g.backward()  # d(3x^2)/dx = 6x
    assert x.grad.item() == pytest.approx(9.0)


def test_retain_graph():
    x = gradgen.tensor([1.0], requires_grad=True)
    y = x * x * 2
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.item() == 8.0
    with pytest.raises(RuntimeError):
        y.backward()  # the saved tensors are freed


def test_allow_unused():
    x = gradgen.tensor([1.0], requires_grad=True)
    z = gradgen.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError):
        autograd.grad(x * 2, [x, z])
    gx, gz = autograd.grad(x * 2, [x, z], allow_unused=True)
    assert gx.item() == 2.0 and gz is None


def test_autograd_backward_with_several_roots():
    x = gradgen.tensor([1.0, 2.0], requires_grad=True)
    autograd.backward([x * 2, x * x], [gradgen.ones(2), gradgen.tensor([1.0, 1.0])])
    assert x.grad.tolist() == [4.0, 6.0]


def test_grad_fn_graph():
    x = gradgen.tensor([1.0], requires_grad=True)
    y = x * 2 + x
    assert y.grad_fn.name() == "AddBackward0"
    (mul, _), (acc, nr) = y.grad_fn.next_functions
    assert mul.name() == "MulBackward0"  # as torch's: the 2 is a wrapped number, mul.Tensor
    assert isinstance(acc, autograd.AccumulateGrad) and acc.variable.data_ptr() == x.data_ptr()
    assert nr == 0
    assert mul.next_functions[0][0].name() == "AccumulateGrad"
    assert repr(y.grad_fn).startswith("<AddBackward0 object at 0x")
    assert not y.is_leaf and x.is_leaf


def test_register_hook_replaces_and_observes_gradients():
    x = gradgen.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    h = x * 3
    h.register_hook(lambda g: g * 2)
    handle = h.register_hook(lambda g: seen.append(g.tolist()))
    (h * h).backward(gradgen.ones(2))
    # dL/dh = 2h = [6, 12], doubled by the first hook, seen by the second, times 3 into x.
    assert seen == [[12.0, 24.0]]
    assert x.grad.tolist() == [36.0, 72.0]
    handle.remove()
    x.grad = None
    h2 = x * 3
    h2.register_hook(lambda g: None)
    h2.backward(gradgen.ones(2))
    assert x.grad.tolist() == [3.0, 3.0]


def test_hook_on_leaf_and_exceptions_propagate():
    x = gradgen.tensor([1.0], requires_grad=True)
    x.register_hook(lambda g: g + 1)
    (x * 5).backward()
    assert x.grad.item() == 6.0

    def boom(g):
        raise ValueError("from the hook")

    y = gradgen.tensor([1.0], requires_grad=True)
    y.register_hook(boom)
    with pytest.raises(ValueError, match="from the hook"):
        (y * 2).backward()
    with pytest.raises(TypeError, match="return None or a Tensor"):
        z = gradgen.tensor([1.0], requires_grad=True)
        z.register_hook(lambda g: 3)
        (z * 2).backward()


def test_retain_grad():
    x = gradgen.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    assert h.retains_grad
    (h * h).backward(gradgen.ones(2))
    assert h.grad.tolist() == [4.0, 8.0]


def test_no_grad_and_enable_grad_as_context_managers():
    x = gradgen.tensor([1.0], requires_grad=True)
    with gradgen.no_grad():
        assert not gradgen.is_grad_enabled()
        y = x * 2
        with gradgen.enable_grad():
            z = x * 2
    assert gradgen.is_grad_enabled()
    assert y.grad_fn is None and not y.requires_grad
    assert z.grad_fn is not None


def test_no_grad_as_decorator_and_restored_after_exceptions():
    @gradgen.no_grad()
    def step(t):
        assert not gradgen.is_grad_enabled()
        return t * 2

    x = gradgen.tensor([1.0], requires_grad=True)
    assert step(x).grad_fn is None
    assert step.__name__ == "step"
    with pytest.raises(KeyError):
        with gradgen.no_grad():
            raise KeyError("x")
    assert gradgen.is_grad_enabled()
    prev = gradgen.set_grad_enabled(False)
    assert not gradgen.is_grad_enabled()
    gradgen.set_grad_enabled(True)
    with gradgen.set_grad_enabled(False):
        assert not gradgen.is_grad_enabled()
    assert gradgen.is_grad_enabled()
    del prev


def test_in_place_on_a_leaf_that_requires_grad_is_refused():
    x = gradgen.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError):
        x += 1
    with gradgen.no_grad():
        x += 1  # an optimizer step
    assert x.item() == 2.0


@pytest.mark.parametrize(
    "fn, second",
    [
        (lambda v: v * v * v, lambda x: 6 * x),
        (lambda v: v.sin(), lambda x: -math.sin(x)),
        (lambda v: v.exp() * v, lambda x: math.exp(x) * (2 + x)),
    ],
    ids=["cube", "sin", "exp_times_self"],
)
def test_second_derivative_of_a_leaf_view_made_under_no_grad(fn, second):
    # PyTorch 2.13 gives f''(v) here; the saved input must be the leaf itself (issue 23).
    base = gradgen.tensor([[0.5, -1.0], [2.0, 0.25], [-1.5, 3.0]], dtype=gradgen.float64)
    with gradgen.no_grad():
        v = base.t()
    v.requires_grad = True
    assert v.is_leaf
    (g,) = autograd.grad(fn(v).sum(), v, create_graph=True)
    assert g.requires_grad
    (h,) = autograd.grad(g.sum(), v)
    for got, x in zip(h.flatten().tolist(), v.flatten().tolist()):
        assert got == pytest.approx(second(x), rel=1e-12, abs=1e-12)
