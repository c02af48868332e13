"""gradgen.nn.functional's adaptive pooling and avg_pool1d against numbers computed by PyTorch
(2.13, CPU, float64) for the same torch.nn.functional calls: the outputs and the gradient of
sum(y * k / 10) in x.
"""

from __future__ import annotations

import pytest
from gradcheck_util import flat

import gradgen
import gradgen.nn.functional as F

X = [
    [
        [
            [0.5, -1.25, 2.0, 1.0, 0.3],
            [1.5, 0.25, -0.75, 0.0, -0.2],
            [-2.0, 0.75, 1.0, 0.5, 1.1],
            [0.0, 3.0, -1.5, 1.25, -0.6],
            [0.9, -0.4, 0.2, -1.0, 2.5],
        ]
    ]
]

# Written by PyTorch 2.13 (CPU, float64).
TORCH = {
    "adaptive_avg_pool2d": (
        [0.375, 0.391666666666667, 0.25, 0.088888888888889, 0.366666666666667, 0.141666666666667],
        [
            0.016666666666667,
            0.016666666666667,
            0.05,
            0.033333333333333,
            0.033333333333333,
            0.05,
            0.05,
            0.127777777777778,
            0.077777777777778,
            0.077777777777778,
            0.033333333333333,
            0.033333333333333,
            0.077777777777778,
            0.044444444444444,
            0.044444444444444,
            0.116666666666667,
            0.116666666666667,
            0.261111111111111,
            0.144444444444444,
            0.144444444444444,
            0.083333333333333,
            0.083333333333333,
            0.183333333333333,
            0.1,
            0.1,
        ],
    ),
    "adaptive_avg_pool2d_none": (
        [
            -0.375,
            0.583333333333333,
            0.65,
            0.875,
            -0.166666666666667,
            -0.1,
            -0.625,
            0.75,
            0.8,
            1.5,
            0.916666666666667,
            0.325,
            0.25,
            -0.4,
            0.75,
        ],
        [
            0.05,
            0.116666666666667,
            0.066666666666667,
            0.216666666666667,
            0.15,
            0.2,
            0.366666666666667,
            0.166666666666667,
            0.466666666666667,
            0.3,
            0.35,
            0.616666666666667,
            0.266666666666667,
            0.716666666666667,
            0.45,
            0.5,
            0.866666666666667,
            0.366666666666667,
            0.966666666666667,
            0.6,
            0.65,
            1.116666666666667,
            0.466666666666667,
            1.216666666666667,
            0.75,
        ],
    ),
    "adaptive_avg_pool2d_mean": (
        [0.362],
        [
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
            0.004,
        ],
    ),
    "adaptive_max_pool2d": (
        [1.5, 2.0, 1.0, 3.0, 3.0, 1.25, 3.0, 3.0, 2.5],
        [
            0.0,
            0.0,
            0.2,
            0.3,
            0.0,
            0.1,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            2.4,
            0.0,
            0.6,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.9,
        ],
    ),
    "adaptive_avg_pool1d": (
        [
            -0.375,
            0.583333333333333,
            0.65,
            0.875,
            -0.166666666666667,
            -0.1,
            -0.625,
            0.75,
            0.8,
            1.5,
            0.916666666666667,
            0.325,
            0.25,
            -0.4,
            0.75,
        ],
        [
            0.05,
            0.116666666666667,
            0.066666666666667,
            0.216666666666667,
            0.15,
            0.2,
            0.366666666666667,
            0.166666666666667,
            0.466666666666667,
            0.3,
            0.35,
            0.616666666666667,
            0.266666666666667,
            0.716666666666667,
            0.45,
            0.5,
            0.866666666666667,
            0.366666666666667,
            0.966666666666667,
            0.6,
            0.65,
            1.116666666666667,
            0.466666666666667,
            1.216666666666667,
            0.75,
        ],
    ),
    "adaptive_max_pool1d": (
        [2.0, 2.0, 1.5, 0.0, 1.0, 1.1, 3.0, 1.25, 0.9, 2.5],
        [
            0.0,
            0.0,
            0.3,
            0.0,
            0.0,
            0.3,
            0.0,
            0.0,
            0.4,
            0.0,
            0.0,
            0.0,
            0.5,
            0.0,
            0.6,
            0.0,
            0.7,
            0.0,
            0.8,
            0.0,
            0.9,
            0.0,
            0.0,
            0.0,
            1.0,
        ],
    ),
    "avg_pool1d": (
        [0.5, 0.375, 0.65, 1.5, -0.25, -0.1, -2.0, 0.875, 0.8, 0.0, 0.75, 0.325, 0.9, -0.1, 0.75],
        [
            0.1,
            0.1,
            0.1,
            0.15,
            0.15,
            0.4,
            0.25,
            0.25,
            0.3,
            0.3,
            0.7,
            0.4,
            0.4,
            0.45,
            0.45,
            1.0,
            0.55,
            0.55,
            0.6,
            0.6,
            1.3,
            0.7,
            0.7,
            0.75,
            0.75,
        ],
    ),
}

