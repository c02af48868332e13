"""Main of every py_pytest target: runs pytest on the test files the macro passes as arguments.

Bazel runs a test with its runfiles tree as the working directory, and py_pytest passes each test
file's `$(rootpath)`, so the arguments are paths relative to it. Arguments that are not existing
files (e.g. from `bazel test --test_arg=-k --test_arg=name`) go to pytest unchanged.

Before pytest is imported, the host interpreter's site directories (Debian's
/usr/lib/python3/dist-packages, which has its own PyYAML, and any other site-packages) are taken
off sys.path: a test sees only the standard library and the pinned packages of
@gradgen_py_deps that it depends on, so a missing dependency fails instead of silently importing
the host's copy. tests/python/test_import_origin.py checks that this holds.
"""

import os
import site
import sys

# No __pycache__ next to the sources in the runfiles tree, nor pytest's rewritten-assert cache.
sys.dont_write_bytecode = True
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
os.environ.setdefault("PYTHONHASHSEED", "0")


def _host_site_dirs():
    """Returns the real paths of the interpreter's site directories (system and user)."""
    dirs = set()
    try:
        dirs.update(site.getsitepackages())
    except AttributeError:  # some virtualenvs' site.py lack it
        pass
    try:
        dirs.add(site.getusersitepackages())
    except AttributeError:
        pass
    return {os.path.realpath(d) for d in dirs}


def _is_host_site_dir(entry, host_dirs):
    """Tells whether sys.path `entry` is one of the host's site directories (or inside one)."""
    if not entry:
        return False
    real = os.path.realpath(entry)
    if real in host_dirs:
        return True
    parts = real.split(os.sep)
    return "site-packages" in parts or "dist-packages" in parts


def make_sys_path_hermetic(path=None):
    """Removes host site directories from `path` (default sys.path) in place; returns what went.

    Entries under the test's runfiles tree (the pinned @gradgen_py_deps packages, the workspace)
    are kept whatever their names: only paths that resolve outside it are candidates.
    """
    path = sys.path if path is None else path
    runfiles = os.environ.get("RUNFILES_DIR") or os.environ.get("TEST_SRCDIR") or ""
    runfiles = os.path.abspath(runfiles) if runfiles else None
    host_dirs = _host_site_dirs()
    # Python puts the runner's *resolved* directory (in the source tree) first; it is not needed.
    host_dirs.add(os.path.dirname(os.path.realpath(__file__)))
    removed = []
    for entry in list(path):
        absolute = os.path.abspath(entry) if entry else entry
        if runfiles and absolute and absolute.startswith(runfiles + os.sep):
            continue
        if _is_host_site_dir(entry, host_dirs):
            path.remove(entry)
            removed.append(entry)
    return removed


def _test_files_and_options(argv):
    """Splits argv into test files (checked to exist) and pytest options."""
    files, options = [], []
    for arg in argv:
        if arg.endswith(".py") and not arg.startswith("-"):
            if not os.path.isfile(arg):
                sys.exit("pytest_runner: test file %s not found under %s" % (arg, os.getcwd()))
            files.append(arg)
        else:
            options.append(arg)
    return files, options


def main(argv):
    make_sys_path_hermetic()
    files, options = _test_files_and_options(argv)
    if not files:
        sys.exit("pytest_runner: no test files given (py_pytest needs srcs)")

    import pytest  # only now: it must come from @gradgen_py_deps

    args = [
        "-p",
        "no:cacheprovider",  # nothing written into the (read-only) runfiles tree
        "-c",
        os.devnull,  # ignore pytest.ini / pyproject.toml / setup.cfg above the runfiles
        "--rootdir",
        os.getcwd(),
        "-ra",
    ]
    xml = os.environ.get("XML_OUTPUT_FILE")
    if xml:
        args += ["--junitxml", xml]  # per-test results in Bazel's test.xml
    tmp = os.environ.get("TEST_TMPDIR")
    if tmp:
        args += ["--basetemp", os.path.join(tmp, "pytest")]
    code = int(pytest.main(args + options + files))
    sys.stdout.flush()
    if code == 5:
        # A test target that collects no test is a mistake, not a pass.
        print("pytest_runner: no tests collected in %s (pytest exit 5)" % " ".join(files), file=sys.stderr)
    elif code != 0:
        print("pytest_runner: pytest exited with %d" % code, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
