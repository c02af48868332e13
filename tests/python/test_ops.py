"""Every op of specs/native_functions.yaml called from Python through the generated bindings.

SAMPLES has an entry per declaration (by `name.overload`), each calling that overload the way a
user would (function or method form, keywords, defaults, out=) and checked against finite
differences in float64 (first and second derivatives) or, for ops without a gradient, against
values computed here in plain Python. test_every_declaration_has_samples fails for a declared op
without one, so a new op cannot land without being called from Python.
"""

from __future__ import annotations

import math
import os
import random
from typing import Callable, Dict, List, NamedTuple, Sequence

import pytest
import yaml
from gradcheck_util import flat, gradcheck, gradgradcheck

import gradgen

SPECS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "specs")


def _rand(shape: Sequence[int], seed: int, lo: float = -1.0, hi: float = 1.0) -> List:
    rng = random.Random(seed)

    def nest(dims):
        if not dims:
            return rng.uniform(lo, hi)
        return [nest(dims[1:]) for _ in range(dims[0])]

    return nest(list(shape))


def leaf(*shape: int, seed: int = 0) -> gradgen.Tensor:
    return gradgen.tensor(_rand(shape, seed), dtype=gradgen.float64, requires_grad=True)


def value(*shape: int, seed: int = 0) -> gradgen.Tensor:
    return gradgen.tensor(_rand(shape, seed), dtype=gradgen.float64)


def positive(*shape: int, seed: int = 0) -> gradgen.Tensor:
    return gradgen.tensor(_rand(shape, seed, 0.5, 2.0), dtype=gradgen.float64, requires_grad=True)


def away_from_zero(*shape: int, seed: int = 0) -> gradgen.Tensor:
    """Values with |x| >= 0.5, for ops with a kink or a pole at 0."""

    def shift(v):
        if isinstance(v, list):
            return [shift(x) for x in v]
        return v + (0.5 if v >= 0 else -0.5)

    return gradgen.tensor(shift(_rand(shape, seed)), dtype=gradgen.float64, requires_grad=True)


def longs(data) -> gradgen.Tensor:
    return gradgen.tensor(data, dtype=gradgen.int64)


def bools(data) -> gradgen.Tensor:
    return gradgen.tensor(data, dtype=gradgen.bool)


class Sample(NamedTuple):
    desc: str
    fn: Callable[..., object]
    inputs: List
    # Second derivatives too (off for ops whose formulas are not twice differentiable here).
    second: bool = True


def differentiable(*samples: Sample) -> List[Sample]:
    return list(samples)


def unary(fn, domain=leaf) -> List[Sample]:
    return [
        Sample("0-dim", fn, [domain(seed=1)]),
        Sample("[5]", fn, [domain(5, seed=2)]),
        Sample("[2, 3] as a transposed view", lambda x: fn(x.t()), [domain(3, 2, seed=3)]),
    ]


def binary(fn, a=leaf, b=leaf) -> List[Sample]:
    return [
        Sample("[2, 3] and [2, 3]", fn, [a(2, 3, seed=1), b(2, 3, seed=2)]),
        Sample("[2, 3] and [3] (broadcast)", fn, [a(2, 3, seed=3), b(3, seed=4)]),
        Sample("0-dim and [2, 2]", fn, [a(seed=5), b(2, 2, seed=6)]),
    ]


# ---------------------------------------------------------------------------------------------
# Ops without gradients (values checked here) and calls that must behave a certain way
# ---------------------------------------------------------------------------------------------


def check_values(got: gradgen.Tensor, expected: Sequence[float], tol: float = 1e-12) -> None:
    g = flat(got.tolist())
    assert len(g) == len(expected), (g, expected)
    for x, y in zip(g, expected):
        assert abs(x - y) <= tol * (1 + abs(y)), (g, list(expected))


def _out_checks():
    def mm_out():
        a, b = value(2, 3, seed=1), value(3, 2, seed=2)
        out = gradgen.zeros([2, 2], dtype=gradgen.float64)
        r = gradgen.mm(a, b, out=out)
        assert r is out
        check_values(out, flat(gradgen.mm(a, b).tolist()))
        with pytest.raises((RuntimeError, ValueError), match="mm.out"):
            gradgen.mm(leaf(2, 3), b, out=out)

    def add_out():
        a, b = value(2, 3, seed=1), value(3, seed=2)
        out = gradgen.zeros([2, 3], dtype=gradgen.float64)
        assert gradgen.add(a, b, alpha=2, out=out) is out
        check_values(out, [x + 2 * y for x, y in zip(flat(a.tolist()), flat(b.tolist()) * 2)])

    def mul_out():
        a, b = value(4, seed=3), value(4, seed=4)
        out = gradgen.zeros([4], dtype=gradgen.float64)
        assert gradgen.mul(a, b, out=out) is out
        check_values(out, [x * y for x, y in zip(flat(a.tolist()), flat(b.tolist()))])

    return {"mm.out": mm_out, "add.out": add_out, "mul.out": mul_out}


def _value_checks():
    def zero_():
        x = value(2, 2)
        assert x.zero_() is x
        check_values(x, [0.0] * 4)

    def zeros_like():
        x = leaf(2, 3)
        z = gradgen.zeros_like(x, dtype=gradgen.int64)
        assert z.dtype == gradgen.int64 and not z.requires_grad and list(z.shape) == [2, 3]
        check_values(z, [0.0] * 6)

    def ones_like():
        o = gradgen.ones_like(leaf(3))
        assert o.dtype == gradgen.float64 and not o.requires_grad
        check_values(o, [1.0] * 3)

    def argmax():
        x = gradgen.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], dtype=gradgen.float64)
        check_values(gradgen.argmax(x), [3.0])
        check_values(x.argmax(dim=1), [1.0, 0.0])
        assert list(x.argmax(1, keepdim=True).shape) == [2, 1]

    def eq():
        a = gradgen.tensor([1.0, 2.0, 3.0], dtype=gradgen.float64)
        b = gradgen.tensor([1.0, 0.0, 3.0], dtype=gradgen.float64)
        r = gradgen.eq(a, b)
        assert r.dtype == gradgen.bool and r.tolist() == [True, False, True]
        assert a.eq(b).tolist() == [True, False, True]

    def native_dropout_backward():
        g = value(4, seed=2)
        mask = bools([True, False, True, True])
        r = gradgen.native_dropout_backward(g, mask, 2.0)
        check_values(r, [x * 2.0 * m for x, m in zip(flat(g.tolist()), [1, 0, 1, 1])])

    def cumprod():
        x = gradgen.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], dtype=gradgen.float64, requires_grad=True)
        y = x.cumprod(1)
        check_values(y, [1.0, 2.0, 6.0, -1.0, -0.5, -2.0])
        check_values(gradgen.cumprod(x, 0), [1.0, 2.0, 3.0, -1.0, 1.0, 12.0])
        # d sum(cumprod(x)) / d x_k = sum_{j >= k} prod_{i <= j, i != k} x_i, by hand.
        y.sum().backward()
        check_values(x.grad, [9.0, 4.0, 2.0, 3.5, -5.0, -0.5])
        # Exact with a zero (no division by x_k): x = [2, 0, 3].
        z = gradgen.tensor([2.0, 0.0, 3.0], dtype=gradgen.float64, requires_grad=True)
        z.cumprod(0).sum().backward()
        check_values(z.grad, [1.0, 2.0 + 6.0, 0.0])

    def comparisons():
        a = gradgen.tensor([1.0, 2.0, 3.0], dtype=gradgen.float64)
        n = gradgen.tensor([1, 3, 2])
        expected = {
            "ne": [False, True, True],
            "lt": [False, True, False],
            "le": [True, True, False],
            "gt": [False, False, True],
            "ge": [True, False, True],
        }
        for name, want in expected.items():
            r = getattr(gradgen, name)(a, n)  # float64 and int64 compare as float64
            assert r.dtype == gradgen.bool and r.tolist() == want, name
            assert getattr(a, name)(n).tolist() == want, name
        for name, want in {"eq": [False, True, False], "ne": [True, False, True], "lt": [True, False, False]}.items():
            assert getattr(gradgen, name)(a, 2).tolist() == want, name
        assert gradgen.le(a, 2.5).tolist() == [True, True, False]
        assert gradgen.gt(n, 1.5).tolist() == [False, True, True]
        assert a.ge(3).tolist() == [False, False, True]

    return {
        "cumprod": cumprod,
        "zero_": zero_,
        "zeros_like": zeros_like,
        "ones_like": ones_like,
        "argmax": argmax,
        "eq.Tensor": eq,
        **{
            f"{op}.{kind}": comparisons
            for op in ["eq", "ne", "lt", "le", "gt", "ge"]
            for kind in ["Tensor", "Scalar"]
            if (op, kind) != ("eq", "Tensor")
        },
        "native_dropout_backward": native_dropout_backward,
    }


# ---------------------------------------------------------------------------------------------
# Differentiable ops
# ---------------------------------------------------------------------------------------------


def _index(i: Sequence[int]) -> gradgen.Tensor:
    return longs(list(i))


SAMPLES: Dict[str, List[Sample]] = {
    "mm": [
        Sample("function", gradgen.mm, [leaf(2, 3, seed=1), leaf(3, 4, seed=2)]),
        Sample("method", lambda a, b: a.mm(b), [leaf(3, 2, seed=3), leaf(2, 2, seed=4)]),
    ],
    "t": unary(gradgen.t) + [Sample("method", lambda x: x.t(), [leaf(2, 3)])],
    "cat": [
        Sample(
            "a list",
            lambda a, b, c: gradgen.cat([a, b, c]),
            [leaf(2, 3, seed=1), leaf(1, 3, seed=2), leaf(2, 3, seed=3)],
        ),
        Sample("a tuple, dim=1", lambda a, b: gradgen.cat((a, b), dim=1), [leaf(2, 3, seed=4), leaf(2, 1, seed=5)]),
    ],
    "narrow": [
        Sample("method", lambda x: x.narrow(1, 1, 2), [leaf(2, 4)]),
        Sample("function", lambda x: gradgen.narrow(x, 0, 1, 1), [leaf(3, 2)]),
    ],
    "lincomb": [
        Sample(
            "two tensors",
            lambda a, b, c: gradgen.lincomb([a, b], c),
            [leaf(3, seed=1), leaf(3, seed=2), leaf(2, seed=3)],
        ),
        Sample(
            "three tensors",
            lambda a, b, c, d: gradgen.lincomb([a, b, c], d),
            [leaf(2, 2, seed=4), leaf(2, 2, seed=5), leaf(2, 2, seed=6), leaf(3, seed=7)],
        ),
    ],
    "add.Tensor": binary(gradgen.add)
    + [Sample("alpha=2, method", lambda a, b: a.add(b, alpha=2), [leaf(3, seed=8), leaf(3, seed=9)])],
    "add_.Tensor": [
        Sample("method on a clone", lambda a, b: a.clone().add_(b, alpha=0.5), [leaf(2, 3, seed=1), leaf(3, seed=2)])
    ],
    "add.Scalar": [
        Sample("a Python float", lambda a: gradgen.add(a, 2.5), [leaf(3)]),
        Sample("an int, alpha", lambda a: a.add(3, 2), [leaf(2, 2)]),
    ],
    "sub.Tensor": binary(gradgen.sub)
    + [Sample("alpha", lambda a, b: gradgen.sub(a, b, alpha=3), [leaf(2, seed=4), leaf(2, seed=5)])],
    "sub_.Tensor": [
        Sample("method on a clone", lambda a, b: a.clone().sub_(b), [leaf(2, 3, seed=1), leaf(2, 3, seed=2)])
    ],
    "mul.Tensor": binary(gradgen.mul) + [Sample("method", lambda a, b: a.mul(b), [leaf(4, seed=7), leaf(4, seed=8)])],
    "mul_.Tensor": [Sample("method on a clone", lambda a, b: a.clone().mul_(b), [leaf(2, 3, seed=1), leaf(3, seed=2)])],
    "mul.Scalar": [Sample("function", lambda a: gradgen.mul(a, -1.5), [leaf(3)])],
    "mul_.Scalar": [Sample("method on a clone", lambda a: a.clone().mul_(2.0), [leaf(3)])],
    "div.Tensor": binary(gradgen.div, b=positive),
    "div_.Tensor": [
        Sample("method on a clone", lambda a, b: a.clone().div_(b), [leaf(3, seed=1), positive(3, seed=2)])
    ],
    "div.Scalar": [Sample("function", lambda a: gradgen.div(a, 4.0), [leaf(2, 2)])],
    "pow.Tensor_Scalar": [
        Sample("float exponent", lambda a: gradgen.pow(a, 2.5), [positive(3)]),
        Sample("method, int", lambda a: a.pow(3), [leaf(2, 2)]),
    ],
    "pow.Tensor_Tensor": [Sample("function", gradgen.pow, [positive(3, seed=1), leaf(3, seed=2)])],
    "pow.Scalar": [
        Sample("function", lambda e: gradgen.pow(2.5, e), [leaf(3)]),
        Sample("operator", lambda e: 0.5**e, [leaf(2, 2)]),
    ],
    "neg": unary(gradgen.neg),
    "exp": unary(gradgen.exp),
    "exp_": [
        Sample("function on a clone", lambda a: gradgen.exp_(a.clone()), [leaf(3)]),
        Sample("method on a clone", lambda a: a.clone().exp_(), [leaf(2)]),
    ],
    "log": unary(gradgen.log, positive),
    "tanh": unary(gradgen.tanh),
    "sigmoid": unary(gradgen.sigmoid),
    "relu": unary(gradgen.relu, away_from_zero),
    "relu_": [Sample("method on a clone", lambda a: a.clone().relu_(), [away_from_zero(4)], second=False)],
    "sin": unary(gradgen.sin),
    "cos": unary(lambda x: x.cos()),
    "sqrt": unary(gradgen.sqrt, positive),
    "abs": unary(gradgen.abs, away_from_zero),
    "sign": [Sample("zero gradient", gradgen.sign, [away_from_zero(3)])],
    "reciprocal": unary(gradgen.reciprocal, away_from_zero),
    "clamp": [
        Sample("min and max", lambda a: gradgen.clamp(a, -0.5, 0.5), [leaf(6)], second=False),
        Sample("max only, keyword", lambda a: a.clamp(max=0.2), [leaf(4, seed=3)], second=False),
    ],
    "clone": [
        Sample("function", gradgen.clone, [leaf(2, 3)]),
        Sample("method, memory_format", lambda a: a.clone(memory_format=gradgen.contiguous_format), [leaf(3)]),
    ],
    "tanh_backward": [Sample("function", gradgen.tanh_backward, [leaf(3, seed=1), leaf(3, seed=2)])],
    "sigmoid_backward": [Sample("function", gradgen.sigmoid_backward, [leaf(3, seed=1), leaf(3, seed=2)])],
    "threshold_backward": [
        Sample(
            "function", lambda g, x: gradgen.threshold_backward(g, x, 0.0), [leaf(4, seed=1), away_from_zero(4, seed=2)]
        )
    ],
    "sum": [Sample("all", gradgen.sum, [leaf(2, 3)]), Sample("method", lambda x: x.sum(), [leaf(4)])],
    "sum.dim_IntList": [
        Sample("an int dim", lambda x: gradgen.sum(x, 1), [leaf(2, 3)]),
        Sample("a list, keepdim", lambda x: x.sum([0, 1], keepdim=True), [leaf(2, 3, seed=2)]),
        Sample("dim=None", lambda x: gradgen.sum(x, None), [leaf(2, 2, seed=3)]),
    ],
    "mean": [Sample("all", gradgen.mean, [leaf(2, 3)])],
    "mean.dim": [
        Sample("negative dim", lambda x: x.mean(-1), [leaf(2, 3)]),
        Sample("keepdim keyword", lambda x: gradgen.mean(x, [0], keepdim=True), [leaf(3, 2)]),
    ],
    "max.dim": [
        Sample("values", lambda x: gradgen.max(x, 1).values, [leaf(2, 3)]),
        Sample("method, unpacked", lambda x: x.max(dim=0, keepdim=True)[0], [leaf(3, 2, seed=2)]),
    ],
    "logsumexp": [Sample("int dim", lambda x: gradgen.logsumexp(x, 1), [leaf(2, 3)])],
    "bmm": [Sample("function", gradgen.bmm, [leaf(2, 2, 3, seed=1), leaf(2, 3, 2, seed=2)])],
    "matmul": [
        Sample("2d @ 1d", gradgen.matmul, [leaf(2, 3, seed=1), leaf(3, seed=2)]),
        Sample("method", lambda a, b: a.matmul(b), [leaf(2, 2, seed=3), leaf(2, 2, seed=4)]),
    ],
    "linear": [
        Sample("with bias", gradgen.linear, [leaf(4, 3, seed=1), leaf(2, 3, seed=2), leaf(2, seed=3)]),
        Sample("bias=None", lambda x, w: gradgen.linear(x, w, None), [leaf(2, 3, seed=4), leaf(3, 3, seed=5)]),
    ],
    "view": [Sample("method", lambda x: x.view([3, 2]), [leaf(2, 3)])],
    "reshape": [
        Sample("function", lambda x: gradgen.reshape(x, [6]), [leaf(2, 3)]),
        Sample("method, -1", lambda x: x.t().reshape([-1]), [leaf(2, 3, seed=2)]),
    ],
    "expand": [Sample("method", lambda x: x.expand([3, 2]), [leaf(1, 2)])],
    "squeeze": [Sample("function", gradgen.squeeze, [leaf(2, 1, 3)])],
    "squeeze.dim": [Sample("method", lambda x: x.squeeze(1), [leaf(2, 1)])],
    "unsqueeze": [Sample("function", lambda x: gradgen.unsqueeze(x, 0), [leaf(3)])],
    "transpose.int": [Sample("method", lambda x: x.transpose(0, 2), [leaf(2, 3, 2)])],
    "permute": [Sample("function", lambda x: gradgen.permute(x, [2, 0, 1]), [leaf(2, 3, 2)])],
    "select.int": [Sample("method", lambda x: x.select(1, -1), [leaf(2, 3)])],
    "to.dtype": [Sample("float64 to float64", lambda x: x.to(gradgen.float64, copy=True), [leaf(3)])],
    "stack": [Sample("a list", lambda a, b: gradgen.stack([a, b], 1), [leaf(2, 3, seed=1), leaf(2, 3, seed=2)])],
    "split.Tensor": [Sample("tuple result", lambda x: gradgen.split(x, 2), [leaf(5, 2)])],
    "unbind.int": [Sample("method", lambda x: x.unbind(1), [leaf(2, 3)])],
    "chunk": [Sample("function", lambda x: gradgen.chunk(x, 2, dim=1), [leaf(2, 4)])],
    "index_select": [Sample("function", lambda x: gradgen.index_select(x, 0, _index([2, 0, 2])), [leaf(3, 2)])],
    "gather": [Sample("method", lambda x: x.gather(1, longs([[0, 0], [1, 0]])), [leaf(2, 2)])],
    "index_add": [
        Sample(
            "alpha keyword",
            lambda x, s: gradgen.index_add(x, 0, _index([1, 1]), s, alpha=2),
            [leaf(3, 2, seed=1), leaf(2, 2, seed=2)],
        )
    ],
    "scatter_add": [
        Sample(
            "method",
            lambda x, s: x.scatter_add(0, longs([[0, 1], [0, 0]]), s),
            [leaf(2, 2, seed=1), leaf(2, 2, seed=2)],
        )
    ],
    "where.self": [
        Sample(
            "function", lambda a, b: gradgen.where(bools([True, False, True]), a, b), [leaf(3, seed=1), leaf(3, seed=2)]
        ),
        Sample(
            "method (self is the second argument)",
            lambda a, b: a.where(bools([False, True]), b),
            [leaf(2, seed=3), leaf(2, seed=4)],
        ),
    ],
    "masked_fill.Scalar": [
        Sample("method", lambda x: x.masked_fill(bools([[True, False], [False, False]]), 2.0), [leaf(2, 2)])
    ],
    "masked_fill_.Scalar": [
        Sample("method on a clone", lambda x: x.clone().masked_fill_(bools([True, False]), 2.0), [leaf(2, 2)])
    ],
    "softmax.int": [Sample("function", lambda x: gradgen.softmax(x, 1), [leaf(2, 3)])],
    "log_softmax.int": [Sample("method", lambda x: x.log_softmax(-1), [leaf(2, 3)])],
    "mse_loss": [
        Sample("mean", gradgen.mse_loss, [leaf(2, 3, seed=1), leaf(2, 3, seed=2)]),
        Sample("reduction=0", lambda a, b: gradgen.mse_loss(a, b, 0), [leaf(3, seed=3), value(3, seed=4)]),
    ],
    "nll_loss": [
        Sample("log-probabilities", lambda x: gradgen.nll_loss(x.log_softmax(1), longs([0, 2])), [leaf(2, 3)]),
        Sample(
            "weight, ignore_index keyword",
            lambda x, w: gradgen.nll_loss(x, longs([1, 2, 1]), w, ignore_index=2),
            [leaf(3, 3, seed=2), positive(3, seed=3)],
        ),
    ],
    # K-dimensional: nll_loss2d of images, nll_loss_nd of any K (what F.nll_loss calls).
    "nll_loss2d": [
        Sample(
            "[2, 3, 2, 2], keyword reduction",
            lambda x: gradgen.nll_loss2d(x, longs([[[0, 2], [1, 1]], [[2, 0], [0, 1]]]), reduction=2),
            [leaf(2, 3, 2, 2)],
        ),
    ],
    "nll_loss_nd": [
        Sample(
            "K = 1, weight, ignore_index",
            # weight is not differentiable (a constant here: the Mean divides by its sum).
            lambda x, w: gradgen.nll_loss_nd(x, longs([[0, 2], [1, 2]]), w, ignore_index=2),
            [leaf(2, 3, 2, seed=4), gradgen.tensor([0.7, 1.3, 0.9], dtype=gradgen.float64)],
        ),
    ],
    "cross_entropy_loss": [
        Sample(
            "label smoothing", lambda x: gradgen.cross_entropy_loss(x, longs([1, 0]), label_smoothing=0.1), [leaf(2, 3)]
        )
    ],
    "embedding": [Sample("function", lambda w: gradgen.embedding(w, longs([[0, 2], [2, 1]])), [leaf(3, 2)])],
    "native_dropout": [
        Sample(
            "p=0.5 with a generator", lambda x: gradgen.native_dropout(x, 0.5, True, gradgen.Generator(7))[0], [leaf(8)]
        )
    ],
    "dropout": [
        Sample("train", lambda x: gradgen.dropout(x, 0.25, True, generator=gradgen.Generator(3)), [leaf(6)]),
        Sample("eval", lambda x: gradgen.dropout(x, 0.5, False), [leaf(3)]),
    ],
    "lstm_cell": [
        Sample(
            "h and c",
            lambda x, h, c, wi, wh, bi: gradgen.lstm_cell(x, [h, c], wi, wh, bi)[1],
            [
                leaf(2, 3, seed=1),
                leaf(2, 2, seed=2),
                leaf(2, 2, seed=3),
                leaf(8, 3, seed=4),
                leaf(8, 2, seed=5),
                leaf(8, seed=6),
            ],
        )
    ],
}

VALUE_CHECKS = {**_out_checks(), **_value_checks()}

# ---------------------------------------------------------------------------------------------
# nn: activations (issue 26): the ops through their Python names and keywords; out= variants
# against the functional result. Values are PyTorch's in tests/differential/.
# ---------------------------------------------------------------------------------------------


def spread(*shape: int, seed: int = 0) -> gradgen.Tensor:
    """Values in [-4, 4) away from the kinks at 0, +-0.25 and +-3 (at least 0.05 from them)."""

    def push(v):
        if isinstance(v, list):
            return [push(x) for x in v]
        for kink in (0.0, 0.25, -0.25, 3.0, -3.0):
            if abs(v - kink) < 0.05:
                return kink + 0.05
        return v

    return gradgen.tensor(push(_rand(shape, seed, -4.0, 4.0)), dtype=gradgen.float64, requires_grad=True)


def _nn_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "gelu": unary(lambda x: g.gelu(x)) + [Sample("tanh", lambda x: g.gelu(x, approximate="tanh"), [leaf(4)])],
        "gelu_backward": binary(lambda a, x: g.gelu_backward(a, x, approximate="tanh")),
        "silu": unary(g.silu),
        "silu_backward": binary(g.silu_backward),
        "mish": unary(g.mish),
        "mish_backward": binary(g.mish_backward),
        "elu": unary(lambda x: g.elu(x, alpha=0.5, scale=2.0, input_scale=1.5), spread),
        "elu_backward": binary(lambda a, x: g.elu_backward(a, 1.5, 1.0, 1.0, False, x), b=spread),
        "selu": unary(g.selu, spread),
        "celu": unary(lambda x: g.celu(x, alpha=2.0), spread),
        "leaky_relu": unary(lambda x: g.leaky_relu(x, negative_slope=0.2), spread),
        "leaky_relu_backward": binary(lambda a, x: g.leaky_relu_backward(a, x, 0.2, False), b=spread),
        "hardtanh": unary(lambda x: g.hardtanh(x, min_val=-0.25, max_val=3.0), spread),
        "hardtanh_backward": binary(lambda a, x: g.hardtanh_backward(a, x, -0.25, 3.0), b=spread),
        "hardsigmoid": unary(g.hardsigmoid, spread),
        "hardsigmoid_backward": binary(g.hardsigmoid_backward, b=spread),
        "hardswish": unary(g.hardswish, spread),
        "hardswish_backward": binary(g.hardswish_backward, b=spread),
        "softplus": unary(lambda x: g.softplus(x, beta=2.0, threshold=3.0), spread),
        "softplus_backward": binary(lambda a, x: g.softplus_backward(a, x, 2.0, 3.0), b=spread),
        "softshrink": unary(lambda x: g.softshrink(x, lambd=0.25), spread),
        "softshrink_backward": binary(lambda a, x: g.softshrink_backward(a, x, 0.25), b=spread),
        "hardshrink": unary(lambda x: x.hardshrink(0.25), spread),
        "hardshrink_backward": binary(lambda a, x: a.hardshrink_backward(x, 0.25), b=spread),
        "log_sigmoid": unary(g.log_sigmoid),
        "log_sigmoid_forward": unary(lambda x: g.log_sigmoid_forward(x)[0]),
        "log_sigmoid_backward": binary(lambda a, x: g.log_sigmoid_backward(a, x, g.log_sigmoid_forward(x)[1])),
        "threshold": unary(lambda x: g.threshold(x, 0.25, -2.0), spread),
        "glu": [Sample("dim=0", lambda x: g.glu(x, dim=0), [leaf(4, 3)]), Sample("default dim", g.glu, [leaf(2, 4)])],
        "glu_backward": [Sample("dim=1", lambda a, x: g.glu_backward(a, x, 1), [leaf(2, 2, seed=1), leaf(2, 4)])],
        "prelu": [
            Sample("channels", lambda x, w: g.prelu(x, w), [spread(2, 3, 2), leaf(3)]),
            Sample("method, one weight", lambda x, w: x.prelu(w), [spread(4), leaf(1)]),
        ],
        "_prelu_kernel": [Sample("broadcast", g._prelu_kernel, [spread(2, 3), leaf(3)])],
        "_prelu_kernel_backward": [
            Sample("both outputs", lambda a, x, w: g._prelu_kernel_backward(a, x, w), [leaf(3), spread(3), leaf(3)])
        ],
    }


def _nn_out_checks():
    g = gradgen

    def check(name, functional, with_out, nargs=1):
        def run():
            args = [value(2, 3, seed=i) for i in range(nargs)]
            out = g.zeros([2, 3], dtype=g.float64)
            assert with_out(*args, out) is out
            check_values(out, flat(functional(*args).tolist()))
            with pytest.raises((RuntimeError, ValueError), match=name.replace(".", "\\.")):
                with_out(*([leaf(2, 3)] + args[1:]), out)

        return run

    checks = {
        "gelu.out": (lambda x: g.gelu(x, approximate="tanh"), lambda x, o: g.gelu(x, approximate="tanh", out=o)),
        "silu.out": (g.silu, lambda x, o: g.silu(x, out=o)),
        "mish.out": (g.mish, lambda x, o: g.mish(x, out=o)),
        "elu.out": (lambda x: g.elu(x, 0.5), lambda x, o: g.elu(x, 0.5, out=o)),
        "leaky_relu.out": (lambda x: g.leaky_relu(x, 0.3), lambda x, o: g.leaky_relu(x, 0.3, out=o)),
        "hardtanh.out": (lambda x: g.hardtanh(x, -0.5), lambda x, o: g.hardtanh(x, -0.5, out=o)),
        "hardsigmoid.out": (g.hardsigmoid, lambda x, o: g.hardsigmoid(x, out=o)),
        "hardswish.out": (g.hardswish, lambda x, o: g.hardswish(x, out=o)),
        "softplus.out": (lambda x: g.softplus(x, 2.0), lambda x, o: g.softplus(x, 2.0, out=o)),
        "softshrink.out": (lambda x: g.softshrink(x, 0.3), lambda x, o: g.softshrink(x, 0.3, out=o)),
        "hardshrink.out": (lambda x: g.hardshrink(x, 0.3), lambda x, o: g.hardshrink(x, 0.3, out=o)),
        "log_sigmoid.out": (g.log_sigmoid, lambda x, o: g.log_sigmoid(x, out=o)),
        "threshold.out": (lambda x: g.threshold(x, 0.1, 5.0), lambda x, o: g.threshold(x, 0.1, 5.0, out=o)),
    }
    backward_checks = {
        "gelu_backward.grad_input": (g.gelu_backward, lambda a, x, o: g.gelu_backward(a, x, grad_input=o)),
        "silu_backward.grad_input": (g.silu_backward, lambda a, x, o: g.silu_backward(a, x, grad_input=o)),
        "elu_backward.grad_input": (
            lambda a, x: g.elu_backward(a, 1.0, 1.0, 1.0, False, x),
            lambda a, x, o: g.elu_backward(a, 1.0, 1.0, 1.0, False, x, grad_input=o),
        ),
        "leaky_relu_backward.grad_input": (
            lambda a, x: g.leaky_relu_backward(a, x, 0.2, False),
            lambda a, x, o: g.leaky_relu_backward(a, x, 0.2, False, grad_input=o),
        ),
        "hardtanh_backward.grad_input": (
            lambda a, x: g.hardtanh_backward(a, x, -0.5, 0.5),
            lambda a, x, o: g.hardtanh_backward(a, x, -0.5, 0.5, grad_input=o),
        ),
        "hardsigmoid_backward.grad_input": (
            g.hardsigmoid_backward,
            lambda a, x, o: g.hardsigmoid_backward(a, x, grad_input=o),
        ),
        "hardswish_backward.out": (g.hardswish_backward, lambda a, x, o: g.hardswish_backward(a, x, out=o)),
        "softplus_backward.grad_input": (
            lambda a, x: g.softplus_backward(a, x, 1.0, 20.0),
            lambda a, x, o: g.softplus_backward(a, x, 1.0, 20.0, grad_input=o),
        ),
        "softshrink_backward.grad_input": (
            lambda a, x: g.softshrink_backward(a, x, 0.3),
            lambda a, x, o: g.softshrink_backward(a, x, 0.3, grad_input=o),
        ),
        "hardshrink_backward.grad_input": (
            lambda a, x: g.hardshrink_backward(a, x, 0.3),
            lambda a, x, o: g.hardshrink_backward(a, x, 0.3, grad_input=o),
        ),
        "log_sigmoid_backward.grad_input": (
            lambda a, x: g.log_sigmoid_backward(a, x, g.log_sigmoid_forward(x)[1]),
            lambda a, x, o: g.log_sigmoid_backward(a, x, g.log_sigmoid_forward(x)[1], grad_input=o),
        ),
    }
    out = {name: check(name, f, w) for name, (f, w) in checks.items()}
    out.update({name: check(name, f, w, nargs=2) for name, (f, w) in backward_checks.items()})

    def glu_out():
        x = value(2, 3, seed=1)
        o = g.zeros([1, 3], dtype=g.float64)
        assert g.glu(x, 0, out=o) is o
        check_values(o, flat(g.glu(x, 0).tolist()))

    def glu_backward_grad_input():
        a, x = value(1, 3, seed=1), value(2, 3, seed=2)
        o = g.zeros([2, 3], dtype=g.float64)
        assert g.glu_backward(a, x, 0, grad_input=o) is o
        check_values(o, flat(g.glu_backward(a, x, 0).tolist()))

    out["glu.out"] = glu_out
    out["glu_backward.grad_input"] = glu_backward_grad_input
    return out


