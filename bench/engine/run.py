#!/usr/bin/env python3
"""Autograd engine benchmarks (issue 4): gradgen beside libtorch, in one run.

Builds //bench/engine:gradgen_bench and :index_range_bench with `./bazelw build -c opt`,
compiles libtorch_bench.cc with g++ -O2 when a torch install is found, then
  1. times the three workloads (chain, step, cat) in both, alternating, --rounds times, and
     keeps each figure's best median;
  2. counts instructions with callgrind on the chain and on cat (forward and backward
     collected separately, plus a whole-run count minus a 0-iteration baseline as a check);
  3. counts the instructions of the generated apply() against a hand-written one with
     constant indices (index_range_bench);
and prints a table: gradgen, libtorch, ratio, target, met / NOT MET. It measures and prints;
the exit status is 0 whatever the figures (and whatever fails).

With --n=64,256,512,1024 (issue 15) it runs instead the GEMM-bound workloads (step: tanh(y @ W);
mlp: linear, relu, linear, mse_loss) at those sizes, for each --threads count on both sides,
alternating the libraries, and prints one Markdown table per thread count (ratio = gradgen /
libtorch, target <= 1.0x) with the check that both computed the same numbers. With --gemm it
compiles and runs gemm_bench.cc: gradgen's kernel, Eigen, OpenBLAS, BLIS and MKL (libtorch's) on the same
products, a table of GFLOP/s. With --nn (issue 26) it runs nn_bench_gradgen beside
nn_bench_libtorch (conv2d variants, conv_transpose2d, a small CNN step, layer_norm, attention),
after one ONEDNN_VERBOSE pass that shows which oneDNN primitives libtorch picks.

Usage (from anywhere; see bench/README.md):
  bench/engine/run.sh [--torch_python=PY] [--rounds=3] [--no_callgrind] [--profile] ...
  bench/engine/run.sh --n=64,256,512,1024 --threads=1,2 [--rounds=5]
  bench/engine/run.sh --gemm [--gemm_sizes=16,64,256,512,1024] [--threads=1,2]
  bench/engine/run.sh --nn --threads=1,2 [--rounds=3] [--nn_workloads=conv3x3,cnn,...]
"""

import argparse
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

# Measured on this machine with libtorch 2.13 before gradgen had the ops (issue 4): shown
# when no torch install is found, marked as such; never used when torch runs beside gradgen.
ANCHOR = {
    "chain.fwd_us_per_op": 1.0,
    "chain.bwd_us_per_op": 3.4,
    "chain.total_us_per_op": 4.4,
    "chain.ir_fwd_per_op": 8300,
    "chain.ir_bwd_per_op": 27700,
    "chain.ir_total_per_op": 36000,
    "step.fwd_us": 20.0,
    "step.bwd_us": 22.0,
    "step.total_us": 42.0,
    "cat.total_us": 37.0,
}

TORCH_DEFAULT_PYTHONS = ["/tmp/torchvenv/bin/python", "/tmp/torch213/bin/python"]

CHECKS = {}  # label -> {key: value} from the first timing round


def log(msg):
    print(msg, flush=True)


def run(cmd, cwd=None, env=None, timeout=None, check=False):
    """Runs cmd; returns (returncode, stdout+stderr)."""
    try:
        p = subprocess.run(
            cmd, cwd=cwd, env=env, timeout=timeout, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
    except subprocess.TimeoutExpired as e:
        return 124, (e.stdout or "") + "\n(timed out)"
    except OSError as e:
        return 127, str(e)
    if check and p.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stdout[-4000:]))
    return p.returncode, p.stdout


def parse_checks(text):
    """CHECK lines -> {key: float}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"CHECK (\S+) (\S+)$", line)
        if m:
            try:
                out[m.group(1)] = float(m.group(2))
            except ValueError:
                pass
    return out


def parse_results(text):
    """RESULT lines -> {key: float or 'NA reason'}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"RESULT (\S+) (\S+)(?: (.*))?$", line)
        if not m:
            continue
        key, value, rest = m.groups()
        if value == "NA":
            out[key] = "NA " + (rest or "")
        else:
            try:
                out[key] = float(value)
            except ValueError:
                out[key] = "NA " + value
    return out


# ---------------------------------------------------------------------------------------------
# Builds
# ---------------------------------------------------------------------------------------------


def build_gradgen(args, targets=("gradgen_bench", "index_range_bench")):
    ws = args.workspace
    opts = ["-c", "opt", "--jobs=%d" % args.jobs, "--symlink_prefix=/"]
    opts += ["--copt=%s" % c for c in args.copt]
    labels = ["//bench/engine:" + t for t in targets]
    log("== building %s (-c opt%s)" % (" ".join(labels), "".join(" --copt=" + c for c in args.copt)))
    rc, out = run(
        [os.path.join(ws, "bazelw"), "build"] + opts + labels,
        cwd=ws,
    )
    if rc != 0:
        log(out[-6000:])
        log("build failed: gradgen figures are skipped")
        return None
    rc, out = run([os.path.join(ws, "bazelw"), "info"] + opts + ["bazel-bin"], cwd=ws)
    bin_dir = out.strip().splitlines()[-1] if rc == 0 else ""
    if not os.path.isdir(bin_dir):
        log("could not locate bazel-bin (%s)" % out[-2000:])
        return None
    return os.path.join(bin_dir, "bench", "engine")


