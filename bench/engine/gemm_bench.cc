// GEMM libraries side by side (issues 15 and 27): gradgen's own kernel
// (csrc/native/simd/gemm_kernel_impl.h, compiled here for the same ISA as the rest), Eigen (as
// gradgen compiled it before, for AVX-512 / AVX2), OpenBLAS, BLIS and MKL (the one inside
// libtorch_cpu) on the same matrices, interleaved rounds, best time per call. What gradgen's
// GEMM backend (csrc/native/gemm.h) was chosen by.
//
// The BLAS libraries are opened with dlopen (RTLD_LOCAL | RTLD_DEEPBIND) so that their
// identically named symbols (sgemm_, dgemm_) do not clash; each is called through its Fortran
// entry point. A library that is not found is skipped. Not built by Bazel (it loads libtorch
// and two BLAS builds at run time); bench/engine/run.py --gemm compiles and runs it:
//
//   g++ -O3 -std=c++17 -mavx2 -mfma [-mavx512f -mavx512dq -mavx512vl -mavx512bw] \
//       -I/usr/include/eigen3 -I. bench/engine/gemm_bench.cc -ldl -o gemm_bench
//   gemm_bench --sizes=64,256,512,1024 --rounds=5 --threads=1 \
//       --lib=openblas:/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0 ...
//
// Output: one line per (library, dtype, layout, n): "GEMM lib dtype layout n us gflops", and
// "CHECK lib dtype layout n maxreldiff" against Eigen's result (every library must agree).
#include <dlfcn.h>

#define GRADGEN_VEC_NS bench
#include "csrc/native/simd/gemm_kernel_impl.h"

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Fortran BLAS ?gemm_ (column-major).
using sgemm_t = void (*)(const char*, const char*, const int*, const int*, const int*, const float*,
                         const float*, const int*, const float*, const int*, const float*, float*,
                         const int*);
using dgemm_t = void (*)(const char*, const char*, const int*, const int*, const int*,
                         const double*, const double*, const int*, const double*, const int*,
                         const double*, double*, const int*);

struct Lib {
  std::string name;
  sgemm_t sgemm = nullptr;
  dgemm_t dgemm = nullptr;
  bool eigen = false;
  bool gradgen = false;
};

// The vector width gradgen's kernel is compiled with here (as csrc/native/simd picks at run time).
#if defined(__AVX512F__)
constexpr int kGradgenBytes = 64;
#elif defined(__AVX2__) && defined(__FMA__)
constexpr int kGradgenBytes = 32;
#else
constexpr int kGradgenBytes = 16;
#endif

// gradgen's kernel on the same layouts (row-major operands, a transposed one read in place).
template <typename T>
void gradgen_gemm(const std::string& layout, int n, const T* a, const T* b, T* c) {
  using gradgen::native::vec::MatrixRef;
  const MatrixRef<T> ma =
      layout == "tn" ? MatrixRef<T>{a, n, n, 1, n} : MatrixRef<T>{a, n, n, n, 1};
  const MatrixRef<T> mb =
      layout == "nt" ? MatrixRef<T>{b, n, n, 1, n} : MatrixRef<T>{b, n, n, n, 1};
  gradgen::native::vec::bench::gemm<T, kGradgenBytes>(c, n, ma, mb, false);
}

// Layouts of the row-major product C (n x n) = op(A) op(B): "nn" A @ B, "nt" A @ B^T (linear's
// forward, weight stored [out, in]), "tn" A^T @ B (a weight gradient).
template <typename T>
void eigen_gemm(const std::string& layout, int n, const T* a, const T* b, T* c) {
  using Row = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Row> A(a, n, n), B(b, n, n);
  Eigen::Map<Row> C(c, n, n);
  if (layout == "nn") {
    C.noalias() = A * B;
  } else if (layout == "nt") {
    C.noalias() = A * B.transpose();
  } else {
    C.noalias() = A.transpose() * B;
  }
}

// Row-major C = op(A) op(B) through a column-major BLAS: C^T = op(B)^T op(A)^T.
template <typename T, typename F>
void blas_gemm(F f, const std::string& layout, int n, const T* a, const T* b, T* c) {
  const char ta = layout == "tn" ? 'T' : 'N';  // op on A (row-major)
  const char tb = layout == "nt" ? 'T' : 'N';
  const T one = 1, zero = 0;
  f(&tb, &ta, &n, &n, &n, &one, b, &n, a, &n, &zero, c, &n);
}

template <typename T>
void run_one(const Lib& lib, const std::string& layout, int n, const T* a, const T* b, T* c) {
  if (lib.gradgen) {
    gradgen_gemm<T>(layout, n, a, b, c);
  } else if (lib.eigen) {
    eigen_gemm<T>(layout, n, a, b, c);
  } else if constexpr (sizeof(T) == 4) {
    blas_gemm<T>(lib.sgemm, layout, n, a, b, c);
  } else {
    blas_gemm<T>(lib.dgemm, layout, n, a, b, c);
  }
}

