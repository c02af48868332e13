"""The fifth batch of shape ops (issue 23, "Shapes") from Python: values against numbers computed
here in plain Python (nested lists), torch's calling conventions (varargs, tuples, keywords) and
the errors PyTorch raises. Gradients: test_ops.py's SAMPLES; PyTorch itself:
tests/differential/cases_shape.py.
"""

from __future__ import annotations

import warnings

import pytest

import gradgen as g


def t(data, requires_grad=False):
    return g.tensor(data, dtype=g.float64, requires_grad=requires_grad)


def longs(data):
    return g.tensor(data, dtype=g.int64)


M = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]  # a [2, 3] matrix


# --- diag -------------------------------------------------------------------------------------


def test_diag_of_a_vector_is_a_square_matrix():
    v = t([1.0, 2.0, 3.0])
    assert g.diag(v).tolist() == [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]
    assert v.diag(1).tolist() == [
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 2.0, 0.0],
        [0.0, 0.0, 0.0, 3.0],
        [0.0, 0.0, 0.0, 0.0],
    ]
    assert g.diag(t([5.0]), -1).tolist() == [[0.0, 0.0], [5.0, 0.0]]
    assert g.diag(t([])).shape == (0, 0)
    assert g.diag(longs([1, 2])).tolist() == [[1, 0], [0, 2]]


def test_diag_of_a_matrix_is_its_diagonal_copied():
    m = t(M)
    assert g.diag(m).tolist() == [1.0, 5.0]
    assert g.diag(m, 1).tolist() == [2.0, 6.0]
    assert g.diag(m, -1).tolist() == [4.0]
    assert g.diag(m, 5).tolist() == []
    assert g.diag(m.t()).tolist() == [1.0, 5.0]
    d = g.diag(m)
    d.add_(t([10.0, 10.0]))
    assert m.tolist() == M  # a copy, not a view (as PyTorch's)


def test_diag_refuses_other_ranks():
    with pytest.raises(RuntimeError, match=r"diag\(\): Supports 1D or 2D tensors. Got 3D"):
        g.diag(g.zeros([2, 2, 2], dtype=g.float64))
    with pytest.raises(RuntimeError, match=r"Got 0D"):
        g.diag(t(1.0))


# --- expand_as, broadcast_tensors -------------------------------------------------------------


def test_expand_as_and_broadcast_tensors():
    x = t([[1.0], [2.0]])
    assert x.expand_as(t(M)).tolist() == [[1.0] * 3, [2.0] * 3]
    assert not hasattr(g, "expand_as")  # method-only, as PyTorch's
    a, b, c = g.broadcast_tensors(x, t([10.0, 20.0, 30.0]), t(7.0))
    assert a.tolist() == [[1.0] * 3, [2.0] * 3]
    assert b.tolist() == [[10.0, 20.0, 30.0]] * 2
    assert c.tolist() == [[7.0] * 3] * 2
    r = g.broadcast_tensors([x, t([1.0, 2.0])])
    assert isinstance(r, tuple) and [list(p.shape) for p in r] == [[2, 2], [2, 2]]
    with pytest.raises((RuntimeError, ValueError), match="broadcast_tensors"):
        g.broadcast_tensors(t([1.0, 2.0]), t([1.0, 2.0, 3.0]))
    with pytest.raises((RuntimeError, ValueError), match="expand"):
        t([1.0, 2.0]).expand_as(t([1.0, 2.0, 3.0]))


# --- meshgrid ---------------------------------------------------------------------------------


