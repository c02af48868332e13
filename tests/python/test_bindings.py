"""A second extension module (built like a user's) shares gradgen._C's runtime and casters."""

import gc

import pytest
import shared_runtime_ext as ext

import gradgen


def test_grad_mode_is_one_per_process():
    assert ext.grad_enabled()
    with gradgen.no_grad():
        assert not ext.grad_enabled()
    assert ext.grad_enabled()


def test_tensors_cross_modules_and_one_engine_differentiates_both():
    x = gradgen.tensor([1.0, 2.0], requires_grad=True)
    y = ext.scale(x, 3) * x  # a node made in the other module, then one made here
    assert isinstance(y, gradgen.Tensor)
    assert y.grad_fn.name() == "MulBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "MulBackward1"
    y.backward(gradgen.ones(2))
    assert x.grad.tolist() == [6.0, 12.0]  # d(3x^2)/dx


def test_in_place_through_a_reference():
    t = gradgen.zeros(2)
    ext.add_(t, gradgen.ones(2))
    assert t.tolist() == [1.0, 1.0]
    assert t._version == 1


def test_scalar_overloads_resolve_like_pytorch():
    t = gradgen.ones(2)
    assert ext.which(t, t) == "Tensor"
    assert ext.which(t, 2) == "Scalar"
    assert ext.which(t, 2.5) == "Scalar"
    assert ext.which(t, True) == "Scalar"
    assert ext.scalar_kind(True) == "Bool"
    assert ext.scalar_kind(3) == "Long"
    assert ext.scalar_kind(3.0) == "Double"
    with pytest.raises(TypeError):
        ext.scalar_kind(t)  # a Tensor is never a Scalar
    assert ext.echo_scalar() == 1 and type(ext.echo_scalar()) is int
    assert ext.echo_scalar(2.5) == 2.5
    assert ext.echo_scalar(False) is False
    assert ext.echo_opt_scalar() is None


def test_optional_and_list_tensors():
    t = gradgen.ones(1)
    assert ext.has_tensor() is False
    assert ext.has_tensor(None) is False
    assert ext.has_tensor(t) is True
    assert ext.count([t, t, t]) == 3
    assert ext.count((t, t)) == 2
    assert ext.count_defined([t, None, t]) == 2
    with pytest.raises(TypeError):
        ext.count([t, 1])


def test_int_lists_from_sequences_and_single_ints():
    assert ext.echo_ints() == (1, 2)
    assert ext.echo_ints([3, 4, 5]) == (3, 4, 5)
    assert ext.echo_ints((6,)) == (6,)
    assert ext.echo_ints(7) == (7,)  # int[1] shorthand
    assert ext.sum_ints(range(4)) == 6
    assert ext.echo_opt_ints() is None
    assert ext.echo_opt_ints([1]) == (1,)
    with pytest.raises(TypeError):
        ext.echo_ints([1.5])
    with pytest.raises(TypeError):
        ext.echo_ints("12")


def test_dtypes_layouts_devices_memory_formats():
    assert ext.echo_dtype() is gradgen.float32
    assert ext.echo_dtype(gradgen.int64) is gradgen.int64
    assert ext.echo_dtype(float) is gradgen.float64
    assert ext.echo_dtype(int) is gradgen.int64
    assert ext.echo_dtype(bool) is gradgen.bool
    assert ext.echo_opt_dtype() is None
    assert repr(gradgen.float64) == "gradgen.float64"
    assert gradgen.float32.is_floating_point and not gradgen.int64.is_floating_point
    assert ext.echo_layout() is gradgen.strided
    assert ext.echo_layout(None) is None
    assert ext.echo_device() == gradgen.device("cpu")
    assert ext.echo_device("cpu") == "cpu"
    assert repr(ext.echo_device(gradgen.device("cpu"))) == "device(type='cpu')"
    assert ext.echo_memory_format() is gradgen.contiguous_format
    assert ext.echo_memory_format(gradgen.preserve_format) is gradgen.preserve_format
    with pytest.raises(TypeError):
        ext.echo_device("cuda")
    with pytest.raises(RuntimeError, match="only the CPU"):
        gradgen.device("cuda")


def test_arrays_floats_strings_bools_generators():
    assert ext.echo_bools() == [True, False, True]
    assert ext.echo_bools([False, False, True]) == [False, False, True]
    assert ext.echo_opt_bool() is None and ext.echo_opt_bool(True) is True
    assert ext.sum_floats([0.5, 1.5, 2]) == 4.0
    assert ext.echo_str() == "mean"
    assert ext.echo_str("sum", "x") == "sum:x"
    assert ext.seed_of() == 0
    assert ext.seed_of(gradgen.Generator(42)) == 42


def test_undefined_tensor_is_none():
    assert ext.undefined() is None


def test_runtime_errors_translate_in_every_module():
    with pytest.raises(IndexError, match="select: dim 5 out of range"):
        ext.select_dim(gradgen.ones(2), 5)


def test_signature_listing_names_pytorch_types():
    with pytest.raises(TypeError) as info:
        ext.which(1, 2)
    text = str(info.value)
    assert "which(self: gradgen.Tensor, other: gradgen.Tensor)" in text, text
    assert "which(self: gradgen.Tensor, other: Scalar)" in text, text
    gc.collect()
