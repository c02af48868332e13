// Shared by gradgen_bench.cc and libtorch_bench.cc: options, timing, callgrind
// hooks and the RESULT lines run.py parses. Depends on neither library, so that
// both benches measure the same workloads the same way.
//
// Output: human-readable lines, plus one line per figure
//   RESULT <key> <value>            e.g. RESULT chain.fwd_us_per_op 0.123
//   RESULT <key> NA <reason>        when the figure cannot be measured (an op is missing)
//   CHECK <key> <value>             a value both benches must agree on (a sum of gradients)
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define ENGINE_BENCH_HAVE_CALLGRIND 1
#endif
#endif
#ifndef ENGINE_BENCH_HAVE_CALLGRIND
#define CALLGRIND_TOGGLE_COLLECT
#define RUNNING_ON_VALGRIND 0
#endif

namespace engine_bench {

struct Options {
  std::string mode = "time";  // time | callgrind
  std::string workloads = "chain,step,cat";
  std::string phase = "all";      // callgrind: all | fwd | bwd
  std::string dtype = "float32";  // float32 | float64, the same for both libraries
  int chain_len = 1000;           // links of y = y * w + b (two ops each)
  int iters = 3;                  // callgrind: measured iterations (0: baseline run)
  int repeats = 0;                // time: measured repeats per workload (0: default per workload)
  int warmup = 0;                 // time: warm-up repeats (0: default per workload)
  int n = 64;                     // step and mlp: the matrices are n x n (batch n, n features)
  int threads = 1;                // intra-op threads of both libraries
};

inline bool has_workload(const Options& o, const char* name) {
  std::string list = "," + o.workloads + ",";
  return list.find(std::string(",") + name + ",") != std::string::npos;
}

inline void usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--mode=time|callgrind] [--workloads=chain,step,cat,mlp]\n"
               "          [--dtype=float32|float64] [--chain_len=N] [--repeats=N] [--warmup=N]\n"
               "          [--iters=N] [--phase=all|fwd|bwd] [--n=64] [--threads=1]\n"
               "  step, mlp: n x n matrices (mlp: batch n, n -> n -> n features)\n"
               "  time:      median of repeats after warm-up, microseconds per op\n"
               "  callgrind: one unmeasured warm-up iteration, then --iters iterations; with\n"
               "             --phase=fwd|bwd only that phase is collected (run valgrind with\n"
               "             --collect-atstart=no); with --phase=all everything is (subtract a\n"
               "             run with --iters=0)\n",
               argv0);
}

inline Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    auto value = [&](const char* key) -> const char* {
      const size_t n = std::strlen(key);
      if (std::strncmp(a, key, n) == 0 && a[n] == '=') return a + n + 1;
      return nullptr;
    };
    if (const char* v = value("--mode"))
      o.mode = v;
    else if (const char* v = value("--workloads"))
      o.workloads = v;
    else if (const char* v = value("--phase"))
      o.phase = v;
    else if (const char* v = value("--dtype"))
      o.dtype = v;
    else if (const char* v = value("--chain_len"))
      o.chain_len = std::atoi(v);
    else if (const char* v = value("--iters"))
      o.iters = std::atoi(v);
    else if (const char* v = value("--repeats"))
      o.repeats = std::atoi(v);
    else if (const char* v = value("--warmup"))
      o.warmup = std::atoi(v);
    else if (const char* v = value("--n"))
      o.n = std::atoi(v);
    else if (const char* v = value("--threads"))
      o.threads = std::atoi(v);
    else {
      usage(argv[0]);
      std::exit(std::strcmp(a, "--help") == 0 ? 0 : 2);
    }
  }
  if ((o.mode != "time" && o.mode != "callgrind") ||
      (o.phase != "all" && o.phase != "fwd" && o.phase != "bwd") ||
      (o.dtype != "float32" && o.dtype != "float64") || o.chain_len < 1 || o.iters < 0 || o.n < 1 ||
      o.threads < 1) {
    usage(argv[0]);
    std::exit(2);
  }
  return o;
}

using Clock = std::chrono::steady_clock;

// Repeats for an n x n workload: about 2^28 / n^3 of them (a fraction of a second per round at
// ~100 GFLOP/s), between 5 and `most`.
inline int repeats_for(int n, int most) {
  const double r = 268435456.0 / (double(n) * n * n);
  return r >= most ? most : r <= 5 ? 5 : int(r);
}

