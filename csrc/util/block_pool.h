// A per-thread cache of small freed blocks, for the objects the runtime makes once or more per
// op: TensorImpl, the storage of small tensors, Backward nodes and their shared_ptr control
// blocks.
//
// A forward op records a node and makes a result; its backward frees them. For a long graph of
// small tensors (the chain `y = y * w + b` of bench/engine) glibc's per-thread cache holds only 7
// blocks per size, so most of these blocks went through malloc's and free's slow paths (bins,
// coalescing): a third of the chain's instructions per op. Here a freed block of up to
// kMaxPooledBytes goes onto a free list of its size class (16-byte steps), and the next request
// of that class takes it back: a few instructions each way.
//
// Large blocks: a thread also keeps its last 8 freed blocks of 64 KB and more (at most 64 MB) for
// a request of the same size, so that the tensors of a training step, made again every step, do
// not make glibc trim the heap and fault it in again; release_pooled_blocks() frees them too.
//
// Memory is returned: a thread keeps at most kMaxCachedBytes in its lists (beyond that a block
// goes to free()), the lists are freed when the thread exits, and release_pooled_blocks() frees
// the calling thread's at any time. A block freed on another thread than the one that allocated
// it joins the freeing thread's lists (every block comes from malloc, so any thread may free
// it). Under AddressSanitizer a cached block is poisoned, so a use after free is still reported.
#pragma once

#include <cstddef>
#include <new>

namespace gradgen {
namespace internal {

/// Requests up to this many bytes are served from the pool's free lists; larger ones go to malloc,
/// but for blocks of 64 KB and more (large tensors' storage), of which each thread keeps the last
/// few freed (8, at most 64 MB) for a request of exactly their size (block_pool.cc).
constexpr size_t kMaxPooledBytes = 512;
/// The most bytes one thread keeps in its free lists.
constexpr size_t kMaxCachedBytes = size_t{4} << 20;

/// Returns a block of at least `bytes` bytes, aligned as malloc's, or null if the allocation
/// failed. Give it back with pooled_free(block, bytes), the same `bytes`.
void* pooled_allocate(size_t bytes) noexcept;
/// Gives back a block from pooled_allocate(bytes).
void pooled_free(void* block, size_t bytes) noexcept;
/// Frees the blocks the calling thread keeps; returns how many bytes that was.
size_t release_pooled_blocks() noexcept;
/// Makes, for the calling thread, what the pool and a thrown exception would otherwise allocate
/// on their first use (the thread's cleanup registration, the C++ runtime's exception state), so
/// that running out of memory later raises instead of aborting in glibc. The Python module calls
/// it when imported.
void prepare_pooled_blocks() noexcept;

/// Returns how many bytes the calling thread keeps in its free lists.
size_t pooled_cached_bytes() noexcept;

/// pooled_allocate that throws std::bad_alloc, for operator new.
inline void* pooled_new(size_t bytes) {
  void* block = pooled_allocate(bytes);
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

/// A standard allocator over the pool (shared_ptr control blocks).
template <class T>
struct PoolAllocator {
  static_assert(alignof(T) <= alignof(std::max_align_t), "the pool aligns as malloc does");
  using value_type = T;
  PoolAllocator() noexcept = default;
  template <class U>
  PoolAllocator(const PoolAllocator<U>&) noexcept {}  // NOLINT(runtime/explicit): rebinding
  T* allocate(size_t n) { return static_cast<T*>(pooled_new(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { pooled_free(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const PoolAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const PoolAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace internal
}  // namespace gradgen
