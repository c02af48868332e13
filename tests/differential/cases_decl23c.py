"""Differential cases of the overloads PyTorch has of ops gradgen declared (issue 23, decl23c):
zeros / ones (with out=), var.out / std.out, all.dims_out / any.dims_out, the random out=
variants, linspace / logspace with tensor endpoints, where(condition) and bernoulli_.Tensor.
Random results are compared where PyTorch's answer is determined (p in {0, 1}, std 0, one
integer, one category of weight, a sorted permutation) or through their support, dtype and shape.

Imported by cases.py (its last lines), with whose `case` and input makers they register.
"""

from __future__ import annotations

from cases import D, R, case  # cases.py imports this module once they are defined


def _out(T, f, dtype="float32", shape=(0,)):
    """f(out) into a new out of dtype and shape: out's values, and 1 when f returned out itself."""
    o = T.zeros(list(shape), dtype=getattr(T, dtype))
    r = f(o)
    return [o, T.tensor(1 if r is o else 0)]


def _in_unit(T, r):
    return [T.logical_and(r >= 0, r < 1), T.tensor([ord(c) for c in str(r.dtype).split(".")[-1]])]


def _register_factories() -> None:
    case("zeros/varargs", lambda T: T.zeros(2, 3))
    case("zeros/tuple-int32", lambda T: T.zeros((2, 3), dtype=T.int32))
    case("zeros/0-dim", lambda T: T.zeros([]))
    case("ones/list-float64", lambda T: T.ones([3, 1], dtype=T.float64))
    case("ones/bool", lambda T: T.ones(2, dtype=T.bool))
    case("ones/requires-grad", lambda T: T.ones(2, requires_grad=True).requires_grad * T.ones(1))
    case("zeros/int-requires-grad-error", lambda T: T.zeros(2, dtype=T.int64, requires_grad=True))
    case("zeros/negative-error", lambda T: T.zeros(2, -1))
    case("zeros.out/int64", lambda T: _out(T, lambda o: T.zeros(2, 2, out=o), "int64"))
    case("zeros.out/resize-with-elements", lambda T: _out(T, lambda o: T.zeros(3, out=o), "float64", (5,)))
    case("ones.out/bool", lambda T: _out(T, lambda o: T.ones((2, 3), out=o), "bool"))


def _register_reduction_outs() -> None:
    y = R(3, 4, seed=1, grad=False)
    case("var.out/dim-biased", lambda T, x: _out(T, lambda o: T.var(x, [1], False, out=o), "float64"), y)
    case("var.out/keepdim-float32", lambda T, x: _out(T, lambda o: T.var(x, [0], True, True, out=o)), y)
    case("std.out/dims-unbiased", lambda T, x: _out(T, lambda o: T.std(x, [0, 1], True, out=o), "float64"), y)
    case("std.out/int-out-error", lambda T, x: _out(T, lambda o: T.std(x, [1], True, out=o), "int64"), y)
    case("var.out/requires-grad-error", lambda T, x: _out(T, lambda o: T.var(x, [1], True, out=o)), R(2, 3, seed=2))
    z = D([[[1.0, 0.0], [2.0, 3.0]], [[1.0, 1.0], [0.0, 5.0]]], grad=False)
    case("all.dims_out/dims", lambda T, x: _out(T, lambda o: T.all(x, (0, 1), out=o), "bool"), z)
    case("all.dims_out/keepdim-uint8", lambda T, x: _out(T, lambda o: T.all(x, [2], True, out=o), "uint8"), z)
    case("all.dims_out/float-out-error", lambda T, x: _out(T, lambda o: T.all(x, (0,), out=o)), z)
    case("any.dims_out/dims", lambda T, x: _out(T, lambda o: T.any(x, dim=[1, 2], out=o), "bool"), z)
    case("any.dims_out/none", lambda T, x: _out(T, lambda o: T.any(x, dim=None, out=o), "bool"), z)
    case("any.dims_out/long-out-error", lambda T, x: _out(T, lambda o: T.any(x, (1,), out=o), "int64"), z)


