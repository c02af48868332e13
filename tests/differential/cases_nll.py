"""Differential cases of nll_loss with K-dimensional input (issue 26, losses): [N, C, d1, ..., dK]
log-probabilities with a target [N, d1, ..., dK], every reduction, class weights, ignored
targets, empty batches, a non-contiguous input, PyTorch's other names of the same loss
(nll_loss_nd, nll_loss2d), cross_entropy over images, and the shape errors PyTorch raises.

Imported by cases.py (at its end), with whose `case` and input makers they register (same rules:
names unique and stable, expected.json regenerated with run_torch.py). All pass every argument:
torch._C._nn's bindings default `reduction` to None, not to the schema's Mean.
"""

from __future__ import annotations

from cases import L, R, case  # cases.py imports this module once they are defined

MEAN, SUM, NONE = 1, 2, 0

# [2, 3, 2, 2] scores, targets [2, 2, 2] with an ignored (-100) entry.
T3 = [[[0, 2], [1, -100]], [[2, 2], [0, 1]]]


def _reductions() -> None:
    for r, label in ((NONE, "none"), (MEAN, "mean"), (SUM, "sum")):
        case(
            f"nll_loss/kdim-2d-{label}",
            lambda T, x, t, r=r: T.nll_loss_nd(T.log_softmax(x, 1), t, None, r, -100),
            R(2, 3, 2, 2, seed=5100 + r),
            L(T3),
            second=True,
        )
        case(
            f"nll_loss/kdim-2d-weight-{label}",
            lambda T, x, t, w, r=r: T.nll_loss_nd(x, t, w, r, -100),
            R(2, 3, 2, 2, seed=5110 + r),
            L(T3),
            R(3, seed=5115, lo=0.2, hi=2.0, grad=False),
            second=True,
        )
    # K = 1 and K = 3.
    case(
        "nll_loss/kdim-1d",
        lambda T, x, t: T.nll_loss_nd(x, t, None, MEAN, -100),
        R(2, 4, 3, seed=5120),
        L([[0, 3, 1], [2, 2, 0]]),
        second=True,
    )
    case(
        "nll_loss/kdim-3d-none",
        lambda T, x, t: T.nll_loss_nd(x, t, None, NONE, 1),
        R(1, 2, 2, 2, 3, seed=5121),
        L([[[[0, 1, 1], [1, 0, 0]], [[1, 1, 0], [0, 0, 1]]]]),
        second=True,
    )
    # A channels-last view (not contiguous) and an empty batch.
    case(
        "nll_loss/kdim-noncontiguous",
        lambda T, x, t: T.nll_loss_nd(T.permute(x, [0, 3, 1, 2]), t, None, SUM, -100),
        R(2, 2, 2, 3, seed=5122),
        L(T3),
        second=True,
    )
    # An empty batch ([] data, shaped in the call): None is [0, 2], Sum 0, Mean NaN (0 / 0).
    for r, label in ((NONE, "none"), (MEAN, "mean"), (SUM, "sum")):
        case(
            f"nll_loss_nd/empty-batch-{label}",
            lambda T, x, t, r=r: T.nll_loss_nd(T.reshape(x, [0, 3, 2]), T.reshape(t, [0, 2]), None, r, -100),
            R(0),
            L([]),
        )


def _names_and_errors() -> None:
    case(
        "nll_loss2d/mean",
        lambda T, x, t, w: T.nll_loss2d(x, t, w, MEAN, -100),
        R(2, 3, 2, 2, seed=5130),
        L(T3),
        R(3, seed=5131, lo=0.2, hi=2.0, grad=False),
        second=True,
    )
    case(
        "nll_loss2d/not-an-image", lambda T, x, t: T.nll_loss2d(x, t, None, MEAN, -100), R(2, 3, 2), L([[0, 1], [2, 0]])
    )
    case(
        "nll_loss_nd/kdim-none",
        lambda T, x, t: T.nll_loss_nd(x, t, None, NONE, -100),
        R(2, 3, 2, 2, seed=5132),
        L(T3),
    )
    case(
        "cross_entropy_loss/kdim-label-smoothing",
        lambda T, x, t: T.cross_entropy_loss(x, t, None, MEAN, -100, 0.2),
        R(2, 3, 2, 2, seed=5133),
        L(T3),
        second=True,
    )
    # PyTorch's errors: a target of the wrong spatial size, batch or rank, a target out of range;
    # and nll_loss itself, which takes [C] and [N, C] only.
    case("nll_loss/kdim-refused", lambda T, x, t: T.nll_loss(x, t), R(2, 3, 2, seed=5139), L([[0, 1], [2, 0]]))
    case(
        "nll_loss/kdim-target-size",
        lambda T, x, t: T.nll_loss_nd(x, t, None, MEAN, -100),
        R(2, 3, 2, 2, seed=5134),
        L([[[0, 1, 2]] * 2] * 2),
    )
    case(
        "nll_loss/kdim-target-batch",
        lambda T, x, t: T.nll_loss_nd(x, t, None, MEAN, -100),
        R(2, 3, 2, seed=5135),
        L([[0, 1], [1, 1], [0, 0]]),
    )
    case(
        "nll_loss/kdim-target-rank",
        lambda T, x, t: T.nll_loss_nd(x, t, None, MEAN, -100),
        R(2, 3, 2, 2, seed=5136),
        L([[0, 1], [1, 1]]),
    )
    case(
        "nll_loss/kdim-target-range",
        lambda T, x, t: T.nll_loss_nd(x, t, None, MEAN, -100),
        R(2, 3, 2, seed=5137),
        L([[0, 3], [1, 1]]),
    )
    case(
        "nll_loss/kdim-weight-size",
        lambda T, x, t, w: T.nll_loss_nd(x, t, w, MEAN, -100),
        R(2, 3, 2, seed=5138),
        L([[0, 1], [1, 1]]),
        R(4, seed=1, grad=False),
    )


_reductions()
_names_and_errors()
