"""gradgen.nn.functional's normalization functions (layer_norm, batch_norm, group_norm,
rms_norm) against numbers computed by PyTorch, batch norm's running statistics, and errors.

The numbers were computed once with PyTorch 2.13 (CPU, float64) with the same calls through
torch.nn.functional: the outputs and the gradient of sum(y * k / 10) (k = 1, 2, ... in row-major
order) in x.
"""

from __future__ import annotations

import pytest
from gradcheck_util import flat, gradcheck, gradgradcheck

import gradgen
import gradgen.nn.functional as F

X = [[[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], [[-2.0, 0.75, 1.0], [0.0, 3.0, -1.5]]]  # [2, 2, 3]
W3 = [1.5, -0.5, 2.0]
W2 = [0.75, -1.25]
B2 = [0.25, -0.5]

# Written by PyTorch 2.13 (CPU, float64).
TORCH = {
    "layer_norm": (
        [
            0.094118103979626,
            0.62745402653084,
            2.384325300817194,
            1.901239446496478,
            0.045267605868964,
            -2.353915505186116,
            -2.115324995539164,
            -0.306568839933212,
            1.594157967652703,
            -0.400891290167203,
            -0.668152150278671,
            -2.138086880891747,
        ],
        [
            -0.06358522583812,
            0.029345544231336,
            0.034239681606784,
            0.379353970011612,
            -0.853553859294196,
            0.474199889282585,
            0.070949333971279,
            -0.851385701130492,
            0.780436367159214,
            0.028635595767363,
            -0.009547548781081,
            -0.019088046986282,
        ],
    ),
    "group_norm": (
        [
            0.297059051989813,
            -0.691181039796261,
            1.144121987806447,
            -2.084366205413732,
            -0.386830985327591,
            0.971197190741322,
            -0.807662497769582,
            0.709853259899818,
            0.847809237869764,
            -0.165923924860665,
            -2.170380375696677,
            0.836304300557342,
        ],
        [
            -0.057804812204464,
            0.026678996333773,
            0.031125815870691,
            -0.004450895943279,
            0.010018122396441,
            -0.005567226453162,
            0.00207421602393,
            -0.024894177048656,
            0.022819961024726,
            0.071587716751281,
            -0.023862508617071,
            -0.047725208134211,
        ],
    ),
    "rms_norm": (
        [
            0.415526016638666,
            -1.038815041596665,
            1.662104066554665,
            1.246578049915998,
            0.207763008319333,
            -0.623289024957999,
            -1.194784203812679,
            0.448044076429755,
            0.59739210190634,
            0.0,
            1.792176305719019,
            -0.896088152859509,
        ],
        [
            0.05081972865365,
            0.246924093340675,
            0.120173711286866,
            0.235564389288683,
            0.399383279301624,
            0.547059431977525,
            0.531878841660105,
            0.435274542652946,
            0.480800706552872,
            0.59739210190634,
            0.486574756608472,
            0.802148800031858,
        ],
    ),
    "batch_norm_eval": (
        [
            0.25,
            -0.678075330121919,
            1.045493140104502,
            -4.035498551124,
            -1.8258119566715,
            -0.0580626811095,
            -1.075821900174169,
            0.382582190017417,
            0.515164380034834,
            -1.383874637781,
            -6.687122464467,
            1.267749275562,
        ],
        [
            0.053032876006967,
            0.106065752013934,
            0.1590986280209,
            -0.7070997102248,
            -0.883874637781,
            -1.0606495653372,
            0.371230132048767,
            0.424263008055734,
            0.477295884062701,
            -1.767749275562,
            -1.9445242031182,
            -2.1212991306744,
        ],
    ),
    "batch_norm_train": (
        [
            0.432912738674998,
            -0.527379139368743,
            1.256020062712491,
            -1.417038450211624,
            -0.358917161505904,
            0.487579869458672,
            -0.93893280138749,
            0.570097292681247,
            0.707281846687496,
            -0.14729290376476,
            -2.686783996658487,
            1.122452642682103,
        ],
        [
            -0.219495286409998,
            -0.164621464807499,
            -0.109747643204999,
            0.322828159769897,
            0.256375363537978,
            0.186283185933151,
            0.109747643204999,
            0.164621464807499,
            0.219495286409998,
            -0.163233770571402,
            -0.291556050142752,
            -0.310696888526872,
        ],
    ),
    "running": (
        [0.4166666666666667, -0.2708333333333333],
        [2.060416666666667, 1.0291666666666668],
    ),
}


def t(values):
    return gradgen.tensor(values, dtype=gradgen.float64)


CALLS = {
    "layer_norm": lambda x: F.layer_norm(x, (3,), t(W3), None, 1e-5),
    "group_norm": lambda x: F.group_norm(x, 2, t(W2), t(B2)),
    "rms_norm": lambda x: F.rms_norm(x, [2, 3]),
    "batch_norm_eval": lambda x: F.batch_norm(x, t([0.5, -0.5]), t([2.0, 0.5]), t(W2), t(B2)),
    "batch_norm_train": lambda x: F.batch_norm(x, None, None, t(W2), t(B2), training=True),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_torch(name):
    x = t(X).requires_grad_(True)
    y = CALLS[name](x)
    n = y.numel()
    k = t([(i + 1) / 10 for i in range(n)]).reshape(list(y.shape))
    (g,) = gradgen.autograd.grad((y * k).sum(), [x])
    expected_y, expected_g = TORCH[name]
    assert flat(y.tolist()) == pytest.approx(expected_y, rel=1e-10, abs=1e-12)
    assert flat(g.tolist()) == pytest.approx(expected_g, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_gradients(name):
    x = t(X).requires_grad_(True)
    gradcheck(lambda x: CALLS[name](x), [x])
    gradgradcheck(lambda x: CALLS[name](x), [x])


def test_batch_norm_updates_running_stats_in_place():
    rm, rv = t([0.5, -0.5]), t([2.0, 0.5])
    F.batch_norm(t(X), rm, rv, training=True, momentum=0.25)
    expected_mean, expected_var = TORCH["running"]
    assert flat(rm.tolist()) == pytest.approx(expected_mean, rel=1e-12)
    assert flat(rv.tolist()) == pytest.approx(expected_var, rel=1e-12)
    # Evaluation reads them and leaves them alone.
    F.batch_norm(t(X), rm, rv, training=False)
    assert flat(rm.tolist()) == pytest.approx(expected_mean, rel=1e-12)


def test_layer_norm_accepts_an_int_shape():
    x = t(X)
    assert flat(F.layer_norm(x, 3).tolist()) == flat(F.layer_norm(x, [3]).tolist())


def test_errors():
    x = t(X)
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        F.batch_norm(t([[1.0, 2.0]]), None, None, training=True)
    with pytest.raises(RuntimeError, match="divisible by num_groups"):
        F.group_norm(x, 3)
    with pytest.raises(RuntimeError, match="expected input with shape"):
        F.layer_norm(x, [2])
    with pytest.raises(RuntimeError, match="running_mean and running_var must be defined"):
        F.batch_norm(x, None, None, training=False)
