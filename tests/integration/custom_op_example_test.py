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
helpers, and test the gradients.
"""

import os
import re
import unittest

import doc_blocks
import nested_bazel as nb


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
        finally:
            cls.bazel.shutdown()

    def test_docs_show_the_example_files(self):
        # What the docs show is what was built, and is the example in the repository.
        self.assertEqual(
            sorted(self.shown_files),
            [".bazelrc", "WORKSPACE", "ops/BUILD.bazel", "ops/derivatives.yaml", "ops/native_functions.yaml"],
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
