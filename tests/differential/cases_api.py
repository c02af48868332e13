"""Differential cases of what PyTorch code calls besides the math (issue 23's conventions).

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch: fill / fill_ (a number or a 0-dim tensor, which gets the gradient's sum; cast to self's
dtype; a 1-D value refused), the new_* factories (self's dtype unless told, sizes as varargs or a
list, requires_grad=), type_as and view_as (with their gradients), isclose / allclose / equal
(rtol, atol, equal_nan, integers in the default dtype, broadcasting, dtypes that differ,
negative tolerances refused), the in-place index_add_ / scatter_add_ (duplicate indices, alpha,
gradients through the in-place call), and the aliases clip, absolute, negative and fix.
Python's bools are returned as 0-dim bool tensors so that the harness records them.
"""

from __future__ import annotations

from cases import INF, NAN, D, L, R, case  # cases.py imports this module once they are defined


def _fill() -> None:
    case("fill_.Scalar/float", lambda T, x: (x * 1).fill_(2.5), R(2, 3, seed=1))
    case("fill_.Scalar/int-truncates", lambda T, x: x.fill_(2.7), L([1, 2, 3]))
    case("fill_.Scalar/function", lambda T, x: T.fill_(x * 1, -1), R(3, seed=2))
    case("fill_.Tensor/0-dim-gets-the-sum", lambda T, x, v: (x * 1).fill_(v), R(2, 2, seed=3), R(seed=4))
    case("fill_.Tensor/other-dtype", lambda T, x, v: (x * 1).fill_(v.float()), R(3, seed=5), R(seed=6))
    case("fill_.Tensor/1-d-value-error", lambda T, x, v: (x * 1).fill_(v), R(3, seed=7), R(1, seed=8))
    case("fill.Scalar", lambda T, x: T.fill(x, 3), R(2, seed=9))
    case("fill.Tensor", lambda T, x, v: T.fill(x, v), R(2, 3, seed=10), R(seed=11), second=True)
    case("fill.Tensor/empty", lambda T, x, v: T.fill(x, v), R(0, 3, seed=12), R(seed=13))


def _new_factories() -> None:
    case("new_zeros/varargs", lambda T, x: x.new_zeros(2, 3), R(4, seed=20, dtype="float32"))
    case("new_zeros/list-dtype", lambda T, x: x.new_zeros([2], dtype=T.int32), R(4, seed=21))
    case("new_ones/tuple", lambda T, x: x.new_ones((3,)), L([1, 2]))
    case("new_full/fill", lambda T, x: x.new_full((2, 2), 7), R(1, seed=22))
    case("new_full/dtype", lambda T, x: x.new_full([2], 5, dtype=T.int32), R(1, seed=23))
    case(
        "new_ones/requires_grad",
        lambda T, x: T.tensor(x.new_ones([2], requires_grad=True).requires_grad),
        R(1, seed=24, grad=False),
    )
    case("new_empty/shape-dtype", lambda T, x: T.tensor(list(x.new_empty(2, 3).shape)), R(1, seed=25))
    case("new_zeros/0-size", lambda T, x: x.new_zeros(0, 2), R(1, seed=26))
    case("new_zeros/negative-size-error", lambda T, x: x.new_zeros(-1), R(1, seed=27))


def _conversions() -> None:
    case("type_as/int", lambda T, x, y: x.type_as(y), R(2, 3, seed=30, lo=-5, hi=5), L([1]))
    case("type_as/float32-gradient", lambda T, x, y: x.type_as(y) * 2, R(2, 3, seed=31), R(1, dtype="float32"))
    case("view_as", lambda T, x, y: x.view_as(y) * y, R(6, seed=32), R(2, 3, seed=33), second=True)
    case("view_as/transposed-error", lambda T, x, y: x.t().view_as(y), R(2, 3, seed=34), R(6, seed=35))
    case("view_as/size-error", lambda T, x, y: x.view_as(y), R(6, seed=36), R(2, 4, seed=37))


