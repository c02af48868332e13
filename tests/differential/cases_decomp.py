"""Differential cases of the linear algebra decompositions (issue 23): det, slogdet, logdet, inv,
solve (LU), and the others as they are added.

Imported by cases.py (near its end), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). Covered: single and
batched matrices, empty batches, float32, transposed inputs, exactly singular matrices (det 0 and
its gradient, slogdet's sign 0 and -inf), the errors of singular, non-square and integer inputs,
out= variants and Tensor methods. Square inputs are shifted by 3 I where the case needs them
invertible (random uniform entries in [-1, 1)). gradgen's info and pivots are int64 (PyTorch's
int32): cases compare info converted to int64.
"""

from __future__ import annotations

from cases import D, L, R, case  # cases.py imports this module once they are defined

SINGULAR = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]  # rank 2
RANK_ONE = [[1.0, 1.0, 2.0], [2.0, 2.0, 4.0], [3.0, 3.0, 6.0]]


def _shift(T, x):
    # x + 3 I: invertible and well conditioned for entries in [-1, 1).
    return x + 3 * T.eye(x.shape[-1], dtype=x.dtype)


def _register_det() -> None:
    case("linalg_det/3x3", lambda T, x: T.linalg.det(x), R(3, 3, seed=1), second=True)
    case("linalg_det/batch", lambda T, x: T.linalg.det(x), R(2, 3, 4, 4, seed=2), second=True)
    case("linalg_det/1x1", lambda T, x: T.linalg.det(x), R(1, 1, seed=3), second=True)
    case("linalg_det/0x0", lambda T, x: T.linalg.det(x.reshape(2, 0, 0)), R(0, seed=4))
    case("linalg_det/empty-batch", lambda T, x: T.linalg.det(x.reshape(0, 3, 3)), R(0, seed=5))
    case("linalg_det/transposed", lambda T, x: T.linalg.det(x.mT), R(4, 4, seed=6), second=True)
    case("linalg_det/float32", lambda T, x: T.linalg.det(_shift(T, x)), R(3, 3, seed=7, dtype="float32"))
    case("linalg_det/singular", lambda T, x: T.linalg.det(x), D(SINGULAR), second=True)
    case("linalg_det/rank-one", lambda T, x: T.linalg.det(x), D(RANK_ONE))
    case("linalg_det/zeros", lambda T, x: T.linalg.det(x), D([[0.0, 0.0], [0.0, 0.0]]), second=True)
    case(
        "linalg_det.out/out",
        lambda T, x: T.linalg.det(x, out=T.zeros([2], dtype=T.float64)),
        R(2, 3, 3, seed=8, grad=False),
    )
    case("_linalg_det/result", lambda T, x: T._linalg_det(x)[0], R(2, 3, 3, seed=13), second=True)
    case("det/method", lambda T, x: x.det(), R(3, 3, seed=9), second=True)
    case("det/function", lambda T, x: T.det(x), R(2, 2, 2, seed=10))
    case("linalg_det/int-error", lambda T, x: T.linalg.det(x), L([[1, 2], [3, 4]]))
    case("linalg_det/non-square-error", lambda T, x: T.linalg.det(x), R(2, 3, seed=11))
    case("linalg_det/1d-error", lambda T, x: T.linalg.det(x), R(3, seed=12))


