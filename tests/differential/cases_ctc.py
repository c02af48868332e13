"""Differential cases of ctc_loss (issue 26, the last op) and max_pool1d_with_indices.

_ctc_loss (both overloads, out=), _ctc_loss_backward (both overloads, out=) and the composites
ctc_loss.IntList / ctc_loss.Tensor, also through torch.nn.functional.ctc_loss: values and the
gradients with respect to log_probs (PyTorch's formula: the derivative through a log_softmax),
the three reductions, zero_infinity with an impossible alignment (an infinite loss becomes 0, its
gradient zero; without it the gradient is NaN, as PyTorch's), repeated labels that need a blank
between them, empty targets, an input length of 0, a batch of one and of several, float32 and
float64, padded and 1-D concatenated targets, Int targets and lengths, unbatched input, the blank
any class, the second derivative PyTorch does not implement, and the errors PyTorch raises.

_ctc_loss's log_alpha is compared where it is defined: sequence n's frames below its input
length and states below 2 * target_length + 1 (PyTorch leaves the rest of the tensor
uninitialised; gradgen writes -inf there).

Imported by cases.py (at its end), with whose `case` and input makers they register (same rules:
names unique and stable, expected.json regenerated with run_torch.py). Reductions are spelled
out: torch's bindings default them like the schema, but every argument is passed anyway.
"""

from __future__ import annotations

from cases import D, L, R, case  # cases.py imports this module once they are defined

NONE, MEAN, SUM = 0, 1, 2

# log_probs [6, 3, 5]; padded targets [3, 4]: a repeated label (2, 2), a label three times.
PADDED = [[1, 2, 2, 3], [4, 1, 0, 0], [3, 3, 3, 0]]
PADDED_IL, PADDED_TL = [6, 5, 6], [4, 2, 3]
# 1-D concatenated targets of lengths 3, 0, 2 with blank 4 (class 0 a label).
CONCAT = [0, 1, 1, 2, 0]
CONCAT_IL, CONCAT_TL = [6, 1, 4], [3, 0, 2]
# Sequence 0 cannot be aligned: 2, 2, 2 needs 5 frames (a blank between repeats), it has 4.
IMPOSSIBLE = [2, 2, 2, 1, 3, 4]
IMPOSSIBLE_IL, IMPOSSIBLE_TL = [4, 6, 5], [3, 2, 1]


def _defined_alpha(la, il, tl):
    """log_alpha where PyTorch defines it: sequence n's frames < il[n], states < 2 tl[n] + 1."""
    return [la[n, : il[n], : 2 * tl[n] + 1] for n in range(len(il))]


def _forward(T, lp, tg, il, tl, blank=0, zero_infinity=False, softmax=True):
    x = T.log_softmax(lp, -1) if softmax else lp
    nll, la = T._ctc_loss(x, tg, il, tl, blank, zero_infinity)
    return [nll] + _defined_alpha(la, il, tl)


