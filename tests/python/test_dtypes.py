"""The dtypes int32, int16, int8, uint8, float16 and bfloat16 from Python (issue 23).

Their values and promotion are checked against PyTorch by the differential test
(tests/differential/cases_dtype.py); here: the dtype objects and aliases, repr, the legacy type
names, the casting methods, NumPy and DLPack, the requires_grad refusal, float16 gradients, and
the clear refusal of the kernels that do not take the new dtypes.
"""

import numpy as np
import pytest

import gradgen

NEW = {
    "int32": (gradgen.int32, np.int32, "IntTensor", 4),
    "int16": (gradgen.int16, np.int16, "ShortTensor", 2),
    "int8": (gradgen.int8, np.int8, "CharTensor", 1),
    "uint8": (gradgen.uint8, np.uint8, "ByteTensor", 1),
    "float16": (gradgen.float16, np.float16, "HalfTensor", 2),
    "bfloat16": (gradgen.bfloat16, None, "BFloat16Tensor", 2),
}


def test_dtype_objects_and_aliases():
    assert gradgen.int is gradgen.int32
    assert gradgen.short is gradgen.int16
    assert gradgen.half is gradgen.float16
    for name, (dtype, _, _, size) in NEW.items():
        assert repr(dtype) == "gradgen." + name
        assert dtype.itemsize == size
        assert dtype.is_floating_point == name.startswith(("float", "bfloat"))
    assert not gradgen.uint8.is_signed and gradgen.int8.is_signed
    assert not gradgen.bool.is_signed
    # Python's own int is still reachable in the package (tensordot's int dims).
    assert list(gradgen.tensordot(gradgen.ones(2, 3), gradgen.ones(3, 2), dims=1).shape) == [2, 2]


def test_repr_names_the_dtype_as_pytorch():
    assert repr(gradgen.tensor([1, -2], dtype=gradgen.int8)) == "tensor([ 1, -2], dtype=gradgen.int8)"
    assert repr(gradgen.tensor([255], dtype=gradgen.uint8)) == "tensor([255], dtype=gradgen.uint8)"
    assert repr(gradgen.tensor(7, dtype=gradgen.int32)) == "tensor(7, dtype=gradgen.int32)"
    assert repr(gradgen.tensor([1.5], dtype=gradgen.float16)) == "tensor([1.5000], dtype=gradgen.float16)"
    h = gradgen.tensor([2.0], dtype=gradgen.float16, requires_grad=True)
    assert repr(h) == "tensor([2.], dtype=gradgen.float16, requires_grad=True)"


def test_legacy_type_names_and_type_casts():
    for dtype, _, stem, _ in NEW.values():
        t = gradgen.zeros(2, dtype=dtype)
        assert t.type() == "gradgen." + stem
        back = gradgen.zeros(2).type("torch." + stem)  # ported code's names
        assert back.dtype is dtype
        assert gradgen.zeros(2).type("gradgen." + stem).dtype is dtype
        assert t.type(dtype) is t  # already of that type: itself, as PyTorch
    with pytest.raises(ValueError, match="invalid type: 'torch.UInt16Tensor'"):
        gradgen.zeros(2).type("torch.UInt16Tensor")


def test_casting_methods():
    x = gradgen.tensor([1.7, -1.7, 300.0], dtype=gradgen.float64)
    assert x.int().tolist() == [1, -1, 300] and x.int().dtype is gradgen.int32
    assert x.short().dtype is gradgen.int16
    assert x.char()[:2].tolist() == [1, -1] and x.char().dtype is gradgen.int8
    assert x[:2].abs().byte().tolist() == [1, 1] and x.byte().dtype is gradgen.uint8
    assert x.long().dtype is gradgen.int64
    assert x.half().dtype is gradgen.float16 and x.bfloat16().dtype is gradgen.bfloat16
    assert x.double() is x  # already float64
    assert x.half().tolist() == [1.7001953125, -1.7001953125, 300.0]
    assert x.bfloat16().tolist() == [1.703125, -1.703125, 300.0]


def test_numpy_and_dlpack_round_trip():
    for dtype, np_dtype, _, _ in NEW.values():
        if np_dtype is None:
            continue
        a = np.array([1, 2, 3], dtype=np_dtype)
        t = gradgen.from_numpy(a)
        assert t.dtype is dtype and t.tolist() == [1, 2, 3]
        t[0] = 5  # shared memory
        assert a[0] == 5
        assert t.numpy().dtype == np_dtype
        assert np.from_dlpack(t).dtype == np_dtype
        assert gradgen.tensor(a).dtype is dtype
        assert gradgen.from_dlpack(a).dtype is dtype
    b = gradgen.ones(2, dtype=gradgen.bfloat16)
    assert gradgen.from_dlpack(b).dtype is gradgen.bfloat16  # DLPack has bfloat16; NumPy has not
    with pytest.raises(TypeError, match="BFloat16"):
        b.numpy()
    with pytest.raises(TypeError, match="uint16"):
        gradgen.from_numpy(np.zeros(2, dtype=np.uint16))


