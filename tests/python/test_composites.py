"""PyTorch's composite tensor-API functions (issue 23: python/gradgen/_composites.py, _size.py,
linalg.py's norm / matrix_norm / pinv / matrix_rank / matmul, utils.dlpack).

Values, dtypes and errors are compared with PyTorch by the differential test
(tests/differential/cases_composites.py); here: the gradients by central differences in float64
(gradgen.autograd.gradcheck), that views are views, that the functions and methods exist with
torch's names, gradgen.Size's behaviour, and the 0-"norm"'s absent gradient.
"""

import math
import warnings

import pytest

import gradgen
from gradgen.autograd import gradcheck, gradgradcheck


def _r(*shape, seed=0):
    gradgen.manual_seed(seed)
    return gradgen.randn(list(shape), seed=seed).to(gradgen.float64).requires_grad_()


@pytest.mark.parametrize(
    "fn, shape",
    [
        (lambda a: gradgen.fliplr(a), (2, 3)),
        (lambda a: gradgen.flipud(a), (2, 3)),
        (lambda a: gradgen.rot90(a, 1, [0, 1]), (2, 3)),
        (lambda a: gradgen.rot90(a, -1, [1, 2]), (2, 3, 2)),
        (lambda a: gradgen.rot90(a, 2), (2, 3)),
        (lambda a: gradgen.moveaxis(a, 0, -1), (2, 3, 2)),
        (lambda a: gradgen.swapaxes(a, 0, 1), (2, 3)),
        (lambda a: a.swapdims(0, 1), (2, 3)),
        (lambda a: a.adjoint(), (2, 2, 3)),
        (lambda a: a.t().ravel(), (2, 3)),
        (lambda a: a.reshape_as(gradgen.zeros([3, 2])), (2, 3)),
        (lambda a: gradgen.atleast_3d(a), (2, 3)),
        (lambda a: gradgen.diagflat(a, -1), (2, 2)),
        (lambda a: gradgen.row_stack([a, a * 2]), (3,)),
        (lambda a: gradgen.inner(a, a * a), (2, 3)),
        (lambda a: gradgen.norm(a, "fro", 1), (2, 3)),
        (lambda a: gradgen.norm(a, "nuc"), (3, 2)),
        (lambda a: gradgen.linalg.norm(a), (2, 3)),
        (lambda a: gradgen.linalg.norm(a, 3, dim=1), (2, 3)),
    ],
)
def test_gradients_by_central_differences(fn, shape):
    assert gradcheck(fn, [_r(*shape, seed=len(shape))])


@pytest.mark.parametrize("ord", ["fro", "nuc", 2, -2, 1, -1, math.inf, -math.inf])
def test_matrix_norm_gradients(ord):
    a = _r(3, 4, seed=5)
    assert gradcheck(lambda x: gradgen.linalg.matrix_norm(x, ord), [a])
    b = _r(3, 2, 4, seed=6)
    assert gradcheck(lambda x: gradgen.linalg.matrix_norm(x, ord, (2, 0), keepdim=True), [b])


def test_pinv_gradients_and_values():
    for shape in ((3, 3), (4, 2), (2, 2, 3)):
        a = _r(*shape, seed=7)
        assert gradcheck(gradgen.linalg.pinv, [a])
        p = gradgen.linalg.pinv(a)
        assert gradgen.allclose(a @ p @ a, a, atol=1e-10)
    s = _r(3, 3, seed=8)
    assert gradgradcheck(lambda x: gradgen.linalg.pinv(x + x.t(), hermitian=True), [s])


def test_matrix_rank():
    low = gradgen.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    assert gradgen.linalg.matrix_rank(low).item() == 2
    assert gradgen.linalg.matrix_rank(low @ low.t(), hermitian=True).item() == 2
    d = gradgen.tensor([[2.0, 0.0], [0.0, 0.1]], dtype=gradgen.float64)
    assert gradgen.linalg.matrix_rank(d, atol=1.0).item() == 1
    assert gradgen.linalg.matrix_rank(d, 0.05).item() == 2
    assert gradgen.linalg.matrix_rank(d).dtype is gradgen.int64
    with pytest.raises(RuntimeError, match="must have at least 2 dimensions"):
        gradgen.linalg.matrix_rank(gradgen.ones([3]))


def test_zero_norm_has_no_gradient():
    # PyTorch's norm_backward returns an undefined gradient for p = 0: x.grad stays None.
    x = _r(2, 3, seed=9)
    gradgen.linalg.vector_norm(x, 0).backward()
    assert x.grad is None
    gradgen.norm(x * 2, p=0, dim=1).sum().backward()
    assert x.grad is None
    (g,) = gradgen.autograd.grad(gradgen.linalg.vector_norm(x, 0), [x], allow_unused=True)
    assert g is None
    with pytest.raises(RuntimeError):
        gradgen.autograd.grad(gradgen.linalg.vector_norm(x, 0), [x])
    # The other orders still have theirs.
    assert gradcheck(lambda a: gradgen.linalg.vector_norm(a, 1), [x])


