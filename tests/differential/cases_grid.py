"""Differential cases of grid_sampler_2d (issue 26, resampling): every mode x padding_mode x
align_corners, points outside the image for each padding mode, empty batches and grids,
non-contiguous operands, float32, the backward op itself, out= (through ATen's packets in
run_torch.py) and the errors PyTorch raises.

Imported by cases.py (at its end), with whose `case` and input makers they register (same rules:
names unique and stable, expected.json regenerated with run_torch.py).
"""

from __future__ import annotations

from cases import D, L, R, case  # cases.py imports this module once they are defined

MODES = ("bilinear", "nearest", "bicubic")
PADDINGS = ("zeros", "border", "reflection")

# Points outside [-1, 1] on both sides, some beyond one reflection (|x| > 3) and some past two.
FAR = [[[[-1.7, 0.3], [1.45, -1.2], [3.3, 0.1]], [[-0.4, 2.6], [0.25, -3.7], [-5.2, 4.9]]]]


def _modes() -> None:
    seed = 4100
    for m, mode in enumerate(MODES):
        for p, padding in enumerate(PADDINGS):
            for align in (False, True):
                name = f"grid_sampler_2d/{mode}-{padding}" + ("-align" if align else "")
                case(
                    name,
                    lambda T, x, g, m=m, p=p, align=align: T.grid_sampler_2d(x, g, m, p, align),
                    R(2, 2, 3, 4, seed=seed),
                    R(2, 3, 2, 2, seed=seed + 1, lo=-1.4, hi=1.4),
                    second=True,
                )
                seed += 2


def _far_points() -> None:
    # Every mode and padding on points far outside the image (align_corners both ways).
    seed = 4200
    for m, mode in enumerate(MODES):
        for p, padding in enumerate(PADDINGS):
            for align in (False, True):
                case(
                    f"grid_sampler_2d/far-{mode}-{padding}" + ("-align" if align else ""),
                    lambda T, x, g, m=m, p=p, align=align: T.grid_sampler_2d(x, g, m, p, align),
                    R(1, 1, 3, 4, seed=seed),
                    D(FAR),
                    second=(align is False),
                )
                seed += 1
    # A 1-pixel-wide image: reflection's span is 0 with align_corners (every point at 0).
    for p, padding in enumerate(PADDINGS):
        case(
            f"grid_sampler_2d/one-column-{padding}-align",
            lambda T, x, g, p=p: T.grid_sampler_2d(x, g, 0, p, True),
            R(1, 2, 3, 1, seed=4230 + p),
            D(FAR),
        )


def _edges() -> None:
    case(
        "grid_sampler_2d/empty-batch",
        lambda T, x, g: T.grid_sampler_2d(x.reshape([0, 2, 3, 4]), g.reshape([0, 2, 2, 2]), 0, 0, False),
        D([]),
        D([]),
    )
    case(
        "grid_sampler_2d/empty-grid",
        lambda T, x, g: T.grid_sampler_2d(x, g.reshape([1, 0, 3, 2]), 2, 1, False),
        R(1, 2, 3, 4, seed=4301),
        D([]),
    )
    case(
        "grid_sampler_2d/no-channels",
        lambda T, x, g: T.grid_sampler_2d(x.reshape([1, 0, 3, 4]), g, 0, 2, False),
        D([]),
        R(1, 2, 2, 2, seed=4302, lo=-1.2, hi=1.2),
    )
    case(
        "grid_sampler_2d/transposed-input",
        lambda T, x, g: T.grid_sampler_2d(x.transpose(2, 3), g, 0, 1, False),
        R(2, 2, 4, 3, seed=4303),
        R(2, 3, 2, 2, seed=4304, lo=-1.3, hi=1.3),
        second=True,
    )
    case(
        "grid_sampler_2d/permuted-grid-bicubic",
        lambda T, x, g: T.grid_sampler_2d(x, g.permute(0, 2, 1, 3), 2, 2, True),
        R(1, 3, 4, 4, seed=4305),
        R(1, 2, 3, 2, seed=4306, lo=-1.3, hi=1.3),
        second=True,
    )
    case(
        "grid_sampler_2d/expanded-input-nearest",
        lambda T, x, g: T.grid_sampler_2d(x.expand([2, 2, 3, 3]), g, 1, 0, False),
        R(1, 2, 3, 3, seed=4307),
        R(2, 2, 2, 2, seed=4308, lo=-1.1, hi=1.1),
    )
    for m, mode in enumerate(MODES):
        case(
            f"grid_sampler_2d/float32-{mode}",
            lambda T, x, g, m=m: T.grid_sampler_2d(x, g, m, 2, False),
            R(1, 2, 3, 4, seed=4310 + m, dtype="float32"),
            R(1, 2, 3, 2, seed=4320 + m, lo=-1.3, hi=1.3, dtype="float32"),
            second=True,
        )
    case(
        "grid_sampler/bilinear-zeros",
        lambda T, x, g: T.grid_sampler(x, g, 0, 0, False),
        R(1, 2, 3, 3, seed=4330),
        R(1, 2, 2, 2, seed=4331, lo=-1.2, hi=1.2),
        second=True,
    )
    case(
        "grid_sampler/bicubic-border-align",
        lambda T, x, g: T.grid_sampler(x, g, 2, 1, True),
        R(1, 1, 4, 3, seed=4332),
        R(1, 3, 2, 2, seed=4333, lo=-1.2, hi=1.2),
        second=True,
    )


