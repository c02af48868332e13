#include "csrc/util/block_pool.h"

#include <cstdlib>
#include <exception>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define GRADGEN_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define GRADGEN_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define GRADGEN_POISON(p, n) ((void)(p), (void)(n))
#define GRADGEN_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace gradgen {
namespace internal {

namespace {

constexpr size_t kGranule = 16;  // malloc's alignment; size classes are its multiples
constexpr size_t kClasses = kMaxPooledBytes / kGranule;

struct FreeBlock {
  FreeBlock* next;
};

// One thread's free lists. Trivially destructible and zero-initialized, so that reaching it is
// one TLS access with no guard; the thread's cleanup (ThreadCleanup) is registered by the first
// block the thread caches. Until then `limit` is 0, so that first free takes the slow path that
// registers it, and after the cleanup ran `limit` is 0 again, so later frees go to free().
struct ThreadCache {
  FreeBlock* head[kClasses];
  size_t cached_bytes;
  size_t limit;
  bool registered;
};

thread_local ThreadCache cache;

// Large blocks (the storage of tensors of 64 KB and more): up to kLargeSlots of them per
// thread, handed out again only for a request of exactly their size, as the tensors of a
// training step are made again in every step. Freed to malloc instead, they made the heap's top
// shrink (glibc trims it past twice the mmap threshold) and grow again page by page: a 2-layer
// MLP step at N = 256 took 96 page faults, 8 times libtorch's, and at N = 1024, 2,016 (about a
// tenth of the step's time, in the kernel). The oldest block makes room for a new one.
constexpr size_t kMinLargeBytes = size_t{64} << 10;
constexpr int kLargeSlots = 8;
constexpr size_t kMaxLargeCachedBytes = size_t{64} << 20;

struct LargeCache {
  void* block[kLargeSlots];
  size_t bytes[kLargeSlots];
  int count;
  size_t cached_bytes;
};

thread_local LargeCache large;  // zero-initialized, trivially destructible, as `cache`

inline size_t class_of(size_t bytes) noexcept { return (bytes - 1) / kGranule; }  // 0: wraps
inline size_t class_bytes(size_t c) noexcept { return (c + 1) * kGranule; }

struct ThreadCleanup {
  ~ThreadCleanup() {
    release_pooled_blocks();
    cache.limit = 0;
  }
};

inline void push(size_t c, void* block) noexcept {
  auto* b = static_cast<FreeBlock*>(block);
  b->next = cache.head[c];
  cache.head[c] = b;
  cache.cached_bytes += class_bytes(c);
  GRADGEN_POISON(b, class_bytes(c));
}

// Registers the thread's cleanup (once per thread) and opens its lists. Registering allocates
// (__cxa_thread_atexit), and glibc aborts the process when that fails: prepare_pooled_blocks()
// does it early, where memory is not short.
void register_thread() noexcept {
  cache.registered = true;
  static thread_local ThreadCleanup cleanup;  // frees the lists when the thread exits
  (void)cleanup;
  cache.limit = kMaxCachedBytes;
}

// pooled_free when the thread's lists are full, or before its cleanup is registered.
[[gnu::noinline]] void free_slow(void* block, size_t c) noexcept {
  if (!cache.registered && c < kClasses) {
    register_thread();
    push(c, block);
    return;
  }
  std::free(block);
}

// malloc; when it fails, the thread's own free lists are freed and malloc tried again; then the
// new_handler, as operator new calls it, and malloc again. The Python module's handler frees its
// memory reserve (csrc/python/memory_reserve.h), so that what runs after (a MemoryError
// unwinding) has room, as it had when these objects came from operator new. A handler that
// throws (nothing left to free) means null.
void* malloc_or_handler(size_t bytes) noexcept {
  void* p = std::malloc(bytes);
  if (p == nullptr && release_pooled_blocks() > 0) p = std::malloc(bytes);
  while (p == nullptr) {
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) return nullptr;
    try {
      handler();
    } catch (...) {
      return nullptr;
    }
    p = std::malloc(bytes);
  }
  return p;
}

// A cached large block of exactly `bytes`, the most recently freed first, or null.
void* take_large(size_t bytes) noexcept {
  for (int i = large.count - 1; i >= 0; --i) {
    if (large.bytes[i] != bytes) continue;
    void* block = large.block[i];
    for (int j = i + 1; j < large.count; ++j) {
      large.block[j - 1] = large.block[j];
      large.bytes[j - 1] = large.bytes[j];
    }
    --large.count;
    large.cached_bytes -= bytes;
    GRADGEN_UNPOISON(block, bytes);
    return block;
  }
  return nullptr;
}

// Caches a freed large block (the oldest one freed when the slots are full), or frees it when it
// alone is over the limit or the thread's cleanup has run.
[[gnu::noinline]] void free_large(void* block, size_t bytes) noexcept {
  if (!cache.registered) register_thread();
  if (cache.limit == 0 || bytes > kMaxLargeCachedBytes) {
    std::free(block);
    return;
  }
  while (large.count > 0 &&
         (large.count == kLargeSlots || large.cached_bytes + bytes > kMaxLargeCachedBytes)) {
    GRADGEN_UNPOISON(large.block[0], large.bytes[0]);
    std::free(large.block[0]);
    large.cached_bytes -= large.bytes[0];
    for (int j = 1; j < large.count; ++j) {
      large.block[j - 1] = large.block[j];
      large.bytes[j - 1] = large.bytes[j];
    }
    --large.count;
  }
  large.block[large.count] = block;
  large.bytes[large.count] = bytes;
  ++large.count;
  large.cached_bytes += bytes;
  GRADGEN_POISON(block, bytes);
}

// pooled_allocate of a block too big for the free lists: a cached large one, else malloc's. Out
// of line, so that the small blocks' path stays a few instructions.
[[gnu::noinline]] void* allocate_big(size_t bytes) noexcept {
  if (bytes >= kMinLargeBytes && large.count > 0) {
    if (void* block = take_large(bytes)) return block;
  }
  return malloc_or_handler(bytes);
}

}  // namespace

