"""torch's Python-level calling conventions for gradgen's shape ops (issue 23).

torch.meshgrid, torch.broadcast_tensors (torch/functional.py) take the tensors as varargs (or
one list) and return tuples; the ops of specs/ take a Tensor[] and return a list. torch.unique
and torch.unique_consecutive return the values alone or a tuple with what was asked for, over
the ops _unique2 / unique_dim / unique_consecutive; torch.nonzero takes as_tuple= (the op
nonzero_numpy). These functions are gradgen.<name> (gradgen/__init__.py), unique,
unique_consecutive and nonzero also Tensor methods.
"""

import warnings

from gradgen import _C


def _tensor_list(tensors, name):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    return list(tensors)


def broadcast_tensors(*tensors):
    """torch.broadcast_tensors: the tensors expanded to their common shape (views), a tuple."""
    return tuple(_C.broadcast_tensors(_tensor_list(tensors, "broadcast_tensors")))


def meshgrid(*tensors, indexing=None):
    """torch.meshgrid: coordinate grids of 0-D / 1-D tensors, a tuple.

    indexing 'ij' (matrix) or 'xy' (Cartesian: the first two dims exchanged); None is 'ij' with
    PyTorch's warning that the argument will be required.
    """
    tensors = _tensor_list(tensors, "meshgrid")
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
            UserWarning,
            stacklevel=2,
        )
        return tuple(_C.meshgrid(tensors))
    return tuple(_C.meshgrid(tensors, indexing=indexing))


def _pick(output, inverse, counts, return_inverse, return_counts):
    if return_inverse and return_counts:
        return output, inverse, counts
    if return_inverse:
        return output, inverse
    if return_counts:
        return output, counts
    return output


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique: the unique values (or slices along dim), sorted; with the inverse indices
    and / or the counts when asked for."""
    if dim is None:
        output, inverse, counts = _C._unique2(input, sorted, return_inverse, return_counts)
    else:
        output, inverse, counts = _C.unique_dim(input, dim, sorted, return_inverse, return_counts)
    return _pick(output, inverse, counts, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """torch.unique_consecutive: each run of equal consecutive values (or slices) kept once."""
    output, inverse, counts = _C.unique_consecutive(input, return_inverse, return_counts, dim)
    return _pick(output, inverse, counts, return_inverse, return_counts)


def nonzero(input, *, out=None, as_tuple=False):
    """torch.nonzero: the indices of input's nonzero elements, a [count, dim] Long tensor, or with
    as_tuple=True a tuple of one 1-D index tensor per dim (the op nonzero_numpy; a 0-dim input
    counts as 1-D)."""
    if as_tuple:
        if out is not None:
            raise RuntimeError("nonzero does not support the out kwarg when as_tuple is True")
        return tuple(_C.nonzero_numpy(input))
    if out is None:
        return _C.nonzero(input)
    return _C.nonzero(input, out=out)


def _tensor_nonzero(self, *, as_tuple=False):
    return nonzero(self, as_tuple=as_tuple)


def _tensor_unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    return unique(self, sorted, return_inverse, return_counts, dim)


def _tensor_unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    return unique_consecutive(self, return_inverse, return_counts, dim)


def _sublist_subscript(n):
    if n is Ellipsis:
        return "..."
    if isinstance(n, int) and 0 <= n < 26:
        return chr(ord("A") + n)
    if isinstance(n, int) and 26 <= n < 52:
        return chr(ord("a") + n - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


def einsum(*args):
    """torch.einsum: einsum(equation, *operands) (varargs, or one list), or the sublist format
    einsum(op1, sublist1, op2, sublist2, ..., [output sublist]) with subscripts 0..51 and
    Ellipsis, as torch's."""
    if len(args) < 2:
        raise ValueError(
            "einsum(): must specify the equation string and at least one operand, "
            "or at least one operand and its subscripts list"
        )
    if isinstance(args[0], str):
        return _C.einsum(args[0], _tensor_list(args[1:], "einsum"))
    operands, sublists = list(args[0::2]), list(args[1::2])
    output = None
    if len(args) % 2 == 1:
        output = operands.pop()  # an odd count: the last argument is the output sublist
    equation = ",".join("".join(_sublist_subscript(n) for n in sub) for sub in sublists)
    if output is not None:
        equation += "->" + "".join(_sublist_subscript(n) for n in output)
    return _C.einsum(equation, operands)


def chain_matmul(*matrices, out=None):
    """torch.chain_matmul (deprecated there, with its warning): the product of the matrices."""
    warnings.warn(
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
        "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
        "multiple parameters.",
        UserWarning,
        stacklevel=2,
    )
    if out is None:
        return _C.chain_matmul(list(matrices))
    return _C.chain_matmul(list(matrices), out=out)


_CDIST_MODES = {
    "use_mm_for_euclid_dist_if_necessary": None,
    "use_mm_for_euclid_dist": 1,
    "donot_use_mm_for_euclid_dist": 2,
}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """torch.cdist: the p-norm distances between the rows of x1 and x2 (the op cdist, whose
    compute_mode is None, 1 or 2 for these strings)."""
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    return _C.cdist(x1, x2, p, _CDIST_MODES[compute_mode])


_C.Tensor.nonzero = _tensor_nonzero
_C.Tensor.unique = _tensor_unique
_C.Tensor.unique_consecutive = _tensor_unique_consecutive

__all__ = ["broadcast_tensors", "cdist", "chain_matmul", "einsum", "meshgrid", "unique", "unique_consecutive"]
