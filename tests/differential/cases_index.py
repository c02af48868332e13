"""Differential cases of the indexing family (issue 23): advanced indexing (index.Tensor,
index_put_ / index_put) and Python's x[idx] / x[idx] = v.

Imported by cases.py (near its end), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). Covered: integer
index tensors broadcast together, bool masks, the placement rule of indices separated by a slice,
duplicate indices with and without accumulate, out-of-range indices and masks of the wrong shape
(errors), empty indices.
"""

from __future__ import annotations

from cases import NAN, B, D, L, R, case  # cases.py imports this module once they are defined


def _register_index() -> None:
    case("index.Tensor/rows", lambda T, x, i: T.index(x, [i]), R(4, 3, seed=1), L([2, 0, 2, -1]), second=True)
    case(
        "index.Tensor/broadcast-pair",
        lambda T, x, i, j: T.index(x, [i, j]),
        R(3, 4, seed=2),
        L([[0], [2]]),
        L([1, 3, -4]),
        second=True,
    )
    case(
        "index.Tensor/separated-by-slice",
        lambda T, x, i, j: T.index(x, [i, None, j]),
        R(2, 3, 4, seed=3),
        L([1, 0]),
        L([3, -1]),
        second=True,
    )
    case(
        "index.Tensor/adjacent-after-slice",
        lambda T, x, i, j: T.index(x, [None, i, j]),
        R(2, 3, 4, seed=4),
        L([[2, 0], [1, 1]]),
        L([3, 0]),
        second=True,
    )
    case("index.Tensor/middle-dim", lambda T, x, i: T.index(x, [None, i]), R(2, 3, 4, seed=5), L([[2, 0], [1, 1]]))
    case(
        "index.Tensor/mask",
        lambda T, x, m: T.index(x, [m]),
        R(2, 3, 2, seed=6),
        B([[True, False, True], [False, False, True]]),
        second=True,
    )
    case(
        "index.Tensor/mask-1d-after-slice",
        lambda T, x, m: T.index(x, [None, m]),
        R(2, 3, seed=7),
        B([False, True, True]),
    )
    case("index.Tensor/mask-all-false", lambda T, x, m: T.index(x, [m]), R(3, 2, seed=8), B([False, False, False]))
    case("index.Tensor/0-dim-index", lambda T, x, i: T.index(x, [i]), R(3, 2, seed=9), L(1))
    case("index.Tensor/empty-index", lambda T, x, i: T.index(x, [i]), R(3, 2, seed=10), L([]))
    case("index.Tensor/int64-self", lambda T, x, i: T.index(x, [i]), L([[1, 2], [3, 4], [5, 6]]), L([2, 2, 0]))
    case("index.Tensor/nan-values", lambda T, x, i: T.index(x, [i]), D([1.0, NAN, 3.0]), L([1, 1]))
    case("index.Tensor/out-of-range-error", lambda T, x, i: T.index(x, [i]), R(3, 2, seed=11), L([0, 3]))
    case("index.Tensor/negative-out-of-range-error", lambda T, x, i: T.index(x, [None, i]), R(3, 2, seed=12), L([-3]))
    case("index.Tensor/mask-shape-error", lambda T, x, m: T.index(x, [m]), R(3, 2, seed=13), B([True, False]))
    case(
        "index.Tensor/broadcast-error", lambda T, x, i, j: T.index(x, [i, j]), R(3, 4, seed=14), L([0, 1]), L([0, 1, 2])
    )
    case("index.Tensor/too-many-error", lambda T, x, i: T.index(x, [i, i, i]), R(3, 4, seed=15), L([0]))
    case("index.Tensor/float-index-error", lambda T, x, i: T.index(x, [i]), R(3, 4, seed=16), D([0.0], grad=False))
    case(
        "index.Tensor_out/rows",
        lambda T, x, i: T.index(x, [i], out=T.zeros([2, 3], dtype=T.float64)),
        R(4, 3, seed=17, grad=False),
        L([3, 1]),
    )
    for acc in (False, True):
        tag = "accumulate" if acc else "overwrite"
        case(
            f"index_put/{tag}-rows",
            lambda T, x, i, v, acc=acc: T.index_put(x, [i], v, acc),
            R(4, 3, seed=20),
            L([2, 0]),
            R(2, 3, seed=21),
            second=True,
        )
        case(
            f"index_put/{tag}-duplicates",
            lambda T, x, i, v, acc=acc: T.index_put(x, [i], v, acc),
            R(4, seed=22),
            L([1, 3, 1, 1]),
            D([10.0, 20.0, 30.0, 40.0]),
            second=True,
        )
        case(
            f"index_put/{tag}-broadcast-values",
            lambda T, x, i, j, v, acc=acc: x.index_put([i, j], v, accumulate=acc),
            R(3, 4, seed=23),
            L([[0], [2]]),
            L([1, 3]),
            R(2, seed=24),
            second=True,
        )
        case(
            f"index_put/{tag}-mask",
            lambda T, x, m, v, acc=acc: T.index_put(x, [m], v, acc),
            R(2, 3, seed=25),
            B([[True, False, True], [False, True, False]]),
            R(3, seed=26),
            second=True,
        )
        case(
            f"index_put_/{tag}-duplicates",
            lambda T, x, i, v, acc=acc: x.clone().index_put_([i], v, acc),
            R(3, 2, seed=29),
            L([0, 2, 0]),
            R(3, 2, seed=30),
            second=True,
        )
    case("index_put/scalar-values", lambda T, x, i, v: T.index_put(x, [i], v), R(4, seed=31), L([0, 2]), D(5.0))
    case("index_put/int64", lambda T, x, i, v: T.index_put(x, [i], v, True), L([1, 2, 3]), L([0, 0]), L([5, 7]))
    case("index_put/empty-index", lambda T, x, i, v: T.index_put(x, [i], v), R(3, seed=32), L([]), D([]))
    case("index_put/out-of-range-error", lambda T, x, i, v: T.index_put(x, [i], v), R(3, seed=33), L([3]), D([1.0]))
    case(
        "index_put/values-shape-error",
        lambda T, x, i, v: T.index_put(x, [i], v),
        R(3, seed=34),
        L([0, 1]),
        D([1.0, 2.0, 3.0]),
    )
    case(
        "index_put/dtype-error",
        lambda T, x, i, v: T.index_put(x, [i], v),
        R(3, seed=35),
        L([0]),
        D([1.0], dtype="float32"),
    )
    case(
        "index_put_/mask-shape-error",
        lambda T, x, m, v: x.clone().index_put_([m], v),
        R(3, seed=36),
        B([True, False]),
        D([1.0]),
    )


