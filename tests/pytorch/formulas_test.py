"""PyTorch 2.14.1's own formulas, unchanged, compile in gradgen and pass its op sweep.

For every op gradgen declares (specs/native_functions.yaml) that PyTorch's derivatives.yaml has
an entry for (but those gradgen, like PyTorch, makes CompositeImplicitAutograd: their gradient
comes from the ops their kernel calls, and PyTorch's entry serves nested tensors only), this test
takes *PyTorch's* entry, read at test time from ../shared/pytorch beside
the checkout (never copied into the repository): its formulas as PyTorch writes them (the Default
section of a `dispatch:` entry), under gradgen's schema line. Ops PyTorch has no entry for keep
gradgen's own. From that derivatives.yaml it builds, in a workspace of its own (a nested Bazel
that uses gradgen as an external repository, as a user's workspace would), gradgen's op library:
the same declarations, kernels and formula environment (csrc/autograd/formulas.h), the code
generated from PyTorch's formulas instead of gradgen's; then it runs gradgen's two sweeps against
it: the op sweep (tests/cpp/op_sweep_test.cc, on tests/cpp/op_info.cc's samples: gradcheck and
gradgradcheck in float64 against finite differences, fwgradcheck where the entry has a forward
formula, in-place and out= variants) and the generated gradient test of specs/samples.yaml
(docs/samples.md: the same checks and more, on gradgen's samples). A declaration passes when every
check of either sweep that runs on it passes, and at least one does.

It prints `PyTorch formulas: N of M entries compile and pass (K listed exceptions)` and fails on
a failure not in EXCEPTIONS, or on a listed exception that now passes. An exception is allowed
only where PyTorch's formula is wrong for the op's meaning or needs what gradgen lacks on purpose.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import unittest

import nested_bazel as nb
import yaml

from tools.codegen.formula_env import FormulaEnvironment, header_function_names, to_cpp
from tools.codegen.model import FunctionSchema

# entry (name.overload) -> why PyTorch's formula, compiled as written, fails gradgen's sweep.
EXCEPTIONS = {
    "chunk": (
        'PyTorch\'s Default formula is not_implemented("chunk"): its chunk is a composite of split '
        "(CompositeImplicitAutograd), the entry serves nested tensors only; gradgen's chunk is a "
        "primitive with a formula of its own"
    ),
    "native_dropout": (
        "with train unset, PyTorch's input formula scales the gradient by 1 while the kernel (its "
        "and gradgen's) trains and scales by 1 / (1 - p): PyTorch 2.13 itself reports dy/dx = 1 "
        "for y = 1.25 x at p = 0.2"
    ),
}

# Declarations of gradgen's own (no PyTorch entry) that fail only through an exception: their
# kernel or formula calls the excepted op, whose PyTorch formula raises. Each must fail with that
# op's "not implemented" message, and is reported.
KNOCK_ON = {
    "lstm_cell": "chunk",  # its kernel and its backward split the gates with chunk (double backward)
}

# Entries that pass gradcheck, gradgradcheck and fwgradcheck with PyTorch's text but fail the
# sweep's forward-over-reverse (Hessian-vector) check: their backward op has no forward formula in
# PyTorch's derivatives.yaml (gradgen's own entries give it one). key -> (backward op, where PyTorch
# stands). They count as not passing; one that passes must come off the list.
_RAISES = "PyTorch 2.13 raises NotImplementedError there too (jvp of grad, checked)"
_JVP_DECOMPOSITION = (
    "PyTorch gets it from a jvp decomposition outside derivatives.yaml "
    "(torch/_decomp/decompositions_for_jvp.py, registered for its JIT), which gradgen has no counterpart of"
)
FORWARD_OVER_REVERSE = {
    "huber_loss": ("huber_loss_backward", _RAISES),
    "soft_margin_loss": ("soft_margin_loss_backward", _RAISES),
    "native_layer_norm": ("native_layer_norm_backward", _JVP_DECOMPOSITION),
    "native_batch_norm": ("native_batch_norm_backward", _JVP_DECOMPOSITION),
}

# Declarations without a PyTorch entry of their own that fail only through a FORWARD_OVER_REVERSE
# entry: gradgen's composites whose kernel calls that op, and that op's out= variants (the
# generated test checks a variant's second derivatives through the variant's call), whose backward
# then lacks the forward formula. Each must fail with that backward op's "not implemented"
# message, and is reported.
FORWARD_OVER_REVERSE_KNOCK_ON = {
    "layer_norm": "native_layer_norm",
    "batch_norm": "native_batch_norm",
    "instance_norm": "native_batch_norm",  # through batch_norm, as PyTorch's
    "huber_loss_out": "huber_loss",
    "soft_margin_loss_out": "soft_margin_loss",
}

# Declarations of gradgen's (composites, no PyTorch entry taken) that fail only in forward mode,
# through an op they call whose PyTorch entry has no forward formula, or a tuple one gradgen does
# not generate (gradgen's own entry gives it one). Each must fail with that op's "forward-mode AD
# not implemented" message, and is reported.
FORWARD_KNOCK_ON = {
    "embedding_bag": "_embedding_bag",
    "embedding_bag_padding_idx": "_embedding_bag",
    # PyTorch's _linalg_slogdet entry gives both tangents in one formula (sign, logabsdet), which
    # gradgen does not generate; gradgen's own entry takes each from it.
    "linalg_slogdet": "_linalg_slogdet",
    "slogdet": "_linalg_slogdet",
    "logdet": "_linalg_slogdet",
    # Likewise _linalg_svd (U, S, Vh) and _linalg_eigh (eigenvalues, eigenvectors).
    "linalg_svd": "_linalg_svd",
    "linalg_svdvals": "_linalg_svd",
    "svd": "_linalg_svd",
    "linalg_eigh": "_linalg_eigh",
    "linalg_eigvalsh": "_linalg_eigh",
}

# PyTorch entries of gradgen's ops that call what the formula environment does not define (the
# op keeps gradgen's own entry; they count as not passing): at most this many, and the test prints
# them with the names they lack. None today; a new op whose PyTorch entry needs a helper not
# written yet may take one, while the 95% below holds.
MAX_MISSING = 5

# The declarations whose wrapper refuses tangents for want of a formula: PyTorch's entry has none,
# or its formula gives several outputs at once (`sign, logabsdet: slogdet_jvp(...)`), which
# gradgen does not generate (gradgen's own entries take each output from such a helper).
_NO_FORWARD = re.compile(
    r'forward_ad::throw_not_implemented\("([^"]+)", "its (?:derivatives.yaml entry has no forward'
    r"|forward formula defines several outputs at once)"
)
_TUPLE_FORWARD = re.compile(
    r'forward_ad::throw_not_implemented\("([^"]+)", "its forward formula defines several outputs at once'
)
_RESULT = re.compile(r"^\[\s+(OK|FAILED)\s+\] Declared/OpSweepTest\.ChecksEverySample/(\w+)", re.M)
# The generated gradient test's lines: `ok   <op> sample <n> (...)`, `FAIL <op> sample <n> (...): why`.
_SAMPLE_LINE = re.compile(r"^(ok  |FAIL) (\S+) sample \d+ .*$", re.M)
_RUN = re.compile(r"^\[ RUN      \] Declared/OpSweepTest\.ChecksEverySample/(\w+)$", re.M)


def _sections(log: str) -> dict:
    """The sweep's output per op: test name -> its lines, from its RUN line to the next."""
    marks = [(m.group(1), m.start()) for m in _RUN.finditer(log)] + [("", len(log))]
    # A section ends at the next test's RUN line, or at the suite's end (what follows may be
    # another test's log).
    return {
        name: log[start : marks[i + 1][1]].split("\n[----------]", 1)[0] for i, (name, start) in enumerate(marks[:-1])
    }


