"""gradgen.nn.functional.ctc_loss and gradgen.ctc_loss (issue 26, the last op) against numbers
PyTorch (2.13, CPU, float64) computed for the same calls, the lengths as lists, tuples and
tensors, gradients against finite differences through log_softmax, PyTorch's errors (types and
words), and F.max_pool1d(..., return_indices=True) / gradgen.max_pool1d_with_indices.
"""

from __future__ import annotations

import pytest
from gradcheck_util import flat, gradcheck

import gradgen
import gradgen.nn.functional as F

# log_probs [T, N, C] = [5, 2, 4] before log_softmax; targets [[1, 2, 2], [3, 1, 0]], input
# lengths [5, 4], target lengths [3, 2].
X = [[[0.5 * ((3 * t + 5 * n + 7 * c) % 11) / 11 - 0.2 * c for c in range(4)] for n in range(2)] for t in range(5)]
TARGETS = [[1, 2, 2], [3, 1, 0]]
IL, TL = [5, 4], [3, 2]

# Written by PyTorch 2.13 (CPU, float64): F.ctc_loss(x.log_softmax(2), targets, IL, TL,
# reduction=...) and the gradient of sum(y * k) in x, k = 0.1, 0.2, ... over y's elements.
TORCH = {
    "none": (
        [4.478689697404814, 2.595566443147877],
        [
            0.009846472745704,
            -0.053293474796561,
            0.020441331586124,
            0.023005670464733,
            -0.020107296829135,
            0.045885796011686,
            0.051642110378631,
            -0.077420609561182,
            0.012494715323768,
            -0.002698922882389,
            -0.025138239191356,
            0.015342446749978,
            0.000884881835709,
            0.019212119222972,
            0.034864705364003,
            -0.054961706422683,
            -0.001127239949753,
            0.022942898005843,
            -0.039441604917632,
            0.017625946861542,
            0.004726342906191,
            -0.04567408931128,
            0.040882663172249,
            6.508323284e-05,
            -0.044612766273046,
            0.025537450227068,
            -0.000543902963187,
            0.019619219009165,
            -0.000548823819365,
            -0.075087772687785,
            0.044951703007194,
            0.030684893499956,
            0.019089688085276,
            0.032925902174793,
            -0.067358037010047,
            0.015342446749978,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
    ),
    "mean": (
        [1.395339893687772],
        [
            0.001641078790951,
            -0.008882245799427,
            0.003406888597687,
            0.003834278410789,
            -0.002513412103642,
            0.005735724501461,
            0.006455263797329,
            -0.009677576195148,
            0.002082452553961,
            -0.000449820480398,
            -0.004189706531893,
            0.00255707445833,
            0.000110610229464,
            0.002401514902871,
            0.0043580881705,
            -0.006870213302835,
            -0.000187873324959,
            0.003823816334307,
            -0.006573600819605,
            0.002937657810257,
            0.000590792863274,
            -0.00570926116391,
            0.005110332896531,
            8.135404105e-06,
            -0.007435461045508,
            0.004256241704511,
            -9.0650493864e-05,
            0.003269869834861,
            -6.8602977421e-05,
            -0.009385971585973,
            0.005618962875899,
            0.003835611687494,
            0.003181614680879,
            0.005487650362466,
            -0.011226339501674,
            0.00255707445833,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
    ),
    "sum": (
        [7.074256140552691],
        [
            0.009846472745704,
            -0.053293474796561,
            0.020441331586124,
            0.023005670464733,
            -0.010053648414567,
            0.022942898005843,
            0.025821055189315,
            -0.038710304780591,
            0.012494715323768,
            -0.002698922882389,
            -0.025138239191356,
            0.015342446749978,
            0.000442440917854,
            0.009606059611486,
            0.017432352682002,
            -0.027480853211342,
            -0.001127239949753,
            0.022942898005843,
            -0.039441604917632,
            0.017625946861542,
            0.002363171453096,
            -0.02283704465564,
            0.020441331586124,
            3.254161642e-05,
            -0.044612766273046,
            0.025537450227068,
            -0.000543902963187,
            0.019619219009165,
            -0.000274411909682,
            -0.037543886343893,
            0.022475851503597,
            0.015342446749978,
            0.019089688085276,
            0.032925902174793,
            -0.067358037010047,
            0.015342446749978,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
    ),
}


def _x(requires_grad=True):
    return gradgen.tensor(X, dtype=gradgen.float64, requires_grad=requires_grad)


def _long(data):
    return gradgen.tensor(data, dtype=gradgen.int64)


def _lengths(kind):
    if kind == "list":
        return IL, TL
    if kind == "tuple":
        return tuple(IL), tuple(TL)
    dtype = gradgen.int32 if kind == "int32 tensor" else gradgen.int64
    return gradgen.tensor(IL, dtype=dtype), gradgen.tensor(TL, dtype=dtype)


@pytest.mark.parametrize("kind", ["list", "tuple", "tensor", "int32 tensor"])
@pytest.mark.parametrize("reduction", sorted(TORCH))
def test_matches_torch(reduction, kind):
    x = _x()
    il, tl = _lengths(kind)
    y = F.ctc_loss(x.log_softmax(2), _long(TARGETS), il, tl, reduction=reduction)
    k = gradgen.tensor([(i + 1) / 10 for i in range(y.numel())], dtype=gradgen.float64).reshape(list(y.shape))
    (g,) = gradgen.autograd.grad((y * k).sum(), [x])
    want_y, want_g = TORCH[reduction]
    assert flat(y.tolist()) == pytest.approx(want_y, rel=1e-12, abs=1e-14)
    assert flat(g.tolist()) == pytest.approx(want_g, rel=1e-10, abs=1e-14)


def test_the_functional_is_torch_ctc_loss_with_the_reduction_enum():
    x = _x(False).log_softmax(2)
    for reduction, enum in (("none", 0), ("mean", 1), ("sum", 2)):
        a = F.ctc_loss(x, _long(TARGETS), IL, TL, 0, reduction, False)
        b = gradgen.ctc_loss(x, _long(TARGETS), IL, TL, 0, enum, False)
        assert flat(a.tolist()) == flat(b.tolist())
    # Defaults: blank 0, reduction mean, zero_infinity False.
    assert gradgen.ctc_loss(x, _long(TARGETS), IL, TL).item() == pytest.approx(TORCH["mean"][0][0], rel=1e-12)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_gradcheck_through_log_softmax(reduction):
    """PyTorch's gradient is the loss's through a log_softmax of log_probs (its own gradcheck
    wraps ctc_loss the same way): checked against finite differences of that composition."""
    x = _x()
    targets = _long([1, 2, 2, 3, 1])  # 1-D concatenated

    def f(v):
        return F.ctc_loss(v.log_softmax(2), targets, IL, TL, reduction=reduction)

    gradcheck(f, [x])


def test_zero_infinity():
    x = _x()
    # Sequence 0 (1, 1, 1 in 4 frames) cannot be aligned: 5 frames needed.
    targets, il, tl = _long([[1, 1, 1], [3, 1, 0]]), [4, 4], [3, 2]
    inf = F.ctc_loss(x.log_softmax(2), targets, il, tl, reduction="none")
    assert inf.tolist()[0] == float("inf")
    y = F.ctc_loss(x.log_softmax(2), targets, il, tl, reduction="none", zero_infinity=True)
    assert y.tolist()[0] == 0.0 and y.tolist()[1] == inf.tolist()[1]
    (g,) = gradgen.autograd.grad(y.sum(), [x])
    assert all(v == 0.0 for v in flat(g[:, 0].tolist()))
    assert any(v != 0.0 for v in flat(g[:, 1].tolist()))


def test_unbatched_and_0_dim_lengths():
    x = _x(False).log_softmax(2)
    batched = F.ctc_loss(x[:, :1], _long([TARGETS[0]]), [5], [3], reduction="none")
    for il, tl in (([5], [3]), (gradgen.tensor(5), gradgen.tensor(3))):
        y = F.ctc_loss(x[:, 0], _long(TARGETS[0]), il, tl, reduction="none")
        assert list(y.shape) == [] and y.item() == pytest.approx(batched.item(), rel=1e-15)


def test_out_returns_the_given_tensors():
    x = _x(False).log_softmax(2)
    nll, la = gradgen.zeros([0], dtype=gradgen.float64), gradgen.zeros([0], dtype=gradgen.float64)
    r = gradgen._ctc_loss(x, _long(TARGETS), IL, TL, 0, False, out=(nll, la))
    assert r[0] is nll and r[1] is la
    want_nll, want_la = gradgen._ctc_loss(x, _long(TARGETS), IL, TL)
    assert nll.tolist() == want_nll.tolist() and la.tolist() == want_la.tolist()
    # log_alpha is -inf where no alpha is defined (PyTorch leaves that memory uninitialised).
    assert list(la.shape) == [2, 5, 7]
    assert all(v == float("-inf") for v in flat(la[1, 4].tolist()) + flat(la[1, :, 5:].tolist()))


def test_the_second_derivative_is_not_implemented_as_in_pytorch():
    x = _x()
    y = F.ctc_loss(x.log_softmax(2), _long(TARGETS), IL, TL)
    (g,) = gradgen.autograd.grad(y, [x], create_graph=True)
    with pytest.raises(RuntimeError, match="the derivative for '_ctc_loss_backward' is not implemented"):
        gradgen.autograd.grad(g.sum(), [x])


P = [[[0.1 * ((5 * t + 3 * n + c) % 7) for c in range(4)] for n in range(2)] for t in range(5)]

# (call, PyTorch's exception type, PyTorch's words) for bad arguments; PyTorch 2.13 raised each.
ERRORS = {
    "input length above T": (
        lambda lp, t: gradgen._ctc_loss(lp, t, [6, 4], TL),
        RuntimeError,
        "Expected input_lengths to have value at most 5, but got value 6",
    ),
    "negative input length": (
        lambda lp, t: gradgen._ctc_loss(lp, t, [-1, 4], TL),
        RuntimeError,
        "Expected input_lengths to have value at least 0, but got value -1",
    ),
    "target length above S": (
        lambda lp, t: gradgen._ctc_loss(lp, t, IL, [4, 2]),
        RuntimeError,
        "Expected tensor to have size at least 4 at dimension 1, but got size 3 for argument #2 'targets'",
    ),
    "negative target length": (
        lambda lp, t: gradgen._ctc_loss(lp, t, IL, [3, -1]),
        RuntimeError,
        "Expected target_lengths to have value at least 0, but got value -1",
    ),
    "concatenated targets vs target lengths": (
        lambda lp, t: gradgen._ctc_loss(lp, _long([1, 2, 2, 3]), IL, TL),
        RuntimeError,
        "Expected tensor to have size 5 at dimension 0, but got size 4 for argument #2 'targets'",
    ),
    "padded targets' batch": (
        lambda lp, t: gradgen._ctc_loss(lp, t[:1], IL, TL),
        RuntimeError,
        "Expected tensor to have size 2 at dimension 0, but got size 1 for argument #2 'targets'",
    ),
    "blank C": (lambda lp, t: gradgen._ctc_loss(lp, t, IL, TL, 4), RuntimeError, "blank must be in label range"),
    "blank -1": (lambda lp, t: gradgen._ctc_loss(lp, t, IL, TL, -1), RuntimeError, "blank must be in label range"),
    "input lengths' size": (
        lambda lp, t: gradgen._ctc_loss(lp, t, [5], TL),
        RuntimeError,
        "input_lengths must be of size batch_size",
    ),
    "target lengths' size": (
        lambda lp, t: gradgen._ctc_loss(lp, t, IL, [3]),
        RuntimeError,
        "target_lengths must be of size batch_size",
    ),
    "2-D log_probs": (
        lambda lp, t: gradgen._ctc_loss(lp[0], t, IL, TL),
        RuntimeError,
        "Expected 3-dimensional tensor, but got 2-dimensional tensor for argument #1 'log_probs'",
    ),
    "1-D log_probs in the composite": (
        lambda lp, t: F.ctc_loss(lp[0, 0], t[0], [5], [3]),
        RuntimeError,
        "Expected 3-dimensional tensor, but got 2-dimensional tensor for argument #1 'log_probs'",
    ),
    "3-D targets": (
        lambda lp, t: gradgen._ctc_loss(lp, t.unsqueeze(0), IL, TL),
        RuntimeError,
        "Expected 1 to 2 dimensions, but got 3-dimensional tensor for argument #2 'targets'",
    ),
    "floating targets": (
        lambda lp, t: gradgen._ctc_loss(lp, t.to(gradgen.float64), IL, TL),
        RuntimeError,
        "Expected tensor for argument #2 'targets' to have scalar type",
    ),
    "integer log_probs": (
        lambda lp, t: gradgen._ctc_loss(lp.to(gradgen.int64), t, IL, TL),
        NotImplementedError,
        "\"ctc_loss_cpu\" not implemented for 'Long'",
    ),
    "empty log_probs": (
        lambda lp, t: gradgen._ctc_loss(lp[:0], t, IL, TL),
        RuntimeError,
        "log_probs tensor must not be empty",
    ),
    "floating input lengths": (
        lambda lp, t: F.ctc_loss(lp, t, gradgen.tensor([5.0, 4.0]), gradgen.tensor(TL)),
        RuntimeError,
        "input_lengths must be integral",
    ),
    "bool target lengths": (
        lambda lp, t: gradgen._ctc_loss(lp, t, gradgen.tensor(IL), gradgen.tensor([True, True])),
        RuntimeError,
        "target_lengths must be integral",
    ),
    "unbatched with two lengths": (
        lambda lp, t: F.ctc_loss(lp[:, 0], t[0], IL, TL),
        RuntimeError,
        "input_lengths must be of size batch_size",
    ),
    "a reduction that is not one": (
        lambda lp, t: F.ctc_loss(lp, t, IL, TL, reduction="avg"),
        ValueError,
        "avg is not a valid value for reduction",
    ),
    "tensor and list lengths mixed": (
        lambda lp, t: F.ctc_loss(lp, t, gradgen.tensor(IL), TL),
        TypeError,
        "ctc_loss",
    ),
    "float list lengths": (lambda lp, t: F.ctc_loss(lp, t, [5.0, 4.0], TL), TypeError, "ctc_loss"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_as_pytorch(name):
    call, exc_type, words = ERRORS[name]
    lp = gradgen.tensor(P, dtype=gradgen.float64)
    with pytest.raises(exc_type) as info:
        call(lp, _long(TARGETS))
    assert type(info.value) is exc_type
    assert words in str(info.value)


def test_labels_outside_the_classes_are_refused():
    # PyTorch's CPU kernel does not check them and reads outside log_probs; gradgen refuses them.
    lp = gradgen.tensor(P, dtype=gradgen.float64)
    for bad in (4, -1):
        with pytest.raises(IndexError, match=r"_ctc_loss: target %d \(label 2 of sequence 0\) is out of bounds" % bad):
            gradgen._ctc_loss(lp, _long([[1, 2, bad], [3, 1, 0]]), IL, TL)
    # The padding after a sequence's labels is never read: anything goes there.
    gradgen._ctc_loss(lp, _long([[1, 2, 2], [3, 1, -7]]), IL, TL)


def test_max_pool1d_return_indices():
    # torch's F.max_pool1d(x, 3, stride=2, padding=1, return_indices=True) on these values.
    x = gradgen.tensor([[[1.5, -0.5, 3.25, 2.5, 0.0, 3.5, -1.0]]], dtype=gradgen.float64, requires_grad=True)
    out, indices = F.max_pool1d(x, 3, stride=2, padding=1, return_indices=True)
    assert out.tolist() == [[[1.5, 3.25, 3.5, 3.5]]]
    assert indices.tolist() == [[[0, 2, 5, 5]]] and indices.dtype == gradgen.int64
    o2, i2 = gradgen.max_pool1d_with_indices(x, [3], [2], [1])
    assert o2.tolist() == out.tolist() and i2.tolist() == indices.tolist()
    assert F.max_pool1d(x, 3, stride=2, padding=1).tolist() == out.tolist()
    (g,) = gradgen.autograd.grad(out.sum(), [x])
    assert g.tolist() == [[[1.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0]]]
    # The inverse, as torch's: max_unpool1d of the pooled values at their indices.
    u = F.max_unpool1d(out, indices, 3, stride=2, padding=1, output_size=[7])
    assert u.tolist() == [[[1.5, 0.0, 3.25, 0.0, 0.0, 3.5, 0.0]]]


def test_max_pool1d_with_indices_errors_as_pytorch():
    x = gradgen.zeros([1, 1, 2, 4], dtype=gradgen.float64)
    with pytest.raises(
        RuntimeError, match="Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self'"
    ):
        gradgen.max_pool1d_with_indices(x, [2])
    with pytest.raises(RuntimeError, match=r"max_pool1d\(\) argument 'kernel_size' should contain one int \(got 2\)"):
        gradgen.max_pool1d_with_indices(x[0], [2, 2])
