"""//python:wheel installs into a fresh venv, offline, and `import gradgen` works outside Bazel.

The venv is made by /usr/bin/python3 (the interpreter the wheel is tagged for) without pip's
index (`pip install --no-index`); numpy is not installed, so this also checks that importing
gradgen does not need it. The wheel itself must be reproducible: fixed timestamps and a RECORD
whose hashes match the files.
"""

import base64
import glob
import hashlib
import os
import subprocess
import sys
import unittest
import zipfile

PYTHON = "/usr/bin/python3"

CHECK = r"""
import sys
import gradgen
assert "numpy" not in sys.modules, "import gradgen imported numpy"
assert "site-packages" in gradgen.__file__, gradgen.__file__
x = gradgen.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x + 2 * x
y.backward(gradgen.ones(3))
assert x.grad.tolist() == [4.0, 6.0, 8.0], x.grad
with gradgen.no_grad():
    assert (x * 2).grad_fn is None
try:
    x.detach().numpy()
except ImportError:
    pass
else:
    raise AssertionError("numpy() without numpy installed should raise ImportError")
print("ok", gradgen.__file__)
"""


def _wheel():
    runfiles = os.environ.get("TEST_SRCDIR", ".")
    found = glob.glob(os.path.join(runfiles, "**", "python", "gradgen-*.whl"), recursive=True)
    if len(found) != 1:
        raise AssertionError("expected one gradgen wheel in the runfiles, found %s" % found)
    return found[0]


class WheelTest(unittest.TestCase):
    def test_wheel_is_reproducible_and_complete(self):
        wheel = _wheel()
        name = os.path.basename(wheel)
        self.assertRegex(name, r"^gradgen-[0-9.]+-cp311-cp311-linux_x86_64\.whl$")
        with zipfile.ZipFile(wheel) as zf:
            infos = zf.infolist()
            for info in infos:
                self.assertEqual(info.date_time, (1980, 1, 1, 0, 0, 0), info.filename)
            names = [i.filename for i in infos]
            self.assertIn("gradgen/__init__.py", names)
            self.assertTrue(any(n.startswith("gradgen/_C.cpython-311") for n in names), names)
            record_name = [n for n in names if n.endswith(".dist-info/RECORD")][0]
            record = zf.read(record_name).decode()
            rows = [line.split(",") for line in record.splitlines()]
            self.assertEqual({r[0] for r in rows}, set(names))
            for path, digest, size in rows:
                if path == record_name:
                    continue
                data = zf.read(path)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                self.assertEqual(digest, "sha256=" + expected.decode(), path)
                self.assertEqual(int(size), len(data), path)
            wheel_meta = zf.read(record_name.replace("RECORD", "WHEEL")).decode()
            self.assertIn("Tag: cp311-cp311-linux_x86_64", wheel_meta)
            self.assertIn("Root-Is-Purelib: false", wheel_meta)

    def test_installs_offline_into_a_fresh_venv(self):
        tmp = os.environ.get("TEST_TMPDIR") or os.path.abspath("tmp")
        venv = os.path.join(tmp, "venv")
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env["PIP_NO_INPUT"] = "1"
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        subprocess.run([PYTHON, "-m", "venv", venv], check=True, env=env)
        python = os.path.join(venv, "bin", "python")
        subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-deps", "-q", _wheel()], check=True, env=env)
        # Outside Bazel: from another directory, with the venv's interpreter only.
        result = subprocess.run([python, "-c", CHECK], cwd=tmp, env=env, capture_output=True, text=True)
        sys.stdout.write(result.stdout)
        sys.stderr.write(result.stderr)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(result.stdout.startswith("ok " + venv), result.stdout)


if __name__ == "__main__":
    unittest.main()
