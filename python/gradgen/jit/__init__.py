"""gradgen.jit: trace a function of tensors into a graph of generated ops, as torch.jit.trace.

    >>> traced = gradgen.jit.trace(lambda x, w: (x @ w).tanh(), (x, w))
    >>> print(traced.graph)           # SSA text: %2 : Double[2, 4] = mm(%0, %1) ...
    >>> traced.json()                 # the same graph as JSON
    >>> traced(x2, w2)                # replays the recorded ops on new inputs

Ops flagged DONT_RECORD_TRACE leave no node; where their outputs are used the graph has a
hole (a constant holding the traced value), listed in `traced.warnings`, and trace() warns.
The C++ side is csrc/autograd/tracer.h.
"""

import warnings as _warnings

from gradgen import _C

__all__ = ["trace", "TracedFunction", "TracerWarning"]


class TracerWarning(UserWarning):
    """The trace may not generalize to other inputs (a hole left by an untraced op)."""


def _tensors(value, what):
    if isinstance(value, _C.Tensor):
        return [value]
    out = list(value)
    for i, t in enumerate(out):
        if not isinstance(t, _C.Tensor):
            raise TypeError("trace: %s[%d] is a %s, expected a Tensor" % (what, i, type(t).__name__))
    return out


class TracedFunction:
    """A recorded trace: `graph` (SSA text), `json()`, `ops`, `warnings`; calling it replays."""

    def __init__(self, graph, single_output):
        self._graph = graph
        self._single = single_output

    @property
    def graph(self):
        """The SSA text of the recorded graph."""
        return self._graph.str()

    def json(self):
        """The recorded graph as JSON text (values, nodes with arguments by name, warnings)."""
        return self._graph.json()

    @property
    def ops(self):
        """The recorded ops' schema names, in call order."""
        return list(self._graph.ops)

    @property
    def warnings(self):
        """Where the trace has holes (uses of an untraced op's outputs)."""
        return list(self._graph.warnings)

    def __call__(self, *inputs):
        out = self._graph.replay(_tensors(inputs, "inputs"))
        return out[0] if self._single else tuple(out)

    def __repr__(self):
        return "TracedFunction(\n" + self.graph + ")"


def trace(fn, example_inputs):
    """Runs fn(*example_inputs) once, recording every traced op it calls; returns a
    TracedFunction. fn returns a Tensor or a sequence of them."""
    inputs = _tensors(example_inputs, "example_inputs")
    single = []

    def run(ins):
        out = fn(*ins)
        single.append(isinstance(out, _C.Tensor))
        return _tensors(out, "the traced function's result")

    graph = _C._trace(run, inputs)
    traced = TracedFunction(graph, single[0])
    for w in traced.warnings:
        _warnings.warn("trace: " + w, TracerWarning, stacklevel=2)
    return traced
