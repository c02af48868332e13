"""Lists the declarations a samples file's generated gradient test checks, one per line.

  samples_coverage.py <native_functions.yaml> <derivatives.yaml> <samples.yaml> <output>

The declarations are load_samples.covered_declarations of the plan the codegen makes with
`--samples` (the same loading and analysis): every entry with samples, and the in-place and out=
variants its cases check. //tests/cpp:op_sweep_test reads the list for gradgen's own specs: a
declared op is covered by its tests/cpp/op_info.cc entry or by this list (docs/samples.md).
A spec error is printed as `file:line:col: message` with exit status 1.
"""

from __future__ import annotations

import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tools.codegen.autogen import add_autogen_variants  # noqa: E402
from tools.codegen.errors import SpecError  # noqa: E402
from tools.codegen.load_derivatives import load_derivatives  # noqa: E402
from tools.codegen.load_native_functions import parse_native_functions  # noqa: E402
from tools.codegen.load_samples import covering_entries, plan_samples  # noqa: E402
from tools.codegen.plan import plan  # noqa: E402


def covered(native_functions: str, derivatives: str, samples: str) -> list:
    """The covered declarations of `samples` against the two spec files."""
    return list(covered_by(native_functions, derivatives, samples))


def covered_by(native_functions: str, derivatives: str, samples: str) -> dict:
    """The covered declarations, each mapped to the samples entry whose cases check it (the op
    the generated test's messages name): //tests/pytorch:formulas_test reads that test's verdicts."""
    functions = add_autogen_variants(parse_native_functions(native_functions, native_functions))
    infos = load_derivatives(derivatives, functions, derivatives, None)
    planned = plan(functions, infos, "error", False)
    tests = plan_samples(samples, functions, planned.matched, planned.kinds, samples, False)
    return covering_entries(tests)


def main(argv: list) -> int:
    if len(argv) != 5:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        names = covered(argv[1], argv[2], argv[3])
    except SpecError as e:
        print(e, file=sys.stderr)
        return 1
    with open(argv[4], "w", encoding="utf-8") as out:
        out.write("".join(n + "\n" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
