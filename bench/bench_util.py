"""What the Python benchmarks share: where the workspace and the runfiles are, how the codegen is
launched, and the environment a Bazel action gives it."""

from __future__ import annotations

import os
import re
import sys
from typing import Dict, List, Optional


def say(msg: str = "") -> None:
    print(msg, flush=True)


def workspace_dir() -> str:
    """The work tree: `bazel run` says where it is; runfiles symlink into it otherwise."""
    ws = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    if ws:
        return ws
    return os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def runfiles_dir() -> Optional[str]:
    # The main script's path as run (this module may be imported from the source tree, since
    # Python puts the script's resolved directory on sys.path).
    here = os.path.abspath(sys.argv[0])
    m = re.match(r"(.*\.runfiles)/", here)
    if m:
        return m.group(1)
    d = os.environ.get("RUNFILES_DIR")
    return d if d and os.path.isdir(d) else None


def codegen_launcher() -> Optional[str]:
    """The codegen exactly as the autograd_codegen rule runs it (the py_binary launcher), if present."""
    runfiles = runfiles_dir()
    if runfiles:
        launcher = os.path.join(runfiles, "gradgen", "tools", "codegen", "gen_autograd")
        if os.path.exists(launcher):
            return launcher
    return None


def codegen_command() -> List[str]:
    """The launcher from runfiles, else `python3 tools/codegen/gen_autograd.py` in the work tree."""
    launcher = codegen_launcher()
    if launcher:
        return [launcher]
    return [sys.executable, os.path.join(workspace_dir(), "tools", "codegen", "gen_autograd.py")]


def action_env(extra: Optional[Dict[str, str]] = None, keep_pythonpath: bool = False) -> Dict[str, str]:
    """The environment of a Bazel action (see .bazelrc): fixed PATH, no bytecode written."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "RUNFILES", "BUILD_"))}
    env.update(
        PATH="/bin:/usr/bin:/usr/local/bin",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONNOUSERSITE="1",
        PYTHONHASHSEED="0",
    )
    if keep_pythonpath and "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    env.update(extra or {})
    return env
