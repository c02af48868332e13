"""Compares the golden spec's generated files with the checked-in copies in tests/golden/expected.

  golden_files.py EXPECTED_DIR GENERATED_FILE...            exit 1 and a diff when one differs
  golden_files.py --update EXPECTED_DIR GENERATED_FILE...   write them into EXPECTED_DIR instead

As a test (golden_files_test) it fails on any byte of difference, printing the diff and the
command that rewrites the copies: ./bazelw run //tests/golden:update_golden_files. Under
`bazel run`, a relative EXPECTED_DIR is taken from the workspace root.
"""

from __future__ import annotations

import difflib
import os
import sys
from typing import List

UPDATE_COMMAND = "./bazelw run //tests/golden:update_golden_files"


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def compare(expected_dir: str, generated: List[str]) -> List[str]:
    """The problems found: one line per missing, extra or different file, diffs included."""
    problems = []
    names = {os.path.basename(p): p for p in generated}
    expected = sorted(n for n in os.listdir(expected_dir) if not n.startswith("."))
    for name in sorted(set(expected) - set(names)):
        problems.append(f"{name}: checked in but no longer generated")
    for name in sorted(names):
        if name not in expected:
            problems.append(f"{name}: generated but not checked in")
            continue
        want, got = _read(os.path.join(expected_dir, name)), _read(names[name])
        if want != got:
            diff = difflib.unified_diff(
                want.decode("utf-8", "replace").splitlines(keepends=True),
                got.decode("utf-8", "replace").splitlines(keepends=True),
                f"expected/{name}",
                f"generated/{name}",
            )
            problems.append(f"{name}: differs from the checked-in copy\n" + "".join(list(diff)[:200]))
    return problems


def update(expected_dir: str, generated: List[str]) -> None:
    os.makedirs(expected_dir, exist_ok=True)
    keep = {os.path.basename(p) for p in generated}
    for name in os.listdir(expected_dir):
        if name not in keep:
            os.unlink(os.path.join(expected_dir, name))
    for path in generated:
        with open(os.path.join(expected_dir, os.path.basename(path)), "wb") as fh:
            fh.write(_read(path))


def main(argv: List[str]) -> int:
    args = argv[1:]
    do_update = bool(args) and args[0] == "--update"
    if do_update:
        args = args[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    expected_dir, generated = args[0], args[1:]
    if do_update:
        workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
        if workspace and not os.path.isabs(expected_dir):
            expected_dir = os.path.join(workspace, expected_dir)
        update(expected_dir, generated)
        print(f"golden_files: wrote {len(generated)} files to {expected_dir}")
        return 0
    problems = compare(expected_dir, generated)
    for p in problems:
        print(p)
    if problems:
        print(f"\nIf the change is intended, rewrite the checked-in copies with:\n  {UPDATE_COMMAND}")
        return 1
    print(f"golden_files: {len(generated)} files match {expected_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