def find_torch(args):
    """Returns (python, torch_dir, version, cxx11_abi) or None, printing why."""
    candidates = [args.torch_python] if args.torch_python else TORCH_DEFAULT_PYTHONS
    for py in candidates:
        if not py or not os.path.exists(py):
            if args.torch_python:
                log("--torch_python=%s does not exist" % py)
            continue
        rc, out = run(
            [
                py,
                "-c",
                "import os, torch; print(os.path.dirname(torch.__file__)); "
                "print(torch.__version__); print(int(torch._C._GLIBCXX_USE_CXX11_ABI))",
            ],
            env=dict(os.environ, PYTHONWARNINGS="ignore"),
        )
        lines = [line for line in out.splitlines() if line.strip()]
        if rc != 0 or len(lines) < 3:
            log("%s cannot import torch:\n%s" % (py, out[-1500:]))
            continue
        return py, lines[-3], lines[-2], lines[-1]
    return None


def build_libtorch_bench(args, torch, name="libtorch_bench"):
    py, tdir, version, abi = torch
    src = os.path.join(args.workspace, "bench", "engine", name + ".cc")
    hdr = os.path.join(args.workspace, "bench", "engine", "bench_common.h")
    out_dir = os.path.join(args.tmpdir, "gradgen_engine_bench")
    os.makedirs(out_dir, exist_ok=True)
    exe = os.path.join(out_dir, "%s-%s-abi%s" % (name, re.sub(r"[^\w.+-]", "_", version), abi))
    newest = max(os.path.getmtime(src), os.path.getmtime(hdr))
    if os.path.exists(exe) and os.path.getmtime(exe) > newest:
        log("== %s (torch %s from %s): up to date, %s" % (name, version, tdir, exe))
        return exe
    log("== compiling %s.cc against torch %s (%s), g++ -O2" % (name, version, tdir))
    base = [
        "g++",
        "-O2",
        "-D_GLIBCXX_USE_CXX11_ABI=%s" % abi,
        "-I",
        args.workspace,
        "-I",
        os.path.join(tdir, "include"),
        "-I",
        os.path.join(tdir, "include", "torch", "csrc", "api", "include"),
        src,
        "-o",
        exe + ".tmp",
        "-L",
        os.path.join(tdir, "lib"),
        "-Wl,-rpath," + os.path.join(tdir, "lib"),
        "-Wl,--no-as-needed",
        "-ltorch",
        "-ltorch_cpu",
        "-lc10",
        "-Wl,--as-needed",
        "-lpthread",
    ]
    out = ""
    for std in ("-std=c++20", "-std=c++17"):  # recent libtorch headers want C++20
        rc, out = run(["nice"] + base[:1] + [std] + base[1:])
        if rc == 0:
            os.replace(exe + ".tmp", exe)
            return exe
    log(out[-6000:])
    log("%s did not compile: libtorch figures are skipped" % name)
    return None


# ---------------------------------------------------------------------------------------------
# Measurements
# ---------------------------------------------------------------------------------------------


def time_rounds(args, benches):
    """benches: {label: exe}. Returns {label: {key: best value}} and prints every round."""
    all_rounds = {label: [] for label in benches}
    common = ["--mode=time", "--dtype=%s" % args.dtype, "--chain_len=%d" % args.chain_len]
    for r in range(args.rounds):
        for label, exe in benches.items():
            log("== timing round %d/%d: %s (load %s)" % (r + 1, args.rounds, label, loadavg()))
            rc, out = run([exe] + common, timeout=1800)
            for line in out.splitlines():
                if not line.startswith(("RESULT", "CHECK")):
                    log("   " + line)
            if rc != 0:
                log("   %s exited with %d" % (label, rc))
            all_rounds[label].append(parse_results(out))
            CHECKS.setdefault(label, parse_checks(out))
    best = {}
    for label, rounds in all_rounds.items():
        merged = {}
        for res in rounds:
            for k, v in res.items():
                if isinstance(v, float):
                    prev = merged.get(k)
                    merged[k] = v if not isinstance(prev, float) else min(prev, v)
                else:
                    merged.setdefault(k, v)
        best[label] = merged
    return best


def callgrind_total(out_file):
    with open(out_file) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise RuntimeError("no totals in %s" % out_file)


def callgrind(args, exe, bench_args, tag, collect_atstart=True, extra=()):
    out_file = os.path.join(args.tmpdir, "gradgen_engine_bench", "callgrind.%s.out" % tag)
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file]
    if not collect_atstart:
        cmd.append("--collect-atstart=no")
    cmd += list(extra) + [exe] + list(bench_args)
    t0 = time.time()
    rc, out = run(cmd, timeout=3600)
    if rc != 0 or not os.path.exists(out_file):
        raise RuntimeError("callgrind %s failed (%d):\n%s" % (tag, rc, out[-3000:]))
    total = callgrind_total(out_file)
    log("   callgrind %-28s %14s Ir  (%.0f s)" % (tag, format(total, ","), time.time() - t0))
    return total, out_file


