"""gradgen.profiler: what forward ops and backward nodes cost, as torch.profiler.

    >>> with gradgen.profiler.profile() as prof:
    ...     loss = (x @ w).tanh().sum()
    ...     loss.backward()
    >>> print(prof.key_averages().table(row_limit=10))
    >>> prof.export_chrome_trace("trace.json")   # chrome://tracing or ui.perfetto.dev

Every generated op without DONT_PROFILE is recorded (name, start, end, input shapes, the
sequence number linking it to the Backward node it created), and so is every node the engine
runs, on every thread. The C++ side is csrc/autograd/profiler.h.
"""

from gradgen import _C

__all__ = ["profile", "FunctionEventAvg", "EventList"]


class FunctionEventAvg:
    """The events of one name: key, count, cpu_time_total and self_cpu_time_total (us)."""

    def __init__(self, key, count, total_ns, self_ns):
        self.key = key
        self.count = count
        self.cpu_time_total = total_ns / 1000.0
        self.self_cpu_time_total = self_ns / 1000.0

    @property
    def cpu_time(self):
        """Mean inclusive time per call, in microseconds."""
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return "<FunctionEventAvg key=%s count=%d cpu_time_total=%.3fus self_cpu_time_total=%.3fus>" % (
            self.key,
            self.count,
            self.cpu_time_total,
            self.self_cpu_time_total,
        )


class EventList(list):
    """key_averages(): a list of FunctionEventAvg sorted by total time, with table()."""

    def __init__(self, items, prof):
        super().__init__(items)
        self._prof = prof

    def table(self, row_limit=-1):
        """The summary table: Name, Self CPU %, Self CPU, CPU total %, CPU total, CPU time avg,
        # of Calls, sorted by CPU total (as torch's key_averages().table(sort_by="cpu_time_total"))."""
        return self._prof.table(row_limit)


class profile:
    """A context manager recording while its block runs; one at a time (RuntimeError otherwise)."""

    def __init__(self):
        self._prof = None

    def __enter__(self):
        try:
            self._prof = _C._Profile()
        except Exception as e:  # std::logic_error: another profile records
            raise RuntimeError(str(e)) from None
        return self

    def __exit__(self, *exc):
        self._prof.stop()
        return False

    def _require(self):
        if self._prof is None:
            raise RuntimeError("profile: use it as a context manager first (with profile() as prof: ...)")
        self._prof.stop()
        return self._prof

    def key_averages(self):
        """Per name: FunctionEventAvg, sorted by total time (descending)."""
        prof = self._require()
        return EventList([FunctionEventAvg(*row) for row in prof.key_averages()], prof)

    def events(self):
        """Every event as a dict: name, kind ("op" or "backward"), start_ns, end_ns, thread,
        sequence_nr (-1: none), input_shapes, depth."""
        keys = ("name", "kind", "start_ns", "end_ns", "thread", "sequence_nr", "input_shapes", "depth")
        return [dict(zip(keys, e)) for e in self._require().events()]

    def export_chrome_trace(self, path):
        """Writes the Chrome trace event JSON ("X" events, "s"/"f" flows fwd -> bwd) to path."""
        self._require().export_chrome_trace(str(path))

    def chrome_trace_json(self):
        """The Chrome trace event JSON, as text."""
        return self._require().chrome_trace_json()
