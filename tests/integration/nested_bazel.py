"""Helpers for integration tests that run Bazel inside a test (see docs: bazel-offline.md).

- `gradgen_checkout()`: the gradgen work tree the test was built from, found through a source
  file in the runfiles (a symlink to the work tree, or a line of the runfiles manifest), so it
  works wherever the repository was cloned.
- `copy_checkout()` / `copy_tree()`: copies without Bazel's output symlinks, .git and caches.
- `NestedBazel`: one Bazel server with its own --output_user_root, an environment without the
  outer test's TEST_* / RUNFILES_* variables, and no disk cache; `shutdown()` stops it.
- `read_execution_log()` / `spawns()`: the spawns of `--execution_log_json_file`.
- `BuildGridServer`: a real Remote Execution API server (BuildGrid, pinned in
  buildgrid_requirements_lock.txt) with its CAS and ActionCache on loopback, for
  `--remote_cache=grpc://...`, and its own hit / miss counters.

Outside Bazel (to debug), set GRADGEN_CHECKOUT to a work tree (and GRADGEN_PY_DEPS to an installed
@gradgen_py_deps, or pip runs); temporary files then go to a fresh directory under $TMPDIR.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, Iterable, List, Optional, Sequence

# A file that the root package exports and this package's targets list in `data`: its runfiles
# entry leads back to the work tree.
_MARKER = "gradgen/requirements_lock.txt"
# A file of @gradgen_py_deps in the runfiles (see BUILD.bazel): leads to the outer Bazel's
# already-installed repository, which nested builds reuse instead of running pip again.
_PY_DEPS_MARKER = "gradgen_py_deps/site/yaml/__init__.py"

# Names never copied from a work tree: Bazel's convenience symlinks, VCS and tool caches.
_SKIP_NAMES = {".git", ".pytest_cache", ".benchmarks", "__pycache__", "user.bazelrc"}


def log(msg: str) -> None:
    """Prints a progress line to the test log (stdout is captured by Bazel)."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def test_tmpdir() -> str:
    """$TEST_TMPDIR under Bazel; a fresh temporary directory otherwise."""
    tmp = os.environ.get("TEST_TMPDIR")
    if not tmp:
        tmp = tempfile.mkdtemp(prefix="gradgen_integration_")
        os.environ["TEST_TMPDIR"] = tmp
    return tmp


def _runfile(path: str) -> Optional[str]:
    """Returns the real path of runfile `path` (workspace-relative, e.g. "gradgen/x"), or None."""
    for root in (os.environ.get("RUNFILES_DIR"), os.environ.get("TEST_SRCDIR")):
        if root and os.path.exists(os.path.join(root, path)):
            return os.path.realpath(os.path.join(root, path))
    manifest = os.environ.get("RUNFILES_MANIFEST_FILE")
    if manifest and os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as fh:
            for line in fh:
                key, _, value = line.rstrip("\n").partition(" ")
                if key == path and value:
                    return os.path.realpath(value)
    # Next to this file when run as a plain script from a runfiles tree.
    here = os.path.abspath(__file__)
    marker = os.sep + "gradgen" + os.sep
    if ".runfiles" + marker in here:
        root = here[: here.index(".runfiles" + marker) + len(".runfiles")]
        if os.path.exists(os.path.join(root, path)):
            return os.path.realpath(os.path.join(root, path))
    return None


def gradgen_checkout() -> str:
    """Returns the absolute path of the gradgen work tree under test."""
    checkout = os.environ.get("GRADGEN_CHECKOUT")
    if not checkout:
        marker = _runfile(_MARKER)
        if marker is None:
            raise AssertionError(
                f"cannot find {_MARKER} in the runfiles (list //:requirements_lock.txt in data), "
                "and GRADGEN_CHECKOUT is not set"
            )
        checkout = os.path.dirname(marker)
    checkout = os.path.realpath(checkout)
    workspace = os.path.join(checkout, "WORKSPACE")
    with open(workspace, encoding="utf-8") as fh:
        if 'workspace(name = "gradgen")' not in fh.read():
            raise AssertionError(f"{workspace} is not gradgen's WORKSPACE")
    return checkout


def py_deps_repository() -> Optional[str]:
    """The outer build's @gradgen_py_deps directory, or None (nested builds then run pip)."""
    if os.environ.get("GRADGEN_PY_DEPS"):
        return os.environ["GRADGEN_PY_DEPS"]
    marker = _runfile(_PY_DEPS_MARKER)
    if marker is None:
        return None
    repo = os.path.dirname(os.path.dirname(os.path.dirname(marker)))
    if os.path.exists(os.path.join(repo, "BUILD.bazel")) and os.path.exists(os.path.join(repo, "WORKSPACE")):
        return repo
    return None


