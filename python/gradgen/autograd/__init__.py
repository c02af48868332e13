"""gradgen.autograd: backward, grad, grad modes, anomaly mode, the graph (nodes, to_dot), as torch.autograd."""

from gradgen import _C
from gradgen._C import AccumulateGrad, Node  # noqa: F401
from gradgen.autograd.anomaly_mode import (  # noqa: F401
    detect_anomaly,
    forward_call_site,
    is_anomaly_enabled,
    set_detect_anomaly,
)
from gradgen.autograd.grad_mode import enable_grad, no_grad, set_grad_enabled  # noqa: F401
from gradgen.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: F401
from gradgen.autograd.graph import to_dot  # noqa: F401

__all__ = [
    "Node",
    "AccumulateGrad",
    "backward",
    "grad",
    "enable_grad",
    "no_grad",
    "set_grad_enabled",
    "detect_anomaly",
    "set_detect_anomaly",
    "is_anomaly_enabled",
    "forward_call_site",
    "to_dot",
    "gradcheck",
    "gradgradcheck",
    "GradcheckError",
]


def _as_tuple(tensors, what):
    if isinstance(tensors, _C.Tensor):
        return (tensors,)
    try:
        return tuple(tensors)
    except TypeError:
        raise TypeError(
            "%s: expected a Tensor or a sequence of Tensors, got %s" % (what, type(tensors).__name__)
        ) from None


def _grads_for(outputs, grad_outputs, what):
    if grad_outputs is None:
        return [None] * len(outputs)
    grads = list(_as_tuple(grad_outputs, what)) if grad_outputs is not None else []
    if len(grads) != len(outputs):
        raise RuntimeError("%s: got %d gradients for %d tensors" % (what, len(grads), len(outputs)))
    return grads


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False):
    """Accumulates the gradients of `tensors` into the .grad of the graph's leaves.

    grad_tensors[i] is the gradient of tensors[i]; None (or omitted) means ones, allowed for
    1-element tensors only. retain_graph defaults to create_graph.
    """
    tensors = _as_tuple(tensors, "backward")
    _C._backward(list(tensors), _grads_for(tensors, grad_tensors, "backward"), retain_graph, create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=False):
    """Returns the gradients of `outputs` with respect to `inputs`, a tuple with one per input.

    Nothing is accumulated into .grad. An input no output depends on is an error unless
    allow_unused, when its gradient is None. With create_graph the gradients have history
    (differentiate them again); retain_graph defaults to create_graph.
    """
    outputs = _as_tuple(outputs, "grad")
    inputs = _as_tuple(inputs, "grad")
    return _C._grad(
        list(outputs), list(inputs), _grads_for(outputs, grad_outputs, "grad"), retain_graph, create_graph, allow_unused
    )
