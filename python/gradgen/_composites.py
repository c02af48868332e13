"""PyTorch's tensor-API functions that are compositions of other ops (issue 23).

PyTorch makes these CompositeImplicitAutograd (or Python functions): they call differentiable
ops, so the gradient comes from those ops' formulas, as here. Each follows torch's argument
names, defaults, errors and result (a view where torch's is one):

    isposinf, isneginf          eq(x, +-inf), bool
    where(condition)            the declared where(Tensor condition) -> Tensor[], as a tuple
    randint_like                randint over input's shape, of input's dtype unless told
    fliplr, flipud, rot90       flips (rot90: flip and transpose)
    moveaxis, swapaxes/swapdims movedim's and transpose's other names
    adjoint, ravel, reshape_as  transpose(-2, -1), reshape(-1), reshape(other.shape)
    atleast_1d/2d/3d            one tensor or several (then a tuple)
    diagflat                    diag of the flattened input, with offset
    broadcast_shapes            the common shape of several shapes, a gradgen.Size
    row_stack                   vstack's other name
    inner                       tensordot over the last dims (mul for a 0-dim operand)
    cholesky, qr                torch.cholesky(upper=) / torch.qr(some=), deprecated there
    is_floating_point           the function form of the Tensor method
    norm                        torch.norm: 'fro' / 'nuc' / a number, over linalg's norms

and the Tensor methods of those with a method form, Tensor.__format__ (a 0-dim tensor formats
its item, as torch's) and Tensor.to with a device ('cpu': the tensor itself unless converted).
"""

import builtins
import warnings

from gradgen import _C
from gradgen._size import Size

_INF = float("inf")


def _call_out(op, *args, out=None):
    return op(*args) if out is None else op(*args, out=out)


def _equal_to(input, value, out):
    result = _C.eq(input, value)
    return result if out is None else _C.logical_and(result, result, out=out)


def isposinf(input, *, out=None):
    """torch.isposinf: where input is +inf (False everywhere for integer and bool tensors)."""
    return _equal_to(input, _INF, out)


def isneginf(input, *, out=None):
    """torch.isneginf: where input is -inf (False everywhere for integer and bool tensors)."""
    return _equal_to(input, -_INF, out)


_NO_ARG = object()


def where(condition, input=_NO_ARG, other=_NO_ARG, *, out=None):
    """torch.where: input where condition holds, else other; where(condition) alone is
    nonzero(condition, as_tuple=True), a tuple of one index tensor per dim."""
    if input is _NO_ARG and other is _NO_ARG:
        if out is not None:
            raise TypeError("where() got an unexpected keyword argument 'out' with condition only")
        return tuple(_C.where(condition))
    if input is _NO_ARG or other is _NO_ARG:
        raise TypeError("where() missing required argument '%s'" % ("input" if input is _NO_ARG else "other"))
    return _call_out(_C.where, condition, input, other, out=out)


def _randint_bounds(args, low, high):
    if len(args) > 2:
        raise TypeError("randint_like() takes from 2 to 3 positional arguments but %d were given" % (len(args) + 1))
    if len(args) == 2:
        if low is not None or high is not None:
            raise TypeError("randint_like() got multiple values for argument 'low' or 'high'")
        return args[0], args[1]
    if len(args) == 1:
        if high is not None:
            return args[0], high
        return (0 if low is None else low), args[0]
    if high is None:
        raise TypeError("randint_like() missing 1 required positional argument: 'high'")
    return (0 if low is None else low), high


def randint_like(input, *args, low=None, high=None, generator=None, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None):  # fmt: skip
    """torch.randint_like(input, high) / (input, low, high): integers uniform in [low, high) of
    input's shape, of input's dtype unless dtype is given."""
    low, high = _randint_bounds(args, low, high)
    if device is not None:
        _C.device(device)  # only "cpu" exists; anything else raises as device() does
    kwargs = {"dtype": input.dtype if dtype is None else dtype}
    if generator is not None:
        kwargs["generator"] = generator
    result = _C.randint(low, high, list(_C.Tensor.size(input)), **kwargs)
    return result.requires_grad_() if requires_grad else result


def fliplr(input):
    """torch.fliplr: the columns (dim 1) in reverse order; input must be at least 2-D."""
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return _C.flip(input, [1])


def flipud(input):
    """torch.flipud: the rows (dim 0) in reverse order; input must be at least 1-D."""
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return _C.flip(input, [0])


def rot90(input, k=1, dims=(0, 1)):
    """torch.rot90: input rotated k times by 90 degrees in the plane of dims, from the first
    towards the second dim."""
    dims = list(dims)
    n = input.dim()
    if len(dims) != 2:
        raise RuntimeError("expected total rotation dims == 2, but got dims = %d" % len(dims))
    if n < 2:
        raise RuntimeError("expected total dims >= 2, but got total dims = %d" % n)
    for d in dims:
        if not -n <= d < n:
            raise IndexError(
                "Dimension out of range (expected to be in range of [%d, %d], but got %d)" % (-n, n - 1, d)
            )
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == n:
        raise RuntimeError("expected rotation dims to be different, but got dim0 = %d and dim1 = %d" % tuple(dims))
    k %= 4
    if k == 1:
        return _C.transpose(_C.flip(input, [dims[1]]), dims[0], dims[1])
    if k == 2:
        return _C.flip(input, dims)
    if k == 3:
        return _C.transpose(_C.flip(input, [dims[0]]), dims[0], dims[1])
    return input.clone(memory_format=_C.contiguous_format)


