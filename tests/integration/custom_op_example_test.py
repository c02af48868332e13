"""examples/custom_op, a workspace of its own, builds and passes its tests from the docs' text.

The workspace is made the way a reader of the docs would make it, in an empty directory: every
block that README.md's tour and docs/workspace.md mark with a file name (`<!-- file:
examples/custom_op/... -->` before it, read by //tests/docs:doc_blocks) is written as that file,
and the only other files are the ones the text says it does not show and names as in the
example (the kernel, the formula helpers and the two tests, each named in backquotes in the
paragraph before ops/BUILD.bazel), copied from examples/custom_op.
Its `local_repository(name = "gradgen", path = "../..")` is pointed at this work tree, and
`bazel test //...` runs in it in a nested Bazel. No other file of the example (its .bazelrc
included) reaches the build, so a line the docs leave out breaks this test.
This is what a user does: load @gradgen//bazel:defs.bzl, write a spec, a kernel and formula
helpers, and test the gradients. Then each formula of ops/derivatives.yaml is broken in turn
(MUTATIONS) and the generated :polyval_ops_gradcheck_test must fail naming the op and the input.
Last, `bazel run @gradgen//tools:compile_commands` writes compile_commands.json, and Debian's
clangd (`clangd --check`) reads a generated Functions.cpp through it without an error.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import unittest

import doc_blocks
import nested_bazel as nb

# Mutations of ops/derivatives.yaml the generated gradient test (:polyval_ops_gradcheck_test) must
# catch, each with the start of the failure line it must print (op, sample, input): a sign flip of
# either formula, and coeffs[0]'s gradient (grad * x^0) in x's slot.
_FORMULA_COEFFS = "coeffs: polyval_coeffs_backward(grad, x, coeffs.size())"
_FORMULA_X = "x: polyval_x_backward(grad, coeffs, x)"
MUTATIONS = {
    "coeffs sign flip": (
        (_FORMULA_COEFFS, "coeffs: polyval_coeffs_backward(-grad, x, coeffs.size())"),
        "FAIL polyval sample 1 (coeffs: 1 x [4], x: [4]): d/d coeffs[0]: analytical vs numerical differ at [",
    ),
    "x sign flip": (
        (_FORMULA_X, "x: -polyval_x_backward(grad, coeffs, x)"),
        "FAIL polyval sample 1 (coeffs: 2 x [4], x: [4]): d/d x: analytical vs numerical differ at [",
    ),
    "coeffs[0]'s gradient in x's slot": (
        (_FORMULA_X, "x: grad"),
        "FAIL polyval sample 1 (coeffs: 1 x [4], x: [4]): d/d x: analytical vs numerical differ at [",
    ),
}


class CustomOpExampleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.checkout = nb.gradgen_checkout()
        cls.workspace = os.path.join(nb.test_tmpdir(), "somewhere", "custom_op")
        cls.shown_files = doc_blocks.example_blocks(cls.checkout)
        cls.unshown = doc_blocks.unshown_files(cls.checkout)
        example = os.path.join(cls.checkout, "examples", "custom_op")
        files = dict(cls.shown_files)
        for path in cls.unshown:
            with open(os.path.join(example, path), encoding="utf-8") as fh:
                files[path] = fh.read()
        for path, text in files.items():
            full = os.path.join(cls.workspace, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as fh:
                fh.write(text)
        workspace_file = os.path.join(cls.workspace, "WORKSPACE")
        with open(workspace_file, encoding="utf-8") as fh:
            text = fh.read()
        text, n = re.subn(r'path = "\.\./\.\."', 'path = "%s"' % cls.checkout, text)
        assert n == 1, 'examples/custom_op/WORKSPACE should say path = "../.." once'
        with open(workspace_file, "w", encoding="utf-8") as fh:
            fh.write(text)
        cls.bazel = nb.NestedBazel(cls.workspace, "example")
        cls.error = None
        try:
            cls.bazel.build(["//..."], command="test")
        except nb.BazelError as e:
            cls.error = e
        try:
            cls.bazel_bin = cls.bazel.bazel_bin()
            cls.testlogs = os.path.join(os.path.dirname(cls.bazel_bin), "testlogs")
            # The generated tests' logs of the unmutated example, read before the mutations
            # below run the same tests again.
            cls.gradcheck_log = cls.py_gradcheck_log = ""
            if os.path.exists(cls._gradcheck_log()):
                with open(cls._gradcheck_log(), encoding="utf-8") as fh:
                    cls.gradcheck_log = fh.read()
            if os.path.exists(cls._gradcheck_log("polyval_ops_py_gradcheck_test")):
                with open(cls._gradcheck_log("polyval_ops_py_gradcheck_test"), encoding="utf-8") as fh:
                    cls.py_gradcheck_log = fh.read()
            cls.mutated = {} if cls.error else cls._run_mutations()
            cls.compile_commands = None if cls.error else cls._compile_commands()
        finally:
            cls.bazel.shutdown()

    @classmethod
    def _gradcheck_log(cls, test="polyval_ops_gradcheck_test"):
        return os.path.join(cls.testlogs, "ops", test, "test.log")

    @classmethod
    def _run_mutations(cls):
        """{mutation: (exit status, C++ test log, Python test log)} of :polyval_ops_gradcheck_test
        and :polyval_ops_py_gradcheck_test on each mutated derivatives.yaml; the original is
        restored and rebuilt after."""
        path = os.path.join(cls.workspace, "ops", "derivatives.yaml")
        with open(path, encoding="utf-8") as fh:
            original = fh.read()
        results = {}
        try:
            for name, ((old, new), _) in MUTATIONS.items():
                assert original.count(old) == 1, f"ops/derivatives.yaml no longer holds {old!r}"
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(original.replace(old, new))
                proc = cls.bazel.run(
                    "test",
                    ["--keep_going", "--", "//ops:polyval_ops_gradcheck_test", "//ops:polyval_ops_py_gradcheck_test"],
                    check=False,
                )
                logs = []
                for log in (cls._gradcheck_log(), cls._gradcheck_log("polyval_ops_py_gradcheck_test")):
                    with open(log, encoding="utf-8") as fh:
                        logs.append(fh.read())
                results[name] = (proc.returncode, *logs)
        finally:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(original)
            cls.bazel.build(["//ops:all"])
        return results

    @classmethod
    def _compile_commands(cls):
        """(the tool's run, compile_commands.json's entries or None). The tool's own Bazel calls go
        to this test's server, with the same startup options and flags as the other builds."""
        startup = " ".join(shlex.quote(a) for a in cls.bazel._startup())
        args = ["@gradgen//tools:compile_commands", "--", f"--bazel={startup}", "//...", "--"]
        proc = cls.bazel.run("run", args + cls.bazel.common_flags(), check=False)
        path = os.path.join(cls.workspace, "compile_commands.json")
        entries = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                entries = json.load(fh)
        cls.execution_root = cls.bazel.run("info", ["execution_root"]).stdout.strip().splitlines()[-1]
        return proc, entries

    def _entries(self):
        if self.error:
            self.skipTest("the example did not build")
        proc, entries = self.compile_commands
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:])
        self.assertIsNotNone(entries, "no compile_commands.json at the workspace root")
        return entries

    def test_compile_commands_are_bazels_and_resolve_from_the_workspace_root(self):
        entries = self._entries()
        files = [e["file"] for e in entries]
        generated = [f for f in files if f.startswith("bazel-out/") and "/ops/generated/" in f]
        # The example's own sources, its generated shards and gradgen's runtime (external/gradgen).
        self.assertIn("ops/polyval_kernels.cc", files)
        self.assertTrue(any(f.endswith("shards.cc/Functions_0.cpp") for f in generated), files)
        self.assertTrue(any(f.endswith("python_shards.cc/python_functions_0.cpp") for f in generated), files)
        self.assertTrue(any(f.startswith("external/gradgen/csrc/") for f in files), files)
        for e in entries:
            with self.subTest(e["file"]):
                self.assertEqual(e["directory"], self.workspace)
                self.assertTrue(os.path.exists(os.path.join(self.workspace, e["file"])), e["file"])
                args = e["arguments"]
                self.assertEqual(args[args.index("-c") + 1], e["file"])
                # Every include directory Bazel passes that exists where Bazel compiles (its
                # execution root; some it passes never exist) exists from the root too (bazel-out/,
                # external/), so the editor sees the headers the compiler sees.
                for flag, value in zip(args, args[1:]):
                    if flag in ("-iquote", "-isystem", "-I") and os.path.isdir(
                        os.path.join(self.execution_root, value)
                    ):
                        self.assertTrue(os.path.isdir(os.path.join(self.workspace, value)), f"{flag} {value}")

    def test_clangd_checks_a_generated_file_without_errors(self):
        entries = self._entries()
        clangd = shutil.which("clangd")
        self.assertIsNotNone(clangd, "clangd is not installed (./bazelw installs Debian's clangd)")
        target = next(e["file"] for e in entries if e["file"].endswith("/ops/generated/shards.cc/Functions_0.cpp"))
        proc = subprocess.run(
            [clangd, f"--check={target}", f"--compile-commands-dir={self.workspace}"],
            cwd=self.workspace,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=600,
        )
        errors = [line for line in proc.stdout.splitlines() if line.startswith("E[")]
        self.assertEqual(errors, [], proc.stdout[-4000:])
        self.assertIn("All checks completed, 0 errors", proc.stdout)

    def test_docs_show_the_example_files(self):
        # What the docs show is what was built, and is the example in the repository.
        self.assertEqual(
            sorted(self.shown_files),
            [
                ".bazelrc",
                "WORKSPACE",
                "ops/BUILD.bazel",
                "ops/derivatives.yaml",
                "ops/native_functions.yaml",
                "ops/samples.yaml",
            ],
        )
        for path, text in self.shown_files.items():
            with open(os.path.join(self.checkout, "examples", "custom_op", path), encoding="utf-8") as fh:
                self.assertEqual(
                    fh.read(), text, f"the docs' block for examples/custom_op/{path} differs from the file"
                )

    def test_the_workspace_is_the_docs_and_the_files_they_name(self):
        self.assertEqual(
            [
                "ops/polyval_formulas.cc",
                "ops/polyval_formulas.h",
                "ops/polyval_kernels.cc",
                "ops/polyval_test.cc",
                "ops/test_polyval.py",
            ],
            self.unshown,
        )
        written = sorted(
            os.path.relpath(os.path.join(root, f), self.workspace)
            for root, _, names in os.walk(self.workspace)
            for f in names
            if not os.path.relpath(root, self.workspace).startswith("bazel-")
        )
        # What //tools:compile_commands wrote after the build is no file of the docs.
        written = [f for f in written if f != "compile_commands.json"]
        self.assertEqual(sorted(list(self.shown_files) + self.unshown), written)

    def test_bazel_test_passes(self):
        if self.error:
            self.fail(str(self.error))

    def test_gtest_checked_gradients_and_slots(self):
        path = os.path.join(self.testlogs, "ops", "polyval_test", "test.log")
        self.assertTrue(os.path.exists(path), path)
        with open(path, encoding="utf-8") as fh:
            log = fh.read()
        for test in (
            "PolyvalGradcheckTest.MatchesFiniteDifferencesForOneTwoAndThreeCoefficients",
            "PolyvalSlotsTest.XIsSlot2WithTwoCoefficientsAndSlot3WithThree",
        ):
            self.assertIn("[       OK ] " + test, log)
        self.assertRegex(log, r"\[  PASSED  \] \d+ tests\.")

    def test_the_generated_gradient_test_ran_every_sample(self):
        # test_samples = "samples.yaml": the cc_test generated from README's samples, lengths 1, 2
        # and 3 of the first sample's coefficients, one case each for the other two.
        for case in (
            "ok   polyval sample 1 (coeffs: 1 x [4], x: [4])",
            "ok   polyval sample 1 (coeffs: 2 x [4], x: [4])",
            "ok   polyval sample 1 (coeffs: 3 x [4], x: [4])",
            "ok   polyval sample 2 (coeffs: 2 x [2, 3], x: [2, 3])",
            "ok   polyval sample 3 (coeffs: 3 x [3], x: [3])",
        ):
            self.assertIn(case, self.gradcheck_log)
        self.assertIn("5 cases: 5 passed, 0 failed, 0 skipped; 0 declarations without samples", self.gradcheck_log)

    def test_the_generated_gradient_test_catches_each_mutated_formula(self):
        if self.error:
            self.skipTest("the example did not build")
        self.assertEqual(sorted(self.mutated), sorted(MUTATIONS))
        for name, (status, log, py_log) in self.mutated.items():
            with self.subTest(name):
                self.assertEqual(status, 3, f"bazel test should report a failed test (exit 3):\n{log}")
                self.assertIn(MUTATIONS[name][1], log)
                # The same samples through the Python bindings: the same line, as pytest's AssertionError.
                self.assertIn(MUTATIONS[name][1].removeprefix("FAIL "), py_log)
                self.assertRegex(py_log, r"\b[1-5] failed\b")

    def test_the_generated_python_gradient_test_passes(self):
        # python_module and test_samples together: :polyval_ops_py_gradcheck_test, the same five
        # cases through polyval_ops_py.polyval (gradgen.testing.run_case).
        log = self.py_gradcheck_log
        self.assertRegex(log, r"\b6 passed\b")  # five cases and the missing-samples check
        self.assertNotIn("failed", log)

    def test_polyval_is_callable_from_python(self):
        # python_module = "polyval_ops_py": the generated bindings, a module sharing gradgen._C's
        # runtime, and pytest through @gradgen//bazel:defs.bzl's py_pytest.
        path = os.path.join(self.testlogs, "ops", "polyval_py_test", "test.log")
        self.assertTrue(os.path.exists(path), path)
        with open(path, encoding="utf-8") as fh:
            log = fh.read()
        self.assertRegex(log, r"\b4 passed\b")
        self.assertNotIn("failed", log)

    def test_kernel_implements_the_generated_declaration(self):
        with open(os.path.join(self.bazel_bin, "ops", "generated", "NativeFunctions.h"), encoding="utf-8") as fh:
            native = fh.read()
        # custom_op::native::polyval, which ops/polyval_kernels.cc defines.
        self.assertRegex(
            native,
            r"namespace custom_op \{\n(.*\n)*namespace native \{\n(.*\n)*"
            r"Tensor polyval\(TensorList coeffs, const Tensor& x\);",
        )
        with open(
            os.path.join(self.bazel_bin, "ops", "generated", "shards.cc", "Functions_0.cpp"), encoding="utf-8"
        ) as fh:
            functions = fh.read()
        self.assertIn('#include "ops/polyval_formulas.h"', functions)
        self.assertIn("using namespace ::custom_op::formulas;", functions)


if __name__ == "__main__":
    nb.main_unittest()
