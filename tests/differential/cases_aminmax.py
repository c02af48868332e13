"""Differential cases of aminmax (issue 23): the minimum and the maximum in one call.

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch: dim and dim=None, keepdim (dim=None keeps every dim, of size 1), 0-dim inputs, ties (the
gradient split evenly between them, for min and max each), NaN (propagated; its gradient is NaN
as PyTorch's), one output used alone, every dtype amin / amax take, out=, empty inputs with a dim
(a reduced dim of size 0 is an IndexError, a non-empty one gives empty results) and without one
(RuntimeError), and the named fields `.min` / `.max`.
"""

from __future__ import annotations

from cases import NAN, B, D, R, case  # cases.py imports this module once they are defined


def _both(T, x, **kw):
    r = T.aminmax(x, **kw)
    return r.min, r.max


def _register_values() -> None:
    case("aminmax/dim-1", lambda T, x: _both(T, x, dim=1), R(2, 3, 4, seed=1), second=True)
    case("aminmax/dim-0-keepdim", lambda T, x: _both(T, x, dim=0, keepdim=True), R(3, 4, seed=2), second=True)
    case("aminmax/dim-minus-1", lambda T, x: tuple(T.aminmax(x, dim=-1)), R(2, 5, seed=3))
    case("aminmax/no-dim", lambda T, x: tuple(T.aminmax(x)), R(2, 3, seed=4), second=True)
    case("aminmax/no-dim-keepdim", lambda T, x: _both(T, x, keepdim=True), R(2, 3, seed=5))
    case("aminmax/0-dim", lambda T, x: _both(T, x), R(seed=6))
    case("aminmax/0-dim-dim-0-keepdim", lambda T, x: _both(T, x, dim=0, keepdim=True), R(seed=7))
    case("aminmax/method", lambda T, x: tuple(x.aminmax(dim=1)), R(3, 2, seed=8))
    case("aminmax/transposed", lambda T, x: _both(T, x.t(), dim=1), R(3, 4, seed=9))
    case("aminmax/max-only", lambda T, x: T.aminmax(x, dim=1).max, R(3, 4, seed=10))
    case("aminmax/min-only-no-dim", lambda T, x: T.aminmax(x).min, R(3, 4, seed=11))


def _register_ties_nan() -> None:
    ties = D([[1.0, 5.0, 5.0, 1.0], [3.0, 2.0, 2.0, 2.0], [4.0, 4.0, 4.0, 4.0]])
    case("aminmax/ties-dim", lambda T, x: _both(T, x, dim=1), ties)
    case("aminmax/ties-dim-0", lambda T, x: _both(T, x, dim=0, keepdim=True), ties)
    case("aminmax/ties-no-dim", lambda T, x: _both(T, x), ties)
    case("aminmax/ties-max-only", lambda T, x: T.aminmax(x).max, ties)
    nan = D([[1.0, NAN, 3.0], [2.0, 0.5, -1.0]])
    case("aminmax/nan-dim", lambda T, x: _both(T, x, dim=1), nan)
    case("aminmax/nan-no-dim", lambda T, x: _both(T, x), nan)
    case("aminmax/nan-dim-0", lambda T, x: _both(T, x, dim=0), nan)


def _register_dtypes() -> None:
    case("aminmax/int64", lambda T, x: _both(T, x, dim=0), D([[3, -7, 2], [9, 0, -1]], "int64"))
    case("aminmax/int8", lambda T, x: _both(T, x), D([-128, 127, 5], "int8"))
    case("aminmax/uint8", lambda T, x: _both(T, x, dim=0), D([[200, 1], [7, 255]], "uint8"))
    case("aminmax/int32-keepdim", lambda T, x: _both(T, x, dim=1, keepdim=True), D([[5, 2, 8]], "int32"))
    case("aminmax/int16", lambda T, x: _both(T, x), D([300, -300, 0], "int16"))
    case("aminmax/bool", lambda T, x: _both(T, x, dim=1), B([[True, False], [True, True]]))
    case("aminmax/float32", lambda T, x: _both(T, x, dim=1), R(2, 3, seed=12, dtype="float32"))
    case("aminmax/float16", lambda T, x: _both(T, x, dim=0), D([[0.5, -1.5], [2.0, 2.0]], "float16"))
    case("aminmax/bfloat16-nan", lambda T, x: _both(T, x), D([0.5, NAN, 3.0], "bfloat16", False))


def _register_edges() -> None:
    case("aminmax/empty-dim", lambda T, x: _both(T, x.reshape([0, 3]), dim=1), D([]))
    case("aminmax/empty-reduced-dim-error", lambda T, x: _both(T, x.reshape([0, 3]), dim=0), D([]))
    case("aminmax/empty-no-dim-error", lambda T, x: _both(T, x), D([]))
    case("aminmax/empty-0x3-no-dim-error", lambda T, x: _both(T, x.reshape([0, 3])), D([]))
    case("aminmax/dim-out-of-range-error", lambda T, x: _both(T, x, dim=2), R(2, 3, seed=13))
    case("aminmax/0-dim-dim-1-error", lambda T, x: _both(T, x, dim=1), R(seed=14))


def _out(T, x, dtype=None, **kw):
    lo, hi = T.zeros([0], dtype=dtype or x.dtype), T.zeros([5], dtype=dtype or x.dtype)
    r = T.aminmax(x, out=(lo, hi), **kw)
    return r[0], r[1], lo, hi


def _register_out() -> None:
    x = R(2, 3, seed=15, grad=False)
    case("aminmax.out/dim-1", lambda T, a: _out(T, a, dim=1), x)
    case("aminmax.out/no-dim-keepdim", lambda T, a: _out(T, a, keepdim=True), x)
    case("aminmax.out/requires-grad-error", lambda T, a: _out(T, a, dim=0), R(2, 3, seed=16))


_register_values()
_register_ties_nan()
_register_dtypes()
_register_edges()
_register_out()
