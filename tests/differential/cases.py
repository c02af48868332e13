"""The differential test's case list: every op of specs/ against PyTorch.

A case is a function of `T` (the library: torch or gradgen, same calling conventions) and its
input tensors, which harness.make_input builds from plain data, so the file imports neither
library. Names are unique and stable: expected.json is keyed by them. Add a case here, then
regenerate expected.json with run_torch.py (see README.md, "Differential test against PyTorch").
"""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, List, NamedTuple, Sequence

NAN = float("nan")
INF = float("inf")


class Case(NamedTuple):
    name: str
    fn: Callable[..., Any]
    inputs: List[Dict[str, Any]]
    second: bool = False


def _rand(shape: Sequence[int], seed: int, lo: float, hi: float):
    rng = random.Random(seed)

    def nest(dims):
        if not dims:
            return rng.uniform(lo, hi)
        return [nest(dims[1:]) for _ in range(dims[0])]

    return nest(list(shape))


def R(*shape: int, seed: int = 0, lo: float = -1.0, hi: float = 1.0, dtype: str = "float64", grad: bool = True):
    """A random input (uniform in [lo, hi)), requiring grad unless told otherwise."""
    return {"data": _rand(shape, seed, lo, hi), "dtype": dtype, "grad": grad and dtype.startswith("float")}


def P(*shape: int, seed: int = 0, dtype: str = "float64", grad: bool = True):
    """A positive input, in [0.5, 2)."""
    return R(*shape, seed=seed, lo=0.5, hi=2.0, dtype=dtype, grad=grad)


def D(data, dtype: str = "float64", grad: bool = True):
    """An input with the given values."""
    return {"data": data, "dtype": dtype, "grad": grad and dtype.startswith("float")}


def L(data):
    return D(data, "int64", False)


def B(data):
    return D(data, "bool", False)


CASES: List[Case] = []


def case(name: str, fn, *inputs, second: bool = False) -> None:
    CASES.append(Case(name, fn, list(inputs), second))


def error_message(call):
    """A case's function that runs `call` and returns its exception, `Type: first line of the
    message`, as a tensor of character codes (empty if it raised none): the message itself is
    compared with PyTorch's."""

    def run(T, *xs):
        try:
            call(T, *xs)
        except (RuntimeError, ValueError, TypeError, IndexError) as e:
            text = "%s: %s" % (type(e).__name__, str(e).splitlines()[0])
            return T.tensor([ord(c) for c in text], dtype=T.int64)
        return T.tensor([], dtype=T.int64)

    return run


SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, NAN, INF, -INF]

# ---------------------------------------------------------------------------------------------
# Unary element-wise ops
# ---------------------------------------------------------------------------------------------

UNARY = {
    "neg": (lambda T, x: T.neg(x), R),
    "exp": (lambda T, x: T.exp(x), R),
    "log": (lambda T, x: T.log(x), P),
    "tanh": (lambda T, x: T.tanh(x), R),
    "sigmoid": (lambda T, x: T.sigmoid(x), R),
    "relu": (lambda T, x: T.relu(x), R),
    "sin": (lambda T, x: T.sin(x), R),
    "cos": (lambda T, x: x.cos(), R),
    "sqrt": (lambda T, x: T.sqrt(x), P),
    "abs": (lambda T, x: T.abs(x), R),
    "sign": (lambda T, x: T.sign(x), R),
    "reciprocal": (lambda T, x: T.reciprocal(x), P),
}
SMOOTH = {"neg", "exp", "log", "tanh", "sigmoid", "sin", "cos", "sqrt", "reciprocal"}

for op, (f, dom) in UNARY.items():
    s = op in SMOOTH
    case(f"{op}/2x3", f, dom(2, 3, seed=1), second=s)
    case(f"{op}/0-dim", f, dom(seed=2), second=s)
    case(f"{op}/empty", f, D([[], []]))
    case(f"{op}/transposed", lambda T, x, f=f: f(T, x.t()), dom(3, 2, seed=3), second=s)
    case(f"{op}/expanded", lambda T, x, f=f: f(T, x.expand([3, 2])), dom(1, 2, seed=4), second=s)
    case(f"{op}/float32", f, dom(4, seed=5, dtype="float32"))
    case(f"{op}/special", f, D(SPECIAL))
    case(f"{op}/method-free-grad-of-view", lambda T, x, f=f: f(T, x.select(1, -1)), dom(2, 3, seed=6))

for op in ["neg", "abs", "sign", "relu"]:
    case(f"{op}/int64", UNARY[op][0], L([[3, -2, 0], [1, 0, -7]]))
case("exp_/clone", lambda T, x: T.exp_(x.clone()), R(3, seed=1), second=True)
case("exp_/method", lambda T, x: x.clone().exp_(), R(2, 2, seed=2))
case("exp_/nan", lambda T, x: x.clone().exp_(), D([NAN, -INF, INF, 0.0]))
case("relu_/method", lambda T, x: x.clone().relu_(), D([-1.0, 0.0, 2.0, NAN, -0.0]))
case("relu_/leaf-noop-grad", lambda T, x: T.relu_(x.clone()) * 2, R(2, 3, seed=3))
case("relu/zero", lambda T, x: T.relu(x), D([0.0, -0.0, 1e-300, -1e-300]))
case("abs/zero", lambda T, x: T.abs(x), D([0.0, -0.0, 3.0]), second=True)
case("sqrt/zero", lambda T, x: T.sqrt(x), D([0.0, 4.0, -1.0]))
case("log/zero-negative", lambda T, x: T.log(x), D([0.0, -1.0, INF, 1.0]))
case("reciprocal/zero", lambda T, x: T.reciprocal(x), D([0.0, -0.0, 2.0]))
case("tanh/large", lambda T, x: T.tanh(x), D([30.0, -30.0, 400.0, -400.0]), second=True)
case("sigmoid/large", lambda T, x: T.sigmoid(x), D([40.0, -40.0, 800.0, -800.0]), second=True)
case("exp/overflow", lambda T, x: T.exp(x), D([710.0, -800.0, 1.0]))

# ---------------------------------------------------------------------------------------------
# Binary element-wise ops
# ---------------------------------------------------------------------------------------------

BINARY = {
    "add.Tensor": (lambda T, a, b: T.add(a, b), R, R),
    "add.Tensor-alpha": (lambda T, a, b: T.add(a, b, alpha=2.5), R, R),
    "sub.Tensor": (lambda T, a, b: T.sub(a, b), R, R),
    "sub.Tensor-alpha": (lambda T, a, b: a.sub(b, alpha=-3), R, R),
    "mul.Tensor": (lambda T, a, b: T.mul(a, b), R, R),
    "div.Tensor": (lambda T, a, b: T.div(a, b), R, P),
    "pow.Tensor_Tensor": (lambda T, a, b: T.pow(a, b), P, R),
    "operators": (lambda T, a, b: a * b + a / (b * b + 1) - b, R, R),
}

for op, (f, da, db) in BINARY.items():
    case(f"{op}/same", f, da(2, 3, seed=1), db(2, 3, seed=2), second=True)
    case(f"{op}/broadcast-row", f, da(2, 3, seed=3), db(3, seed=4), second=True)
    case(f"{op}/broadcast-both", f, da(2, 1, seed=5), db(1, 3, seed=6), second=True)
    case(f"{op}/0-dim-left", f, da(seed=7), db(2, 2, seed=8), second=True)
    case(f"{op}/0-dim-right", f, da(3, seed=9), db(seed=10))
    case(f"{op}/transposed", lambda T, a, b, f=f: f(T, a.t(), b), da(3, 2, seed=11), db(2, 3, seed=12))
    case(f"{op}/empty", f, D([[], []]), D([[]]))
    case(f"{op}/float32", f, da(3, seed=13, dtype="float32"), db(3, seed=14, dtype="float32"))
    case(f"{op}/one-needs-grad", f, da(2, 2, seed=15), db(2, 2, seed=16, grad=False), second=True)
    case(f"{op}/special", f, D([NAN, INF, -INF, 0.0, 1.0, INF]), D([1.0, INF, 2.0, 0.0, NAN, -INF]))

for op in ["add.Tensor", "sub.Tensor", "mul.Tensor"]:
    case(f"{op}/int64", BINARY[op][0], L([[1, -2, 3]]), L([[4], [5]]))
case("div.Tensor/by-zero", lambda T, a, b: T.div(a, b), D([1.0, -1.0, 0.0, 2.0]), D([0.0, 0.0, 0.0, -0.0]))
case("div.Tensor/int64", lambda T, a, b: T.div(a, b), L([7, -7, 6]), L([2, 2, 3]))
case("add.Tensor/shape-error", lambda T, a, b: T.add(a, b), R(2, 3, seed=1), R(4, seed=2))
case(
    "add.out/alpha",
    lambda T, a, b: T.add(a, b, alpha=2, out=T.zeros([2, 3], dtype=T.float64)),
    R(2, 3, grad=False),
    R(3, seed=1, grad=False),
)
case(
    "mul.out/function",
    lambda T, a, b: T.mul(a, b, out=T.zeros([4], dtype=T.float64)),
    R(4, grad=False),
    R(4, seed=1, grad=False),
)
case(
    "mm.out/function",
    lambda T, a, b: T.mm(a, b, out=T.zeros([2, 2], dtype=T.float64)),
    R(2, 3, grad=False),
    R(3, 2, seed=1, grad=False),
)
case(
    "mm.out/requires-grad-error",
    lambda T, a, b: T.mm(a, b, out=T.zeros([2, 2], dtype=T.float64)),
    R(2, 3),
    R(3, 2, seed=1),
)

# In place.
case("add_.Tensor/clone", lambda T, a, b: a.clone().add_(b, alpha=0.5), R(2, 3, seed=1), R(3, seed=2), second=True)
case("add_.Tensor/leaf-error", lambda T, a, b: a.add_(b), R(2, seed=1), R(2, seed=2))
case("add_.Tensor/no-grad-base", lambda T, a, b: a.add_(b), R(2, 2, seed=1, grad=False), R(2, 2, seed=2), second=True)
case("sub_.Tensor/clone", lambda T, a, b: a.clone().sub_(b), R(2, 3, seed=3), R(2, 3, seed=4), second=True)
case("mul_.Tensor/clone", lambda T, a, b: a.clone().mul_(b), R(2, 3, seed=5), R(3, seed=6), second=True)
case("mul_.Tensor/twice", lambda T, a, b: a.clone().mul_(b).mul_(b), R(3, seed=5), R(3, seed=6), second=True)
case("div_.Tensor/clone", lambda T, a, b: a.clone().div_(b), R(3, seed=7), P(3, seed=8), second=True)
case("mul_.Scalar/clone", lambda T, a: a.clone().mul_(2.0), R(3, seed=9), second=True)
case("mul_.Tensor/broadcast-error", lambda T, a, b: a.clone().mul_(b), R(3, seed=5), R(2, 3, seed=6))

# Scalar overloads.
case("add.Scalar/float", lambda T, a: T.add(a, 2.5), R(3))
case("add.Scalar/int-alpha", lambda T, a: a.add(3, alpha=2), R(2, 2))
case("add.Scalar/int64", lambda T, a: T.add(a, 3), L([1, 2]))
case("mul.Scalar/float", lambda T, a: T.mul(a, -1.5), R(3), second=True)
case("mul.Scalar/nan", lambda T, a: T.mul(a, NAN), R(3))
case("mul.Scalar/operator-r", lambda T, a: 3 * a - 1, R(2, 2))
case("div.Scalar/float", lambda T, a: T.div(a, 4.0), R(2, 2))
case("div.Scalar/zero", lambda T, a: T.div(a, 0.0), D([1.0, -1.0, 0.0]))

# pow
for i, e in enumerate([2, 3, 0.5, 2.5, -1, 0, 1, -2.5]):
    case(f"pow.Tensor_Scalar/exp={e}", lambda T, a, e=e: T.pow(a, e), P(4, seed=i), second=True)
    case(f"pow.Tensor_Scalar/exp={e}/zero-base", lambda T, a, e=e: T.pow(a, e), D([0.0, -0.0, 1.0, -1.0]))
case("pow.Tensor_Scalar/negative-base-int", lambda T, a: a**3, R(2, 3, seed=3), second=True)
case("pow.Tensor_Scalar/nan", lambda T, a: T.pow(a, 2), D([NAN, INF, -INF]))
case(
    "pow.Tensor_Tensor/zero-base",
    lambda T, a, b: T.pow(a, b),
    D([0.0, 0.0, 0.0, 0.0, 2.0]),
    D([0.0, 1.0, 2.0, -1.0, 0.0]),
)
case(
    "pow.Tensor_Tensor/zero-base-second",
    lambda T, a, b: T.pow(a, b),
    D([0.0, 0.0, 1.5]),
    D([2.0, 3.0, 2.0]),
    second=True,
)
case("pow.Tensor_Tensor/negative-base", lambda T, a, b: T.pow(a, b), D([-2.0, -1.5]), D([2.0, 3.0]))
case("pow.Tensor_Tensor/zero-exponent", lambda T, a, b: T.pow(a, b), D([0.0, 3.0]), D([0.0, 0.0]))
case("pow.Tensor_Tensor/broadcast", lambda T, a, b: T.pow(a, b), P(2, 3, seed=1), R(3, seed=2), second=True)

# clamp
case("clamp/min-max", lambda T, a: T.clamp(a, -0.5, 0.5), R(6))
case("clamp/max-only", lambda T, a: a.clamp(max=0.2), R(4, seed=3))
case("clamp/min-only", lambda T, a: T.clamp(a, min=0.0), R(2, 3, seed=4))
case("clamp/at-bounds", lambda T, a: T.clamp(a, -1.0, 1.0), D([-1.0, 1.0, 0.0, -2.0, 2.0]))
case("clamp/nan", lambda T, a: T.clamp(a, -1.0, 1.0), D([NAN, 0.5, -INF, INF]))
case("clamp/min-greater-than-max", lambda T, a: T.clamp(a, 1.0, -1.0), D([-2.0, 0.0, 2.0]))
case("clamp/int64", lambda T, a: T.clamp(a, -1, 2), L([-5, 0, 1, 9]))
case("clamp/float32", lambda T, a: T.clamp(a, -0.3, 0.3), R(5, seed=6, dtype="float32"))
case("clamp/none-error", lambda T, a: T.clamp(a), R(3))
case("clamp/transposed", lambda T, a: T.clamp(a.t(), max=0.1), R(3, 2, seed=7))

case("zero_/clone", lambda T, a: a.clone().zero_() + a, R(2, 2))
case("zero_/value", lambda T, a: a.zero_(), R(3, grad=False))
case("clone/function", lambda T, a: T.clone(a), R(2, 3), second=True)
case("clone/memory_format", lambda T, a: a.clone(memory_format=T.contiguous_format), R(3))
case("clone/transposed", lambda T, a: T.clone(a.t()), R(2, 3))

# The backward ops.
case("tanh_backward/function", lambda T, g, y: T.tanh_backward(g, y), R(3, seed=1), R(3, seed=2), second=True)
case("tanh_backward/broadcast", lambda T, g, y: T.tanh_backward(g, y), R(2, 3, seed=1), R(3, seed=2), second=True)
case("sigmoid_backward/function", lambda T, g, y: T.sigmoid_backward(g, y), R(3, seed=1), R(3, seed=2), second=True)
case(
    "threshold_backward/function",
    lambda T, g, x: T.threshold_backward(g, x, 0.0),
    R(5, seed=1),
    D([-1.0, 0.0, 0.5, NAN, 2.0]),
    second=True,
)
case(
    "threshold_backward/threshold",
    lambda T, g, x: T.threshold_backward(g, x, 0.5),
    R(4, seed=1),
    D([0.5, 0.6, 0.4, 1.0]),
)

# ---------------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------------

case("sum/all", lambda T, x: T.sum(x), R(2, 3), second=True)
case("sum/method", lambda T, x: x.sum(), R(4))
case("sum/empty", lambda T, x: T.sum(x), D([[], []]))
case("sum/0-dim", lambda T, x: T.sum(x), R())
case("sum/int64", lambda T, x: T.sum(x), L([[1, 2], [3, 4]]))
case("sum/nan", lambda T, x: T.sum(x), D([1.0, NAN, 2.0]))
case("sum/inf", lambda T, x: T.sum(x), D([INF, -INF, 2.0]))
case("sum/float32", lambda T, x: T.sum(x), R(7, seed=2, dtype="float32"))
case("sum/transposed", lambda T, x: T.sum(x.t() * x.t()), R(3, 2))
for i, (d, k) in enumerate(
    [(1, False), (-1, True), ([0, 1], False), ([0, 2], True), ([-3], False), (None, False), ([], False)]
):
    case(f"sum.dim_IntList/{d}-{k}", lambda T, x, d=d, k=k: T.sum(x, d, keepdim=k), R(2, 3, 2, seed=i), second=True)
case("sum.dim_IntList/empty-dim", lambda T, x: T.sum(x, 1), D([[], []]))
case("sum.dim_IntList/bad-dim", lambda T, x: T.sum(x, 3), R(2, 3))
case("sum.dim_IntList/int64", lambda T, x: x.sum(0), L([[1, 2], [3, 4]]))
case("mean/all", lambda T, x: T.mean(x), R(2, 3), second=True)
case("mean/empty", lambda T, x: T.mean(x), D([[], []]))
case("mean/float32", lambda T, x: x.mean(), R(5, dtype="float32"))
case("mean/int64-error", lambda T, x: T.mean(x), L([1, 2]))
for i, (d, k) in enumerate([(-1, False), ([0], True), ([0, 1], False), (None, True), ([], False)]):
    case(f"mean.dim/{d}-{k}", lambda T, x, d=d, k=k: T.mean(x, d, keepdim=k), R(3, 2, seed=i), second=True)
case("mean.dim/nan", lambda T, x: T.mean(x, 1), D([[NAN, 1.0], [2.0, 3.0]]))

MAXDATA = {
    "random": R(3, 4, seed=1),
    "ties": D([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0], [-1.0, -5.0, -1.0, -2.0]]),
    "nan": D([[1.0, NAN, 3.0, 0.0], [NAN, 2.0, NAN, 5.0], [-1.0, -5.0, -1.0, NAN]]),
    "inf": D([[1.0, INF, 3.0, 0.0], [-INF, -INF, -INF, -INF], [INF, NAN, INF, 1.0]]),
    "nan-first": D([[NAN, 9.0, 1.0, 8.0], [4.0, 3.0, 2.0, NAN], [NAN, NAN, 1.0, 2.0]]),
}
for label, data in MAXDATA.items():
    for d in [0, 1, -1]:
        for k in [False, True]:
            case(f"max.dim/{label}/dim={d}/keepdim={k}", lambda T, x, d=d, k=k: T.max(x, d, keepdim=k), data)
    case(f"max.dim/{label}/method-values", lambda T, x: x.max(dim=0).values * 2, data)
    case(f"argmax/{label}/all", lambda T, x: T.argmax(x), data)
    case(f"argmax/{label}/all-keepdim", lambda T, x: T.argmax(x, keepdim=True), data)
    for d in [0, -1]:
        case(f"argmax/{label}/dim={d}", lambda T, x, d=d: x.argmax(d), data)
    case(f"logsumexp/{label}/dim=1", lambda T, x: T.logsumexp(x, 1), data)
case("max.dim/0-dim", lambda T, x: T.max(x, 0), R())
case("max.dim/empty-error", lambda T, x: T.max(x, 1), D([[], []]))
case("max.dim/empty-other-dim", lambda T, x: T.max(x, 0), D([[], []]))
case("max.dim/int64", lambda T, x: T.max(x, 1), L([[3, 7, 7], [-1, -4, 0]]))
case("max.dim/float32", lambda T, x: T.max(x, 0), R(3, 2, dtype="float32"))
case("max.dim/transposed", lambda T, x: T.max(x.t(), 1), R(3, 4, seed=2))
case("max.dim/second", lambda T, x: T.max(x * x, 1).values, R(2, 3, seed=3), second=True)
case("argmax/int64", lambda T, x: T.argmax(x, 0), L([[3, 7, 7], [9, -4, 7]]))
case("argmax/0-dim", lambda T, x: T.argmax(x), R())
case("argmax/transposed", lambda T, x: T.argmax(x.t(), 1, keepdim=True), R(3, 4, seed=2))
case("argmax/empty-error", lambda T, x: T.argmax(x), D([[], []]))
for i, (d, k) in enumerate([(1, False), (-1, True), ([0, 1], False), (0, True)]):
    case(f"logsumexp/{d}-{k}", lambda T, x, d=d, k=k: T.logsumexp(x, d, keepdim=k), R(3, 4, seed=i), second=True)
case("logsumexp/large", lambda T, x: T.logsumexp(x, 0), D([[1000.0, -1000.0], [1000.0, -1000.0]]), second=True)
case("logsumexp/all-minus-inf", lambda T, x: T.logsumexp(x, 0), D([[-INF, 0.0], [-INF, 1.0]]))
case("logsumexp/float32", lambda T, x: T.logsumexp(x, 1), R(2, 3, dtype="float32"))
case("logsumexp/empty", lambda T, x: T.logsumexp(x, 1), D([[], []]))

case("cumprod/dim=1", lambda T, x: x.cumprod(1), D([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], grad=False))
case("cumprod/dim=0-nan", lambda T, x: T.cumprod(x, 0), D([[1.0, NAN], [0.0, 2.0]], grad=False))
case("cumprod/grad", lambda T, x: T.cumprod(x, -1), R(2, 3))

# ---------------------------------------------------------------------------------------------
# Matrix products
# ---------------------------------------------------------------------------------------------

case("mm/function", lambda T, a, b: T.mm(a, b), R(2, 3, seed=1), R(3, 4, seed=2), second=True)
case("mm/method", lambda T, a, b: a.mm(b), R(3, 2, seed=3), R(2, 2, seed=4))
case("mm/transposed", lambda T, a, b: T.mm(a.t(), b.t()), R(3, 2, seed=3), R(4, 3, seed=4), second=True)
case("mm/empty-inner", lambda T, a, b: T.mm(a, b.reshape([0, 3])), D([[], []]), D([]))
case("mm/shape-error", lambda T, a, b: T.mm(a, b), R(2, 3), R(2, 3, seed=1))
case("mm/nan", lambda T, a, b: T.mm(a, b), D([[NAN, 1.0], [0.0, 2.0]]), D([[1.0, INF], [0.0, 1.0]]))
case("mm/float32", lambda T, a, b: T.mm(a, b), R(2, 3, seed=1, dtype="float32"), R(3, 2, seed=2, dtype="float32"))
case("mm/int64", lambda T, a, b: T.mm(a, b), L([[1, 2], [3, 4]]), L([[5], [6]]))
case("bmm/function", lambda T, a, b: T.bmm(a, b), R(2, 2, 3, seed=1), R(2, 3, 2, seed=2), second=True)
case("bmm/transposed", lambda T, a, b: T.bmm(a.transpose(1, 2), b), R(2, 3, 2, seed=1), R(2, 3, 2, seed=2))
case("bmm/batch-error", lambda T, a, b: T.bmm(a, b), R(2, 2, 3, seed=1), R(3, 3, 2, seed=2))
MATMUL = [
    ((3,), (3,)),
    ((2, 3), (3,)),
    ((3,), (3, 2)),
    ((2, 3), (3, 4)),
    ((2, 2, 3), (3, 2)),
    ((3,), (2, 3, 2)),
    ((2, 2, 3), (2, 3, 1)),
    ((1, 2, 3), (4, 3, 2)),
]
for i, (sa, sb) in enumerate(MATMUL):
    case(f"matmul/{sa}@{sb}", lambda T, a, b: T.matmul(a, b), R(*sa, seed=i), R(*sb, seed=i + 10), second=True)
case("matmul/operator", lambda T, a, b: a @ b, R(2, 3), R(3, 2, seed=1))
case("matmul/method", lambda T, a, b: a.matmul(b), R(2, 2), R(2, 2, seed=1))
case("matmul/0-dim-error", lambda T, a, b: T.matmul(a, b), R(), R(3))
case("linear/bias", lambda T, x, w, b: T.linear(x, w, b), R(4, 3, seed=1), R(2, 3, seed=2), R(2, seed=3), second=True)
case("linear/no-bias", lambda T, x, w: T.linear(x, w), R(2, 3, seed=4), R(3, 3, seed=5), second=True)
case("linear/1d-input", lambda T, x, w, b: T.linear(x, w, b), R(3, seed=1), R(2, 3, seed=2), R(2, seed=3))
case("linear/3d-input", lambda T, x, w, b: T.linear(x, w, b), R(2, 2, 3, seed=1), R(4, 3, seed=2), R(4, seed=3))
case("linear/weight-only-grad", lambda T, x, w: T.linear(x, w), R(2, 3, grad=False), R(2, 3, seed=1))
case("lincomb/two", lambda T, a, b, c: T.lincomb([a, b], c), R(3, seed=1), R(3, seed=2), R(2, seed=3), second=True)
case(
    "lincomb/three",
    lambda T, a, b, c, d: T.lincomb([a, b, c], d),
    R(2, 2, seed=4),
    R(2, 2, seed=5),
    R(2, 2, seed=6),
    R(3, seed=7),
    second=True,
)

# ---------------------------------------------------------------------------------------------
# Shape ops
# ---------------------------------------------------------------------------------------------

case("t/2d", lambda T, x: T.t(x), R(2, 3), second=True)
case("t/1d", lambda T, x: x.t(), R(3))
case("t/0-dim", lambda T, x: T.t(x), R())
case("t/3d-error", lambda T, x: T.t(x), R(2, 2, 2))
case("cat/list", lambda T, a, b, c: T.cat([a, b, c]), R(2, 3, seed=1), R(1, 3, seed=2), R(2, 3, seed=3), second=True)
case("cat/dim=1", lambda T, a, b: T.cat((a, b), dim=1), R(2, 3, seed=4), R(2, 1, seed=5))
case("cat/dim=-1", lambda T, a, b: T.cat([a, b], -1), R(2, 3, seed=4), R(2, 2, seed=5))
case("cat/empty-member", lambda T, a, b: T.cat([a, b.reshape([0, 3])]), R(2, 3, seed=4), D([]))
case("cat/shape-error", lambda T, a, b: T.cat([a, b]), R(2, 3, seed=4), R(2, 2, seed=5))
case("cat/int64", lambda T, a, b: T.cat([a, b]), L([1, 2]), L([3]))
case("cat/one-needs-grad", lambda T, a, b: T.cat([a, b], 1), R(2, 2, seed=1), R(2, 1, seed=2, grad=False))
case("narrow/method", lambda T, x: x.narrow(1, 1, 2), R(2, 4), second=True)
case("narrow/function", lambda T, x: T.narrow(x, 0, 1, 1), R(3, 2))
case("narrow/negative-dim", lambda T, x: T.narrow(x, -1, 0, 3), R(2, 4))
case("narrow/negative-start", lambda T, x: T.narrow(x, 1, -2, 2), R(2, 4))
case("narrow/empty", lambda T, x: T.narrow(x, 0, 1, 0), R(3, 2))
case("narrow/out-of-range", lambda T, x: T.narrow(x, 0, 2, 2), R(3, 2))
case("view/method", lambda T, x: x.view([3, 2]), R(2, 3), second=True)
case("view/-1", lambda T, x: x.view([-1, 2]), R(2, 3))
case("view/non-contiguous-error", lambda T, x: x.t().view([6]), R(2, 3))
case("reshape/function", lambda T, x: T.reshape(x, [6]), R(2, 3))
case("reshape/transposed", lambda T, x: x.t().reshape([-1]), R(2, 3, seed=2))
case("reshape/0-dim", lambda T, x: T.reshape(x, [1, 1]), R())
case("reshape/bad", lambda T, x: T.reshape(x, [4]), R(2, 3))
case("expand/method", lambda T, x: x.expand([3, 2]), R(1, 2), second=True)
case("expand/new-dims", lambda T, x: x.expand([2, 3, 2]), R(3, 1))
case("expand/-1", lambda T, x: x.expand([-1, 4]), R(2, 1))
case("expand/bad", lambda T, x: x.expand([3, 3]), R(2, 1))
case("squeeze/all", lambda T, x: T.squeeze(x), R(2, 1, 3, 1))
case("squeeze/none", lambda T, x: T.squeeze(x), R(2, 3))
case("squeeze.dim/1", lambda T, x: x.squeeze(1), R(2, 1))
case("squeeze.dim/non-one", lambda T, x: x.squeeze(0), R(2, 1))
case("squeeze.dim/negative", lambda T, x: T.squeeze(x, -1), R(2, 1))
case("unsqueeze/0", lambda T, x: T.unsqueeze(x, 0), R(3))
case("unsqueeze/-1", lambda T, x: x.unsqueeze(-1), R(2, 3))
case("unsqueeze/0-dim", lambda T, x: x.unsqueeze(0), R())
case("transpose.int/0-2", lambda T, x: x.transpose(0, 2), R(2, 3, 2), second=True)
case("transpose.int/negative", lambda T, x: T.transpose(x, -1, -2), R(2, 3))
case("transpose.int/same", lambda T, x: T.transpose(x, 1, 1), R(2, 3))
case("permute/function", lambda T, x: T.permute(x, [2, 0, 1]), R(2, 3, 2), second=True)
case("permute/negative", lambda T, x: x.permute([-1, 0, 1]), R(2, 3, 2))
case("permute/bad", lambda T, x: x.permute([0, 0, 1]), R(2, 3, 2))
case("select.int/method", lambda T, x: x.select(1, -1), R(2, 3), second=True)
case("select.int/0", lambda T, x: T.select(x, 0, 1), R(2, 3))
case("select.int/out-of-range", lambda T, x: T.select(x, 0, 2), R(2, 3))
case("select.int/indexing", lambda T, x: x[1, 1:] * x[0, :2], R(2, 3))
case("to.dtype/copy", lambda T, x: x.to(T.float64, copy=True), R(3))
case("to.dtype/float32", lambda T, x: x.to(T.float32) * 3, R(3))
case("to.dtype/from-float32", lambda T, x: x.to(T.float64), R(3, dtype="float32"))
case("to.dtype/int64", lambda T, x: x.to(T.int64), D([1.7, -1.7, 0.5, -0.5], grad=False))
case("to.dtype/bool", lambda T, x: x.to(T.bool), D([0.0, -0.0, NAN, 2.0], grad=False))
case("stack/dim=1", lambda T, a, b: T.stack([a, b], 1), R(2, 3, seed=1), R(2, 3, seed=2), second=True)
case("stack/dim=-1", lambda T, a, b: T.stack([a, b], -1), R(2, seed=1), R(2, seed=2))
case("stack/0-dim", lambda T, a, b: T.stack([a, b]), R(seed=1), R(seed=2))
case("stack/shape-error", lambda T, a, b: T.stack([a, b]), R(2, seed=1), R(3, seed=2))
case("split.Tensor/uneven", lambda T, x: T.split(x, 2), R(5, 2), second=True)
case("split.Tensor/dim=1", lambda T, x: x.split(2, 1), R(2, 4))
case("split.Tensor/one-used", lambda T, x: T.split(x, 2)[1], R(5, 2))
case("split.Tensor/big", lambda T, x: T.split(x, 10), R(3))
case("unbind.int/method", lambda T, x: x.unbind(1), R(2, 3), second=True)
case("unbind.int/one-used", lambda T, x: T.unbind(x)[0] * 2, R(2, 3))
case("unbind.int/negative", lambda T, x: T.unbind(x, -1), R(2, 3))
case("chunk/dim=1", lambda T, x: T.chunk(x, 2, dim=1), R(2, 4), second=True)
case("chunk/uneven", lambda T, x: T.chunk(x, 3), R(5))
case("chunk/more-than-size", lambda T, x: T.chunk(x, 4), R(2, 3))

# ---------------------------------------------------------------------------------------------
# Indexing
# ---------------------------------------------------------------------------------------------

case("index_select/repeat", lambda T, x, i: T.index_select(x, 0, i), R(3, 2), L([2, 0, 2]), second=True)
case("index_select/dim=-1", lambda T, x, i: x.index_select(-1, i), R(2, 3), L([1]))
case("index_select/empty-index", lambda T, x, i: T.index_select(x, 0, i), R(3, 2), L([]))
case("index_select/out-of-range", lambda T, x, i: T.index_select(x, 0, i), R(3, 2), L([3]))
case("index_select/0-dim-index", lambda T, x, i: T.index_select(x, 1, i), R(2, 3), L(1))
case("gather/method", lambda T, x, i: x.gather(1, i), R(2, 2), L([[0, 0], [1, 0]]), second=True)
case("gather/dim=0", lambda T, x, i: T.gather(x, 0, i), R(3, 2), L([[2, 1], [0, 0]]))
case("gather/smaller", lambda T, x, i: T.gather(x, 1, i), R(3, 4), L([[3], [0]]))
case("gather/out-of-range", lambda T, x, i: T.gather(x, 1, i), R(2, 2), L([[2, 0]]))
case(
    "index_add/alpha",
    lambda T, x, i, s: T.index_add(x, 0, i, s, alpha=2),
    R(3, 2, seed=1),
    L([1, 1]),
    R(2, 2, seed=2),
    second=True,
)
case("index_add/dim=1", lambda T, x, i, s: x.index_add(1, i, s), R(2, 3, seed=1), L([2, 0]), R(2, 2, seed=2))
case("index_add/int64", lambda T, x, i, s: T.index_add(x, 0, i, s), L([1, 2, 3]), L([0, 0]), L([5, 6]))
for _dt in ["int32", "int16", "int8", "uint8"]:
    # PyTorch adds in the dtype (int8 and uint8 wrap: 120 + 10 is -126, 250 + 10 is 4).
    _big = 250 if _dt == "uint8" else 120
    case(
        f"index_add/{_dt}",
        lambda T, x, i, s: T.index_add(x, 0, i, s, alpha=2),
        D([1, 2, _big], _dt),
        L([0, 2, 0]),
        D([5, 5, 6], _dt),
    )
    case(
        f"scatter_add/{_dt}",
        lambda T, x, i, s: T.scatter_add(x, 1, i, s),
        D([[1, 2, 3], [4, 5, _big]], _dt),
        L([[0, 0], [2, 2]]),
        D([[7, 8], [5, 5]], _dt),
    )
    case(f"index_add_/{_dt}", lambda T, x, i, s: x.index_add_(0, i, s), D([1, 2, 3], _dt), L([1, 1]), D([4, 5], _dt))
    case(
        f"scatter_add_/{_dt}", lambda T, x, i, s: x.scatter_add_(0, i, s), D([1, 2, 3], _dt), L([2, 2]), D([4, 5], _dt)
    )
