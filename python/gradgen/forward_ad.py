"""Forward-mode AD (Jacobian-vector products), as torch.autograd.forward_ad.

    >>> import gradgen
    >>> import gradgen.forward_ad as fwAD
    >>> x, v = gradgen.randn(3, seed=0), gradgen.ones(3)
    >>> with fwAD.dual_level():
    ...     y = gradgen.exp(fwAD.make_dual(x, v))
    ...     jvp = fwAD.unpack_dual(y).tangent   # exp(x) * v, without a backward pass

Tangents are computed by the generated ops from the forward formulas of derivatives.yaml; an op
without one raises "forward-mode AD not implemented for <op>". One level can be active at a time;
its tangents are freed when it exits.
"""

from collections import namedtuple

from gradgen import _C

__all__ = ["dual_level", "make_dual", "unpack_dual", "UnpackedDualTensor", "enter_dual_level", "exit_dual_level"]

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "unpack_dual's result: the primal (a view without tangent) and the tangent (or None)."


def enter_dual_level():
    """Opens a dual level and returns its id; raises RuntimeError if one is active already."""
    return _C._enter_dual_level()


def exit_dual_level(*, level=None):
    """Closes the active dual level (or `level`, which must be it) and frees its tangents."""
    _C._exit_dual_level(_current_level() if level is None else level)


def _current_level():
    level = _C._current_dual_level()
    if level == 0:
        raise RuntimeError("no dual level is active; use `with gradgen.forward_ad.dual_level():`")
    return level


class dual_level:
    """Context manager of a dual level: `with dual_level(): ...`; `as` gives the level's id."""

    def __enter__(self):
        self._level = enter_dual_level()
        return self._level

    def __exit__(self, exc_type, exc, tb):
        exit_dual_level(level=self._level)
        return False


def make_dual(tensor, tangent, *, level=None):
    """A view of `tensor` whose tangent is `tangent` (same shape and dtype), at the active level."""
    return _C._make_dual(tensor, tangent, _current_level() if level is None else level)


def unpack_dual(tensor, *, level=None):
    """(primal, tangent) of `tensor` at the active level; tangent is None when it has none."""
    primal, tangent = _C._unpack_dual(tensor, _current_level() if level is None else level)
    return UnpackedDualTensor(primal, tangent)
