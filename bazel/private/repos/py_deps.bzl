"""`gradgen_py_deps`: the pinned Python packages of requirements_lock.txt as py_library targets.

rules_python cannot be fetched on these machines, so this repository rule does the one thing
gradgen needs from it: it runs

    python3 -m pip install --no-deps --require-hashes --only-binary=:all: --no-compile \\
        --target <repo>/site -r requirements_lock.txt

and writes a BUILD file with one `py_library(imports = ["site"])` per installed distribution,
named after the distribution (`:pyyaml`, `:mako`, `:absl_py`, `:pytest`, `:numpy`, ...), plus the
aliases `:yaml` (PyYAML, named after its import). Each library's files come from the wheel's RECORD,
so a target puts only its own distribution into the runfiles tree, plus what `_DEPS` says it needs.

nanobind's wheel ships its C++ sources: `:nanobind` is a cc_library compiling them (as its
CMake build's libnanobind does) against `@gradgen_python_headers`, for extension modules.

pip is not passed `--isolated`: pip on these machines is configured through its config file and
`PIP_*` variables (find-links, constraints) and `--isolated` would drop them. The lock pins wheels
of one CPython ABI (3.11); `--python-version` is set to that of the interpreter the tests run with
(`/usr/bin/python3`, see //bazel/private:BUILD.bazel) so that pip run by another python3 (a pyenv
one on PATH, say) still picks the wheels that interpreter can import.
"""

# Requirements between the pinned distributions (normalized names), as their METADATA declares
# them for CPython 3.11 on Linux. Kept by hand because evaluating environment markers would need
# pip's internals; `--no-deps` means a missing entry here shows up as an ImportError in a test.
_DEPS = {
    "hypothesis": ["sortedcontainers"],
    "mako": ["markupsafe"],
    "pytest": ["iniconfig", "packaging", "pluggy", "pygments"],
}

# Extra names for targets whose distribution name differs from what users import.
_ALIASES = {
    "yaml": "pyyaml",
}

# The interpreter that py_test / py_binary run with (the registered Python toolchain).
_TARGET_INTERPRETER = "/usr/bin/python3"

def _normalize(name):
    """Returns the PEP 503 normal form of a distribution name, with `_` as separator."""
    return name.lower().replace("-", "_").replace(".", "_")

def _find_python_with_pip(repository_ctx):
    """Returns the path (str) of the first python3 (PATH, then /usr/bin/python3) that has pip."""
    candidates = []
    on_path = repository_ctx.which("python3")
    if on_path:
        candidates.append(str(on_path))
    if _TARGET_INTERPRETER not in candidates:
        candidates.append(_TARGET_INTERPRETER)
    for python in candidates:
        if not repository_ctx.path(python).exists:
            continue
        result = repository_ctx.execute([python, "-m", "pip", "--version"], quiet = True)
        if result.return_code == 0:
            return python
    fail(
        "gradgen: @{repo} needs a python3 with pip to install {lock}; tried {tried}.\n".format(
            repo = repository_ctx.name,
            lock = repository_ctx.attr.requirements_lock,
            tried = ", ".join(candidates),
        ) +
        "Install Debian's pip:  sudo apt-get update && sudo apt-get install -y python3 python3-pip\n" +
        "or build through ./bazelw, which installs missing packages itself.",
    )

def _target_python_version(repository_ctx):
    """Returns "X.Y" of the toolchain interpreter, or None when it is not installed."""
    if not repository_ctx.path(_TARGET_INTERPRETER).exists:
        return None
    result = repository_ctx.execute([
        _TARGET_INTERPRETER,
        "-c",
        "import sys; print('%d.%d' % sys.version_info[:2])",
    ], quiet = True)
    if result.return_code != 0:
        return None
    return result.stdout.strip()