void* pooled_allocate(size_t bytes) noexcept {
  const size_t c = class_of(bytes);
  if (c >= kClasses) return allocate_big(bytes);
  FreeBlock* b = cache.head[c];
  if (b == nullptr) return malloc_or_handler(class_bytes(c));
  GRADGEN_UNPOISON(b, class_bytes(c));
  cache.head[c] = b->next;
  cache.cached_bytes -= class_bytes(c);
  return b;
}

void pooled_free(void* block, size_t bytes) noexcept {
  if (block == nullptr) return;
  const size_t c = class_of(bytes);
  if (c < kClasses && cache.cached_bytes + class_bytes(c) <= cache.limit) {
    push(c, block);
    return;
  }
  if (bytes >= kMinLargeBytes) {
    free_large(block, bytes);
    return;
  }
  free_slow(block, c);
}

size_t release_pooled_blocks() noexcept {
  const size_t released = cache.cached_bytes;
  for (size_t c = 0; c < kClasses; ++c) {
    while (FreeBlock* b = cache.head[c]) {
      GRADGEN_UNPOISON(b, class_bytes(c));
      cache.head[c] = b->next;
      std::free(b);
    }
  }
  cache.cached_bytes = 0;
  const size_t released_large = large.cached_bytes;
  for (int i = 0; i < large.count; ++i) {
    GRADGEN_UNPOISON(large.block[i], large.bytes[i]);
    std::free(large.block[i]);
  }
  large.count = 0;
  large.cached_bytes = 0;
  return released + released_large;
}

size_t pooled_cached_bytes() noexcept { return cache.cached_bytes; }

void prepare_pooled_blocks() noexcept {
  if (!cache.registered) register_thread();
  // The C++ runtime's per-thread exception state (thread-local data of libstdc++, allocated at
  // its first use when the library was loaded with dlopen): reached here, not by the first
  // std::bad_alloc thrown when memory has run out.
  (void)std::uncaught_exceptions();
}

}  // namespace internal
}  // namespace gradgen
