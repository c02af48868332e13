"""gradgen.nn.functional's distances, instance_norm, one_hot and margin losses against numbers
computed by PyTorch (2.13, CPU, float64) for the same torch.nn.functional calls: the outputs and
the gradients of sum(y * k / 10) in the three inputs (None: not an input of the call).
"""

from __future__ import annotations

import pytest
from gradcheck_util import flat

import gradgen
import gradgen.nn.functional as F

A = [[0.5, -1.25, 2.0, 1.0], [1.5, 0.25, -0.75, 0.0], [-2.0, 0.75, 1.0, 0.5]]
B = [[0.3, 1.1, -0.6, 0.9], [-0.4, 0.2, -1.0, 2.5], [1.0, -0.5, 0.25, 0.75]]
C = [[1.2, 0.4, -0.3, -1.1], [0.6, -0.9, 0.8, 0.1], [-0.2, 1.3, -0.7, 0.35]]
ML_TARGET = [[3, 0, -1, 1], [1, 2, 3, -1], [0, 2, -1, -1]]

# Written by PyTorch 2.13 (CPU, float64).
TORCH = {
    "cosine_similarity": (
        [-0.371764665226985, 0.043214842525823, -0.530097711963927],
        [
            [
                0.010041951252033,
                0.019994441913847,
                -0.00371261449407,
                0.027397305754433,
                -0.021795311882589,
                0.007891406026455,
                -0.040960155089693,
                0.108037106314557,
                0.036154129663899,
                -0.024917035308903,
                0.050078355277698,
                0.081835361063556,
            ],
            [
                0.016704365723679,
                -0.013916192419727,
                0.039725301056312,
                0.037924091753758,
                0.065286315789011,
                0.010571684631317,
                -0.031251001893674,
                -0.002900325001733,
                -0.096932153044832,
                0.025747603152534,
                0.112077801958087,
                0.109048672175436,
            ],
            None,
        ],
    ),
    "pairwise_distance": (
        [3.126545500704689, 2.823097307557606, 3.086049145954326],
        [
            [
                0.000409199248579,
                -0.056494458230037,
                0.069154034663682,
                0.00010230083514,
                0.090591188854399,
                6.2738723806e-05,
                0.001568417905567,
                -0.156840410357458,
                -0.283503091192949,
                0.049219398229259,
                0.017719002262772,
                -0.001968757028982,
            ],
            [
                -0.000409199248579,
                0.056494458230037,
                -0.069154034663682,
                -0.00010230083514,
                -0.090591188854399,
                -6.2738723806e-05,
                -0.001568417905567,
                0.156840410357458,
                0.283503091192949,
                -0.049219398229259,
                -0.017719002262772,
                0.001968757028982,
            ],
            None,
        ],
    ),
    "instance_norm": (
        [
            1.184077710636813,
            0.738253608467577,
            1.566212655353301,
            1.311456025542309,
            2.097323917640522,
            0.4,
            -0.957859134112418,
            0.060535216471896,
            0.727961234070628,
            -0.642653744690209,
            -0.76725510639574,
            -0.518052382984679,
        ],
        [
            [
                -0.037531756293985,
                0.007032575661705,
                -0.002942146595722,
                0.033441327228001,
                -0.025866693025792,
                -0.067892956705621,
                -0.074356784967236,
                0.168116434698649,
                0.006045823237422,
                0.047825270269738,
                0.006313815743392,
                -0.060184909250552,
            ],
            [0.201682331933702, -0.339464783528104, 0.321886851072621, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [1.0, 2.6, 4.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        ],
    ),
    "cosine_embedding_loss": (
        [1.371764665226883],
        [
            [
                -0.01004195125203,
                -0.019994441913843,
                0.003712614494071,
                -0.027397305754424,
                -0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
            ],
            [
                -0.016704365723672,
                0.013916192419729,
                -0.039725301056304,
                -0.037924091753742,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
            ],
            None,
        ],
    ),
    "triplet_margin_loss": (
        [3.133334666666666],
        [
            [
                0.033333333333333,
                -0.033333333333333,
                0.033333333333333,
                0.033333333333333,
                0.0,
                0.0,
                0.066666666666667,
                0.0,
                0.0,
                0.066666666666667,
                0.0,
                -0.066666666666667,
            ],
            [
                0.0,
                0.0,
                0.0,
                -0.066666666666667,
                -0.033333333333333,
                -0.033333333333333,
                -0.033333333333333,
                0.033333333333333,
                0.033333333333333,
                -0.033333333333333,
                -0.033333333333333,
                0.033333333333333,
            ],
            [
                -0.033333333333333,
                0.033333333333333,
                -0.033333333333333,
                0.033333333333333,
                0.033333333333333,
                0.033333333333333,
                -0.033333333333333,
                -0.033333333333333,
                -0.033333333333333,
                -0.033333333333333,
                0.033333333333333,
                0.033333333333333,
            ],
        ],
    ),
    "multilabel_margin_loss": (
        [1.125, 2.0, 2.125],
        [[-0.025, 0.0, 0.05, -0.025, 0.15, -0.05, -0.05, -0.05, -0.15, 0.15, -0.15, 0.15], None, None],
    ),
}


def _long(data):
    return gradgen.tensor(data, dtype=gradgen.int64)


CALLS = {
    "cosine_similarity": lambda a, b, c: F.cosine_similarity(a, b),
    "pairwise_distance": lambda a, b, c: F.pairwise_distance(a, b, p=3.0, keepdim=True),
    "instance_norm": lambda a, b, c: F.instance_norm(a.reshape([1, 3, 4]), weight=b[0, :3], bias=c[0, :3]),
    "cosine_embedding_loss": lambda a, b, c: F.cosine_embedding_loss(
        a, b, _long([1, -1, -1]), margin=0.1, reduction="sum"
    ),
    "triplet_margin_loss": lambda a, b, c: F.triplet_margin_loss(a, b, c, margin=2.0, p=1, swap=True),
    "multilabel_margin_loss": lambda a, b, c: F.multilabel_margin_loss(a, _long(ML_TARGET), reduction="none"),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_torch(name):
    ins = [gradgen.tensor(v, dtype=gradgen.float64).requires_grad_(True) for v in (A, B, C)]
    y = CALLS[name](*ins)
    k = gradgen.tensor([(i + 1) / 10 for i in range(y.numel())], dtype=gradgen.float64).reshape(list(y.shape))
    grads = gradgen.autograd.grad((y * k).sum(), ins, allow_unused=True)
    expected_y, expected_grads = TORCH[name]
    assert flat(y.tolist()) == pytest.approx(expected_y, rel=1e-12, abs=1e-12)
    for g, expected in zip(grads, expected_grads):
        if expected is None:
            assert g is None or not any(flat(g.tolist()))
        else:
            assert flat(g.tolist()) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_one_hot():
    assert F.one_hot(_long([[0, 2], [3, 1]])).tolist() == [[[1, 0, 0, 0], [0, 0, 1, 0]], [[0, 0, 0, 1], [0, 1, 0, 0]]]
    assert F.one_hot(_long([1]), 3).tolist() == [[0, 1, 0]]


def test_instance_norm_running_stats():
    rm = gradgen.tensor([0.5, -0.5, 0.0], dtype=gradgen.float64)
    rv = gradgen.tensor([1.0, 2.0, 3.0], dtype=gradgen.float64)
    F.instance_norm(gradgen.tensor(A, dtype=gradgen.float64).reshape([1, 3, 4]), rm, rv, momentum=0.2)
    assert rm.tolist() == pytest.approx([0.5125, -0.35, 0.0125], rel=1e-12)
    assert rv.tolist() == pytest.approx([1.1697916666666668, 1.775, 2.786458333333334], rel=1e-12)


def test_errors():
    a = gradgen.tensor(A, dtype=gradgen.float64)
    with pytest.raises(ValueError, match="Expected more than 1 spatial element when training"):
        F.instance_norm(a.reshape([3, 4, 1]))
    with pytest.raises(ValueError, match="margin must be greater than 0, got 0.0"):
        F.triplet_margin_loss(a, a, a, margin=0.0)
    with pytest.raises(RuntimeError, match="Class values must be non-negative"):
        F.one_hot(_long([0, -1]))
