// The kernels of depthwise.h, compiled once per instruction set: depthwise_baseline.cc,
// depthwise_avx2.cc and depthwise_avx512.cc include this file with GRADGEN_VEC_NS set and
// GRADGEN_DEPTHWISE_BYTES the width of the vectors (16, 32 or 64 bytes), then define their table
// with GRADGEN_DEPTHWISE_DEFINE_TABLE. Internal to csrc/native/simd.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

#include "csrc/native/simd/depthwise.h"

namespace gradgen {
namespace native {
namespace vec {

struct DepthwiseTable {
  void (*plane_f)(const DepthwisePlane&, const float*, const float*, float, bool, float*);
  void (*plane_d)(const DepthwisePlane&, const double*, const double*, double, bool, double*);
  void (*plane_weight_f)(const DepthwisePlane&, const float*, const float*, float*);
  void (*plane_weight_d)(const DepthwisePlane&, const double*, const double*, double*);
  void (*add_row_sums_f)(const float*, int64_t, int64_t, double*);
  void (*add_row_sums_d)(const double*, int64_t, int64_t, double*);
};

const DepthwiseTable& depthwise_baseline_table();
const DepthwiseTable& depthwise_avx2_table();
const DepthwiseTable& depthwise_avx512_table();

#if defined(GRADGEN_VEC_NS)
namespace GRADGEN_VEC_NS {

/// GCC's vector type of kBytes bytes of T: +, * and a scalar operand (broadcast) compile to the
/// ISA's vector instructions.
template <typename T, int kBytes>
struct VecOf {
  typedef T type __attribute__((vector_size(kBytes)));
};

/// The integer type of T's size (the lane masks).
template <typename T>
struct IntOf;
template <>
struct IntOf<float> {
  using type = int32_t;
};
template <>
struct IntOf<double> {
  using type = int64_t;
};

template <typename V, typename T>
inline V load(const T* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));  // an unaligned load
  return v;
}

template <typename V, typename T>
inline void store(T* p, V v) {
  std::memcpy(p, &v, sizeof(V));
}

/// The outputs o in [0, out) whose input o * s + off is in [0, in): [lo, hi), maybe empty.
inline std::pair<int64_t, int64_t> inside(int64_t out, int64_t in, int64_t s, int64_t off) {
  const int64_t lo = off >= 0 ? 0 : (-off + s - 1) / s;  // no division of negative numbers
  const int64_t last = in - 1 - off;
  return {lo, last < 0 ? 0 : std::max(lo, std::min(out, last / s + 1))};
}

/// The output columns every kernel column reads inside x: [lo, hi), maybe empty (lo >= hi).
inline std::pair<int64_t, int64_t> interior_columns(const DepthwisePlane& p) {
  int64_t lo = 0, hi = p.out_w;
  for (int64_t k2 = 0; k2 < p.k_w; ++k2) {
    const auto [l, h] = inside(p.out_w, p.in_w, p.stride_w, k2 * p.dil_w + p.off_w);
    lo = std::max(lo, l);
    hi = std::min(hi, h);
  }
  return {lo, hi};
}

/// A small array on the stack, on the heap when larger than kStack.
template <typename T, int kStack>
class SmallArray {
 public:
  explicit SmallArray(int64_t n)
      : p_(n <= kStack ? stack_ : (heap_.reset(new T[n]), heap_.get())) {}
  T& operator[](int64_t i) { return p_[i]; }
  T* get() { return p_; }