def test_meshgrid_ij_and_xy():
    x, y = t([1.0, 2.0]), t([3.0, 4.0, 5.0])
    gx, gy = g.meshgrid(x, y, indexing="ij")
    assert gx.tolist() == [[1.0] * 3, [2.0] * 3]
    assert gy.tolist() == [[3.0, 4.0, 5.0]] * 2
    gx, gy = g.meshgrid([x, y], indexing="xy")
    assert gx.tolist() == [[1.0, 2.0]] * 3
    assert gy.tolist() == [[3.0, 3.0], [4.0, 4.0], [5.0, 5.0]]
    a, b, c = g.meshgrid(x, t(9.0), y, indexing="xy")
    assert [list(p.shape) for p in (a, b, c)] == [[1, 2, 3]] * 3
    assert c.tolist() == [[[3.0, 4.0, 5.0]] * 2]
    (only,) = g.meshgrid(y, indexing="xy")
    assert only.tolist() == [3.0, 4.0, 5.0]


def test_meshgrid_without_indexing_warns_and_is_ij():
    x, y = t([1.0, 2.0]), t([3.0, 4.0, 5.0])
    with pytest.warns(UserWarning, match="it will be required to pass the indexing argument"):
        gx, gy = g.meshgrid(x, y)
    assert isinstance((gx, gy), tuple) and gx.shape == (2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert g.meshgrid((x, y))[1].tolist() == [[3.0, 4.0, 5.0]] * 2


def test_meshgrid_errors():
    x = t([1.0, 2.0])
    with pytest.raises(RuntimeError, match=r'indexing must be one of "xy" or "ij", but received: ji'):
        g.meshgrid(x, x, indexing="ji")
    with pytest.raises(RuntimeError, match=r"Expected 0D or 1D tensor in the tensor list but got: tensors\[1\]"):
        g.meshgrid(x, t(M), indexing="ij")
    with pytest.raises(RuntimeError, match="same dtype"):
        g.meshgrid(x, longs([1]), indexing="ij")
    with pytest.raises(RuntimeError, match="meshgrid expects a non-empty TensorList"):
        g.meshgrid([], indexing="ij")


# --- hstack, vstack, dstack, column_stack -------------------------------------------------------


def test_stacks():
    a, b = t([1.0, 2.0]), t([3.0, 4.0])
    assert g.hstack([a, b]).tolist() == [1.0, 2.0, 3.0, 4.0]
    assert g.hstack((t([[1.0], [2.0]]), t([[3.0, 4.0], [5.0, 6.0]]))).tolist() == [[1.0, 3.0, 4.0], [2.0, 5.0, 6.0]]
    assert g.hstack([t(1.0), t(2.0)]).tolist() == [1.0, 2.0]
    assert g.vstack([a, b]).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert g.vstack([t(M), t([7.0, 8.0, 9.0])]).tolist() == M + [[7.0, 8.0, 9.0]]
    assert g.dstack([a, b]).tolist() == [[[1.0, 3.0], [2.0, 4.0]]]
    assert g.dstack([t([[1.0], [2.0]]), t([[3.0], [4.0]])]).tolist() == [[[1.0, 3.0]], [[2.0, 4.0]]]
    assert g.dstack([t(1.0), t(2.0)]).tolist() == [[[1.0, 2.0]]]
    assert g.column_stack([a, b]).tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert g.column_stack([a, t([[5.0, 6.0], [7.0, 8.0]])]).tolist() == [[1.0, 5.0, 6.0], [2.0, 7.0, 8.0]]
    assert g.column_stack([t(1.0), t(2.0)]).tolist() == [[1.0, 2.0]]
    assert g.hstack([longs([1]), longs([2, 3])]).tolist() == [1, 2, 3]
    o = g.zeros([4], dtype=g.float64)
    assert g.hstack([a, b], out=o) is o and o.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_stack_errors():
    for op in ("hstack", "vstack", "dstack", "column_stack"):
        with pytest.raises(RuntimeError, match=op + " expects a non-empty TensorList"):
            getattr(g, op)([])
    with pytest.raises((RuntimeError, ValueError), match="cat"):
        g.vstack([t([1.0, 2.0]), t([1.0, 2.0, 3.0])])


# --- hsplit, vsplit, dsplit ---------------------------------------------------------------------


def test_splits():
    x = t([[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]])
    left, right = g.hsplit(x, 2)
    assert left.tolist() == [[0.0, 1.0], [4.0, 5.0]] and right.tolist() == [[2.0, 3.0], [6.0, 7.0]]
    assert [p.tolist() for p in t([0.0, 1.0, 2.0, 3.0, 4.0]).hsplit([1, 3])] == [[0.0], [1.0, 2.0], [3.0, 4.0]]
    top, bottom = x.vsplit(2)
    assert top.tolist() == [[0.0, 1.0, 2.0, 3.0]] and bottom.tolist() == [[4.0, 5.0, 6.0, 7.0]]
    assert [list(p.shape) for p in g.vsplit(x, [1, 5])] == [[1, 4], [1, 4], [0, 4]]
    c = g.reshape(g.arange(8, dtype=g.float64), [1, 2, 4])
    a, b = g.dsplit(c, 2)
    assert a.tolist() == [[[0.0, 1.0], [4.0, 5.0]]] and b.tolist() == [[[2.0, 3.0], [6.0, 7.0]]]
    assert [list(p.shape) for p in c.dsplit([3])] == [[1, 2, 3], [1, 2, 1]]
    assert isinstance(g.hsplit(x, 2), (list, tuple))
    left.mul_(0.0)
    assert x.tolist()[0] == [0.0, 0.0, 2.0, 3.0]  # views, as PyTorch's


def test_split_errors():
    x = t(M)
    with pytest.raises(
        RuntimeError,
        match=r"torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!",
    ):
        g.hsplit(t(1.0), 1)
    with pytest.raises(RuntimeError, match=r"torch.vsplit requires a tensor with at least 2 dimensions"):
        g.vsplit(t([1.0, 2.0]), 2)
    with pytest.raises(RuntimeError, match=r"torch.dsplit requires a tensor with at least 3 dimensions"):
        x.dsplit([1])
    with pytest.raises(
        RuntimeError,
        match=r"torch.hsplit attempted to split along dimension 1, but the size of the dimension 3 is not "
        r"divisible by the split_size 2!",
    ):
        g.hsplit(x, 2)
    with pytest.raises(RuntimeError, match="not divisible by the split_size 0"):
        g.vsplit(x, 0)


# --- contiguous ---------------------------------------------------------------------------------


def test_contiguous():
    x = t(M, requires_grad=True)
    assert x.contiguous() is x or x.contiguous().data_ptr() == x.data_ptr()
    y = x.t()
    assert not y.is_contiguous()
    c = y.contiguous()
    assert c.is_contiguous() and c.tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    assert c.data_ptr() != x.data_ptr()
    (c * t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
    assert x.grad.tolist() == [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]
    with pytest.raises(RuntimeError, match="preserve memory format is unsupported by the contiguous operator"):
        y.contiguous(memory_format=g.preserve_format)
    assert not hasattr(g, "contiguous")  # method-only, as PyTorch's


# --- repeat_interleave ----------------------------------------------------------------------------


def test_repeat_interleave():
    x = t(M)
    assert g.repeat_interleave(x, 2).tolist() == [1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0, 5.0, 6.0, 6.0]
    assert x.repeat_interleave(2, dim=0).tolist() == [M[0], M[0], M[1], M[1]]
    assert x.repeat_interleave(longs([1, 0, 2]), dim=1).tolist() == [[1.0, 3.0, 3.0], [4.0, 6.0, 6.0]]
    assert g.repeat_interleave(x, longs([2, 1]), dim=0).tolist() == [M[0], M[0], M[1]]
    assert g.repeat_interleave(x, longs(2), dim=-1).tolist() == [[v for v in r for _ in (0, 1)] for r in M]
    assert g.repeat_interleave(t(3.0), 2).tolist() == [3.0, 3.0]
    assert g.repeat_interleave(longs([7, 8]), 2).tolist() == [7, 7, 8, 8]
    y = t([1.0, 2.0], requires_grad=True)
    g.repeat_interleave(y, longs([3, 1])).sum().backward()
    assert y.grad.tolist() == [3.0, 1.0]


def test_repeat_interleave_errors():
    x = t(M)
    with pytest.raises(RuntimeError, match="Repeats must be non-negative"):
        g.repeat_interleave(x, -1)
    with pytest.raises(
        RuntimeError,
        match=r"repeats must have the same size as input along dim, but got repeats.size\(0\) = 2 and "
        r"input.size\(1\) = 3",
    ):
        g.repeat_interleave(x, longs([1, 2]), dim=1)
    with pytest.raises(RuntimeError, match="repeats can not be negative"):
        g.repeat_interleave(x, longs([1, -2]), dim=0)
    with pytest.raises(IndexError, match="out of range"):
        g.repeat_interleave(x, 2, dim=5)
    with pytest.raises(RuntimeError, match="repeats must be 0-dim or 1-dim tensor"):
        g.repeat_interleave(x, longs([[1, 1]]), dim=0)


# --- unfold, as_strided ---------------------------------------------------------------------------


def test_unfold_is_a_view_of_windows():
    x = t([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], requires_grad=True)
    u = x.unfold(1, 2, 1)
    assert u.tolist() == [[[0.0, 1.0], [1.0, 2.0]], [[3.0, 4.0], [4.0, 5.0]]]
    assert u.stride() == (3, 1, 1) or list(u.stride()) == [3, 1, 1]
    assert x.unfold(0, 1, 1).shape == (2, 3, 1)
    assert x.unfold(1, 2, 2).tolist() == [[[0.0, 1.0]], [[3.0, 4.0]]]
    assert x.unfold(1, 0, 1).shape == (2, 4, 0)
    assert t(3.0).unfold(0, 1, 1).tolist() == [3.0]
    u.sum().backward()  # the middle column is in two windows
    assert x.grad.tolist() == [[1.0, 2.0, 1.0], [1.0, 2.0, 1.0]]
    w = g.unfold_backward(t([[1.0, 2.0], [3.0, 4.0]]), [3], 0, 2, 1)
    assert w.tolist() == [1.0, 5.0, 4.0]
    v = t([1.0, 2.0, 3.0, 4.0])
    v.unfold(0, 2, 2)[1].mul_(10.0)
    assert v.tolist() == [1.0, 2.0, 30.0, 40.0]


def test_unfold_errors():
    x = t(M)
    with pytest.raises(RuntimeError, match="maximum size for tensor at dimension 1 is 3 but size is 4"):
        x.unfold(1, 4, 1)
    with pytest.raises(RuntimeError, match="step is 0 but must be > 0"):
        x.unfold(1, 2, 0)
    with pytest.raises(RuntimeError, match="size is -1 but must be >= 0"):
        x.unfold(1, -1, 1)
    with pytest.raises(IndexError, match="out of range"):
        x.unfold(3, 2, 1)
    assert not hasattr(g, "unfold")  # method-only, as PyTorch's


def test_as_strided():
    x = t(M, requires_grad=True)
    assert g.as_strided(x, [2, 2], [1, 2]).tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert x.as_strided([2], [1], 4).tolist() == [5.0, 6.0]
    row = x.detach()[1]
    assert row.as_strided([2], [1]).tolist() == [4.0, 5.0]  # from the view's own offset
    w = x.as_strided([3, 2], [1, 1])  # overlapping windows: [1, 2], [2, 3], [3, 4]
    assert w.tolist() == [[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]]
    w.sum().backward()
    assert x.grad.tolist() == [[1.0, 2.0, 2.0], [1.0, 0.0, 0.0]]
    base = g.ones([4], dtype=g.float64)
    base.as_strided([2], [2], 1).mul_(0.0)  # a view: writes reach the base
    assert base.tolist() == [1.0, 0.0, 1.0, 0.0]


def test_as_strided_errors():
    x = t(M)
    with pytest.raises(RuntimeError, match=r"out of bounds for storage of size 48"):
        x.as_strided([2, 2], [1, 2], 5)
    with pytest.raises(
        RuntimeError, match=r"as_strided: Negative strides are not supported at the moment, got strides: \[-1, 2\]"
    ):
        x.as_strided([2, 2], [-1, 2])
    with pytest.raises(RuntimeError, match="mismatch in length of strides and shape"):
        x.as_strided([2], [1, 2])


# --- unique, unique_consecutive -----------------------------------------------------------------


def test_unique_returns_what_was_asked_for():
    x = t([[2.0, 1.0], [2.0, 3.0]])
    u = g.unique(x)
    assert isinstance(u, g.Tensor) and u.tolist() == [1.0, 2.0, 3.0]
    u, inv = g.unique(x, return_inverse=True)
    assert inv.tolist() == [[1, 0], [1, 2]]
    u, counts = x.unique(return_counts=True)
    assert counts.tolist() == [1, 2, 1]
    u, inv, counts = g.unique(x, sorted=False, return_inverse=True, return_counts=True)
    assert u.tolist() == [1.0, 2.0, 3.0] and inv.tolist() == [[1, 0], [1, 2]] and counts.tolist() == [1, 2, 1]
    assert g.unique(x, dim=0).tolist() == [[2.0, 1.0], [2.0, 3.0]]
    u, inv, counts = g.unique(t([[1.0, 5.0], [0.0, 1.0], [1.0, 5.0]]), dim=0, return_inverse=True, return_counts=True)
    assert u.tolist() == [[0.0, 1.0], [1.0, 5.0]] and inv.tolist() == [1, 0, 1] and counts.tolist() == [1, 2]
    cols, inv = x.unique(dim=1, return_inverse=True)
    assert cols.tolist() == [[1.0, 2.0], [3.0, 2.0]] and inv.tolist() == [1, 0]
    nan = float("nan")
    u = g.unique(t([nan, 1.0, nan])).tolist()
    assert u[0] == 1.0 and all(v != v for v in u[1:]) and len(u) == 3  # each NaN its own value
    assert g.unique(g.tensor([True, False, True], dtype=g.bool)).tolist() == [False, True]
    assert g.unique(t([])).shape == (0,)
    u, inv = g.unique(t(4.0), return_inverse=True)
    assert u.tolist() == [4.0] and inv.tolist() == 0


def test_unique_consecutive():
    x = longs([1, 1, 2, 2, 3, 1, 1, 2])
    assert g.unique_consecutive(x).tolist() == [1, 2, 3, 1, 2]
    u, inv, counts = x.unique_consecutive(return_inverse=True, return_counts=True)
    assert inv.tolist() == [0, 0, 1, 1, 2, 3, 3, 4] and counts.tolist() == [2, 2, 1, 2, 1]
    m = longs([[1, 1], [1, 1], [2, 0], [1, 1]])
    u, counts = g.unique_consecutive(m, return_counts=True, dim=0)
    assert u.tolist() == [[1, 1], [2, 0], [1, 1]] and counts.tolist() == [2, 1, 1]


def test_unique_errors():
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        g.unique(t(1.0), dim=0)
    with pytest.raises(IndexError, match="out of range"):
        g.unique(t(M), dim=2)
    with pytest.raises(RuntimeError, match="There are 0 sized dimensions, and they aren't selected"):
        g.unique(g.zeros([2, 0], dtype=g.float64), dim=0)
    x = t([1.0, 2.0, 1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="not implemented"):
        g.unique(x).sum().backward()


# --- einsum ---------------------------------------------------------------------------------------


def _mm(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def test_einsum_values():
    a = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    b = [[1.0, 0.0], [2.0, 1.0], [0.0, 3.0]]
    A, B = t(a), t(b)
    assert g.einsum("ij,jk->ik", A, B).tolist() == _mm(a, b)
    assert g.einsum("ij,jk", [A, B]).tolist() == _mm(a, b)
    assert g.einsum("ij->ji", A).tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    assert g.einsum("ij", A).tolist() == a
    assert g.einsum("ji", A).tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]  # implicit: sorted
    assert g.einsum("ij->", A).tolist() == 21.0
    assert g.einsum("ij->j", A).tolist() == [5.0, 7.0, 9.0]
    sq = t([[1.0, 2.0], [3.0, 4.0]])
    assert g.einsum("ii", sq).tolist() == 5.0
    assert g.einsum("ii->i", sq).tolist() == [1.0, 4.0]
    v, w = t([1.0, 2.0]), t([3.0, 4.0, 5.0])
    assert g.einsum("i,j->ij", v, w).tolist() == [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]
    assert g.einsum("i,i->", v, t([3.0, 4.0])).tolist() == 11.0
    assert g.einsum("i,i->i", v, t([3.0, 4.0])).tolist() == [3.0, 8.0]
    # Batches by ellipsis, broadcast: [2, 1, 2, 3] @ [3, 3, 2] -> [2, 3, 2, 2].
    x = g.reshape(g.arange(12, dtype=g.float64), [2, 1, 2, 3])
    y = g.reshape(g.arange(18, dtype=g.float64), [3, 3, 2])
    r = g.einsum("...ij,...jk->...ik", x, y)
    assert r.shape == (2, 3, 2, 2)
    xs, ys = x.tolist(), y.tolist()
    for p in range(2):
        for q in range(3):
            assert r.tolist()[p][q] == _mm(xs[p][0], ys[q])
    # A chain of three, upper case labels, a diagonal inside a product.
    c = t([[1.0, -1.0], [0.5, 2.0]])
    assert g.einsum("ij,jk,kl->il", A, B, c).tolist() == _mm(_mm(a, b), c.tolist())
    assert g.einsum("Ab,bC", A, B).tolist() == _mm(a, b)
    d = t([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])  # d[i][i][j]: rows [1, 2], [7, 8]
    assert g.einsum("iij->ij", d).tolist() == [[1.0, 2.0], [7.0, 8.0]]
    assert g.einsum("i j , j k -> i k", A, B).tolist() == _mm(a, b)  # spaces are ignored
    assert g.einsum("ij,jk->ik", longs([[1, 2]]), longs([[3], [4]])).tolist() == [[11]]
    assert g.einsum("i->", t([])).tolist() == 0.0


def test_einsum_gradient():
    A = t([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    B = t([[5.0, 6.0], [7.0, 8.0]], requires_grad=True)
    g.einsum("ij,jk->", A, B).backward()
    # d/dA sum(A @ B) = 1 B^T: each row of A gets B's row sums.
    assert A.grad.tolist() == [[11.0, 15.0], [11.0, 15.0]]
    assert B.grad.tolist() == [[4.0, 4.0], [6.0, 6.0]]


def test_einsum_errors():
    A = t(M)
    with pytest.raises(
        RuntimeError, match=r"einsum\(\): the number of subscripts in the equation \(3\) does not match"
    ):
        g.einsum("ijk", A)
    with pytest.raises(RuntimeError, match="more operands were provided than specified in the equation"):
        g.einsum("ij", A, A)
    with pytest.raises(RuntimeError, match="fewer operands were provided than specified in the equation"):
        g.einsum("ij,jk", A)
    with pytest.raises(RuntimeError, match=r"invalid subscript given at index 1 in the equation string"):
        g.einsum("i1", A)
    with pytest.raises(RuntimeError, match="output subscript i appears more than once in the output"):
        g.einsum("ij->ii", A)
    with pytest.raises(RuntimeError, match="output subscript k does not appear in the equation for any input"):
        g.einsum("ij->k", A)
    # PyTorch's order: the later dim's size first.
    with pytest.raises(RuntimeError, match="subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"):
        g.einsum("ii", A)
    with pytest.raises(
        RuntimeError,
        match="einsum\\(\\): subscript j has size 2 for operand 1 which does not broadcast with previously seen size 3",
    ):
        g.einsum("ij,ij->ij", A, t([[1.0, 2.0]]).expand(2, 2).contiguous())
    with pytest.raises(
        RuntimeError,
        match="einsum\\(\\): dimension 0 covered by ellipsis in operand 1has size 3 which does not broadcast with "
        "previously seen ellipsis with size 2 for the respective dimension",
    ):
        g.einsum("...j,...j", A, g.ones(3, 3))
    stray_dot = r"einsum\(\): found '\.' for output that is not part of any ellipsis \(\.\.\.\)"
    with pytest.raises(RuntimeError, match=stray_dot):
        g.einsum("ij->i.", A)
    with pytest.raises(ValueError, match="must specify the equation string and at least one operand"):
        g.einsum("")  # torch's Python-level check
    with pytest.raises(RuntimeError, match="must provide at least one operand"):
        g._C.einsum("", [])  # the op's own


# --- addr, linalg.multi_dot, chain_matmul -------------------------------------------------------


def test_addr():
    s = t([[1.0, 2.0], [3.0, 4.0]])
    v, w = t([1.0, 2.0]), t([3.0, -1.0])
    assert g.addr(s, v, w).tolist() == [[4.0, 1.0], [9.0, 2.0]]
    assert s.addr(v, w, beta=0.5, alpha=2).tolist() == [[6.5, -1.0], [13.5, -2.0]]
    nan = float("nan")
    assert g.addr(t([[nan, 1.0], [1.0, 1.0]]), v, w, beta=0).tolist() == [[3.0, -1.0], [6.0, -2.0]]
    assert g.addr(t([1.0, 1.0]), v, w).tolist() == [[4.0, 0.0], [7.0, -1.0]]  # self broadcast
    assert g.addr(longs([[0, 0]]), longs([1, 2]), longs([3, 4]), alpha=2).tolist() == [[6, 8], [12, 16]]
    c = s.clone()
    assert c.addr_(v, w) is c and c.tolist() == [[4.0, 1.0], [9.0, 2.0]]
    with pytest.raises(RuntimeError, match="addr: Expected 1-D argument vec1, but got 2-D"):
        g.addr(s, s, w)
    with pytest.raises(RuntimeError, match="addr"):
        g.addr(t([1.0, 2.0, 3.0]), v, w)


def test_multi_dot_and_chain_matmul():
    a = t([[1.0, 2.0], [3.0, 4.0]])
    b = t([[0.0, 1.0], [1.0, 0.0]])
    v = t([1.0, -1.0])
    assert g.linalg.multi_dot([a, b]).tolist() == [[2.0, 1.0], [4.0, 3.0]]
    assert g.linalg.multi_dot((v, a, b)).tolist() == [-2.0, -2.0]  # [1, -1] @ a = [-2, -2]; @ b swaps
    assert g.linalg.multi_dot([v, a, v]).tolist() == 0.0  # [-2, -2] . [1, -1]
    assert g.linalg.multi_dot([a, b, v]).tolist() == [1.0, 1.0]
    with pytest.warns(UserWarning, match="torch.chain_matmul is deprecated"):
        assert g.chain_matmul(a, b, a).tolist() == [[5.0, 8.0], [13.0, 20.0]]  # [[2, 1], [4, 3]] @ a
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert g.chain_matmul(a).tolist() == a.tolist()
        with pytest.raises(RuntimeError, match=r"chain_matmul\(\): Tensor dimension is 1, expected 2 instead."):
            g.chain_matmul(a, v)
        with pytest.raises(RuntimeError, match=r"chain_matmul\(\): Expected one or more matrices"):
            g.chain_matmul()
    with pytest.raises(RuntimeError, match=r"multi_dot\(\): expected at least 2 tensors but got 1"):
        g.linalg.multi_dot([a])
    with pytest.raises(RuntimeError, match=r"multi_dot\(\): tensor 1 must be 2D but got 1D"):
        g.linalg.multi_dot([a, v, a])
    with pytest.raises(
        RuntimeError, match=r"multi_dot\(\): tensors 0 and 1 with shapes \[2, 2\] and \[3, 2\] cannot be multiplied"
    ):
        g.linalg.multi_dot([a, g.zeros([3, 2], dtype=g.float64)])
    with pytest.raises(RuntimeError, match=r"multi_dot\(\): all tensors must have be the same dtype"):
        g.linalg.multi_dot([a, longs([[1, 2], [3, 4]])])


# --- cdist ----------------------------------------------------------------------------------------


def test_cdist_values():
    a = [[0.0, 0.0], [1.0, 2.0], [3.0, -1.0]]
    b = [[1.0, 0.0], [-2.0, 2.0]]

    def dist(u, v, p):
        d = [abs(x - y) for x, y in zip(u, v)]
        if p == float("inf"):
            return max(d)
        if p == 0:
            return float(sum(1 for x in d if x != 0))
        return sum(x**p for x in d) ** (1.0 / p)

    A, B = t(a), t(b)
    for p in (0.0, 1.0, 2.0, 3.0, float("inf")):
        got = g.cdist(A, B, p=p).tolist()
        want = [[dist(u, v, p) for v in b] for u in a]
        for gr, wr in zip(got, want):
            assert gr == pytest.approx(wr, rel=1e-12, abs=1e-12), (p, got, want)
    for mode in ("use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"):
        got = g.cdist(A, B, compute_mode=mode).tolist()
        for gr, wr in zip(got, [[dist(u, v, 2) for v in b] for u in a]):
            assert gr == pytest.approx(wr, rel=1e-12, abs=1e-7)
    assert g.cdist(g.zeros([2, 0, 2], dtype=g.float64), g.zeros([3, 2], dtype=g.float64)).shape == (2, 0, 3)
    assert g.cdist(g.zeros([2, 1, 3, 2], dtype=g.float64), g.zeros([4, 5, 2], dtype=g.float64)).shape == (2, 4, 3, 5)


def test_cdist_errors():
    A = t(M)
    with pytest.raises(RuntimeError, match="cdist only supports at least 2D tensors, X1 got: 1D"):
        g.cdist(t([1.0]), A)
    with pytest.raises(RuntimeError, match="X1 and X2 must have the same number of columns. X1: 3 X2: 2"):
        g.cdist(A, t([[1.0, 2.0]]))
    with pytest.raises(RuntimeError, match="cdist only supports non-negative p values"):
        g.cdist(A, A, p=-1.0)
    with pytest.raises(RuntimeError, match="cdist only supports floating-point dtypes, X1 got: Long"):
        g.cdist(longs([[1, 2]]), longs([[1, 2]]))
    with pytest.raises(ValueError, match="sometimes is not a valid value for compute_mode"):
        g.cdist(A, A, compute_mode="sometimes")


def test_einsum_sublist_format():
    a = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    b = [[1.0, 0.0], [2.0, 1.0], [0.0, 3.0]]
    A, B = t(a), t(b)
    assert g.einsum(A, [0, 1], B, [1, 2]).tolist() == _mm(a, b)
    assert g.einsum(A, [0, 1], B, [1, 2], [2, 0]).tolist() == [list(r) for r in zip(*_mm(a, b))]
    assert g.einsum(A, [Ellipsis, 30], [30]).tolist() == [5.0, 7.0, 9.0]
    with pytest.raises(ValueError, match=r"subscript in subscript list is not within the valid range \[0, 52\)"):
        g.einsum(A, [0, 52])
    with pytest.raises(ValueError, match="must specify the equation string and at least one operand"):
        g.einsum("ij")
