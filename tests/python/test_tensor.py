"""gradgen.Tensor from Python: construction, properties, operators, indexing, printing."""

import math

import pytest

import gradgen


def test_tensor_infers_dtype_and_shape_like_pytorch():
    assert gradgen.tensor([[1.0, 2.0], [3.0, 4.0]]).shape == (2, 2)
    assert gradgen.tensor([1.0, 2]).dtype is gradgen.float32  # the default dtype, as PyTorch's
    assert gradgen.tensor([1, 2]).dtype is gradgen.int64
    assert gradgen.tensor([True, False]).dtype is gradgen.bool
    assert gradgen.tensor(2.5).shape == ()
    assert gradgen.tensor([]).shape == (0,)
    assert gradgen.tensor([1, 2], dtype=gradgen.float32).dtype is gradgen.float32
    assert gradgen.tensor([[1, 2]], dtype=float).tolist() == [[1.0, 2.0]]


def test_tensor_copies_a_tensor_without_history():
    x = gradgen.tensor([1.0, 2.0], requires_grad=True)
    y = gradgen.tensor(x * 2)
    assert y.grad_fn is None and not y.requires_grad
    assert y.tolist() == [2.0, 4.0]


def test_properties():
    x = gradgen.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.size() == (2, 3) and x.size(1) == 3 and x.size(-1) == 3
    assert x.dim() == 2 and x.ndim == 2 and x.numel() == 6 and len(x) == 2
    assert x.stride() == (3, 1) and x.is_contiguous()
    assert x.is_leaf and not x.requires_grad and x.grad is None and x.grad_fn is None
    assert x.element_size() == 4  # float32, the default dtype
    assert x.device == gradgen.device("cpu") and x.layout is gradgen.strided
    x.requires_grad = True
    assert x.requires_grad
    x.requires_grad = False
    assert not x.requires_grad
    assert x.requires_grad_() is x and x.requires_grad


def test_item_tolist():
    assert gradgen.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert gradgen.tensor(3).item() == 3 and type(gradgen.tensor(3).item()) is int
    assert gradgen.tensor([2.5]).item() == 2.5
    assert gradgen.tensor(True).item() is True
    assert gradgen.tensor(1.5).tolist() == 1.5
    assert float(gradgen.tensor(1.5)) == 1.5 and int(gradgen.tensor(7)) == 7
    assert bool(gradgen.tensor([1.0]))


def test_repr_is_torch_like():
    assert repr(gradgen.tensor([1.0, 2.0])) == "tensor([1.0000, 2.0000])"
    assert (
        repr(gradgen.tensor([1.0], dtype=gradgen.float64, requires_grad=True))
        == "tensor([1.0000], dtype=gradgen.float64, requires_grad=True)"
    )
    x = gradgen.tensor([1.0], requires_grad=True)
    assert repr(x * 2) == "tensor([2.0000], grad_fn=<MulBackward1>)"
    assert repr(gradgen.tensor([True, False])) == "tensor([ True, False], dtype=gradgen.bool)"
    assert repr(gradgen.tensor([[1, 2], [3, 4]])) == ("tensor([[1, 2],\n        [3, 4]], dtype=gradgen.int64)")


def test_arithmetic_operators():
    a = gradgen.tensor([1.0, 2.0, 4.0])
    b = gradgen.tensor([2.0, 2.0, 2.0])
    assert (a + b).tolist() == [3.0, 4.0, 6.0]
    assert (a - b).tolist() == [-1.0, 0.0, 2.0]
    assert (a * b).tolist() == [2.0, 4.0, 8.0]
    assert (a / b).tolist() == [0.5, 1.0, 2.0]
    assert (a**2).tolist() == [1.0, 4.0, 16.0]
    assert (a**b).tolist() == [1.0, 4.0, 16.0]
    assert (2**a).tolist() == [2.0, 4.0, 16.0]
    assert (1 + a).tolist() == [2.0, 3.0, 5.0]
    assert (1 - a).tolist() == [0.0, -1.0, -3.0]
    assert (a - 1).tolist() == [0.0, 1.0, 3.0]
    assert (2 * a).tolist() == [2.0, 4.0, 8.0]
    assert (4 / a).tolist() == [4.0, 2.0, 1.0]
    assert (-a).tolist() == [-1.0, -2.0, -4.0]
    assert abs(gradgen.tensor([-1.0, 2.0])).tolist() == [1.0, 2.0]
    m = gradgen.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert (m @ m).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    # Broadcasting.
    assert (m + gradgen.tensor([10.0, 20.0])).tolist() == [[11.0, 22.0], [13.0, 24.0]]


def test_in_place_operators_keep_the_object():
    x = gradgen.zeros(3)
    alias = x
    x += 2
    x *= gradgen.tensor([1.0, 2.0, 3.0])
    x -= 1
    x /= 2
    assert x is alias
    assert x.tolist() == [0.5, 1.5, 2.5]
    assert x._version == 4


