"""The example's files the docs show (README.md's tour, docs/workspace.md) are the example's files.

The cheap half of //tests/integration:custom_op_example_test, which builds them in a nested Bazel:
here nothing is built, so a block that drifts from examples/custom_op fails in seconds.
"""

import os
import unittest

import doc_blocks
import nested_bazel as nb

_SHOWN = [
    ".bazelrc",
    "WORKSPACE",
    "ops/BUILD.bazel",
    "ops/derivatives.yaml",
    "ops/native_functions.yaml",
    "ops/samples.yaml",
]
_NOT_SHOWN = [
    "ops/polyval_formulas.cc",
    "ops/polyval_formulas.h",
    "ops/polyval_kernels.cc",
    "ops/polyval_test.cc",
    "ops/test_polyval.py",
]


class ExampleBlocksTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.checkout = nb.gradgen_checkout()
        cls.example = os.path.join(cls.checkout, "examples", "custom_op")

    def test_blocks_are_the_example_files(self):
        blocks = doc_blocks.example_blocks(self.checkout)
        self.assertEqual(sorted(blocks), _SHOWN)
        for path, text in blocks.items():
            with open(os.path.join(self.example, path), encoding="utf-8") as fh:
                self.assertEqual(
                    fh.read(), text, f"the docs' block for examples/custom_op/{path} differs from the file"
                )

    def test_the_rest_of_the_example_is_named(self):
        unshown = doc_blocks.unshown_files(self.checkout)
        self.assertEqual(unshown, _NOT_SHOWN)
        files = sorted(
            os.path.relpath(os.path.join(root, f), self.example)
            for root, _, names in os.walk(self.example)
            for f in names
            if not os.path.relpath(root, self.example).startswith("bazel-")
        )
        # The shown and the named files are the example, but for its top-level BUILD.bazel (a comment)
        # and README.md.
        self.assertEqual(sorted(_SHOWN + _NOT_SHOWN + ["BUILD.bazel", "README.md"]), files)


if __name__ == "__main__":
    unittest.main()
