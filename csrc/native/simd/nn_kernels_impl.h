// The kernels of nn_kernels.h, compiled once per instruction set: nn_kernels_baseline.cc,
// nn_kernels_avx2.cc and nn_kernels_avx512.cc include this file with GRADGEN_VEC_NS set, then
// define their table with GRADGEN_NN_KERNELS_DEFINE_TABLE. Internal to csrc/native/simd.
//
// The definitions live in GRADGEN_VEC_NS::nn: vectorized_impl.h defines templates of the same
// names and signatures in GRADGEN_VEC_NS, and two different bodies of one instantiation would be
// merged by the linker.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "csrc/native/simd/nn_kernels.h"

namespace gradgen {
namespace native {
namespace vec {

struct NnKernelTable {
  void (*layer_norm_rows_f)(const float*, const float*, const float*, double, float*, float*,
                            float*, int64_t, int64_t);
  void (*layer_norm_rows_d)(const double*, const double*, const double*, double, double*, double*,
                            double*, int64_t, int64_t);
  void (*layer_norm_backward_rows_f)(const float*, const float*, const float*, const float*,
                                     const float*, float*, double*, double*, int64_t, int64_t);
  void (*layer_norm_backward_rows_d)(const double*, const double*, const double*, const double*,
                                     const double*, double*, double*, double*, int64_t, int64_t);
  void (*channel_moments_f)(const float*, int64_t, int64_t, int64_t, double*, double*);
  void (*channel_moments_d)(const double*, int64_t, int64_t, int64_t, double*, double*);
  void (*channel_normalize_f)(const float*, float*, int64_t, int64_t, int64_t, float, float, float);
  void (*channel_normalize_d)(const double*, double*, int64_t, int64_t, int64_t, double, double,
                              double);
  void (*channel_grad_sums_f)(const float*, const float*, int64_t, int64_t, int64_t, float, double*,
                              double*);
  void (*channel_grad_sums_d)(const double*, const double*, int64_t, int64_t, int64_t, double,
                              double*, double*);
  void (*channel_grad_input_f)(const float*, const float*, float*, int64_t, int64_t, int64_t, float,
                               float, float, float);
  void (*channel_grad_input_d)(const double*, const double*, double*, int64_t, int64_t, int64_t,
                               double, double, double, double);
  void (*max_pool2d_planes_f)(const float*, const MaxPoolGeometry&, int64_t, float*, int64_t*);
  void (*max_pool2d_planes_d)(const double*, const MaxPoolGeometry&, int64_t, double*, int64_t*);
  void (*softmax_shift_rows_f)(float*, int64_t, int64_t);
  void (*softmax_shift_rows_d)(double*, int64_t, int64_t);
  void (*softmax_normalize_rows_f)(float*, int64_t, int64_t);
  void (*softmax_normalize_rows_d)(double*, int64_t, int64_t);
  void (*softmax_backward_rows_f)(const float*, float*, int64_t, int64_t);
  void (*softmax_backward_rows_d)(const double*, double*, int64_t, int64_t);
  void (*scale_rows_f)(const float*, int64_t, float, float*, int64_t, int64_t);
  void (*scale_rows_d)(const double*, int64_t, double, double*, int64_t, int64_t);
};

const NnKernelTable& nn_kernels_baseline_table();
const NnKernelTable& nn_kernels_avx2_table();
const NnKernelTable& nn_kernels_avx512_table();

#if defined(GRADGEN_VEC_NS)
// 64-byte vectors passed to inline helpers: without AVX-512 GCC notes that their ABI would
// differ, though every helper below is inlined (for the rest of the including file).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace GRADGEN_VEC_NS {
namespace nn {

// One 64-byte vector of T: N lanes; H and Q its halves and quarters.
template <typename T>
struct Simd;
template <>
struct Simd<float> {
  typedef float V __attribute__((vector_size(64)));
  typedef float H __attribute__((vector_size(32)));
  typedef float Q __attribute__((vector_size(16)));
  static constexpr int64_t N = 16;
};
template <>
struct Simd<double> {
  typedef double V __attribute__((vector_size(64)));
  typedef double H __attribute__((vector_size(32)));
  typedef double Q __attribute__((vector_size(16)));
  static constexpr int64_t N = 8;
};

// U is T (one element) or Simd<T>::V (N elements from p, any alignment).
template <typename U, typename T>
inline U load(const T* p) {
  if constexpr (std::is_same<U, T>::value) {
    return *p;
  } else {
    U v;
    __builtin_memcpy(&v, p, sizeof(U));
    return v;
  }
}

template <typename T, typename U>
inline void store(T* p, const U& v) {
  if constexpr (std::is_same<U, T>::value) {
    *p = v;
  } else {
    __builtin_memcpy(p, &v, sizeof(U));
  }
}

// s in every lane (s - 0 keeps a -0).
template <typename U, typename T>
inline U splat(T s) {
  return s - U{};
}

// The lanes of v summed in a fixed tree, in T: the upper half added to the lower one lane by
// lane, and again, down to one lane (in registers: halves and quarters, then the last lanes).
template <typename T>
inline T fold(const typename Simd<T>::V& v) {
  using H = typename Simd<T>::H;
  using Q = typename Simd<T>::Q;
  H lo, hi;
  __builtin_memcpy(&lo, &v, sizeof(H));
  __builtin_memcpy(&hi, reinterpret_cast<const char*>(&v) + sizeof(H), sizeof(H));
  const H h = lo + hi;
  Q a, b;
  __builtin_memcpy(&a, &h, sizeof(Q));
  __builtin_memcpy(&b, reinterpret_cast<const char*>(&h) + sizeof(Q), sizeof(Q));
  const Q q = a + b;
  if constexpr (sizeof(Q) / sizeof(T) == 4) {
    return (q[0] + q[2]) + (q[1] + q[3]);
  } else {
    return q[0] + q[1];
  }
}

// Vectors per block summed in T before the block's total is added in double (float: 1024
// elements).
constexpr int64_t kBlockVectors = 64;

// Sums over i in [0, n): add(i, a1, a2) adds element i's terms (U = T) or those of the N elements
// from i (U = V) into the accumulators a1, a2 of type U. Two vector accumulators per sum
// (alternate vectors), blocks of kBlockVectors vectors folded and added in double, then the tail
// (n % N elements) summed in T and added. s1, s2 are added to.
template <typename T, typename F>
inline void lane_sums2(int64_t n, F&& add, double* s1, double* s2) {
  using V = typename Simd<T>::V;
  constexpr int64_t N = Simd<T>::N;
  const int64_t nv = n / N;
  for (int64_t v0 = 0; v0 < nv; v0 += kBlockVectors) {
    const int64_t v1 = std::min(nv, v0 + kBlockVectors);
    V a1 = V{}, a2 = V{}, c1 = V{}, c2 = V{};
    int64_t v = v0;
    for (; v + 2 <= v1; v += 2) {
      add(v * N, a1, a2);
      add(v * N + N, c1, c2);
    }
    if (v < v1) add(v * N, a1, a2);
    *s1 += static_cast<double>(fold<T>(a1 + c1));
    *s2 += static_cast<double>(fold<T>(a2 + c2));
  }
  T t1 = 0, t2 = 0;
  for (int64_t i = nv * N; i < n; ++i) add(i, t1, t2);
  *s1 += static_cast<double>(t1);
  *s2 += static_cast<double>(t2);
}

// The same for one sum: add(i, a).
template <typename T, typename F>
inline double lane_sum(int64_t n, F&& add) {
  double s = 0, unused = 0;
  lane_sums2<T>(
      n, [&](int64_t i, auto& a, auto&) { add(i, a); }, &s, &unused);
  return s;
}

// Calls f(i, U{}) for i in [0, n): vectors of N elements, then the tail one element at a time.
template <typename T, typename F>
inline void for_each_vector(int64_t n, F&& f) {
  using V = typename Simd<T>::V;
  constexpr int64_t N = Simd<T>::N;
  int64_t i = 0;
  for (; i + N <= n; i += N) f(i, V{});
  for (; i < n; ++i) f(i, T{});
}

template <typename T>
void layer_norm_rows(const T* x, const T* w, const T* b, double eps, T* y, T* mean, T* rstd,
                     int64_t rows, int64_t m) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * m;
    T* yr = y + r * m;
    double mu = 0, var = 0;
    if (m > 0) {
      mu = lane_sum<T>(m,
                       [&](int64_t i, auto& a) {
                         using U = std::decay_t<decltype(a)>;
                         a += load<U>(xr + i);
                       }) /
           static_cast<double>(m);
      // Deviations from the mean in T, as ATen's float32 kernel: not a sum of squares.
      const T mu_t = static_cast<T>(mu);
      var = lane_sum<T>(m,
                        [&](int64_t i, auto& a) {
                          using U = std::decay_t<decltype(a)>;
                          const U d = load<U>(xr + i) - splat<U>(mu_t);
                          a += d * d;
                        }) /
            static_cast<double>(m);
    }
    mean[r] = static_cast<T>(mu);
    rstd[r] = static_cast<T>(1 / std::sqrt(var + eps));
    const T mu_t = mean[r], rs = rstd[r];
    for_each_vector<T>(m, [&](int64_t i, auto tag) {
      using U = decltype(tag);
      U v = (load<U>(xr + i) - splat<U>(mu_t)) * splat<U>(rs);
      if (w) v *= load<U>(w + i);
      if (b) v += load<U>(b + i);
      store(yr + i, v);
    });
  }
}

template <typename T>
void layer_norm_backward_rows(const T* go, const T* x, const T* mean, const T* rstd, const T* w,
                              T* gx, double* gw, double* gb, int64_t rows, int64_t m) {
  // Rows are taken 16 at a time: first each row's sums (pass 1), then the rows' gx and their
  // contributions to gw and gb, column tile by column tile, summed in T across the 16 rows
  // (pass 2, the rows read again from cache).
  constexpr int64_t kRowBlock = 16, kTile = 512;
  T ca[kRowBlock], cb[kRowBlock], cc[kRowBlock];
  T pw[kTile], pb[kTile];
  for (int64_t r0 = 0; r0 < rows; r0 += kRowBlock) {
    const int64_t r1 = std::min(rows, r0 + kRowBlock);
    if (gx) {
      for (int64_t r = r0; r < r1; ++r) {
        const T* gor = go + r * m;
        const T* xr = x + r * m;
        const T mu = mean[r];
        // s1, s2: the sums of g = go * w and of g * (x - mean).
        double s1 = 0, s2 = 0;
        lane_sums2<T>(
            m,
            [&](int64_t i, auto& a1, auto& a2) {
              using U = std::decay_t<decltype(a1)>;
              U g = load<U>(gor + i);
              if (w) g *= load<U>(w + i);
              a1 += g;
              a2 += g * (load<U>(xr + i) - splat<U>(mu));
            },
            &s1, &s2);
        // gx = rstd g - rstd s1 / m - rstd^3 s2 / m (x - mean).
        const double rs = rstd[r], inv_m = m > 0 ? 1.0 / static_cast<double>(m) : 0.0;
        ca[r - r0] = static_cast<T>(rs);
        cb[r - r0] = static_cast<T>(-rs * rs * rs * s2 * inv_m);
        cc[r - r0] = static_cast<T>(-rs * s1 * inv_m);
      }
    }
    for (int64_t c0 = 0; c0 < m; c0 += kTile) {
      const int64_t len = std::min(kTile, m - c0);
      if (gw) std::fill(pw, pw + len, T(0));
      if (gb) std::fill(pb, pb + len, T(0));
      const T* wt = w ? w + c0 : nullptr;
      for (int64_t r = r0; r < r1; ++r) {
        const T* gor = go + r * m + c0;
        const T* xr = x + r * m + c0;
        T* gxr = gx ? gx + r * m + c0 : nullptr;
        const T mu = mean[r], rs = rstd[r];
        const T a = gx ? ca[r - r0] : T(0), bb = gx ? cb[r - r0] : T(0), c = gx ? cc[r - r0] : T(0);
        for_each_vector<T>(len, [&](int64_t i, auto tag) {
          using U = decltype(tag);
          const U g0 = load<U>(gor + i);
          const U d = load<U>(xr + i) - splat<U>(mu);
          if (gxr) {
            const U g = wt ? g0 * load<U>(wt + i) : g0;
            store(gxr + i, splat<U>(a) * g + splat<U>(bb) * d + splat<U>(c));
          }
          if (gw) store(pw + i, load<U>(pw + i) + g0 * (d * splat<U>(rs)));
          if (gb) store(pb + i, load<U>(pb + i) + g0);
        });
      }
      if (gw) {
        for (int64_t i = 0; i < len; ++i) gw[c0 + i] += static_cast<double>(pw[i]);
      }
      if (gb) {
        for (int64_t i = 0; i < len; ++i) gb[c0 + i] += static_cast<double>(pb[i]);
      }
    }
  }
}

template <typename T>
void channel_moments(const T* x, int64_t ld, int64_t planes, int64_t S, double* mean, double* sq) {
  const int64_t count = planes * S;
  double sum = 0;
  for (int64_t n = 0; n < planes; ++n) {
    const T* p = x + n * ld;
    sum += lane_sum<T>(S, [&](int64_t i, auto& a) {
      using U = std::decay_t<decltype(a)>;
      a += load<U>(p + i);
    });
  }
  const double mu = count > 0 ? sum / static_cast<double>(count) : 0;
  const T mu_t = static_cast<T>(mu);
  double q = 0;
  for (int64_t n = 0; n < planes; ++n) {
    const T* p = x + n * ld;
    q += lane_sum<T>(S, [&](int64_t i, auto& a) {
      using U = std::decay_t<decltype(a)>;
      const U d = load<U>(p + i) - splat<U>(mu_t);
      a += d * d;
    });
  }
  *mean = mu;
  *sq = q;
}

template <typename T>
void channel_normalize(const T* x, T* y, int64_t ld, int64_t planes, int64_t S, T mu, T scale,
                       T shift) {
  for (int64_t n = 0; n < planes; ++n) {
    const T* p = x + n * ld;
    T* q = y + n * ld;
    for_each_vector<T>(S, [&](int64_t i, auto tag) {
      using U = decltype(tag);
      store(q + i, (load<U>(p + i) - splat<U>(mu)) * splat<U>(scale) + splat<U>(shift));
    });
  }
}

template <typename T>
void channel_grad_sums(const T* go, const T* x, int64_t ld, int64_t planes, int64_t S, T mu,
                       double* sum, double* dot) {
  *sum = 0;
  *dot = 0;
  for (int64_t n = 0; n < planes; ++n) {
    const T* g = go + n * ld;
    const T* p = x + n * ld;
    lane_sums2<T>(
        S,
        [&](int64_t i, auto& a1, auto& a2) {
          using U = std::decay_t<decltype(a1)>;
          const U gv = load<U>(g + i);
          a1 += gv;
          a2 += gv * (load<U>(p + i) - splat<U>(mu));
        },
        sum, dot);
  }
}

template <typename T>
void channel_grad_input(const T* go, const T* x, T* gx, int64_t ld, int64_t planes, int64_t S, T mu,
                        T a, T b, T c) {
  for (int64_t n = 0; n < planes; ++n) {
    const T* g = go + n * ld;
    const T* p = x + n * ld;
    T* q = gx + n * ld;
    for_each_vector<T>(S, [&](int64_t i, auto tag) {
      using U = decltype(tag);
      store(q + i, splat<U>(a) * load<U>(g + i) + splat<U>(b) * (load<U>(p + i) - splat<U>(mu)) +
                       splat<U>(c));
    });
  }
}

// One output of a max pool, any window (clipped by the padding): the scan of PyTorch's kernel.
template <typename T>
inline void max_pool_window(const T* plane, const MaxPoolGeometry& g, int64_t oh, int64_t ow,
                            T* out, int64_t* index) {
  int64_t h0 = oh * g.sh - g.ph;
  const int64_t h1 = std::min(h0 + (g.kh - 1) * g.dh + 1, g.H);
  while (h0 < 0) h0 += g.dh;
  int64_t w0 = ow * g.sw - g.pw;
  const int64_t w1 = std::min(w0 + (g.kw - 1) * g.dw + 1, g.W);
  while (w0 < 0) w0 += g.dw;
  int64_t best = h0 * g.W + w0;
  T m = -std::numeric_limits<T>::infinity();
  for (int64_t h = h0; h < h1; h += g.dh) {
    for (int64_t w = w0; w < w1; w += g.dw) {
      const T v = plane[h * g.W + w];
      if (v > m || v != v) {
        m = v;
        best = h * g.W + w;
      }
    }
  }
  *out = m;
  *index = best;
}

// A window's taps compared in order: the tap replaces the maximum when it is greater or NaN.
// Starting from the first tap's value and index gives max_pool_window's result (its -inf start
// loses to any first value but -inf, whose index it keeps anyway).
template <typename T>
void max_pool2d_planes(const T* x, const MaxPoolGeometry& g, int64_t planes, T* out,
                       int64_t* indices) {
  // The columns whose window lies inside the row: [lo, hi).
  const int64_t lo = std::min(g.OW, (g.pw + g.sw - 1) / g.sw);
  const int64_t last = g.W - 1 - (g.kw - 1) * g.dw + g.pw;
  const int64_t hi = std::max(lo, last >= 0 ? std::min(g.OW, last / g.sw + 1) : 0);
  const bool two_by_two = g.kh == 2 && g.kw == 2 && g.sw == 2 && g.dh == 1 && g.dw == 1;
  for (int64_t p = 0; p < planes; ++p) {
    const T* plane = x + p * g.H * g.W;
    for (int64_t oh = 0; oh < g.OH; ++oh) {
      T* po = out + (p * g.OH + oh) * g.OW;
      int64_t* pi = indices + (p * g.OH + oh) * g.OW;
      for (int64_t ow = 0; ow < lo; ++ow) max_pool_window(plane, g, oh, ow, po + ow, pi + ow);
      for (int64_t ow = hi; ow < g.OW; ++ow) max_pool_window(plane, g, oh, ow, po + ow, pi + ow);
      if (lo == hi) continue;
      int64_t h0 = oh * g.sh - g.ph;
      const int64_t h1 = std::min(h0 + (g.kh - 1) * g.dh + 1, g.H);
      while (h0 < 0) h0 += g.dh;
      if (two_by_two && h0 + 1 < h1) {
        // Both rows inside: the four taps of each window in registers.
        const int64_t base = h0 * g.W - g.pw;
        const T* r0 = plane + base;
        const T* r1 = r0 + g.W;
        const int64_t W = g.W;
        for (int64_t ow = lo; ow < hi; ++ow) {
          const int64_t c = 2 * ow;
          T m = r0[c];
          int64_t k = 0;
          T v = r0[c + 1];
          bool take = v > m || v != v;
          m = take ? v : m;
          k = take ? 1 : k;
          v = r1[c];
          take = v > m || v != v;
          m = take ? v : m;
          k = take ? W : k;
          v = r1[c + 1];
          take = v > m || v != v;
          m = take ? v : m;
          k = take ? W + 1 : k;
          po[ow] = m;
          pi[ow] = base + c + k;
        }
        continue;
      }
      // Any window: tap by tap over the row's interior outputs.
      bool first = true;
      for (int64_t h = h0; h < h1; h += g.dh) {
        for (int64_t j = 0; j < g.kw; ++j) {
          const int64_t base = h * g.W + j * g.dw - g.pw;
          const T* src = plane + base;
          if (first) {
            for (int64_t ow = lo; ow < hi; ++ow) {
              po[ow] = src[ow * g.sw];
              pi[ow] = base + ow * g.sw;
            }
            first = false;
            continue;
          }
          for (int64_t ow = lo; ow < hi; ++ow) {
            const T v = src[ow * g.sw];
            const bool take = v > po[ow] || v != v;
            po[ow] = take ? v : po[ow];
            pi[ow] = take ? base + ow * g.sw : pi[ow];
          }
        }
      }
    }
  }
}

// Attention's softmax steps. The maximum: a vector of running maxima, then its lanes and the
// tail (NaN: the row's exponentials and sum are NaN whichever maximum is kept).
template <typename T>
void softmax_shift_rows(T* x, int64_t rows, int64_t n) {
  using V = typename Simd<T>::V;
  constexpr int64_t N = Simd<T>::N;
  for (int64_t r = 0; r < rows; ++r) {
    T* xr = x + r * n;
    T mx = xr[0];
    int64_t i = 0;
    if (n >= N) {
      V m = load<V>(xr);
      for (i = N; i + N <= n; i += N) {
        const V v = load<V>(xr + i);
        m = m < v ? v : m;
      }
      for (int64_t l = 0; l < N; ++l) mx = mx < m[l] ? m[l] : mx;
    }
    for (; i < n; ++i) mx = mx < xr[i] ? xr[i] : mx;
    for_each_vector<T>(n, [&](int64_t j, auto tag) {
      using U = decltype(tag);
      store(xr + j, load<U>(xr + j) - splat<U>(mx));
    });
  }
}

template <typename T>
void softmax_normalize_rows(T* x, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    T* xr = x + r * n;
    const double total = lane_sum<T>(n, [&](int64_t i, auto& a) {
      using U = std::decay_t<decltype(a)>;
      a += load<U>(xr + i);
    });
    const T inv = static_cast<T>(1 / total);
    for_each_vector<T>(n, [&](int64_t i, auto tag) {
      using U = decltype(tag);
      store(xr + i, load<U>(xr + i) * splat<U>(inv));
    });
  }
}

template <typename T>
void softmax_backward_rows(const T* p, T* g, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* pr = p + r * n;
    T* gr = g + r * n;
    const T dot = static_cast<T>(lane_sum<T>(n, [&](int64_t i, auto& a) {
      using U = std::decay_t<decltype(a)>;
      a += load<U>(pr + i) * load<U>(gr + i);
    }));
    for_each_vector<T>(n, [&](int64_t i, auto tag) {
      using U = decltype(tag);
      store(gr + i, load<U>(pr + i) * (load<U>(gr + i) - splat<U>(dot)));
    });
  }
}