def _register_random_outs() -> None:
    def gen(T):
        return T.Generator().manual_seed(5)

    case("rand.out/in-0-1-float64", lambda T: _in_unit(T, _out(T, lambda o: T.rand(2, 3, out=o), "float64")[0]))
    case(
        "rand.generator_out/in-0-1",
        lambda T: _in_unit(T, _out(T, lambda o: T.rand((4,), generator=gen(T), out=o))[0]),
    )
    case("randint.out/high-1-float", lambda T: _out(T, lambda o: T.randint(1, (2, 3), out=o)))
    case("randint.out/bool-bounds-error", lambda T: _out(T, lambda o: T.randint(5, (2,), out=o), "bool"))
    case(
        "randint.out/bool-0-1", lambda T: _out(T, lambda o: T.randint(2, (20,), out=o), "bool")[0].shape[0] * T.ones(1)
    )
    case("randint.out/int8-bounds-error", lambda T: _out(T, lambda o: T.randint(200, (2,), out=o), "int8"))
    case("randint.low_out/one-value-int32", lambda T: _out(T, lambda o: T.randint(4, 5, (3,), out=o), "int32"))
    case("randint.low_out/uint8-from-error", lambda T: _out(T, lambda o: T.randint(-1, 5, (3,), out=o), "uint8"))
    case(
        "randint.generator_out/high-1",
        lambda T: _out(T, lambda o: T.randint(1, (3,), generator=gen(T), out=o), "int64"),
    )
    case(
        "randint.low_generator_out/one-value",
        lambda T: _out(T, lambda o: T.randint(-3, -2, (2, 2), generator=gen(T), out=o), "float64"),
    )
    case(
        "randperm.generator_out/sorted",
        lambda T: [_out(T, lambda o: T.randperm(6, generator=gen(T), out=o), "int64")[0].sort().values],
    )
    case(
        "randperm.generator_out/float16",
        lambda T: [_out(T, lambda o: T.randperm(5, generator=gen(T), out=o), "float16")[0].sort().values],
    )
    p = D([[0.0, 1.0], [1.0, 0.0]], grad=False)
    case("bernoulli.out/p-0-or-1-int64", lambda T, p: _out(T, lambda o: T.bernoulli(p, out=o), "int64"), p)
    case("bernoulli.out/bool", lambda T, p: _out(T, lambda o: T.bernoulli(p, generator=gen(T), out=o), "bool"), p)
    case("bernoulli.out/requires-grad-error", lambda T, p: _out(T, lambda o: T.bernoulli(p * 0.0, out=o)), R(2, seed=3))
    w = D([0.0, 2.0, 0.0], grad=False)
    case("multinomial.out/one-category", lambda T, w: _out(T, lambda o: T.multinomial(w, 3, True, out=o), "int64"), w)
    case("multinomial.out/int32-error", lambda T, w: _out(T, lambda o: T.multinomial(w, 1, out=o), "int32"), w)
    m = R(2, 3, seed=4, grad=False)
    case("normal.Tensor_float_out/std-0", lambda T, m: _out(T, lambda o: T.normal(m, 0.0, out=o), "float64", (2, 3)), m)
    case(
        "normal.Tensor_float_out/broadcast-with-out",
        lambda T, m: _out(T, lambda o: T.normal(m[0], 0.0, out=o), "float32", (2, 3)),
        m,
    )
    case("normal.Tensor_float_out/empty-out-error", lambda T, m: _out(T, lambda o: T.normal(m, 0.0, out=o)), m)
    case("normal.float_Tensor_out/std-0", lambda T, s: _out(T, lambda o: T.normal(2.5, s * 0.0, out=o), "float64"), m)
    case(
        "normal.Tensor_Tensor_out/broadcast",
        lambda T, m, s: _out(T, lambda o: T.normal(m, s * 0.0, out=o), "float64"),
        R(2, 1, seed=5, grad=False),
        R(3, seed=6, grad=False),
    )
    case("normal.float_float_out/std-0", lambda T: _out(T, lambda o: T.normal(-1.0, 0.0, (2, 2), out=o), "float64"))
    case("normal.float_float_out/negative-std-error", lambda T: _out(T, lambda o: T.normal(0.0, -1.0, (2,), out=o)))