 private:
  T stack_[kStack];
  std::unique_ptr<T[]> heap_;
  T* p_;
};

/// depthwise_plane with the kernel's width KW known at compile time (0: p.k_w).
template <typename T, int kBytes, int KW>
void plane_impl(const DepthwisePlane& p, const T* x, const T* w, T init, bool accumulate, T* y) {
  using V = typename VecOf<T, kBytes>::type;
  constexpr int64_t L = kBytes / static_cast<int64_t>(sizeof(T));
  const int64_t kw = KW > 0 ? KW : p.k_w;
  const auto [clo, chi] = interior_columns(p);
  const bool vectors = p.stride_w == 1 && chi - clo >= L;
  SmallArray<const T*, 16> xr(p.k_h), wr(p.k_h);  // the rows of x and w an output row reads
  for (int64_t o1 = 0; o1 < p.out_h; ++o1) {
    T* yr = y + o1 * p.out_w;
    int64_t rows = 0;
    for (int64_t k1 = 0; k1 < p.k_h; ++k1) {
      const int64_t i1 = o1 * p.stride_h + k1 * p.dil_h + p.off_h;
      if (i1 < 0 || i1 >= p.in_h) continue;
      xr[rows] = x + i1 * p.in_w;
      wr[rows] = w + k1 * kw;
      ++rows;
    }
    // One output, its taps checked against x's columns.
    auto column = [&](int64_t o2) {
      T acc = accumulate ? yr[o2] : init;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k2 = 0; k2 < kw; ++k2) {
          const int64_t i2 = o2 * p.stride_w + k2 * p.dil_w + p.off_w;
          if (i2 >= 0 && i2 < p.in_w) acc += wr[r][k2] * xr[r][i2];
        }
      }
      yr[o2] = acc;
    };
    // L outputs from o2 on, all their taps inside x, in one vector.
    auto vector = [&](int64_t o2) {
      V acc = accumulate ? load<V>(yr + o2) : V{} + init;
      for (int64_t r = 0; r < rows; ++r) {
        const T* xp = xr[r] + (o2 + p.off_w);  // inside x for every tap: o2 >= clo
        const T* wp = wr[r];
        for (int64_t k2 = 0; k2 < kw; ++k2) acc += wp[k2] * load<V>(xp + k2 * p.dil_w);
      }
      store(yr + o2, acc);
    };
    if (!vectors) {
      for (int64_t o2 = 0; o2 < p.out_w; ++o2) column(o2);
      continue;
    }
    for (int64_t o2 = 0; o2 < clo; ++o2) column(o2);
    int64_t o2 = clo;
    if (accumulate) {
      for (; o2 + L <= chi; o2 += L) vector(o2);
      for (; o2 < chi; ++o2) column(o2);
    } else {
      // The last vector overlaps the one before instead of a scalar tail: it writes the same
      // values again (same operations), so the outputs do not depend on where vectors start.
      for (;;) {
        const int64_t at = std::min(o2, chi - L);
        vector(at);
        if (at == chi - L) break;
        o2 += L;
      }
    }
    for (int64_t c = chi; c < p.out_w; ++c) column(c);
  }
}

template <typename T, int kBytes>
void plane(const DepthwisePlane& p, const T* x, const T* w, T init, bool accumulate, T* y) {
  if (p.k_w == 3) return plane_impl<T, kBytes, 3>(p, x, w, init, accumulate, y);
  plane_impl<T, kBytes, 0>(p, x, w, init, accumulate, y);
}

/// plane_weight_impl's vector part for one row of gy and of x: adds into the row's kw tap
/// accumulators `a` the products over the columns [clo, vend), then (`tail`) the masked vector at
/// chi - L.
template <typename T, int kBytes, int KW, typename V, typename M>
inline void weight_row_vectors(const DepthwisePlane& p, const T* g, const T* xr, V* a, int64_t kw,
                               int64_t clo, int64_t vend, int64_t chi, bool tail, const M& mask) {
  constexpr int64_t L = kBytes / static_cast<int64_t>(sizeof(T));
  if (KW == 3) {
    V a0 = a[0], a1 = a[1], a2 = a[2];
    for (int64_t o2 = clo; o2 < vend; o2 += L) {
      const V gv = load<V>(g + o2);
      const T* xp = xr + (o2 + p.off_w);  // inside x for every tap: o2 >= clo
      a0 += gv * load<V>(xp);
      a1 += gv * load<V>(xp + p.dil_w);
      a2 += gv * load<V>(xp + 2 * p.dil_w);
    }
    if (tail) {
      const int64_t o2 = chi - L;
      const V gv = load<V>(g + o2);
      const T* xp = xr + (o2 + p.off_w);
      a0 += (V)((M)(gv * load<V>(xp)) & mask);
      a1 += (V)((M)(gv * load<V>(xp + p.dil_w)) & mask);
      a2 += (V)((M)(gv * load<V>(xp + 2 * p.dil_w)) & mask);
    }
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    return;
  }
  for (int64_t k2 = 0; k2 < kw; ++k2) {
    V ak = a[k2];
    const int64_t off = k2 * p.dil_w + p.off_w;
    for (int64_t o2 = clo; o2 < vend; o2 += L) {
      ak += load<V>(g + o2) * load<V>(xr + (o2 + off));
    }
    if (tail) {
      const int64_t o2 = chi - L;
      ak += (V)((M)(load<V>(g + o2) * load<V>(xr + (o2 + off))) & mask);
    }
    a[k2] = ak;
  }
}

