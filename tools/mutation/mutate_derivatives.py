#!/usr/bin/env python3
"""A mutation campaign over specs/derivatives.yaml: does the generated gradient test catch it?

For each picked entry, one backward formula (a key naming one input) is scaled by 1.5, the tree
is rebuilt and `//csrc:autograd_gradcheck_test` (the test generated from specs/samples.yaml)
must fail, naming the op. The file is restored after each mutation, also on Ctrl-C. Each
mutation recompiles one shard of the generated code and relinks: about a minute on 2 cores, so
this is a campaign, not a test in `bazel test //...`.

  tools/mutation/mutate_derivatives.py [--count=8] [--seed=1] [--ops=exp,mm.default]

Prints one line per mutation (caught / MISSED / skipped, with the test's first failing line)
and a summary; exits 1 if a mutation of a sampled op was missed.
"""

import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "specs" / "derivatives.yaml"
SAMPLES = ROOT / "specs" / "samples.yaml"
TARGET = "//csrc:autograd_gradcheck_test"

# `- name: op.overload(args) -> ret`, then `  key: formula` lines until a blank line.
_NAME = re.compile(r"^- name: ([\w.]+)\(")
_KEY = re.compile(r"^  (\w+): (.+)$")
_NOT_FORMULAS = ("non_differentiable", "not_implemented", "auto_linear", "auto_element_wise")
_NOT_KEYS = ("result", "output_differentiability", "dispatch", "name")
# A formula that is all zeros: `zeros_like(self)`, `at::zeros_like(grad)`, `zeros({...}, ...)`.
_ZERO = re.compile(r"^(at::)?zeros(_like)?\([^()]*(\([^()]*\)[^()]*)*\)$")


def candidates(lines, sampled):
    """(line number, op, input) of every single-input backward formula of a sampled op."""
    found, op = [], None
    for i, line in enumerate(lines):
        m = _NAME.match(line)
        if m:
            op = m.group(1)
            continue
        m = _KEY.match(line)
        if not (m and op in sampled) or m.group(1) in _NOT_KEYS or m.group(1).startswith("result"):
            continue
        formula = m.group(2)
        if any(w in formula for w in _NOT_FORMULAS) or formula.startswith('"') or "grad.defined()" in formula:
            continue
        if _ZERO.match(formula):
            continue  # a zero gradient scaled by 1.5 is the same formula (an equivalent mutant)
        found.append((i, op, m.group(1)))
    return found


def inputs_of(lines, i):
    """The argument names of the entry line i belongs to (a key naming none is an output's)."""
    while not lines[i].startswith("- name: "):
        i -= 1
    args = lines[i].split("(", 1)[1].rsplit(") ->", 1)[0]
    return {a.split("=")[0].split()[-1] for a in args.split(",") if a.strip() and a.strip() != "*"}


def sampled_ops():
    """Ops with samples (not `skip:`) in specs/samples.yaml."""
    ops, current, has_samples = set(), None, False
    for line in SAMPLES.read_text().splitlines() + ["- op: end"]:
        m = re.match(r"^- op: ([\w.]+)", line)
        if m:
            if current and has_samples:
                ops.add(current)
            current, has_samples = m.group(1), False
        elif line.strip().startswith("samples:"):
            has_samples = True
    return ops


def run_test():
    r = subprocess.run(["./bazelw", "test", TARGET, "--test_output=errors"], cwd=ROOT, capture_output=True, text=True)
    fails = [x for x in (r.stdout + r.stderr).splitlines() if x.startswith("FAIL ") or "error:" in x]
    return r.returncode, fails


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ops", default="", help="comma-separated ops to mutate instead of a random pick")
    args = p.parse_args()
    original = SPEC.read_text()
    lines = original.split("\n")
    pool = candidates(lines, sampled_ops())
    if args.ops:
        wanted = set(args.ops.split(","))
        picks = [c for c in pool if c[1] in wanted]
    else:
        picks = random.Random(args.seed).sample(pool, min(args.count, len(pool)))
    print(f"{len(pool)} single-input backward formulas of sampled ops; mutating {len(picks)}", flush=True)
    missed = 0
    try:
        for i, op, key in picks:
            mutated = list(lines)
            name, formula = _KEY.match(lines[i]).groups()
            mutated[i] = f"  {name}: ({formula}) * 1.5"
            SPEC.write_text("\n".join(mutated))
            rc, fails = run_test()
            named = [f for f in fails if f.startswith(f"FAIL {op} ")]
            if rc != 0 and named:
                verdict = "caught: " + named[0][:150]
            elif rc != 0:
                verdict = "build or other failure: " + (fails[0][:150] if fails else "?")
            else:
                verdict = "MISSED"
                missed += 1
            what = f"d/d {key}" if key in inputs_of(lines, i) else f"the forward formula of {key}"
            print(f"{op} {what} (line {i + 1}) x1.5 -> {verdict}", flush=True)
    finally:
        SPEC.write_text(original)
    print(f"{len(picks) - missed} of {len(picks)} mutations caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
