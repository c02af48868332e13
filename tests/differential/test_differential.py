"""gradgen against PyTorch: every case of cases.py, compared with the checked-in expected.json.

expected.json was written by run_torch.py (PyTorch CPU); this test needs no PyTorch. Outputs and
gradients must match: exactly for integer and bool dtypes, shapes, dtypes, and NaN/inf positions;
within 1e-12 relative (plus 1e-13 absolute, for values that cancel to about zero) for float64,
1e-5 relative for float32, one unit in the last place for float16 and bfloat16. A case that
raised under PyTorch must raise here (any exception type). A case listed in
known_differences.txt must differ (so a fixed one is noticed and taken off the list); every other
case must match.
"""

from __future__ import annotations

import json
import math
import os

import pytest

import gradgen

HERE = os.path.dirname(os.path.abspath(__file__))

import sys  # noqa: E402

sys.path.insert(0, HERE)

import cases  # noqa: E402
import harness  # noqa: E402

with open(os.path.join(HERE, "expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


def _known_differences():
    known = {}
    with open(os.path.join(HERE, "known_differences.txt")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition(": ")
            assert reason, "known_differences.txt: no reason given for " + name
            known[name] = reason
    return known


KNOWN = _known_differences()
CASES = cases.by_name()


INTEGER_DTYPES = ("int64", "int32", "int16", "int8", "uint8", "bool")


def _close(got, want, dtype):
    if isinstance(want, bool) or dtype in INTEGER_DTYPES:
        return got == want
    if math.isnan(want):
        return math.isnan(got)
    if math.isinf(want) or math.isinf(got):
        return got == want
    if dtype == "float32":
        return abs(got - want) <= 1e-5 * abs(want) + 1e-6
    if dtype in ("float16", "bfloat16"):
        # One unit in the last place (2^-10 and 2^-7 relative): both compute in float32 and round
        # once, but float32's last bits (exp, a sum's order) may round to the neighbour. Casts
        # that must round exactly return float64 copies (cases_dtype.py).
        ulp = 2.0**-10 if dtype == "float16" else 2.0**-7
        return abs(got - want) <= ulp * abs(want) + 1e-6
    return abs(got - want) <= 1e-12 * abs(want) + 1e-13


def _compare_tensor(what, got, want):
    if want is None or got is None:
        # PyTorch's None (no path to the input) and a gradient of zeros are the same gradient.
        other = got if want is None else want
        if other is not None and any(v != 0 for v in other["values"]):
            return ["%s: %s, expected %s" % (what, got, want)]
        return []
    errors = []
    if got["dtype"] != want["dtype"]:
        errors.append("%s: dtype %s, expected %s" % (what, got["dtype"], want["dtype"]))
    if got["shape"] != want["shape"]:
        errors.append("%s: shape %s, expected %s" % (what, got["shape"], want["shape"]))
        return errors
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got["values"], want["values"])) if not _close(g, w, want["dtype"])]
    if bad:
        errors.append(
            "%s: %d of %d values differ, first at %d: %r, expected %r"
            % ((what, len(bad), len(want["values"])) + bad[0])
        )
    return errors


def compare(got, want):
    """The differences between two records, as readable lines (empty when they agree)."""
    if "error" in want or "error" in got:
        if ("error" in want) != ("error" in got):
            return ["raised: %s, expected %s" % (got.get("error"), want.get("error"))]
        return []
    errors = []
    for key in ("grad_error", "grads2_error"):
        if (key in got) != (key in want):
            errors.append("%s: %s, expected %s" % (key, got.get(key), want.get(key)))
    for key in ("outputs", "grads", "grads2"):
        g, w = got.get(key), want.get(key)
        if (g is None) != (w is None):
            errors.append(
                "%s: %s, expected %s" % (key, "none" if g is None else "some", "none" if w is None else "some")
            )
            continue
        if g is None:
            continue
        if len(g) != len(w):
            errors.append("%s: %d tensors, expected %d" % (key, len(g), len(w)))
            continue
        for i, (gt, wt) in enumerate(zip(g, w)):
            errors.extend(_compare_tensor("%s[%d]" % (key, i), gt, wt))
    return errors


def test_every_case_has_expected_data():
    assert sorted(CASES) == sorted(EXPECTED), "run run_torch.py: expected.json is not the case list's"
    assert not set(KNOWN) - set(CASES), "known_differences.txt names unknown cases"


def test_every_op_of_specs_has_cases():
    import yaml

    specs = os.path.join(os.path.dirname(os.path.dirname(HERE)), "specs", "native_functions.yaml")
    with open(specs) as f:
        decls = yaml.safe_load(f)
    prefixes = {name.split("/")[0] for name in CASES}
    missing = [d["func"].split("(")[0] for d in decls if d["func"].split("(")[0] not in prefixes]
    assert not missing, "ops of specs/ without a differential case: %s" % missing


@pytest.mark.parametrize("name", list(CASES))
def test_case(name):
    got = harness.run(gradgen, CASES[name])
    errors = compare(got, EXPECTED[name])
    if name in KNOWN:
        assert errors, "%s now matches PyTorch: take it off known_differences.txt" % name
        pytest.xfail(KNOWN[name])
    assert not errors, "\n".join(errors)


def test_out_resize_warns_like_pytorch():
    """A non-empty out= of the wrong shape is resized with PyTorch's UserWarning; an empty one silently."""
    import warnings

    a, b = gradgen.ones([2, 3]), gradgen.ones([3])
    out = gradgen.zeros([3])
    with pytest.warns(UserWarning, match=r"An output with one or more elements was resized since it had shape \[3\]"):
        gradgen.add(a, b, out=out)
    assert list(out.shape) == [2, 3] and out.tolist() == [[2.0] * 3] * 2
    empty = gradgen.zeros([0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gradgen.mul(a, b, out=empty)
    assert list(empty.shape) == [2, 3]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the warnings filter's error reaches the caller
        with pytest.raises(UserWarning):
            gradgen.add(a, b, out=gradgen.zeros([4]))
