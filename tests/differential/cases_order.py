"""Differential cases of the order statistics (issue 23): median, nanmedian, kthvalue, mode.

Imported by cases.py (its last line), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). Ties and NaN check
PyTorch's choice of index; the long slices (more than 16 elements) check mode's and kthvalue's
selection beyond insertion sort.
"""

from __future__ import annotations

import random

from cases import INF, NAN, D, L, R, case  # cases.py imports this module once they are defined

TIES = [[3.0, 1.0, 3.0, 1.0, 2.0, 1.0, 3.0, 2.0], [2.0, 2.0, -1.0, -1.0, 0.0, 0.0, 5.0, 5.0]]
NANS = [[1.0, NAN, 0.0, NAN, -2.0], [NAN, NAN, NAN, NAN, NAN], [4.0, -INF, INF, 0.5, NAN]]
_rng = random.Random(23)
LONG_TIES = [[float(_rng.randint(0, 5)) for _ in range(40)] for _ in range(3)]


def _register() -> None:
    for op in ["median", "nanmedian"]:
        case(f"{op}/all", lambda T, x, op=op: getattr(T, op)(x), R(3, 3, seed=1), second=True)
        case(f"{op}/all-even", lambda T, x, op=op: getattr(x, op)(), R(2, 3, seed=2), second=True)
        case(f"{op}/all-ties", lambda T, x, op=op: getattr(T, op)(x), D([2.0, 1.0, 2.0, 1.0]), second=True)
        case(f"{op}/all-nan", lambda T, x, op=op: getattr(T, op)(x), D([1.0, NAN, 0.0, 3.0]))
        case(f"{op}/all-0-dim", lambda T, x, op=op: getattr(T, op)(x), R(seed=3), second=True)
        case(f"{op}/all-empty", lambda T, x, op=op: getattr(T, op)(x), D([]))
        case(f"{op}/all-int64", lambda T, x, op=op: getattr(T, op)(x), L([3, -1, 5, 0, 7, 2]))
        case(f"{op}.dim/3x4", lambda T, x, op=op: getattr(T, op)(x, 1), R(3, 4, seed=4), second=True)
        case(f"{op}.dim/keepdim", lambda T, x, op=op: getattr(x, op)(0, keepdim=True), R(5, 2, seed=5), second=True)
        case(f"{op}.dim/negative", lambda T, x, op=op: getattr(T, op)(x, -2), R(2, 3, 4, seed=6), second=True)
        case(f"{op}.dim/transposed", lambda T, x, op=op: getattr(T, op)(x.t(), 1), R(4, 3, seed=7), second=True)
        case(f"{op}.dim/ties", lambda T, x, op=op: getattr(T, op)(x, 1), D(TIES), second=True)
        case(f"{op}.dim/long-ties", lambda T, x, op=op: getattr(T, op)(x, 1), D(LONG_TIES))
        case(f"{op}.dim/nan", lambda T, x, op=op: getattr(T, op)(x, 1), D(NANS))
        case(f"{op}.dim/0-dim", lambda T, x, op=op: getattr(T, op)(x, 0), R(seed=8), second=True)
        case(f"{op}.dim/empty-other", lambda T, x, op=op: getattr(T, op)(x.reshape([2, 0]), 0), D([]))
        case(f"{op}.dim/empty-error", lambda T, x, op=op: getattr(T, op)(x.reshape([2, 0]), 1), D([]))
        case(f"{op}.dim/int64", lambda T, x, op=op: getattr(T, op)(x, 0), L([[3, 1], [-1, 4], [3, 3]]))
        case(f"{op}.dim/error", lambda T, x, op=op: getattr(T, op)(x, 2), R(2, 3))
        case(f"{op}/bool-error", lambda T, x, op=op: getattr(T, op)(x > 0), R(3))
        for n in (3, 4, 7, 12):
            rows = D([[NAN] * n, [NAN] * (n - 1) + [1.0]])
            case(f"{op}.dim/nan-rows-{n}", lambda T, x, op=op: getattr(T, op)(x, 1), rows)
        case(
            f"{op}.dim_values/out",
            lambda T, x, op=op: getattr(T, op)(x, 1, out=(T.zeros([2], dtype=T.float64), T.zeros([2], dtype=T.int64))),
            R(2, 5, seed=9, grad=False),
        )

    case("kthvalue/k-2", lambda T, x: T.kthvalue(x, 2), R(3, 5, seed=1), second=True)
    case("kthvalue/dim-0-keepdim", lambda T, x: x.kthvalue(3, 0, keepdim=True), R(4, 3, seed=2), second=True)
    case("kthvalue/keywords", lambda T, x: T.kthvalue(x, k=1, dim=-1), R(2, 3, seed=3), second=True)
    case("kthvalue/transposed", lambda T, x: T.kthvalue(x.t(), 2, 1), R(3, 4, seed=4), second=True)
    case("kthvalue/ties", lambda T, x: T.kthvalue(x, 2, 1), D(TIES), second=True)
    for k in (1, 7, 20, 40):
        case(f"kthvalue/long-ties-k-{k}", lambda T, x, k=k: T.kthvalue(x, k, 1), D(LONG_TIES))
    case("kthvalue/nan", lambda T, x: T.kthvalue(x, 4, 1), D(NANS))
    case("kthvalue/0-dim", lambda T, x: T.kthvalue(x, 1), R(seed=5), second=True)
    case("kthvalue/int64", lambda T, x: T.kthvalue(x, 2), L([3, -1, 5, 0]))
    case("kthvalue/k-error", lambda T, x: T.kthvalue(x, 4), R(3))
    case("kthvalue/k-0-error", lambda T, x: T.kthvalue(x, 0), R(3))
    case("kthvalue/dim-error", lambda T, x: T.kthvalue(x, 1, 2), R(2, 3))
    case("kthvalue/empty-error", lambda T, x: T.kthvalue(x, 1), D([]))
    case(
        "kthvalue.values/out",
        lambda T, x: T.kthvalue(x, 2, out=(T.zeros([2], dtype=T.float64), T.zeros([2], dtype=T.int64))),
        R(2, 5, seed=6, grad=False),
    )

    case("mode/2x5", lambda T, x: T.mode(x), R(2, 5, seed=1), second=True)
    case("mode/dim-0-keepdim", lambda T, x: x.mode(0, keepdim=True), R(4, 3, seed=2), second=True)
    case("mode/ties", lambda T, x: T.mode(x, 1), D(TIES), second=True)
    case("mode/long-ties", lambda T, x: T.mode(x, 1), D(LONG_TIES), second=True)
    case("mode/nan", lambda T, x: T.mode(x), D([[1.0, NAN, NAN, 2.0, NAN], [NAN, 1.0, NAN, 1.0, 0.0]]))
    case("mode/0-dim", lambda T, x: T.mode(x), R(seed=3), second=True)
    case("mode/int64", lambda T, x: T.mode(x), L([[3, 1, 3, 1, 1], [0, 0, 2, 2, 9]]))
    case("mode/bool", lambda T, x: T.mode(x > 0), D([0.5, -1.0, 2.0, -3.0, 0.25]))
    case("mode/empty-other", lambda T, x: T.mode(x.reshape([0, 3]), 1), D([]))
    case("mode/empty-error", lambda T, x: T.mode(x.reshape([2, 0]), 1), D([]))
    case("mode/dim-error", lambda T, x: T.mode(x, -3), R(2, 3))
    case(
        "mode.values/out",
        lambda T, x: T.mode(x, 0, out=(T.zeros([5], dtype=T.float64), T.zeros([5], dtype=T.int64))),
        R(2, 5, seed=4, grad=False),
    )