SAMPLES.update(_nn_samples())
VALUE_CHECKS.update(_nn_out_checks())


def _nn_inplace_samples() -> Dict[str, List[Sample]]:
    """The in-place activations (F.elu_, inplace=True, ...) on a clone, whose backward they record."""
    g = gradgen

    def on_clone(f, domain=spread):
        return [Sample("function on a clone", lambda x: f(x.clone()), [domain(2, 3)])]

    return {
        "elu_": on_clone(lambda y: g.elu_(y, alpha=0.5, scale=2.0, input_scale=1.5)),
        "celu_": on_clone(lambda y: g.celu_(y, alpha=2.0)),
        "selu_": on_clone(g.selu_),
        "leaky_relu_": on_clone(lambda y: g.leaky_relu_(y, negative_slope=0.2)),
        "hardtanh_": on_clone(lambda y: g.hardtanh_(y, min_val=-0.25, max_val=3.0)),
        "threshold_": on_clone(lambda y: g.threshold_(y, 0.25, -2.0)),
        "silu_": on_clone(g.silu_, leaf),
        "mish_": on_clone(g.mish_, leaf),
        "hardsigmoid_": on_clone(g.hardsigmoid_),
        "hardswish_": on_clone(g.hardswish_),
    }


SAMPLES.update(_nn_inplace_samples())


# ---------------------------------------------------------------------------------------------
# Tensor op library (issue 23), first batch
# ---------------------------------------------------------------------------------------------


def _in(lo: float, hi: float):
    def make(*shape: int, seed: int = 0) -> gradgen.Tensor:
        return gradgen.tensor(_rand(shape, seed, lo, hi), dtype=gradgen.float64, requires_grad=True)

    return make


def _tensorops_samples() -> Dict[str, List[Sample]]:
    unit = _in(-0.8, 0.8)
    domains = {
        "log1p": positive,
        "expm1": leaf,
        "log2": positive,
        "log10": positive,
        "exp2": leaf,
        "rsqrt": positive,
        "square": leaf,
        "erf": leaf,
        "erfc": leaf,
        "erfinv": unit,
        "lgamma": positive,
        "digamma": positive,
        "asin": unit,
        "acos": unit,
        "atan": leaf,
        "sinh": leaf,
        "cosh": leaf,
        "asinh": leaf,
        "acosh": _in(1.2, 3.0),
        "atanh": unit,
        "tan": leaf,
        "floor": leaf,
        "ceil": leaf,
        "round": leaf,
        "trunc": leaf,
        "frac": leaf,
        "sgn": away_from_zero,
    }
    s: Dict[str, List[Sample]] = {}
    for op, dom in domains.items():
        s[op] = [
            Sample("function", getattr(gradgen, op), [dom(2, 3, seed=1)]),
            Sample("method", lambda x, op=op: getattr(x, op)(), [dom(3, seed=2)]),
        ]
        if op not in ("asinh", "acosh", "atanh"):  # their in-place variants have no derivative
            s[op + "_"] = [
                Sample("method on a clone", lambda x, op=op: getattr(x.clone(), op + "_")(), [dom(3, seed=3)])
            ]
    s["round.decimals"] = [Sample("decimals=2", lambda x: gradgen.round(x, decimals=2), [leaf(4)])]
    s["round_.decimals"] = [Sample("method on a clone", lambda x: x.clone().round_(decimals=1), [leaf(3)])]
    s["polygamma"] = [
        Sample("n=1", lambda x: gradgen.polygamma(1, x), [positive(3, seed=1)]),
        Sample("n=2, method", lambda x: x.polygamma(2), [positive(3, seed=2)]),
    ]
    s["polygamma_"] = [Sample("method on a clone", lambda x: x.clone().polygamma_(1), [positive(3)])]
    s["logit"] = [
        Sample("no eps", gradgen.logit, [_in(0.1, 0.9)(4, seed=1)]),
        Sample("eps=0.2, method", lambda x: x.logit(eps=0.2), [_in(0.25, 0.75)(4, seed=2)]),
    ]
    s["logit_"] = [Sample("method on a clone", lambda x: x.clone().logit_(0.05), [_in(0.1, 0.9)(3)])]
    s["nan_to_num"] = [Sample("keywords", lambda x: gradgen.nan_to_num(x, nan=0.0, posinf=1.0), [leaf(4)])]
    s["nan_to_num_"] = [Sample("method on a clone", lambda x: x.clone().nan_to_num_(), [leaf(3)])]
    b = binary
    s["atan2"] = b(gradgen.atan2)
    s["atan2_"] = [Sample("method on a clone", lambda a, c: a.clone().atan2_(c), [leaf(2, 3, seed=1), leaf(3, seed=2)])]
    for op in ["fmod", "remainder"]:
        s[op + ".Tensor"] = b(getattr(gradgen, op), leaf, away_from_zero)
        s[op + "_.Tensor"] = [
            Sample(
                "method on a clone",
                lambda a, c, op=op: getattr(a.clone(), op + "_")(c),
                [leaf(3, seed=1), away_from_zero(3, seed=2)],
            )
        ]
        s[op + ".Scalar"] = [Sample("0.7", lambda a, op=op: getattr(gradgen, op)(a, 0.7), [leaf(2, 3)])]
        s[op + "_.Scalar"] = [
            Sample("method on a clone", lambda a, op=op: getattr(a.clone(), op + "_")(-0.6), [leaf(3)])
        ]
    s["div.Tensor_mode"] = b(lambda a, c: gradgen.div(a, c, rounding_mode="floor"), leaf, away_from_zero) + [
        Sample("None, method", lambda a, c: a.div(c, rounding_mode=None), [leaf(3, seed=7), away_from_zero(3, seed=8)])
    ]
    s["div_.Tensor_mode"] = [
        Sample(
            "method on a clone",
            lambda a, c: a.clone().div_(c, rounding_mode="trunc"),
            [leaf(3, seed=1), away_from_zero(3, seed=2)],
        )
    ]
    for op in ["maximum", "minimum", "fmax", "fmin", "hypot"]:
        s[op] = b(getattr(gradgen, op))
    s["hypot_"] = [Sample("method on a clone", lambda a, c: a.clone().hypot_(c), [leaf(3, seed=1), leaf(3, seed=2)])]
    s["lerp.Scalar"] = b(lambda a, c: gradgen.lerp(a, c, 0.3))
    s["lerp.Tensor"] = [Sample("function", gradgen.lerp, [leaf(2, 3, seed=1), leaf(3, seed=2), leaf(2, 1, seed=3)])]
    s["lerp_.Scalar"] = [
        Sample("method on a clone", lambda a, c: a.clone().lerp_(c, 0.7), [leaf(3, seed=1), leaf(3, seed=2)])
    ]
    s["lerp_.Tensor"] = [
        Sample(
            "method on a clone",
            lambda a, c, w: a.clone().lerp_(c, w),
            [leaf(3, seed=1), leaf(3, seed=2), leaf(3, seed=3)],
        )
    ]
    s["addcmul"] = [
        Sample(
            "value=2",
            lambda a, c, d: gradgen.addcmul(a, c, d, value=2),
            [leaf(2, 3, seed=1), leaf(3, seed=2), leaf(2, 1, seed=3)],
        )
    ]
    s["addcmul_"] = [
        Sample(
            "method on a clone",
            lambda a, c, d: a.clone().addcmul_(c, d),
            [leaf(3, seed=1), leaf(3, seed=2), leaf(3, seed=3)],
        )
    ]
    s["addcdiv"] = [
        Sample(
            "value=0.5",
            lambda a, c, d: a.addcdiv(c, d, value=0.5),
            [leaf(2, 3, seed=1), leaf(3, seed=2), away_from_zero(2, 1, seed=3)],
        )
    ]
    s["addcdiv_"] = [
        Sample(
            "method on a clone",
            lambda a, c, d: a.clone().addcdiv_(c, d),
            [leaf(3, seed=1), leaf(3, seed=2), away_from_zero(3, seed=3)],
        )
    ]
    s["clamp_min"] = [Sample("function", lambda a: gradgen.clamp_min(a, 0.25), [away_from_zero(4)])]
    s["clamp_min_"] = [Sample("method on a clone", lambda a: a.clone().clamp_min_(-0.25), [away_from_zero(4)])]
    s["clamp_max"] = [Sample("method", lambda a: a.clamp_max(0.25), [away_from_zero(4)])]
    s["clamp_max_"] = [
        Sample("function on a clone", lambda a: gradgen.clamp_max_(a.clone(), -0.25), [away_from_zero(4)])
    ]
    bound = _in(-0.3, 0.3)
    s["clamp.Tensor"] = [
        Sample(
            "min and max",
            lambda a, lo, hi: gradgen.clamp(a, lo, hi + 1),
            [away_from_zero(2, 3, seed=1), bound(3, seed=2), bound(3, seed=3)],
        ),
        Sample("min only, method", lambda a, lo: a.clamp(min=lo), [away_from_zero(3, seed=4), bound(3, seed=5)]),
    ]
    s["clamp_.Tensor"] = [
        Sample(
            "method on a clone", lambda a, lo: a.clone().clamp_(max=lo), [away_from_zero(3, seed=1), bound(3, seed=2)]
        )
    ]
    s["copysign.Tensor"] = b(gradgen.copysign, away_from_zero, away_from_zero)
    s["copysign_.Tensor"] = [
        Sample(
            "method on a clone",
            lambda a, c: a.clone().copysign_(c),
            [away_from_zero(3, seed=1), away_from_zero(3, seed=2)],
        )
    ]
    s["copysign.Scalar"] = [Sample("-1.0", lambda a: gradgen.copysign(a, -1.0), [away_from_zero(4)])]
    s["copysign_.Scalar"] = [Sample("method on a clone", lambda a: a.clone().copysign_(2), [away_from_zero(4)])]
    s["xlogy.Tensor"] = b(gradgen.xlogy, leaf, positive)
    s["xlogy.Scalar_Other"] = [Sample("2.5", lambda a: gradgen.xlogy(a, 2.5), [leaf(4)])]
    s["xlogy.Scalar_Self"] = [Sample("2.5", lambda c: gradgen.xlogy(2.5, c), [positive(4)])]
    s["xlogy_.Tensor"] = [
        Sample("method on a clone", lambda a, c: a.clone().xlogy_(c), [leaf(3, seed=1), positive(3, seed=2)])
    ]
    s["xlogy_.Scalar_Other"] = [Sample("function on a clone", lambda a: gradgen.xlogy_(a.clone(), 3.0), [leaf(3)])]
    cond = bools([[True, False, True], [False, False, True]])
    s["where.ScalarSelf"] = [Sample("1.5", lambda o: gradgen.where(cond, 1.5, o), [leaf(2, 3)])]
    s["where.ScalarOther"] = [Sample("method, 0.5", lambda a: a.where(cond, 0.5), [leaf(2, 3)])]
    return s


def _tensorops_value_checks():
    def same(got, want):
        g, w = flat(got.tolist()), flat(want.tolist())
        assert got.dtype == want.dtype and list(got.shape) == list(want.shape), (got, want)
        for x, y in zip(g, w):
            assert x == y or (x != x and y != y) or abs(x - y) <= 1e-12 * (1 + abs(y)), (g, w)

    def out_check(call, ref, make_inputs, name):
        def check():
            xs = make_inputs()
            want = ref(*xs)
            out = gradgen.zeros(list(want.shape), dtype=want.dtype)
            assert call(*xs, out) is out
            same(out, want)
            with pytest.raises((RuntimeError, ValueError), match=name):
                call(*[leaf(*x.shape) if x.dtype == gradgen.float64 else x for x in xs], out)

        return check

    checks = {}
    one = lambda: [value(2, 3, seed=1).abs() + 0.5]  # noqa: E731
    for op in [
        "log1p",
        "expm1",
        "log2",
        "log10",
        "exp2",
        "rsqrt",
        "square",
        "erf",
        "erfc",
        "lgamma",
        "digamma",
        "atan",
        "sinh",
        "cosh",
        "asinh",
        "tan",
        "floor",
        "ceil",
        "round",
        "trunc",
        "frac",
        "sgn",
    ]:
        checks[op + ".out"] = out_check(
            lambda x, o, op=op: getattr(gradgen, op)(x, out=o), getattr(gradgen, op), one, op + ".out"
        )
    small = lambda: [value(2, 3, seed=1) * 0.5]  # noqa: E731
    for op in ["erfinv", "asin", "acos", "atanh"]:
        checks[op + ".out"] = out_check(
            lambda x, o, op=op: getattr(gradgen, op)(x, out=o), getattr(gradgen, op), small, op + ".out"
        )
    checks["acosh.out"] = out_check(
        lambda x, o: gradgen.acosh(x, out=o), gradgen.acosh, lambda: [value(3).abs() + 1.5], "acosh.out"
    )
    checks["polygamma.out"] = out_check(
        lambda x, o: gradgen.polygamma(2, x, out=o), lambda x: gradgen.polygamma(2, x), one, "polygamma.out"
    )
    checks["round.decimals_out"] = out_check(
        lambda x, o: gradgen.round(x, decimals=1, out=o),
        lambda x: gradgen.round(x, decimals=1),
        one,
        "round.decimals_out",
    )
    checks["logit.out"] = out_check(
        lambda x, o: gradgen.logit(x, 0.1, out=o), lambda x: gradgen.logit(x, 0.1), small, "logit.out"
    )
    checks["nan_to_num.out"] = out_check(
        lambda x, o: gradgen.nan_to_num(x, out=o), gradgen.nan_to_num, one, "nan_to_num.out"
    )
    checks["logical_not.out"] = out_check(
        lambda x, o: gradgen.logical_not(x, out=o), gradgen.logical_not, one, "logical_not.out"
    )

    def inplace_without_derivative():
        for op in ["asinh", "acosh", "atanh"]:
            x = (
                gradgen.tensor([1.5, 2.0], dtype=gradgen.float64)
                if op == "acosh"
                else gradgen.tensor([0.25, -0.5], dtype=gradgen.float64)
            )
            same(getattr(x.clone(), op + "_")(), getattr(gradgen, op)(x))
            y = gradgen.tensor(x.tolist(), dtype=gradgen.float64, requires_grad=True).clone()
            getattr(y, op + "_")()
            with pytest.raises(RuntimeError, match="not implemented"):
                y.sum().backward()

    for op in ["asinh_", "acosh_", "atanh_"]:
        checks[op] = inplace_without_derivative

    def tests():
        x = gradgen.tensor([1.0, float("nan"), float("inf"), -float("inf"), 0.0], dtype=gradgen.float64)
        assert gradgen.isnan(x).tolist() == [False, True, False, False, False]
        assert x.isinf().tolist() == [False, False, True, True, False]
        assert gradgen.isfinite(x).tolist() == [True, False, False, False, True]
        assert gradgen.logical_not(x).tolist() == [False, False, False, False, True]
        assert gradgen.isfinite(longs([1, 2])).tolist() == [True, True]

    for op in ["isnan", "isinf", "isfinite", "logical_not"]:
        checks[op] = tests

    def logit_backward():
        g = value(3, seed=1)
        x = gradgen.tensor([0.1, 0.5, 0.95], dtype=gradgen.float64)
        got = flat(gradgen.logit_backward(g, x, eps=0.2).tolist())
        want = [0.0, flat(g.tolist())[1] / 0.25, 0.0]
        assert all(abs(a - b) <= 1e-12 for a, b in zip(got, want)), (got, want)

    checks["logit_backward"] = logit_backward

    def floor_divide():
        a = gradgen.tensor([7.5, -7.5, 1.0], dtype=gradgen.float64)
        c = gradgen.tensor([2.0, 2.0, -0.5], dtype=gradgen.float64)
        assert gradgen.floor_divide(a, c).tolist() == [3.0, -4.0, -2.0]
        assert a.floor_divide(2).tolist() == [3.0, -4.0, 0.0]
        assert a.clone().floor_divide_(c).tolist() == [3.0, -4.0, -2.0]
        assert gradgen.floor_divide(longs([7, -7]), longs([2, 2])).tolist() == [3, -4]
        out = gradgen.zeros([3], dtype=gradgen.float64)
        assert gradgen.floor_divide(a, c, out=out) is out and out.tolist() == [3.0, -4.0, -2.0]
        with pytest.raises(RuntimeError, match="floor_divide"):
            gradgen.floor_divide(leaf(3), c).sum().backward()

    for op in ["floor_divide", "floor_divide_.Tensor", "floor_divide.out", "floor_divide.Scalar"]:
        checks[op] = floor_divide

    two = lambda: [value(2, 3, seed=1), value(3, seed=2).abs() + 0.5]  # noqa: E731
    binary_out = {
        "atan2.out": ("atan2", {}),
        "fmod.Tensor_out": ("fmod", {}),
        "remainder.Tensor_out": ("remainder", {}),
        "maximum.out": ("maximum", {}),
        "minimum.out": ("minimum", {}),
        "fmax.out": ("fmax", {}),
        "fmin.out": ("fmin", {}),
        "hypot.out": ("hypot", {}),
        "copysign.out": ("copysign", {}),
        "xlogy.OutTensor": ("xlogy", {}),
        "div.out_mode": ("div", {"rounding_mode": "floor"}),
        "logical_and.out": ("logical_and", {}),
        "logical_or.out": ("logical_or", {}),
        "logical_xor.out": ("logical_xor", {}),
        "max.out": ("max", {}),
        "min.out": ("min", {}),
    }
    for name, (op, kw) in binary_out.items():
        checks[name] = out_check(
            lambda a, c, o, op=op, kw=kw: getattr(gradgen, op)(a, c, out=o, **kw),
            lambda a, c, op=op, kw=kw: getattr(gradgen, op)(a, c, **kw),
            two,
            name.split(".")[0],
        )
    scalar_out = {
        "fmod.Scalar_out": lambda a, o=None: gradgen.fmod(a, 0.7, **({"out": o} if o is not None else {})),
        "remainder.Scalar_out": lambda a, o=None: gradgen.remainder(a, -0.7, **({"out": o} if o is not None else {})),
        "clamp_min.out": lambda a, o=None: gradgen.clamp_min(a, 0.1, **({"out": o} if o is not None else {})),
        "clamp_max.out": lambda a, o=None: gradgen.clamp_max(a, 0.1, **({"out": o} if o is not None else {})),
        "copysign.Scalar_out": lambda a, o=None: gradgen.copysign(a, -1.0, **({"out": o} if o is not None else {})),
        "xlogy.OutScalar_Other": lambda a, o=None: gradgen.xlogy(a, 2.5, **({"out": o} if o is not None else {})),
        "xlogy.OutScalar_Self": lambda a, o=None: gradgen.xlogy(
            2.5, a.abs() + 0.5, **({"out": o} if o is not None else {})
        ),
        "lerp.Scalar_out": lambda a, o=None: gradgen.lerp(a, a * 2, 0.25, **({"out": o} if o is not None else {})),
    }
    for name, f in scalar_out.items():
        checks[name] = out_check(lambda a, o, f=f: f(a, o), f, lambda: [value(2, 3, seed=3)], name.split(".")[0])
    three = lambda: [value(2, 3, seed=1), value(3, seed=2), value(3, seed=3).abs() + 0.5]  # noqa: E731
    ternary_out = {
        "lerp.Tensor_out": lambda a, c, d, o=None: gradgen.lerp(a, c, d, **({"out": o} if o is not None else {})),
        "addcmul.out": lambda a, c, d, o=None: gradgen.addcmul(
            a, c, d, value=2, **({"out": o} if o is not None else {})
        ),
        "addcdiv.out": lambda a, c, d, o=None: gradgen.addcdiv(a, c, d, **({"out": o} if o is not None else {})),
        "clamp.Tensor_out": lambda a, c, d, o=None: gradgen.clamp(a, c, c + d, **({"out": o} if o is not None else {})),
    }
    for name, f in ternary_out.items():
        checks[name] = out_check(lambda a, c, d, o, f=f: f(a, c, d, o), f, three, name.split(".")[0])

    def logical():
        a = gradgen.tensor([0.0, 1.0, float("nan"), 2.0], dtype=gradgen.float64)
        c = longs([1, 0, 0, 3])
        assert gradgen.logical_and(a, c).tolist() == [False, False, False, True]
        assert a.logical_or(c).tolist() == [True, True, True, True]
        assert gradgen.logical_xor(a, c).tolist() == [True, True, True, False]

    for op in ["logical_and", "logical_or", "logical_xor"]:
        checks[op] = logical

    def bitwise():
        a, c = longs([12, -7, 0, 5]), longs([10, 3, -1, 5])
        assert gradgen.bitwise_and(a, c).tolist() == [8, 1, 0, 5]
        assert a.bitwise_or(c).tolist() == [14, -5, -1, 5]
        assert gradgen.bitwise_xor(a, c).tolist() == [6, -6, -1, 0]
        assert gradgen.bitwise_and(a, 6).tolist() == [4, 0, 0, 4]
        assert a.bitwise_or(1).tolist() == [13, -7, 1, 5]
        assert gradgen.bitwise_xor(bools([True, False]), True).tolist() == [False, True]
        assert gradgen.bitwise_not(a).tolist() == [-13, 6, -1, -6]
        assert bools([True, False]).bitwise_not().tolist() == [False, True]
        with pytest.raises(RuntimeError, match="bitwise_and"):
            gradgen.bitwise_and(value(2), value(2))

    for op in [
        "bitwise_and.Tensor",
        "bitwise_and.Scalar",
        "bitwise_or.Tensor",
        "bitwise_or.Scalar",
        "bitwise_xor.Tensor",
        "bitwise_xor.Scalar",
        "bitwise_not",
    ]:
        checks[op] = bitwise

    def where_scalars():
        cond = bools([True, False])
        r = gradgen.where(cond, 1.0, 2.5)
        assert r.dtype == gradgen.float32 and r.tolist() == [1.0, 2.5]
        r = gradgen.where(cond, 1, -2)
        assert r.dtype == gradgen.int64 and r.tolist() == [1, -2]

    checks["where.Scalar"] = where_scalars

    def number_first():
        e = value(2, 3, seed=4).abs() + 0.5
        same(gradgen.remainder(2.5, e), gradgen.remainder(gradgen.full([2, 3], 2.5, dtype=gradgen.float64), e))
        out = gradgen.zeros([2, 3], dtype=gradgen.float64)
        assert gradgen.pow(2.5, e, out=out) is out
        same(out, gradgen.pow(gradgen.full([2, 3], 2.5, dtype=gradgen.float64), e))
        with pytest.raises(RuntimeError, match="remainder"):
            gradgen.remainder(2.5, leaf(3)).sum().backward()
        with pytest.raises((RuntimeError, ValueError), match="pow"):
            gradgen.pow(2.5, leaf(3), out=gradgen.zeros([3], dtype=gradgen.float64))

    checks["remainder.Scalar_Tensor"] = number_first
    checks["pow.Scalar_out"] = number_first

    def extremum_out():
        a = value(2, 3, seed=5)
        for op in ("max", "min"):
            out = gradgen.zeros([], dtype=gradgen.float64)
            assert getattr(gradgen, op)(a, out=out) is out
            same(out, getattr(gradgen, op)(a))

    checks["max.unary_out"] = extremum_out
    checks["min.unary_out"] = extremum_out
    return checks


SAMPLES.update(_tensorops_samples())
VALUE_CHECKS.update(_tensorops_value_checks())


def _tensorops_reduction_samples() -> Dict[str, List[Sample]]:
    s: Dict[str, List[Sample]] = {
        "amax": [
            Sample("dim 1", lambda x: gradgen.amax(x, 1), [leaf(2, 3)]),
            Sample("method, all", lambda x: x.amax(), [leaf(4)]),
        ],
        "amin": [Sample("dims keepdim", lambda x: gradgen.amin(x, [0, 1], keepdim=True), [leaf(2, 3)])],
        "max": [Sample("method", lambda x: x.max(), [leaf(2, 3)])],
        "min": [Sample("function", lambda x: gradgen.min(x), [leaf(2, 3)])],
        "min.dim": [Sample("values", lambda x: gradgen.min(x, 1)[0], [leaf(2, 3)])],
        "max.other": binary(gradgen.max),
        "min.other": [Sample("method", lambda a, b: a.min(b), [leaf(3, seed=1), leaf(3, seed=2)])],
        "nansum": [Sample("dim 0", lambda x: gradgen.nansum(x, 0), [leaf(2, 3)])],
        "nanmean": [Sample("method", lambda x: x.nanmean(), [leaf(2, 3)])],
        "prod": [Sample("function", gradgen.prod, [leaf(4)])],
        "prod.dim_int": [Sample("dim 1 keepdim", lambda x: x.prod(1, keepdim=True), [leaf(2, 3)])],
        "cumsum": [Sample("dim 1", lambda x: gradgen.cumsum(x, 1), [leaf(2, 3)])],
        "cumsum_": [Sample("method on a clone", lambda x: x.clone().cumsum_(0), [leaf(3)])],
        "var.correction": [Sample("dim 1, correction 0", lambda x: gradgen.var(x, 1, correction=0), [leaf(2, 3)])],
        "std.correction": [Sample("method", lambda x: x.std(), [leaf(2, 3)])],
        "var_mean.correction": [
            Sample("both", lambda x: gradgen.var_mean(x, 0)[0] + gradgen.var_mean(x, 0)[1], [leaf(3, 2)])
        ],
        "std_mean.correction": [Sample("both", lambda x: gradgen.std_mean(x)[0] * gradgen.std_mean(x)[1], [leaf(4)])],
    }
    return s


def _tensorops_reduction_checks():
    def out():
        x = value(2, 3, seed=1)
        o = gradgen.zeros([2], dtype=gradgen.float64)
        assert gradgen.amax(x, 1, out=o) is o and o.tolist() == gradgen.amax(x, 1).tolist()
        o = gradgen.zeros([3], dtype=gradgen.float64)
        assert gradgen.amin(x, 0, out=o) is o and o.tolist() == gradgen.amin(x, 0).tolist()
        with pytest.raises(RuntimeError, match="amax.out"):
            gradgen.amax(leaf(2, 3), 1, out=gradgen.zeros([2], dtype=gradgen.float64))

    def indices_and_bools():
        x = gradgen.tensor([[1.0, 5.0, 1.0], [7.0, 0.0, 0.0]], dtype=gradgen.float64)
        assert gradgen.argmin(x).tolist() == 4
        assert x.argmin(1).tolist() == [0, 1]
        assert gradgen.all(x).tolist() is False and x.any().tolist() is True
        assert gradgen.all(x, 0).tolist() == [True, False, False] and x.any(1, keepdim=True).tolist() == [
            [True],
            [True],
        ]
        assert gradgen.count_nonzero(x).tolist() == 4 and x.count_nonzero(0).tolist() == [2, 1, 1]
        assert gradgen.count_nonzero(x, [0, 1]).tolist() == 4

    return {
        "amax.out": out,
        "amin.out": out,
        **{
            op: indices_and_bools
            for op in ["argmin", "all", "all.dim", "any", "any.dim", "count_nonzero", "count_nonzero.dim_IntList"]
        },
    }


SAMPLES.update(_tensorops_reduction_samples())
VALUE_CHECKS.update(_tensorops_reduction_checks())


def _declared() -> List[str]:
    with open(os.path.join(SPECS, "native_functions.yaml")) as f:
        return [e["func"].split("(")[0] for e in yaml.safe_load(f)]


def test_every_declaration_has_samples():
    declared = _declared()
    missing = [n for n in declared if n not in SAMPLES and n not in VALUE_CHECKS]
    assert not missing, f"declared ops without Python samples in tests/python/test_ops.py: {missing}"
    unknown = sorted((set(SAMPLES) | set(VALUE_CHECKS)) - set(declared))
    assert not unknown, f"samples for ops that are not declared: {unknown}"


def pytest_generate_tests(metafunc):
    # Parametrized at collection, once the whole module has run: the families below add their
    # samples (SAMPLES.update) after these tests are defined, and a parametrize decorator here
    # would read only the samples added so far.
    if metafunc.function is test_gradients:
        metafunc.parametrize(
            "op, sample",
            [(op, s) for op, samples in SAMPLES.items() for s in samples],
            ids=lambda v: v if isinstance(v, str) else v.desc,
        )
    elif metafunc.function is test_values:
        metafunc.parametrize("op", sorted(VALUE_CHECKS))


def test_gradients(op, sample):
    gradcheck(sample.fn, sample.inputs)
    if sample.second:
        gradgradcheck(sample.fn, sample.inputs)


def test_values(op):
    VALUE_CHECKS[op]()


def test_a_wrong_gradient_is_caught():
    """The checker itself: a function whose gradient is deliberately wrong must fail."""

    def wrong(x):
        # x * x with the graph of x * (a detached copy of x): the gradient misses half.
        return gradgen.mul(x, x.detach())

    with pytest.raises(AssertionError, match="gradient mismatch"):
        gradcheck(wrong, [leaf(3)])


def test_to_converts_dtype_and_float32_gradients_flow_back():
    x = gradgen.tensor([1.5, -2.0], dtype=gradgen.float64, requires_grad=True)
    y = x.to(gradgen.float32)
    assert y.dtype == gradgen.float32
    check_values(y, [1.5, -2.0])
    (g,) = gradgen.autograd.grad([y.sum()], [x])
    assert g.dtype == gradgen.float64
    check_values(g, [1.0, 1.0])


def _probabilities(*shape: int, seed: int = 0) -> gradgen.Tensor:
    return gradgen.tensor(_rand(shape, seed, 0.1, 0.9), dtype=gradgen.float64, requires_grad=True)


def _signs(n: int) -> gradgen.Tensor:
    return gradgen.tensor([1.0 if i % 3 else -1.0 for i in range(n)], dtype=gradgen.float64)


