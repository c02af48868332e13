"""NumPy interop without copies: from_numpy and Tensor.numpy() share memory."""

import gc

import numpy as np
import pytest

import gradgen


def test_from_numpy_shares_memory():
    a = np.arange(6.0).reshape(2, 3)
    t = gradgen.from_numpy(a)
    assert t.data_ptr() == a.ctypes.data
    assert t.dtype is gradgen.float64 and t.shape == (2, 3)
    a[0, 1] = 10.0
    assert t[0, 1].item() == 10.0
    t += 1  # writes through to the array
    assert a[1, 2] == 6.0


def test_from_numpy_keeps_the_array_alive():
    t = gradgen.from_numpy(np.full((3,), 2.5))
    gc.collect()
    assert t.tolist() == [2.5, 2.5, 2.5]


def test_from_numpy_of_a_strided_view_is_a_view():
    a = np.arange(12.0).reshape(3, 4)
    t = gradgen.from_numpy(a.T)
    assert t.data_ptr() == a.ctypes.data
    assert t.stride() == (1, 4) and not t.is_contiguous()
    assert t.tolist() == a.T.tolist()
    s = gradgen.from_numpy(a[:, 1])
    assert s.data_ptr() == a[:, 1].ctypes.data and s.tolist() == [1.0, 5.0, 9.0]


def test_negative_strides_are_refused_by_from_numpy_and_copied_by_tensor():
    # As torch.from_numpy: no tensor shares memory with negative strides (a silent copy would
    # not share); tensor(a) copies anyway.
    a = np.arange(4.0)[::-1]
    with pytest.raises(ValueError, match="negative"):
        gradgen.from_numpy(a)
    assert gradgen.tensor(a).tolist() == [3.0, 2.0, 1.0, 0.0]


@pytest.mark.parametrize(
    "np_dtype,dtype",
    [(np.float32, gradgen.float32), (np.float64, gradgen.float64), (np.int64, gradgen.int64), (np.bool_, gradgen.bool)],
)
def test_dtypes_round_trip(np_dtype, dtype):
    a = np.array([1, 0, 1], dtype=np_dtype)
    t = gradgen.from_numpy(a)
    assert t.dtype is dtype
    back = t.numpy()
    assert back.dtype == np_dtype and back.ctypes.data == a.ctypes.data
    assert back.tolist() == a.tolist()


def test_unsupported_dtype_is_type_error():
    with pytest.raises(TypeError, match="float64, float32, float16, int64, int32, int16, int8, uint8 or bool"):
        gradgen.from_numpy(np.zeros(2, dtype=np.uint32))


def test_numpy_shares_memory_and_keeps_the_tensor_alive():
    t = gradgen.tensor([[1.0, 2.0], [3.0, 4.0]])
    a = t.numpy()
    assert a.ctypes.data == t.data_ptr()
    a[1, 0] = -1.0
    assert t[1, 0].item() == -1.0
    view = gradgen.ones(2, 3)[:, 1:].numpy()  # a narrowed view: strides carried over
    gc.collect()
    assert view.shape == (2, 2) and view.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert np.asarray(t).ctypes.data == t.data_ptr()


def test_numpy_refuses_a_tensor_that_requires_grad():
    x = gradgen.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="detach"):
        x.numpy()
    assert x.detach().numpy().ctypes.data == x.data_ptr()
    forced = x.numpy(force=True)
    assert forced.tolist() == [1.0, 1.0] and forced.ctypes.data != x.data_ptr()


def test_tensor_from_numpy_copies():
    a = np.arange(3, dtype=np.int64)
    t = gradgen.tensor(a)
    assert t.dtype is gradgen.int64 and t.data_ptr() != a.ctypes.data
    assert gradgen.tensor(a, dtype=gradgen.float64).tolist() == [0.0, 1.0, 2.0]


