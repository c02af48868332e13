"""`py_pytest` (public, from //bazel:defs.bzl): a py_test that runs the pinned pytest of @gradgen_py_deps."""

load("@rules_python//python:defs.bzl", "py_test")

_RUNNER = Label("//bazel/private:pytest_runner.py")

def py_pytest(name, srcs, deps = [], data = [], **kwargs):
    """Declares a py_test `name` that runs pytest on the test files `srcs`.

    The test's main is //bazel/private:pytest_runner.py, which takes the host's site directories
    off sys.path (only the standard library and the pinned packages in `deps` are importable),
    runs pytest with `-p no:cacheprovider` and fails when pytest's exit code is non-zero,
    including 5 (no tests collected). pytest.ini and similar files are ignored; pass options with
    `args` or `bazel test --test_arg=...`.

    Public API on purpose (exported by `@gradgen//bazel:defs.bzl`): a workspace that gives its
    autograd_library a `python_module` tests it with Python, and its own workspace has no pytest
    that matches gradgen's pinned packages; this macro runs the pinned one from @gradgen_py_deps,
    with the import fixes a `gradgen` repository needs (the tour in README.md uses it).

    Args:
      name: str: the test's name.
      srcs: list[Label]: the test files (`test_*.py`); every one is handed to pytest.
      deps: list[Label]: py_library targets the tests import, e.g. "@gradgen_py_deps//:yaml".
      data: list[Label]: files the tests read at run time.
      **kwargs: passed to py_test (size, tags, args, env, ...); `main` and `python_version`
        are set here. `legacy_create_init` defaults to False: Bazel's implicit __init__.py
        files would make the runfiles directory of a repository named `gradgen` (an external
        workspace's `@gradgen`) a package that hides the real `gradgen` Python package.
    """
    runner = str(_RUNNER)
    py_test(
        name = name,
        srcs = srcs + [runner],
        main = runner,
        args = ["$(rootpath %s)" % src for src in srcs] + kwargs.pop("args", []),
        deps = deps + ["@gradgen_py_deps//:pytest"],
        data = data,
        legacy_create_init = kwargs.pop("legacy_create_init", False),
        python_version = "PY3",
        srcs_version = "PY3",
        **kwargs
    )
