"""gradgen.nn.functional's pooling against numbers computed by PyTorch (2.13, CPU, float64) for
the same torch.nn.functional calls: the outputs and the gradient of sum(y * k / 10) in x.
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
    "max_pool2d": (
        [0.5, 2.0, 1.0, 1.5, 1.0, 1.1, 0.9, 3.0, 2.5],
        [
            0.1,
            0.0,
            0.2,
            0.3,
            0.0,
            0.4,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.5,
            0.0,
            0.6,
            0.0,
            0.8,
            0.0,
            0.0,
            0.0,
            0.7,
            0.0,
            0.0,
            0.0,
            0.9,
        ],
    ),
    "avg_pool2d": (
        [0.25, 0.208333333333333, 0.275, 0.583333333333333, 0.5, 0.341666666666667, 0.875, 0.258333333333333, 0.5375],
        [
            0.025,
            0.058333333333333,
            0.033333333333333,
            0.108333333333333,
            0.075,
            0.091666666666667,
            0.180555555555556,
            0.088888888888889,
            0.263888888888889,
            0.175,
            0.066666666666667,
            0.122222222222222,
            0.055555555555556,
            0.155555555555556,
            0.1,
            0.241666666666667,
            0.430555555555556,
            0.188888888888889,
            0.513888888888889,
            0.325,
            0.175,
            0.308333333333333,
            0.133333333333333,
            0.358333333333333,
            0.225,
        ],
    ),
    "avg_pool2d_divisor": (
        [
            0.333333333333333,
            0.75,
            0.033333333333333,
            0.583333333333333,
            0.416666666666667,
            0.166666666666667,
            0.166666666666667,
            -0.266666666666667,
            0.833333333333333,
        ],
        [
            0.033333333333333,
            0.033333333333333,
            0.066666666666667,
            0.066666666666667,
            0.1,
            0.033333333333333,
            0.033333333333333,
            0.066666666666667,
            0.066666666666667,
            0.1,
            0.133333333333333,
            0.133333333333333,
            0.166666666666667,
            0.166666666666667,
            0.2,
            0.133333333333333,
            0.133333333333333,
            0.166666666666667,
            0.166666666666667,
            0.2,
            0.233333333333333,
            0.233333333333333,
            0.266666666666667,
            0.266666666666667,
            0.3,
        ],
    ),
    "max_pool1d": (
        [0.5, 2.0, 2.0, 1.0, 1.5, 0.25, 0.0, 0.0, 0.75, 1.0, 1.0, 1.1, 3.0, 3.0, 1.25, 1.25, 0.9, 0.2, 0.2, 2.5],
        [
            0.1,
            0.0,
            0.5,
            0.4,
            0.0,
            0.5,
            0.6,
            0.0,
            1.5,
            0.0,
            0.0,
            0.9,
            2.1,
            0.0,
            1.2,
            0.0,
            2.7,
            0.0,
            3.1,
            0.0,
            1.7,
            0.0,
            3.7,
            0.0,
            2.0,
        ],
    ),
}
INDICES = [5, 2, 16, 18]

CALLS = {
    "max_pool2d": lambda x: F.max_pool2d(x, 2, padding=1, ceil_mode=True),
    "avg_pool2d": lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False),
    "avg_pool2d_divisor": lambda x: F.avg_pool2d(x, 2, divisor_override=3, ceil_mode=True),
    "max_pool1d": lambda x: F.max_pool1d(x.reshape([1, 5, 5]), 2, stride=1),
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
    _, indices = F.max_pool2d(gradgen.tensor(X, dtype=gradgen.float64), 2, return_indices=True)
    assert [int(i) for i in flat(indices.tolist())] == INDICES


def test_errors():
    x = gradgen.tensor(X, dtype=gradgen.float64)
    with pytest.raises(RuntimeError, match="pad should be at most half of effective kernel size"):
        F.max_pool2d(x, 2, padding=2)
    with pytest.raises(RuntimeError, match="divisor must be not zero"):
        F.avg_pool2d(x, 2, divisor_override=0)


# 3-D pooling and max_unpool2d (issue 26, remaining ops): a [1, 1, 2, 3, 4] input; values, gradients
# and indices written by PyTorch 2.13 (CPU, float64) for the same torch.nn.functional calls.
X3 = [
    [
        [
            [[-1.25, 0.5, -0.5, 1.25], [0.25, -0.75, 1.0, 0.0], [-1.0, 0.75, -0.25, -1.25]],
            [[0.5, -0.5, 1.25, 0.25], [-0.75, 1.0, 0.0, -1.0], [0.75, -0.25, -1.25, 0.5]],
        ]
    ]
]

TORCH3 = {
    "avg_pool3d": (
        [1, 1, 2, 2, 2],
        [-0.3125, 0.25, -0.1875, -0.083333333333333, 0.0625, 0.166666666666667, 0.1875, -0.166666666666667],
        [
            0.025,
            0.058333333333333,
            0.033333333333333,
            0.033333333333333,
            0.1,
            0.2,
            0.1,
            0.1,
            0.075,
            0.141666666666667,
            0.066666666666667,
            0.066666666666667,
            0.125,
            0.225,
            0.1,
            0.1,
            0.3,
            0.533333333333333,
            0.233333333333333,
            0.233333333333333,
            0.175,
            0.308333333333333,
            0.133333333333333,
            0.133333333333333,
        ],
    ),
    "avg_pool3d_divisor": (
        [1, 1, 1, 2, 2],
        [-0.333333333333333, 0.75, 0.083333333333333, -0.75],
        [
            0.033333333333333,
            0.033333333333333,
            0.066666666666667,
            0.066666666666667,
            0.033333333333333,
            0.033333333333333,
            0.066666666666667,
            0.066666666666667,
            0.1,
            0.1,
            0.133333333333333,
            0.133333333333333,
            0.033333333333333,
            0.033333333333333,
            0.066666666666667,
            0.066666666666667,
            0.033333333333333,
            0.033333333333333,
            0.066666666666667,
            0.066666666666667,
            0.1,
            0.1,
            0.133333333333333,
            0.133333333333333,
        ],
    ),
    "max_pool3d": (
        [1, 1, 3, 4, 5],
        [
            -1.25,
            0.5,
            0.5,
            1.25,
            1.25,
            0.25,
            0.5,
            1.0,
            1.25,
            1.25,
            0.25,
            0.75,
            1.0,
            1.0,
            0.0,
            -1.0,
            0.75,
            0.75,
            -0.25,
            -1.25,
            0.5,
            0.5,
            1.25,
            1.25,
            1.25,
            0.5,
            1.0,
            1.25,
            1.25,
            1.25,
            0.75,
            1.0,
            1.0,
            1.0,
            0.5,
            0.75,
            0.75,
            0.75,
            0.5,
            0.5,
            0.5,
            0.5,
            1.25,
            1.25,
            0.25,
            0.5,
            1.0,
            1.25,
            1.25,
            0.25,
            0.75,
            1.0,
            1.0,
            0.5,
            0.5,
            0.75,
            0.75,
            -0.25,
            0.5,
            0.5,
        ],
        [
            0.1,
            3.4,
            0.0,
            13.6,
            1.7,
            0.0,
            10.2,
            1.5,
            1.6,
            12.2,
            1.9,
            2.0,
            17.6,
            0.0,
            23.5,
            9.5,
            0.0,
            21.1,
            0.0,
            0.0,
            23.099999999999998,
            5.8,
            0.0,
            34.2,
        ],
    ),
    "max_unpool2d": (
        [1, 2, 3, 5],
        [
            0.0,
            0.5,
            0.0,
            1.25,
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
            0.0,
            0.0,
            0.0,
            1.25,
            0.0,
            0.0,
            1.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
        [
            0.0,
            0.2,
            0.0,
            0.4,
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
            1.8,
            0.0,
            0.0,
            2.1,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
    ),
}
INDICES3 = [17, 14, 3, 17, 6, 6]

CALLS3 = {
    "max_pool3d": lambda x: F.max_pool3d(x, 2, stride=1, padding=1, ceil_mode=True),
    "avg_pool3d": lambda x: F.avg_pool3d(x, (1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), count_include_pad=False),
    "avg_pool3d_divisor": lambda x: F.avg_pool3d(x, 2, divisor_override=3, ceil_mode=True),
    "max_unpool2d": lambda x: F.max_unpool2d(
        *F.max_pool2d(x.reshape([1, 2, 3, 4]), 2, return_indices=True), 2, output_size=[3, 5]
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS3))
def test_3d_matches_torch(name):
    x = gradgen.tensor(X3, dtype=gradgen.float64).requires_grad_(True)
    y = CALLS3[name](x)
    k = gradgen.tensor([(i + 1) / 10 for i in range(y.numel())], dtype=gradgen.float64).reshape(list(y.shape))
    (g,) = gradgen.autograd.grad((y * k).sum(), [x])
    shape, expected_y, expected_g = TORCH3[name]
    assert list(y.shape) == shape
    assert flat(y.tolist()) == pytest.approx(expected_y, rel=1e-12, abs=1e-12)
    assert flat(g.tolist()) == pytest.approx(expected_g, rel=1e-12, abs=1e-12)


def test_3d_return_indices():
    x = gradgen.tensor(X3, dtype=gradgen.float64)
    _, indices = F.max_pool3d(x, (2, 2, 2), stride=1, return_indices=True)
    assert [int(i) for i in flat(indices.tolist())] == INDICES3


def test_3d_errors():
    x = gradgen.tensor(X3, dtype=gradgen.float64)
    with pytest.raises(RuntimeError, match="max_pool3d_with_indices: pad should be smaller than or equal to half"):
        F.max_pool3d(x, 2, padding=2)
    with pytest.raises(RuntimeError, match="avg_pool3d: divisor must be not zero"):
        F.avg_pool3d(x, 2, divisor_override=0)
    with pytest.raises(RuntimeError, match="avg_pool3d: Expected 4D or 5D"):
        F.avg_pool3d(x.reshape([2, 3, 4]), 2)
    with pytest.raises(RuntimeError, match="Output size is too small"):
        F.max_pool3d(x, 3)
    y, indices = F.max_pool2d(x.reshape([1, 2, 3, 4]), 2, return_indices=True)
    with pytest.raises(ValueError, match="invalid output_size"):
        F.max_unpool2d(y, indices, 2, output_size=[5, 5])
    with pytest.raises(ValueError, match="output_size should be a sequence containing 2 or 4 elements"):
        F.max_unpool2d(y, indices, 2, output_size=[2])
    with pytest.raises(RuntimeError, match="max_unpool2d: Found an invalid max index: 9"):
        gradgen.max_unpool2d(y, gradgen.tensor([[[[0, 9]], [[1, 2]]]], dtype=gradgen.int64), [3, 3])
    with pytest.raises(RuntimeError, match="max_unpool2d: elements in indices should be type int64"):
        gradgen.max_unpool2d(y, gradgen.zeros([1, 2, 1, 2], dtype=gradgen.float64), [3, 3])
