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
    # issue 26, remaining ops (written by PyTorch 2.13, CPU, float64, as above).
    "area_1d": (
        [1, 2, 4],
        [-0.375, 0.375, 1.25, 0.875, -0.375, -1.0, 0.875, 0.75],
        [0.05, 0.15, 0.1, 0.15, 0.35, 0.2, 0.25, 0.55, 0.3, 0.35, 0.75, 0.4],
    ),
    "area_2d": (
        [1, 1, 1, 2],
        [-0.041666666666667, 0.625],
        [
            0.016666666666667,
            0.016666666666667,
            0.033333333333333,
            0.033333333333333,
            0.016666666666667,
            0.016666666666667,
            0.033333333333333,
            0.033333333333333,
            0.016666666666667,
            0.016666666666667,
            0.033333333333333,
            0.033333333333333,
        ],
    ),
    "bicubic": (
        [1, 1, 4, 5],
        [
            0.536715393066407,
            -1.251347747802734,
            0.357959747314453,
            2.275287078857421,
            1.003396514892579,
            1.637749877929689,
            0.132710784912108,
            -0.347721099853516,
            0.163785919189453,
            0.321015289306641,
            0.333667785644532,
            0.638309295654297,
            0.063716888427734,
            -0.396357513427734,
            0.100190643310547,
            -2.435725097656251,
            -0.098919158935545,
            1.295764923095703,
            0.998532318115234,
            0.500063079833985,
        ],
        [
            0.26446240234375,
            0.477182421875,
            0.694033984375,
            0.899282128906251,
            1.4479794921875,
            1.673597265625001,
            1.895894140625,
            2.098740039062502,
            2.560558105468749,
            2.7880203125,
            3.004871875,
            3.195377832031252,
        ],
    ),
    "bicubic_align": (
        [1, 1, 4, 3],
        [
            0.5,
            0.3046875,
            1.0,
            1.574074074074074,
            -0.38353587962963,
            0.259259259259259,
            0.509259259259259,
            -0.010850694444444,
            0.046296296296296,
            -2.0,
            1.1796875,
            0.5,
        ],
        [
            0.122974537037037,
            0.15943287037037,
            0.15943287037037,
            0.363715277777777,
            0.778877314814815,
            0.614641203703704,
            0.614641203703704,
            1.097395833333333,
            1.054398148148148,
            0.769675925925926,
            0.769675925925926,
            1.295138888888889,
        ],
    ),
    "linear": (
        [1, 3, 6],
        [
            0.5,
            -0.375,
            -0.708333333333334,
            1.458333333333333,
            1.5,
            1.0,
            1.5,
            0.875,
            0.083333333333333,
            -0.583333333333333,
            -0.375,
            0.0,
            -2.0,
            -0.625,
            0.791666666666667,
            0.958333333333333,
            0.75,
            0.5,
        ],
        [
            0.2,
            0.416666666666667,
            0.633333333333333,
            0.85,
            1.1,
            1.316666666666667,
            1.533333333333333,
            1.75,
            2.0,
            2.216666666666667,
            2.433333333333333,
            2.65,
        ],
    ),
    "linear_align": (
        [1, 2, 3],
        [0.5, 1.5, 0.25, -0.75, -0.625, 0.5],
        [0.1, 0.0, 0.1, 0.1, 0.0, 0.3, 0.4, 0.0, 0.25, 0.25, 0.0, 0.6],
    ),
    "nearest_3d": (
        [1, 1, 3, 4, 2],
        [
            0.5,
            -1.25,
            0.5,
            -1.25,
            1.0,
            1.5,
            1.0,
            1.5,
            0.5,
            -1.25,
            0.5,
            -1.25,
            1.0,
            1.5,
            1.0,
            1.5,
            -0.75,
            0.0,
            -0.75,
            0.0,
            0.75,
            1.0,
            0.75,
            1.0,
        ],
        [2.4, 2.8, 0.0, 4.0, 4.4, 0.0, 3.6, 3.8, 0.0, 4.4, 4.6, 0.0],
    ),
    "trilinear": (
        [1, 1, 3, 2, 3],
        [
            0.875,
            0.09375,
            -0.6875,
            1.625,
            1.03125,
            0.4375,
            -0.09375,
            -0.171875,
            -0.25,
            0.9375,
            0.71875,
            0.5,
            -1.0625,
            -0.4375,
            0.1875,
            0.25,
            0.40625,
            0.5625,
        ],
        [0.5625, 0.7875, 0.54375, 0.69375, 1.06875, 1.29375, 1.9125, 2.1375, 1.44375, 1.59375, 2.41875, 2.64375],
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
    "linear": lambda x: F.interpolate(x.reshape([1, 3, 4]), size=6, mode="linear"),
    "linear_align": lambda x: F.interpolate(x.reshape([1, 2, 6]), scale_factor=0.5, mode="linear", align_corners=True),
    "bicubic": lambda x: F.interpolate(x, size=(4, 5), mode="bicubic"),
    "bicubic_align": lambda x: F.interpolate(x, scale_factor=(1.5, 0.75), mode="bicubic", align_corners=True),
    "trilinear": lambda x: F.interpolate(x.reshape([1, 1, 2, 3, 2]), size=(3, 2, 3), mode="trilinear"),
    "nearest_3d": lambda x: F.interpolate(x.reshape([1, 1, 2, 2, 3]), scale_factor=(1.5, 2, 0.7)),
    "area_1d": lambda x: F.interpolate(x.reshape([1, 2, 6]), size=4, mode="area"),
    "area_2d": lambda x: F.interpolate(x, scale_factor=0.6, mode="area"),
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
    with pytest.raises(NotImplementedError, match="Got 4D input, but trilinear mode needs 5D input"):
        F.interpolate(x, size=(2, 3), mode="trilinear")
    with pytest.raises(NotImplementedError, match="Got 4D input, but linear mode needs 3D input"):
        F.interpolate(x, size=(2, 3), mode="linear")
    with pytest.raises(NotImplementedError, match="Only 3D, 4D and 5D input Tensors supported"):
        F.interpolate(x.reshape([12]), size=3, mode="linear")
    with pytest.raises(ValueError, match="align_corners option can only be set"):
        F.interpolate(x, size=(2, 3), mode="area", align_corners=False)
    with pytest.raises(RuntimeError, match="upsample_bicubic2d: It is expected output_size equals to 2"):
        gradgen.upsample_bicubic2d(x, [2], False)
    with pytest.raises(RuntimeError, match="upsample_trilinear3d: Non-empty 5D data tensor expected"):
        gradgen.upsample_trilinear3d(x, [2, 2, 2], False)
