"""gradgen.nn.functional's pixel_shuffle / pixel_unshuffle and interpolate against numbers computed
by PyTorch (2.13, CPU, float64) for the same torch.nn.functional calls: the output's shape and
values, and the gradient of sum(y * k / 10) in x.
"""

from __future__ import annotations

import pytest
from gradcheck_util import flat

import gradgen
import gradgen.nn.functional as F

X = [
    [
        [
            [0.5, -1.25, 2.0, 1.0],
            [1.5, 0.25, -0.75, 0.0],
            [-2.0, 0.75, 1.0, 0.5],
        ]
    ]
]

# Written by PyTorch 2.13 (CPU, float64).
TORCH = {
    "pixel_shuffle": (
        [1, 1, 2, 6],
        [0.5, 1.0, -1.25, 1.5, 2.0, 0.25, -0.75, 0.75, 0.0, 1.0, -2.0, 0.5],
        [0.1, 0.3, 0.5, 0.2, 0.4, 0.6, 0.7, 0.9, 1.1, 0.8, 1.0, 1.2],
    ),
    "pixel_unshuffle": (
        [1, 4, 1, 3],
        [0.5, 2.0, 1.5, -1.25, 1.0, 0.25, -0.75, -2.0, 1.0, 0.0, 0.75, 0.5],
        [0.1, 0.4, 0.2, 0.5, 0.3, 0.6, 0.7, 1.0, 0.8, 1.1, 0.9, 1.2],
    ),
    "nearest_size": (
        [1, 1, 5, 6],
        [
            0.5,
            0.5,
            -1.25,
            2.0,
            2.0,
            1.0,
            0.5,
            0.5,
            -1.25,
            2.0,
            2.0,
            1.0,
            1.5,
            1.5,
            0.25,
            -0.75,
            -0.75,
            0.0,
            1.5,
            1.5,
            0.25,
            -0.75,
            -0.75,
            0.0,
            -2.0,
            -2.0,
            0.75,
            1.0,
            1.0,
            0.5,
        ],
        [1.8, 1.2, 3.0, 1.8, 6.6, 3.6, 7.8, 4.2, 5.1, 2.7, 5.699999999999999, 3.0],
    ),
    "nearest_scale": (
        [1, 1, 5, 6],
        [
            0.5,
            0.5,
            -1.25,
            -1.25,
            2.0,
            2.0,
            0.5,
            0.5,
            -1.25,
            -1.25,
            2.0,
            2.0,
            1.5,
            1.5,
            0.25,
            0.25,
            -0.75,
            -0.75,
            1.5,
            1.5,
            0.25,
            0.25,
            -0.75,
            -0.75,
            -2.0,
            -2.0,
            0.75,
            0.75,
            1.0,
            1.0,
        ],
        [1.8, 2.6, 3.4, 0.0, 6.6, 7.4, 8.2, 0.0, 5.1, 5.5, 5.9, 0.0],
    ),
    "nearest_1d": (
        [1, 3, 7],
        [
            0.5,
            0.5,
            -1.25,
            -1.25,
            2.0,
            2.0,
            1.0,
            1.5,
            1.5,
            0.25,
            0.25,
            -0.75,
            -0.75,
            0.0,
            -2.0,
            -2.0,
            0.75,
            0.75,
            1.0,
            1.0,
            0.5,
        ],
        [0.3, 0.7, 1.1, 0.7, 1.7, 2.1, 2.5, 1.4, 3.1, 3.5, 3.9, 2.1],
    ),
    "bilinear": (
        [1, 1, 4, 7],
        [
            0.5,
            -0.125,
            -1.125,
            0.375,
            1.928571428571429,
            1.357142857142857,
            1.0,
            1.125,
            0.611607142857143,
            -0.209821428571428,
            -0.015625,
            0.287946428571429,
            0.341517857142857,
            0.375,
            0.1875,
            0.276785714285714,
            0.419642857142857,
            0.171875,
            -0.073660714285714,
            0.087053571428571,
            0.1875,
            -2.0,
            -1.017857142857143,
            0.553571428571428,
            0.875,
            0.964285714285714,
            0.678571428571429,
            0.5,
        ],
        [
            0.79375,
            1.225,
            1.676785714285714,
            1.991964285714285,
            2.5625,
            3.03125,
            3.441964285714286,
            3.651785714285714,
            4.84375,
            5.44375,
            5.895535714285716,
            6.041964285714285,
        ],
    ),
    "bilinear_align": (
        [1, 1, 4, 2],
        [0.5, 1.0, 1.166666666666667, 0.333333333333333, 0.333333333333333, 0.166666666666667, -2.0, 0.5],
        [
            0.2,
            0.0,
            0.0,
            0.333333333333333,
            0.533333333333333,
            0.0,
            0.0,
            0.666666666666667,
            0.866666666666667,
            0.0,
            0.0,
            1.0,
        ],
    ),
    "bilinear_recompute": (
        [1, 1, 3, 5],
        [0.5, -0.725, 0.375, 1.7, 1.0, 1.5, 0.625, -0.25, -0.525, 0.0, -2.0, -0.075, 0.875, 0.85, 0.5],
        [0.16, 0.29, 0.43, 0.62, 0.81, 0.89, 1.03, 1.27, 1.46, 1.49, 1.63, 1.92],
    ),
}