def _ignore(directory: str, names: Sequence[str]) -> List[str]:
    return [
        n
        for n in names
        if n in _SKIP_NAMES
        or n.endswith(".pyc")
        or (n.startswith("bazel-") and os.path.islink(os.path.join(directory, n)))
        # What //tools:compile_commands leaves in a work tree (a link into an output base).
        or (n in ("external", "compile_commands.json") and os.path.islink(os.path.join(directory, "external")))
    ]


def copy_tree(src: str, dst: str) -> str:
    """Copies directory src to dst (which must not exist), skipping outputs and caches."""
    shutil.copytree(src, dst, symlinks=True, ignore=_ignore)
    return dst


def copy_checkout(dst: str) -> str:
    """Copies the gradgen work tree to dst, as a fresh clone elsewhere would look."""
    return copy_tree(gradgen_checkout(), dst)


def bazel_binary() -> str:
    """The Bazel on PATH (Debian's /usr/bin/bazel here)."""
    found = shutil.which("bazel") or ("/usr/bin/bazel" if os.path.exists("/usr/bin/bazel") else None)
    if not found:
        raise AssertionError("no bazel on PATH and no /usr/bin/bazel")
    return found


def nested_env(home: str) -> Dict[str, str]:
    """The outer environment without what belongs to the outer test (TEST_*, RUNFILES_*, ...)."""
    drop_prefixes = (
        "TEST_",
        "RUNFILES_",
        "BUILD_",
        "BAZEL_",
        "COVERAGE_",
        "XML_OUTPUT_FILE",
        "JAVA_RUNFILES",
        "PYTHON_RUNFILES",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop_prefixes)}
    env["HOME"] = home
    env.setdefault("PATH", "/bin:/usr/bin:/usr/local/bin")
    env.setdefault("USER", "root")
    return env


class BazelError(AssertionError):
    pass


class NestedBazel:
    """One Bazel server for one workspace, with its own output_user_root under the test's tmp dir.

    Every build gets `--disk_cache=` (gradgen's .bazelrc names a disk cache under ~; a nested
    build must not read it) and, when the outer build has one, `--override_repository` of
    @gradgen_py_deps onto the outer build's copy (the same pinned wheels, without pip).
    """

    def __init__(self, workspace: str, name: str, rc: Optional[str] = None):
        self.workspace = workspace
        self.name = name
        base = os.path.join(test_tmpdir(), "bazel_" + name)
        self.output_user_root = os.path.join(base, "root")
        self.home = os.path.join(base, "home")
        os.makedirs(self.home, exist_ok=True)
        self.rc = rc
        self.bazel = bazel_binary()
        self.py_deps = py_deps_repository()
        self.started = False
        log(
            f"{name}: workspace {workspace}, output_user_root {self.output_user_root}, @gradgen_py_deps "
            + (f"from {self.py_deps}" if self.py_deps else "installed by pip")
        )

    def _startup(self) -> List[str]:
        opts = [self.bazel, f"--output_user_root={self.output_user_root}", "--nohome_rc", "--max_idle_secs=900"]
        if self.rc:
            opts += ["--noworkspace_rc", f"--bazelrc={self.rc}"]
        return opts

    def common_flags(self) -> List[str]:
        flags = ["--disk_cache=", "--color=no", "--curses=no", "--show_progress_rate_limit=60"]
        if self.py_deps:
            flags.append(f"--override_repository=gradgen_py_deps={self.py_deps}")
        return flags

    def run(
        self, command: str, args: Iterable[str] = (), check: bool = True, timeout: float = 900
    ) -> subprocess.CompletedProcess:
        cmd = (
            self._startup()
            + [command]
            + (self.common_flags() if command in ("build", "test", "run") else [])
            + list(args)
        )
        log(f"{self.name}: bazel {command} {' '.join(args)}")
        t0 = time.monotonic()
        self.started = True
        proc = subprocess.run(
            cmd,
            cwd=self.workspace,
            env=nested_env(self.home),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
        )
        log(f"{self.name}: bazel {command} exit {proc.returncode} in {time.monotonic() - t0:.1f} s")
        if check and proc.returncode != 0:
            raise BazelError(
                f"bazel {command} {' '.join(args)} failed in {self.workspace} (exit {proc.returncode}):\n"
                + proc.stdout[-6000:]
            )
        return proc

    def build(
        self, targets: Sequence[str], flags: Sequence[str] = (), exec_log: Optional[str] = None, command: str = "build"
    ) -> List[dict]:
        """Runs `bazel build` (or test) and returns the spawns of its execution log."""
        args = list(flags)
        if exec_log:
            args.append(f"--execution_log_json_file={exec_log}")
        self.run(command, args + ["--"] + list(targets))
        return read_execution_log(exec_log) if exec_log else []

    def bazel_bin(self) -> str:
        return self.run("info", ["bazel-bin"]).stdout.strip().splitlines()[-1]

    def shutdown(self) -> None:
        if self.started:
            self.run("shutdown", check=False, timeout=120)
            self.started = False