def _backward() -> None:
    for mask in ((True, True), (False, True)):
        case(
            "grid_sampler_2d_backward/" + ("both" if mask[0] else "grid-only"),
            lambda T, go, x, g, mask=mask: [
                t for t in T.grid_sampler_2d_backward(go, x, g, 0, 2, False, list(mask)) if t is not None
            ],
            R(1, 2, 2, 3, seed=4340),
            R(1, 2, 3, 4, seed=4341),
            R(1, 2, 3, 2, seed=4342, lo=-1.3, hi=1.3),
        )
    case(
        "grid_sampler_2d_backward/bicubic-align",
        lambda T, go, x, g: list(T.grid_sampler_2d_backward(go, x, g, 2, 0, True, [True, True])),
        R(1, 1, 2, 2, seed=4343),
        R(1, 1, 4, 4, seed=4344),
        R(1, 2, 2, 2, seed=4345, lo=-1.3, hi=1.3),
    )
    case(
        "grid_sampler_2d.out/values",
        lambda T, x, g: T.grid_sampler_2d(x, g, 2, 2, False, out=T.zeros([1, 2, 3, 2], dtype=T.float64)),
        R(1, 2, 3, 4, seed=4346, grad=False),
        R(1, 3, 2, 2, seed=4347, lo=-1.3, hi=1.3, grad=False),
    )
    case(
        "grid_sampler_2d_backward.out/values",
        lambda T, go, x, g: T.grid_sampler_2d_backward(
            go, x, g, 1, 1, True, [True, True], out=(T.zeros([0], dtype=T.float64), T.zeros([0], dtype=T.float64))
        ),
        R(1, 1, 2, 2, seed=4348, grad=False),
        R(1, 1, 3, 3, seed=4349, grad=False),
        R(1, 2, 2, 2, seed=4350, lo=-1.3, hi=1.3, grad=False),
    )


def _errors() -> None:
    bad = {
        "batch-mismatch-error": ([1, 1, 2, 2], [2, 1, 1, 2]),
        "last-dim-error": ([1, 1, 2, 2], [1, 1, 1, 3]),
        "input-3d-error": ([1, 2, 2], [1, 1, 2]),
        "grid-3d-error": ([1, 1, 2, 2], [1, 1, 2]),
        "empty-spatial-error": ([1, 1, 0, 2], [1, 1, 1, 2]),
    }
    for label, (xs, gs) in bad.items():
        case(
            f"grid_sampler_2d/{label}",
            lambda T, xs=xs, gs=gs: T.grid_sampler_2d(
                T.zeros(xs, dtype=T.float64), T.zeros(gs, dtype=T.float64), 0, 0, False
            ),
        )
    case(
        "grid_sampler_2d/dtype-mismatch-error",
        lambda T, x, g: T.grid_sampler_2d(x, g, 0, 0, False),
        R(1, 1, 2, 2, seed=4351),
        R(1, 1, 1, 2, seed=4352, dtype="float32"),
    )
    case(
        "grid_sampler_2d/integer-input-error",
        lambda T, x, g: T.grid_sampler_2d(x, g, 0, 0, False),
        L([[[[1, 2], [3, 4]]]]),
        L([[[[0, 0]]]]),
    )