def _register_slogdet() -> None:
    case("linalg_slogdet/3x3", lambda T, x: T.linalg.slogdet(x), R(3, 3, seed=20), second=True)
    case("linalg_slogdet/batch", lambda T, x: T.linalg.slogdet(x), R(3, 4, 4, seed=21), second=True)
    case("linalg_slogdet/float32", lambda T, x: T.linalg.slogdet(_shift(T, x)), R(3, 3, seed=22, dtype="float32"))
    case(
        "linalg_slogdet/singular",
        lambda T, x: T.linalg.slogdet(x),
        D([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [4.0, 5.0, 6.0]], grad=False),
    )
    case("linalg_slogdet/empty-batch", lambda T, x: T.linalg.slogdet(x.reshape(0, 2, 2)), R(0, seed=23))
    case(
        "linalg_slogdet.out/out",
        lambda T, x: T.linalg.slogdet(x, out=(T.zeros([2], dtype=T.float64), T.zeros([2], dtype=T.float64))),
        R(2, 3, 3, seed=24, grad=False),
    )
    case("_linalg_slogdet/sign-logabsdet", lambda T, x: T._linalg_slogdet(x)[:2], R(2, 3, 3, seed=29), second=True)
    case(
        "slogdet.out/out",
        lambda T, x: T.slogdet(x, out=(T.zeros([3], dtype=T.float64), T.zeros([3], dtype=T.float64))),
        R(3, 2, 2, seed=30, grad=False),
    )
    case("slogdet/method", lambda T, x: x.slogdet(), R(3, 3, seed=25), second=True)
    case("slogdet/function", lambda T, x: T.slogdet(x), R(2, 3, 3, seed=26))
    case("logdet/positive", lambda T, x: T.logdet(x @ x.mT + T.eye(3, dtype=x.dtype)), R(3, 3, seed=27), second=True)
    case("logdet/negative-nan", lambda T, x: x.logdet(), D([[0.0, 1.0], [1.0, 0.0]], grad=False))
    case("logdet/batch", lambda T, x: x.logdet(), D([[[2.0, 1.0], [1.0, 2.0]], [[1.0, 0.5], [0.0, 3.0]]]), second=True)
    case("linalg_slogdet/non-square-error", lambda T, x: T.linalg.slogdet(x), R(3, 2, seed=28))


def _register_inv() -> None:
    case("linalg_inv/3x3", lambda T, x: T.linalg.inv(_shift(T, x)), R(3, 3, seed=40), second=True)
    case("linalg_inv/batch", lambda T, x: T.linalg.inv(_shift(T, x)), R(2, 2, 3, 3, seed=41), second=True)
    case("linalg_inv/float32", lambda T, x: T.linalg.inv(_shift(T, x)), R(4, 4, seed=42, dtype="float32"))
    case("linalg_inv/empty-batch", lambda T, x: T.linalg.inv(x.reshape(0, 3, 3)), R(0, seed=43))
    case("linalg_inv/0x0", lambda T, x: T.linalg.inv(x.reshape(0, 0)), R(0, seed=44))
    case("linalg_inv/singular-error", lambda T, x: T.linalg.inv(x), D(SINGULAR))
    case("linalg_inv/batch-singular-error", lambda T, x: T.linalg.inv(T.stack([x, x * 0])), D([[2.0, 1.0], [1.0, 2.0]]))
    case("linalg_inv/non-square-error", lambda T, x: T.linalg.inv(x), R(2, 3, seed=45))
    case("linalg_inv/int-error", lambda T, x: T.linalg.inv(x), L([[1, 2], [3, 4]]))
    case(
        "linalg_inv.out/out",
        lambda T, x: T.linalg.inv(_shift(T, x), out=T.zeros([3, 3], dtype=T.float64)),
        R(3, 3, seed=46, grad=False),
    )
    case("linalg_inv_ex/3x3", lambda T, x: T.linalg.inv_ex(_shift(T, x))[0], R(3, 3, seed=47), second=True)
    case("linalg_inv_ex/singular-info", lambda T, x: T.linalg.inv_ex(x)[1].to(T.int64), D(SINGULAR, grad=False))
    case("linalg_inv_ex/check-errors", lambda T, x: T.linalg.inv_ex(x, check_errors=True), D(SINGULAR, grad=False))
    # info takes the library's own dtype (PyTorch's int32, gradgen's int64): a first call's.
    case(
        "linalg_inv_ex.inverse/out",
        lambda T, x: T.linalg.inv_ex(_shift(T, x), out=(T.zeros([3, 3], dtype=T.float64), T.linalg.inv_ex(x)[1]))[0],
        R(3, 3, seed=51, grad=False),
    )
    case("inverse/method", lambda T, x: _shift(T, x).inverse(), R(3, 3, seed=48), second=True)
    case("inverse/function", lambda T, x: T.inverse(_shift(T, x)), R(2, 3, 3, seed=49))
    case(
        "inverse.out/out",
        lambda T, x: T.inverse(_shift(T, x), out=T.zeros([3, 3], dtype=T.float64)),
        R(3, 3, seed=50, grad=False),
    )