def _nn_loss_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    p = _probabilities
    return {
        "l1_loss": [Sample("Sum", lambda a, b: g.l1_loss(a, b * 0.1, 2), [away_from_zero(2, 3), leaf(2, 3, seed=1)])],
        "smooth_l1_loss": [
            Sample("beta", lambda a, b: g.smooth_l1_loss(a, b, beta=0.4), [leaf(2, 3), leaf(2, 3, seed=1)])
        ],
        "smooth_l1_loss_backward": [
            Sample(
                "None",
                lambda o, a, b: g.smooth_l1_loss_backward(o, a, b, 0, 0.4),
                [leaf(3), leaf(3, seed=1), leaf(3, seed=2)],
            )
        ],
        "huber_loss": [Sample("delta", lambda a, b: g.huber_loss(a, b, delta=0.4), [leaf(2, 3), leaf(2, 3, seed=1)])],
        "huber_loss_backward": [
            Sample(
                "Mean",
                lambda o, a, b: g.huber_loss_backward(o, a, b, 1, 0.4),
                [leaf(), leaf(3, seed=1), leaf(3, seed=2)],
            )
        ],
        "soft_margin_loss": [Sample("Mean", lambda a: g.soft_margin_loss(a, _signs(4)), [leaf(4)])],
        "soft_margin_loss_backward": [
            Sample("Sum", lambda o, a: g.soft_margin_loss_backward(o, a, _signs(4), 2), [leaf(), leaf(4, seed=1)])
        ],
        "binary_cross_entropy": [
            Sample(
                "weight",
                lambda a, t: g.binary_cross_entropy(a, t, weight=positive(3).detach()),
                [p(2, 3), p(2, 3, seed=1)],
            )
        ],
        "binary_cross_entropy_backward": [
            Sample(
                "None",
                lambda o, a, t: g.binary_cross_entropy_backward(o, a, t, None, 0),
                [leaf(3), p(3, seed=1), p(3, seed=2)],
            )
        ],
        "binary_cross_entropy_with_logits": [
            Sample(
                "pos_weight",
                lambda a, t: g.binary_cross_entropy_with_logits(a, t, pos_weight=positive(3).detach()),
                [leaf(2, 3), p(2, 3, seed=1)],
            )
        ],
        "kl_div": [
            Sample("probabilities", lambda a, t: g.kl_div(a, t, 2), [leaf(2, 3), p(2, 3, seed=1)]),
            Sample("log_target", lambda a, t: g.kl_div(a, t, log_target=True), [leaf(2, 3), leaf(2, 3, seed=1)]),
        ],
        "margin_ranking_loss": [
            Sample(
                "margin", lambda a, b: g.margin_ranking_loss(a, b, _signs(5), margin=0.1), [leaf(5), leaf(5, seed=1)]
            )
        ],
    }


def _nn_loss_out_checks():
    g = gradgen

    def check(name, functional, with_out, shape, grad_output_shape=None):
        def run():
            args = [value(2, 3, seed=1), _probabilities(2, 3, seed=2).detach()]
            if grad_output_shape is not None:
                args = [value(*grad_output_shape, seed=3)] + args
            out = g.zeros(list(shape), dtype=g.float64)
            assert with_out(*args, out) is out
            check_values(out, flat(functional(*args).tolist()))

        return run

    return {
        "smooth_l1_loss.out": check(
            "smooth_l1_loss.out",
            lambda a, b: g.smooth_l1_loss(a, b, 1, 0.5),
            lambda a, b, o: g.smooth_l1_loss(a, b, 1, 0.5, out=o),
            [],
        ),
        "huber_loss.out": check(
            "huber_loss.out", lambda a, b: g.huber_loss(a, b, 0), lambda a, b, o: g.huber_loss(a, b, 0, out=o), [2, 3]
        ),
        "soft_margin_loss.out": check(
            "soft_margin_loss.out",
            lambda a, b: g.soft_margin_loss(a, b, 2),
            lambda a, b, o: g.soft_margin_loss(a, b, 2, out=o),
            [],
        ),
        "binary_cross_entropy.out": check(
            "binary_cross_entropy.out",
            lambda a, t: g.binary_cross_entropy(t, t, None, 0),
            lambda a, t, o: g.binary_cross_entropy(t, t, None, 0, out=o),
            [2, 3],
        ),
        "smooth_l1_loss_backward.grad_input": check(
            "smooth_l1_loss_backward.grad_input",
            lambda o, a, b: g.smooth_l1_loss_backward(o, a, b, 0, 0.5),
            lambda o, a, b, out: g.smooth_l1_loss_backward(o, a, b, 0, 0.5, grad_input=out),
            [2, 3],
            [2, 3],
        ),
        "huber_loss_backward.out": check(
            "huber_loss_backward.out",
            lambda o, a, b: g.huber_loss_backward(o, a, b, 1, 0.5),
            lambda o, a, b, out: g.huber_loss_backward(o, a, b, 1, 0.5, grad_input=out),
            [2, 3],
            [],
        ),
        "soft_margin_loss_backward.grad_input": check(
            "soft_margin_loss_backward.grad_input",
            lambda o, a, b: g.soft_margin_loss_backward(o, a, b, 0),
            lambda o, a, b, out: g.soft_margin_loss_backward(o, a, b, 0, grad_input=out),
            [2, 3],
            [2, 3],
        ),
        "binary_cross_entropy_backward.grad_input": check(
            "binary_cross_entropy_backward.grad_input",
            lambda o, a, t: g.binary_cross_entropy_backward(o, t, t, None, 2),
            lambda o, a, t, out: g.binary_cross_entropy_backward(o, t, t, None, 2, grad_input=out),
            [2, 3],
            [],
        ),
    }


SAMPLES.update(_nn_loss_samples())
VALUE_CHECKS.update(_nn_loss_out_checks())


def _nn_pad_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    out = {
        "constant_pad_nd": [Sample("crop and pad", lambda x: g.constant_pad_nd(x, [-1, 2], 0.5), [leaf(2, 3)])],
        "_pad_circular": [Sample("1-D", lambda x: g._pad_circular(x, [1, 2]), [leaf(1, 2, 3)])],
        "pad": [
            Sample("reflect", lambda x: g.pad(x, [2, 1], mode="reflect"), [leaf(1, 2, 3)]),
            Sample("constant", lambda x: g.pad(x, [1, 1, 0, 1], value=2.0), [leaf(2, 3)]),
        ],
    }
    for op, pad, shape in [
        ("reflection_pad1d", [2, 1], (2, 4)),
        ("replication_pad1d", [2, 1], (2, 4)),
        ("reflection_pad2d", [1, 2, 2, 0], (1, 3, 3)),
        ("replication_pad2d", [1, 2, 2, 0], (1, 3, 3)),
    ]:
        padded = list(shape)
        padded[-1] += pad[0] + pad[1]
        if len(pad) == 4:
            padded[-2] += pad[2] + pad[3]
        out[op] = [Sample("padding", lambda x, op=op, pad=pad: getattr(g, op)(x, pad), [leaf(*shape)])]
        out[op + "_backward"] = [
            Sample(
                "padding",
                lambda o, x, op=op, pad=pad: getattr(g, op + "_backward")(o, x, pad),
                [leaf(*padded), leaf(*shape, seed=1)],
            )
        ]
    return out


def _nn_pad_out_checks():
    g = gradgen
    checks = {}
    for op, pad, shape in [
        ("reflection_pad1d", [2, 1], (2, 4)),
        ("replication_pad1d", [2, 1], (2, 4)),
        ("reflection_pad2d", [1, 2, 2, 0], (1, 3, 3)),
        ("replication_pad2d", [1, 2, 2, 0], (1, 3, 3)),
    ]:

        def forward(op=op, pad=pad, shape=shape):
            x = value(*shape)
            expected = getattr(g, op)(x, pad)
            out = g.zeros(list(expected.shape), dtype=g.float64)
            assert getattr(g, op)(x, pad, out=out) is out
            check_values(out, flat(expected.tolist()))

        def backward(op=op, pad=pad, shape=shape):
            x = value(*shape)
            grad = value(*getattr(g, op)(x, pad).shape, seed=1)
            expected = getattr(g, op + "_backward")(grad, x, pad)
            out = g.zeros(list(shape), dtype=g.float64)
            assert getattr(g, op + "_backward")(grad, x, pad, grad_input=out) is out
            check_values(out, flat(expected.tolist()))

        checks[op + ".out"] = forward
        checks[op + "_backward.grad_input"] = backward
    return checks


SAMPLES.update(_nn_pad_samples())
VALUE_CHECKS.update(_nn_pad_out_checks())


# ---------------------------------------------------------------------------------------------
# tensor ops, second batch (issue 23): shape ops
# ---------------------------------------------------------------------------------------------


def _tensor2_shape_samples() -> Dict[str, List[Sample]]:
    def total(pieces):
        return sum((p * (i + 1)).sum() for i, p in enumerate(pieces))

    return {
        "flatten.using_ints": [
            Sample("function", gradgen.flatten, [leaf(2, 3, 2)]),
            Sample("method, dims", lambda x: x.flatten(1, -1), [leaf(2, 3, 2)]),
            Sample("keywords", lambda x: gradgen.flatten(x, start_dim=0, end_dim=1), [leaf(2, 3, 2)]),
        ],
        "unflatten.int": [
            Sample("function", lambda x: gradgen.unflatten(x, 1, [2, 3]), [leaf(2, 6)]),
            Sample("method, -1", lambda x: x.unflatten(-1, (3, -1)), [leaf(2, 6)]),
        ],
        "movedim.intlist": [Sample("lists", lambda x: gradgen.movedim(x, [0, 1], [2, 0]), [leaf(2, 3, 4)])],
        "movedim.int": [Sample("method", lambda x: x.movedim(0, -1), [leaf(2, 3, 4)])],
        "broadcast_to": [
            Sample("function", lambda x: gradgen.broadcast_to(x, [2, 3]), [leaf(3)]),
            Sample("method, varargs", lambda x: x.broadcast_to(2, -1, 4), [leaf(3, 1)]),
        ],
        "tensor_split.sections": [
            Sample("function", lambda x: total(gradgen.tensor_split(x, 3)), [leaf(7, 2)]),
            Sample("method, dim", lambda x: total(x.tensor_split(2, dim=1)), [leaf(2, 5)]),
        ],
        "tensor_split.indices": [
            Sample("function", lambda x: total(gradgen.tensor_split(x, [1, 4])), [leaf(6, 2)]),
            Sample("method, dim", lambda x: total(x.tensor_split((-2, 9, 1), 1)), [leaf(2, 5)]),
        ],
        "tensor_split.tensor_indices_or_sections": [
            Sample(
                "1-element indices", lambda x: total(gradgen.tensor_split(x, gradgen.tensor([1]), dim=1)), [leaf(2, 3)]
            ),
            Sample("method, indices", lambda x: total(x.tensor_split(gradgen.tensor([1, 2]), 1)), [leaf(2, 3)]),
            Sample("0-dim sections", lambda x: total(gradgen.tensor_split(x, gradgen.tensor(3))), [leaf(7, 2)]),
        ],
        "flip": [
            Sample("function", lambda x: gradgen.flip(x, [0, 2]), [leaf(2, 3, 2)]),
            Sample("method, varargs", lambda x: x.flip(0, 1), [leaf(2, 3)]),
        ],
        "tril": [
            Sample("function", gradgen.tril, [leaf(3, 4)]),
            Sample("method, diagonal", lambda x: x.tril(-1), [leaf(2, 3, 3)]),
        ],
        "triu": [
            Sample("function, diagonal", lambda x: gradgen.triu(x, diagonal=1), [leaf(3, 4)]),
            Sample("method", lambda x: x.triu(), [leaf(2, 3, 3)]),
        ],
        "tril_": [Sample("method on a clone", lambda x: x.clone().tril_(1), [leaf(3, 3)])],
        "triu_": [Sample("method on a clone", lambda x: x.clone().triu_(-1), [leaf(3, 3)])],
        "repeat": [
            Sample("method, varargs", lambda x: x.repeat(2, 1, 3), [leaf(2, 3)]),
            Sample("method, a list", lambda x: x.repeat([2, 2]), [leaf(3)]),
        ],
        "tile": [
            Sample("function", lambda x: gradgen.tile(x, [2]), [leaf(2, 3)]),
            Sample("method, varargs", lambda x: x.tile(2, 1, 2), [leaf(2, 3)]),
        ],
        "squeeze.dims": [
            Sample("function", lambda x: gradgen.squeeze(x, [0, 2]), [leaf(1, 3, 1, 2)]),
            Sample("method, varargs", lambda x: x.squeeze(0, -1), [leaf(1, 3, 1)]),
        ],
        "narrow_copy": [
            Sample("function", lambda x: gradgen.narrow_copy(x, 1, 1, 2), [leaf(2, 4)]),
            # (A start from the end is not sampled: PyTorch's formula, slice_backward_wrapper of
            # [start, start + length), is empty for it, and PyTorch's backward raises too.)
            Sample("method", lambda x: x.narrow_copy(0, 1, 2), [leaf(3, 2)]),
        ],
        "diagonal": [
            Sample("function", gradgen.diagonal, [leaf(3, 4)]),
            Sample("method, keywords", lambda x: x.diagonal(offset=1, dim1=2, dim2=0), [leaf(3, 2, 4)]),
        ],
        "diagonal_backward": [
            Sample("function", lambda g: gradgen.diagonal_backward(g, [3, 4], 1, 0, 1), [leaf(3)]),
        ],
        "split_with_sizes": [
            Sample("function", lambda x: total(gradgen.split_with_sizes(x, [1, 3, 2])), [leaf(6, 2)]),
            Sample("method, dim", lambda x: total(x.split_with_sizes((2, 3), dim=-1)), [leaf(2, 5)]),
        ],
        "diag_embed": [
            Sample("function", gradgen.diag_embed, [leaf(2, 3)]),
            Sample("method, offset", lambda x: x.diag_embed(-1, 0, 2), [leaf(2, 3)]),
        ],
    }


def _tensor2_shape_checks():
    def out():
        x = value(3, 4)
        o = gradgen.zeros([3, 2], dtype=gradgen.float64)
        assert gradgen.narrow_copy(x, 1, 1, 2, out=o) is o and o.tolist() == x.narrow(1, 1, 2).tolist()
        for op in ("tril", "triu"):
            o = gradgen.zeros([3, 4], dtype=gradgen.float64)
            assert getattr(gradgen, op)(x, 1, out=o) is o
            assert o.tolist() == getattr(gradgen, op)(x, 1).tolist()

    def errors():
        x = value(2, 3)
        # PyTorch: IndexError "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
        for call in (
            lambda: gradgen.flatten(x, 0, 2),
            lambda: x.flip(2),
            lambda: gradgen.movedim(x, 0, -3),
            lambda: gradgen.unflatten(x, 2, [1, 3]),
            lambda: gradgen.tensor_split(x, 2, dim=-3),
            lambda: x.squeeze(0, 2),
            lambda: gradgen.diagonal(x, 0, 0, 2),
        ):
            with pytest.raises(
                IndexError,
                match=r"dim -?[23] out of range for a tensor with 2 dims \(expected to be in range of \[-2, 1\]\)",
            ):
                call()
        with pytest.raises(RuntimeError, match="tril: input tensor must have at least 2 dimensions"):
            gradgen.tril(value(3))
        with pytest.raises(RuntimeError, match="don't multiply up to the size of dim 1"):
            gradgen.unflatten(x, 1, [2, 2])
        with pytest.raises(RuntimeError, match="number of sections must be larger than 0"):
            gradgen.tensor_split(x, 0)
        # Not 2**40 empty views (the robustness test's hang): refused at once.
        with pytest.raises(RuntimeError, match="would make more than 1048576 empty tensors"):
            gradgen.tensor_split(x, 2**40)
        assert len(gradgen.tensor_split(x, 5)) == 5  # a few empty pieces are fine
        with pytest.raises(RuntimeError, match="repeated dim in `source`"):
            gradgen.movedim(x, [0, 0], [0, 1])
        with pytest.raises(RuntimeError, match="flip: dim 1 appears multiple times"):
            x.flip(1, -1)
        with pytest.raises(RuntimeError, match="squeeze: dim 0 appears multiple times"):
            gradgen.squeeze(value(1, 2), [0, -2])

    # The errors of every op of this batch, run with flatten's checks.
    def flatten_and_errors():
        assert gradgen.flatten(value(2, 3, 2), 1).shape == (2, 6)
        errors()

    return {"tril.out": out, "triu.out": out, "narrow_copy.out": out, "flatten.using_ints": flatten_and_errors}


SAMPLES.update(_tensor2_shape_samples())
VALUE_CHECKS.update(_tensor2_shape_checks())


def _nn_norm_conv_samples() -> Dict[str, List[Sample]]:
    """nn, second batch (issue 26): normalization and convolution. The backward ops' samples
    compute the statistics from the detached input (they follow it, as the formulas take them)."""
    g = gradgen

    def ln_stats(x, shape, w=None):
        return g.native_layer_norm(x.detach(), shape, None if w is None else w.detach(), None, 1e-5)[1:]

    def bn_stats(x):
        return g.native_batch_norm(x.detach(), None, None, None, None, True, 0.1, 1e-5)[1:]

    def gn_stats(x, n, c, hxw, group):
        return g.native_group_norm(x.detach(), None, None, n, c, hxw, group, 1e-5)[1:]

    return {
        "native_layer_norm": [
            Sample(
                "weight and bias",
                lambda x, w, b: g.native_layer_norm(x, [3], w, b, 1e-5)[0],
                [leaf(2, 3), leaf(3, seed=1), leaf(3, seed=2)],
            ),
        ],
        "native_layer_norm_backward": [
            Sample(
                "all gradients",
                lambda go, x, w: g.native_layer_norm_backward(
                    go, x, [3], *ln_stats(x, [3], w), w, None, [True, True, False]
                )[:2],
                [leaf(2, 3), leaf(2, 3, seed=1), leaf(3, seed=2)],
            ),
        ],
        "layer_norm": [Sample("defaults", lambda x: g.layer_norm(x, [2, 2]), [leaf(3, 2, 2)])],
        "native_batch_norm": [
            Sample(
                "training",
                lambda x, w, b: g.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)[0],
                [leaf(4, 2), leaf(2, seed=1), leaf(2, seed=2)],
            ),
            Sample(
                "evaluation",
                lambda x: g.native_batch_norm(
                    x, None, None, value(2, seed=3), positive(2, seed=4).detach(), False, 0.1, 1e-5
                )[0],
                [leaf(3, 2, 2)],
            ),
        ],
        "native_batch_norm_backward": [
            Sample(
                "training",
                lambda go, x, w: g.native_batch_norm_backward(
                    go, x, w, None, None, *bn_stats(x), True, 1e-5, [True, True, True]
                ),
                [leaf(4, 2), leaf(4, 2, seed=1), leaf(2, seed=2)],
            ),
        ],
        "batch_norm": [
            Sample(
                "training", lambda x: g.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, False), [leaf(3, 2, 2)]
            ),
        ],
        "native_group_norm": [
            Sample(
                "2 groups",
                lambda x, w, b: g.native_group_norm(x, w, b, 2, 4, 2, 2, 1e-5),
                [leaf(2, 4, 2), leaf(4, seed=1), leaf(4, seed=2)],
            ),
        ],
        "native_group_norm_backward": [
            Sample(
                "all gradients",
                lambda go, x, w: g.native_group_norm_backward(
                    go, x, *gn_stats(x, 2, 4, 2, 2), w, 2, 4, 2, 2, [True, True, True]
                ),
                [leaf(2, 4, 2), leaf(2, 4, 2, seed=1), leaf(4, seed=2)],
            ),
        ],
        "group_norm": [
            Sample(
                "weight and bias",
                lambda x, w, b: g.group_norm(x, 2, w, b),
                [leaf(2, 4, 3), leaf(4, seed=1), leaf(4, seed=2)],
            )
        ],
        "rms_norm": [Sample("weight", lambda x, w: g.rms_norm(x, [3], w), [leaf(2, 3), leaf(3, seed=1)])],
        "convolution": [
            Sample(
                "2-D groups",
                lambda x, w, b: g.convolution(x, w, b, [1], [1], [1], False, [0], 2),
                [leaf(1, 2, 3, 3), leaf(2, 1, 2, 2, seed=1), leaf(2, seed=2)],
            ),
            Sample(
                "transposed 1-D",
                lambda x, w: g.convolution(x, w, None, [2], [0], [1], True, [1], 1),
                [leaf(1, 2, 3), leaf(2, 1, 2, seed=3)],
            ),
        ],
        "convolution_backward": [
            Sample(
                "all gradients",
                lambda go, x, w: g.convolution_backward(
                    go, x, w, [2], [1], [0], [1], False, [0], 1, [True, True, True]
                ),
                [leaf(1, 2, 3), leaf(1, 2, 4, seed=1), leaf(2, 2, 2, seed=2)],
            ),
        ],
        "conv1d": [Sample("stride 2", lambda x, w: g.conv1d(x, w, None, 2), [leaf(1, 2, 5), leaf(2, 2, 2, seed=1)])],
        "conv2d": [
            Sample(
                "keywords",
                lambda x, w, b: g.conv2d(x, w, b, stride=1, padding=1),
                [leaf(1, 1, 3, 3), leaf(2, 1, 2, 2, seed=1), leaf(2, seed=2)],
            )
        ],
        "conv3d": [Sample("defaults", lambda x, w: g.conv3d(x, w), [leaf(1, 1, 2, 3, 3), leaf(1, 1, 2, 2, 2, seed=1)])],
        "conv1d.padding": [
            Sample("same", lambda x, w: g.conv1d(x, w, None, 1, "same"), [leaf(1, 1, 4), leaf(1, 1, 2, seed=1)])
        ],
        "conv2d.padding": [
            Sample("same", lambda x, w: g.conv2d(x, w, padding="same"), [leaf(1, 1, 3, 3), leaf(1, 1, 2, 3, seed=1)])
        ],
        "conv3d.padding": [
            Sample(
                "valid",
                lambda x, w: g.conv3d(x, w, padding="valid"),
                [leaf(1, 1, 2, 3, 3), leaf(1, 1, 2, 2, 2, seed=1)],
            )
        ],
        "conv_transpose1d": [
            Sample(
                "stride 2", lambda x, w: g.conv_transpose1d(x, w, None, 2, 0, 1), [leaf(1, 2, 3), leaf(2, 1, 2, seed=1)]
            )
        ],
        "conv_transpose2d.input": [
            Sample("defaults", lambda x, w: g.conv_transpose2d(x, w), [leaf(1, 1, 2, 2), leaf(1, 2, 2, 2, seed=1)])
        ],
        "conv_transpose3d.input": [
            Sample(
                "defaults", lambda x, w: g.conv_transpose3d(x, w), [leaf(1, 1, 2, 2, 2), leaf(1, 1, 2, 2, 2, seed=1)]
            )
        ],
    }


SAMPLES.update(_nn_norm_conv_samples())


def _nn_pool_samples() -> Dict[str, List[Sample]]:
    """nn, second batch (issue 26): pooling."""
    g = gradgen
    return {
        "max_pool2d_with_indices": [
            Sample(
                "padding, ceil_mode",
                lambda x: g.max_pool2d_with_indices(x, [2], [2], [1], [1], True)[0],
                [leaf(1, 1, 5, 5)],
            ),
        ],
        "max_pool2d_with_indices_backward": [
            Sample(
                "overlapping",
                lambda go, x: g.max_pool2d_with_indices_backward(
                    go, x, [2], [1], [0], [1], False, g.max_pool2d_with_indices(x.detach(), [2], [1])[1]
                ),
                [leaf(1, 2, 2), leaf(1, 3, 3, seed=1)],
            ),
        ],
        "max_pool2d": [Sample("kernel [2, 3]", lambda x: g.max_pool2d(x, [2, 3]), [leaf(1, 4, 6)])],
        "max_pool1d": [Sample("stride 2", lambda x: g.max_pool1d(x, [2], [2]), [leaf(2, 3, 6)])],
        "avg_pool2d": [
            Sample(
                "count_include_pad=False",
                lambda x: g.avg_pool2d(x, [3], [2], [1], count_include_pad=False),
                [leaf(1, 1, 5, 5)],
            ),
        ],
        "avg_pool2d_backward": [
            Sample(
                "divisor_override",
                lambda go, x: g.avg_pool2d_backward(go, x, [2], [2], [0], False, True, 3),
                [leaf(1, 2, 2), value(1, 4, 4, seed=1)],
            ),
        ],
    }


SAMPLES.update(_nn_pool_samples())


# ---------------------------------------------------------------------------------------------
# tensor ops, third batch (issue 23): products
# ---------------------------------------------------------------------------------------------


def _tensor3_product_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "dot": [
            Sample("function", g.dot, [leaf(3), leaf(3, seed=1)]),
            Sample("method, strided", lambda a, b: a[:, 1].dot(b), [leaf(3, 2), leaf(3, seed=1)]),
        ],
        "vdot": [Sample("method", lambda a, b: a.vdot(b), [leaf(4), leaf(4, seed=1)])],
        "outer": [
            Sample("function", g.outer, [leaf(3), leaf(2, seed=1)]),
            Sample("method", lambda a, b: a.outer(b), [leaf(2), leaf(3, seed=1)]),
        ],
        "ger": [Sample("method", lambda a, b: a.ger(b), [leaf(2), leaf(3, seed=1)])],
        "mv": [
            Sample("function", g.mv, [leaf(2, 3), leaf(3, seed=1)]),
            Sample("method, transposed", lambda m, v: m.t().mv(v), [leaf(3, 2), leaf(3, seed=1)]),
        ],
        "addmv": [
            Sample(
                "keywords",
                lambda s, m, v: g.addmv(s, m, v, beta=0.5, alpha=2),
                [leaf(2), leaf(2, 3, seed=1), leaf(3, seed=2)],
            ),
            Sample(
                "method, broadcast self", lambda s, m, v: s.addmv(m, v), [leaf(1), leaf(2, 3, seed=1), leaf(3, seed=2)]
            ),
        ],
        "addmv_": [
            Sample(
                "function on a clone",
                lambda s, m, v: g.addmv_(s.clone(), m, v, beta=2),
                [leaf(2), leaf(2, 3, seed=1), leaf(3, seed=2)],
            ),
        ],
        "addmm": [
            Sample(
                "keywords",
                lambda s, a, b: g.addmm(s, a, b, beta=-1, alpha=0.5),
                [leaf(2, 4), leaf(2, 3, seed=1), leaf(3, 4, seed=2)],
            ),
            Sample(
                "method, broadcast row",
                lambda s, a, b: s.addmm(a, b),
                [leaf(4), leaf(2, 3, seed=1), leaf(3, 4, seed=2)],
            ),
        ],
        "addmm_": [
            Sample(
                "method on a clone",
                lambda s, a, b: s.clone().addmm_(a, b, alpha=2),
                [leaf(2, 2), leaf(2, 3, seed=1), leaf(3, 2, seed=2)],
            ),
        ],
        "addbmm": [
            Sample(
                "function",
                lambda s, a, b: g.addbmm(s, a, b, beta=2),
                [leaf(2, 4), leaf(3, 2, 3, seed=1), leaf(3, 3, 4, seed=2)],
            ),
            Sample(
                "method",
                lambda s, a, b: s.addbmm(a, b, alpha=-1),
                [leaf(4), leaf(2, 2, 3, seed=1), leaf(2, 3, 4, seed=2)],
            ),
        ],
        "addbmm_": [
            Sample(
                "method on a clone",
                lambda s, a, b: s.clone().addbmm_(a, b),
                [leaf(2, 2), leaf(2, 2, 3, seed=1), leaf(2, 3, 2, seed=2)],
            ),
        ],
        "baddbmm": [
            Sample(
                "function",
                lambda s, a, b: g.baddbmm(s, a, b, alpha=0.5),
                [leaf(2, 2, 4), leaf(2, 2, 3, seed=1), leaf(2, 3, 4, seed=2)],
            ),
            Sample(
                "method, broadcast self",
                lambda s, a, b: s.baddbmm(a, b, beta=3),
                [leaf(4), leaf(2, 2, 3, seed=1), leaf(2, 3, 4, seed=2)],
            ),
        ],
        "baddbmm_": [
            Sample(
                "method on a clone",
                lambda s, a, b: s.clone().baddbmm_(a, b),
                [leaf(2, 2, 2), leaf(2, 2, 3, seed=1), leaf(2, 3, 2, seed=2)],
            ),
        ],
        "kron": [
            Sample("function", g.kron, [leaf(2, 3), leaf(2, 2, seed=1)]),
            Sample("method, fewer dims", lambda a, b: a.kron(b), [leaf(3), leaf(2, 2, seed=1)]),
        ],
        "trace": [Sample("method", lambda x: x.trace(), [leaf(3, 4)])],
        "cross": [
            Sample("function, dim", lambda a, b: g.cross(a, b, dim=1), [leaf(2, 3), leaf(2, 3, seed=1)]),
            Sample("method, dim 0", lambda a, b: a.cross(b, 0), [leaf(3, 2), leaf(3, 2, seed=1)]),
        ],
        "linalg_cross": [
            Sample("broadcast", lambda a, b: g.linalg_cross(a, b), [leaf(1, 3), leaf(4, 3, seed=1)]),
            Sample("dim keyword", lambda a, b: g.linalg_cross(a, b, dim=0), [leaf(3, 2), leaf(3, 2, seed=1)]),
        ],
        "tensordot": [
            Sample(
                "dims as an int (PyTorch's)",
                lambda a, b: g.tensordot(a, b, dims=2),
                [leaf(2, 3, 4), leaf(3, 4, 2, seed=1)],
            ),
            Sample(
                "dims as lists", lambda a, b: g.tensordot(a, b, ([0, 1], [2, 0])), [leaf(3, 2), leaf(2, 4, 3, seed=1)]
            ),
        ],
    }


