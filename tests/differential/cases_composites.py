"""Differential cases of PyTorch's composite tensor-API functions (issue 23, python/gradgen/
_composites.py and linalg.py).

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch 2.13: isposinf / isneginf, where(condition), randint_like (dtype, shape, range), the
flips and rot90, moveaxis / swapaxes / swapdims / adjoint / ravel / reshape_as, atleast_1d/2d/3d,
diagflat, broadcast_shapes, row_stack, inner, the deprecated cholesky / qr, torch.norm with
'fro' / 'nuc', linalg.norm / matrix_norm / pinv / matrix_rank / matmul (values, gradients,
errors), the gradient of the 0-"norm" (none at all), Tensor.__format__, Tensor.to with a device,
Tensor.shape as a Size, torch.utils.dlpack, the in-place view ops squeeze_ / unsqueeze_ / t_ /
transpose_ (history, version, refusals) and view(dtype). Python values (bools, strings, sizes) are
returned as tensors so that the harness records them; error_message compares messages.
"""

from __future__ import annotations

from cases import INF, NAN, B, D, L, R, case, error_message  # cases.py imports this module once they are defined


def _text(T, s):
    return T.tensor([ord(c) for c in s], dtype=T.int64)


def _classify() -> None:
    x = D([1.0, INF, -INF, NAN, -0.0], grad=False)
    for name in ("isposinf", "isneginf"):
        case(f"{name}/float", lambda T, a, n=name: getattr(T, n)(a), x)
        case(f"{name}/method-float32", lambda T, a, n=name: getattr(a.float(), n)(), x)
        case(f"{name}/int", lambda T, a, n=name: getattr(T, n)(a), L([1, -2, 0]))
        case(f"{name}/bool", lambda T, a, n=name: getattr(T, n)(a), B([True, False]))
        case(f"{name}/out", lambda T, a, n=name: getattr(T, n)(a, out=T.zeros([5], dtype=T.bool)), x)
    case("where/condition-only", lambda T, c: T.where(c), B([[True, False], [False, True]]))
    case("where/condition-only-float", lambda T, c: T.where(c), D([0.0, 1.5, 0.0, -2.0], grad=False))
    case("where/condition-only-0-dim", lambda T, c: T.where(c), B(True))
    case(
        "where/three-arguments-still", lambda T, c, a, b: T.where(c, a, b), B([True, False]), R(2, seed=1), R(2, seed=2)
    )
    case(
        "is_floating_point/function",
        lambda T, a: T.tensor([T.is_floating_point(a), T.is_floating_point(a.long())]),
        R(2),
    )


def _randint_like() -> None:
    def run(T, a, *args, **kw):
        r = T.randint_like(a, *args, **kw)
        return T.zeros(list(r.shape), dtype=r.dtype), T.tensor([bool(((r >= 0) & (r < 3)).all())])

    case("randint_like/high", lambda T, a: run(T, a, 3), R(2, 3, grad=False))
    case("randint_like/low-high", lambda T, a: run(T, a, 0, 3), R(2, grad=False, dtype="float32"))
    case("randint_like/keywords-dtype", lambda T, a: run(T, a, low=1, high=3, dtype=T.int32), R(4, grad=False))
    case("randint_like/int-input", lambda T, a: run(T, a, 3), L([[1, 2]]))


def _flips() -> None:
    x = R(2, 3, 4, seed=3)
    case("fliplr", lambda T, a: T.fliplr(a), x)
    case("flipud", lambda T, a: T.flipud(a), x)
    case("fliplr/method", lambda T, a: a.fliplr(), R(3, 2, seed=4))
    case("fliplr/1-d-error", error_message(lambda T, a: T.fliplr(a)), R(3, seed=5))
    case("flipud/0-dim-error", error_message(lambda T, a: T.flipud(a)), R(seed=6))
    for k in (0, 1, 2, 3, -1, 5):
        case(f"rot90/k={k}", lambda T, a, k=k: T.rot90(a, k), R(2, 3, seed=7))
    case("rot90/dims-1-2", lambda T, a: T.rot90(a, 1, [1, 2]), x)
    case("rot90/dims-negative", lambda T, a: a.rot90(3, (-1, 0)), x)
    case("rot90/one-dim-error", error_message(lambda T, a: T.rot90(a, 1, [0])), x)
    case("rot90/same-dims-error", error_message(lambda T, a: T.rot90(a, 1, [0, -3])), x)
    case("rot90/out-of-range-error", error_message(lambda T, a: T.rot90(a, 1, [0, 3])), x)
    case("rot90/1-d-error", error_message(lambda T, a: T.rot90(a)), R(3, seed=8))


