// Small compiler helpers shared by the runtime's headers.
#pragma once

/// Forces inlining of a tiny function on a hot path. GCC stops inlining once a translation unit
/// has grown enough (a generated Functions.cpp with many nodes), which would otherwise make the
/// same code slower there than in a small file; see Note [Index ranges computed at run time].
///
/// Only when optimizing: at -O0 (Bazel's default fastbuild) GCC inlines nothing else, and forcing
/// these (a Tensor's reference count among them) into every use made each generated node's code
/// 2.4 times as large and its compile 1.7 times as long (a 125-node Functions_<k>.cpp: 429 KB of
/// code and 1.7 s, against 176 KB and 1.0 s), which every formula edit waits for.
#if defined(__OPTIMIZE__)
#define GRADGEN_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define GRADGEN_ALWAYS_INLINE inline
#endif
