"""gradgen: tensors and reverse-mode autograd, with derivative formulas generated from YAML.

    >>> import gradgen
    >>> x = gradgen.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> y = x * x + 2 * x
    >>> y.backward(gradgen.ones(3))
    >>> x.grad
    tensor([4., 6., 8.])

Everything here is implemented in C++ (gradgen._C): Tensor's operators call the generated
differentiable ops directly. Python floats make float32 tensors, the default dtype, as PyTorch's
(gradgen.set_default_dtype(gradgen.float64) changes it; gradcheck wants float64 inputs).
"""


def _load_extension():
    """Imports gradgen._C from its real location when it is a symlink (Bazel's runfiles).

    The module links the runtime as shared libraries found through a RUNPATH relative to the
    file ($ORIGIN/...). In the runfiles of another workspace, Bazel puts an external repository's
    files at a depth that RUNPATH was not computed for, and $ORIGIN is the symlink's directory:
    loading the file where it really is makes the RUNPATH hold wherever the runfiles are.
    (An installed wheel has a self-contained module that is no symlink: a plain import.)
    """
    import importlib.machinery
    import importlib.util
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(here, "_C" + suffix)
        if os.path.islink(path):
            real = os.path.realpath(path)
            loader = importlib.machinery.ExtensionFileLoader(__name__ + "._C", real)
            spec = importlib.util.spec_from_file_location(__name__ + "._C", real, loader=loader)
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            loader.exec_module(module)
            return


_load_extension()

import builtins  # gradgen.int, float and bool are dtypes, as torch's: Python's own through this
import sys as _sys  # as_tensor looks up NumPy in _sys.modules (gradgen imports without NumPy)

from gradgen import _C
from gradgen._C import (  # noqa: F401  (re-exported)
    AccumulateGrad,
    Generator,
    bfloat16,
    float16,
    half,
    int,
    int8,
    int16,
    int32,
    short,
    uint8,
    Node,
    RemovableHandle,
    Tensor,
    bool,
    can_cast,
    contiguous_format,
    default_generator,
    device,
    double,
    dtype,
    empty,
    float,
    float32,
    float64,
    from_dlpack,
    from_numpy,
    full,
    get_default_dtype,
    int64,
    is_grad_enabled,
    is_tensor,
    layout,
    long,
    manual_seed,
    memory_format,
    ones,
    preserve_format,
    promote_types,
    randn,
    result_type,
    set_default_dtype,
    strided,
    tensor,
    zeros,
)
from gradgen import autograd  # noqa: F401  (re-exported)
from gradgen import jit, profiler  # noqa: F401  (re-exported)
from gradgen import nn  # noqa: F401  (re-exported: gradgen.nn.functional, as torch.nn)
from gradgen import linalg  # noqa: F401  (re-exported: gradgen.linalg.cross, as torch.linalg)
from gradgen._shapes import (  # noqa: F401  (torch's Python-level forms)
    broadcast_tensors,
    cdist,
    chain_matmul,
    einsum,
    meshgrid,
    nonzero,
    unique,
    unique_consecutive,
)
from gradgen._tensor_api import allclose, numel  # noqa: F401  (Tensor.cpu, nelement, new_tensor too)
from gradgen._size import Size  # noqa: F401  (Tensor.shape and Tensor.size() return one)
from gradgen._composites import (  # noqa: F401  (torch's composite functions; their Tensor methods too)
    adjoint,
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_shapes,
    cholesky,
    diagflat,
    fliplr,
    flipud,
    inner,
    is_floating_point,
    isneginf,
    isposinf,
    moveaxis,
    norm,
    qr,
    randint_like,
    ravel,
    rot90,
    row_stack,
    swapaxes,
    swapdims,
    where,
)
from gradgen import utils  # noqa: F401  (re-exported: gradgen.utils.dlpack, as torch.utils.dlpack)
from gradgen.autograd.grad_mode import enable_grad, no_grad, set_grad_enabled  # noqa: F401  (re-exported)

__version__ = "0.1.0"


