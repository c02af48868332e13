"""Shared fixtures for the codegen tests: the repository on sys.path, PyTorch's specs, YAML files."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Callable

import pytest

# The repository root, so `tools.codegen` imports however pytest is started.
# The repository root (the source tree, symlinks resolved: under Bazel this finds ../shared beside
# the checkout). It goes on sys.path only when `tools.codegen` is not importable already, so under
# Bazel the tests import the runfiles copies they declared, not the source tree.
REPO = Path(__file__).resolve().parents[2]
# The same root as the test sees it (under Bazel: the runfiles tree), for running declared tools.
TREE = Path(os.path.abspath(__file__)).parents[2]
try:
    import tools.codegen  # noqa: F401
except ImportError:
    sys.path.insert(0, str(REPO))


def pytorch_specs_dir() -> Path:
    """Returns where PyTorch's spec files are: $GRADGEN_PYTORCH_SPECS, else <repo>/../shared/pytorch."""
    env = os.environ.get("GRADGEN_PYTORCH_SPECS")
    return Path(env) if env else REPO.parent / "shared" / "pytorch"


@pytest.fixture
def pytorch_specs() -> Path:
    """The directory holding PyTorch's native_functions.yaml and derivatives.yaml; skips without it."""
    path = pytorch_specs_dir()
    if not (path / "native_functions.yaml").is_file():
        pytest.skip(
            f"PyTorch's spec files are not at {path}; set GRADGEN_PYTORCH_SPECS to the directory "
            "holding native_functions.yaml and derivatives.yaml"
        )
    return path


@pytest.fixture
def write_yaml(tmp_path: Path) -> Callable[[str, str], Path]:
    """Writes YAML text to a file in a temporary directory and returns its path."""

    def write(text: str, name: str = "native_functions.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write