def sample_results(log: str, covered_by: dict) -> tuple:
    """The generated gradient test's verdicts: test name (as the sweep's) -> OK or FAILED, and
    its FAIL lines, for each declaration its cases check (an entry's op and the in-place and out=
    variants they run: `covered_by` maps each to its entry's op)."""
    status: dict = {}
    lines: dict = {}
    for m in _SAMPLE_LINE.finditer(log):
        op = m.group(2)
        failed = m.group(1) == "FAIL"
        if failed or op not in status:
            status[op] = "FAILED" if failed else "OK"
        if failed:
            lines[op] = lines.get(op, "") + m.group(0) + "\n"
    results = {_param(d): status[op] for d, op in covered_by.items() if op in status}
    sections = {_param(d): lines[op] for d, op in covered_by.items() if op in lines}
    return results, sections


def merge_results(sweep: dict, sweep_sections: dict, samples: dict, samples_sections: dict) -> tuple:
    """A declaration's verdict from both sweeps: FAILED if either failed it, OK if one passed it."""
    results = {}
    for p in set(sweep) | set(samples):
        verdicts = {sweep.get(p), samples.get(p)}
        results[p] = "FAILED" if "FAILED" in verdicts else "OK"
    sections = {p: sweep_sections.get(p, "") + samples_sections.get(p, "") for p in results}
    return results, sections


