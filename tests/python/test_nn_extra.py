"""gradgen.nn.functional's in-place activations, random activations / dropouts and the functions
composed as in torch/nn/functional.py (normalize, bilinear, pdist, affine_grid, the losses, ...).

Values against PyTorch are tests/differential/cases_nn3.py's; here: gradients against finite
differences in float64 (gradcheck_util), in-place semantics, and the random functions'
statistics, masks and straight-through gradients.
"""

from __future__ import annotations

import math
import warnings

import pytest
from gradcheck_util import flat, gradcheck

import gradgen
import gradgen.nn.functional as F


def _t(values, requires_grad=False, dtype=gradgen.float64):
    return gradgen.tensor(values, dtype=dtype, requires_grad=requires_grad)


def _randn(*shape, seed=0, requires_grad=True):
    g = gradgen.Generator()
    g.manual_seed(seed)
    x = gradgen.randn(*shape, dtype=gradgen.float64, generator=g)
    return x.detach().requires_grad_(requires_grad)


# ---------------------------------------------------------------------------------------------
# In-place activations
# ---------------------------------------------------------------------------------------------

X = [-1.5, -0.4, 0.3, 0.8, 2.5, 7.0]

INPLACE = {
    "relu_": (lambda x: F.relu_(x), lambda x: F.relu(x)),
    "elu_": (lambda x: F.elu_(x, 0.7), lambda x: F.elu(x, 0.7)),
    "celu_": (lambda x: F.celu_(x, 1.5), lambda x: F.celu(x, 1.5)),
    "selu_": (lambda x: F.selu_(x), lambda x: F.selu(x)),
    "leaky_relu_": (lambda x: F.leaky_relu_(x, 0.2), lambda x: F.leaky_relu(x, 0.2)),
    "hardtanh_": (lambda x: F.hardtanh_(x, -0.5, 2.0), lambda x: F.hardtanh(x, -0.5, 2.0)),
    "threshold_": (lambda x: F.threshold_(x, 0.5, 3.0), lambda x: F.threshold(x, 0.5, 3.0)),
    "elu.inplace": (lambda x: F.elu(x, inplace=True), lambda x: F.elu(x)),
    "silu.inplace": (lambda x: F.silu(x, inplace=True), lambda x: F.silu(x)),
    "mish.inplace": (lambda x: F.mish(x, inplace=True), lambda x: F.mish(x)),
    "celu.inplace": (lambda x: F.celu(x, inplace=True), lambda x: F.celu(x)),
    "selu.inplace": (lambda x: F.selu(x, inplace=True), lambda x: F.selu(x)),
    "relu.inplace": (lambda x: F.relu(x, inplace=True), lambda x: F.relu(x)),
    "relu6.inplace": (lambda x: F.relu6(x, inplace=True), lambda x: F.relu6(x)),
    "leaky_relu.inplace": (lambda x: F.leaky_relu(x, inplace=True), lambda x: F.leaky_relu(x)),
    "hardtanh.inplace": (lambda x: F.hardtanh(x, inplace=True), lambda x: F.hardtanh(x)),
    "hardsigmoid.inplace": (lambda x: F.hardsigmoid(x, inplace=True), lambda x: F.hardsigmoid(x)),
    "hardswish.inplace": (lambda x: F.hardswish(x, inplace=True), lambda x: F.hardswish(x)),
    "threshold.inplace": (lambda x: F.threshold(x, 0.5, 3.0, inplace=True), lambda x: F.threshold(x, 0.5, 3.0)),
    "rrelu_.eval": (lambda x: F.rrelu_(x), lambda x: F.rrelu(x)),
    "rrelu.inplace.eval": (lambda x: F.rrelu(x, inplace=True), lambda x: F.leaky_relu(x, (1 / 8 + 1 / 3) / 2)),
}


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_activation_writes_into_its_input(name):
    inplace, reference = INPLACE[name]
    x = _t(X)
    version = x._version
    out = inplace(x)
    assert out is x
    assert x._version > version
    expected = flat(reference(_t(X)).tolist())
    assert flat(x.tolist()) == pytest.approx(expected, rel=1e-14, abs=1e-15)


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_activation_records_its_backward(name):
    inplace, reference = INPLACE[name]

    def through_a_clone(x):
        y = x.clone()
        inplace(y)
        return y

    x = _t(X, requires_grad=True)
    gradcheck(through_a_clone, [x])
    # The same gradient as the out-of-place op's.
    y = through_a_clone(x)
    (g1,) = gradgen.autograd.grad([y.sum()], [x])
    (g2,) = gradgen.autograd.grad([reference(x).sum()], [x])
    assert flat(g1.tolist()) == pytest.approx(flat(g2.tolist()), rel=1e-14, abs=1e-15)


