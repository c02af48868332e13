"""The codegen action imports yaml, mako and absl from @gradgen_py_deps, never from the host.

Runs the real codegen binary (the one the autograd_codegen rule runs) and asks it where its
modules came from.
"""

import os
import subprocess


def test_codegen_binary_imports_pinned_packages():
    binary = os.environ["GEN_AUTOGRAD"]
    out = subprocess.run([binary, "--report_import_origins"], capture_output=True, text=True, check=True).stdout
    origins = dict(line.split(" ", 1) for line in out.splitlines())
    print(origins)
    assert sorted(origins) == ["absl", "mako", "yaml"]
    for module, path in origins.items():
        assert "gradgen_py_deps" in path, f"{module} imported from {path}"
        assert "dist-packages" not in path and "site-packages" not in path, f"{module} imported from {path}"
