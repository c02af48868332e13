"""The checks of a generated `<name>_py_gradcheck_test`, one call of run_case per case.

The codegen (tools/codegen/gen_gradcheck_test.py) writes, from the library's samples file, one
`Case` per sample and Tensor[] length: its inputs (shape, dtype, domain, requires_grad) and the
calls of the op through the library's Python bindings: the function or method, its in-place
method and its out= form. run_case then checks, as the C++ `<name>_gradcheck_test` does:

  - history: each output requires grad exactly when it is differentiable, floating and an input
    requires grad;
  - gradcheck (and gradgradcheck unless the samples skip it) in float64 against central
    differences (gradgen.autograd.gradcheck);
  - forward mode (fwgradcheck): the JVP of dual inputs against finite differences;
  - layout, for inputs the samples lay out (transposed, strided, expanded): the values and first
    gradients equal those on contiguous copies;
  - the in-place method gives the out-of-place values; out= writes the values the function returns.

A failure is an AssertionError naming the op, the sample and the input:
`polyval sample 2 (coeffs: 2 x [2, 3], x: [2, 3]): d/d x: analytical vs numerical differ at ...`.
"""

from __future__ import annotations

import math
import random
import unittest
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple

import gradgen
from gradgen.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck

__all__ = ["Input", "Case", "make_inputs", "run_case", "as_float32", "float64_outputs"]


@dataclass(frozen=True)
class Input:
    """One tensor a case makes: `coeffs[1]` of shape (4,), float64, in its domain."""

    label: str
    shape: Tuple[int, ...]
    # "float64", "float32", "int64" or "bool".
    dtype: str
    # "default" (normal), "positive", "nonzero", "distinct" or "range" (uniform in [lo, hi]).
    domain: str
    lo: float
    hi: float
    requires_grad: bool
    # "contiguous", "transposed" (the last two dims swapped in storage), "strided" (every other
    # element of a buffer twice as long in the last dim, NaN between) or "expanded" (stride 0 in
    # dim 0: the first slice repeated).
    layout: str = "contiguous"


@dataclass(frozen=True)
class Case:
    """One run of the checks: a sample of an op with its Tensor[] lengths fixed."""

    op: str
    sample: int
    label: str
    inputs: Tuple[Input, ...]
    # fn(inputs) calls the op and returns its result; inplace(inputs) calls the in-place method
    # on a copy of `self` and returns it; out(inputs, outs) calls the out= form.
    fn: Callable[[List[gradgen.Tensor]], object]
    inplace: Optional[Callable[[List[gradgen.Tensor]], object]] = None
    inplace_name: str = ""
    out: Optional[Callable[[List[gradgen.Tensor], List[gradgen.Tensor]], object]] = None
    differentiable_outputs: Tuple[bool, ...] = (True,)
    gradgradcheck: bool = True
    fwgradcheck: bool = False
    history: bool = True
    skip: str = ""
    atol: float = 1e-5
    rtol: float = 1e-3
    # The finite differences' step (1e-3 for a float32 case).
    eps: float = 1e-6

    @property
    def id(self) -> str:
        return f"{self.op} sample {self.sample} ({self.label})"


_DTYPES = {"float64": "float64", "float32": "float32", "int64": "int64", "bool": "bool"}


def _values(spec: Input, numel: int, rng: random.Random) -> List[float]:
    integral = spec.dtype in ("int64", "bool")
    if spec.domain == "distinct":
        order = list(range(numel))
        rng.shuffle(order)
        step = 4.0 / max(numel, 1)
        v = [0.0] * numel
        for k, pos in enumerate(order):
            v[pos] = float(k) if integral else -2.0 + step * (k + 0.25 + 0.5 * rng.random())
        return v
    out = []
    for _ in range(numel):
        if spec.domain == "positive":
            x = 1.0 + math.floor(3 * rng.random()) if integral else 0.5 + 1.5 * rng.random()
        elif spec.domain == "nonzero":
            m = 1.0 + math.floor(3 * rng.random()) if integral else 0.5 + 1.5 * rng.random()
            x = -m if rng.random() < 0.5 else m
        elif spec.domain == "range":
            if integral:
                x = min(math.floor(spec.lo + (spec.hi - spec.lo + 1) * rng.random()), spec.hi)
            else:
                x = spec.lo + (spec.hi - spec.lo) * rng.random()
        else:
            x = math.floor(-3 + 7 * rng.random()) if integral else rng.gauss(0.0, 1.0)
        if spec.dtype == "bool":
            x = 1.0 if x > 0 else 0.0
        out.append(x)
    return out