def _forward_cases() -> None:
    case("_ctc_loss/padded", lambda T, x, t: _forward(T, x, t, PADDED_IL, PADDED_TL), R(6, 3, 5, seed=6000), L(PADDED))
    case(
        "_ctc_loss/concatenated-blank-4",
        lambda T, x, t: _forward(T, x, t, CONCAT_IL, CONCAT_TL, 4),
        R(6, 3, 5, seed=6001),
        L(CONCAT),
    )
    # Exactly 5 frames for 2, 2, 2: one alignment (2 b 2 b 2); a batch of one.
    case(
        "_ctc_loss/repeated-labels-one-alignment",
        lambda T, x, t: _forward(T, x, t, [5], [3]),
        R(5, 1, 4, seed=6002),
        L([[2, 2, 2]]),
    )
    case(
        "_ctc_loss/repeated-labels-batch-of-one",
        lambda T, x, t: _forward(T, x, t, [8], [4]),
        R(8, 1, 4, seed=6003),
        L([[1, 1, 3, 3]]),
    )
    # An infinite loss: without zero_infinity its gradient is NaN (for t < 4), as PyTorch's.
    case(
        "_ctc_loss/impossible",
        lambda T, x, t: _forward(T, x, t, IMPOSSIBLE_IL, IMPOSSIBLE_TL),
        R(6, 3, 5, seed=6004),
        L(IMPOSSIBLE),
    )
    case(
        "_ctc_loss/impossible-zero-infinity",
        lambda T, x, t: _forward(T, x, t, IMPOSSIBLE_IL, IMPOSSIBLE_TL, 0, True),
        R(6, 3, 5, seed=6005),
        L(IMPOSSIBLE),
    )
    case(
        "_ctc_loss/empty-targets",
        lambda T, x, t: _forward(T, x, t.reshape([2, 0]), [6, 3], [0, 0]),
        R(6, 2, 3, seed=6006),
        L([]),
    )
    case(
        "_ctc_loss/empty-1d-targets",
        lambda T, x, t: _forward(T, x, t, [6, 2], [0, 0], 2),
        R(6, 2, 3, seed=6007),
        L([]),
    )
    # No frame: the empty target has probability 1 (-0.0), any other 0 (inf).
    case(
        "_ctc_loss/input-length-0",
        lambda T, x, t: _forward(T, x, t, [0, 6, 0], [0, 2, 1]),
        R(6, 3, 4, seed=6008),
        L([[1, 2], [3, 1], [2, 0]]),
    )
    case(
        "_ctc_loss/float32",
        lambda T, x, t: _forward(T, x, t, PADDED_IL, PADDED_TL),
        R(6, 3, 5, seed=6009, dtype="float32"),
        L(PADDED),
    )
    case(
        "_ctc_loss/float32-concatenated",
        lambda T, x, t: _forward(T, x, t, CONCAT_IL, CONCAT_TL, 4),
        R(6, 3, 5, seed=6010, dtype="float32"),
        L(CONCAT),
    )
    case(
        "_ctc_loss/int32-targets",
        lambda T, x, t: _forward(T, x, t.to(T.int32), PADDED_IL, PADDED_TL),
        R(6, 3, 5, seed=6011),
        L(PADDED),
    )
    # Unnormalised log_probs: PyTorch's formula (its exp(log_probs) term) all the same.
    case(
        "_ctc_loss/raw-log-probs",
        lambda T, x, t: _forward(T, x, t, PADDED_IL, PADDED_TL, 0, False, False),
        R(6, 3, 5, seed=6012, lo=-3.0, hi=1.0),
        L(PADDED),
    )
    case(
        "_ctc_loss/transposed-log-probs",
        lambda T, x, t: _forward(T, x.transpose(0, 1), t, PADDED_IL, PADDED_TL),
        R(3, 6, 5, seed=6013),
        L(PADDED),
    )
    case(
        "_ctc_loss/blank-middle-class",
        lambda T, x, t: _forward(T, x, t, [7, 7], [3, 3], 2),
        R(7, 2, 5, seed=6014),
        L([[0, 1, 0], [4, 4, 3]]),
    )
    # The second derivative: PyTorch's _ctc_loss_backward has none (both raise).
    case(
        "_ctc_loss/second-order-not-implemented",
        lambda T, x, t: _forward(T, x, t, PADDED_IL, PADDED_TL),
        R(6, 3, 5, seed=6015),
        L(PADDED),
        second=True,
    )


def _tensor_lengths(T, lp, tg, il, tl, dtype="int64", blank=0):
    ilt, tlt = T.tensor(il, dtype=getattr(T, dtype)), T.tensor(tl, dtype=getattr(T, dtype))
    nll, la = T._ctc_loss(T.log_softmax(lp, -1), tg, ilt, tlt, blank, False)
    return [nll] + _defined_alpha(la, il, tl)


def _tensor_cases() -> None:
    case(
        "_ctc_loss.Tensor/int64-lengths",
        lambda T, x, t: _tensor_lengths(T, x, t, PADDED_IL, PADDED_TL),
        R(6, 3, 5, seed=6020),
        L(PADDED),
    )
    case(
        "_ctc_loss.Tensor/int32-lengths-concatenated",
        lambda T, x, t: _tensor_lengths(T, x, t, CONCAT_IL, CONCAT_TL, "int32", 4),
        R(6, 3, 5, seed=6021),
        L(CONCAT),
    )
    case(
        "_ctc_loss.Tensor/0-dim-lengths",
        lambda T, x, t: T._ctc_loss(T.log_softmax(x, -1), t, T.tensor(4), T.tensor(2), 0, False)[0],
        R(5, 1, 3, seed=6022),
        L([[1, 2]]),
    )
    for label, ilt, tlt in (
        ("float-input-lengths", lambda T: T.tensor([6.0, 5.0, 6.0]), lambda T: T.tensor(PADDED_TL)),
        ("float-target-lengths", lambda T: T.tensor(PADDED_IL), lambda T: T.tensor([4.0, 2.0, 3.0])),
        ("bool-input-lengths", lambda T: T.tensor([True, True, True]), lambda T: T.tensor(PADDED_TL)),
    ):
        case(
            f"_ctc_loss.Tensor/{label}-error",
            lambda T, x, t, ilt=ilt, tlt=tlt: T._ctc_loss(x, t, ilt(T), tlt(T), 0, False),
            R(6, 3, 5, seed=6023),
            L(PADDED),
        )