def _aliases() -> None:
    x = R(2, 3, 4, seed=9)
    case("moveaxis/int", lambda T, a: T.moveaxis(a, 2, 0), x)
    case("moveaxis/lists-method", lambda T, a: a.moveaxis([0, 1], [-1, -2]), x)
    case("swapaxes", lambda T, a: T.swapaxes(a, 0, 2), x)
    case("swapaxes/method-is-view", lambda T, a: T.tensor([a.swapaxes(0, 1).data_ptr() == a.data_ptr()]), x)
    case("swapdims/method", lambda T, a: a.swapdims(-1, 1), x)
    case("adjoint", lambda T, a: T.adjoint(a), x)
    case("adjoint/method", lambda T, a: a.adjoint(), R(2, 3, seed=10))
    case("adjoint/1-d-error", error_message(lambda T, a: a.adjoint()), R(3, seed=11))
    case("ravel/transposed", lambda T, a: a.t().ravel(), R(2, 3, seed=12))
    case("ravel/function-0-dim", lambda T, a: T.ravel(a), R(seed=13))
    case("reshape_as", lambda T, a, b: a.reshape_as(b), R(2, 3, seed=14), R(3, 2, seed=15, grad=False))
    case("reshape_as/error", lambda T, a, b: a.reshape_as(b), R(2, 3, seed=16), R(4, seed=17, grad=False))
    case("diagflat", lambda T, a: T.diagflat(a), R(3, seed=18))
    case("diagflat/offset-2-d", lambda T, a: T.diagflat(a, 1), R(2, 2, seed=19))
    case("diagflat/negative-offset-method", lambda T, a: a.diagflat(-2), R(2, seed=20))
    case("row_stack/1-d", lambda T, a, b: T.row_stack([a, b]), R(3, seed=21), R(3, seed=22))
    case("row_stack/2-d-tuple", lambda T, a, b: T.row_stack((a, b)), R(2, 3, seed=23), R(1, 3, seed=24))
    case("row_stack/out", lambda T, a, b: T.row_stack([a, b], out=T.zeros([2, 2], dtype=T.float64)),
         R(2, seed=25, grad=False), R(2, seed=26, grad=False))  # fmt: skip


def _atleast() -> None:
    for n in (1, 2, 3):
        name = f"atleast_{n}d"
        for dims in ((), (3,), (2, 3), (2, 1, 3)):
            case(f"{name}/{len(dims)}-d", lambda T, a, f=name: getattr(T, f)(a), R(*dims, seed=30 + len(dims)))
        case(f"{name}/several", lambda T, a, b, f=name: getattr(T, f)(a, b), R(seed=34), R(2, seed=35))
        case(f"{name}/list", lambda T, a, b, f=name: getattr(T, f)([a, b]), R(2, 2, seed=36), R(seed=37))
        case(f"{name}/same-object", lambda T, a, f=name: T.tensor([getattr(T, f)(a) is a]), R(2, 2, 2, seed=38))


def _broadcast_shapes() -> None:
    def shapes(*s):
        return lambda T: T.tensor(list(T.broadcast_shapes(*s)), dtype=T.int64)

    case("broadcast_shapes/tuples", shapes((2, 1), (3,)))
    case("broadcast_shapes/ints-and-lists", shapes(3, [2, 1], (1, 1, 1)))
    case("broadcast_shapes/empty", lambda T: T.tensor([len(T.broadcast_shapes())]))
    case("broadcast_shapes/is-size", lambda T: _text(T, type(T.broadcast_shapes((2,), (1,))).__name__))
    case("broadcast_shapes/mismatch-error", error_message(lambda T: T.broadcast_shapes((2,), (3,))))


