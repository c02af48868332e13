"""examples/custom_op builds and passes its tests with every action on Bazel's own REAPI worker.

tools/remote/worker.sh starts the worker (src/tools/remote of Debian's bazel-bootstrap-source,
the executor Bazel tests its remote execution against) on a loopback port, each action in its
linux-sandbox with the network blocked and an empty /tmp, and in a mount namespace of its own
(`unshare -m`) in which the gradgen checkout, the client workspace, the client's output base,
the reused @gradgen_py_deps and /tmp are empty tmpfs mounts: an action that reads anything but
its declared inputs (sent through the worker's CAS) and the system's /usr fails.

A copy of examples/custom_op (its `path = "../.."` pointed at this work tree) keeps its own
.bazelrc, the block docs/workspace.md shows (custom_op_example_test checks they are the same),
whose `build:remote` lines must be those of gradgen's .bazelrc, and gets only `--remote_executor`
in its user.bazelrc; then, in a nested Bazel:

  1. `bazel test --config=remote //...`: the C++, Python and generated gradient tests pass;
     Bazel's "N processes: ..." line counts only internal and remote processes (none local,
     sandboxed or in a persistent worker), as many remote as the execution log's spawns, each
     of them run by the remote runner, none a cache hit. A genrule that reads a file of the
     checkout it does not declare fails on the worker and succeeds locally.
  2. `bazel clean`, then the same with `--remote_download_minimal` (Build without the Bytes) and
     `--nocache_test_results`: the tests run again remotely and pass, the other actions are the
     worker's cache hits, and no generated .cpp is on disk; building the codegen target with
     `--remote_download_toplevel` then downloads them.

Skipped, saying why, where `unshare -m` is not permitted.
"""

import glob
import os
import re
import subprocess
import unittest

import nested_bazel as nb

# "INFO: 165 processes: 43 internal, 122 remote." (Bazel 4.2.3's summary of the spawns).
_PROCESSES = re.compile(r"^INFO: (\d+) process(?:es)?(?:: (.*?))?\.$", re.M)

# Written into the client by the test: reads a file of the gradgen checkout by its absolute path,
# an input it does not declare. "manual": not part of //... .
_PROBE_BUILD = """genrule(
    name = "undeclared",
    outs = ["undeclared.txt"],
    cmd = "cat {path} > $@",
    tags = ["manual"],
)
"""


def processes(output: str) -> dict:
    """{"internal": 43, "remote": 122, ...} from the last "N processes: ..." line of `output`."""
    found = _PROCESSES.findall(output)
    if not found:
        raise AssertionError("no 'INFO: N processes: ...' line in Bazel's output:\n" + output[-3000:])
    total, kinds = found[-1]
    counts = {}
    for part in filter(None, (p.strip() for p in kinds.split(","))):
        n, kind = part.split(" ", 1)
        counts[kind] = int(n)
    assert sum(counts.values()) == int(total), f"{total} processes, but {counts}"
    return counts


def remote_config(rc: str) -> list:
    """The `build:remote` lines (--config=remote) of the rc file `rc`."""
    with open(rc, encoding="utf-8") as fh:
        lines = [line.strip() for line in fh if line.startswith("build:remote ")]
    assert lines, f"{rc} has no build:remote lines"
    return lines


def unshare_refusal() -> str:
    """Why `unshare -m` cannot make a mount namespace here, or "" when it can."""
    try:
        proc = subprocess.run(
            ["unshare", "-m", "--propagation", "private", "true"], capture_output=True, text=True, timeout=30
        )
    except OSError as e:
        return f"cannot run unshare: {e}"
    return "" if proc.returncode == 0 else f"`unshare -m` is not permitted here: {proc.stderr.strip()}"


class RemoteExecutionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        refusal = unshare_refusal()
        if refusal:
            raise unittest.SkipTest(refusal)
        tmp = nb.test_tmpdir()
        cls.checkout = nb.gradgen_checkout()
        client = os.path.join(tmp, "client")
        cls.workspace = nb.copy_tree(os.path.join(cls.checkout, "examples", "custom_op"), os.path.join(client, "ws"))
        workspace_file = os.path.join(cls.workspace, "WORKSPACE")
        with open(workspace_file, encoding="utf-8") as fh:
            text, n = re.subn(r'path = "\.\./\.\."', 'path = "%s"' % cls.checkout, fh.read())
        assert n == 1, 'examples/custom_op/WORKSPACE should say path = "../.." once'
        with open(workspace_file, "w", encoding="utf-8") as fh:
            fh.write(text)
        cls.bazel = nb.NestedBazel(cls.workspace, "remote")
        cls.worker_sh = os.path.join(cls.checkout, "tools", "remote", "worker.sh")
        cls.worker_dir = os.path.join(tmp, "worker")
        hidden = [cls.checkout, client, cls.bazel.output_user_root, "/tmp"]
        if cls.bazel.py_deps:
            hidden.append(cls.bazel.py_deps)
        os.makedirs(cls.bazel.output_user_root, exist_ok=True)
        hide = [arg for path in hidden for arg in ("--hide", path)]
        # A test has no HOME: the compiled worker goes next to its state.
        cls.worker_env = dict(os.environ, GRADGEN_REMOTE_WORKER_CACHE=os.path.join(tmp, "worker_cache"))
        started = subprocess.run(
            [cls.worker_sh, "start", "--dir", cls.worker_dir] + hide,
            env=cls.worker_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=900,
        )
        nb.log(started.stdout)
        if started.returncode != 0:
            raise AssertionError(f"worker.sh start failed (exit {started.returncode}):\n{started.stdout}")
        port = started.stdout.strip().splitlines()[-1]
        with open(os.path.join(cls.workspace, "user.bazelrc"), "w", encoding="utf-8") as fh:
            fh.write(f"build --remote_executor=grpc://127.0.0.1:{port}\n")
        try:
            cls._build()
        finally:
            cls.bazel.shutdown()
            subprocess.run(
                [cls.worker_sh, "stop", "--dir", cls.worker_dir], env=cls.worker_env, timeout=120, check=False
            )
            nb.log("worker log tail:\n" + cls._worker_log()[-2000:])

    def test_the_examples_bazelrc_has_gradgens_remote_config(self):
        # What a user copies from docs/workspace.md is what gradgen itself runs remotely with.
        self.assertEqual(
            remote_config(os.path.join(self.checkout, "examples", "custom_op", ".bazelrc")),
            remote_config(os.path.join(self.checkout, ".bazelrc")),
        )

    @classmethod
    def _worker_log(cls):
        with open(os.path.join(cls.worker_dir, "worker.log"), encoding="utf-8", errors="replace") as fh:
            return fh.read()

    @classmethod
    def _build(cls):
        tmp = nb.test_tmpdir()
        cls.exec_log = os.path.join(tmp, "remote.json")
        first = cls.bazel.run("test", ["--config=remote", f"--execution_log_json_file={cls.exec_log}", "--", "//..."])
        cls.first = processes(first.stdout)
        cls.spawns = nb.read_execution_log(cls.exec_log)
        nb.log(f"all remote: {cls.first}; {nb.summarize(cls.spawns)}")
        cls._probe_undeclared_read()
        cls.bazel.run("clean")
        minimal_log = os.path.join(tmp, "minimal.json")
        minimal = cls.bazel.run(
            "test",
            [
                "--config=remote",
                "--remote_download_minimal",
                "--nocache_test_results",
                f"--execution_log_json_file={minimal_log}",
                "--",
                "//...",
            ],
        )
        cls.minimal = processes(minimal.stdout)
        cls.minimal_spawns = nb.read_execution_log(minimal_log)
        cls.bazel_bin = cls.bazel.bazel_bin()
        cls.generated = os.path.join(cls.bazel_bin, "ops", "generated")
        cls.cpp_minimal = cls._generated_cpp()
        cls.bazel.run("build", ["--config=remote", "--remote_download_toplevel", "--", "//ops:polyval_ops_codegen"])
        cls.cpp_toplevel = cls._generated_cpp()
        nb.log(f"minimal: {cls.minimal}; .cpp after toplevel: {cls.cpp_toplevel}")

    @classmethod
    def _probe_undeclared_read(cls):
        """A genrule that reads a file of the checkout it does not declare: on the worker (where
        the checkout is hidden) it must fail; run locally it must succeed (the probe works)."""
        os.makedirs(os.path.join(cls.workspace, "probe"))
        with open(os.path.join(cls.workspace, "probe", "BUILD.bazel"), "w", encoding="utf-8") as fh:
            fh.write(_PROBE_BUILD.format(path=os.path.join(cls.checkout, "WORKSPACE")))
        cls.probe_remote = cls.bazel.run("build", ["--config=remote", "--", "//probe:undeclared"], check=False)
        cls.probe_local = cls.bazel.run("build", ["--spawn_strategy=local", "--", "//probe:undeclared"], check=False)

    @classmethod
    def _generated_cpp(cls):
        return sorted(
            os.path.relpath(p, cls.generated)
            for p in glob.glob(os.path.join(cls.generated, "**", "*.cpp"), recursive=True)
        )

    def test_every_process_ran_remotely(self):
        self.assertEqual(sorted(self.first), ["internal", "remote"], self.first)
        self.assertEqual(self.first["remote"], len(self.spawns))
        runners = {s.get("runner") for s in self.spawns}
        self.assertEqual(runners, {"remote"})
        self.assertEqual([s for s in self.spawns if s.get("remoteCacheHit")], [])

    def test_the_codegen_the_compiles_and_the_tests_were_among_them(self):
        mnemonics = [s.get("mnemonic") for s in self.spawns]
        # gradgen's own runtime's codegen and the example's.
        self.assertEqual(mnemonics.count("GradgenCodegen"), 2)
        tested = {s.get("progressMessage") for s in self.spawns if s.get("mnemonic") == "TestRunner"}
        self.assertEqual(
            tested,
            {
                f"Testing //ops:{t}"
                for t in (
                    "polyval_ops_gradcheck_test",
                    "polyval_ops_py_gradcheck_test",
                    "polyval_py_test",
                    "polyval_test",
                )
            },
        )
        self.assertGreater(mnemonics.count("CppCompile"), 50)
        # The generated sources were compiled remotely too.
        compiled = nb.compiled_sources(self.spawns)
        self.assertTrue([c for c in compiled if c.endswith(".cpp") and "/ops/generated/" in c], compiled)

    def test_an_action_reading_an_undeclared_file_fails_on_the_worker(self):
        self.assertNotEqual(self.probe_remote.returncode, 0, self.probe_remote.stdout[-3000:])
        self.assertIn("No such file or directory", self.probe_remote.stdout)
        # The same action run locally, where the checkout is not hidden, reads the file.
        self.assertEqual(self.probe_local.returncode, 0, self.probe_local.stdout[-3000:])

    def test_build_without_the_bytes_passes_and_leaves_the_generated_sources_remote(self):
        self.assertLessEqual(set(self.minimal), {"internal", "remote", "remote cache hit"}, self.minimal)
        # The tests ran again on the worker; every other action was a hit in its cache.
        ran = [s for s in self.minimal_spawns if not s.get("remoteCacheHit")]
        self.assertEqual({s.get("mnemonic") for s in ran}, {"TestRunner"})
        self.assertEqual({s.get("runner") for s in ran}, {"remote"})
        self.assertEqual(self.minimal.get("remote"), len(ran), self.minimal)
        self.assertEqual(self.cpp_minimal, [])
        self.assertIn(os.path.join("shards.cc", "Functions_0.cpp"), self.cpp_toplevel)

    def test_the_worker_sandboxed_the_actions(self):
        self.assertNotIn("Sandboxing requested, but", self._worker_log())


if __name__ == "__main__":
    nb.main_unittest()