@pytest.mark.parametrize("name", ["relu_", "elu_", "leaky_relu_", "hardtanh_", "threshold_", "silu.inplace"])
def test_inplace_activation_refuses_a_leaf_that_requires_grad(name):
    x = _t(X, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf"):
        INPLACE[name][0](x)


def test_inplace_elu_after_a_use_of_its_input_is_caught_by_the_version_check():
    x = _t(X, requires_grad=True)
    y = x * 1.0
    z = gradgen.sin(y)  # saves y
    F.elu_(y)
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        z.sum().backward()


def test_inplace_forward_mode_tangents_match_the_out_of_place_op():
    import gradgen.forward_ad as fwAD

    for name in ["elu_", "celu_", "leaky_relu_", "threshold_", "hardtanh_", "silu.inplace"]:
        inplace, reference = INPLACE[name]
        tangent = _t([0.5, -1.0, 2.0, 0.25, -0.75, 1.5])
        with fwAD.dual_level():
            dual = fwAD.make_dual(_t(X), tangent)
            y = inplace(dual * 1.0)
            got = flat(fwAD.unpack_dual(y).tangent.tolist())
            dual2 = fwAD.make_dual(_t(X), tangent)
            want = flat(fwAD.unpack_dual(reference(dual2)).tangent.tolist())
        assert got == pytest.approx(want, rel=1e-14, abs=1e-15), name


# ---------------------------------------------------------------------------------------------
# Compositions: gradients against finite differences
# ---------------------------------------------------------------------------------------------

GRADS = {
    "softsign": (lambda x: F.softsign(x), [(3, 4)]),
    "softmin": (lambda x: F.softmin(x, dim=1), [(3, 4)]),
    "normalize": (lambda x: F.normalize(x, dim=1), [(3, 4)]),
    "normalize.p1": (lambda x: F.normalize(x, p=1.0, dim=0), [(3, 4)]),
    "local_response_norm.3d": (lambda x: F.local_response_norm(x, 2), [(2, 5, 3)]),
    "local_response_norm.4d": (lambda x: F.local_response_norm(x, 3, alpha=0.1, beta=0.6, k=2.0), [(2, 4, 3, 2)]),
    "bilinear": (lambda a, b, w, c: F.bilinear(a, b, w, c), [(2, 3), (2, 4), (5, 3, 4), (5,)]),
    "pdist": (lambda x: F.pdist(x), [(4, 3)]),
    "pdist.p1.5": (lambda x: F.pdist(x, 1.5), [(4, 3)]),
    "affine_grid.2d": (lambda t: F.affine_grid(t, [2, 1, 3, 4], align_corners=False), [(2, 2, 3)]),
    "affine_grid.3d": (lambda t: F.affine_grid(t, [1, 1, 2, 3, 2], align_corners=True), [(1, 3, 4)]),
    "multilabel_soft_margin_loss": (
        lambda x, w: F.multilabel_soft_margin_loss(x, _t([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]]), w),
        [(2, 3), (3,)],
    ),
    "triplet_margin_with_distance_loss": (
        lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, swap=True, margin=2.0),
        [(3, 4), (3, 4), (3, 4)],
    ),
    "adaptive_avg_pool3d": (lambda x: F.adaptive_avg_pool3d(x, (2, 3, 2)), [(1, 2, 5, 4, 3)]),
    "adaptive_max_pool3d": (lambda x: F.adaptive_max_pool3d(x, (2, 2, 2)), [(2, 3, 3, 4)]),
    "interpolate.nearest_exact.5d": (
        lambda x: F.interpolate(x, size=(3, 5, 2), mode="nearest-exact"),
        [(1, 2, 2, 3, 4)],
    ),
    "interpolate.area.5d": (lambda x: F.interpolate(x, size=(2, 2, 3), mode="area"), [(1, 1, 3, 4, 5)]),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradient_of_the_compositions(name):
    fn, shapes = GRADS[name]
    inputs = [_randn(*s, seed=i) for i, s in enumerate(shapes)]
    gradcheck(fn, inputs)


