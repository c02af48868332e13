"""The example's files as the docs show them: blocks marked `<!-- file: examples/custom_op/... -->`.

README.md's tour shows the spec and ops/BUILD.bazel of examples/custom_op, and docs/workspace.md
its WORKSPACE and .bazelrc, each as a fenced block right after a marker naming the file. The
paragraph before ops/BUILD.bazel's block names, in backquotes, the files the docs do not show
(the kernel, the formula helpers, the tests). //tests/integration:custom_op_example_test writes
the blocks and only those files into an empty directory and builds it;
//tests/docs:example_blocks_test checks, without building, that they are the example's files.
"""

import os
import re

# The files holding marked blocks, relative to the checkout.
DOC_FILES = ("README.md", "docs/workspace.md")

_BLOCK = re.compile(r"^<!-- file: examples/custom_op/(\S+) -->\n```\w*\n(.*?)^```$", re.M | re.S)
# The paragraph that names the example's files the docs do not show: "(the kernel
# `polyval_kernels.cc`, the formula helpers `polyval_formulas.cc/.h` and the tests ...)".
_NOT_SHOWN = re.compile(r"^`ops/BUILD.bazel` \((.*?) are in the example\):$", re.M | re.S)


def _texts(checkout):
    texts = {}
    for name in DOC_FILES:
        with open(os.path.join(checkout, name), encoding="utf-8") as fh:
            texts[name] = fh.read()
    return texts


def example_blocks(checkout):
    """{path inside examples/custom_op: text} of the marked blocks; each path shown once."""
    blocks, where = {}, {}
    for name, text in _texts(checkout).items():
        for path, block in _BLOCK.findall(text):
            assert path not in blocks, f"examples/custom_op/{path} is shown twice: in {where[path]} and {name}"
            blocks[path], where[path] = block, name
    return blocks


def unshown_files(checkout):
    """Paths (inside examples/custom_op) of the files the docs name but do not show."""
    matches = [m for text in _texts(checkout).values() for m in _NOT_SHOWN.finditer(text)]
    assert len(matches) == 1, (
        f"{' or '.join(DOC_FILES)} should name the example's files they do not show once, in the "
        f"paragraph before ops/BUILD.bazel's block (found {len(matches)}; see doc_blocks._NOT_SHOWN)"
    )
    paths = []
    for name in re.findall(r"`([^`]+)`", matches[0].group(1)):
        if name.endswith(".cc/.h"):  # polyval_formulas.cc/.h
            paths += ["ops/" + name[: -len("/.h")], "ops/" + name[: -len(".cc/.h")] + ".h"]
        else:
            paths.append("ops/" + name)
    return sorted(paths)