case(
    "scatter_add/method",
    lambda T, x, i, s: x.scatter_add(0, i, s),
    R(2, 2, seed=1),
    L([[0, 1], [0, 0]]),
    R(2, 2, seed=2),
    second=True,
)
case(
    "scatter_add/dim=1",
    lambda T, x, i, s: T.scatter_add(x, 1, i, s),
    R(2, 3, seed=1),
    L([[2, 2], [0, 1]]),
    R(2, 2, seed=2),
)
case(
    "where.self/function",
    lambda T, c, a, b: T.where(c, a, b),
    B([True, False, True]),
    R(3, seed=1),
    R(3, seed=2),
    second=True,
)
case("where.self/method", lambda T, c, a, b: a.where(c, b), B([False, True]), R(2, seed=3), R(2, seed=4))
case(
    "where.self/broadcast",
    lambda T, c, a, b: T.where(c, a, b),
    B([[True], [False]]),
    R(3, seed=1),
    R(2, 1, seed=2),
    second=True,
)
case("where.self/nan", lambda T, c, a, b: T.where(c, a, b), B([True, False]), D([NAN, NAN]), D([1.0, 2.0]))
case(
    "masked_fill.Scalar/method",
    lambda T, x, m: x.masked_fill(m, 2.0),
    R(2, 2),
    B([[True, False], [False, False]]),
    second=True,
)
case("masked_fill.Scalar/broadcast-mask", lambda T, x, m: T.masked_fill(x, m, -1.5), R(2, 3), B([False, True, True]))
case("masked_fill.Scalar/nan", lambda T, x, m: T.masked_fill(x, m, NAN), R(3), B([True, False, True]))
case(
    "masked_fill_.Scalar/method",
    lambda T, x, m: x.clone().masked_fill_(m, 2.0) * 3,
    R(2, 3),
    B([False, True, True]),
    second=True,
)
# In place, self's shape cannot grow to the mask's: an error in both.
case(
    "masked_fill_.Scalar/mask-larger-than-self",
    lambda T, x, m: x.clone().masked_fill_(m, 1.0),
    R(3),
    B([[True, False, True]] * 2),
)
case("eq.Tensor/values", lambda T, a, b: T.eq(a, b), D([1.0, 2.0, NAN, INF]), D([1.0, 0.0, NAN, INF]))
case("eq.Tensor/broadcast", lambda T, a, b: a.eq(b), D([[1.0], [2.0]]), D([1.0, 2.0, 3.0]))
case("eq.Tensor/int64", lambda T, a, b: T.eq(a, b), L([1, 2, 3]), L([1, 0, 3]))
case("zeros_like/int64", lambda T, x: T.zeros_like(x, dtype=T.int64), R(2, 3))
case("zeros_like/grad", lambda T, x: T.zeros_like(x) + x, R(2))
case("ones_like/float64", lambda T, x: T.ones_like(x) * x, R(3))
case("ones_like/float32", lambda T, x: T.ones_like(x), R(2, dtype="float32"))

# ---------------------------------------------------------------------------------------------
# Neural-network ops
# ---------------------------------------------------------------------------------------------

for i, d in enumerate([1, 0, -1]):
    case(f"softmax.int/dim={d}", lambda T, x, d=d: T.softmax(x, d), R(2, 3, seed=i), second=True)
    case(f"log_softmax.int/dim={d}", lambda T, x, d=d: x.log_softmax(d), R(2, 3, seed=i), second=True)
case("softmax.int/large", lambda T, x: T.softmax(x, 0), D([1000.0, 0.0, -1000.0]), second=True)
case("softmax.int/inf", lambda T, x: T.softmax(x, 0), D([INF, 0.0, 1.0]))
case("softmax.int/nan", lambda T, x: T.softmax(x, 0), D([NAN, 0.0, 1.0]))
case("softmax.int/float32", lambda T, x: T.softmax(x, 1), R(2, 3, dtype="float32"))
case("softmax.int/0-dim", lambda T, x: T.softmax(x, 0), R())
case("log_softmax.int/large", lambda T, x: T.log_softmax(x, 0), D([1000.0, 0.0, -1000.0]), second=True)
case("log_softmax.int/minus-inf", lambda T, x: T.log_softmax(x, 0), D([-INF, 0.0, 1.0]))
case("log_softmax.int/transposed", lambda T, x: T.log_softmax(x.t(), 1), R(3, 2))
for r in [0, 1, 2]:
    case(
        f"mse_loss/reduction={r}",
        lambda T, a, b, r=r: T.mse_loss(a, b, r),
        R(2, 3, seed=1),
        R(2, 3, seed=2),
        second=True,
    )
case("mse_loss/target-no-grad", lambda T, a, b: T.mse_loss(a, b), R(3, seed=3), R(3, seed=4, grad=False))
case("mse_loss/broadcast", lambda T, a, b: T.mse_loss(a, b), R(2, 3, seed=3), R(3, seed=4))
case("mse_loss/float32", lambda T, a, b: T.mse_loss(a, b), R(4, seed=3, dtype="float32"), R(4, seed=4, dtype="float32"))
case("mse_loss/nan", lambda T, a, b: T.mse_loss(a, b, 0), D([NAN, 1.0]), D([0.0, INF]))
case("nll_loss/log-probabilities", lambda T, x, t: T.nll_loss(T.log_softmax(x, 1), t), R(2, 3), L([0, 2]), second=True)
case(
    "nll_loss/weight-ignore",
    lambda T, x, t, w: T.nll_loss(x, t, w, ignore_index=2),
    R(3, 3, seed=2),
    L([1, 2, 1]),
    P(3, seed=3, grad=False),
)
for r in [0, 1, 2]:
    case(
        f"nll_loss/reduction={r}",
        lambda T, x, t, w, r=r: T.nll_loss(x, t, w, r),
        R(3, 4, seed=r),
        L([3, 0, 1]),
        P(4, seed=5, grad=False),
    )
case("nll_loss/all-ignored", lambda T, x, t: T.nll_loss(x, t, None, 1, 0), R(2, 3), L([0, 0]))
case("nll_loss/1d", lambda T, x, t: T.nll_loss(x, t), R(3), L(1))
case("nll_loss/target-out-of-range", lambda T, x, t: T.nll_loss(x, t), R(2, 3), L([0, 3]))
case("nll_loss/negative-ignore-index", lambda T, x, t: T.nll_loss(x, t), R(3, 3), L([0, -100, 2]))
case(
    "cross_entropy_loss/label-smoothing",
    lambda T, x, t: T.cross_entropy_loss(x, t, label_smoothing=0.1),
    R(2, 3),
    L([1, 0]),
    second=True,
)
case("cross_entropy_loss/plain", lambda T, x, t: T.cross_entropy_loss(x, t), R(4, 3), L([1, 0, 2, 2]), second=True)
case(
    "cross_entropy_loss/weight-sum",
    lambda T, x, t, w: T.cross_entropy_loss(x, t, w, 2),
    R(3, 3),
    L([1, 0, 2]),
    P(3, seed=2, grad=False),
)
case("cross_entropy_loss/ignore", lambda T, x, t: T.cross_entropy_loss(x, t, ignore_index=1), R(3, 3), L([1, 0, 2]))
case("embedding/function", lambda T, w, i: T.embedding(w, i), R(3, 2), L([[0, 2], [2, 1]]), second=True)
case("embedding/padding-idx", lambda T, w, i: T.embedding(w, i, 2), R(3, 2), L([[0, 2], [2, 1]]))
case("embedding/scale-grad-by-freq", lambda T, w, i: T.embedding(w, i, -1, True), R(4, 2), L([0, 2, 2, 2, 1]))
case("embedding/out-of-range", lambda T, w, i: T.embedding(w, i), R(3, 2), L([3]))
case("native_dropout/eval", lambda T, x: T.native_dropout(x, 0.5, False), R(3))
case("native_dropout/p=0", lambda T, x: T.native_dropout(x, 0.0, True), R(4))
case("native_dropout/p=1", lambda T, x: T.native_dropout(x, 1.0, True), R(4))
case(
    "native_dropout_backward/function",
    lambda T, g, m: T.native_dropout_backward(g, m, 2.0),
    R(4, seed=2),
    B([True, False, True, True]),
)
case("dropout/eval", lambda T, x: T.dropout(x, 0.5, False), R(3), second=True)
case("dropout/p=0", lambda T, x: T.dropout(x, 0.0, True), R(3))
case("dropout/p=1", lambda T, x: T.dropout(x, 1.0, True), R(3))
LSTM = [R(2, 3, seed=1), R(2, 2, seed=2), R(2, 2, seed=3), R(8, 3, seed=4), R(8, 2, seed=5), R(8, seed=6), R(8, seed=7)]
case("lstm_cell/h-and-c", lambda T, x, h, c, wi, wh, bi, bh: T.lstm_cell(x, [h, c], wi, wh, bi, bh), *LSTM, second=True)
case("lstm_cell/no-bias", lambda T, x, h, c, wi, wh: T.lstm_cell(x, [h, c], wi, wh)[0], *LSTM[:5])
case("lstm_cell/c-only", lambda T, x, h, c, wi, wh, bi: T.lstm_cell(x, [h, c], wi, wh, bi)[1], *LSTM[:6])


def by_name() -> Dict[str, Case]:
    out: Dict[str, Case] = {}
    for c in CASES:
        assert c.name not in out, "duplicate case name " + c.name
        out[c.name] = c
    return out


# ---------------------------------------------------------------------------------------------
# Gradient special cases, dtypes, in place on views, out=
# ---------------------------------------------------------------------------------------------


def _add_into_row(T, a, b):
    c = a.clone()
    c[0].add_(b)
    return c


def _mul_into_transposed(T, a, b):
    c = a.clone()
    c.t().mul_(b)
    return c


case("div.Tensor/tiny-divisor", lambda T, a, b: T.div(a, b), D([1.0, 3.0, -2.0]), D([1e-160, -1e-160, 3e-170]))
case("div.Tensor/tiny-divisor-tiny-self", lambda T, a, b: T.div(a, b), D([1e-20, -3e-30]), D([1e-160, 3e-161]))
case("div.Tensor/huge-divisor", lambda T, a, b: T.div(a, b), D([1.0, 3.0]), D([1e160, -1e170]))
case("clamp/inf-upstream-min", lambda T, x: T.sqrt(T.clamp(x, min=0.0)), D([-1.0, 0.0, 4.0]))
case("clamp/inf-upstream-max", lambda T, x: T.sqrt(T.clamp(x, max=0.0) + 1), D([-1.0, 0.0, 4.0, -2.0]))
case("clamp/second", lambda T, x: T.clamp(x * x, -0.5, 0.5), R(6, seed=8), second=True)
case("relu/second", lambda T, x: T.relu(x * x * x), D([-1.5, 0.5, 2.0, -0.25]), second=True)
case("relu/inf-upstream", lambda T, x: T.sqrt(T.relu(x)), D([-1.0, 0.0, 4.0]))
case("abs/inf-upstream", lambda T, x: T.sqrt(T.abs(x)), D([-1.0, 0.0, 4.0]))
case(
    "masked_fill.Scalar/inf-upstream",
    lambda T, x, m: T.sqrt(T.masked_fill(x, m, 1.0)),
    D([0.0, 0.0, 4.0]),
    B([True, False, False]),
)
case(
    "where.self/inf-upstream",
    lambda T, c, a, b: T.sqrt(T.where(c, a, b)),
    B([True, False]),
    D([0.0, 0.0]),
    D([1.0, 1.0]),
)
case("max.dim/nan-grad-second", lambda T, x: T.max(x * x, 0).values, D([[NAN, 1.0], [2.0, -3.0]]), second=True)
case("sqrt/second-zero", lambda T, x: T.sqrt(x), D([0.0, 1.0]), second=True)
case("log/second-inf", lambda T, x: T.log(x), D([0.0, INF, 2.0]), second=True)
case("add_.Tensor/view-of-clone", _add_into_row, R(2, 3, seed=1), R(3, seed=2))
case("mul_.Tensor/transposed-view", _mul_into_transposed, R(2, 3, seed=3), R(3, 2, seed=4))
case("add.Tensor/float32+float64", lambda T, a, b: T.add(a, b), R(3, dtype="float32"), R(3, seed=1))
case("mul.Tensor/int64*float64", lambda T, a, b: T.mul(a, b), L([1, 2, 3]), R(3, seed=1))
case("mul.Scalar/int64*float", lambda T, a: T.mul(a, 1.5), L([1, 2, 3]))
case("add.Scalar/float32", lambda T, a: T.add(a, 2.5), R(3, dtype="float32"))
case("sum/bool", lambda T, x: T.sum(x), B([True, False, True]))
case(
    "add.out/resize",
    lambda T, a, b: T.add(a, b, out=T.zeros([3], dtype=T.float64)),
    R(2, 3, grad=False),
    R(3, seed=1, grad=False),
)
case("exp_/leaf-error", lambda T, x: T.exp_(x), R(3))
case("softmax.int/empty", lambda T, x: T.softmax(x, 1), D([[], []]))
case("log_softmax.int/empty", lambda T, x: T.log_softmax(x, 0), D([[], []]))
case("mean.dim/empty-dim-nan", lambda T, x: T.mean(x, 1), D([[], []]))
case("logsumexp/0-dim", lambda T, x: T.logsumexp(x, 0), R(), second=True)
case("argmax/keepdim-dim", lambda T, x: T.argmax(x, 1, keepdim=True), D([[NAN, 1.0], [2.0, NAN], [1.0, 1.0]]))
case("max.dim/negative-zero", lambda T, x: T.max(x, 0), D([[-0.0, 0.0], [0.0, -0.0]]))
case("index_select/nan", lambda T, x, i: T.index_select(x, 0, i), D([NAN, 1.0, INF]), L([2, 0, 0]), second=True)
case("gather/negative-dim", lambda T, x, i: T.gather(x, -1, i), R(2, 3), L([[2, 1], [0, 0]]))
case(
    "scatter_add/index-repeats",
    lambda T, x, i, s: T.scatter_add(x, 0, i, s),
    R(3, seed=1),
    L([1, 1, 1, 0]),
    R(4, seed=2),
)
case("embedding/padding-negative", lambda T, w, i: T.embedding(w, i, -1), R(3, 2), L([0, 2, 2]))
case(
    "nll_loss/weight-mean-zero",
    lambda T, x, t, w: T.nll_loss(x, t, w),
    R(2, 3),
    L([0, 1]),
    D([0.0, 0.0, 1.0], grad=False),
)
case("cross_entropy_loss/nan", lambda T, x, t: T.cross_entropy_loss(x, t), D([[NAN, 0.0], [1.0, 2.0]]), L([1, 0]))
case("mse_loss/second-target", lambda T, a, b: T.mse_loss(a * b, b), R(3, seed=1), R(3, seed=2), second=True)
case(
    "matmul/broadcast-batch-second",
    lambda T, a, b: T.matmul(a, b),
    R(2, 1, 2, 3, seed=1),
    R(3, 3, 2, seed=2),
    second=True,
)
case("bmm/empty-batch", lambda T, a, b: T.bmm(a.reshape([0, 2, 3]), b.reshape([0, 3, 2])), D([]), D([]))
case(
    "stack/negative-dim-second", lambda T, a, b: T.stack([a * b, b], -2), R(2, 3, seed=1), R(2, 3, seed=2), second=True
)
case("chunk/negative-dim", lambda T, x: T.chunk(x, 2, -1), R(2, 5))
case("split.Tensor/negative-dim", lambda T, x: T.split(x, 3, -1), R(2, 5))
case("squeeze.dim/0-dim", lambda T, x: T.squeeze(x, 0), R())
case("select.int/negative-dim", lambda T, x: T.select(x, -2, 0), R(2, 3))
case("index_add/0-dim-source", lambda T, x, i, s: T.index_add(x, 0, i, s), R(3, seed=1), L([1]), R(seed=2))
case("softmax.int/all-minus-inf", lambda T, x: T.softmax(x, 1), D([[-INF, -INF], [0.0, -INF]]))
case("log_softmax.int/all-minus-inf", lambda T, x: T.log_softmax(x, 1), D([[-INF, -INF], [0.0, -INF]]))
case("logsumexp/nan-second", lambda T, x: T.logsumexp(x, 1), D([[NAN, 1.0], [0.5, 2.0]]), second=True)
case("mean.dim/int64-error", lambda T, x: T.mean(x, 0), L([[1, 2]]))
case("linear/empty-batch", lambda T, x, w, b: T.linear(x.reshape([0, 3]), w, b), D([]), R(2, 3, seed=2), R(2, seed=3))
case("bmm/nan", lambda T, a, b: T.bmm(a, b), D([[[NAN, 0.0]]]), D([[[1.0], [INF]]]))
case("expand/0-dim", lambda T, x: x.expand([2, 2]), R(), second=True)
case("permute/0-dim", lambda T, x: T.permute(x, []), R())
case("cat/negative-dim-3d", lambda T, a, b: T.cat([a, b], -2), R(2, 1, 2, seed=1), R(2, 2, 2, seed=2), second=True)
case("unbind.int/empty", lambda T, x: T.unbind(x, 1), D([[], []]))
case("where.self/0-dim", lambda T, c, a, b: T.where(c, a, b), B(True), R(seed=1), R(2, seed=2), second=True)
case("masked_fill.Scalar/0-dim-mask", lambda T, x, m: T.masked_fill(x, m, 0.5), R(2, 2), B(True))
case("narrow/transposed", lambda T, x: T.narrow(x.t(), 0, 1, 2), R(2, 4), second=True)
case("pow.Tensor_Tensor/nan", lambda T, a, b: T.pow(a, b), D([NAN, 1.0, NAN, 0.0]), D([0.0, NAN, 1.0, NAN]))
case("pow.Tensor_Scalar/exp=-0.5/special", lambda T, a: T.pow(a, -0.5), D([0.0, -0.0, INF, -1.0, 4.0]))
case("pow.Tensor_Scalar/exp=3/special", lambda T, a: T.pow(a, 3), D([NAN, INF, -INF, -2.0]), second=True)
case("reshape/empty-infer", lambda T, x: T.reshape(x.reshape([0, 2]), [-1, 4]), D([]))
case("reshape/empty-ambiguous", lambda T, x: T.reshape(x.reshape([0, 2]), [-1, 0]), D([]))
case("view/empty-infer", lambda T, x: x.reshape([2, 0]).view([0, -1, 1]), D([]))

# ---------------------------------------------------------------------------------------------
# Type promotion (issue 11, point 1): torch.result_type's rules for every element-wise op,
# comparisons, where, in-place ops, out= and reductions' dtype=; outputs that are not floating
# point never require grad.
# ---------------------------------------------------------------------------------------------

DTYPES = ["bool", "int64", "float32", "float64"]
# One dimensioned operand [3] and one zero-dim operand of each dtype (floats require grad).
DIM_DATA = {
    "bool": [True, False, True],
    "int64": [2, -1, 3],
    "float32": [0.5, -1.25, 2.0],
    "float64": [1.5, 0.25, -3.0],
}
ZERO_DATA = {"bool": True, "int64": 3, "float32": -0.75, "float64": 1.25}
SCALARS = {"True": True, "2": 2, "-1.5": -1.5}


def _dim(dtype):
    return D(DIM_DATA[dtype], dtype)


def _zero(dtype):
    return D(ZERO_DATA[dtype], dtype)


PROMOTING = {
    "add.Tensor": lambda T, a, b: T.add(a, b),
    "sub.Tensor": lambda T, a, b: T.sub(a, b),
    "mul.Tensor": lambda T, a, b: T.mul(a, b),
    "div.Tensor": lambda T, a, b: T.div(a, b),
    "pow.Tensor_Tensor": lambda T, a, b: T.pow(a, b),
    "eq.Tensor": lambda T, a, b: T.eq(a, b),
    "ne.Tensor": lambda T, a, b: T.ne(a, b),
    "lt.Tensor": lambda T, a, b: T.lt(a, b),
    "le.Tensor": lambda T, a, b: T.le(a, b),
    "gt.Tensor": lambda T, a, b: T.gt(a, b),
    "ge.Tensor": lambda T, a, b: T.ge(a, b),
}
SCALAR_OPS = {
    "add.Scalar": lambda T, a, s: T.add(a, s),
    "mul.Scalar": lambda T, a, s: T.mul(a, s),
    "div.Scalar": lambda T, a, s: T.div(a, s),
    "pow.Tensor_Scalar": lambda T, a, s: T.pow(a, s),
    "eq.Scalar": lambda T, a, s: T.eq(a, s),
    "ne.Scalar": lambda T, a, s: T.ne(a, s),
    "lt.Scalar": lambda T, a, s: T.lt(a, s),
    "le.Scalar": lambda T, a, s: a.le(s),
    "gt.Scalar": lambda T, a, s: T.gt(a, s),
    "ge.Scalar": lambda T, a, s: a.ge(s),
}

for op, f in PROMOTING.items():
    for da in DTYPES:
        for db in DTYPES:
            case(f"{op}/promote/{da}+{db}", f, _dim(da), _dim(db))
            case(f"{op}/promote/{da}+0-dim-{db}", f, _dim(da), _zero(db))
            case(f"{op}/promote/0-dim-{da}+{db}", f, _zero(da), _dim(db))
    case(f"{op}/promote/0-dim-float32+0-dim-float64", f, _zero("float32"), _zero("float64"))
    case(f"{op}/promote/0-dim-int64+0-dim-bool", f, _zero("int64"), _zero("bool"))

for op, f in SCALAR_OPS.items():
    for da in DTYPES:
        for label, s in SCALARS.items():
            case(f"{op}/promote/{da}+scalar-{label}", lambda T, a, f=f, s=s: f(T, a, s), _dim(da))
            case(f"{op}/promote/0-dim-{da}+scalar-{label}", lambda T, a, f=f, s=s: f(T, a, s), _zero(da))

# Operators with Python numbers on either side.
for da in DTYPES:
    case(f"mul.Scalar/operator/{da}*1.5", lambda T, a: a * 1.5, _dim(da))
    case(f"mul.Scalar/operator/2*{da}", lambda T, a: 2 * a, _dim(da))
    case(f"add.Scalar/operator/{da}+0.5", lambda T, a: a + 0.5, _dim(da))
    case(f"div.Scalar/operator/{da}/2", lambda T, a: a / 2, _dim(da))
    case(f"pow.Tensor_Scalar/operator/{da}**2", lambda T, a: a**2, _dim(da))
    case(f"lt.Scalar/operator/{da}<1", lambda T, a: a < 1, _dim(da))
    case(f"eq.Tensor/operator/{da}==float32", lambda T, a, b: a == b, _dim(da), _dim("float32"))

# Mixed-dtype gradients: each input's gradient has that input's dtype, also second order.
case(
    "mul.Tensor/promote/float32*float64-second",
    lambda T, a, b: a * b * b,
    _dim("float32"),
    _dim("float64"),
    second=True,
)
case(
    "add.Tensor/promote/float32+0-dim-float64-second",
    lambda T, a, b: (a + b) * a,
    _dim("float32"),
    _zero("float64"),
    second=True,
)
case(
    "div.Tensor/promote/int64/float32-second",
    lambda T, a, b: T.div(a, b * b),
    _dim("int64"),
    _dim("float32"),
    second=True,
)
case("pow.Tensor_Tensor/promote/int64-base-float64-exp", lambda T, a, b: T.pow(a, b), L([2, 3, 1]), D([0.5, -1.0, 2.0]))
case("pow.Tensor_Tensor/promote/float32-base-int64-exp", lambda T, a, b: T.pow(a, b), _dim("float32"), L([2, 0, 3]))
case("pow.Tensor_Tensor/int64-negative-exp", lambda T, a, b: T.pow(a, b), L([2, 1, -1, -1, 0]), L([-1, -5, -3, -2, 2]))
case("pow.Tensor_Scalar/int64-negative-error", lambda T, a: T.pow(a, -1), L([2, 3]))
case("pow.Tensor_Scalar/int64-exp-3", lambda T, a: T.pow(a, 3), L([2, -3, 0, 7]))
case(
    "sub.Tensor/promote/float32-0-dim-float64-alpha",
    lambda T, a, b: T.sub(a, b, alpha=2),
    _dim("float32"),
    _zero("float64"),
)
case("add.Tensor/int64-float-alpha-error", lambda T, a, b: T.add(a, b, alpha=1.5), L([1, 2]), L([3, 4]))
case("add.Tensor/bool-int-alpha-error", lambda T, a, b: T.add(a, b, alpha=True), L([1, 2]), L([3, 4]))
case("add.Tensor/float32-int64-float-alpha", lambda T, a, b: T.add(a, b, alpha=0.5), _dim("float32"), _dim("int64"))
case("add.Tensor/bool-or", lambda T, a, b: T.add(a, b), B([True, True, False, False]), B([True, False, True, False]))
case("mul.Tensor/bool-and", lambda T, a, b: T.mul(a, b), B([True, True, False, False]), B([True, False, True, False]))
case("clamp/int64-float-bounds", lambda T, a: T.clamp(a, -0.5, 2.5), L([-3, 0, 1, 9]))
case("clamp/int64-int-bounds", lambda T, a: T.clamp(a, min=0), L([-3, 0, 1, 9]))
case("clamp/float32-int-bounds", lambda T, a: T.clamp(a, -1, 1), _dim("float32"))
for op in ["exp", "log", "sqrt", "sin", "tanh", "sigmoid", "reciprocal", "cos"]:
    case(f"{op}/int64", UNARY[op][0], L([1, 2, 4]))
    case(f"{op}/bool", UNARY[op][0], B([True, False]))
case("sign/bool", lambda T, x: T.sign(x), B([True, False]))
case("relu/bool-error", lambda T, x: T.relu(x), B([True, False]))
case("neg/bool-error", lambda T, x: T.neg(x), B([True, False]))
case("tanh_backward/promote", lambda T, g, y: T.tanh_backward(g, y), _dim("float32"), _dim("float64"))
case("sigmoid_backward/promote", lambda T, g, y: T.sigmoid_backward(g, y), _dim("float64"), _dim("float32"))
case("threshold_backward/promote", lambda T, g, x: T.threshold_backward(g, x, 0.0), _dim("float32"), _dim("float64"))

# where: self and other promote; the condition stays bool.
for da in DTYPES:
    for db in DTYPES:
        case(
            f"where.self/promote/{da}+{db}",
            lambda T, c, a, b: T.where(c, a, b),
            B([True, False, False]),
            _dim(da),
            _dim(db),
        )
        case(
            f"where.self/promote/{da}+0-dim-{db}",
            lambda T, c, a, b: T.where(c, a, b),
            B([False, True, False]),
            _dim(da),
            _zero(db),
        )
case(
    "where.self/promote-second",
    lambda T, c, a, b: T.where(c, a * a, b * b),
    B([True, False, True]),
    _dim("float32"),
    _dim("float64"),
    second=True,
)

# In place: the result type must not be of a higher category than self's.
INPLACE = {
    "add_.Tensor": lambda T, a, b: a.add_(b),
    "sub_.Tensor": lambda T, a, b: a.sub_(b),
    "mul_.Tensor": lambda T, a, b: a.mul_(b),
    "div_.Tensor": lambda T, a, b: a.div_(b),
}
for op, f in INPLACE.items():
    for da in DTYPES:
        for db in DTYPES:
            case(f"{op}/promote/{da}+{db}", lambda T, a, b, f=f: f(T, a.clone(), b), _dim(da), _dim(db))
            case(f"{op}/promote/{da}+0-dim-{db}", lambda T, a, b, f=f: f(T, a.clone(), b), _dim(da), _zero(db))
for da in DTYPES:
    for label, s in SCALARS.items():
        case(f"mul_.Scalar/promote/{da}*{label}", lambda T, a, s=s: a.clone().mul_(s), _dim(da))
case(
    "add_.Tensor/float32-self-float64-other-second",
    lambda T, a, b: a.clone().add_(b * b),
    _dim("float32"),
    _dim("float64"),
    second=True,
)
case(
    "mul_.Tensor/float64-self-float32-other-second",
    lambda T, a, b: (a * 1).mul_(b * b),
    _dim("float64"),
    _dim("float32"),
    second=True,
)

# out=: computed in the result type, converted on write; an error when the category would drop.
OUT_OPS = {
    "add.out": lambda T, a, b, out: T.add(a, b, out=out),
    "mul.out": lambda T, a, b, out: T.mul(a, b, out=out),
}
for op, f in OUT_OPS.items():
    for da, db in [
        ("int64", "int64"),
        ("int64", "float32"),
        ("float32", "float64"),
        ("bool", "bool"),
        ("bool", "int64"),
    ]:
        for do in DTYPES:
            case(
                f"{op}/cast/{da}+{db}->{do}",
                lambda T, a, b, f=f, do=do: f(T, a, b, T.zeros([3], dtype=getattr(T, do))),
                D(DIM_DATA[da], da, grad=False),
                D(DIM_DATA[db], db, grad=False),
            )
    # Resizing: an empty out silently, a non-empty one with PyTorch's warning, or [] to [3].
    for label, shape in [("empty", [0]), ("empty-2d", [0, 3]), ("smaller", [2]), ("larger", [2, 4]), ("0-dim", [])]:
        case(
            f"{op}/resize/{label}",
            lambda T, a, b, f=f, shape=shape: f(T, a, b, T.zeros(shape, dtype=T.float64)),
            D([1.0, 2.0, 3.0], grad=False),
            D([0.5, -1.0, 2.0], grad=False),
        )
    case(
        f"{op}/resize-cast",
        lambda T, a, b, f=f: f(T, a, b, T.zeros([0], dtype=T.float32)),
        D([[1.0], [2.0]], grad=False),
        D([0.5, -1.0, 2.0], grad=False),
    )
    case(
        f"{op}/returns-out",
        lambda T, a, b, f=f: (lambda o: [f(T, a, b, o), o * 1])(T.zeros([2, 3], dtype=T.float32)),
        D([[1.0], [2.0]], grad=False),
        D([0.5, -1.0, 2.0], grad=False),
    )
case(
    "mm.out/resize-empty",
    lambda T, a, b: T.mm(a, b, out=T.zeros([0], dtype=T.float64)),
    R(2, 3, grad=False),
    R(3, 2, seed=1, grad=False),
)

# sum / mean with dtype=, and sums of bool and integer tensors.
for dx in DTYPES:
    case(f"sum/of-{dx}", lambda T, x: T.sum(x), _dim(dx))
    case(f"sum.dim_IntList/of-{dx}", lambda T, x: T.sum(x.reshape([3, 1]), 0, keepdim=True), _dim(dx))
    case(f"sum/0-dim-{dx}", lambda T, x: T.sum(x), _zero(dx))
    for dt in DTYPES:
        case(f"sum/dtype={dt}/of-{dx}", lambda T, x, dt=dt: T.sum(x, dtype=getattr(T, dt)), _dim(dx))
        case(
            f"sum.dim_IntList/dtype={dt}/of-{dx}",
            lambda T, x, dt=dt: T.sum(x.reshape([1, 3]), [1], dtype=getattr(T, dt)),
            _dim(dx),
        )
        case(f"mean/dtype={dt}/of-{dx}", lambda T, x, dt=dt: T.mean(x, dtype=getattr(T, dt)), _dim(dx))
        case(
            f"mean.dim/dtype={dt}/of-{dx}",
            lambda T, x, dt=dt: T.mean(x.reshape([3, 1]), 0, True, dtype=getattr(T, dt)),
            _dim(dx),
        )
case("sum/dtype=float64-second", lambda T, x: T.sum(x * x, dtype=T.float64), _dim("float32"), second=True)
case("mean/dtype=float32-second", lambda T, x: T.mean(x * x, dtype=T.float32), _dim("float64"), second=True)
case("sum/empty-bool", lambda T, x: T.sum(x), B([]))
case("sum/int64-overflow-free", lambda T, x: T.sum(x, dtype=T.int64), L([2**40, 2**41, -(2**42)]))
case("cumprod/int64", lambda T, x: T.cumprod(x, 0), L([2, -3, 4, 0, 5]))
case("cumprod/bool", lambda T, x: T.cumprod(x, 0), B([True, True, False, True]))
case("cumprod/dtype=float64", lambda T, x: T.cumprod(x, 0, dtype=T.float64), _dim("float32"))
case("cumprod/dtype=float32-of-int64", lambda T, x: T.cumprod(x, 0, dtype=T.float32), L([2, 3, 4]))

# Outputs that are not floating point never require grad and have no grad_fn.
case(
    "to.dtype/int64-no-grad",
    lambda T, x: T.tensor(
        [
            x.to(T.int64).requires_grad,
            x.to(T.bool).requires_grad,
            x.to(T.int64).grad_fn is None,
            T.argmax(x).requires_grad,
            T.eq(x, x).requires_grad,
            T.gt(x, 0.0).grad_fn is None,
            T.max(x, 0)[1].requires_grad,
            T.cumprod(x.detach(), 0, dtype=T.int64).requires_grad,
            x.to(T.float32).requires_grad,
            (x.to(T.int64) * 1.5).requires_grad,
        ]
    ),
    R(3),
)
case("to.dtype/int64-then-float", lambda T, x: x.to(T.int64).to(T.float64) * x, D([1.5, -2.5, 3.0]))
case(
    "to.dtype/float32-round-trip-second",
    lambda T, x: (x.to(T.float32) * x.to(T.float32)).to(T.float64),
    R(3),
    second=True,
)

# ---------------------------------------------------------------------------------------------
# Shapes at the edges (issue 11, point 5)
# ---------------------------------------------------------------------------------------------


def _e(shape):
    """An empty float64 input (requires grad) reshaped to `shape` inside the case."""
    return D([])


EMPTY_UNARY = ["neg", "exp", "log", "tanh", "sigmoid", "relu", "sin", "cos", "sqrt", "abs", "sign", "reciprocal"]
for op in EMPTY_UNARY:
    case(f"{op}/empty-batch", lambda T, x, op=op: UNARY[op][0](T, x.reshape([0, 3])), D([]))
for op, (f, _, _) in BINARY.items():
    case(f"{op}/empty-batch", lambda T, a, b, f=f: f(T, a.reshape([0, 3]), b), D([]), P(3, seed=1))
    case(f"{op}/empty-broadcast", lambda T, a, b, f=f: f(T, a.reshape([0, 1]), b), D([]), P(3, seed=1))
