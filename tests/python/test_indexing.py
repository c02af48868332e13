"""The indexing family (issue 23) from Python: advanced indexing (gradgen.index, index_put_ /
index_put) and Tensor.__getitem__ / __setitem__ with index tensors, lists and masks.

Values are checked against plain-Python computations of the same indexing; the errors against
PyTorch's types and messages (IndexError naming the index, the dim and its size).
"""

from __future__ import annotations

import itertools
import random

import pytest
from gradcheck_util import gradcheck, gradgradcheck

import gradgen as g


def nested(shape, seed=0):
    rng = random.Random(seed)

    def make(dims):
        if not dims:
            return round(rng.uniform(-1, 1), 6)
        return [make(dims[1:]) for _ in range(dims[0])]

    return make(list(shape))


def at(data, idx):
    for i in idx:
        data = data[i]
    return data


def longs(data):
    return g.tensor(data, dtype=g.int64)


def bools(data):
    return g.tensor(data, dtype=g.bool)


def leaf(*shape, seed=0):
    return g.tensor(nested(shape, seed), dtype=g.float64, requires_grad=True)


# ---------------------------------------------------------------------------------------------
# index.Tensor
# ---------------------------------------------------------------------------------------------


def test_index_rows_with_negative_and_repeated_indices():
    data = nested([4, 3], 1)
    x = g.tensor(data, dtype=g.float64)
    assert g.index(x, [longs([2, -1, 2])]).tolist() == [data[2], data[3], data[2]]


def test_index_broadcasts_the_index_tensors():
    data = nested([3, 4], 2)
    x = g.tensor(data, dtype=g.float64)
    got = g.index(x, [longs([[0], [2]]), longs([1, 3, -4])])
    assert got.shape == (2, 3)
    assert got.tolist() == [[data[i][j % 4] for j in (1, 3, 0)] for i in (0, 2)]


def test_index_separated_by_a_slice_puts_the_index_dims_first():
    data = nested([2, 3, 4], 3)
    x = g.tensor(data, dtype=g.float64)
    got = g.index(x, [longs([1, 0]), None, longs([3, 1])])
    # PyTorch's rule: indexed dims not adjacent -> the broadcast index shape comes first.
    assert got.shape == (2, 3)
    assert got.tolist() == [[data[i][k][j] for k in range(3)] for i, j in ((1, 3), (0, 1))]


def test_index_adjacent_after_a_slice_stays_in_place():
    data = nested([2, 3, 4], 4)
    x = g.tensor(data, dtype=g.float64)
    got = g.index(x, [None, longs([[2, 0], [1, 1]]), longs([3, 0])])
    assert got.shape == (2, 2, 2)
    pairs = [[(2, 3), (0, 0)], [(1, 3), (1, 0)]]
    assert got.tolist() == [[[data[b][i][j] for i, j in row] for row in pairs] for b in range(2)]


def test_index_bool_mask_is_its_nonzero():
    data = nested([2, 3, 2], 5)
    mask = [[True, False, True], [False, False, True]]
    x = g.tensor(data, dtype=g.float64)
    got = g.index(x, [bools(mask)])
    expected = [data[i][j] for i, j in itertools.product(range(2), range(3)) if mask[i][j]]
    assert got.shape == (3, 2) and got.tolist() == expected
    assert g.index(x, [bools([[False] * 3] * 2)]).shape == (0, 2)


def test_index_0_dim_and_empty_indices():
    x = g.tensor(nested([3, 2], 6), dtype=g.float64)
    assert g.index(x, [longs(1)]).shape == (2,)
    assert g.index(x, [longs([])]).shape == (0, 2)


def test_index_errors_as_pytorch():
    x = g.zeros([3, 2], dtype=g.float64)
    with pytest.raises(IndexError, match=r"index 3 is out of bounds for dimension 0 with size 3"):
        g.index(x, [longs([0, 3])])
    with pytest.raises(IndexError, match=r"index -3 is out of bounds for dimension 1 with size 2"):
        g.index(x, [None, longs([-3])])
    with pytest.raises(
        IndexError,
        match=r"The shape of the mask \[2\] at index 0 does not match the shape of the indexed tensor "
        r"\[3, 2\] at index 0",
    ):
        g.index(x, [bools([True, False])])
    with pytest.raises(
        IndexError, match=r"shape mismatch: indexing tensors could not be broadcast together with shapes \[2\], \[3\]"
    ):
        g.index(x, [longs([0, 1]), longs([0, 1, 0])])
    with pytest.raises(IndexError, match=r"too many indices for tensor of dimension 2"):
        g.index(x, [longs([0]), longs([0]), longs([0])])
    with pytest.raises(IndexError, match=r"tensors used as indices must be long, int, byte or bool tensors"):
        g.index(x, [g.tensor([0.0], dtype=g.float64)])


