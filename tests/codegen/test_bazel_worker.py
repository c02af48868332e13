"""The codegen as a Bazel persistent worker (tools/codegen/bazel_worker.py): the same files as a
one-shot run, errors as responses, flags reset between requests, and an end when stdin closes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest
from conftest import TREE
from google.protobuf import proto

from tools.codegen.bazel_worker import WorkRequest, WorkResponse

GEN = str(TREE / "tools/codegen/gen_autograd.py")
SPECS = TREE / "specs"
BAD_DERIVATIVES = "- name: mm(Tensor self, Tensor mat2) -> Tensor\n  self: mm(grad, mat2\n"


def _flagfile(tmp_path: Path, name: str, out_dir: Path, *extra: str) -> str:
    """A params file as the autograd_codegen rule writes it (one argument per line)."""
    lines = [
        "--native_functions", str(SPECS / "native_functions.yaml"),
        "--native_functions_name", "specs/native_functions.yaml",
        "--derivatives", str(SPECS / "derivatives.yaml"),
        "--derivatives_name", "specs/derivatives.yaml",
        "--out_dir", str(out_dir),
        "--include_prefix", "csrc/generated",
        *extra,
    ]  # fmt: skip
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return f"--flagfile={path}"


def _files(root: Path) -> Dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


class Worker:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, GEN, "--persistent_worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def request(self, arguments: List[str], request_id: int = 0):
        proto.serialize_length_prefixed(WorkRequest(arguments=arguments, request_id=request_id), self.proc.stdin)
        self.proc.stdin.flush()
        response = proto.parse_length_prefixed(WorkResponse, self.proc.stdout)
        assert response is not None, "the worker closed its stdout instead of answering"
        return response

    def close(self) -> int:
        self.proc.stdin.close()
        return self.proc.wait(timeout=60)


@pytest.fixture
def worker():
    w = Worker()
    yield w
    if w.proc.poll() is None:
        w.proc.kill()
        w.proc.wait()


def _one_shot(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, GEN, *arguments], capture_output=True, text=True)


def test_worker_writes_the_files_a_one_shot_run_writes(tmp_path, worker):
    one_shot = tmp_path / "one_shot"
    p = _one_shot(_flagfile(tmp_path, "a.params", one_shot, "--shards", "0"))
    assert p.returncode == 0, p.stderr
    for k in range(3):  # the second and third run in a warm process
        out = tmp_path / f"worker_{k}"
        response = worker.request([_flagfile(tmp_path, f"w{k}.params", out, "--shards", "0")], request_id=0)
        assert (response.exit_code, response.output, response.request_id) == (0, "", 0)
        assert _files(out) == _files(one_shot)
    assert "shards.cc/Functions_0.cpp" in _files(one_shot)
    assert worker.close() == 0


def test_a_spec_error_is_a_response_and_the_worker_goes_on(tmp_path, worker):
    bad = tmp_path / "derivatives.yaml"
    bad.write_text(BAD_DERIVATIVES)
    out = tmp_path / "bad_out"
    response = worker.request(
        [_flagfile(tmp_path, "bad.params", out), f"--derivatives={bad}", "--derivatives_name=ops/derivatives.yaml"],
        request_id=7,
    )
    p = _one_shot(
        _flagfile(tmp_path, "bad1.params", out), f"--derivatives={bad}", "--derivatives_name=ops/derivatives.yaml"
    )
    assert response.exit_code == p.returncode == 1
    assert response.output == p.stderr
    assert response.output.startswith("ops/derivatives.yaml:2:") and response.output.count("\n") == 1
    assert response.request_id == 7
    assert not out.exists()  # nothing half-written

    good = tmp_path / "good_out"
    assert worker.request([_flagfile(tmp_path, "good.params", good)]).exit_code == 0
    assert (good / "Functions.cpp").is_file()


def test_a_bad_flag_is_exit_status_2_with_one_line(tmp_path, worker):
    response = worker.request([_flagfile(tmp_path, "x.params", tmp_path / "x"), "--no_such_flag=1"])
    assert response.exit_code == 2
    assert response.output == "gen_autograd: Unknown command line flag 'no_such_flag'\n"


def test_each_request_starts_from_the_default_flags(tmp_path, worker):
    sharded = tmp_path / "sharded"
    assert worker.request([_flagfile(tmp_path, "s.params", sharded, "--shards", "3")]).exit_code == 0
    assert (sharded / "Functions_2.cpp").is_file()
    # No --shards: the default (one shard), not the 3 of the request before.
    plain = tmp_path / "plain"
    assert worker.request([_flagfile(tmp_path, "p.params", plain)]).exit_code == 0
    one_shot = tmp_path / "one_shot"
    assert _one_shot(_flagfile(tmp_path, "o.params", one_shot)).returncode == 0
    assert _files(plain) == _files(one_shot)
    assert not (plain / "Functions_0.cpp").exists()


def test_an_edited_spec_between_requests_gives_a_fresh_runs_files(tmp_path, worker):
    """The worker keeps parsed declarations by file content (Note [Worker cache] in
    gen_autograd.py): after an edit to either file, a request writes what a fresh run writes."""
    functions = tmp_path / "native_functions.yaml"
    derivatives = tmp_path / "derivatives.yaml"
    functions.write_text((SPECS / "native_functions.yaml").read_text())
    derivatives.write_text((SPECS / "derivatives.yaml").read_text())
    edits = [
        ("as is", None),
        # A declaration removed (its derivative entry with it), then the file as it was again.
        ("declaration removed", "mm"),
        ("as is again", None),
    ]
    for k, (what, removed) in enumerate(edits):
        nf_text = (SPECS / "native_functions.yaml").read_text()
        d_text = (SPECS / "derivatives.yaml").read_text()
        if removed is not None:
            nf_text = "\n- ".join(
                b for b in nf_text.split("\n- ") if not b.startswith((f"func: {removed}(", f"func: {removed}."))
            )
            d_text = "\n- ".join(b for b in d_text.split("\n- ") if not b.startswith(f"name: {removed}("))
            assert nf_text != (SPECS / "native_functions.yaml").read_text()
        functions.write_text(nf_text)
        derivatives.write_text(d_text)
        extra = [f"--native_functions={functions}", f"--derivatives={derivatives}"]
        out, fresh = tmp_path / f"worker_{k}", tmp_path / f"fresh_{k}"
        response = worker.request([_flagfile(tmp_path, f"w{k}.params", out), *extra])
        assert response.exit_code == 0, (what, response.output)
        p = _one_shot(_flagfile(tmp_path, f"f{k}.params", fresh), *extra)
        assert p.returncode == 0, (what, p.stderr)
        assert _files(out) == _files(fresh), what
    assert " mm(" not in (tmp_path / "worker_1" / "VariableType.h").read_text()
    assert " mm(" in (tmp_path / "worker_2" / "VariableType.h").read_text()
