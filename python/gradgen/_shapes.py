"""torch's Python-level calling conventions for gradgen's shape ops (issue 23).

torch.meshgrid, torch.broadcast_tensors (torch/functional.py) take the tensors as varargs (or
one list) and return tuples; the ops of specs/ take a Tensor[] and return a list. These
functions are gradgen.meshgrid and gradgen.broadcast_tensors (gradgen/__init__.py).
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


__all__ = ["broadcast_tensors", "meshgrid"]
