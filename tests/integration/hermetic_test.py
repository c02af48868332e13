"""Determinism and hermeticity of gradgen's build, with nested Bazels on copies of this checkout.

Two copies of the work tree at different paths under $TEST_TMPDIR (A and B), each with its own
output_user_root, no disk cache, every action in the linux-sandbox with the network blocked
(--sandbox_default_allow_network=false), and a remote cache on 127.0.0.1: BuildGrid, a Remote
Execution API server (its CAS and ActionCache services, in memory, no workers; pinned in
buildgrid_requirements_lock.txt), started and stopped here, spoken to over gRPC:

  A  builds //csrc:autograd (the codegen + all of gradgen's C++), uploading to the remote cache,
     plus two probes: a genrule that tries to reach the cache server from inside the sandbox
     (must fail: the network is blocked) and the same with `requires-network` (must succeed:
     the probe itself works);
  B  builds //csrc:autograd_codegen without any cache: its generated files must be byte-identical
     to A's (nothing depends on the checkout's path);
  B  then `bazel clean`s and builds //csrc:autograd with the remote cache: every GradgenCodegen
     and CppCompile spawn must be a remote cache hit (action keys do not depend on the path,
     the user, or the shell's environment), and BuildGrid's own counters must say so too (as
     many GetActionResult calls answered as Bazel counted hits).
"""

import os
import unittest

import nested_bazel as nb

SANDBOXED = ["--spawn_strategy=sandboxed", "--sandbox_default_allow_network=false"]
TARGET = "//csrc:autograd"
CODEGEN_TARGET = "//csrc:autograd_codegen"

_PROBE = """import socket, sys
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=3).close()
    print("connected")
except OSError as e:
    print("blocked: %s" % e)
"""

_PROBE_BUILD = """# Written by tests/integration/hermetic_test.py: can an action reach 127.0.0.1:{port}?
genrule(
    name = "blocked",
    outs = ["blocked.txt"],
    cmd = "python3 $(location probe.py) > $@",
    tools = ["probe.py"],
    tags = ["no-cache"],
)

genrule(
    name = "allowed",
    outs = ["allowed.txt"],
    cmd = "python3 $(location probe.py) > $@",
    tools = ["probe.py"],
    tags = ["no-cache", "requires-network"],
)
"""


class HermeticBuildTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        tmp = nb.test_tmpdir()
        cls.a_dir = nb.copy_checkout(os.path.join(tmp, "a", "gradgen"))
        cls.b_dir = nb.copy_checkout(os.path.join(tmp, "b", "elsewhere", "gradgen-second-clone"))
        cls.cache = nb.BuildGridServer(os.path.join(tmp, "buildgrid")).start()
        port = cls.cache.port
        os.makedirs(os.path.join(cls.a_dir, "netprobe"))
        with open(os.path.join(cls.a_dir, "netprobe", "BUILD.bazel"), "w", encoding="utf-8") as fh:
            fh.write(_PROBE_BUILD.format(port=port))
        with open(os.path.join(cls.a_dir, "netprobe", "probe.py"), "w", encoding="utf-8") as fh:
            fh.write(_PROBE.format(port=port))
        remote = [f"--remote_cache={cls.cache.url}", "--remote_timeout=60"]
        try:
            a = nb.NestedBazel(cls.a_dir, "checkout_a")
            try:
                cls.a_spawns = a.build(
                    [TARGET, "//netprobe:all"],
                    SANDBOXED + remote,
                    exec_log=os.path.join(tmp, "a.json"),
                )
                cls.a_bin = a.bazel_bin()
            finally:
                a.shutdown()
            cls.cache_after_a = cls.cache.action_cache()
            nb.log(f"A: {nb.summarize(cls.a_spawns)}; BuildGrid {cls.cache_after_a}")

            b = nb.NestedBazel(cls.b_dir, "checkout_b")
            try:
                cls.b_codegen_spawns = b.build(
                    [CODEGEN_TARGET], SANDBOXED, exec_log=os.path.join(tmp, "b_codegen.json")
                )
                cls.b_bin = b.bazel_bin()
                cls.b_generated = nb.file_digests(os.path.join(cls.b_bin, "csrc", "generated"))
                nb.log(f"B (codegen only, no cache): {nb.summarize(cls.b_codegen_spawns)}")
                b.run("clean")
                cls.b_spawns = b.build([TARGET], SANDBOXED + remote, exec_log=os.path.join(tmp, "b.json"))
            finally:
                b.shutdown()
            cls.cache_after_b = cls.cache.action_cache()
            nb.log(f"B (clean, remote cache): {nb.summarize(cls.b_spawns)}; BuildGrid {cls.cache_after_b}")
        finally:
            cls.cache.stop()

    def test_generated_files_are_byte_identical_across_checkouts(self):
        a_generated = nb.file_digests(os.path.join(self.a_bin, "csrc", "generated"))
        self.assertIn("Functions.cpp", a_generated)
        self.assertIn("manifest.json", a_generated)
        self.assertEqual(a_generated, self.b_generated)
        # Both really ran the codegen (no cache was involved in B's).
        self.assertEqual(1, len(nb.executed(self.a_spawns, "GradgenCodegen")))
        self.assertEqual(1, len(nb.executed(self.b_codegen_spawns, "GradgenCodegen")))

    def test_every_action_ran_in_the_linux_sandbox(self):
        runners = sorted({s.get("runner") for s in self.a_spawns})
        self.assertEqual(["linux-sandbox"], runners)
        self.assertEqual(["linux-sandbox"], sorted({s.get("runner") for s in self.b_codegen_spawns}))

    def test_sandbox_blocks_the_network(self):
        with open(os.path.join(self.a_bin, "netprobe", "blocked.txt"), encoding="utf-8") as fh:
            blocked = fh.read().strip()
        with open(os.path.join(self.a_bin, "netprobe", "allowed.txt"), encoding="utf-8") as fh:
            allowed = fh.read().strip()
        self.assertTrue(blocked.startswith("blocked"), blocked)
        self.assertEqual("connected", allowed, "the probe should reach the server when the network is allowed")

    def test_second_checkout_takes_every_codegen_and_compile_from_the_remote_cache(self):
        for mnemonic, at_least in (("GradgenCodegen", 1), ("CppCompile", 10)):
            spawns = [s for s in self.b_spawns if s.get("mnemonic") == mnemonic]
            self.assertGreaterEqual(
                len(spawns), at_least, f"{mnemonic} spawns in B's build: {nb.summarize(self.b_spawns)}"
            )
            misses = [s.get("progressMessage") or s.get("listedOutputs") for s in spawns if not s.get("remoteCacheHit")]
            self.assertEqual([], misses, f"{mnemonic} spawns that were not remote cache hits")

    def test_buildgrid_counted_the_hits(self):
        # The server's own counters: B's hits are GetActionResult calls answered OK, one per spawn
        # Bazel reports as a remote cache hit; A uploaded what it ran (UpdateActionResult).
        hits = self.cache_after_b["hits"] - self.cache_after_a["hits"]
        self.assertEqual(sum(1 for s in self.b_spawns if s.get("remoteCacheHit")), hits, self.cache_after_b)
        self.assertGreaterEqual(self.cache_after_a["uploads"], len(nb.executed(self.a_spawns, "CppCompile")))


if __name__ == "__main__":
    nb.main_unittest()
