"""The codegen's one-way structure, and the defaults that live in two languages.

* Emitters (gen_*.py) print what the analysis decided: they read no formula text (no `re`)
  and report no spec mistakes (no `raise SpecError`); tools/codegen/autograd_info.py is where
  those facts and checks live.
* The formula header and namespace gradgen always passes are written once, in
  tools/codegen/contract.py (DEFAULT_FORMULA_*): the defaults of generate() and of the flags are
  they. (The rule loads them from the generated bazel/private/contract.bzl, which
  //tests/bazel:contract_bzl_test keeps current.)
"""

from __future__ import annotations

import ast
import inspect
import re

import pytest
from conftest import TREE

from tools.codegen import gen_autograd

# Every emitter and driver: tools/codegen/gen_*.py.
EMITTERS = sorted(p.name for p in (TREE / "tools" / "codegen").glob("gen_*.py"))


def test_the_emitters_are_found():
    assert {"gen_autograd.py", "gen_autograd_functions.py", "gen_variable_type.py"} <= set(EMITTERS)


def _tree(name: str) -> ast.Module:
    return ast.parse((TREE / "tools" / "codegen" / name).read_text(), name)


@pytest.mark.parametrize("name", EMITTERS)
def test_emitters_import_no_re(name):
    imported = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert "re" not in imported


@pytest.mark.parametrize("name", EMITTERS)
def test_emitters_raise_no_spec_error(name):
    raised = [
        node.lineno
        for node in ast.walk(_tree(name))
        if isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and getattr(node.exc.func, "id", getattr(node.exc.func, "attr", None)) == "SpecError"
    ]
    assert raised == [], f"{name} raises SpecError at lines {raised}"


def test_formula_defaults_agree_between_generate_and_flags():
    params = inspect.signature(gen_autograd.generate).parameters
    assert tuple(params["formula_headers"].default) == gen_autograd.DEFAULT_FORMULA_HEADERS
    assert tuple(params["formula_namespaces"].default) == gen_autograd.DEFAULT_FORMULA_NAMESPACES
    flags = gen_autograd.FLAGS
    assert tuple(flags["formula_header"].default) == gen_autograd.DEFAULT_FORMULA_HEADERS
    assert tuple(flags["formula_namespace"].default) == gen_autograd.DEFAULT_FORMULA_NAMESPACES


@pytest.mark.parametrize("name", ["csrc/tensor.h", "csrc/tensor.cc"])
def test_the_tensor_layer_includes_nothing_of_autograd(name):
    """The runtime's layers (docs/architecture.md): the tensor sits below the autograd core and
    knows nodes only by declaration (autograd::Node, autograd::node_name)."""
    includes = re.findall(r'^#include "([^"]+)"', (TREE / name).read_text(), re.M)
    assert [i for i in includes if i.startswith("csrc/autograd/")] == []