def test_index_gradients():
    for indices in ([longs([2, 0, 2])], [longs([1, 0]), None, longs([2, -1])], [bools([True, False, True])]):
        shape = (3, 2) if len(indices) == 1 else (2, 3, 4)
        x = leaf(*shape, seed=7)
        gradcheck(lambda t, i=indices: g.index(t, i), [x])
        gradgradcheck(lambda t, i=indices: g.index(t, i), [x])
    x = leaf(3, 2, seed=8)
    g.index(x, [longs([2, 0, 2])]).sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]


# ---------------------------------------------------------------------------------------------
# index_put_ / index_put
# ---------------------------------------------------------------------------------------------


def test_index_put_duplicates_last_write_wins_or_accumulate_sums():
    x = g.zeros([4], dtype=g.float64)
    idx = [longs([1, 3, 1, 1])]
    v = g.tensor([10.0, 20.0, 30.0, 40.0], dtype=g.float64)
    assert g.index_put(x, idx, v).tolist() == [0.0, 40.0, 0.0, 20.0]
    assert g.index_put(x, idx, v, True).tolist() == [0.0, 80.0, 0.0, 20.0]
    assert x.tolist() == [0.0] * 4  # out of place
    y = g.ones([4], dtype=g.float64)
    assert y.index_put_(idx, v, accumulate=True) is y
    assert y.tolist() == [1.0, 81.0, 1.0, 21.0]


def test_index_put_broadcasts_values_and_masks():
    x = g.zeros([2, 3], dtype=g.float64)
    got = g.index_put(x, [bools([[True, False, True], [False, True, False]])], g.tensor(5.0, dtype=g.float64))
    assert got.tolist() == [[5.0, 0.0, 5.0], [0.0, 5.0, 0.0]]
    got = g.index_put(x, [longs([1])], g.tensor([1.0, 2.0, 3.0], dtype=g.float64))
    assert got.tolist() == [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]


def test_index_put_errors_as_pytorch():
    x = g.zeros([3], dtype=g.float64)
    with pytest.raises(IndexError, match=r"index 3 is out of bounds for dimension 0 with size 3"):
        g.index_put(x, [longs([3])], g.tensor([1.0], dtype=g.float64))
    with pytest.raises(
        RuntimeError,
        match=r"shape mismatch: value tensor of shape \[3\] cannot be broadcast to indexing result of shape \[2\]",
    ):
        g.index_put(x, [longs([0, 1])], g.tensor([1.0, 2.0, 3.0], dtype=g.float64))
    with pytest.raises(RuntimeError, match=r"Index put requires the source and destination dtypes match"):
        g.index_put(x, [longs([0])], g.tensor([1.0], dtype=g.float32))


def test_index_put_gradients_flow_to_self_and_values():
    x, v = leaf(4, 3, seed=9), leaf(2, 3, seed=10)
    for acc in (False, True):
        gradcheck(lambda a, b, acc=acc: g.index_put(a, [longs([2, 0])], b, acc), [x, v])
        gradgradcheck(lambda a, b, acc=acc: g.index_put(a, [longs([2, 0])], b, acc), [x, v])
    x, v = leaf(3, seed=11), leaf(3, seed=12)
    g.index_put(x, [longs([0, 2, 0])], v).sum().backward()
    # PyTorch's formula: self's gradient is zero where written; each value gets grad.index.
    assert x.grad.tolist() == [0.0, 1.0, 0.0] and v.grad.tolist() == [1.0, 1.0, 1.0]


# ---------------------------------------------------------------------------------------------
# x[idx] and x[idx] = v
# ---------------------------------------------------------------------------------------------


def test_getitem_lists_tensors_and_masks():
    data = nested([3, 4], 20)
    x = g.tensor(data, dtype=g.float64)
    assert x[[2, 0]].tolist() == [data[2], data[0]]
    assert x[longs([1]), 1:3].tolist() == [data[1][1:3]]
    assert x[..., [0, 3]].tolist() == [[r[0], r[3]] for r in data]
    assert x[1, [0, 2]].tolist() == [data[1][0], data[1][2]]
    assert x[[True, False, True]].tolist() == [data[0], data[2]]
    assert x[x > 0].tolist() == [v for r in data for v in r if v > 0]
    assert x[None, [0, 1], None].shape == (1, 2, 1, 4)
    assert x[g.tensor(True)].shape == (1, 3, 4) and x[g.tensor(False)].shape == (0, 3, 4)
    assert x[[]].shape == (0, 4)