def test_dlpack_export_shares_memory():
    t = gradgen.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])[:, 1:]
    a = np.from_dlpack(t)
    assert a.ctypes.data == t.data_ptr() and a.tolist() == [[2.0, 3.0], [5.0, 6.0]]
    assert t.__dlpack_device__() == (1, 0)
    back = gradgen.from_numpy(a)
    assert back.data_ptr() == t.data_ptr()
    # Writable, as PyTorch's: a write through NumPy is seen by the tensor.
    assert a.flags.writeable
    a[1, 0] = 50.0
    assert t.tolist() == [[2.0, 3.0], [50.0, 6.0]]
    c = np.from_dlpack(t, copy=True)  # a copy: no longer shared
    c[0, 0] = -1.0
    assert t.tolist()[0][0] == 2.0 and c.ctypes.data != t.data_ptr()
    with pytest.raises(RuntimeError, match="detach"):
        np.from_dlpack(gradgen.ones(2, requires_grad=True))


def test_from_dlpack_shares_memory_with_any_exporter():
    # torch.from_dlpack: an object with __dlpack__ (NumPy's arrays, gradgen's tensors) or a capsule.
    a = np.arange(6.0).reshape(2, 3)
    t = gradgen.from_dlpack(a)
    a[0, 0] = 7.0
    assert t.tolist() == [[7.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and t.dtype == gradgen.float64
    base = gradgen.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])[:, 1:]
    view = gradgen.from_dlpack(base)
    assert view.data_ptr() == base.data_ptr() and view.tolist() == [[2.0, 3.0], [5.0, 6.0]]
    assert gradgen.from_dlpack(base.__dlpack__()).data_ptr() == base.data_ptr()  # a capsule
    assert gradgen.from_dlpack(np.zeros(3, dtype=np.int64)).dtype == gradgen.int64
    with pytest.raises(TypeError, match=r"from_dlpack: expected an object with __dlpack__ .*got list"):
        gradgen.from_dlpack([1.0, 2.0])
    with pytest.raises(TypeError, match="from_dlpack: expected an array of float64, float32, float16, int64"):
        gradgen.from_dlpack(np.zeros(2, dtype=np.uint16))
    with pytest.raises(ValueError, match="from_dlpack: at least one stride .* is negative"):
        gradgen.from_dlpack(np.arange(3.0)[::-1])


def test_as_tensor_shares_a_numpy_arrays_memory():
    # As torch.as_tensor: the array's memory when the dtype is the array's (writes show in both,
    # contiguous or not), a copy when it is another; the tensor keeps the array alive.
    a = np.arange(4.0)
    t = gradgen.as_tensor(a)
    assert t.dtype is gradgen.float64
    a[0] = 7.0
    t[1] = 8.0
    assert t.tolist() == [7.0, 8.0, 2.0, 3.0] and a.tolist() == [7.0, 8.0, 2.0, 3.0]
    assert gradgen.as_tensor(a, dtype=gradgen.float64).tolist() == a.tolist()
    shared = gradgen.as_tensor(a, dtype=gradgen.float64)
    a[3] = -1.0
    assert shared.tolist()[3] == -1.0
    copy = gradgen.as_tensor(a, dtype=gradgen.float32)
    a[2] = 100.0
    assert copy.dtype is gradgen.float32 and copy.tolist() == [7.0, 8.0, 2.0, -1.0]
    tr = np.arange(6, dtype=np.int32).reshape(2, 3).T  # not contiguous: shared all the same
    u = gradgen.as_tensor(tr)
    tr[2, 1] = 50
    assert u.dtype is gradgen.int32 and list(u.shape) == [3, 2] and u.tolist()[2] == [2, 50]
    del a, shared, tr
    gc.collect()
    assert t.tolist() == [7.0, 8.0, 100.0, -1.0] and u.tolist()[2] == [2, 50]


def test_as_tensor_refuses_what_from_numpy_refuses():
    with pytest.raises(ValueError, match="negative"):
        gradgen.as_tensor(np.arange(3.0)[::-1])
    with pytest.raises(ValueError, match="byte order"):
        gradgen.as_tensor(np.arange(3.0, dtype=">f8"))
    with pytest.raises(TypeError, match="uint16"):
        gradgen.as_tensor(np.arange(3, dtype=np.uint16))
    assert gradgen.as_tensor(np.float64(2.5)).tolist() == 2.5  # a NumPy scalar: a copy