def _register_solve() -> None:
    S = lambda T, a: _shift(T, a)  # noqa: E731
    case(
        "linalg_solve/matrix",
        lambda T, a, b: T.linalg.solve(S(T, a), b),
        R(3, 3, seed=60),
        R(3, 2, seed=61),
        second=True,
    )
    case(
        "linalg_solve/vector", lambda T, a, b: T.linalg.solve(S(T, a), b), R(3, 3, seed=62), R(3, seed=63), second=True
    )
    case(
        "linalg_solve/batched-vectors",
        lambda T, a, b: T.linalg.solve(S(T, a), b),
        R(2, 3, 3, seed=64),
        R(2, 3, seed=65),
        second=True,
    )
    case(
        "linalg_solve/broadcast",
        lambda T, a, b: T.linalg.solve(S(T, a), b),
        R(2, 1, 3, 3, seed=66),
        R(4, 3, 2, seed=67),
        second=True,
    )
    case(
        "linalg_solve/left-false",
        lambda T, a, b: T.linalg.solve(S(T, a), b, left=False),
        R(3, 3, seed=68),
        R(2, 3, seed=69),
        second=True,
    )
    case(
        "linalg_solve/left-false-batch",
        lambda T, a, b: T.linalg.solve(S(T, a), b, left=False),
        R(2, 3, 3, seed=70),
        R(2, 4, 3, seed=71),
    )
    case(
        "linalg_solve/float32",
        lambda T, a, b: T.linalg.solve(S(T, a), b),
        R(3, 3, seed=72, dtype="float32"),
        R(3, 2, seed=73, dtype="float32"),
    )
    case(
        "linalg_solve/empty-batch",
        lambda T, a, b: T.linalg.solve(a.reshape(0, 2, 2), b.reshape(0, 2, 1)),
        R(0, seed=74),
        R(0, seed=75),
    )
    case(
        "linalg_solve/only-b",
        lambda T, a, b: T.linalg.solve(S(T, a), b),
        R(3, 3, seed=76, grad=False),
        R(3, 2, seed=77),
        second=True,
    )
    case("linalg_solve/singular-error", lambda T, a, b: T.linalg.solve(a, b), D(SINGULAR), R(3, 1, seed=78))
    case("linalg_solve/shape-error", lambda T, a, b: T.linalg.solve(S(T, a), b), R(3, 3, seed=79), R(2, 2, seed=80))
    case(
        "linalg_solve/dtype-error",
        lambda T, a, b: T.linalg.solve(S(T, a), b),
        R(2, 2, seed=81),
        R(2, 1, seed=82, dtype="float32"),
    )
    case(
        "linalg_solve.out/out",
        lambda T, a, b: T.linalg.solve(S(T, a), b, out=T.zeros([3, 2], dtype=T.float64)),
        R(3, 3, seed=83, grad=False),
        R(3, 2, seed=84, grad=False),
    )
    case(
        "linalg_solve_ex/matrix",
        lambda T, a, b: T.linalg.solve_ex(S(T, a), b)[0],
        R(3, 3, seed=85),
        R(3, 2, seed=86),
        second=True,
    )
    case(
        "linalg_solve_ex.out/out",
        lambda T, a, b: T.linalg.solve_ex(
            S(T, a), b, out=(T.zeros([3, 2], dtype=T.float64), T.linalg.solve_ex(a, b)[1])
        )[0],
        R(3, 3, seed=88, grad=False),
        R(3, 2, seed=89, grad=False),
    )
    case(
        "_linalg_solve_ex/result",
        lambda T, a, b: T._linalg_solve_ex(S(T, a), b)[0],
        R(2, 3, 3, seed=90),
        R(3, 1, seed=91),
        second=True,
    )
    case(
        "linalg_solve_ex/singular-info",
        lambda T, a, b: T.linalg.solve_ex(a, b)[1].to(T.int64),
        D(SINGULAR, grad=False),
        R(3, 1, seed=87, grad=False),
    )