def test_getitem_separated_indices_go_first():
    data = nested([2, 3, 4], 21)
    x = g.tensor(data, dtype=g.float64)
    got = x[[0, 1], :, [2, 0]]
    assert got.shape == (2, 3)
    assert got.tolist() == [[data[i][k][j] for k in range(3)] for i, j in ((0, 2), (1, 0))]


def test_getitem_errors_as_pytorch():
    x = g.zeros([3, 2], dtype=g.float64)
    with pytest.raises(IndexError, match=r"index 3 is out of bounds for dimension 0 with size 3"):
        x[[0, 3]]
    with pytest.raises(IndexError, match=r"The shape of the mask \[2\] at index 0 does not match"):
        x[bools([True, False])]
    with pytest.raises(IndexError, match=r"too many indices for tensor of dimension 2"):
        x[[0], [0], [0]]
    with pytest.raises(IndexError, match=r"tensors used as indices must be long, int, byte or bool"):
        x[g.tensor([0.0], dtype=g.float64)]


def test_getitem_is_differentiable():
    x = leaf(3, 4, seed=22)
    gradcheck(lambda t: t[[0, 0, 2], [1, 1, 3]], [x])
    gradgradcheck(lambda t: t[t.detach() > 0], [x])
    x[[0, 0, 2], [1, 1, 3]].sum().backward()
    expected = [[0.0] * 4 for _ in range(3)]
    expected[0][1], expected[2][3] = 2.0, 1.0
    assert x.grad.tolist() == expected


def test_setitem_with_index_tensors_and_masks():
    z = g.zeros([3, 4], dtype=g.float64)
    z[z == 0] = 7.0
    assert z.tolist() == [[7.0] * 4] * 3
    z[[0, 1]] = g.tensor([[1.0, 2.0, 3.0, 4.0]], dtype=g.float64)  # leading 1s dropped, broadcast
    assert z.tolist() == [[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [7.0] * 4]
    z[:, [0, 3]] = 0.0
    assert z.tolist() == [[0.0, 2.0, 3.0, 0.0], [0.0, 2.0, 3.0, 0.0], [0.0, 7.0, 7.0, 0.0]]
    y = g.zeros([3], dtype=g.float64)
    y[[1, 1]] = g.tensor([5.0, 6.0], dtype=g.float64)  # duplicates: the last write wins
    assert y.tolist() == [0.0, 6.0, 0.0]
    with pytest.raises(IndexError, match=r"index 3 is out of bounds for dimension 0 with size 3"):
        y[[3]] = 1.0
    with pytest.raises(RuntimeError, match=r"Index put requires the source and destination dtypes match"):
        y[[0]] = g.tensor([1.0], dtype=g.float32)


def test_setitem_gradients_reach_self_and_value():
    x = leaf(3, 4, seed=23)
    v = g.tensor([1.0, 2.0], dtype=g.float64, requires_grad=True)
    w = x * 1
    w[[0, 2], 0] = v
    (w * w).sum().backward()
    assert v.grad.tolist() == [2.0, 4.0]
    data = nested([3, 4], 23)
    expected = [[2 * data[i][j] for j in range(4)] for i in range(3)]
    expected[0][0] = expected[2][0] = 0.0
    assert [v for r in x.grad.tolist() for v in r] == pytest.approx([v for r in expected for v in r])

    def f(a, b):
        c = a * 1
        c[a.detach() > 0] = b
        return c

    gradcheck(f, [leaf(2, 3, seed=24), leaf(seed=25)])
    gradgradcheck(f, [leaf(2, 3, seed=24), leaf(seed=25)])


def test_stepped_slices_are_views():
    x = g.tensor([float(i) for i in range(10)], dtype=g.float64)
    v = x[1::3]
    assert v.tolist() == [1.0, 4.0, 7.0] and v.shape == (3,)
    v.mul_(10.0)
    assert x.tolist() == [0.0, 10.0, 2.0, 3.0, 40.0, 5.0, 6.0, 70.0, 8.0, 9.0]
    assert x[-4:-1:2].tolist() == [6.0, 8.0] and x[3:1:2].shape == (0,)
    assert x.slice(0, None, None, 4).tolist() == [0.0, 40.0, 8.0]
    m = g.tensor([[float(3 * i + j) for j in range(3)] for i in range(4)], dtype=g.float64)
    assert m[::2, ::2].tolist() == [[0.0, 2.0], [6.0, 8.0]]
    m[::2, 1] = 0.0
    assert [r[1] for r in m.tolist()] == [0.0, 4.0, 0.0, 10.0]
    with pytest.raises(ValueError, match=r"step"):
        x[::0]


def test_stepped_slice_gradients():
    x = leaf(7, 2, seed=30)
    gradcheck(lambda t: t[1::3], [x])
    gradgradcheck(lambda t: t[::2, 1:] * t[::2, :1], [x])
    x[::3].sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0] if i % 3 == 0 else [0.0, 0.0] for i in range(7)]