def _comparisons() -> None:
    a = [1.0, 2.0, NAN, INF, -INF, 1e-9]
    b = [1.0 + 1e-6, 2.1, NAN, INF, INF, 0.0]
    case("isclose/default", lambda T, x, y: T.isclose(x, y), D(a, grad=False), D(b, grad=False))
    case("isclose/equal_nan", lambda T, x, y: T.isclose(x, y, equal_nan=True), D(a, grad=False), D(b, grad=False))
    case("isclose/atol-rtol", lambda T, x, y: x.isclose(y, rtol=0.1, atol=0.0), D(a, grad=False), D(b, grad=False))
    case("isclose/zero-tolerances", lambda T, x, y: T.isclose(x, y, rtol=0, atol=0), D(a, grad=False), D(b, grad=False))
    case("isclose/ints", lambda T, x, y: T.isclose(x, y, atol=1), L([1, 2, 3]), L([1, 3, 5]))
    case("isclose/ints-rtol", lambda T, x, y: T.isclose(x, y, rtol=0.5, atol=0), L([4, 4, 4]), L([5, 6, 9]))
    case("isclose/bools", lambda T, x, y: T.isclose(x, y), D([True, False], "bool"), D([True, True], "bool"))
    case("isclose/broadcast", lambda T, x, y: T.isclose(x, y), R(2, 3, seed=40, grad=False), R(3, seed=40))
    case("isclose/dtypes-error", lambda T, x, y: T.isclose(x, y.float()), R(3, seed=41), R(3, seed=41))
    case("isclose/negative-rtol-error", lambda T, x: T.isclose(x, x, rtol=-1), R(3, seed=42))
    case("isclose/negative-atol-error", lambda T, x: T.isclose(x, x, atol=-0.5), R(3, seed=43))
    case("allclose/true", lambda T, x: T.tensor(T.allclose(x, x + 1e-9)), R(2, 3, seed=44, grad=False))
    case("allclose/false", lambda T, x: T.tensor(x.allclose(x + 1e-3)), R(2, 3, seed=45, grad=False))
    case("allclose/nan", lambda T, x: T.tensor(T.allclose(x, x)), D([1.0, NAN], grad=False))
    case("allclose/equal_nan", lambda T, x: T.tensor(T.allclose(x, x, equal_nan=True)), D([1.0, NAN], grad=False))
    case("allclose/broadcast", lambda T, x, y: T.tensor(T.allclose(x, y)), D([[1.0], [1.0]], grad=False), D([1.0, 1.0]))
    case("allclose/shape-error", lambda T, x, y: T.tensor(T.allclose(x, y)), R(2, 3, seed=46), R(4, seed=47))
    case("equal/same", lambda T, x: T.tensor(T.equal(x, x.clone())), R(2, 3, seed=48, grad=False))
    case("equal/sizes-differ", lambda T, x: T.tensor(T.equal(x, x.reshape(3, 2))), R(2, 3, seed=49, grad=False))
    case("equal/nan", lambda T, x: T.tensor(x.equal(x)), D([1.0, NAN], grad=False))
    case("equal/dtypes", lambda T, x: T.tensor(T.equal(x, x.float())), D([1.0, 2.0], grad=False))
    case("equal/ints-floats", lambda T, x: T.tensor(T.equal(x, x.double())), L([1, 2]))
    case("equal/one-differs", lambda T, x, y: T.tensor(T.equal(x, y)), L([1, 2]), L([1, 3]))


def _inplace_scatters() -> None:
    idx = L([0, 2, 0])
    case(
        "index_add_/duplicates", lambda T, x, i, s: (x * 1).index_add_(0, i, s), R(3, 2, seed=50), idx, R(3, 2, seed=51)
    )
    case(
        "index_add_/alpha-dim-1",
        lambda T, x, i, s: (x * 1).index_add_(1, i, s, alpha=-2),
        R(2, 3, seed=52),
        idx,
        R(2, 3, seed=53),
        second=True,
    )
    case("index_add_/int", lambda T, x, i, s: x.index_add_(0, i, s), L([1, 2, 3]), idx, L([10, 20, 30]))
    case("index_add_/index-error", lambda T, x, i, s: (x * 1).index_add_(0, i, s), R(3, seed=54), L([3]), R(1, seed=55))
    case(
        "scatter_add_/duplicates",
        lambda T, x, i, s: (x * 1).scatter_add_(0, i, s),
        R(3, 2, seed=56),
        L([[0, 1], [0, 1], [2, 0]]),
        R(3, 2, seed=57),
    )
    case(
        "scatter_add_/dim-1",
        lambda T, x, i, s: (x * 1).scatter_add_(1, i, s),
        R(2, 3, seed=58),
        L([[2, 2], [0, 1]]),
        R(2, 2, seed=59),
        second=True,
    )
    case("scatter_add_/leaf-error", lambda T, x, i, s: x.scatter_add_(0, i, s), R(3, seed=60), L([0]), R(1, seed=61))


def _aliases() -> None:
    case("clip/scalars", lambda T, x: T.clip(x, -0.5, 0.5), R(2, 3, seed=70), second=True)
    case("clip/min-only-method", lambda T, x: x.clip(min=0), R(5, seed=71))
    case(
        "clip.Tensor/tensors",
        lambda T, x, lo, hi: T.clip(x, lo, hi),
        R(4, seed=72),
        R(4, seed=73),
        R(4, seed=74, lo=0.5),
    )
    case("absolute", lambda T, x: T.absolute(x), D([-1.5, 0.0, -0.0, 2.0]))
    case("absolute/method-int", lambda T, x: x.absolute(), L([-3, 4]))
    case("negative", lambda T, x: T.negative(x), R(3, seed=75), second=True)
    case("negative/bool-error", lambda T, x: T.negative(x), D([True], "bool"))
    case("fix", lambda T, x: T.fix(x), D([-1.5, -0.5, 0.5, 2.7, INF, NAN]))
    case("fix/method", lambda T, x: x.fix() * x, R(4, seed=76, lo=-3, hi=3))


def _python_only() -> None:
    case("Tensor.new_tensor/list", lambda T, x: x.new_tensor([1, 2]), R(1, seed=80, dtype="float32"))
    case("Tensor.new_tensor/dtype", lambda T, x: x.new_tensor([1.5], dtype=T.int64), R(1, seed=81))
    case("Tensor.new_tensor/tensor-copies", lambda T, x, y: x.new_tensor(y) * 2, R(1, seed=82), R(3, seed=83))
    case(
        "Tensor.new_tensor/requires_grad",
        lambda T, x: T.tensor(x.new_tensor([1.0], requires_grad=True).requires_grad),
        R(1, seed=84),
    )
    case("numel", lambda T, x: T.tensor([T.numel(x), x.nelement(), x.numel()]), R(2, 3, seed=85))
    case("Tensor.cpu", lambda T, x: x.cpu() * 2, R(3, seed=86))


_fill()
_new_factories()
_python_only()
_conversions()
_comparisons()
_inplace_scatters()
_aliases()
