"""gradgen.linalg: PyTorch's torch.linalg names over gradgen's ops (cross, for now).

>>> gradgen.linalg.cross(a, b, dim=0)
"""

from gradgen import _C


def cross(input, other, *, dim=-1, out=None):
    """torch.linalg.cross: the cross product of 3-vectors along dim (the op linalg_cross)."""
    if out is None:
        return _C.linalg_cross(input, other, dim=dim)
    return _C.linalg_cross(input, other, dim=dim, out=out)


__all__ = ["cross"]
