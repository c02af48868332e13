"""gradgen.nn.functional's max_unpool1d / 2d / 3d (and, below, grid_sample)
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


# grid_sample: x = X[:12] as [1, 1, 3, 4], the grid below ([1, 2, 2, 2], two points outside
# [-1, 1]); the values torch.nn.functional.grid_sample printed (rounded to 12 places).
GRID = [[-1.3, -0.2], [0.35, 0.9], [1.4, -1.15], [-0.6, 0.45]]
GRID_SAMPLE = [
    ("bilinear", "zeros", False, [0.0, 1.7225, 0.0, 0.2]),
    ("bilinear", "zeros", True, [-0.66, 3.29375, 1.105, 0.5]),
    ("bilinear", "border", False, [-1.3, 2.65, 3.25, 0.2]),
    ("bilinear", "border", True, [-1.2, 3.29375, 3.25, 0.5]),
    ("bilinear", "reflection", False, [-1.125, 2.65, 2.725, 0.2]),
    ("bilinear", "reflection", True, [-0.4125, 3.29375, 1.99, 0.5]),
    ("nearest", "zeros", False, [0.0, 3.5, 0.0, 0.0]),
    ("nearest", "zeros", True, [-1.0, 3.5, 0.0, 0.75]),
    ("nearest", "border", False, [-1.0, 3.5, 3.25, 0.0]),
    ("nearest", "border", True, [-1.0, 3.5, 3.25, 0.75]),
    ("nearest", "reflection", False, [-1.0, 3.5, 3.25, 0.0]),
    ("nearest", "reflection", True, [-1.0, 3.5, 1.5, 0.75]),
    ("bicubic", "zeros", False, [0.0901378125, 2.049383375, -0.113167103027, 0.170452063232]),
    ("bicubic", "zeros", True, [-0.9171195, 3.582661270508, 1.4026965625, 0.4688860625]),
    ("bicubic", "border", False, [-1.38925, 3.03090625, 3.45560546875, 0.15323046875]),
    ("bicubic", "border", True, [-1.4506640625, 3.373517855469, 3.81751975, 0.42790625]),
    ("bicubic", "reflection", False, [-1.2575625, 3.090625, 3.3417784375, 0.15323046875]),
    ("bicubic", "reflection", True, [-0.844171875, 3.432306962891, 2.39798125, 0.3854375]),
]


def grid_inputs():
    x = gradgen.tensor(X[:12], dtype=gradgen.float64).reshape([1, 1, 3, 4])
    return x, gradgen.tensor(GRID, dtype=gradgen.float64).reshape([1, 2, 2, 2])


@pytest.mark.parametrize("mode,padding_mode,align_corners,expected", GRID_SAMPLE)
def test_grid_sample_matches_torch(mode, padding_mode, align_corners, expected):
    x, grid = grid_inputs()
    y = F.grid_sample(x, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)
    assert list(y.shape) == [1, 1, 2, 2]
    assert flat(y.tolist()) == pytest.approx(expected, abs=1e-11)


def test_grid_sample_bicubic_reflection_gradients():
    x, grid = grid_inputs()
    x.requires_grad_(True)
    grid.requires_grad_(True)
    y = F.grid_sample(x, grid, mode="bicubic", padding_mode="reflection", align_corners=False)
    k = gradgen.tensor([0.1, 0.2, 0.3, 0.4], dtype=gradgen.float64).reshape([1, 1, 2, 2])
    gx, gg = gradgen.autograd.grad((y * k).sum(), [x, grid])
    assert flat(gx.tolist()) == pytest.approx(
        [
            0.010190685937,
            -0.020796662109,
            0.113332679297,
            0.248643609375,
            0.179924335938,
            0.059658642578,
            -0.053381806641,
            -0.038349609375,
            0.190084978125,
            0.067138019531,
            0.202349127344,
            0.041206,
        ],
        abs=1e-11,
    )
    assert flat(gg.tolist()) == pytest.approx(
        [-0.265125, 0.167625, -1.515, 0.0675, -1.4316778125, 0.50513625, 1.1445, 0.49753125], abs=1e-11
    )


def test_grid_sample_align_corners_none_warns_and_means_false():
    x, grid = grid_inputs()
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior has changed"):
        y = F.grid_sample(x, grid)
    assert flat(y.tolist()) == pytest.approx(GRID_SAMPLE[0][3], abs=1e-11)


def test_grid_sample_errors():
    x, grid = grid_inputs()
    with pytest.raises(ValueError, match="expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'area'"):
        F.grid_sample(x, grid, mode="area", align_corners=False)
    with pytest.raises(ValueError, match="expected padding_mode to be 'zeros', 'border', or 'reflection'"):
        F.grid_sample(x, grid, padding_mode="circular", align_corners=False)
    with pytest.raises(RuntimeError, match="expected grid and input to have same batch size"):
        F.grid_sample(x, grid.expand([2, 2, 2, 2]), align_corners=False)
    with pytest.raises(RuntimeError, match="expected grid to have size 2 in last dimension"):
        F.grid_sample(x, gradgen.zeros([1, 2, 2, 3], dtype=gradgen.float64), align_corners=False)
    with pytest.raises(RuntimeError, match="expected 4D input and grid with same number of dimensions"):
        F.grid_sample(x, gradgen.zeros([1, 2, 2], dtype=gradgen.float64), align_corners=False)
    with pytest.raises(RuntimeError, match="expected input to have non-empty spatial dimensions"):
        F.grid_sample(gradgen.zeros([1, 1, 0, 2], dtype=gradgen.float64), grid, align_corners=False)
    # 5-D input is grid_sampler_3d's (test_nn_antialias_grid3d.py); bicubic is 2-D only.
    with pytest.raises(RuntimeError, match="bicubic interpolation only supports 4D input"):
        F.grid_sample(
            gradgen.zeros([1, 1, 2, 2, 2], dtype=gradgen.float64),
            gradgen.zeros([1, 1, 1, 1, 3], dtype=gradgen.float64),
            mode="bicubic",
            align_corners=False,
        )


# Higher derivatives (the double backward is differentiable, as PyTorch's): the gradients of
# |d/dgrid (|d/dx (y.y)|^2 + |d/dgrid (y.y)|^2)|^2, reflection, align_corners, as torch printed.
GRID_HIGHER = [
    (
        "bilinear",
        [
            -9061.9205928954,
            -450.9868261436,
            11881.6117485978,
            1106532.081857203,
            -29475.2812643711,
            24000.4342302945,
            -1024335.3199527902,
            -3606637.452655672,
            -3480.7922272999,
            24335.049612734,
            104964335.84713677,
            -67593542.64329304,
        ],
        [
            72326.446611936,
            -26859.7024066425,
            -221662979.12966576,
            39964665.89935027,
            -4987344.007331727,
            4946056.45815667,
            87954.3268459067,
            33817.4747420998,
        ],
    ),
    (
        "bicubic",
        [
            -34193.9899929252,
            97760.4874267771,
            -3601730.5969193904,
            3138890.28956894,
            -74461.7865473422,
            710685.6221392563,
            7748553.971198941,
            -3969705.9317311784,
            -30643.9357310619,
            7326072.541359328,
            267266095.6516227,
            -115255331.29861395,
        ],
        [
            -179023.1364361022,
            63305.924187243,
            669110606.4374912,
            -54161308.9871549,
            4957173.076148666,
            -4858002.407752847,
            -252054.1909396471,
            -222186.2084875364,
        ],
    ),
]


@pytest.mark.parametrize("mode,expected_x,expected_grid", GRID_HIGHER)
def test_grid_sample_higher_derivatives_match_torch(mode, expected_x, expected_grid):
    x, grid = grid_inputs()
    x.requires_grad_(True)
    grid.requires_grad_(True)
    y = F.grid_sample(x, grid, mode=mode, padding_mode="reflection", align_corners=True)
    gx, gg = gradgen.autograd.grad((y * y).sum(), [x, grid], create_graph=True)
    hx, hg = gradgen.autograd.grad((gg * gg).sum() + (gx * gx).sum(), [x, grid], create_graph=True)
    tx, tg = gradgen.autograd.grad((hg * hg).sum(), [x, grid])
    assert flat(tx.tolist()) == pytest.approx(expected_x, rel=1e-9, abs=1e-6)
    assert flat(tg.tolist()) == pytest.approx(expected_grid, rel=1e-9, abs=1e-6)