def _spd(T, x):
    # x x^T + n I: symmetric positive-definite, well conditioned.
    return x @ x.mT + x.shape[-1] * T.eye(x.shape[-1], dtype=x.dtype)


def _register_cholesky() -> None:
    C = lambda T, x, **k: T.linalg.cholesky(_spd(T, x), **k)  # noqa: E731
    case("linalg_cholesky/3x3", lambda T, x: C(T, x), R(3, 3, seed=100), second=True)
    case("linalg_cholesky/upper", lambda T, x: C(T, x, upper=True), R(3, 3, seed=101), second=True)
    case("linalg_cholesky/batch", lambda T, x: C(T, x), R(2, 2, 4, 4, seed=102), second=True)
    case("linalg_cholesky/float32", lambda T, x: C(T, x), R(4, 4, seed=103, dtype="float32"))
    case("linalg_cholesky/empty-batch", lambda T, x: T.linalg.cholesky(x.reshape(0, 3, 3)), R(0, seed=104))
    # Only one triangle is read: the other may hold anything.
    case("linalg_cholesky/lower-triangle-only", lambda T, x: T.linalg.cholesky(x), D([[4.0, 99.0], [2.0, 5.0]]))
    case(
        "linalg_cholesky/upper-triangle-only",
        lambda T, x: T.linalg.cholesky(x, upper=True),
        D([[4.0, 2.0], [-7.0, 5.0]]),
    )
    case("linalg_cholesky/not-pd-error", lambda T, x: T.linalg.cholesky(x), D([[1.0, 2.0], [2.0, 1.0]]))
    case(
        "linalg_cholesky/batch-not-pd-error",
        lambda T, x: T.linalg.cholesky(T.stack([x, -x])),
        D([[2.0, 0.0], [0.0, 2.0]]),
    )
    case("linalg_cholesky/non-square-error", lambda T, x: T.linalg.cholesky(x), R(2, 3, seed=105))
    case("linalg_cholesky/int-error", lambda T, x: T.linalg.cholesky(x), L([[4, 2], [2, 5]]))
    case(
        "linalg_cholesky.out/out",
        lambda T, x: T.linalg.cholesky(_spd(T, x), out=T.zeros([3, 3], dtype=T.float64)),
        R(3, 3, seed=106, grad=False),
    )
    case("linalg_cholesky_ex/3x3", lambda T, x: T.linalg.cholesky_ex(_spd(T, x))[0], R(3, 3, seed=107), second=True)
    case(
        "linalg_cholesky_ex/info",
        lambda T, x: T.linalg.cholesky_ex(x)[1].to(T.int64),
        D([[[1.0, 2.0], [2.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.0, 1.0]]], grad=False),
    )
    case(
        "linalg_cholesky_ex/check-errors",
        lambda T, x: T.linalg.cholesky_ex(x, check_errors=True),
        D([[1.0, 2.0], [2.0, 1.0]], grad=False),
    )
    case(
        "linalg_cholesky_ex.L/out",
        lambda T, x: T.linalg.cholesky_ex(
            _spd(T, x), out=(T.zeros([3, 3], dtype=T.float64), T.linalg.cholesky_ex(x)[1])
        )[0],
        R(3, 3, seed=108, grad=False),
    )


