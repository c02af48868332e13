"""detect_anomaly and set_detect_anomaly: find the forward op behind a NaN or inf gradient.

    with gradgen.autograd.detect_anomaly():
        y = gradgen.sqrt(x)          # x holds a 0: SqrtBackward0 records op 'sqrt' and this stack
        y.sum().backward()           # RuntimeError: Function 'SqrtBackward0' returned inf values
                                     # in its output 0, the gradient for input slot 0 of forward
                                     # op 'sqrt'; forward call site (most recent call last): ...

As in torch, per thread (like grad mode); nodes created while it is on record their forward op
and the Python stack, and a backward run while it is on checks every node's gradients.
"""

import functools

from gradgen import _C

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "forward_call_site"]

is_anomaly_enabled = _C.is_anomaly_enabled


class _AnomalyMode:
    """Sets anomaly mode inside a `with` block or a decorated function, then restores it."""

    def __init__(self, mode=True):
        self._mode = bool(mode)
        self._previous = []

    def __enter__(self):
        self._previous.append(_C.is_anomaly_enabled())
        _C._set_anomaly_enabled(self._mode)
        return self

    def __exit__(self, exc_type, exc, tb):
        _C._set_anomaly_enabled(self._previous.pop())
        return False


class detect_anomaly(_AnomalyMode):
    """Anomaly mode on for a `with` block or, as a decorator, for a function's calls."""

    def __init__(self):
        super().__init__(True)

    def __call__(self, fn):
        if not callable(fn):
            raise TypeError("detect_anomaly() used as a decorator expects a function, got %r" % (fn,))

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with detect_anomaly():
                return fn(*args, **kwargs)

        return wrapper


class set_detect_anomaly(_AnomalyMode):
    """Sets anomaly mode to `mode` for a `with` block: `with set_detect_anomaly(False): ...`."""


def forward_call_site(node):
    """Returns (forward_op, user_op, stack) recorded by anomaly mode for a node, or None.

    forward_op is the schema name of the op that made the node ("mm"), user_op the outermost op
    then running ("matmul"), stack the Python stack of the call, most recent call last.
    """
    return _C._anomaly_metadata(node)