_register_index()


def _setitem(x, key, v):
    """x[key] = v on a copy of x (so that x, a leaf, gets a gradient through it)."""
    y = x * 1
    y[key] = v
    return y


def _register_getitem() -> None:
    case("getitem/list", lambda T, x: x[[2, 0, 2]], R(3, 4, seed=40), second=True)
    case("getitem/tensor", lambda T, x, i: x[i], R(3, 4, seed=41), L([[1, -1], [0, 2]]), second=True)
    case("getitem/tensor-and-slice", lambda T, x, i: x[i, 1:3], R(3, 4, seed=42), L([2, 0]), second=True)
    case("getitem/slice-and-tensor", lambda T, x, i: x[1:, i], R(3, 4, seed=43), L([3, 0, 3]), second=True)
    case("getitem/int-and-list", lambda T, x: x[1, [0, 2]], R(3, 4, seed=44), second=True)
    case("getitem/separated", lambda T, x: x[[0, 1], :, [2, 0]], R(2, 3, 4, seed=45), second=True)
    case("getitem/separated-by-int", lambda T, x: x[[1, 0], 2, [3, 1]], R(2, 3, 4, seed=46), second=True)
    case("getitem/list-int-separated", lambda T, x: x[[1, 0], :, 2], R(2, 3, 4, seed=47), second=True)
    case("getitem/ellipsis-list", lambda T, x: x[..., [0, 3]], R(2, 3, 4, seed=48), second=True)
    case("getitem/none-list", lambda T, x: x[None, [1, 0], None], R(2, 3, seed=49), second=True)
    case(
        "getitem/mask",
        lambda T, x, m: x[m],
        R(2, 3, seed=50),
        B([[True, False, True], [False, True, True]]),
        second=True,
    )
    case("getitem/mask-rows", lambda T, x, m: x[m], R(3, 2, seed=51), B([True, False, True]), second=True)
    case("getitem/mask-cols", lambda T, x, m: x[:, m], R(2, 3, seed=52), B([False, True, True]), second=True)
    case("getitem/bool-list", lambda T, x: x[[True, False, True]], R(3, 2, seed=53), second=True)
    case("getitem/comparison-mask", lambda T, x: x[x > 0], D([[0.5, -1.0], [2.0, 0.0]]), second=True)
    case("getitem/true", lambda T, x, m: x[m], R(2, 3, seed=54), B(True))
    case("getitem/false", lambda T, x, m: x[m], R(2, 3, seed=55), B(False))
    case("getitem/python-true", lambda T, x: x[True], R(2, 3, seed=63), second=True)
    case("getitem/python-false-and-slice", lambda T, x: x[False, 1:], R(2, 3, seed=64))
    case("setitem/python-true", lambda T, x, v: _setitem(x, (True, 0), v), R(2, 3, seed=65), R(3, seed=66), second=True)
    case("getitem/inner-tuple", lambda T, x: x[(2, 0), 1:], R(3, 4, seed=67), second=True)
    case("setitem/inner-tuple", lambda T, x, v: _setitem(x, ((1, 0),), v), R(3, 2, seed=68), R(2, seed=69), second=True)
    case("getitem/empty-list", lambda T, x: x[[]], R(3, 2, seed=56))
    case("getitem/int64", lambda T, x: x[[1, 1, 0]], L([[1, 2], [3, 4]]))
    case("getitem/list-out-of-range-error", lambda T, x: x[[0, 3]], R(3, 2, seed=57))
    case("getitem/tensor-out-of-range-error", lambda T, x, i: x[:, i], R(3, 2, seed=58), L([-3]))
    case("getitem/mask-shape-error", lambda T, x, m: x[m], R(3, 2, seed=59), B([True, False]))
    case("getitem/mask-2d-shape-error", lambda T, x, m: x[m], R(3, 2, seed=60), B([[True, False, True]]))
    case("getitem/too-many-error", lambda T, x: x[[0], [0], [0]], R(3, 2, seed=61))
    case("getitem/float-index-error", lambda T, x, i: x[i], R(3, 2, seed=62), D([0.0], grad=False))
    case("setitem/list", lambda T, x, v: _setitem(x, [2, 0], v), R(3, 4, seed=70), R(2, 4, seed=71), second=True)
    case("setitem/duplicates", lambda T, x, v: _setitem(x, [1, 1], v), R(3, seed=72), D([5.0, 6.0]))
    case(
        "setitem/tensor-and-slice",
        lambda T, x, i, v: _setitem(x, (i, slice(1, 3)), v),
        R(3, 4, seed=73),
        L([2, 0]),
        R(2, 2, seed=74),
        second=True,
    )
    case(
        "setitem/broadcast-value",
        lambda T, x, v: _setitem(x, (slice(None), [0, 3]), v),
        R(3, 4, seed=75),
        R(2, seed=76),
        second=True,
    )
    case(
        "setitem/leading-ones-value",
        lambda T, x, v: _setitem(x, [0, 2], v),
        R(3, 2, seed=77),
        R(1, 2, 2, seed=78),
        second=True,
    )
    case(
        "setitem/mask",
        lambda T, x, m, v: _setitem(x, m, v),
        R(2, 3, seed=79),
        B([[True, False, True], [False, True, False]]),
        R(3, seed=80),
        second=True,
    )
    case("setitem/mask-scalar", lambda T, x: _setitem(x, x > 0, 0.0), D([[0.5, -1.0], [2.0, -3.0]]), second=True)
    case(
        "setitem/separated",
        lambda T, x, v: _setitem(x, ([0, 1], slice(None), [2, 0]), v),
        R(2, 3, 4, seed=81),
        R(2, 3, seed=82),
        second=True,
    )
    case(
        "setitem/int-and-list",
        lambda T, x, v: _setitem(x, (1, [0, 2]), v),
        R(3, 4, seed=83),
        R(2, seed=84),
        second=True,
    )
    case(
        "setitem/float32-value-into-float64",
        lambda T, x, v: _setitem(x, [0], v),
        R(2, 2, seed=85),
        R(2, seed=86, dtype="float32", grad=False),
    )
    case("setitem/out-of-range-error", lambda T, x: _setitem(x, [3], 1.0), R(3, seed=87))
    case("setitem/mask-shape-error", lambda T, x, m: _setitem(x, m, 1.0), R(3, seed=88), B([True, False]))
    case("setitem/value-shape-error", lambda T, x, v: _setitem(x, [0, 1], v), R(3, seed=89), R(3, seed=90))

    case("slice.Tensor/getitem-1:6:2", lambda T, x: x[1:6:2], R(7, 2, seed=99), second=True)
    case("getitem/step-2", lambda T, x: x[::2], R(5, 3, seed=100), second=True)
    case("getitem/step-3-cols", lambda T, x: x[:, 1::3], R(2, 8, seed=101), second=True)
    case("getitem/step-negative-start", lambda T, x: x[-4:-1:2], R(6, seed=102), second=True)
    case("getitem/step-empty", lambda T, x: x[3:1:2], R(4, seed=103))
    case("getitem/step-and-list", lambda T, x: x[::2, [0, 2]], R(5, 3, seed=104), second=True)
    case("getitem/step-view-shares-storage", lambda T, x: _step_view_write(x), R(6, seed=105), second=True)
    case("getitem/step-zero-error", lambda T, x: x[::0], R(4, seed=106))
    case(
        "setitem/step-2",
        lambda T, x, v: _setitem(x, slice(None, None, 2), v),
        R(5, 2, seed=107),
        R(3, 2, seed=108),
        second=True,
    )
    case(
        "setitem/step-and-list",
        lambda T, x, v: _setitem(x, (slice(1, None, 2), [1, 0]), v),
        R(5, 3, seed=109),
        R(2, 2, seed=110),
        second=True,
    )


