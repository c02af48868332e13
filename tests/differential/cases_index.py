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
