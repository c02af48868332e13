"""Codegen speed: gradgen's whole run on PyTorch's specs beside PyTorch's own (torchgen) run.

  ./bazelw run //bench:codegen_bench
  ./bazelw run //bench:codegen_bench -- --torchgen_python=/tmp/torchvenv/bin/python
  ./bazelw run //bench:codegen_bench -- --torchgen_root=/dir/containing/torchgen

Both codegens run as fresh processes (interpreter start + imports + parse + analyse + render +
write), --runs times each, on the same two files (PyTorch 2.14.1's native_functions.yaml and
derivatives.yaml, `<workspace>/../shared/pytorch` by default), with the environment of a Bazel
action (PYTHONDONTWRITEBYTECODE=1, PYTHONNOUSERSITE=1, PYTHONHASHSEED=0, PATH=/bin:/usr/bin:...).
gradgen runs exactly as the autograd_codegen rule runs it: the //tools/codegen:gen_autograd
launcher from runfiles, /usr/bin/python3 and the pinned packages; also without the launcher.

The anchor, PyTorch's `torchgen.packaged.autograd.gen_autograd` `gen_autograd(...)` and `gen_autograd_python(...)`
(gradgen writes Python bindings in the same run), comes from (in
this order) --torchgen_python (an interpreter that can `import torchgen`, e.g. a venv with torch),
--torchgen_root (a directory holding `torchgen/`, run with this interpreter and the pinned PyYAML),
a cached extraction from an earlier run, or `pip download torch==<version> --no-deps` + unzip of
`torchgen/`. When none works it says so and skips the anchor. It measures and prints; it never
fails (exit status 0 even when gradgen is slower): it is not a test.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from typing import Dict, List, Optional, Sequence, Tuple

from bench_util import action_env as _action_env
from bench_util import codegen_launcher
from bench_util import runfiles_dir as _runfiles_dir
from bench_util import say as _say
from bench_util import workspace_dir as _workspace_dir

TARGET_RATIO = 8.0
TORCH_LABEL = "PyTorch torchgen gen_autograd + gen_autograd_python"

# torchgen imports typing_extensions only for assert_never / Self, both in `typing` since 3.11.
_TYPING_EXTENSIONS_SHIM = '''"""Shim for torchgen when typing_extensions is not installed (written by codegen_bench)."""
import typing


def __getattr__(name):
    return getattr(typing, name)
'''

# PyTorch's gen_autograd(), step by step, with a clock around each step (same calls, same order
# of work: parse_native_yaml and load_derivatives are cached, so parsing once is parsing once).
_TORCHGEN_PHASES = r"""
import os, sys, time
t0 = time.perf_counter()
from torchgen.api import cpp
from torchgen.api.autograd import match_differentiability_info
from torchgen.gen import parse_native_yaml
from torchgen.selective_build.selector import SelectiveBuilder
from torchgen.packaged.autograd.gen_autograd_functions import gen_autograd_functions_lib
from torchgen.packaged.autograd.gen_inplace_or_view_type import gen_inplace_or_view_type
from torchgen.packaged.autograd.gen_trace_type import gen_trace_type
from torchgen.packaged.autograd.gen_variable_factories import gen_variable_factories
from torchgen.packaged.autograd.gen_variable_type import gen_variable_type
from torchgen.packaged.autograd.gen_view_funcs import gen_view_funcs
from torchgen.packaged.autograd.load_derivatives import load_derivatives
from torchgen.packaged.autograd import gen_python_functions
nf, tags, out, autograd_dir = sys.argv[1:5]
t = t0
def lap(what):
    global t
    now = time.perf_counter()
    print(f"PHASE {what}: {(now - t) * 1000:.0f} ms", file=sys.stderr)
    t = now
