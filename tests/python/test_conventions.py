"""PyTorch's Python calling conventions in gradgen (issue 23): NumPy's argument aliases, sizes as
varargs, Tensor.type(), the transposes T / mT / H / mH, and Python's conversions.

The expected values and error types are PyTorch 2.13's, from running the same calls with torch
(by hand, /work/torchvenv); they are written here as numbers.
"""

import warnings

import numpy
import pytest

import gradgen


def arange23():
    return gradgen.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], dtype=gradgen.float64)


# --- axis= / keepdims= ----------------------------------------------------------------------


def test_axis_and_keepdims_are_numpy_aliases_of_dim_and_keepdim():
    x = arange23()
    # torch: x.sum(axis=1) -> [3., 12.]; keepdims=True -> [[3.], [12.]]
    assert x.sum(axis=1).tolist() == [3.0, 12.0]
    assert x.sum(axis=1, keepdims=True).tolist() == [[3.0], [12.0]]
    assert x.sum(1, keepdims=True).tolist() == [[3.0], [12.0]]
    assert x.sum(dim=1, keepdims=True).tolist() == [[3.0], [12.0]]
    assert x.sum(axis=(0, 1)).tolist() == 15.0
    assert gradgen.sum(x, axis=0).tolist() == [3.0, 5.0, 7.0]
    assert x.mean(axis=0).tolist() == [1.5, 2.5, 3.5]
    assert x.amax(axis=1, keepdims=True).tolist() == [[2.0], [5.0]]
    assert gradgen.max(x, axis=1).values.tolist() == [2.0, 5.0]
    assert x.max(axis=1, keepdims=True).indices.tolist() == [[2], [2]]
    assert x.argmax(axis=1).tolist() == [2, 2]
    assert gradgen.cat([x, x], axis=0).shape == (4, 3)
    assert gradgen.stack([x, x], axis=1).shape == (2, 2, 3)
    assert x.unsqueeze(axis=0).shape == (1, 2, 3)
    assert x.softmax(axis=1).shape == (2, 3)
    assert x.size(axis=1) == 3 and x.stride(axis=0) == 3


def test_aliases_are_differentiable_calls_of_the_same_op():
    x = gradgen.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (x.sum(axis=0, keepdims=True) * gradgen.tensor([[1.0, 10.0]])).sum().backward()
    assert x.grad.tolist() == [[1.0, 10.0], [1.0, 10.0]]


def test_an_argument_given_by_name_and_by_alias_is_a_type_error():
    # torch: TypeError (sum() got an unexpected keyword argument 'axis')
    with pytest.raises(TypeError, match=r"sum\(\): got multiple values for argument 'dim'"):
        arange23().sum(dim=1, axis=1)
    with pytest.raises(TypeError, match="keepdim"):
        arange23().sum(0, keepdim=True, keepdims=True)


def test_aliases_only_where_an_op_has_dim():
    # torch: x.transpose(axis0=0, axis1=1) is a TypeError; add has no dim.
    with pytest.raises(TypeError):
        gradgen.add(arange23(), arange23(), axis=0)


def test_wrapped_ops_keep_their_docs_names_and_errors():
    assert gradgen.sum.__name__ == "sum" and "sum.dim_IntList(" in gradgen.sum.__doc__
    assert "sum.dim_IntList(" in gradgen.Tensor.sum.__doc__
    assert gradgen.Tensor.sum(arange23(), axis=0).tolist() == [3.0, 5.0, 7.0]  # unbound call
    bound = arange23().sum
    assert bound(axis=1).tolist() == [3.0, 12.0]
    with pytest.raises(TypeError, match="incompatible function arguments"):
        arange23().sum(axis="a")


# --- sizes as varargs -----------------------------------------------------------------------


