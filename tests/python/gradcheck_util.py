"""Finite-difference gradient checks of gradgen ops from Python, independent of gradgen's math.

The checks are directional, as in PyTorch's fast gradcheck: for random directions u (one per
input) and weights v (one per output), the analytical vector-Jacobian product J^T v that
`gradgen.autograd.grad` computes must satisfy

    <J^T v, u> == d/de <v, f(x + e u)> at e = 0

with the right side from central differences in float64. Perturbed inputs and the dot products
are computed in plain Python from `.tolist()`, so the reference never goes through the ops under
test. `gradgradcheck` applies the same check to the gradient itself (created with
create_graph=True), which tests every formula's own derivative.
"""

from __future__ import annotations

import math
import random
from typing import Callable, List, Sequence

import gradgen


def flat(values) -> List[float]:
    """A nested list (or number) from .tolist() as a flat list of floats."""
    if isinstance(values, (list, tuple)):
        return [x for v in values for x in flat(v)]
    return [float(values)]


def tensor_like(values: Sequence[float], like: gradgen.Tensor, requires_grad: bool = False) -> gradgen.Tensor:
    """A float64 tensor of `like`'s shape holding `values` (row-major)."""
    shape = list(like.shape)

    def nest(vals, dims):
        if not dims:
            return vals[0]
        step = len(vals) // dims[0] if dims[0] else 0
        return [nest(vals[i * step : (i + 1) * step], dims[1:]) for i in range(dims[0])]

    data = nest(list(values), shape) if shape else values[0]
    return gradgen.tensor(data, dtype=gradgen.float64, requires_grad=requires_grad)


def _outputs(result) -> List[gradgen.Tensor]:
    if isinstance(result, gradgen.Tensor):
        result = [result]
    return [r for r in result if isinstance(r, gradgen.Tensor) and r.dtype == gradgen.float64]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return math.fsum(x * y for x, y in zip(a, b))


def gradcheck(
    fn: Callable[..., object],
    inputs: Sequence[gradgen.Tensor],
    *,
    eps: float = 1e-6,
    atol: float = 1e-6,
    rtol: float = 1e-5,
    seed: int = 0,
    trials: int = 2,
) -> None:
    """Raises AssertionError when fn's analytical gradient (w.r.t. the inputs that require grad)
    disagrees with central differences. `fn(*inputs)` returns a Tensor or a tuple of them."""
    rng = random.Random(seed)
    wrt = [i for i, x in enumerate(inputs) if isinstance(x, gradgen.Tensor) and x.requires_grad]
    assert wrt, "no input requires grad"
    outs = _outputs(fn(*inputs))
    assert outs, "fn returned no float64 tensor"
    for _ in range(trials):
        v = [[rng.uniform(-1, 1) for _ in flat(o.tolist())] for o in outs]
        u = {i: [rng.uniform(-1, 1) for _ in flat(inputs[i].tolist())] for i in wrt}
        grads = gradgen.autograd.grad(
            outs,
            [inputs[i] for i in wrt],
            grad_outputs=[tensor_like(vi, o) for vi, o in zip(v, outs)],
            retain_graph=True,
            allow_unused=True,
        )
        analytic = 0.0
        for i, g in zip(wrt, grads):
            if g is not None:
                assert list(g.shape) == list(inputs[i].shape), (
                    f"gradient of input {i}: shape {list(g.shape)}, expected {list(inputs[i].shape)}"
                )
                analytic += _dot(flat(g.tolist()), u[i])

        def weighted(sign: float, u=u, v=v) -> float:
            moved = list(inputs)
            for i in wrt:
                base = flat(inputs[i].tolist())
                # Leaves that require grad, as the originals: fn may differentiate (gradgradcheck).
                moved_values = [b + sign * eps * d for b, d in zip(base, u[i])]
                moved[i] = tensor_like(moved_values, inputs[i], requires_grad=True)
            res = _outputs(fn(*moved))
            return math.fsum(_dot(flat(o.tolist()), vi) for o, vi in zip(res, v))

        numeric = (weighted(1.0) - weighted(-1.0)) / (2 * eps)
        assert abs(analytic - numeric) <= atol + rtol * abs(numeric), (
            f"gradient mismatch: analytical <J^T v, u> = {analytic!r}, finite differences = {numeric!r}"
        )
        outs = _outputs(fn(*inputs))


def gradgradcheck(fn: Callable[..., object], inputs: Sequence[gradgen.Tensor], *, seed: int = 1, **kwargs) -> None:
    """gradcheck of x -> J(x)^T v for a fixed v: checks the derivative of every formula used."""
    rng = random.Random(seed)
    outs = _outputs(fn(*inputs))
    v = [tensor_like([rng.uniform(-1, 1) for _ in flat(o.tolist())], o) for o in outs]
    wrt = [i for i, x in enumerate(inputs) if isinstance(x, gradgen.Tensor) and x.requires_grad]

    def first_derivative(*xs):
        res = _outputs(fn(*xs))
        grads = gradgen.autograd.grad(res, [xs[i] for i in wrt], grad_outputs=v, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None and g.requires_grad)

    if _outputs(first_derivative(*inputs)):
        gradcheck(first_derivative, inputs, seed=seed, **kwargs)