def _step_view_write(x):
    """Writing through a stepped view changes its base (and the gradient flows through both)."""
    y = x * 1
    v = y[1::2]
    v.mul_(3.0)
    return y


_register_getitem()


def _register_select() -> None:
    M23 = [[True, False, True], [False, True, True]]
    case("masked_select/2x3", lambda T, x, m: T.masked_select(x, m), R(2, 3, seed=120), B(M23), second=True)
    case(
        "masked_select/method-broadcast-mask",
        lambda T, x, m: x.masked_select(m),
        R(2, 3, seed=121),
        B([False, True, True]),
        second=True,
    )
    case("masked_select/broadcast-self", lambda T, x, m: T.masked_select(x, m), R(3, seed=122), B(M23), second=True)
    case(
        "masked_select/0-dim-self",
        lambda T, x, m: T.masked_select(x, m),
        R(seed=123),
        B([True, False, True]),
        second=True,
    )
    case("masked_select/all-false", lambda T, x, m: T.masked_select(x, m), R(2, seed=124), B([False, False]))
    case("masked_select/empty", lambda T, x, m: T.masked_select(x.reshape([0, 3]), m), D([]), B([True, False, True]))
    case("masked_select/nan", lambda T, x, m: T.masked_select(x, m), D([NAN, 1.0, NAN]), B([True, False, True]))
    case("masked_select/int64", lambda T, x, m: T.masked_select(x, m), L([4, 5, 6]), B([True, True, False]))
    case("masked_select/mask-dtype-error", lambda T, x, m: T.masked_select(x, m), R(3, seed=125), L([1, 0, 1]))
    case("masked_select/shape-error", lambda T, x, m: T.masked_select(x, m), R(3, seed=126), B([True, False]))
    case(
        "masked_select.out/2x3",
        lambda T, x, m: T.masked_select(x, m, out=T.zeros([4], dtype=T.float64)),
        R(2, 3, seed=127, grad=False),
        B(M23),
    )
    case("take/2x3", lambda T, x, i: T.take(x, i), R(2, 3, seed=130), L([[5, 0], [-1, 5]]), second=True)
    case("take/method-transposed", lambda T, x, i: x.t().take(i), R(2, 3, seed=131), L([1, 4, 4]), second=True)
    case("take/0-dim-index", lambda T, x, i: T.take(x, i), R(4, seed=132), L(3), second=True)
    case("take/0-dim-self", lambda T, x, i: T.take(x, i), R(seed=133), L([0, -1]), second=True)
    case("take/empty-index", lambda T, x, i: T.take(x, i), R(4, seed=134), L([]))
    case("take/out-of-range-error", lambda T, x, i: T.take(x, i), R(2, 3, seed=135), L([6]))
    case("take/negative-out-of-range-error", lambda T, x, i: T.take(x, i), R(2, 3, seed=136), L([-7]))
    case("take/dtype-error", lambda T, x, i: T.take(x, i), R(3, seed=137), D([0.0], grad=False))
    case(
        "take.out/2x3",
        lambda T, x, i: T.take(x, i, out=T.zeros([2], dtype=T.float64)),
        R(2, 3, seed=138, grad=False),
        L([4, 1]),
    )
    case(
        "take_along_dim/dim-1",
        lambda T, x, i: T.take_along_dim(x, i, 1),
        R(3, 4, seed=140),
        L([[0, 3], [1, 1], [2, 0]]),
        second=True,
    )
    case(
        "take_along_dim/dim-0-broadcast",
        lambda T, x, i: x.take_along_dim(i, dim=0),
        R(3, 4, seed=141),
        L([[2, 0, 1, 2]]),
        second=True,
    )
    case(
        "take_along_dim/self-broadcast",
        lambda T, x, i: T.take_along_dim(x, i, 1),
        R(1, 3, seed=142),
        L([[2, 1], [0, 0]]),
        second=True,
    )
    case("take_along_dim/none", lambda T, x, i: T.take_along_dim(x, i), R(2, 3, seed=143), L([5, 0, 5]), second=True)
    case(
        "take_along_dim/negative-dim",
        lambda T, x, i: T.take_along_dim(x, i, -1),
        R(2, 3, seed=144),
        L([[2], [0]]),
        second=True,
    )
    case("take_along_dim/argsort", lambda T, x: T.take_along_dim(x, T.argsort(x, 1), 1), R(3, 4, seed=145), second=True)
    case("take_along_dim/dims-error", lambda T, x, i: T.take_along_dim(x, i, 0), R(3, 4, seed=146), L([0, 1]))
    case("take_along_dim/dtype-error", lambda T, x, i: T.take_along_dim(x, i, 0), R(3, seed=147), D([0.0], grad=False))
    case(
        "take_along_dim.out/dim-1",
        lambda T, x, i: T.take_along_dim(x, i, 1, out=T.zeros([3, 1], dtype=T.float64)),
        R(3, 4, seed=149, grad=False),
        L([[0], [3], [1]]),
    )
    SPARSE = [[0.0, 1.5, 0.0], [NAN, 0.0, -2.0]]
    case("nonzero/2x3", lambda T, x: T.nonzero(x), D(SPARSE))
    case("nonzero/method-3d", lambda T, x: (x > 0).nonzero(), R(2, 3, 2, seed=150))
    case("nonzero/0-dim", lambda T, x: T.nonzero(x), D(2.0))
    case("nonzero/0-dim-zero", lambda T, x: T.nonzero(x), D(0.0))
    case("nonzero/empty", lambda T, x: T.nonzero(x.reshape([0, 2])), D([]))
    case("nonzero/int64", lambda T, x: T.nonzero(x), L([0, 3, 0, -1]))
    case("nonzero/bool", lambda T, x: T.nonzero(x), B([[True, False], [False, True]]))
    case("nonzero.out/2x3", lambda T, x: T.nonzero(x, out=T.zeros([0], dtype=T.int64)), D(SPARSE, grad=False))
    case("argwhere/2x3", lambda T, x: T.argwhere(x), D(SPARSE))
    case("argwhere/method-0-dim", lambda T, x: x.argwhere(), D(-1.0))
    case("argwhere/empty", lambda T, x: T.argwhere(x), D([]))