def test_sizes_as_varargs():
    x = arange23()
    assert x.view(3, 2).tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert x.view(-1).shape == (6,) and x.view(3, -1).shape == (3, 2)
    assert x.reshape(3, 2).shape == (3, 2) and x.reshape(6).shape == (6,)
    assert x.unsqueeze(0).expand(2, 2, 3).shape == (2, 2, 3)
    assert x.unsqueeze(0).permute(0, 2, 1).shape == (1, 3, 2)
    assert x.unsqueeze(0).permute(2, 0, 1).tolist() == [[[0.0, 3.0]], [[1.0, 4.0]], [[2.0, 5.0]]]
    assert x.view(numpy.int64(3), 2).shape == (3, 2)
    assert gradgen.zeros(2, 3).shape == (2, 3) and gradgen.ones(2, 3).tolist() == [[1.0] * 3] * 2
    assert gradgen.zeros(2, 3, dtype=gradgen.int64).dtype is gradgen.int64
    # The sequence forms still work.
    assert x.view((3, 2)).shape == (3, 2) and x.permute([1, 0]).shape == (3, 2)


def test_varargs_gradients():
    x = gradgen.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    (x.permute(1, 0).expand(3, 4) * 2).sum().backward()
    assert x.grad.tolist() == [[8.0, 8.0, 8.0]]


def test_varargs_refused_where_pytorch_refuses_them():
    x = arange23()
    # torch: TypeError for view(2, 3.0), view(2, dtype) and the function form permute(x, 1, 0).
    for call in (
        lambda: x.view(2, 3.0),
        lambda: x.view(2, gradgen.float32),
        lambda: x.view(2, True),
        lambda: gradgen.permute(x, 1, 0),
        lambda: gradgen.reshape(x, 3, 2),
    ):
        with pytest.raises(TypeError):
            call()
    # torch: RuntimeError "shape '[4, 2]' is invalid for input of size 6"
    with pytest.raises(RuntimeError):
        x.view(4, 2)


# --- Tensor.type() --------------------------------------------------------------------------


def test_type_names_and_conversions():
    # torch: 'torch.FloatTensor', 'torch.DoubleTensor', 'torch.LongTensor', 'torch.BoolTensor'
    assert gradgen.ones(2, dtype=gradgen.float32).type() == "gradgen.FloatTensor"
    assert arange23().type() == "gradgen.DoubleTensor"
    assert gradgen.tensor(3).type() == "gradgen.LongTensor"
    assert gradgen.tensor([True]).type() == "gradgen.BoolTensor"
    x = gradgen.tensor([1.5, -2.5], dtype=gradgen.float32)
    assert x.type(gradgen.float64).dtype is gradgen.float64
    assert x.type(dtype=gradgen.int64).tolist() == [1, -2]
    assert x.type("gradgen.DoubleTensor").type() == "gradgen.DoubleTensor"
    assert x.type("torch.LongTensor").type() == "gradgen.LongTensor"  # ported code's names
    assert x.type(gradgen.float32) is x  # torch: the tensor itself when the type is the same
    # torch: ValueError "invalid type: 'float'"
    with pytest.raises(ValueError, match="invalid type: 'float'"):
        x.type("float")
    with pytest.raises(TypeError):
        x.type(3)


def test_type_conversion_is_differentiable():
    x = gradgen.tensor([1.0, 2.0], dtype=gradgen.float32, requires_grad=True)
    y = x.type(gradgen.float64)
    assert y.grad_fn is not None
    (y * y).sum().backward()
    assert x.grad.dtype is gradgen.float32 and x.grad.tolist() == [2.0, 4.0]


# --- T, mT, H, mH ---------------------------------------------------------------------------


def test_transposes():
    x = arange23()
    assert x.T.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    assert x.mT.tolist() == x.T.tolist() and x.H.tolist() == x.T.tolist() and x.mH.tolist() == x.T.tolist()
    b = gradgen.ones(2, 3, 4)
    assert b.mT.shape == (2, 4, 3) and b.mH.shape == (2, 4, 3)
    assert not x.mT.is_contiguous()  # a view, as torch's
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _ = x.T  # 2-D: no warning
    # torch: T of other than 2 dims reverses them, with a deprecation warning.
    with pytest.warns(UserWarning, match="x.T"):
        assert b.T.shape == (4, 3, 2)
    with pytest.warns(UserWarning, match="x.T"):
        assert gradgen.ones(5).T.shape == (5,)
    with pytest.warns(UserWarning, match="0-D"):
        assert gradgen.tensor(5.0).mT.tolist() == 5.0
    # torch's RuntimeErrors
    with pytest.raises(RuntimeError, match="tensor.mT is only supported on matrices or batches of matrices. Got 1-D"):
        _ = gradgen.ones(3).mT
    with pytest.raises(RuntimeError, match="tensor.H is only supported on matrices"):
        _ = gradgen.ones(3).H
    with pytest.raises(RuntimeError, match="consider using tensor.mH"):
        _ = b.H