def samples_covered_by(native_functions: str, derivatives: str, samples: str) -> dict:
    """declaration -> the samples entry whose cases check it, against the assembled formulas."""
    from tools.codegen.samples_coverage import covered_by

    return covered_by(native_functions, derivatives, samples)


def _key(schema: str) -> str:
    return schema.split("(", 1)[0]


def _param(key: str) -> str:
    """The sweep's test name of a declaration: "add.Tensor" -> "add_Tensor"."""
    return re.sub(r"\W", "_", key)


def _formulas(entry: dict) -> dict:
    """The formulas of a derivatives.yaml entry: its Default dispatch section if it has one."""
    if "dispatch" in entry:
        return dict(entry["dispatch"]["Default"])
    return {k: v for k, v in entry.items() if k not in ("name", "output_differentiability")}


def _composite_implicit(decl: dict) -> bool:
    dispatch = decl.get("dispatch") or {}
    return any("CompositeImplicitAutograd" in str(k) for k in dispatch)


def _yaml_value(text: str) -> str:
    text = str(text)
    try:
        plain = yaml.safe_load(f"k: {text}") == {"k": text}
    except yaml.YAMLError:
        plain = False
    return text if plain else json.dumps(text)


def environment_names(checkout: str, native_functions: list) -> FormulaEnvironment:
    """What a formula of gradgen's op library may call: its ops (every variant's C++ name) and the
    functions of the headers its generated code can include (csrc/, the formula environment)."""
    # The saved-value rewritings of the analysis, which never reach C++ as calls.
    names = {"to_args_sizes", "to_args_sizes_symint", "to_args_scalartypes", "TensorGeometry", "zeros_like"}
    for decl in native_functions:
        names.add(FunctionSchema.parse(decl["func"]).cpp_name())
    for root, _, files in os.walk(os.path.join(checkout, "csrc")):
        for f in files:
            if f.endswith(".h"):
                with open(os.path.join(root, f), encoding="utf-8") as fh:
                    names |= header_function_names(fh.read())
    return FormulaEnvironment.of(names)


def assemble(native_functions: list, ours: list, pytorch: list, env: FormulaEnvironment):
    """derivatives.yaml text with PyTorch's entry for every declaration PyTorch has, gradgen's
    entry for the others; the keys whose entry is PyTorch's; and the PyTorch entries left out
    because they call what gradgen's formula environment does not define yet (key -> names)."""
    theirs = {_key(e["name"]): e for e in pytorch}
    own = {_key(e["name"]): e for e in ours}
    lines = ["# Assembled by tests/pytorch/formulas_test.py: PyTorch's entries, gradgen's schemas.", ""]
    taken = []
    missing = {}
    for decl in native_functions:
        key = _key(decl["func"])
        entry = theirs.get(key)
        if entry is not None and _composite_implicit(decl):
            # As in PyTorch: a CompositeImplicitAutograd kernel differentiates through the ops it
            # calls, and an entry for the op serves other dispatch keys only (matmul's, nested).
            entry = None
        if entry is not None:
            unknown = sorted({n for f in _formulas(entry).values() for n, _ in env.unknown(to_cpp(str(f)))})
            if unknown:
                missing[key] = unknown
                entry = None
        if entry is not None:
            taken.append(key)
        else:
            entry = own.get(key)
            if entry is None:
                continue
        lines.append(f"- name: {decl['func']}")
        for names, formula in _formulas(entry).items():
            lines.append(f"  {names}: {_yaml_value(formula)}")
        if "output_differentiability" in entry:
            od = ", ".join(str(x) for x in entry["output_differentiability"])
            lines.append(f"  output_differentiability: [{od}]")
        lines.append("")
    return "\n".join(lines), taken, missing


