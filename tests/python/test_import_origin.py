"""The Python packages that gradgen's tools and tests import are the pinned ones.

Debian's /usr/bin/python3 has its own PyYAML (python3-yaml) in /usr/lib/python3/dist-packages;
if it won, codegen would depend on whatever the host has installed. Each module must come from the
@gradgen_py_deps external repository (requirements_lock.txt) in the test's runfiles tree.
"""

import importlib
import os
import sys

import pytest

PINNED_REPO = "gradgen_py_deps"

MODULES = ["yaml", "mako", "absl", "pytest", "markupsafe"]


def _origin(module_name):
    module = importlib.import_module(module_name)
    origin = module.__file__
    print("%s: %s" % (module_name, origin))
    return origin


@pytest.mark.parametrize("module_name", MODULES)
def test_module_comes_from_pinned_repository(module_name):
    origin = _origin(module_name)
    parts = os.path.abspath(origin).split(os.sep)
    assert PINNED_REPO in parts, "%s was imported from %s, not @%s" % (module_name, origin, PINNED_REPO)
    # The pinned copy sits in <runfiles>/gradgen_py_deps/site/<package>/.
    assert parts[parts.index(PINNED_REPO) + 1] == "site", origin


@pytest.mark.parametrize("module_name", MODULES)
def test_module_does_not_come_from_host(module_name):
    origin = _origin(module_name)
    for path in (origin, os.path.realpath(origin)):
        assert not path.startswith("/usr/lib/python3"), path
        assert "dist-packages" not in path.split(os.sep), path
        assert "site-packages" not in path.split(os.sep), path


def test_host_site_directories_are_not_on_sys_path():
    for entry in sys.path:
        parts = entry.split(os.sep)
        assert "dist-packages" not in parts and "site-packages" not in parts, sys.path


def _pinned_versions():
    """Returns {normalized name: version} from requirements_lock.txt (a data dependency)."""
    pins = {}
    with open("requirements_lock.txt") as lock:
        for line in lock:
            line = line.strip()
            if "==" in line and not line.startswith("#"):
                name, version = line.split(" ")[0].split("==")
                pins[name.lower().replace("-", "_")] = version
    return pins


@pytest.mark.parametrize("module_name,dist", [("yaml", "pyyaml"), ("mako", "mako"), ("pytest", "pytest")])
def test_module_is_the_pinned_version(module_name, dist):
    # Debian 12's python3-yaml is 6.0: a version check catches the host copy even where paths lie.
    module = importlib.import_module(module_name)
    assert module.__version__ == _pinned_versions()[dist], module.__file__
