"""docs/ops.md's index is what tools/docs/gen_ops_index.py writes from specs/: every declaration
gradgen ships is on the page, with the counts, and a declaration added or removed without
regenerating the index fails here, naming the command that regenerates it."""

import difflib
import os
import re
import unittest

import gen_ops_index as gen


def _root():
    """The main repository's runfiles directory (the checkout when run outside Bazel)."""
    if "TEST_SRCDIR" in os.environ:
        return os.path.join(os.environ["TEST_SRCDIR"], os.environ["TEST_WORKSPACE"])
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class OpsIndexTest(unittest.TestCase):
    def test_index_is_current(self):
        root = _root()
        expected = gen.render(root)
        with open(os.path.join(root, gen.OUTPUT), encoding="utf-8") as fh:
            actual = fh.read()
        if actual != expected:
            diff = "".join(
                difflib.unified_diff(actual.splitlines(True), expected.splitlines(True), gen.OUTPUT, "regenerated", n=1)
            )
            self.fail(f"{gen.OUTPUT}'s index is not specs/': run `{gen.REGENERATE}` and commit.\n{diff[:6000]}")

    def test_the_index_lists_every_declaration_once(self):
        root = _root()
        with open(os.path.join(root, gen.DECLARATIONS), encoding="utf-8") as fh:
            names = [m.group(1) + (m.group(2) or "") for m in gen._FUNC.finditer(fh.read())]
        index = gen.render_index(root)
        self.assertGreater(len(names), 400)
        for name in names:
            self.assertEqual(index.count(f"`{name}`"), 1, name)
        # In-place variants sit with their op; a reflected operator with its own.
        self.assertIn("- **add**: `add.Tensor`", index)
        self.assertRegex(index, r"- \*\*add\*\*: .*`add_\.Tensor`")

    def test_the_readme_figure_counts_what_specs_declares(self):
        root = _root()
        index = gen.render_index(root)
        declarations, entries = re.search(
            r"(\d+) declarations of \d+ ops .*?, (\d+) derivative entries", index
        ).groups()
        with open(os.path.join(root, "README.md"), encoding="utf-8") as fh:
            row = next(line for line in fh if line.startswith("| ops in `specs/`"))
        self.assertIn(f"| {int(declarations):,} declarations, {entries} derivative entries |", row)


if __name__ == "__main__":
    unittest.main()