def callgrind_workloads(args, benches, gradgen_res):
    """Instructions per op for chain and cat, per library: {label: {key: value}}."""
    res = {label: {} for label in benches}
    k = args.callgrind_iters
    for label, exe in benches.items():
        for workload, ops in (("chain", 2 * args.chain_len), ("cat", 3)):
            iters = k if workload == "chain" else k * 100
            if label == "gradgen" and isinstance(gradgen_res.get(workload + ".total_us"), str):
                reason = gradgen_res[workload + ".total_us"]
                for key in ("ir_fwd_per_op", "ir_bwd_per_op", "ir_total_per_op", "ir_run_minus_baseline_per_op"):
                    res[label]["%s.%s" % (workload, key)] = reason
                continue
            log("== callgrind: %s %s (%d iterations of %d ops)" % (label, workload, iters, ops))
            common = [
                "--mode=callgrind",
                "--workloads=" + workload,
                "--dtype=" + args.dtype,
                "--chain_len=%d" % args.chain_len,
            ]
            try:
                fwd, _ = callgrind(
                    args,
                    exe,
                    common + ["--phase=fwd", "--iters=%d" % iters],
                    "%s.%s.fwd" % (label, workload),
                    collect_atstart=False,
                )
                bwd, bwd_file = callgrind(
                    args,
                    exe,
                    common + ["--phase=bwd", "--iters=%d" % iters],
                    "%s.%s.bwd" % (label, workload),
                    collect_atstart=False,
                )
                n = float(iters * ops)
                res[label][workload + ".ir_fwd_per_op"] = fwd / n
                res[label][workload + ".ir_bwd_per_op"] = bwd / n
                res[label][workload + ".ir_total_per_op"] = (fwd + bwd) / n
                if workload == "chain":
                    whole, _ = callgrind(args, exe, common + ["--iters=%d" % iters], "%s.%s.all" % (label, workload))
                    base, _ = callgrind(args, exe, common + ["--iters=0"], "%s.%s.baseline" % (label, workload))
                    # Includes the untimed .grad reset between iterations.
                    res[label][workload + ".ir_run_minus_baseline_per_op"] = (whole - base) / n
                if label == "gradgen" and args.profile:
                    fwd_file = bwd_file.replace(".bwd.", ".fwd.")
                    for f, phase in ((fwd_file, "forward"), (bwd_file, "backward")):
                        profile(args, f, "%s %s" % (workload, phase))
            except Exception as e:  # keep going: the table says what is missing
                log("   %s" % e)
    return res


def profile(args, out_file, what):
    log("== gradgen %s: top functions by exclusive instructions (callgrind_annotate)" % what)
    rc, out = run(["callgrind_annotate", "--inclusive=no", out_file])
    lines = out.splitlines()
    start = next((i for i, line in enumerate(lines) if "file:function" in line), None)
    if start is None:
        log(out[-3000:])
        return
    shown = 0
    for line in lines[start + 1 :]:
        if not line.strip() or line.startswith("-"):
            if shown:
                break
            continue
        line = re.sub(r" \[[^\]]*\]$", "", line)  # the object file's path
        line = re.sub(r"std::vector<gradgen::Tensor, std::allocator<gradgen::Tensor> >", "variable_list", line)
        log("   " + line[:160])
        shown += 1
        if shown >= args.profile_top:
            break


def index_range(args, exe):
    """{case: (generated Ir, hand Ir, calls)}."""
    res = {}
    names = {
        "lincomb": ("LincombBackward0", "HandLincombBackward"),
        "cat": ("CatBackward0", "HandCatBackward"),
        "mul": ("MulBackward0", "HandMulBackward"),
    }
    calls = args.index_range_iters
    for (case, (gen_name, hand_name)), grad in itertools.product(names.items(), ("ones", "undefined")):
        toggles = ["--toggle-collect=*%s::apply*" % gen_name, "--toggle-collect=*%s::apply*" % hand_name]
        label = case if grad == "ones" else case + ", grad undef (slots only)"
        tag = "%s.%s" % (case, grad)
        log("== callgrind: index_range_bench %s (%d apply() calls each)" % (label, calls))
        try:
            common = ["--case=" + case, "--grad=" + grad, "--iters=%d" % calls]
            g, _ = callgrind(args, exe, common + ["--which=generated"], "index_range.%s.generated" % tag, extra=toggles)
            h, _ = callgrind(args, exe, common + ["--which=hand"], "index_range.%s.hand" % tag, extra=toggles)
            res[label] = (g, h, calls)
        except Exception as e:
            log("   %s" % e)
    return res


def loadavg():
    try:
        return "%.2f" % os.getloadavg()[0]
    except OSError:
        return "?"


# ---------------------------------------------------------------------------------------------
# GEMM-bound workloads at several sizes and thread counts (issue 15)
# ---------------------------------------------------------------------------------------------

SIZE_WORKLOADS = ("step", "mlp")
SIZE_LABELS = {"step": "`tanh(y @ W)` step", "mlp": "2-layer MLP step"}