def _tensor3_product_checks():
    g = gradgen

    def t(data):
        return g.tensor(data, dtype=g.float64)

    def longs(data):
        return g.tensor(data, dtype=g.int64)

    # PyTorch's answers (torch 2.13).
    a_batch = t([[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]])
    b_batch = t([[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]])

    def values():
        assert g.dot(t([1, 2, 3]), t([4, 5, 6])).tolist() == 32.0
        assert g.dot(longs([1, 2, 3]), longs([4, 5, 6])).dtype == g.int64
        assert t([1, 2, 3]).vdot(t([4, 5, 6])).tolist() == 32.0
        assert g.outer(t([1, 2]), t([3, 4, 5])).tolist() == [[3, 4, 5], [6, 8, 10]]
        assert g.mv(t([[1, 2], [3, 4]]), t([1, -1])).tolist() == [-1, -1]
        assert g.addmv(longs([1, 1]), longs([[1, 2], [3, 4]]), longs([1, -1]), beta=2, alpha=3).tolist() == [-1, -1]
        eye = t([[1, 0], [0, 1]])
        assert g.addmm(eye, t([[1, 2], [3, 4]]), eye, beta=0.5, alpha=2).tolist() == [[2.5, 4], [6, 8.5]]
        # beta = 0: self is ignored, its NaN does not propagate.
        assert g.addmm(t([[float("nan")]]), t([[1, 1]]), t([[1], [1]]), beta=0).tolist() == [[2.0]]
        assert g.addbmm(g.ones(2, 2, dtype=g.float64), a_batch, b_batch, beta=2, alpha=0.5).tolist() == [
            [93, 105],
            [138, 159],
        ]
        assert g.baddbmm(g.ones(2, dtype=g.float64), a_batch, b_batch, beta=-1).tolist() == [
            [[9, 12], [27, 39]],
            [[171, 192], [243, 273]],
        ]
        assert g.kron(longs([[1, 2], [3, 4]]), longs([[0, 1], [1, 0]])).tolist() == [
            [0, 1, 0, 2],
            [1, 0, 2, 0],
            [0, 3, 0, 4],
            [3, 0, 4, 0],
        ]
        assert longs([[1, 2], [3, 4]]).trace().tolist() == 5
        assert g.cross(t([[1, 0, 0], [0, 1, 0]]), t([[0, 1, 0], [0, 0, 1]]), dim=1).tolist() == [[0, 0, 1], [1, 0, 0]]
        assert g.tensordot(t([[0, 1, 2], [3, 4, 5]]), t([[0, 1], [2, 3], [4, 5]]), dims=1).tolist() == [
            [10, 13],
            [28, 40],
        ]
        o = g.zeros([0], dtype=g.float64)
        assert g.tensordot(t([[0, 1, 2], [3, 4, 5]]), t([[0, 1], [2, 3], [4, 5]]), dims=([1], [0]), out=o) is o
        assert o.tolist() == [[10, 13], [28, 40]]

    def out():
        x, y = value(3), value(3, seed=1)
        for op, args, shape in (
            ("dot", (x, y), []),
            ("vdot", (x, y), []),
            ("outer", (x, y), [3, 3]),
            ("ger", (x, y), [3, 3]),
            ("mv", (value(2, 3), x), [2]),
            ("addmv", (value(2), value(2, 3), x), [2]),
            ("addmm", (value(2, 2), value(2, 3), value(3, 2)), [2, 2]),
            ("addbmm", (value(2, 2), value(4, 2, 3), value(4, 3, 2)), [2, 2]),
            ("baddbmm", (value(4, 2, 2), value(4, 2, 3), value(4, 3, 2)), [4, 2, 2]),
            ("kron", (value(2), value(2, 2)), [2, 4]),
            ("linalg_cross", (value(2, 3), value(2, 3, seed=1)), [2, 3]),
        ):
            o = g.zeros(shape, dtype=g.float64)
            assert getattr(g, op)(*args, out=o) is o
            assert o.tolist() == getattr(g, op)(*args).tolist(), op
        o = g.zeros([2, 3], dtype=g.float64)
        assert g.cross(value(2, 3), value(2, 3, seed=1), dim=-1, out=o) is o
        # torch.linalg.cross's spelling.
        a, b = value(3, 2), value(3, 2, seed=1)
        assert g.linalg.cross(a, b, dim=0).tolist() == g.linalg_cross(a, b, dim=0).tolist()
        assert g.linalg.cross(a.t(), b.t()).tolist() == g.cross(a.t(), b.t(), 1).tolist()
        o = g.zeros([0], dtype=g.float64)
        assert g.linalg.cross(a, b, dim=0, out=o) is o and o.shape == (3, 2)

    def errors():
        with pytest.raises(RuntimeError, match=r"dot: 1D tensors expected, but got 2D and 1D tensors"):
            g.dot(value(2, 2), value(4))
        with pytest.raises(RuntimeError, match=r"inconsistent tensor size, expected tensor \[3\] and src \[4\]"):
            g.vdot(value(3), value(4))
        with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x4\)"):
            g.addmm(value(2, 4), value(2, 3), value(2, 4))
        with pytest.raises(RuntimeError, match=r"size mismatch, got input \(2\), mat \(2x3\), vec \(4\)"):
            g.addmv(value(2), value(2, 3), value(4))
        with pytest.raises(RuntimeError, match=r"batch1 and batch2 must have same number of batches, got 3 and 2"):
            g.baddbmm(value(2, 4), value(3, 2, 3), value(2, 3, 4))
        with pytest.raises(RuntimeError, match=r"output with shape \[4\] doesn't match the broadcast shape \[2, 4\]"):
            value(4).addmm_(value(2, 3), value(3, 4))
        with pytest.raises(RuntimeError, match=r"trace: expected a matrix, but got tensor with dim 1"):
            value(3).trace()
        with pytest.raises(RuntimeError, match=r"inputs dimension -1 must have length 3. Got 2 and 2"):
            g.linalg_cross(value(2, 2), value(2, 2))
        with pytest.raises(IndexError, match=r"dim 2 out of range for a tensor with 2 dims"):
            g.linalg_cross(value(2, 3), value(2, 3), dim=2)
        with pytest.raises(IndexError, match=r"dim 2 out of range for a tensor with 2 dims"):
            g.tensordot(value(2, 3), value(3, 2), dims=([2], [0]))
        with pytest.raises(RuntimeError, match=r"contracted dimensions need to match, but first has size 3 in dim 1"):
            g.tensordot(value(2, 3), value(2, 3), dims=([1], [0]))
        with pytest.raises(RuntimeError, match=r"tensordot expects dims >= 0, but got dims=-1"):
            g.tensordot(value(2), value(2), -1)

    def values_out_and_errors():
        values()
        out()
        errors()

    return {
        "dot.out": values_out_and_errors,
        "vdot.out": out,
        "outer.out": out,
        "ger.out": out,
        "mv.out": out,
        "addmv.out": out,
        "addmm.out": out,
        "addbmm.out": out,
        "baddbmm.out": out,
        "kron.out": out,
        "cross.out": out,
        "linalg_cross.out": out,
        "tensordot.out": values,
    }


SAMPLES.update(_tensor3_product_samples())
VALUE_CHECKS.update(_tensor3_product_checks())


# ---------------------------------------------------------------------------------------------
# tensor ops, third batch (issue 23): sorting and roll
# ---------------------------------------------------------------------------------------------


def _tensor3_sort_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "sort": [
            Sample("function", lambda x: g.sort(x).values, [leaf(2, 5)]),
            Sample("method, keywords", lambda x: x.sort(dim=0, descending=True)[0], [leaf(3, 4)]),
        ],
        "sort.stable": [Sample("stable=True", lambda x: g.sort(x, stable=True, dim=0).values, [leaf(3, 2)])],
        "argsort": [Sample("gathered", lambda x: x.gather(1, x.argsort(descending=True)), [leaf(2, 5)])],
        "argsort.stable": [Sample("gathered", lambda x: x.gather(1, g.argsort(x, stable=True)), [leaf(2, 5)])],
        "topk": [
            Sample("function", lambda x: g.topk(x, 2).values, [leaf(2, 5)]),
            Sample("method, smallest", lambda x: x.topk(k=3, dim=0, largest=False)[0], [leaf(4, 3)]),
        ],
        "roll": [
            Sample("flattened", lambda x: g.roll(x, 2), [leaf(2, 3)]),
            Sample("method, two dims", lambda x: x.roll((1, -1), (0, 1)), [leaf(3, 4)]),
        ],
    }


def _tensor3_sort_checks():
    g = gradgen
    ties = g.tensor([3.0, 1.0, 2.0, 1.0, 3.0, 0.0, -0.0, 2.0], dtype=g.float64)

    def values():
        # PyTorch's answers (torch 2.13): stable ties, NaN the largest, topk's selection order.
        assert g.sort(ties, descending=True).indices.tolist() == [0, 4, 2, 7, 1, 3, 5, 6]
        assert ties.sort().indices.tolist() == [5, 6, 1, 3, 2, 7, 0, 4]
        assert g.argsort(ties, stable=True).tolist() == [5, 6, 1, 3, 2, 7, 0, 4]
        r = g.sort(g.tensor([1.0, float("nan"), -float("inf"), 2.0], dtype=g.float64))
        assert r.indices.tolist() == [2, 0, 3, 1]
        assert r.values.tolist()[:3] == [-float("inf"), 1.0, 2.0] and r.values.tolist()[3] != r.values.tolist()[3]
        assert g.topk(ties, 3).indices.tolist() == [0, 4, 7]
        assert g.topk(ties, 3, largest=False).indices.tolist() == [6, 5, 3]
        m = g.tensor([[0, 1, 2], [3, 4, 5]], dtype=g.int64)
        assert g.roll(m, 1).tolist() == [[5, 0, 1], [2, 3, 4]]
        assert m.roll((1, -1), (0, 1)).tolist() == [[4, 5, 3], [1, 2, 0]]

    def out():
        x = value(2, 4)
        v, i = g.zeros([0], dtype=g.float64), g.zeros([0], dtype=g.int64)
        res = g.sort(x, 1, True, out=(v, i))
        assert res[0] is v and res[1] is i
        assert v.tolist() == g.sort(x, 1, True).values.tolist() and i.tolist() == x.argsort(1, True).tolist()
        v, i = g.zeros([2, 4], dtype=g.float64), g.zeros([2, 4], dtype=g.int64)
        g.sort(x, stable=True, out=(v, i))
        assert i.tolist() == x.argsort().tolist()
        v, i = g.zeros([2, 2], dtype=g.float64), g.zeros([2, 2], dtype=g.int64)
        g.topk(x, 2, out=(v, i))
        assert v.tolist() == g.topk(x, 2).values.tolist()
        o = g.zeros([2, 4], dtype=g.int64)
        assert g.argsort(x, stable=True, out=o) is o and o.tolist() == x.argsort().tolist()

    def errors():
        with pytest.raises(IndexError, match=r"sort: dim 2 out of range for a tensor with 2 dims"):
            g.sort(value(2, 3), 2)
        with pytest.raises(IndexError, match=r"topk: dim -3 out of range"):
            g.topk(value(2, 3), 1, -3)
        with pytest.raises(RuntimeError, match=r"topk: selected index k out of range"):
            g.topk(value(3), 4)
        with pytest.raises(RuntimeError, match=r"shifts and dimensions must align. shifts: 2, dims:1"):
            g.roll(value(2, 3), [1, 2], [0])
        with pytest.raises(IndexError, match=r"roll: dim 2 out of range"):
            value(2, 3).roll(1, 2)

    def all_checks():
        values()
        out()
        errors()

    return {"sort.values": all_checks, "sort.values_stable": out, "topk.values": out, "argsort.stable_out": out}


SAMPLES.update(_tensor3_sort_samples())
VALUE_CHECKS.update(_tensor3_sort_checks())


# ---------------------------------------------------------------------------------------------
# tensor ops, third batch (issue 23): creation (no gradient: values only)
# ---------------------------------------------------------------------------------------------


def _tensor3_creation_checks():
    g = gradgen

    def arange():
        # PyTorch's answers (torch 2.13); integer arguments give int64, as PyTorch's.
        assert g.arange(5).tolist() == [0, 1, 2, 3, 4] and g.arange(5).dtype == g.int64
        assert g.arange(1, 4).tolist() == [1, 2, 3]
        assert g.arange(10, 0, -3).tolist() == [10, 7, 4, 1]
        assert g.arange(start=2, end=5).tolist() == [2, 3, 4]
        r = g.arange(0, 1, 0.25, dtype=g.float64)
        assert r.tolist() == [0.0, 0.25, 0.5, 0.75] and r.dtype == g.float64
        assert g.arange(2.5).dtype == g.float32  # the default dtype, as PyTorch's
        assert len(g.arange(0, 1, 0.1, dtype=g.float64).tolist()) == 10
        o = g.zeros([0], dtype=g.int64)
        assert g.arange(1, 7, 2, out=o) is o and o.tolist() == [1, 3, 5]
        assert g.arange(3, out=o) is o and o.tolist() == [0, 1, 2]
        with pytest.raises(RuntimeError, match="step must be nonzero"):
            g.arange(0, 5, 0)
        with pytest.raises(RuntimeError, match="upper bound and larger bound inconsistent with step sign"):
            g.arange(5, 0, 1)

    def spaces():
        assert g.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
        assert g.linspace(3, -2, 6).tolist() == [3.0, 2.0, 1.0, 0.0, -1.0, -2.0]
        assert g.linspace(0, 10, 4, dtype=g.int64).tolist() == [0, 3, 6, 10]
        assert g.linspace(start=0.5, end=2.5, steps=3).tolist() == [0.5, 1.5, 2.5]
        assert g.logspace(0, 2, 3).tolist() == [1.0, 10.0, 100.0]
        assert g.logspace(0, 3, 4, base=2).tolist() == [1.0, 2.0, 4.0, 8.0]
        o = g.zeros([0], dtype=g.float64)
        assert g.linspace(0, 1, 3, out=o) is o and o.tolist() == [0.0, 0.5, 1.0]
        assert g.logspace(0, 1, 2, 10.0, out=o) is o and o.tolist() == [1.0, 10.0]
        with pytest.raises(RuntimeError, match="number of steps must be non-negative"):
            g.linspace(0, 1, -1)

    def eye():
        assert g.eye(2).tolist() == [[1.0, 0.0], [0.0, 1.0]] and g.eye(2).dtype == g.float32
        assert g.eye(2, 3, dtype=g.int64).tolist() == [[1, 0, 0], [0, 1, 0]]
        assert g.eye(3, 2, dtype=g.bool).tolist() == [[True, False], [False, True], [False, False]]
        o = g.zeros([0], dtype=g.float64)
        assert g.eye(2, out=o) is o and o.tolist() == [[1.0, 0.0], [0.0, 1.0]]
        assert g.eye(1, 2, out=o) is o and o.tolist() == [[1.0, 0.0]]
        with pytest.raises(RuntimeError, match="n must be greater or equal to 0, got -1"):
            g.eye(-1)

    def likes():
        x = value(2, 3)
        r = g.full_like(x, 7)
        assert r.tolist() == [[7.0] * 3] * 2 and r.dtype == g.float64 and not r.requires_grad
        assert g.full_like(g.tensor([1, 2], dtype=g.int64), 2.7).tolist() == [2, 2]
        assert g.full_like(x, 2, dtype=g.int64).dtype == g.int64
        e = g.empty_like(leaf(3, 2))
        assert e.shape == (3, 2) and e.dtype == g.float64 and not e.requires_grad
        assert g.empty_like(x, dtype=g.int64).dtype == g.int64

    return {
        "arange": arange,
        "arange.start": arange,
        "arange.start_step": arange,
        "arange.out": arange,
        "arange.start_out": arange,
        "linspace": spaces,
        "linspace.out": spaces,
        "logspace": spaces,
        "logspace.out": spaces,
        "eye": eye,
        "eye.m": eye,
        "eye.out": eye,
        "eye.m_out": eye,
        "full_like": likes,
        "empty_like": likes,
    }


VALUE_CHECKS.update(_tensor3_creation_checks())


def _nn_adaptive_pool_samples() -> Dict[str, List[Sample]]:
    """nn, third batch (issue 26): adaptive pooling and avg_pool1d."""
    g = gradgen
    return {
        "_adaptive_avg_pool2d": [
            Sample("overlapping windows", lambda x: g._adaptive_avg_pool2d(x, [3, 4]), [leaf(1, 2, 5, 7)]),
        ],
        "_adaptive_avg_pool2d_backward": [
            Sample(
                "overlapping windows",
                lambda go, x: g._adaptive_avg_pool2d_backward(go, x),
                [leaf(1, 2, 3, 4), value(1, 2, 5, 7, seed=1)],
            ),
        ],
        "adaptive_avg_pool2d": [
            Sample("to [1, 1]", lambda x: g.adaptive_avg_pool2d(x, [1, 1]), [leaf(1, 2, 3, 4)]),
            Sample("to [3, 2]", lambda x: g.adaptive_avg_pool2d(x, [3, 2]), [leaf(2, 4, 5)]),
        ],
        "adaptive_avg_pool1d": [Sample("to 3", lambda x: g.adaptive_avg_pool1d(x, [3]), [leaf(2, 3, 7)])],
        "adaptive_max_pool2d": [
            Sample("overlapping windows", lambda x: g.adaptive_max_pool2d(x, [3, 4])[0], [leaf(1, 2, 5, 7)]),
        ],
        "adaptive_max_pool2d_backward": [
            Sample(
                "overlapping windows",
                lambda go, x: g.adaptive_max_pool2d_backward(go, x, g.adaptive_max_pool2d(x.detach(), [3, 4])[1]),
                [leaf(1, 2, 3, 4), leaf(1, 2, 5, 7, seed=1)],
            ),
        ],
        "adaptive_max_pool1d": [Sample("to 4", lambda x: g.adaptive_max_pool1d(x, [4])[0], [leaf(2, 5)])],
        "avg_pool1d": [
            Sample(
                "ceil_mode, padding not counted",
                lambda x: g.avg_pool1d(x, [2], [2], [1], True, False),
                [leaf(2, 3, 6)],
            ),
        ],
    }


SAMPLES.update(_nn_adaptive_pool_samples())


def _nn_distance_samples() -> Dict[str, List[Sample]]:
    """nn, third batch (issue 26): norms, distances, instance_norm and margin losses."""
    g = gradgen
    target = g.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [0, 2, -1, -1]], dtype=g.int64)
    no_double = False  # PyTorch has no derivative for multilabel_margin_loss_backward
    return {
        "norm.ScalarOpt_dim": [
            Sample("p 3 over dim 1", lambda x: g.norm(x, 3, [1]), [leaf(2, 3)]),
            Sample("p inf, keepdim", lambda x: x.norm(float("inf"), [0], True), [leaf(3, 2)]),
        ],
        "cosine_similarity": [Sample("rows", lambda a, b: g.cosine_similarity(a, b), [leaf(2, 3), leaf(2, 3, seed=1)])],
        "pairwise_distance": [Sample("p 2", lambda a, b: g.pairwise_distance(a, b), [leaf(2, 3), leaf(2, 3, seed=1)])],
        "instance_norm": [
            Sample(
                "weight and bias",
                lambda x, w, b: g.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False),
                [leaf(2, 3, 4), leaf(3, seed=1), leaf(3, seed=2)],
            )
        ],
        "cosine_embedding_loss": [
            Sample(
                "mean",
                lambda a, b: g.cosine_embedding_loss(a, b, g.tensor([1, -1], dtype=g.int64)),
                [leaf(2, 3), leaf(2, 3, seed=1)],
            )
        ],
        "triplet_margin_loss": [
            Sample(
                "swap",
                lambda a, p, n: g.triplet_margin_loss(a, p, n, 2.0, 2, 1e-6, True),
                [leaf(2, 3), leaf(2, 3, seed=1), leaf(2, 3, seed=2)],
            )
        ],
        "multilabel_margin_loss": [
            Sample("mean", lambda x: g.multilabel_margin_loss(x, target), [leaf(3, 4)], no_double)
        ],
        "multilabel_margin_loss_forward": [
            Sample("sum", lambda x: g.multilabel_margin_loss_forward(x, target, 2)[0], [leaf(3, 4)], no_double)
        ],
    }


def _nn_distance_value_checks():
    g = gradgen

    def one_hot():
        assert g.one_hot(g.tensor([2, 0], dtype=g.int64)).tolist() == [[0, 0, 1], [1, 0, 0]]

    def multilabel_margin_loss_backward():
        # As PyTorch: its gradient raises (no derivative).
        target = g.tensor([[1, -1, 0]], dtype=g.int64)
        x = g.zeros([1, 3], dtype=g.float64).requires_grad_(True)
        go = g.tensor(1.0, dtype=g.float64).requires_grad_(True)
        is_target = g.multilabel_margin_loss_forward(x.detach(), target, 1)[1]
        y = g.multilabel_margin_loss_backward(go, x, target, 1, is_target)
        assert flat(y.tolist()) == pytest.approx([1 / 3, -2 / 3, 1 / 3])
        with pytest.raises(RuntimeError, match="not implemented"):
            y.sum().backward()

    return {"one_hot": one_hot, "multilabel_margin_loss_backward": multilabel_margin_loss_backward}


SAMPLES.update(_nn_distance_samples())
VALUE_CHECKS.update(_nn_distance_value_checks())


def _nn_resample_samples() -> Dict[str, List[Sample]]:
    """nn, third batch (issue 26): resampling."""
    g = gradgen
    return {
        "pixel_shuffle": [Sample("factor 2", lambda x: g.pixel_shuffle(x, 2), [leaf(1, 4, 2, 3)])],
        "pixel_unshuffle": [Sample("factor 2", lambda x: g.pixel_unshuffle(x, 2), [leaf(1, 1, 4, 2)])],
        "upsample_nearest1d": [Sample("to 5", lambda x: g.upsample_nearest1d(x, [5]), [leaf(1, 2, 3)])],
        "upsample_nearest1d_backward": [
            Sample("from 5", lambda go: g.upsample_nearest1d_backward(go, [5], [1, 2, 3]), [leaf(1, 2, 5)])
        ],
        "upsample_nearest2d": [Sample("to [3, 5]", lambda x: g.upsample_nearest2d(x, [3, 5]), [leaf(1, 1, 2, 3)])],
        "upsample_nearest2d_backward": [
            Sample(
                "from [3, 5]", lambda go: g.upsample_nearest2d_backward(go, [3, 5], [1, 1, 2, 3]), [leaf(1, 1, 3, 5)]
            )
        ],
        "upsample_bilinear2d": [
            Sample("to [3, 5]", lambda x: g.upsample_bilinear2d(x, [3, 5], False), [leaf(1, 1, 2, 3)]),
            Sample("align_corners", lambda x: g.upsample_bilinear2d(x, [3, 5], True), [leaf(1, 1, 2, 3)]),
        ],
        "upsample_bilinear2d_backward": [
            Sample(
                "from [3, 5]",
                lambda go: g.upsample_bilinear2d_backward(go, [3, 5], [1, 1, 2, 3], False),
                [leaf(1, 1, 3, 5)],
            )
        ],
    }


SAMPLES.update(_nn_resample_samples())


# ---------------------------------------------------------------------------------------------
# tensor ops, fourth batch (issue 23): order statistics
# ---------------------------------------------------------------------------------------------


def _tensor4_order_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "median": [Sample("function", lambda x: g.median(x), [leaf(3, 3)])],
        "median.dim": [
            Sample("function", lambda x: g.median(x, 1).values, [leaf(3, 4)]),
            Sample("method, keepdim", lambda x: x.median(dim=0, keepdim=True)[0], [leaf(5, 2)]),
        ],
        "nanmedian": [Sample("method", lambda x: x.nanmedian(), [leaf(2, 3)])],
        "nanmedian.dim": [Sample("function", lambda x: g.nanmedian(x, -1).values, [leaf(3, 4)])],
        "kthvalue": [
            Sample("function", lambda x: g.kthvalue(x, 2).values, [leaf(2, 5)]),
            Sample("method, keywords", lambda x: x.kthvalue(k=3, dim=0, keepdim=True)[0], [leaf(4, 3)]),
        ],
        "mode": [Sample("function", lambda x: g.mode(x).values, [leaf(2, 5)])],
    }


def _tensor4_order_checks():
    g = gradgen
    ties = g.tensor([3.0, 1.0, 3.0, 1.0, 2.0, 1.0, 3.0, 2.0], dtype=g.float64)
    nans = g.tensor([1.0, float("nan"), 0.0, float("nan"), -2.0], dtype=g.float64)

    def values():
        # PyTorch's answers (torch 2.13): ties by position, NaN propagated by median only.
        assert ties.median(0).indices.item() == 4 and ties.nanmedian().item() == 2.0
        assert g.kthvalue(ties, 4).indices.item() == 7
        r = g.mode(ties)
        assert (r.values.item(), r.indices.item()) == (1.0, 5)
        assert nans.median(0).indices.item() == 1 and g.median(nans).item() != g.median(nans).item()
        r = g.nanmedian(nans, 0)
        assert (r.values.item(), r.indices.item()) == (0.0, 2)
        assert g.kthvalue(nans, 4).indices.item() == 1
        x = g.tensor([2.0, 1.0, 2.0, 1.0], dtype=g.float64, requires_grad=True)
        g.median(x).backward()
        assert x.grad.tolist() == [0.0, 0.5, 0.0, 0.5]

    def out():
        x = value(2, 5)
        for op in (g.median, g.nanmedian, g.mode):
            v, i = g.zeros([2], dtype=g.float64), g.zeros([2], dtype=g.int64)
            op(x, 1, out=(v, i))
            assert v.tolist() == op(x, 1).values.tolist() and i.tolist() == op(x, 1).indices.tolist()
        v, i = g.zeros([2], dtype=g.float64), g.zeros([2], dtype=g.int64)
        g.kthvalue(x, 3, out=(v, i))
        assert v.tolist() == g.kthvalue(x, 3).values.tolist()

    def errors():
        with pytest.raises(IndexError, match=r"median: dim 2 out of range"):
            g.median(value(2, 3), 2)
        with pytest.raises(IndexError, match=r"mode\(\): Expected reduction dim 1 to have non-zero size"):
            g.mode(g.zeros([2, 0], dtype=g.float64), 1)
        with pytest.raises(RuntimeError, match=r"kthvalue\(\): selected number k out of range for dimension 0"):
            g.kthvalue(value(3), 4)
        with pytest.raises(RuntimeError, match=r"not implemented for 'Bool'"):
            g.median(value(3) > 0)

    def all_checks():
        values()
        out()
        errors()

    return {"median.dim_values": all_checks, "nanmedian.dim_values": out, "kthvalue.values": out, "mode.values": out}


SAMPLES.update(_tensor4_order_samples())
VALUE_CHECKS.update(_tensor4_order_checks())


# ---------------------------------------------------------------------------------------------
# tensor ops, fourth batch (issue 23): scans
# ---------------------------------------------------------------------------------------------


def _tensor4_scan_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "cummax": [Sample("function", lambda x: g.cummax(x, 1).values, [leaf(3, 4)])],
        "cummin": [Sample("method", lambda x: x.cummin(dim=0)[0], [leaf(4, 3)])],
        "logcumsumexp": [Sample("function", lambda x: g.logcumsumexp(x, 1), [leaf(3, 4)], second=False)],
    }


def _tensor4_scan_checks():
    g = gradgen

    def values():
        # PyTorch's answers (torch 2.13): a tie takes the later index, a NaN leads until the next.
        nan = float("nan")
        x = g.tensor([1.0, 3.0, 3.0, nan, 5.0, nan, -1.0], dtype=g.float64)
        assert g.cummax(x, 0).indices.tolist() == [0, 1, 2, 3, 3, 5, 5]
        assert x.cummin(0).indices.tolist() == [0, 0, 0, 3, 3, 5, 5]
        m = g.tensor([2, 1, 2, 0], dtype=g.int64)
        assert g.cummax(m, 0).indices.tolist() == [0, 0, 2, 2] and g.cummax(m, 0).values.tolist() == [2, 2, 2, 2]
        inf = float("inf")
        r = g.logcumsumexp(g.tensor([1.0, inf, inf, -inf], dtype=g.float64), 0).tolist()
        assert r == [1.0, inf, inf, inf]

    def out():
        x = value(2, 5)
        v, i = g.zeros([2, 5], dtype=g.float64), g.zeros([2, 5], dtype=g.int64)
        g.cummax(x, 1, out=(v, i))
        assert v.tolist() == g.cummax(x, 1).values.tolist() and i.tolist() == g.cummax(x, 1).indices.tolist()
        o = g.zeros([2, 5], dtype=g.float64)
        assert g.logcumsumexp(x, 1, out=o) is o and o.tolist() == g.logcumsumexp(x, 1).tolist()

    def errors():
        with pytest.raises(IndexError, match=r"cummin: dim 2 out of range"):
            g.cummin(value(2, 3), 2)
        with pytest.raises(RuntimeError, match=r"\"logcumsumexp_out_cpu\" not implemented for 'Long'"):
            g.logcumsumexp(g.tensor([1, 2], dtype=g.int64), 0)

    def all_checks():
        values()
        out()
        errors()

    return {"cummax.out": all_checks, "cummin.out": out, "logcumsumexp.out": out}


SAMPLES.update(_tensor4_scan_samples())
VALUE_CHECKS.update(_tensor4_scan_checks())


# ---------------------------------------------------------------------------------------------
# tensor ops, fourth batch (issue 23): linalg.vector_norm
# ---------------------------------------------------------------------------------------------


def _tensor4_norm_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "linalg_vector_norm": [
            Sample("ord 2, every element", lambda x: g.linalg.vector_norm(x), [leaf(3, 4)]),
            Sample("ord 1, dim tuple, keepdim", lambda x: g.linalg.vector_norm(x, 1, (0, 1), True), [leaf(2, 3)]),
            Sample("ord 3, dim int", lambda x: g.linalg.vector_norm(x, ord=3, dim=-1), [leaf(2, 3)]),
        ],
    }


def _tensor4_norm_checks():
    g = gradgen

    def out():
        x = g.tensor([[3.0, -4.0], [0.0, 1.0]], dtype=g.float64)
        o = g.zeros([2], dtype=g.float64)
        g.linalg.vector_norm(x, dim=1, out=o)
        assert o.tolist() == [5.0, 1.0]
        inf = float("inf")
        assert g.linalg.vector_norm(x, inf).item() == 4.0 and g.linalg.vector_norm(x, -inf).item() == 0.0
        assert g.linalg.vector_norm(x, 0).item() == 3.0 and g.linalg.vector_norm(x, 1).item() == 8.0
        assert g.linalg.vector_norm(x.float(), 2, dtype=g.float64).dtype == g.float64
        with pytest.raises(RuntimeError, match="should be convertible without narrowing"):
            g.linalg.vector_norm(x, 2, dtype=g.float32)  # as PyTorch's
        with pytest.raises(IndexError):
            g.linalg.vector_norm(x, 2, 2)

    return {"linalg_vector_norm.out": out}


SAMPLES.update(_tensor4_norm_samples())
VALUE_CHECKS.update(_tensor4_norm_checks())


def _tensor4_norm_overload_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "norm.Scalar": [
            Sample("method, p 2", lambda x: x.norm(2), [leaf(3, 4)]),
            Sample("function, p 3", lambda x: g.norm(x, 3), [leaf(2, 3)]),
        ],
        "norm.ScalarOpt_dtype": [Sample("dtype float64", lambda x: x.norm(2, dtype=g.float64), [leaf(2, 3)])],
        "norm.ScalarOpt_dim_dtype": [
            Sample("dim, keepdim, dtype", lambda x: g.norm(x, 1.5, [1], True, dtype=g.float64), [leaf(2, 3)])
        ],
    }


SAMPLES.update(_tensor4_norm_overload_samples())


def _tensor4_norm_out_checks():
    g = gradgen

    def out():
        x = g.tensor([[3.0, -4.0], [0.0, 1.0]], dtype=g.float64)
        o = g.zeros([2], dtype=g.float64)
        assert g.norm(x, 2, [1], out=o) is o and o.tolist() == [5.0, 1.0]
        o = g.zeros([1, 2], dtype=g.float64)
        g.norm(x, 1, [0], True, dtype=g.float64, out=o)
        assert o.tolist() == [[3.0, 5.0]]

    return {"norm.out": out, "norm.dtype_out": out}


VALUE_CHECKS.update(_tensor4_norm_out_checks())


# ---------------------------------------------------------------------------------------------
# tensor ops, fourth batch (issue 23): searchsorted and bucketize (no gradient: values only)
# ---------------------------------------------------------------------------------------------


