#include "csrc/util/block_pool.h"

#include <cstdlib>

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

// pooled_free when the thread's lists are full, or before its cleanup is registered.
[[gnu::noinline]] void free_slow(void* block, size_t c) noexcept {
  if (!cache.registered && c < kClasses) {
    cache.registered = true;
    static thread_local ThreadCleanup cleanup;  // frees the lists when the thread exits
    (void)cleanup;
    cache.limit = kMaxCachedBytes;
    push(c, block);
    return;
  }
  std::free(block);
}

}  // namespace

void* pooled_allocate(size_t bytes) noexcept {
  const size_t c = class_of(bytes);
  if (c >= kClasses) return std::malloc(bytes);
  FreeBlock* b = cache.head[c];
  if (b == nullptr) return std::malloc(class_bytes(c));
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
  return released;
}

size_t pooled_cached_bytes() noexcept { return cache.cached_bytes; }

}  // namespace internal
}  // namespace gradgen