def _errors() -> None:
    """PyTorch's errors, each a case of its own (both libraries must raise)."""
    errors = {
        "input-length-above-T": (R(6, 3, 5), L(PADDED), [7, 5, 6], PADDED_TL, 0),
        "negative-input-length": (R(6, 3, 5), L(PADDED), [-1, 5, 6], PADDED_TL, 0),
        "target-length-above-S": (R(6, 3, 5), L(PADDED), PADDED_IL, [5, 2, 3], 0),
        "negative-target-length": (R(6, 3, 5), L(PADDED), PADDED_IL, [4, -1, 3], 0),
        "concatenated-size": (R(6, 3, 5), L(CONCAT), CONCAT_IL, [3, 1, 2], 4),
        "targets-batch": (R(6, 3, 5), L(PADDED[:2]), PADDED_IL, PADDED_TL, 0),
        "blank-C": (R(6, 3, 5), L(PADDED), PADDED_IL, PADDED_TL, 5),
        "blank-negative": (R(6, 3, 5), L(PADDED), PADDED_IL, PADDED_TL, -1),
        "input-lengths-size": (R(6, 3, 5), L(PADDED), [6, 5], PADDED_TL, 0),
        "target-lengths-size": (R(6, 3, 5), L(PADDED), PADDED_IL, [4, 2, 3, 1], 0),
        "log-probs-2d": (R(6, 5), L(PADDED), PADDED_IL, PADDED_TL, 0),
        "log-probs-4d": (R(1, 6, 3, 5), L(PADDED), PADDED_IL, PADDED_TL, 0),
        "targets-3d": (R(6, 3, 5), L([PADDED]), PADDED_IL, PADDED_TL, 0),
        "targets-float": (R(6, 3, 5), D(PADDED), PADDED_IL, PADDED_TL, 0),
        "log-probs-int64": (L([[[0] * 5] * 3] * 6), L(PADDED), PADDED_IL, PADDED_TL, 0),
        "log-probs-empty": (D([]), L(PADDED), PADDED_IL, PADDED_TL, 0),
    }
    for label, (x, t, il, tl, blank) in errors.items():
        fn = (
            (lambda T, x, t: T._ctc_loss(x.reshape([0, 3, 5]), t, PADDED_IL, PADDED_TL, 0, False))
            if label == "log-probs-empty"
            else (lambda T, x, t, il=il, tl=tl, blank=blank: T._ctc_loss(x, t, il, tl, blank, False))
        )
        case(f"_ctc_loss/{label}-error", fn, x, t)


def _out_cases() -> None:
    def out_call(T, x, t, tensors):
        # Empty outs, resized silently (tests/python/test_nn_ctc.py checks the returned objects).
        nll, la = T.zeros([0], dtype=x.dtype), T.zeros([0], dtype=x.dtype)
        il, tl = (T.tensor(CONCAT_IL), T.tensor(CONCAT_TL)) if tensors else (CONCAT_IL, CONCAT_TL)
        T._ctc_loss(x, t, il, tl, 4, False, out=(nll, la))
        return [nll] + _defined_alpha(la, CONCAT_IL, CONCAT_TL)

    case(
        "_ctc_loss.out/concatenated",
        lambda T, x, t: out_call(T, x, t, False),
        R(6, 3, 5, seed=6030, grad=False),
        L(CONCAT),
    )
    case(
        "_ctc_loss.Tensor_out/concatenated",
        lambda T, x, t: out_call(T, x, t, True),
        R(6, 3, 5, seed=6031, grad=False),
        L(CONCAT),
    )
    case(
        "_ctc_loss.out/requires-grad-error",
        lambda T, x, t: out_call(T, x, t, False),
        R(6, 3, 5, seed=6032),
        L(CONCAT),
    )