def test_views_are_views():
    a = gradgen.zeros([2, 3])
    for v in (gradgen.swapaxes(a, 0, 1), a.moveaxis(0, 1), a.adjoint(), a.ravel(), gradgen.atleast_3d(a)):
        assert v.data_ptr() == a.data_ptr()
    assert gradgen.atleast_2d(a) is a
    assert gradgen.rot90(a, 0).data_ptr() != a.data_ptr()  # k = 0: a contiguous copy, as torch's


def test_where_with_condition_only():
    c = gradgen.tensor([[True, False], [False, True]])
    rows, cols = gradgen.where(c)
    assert rows.tolist() == [0, 1] and cols.tolist() == [0, 1] and rows.dtype is gradgen.int64
    assert gradgen.where(c, 1.0, 0.0).tolist() == [[1.0, 0.0], [0.0, 1.0]]


def test_isposinf_isneginf():
    x = gradgen.tensor([1.0, math.inf, -math.inf, math.nan])
    assert gradgen.isposinf(x).tolist() == [False, True, False, False]
    assert x.isneginf().tolist() == [False, False, True, False]
    assert gradgen.isposinf(gradgen.tensor([1, 2])).dtype is gradgen.bool


def test_randint_like():
    x = gradgen.zeros([3, 4], dtype=gradgen.int32)
    r = gradgen.randint_like(x, 5)
    assert r.shape == (3, 4) and r.dtype is gradgen.int32
    assert bool(((r >= 0) & (r < 5)).all())
    r = gradgen.randint_like(gradgen.zeros([100]), 2, 4)
    assert r.dtype is gradgen.float32 and set(r.tolist()) <= {2.0, 3.0}
    assert gradgen.randint_like(x, high=3, dtype=gradgen.int64).dtype is gradgen.int64
    with pytest.raises(TypeError):
        gradgen.randint_like(x)


def test_deprecated_cholesky_and_qr_warn_once():
    a = gradgen.tensor([[4.0, 2.0], [2.0, 3.0]], dtype=gradgen.float64)
    import gradgen._composites as composites

    composites._warned.clear()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        L = gradgen.cholesky(a)
        gradgen.cholesky(a, upper=True)
        q, r = gradgen.qr(a)
        a.qr(some=False)
    assert [str(x.message).split(" ")[0] for x in w] == ["torch.cholesky", "torch.qr"]
    assert gradgen.allclose(L @ L.t(), a) and gradgen.allclose(q @ r, a)
    assert gradgen.allclose(a.cholesky(upper=True), L.t())


def test_broadcast_shapes():
    assert gradgen.broadcast_shapes((2, 1), (3,)) == (2, 3)
    assert repr(gradgen.broadcast_shapes(3, [2, 1])) == "gradgen.Size([2, 3])"
    with pytest.raises(RuntimeError, match="Attempting to broadcast a dimension of length 3"):
        gradgen.broadcast_shapes((2,), (3,))


def test_size():
    x = gradgen.zeros([2, 3, 4])
    s = x.shape
    assert isinstance(s, gradgen.Size) and isinstance(s, tuple) and isinstance(x.size(), gradgen.Size)
    assert repr(s) == "gradgen.Size([2, 3, 4])" and str(gradgen.Size([])) == "gradgen.Size([])"
    assert s == (2, 3, 4) and s[1] == 3 and type(s[0]) is int and x.size(-1) == 4 and x.size(dim=0) == 2
    assert isinstance(s[1:], gradgen.Size) and s[1:] == (3, 4)
    assert isinstance(s + (5,), gradgen.Size) and isinstance((1,) + s, gradgen.Size)
    assert s.numel() == 24 and gradgen.Size([]).numel() == 1
    assert gradgen.zeros(s).shape == s and x.view(s[::-1]).shape == (4, 3, 2)
    assert gradgen.Size([2, 3]) == gradgen.Size((2, 3))
    with pytest.raises(TypeError):
        gradgen.Size([2.5])
    import pickle

    assert pickle.loads(pickle.dumps(s)) == s and type(pickle.loads(pickle.dumps(s))) is gradgen.Size


def test_format():
    assert "{:.2f}".format(gradgen.tensor(2.567)) == "2.57"
    assert f"{gradgen.tensor(7):03d}" == "007"
    y = gradgen.tensor(1.5, requires_grad=True) * 2
    assert format(y, ".1f") == "3.0"
    assert format(gradgen.tensor([1.0]), "") == str(gradgen.tensor([1.0]))
    with pytest.raises(TypeError, match="unsupported format string"):
        format(gradgen.tensor([1.0]), ".2f")


def test_to_device():
    x = gradgen.ones([2])
    assert x.to("cpu") is x and x.to(gradgen.device("cpu")) is x and x.to(device="cpu") is x
    assert x.to("cpu", gradgen.float64).dtype is gradgen.float64
    assert x.to(device="cpu", dtype=gradgen.int32).dtype is gradgen.int32
    c = x.to("cpu", copy=True)
    assert c is not x and c.data_ptr() != x.data_ptr()
    assert x.to(gradgen.zeros([1], dtype=gradgen.int64)).dtype is gradgen.int64
    assert x.to(gradgen.float16).dtype is gradgen.float16
    with pytest.raises(RuntimeError):
        x.to("cuda")