_register()


def _register_scans() -> None:
    NANS_ROW = [[1.0, 3.0, 3.0, NAN, 5.0, NAN, -1.0], [2.0, 2.0, -1.0, -1.0, 0.0, 7.0, 7.0]]
    for op in ["cummax", "cummin"]:
        case(f"{op}/dim-1", lambda T, x, op=op: getattr(T, op)(x, 1), R(3, 4, seed=1), second=True)
        case(f"{op}/method-dim-0", lambda T, x, op=op: getattr(x, op)(dim=0), R(4, 3, seed=2), second=True)
        case(f"{op}/negative-dim", lambda T, x, op=op: getattr(T, op)(x, -2), R(2, 3, 2, seed=3), second=True)
        case(f"{op}/transposed", lambda T, x, op=op: getattr(T, op)(x.t(), 1), R(4, 3, seed=4), second=True)
        case(f"{op}/ties", lambda T, x, op=op: getattr(T, op)(x, 1), D(TIES), second=True)
        case(f"{op}/nan", lambda T, x, op=op: getattr(T, op)(x, 1), D(NANS_ROW))
        case(f"{op}/0-dim", lambda T, x, op=op: getattr(T, op)(x, 0), R(seed=5), second=True)
        case(f"{op}/empty", lambda T, x, op=op: getattr(T, op)(x.reshape([0, 3]), 1), D([]))
        case(f"{op}/int64", lambda T, x, op=op: getattr(T, op)(x, 0), L([2, 1, 2, 0, 5]))
        case(f"{op}/bool", lambda T, x, op=op: getattr(T, op)(x > 0, 0), D([0.5, -1.0, 2.0, -3.0]))
        case(f"{op}/dim-error", lambda T, x, op=op: getattr(T, op)(x, 2), R(2, 3))
        case(
            f"{op}.out/values-indices",
            lambda T, x, op=op: getattr(T, op)(
                x, 1, out=(T.zeros([2, 5], dtype=T.float64), T.zeros([2, 5], dtype=T.int64))
            ),
            R(2, 5, seed=6, grad=False),
        )
    case("logcumsumexp/dim-1", lambda T, x: T.logcumsumexp(x, 1), R(3, 4, seed=1))
    case("logcumsumexp/method-dim-0", lambda T, x: x.logcumsumexp(0), R(4, 3, seed=2))
    case("logcumsumexp/second", lambda T, x: T.logcumsumexp(x, 0), R(4, seed=3), second=True)
    case("logcumsumexp/transposed", lambda T, x: T.logcumsumexp(x.t(), 1), R(4, 3, seed=4))
    case("logcumsumexp/large", lambda T, x: T.logcumsumexp(x * 500, 0), R(6, seed=5))
    case("logcumsumexp/special", lambda T, x: T.logcumsumexp(x, 0), D([1.0, INF, INF, -INF, NAN, 2.0], grad=False))
    case("logcumsumexp/minus-inf", lambda T, x: T.logcumsumexp(x, 0), D([-INF, -INF, 0.0], grad=False))
    case("logcumsumexp/0-dim", lambda T, x: T.logcumsumexp(x, 0), R(seed=6))
    case("logcumsumexp/empty", lambda T, x: T.logcumsumexp(x.reshape([0, 2]), 1), D([]))
    case("logcumsumexp/float32", lambda T, x: T.logcumsumexp(x, 0), R(5, seed=7, dtype="float32"))
    case("logcumsumexp/int64-error", lambda T, x: T.logcumsumexp(x, 0), L([1, 2]))
    case("logcumsumexp/dim-error", lambda T, x: T.logcumsumexp(x, 1), R(3))
    case(
        "logcumsumexp.out/2x3",
        lambda T, x: T.logcumsumexp(x, 1, out=T.zeros([2, 3], dtype=T.float64)),
        R(2, 3, seed=8, grad=False),
    )


