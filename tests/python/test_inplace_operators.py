"""Python's in-place operators on gradgen.Tensor (`x += y`, `-=`, `*=`, `/=`), as PyTorch has them.

Each runs with a Tensor and with a number on the right. The values are checked against Python's
own float arithmetic, the gradients through a non-leaf against central finite differences of
that arithmetic (float64), and the rest against PyTorch 2.13's answers to the same statements:
the node recorded (`y *= 2` records MulBackward0, as `y *= tensor(2)` does), the RuntimeError of
an in-place op on a leaf that requires grad, and the dtype errors (`y -= True`). This file, run
with torch in gradgen's place (torch.set_default_dtype(torch.float64)), passes on PyTorch 2.13.
"""

import operator

import pytest

import gradgen

EPS = 1e-6

X = [0.3, -1.2, 0.7]
R = [1.1, 0.4, -0.6]
C = [0.5, -2.0, 1.5]  # weights of the scalar loss sum(C * y)

# Python's in-place operator, and the node PyTorch 2.13 records for it (torch.tensor(...) * 1 then
# `y op= rhs`, for a Tensor and for a number rhs alike).
OPERATORS = {
    "+=": (operator.iadd, "AddBackward0"),
    "-=": (operator.isub, "SubBackward0"),
    "*=": (operator.imul, "MulBackward0"),
    "/=": (operator.itruediv, "DivBackward0"),
}

NUMBERS = [2, 2.5]


def reference(op, x_values, rhs, scale=1.5):
    """y = scale * x, then y op= rhs, in Python floats (rhs: a number or a list)."""
    fn = OPERATORS[op][0]
    rhs_values = rhs if isinstance(rhs, list) else [rhs] * len(x_values)
    return [fn(scale * xi, ri) for xi, ri in zip(x_values, rhs_values)]


def loss(values):
    return sum(c * v for c, v in zip(C, values))


def numeric_grad(fn, values):
    """d fn / d values[i] for every i, by central differences (fn takes a list of floats)."""
    grads = []
    for i in range(len(values)):
        up, down = list(values), list(values)
        up[i] += EPS
        down[i] -= EPS
        grads.append((fn(up) - fn(down)) / (2 * EPS))
    return grads


def assert_close(actual, expected, tol=1e-6):
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert abs(a - e) <= tol * (1 + abs(e)), (actual, expected)


def apply(op, y, rhs):
    """Runs `y op= rhs` as Python does (the statement, not a method call) and returns y."""
    scope = {"y": y, "rhs": rhs}
    exec(f"y {op} rhs", scope)
    return scope["y"]


@pytest.mark.parametrize("op", OPERATORS)
def test_tensor_rhs_values_and_gradients(op):
    x = gradgen.tensor(X, requires_grad=True)
    r = gradgen.tensor(R, requires_grad=True)
    y = x * 1.5  # a non-leaf: in place is allowed and recorded
    version = y._version
    result = apply(op, y, r)
    assert result is y  # the same Python object, as PyTorch returns it
    assert y._version > version
    assert y.grad_fn.name() == OPERATORS[op][1]
    assert_close(y.tolist(), reference(op, X, R))
    (y * gradgen.tensor(C)).sum().backward()
    assert_close(x.grad.tolist(), numeric_grad(lambda v: loss(reference(op, v, R)), X), 1e-5)
    assert_close(r.grad.tolist(), numeric_grad(lambda v: loss(reference(op, X, v)), R), 1e-5)


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("op", OPERATORS)
def test_number_rhs_values_and_gradients(op, number):
    x = gradgen.tensor(X, requires_grad=True, dtype=gradgen.float64)
    y = x * 1.5
    version = y._version
    result = apply(op, y, number)
    assert result is y
    assert y._version > version
    # The node of the Tensor op, as in PyTorch (the number is wrapped as a 0-dim tensor).
    assert y.grad_fn.name() == OPERATORS[op][1]
    assert y.dtype == gradgen.float64
    assert_close(y.tolist(), reference(op, X, number))
    (y * gradgen.tensor(C, dtype=gradgen.float64)).sum().backward()
    assert_close(x.grad.tolist(), numeric_grad(lambda v: loss(reference(op, v, number)), X), 1e-5)


@pytest.mark.parametrize("rhs", ["tensor", 2, 2.5, True])
@pytest.mark.parametrize("op", OPERATORS)
def test_leaf_that_requires_grad_is_refused(op, rhs):
    x = gradgen.tensor(X, requires_grad=True, dtype=gradgen.float64)
    other = gradgen.tensor(R, dtype=gradgen.float64) if rhs == "tensor" else rhs
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        apply(op, x, other)
    assert x.tolist() == X  # unchanged
    if op == "-=" and rhs is True:
        return  # refused under no_grad too (test_subtracting_a_bool_number_is_refused)
    with gradgen.no_grad():  # an optimizer step: allowed, and x stays a leaf requiring grad
        apply(op, x, other)
    assert x.is_leaf and x.requires_grad and x.grad_fn is None
    assert_close(x.tolist(), reference(op, X, R if rhs == "tensor" else rhs, scale=1.0))


@pytest.mark.parametrize("op", ["+=", "*=", "/="])
def test_bool_number_is_one(op):
    # PyTorch: y += True, y *= True, y /= True on a float tensor treat True as 1.
    y = gradgen.tensor(X) * 1.5
    apply(op, y, True)
    assert_close(y.tolist(), reference(op, X, 1))


@pytest.mark.parametrize("dtype", [gradgen.float64, gradgen.float32, gradgen.int64])
def test_subtracting_a_bool_number_is_refused(dtype):
    # PyTorch refuses `y -= True` on every dtype, as it refuses `y - True`.
    y = gradgen.tensor([1, 3], dtype=dtype)
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with a bool tensor is not supported"):
        apply("-=", y, True)
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with a bool tensor is not supported"):
        y - True
    assert y.tolist() == [1, 3]


@pytest.mark.parametrize("op", OPERATORS)
def test_result_dtype_must_fit_self(op):
    # PyTorch: int64 op= 2.5 is a float result an int64 tensor cannot hold; so is int64 /= 2.
    y = gradgen.tensor([1, 3])
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        apply(op, y, 2.5)
    assert y.tolist() == [1, 3]


def test_integer_and_bool_tensors_with_numbers():
    # PyTorch 2.13's answers: int64 += 2, *= True keep int64; bool += True is a logical or,
    # bool *= True a logical and; bool += 2 needs int64 and is refused.
    y = gradgen.tensor([1, 3])
    y += 2
    assert y.dtype == gradgen.int64 and y.tolist() == [3, 5]
    y *= True
    assert y.dtype == gradgen.int64 and y.tolist() == [3, 5]
    b = gradgen.tensor([True, False])
    b += True
    assert b.tolist() == [True, True]
    b = gradgen.tensor([True, False])
    b *= True
    assert b.tolist() == [True, False]
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        b += 2


def test_float32_keeps_its_dtype_with_a_python_float():
    # A Python float is a wrapped number: float32 *= 2.5 stays float32, as in PyTorch.
    y = gradgen.tensor([1.0, 3.0], dtype=gradgen.float32)
    y *= 2.5
    assert y.dtype == gradgen.float32 and y.tolist() == [2.5, 7.5]