def _inner() -> None:
    case("inner/2-d", lambda T, a, b: T.inner(a, b), R(2, 3, seed=40), R(4, 3, seed=41), second=True)
    case("inner/1-d", lambda T, a, b: T.inner(a, b), R(3, seed=42), R(3, seed=43))
    case("inner/3-d-1-d-method", lambda T, a, b: a.inner(b), R(2, 2, 3, seed=44), R(3, seed=45))
    case("inner/0-dim", lambda T, a, b: T.inner(a, b), R(seed=46), R(2, 3, seed=47))
    case("inner/mismatch-error", error_message(lambda T, a, b: T.inner(a, b)), R(2, 3, seed=48), R(2, seed=49))
    case("inner/out", lambda T, a, b: T.inner(a, b, out=T.zeros([2, 2], dtype=T.float64)),
         R(2, 3, seed=50, grad=False), R(2, 3, seed=51, grad=False))  # fmt: skip


def _spd(T, a):
    return a @ a.t() + T.eye(a.shape[0], dtype=a.dtype)


def _deprecated_decompositions() -> None:
    case("cholesky/lower", lambda T, a: T.cholesky(_spd(T, a)), R(3, 3, seed=52))
    case("cholesky/upper-method", lambda T, a: _spd(T, a).cholesky(upper=True), R(3, 3, seed=53))
    case("cholesky/not-positive-definite-error", lambda T, a: T.cholesky(a - 5 * T.eye(2, dtype=a.dtype)),
         R(2, 2, seed=54))  # fmt: skip

    def qr(T, a, some=True):
        q, r = T.qr(a, some)
        return q @ r, T.tensor(list(q.shape) + list(r.shape))

    case("qr/reduced", lambda T, a: qr(T, a), R(4, 3, seed=55))
    case("qr/complete", lambda T, a: qr(T, a, False), R(4, 3, seed=56))
    case("qr/method-wide", lambda T, a: (lambda q, r: q @ r)(*a.qr()), R(2, 3, seed=57))


def _torch_norm() -> None:
    x = R(2, 3, seed=60)
    case("norm/fro", lambda T, a: T.norm(a, p="fro"), x, second=True)
    case("norm/fro-dim-keepdim", lambda T, a: T.norm(a, "fro", 1, True), x)
    case("norm/fro-two-dims-of-3-d", lambda T, a: T.norm(a, "fro", (0, 2)), R(2, 3, 2, seed=61))
    case("norm/fro-method", lambda T, a: a.norm("fro"), x)
    case("norm/default", lambda T, a: T.norm(a), x)
    case("norm/nuc", lambda T, a: T.norm(a, "nuc"), x)
    case("norm/nuc-keepdim-dims", lambda T, a: T.norm(a, "nuc", (0, 2), keepdim=True), R(2, 3, 2, seed=62))
    case("norm/nuc-3-d-error", error_message(lambda T, a: T.norm(a, "nuc")), R(2, 2, 2, seed=63))
    case("norm/bad-string-error", error_message(lambda T, a: T.norm(a, "abc")), x)
    case("norm/p=0-no-gradient", lambda T, a: T.norm(a, p=0), D([[1.0, 0.0, 2.0], [0.0, 0.0, -3.0]]))
    case("norm/p=0-dim-no-gradient", lambda T, a: T.norm(a * 2, 0, 1), x)
    case("norm/p=3-keepdim-no-dim", lambda T, a: T.norm(a, 3, keepdim=True), x)
    case("norm/dtype", lambda T, a: T.norm(a.float(), 2, dtype=T.float64), x)
    case("linalg.vector_norm/ord=0-no-gradient", lambda T, a: T.linalg.vector_norm(a, 0), x)
    case("linalg.vector_norm/ord=0-dim-no-gradient", lambda T, a: T.linalg.vector_norm(a, 0, dim=0), x)

    def unused(T, a):
        return T.tensor([g is None for g in T.autograd.grad(T.linalg.vector_norm(a, 0), [a], allow_unused=True)])

    case("linalg.vector_norm/ord=0-grad-allow-unused", unused, x)
    case("linalg.vector_norm/ord=0-grad-unused-error",
         lambda T, a: T.autograd.grad(T.linalg.vector_norm(a, 0), [a]), R(2, seed=64))  # fmt: skip