def moveaxis(input, source, destination):
    """torch.moveaxis: movedim's NumPy name."""
    return _C.movedim(input, source, destination)


def swapaxes(input, axis0, axis1):
    """torch.swapaxes: transpose's NumPy name (a view)."""
    return _C.transpose(input, axis0, axis1)


def swapdims(input, dim0, dim1):
    """torch.swapdims: transpose's other name (a view)."""
    return _C.transpose(input, dim0, dim1)


def adjoint(input):
    """torch.adjoint: the conjugate transpose of the last two dims, a view (gradgen's tensors
    are real: transpose(-2, -1))."""
    if input.dim() < 2:
        raise RuntimeError(
            "tensor.adjoint() is only supported on matrices or batches of matrices. Got %d-D tensor." % input.dim()
        )
    return _C.transpose(input, -2, -1)


def ravel(input):
    """torch.ravel: the elements as a 1-D tensor (a view when input is contiguous)."""
    return _C.reshape(input, [-1])


def reshape_as(input, other):
    """Tensor.reshape_as: input reshaped to other's shape."""
    return _C.reshape(input, list(_C.Tensor.size(other)))


def _atleast(tensors, name, one):
    if len(tensors) == 1:
        tensors = tensors[0]
        if isinstance(tensors, _C.Tensor):
            return one(tensors)
    if not isinstance(tensors, (list, tuple)):
        raise TypeError("%s(): argument 'tensors' must be tuple of Tensors, not %s" % (name, type(tensors).__name__))
    return tuple(one(t) for t in tensors)


def _atleast_1d(t):
    return _C.reshape(t, [1]) if t.dim() == 0 else t


def _atleast_2d(t):
    if t.dim() == 0:
        return _C.reshape(t, [1, 1])
    return _C.unsqueeze(t, 0) if t.dim() == 1 else t


def _atleast_3d(t):
    if t.dim() == 0:
        return _C.reshape(t, [1, 1, 1])
    if t.dim() == 1:
        return _C.unsqueeze(_C.unsqueeze(t, 0), -1)
    return _C.unsqueeze(t, -1) if t.dim() == 2 else t


def atleast_1d(*tensors):
    """torch.atleast_1d: a 0-dim tensor as 1-D, others as they are; one tensor gives a tensor,
    several (or a sequence) a tuple."""
    return _atleast(tensors, "atleast_1d", _atleast_1d)


def atleast_2d(*tensors):
    """torch.atleast_2d: 0-dim as [1, 1], 1-D as a row [1, n], others as they are."""
    return _atleast(tensors, "atleast_2d", _atleast_2d)


def atleast_3d(*tensors):
    """torch.atleast_3d: 0-dim as [1, 1, 1], [n] as [1, n, 1], [m, n] as [m, n, 1]."""
    return _atleast(tensors, "atleast_3d", _atleast_3d)


def diagflat(input, offset=0):
    """torch.diagflat: a square matrix with input's elements (flattened) on diagonal `offset`."""
    return _C.diag(_C.reshape(input, [-1]), offset)


def broadcast_shapes(*shapes):
    """torch.broadcast_shapes: the shape the shapes (ints, or sequences of ints) broadcast to,
    a gradgen.Size; incompatible shapes raise RuntimeError as torch's."""
    shapes = [(s,) if isinstance(s, builtins.int) else s for s in shapes if s is not None]
    for s in shapes:
        if not isinstance(s, (list, tuple)):
            raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a list of ints, got %s" % (s,))
    common = [1] * builtins.max([len(s) for s in shapes] + [0])
    for arg_idx, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = shape[idx]
            if shape[idx] != 1 and common[idx] != shape[idx]:
                raise RuntimeError(
                    "Attempting to broadcast a dimension of length %d at %d! Mismatching argument at index %d "
                    "had %s; but expected shape should be broadcastable to %s"
                    % (shape[idx], idx, arg_idx, shape, common)
                )
    return Size(common)


def row_stack(tensors, *, out=None):
    """torch.row_stack: vstack's other name (1-D tensors as rows, then cat along dim 0)."""
    return _call_out(_C.vstack, list(tensors), out=out)


def inner(input, other, *, out=None):
    """torch.inner: the sums of products over the last dims of both (tensordot); a 0-dim
    operand multiplies the other."""
    if input.dim() == 0 or other.dim() == 0:
        return _call_out(_C.mul, input, other, out=out)
    if input.size(-1) != other.size(-1):
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes %s and %s"
            % (list(_C.Tensor.size(input)), list(_C.Tensor.size(other)))
        )
    return _call_out(_C.tensordot, input, other, [input.dim() - 1], [other.dim() - 1], out=out)


