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


def _block_of(text: str, head: str) -> str:
    """The entry of derivatives.yaml `text` that starts with `head`, up to the next entry or comment."""
    start = text.index(head)
    ends = [i for i in (text.find("\n- ", start + 1), text.find("\n#", start + 1)) if i >= 0]
    return text[start : min(ends) + 1]


def _worker_edits() -> List[tuple]:
    """(what, native_functions.yaml, derivatives.yaml, extra flags) requests, one after another,
    each touching what the worker keeps (Note [Worker cache] in gen_autograd.py)."""
    nf = (SPECS / "native_functions.yaml").read_text()
    d = (SPECS / "derivatives.yaml").read_text()
    pow_formula = "  self: pow_backward(grad, self, exponent)\n"
    div_mode = _block_of(d, "- name: div.Tensor_mode(")
    first_div = d.index("- name: div.Tensor(")
    # div.Tensor_mode moved above div.Tensor: every entry between shifts, the Div nodes renumber.
    moved = d[:first_div] + div_mode + "\n" + d[first_div:].replace(div_mode, "", 1)
    duplicate = _block_of(d, "- name: div.Scalar(")
    assert pow_formula in d and moved != d
    return [
        ("as is", nf, d, []),
        ("one formula edited", nf, d.replace(pow_formula, "  self: pow_backward(grad, self, exponent) * 2\n"), []),
        ("an entry moved above others", nf, moved, []),
        ("as is again", nf, d, []),
        # The message cites where the first entry is, two lines down from where it was read before.
        ("a duplicate entry below shifted ones", nf, "# one\n# two\n" + d + "\n" + duplicate, []),
        ("comment lines above every entry", nf, "# one\n# two\n" + d, []),
        ("a formula for no argument", nf, d.replace(pow_formula, pow_formula + "  no_such_input: grad\n"), []),
        ("the mistake fixed", nf, d, []),
        ("flags changed", nf, d, ["--namespace=torchy", "--shards=3", "--include_prefix=gen/x"]),
        ("flags changed again", nf, d, ["--missing_derivative=not_implemented", "--implicit_composite"]),
        ("the files' names in messages changed", nf, d, ["--derivatives_name=other/derivatives.yaml"]),
        ("declarations moved down a line", "# a comment\n" + nf, d, []),
        ("declarations as they were", nf, d, ["--shards=0"]),
    ]


def test_a_worker_after_each_kind_of_edit_answers_as_a_fresh_run(tmp_path, worker):
    """Every request: the files and the message (exit status, text) a fresh process gives on the
    same inputs, whatever the worker kept from the requests before."""
    functions = tmp_path / "native_functions.yaml"
    derivatives = tmp_path / "derivatives.yaml"
    errors = 0
    for k, (what, nf_text, d_text, extra) in enumerate(_worker_edits()):
        functions.write_text(nf_text)
        derivatives.write_text(d_text)
        paths = [f"--native_functions={functions}", f"--derivatives={derivatives}", *extra]
        out, fresh = tmp_path / f"worker_{k}", tmp_path / f"fresh_{k}"
        response = worker.request([_flagfile(tmp_path, f"w{k}.params", out), *paths], request_id=k)
        p = _one_shot(_flagfile(tmp_path, f"f{k}.params", fresh), *paths)
        assert (response.exit_code, response.output) == (p.returncode, p.stderr), what
        assert _files(out) == _files(fresh) if p.returncode == 0 else not out.exists(), what
        errors += p.returncode != 0
        if what == "a duplicate entry below shifted ones":
            line = d_text[: d_text.index("- name: div.Scalar(")].count("\n") + 1
            assert f"(first given at specs/derivatives.yaml:{line}:9)" in p.stderr, p.stderr
    assert errors == 2
    assert worker.close() == 0


def test_a_worker_checks_the_formula_environment_as_a_fresh_run(tmp_path, worker):
    header = tmp_path / "env.h"
    header.write_text("Tensor mul(const Tensor& a, const Tensor& b);\nTensor twice(const Tensor& t);\n")
    functions = tmp_path / "native_functions.yaml"
    functions.write_text("- func: foo(Tensor self) -> Tensor\n- func: bar(Tensor self) -> Tensor\n")
    derivatives = tmp_path / "derivatives.yaml"
    good = "- name: foo(Tensor self) -> Tensor\n  self: twice(grad)\n- name: bar(Tensor self) -> Tensor\n  self: grad\n"
    for k, text in enumerate(
        [good, good.replace("twice(", "twise("), good, good.replace("  self: grad\n", "  self: twise(grad)\n")]
    ):
        derivatives.write_text(text)
        args = [
            f"--native_functions={functions}",
            f"--derivatives={derivatives}",
            f"--formula_environment_header={header}",
        ]
        out, fresh = tmp_path / f"worker_{k}", tmp_path / f"fresh_{k}"
        response = worker.request([f"--out_dir={out}", *args])
        p = _one_shot(f"--out_dir={fresh}", *args)
        assert (response.exit_code, response.output) == (p.returncode, p.stderr), text
        assert p.returncode == k % 2, p.stderr
        if p.returncode == 0:
            assert _files(out) == _files(fresh)
        else:
            assert "calls 'twise'" in p.stderr


def test_a_message_cites_the_lines_of_the_files_as_they_are(tmp_path, worker):
    """An entry the worker read before keeps the Locations of where it was; when one moves and a
    later stage (here the plan) finds a mistake in it, the message cites where it is now."""
    functions = tmp_path / "native_functions.yaml"
    functions.write_text("- func: foo(Tensor self) -> Tensor\n- func: bar(Tensor self) -> int\n")
    derivatives = tmp_path / "derivatives.yaml"
    text = "- name: foo(Tensor self) -> Tensor\n  self: grad\n- name: bar(Tensor self) -> int\n  self: grad\n"
    for k, above in enumerate(["", "# moved\n# down\n"]):
        derivatives.write_text(above + text)
        args = [f"--native_functions={functions}", f"--derivatives={derivatives}", "--derivatives_name=d.yaml"]
        response = worker.request([f"--out_dir={tmp_path / 'out'}", *args])
        p = _one_shot(f"--out_dir={tmp_path / 'fresh'}", *args)
        assert (response.exit_code, response.output) == (p.returncode, p.stderr)
        assert p.stderr.startswith(f"d.yaml:{4 + 2 * k}:9: the entry for bar has formulas"), p.stderr
