"""Incremental builds of an autograd_library with shards = 4, from Bazel's execution log.

A workspace written under $TEST_TMPDIR uses gradgen (local_repository on this checkout) for 16
element-wise ops spread over 4 shards. After one cold build, each step below edits the specs (or
not), rebuilds, and counts the spawns Bazel really executed (--execution_log_json_file lists
executed spawns; local action-cache hits are not spawns):

  no-op rebuild                       no spawn at all
  comment-only edit of derivatives    no CppCompile (the codegen may rerun: same outputs)
  one formula's expression edited     at most 2 CppCompile (expected: that shard's Functions_k.cpp)
  one formula now saving an input     at most 2 CppCompile (expected: Functions_k.cpp and
                                      VariableType_k.cpp, whose shared Functions_k.h changed)

Which generated files changed at each step is printed, so a failure says what the codegen
rewrote needlessly.

Every build also reads and writes a remote cache: BuildGrid (nested_bazel.BuildGridServer, CAS
and ActionCache on loopback). Its last step measures what a remote cache misses after an edit:

  another formula now saving an input, then `bazel clean` and a build from the remote cache:
                                      exactly 2 CppCompile misses (that shard's Functions_k.cpp
                                      and VariableType_k.cpp: Note [Per-shard libraries] in
                                      bazel/private/library.bzl), 1 GradgenCodegen miss; every
                                      other compile, the kernels' included, is a remote hit
"""

import os
import unittest
import zlib

import nested_bazel as nb

SHARDS = 4
OPS = 16
TARGET = "//ops:elementwise"


def shard_of(name: str) -> int:
    # gen_autograd.shard_of: crc32 of the op's base name, modulo the shard count.
    return zlib.crc32(name.encode("utf-8")) % SHARDS


def op_names():
    names = [f"ew{i:02d}" for i in range(OPS)]
    return names


def formula(name: str, factor: float) -> str:
    return f"- name: {name}(Tensor self) -> Tensor\n  self: scale_grad(grad, {factor})\n"


def write_workspace(root: str, checkout: str) -> None:
    files = {
        "ops/BUILD.bazel": f"""load("@gradgen//bazel:defs.bzl", "autograd_library")

autograd_library(
    name = "elementwise",
    srcs = ["kernels.cc", "helpers.cc"],
    hdrs = ["helpers.h"],
    derivatives = "derivatives.yaml",
    formula_headers = ["ops/helpers.h"],
    formula_namespaces = ["::ew::helpers"],
    functions = "native_functions.yaml",
    namespace = "ew",
    shards = {SHARDS},
)
""",
        "ops/native_functions.yaml": "".join(f"- func: {n}(Tensor self) -> Tensor\n" for n in op_names()),
        "ops/derivatives.yaml": "".join(formula(n, i + 1) for i, n in enumerate(op_names())),
        "ops/helpers.h": """#pragma once
#include "csrc/tensor.h"

namespace ew {
namespace helpers {
gradgen::Tensor scale_grad(const gradgen::Tensor& grad, double factor);
gradgen::Tensor mul_grad(const gradgen::Tensor& grad, const gradgen::Tensor& other);
}  // namespace helpers
}  // namespace ew
""",
        "ops/helpers.cc": """#include "ops/helpers.h"

namespace ew {
namespace helpers {
gradgen::Tensor scale_grad(const gradgen::Tensor& grad, double factor) {
  gradgen::Tensor g = grad.contiguous(), out = gradgen::empty(g.sizes());
  for (int64_t i = 0; i < g.numel(); ++i) out.data_ptr<double>()[i] = factor * g.data_ptr<double>()[i];
  return out;
}
gradgen::Tensor mul_grad(const gradgen::Tensor& grad, const gradgen::Tensor& other) {
  gradgen::Tensor g = grad.contiguous(), o = other.contiguous(), out = gradgen::empty(g.sizes());
  for (int64_t i = 0; i < g.numel(); ++i) out.data_ptr<double>()[i] = g.data_ptr<double>()[i] * o.data_ptr<double>()[i];
  return out;
}
}  // namespace helpers
}  // namespace ew
""",
        "ops/kernels.cc": '#include "ops/generated/NativeFunctions.h"\n\nnamespace ew {\nnamespace native {\n'
        + "".join(
            f"gradgen::Tensor {n}(const gradgen::Tensor& self) {{\n"
            f"  gradgen::Tensor in = self.contiguous(), out = gradgen::empty(in.sizes());\n"
            f"  for (int64_t i = 0; i < in.numel(); ++i)\n"
            f"    out.data_ptr<double>()[i] = {i + 1} * in.data_ptr<double>()[i];\n"
            f"  return out;\n}}\n"
            for i, n in enumerate(op_names())
        )
        + "}  // namespace native\n}  // namespace ew\n",
    }
    nb.write_external_workspace(root, "incremental", checkout, files)


class IncrementalBuildTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.checkout = nb.gradgen_checkout()
        cls.root = os.path.join(nb.test_tmpdir(), "incremental_ws")
        write_workspace(cls.root, cls.checkout)
        cls.derivatives = os.path.join(cls.root, "ops", "derivatives.yaml")
        names = op_names()
        per_shard = [sum(1 for n in names if shard_of(n) == k) for k in range(SHARDS)]
        nb.log(f"ops per shard: {per_shard}")
        # The op whose formula the steps edit, and its shard.
        cls.edited = names[5]
        cls.edited_shard = shard_of(cls.edited)
        # A second op, in another shard, whose formula only the remote step edits.
        cls.remote_edited = next(n for n in names if shard_of(n) != cls.edited_shard)
        cls.remote_edited_shard = shard_of(cls.remote_edited)
        cls.steps = {}  # step name -> (spawns, generated files that changed)
        cls.cache = nb.BuildGridServer(os.path.join(nb.test_tmpdir(), "buildgrid")).start()
        cls.remote = [f"--remote_cache={cls.cache.url}", "--remote_timeout=60"]
        cls.bazel = nb.NestedBazel(cls.root, "incremental")
        try:
            cls.step("cold build", None)
            cls.generated_at_cold = cls.generated
            cls.step("no-op rebuild", None)
            cls.step("comment-only edit", cls.edit_comments)
            cls.step("formula expression edit", lambda: cls.replace(formula(cls.edited, 6), formula(cls.edited, 7.5)))
            cls.step(
                "formula now saving self",
                lambda: cls.replace(
                    formula(cls.edited, 7.5),
                    formula(cls.edited, 7.5).replace("scale_grad(grad, 7.5)", "mul_grad(grad, self)"),
                ),
            )
            cls.step("second no-op rebuild", None)
            i = names.index(cls.remote_edited)
            cls.cache_before = cls.cache.action_cache()
            cls.step(
                "clean build from the remote cache after a saving edit",
                lambda: cls.replace(
                    formula(cls.remote_edited, i + 1),
                    formula(cls.remote_edited, i + 1).replace(f"scale_grad(grad, {i + 1})", "mul_grad(grad, self)"),
                ),
                clean=True,
            )
            cls.cache_after = cls.cache.action_cache()
        finally:
            cls.bazel.shutdown()
            cls.cache.stop()

    @classmethod
    def replace(cls, old: str, new: str) -> None:
        with open(cls.derivatives, encoding="utf-8") as fh:
            text = fh.read()
        assert old in text, f"{old!r} not in derivatives.yaml"
        with open(cls.derivatives, "w", encoding="utf-8") as fh:
            fh.write(text.replace(old, new))

    @classmethod
    def edit_comments(cls) -> None:
        # Comments that shift every line below them, one in the middle of the entries too.
        with open(cls.derivatives, encoding="utf-8") as fh:
            lines = fh.read().splitlines(keepends=True)
        lines.insert(0, "# Formulas of the element-wise ops.\n# (a comment-only edit)\n")
        lines.insert(len(lines) // 2, "\n# Second half.\n")
        with open(cls.derivatives, "w", encoding="utf-8") as fh:
            fh.write("".join(lines))

    @classmethod
    def step(cls, name: str, edit, clean: bool = False) -> None:
        if edit:
            edit()
        before = getattr(cls, "generated", {})
        if clean:
            cls.bazel.run("clean")
        spawns = cls.bazel.build(
            [TARGET], cls.remote, exec_log=os.path.join(nb.test_tmpdir(), name.replace(" ", "_") + ".json")
        )
        if not hasattr(cls, "bazel_bin"):
            cls.bazel_bin = cls.bazel.bazel_bin()
        cls.generated = nb.file_digests(os.path.join(cls.bazel_bin, "ops", "generated"))
        changed = sorted(f for f in cls.generated if before.get(f) != cls.generated[f]) if before else ["(all)"]
        cls.steps[name] = (spawns, changed)
        nb.log(
            f"{name}: {nb.summarize(spawns)}; compiled {nb.compiled_sources(spawns)}; "
            f"generated files changed: {changed}; remote cache misses {nb.remote_misses(spawns)}"
        )

    def compiles(self, step: str):
        return nb.compiled_sources(self.steps[step][0])

    def test_ops_spread_over_every_shard(self):
        for k in range(SHARDS):
            with open(os.path.join(self.bazel_bin, "ops", "generated", f"Functions_{k}.cpp"), encoding="utf-8") as fh:
                self.assertIn("::apply(", fh.read(), f"shard {k} has no node")

    def test_cold_build_compiles_every_shard(self):
        compiled = self.compiles("cold build")
        for k in range(SHARDS):
            self.assertTrue(any(c.endswith(f"Functions_{k}.cpp") for c in compiled), compiled)
            self.assertTrue(any(c.endswith(f"VariableType_{k}.cpp") for c in compiled), compiled)

    def test_noop_rebuild_runs_no_action(self):
        for step in ("no-op rebuild", "second no-op rebuild"):
            spawns = self.steps[step][0]
            self.assertEqual([], [s.get("mnemonic") for s in spawns], step)

    def test_comment_only_edit_recompiles_nothing(self):
        spawns, changed = self.steps["comment-only edit"]
        self.assertEqual([], changed, "generated files changed by a comment-only edit of derivatives.yaml")
        self.assertEqual([], self.compiles("comment-only edit"))
        self.assertEqual(["GradgenCodegen"], sorted({s["mnemonic"] for s in spawns}))

    def test_formula_edit_recompiles_at_most_two_translation_units(self):
        for step in ("formula expression edit", "formula now saving self"):
            compiled = self.compiles(step)
            changed = self.steps[step][1]
            self.assertLessEqual(len(compiled), 2, f"{step}: compiled {compiled}; generated files changed: {changed}")
            self.assertGreaterEqual(len(compiled), 1, f"{step}: nothing recompiled")
            for c in compiled:
                self.assertTrue(
                    c.endswith(f"_{self.edited_shard}.cpp"), f"{step}: {c} is not in shard {self.edited_shard}"
                )

    def test_expression_edit_changes_only_its_shards_functions_cpp(self):
        self.assertEqual([f"Functions_{self.edited_shard}.cpp"], self.steps["formula expression edit"][1])

    def test_remote_cache_misses_only_the_edited_shard(self):
        step = "clean build from the remote cache after a saving edit"
        spawns, changed = self.steps[step]
        shard = self.remote_edited_shard
        # The node saves self: its header, apply() and the wrapper that fills it changed.
        self.assertEqual(
            [f"Functions_{shard}.cpp", f"Functions_{shard}.h", f"VariableType_{shard}.cpp", "manifest.json"], changed
        )
        misses = nb.remote_misses(spawns)
        self.assertEqual(1, misses.get("GradgenCodegen"), f"{step}: {nb.summarize(spawns)}")
        self.assertEqual(2, misses.get("CppCompile"), f"{step}: {nb.summarize(spawns)}")
        self.assertEqual(
            [f"ops/generated/Functions_{shard}.cpp", f"ops/generated/VariableType_{shard}.cpp"],
            [c.split("/bin/", 1)[-1] for c in nb.compiled_sources(spawns)],
        )
        # The other shards' and the kernels' compiles (ops/) came from the cache, as did all of
        # gradgen's own (@gradgen//csrc).
        ours = [s for s in spawns if s.get("mnemonic") == "CppCompile" and "-c" in s.get("commandArgs", [])]
        ours = [s for s in ours if "/ops/" in "/" + s["commandArgs"][s["commandArgs"].index("-c") + 1]]
        hits = [s for s in ours if s.get("remoteCacheHit")]
        self.assertEqual(2 * SHARDS + 2, len(ours), f"{step}: {nb.summarize(spawns)}")
        self.assertEqual(2 * SHARDS - 2 + 2, len(hits), f"{step}: {nb.summarize(spawns)}")
        # BuildGrid's own counters agree with Bazel's: one GetActionResult answered per hit.
        served = self.cache_after["hits"] - self.cache_before["hits"]
        self.assertEqual(
            sum(1 for s in spawns if s.get("remoteCacheHit")), served, (self.cache_before, self.cache_after)
        )
        self.assertGreaterEqual(self.cache_after["misses"] - self.cache_before["misses"], 3, self.cache_after)


if __name__ == "__main__":
    nb.main_unittest()
