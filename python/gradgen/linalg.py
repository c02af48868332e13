"""gradgen.linalg: PyTorch's torch.linalg names over gradgen's ops (cross, vector_norm, multi_dot).

>>> gradgen.linalg.cross(a, b, dim=0)
>>> gradgen.linalg.vector_norm(x, ord=1, dim=(0, 1))
"""

from gradgen import _C


def cross(input, other, *, dim=-1, out=None):
    """torch.linalg.cross: the cross product of 3-vectors along dim (the op linalg_cross)."""
    if out is None:
        return _C.linalg_cross(input, other, dim=dim)
    return _C.linalg_cross(input, other, dim=dim, out=out)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """torch.linalg.vector_norm: the ord-norm of x over dim (None: every element; the op
    linalg_vector_norm). dim may be an int or a sequence of ints, as PyTorch's."""
    if isinstance(dim, int):
        dim = [dim]
    elif dim is not None:
        dim = list(dim)
    kwargs = {"dtype": dtype} if dtype is not None else {}
    if out is not None:
        kwargs["out"] = out
    return _C.linalg_vector_norm(x, ord, dim, keepdim, **kwargs)


def multi_dot(tensors, *, out=None):
    """torch.linalg.multi_dot: the product of two or more matrices (the first and last may be
    vectors) in the cheapest order (the op linalg_multi_dot)."""
    if out is None:
        return _C.linalg_multi_dot(list(tensors))
    return _C.linalg_multi_dot(list(tensors), out=out)


__all__ = ["cross", "multi_dot", "vector_norm"]
