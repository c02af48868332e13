"""gradgen.testing: what the generated Python gradient tests of an autograd_library run (docs/samples.md)."""

from gradgen.testing.samples import Case, Input, as_float32, float64_outputs, make_inputs, run_case  # noqa: F401

__all__ = ["Case", "Input", "as_float32", "float64_outputs", "make_inputs", "run_case"]