def _tensor4_search_checks():
    g = gradgen
    seq = g.tensor([1.0, 2.0, 2.0, 3.0, 5.0], dtype=g.float64)
    vals = g.tensor([[2.0, 0.0], [5.0, 6.0]], dtype=g.float64)

    def search():
        # PyTorch's answers (torch 2.13).
        assert g.searchsorted(seq, vals).tolist() == [[1, 0], [4, 5]]
        assert g.searchsorted(seq, vals, right=True).tolist() == [[3, 0], [5, 5]]
        assert g.searchsorted(seq, vals, side="right").tolist() == [[3, 0], [5, 5]]
        assert g.searchsorted(seq, 2.0).tolist() == 1
        unsorted = g.tensor([3.0, 1.0, 2.0], dtype=g.float64)
        sorter = g.tensor([1, 2, 0], dtype=g.int64)
        assert g.searchsorted(unsorted, g.tensor([2.5], dtype=g.float64), sorter=sorter).tolist() == [2]
        o = g.zeros([2, 2], dtype=g.int64)
        assert g.searchsorted(seq, vals, out=o) is o and o.tolist() == [[1, 0], [4, 5]]
        o = g.zeros([], dtype=g.int64)
        g.searchsorted(seq, 4.0, out=o)
        assert o.tolist() == 4
        with pytest.raises(RuntimeError, match=r"side and right can't be set to opposites"):
            g.searchsorted(seq, vals, right=True, side="left")
        with pytest.raises(RuntimeError, match=r"first N-1 dimensions of boundaries tensor"):
            g.searchsorted(g.zeros([3, 2], dtype=g.float64), vals)

    def bucket():
        assert g.bucketize(vals, seq).tolist() == [[1, 0], [4, 5]]
        assert g.bucketize(vals, seq, right=True).tolist() == [[3, 0], [5, 5]]
        assert g.bucketize(3.0, seq).tolist() == 3
        o = g.zeros([2, 2], dtype=g.int64)
        assert g.bucketize(vals, seq, out=o) is o and o.tolist() == [[1, 0], [4, 5]]
        with pytest.raises(RuntimeError, match=r"boundaries tensor must be 1 dimension"):
            g.bucketize(vals, vals)

    return {
        "searchsorted.Tensor": search,
        "searchsorted.Tensor_out": search,
        "searchsorted.Scalar": search,
        "searchsorted.Scalar_out": search,
        "bucketize.Tensor": bucket,
        "bucketize.Tensor_out": bucket,
        "bucketize.Scalar": bucket,
    }


VALUE_CHECKS.update(_tensor4_search_checks())


def _random_checks():
    """The random samplers through their Python bindings, one call of each overload (their
    distributions: tests/python/test_random.py)."""
    g = gradgen
    gen = g.Generator

    def factories():
        assert (
            g.rand(2, 3).shape == (2, 3)
            and g.rand(2, generator=gen(1)).tolist() == g.rand(2, generator=gen(1)).tolist()
        )
        x = g.zeros(3, dtype=g.float32)
        assert g.rand_like(x).dtype == g.float32 and g.rand_like(x, generator=gen(2)).shape == (3,)
        assert g.randn_like(x).shape == (3,) and g.randn_like(x, generator=gen(3)).dtype == g.float32
        assert set(g.randint(2, (50,)).tolist()) <= {0, 1} and g.randint(2, (3,), generator=gen(4)).dtype == g.int64
        assert set(g.randint(5, 7, (50,)).tolist()) <= {5, 6}
        assert set(g.randint(5, 7, (50,), generator=gen(5)).tolist()) <= {5, 6}
        assert sorted(g.randperm(5).tolist()) == list(range(5))
        assert sorted(g.randperm(4, generator=gen(6)).tolist()) == list(range(4))
        assert g.normal(1.0, 0.0, (2,)).tolist() == [1.0, 1.0]
        assert g.tril_indices(2, 2).tolist() == [[0, 1, 1], [0, 0, 1]]
        assert g.triu_indices(2, 2).tolist() == [[0, 0, 1], [0, 1, 1]]

    def samplers():
        p = g.tensor([0.0, 1.0])
        assert g.bernoulli(p).tolist() == [0.0, 1.0] and p.bernoulli(generator=gen(7)).tolist() == [0.0, 1.0]
        assert g.bernoulli(p, 1.0).tolist() == [1.0, 1.0]
        assert g.multinomial(g.tensor([0.0, 1.0]), 3, True).tolist() == [1, 1, 1]
        assert g.tensor([0.0, 5.0]).multinomial(1).tolist() == [1]
        assert g.normal(p, 0.0).tolist() == [0.0, 1.0]
        assert g.normal(2.0, g.zeros(2)).tolist() == [2.0, 2.0]
        assert g.normal(p, g.zeros(2)).tolist() == [0.0, 1.0]
        x = g.zeros(4)
        assert x.bernoulli_(1.0) is x and x.tolist() == [1.0] * 4
        assert x.normal_(3.0, 0.0).tolist() == [3.0] * 4
        assert x.uniform_(2.0, 2.0).tolist() == [2.0] * 4
        assert all(v > 0 for v in x.exponential_().tolist())
        assert x.random_(7, 8).tolist() == [7.0] * 4
        assert x.random_(1).tolist() == [0.0] * 4
        assert all(v >= 0 for v in x.random_().tolist())

    return {
        **{n: factories for n in ["rand", "rand.generator", "rand_like", "rand_like.generator", "randn_like"]},
        **{n: factories for n in ["randn_like.generator", "randint", "randint.generator", "randint.low"]},
        **{n: factories for n in ["randint.low_generator", "randperm", "randperm.generator", "normal.float_float"]},
        **{n: factories for n in ["tril_indices", "triu_indices"]},
        **{n: samplers for n in ["bernoulli", "bernoulli.p", "bernoulli_.float", "multinomial", "normal.Tensor_float"]},
        **{n: samplers for n in ["normal.float_Tensor", "normal.Tensor_Tensor", "normal_", "uniform_"]},
        **{n: samplers for n in ["exponential_", "random_.from", "random_.to", "random_"]},
    }


VALUE_CHECKS.update(_random_checks())


# ---------------------------------------------------------------------------------------------
# tensor ops, fifth batch (issue 23, "Shapes"): gradients here; values and errors against
# numbers computed independently in tests/python/test_shapes.py
# ---------------------------------------------------------------------------------------------


def _quiet(fn, *args, **kwargs):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _tensor5_shape_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "diag": [
            Sample("1-D, function", g.diag, [leaf(3)]),
            Sample("1-D, method, diagonal", lambda x: x.diag(-1), [leaf(3)]),
            Sample("2-D, keyword", lambda x: g.diag(x, diagonal=1), [leaf(3, 4)]),
        ],
        "expand_as": [Sample("method", lambda x: x.expand_as(value(2, 3)), [leaf(3)])],
        "broadcast_tensors": [
            Sample("varargs", lambda a, b: g.broadcast_tensors(a, b), [leaf(2, 1), leaf(3)]),
            Sample("a list", lambda a, b: g.broadcast_tensors([a, b]), [leaf(3), leaf()]),
        ],
        # No indexing: 'ij', with PyTorch's UserWarning (checked in test_shapes.py).
        "meshgrid": [Sample("no indexing", lambda a, b: _quiet(g.meshgrid, a, b), [leaf(2), leaf(3)])],
        "meshgrid.indexing": [
            Sample("xy, varargs", lambda a, b: g.meshgrid(a, b, indexing="xy"), [leaf(2), leaf(3)]),
            Sample("ij, a tuple", lambda a, b, c: g.meshgrid((a, b, c), indexing="ij"), [leaf(2), leaf(), leaf(3)]),
        ],
        "hstack": [Sample("[2, 1] and [2, 2]", lambda a, b: g.hstack([a, b]), [leaf(2, 1), leaf(2, 2)])],
        "vstack": [Sample("[3] and [2, 3]", lambda a, b: g.vstack((a, b)), [leaf(3), leaf(2, 3)])],
        "dstack": [Sample("[2] and [1, 2, 2]", lambda a, b: g.dstack([a, b]), [leaf(2), leaf(1, 2, 2)])],
        "column_stack": [Sample("[3], 2-D", lambda a, b: g.column_stack([a, b]), [leaf(3), leaf(3, 2)])],
        "hsplit.int": [Sample("method", lambda x: x.hsplit(2), [leaf(2, 4)])],
        "hsplit.array": [Sample("function", lambda x: g.hsplit(x, [1, 3]), [leaf(5)])],
        "vsplit.int": [Sample("function", lambda x: g.vsplit(x, 2), [leaf(4, 2)])],
        "vsplit.array": [Sample("method", lambda x: x.vsplit([1]), [leaf(3, 2)])],
        "dsplit.int": [Sample("method", lambda x: x.dsplit(2), [leaf(1, 2, 4)])],
        "dsplit.array": [Sample("function", lambda x: g.dsplit(x, (1, 2)), [leaf(2, 1, 3)])],
        "contiguous": [
            Sample("a transposed view", lambda x: x.t().contiguous(), [leaf(2, 3)]),
            Sample("contiguous already", lambda x: x.contiguous(memory_format=g.contiguous_format), [leaf(3)]),
        ],
    }


def _tensor5_shape_checks():
    g = gradgen

    def out():
        a, b = value(2, 3, seed=1), value(2, 3, seed=2)
        for op in ("hstack", "vstack", "dstack", "column_stack"):
            ref = getattr(g, op)([a, b])
            o = g.zeros(list(ref.shape), dtype=g.float64)
            assert getattr(g, op)([a, b], out=o) is o and o.tolist() == ref.tolist()
            with pytest.raises(RuntimeError, match=op + r".out: out= variants do not support automatic"):
                getattr(g, op)([a, leaf(2, 3)], out=o)
        o = g.zeros([2], dtype=g.float64)
        assert g.diag(a, 1, out=o) is o and o.tolist() == [a.tolist()[0][1], a.tolist()[1][2]]

    return {name: out for name in ("hstack.out", "vstack.out", "dstack.out", "column_stack.out", "diag.out")}


SAMPLES.update(_tensor5_shape_samples())
VALUE_CHECKS.update(_tensor5_shape_checks())


def _tensor5_repeat_unfold_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "repeat_interleave.self_Tensor": [
            Sample("function, dim", lambda x: g.repeat_interleave(x, longs([1, 2]), dim=0), [leaf(2, 3)]),
            Sample("method, dim None", lambda x: x.repeat_interleave(longs([2])), [leaf(2, 2)]),
        ],
        "repeat_interleave.self_int": [
            Sample("function", lambda x: g.repeat_interleave(x, 2), [leaf(2, 3)]),
            Sample("method, dim, output_size", lambda x: x.repeat_interleave(3, dim=1, output_size=6), [leaf(2, 2)]),
        ],
        "unfold": [
            Sample("method", lambda x: x.unfold(1, 2, 1), [leaf(2, 4)]),
            Sample("keywords", lambda x: x.unfold(dimension=0, size=2, step=2), [leaf(5)]),
        ],
        "unfold_backward": [Sample("function", lambda gr: g.unfold_backward(gr, [2, 4], 1, 2, 1), [leaf(2, 3, 2)])],
        "as_strided": [
            Sample("function", lambda x: g.as_strided(x, [2, 2], [1, 2]), [leaf(2, 3)]),
            Sample("method, offset", lambda x: x.as_strided((2,), (3,), 1), [leaf(2, 3)]),
            Sample("overlapping", lambda x: x.as_strided([3, 2], [1, 1]), [leaf(4)]),
        ],
    }


def _tensor5_repeat_checks():
    g = gradgen

    def repeat_interleave_tensor():
        # torch.repeat_interleave(tensor([1, 2, 0])) is tensor([0, 1, 1]).
        assert g.repeat_interleave(longs([1, 2, 0])).tolist() == [0, 1, 1]
        assert g.repeat_interleave(longs([3]), output_size=3).tolist() == [0, 0, 0]
        assert g.repeat_interleave(longs([])).tolist() == []
        with pytest.raises(RuntimeError, match="repeats can not be negative"):
            g.repeat_interleave(longs([1, -1]))
        with pytest.raises(RuntimeError, match="allocated size does not match required size"):
            g.repeat_interleave(longs([1, 2]), output_size=4)
        with pytest.raises(RuntimeError, match="repeat_interleave only accept 1D vector as repeat"):
            g.repeat_interleave(longs([[1]]))
        with pytest.raises(RuntimeError, match="repeats must be a Long tensor, got Double"):
            g.repeat_interleave(g.tensor([1.0], dtype=g.float64))

    return {"repeat_interleave.Tensor": repeat_interleave_tensor}


SAMPLES.update(_tensor5_repeat_unfold_samples())
VALUE_CHECKS.update(_tensor5_repeat_checks())


def _tensor5_unique_checks():
    g = gradgen

    def unique_ops():
        # Sorted unique values, inverse and counts, worked out by hand; no gradient (PyTorch's
        # derivative is not implemented either).
        x = g.tensor([3.0, 1.0, 3.0, 2.0], dtype=g.float64)
        v, i, c = g._unique2(x, True, True, True)
        assert v.tolist() == [1.0, 2.0, 3.0] and i.tolist() == [2, 0, 2, 1] and c.tolist() == [1, 1, 2]
        assert g._unique2(x)[1].tolist() == [] and g._unique2(x)[2].tolist() == []
        rows = g.tensor([[1.0, 2.0], [0.0, 1.0], [1.0, 2.0]], dtype=g.float64)
        v, i, c = g.unique_dim(rows, 0)
        assert v.tolist() == [[0.0, 1.0], [1.0, 2.0]] and i.tolist() == [1, 0, 1] and c.tolist() == [1, 2]
        v, i, c = g.unique_consecutive(g.tensor([1, 1, 2, 1], dtype=g.int64), True, True)
        assert v.tolist() == [1, 2, 1] and i.tolist() == [0, 0, 1, 2] and c.tolist() == [2, 1, 1]
        # Only the requested outputs, as torch.unique_consecutive returns them.
        v, c = g.unique_consecutive(rows, return_counts=True, dim=0)
        assert v.tolist() == [[1.0, 2.0], [0.0, 1.0], [1.0, 2.0]] and c.tolist() == [1, 1, 1]
        y = g.tensor([1.0, 2.0, 1.0], dtype=g.float64, requires_grad=True)
        for out in (g._unique2(y)[0], g.unique_dim(y, 0)[0], g.unique_consecutive(y)):
            assert out.requires_grad
            with pytest.raises(RuntimeError, match="not implemented"):
                out.sum().backward()

    return {"_unique2": unique_ops, "unique_dim": unique_ops, "unique_consecutive": unique_ops}


VALUE_CHECKS.update(_tensor5_unique_checks())


def _tensor5_einsum_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "einsum": [
            Sample("varargs", lambda a, b: g.einsum("ij,jk->ik", a, b), [leaf(2, 3), leaf(3, 2)]),
            Sample("a list, ellipsis", lambda a, b: g.einsum("...i,...i", [a, b]), [leaf(2, 3), leaf(3)]),
            Sample("trace", lambda a: g.einsum("ii", a), [leaf(3, 3)]),
        ],
    }


SAMPLES.update(_tensor5_einsum_samples())


def _tensor5_product_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "addr": [
            Sample("function", g.addr, [leaf(2, 3), leaf(2), leaf(3)]),
            Sample("method, keywords", lambda s, a, b: s.addr(a, b, beta=0.5, alpha=2), [leaf(3), leaf(2), leaf(3)]),
        ],
        "addr_": [
            Sample("method on a clone", lambda s, a, b: s.clone().addr_(a, b, alpha=-1), [leaf(2, 2), leaf(2), leaf(2)])
        ],
        "linalg_multi_dot": [
            Sample(
                "gradgen.linalg.multi_dot",
                lambda a, b, c: g.linalg.multi_dot([a, b, c]),
                [leaf(3), leaf(3, 2), leaf(2, 2)],
            )
        ],
        "chain_matmul": [Sample("varargs", lambda a, b: _quiet(g.chain_matmul, a, b), [leaf(2, 3), leaf(3, 2)])],
    }


def _tensor5_product_checks():
    g = gradgen

    def out():
        a, b, c = value(2, 3, seed=1), value(3, 2, seed=2), value(2, 2, seed=3)
        o = g.zeros([2, 2], dtype=g.float64)
        assert g.linalg.multi_dot([a, b, c], out=o) is o
        check_values(o, flat(a.mm(b).mm(c).tolist()))
        o = g.zeros([2, 2], dtype=g.float64)
        assert _quiet(g.chain_matmul, a, b, out=o) is o
        check_values(o, flat(a.mm(b).tolist()))
        s, v, w = value(2, 3, seed=4), value(2, seed=5), value(3, seed=6)
        o = g.zeros([2, 3], dtype=g.float64)
        assert g.addr(s, v, w, beta=2, alpha=3, out=o) is o
        check_values(o, [2 * s.tolist()[i][j] + 3 * v.tolist()[i] * w.tolist()[j] for i in range(2) for j in range(3)])

    return {"addr.out": out, "linalg_multi_dot.out": out, "chain_matmul.out": out}


SAMPLES.update(_tensor5_product_samples())
VALUE_CHECKS.update(_tensor5_product_checks())


def _tensor5_cdist_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    return {
        "cdist": [
            Sample("p 2", g.cdist, [leaf(3, 2), leaf(2, 2, seed=1)]),
            Sample("p 1, keywords", lambda a, b: g.cdist(a, b, p=1.0), [leaf(2, 3), leaf(2, 3, seed=1)]),
            Sample(
                "mm mode",
                lambda a, b: g.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
                [leaf(2, 2), leaf(3, 2, seed=1)],
            ),
        ],
    }


SAMPLES.update(_tensor5_cdist_samples())


def _nn_resample2_samples() -> Dict[str, List[Sample]]:
    """nn (issue 26, remaining ops): 1-D linear, bicubic and 3-D resampling."""
    g = gradgen
    return {
        "upsample_linear1d": [
            Sample("to 5", lambda x: g.upsample_linear1d(x, [5], False), [leaf(1, 2, 3)]),
            Sample("align_corners", lambda x: g.upsample_linear1d(x, [5], True), [leaf(1, 2, 3)]),
        ],
        "upsample_linear1d_backward": [
            Sample("from 5", lambda go: g.upsample_linear1d_backward(go, [5], [1, 2, 3], False), [leaf(1, 2, 5)])
        ],
        "upsample_bicubic2d": [
            Sample("to [3, 5]", lambda x: g.upsample_bicubic2d(x, [3, 5], False), [leaf(1, 1, 2, 3)]),
            Sample("align_corners", lambda x: g.upsample_bicubic2d(x, [3, 5], True), [leaf(1, 1, 2, 3)]),
        ],
        "upsample_bicubic2d_backward": [
            Sample(
                "from [3, 5]",
                lambda go: g.upsample_bicubic2d_backward(go, [3, 5], [1, 1, 2, 3], False),
                [leaf(1, 1, 3, 5)],
            )
        ],
        "upsample_trilinear3d": [
            Sample("to [3, 2, 3]", lambda x: g.upsample_trilinear3d(x, [3, 2, 3], False), [leaf(1, 1, 2, 2, 2)])
        ],
        "upsample_trilinear3d_backward": [
            Sample(
                "from [3, 2, 3]",
                lambda go: g.upsample_trilinear3d_backward(go, [3, 2, 3], [1, 1, 2, 2, 2], True),
                [leaf(1, 1, 3, 2, 3)],
            )
        ],
        "upsample_nearest3d": [
            Sample("to [3, 2, 3]", lambda x: g.upsample_nearest3d(x, [3, 2, 3]), [leaf(1, 1, 2, 2, 2)])
        ],
        "upsample_nearest3d_backward": [
            Sample(
                "from [3, 2, 3]",
                lambda go: g.upsample_nearest3d_backward(go, [3, 2, 3], [1, 1, 2, 2, 2]),
                [leaf(1, 1, 3, 2, 3)],
            )
        ],
    }


SAMPLES.update(_nn_resample2_samples())


def _pad3d_reference(x: List[float], shape: Sequence[int], pad: Sequence[int], reflect: bool) -> List[float]:
    """reflection / replication padding of the last 3 dims of a flat row-major x, by index."""

    def src(j, left, size):
        i = j - left
        if not reflect:
            return min(max(i, 0), size - 1)
        i = -i if i < 0 else i
        return 2 * (size - 1) - i if i >= size else i

    lead = 1
    for s in shape[:-3]:
        lead *= s
    d, h, w = shape[-3:]
    od, oh, ow = d + pad[4] + pad[5], h + pad[2] + pad[3], w + pad[0] + pad[1]
    out = []
    for p in range(lead):
        for a in range(od):
            for b in range(oh):
                for c in range(ow):
                    i = ((p * d + src(a, pad[4], d)) * h + src(b, pad[2], h)) * w + src(c, pad[0], w)
                    out.append(x[i])
    return out


def _nn_pad3d_samples() -> Dict[str, List[Sample]]:
    """nn (issue 26, remaining ops): 3-D reflection and replication padding."""
    g = gradgen
    out = {}
    pad, shape = [1, 2, 0, 1, 1, 0], (1, 2, 2, 3)
    padded = [1, 3, 3, 6]
    for op in ["reflection_pad3d", "replication_pad3d"]:
        out[op] = [Sample("padding", lambda x, op=op: getattr(g, op)(x, pad), [leaf(*shape)])]
        out[op + "_backward"] = [
            Sample(
                "padding",
                lambda o, x, op=op: getattr(g, op + "_backward")(o, x, pad),
                [leaf(*padded), leaf(*shape, seed=1)],
            )
        ]
    return out


def _nn_pad3d_checks():
    g = gradgen
    checks = {}
    pad, shape = [2, 1, 0, 2, 1, 1], (2, 1, 2, 3, 3)
    for op, reflect in [("reflection_pad3d", True), ("replication_pad3d", False)]:

        def forward(op=op, reflect=reflect):
            x = value(*shape)
            expected = _pad3d_reference(flat(x.tolist()), shape, pad, reflect)
            check_values(getattr(g, op)(x, pad), expected)
            out = g.zeros([2, 1, 4, 5, 6], dtype=g.float64)
            assert getattr(g, op)(x, pad, out=out) is out
            check_values(out, expected)
            # F.pad of a 5-D input takes the 3-D op.
            mode = "reflect" if reflect else "replicate"
            check_values(g.nn.functional.pad(x, pad, mode=mode), expected)
            with pytest.raises(RuntimeError, match=op + ": Expected 4D or 5D"):
                getattr(g, op)(value(3, 3), pad)

        def backward(op=op, reflect=reflect):
            x = value(*shape)
            grad = value(2, 1, 4, 5, 6, seed=1)
            # The adjoint: <pad(x), grad> = <x, pad_backward(grad)> for every x, so the gradient
            # at input i sums the output gradients whose index maps to i.
            n = 2 * 2 * 3 * 3
            basis = list(range(n))
            sources = _pad3d_reference(basis, shape, pad, reflect)
            expected = [0.0] * n
            for k, gk in enumerate(flat(grad.tolist())):
                expected[int(sources[k])] += gk
            out = g.zeros(list(shape), dtype=g.float64)
            assert getattr(g, op + "_backward")(grad, x, pad, grad_input=out) is out
            check_values(out, expected)

        checks[op + ".out"] = forward
        checks[op + "_backward.grad_input"] = backward
    return checks


SAMPLES.update(_nn_pad3d_samples())
VALUE_CHECKS.update(_nn_pad3d_checks())


def _nn_pool3d_samples() -> Dict[str, List[Sample]]:
    """nn (issue 26, remaining ops): 3-D pooling and max_unpool2d."""
    g = gradgen

    def unpool_indices():
        return g.max_pool2d_with_indices(value(1, 1, 4, 4, seed=3), [2])[1]

    return {
        "max_pool3d_with_indices": [
            Sample(
                "padding, ceil_mode",
                lambda x: g.max_pool3d_with_indices(x, [2], [2], [1], [1], True)[0],
                [leaf(1, 1, 3, 3, 3)],
            )
        ],
        "max_pool3d_with_indices_backward": [
            Sample(
                "overlapping",
                lambda go, x: g.max_pool3d_with_indices_backward(
                    go, x, [2], [1], [0], [1], False, g.max_pool3d_with_indices(x.detach(), [2], [1])[1]
                ),
                [leaf(1, 2, 2, 2), leaf(1, 3, 3, 3, seed=1)],
            )
        ],
        "max_pool3d": [Sample("kernel [1, 2, 2]", lambda x: g.max_pool3d(x, [1, 2, 2]), [leaf(1, 2, 2, 4)])],
        "avg_pool3d": [
            Sample(
                "count_include_pad=False",
                lambda x: g.avg_pool3d(x, [3], [2], [1], count_include_pad=False),
                [leaf(1, 1, 3, 3, 3)],
            )
        ],
        "avg_pool3d_backward": [
            Sample(
                "divisor_override",
                lambda go, x: g.avg_pool3d_backward(go, x, [2], [2], [0], False, True, 3),
                [leaf(1, 1, 2, 2), value(1, 2, 4, 4, seed=1)],
            )
        ],
        "max_unpool2d": [
            Sample("to [4, 4]", lambda x: g.max_unpool2d(x, unpool_indices(), [4, 4]), [leaf(1, 1, 2, 2)])
        ],
    }


def _nn_pool3d_out_checks():
    g = gradgen

    def max_out():
        x = value(1, 1, 3, 3, 3)
        values, indices = g.max_pool3d_with_indices(x, [2], [1])
        o, i = g.zeros([1, 1, 2, 2, 2], dtype=g.float64), g.zeros([1, 1, 2, 2, 2], dtype=g.int64)
        got = g.max_pool3d_with_indices(x, [2], [1], out=(o, i))
        assert got[0] is o and got[1] is i
        check_values(o, flat(values.tolist()))
        assert i.tolist() == indices.tolist()

    def max_backward_out():
        x, go = value(1, 1, 3, 3, 3), value(1, 1, 2, 2, 2, seed=1)
        indices = g.max_pool3d_with_indices(x, [2], [1])[1]
        expected = g.max_pool3d_with_indices_backward(go, x, [2], [1], [0], [1], False, indices)
        o = g.zeros([1, 1, 3, 3, 3], dtype=g.float64)
        assert g.max_pool3d_with_indices_backward(go, x, [2], [1], [0], [1], False, indices, grad_input=o) is o
        check_values(o, flat(expected.tolist()))

    def avg_out():
        x = value(1, 1, 2, 2, 2)
        o = g.zeros([1, 1, 1, 1, 1], dtype=g.float64)
        assert g.avg_pool3d(x, [2], out=o) is o
        check_values(o, [sum(flat(x.tolist())) / 8])

    def avg_backward_out():
        x, go = value(1, 1, 2, 2, 2), value(1, 1, 1, 1, 1, seed=1)
        o = g.zeros([1, 1, 2, 2, 2], dtype=g.float64)
        assert g.avg_pool3d_backward(go, x, [2], [2], [0], False, True, None, grad_input=o) is o
        check_values(o, [flat(go.tolist())[0] / 8] * 8)

    def unpool_out():
        x = value(1, 1, 2, 2)
        indices = g.tensor([[[[0, 5], [10, 15]]]], dtype=g.int64)
        o = g.zeros([1, 1, 4, 4], dtype=g.float64)
        assert g.max_unpool2d(x, indices, [4, 4], out=o) is o
        v = flat(x.tolist())
        check_values(o, [v[0], 0, 0, 0, 0, v[1], 0, 0, 0, 0, v[2], 0, 0, 0, 0, v[3]])

    return {
        "max_pool3d_with_indices.out": max_out,
        "max_pool3d_with_indices_backward.grad_input": max_backward_out,
        "avg_pool3d.out": avg_out,
        "avg_pool3d_backward.grad_input": avg_backward_out,
        "max_unpool2d.out": unpool_out,
    }


SAMPLES.update(_nn_pool3d_samples())
VALUE_CHECKS.update(_nn_pool3d_out_checks())


def _unfold_reference(x: List[float], C: int, H: int, W: int, k, d, p, s) -> List[float]:
    """im2col of one [C, H, W] image (flat row-major), computed position by position."""
    oh = (H + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (W + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = []
    for c in range(C):
        for i in range(k[0]):
            for j in range(k[1]):
                for y in range(oh):
                    for z in range(ow):
                        h, w = y * s[0] - p[0] + i * d[0], z * s[1] - p[1] + j * d[1]
                        out.append(x[(c * H + h) * W + w] if 0 <= h < H and 0 <= w < W else 0.0)
    return out


def _nn_blocks_samples() -> Dict[str, List[Sample]]:
    """nn (issue 26, remaining ops): im2col / col2im."""
    g = gradgen
    return {
        "im2col": [
            Sample("padding, stride 2", lambda x: g.im2col(x, [2, 2], [1, 1], [1, 0], [2, 1]), [leaf(1, 2, 3, 3)])
        ],
        "col2im": [
            Sample("overlapping", lambda x: g.col2im(x, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]), [leaf(1, 8, 4)])
        ],
    }


def _nn_blocks_checks():
    g = gradgen
    k, d, p, s = [2, 3], [1, 2], [1, 1], [2, 1]

    def unfold():
        x = value(2, 3, 4, 5)
        expected = []
        for n in range(2):
            expected += _unfold_reference(flat(x.tolist())[n * 60 : (n + 1) * 60], 3, 4, 5, k, d, p, s)
        y = g.im2col(x, k, d, p, s)
        assert list(y.shape) == [2, 18, 9]
        check_values(y, expected)
        o = g.zeros([2, 18, 9], dtype=g.float64)
        assert g.im2col(x, k, d, p, s, out=o) is o
        check_values(o, expected)
        check_values(g.nn.functional.unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), expected)
        with pytest.raises(RuntimeError, match="im2col: .*calculated shape of the array of sliding blocks"):
            g.im2col(x, [5, 5], [1, 1], [0, 0], [1, 1])

    def fold():
        # col2im is im2col's adjoint: <im2col(x), c> == <x, col2im(c)>.
        x, c = value(1, 3, 4, 5), value(1, 18, 9, seed=1)
        lhs = sum(a * b for a, b in zip(flat(g.im2col(x, k, d, p, s).tolist()), flat(c.tolist())))
        folded = g.col2im(c, [4, 5], k, d, p, s)
        rhs = sum(a * b for a, b in zip(flat(x.tolist()), flat(folded.tolist())))
        assert abs(lhs - rhs) < 1e-12
        o = g.zeros([1, 3, 4, 5], dtype=g.float64)
        assert g.col2im(c, [4, 5], k, d, p, s, out=o) is o
        check_values(o, flat(folded.tolist()))
        check_values(
            g.nn.functional.fold(c, (4, 5), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), flat(folded.tolist())
        )
        # Blocks of ones: each pixel counts the blocks covering it (2 x 2 blocks of a 3 x 3 image).
        ones = g.ones([1, 4, 4], dtype=g.float64)
        check_values(g.col2im(ones, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]), [1, 2, 1, 2, 4, 2, 1, 2, 1])
        with pytest.raises(RuntimeError, match="col2im: .*expected size of input's dimension 2 to match"):
            g.col2im(c, [4, 4], k, d, p, s)
        with pytest.raises(RuntimeError, match="col2im: Expected size of input's dimension 1 to be divisible"):
            g.col2im(value(1, 7, 9), [4, 5], k, d, p, s)

    return {"im2col.out": unfold, "col2im.out": fold}


SAMPLES.update(_nn_blocks_samples())
VALUE_CHECKS.update(_nn_blocks_checks())


def _attention_reference(q, k, v, mask=None, causal=False, scale=None):
    """softmax(q k^T * scale + mask) v of one [L, E] x [S, E] x [S, Ev] problem, in plain Python
    (a row masked everywhere is 0)."""
    import math

    s = scale if scale is not None else 1 / math.sqrt(len(q[0]))
    out = []
    for i, qi in enumerate(q):
        scores = []
        for j, kj in enumerate(k):
            keep = (j <= i) if causal else (mask is None or not isinstance(mask[i][j], bool) or mask[i][j])
            add = mask[i][j] if mask is not None and not isinstance(mask[i][j], bool) else 0.0
            scores.append(sum(a * b for a, b in zip(qi, kj)) * s + add if keep else -math.inf)
        top = max(scores)
        if top == -math.inf:
            out.append([0.0] * len(v[0]))
            continue
        w = [math.exp(x - top) for x in scores]
        total = sum(w)
        out.append([sum(w[j] * v[j][c] for j in range(len(v))) / total for c in range(len(v[0]))])
    return out