lap("imports")
native_funcs = parse_native_yaml(nf, tags).native_functions
lap("parse declarations")
infos, used_dispatch_keys = load_derivatives(os.path.join(autograd_dir, "derivatives.yaml"), nf, tags)
lap("load derivatives")
template_path = os.path.join(autograd_dir, "templates")
sel = SelectiveBuilder.get_nop_selector()
fns = sorted(filter(sel.is_native_function_selected_for_training, native_funcs), key=lambda f: cpp.name(f.func))
fns_with_diff_infos = match_differentiability_info(fns, infos)
lap("match infos")
gen_autograd_functions_lib(out, infos, template_path)
lap("Functions (render+write)")
gen_variable_type(out, nf, tags, fns_with_diff_infos, template_path, used_dispatch_keys)
lap("VariableType (render+write)")
gen_inplace_or_view_type(out, nf, tags, fns_with_diff_infos, template_path)
lap("ADInplaceOrViewType")
gen_trace_type(out, native_funcs, template_path)
lap("TraceType")
gen_variable_factories(out, nf, tags, template_path)
lap("variable_factories")
gen_view_funcs(out, fns_with_diff_infos, template_path)
lap("ViewFuncs")
gen_python_functions.gen(out, nf, tags, os.path.join(autograd_dir, "deprecated.yaml"), template_path)
lap("python_functions (render+write)")
print(f"PHASE in-process total: {(time.perf_counter() - t0) * 1000:.0f} ms", file=sys.stderr)
"""

_TORCHGEN_WHOLE = r"""
import sys
from torchgen.packaged.autograd.gen_autograd import gen_autograd, gen_autograd_python
from torchgen.selective_build.selector import SelectiveBuilder
nf, tags, out, autograd_dir = sys.argv[1:5]
gen_autograd(nf, tags, out, autograd_dir, SelectiveBuilder.get_nop_selector())
# The Python bindings (python_functions*.cpp and the Python side of Functions), as gradgen
# writes python_functions*.cpp in the same run.
gen_autograd_python(nf, tags, out, autograd_dir)
"""

# torchgen's steps that produce what gradgen produces (Functions.*, VariableType.*, the Python
# bindings; no tracing, ADInplaceOrView, variable factories or view funcs, which gradgen has no
# equivalent of).
_COMPARABLE = (
    "imports",
    "parse declarations",
    "load derivatives",
    "match infos",
    "Functions (render+write)",
    "VariableType (render+write)",
    "python_functions (render+write)",
)

_CHECK_TORCHGEN = (
    "import torchgen, os, sys; print(os.path.dirname(os.path.dirname(os.path.abspath(torchgen.__file__))))"
)


def _pinned_pythonpath() -> List[str]:
    """This process's import path minus the interpreter's own: the pinned packages + the repo."""
    base = {os.path.dirname(os.__file__)}
    out = []
    for p in sys.path:
        rp = os.path.realpath(p or ".")
        if not p or rp in base or "lib-dynload" in rp or rp.endswith(".zip"):
            continue
        if {"site-packages", "dist-packages"} & set(rp.split(os.sep)):
            continue
        out.append(p)
    return out


class Cmd:
    def __init__(self, label: str, argv: Sequence[str], env: Dict[str, str], cwd: Optional[str] = None) -> None:
        self.label, self.argv, self.env, self.cwd = label, list(argv), env, cwd


def _run_timed(cmd: Cmd, runs: int) -> Tuple[List[float], List[str], Optional[str]]:
    """Runs cmd `runs` times (a fresh empty output dir each time): wall times, stderr of each, error."""
    times, errs = [], []
    for _ in range(runs):
        out = tempfile.mkdtemp(prefix="codegen_bench_out_")
        argv = [a.replace("{OUT}", out) for a in cmd.argv]
        try:
            t = time.perf_counter()
            p = subprocess.run(
                argv, env=cmd.env, cwd=cmd.cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
            dt = time.perf_counter() - t
        finally:
            shutil.rmtree(out, ignore_errors=True)
        if p.returncode != 0:
            tail = "\n".join((p.stderr or p.stdout).strip().splitlines()[-6:])
            return times, errs, f"{cmd.label} exited with status {p.returncode}:\n{tail}"
        times.append(dt)
        errs.append(p.stderr)
    return times, errs, None


def _phases(stderrs: Sequence[str], pattern: str) -> List[Tuple[str, float]]:
    """Median ms of each phase line over the runs, in first-seen order."""
    per: Dict[str, List[float]] = {}
    for text in stderrs:
        for m in re.finditer(pattern, text, re.M):
            per.setdefault(m.group(1), []).append(float(m.group(2)))
    return [(k, statistics.median(v)) for k, v in per.items()]


def _fmt(times: Sequence[float]) -> str:
    return f"best {min(times):6.3f} s   median {statistics.median(times):6.3f} s   (n={len(times)})"


def _print_phases(title: str, phases: List[Tuple[str, float]], wall_median: Optional[float]) -> None:
    _say(f"  {title}")
    total = 0.0
    for name, ms in phases:
        if name == "in-process total":
            continue
        total += ms
        _say(f"    {name:<30} {ms:7.0f} ms")
    if wall_median is not None:
        _say(
            f"    {'(rest: start, exit, imports*)':<30} {wall_median * 1000 - total:7.0f} ms   "
            "[wall median - phases; *gradgen: imports]"
        )


# --- the persistent worker ------------------------------------------------------------------------

# The formula the worker requests edit: the first `self:` formula of derivatives.yaml (abs's).
_EDITED_LINE = re.compile(r"^(  self: )(.+)$", re.M)


def _worker_bench(cmd: Cmd, gen_args: List[str], derivatives: str, runs: int) -> None:
    """Times requests to `gen_autograd --persistent_worker` (bazel_worker.py), as Bazel sends them
    after an edit: one warm-up request on the specs as they are, then `runs` requests, each on a
    copy of derivatives.yaml with one formula changed (a different change each time, so no
    request repeats an earlier one's inputs), then one with a line added above every entry (as
    when a formula gets a line of its own: the entries below it move). Checks the files of those
    last two requests against a fresh run's."""
    from google.protobuf import proto

    from tools.codegen.bazel_worker import WorkRequest, WorkResponse

    _say("codegen_bench: the persistent worker (--persistent_worker), one formula of derivatives.yaml edited "
         "per request ...")  # fmt: skip
    with open(derivatives, encoding="utf-8") as fh:
        text = fh.read()
    m = _EDITED_LINE.search(text)
    work = tempfile.mkdtemp(prefix="codegen_bench_worker_")
    proc = subprocess.Popen(cmd.argv[:1] + ["--persistent_worker"], env=cmd.env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        times: List[float] = []
        for i in range(runs + 2):
            path = os.path.join(work, f"derivatives_{i}.yaml")
            edited = text if i == 0 else f"{text[: m.start(2)]}({m.group(2)}) * {i}{text[m.end(2) :]}"
            if i == runs + 1:
                edited = "# a line above every entry\n" + text
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(edited)
            out = os.path.join(work, f"out_{i}")
            argv = [a.replace("{OUT}", out) for a in gen_args if a != "--timing"]
            argv[argv.index("--derivatives") + 1] = path
            t = time.perf_counter()
            proto.serialize_length_prefixed(WorkRequest(arguments=argv, request_id=i + 1), proc.stdin)
            proc.stdin.flush()
            response = proto.parse_length_prefixed(WorkResponse, proc.stdout)
            dt = time.perf_counter() - t
            if response is None or response.exit_code != 0:
                _say(f"  request {i} failed: {response.output if response else 'no response'}")
                return
            if i == runs + 1:
                _say(f"  a request after a line is added above every entry: {dt:6.3f} s")
            elif i > 0:
                times.append(dt)
            if i >= runs:  # the last requests' files against a fresh process's on the same inputs
                fresh = os.path.join(work, f"fresh_{i}")
                subprocess.run(cmd.argv[:1] + [a.replace(out, fresh) for a in argv], env=cmd.env, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
                same = subprocess.run(["diff", "-r", "-q", out, fresh], stdout=subprocess.DEVNULL).returncode == 0
                which = "last formula edit's" if i == runs else "line-added request's"
                _say(f"  the {which} files {'equal' if same else 'DIFFER FROM'} a fresh run's on the same inputs")
                if i == runs:
                    _say(f"  per request after warm-up: {_fmt(times)}")
                shutil.rmtree(fresh, ignore_errors=True)
            shutil.rmtree(out, ignore_errors=True)
    finally:
        proc.stdin.close()
        proc.wait()
        shutil.rmtree(work, ignore_errors=True)


# --- torchgen -------------------------------------------------------------------------------------


def _interpreter_has_module(python: str, module: str, env: Dict[str, str]) -> bool:
    try:
        r = subprocess.run(
            [python, "-c", f"import {module}"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    except OSError:
        return False
    return r.returncode == 0


def _download_torchgen(version: str, dest: str) -> Tuple[Optional[str], str]:
    """pip download the torch wheel, unzip torchgen/ into dest. (root, how) or (None, why not)."""
    if os.path.isfile(os.path.join(dest, "torchgen", "__init__.py")):
        return dest, f"cached extraction {dest}"
    wheel_dir = tempfile.mkdtemp(prefix="codegen_bench_wheel_")
    try:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        pip_cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            f"torch=={version}",
            "--no-deps",
            "--only-binary=:all:",
            "-d",
            wheel_dir,
        ]
        _say(f"  fetching the torch {version} wheel for torchgen: {' '.join(pip_cmd[1:])}")
        try:
            p = subprocess.run(
                pip_cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1800
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, f"pip download failed: {e}"
        wheels = [w for w in os.listdir(wheel_dir) if w.startswith("torch-") and w.endswith(".whl")]
        if p.returncode != 0 or not wheels:
            tail = " | ".join(p.stdout.strip().splitlines()[-3:])
            return None, f"pip download torch=={version} failed (status {p.returncode}): {tail}"
        tmp = tempfile.mkdtemp(prefix="torchgen_", dir=os.path.dirname(dest))
        with zipfile.ZipFile(os.path.join(wheel_dir, wheels[0])) as z:
            members = [n for n in z.namelist() if n.startswith("torchgen/")]
            if not members:
                return None, f"{wheels[0]} holds no torchgen/"
            z.extractall(tmp, members)
        if os.path.isdir(dest):
            shutil.rmtree(dest, ignore_errors=True)
        os.replace(tmp, dest)
        return dest, f"torchgen/ unzipped from {wheels[0]} into {dest}"
    finally:
        shutil.rmtree(wheel_dir, ignore_errors=True)


def _torchgen_command(args: argparse.Namespace, shim_dir: str) -> Tuple[Optional[Tuple[str, Dict[str, str], str]], str]:
    """((python, env, torchgen_root), description) or (None, why the anchor is skipped)."""
    why = []
    if args.torchgen_python:
        env = _action_env()
        if _interpreter_has_module(args.torchgen_python, "torchgen", env):
            root = subprocess.run(
                [args.torchgen_python, "-c", _CHECK_TORCHGEN], env=env, stdout=subprocess.PIPE, text=True
            ).stdout.strip()
            return (args.torchgen_python, env, root), f"{args.torchgen_python} (its own packages), torchgen in {root}"
        why.append(f"--torchgen_python={args.torchgen_python} cannot `import torchgen`")
    roots = []
    if args.torchgen_root:
        roots.append((args.torchgen_root, f"--torchgen_root={args.torchgen_root}"))
    cache = os.path.join(tempfile.gettempdir(), f"gradgen_codegen_bench_torchgen-{args.torch_version}")
    if not args.torchgen_root and os.path.isfile(os.path.join(cache, "torchgen", "__init__.py")):
        roots.append((cache, f"cached extraction {cache}"))
    elif not args.torchgen_root and not args.no_download:
        root, how = _download_torchgen(args.torch_version, cache)
        if root is None:
            why.append(how)
        else:
            roots.append((root, how))
    elif not args.torchgen_root:
        why.append("--no_download")
    for root, how in roots:
        if not os.path.isfile(os.path.join(root, "torchgen", "__init__.py")):
            why.append(f"{how}: no torchgen/__init__.py there")
            continue
        # Same interpreter and pinned PyYAML (with libyaml) as gradgen; torchgen first on the path.
        path = [root] + _pinned_pythonpath()
        env = _action_env({"PYTHONPATH": os.pathsep.join(path)})
        if not _interpreter_has_module(sys.executable, "typing_extensions", env):
            path.append(shim_dir)
            env["PYTHONPATH"] = os.pathsep.join(path)
            how += "; typing_extensions shimmed from typing"
        if _interpreter_has_module(sys.executable, "torchgen.packaged.autograd.gen_autograd", env):
            skipped = "".join(f" (not used: {w})" for w in why)
            return (sys.executable, env, root), f"{sys.executable} + pinned PyYAML, {how}{skipped}"
        why.append(f"{how}: `import torchgen.packaged.autograd.gen_autograd` fails with {sys.executable}")
    return None, "; ".join(why) or "no torchgen source given"


# --- main -----------------------------------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--specs_dir",
        default=None,
        help="Holds native_functions.yaml + derivatives.yaml (default <workspace>/../shared/pytorch).",
    )
    ap.add_argument(
        "--runs", type=int, default=5, help="Fresh-process runs of each codegen (best and median are printed)."
    )
    ap.add_argument(
        "--phase_runs", type=int, default=3, help="Runs of torchgen's step-by-step driver (median per phase)."
    )
    ap.add_argument(
        "--torchgen_python", default=None, help="An interpreter that can `import torchgen` (a venv with torch)."
    )
    ap.add_argument("--torchgen_root", default=None, help="A directory holding torchgen/ (run with this interpreter).")
    ap.add_argument(
        "--torch_version", default="2.14.1", help="The torch wheel to pip download when torchgen is not given."
    )
    ap.add_argument("--no_download", action="store_true", help="Never pip download the torch wheel.")
    ap.add_argument("--shards", type=int, default=4, help="gradgen's --shards.")
    ap.add_argument(
        "--worker_runs",
        type=int,
        default=5,
        help="Requests to gradgen's persistent worker after warm-up, each with one formula of derivatives.yaml "
        "edited (0: skip the worker).",
    )
    args = ap.parse_args(argv)

    ws = _workspace_dir()
    specs = os.path.abspath(args.specs_dir or os.path.join(ws, "..", "shared", "pytorch"))
    nf = os.path.join(specs, "native_functions.yaml")
    deriv = os.path.join(specs, "derivatives.yaml")
    _say(f"codegen_bench: specs {specs}")
    for f in (nf, deriv):
        if not os.path.isfile(f):
            _say(f"codegen_bench: {f} does not exist; nothing measured (pass --specs_dir).")
            return 0

    # --- gradgen ---
    runfiles = _runfiles_dir()
    gen_args = [
        "--native_functions", nf, "--derivatives", deriv,
        "--native_functions_name", "native_functions.yaml", "--derivatives_name", "derivatives.yaml",
        "--out_dir", "{OUT}", "--missing_derivative=not_implemented", "--implicit_composite",
        f"--shards={args.shards}", "--timing",
    ]  # fmt: skip
    cmds = []
    pinned_env = _action_env({"PYTHONPATH": os.pathsep.join(_pinned_pythonpath())})
    launcher = codegen_launcher()
    if launcher:
        script = os.path.join(runfiles, "gradgen/tools/codegen/gen_autograd.py")
        cmds.append(Cmd("gradgen (Bazel launcher, as the rule runs it)", [launcher] + gen_args, _action_env()))
    else:
        script = os.path.join(ws, "tools/codegen/gen_autograd.py")
    cmds.append(Cmd("gradgen (python3 gen_autograd.py, no launcher)", [sys.executable, script] + gen_args, pinned_env))

    origins = subprocess.run(cmds[0].argv[:1 if len(cmds) > 1 else 2] + ["--report_import_origins"], env=cmds[0].env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout.strip()  # fmt: skip
    _say(f"codegen_bench: gradgen interpreter {sys.executable} (Python {sys.version.split()[0]}); imports from:")
    for line in origins.splitlines():
        _say(f"    {line}")
    floor = _run_timed(Cmd("python -c pass", [sys.executable, "-c", "pass"], _action_env()), args.runs)[0]
    _say(f"codegen_bench: bare interpreter start ({sys.executable} -c pass): {_fmt(floor)}")
    _say("codegen_bench: environment of both codegens: a Bazel action's (PYTHONDONTWRITEBYTECODE=1: no .pyc is "
         "written, so none exists for gradgen's runfiles or pinned packages)")  # fmt: skip

    if args.worker_runs > 0:
        _worker_bench(cmds[0], gen_args, deriv, args.worker_runs)

    # --- torchgen: resolve it first, so that all runs can be interleaved ---
    _say(f"codegen_bench: anchor: PyTorch {args.torch_version} torchgen gen_autograd")
    work = tempfile.mkdtemp(prefix="codegen_bench_")
    try:
        shim_dir = os.path.join(work, "shim")
        os.makedirs(shim_dir)
        with open(os.path.join(shim_dir, "typing_extensions.py"), "w") as fh:
            fh.write(_TYPING_EXTENSIONS_SHIM)
        found, how = _torchgen_command(args, shim_dir)
        torch_cmd = phase_cmd = None
        if found is None:
            _say(f"  SKIPPED: no torchgen: {how}")
            _say("  (give --torchgen_python=/path/to/venv/bin/python or --torchgen_root=DIR; see bench/README.md)")
        else:
            python, env, root = found
            _say(f"  torchgen: {how}")
            autograd_dir = os.path.join(work, "autograd")
            os.makedirs(autograd_dir)
            pkg = os.path.join(root, "torchgen", "packaged")
            os.symlink(deriv, os.path.join(autograd_dir, "derivatives.yaml"))
            os.symlink(os.path.join(pkg, "autograd", "templates"), os.path.join(autograd_dir, "templates"))
            os.symlink(os.path.join(pkg, "autograd", "deprecated.yaml"), os.path.join(autograd_dir, "deprecated.yaml"))
            tags = os.path.join(pkg, "ATen", "native", "tags.yaml")
            targs = [nf, tags, "{OUT}", autograd_dir]
            torch_cmd = Cmd(TORCH_LABEL, [python, "-c", _TORCHGEN_WHOLE] + targs, env)
            phase_cmd = Cmd("torchgen phases", [python, "-c", _TORCHGEN_PHASES] + targs, env)

        # Round-robin: run i of every command back to back, so load drift hits all alike.
        all_cmds = cmds + ([torch_cmd] if torch_cmd else [])
        _say(f"codegen_bench: {args.runs} fresh-process runs of each, interleaved ...")
        times: Dict[str, List[float]] = {c.label: [] for c in all_cmds}
        errs: Dict[str, List[str]] = {c.label: [] for c in all_cmds}
        failed: Dict[str, str] = {}
        for _ in range(args.runs):
            for c in all_cmds:
                if c.label in failed:
                    continue
                t, e, err = _run_timed(c, 1)
                if err:
                    failed[c.label] = err
                else:
                    times[c.label] += t
                    errs[c.label] += e

        results: List[Tuple[str, List[float]]] = []
        torch_times: Optional[List[float]] = None
        for c in all_cmds:
            _say(f"\n== {c.label}")
            if c.label in failed:
                _say(f"  FAILED{' (anchor skipped)' if c is torch_cmd else ''}: {failed[c.label]}")
                continue
            ts = times[c.label]
            _say(f"  whole run, fresh processes: {_fmt(ts)}")
            if c is torch_cmd:
                torch_times = ts
                ptimes, perrs, perr = _run_timed(phase_cmd, args.phase_runs)
                if perr:
                    _say(f"  step-by-step driver failed (phases not shown): {perr}")
                    continue
                ph = _phases(perrs, r"^PHASE (.+?): (\d+) ms$")
                _print_phases(f"phases (step-by-step driver, median of {args.phase_runs}; "
                              "each gen_* renders AND writes):", ph, statistics.median(ptimes))  # fmt: skip
                phd = dict(ph)
                rest = statistics.median(ptimes) * 1000 - sum(v for k, v in ph if k != "in-process total")
                comparable = rest + sum(phd.get(k, 0.0) for k in _COMPARABLE)
                _say(
                    f"    {'subtotal comparable to gradgen':<30} {comparable:7.0f} ms   "
                    "[rest + imports .. VariableType + python_functions]"
                )
            else:
                _print_phases("phases (--timing, median over runs):",
                              _phases(errs[c.label], r"^gen_autograd: (.+?): (\d+) ms$"),
                              statistics.median(ts))  # fmt: skip
                results.append((c.label, ts))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    # --- table ---
    _say("\n== Summary (seconds; ratio = PyTorch / gradgen, target >= %.0fx)" % TARGET_RATIO)
    _say(f"  {'':<48} {'best':>7} {'median':>7} {'ratio(best)':>12} {'ratio(median)':>14}")
    if torch_times:
        _say(f"  {TORCH_LABEL:<48} {min(torch_times):7.3f} {statistics.median(torch_times):7.3f}")
    for label, times in results:
        if torch_times:
            rb = min(torch_times) / min(times)
            rm = statistics.median(torch_times) / statistics.median(times)
            verdict = "meets" if min(rb, rm) >= TARGET_RATIO else "BELOW"
            _say(
                f"  {label:<48} {min(times):7.3f} {statistics.median(times):7.3f} {rb:11.2f}x {rm:13.2f}x  "
                f"{verdict} >= {TARGET_RATIO:.0f}x"
            )
        else:
            _say(
                f"  {label:<48} {min(times):7.3f} {statistics.median(times):7.3f} {'n/a':>12} {'n/a':>14}  "
                "(anchor skipped)"
            )
    if results and torch_times:
        need = statistics.median(torch_times) / TARGET_RATIO
        _say(f"  gradgen needs <= {need:.3f} s (median) for >= {TARGET_RATIO:.0f}x against this PyTorch run.")
    return 0


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001 - a benchmark reports, it does not fail the build
        print(f"codegen_bench: error: {type(e).__name__}: {e}", file=sys.stderr)
    sys.exit(0)
