"""bitwise_left_shift / bitwise_right_shift and Python's << >> <<= >>= (issue 23).

Their values, promotion and out-of-range amounts are checked against PyTorch by the differential
test (tests/differential/cases_shift.py); here: that the operators and the methods exist and call
the ops, that `x <<= n` keeps the object, the error types and messages (PyTorch's
NotImplementedError for floating and Bool operands), and that no history is recorded.
"""

import pytest

import gradgen


def test_operators_call_the_shift_ops():
    a = gradgen.tensor([1, -3, 100], dtype=gradgen.int8)
    assert (a << 1).tolist() == [2, -6, -56] and (a << 1).dtype is gradgen.int8
    assert (a >> 1).tolist() == [0, -2, 50]
    assert (a << gradgen.tensor([0, 1, 8], dtype=gradgen.int8)).tolist() == [1, -6, 0]
    s = gradgen.tensor([0, 1, 7])
    assert (2 << s).tolist() == [2, 4, 256] and (2 << s).dtype is gradgen.int64
    assert (-256 >> s).tolist() == [-256, -128, -2]
    assert a.bitwise_left_shift(2).tolist() == gradgen.bitwise_left_shift(a, 2).tolist()
    assert gradgen.bitwise_right_shift(64, s).tolist() == [64, 32, 0]


def test_out_of_range_amounts_as_pytorch():
    x = gradgen.tensor([5, -5])
    for k in (-1, 64, 100):
        assert (x << k).tolist() == [0, 0]
        assert (x >> k).tolist() == [0, -1]
    u = gradgen.tensor([255], dtype=gradgen.uint8)
    assert (u >> 7).tolist() == [1] and (u >> 8).tolist() == [0]


def test_inplace_operators_keep_the_object():
    a = gradgen.tensor([1, 2, 3], dtype=gradgen.int16)
    b = a
    a <<= 2
    assert a is b and a.tolist() == [4, 8, 12] and a.dtype is gradgen.int16
    a >>= gradgen.tensor([1, 2, 3])  # int64 amounts: self keeps int16
    assert a is b and a.tolist() == [2, 2, 1] and a.dtype is gradgen.int16
    r = a.bitwise_left_shift_(1)
    assert r is a and a.tolist() == [4, 4, 2]
    assert a.bitwise_right_shift_(gradgen.tensor(1)) is a and a.tolist() == [2, 2, 1]


def test_out_variants():
    x = gradgen.tensor([1, -2], dtype=gradgen.int8)
    out = gradgen.zeros([0], dtype=gradgen.int64)
    assert gradgen.bitwise_left_shift(x, 3, out=out) is out and out.tolist() == [8, -16]
    assert gradgen.bitwise_right_shift(x, gradgen.tensor([1, 1]), out=out).tolist() == [0, -1]


def test_floating_and_bool_operands_are_refused_as_pytorch():
    f = gradgen.tensor([1.0], dtype=gradgen.float64)
    with pytest.raises(NotImplementedError, match=r"^\"lshift_cpu\" not implemented for 'Double'$"):
        f << 1
    with pytest.raises(NotImplementedError, match=r"\"rshift_cpu\" not implemented for 'Float'"):
        gradgen.tensor([4]) >> 1.5
    with pytest.raises(NotImplementedError, match=r"\"lshift_cpu\" not implemented for 'Float'"):
        2.0 << gradgen.tensor([1])
    with pytest.raises(NotImplementedError, match=r"\"rshift_cpu\" not implemented for 'Half'"):
        gradgen.bitwise_right_shift(f.half(), 1)
    m = gradgen.tensor([True, False])
    with pytest.raises(NotImplementedError, match=r"\"lshift_cpu\" not implemented for 'Bool'"):
        m << m
    assert (m << 1).tolist() == [2, 0]  # a Python int promotes Bool to int64, as PyTorch
    a = gradgen.tensor([1, 2], dtype=gradgen.int8)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Char"):
        a <<= 1.5
    assert a.tolist() == [1, 2]


def test_no_history():
    x = gradgen.tensor([1.0, 2.0], requires_grad=True)
    y = x.long() << 1
    assert not y.requires_grad and y.grad_fn is None