def _register_spaces() -> None:
    t = D(0.0, grad=False)
    e = D(4.0, grad=False)
    for op, base in (("linspace", ()), ("logspace", (2.0,))):
        case(f"{op}.Tensor_Tensor/default-dtype", lambda T, a, b, op=op, k=base: getattr(T, op)(a, b, 5, *k), t, e)
        case(
            f"{op}.Tensor_Tensor/requires-grad",
            lambda T, a, b, op=op, k=base: getattr(T, op)(a, b, 3, *k),
            R(seed=7),
            R(seed=8),
        )
        case(f"{op}.Tensor_Scalar/float64", lambda T, a, op=op, k=base: getattr(T, op)(a, 3, 4, *k, dtype=T.float64), t)
        case(f"{op}.Scalar_Tensor/int64", lambda T, b, op=op, k=base: getattr(T, op)(-1, b, 3, *k, dtype=T.int64), e)
        case(
            f"{op}.Tensor_Tensor_out/int64",
            lambda T, a, b, op=op, k=base: _out(T, lambda o: getattr(T, op)(a, b, 3, *k, out=o), "int64"),
            t,
            e,
        )
        case(
            f"{op}.Tensor_Scalar_out/float64",
            lambda T, a, op=op, k=base: _out(T, lambda o: getattr(T, op)(a, 2.0, 3, *k, out=o), "float64"),
            t,
        )
        case(
            f"{op}.Scalar_Tensor_out/float32",
            lambda T, b, op=op, k=base: _out(T, lambda o: getattr(T, op)(1, b, 2, *k, out=o)),
            e,
        )
        case(f"{op}.Tensor_Tensor/1-dim-start-error", lambda T, a, b, op=op: getattr(T, op)(a, b, 3), D([0.0]), e)
        case(f"{op}.Scalar_Tensor/1-dim-end-error", lambda T, b, op=op: getattr(T, op)(0, b, 3), D([1.0, 2.0]))
        case(f"{op}.Tensor_Scalar/int-start", lambda T, a, op=op: getattr(T, op)(a, 4, 3), D(1, dtype="int64"))


def _register_where_bernoulli() -> None:
    case("where/condition-bool", lambda T, c: T.where(c), D([[True, False], [False, True]], dtype="bool"))
    case("where/condition-float", lambda T, c: T.where(c), D([0.0, 2.0, -1.0], grad=False))
    case("where/condition-0-dim", lambda T, c: T.where(c), D(1.0, grad=False))
    case("where/condition-empty", lambda T, c: T.where(c), D([[0, 0]], dtype="int64"))
    p = D([[0.0, 1.0, 1.0]], grad=False)
    case("bernoulli_.Tensor/broadcast-p", lambda T, x, p: x.clone().bernoulli_(p), R(2, 3, seed=9), p)
    case("bernoulli_.Tensor/int64-self", lambda T, p: T.zeros(1, 3, dtype=T.int64).bernoulli_(p), p)
    case(
        "bernoulli_.Tensor/grad-p-zero", lambda T, p: T.zeros(3).bernoulli_(p.clamp(0.0, 0.0)) + p * 0.0, R(3, seed=10)
    )
    case("bernoulli_.Tensor/p-out-of-range-error", lambda T, x: T.zeros(2).bernoulli_(x), D([0.5, 1.5], grad=False))
    case("bernoulli_.Tensor/leaf-error", lambda T, x: x.bernoulli_(T.zeros(2)), R(2, seed=11))


def _register_linalg_diagonal() -> None:
    case("linalg_diagonal/last-two-dims", lambda T, x: T.linalg.diagonal(x), R(2, 3, 4, seed=12))
    case(
        "linalg_diagonal/offset-dims", lambda T, x: T.linalg.diagonal(x, offset=1, dim1=0, dim2=2), R(3, 2, 4, seed=13)
    )
    case("linalg_diagonal/negative-offset", lambda T, x: T.linalg.diagonal(x, offset=-2), R(4, 3, seed=14))
    case("linalg_diagonal/same-dims-error", lambda T, x: T.linalg.diagonal(x, dim1=1, dim2=1), R(2, 3, seed=15))
    case("linalg_diagonal/1-dim-error", lambda T, x: T.linalg.diagonal(x), R(3, seed=16))


_register_factories()
_register_reduction_outs()
_register_random_outs()
_register_spaces()
_register_where_bernoulli()
_register_linalg_diagonal()