def _top_level_names(repository_ctx, dist_info):
    """Returns the top-level entries of `site/` that distribution `dist_info` installed.

    Args:
      repository_ctx: the repository context.
      dist_info: path: the distribution's `*.dist-info` directory.

    Returns:
      list[str]: names such as "yaml", "_yaml" or "py.py", its dist-info directory included.
    """
    names = {dist_info.basename: True}
    record = dist_info.get_child("RECORD")
    if record.exists:
        for line in repository_ctx.read(record).splitlines():
            path = line.split(",")[0].strip('"')
            top = path.split("/")[0]

            # Console scripts land outside the package directories (`bin/` or `../`); skip them.
            if not top or top == ".." or top == "bin" or top == "__pycache__":
                continue
            if repository_ctx.path("site/" + top).exists:
                names[top] = True
    return sorted(names.keys())

def _library(name, tops, deps):
    """Returns the BUILD text of one py_library over the `site/` entries `tops`."""
    srcs = []
    data = []
    for top in tops:
        if top.endswith(".py"):
            srcs.append('"site/%s"' % top)
        elif top.endswith(".libs"):
            data.append('"site/%s/**"' % top)  # auditwheel's vendored shared libraries
        elif "." in top and not top.endswith(".dist-info"):
            data.append('"site/%s"' % top)  # a top-level extension module (.so)
        else:
            srcs.append('"site/%s/**/*.py"' % top)
            data.append('"site/%s/**"' % top)
    return """
py_library(
    name = "{name}",
    srcs = glob([{srcs}]),
    data = glob([{data}], exclude = ["**/*.py"]),  # with the bytecode compiled above
    imports = ["site"],
    deps = [{deps}],
)
""".format(
        name = name,
        srcs = ", ".join(srcs),
        data = ", ".join(data),
        deps = ", ".join(['":%s"' % d for d in deps]),
    )

# libnanobind from the wheel's sources, as nanobind's CMake config builds it (nanobind_build_library):
# every src/*.cpp but the amalgamation, the free-threading part (for Py_GIL_DISABLED builds only)
# and the backend module's entry point. NB_SHARED exports its symbols (NB_BUILD marks the side that
# defines them): linked dynamically, every extension module of a process shares this one copy.
# Always optimized, as nanobind's own release builds: it is the dispatch path of every bound call.
_NANOBIND_BUILD = """
cc_library(
    name = "robin_map",
    hdrs = glob(["site/nanobind/ext/robin_map/include/**/*.h"]),
    includes = ["site/nanobind/ext/robin_map/include"],
    visibility = ["//visibility:private"],
)

cc_library(
    name = "nanobind",
    srcs = glob(
        ["site/nanobind/src/*.cpp", "site/nanobind/src/*.h"],
        exclude = [
            "site/nanobind/src/nb_combined.cpp",
            "site/nanobind/src/nb_ft.cpp",
            "site/nanobind/src/nb_backend.cpp",
        ],
    ),
    hdrs = glob(["site/nanobind/include/nanobind/**/*.h"]),
    includes = ["site/nanobind/include"],
    copts = ["-O2", "-fno-strict-aliasing", "-fvisibility=hidden", "-Wno-unused-parameter"],
    defines = ["NB_SHARED"],
    local_defines = ["NB_BUILD", "NDEBUG", "NB_COMPACT_ASSERTIONS"],
    deps = [":robin_map", "@gradgen_python_headers//:python_headers"],
)

# nanobind's headers as files, for tests that compile generated bindings with g++ directly
# (//tests/codegen:fuzz_test).
filegroup(
    name = "nanobind_headers",
    srcs = glob([
        "site/nanobind/include/nanobind/**/*.h",
        "site/nanobind/ext/robin_map/include/**/*.h",
    ]),
)
"""

