"""gradcheck and gradgradcheck: analytical gradients against central finite differences.

As torch.autograd.gradcheck: `func(*inputs)` returns a Tensor or a sequence of them; every
float64 input that requires grad is differentiated. The check builds both Jacobians in full:

  - numerical: column j of d(outputs)/d(input i) is (f(x + eps e_j) - f(x - eps e_j)) / (2 eps),
    with the perturbed inputs made from plain Python floats (`tolist()`), so the reference never
    goes through the backward formulas under test;
  - analytical: row k is the vector-Jacobian product `gradgen.autograd.grad` computes for the
    one-hot output gradient e_k.

The two must agree within atol + rtol * |numerical| everywhere. On a mismatch GradcheckError (a
RuntimeError, as PyTorch's) names the output, the input, the element and both values, with the
largest difference. gradgradcheck runs the same check on the first derivative, made with
create_graph=True, with respect to the inputs and to the output gradients: every formula's own
derivative is tested.
"""

from __future__ import annotations

import math
import random
from typing import Callable, List, Optional, Sequence, Tuple

from gradgen import _C

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """A gradient check failed: the message says where, and by how much."""


def _flat(values) -> List[float]:
    if isinstance(values, (list, tuple)):
        return [x for v in values for x in _flat(v)]
    return [float(values)]


def _index(k: int, shape: Sequence[int]) -> str:
    """The multi-index of flat element k of `shape`, as `[1, 0]`."""
    idx = []
    for d in reversed(list(shape)):
        idx.append(k % d if d else 0)
        k = k // d if d else 0
    return "[" + ", ".join(str(i) for i in reversed(idx)) + "]"


def _from_flat(values: Sequence[float], shape: Sequence[int], requires_grad: bool = False) -> _C.Tensor:
    """A float64 tensor of `shape` holding `values` in row-major order."""
    import gradgen

    t = gradgen.tensor(list(values), dtype=gradgen.float64).reshape(list(shape))
    if requires_grad:
        t.requires_grad_(True)
    return t


def _as_outputs(result, what: str) -> List[_C.Tensor]:
    if isinstance(result, _C.Tensor):
        return [result]
    if isinstance(result, (list, tuple)) and all(r is None or isinstance(r, _C.Tensor) for r in result):
        return list(result)
    raise TypeError(f"{what}: the function must return a Tensor or a sequence of Tensors, got {type(result).__name__}")


def _is_checked(o: Optional[_C.Tensor]) -> bool:
    import gradgen

    return o is not None and o.dtype == gradgen.float64


def _fail(message: str, raise_exception: bool) -> bool:
    if raise_exception:
        raise GradcheckError(message)
    return False


def _numerical(func, inputs, i: int, eps: float, outs_shape) -> List[List[List[float]]]:
    """Per checked output, per element of input i: the column of central differences. The moved
    input requires grad as the original does: func may differentiate (gradgradcheck's does)."""
    base = _flat(inputs[i].tolist())
    columns: List[List[List[float]]] = [[] for _ in outs_shape]
    for j in range(len(base)):
        results = []
        for sign in (1.0, -1.0):
            moved = list(inputs)
            values = list(base)
            values[j] += sign * eps
            moved[i] = _from_flat(values, inputs[i].shape, requires_grad=inputs[i].requires_grad)
            outs = _as_outputs(func(*moved), "gradcheck")
            results.append([_flat(o.tolist()) if _is_checked(o) else None for o in outs])
        for o in range(len(outs_shape)):
            plus, minus = results[0][o], results[1][o]
            if plus is None or minus is None:
                columns[o].append([])
            else:
                columns[o].append([(p - m) / (2 * eps) for p, m in zip(plus, minus)])
    return columns


def _analytical(outs, checked, shapes, sizes, inputs, wrt, label):
    """(output o, input i) -> the rows of d(output o)/d(input i): row k is the gradient of output
    o's element k (one backward pass each), zeros where the output has no history or the input
    is unused. An output or input without elements has an empty block (no rows, or rows without
    entries): nothing to compare. A gradient of the wrong shape raises GradcheckError."""
    import gradgen

    analytical = {(o, i): [] for o in checked for i in wrt}
    for o in checked:
        for k in range(sizes[o]):
            grads = [None] * len(wrt)
            if outs[o].requires_grad:
                onehot = [0.0] * sizes[o]
                onehot[k] = 1.0
                grads = gradgen.autograd.grad(
                    [outs[o]],
                    [inputs[i] for i in wrt],
                    grad_outputs=[_from_flat(onehot, shapes[o])],
                    retain_graph=True,
                    allow_unused=True,
                )
            for i, g in zip(wrt, grads):
                if g is not None and list(g.shape) != list(inputs[i].shape):
                    raise GradcheckError(
                        f"d(output {o})/d {label(i)}: the gradient has shape {list(g.shape)}, expected "
                        f"{list(inputs[i].shape)}"
                    )
                n = len(_flat(inputs[i].tolist()))
                analytical[(o, i)].append(_flat(g.tolist()) if g is not None else [0.0] * n)
    return analytical