CALLS = {
    "pixel_shuffle": lambda x: F.pixel_shuffle(x.reshape([1, 4, 1, 3]), 2),
    "pixel_unshuffle": lambda x: F.pixel_unshuffle(x.reshape([1, 1, 2, 6]), 2),
    "nearest_size": lambda x: F.interpolate(x, size=(5, 6)),
    "nearest_scale": lambda x: F.interpolate(x, scale_factor=1.7),
    "nearest_1d": lambda x: F.interpolate(x.reshape([1, 3, 4]), size=7, mode="nearest"),
    "bilinear": lambda x: F.interpolate(x, size=(4, 7), mode="bilinear"),
    "bilinear_align": lambda x: F.interpolate(x, scale_factor=(1.5, 0.5), mode="bilinear", align_corners=True),
    "bilinear_recompute": lambda x: F.interpolate(x, scale_factor=1.3, mode="bilinear", recompute_scale_factor=True),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_torch(name):
    x = gradgen.tensor(X, dtype=gradgen.float64).requires_grad_(True)
    y = CALLS[name](x)
    k = gradgen.tensor([(i + 1) / 10 for i in range(y.numel())], dtype=gradgen.float64).reshape(list(y.shape))
    (g,) = gradgen.autograd.grad((y * k).sum(), [x])
    shape, expected_y, expected_g = TORCH[name]
    assert list(y.shape) == shape
    assert flat(y.tolist()) == pytest.approx(expected_y, rel=1e-12, abs=1e-12)
    assert flat(g.tolist()) == pytest.approx(expected_g, rel=1e-12, abs=1e-12)


def test_errors():
    x = gradgen.tensor(X, dtype=gradgen.float64)
    with pytest.raises(ValueError, match="only one of size or scale_factor should be defined"):
        F.interpolate(x, size=2, scale_factor=2.0)
    with pytest.raises(ValueError, match="align_corners option can only be set with the interpolating modes"):
        F.interpolate(x, size=(2, 3), align_corners=True)
    with pytest.raises(ValueError, match="either size or scale_factor should be defined"):
        F.interpolate(x)
    with pytest.raises(ValueError, match="Input and output must have the same number of spatial dimensions"):
        F.interpolate(x, size=(2,))
    with pytest.raises(RuntimeError, match="pixel_shuffle expects its input's 'channel' dimension to be divisible"):
        F.pixel_shuffle(x, 2)
    with pytest.raises(NotImplementedError, match="bicubic"):
        F.interpolate(x, size=(2, 3), mode="bicubic")