CALLS = {
    "adaptive_avg_pool2d": lambda x: F.adaptive_avg_pool2d(x, (3, 2)),
    "adaptive_avg_pool2d_none": lambda x: F.adaptive_avg_pool2d(x, (None, 3)),
    "adaptive_avg_pool2d_mean": lambda x: F.adaptive_avg_pool2d(x, 1),
    "adaptive_max_pool2d": lambda x: F.adaptive_max_pool2d(x, 3),
    "adaptive_avg_pool1d": lambda x: F.adaptive_avg_pool1d(x.reshape([1, 5, 5]), 3),
    "adaptive_max_pool1d": lambda x: F.adaptive_max_pool1d(x.reshape([5, 5]), 2),
    "avg_pool1d": lambda x: F.avg_pool1d(
        x.reshape([1, 5, 5]), 2, stride=2, padding=1, ceil_mode=True, count_include_pad=False
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_torch(name):
    x = gradgen.tensor(X, dtype=gradgen.float64).requires_grad_(True)
    y = CALLS[name](x)
    k = gradgen.tensor([(i + 1) / 10 for i in range(y.numel())], dtype=gradgen.float64).reshape(list(y.shape))
    (g,) = gradgen.autograd.grad((y * k).sum(), [x])
    expected_y, expected_g = TORCH[name]
    assert flat(y.tolist()) == pytest.approx(expected_y, rel=1e-12, abs=1e-12)
    assert flat(g.tolist()) == pytest.approx(expected_g, rel=1e-12, abs=1e-12)


def test_return_indices():
    x = gradgen.tensor(X, dtype=gradgen.float64)
    _, indices = F.adaptive_max_pool2d(x, 3, return_indices=True)
    assert [int(i) for i in flat(indices.tolist())] == [5, 2, 3, 16, 16, 18, 16, 16, 24]
    _, indices = F.adaptive_max_pool1d(x.reshape([5, 5]), 2, return_indices=True)
    assert [int(i) for i in flat(indices.tolist())] == [2, 2, 0, 3, 2, 4, 1, 3, 0, 4]


def test_errors():
    x = gradgen.tensor(X, dtype=gradgen.float64)
    with pytest.raises(RuntimeError, match="elements of output_size must be greater than or equal to 0"):
        F.adaptive_avg_pool2d(x, (-1, 2))
    with pytest.raises(RuntimeError, match=r"adaptive_max_pool2d\(\): Expected 3D or 4D tensor"):
        F.adaptive_max_pool2d(x.reshape([5, 5]), 2)
    with pytest.raises(RuntimeError, match="pad should be at most half of effective kernel size"):
        F.avg_pool1d(x.reshape([1, 5, 5]), 2, padding=2)
    with pytest.raises(RuntimeError, match="Expected 2 to 3 dimensions, but got 4-dimensional tensor"):
        F.adaptive_avg_pool1d(x, 2)