_register_select()


def _register_fill_copy_scatter() -> None:
    case(
        "index_fill.int_Scalar/dim-0",
        lambda T, x, i: T.index_fill(x, 0, i, -1.5),
        R(3, 4, seed=160),
        L([2, 0]),
        second=True,
    )
    case(
        "index_fill.int_Scalar/method-repeated-negative",
        lambda T, x, i: x.index_fill(-1, i, 2),
        R(3, 4, seed=161),
        L([1, -1, 1]),
        second=True,
    )
    case(
        "index_fill.int_Scalar/0-dim-index",
        lambda T, x, i: T.index_fill(x, 1, i, 0.5),
        R(2, 3, seed=162),
        L(2),
        second=True,
    )
    case("index_fill.int_Scalar/int64", lambda T, x, i: T.index_fill(x, 0, i, 7), L([[1, 2], [3, 4]]), L([1]))
    case("index_fill.int_Scalar/nan", lambda T, x, i: T.index_fill(x, 0, i, NAN), R(3, seed=163), L([1]))
    case("index_fill.int_Scalar/empty-index", lambda T, x, i: T.index_fill(x, 0, i, 1.0), R(3, seed=164), L([]))
    case(
        "index_fill.int_Scalar/out-of-range-error",
        lambda T, x, i: T.index_fill(x, 0, i, 1.0),
        R(3, 2, seed=165),
        L([3]),
    )
    case(
        "index_fill.int_Scalar/dtype-error",
        lambda T, x, i: T.index_fill(x, 0, i, 1.0),
        R(3, seed=166),
        D([0.0], grad=False),
    )
    case(
        "index_fill.int_Tensor/repeated",
        lambda T, x, i, v: T.index_fill(x, 1, i, v),
        R(3, 4, seed=167),
        L([3, 0, 3]),
        R(seed=168),
        second=True,
    )
    case(
        "index_fill.int_Tensor/method",
        lambda T, x, i, v: x.index_fill(0, i, v),
        R(2, 3, seed=169),
        L([1]),
        R(seed=170),
        second=True,
    )
    case(
        "index_fill.int_Tensor/value-dim-error",
        lambda T, x, i, v: T.index_fill(x, 0, i, v),
        R(2, 3, seed=171),
        L([1]),
        R(1, seed=172),
    )
    case(
        "index_copy/dim-0",
        lambda T, x, i, s: T.index_copy(x, 0, i, s),
        R(4, 3, seed=180),
        L([3, 0]),
        R(2, 3, seed=181),
        second=True,
    )
    case(
        "index_copy/method-dim-1",
        lambda T, x, i, s: x.index_copy(1, i, s),
        R(2, 4, seed=182),
        L([1, 3, 2]),
        R(2, 3, seed=183),
        second=True,
    )
    case(
        "index_copy/0-dim-source",
        lambda T, x, i, s: T.index_copy(x, 0, i, s),
        R(3, seed=184),
        L([1]),
        R(seed=185),
        second=True,
    )
    case(
        "index_copy/duplicates",
        lambda T, x, i, s: T.index_copy(x, 0, i, s),
        R(3, seed=186, grad=False),
        L([1, 1]),
        D([5.0, 6.0], grad=False),
    )
    case(
        "index_copy/shape-error",
        lambda T, x, i, s: T.index_copy(x, 0, i, s),
        R(3, 2, seed=187),
        L([0]),
        R(2, 2, seed=188),
    )
    case(
        "index_copy/out-of-range-error",
        lambda T, x, i, s: T.index_copy(x, 0, i, s),
        R(3, seed=189),
        L([-4]),
        R(1, seed=190),
    )
    case(
        "index_copy.out/dim-0",
        lambda T, x, i, s: T.index_copy(x, 0, i, s, out=T.zeros([4, 3], dtype=T.float64)),
        R(4, 3, seed=191, grad=False),
        L([3, 0]),
        R(2, 3, seed=192, grad=False),
    )
    M23 = [[True, False, True], [False, True, True]]
    case(
        "masked_scatter/2x3",
        lambda T, x, m, s: T.masked_scatter(x, m, s),
        R(2, 3, seed=200),
        B(M23),
        R(5, seed=201),
        second=True,
    )
    case(
        "masked_scatter/method-broadcast-mask",
        lambda T, x, m, s: x.masked_scatter(m, s),
        R(2, 3, seed=202),
        B([False, True, True]),
        R(2, 2, seed=203),
        second=True,
    )
    case(
        "masked_scatter/broadcast-self",
        lambda T, x, m, s: T.masked_scatter(x, m, s),
        R(3, seed=204),
        B(M23),
        R(4, seed=205),
        second=True,
    )
    case(
        "masked_scatter/all-false",
        lambda T, x, m, s: T.masked_scatter(x, m, s),
        R(3, seed=206),
        B([False, False, False]),
        R(2, seed=207),
        second=True,
    )
    case(
        "masked_scatter/mask-dtype-error",
        lambda T, x, m, s: T.masked_scatter(x, m, s),
        R(3, seed=208),
        L([1, 0, 1]),
        R(3, seed=209),
    )
    case(
        "masked_scatter/dtype-error",
        lambda T, x, m, s: T.masked_scatter(x, m, s),
        R(3, seed=210),
        B([True, False, True]),
        L([1, 2]),
    )
    I24 = [[0, 1, 2, 0], [2, 0, 1, 1]]
    case(
        "scatter.src/dim-0",
        lambda T, x, i, s: T.scatter(x, 0, i, s),
        R(3, 4, seed=220),
        L(I24),
        R(2, 4, seed=221),
        second=True,
    )
    case(
        "scatter.src/method-dim-1",
        lambda T, x, i, s: x.scatter(1, i, s),
        R(3, 4, seed=222),
        L([[3, 0], [1, 2], [2, 0]]),
        R(3, 2, seed=223),
        second=True,
    )
    case(
        "scatter.src/duplicates",
        lambda T, x, i, s: T.scatter(x, 0, i, s),
        R(3, seed=224, grad=False),
        L([1, 1]),
        D([5.0, 6.0], grad=False),
    )
    case(
        "scatter.src/src-larger",
        lambda T, x, i, s: T.scatter(x, 1, i, s),
        R(2, 4, seed=225, grad=False),
        L([[3], [0]]),
        R(2, 3, seed=226, grad=False),
    )
    case("scatter.src/empty-index", lambda T, x, i, s: T.scatter(x, 0, i, s), R(3, seed=227), L([]), D([]), second=True)
    case(
        "scatter.src/out-of-range-error",
        lambda T, x, i, s: T.scatter(x, 0, i, s),
        R(3, seed=228),
        L([3]),
        R(1, seed=229),
    )
    case("scatter.src/dims-error", lambda T, x, i, s: T.scatter(x, 0, i, s), R(3, 2, seed=230), L([0]), R(1, seed=231))
    case("scatter.src/dtype-error", lambda T, x, i, s: T.scatter(x, 0, i, s), R(3, seed=232), L([0]), L([1]))
    case(
        "scatter.src_out/dim-0",
        lambda T, x, i, s: T.scatter(x, 0, i, s, out=T.zeros([3, 4], dtype=T.float64)),
        R(3, 4, seed=233, grad=False),
        L(I24),
        R(2, 4, seed=234, grad=False),
    )
    case(
        "scatter.value/dim-1",
        lambda T, x, i: T.scatter(x, 1, i, 2.5),
        R(3, 4, seed=240),
        L([[3, 3], [0, 1], [2, 2]]),
        second=True,
    )
    case("scatter.value/method-int64", lambda T, x, i: x.scatter(0, i, 9), L([[1, 2], [3, 4]]), L([[1, 0]]))
    case(
        "scatter.value_out/dim-0",
        lambda T, x, i: T.scatter(x, 0, i, -1.0, out=T.zeros([3, 4], dtype=T.float64)),
        R(3, 4, seed=241, grad=False),
        L([[2, 0, 1, 1]]),
    )
    for red in ("add", "multiply"):
        case(
            f"scatter.reduce/{red}",
            lambda T, x, i, s, red=red: T.scatter(x, 0, i, s, reduce=red),
            R(3, 4, seed=250, grad=False),
            L([[0, 1, 2, 0], [0, 0, 1, 1]]),
            R(2, 4, seed=251, grad=False),
        )
        case(
            f"scatter.value_reduce/{red}",
            lambda T, x, i, red=red: x.scatter(1, i, 2.0, reduce=red),
            R(3, 4, seed=252, grad=False),
            L([[3, 3], [0, 1], [2, 2]]),
        )
        case(
            f"scatter.reduce_out/{red}",
            lambda T, x, i, s, red=red: T.scatter(x, 0, i, s, reduce=red, out=T.zeros([3, 4], dtype=T.float64)),
            R(3, 4, seed=253, grad=False),
            L([[0, 1, 2, 0]]),
            R(1, 4, seed=254, grad=False),
        )
        case(
            f"scatter.value_reduce_out/{red}",
            lambda T, x, i, red=red: T.scatter(x, 1, i, 3.0, reduce=red, out=T.zeros([2, 3], dtype=T.float64)),
            R(2, 3, seed=255, grad=False),
            L([[2, 2], [0, 1]]),
        )
    case(
        "scatter.reduce/bad-reduce-error",
        lambda T, x, i, s: T.scatter(x, 0, i, s, reduce="max"),
        R(3, seed=256, grad=False),
        L([0]),
        R(1, seed=257, grad=False),
    )


