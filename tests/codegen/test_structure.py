"""The codegen's one-way structure, and the defaults that live in two languages.

* Emitters (gen_*.py) print what the analysis decided: they read no formula text (no `re`)
  and report no spec mistakes (no `raise SpecError`); the loaders and the plan stage
  (tools/codegen/plan.py, which runs autograd_info.py's analysis) are where those facts and
  checks live, and nothing they import, however indirectly, is an emitter.
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


@pytest.mark.parametrize("name", EMITTERS)
def test_emitters_decide_no_python_bindability(name):
    # Which declarations Python can call is planned (python.bindings, Plan.python); an emitter
    # that catches Unbindable is deciding it again.
    handled = [
        node.lineno
        for node in ast.walk(_tree(name))
        if isinstance(node, ast.ExceptHandler) and node.type is not None and "Unbindable" in ast.unparse(node.type)
    ]
    assert handled == [], f"{name} catches Unbindable at lines {handled}"


# The stages before the emitters: loading (model.py, the loaders) and planning (plan.py and the
# analysis it runs). The only modules that may report a mistake in the specs.
SPEC_ERROR_MODULES = {
    "autogen.py",
    "autograd_info.py",
    "load_derivatives.py",
    "load_native_functions.py",
    "load_samples.py",
    "plan.py",
    "yaml_loader.py",
}


def _codegen_imports(name: str) -> set:
    """The tools.codegen modules `name` imports, as file names."""
    found = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.ImportFrom) and node.module == "tools.codegen":
            found |= {a.name + ".py" for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tools.codegen."):
            found.add(node.module.rsplit(".", 1)[1] + ".py")
    return {n for n in found if (TREE / "tools" / "codegen" / n).exists()}


def _reachable(name: str) -> set:
    seen, todo = set(), [name]
    while todo:
        for n in _codegen_imports(todo.pop()) - seen:
            seen.add(n)
            todo.append(n)
    return seen


def test_the_plan_stage_reaches_no_emitter():
    # Transitively: nothing the analysis imports prints code, so no fact is decided while printing.
    for name in sorted(SPEC_ERROR_MODULES):
        emitters = sorted(n for n in _reachable(name) if n.startswith("gen_"))
        assert emitters == [], f"{name} reaches the emitters {emitters}"


def test_spec_errors_are_raised_only_while_loading_and_planning():
    modules = sorted(p.name for p in (TREE / "tools" / "codegen").glob("*.py"))
    raising = {
        name
        for name in modules
        for node in ast.walk(_tree(name))
        if isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and getattr(node.exc.func, "id", getattr(node.exc.func, "attr", None)) == "SpecError"
    }
    assert raising - SPEC_ERROR_MODULES == set()
    # And the emitters are handed a plan: the wrappers' forward-mode decision is made in plan().
    assert "plan.py" in _codegen_imports("gen_autograd.py")
    assert "forward_ad_of" not in (TREE / "tools" / "codegen" / "gen_variable_type.py").read_text()


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


def _codegen_modules() -> list:
    return sorted(p.name for p in (TREE / "tools" / "codegen").glob("*.py"))


def test_kinds_are_enums():
    """A plan value's `kind` (saved member, wrapper, forward-mode code, Python return and
    variant) is an enum, so a misspelt kind fails where it is made, not as a silently skipped
    template branch."""
    found = [
        f"{name}:{node.lineno}"
        for name in _codegen_modules()
        for node in ast.walk(_tree(name))
        if isinstance(node, ast.AnnAssign)
        and getattr(node.target, "id", "").endswith("kind")
        and getattr(node.annotation, "id", None) == "str"
    ]
    assert found == [], f"`kind: str` fields: {found}"


def test_the_list_size_member_is_named_in_one_place():
    # `<name>_size_`, the node member keeping a Tensor[]'s length: autograd_info.list_size_member;
    # every other module and template asks it (issue 22 found it built in six places).
    templates = sorted((TREE / "tools" / "codegen" / "templates").iterdir())
    spelling = re.compile(r"""_size_['"}]""")
    where = [p.name for p in templates if spelling.search(p.read_text())]
    where += [n for n in _codegen_modules() if spelling.search((TREE / "tools" / "codegen" / n).read_text())]
    assert where == ["autograd_info.py"]


# The longest function the codegen and the rule set may hold (the project's ~80-line rule; issue
# 22 found ten longer). Starlark parses as Python, so one ast walk measures the codegen, the rule
# set and the Python package.
MAX_FUNCTION_LINES = 80


def _function_lengths(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, node.end_lineno - node.lineno + 1


def test_no_function_is_over_80_lines():
    files = sorted((TREE / "tools" / "codegen").glob("*.py")) + sorted((TREE / "bazel").rglob("*.bzl"))
    files += sorted((TREE / "python").rglob("*.py"))
    assert any(p.name == "library.bzl" for p in files), "the .bzl files are not in the test's data"
    assert any(p.name == "gradcheck.py" for p in files), "python/'s sources are not in the test's data"
    long = [
        f"{p.relative_to(TREE)}:{line} {name} ({n} lines)"
        for p in files
        for name, line, n in _function_lengths(p)
        if n > MAX_FUNCTION_LINES
    ]
    assert long == [], f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_templates_do_not_branch_on_cpp_type_spellings():
    # Whether a wrapper returns anything, how the tracer names the op, ...: facts the emitters
    # compute from the schema (WrapperCode.returns_void, .op_ref), not tests of a printed C++ type.
    spelling = re.compile(r"\b(return_type|cpp_type|spelling)\s*(==|!=|\bin\b)")
    assert _template_lines_matching(spelling) == []


def _template_lines_matching(pattern: re.Pattern) -> list:
    """`template:line` of every template line `pattern` finds."""
    templates = sorted((TREE / "tools" / "codegen" / "templates").iterdir())
    return [
        f"{p.name}:{i}"
        for p in templates
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if pattern.search(line)
    ]


# A C++ type is a cpp.CType (its spelling, its value type, how a parameter of it is kept): code
# that takes a spelling apart (`.replace("const ", "")`) or tests one (`t == "IntArrayRef"`) is
# asking cpp.py a question it should answer as a field.
_SPELLING_SURGERY = re.compile(
    r"""(\.(replace|startswith|endswith|rstrip|strip)\(\s*["'](const |&|std::|IntArrayRef|ArrayRef<|Optional)"""
    r"""|(==|!=)\s*["'](const |std::|IntArrayRef|ArrayRef<|OptionalIntArrayRef|TensorList))"""
)


def _spelling_surgery(text: str) -> list:
    return [i for i, line in enumerate(text.splitlines(), 1) if _SPELLING_SURGERY.search(line)]


def test_no_code_takes_a_cpp_type_spelling_apart():
    found = [
        f"{n}:{i}" for n in _codegen_modules() for i in _spelling_surgery((TREE / "tools" / "codegen" / n).read_text())
    ]
    assert found == []


def test_the_spelling_check_finds_surgery():
    # The two forms it replaced: load_samples' value-initialized default and cpp.py's copy rule.
    assert _spelling_surgery('d = cpp.argument_type(a).replace("const ", "").rstrip("&")\n') == [1]
    assert _spelling_surgery('x = 1\nif t == "IntArrayRef" or t.startswith("ArrayRef<"):\n') == [2]
    assert _spelling_surgery("t = cpp.argument_type(a).empty\n") == []


# Templates loop and substitute; they do not decide. A value's kind picks the def that prints
# it (`${getattr(self, "body_" + w.kind)(w)}`), so no template line tests a kind, and each
# template has a def for every value of the kinds it dispatches on.
_KIND_TEST = re.compile(r"^\s*%\s*(if|elif)\b.*\.(kind|shape)\b")


def _dispatched_kinds():
    from tools.codegen import autograd_info, gen_autograd_functions, python

    return [
        ("VariableType.cpp", "body_", autograd_info.WrapperKind),
        ("VariableType.cpp", "forward_ad_before_", autograd_info.ForwardADKind),
        ("VariableType.cpp", "forward_ad_after_", autograd_info.ForwardADKind),
        ("Functions.cpp", "unpack_", autograd_info.SavedKind),
        ("Functions.cpp", "formula_", gen_autograd_functions.FormulaShape),
        ("Functions.h", "member_", autograd_info.SavedKind),
        ("Functions.h", "release_", autograd_info.SavedKind),
        ("python_functions.cpp", "return_", python.ReturnKind),
        ("python_functions.cpp", "define_", python.Variant),
        ("python_functions.cpp", "conventions_", python.Variant),
    ]


def test_no_template_branches_on_a_kind():
    assert _template_lines_matching(_KIND_TEST) == []
    assert _KIND_TEST.search('% elif w.kind == "not_implemented":')


@pytest.mark.parametrize("template,prefix,kinds", _dispatched_kinds())
def test_each_kind_has_its_def(template, prefix, kinds):
    text = (TREE / "tools" / "codegen" / "templates" / template).read_text()
    defs = set(re.findall(r'<%def name="(\w+)\(', text))
    assert f'"{prefix}" + ' in text, f"{template} does not dispatch on {prefix}<kind>"
    missing = [f"{prefix}{k.value}" for k in kinds if f"{prefix}{k.value}" not in defs]
    assert missing == [], f"{template} has no def for {missing}"
