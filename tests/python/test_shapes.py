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