_warned = set()


def _deprecated_once(name, message):
    # TORCH_WARN_ONCE: once a process.
    if name not in _warned:
        _warned.add(name)
        warnings.warn(message, UserWarning, stacklevel=3)


def cholesky(input, upper=False, *, out=None):
    """torch.cholesky (deprecated there, with its warning once): linalg.cholesky's factor."""
    _deprecated_once(
        "cholesky",
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
        "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\n"
        "and\nU = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH",
    )
    if out is None:
        return _C.linalg_cholesky(input, upper=upper)
    return _C.linalg_cholesky(input, upper=upper, out=out)


def qr(input, some=True, *, out=None):
    """torch.qr (deprecated there, with its warning once): linalg.qr's (Q, R), mode 'reduced'
    (some=True) or 'complete'."""
    _deprecated_once(
        "qr",
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\n"
        "The boolean parameter 'some' has been replaced with a string parameter 'mode'.",
    )
    mode = "reduced" if some else "complete"
    if out is None:
        return _C.linalg_qr(input, mode)
    return _C.linalg_qr(input, mode, out=out)


def is_floating_point(input):
    """torch.is_floating_point: True for a tensor of a floating dtype."""
    if not isinstance(input, _C.Tensor):
        raise TypeError(
            "is_floating_point(): argument 'input' (position 1) must be Tensor, not %s" % type(input).__name__
        )
    return input.is_floating_point()


def _norm_dims(dim):
    if dim is None:
        return None
    return [dim] if isinstance(dim, builtins.int) else list(dim)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm: p 'fro' (over dim: at most 2 dims), 'nuc' (a matrix norm over 2 dims) or a
    number (a vector norm over dim, every element by default), as torch/functional.py's: the
    strings over linalg.vector_norm / linalg.matrix_norm, a number over the ops norm.Scalar,
    norm.ScalarOpt_dim, ... (their values and gradients are linalg.vector_norm's)."""
    from gradgen import linalg

    dims = _norm_dims(dim)
    if isinstance(p, str):
        if p == "fro" and (dims is None or len(dims) <= 2):
            return linalg.vector_norm(input, 2, dims, keepdim, dtype=dtype, out=out)
        if dims is None:
            dims = list(range(input.dim()))
        return linalg.matrix_norm(input, p, dims, keepdim, dtype=dtype, out=out)
    p = 2.0 if p is None else p
    if dims is None and (keepdim or out is not None):
        return linalg.vector_norm(input, p, None, keepdim, dtype=dtype, out=out)
    kwargs = {} if dtype is None else {"dtype": dtype}
    if dims is None:
        return _C.norm(input, p, **kwargs)
    if out is not None:
        kwargs["out"] = out
    return _C.norm(input, p, dims, keepdim, **kwargs)


def _tensor_format(self, format_spec):
    if self.dim() == 0:
        return self.detach().item().__format__(format_spec)
    return object.__format__(self, format_spec)


_tensor_to = _C.Tensor.to


def _to(self, *args, **kwargs):
    """Tensor.to(dtype) / to(other) / to(device, dtype) / to(device=..., dtype=...): gradgen's only
    device is the CPU, so a device converts nothing (the tensor itself, or a copy with copy=True)."""
    if not kwargs and len(args) == 1 and type(args[0]) is _C.dtype:  # to(dtype): the common call
        return self if args[0] == self.dtype else _tensor_to(self, args[0])
    if args and isinstance(args[0], (str, _C.device)):
        if "device" in kwargs:
            raise TypeError("to() got multiple values for argument 'device'")
        kwargs["device"] = args[0]
        args = args[1:]
    device = kwargs.pop("device", None)
    if isinstance(device, str):
        _C.device(device)  # only "cpu" exists; anything else raises as device() does
    if args or kwargs.get("dtype") is not None:
        if not args:
            args = (kwargs.pop("dtype"),)
        target = args[0].dtype if isinstance(args[0], _C.Tensor) else args[0]
        if target == self.dtype and not kwargs.get("copy", False) and kwargs.get("memory_format") is None:
            return self  # as torch's: the tensor itself when nothing changes
        return _tensor_to(self, *args, **kwargs)
    kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    if kwargs.pop("copy", False):
        return self.clone()
    if kwargs:
        kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError("to() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
    return self


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


for _fn in (isposinf, isneginf, fliplr, flipud, moveaxis, swapaxes, swapdims, adjoint, ravel, reshape_as,
            diagflat, inner, cholesky, qr, norm, rot90):  # fmt: skip
    setattr(_C.Tensor, _fn.__name__, _method(_fn))
_C.Tensor.__format__ = _tensor_format
_C.Tensor.to = _to

__all__ = [
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
    "reshape_as",
    "rot90",
    "row_stack",
    "swapaxes",
    "swapdims",
    "where",
]
