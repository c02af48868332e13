"""gradgen.testing: what the generated Python gradient tests of an autograd_library run (docs/samples.md)."""

from gradgen.testing.samples import Case, Input, make_inputs, run_case  # noqa: F401

__all__ = ["Case", "Input", "make_inputs", "run_case"]
