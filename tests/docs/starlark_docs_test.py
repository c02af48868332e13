"""docs/starlark.md is what tools/docs/gen_starlark_docs.py writes from the .bzl files' doc strings.

The reference is generated (Stardoc is out of reach offline) and checked in, so that it can be read
without building anything; this test regenerates it in memory from the .bzl files in its runfiles
and fails, naming the command that regenerates it, when the checked-in file differs.
"""

import difflib
import os
import unittest

import gen_starlark_docs as gen


def _root():
    """The main repository's runfiles directory (the checkout when run outside Bazel)."""
    if "TEST_SRCDIR" in os.environ:
        return os.path.join(os.environ["TEST_SRCDIR"], os.environ["TEST_WORKSPACE"])
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class StarlarkDocsTest(unittest.TestCase):
    def test_reference_is_current(self):
        root = _root()
        expected = gen.render(root)
        with open(os.path.join(root, gen.OUTPUT), encoding="utf-8") as fh:
            actual = fh.read()
        if actual != expected:
            diff = "".join(
                difflib.unified_diff(actual.splitlines(True), expected.splitlines(True), gen.OUTPUT, "regenerated", n=1)
            )
            self.fail(
                f"{gen.OUTPUT} is not what the .bzl files' doc strings give: run `{gen.REGENERATE}` "
                f"from the repository root and commit the result.\n{diff[:6000]}"
            )

    def test_every_public_name_is_documented(self):
        # The core of what defs.bzl and repositories.bzl export, each with its own section (a
        # renderer that skipped a kind of definition would drop it silently).
        text = gen.render(_root())
        for name in ("autograd_library", "autograd_codegen", "AutogradCodegenInfo", "gradgen_dependencies"):
            self.assertIn(f"\n### `{name}`\n", text)

    def test_undocumented_argument_is_an_error(self):
        # A macro argument missing from its docstring's Args: fails the generation, naming it.
        tmp = os.environ.get("TEST_TMPDIR") or __import__("tempfile").mkdtemp()
        os.makedirs(os.path.join(tmp, "bazel"), exist_ok=True)
        with open(os.path.join(tmp, "bazel", "defs.bzl"), "w", encoding="utf-8") as fh:
            fh.write('"""Doc."""\n\ndef my_macro(name, extra = 1):\n')
            fh.write('    """Does.\n\n    Args:\n      name: str: n.\n    """\n')
        with open(os.path.join(tmp, "bazel", "repositories.bzl"), "w", encoding="utf-8") as fh:
            fh.write('"""Doc."""\n')
        with self.assertRaisesRegex(gen.DocError, r"bazel/defs.bzl:3: my_macro's docstring has no entry for `extra`"):
            gen.render(tmp)

    def test_a_doc_may_format_loaded_constants(self):
        # `"..." % (NAME, ...)` with names loaded from another file (as codegen.bzl quotes
        # contract.bzl's MAX_SHARDS) renders with their values; a non-constant is an error.
        tmp = os.path.join(os.environ.get("TEST_TMPDIR") or __import__("tempfile").mkdtemp(), "fmt")
        os.makedirs(os.path.join(tmp, "bazel", "private"), exist_ok=True)
        files = {
            "bazel/private/limits.bzl": 'MOST = 12\nDIR = "out.cc"\n',
            "bazel/defs.bzl": (
                '"""Doc."""\n\nload("//bazel/private:limits.bzl", "DIR", "MOST")\n\n'
                'r = rule(implementation = _impl, doc = "Rule.", attrs = {\n'
                '    "n": attr.int(doc = "int: up to %d, in `%s/`." % (MOST, DIR)),\n})\n'
            ),
            "bazel/repositories.bzl": '"""Doc."""\n',
        }
        for path, text in files.items():
            with open(os.path.join(tmp, path), "w", encoding="utf-8") as fh:
                fh.write(text)
        self.assertIn("| `n` | int | `0` | up to 12, in `out.cc/`. |", gen.render(tmp))
        with open(os.path.join(tmp, "bazel/private/limits.bzl"), "w", encoding="utf-8") as fh:
            fh.write('MOST = [12]\nDIR = "out.cc"\n')
        with self.assertRaisesRegex(gen.DocError, r"bazel/defs.bzl:6: expected an int or a string, found `MOST`"):
            gen.render(tmp)


if __name__ == "__main__":
    unittest.main()