def _backward(T, g, x, t, il, tl, blank, zero_infinity, tensors=False, out=None):
    lp = T.log_softmax(x, -1)
    nll, la = T._ctc_loss(lp.detach(), t, il, tl, blank, zero_infinity)
    if tensors:
        il, tl = T.tensor(il), T.tensor(tl)
    if out is not None:
        return T._ctc_loss_backward(g, lp, t, il, tl, nll, la, blank, zero_infinity, out=out(T, x))
    return T._ctc_loss_backward(g, lp, t, il, tl, nll, la, blank, zero_infinity)


def _backward_cases() -> None:
    # The incoming gradient and log_probs require grad: the output's own derivative raises in
    # both (PyTorch has none).
    case(
        "_ctc_loss_backward/padded",
        lambda T, g, x, t: _backward(T, g, x, t, PADDED_IL, PADDED_TL, 0, False),
        R(3, seed=6040),
        R(6, 3, 5, seed=6041),
        L(PADDED),
    )
    case(
        "_ctc_loss_backward/values-only",
        lambda T, g, x, t: _backward(T, g, x, t, CONCAT_IL, CONCAT_TL, 4, False),
        R(3, seed=6042, grad=False),
        R(6, 3, 5, seed=6043, grad=False),
        L(CONCAT),
    )
    case(
        "_ctc_loss_backward/impossible-zero-infinity",
        lambda T, g, x, t: _backward(T, g, x, t, IMPOSSIBLE_IL, IMPOSSIBLE_TL, 0, True),
        R(3, seed=6044, grad=False),
        R(6, 3, 5, seed=6045, grad=False),
        L(IMPOSSIBLE),
    )
    case(
        "_ctc_loss_backward.Tensor/padded",
        lambda T, g, x, t: _backward(T, g, x, t, PADDED_IL, PADDED_TL, 0, False, True),
        R(3, seed=6046, grad=False),
        R(6, 3, 5, seed=6047, grad=False),
        L(PADDED),
    )
    case(
        "_ctc_loss_backward.out/padded",
        lambda T, g, x, t: _backward(
            T, g, x, t, PADDED_IL, PADDED_TL, 0, False, out=lambda T, x: T.zeros([6, 3, 5], dtype=x.dtype)
        ),
        R(3, seed=6048, grad=False),
        R(6, 3, 5, seed=6049, grad=False),
        L(PADDED),
    )


def _loss(T, x, t, il, tl, blank=0, reduction=MEAN, zero_infinity=False, dim=-1):
    return T.ctc_loss(T.log_softmax(x, dim), t, il, tl, blank, reduction, zero_infinity)