def tensordot(a, b, dims=2, out=None):
    """torch.tensordot's calling convention over the op tensordot(self, other, dims_self, dims_other).

    dims is an int n (the last n dims of a against the first n of b) or a pair of dim lists (or
    of single dims); out= writes the result into a tensor, as the op's out= variant.
    """
    if isinstance(dims, builtins.int):
        if dims < 0:
            raise RuntimeError("tensordot expects dims >= 0, but got dims=%d" % dims)
        if dims > a.dim() or dims > b.dim():
            raise RuntimeError("tensordot expects dims < ndim_a or ndim_b, but got dims=%d" % dims)
        dims_a, dims_b = list(range(a.dim() - dims, a.dim())), list(range(dims))
    else:
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, builtins.int) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, builtins.int) else list(dims_b)
    if out is None:
        return _C.tensordot(a, b, dims_a, dims_b)
    return _C.tensordot(a, b, dims_a, dims_b, out=out)


def as_tensor(data, dtype=None, device=None):  # noqa: F811  (torch's keyword names shadow the classes here)
    """torch.as_tensor: data itself when it is a Tensor of dtype (or dtype is None), else a tensor.

    A Tensor of another dtype is converted (data.to(dtype)). A NumPy array shares its memory with
    the tensor, as torch's: from_numpy(data) (writes show in both, the tensor keeps the array
    alive; its refusals: negative strides, another byte order, dtypes gradgen lacks), converted
    (a copy) when dtype is another. Anything else is gradgen.tensor(data, dtype=dtype), so Python
    floats give the default dtype.
    """
    if device is not None:
        _C.device(device)  # only "cpu" exists; anything else raises as device() does
    if isinstance(data, Tensor):
        return data if dtype is None or data.dtype == dtype else data.to(dtype)
    numpy = _sys.modules.get("numpy")  # data can't be an array unless NumPy is imported
    if numpy is not None and isinstance(data, numpy.ndarray):
        shared = from_numpy(data)
        return shared if dtype is None or shared.dtype == dtype else shared.to(dtype)
    return tensor(data, dtype=dtype)


def _export_generated_ops():
    """Makes every op of the generated bindings gradgen.<op> (gradgen.linear, gradgen.relu, ...).

    Private names of _C stay private, except the declared ops whose names start with `_`, as
    PyTorch's (torch._prelu_kernel): a generated op's docstring ends with its schema.
    """
    names = []
    for name in dir(_C):
        if name in globals() or name.startswith("__"):
            continue
        if name.startswith("_") and ("\n\n%s(" % name) not in (getattr(_C, name).__doc__ or ""):
            continue
        globals()[name] = getattr(_C, name)
        names.append(name)
    return names


_generated = _export_generated_ops()

__all__ = sorted(
    [
        "Generator",
        "Size",
        "Tensor",
        "adjoint",
        "atleast_1d",
        "atleast_2d",
        "atleast_3d",
        "broadcast_shapes",
        "cholesky",
        "diagflat",
        "fliplr",
        "flipud",
        "inner",
        "is_floating_point",
        "isneginf",
        "isposinf",
        "moveaxis",
        "norm",
        "qr",
        "randint_like",
        "ravel",
        "rot90",
        "row_stack",
        "swapaxes",
        "swapdims",
        "utils",
        "where",
        "autograd",
        "uint8",
        "short",
        "int32",
        "int16",
        "int8",
        "int",
        "half",
        "float16",
        "bfloat16",
        "bool",
        "as_tensor",
        "broadcast_tensors",
        "can_cast",
        "cdist",
        "chain_matmul",
        "contiguous_format",
        "default_generator",
        "device",
        "double",
        "dtype",
        "einsum",
        "empty",
        "enable_grad",
        "float",
        "float32",
        "float64",
        "from_dlpack",
        "from_numpy",
        "full",
        "get_default_dtype",
        "int64",
        "is_grad_enabled",
        "is_tensor",
        "jit",
        "layout",
        "linalg",
        "long",
        "manual_seed",
        "memory_format",
        "meshgrid",
        "nn",
        "no_grad",
        "nonzero",
        "ones",
        "preserve_format",
        "profiler",
        "promote_types",
        "randn",
        "result_type",
        "set_default_dtype",
        "set_grad_enabled",
        "strided",
        "tensor",
        "tensordot",
        "unique",
        "unique_consecutive",
        "zeros",
    ]
    + _generated
)
del _export_generated_ops