# ---------------------------------------------------------------------------------------------
# masked_select, take, take_along_dim, nonzero, argwhere
# ---------------------------------------------------------------------------------------------


def test_masked_select_take_take_along_dim_values():
    data = nested([2, 3], 40)
    x = g.tensor(data, dtype=g.float64)
    mask = [[True, False, True], [False, True, True]]
    flat = [v for r in data for v in r]
    assert g.masked_select(x, bools(mask)).tolist() == [data[i][j] for i in range(2) for j in range(3) if mask[i][j]]
    assert x.masked_select(bools([False, True, False])).tolist() == [data[0][1], data[1][1]]
    assert g.take(x, longs([[5, 0], [-1, 2]])).tolist() == [[flat[5], flat[0]], [flat[5], flat[2]]]
    assert g.take_along_dim(x, longs([[2], [0]]), 1).tolist() == [[data[0][2]], [data[1][0]]]
    assert g.take_along_dim(x, longs([4, 1])).tolist() == [flat[4], flat[1]]
    order = g.argsort(x, 1)
    got = g.take_along_dim(x, order, 1).tolist()
    assert got == [sorted(r) for r in data]


def test_selection_errors_as_pytorch():
    x = g.zeros([2, 3], dtype=g.float64)
    with pytest.raises(IndexError, match=r"out of range: tried to access index 6 on a tensor of 6 elements"):
        g.take(x, longs([6]))
    with pytest.raises(RuntimeError, match=r"take\(\): Expected a long tensor for index"):
        g.take(x, g.tensor([0.0], dtype=g.float64))
    with pytest.raises(RuntimeError, match=r"masked_select: expected BoolTensor for mask"):
        g.masked_select(x, longs([1, 0, 1]))
    with pytest.raises(RuntimeError, match=r"should have the same number of dimensions"):
        g.take_along_dim(x, longs([0]), 0)


def test_nonzero_and_argwhere():
    x = g.tensor([[0.0, 1.5, 0.0], [float("nan"), 0.0, -2.0]], dtype=g.float64)
    assert g.nonzero(x).tolist() == [[0, 1], [1, 0], [1, 2]]  # NaN is nonzero
    assert g.argwhere(x).tolist() == [[0, 1], [1, 0], [1, 2]]
    assert g.nonzero(g.tensor(0.0)).shape == (0, 0) and g.nonzero(g.tensor(2.0)).shape == (1, 0)
    assert g.nonzero(g.zeros([0, 2])).shape == (0, 2)


def test_selection_gradients():
    x = leaf(2, 3, seed=41)
    mask = bools([[True, False, True], [False, True, True]])
    for f in (
        lambda t: g.masked_select(t, mask),
        lambda t: g.take(t, longs([[5, 0], [-1, 5]])),
        lambda t: g.take_along_dim(t, longs([[2, 2], [0, 1]]), 1),
    ):
        gradcheck(f, [x])
        gradgradcheck(f, [x])
    y = leaf(3, seed=42)
    g.take(y, longs([0, 0, 2])).sum().backward()
    assert y.grad.tolist() == [2.0, 0.0, 1.0]


# ---------------------------------------------------------------------------------------------
# index_fill, index_copy, masked_scatter, scatter
# ---------------------------------------------------------------------------------------------