def write_external_workspace(root: str, name: str, checkout: str, files: Dict[str, str]) -> None:
    """Writes a workspace named `name` under `root` that uses gradgen from `checkout` as a user's
    would (local_repository, gradgen_dependencies(), gradgen's .bazelrc lines), plus `files`
    (path relative to root -> text)."""
    skeleton = {
        "WORKSPACE": f"""workspace(name = "{name}")

local_repository(name = "gradgen", path = "{checkout}")

load("@gradgen//bazel:repositories.bzl", "gradgen_dependencies")

gradgen_dependencies()
""",
        ".bazelrc": """build --incompatible_strict_action_env
build --nosandbox_debug
build --cxxopt=-std=c++17 --host_cxxopt=-std=c++17
build --action_env=PYTHONDONTWRITEBYTECODE=1 --action_env=PYTHONNOUSERSITE=1 --action_env=PYTHONHASHSEED=0
build --host_action_env=PYTHONDONTWRITEBYTECODE=1 --host_action_env=PYTHONNOUSERSITE=1 --host_action_env=PYTHONHASHSEED=0
""",  # noqa: E501 (gradgen's .bazelrc lines, as they are there)
        "BUILD.bazel": "",
    }
    for path, text in {**skeleton, **files}.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            fh.write(text)


def read_execution_log(path: str) -> List[dict]:
    """The SpawnExec records of a --execution_log_json_file file (concatenated JSON objects)."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    decoder = json.JSONDecoder()
    spawns, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return spawns
        obj, i = decoder.raw_decode(text, i)
        spawns.append(obj)


def executed(spawns: Iterable[dict], mnemonic: str) -> List[dict]:
    """Spawns of `mnemonic` that really ran (not served by a remote cache)."""
    return [s for s in spawns if s.get("mnemonic") == mnemonic and not s.get("remoteCacheHit", False)]


def compiled_sources(spawns: Iterable[dict]) -> List[str]:
    """The source file each executed CppCompile spawn compiled (the argument after -c)."""
    sources = []
    for s in executed(spawns, "CppCompile"):
        args = s.get("commandArgs", [])
        sources.append(args[args.index("-c") + 1] if "-c" in args else "?")
    return sorted(sources)


def summarize(spawns: Iterable[dict]) -> str:
    """ "CppCompile: 3 (2 remote cache hits), GradgenCodegen: 1 (0 ...)"."""
    counts: Dict[str, List[int]] = {}
    for s in spawns:
        c = counts.setdefault(s.get("mnemonic", "?"), [0, 0])
        c[0] += 1
        c[1] += bool(s.get("remoteCacheHit", False))
    return ", ".join(f"{m}: {n} ({h} remote cache hits)" for m, (n, h) in sorted(counts.items())) or "no spawns"


def file_digests(directory: str) -> Dict[str, str]:
    """sha256 of every file under directory, by path relative to it."""
    digests = {}
    for root, _, files in os.walk(directory):
        for f in files:
            path = os.path.join(root, f)
            with open(path, "rb") as fh:
                digests[os.path.relpath(path, directory)] = hashlib.sha256(fh.read()).hexdigest()
    return digests


def main_unittest() -> None:
    """Runs the calling module's unittest tests, verbosely."""
    import unittest

    unittest.main(module="__main__", verbosity=2, argv=[sys.argv[0]])