def make_inputs(specs: Sequence[Input], seed: int) -> List[gradgen.Tensor]:
    """The tensors of a case: values drawn from each input's domain (the same for the same seed)."""
    rng = random.Random(seed)
    tensors = []
    for spec in specs:
        numel = math.prod(spec.shape)
        values = _values(spec, numel, rng)
        dtype = getattr(gradgen, _DTYPES[spec.dtype])
        if spec.dtype == "bool":
            data = [v != 0 for v in values]
        elif spec.dtype == "int64":
            data = [int(v) for v in values]
        else:
            data = values
        t = _laid_out(gradgen.tensor(data, dtype=dtype).reshape(list(spec.shape)), spec.layout)
        if spec.requires_grad:
            t.requires_grad_(True)
        tensors.append(t)
    return tensors


def _laid_out(t: gradgen.Tensor, layout: str) -> gradgen.Tensor:
    """t's values at the strides `layout` asks for (as the C++ runner lays them out)."""
    if layout == "contiguous":
        return t
    if layout == "transposed":
        return t.transpose(-2, -1).contiguous().transpose(-2, -1).detach()
    if layout == "expanded":
        return t[0].expand(list(t.shape)).detach()
    if layout == "strided":
        shape = list(t.shape)
        fill = math.nan if t.dtype in (gradgen.float64, gradgen.float32) else 0
        buffer = gradgen.full(shape[:-1] + [2 * shape[-1]], fill, dtype=t.dtype)
        every_other = (slice(None),) * (len(shape) - 1) + (slice(None, None, 2),)
        buffer[every_other] = t
        return buffer[every_other].detach()
    raise ValueError(f"unknown sample layout {layout!r}")


def as_float32(leaf: gradgen.Tensor) -> gradgen.Tensor:
    """A float64 leaf as the float32 tensor a float32 input gives the op (differentiable)."""
    return leaf.to(gradgen.float32)


def float64_outputs(result):
    """A float32 case's result with its float32 tensors in float64 (differentiable)."""
    outs = [result] if isinstance(result, gradgen.Tensor) else list(result)
    return [o.to(gradgen.float64) if o is not None and o.dtype == gradgen.float32 else o for o in outs]


def _outputs(result) -> List[Optional[gradgen.Tensor]]:
    if isinstance(result, gradgen.Tensor):
        return [result]
    return list(result)


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if list(a.shape) != list(b.shape) or a.dtype != b.dtype:
        return False
    xs, ys = _flat(a.tolist()), _flat(b.tolist())
    for x, y in zip(xs, ys):
        if (isinstance(x, float) and math.isnan(x) and math.isnan(y)) or x == y:
            continue  # NaNs in the same places, equal infinities (-inf in _ctc_loss's log_alpha)
        if not abs(x - y) <= 1e-10 + 1e-7 * abs(y):
            return False
    return True


def _flat(v):
    if isinstance(v, (list, tuple)):
        return [x for e in v for x in _flat(e)]
    return [v]


def _history_problem(case: Case, inputs, outputs) -> str:
    any_grad = any(t.requires_grad for t in inputs)
    for o, out in enumerate(outputs):
        if out is None:
            continue
        diff = case.differentiable_outputs[min(o, len(case.differentiable_outputs) - 1)]
        expected = diff and out.dtype in (gradgen.float64, gradgen.float32) and any_grad
        if out.requires_grad != expected:
            if expected:
                return f"output {o} has no history, though it is differentiable and an input requires grad"
            why = "not differentiable" if any_grad else "computed from inputs that do not require grad"
            return f"output {o} has history, though it is {why}"
    return ""


def _fwgrad_problem(case: Case, inputs, eps: float = 1e-6) -> str:
    """<JVP of tangent u> against central differences along u, per differentiable output."""
    import gradgen.forward_ad as fwAD

    rng = random.Random(7)
    wrt = [k for k, t in enumerate(inputs) if t.requires_grad]
    tangents = {k: [rng.uniform(-1, 1) for _ in range(inputs[k].numel())] for k in wrt}

    def tensor(values, like):
        return gradgen.tensor(values, dtype=gradgen.float64).reshape(list(like.shape))

    with fwAD.dual_level():
        duals = list(inputs)
        for k in wrt:
            duals[k] = fwAD.make_dual(inputs[k].detach(), tensor(tangents[k], inputs[k]))
        outs = _outputs(case.fn(duals))
        jvps = [fwAD.unpack_dual(o).tangent if o is not None else None for o in outs]

    def moved(sign):
        xs = list(inputs)
        for k in wrt:
            base = _flat(inputs[k].tolist())
            xs[k] = tensor([b + sign * eps * u for b, u in zip(base, tangents[k])], inputs[k])
        return _outputs(case.fn(xs))

    plus, minus = moved(1.0), moved(-1.0)
    for o, out in enumerate(outs):
        if (
            out is None
            or out.dtype != gradgen.float64
            or not case.differentiable_outputs[min(o, len(case.differentiable_outputs) - 1)]
        ):
            continue
        numerical = [(p - m) / (2 * eps) for p, m in zip(_flat(plus[o].tolist()), _flat(minus[o].tolist()))]
        analytical = _flat(jvps[o].tolist()) if jvps[o] is not None else [0.0] * len(numerical)
        for j, (a, n) in enumerate(zip(analytical, numerical)):
            if not abs(a - n) <= case.atol + case.rtol * abs(n):
                return f"forward mode: output {o}: JVP vs numerical differ at element {j}: {a:.6g} vs {n:.6g}"
    return ""