def _register_qr() -> None:
    for shape, seed in (((4, 3), 120), ((3, 3), 121), ((3, 5), 122)):
        tag = "x".join(map(str, shape))
        case(f"linalg_qr/reduced-{tag}", lambda T, x: T.linalg.qr(x), R(*shape, seed=seed), second=True)
        case(f"linalg_qr/r-{tag}", lambda T, x: T.linalg.qr(x, mode="r")[1], R(*shape, seed=seed + 10, grad=False))
    # (its second derivatives differ from PyTorch's by 5e-12 relative, over the 1e-12 bound: rounding)
    case("linalg_qr/complete-square", lambda T, x: T.linalg.qr(x, mode="complete"), R(3, 3, seed=130))
    case("linalg_qr/complete-wide", lambda T, x: T.linalg.qr(x, mode="complete"), R(2, 4, seed=131), second=True)
    # Q's last columns are not determined by A: values only, and PyTorch's gradient error.
    case(
        "linalg_qr/complete-tall-values", lambda T, x: T.linalg.qr(x, mode="complete")[1], R(4, 2, seed=132, grad=False)
    )
    case("linalg_qr/complete-tall-grad-error", lambda T, x: T.linalg.qr(x, mode="complete")[1], R(4, 2, seed=133))
    case("linalg_qr/r-grad-error", lambda T, x: T.linalg.qr(x, mode="r")[1], R(3, 3, seed=134))
    case("linalg_qr/r-q-empty", lambda T, x: T.linalg.qr(x, mode="r")[0], R(3, 3, seed=135, grad=False))
    case("linalg_qr/batch", lambda T, x: T.linalg.qr(x), R(2, 2, 4, 3, seed=136), second=True)
    case("linalg_qr/float32", lambda T, x: T.linalg.qr(x), R(4, 3, seed=137, dtype="float32"))
    case("linalg_qr/empty-batch", lambda T, x: T.linalg.qr(x.reshape(0, 3, 2)), R(0, seed=138))
    case("linalg_qr/only-r-used", lambda T, x: T.linalg.qr(x)[1], R(4, 3, seed=139), second=True)
    case("linalg_qr/only-q-used", lambda T, x: T.linalg.qr(x)[0], R(3, 4, seed=140), second=True)
    case("linalg_qr/mode-error", lambda T, x: T.linalg.qr(x, mode="full"), R(3, 3, seed=141))
    case("linalg_qr/1d-error", lambda T, x: T.linalg.qr(x), R(3, seed=142))
    case(
        "linalg_qr.out/out",
        lambda T, x: T.linalg.qr(x, out=(T.zeros([4, 3], dtype=T.float64), T.zeros([3, 3], dtype=T.float64))),
        R(4, 3, seed=143, grad=False),
    )


def _usv(T, usv):
    # What an SVD determines (U's and Vh's vectors up to sign): |U|, S, |Vh| and U S Vh.
    u, s, vh = usv
    k = s.shape[-1]
    return u[..., :k].abs(), s, vh[..., :k, :].abs(), (u[..., :k] * s.unsqueeze(-2)) @ vh[..., :k, :]