_register_scans()


def _register_vector_norm() -> None:
    def vn(*args, **kwargs):
        return lambda T, x: T.linalg.vector_norm(x, *args, **kwargs)

    case("linalg_vector_norm/default", vn(), R(3, 4, seed=1), second=True)
    case("linalg_vector_norm/ord-1-dim", vn(1, 1), R(3, 4, seed=2), second=True)
    case("linalg_vector_norm/ord-3-dims-keepdim", vn(3, (0, 2), True), R(2, 3, 2, seed=3), second=True)
    case("linalg_vector_norm/ord-0.5", vn(0.5, -1), R(2, 3, seed=4), second=True)
    case("linalg_vector_norm/ord-inf", vn(INF, 1), R(2, 3, seed=5), second=True)
    case("linalg_vector_norm/ord--inf", vn(-INF), R(2, 3, seed=6), second=True)
    case("linalg_vector_norm/ord-0", vn(0), D([[0.0, 1.0, -2.0], [0.0, 0.0, 3.0]]))
    case("linalg_vector_norm/keywords", vn(ord=2, dim=[0], keepdim=True), R(3, 2, seed=7), second=True)
    case("linalg_vector_norm/float32", vn(2), R(4, seed=8, dtype="float32"))
    case(
        "linalg_vector_norm/dtype-narrowing-error",
        lambda T, x: T.linalg.vector_norm(x, 2, dtype=T.float32),
        R(2, 3, seed=11),
    )
    case(
        "linalg_vector_norm/dtype-float64",
        lambda T, x: T.linalg.vector_norm(x, 2, dtype=T.float64),
        R(2, 3, seed=12, dtype="float32"),
    )
    case("linalg_vector_norm/zeros", vn(2), D([0.0, 0.0, 0.0]))
    case("linalg_vector_norm/nan-inf", vn(2, 1), D([[NAN, 1.0], [INF, 2.0]], grad=False))
    case("linalg_vector_norm/0-dim", vn(2), R(seed=9), second=True)
    case("linalg_vector_norm/empty", vn(2), D([]))
    case("linalg_vector_norm/empty-inf-error", vn(INF), D([]))
    case("linalg_vector_norm/int64-error", vn(2), L([1, 2]))
    case("linalg_vector_norm/dim-error", vn(2, 2), R(2, 3))
    case(
        "linalg_vector_norm.out/dim-1",
        lambda T, x: T.linalg.vector_norm(x, 2, 1, out=T.zeros([2], dtype=T.float64)),
        R(2, 3, seed=10, grad=False),
    )