def _formula_headers(checkout: str) -> list:
    """The headers //csrc:autograd gives its Functions.cpp (formula_headers in csrc/BUILD.bazel):
    gradgen's forward helpers and each op family's, csrc/autograd/formulas_<family>.h."""
    with open(os.path.join(checkout, "csrc", "BUILD.bazel"), encoding="utf-8") as fh:
        build = fh.read()
    block = build[build.index("formula_headers = [") :]
    block = block[: block.index("]")]
    return re.findall(r'"(csrc/[^"]+\.h)"', block)


def declarations_without_forward_formula(native_functions: str, derivatives: str) -> set:
    from tools.codegen.gen_autograd import generate

    code = generate(native_functions, derivatives, shards=1)["VariableType.cpp"]
    return set(_NO_FORWARD.findall(code))


def declarations_with_tuple_forward_formula(native_functions: str, derivatives: str) -> set:
    from tools.codegen.gen_autograd import generate

    code = generate(native_functions, derivatives, shards=1)["VariableType.cpp"]
    return set(_TUPLE_FORWARD.findall(code))


_LIBRARY_BUILD = """\
load("@gradgen//bazel:defs.bzl", "autograd_library")

package(default_visibility = ["//visibility:public"])

# gradgen's op library (//csrc:autograd in gradgen) from the same declarations, kernels and
# formula environment, with the code generated from PyTorch's formulas (//specs:derivatives.yaml).
autograd_library(
    name = "autograd",
    srcs = ["@gradgen//csrc:op_library_srcs"],
    hdrs = ["@gradgen//csrc:op_library_hdrs"],
    derivatives = "//specs:derivatives.yaml",
    formula_headers = {formula_headers},
    functions = "//specs:native_functions.yaml",
    # gradgen's samples: the generated gradient test :autograd_gradcheck_test on these formulas.
    # Declarations left without samples are notes (the same declarations as gradgen's).
    require_samples = False,
    runtime = "@gradgen//csrc:runtime",
    shards = 1,
    test_samples = "@gradgen//specs:samples.yaml",
    deps = [
        "@gradgen//csrc:decomp_api",
        "@gradgen//csrc:decomp_objects",
        "@gradgen//csrc:nn_kernels_api",
        "@gradgen//csrc:pointwise_api",
        "@gradgen//csrc:vectorized_api",
        "@gradgen//csrc:vectorized_objects",
    ],
)
"""

_SWEEP_BUILD = """\
load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")

cc_library(
    name = "op_info",
    testonly = True,
    srcs = ["@gradgen//tests/cpp:op_info.cc"],
    hdrs = ["@gradgen//tests/cpp:op_info.h"],
    deps = ["//csrc:autograd"],
)

cc_test(
    name = "op_sweep_test",
    size = "medium",
    srcs = ["@gradgen//tests/cpp:op_sweep_test.cc"],
    # The declarations gradgen's generated gradient test covers instead of an op_info.cc entry
    # (gradgen's own formulas: its tests/cpp:own_samples_coverage); the sweep skips them here.
    data = [
        "//specs:native_functions.yaml",
        "@gradgen//tests/cpp:own_samples_coverage",
    ],
    env = {"GRADGEN_SAMPLES_COVERAGE": "$(rootpath @gradgen//tests/cpp:own_samples_coverage)"},
    deps = [
        ":op_info",
        "//csrc:autograd",
        "@com_google_googletest//:gtest_main",
        "@gradgen//csrc:testing",
    ],
)
"""