def test_index_fill_and_index_copy_values():
    data = nested([3, 2], 50)
    x = g.tensor(data, dtype=g.float64)
    assert g.index_fill(x, 0, longs([2, -3]), 7.0).tolist() == [[7.0, 7.0], data[1], [7.0, 7.0]]
    assert x.index_fill(1, longs([1]), g.tensor(0.5, dtype=g.float64)).tolist() == [[r[0], 0.5] for r in data]
    src = g.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=g.float64)
    assert g.index_copy(x, 0, longs([2, 0]), src).tolist() == [[3.0, 4.0], data[1], [1.0, 2.0]]
    # Duplicates: the last write wins (PyTorch's CPU order).
    assert g.index_copy(x, 0, longs([1, 1]), src).tolist() == [data[0], [3.0, 4.0], data[2]]
    with pytest.raises(IndexError, match=r"index 3 is out of bounds for dimension 0 with size 3"):
        g.index_fill(x, 0, longs([3]), 1.0)
    with pytest.raises(RuntimeError, match=r"only supports a 0-dimensional value tensor"):
        g.index_fill(x, 0, longs([0]), g.tensor([1.0], dtype=g.float64))


def test_masked_scatter_and_scatter_values():
    x = g.zeros([2, 3], dtype=g.float64)
    mask = bools([[True, False, True], [False, True, True]])
    src = g.tensor([1.0, 2.0, 3.0, 4.0, 5.0], dtype=g.float64)
    assert g.masked_scatter(x, mask, src).tolist() == [[1.0, 0.0, 2.0], [0.0, 3.0, 4.0]]
    assert x.masked_scatter(bools([False, True, False]), src).tolist() == [[0.0, 1.0, 0.0], [0.0, 2.0, 0.0]]
    i = longs([[0, 1, 2], [1, 0, 0]])
    s = g.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=g.float64)
    z = g.zeros([3, 3], dtype=g.float64)
    assert g.scatter(z, 0, i, s).tolist() == [[1.0, 5.0, 6.0], [4.0, 2.0, 0.0], [0.0, 0.0, 3.0]]
    assert g.scatter(z, 1, longs([[2], [0]]), 9.0).tolist() == [[0.0, 0.0, 9.0], [9.0, 0.0, 0.0], [0.0] * 3]
    with pytest.raises(RuntimeError, match=r"index 3 is out of bounds for dimension 0 with size 3"):
        g.scatter(z, 0, longs([[3]]), 1.0)


def test_fill_copy_scatter_gradients():
    mask = bools([[True, False, True], [False, True, True]])
    cases = [
        (lambda a, v: g.index_fill(a, 1, longs([2, 0, 2]), v), [leaf(2, 3, seed=51), leaf(seed=52)]),
        (lambda a, s: g.index_copy(a, 1, longs([2, 0]), s), [leaf(2, 3, seed=53), leaf(2, 2, seed=54)]),
        (lambda a, s: g.masked_scatter(a, mask, s), [leaf(2, 3, seed=55), leaf(6, seed=56)]),
        (lambda a, s: g.scatter(a, 1, longs([[2, 0], [1, 2]]), s), [leaf(2, 3, seed=57), leaf(2, 2, seed=58)]),
    ]
    for f, inputs in cases:
        gradcheck(f, inputs)
        gradgradcheck(f, inputs)
    v = leaf(seed=59)
    g.index_fill(g.zeros([2, 3], dtype=g.float64), 1, longs([2, 0, 2]), v).sum().backward()
    assert v.grad.tolist() == 4.0  # two distinct columns of two rows each


# ---------------------------------------------------------------------------------------------
# scatter_reduce
# ---------------------------------------------------------------------------------------------


def test_scatter_reduce_values():
    x = g.tensor([1.0, 2.0, 3.0], dtype=g.float64)
    i = longs([0, 0, 2, 2])
    s = g.tensor([4.0, 6.0, -1.0, 5.0], dtype=g.float64)
    expect = {
        ("sum", True): [11.0, 2.0, 7.0],
        ("sum", False): [10.0, 2.0, 4.0],
        ("prod", True): [24.0, 2.0, -15.0],
        ("prod", False): [24.0, 2.0, -5.0],
        ("mean", True): [11.0 / 3, 2.0, 7.0 / 3],
        ("mean", False): [5.0, 2.0, 2.0],
        ("amax", True): [6.0, 2.0, 5.0],
        ("amax", False): [6.0, 2.0, 5.0],
        ("amin", True): [1.0, 2.0, -1.0],
        ("amin", False): [4.0, 2.0, -1.0],
    }
    for (r, inc), want in expect.items():
        got = g.scatter_reduce(x, 0, i, s, r, include_self=inc).tolist()
        assert got == pytest.approx(want), (r, inc, got)
    # Integer mean rounds down, as PyTorch's: (-7 + 4) / 2 = -1.5 -> -2.
    assert g.scatter_reduce(longs([1, 2]), 0, longs([0, 0]), longs([-7, 4]), "mean", include_self=False).tolist() == [
        -2,
        2,
    ]
    got = g.scatter_reduce(x, 0, longs([1]), g.tensor([float("nan")], dtype=g.float64), "amax").tolist()
    assert got[1] != got[1]  # NaN propagates
    with pytest.raises(RuntimeError, match=r"reduce argument must be either sum, prod, mean, amax or amin"):
        g.scatter_reduce(x, 0, i, s, "foo")


