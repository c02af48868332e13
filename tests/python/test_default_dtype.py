"""The default dtype (issue 23): float32 as PyTorch's, set_default_dtype / get_default_dtype,
result_type, promote_types and can_cast. Every expected dtype here is what torch 2.13 answers
to the same call (checked with it; tests/differential/cases_default_dtype.py runs the value-level
cases against PyTorch itself).

Tests that change the default restore it (the `default` fixture), since the tests of this
package share one process.
"""

import numpy as np
import pytest

import gradgen as g


@pytest.fixture
def default():
    """Yields a setter of the default dtype; float32 is restored afterwards, whatever happens."""
    assert g.get_default_dtype() is g.float32
    try:
        yield g.set_default_dtype
    finally:
        g.set_default_dtype(g.float32)


def test_import_sets_float32():
    assert g.get_default_dtype() is g.float32


@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16", "float32"])
def test_set_get_round_trip(default, dtype):
    default(getattr(g, dtype))
    assert g.get_default_dtype() is getattr(g, dtype)


@pytest.mark.parametrize("dtype", ["int64", "int32", "int8", "uint8", "bool"])
def test_non_floating_dtypes_are_refused_as_pytorch(default, dtype):
    with pytest.raises(TypeError, match="^only floating-point types are supported as the default type$"):
        g.set_default_dtype(getattr(g, dtype))
    assert g.get_default_dtype() is g.float32  # unchanged


@pytest.mark.parametrize("obj", [3, "float64", None, float])
def test_non_dtype_objects_are_refused_as_pytorch(default, obj):
    with pytest.raises(TypeError, match="^invalid dtype object: only floating-point types"):
        g.set_default_dtype(obj)


def test_python_numbers_infer_like_pytorch():
    assert g.tensor([1.0]).dtype is g.float32
    assert g.tensor(1.5).dtype is g.float32
    assert g.tensor([1, 2.5]).dtype is g.float32  # int and float promote to the default
    assert g.tensor([1, 2]).dtype is g.int64
    assert g.tensor([True, False]).dtype is g.bool
    assert g.tensor([True, 1]).dtype is g.int64
    assert g.tensor([]).dtype is g.float32 and g.tensor([[]]).dtype is g.float32
    assert g.as_tensor([1.0]).dtype is g.float32 and g.as_tensor([1]).dtype is g.int64


def test_tensors_in_a_list_promote_with_the_numbers():
    assert g.tensor([g.tensor(1.0, dtype=g.float64)]).dtype is g.float64
    assert g.tensor([g.tensor(1, dtype=g.int8), 1]).dtype is g.int64


def test_numpy_arrays_keep_their_dtype(default):
    default(g.float64)
    assert g.tensor(np.array([1.0, 2.0], dtype=np.float32)).dtype is g.float32
    assert g.from_numpy(np.array([1.0])).dtype is g.float64
    assert g.as_tensor(np.array([1.0], dtype=np.float32)).dtype is g.float32
    g.set_default_dtype(g.float32)
    assert g.tensor(np.array([1.0])).dtype is g.float64


def test_as_tensor_returns_a_tensor_itself_unless_converted():
    x = g.tensor([1.0, 2.0])
    assert g.as_tensor(x) is x and g.as_tensor(x, dtype=g.float32) is x
    y = g.as_tensor(x, dtype=g.float64)
    assert y.dtype is g.float64 and y.tolist() == [1.0, 2.0]


def _factories():
    return {
        "zeros": g.zeros(2),
        "ones": g.ones(2),
        "empty": g.empty(2),
        "full float": g.full((2,), 1.5),
        "rand": g.rand(2),
        "randn": g.randn(2),
        "arange float": g.arange(0.0, 1.0),
        "arange float step": g.arange(0, 1, 0.5),
        "linspace": g.linspace(0, 1, 3),
        "logspace": g.logspace(0, 1, 3),
        "eye": g.eye(2),
        "eye m": g.eye(2, 3),
        "normal": g.normal(0.0, 1.0, (2,)),
    }


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_floating_factories_give_the_default(default, dtype):
    default(getattr(g, dtype))
    for name, t in _factories().items():
        assert t.dtype is getattr(g, dtype), name


def test_factories_of_ints_and_bools_and_likes_keep_their_dtype(default):
    default(g.float64)
    assert g.full((2,), 1).dtype is g.int64 and g.full((2,), True).dtype is g.bool
    assert g.arange(5).dtype is g.int64
    f32 = g.zeros(2, dtype=g.float32)
    for like in (g.zeros_like, g.ones_like, g.empty_like, g.rand_like, g.randn_like):
        assert like(f32).dtype is g.float32, like.__name__
    assert g.zeros(2, dtype=g.float32).dtype is g.float32  # dtype= wins


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_wrapped_numbers_and_true_division_give_the_default(default, dtype):
    default(getattr(g, dtype))
    want = getattr(g, dtype)
    i = g.tensor([1, 2])
    assert (i * 1.5).dtype is want and (1.5 * i).dtype is want
    assert (i / 2).dtype is want and g.div(i, i).dtype is want
    assert g.exp(i).dtype is want and g.tensor([True]).sin().dtype is want
    # A floating tensor keeps its dtype against a Python float, whatever the default.
    assert (g.tensor([1.0], dtype=g.float32) * 1.5).dtype is g.float32
    assert (g.tensor([1.0], dtype=g.float64) * 1.5).dtype is g.float64


def test_repr_names_the_dtype_unless_it_is_the_default(default):
    assert repr(g.tensor([1.0])) == "tensor([1.])"
    assert repr(g.tensor([1.0], dtype=g.float64)).endswith("dtype=gradgen.float64)")
    default(g.float64)
    assert "dtype" not in repr(g.tensor([1.0]))
    assert repr(g.tensor([1.0], dtype=g.float32)).endswith("dtype=gradgen.float32)")


def test_result_type_like_pytorch(default):
    i, f32, f64 = g.tensor([1]), g.tensor([1.0]), g.tensor([1.0], dtype=g.float64)
    assert g.result_type(i, 1.5) is g.float32
    assert g.result_type(1.5, i) is g.float32
    assert g.result_type(1, 1.5) is g.float32
    assert g.result_type(1, 2) is g.int64 and g.result_type(True, False) is g.bool
    assert g.result_type(True, 1) is g.int64
    assert g.result_type(i, f64) is g.float64 and g.result_type(f32, f64) is g.float64
    assert g.result_type(f32, g.tensor(1.0, dtype=g.float64)) is g.float32  # a 0-dim loses
    assert g.result_type(g.tensor([1], dtype=g.int8), 300) is g.int8
    default(g.float64)
    assert g.result_type(i, 1.5) is g.float64 and g.result_type(1, 1.5) is g.float64
    assert g.result_type(f32, 1.5) is g.float32


def test_result_type_refuses_other_objects():
    with pytest.raises(TypeError, match="result_type"):
        g.result_type(g.tensor([1]), "a")


def test_promote_types_and_can_cast():
    assert g.promote_types(g.uint8, g.int8) is g.int16
    assert g.promote_types(g.float16, g.bfloat16) is g.float32
    assert g.promote_types(g.bool, g.int32) is g.int32
    assert g.can_cast(g.float32, g.int32) is False and g.can_cast(g.int32, g.float32) is True
    assert g.can_cast(g.int64, g.bool) is False and g.can_cast(g.bool, g.uint8) is True
    with pytest.raises(TypeError, match="promote_types"):
        g.promote_types(g.uint8, 1)