class PyTorchFormulasTest(unittest.TestCase):
    def test_pytorch_formulas_compile_and_pass_the_sweep(self):
        checkout = nb.gradgen_checkout()
        specs = os.environ.get("GRADGEN_PYTORCH_SPECS") or os.path.join(os.path.dirname(checkout), "shared", "pytorch")
        pytorch_derivatives = os.path.join(specs, "derivatives.yaml")
        if not os.path.isfile(pytorch_derivatives):
            self.skipTest(
                f"PyTorch's derivatives.yaml is not at {pytorch_derivatives} (it sits in ../shared beside "
                "every developer checkout and CI's); set GRADGEN_PYTORCH_SPECS to run this test"
            )
        ours_nf = os.path.join(checkout, "specs", "native_functions.yaml")
        ours_d = os.path.join(checkout, "specs", "derivatives.yaml")
        with open(ours_nf, encoding="utf-8") as fh:
            native_functions = yaml.safe_load(fh)
        with open(ours_d, encoding="utf-8") as fh:
            ours = yaml.safe_load(fh)
        with open(pytorch_derivatives, encoding="utf-8") as fh:
            pytorch = yaml.safe_load(fh)
        text, taken, missing = assemble(native_functions, ours, pytorch, environment_names(checkout, native_functions))
        self.assertGreaterEqual(len(taken), 60, "PyTorch has entries for most of gradgen's ops")

        workspace = os.path.join(nb.test_tmpdir(), "pytorch_formulas")
        nb.write_external_workspace(
            workspace,
            "pytorch_formulas",
            checkout,
            {
                "specs/BUILD.bazel": 'exports_files(["native_functions.yaml", "derivatives.yaml"])\n',
                "specs/derivatives.yaml": text,
                "csrc/BUILD.bazel": _LIBRARY_BUILD.replace("{formula_headers}", json.dumps(_formula_headers(checkout))),
                "tests/BUILD.bazel": _SWEEP_BUILD,
            },
        )
        shutil.copyfile(ours_nf, os.path.join(workspace, "specs", "native_functions.yaml"))
        assembled = os.path.join(workspace, "specs", "derivatives.yaml")

        # gradgen's OpInfo says which ops have a forward formula in gradgen's entries; where
        # PyTorch's entry has none, the sweep checks that forward mode says "not implemented".
        no_forward = sorted(
            declarations_without_forward_formula(ours_nf, assembled)
            - declarations_without_forward_formula(ours_nf, ours_d)
        )
        nb.log(f"{len(taken)} entries are PyTorch's; without a forward formula there: {no_forward}")
        tuple_forward = sorted(declarations_with_tuple_forward_formula(ours_nf, assembled))

        bazel = nb.NestedBazel(workspace, "pytorch_formulas")
        # Nothing here is timed or counted, so the nested build may share gradgen's disk cache
        # (.bazelrc's): @gradgen's runtime and kernels compile to the same actions every run.
        home = pwd.getpwuid(os.getuid()).pw_dir
        try:
            proc = bazel.run(
                "test",
                [
                    f"--disk_cache={home}/.cache/gradgen/bazel-disk-cache",
                    "--test_output=all",
                    "--test_sharding_strategy=disabled",
                    "--cache_test_results=no",
                    f"--test_env=GRADGEN_SWEEP_NO_FORWARD_FORMULA={','.join(no_forward)}",
                    "//tests:op_sweep_test",
                    "//csrc:autograd_gradcheck_test",
                ],
                check=False,
                timeout=2400,
            )
        finally:
            bazel.shutdown()
        sweep = dict((name, status) for status, name in _RESULT.findall(proc.stdout))
        covered = samples_covered_by(ours_nf, assembled, os.path.join(checkout, "specs", "samples.yaml"))
        samples, samples_sections = sample_results(proc.stdout, covered)
        if not sweep or not samples:
            self.fail("the library built from PyTorch's formulas did not compile or run:\n" + proc.stdout[-8000:])
        nb.log(f"the op sweep judged {len(sweep)} declarations, the generated gradient test {len(samples)}")
        results, sections = merge_results(sweep, _sections(proc.stdout), samples, samples_sections)

        passed = [k for k in taken if results.get(_param(k)) == "OK"]
        failed = [k for k in taken if results.get(_param(k)) != "OK"]
        # Declarations whose entry is not PyTorch's (gradgen's own, or variants: in-place, out=)
        # must pass too.
        by_param = {_param(k): k for k in taken}
        knock_on = sorted(
            p
            for p, status in results.items()
            if status != "OK"
            and p in KNOCK_ON
            and f"the derivative for '{KNOCK_ON[p]}' is not implemented" in sections.get(p, "")
        )
        fwd_knock_on = sorted(
            p
            for p, status in results.items()
            if status != "OK"
            and p in FORWARD_OVER_REVERSE_KNOCK_ON
            and "forward-mode AD not implemented for " + FORWARD_OVER_REVERSE[FORWARD_OVER_REVERSE_KNOCK_ON[p]][0]
            in sections.get(p, "")
        )
        no_fwd_knock_on = sorted(
            p
            for p, status in results.items()
            if status != "OK"
            and p in FORWARD_KNOCK_ON
            and f"forward-mode AD not implemented for {FORWARD_KNOCK_ON[p]}: its " in sections.get(p, "")
        )
        others = sorted(
            p
            for p, status in results.items()
            if status != "OK"
            and p not in by_param
            and p not in knock_on
            and p not in fwd_knock_on
            and p not in no_fwd_knock_on
        )
        as_pytorch = {
            k: FORWARD_OVER_REVERSE[k]
            for k in failed
            if k in FORWARD_OVER_REVERSE
            and f"forward-mode AD not implemented for {FORWARD_OVER_REVERSE[k][0]}" in sections.get(_param(k), "")
        }
        listed = sorted(set(EXCEPTIONS))
        print(
            f"PyTorch formulas: {len(passed)} of {len(taken) + len(missing)} entries compile and pass "
            f"({len(EXCEPTIONS)} listed exceptions)"
        )
        for key in listed:
            print(f"  exception {key}: {EXCEPTIONS[key]}")
        for key, (op, why) in sorted(as_pytorch.items()):
            print(f"  {key}: forward-over-reverse needs {op}'s forward formula, which PyTorch's entry lacks ({why})")
        for p in fwd_knock_on:
            print(
                f"  {p} (no PyTorch entry of its own) fails only through "
                f"{FORWARD_OVER_REVERSE_KNOCK_ON[p]}'s forward-over-reverse"
            )
        for p in knock_on:
            print(f"  {p} (gradgen's own entry) fails only through {KNOCK_ON[p]}'s exception")
        for p in no_fwd_knock_on:
            print(
                f"  {p} (a composite) fails only in forward mode, {FORWARD_KNOCK_ON[p]}'s PyTorch entry "
                "having no forward formula gradgen generates"
            )
        if tuple_forward:
            print(
                "  forward mode refused (checked by the sweep) where PyTorch's tangent formula gives several "
                f"outputs at once, which gradgen does not generate: {', '.join(tuple_forward)}"
            )
        print(
            f"  and {len(missing)} more of PyTorch's entries call what gradgen's formula environment "
            f"does not define yet (gradgen's own entry used): "
            + "; ".join(f"{k} ({', '.join(v)})" for k, v in sorted(missing.items()))
        )
        unlisted = sorted(set(failed) - set(EXCEPTIONS) - set(as_pytorch))
        now_passing = sorted(set(EXCEPTIONS) - set(failed))
        self.assertEqual(
            unlisted, [], "PyTorch entries failing the sweep without a listed reason:\n" + proc.stdout[-8000:]
        )
        self.assertEqual(others, [], "other declarations failing the sweep:\n" + proc.stdout[-8000:])
        self.assertEqual(now_passing, [], "listed exceptions that now pass: take them off EXCEPTIONS")
        passing_fwd = sorted(k for k in FORWARD_OVER_REVERSE if results.get(_param(k)) == "OK")
        if passing_fwd:
            print(f"  now passing, to take off FORWARD_OVER_REVERSE: {', '.join(passing_fwd)}")
        passing_no_fwd = sorted(set(FORWARD_KNOCK_ON) - set(no_fwd_knock_on))
        self.assertEqual(passing_no_fwd, [], "FORWARD_KNOCK_ON entries that no longer fail as listed")
        passing_knock_on = sorted(set(KNOCK_ON) - set(knock_on))
        self.assertEqual(passing_knock_on, [], "KNOCK_ON entries that no longer fail through their exception")
        # Issue 21's bar: 95% of PyTorch's entries for gradgen's declared ops, those the
        # environment cannot take counted as failing.
        self.assertGreaterEqual(len(passed), 0.95 * (len(taken) + len(missing)))
        # A ratchet: entries whose names the environment lacks may only become fewer.
        self.assertLessEqual(len(missing), MAX_MISSING, sorted(missing))


if __name__ == "__main__":
    nb.main_unittest()
