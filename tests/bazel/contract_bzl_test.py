"""bazel/private/contract.bzl is what tools/codegen/contract.py writes, and no other .bzl file
repeats what it defines.

The contract between the rules and the codegen (output names, shard naming, MAX_SHARDS, the C++
keywords, the characters of names and paths) is written once, in Python; the rules load it from
the generated, checked-in contract.bzl. This test regenerates the file in memory and fails, naming
the command that regenerates it, when the checked-in one differs.
"""

import ast
import difflib
import os
import unittest

from tools.codegen import contract


def _root():
    """The main repository's runfiles directory (the checkout when run outside Bazel)."""
    if "TEST_SRCDIR" in os.environ:
        return os.path.join(os.environ["TEST_SRCDIR"], os.environ["TEST_WORKSPACE"])
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _bzl_files(root):
    for dirpath, _, names in os.walk(os.path.join(root, "bazel")):
        for name in sorted(names):
            if name.endswith(".bzl"):
                yield os.path.relpath(os.path.join(dirpath, name), root)


class ContractBzlTest(unittest.TestCase):
    def test_contract_bzl_is_current(self):
        with open(os.path.join(_root(), contract.OUTPUT), encoding="utf-8") as fh:
            actual = fh.read()
        expected = contract.render_bzl()
        if actual != expected:
            diff = "".join(
                difflib.unified_diff(
                    actual.splitlines(True), expected.splitlines(True), contract.OUTPUT, "regenerated", n=1
                )
            )
            self.fail(
                f"{contract.OUTPUT} is not what tools/codegen/contract.py writes: run "
                f"`{contract.REGENERATE}` from the repository root and commit the result.\n{diff[:6000]}"
            )

    def test_the_generated_file_defines_every_constant_as_python_has_it(self):
        # Starlark is Python syntax: each top-level assignment is a literal equal to the constant.
        module = ast.parse(contract.render_bzl())
        values = {
            node.targets[0].id: ast.literal_eval(node.value) for node in module.body if isinstance(node, ast.Assign)
        }
        self.assertEqual(values["MAX_SHARDS"], contract.MAX_SHARDS)
        self.assertEqual(set(values["CPP_KEYWORDS"]), contract.CPP_KEYWORDS)
        self.assertEqual(values["HEADERS"], list(contract.HEADERS))
        self.assertEqual(values["SHARD_SUFFIX"] % 3, contract.shard_suffix(3, 4))
        self.assertIn("class", values["CPP_KEYWORDS"])

    def test_no_other_bzl_file_defines_a_contract_name(self):
        root = _root()
        names = {node.targets[0].id for node in ast.parse(contract.render_bzl()).body if isinstance(node, ast.Assign)}
        files = [p for p in _bzl_files(root) if p != contract.OUTPUT]
        self.assertIn(os.path.join("bazel", "private", "codegen.bzl"), files)
        for path in files:
            with open(os.path.join(root, path), encoding="utf-8") as fh:
                module = ast.parse(fh.read(), path)
            for node in module.body:
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        name = getattr(target, "id", "").lstrip("_")
                        self.assertNotIn(name, names, f"{path}:{node.lineno}: {name} is contract.bzl's; load it")


if __name__ == "__main__":
    unittest.main()
