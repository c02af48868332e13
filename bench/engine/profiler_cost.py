#!/usr/bin/env python3
"""What the profiler hooks cost when no profiler records: callgrind instructions per op of the
chain workload (y = y * w + b, 1-element tensors), forward and backward, for a gradgen_bench
built before the profiler (the baseline) and one built after, in one run. Prints; never fails.

  ./bazelw build -c opt --symlink_prefix=/ //bench/engine:gradgen_bench   # in each checkout
  python3 bench/engine/profiler_cost.py --baseline=/tmp/gradgen_bench_main --new=/tmp/gradgen_bench_new
"""

import argparse
import os
import subprocess
import tempfile


def instructions(exe, phase, chain_len, iters, tmpdir):
    out = os.path.join(tmpdir, "callgrind.%s.%s.out" % (os.path.basename(exe), phase))
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--collect-atstart=no",
        "--callgrind-out-file=" + out,
        exe,
        "--mode=callgrind",
        "--workloads=chain",
        "--dtype=float32",
        "--chain_len=%d" % chain_len,
        "--phase=" + phase,
        "--iters=%d" % iters,
    ]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    with open(out) as f:
        for line in f:
            if line.startswith("summary:"):
                return int(line.split()[1])
    raise RuntimeError("no summary in " + out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--baseline", required=True, help="gradgen_bench built before the change")
    p.add_argument("--new", required=True, help="gradgen_bench built after it")
    p.add_argument("--chain_len", type=int, default=1000)
    p.add_argument("--iters", type=int, default=3)
    args = p.parse_args()
    ops = 2.0 * args.chain_len * args.iters
    with tempfile.TemporaryDirectory() as tmpdir:
        rows = []
        for phase in ("fwd", "bwd"):
            base = instructions(args.baseline, phase, args.chain_len, args.iters, tmpdir) / ops
            new = instructions(args.new, phase, args.chain_len, args.iters, tmpdir) / ops
            rows.append((phase, base, new))
    print("chain, %d links x %d iterations, instructions per forward op (callgrind)" % (args.chain_len, args.iters))
    print("%-6s %12s %12s %10s" % ("phase", "baseline", "new", "new-base"))
    for phase, base, new in rows:
        print("%-6s %12.1f %12.1f %+10.1f" % (phase, base, new, new - base))


if __name__ == "__main__":
    main()
