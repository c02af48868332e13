"""The runtime's C++ errors arrive as the Python exceptions PyTorch users expect."""

import pytest

import gradgen


def test_shape_errors_are_runtime_errors_naming_the_op():
    with pytest.raises(RuntimeError, match=r"add: shapes \[2, 3\] and \[4\] cannot be broadcast"):
        gradgen.zeros(2, 3) + gradgen.zeros(4)
    with pytest.raises(RuntimeError, match=r"matmul: shapes \[2, 3\] and \[2, 3\] cannot be multiplied"):
        gradgen.zeros(2, 3) @ gradgen.zeros(2, 3)
    with pytest.raises(RuntimeError, match="lt: shapes"):
        _ = gradgen.zeros(2) < gradgen.zeros(3)


def test_out_of_range_is_index_error():
    with pytest.raises(IndexError, match="size: dim 3 out of range"):
        gradgen.zeros(2).size(3)


def test_operator_with_wrong_type_is_type_error():
    with pytest.raises(TypeError):
        gradgen.ones(2) + "a"
    with pytest.raises(TypeError):
        gradgen.ones(2) * None


def test_ragged_data_is_value_error():
    with pytest.raises(ValueError, match="expected a sequence of length 2 at dim 1"):
        gradgen.tensor([[1, 2], [3]])
    with pytest.raises(TypeError, match="expected numbers"):
        gradgen.tensor([object()])


def test_autograd_errors_are_runtime_errors():
    with pytest.raises(RuntimeError, match="item"):
        gradgen.ones(2).item()
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        gradgen.tensor([1, 2]).requires_grad = True
    with pytest.raises(RuntimeError, match="leaf"):
        (gradgen.ones(1, requires_grad=True) * 2).requires_grad = False
    with pytest.raises(RuntimeError):
        gradgen.ones(2).backward()  # does not require grad
    with pytest.raises(RuntimeError, match="register_hook"):
        gradgen.ones(2).register_hook(lambda g: g)
    with pytest.raises(RuntimeError, match="grad: assigned grad of shape"):
        gradgen.ones(2, requires_grad=True).grad = gradgen.ones(3)


def test_saved_tensor_modified_in_place():
    x = gradgen.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = h * h
    with gradgen.no_grad():
        h += 1
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        y.backward(gradgen.ones(2))


def test_bool_of_many_elements():
    with pytest.raises(RuntimeError, match="ambiguous"):
        bool(gradgen.ones(2))
