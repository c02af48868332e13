"""The generated bindings' calling conventions, as a PyTorch user expects them.

Overload resolution, names and defaults from the schema, keyword-only arguments, None for
optional arguments, sequences for lists, out=, methods and in-place methods, named tuples, and
the errors a wrong call raises. (Each op's gradients: test_ops.py.)
"""

from __future__ import annotations

import pytest

import gradgen


def t(data, requires_grad=False):
    return gradgen.tensor(data, dtype=gradgen.float64, requires_grad=requires_grad)


def test_overloads_resolve_by_argument_type():
    x = t([1.0, 2.0])
    # add(Tensor, Tensor) vs add(Tensor, Scalar): PyTorch's choice, and each node tells which ran.
    # A number is a wrapped number in add.Tensor (torch's numbers as tensors: AddBackward0, as
    # torch's); add.Scalar takes what only it accepts, alpha by position (torch's deprecated form).
    assert gradgen.add(t([1.0, 2.0], True), x).grad_fn.name() == "AddBackward0"
    assert gradgen.add(t([1.0, 2.0], True), 3).grad_fn.name() == "AddBackward0"
    assert gradgen.add(2, t([1.0, 2.0], True)).grad_fn.name() == "AddBackward0"
    assert gradgen.add(t([1.0, 2.0], True), 3, 2).grad_fn.name() == "AddBackward1"
    assert t([1.0, 2.0], True).mul(2).grad_fn.name() == "MulBackward0"
    assert t([1.0, 2.0], True).div(2, rounding_mode="floor").grad_fn.name() == "DivBackward2"
    assert gradgen.add(2, 3).tolist() == 5 and gradgen.add(2, 3).dtype == gradgen.int64
    assert gradgen.add(x, 0.5).tolist() == [1.5, 2.5]
    assert gradgen.add(x, True).tolist() == [2.0, 3.0]
    # pow(Tensor, Scalar) vs pow(Tensor, Tensor).
    assert gradgen.pow(x, 2).tolist() == [1.0, 4.0]
    assert gradgen.pow(x, t([3.0, 0.5])).tolist() == pytest.approx([1.0, 2.0**0.5])
    # sum(Tensor, *, dtype) vs sum(Tensor, int[1]? dim, bool keepdim, *, dtype): by arity.
    m = t([[1.0, 2.0], [3.0, 4.0]])
    assert m.sum().tolist() == 10.0
    assert m.sum(0).tolist() == [4.0, 6.0]
    assert m.sum(dim=1, keepdim=True).tolist() == [[3.0], [7.0]]


def test_names_defaults_and_keyword_only_arguments_follow_the_schema():
    x = t([[1.0, 2.0], [3.0, 4.0]])
    y = t([[1.0, 1.0], [1.0, 1.0]])
    assert gradgen.add(input=x, other=y, alpha=2).tolist() == [[3.0, 4.0], [5.0, 6.0]]
    assert gradgen.cat([x, y]).tolist() == [[1.0, 2.0], [3.0, 4.0], [1.0, 1.0], [1.0, 1.0]]  # dim=0
    assert gradgen.cat((x, y), dim=1).shape == (2, 4) or list(gradgen.cat((x, y), dim=1).shape) == [2, 4]
    # alpha comes after `*` in add.Tensor: it cannot be passed by position.
    with pytest.raises(TypeError, match="incompatible function arguments"):
        gradgen.add(x, y, 2)
    # add.Scalar has alpha positional (no `*`), as in the schema.
    assert gradgen.add(x, 1, 2).tolist() == [[3.0, 4.0], [5.0, 6.0]]
    # Unknown keyword.
    with pytest.raises(TypeError):
        gradgen.mm(x, y, beta=1)


def test_none_for_optional_arguments_and_any_sequence_for_lists():
    x = t([[1.0, 2.0], [3.0, 4.0]], True)
    w = t([[1.0, 0.0], [0.0, 1.0]])
    assert gradgen.linear(x, w, None).tolist() == x.tolist()
    assert gradgen.linear(x, w, bias=t([1.0, -1.0])).tolist() == [[2.0, 1.0], [4.0, 3.0]]
    assert gradgen.clamp(x, None, 2.5).tolist() == [[1.0, 2.0], [2.5, 2.5]]
    assert gradgen.clamp(x, min=1.5).tolist() == [[1.5, 2.0], [3.0, 4.0]]
    assert x.sum(None).tolist() == 10.0
    # int[1]: an int, a list or a tuple.
    for dim in (1, [1], (1,)):
        assert x.sum(dim).tolist() == [3.0, 7.0]
    assert x.permute((1, 0)).tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert gradgen.stack((t([1.0]), t([2.0]))).tolist() == [[1.0], [2.0]]


