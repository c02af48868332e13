// gemm() of gemm.h: tiny products as a plain loop, matrices through gradgen's GEMM kernel
// (csrc/native/simd/gemm_kernel.h), vectors (and everything on CPUs without AVX2) through Eigen's
// (simd/vectorized.h), split into panels across the intra-op thread pool when large enough.
#include "csrc/native/gemm.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "csrc/native/simd/gemm_kernel.h"

namespace gradgen {
namespace native {

namespace {

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// A pool of worker threads for parallel_for: n - 1 workers and the calling thread. One job at
// a time; a caller that finds the pool busy (another thread's product) runs its job alone.
class ThreadPool {
 public:
  static ThreadPool& get() {
    static ThreadPool* pool = new ThreadPool();  // never destroyed: workers may outlive main
    return *pool;
  }

  int size() const { return size_.load(std::memory_order_relaxed); }

  // Whether this thread is running a task of a job: a product or loop inside it stays whole on
  // this thread (the same bits as on one thread: a product split into panels may round
  // differently).
  static bool in_task() { return in_task_; }

  void resize(int threads) {
    std::lock_guard<std::mutex> job_lock(job_mutex_);
    stop_workers();
    size_.store(threads, std::memory_order_relaxed);
    // The generation workers start from: a job started before a worker first looks must
    // still be seen as new by it (run() cannot start one while we hold job_mutex_).
    const uint64_t start = generation_.load();
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i, start] { work(i, start); });
  }

  // Runs f(i) for i in [0, tasks), f(0) on the calling thread; tasks <= size(). Called from a
  // task of a job (a product inside a convolution's per-sample task), it runs them all on the
  // calling thread, before touching job_mutex_, which that thread may hold.
  void run(int tasks, const std::function<void(int)>& f) {
    if (in_task_) {
      for (int i = 0; i < tasks; ++i) f(i);
      return;
    }
    std::unique_lock<std::mutex> job_lock(job_mutex_, std::try_to_lock);
    if (!job_lock.owns_lock() || tasks > size()) {
      for (int i = 0; i < tasks; ++i) f(i);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &f;
      tasks_ = tasks;
      pending_.store(tasks - 1, std::memory_order_relaxed);
      ++generation_;
    }
    wake_.notify_all();
    in_task_ = true;
    f(0);
    in_task_ = false;
    // The workers' share: a short spin (the panels of one product end together), then sleep.
    for (int spin = 0; pending_.load(std::memory_order_acquire) != 0; ++spin) {
      if (spin < 4096) {
        std::this_thread::yield();
      } else {
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
      }
    }
    // job_ is left as it is (written only under mutex_): only workers with index < tasks_ of
    // this generation call it, and they all have.
  }

 private:
  ThreadPool() = default;

  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
    stop_ = false;
  }

  void work(int index, uint64_t seen) {
    in_task_ = true;  // a worker runs nothing but tasks
    for (;;) {
      const std::function<void(int)>* job;
      int tasks;
      // A short spin first: the products of one forward or backward pass follow each other
      // within microseconds, and waking from the condition variable costs about as much.
      for (int spin = 0; spin < 2000 && generation_.load(std::memory_order_acquire) == seen;
           ++spin) {
        pause();
      }
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        job = job_;
        tasks = tasks_;
      }
      if (index < tasks) {
        (*job)(index);
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          std::lock_guard<std::mutex> lock(mutex_);
          done_.notify_all();
        }
      }
    }
  }

  static thread_local bool in_task_;  // this thread is running a task of a job

  std::mutex job_mutex_;  // held by the caller of run() and by resize()
  std::mutex mutex_;      // guards the fields below but pending_
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(int)>* job_ = nullptr;
  int tasks_ = 0;
  std::atomic<uint64_t> generation_{0};  // written under mutex_, read without it by the spin
  bool stop_ = false;
  std::atomic<int> pending_{0};
  std::atomic<int> size_{1};
};

thread_local bool ThreadPool::in_task_ = false;

template <typename T>
bool row_or_col_major(const MatrixRef<T>& m) {
  const bool row = (m.s1 == 1 || m.cols == 1) && (m.rows == 1 || m.s0 >= m.cols);
  const bool col = (m.s0 == 1 || m.rows == 1) && (m.cols == 1 || m.s1 >= m.rows);
  return row || col;
}

// A dense row-major copy of m in `buffer`, for operands whose strides fit no BLAS layout.
template <typename T>
MatrixRef<T> dense_copy(const MatrixRef<T>& m, std::unique_ptr<T[]>& buffer) {
  buffer.reset(new T[static_cast<size_t>(m.rows * m.cols)]);
  for (int64_t i = 0; i < m.rows; ++i) {
    for (int64_t j = 0; j < m.cols; ++j) buffer[i * m.cols + j] = m.p[i * m.s0 + j * m.s1];
  }
  return {buffer.get(), m.rows, m.cols, m.cols, 1};
}

// Products of at least this many multiply-adds are split across threads (about 20 us of
// work on one core: well above the cost of waking a worker).
constexpr int64_t kParallelMacs = int64_t(1) << 20;
// Eigen's panels are multiples of this many rows or columns (its register blocks divide it).
constexpr int64_t kEigenPanelAlign = 16;