def _pip_install(repository_ctx, site):
    """Installs the lock file's wheels into `site` with pip; fails, with pip's output, if pip does."""
    python = _find_python_with_pip(repository_ctx)
    args = [
        python,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--require-hashes",
        "--only-binary=:all:",
        "--no-compile",
        "--disable-pip-version-check",
        "--no-warn-script-location",
        "--target",
        str(site),
        "-r",
        str(repository_ctx.path(repository_ctx.attr.requirements_lock)),
    ]
    version = _target_python_version(repository_ctx)
    if version:
        args.extend(["--python-version", version])
    repository_ctx.report_progress("pip install -r %s" % repository_ctx.attr.requirements_lock)
    result = repository_ctx.execute(
        args,
        environment = {
            "PIP_NO_INPUT": "1",
            "PIP_ROOT_USER_ACTION": "ignore",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
        },
        timeout = 900,
        quiet = True,
    )
    if result.return_code != 0:
        fail("gradgen: @{repo}: `{cmd}` failed (exit {code}):\n{out}{err}".format(
            repo = repository_ctx.name,
            cmd = " ".join(args),
            code = result.return_code,
            out = result.stdout,
            err = result.stderr,
        ))

def _compile_bytecode(repository_ctx, site):
    """Compiles `site`'s modules with the target interpreter, when the machine has it.

    Bytecode, so that every codegen action does not compile its imports again (a third of its
    run time). Deterministic: a fixed hash seed and a fixed recorded path ("site/..."), and
    unchecked-hash pycs carry no timestamps, so two checkouts make identical files and the
    codegen actions keep hitting remote caches across them.
    """
    if not repository_ctx.path(_TARGET_INTERPRETER).exists:
        return
    compiled = repository_ctx.execute(
        [
            _TARGET_INTERPRETER,
            "-m",
            "compileall",
            "-q",
            "-j",
            "1",
            "-d",
            "site",
            "--invalidation-mode",
            "unchecked-hash",
            str(site),
        ],
        environment = {"PYTHONHASHSEED": "0", "PYTHONNOUSERSITE": "1"},
        timeout = 600,
        quiet = True,
    )
    if compiled.return_code != 0:
        fail("gradgen: @{repo}: compiling the pinned packages failed:\n{out}{err}".format(
            repo = repository_ctx.name,
            out = compiled.stdout,
            err = compiled.stderr,
        ))

def _build_file(repository_ctx, site):
    """The repository's BUILD file: a py_library per distribution installed in `site`."""
    dists = {}
    for entry in site.readdir():
        if entry.basename.endswith(".dist-info"):
            # "<name>-<version>.dist-info": names never contain "-" in a dist-info directory.
            dists[_normalize(entry.basename.split("-")[0])] = entry

    build = [
        "# Generated by gradgen (bazel/private/repos/py_deps.bzl) from %s." %
        repository_ctx.attr.requirements_lock,
        'load("@rules_python//python:defs.bzl", "py_library")',
        'package(default_visibility = ["//visibility:public"])',
    ]
    for name in sorted(dists.keys()):
        if name == "nanobind":
            continue  # its C++ sources are what gradgen uses: a cc_library (below), no py_library
        deps = _DEPS.get(name, [])
        for dep in deps:
            if dep not in dists:
                fail("gradgen: %s needs %s, which %s does not pin." % (
                    name,
                    dep,
                    repository_ctx.attr.requirements_lock,
                ))
        build.append(_library(name, _top_level_names(repository_ctx, dists[name]), deps))
    if "nanobind" in dists:
        build.append(_NANOBIND_BUILD)
    for alias, actual in sorted(_ALIASES.items()):
        if actual in dists and alias not in dists:
            build.append('alias(name = "%s", actual = ":%s")\n' % (alias, actual))
    return "\n".join(build)

def _gradgen_py_deps_impl(repository_ctx):
    site = repository_ctx.path("site")
    _pip_install(repository_ctx, site)
    _compile_bytecode(repository_ctx, site)
    repository_ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % repository_ctx.name)
    repository_ctx.file("BUILD.bazel", _build_file(repository_ctx, site))

gradgen_py_deps = repository_rule(
    implementation = _gradgen_py_deps_impl,
    attrs = {
        "requirements_lock": attr.label(
            default = Label("//:requirements_lock.txt"),
            allow_single_file = True,
            doc = "Label: the pinned, hashed lock file; the repository is re-made when it changes.",
        ),
    },
    doc = "Installs requirements_lock.txt with pip and exposes each package as a py_library.",
)