def size_rounds(args, benches, sizes, threads):
    """Returns {(label, threads, n): {key: best value}} and {(label, threads, n): checks}."""
    best, checks = {}, {}
    for t in threads:
        for n in sizes:
            for r in range(args.rounds):
                for label, exe in benches.items():
                    cmd = [
                        exe,
                        "--mode=time",
                        "--dtype=%s" % args.dtype,
                        "--workloads=" + ",".join(SIZE_WORKLOADS),
                        "--n=%d" % n,
                        "--threads=%d" % t,
                    ]
                    log(
                        "== n %d, %d thread(s), round %d/%d: %s (load %s)"
                        % (n, t, r + 1, args.rounds, label, loadavg())
                    )
                    rc, out = run(cmd, timeout=1800)
                    for line in out.splitlines():
                        if not line.startswith(("RESULT", "CHECK")):
                            log("   " + line)
                    if rc != 0:
                        log("   %s exited with %d" % (label, rc))
                    merged = best.setdefault((label, t, n), {})
                    for k, v in parse_results(out).items():
                        if isinstance(v, float):
                            prev = merged.get(k)
                            merged[k] = v if not isinstance(prev, float) else min(prev, v)
                        else:
                            merged.setdefault(k, v)
                    checks.setdefault((label, t, n), parse_checks(out))
    return best, checks


def fmt_us(v):
    if not isinstance(v, float):
        return "n/a"
    return ("%.1f ms" % (v / 1000)) if v >= 10000 else ("%.2f ms" % (v / 1000)) if v >= 1000 else ("%.1f us" % v)


def size_report(args, best, checks, sizes, threads, torch_label):
    """One Markdown table per thread count: ready to paste into docs/benchmarks.md."""
    have_torch = any(label == "libtorch" for (label, _, _) in best)
    for t in threads:
        log("")
        log(
            "GEMM-bound workloads, %s, %d thread(s) on both sides, %s, best median of %d rounds; "
            "ratio = gradgen / %s (target <= 1.0x)" % (args.dtype, t, "n x n", args.rounds, torch_label)
        )
        log("")
        log("| N | workload | gradgen fwd / bwd | %s fwd / bwd | ratio fwd | ratio bwd | ratio fwd+bwd |" % torch_label)
        log("| --- | --- | --- | --- | --- | --- | --- |")
        worst_ratio, worst_diff, compared = 0.0, 0.0, 0
        for n in sizes:
            gg = best.get(("gradgen", t, n), {})
            lt = best.get(("libtorch", t, n), {})
            for w in SIZE_WORKLOADS:
                cells = []
                for phase in ("fwd", "bwd", "total"):
                    g, l_ = gg.get(w + "." + phase + "_us"), lt.get(w + "." + phase + "_us")
                    if isinstance(g, float) and isinstance(l_, float) and l_ > 0:
                        cells.append("%.2fx" % (g / l_))
                        if phase == "total":
                            worst_ratio = max(worst_ratio, g / l_)
                    else:
                        cells.append("n/a")
                log(
                    "| %d | %s | %s / %s | %s / %s | %s | %s | **%s** |"
                    % (
                        n,
                        SIZE_LABELS[w],
                        fmt_us(gg.get(w + ".fwd_us")),
                        fmt_us(gg.get(w + ".bwd_us")),
                        fmt_us(lt.get(w + ".fwd_us")),
                        fmt_us(lt.get(w + ".bwd_us")),
                        cells[0],
                        cells[1],
                        cells[2],
                    )
                )
            gc, lc = checks.get(("gradgen", t, n), {}), checks.get(("libtorch", t, n), {})
            # Norms and losses: plain sums of n^2 values of either sign cancel, and float32
            # rounding alone moves them by more than 1e-3.
            for key, g in gc.items():
                if key in lc and (key.endswith("_norm") or key.endswith(".loss")):
                    compared += 1
                    worst_diff = max(worst_diff, abs(g - lc[key]) / max(abs(lc[key]), 1e-12))
        log("")
        if have_torch:
            log(
                "Same numbers: %d checks (losses, norms of outputs and gradients) at every N, largest "
                "relative difference %.1e: %s. Largest fwd+bwd ratio %.2fx: %s."
                % (
                    compared,
                    worst_diff,
                    "both libraries computed the same thing" if worst_diff < 1e-3 else "MISMATCH",
                    worst_ratio,
                    "every figure <= 1.0x" if worst_ratio <= 1.0 else "NOT MET",
                )
            )
        else:
            log("libtorch did not run: no ratios (pass --torch_python=PY).")
    log("Load average at the end: %s (%d cores)." % (loadavg(), os.cpu_count() or 0))


# ---------------------------------------------------------------------------------------------
# nn workloads (issue 26): nn_bench_gradgen.cc beside nn_bench_libtorch.cc
# ---------------------------------------------------------------------------------------------