def _register_svd() -> None:
    for shape, seed in (((3, 3), 150), ((4, 3), 151), ((2, 4), 152), ((2, 3, 2), 153)):
        tag = "x".join(map(str, shape))
        case(
            f"linalg_svd/thin-{tag}",
            lambda T, x: _usv(T, T.linalg.svd(x, full_matrices=False)),
            R(*shape, seed=seed),
            second=True,
        )
        case(f"linalg_svd/full-{tag}", lambda T, x: _usv(T, T.linalg.svd(x)), R(*shape, seed=seed + 10), second=True)
    # full_matrices' last vectors of U: any orthonormal basis of the rest; their projector is determined.
    case(
        "linalg_svd/full-complement",
        lambda T, x: (lambda u: u[:, 2:] @ u[:, 2:].mT)(T.linalg.svd(x)[0]),
        R(5, 2, seed=170, grad=False),
    )
    case(
        "linalg_svd/float32",
        lambda T, x: _usv(T, T.linalg.svd(x, full_matrices=False)),
        R(4, 3, seed=171, dtype="float32"),
    )
    case(
        "linalg_svd/empty-batch",
        lambda T, x: _usv(T, T.linalg.svd(x.reshape(0, 3, 2), full_matrices=False)),
        R(0, seed=172),
    )
    case("linalg_svd/driver-error", lambda T, x: T.linalg.svd(x, driver="gesvd"), R(3, 3, seed=173))
    case("linalg_svd/1d-error", lambda T, x: T.linalg.svd(x), R(3, seed=174))
    case("linalg_svd/rank-one-s", lambda T, x: T.linalg.svd(x)[1], D(RANK_ONE, grad=False))
    case(
        "linalg_svd.U/out-s",
        lambda T, x: T.linalg.svd(
            x, out=(T.zeros([3, 3], dtype=T.float64), T.zeros([3], dtype=T.float64), T.zeros([3, 3], dtype=T.float64))
        )[1],
        R(3, 3, seed=175, grad=False),
    )
    case("_linalg_svd/thin", lambda T, x: _usv(T, T._linalg_svd(x)), R(3, 2, seed=176), second=True)
    case("_linalg_svd/no-uv", lambda T, x: T._linalg_svd(x, compute_uv=False)[1], R(3, 2, seed=177, grad=False))
    case("linalg_svdvals/3x4", lambda T, x: T.linalg.svdvals(x), R(3, 4, seed=178), second=True)
    case("linalg_svdvals/batch", lambda T, x: T.linalg.svdvals(x), R(2, 4, 3, seed=179), second=True)
    case("linalg_svdvals/float32", lambda T, x: T.linalg.svdvals(x), R(3, 3, seed=180, dtype="float32"))
    case(
        "linalg_svdvals.out/out",
        lambda T, x: T.linalg.svdvals(x, out=T.zeros([2], dtype=T.float64)),
        R(2, 3, seed=181, grad=False),
    )
    case("svd/some", lambda T, x: (lambda u, s, v: _usv(T, (u, s, v.mT)))(*T.svd(x)), R(4, 3, seed=182), second=True)
    case(
        "svd/method-full",
        lambda T, x: (lambda u, s, v: _usv(T, (u, s, v.mT)))(*x.svd(some=False)),
        R(3, 2, seed=183),
        second=True,
    )
    case("svd/no-uv", lambda T, x: T.svd(x, compute_uv=False), R(3, 2, seed=184), second=True)
    case(
        "svd.U/out-s",
        lambda T, x: T.svd(
            x, out=(T.zeros([3, 2], dtype=T.float64), T.zeros([2], dtype=T.float64), T.zeros([2, 2], dtype=T.float64))
        )[1],
        R(3, 2, seed=185, grad=False),
    )


def _wv(T, wv):
    # What eigh determines (eigenvectors up to sign): w, |V| and V diag(w) V^T.
    w, v = wv
    return w, v.abs(), (v * w.unsqueeze(-2)) @ v.mT


