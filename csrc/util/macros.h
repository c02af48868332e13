// Small compiler helpers shared by the runtime's headers.
#pragma once

/// Forces inlining of a tiny function on a hot path. GCC stops inlining once a translation unit
/// has grown enough (a generated Functions.cpp with many nodes), which would otherwise make the
/// same code slower there than in a small file; see Note [Index ranges computed at run time].
#define GRADGEN_ALWAYS_INLINE __attribute__((always_inline)) inline