def _matrix_norms() -> None:
    a = R(3, 4, seed=70)
    for ord in ("fro", "nuc", 2, -2, 1, -1, INF, -INF):
        case(f"linalg.matrix_norm/ord={ord}", lambda T, x, o=ord: T.linalg.matrix_norm(x, o), a)
        case(f"linalg.matrix_norm/ord={ord}-dims-keepdim",
             lambda T, x, o=ord: T.linalg.matrix_norm(x, o, (2, 0), keepdim=True), R(3, 2, 4, seed=71))  # fmt: skip
        case(f"linalg.norm/ord={ord}", lambda T, x, o=ord: T.linalg.norm(x, o), a)
    case("linalg.matrix_norm/default-batched", lambda T, x: T.linalg.matrix_norm(x), R(2, 3, 2, seed=72))
    case("linalg.matrix_norm/second-derivative", lambda T, x: T.linalg.matrix_norm(x, "nuc"), a, second=True)
    case("linalg.matrix_norm/ord=1-dims-0-1", lambda T, x: T.linalg.matrix_norm(x, 1, (1, 0)), R(2, 3, 2, seed=73))
    case("linalg.matrix_norm/dtype", lambda T, x: T.linalg.matrix_norm(x.float(), -1, dtype=T.float64), a)
    case("linalg.matrix_norm/out", lambda T, x: T.linalg.matrix_norm(x, 2, out=T.zeros([], dtype=T.float64)),
         R(3, 3, seed=74, grad=False))  # fmt: skip
    for name, call, arg in (
        ("1-d", lambda T, x: T.linalg.matrix_norm(x), R(3, seed=75)),
        ("order", lambda T, x: T.linalg.matrix_norm(x, 3), a),
        ("string-order", lambda T, x: T.linalg.matrix_norm(x, "abc"), a),
        ("dims-3", lambda T, x: T.linalg.matrix_norm(x, dim=(0, 1, 2)), R(2, 2, 2, seed=76)),
        ("same-dims", lambda T, x: T.linalg.matrix_norm(x, dim=(0, -3)), R(2, 2, 2, seed=77)),
        ("int", lambda T, x: T.linalg.matrix_norm(x.long()), a),
        ("half-ord-2", lambda T, x: T.linalg.matrix_norm(x.half(), 2), a),
        ("int-dtype", lambda T, x: T.linalg.matrix_norm(x, dtype=T.int64), a),
    ):
        case(f"linalg.matrix_norm/{name}-error", error_message(call), arg)
    x3 = R(2, 3, 2, seed=78)
    case("linalg.norm/default", lambda T, x: T.linalg.norm(x), x3)
    case("linalg.norm/vector-ord", lambda T, x: T.linalg.norm(x, 3, dim=1), x3)
    case("linalg.norm/vector-1-d", lambda T, x: T.linalg.norm(x, 1), R(4, seed=79))
    case("linalg.norm/matrix-dims", lambda T, x: T.linalg.norm(x, INF, dim=(0, 2), keepdim=True), x3)
    case("linalg.norm/fro-dim-error", error_message(lambda T, x: T.linalg.norm(x, "fro", dim=0)), a)
    case("linalg.norm/3-d-ord-error", error_message(lambda T, x: T.linalg.norm(x, 2)), x3)
    case("linalg.norm/3-d-string-error", error_message(lambda T, x: T.linalg.norm(x, "fro")), x3)
    case("linalg.norm/dims-3-error", error_message(lambda T, x: T.linalg.norm(x, dim=(0, 1, 2))), x3)
    case("linalg.norm/dims-3-string-error", error_message(lambda T, x: T.linalg.norm(x, "nuc", dim=(0, 1, 2))), x3)
    case("linalg.norm/dtype", lambda T, x: T.linalg.norm(x, dtype=T.float64), R(2, 3, 2, seed=78, dtype="float32"))