@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_multi_margin_loss_gradient(p, reduction):
    target = gradgen.tensor([1, 3, 0], dtype=gradgen.int64)
    weight = _t([0.5, 1.0, 2.0, 1.5])
    gradcheck(
        lambda x: F.multi_margin_loss(x, target, p=p, margin=0.7, weight=weight, reduction=reduction), [_randn(3, 4)]
    )


@pytest.mark.parametrize("log_input", [True, False])
@pytest.mark.parametrize("full", [True, False])
def test_poisson_nll_loss_gradient(log_input, full):
    target = _t([[0.0, 1.0, 2.5], [4.0, 0.5, 3.0]])
    x = _t([[0.3, 1.2, 0.8], [2.0, 0.4, 1.1]], requires_grad=True)
    gradcheck(lambda x: F.poisson_nll_loss(x, target, log_input=log_input, full=full, reduction="sum"), [x])


def test_gaussian_nll_loss_gradient_and_var_shapes():
    x, y = _randn(3, 4), _randn(3, 4, seed=1, requires_grad=False)
    for var_shape in [(3, 4), (3,), (3, 1), (1, 4)]:
        var = (_randn(*var_shape, seed=2, requires_grad=False).abs() + 0.1).requires_grad_(True)
        gradcheck(lambda x, v: F.gaussian_nll_loss(x, y, v, full=True), [x, var])
    with pytest.raises(ValueError, match="var is of incorrect size"):
        F.gaussian_nll_loss(x, y, _t([[1.0, 2.0]]))
    with pytest.raises(ValueError, match="var has negative entry"):
        F.gaussian_nll_loss(x, y, _t([[1.0], [-1.0], [1.0]]))
    with pytest.raises(ValueError, match="var has negative entry"):
        F.gaussian_nll_loss(x, y, -1.0)
    with pytest.raises(ValueError, match="is not valid"):
        F.gaussian_nll_loss(x, y, 1.0, reduction="avg")
    # The clamp at eps is not differentiated: var's gradient passes it.
    v = _t([[1e-9]] * 3, requires_grad=True)
    F.gaussian_nll_loss(x.detach(), y, v, reduction="sum").backward()
    assert all(g != 0.0 for g in flat(v.grad.tolist()))


def test_hinge_embedding_loss_gradient():
    target = _t([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])
    gradcheck(lambda x: F.hinge_embedding_loss(x, target, margin=0.8, reduction="none"), [_randn(2, 3)])


