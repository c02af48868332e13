// The memory reserve of memory_reserve.h. Plain C++ (and one Python error): one copy per
// process, like type_objects.cc.
#include "csrc/python/memory_reserve.h"

#include <malloc.h>
#include <nanobind/nanobind.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "csrc/util/block_pool.h"

namespace gradgen {
namespace python {
namespace {

// The memory reserve: enough for nanobind's instance table to double at 5 million live
// objects (24 bytes a bucket, at most half full: 8M buckets, 192 MB). Address space only: its
// pages are never touched. Taken and freed with the GIL held, or by the new_handler on the
// thread whose allocation failed (hence the atomics).
constexpr size_t kReserveBytes = size_t{256} << 20;
std::atomic<void*> g_reserve{nullptr};
std::atomic<bool> g_reserve_spent{false};

void release_reserve() {
  void* block = g_reserve.exchange(nullptr);
  if (block == nullptr) {
    // Nothing left to free: fail as operator new does without a handler.
    throw std::bad_alloc();
  }
  std::free(block);
  g_reserve_spent.store(true);  // operator new retries, now with the reserve's room
}

}  // namespace

void install_memory_reserve() noexcept {
  if (g_reserve.load() != nullptr) return;
  g_reserve.store(std::malloc(kReserveBytes));
  if (std::get_new_handler() == nullptr) std::set_new_handler(&release_reserve);
}

bool memory_is_low() noexcept {
  if (!g_reserve_spent.load(std::memory_order_relaxed)) return false;
  void* block = std::malloc(kReserveBytes);
  if (block == nullptr) {
    // The blocks this thread's pool keeps are the ones freed last, often at the top of malloc's
    // heap, where they keep the rest of the freed heap from going back to the system (a Python
    // list of small Tensors is freed last element first): free them, give the heap's free top
    // back, and try again.
    internal::release_pooled_blocks();
    malloc_trim(0);
    block = std::malloc(kReserveBytes);
  }
  if (block == nullptr) {
    PyErr_SetString(PyExc_MemoryError,
                    "gradgen: out of memory (the Tensor was made, but no memory is left for "
                    "Python to hold it)");
    return true;
  }
  void* expected = nullptr;
  if (!g_reserve.compare_exchange_strong(expected, block)) std::free(block);
  g_reserve_spent.store(false);
  return false;
}

}  // namespace python
}  // namespace gradgen