NN_WORKLOADS = ("conv3x3", "conv3x3s2", "conv1x1", "dwconv3x3", "convT", "cnn", "layer_norm", "sdpa")
NN_LABELS = {
    "conv3x3": "conv2d 3x3 s1, 8x64x56x56 -> 64",
    "conv3x3s2": "conv2d 3x3 s2 -> 8x64x28x28",
    "conv1x1": "conv2d 1x1, 8x64x56x56 -> 64",
    "dwconv3x3": "depthwise conv2d 3x3 (groups 64)",
    "convT": "conv_transpose2d 3x3 s2, 28 -> 56",
    "cnn": "CNN step, batch 32, 3x32x32",
    "layer_norm": "layer_norm [8, 128, 256]",
    "sdpa": "sdpa [8, 4 heads, 128, 64]",
}


def nn_main(args):
    """Builds both nn benches, alternates them --rounds times per thread count, prints tables."""
    benches = {}
    bench_dir = build_gradgen(args, targets=("nn_bench_gradgen",))
    if bench_dir:
        benches["gradgen"] = os.path.join(bench_dir, "nn_bench_gradgen")
    torch = None if args.no_torch else find_torch(args)
    torch_label = "libtorch"
    if torch:
        exe = build_libtorch_bench(args, torch, "nn_bench_libtorch")
        if exe:
            benches["libtorch"] = exe
            torch_label = "libtorch " + torch[2]
            if not args.no_onednn_verbose:
                onednn_primitives(args, exe)
    best, checks = {}, {}
    for t in args.thread_list:
        for r in range(args.rounds):
            for label, exe in benches.items():
                cmd = [exe, "--mode=time", "--dtype=" + args.dtype, "--workloads=" + args.nn_workloads]
                cmd.append("--threads=%d" % t)
                log("== nn, %d thread(s), round %d/%d: %s (load %s)" % (t, r + 1, args.rounds, label, loadavg()))
                rc, out = run(cmd, timeout=3600)
                for line in out.splitlines():
                    if not line.startswith(("RESULT", "CHECK", "BACKEND")):
                        log("   " + line)
                if rc != 0:
                    log("   %s exited with %d" % (label, rc))
                merged = best.setdefault((label, t), {})
                for k, v in parse_results(out).items():
                    if isinstance(v, float):
                        prev = merged.get(k)
                        merged[k] = v if not isinstance(prev, float) else min(prev, v)
                    else:
                        merged.setdefault(k, v)
                checks.setdefault((label, t), parse_checks(out))
    nn_report(args, best, checks, torch_label)


def onednn_primitives(args, exe):
    """Runs each workload once with ONEDNN_VERBOSE=1 and prints the oneDNN primitives used."""
    log("== oneDNN primitives libtorch runs (ONEDNN_VERBOSE=1, 1 thread, one iteration per workload)")
    env = dict(os.environ, ONEDNN_VERBOSE="1")
    for w in args.nn_workloads.split(","):
        cmd = [exe, "--mode=time", "--dtype=" + args.dtype, "--workloads=" + w, "--repeats=1", "--warmup=1"]
        rc, out = run(cmd, env=env, timeout=600)
        seen = []
        for line in out.splitlines():
            if line.startswith("BACKEND") and w == args.nn_workloads.split(",")[0]:
                log("   " + line)
            parts = line.split(",")
            # onednn_verbose,v1,primitive,exec,cpu,<kind>,<implementation>,<propagation>,...
            if len(parts) > 7 and parts[0] == "onednn_verbose" and "exec" in parts[2:4]:
                i = parts.index("exec")
                item = "%s %s (%s)" % (parts[i + 2], parts[i + 3], parts[i + 4])
                if item not in seen:
                    seen.append(item)
        log("   %-11s %s" % (w + ":", "; ".join(seen) if seen else "no oneDNN primitive (ATen's own kernels)"))