def _nn_attention_checks():
    g = gradgen
    F = g.nn.functional

    def attention():
        q, k, v = value(3, 4), value(5, 4, seed=1), value(5, 2, seed=2)
        Q, K, V = q.tolist(), k.tolist(), v.tolist()
        check_values(F.scaled_dot_product_attention(q, k, v), flat(_attention_reference(Q, K, V)))
        check_values(
            F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.4),
            flat(_attention_reference(Q, K, V, causal=True, scale=0.4)),
        )
        keep = [[True, False, True, True, False], [False] * 5, [False, True, True, True, True]]
        mask = g.tensor([[1.0 if b else 0.0 for b in row] for row in keep], dtype=g.float64) > 0.5
        check_values(F.scaled_dot_product_attention(q, k, v, mask), flat(_attention_reference(Q, K, V, keep)))
        fmask = value(3, 5, seed=3)
        check_values(
            F.scaled_dot_product_attention(q, k, v, fmask), flat(_attention_reference(Q, K, V, fmask.tolist()))
        )
        # dropout_p = 1 drops every weight; 0 < p < 1 keeps the shape.
        check_values(F.scaled_dot_product_attention(q, k, v, dropout_p=1.0), [0.0] * 6)
        assert list(F.scaled_dot_product_attention(q, k, v, dropout_p=0.5).shape) == [3, 2]
        with pytest.raises(RuntimeError, match="scaled_dot_product_attention: Explicit attn_mask should not be set"):
            F.scaled_dot_product_attention(q, k, v, fmask, is_causal=True)
        with pytest.raises(RuntimeError, match="scaled_dot_product_attention: Expected query, key, and value"):
            F.scaled_dot_product_attention(q, k.to(g.float32), v)

    return {"scaled_dot_product_attention": attention}


SAMPLES.update(
    {
        "scaled_dot_product_attention": [
            Sample(
                "causal",
                lambda q, k, v: gradgen.scaled_dot_product_attention(q, k, v, None, 0.0, True),
                [leaf(2, 3, 2), leaf(2, 3, 2, seed=1), leaf(2, 3, 2, seed=2)],
            )
        ]
    }
)
VALUE_CHECKS.update(_nn_attention_checks())


def _nn_resample_out_checks():
    """The upsample ops' out= / grad_input= (issue 26, remaining ops): the out-of-place values
    written into the given tensor, which is returned."""
    g = gradgen
    calls = {
        "upsample_linear1d.out": ((1, 2, 3), [1, 2, 5], lambda x, **o: g.upsample_linear1d(x, [5], False, **o)),
        "upsample_linear1d_backward.grad_input": (
            (1, 2, 5),
            [1, 2, 3],
            lambda x, **o: g.upsample_linear1d_backward(x, [5], [1, 2, 3], True, **o),
        ),
        "upsample_bicubic2d.out": (
            (1, 1, 2, 3),
            [1, 1, 3, 5],
            lambda x, **o: g.upsample_bicubic2d(x, [3, 5], False, **o),
        ),
        "upsample_bicubic2d_backward.grad_input": (
            (1, 1, 3, 5),
            [1, 1, 2, 3],
            lambda x, **o: g.upsample_bicubic2d_backward(x, [3, 5], [1, 1, 2, 3], False, **o),
        ),
        "upsample_trilinear3d.out": (
            (1, 1, 2, 2, 2),
            [1, 1, 3, 3, 3],
            lambda x, **o: g.upsample_trilinear3d(x, [3, 3, 3], False, **o),
        ),
        "upsample_trilinear3d_backward.grad_input": (
            (1, 1, 3, 3, 3),
            [1, 1, 2, 2, 2],
            lambda x, **o: g.upsample_trilinear3d_backward(x, [3, 3, 3], [1, 1, 2, 2, 2], True, **o),
        ),
        "upsample_nearest3d.out": (
            (1, 1, 2, 2, 2),
            [1, 1, 3, 4, 3],
            lambda x, **o: g.upsample_nearest3d(x, [3, 4, 3], **o),
        ),
        "upsample_nearest3d_backward.grad_input": (
            (1, 1, 3, 4, 3),
            [1, 1, 2, 2, 2],
            lambda x, **o: g.upsample_nearest3d_backward(x, [3, 4, 3], [1, 1, 2, 2, 2], **o),
        ),
    }
    checks = {}
    for name, (shape, out_shape, fn) in calls.items():
        key = "grad_input" if name.endswith("grad_input") else "out"

        def check(shape=shape, out_shape=out_shape, fn=fn, key=key):
            x = value(*shape)
            o = g.zeros(out_shape, dtype=g.float64)
            assert fn(x, **{key: o}) is o
            check_values(o, flat(fn(x).tolist()))

        checks[name] = check
    return checks


VALUE_CHECKS.update(_nn_resample_out_checks())


def _nn_embedding_bag_checks():
    """embedding_bag (issue 26, remaining ops) against per-bag sums / means / maxima computed here."""
    g = gradgen
    F = g.nn.functional
    bags = [[0, 2, 2], [], [5, 1], [4, 3, 2]]
    idx = g.tensor([i for b in bags for i in b], dtype=g.int64)
    offs = g.tensor([0, 3, 3, 5], dtype=g.int64)

    def expected(w, mode, pad=None):
        out = []
        for b in bags:
            rows = [w[i] for i in b if i != pad]
            if not rows:
                out.append([0.0] * len(w[0]))
            elif mode == "sum":
                out.append([sum(c) for c in zip(*rows)])
            elif mode == "mean":
                out.append([sum(c) / len(rows) for c in zip(*rows)])
            else:
                out.append([max(c) for c in zip(*rows)])
        return flat(out)

    def check():
        w = value(6, 3)
        W = w.tolist()
        for mode in ["sum", "mean", "max"]:
            check_values(F.embedding_bag(idx, w, offs, mode=mode), expected(W, mode))
            check_values(F.embedding_bag(idx, w, offs, mode=mode, padding_idx=2), expected(W, mode, 2))
        out, offset2bag, bag_size, maximum = g.embedding_bag(w, idx, offs, False, 2)
        assert offset2bag.tolist() == [0, 0, 0, 2, 2, 3, 3, 3]
        assert bag_size.tolist() == [3, 0, 2, 3]
        assert list(maximum.shape) == [4, 3]
        # A 2-D input: bags of equal length; per_sample_weights scale the rows (mode sum).
        two = g.tensor([[0, 1], [2, 3]], dtype=g.int64)
        psw = g.tensor([[1.0, 2.0], [0.5, -1.0]], dtype=g.float64)
        got = F.embedding_bag(two, w, mode="sum", per_sample_weights=psw)
        check_values(got, [W[0][c] + 2 * W[1][c] for c in range(3)] + [0.5 * W[2][c] - W[3][c] for c in range(3)])
        with pytest.raises(ValueError, match="mode has to be one of sum, mean or max"):
            F.embedding_bag(idx, w, offs, mode="min")
        with pytest.raises(ValueError, match="offsets has to be a 1D Tensor but got None"):
            F.embedding_bag(idx, w)
        with pytest.raises(NotImplementedError, match="per_sample_weights is only supported for mode='sum'"):
            F.embedding_bag(two, w, mode="mean", per_sample_weights=psw)
        with pytest.raises(IndexError, match="index 6 is out of bounds for dimension 0 with size 6"):
            F.embedding_bag(g.tensor([6], dtype=g.int64), w, g.tensor([0], dtype=g.int64))
        with pytest.raises(RuntimeError, match="scale_grad_by_freq is not supported"):
            F.embedding_bag(idx, w.requires_grad_(True), offs, mode="sum", scale_grad_by_freq=True).sum().backward()

    return {
        "embedding_bag": check,
        "embedding_bag.padding_idx": check,
        "_embedding_bag": check,
        "_embedding_bag_dense_backward": check,
        "_embedding_bag_per_sample_weights_backward": check,
    }


SAMPLES.update(
    {
        "_embedding_bag": [
            Sample(
                "mean",
                lambda w: gradgen._embedding_bag(
                    w,
                    gradgen.tensor([0, 2, 1, 2], dtype=gradgen.int64),
                    gradgen.tensor([0, 2], dtype=gradgen.int64),
                    False,
                    1,
                )[0],
                [leaf(3, 2)],
            )
        ]
    }
)
VALUE_CHECKS.update(_nn_embedding_bag_checks())


# ---------------------------------------------------------------------------------------------
# indexing (issue 23): index.Tensor, index_put_ / index_put (more in test_indexing.py)
# ---------------------------------------------------------------------------------------------


def _index_samples():
    g = gradgen
    rows = longs([2, 0, 2])
    mask = bools([[True, False, True], [False, True, True]])
    return {
        "index.Tensor": [
            Sample("function, rows", lambda x: g.index(x, [rows]), [leaf(3, 2, seed=1)]),
            Sample(
                "method, separated by a slice",
                lambda x: x.index([longs([1, 0]), None, longs([2, -1])]),
                [leaf(2, 3, 4, seed=2)],
            ),
            Sample("bool mask", lambda x: g.index(x, [mask]), [leaf(2, 3, seed=3)]),
        ],
        "index_put": [
            Sample(
                "accumulate duplicates",
                lambda x, v: g.index_put(x, [rows], v, True),
                [leaf(3, 2, seed=4), leaf(3, 2, seed=5)],
            ),
            Sample(
                "method, broadcast values",
                lambda x, v: x.index_put([longs([1, 0])], v),
                [leaf(3, 2, seed=6), leaf(2, seed=7)],
            ),
        ],
        "index_put_": [
            Sample(
                "method on a clone", lambda x, v: x.clone().index_put_([mask], v), [leaf(2, 3, seed=8), leaf(4, seed=9)]
            ),
            Sample(
                "function, accumulate",
                lambda x, v: g.index_put_(x * 1, [rows], v, accumulate=True),
                [leaf(3, 2, seed=10), leaf(3, 2, seed=11)],
            ),
        ],
    }


def _index_value_checks():
    g = gradgen

    def index_out():
        x = g.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=g.float64)
        o = g.zeros([3], dtype=g.float64)
        assert g.index(x, [longs([1, 0, 1]), longs([0, 1, 1])], out=o) is o
        assert o.tolist() == [3.0, 2.0, 4.0]

    return {"index.Tensor_out": index_out}


SAMPLES.update(_index_samples())
SAMPLES["slice.Tensor"] = [
    Sample("method, step 2", lambda x: x.slice(1, 0, None, 2), [leaf(2, 5, seed=12)]),
    Sample("keywords, negative start", lambda x: x.slice(dim=0, start=-3, step=2), [leaf(4, 2, seed=13)]),
]
VALUE_CHECKS.update(_index_value_checks())


def _select_samples():
    g = gradgen
    mask = bools([[True, False, True], [False, True, True]])
    return {
        "masked_select": [
            Sample("function", lambda x: g.masked_select(x, mask), [leaf(2, 3, seed=1)]),
            Sample(
                "method, mask broadcast", lambda x: x.masked_select(bools([False, True, True])), [leaf(2, 3, seed=2)]
            ),
        ],
        "take": [Sample("method, [2, 2] index", lambda x: x.take(longs([[5, 0], [-1, 5]])), [leaf(2, 3, seed=3)])],
        "take_along_dim": [
            Sample(
                "function, dim 1",
                lambda x: g.take_along_dim(x, longs([[0, 3], [1, 1], [2, 0]]), 1),
                [leaf(3, 4, seed=4)],
            ),
            Sample("method, flattened", lambda x: x.take_along_dim(longs([5, 0])), [leaf(2, 3, seed=5)]),
        ],
    }


def _select_value_checks():
    g = gradgen
    x = g.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -2.0]], dtype=g.float64)

    def masked_select_out():
        o = g.zeros([0], dtype=g.float64)
        assert g.masked_select(x, x != 0, out=o) is o and o.tolist() == [1.5, 2.0, -2.0]

    def take_out():
        o = g.zeros([2], dtype=g.float64)
        assert g.take(x, longs([1, -1]), out=o) is o and o.tolist() == [1.5, -2.0]

    def take_along_dim_out():
        o = g.zeros([2, 1], dtype=g.float64)
        g.take_along_dim(x, longs([[1], [2]]), 1, out=o)
        assert o.tolist() == [[1.5], [-2.0]]

    def nonzero():
        assert g.nonzero(x).tolist() == [[0, 1], [1, 0], [1, 2]]
        assert x.nonzero().dtype == g.int64 and not g.nonzero(x.detach().requires_grad_()).requires_grad
        assert g.nonzero(g.tensor(3.0)).shape == (1, 0)
        o = g.zeros([0], dtype=g.int64)
        assert g.nonzero(x.detach(), out=o) is o and o.shape == (3, 2)

    def argwhere():
        assert g.argwhere(x.detach()).tolist() == [[0, 1], [1, 0], [1, 2]]
        assert x.detach().argwhere().shape == (3, 2)

    return {
        "masked_select.out": masked_select_out,
        "take.out": take_out,
        "take_along_dim.out": take_along_dim_out,
        "nonzero": nonzero,
        "nonzero.out": nonzero,
        "argwhere": argwhere,
    }


SAMPLES.update(_select_samples())
VALUE_CHECKS.update(_select_value_checks())


def _fill_copy_scatter_samples():
    g = gradgen
    mask = bools([[True, False, True], [False, True, True]])
    i24 = longs([[0, 1, 2, 0], [2, 0, 1, 1]])
    return {
        "index_fill.int_Scalar": [
            Sample("method", lambda x: x.index_fill(1, longs([2, 0]), -1.5), [leaf(2, 3, seed=1)])
        ],
        "index_fill.int_Tensor": [
            Sample("function", lambda x, v: g.index_fill(x, 0, longs([1, 1]), v), [leaf(2, 3, seed=2), leaf(seed=3)])
        ],
        "index_copy": [
            Sample("method", lambda x, s: x.index_copy(0, longs([2, 0]), s), [leaf(3, 2, seed=4), leaf(2, 2, seed=5)])
        ],
        "masked_scatter": [
            Sample("function", lambda x, s: g.masked_scatter(x, mask, s), [leaf(2, 3, seed=6), leaf(5, seed=7)])
        ],
        "scatter.src": [Sample("method", lambda x, s: x.scatter(0, i24, s), [leaf(3, 4, seed=8), leaf(2, 4, seed=9)])],
        "scatter.value": [Sample("function", lambda x: g.scatter(x, 0, i24, 2.5), [leaf(3, 4, seed=10)])],
    }


def _fill_copy_scatter_value_checks():
    g = gradgen
    x = g.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=g.float64)
    i = longs([[1, 0]])

    def index_copy_out():
        o = g.zeros([2, 2], dtype=g.float64)
        s = g.tensor([[9.0, 8.0]], dtype=g.float64)
        assert g.index_copy(x, 0, longs([1]), s, out=o) is o and o.tolist() == [[1.0, 2.0], [9.0, 8.0]]

    def scatter_outs():
        s = g.tensor([[10.0, 20.0]], dtype=g.float64)
        o = g.zeros([2, 2], dtype=g.float64)
        assert g.scatter(x, 0, i, s, out=o) is o and o.tolist() == [[1.0, 20.0], [10.0, 4.0]]
        g.scatter(x, 0, i, 0.5, out=o)
        assert o.tolist() == [[1.0, 0.5], [0.5, 4.0]]
        g.scatter(x, 0, i, s, reduce="add", out=o)
        assert o.tolist() == [[1.0, 22.0], [13.0, 4.0]]
        g.scatter(x, 0, i, 2.0, reduce="multiply", out=o)
        assert o.tolist() == [[1.0, 4.0], [6.0, 4.0]]

    def scatter_reduce_forms():
        s = g.tensor([[10.0, 20.0]], dtype=g.float64)
        assert g.scatter(x, 0, i, s, reduce="multiply").tolist() == [[1.0, 40.0], [30.0, 4.0]]
        assert x.scatter(0, i, 1.0, reduce="add").tolist() == [[1.0, 3.0], [4.0, 4.0]]
        with pytest.raises(RuntimeError, match=r"reduce argument must be either add or multiply"):
            g.scatter(x, 0, i, s, reduce="max")
        y = x.detach().requires_grad_()
        out = g.scatter(y, 0, i, 2.0, reduce="add")
        with pytest.raises(RuntimeError, match=r"not implemented"):
            out.sum().backward()

    return {
        "index_copy.out": index_copy_out,
        "scatter.src_out": scatter_outs,
        "scatter.value_out": scatter_outs,
        "scatter.reduce_out": scatter_outs,
        "scatter.value_reduce_out": scatter_outs,
        "scatter.reduce": scatter_reduce_forms,
        "scatter.value_reduce": scatter_reduce_forms,
    }


SAMPLES.update(_fill_copy_scatter_samples())
VALUE_CHECKS.update(_fill_copy_scatter_value_checks())


def _scatter_reduce_samples():
    g = gradgen
    i = longs([[0, 1, 0, 0], [2, 0, 1, 0]])
    return {
        "scatter_reduce.two": [
            Sample(
                f"{r}, include_self={inc}",
                lambda x, s, r=r, inc=inc: g.scatter_reduce(x, 0, i, s, r, include_self=inc),
                [leaf(3, 4, seed=1), leaf(2, 4, seed=2)],
            )
            for r in ("sum", "prod", "mean", "amax", "amin")
            for inc in (True, False)
        ],
    }


def _scatter_reduce_value_checks():
    g = gradgen

    def two_out():
        x = g.tensor([1.0, 2.0, 3.0], dtype=g.float64)
        o = g.zeros([3], dtype=g.float64)
        r = g.scatter_reduce(x, 0, longs([0, 0, 2]), g.tensor([3.0, 5.0, 1.0], dtype=g.float64), "mean", out=o)
        assert r is o and o.tolist() == [3.0, 2.0, 2.0]

    return {"scatter_reduce.two_out": two_out}


SAMPLES.update(_scatter_reduce_samples())
VALUE_CHECKS.update(_scatter_reduce_value_checks())


def _index_inplace_samples():
    i24 = longs([[0, 1, 2, 0], [2, 0, 1, 1]])
    mask = bools([[True, False, True], [False, True, True]])
    return {
        "index_fill_.int_Scalar": [
            Sample("on a copy", lambda x: (x * 1).index_fill_(0, longs([2, 0]), -1.5), [leaf(3, 4, seed=1)])
        ],
        "index_fill_.int_Tensor": [
            Sample(
                "on a copy", lambda x, v: (x * 1).index_fill_(1, longs([3, 0]), v), [leaf(3, 4, seed=2), leaf(seed=3)]
            )
        ],
        "index_copy_": [
            Sample(
                "on a copy",
                lambda x, s: (x * 1).index_copy_(0, longs([3, 0]), s),
                [leaf(4, 3, seed=4), leaf(2, 3, seed=5)],
            )
        ],
        "masked_scatter_": [
            Sample("on a copy", lambda x, s: (x * 1).masked_scatter_(mask, s), [leaf(2, 3, seed=6), leaf(5, seed=7)])
        ],
        "scatter_.src": [
            Sample("on a copy", lambda x, s: (x * 1).scatter_(0, i24, s), [leaf(3, 4, seed=8), leaf(2, 4, seed=9)])
        ],
        "scatter_.value": [Sample("on a copy", lambda x: (x * 1).scatter_(0, i24, 2.5), [leaf(3, 4, seed=10)])],
        "scatter_reduce_.two": [
            Sample(
                f"{r} on a copy",
                lambda x, s, r=r: (x * 1).scatter_reduce_(0, i24, s, r),
                [leaf(3, 4, seed=11), leaf(2, 4, seed=12)],
            )
            for r in ("sum", "prod", "mean", "amax", "amin")
        ],
    }


def _index_inplace_value_checks():
    g = gradgen

    def reduce_inplace():
        x = g.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=g.float64)
        s = g.tensor([[10.0, 20.0]], dtype=g.float64)
        assert x.scatter_(0, longs([[1, 0]]), s, reduce="add") is x
        assert x.tolist() == [[1.0, 22.0], [13.0, 4.0]]
        x.scatter_(0, longs([[1, 0]]), 2.0, reduce="multiply")
        assert x.tolist() == [[1.0, 44.0], [26.0, 4.0]]

    return {"scatter_.reduce": reduce_inplace, "scatter_.value_reduce": reduce_inplace}


SAMPLES.update(_index_inplace_samples())
VALUE_CHECKS.update(_index_inplace_value_checks())


def _dtype_samples():
    # true_divide (issue 23, dtypes): div's alias, as a function and a method.
    return {
        "true_divide.Tensor": binary(gradgen.true_divide, b=positive)
        + [Sample("method", lambda a, b: a.true_divide(b), [leaf(3, seed=3), positive(3, seed=4)])],
        "true_divide.Scalar": [Sample("function", lambda a: gradgen.true_divide(a, 4.0), [leaf(2, 2)])],
        # divide / multiply / subtract: PyTorch's aliases of div / mul / sub.
        "divide.Tensor": binary(gradgen.divide, b=positive),
        "divide.Scalar": [Sample("method", lambda a: a.divide(4.0), [leaf(2, 2)])],
        "divide.Tensor_mode": [
            Sample("rounding_mode=None", lambda a, b: gradgen.divide(a, b, rounding_mode=None), [leaf(3), positive(3)])
        ],
        "divide.Scalar_mode": [Sample("method", lambda a: a.divide(4.0, rounding_mode=None), [leaf(3)])],
        "multiply.Tensor": binary(gradgen.multiply),
        "multiply.Scalar": [Sample("method", lambda a: a.multiply(2.5), [leaf(2, 2)])],
        "subtract.Tensor": binary(lambda a, b: gradgen.subtract(a, b, alpha=2)),
        "subtract.Scalar": [Sample("method", lambda a: a.subtract(2.5, 3), [leaf(2, 2)])],
        "divide_.Tensor": [Sample("method on a clone", lambda a, b: a.clone().divide_(b), [leaf(2, 3), positive(3)])],
        "divide_.Scalar": [Sample("method on a clone", lambda a: a.clone().divide_(2.0), [leaf(3)])],
        "divide_.Tensor_mode": [
            Sample("method on a clone", lambda a, b: a.clone().divide_(b, rounding_mode=None), [leaf(3), positive(3)])
        ],
        "divide_.Scalar_mode": [
            Sample("method on a clone", lambda a: a.clone().divide_(2.0, rounding_mode=None), [leaf(3)])
        ],
        "multiply_.Tensor": [Sample("method on a clone", lambda a, b: a.clone().multiply_(b), [leaf(2, 3), leaf(3)])],
        "multiply_.Scalar": [Sample("method on a clone", lambda a: a.clone().multiply_(2.0), [leaf(3)])],
        "subtract_.Tensor": [
            Sample("method on a clone", lambda a, b: a.clone().subtract_(b, alpha=2), [leaf(2, 3), leaf(3)])
        ],
        "subtract_.Scalar": [Sample("method on a clone", lambda a: a.clone().subtract_(2.0, 3), [leaf(3)])],
    }


SAMPLES.update(_dtype_samples())


def _decomp_lu_samples():
    """The LU-based decompositions (issue 23): det, slogdet, logdet, inv, solve, through their
    Python spellings (gradgen.linalg.*, the Tensor methods, the private ops)."""
    g = gradgen

    def sq(*shape, seed=0):
        # Invertible and well conditioned: entries in [-1, 1) plus 3 I.
        with g.no_grad():
            a = value(*shape, seed=seed) + 3 * g.eye(shape[-1], dtype=g.float64)
        return a.requires_grad_(True)

    a3 = lambda seed: [sq(3, 3, seed=seed)]  # noqa: E731
    ab = lambda seed: [sq(3, 3, seed=seed), leaf(3, 2, seed=seed + 1)]  # noqa: E731
    return {
        "_linalg_det": [Sample("private op", lambda a: g._linalg_det(a)[0], a3(1))],
        "linalg_det": [
            Sample("linalg.det", g.linalg.det, a3(2)),
            Sample("batched", g.linalg.det, [sq(2, 3, 3, seed=3)]),
        ],
        "det": [Sample("method", lambda a: a.det(), a3(4)), Sample("function", g.det, a3(5))],
        "_linalg_slogdet": [Sample("private op", lambda a: g._linalg_slogdet(a)[1], a3(6))],
        "linalg_slogdet": [Sample("linalg.slogdet", lambda a: g.linalg.slogdet(a)[1], a3(7))],
        "slogdet": [Sample("method", lambda a: a.slogdet()[1], a3(8))],
        "logdet": [Sample("method", lambda a: a.logdet(), a3(9))],
        "linalg_inv_ex": [Sample("linalg.inv_ex", lambda a: g.linalg.inv_ex(a)[0], a3(10))],
        "linalg_inv": [Sample("linalg.inv", g.linalg.inv, a3(11))],
        "inverse": [Sample("method", lambda a: a.inverse(), a3(12))],
        "_linalg_solve_ex": [Sample("private op", lambda a, b: g._linalg_solve_ex(a, b)[0], ab(13))],
        "linalg_solve_ex": [Sample("linalg.solve_ex", lambda a, b: g.linalg.solve_ex(a, b)[0], ab(15))],
        "linalg_solve": [
            Sample("linalg.solve", g.linalg.solve, ab(17)),
            Sample("left=False", lambda a, b: g.linalg.solve(a, b.mT, left=False), ab(19)),
        ],
    }


def _decomp_lu_value_checks():
    g = gradgen
    a = g.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=g.float64)

    def det_out():
        o = g.zeros([], dtype=g.float64)
        assert g.linalg.det(a, out=o) is o and abs(o.item() - 5.0) < 1e-12

    def slogdet_out(fn):
        def check():
            s, la = g.zeros([], dtype=g.float64), g.zeros([], dtype=g.float64)
            r = fn(a, out=(s, la))
            assert r[0] is s and r[1] is la and s.item() == 1.0 and abs(la.item() - math.log(5.0)) < 1e-12

        return check

    def inv_out(fn):
        def check():
            o = g.zeros([2, 2], dtype=g.float64)
            assert fn(a, out=o) is o and abs(o[0, 0].item() - 0.6) < 1e-12 and abs(o[0, 1].item() + 0.2) < 1e-12

        return check

    def inv_ex_out():
        o, info = g.zeros([2, 2], dtype=g.float64), g.zeros([], dtype=g.int64)
        g.linalg.inv_ex(a, out=(o, info))
        assert abs(o[1, 1].item() - 0.4) < 1e-12 and info.item() == 0

    def solve_out():
        b = g.tensor([[1.0], [2.0]], dtype=g.float64)
        o = g.zeros([2, 1], dtype=g.float64)
        assert g.linalg.solve(a, b, out=o) is o and abs(o[0, 0].item() - 0.2) < 1e-12

    def solve_ex_out():
        b = g.tensor([1.0, 2.0], dtype=g.float64)
        o, info = g.zeros([2], dtype=g.float64), g.zeros([], dtype=g.int64)
        g.linalg.solve_ex(a, b, out=(o, info))
        assert abs(o[1].item() - 0.6) < 1e-12 and info.item() == 0

    return {
        "linalg_det.out": det_out,
        "linalg_slogdet.out": slogdet_out(g.linalg.slogdet),
        "slogdet.out": slogdet_out(g.slogdet),
        "linalg_inv_ex.inverse": inv_ex_out,
        "linalg_inv.out": inv_out(g.linalg.inv),
        "inverse.out": inv_out(g.inverse),
        "linalg_solve_ex.out": solve_ex_out,
        "linalg_solve.out": solve_out,
    }


SAMPLES.update(_decomp_lu_samples())
VALUE_CHECKS.update(_decomp_lu_value_checks())


def _decomp_cholesky_samples():
    g = gradgen

    def spd(x):
        return x @ x.mT + 3 * g.eye(3, dtype=g.float64)

    return {
        "linalg_cholesky_ex": [
            Sample("linalg.cholesky_ex", lambda x: g.linalg.cholesky_ex(spd(x))[0], [leaf(3, 3, seed=1)])
        ],
        "linalg_cholesky": [
            Sample("linalg.cholesky", lambda x: g.linalg.cholesky(spd(x)), [leaf(3, 3, seed=2)]),
            Sample("upper", lambda x: g.linalg.cholesky(spd(x), upper=True), [leaf(3, 3, seed=3)]),
        ],
    }


def _decomp_cholesky_value_checks():
    g = gradgen
    a = g.tensor([[4.0, 2.0], [2.0, 5.0]], dtype=g.float64)

    def out():
        o = g.zeros([2, 2], dtype=g.float64)
        assert g.linalg.cholesky(a, out=o) is o and o.tolist() == [[2.0, 0.0], [1.0, 2.0]]

    def ex_out():
        o, info = g.zeros([2, 2], dtype=g.float64), g.zeros([], dtype=g.int64)
        g.linalg.cholesky_ex(a, upper=True, out=(o, info))
        assert o.tolist() == [[2.0, 1.0], [0.0, 2.0]] and info.item() == 0

    return {"linalg_cholesky.out": out, "linalg_cholesky_ex.L": ex_out}


SAMPLES.update(_decomp_cholesky_samples())
VALUE_CHECKS.update(_decomp_cholesky_value_checks())


def _decomp_qr_samples():
    g = gradgen
    return {
        "linalg_qr": [
            Sample("linalg.qr", lambda x: g.linalg.qr(x), [leaf(4, 3, seed=1)]),
            Sample("complete, wide", lambda x: g.linalg.qr(x, "complete"), [leaf(2, 3, seed=2)]),
        ],
    }


def _decomp_qr_value_checks():
    g = gradgen

    def out():
        a = g.tensor([[3.0, 0.0], [4.0, 5.0]], dtype=g.float64)
        q, r = g.zeros([2, 2], dtype=g.float64), g.zeros([2, 2], dtype=g.float64)
        res = g.linalg.qr(a, out=(q, r))
        assert res[0] is q and res[1] is r and abs(abs(r[0, 0].item()) - 5.0) < 1e-12
        assert abs((q @ r - a).abs().max().item()) < 1e-12

    return {"linalg_qr.out": out}


SAMPLES.update(_decomp_qr_samples())
VALUE_CHECKS.update(_decomp_qr_value_checks())


def _decomp_svd_samples():
    g = gradgen

    def invariants(u, s, vh):
        k = s.shape[-1]
        return u[..., :k].abs(), s, vh[..., :k, :].abs()

    return {
        "_linalg_svd": [Sample("private op", lambda x: invariants(*g._linalg_svd(x)), [leaf(3, 2, seed=1)])],
        "linalg_svd": [
            Sample(
                "linalg.svd thin", lambda x: invariants(*g.linalg.svd(x, full_matrices=False)), [leaf(4, 3, seed=2)]
            ),
            Sample("linalg.svd full, square", lambda x: invariants(*g.linalg.svd(x)), [leaf(3, 3, seed=3)]),
        ],
        "linalg_svdvals": [Sample("linalg.svdvals", g.linalg.svdvals, [leaf(2, 3, seed=4)])],
        "svd": [Sample("method", lambda x: (lambda u, s, v: invariants(u, s, v.mT))(*x.svd()), [leaf(3, 2, seed=5)])],
    }


