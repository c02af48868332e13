"""no_grad, enable_grad and set_grad_enabled: context managers and decorators, as in torch."""

import functools

from gradgen import _C

__all__ = ["no_grad", "enable_grad", "set_grad_enabled"]


class _GradMode:
    """Sets grad mode inside a `with` block or a decorated function, then restores it."""

    _enabled = True

    def __init__(self):
        self._previous = []

    def __enter__(self):
        self._previous.append(_C.is_grad_enabled())
        _C._set_grad_enabled(self._enabled)
        return self

    def __exit__(self, exc_type, exc, tb):
        _C._set_grad_enabled(self._previous.pop())
        return False

    def __call__(self, fn):
        if not callable(fn):
            raise TypeError("%s() used as a decorator expects a function, got %r" % (type(self).__name__, fn))

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(_GradMode):
    """Ops record no autograd graph (results have no grad_fn): `with gradgen.no_grad(): ...`."""

    _enabled = False


class enable_grad(_GradMode):
    """Ops record the autograd graph again, e.g. inside a no_grad block."""

    _enabled = True


class set_grad_enabled(_GradMode):
    """Sets grad mode to `mode` now (a plain call) or for a `with` block."""

    def __init__(self, mode):
        super().__init__()
        self._enabled = bool(mode)
        self._previous.append(_C.is_grad_enabled())
        _C._set_grad_enabled(self._enabled)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        _C._set_grad_enabled(self._previous.pop())
        return False

    def __call__(self, fn):
        raise TypeError("set_grad_enabled(mode) is not a decorator; use no_grad or enable_grad")