template <typename T>
void scale_rows(const T* src, int64_t ld, T s, T* dst, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* sr = src + r * ld;
    T* dr = dst + r * n;
    for_each_vector<T>(n, [&](int64_t i, auto tag) {
      using U = decltype(tag);
      store(dr + i, load<U>(sr + i) * splat<U>(s));
    });
  }
}

}  // namespace nn
}  // namespace GRADGEN_VEC_NS
#endif

}  // namespace vec
}  // namespace native
}  // namespace gradgen

// A kernel added to NnKernelTable but not to this list would be a null pointer, called on first
// use: with the warning an error, it does not compile.
#pragma GCC diagnostic error "-Wmissing-field-initializers"

#define GRADGEN_NN_KERNELS_DEFINE_TABLE(ns)        \
  namespace gradgen {                              \
  namespace native {                               \
  namespace vec {                                  \
  const NnKernelTable& nn_kernels_##ns##_table() { \
    static const NnKernelTable table = {           \
        &ns::nn::layer_norm_rows<float>,           \
        &ns::nn::layer_norm_rows<double>,          \
        &ns::nn::layer_norm_backward_rows<float>,  \
        &ns::nn::layer_norm_backward_rows<double>, \
        &ns::nn::channel_moments<float>,           \
        &ns::nn::channel_moments<double>,          \
        &ns::nn::channel_normalize<float>,         \
        &ns::nn::channel_normalize<double>,        \
        &ns::nn::channel_grad_sums<float>,         \
        &ns::nn::channel_grad_sums<double>,        \
        &ns::nn::channel_grad_input<float>,        \
        &ns::nn::channel_grad_input<double>,       \
        &ns::nn::max_pool2d_planes<float>,         \
        &ns::nn::max_pool2d_planes<double>,        \
        &ns::nn::softmax_shift_rows<float>,        \
        &ns::nn::softmax_shift_rows<double>,       \
        &ns::nn::softmax_normalize_rows<float>,    \
        &ns::nn::softmax_normalize_rows<double>,   \
        &ns::nn::softmax_backward_rows<float>,     \
        &ns::nn::softmax_backward_rows<double>,    \
        &ns::nn::scale_rows<float>,                \
        &ns::nn::scale_rows<double>,               \
    };                                             \
    return table;                                  \
  }                                                \
  }                                                \
  }                                                \
  }