def _decomp_svd_value_checks():
    g = gradgen
    a = g.tensor([[3.0, 0.0], [0.0, -2.0], [0.0, 0.0]], dtype=g.float64)

    def svd_out():
        u, s, vh = g.zeros([3, 3], dtype=g.float64), g.zeros([2], dtype=g.float64), g.zeros([2, 2], dtype=g.float64)
        res = g.linalg.svd(a, out=(u, s, vh))
        assert res[1] is s and s.tolist() == [3.0, 2.0] and list(u.shape) == [3, 3]

    def svdvals_out():
        o = g.zeros([2], dtype=g.float64)
        assert g.linalg.svdvals(a, out=o) is o and o.tolist() == [3.0, 2.0]

    def torch_svd_out():
        u, s, v = g.zeros([3, 2], dtype=g.float64), g.zeros([2], dtype=g.float64), g.zeros([2, 2], dtype=g.float64)
        g.svd(a, out=(u, s, v))
        assert s.tolist() == [3.0, 2.0] and (u * s.unsqueeze(-2) @ v.mT - a).abs().max().item() < 1e-12

    return {"linalg_svd.U": svd_out, "linalg_svdvals.out": svdvals_out, "svd.U": torch_svd_out}


SAMPLES.update(_decomp_svd_samples())
VALUE_CHECKS.update(_decomp_svd_value_checks())


def _decomp_eigh_samples():
    g = gradgen

    def wv(w, v):
        return w, v.abs()

    return {
        "_linalg_eigh": [Sample("private op", lambda x: wv(*g._linalg_eigh(x + x.mT)), [leaf(3, 3, seed=1)])],
        "linalg_eigh": [
            Sample("linalg.eigh", lambda x: wv(*g.linalg.eigh(x + x.mT)), [leaf(3, 3, seed=2)]),
            Sample("UPLO='U'", lambda x: wv(*g.linalg.eigh(x + x.mT, UPLO="U")), [leaf(3, 3, seed=3)]),
        ],
        "linalg_eigvalsh": [Sample("linalg.eigvalsh", lambda x: g.linalg.eigvalsh(x + x.mT), [leaf(3, 3, seed=4)])],
    }


def _decomp_eigh_value_checks():
    g = gradgen
    a = g.tensor([[2.0, 0.0], [0.0, -1.0]], dtype=g.float64)

    def eigh_out():
        w, v = g.zeros([2], dtype=g.float64), g.zeros([2, 2], dtype=g.float64)
        res = g.linalg.eigh(a, out=(w, v))
        assert res[0] is w and w.tolist() == [-1.0, 2.0] and v.abs().tolist() == [[0.0, 1.0], [1.0, 0.0]]

    def eigvalsh_out():
        o = g.zeros([2], dtype=g.float64)
        assert g.linalg.eigvalsh(a, out=o) is o and o.tolist() == [-1.0, 2.0]

    return {"linalg_eigh.eigvals": eigh_out, "linalg_eigvalsh.out": eigvalsh_out}


SAMPLES.update(_decomp_eigh_samples())
VALUE_CHECKS.update(_decomp_eigh_value_checks())


def _nonzero_tuple_value_checks():
    g = gradgen

    def as_tuple():
        x = g.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]], dtype=g.float64)
        rows, cols = g.nonzero(x, as_tuple=True)
        assert rows.tolist() == [0, 1, 1] and cols.tolist() == [1, 0, 2] and rows.dtype == g.int64
        assert [t.tolist() for t in x.nonzero(as_tuple=True)] == [[0, 1, 1], [1, 0, 2]]
        assert [t.tolist() for t in g.nonzero_numpy(x)] == [[0, 1, 1], [1, 0, 2]]
        assert x.nonzero().tolist() == [[0, 1], [1, 0], [1, 2]]
        assert [t.tolist() for t in g.nonzero(g.tensor(5.0), as_tuple=True)] == [[0]]
        with pytest.raises(RuntimeError, match="out kwarg"):
            g.nonzero(x, out=g.zeros([0], dtype=g.int64), as_tuple=True)

    return {"nonzero_numpy": as_tuple}


VALUE_CHECKS.update(_nonzero_tuple_value_checks())


def _nn2_samples() -> Dict[str, List[Sample]]:
    """nn (issue 26, second batch): max_unpool3d."""
    g = gradgen

    def unpool3_indices():
        return g.max_pool3d_with_indices(value(1, 1, 4, 4, 4, seed=3), [2, 2, 2], [2, 2, 2])[1]

    return {
        "max_unpool3d": [
            Sample(
                "to [4, 4, 4]",
                lambda x: g.max_unpool3d(x, unpool3_indices(), [4, 4, 4], [2, 2, 2], [0, 0, 0]),
                [leaf(1, 1, 2, 2, 2)],
            )
        ],
    }


def _nn2_checks():
    g = gradgen

    def unpool3_out():
        x = value(1, 1, 1, 1, 2)
        indices = g.tensor([[[[[0, 7]]]]], dtype=g.int64)
        o = g.zeros([1, 1, 2, 2, 2], dtype=g.float64)
        assert g.max_unpool3d(x, indices, [2, 2, 2], [2, 2, 2], [0, 0, 0], out=o) is o
        v = flat(x.tolist())
        check_values(o, [v[0], 0, 0, 0, 0, 0, 0, v[1]])

    return {"max_unpool3d.out": unpool3_out}


SAMPLES.update(_nn2_samples())
VALUE_CHECKS.update(_nn2_checks())


def _grid_samples() -> Dict[str, List[Sample]]:
    """nn (issue 26, resampling): grid_sampler_2d / _3d, their backward ops and grid_sampler, and
    the antialiased resampling ops. The grid is
    scaled to about [-1.2, 1.2] so that padding applies (the backward's second derivatives are
    grid_sampler_2d's third)."""
    g = gradgen

    def spread(t):
        return t * 1.2

    return {
        "grid_sampler": [
            Sample(
                "bicubic, reflection",
                lambda x, grid: g.grid_sampler(x, spread(grid), 2, 2, False),
                [leaf(1, 2, 3, 4, seed=1), leaf(1, 2, 3, 2, seed=2)],
            )
        ],
        "grid_sampler_2d": [
            Sample(
                f"mode {mode}, padding {padding}, align_corners {align}",
                lambda x, grid, mode=mode, padding=padding, align=align: g.grid_sampler_2d(
                    x, spread(grid), mode, padding, align
                ),
                [leaf(2, 1, 3, 3, seed=3 + mode), leaf(2, 2, 2, 2, seed=6 + padding)],
            )
            for mode, padding, align in [(0, 0, False), (1, 1, True), (2, 2, True), (2, 0, False)]
        ],
        "grid_sampler_2d_backward": [
            Sample(
                "bilinear, border",
                lambda go, x, grid: g.grid_sampler_2d_backward(go, x, spread(grid), 0, 1, False, [True, True]),
                [leaf(1, 2, 2, 2, seed=10), leaf(1, 2, 3, 3, seed=11), leaf(1, 2, 2, 2, seed=12)],
            )
        ],
        # The volumetric sampler (5-D input, grid [N, OD, OH, OW, 3]): bilinear and nearest.
        "grid_sampler_3d": [
            Sample(
                f"mode {mode}, padding {padding}, align_corners {align}",
                lambda x, grid, mode=mode, padding=padding, align=align: g.grid_sampler_3d(
                    x, spread(grid), mode, padding, align
                ),
                [leaf(1, 2, 2, 3, 2, seed=13 + padding), leaf(1, 2, 1, 2, 3, seed=16 + mode)],
            )
            for mode, padding, align in [(0, 0, False), (0, 2, True), (1, 1, False)]
        ],
        "grid_sampler_3d_backward": [
            Sample(
                "bilinear, reflection",
                lambda go, x, grid: g.grid_sampler_3d_backward(go, x, spread(grid), 0, 2, False, [True, True]),
                [leaf(1, 1, 2, 1, 2, seed=18), leaf(1, 1, 2, 3, 2, seed=19), leaf(1, 2, 1, 2, 3, seed=20)],
            )
        ],
        # interpolate's antialias=True: the antialiased ops, their .vec overloads and backward ops.
        "_upsample_bilinear2d_aa": [
            Sample(
                "down to [2, 3]", lambda x: g._upsample_bilinear2d_aa(x, [2, 3], False), [leaf(1, 2, 5, 7, seed=21)]
            ),
            Sample(
                "up, align_corners", lambda x: g._upsample_bilinear2d_aa(x, [5, 4], True), [leaf(1, 1, 3, 2, seed=22)]
            ),
        ],
        "_upsample_bilinear2d_aa.vec": [
            Sample(
                "scale_factors",
                lambda x: g._upsample_bilinear2d_aa(x, None, False, [0.5, 1.5]),
                [leaf(1, 1, 6, 3, seed=23)],
            )
        ],
        "_upsample_bilinear2d_aa_backward": [
            Sample(
                "down",
                lambda go: g._upsample_bilinear2d_aa_backward(go, [2, 3], [1, 2, 5, 7], False),
                [leaf(1, 2, 2, 3)],
            )
        ],
        "_upsample_bicubic2d_aa": [
            Sample("down to [3, 2]", lambda x: g._upsample_bicubic2d_aa(x, [3, 2], False), [leaf(1, 2, 7, 5, seed=24)]),
            Sample(
                "up, align_corners", lambda x: g._upsample_bicubic2d_aa(x, [4, 5], True), [leaf(1, 1, 2, 3, seed=25)]
            ),
        ],
        "_upsample_bicubic2d_aa.vec": [
            Sample(
                "output_size", lambda x: g._upsample_bicubic2d_aa(x, [2, 6], False, None), [leaf(1, 1, 6, 3, seed=26)]
            )
        ],
        "_upsample_bicubic2d_aa_backward": [
            Sample(
                "down",
                lambda go: g._upsample_bicubic2d_aa_backward(go, [3, 2], [1, 2, 7, 5], False),
                [leaf(1, 2, 3, 2)],
            )
        ],
    }


def _grid_checks():
    g = gradgen

    def sampler_out():
        x = g.tensor([[[[1.0, 2.0], [3.0, 4.0]]]], dtype=g.float64)
        grid = g.tensor([[[[0.0, 0.0], [1.0, -1.0]]]], dtype=g.float64)
        o = g.zeros([1, 1, 1, 2], dtype=g.float64)
        assert g.grid_sampler_2d(x, grid, 0, 1, True, out=o) is o
        check_values(o, [2.5, 2.0])  # the centre, and the top-right corner

    def backward_out():
        x = g.tensor([[[[1.0, 2.0], [3.0, 4.0]]]], dtype=g.float64)
        grid = g.tensor([[[[0.0, 0.0]]]], dtype=g.float64)
        go = g.ones([1, 1, 1, 1], dtype=g.float64)
        gi, gg = g.zeros([0], dtype=g.float64), g.zeros([0], dtype=g.float64)
        g.grid_sampler_2d_backward(go, x, grid, 0, 0, True, [True, True], out=(gi, gg))
        check_values(gi, [0.25, 0.25, 0.25, 0.25])
        check_values(gg, [0.5, 1.0])  # d/dx = (2 - 1) * 1/2, d/dy = (3 - 1) * 1/2

    return {"grid_sampler_2d.out": sampler_out, "grid_sampler_2d_backward.out": backward_out}


SAMPLES.update(_grid_samples())
VALUE_CHECKS.update(_grid_checks())


def _shift_checks():
    # The shifts' values against PyTorch: tests/differential/cases_shift.py; their operators and
    # errors: tests/python/test_shifts.py. Here every declaration is called once.
    g = gradgen

    def shifts():
        a, s = g.tensor([1, -8, 5], dtype=g.int8), g.tensor([1, 2, 8], dtype=g.int8)
        assert g.bitwise_left_shift(a, s).tolist() == [2, -32, 0]
        assert a.bitwise_right_shift(s).tolist() == [0, -2, 0]
        assert g.bitwise_left_shift(a, 3).tolist() == [8, -64, 40]
        assert a.bitwise_right_shift(1).tolist() == [0, -4, 2]
        assert g.bitwise_left_shift(3, s).tolist() == [6, 12, 0]  # the amount in int8: 3 << 8 is 0
        assert g.bitwise_right_shift(-100, s).tolist() == [-50, -25, -1]
        for op in ("bitwise_left_shift_", "bitwise_right_shift_"):
            for other in (s, 2):
                x = a.clone()
                assert getattr(x, op)(other) is x
                assert x.tolist() == getattr(g, op[:-1])(a, other).tolist()
        for f in (g.bitwise_left_shift, g.bitwise_right_shift):
            for args in ((a, s), (a, 2), (7, s)):
                o = g.zeros([0], dtype=g.int16)
                assert f(*args, out=o) is o and o.tolist() == f(*args).tolist() and o.dtype is g.int16

    names = ["Tensor", "_.Tensor", "Tensor_out", "Tensor_Scalar", "_.Tensor_Scalar", "Tensor_Scalar_out"]
    names += ["Scalar_Tensor", "Scalar_Tensor_out"]
    return {f"bitwise_{d}_shift{'' if n.startswith('_') else '.'}{n}": shifts for d in ("left", "right") for n in names}


VALUE_CHECKS.update(_shift_checks())


def _bitwise_variant_checks():
    # The values and refusals against PyTorch: tests/differential/cases_bitwise_ops.py. Here every
    # declaration is called once from Python, its result compared with the out-of-place op's.
    g = gradgen

    def bitwise_variants():
        a, c = g.tensor([12, -7, 0, 5]), g.tensor([10, 3, -1, 5])
        for op in ("bitwise_and", "bitwise_or", "bitwise_xor"):
            f = getattr(g, op)
            for other in (c, 6):
                x = a.clone()
                assert getattr(x, op + "_")(other) is x and x.tolist() == f(a, other).tolist()
                o = g.zeros([0], dtype=g.int16)
                assert f(a, other, out=o) is o and o.dtype is g.int16 and o.tolist() == f(a, other).tolist()
            assert f(6, a).tolist() == f(a, 6).tolist()
            o = g.zeros([0], dtype=g.int64)
            assert f(6, a, out=o) is o and o.tolist() == f(a, 6).tolist()
            with pytest.raises(RuntimeError, match="Expected out tensor to have dtype long int, but got float instead"):
                f(6, a, out=g.zeros([0], dtype=g.float32))
        x = a.clone()
        assert x.bitwise_not_() is x and x.tolist() == [-13, 6, -1, -6]
        o = g.zeros([0], dtype=g.int64)
        assert g.bitwise_not(a, out=o) is o and o.tolist() == [-13, 6, -1, -6]
        with pytest.raises(RuntimeError, match="Found dtype Short but expected Long"):
            g.bitwise_not(a, out=g.zeros([0], dtype=g.int16))
        for op in ("logical_and", "logical_or", "logical_xor"):
            x = g.tensor([1.5, 0.0, -2.0, 0.0], dtype=g.float64)
            expected = [float(v) for v in getattr(g, op)(x, c.clone().abs() - 1).tolist()]
            assert getattr(x, op + "_")(c.clone().abs() - 1) is x and x.tolist() == expected
        x = g.tensor([2, 0, -1])
        assert x.logical_not_() is x and x.tolist() == [0, 1, 0] and x.dtype is g.int64

    names = [f"bitwise_{op}{n}" for op in ("and", "or", "xor") for n in ("_.Tensor", "_.Scalar")]
    names += [f"bitwise_{op}.{n}" for op in ("and", "or", "xor") for n in ("Tensor_out", "Scalar_out", "Scalar_Tensor")]
    names += [f"bitwise_{op}.Scalar_Tensor_out" for op in ("and", "or", "xor")]
    names += ["bitwise_not_", "bitwise_not.out", "logical_and_", "logical_or_", "logical_xor_", "logical_not_"]
    return {n: bitwise_variants for n in names}


VALUE_CHECKS.update(_bitwise_variant_checks())


def _aminmax_samples() -> Dict[str, List[Sample]]:
    # Distinct random values (ties and NaN: tests/differential/cases_aminmax.py).
    return {
        "aminmax": [
            Sample(
                "dim 1, both", lambda x: gradgen.aminmax(x, dim=1).min * 2 + gradgen.aminmax(x, dim=1).max, [leaf(2, 3)]
            ),
            Sample("method, no dim, keepdim", lambda x: x.aminmax(keepdim=True)[1] - x.aminmax()[0], [leaf(3, 2)]),
        ]
    }


def _aminmax_checks():
    g = gradgen

    def fields_and_out():
        x = g.tensor([[1.0, 5.0, -2.0], [float("nan"), 2.0, 0.0]], dtype=g.float64)
        r = g.aminmax(x, dim=1)
        assert type(r).__name__ == "aminmax" and type(r).__module__ == "gradgen.return_types"
        lo, hi = r
        assert lo is not None and r.min.tolist()[0] == -2.0 and r.max.tolist()[0] == 5.0
        assert math.isnan(r.min.tolist()[1]) and math.isnan(hi.tolist()[1])
        assert list(x.aminmax(keepdim=True).max.shape) == [1, 1]
        o1, o2 = g.zeros([0], dtype=g.float64), g.zeros([0], dtype=g.float64)
        out = g.aminmax(x, dim=0, out=(o1, o2))
        assert out[0] is o1 and out[1] is o2 and o2.tolist()[1:] == [5.0, 0.0]
        # PyTorch's type of out=: torch.return_types.aminmax_out, with the same fields.
        assert type(out).__name__ == "aminmax_out" and type(out).__module__ == "gradgen.return_types"
        assert out._fields == ("min", "max") and out.max is o2
        with pytest.raises(RuntimeError, match=r"aminmax\(\): cannot compute aminmax over an empty dimension"):
            g.aminmax(g.zeros([0, 3]))
        with pytest.raises(IndexError, match="aminmax: Expected reduction dim 0 to have non-zero size"):
            g.aminmax(g.zeros([0, 3]), dim=0)
        assert list(g.aminmax(g.zeros([0, 3]), dim=1).min.shape) == [0]

    return {"aminmax.out": fields_and_out}


SAMPLES.update(_aminmax_samples())
VALUE_CHECKS.update(_aminmax_checks())


# ---------------------------------------------------------------------------------------------
# nn (issue 26, the last op): ctc_loss; max_pool1d_with_indices
# ---------------------------------------------------------------------------------------------


def _nn_ctc_samples() -> Dict[str, List[Sample]]:
    """PyTorch's gradient of ctc_loss is the loss's through a log_softmax of log_probs, so the
    samples take log_softmax of the leaf (as PyTorch's gradcheck_wrapper_ctc_loss does). No
    second derivative: PyTorch has none for _ctc_loss_backward."""
    g = gradgen
    padded = g.tensor([[1, 2, 2], [3, 1, 0]], dtype=g.int64)
    concatenated = g.tensor([0, 1, 1, 2, 0], dtype=g.int64)
    return {
        "ctc_loss.IntList": [
            Sample("mean", lambda x: g.ctc_loss(x.log_softmax(2), padded, [5, 4], [3, 2]), [leaf(5, 2, 4)], False),
            Sample(
                "sum, 1-D targets, blank 3",
                lambda x: g.ctc_loss(x.log_softmax(2), concatenated, (5, 1, 4), (3, 0, 2), 3, 2),
                [leaf(5, 3, 4, seed=1)],
                False,
            ),
            Sample(
                "unbatched, zero_infinity",
                lambda x: g.ctc_loss(x.log_softmax(1), padded[0], [5], [3], 0, 0, True),
                [leaf(5, 4, seed=2)],
                False,
            ),
        ],
        "ctc_loss.Tensor": [
            Sample(
                "tensor lengths, none",
                lambda x: g.ctc_loss(x.log_softmax(2), padded, g.tensor([5, 4]), g.tensor([3, 2]), reduction=0),
                [leaf(5, 2, 4, seed=3)],
                False,
            ),
        ],
        "_ctc_loss": [
            Sample(
                "padded",
                lambda x: g._ctc_loss(x.log_softmax(2), padded, [5, 4], [3, 2])[0],
                [leaf(5, 2, 4, seed=4)],
                False,
            ),
        ],
        "_ctc_loss.Tensor": [
            Sample(
                "1-D targets, blank 3",
                lambda x: g._ctc_loss(
                    x.log_softmax(2), concatenated, g.tensor([5, 1, 4]), g.tensor([3, 0, 2]), blank=3
                )[0],
                [leaf(5, 3, 4, seed=5)],
                False,
            ),
        ],
        "max_pool1d_with_indices": [
            Sample("stride 2, padding 1", lambda x: g.max_pool1d_with_indices(x, [3], [2], [1])[0], [leaf(2, 3, 7)]),
            Sample("unbatched, ceil_mode", lambda x: g.max_pool1d_with_indices(x, 2, ceil_mode=True)[0], [leaf(2, 5)]),
        ],
    }


def _nn_ctc_value_checks():
    g = gradgen
    padded = g.tensor([[1, 2, 2], [3, 1, 0]], dtype=g.int64)
    x = value(5, 2, 4, seed=6).log_softmax(2)

    def out():
        for il, tl in (([5, 4], [3, 2]), (g.tensor([5, 4]), g.tensor([3, 2]))):
            nll, la = g.zeros([0], dtype=g.float64), g.zeros([0], dtype=g.float64)
            r = g._ctc_loss(x, padded, il, tl, 0, False, out=(nll, la))
            assert r[0] is nll and r[1] is la
            want = g._ctc_loss(x, padded, il, tl)
            assert nll.tolist() == want[0].tolist() and la.tolist() == want[1].tolist()

    def backward():
        # The kernel's gradient is autograd's through _ctc_loss; its own gradient raises.
        lp = x.detach().requires_grad_(True)
        nll, la = g._ctc_loss(lp, padded, [5, 4], [3, 2])
        go = g.tensor([0.5, -2.0], dtype=g.float64)
        (want,) = g.autograd.grad((nll * go).sum(), [lp])
        for il, tl in (([5, 4], [3, 2]), (g.tensor([5, 4]), g.tensor([3, 2]))):
            grad = go.clone().requires_grad_(True)
            got = g._ctc_loss_backward(grad, lp, padded, il, tl, nll.detach(), la, 0)
            check_values(got, flat(want.tolist()))
            with pytest.raises(RuntimeError, match="not implemented"):
                got.sum().backward()
        o = g.zeros([5, 2, 4], dtype=g.float64)
        assert g._ctc_loss_backward(go, lp.detach(), padded, [5, 4], [3, 2], nll.detach(), la, 0, out=o) is o
        check_values(o, flat(want.tolist()))

    return {
        "_ctc_loss.out": out,
        "_ctc_loss.Tensor_out": out,
        "_ctc_loss_backward": backward,
        "_ctc_loss_backward.Tensor": backward,
        "_ctc_loss_backward.out": backward,
    }


SAMPLES.update(_nn_ctc_samples())
VALUE_CHECKS.update(_nn_ctc_value_checks())


def _extremum_out_checks():
    g = gradgen

    def out(name):
        def check():
            x = g.tensor([[1.0, 5.0, -2.0], [4.0, 2.0, 0.0]], dtype=g.float64)
            op = getattr(g, name)
            v, i = g.zeros([0], dtype=g.float64), g.zeros([0], dtype=g.int64)
            r = op(x, 1, out=(v, i))  # max.dim_max / min.dim_min: PyTorch's <name>_out named tuple
            assert r[0] is v and r.indices is i and type(r).__name__ == name + "_out"
            assert v.tolist() == op(x, 1).values.tolist() and i.tolist() == op(x, 1).indices.tolist()
            assert list(op(x, -2, True, out=(v, i)).values.shape) == [1, 3]
            with pytest.raises(RuntimeError, match=r"Long"):
                op(x, 1, out=(v, g.zeros([0], dtype=g.float64)))

        return check

    return {"max.dim_max": out("max"), "min.dim_min": out("min")}


VALUE_CHECKS.update(_extremum_out_checks())
# What PyTorch code calls besides the math (issue 23): fill / fill_, the new_* factories,
# type_as / view_as, isclose / equal, index_add_ / scatter_add_, and the aliases clip, absolute,
# negative and fix. Their values, dtypes and errors against PyTorch's recorded answers:
# tests/differential/cases_api.py. Here every declaration is called from Python.
# ---------------------------------------------------------------------------------------------


def _tensor_api_samples() -> Dict[str, List[Sample]]:
    g = gradgen
    dup = longs([0, 2, 0])
    return {
        # fill's value does not depend on self (a zero gradient); the product checks it reaches x.
        "fill.Scalar": [Sample("function, times self", lambda x: g.fill(x, 2.5) * x, [leaf(2, 3, seed=1)])],
        "fill.Tensor": [
            Sample("0-dim value, times self", lambda x, v: g.fill(x, v) * x, [leaf(2, 3, seed=2), leaf(seed=3)])
        ],
        "fill_.Scalar": [Sample("method on a copy", lambda x: (x * 1).fill_(-1.5) + x, [leaf(2, 3, seed=4)])],
        "fill_.Tensor": [
            Sample("function on a copy", lambda x, v: g.fill_(x * 1, v) * x, [leaf(3, seed=5), leaf(seed=6)])
        ],
        "type_as": [
            Sample("as a float64 tensor", lambda x, y: x.type_as(y) * y, [leaf(2, 3, seed=7), leaf(3, seed=8)])
        ],
        "view_as": [
            Sample("[6] as [2, 3], times other", lambda x, y: x.view_as(y) * y, [leaf(6, seed=9), leaf(2, 3, seed=10)])
        ],
        "index_add_": [
            Sample(
                "on a copy, repeated indices, alpha",
                lambda x, s: (x * 1).index_add_(0, dup, s, alpha=-2),
                [leaf(3, 2, seed=11), leaf(3, 2, seed=12)],
            )
        ],
        "scatter_add_": [
            Sample(
                "on a copy, repeated indices",
                lambda x, s: (x * 1).scatter_add_(1, longs([[2, 2], [0, 1]]), s),
                [leaf(2, 3, seed=13), leaf(2, 2, seed=14)],
            )
        ],
        # Bounds at least 0.25 from every value: no element sits on a bound (clamp's kink).
        "clip": [
            Sample("function, both bounds", lambda x: g.clip(x, -0.25, 0.25), [away_from_zero(2, 3, seed=15)]),
            Sample("method, min only", lambda x: x.clip(min=0.25), [away_from_zero(4, seed=16)]),
        ],
        "clip.Tensor": [
            Sample(
                "function, tensor bounds",
                lambda x, lo, hi: g.clip(x, lo, hi),
                [away_from_zero(2, 3, seed=17), _in(-0.3, -0.1)(3, seed=18), _in(0.1, 0.3)(2, 1, seed=19)],
            ),
            Sample(
                "method, max only",
                lambda x, hi: x.clip(max=hi),
                [away_from_zero(4, seed=20), _in(-0.2, 0.2)(4, seed=21)],
            ),
        ],
        "absolute": unary(lambda x: g.absolute(x), away_from_zero)
        + [Sample("method", lambda x: x.absolute(), [away_from_zero(3, seed=22)])],
        "negative": unary(lambda x: g.negative(x)) + [Sample("method", lambda x: x.negative(), [leaf(3, seed=23)])],
        "fix": unary(lambda x: g.fix(x)) + [Sample("method", lambda x: x.fix() * x, [_in(-3, 3)(4, seed=24)])],
    }


def _tensor_api_value_checks():
    g = gradgen
    nan, inf = float("nan"), float("inf")

    def new_factories():
        x, n = leaf(2, seed=1), longs([1, 2])
        for make, fill in (("new_zeros", 0.0), ("new_ones", 1.0)):
            y = getattr(x, make)(2, 3)  # sizes as varargs, self's dtype
            assert y.dtype is g.float64 and y.tolist() == [[fill] * 3] * 2 and not y.requires_grad
            y = getattr(n, make)([2], dtype=g.float32)
            assert y.dtype is g.float32 and y.tolist() == [fill, fill]
        y = x.new_full((2, 2), 7)
        assert y.dtype is g.float64 and y.tolist() == [[7.0, 7.0], [7.0, 7.0]] and not y.requires_grad
        assert n.new_full([3], 2).tolist() == [2, 2, 2] and n.new_full([3], 2).dtype is g.int64
        assert x.new_full([1], 5, dtype=g.int32).dtype is g.int32
        y = n.new_empty(0, 2)
        assert list(y.shape) == [0, 2] and y.dtype is g.int64
        assert x.new_empty([3], dtype=g.bool).dtype is g.bool

    def type_as_other_dtypes():
        x = g.tensor([-1.7, 0.4, 2.9], dtype=g.float64)
        y = x.type_as(longs([1]))
        assert y.dtype is g.int64 and y.tolist() == [int(v) for v in x.tolist()]
        assert x.type_as(g.zeros([1], dtype=g.float32)).dtype is g.float32

    def close(a, b, rtol, atol, equal_nan):
        # PyTorch's isclose, element by element in plain Python.
        if a == b or (equal_nan and math.isnan(a) and math.isnan(b)):
            return True
        d = a - b
        return math.isfinite(d) and abs(d) <= atol + abs(rtol * b)

    def isclose():
        a = [1.0, 2.0, nan, inf, -inf, 1e-9, 1.0]
        b = [1.0 + 1e-6, 2.1, nan, inf, inf, 0.0, 1.0 + 2e-5]
        x, y = g.tensor(a, dtype=g.float64), g.tensor(b, dtype=g.float64)
        got = g.isclose(x, y)
        assert got.dtype is g.bool and got.tolist() == [close(p, q, 1e-5, 1e-8, False) for p, q in zip(a, b)]
        want = [close(p, q, 0.1, 0.0, True) for p, q in zip(a, b)]
        assert x.isclose(y, rtol=0.1, atol=0.0, equal_nan=True).tolist() == want
        assert g.isclose(leaf(3), leaf(3)).requires_grad is False

    def equal():
        x = g.tensor([1.0, 2.0, 3.0], dtype=g.float64)
        assert g.equal(x, x.clone()) is True
        assert x.equal(g.tensor([1.0, 2.0, 4.0], dtype=g.float64)) is False
        assert g.equal(x, x.reshape([3, 1])) is False
        assert g.equal(g.tensor([nan], dtype=g.float64), g.tensor([nan], dtype=g.float64)) is False

    def fills():
        x = g.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=g.float64)
        assert g.fill(x, 2.5).tolist() == [[2.5, 2.5], [2.5, 2.5]] and x.tolist()[0] == [1.0, 2.0]
        assert g.fill(longs([1, 2]), 2.7).tolist() == [2, 2]  # cast to self's dtype
        assert g.fill(x, g.tensor(-1.0, dtype=g.float64)).tolist() == [[-1.0, -1.0], [-1.0, -1.0]]
        y = x.clone()
        assert y.fill_(0.5) is y and y.tolist() == [[0.5, 0.5], [0.5, 0.5]]
        assert g.fill_(y, g.tensor(3.0, dtype=g.float64)) is y and y.tolist() == [[3.0, 3.0], [3.0, 3.0]]
        with pytest.raises(RuntimeError, match="fill_ only supports 0-dimension value tensor"):
            y.fill_(g.tensor([1.0], dtype=g.float64))

    def scatters_in_place():
        x = g.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=g.float64)
        s = g.tensor([[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]], dtype=g.float64)
        assert x.index_add_(0, longs([0, 2, 0]), s, alpha=2) is x
        assert x.tolist() == [[1.0 + 20 + 100, 2.0 + 40 + 120], [3.0, 4.0], [5.0 + 60, 6.0 + 80]]
        y = g.zeros([2, 3], dtype=g.float64)
        assert y.scatter_add_(1, longs([[2, 2], [0, 1]]), g.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=g.float64)) is y
        assert y.tolist() == [[0.0, 0.0, 3.0], [3.0, 4.0, 0.0]]

    def aliases():
        vals = [-2.5, -1.5, -0.5, 0.0, 0.5, 1.7, 3.0]
        x = g.tensor(vals, dtype=g.float64)
        assert g.fix(x).tolist() == [float(math.trunc(v)) for v in vals]
        assert g.negative(x).tolist() == [-v for v in vals]
        assert x.absolute().tolist() == [abs(v) for v in vals]
        assert g.clip(x, -1.0, 1.0).tolist() == [min(max(v, -1.0), 1.0) for v in vals]
        lo = g.tensor([0.0] * 7, dtype=g.float64)
        assert x.clip(lo).tolist() == [max(v, 0.0) for v in vals]

    return {
        "new_empty": new_factories,
        "new_full": new_factories,
        "new_zeros": new_factories,
        "new_ones": new_factories,
        "type_as": type_as_other_dtypes,
        "isclose": isclose,
        "equal": equal,
        "fill.Scalar": fills,
        "fill_.Tensor": fills,
        "index_add_": scatters_in_place,
        "scatter_add_": scatters_in_place,
        "fix": aliases,
        "clip.Tensor": aliases,
    }