inline double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline void result(const std::string& key, double value) {
  std::printf("RESULT %s %.6g\n", key.c_str(), value);
  std::fflush(stdout);
}

// A value computed the same way by both benches (run.py compares them): a result or a
// gradient after one more iteration, summed.
inline void check(const std::string& key, double value) {
  std::printf("CHECK %s %.9g\n", key.c_str(), value);
  std::fflush(stdout);
}

inline void result_na(const std::string& key, const std::string& reason) {
  std::printf("RESULT %s NA %s\n", key.c_str(), reason.c_str());
  std::fflush(stdout);
}

// Callgrind phase selection: collect only inside the chosen phase. A no-op
// (a few instructions) when not running under callgrind.
struct PhaseCollect {
  PhaseCollect(const Options& o, const char* phase)
      : on_(o.mode == "callgrind" && o.phase == phase) {
    if (on_) CALLGRIND_TOGGLE_COLLECT;
  }
  ~PhaseCollect() {
    if (on_) CALLGRIND_TOGGLE_COLLECT;
  }
  bool on_;
};

// Runs one workload: `fwd()` builds the graph, `bwd()` runs backward and frees
// the graph, `reset()` (untimed) zeroes the leaves' .grad. Time mode: prints the
// median microseconds per op of each phase over `repeats` after `warmup`.
// Callgrind mode: one warm-up iteration, then o.iters iterations, each phase
// collected according to o.phase.
/// Runs the workloads `--workloads` selects, each a `{name, run}` with run(o); one that throws
/// is reported (and recorded as not available) and the others still run. main()'s status.
template <typename Cases>
int run_selected(const Options& o, const Cases& cases) {
  for (const auto& c : cases) {
    if (!has_workload(o, c.name)) continue;
    try {
      c.run(o);
    } catch (const std::exception& e) {
      std::printf("%s: failed: %s\n", c.name, e.what());
      result_na(std::string(c.name) + ".total_us", std::string("error: ") + e.what());
    }
  }
  return 0;
}

template <typename Fwd, typename Bwd, typename Reset>
void run_workload(const Options& o, const std::string& name, double ops_fwd, double ops_bwd,
                  int default_repeats, int default_warmup, Fwd&& fwd, Bwd&& bwd, Reset&& reset) {
  if (o.mode == "callgrind") {
    fwd();
    bwd();
    reset();
    for (int i = 0; i < o.iters; ++i) {
      {
        PhaseCollect c(o, "fwd");
        fwd();
      }
      {
        PhaseCollect c(o, "bwd");
        bwd();
      }
      reset();
    }
    std::printf("callgrind %s: %d iterations of %g fwd + %g bwd ops, phase %s\n", name.c_str(),
                o.iters, ops_fwd, ops_bwd, o.phase.c_str());
    return;
  }
  const int repeats = o.repeats > 0 ? o.repeats : default_repeats;
  const int warmup = o.warmup > 0 ? o.warmup : default_warmup;
  std::vector<double> tf, tb, tt;
  for (int i = 0; i < warmup + repeats; ++i) {
    const auto t0 = Clock::now();
    fwd();
    const auto t1 = Clock::now();
    bwd();
    const auto t2 = Clock::now();
    reset();
    if (i >= warmup) {
      tf.push_back(seconds_between(t0, t1));
      tb.push_back(seconds_between(t1, t2));
      tt.push_back(seconds_between(t0, t2));
    }
  }
  const double f = median(tf) * 1e6, b = median(tb) * 1e6, t = median(tt) * 1e6;
  std::printf(
      "%s: median of %d (after %d warm-up): fwd %.2f us, bwd %.2f us, total %.2f us"
      " per iteration (%g fwd ops, %g bwd ops)\n",
      name.c_str(), repeats, warmup, f, b, t, ops_fwd, ops_bwd);
  result(name + ".fwd_us", f);
  result(name + ".bwd_us", b);
  result(name + ".total_us", t);
  result(name + ".fwd_us_per_op", f / ops_fwd);
  result(name + ".bwd_us_per_op", b / ops_bwd);
  result(name + ".total_us_per_op", t / ops_fwd);
}

}  // namespace engine_bench