_register_fill_copy_scatter()


def _register_scatter_reduce() -> None:
    IDX = [[0, 1, 0, 0], [2, 0, 1, 0], [0, 0, 1, 0]]
    for red in ("sum", "prod", "mean", "amax", "amin"):
        for inc in (True, False):
            tag = "include-self" if inc else "without-self"
            case(
                f"scatter_reduce.two/{red}-{tag}",
                lambda T, x, i, s, red=red, inc=inc: T.scatter_reduce(x, 0, i, s, red, include_self=inc),
                R(3, 4, seed=260),
                L(IDX),
                R(3, 4, seed=261),
                second=True,
            )
        case(
            f"scatter_reduce.two/{red}-ties",
            lambda T, x, i, s, red=red: x.scatter_reduce(1, i, s, red),
            D([[1.0, 2.0], [3.0, 0.0]]),
            L([[0, 0, 1], [1, 1, 0]]),
            D([[1.0, 1.0, 2.0], [0.0, 3.0, 3.0]]),
            second=True,
        )
        case(
            f"scatter_reduce.two/{red}-nan",
            lambda T, x, i, s, red=red: T.scatter_reduce(x, 0, i, s, red),
            D([1.0, 2.0, 3.0]),
            L([0, 0, 2]),
            D([NAN, 5.0, -1.0]),
        )
        case(
            f"scatter_reduce.two/{red}-int64",
            lambda T, x, i, s, red=red: T.scatter_reduce(x, 0, i, s, red, include_self=False),
            L([1, 2, 3]),
            L([0, 0, 2, 2]),
            L([-7, 4, 5, 2]),
        )
    case(
        "scatter_reduce.two/prod-zeros",
        lambda T, x, i, s: T.scatter_reduce(x, 0, i, s, "prod"),
        D([2.0, 0.0, 3.0]),
        L([0, 0, 1, 2, 2]),
        D([0.0, 4.0, 5.0, 0.0, 0.0]),
        second=True,
    )
    case(
        "scatter_reduce.two/empty-index",
        lambda T, x, i, s: T.scatter_reduce(x, 0, i, s, "amax"),
        R(3, seed=262),
        L([]),
        D([]),
        second=True,
    )
    case(
        "scatter_reduce.two/max-no-gradient",
        lambda T, x, i, s: T.scatter_reduce(x, 0, i, s, "max"),
        R(3, seed=263),
        L([0]),
        R(1, seed=264),
    )
    case(
        "scatter_reduce.two/unknown-reduce-error",
        lambda T, x, i, s: T.scatter_reduce(x, 0, i, s, "foo"),
        R(3, seed=269),
        L([0]),
        R(1, seed=270),
    )
    case(
        "scatter_reduce.two/out-of-range-error",
        lambda T, x, i, s: T.scatter_reduce(x, 0, i, s, "sum"),
        R(3, seed=265),
        L([3]),
        R(1, seed=266),
    )
    case(
        "scatter_reduce.two_out/mean",
        lambda T, x, i, s: T.scatter_reduce(x, 0, i, s, "mean", out=T.zeros([3, 4], dtype=T.float64)),
        R(3, 4, seed=267, grad=False),
        L(IDX),
        R(3, 4, seed=268, grad=False),
    )