std::vector<int> parse_ints(const char* s) {
  std::vector<int> out;
  for (const char* p = s; *p;) {
    out.push_back(std::atoi(p));
    while (*p && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return out;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t end = s.find(',', start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

void set_threads(void* handle, const std::string& name, int threads) {
  if (!handle) return;
  if (name == "openblas") {
    if (auto f = reinterpret_cast<void (*)(int)>(dlsym(handle, "openblas_set_num_threads"))) {
      f(threads);
    }
  } else if (name == "blis") {
    if (auto f = reinterpret_cast<void (*)(long)>(dlsym(handle, "bli_thread_set_num_threads"))) {
      f(threads);
    }
  } else if (name == "mkl") {
    if (auto f = reinterpret_cast<int (*)(int)>(dlsym(handle, "MKL_Set_Num_Threads_Local"))) {
      f(threads);
    }
  }
}

template <typename T>
void bench_dtype(const std::vector<Lib>& libs, const char* dtype, const std::vector<int>& sizes,
                 const std::vector<std::string>& layouts, int rounds, double target_s) {
  for (int n : sizes) {
    std::vector<T> a(size_t(n) * n), b(size_t(n) * n), ref(size_t(n) * n), c(size_t(n) * n);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = T(std::sin(0.37 * double(i) + 1));
      b[i] = T(0.125 * std::sin(0.37 * double(i) + 2));
    }
    for (const std::string& layout : layouts) {
      eigen_gemm<T>(layout, n, a.data(), b.data(), ref.data());
      std::vector<double> best(libs.size(), 1e30);
      std::vector<double> diff(libs.size(), 0);
      // Calls per timing: about target_s of work at ~50 GFLOP/s, at least 3.
      const double flops = 2.0 * n * n * n;
      const int calls = std::max(3, int(target_s * 50e9 / flops));
      for (int r = 0; r < rounds; ++r) {
        for (size_t l = 0; l < libs.size(); ++l) {
          run_one<T>(libs[l], layout, n, a.data(), b.data(), c.data());  // warm
          const auto t0 = Clock::now();
          for (int i = 0; i < calls; ++i)
            run_one<T>(libs[l], layout, n, a.data(), b.data(), c.data());
          const double s = std::chrono::duration<double>(Clock::now() - t0).count() / calls;
          best[l] = std::min(best[l], s);
          if (r == 0) {
            double worst = 0;
            for (size_t i = 0; i < c.size(); ++i) {
              worst = std::max(worst, std::fabs(double(c[i]) - double(ref[i])) /
                                          std::max(1.0, std::fabs(double(ref[i]))));
            }
            diff[l] = worst;
          }
        }
      }
      for (size_t l = 0; l < libs.size(); ++l) {
        std::printf("GEMM %s %s %s %d %.3f %.2f\n", libs[l].name.c_str(), dtype, layout.c_str(), n,
                    best[l] * 1e6, flops / best[l] * 1e-9);
        std::printf("CHECK %s %s %s %d %.3g\n", libs[l].name.c_str(), dtype, layout.c_str(), n,
                    diff[l]);
      }
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {16, 64, 256, 512, 1024};
  std::vector<std::string> layouts = {"nn", "nt", "tn"};
  std::vector<std::string> dtypes = {"float32", "float64"};
  int rounds = 5, threads = 1;
  double target_s = 0.02;
  std::vector<Lib> libs = {{"eigen", nullptr, nullptr, true},
                           {"gradgen", nullptr, nullptr, false, true}};
  std::vector<std::pair<std::string, void*>> handles;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&](const char* k) { return a.substr(std::strlen(k)); };
    if (a.rfind("--sizes=", 0) == 0) {
      sizes = parse_ints(val("--sizes=").c_str());
    } else if (a.rfind("--layouts=", 0) == 0) {
      layouts = split(val("--layouts="));
    } else if (a.rfind("--dtypes=", 0) == 0) {
      dtypes = split(val("--dtypes="));
    } else if (a.rfind("--rounds=", 0) == 0) {
      rounds = std::atoi(val("--rounds=").c_str());
    } else if (a.rfind("--threads=", 0) == 0) {
      threads = std::atoi(val("--threads=").c_str());
    } else if (a.rfind("--seconds=", 0) == 0) {
      target_s = std::atof(val("--seconds=").c_str());
    } else if (a.rfind("--lib=", 0) == 0) {
      // --lib=NAME:PATH
      const std::string spec = val("--lib=");
      const size_t colon = spec.find(':');
      const std::string name = spec.substr(0, colon), path = spec.substr(colon + 1);
      void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
      if (!h) {
        std::printf("skipped %s: %s\n", name.c_str(), dlerror());
        continue;
      }
      Lib lib{name, reinterpret_cast<sgemm_t>(dlsym(h, "sgemm_")),
              reinterpret_cast<dgemm_t>(dlsym(h, "dgemm_")), false, false};
      if (!lib.sgemm || !lib.dgemm) {
        std::printf("skipped %s: no sgemm_/dgemm_ in %s\n", name.c_str(), path.c_str());
        continue;
      }
      libs.push_back(lib);
      handles.emplace_back(name, h);
    } else {
      std::fprintf(stderr,
                   "usage: %s [--sizes=16,64,...] [--layouts=nn,nt,tn] [--dtypes=float32,float64]\n"
                   "          [--rounds=5] [--threads=1] [--seconds=0.02] [--lib=NAME:PATH]...\n",
                   argv[0]);
      return a == "--help" ? 0 : 2;
    }
  }
  // Eigen and gradgen's kernel are single-threaded here (no OpenMP): their figures are one-thread
  // figures.
  for (auto& [name, h] : handles) set_threads(h, name, threads);
  std::printf("gemm_bench: %d round(s), %d thread(s) for the BLAS libraries, Eigen %d.%d.%d%s\n",
              rounds, threads, EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION,
#if defined(__AVX512F__)
              " (AVX-512)"
#elif defined(__AVX2__)
              " (AVX2)"
#else
              ""
#endif
  );
  for (const std::string& d : dtypes) {
    if (d == "float32") bench_dtype<float>(libs, "float32", sizes, layouts, rounds, target_s);
    if (d == "float64") bench_dtype<double>(libs, "float64", sizes, layouts, rounds, target_s);
  }
  return 0;
}