// The kernel of a product (or of one panel of it): gradgen's (simd/gemm_kernel.h) for matrices,
// Eigen's for vectors (a GEMV, which packs nothing) and where the own kernel is not enabled. The
// choice is made once for the whole product, so that every panel of it runs the same kernel.
template <typename T>
struct Kernel {
  bool own;
  void operator()(T* c, int64_t ldc, const MatrixRef<T>& a, const MatrixRef<T>& b,
                  bool accumulate) const {
    if (own) {
      vec::packed_gemm(c, ldc, a, b, accumulate);
    } else {
      vec::gemm(c, ldc, a, b, accumulate);
    }
  }
  // Panels are multiples of the kernel's register tile, of rows (split_rows) or of columns.
  int64_t align(bool split_rows) const {
    if (!own) return kEigenPanelAlign;
    const vec::GemmTile tile = vec::packed_gemm_tile(sizeof(T) == sizeof(float));
    return split_rows ? tile.rows : tile.cols;
  }
};

// The tiny products (the 1x1 chains of benchmarks): a plain loop beats any kernel's set-up.
template <typename T>
void tiny_gemm(const MatrixRef<T>& a, const MatrixRef<T>& b, bool accumulate, T* c, int64_t ldc) {
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < b.cols; ++j) {
      T acc = 0;
      for (int64_t l = 0; l < a.cols; ++l)
        acc += a.p[i * a.s0 + l * a.s1] * b.p[l * b.s0 + j * b.s1];
      c[i * ldc + j] = accumulate ? c[i * ldc + j] + acc : acc;
    }
  }
}

template <typename T>
void gemm_impl(const MatrixRef<T>& a_in, const MatrixRef<T>& b_in, T beta, T* c, int64_t ldc) {
  const int64_t m = a_in.rows, k = a_in.cols, n = b_in.cols;
  if (m == 0 || n == 0) return;
  if (beta != T(0) && beta != T(1)) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) c[i * ldc + j] *= beta;
    }
  }
  const bool accumulate = beta != T(0);
  if (k == 0) {
    if (!accumulate) {
      for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, T(0));
    }
    return;
  }
  if (m * n * k <= 64) return tiny_gemm(a_in, b_in, accumulate, c, ldc);
  const Kernel<T> kernel{vec::packed_gemm_enabled() && m > 1 && n > 1};
  // The own kernel reads any strides; Eigen's path copies operands that fit no BLAS layout.
  std::unique_ptr<T[]> a_buffer, b_buffer;
  const MatrixRef<T> a = kernel.own || row_or_col_major(a_in) ? a_in : dense_copy(a_in, a_buffer);
  const MatrixRef<T> b = kernel.own || row_or_col_major(b_in) ? b_in : dense_copy(b_in, b_buffer);
  ThreadPool& pool = ThreadPool::get();
  const bool split_rows = m >= n;
  const int64_t extent = split_rows ? m : n, align = kernel.align(split_rows);
  int64_t tasks = std::min<int64_t>(pool.size(), extent / align);
  if (m * n * k < kParallelMacs || ThreadPool::in_task()) tasks = 1;
  if (tasks <= 1) return kernel(c, ldc, a, b, accumulate);
  // Panels of equal size, rounded up to the alignment; the last one takes the rest.
  const int64_t step = (extent / tasks + align - 1) / align * align;
  pool.run(static_cast<int>(tasks), [&](int task) {
    const int64_t begin = task * step;
    const int64_t end = task + 1 == tasks ? extent : std::min(extent, begin + step);
    if (begin >= end) return;
    if (split_rows) {
      kernel(c + begin * ldc, ldc, {a.p + begin * a.s0, end - begin, k, a.s0, a.s1}, b, accumulate);
    } else {
      kernel(c + begin, ldc, a, {b.p + begin * b.s1, k, end - begin, b.s0, b.s1}, accumulate);
    }
  });
}

}  // namespace

void gemm(const MatrixRef<float>& a, const MatrixRef<float>& b, float beta, float* c, int64_t ldc) {
  gemm_impl<float>(a, b, beta, c, ldc);
}

void gemm(const MatrixRef<double>& a, const MatrixRef<double>& b, double beta, double* c,
          int64_t ldc) {
  gemm_impl<double>(a, b, beta, c, ldc);
}

void parallel_ranges(int64_t n, int64_t grain, int64_t align,
                     const std::function<void(int64_t, int64_t)>& f) {
  ThreadPool& pool = ThreadPool::get();
  const int64_t tasks =
      ThreadPool::in_task() ? 1 : std::min<int64_t>(pool.size(), n / std::max<int64_t>(grain, 1));
  if (tasks <= 1) {
    f(0, n);
    return;
  }
  align = std::max<int64_t>(align, 1);
  const int64_t step = (n / tasks + align - 1) / align * align;
  pool.run(static_cast<int>(tasks), [&](int task) {
    const int64_t begin = task * step;
    const int64_t end = task + 1 == tasks ? n : std::min(n, begin + step);
    if (begin < end) f(begin, end);
  });
}

void parallel_dynamic(int64_t n, int64_t chunk, const std::function<void(int64_t, int64_t)>& f) {
  ThreadPool& pool = ThreadPool::get();
  chunk = std::max<int64_t>(chunk, 1);
  const int64_t tasks = ThreadPool::in_task() ? 1 : std::min<int64_t>(pool.size(), n / chunk);
  if (tasks <= 1) {
    f(0, n);
    return;
  }
  std::atomic<int64_t> next{0};
  pool.run(static_cast<int>(tasks), [&](int) {
    for (;;) {
      const int64_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
      if (begin >= n) return;
      f(begin, std::min(n, begin + chunk));
    }
  });
}

const char* gemm_backend() {
  static const std::string name =
      std::string(vec::packed_gemm_enabled() ? "gradgen-" : "eigen-") + vec::isa();
  return name.c_str();
}

}  // namespace native

void set_num_threads(int n) {
  n = std::max(n, 1);
  native::ThreadPool& pool = native::ThreadPool::get();
  if (pool.size() != n) pool.resize(n);
}

int get_num_threads() { return native::ThreadPool::get().size(); }

}  // namespace gradgen