def _composite_cases() -> None:
    for r, label in ((NONE, "none"), (MEAN, "mean"), (SUM, "sum")):
        case(
            f"ctc_loss.IntList/padded-{label}",
            lambda T, x, t, r=r: _loss(T, x, t, PADDED_IL, PADDED_TL, 0, r),
            R(6, 3, 5, seed=6050 + r),
            L(PADDED),
        )
        case(
            f"ctc_loss.IntList/concatenated-{label}",
            lambda T, x, t, r=r: _loss(T, x, t, CONCAT_IL, CONCAT_TL, 4, r),
            R(6, 3, 5, seed=6053 + r),
            L(CONCAT),
        )
        case(
            f"ctc_loss.IntList/zero-infinity-{label}",
            lambda T, x, t, r=r: _loss(T, x, t, IMPOSSIBLE_IL, IMPOSSIBLE_TL, 0, r, True),
            R(6, 3, 5, seed=6056 + r),
            L(IMPOSSIBLE),
        )
        case(
            f"ctc_loss.IntList/unbatched-{label}",
            lambda T, x, t, r=r: _loss(T, x, t, [6], [3], 0, r),
            R(6, 5, seed=6059 + r),
            L([3, 1, 3]),
        )
        case(
            f"ctc_loss.IntList/float32-{label}",
            lambda T, x, t, r=r: _loss(T, x, t, PADDED_IL, PADDED_TL, 0, r),
            R(6, 3, 5, seed=6062 + r, dtype="float32"),
            L(PADDED),
        )
    case(
        "ctc_loss.IntList/infinite-without-zero-infinity",
        lambda T, x, t: _loss(T, x, t, IMPOSSIBLE_IL, IMPOSSIBLE_TL, 0, SUM),
        R(6, 3, 5, seed=6065),
        L(IMPOSSIBLE),
    )
    case(
        "ctc_loss.IntList/unbatched-zero-infinity-none",
        lambda T, x, t: _loss(T, x, t, [3], [3], 0, NONE, True),
        R(6, 5, seed=6066),
        L([2, 2, 2]),
    )
    # Mean divides by the target lengths clamped to 1: an empty target's loss counts whole.
    case(
        "ctc_loss.IntList/mean-empty-target",
        lambda T, x, t: _loss(T, x, t, [6, 4], [0, 2], 0, MEAN),
        R(6, 2, 4, seed=6067),
        L([1, 3]),
    )
    case(
        "ctc_loss.IntList/batch-of-one-mean",
        lambda T, x, t: _loss(T, x, t, [7], [4], 0, MEAN),
        R(7, 1, 4, seed=6068),
        L([[3, 3, 1, 3]]),
    )
    # Another reduction value leaves the losses unreduced, as PyTorch's composite does.
    case(
        "ctc_loss.IntList/reduction-3",
        lambda T, x, t: _loss(T, x, t, PADDED_IL, PADDED_TL, 0, 3),
        R(6, 3, 5, seed=6069),
        L(PADDED),
    )
    # Floating and Int targets: converted to Long by the composite (PyTorch's).
    case(
        "ctc_loss.IntList/float-targets",
        lambda T, x, t: _loss(T, x, t.to(T.float64), PADDED_IL, PADDED_TL, 0, SUM),
        R(6, 3, 5, seed=6070),
        L(PADDED),
    )
    case(
        "ctc_loss.IntList/int32-targets",
        lambda T, x, t: _loss(T, x, t.to(T.int32), PADDED_IL, PADDED_TL, 0, SUM),
        R(6, 3, 5, seed=6071),
        L(PADDED),
    )
    case(
        "ctc_loss.IntList/second-order-not-implemented",
        lambda T, x, t: _loss(T, x, t, PADDED_IL, PADDED_TL, 0, MEAN),
        R(6, 3, 5, seed=6072),
        L(PADDED),
        second=True,
    )
    # The composite's errors: 1-D log_probs becomes 2-D (an unbatched [T, C] is unsqueezed), 4-D
    # becomes 5-D; the unbatched call's lengths must be one each.
    case("ctc_loss.IntList/log-probs-1d-error", lambda T, x, t: T.ctc_loss(x, t, [1], [1]), R(5), L([1]))
    case(
        "ctc_loss.IntList/log-probs-4d-error", lambda T, x, t: T.ctc_loss(x, t, [6], [3]), R(1, 6, 1, 5), L([[1, 2, 3]])
    )
    case(
        "ctc_loss.IntList/unbatched-two-lengths-error",
        lambda T, x, t: T.ctc_loss(x, t, [6, 5], [3, 2]),
        R(6, 5),
        L([3, 1, 3]),
    )
    case(
        "ctc_loss.IntList/input-length-above-T-error",
        lambda T, x, t: T.ctc_loss(x, t, [7, 5, 6], PADDED_TL),
        R(6, 3, 5),
        L(PADDED),
    )


def _tensor_composite_cases() -> None:
    def loss(T, x, t, il, tl, blank=0, reduction=MEAN, zero_infinity=False, dtype="int64"):
        ilt, tlt = T.tensor(il, dtype=getattr(T, dtype)), T.tensor(tl, dtype=getattr(T, dtype))
        return T.ctc_loss(T.log_softmax(x, -1), t, ilt, tlt, blank, reduction, zero_infinity)

    for r, label in ((NONE, "none"), (MEAN, "mean"), (SUM, "sum")):
        case(
            f"ctc_loss.Tensor/padded-{label}",
            lambda T, x, t, r=r: loss(T, x, t, PADDED_IL, PADDED_TL, 0, r),
            R(6, 3, 5, seed=6080 + r),
            L(PADDED),
        )
    case(
        "ctc_loss.Tensor/int32-lengths-zero-infinity",
        lambda T, x, t: loss(T, x, t, IMPOSSIBLE_IL, IMPOSSIBLE_TL, 0, MEAN, True, "int32"),
        R(6, 3, 5, seed=6083),
        L(IMPOSSIBLE),
    )
    case(
        "ctc_loss.Tensor/unbatched-0-dim-lengths",
        lambda T, x, t: T.ctc_loss(T.log_softmax(x, -1), t, T.tensor(6), T.tensor(3), 0, MEAN, False),
        R(6, 5, seed=6084),
        L([4, 1, 4]),
    )
    case(
        "ctc_loss.Tensor/float-lengths-error",
        lambda T, x, t: T.ctc_loss(x, t, T.tensor([6.0, 5.0, 6.0]), T.tensor(PADDED_TL)),
        R(6, 3, 5),
        L(PADDED),
    )
    # Tensor and list lengths mixed: no overload takes them (TypeError in both).
    case(
        "ctc_loss.Tensor/mixed-lengths-error",
        lambda T, x, t: T.ctc_loss(x, t, T.tensor(PADDED_IL), PADDED_TL),
        R(6, 3, 5),
        L(PADDED),
    )