def _pinv_rank() -> None:
    square = D([[2.0, 0.5, -0.3], [0.1, 1.5, 0.4], [-0.2, 0.3, 1.8]])
    case("linalg.pinv/square", lambda T, a: T.linalg.pinv(a), square, second=True)
    case("linalg.pinv/tall", lambda T, a: T.linalg.pinv(a), R(4, 2, seed=81))
    case("linalg.pinv/batched-wide", lambda T, a: T.linalg.pinv(a), R(2, 2, 3, seed=82))
    case("linalg.pinv/hermitian", lambda T, a: T.linalg.pinv(a + a.t(), hermitian=True), R(3, 3, seed=83))
    case("linalg.pinv/rank-deficient", lambda T, a: T.linalg.pinv(a[:, :1] @ a[:1, :]), R(3, 3, seed=84, grad=False))
    case("linalg.pinv/atol-cuts", lambda T, a: T.linalg.pinv(a, atol=0.5), D([[2.0, 0.0], [0.0, 0.1]]))
    case("linalg.pinv/rcond", lambda T, a: T.linalg.pinv(a, 0.1), D([[2.0, 0.0], [0.0, 0.1]]))
    case("linalg.pinv/rtol-tensor", lambda T, a: T.linalg.pinv(a, rtol=T.tensor(0.01)), D([[2.0, 0.0], [0.0, 0.1]]))
    case("linalg.pinv/float32", lambda T, a: T.linalg.pinv(a), D([[2.0, 0.5, -0.3], [0.1, 1.5, 0.4]], "float32"))
    case("linalg.pinv/1-d-error", error_message(lambda T, a: T.linalg.pinv(a)), R(3, seed=86))
    case("linalg.pinv/int-error", error_message(lambda T, a: T.linalg.pinv(a)), L([[1, 2], [3, 4]]))
    low = D([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], grad=False)
    case("linalg.matrix_rank/full", lambda T, a: T.linalg.matrix_rank(a), R(3, 3, seed=87))
    case("linalg.matrix_rank/deficient", lambda T, a: T.linalg.matrix_rank(a), low)
    case("linalg.matrix_rank/hermitian", lambda T, a: T.linalg.matrix_rank(a @ a.t(), hermitian=True), low)
    case("linalg.matrix_rank/atol", lambda T, a: T.linalg.matrix_rank(a, atol=1.0), D([[2.0, 0.0], [0.0, 0.1]]))
    case("linalg.matrix_rank/rtol", lambda T, a: T.linalg.matrix_rank(a, rtol=0.01), D([[2.0, 0.0], [0.0, 0.1]]))
    case("linalg.matrix_rank/tol-positional", lambda T, a: T.linalg.matrix_rank(a, 0.5), D([[2.0, 0.0], [0.0, 0.1]]))
    case("linalg.matrix_rank/batched-wide", lambda T, a: T.linalg.matrix_rank(a), R(2, 2, 3, seed=88))
    case("linalg.matrix_rank/empty", lambda T, a: T.linalg.matrix_rank(a.reshape(2, 0, 3)), D([]))
    case("linalg.matrix_rank/1-d-error", error_message(lambda T, a: T.linalg.matrix_rank(a)), R(3, seed=89))
    case("linalg.matmul", lambda T, a, b: T.linalg.matmul(a, b), R(2, 3, seed=90), R(3, seed=91))


def _conventions() -> None:
    case("Tensor.__format__/0-dim", lambda T, a: _text(T, "{:.2f}|{}|{:>8.3e}".format(a, a, a)), D(2.567, grad=False))
    case("Tensor.__format__/int", lambda T, a: _text(T, f"{a:04d}"), L(7))
    case("Tensor.__format__/requires-grad", lambda T, a: _text(T, format(a * 2, ".1f")), R(seed=92))
    case("Tensor.__format__/1-d-spec-error", error_message(lambda T, a: "{:.2f}".format(a)), D([1.0], grad=False))
    case("to/cpu-is-self", lambda T, a: T.tensor([a.to("cpu") is a, a.to(T.device("cpu")) is a, a.to(a) is a]), R(2))
    case("to/cpu-dtype", lambda T, a: a.to("cpu", T.float32), R(2, seed=93))
    case("to/device-dtype-keywords", lambda T, a: a.to(device="cpu", dtype=T.float32), R(2, seed=94))
    case("to/cpu-copy", lambda T, a: (lambda b: (b, T.tensor([b is a])))(a.to("cpu", copy=True)), R(2, seed=95))
    case("to/other-tensor", lambda T, a, b: a.to(b), R(2, seed=96), L([1]))
    case("Size/type", lambda T, a: _text(T, " ".join(type(s).__name__ for s in (a.shape, a.size(), a.shape[1:]))),
         R(2, 3))  # fmt: skip
    case("Size/values", lambda T, a: T.tensor([a.shape == (2, 3), a.shape[0] == 2, a.size().numel() == 6]), R(2, 3))
    case("Size/concatenated", lambda T, a: T.zeros(a.shape + (1,)), R(2, 3, grad=False))
    case("Size/as-argument", lambda T, a: a.reshape(a.shape[::-1]).view(a.size()), R(2, 3))
    case("utils.dlpack/round-trip", lambda T, a: T.utils.dlpack.from_dlpack(T.utils.dlpack.to_dlpack(a)),
         R(2, 3, grad=False))  # fmt: skip