def test_embedding_max_norm_renormalizes_the_rows_it_reads():
    w = _t([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]], requires_grad=True)
    version = w._version
    out = F.embedding(gradgen.tensor([0, 1, 0], dtype=gradgen.int64), w, max_norm=1.0)
    assert w._version > version
    rows = w.tolist()
    assert math.hypot(*rows[0]) == pytest.approx(1.0, abs=1e-6)
    assert rows[1] == [0.3, 0.4] and rows[2] == [6.0, 8.0]  # within max_norm / not named
    out.sum().backward()
    assert flat(w.grad.tolist()) == [2.0, 2.0, 1.0, 1.0, 0.0, 0.0]
    bag_w = _t([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    F.embedding_bag(gradgen.tensor([[2, 1]], dtype=gradgen.int64), bag_w, max_norm=2.0, norm_type=2.0)
    assert math.hypot(*bag_w.tolist()[2]) == pytest.approx(2.0, abs=1e-6)


# ---------------------------------------------------------------------------------------------
# Random functions
# ---------------------------------------------------------------------------------------------


def test_gumbel_softmax_soft_and_hard():
    gradgen.manual_seed(0)
    logits = _randn(4, 5)
    soft = F.gumbel_softmax(logits, tau=0.5)
    assert list(soft.shape) == [4, 5]
    assert [sum(r) for r in soft.tolist()] == pytest.approx([1.0] * 4, abs=1e-12)
    hard = F.gumbel_softmax(logits, tau=0.5, hard=True, dim=1)
    for row in hard.tolist():
        assert sorted(row) == pytest.approx([0.0] * 4 + [1.0], abs=1e-12)
    # Straight through: the gradient is the soft sample's (non-zero, summing to 0 per row for a
    # constant upstream gradient times the one-hot's).
    w = _t([[1.0, 2.0, 3.0, 4.0, 5.0]] * 4)
    (grad,) = gradgen.autograd.grad([(hard * w).sum()], [logits])
    assert any(abs(g) > 1e-8 for g in flat(grad.tolist()))
    for row in grad.tolist():
        assert sum(row) == pytest.approx(0.0, abs=1e-10)
    with pytest.warns(UserWarning, match="eps"):
        F.gumbel_softmax(logits, eps=1e-5)
    # dim 0: one-hot down the columns.
    cols = F.gumbel_softmax(logits, hard=True, dim=0).tolist()
    assert [sum(r[j] for r in cols) for j in range(5)] == pytest.approx([1.0] * 5)


def test_rrelu_training_draws_slopes_in_the_range():
    gradgen.manual_seed(1)
    x = _t([-1.0] * 2000 + [2.0] * 10, requires_grad=True)
    y = F.rrelu(x, 0.1, 0.3, training=True)
    values = flat(y.tolist())
    negatives = [-v for v in values[:2000]]
    assert min(negatives) >= 0.1 and max(negatives) <= 0.3
    assert sum(negatives) / 2000 == pytest.approx(0.2, abs=0.01)
    assert values[2000:] == [2.0] * 10
    y.sum().backward()
    assert flat(x.grad.tolist())[:2000] == pytest.approx(negatives)  # the slopes drawn
    with pytest.raises(RuntimeError, match="Lower bound should be less than or equal"):
        F.rrelu(x, 0.5, 0.1)
    z = _t([-1.0, 3.0])
    assert F.rrelu_(z, 0.2, 0.2, training=True) is z and flat(z.tolist()) == pytest.approx([-0.2, 3.0])


def _channels_kept(out, c_shape):
    """Per (n, c) of out: whether the whole channel was kept (True), dropped (False)."""
    n, c = c_shape
    vals = out.reshape([n, c, -1]).tolist()
    kept = []
    for row in vals:
        for ch in row:
            assert all(v == 0.0 for v in ch) or all(v != 0.0 for v in ch), "a channel partly dropped"
            kept.append(ch[0] != 0.0)
    return kept


@pytest.mark.parametrize("fn,shape", [(F.dropout2d, [40, 50, 2, 3]), (F.dropout3d, [40, 50, 2, 2, 2])])
def test_feature_dropout_drops_whole_channels(fn, shape):
    gradgen.manual_seed(2)
    x = gradgen.ones(shape, dtype=gradgen.float64)
    out = fn(x, 0.3)
    kept = _channels_kept(out, shape[:2])
    assert sum(kept) / len(kept) == pytest.approx(0.7, abs=0.03)
    assert all(v == pytest.approx(1 / 0.7) for v in flat(out.tolist()) if v != 0.0)
    assert fn(x, 0.3, training=False) is x
    assert flat(fn(x, 1.0).tolist()) == [0.0] * x.numel()


def test_feature_dropout_gradient_is_the_mask():
    gradgen.manual_seed(3)
    x = _randn(4, 6, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = F.dropout2d(x, 0.5)
    y.sum().backward()
    for gx, yv, xv in zip(flat(x.grad.tolist()), flat(y.tolist()), flat(x.tolist())):
        assert gx == pytest.approx(yv / xv)


def test_dropout2d_and_dropout3d_warnings_and_unbatched_inputs():
    x = gradgen.ones([3, 4, 5], dtype=gradgen.float64)
    with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
        F.dropout2d(x, 0.5)
    with pytest.warns(UserWarning, match="Received a 2-D input to dropout2d"):
        F.dropout2d(x[0], 0.5)
    with pytest.warns(UserWarning, match="Received a 3-D input to dropout3d"):
        F.dropout3d(x, 0.5)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout2d(x, 1.5)
    gradgen.manual_seed(4)
    unbatched = gradgen.ones([30, 2, 2, 2], dtype=gradgen.float64)
    out = F.dropout3d(unbatched, 0.5)
    assert list(out.shape) == [30, 2, 2, 2]
    _channels_kept(out.unsqueeze(0), [1, 30])
    inplace = gradgen.ones([2, 30, 2, 2], dtype=gradgen.float64)
    assert F.dropout2d(inplace, 0.5, inplace=True) is inplace
    _channels_kept(inplace, [2, 30])


@pytest.mark.parametrize("fn", [F.alpha_dropout, F.feature_alpha_dropout])
def test_alpha_dropouts_keep_mean_and_variance(fn):
    gradgen.manual_seed(5)
    x = gradgen.randn([200, 100, 4], dtype=gradgen.float64)
    assert fn(x, 0.2) is x  # training=False by default, as torch's
    y = fn(x, 0.2, training=True)
    values = flat(y.tolist())
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / len(values)
    assert mean == pytest.approx(0.0, abs=0.03)
    assert var == pytest.approx(1.0, abs=0.05)
    if fn is F.feature_alpha_dropout:
        # A dropped channel holds one value everywhere: -alpha * a + b.
        rows = y.reshape([200 * 100, 4]).tolist()
        dropped = [r for r, src in zip(rows, x.reshape([200 * 100, 4]).tolist()) if r[0] == r[1] == r[2] == r[3]]
        assert len(dropped) / len(rows) == pytest.approx(0.2, abs=0.02)


def test_deprecated_upsample_warns_and_interpolates():
    x = _randn(1, 2, 3, 3, requires_grad=False)
    with pytest.warns(UserWarning, match="upsample` is deprecated"):
        y = F.upsample(x, scale_factor=2, mode="nearest")
    assert flat(y.tolist()) == flat(F.interpolate(x, scale_factor=2, mode="nearest").tolist())


def test_dropout_inplace_multiplies_its_input_by_the_mask():
    gen = gradgen.Generator()
    gen.manual_seed(6)
    x = gradgen.ones([400], dtype=gradgen.float64)
    version = x._version
    assert F.dropout(x, 0.25, inplace=True, generator=gen) is x
    assert x._version > version
    values = flat(x.tolist())
    assert all(v == 0.0 or v == pytest.approx(1 / 0.75) for v in values)
    assert values.count(0.0) / 400 == pytest.approx(0.25, abs=0.06)
    leaf = gradgen.ones([3], dtype=gradgen.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf"):
        F.dropout(leaf, 0.5, inplace=True)
    y = leaf.clone()
    F.dropout(y, 0.5, inplace=True)
    y.sum().backward()
    assert flat(leaf.grad.tolist()) == flat(y.tolist())  # the mask times 1 / (1 - p)
    z = _t([1.0, 2.0])
    assert F.dropout(z, 0.5, training=False, inplace=True) is z and flat(z.tolist()) == [1.0, 2.0]