def test_methods_and_inplace_methods():
    x = t([[1.0, -2.0], [3.0, -4.0]])
    assert x.mm(x).tolist() == gradgen.mm(x, x).tolist()
    assert x.abs().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    # `where` binds self even though `condition` comes first in the schema.
    c = gradgen.tensor([[True, False], [False, True]], dtype=gradgen.bool)
    assert x.where(c, t([[0.0, 0.0], [0.0, 0.0]])).tolist() == [[1.0, 0.0], [0.0, -4.0]]
    y = x.clone()
    r = y.add_(x, alpha=2)
    assert r is y  # the very object, as PyTorch returns it
    assert y.tolist() == [[3.0, -6.0], [9.0, -12.0]]
    assert y.mul_(0.5) is y and y.tolist() == [[1.5, -3.0], [4.5, -6.0]]
    assert y.zero_() is y and y.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    z = x.clone()
    assert gradgen.relu_(z) is z and z.tolist() == [[1.0, 0.0], [3.0, 0.0]]
    # Method-only ops are not functions (variants: method), function-only ones not methods.
    assert not hasattr(gradgen, "add_")
    assert hasattr(gradgen.Tensor, "view") and not hasattr(gradgen, "view")
    assert not hasattr(gradgen.Tensor, "cat")


def test_inplace_on_a_leaf_that_requires_grad_is_refused():
    x = t([1.0], True)
    with pytest.raises(
        RuntimeError, match="add_: a leaf Variable that requires grad is being used in an in-place operation"
    ):
        x.add_(t([1.0]))


def test_out_binds_the_out_overload_and_returns_the_same_object():
    a, b = t([1.0, 2.0]), t([3.0, 4.0])
    out = gradgen.zeros([2], dtype=gradgen.float64)
    r = gradgen.add(a, b, alpha=10, out=out)
    assert r is out and out.tolist() == [31.0, 42.0]
    assert gradgen.mul(a, b, out=out) is out and out.tolist() == [3.0, 8.0]
    with pytest.raises(
        RuntimeError,
        match="add.out: out= variants do not support automatic differentiation, but argument 'self' requires grad",
    ):
        gradgen.add(t([1.0, 2.0], True), b, out=out)


def test_named_tuples_and_tuple_returns():
    x = t([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], True)
    r = gradgen.max(x, dim=1)
    assert type(r).__name__ == "max" and type(r).__module__ == "gradgen.return_types"
    assert r._fields == ("values", "indices")
    # Printed as torch prints torch.return_types.max: one field per line.
    assert repr(gradgen.max(gradgen.tensor([[1.0, 5.0]]), dim=1)) == (
        "gradgen.return_types.max(\nvalues=tensor([5.]),\nindices=tensor([1]))"
    )
    assert r.values.tolist() == [5.0, 7.0] and r.indices.tolist() == [1, 0]
    values, indices = r
    assert values.tolist() == r[0].tolist() and indices.dtype == gradgen.int64
    assert x.max(0, keepdim=True).values.tolist() == [[7.0, 5.0, 3.0]]
    values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    parts = gradgen.split(t([1.0, 2.0, 3.0]), 2)
    assert isinstance(parts, tuple) and [p.tolist() for p in parts] == [[1.0, 2.0], [3.0]]
    assert isinstance(t([[1.0, 2.0]]).unbind(1), tuple)
    out, mask = gradgen.native_dropout(t([1.0, 2.0, 3.0, 4.0]), 0.0, True)
    assert out.tolist() == [1.0, 2.0, 3.0, 4.0] and mask.dtype == gradgen.bool


def test_a_call_matching_no_overload_lists_the_accepted_signatures():
    x = t([1.0])
    with pytest.raises(TypeError) as e:
        gradgen.add(x, "2")
    msg = str(e.value)
    assert "add(): incompatible function arguments" in msg
    assert "add(input: " in msg and "other: Scalar" in msg and "alpha: Scalar = 1" in msg
    assert msg.count("add(input") == 4  # add.Tensor, add.out, add.Scalar, add.Scalar_out
    with pytest.raises(TypeError, match="Invoked with types"):
        gradgen.cat(x)  # not a sequence of tensors


def test_runtime_errors_carry_the_runtime_message():
    with pytest.raises(
        RuntimeError, match=r"mm: expected self of shape \[a, b\] and mat2 of shape \[b, c\], got \[2\] and \[2\]"
    ):
        gradgen.mm(t([1.0, 2.0]), t([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="cannot be broadcast"):
        gradgen.add(t([1.0, 2.0]), t([1.0, 2.0, 3.0]))


def test_docstrings_carry_the_schemas():
    doc = gradgen.add.__doc__
    for schema in (
        "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
    ):
        assert schema in doc
    assert (
        "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
        in gradgen.Tensor.max.__doc__
    )