def _differentiable_part(case: Case):
    """case.fn with its non-differentiable outputs as None, so that gradcheck skips them, as
    PyTorch's gradcheck skips the outputs that do not require grad (a float output the formulas
    do not differentiate, such as native_layer_norm's mean, has no Jacobian to compare)."""
    flags = case.differentiable_outputs

    def fn(*xs):
        outs = _outputs(case.fn(list(xs)))
        return [out if flags[min(o, len(flags) - 1)] else None for o, out in enumerate(outs)]

    return fn


def _values_and_gradients(case: Case, inputs) -> list:
    """The outputs, and the gradients of <w, differentiable outputs> (fixed weights w) with
    respect to the inputs that require grad."""
    outs = _outputs(case.fn(inputs))
    flags = case.differentiable_outputs
    diff = [
        o
        for k, o in enumerate(outs)
        if o is not None and flags[min(k, len(flags) - 1)] and o.requires_grad and o.dtype == gradgen.float64
    ]
    wrt = [t for t in inputs if t.requires_grad]
    if not diff or not wrt:
        return outs
    weights = [
        gradgen.tensor([(k % 7 + 1) / 4 for k in range(o.numel())], dtype=gradgen.float64).reshape(list(o.shape))
        for o in diff
    ]
    grads = gradgen.autograd.grad(diff, wrt, grad_outputs=weights, allow_unused=True)
    return outs + list(grads)


def _layout_problem(case: Case, inputs) -> str:
    """On the laid-out inputs the op gives the values and gradients of contiguous copies."""
    if all(i.layout == "contiguous" for i in case.inputs):
        return ""
    copies = []
    for spec, t in zip(case.inputs, inputs):
        if spec.layout == "contiguous":
            copies.append(t)
            continue
        c = t.detach().clone()
        copies.append(c.requires_grad_(True) if t.requires_grad else c)
    got, want = _values_and_gradients(case, inputs), _values_and_gradients(case, copies)
    n = len(_outputs(case.fn(inputs)))
    for k, (g, w) in enumerate(zip(got, want)):
        if not _same(g, w):
            what = f"output {k}" if k < n else f"the gradient {k - n}"
            return f"layout: {what} differs from the one computed on contiguous copies of the inputs"
    return ""


def _checks(case: Case, inputs: List[gradgen.Tensor]) -> str:
    outputs = _outputs(case.fn(inputs))
    if case.history:
        problem = _history_problem(case, inputs, outputs)
        if problem:
            return problem
    problem = _layout_problem(case, inputs)
    if problem:
        return problem
    any_grad = any(t.requires_grad for t in inputs)
    names = [i.label for i in case.inputs]
    tol = dict(eps=case.eps, atol=case.atol, rtol=case.rtol, names=names)
    if any_grad:
        try:
            gradcheck(_differentiable_part(case), inputs, **tol)
            if case.gradgradcheck:
                try:
                    gradgradcheck(_differentiable_part(case), inputs, **tol)
                except GradcheckError as e:
                    return f"second derivatives: {e}"
        except GradcheckError as e:
            return str(e)
        if case.fwgradcheck:
            problem = _fwgrad_problem(case, inputs, case.eps)
            if problem:
                return problem
    if case.inplace is not None:
        with gradgen.no_grad():
            expected = _outputs(case.fn(inputs))
            got = _outputs(case.inplace(inputs))
        if not all(_same(g, e) for g, e in zip(got, expected)):
            return f"{case.inplace_name} (in-place) gives other values than {case.op}"
    if case.out is not None:
        plain = [t.detach() for t in inputs]
        with gradgen.no_grad():
            expected = _outputs(case.fn(plain))
            outs = [gradgen.empty(list(e.shape), dtype=e.dtype) for e in expected]
            case.out(plain, outs)
        for o, (got, want) in enumerate(zip(outs, expected)):
            if not _same(got, want):
                return f"{case.op} (out=) writes other values than {case.op} returns (output {o})"
    return ""


def run_case(case: Case, seed: int = 0) -> None:
    """Runs every check of `case`; raises AssertionError naming the op, the sample and the problem,
    or unittest.SkipTest (a skip to pytest too) for a case the samples skip."""
    if case.skip:
        raise unittest.SkipTest(f"{case.id}: {case.skip}")
    try:
        problem = _checks(case, make_inputs(case.inputs, seed))
    except (RuntimeError, TypeError, ValueError, IndexError) as e:
        problem = f"threw {type(e).__name__}: {e}"
    if problem:
        raise AssertionError(f"{case.id}: {problem}")