def gradcheck(
    func: Callable[..., object],
    inputs,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    names: Optional[Sequence[str]] = None,
) -> bool:
    """Whether func's analytical gradients agree with central differences at `inputs`.

    inputs: a Tensor or a sequence of arguments (tensors and other values, passed as they are);
    the float64 tensors that require grad are checked. names: how messages call each input
    (default `input 0`, `input 1`, ...). Raises GradcheckError on a mismatch, or returns False
    with raise_exception=False."""
    import gradgen

    inputs = [inputs] if isinstance(inputs, _C.Tensor) else list(inputs)
    label = (lambda i: names[i]) if names is not None else (lambda i: f"input {i}")
    wrt = [i for i, x in enumerate(inputs) if isinstance(x, _C.Tensor) and x.requires_grad]
    if not wrt:
        raise ValueError("gradcheck: no input is a Tensor that requires grad")
    for i in wrt:
        if inputs[i].dtype != gradgen.float64:
            raise ValueError(
                f"gradcheck: {label(i)} requires grad but is {inputs[i].dtype}; check in float64 (finite differences "
                "in lower precision are too coarse)"
            )
    outs = _as_outputs(func(*inputs), "gradcheck")
    checked = [k for k, o in enumerate(outs) if _is_checked(o)]
    if not checked:
        raise ValueError("gradcheck: the function returned no float64 tensor")
    shapes = [list(o.shape) if _is_checked(o) else None for o in outs]
    sizes = [len(_flat(o.tolist())) if _is_checked(o) else 0 for o in outs]
    try:
        analytical = _analytical(outs, checked, shapes, sizes, inputs, wrt, label)
    except GradcheckError as e:
        return _fail(str(e), raise_exception)
    worst: Optional[Tuple[float, str]] = None
    for i in wrt:
        columns = _numerical(func, inputs, i, eps, shapes)
        for o in checked:
            # An output without elements has no rows (and its columns are empty).
            rows = analytical.get((o, i), [])
            for j, column in enumerate(columns[o]):
                for k, numerical in enumerate(column):
                    a = rows[k][j]
                    bad = not (abs(a - numerical) <= atol + rtol * abs(numerical)) and not (
                        math.isnan(a) and math.isnan(numerical)
                    )
                    if not bad:
                        continue
                    diff = abs(a - numerical) if not (math.isnan(a) or math.isnan(numerical)) else math.inf
                    if worst is None or diff > worst[0]:
                        d = f"d/d {label(i)}" if len(outs) == 1 else f"d(output {o})/d {label(i)}"
                        where = _index(j, inputs[i].shape)
                        out_where = _index(k, shapes[o])
                        if out_where != where:
                            where += f" (output element {out_where})"
                        worst = (diff, f"{d}: analytical vs numerical differ at {where}: {a:.6g} vs {numerical:.6g}")
    if worst is not None:
        return _fail(worst[1], raise_exception)
    return True


def gradgradcheck(
    func: Callable[..., object],
    inputs,
    grad_outputs=None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    names: Optional[Sequence[str]] = None,
    seed: int = 0,
) -> bool:
    """gradcheck of the first derivative: x, v -> J(x)^T v, made with create_graph=True, with
    respect to the inputs and to the output gradients v (random, or `grad_outputs`)."""
    import gradgen

    inputs = [inputs] if isinstance(inputs, _C.Tensor) else list(inputs)
    wrt = [i for i, x in enumerate(inputs) if isinstance(x, _C.Tensor) and x.requires_grad]
    if not wrt:
        raise ValueError("gradgradcheck: no input is a Tensor that requires grad")
    outs = [o for o in _as_outputs(func(*inputs), "gradgradcheck") if _is_checked(o) and o.requires_grad]
    if grad_outputs is None:
        rng = random.Random(seed)
        grad_outputs = [
            _from_flat([rng.uniform(-1, 1) for _ in _flat(o.tolist())], o.shape, requires_grad=True) for o in outs
        ]
    else:
        grad_outputs = [grad_outputs] if isinstance(grad_outputs, _C.Tensor) else list(grad_outputs)
    n = len(inputs)

    def first_derivative(*xs):
        ins, vs = xs[:n], xs[n:]
        res = [o for o in _as_outputs(func(*ins), "gradgradcheck") if _is_checked(o) and o.requires_grad]
        if not res:
            return tuple(gradgen.zeros_like(ins[i]) for i in wrt)
        grads = gradgen.autograd.grad(
            res, [ins[i] for i in wrt], grad_outputs=list(vs), create_graph=True, allow_unused=True
        )
        return tuple(g if g is not None else gradgen.zeros_like(ins[i]) for i, g in zip(wrt, grads))

    base = list(names) if names is not None else [f"input {i}" for i in range(n)]
    labels = base + [f"grad_output {k}" for k in range(len(grad_outputs))]
    return gradcheck(
        first_derivative,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        names=labels,
    )
