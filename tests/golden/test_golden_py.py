"""The golden spec's ops from Python: the checked-in python_functions.cpp, compiled and called."""

import golden_ops_py as golden
import pytest

import gradgen


def t(data, requires_grad=True):
    return gradgen.tensor(data, dtype=gradgen.float64, requires_grad=requires_grad)


def test_function_method_and_inplace_method():
    x = t([0.5, -1.0])
    y = golden.foo(x)
    assert y.grad_fn.name() == "FooBackward0"
    assert x.foo().tolist() == y.tolist()  # variants: method, bound on gradgen.Tensor
    z = x.detach().clone()
    assert z.foo_() is z and z.tolist() == y.tolist()
    assert not hasattr(golden, "foo_")  # foo_ is a method only
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx(y.tolist())  # d exp = exp


def test_out_and_tuple_returns_and_lists():
    x = t([1.0, 2.0], requires_grad=False)
    out = gradgen.zeros([2], dtype=gradgen.float64)
    assert golden.foo(x, out=out) is out and out.tolist() == golden.foo(x).tolist()
    a, b = golden.scaled_and_squared(x, 3.0)
    assert a.tolist() == [3.0, 6.0] and b.tolist() == [1.0, 4.0]
    assert golden.weighted_sum([x, x], [0.5, 2.0]).tolist() == [2.5, 5.0]
    assert golden.weighted_sum((x,), weights=(1.0,)).tolist() == [1.0, 2.0]
    assert golden.prod_all([x, x, x]).tolist() == [1.0, 8.0]


def test_optional_tensor_and_foreach():
    x, w = t([2.0, 3.0]), t([10.0, 0.5])
    assert golden.maybe_mul(x).tolist() == [2.0, 3.0]
    assert golden.maybe_mul(x, None).tolist() == [2.0, 3.0]
    assert golden.maybe_mul(x, weight=w).tolist() == [20.0, 1.5]
    ys = golden._foreach_foo([x, w])
    assert len(ys) == 2 and ys[1].tolist() == golden.foo(w).tolist()


def test_a_wrong_call_lists_the_signatures():
    with pytest.raises(TypeError, match=r"weighted_sum\(tensors: "):
        golden.weighted_sum(t([1.0]), 1.0)