case("clamp/empty-batch", lambda T, x: T.clamp(x.reshape([0, 2]), -1.0, 1.0), D([]))
case("pow.Tensor_Scalar/empty-batch", lambda T, x: T.pow(x.reshape([0, 2]), 2), D([]))
case("mul.Scalar/empty-batch", lambda T, x: T.mul(x.reshape([0, 2]), 2.5), D([]))
case("sum.dim_IntList/empty-batch-dim0", lambda T, x: T.sum(x.reshape([0, 3]), 0), D([]), second=True)
case("sum.dim_IntList/empty-batch-dim1", lambda T, x: T.sum(x.reshape([0, 3]), 1), D([]))
case("mean.dim/empty-batch-dim0", lambda T, x: T.mean(x.reshape([0, 3]), 0), D([]))
case("mean.dim/empty-batch-dim1", lambda T, x: T.mean(x.reshape([0, 3]), 1), D([]))
case("mean/empty-batch", lambda T, x: T.mean(x.reshape([0, 3])), D([]))
case("max.dim/empty-batch", lambda T, x: T.max(x.reshape([0, 3]), 1), D([]))
case("argmax/empty-batch", lambda T, x: T.argmax(x.reshape([0, 3]), 1), D([]))
case("logsumexp/empty-batch", lambda T, x: T.logsumexp(x.reshape([0, 3]), 1), D([]))
case("logsumexp/empty-batch-dim0", lambda T, x: T.logsumexp(x.reshape([0, 3]), 0), D([]))
case("softmax.int/empty-batch", lambda T, x: T.softmax(x.reshape([0, 3]), 1), D([]))
case("log_softmax.int/empty-batch", lambda T, x: T.log_softmax(x.reshape([0, 3]), -1), D([]))
case("cumprod/empty-batch", lambda T, x: T.cumprod(x.reshape([0, 3]), 1), D([]))
case("cumprod/empty-dim", lambda T, x: T.cumprod(x.reshape([2, 0]), 1), D([]))
case("mm/empty-batch", lambda T, a, b: T.mm(a.reshape([0, 3]), b), D([]), R(3, 2, seed=1))
case("mm/empty-out-dim", lambda T, a, b: T.mm(a, b.reshape([3, 0])), R(2, 3, seed=1), D([]))
case("bmm/empty-rows", lambda T, a, b: T.bmm(a.reshape([2, 0, 3]), b), D([]), R(2, 3, 2, seed=1))
case("matmul/empty-batch", lambda T, a, b: T.matmul(a.reshape([0, 3]), b), D([]), R(3, 2, seed=1))
case("matmul/empty-batch-3d", lambda T, a, b: T.matmul(a.reshape([0, 2, 3]), b), D([]), R(3, 2, seed=1))
case("matmul/empty-batch-broadcast", lambda T, a, b: T.matmul(a.reshape([2, 0, 3]), b), D([]), R(2, 3, 4, seed=1))
case(
    "linear/empty-batch-3d",
    lambda T, x, w, b: T.linear(x.reshape([2, 0, 3]), w, b),
    D([]),
    R(4, 3, seed=2),
    R(4, seed=3),
)
case("linear/empty-batch-no-bias", lambda T, x, w: T.linear(x.reshape([0, 3]), w), D([]), R(4, 3, seed=2))
case(
    "lincomb/empty", lambda T, a, b, c: T.lincomb([a.reshape([0, 2]), b.reshape([0, 2])], c), D([]), D([]), R(2, seed=3)
)
case("t/empty-batch", lambda T, x: T.t(x.reshape([0, 3])), D([]))
case("cat/empty-batch", lambda T, a, b: T.cat([a.reshape([0, 3]), b.reshape([0, 3])]), D([]), D([]))
case("cat/empty-batch-dim1", lambda T, a, b: T.cat([a.reshape([0, 3]), b.reshape([0, 2])], 1), D([]), D([]))
case("stack/empty-batch", lambda T, a, b: T.stack([a.reshape([0, 3]), b.reshape([0, 3])], 1), D([]), D([]))
case("narrow/empty-batch", lambda T, x: T.narrow(x.reshape([0, 4]), 1, 1, 2), D([]))
case("view/empty-batch", lambda T, x: x.reshape([0, 4]).view([0, 2, 2]), D([]))
case("expand/empty-batch", lambda T, x: x.reshape([0, 1]).expand([0, 3]), D([]))
case("expand/to-empty", lambda T, x: x.expand([0, 3]), R(1, 3))
case("squeeze/empty-batch", lambda T, x: T.squeeze(x.reshape([0, 1, 3])), D([]))
case("squeeze.dim/empty-batch", lambda T, x: T.squeeze(x.reshape([0, 1, 3]), 1), D([]))
case("unsqueeze/empty-batch", lambda T, x: T.unsqueeze(x.reshape([0, 3]), 1), D([]))
case("transpose.int/empty-batch", lambda T, x: T.transpose(x.reshape([0, 3, 2]), 0, 2), D([]))
case("permute/empty-batch", lambda T, x: T.permute(x.reshape([0, 3, 2]), [2, 0, 1]), D([]))
case("select.int/empty-batch", lambda T, x: T.select(x.reshape([0, 3]), 1, 2), D([]))
case("select.int/empty-batch-error", lambda T, x: T.select(x.reshape([0, 3]), 0, 0), D([]))
case("to.dtype/empty-batch", lambda T, x: x.reshape([0, 3]).to(T.float32), D([]))
case("clone/empty-batch", lambda T, x: T.clone(x.reshape([0, 3])), D([]))
case("split.Tensor/empty-batch", lambda T, x: T.split(x.reshape([0, 4]), 2, 1), D([]))
case("split.Tensor/empty-dim", lambda T, x: T.split(x.reshape([0, 4]), 2, 0), D([]))
case("chunk/empty-batch", lambda T, x: T.chunk(x.reshape([0, 4]), 2, 1), D([]))
case("unbind.int/empty-batch", lambda T, x: T.unbind(x.reshape([0, 2]), 1), D([]))
case("index_select/empty-batch", lambda T, x, i: T.index_select(x.reshape([0, 3]), 1, i), D([]), L([2, 0]))
case("index_select/empty-source-empty-index", lambda T, x, i: T.index_select(x.reshape([0, 3]), 0, i), D([]), L([]))
case("gather/empty-batch", lambda T, x, i: T.gather(x.reshape([0, 3]), 1, i.reshape([0, 2])), D([]), L([]))
case("index_add/empty-index", lambda T, x, i, s: T.index_add(x, 0, i, s.reshape([0, 2])), R(3, 2), L([]), D([]))
case(
    "scatter_add/empty-index",
    lambda T, x, i, s: T.scatter_add(x, 0, i.reshape([0, 2]), s.reshape([0, 2])),
    R(3, 2),
    L([]),
    D([]),
)
case(
    "where.self/empty-batch",
    lambda T, c, a, b: T.where(c.reshape([0, 3]), a.reshape([0, 3]), b),
    B([]),
    D([]),
    R(3, seed=1),
)
case(
    "masked_fill.Scalar/empty-batch",
    lambda T, x, m: T.masked_fill(x.reshape([0, 3]), m, 1.0),
    D([]),
    B([True, False, True]),
)
case("eq.Tensor/empty-batch", lambda T, a, b: T.eq(a.reshape([0, 3]), b), D([]), R(3))
case("mse_loss/empty-batch-mean", lambda T, a, b: T.mse_loss(a.reshape([0, 3]), b.reshape([0, 3])), D([]), D([]))
case("mse_loss/empty-batch-sum", lambda T, a, b: T.mse_loss(a.reshape([0, 3]), b.reshape([0, 3]), 2), D([]), D([]))
case("mse_loss/empty-batch-none", lambda T, a, b: T.mse_loss(a.reshape([0, 3]), b.reshape([0, 3]), 0), D([]), D([]))
case("nll_loss/empty-batch-mean", lambda T, x, t: T.nll_loss(x.reshape([0, 3]), t), D([]), L([]))
case("nll_loss/empty-batch-sum", lambda T, x, t: T.nll_loss(x.reshape([0, 3]), t, None, 2), D([]), L([]))
case("nll_loss/empty-batch-none", lambda T, x, t: T.nll_loss(x.reshape([0, 3]), t, None, 0), D([]), L([]))
case("cross_entropy_loss/empty-batch-mean", lambda T, x, t: T.cross_entropy_loss(x.reshape([0, 3]), t), D([]), L([]))
case(
    "cross_entropy_loss/empty-batch-sum",
    lambda T, x, t: T.cross_entropy_loss(x.reshape([0, 3]), t, None, 2),
    D([]),
    L([]),
)
case(
    "cross_entropy_loss/empty-batch-none",
    lambda T, x, t: T.cross_entropy_loss(x.reshape([0, 3]), t, None, 0),
    D([]),
    L([]),
)
case("embedding/empty-indices", lambda T, w, i: T.embedding(w, i.reshape([0, 2])), R(3, 2), L([]))
case("native_dropout/empty-batch", lambda T, x: T.native_dropout(x.reshape([0, 3]), 0.5, False), D([]))
case("dropout/empty-batch", lambda T, x: T.dropout(x.reshape([0, 3]), 0.0, True), D([]))
case("softmax.int/empty-batch-second", lambda T, x: T.softmax(x.reshape([0, 3]), 1), D([]), second=True)
case(
    "lstm_cell/empty-batch",
    lambda T, x, h, c, wi, wh, bi, bh: T.lstm_cell(
        x.reshape([0, 3]), [h.reshape([0, 2]), c.reshape([0, 2])], wi, wh, bi, bh
    ),
    D([]),
    D([]),
    D([]),
    R(8, 3, seed=4),
    R(8, 2, seed=5),
    R(8, seed=6),
    R(8, seed=7),
)
case("zeros_like/empty-batch", lambda T, x: T.zeros_like(x.reshape([0, 3])), D([]))
case("ones_like/empty-batch", lambda T, x: T.ones_like(x.reshape([0, 3])) + x.reshape([0, 3]), D([]))

# -1 inference with zero elements.
for i, (src, dst) in enumerate(
    [
        ([0, 3], [-1, 3]),
        ([0, 4], [-1, 2]),
        ([2, 0, 3], [-1]),
        ([0, 3], [3, -1]),
        ([0, 6], [2, -1, 3]),
        ([3, 0], [-1, 0]),
        ([0], [0, -1]),
        ([0, 3], [-1, 0, 3]),
        ([0, 3], [-1, -1]),
        ([0, 3], [2, 4]),
    ]
):
    case(f"reshape/zero-elements-{i}", lambda T, x, src=src, dst=dst: T.reshape(x.reshape(src), dst), D([]))
    case(f"view/zero-elements-{i}", lambda T, x, src=src, dst=dst: x.reshape(src).view(dst), D([]))
case("expand/-1-zero", lambda T, x: x.reshape([0, 1]).expand([-1, 4]), D([]))

# PyTorch's legacy 1-D empty tensor in cat: skipped whatever the other shapes.
case("cat/legacy-empty-first", lambda T, e, x: T.cat([e, x]), D([]), R(2, 3, seed=1), second=True)
case("cat/legacy-empty-last-dim1", lambda T, e, x: T.cat([x, e], 1), D([]), R(2, 3, seed=1))
case("cat/legacy-empty-middle-dim-1", lambda T, e, x, y: T.cat([x, e, y], -1), D([]), R(2, 3, seed=1), R(2, 1, seed=2))
case("cat/legacy-empty-3d", lambda T, e, x: T.cat([e, x, e], 2), D([]), R(2, 1, 3, seed=1))
case("cat/legacy-empty-only", lambda T, e, f: T.cat([e, f]), D([]), D([]))
case("cat/legacy-empty-1d", lambda T, e, x: T.cat([e, x]), D([]), R(3, seed=1))
case("cat/legacy-empty-int64", lambda T, e, x: T.cat([e, x]), L([]), L([[1, 2], [3, 4]]))
case("cat/legacy-empty-mixed-dtype", lambda T, e, x: T.cat([e, x]), L([]), R(2, 2, seed=1))
case("cat/promote/int64+float32", lambda T, a, b: T.cat([a, b]), _dim("int64"), _dim("float32"))
case("cat/promote/float32+float64", lambda T, a, b: T.cat([a, b]), _dim("float32"), _dim("float64"), second=True)
case("cat/promote/bool+int64", lambda T, a, b: T.cat([a, b]), _dim("bool"), _dim("int64"))
case("stack/promote/float32+float64", lambda T, a, b: T.stack([a, b]), _dim("float32"), _dim("float64"))
case("cat/not-legacy-2d-empty-error", lambda T, e, x: T.cat([e.reshape([0, 2]), x]), D([]), R(2, 3, seed=1))

# Broadcasting where PyTorch broadcasts.
case(
    "masked_fill.Scalar/broadcast-self",
    lambda T, x, m: T.masked_fill(x, m, 2.0),
    R(3),
    B([[True, False, True], [False, False, True]]),
    second=True,
)
case("masked_fill.Scalar/broadcast-both", lambda T, x, m: T.masked_fill(x, m, -1.0), R(2, 1), B([[True, False, True]]))
case("masked_fill.Scalar/broadcast-0-dim-self", lambda T, x, m: T.masked_fill(x, m, 0.5), R(), B([True, False]))
case(
    "masked_fill.Scalar/int64-float-value",
    lambda T, x, m: T.masked_fill(x, m, 2.5),
    L([1, 2, 3]),
    B([True, False, True]),
)
case(
    "masked_fill.Scalar/bool-value",
    lambda T, x, m: T.masked_fill(x, m, True),
    B([False, False, True]),
    B([True, False, False]),
)
case("masked_fill.Scalar/float32", lambda T, x, m: T.masked_fill(x, m, 1e40), _dim("float32"), B([True, False, True]))
case("masked_fill.Scalar/bad-broadcast", lambda T, x, m: T.masked_fill(x, m, 1.0), R(3), B([True, False]))
for r in [0, 1, 2]:
    case(
        f"mse_loss/broadcast-target/reduction={r}",
        lambda T, a, b, r=r: T.mse_loss(a, b, r),
        R(2, 3, seed=3),
        R(3, seed=4),
        second=True,
    )
    case(
        f"mse_loss/broadcast-self/reduction={r}",
        lambda T, a, b, r=r: T.mse_loss(a, b, r),
        R(3, seed=5),
        R(2, 3, seed=6),
    )
    case(
        f"mse_loss/broadcast-both/reduction={r}",
        lambda T, a, b, r=r: T.mse_loss(a, b, r),
        R(2, 1, seed=7),
        R(1, 3, seed=8),
    )
case("mse_loss/broadcast-0-dim-target", lambda T, a, b: T.mse_loss(a, b), R(2, 2, seed=1), R(seed=2))
case("mse_loss/promote-float32-float64", lambda T, a, b: T.mse_loss(a, b), _dim("float32"), _dim("float64"))
case("mse_loss/bad-broadcast", lambda T, a, b: T.mse_loss(a, b), R(2, 3), R(2))

# cross_entropy with class-probability targets and K-dimensional inputs.
PROBS = D([[0.2, 0.5, 0.3], [0.0, 1.0, 0.0], [0.6, 0.1, 0.3], [0.25, 0.25, 0.5]])
for r in [0, 1, 2]:
    case(
        f"cross_entropy_loss/probabilities/reduction={r}",
        lambda T, x, p, r=r: T.cross_entropy_loss(x, p, None, r),
        R(4, 3, seed=r),
        PROBS,
        second=True,
    )
    case(
        f"cross_entropy_loss/probabilities-weight/reduction={r}",
        lambda T, x, p, w, r=r: T.cross_entropy_loss(x, p, w, r),
        R(4, 3, seed=r + 3),
        PROBS,
        P(3, seed=9, grad=False),
    )
    case(
        f"cross_entropy_loss/probabilities-smoothing/reduction={r}",
        lambda T, x, p, r=r: T.cross_entropy_loss(x, p, None, r, -100, 0.2),
        R(4, 3, seed=r + 6),
        PROBS,
    )
    case(
        f"cross_entropy_loss/k-dim/reduction={r}",
        lambda T, x, t, r=r: T.cross_entropy_loss(x, t, None, r),
        R(2, 3, 4, seed=r),
        L([[0, 2, 1, 1], [2, 2, 0, 1]]),
        second=True,
    )
    case(
        f"cross_entropy_loss/k-dim-weight-ignore/reduction={r}",
        lambda T, x, t, w, r=r: T.cross_entropy_loss(x, t, w, r, 1),
        R(2, 3, 2, 2, seed=r + 3),
        L([[[0, 2], [1, 1]], [[2, 2], [0, 1]]]),
        P(3, seed=4, grad=False),
    )
    case(
        f"cross_entropy_loss/k-dim-smoothing/reduction={r}",
        lambda T, x, t, r=r: T.cross_entropy_loss(x, t, None, r, -100, 0.1),
        R(2, 3, 4, seed=r + 6),
        L([[0, 2, 1, 1], [2, 2, 0, 1]]),
    )
    case(
        f"cross_entropy_loss/k-dim-probabilities/reduction={r}",
        lambda T, x, p, r=r: T.cross_entropy_loss(x, T.softmax(p, 1), None, r),
        R(2, 3, 4, seed=r + 9),
        R(2, 3, 4, seed=r + 12),
        second=True,
    )
case(
    "cross_entropy_loss/probabilities-1d",
    lambda T, x, p: T.cross_entropy_loss(x, p),
    R(3, seed=1),
    D([0.1, 0.7, 0.2]),
    second=True,
)
case(
    "cross_entropy_loss/probabilities-target-grad",
    lambda T, x, p: T.cross_entropy_loss(x, T.softmax(p, 1)),
    R(2, 3, seed=1),
    R(2, 3, seed=2),
    second=True,
)
case(
    "cross_entropy_loss/probabilities-float32",
    lambda T, x, p: T.cross_entropy_loss(x, p),
    R(2, 3, seed=1, dtype="float32"),
    D([[0.5, 0.5, 0.0], [0.1, 0.2, 0.7]], "float32"),
)
case(
    "cross_entropy_loss/probabilities-shape-error",
    lambda T, x, p: T.cross_entropy_loss(x, p),
    R(2, 3, seed=1),
    D([0.5, 0.5, 0.0]),
)
case(
    "cross_entropy_loss/probabilities-empty-batch",
    lambda T, x, p: T.cross_entropy_loss(x.reshape([0, 3]), p.reshape([0, 3])),
    D([]),
    D([]),
)
case(
    "cross_entropy_loss/k-dim-empty-spatial",
    lambda T, x, t: T.cross_entropy_loss(x.reshape([2, 3, 0]), t.reshape([2, 0])),
    D([]),
    L([]),
)
case(
    "cross_entropy_loss/k-dim-target-shape-error",
    lambda T, x, t: T.cross_entropy_loss(x, t),
    R(2, 3, 4),
    L([[0, 1, 2], [0, 1, 2]]),
)
case(
    "cross_entropy_loss/k-dim-all-ignored",
    lambda T, x, t: T.cross_entropy_loss(x, t, None, 1, 0),
    R(1, 2, 3),
    L([[0, 0, 0]]),
)

# cumprod's gradient, exact with zeros (PyTorch's cumprod_backward), first and second order.
CUMPROD = {
    "no-zero": [[1.5, -0.5, 2.0, 0.75]],
    "zero-first": [[0.0, 1.5, -2.0, 0.5]],
    "zero-middle": [[1.5, 0.0, -2.0, 0.5]],
    "zero-last": [[1.5, -0.5, 2.0, 0.0]],
    "two-zeros": [[1.5, 0.0, -2.0, 0.0]],
    "two-zeros-adjacent": [[0.0, 0.0, -2.0, 0.5]],
    "all-zeros": [[0.0, 0.0, 0.0, 0.0]],
    "rows": [[1.5, 0.0, -2.0, 0.5], [0.0, 1.25, 3.0, -1.0], [2.0, 0.5, 0.0, 0.0]],
}
for label, data in CUMPROD.items():
    case(f"cumprod/grad/{label}", lambda T, x: T.cumprod(x, -1), D(data), second=True)
    case(f"cumprod/grad/{label}/dim=0", lambda T, x: T.cumprod(x.t(), 0), D(data), second=True)
case("cumprod/grad/3d", lambda T, x: T.cumprod(x, 1), R(2, 3, 2, seed=4), second=True)
case("cumprod/grad/0-dim", lambda T, x: T.cumprod(x, 0), R(seed=3), second=True)
case("cumprod/grad/one-element-dim", lambda T, x: T.cumprod(x, 1), R(3, 1, seed=2), second=True)
case("cumprod/grad/float32", lambda T, x: T.cumprod(x, 0), D([1.5, 0.0, -2.0, 0.5], "float32"))
case(
    "cumprod/grad/dtype=float64-of-float32",
    lambda T, x: T.cumprod(x, 0, dtype=T.float64),
    D([1.5, 0.0, -2.0, 0.5], "float32"),
)
case("cumprod/grad/nan", lambda T, x: T.cumprod(x, 0), D([1.5, NAN, 0.0, 2.0]))
case("cumprod/grad/inf", lambda T, x: T.cumprod(x, 0), D([1.5, INF, 2.0]))
case("cumprod/grad/squared", lambda T, x: T.cumprod(x * x, 1), D([[0.0, 1.5, 0.0], [1.0, -2.0, 0.5]]), second=True)
case("cumprod/dtype=int64-requires-grad-error", lambda T, x: T.cumprod(x, 0, dtype=T.int64), R(3))
case("cumprod/dtype=int64-no-grad", lambda T, x: T.cumprod(x, 0, dtype=T.int64), D([1.5, -2.5, 3.0], grad=False))
case("sum/dtype=int64-no-grad", lambda T, x: T.sum(x, dtype=T.int64), D([1.5, -2.5, 3.0], grad=False))
case("sum/dtype=bool-no-grad", lambda T, x: T.sum(x, [0], dtype=T.bool), D([0.0, -2.5, 0.0], grad=False))
case("cumprod/negative-dim-error", lambda T, x: T.cumprod(x, 2), R(2, 3))

# Python operators with numbers on the right: a - 1 is PyTorch's sub (refused for bool tensors).
for da in DTYPES:
    case(f"sub.Tensor/operator/{da}-1", lambda T, a: a - 1, _dim(da))
    case(f"sub.Tensor/operator/{da}-2.5", lambda T, a: a - 2.5, _dim(da))
    case(f"sub.Tensor/operator/1-{da}", lambda T, a: 1 - a, _dim(da))
    case(f"sub.Tensor/operator/{da}-True", lambda T, a: a - True, _dim(da))

import cases_views  # noqa: E402, F401  (views and in-place ops: registers its cases here)

# ---------------------------------------------------------------------------------------------
# nn: activations (issue 26). Inputs spread over [-4, 4) so that the kinks (0, the clamp bounds,
# +-3, +-lambd) have values on both sides; `special` has 0, +-0.5, +-3 (on the kinks of several)
# and the infinities. A NaN is checked in the forward values only: PyTorch's kernels send a NaN
# down different branches in their vectorized and scalar loops (elu_backward, hardtanh_backward,
# the shrinks' backwards: NaN or grad or 0), and which loop runs depends on the length and the CPU.
# ---------------------------------------------------------------------------------------------


def W(*shape: int, seed: int = 0, dtype: str = "float64", grad: bool = True):
    """A random input spread over [-4, 4)."""
    return R(*shape, seed=seed, lo=-4.0, hi=4.0, dtype=dtype, grad=grad)


NN_UNARY = {
    "gelu": lambda T, x: T.gelu(x),
    "gelu/tanh": lambda T, x: T.gelu(x, approximate="tanh"),
    "silu": lambda T, x: T.silu(x),
    "mish": lambda T, x: T.mish(x),
    "elu": lambda T, x: T.elu(x),
    "elu/alpha-scale-input_scale": lambda T, x: T.elu(x, 0.5, 2.0, 1.5),
    "selu": lambda T, x: T.selu(x),
    "celu": lambda T, x: T.celu(x),
    "celu/alpha=2.5": lambda T, x: T.celu(x, 2.5),
    "leaky_relu": lambda T, x: T.leaky_relu(x),
    "leaky_relu/slope=0.3": lambda T, x: T.leaky_relu(x, 0.3),
    "hardtanh": lambda T, x: T.hardtanh(x),
    "hardtanh/bounds": lambda T, x: T.hardtanh(x, -0.7, 2.0),
    "hardsigmoid": lambda T, x: T.hardsigmoid(x),
    "hardswish": lambda T, x: T.hardswish(x),
    "softplus": lambda T, x: T.softplus(x),
    "softplus/beta-threshold": lambda T, x: T.softplus(x, 2.0, 1.5),
    "softshrink": lambda T, x: T.softshrink(x),
    "softshrink/lambd=1.5": lambda T, x: T.softshrink(x, 1.5),
    "hardshrink": lambda T, x: T.hardshrink(x),
    "hardshrink/method": lambda T, x: x.hardshrink(1.5),
    "log_sigmoid": lambda T, x: T.log_sigmoid(x),
    "log_sigmoid_forward": lambda T, x: T.log_sigmoid_forward(x),
    "threshold": lambda T, x: T.threshold(x, 0.1, -2.0),
}
# PyTorch has no derivative for hardsigmoid_backward: its second derivative raises there.
NN_NO_SECOND = {"hardsigmoid"}
for name, f in NN_UNARY.items():
    s = name.split("/")[0] not in NN_NO_SECOND
    case(f"{name}/2x3", f, W(2, 3, seed=1), second=s)
    case(f"{name}/0-dim", f, W(seed=2), second=s)
    case(f"{name}/empty", f, D([[], []]))
    case(f"{name}/transposed", lambda T, x, f=f: f(T, x.t()), W(3, 2, seed=3), second=s)
    case(f"{name}/expanded", lambda T, x, f=f: f(T, x.expand([3, 2])), W(1, 2, seed=4), second=s)
    case(f"{name}/float32", f, W(5, seed=5, dtype="float32"))
    case(f"{name}/special", f, D([0.0, -0.0, 0.5, -0.5, 1.0, -3.0, 3.0, INF, -INF]))
    case(f"{name}/nan", f, D([NAN, 1.0, -1.0, NAN], grad=False))
    case(f"{name}/int64", f, L([[3, -2, 0], [1, 0, -7]]))
case("hardsigmoid/second-derivative", lambda T, x: T.hardsigmoid(x), W(4, seed=6), second=True)
case("gelu/approximate-error", lambda T, x: T.gelu(x, approximate="fast"), W(3))
case("softshrink/negative-lambd-error", lambda T, x: T.softshrink(x, -0.5), W(3))
case("softplus/large", lambda T, x: T.softplus(x), D([30.0, -30.0, 19.9, 20.1]), second=True)
case("log_sigmoid/large", lambda T, x: T.log_sigmoid(x), D([-800.0, -30.0, 30.0, 800.0]), second=True)
case("mish/large", lambda T, x: T.mish(x), D([-30.0, 25.0, 800.0]))
case("selu/values", lambda T, x: T.selu(x), D([-2.0, -0.1, 0.1, 2.0]), second=True)
case("celu/alpha=0-error", lambda T, x: T.celu(x, 0.0), W(3))

# The backward ops, called directly: grad_output against self, broadcasting; their out=
# (grad_input=) variants; double backward through the backward op's own formula.
NN_BACKWARD = {
    "gelu_backward": lambda T, g, x: T.gelu_backward(g, x),
    "gelu_backward/tanh": lambda T, g, x: T.gelu_backward(g, x, approximate="tanh"),
    "silu_backward": lambda T, g, x: T.silu_backward(g, x),
    "mish_backward": lambda T, g, x: T.mish_backward(g, x),
    "elu_backward": lambda T, g, x: T.elu_backward(g, 0.5, 2.0, 1.5, False, x),
    "elu_backward/is_result": lambda T, g, x: T.elu_backward(g, 1.2, 1.0, 0.8, True, T.elu(x, 1.2, 1.0, 0.8)),
    "leaky_relu_backward": lambda T, g, x: T.leaky_relu_backward(g, x, 0.2, False),
    "hardtanh_backward": lambda T, g, x: T.hardtanh_backward(g, x, -0.7, 2.0),
    "hardsigmoid_backward": lambda T, g, x: T.hardsigmoid_backward(g, x),
    "hardswish_backward": lambda T, g, x: T.hardswish_backward(g, x),
    "softplus_backward": lambda T, g, x: T.softplus_backward(g, x, 2.0, 1.5),
    "softshrink_backward": lambda T, g, x: T.softshrink_backward(g, x, 1.5),
    "hardshrink_backward": lambda T, g, x: T.hardshrink_backward(g, x, 1.5),
    "log_sigmoid_backward": lambda T, g, x: T.log_sigmoid_backward(g, x, T.log_sigmoid_forward(x)[1]),
}
# PyTorch cannot differentiate these three (silu_backward's and mish_backward's autograd kernels
# are not registered for a direct call, hardsigmoid_backward has no formula): values only. Their
# derivatives are checked through the ops' second derivatives above and by the op sweep.
NN_BACKWARD_VALUES_ONLY = {"silu_backward", "mish_backward", "hardsigmoid_backward"}
for name, f in NN_BACKWARD.items():
    g = name.split("/")[0] not in NN_BACKWARD_VALUES_ONLY
    case(f"{name}/2x3", f, R(2, 3, seed=7, grad=g), W(2, 3, seed=8, grad=g), second=g)
    case(f"{name}/broadcast", f, R(2, 3, seed=9, grad=g), W(3, seed=10, grad=g), second=g)
    case(f"{name}/float32", f, R(4, seed=11, dtype="float32", grad=g), W(4, seed=12, dtype="float32", grad=g))
    case(f"{name}/special", f, D([1.0] * 5, grad=g), D([0.0, 0.5, -3.0, INF, -INF], grad=g))
case(
    "leaky_relu_backward/self_is_result-negative-slope-error",
    lambda T, g, x: T.leaky_relu_backward(g, x, -0.2, True),
    R(3),
    W(3),
)
case(
    "elu_backward/is_result-negative-alpha-error",
    lambda T, g, x: T.elu_backward(g, -1.0, 1.0, 1.0, True, x),
    R(3),
    W(3),
)


def _zeros(T, *shape):
    return T.zeros(list(shape), dtype=T.float64)


NN_OUT = {
    "gelu.out": lambda T, x: T.gelu(x, approximate="tanh", out=_zeros(T, 2, 3)),
    "silu.out": lambda T, x: T.silu(x, out=_zeros(T, 2, 3)),
    "mish.out": lambda T, x: T.mish(x, out=_zeros(T, 2, 3)),
    "elu.out": lambda T, x: T.elu(x, 0.5, 2.0, 1.5, out=_zeros(T, 2, 3)),
    "leaky_relu.out": lambda T, x: T.leaky_relu(x, 0.3, out=_zeros(T, 2, 3)),
    "hardtanh.out": lambda T, x: T.hardtanh(x, -0.7, 2.0, out=_zeros(T, 2, 3)),
    "hardsigmoid.out": lambda T, x: T.hardsigmoid(x, out=_zeros(T, 2, 3)),
    "hardswish.out": lambda T, x: T.hardswish(x, out=_zeros(T, 2, 3)),
    "softplus.out": lambda T, x: T.softplus(x, 2.0, 1.5, out=_zeros(T, 2, 3)),
    "softshrink.out": lambda T, x: T.softshrink(x, 1.5, out=_zeros(T, 2, 3)),
    "hardshrink.out": lambda T, x: T.hardshrink(x, 1.5, out=_zeros(T, 2, 3)),
    "log_sigmoid.out": lambda T, x: T.log_sigmoid(x, out=_zeros(T, 2, 3)),
    "threshold.out": lambda T, x: T.threshold(x, 0.1, -2.0, out=_zeros(T, 2, 3)),
    "glu.out": lambda T, x: T.glu(x, 0, out=_zeros(T, 1, 3)),
}
for name, f in NN_OUT.items():
    case(f"{name}/values", f, W(2, 3, seed=13, grad=False))
    case(f"{name}/requires-grad-error", f, W(2, 3, seed=14))
case("threshold.out/int64", lambda T, x: T.threshold(x, 0, 5, out=T.zeros([3], dtype=T.int64)), L([-1, 0, 2]))

NN_BACKWARD_OUT = {
    "gelu_backward.grad_input": lambda T, g, x: T.gelu_backward(g, x, grad_input=_zeros(T, 2, 3)),
    "silu_backward.grad_input": lambda T, g, x: T.silu_backward(g, x, grad_input=_zeros(T, 2, 3)),
    "elu_backward.grad_input": lambda T, g, x: T.elu_backward(g, 0.5, 2.0, 1.5, False, x, grad_input=_zeros(T, 2, 3)),
    "leaky_relu_backward.grad_input": lambda T, g, x: T.leaky_relu_backward(
        g, x, 0.2, False, grad_input=_zeros(T, 2, 3)
    ),
    "hardtanh_backward.grad_input": lambda T, g, x: T.hardtanh_backward(g, x, -0.7, 2.0, grad_input=_zeros(T, 2, 3)),
    "hardsigmoid_backward.grad_input": lambda T, g, x: T.hardsigmoid_backward(g, x, grad_input=_zeros(T, 2, 3)),
    "hardswish_backward.out": lambda T, g, x: T.hardswish_backward(g, x, out=_zeros(T, 2, 3)),
    "softplus_backward.grad_input": lambda T, g, x: T.softplus_backward(g, x, 2.0, 1.5, grad_input=_zeros(T, 2, 3)),
    "softshrink_backward.grad_input": lambda T, g, x: T.softshrink_backward(g, x, 1.5, grad_input=_zeros(T, 2, 3)),
    "hardshrink_backward.grad_input": lambda T, g, x: T.hardshrink_backward(g, x, 1.5, grad_input=_zeros(T, 2, 3)),
    "log_sigmoid_backward.grad_input": lambda T, g, x: T.log_sigmoid_backward(
        g, x, T.log_sigmoid_forward(x)[1], grad_input=_zeros(T, 2, 3)
    ),
    "glu_backward.grad_input": lambda T, g, x: T.glu_backward(g[:1], x, 0, grad_input=_zeros(T, 2, 3)),
}
for name, f in NN_BACKWARD_OUT.items():
    case(f"{name}/values", f, R(2, 3, seed=15, grad=False), W(2, 3, seed=16, grad=False))

# glu: halves along dim (a * sigmoid(b)); its backward and their errors.
for d, shape in [(-1, (2, 4)), (0, (4, 3)), (1, (2, 6, 2))]:
    case(f"glu/dim={d}", lambda T, x, d=d: T.glu(x, d), W(*shape, seed=17), second=True)
case("glu/default-dim", lambda T, x: T.glu(x), W(3, 2, seed=18), second=True)
case("glu/transposed", lambda T, x: T.glu(x.t(), 0), W(3, 4, seed=19), second=True)
case("glu/float32", lambda T, x: T.glu(x), W(2, 4, seed=20, dtype="float32"))
case("glu/empty", lambda T, x: T.glu(x, 0), D([[], []]))
case("glu/odd-error", lambda T, x: T.glu(x), W(2, 3))
case("glu/0-dim-error", lambda T, x: T.glu(x), W())
case("glu/int64-error", lambda T, x: T.glu(x), L([1, 2]))
case("glu_backward/dim=1", lambda T, g, x: T.glu_backward(g, x, 1), R(2, 2, seed=21), W(2, 4, seed=22), second=True)
case("glu_backward/dim=0", lambda T, g, x: T.glu_backward(g, x, 0), R(1, 3, seed=23), W(2, 3, seed=24), second=True)
case("glu_backward/shape-error", lambda T, g, x: T.glu_backward(g, x, 1), R(2, 3), W(2, 4))

# prelu: one weight, or one per channel (dim 1); _prelu_kernel's broadcasting and its backward.
case("prelu/channels", lambda T, x, w: T.prelu(x, w), W(2, 3, 2, seed=25), R(3, seed=26), second=True)
case("prelu/one-weight", lambda T, x, w: T.prelu(x, w), W(2, 3, seed=27), R(1, seed=28), second=True)
case("prelu/method", lambda T, x, w: x.prelu(w), W(4, 2, seed=29), R(2, seed=30), second=True)
case("prelu/1d", lambda T, x, w: T.prelu(x, w), W(4, seed=31), R(1, seed=32), second=True)
case("prelu/0-dim-weight", lambda T, x, w: T.prelu(x, w), W(2, 3, seed=33), R(seed=34), second=True)
case("prelu/float32", lambda T, x, w: T.prelu(x, w), W(2, 2, seed=35, dtype="float32"), R(2, seed=36, dtype="float32"))
case("prelu/special", lambda T, x, w: T.prelu(x, w), D([0.0, -0.0, NAN, INF, -INF]), D([0.25]))
case("prelu/channel-mismatch-error", lambda T, x, w: T.prelu(x, w), W(2, 3), R(2))
case("prelu/2d-weight-error", lambda T, x, w: T.prelu(x, w), W(2, 3), R(3, 1))
case("prelu/dtype-error", lambda T, x, w: T.prelu(x, w), W(2, 3), R(3, dtype="float32"))
case(
    "_prelu_kernel/broadcast", lambda T, x, w: T._prelu_kernel(x, w), W(2, 3, 2, seed=37), R(3, 1, seed=38), second=True
)
case(
    "_prelu_kernel_backward/both",
    lambda T, g, x, w: T._prelu_kernel_backward(g, x, w),
    R(3, 2, seed=39),
    W(3, 2, seed=40),
    R(3, 1, seed=41),
    second=True,
)
case(
    "_prelu_kernel_backward/grad-weight",
    lambda T, g, x, w: T._prelu_kernel_backward(g, x, w)[1],
    R(4, seed=42),
    W(4, seed=43),
    R(4, seed=44),
    second=True,
)

# ---------------------------------------------------------------------------------------------
# nn: losses (issue 26). torch._C._nn's bindings default reduction to None: every case passes it.
# ---------------------------------------------------------------------------------------------


def PR(*shape: int, seed: int = 0, grad: bool = True):
    """Probabilities in [0.05, 0.95)."""
    return R(*shape, seed=seed, lo=0.05, hi=0.95, grad=grad)