SAMPLES.update(_tensor_api_samples())
VALUE_CHECKS.update(_tensor_api_value_checks())


def _overloads23_samples() -> Dict[str, List[Sample]]:
    g = gradgen

    def total(pieces):
        return sum((p * (i + 1)).sum() for i, p in enumerate(pieces))

    return {
        "div.Scalar_mode": [
            Sample("None", lambda a: g.div(a, 0.7, rounding_mode=None), [leaf(2, 3)]),
            Sample("floor, method", lambda a: a.div(2.5, rounding_mode="floor"), [leaf(3)]),
        ],
        "div_.Scalar_mode": [
            Sample("None, method on a clone", lambda a: a.clone().div_(-1.5, rounding_mode=None), [leaf(3)]),
            Sample("trunc, method on a clone", lambda a: a.clone().div_(1.5, rounding_mode="trunc"), [leaf(3)]),
        ],
        "var": [Sample("biased", lambda x: gradgen.var(x, False), [leaf(2, 3)])],
        "var.dim": [
            Sample("keywords", lambda x: g.var(x, 1, unbiased=False, keepdim=True), [leaf(2, 3)]),
            Sample("method, positional", lambda x: x.var(1, False), [leaf(2, 3, seed=1)]),
        ],
        "std": [Sample("unbiased=False", lambda x: g.std(x, unbiased=False), [leaf(2, 3)])],
        "std.dim": [Sample("method", lambda x: x.std([0], True, True), [leaf(3, 2)])],
        "var_mean": [Sample("both", lambda x: g.var_mean(x, False)[0] * g.var_mean(x, False)[1], [leaf(4)])],
        "var_mean.dim": [
            Sample("both", lambda x: g.var_mean(x, 0, unbiased=True)[0] + g.var_mean(x, 0)[1], [leaf(3, 2)])
        ],
        "std_mean": [Sample("both", lambda x: g.std_mean(x, unbiased=True)[0] * g.std_mean(x, True)[1], [leaf(4)])],
        "std_mean.dim": [
            Sample("both", lambda x: g.std_mean(x, 1, unbiased=False)[0] + g.std_mean(x, 1, False)[1], [leaf(2, 3)])
        ],
        "clamp_": [
            Sample("min keyword, method on a clone", lambda a: a.clone().clamp_(min=0.25), [away_from_zero(4)]),
            Sample("both, function", lambda a: g.clamp_(a.clone(), -0.25, 0.75), [away_from_zero(2, 3)]),
        ],
        "clamp_min.Tensor": [
            Sample("broadcast", lambda a, b: g.clamp_min(a, b), [leaf(2, 3, seed=1), leaf(3, seed=2)]),
        ],
        "clamp_min_.Tensor": [
            Sample("method on a clone", lambda a, b: a.clone().clamp_min_(b), [leaf(3, seed=3), leaf(3, seed=4)]),
        ],
        "clamp_max.Tensor": [
            Sample("method", lambda a, b: a.clamp_max(b), [leaf(2, 3, seed=5), leaf(2, 1, seed=6)]),
        ],
        "clamp_max_.Tensor": [
            Sample("function on a clone", lambda a, b: g.clamp_max_(a.clone(), b), [leaf(3, seed=7), leaf(3, seed=8)]),
        ],
        "split.sizes": [
            Sample("function, dim", lambda x: total(g.split(x, [1, 2], dim=1)), [leaf(2, 3)]),
            Sample("method", lambda x: total(x.split([2, 1], 1)), [leaf(2, 3, seed=1)]),
        ],
        "to.other": [
            Sample("same dtype", lambda x: x.to(value(2)), [leaf(3)]),
            Sample("copy", lambda x: x.to(value(1), copy=True) * x, [leaf(3, seed=1)]),
        ],
    }


def _overloads23_value_checks():
    g = gradgen

    def div_scalar_mode():
        x = g.tensor([-7, 5, 7])
        y = g.div(x, 2, rounding_mode="floor")
        assert y.tolist() == [-4, 2, 3] and y.dtype == g.int64
        assert x.div(2, rounding_mode="trunc").tolist() == [-3, 2, 3]
        z = g.div(x, 2.5, rounding_mode="floor")
        assert z.dtype == g.float32 and z.tolist() == [-3.0, 2.0, 2.0]
        assert g.div(x, 2, rounding_mode=None).tolist() == [-3.5, 2.5, 3.5]
        w = x.clone()
        assert w.div_(2, rounding_mode="floor") is w and w.tolist() == [-4, 2, 3]
        with pytest.raises(RuntimeError):
            x.clone().div_(2.5, rounding_mode="floor")
        with pytest.raises((RuntimeError, ValueError)):
            g.div(x, 2, rounding_mode="round")

    def reduction_outs():
        x = g.tensor([[1.0, float("nan"), 3.0], [0.0, 2.0, -1.0]], dtype=g.float64)
        y = g.tensor([[1.0, 4.0, 3.0], [0.0, 2.0, -1.0]], dtype=g.float64)

        def into(f, want, dtype=g.float64):
            o = g.zeros([0], dtype=dtype)
            assert f(o) is o and o.tolist() == want.tolist()

        into(lambda o: g.var(y, 1, correction=0, out=o), g.var(y, 1, correction=0))
        into(lambda o: g.std(y, out=o), g.std(y))
        into(lambda o: g.cumsum(y, 1, out=o), g.cumsum(y, 1))
        into(lambda o: g.nansum(x, 0, out=o), g.nansum(x, 0))
        into(lambda o: g.nanmean(x, 1, keepdim=True, out=o), g.nanmean(x, 1, keepdim=True))
        into(lambda o: g.argmin(y, 1, out=o), g.argmin(y, 1), g.int64)
        into(lambda o: g.all(y, 1, out=o), g.all(y, 1), g.bool)
        into(lambda o: g.all(y, out=o), g.all(y), g.bool)
        into(lambda o: g.any(y, 0, out=o), g.any(y, 0), g.bool)
        into(lambda o: g.any(y, out=o), g.any(y), g.bool)
        with pytest.raises(RuntimeError, match="var.correction_out"):
            g.var(leaf(2, 3), 1, out=g.zeros([2], dtype=g.float64))

    def all_any_dims():
        x = g.tensor([[[1.0, 0.0], [2.0, 3.0]], [[1.0, 1.0], [0.0, 5.0]]], dtype=g.float64)
        assert g.all(x, dim=(0, 1)).tolist() == [False, False]
        assert x.all([0, 2], keepdim=True).tolist() == [[[False], [False]]]
        assert g.any(x, dim=(0, 1)).tolist() == [True, True]
        assert x.any((1, 2)).tolist() == [True, True]
        assert g.all(x, dim=[]).tolist() == [[[True, False], [True, True]], [[True, True], [False, True]]]
        assert g.any(x).tolist() is True and g.all(x, dim=None, keepdim=True).tolist() == [[[False]]]

    def clamp_tensor_outs():
        x = g.tensor([-1.0, 0.5, 2.0], dtype=g.float64)
        b = g.tensor([0.0, 1.0, 1.0], dtype=g.float64)
        o = g.zeros([3], dtype=g.float64)
        assert g.clamp_min(x, b, out=o) is o and o.tolist() == [0.0, 1.0, 2.0]
        assert g.clamp_max(x, b, out=o) is o and o.tolist() == [-1.0, 0.5, 1.0]
        y = x.clone()
        assert y.clamp_(0.0, 1.0) is y and y.tolist() == [0.0, 0.5, 1.0]
        assert x.to(g.zeros([1], dtype=g.float32)).dtype == g.float32
        assert [t.tolist() for t in g.split(g.tensor([[1, 2, 3]]), [1, 2], dim=1)] == [[[1]], [[2, 3]]]

    return {
        "div.Scalar_mode": div_scalar_mode,
        **{
            op: reduction_outs
            for op in [
                "var.correction_out",
                "std.correction_out",
                "cumsum.out",
                "nansum.out",
                "nanmean.out",
                "argmin.out",
                "all.out",
                "all.all_out",
                "any.out",
                "any.all_out",
            ]
        },
        "all.dims": all_any_dims,
        "clamp_min.Tensor_out": clamp_tensor_outs,
        "clamp_max.Tensor_out": clamp_tensor_outs,
        "any.dims": all_any_dims,
    }


SAMPLES.update(_overloads23_samples())
VALUE_CHECKS.update(_overloads23_value_checks())


# ---------------------------------------------------------------------------------------------
# In-place variants and out= overloads (issue 23): csrc/native/inplace_out.cc
# ---------------------------------------------------------------------------------------------


def _inplace_out_samples() -> Dict[str, List[Sample]]:
    s: Dict[str, List[Sample]] = {
        "add_.Scalar": [Sample("method on a clone, alpha", lambda a: a.clone().add_(1.5, 2), [leaf(2, 3)])],
        "sub.Scalar": [
            Sample("function", lambda a: gradgen.sub(a, 1.5), [leaf(2, 3)]),
            Sample("method, alpha", lambda a: a.sub(0.5, alpha=2), [leaf(3, seed=1)]),
        ],
        "sub_.Scalar": [Sample("method on a clone", lambda a: a.clone().sub_(1.5), [leaf(3)])],
        "rsub.Tensor": [
            Sample(
                "alpha=2, broadcast", lambda a, b: gradgen.rsub(a, b, alpha=2), [leaf(2, 3, seed=1), leaf(3, seed=2)]
            )
        ],
        "rsub.Scalar": [Sample("number", lambda a: gradgen.rsub(a, 1.5, 3), [leaf(2, 3)])],
        "div_.Scalar": [Sample("method on a clone", lambda a: a.clone().div_(4.0), [leaf(3)])],
        "pow_.Scalar": [Sample("method on a clone", lambda a: a.clone().pow_(2.5), [positive(3)])],
        "pow_.Tensor": [
            Sample("method on a clone", lambda a, b: a.clone().pow_(b), [positive(2, 3, seed=1), leaf(3, seed=2)])
        ],
        "true_divide_.Tensor": [
            Sample("method on a clone", lambda a, b: a.clone().true_divide_(b), [leaf(2, 3, seed=1), positive(3)])
        ],
        "true_divide_.Scalar": [Sample("method on a clone", lambda a: a.clone().true_divide_(2.0), [leaf(3)])],
        "cumprod_": [Sample("method on a clone", lambda a: a.clone().cumprod_(1), [leaf(2, 3)])],
        "copy_": [
            Sample(
                "broadcast src, both differentiable", lambda a, b: (a * 1.0).copy_(b), [leaf(2, 3), leaf(3, seed=1)]
            ),
            Sample("into a view", lambda a, b: _copy_into_row(a, b), [leaf(2, 3, seed=2), leaf(3, seed=3)]),
        ],
    }
    for op in ["neg", "log", "tanh", "sigmoid", "sin", "cos", "sqrt", "abs", "reciprocal", "sign"]:
        dom = positive if op in ("log", "sqrt", "reciprocal", "abs") else leaf
        s[op + "_"] = [
            Sample("method on a clone", lambda x, op=op: getattr(x.clone(), op + "_")(), [dom(2, 3, seed=4)])
        ]
    for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
        # A zero gradient, as PyTorch's entries: 0 / 1 written in self's dtype.
        s[op + "_.Scalar"] = [
            Sample("method on a clone", lambda x, op=op: getattr(x.clone(), op + "_")(0.25), [leaf(2, 3)])
        ]
        s[op + "_.Tensor"] = [
            Sample(
                "method on a clone", lambda x, y, op=op: getattr(x.clone(), op + "_")(y), [leaf(2, 3), leaf(3, seed=5)]
            )
        ]
    return s


def _copy_into_row(a, b):
    y = a * 1.0
    y[1].copy_(b)
    return y


def _inplace_out_value_checks():
    def same(got, want):
        assert got.dtype == want.dtype and list(got.shape) == list(want.shape), (got, want)
        check_values(got, flat(want.tolist()))

    def out_check(call, ref, make_inputs, name, refuses_grad=True):
        def check():
            xs = make_inputs()
            want = ref(*xs)
            out = gradgen.zeros([0], dtype=want.dtype)  # resized silently
            assert call(*xs, out) is out
            same(out, want)
            if refuses_grad:
                with pytest.raises(RuntimeError, match="don't support automatic differentiation|do not support"):
                    call(*[leaf(*x.shape) if x.dtype == gradgen.float64 else x for x in xs], out)

        return check

    a = lambda: [value(2, 3, seed=1)]  # noqa: E731
    pos = lambda: [value(2, 3, seed=1).abs() + 0.5]  # noqa: E731
    ab = lambda: [value(2, 3, seed=1), value(3, seed=2).abs() + 0.5]  # noqa: E731
    g = gradgen
    checks = {
        "add.Scalar_out": out_check(lambda x, o: g.add(x, 2.0, alpha=3, out=o), lambda x: g.add(x, 2.0, 3), a, "add"),
        "sub.out": out_check(lambda x, y, o: g.sub(x, y, alpha=2, out=o), lambda x, y: g.sub(x, y, alpha=2), ab, "sub"),
        "sub.Scalar_out": out_check(lambda x, o: g.sub(x, 2.0, out=o), lambda x: g.sub(x, 2.0), a, "sub"),
        "mul.Scalar_out": out_check(lambda x, o: g.mul(x, 2.0, out=o), lambda x: g.mul(x, 2.0), a, "mul"),
        "div.out": out_check(lambda x, y, o: g.div(x, y, out=o), g.div, ab, "div"),
        "div.Scalar_out": out_check(lambda x, o: g.div(x, 4.0, out=o), lambda x: g.div(x, 4.0), a, "div"),
        "true_divide.out": out_check(lambda x, y, o: g.true_divide(x, y, out=o), g.div, ab, "div"),
        # divide / multiply / subtract: PyTorch's aliases of div / mul / sub.
        "divide.out": out_check(lambda x, y, o: g.divide(x, y, out=o), g.div, ab, "div"),
        "divide.out_mode": out_check(
            lambda x, y, o: g.divide(x, y, rounding_mode="floor", out=o),
            lambda x, y: g.div(x, y, rounding_mode="floor"),
            ab,
            "div",
        ),
        "multiply.out": out_check(lambda x, y, o: g.multiply(x, y, out=o), g.mul, ab, "mul"),
        "subtract.out": out_check(
            lambda x, y, o: g.subtract(x, y, alpha=2, out=o), lambda x, y: g.sub(x, y, alpha=2), ab, "sub"
        ),
        "pow.Tensor_Scalar_out": out_check(lambda x, o: g.pow(x, 2.5, out=o), lambda x: g.pow(x, 2.5), pos, "pow"),
        "pow.Tensor_Tensor_out": out_check(
            lambda x, y, o: g.pow(x, y, out=o), g.pow, lambda: [pos()[0], value(3, seed=3)], "pow"
        ),
        "exp.out": out_check(lambda x, o: g.exp(x, out=o), g.exp, a, "exp"),
        "clamp.out": out_check(lambda x, o: g.clamp(x, -0.5, out=o), lambda x: g.clamp(x, -0.5), a, "clamp"),
        "sum.IntList_out": out_check(lambda x, o: g.sum(x, 1, out=o), lambda x: g.sum(x, 1), a, "sum"),
        "mean.out": out_check(lambda x, o: g.mean(x, [0], True, out=o), lambda x: g.mean(x, [0], True), a, "mean"),
        "prod.int_out": out_check(lambda x, o: g.prod(x, 1, out=o), lambda x: g.prod(x, 1), a, "prod"),
        "logsumexp.out": out_check(
            lambda x, o: g.logsumexp(x, [1], out=o), lambda x: g.logsumexp(x, [1]), a, "logsumexp"
        ),
        "cumprod.out": out_check(lambda x, o: g.cumprod(x, 1, out=o), lambda x: g.cumprod(x, 1), a, "cumprod"),
        "matmul.out": out_check(
            lambda x, y, o: g.matmul(x, y, out=o), g.matmul, lambda: [value(2, 3, seed=1), value(3, seed=2)], "matmul"
        ),
        "bmm.out": out_check(
            lambda x, y, o: g.bmm(x, y, out=o), g.bmm, lambda: [value(2, 2, 3, seed=1), value(2, 3, 2, seed=2)], "bmm"
        ),
        "cat.out": out_check(
            lambda x, y, o: g.cat([x, y], 1, out=o),
            lambda x, y: g.cat([x, y], 1),
            lambda: [value(2, 3), value(2, 1)],
            "cat",
        ),
        "where.self_out": out_check(
            lambda x, y, o: g.where(x > 0, x, y, out=o), lambda x, y: g.where(x > 0, x, y), ab, "where"
        ),
        "index_select.out": out_check(
            lambda x, i, o: g.index_select(x, 1, i, out=o),
            lambda x, i: g.index_select(x, 1, i),
            lambda: [value(2, 3), longs([2, 0])],
            "index_select",
        ),
        "gather.out": out_check(
            lambda x, i, o: g.gather(x, 1, i, out=o),
            lambda x, i: g.gather(x, 1, i),
            lambda: [value(2, 3), longs([[0, 2], [1, 1]])],
            "gather",
        ),
        "index_add.out": out_check(
            lambda x, i, s_, o: g.index_add(x, 0, i, s_, alpha=2, out=o),
            lambda x, i, s_: g.index_add(x, 0, i, s_, alpha=2),
            lambda: [value(2, 3), longs([1, 1]), value(2, 3, seed=4)],
            "index_add",
        ),
        "scatter_add.out": out_check(
            lambda x, i, s_, o: g.scatter_add(x, 1, i, s_, out=o),
            lambda x, i, s_: g.scatter_add(x, 1, i, s_),
            lambda: [value(2, 3), longs([[0, 0, 2], [1, 2, 2]]), value(2, 3, seed=5)],
            "scatter_add",
        ),
    }
    for op in ["neg", "log", "tanh", "sigmoid", "sin", "cos", "sqrt", "abs", "reciprocal", "sign"]:
        checks[op + ".out"] = out_check(lambda x, o, op=op: getattr(g, op)(x, out=o), getattr(g, op), pos, op)
    for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
        checks[op + ".Tensor_out"] = out_check(
            lambda x, y, o, op=op: getattr(g, op)(x, y, out=o), getattr(g, op), ab, op, refuses_grad=False
        )
        checks[op + ".Scalar_out"] = out_check(
            lambda x, o, op=op: getattr(g, op)(x, 0.0, out=o), lambda x, op=op: getattr(g, op)(x, 0.0), a, op, False
        )

    def randperm_out():
        o = g.zeros([0], dtype=g.float64)
        assert g.randperm(5, out=o) is o
        assert o.dtype == g.float64 and sorted(o.tolist()) == [0.0, 1.0, 2.0, 3.0, 4.0]

    def floor_divide_scalar():
        x = g.tensor([2.5, -2.5, 7.0], dtype=g.float64)
        y = x.clone()
        assert y.floor_divide_(2) is y
        assert y.tolist() == [1.0, -2.0, 3.0]
        z = leaf(3).clone()
        z.floor_divide_(2.0)
        with pytest.raises(RuntimeError, match="not implemented"):
            z.sum().backward()

    checks["randperm.out"] = randperm_out
    checks["floor_divide_.Scalar"] = floor_divide_scalar
    return checks


SAMPLES.update(_inplace_out_samples())
VALUE_CHECKS.update(_inplace_out_value_checks())


# ---------------------------------------------------------------------------------------------
# Overloads PyTorch has of ops gradgen declared (issue 23, decl23c): zeros / ones, the out=
# variants of the reductions and of the samplers (the functional form's draws for one seed)
# ---------------------------------------------------------------------------------------------


def _decl23c_checks() -> Dict[str, Callable[[], None]]:
    g = gradgen
    gen = g.Generator

    def empty(dtype=g.float32):
        return g.empty(0, dtype=dtype)

    def zeros_ones():
        z = g.zeros(2, 3)
        assert z.tolist() == [[0.0] * 3] * 2 and z.dtype == g.float32 and not z.requires_grad
        assert g.zeros((2,), dtype=g.int64).tolist() == [0, 0] and g.zeros([]).shape == ()
        assert g.ones([2], dtype=g.float64, requires_grad=True).requires_grad
        assert g.ones(3, dtype=g.bool).tolist() == [True] * 3
        o = g.full([4], 7, dtype=g.int64)
        assert g.zeros(2, 2, out=o) is o and o.tolist() == [[0, 0], [0, 0]] and o.dtype == g.int64
        o = empty(g.bool)
        assert g.ones((2,), out=o) is o and o.tolist() == [True, True]
        with pytest.raises(RuntimeError, match="floating point"):
            g.zeros(2, dtype=g.int64, requires_grad=True)
        with pytest.raises(TypeError):
            g.ones("a")

    def reduction_outs():
        y = g.tensor([[1.0, 4.0, 3.0], [0.0, 2.0, -1.0]], dtype=g.float64)
        o = empty(g.float64)
        assert g.var(y, [1], False, out=o) is o and o.tolist() == g.var(y, [1], False).tolist()
        assert g.std(y, [0, 1], True, True, out=o) is o and o.tolist() == g.std(y, [0, 1], True, True).tolist()
        b = empty(g.bool)
        x = g.tensor([[[1.0, 0.0], [2.0, 3.0]], [[1.0, 1.0], [0.0, 5.0]]])
        assert g.all(x, (0, 1), out=b) is b and b.tolist() == [False, False]
        assert g.any(x, dim=[1, 2], keepdim=True, out=b).tolist() == [[[True]], [[True]]]
        assert g.any(x, dim=None, out=b).tolist() is True
        with pytest.raises(RuntimeError, match="all only supports bool tensor for result, got: Float"):
            g.all(x, (0,), out=empty())
        with pytest.raises(RuntimeError, match="var.out"):
            g.var(leaf(2, 3), [1], True, out=empty(g.float64))

    def random_outs():
        # rand / randint / randperm into out: the functional form's numbers, in out's dtype.
        o = empty(g.float64)
        assert g.rand(2, 3, generator=gen(5), out=o) is o and o.shape == (2, 3) and o.dtype == g.float64
        assert o.tolist() == g.rand(2, 3, generator=gen(5), dtype=g.float64).tolist()
        g.manual_seed(3)
        a = g.rand(4, dtype=g.float64)
        g.manual_seed(3)
        assert g.rand(4, out=o).tolist() == a.tolist()
        o = empty(g.int64)
        assert g.randint(9, (5,), generator=gen(1), out=o).tolist() == g.randint(9, (5,), generator=gen(1)).tolist()
        assert (
            g.randint(2, 4, (5,), generator=gen(2), out=o).tolist() == g.randint(2, 4, (5,), generator=gen(2)).tolist()
        )
        assert set(g.randint(7, 9, (20,), out=o).tolist()) <= {7, 8} and set(g.randint(2, (20,), out=o).tolist()) <= {
            0,
            1,
        }
        h = empty(g.float16)
        assert g.randint(3, (4,), out=h).dtype == g.float16
        with pytest.raises(RuntimeError, match="to - 1 is out of bounds for bool"):
            g.randint(5, (2,), out=empty(g.bool))
        assert g.randperm(6, generator=gen(3), out=o).tolist() == g.randperm(6, generator=gen(3)).tolist()
        with pytest.raises(RuntimeError, match="expected a floating dtype"):
            g.rand(2, out=empty(g.int64))

    def sampler_outs():
        p = g.rand(10, generator=gen(4))
        o = empty()
        assert g.bernoulli(p, generator=gen(5), out=o) is o
        assert o.tolist() == g.bernoulli(p, generator=gen(5)).tolist()
        assert g.bernoulli(g.tensor([0.0, 1.0]), out=empty(g.int64)).tolist() == [0, 1]
        i = empty(g.int64)
        assert g.multinomial(p, 4, generator=gen(6), out=i).tolist() == g.multinomial(p, 4, generator=gen(6)).tolist()
        with pytest.raises(RuntimeError, match="multinomial expects Long tensor out, got: Int"):
            g.multinomial(p, 2, out=empty(g.int32))
        m, s = g.rand(6, generator=gen(7)), g.rand(6, generator=gen(8))
        o = g.empty(6)
        assert g.normal(m, 2.0, generator=gen(9), out=o).tolist() == g.normal(m, 2.0, generator=gen(9)).tolist()
        # mean broadcasts with out's shape, as PyTorch's (an empty out is refused).
        assert g.normal(m, 0.0, out=g.empty(2, 6)).tolist() == [m.tolist()] * 2
        with pytest.raises(RuntimeError):
            g.normal(m, 1.0, out=empty())
        assert g.normal(1.0, s, generator=gen(9), out=o).tolist() == g.normal(1.0, s, generator=gen(9)).tolist()
        assert g.normal(m, s, generator=gen(9), out=o).tolist() == g.normal(m, s, generator=gen(9)).tolist()
        d = empty(g.float64)
        assert g.normal(3.0, 0.0, (2, 2), out=d).tolist() == [[3.0, 3.0], [3.0, 3.0]] and d.dtype == g.float64
        assert (
            g.normal(0.0, 1.0, (3,), generator=gen(2), out=d).tolist()
            == g.normal(0.0, 1.0, (3,), generator=gen(2), dtype=g.float64).tolist()
        )
        with pytest.raises(RuntimeError, match="expected a floating dtype"):
            g.normal(0.0, 1.0, (3,), out=empty(g.int64))

    def spaces():
        t = g.tensor
        r = g.linspace(t(0), t(1), 3)
        assert r.tolist() == [0.0, 0.5, 1.0] and r.dtype == g.float32 and not r.requires_grad
        assert g.linspace(t(0.0, dtype=g.float64, requires_grad=True), 4, 3).tolist() == [0.0, 2.0, 4.0]
        assert g.linspace(0, t(4.0), 3, dtype=g.float64).dtype == g.float64
        assert g.logspace(t(0), t(2), 3).tolist() == [1.0, 10.0, 100.0]
        assert g.logspace(t(0.0), 2, 3, 2.0).tolist() == [1.0, 2.0, 4.0]
        assert g.logspace(0, t(2.0), 3, 2.0, dtype=g.float64).tolist() == [1.0, 2.0, 4.0]
        o = empty(g.int64)
        assert g.linspace(t(0.0), t(4.0), 3, out=o) is o and o.tolist() == [0, 2, 4]
        assert g.linspace(t(0.0), 4, 3, out=o).tolist() == [0, 2, 4] and g.linspace(0, t(4), 3, out=o).tolist() == [
            0,
            2,
            4,
        ]
        d = empty(g.float64)
        assert g.logspace(t(0), t(1), 2, out=d) is d and d.tolist() == [1.0, 10.0]
        assert g.logspace(t(0), 1, 2, 2.0, out=d).tolist() == [1.0, 2.0] and g.logspace(0, t(1), 2, out=d).tolist() == [
            1.0,
            10.0,
        ]
        msg = "only supports 0-dimensional start and end tensors, but got start with 1 dimension"
        with pytest.raises(RuntimeError, match=msg):
            g.linspace(t([0.0]), t(4.0), 3)
        with pytest.raises(RuntimeError, match="but got end with 1 dimension"):
            g.logspace(0, t([4.0]), 3)

    def where_condition():
        r = g.where(g.tensor([[True, False], [False, True]]))
        assert isinstance(r, tuple) and [x.tolist() for x in r] == [[0, 1], [0, 1]]
        assert [x.tolist() for x in g.where(g.tensor(1.0))] == [[0]]
        assert [x.tolist() for x in g.where(g.tensor([0.0, 2.0]))] == [[1]]

    def bernoulli_tensor():
        p = g.rand(5, generator=gen(1))
        x = g.zeros(5)
        assert x.bernoulli_(p, generator=gen(2)) is x and x.tolist() == g.bernoulli(p, generator=gen(2)).tolist()
        assert g.zeros(2, 3).bernoulli_(g.tensor([0.0, 1.0, 1.0])).tolist() == [[0.0, 1.0, 1.0]] * 2
        assert g.zeros(3, dtype=g.int64).bernoulli_(g.tensor([0.0, 1.0, 1.0])).tolist() == [0, 1, 1]
        y = leaf(3).clone()
        y.bernoulli_(g.tensor(0.5))
        assert y.grad_fn.name() == "BernoulliBackward1"
        with pytest.raises(RuntimeError, match="bernoulli_ expects p to be in"):
            g.zeros(2).bernoulli_(g.tensor([0.0, 2.0]))

    def linalg_diagonal():
        x = leaf(2, 3, 4)
        d = g.linalg.diagonal(x)
        assert d.shape == (2, 3) and d.grad_fn.name() == "DiagonalBackward0"
        assert d.tolist() == g.diagonal(x, 0, -2, -1).tolist()
        assert g.linalg.diagonal(x, offset=1, dim1=0, dim2=2).tolist() == g.diagonal(x, 1, 0, 2).tolist()
        gradcheck(lambda a: g.linalg.diagonal(a, offset=-1), [leaf(3, 4, seed=2)])
        with pytest.raises(IndexError):
            g.linalg.diagonal(g.zeros(3))

    return {
        **{n: zeros_ones for n in ["zeros", "zeros.out", "ones", "ones.out"]},
        **{n: reduction_outs for n in ["var.out", "std.out", "all.dims_out", "any.dims_out"]},
        **{n: random_outs for n in ["rand.out", "rand.generator_out", "randint.out", "randint.generator_out"]},
        **{n: random_outs for n in ["randint.low_out", "randint.low_generator_out", "randperm.generator_out"]},
        **{n: sampler_outs for n in ["bernoulli.out", "multinomial.out", "normal.Tensor_float_out"]},
        **{n: sampler_outs for n in ["normal.float_Tensor_out", "normal.Tensor_Tensor_out", "normal.float_float_out"]},
        **{n: spaces for n in ["linspace.Tensor_Tensor", "linspace.Tensor_Scalar", "linspace.Scalar_Tensor"]},
        **{
            n: spaces
            for n in ["linspace.Tensor_Tensor_out", "linspace.Tensor_Scalar_out", "linspace.Scalar_Tensor_out"]
        },
        **{n: spaces for n in ["logspace.Tensor_Tensor", "logspace.Tensor_Scalar", "logspace.Scalar_Tensor"]},
        **{
            n: spaces
            for n in ["logspace.Tensor_Tensor_out", "logspace.Tensor_Scalar_out", "logspace.Scalar_Tensor_out"]
        },
        "where": where_condition,
        "bernoulli_.Tensor": bernoulli_tensor,
        "linalg_diagonal": linalg_diagonal,
    }


VALUE_CHECKS.update(_decl23c_checks())