def nn_report(args, best, checks, torch_label):
    """One Markdown table per thread count, with the check that both computed the same numbers."""
    workloads = [w for w in NN_WORKLOADS if w in args.nn_workloads.split(",")]
    have_torch = any(label == "libtorch" for (label, _) in best)
    worst_ratio, worst_diff, compared = 0.0, 0.0, 0
    for t in args.thread_list:
        gg, lt = best.get(("gradgen", t), {}), best.get(("libtorch", t), {})
        gc, lc = checks.get(("gradgen", t), {}), checks.get(("libtorch", t), {})
        log("")
        log(
            "nn workloads, %s, %d thread(s) on both sides, forward + backward, best median of %d rounds; "
            "ratio = gradgen / %s (target <= 1.0x)" % (args.dtype, t, args.rounds, torch_label)
        )
        log("")
        log(
            "| workload | gradgen fwd / bwd | %s fwd / bwd | ratio fwd | ratio bwd | ratio fwd+bwd | checks |"
            % torch_label
        )
        log("| --- | --- | --- | --- | --- | --- | --- |")
        for w in workloads:
            cells = []
            for phase in ("fwd", "bwd", "total"):
                g, l_ = gg.get(w + "." + phase + "_us"), lt.get(w + "." + phase + "_us")
                if isinstance(g, float) and isinstance(l_, float) and l_ > 0:
                    cells.append("%.2fx" % (g / l_))
                    if phase == "total":
                        worst_ratio = max(worst_ratio, g / l_)
                else:
                    cells.append("n/a")
            diffs = [
                abs(g - lc[k]) / max(abs(lc[k]), 1e-12) for k, g in gc.items() if k.startswith(w + ".") and k in lc
            ]
            compared += len(diffs)
            worst_diff = max([worst_diff] + diffs)
            check_cell = ("%d, max rel diff %.1e" % (len(diffs), max(diffs))) if diffs else "n/a"
            log(
                "| %s | %s / %s | %s / %s | %s | %s | **%s** | %s |"
                % (
                    NN_LABELS[w],
                    fmt_us(gg.get(w + ".fwd_us")),
                    fmt_us(gg.get(w + ".bwd_us")),
                    fmt_us(lt.get(w + ".fwd_us")),
                    fmt_us(lt.get(w + ".bwd_us")),
                    cells[0],
                    cells[1],
                    cells[2],
                    check_cell,
                )
            )
    log("")
    if have_torch:
        log(
            "Same numbers: %d checks (output norms or losses, gradient norms), largest relative difference "
            "%.1e: %s. Largest fwd+bwd ratio %.2fx: %s."
            % (
                compared,
                worst_diff,
                "both libraries computed the same thing" if worst_diff < 1e-3 else "MISMATCH",
                worst_ratio,
                "every figure <= 1.0x" if worst_ratio <= 1.0 else "NOT MET",
            )
        )
    else:
        log("libtorch did not run: no ratios (pass --torch_python=PY).")
    log("Load average at the end: %s (%d cores)." % (loadavg(), os.cpu_count() or 0))


# ---------------------------------------------------------------------------------------------
# GEMM libraries (gemm_bench.cc)
# ---------------------------------------------------------------------------------------------

GEMM_LIBS = [
    ("openblas", "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0"),
    ("blis", "/usr/lib/x86_64-linux-gnu/blis-pthread/libblis.so.4"),
]


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def gemm_libraries(args, torch):
    """Runs gemm_bench.cc on every library found; prints a Markdown table of GFLOP/s."""
    src = os.path.join(args.workspace, "bench", "engine", "gemm_bench.cc")
    exe = os.path.join(args.tmpdir, "gradgen_engine_bench", "gemm_bench")
    flags = cpu_flags()
    isa = ["-mavx2", "-mfma"]
    if {"avx512f", "avx512dq", "avx512vl", "avx512bw"} <= flags:
        isa += ["-mavx512f", "-mavx512dq", "-mavx512vl", "-mavx512bw"]  # as csrc/native/simd
    log("== compiling gemm_bench.cc (g++ -O3 %s, Eigen from /usr/include/eigen3)" % " ".join(isa))
    rc, out = run(
        ["nice", "g++", "-O3", "-std=c++17"]
        + isa
        + ["-Wno-maybe-uninitialized", "-I/usr/include/eigen3", "-I" + args.workspace, src, "-ldl", "-o", exe]
    )
    if rc != 0:
        log(out[-4000:])
        log("gemm_bench did not compile")
        return
    libs = [(name, path) for name, path in GEMM_LIBS if os.path.exists(path)]
    for name, path in GEMM_LIBS:
        if not os.path.exists(path):
            log("   %s not found at %s (Debian: apt-get install lib%s-dev): skipped" % (name, path, name))
    if torch:
        libs.append(("mkl", os.path.join(torch[1], "lib", "libtorch_cpu.so")))  # libtorch's MKL
    if args.mkl_lib:
        libs.append(("mkl-pypi", args.mkl_lib))
    names = ["gradgen", "eigen"] + [n for n, _ in libs]
    for t in args.thread_list:
        cmd = [
            exe,
            "--sizes=" + args.gemm_sizes,
            "--rounds=%d" % args.rounds,
            "--threads=%d" % t,
            "--dtypes=float32,float64",
            "--layouts=nn,nt,tn",
        ] + ["--lib=%s:%s" % lib for lib in libs]
        log("== gemm_bench, %d thread(s) for the BLAS libraries (load %s)" % (t, loadavg()))
        rc, out = run(cmd, timeout=3600)
        table, worst = {}, 0.0
        for line in out.splitlines():
            parts = line.split()
            if parts[:1] == ["GEMM"]:
                table[(parts[1], parts[2], parts[3], int(parts[4]))] = float(parts[6])
            elif parts[:1] == ["CHECK"]:
                worst = max(worst, float(parts[5]))
            else:
                log("   " + line)
        log("")
        log(
            "GEMM GFLOP/s (higher is better), best of %d interleaved rounds; BLAS libraries at %d thread(s), "
            "gradgen's kernel and Eigen single-threaded, compiled as in gradgen (%s)" % (args.rounds, t, " ".join(isa))
        )
        log("")
        log("| dtype | op | N | " + " | ".join(names) + " |")
        log("| --- | --- | --- | " + " | ".join("---" for _ in names) + " |")
        for dtype in ("float32", "float64"):
            for layout in ("nn", "nt", "tn"):
                for n in sorted({k[3] for k in table}):
                    vals = [table.get((lib, dtype, layout, n)) for lib in names]
                    if all(v is None for v in vals):
                        continue
                    top = max(v for v in vals if v is not None)
                    cells = [("**%.0f**" if v == top else "%.0f") % v if v is not None else "n/a" for v in vals]
                    op = {"nn": "A @ B", "nt": "A @ B^T", "tn": "A^T @ B"}[layout]
                    log("| %s | %s | %d | %s |" % (dtype, op, n, " | ".join(cells)))
        log("")
        log("Every library's result against Eigen's: largest relative difference %.1e." % worst)


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def fmt(v, unit=""):
    if v is None:
        return "n/a"
    if isinstance(v, str):
        return "n/a"
    if abs(v) >= 1000:
        return format(int(round(v)), ",")
    if abs(v) >= 100:
        return "%.0f" % v
    if abs(v) >= 10:
        return "%.1f" % v
    return "%.3f" % v if abs(v) < 1 else "%.2f" % v