def SIGNS(n: int, seed: int = 0):
    rng = random.Random(seed)
    return D([rng.choice([-1.0, 1.0]) for _ in range(n)], grad=False)


for r in [0, 1, 2]:
    case(
        f"l1_loss/reduction={r}", lambda T, a, b, r=r: T.l1_loss(a, b, r), W(2, 3, seed=1), W(2, 3, seed=2), second=True
    )
    for beta in [1.0, 0.3]:
        case(
            f"smooth_l1_loss/reduction={r}-beta={beta}",
            lambda T, a, b, r=r, beta=beta: T.smooth_l1_loss(a, b, r, beta),
            W(2, 3, seed=3),
            W(2, 3, seed=4),
            second=True,
        )
        case(
            f"smooth_l1_loss_backward/reduction={r}-beta={beta}",
            lambda T, g, a, b, r=r, beta=beta: T.smooth_l1_loss_backward(g, a, b, r, beta),
            R(2, 3, seed=5) if r == 0 else R(seed=5),
            W(2, 3, seed=6),
            W(2, 3, seed=7),
            second=True,
        )
    for delta in [1.0, 0.3]:
        case(
            f"huber_loss/reduction={r}-delta={delta}",
            lambda T, a, b, r=r, delta=delta: T.huber_loss(a, b, r, delta),
            W(2, 3, seed=8),
            W(2, 3, seed=9),
            second=True,
        )
        case(
            f"huber_loss_backward/reduction={r}-delta={delta}",
            lambda T, g, a, b, r=r, delta=delta: T.huber_loss_backward(g, a, b, r, delta),
            R(2, 3, seed=10) if r == 0 else R(seed=10),
            W(2, 3, seed=11),
            W(2, 3, seed=12),
            second=True,
        )
    case(
        f"soft_margin_loss/reduction={r}",
        lambda T, a, t, r=r: T.soft_margin_loss(a, t, r),
        W(6, seed=13),
        SIGNS(6, 14),
        second=True,
    )
    case(
        f"soft_margin_loss_backward/reduction={r}",
        lambda T, g, a, t, r=r: T.soft_margin_loss_backward(g, a, t, r),
        R(6, seed=15) if r == 0 else R(seed=15),
        W(6, seed=16),
        SIGNS(6, 17),
        second=True,
    )
    case(
        f"binary_cross_entropy/reduction={r}",
        lambda T, a, t, r=r: T.binary_cross_entropy(a, t, None, r),
        PR(2, 3, seed=18),
        PR(2, 3, seed=19),
        second=True,
    )
    case(
        f"binary_cross_entropy/weight-reduction={r}",
        lambda T, a, t, w, r=r: T.binary_cross_entropy(a, t, w, r),
        PR(2, 3, seed=20),
        PR(2, 3, seed=21, grad=False),
        P(3, seed=22, grad=False),
        second=True,
    )
    case(
        f"binary_cross_entropy_backward/reduction={r}",
        lambda T, g, a, t, w, r=r: T.binary_cross_entropy_backward(g, a, t, w, r),
        R(2, 3, seed=23) if r == 0 else R(seed=23),
        PR(2, 3, seed=24),
        PR(2, 3, seed=25),
        P(3, seed=26, grad=False),
        second=True,
    )
    case(
        f"binary_cross_entropy_with_logits/reduction={r}",
        lambda T, a, t, r=r: T.binary_cross_entropy_with_logits(a, t, None, None, r),
        W(2, 3, seed=27),
        PR(2, 3, seed=28),
        second=True,
    )
    case(
        f"binary_cross_entropy_with_logits/weights-reduction={r}",
        lambda T, a, t, w, p, r=r: T.binary_cross_entropy_with_logits(a, t, w, p, r),
        W(2, 3, seed=29),
        PR(2, 3, seed=30),
        P(3, seed=31, grad=False),
        P(3, seed=32, grad=False),
        second=True,
    )
    case(
        f"kl_div/reduction={r}",
        lambda T, a, t, r=r: T.kl_div(a, t, r),
        R(2, 3, seed=33),
        PR(2, 3, seed=34),
        second=True,
    )
    case(
        f"kl_div/log_target-reduction={r}",
        lambda T, a, t, r=r: T.kl_div(a, t, r, log_target=True),
        R(2, 3, seed=35),
        R(2, 3, seed=36),
        second=True,
    )
    case(
        f"margin_ranking_loss/reduction={r}",
        lambda T, a, b, t, r=r: T.margin_ranking_loss(a, b, t, 0.3, r),
        W(6, seed=37),
        W(6, seed=38),
        SIGNS(6, 39),
        second=True,
    )
case(
    "l1_loss/float32", lambda T, a, b: T.l1_loss(a, b, 1), W(4, seed=1, dtype="float32"), W(4, seed=2, dtype="float32")
)
case("l1_loss/empty-mean", lambda T, a, b: T.l1_loss(a, b, 1), D([]), D([]))
case(
    "smooth_l1_loss/float32",
    lambda T, a, b: T.smooth_l1_loss(a, b, 1, 1.0),
    W(4, seed=1, dtype="float32"),
    W(4, seed=2, dtype="float32"),
)
case("smooth_l1_loss/negative-beta-error", lambda T, a, b: T.smooth_l1_loss(a, b, 1, -1.0), W(3), W(3))
case("smooth_l1_loss/0-dim", lambda T, a, b: T.smooth_l1_loss(a, b, 1, 1.0), W(seed=1), W(seed=2), second=True)
case("huber_loss/zero-delta-error", lambda T, a, b: T.huber_loss(a, b, 1, 0.0), W(3), W(3))
case(
    "huber_loss/float32",
    lambda T, a, b: T.huber_loss(a, b, 2, 0.5),
    W(4, seed=1, dtype="float32"),
    W(4, seed=2, dtype="float32"),
)
case(
    "soft_margin_loss/large",
    lambda T, a, t: T.soft_margin_loss(a, t, 0),
    D([-800.0, 30.0, 800.0]),
    D([1.0, -1.0, -1.0], grad=False),
)
case(
    "binary_cross_entropy/zero-and-one",
    lambda T, a, t: T.binary_cross_entropy(a, t, None, 0),
    D([0.0, 1.0, 0.5], grad=False),
    D([1.0, 0.0, 0.5], grad=False),
)
case(
    "binary_cross_entropy/out-of-range-error",
    lambda T, a, t: T.binary_cross_entropy(a, t, None, 1),
    D([1.5, 0.5]),
    D([1.0, 0.0]),
)
case(
    "binary_cross_entropy/float32",
    lambda T, a, t: T.binary_cross_entropy(a, t, None, 1),
    R(4, seed=1, lo=0.1, hi=0.9, dtype="float32"),
    D([0.0, 1.0, 0.5, 0.25], "float32"),
)
case(
    "binary_cross_entropy_with_logits/large",
    lambda T, a, t: T.binary_cross_entropy_with_logits(a, t, None, None, 0),
    D([-800.0, 30.0, 800.0]),
    D([1.0, 0.0, 0.5]),
    second=True,
)
case("kl_div/zero-target-value", lambda T, a, t: T.kl_div(a, t, 0), R(3, seed=40), D([0.0, 0.5, 0.5], grad=False))
case(
    "smooth_l1_loss.out/values",
    lambda T, a, b: T.smooth_l1_loss(a, b, 1, 0.5, out=T.zeros([], dtype=T.float64)),
    W(2, 3, seed=41, grad=False),
    W(2, 3, seed=42, grad=False),
)
case(
    "huber_loss.out/values",
    lambda T, a, b: T.huber_loss(a, b, 0, 0.5, out=T.zeros([2, 3], dtype=T.float64)),
    W(2, 3, seed=43, grad=False),
    W(2, 3, seed=44, grad=False),
)
case(
    "soft_margin_loss.out/values",
    lambda T, a, t: T.soft_margin_loss(a, t, 2, out=T.zeros([], dtype=T.float64)),
    W(6, seed=45, grad=False),
    SIGNS(6, 46),
)
case(
    "binary_cross_entropy.out/values",
    lambda T, a, t: T.binary_cross_entropy(a, t, None, 1, out=T.zeros([], dtype=T.float64)),
    PR(2, 3, seed=47, grad=False),
    PR(2, 3, seed=48, grad=False),
)
case(
    "smooth_l1_loss_backward.grad_input/values",
    lambda T, g, a, b: T.smooth_l1_loss_backward(g, a, b, 1, 0.5, grad_input=T.zeros([2, 3], dtype=T.float64)),
    R(seed=49, grad=False),
    W(2, 3, seed=50, grad=False),
    W(2, 3, seed=51, grad=False),
)
case(
    "huber_loss_backward.out/values",
    lambda T, g, a, b: T.huber_loss_backward(g, a, b, 0, 0.5, grad_input=T.zeros([2, 3], dtype=T.float64)),
    R(2, 3, seed=52, grad=False),
    W(2, 3, seed=53, grad=False),
    W(2, 3, seed=54, grad=False),
)
case(
    "soft_margin_loss_backward.grad_input/values",
    lambda T, g, a, t: T.soft_margin_loss_backward(g, a, t, 2, grad_input=T.zeros([6], dtype=T.float64)),
    R(seed=55, grad=False),
    W(6, seed=56, grad=False),
    SIGNS(6, 57),
)
case(
    "binary_cross_entropy_backward.grad_input/values",
    lambda T, g, a, t: T.binary_cross_entropy_backward(g, a, t, None, 1, grad_input=T.zeros([2, 3], dtype=T.float64)),
    R(seed=58, grad=False),
    PR(2, 3, seed=59, grad=False),
    PR(2, 3, seed=60, grad=False),
)

# ---------------------------------------------------------------------------------------------
# nn: padding (issue 26): constant_pad_nd (negative pads crop), reflection and replication of
# 1 or 2 dims (batched or not), the backward ops, circular, and pad's modes and errors.
# ---------------------------------------------------------------------------------------------

case("constant_pad_nd/last-dim", lambda T, x: T.constant_pad_nd(x, [1, 2]), R(2, 3, seed=1), second=True)
case(
    "constant_pad_nd/two-dims-value",
    lambda T, x: T.constant_pad_nd(x, [1, 0, 2, 1], 1.5),
    R(2, 3, 4, seed=2),
    second=True,
)
case("constant_pad_nd/crop", lambda T, x: T.constant_pad_nd(x, [-1, 2, 1, -2]), R(3, 4, seed=3), second=True)
case("constant_pad_nd/int64", lambda T, x: T.constant_pad_nd(x, [1, 1], 7), L([[1, 2], [3, 4]]))
case("constant_pad_nd/empty", lambda T, x: T.constant_pad_nd(x, [1, 1]), D([[], []]))
case("constant_pad_nd/odd-error", lambda T, x: T.constant_pad_nd(x, [1, 1, 1]), R(2, 3))
case("constant_pad_nd/too-long-error", lambda T, x: T.constant_pad_nd(x, [1, 1, 1, 1]), R(3))
case("constant_pad_nd/negative-size-error", lambda T, x: T.constant_pad_nd(x, [-2, -2]), R(2, 3))
PADS = {
    "reflection_pad1d": ([2, 3], (2, 4), (2, 2, 5)),
    "replication_pad1d": ([3, 1], (2, 4), (2, 2, 5)),
    "reflection_pad2d": ([2, 1, 0, 2], (2, 3, 4), (2, 1, 3, 3)),
    "replication_pad2d": ([1, 3, 2, 0], (2, 3, 4), (2, 1, 3, 3)),
}


def _padded(shape, pad):
    s = list(shape)
    s[-1] += pad[0] + pad[1]
    if len(pad) == 4:
        s[-2] += pad[2] + pad[3]
    return s


def _pad_op(name, pad):
    """Calls the op `name` of whichever library T is with padding `pad`."""
    return lambda T, *args, **kwargs: getattr(T, name)(*args, pad, **kwargs)


for op, (pad, unbatched, batched) in PADS.items():
    fwd, bwd = _pad_op(op, pad), _pad_op(op + "_backward", pad)
    crop = _pad_op(op, [-1, 1] + [0] * (len(pad) - 2))
    padded = _padded(unbatched, pad)
    case(f"{op}/unbatched", fwd, R(*unbatched, seed=4), second=True)
    case(f"{op}/batched", fwd, R(*batched, seed=5), second=True)
    case(f"{op}/float32", fwd, R(*unbatched, seed=6, dtype="float32"))
    case(f"{op}/crop", crop, R(*unbatched, seed=7), second=True)
    case(f"{op}/1d-input-error", fwd, R(4))
    case(
        f"{op}.out/values",
        lambda T, x, fwd=fwd, padded=padded: fwd(T, x, out=T.zeros(padded, dtype=T.float64)),
        R(*unbatched, seed=8, grad=False),
    )
    case(f"{op}_backward/unbatched", bwd, R(*padded, seed=9), R(*unbatched, seed=10), second=True)
    case(f"{op}_backward/batched", bwd, R(*_padded(batched, pad), seed=11), R(*batched, seed=12), second=True)
    case(
        f"{op}_backward.grad_input/values",
        lambda T, g, x, bwd=bwd, s=list(unbatched): bwd(T, g, x, grad_input=T.zeros(s, dtype=T.float64)),
        R(*padded, seed=13, grad=False),
        R(*unbatched, seed=14, grad=False),
    )
case("_pad_circular/crop-right-pad-left", lambda T, x: T._pad_circular(x, [2, -1]), R(1, 2, 4, seed=20), second=True)
case("reflection_pad1d/too-large-error", lambda T, x: T.reflection_pad1d(x, [4, 0]), R(1, 2, 4))
case("reflection_pad2d/too-large-error", lambda T, x: T.reflection_pad2d(x, [0, 0, 3, 0]), R(1, 3, 4))
case("replication_pad1d/large", lambda T, x: T.replication_pad1d(x, [6, 5]), R(1, 2, 2, seed=15), second=True)
case("_pad_circular/1d", lambda T, x: T._pad_circular(x, [1, 2]), R(1, 2, 4, seed=16), second=True)
case("_pad_circular/2d", lambda T, x: T._pad_circular(x, [1, 0, 2, 1]), R(1, 1, 3, 3, seed=17), second=True)
case("_pad_circular/crop", lambda T, x: T._pad_circular(x, [-1, 2]), R(1, 2, 4, seed=18), second=True)
case("_pad_circular/wrap-twice-error", lambda T, x: T._pad_circular(x, [5, 0]), R(1, 2, 4))
PAD_MODES = [
    ("constant", [1, 1], None, (2, 3)),
    ("constant-value", [0, 2, 1, 0], 2.5, (2, 3)),
    ("reflect", [2, 3], None, (1, 2, 4)),
    ("reflect-2d", [1, 2, 2, 1], None, (1, 3, 3)),
    ("replicate", [3, 1], None, (2, 3)),
    ("replicate-2d", [1, 2, 3, 0], None, (2, 1, 2, 3)),
    ("circular", [1, 3], None, (1, 2, 4)),
]
for label, pad, value, shape in PAD_MODES:
    mode = label.split("-")[0]
    case(
        f"pad/{label}",
        lambda T, x, pad=pad, mode=mode, value=value: T.pad(x, pad, mode, value),
        R(*shape, seed=19),
        second=True,
    )
case("pad/reflect-value-error", lambda T, x: T.pad(x, [1, 1], "reflect", 1.0), R(1, 2, 4))
case("pad/unknown-mode-error", lambda T, x: T.pad(x, [1, 1], "wrap"), R(1, 2, 4))
case("pad/reflect-1d-input-error", lambda T, x: T.pad(x, [1, 1], "reflect"), R(4))
case("pad/reflect-too-large-error", lambda T, x: T.pad(x, [4, 0], "reflect"), R(1, 2, 4))
# Tensor op library (issue 23), first batch: element-wise unary ops, with their in-place and
# out= variants, integer and bool inputs, special values (NaN, +-inf, +-0) and poles.
# ---------------------------------------------------------------------------------------------


def _between(lo: float, hi: float):
    return lambda *shape, seed=0, dtype="float64", grad=True: R(*shape, seed=seed, lo=lo, hi=hi, dtype=dtype, grad=grad)


TENSOROPS_UNARY = {
    "log1p": (lambda T, x: T.log1p(x), P),
    "expm1": (lambda T, x: T.expm1(x), R),
    "log2": (lambda T, x: T.log2(x), P),
    "log10": (lambda T, x: x.log10(), P),
    "exp2": (lambda T, x: T.exp2(x), R),
    "rsqrt": (lambda T, x: T.rsqrt(x), P),
    "square": (lambda T, x: T.square(x), R),
    "erf": (lambda T, x: T.erf(x), R),
    "erfc": (lambda T, x: T.erfc(x), R),
    "erfinv": (lambda T, x: T.erfinv(x), _between(-0.95, 0.95)),
    "lgamma": (lambda T, x: T.lgamma(x), P),
    "digamma": (lambda T, x: T.digamma(x), P),
    "polygamma1": (lambda T, x: T.polygamma(1, x), P),
    "polygamma2": (lambda T, x: x.polygamma(2), P),
    "asin": (lambda T, x: T.asin(x), _between(-0.9, 0.9)),
    "acos": (lambda T, x: T.acos(x), _between(-0.9, 0.9)),
    "atan": (lambda T, x: T.atan(x), R),
    "sinh": (lambda T, x: T.sinh(x), R),
    "cosh": (lambda T, x: T.cosh(x), R),
    "asinh": (lambda T, x: T.asinh(x), R),
    "acosh": (lambda T, x: T.acosh(x), _between(1.1, 3.0)),
    "atanh": (lambda T, x: T.atanh(x), _between(-0.9, 0.9)),
    "tan": (lambda T, x: x.tan(), R),
    "floor": (lambda T, x: T.floor(x), R),
    "ceil": (lambda T, x: T.ceil(x), R),
    "round": (lambda T, x: T.round(x), R),
    "round.decimals": (lambda T, x: T.round(x, decimals=1), R),
    "trunc": (lambda T, x: T.trunc(x), R),
    "frac": (lambda T, x: T.frac(x), R),
    "sgn": (lambda T, x: T.sgn(x), R),
    "logit": (lambda T, x: T.logit(x), _between(0.1, 0.9)),
    "logit-eps": (lambda T, x: T.logit(x, eps=0.2), _between(0.05, 0.95)),
    "nan_to_num": (lambda T, x: T.nan_to_num(x), R),
    "nan_to_num-args": (lambda T, x: T.nan_to_num(x, nan=1.5, posinf=100.0, neginf=-7.0), R),
}

for op, (f, dom) in TENSOROPS_UNARY.items():
    case(f"{op}/2x3", f, dom(2, 3, seed=1), second=True)
    case(f"{op}/0-dim", f, dom(seed=2), second=True)
    case(f"{op}/empty", f, D([[], []]))
    case(f"{op}/transposed", lambda T, x, f=f: f(T, x.t()), dom(3, 2, seed=3), second=True)
    case(f"{op}/expanded", lambda T, x, f=f: f(T, x.expand([3, 2])), dom(1, 2, seed=4), second=True)
    case(f"{op}/float32", f, dom(4, seed=5, dtype="float32"))
    case(f"{op}/special", f, D(SPECIAL))

# Values at and around poles, branch points and domain ends.
TENSOROPS_EDGES = {
    "log1p": [-1.0, -1.5, -0.5, 1e-20, -1e-20, 1e10],
    "expm1": [1e-20, -1e-20, 710.0, -800.0],
    "log2": [0.0, -1.0, 8.0, 0.125],
    "log10": [0.0, -1.0, 1000.0, 1e-5],
    "exp2": [1024.0, -1100.0, 10.0, -1.5],
    "rsqrt": [0.0, -0.0, -1.0, 4.0, 1e-300],
    "erf": [5.0, -5.0, 1e-10, 30.0],
    "erfc": [5.0, -5.0, 30.0, -30.0, 1e-10],
    "erfinv": [1.0, -1.0, 1.5, -1.5, 0.999999, -0.999999, 1e-10, 0.5, -0.5, 0.9999999999],
    "lgamma": [1.0, 2.0, -0.5, -1.0, -2.5, 1e-8, 1e5, -3.0],
    "digamma": [1.0, -0.5, -1.0, -2.0, -2.5, 1e-8, 100.0, 1e6, -100.5],
    "asin": [1.0, -1.0, 1.5, 0.999],
    "acos": [1.0, -1.0, 1.5, -0.999],
    "atanh": [1.0, -1.0, 1.5, 0.999],
    "acosh": [1.0, 0.5, 1.001, 1e10],
    "tan": [1.5707963267948966, -1.5707963267948966, 3.0],
    "cosh": [710.0, -710.0, 1e-5],
    "sinh": [710.0, -710.0, 1e-5],
    "asinh": [1e10, -1e10, 1e-10],
    "floor": [2.5, -2.5, 1e300, -0.3, 4.0],
    "ceil": [2.5, -2.5, 1e300, -0.3, 4.0],
    "round": [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 1e300],
    "trunc": [2.7, -2.7, 1e300, -0.3],
    "frac": [2.75, -2.75, 1e300, -0.25, 3.0],
    "logit": [0.0, 1.0, -0.5, 1.5, 0.5],
    "nan_to_num": [1e308, -1e308, 0.0, 2.0],
}
for op, data in TENSOROPS_EDGES.items():
    case(f"{op}/edges", TENSOROPS_UNARY[op][0], D(data), second=True)
case("polygamma/edges-n1", lambda T, x: T.polygamma(1, x), D([0.0, -1.0, -0.5, -2.5, 1e-8, 1e6, 30.0]), second=True)
case("polygamma/edges-n2", lambda T, x: T.polygamma(2, x), D([0.0, -1.0, -0.5, 1e-3, 1e4, 7.5]), second=True)
case("polygamma/n0-is-digamma", lambda T, x: T.polygamma(0, x), P(4, seed=3), second=True)
case("polygamma/n3", lambda T, x: T.polygamma(3, x), P(4, seed=4), second=True)
case("polygamma/n5-float32", lambda T, x: T.polygamma(5, x), P(4, seed=5, dtype="float32"))
case("polygamma/negative-n-error", lambda T, x: T.polygamma(-1, x), P(3))
case("round.decimals/values", lambda T, x: T.round(x, decimals=2), D([1.005, 2.675, -0.125, 0.135, 1e300]))
case("round.decimals/negative", lambda T, x: T.round(x, decimals=-2), D([1250.0, 1350.0, -149.9, 12345.678]))
case("round.decimals/zero", lambda T, x: T.round(x, decimals=0), D([0.5, 1.5, -2.5]))
case("round.decimals/int64-error", lambda T, x: T.round(x, decimals=1), L([1, 2]))
case("logit/eps-edges", lambda T, x: T.logit(x, eps=0.25), D([0.0, 0.25, 0.75, 1.0, 0.5, NAN, -1.0]), second=True)
case("logit/eps-zero", lambda T, x: T.logit(x, eps=0.0), D([0.0, 1.0, 0.5]))
case("logit/eps-float32", lambda T, x: T.logit(x, 0.1), D([0.0, 0.05, 0.5, 1.0], "float32"))
case("logit/no-grad-graph", lambda T, x: T.logit(x) * 2, _between(0.2, 0.8)(3, seed=7))
case("nan_to_num/float32-defaults", lambda T, x: T.nan_to_num(x), D([NAN, INF, -INF, 1.0], "float32"))
case("nan_to_num/grad", lambda T, x: T.nan_to_num(x, 0.0, 1.0, -1.0) * x, D([NAN, INF, -INF, 2.0]))
case("sgn/zero-nan", lambda T, x: T.sgn(x), D([0.0, -0.0, NAN, INF, -INF, 3.0]), second=True)
case("square/zero-grad", lambda T, x: T.square(x), D([0.0, -0.0, 2.0]), second=True)

# Integer and bool inputs: the math functions give float32; rounding keeps integers and refuses
# bool; square keeps integers (bool -> int64); frac refuses integers.
for op in [
    "log1p",
    "expm1",
    "exp2",
    "rsqrt",
    "erf",
    "erfc",
    "lgamma",
    "digamma",
    "asinh",
    "atan",
    "sinh",
    "sgn",
    "square",
    "floor",
    "ceil",
    "round",
    "trunc",
    "nan_to_num",
]:
    case(f"{op}/int64", TENSOROPS_UNARY[op][0], L([[3, -2, 0], [1, 0, -7]]))
for op in ["exp2", "erf", "sgn", "square", "nan_to_num", "logit", "erfinv"]:
    case(f"{op}/bool", TENSOROPS_UNARY[op][0], B([True, False, True]))
case("polygamma/int64", lambda T, x: T.polygamma(1, x), L([1, 2, 3]))


# In place (method and function spellings as PyTorch has them), on views, and out=.
def _inplace_on_row(T, x, f):
    """f applied in place to row 1 of a copy of x: the copy's history is rebased through the view."""
    y = x.clone()
    f(T, y.select(0, 1))
    return y


TENSOROPS_INPLACE = {
    "log1p_": (lambda T, x: T.log1p_(x), P),
    "expm1_": (lambda T, x: x.expm1_(), R),
    "log2_": (lambda T, x: T.log2_(x), P),
    "log10_": (lambda T, x: x.log10_(), P),
    "exp2_": (lambda T, x: x.exp2_(), R),
    "rsqrt_": (lambda T, x: T.rsqrt_(x), P),
    "square_": (lambda T, x: T.square_(x), R),
    "erf_": (lambda T, x: x.erf_(), R),
    "erfc_": (lambda T, x: T.erfc_(x), R),
    "erfinv_": (lambda T, x: x.erfinv_(), _between(-0.9, 0.9)),
    "lgamma_": (lambda T, x: x.lgamma_(), P),
    "digamma_": (lambda T, x: x.digamma_(), P),
    "polygamma_": (lambda T, x: x.polygamma_(1), P),
    "asin_": (lambda T, x: T.asin_(x), _between(-0.9, 0.9)),
    "acos_": (lambda T, x: x.acos_(), _between(-0.9, 0.9)),
    "atan_": (lambda T, x: T.atan_(x), R),
    "sinh_": (lambda T, x: x.sinh_(), R),
    "cosh_": (lambda T, x: T.cosh_(x), R),
    "asinh_": (lambda T, x: x.asinh_(), R),
    "acosh_": (lambda T, x: T.acosh_(x), _between(1.1, 3.0)),
    "atanh_": (lambda T, x: x.atanh_(), _between(-0.9, 0.9)),
    "tan_": (lambda T, x: T.tan_(x), R),
    "floor_": (lambda T, x: x.floor_(), R),
    "ceil_": (lambda T, x: T.ceil_(x), R),
    "round_": (lambda T, x: x.round_(), R),
    "round_.decimals": (lambda T, x: x.round_(decimals=2), R),
    "trunc_": (lambda T, x: T.trunc_(x), R),
    "frac_": (lambda T, x: x.frac_(), R),
    "sgn_": (lambda T, x: x.sgn_(), R),
    "logit_": (lambda T, x: x.logit_(0.1), _between(0.05, 0.95)),
    "nan_to_num_": (lambda T, x: T.nan_to_num_(x, posinf=5.0), R),
}
for op, (f, dom) in TENSOROPS_INPLACE.items():
    case(f"{op}/clone", lambda T, x, f=f: f(T, x.clone()), dom(2, 3, seed=1), second=True)
    case(f"{op}/leaf-error", f, dom(3, seed=2))
    case(f"{op}/view", lambda T, x, f=f: _inplace_on_row(T, x, f), dom(2, 3, seed=3), second=True)
case("exp2_/int64-error", lambda T, x: x.exp2_(), L([1, 2]))
case("floor_/int64", lambda T, x: x.floor_(), L([1, -2]))
case("square_/int64", lambda T, x: x.square_(), L([3, -2]))
case("nan_to_num_/special", lambda T, x: x.nan_to_num_(), D([NAN, INF, -INF, 1.0], grad=False))

TENSOROPS_OUT = {
    **{
        f"{op}.out": (lambda T, x, out, op=op: getattr(T, op)(x, out=out))
        for op in [
            "log1p",
            "expm1",
            "log2",
            "log10",
            "exp2",
            "rsqrt",
            "erf",
            "erfc",
            "lgamma",
            "digamma",
            "asin",
            "atan",
            "sinh",
            "cosh",
            "asinh",
            "atanh",
            "ceil",
            "round",
            "trunc",
            "frac",
        ]
    },
    "acos.out": lambda T, x, out: T.acos(x * 0.4, out=out),
    "acosh.out": lambda T, x, out: T.acosh(x + 1, out=out),
    "erfinv.out": lambda T, x, out: T.erfinv(x, out=out),
    "polygamma.out": lambda T, x, out: T.polygamma(2, x, out=out),
    "round.decimals_out": lambda T, x, out: T.round(x, decimals=1, out=out),
    "floor.out": lambda T, x, out: T.floor(x, out=out),
    "sgn.out": lambda T, x, out: T.sgn(x, out=out),
    "square.out": lambda T, x, out: T.square(x, out=out),
    "logit.out": lambda T, x, out: T.logit(x, 0.1, out=out),
    "nan_to_num.out": lambda T, x, out: T.nan_to_num(x, neginf=0.0, out=out),
    "tan.out": lambda T, x, out: T.tan(x, out=out),
    "logical_not.out": lambda T, x, out: T.logical_not(x, out=out),
}
for op, f in TENSOROPS_OUT.items():
    case(f"{op}/function", lambda T, x, f=f: f(T, x, T.zeros([4], dtype=T.float64)), P(4, seed=1, grad=False))
    case(f"{op}/resize", lambda T, x, f=f: f(T, x, T.zeros([0], dtype=T.float64)), P(2, 2, seed=2, grad=False))
    case(f"{op}/requires-grad-error", lambda T, x, f=f: f(T, x, T.zeros([4], dtype=T.float64)), P(4, seed=3))
case("log1p.out/int64-out-error", lambda T, x: T.log1p(x, out=T.zeros([3], dtype=T.int64)), P(3, grad=False))
case(
    "logical_not.out/bool-out",
    lambda T, x: T.logical_not(x, out=T.zeros([3], dtype=T.bool)),
    D([0.0, 1.0, NAN], grad=False),
)

# The tests and logical_not: Bool results of any dtype, no gradient.
for op in ["isnan", "isinf", "isfinite", "logical_not"]:
    case(f"{op}/special", lambda T, x, op=op: getattr(T, op)(x), D(SPECIAL))
    case(f"{op}/float32", lambda T, x, op=op: getattr(x, op)(), D([NAN, 1.0, -INF], "float32"))
    case(f"{op}/int64", lambda T, x, op=op: getattr(T, op)(x), L([0, 3, -1]))
    case(f"{op}/bool", lambda T, x, op=op: getattr(T, op)(x), B([True, False]))
    case(f"{op}/empty", lambda T, x, op=op: getattr(T, op)(x), D([]))
    case(f"{op}/requires-grad", lambda T, x, op=op: getattr(T, op)(x), R(2, 3, seed=1))
case(
    "logit_backward/eps",
    lambda T, g, x: T.logit_backward(g, x, eps=0.2),
    R(6, seed=1),
    D([0.1, 0.2, 0.5, 0.8, 0.9, NAN]),
)
case("logit_backward/no-eps", lambda T, g, x: T.logit_backward(g, x), R(6, seed=2), D([-0.5, 0.0, 0.5, 1.0, 1.5, NAN]))

# ---------------------------------------------------------------------------------------------
# Tensor op library (issue 23), first batch: element-wise binary ops, with broadcasting, ties,
# NaN, integer division and dtype promotion.
# ---------------------------------------------------------------------------------------------

TENSOROPS_BINARY = {
    "atan2": (lambda T, a, b: T.atan2(a, b), R, R),
    "fmod.Tensor": (lambda T, a, b: T.fmod(a, b), R, P),
    "remainder.Tensor": (lambda T, a, b: a.remainder(b), R, P),
    "div.Tensor_mode-none": (lambda T, a, b: T.div(a, b, rounding_mode=None), R, P),
    "div.Tensor_mode-trunc": (lambda T, a, b: T.div(a, b, rounding_mode="trunc"), R, P),
    "div.Tensor_mode-floor": (lambda T, a, b: a.div(b, rounding_mode="floor"), R, P),
    "maximum": (lambda T, a, b: T.maximum(a, b), R, R),
    "minimum": (lambda T, a, b: a.minimum(b), R, R),
    "fmax": (lambda T, a, b: T.fmax(a, b), R, R),
    "fmin": (lambda T, a, b: T.fmin(a, b), R, R),
    "hypot": (lambda T, a, b: T.hypot(a, b), R, R),
    "lerp.Scalar": (lambda T, a, b: T.lerp(a, b, 0.3), R, R),
    "lerp.Scalar-far": (lambda T, a, b: a.lerp(b, 0.75), R, R),
    "copysign.Tensor": (lambda T, a, b: T.copysign(a, b), R, R),
    "xlogy.Tensor": (lambda T, a, b: T.xlogy(a, b), R, P),
}
for op, (f, da, db) in TENSOROPS_BINARY.items():
    case(f"{op}/same", f, da(2, 3, seed=1), db(2, 3, seed=2), second=True)
    case(f"{op}/broadcast-row", f, da(2, 3, seed=3), db(3, seed=4), second=True)
    case(f"{op}/broadcast-both", f, da(2, 1, seed=5), db(1, 3, seed=6), second=True)
    case(f"{op}/0-dim-left", f, da(seed=7), db(2, 2, seed=8), second=True)
    case(f"{op}/transposed", lambda T, a, b, f=f: f(T, a.t(), b), da(3, 2, seed=11), db(2, 3, seed=12))
    case(f"{op}/empty", f, D([[], []]), D([[]]))
    case(f"{op}/float32", f, da(3, seed=13, dtype="float32"), db(3, seed=14, dtype="float32"))
    case(f"{op}/one-needs-grad", f, da(2, 2, seed=15), db(2, 2, seed=16, grad=False), second=True)
    case(
        f"{op}/special", f, D([NAN, INF, -INF, 0.0, 1.0, INF, -0.0, 2.5]), D([1.0, INF, 2.0, 0.0, NAN, -INF, 0.0, -0.0])
    )
    case(f"{op}/float32-float64", f, da(3, seed=17, dtype="float32"), db(3, seed=18))

# Ties: maximum and friends split the gradient evenly.
for op in ["maximum", "minimum", "fmax", "fmin"]:
    case(f"{op}/ties", TENSOROPS_BINARY[op][0], D([1.0, -2.0, 0.5, 3.0]), D([1.0, 3.0, 0.5, -1.0]), second=True)
    case(f"{op}/nan", TENSOROPS_BINARY[op][0], D([NAN, 1.0, NAN]), D([2.0, NAN, NAN]))
    case(f"{op}/int64", TENSOROPS_BINARY[op][0], L([1, 5, -3]), L([2, 5, -4]))
    case(f"{op}/int64-float", TENSOROPS_BINARY[op][0], L([1, 5, -3]), D([1.5, 4.0, -3.5], grad=False))
case("maximum/bool", lambda T, a, b: T.maximum(a, b), B([True, False, False]), B([False, False, True]))

# Integer division and remainders: Python semantics for floor, C for trunc and fmod.
INTS_A = [7, -7, 7, -7, 0, 5, -1]
INTS_B = [2, 2, -2, -2, 3, -5, 3]
for op in ["fmod.Tensor", "remainder.Tensor", "div.Tensor_mode-none", "div.Tensor_mode-trunc", "div.Tensor_mode-floor"]:
    case(f"{op}/int64", TENSOROPS_BINARY[op][0], L(INTS_A), L(INTS_B))
    case(
        f"{op}/float-signs",
        TENSOROPS_BINARY[op][0],
        D([7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 1e300]),
        D([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 1e-300]),
    )
    case(f"{op}/int64-zero-division", TENSOROPS_BINARY[op][0], L([1, 2]), L([0, 1]))
    case(f"{op}/by-zero", TENSOROPS_BINARY[op][0], D([1.0, -1.0, 0.0]), D([0.0, 0.0, 0.0]))
    case(f"{op}/by-inf", TENSOROPS_BINARY[op][0], D([5.0, -5.0, INF]), D([INF, INF, 2.0]))