_register_scatter_reduce()


def _register_inplace() -> None:
    I24 = [[0, 1, 2, 0], [2, 0, 1, 1]]
    M23 = [[True, False, True], [False, True, True]]
    case(
        "index_fill_.int_Scalar/clone",
        lambda T, x, i: x.clone().index_fill_(0, i, -1.5),
        R(3, 4, seed=300),
        L([2, 0]),
        second=True,
    )
    case(
        "index_fill_.int_Tensor/clone",
        lambda T, x, i, v: x.clone().index_fill_(1, i, v),
        R(3, 4, seed=301),
        L([3, 0, 3]),
        R(seed=302),
        second=True,
    )
    case(
        "index_copy_/clone",
        lambda T, x, i, s: x.clone().index_copy_(0, i, s),
        R(4, 3, seed=303),
        L([3, 0]),
        R(2, 3, seed=304),
        second=True,
    )
    case(
        "masked_scatter_/clone",
        lambda T, x, m, s: x.clone().masked_scatter_(m, s),
        R(2, 3, seed=305),
        B(M23),
        R(5, seed=306),
        second=True,
    )
    case(
        "masked_scatter_/broadcast-mask",
        lambda T, x, m, s: x.clone().masked_scatter_(m, s),
        R(2, 3, seed=307),
        B([True, False, True]),
        R(4, seed=308),
        second=True,
    )
    case(
        "masked_scatter_/self-cannot-grow-error",
        lambda T, x, m, s: x.clone().masked_scatter_(m, s),
        R(3, seed=309),
        B(M23),
        R(5, seed=310),
    )
    case(
        "scatter_.src/clone",
        lambda T, x, i, s: x.clone().scatter_(0, i, s),
        R(3, 4, seed=311),
        L(I24),
        R(2, 4, seed=312),
        second=True,
    )
    case("scatter_.value/clone", lambda T, x, i: x.clone().scatter_(0, i, 2.5), R(3, 4, seed=313), L(I24), second=True)
    case(
        "scatter_.reduce/multiply",
        lambda T, x, i, s: x.clone().scatter_(0, i, s, reduce="multiply"),
        R(3, 4, seed=314, grad=False),
        L(I24),
        R(2, 4, seed=315, grad=False),
    )
    case(
        "scatter_.value_reduce/add",
        lambda T, x, i: x.clone().scatter_(0, i, 2.0, reduce="add"),
        R(3, 4, seed=316, grad=False),
        L(I24),
    )
    for red in ("sum", "prod", "mean", "amax", "amin"):
        case(
            f"scatter_reduce_.two/{red}",
            lambda T, x, i, s, red=red: x.clone().scatter_reduce_(0, i, s, red, include_self=False),
            R(3, 4, seed=317),
            L(I24),
            R(2, 4, seed=318),
            second=True,
        )


_register_inplace()
