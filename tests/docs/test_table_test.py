"""docs/development.md's table of the tests names every test target the BUILD files declare.

The table is how a contributor finds where a kind of test lives; issue 22 found it stale (ten
targets missing). Targets written in a BUILD file (`name = "x_test"`, or a list of names a loop
declares) must be in their directory's row, by name or by a `prefix_*` pattern; targets that a
macro names (the integration tests, tests/bazel's analysis tests) are only as good as the row.
"""

import fnmatch
import os
import re
import unittest

import nested_bazel as nb

_ROW = re.compile(r"^\| `([^`]+)/` \| (.*?) \|", re.M)
_NAME = re.compile(r'^\s*(?:name = )?"(\w+_test)",?$', re.M)
# Not part of gradgen's workspace (a workspace of its own) or not source.
_SKIP = ("bazel-", ".git", "examples/custom_op")


def documented(text):
    """{directory: [target names or patterns]} from the table's rows."""
    return {d: re.findall(r"`([\w*]+)`", targets) for d, targets in _ROW.findall(text)}


def declared(checkout):
    """{directory: sorted test names} written in the BUILD.bazel files of the checkout."""
    found = {}
    for root, dirs, files in os.walk(checkout):
        rel = os.path.relpath(root, checkout)
        dirs[:] = [d for d in dirs if not os.path.join(rel, d).lstrip("./").startswith(_SKIP)]
        if "BUILD.bazel" in files:
            with open(os.path.join(root, "BUILD.bazel"), encoding="utf-8") as fh:
                names = sorted(set(_NAME.findall(fh.read())))
            if names:
                found[rel] = names
    return found


def undocumented(checkout):
    with open(os.path.join(checkout, "docs", "development.md"), encoding="utf-8") as fh:
        table = documented(fh.read())
    missing = []
    for directory, names in sorted(declared(checkout).items()):
        row = table.get(directory, [])
        missing += [f"{directory}: {n}" for n in names if not any(fnmatch.fnmatchcase(n, p) for p in row)]
    return missing


class TestTableTest(unittest.TestCase):
    def test_every_declared_test_is_in_the_table(self):
        self.assertEqual([], undocumented(nb.gradgen_checkout()))

    def test_a_missing_target_is_found(self):
        tmp = os.environ.get("TEST_TMPDIR") or __import__("tempfile").mkdtemp()
        os.makedirs(os.path.join(tmp, "docs"), exist_ok=True)
        os.makedirs(os.path.join(tmp, "t", "a"), exist_ok=True)
        with open(os.path.join(tmp, "docs", "development.md"), "w", encoding="utf-8") as fh:
            fh.write("| dir | targets |\n| --- | --- |\n| `t/a/` | `one_test`, `bad_*` | what |\n")
        with open(os.path.join(tmp, "t", "a", "BUILD.bazel"), "w", encoding="utf-8") as fh:
            fh.write('x(\n    name = "one_test",\n)\n[y(name = n) for n in [\n    "two_test",\n    "bad_x_test",\n]]\n')
        self.assertEqual(["t/a: two_test"], undocumented(tmp))


if __name__ == "__main__":
    unittest.main()