case("div.Tensor_mode/bad-mode", lambda T, a, b: T.div(a, b, rounding_mode="round"), R(3), P(3))
case("floor_divide/function", lambda T, a, b: T.floor_divide(a, b), D([7.5, -7.5, 1.0]), D([2.0, 2.0, 0.0], grad=False))
case("floor_divide/grad-error", lambda T, a, b: T.floor_divide(a, b), R(3), P(3))
case("floor_divide/int64", lambda T, a, b: T.floor_divide(a, b), L(INTS_A), L(INTS_B))
case("floor_divide.Scalar/function", lambda T, a: T.floor_divide(a, 2), L(INTS_A))
case("floor_divide.Scalar/float", lambda T, a: a.floor_divide(-0.75), R(4, grad=False))
case(
    "floor_divide_.Tensor/method",
    lambda T, a, b: a.clone().floor_divide_(b),
    D([7.5, -7.5], grad=False),
    D([2.0, 2.0], grad=False),
)
case(
    "floor_divide.out/function",
    lambda T, a, b: T.floor_divide(a, b, out=T.zeros([3], dtype=T.float64)),
    D([7.5, -7.5, 1.0], grad=False),
    D([2.0, 2.0, 0.5], grad=False),
)
for op in ["fmod", "remainder"]:
    case(f"{op}.Scalar/float", lambda T, a, op=op: getattr(T, op)(a, 0.7), R(2, 3, seed=1), second=True)
    case(f"{op}.Scalar/negative", lambda T, a, op=op: getattr(a, op)(-1.5), R(5, seed=2, lo=-4, hi=4), second=True)
    case(f"{op}.Scalar/int64", lambda T, a, op=op: getattr(T, op)(a, 3), L(INTS_A))
    case(f"{op}.Scalar/int64-float", lambda T, a, op=op: getattr(T, op)(a, 2.5), L(INTS_A))
    case(f"{op}.Scalar/zero", lambda T, a, op=op: getattr(T, op)(a, 0.0), D([1.0, -1.0]))
    case(f"{op}_.Scalar/clone", lambda T, a, op=op: getattr(a.clone(), op + "_")(0.6), R(2, 3, seed=3), second=True)
    case(
        f"{op}_.Tensor/clone",
        lambda T, a, b, op=op: getattr(a.clone(), op + "_")(b),
        R(2, 3, seed=4),
        P(3, seed=5),
        second=True,
    )
    case(
        f"{op}.Scalar_out/function",
        lambda T, a, op=op: getattr(T, op)(a, 0.6, out=T.zeros([3], dtype=T.float64)),
        R(3, grad=False),
    )
    case(
        f"{op}.Tensor_out/function",
        lambda T, a, b, op=op: getattr(T, op)(a, b, out=T.zeros([3], dtype=T.float64)),
        R(3, grad=False),
        P(3, grad=False),
    )
case(
    "div_.Tensor_mode/clone",
    lambda T, a, b: a.clone().div_(b, rounding_mode="floor"),
    R(2, 3, seed=1),
    P(3, seed=2),
    second=True,
)
case("div_.Tensor_mode/int64", lambda T, a, b: a.clone().div_(b, rounding_mode="trunc"), L(INTS_A), L(INTS_B))
case(
    "div_.Tensor_mode/int64-true-division-error",
    lambda T, a, b: a.clone().div_(b, rounding_mode=None),
    L(INTS_A),
    L(INTS_B),
)
case(
    "div.out_mode/function",
    lambda T, a, b: T.div(a, b, rounding_mode="trunc", out=T.zeros([3], dtype=T.float64)),
    R(3, grad=False),
    P(3, grad=False),
)

# In place and out=.
TENSOROPS_BINARY_INPLACE = {
    "atan2_": lambda T, a, b: a.atan2_(b),
    "hypot_": lambda T, a, b: a.hypot_(b),
    "lerp_.Scalar": lambda T, a, b: a.lerp_(b, 0.4),
    "lerp_.Tensor": lambda T, a, b: a.lerp_(b, b * 0.5),
    "copysign_.Tensor": lambda T, a, b: a.copysign_(b),
    "copysign_.Scalar": lambda T, a, b: a.copysign_(-1.0) + b,
    "xlogy_.Tensor": lambda T, a, b: T.xlogy_(a, b * b + 0.5),
    "xlogy_.Scalar_Other": lambda T, a, b: a.xlogy_(2.0) + b,
    "addcmul_": lambda T, a, b: a.addcmul_(b, b, value=0.5),
    "addcdiv_": lambda T, a, b: a.addcdiv_(b, b * b + 1, value=2),
    "clamp_min_": lambda T, a, b: T.clamp_min_(a, 0.1) + b,
    "clamp_max_": lambda T, a, b: a.clamp_max_(-0.1) + b,
    "clamp_.Tensor": lambda T, a, b: a.clamp_(min=b, max=b + 0.5),
}
for op, f in TENSOROPS_BINARY_INPLACE.items():
    case(f"{op}/clone", lambda T, a, b, f=f: f(T, a.clone(), b), R(2, 3, seed=1), R(3, seed=2), second=True)
    case(f"{op}/leaf-error", f, R(3, seed=3), R(3, seed=4))
    case(f"{op}/broadcast-error", lambda T, a, b, f=f: f(T, a.clone(), b), R(3, seed=5), R(2, 3, seed=6))
case("hypot_/int64-error", lambda T, a, b: a.hypot_(b), L([3, 4]), L([4, 3]))
case("atan2_/int64-error", lambda T, a, b: a.atan2_(b), L([3, 4]), L([4, 3]))

TENSOROPS_BINARY_OUT = {
    "atan2.out": lambda T, a, b, out: T.atan2(a, b, out=out),
    "maximum.out": lambda T, a, b, out: T.maximum(a, b, out=out),
    "minimum.out": lambda T, a, b, out: T.minimum(a, b, out=out),
    "fmax.out": lambda T, a, b, out: T.fmax(a, b, out=out),
    "fmin.out": lambda T, a, b, out: T.fmin(a, b, out=out),
    "hypot.out": lambda T, a, b, out: T.hypot(a, b, out=out),
    "lerp.Scalar_out": lambda T, a, b, out: T.lerp(a, b, 0.5, out=out),
    "lerp.Tensor_out": lambda T, a, b, out: T.lerp(a, b, b, out=out),
    "addcmul.out": lambda T, a, b, out: T.addcmul(a, b, b, value=3, out=out),
    "addcdiv.out": lambda T, a, b, out: T.addcdiv(a, a, b, out=out),
    "clamp_min.out": lambda T, a, b, out: T.clamp_min(a, 0.2, out=out),
    "clamp_max.out": lambda T, a, b, out: T.clamp_max(a, 0.2, out=out),
    "clamp.Tensor_out": lambda T, a, b, out: T.clamp(a, b, None, out=out),
    "copysign.out": lambda T, a, b, out: T.copysign(a, b, out=out),
    "copysign.Scalar_out": lambda T, a, b, out: T.copysign(a, -2.0, out=out),
    "xlogy.OutTensor": lambda T, a, b, out: T.xlogy(a, b, out=out),
    "logical_and.out": lambda T, a, b, out: T.logical_and(a, b, out=out),
    "logical_or.out": lambda T, a, b, out: T.logical_or(a, b, out=out),
    "logical_xor.out": lambda T, a, b, out: T.logical_xor(a, b, out=out),
}
for op, f in TENSOROPS_BINARY_OUT.items():
    case(
        f"{op}/function",
        lambda T, a, b, f=f: f(T, a, b, T.zeros([3], dtype=T.float64)),
        R(3, seed=1, grad=False),
        P(3, seed=2, grad=False),
    )
    case(
        f"{op}/requires-grad-error",
        lambda T, a, b, f=f: f(T, a, b, T.zeros([3], dtype=T.float64)),
        R(3, seed=1),
        P(3, seed=2),
    )
for op in ["logical_and.out", "logical_or.out", "logical_xor.out"]:
    case(
        f"{op}/bool-out",
        lambda T, a, b, op=op: getattr(T, op.split(".")[0])(a, b, out=T.zeros([3], dtype=T.bool)),
        D([0.0, 1.0, NAN], grad=False),
        D([1.0, 0.0, 0.0], grad=False),
    )

# lerp.Tensor, addcmul, addcdiv: three operands.
TENSOROPS_TERNARY = {
    "lerp.Tensor": (lambda T, a, b, c: T.lerp(a, b, c), R),
    "addcmul": (lambda T, a, b, c: T.addcmul(a, b, c), R),
    "addcmul-value": (lambda T, a, b, c: a.addcmul(b, c, value=-1.5), R),
    "addcdiv": (lambda T, a, b, c: T.addcdiv(a, b, c), P),
    "addcdiv-value": (lambda T, a, b, c: a.addcdiv(b, c, value=0.25), P),
}
for op, (f, dc) in TENSOROPS_TERNARY.items():
    case(f"{op}/same", f, R(2, 3, seed=1), R(2, 3, seed=2), dc(2, 3, seed=3), second=True)
    case(f"{op}/broadcast", f, R(2, 1, seed=4), R(3, seed=5), dc(1, 3, seed=6), second=True)
    case(f"{op}/0-dim", f, R(seed=7), R(2, 2, seed=8), dc(seed=9), second=True)
    case(f"{op}/empty", f, D([[], []]), D([[]]), D([]))
    case(
        f"{op}/float32",
        f,
        R(3, seed=10, dtype="float32"),
        R(3, seed=11, dtype="float32"),
        dc(3, seed=12, dtype="float32"),
    )
case(
    "lerp.Tensor/weights-0-1",
    lambda T, a, b, c: T.lerp(a, b, c),
    R(4, seed=1),
    R(4, seed=2),
    D([0.0, 1.0, 0.5, 2.0]),
    second=True,
)
case("lerp.Scalar/weight-1", lambda T, a, b: T.lerp(a, b, 1.0), D([1.0, INF]), D([3.0, 1.0]))
case("lerp.Scalar/dtype-mismatch-error", lambda T, a, b: T.lerp(a, b, 0.5), R(3, dtype="float32"), R(3))
case("lerp.Scalar/int64-error", lambda T, a, b: T.lerp(a, b, 0.5), L([1, 2]), L([3, 4]))
case("addcmul/int64", lambda T, a, b, c: T.addcmul(a, b, c, value=2), L([1, 2]), L([3, 4]), L([5, -6]))
case("addcmul/int64-float-value", lambda T, a, b, c: T.addcmul(a, b, c, value=0.5), L([1, 2]), L([3, 4]), L([5, -6]))
case("addcdiv/int64-error", lambda T, a, b, c: T.addcdiv(a, b, c), L([1, 2]), L([3, 4]), L([5, -6]))
case("addcdiv/int64-self", lambda T, a, b, c: T.addcdiv(a, b, c), L([1, 2]), D([3.0, 4.0]), D([2.0, -8.0]))
case("addcdiv/by-zero", lambda T, a, b, c: T.addcdiv(a, b, c), R(3), R(3, seed=1), D([0.0, -0.0, 1.0]))

# clamp_min / clamp_max / clamp with Tensor bounds: ties (no gradient at a bound for the
# Scalar bounds, split for the Tensor ones), NaN, min > max.
case("clamp_min/values", lambda T, a: T.clamp_min(a, 0.0), D([-1.0, 0.0, 1.0, NAN, -INF]), second=True)
case("clamp_max/values", lambda T, a: a.clamp_max(0.5), D([-1.0, 0.5, 1.0, NAN, INF]), second=True)
case("clamp_min/int64", lambda T, a: T.clamp_min(a, 2), L([1, 2, 3]))
case("clamp_max/int64-float", lambda T, a: T.clamp_max(a, 1.5), L([1, 2, 3]))
case("clamp_min/2x3", lambda T, a: T.clamp_min(a, 0.1), R(2, 3, seed=3), second=True)
case("clamp_max/transposed", lambda T, a: T.clamp_max(a.t(), 0.1), R(3, 2, seed=4), second=True)
case(
    "clamp.Tensor/both",
    lambda T, a, lo, hi: T.clamp(a, lo, hi),
    R(2, 3, seed=1, lo=-2, hi=2),
    R(3, seed=2, lo=-1, hi=-0.2),
    R(2, 1, seed=3, lo=0.2, hi=1),
    second=True,
)
case("clamp.Tensor/min-only", lambda T, a, lo: T.clamp(a, min=lo), R(2, 3, seed=4), R(3, seed=5), second=True)
case("clamp.Tensor/max-only", lambda T, a, hi: a.clamp(max=hi), R(2, 3, seed=6), R(2, 3, seed=7), second=True)
case(
    "clamp.Tensor/min-greater-than-max",
    lambda T, a, lo, hi: T.clamp(a, lo, hi),
    D([-2.0, 0.0, 2.0]),
    D([1.0, 1.0, 1.0]),
    D([-1.0, -1.0, -1.0]),
    second=True,
)
case(
    "clamp.Tensor/ties",
    lambda T, a, lo, hi: T.clamp(a, lo, hi),
    D([-1.0, 1.0, 0.0]),
    D([-1.0, -1.0, -1.0]),
    D([1.0, 1.0, 1.0]),
    second=True,
)
case(
    "clamp.Tensor/nan",
    lambda T, a, lo, hi: T.clamp(a, lo, hi),
    D([NAN, 0.5, 0.5, 3.0]),
    D([0.0, NAN, 0.0, 0.0]),
    D([1.0, 1.0, NAN, 1.0]),
)
case("clamp.Tensor/none-error", lambda T, a: T.clamp(a, None, None), R(3))
case(
    "clamp.Tensor/self-broadcast",
    lambda T, a, lo, hi: T.clamp(a, lo, hi),
    R(3, seed=8, lo=-2, hi=2),
    R(2, 3, seed=9, lo=-1, hi=-0.3),
    R(2, 3, seed=10, lo=0.3, hi=1),
    second=True,
)
case("clamp.Tensor/int64", lambda T, a, lo, hi: T.clamp(a, lo, hi), L([-5, 0, 5]), L([-1, -1, -1]), L([1, 1, 1]))

# copysign / xlogy edge values.
case(
    "copysign.Tensor/zeros",
    lambda T, a, b: T.copysign(a, b),
    D([0.0, -0.0, 2.0, -2.0, 3.0]),
    D([-1.0, 1.0, -0.0, 0.0, NAN]),
    second=True,
)
case("copysign.Tensor/int64", lambda T, a, b: T.copysign(a, b), L([3, -2, 0]), L([-1, 1, -1]))
case("copysign.Scalar/float", lambda T, a: T.copysign(a, -0.0), R(2, 3, seed=1), second=True)
case("copysign.Scalar/positive", lambda T, a: a.copysign(1), D([0.0, -0.0, -2.0, NAN]), second=True)
case(
    "xlogy.Tensor/zeros",
    lambda T, a, b: T.xlogy(a, b),
    D([0.0, 0.0, 0.0, 1.0, 2.0, 0.0]),
    D([0.0, -1.0, NAN, 0.0, -1.0, 2.0]),
    second=True,
)
case("xlogy.Tensor/int64", lambda T, a, b: T.xlogy(a, b), L([0, 1, 2]), L([0, 3, 5]))
case("xlogy.Scalar_Other/float", lambda T, a: T.xlogy(a, 2.5), R(2, 3, seed=1), second=True)
case("xlogy.Scalar_Other/zero", lambda T, a: a.xlogy(0.0), D([0.0, 1.0, -1.0]), second=True)
case("xlogy.Scalar_Other/negative", lambda T, a: T.xlogy(a, -1.0), D([0.0, 1.0]), second=True)
case("pow.Scalar/float", lambda T, e: T.pow(2.5, e), R(2, 3, seed=5), second=True)
case("pow.Scalar/operator", lambda T, e: 0.5**e, R(4, seed=6), second=True)
case("pow.Scalar/zero-base", lambda T, e: T.pow(0.0, e), D([-1.0, 0.0, 1.5]), second=True)
case("pow.Scalar/int", lambda T, e: T.pow(2, e), L([0, 1, 5]))
case("pow.Scalar/int-base-float-exponent", lambda T, e: T.pow(3, e), R(3, seed=7))
case("pow.Scalar_out", lambda T, e: T.pow(2.5, e, out=T.empty(3, dtype=e.dtype)), R(3, seed=8, grad=False))
case("remainder.Scalar_Tensor", lambda T, e: T.remainder(2.5, e), D([1.0, -1.5, 0.7], grad=False))
case("remainder.Scalar_Tensor/int", lambda T, e: T.remainder(7, e), L([2, -3, 5]))
case(
    "max.out",
    lambda T, a, b: T.max(a, b, out=T.empty(2, 3, dtype=a.dtype)),
    R(2, 3, seed=9, grad=False),
    R(3, seed=10, grad=False),
)
case(
    "min.out",
    lambda T, a, b: T.min(a, b, out=T.empty(2, 3, dtype=a.dtype)),
    R(2, 3, seed=11, grad=False),
    R(3, seed=12, grad=False),
)
case("max.unary_out", lambda T, a: T.max(a, out=T.empty((), dtype=a.dtype)), R(2, 3, seed=13, grad=False))
case("min.unary_out", lambda T, a: T.min(a, out=T.empty((), dtype=a.dtype)), R(2, 3, seed=14, grad=False))
# Integer matrix products, wrapping on overflow as PyTorch's (int8: 100 * 27 + 27 * 120 wraps).
for _dt in ("int64", "int32", "int16", "int8", "uint8"):
    _m = D([[100, 27], [3, 120]], _dt, grad=False)
    _v = D([1, 2], _dt, grad=False)
    _b = D([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], _dt, grad=False)
    case(f"integer-product/{_dt}/matmul-matrix", lambda T, a: T.matmul(a, a), _m)
    case(f"integer-product/{_dt}/matmul-transposed", lambda T, a: T.mm(a.t(), a), _m)
    case(f"integer-product/{_dt}/matmul-matrix-vector", lambda T, a, v: T.matmul(a, v), _m, _v)
    case(f"integer-product/{_dt}/matmul-dot", lambda T, v: T.matmul(v, v), _v)
    case(f"integer-product/{_dt}/matmul-batched", lambda T, b: T.matmul(b, b), _b)
    case(f"integer-product/{_dt}/addmm", lambda T, a: T.addmm(a, a, a, beta=2, alpha=3), _m)
    case(f"integer-product/{_dt}/addmv", lambda T, a, v: T.addmv(v, a, v), _m, _v)
    case(f"integer-product/{_dt}/baddbmm", lambda T, b: T.baddbmm(b, b, b), _b)
    case(f"integer-product/{_dt}/addbmm", lambda T, b: T.addbmm(b[0], b, b), _b)
case("matmul/dot/grad_fn-dtype-mismatch", lambda T, a, b: T.matmul(a, b), D([1.0, 2.0]), D([1, 2], "int32", grad=False))
case("xlogy.Scalar_Self/float", lambda T, b: T.xlogy(2.5, b * b + 0.5), R(2, 3, seed=2), second=True)
case("xlogy.Scalar_Self/zero", lambda T, b: T.xlogy(0.0, b), D([0.0, 1.0, 2.0]), second=True)
case("xlogy.Scalar_Self/int64", lambda T, b: T.xlogy(2, b), L([0, 1, 3]))
case("xlogy.OutScalar_Self", lambda T, b: T.xlogy(-1.5, b * b + 0.5, out=T.empty(2, 3, dtype=b.dtype)), R(2, 3, seed=3))
case("xlogy.OutScalar_Other", lambda T, a: T.xlogy(a, 2.5, out=T.empty(2, 3, dtype=a.dtype)), R(2, 3, seed=4))

# Logical and bitwise ops: any dtypes in (non-zero is true), Bool / integer out.
for op in ["logical_and", "logical_or", "logical_xor"]:
    case(
        f"{op}/float",
        lambda T, a, b, op=op: getattr(T, op)(a, b),
        D([0.0, 1.0, NAN, -0.0, 2.0]),
        D([1.0, 0.0, 0.0, 0.0, 3.0]),
    )
    case(f"{op}/int64-bool", lambda T, a, b, op=op: getattr(a, op)(b), L([0, 1, 2, 0]), B([True, True, False, False]))
    case(f"{op}/broadcast", lambda T, a, b, op=op: getattr(T, op)(a, b), R(2, 3, seed=1), D([0.0, 1.0, 0.0]))
    case(f"{op}/requires-grad", lambda T, a, b, op=op: getattr(T, op)(a, b), R(2, 3, seed=1), R(3, seed=2))
    case(f"{op}/empty", lambda T, a, b, op=op: getattr(T, op)(a, b), D([]), D([]))
for op in ["bitwise_and", "bitwise_or", "bitwise_xor"]:
    case(f"{op}.Tensor/int64", lambda T, a, b, op=op: getattr(T, op)(a, b), L([12, -7, 0, 5]), L([10, 3, -1, 5]))
    case(
        f"{op}.Tensor/bool",
        lambda T, a, b, op=op: getattr(a, op)(b),
        B([True, True, False, False]),
        B([True, False, True, False]),
    )
    case(f"{op}.Tensor/broadcast", lambda T, a, b, op=op: getattr(T, op)(a, b), L([[1, 2, 3], [4, 5, 6]]), L([3]))
    case(f"{op}.Tensor/int64-bool", lambda T, a, b, op=op: getattr(T, op)(a, b), L([12, -7]), B([True, False]))
    case(f"{op}.Tensor/float-error", lambda T, a, b, op=op: getattr(T, op)(a, b), R(3, grad=False), R(3, grad=False))
    case(f"{op}.Scalar/int64", lambda T, a, op=op: getattr(T, op)(a, 6), L([12, -7, 0, 5]))
    case(f"{op}.Scalar/bool", lambda T, a, op=op: getattr(a, op)(True), B([True, False]))
    case(f"{op}.Scalar/bool-int", lambda T, a, op=op: getattr(T, op)(a, 2), B([True, False]))
case("bitwise_not/int64", lambda T, a: T.bitwise_not(a), L([0, -1, 5, -8]))
case("bitwise_not/bool", lambda T, a: a.bitwise_not(), B([True, False]))
case("bitwise_not/float-error", lambda T, a: T.bitwise_not(a), R(3, grad=False))

# where with Scalar branches: the gradient flows to the tensor branch; dtypes as PyTorch's.
COND = [[True, False, True], [False, False, True]]
case("where.ScalarSelf/float", lambda T, c, b: T.where(c, 1.5, b), B(COND), R(2, 3, seed=1), second=True)
case("where.ScalarSelf/broadcast", lambda T, c, b: T.where(c, -2, b), B(COND), R(3, seed=2), second=True)
case("where.ScalarOther/float", lambda T, c, a: T.where(c, a, 0.5), B(COND), R(2, 3, seed=3), second=True)
case("where.ScalarOther/method", lambda T, c, a: a.where(c, 7), B(COND), R(2, 1, seed=4), second=True)
case("where.ScalarOther/float32", lambda T, c, a: T.where(c, a, 0.1), B(COND), R(2, 3, seed=5, dtype="float32"))
case("where.ScalarOther/float64-precision", lambda T, c, a: T.where(c, a, 0.1), B(COND), R(2, 3, seed=5))
case("where.ScalarOther/int64-float", lambda T, c, a: T.where(c, a, 2.5), B(COND), L([[1, 2, 3], [4, 5, 6]]))
case("where.ScalarOther/int64-int", lambda T, c, a: T.where(c, a, 9), B(COND), L([[1, 2, 3], [4, 5, 6]]))
case("where.ScalarOther/bool-int", lambda T, c, a: T.where(c, a, 2), B(COND), B(COND))
case("where.Scalar/floats", lambda T, c: T.where(c, 1.0, 2.5), B(COND))
case("where.Scalar/ints", lambda T, c: T.where(c, 1, -2), B(COND))
case("where.Scalar/int-float", lambda T, c: T.where(c, 1, 0.5), B(COND))
case("where.Scalar/bools", lambda T, c: T.where(c, True, False), B(COND))
case("where.Scalar/condition-error", lambda T, c: T.where(c, 1.0, 2.0), D([1.0, 0.0]))

# ---------------------------------------------------------------------------------------------
# Tensor op library (issue 23), first batch: reductions and scans, with ties (amax / amin / max /
# min split the gradient evenly, min.dim picks its index), NaN, zeros (prod), empty tensors,
# corrections larger than the count (var / std), integer promotion and overflow (cumsum).
# ---------------------------------------------------------------------------------------------

TIES = [[1.0, 3.0, 3.0, -1.0], [2.0, 2.0, 2.0, 2.0], [-5.0, 0.5, -5.0, 0.25]]
WITH_NAN = [[1.0, NAN, 3.0], [2.0, 0.5, -1.0]]
for op in ["amax", "amin"]:
    f = lambda T, x, *a, op=op, **k: getattr(T, op)(x, *a, **k)  # noqa: E731
    case(f"{op}/all", lambda T, x, f=f: f(T, x), R(2, 3, seed=1), second=True)
    case(f"{op}/dim", lambda T, x, f=f: f(T, x, 1), R(2, 3, seed=2), second=True)
    case(f"{op}/dims-keepdim", lambda T, x, f=f: f(T, x, [0, -1], keepdim=True), R(2, 3, 2, seed=3), second=True)
    case(f"{op}/ties", lambda T, x, f=f: f(T, x, 1), D(TIES), second=True)
    case(f"{op}/ties-all", lambda T, x, f=f: f(T, x), D(TIES), second=True)
    case(f"{op}/nan", lambda T, x, f=f: f(T, x, 1), D(WITH_NAN))
    case(f"{op}/int64", lambda T, x, f=f: f(T, x, 0), L([[1, 5], [7, -2]]))
    case(f"{op}/bool", lambda T, x, f=f: f(T, x, 0), B([[True, False], [False, False]]))
    case(f"{op}/0-dim", lambda T, x, f=f: f(T, x), R(seed=4), second=True)
    case(f"{op}/empty-error", lambda T, x, f=f: f(T, x), D([]))
    case(f"{op}/empty-dim-error", lambda T, x, f=f: f(T, x.reshape([0, 3]), 0), D([]))
    case(f"{op}/empty-other-dim", lambda T, x, f=f: f(T, x.reshape([0, 3]), 1), D([]))
    case(f"{op}/float32", lambda T, x, f=f: f(T, x, 1), R(2, 3, seed=5, dtype="float32"))
    case(f"{op}/transposed", lambda T, x, f=f: f(T, x.t(), 0), R(2, 3, seed=6), second=True)
case("amax.out/function", lambda T, x: T.amax(x, 1, out=T.zeros([2], dtype=T.float64)), R(2, 3, grad=False))
case("amax.out/requires-grad-error", lambda T, x: T.amax(x, 1, out=T.zeros([2], dtype=T.float64)), R(2, 3))
case(
    "amin.out/function",
    lambda T, x: T.amin(x, [0, 1], keepdim=True, out=T.zeros([0], dtype=T.float64)),
    R(2, 3, grad=False),
)

for op in ["max", "min"]:
    case(f"{op}/all", lambda T, x, op=op: getattr(T, op)(x), R(2, 3, seed=1), second=True)
    case(f"{op}/method", lambda T, x, op=op: getattr(x, op)(), R(4, seed=2), second=True)
    case(f"{op}/ties", lambda T, x, op=op: getattr(T, op)(x), D([[1.0, 3.0, 3.0], [-5.0, 3.0, -5.0]]), second=True)
    case(f"{op}/nan", lambda T, x, op=op: getattr(T, op)(x), D(WITH_NAN), second=True)
    case(f"{op}/two-nans", lambda T, x, op=op: getattr(T, op)(x), D([NAN, 1.0, NAN]), second=True)
    case(f"{op}/int64", lambda T, x, op=op: getattr(T, op)(x), L([3, -1, 7]))
    case(f"{op}/empty-error", lambda T, x, op=op: getattr(T, op)(x), D([]))
    case(f"{op}/0-dim", lambda T, x, op=op: getattr(T, op)(x), R(seed=3), second=True)
    case(
        f"{op}.other/function", lambda T, a, b, op=op: getattr(T, op)(a, b), R(2, 3, seed=4), R(3, seed=5), second=True
    )
    case(
        f"{op}.other/ties",
        lambda T, a, b, op=op: getattr(a, op)(b),
        D([1.0, 2.0, NAN]),
        D([1.0, -1.0, 0.0]),
        second=True,
    )
case("min.dim/values", lambda T, x: T.min(x, 1)[0], R(3, 4, seed=1), second=True)
case("min.dim/indices", lambda T, x: T.min(x, 1)[1], R(3, 4, seed=1))
case("min.dim/keepdim", lambda T, x: T.min(x, 0, keepdim=True)[0], R(3, 4, seed=2), second=True)
case("min.dim/ties-first-index", lambda T, x: T.min(x, 1), D(TIES), second=True)
case("min.dim/nan", lambda T, x: T.min(x, 1), D(WITH_NAN))
case("min.dim/int64", lambda T, x: x.min(0), L([[1, 5], [7, -2]]))
case("min.dim/empty-error", lambda T, x: T.min(x.reshape([0, 3]), 0), D([]))
case("min.dim/empty-other-dim", lambda T, x: T.min(x.reshape([0, 3]), 1), D([]))
case("min.dim/0-dim", lambda T, x: T.min(x, 0), R(seed=3), second=True)
case("max.dim/ties-first-index", lambda T, x: T.max(x, 1), D(TIES), second=True)
case("argmin/all", lambda T, x: T.argmin(x), R(3, 4, seed=1))
case("argmin/dim", lambda T, x: x.argmin(1, keepdim=True), D(TIES))
case("argmin/nan", lambda T, x: T.argmin(x), D([3.0, NAN, 1.0]))
case("argmin/empty-error", lambda T, x: T.argmin(x), D([]))
case("argmin/int64", lambda T, x: T.argmin(x, 0), L([[1, 5], [7, -2]]))

for op in ["all", "any"]:
    case(f"{op}/float", lambda T, x, op=op: getattr(T, op)(x), D([[0.0, 1.0], [NAN, 2.0]]))
    case(f"{op}/dim", lambda T, x, op=op: getattr(T, op)(x, 1), D([[0.0, 1.0], [NAN, 2.0], [0.0, 0.0]]))
    case(f"{op}/dim-keepdim", lambda T, x, op=op: getattr(x, op)(0, keepdim=True), L([[0, 1], [3, 2]]))
    case(f"{op}/bool", lambda T, x, op=op: getattr(T, op)(x), B([True, False]))
    case(f"{op}/empty", lambda T, x, op=op: getattr(T, op)(x), D([]))
    case(f"{op}/empty-dim", lambda T, x, op=op: getattr(T, op)(x.reshape([0, 3]), 0), D([]))
    case(f"{op}/requires-grad", lambda T, x, op=op: getattr(T, op)(x), R(2, 3, seed=1))
case("all.dim/function", lambda T, x: T.all(x, -1), B([[True, False], [True, True]]))
case("any.dim/function", lambda T, x: T.any(x, -1), B([[True, False], [False, False]]))
case("count_nonzero/all", lambda T, x: T.count_nonzero(x), D([[0.0, 1.0, NAN], [-0.0, 2.0, 0.0]]))
case("count_nonzero/dim", lambda T, x: x.count_nonzero(1), D([[0.0, 1.0, NAN], [-0.0, 2.0, 0.0]]))
case("count_nonzero/int64", lambda T, x: T.count_nonzero(x, 0), L([[0, 1], [3, 0]]))
case("count_nonzero/empty", lambda T, x: T.count_nonzero(x), D([]))
case("count_nonzero.dim_IntList/dims", lambda T, x: T.count_nonzero(x, [0, 1]), D([[0.0, 1.0], [3.0, 0.0]]))
case("count_nonzero.dim_IntList/requires-grad", lambda T, x: T.count_nonzero(x, [1]), R(2, 3, seed=1))

for op in ["nansum", "nanmean"]:
    case(f"{op}/all", lambda T, x, op=op: getattr(T, op)(x), D(WITH_NAN), second=True)
    case(f"{op}/dim", lambda T, x, op=op: getattr(T, op)(x, 1), D(WITH_NAN), second=True)
    case(f"{op}/dims-keepdim", lambda T, x, op=op: getattr(x, op)([0, 1], keepdim=True), D(WITH_NAN), second=True)
    case(f"{op}/all-nan", lambda T, x, op=op: getattr(T, op)(x, 0), D([[NAN, 1.0], [NAN, 2.0]]), second=True)
    case(f"{op}/no-nan", lambda T, x, op=op: getattr(T, op)(x, 0), R(3, 2, seed=1), second=True)
    case(f"{op}/empty", lambda T, x, op=op: getattr(T, op)(x), D([]))
    case(f"{op}/float32", lambda T, x, op=op: getattr(T, op)(x), D([1.5, NAN, 2.0], "float32"))
    case(f"{op}/inf", lambda T, x, op=op: getattr(T, op)(x), D([INF, NAN, -INF]))
case("nansum/int64", lambda T, x: T.nansum(x), L([1, 2, 3]))
case("nansum/dtype", lambda T, x: T.nansum(x, dtype=T.float64), D([1.5, NAN, 2.0], "float32"))
case("nanmean/int64-error", lambda T, x: T.nanmean(x), L([1, 2, 3]))

PROD = {
    "no-zero": [[1.5, -0.5, 2.0, 0.75]],
    "zero-first": [[0.0, 1.5, -2.0, 0.5]],
    "zero-middle": [[1.5, 0.0, -2.0, 0.5]],
    "two-zeros": [[1.5, 0.0, -2.0, 0.0]],
    "all-zeros": [[0.0, 0.0, 0.0, 0.0]],
    "rows": [[1.5, 0.0, -2.0, 0.5], [0.0, 1.25, 3.0, -1.0], [2.0, 0.5, 0.0, 0.0]],
}
for label, data in PROD.items():
    case(f"prod/{label}", lambda T, x: T.prod(x), D(data), second=True)
    case(f"prod.dim_int/{label}", lambda T, x: T.prod(x, -1), D(data), second=True)
    case(f"prod.dim_int/{label}/dim=0-keepdim", lambda T, x: x.prod(0, keepdim=True), D(data), second=True)
case("prod/0-dim", lambda T, x: T.prod(x), R(seed=1), second=True)
case("prod/empty", lambda T, x: T.prod(x), D([]))
case("prod.dim_int/empty", lambda T, x: T.prod(x.reshape([0, 3]), 0), D([]))
case("prod/int64", lambda T, x: T.prod(x), L([3, -2, 7]))
case("prod/int64-overflow", lambda T, x: T.prod(x), L([4611686018427387904, 4]))
case("prod/bool", lambda T, x: T.prod(x), B([True, True]))
case("prod/dtype", lambda T, x: T.prod(x, dtype=T.float64), D([1.5, 0.0, 2.0], "float32"))
case("prod/nan-inf", lambda T, x: T.prod(x), D([1.5, NAN, 0.0, INF]))
case("prod/float32", lambda T, x: T.prod(x), R(5, seed=2, dtype="float32"))
case("prod.dim_int/0-dim", lambda T, x: T.prod(x, 0), R(seed=3), second=True)
case("prod.dim_int/transposed", lambda T, x: T.prod(x.t(), 1), R(2, 3, seed=4), second=True)