def _register_eigh() -> None:
    Sym = lambda T, x: x + x.mT  # noqa: E731
    case("linalg_eigh/3x3", lambda T, x: _wv(T, T.linalg.eigh(Sym(T, x))), R(3, 3, seed=200), second=True)
    case("linalg_eigh/upper", lambda T, x: _wv(T, T.linalg.eigh(Sym(T, x), UPLO="U")), R(4, 4, seed=201), second=True)
    case("linalg_eigh/batch", lambda T, x: _wv(T, T.linalg.eigh(Sym(T, x))), R(2, 3, 3, seed=202), second=True)
    case("linalg_eigh/float32", lambda T, x: _wv(T, T.linalg.eigh(Sym(T, x))), R(4, 4, seed=203, dtype="float32"))
    case("linalg_eigh/empty-batch", lambda T, x: T.linalg.eigh(x.reshape(0, 2, 2))[0], R(0, seed=204))
    # One triangle is read: the other may hold anything.
    case("linalg_eigh/lower-only", lambda T, x: T.linalg.eigh(x)[0], D([[2.0, 50.0], [1.0, 3.0]]))
    case("linalg_eigh/upper-only", lambda T, x: T.linalg.eigh(x, UPLO="U")[0], D([[2.0, 1.0], [-9.0, 3.0]]))
    case("linalg_eigh/uplo-error", lambda T, x: T.linalg.eigh(x, UPLO="X"), R(2, 2, seed=205))
    case("linalg_eigh/non-square-error", lambda T, x: T.linalg.eigh(x), R(2, 3, seed=206))
    case(
        "linalg_eigh.eigvals/out",
        lambda T, x: T.linalg.eigh(Sym(T, x), out=(T.zeros([3], dtype=T.float64), T.zeros([3, 3], dtype=T.float64)))[0],
        R(3, 3, seed=207, grad=False),
    )
    case("_linalg_eigh/values", lambda T, x: T._linalg_eigh(Sym(T, x))[0], R(3, 3, seed=208), second=True)
    case(
        "_linalg_eigh/no-vectors",
        lambda T, x: T._linalg_eigh(Sym(T, x), compute_v=False)[0],
        R(3, 3, seed=209, grad=False),
    )
    case("linalg_eigvalsh/3x3", lambda T, x: T.linalg.eigvalsh(Sym(T, x)), R(3, 3, seed=210), second=True)
    case(
        "linalg_eigvalsh/upper", lambda T, x: T.linalg.eigvalsh(Sym(T, x), UPLO="U"), R(2, 4, 4, seed=211), second=True
    )
    case(
        "linalg_eigvalsh.out/out",
        lambda T, x: T.linalg.eigvalsh(Sym(T, x), out=T.zeros([3], dtype=T.float64)),
        R(3, 3, seed=212, grad=False),
    )


def _register_nonzero_tuple() -> None:
    X = [[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]]
    case("nonzero_numpy/2d", lambda T, x: T.nonzero(x, as_tuple=True), D(X, grad=False))
    case("nonzero_numpy/method", lambda T, x: x.nonzero(as_tuple=True), D([[[1.0, 0.0]], [[0.0, 3.0]]], grad=False))
    case("nonzero_numpy/op", lambda T, x: T.nonzero_numpy(x), D(X, grad=False))
    case("nonzero_numpy/0-dim", lambda T, x: T.nonzero(x, as_tuple=True), D(5.0, grad=False))
    case("nonzero_numpy/0-dim-zero", lambda T, x: T.nonzero(x, as_tuple=True), D(0.0, grad=False))
    case("nonzero_numpy/int64", lambda T, x: x.nonzero(as_tuple=True), L([0, 3, 0, 4]))
    case("nonzero_numpy/empty", lambda T, x: T.nonzero(x.reshape(0, 2), as_tuple=True), R(0, seed=230, grad=False))
    case("nonzero_numpy/as-tuple-false", lambda T, x: T.nonzero(x, as_tuple=False), D(X, grad=False))
    case(
        "nonzero_numpy/out-error",
        lambda T, x: T.nonzero(x, out=T.zeros([0], dtype=T.int64), as_tuple=True),
        D(X, grad=False),
    )
    # The indices index x back (Python's x[tuple]).
    case("nonzero_numpy/index-back", lambda T, x: x[x.nonzero(as_tuple=True)], D(X))


_register_det()
_register_slogdet()
_register_inv()
_register_solve()
_register_cholesky()
_register_qr()
_register_svd()
_register_eigh()
_register_nonzero_tuple()