def _inplace_views() -> None:
    def run(method, *args):
        def f(T, a):
            y = a * 2
            before = y._version
            r = getattr(y, method)(*args)
            return y * T.arange(1, y.numel() + 1, dtype=y.dtype).reshape(y.shape), T.tensor(
                [r is y, y._version > before]
            )

        return f

    x = R(2, 1, 3, seed=100)
    case("squeeze_/non-leaf", run("squeeze_"), x)
    case("squeeze_/dim", run("squeeze_", 1), x)
    case("squeeze_/dim-not-1", run("squeeze_", 0), x)
    case("unsqueeze_/non-leaf", run("unsqueeze_", 1), x)
    case("unsqueeze_/negative-dim", run("unsqueeze_", -1), x)
    case("t_/non-leaf", run("t_"), R(2, 3, seed=101))
    case("transpose_/non-leaf", run("transpose_", 0, 2), x)
    case("squeeze_/leaf-requires-grad-error", lambda T, a: a.squeeze_(), x)
    case("unsqueeze_/leaf-without-grad", lambda T, a: a.unsqueeze_(0), R(2, 3, seed=102, grad=False))
    case("transpose_/out-of-range-error", lambda T, a: (a * 1).transpose_(0, 3), x)

    def on_view(T, a):
        b = a * 1
        c = b[0]
        c.unsqueeze_(0)
        return c * 3, b

    case("unsqueeze_/on-a-view", on_view, R(2, 3, seed=103))

    def no_grad(T, a):
        with T.no_grad():
            a.squeeze_()
        return T.tensor(list(a.shape))

    case("squeeze_/leaf-in-no-grad", no_grad, x)


def _view_dtype() -> None:
    x = R(2, 4, seed=110, dtype="float32", grad=False)
    for dtype in ("int32", "float16", "float64", "int8", "bfloat16"):
        case(f"view.dtype/float32-as-{dtype}", lambda T, a, d=dtype: a.view(getattr(T, d)), x)
    case("view.dtype/same-dtype-is-self", lambda T, a: T.tensor([a.view(a.dtype) is a]), x)
    case("view.dtype/transposed-same-size", lambda T, a: a.t().view(T.int32), x)
    case("view.dtype/int64-as-int32", lambda T, a: a.view(T.int32), L([[1, -2], [3, 2**40]]))
    case("view.dtype/shares-memory", lambda T, a: (lambda v: (v.__setitem__(0, 0), a)[1])(a.view(T.int32)), L([5, 6]))
    case("view.dtype/requires-grad-no-history", lambda T, a: T.tensor([a.view(T.int64).requires_grad]), R(2, seed=111))
    for name, call, arg in (
        ("transposed-smaller", lambda T, a: a.t().view(T.float16), x),
        ("odd-last-dim", lambda T, a: a[:, :3].view(T.float64), x),
        ("0-dim", lambda T, a: a.view(T.float16), R(seed=112, dtype="float32", grad=False)),
        ("offset", lambda T, a: a[:, 1:3].view(T.float64), x),
    ):
        case(f"view.dtype/{name}-error", error_message(call), arg)


_classify()
_randint_like()
_flips()
_aliases()
_atleast()
_broadcast_shapes()
_inner()
_deprecated_decompositions()
_torch_norm()
_matrix_norms()
_pinv_rank()
_conventions()
_inplace_views()
_view_dtype()
