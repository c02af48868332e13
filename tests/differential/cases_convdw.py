"""Differential cases of depthwise convolutions (issue 26's speed part, bench26).

Convolutions with one input channel per group (groups == input channels, or one input channel)
skip im2col and the GEMM (csrc/native/convolution.cc's depthwise_* kernels, through the plane
kernels of csrc/native/simd/depthwise.h, and vec::axpy_rows for strided input gradients).
Imported by cases.py (its last lines), with whose `case` and input makers they register (names
unique and stable, expected.json regenerated with run_torch.py). They cover the paths cases.py's
single "depthwise" case does not: strides (the strided rows), a channel multiplier, dilation,
asymmetric padding, a single input channel with groups 1, a transposed depthwise convolution,
1-D and 3-D, and float32; with first and second derivatives.
"""

from __future__ import annotations

from cases import R, case  # cases.py imports this module once they are defined

# label, input shape, weight shape, bias size, (stride, padding, dilation, transposed,
# output_padding, groups)
DEPTHWISE = [
    ("2d-stride-2", (2, 3, 6, 5), (3, 1, 3, 3), 3, ([2, 2], [1, 1], [1, 1], False, [0, 0], 3)),
    ("2d-multiplier-2", (1, 2, 5, 5), (4, 1, 3, 3), 4, ([1, 1], [1, 1], [1, 1], False, [0, 0], 2)),
    ("2d-dilation-2-stride-3", (1, 2, 8, 7), (2, 1, 3, 2), 0, ([3, 2], [2, 0], [2, 2], False, [0, 0], 2)),
    ("2d-one-input-channel", (2, 1, 5, 4), (3, 1, 2, 3), 3, ([1, 2], [0, 1], [1, 1], False, [0, 0], 1)),
    ("2d-kernel-wider-than-row", (1, 2, 4, 2), (2, 1, 3, 5), 2, ([1, 1], [1, 2], [1, 1], False, [0, 0], 2)),
    ("1d-stride-2", (2, 3, 9), (3, 1, 4), 3, ([2], [1], [1], False, [0], 3)),
    ("3d", (1, 2, 3, 4, 4), (2, 1, 2, 3, 3), 2, ([1, 2, 1], [1, 1, 0], [1, 1, 1], False, [0, 0, 0], 2)),
    ("transposed-2d-stride-2", (1, 3, 3, 4), (3, 1, 3, 3), 3, ([2, 2], [1, 1], [1, 1], True, [1, 0], 3)),
    ("transposed-2d-multiplier", (1, 4, 3, 3), (4, 1, 2, 2), 0, ([2, 1], [0, 1], [1, 1], True, [1, 0], 2)),
]


def _register() -> None:
    for label, xs, ws, nb, (st, pd, dl, tr, op, gr) in DEPTHWISE:

        def _conv(T, x, w, *b, st=st, pd=pd, dl=dl, tr=tr, op=op, gr=gr):
            return T.convolution(x, w, b[0] if b else None, st, pd, dl, tr, op, gr)

        extra = [R(nb, seed=3)] if nb else []
        case(f"convolution/depthwise-{label}", _conv, R(*xs, seed=1), R(*ws, seed=2), *extra, second=True)
    case(
        "convolution/depthwise-float32",
        lambda T, x, w, b: T.convolution(x, w, b, [2, 1], [1, 1], [1, 1], False, [0, 0], 4),
        R(2, 4, 7, 6, seed=4, dtype="float32"),
        R(4, 1, 3, 3, seed=5, dtype="float32"),
        R(4, seed=6, dtype="float32"),
    )


_register()