/// depthwise_plane_weight with the kernel's width KW known at compile time (0: p.k_w).
template <typename T, int kBytes, int KW>
void plane_weight_impl(const DepthwisePlane& p, const T* gy, const T* x, T* gw) {
  using V = typename VecOf<T, kBytes>::type;
  constexpr int64_t L = kBytes / static_cast<int64_t>(sizeof(T));
  const int64_t kw = KW > 0 ? KW : p.k_w, taps = p.k_h * kw;
  const auto [clo, chi] = interior_columns(p);
  const bool vectors = p.stride_w == 1 && chi - clo >= L;
  const int64_t vend = vectors ? clo + (chi - clo) / L * L : clo;  // vectors cover [clo, vend)
  // Then one vector at chi - L, the lanes before vend masked out of its products: the columns
  // [clo, chi) are all in vectors (a scalar tail took most of the instructions).
  using M = typename VecOf<typename IntOf<T>::type, kBytes>::type;
  M mask{};
  for (int64_t j = 0; j < L; ++j) mask[j] = chi - L + j >= vend ? -1 : 0;
  const bool tail = vectors && vend < chi;
  const int64_t covered = vectors ? chi : clo;  // the vectors cover [clo, covered)
  // Per tap: a vector accumulator for [clo, vend), a scalar one for the other columns.
  SmallArray<V, 16> acc(taps);
  SmallArray<T, 16> sacc(taps);
  for (int64_t t = 0; t < taps; ++t) {
    acc[t] = V{};
    sacc[t] = T(0);
  }
  SmallArray<int64_t, 16> lo(kw), hi(kw);  // per kernel column, the outputs reading inside x
  for (int64_t k2 = 0; k2 < kw; ++k2) {
    const auto [l, h] = inside(p.out_w, p.in_w, p.stride_w, k2 * p.dil_w + p.off_w);
    lo[k2] = l;
    hi[k2] = h;
  }
  for (int64_t o1 = 0; o1 < p.out_h; ++o1) {
    const T* g = gy + o1 * p.out_w;
    for (int64_t k1 = 0; k1 < p.k_h; ++k1) {
      const int64_t i1 = o1 * p.stride_h + k1 * p.dil_h + p.off_h;
      if (i1 < 0 || i1 >= p.in_h) continue;
      const T* xr = x + i1 * p.in_w;
      V* a = acc.get() + k1 * kw;
      T* s = sacc.get() + k1 * kw;
      if (vectors) weight_row_vectors<T, kBytes, KW>(p, g, xr, a, kw, clo, vend, chi, tail, mask);
      // The columns the vectors left: each tap's own range of outputs inside x but [clo, covered).
      for (int64_t k2 = 0; k2 < kw; ++k2) {
        const int64_t off = k2 * p.dil_w + p.off_w;
        T sum = s[k2];
        const int64_t left_end = covered > clo ? std::min(hi[k2], clo) : hi[k2];
        for (int64_t o2 = lo[k2]; o2 < left_end; ++o2) sum += g[o2] * xr[o2 * p.stride_w + off];
        if (covered > clo) {
          for (int64_t o2 = covered; o2 < hi[k2]; ++o2) sum += g[o2] * xr[o2 * p.stride_w + off];
        }
        s[k2] = sum;
      }
    }
  }
  for (int64_t t = 0; t < taps; ++t) {
    T total = sacc[t];
    for (int64_t j = 0; j < L; ++j) total += acc[t][j];
    gw[t] += total;
  }
}

template <typename T, int kBytes>
void plane_weight(const DepthwisePlane& p, const T* gy, const T* x, T* gw) {
  if (p.k_w == 3) return plane_weight_impl<T, kBytes, 3>(p, gy, x, gw);
  plane_weight_impl<T, kBytes, 0>(p, gy, x, gw);
}

/// add_row_sums: two vector accumulators of doubles (T converted on load), the tail added first.
template <typename T, int kBytes>
void add_row_sums(const T* x, int64_t rows, int64_t n, double* out) {
  using VD = typename VecOf<double, kBytes>::type;
  constexpr int64_t L = kBytes / 8;
  using VT = typename VecOf<T, static_cast<int>(L * sizeof(T))>::type;
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = x + r * n;
    VD a0{}, a1{};
    int64_t i = 0;
    for (; i + 2 * L <= n; i += 2 * L) {
      a0 += __builtin_convertvector(load<VT>(row + i), VD);
      a1 += __builtin_convertvector(load<VT>(row + i + L), VD);
    }
    for (; i + L <= n; i += L) a0 += __builtin_convertvector(load<VT>(row + i), VD);
    double sum = 0;
    for (; i < n; ++i) sum += static_cast<double>(row[i]);
    const VD a = a0 + a1;
    for (int64_t j = 0; j < L; ++j) sum += a[j];
    out[r] += sum;
  }
}

}  // namespace GRADGEN_VEC_NS
#endif

}  // namespace vec
}  // namespace native
}  // namespace gradgen

// A kernel added to DepthwiseTable but not to this list would be a null pointer, called on
// first use: with the warning an error, it does not compile.
#pragma GCC diagnostic error "-Wmissing-field-initializers"

#define GRADGEN_DEPTHWISE_DEFINE_TABLE(ns, bytes)                          \
  namespace gradgen {                                                      \
  namespace native {                                                       \
  namespace vec {                                                          \
  const DepthwiseTable& depthwise_##ns##_table() {                         \
    static const DepthwiseTable table = {                                  \
        &ns::plane<float, bytes>,        &ns::plane<double, bytes>,        \
        &ns::plane_weight<float, bytes>, &ns::plane_weight<double, bytes>, \
        &ns::add_row_sums<float, bytes>, &ns::add_row_sums<double, bytes>, \
    };                                                                     \
    return table;                                                          \
  }                                                                        \
  }                                                                        \
  }                                                                        \
  }