def test_utils_dlpack():
    x = gradgen.tensor([1.0, 2.0])
    y = gradgen.utils.dlpack.from_dlpack(gradgen.utils.dlpack.to_dlpack(x))
    assert y.tolist() == [1.0, 2.0] and y.data_ptr() == x.data_ptr()


def test_is_floating_point_and_matmul():
    assert gradgen.is_floating_point(gradgen.ones([1])) and not gradgen.is_floating_point(gradgen.tensor([1]))
    a, b = _r(2, 3), _r(3, 2, seed=1)
    assert gradgen.allclose(gradgen.linalg.matmul(a, b), a @ b)


def test_linalg_norm_errors():
    with pytest.raises(RuntimeError, match="Order 3 not supported"):
        gradgen.linalg.matrix_norm(gradgen.ones([2, 2]), 3)
    with pytest.raises(RuntimeError, match="must be 1D or 2D"):
        gradgen.linalg.norm(gradgen.ones([2, 2, 2]), "fro")
    with pytest.raises(RuntimeError, match="dims must be different"):
        gradgen.linalg.matrix_norm(gradgen.ones([2, 2]), dim=(0, -2))


def test_inplace_view_ops_record_history():
    a = _r(2, 1, 3, seed=10)
    y = a * 2
    version = y._version
    assert y.squeeze_() is y and y.shape == (2, 3) and y._version > version
    assert y.unsqueeze_(0) is y and y.shape == (1, 2, 3)
    assert y.transpose_(0, 2) is y and y.shape == (3, 2, 1) and not y.is_contiguous()
    (y * gradgen.arange(6.0, dtype=gradgen.float64).reshape([3, 2, 1])).sum().backward()
    assert a.grad.tolist() == [[[0.0, 4.0, 8.0]], [[2.0, 6.0, 10.0]]]
    m = gradgen.zeros([2, 3])
    assert m.t_() is m and m.shape == (3, 2) and m.stride() == (1, 3)
    assert gradcheck(lambda x: (x * 1).unsqueeze_(1).transpose_(0, 1).squeeze_(0), [_r(2, 3, seed=11)])
    # squeeze_ of several dims and as_strided_, as torch's: values, history and gradients.
    z = _r(2, 1, 3, 1, seed=14) * 1
    assert z.squeeze_((1, 3)) is z and z.shape == (2, 3)
    w = _r(2, 3, seed=15) * 1
    assert w.as_strided_([3, 2], [1, 3]) is w and w.shape == (3, 2) and w.stride() == (1, 3)
    assert w.grad_fn.name() == "AsStridedBackward0"  # torch: AsStridedBackward1, as_strided_'s own entry
    assert gradcheck(lambda x: (x * 1).as_strided_((2, 2), (1, 2), 1), [_r(2, 3, seed=16)])
    assert gradcheck(lambda x: (x * 1).squeeze_([0, 2]), [_r(1, 3, 1, seed=17)])


def test_inplace_view_ops_refusals_and_views():
    a = _r(2, 1, seed=12)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        a.squeeze_()
    with gradgen.no_grad():
        a.squeeze_(1)
    assert a.shape == (2,) and a.requires_grad
    b = _r(2, 3, seed=13)
    c = (b * 1)[0]
    c.unsqueeze_(0)  # a view: its history is regenerated from the base's in its new geometry
    assert c.shape == (1, 3)
    (c * 3).sum().backward()
    assert b.grad.tolist() == [[3.0, 3.0, 3.0], [0.0, 0.0, 0.0]]
    with pytest.raises(IndexError):
        gradgen.zeros([2]).transpose_(0, 1)


def test_view_as_another_dtype():
    x = gradgen.tensor([[1.0, -2.0], [0.5, 3.0]])
    i = x.view(gradgen.int32)
    assert i.dtype is gradgen.int32 and i.shape == (2, 2) and i.data_ptr() == x.data_ptr()
    assert i[0, 0].item() == 0x3F800000
    h = x.view(gradgen.float16)
    assert h.shape == (2, 4) and h.stride() == (4, 1)
    d = x.view(gradgen.float64)
    assert d.shape == (2, 1)
    i[0, 0] = 0x40000000  # 2.0: the same memory
    assert x[0, 0].item() == 2.0
    y = _r(2, seed=14)
    assert not y.view(gradgen.int64).requires_grad and not y.view(y.dtype).requires_grad
    assert x.view(4).shape == (4,) and x.view([2, 2]).shape == (2, 2)
    with pytest.raises(RuntimeError, match="self.stride\\(-1\\) must be 1 to view Float as Half"):
        x.t().view(gradgen.float16)
    with pytest.raises(RuntimeError, match="self.dim\\(\\) cannot be 0"):
        gradgen.tensor(1.0).view(gradgen.float64)
