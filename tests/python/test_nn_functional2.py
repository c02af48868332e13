"""gradgen.nn.functional's max_unpool1d / 2d / 3d (and, below, grid_sample / affine_grid)
against the numbers PyTorch 2.13 printed for the same calls (float64)."""

import pytest

import gradgen
import gradgen.nn.functional as F

# x[i] = (i * 7 % 24) / 4 - 2, shaped [1, 1, 2, 3, 4].
X = [(i * 7 % 24) / 4 - 2 for i in range(24)]


def flat(v):
    return [a for b in v for a in flat(b)] if isinstance(v, list) else [v]


def test_max_unpool3d_inverts_max_pool3d():
    x = gradgen.tensor(X, dtype=gradgen.float64).reshape([1, 1, 2, 3, 4])
    y, indices = F.max_pool3d(x, (1, 2, 2), return_indices=True)
    assert flat(indices.tolist()) == [5, 3, 17, 19]
    u = F.max_unpool3d(y, indices, (1, 2, 2), output_size=[2, 3, 5])
    assert list(u.shape) == [1, 1, 2, 3, 5]
    expected = [0.0] * 30
    expected[3], expected[5], expected[17], expected[19] = 3.25, 0.75, 3.75, 1.25
    assert flat(u.tolist()) == expected
    # The default size: (in - 1) * stride + kernel - 2 * padding.
    assert list(F.max_unpool3d(y, indices.clamp(max=15), (1, 2, 2)).shape) == [1, 1, 2, 2, 4]


def test_max_unpool1d_is_max_unpool2d_of_a_column():
    # torch's F.max_pool1d(x.reshape(1, 2, 12), 3, return_indices=True).
    y = gradgen.tensor([[[1.5, 3.25, 2.5, 3.5], [2.75, 3.75, 3.0, 2.25]]], dtype=gradgen.float64)
    indices = gradgen.tensor([[[2, 3, 6, 10], [1, 5, 8, 11]]], dtype=gradgen.int64)
    u = F.max_unpool1d(y, indices, 3, output_size=[13])
    assert list(u.shape) == [1, 2, 13]
    expected = [0.0, 0.0, 1.5, 3.25, 0.0, 0.0, 2.5, 0.0, 0.0, 0.0, 3.5, 0.0, 0.0]
    expected += [0.0, 2.75, 0.0, 0.0, 0.0, 3.75, 0.0, 0.0, 3.0, 0.0, 0.0, 2.25, 0.0]
    assert flat(u.tolist()) == expected


def test_max_unpool_gradient_gathers_at_the_indices():
    x = gradgen.tensor(X[:4], dtype=gradgen.float64).reshape([1, 1, 1, 2, 2]).requires_grad_(True)
    indices = gradgen.tensor([[[[[0, 5], [10, 15]]]]], dtype=gradgen.int64)
    u = F.max_unpool3d(x, indices, (1, 2, 2))
    k = gradgen.tensor([(i + 1) / 10 for i in range(16)], dtype=gradgen.float64).reshape([1, 1, 1, 4, 4])
    (g,) = gradgen.autograd.grad((u * k).sum(), [x])
    assert flat(g.tolist()) == pytest.approx([0.1, 0.6, 1.1, 1.6], rel=1e-12)


def test_max_unpool_errors():
    x = gradgen.tensor(X, dtype=gradgen.float64).reshape([1, 1, 2, 3, 4])
    y, indices = F.max_pool3d(x, (1, 2, 2), return_indices=True)
    with pytest.raises(ValueError, match=r'invalid output_size "\[5, 5, 5\]" \(dim 1 must be between 0 and 4\)'):
        F.max_unpool3d(y, indices, 2, output_size=[5, 5, 5])
    with pytest.raises(ValueError, match="output_size should be a sequence containing 3 or 5 elements"):
        F.max_unpool3d(y, indices, (1, 2, 2), output_size=[2, 3])
    y1 = gradgen.zeros([1, 2, 4], dtype=gradgen.float64)
    with pytest.raises(ValueError, match=r"dim 0 must be between 9 and 15"):
        F.max_unpool1d(y1, gradgen.zeros([1, 2, 4], dtype=gradgen.int64), 3, output_size=[20])
    with pytest.raises(RuntimeError, match="max_unpool3d: strides should be greater than zero"):
        gradgen.max_unpool3d(y, indices, [2, 2, 4], [1, 0, 1], [0, 0, 0])
    with pytest.raises(RuntimeError, match="max_unpool3d: Found an invalid max index: 17"):
        gradgen.max_unpool3d(y, indices, [2, 2, 4], [1, 2, 2], [0, 0, 0])
    with pytest.raises(RuntimeError, match="max_unpool3d: Input to max_unpooling3d should be a 4d or 5d"):
        gradgen.max_unpool3d(y[0, 0], indices[0, 0], [2, 2, 4], [1, 2, 2], [0, 0, 0])
