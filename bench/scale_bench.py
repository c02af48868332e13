"""Scale: the codegen and the compile of its output on a synthetic spec of 2,000 ops, per shard count.

  ./bazelw run //bench:scale_bench
  ./bazelw run //bench:scale_bench -- --ops=500 --shards=1,4 --jobs=2

It writes bench/scale_spec.py's synthetic native_functions.yaml / derivatives.yaml of --ops ops,
cycling through six shapes of schema the generated code must handle (Tensor?, Tensor[] then
Tensor, tuple returns, scalars and int lists), with formulas calling helpers declared in a header
(declared only: the code is compiled, not linked, so no kernel or helper needs a body). Then, for
each shard count (--shards, default 4,16,32,64; 0 is the automatic choice, ceil(ops / 64) shards
whose files go into shards.cc/ and python_shards.cc/):

  - the codegen, run as the autograd_codegen rule runs it (the //tools/codegen:gen_autograd
    launcher from runfiles, a Bazel action's environment), best of --codegen_runs;
  - the number and size of the generated files;
  - the compile of every generated .cpp with `g++ -std=c++17 -O0 -c` against gradgen's headers,
    --jobs at a time (2: this machine's cores), as wall time; plus the sum of the per-file times
    (the CPU a cold build needs) and the slowest file (the floor of a sharded build, and what an
    edit of one formula costs: the shard's Functions_<k>.cpp, and VariableType_<k>.cpp when the
    node's saved members change).

It measures and prints; it never fails (exit status 0, errors are printed in the table).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

from bench_util import action_env, codegen_command, say, workspace_dir
from scale_spec import write_spec

NAMESPACE = "scale"
INCLUDE_PREFIX = "scale/generated"
FORMULA_HEADER = "scale/formulas.h"


def gradgen_own_headers(include_dir: str) -> Optional[str]:
    """Generates gradgen's own API (specs/) into include_dir/csrc/generated: csrc/autograd/formulas.h,
    which every Functions*.cpp includes, includes it. Returns an error or None."""
    ws = workspace_dir()
    argv = codegen_command() + [
        "--native_functions", os.path.join(ws, "specs", "native_functions.yaml"),
        "--native_functions_name", "specs/native_functions.yaml",
        "--derivatives", os.path.join(ws, "specs", "derivatives.yaml"),
        "--derivatives_name", "specs/derivatives.yaml",
        "--out_dir", os.path.join(include_dir, "csrc", "generated"),
        "--include_prefix", "csrc/generated",
    ]  # fmt: skip
    p = subprocess.run(argv, env=action_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return None if p.returncode == 0 else f"codegen on specs/ exit {p.returncode}: {p.stderr.strip()[-800:]}"


def run_codegen(spec_dir: str, out_dir: str, shards: int, runs: int) -> Tuple[Optional[float], Optional[str]]:
    """Best wall time of `runs` codegen runs into out_dir, or (None, error)."""
    argv = codegen_command() + [
        "--native_functions", os.path.join(spec_dir, "native_functions.yaml"),
        "--native_functions_name", "native_functions.yaml",
        "--derivatives", os.path.join(spec_dir, "derivatives.yaml"),
        "--derivatives_name", "derivatives.yaml",
        "--out_dir", out_dir,
        "--include_prefix", INCLUDE_PREFIX,
        "--namespace", NAMESPACE,
        "--shards", str(shards),
        "--formula_header", "csrc/autograd/formulas.h",
        "--formula_header", FORMULA_HEADER,
        "--formula_namespace", "::gradgen::autograd::generated::details",
        "--formula_namespace", "::scale::formulas",
    ]  # fmt: skip
    best = None
    for _ in range(runs):
        shutil.rmtree(out_dir, ignore_errors=True)
        t = time.perf_counter()
        p = subprocess.run(argv, env=action_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        dt = time.perf_counter() - t
        if p.returncode != 0:
            return None, f"codegen exit {p.returncode}: " + (p.stderr or p.stdout).strip()[-800:]
        best = dt if best is None else min(best, dt)
    return best, None


def compile_one(
    cxx: str, src: str, obj: str, include_dirs: Sequence[str], opt: str
) -> Tuple[str, float, float, Optional[str]]:
    """Compiles src: (src, wall s, CPU s of the compiler = user + sys of it and its children, error)."""
    argv = [cxx, "-std=c++17", opt, "-c", src, "-o", obj] + [f"-I{d}" for d in include_dirs]
    with tempfile.TemporaryFile(mode="w+") as out:
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, text=True)
        # wait4: this child's own rusage (cc1plus and as included), exact even with parallel jobs.
        _, status, usage = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    return src, dt, usage.ru_utime + usage.ru_stime, (None if p.returncode == 0 else text.strip()[-1500:])


def compile_all(sources: Sequence[str], obj_dir: str, include_dirs: Sequence[str], jobs: int, cxx: str, opt: str):
    """Compiles every source, `jobs` at a time: (wall s, {source: wall s}, {source: CPU s}, first error)."""
    os.makedirs(obj_dir, exist_ok=True)
    times: Dict[str, float] = {}
    cpu: Dict[str, float] = {}
    error = None
    t = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(compile_one, cxx, s, os.path.join(obj_dir, os.path.basename(s) + ".o"), include_dirs, opt)
            for s in sorted(sources, key=os.path.getsize, reverse=True)  # longest first: less idle tail
        ]
        for f in futures:
            src, dt, cpu_s, err = f.result()
            times[src] = dt
            cpu[src] = cpu_s
            if err and error is None:
                error = f"{os.path.basename(src)}: {err}"
    return time.perf_counter() - t, times, cpu, error


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=2000, help="ops in the synthetic spec (default 2000)")
    parser.add_argument("--shards", default="4,16,32,64", help="shard counts to measure (default 4,16,32,64)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel compiles (default 2)")
    parser.add_argument("--codegen_runs", type=int, default=3, help="codegen runs per shard count; the best is shown")
    parser.add_argument("--cxx", default="g++", help="C++ compiler (default g++)")
    parser.add_argument("--opt", default="-O0", help="optimization flag (default -O0)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory and print it")
    args = parser.parse_args(argv)
    shard_counts = [int(s) for s in args.shards.split(",") if s.strip()]

    ws = workspace_dir()
    tmp = tempfile.mkdtemp(prefix="gradgen_scale_bench_")
    try:
        per_kind = write_spec(tmp, os.path.join(tmp, "include", FORMULA_HEADER), args.ops, "bench/scale_bench.py")
        say(f"scale_bench: {args.ops} synthetic ops ({', '.join(f'{k}: {n}' for k, n in per_kind.items())}) in {tmp}")
        say(
            f"scale_bench: codegen {' '.join(codegen_command()[:1])}; "
            f"compile: {args.cxx} -std=c++17 {args.opt} -c, {args.jobs} jobs, {os.cpu_count()} CPUs, headers from {ws}"
        )
        err = gradgen_own_headers(os.path.join(tmp, "include"))
        if err:
            say(f"scale_bench: {err}")
        rows = []
        load_before = os.getloadavg()
        for shards in shard_counts:
            out = os.path.join(tmp, "include", INCLUDE_PREFIX)
            gen_s, err = run_codegen(tmp, out, shards, args.codegen_runs)
            if err:
                rows.append((shards, None, 0, 0, 0, 0, None, None, None, None, None, err))
                continue
            # With --shards 0 the shards' files are in directories (shards.cc/, python_shards.cc/).
            files = sorted(os.path.relpath(os.path.join(r, f), out) for r, _, fs in os.walk(out) for f in fs)
            # The C++ library's files; python_functions*.cpp are compiled only for python_module.
            sources = [
                os.path.join(out, f)
                for f in files
                if f.endswith(".cpp") and os.path.basename(f).startswith(("Functions", "VariableType"))
            ]
            total_bytes = sum(os.path.getsize(os.path.join(out, f)) for f in files)
            nodes = sum(open(s).read().count("::apply(") for s in sources if "/Functions" in s)
            largest_lines = max(sum(1 for _ in open(s)) for s in sources)
            say(f"  shards={shards}: codegen {gen_s:.2f} s, {len(files)} files; compiling {len(sources)} .cpp ...")
            wall, times, cpu, err = compile_all(
                sources, os.path.join(tmp, f"obj_{shards}"), [tmp + "/include", ws], args.jobs, args.cxx, args.opt
            )
            # What an edit of one formula recompiles: one shard's Functions_k.cpp, and its
            # VariableType_k.cpp when the node's saved members change; on 2 cores the two run side by
            # side, so the edit's wall time is the slower of the two (the worst shard is shown).
            per_shard: Dict[str, List[float]] = {}
            for src in times:
                m = re.search(r"(?:Functions|VariableType)(_\d+)?\.cpp$", src)
                if m:
                    per_shard.setdefault(m.group(1) or "", []).append(src)
            edit_wall = max(max(times[s] for s in srcs) for srcs in per_shard.values())
            edit_cpu = max(sum(cpu[s] for s in srcs) for srcs in per_shard.values())
            total_cpu = sum(cpu.values())
            rows.append(
                (shards, gen_s, len(files), total_bytes, largest_lines, nodes, wall, total_cpu, edit_wall, edit_cpu,
                 100 * total_cpu / max(nodes, 1), err)
            )  # fmt: skip
            say(
                f"  shards={shards}: compile wall {wall:.1f} s, CPU {total_cpu:.1f} s, slowest "
                f"{max(times, key=times.get).rsplit('/', 1)[-1]} {max(times.values()):.1f} s"
            )
            shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(os.path.join(tmp, f"obj_{shards}"), ignore_errors=True)
        load_after = os.getloadavg()

        say()
        say(
            f"scale_bench: {args.ops} ops; compile {args.opt} with {args.jobs} parallel jobs on {os.cpu_count()} CPUs; "
            f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after (CPU s are user + sys of each "
            "compiler, which other load inflates less than wall s)"
        )
        header = (
            "shards",
            "codegen s",
            "files",
            "MB",
            "max .cpp lines",
            "full compile wall s",
            "full compile CPU s",
            "CPU s per 100 nodes",
            "one formula edit wall s (shard's 2 .cpp side by side)",
            "one formula edit CPU s",
        )
        say("| " + " | ".join(header) + " |")
        say("| " + " | ".join("---" for _ in header) + " |")
        for shards, gen_s, nfiles, nbytes, lines, nodes, wall, total_cpu, edit_wall, edit_cpu, per100, err in rows:
            if gen_s is None:
                say(f"| {shards} | error: {err} |")
                continue
            cells = [
                str(shards),
                f"{gen_s:.2f}",
                str(nfiles),
                f"{nbytes / 1e6:.1f}",
                str(lines),
                f"{wall:.1f}",
                f"{total_cpu:.1f}",
                f"{per100:.2f} ({nodes} nodes)",
                f"{edit_wall:.1f}",
                f"{edit_cpu:.1f}",
            ]
            say("| " + " | ".join(cells) + " |")
            if err:
                say(f"    compile error: {err}")
        return 0
    except Exception as e:  # a benchmark reports; it does not fail
        say(f"scale_bench: error: {type(e).__name__}: {e}")
        return 0
    finally:
        if args.keep:
            say(f"scale_bench: kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
