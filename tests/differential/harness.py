"""Runs one differential case through a tensor library and records what it did.

The same code runs under PyTorch (run_torch.py, which writes expected.json) and under gradgen
(test_differential.py, which compares): `T` is the library's module (torch, or gradgen), so a
case is written once, with PyTorch's calling conventions, and both libraries run exactly it.

A record holds the outputs (dtype, shape, values in row-major order), the gradients of a fixed
weighted sum of the floating outputs with respect to every input that requires grad, and, for
cases marked `second`, the gradients of a weighted sum of those gradients (second derivatives,
through create_graph=True). A case that raises records only that it raised.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence


def dtype_name(dtype) -> str:
    return str(dtype).split(".")[-1]


def _flat(v) -> List:
    if isinstance(v, (list, tuple)):
        out: List = []
        for x in v:
            out.extend(_flat(x))
        return out
    return [v]


def _nest(values: Sequence, shape: Sequence[int]):
    if not shape:
        return values[0]  # 0-dim
    step = 1
    for s in shape[1:]:
        step *= s
    return [_nest(values[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


def weights(n: int, salt: int) -> List[float]:
    """The fixed weights of the weighted sums: distinct, positive and negative, exact in binary."""
    return [0.5 + 0.25 * ((3 * i + salt) % 7) - (1.0 if (i + salt) % 3 == 0 else 0.0) for i in range(n)]


def _numel(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _weighted_sum(T, tensors, salt: int):
    total = None
    for k, t in enumerate(tensors):
        if t is None or not t.requires_grad:
            continue
        shape = list(t.shape)
        if _numel(shape) == 0:
            w = T.zeros(shape, dtype=t.dtype)
        else:
            w = T.tensor(_nest(weights(_numel(shape), salt + k), shape), dtype=t.dtype)
        term = (t * w).sum()
        total = term if total is None else total + term
    return total


def describe(t) -> Optional[Dict[str, Any]]:
    if t is None:
        return None
    if getattr(t, "_is_zerotensor", lambda: False)():
        # PyTorch's efficient zero tensor (a gradient known to be zero) has no storage to list.
        values = [0.0] * _numel(list(t.shape))
    else:
        values = _flat(t.detach().tolist())
    return {"dtype": dtype_name(t.dtype), "shape": list(t.shape), "values": values}


def make_input(T, spec: Dict[str, Any]):
    data = spec["data"]
    t = T.tensor(data, dtype=getattr(T, spec["dtype"]))
    if spec.get("grad"):
        t.requires_grad_(True)
    return t


def _outputs(result) -> List:
    if isinstance(result, (list, tuple)):
        return list(result)
    return [result]


def run(T, case) -> Dict[str, Any]:
    """Runs `case` (a cases.Case) with library T and returns its record (JSON-serialisable)."""
    inputs = [make_input(T, s) for s in case.inputs]
    try:
        outs = _outputs(case.fn(T, *inputs))
    except (RuntimeError, ValueError, TypeError, IndexError) as e:
        return {"error": type(e).__name__}
    record: Dict[str, Any] = {"outputs": [describe(o) for o in outs]}
    diff = [t for t in inputs if t.requires_grad]
    loss = _weighted_sum(T, outs, 0)
    if not diff or loss is None:
        return record
    try:
        grads = T.autograd.grad(loss, diff, create_graph=case.second, allow_unused=True)
    except (RuntimeError, ValueError) as e:
        record["grad_error"] = type(e).__name__
        return record
    record["grads"] = [describe(g) for g in grads]
    if case.second:
        loss2 = _weighted_sum(T, grads, 1)
        if loss2 is None:
            record["grads2"] = [None] * len(diff)
        else:
            try:
                grads2 = T.autograd.grad(loss2, diff, allow_unused=True)
                record["grads2"] = [describe(g) for g in grads2]
            except (RuntimeError, ValueError) as e:
                record["grads2_error"] = type(e).__name__
    return record
