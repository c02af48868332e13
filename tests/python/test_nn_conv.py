"""gradgen.nn.functional's convolutions against numbers computed by PyTorch (2.13, CPU, float64)
for the same torch.nn.functional calls: the outputs and the gradient of sum(y * k / 10) in x.
"""

from __future__ import annotations

import pytest
from gradcheck_util import flat, gradcheck, gradgradcheck

import gradgen
import gradgen.nn.functional as F

X = [
    [[[0.5, -1.25, 2.0, 1.0], [1.5, 0.25, -0.75, 0.0], [-2.0, 0.75, 1.0, 0.5], [0.0, 3.0, -1.5, 1.25]]]
]  # [1, 1, 4, 4]
W = [[[[1.0, -0.5], [0.25, 2.0]]], [[[-1.0, 0.5], [1.5, 0.75]]]]  # [2, 1, 2, 2]
B = [0.5, -0.25]

# Written by PyTorch 2.13 (CPU, float64).
TORCH = {
    "conv2d": (
        [
            1.5,
            -1.875,
            4.1875,
            3.0,
            0.75,
            3.25,
            2.5,
            -3.1875,
            1.8125,
            1.5,
            -4.25,
            2.875,
            3.3125,
            1.0,
            0.625,
            1.5,
            4.125,
            -1.5,
            3.375,
            1.3125,
            0.5,
            -1.0,
            4.25,
            -1.625,
            1.75,
            0.125,
            -0.4375,
            -0.625,
            3.5,
            1.25,
            1.125,
            1.0625,
            1.8125,
            -2.875,
            -1.25,
            -1.0,
            -4.0625,
            1.0,
            2.375,
            0.5,
            -1.25,
            4.375,
            2.875,
            -2.3125,
            1.125,
            -0.25,
            1.25,
            -4.0,
            1.875,
            -1.5,
        ],
        [
            5.0,
            5.449999999999999,
            5.9,
            6.35,
            7.25,
            7.699999999999999,
            8.15,
            8.6,
            9.5,
            9.95,
            10.399999999999999,
            10.85,
            11.75,
            12.2,
            12.649999999999999,
            13.1,
        ],
    ),
    "conv2d_same": (
        [
            0.5,
            -1.125,
            0.0625,
            -0.1875,
            2.125,
            1.0,
            -0.5625,
            2.25,
            5.875,
            -1.125,
            3.5,
            -1.125,
            -0.375,
            -2.5,
            0.5,
            1.0,
            0.1875,
            1.6875,
            0.375,
            -1.125,
            -0.0625,
            -1.75,
            3.25,
            -0.5,
            2.375,
            -3.0,
            5.1875,
            -1.5,
            0.375,
            2.5,
            -0.5,
            -1.0,
        ],
        [
            -1.6,
            -0.8,
            -0.8,
            0.8,
            1.15,
            3.6,
            4.050000000000001,
            2.825,
            1.85,
            5.399999999999999,
            5.85,
            3.925,
            4.15,
            8.0,
            8.45,
            4.225000000000001,
        ],
    ),
    "conv_transpose2d": (
        [
            1.5,
            0.1875,
            -2.0,
            1.0,
            4.5,
            0.75,
            2.5,
            -0.25,
            0.75,
            0.375,
            -0.25,
            0.875,
            0.5,
            0.5,
            3.5,
            0.5625,
            1.0,
            0.3125,
            -1.0,
            0.5,
            0.5,
            1.5,
            1.25,
            0.125,
            1.5,
            0.0,
            1.0,
            0.25,
            -3.5,
            0.6875,
            2.0,
            0.75,
            2.5,
            0.625,
            1.5,
            0.5,
            3.5,
            -1.0,
            -1.0,
            1.25,
            1.75,
            -0.125,
            0.5,
            1.25,
            6.5,
            0.125,
            -2.5,
            0.8125,
            3.0,
            0.125,
            -2.125,
            -1.1875,
            2.75,
            1.25,
            1.25,
            0.5,
            0.5,
            -0.5,
            -0.125,
            0.5,
            -0.625,
            -0.25,
            -0.25,
            0.875,
            0.125,
            -0.0625,
            -1.375,
            -0.8125,
            -0.25,
            -0.25,
            -1.25,
            -1.0,
            0.125,
            -1.25,
            0.25,
            -0.75,
            0.0,
            -1.75,
            0.875,
            0.3125,
            1.25,
            0.5,
            0.5,
            0.125,
            -0.25,
            -3.25,
            1.25,
            1.25,
            -1.0,
            -1.5,
            0.375,
            -0.25,
            4.25,
            2.0,
            -2.5,
            -1.375,
            1.625,
            0.6875,
        ],
        [
            3.95,
            12.2,
            13.1,
            14.0,
            10.25,
            16.05,
            16.950000000000003,
            17.85,
            14.1,
            22.35,
            23.249999999999996,
            24.150000000000002,
            17.95,
            28.650000000000002,
            29.549999999999997,
            30.450000000000003,
        ],
    ),
    "conv1d": (
        [2.125, 2.75, 7.375, 1.375, -3.5625, 0.375, 0.875, -0.5625],
        [-0.4, 0.2, -0.4, 0.2, -0.4, 0.2, -0.4, 0.2, 0.775, 0.575, 0.95, 0.85, 1.125, 1.125, 1.3, 1.4],
    ),
}


def t(values):
    return gradgen.tensor(values, dtype=gradgen.float64)


CALLS = {
    "conv2d": lambda x: F.conv2d(x, t(W), t(B), stride=1, padding=1),
    "conv2d_same": lambda x: F.conv2d(x, t(W), None, padding="same", dilation=2),
    "conv_transpose2d": lambda x: F.conv_transpose2d(
        x, t(W).transpose(0, 1), t(B), stride=2, padding=1, output_padding=1
    ),
    "conv1d": lambda x: F.conv1d(x.reshape([1, 2, 8]), t(W).reshape([2, 2, 2]), None, stride=2),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_torch(name):
    x = t(X).requires_grad_(True)
    y = CALLS[name](x)
    k = t([(i + 1) / 10 for i in range(y.numel())]).reshape(list(y.shape))
    (g,) = gradgen.autograd.grad((y * k).sum(), [x])
    expected_y, expected_g = TORCH[name]
    assert flat(y.tolist()) == pytest.approx(expected_y, rel=1e-10, abs=1e-12)
    assert flat(g.tolist()) == pytest.approx(expected_g, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_gradients(name):
    x = t(X).requires_grad_(True)
    gradcheck(lambda x: CALLS[name](x), [x])
    gradgradcheck(lambda x: CALLS[name](x), [x])


def test_errors():
    x = t(X)
    with pytest.raises(RuntimeError, match="expected weight to be divisible by 2"):
        F.conv2d(x, t(W)[:1].expand([3, 1, 2, 2]), groups=2)
    with pytest.raises(RuntimeError, match="Kernel size can't be greater than actual input size"):
        F.conv2d(x, gradgen.ones([1, 1, 5, 5], dtype=gradgen.float64))
    with pytest.raises(RuntimeError, match="padding='same' is not supported for strided convolutions"):
        F.conv2d(x, t(W), stride=2, padding="same")
    with pytest.raises(RuntimeError, match="Expected 3D \\(unbatched\\) or 4D \\(batched\\) input to conv2d"):
        F.conv2d(t([1.0, 2.0]), t(W))