case("cumsum/dim1", lambda T, x: T.cumsum(x, 1), R(2, 3, seed=1), second=True)
case("cumsum/dim0", lambda T, x: x.cumsum(0), R(3, 2, seed=2), second=True)
case("cumsum/negative-dim", lambda T, x: T.cumsum(x, -1), R(2, 2, 3, seed=3), second=True)
case("cumsum/0-dim", lambda T, x: T.cumsum(x, 0), R(seed=4), second=True)
case("cumsum/empty", lambda T, x: T.cumsum(x.reshape([0, 3]), 0), D([]))
case("cumsum/int64", lambda T, x: T.cumsum(x, 0), L([3, -2, 7]))
case("cumsum/int64-overflow-wraps", lambda T, x: T.cumsum(x, 0), L([9223372036854775807, 1, 1]))
case("cumsum/bool-to-int64", lambda T, x: T.cumsum(x, 0), B([True, True, False, True]))
case("cumsum/dtype", lambda T, x: T.cumsum(x, 0, dtype=T.float64), D([1.5, 0.25, 2.0], "float32"))
case("cumsum/float32", lambda T, x: T.cumsum(x, 0), R(5, seed=5, dtype="float32"))
case("cumsum/nan-inf", lambda T, x: T.cumsum(x, 0), D([1.0, NAN, INF, -INF]))
case("cumsum/dim-error", lambda T, x: T.cumsum(x, 2), R(2, 3))
case("cumsum/transposed", lambda T, x: T.cumsum(x.t(), 1), R(2, 3, seed=6), second=True)
case("cumsum_/clone", lambda T, x: x.clone().cumsum_(1), R(2, 3, seed=7), second=True)
case("cumsum_/int64", lambda T, x: x.clone().cumsum_(0), L([3, -2, 7]))

VAR_OPS = {
    "var.correction": lambda T, x, *a, **k: T.var(x, *a, **k),
    "std.correction": lambda T, x, *a, **k: T.std(x, *a, **k),
    "var_mean.correction": lambda T, x, *a, **k: T.var_mean(x, *a, **k),
    "std_mean.correction": lambda T, x, *a, **k: T.std_mean(x, *a, **k),
}
for op, f in VAR_OPS.items():
    case(f"{op}/all", lambda T, x, f=f: f(T, x), R(2, 3, seed=1), second=True)
    case(f"{op}/dim", lambda T, x, f=f: f(T, x, 1), R(2, 3, seed=2), second=True)
    case(f"{op}/dims-keepdim", lambda T, x, f=f: f(T, x, [0, -1], keepdim=True), R(2, 3, 2, seed=3), second=True)
    case(f"{op}/correction-0", lambda T, x, f=f: f(T, x, 1, correction=0), R(2, 3, seed=4), second=True)
    case(f"{op}/correction-fraction", lambda T, x, f=f: f(T, x, correction=0.5), R(2, 3, seed=5), second=True)
    case(f"{op}/correction-equals-count", lambda T, x, f=f: f(T, x, correction=2), D([1.0, 3.0]))
    case(f"{op}/correction-exceeds-count", lambda T, x, f=f: f(T, x, correction=3), D([1.0, 3.0]))
    case(f"{op}/constant", lambda T, x, f=f: f(T, x, correction=2), D([1.0, 1.0]))
    case(f"{op}/single", lambda T, x, f=f: f(T, x), D([2.0]))
    case(f"{op}/empty", lambda T, x, f=f: f(T, x), D([]))
    case(f"{op}/nan", lambda T, x, f=f: f(T, x, 1), D(WITH_NAN))
    case(f"{op}/float32", lambda T, x, f=f: f(T, x, 0), R(3, 2, seed=6, dtype="float32"))
    case(f"{op}/int64-error", lambda T, x, f=f: f(T, x), L([1, 2, 3]))
    case(f"{op}/0-dim", lambda T, x, f=f: f(T, x, correction=0), R(seed=7), second=True)
    case(f"{op}/transposed", lambda T, x, f=f: f(T, x.t(), 0), R(2, 3, seed=8), second=True)
case("std.correction/zero-spread-grad", lambda T, x: T.std(x, 1), D([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]]), second=True)
case("var_mean.correction/mean-only-grad", lambda T, x: T.var_mean(x, 1)[1], R(2, 3, seed=9), second=True)
case("std_mean.correction/std-only-grad", lambda T, x: T.std_mean(x, 1)[0], R(2, 3, seed=10), second=True)

# ---------------------------------------------------------------------------------------------
# tensor ops, second batch (issue 23): shape ops
# ---------------------------------------------------------------------------------------------

case("flatten.using_ints/all", lambda T, x: T.flatten(x), R(2, 3, 2, seed=1), second=True)
case("flatten.using_ints/dims", lambda T, x: x.flatten(1, 2), R(2, 3, 2, seed=2), second=True)
case("flatten.using_ints/negative-dims", lambda T, x: T.flatten(x, -3, -2), R(2, 3, 2, seed=3), second=True)
case("flatten.using_ints/same-dim", lambda T, x: T.flatten(x, 1, 1), R(2, 3, seed=4), second=True)
case("flatten.using_ints/0-dim", lambda T, x: T.flatten(x), R(seed=5), second=True)
case("flatten.using_ints/empty", lambda T, x: T.flatten(x.reshape([2, 0, 3]), 1), D([]))
case("flatten.using_ints/transposed", lambda T, x: T.flatten(x.t()), R(2, 3, seed=6), second=True)
case("flatten.using_ints/expanded", lambda T, x: T.flatten(x.expand([2, 3, 4])), R(3, 1, seed=7), second=True)
case("flatten.using_ints/int64", lambda T, x: T.flatten(x), L([[1, 2], [3, 4]]))
case("flatten.using_ints/dim-error", lambda T, x: T.flatten(x, 0, 2), R(2, 3))
case("flatten.using_ints/order-error", lambda T, x: T.flatten(x, 1, 0), R(2, 3))

case("unflatten.int/split", lambda T, x: T.unflatten(x, 1, [2, 3]), R(2, 6, seed=1), second=True)
case("unflatten.int/inferred", lambda T, x: x.unflatten(-1, (3, -1)), R(2, 6, seed=2), second=True)
case("unflatten.int/transposed", lambda T, x: T.unflatten(x.t(), 0, [2, 2]), R(3, 4, seed=3), second=True)
case("unflatten.int/empty", lambda T, x: T.unflatten(x.reshape([0, 4]), 1, [2, 2]), D([]))
case("unflatten.int/size-error", lambda T, x: T.unflatten(x, 1, [2, 2]), R(2, 6))
case("unflatten.int/dim-error", lambda T, x: T.unflatten(x, 2, [2, 3]), R(2, 6))

case("movedim.intlist/two", lambda T, x: T.movedim(x, [0, 1], [2, 0]), R(2, 3, 4, seed=1), second=True)
case("movedim.intlist/negative", lambda T, x: x.movedim([-1], [0]), R(2, 3, 4, seed=2), second=True)
case("movedim.intlist/expanded", lambda T, x: T.movedim(x.expand([2, 3, 4]), [2], [0]), R(3, 1, seed=3), second=True)
case("movedim.intlist/repeat-error", lambda T, x: T.movedim(x, [0, 0], [0, 1]), R(2, 3))
case("movedim.intlist/length-error", lambda T, x: T.movedim(x, [0, 1], [0]), R(2, 3))
case("movedim.int/last", lambda T, x: T.movedim(x, 0, -1), R(2, 3, 4, seed=4), second=True)
case("movedim.int/empty", lambda T, x: T.movedim(x.reshape([2, 0]), 1, 0), D([]))
case("movedim.int/dim-error", lambda T, x: T.movedim(x, 0, 3), R(2, 3))

case("broadcast_to/row", lambda T, x: T.broadcast_to(x, [2, 3]), R(3, seed=1), second=True)
case("broadcast_to/minus-one", lambda T, x: x.broadcast_to([2, -1, 4]), R(3, 1, seed=2), second=True)
case("broadcast_to/0-dim", lambda T, x: T.broadcast_to(x, [2, 2]), R(seed=3), second=True)
case("broadcast_to/empty", lambda T, x: T.broadcast_to(x.reshape([0, 1]), [0, 3]), D([]))
case("broadcast_to/error", lambda T, x: T.broadcast_to(x, [2, 4]), R(3))

case("tensor_split.sections/uneven", lambda T, x: T.tensor_split(x, 3), R(7, 2, seed=1), second=True)
case("tensor_split.sections/dim", lambda T, x: x.tensor_split(2, dim=-1), R(2, 5, seed=2), second=True)
case("tensor_split.sections/more-than-size", lambda T, x: T.tensor_split(x, 5, 1), R(2, 3, seed=3), second=True)
case("tensor_split.sections/empty", lambda T, x: T.tensor_split(x, 2), D([]))
case("tensor_split.sections/transposed", lambda T, x: T.tensor_split(x.t(), 2), R(3, 4, seed=4), second=True)
case("tensor_split.sections/zero-error", lambda T, x: T.tensor_split(x, 0), R(3))
case("tensor_split.sections/0-dim-error", lambda T, x: T.tensor_split(x, 2), R())
case("tensor_split.indices/two", lambda T, x: T.tensor_split(x, [1, 4]), R(6, 2, seed=5), second=True)
case("tensor_split.indices/clamped", lambda T, x: T.tensor_split(x, [-2, 9, 1], 1), R(2, 5, seed=6), second=True)
case("tensor_split.indices/none", lambda T, x: T.tensor_split(x, []), R(3, seed=7), second=True)
case("tensor_split.indices/dim-error", lambda T, x: T.tensor_split(x, [1], 2), R(2, 3))
tsplit = "tensor_split.tensor_indices_or_sections"
case(f"{tsplit}/one-index", lambda T, x, i: T.tensor_split(x, i, dim=1), R(2, 3, seed=8), L([1]), second=True)
case(f"{tsplit}/two-indices", lambda T, x, i: T.tensor_split(x, i, dim=1), R(2, 3, seed=9), L([1, 2]), second=True)
case(f"{tsplit}/sections", lambda T, x, i: T.tensor_split(x, i), R(7, 2, seed=10), L(3), second=True)
case(f"{tsplit}/method-strided", lambda T, x, i: x.tensor_split(i[::2], 0), R(6, seed=11), L([1, 9, 4]), second=True)
case(f"{tsplit}/float-error", lambda T, x, i: T.tensor_split(x, i), R(4), D([1.0], grad=False))
case(f"{tsplit}/2-dim-error", lambda T, x, i: T.tensor_split(x, i), R(4), L([[1]]))

case("flip/two-dims", lambda T, x: T.flip(x, [0, 2]), R(2, 3, 2, seed=1), second=True)
case("flip/negative", lambda T, x: x.flip([-1]), R(2, 3, seed=2), second=True)
case("flip/none", lambda T, x: T.flip(x, []), R(2, 3, seed=3), second=True)
case("flip/0-dim", lambda T, x: T.flip(x, [0]), R(seed=4), second=True)
case("flip/empty", lambda T, x: T.flip(x.reshape([0, 2]), [0, 1]), D([]))
case("flip/transposed", lambda T, x: T.flip(x.t(), [0]), R(2, 3, seed=5), second=True)
case("flip/expanded", lambda T, x: T.flip(x.expand([3, 4]), [0, 1]), R(3, 1, seed=6), second=True)
case("flip/int64", lambda T, x: T.flip(x, [0]), L([1, 2, 3]))
case("flip/bool", lambda T, x: T.flip(x, [0]), B([True, False, False]))
case("flip/float32", lambda T, x: T.flip(x, [1]), R(2, 3, seed=7, dtype="float32"))
case("flip/dim-error", lambda T, x: T.flip(x, [2]), R(2, 3))
case("flip/repeat-error", lambda T, x: T.flip(x, [1, -1]), R(2, 3))

for op in ("tril", "triu"):
    case(f"{op}/main", lambda T, x, op=op: getattr(T, op)(x), R(3, 4, seed=1), second=True)
    case(f"{op}/above", lambda T, x, op=op: getattr(x, op)(1), R(3, 4, seed=2), second=True)
    case(f"{op}/below", lambda T, x, op=op: getattr(T, op)(x, diagonal=-1), R(4, 3, seed=3), second=True)
    case(f"{op}/far", lambda T, x, op=op: getattr(T, op)(x, 7), R(3, 3, seed=4), second=True)
    case(f"{op}/far-negative", lambda T, x, op=op: getattr(T, op)(x, -7), R(3, 3, seed=5), second=True)
    case(f"{op}/batch", lambda T, x, op=op: getattr(T, op)(x), R(2, 3, 3, seed=6), second=True)
    case(f"{op}/transposed", lambda T, x, op=op: getattr(T, op)(x.t(), 1), R(4, 3, seed=7), second=True)
    case(f"{op}/expanded", lambda T, x, op=op: getattr(T, op)(x.expand([3, 3])), R(1, 3, seed=8), second=True)
    case(f"{op}/empty", lambda T, x, op=op: getattr(T, op)(x.reshape([0, 3])), D([]))
    case(f"{op}/int64", lambda T, x, op=op: getattr(T, op)(x), L([[1, 2], [3, 4]]))
    case(f"{op}/bool", lambda T, x, op=op: getattr(T, op)(x), B([[True, True], [True, True]]))
    case(f"{op}/nan", lambda T, x, op=op: getattr(T, op)(x), D([[NAN, 1.0], [INF, NAN]]))
    case(f"{op}/1-dim-error", lambda T, x, op=op: getattr(T, op)(x), R(3))
    case(f"{op}_/clone", lambda T, x, op=op: getattr(x.clone(), op + "_")(1), R(3, 3, seed=9), second=True)
    case(
        f"{op}.out/function",
        lambda T, x, op=op: getattr(T, op)(x, 1, out=T.zeros([3, 4], dtype=T.float64)),
        R(3, 4, seed=10, grad=False),
    )
    case(
        f"{op}.out/requires-grad-error",
        lambda T, x, op=op: getattr(T, op)(x, out=T.zeros([3, 4], dtype=T.float64)),
        R(3, 4, seed=11),
    )

case("repeat/varargs", lambda T, x: x.repeat(2, 1, 3), R(2, 3, seed=1), second=True)
case("repeat/same-dims", lambda T, x: x.repeat([2, 2]), R(2, 3, seed=2), second=True)
case("repeat/zero", lambda T, x: x.repeat(0, 2), R(2, 3, seed=3), second=True)
case("repeat/0-dim", lambda T, x: x.repeat(3), R(seed=4), second=True)
case("repeat/empty", lambda T, x: x.reshape([0, 2]).repeat(2, 2), D([]))
case("repeat/transposed", lambda T, x: x.t().repeat(1, 2), R(2, 3, seed=5), second=True)
case("repeat/expanded", lambda T, x: x.expand([3, 4]).repeat(2, 1), R(3, 1, seed=6), second=True)
case("repeat/int64", lambda T, x: x.repeat(2), L([1, 2]))
case("repeat/too-few-error", lambda T, x: x.repeat(2), R(2, 3))
case("repeat/negative-error", lambda T, x: x.repeat(-1, 2), R(2, 3))
case("tile/function", lambda T, x: T.tile(x, [2, 1, 2]), R(2, 3, seed=7), second=True)
case("tile/fewer-dims", lambda T, x: x.tile(2), R(2, 3, seed=8), second=True)
case("tile/empty-dims", lambda T, x: T.tile(x, []), R(2, seed=9), second=True)

case("squeeze.dims/two", lambda T, x: T.squeeze(x, [0, 2]), R(1, 3, 1, 2, seed=1), second=True)
case("squeeze.dims/not-one", lambda T, x: x.squeeze(-1, 1), R(1, 3, 1, seed=2), second=True)
case("squeeze.dims/repeated", lambda T, x: T.squeeze(x, [0, 0, -3]), R(1, 2, 3, seed=3), second=True)
case("squeeze.dims/empty", lambda T, x: T.squeeze(x.reshape([0, 1]), [1]), D([]))
case("squeeze.dims/0-dim", lambda T, x: T.squeeze(x, [0]), R(seed=4), second=True)
case("squeeze.dims/expanded", lambda T, x: T.squeeze(x.expand([1, 3, 1]), [0, 2]), R(3, 1, seed=5), second=True)
case("squeeze.dims/dim-error", lambda T, x: T.squeeze(x, [0, 2]), R(1, 3))

case("narrow_copy/dim1", lambda T, x: T.narrow_copy(x, 1, 1, 2), R(2, 4, seed=1), second=True)
case("narrow_copy/negative-dim", lambda T, x: x.narrow_copy(-1, 0, 3), R(2, 4, seed=2), second=True)
case("narrow_copy/negative-start", lambda T, x: T.narrow_copy(x, 0, -2, 2), R(3, 2, seed=3), second=True)
case("narrow_copy/transposed", lambda T, x: T.narrow_copy(x.t(), 0, 1, 2), R(2, 4, seed=4), second=True)
case("narrow_copy/expanded", lambda T, x: T.narrow_copy(x.expand([3, 4]), 1, 1, 2), R(3, 1, seed=5), second=True)
case("narrow_copy/empty", lambda T, x: T.narrow_copy(x, 0, 1, 0), R(3, 2, seed=6), second=True)
case("narrow_copy/int64", lambda T, x: T.narrow_copy(x, 0, 1, 2), L([1, 2, 3]))
case("narrow_copy/range-error", lambda T, x: T.narrow_copy(x, 0, 2, 2), R(3))
case("narrow_copy/dim-error", lambda T, x: T.narrow_copy(x, 1, 0, 1), R(3))
case(
    "narrow_copy.out/function",
    lambda T, x: T.narrow_copy(x, 1, 1, 2, out=T.zeros([3, 2], dtype=T.float64)),
    R(3, 4, grad=False),
)
case(
    "narrow_copy.out/requires-grad-error",
    lambda T, x: T.narrow_copy(x, 1, 1, 2, out=T.zeros([3, 2], dtype=T.float64)),
    R(3, 4),
)

for off in (0, 1, -2, 9):
    case(f"diagonal/offset{off}", lambda T, x, off=off: T.diagonal(x, off), R(3, 4, seed=1), second=True)
case("diagonal/dims", lambda T, x: x.diagonal(1, 2, 0), R(3, 2, 4, seed=2), second=True)
case("diagonal/negative-dims", lambda T, x: T.diagonal(x, 0, -1, -2), R(2, 3, 3, seed=3), second=True)
case("diagonal/transposed", lambda T, x: T.diagonal(x.t()), R(4, 3, seed=4), second=True)
case("diagonal/expanded", lambda T, x: T.diagonal(x.expand([3, 3]), -1), R(1, 3, seed=5), second=True)
case("diagonal/empty", lambda T, x: T.diagonal(x.reshape([0, 3])), D([]))
case("diagonal/int64", lambda T, x: T.diagonal(x), L([[1, 2], [3, 4]]))
case("diagonal/same-dims-error", lambda T, x: T.diagonal(x, 0, 1, 1), R(2, 3))
case("diagonal/dim-error", lambda T, x: T.diagonal(x, 0, 0, 2), R(2, 3))
case("diagonal/1-dim-error", lambda T, x: T.diagonal(x), R(3))
case("diagonal_backward/offset", lambda T, g: T.diagonal_backward(g, [3, 4], 1, 0, 1), R(3, seed=6), second=True)
case("diagonal_backward/dims", lambda T, g: T.diagonal_backward(g, [2, 3, 3], 0, -1, 1), R(2, 3, seed=7), second=True)

case("diag_embed/vector", lambda T, x: T.diag_embed(x), R(3, seed=1), second=True)
case("diag_embed/offset", lambda T, x: x.diag_embed(1), R(2, 3, seed=2), second=True)
case("diag_embed/negative-offset-dims", lambda T, x: T.diag_embed(x, -2, 0, 2), R(2, 3, seed=3), second=True)
case("diag_embed/transposed", lambda T, x: T.diag_embed(x.t()), R(2, 3, seed=4), second=True)
case("diag_embed/empty", lambda T, x: T.diag_embed(x.reshape([0, 2])), D([]))
case("diag_embed/int64", lambda T, x: T.diag_embed(x), L([1, 2]))
case("diag_embed/same-dims-error", lambda T, x: T.diag_embed(x, 0, 1, 1), R(2, 3))
case("diag_embed/dim-error", lambda T, x: T.diag_embed(x, 0, 0, 3), R(2, 3))

case("split_with_sizes/three", lambda T, x: T.split_with_sizes(x, [1, 3, 2]), R(6, 2, seed=1), second=True)
case("split_with_sizes/dim-empty-piece", lambda T, x: x.split_with_sizes([2, 0, 3], -1), R(2, 5, seed=2), second=True)
case("split_with_sizes/transposed", lambda T, x: T.split_with_sizes(x.t(), [3, 1]), R(3, 4, seed=3), second=True)
case("split_with_sizes/one-used", lambda T, x: T.split_with_sizes(x, [1, 3])[1], R(4, 2, seed=4), second=True)
case("split_with_sizes/empty", lambda T, x: T.split_with_sizes(x.reshape([0, 2]), [0, 0]), D([]))
case("split_with_sizes/sum-error", lambda T, x: T.split_with_sizes(x, [1, 1]), R(3))
case("split_with_sizes/dim-error", lambda T, x: T.split_with_sizes(x, [3], 1), R(3))
case("split_with_sizes/inplace-error", lambda T, x: T.split_with_sizes(x * 1, [1, 2])[0].mul_(2), R(3))

# ---------------------------------------------------------------------------------------------
# tensor ops, third batch (issue 23): products
# ---------------------------------------------------------------------------------------------

for op in ("dot", "vdot"):
    case(f"{op}/vectors", lambda T, a, b, op=op: getattr(T, op)(a, b), R(4, seed=1), R(4, seed=2), second=True)
    case(
        f"{op}/method-strided",
        lambda T, a, b, op=op: getattr(a[:, 1], op)(b),
        R(3, 2, seed=3),
        R(3, seed=4),
        second=True,
    )
    case(f"{op}/empty", lambda T, a, b, op=op: getattr(T, op)(a, b), D([]), D([]), second=True)
    case(f"{op}/nan", lambda T, a, b, op=op: getattr(T, op)(a, b), D([NAN, 1.0]), D([0.0, 2.0]))
    case(f"{op}/int64", lambda T, a, b, op=op: getattr(T, op)(a, b), L([1, -2, 3]), L([4, 5, -6]))
    case(
        f"{op}/float32",
        lambda T, a, b, op=op: getattr(T, op)(a, b),
        R(5, seed=5, dtype="float32"),
        R(5, seed=6, dtype="float32"),
    )
    case(f"{op}/2d-error", lambda T, a, b, op=op: getattr(T, op)(a, b), R(2, 2), R(4))
    case(f"{op}/size-error", lambda T, a, b, op=op: getattr(T, op)(a, b), R(3), R(4))
    case(f"{op}/dtype-error", lambda T, a, b, op=op: getattr(T, op)(a, b), R(3), R(3, dtype="float32"))

for op in ("outer", "ger"):
    case(f"{op}/vectors", lambda T, a, b, op=op: getattr(T, op)(a, b), R(3, seed=1), R(4, seed=2), second=True)
    case(
        f"{op}/method-strided",
        lambda T, a, b, op=op: getattr(a[:, 0], op)(b),
        R(3, 2, seed=3),
        R(2, seed=4),
        second=True,
    )
    case(f"{op}/empty", lambda T, a, b, op=op: getattr(T, op)(a, b), D([]), R(2, seed=5))
    case(f"{op}/int64", lambda T, a, b, op=op: getattr(T, op)(a, b), L([1, 2]), L([3, -4, 5]))
    case(f"{op}/2d-error", lambda T, a, b, op=op: getattr(T, op)(a, b), R(2, 2), R(4))

case("mv/matrix-vector", lambda T, m, v: T.mv(m, v), R(2, 3, seed=1), R(3, seed=2), second=True)
case("mv/transposed-strided", lambda T, m, v: m.t().mv(v[:, 0]), R(3, 2, seed=3), R(3, 2, seed=4), second=True)
case("mv/empty-inner", lambda T, m, v: T.mv(m.reshape([2, 0]), v), D([]), D([]), second=True)
case("mv/int64", lambda T, m, v: T.mv(m, v), L([[1, 2], [3, 4]]), L([5, -6]))
case("mv/float32", lambda T, m, v: T.mv(m, v), R(3, 4, seed=5, dtype="float32"), R(4, seed=6, dtype="float32"))
case("mv/size-error", lambda T, m, v: T.mv(m, v), R(2, 3), R(4))
case("mv/dim-error", lambda T, m, v: T.mv(m, v), R(3), R(3))

case("addmv/default", lambda T, s, m, v: T.addmv(s, m, v), R(2, seed=1), R(2, 3, seed=2), R(3, seed=3), second=True)
case(
    "addmv/beta-alpha",
    lambda T, s, m, v: T.addmv(s, m, v, beta=0.5, alpha=-2),
    R(2, seed=4),
    R(2, 3, seed=5),
    R(3, seed=6),
    second=True,
)
case(
    "addmv/broadcast-self",
    lambda T, s, m, v: s.addmv(m, v, alpha=2),
    R(1, seed=7),
    R(2, 3, seed=8),
    R(3, seed=9),
    second=True,
)
case("addmv/0-dim-self", lambda T, s, m, v: T.addmv(s, m, v), R(seed=10), R(2, 3, seed=11), R(3, seed=12), second=True)
case(
    "addmv/beta-0-ignores-nan",
    lambda T, s, m, v: T.addmv(s, m, v, beta=0),
    D([NAN, INF]),
    R(2, 3, seed=13),
    R(3, seed=14),
)
case(
    "addmv_/in-place",
    lambda T, s, m, v: s.clone().addmv_(m, v, beta=2),
    R(2, seed=15),
    R(2, 3, seed=16),
    R(3, seed=17),
    second=True,
)
case("addmv/size-error", lambda T, s, m, v: T.addmv(s, m, v), R(3), R(2, 3), R(3))
case(
    "addmv/int64-float-beta-truncated",
    lambda T, s, m, v: T.addmv(s, m, v, beta=0.5),
    L([1, 2]),
    L([[1, 2], [3, 4]]),
    L([1, 1]),
)

case(
    "addmm/default", lambda T, s, a, b: T.addmm(s, a, b), R(2, 4, seed=1), R(2, 3, seed=2), R(3, 4, seed=3), second=True
)
case(
    "addmm/beta-alpha",
    lambda T, s, a, b: T.addmm(s, a, b, beta=0.5, alpha=-2),
    R(2, 4, seed=4),
    R(2, 3, seed=5),
    R(3, 4, seed=6),
    second=True,
)
case(
    "addmm/broadcast-row", lambda T, s, a, b: s.addmm(a, b), R(4, seed=7), R(2, 3, seed=8), R(3, 4, seed=9), second=True
)
case(
    "addmm/broadcast-column",
    lambda T, s, a, b: T.addmm(s, a, b),
    R(2, 1, seed=10),
    R(2, 3, seed=11),
    R(3, 4, seed=12),
    second=True,
)
case(
    "addmm/transposed",
    lambda T, s, a, b: T.addmm(s, a.t(), b.t()),
    R(2, 4, seed=13),
    R(3, 2, seed=14),
    R(4, 3, seed=15),
    second=True,
)
case(
    "addmm/beta-0-ignores-nan",
    lambda T, s, a, b: T.addmm(s, a, b, beta=0),
    D([[NAN, INF], [1.0, -INF]]),
    R(2, 3, seed=16),
    R(3, 2, seed=17),
)
case(
    "addmm/empty-inner",
    lambda T, s, a, b: T.addmm(s, a.reshape([2, 0]), b.reshape([0, 3])),
    R(2, 3, seed=18),
    D([]),
    D([]),
    second=True,
)
case(
    "addmm/int64",
    lambda T, s, a, b: T.addmm(s, a, b, beta=2, alpha=3),
    L([1, 2]),
    L([[1, 2], [3, 4]]),
    L([[5, 6], [7, 8]]),
)
case(
    "addmm/float32",
    lambda T, s, a, b: T.addmm(s, a, b),
    R(3, seed=19, dtype="float32"),
    R(2, 4, seed=20, dtype="float32"),
    R(4, 3, seed=21, dtype="float32"),
)
case(
    "addmm_/in-place",
    lambda T, s, a, b: s.clone().addmm_(a, b, alpha=0.5),
    R(2, 4, seed=22),
    R(2, 3, seed=23),
    R(3, 4, seed=24),
    second=True,
)
case("addmm_/broadcast-self-error", lambda T, s, a, b: s.clone().addmm_(a, b), R(4), R(2, 3), R(3, 4))
case("addmm/shape-error", lambda T, s, a, b: T.addmm(s, a, b), R(2, 4), R(2, 3), R(2, 4))
case("addmm/self-shape-error", lambda T, s, a, b: T.addmm(s, a, b), R(3, 4), R(2, 3), R(3, 4))
case("addmm/1d-error", lambda T, s, a, b: T.addmm(s, a, b), R(4), R(3), R(3, 4))

case(
    "addbmm/default",
    lambda T, s, a, b: T.addbmm(s, a, b),
    R(2, 4, seed=1),
    R(3, 2, 3, seed=2),
    R(3, 3, 4, seed=3),
    second=True,
)
case(
    "addbmm/beta-alpha-broadcast",
    lambda T, s, a, b: s.addbmm(a, b, beta=-1, alpha=0.5),
    R(4, seed=4),
    R(2, 2, 3, seed=5),
    R(2, 3, 4, seed=6),
    second=True,
)
case(
    "addbmm/transposed",
    lambda T, s, a, b: T.addbmm(s, a.transpose(1, 2), b),
    R(2, 2, seed=7),
    R(2, 3, 2, seed=8),
    R(2, 3, 2, seed=9),
    second=True,
)
case(
    "addbmm/empty-batch",
    lambda T, s, a, b: T.addbmm(s, a.reshape([0, 2, 3]), b.reshape([0, 3, 2])),
    R(2, 2, seed=10),
    D([]),
    D([]),
    second=True,
)
case(
    "addbmm_/in-place",
    lambda T, s, a, b: s.clone().addbmm_(a, b),
    R(2, 4, seed=11),
    R(3, 2, 3, seed=12),
    R(3, 3, 4, seed=13),
    second=True,
)
case("addbmm/batch-error", lambda T, s, a, b: T.addbmm(s, a, b), R(2, 4), R(3, 2, 3), R(2, 3, 4))
case("addbmm/size-error", lambda T, s, a, b: T.addbmm(s, a, b), R(2, 4), R(3, 2, 3), R(3, 2, 4))

case(
    "baddbmm/default",
    lambda T, s, a, b: T.baddbmm(s, a, b),
    R(2, 2, 4, seed=1),
    R(2, 2, 3, seed=2),
    R(2, 3, 4, seed=3),
    second=True,
)
case(
    "baddbmm/beta-alpha-broadcast",
    lambda T, s, a, b: s.baddbmm(a, b, beta=0.5, alpha=2),
    R(4, seed=4),
    R(2, 2, 3, seed=5),
    R(2, 3, 4, seed=6),
    second=True,
)
case(
    "baddbmm/transposed",
    lambda T, s, a, b: T.baddbmm(s, a, b.transpose(1, 2)),
    R(2, 2, 2, seed=7),
    R(2, 2, 3, seed=8),
    R(2, 2, 3, seed=9),
    second=True,
)
case(
    "baddbmm/beta-0-ignores-nan",
    lambda T, s, a, b: T.baddbmm(s, a, b, beta=0),
    D([NAN, INF]),
    R(1, 2, 3, seed=10),
    R(1, 3, 2, seed=11),
)
case("baddbmm/int64", lambda T, s, a, b: T.baddbmm(s, a, b), L([1, 2]), L([[[1, 2], [3, 4]]]), L([[[5, 6], [7, 8]]]))
case(
    "baddbmm_/in-place",
    lambda T, s, a, b: s.clone().baddbmm_(a, b, alpha=-1),
    R(2, 2, 4, seed=12),
    R(2, 2, 3, seed=13),
    R(2, 3, 4, seed=14),
    second=True,
)
case("baddbmm/2d-error", lambda T, s, a, b: T.baddbmm(s, a, b), R(2, 4), R(2, 3), R(3, 4))
case("baddbmm/size-error", lambda T, s, a, b: T.baddbmm(s, a, b), R(2, 2, 4), R(2, 2, 3), R(2, 2, 4))

case("kron/matrices", lambda T, a, b: T.kron(a, b), R(2, 3, seed=1), R(2, 2, seed=2), second=True)
case("kron/fewer-dims", lambda T, a, b: a.kron(b), R(3, seed=3), R(2, 2, seed=4), second=True)
case("kron/transposed", lambda T, a, b: T.kron(a.t(), b), R(3, 2, seed=5), R(2, seed=6), second=True)
case("kron/0-dim", lambda T, a, b: T.kron(a, b), R(seed=7), R(2, seed=8), second=True)
case("kron/empty", lambda T, a, b: T.kron(a.reshape([0, 2]), b), D([]), R(2, 2, seed=9))
case("kron/int64", lambda T, a, b: T.kron(a, b), L([1, 2]), L([[1, -1], [2, 3]]))

case("trace/square", lambda T, x: x.trace(), R(3, 3, seed=1), second=True)
case("trace/wide", lambda T, x: x.trace(), R(2, 4, seed=2), second=True)
case("trace/transposed", lambda T, x: x.t().trace(), R(3, 4, seed=3), second=True)
case("trace/empty", lambda T, x: x.reshape([0, 2]).trace(), D([]), second=True)
case("trace/int64", lambda T, x: x.trace(), L([[1, 2], [3, 4]]))
case("trace/bool", lambda T, x: x.trace(), B([[True, False], [True, True]]))
case("trace/nan", lambda T, x: x.trace(), D([[NAN, 1.0], [2.0, 3.0]]))
case("trace/1d-error", lambda T, x: x.trace(), R(3))

case("linalg_cross/rows", lambda T, a, b: T.linalg_cross(a, b), R(2, 3, seed=1), R(2, 3, seed=2), second=True)
case("linalg_cross/broadcast", lambda T, a, b: T.linalg_cross(a, b), R(1, 3, seed=3), R(4, 3, seed=4), second=True)
case(
    "linalg_cross/dim-0-transposed",
    lambda T, a, b: T.linalg_cross(a.t(), b, dim=0),
    R(2, 3, seed=5),
    R(3, 2, seed=6),
    second=True,
)
case("linalg_cross/empty", lambda T, a, b: T.linalg_cross(a.reshape([0, 3]), b.reshape([0, 3])), D([]), D([]))
case("linalg_cross/int64", lambda T, a, b: T.linalg_cross(a, b), L([1, 2, 3]), L([4, 5, 6]))
case("linalg_cross/length-error", lambda T, a, b: T.linalg_cross(a, b), R(2, 2), R(2, 2))
case("linalg_cross/ndim-error", lambda T, a, b: T.linalg_cross(a, b), R(3), R(2, 3))
case("linalg_cross/dim-error", lambda T, a, b: T.linalg_cross(a, b, dim=2), R(2, 3), R(2, 3))
case("cross/dim", lambda T, a, b: T.cross(a, b, dim=1), R(2, 3, seed=7), R(2, 3, seed=8), second=True)
case("cross/method-dim-0", lambda T, a, b: a.cross(b, 0), R(3, 2, seed=9), R(3, 2, seed=10), second=True)

