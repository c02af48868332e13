"""gradgen from Python beside PyTorch, in one run: autograd overhead, import time, binding cost.

    ./bazelw run --config=opt //bench/python:python_bench -- --torch_python=/tmp/torchvenv/bin/python

Figures (PyTorch's measured by the same code, in a subprocess of the interpreter given by
--torch_python or $GRADGEN_TORCH_PYTHON, with torch 2.13 installed):
  chain   y = y * w + b written in Python, 1-element float32 tensors, 1000 links (2 ops each):
          microseconds per op, forward, backward and both (median of --repeats after warm-up);
          target: gradgen's total at most a quarter of PyTorch's
  import  wall time of a fresh `python -c "import gradgen"` (best and median of --imports runs)
          beside `import torch`; target under 100 ms
  call    nanoseconds per call of t.dim() and of a 1-element t + u (binding layer alone, then a
          tiny op)
It prints a table and never fails: without PyTorch it prints gradgen's figures alone.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

# Runs inside both interpreters: `lib` is gradgen or torch, with the same API for what is used.
WORKER = r"""
import json, statistics, sys, time
name = sys.argv[1]
links, repeats, warmup, calls = (int(a) for a in sys.argv[2:6])
if name == "torch":
    import torch as lib
    torch_threads = lib.set_num_threads(1)
else:
    import gradgen as lib
f32 = lib.float32

x = lib.tensor([0.5], dtype=f32)
w = lib.tensor([0.999], dtype=f32, requires_grad=True)
b = lib.tensor([0.001], dtype=f32, requires_grad=True)

def chain():
    t0 = time.perf_counter()
    y = x
    for _ in range(links):
        y = y * w + b
    t1 = time.perf_counter()
    y.backward()
    t2 = time.perf_counter()
    value = (y.item(), w.grad.item(), b.grad.item())
    del y
    w.grad = None
    b.grad = None
    return t1 - t0, t2 - t1, value

for _ in range(warmup):
    chain()
fwd, bwd = [], []
for _ in range(repeats):
    f, bk, value = chain()
    fwd.append(f)
    bwd.append(bk)
ops = 2.0 * links
out = {
    "chain.fwd_us_per_op": statistics.median(fwd) / ops * 1e6,
    "chain.bwd_us_per_op": statistics.median(bwd) / ops * 1e6,
    "chain.total_us_per_op": statistics.median([a + c for a, c in zip(fwd, bwd)]) / ops * 1e6,
    "chain.y": value[0],
    "chain.w_grad": value[1],
    "chain.b_grad": value[2],
}

def per_call(fn):
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best / calls * 1e9

t = lib.tensor([1.0], dtype=f32)
u = lib.tensor([2.0], dtype=f32)
def dims():
    d = t.dim
    for _ in range(calls):
        d()
def adds():
    for _ in range(calls):
        t + u
def loop():
    for _ in range(calls):
        pass
base = per_call(loop)
out["call.dim_ns"] = per_call(dims) - base
out["call.add_ns"] = per_call(adds) - base
print("RESULT " + json.dumps(out))
"""


def run_worker(python, name, args, env):
    cmd = [python, "-c", WORKER, name, str(args.links), str(args.repeats), str(args.warmup), str(args.calls)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    sys.stderr.write(
        "python_bench: the %s worker failed (exit %d):\n%s%s" % (name, proc.returncode, proc.stdout, proc.stderr)
    )
    return None


def import_times(python, module, runs, env):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run([python, "-c", "import " + module], env=env, capture_output=True)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            sys.stderr.write("python_bench: import %s failed:\n%s" % (module, proc.stderr.decode()))
            return None
    baseline = []
    for _ in range(runs):  # the interpreter's own start, to show what the import adds
        t0 = time.perf_counter()
        subprocess.run([python, "-c", "pass"], env=env)
        baseline.append(time.perf_counter() - t0)
    return {
        "best_ms": min(times) * 1e3,
        "median_ms": statistics.median(times) * 1e3,
        "python_start_ms": min(baseline) * 1e3,
    }


def fmt(v, digits=2):
    return "n/a" if v is None else ("%.*f" % (digits, v))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--torch_python", default=os.environ.get("GRADGEN_TORCH_PYTHON", "/tmp/torchvenv/bin/python"))
    parser.add_argument("--links", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=31)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200000)
    parser.add_argument("--imports", type=int, default=10)
    args = parser.parse_args(argv)

    # gradgen as this binary sees it (the runfiles' //python:gradgen), in a fresh interpreter.
    gg_env = dict(os.environ)
    gg_env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    gg_python = sys.executable
    gg = run_worker(gg_python, "gradgen", args, gg_env)
    gg_import = import_times(gg_python, "gradgen", args.imports, gg_env)

    torch_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    torch_env["OMP_NUM_THREADS"] = "1"
    th = th_import = None
    if args.torch_python and os.path.exists(args.torch_python):
        th = run_worker(args.torch_python, "torch", args, torch_env)
        th_import = import_times(args.torch_python, "torch", args.imports, torch_env)
    else:
        print("python_bench: no PyTorch interpreter at %r (--torch_python): gradgen only" % args.torch_python)

    def get(d, k):
        return None if d is None else d.get(k)

    def ratio(a, b):
        return None if a is None or b is None or a == 0 else b / a

    print()
    print("| figure | gradgen | PyTorch 2.13 | PyTorch / gradgen | target |")
    print("| --- | --- | --- | --- | --- |")
    rows = [
        ("chain `y = y * w + b` from Python, forward, us per op", "chain.fwd_us_per_op", ""),
        ("the same, backward, us per op", "chain.bwd_us_per_op", ""),
        ("the same, forward + backward, us per op", "chain.total_us_per_op", ">= 4x"),
        ("`t.dim()`, ns per call", "call.dim_ns", ""),
        ("1-element `t + u`, ns per call", "call.add_ns", ""),
    ]
    for label, key, target in rows:
        a, b = get(gg, key), get(th, key)
        r = ratio(a, b)
        print(
            "| %s | %s | %s | %s | %s |"
            % (
                label,
                fmt(a, 0 if key.startswith("call") else 2),
                fmt(b, 0 if key.startswith("call") else 2),
                fmt(r, 1) + "x" if r else "n/a",
                target,
            )
        )
    gi, ti = get(gg_import, "best_ms"), get(th_import, "best_ms")
    print(
        "| `import` wall time, best of %d (median), ms | %s (%s) | %s (%s) | %s | gradgen < 100 ms |"
        % (
            args.imports,
            fmt(gi, 0),
            fmt(get(gg_import, "median_ms"), 0),
            fmt(ti, 0),
            fmt(get(th_import, "median_ms"), 0),
            (fmt(ratio(gi, ti), 1) + "x") if ratio(gi, ti) else "n/a",
        )
    )
    print(
        "| interpreter start alone, ms | %s | %s | | |"
        % (fmt(get(gg_import, "python_start_ms"), 0), fmt(get(th_import, "python_start_ms"), 0))
    )
    if gg and th:
        print()
        print(
            "the same results (y, dy/dw, dy/db): gradgen %.6f %.6f %.6f, PyTorch %.6f %.6f %.6f"
            % (
                gg["chain.y"],
                gg["chain.w_grad"],
                gg["chain.b_grad"],
                th["chain.y"],
                th["chain.w_grad"],
                th["chain.b_grad"],
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
