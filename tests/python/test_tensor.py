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
    assert repr(gradgen.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert (
        repr(gradgen.tensor([1.5], dtype=gradgen.float64, requires_grad=True))
        == "tensor([1.5000], dtype=gradgen.float64, requires_grad=True)"
    )
    x = gradgen.tensor([1.0], requires_grad=True)
    assert repr(x * 2) == "tensor([2.], grad_fn=<MulBackward0>)"
    # int64 and bool are implied, as PyTorch prints them
    assert repr(gradgen.tensor([True, False])) == "tensor([ True, False])"
    assert repr(gradgen.tensor([[1, 2], [3, 4]])) == ("tensor([[1, 2],\n        [3, 4]])")
    assert repr(gradgen.tensor([1, 2], dtype=gradgen.int32)) == "tensor([1, 2], dtype=gradgen.int32)"


def test_grad_fn_names_are_pytorchs():
    # Node names count the entries of a base name in derivatives.yaml in PyTorch's order (checked
    # for every entry by //tests/codegen:pytorch_specs_test); `x + 1` adds a wrapped number, as
    # PyTorch's operator does. (PyTorch 2.13 printed these names.)
    x = gradgen.tensor([1.5, 2.0], dtype=gradgen.float64, requires_grad=True)
    names = {
        "AddBackward0": [x + 1, 1 + x, x + x, x.clone().__iadd__(1)],
        "SubBackward0": [x - 1, x - x],
        "RsubBackward1": [1 - x, gradgen.rsub(x, 1)],
        "PowBackward2": [2**x, gradgen.pow(2, x)],
        "ClampBackward1": [gradgen.clamp(x, 0, 1)],
        "ClampBackward0": [gradgen.clamp(x, x * 0, x * 0 + 1)],
        "XlogyBackward1": [gradgen.xlogy(2.0, x)],
        "XlogyBackward2": [gradgen.xlogy(x, 2.0)],
        "MinBackward1": [x.min()],
        "MinBackward0": [x.min(0).values],
        "LinalgVectorNormBackward0": [x.norm()],
    }
    for name, results in names.items():
        for r in results:
            assert r.grad_fn.name() == name


# The strings PyTorch 2.13 prints for the same values (torch.tensor(data, dtype=...)), dtype
# names aside: whole numbers without decimals, else 4 decimals, scientific past PyTorch's ranges.
FLOAT_REPRS = [
    ([1.0, 2.0], "float32", "tensor([1., 2.])"),
    ([1.5, 2.0], "float32", "tensor([1.5000, 2.0000])"),
    ([0.0, 0.0], "float32", "tensor([0., 0.])"),
    ([1.0, float("nan"), float("-inf")], "float32", "tensor([1., nan, -inf])"),
    ([1e9, 1.0], "float64", "tensor([1.0000e+09, 1.0000e+00], dtype=gradgen.float64)"),
    ([1.0, 2000.0], "float32", "tensor([1.0000e+00, 2.0000e+03])"),
    ([1.0, 999.0], "float32", "tensor([  1., 999.])"),
    ([1e-5, 1.0], "float64", "tensor([1.0000e-05, 1.0000e+00], dtype=gradgen.float64)"),
    ([-1.0, 10.0], "float16", "tensor([-1., 10.], dtype=gradgen.float16)"),
    ([[1.0, -2.0], [3.0, 400.0]], "bfloat16", "tensor([[  1.,  -2.],\n        [  3., 400.]], dtype=gradgen.bfloat16)"),
    (3.0, "float64", "tensor(3., dtype=gradgen.float64)"),
    ([0.5, float("nan")], "float32", "tensor([0.5000,    nan])"),
    ([-0.0, 2.0], "float32", "tensor([-0., 2.])"),
    ([100.0, 0.25], "float32", "tensor([100.0000,   0.2500])"),
    ([float("nan")], "float32", "tensor([nan])"),
]


@pytest.mark.parametrize("data, dtype, want", FLOAT_REPRS)
def test_float_repr_matches_pytorch(data, dtype, want):
    assert repr(gradgen.tensor(data, dtype=getattr(gradgen, dtype))) == want


# PyTorch 2.13's repr of the same tensors ("torch." read "gradgen."): rows wrapped at 80
# characters, summarized past 1000 elements with a " ..." cell, empty tensors with their size
# unless it is (0,), int64 and bool dtypes implied unless empty.
LAYOUT_REPRS = [  # (expression on gradgen, torch's repr)
    (
        "arange(20.0)",
        "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
        "        14., 15., 16., 17., 18., 19.])",
    ),
    (
        "arange(12.0).reshape(2, 3, 2)",
        "tensor([[[ 0.,  1.],\n"
        "         [ 2.,  3.],\n"
        "         [ 4.,  5.]],\n"
        "\n"
        "        [[ 6.,  7.],\n"
        "         [ 8.,  9.],\n"
        "         [10., 11.]]])",
    ),
    (
        "arange(3000).reshape(1000, 3)",
        "tensor([[   0,    1,    2],\n"
        "        [   3,    4,    5],\n"
        "        [   6,    7,    8],\n"
        "        ...,\n"
        "        [2991, 2992, 2993],\n"
        "        [2994, 2995, 2996],\n"
        "        [2997, 2998, 2999]])",
    ),
    ("arange(1001)", "tensor([   0,    1,    2,  ...,  998,  999, 1000])"),
    ("ones(7)", "tensor([1., 1., 1., 1., 1., 1., 1.])"),
    ("zeros(0)", "tensor([])"),
    ("zeros(2, 0, 3, dtype=gradgen.int64)", "tensor([], size=(2, 0, 3), dtype=gradgen.int64)"),
    ("zeros(0, dtype=gradgen.bool)", "tensor([], dtype=gradgen.bool)"),
    (
        "tensor([True] * 30)",
        "tensor([True, True, True, True, True, True, True, True, True, True, True, True,\n"
        "        True, True, True, True, True, True, True, True, True, True, True, True,\n"
        "        True, True, True, True, True, True])",
    ),
    (
        "arange(2000.0).reshape(1000, 2) / 7",
        "tensor([[0.0000e+00, 1.4286e-01],\n"
        "        [2.8571e-01, 4.2857e-01],\n"
        "        [5.7143e-01, 7.1429e-01],\n"
        "        ...,\n"
        "        [2.8486e+02, 2.8500e+02],\n"
        "        [2.8514e+02, 2.8529e+02],\n"
        "        [2.8543e+02, 2.8557e+02]])",
    ),
    (
        "full((3, 1200), 2.5)",
        "tensor([[2.5000, 2.5000, 2.5000,  ..., 2.5000, 2.5000, 2.5000],\n"
        "        [2.5000, 2.5000, 2.5000,  ..., 2.5000, 2.5000, 2.5000],\n"
        "        [2.5000, 2.5000, 2.5000,  ..., 2.5000, 2.5000, 2.5000]])",
    ),
    (
        "arange(40.0, dtype=gradgen.float64).requires_grad_()",
        "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
        "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
        "        28., 29., 30., 31., 32., 33., 34., 35., 36., 37., 38., 39.],\n"
        "       dtype=gradgen.float64, requires_grad=True)",
    ),
]


@pytest.mark.parametrize("expr, want", LAYOUT_REPRS)
def test_repr_layout_matches_pytorch(expr, want):
    assert repr(eval(expr, {**vars(gradgen), "gradgen": gradgen})) == want


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