case(
    "tensordot/two-dims",
    lambda T, a, b: T.tensordot(a, b, dims=([1, 2], [0, 1])),
    R(2, 3, 4, seed=1),
    R(3, 4, 2, seed=2),
    second=True,
)
case(
    "tensordot/crossed",
    lambda T, a, b: T.tensordot(a, b, dims=([0, 1], [2, 0])),
    R(3, 2, seed=3),
    R(2, 4, 3, seed=4),
    second=True,
)
case("tensordot/none", lambda T, a, b: T.tensordot(a, b, dims=([], [])), R(2, seed=5), R(3, seed=6), second=True)
case(
    "tensordot/negative-dims",
    lambda T, a, b: T.tensordot(a, b, dims=([-1], [0])),
    R(2, 3, seed=7),
    R(3, 2, seed=8),
    second=True,
)
case(
    "tensordot/size-one-dim",
    lambda T, a, b: T.tensordot(a, b, dims=([0], [0])),
    R(1, 2, seed=9),
    R(3, 2, seed=10),
    second=True,
)
case(
    "tensordot/int-dims", lambda T, a, b: T.tensordot(a, b, dims=2), R(2, 3, 4, seed=11), R(3, 4, seed=12), second=True
)
case("tensordot/int-dims-0", lambda T, a, b: T.tensordot(a, b, 0), R(2, seed=13), R(2, seed=14), second=True)
case("tensordot/negative-int-error", lambda T, a, b: T.tensordot(a, b, -1), R(2), R(2))
case("tensordot/int64", lambda T, a, b: T.tensordot(a, b, dims=([1], [0])), L([[1, 2], [3, 4]]), L([[1, 0], [2, 1]]))
case("tensordot/size-error", lambda T, a, b: T.tensordot(a, b, dims=([1], [0])), R(2, 3), R(2, 3))
case("tensordot/length-error", lambda T, a, b: T.tensordot(a, b, dims=([1], [0, 1])), R(2, 3), R(3, 2))
case("tensordot/dim-error", lambda T, a, b: T.tensordot(a, b, dims=([2], [0])), R(2, 3), R(3, 2))
NG = dict(grad=False)
OUT_CASES = [
    ("dot.out", lambda T, a, b, o: T.dot(a, b, out=o), [R(3, seed=1, **NG), R(3, seed=2, **NG)], []),
    ("vdot.out", lambda T, a, b, o: T.vdot(a, b, out=o), [R(3, seed=1, **NG), R(3, seed=2, **NG)], []),
    ("outer.out", lambda T, a, b, o: T.outer(a, b, out=o), [R(2, seed=1, **NG), R(3, seed=2, **NG)], [2, 3]),
    ("ger.out", lambda T, a, b, o: T.ger(a, b, out=o), [R(2, seed=1, **NG), R(3, seed=2, **NG)], [2, 3]),
    ("mv.out", lambda T, a, b, o: T.mv(a, b, out=o), [R(2, 3, seed=1, **NG), R(3, seed=2, **NG)], [2]),
    (
        "addmv.out",
        lambda T, s, a, b, o: T.addmv(s, a, b, beta=2, out=o),
        [R(2, **NG), R(2, 3, seed=1, **NG), R(3, seed=2, **NG)],
        [2],
    ),
    (
        "addmm.out",
        lambda T, s, a, b, o: T.addmm(s, a, b, alpha=0.5, out=o),
        [R(2, **NG), R(2, 3, seed=1, **NG), R(3, 2, seed=2, **NG)],
        [2, 2],
    ),
    (
        "addbmm.out",
        lambda T, s, a, b, o: T.addbmm(s, a, b, out=o),
        [R(2, 2, **NG), R(3, 2, 3, seed=1, **NG), R(3, 3, 2, seed=2, **NG)],
        [2, 2],
    ),
    (
        "baddbmm.out",
        lambda T, s, a, b, o: T.baddbmm(s, a, b, beta=0.5, out=o),
        [R(2, 2, 2, **NG), R(2, 2, 3, seed=1, **NG), R(2, 3, 2, seed=2, **NG)],
        [2, 2, 2],
    ),
    ("kron.out", lambda T, a, b, o: T.kron(a, b, out=o), [R(2, seed=1, **NG), R(2, 2, seed=2, **NG)], [2, 4]),
    (
        "cross.out",
        lambda T, a, b, o: T.cross(a, b, dim=1, out=o),
        [R(2, 3, seed=1, **NG), R(2, 3, seed=2, **NG)],
        [2, 3],
    ),
    (
        "linalg_cross.out",
        lambda T, a, b, o: T.linalg_cross(a, b, out=o),
        [R(2, 3, seed=1, **NG), R(2, 3, seed=2, **NG)],
        [2, 3],
    ),
    (
        "tensordot.out",
        lambda T, a, b, o: T.tensordot(a, b, dims=([1], [0]), out=o),
        [R(2, 3, seed=1, **NG), R(3, 2, seed=2, **NG)],
        [2, 2],
    ),
]
for name, f, ins, shape in OUT_CASES:
    case(f"{name}/function", lambda T, *xs, f=f, shape=shape: f(T, *xs, T.zeros(shape, dtype=T.float64)), *ins)
    case(f"{name}/resize-empty", lambda T, *xs, f=f: f(T, *xs, T.zeros([0], dtype=T.float64)), *ins)
    grads = [dict(x, grad=True) for x in ins]
    case(
        f"{name}/requires-grad-error",
        lambda T, *xs, f=f, shape=shape: f(T, *xs, T.zeros(shape, dtype=T.float64)),
        *grads,
    )

# ---------------------------------------------------------------------------------------------
# tensor ops, third batch (issue 23): sorting and roll
# ---------------------------------------------------------------------------------------------

TIES = [3.0, 1.0, 2.0, 1.0, 3.0, 0.0, -0.0, 2.0]
NANS = [1.0, NAN, -INF, 2.0, NAN, INF, 0.0]
case("sort/last-dim", lambda T, x: T.sort(x), R(2, 5, seed=1), second=True)
case("sort/dim-0-descending", lambda T, x: T.sort(x, 0, True), R(3, 4, seed=2), second=True)
case("sort/method-keywords", lambda T, x: x.sort(dim=1, descending=True), R(2, 5, seed=3), second=True)
case("sort/ties", lambda T, x: T.sort(x), D(TIES), second=True)
case("sort/ties-descending", lambda T, x: T.sort(x, descending=True), D(TIES), second=True)
case("sort/nan", lambda T, x: T.sort(x), D(NANS))
case("sort/nan-descending", lambda T, x: T.sort(x, descending=True), D(NANS))
case("sort/transposed", lambda T, x: T.sort(x.t(), 1), R(4, 3, seed=4), second=True)
case("sort/expanded", lambda T, x: T.sort(x.expand([3, 4]), 0), R(1, 4, seed=5), second=True)
case("sort/0-dim", lambda T, x: T.sort(x), R(seed=6), second=True)
case("sort/empty", lambda T, x: T.sort(x.reshape([0, 3])), D([]))
case("sort/int64", lambda T, x: T.sort(x, descending=True), L([3, -1, 3, 0, -7, 2]))
case("sort/bool", lambda T, x: T.sort(x), B([True, False, True, False]))
case("sort/float32", lambda T, x: T.sort(x), R(7, seed=7, dtype="float32"))
case("sort/dim-error", lambda T, x: T.sort(x, 2), R(2, 3))
case("sort.stable/ties", lambda T, x: T.sort(x, stable=True), D(TIES), second=True)
case(
    "sort.stable/descending-dim", lambda T, x: x.sort(stable=True, dim=0, descending=True), R(3, 2, seed=8), second=True
)
case("sort.stable/nan", lambda T, x: T.sort(x, stable=False, descending=True), D(NANS))
case(
    "sort.values/out",
    lambda T, x: T.sort(x, 1, out=(T.zeros([2, 4], dtype=T.float64), T.zeros([2, 4], dtype=T.int64))),
    R(2, 4, seed=9, grad=False),
)
case(
    "sort.values/resize",
    lambda T, x: T.sort(x, out=(T.zeros([0], dtype=T.float64), T.zeros([0], dtype=T.int64))),
    D(TIES, grad=False),
)
case(
    "sort.values/requires-grad-error",
    lambda T, x: T.sort(x, out=(T.zeros([3], dtype=T.float64), T.zeros([3], dtype=T.int64))),
    R(3),
)
case(
    "sort.values_stable/out",
    lambda T, x: T.sort(
        x, stable=True, descending=True, out=(T.zeros([8], dtype=T.float64), T.zeros([8], dtype=T.int64))
    ),
    D(TIES, grad=False),
)
case(
    "sort.values_stable/requires-grad-error",
    lambda T, x: T.sort(x, stable=True, out=(T.zeros([3], dtype=T.float64), T.zeros([3], dtype=T.int64))),
    R(3),
)

case("argsort/last-dim", lambda T, x: T.argsort(x), R(2, 5, seed=1))
case("argsort/ties-descending", lambda T, x: x.argsort(descending=True), D(TIES))
case("argsort/nan", lambda T, x: T.argsort(x, 0), D(NANS))
case("argsort/int64", lambda T, x: T.argsort(x), L([3, -1, 3, 0]))
case("argsort/empty", lambda T, x: T.argsort(x), D([]))
case("argsort/dim-error", lambda T, x: T.argsort(x, -3), R(2, 3))
case("argsort.stable/ties", lambda T, x: T.argsort(x, stable=True), D(TIES))
case("argsort.stable/method-dim", lambda T, x: x.argsort(stable=True, dim=0, descending=True), R(3, 2, seed=2))
case(
    "argsort.stable_out/out",
    lambda T, x: T.argsort(x, stable=True, out=T.zeros([8], dtype=T.int64)),
    D(TIES, grad=False),
)

case("topk/largest", lambda T, x: T.topk(x, 3), R(2, 5, seed=1), second=True)
case("topk/smallest-dim-0", lambda T, x: T.topk(x, 2, 0, largest=False), R(4, 3, seed=2), second=True)
case("topk/method-keywords", lambda T, x: x.topk(k=2, dim=-1, largest=True, sorted=True), R(3, 4, seed=3), second=True)
case("topk/unsorted-values", lambda T, x: T.sort(T.topk(x, 3, sorted=False).values).values, R(6, seed=4), second=True)
case("topk/unsorted-order", lambda T, x: T.topk(x, 4, sorted=False), R(9, seed=9), second=True)
case("topk/unsorted-ties", lambda T, x: T.topk(x, 5, sorted=False), D(TIES), second=True)
case("topk/partial-sort-ties", lambda T, x: T.topk(x.repeat(9), 1, largest=False), D(TIES), second=True)
case("topk/ties", lambda T, x: T.topk(x, 3), D(TIES), second=True)
case("topk/ties-smallest", lambda T, x: T.topk(x, 3, largest=False), D(TIES), second=True)
case("topk/nan", lambda T, x: T.topk(x, 3), D(NANS))
case("topk/nan-smallest", lambda T, x: T.topk(x, 3, largest=False), D(NANS))
case("topk/k-0", lambda T, x: T.topk(x, 0), R(2, 3, seed=5))
case("topk/k-all-transposed", lambda T, x: T.topk(x.t(), 3), R(3, 2, seed=6), second=True)
case("topk/0-dim", lambda T, x: T.topk(x, 1), R(seed=7), second=True)
case("topk/empty-rows", lambda T, x: T.topk(x.reshape([0, 3]), 2), D([]))
case("topk/int64", lambda T, x: T.topk(x, 2), L([3, -1, 5, 0]))
case("topk/k-error", lambda T, x: T.topk(x, 4), R(3))
case("topk/negative-k-error", lambda T, x: T.topk(x, -1), R(3))
case("topk/dim-error", lambda T, x: T.topk(x, 1, 2), R(2, 3))
case(
    "topk.values/out",
    lambda T, x: T.topk(x, 2, out=(T.zeros([2, 2], dtype=T.float64), T.zeros([2, 2], dtype=T.int64))),
    R(2, 5, seed=8, grad=False),
)
case(
    "topk.values/requires-grad-error",
    lambda T, x: T.topk(x, 1, out=(T.zeros([1], dtype=T.float64), T.zeros([1], dtype=T.int64))),
    R(3),
)

case("roll/flattened", lambda T, x: T.roll(x, 2), R(2, 3, seed=1), second=True)
case("roll/dim", lambda T, x: x.roll(1, 0), R(3, 2, seed=2), second=True)
case("roll/two-dims", lambda T, x: T.roll(x, (1, -3), (0, 1)), R(3, 4, seed=3), second=True)
case("roll/keywords-negative-dim", lambda T, x: T.roll(x, shifts=7, dims=-1), R(2, 3, seed=4), second=True)
case("roll/same-dim-twice", lambda T, x: T.roll(x, [2, 1], [0, 0]), R(5, seed=5), second=True)
case("roll/transposed", lambda T, x: T.roll(x.t(), 1, 1), R(4, 3, seed=6), second=True)
case("roll/expanded", lambda T, x: T.roll(x.expand([3, 4]), 1, 0), R(3, 1, seed=7), second=True)
case("roll/empty", lambda T, x: T.roll(x.reshape([0, 3]), 1, 1), D([]))
case("roll/0-dim", lambda T, x: T.roll(x, 3), R(seed=8), second=True)
case("roll/int64", lambda T, x: T.roll(x, -1), L([[1, 2], [3, 4]]))
case("roll/bool", lambda T, x: T.roll(x, 1), B([True, False, False]))
case("roll/align-error", lambda T, x: T.roll(x, [1, 2], [0]), R(2, 3))
case("roll/no-dims-two-shifts-error", lambda T, x: T.roll(x, [1, 2]), R(2, 3))
case("roll/dim-error", lambda T, x: T.roll(x, 1, 2), R(2, 3))

# ---------------------------------------------------------------------------------------------
# tensor ops, third batch (issue 23): creation. A floating result is asked for with dtype=:
# gradgen's default dtype is float64, PyTorch's float32 (docs/python-api.md).
# ---------------------------------------------------------------------------------------------

case("arange/end-int64", lambda T: T.arange(5))
case("arange/end-float", lambda T: T.arange(2.5, dtype=T.float64))
case("arange/empty", lambda T: T.arange(0))
case("arange/keyword-end", lambda T: T.arange(end=3, dtype=T.float32))
case("arange/negative-end-error", lambda T: T.arange(-2))
case("arange.start/ints", lambda T: T.arange(1, 4))
case("arange.start/float-dtype", lambda T: T.arange(-1, 2, dtype=T.float64))
case("arange.start/keywords", lambda T: T.arange(start=2, end=5))
case("arange.start_step/fraction", lambda T: T.arange(0, 1, 0.1, dtype=T.float64))
case("arange.start_step/negative-step", lambda T: T.arange(10, 0, -3))
case("arange.start_step/float32", lambda T: T.arange(-1, 1, 0.3, dtype=T.float32))
case("arange.start_step/int-args-float-dtype", lambda T: T.arange(1, 10, 3, dtype=T.float64))
case("arange.start_step/zero-step-error", lambda T: T.arange(0, 5, 0))
case("arange.start_step/sign-error", lambda T: T.arange(5, 0, 1))
case("arange.out/float64", lambda T: T.arange(4, out=T.zeros([0], dtype=T.float64)))
case("arange.start_out/int64", lambda T: T.arange(1, 7, 2, out=T.zeros([3], dtype=T.int64)))
case("arange.start_out/two-args", lambda T: T.arange(2, 5, out=T.zeros([0], dtype=T.float64)))

case("linspace/five", lambda T: T.linspace(0, 1, 5, dtype=T.float64))
case("linspace/reversed", lambda T: T.linspace(3, -2, 6, dtype=T.float64))
case("linspace/one-step", lambda T: T.linspace(2, 3, 1, dtype=T.float64))
case("linspace/no-steps", lambda T: T.linspace(0, 1, 0, dtype=T.float64))
case("linspace/float32", lambda T: T.linspace(-1, 1, 7, dtype=T.float32))
case("linspace/int64", lambda T: T.linspace(0, 10, 4, dtype=T.int64))
case("linspace/keywords", lambda T: T.linspace(start=0.5, end=2.5, steps=3, dtype=T.float64))
case("linspace/negative-steps-error", lambda T: T.linspace(0, 1, -1))
case("linspace.out/float64", lambda T: T.linspace(0, 1, 3, out=T.zeros([0], dtype=T.float64)))

case("logspace/base-10", lambda T: T.logspace(0, 2, 3, dtype=T.float64))
case("logspace/base-2", lambda T: T.logspace(0, 3, 4, base=2, dtype=T.float64))
case("logspace/negative-exponents", lambda T: T.logspace(-2, 1, 7, dtype=T.float64))
case("logspace/float32", lambda T: T.logspace(-1, 1, 5, dtype=T.float32))
case("logspace/no-steps", lambda T: T.logspace(0, 1, 0, dtype=T.float64))
case("logspace/negative-steps-error", lambda T: T.logspace(0, 1, -2))
case("logspace.out/float64", lambda T: T.logspace(0, 1, 3, 10.0, out=T.zeros([0], dtype=T.float64)))

case("eye/square", lambda T: T.eye(3, dtype=T.float64))
case("eye/empty", lambda T: T.eye(0, dtype=T.float64))
case("eye/negative-error", lambda T: T.eye(-1))
case("eye.m/wide-int64", lambda T: T.eye(2, 3, dtype=T.int64))
case("eye.m/tall-bool", lambda T: T.eye(3, 2, dtype=T.bool))
case("eye.m/negative-m-error", lambda T: T.eye(2, -1))
case("eye.out/float64", lambda T: T.eye(2, out=T.zeros([0], dtype=T.float64)))
case("eye.m_out/int64", lambda T: T.eye(2, 4, out=T.zeros([2, 4], dtype=T.int64)))

case("full_like/value", lambda T, x: T.full_like(x, 7), R(2, 3, seed=1))
case("full_like/dtype", lambda T, x: T.full_like(x, 2, dtype=T.int64), R(2, seed=2))
case("full_like/int64-float-value", lambda T, x: T.full_like(x, 2.7), L([1, 2, 3]))
case("full_like/empty", lambda T, x: T.full_like(x.reshape([0, 2]), 1.5), D([]))
case("full_like/transposed", lambda T, x: T.full_like(x.t(), -1.0), R(2, 3, seed=3))
case("empty_like/shape-dtype", lambda T, x: T.zeros_like(T.empty_like(x)), R(2, 3, seed=1))
case("empty_like/dtype", lambda T, x: T.zeros_like(T.empty_like(x, dtype=T.int64)), R(3, seed=2))

# ---------------------------------------------------------------------------------------------
# nn, second batch (issue 26): normalization. native_* ops and their composites, weights and
# biases absent or present, the running statistics batch norm updates in place (returned after
# the call), the backward ops on statistics the forward computed, and the edge cases: empty
# batches, transposed and expanded (stride-0) inputs, groups not dividing channels.
# ---------------------------------------------------------------------------------------------
case(
    "native_layer_norm/weight-bias",
    lambda T, x, w, b: T.native_layer_norm(x, [4], w, b, 1e-5),
    R(2, 3, 4, seed=1),
    R(4, seed=2),
    R(4, seed=3),
    second=True,
)
case(
    "native_layer_norm/two-dims",
    lambda T, x: T.native_layer_norm(x, [2, 3], None, None, 1e-5)[0],
    R(3, 2, 3, seed=4),
    second=True,
)
case(
    "native_layer_norm/float32",
    lambda T, x, w: T.native_layer_norm(x, [3], w, None, 1e-5),
    R(4, 3, seed=5, dtype="float32"),
    R(3, seed=6, dtype="float32"),
)
case("native_layer_norm/shape-error", lambda T, x: T.native_layer_norm(x, [3], None, None, 1e-5), R(2, 4))
case("native_layer_norm/weight-shape-error", lambda T, x, w: T.native_layer_norm(x, [4], w, None, 1e-5), R(2, 4), R(3))
case("layer_norm/defaults", lambda T, x: T.layer_norm(x, [5]), R(3, 5, seed=7), second=True)
case(
    "layer_norm/weight-bias-eps",
    lambda T, x, w, b: T.layer_norm(x, [2, 2], w, b, 0.1),
    R(3, 2, 2, seed=8),
    R(2, 2, seed=9),
    R(2, 2, seed=10),
    second=True,
)
case("layer_norm/transposed", lambda T, x, w: T.layer_norm(x.t(), [3], w), R(3, 4, seed=11), R(3, seed=12), second=True)
case("layer_norm/expanded", lambda T, x: T.layer_norm(x.expand([3, 4]), [4]), R(1, 4, seed=13), second=True)
case("layer_norm/empty-batch", lambda T, x, w: T.layer_norm(x.reshape([0, 4]), [4], w), D([]), R(4, seed=14))
case("layer_norm/constant-rows", lambda T, x: T.layer_norm(x, [3]), D([[1.0, 1.0, 1.0], [2.0, -1.0, 0.5]]), second=True)
case(
    "native_layer_norm_backward/all",
    lambda T, g, x, w, b: T.native_layer_norm_backward(
        g, x, [4], *T.native_layer_norm(x.detach(), [4], w.detach(), b, 1e-5)[1:], w, b, [True, True, True]
    ),
    R(2, 3, 4, seed=15),
    R(2, 3, 4, seed=16),
    R(4, seed=17),
    R(4, seed=18, grad=False),
)
case(
    "native_layer_norm_backward/input-only",
    lambda T, g, x: T.native_layer_norm_backward(
        g, x, [3], *T.native_layer_norm(x.detach(), [3], None, None, 1e-5)[1:], None, None, [True, False, False]
    )[0],
    R(2, 3, seed=19),
    R(2, 3, seed=20),
)

case(
    "native_batch_norm/training",
    lambda T, x, w, b: T.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5),
    R(4, 3, seed=21),
    R(3, seed=22),
    R(3, seed=23),
    second=True,
)


def _bn_running(T, x, w, b, rm, rv, training):
    out = T.native_batch_norm(x, w, b, rm, rv, training, 0.2, 1e-5)
    return out[0], rm, rv


case(
    "native_batch_norm/training-running-stats",
    lambda T, x, w, b, rm, rv: _bn_running(T, x, w, b, rm, rv, True),
    R(2, 3, 2, 2, seed=24),
    R(3, seed=25),
    R(3, seed=26),
    R(3, seed=27, grad=False),
    P(3, seed=28, grad=False),
    second=True,
)
case(
    "native_batch_norm/evaluation",
    lambda T, x, w, b, rm, rv: _bn_running(T, x, w, b, rm, rv, False),
    R(3, 2, 4, seed=29),
    R(2, seed=30),
    R(2, seed=31),
    R(2, seed=32, grad=False),
    P(2, seed=33, grad=False),
    second=True,
)
case(
    "native_batch_norm/no-weight-float32",
    lambda T, x: T.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5),
    R(5, 2, 3, seed=34, dtype="float32"),
)
case(
    "batch_norm/training-transposed",
    lambda T, x, w, b: T.batch_norm(x.t(), w, b, None, None, True, 0.1, 1e-5, False),
    R(3, 4, seed=35),
    R(3, seed=36),
    R(3, seed=37),
    second=True,
)
case(
    "batch_norm/training-expanded",
    lambda T, x: T.batch_norm(x.expand([3, 2, 4]), None, None, None, None, True, 0.1, 1e-5, False),
    R(1, 2, 4, seed=38),
    second=True,
)
case(
    "batch_norm/evaluation",
    lambda T, x, rm, rv: T.batch_norm(x, None, None, rm, rv, False, 0.1, 1e-3, False),
    R(2, 3, 2, seed=39),
    R(3, seed=40, grad=False),
    P(3, seed=41, grad=False),
    second=True,
)
case(
    "native_batch_norm_backward/training",
    lambda T, g, x, w: T.native_batch_norm_backward(
        g,
        x,
        w,
        None,
        None,
        *T.native_batch_norm(x.detach(), None, None, None, None, True, 0.1, 1e-5)[1:],
        True,
        1e-5,
        [True, True, True],
    ),
    R(4, 3, seed=42),
    R(4, 3, seed=43),
    R(3, seed=44),
)
case(
    "native_batch_norm_backward/evaluation",
    lambda T, g, x, w, rm, rv: T.native_batch_norm_backward(
        g, x, w, rm, rv, None, None, False, 1e-5, [True, True, True]
    ),
    R(3, 2, 2, seed=45),
    R(3, 2, 2, seed=46),
    R(2, seed=47),
    R(2, seed=48, grad=False),
    P(2, seed=49, grad=False),
    second=True,
)

case(
    "native_group_norm/weight-bias",
    lambda T, x, w, b: T.native_group_norm(x, w, b, 2, 4, 3, 2, 1e-5),
    R(2, 4, 3, seed=50),
    R(4, seed=51),
    R(4, seed=52),
    second=True,
)
case(
    "native_group_norm/no-weight",
    lambda T, x: T.native_group_norm(x, None, None, 3, 6, 4, 3, 1e-5),
    R(3, 6, 2, 2, seed=53),
    second=True,
)
case("native_group_norm/groups-error", lambda T, x: T.native_group_norm(x, None, None, 2, 3, 2, 2, 1e-5), R(2, 3, 2))
case("group_norm/defaults", lambda T, x: T.group_norm(x, 2), R(2, 4, 2, 2, seed=54), second=True)
case(
    "group_norm/weight-bias-eps",
    lambda T, x, w, b: T.group_norm(x, 3, w, b, 0.1),
    R(2, 6, 3, seed=55),
    R(6, seed=56),
    R(6, seed=57),
    second=True,
)
case("group_norm/per-channel", lambda T, x, w: T.group_norm(x, 4, w), R(2, 4, 3, seed=58), R(4, seed=59), second=True)
case("group_norm/2d-input", lambda T, x: T.group_norm(x, 1), R(3, 4, seed=60), second=True)
case("group_norm/transposed", lambda T, x: T.group_norm(x.transpose(0, 1), 2), R(4, 2, 3, seed=61), second=True)
case("group_norm/expanded", lambda T, x: T.group_norm(x.expand([3, 4, 2]), 2), R(1, 4, 2, seed=62), second=True)
case("group_norm/empty-batch", lambda T, x: T.group_norm(x.reshape([0, 4, 2]), 2), D([]))
case("group_norm/float32", lambda T, x: T.group_norm(x, 2), R(2, 4, 3, seed=63, dtype="float32"))
case("group_norm/groups-not-dividing-error", lambda T, x: T.group_norm(x, 3), R(2, 4, 3))
case("group_norm/weight-size-error", lambda T, x, w: T.group_norm(x, 2, w), R(2, 4, 3), R(3))
case(
    "native_group_norm_backward/all",
    lambda T, g, x, w: T.native_group_norm_backward(
        g, x, *T.native_group_norm(x.detach(), None, None, 2, 4, 3, 2, 1e-5)[1:], w, 2, 4, 3, 2, [True, True, True]
    ),
    R(2, 4, 3, seed=64),
    R(2, 4, 3, seed=65),
    R(4, seed=66),
)
case("rms_norm/weight", lambda T, x, w: T.rms_norm(x, [4], w), R(2, 3, 4, seed=67), R(4, seed=68), second=True)
case("rms_norm/eps-two-dims", lambda T, x: T.rms_norm(x, [2, 2], None, 0.1), R(3, 2, 2, seed=69), second=True)
case("rms_norm/float32-default-eps", lambda T, x: T.rms_norm(x, [3]), R(2, 3, seed=70, dtype="float32"))

# nn, second batch (issue 26): convolution. convolution itself (regular and transposed, groups,
# 1 to 3 spatial dims), its backward op, the conv*d / conv_transpose*d composites with
# 'same' / 'valid' padding, and the edge cases: empty batch, transposed and expanded inputs,
# groups not dividing channels, wrong weight dims, a kernel larger than the padded input.
CONVS = [
    ("2d-groups-stride-padding", (2, 4, 5, 5), (4, 2, 3, 3), 4, ([2], [1], [1], False, [0], 2)),
    ("1d-dilation", (2, 3, 7), (4, 3, 3), 0, ([1], [2], [2], False, [0], 1)),
    ("3d", (1, 2, 4, 3, 3), (2, 2, 2, 2, 2), 2, ([1, 2, 1], [1, 0, 1], [1, 1, 1], False, [0, 0, 0], 1)),
    ("depthwise", (1, 3, 4, 4), (3, 1, 3, 3), 3, ([1], [1], [1], False, [0], 3)),
    ("pointwise", (2, 3, 3, 3), (4, 3, 1, 1), 4, ([1], [0], [1], False, [0], 1)),
    ("transposed-2d", (2, 3, 3, 3), (3, 2, 2, 2), 2, ([2], [1], [1], True, [1], 1)),
    ("transposed-1d-groups", (1, 4, 5), (4, 1, 3), 0, ([1], [1], [2], True, [0], 2)),
    ("transposed-3d", (1, 2, 2, 2, 2), (2, 1, 2, 2, 2), 1, ([2, 1, 1], [0, 0, 0], [1, 1, 1], True, [1, 0, 0], 1)),
]
for label, xs, ws, nb, (st, pd, dl, tr, op, gr) in CONVS:
    dims = len(xs) - 2

    def _conv(T, x, w, *b, st=st, pd=pd, dl=dl, tr=tr, op=op, gr=gr, dims=dims):
        full = lambda v: v if len(v) == dims else v * dims  # noqa: E731  (torch wants every dim)
        return T.convolution(x, w, b[0] if b else None, full(st), full(pd), full(dl), tr, full(op), gr)

    extra = [R(nb, seed=3)] if nb else []
    case(f"convolution/{label}", _conv, R(*xs, seed=1), R(*ws, seed=2), *extra, second=True)
case(
    "convolution/float32",
    lambda T, x, w: T.convolution(x, w, None, [1], [1], [1], False, [0], 1),
    R(1, 2, 4, seed=4, dtype="float32"),
    R(3, 2, 3, seed=5, dtype="float32"),
)
case(
    "convolution/empty-batch",
    lambda T, x, w: T.convolution(x.reshape([0, 2, 4]), w, None, [1], [0], [1], False, [0], 1),
    D([]),
    R(3, 2, 2, seed=6),
)
case(
    "convolution/groups-not-dividing-error",
    lambda T, x, w: T.convolution(x, w, None, [1], [0], [1], False, [0], 2),
    R(1, 3, 4),
    R(3, 1, 2),
)
case(
    "convolution/channels-error",
    lambda T, x, w: T.convolution(x, w, None, [1], [0], [1], False, [0], 1),
    R(1, 3, 4),
    R(2, 2, 2),
)
case(
    "convolution/weight-dims-error",
    lambda T, x, w: T.convolution(x, w, None, [1], [0], [1], False, [0], 1),
    R(1, 3, 4),
    R(2, 3),
)
case(
    "convolution/kernel-too-large-error",
    lambda T, x, w: T.convolution(x, w, None, [1], [0], [1], False, [0], 1),
    R(1, 1, 2),
    R(1, 1, 3),
)
case(
    "convolution/transposed-channels-error",
    lambda T, x, w: T.convolution(x, w, None, [1], [0], [1], True, [0], 1),
    R(1, 3, 4),
    R(2, 2, 2),
)
case(
    "convolution/output-padding-error",
    lambda T, x, w: T.convolution(x, w, None, [1], [0], [1], True, [1], 1),
    R(1, 2, 4),
    R(2, 2, 2),
)
case(
    "convolution/negative-padding-error",
    lambda T, x, w: T.convolution(x, w, None, [1], [-1], [1], False, [0], 1),
    R(1, 2, 4),
    R(2, 2, 2),
)
case(
    "convolution_backward/2d",
    lambda T, g, x, w: T.convolution_backward(
        g, x, w, [4], [2, 2], [1, 1], [1, 1], False, [0, 0], 2, [True, True, True]
    ),
    R(2, 4, 3, 3, seed=7),
    R(2, 4, 5, 5, seed=8),
    R(4, 2, 3, 3, seed=9),
    second=True,
)
case(
    "convolution_backward/transposed",
    lambda T, g, x, w: T.convolution_backward(g, x, w, [2], [2], [1], [1], True, [1], 1, [True, True, True]),
    R(1, 2, 5, seed=10),
    R(1, 3, 3, seed=11),
    R(3, 2, 2, seed=12),
    second=True,
)
case(
    "conv1d/bias-stride",
    lambda T, x, w, b: T.conv1d(x, w, b, 2),
    R(2, 2, 6, seed=13),
    R(3, 2, 3, seed=14),
    R(3, seed=15),
    second=True,
)
case("conv1d/unbatched", lambda T, x, w: T.conv1d(x, w, None, 1, 1), R(2, 5, seed=16), R(2, 2, 2, seed=17), second=True)
case(
    "conv2d/dilation-padding",
    lambda T, x, w, b: T.conv2d(x, w, b, 1, 1, 2),
    R(1, 2, 4, 4, seed=18),
    R(2, 2, 2, 2, seed=19),
    R(2, seed=20),
    second=True,
)
case(
    "conv2d/unbatched-groups",
    lambda T, x, w: T.conv2d(x, w, None, 1, 0, 1, 2),
    R(2, 3, 3, seed=21),
    R(4, 1, 2, 2, seed=22),
    second=True,
)
case(
    "conv2d/transposed-input",
    lambda T, x, w: T.conv2d(x.transpose(2, 3), w),
    R(1, 2, 4, 3, seed=23),
    R(3, 2, 2, 2, seed=24),
    second=True,
)
case(
    "conv2d/expanded-input",
    lambda T, x, w: T.conv2d(x.expand([2, 2, 4, 4]), w, None, 1, 1),
    R(1, 2, 4, 4, seed=25),
    R(2, 2, 3, 3, seed=26),
    second=True,
)
case("conv2d/input-dims-error", lambda T, x, w: T.conv2d(x, w), R(4, 4), R(1, 1, 2, 2))
case(
    "conv2d.padding/same",
    lambda T, x, w: T.conv2d(x, w, None, 1, "same"),
    R(1, 2, 4, 4, seed=27),
    R(2, 2, 3, 3, seed=28),
    second=True,
)
case(
    "conv2d.padding/same-even-kernel",
    lambda T, x, w: T.conv2d(x, w, None, 1, "same"),
    R(1, 2, 4, 4, seed=29),
    R(2, 2, 2, 3, seed=30),
    second=True,
)
case(
    "conv2d.padding/same-dilation",
    lambda T, x, w: T.conv2d(x, w, None, 1, "same", 2),
    R(1, 1, 5, 5, seed=31),
    R(1, 1, 2, 2, seed=32),
    second=True,
)
case(
    "conv2d.padding/valid",
    lambda T, x, w: T.conv2d(x, w, None, 1, "valid"),
    R(1, 1, 4, 4, seed=33),
    R(2, 1, 3, 3, seed=34),
    second=True,
)
case("conv2d.padding/same-strided-error", lambda T, x, w: T.conv2d(x, w, None, 2, "same"), R(1, 1, 4, 4), R(1, 1, 3, 3))
case(
    "conv2d.padding/bad-padding-string-error",
    lambda T, x, w: T.conv2d(x, w, None, 1, "full"),
    R(1, 1, 4, 4),
    R(1, 1, 3, 3),
)
case(
    "conv1d.padding/same",
    lambda T, x, w: T.conv1d(x, w, None, 1, "same"),
    R(1, 2, 5, seed=35),
    R(2, 2, 2, seed=36),
    second=True,
)
case(
    "conv3d/bias",
    lambda T, x, w, b: T.conv3d(x, w, b),
    R(1, 1, 3, 3, 3, seed=37),
    R(2, 1, 2, 2, 2, seed=38),
    R(2, seed=39),
    second=True,
)
case(
    "conv3d.padding/same",
    lambda T, x, w: T.conv3d(x, w, None, 1, "same"),
    R(1, 1, 3, 3, 3, seed=40),
    R(1, 1, 2, 3, 2, seed=41),
    second=True,
)
case(
    "conv_transpose1d/stride-output-padding",
    lambda T, x, w, b: T.conv_transpose1d(x, w, b, 2, 1, 1),
    R(1, 2, 4, seed=42),
    R(2, 3, 3, seed=43),
    R(3, seed=44),
    second=True,
)
case(
    "conv_transpose1d/unbatched-groups",
    lambda T, x, w: T.conv_transpose1d(x, w, None, 1, 0, 0, 2),
    R(2, 3, seed=45),
    R(2, 1, 2, seed=46),
    second=True,
)
case(
    "conv_transpose2d.input/dilation",
    lambda T, x, w, b: T.conv_transpose2d(x, w, b, 2, 1, 1, 1, 2),
    R(1, 2, 3, 3, seed=47),
    R(2, 2, 2, 2, seed=48),
    R(2, seed=49),
    second=True,
)
case(
    "conv_transpose3d.input/defaults",
    lambda T, x, w: T.conv_transpose3d(x, w),
    R(1, 1, 2, 2, 2, seed=50),
    R(1, 2, 2, 2, 2, seed=51),
    second=True,
)