_register_vector_norm()


def _register_norm_overloads() -> None:
    case("norm.Scalar/default", lambda T, x: x.norm(), R(3, 4, seed=1), second=True)
    case("norm.Scalar/p-3", lambda T, x: T.norm(x, 3), R(2, 3, seed=2), second=True)
    case("norm.Scalar/p-inf", lambda T, x: x.norm(INF), R(2, 3, seed=3), second=True)
    case("norm.Scalar/0-dim", lambda T, x: x.norm(), R(seed=4), second=True)
    case("norm.ScalarOpt_dtype/float64", lambda T, x: x.norm(2, dtype=T.float64), R(2, 3, seed=5), second=True)
    case(
        "norm.ScalarOpt_dim_dtype/keepdim",
        lambda T, x: x.norm(1.5, [1], True, dtype=T.float64),
        R(2, 3, seed=6),
        second=True,
    )
    case("norm.ScalarOpt_dim_dtype/narrowing-error", lambda T, x: x.norm(2, [1], False, dtype=T.float32), R(2, 3))


_register_norm_overloads()


def _register_norm_out() -> None:
    case(
        "norm.out/dim-1",
        lambda T, x: T.norm(x, 2, [1], out=T.zeros([2], dtype=T.float64)),
        R(2, 3, seed=1, grad=False),
    )
    case(
        "norm.dtype_out/dim-0-keepdim",
        lambda T, x: T.norm(x, 1, [0], True, dtype=T.float64, out=T.zeros([1, 3], dtype=T.float64)),
        R(2, 3, seed=2, grad=False),
    )


_register_norm_out()