# A file of @gradgen_buildgrid in the runfiles (tests/integration/BUILD.bazel): leads to the
# directory pip installed BuildGrid's pinned tree into (buildgrid_requirements_lock.txt).
_BUILDGRID_MARKER = "gradgen_buildgrid/site/buildgrid/__init__.py"
_BUILDGRID_CONFIG = "gradgen/tests/integration/buildgrid_config.yml"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BuildGridServer:
    """BuildGrid (`bgd server start`) on 127.0.0.1: CAS + ActionCache in memory, no workers.

    `url` is for Bazel's --remote_cache. The server's own counters come from its statsd lines on
    stdout (monitoring in buildgrid_config.yml): `counts()` says how many calls each
    `<Service>.<method>:<status>` got, e.g. {"ActionCache.GetActionResult:OK": 40,
    "ActionCache.GetActionResult:NOT_FOUND": 2, ...}: a hit is a GetActionResult answered OK, a
    miss one answered NOT_FOUND. Stops on stop() or at its deadline, whichever comes first.
    """

    def __init__(self, workdir: str, deadline_s: float = 2400):
        site_marker = _runfile(_BUILDGRID_MARKER)
        config = _runfile(_BUILDGRID_CONFIG)
        if site_marker is None or config is None:
            raise AssertionError(
                f"cannot find {_BUILDGRID_MARKER} / {_BUILDGRID_CONFIG} in the runfiles "
                "(list @gradgen_buildgrid//:buildgrid and buildgrid_config.yml in data)"
            )
        self.site = os.path.dirname(os.path.dirname(site_marker))
        os.makedirs(workdir, exist_ok=True)
        self.port = _free_port()
        self.url = f"grpc://127.0.0.1:{self.port}"
        self.config = os.path.join(workdir, "buildgrid.yml")
        with open(config, encoding="utf-8") as fh:
            text = fh.read().replace("@PORT@", str(self.port))
        with open(self.config, "w", encoding="utf-8") as fh:
            fh.write(text)
        self.log_path = os.path.join(workdir, "buildgrid.log")
        self.deadline_s = deadline_s
        self.proc: Optional[subprocess.Popen] = None
        self.deadline: Optional[threading.Timer] = None

    def start(self, timeout: float = 120) -> "BuildGridServer":
        env = {
            "PATH": "/bin:/usr/bin",
            "HOME": os.path.dirname(self.config),
            "PYTHONPATH": self.site,
            "PYTHONNOUSERSITE": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            # Its counters are stdout lines: unbuffered, so they are in the log when a call ends.
            "PYTHONUNBUFFERED": "1",
        }
        code = "import sys; from buildgrid.server.app import cli; sys.argv[0] = 'bgd'; sys.exit(cli())"
        self._log = open(self.log_path, "w", encoding="utf-8")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "server", "start", self.config],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self.deadline = threading.Timer(self.deadline_s, self.stop)
        self.deadline.daemon = True
        self.deadline.start()
        t0 = time.monotonic()
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"BuildGrid exited with {self.proc.returncode}:\n{self._tail()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() - t0 > timeout:
                    self.stop()
                    raise AssertionError(
                        f"BuildGrid did not listen on {self.port} in {timeout} s:\n{self._tail()}"
                    ) from None
                time.sleep(0.5)
        log(f"BuildGrid: {self.url} (pid {self.proc.pid}, up in {time.monotonic() - t0:.1f} s)")
        return self

    def _tail(self) -> str:
        with open(self.log_path, encoding="utf-8", errors="replace") as fh:
            return fh.read()[-4000:]

    def counts(self) -> Dict[str, int]:
        """Calls per `<Service>.<method>:<status>`, from the server's own rpc.duration.ms lines.

        The server logs a call just after answering it: read until two reads 0.5 s apart agree.
        """
        last = self._read_counts()
        for _ in range(20):
            time.sleep(0.5)
            now = self._read_counts()
            if now == last:
                break
            last = now
        return last

    def _read_counts(self) -> Dict[str, int]:
        counts: Dict[str, int] = {}
        with open(self.log_path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if not line.startswith("rpc.duration.ms,"):
                    continue
                tags = dict(t.split("=", 1) for t in line.split(":", 1)[0].split(",")[1:] if "=" in t)
                key = f"{tags.get('serviceName')}.{tags.get('method')}:{tags.get('status')}"
                counts[key] = counts.get(key, 0) + 1
        return counts

    def action_cache(self) -> Dict[str, int]:
        """{"hits": GetActionResult OK, "misses": ... NOT_FOUND, "uploads": UpdateActionResult OK}."""
        c = self.counts()
        return {
            "hits": c.get("ActionCache.GetActionResult:OK", 0),
            "misses": c.get("ActionCache.GetActionResult:NOT_FOUND", 0),
            "uploads": c.get("ActionCache.UpdateActionResult:OK", 0),
        }

    def stop(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            log(f"BuildGrid stopped: {self.counts()}")
        if getattr(self, "_log", None) is not None:
            self._log.close()
            self._log = None


def remote_misses(spawns: Iterable[dict]) -> Dict[str, int]:
    """Spawns per mnemonic that a remote cache did not serve (they ran), e.g. {"CppCompile": 2}."""
    misses: Dict[str, int] = {}
    for s in spawns:
        if not s.get("remoteCacheHit", False):
            misses[s.get("mnemonic", "?")] = misses.get(s.get("mnemonic", "?"), 0) + 1
    return misses