def test_integer_tensors_cannot_require_grad():
    for dtype in (gradgen.int32, gradgen.int16, gradgen.int8, gradgen.uint8):
        with pytest.raises(RuntimeError, match="only Tensors of floating point"):
            gradgen.tensor([1], dtype=dtype, requires_grad=True)
        with pytest.raises(RuntimeError, match="only Tensors of floating point"):
            gradgen.zeros(2, dtype=dtype).requires_grad_()


def test_tensor_refuses_python_numbers_that_overflow():
    # PyTorch's checked conversion (torch 2.13's answers, run): ints out of range, floats out of
    # range or NaN raise; a negative int wraps into uint8; floating dtypes take inf.
    for value, dtype in [(300, gradgen.int8), (2**31, gradgen.int32), (127.9, gradgen.int8),
                         (float("nan"), gradgen.int8), (1e30, gradgen.int64), (-0.5, gradgen.uint8)]:  # fmt: skip
        with pytest.raises(RuntimeError, match="value cannot be converted to type .*int.* without overflow"):
            gradgen.tensor([value], dtype=dtype)
    assert gradgen.tensor([-1], dtype=gradgen.uint8).tolist() == [255]
    assert gradgen.tensor([-32768], dtype=gradgen.int16).tolist() == [-32768]
    assert gradgen.tensor([1e10], dtype=gradgen.float16).tolist() == [float("inf")]
    assert gradgen.tensor([1.9], dtype=gradgen.int64).tolist() == [1]


def test_float16_gradients_of_elementwise_ops():
    x = gradgen.tensor([0.5, -1.25, 2.0], dtype=gradgen.float16, requires_grad=True)
    y = (x * x * 3 + x.exp()).sum()
    y.backward()
    assert x.grad.dtype is gradgen.float16
    want = [6 * v + float(np.exp(np.float32(v))) for v in (0.5, -1.25, 2.0)]
    assert x.grad.tolist() == pytest.approx(want, rel=2e-3)


def test_small_float_kernels_compute_in_float32_and_round_once():
    # conv2d, max_pool2d, layer_norm and mm take float16 / bfloat16 through their float32
    # kernels (csrc/native/reduced_float.h): the result is the float32 one, rounded once.
    h = gradgen.tensor(np.linspace(-1, 1, 16).reshape(1, 1, 4, 4).tolist(), dtype=gradgen.float16)
    w = gradgen.tensor([[[[0.5, -0.25], [0.125, 1.0]]]], dtype=gradgen.float16)
    for f, args in (
        (gradgen.conv2d, (h, w)),
        (gradgen.max_pool2d, (h, [2, 2])),
        (gradgen.layer_norm, (h, [4])),
        (gradgen.mm, (h.reshape(4, 4), h.reshape(4, 4).t())),
    ):
        got = f(*args)
        want = f(*[a.float() if isinstance(a, gradgen.Tensor) else a for a in args]).half()
        assert got.dtype is gradgen.float16 and got.tolist() == want.tolist(), f
    b = gradgen.ones(2, 3, dtype=gradgen.bfloat16, requires_grad=True)
    gradgen.layer_norm(b * 2, [3]).sum().backward()
    assert b.grad.dtype is gradgen.bfloat16


def test_kernels_refuse_as_pytorch():
    # PyTorch 2.13's CPU kernels without a 16-bit instance: its NotImplementedError, in its words.
    h = gradgen.ones(1, 1, 2, 2, 2, dtype=gradgen.float16)
    with pytest.raises(NotImplementedError, match=r"^\"avg_pool3d_out_frame\" not implemented for 'Half'$"):
        gradgen.avg_pool3d(h, [2, 2, 2])
    with pytest.raises(RuntimeError, match=r"^linalg.inv: Low precision dtypes not supported. Got BFloat16$"):
        gradgen.linalg.inv(gradgen.ones(2, 2, dtype=gradgen.bfloat16))
    # float16 with float32 operands is still refused by the kernel's own dtype check.
    with pytest.raises(RuntimeError, match=r"Half"):
        gradgen.mm(gradgen.ones(2, 2, dtype=gradgen.float16), gradgen.ones(2, 2))
    # Integer products are computed, wrapping as PyTorch's (int8: 100 * 100 + 27 * 3 is 97).
    i = gradgen.tensor([[100, 27], [3, 120]], dtype=gradgen.int8)
    assert gradgen.mm(i, i).tolist() == [[97, 52], [-108, -111]] and gradgen.mm(i, i).dtype == gradgen.int8


def test_operators_on_integer_tensors():
    a = gradgen.tensor([7, -7, -128], dtype=gradgen.int8)
    assert (a // 2).tolist() == [3, -4, -64]
    assert (a % 3).tolist() == [1, 2, 1]
    assert (a & 3).tolist() == [3, 1, 0] and (3 & a).tolist() == [3, 1, 0]
    assert (~a).tolist() == [-8, 6, 127]
    assert (a * 2).tolist() == [14, -14, 0]  # wraps, as PyTorch
    b = a.clone()
    b //= 3
    assert b.tolist() == [2, -3, -43] and b.dtype is gradgen.int8