# nn, second batch (issue 26): pooling. max_pool2d_with_indices (its indices too) and avg_pool2d
# with their backward ops, max_pool2d / max_pool1d, and the edge cases: ceil_mode windows that
# start in the padding, count_include_pad, divisor_override, empty batches, transposed and
# expanded inputs, NaN, bad arguments.
MAXPOOLS = [
    ("kernel-2", (1, 2, 4, 4), ([2], [], [0], [1], False)),
    ("stride-padding", (2, 1, 5, 5), ([3], [2], [1], [1], False)),
    ("dilation-unbatched", (2, 4, 5), ([2, 3], [1, 2], [0, 1], [1, 2], False)),
    ("ceil-mode", (1, 1, 5, 5), ([2], [2], [1], [1], True)),
    ("ceil-mode-no-padding", (1, 1, 5, 6), ([3], [2], [0], [1], True)),
]
for label, shape, (k, s, p, d, cm) in MAXPOOLS:
    case(
        f"max_pool2d_with_indices/{label}",
        lambda T, x, k=k, s=s, p=p, d=d, cm=cm: T.max_pool2d_with_indices(x, k, s, p, d, cm),
        R(*shape, seed=1),
        second=True,
    )
    case(
        f"max_pool2d/{label}",
        lambda T, x, k=k, s=s, p=p, d=d, cm=cm: T.max_pool2d(x, k, s, p, d, cm),
        R(*shape, seed=2),
        second=True,
    )
case("max_pool2d/transposed", lambda T, x: T.max_pool2d(x.transpose(2, 3), [2]), R(1, 2, 3, 4, seed=3), second=True)
case(
    "max_pool2d/expanded",
    lambda T, x: T.max_pool2d(x.expand([2, 2, 4, 4]), [2], [1]),
    R(1, 2, 4, 4, seed=4),
    second=True,
)
case("max_pool2d/empty-batch", lambda T, x: T.max_pool2d(x.reshape([0, 2, 4, 4]), [2]), D([]))
case("max_pool2d/nan", lambda T, x: T.max_pool2d(x, [2]), D([[[1.0, NAN], [2.0, 3.0]]]))
case("max_pool2d/float32", lambda T, x: T.max_pool2d(x, [2], [1]), R(1, 3, 3, seed=5, dtype="float32"))
case("max_pool2d/padding-too-large-error", lambda T, x: T.max_pool2d(x, [2], [1], [2]), R(1, 4, 4))
case("max_pool2d/output-too-small-error", lambda T, x: T.max_pool2d(x, [3]), R(1, 2, 2))
case("max_pool2d/input-dims-error", lambda T, x: T.max_pool2d(x, [2]), R(4, 4))
case(
    "max_pool2d_with_indices_backward/overlapping",
    lambda T, g, x: T.max_pool2d_with_indices_backward(
        g, x, [2], [1], [0], [1], False, T.max_pool2d_with_indices(x.detach(), [2], [1])[1]
    ),
    R(1, 2, 3, 3, seed=6),
    R(1, 2, 4, 4, seed=7),
    second=True,
)
case("max_pool1d/stride-padding", lambda T, x: T.max_pool1d(x, [3], [2], [1]), R(2, 3, 7, seed=8), second=True)
case("max_pool1d/unbatched-ceil", lambda T, x: T.max_pool1d(x, [2], [2], [1], [1], True), R(2, 6, seed=9), second=True)
AVGPOOLS = [
    ("kernel-2", (1, 2, 4, 4), ([2], [], [0], False, True, None)),
    ("padding-include", (2, 1, 5, 5), ([3], [2], [1], False, True, None)),
    ("padding-exclude", (1, 1, 5, 5), ([3], [2], [1], False, False, None)),
    ("ceil-mode-include", (1, 1, 5, 5), ([2], [2], [1], True, True, None)),
    ("ceil-mode-exclude", (1, 1, 5, 5), ([2], [2], [1], True, False, None)),
    ("ceil-mode-no-padding", (1, 1, 5, 6), ([3], [2], [0], True, True, None)),
    ("divisor-override", (2, 4, 4), ([2, 3], [1], [1], False, True, 3)),
]
for label, shape, (k, s, p, cm, cip, dv) in AVGPOOLS:
    case(
        f"avg_pool2d/{label}",
        lambda T, x, k=k, s=s, p=p, cm=cm, cip=cip, dv=dv: T.avg_pool2d(x, k, s, p, cm, cip, dv),
        R(*shape, seed=10),
        second=True,
    )
case("avg_pool2d/transposed", lambda T, x: T.avg_pool2d(x.transpose(2, 3), [2]), R(1, 2, 3, 4, seed=11), second=True)
case(
    "avg_pool2d/expanded",
    lambda T, x: T.avg_pool2d(x.expand([2, 2, 4, 4]), [2], [1]),
    R(1, 2, 4, 4, seed=12),
    second=True,
)
case("avg_pool2d/empty-batch", lambda T, x: T.avg_pool2d(x.reshape([0, 1, 4, 4]), [2]), D([]))
case("avg_pool2d/divisor-zero-error", lambda T, x: T.avg_pool2d(x, [2], [2], [0], False, True, 0), R(1, 4, 4))
case("avg_pool2d/padding-too-large-error", lambda T, x: T.avg_pool2d(x, [2], [1], [2]), R(1, 4, 4))
case(
    "avg_pool2d_backward/ceil-mode",
    lambda T, g, x: T.avg_pool2d_backward(g, x, [2], [2], [1], True, False, None),
    R(1, 1, 3, 3, seed=13),
    R(1, 1, 5, 5, seed=14, grad=False),
    second=True,
)

# nn, third batch (issue 26): adaptive pooling and avg_pool1d. Overlapping windows of unequal
# sizes, output sizes larger than the input, output 1 x 1 (adaptive_avg_pool2d's mean), empty
# batches, transposed and expanded inputs, NaN (two in one window), bad arguments.
ADAPTIVE = [
    ("overlapping", (1, 2, 5, 7), [3, 4]),
    ("unbatched", (2, 4, 5), [2, 3]),
    ("larger-than-input", (1, 1, 2, 3), [3, 5]),
    ("identity", (1, 2, 3, 3), [3, 3]),
]
for label, shape, size in ADAPTIVE:
    case(
        f"_adaptive_avg_pool2d/{label}",
        lambda T, x, size=size: T._adaptive_avg_pool2d(x, size),
        R(*shape, seed=20),
        second=True,
    )
    case(
        f"adaptive_max_pool2d/{label}",
        lambda T, x, size=size: T.adaptive_max_pool2d(x, size),
        R(*shape, seed=21),
        second=True,
    )
case(
    "adaptive_avg_pool2d/one-by-one", lambda T, x: T.adaptive_avg_pool2d(x, [1, 1]), R(2, 3, 4, 5, seed=22), second=True
)
case("adaptive_avg_pool2d/general", lambda T, x: T.adaptive_avg_pool2d(x, [3, 2]), R(2, 3, 4, 6, seed=23), second=True)
case(
    "adaptive_avg_pool2d/transposed",
    lambda T, x: T.adaptive_avg_pool2d(x.transpose(2, 3), [2, 3]),
    R(1, 2, 5, 4, seed=24),
    second=True,
)
case(
    "adaptive_avg_pool2d/expanded",
    lambda T, x: T.adaptive_avg_pool2d(x.expand([2, 2, 4, 4]), [3, 3]),
    R(1, 2, 4, 4, seed=25),
    second=True,
)
case("adaptive_avg_pool2d/empty-batch", lambda T, x: T.adaptive_avg_pool2d(x.reshape([0, 2, 4, 4]), [2, 2]), D([]))
case("adaptive_avg_pool2d/empty-output", lambda T, x: T.adaptive_avg_pool2d(x, [0, 2]), R(1, 2, 4, 4, seed=26))
case("adaptive_avg_pool2d/float32", lambda T, x: T.adaptive_avg_pool2d(x, [2, 2]), R(1, 3, 5, seed=27, dtype="float32"))
case("adaptive_avg_pool2d/negative-size-error", lambda T, x: T.adaptive_avg_pool2d(x, [-1, 2]), R(1, 4, 4))
case("adaptive_avg_pool2d/input-dims-error", lambda T, x: T.adaptive_avg_pool2d(x, [2, 2]), R(4, 4))
case("adaptive_avg_pool2d/empty-plane-error", lambda T, x: T.adaptive_avg_pool2d(x.reshape([1, 0, 4]), [2, 2]), D([]))
case(
    "_adaptive_avg_pool2d_backward/overlapping",
    lambda T, g, x: T._adaptive_avg_pool2d_backward(g, x),
    R(1, 2, 3, 4, seed=28),
    R(1, 2, 5, 7, seed=29, grad=False),
    second=True,
)
case(
    "adaptive_max_pool2d/transposed",
    lambda T, x: T.adaptive_max_pool2d(x.transpose(2, 3), [2, 3]),
    R(1, 2, 5, 4, seed=30),
    second=True,
)
case(
    "adaptive_max_pool2d/expanded",
    lambda T, x: T.adaptive_max_pool2d(x.expand([2, 2, 4, 4]), [3, 3]),
    R(1, 2, 4, 4, seed=31),
    second=True,
)
case("adaptive_max_pool2d/empty-batch", lambda T, x: T.adaptive_max_pool2d(x.reshape([0, 2, 4, 4]), [2, 2]), D([]))
case(
    "adaptive_max_pool2d/nan",
    lambda T, x: T.adaptive_max_pool2d(x, [1, 2]),
    D([[[1.0, NAN, 2.0, 5.0], [NAN, 3.0, 4.0, 0.5]]]),
)
case("adaptive_max_pool2d/empty-output", lambda T, x: T.adaptive_max_pool2d(x, [0, 2]), R(1, 2, 4, 4, seed=41))
case("adaptive_max_pool2d/ties", lambda T, x: T.adaptive_max_pool2d(x, [1, 1]), D([[[1.0, 2.0], [2.0, 0.5]]]))
case("adaptive_max_pool2d/float32", lambda T, x: T.adaptive_max_pool2d(x, [2, 2]), R(1, 3, 5, seed=32, dtype="float32"))
case("adaptive_max_pool2d/input-dims-error", lambda T, x: T.adaptive_max_pool2d(x, [2, 2]), R(4, 4))
case(
    "adaptive_max_pool2d/empty-channels-error",
    lambda T, x: T.adaptive_max_pool2d(x.reshape([1, 0, 2, 2]), [2, 2]),
    D([]),
)
case(
    "adaptive_max_pool2d_backward/overlapping",
    lambda T, g, x: T.adaptive_max_pool2d_backward(g, x, T.adaptive_max_pool2d(x.detach(), [3, 4])[1]),
    R(1, 2, 3, 4, seed=33),
    R(1, 2, 5, 7, seed=34),
    second=True,
)
case("adaptive_avg_pool1d/batched", lambda T, x: T.adaptive_avg_pool1d(x, [3]), R(2, 3, 7, seed=35), second=True)
case("adaptive_avg_pool1d/unbatched-larger", lambda T, x: T.adaptive_avg_pool1d(x, [5]), R(2, 3, seed=36), second=True)
case("adaptive_avg_pool1d/input-dims-error", lambda T, x: T.adaptive_avg_pool1d(x, [2]), R(1, 2, 3, 4))
case("adaptive_avg_pool1d/output-size-error", lambda T, x: T.adaptive_avg_pool1d(x, [2, 2]), R(2, 4))
case("adaptive_max_pool1d/batched", lambda T, x: T.adaptive_max_pool1d(x, [3]), R(2, 3, 7, seed=37), second=True)
case("adaptive_max_pool1d/unbatched", lambda T, x: T.adaptive_max_pool1d(x, [4]), R(2, 5, seed=38), second=True)
case("adaptive_max_pool1d/empty-batch", lambda T, x: T.adaptive_max_pool1d(x.reshape([0, 2, 4]), [2]), D([]))
case("adaptive_max_pool1d/empty-length-error", lambda T, x: T.adaptive_max_pool1d(x.reshape([2, 0]), [2]), D([]))
AVGPOOLS1D = [
    ("kernel-3", (2, 3, 7), ([3], [], [0], False, True)),
    ("stride-padding", (2, 3, 7), ([3], [2], [1], False, True)),
    ("padding-exclude", (1, 2, 7), ([3], [2], [1], False, False)),
    ("ceil-mode-unbatched", (2, 6), ([2], [2], [1], True, True)),
    ("ceil-mode-exclude", (2, 6), ([2], [2], [1], True, False)),
]
for label, shape, (k, s, p, cm, cip) in AVGPOOLS1D:
    case(
        f"avg_pool1d/{label}",
        lambda T, x, k=k, s=s, p=p, cm=cm, cip=cip: T.avg_pool1d(x, k, s, p, cm, cip),
        R(*shape, seed=39),
        second=True,
    )
case("avg_pool1d/transposed", lambda T, x: T.avg_pool1d(x.transpose(1, 2), [2]), R(1, 4, 3, seed=40), second=True)
case("avg_pool1d/empty-batch", lambda T, x: T.avg_pool1d(x.reshape([0, 2, 4]), [2]), D([]))
case("avg_pool1d/padding-too-large-error", lambda T, x: T.avg_pool1d(x, [2], [1], [2]), R(1, 4))
case("avg_pool1d/input-dims-error", lambda T, x: T.avg_pool1d(x, [2]), R(4))
case("avg_pool1d/kernel-size-error", lambda T, x: T.avg_pool1d(x, [2, 2]), R(2, 4))

# nn, third batch (issue 26): norms, distances, instance_norm, one_hot, margin losses. Zero
# norms and distances, broadcasting, non-contiguous inputs, running statistics updated in
# place, empty inputs, bad arguments. torch's bindings default `reduction` to None: it is spelled
# out.
NORMS = [
    ("p=2", 2.0, [1], False),
    ("p=1-keepdim", 1.0, [0], True),
    ("p=3-two-dims", 3.0, [0, 2], False),
    ("p=1.5", 1.5, [-1], False),
    ("p=0.5", 0.5, [1], False),
    ("p=inf", INF, [1], False),
    ("p=-inf", -INF, [0], True),
    ("p=0", 0.0, [1], False),
    ("p=none-all-dims", None, [], False),
]
for label, p, dim, keepdim in NORMS:
    shape = (2, 3, 2) if len(dim) == 2 else (3, 4)
    case(
        f"norm.ScalarOpt_dim/{label}",
        lambda T, x, p=p, dim=dim, keepdim=keepdim: T.norm(x, p, dim, keepdim),
        R(*shape, seed=50),
        second=True,
    )
case("norm.ScalarOpt_dim/zero-row", lambda T, x: T.norm(x, 2, [1]), D([[0.0, 0.0, 0.0], [1.0, -2.0, 2.0]]), second=True)
case("norm.ScalarOpt_dim/zero-row-p=3", lambda T, x: T.norm(x, 3, [1]), D([[0.0, 0.0], [1.0, -2.0]]), second=True)
case("norm.ScalarOpt_dim/inf-ties", lambda T, x: T.norm(x, INF, [1]), D([[1.0, -2.0, 2.0], [0.5, 0.25, -0.5]]))
case("norm.ScalarOpt_dim/nan", lambda T, x: T.norm(x, 2, [1]), D([[1.0, NAN], [2.0, 3.0]]))
case("norm.ScalarOpt_dim/transposed", lambda T, x: T.norm(x.t(), 2, [0]), R(3, 4, seed=51), second=True)
case("norm.ScalarOpt_dim/empty-dim", lambda T, x: T.norm(x.reshape([2, 0]), 2, [1]), D([]))
case("norm.ScalarOpt_dim/empty-dim-inf-error", lambda T, x: T.norm(x.reshape([2, 0]), INF, [1]), D([]))
case("norm.ScalarOpt_dim/float32", lambda T, x: T.norm(x, 2, [1]), R(3, 4, seed=52, dtype="float32"))
case("norm.ScalarOpt_dim/integer-error", lambda T, x: T.norm(x, 2, [0]), L([1, 2]))
case("norm.ScalarOpt_dim/dim-error", lambda T, x: T.norm(x, 2, [2]), R(3, 4))
case(
    "cosine_similarity/rows", lambda T, a, b: T.cosine_similarity(a, b), R(3, 4, seed=53), R(3, 4, seed=54), second=True
)
case(
    "cosine_similarity/broadcast-dim-0",
    lambda T, a, b: T.cosine_similarity(a, b, 0),
    R(4, 1, seed=55),
    R(4, 3, seed=56),
    second=True,
)
case(
    "cosine_similarity/zero-vector",
    lambda T, a, b: T.cosine_similarity(a, b),
    D([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]),
    R(2, 3, seed=57),
    second=True,
)
case("cosine_similarity/eps", lambda T, a, b: T.cosine_similarity(a, b, 1, 0.5), R(2, 3, seed=58), R(2, 3, seed=59))
case("cosine_similarity/1-d", lambda T, a, b: T.cosine_similarity(a, b, 0), R(4, seed=60), R(4, seed=61), second=True)
case("cosine_similarity/dim-error", lambda T, a, b: T.cosine_similarity(a, b, 2), R(3, 4), R(3, 4))
case("cosine_similarity/shape-error", lambda T, a, b: T.cosine_similarity(a, b), R(3, 4), R(2, 4))
case(
    "pairwise_distance/p=2", lambda T, a, b: T.pairwise_distance(a, b), R(3, 4, seed=62), R(3, 4, seed=63), second=True
)
case(
    "pairwise_distance/broadcast-p=1-keepdim",
    lambda T, a, b: T.pairwise_distance(a, b, 1.0, 1e-6, True),
    R(4, seed=64),
    R(3, 4, seed=65),
    second=True,
)
case(
    "pairwise_distance/p=3",
    lambda T, a, b: T.pairwise_distance(a, b, 3.0),
    R(2, 5, seed=66),
    R(2, 5, seed=67),
    second=True,
)
case("pairwise_distance/p=inf", lambda T, a, b: T.pairwise_distance(a, b, INF), R(2, 5, seed=68), R(2, 5, seed=69))
case(
    "pairwise_distance/equal", lambda T, a, b: T.pairwise_distance(a, b), D([[1.0, 2.0]]), D([[1.0, 2.0]]), second=True
)
case(
    "pairwise_distance/empty-batch",
    lambda T, a, b: T.pairwise_distance(a.reshape([0, 3]), b.reshape([0, 3])),
    D([]),
    D([]),
)
case(
    "instance_norm/weight-bias",
    lambda T, x, w, b: T.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False),
    R(2, 3, 4, seed=70),
    R(3, seed=71),
    R(3, seed=72),
    second=True,
)
case(
    "instance_norm/running-stats",
    lambda T, x, rm, rv: (T.instance_norm(x, None, None, rm, rv, True, 0.1, 1e-5, False), rm, rv),
    R(2, 2, 2, 3, seed=73),
    D([0.5, -0.5], grad=False),
    D([1.0, 2.0], grad=False),
    second=True,
)
case(
    "instance_norm/eval",
    lambda T, x, w, rm, rv: T.instance_norm(x, w, None, rm, rv, False, 0.1, 1e-5, False),
    R(2, 3, 4, seed=74),
    R(3, seed=75),
    R(3, seed=76, grad=False),
    P(3, seed=77, grad=False),
    second=True,
)
case(
    "instance_norm/transposed",
    lambda T, x: T.instance_norm(x.transpose(1, 2), None, None, None, None, True, 0.1, 1e-5, False),
    R(2, 4, 3, seed=78),
    second=True,
)
case(
    "instance_norm/eval-without-stats-error",
    lambda T, x: T.instance_norm(x, None, None, None, None, False, 0.1, 1e-5, False),
    R(2, 3, 4),
)
case("one_hot/inferred", lambda T, t: T.one_hot(t), L([[0, 2], [3, 1]]))
case("one_hot/num-classes", lambda T, t: T.one_hot(t, 5), L([0, 2, 4]))
case("one_hot/empty", lambda T, t: T.one_hot(t.reshape([0]), 3), L([]))
case("one_hot/empty-inferred-error", lambda T, t: T.one_hot(t.reshape([0])), L([]))
case("one_hot/negative-error", lambda T, t: T.one_hot(t), L([0, -1]))
case("one_hot/too-few-classes-error", lambda T, t: T.one_hot(t, 2), L([0, 2]))
case("one_hot/float-error", lambda T, t: T.one_hot(t), D([0.0, 1.0], grad=False))
for r in (0, 1, 2):
    case(
        f"cosine_embedding_loss/reduction={r}",
        lambda T, a, b, t, r=r: T.cosine_embedding_loss(a, b, t, 0.1, r),
        R(3, 4, seed=79),
        R(3, 4, seed=80),
        L([1, -1, -1]),
        second=True,
    )
case(
    "cosine_embedding_loss/0-dim-target",
    lambda T, a, b, t: T.cosine_embedding_loss(a, b, t, 0.0, 1),
    R(4, seed=81),
    R(4, seed=82),
    L(-1),
    second=True,
)
case(
    "cosine_embedding_loss/float-target",
    lambda T, a, b, t: T.cosine_embedding_loss(a, b, t, -0.5, 1),
    R(3, 4, seed=83),
    R(3, 4, seed=84),
    D([1.0, -1.0, 1.0], grad=False),
    second=True,
)
case(
    "cosine_embedding_loss/target-dims-error",
    lambda T, a, b, t: T.cosine_embedding_loss(a, b, t),
    R(3, 4),
    R(3, 4),
    L([[1]]),
)
case("cosine_embedding_loss/input-dims-error", lambda T, a, b, t: T.cosine_embedding_loss(a, b, t), R(4), R(4), L([1]))
TRIPLETS = [("p=2-mean", 2.0, False, 1), ("p=1-swap-none", 1.0, True, 0), ("p=3-swap-sum", 3.0, True, 2)]
for label, p, swap, r in TRIPLETS:
    case(
        f"triplet_margin_loss/{label}",
        lambda T, a, pos, neg, p=p, swap=swap, r=r: T.triplet_margin_loss(a, pos, neg, 1.0, p, 1e-6, swap, r),
        R(3, 4, seed=85),
        R(3, 4, seed=86),
        R(3, 4, seed=87),
        second=True,
    )
case(
    "triplet_margin_loss/dims-error",
    lambda T, a, pos, neg: T.triplet_margin_loss(a, pos, neg),
    R(3, 4),
    R(3, 4),
    R(4),
)
ML_TARGET = [[3, 0, -1, 1], [1, 2, 3, -1], [0, 2, -1, -1]]
for r in (0, 1, 2):
    case(
        f"multilabel_margin_loss/reduction={r}",
        lambda T, x, t, r=r: T.multilabel_margin_loss(x, t, r),
        R(3, 4, seed=88),
        L(ML_TARGET),
    )
    case(
        f"multilabel_margin_loss_forward/reduction={r}",
        lambda T, x, t, r=r: T.multilabel_margin_loss_forward(x, t, r),
        R(3, 4, seed=89),
        L(ML_TARGET),
    )
case(
    "multilabel_margin_loss/unbatched",
    lambda T, x, t: T.multilabel_margin_loss(x, t, 1),
    R(4, seed=90),
    L([2, 1, -1, 0]),
)
case(
    "multilabel_margin_loss/unbatched-none",
    lambda T, x, t: T.multilabel_margin_loss(x, t, 0),
    R(4, seed=91),
    L([2, -1, 1, 0]),
)
case(
    "multilabel_margin_loss/no-targets",
    lambda T, x, t: T.multilabel_margin_loss(x, t, 1),
    R(2, 3, seed=92),
    L([[-1, 0, 1], [-1, -1, -1]]),
)
case(
    "multilabel_margin_loss/all-targets",
    lambda T, x, t: T.multilabel_margin_loss(x, t, 1),
    R(1, 3, seed=93),
    L([[2, 0, 1]]),
)
case(
    "multilabel_margin_loss/second-derivative-error",
    lambda T, x, t: T.multilabel_margin_loss(x, t, 1),
    R(3, 4, seed=94),
    L(ML_TARGET),
    second=True,
)
case(
    "multilabel_margin_loss/target-size-error",
    lambda T, x, t: T.multilabel_margin_loss(x, t, 1),
    R(3, 4),
    L([[0, 1, -1, 2]]),
)
case(
    "multilabel_margin_loss/target-index-error",
    lambda T, x, t: T.multilabel_margin_loss(x, t, 1),
    R(1, 4),
    L([[4, -1, 0, 0]]),
)
case(
    "multilabel_margin_loss_backward/mean",
    lambda T, g, x, t: T.multilabel_margin_loss_backward(
        g, x, t, 1, T.multilabel_margin_loss_forward(x.detach(), t, 1)[1]
    ),
    R(seed=95),
    R(3, 4, seed=96),
    L(ML_TARGET),
)

# nn, third batch (issue 26): resampling. pixel_shuffle / pixel_unshuffle (3-D to 5-D inputs),
# upsample_nearest1d/2d and upsample_bilinear2d up and down, scales given, align_corners, exact
# doubling, transposed and expanded inputs, empty batches, float32, bad arguments.
case("pixel_shuffle/factor-2", lambda T, x: T.pixel_shuffle(x, 2), R(1, 8, 2, 3, seed=100), second=True)
case("pixel_shuffle/3-d-factor-3", lambda T, x: T.pixel_shuffle(x, 3), R(9, 2, 2, seed=101), second=True)
case("pixel_shuffle/5-d", lambda T, x: T.pixel_shuffle(x, 2), R(2, 1, 4, 2, 2, seed=102), second=True)
case("pixel_shuffle/transposed", lambda T, x: T.pixel_shuffle(x.transpose(2, 3), 2), R(1, 4, 3, 2, seed=103))
case("pixel_shuffle/empty-batch", lambda T, x: T.pixel_shuffle(x.reshape([0, 4, 2, 2]), 2), D([]))
case("pixel_shuffle/channels-error", lambda T, x: T.pixel_shuffle(x, 2), R(1, 6, 2, 2))
case("pixel_shuffle/factor-error", lambda T, x: T.pixel_shuffle(x, 0), R(1, 4, 2, 2))
case("pixel_shuffle/dims-error", lambda T, x: T.pixel_shuffle(x, 2), R(4, 2))
case("pixel_unshuffle/factor-2", lambda T, x: T.pixel_unshuffle(x, 2), R(1, 2, 4, 6, seed=104), second=True)
case("pixel_unshuffle/3-d-factor-3", lambda T, x: T.pixel_unshuffle(x, 3), R(1, 3, 6, seed=105), second=True)
case("pixel_unshuffle/height-error", lambda T, x: T.pixel_unshuffle(x, 2), R(1, 3, 4))
case("pixel_unshuffle/width-error", lambda T, x: T.pixel_unshuffle(x, 2), R(1, 4, 3))
NEAREST1D = [("up", (2, 3, 4), [7], None), ("down", (1, 2, 5), [3], None), ("double", (1, 1, 3), [6], None)]
NEAREST1D += [("scales", (1, 2, 3), [7], 2.5), ("same", (1, 1, 4), [4], None)]
for label, shape, size, scales in NEAREST1D:
    case(
        f"upsample_nearest1d/{label}",
        lambda T, x, size=size, scales=scales: T.upsample_nearest1d(x, size, scales),
        R(*shape, seed=106),
        second=True,
    )
case(
    "upsample_nearest1d/transposed",
    lambda T, x: T.upsample_nearest1d(x.transpose(1, 2), [5], None),
    R(1, 3, 2, seed=107),
)
case("upsample_nearest1d/empty-batch", lambda T, x: T.upsample_nearest1d(x.reshape([0, 2, 3]), [5], None), D([]))
case("upsample_nearest1d/dims-error", lambda T, x: T.upsample_nearest1d(x, [5], None), R(2, 3))
case("upsample_nearest1d/zero-size-error", lambda T, x: T.upsample_nearest1d(x, [0], None), R(1, 2, 3))
case(
    "upsample_nearest1d_backward/up",
    lambda T, g: T.upsample_nearest1d_backward(g, [7], [2, 3, 4], None),
    R(2, 3, 7, seed=108),
    second=True,
)
NEAREST2D = [
    ("up", (1, 2, 3, 4), [5, 8], None, None),
    ("down-scales", (2, 1, 4, 4), [2, 3], 0.5, 0.75),
    ("double", (1, 1, 2, 3), [4, 6], None, None),
    ("odd", (1, 1, 3, 5), [7, 4], None, None),
]
for label, shape, size, sh, sw in NEAREST2D:
    case(
        f"upsample_nearest2d/{label}",
        lambda T, x, size=size, sh=sh, sw=sw: T.upsample_nearest2d(x, size, sh, sw),
        R(*shape, seed=109),
        second=True,
    )
case(
    "upsample_nearest2d/transposed",
    lambda T, x: T.upsample_nearest2d(x.transpose(2, 3), [3, 5], None, None),
    R(1, 2, 3, 2, seed=110),
)
case(
    "upsample_nearest2d/expanded",
    lambda T, x: T.upsample_nearest2d(x.expand([2, 2, 2, 2]), [3, 3], None, None),
    R(1, 2, 2, 2, seed=111),
    second=True,
)
case(
    "upsample_nearest2d/float32",
    lambda T, x: T.upsample_nearest2d(x, [5, 3], None, None),
    R(1, 2, 3, 2, seed=112, dtype="float32"),
)
case(
    "upsample_nearest2d/empty-batch",
    lambda T, x: T.upsample_nearest2d(x.reshape([0, 1, 2, 2]), [4, 4], None, None),
    D([]),
)
case("upsample_nearest2d/dims-error", lambda T, x: T.upsample_nearest2d(x, [4, 4], None, None), R(1, 2, 2))
case(
    "upsample_nearest2d_backward/up",
    lambda T, g: T.upsample_nearest2d_backward(g, [5, 8], [1, 2, 3, 4], None, None),
    R(1, 2, 5, 8, seed=113),
    second=True,
)
BILINEAR = [
    ("up", (1, 2, 3, 4), [5, 7], False, None, None),
    ("up-align-corners", (1, 2, 3, 4), [5, 7], True, None, None),
    ("down", (2, 1, 5, 5), [3, 2], False, None, None),
    ("down-align-corners", (2, 1, 5, 5), [3, 2], True, None, None),
    ("scales", (1, 1, 2, 3), [3, 6], False, 1.5, 2.0),
    ("one-by-one-align-corners", (1, 1, 3, 3), [1, 1], True, None, None),
    ("one-by-one", (1, 1, 3, 3), [1, 1], False, None, None),
    ("same-size", (1, 1, 3, 2), [3, 2], False, None, None),
]
for label, shape, size, ac, sh, sw in BILINEAR:
    case(
        f"upsample_bilinear2d/{label}",
        lambda T, x, size=size, ac=ac, sh=sh, sw=sw: T.upsample_bilinear2d(x, size, ac, sh, sw),
        R(*shape, seed=114),
        second=True,
    )
case(
    "upsample_bilinear2d/transposed",
    lambda T, x: T.upsample_bilinear2d(x.transpose(2, 3), [4, 5], False, None, None),
    R(1, 2, 3, 2, seed=115),
    second=True,
)
case(
    "upsample_bilinear2d/float32",
    lambda T, x: T.upsample_bilinear2d(x, [5, 3], False, None, None),
    R(1, 2, 3, 2, seed=116, dtype="float32"),
)
case(
    "upsample_bilinear2d/empty-batch",
    lambda T, x: T.upsample_bilinear2d(x.reshape([0, 1, 2, 2]), [4, 4], False, None, None),
    D([]),
)
case("upsample_bilinear2d/size-error", lambda T, x: T.upsample_bilinear2d(x, [4], False, None, None), R(1, 1, 2, 2))
case(
    "upsample_bilinear2d_backward/align-corners",
    lambda T, g: T.upsample_bilinear2d_backward(g, [4, 5], [1, 1, 3, 3], True, None, None),
    R(1, 1, 4, 5, seed=117),
    second=True,
)
case(
    "upsample_bilinear2d_backward/down",
    lambda T, g: T.upsample_bilinear2d_backward(g, [3, 2], [2, 1, 5, 5], False, None, None),
    R(2, 1, 3, 2, seed=118),
    second=True,
)
import cases_aminmax  # noqa: E402, F401  (aminmax, issue 23: registers its cases here)
import cases_api  # noqa: E402, F401  (fill, new_*, isclose / allclose / equal, aliases, issue 23: registers its cases here)
import cases_bitwise_inplace  # noqa: E402, F401  (&= |= ^=, issue 23: registers its cases here)
import cases_bitwise_ops  # noqa: E402, F401  (bitwise / logical in-place, out=, Scalar_Tensor; as_tensor sharing; issue 23)
import cases_composites  # noqa: E402, F401  (torch's composite tensor-API functions, linalg norms, issue 23)
import cases_convdw  # noqa: E402, F401  (depthwise convolutions, bench26: registers its cases here)
import cases_conventions  # noqa: E402, F401  (max/min out=, several ellipses, einsum messages, issue 23: registers its cases here)
import cases_ctc  # noqa: E402, F401  (ctc_loss, issue 26's last op; max_pool1d_with_indices: registers its cases here)
import cases_decl23c  # noqa: E402, F401  (overloads of declared ops: zeros / ones, out= variants, tensor endpoints, issue 23)
import cases_decomp  # noqa: E402, F401  (linear algebra decompositions: registers its cases here)
import cases_default_dtype  # noqa: E402, F401  (the default dtype, issue 23: registers its cases here)
import cases_dtype  # noqa: E402, F401  (the dtypes int32 ... bfloat16, issue 23: registers its cases here)
import cases_grid  # noqa: E402, F401  (grid_sampler_2d, issue 26 resampling: registers its cases here)
import cases_index  # noqa: E402, F401  (the indexing family: registers its cases here)
import cases_inplace_out  # noqa: E402, F401  (in-place variants and out= overloads, issue 23: registers its cases here)
import cases_nll  # noqa: E402, F401  (K-dimensional nll_loss, issue 26: registers its cases here)
import cases_nn  # noqa: E402, F401  (the remaining nn ops, issue 26: registers its cases here)
import cases_nn2  # noqa: E402, F401  (nn ops, issue 26 second batch: registers its cases here)
import cases_nn3  # noqa: E402, F401  (torch.nn.functional calls added in nnextra26: registers its cases here)
import cases_order  # noqa: E402, F401  (order statistics: registers its cases here)
import cases_overloads23  # noqa: E402, F401  (missing overloads found by an audit, issue 23b: registers its cases here)
import cases_random  # noqa: E402, F401  (random samplers whose answer is determined: registers its cases here)
import cases_shape  # noqa: E402, F401  (shape ops, fifth batch: registers its cases here)
import cases_shift  # noqa: E402, F401  (bitwise shifts, issue 23: registers its cases here)
import cases_small_float  # noqa: E402, F401  (float16 / bfloat16 beyond element-wise, issue 23: registers its cases here)
