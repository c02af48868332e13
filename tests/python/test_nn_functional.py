"""gradgen.nn.functional against numbers computed by PyTorch, and its PyTorch-like behaviour.

The numbers were computed once with PyTorch 2.13 (CPU, float64) for the inputs below, with the
same calls through torch.nn.functional; the calls here are spelled exactly as there, so that
`import gradgen.nn.functional as F` reads like PyTorch code.
"""

from __future__ import annotations

import math

import pytest
from gradcheck_util import flat

import gradgen
import gradgen.nn.functional as F

# Written by PyTorch 2.13 (CPU, float64): the outputs and the gradient of their sum in x.
TORCH = {
    "gelu_tanh": (
        [-0.015084266089998577, -0.17003944483437966, 0.0, 0.2621611694273562, 1.1177142029697147, 3.499383802344626],
        [-0.03795157621266618, 0.001061743862585618, 0.5, 0.8026588344205614, 1.1224926322496487, 1.0024226437601167],
    ),
    "elu": (
        [-0.45895750068805063, -0.26381672362949266, 0.0, 0.4, 1.25, 3.5],
        [0.0410424993119494, 0.23618327637050734, 0.5, 1.0, 1.0, 1.0],
    ),
    "selu": (
        [-1.6137857588732425, -0.9276320158350512, 0.0, 0.4202803949421922, 1.3133762341943505, 3.677453455744182],
        [
            0.1443135819741343,
            0.8304673250123255,
            1.7580993408473766,
            1.0507009873554805,
            1.0507009873554805,
            1.0507009873554805,
        ],
    ),
    "leaky_relu": (
        [-0.25, -0.07500000000000001, 0.0, 0.4, 1.25, 3.5],
        [0.1, 0.1, 0.1, 1.0, 1.0, 1.0],
    ),
    "relu6": (
        [0.0, 0.0, 0.0, 0.4, 1.25, 3.5],
        [0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
    ),
    "hardswish": (
        [-0.20833333333333334, -0.28125, 0.0, 0.22666666666666668, 0.8854166666666666, 3.5],
        [-0.33333333333333337, 0.25, 0.5, 0.6333333333333333, 0.9166666666666667, 1.0],
    ),
    "softplus": (
        [
            0.003357674244559034,
            0.1007066389913762,
            0.34657359027997264,
            0.5855503329738889,
            1.2894448671462748,
            3.500455733226887,
        ],
        [0.006692850924284856, 0.18242552380635632, 0.5, 0.6899744811276125, 0.9241418199787564, 0.9990889488055994],
    ),
    "logsigmoid": (
        [
            -2.5788897342925496,
            -1.1368710061148999,
            -0.6931471805599453,
            -0.5130152523999526,
            -0.2519290813453729,
            -0.029750418272620566,
        ],
        [0.9241418199787564, 0.679178699175393, 0.5, 0.401312339887548, 0.22270013882530884, 0.029312230751356316],
    ),
    "tanhshrink": (
        [-1.5133857018485697, -0.1148510476127127, 0.0, 0.020051037744775124, 0.4017163600424871, 2.501822102388801],
        [0.9734077733168395, 0.40341419171866855, 0.0, 0.14436121391882228, 0.7195851338195673, 0.9963591152795126],
    ),
    "softshrink": (
        [-1.5, -0.0, 0.0, 0.0, 0.25, 2.5],
        [1.0, 0.0, 0.0, 0.0, 1.0, 1.0],
    ),
    "glu": (
        [-1.49671915028113, -0.5829748958810184, 0.0],
        [0.598687660112452, 0.7772998611746911, 0.9706877692486436, -0.6006518643538229, -0.1298285902443728, 0.0],
    ),
    "smooth_l1_loss": (
        [0.7208333333333333],
        [
            -0.16666666666666666,
            -0.15,
            -0.03333333333333333,
            -0.16666666666666666,
            -0.08333333333333333,
            0.16666666666666666,
        ],
    ),
    "huber_loss": (
        [2.1625],
        [-0.5, -0.45, -0.1, -0.5, -0.25, 0.5],
    ),
    "l1_loss": (
        [2.7, 0.45, 0.1, 0.6, 0.25, 1.5],
        [-1.0, -1.0, -1.0, -1.0, -1.0, 1.0],
    ),
    "mse_loss": (
        [1.6958333333333335],
        [-0.9, -0.15, -0.03333333333333333, -0.19999999999999998, -0.08333333333333333, 0.5],
    ),
    "soft_margin_loss": (
        [0.7422671121642236],
        [
            -0.15402363666312607,
            0.05347021680410116,
            -0.08333333333333333,
            -0.066885389981258,
            -0.03711668980421814,
            -0.004885371791892719,
        ],
    ),
    "binary_cross_entropy": (
        [0.8510171121642233],
        [
            -0.004023636663126077,
            -0.06319644986256548,
            0.016666666666666663,
            -0.05021872331459134,
            0.08788331019578184,
            0.06178129487477395,
        ],
    ),
    "bce_with_logits": (
        [0.8267515125590426],
        [
            0.0021373088033989677,
            -0.07904395284332466,
            0.02,
            -0.026139982921338456,
            0.08602747570557094,
            0.06207441718228751,
        ],
    ),
    "kl_div_batchmean": (
        [-1.7959203457188953],
        [-0.05, -0.35, -0.2, -0.45, -0.125, -0.3],
    ),
    "kl_div_log_target": (
        [-4.590520045589235],
        [
            -1.2214027581601699,
            -0.7408182206817179,
            -1.1051709180756477,
            -2.718281828459045,
            -4.4816890703380645,
            -7.38905609893065,
        ],
    ),
    "margin_ranking_loss": (
        [0.9499999999999998],
        [
            -0.16666666666666666,
            0.16666666666666666,
            -0.16666666666666666,
            -0.16666666666666666,
            -0.16666666666666666,
            -0.0,
        ],
    ),
    "cross_entropy": (
        [1.8289706264251746],
        [
            0.009736535977964693,
            0.13527327392725053,
            -0.14500980990521523,
            -0.447087691487059,
            0.029141220976239546,
            0.4179464705108195,
        ],
    ),
    "pad_reflect": (
        [-0.75, -2.5, -0.75, 0.0, -0.75, -2.5, 1.25, 0.4, 1.25, 3.5, 1.25, 0.4],
        [2.0, 3.0, 1.0, 2.0, 3.0, 1.0],
    ),
    "pad_circular": (
        [0.0, -2.5, -0.75, 0.0, -2.5, -0.75, 3.5, 0.4, 1.25, 3.5, 0.4, 1.25],
        [2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
    ),
    "pad_constant": (
        [2.0, -2.5, -0.75, 0.0, 2.0, 2.0, 2.0, 0.4, 1.25, 3.5, 2.0, 2.0],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
}


def _inputs():
    x = gradgen.tensor([[-2.5, -0.75, 0.0], [0.4, 1.25, 3.5]], dtype=gradgen.float64, requires_grad=True)
    t = gradgen.tensor([[0.2, -0.3, 0.1], [1.0, 1.5, 2.0]], dtype=gradgen.float64)
    p = gradgen.tensor([[0.1, 0.7, 0.4], [0.9, 0.25, 0.6]], dtype=gradgen.float64)
    return x, t, p


CALLS = {
    "gelu_tanh": lambda x, t, p: F.gelu(x, approximate="tanh"),
    "elu": lambda x, t, p: F.elu(x, alpha=0.5),
    "selu": lambda x, t, p: F.selu(x),
    "leaky_relu": lambda x, t, p: F.leaky_relu(x, negative_slope=0.1),
    "relu6": lambda x, t, p: F.relu6(x),
    "hardswish": lambda x, t, p: F.hardswish(x),
    "softplus": lambda x, t, p: F.softplus(x, beta=2.0),
    "logsigmoid": lambda x, t, p: F.logsigmoid(x),
    "tanhshrink": lambda x, t, p: F.tanhshrink(x),
    "softshrink": lambda x, t, p: F.softshrink(x, lambd=1.0),
    "glu": lambda x, t, p: F.glu(x, dim=0),
    "smooth_l1_loss": lambda x, t, p: F.smooth_l1_loss(x, t, beta=0.5),
    "huber_loss": lambda x, t, p: F.huber_loss(x, t, reduction="sum", delta=0.5),
    "l1_loss": lambda x, t, p: F.l1_loss(x, t, reduction="none"),
    "mse_loss": lambda x, t, p: F.mse_loss(x, t),
    "soft_margin_loss": lambda x, t, p: F.soft_margin_loss(x, gradgen.sign(t)),
    "binary_cross_entropy": lambda x, t, p: F.binary_cross_entropy(F.sigmoid(x), p),
    "bce_with_logits": lambda x, t, p: F.binary_cross_entropy_with_logits(x, p, pos_weight=p.select(0, 0) + 0.5),
    "kl_div_batchmean": lambda x, t, p: F.kl_div(x, p, reduction="batchmean"),
    "kl_div_log_target": lambda x, t, p: F.kl_div(x, t, reduction="sum", log_target=True),
    "margin_ranking_loss": lambda x, t, p: F.margin_ranking_loss(x, t, gradgen.sign(t), margin=0.5),
    "pad_reflect": lambda x, t, p: F.pad(x, [1, 2], mode="reflect"),
    "pad_circular": lambda x, t, p: F.pad(x.unsqueeze(0), (1, 2), mode="circular"),
    "pad_constant": lambda x, t, p: F.pad(x, [1, 2], value=2.0),
    "cross_entropy": lambda x, t, p: F.cross_entropy(
        x, gradgen.tensor([2, 0], dtype=gradgen.int64), label_smoothing=0.1
    ),
}


def _close(got, want):
    assert len(got) == len(want), (got, want)
    for a, b in zip(got, want):
        assert abs(a - b) <= 1e-12 * abs(b) + 1e-14, (got, want)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_pytorch(name):
    x, t, p = _inputs()
    y = CALLS[name](x, t, p)
    (g,) = gradgen.autograd.grad(y.sum(), [x])
    want_y, want_g = TORCH[name]
    _close(flat(y.tolist()), want_y)
    _close(flat(g.tolist()), want_g)


def test_every_call_has_pytorch_numbers():
    assert sorted(CALLS) == sorted(TORCH)


def test_reachable_as_torch_nn_functional_is():
    assert gradgen.nn.functional is F
    assert all(callable(getattr(F, name)) for name in F.__all__)


def test_the_ops_that_already_existed_are_there_too():
    x = gradgen.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=gradgen.float64)
    w = gradgen.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=gradgen.float64)
    assert list(F.linear(x, w).shape) == [2, 3]
    assert flat(F.relu(x).tolist()) == [0.5, 0.0, 2.0, 0.25]
    assert abs(sum(flat(F.softmax(x, dim=1).tolist())) - 2.0) < 1e-12
    assert list(F.log_softmax(x, dim=-1).shape) == [2, 2]
    assert flat(F.dropout(x, 0.5, training=False).tolist()) == flat(x.tolist())
    assert flat(F.tanh(x).tolist()) == flat(gradgen.tanh(x).tolist())
    assert flat(F.sigmoid(x).tolist()) == flat(gradgen.sigmoid(x).tolist())
    target = gradgen.tensor([1, 0], dtype=gradgen.int64)
    assert abs(F.nll_loss(F.log_softmax(x, 1), target).item() - F.cross_entropy(x, target).item()) < 1e-12
    e = F.embedding(gradgen.tensor([2, 0], dtype=gradgen.int64), w, padding_idx=-1)
    assert flat(e.tolist()) == [5.0, 6.0, 1.0, 2.0]


def test_relu_and_elu_inplace():
    x = gradgen.tensor([-1.0, 2.0], dtype=gradgen.float64)
    assert F.relu(x, inplace=True) is x and x.tolist() == [0.0, 2.0]
    y = gradgen.tensor([-1.0, 2.0], dtype=gradgen.float64)
    assert F.elu(y, inplace=True) is y and y.tolist() == [math.expm1(-1.0), 2.0]


def test_reduction_strings_and_the_legacy_flags():
    x, t, _ = _inputs()
    with pytest.raises(ValueError, match="not a valid value for reduction"):
        F.l1_loss(x, t, reduction="avg")
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        summed = F.l1_loss(x, t, size_average=False)
    assert abs(summed.item() - F.l1_loss(x, t, reduction="sum").item()) < 1e-12
    with pytest.raises(ValueError, match="dropout probability"):
        F.dropout(x, 1.5)
    with pytest.raises(ValueError, match="min_val cannot be greater than max_val"):
        F.hardtanh(x, 2.0, 1.0)
    with pytest.raises(ValueError, match="different to the input size"):
        F.binary_cross_entropy(F.sigmoid(x), t.select(0, 0))
