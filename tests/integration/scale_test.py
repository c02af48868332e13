"""The 2,000-op spec built by Bazel: shard count chosen from the spec's size, the full compile and
one formula edit timed, from a workspace using gradgen as an external repository.

The workspace under $TEST_TMPDIR has one autograd_library of bench/scale_spec.py's synthetic spec
(2,000 ops in six schema shapes) with `shards` unset. After a first build (which compiles
gradgen's runtime too), each step below is one `bazel build //scale:scale`, timed around the
client (wall s, what a user waits for) and profiled (`--profile`: every action's duration; the
sum over compiles is the compile CPU time, since a compiler is one thread):

  full compile               a comment added to formulas.h, which every generated file includes:
                             every shard's Functions_<k>.cpp and VariableType_<k>.cpp
  formula expression edit    one op's formula rewritten: its shard's Functions_<k>.cpp only
  formula now saving result  one op's node saves another value: Functions_<k>.cpp and
                             VariableType_<k>.cpp (both hold the node's declaration)

What is asserted:
  - the spec's size chose 32 shards (manifest.json), and every one of them holds nodes;
  - each shard's compile reads no other shard's file (its inputs, from the execution log);
  - the full compile recompiles every shard's two files, and each edit only its shard's files;
  - each edit takes at most an eighth of the full compile's wall time, measured in the same run
    (one or two of 64 compiles, plus the codegen and Bazel's own work): a ratio of two figures of
    one machine, so it holds on a slow machine and still fails when an edit stops being local;
  - the edits' codegen ran in gradgen's persistent worker (the execution log's runner), which the
    first build started: the figures are those of a build session's second and later builds.
Issue 14's targets in seconds (the full compile within half of the 136 s before, docs/benchmarks.md's
figure of commit 087b6fd; one edit within 5 s) are printed beside the figures, not asserted: seconds depend on
the machine (the same code and spec measure 83 compile CPU s on the machine docs/benchmarks.md's first
figures came from and 164-176 s on a 2-core EPYC of 2026-12; `bench/scale_bench.py` shows it), and a test
that fails on a slower machine with nothing changed cannot tell a regression from the hardware.
The figures are printed (and are what docs/benchmarks.md reports). The test is exclusive, so no other test
shares the 2 cores while it measures.
"""

import gzip
import json
import os
import re
import time
import unittest
import zlib

import nested_bazel as nb
import scale_spec

OPS = 2000
# What the automatic count chooses for OPS declarations (tools/codegen/contract.py DECLARATIONS_PER_SHARD).
SHARDS = 32
TARGET = "//scale:scale"
FULL_COMPILE_BEFORE_S = 136.0
EDIT_TARGET_S = 5.0
# An edit's wall time against the full compile's, both measured in this run.
EDIT_FRACTION_OF_FULL = 1 / 8


def write_workspace(root: str, checkout: str) -> None:
    functions, derivatives, _ = scale_spec.spec_texts(OPS, "tests/integration/scale_test.py")
    files = {
        "scale/BUILD.bazel": """load("@gradgen//bazel:defs.bzl", "autograd_library")

# shards unset: the spec's size chooses.
autograd_library(
    name = "scale",
    hdrs = ["formulas.h"],
    derivatives = "derivatives.yaml",
    formula_headers = ["scale/formulas.h"],
    formula_namespaces = ["::scale::formulas"],
    functions = "native_functions.yaml",
    namespace = "scale",
)
""",
        "scale/native_functions.yaml": functions,
        "scale/derivatives.yaml": derivatives,
        "scale/formulas.h": scale_spec.FORMULAS_H,
    }
    nb.write_external_workspace(root, "scale_test", checkout, files)


def action_durations(profile_path: str) -> dict:
    """Action description -> seconds, for every action in a `--profile` trace ("Compiling
    scale/generated/Functions_3.cpp", "Generating autograd code from scale/derivatives.yaml")."""
    opener = gzip.open if profile_path.endswith(".gz") else open
    with opener(profile_path, "rt", encoding="utf-8") as fh:
        trace = json.load(fh)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    out = {}
    for e in events:
        if e.get("cat") == "action processing" and e.get("ph") == "X" and "dur" in e:
            out[e["name"]] = out.get(e["name"], 0.0) + e["dur"] / 1e6
    return out


class ScaleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.checkout = nb.gradgen_checkout()
        cls.root = os.path.join(nb.test_tmpdir(), "scale_ws")
        write_workspace(cls.root, cls.checkout)
        cls.derivatives = os.path.join(cls.root, "scale", "derivatives.yaml")
        cls.formulas_h = os.path.join(cls.root, "scale", "formulas.h")
        cls.steps = {}  # step -> (wall s, spawns, {source: compile s})
        cls.bazel = nb.NestedBazel(cls.root, "scale")
        try:
            # Everything the timed builds do not measure: the codegen tool, gradgen's own
            # generated headers (csrc/autograd/formulas.h includes them), this spec's codegen.
            cls.step("first build")
            cls.bazel_bin = cls.bazel.bazel_bin()
            with open(os.path.join(cls.bazel_bin, "scale", "generated", "manifest.json"), encoding="utf-8") as fh:
                cls.manifest = json.load(fh)
            # Every generated file includes formulas.h: a comment edit recompiles all of them and
            # nothing of gradgen's (the first build compiled those too).
            cls.step("full compile", "}  // namespace scale\n", "}  // namespace scale\n// (edited)\n", cls.formulas_h)
            # The op whose formula the edits rewrite: a unary op, `self: unary_backward(grad, self)`.
            cls.edited = scale_spec.op_name(6 * 7)
            cls.edited_shard = zlib.crc32(cls.edited.encode("utf-8")) % cls.manifest["shards"]["count"]
            entry = f"- name: {cls.edited}(Tensor self) -> Tensor\n  self: unary_backward(grad, self)\n"
            cls.step(
                "formula expression edit", entry, entry.replace("(grad, self)", "(unary_backward(grad, self), self)")
            )
            entry = entry.replace("(grad, self)", "(unary_backward(grad, self), self)")
            cls.step("formula now saving result", entry, entry.replace("(grad, self), self)", "(grad, self), result)"))
        finally:
            cls.bazel.shutdown()
        nb.log(cls.report())

    @classmethod
    def step(cls, name: str, old: str = None, new: str = None, path: str = None) -> None:
        if old is not None:
            path = path or cls.derivatives
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            assert text.count(old) == 1, f"{old!r} is not once in {path}"
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text.replace(old, new))
        slug = name.replace(" ", "_")
        profile = os.path.join(nb.test_tmpdir(), slug + ".profile.json")
        t0 = time.monotonic()
        spawns = cls.bazel.build(
            [TARGET], ["--jobs=2", f"--profile={profile}"], exec_log=os.path.join(nb.test_tmpdir(), slug + ".json")
        )
        wall = time.monotonic() - t0
        cls.steps[name] = (wall, spawns, action_durations(profile))
        nb.log(f"{name}: {wall:.1f} s wall; {nb.summarize(spawns)}; compiled {nb.compiled_sources(spawns)}")

    @classmethod
    def report(cls) -> str:
        nodes = len(cls.manifest["nodes"])
        lines = [
            f"scale_test: {OPS} ops, {nodes} nodes, shards {cls.manifest['shards']}; issue 14's targets"
            f" (not asserted, seconds depend on the machine): full compile <= {FULL_COMPILE_BEFORE_S / 2:.0f} s,"
            f" one edit <= {EDIT_TARGET_S:.0f} s"
        ]
        for name, (wall, _spawns, durations) in cls.steps.items():
            ours = {a: d for a, d in durations.items() if re.match(r"Compiling \S*scale/generated/", a)}
            cpu = sum(ours.values())
            codegen = sum(d for a, d in durations.items() if a.startswith("Generating autograd code"))
            slowest = max(ours.values(), default=0.0)
            lines.append(
                f"  {name}: {wall:.1f} s wall; {len(ours)} compiles, {cpu:.1f} s in all, slowest {slowest:.1f} s"
                + (f" ({100 * cpu / nodes:.2f} s per 100 nodes)" if name == "full compile" else "")
                + (f"; codegen {codegen:.1f} s" if codegen else "")
            )
        return "\n".join(lines)

    def test_edits_ran_the_codegen_in_the_persistent_worker(self):
        for step in ("formula expression edit", "formula now saving result"):
            runners = [s.get("runner") for s in self.steps[step][1] if s.get("mnemonic") == "GradgenCodegen"]
            self.assertEqual(["worker"], runners, step)

    def generated_compiles(self, step: str):
        # Every compile of the step (gradgen's own too), named by what follows generated/shards.cc/.
        return sorted(c.split("/scale/generated/shards.cc/", 1)[-1] for c in nb.compiled_sources(self.steps[step][1]))

    def test_spec_size_chose_thirty_two_shards(self):
        self.assertEqual({"count": SHARDS, "automatic": True}, self.manifest["shards"])
        shards = os.path.join(self.bazel_bin, "scale", "generated", "shards.cc")
        self.assertEqual(
            sorted(f"{kind}_{k}.cpp" for kind in ("Functions", "VariableType") for k in range(SHARDS)),
            sorted(os.listdir(shards)),
        )
        for k in range(SHARDS):
            with open(os.path.join(shards, f"Functions_{k}.cpp"), encoding="utf-8") as fh:
                self.assertIn("::apply(", fh.read(), f"shard {k} has no node")

    def test_each_shards_compile_reads_only_its_own_generated_file(self):
        for spawn in self.steps["first build"][1]:
            args = spawn.get("commandArgs", [])
            if (
                spawn.get("mnemonic") != "CppCompile"
                or "-c" not in args
                or "/scale/generated/" not in args[args.index("-c") + 1]
            ):
                continue
            source = args[args.index("-c") + 1]
            generated = sorted(i["path"] for i in spawn.get("inputs", []) if "/scale/generated/shards.cc/" in i["path"])
            self.assertEqual([source], generated, f"inputs of the compile of {source}")

    def test_full_compile_recompiles_every_shards_two_files(self):
        self.assertEqual(
            sorted(f"{kind}_{k}.cpp" for kind in ("Functions", "VariableType") for k in range(SHARDS)),
            self.generated_compiles("full compile"),
        )

    def assert_edit_is_local(self, step: str) -> None:
        limit = self.steps["full compile"][0] * EDIT_FRACTION_OF_FULL
        self.assertLessEqual(self.steps[step][0], limit, self.report())

    def test_expression_edit_compiles_one_file(self):
        step = "formula expression edit"
        self.assertEqual([f"Functions_{self.edited_shard}.cpp"], self.generated_compiles(step))
        self.assert_edit_is_local(step)

    def test_saving_edit_compiles_its_shards_two_files(self):
        step = "formula now saving result"
        k = self.edited_shard
        self.assertEqual([f"Functions_{k}.cpp", f"VariableType_{k}.cpp"], self.generated_compiles(step))
        self.assert_edit_is_local(step)


if __name__ == "__main__":
    nb.main_unittest()