def test_transposes_are_differentiable():
    x = gradgen.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    w = gradgen.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    (x.T * w).sum().backward()
    assert x.grad.tolist() == [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]


# --- shape, len, iteration, conversions -----------------------------------------------------


def test_shape_len_and_iteration():
    x = arange23()
    assert x.shape[0] == 2 and type(x.shape[0]) is int and x.shape[-1] == 3
    assert len(x) == 2
    assert [r.tolist() for r in x] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert [r.shape for r in gradgen.zeros(0, 3)] == []
    # torch: TypeError "len() of a 0-d tensor", "iteration over a 0-d tensor"
    with pytest.raises(TypeError, match="len"):
        len(gradgen.tensor(3.0))
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        list(gradgen.tensor(3.0))


def test_python_number_conversions():
    assert bool(gradgen.tensor([2.5])) is True and bool(gradgen.tensor([0.0])) is False
    assert float(gradgen.tensor([2.5])) == 2.5 and float(gradgen.tensor(True)) == 1.0
    assert int(gradgen.tensor([2.7])) == 2 and int(gradgen.tensor(-2.7)) == -2
    assert [10, 11, 12, 13][gradgen.tensor(3)] == 13
    assert gradgen.tensor(True).__index__() == 1  # torch: 1
    # torch: RuntimeError "Boolean value of Tensor with more than one value is ambiguous"
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        bool(arange23())
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with no values is ambiguous"):
        bool(gradgen.zeros(0))
    # torch: ValueError "only one element tensors can be converted to Python scalars"
    for convert in (float, int):
        with pytest.raises(ValueError, match="only one element tensors can be converted to Python scalars"):
            convert(arange23())
        with pytest.raises(ValueError, match="only one element tensors"):
            convert(gradgen.zeros(0))
    # torch: TypeError "only integer tensors of a single element can be converted to an index"
    for t in (gradgen.tensor([1.5]), gradgen.tensor([1, 2])):
        with pytest.raises(TypeError, match="only integer tensors of a single element can be converted to an index"):
            t.__index__()


def test_array_protocol():
    x = arange23()
    a = numpy.asarray(x)
    assert a.shape == (2, 3) and a.dtype == numpy.float64 and a.tolist() == x.tolist()
    assert numpy.asarray(x, dtype="float32").dtype == numpy.float32
    assert x.__array__("float32").dtype == numpy.float32
    # torch: RuntimeError "Can't call numpy() on Tensor that requires grad"
    with pytest.raises(RuntimeError, match="requires grad"):
        numpy.asarray(gradgen.tensor([1.0], requires_grad=True))


def test_factories_take_requires_grad_as_pytorch():
    # torch's python_arg_parser adds requires_grad= to every op taking TensorOptions.
    x = gradgen.arange(3.0, requires_grad=True)
    assert x.requires_grad and x.is_leaf and x.tolist() == [0.0, 1.0, 2.0]
    (x * x).sum().backward()
    assert x.grad.tolist() == [0.0, 2.0, 4.0]
    assert not gradgen.linspace(0.0, 1.0, 3, requires_grad=False).requires_grad
    assert gradgen.eye(2, dtype=gradgen.float64, requires_grad=True).requires_grad
    assert gradgen.full_like(x, 2.0, requires_grad=True).requires_grad
    assert not gradgen.full_like(x, 2.0).requires_grad
    with pytest.raises(RuntimeError, match="floating"):
        gradgen.arange(3, requires_grad=True)  # int64, as torch: only floating tensors require grad
    with pytest.raises(TypeError, match=r"arange\(\): argument 'requires_grad' must be bool, not int"):
        gradgen.arange(3.0, requires_grad=1)
    with pytest.raises(TypeError):
        gradgen.sin(x, requires_grad=True)  # not a factory: no such argument