def _register_search() -> None:
    SEQ = [1.0, 2.0, 2.0, 3.0, 5.0]
    VALS = [[2.0, 0.0, NAN], [5.0, 6.0, -INF]]
    case("searchsorted.Tensor/left", lambda T, s, v: T.searchsorted(s, v), D(SEQ), D(VALS))
    case("searchsorted.Tensor/right", lambda T, s, v: T.searchsorted(s, v, right=True), D(SEQ), D(VALS))
    case("searchsorted.Tensor/side-right", lambda T, s, v: T.searchsorted(s, v, side="right"), D(SEQ), D(VALS))
    case(
        "searchsorted.Tensor/rows",
        lambda T, s, v: T.searchsorted(s, v),
        D([[0.0, 1.0, 2.0], [-3.0, -1.0, 4.0]]),
        D([[1.5, -1.0], [0.0, 9.0]]),
    )
    case(
        "searchsorted.Tensor/sorter",
        lambda T, s, v: T.searchsorted(s, v, sorter=T.argsort(s)),
        D([3.0, 1.0, 2.0, 0.5]),
        D([2.5, 0.0, 1.0]),
    )
    case("searchsorted.Tensor/int64", lambda T, s, v: T.searchsorted(s, v), L([1, 3, 5, 7]), L([0, 3, 8]))
    case("searchsorted.Tensor/nan-sequence", lambda T, s, v: T.searchsorted(s, v), D([1.0, 2.0, NAN]), D([1.5, 3.0]))
    case("searchsorted.Tensor/empty-values", lambda T, s, v: T.searchsorted(s, v.reshape([0])), D(SEQ), D([]))
    case(
        "searchsorted.Tensor/opposites-error",
        lambda T, s, v: T.searchsorted(s, v, right=True, side="left"),
        D(SEQ),
        D(VALS),
    )
    case("searchsorted.Tensor/shape-error", lambda T, s, v: T.searchsorted(s, v), D([[1.0, 2.0]] * 3), D(VALS))
    case(
        "searchsorted.Tensor_out/left",
        lambda T, s, v: T.searchsorted(s, v, out=T.zeros([2, 3], dtype=T.int64)),
        D(SEQ, grad=False),
        D(VALS, grad=False),
    )
    case("searchsorted.Scalar/2", lambda T, s: T.searchsorted(s, 2.0), D(SEQ))
    case("searchsorted.Scalar/right", lambda T, s: T.searchsorted(s, 2, right=True), D(SEQ))
    case("searchsorted.Scalar/dim-error", lambda T, s: T.searchsorted(s, 2.0), D([[1.0, 2.0]]))
    case(
        "searchsorted.Scalar_out/4",
        lambda T, s: T.searchsorted(s, 4.0, out=T.zeros([], dtype=T.int64)),
        D(SEQ, grad=False),
    )
    case("bucketize.Tensor/left", lambda T, v, b: T.bucketize(v, b), D(VALS), D(SEQ))
    case("bucketize.Tensor/right", lambda T, v, b: T.bucketize(v, b, right=True), D(VALS), D(SEQ))
    case("bucketize.Tensor/dim-error", lambda T, v, b: T.bucketize(v, b), D(VALS), D([[1.0, 2.0]]))
    case(
        "bucketize.Tensor_out/left",
        lambda T, v, b: T.bucketize(v, b, out=T.zeros([2, 3], dtype=T.int64)),
        D(VALS, grad=False),
        D(SEQ, grad=False),
    )
    case("bucketize.Scalar/3", lambda T, b: T.bucketize(3.0, b), D(SEQ))
    case("searchsorted.Tensor/out_int32", lambda T, s, v: T.searchsorted(s, v, out_int32=True), D(SEQ), D(VALS))
    case("searchsorted.Scalar/out_int32", lambda T, s: T.searchsorted(s, 2.0, out_int32=True), D(SEQ))
    case("bucketize.Tensor/out_int32", lambda T, v, b: T.bucketize(v, b, out_int32=True, right=True), D(VALS), D(SEQ))
    case("bucketize.Scalar/out_int32", lambda T, b: T.bucketize(3.0, b, out_int32=True), D(SEQ))
    for name, out_int32, dtype in [
        ("int32", True, "int32"),
        ("int32-error", False, "int32"),
        ("int64-error", True, "int64"),
    ]:
        case(
            f"searchsorted.Tensor_out/{name}",
            lambda T, s, v, f=out_int32, d=dtype: T.searchsorted(
                s, v, out_int32=f, out=T.zeros([2, 3], dtype=getattr(T, d))
            ),
            D(SEQ, grad=False),
            D(VALS, grad=False),
        )
        case(
            f"bucketize.Tensor_out/{name}",
            lambda T, v, b, f=out_int32, d=dtype: T.bucketize(
                v, b, out_int32=f, out=T.zeros([2, 3], dtype=getattr(T, d))
            ),
            D(VALS, grad=False),
            D(SEQ, grad=False),
        )
    case(
        "searchsorted.Scalar_out/out_int32",
        lambda T, s: T.searchsorted(s, 4.0, out_int32=True, out=T.zeros([], dtype=T.int32)),
        D(SEQ, grad=False),
    )


_register_search()