def _volumetric() -> None:
    # grid_sampler_3d: bilinear and nearest x every padding x align_corners, points outside
    # [-1, 1], the backward op, a non-contiguous input, float32 and PyTorch's errors.
    seed = 8900
    for m, mode in enumerate(MODES[:2]):
        for p, padding in enumerate(PADDINGS):
            for align in (False, True):
                case(
                    f"grid_sampler_3d/{mode}-{padding}" + ("-align" if align else ""),
                    lambda T, x, g, m=m, p=p, align=align: T.grid_sampler_3d(x, g, m, p, align),
                    R(2, 2, 3, 2, 4, seed=seed),
                    R(2, 2, 3, 2, 3, seed=seed + 1, lo=-1.6, hi=1.6),
                    second=True,
                )
                seed += 2
    case(
        "grid_sampler_3d_backward/bilinear-reflection",
        lambda T, go, x, g: T.grid_sampler_3d_backward(go, x, g, 0, 2, False, [True, True]),
        R(1, 2, 2, 1, 3, seed=8950),
        R(1, 2, 3, 2, 2, seed=8951),
        R(1, 2, 1, 3, 3, seed=8952, lo=-1.3, hi=1.3),
        second=True,
    )
    case(
        "grid_sampler_3d_backward/nearest-input-only",
        lambda T, go, x, g: T.grid_sampler_3d_backward(go, x, g, 1, 0, True, [True, False]),
        R(1, 1, 2, 2, 2, seed=8953),
        R(1, 1, 3, 2, 2, seed=8954),
        R(1, 2, 2, 2, 3, seed=8955),
    )
    case(
        "grid_sampler_3d/permuted-input",
        lambda T, x, g: T.grid_sampler_3d(x.permute(0, 1, 4, 3, 2), g, 0, 1, True),
        R(1, 2, 3, 2, 4, seed=8956),
        R(1, 2, 2, 1, 3, seed=8957),
    )
    case(
        "grid_sampler_3d/float32",
        lambda T, x, g: T.grid_sampler_3d(x, g, 0, 0, False),
        R(1, 2, 3, 2, 4, seed=8958, dtype="float32"),
        R(1, 2, 2, 1, 3, seed=8959, dtype="float32"),
    )
    case(
        "grid_sampler/5d",
        lambda T, x, g: T.grid_sampler(x, g, 0, 2, False),
        R(1, 2, 3, 2, 4, seed=8960),
        R(1, 2, 2, 1, 3, seed=8961, lo=-1.4, hi=1.4),
        second=True,
    )
    bad = {
        "bicubic-error": ([1, 1, 2, 2, 2], [1, 1, 1, 1, 3], 2),
        "grid-4d-error": ([1, 1, 2, 2, 2], [1, 1, 1, 3], 0),
        "last-dim-error": ([1, 1, 2, 2, 2], [1, 1, 1, 1, 2], 0),
        "batch-error": ([2, 1, 2, 2, 2], [1, 1, 1, 1, 3], 0),
    }
    for label, (xs, gs, mode) in bad.items():
        case(
            f"grid_sampler_3d/{label}",
            lambda T, xs=xs, gs=gs, mode=mode: T.grid_sampler_3d(
                T.zeros(xs, dtype=T.float64), T.zeros(gs, dtype=T.float64), mode, 0, False
            ),
        )


_modes()
_far_points()
_edges()
_backward()
_errors()
_volumetric()