def report(args, gg, lt, torch_label, index_res):
    """gg, lt: {key: value} for gradgen and libtorch (lt empty without torch)."""
    have_torch = bool(lt)
    rows = []
    # (label, key, direction, target, needs_target)
    #   direction "faster": ratio = libtorch / gradgen, met if >= target
    #   direction "within": ratio = gradgen / libtorch, met if <= target
    spec = [
        ("chain time us/op fwd", "chain.fwd_us_per_op", "faster", None),
        ("chain time us/op bwd", "chain.bwd_us_per_op", "faster", None),
        ("chain time us/op fwd+bwd", "chain.total_us_per_op", "faster", 3.0),
        ("chain instr/op fwd", "chain.ir_fwd_per_op", "faster", None),
        ("chain instr/op bwd", "chain.ir_bwd_per_op", "faster", None),
        ("chain instr/op fwd+bwd", "chain.ir_total_per_op", "faster", 5.0),
        ("chain instr/op whole run - base", "chain.ir_run_minus_baseline_per_op", "faster", None),
        ("cat time us fwd", "cat.fwd_us", "faster", None),
        ("cat time us bwd", "cat.bwd_us", "faster", None),
        ("cat time us fwd+bwd", "cat.total_us", "faster", 3.0),
        ("cat instr/op fwd+bwd", "cat.ir_total_per_op", "faster", 5.0),
        ("64x64 step time us fwd", "step.fwd_us", "within", 1.5),
        ("64x64 step time us bwd", "step.bwd_us", "within", 1.5),
        ("64x64 step time us fwd+bwd", "step.total_us", "within", 1.5),
    ]
    for label, key, direction, target in spec:
        g = gg.get(key)
        t = lt.get(key) if have_torch else ANCHOR.get(key)
        anchor = not have_torch and t is not None
        ratio = None
        status = ""
        if isinstance(g, str):
            status = "op not available yet" if "op_not_available" in g else g[:40]
        elif g is None:
            status = "not measured"
        elif not isinstance(t, float) and not isinstance(t, int):
            status = "no libtorch" if not have_torch else "libtorch not measured"
        else:
            ratio = (t / g) if direction == "faster" else (g / t)
            if target is None:
                status = "(info)"
            else:
                met = ratio >= target if direction == "faster" else ratio <= target
                status = ("met" if met else "NOT MET") + (" (vs anchor)" if anchor else "")
        tgt = "" if target is None else ((">= %gx" if direction == "faster" else "<= %gx") % target)
        rname = "lt/gg" if direction == "faster" else "gg/lt"
        rows.append(
            (
                label,
                fmt(g),
                fmt(t) + ("*" if anchor else ""),
                ("%.2fx %s" % (ratio, rname)) if ratio is not None else "",
                tgt,
                status,
            )
        )
    for case, (g, h, calls) in index_res.items():
        ratio = g / h if h else None
        rows.append(
            (
                "apply() Ir/call, %s" % case,
                fmt(g / calls),
                "hand " + fmt(h / calls),
                ("%.4fx gen/hand" % ratio) if ratio else "",
                "<= 1.01x",
                ("met" if ratio is not None and ratio <= 1.01 else "NOT MET") + " (%+.1f Ir/call)" % ((g - h) / calls),
            )
        )
    head = ("figure", "gradgen", torch_label, "ratio", "target", "")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    log("")
    log("== gradgen vs %s (times: best median over %d rounds; instructions: callgrind)" % (torch_label, args.rounds))
    line = "  ".join(h.ljust(w) for h, w in zip(head, widths))
    log(line)
    log("-" * len(line))
    for r in rows:
        log(
            "  ".join(
                str(c).ljust(w) if i == 0 else str(c).rjust(w) if i < 3 else str(c).ljust(w)
                for i, (c, w) in enumerate(zip(r, widths))
            ).rstrip()
        )
    if have_torch and CHECKS.get("gradgen") and CHECKS.get("libtorch"):
        parts = []
        worst = 0.0
        for key, g in sorted(CHECKS["gradgen"].items()):
            t = CHECKS["libtorch"].get(key)
            if t is None:
                continue
            rel = abs(g - t) / max(abs(t), 1e-12)
            worst = max(worst, rel)
            parts.append("%s %.6g/%.6g" % (key, g, t))
        if parts:
            log("results checked (gradgen/libtorch, sums): %s" % ", ".join(parts))
            log(
                "largest relative difference %.2g: %s"
                % (worst, "the two compute the same thing" if worst < 1e-3 else "MISMATCH")
            )
    if not have_torch:
        log(
            "* libtorch did not run in this run: figures marked * are the libtorch 2.13 anchor measured "
            "earlier on this machine, not in this run (pass --torch_python=PY)."
        )
    log(
        "dtype %s, chain of %d links (%d ops), one thread; load average now %s."
        % (args.dtype, args.chain_len, 2 * args.chain_len, loadavg())
    )


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--workspace", default=os.environ.get("BUILD_WORKSPACE_DIRECTORY") or os.path.dirname(os.path.dirname(here))
    )
    p.add_argument(
        "--torch_python",
        default=None,
        help="python whose torch to compare with (default: %s if present)" % ", ".join(TORCH_DEFAULT_PYTHONS),
    )
    p.add_argument("--no_torch", action="store_true", help="skip libtorch")
    p.add_argument("--rounds", type=int, default=3, help="timing rounds, alternating libraries")
    p.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    p.add_argument("--chain_len", type=int, default=1000)
    p.add_argument("--no_callgrind", action="store_true")
    p.add_argument(
        "--callgrind_iters", type=int, default=3, help="chain iterations under callgrind (cat: 100x as many)"
    )
    p.add_argument("--index_range_iters", type=int, default=1000)
    p.add_argument(
        "--profile", action="store_true", help="print callgrind_annotate's top functions of gradgen's chain and cat"
    )
    p.add_argument("--profile_top", type=int, default=25)
    p.add_argument("--jobs", type=int, default=2, help="bazel --jobs (the machine is shared)")
    p.add_argument(
        "--copt", action="append", default=[], help="extra --copt for the gradgen build (e.g. -march=native)"
    )
    p.add_argument("--tmpdir", default=tempfile.gettempdir())
    p.add_argument(
        "--n", default="", help="comma-separated sizes: run the GEMM-bound step and mlp workloads at these n only"
    )
    p.add_argument("--threads", default="1", help="comma-separated thread counts for --n, --nn and --gemm")
    p.add_argument(
        "--nn", action="store_true", help="the nn workloads only (issue 26: conv, CNN step, layer_norm, attention)"
    )
    p.add_argument("--nn_workloads", default=",".join(NN_WORKLOADS), help="with --nn: which of them")
    p.add_argument("--no_onednn_verbose", action="store_true", help="with --nn: skip the ONEDNN_VERBOSE pass")
    p.add_argument("--gemm", action="store_true", help="compare the GEMM libraries (gemm_bench.cc) only")
    p.add_argument("--gemm_sizes", default="16,64,256,512,1024")
    p.add_argument("--mkl_lib", default="", help="also a separate MKL, e.g. a PyPI mkl's libmkl_rt.so.2")
    args = p.parse_args(argv)
    args.thread_list = [int(t) for t in args.threads.split(",") if t]
    args.workspace = os.path.abspath(args.workspace)
    os.makedirs(os.path.join(args.tmpdir, "gradgen_engine_bench"), exist_ok=True)

    if args.gemm:
        gemm_libraries(args, None if args.no_torch else find_torch(args))
        return 0

    if args.nn:
        nn_main(args)
        return 0

    bench_dir = build_gradgen(args)
    benches = {}
    if bench_dir:
        benches["gradgen"] = os.path.join(bench_dir, "gradgen_bench")
    torch = None if args.no_torch else find_torch(args)
    torch_label = "libtorch"
    if torch:
        exe = build_libtorch_bench(args, torch)
        if exe:
            benches["libtorch"] = exe
            torch_label = "libtorch " + torch[2]
    if torch is None and not args.no_torch:
        log(
            "no torch install found (tried %s): libtorch is skipped; make one with\n"
            "  python3 -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install torch==2.13.0"
            % (args.torch_python or ", ".join(TORCH_DEFAULT_PYTHONS))
        )

    if args.n:
        sizes = [int(n) for n in args.n.split(",") if n]
        best, checks = size_rounds(args, benches, sizes, args.thread_list)
        size_report(args, best, checks, sizes, args.thread_list, torch_label)
        return 0

    best = time_rounds(args, benches) if benches else {}
    gg = dict(best.get("gradgen", {}))
    lt = dict(best.get("libtorch", {}))

    index_res = {}
    if not args.no_callgrind:
        if shutil.which("valgrind") is None:
            log("valgrind not found: instruction counts are skipped (apt-get install valgrind)")
        else:
            cg = callgrind_workloads(args, benches, gg)
            gg.update(cg.get("gradgen", {}))
            lt.update(cg.get("libtorch", {}))
            if bench_dir:
                index_res = index_range(args, os.path.join(bench_dir, "index_range_bench"))
    report(args, gg, lt, torch_label, index_res)
    return 0


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Exception:  # a benchmark reports; it never fails
        traceback.print_exc()
    sys.exit(0)
