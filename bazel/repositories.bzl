"""WORKSPACE setup for gradgen and for workspaces that use it. Public API.

In another workspace:

    local_repository(name = "gradgen", path = "/path/to/gradgen")

    load("@gradgen//bazel:repositories.bzl", "gradgen_dependencies")

    gradgen_dependencies()

Everything comes from the local machine (Debian packages, and PyPI through pip for the pinned
Python packages): nothing is downloaded by Bazel, which has no network here. A repository that the
workspace already defined (say its own `@com_google_googletest`) is left alone.
"""

load(
    "//bazel/private/repos:offline_shims.bzl",
    "remote_coverage_tools_shim",
    "rules_cc_shim",
    "rules_java_shim",
    "rules_python_shim",
    "rules_shell_shim",
)
load("//bazel/private/repos:py_deps.bzl", "gradgen_py_deps")
load("//bazel/private/repos:system_repos.bzl", "system_eigen", "system_googletest", "system_python_headers", "system_skylib")

def _maybe(repo_rule, name, **kwargs):
    """Calls `repo_rule(name = name, **kwargs)` unless the workspace already defined `name`."""
    if not native.existing_rule(name):
        repo_rule(name = name, **kwargs)

# A WORKSPACE macro: it defines repositories and registers a toolchain, no target to name.
# buildifier: disable=unnamed-macro
def gradgen_dependencies(register_python_toolchain = True):
    """Defines the external repositories gradgen needs and registers its Python toolchain.

    Repositories (each skipped when already defined):
      - `@rules_cc`, `@rules_java`, `@remote_coverage_tools`: offline shims for what
        `@bazel_tools` would otherwise download.
      - `@rules_python`, `@rules_shell`: offline shims re-exporting the native Python and shell
        rules, so that BUILD files load `py_*` from `@rules_python//python:defs.bzl` and `sh_*`
        from `@rules_shell//shell:sh_*.bzl` as newer Bazels require (`cc_*` come from
        `@rules_cc//cc:defs.bzl`). A workspace that defines the real rule sets first keeps them.
      - `@bazel_skylib`: Debian's bazel-skylib (/usr/share/bazel/tools/skylib).
      - `@com_google_googletest` (`:gtest`, `:gtest_main`; gmock is in gtest): Debian's googletest
        sources (/usr/src/googletest).
      - `@eigen` (`:eigen`): Debian's libeigen3-dev headers (/usr/include/eigen3).
      - `@gradgen_python_headers` (`:python_headers`, `:python.bzl`): Debian's libpython3-dev
        headers of /usr/bin/python3, for extension modules.
      - `@gradgen_py_deps` (`:yaml`, `:mako`, `:absl_py`, `:pytest`, `:numpy`, and `:nanobind`
        compiled from its wheel's sources, ...): requirements_lock.txt.

    Args:
      register_python_toolchain: bool: register the /usr/bin/python3 toolchain that gradgen's
        Python tools and tests run with. Turn it off only to register an equivalent one yourself.
    """
    _maybe(rules_cc_shim, name = "rules_cc")
    _maybe(rules_java_shim, name = "rules_java")
    _maybe(rules_python_shim, name = "rules_python")
    _maybe(rules_shell_shim, name = "rules_shell")
    _maybe(remote_coverage_tools_shim, name = "remote_coverage_tools")
    _maybe(
        system_skylib,
        name = "bazel_skylib",
        path = "/usr/share/bazel/tools/skylib",
        debian_package = "bazel-skylib",
    )
    _maybe(
        system_googletest,
        name = "com_google_googletest",
        path = "/usr/src/googletest",
        debian_package = "googletest",
    )
    _maybe(
        system_eigen,
        name = "eigen",
        path = "/usr/include/eigen3",
        debian_package = "libeigen3-dev",
    )
    _maybe(
        system_python_headers,
        name = "gradgen_python_headers",
        python = "/usr/bin/python3",
        debian_package = "libpython3-dev",
    )
    _maybe(
        gradgen_py_deps,
        name = "gradgen_py_deps",
        requirements_lock = Label("//:requirements_lock.txt"),
    )
    if register_python_toolchain:
        # Label() resolves against the gradgen repository whatever its name in the workspace.
        native.register_toolchains(str(Label("//bazel/private:python_toolchain")))

def gradgen_test_dependencies():
    """Repositories only gradgen's own tests use; called by gradgen's WORKSPACE, not yours.

    `@gradgen_buildgrid`: BuildGrid (a Remote Execution API server) and its dependency tree,
    pinned with hashes in tests/integration/buildgrid_requirements_lock.txt and pip-installed
    like @gradgen_py_deps, when a test that starts it (hermetic_test, incremental_test) is built.
    """
    _maybe(
        gradgen_py_deps,
        name = "gradgen_buildgrid",
        requirements_lock = Label("//tests/integration:buildgrid_requirements_lock.txt"),
    )