def test_scatter_reduce_gradients():
    i = longs([[0, 1, 0], [1, 1, 0]])
    for r in ("sum", "prod", "mean", "amax", "amin"):
        for inc in (True, False):
            f = lambda a, b, r=r, inc=inc: g.scatter_reduce(a, 1, i, b, r, include_self=inc)  # noqa: E731
            inputs = [leaf(2, 2, seed=60), leaf(2, 3, seed=61)]
            gradcheck(f, inputs)
            gradgradcheck(f, inputs)
    # amax ties split the gradient evenly between self and the src elements equal to the result.
    a = g.tensor([2.0, 0.0], dtype=g.float64, requires_grad=True)
    b = g.tensor([2.0, 1.0, 2.0], dtype=g.float64, requires_grad=True)
    g.scatter_reduce(a, 0, longs([0, 0, 0]), b, "amax").sum().backward()
    assert a.grad.tolist() == pytest.approx([1 / 3, 1.0]) and b.grad.tolist() == pytest.approx([1 / 3, 0.0, 1 / 3])


def test_python_bools_as_masks():
    x = g.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=g.float64)
    assert x[True].shape == (1, 2, 2) and x[True].tolist() == [x.tolist()]
    assert x[False].shape == (0, 2, 2)
    assert x[True, 1].tolist() == [[3.0, 4.0]]


def test_sequences_and_numpy_arrays_as_index_tensors():
    x = g.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=g.float64)
    assert x[(2, 0), 1].tolist() == [6.0, 2.0]  # a tuple inside the key: an index, as PyTorch
    np = pytest.importorskip("numpy")
    assert x[np.array([1, 1])].tolist() == [[3.0, 4.0], [3.0, 4.0]]
    assert x[np.array([True, False, True])].tolist() == [[1.0, 2.0], [5.0, 6.0]]
    assert x[np.array([1, 0])].tolist() == [[3.0, 4.0], [1.0, 2.0]]
    assert x[np.array([2, 0], dtype=np.int32), 1].tolist() == [6.0, 2.0]
    assert x[:, np.array([1])].tolist() == [[2.0], [4.0], [6.0]]
    assert x[np.int64(1)].tolist() == [3.0, 4.0]  # a NumPy integer scalar: an int
    y = x.clone()
    y[np.array([0, 2])] = 0.0
    assert y.tolist() == [[0.0, 0.0], [3.0, 4.0], [0.0, 0.0]]
    with pytest.raises(IndexError, match=r"tensors used as indices must be long"):
        x[np.array([1.0])]


def test_mask_with_one_value_is_masked_fill_converting_the_value():
    # PyTorch's index_put_ with one Bool mask and a one-element value is masked_fill_, which
    # converts the value to self's dtype; other index_put_ calls keep the dtype check.
    x = g.tensor([1.0, -2.0, 3.0], dtype=g.float64)
    y = x.clone()
    y[y > 0] = g.tensor(1)
    assert y.dtype == g.float64 and y.tolist() == [1.0, -2.0, 1.0]
    z = g.tensor([1, 2, 3])
    z[z > 1] = g.tensor(1.7)
    assert z.tolist() == [1, 1, 1]
    assert g.index_put(x, [x > 0], g.tensor([5])).tolist() == [5.0, -2.0, 5.0]
    w = g.zeros([3, 2], dtype=g.float64)
    w[bools([True, False, True])] = g.tensor(7, dtype=g.float32)
    assert w.tolist() == [[7.0, 7.0], [0.0, 0.0], [7.0, 7.0]]
    with pytest.raises(RuntimeError, match=r"Index put requires the source and destination dtypes match"):
        g.index_put(x, [x > 0], g.tensor(1), True)  # accumulate
    with pytest.raises(RuntimeError, match=r"Index put requires the source and destination dtypes match"):
        g.index_put(x, [x > 0], g.tensor([1, 2]))  # two values
    with pytest.raises(RuntimeError, match=r"Index put requires the source and destination dtypes match"):
        x.clone()[[0, 2]] = g.tensor(1)  # an integer index
