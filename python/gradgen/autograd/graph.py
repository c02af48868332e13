"""to_dot: the backward graph of tensors as Graphviz DOT text (render it with `dot -Tsvg`)."""

from gradgen import _C

__all__ = ["to_dot"]


def to_dot(tensors, params=None):
    """Returns the DOT text of the backward graph of `tensors` (a Tensor or a sequence of them).

    params maps display names to tensors, e.g. dict(w=w, b=b): leaves (and roots) listed there
    are labelled with their name. Nodes show their names and the shapes of the gradients they
    receive, leaves their shapes, edges the node's output slot (":j": into input j of a node
    with several inputs), so the slots of a Tensor[] argument are visible. The text is deterministic.
    """
    roots = [tensors] if isinstance(tensors, _C.Tensor) else list(tensors)
    names = []
    for name, tensor in (params or {}).items():
        if not isinstance(tensor, _C.Tensor):
            raise TypeError("to_dot: params[%r] is a %s, expected a Tensor" % (name, type(tensor).__name__))
        names.append((str(name), tensor))
    return _C._to_dot(roots, names)