def _functional_cases() -> None:
    """torch.nn.functional.ctc_loss (gradgen.nn.functional's): lengths as lists, tuples, tensors."""

    def f(T, x, t, il, tl, **kw):
        return T.nn.functional.ctc_loss(T.log_softmax(x, 2), t, il, tl, **kw)

    case(
        "ctc_loss.IntList/functional-lists-mean",
        lambda T, x, t: f(T, x, t, PADDED_IL, PADDED_TL),
        R(6, 3, 5, seed=6090),
        L(PADDED),
    )
    case(
        "ctc_loss.IntList/functional-tuples-sum-blank",
        lambda T, x, t: f(T, x, t, tuple(CONCAT_IL), tuple(CONCAT_TL), blank=4, reduction="sum"),
        R(6, 3, 5, seed=6091),
        L(CONCAT),
    )
    case(
        "ctc_loss.Tensor/functional-tensors-none-zero-infinity",
        lambda T, x, t: f(
            T, x, t, T.tensor(IMPOSSIBLE_IL), T.tensor(IMPOSSIBLE_TL), reduction="none", zero_infinity=True
        ),
        R(6, 3, 5, seed=6092),
        L(IMPOSSIBLE),
    )
    case(
        "ctc_loss.IntList/functional-bad-reduction-error",
        lambda T, x, t: f(T, x, t, PADDED_IL, PADDED_TL, reduction="avg"),
        R(6, 3, 5),
        L(PADDED),
    )


def _max_pool1d_with_indices() -> None:
    case(
        "max_pool1d_with_indices/stride-padding-ceil",
        lambda T, x: T.max_pool1d_with_indices(x, [3], [2], [1], [1], True),
        R(2, 3, 9, seed=6100),
        second=True,
    )
    case(
        "max_pool1d_with_indices/unbatched-dilation",
        lambda T, x: T.max_pool1d_with_indices(x, [2], [], [0], [2], False),
        R(2, 7, seed=6101),
        second=True,
    )
    case(
        "max_pool1d_with_indices/functional-return-indices",
        lambda T, x: T.nn.functional.max_pool1d(x, 3, return_indices=True),
        R(1, 2, 12, seed=6102),
        second=True,
    )
    case(
        "max_pool1d_with_indices/functional-return-indices-stride",
        lambda T, x: T.nn.functional.max_pool1d(x, (2,), stride=1, padding=1, return_indices=True),
        R(2, 5, seed=6103),
    )
    case(
        "max_pool1d_with_indices/ties",
        lambda T, x: T.max_pool1d_with_indices(x, [2], [1]),
        D([[[1.0, 1.0, 0.5, 2.0, 2.0]]]),
    )
    case(
        "max_pool1d_with_indices/empty-batch", lambda T, x: T.max_pool1d_with_indices(x.reshape([0, 2, 4]), [2]), D([])
    )
    case("max_pool1d_with_indices/4d-error", lambda T, x: T.max_pool1d_with_indices(x, [2]), R(1, 1, 2, 4))
    case("max_pool1d_with_indices/kernel-size-2-error", lambda T, x: T.max_pool1d_with_indices(x, [2, 2]), R(1, 2, 4))
    case("max_pool1d_with_indices/padding-error", lambda T, x: T.max_pool1d_with_indices(x, [3], [1], [2]), R(1, 2, 6))


_forward_cases()
_tensor_cases()
_errors()
_out_cases()
_backward_cases()
_composite_cases()
_tensor_composite_cases()
_functional_cases()
_max_pool1d_with_indices()
