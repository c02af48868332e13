"""Python's in-place bitwise operators `&=`, `|=`, `^=` (issue 23), as PyTorch's __iand__ /
__ior__ / __ixor__: the same tensor is written (not a new one bound to the name), the result is
cast into self's dtype, and PyTorch's refusals with its error types and words (checked with
torch 2.13; tests/differential/cases_bitwise_inplace.py runs them against PyTorch itself).
"""

import pytest

import gradgen as g


def test_writes_self_in_place_and_keeps_its_dtype():
    x = g.tensor([6, 3], dtype=g.int8)
    alias = x
    view = x[:1]
    version = x._version
    x &= 3
    assert x is alias and x.tolist() == [2, 3] and x.dtype is g.int8
    assert x._version > version and view.tolist() == [2]  # the storage itself was written
    x |= g.tensor([8, 16])  # an int64 operand: the int64 result is cast back into int8
    assert x is alias and x.tolist() == [10, 19] and x.dtype is g.int8
    x ^= True
    assert x.tolist() == [11, 18]


def test_bool_tensors_are_logical():
    b = g.tensor([True, False, True])
    b &= g.tensor([True, True, False])
    assert b.tolist() == [True, False, False]
    b |= False
    assert b.tolist() == [True, False, False]
    b ^= g.tensor([True])  # broadcast
    assert b.tolist() == [False, True, True] and b.dtype is g.bool


@pytest.mark.parametrize("op", ["__iand__", "__ior__", "__ixor__"])
def test_a_result_type_self_cannot_hold_is_refused(op):
    name = {"__iand__": "and", "__ior__": "or", "__ixor__": "xor"}[op]
    b = g.tensor([True])
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        getattr(b, op)(g.tensor([1]))
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        getattr(b, op)(1)
    with pytest.raises(RuntimeError, match="^bitwise_%s_: result type Float can't be cast" % name):
        getattr(g.tensor([1, 2]), op)(g.tensor([1.5]))
    assert b.tolist() == [True]  # unchanged


@pytest.mark.parametrize("op", ["__iand__", "__ior__", "__ixor__"])
def test_floating_operands_and_shape_changes_are_refused(op):
    with pytest.raises(NotImplementedError, match="not implemented for 'Float'"):
        getattr(g.tensor([1.0]), op)(1)
    with pytest.raises(NotImplementedError, match="not implemented for 'Double'"):
        getattr(g.tensor([1.0], dtype=g.float64), op)(g.tensor([1]))
    x = g.tensor([6, 3])
    with pytest.raises(RuntimeError, match=r"output with shape \[2\] doesn't match the broadcast shape \[2, 2\]"):
        getattr(x, op)(g.tensor([[1], [2]]))
    assert x.tolist() == [6, 3]


def test_inplace_methods_check_the_shape_before_the_cast_as_pytorch():
    # torch 2.13: int64 [1] .bitwise_and_(float64 [2, 1]) is the shape's RuntimeError, not the
    # cast's (both RuntimeError, so only the words tell them apart); the shifts' in place too.
    x, f = g.tensor([6]), g.tensor([[1.0], [2.0]], dtype=g.float64)
    for op in ("bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_left_shift_", "bitwise_right_shift_"):
        with pytest.raises(RuntimeError, match=r"output with shape \[1\] doesn't match the broadcast shape \[2, 1\]"):
            getattr(x, op)(f)
        with pytest.raises(RuntimeError, match="result type Double can't be cast to the desired output type Long"):
            getattr(x, op)(g.tensor([1.5], dtype=g.float64))
    assert x.tolist() == [6]


def test_out_variants_check_the_cast_before_refusing_floats_as_pytorch():
    a = g.tensor([1.5], dtype=g.float64)
    with pytest.raises(RuntimeError, match="result type Double can't be cast to the desired output type Long"):
        g.bitwise_and(a, a, out=g.zeros([0], dtype=g.int64))
    with pytest.raises(NotImplementedError, match="^\"bitwise_and_cpu\" not implemented for 'Double'$"):
        g.bitwise_and(a, a, out=g.zeros([0], dtype=g.float64))
    with pytest.raises(RuntimeError, match="Found dtype Long but expected Double"):
        g.bitwise_not(a, out=g.zeros([0], dtype=g.int64))
    with pytest.raises(NotImplementedError, match="\"bitwise_not_cpu\" not implemented for 'Double'"):
        a.bitwise_not_()