def test_comparisons_make_bool_tensors():
    a = gradgen.tensor([1.0, 2.0, 3.0])
    assert (a > 2).tolist() == [False, False, True]
    assert (a >= 2).tolist() == [False, True, True]
    assert (a < gradgen.tensor([2.0])).tolist() == [True, False, False]
    assert (a <= 2).tolist() == [True, True, False]
    assert (a == gradgen.tensor([1.0, 0.0, 3.0])).tolist() == [True, False, True]
    assert (a != 2).tolist() == [True, False, True]
    assert (a == 2).dtype is gradgen.bool
    assert (gradgen.tensor([2**62 + 1]) > gradgen.tensor([2**62])).item()  # exact for int64
    assert hash(a) == hash(a) and a in {a: 1}
    assert (a == None) is False  # noqa: E711  (falls back to identity)


def test_indexing_with_ints_slices_ellipsis_none():
    x = gradgen.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x[1].tolist() == [4.0, 5.0, 6.0]
    assert x[-1, 0].item() == 4.0
    assert x[:, 1].tolist() == [2.0, 5.0]
    assert x[0, 1:].tolist() == [2.0, 3.0]
    assert x[..., -1].tolist() == [3.0, 6.0]
    assert x[None].shape == (1, 2, 3)
    assert x[:, None, 0].shape == (2, 1)
    assert [row.tolist() for row in x] == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    with pytest.raises(IndexError, match="out of bounds"):
        x[2]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0]
    with pytest.raises(TypeError):
        x["a"]
    with pytest.raises(TypeError):
        len(gradgen.tensor(1.0))


def test_setitem_copies_into_the_view():
    x = gradgen.zeros(2, 3)
    x[0] = 1
    x[1, 1:] = gradgen.tensor([5.0, 6.0])
    x[:, 0] = gradgen.tensor([7])  # broadcast, converted to float64
    assert x.tolist() == [[7.0, 1.0, 1.0], [7.0, 5.0, 6.0]]
    assert x._version == 3
    x[0] = x[1]  # from itself
    assert x.tolist() == [[7.0, 5.0, 6.0], [7.0, 5.0, 6.0]]
    w = gradgen.zeros(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        w[0] = 1.0
    with gradgen.no_grad():
        w[0] = 1.0
    assert w.tolist() == [1.0, 0.0]
    with pytest.raises(TypeError):
        x[0] = "a"


def test_setitem_is_differentiable():
    # As torch: the copy into x[0] rewrites x's history (CopySlices); value gets row 0's gradient.
    a = gradgen.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = gradgen.tensor([10.0], requires_grad=True)
    x = a * 2
    x[0] = v  # broadcast to [2]
    assert x.grad_fn.name() == "CopySlices"
    (x * gradgen.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert a.grad.tolist() == [[0.0, 0.0], [6.0, 8.0]]
    assert v.grad.tolist() == [3.0]


def test_indexing_is_differentiable():
    x = gradgen.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x[1, :1] * 5
    y.backward(gradgen.ones(1))
    assert x.grad.tolist() == [[0.0, 0.0], [5.0, 0.0]]


def test_factories():
    assert gradgen.zeros(2, 3).tolist() == [[0.0] * 3] * 2
    assert gradgen.zeros((2,)).shape == (2,)
    assert gradgen.ones([2], dtype=gradgen.int64).tolist() == [1, 1]
    assert gradgen.full((2,), 7).dtype is gradgen.int64
    assert gradgen.full((2,), 7.0).tolist() == [7.0, 7.0]
    assert gradgen.empty(4).shape == (4,)
    assert gradgen.randn(3, seed=1).tolist() == gradgen.randn(3, seed=1).tolist()
    assert gradgen.randn(2, 2, dtype=gradgen.float32).dtype is gradgen.float32
    assert gradgen.zeros(2, requires_grad=True).requires_grad
    gradgen.manual_seed(5)
    a = gradgen.randn(3)
    gradgen.manual_seed(5)
    assert gradgen.randn(3).tolist() == a.tolist()
    g = gradgen.Generator(3)
    assert g.initial_seed() == 3 and g.manual_seed(4) is g and g.initial_seed() == 4
    assert (
        gradgen.randn(2, generator=gradgen.Generator(9)).tolist()
        == gradgen.randn(2, generator=gradgen.Generator(9)).tolist()
    )


def test_detach_shares_data():
    x = gradgen.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    assert not d.requires_grad and d.data_ptr() == x.data_ptr()
    assert x.data.data_ptr() == x.data_ptr()


def test_generated_ops_are_exported_as_gradgen_attributes():
    # Every public name of gradgen._C is gradgen.<name>: the generated ops land there.
    for name in dir(gradgen._C):
        if not name.startswith("_"):
            assert hasattr(gradgen, name), name


def test_abs_of_negative_zero_is_positive_zero():
    # PyTorch 2.13 and NumPy: abs(-0.0) is +0.0, so 1 / abs(-0.0) is +inf (issue 23).
    x = gradgen.tensor([-0.0, 0.0, -1.5, 2.0])
    assert [math.copysign(1.0, v) for v in x.abs().tolist()] == [1.0, 1.0, 1.0, 1.0]
    assert (1 / gradgen.tensor([-0.0]).abs()).item() == math.inf
    assert gradgen.tensor([-0.0], dtype=gradgen.float32).abs().tolist() == [0.0]
    assert math.copysign(1.0, gradgen.tensor([-0.0], dtype=gradgen.float32).abs().item()) == 1.0
