"""Differential cases of the nn ops of issue 26's second batch: max_unpool3d (grid_sampler_2d's
are in cases_grid.py).

Imported by cases.py (at its end), with whose `case` and input makers they register (same rules:
names unique and stable, expected.json regenerated with run_torch.py).
"""

from __future__ import annotations

from cases import D, L, R, case  # cases.py imports this module once they are defined


def _max_unpool3d() -> None:
    def unpool(T, x, src, size, k=(2, 2, 2)):
        indices = T.max_pool3d_with_indices(src, list(k), list(k))[1]
        return T.max_unpool3d(x, indices, size, list(k), [0, 0, 0])

    case(
        "max_unpool3d/batched",
        lambda T, x, src: unpool(T, x, src, [4, 4, 4]),
        R(1, 2, 2, 2, 2, seed=2901),
        R(1, 2, 4, 4, 4, seed=2902, grad=False),
        second=True,
    )
    case(
        "max_unpool3d/unbatched-odd",
        lambda T, x, src: unpool(T, x, src, [3, 5, 6], (3, 2, 2)),
        R(2, 1, 2, 3, seed=2903),
        R(2, 3, 5, 6, seed=2904, grad=False),
        second=True,
    )
    case(
        "max_unpool3d/larger-output",
        lambda T, x, src: unpool(T, x, src, [5, 4, 5]),
        R(1, 1, 2, 2, 2, seed=2905),
        R(1, 1, 4, 4, 4, seed=2906, grad=False),
        second=True,
    )
    case(
        "max_unpool3d/transposed",
        lambda T, x, src: unpool(T, x.transpose(3, 4), src, [4, 4, 4]),
        R(1, 1, 2, 2, 2, seed=2907),
        R(1, 1, 4, 4, 4, seed=2908, grad=False),
    )
    case(
        "max_unpool3d/float32",
        lambda T, x, src: unpool(T, x, src, [4, 4, 4]),
        R(1, 1, 2, 2, 2, seed=2909, dtype="float32"),
        R(1, 1, 4, 4, 4, seed=2910, dtype="float32", grad=False),
    )
    empty = lambda T, shape: T.zeros(shape, dtype=T.int64)  # noqa: E731
    case(
        "max_unpool3d/empty-batch",
        lambda T, x: T.max_unpool3d(
            x.reshape([0, 1, 1, 2, 2]), empty(T, [0, 1, 1, 2, 2]), [2, 4, 4], [2, 2, 2], [0, 0, 0]
        ),
        D([]),
    )
    case(
        "max_unpool3d/unbatched-no-channels",
        lambda T, x: T.max_unpool3d(x.reshape([0, 1, 2, 2]), empty(T, [0, 1, 2, 2]), [2, 4, 4], [2, 2, 2], [0, 0, 0]),
        D([]),
    )
    case(
        "max_unpool3d/empty-output",
        lambda T, x: T.max_unpool3d(x, empty(T, [1, 1, 1, 2, 2]), [0, 4, 4], [2, 2, 2], [0, 0, 0]),
        R(1, 1, 1, 2, 2, seed=2911, grad=False),
    )
    case(
        "max_unpool3d/duplicate-indices",
        lambda T, x, i: T.max_unpool3d(x, i, [2, 2, 2], [1, 1, 1], [0, 0, 0]),
        D([[[[[1.0, 2.0], [3.0, 4.0]]]]], grad=False),
        L([[[[[0, 0], [7, 3]]]]]),
    )
    bad = {
        "index-out-of-range-error": ([[[[[0, 1], [2, 8]]]]], [2, 2, 2], [1, 1, 1], [0, 0, 0]),
        "negative-index-error": ([[[[[0, -1], [2, 3]]]]], [2, 2, 2], [1, 1, 1], [0, 0, 0]),
        "output-size-length-error": ([[[[[0, 1], [2, 3]]]]], [2, 2], [1, 1, 1], [0, 0, 0]),
        "stride-length-error": ([[[[[0, 1], [2, 3]]]]], [2, 2, 2], [1, 1], [0, 0, 0]),
        "padding-length-error": ([[[[[0, 1], [2, 3]]]]], [2, 2, 2], [1, 1, 1], [0]),
        "zero-stride-error": ([[[[[0, 1], [2, 3]]]]], [2, 2, 2], [1, 0, 1], [0, 0, 0]),
        "negative-output-size-error": ([[[[[0, 1], [2, 3]]]]], [2, -1, 2], [1, 1, 1], [0, 0, 0]),
        "shape-error": ([[[[[0, 1]]]]], [2, 2, 2], [1, 1, 1], [0, 0, 0]),
    }
    for label, (idx, size, stride, padding) in bad.items():
        case(
            f"max_unpool3d/{label}",
            lambda T, x, i, size=size, stride=stride, padding=padding: T.max_unpool3d(x, i, size, stride, padding),
            D([[[[[1.0, 2.0], [3.0, 4.0]]]]], grad=False),
            L(idx),
        )
    case(
        "max_unpool3d/float-indices-error",
        lambda T, x: T.max_unpool3d(x, T.zeros([1, 1, 1, 2, 2]), [2, 2, 2], [1, 1, 1], [0, 0, 0]),
        R(1, 1, 1, 2, 2),
    )
    case(
        "max_unpool3d/dims-error",
        lambda T, x: T.max_unpool3d(x, T.zeros([1, 2, 2], dtype=T.int64), [2, 2, 2], [1, 1, 1], [0, 0, 0]),
        R(1, 2, 2),
    )
    case(
        "max_unpool3d/empty-channel-error",
        lambda T, x: T.max_unpool3d(
            x.reshape([1, 0, 1, 2, 2]), empty(T, [1, 0, 1, 2, 2]), [2, 2, 2], [1, 1, 1], [0, 0, 0]
        ),
        D([]),
    )
    case(
        "max_unpool3d/integer-input-error",
        lambda T, x: T.max_unpool3d(x, T.zeros([1, 1, 1, 1, 2], dtype=T.int64), [2, 2, 2], [1, 1, 1], [0, 0, 0]),
        L([[[[[1, 2]]]]]),
    )
    case(
        "max_unpool3d.out/values",
        lambda T, x, src: T.max_unpool3d(
            x,
            T.max_pool3d_with_indices(src, [2, 2, 2], [2, 2, 2])[1],
            [4, 4, 4],
            [2, 2, 2],
            [0, 0, 0],
            out=T.zeros([1, 1, 4, 4, 4], dtype=T.float64),
        ),
        R(1, 1, 2, 2, 2, seed=2912, grad=False),
        R(1, 1, 4, 4, 4, seed=2913, grad=False),
    )


_max_unpool3d()
