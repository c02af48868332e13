// The fused attention kernel (attention_kernel.h): per matrix of the batch, blocks of query rows
// against every key, the block's scores in cache, never the whole [L, S] matrix.
#include "csrc/native/attention_kernel.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "csrc/native/gemm.h"
#include "csrc/native/simd/nn_kernels.h"
#include "csrc/native/simd/vectorized.h"

namespace gradgen {
namespace native {

namespace {

// Multiply-adds of one block product at most. With one matrix, below the size from which gemm()
// splits a product across threads (2^20), so that a block's product runs whole on its thread
// whatever the thread count; with several, each runs inside a task of the intra-op threads (or
// on one thread), where gemm() splits nothing, and a block may be larger.
constexpr int64_t kOneMatrixBlockMacs = int64_t(1) << 19;
constexpr int64_t kBlockMacs = int64_t(1) << 21;

// The element offsets of the matrices of a [..., r, c] tensor, in row-major order of the batch.
std::vector<int64_t> batch_offsets(const Tensor& t) {
  const int64_t nb = t.dim() - 2;
  int64_t count = 1;
  for (int64_t d = 0; d < nb; ++d) count *= t.size(d);
  std::vector<int64_t> off(static_cast<size_t>(count));
  std::vector<int64_t> idx(static_cast<size_t>(nb), 0);
  int64_t o = 0;
  for (int64_t b = 0; b < count; ++b) {
    off[static_cast<size_t>(b)] = o;
    for (int64_t d = nb - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < t.size(d)) {
        o += t.stride(d);
        break;
      }
      o -= (t.size(d) - 1) * t.stride(d);
      idx[static_cast<size_t>(d)] = 0;
    }
  }
  return off;
}

// A batch of matrices read in place (none when the tensor is undefined).
template <typename T>
struct Operand {
  Operand() = default;
  explicit Operand(const Tensor& t)
      : p(t.data_ptr<T>()), s0(t.stride(-2)), s1(t.stride(-1)), off(batch_offsets(t)) {}
  // Rows [row0, row0 + rows) and the first `cols` columns of matrix b.
  MatrixRef<T> matrix(int64_t b, int64_t row0, int64_t rows, int64_t cols) const {
    return {p + off[static_cast<size_t>(b)] + row0 * s0, rows, cols, s0, s1};
  }
  const T* p = nullptr;
  int64_t s0 = 0, s1 = 0;
  std::vector<int64_t> off;
};

template <typename T>
MatrixRef<T> transposed(const MatrixRef<T>& m) {
  return {m.p, m.cols, m.rows, m.s1, m.s0};
}

template <typename T>
struct Plan {
  explicit Plan(const AttentionArgs& a)
      : q(a.q),
        k(a.k),
        v(a.v),
        L(a.q.size(-2)),
        S(a.k.size(-2)),
        E(a.q.size(-1)),
        Ev(a.v.size(-1)),
        causal(a.causal),
        q_scale(static_cast<T>(a.q_scale)),
        k_scale(static_cast<T>(a.k_scale)) {
    if (a.mask.defined() && a.mask.scalar_type() == ScalarType::Bool) keep = Operand<bool>(a.mask);
    if (a.mask.defined() && a.mask.scalar_type() != ScalarType::Bool) add = Operand<T>(a.mask);
    batch = static_cast<int64_t>(q.off.size());
    const int64_t per_row = S * std::max(E, Ev);
    const int64_t macs = batch > 1 ? kBlockMacs : kOneMatrixBlockMacs;
    block = std::max<int64_t>(1, std::min<int64_t>(L, macs / per_row));
    if (block >= 16) block -= block % 16;
  }
  Operand<T> q, k, v, add;
  Operand<bool> keep;
  int64_t L, S, E, Ev, batch = 0, block = 1;
  bool causal;
  T q_scale, k_scale;
};

// One task's buffers: the scaled keys [S, E], the block's scaled queries [block, E], scores or
// probabilities [block, S] and their gradients, and which of the block's rows are masked
// everywhere.
template <typename T>
struct Scratch {
  explicit Scratch(const Plan<T>& p)
      : ks(static_cast<size_t>(p.S * p.E)),
        qs(static_cast<size_t>(p.block * p.E)),
        sc(static_cast<size_t>(p.block * p.S)),
        dead(static_cast<size_t>(p.block)) {}
  std::vector<T> ks, qs, sc, dp;
  std::vector<char> dead;
};

// dst (m's rows by its columns, packed) = m * scale.
template <typename T>
void scaled_copy(const MatrixRef<T>& m, T scale, T* dst) {
  if (m.s1 == 1) return vec::scale_rows(m.p, m.s0, scale, dst, m.rows, m.cols);
  for (int64_t r = 0; r < m.rows; ++r) {
    const T* src = m.p + r * m.s0;
    T* d = dst + r * m.cols;
    for (int64_t c = 0; c < m.cols; ++c) d[c] = src[c * m.s1] * scale;
  }
}

// The mask of query row i applied to its first `cols` scores; returns whether all are -inf.
template <typename T>
bool mask_row(const Plan<T>& p, int64_t b, int64_t i, T* row, int64_t cols) {
  const T minus_inf = -std::numeric_limits<T>::infinity();
  if (p.causal) {
    for (int64_t j = i + 1; j < cols; ++j) row[j] = minus_inf;
  } else if (p.keep.p) {
    const MatrixRef<bool> m = p.keep.matrix(b, i, 1, cols);
    for (int64_t j = 0; j < cols; ++j) {
      if (!m.p[j * m.s1]) row[j] = minus_inf;
    }
  } else if (p.add.p) {
    const MatrixRef<T> m = p.add.matrix(b, i, 1, cols);
    for (int64_t j = 0; j < cols; ++j) row[j] += m.p[j * m.s1];
  }
  int64_t j = 0;
  while (j < cols && row[j] == minus_inf) ++j;
  return j == cols;
}

// The probabilities of query rows [i0, i0 + rows) of matrix b over keys [0, cols) into s.sc
// (row stride cols), the block's scaled queries into s.qs; s.ks holds the matrix's scaled keys.
template <typename T>
void probabilities(const Plan<T>& p, int64_t b, int64_t i0, int64_t rows, int64_t cols,
                   Scratch<T>& s) {
  scaled_copy(p.q.matrix(b, i0, rows, p.E), p.q_scale, s.qs.data());
  gemm(MatrixRef<T>{s.qs.data(), rows, p.E, p.E, 1}, MatrixRef<T>{s.ks.data(), p.E, cols, 1, p.E},
       T(0), s.sc.data(), cols);
  bool any_dead = false;
  for (int64_t r = 0; r < rows; ++r) {
    const bool dead = mask_row(p, b, i0 + r, s.sc.data() + r * cols, cols);
    s.dead[static_cast<size_t>(r)] = dead;
    any_dead |= dead;
  }
  // softmax_rows's steps, on the whole block: exp(x - max) / sum per row.
  vec::softmax_shift_rows(s.sc.data(), rows, cols);
  vec::exp(s.sc.data(), s.sc.data(), rows * cols);
  vec::softmax_normalize_rows(s.sc.data(), rows, cols);
  for (int64_t r = 0; any_dead && r < rows; ++r) {
    T* row = s.sc.data() + r * cols;
    if (s.dead[static_cast<size_t>(r)]) std::fill(row, row + cols, T(0));  // _safe_softmax's 0
  }
}

// The keys a block of rows ending before `end` sees: all, or with causal those up to end - 1.
template <typename T>
int64_t key_count(const Plan<T>& p, int64_t end) {
  return p.causal ? std::min(p.S, end) : p.S;
}

template <typename T>
void forward_matrix(const Plan<T>& p, int64_t b, Scratch<T>& s, T* out) {
  scaled_copy(p.k.matrix(b, 0, p.S, p.E), p.k_scale, s.ks.data());
  for (int64_t i0 = 0; i0 < p.L; i0 += p.block) {
    const int64_t rows = std::min(p.block, p.L - i0), cols = key_count(p, i0 + rows);
    probabilities(p, b, i0, rows, cols, s);
    gemm(MatrixRef<T>{s.sc.data(), rows, cols, cols, 1}, p.v.matrix(b, 0, cols, p.Ev), T(0),
         out + i0 * p.Ev, p.Ev);
  }
}

template <typename T>
void forward(const AttentionArgs& a, Tensor& out) {
  const Plan<T> p(a);
  T* o = out.data_ptr<T>();
  parallel_dynamic(p.batch, 1, [&](int64_t b0, int64_t b1) {
    Scratch<T> s(p);
    for (int64_t b = b0; b < b1; ++b) forward_matrix(p, b, s, o + b * p.L * p.Ev);
  });
}

// The gradients' buffers of one matrix (null when not needed); dk and dv start at 0.
template <typename T>
struct Grads {
  T *dq, *dk, *dv;
};

// s.sc holds a block's probabilities P, s.dp the gradient of P: the gradient of the scores
// P * (dP - sum(P * dP)) per row into s.dp, 0 on the rows masked everywhere.
template <typename T>
void score_gradients(int64_t rows, int64_t cols, Scratch<T>& s) {
  vec::softmax_backward_rows(s.sc.data(), s.dp.data(), rows, cols);
  for (int64_t r = 0; r < rows; ++r) {
    T* gr = s.dp.data() + r * cols;
    if (s.dead[static_cast<size_t>(r)]) std::fill(gr, gr + cols, T(0));
  }
}

template <typename T>
void backward_block(const Plan<T>& p, const Operand<T>& go, int64_t b, int64_t i0, int64_t rows,
                    Scratch<T>& s, const Grads<T>& g) {
  const int64_t cols = key_count(p, i0 + rows);
  probabilities(p, b, i0, rows, cols, s);
  const MatrixRef<T> go_block = go.matrix(b, i0, rows, p.Ev);
  const MatrixRef<T> probs{s.sc.data(), rows, cols, cols, 1};
  if (g.dv) gemm(transposed(probs), go_block, T(1), g.dv, p.Ev);
  if (!g.dq && !g.dk) return;
  gemm(go_block, transposed(p.v.matrix(b, 0, cols, p.Ev)), T(0), s.dp.data(), cols);
  score_gradients(rows, cols, s);
  const MatrixRef<T> ds{s.dp.data(), rows, cols, cols, 1};
  if (g.dq) {
    T* dq = g.dq + i0 * p.E;
    gemm(ds, MatrixRef<T>{s.ks.data(), cols, p.E, p.E, 1}, T(0), dq, p.E);
    for (int64_t i = 0; i < rows * p.E; ++i) dq[i] *= p.q_scale;
  }
  if (g.dk) gemm(transposed(ds), MatrixRef<T>{s.qs.data(), rows, p.E, p.E, 1}, T(1), g.dk, p.E);
}

template <typename T>
void backward(const AttentionArgs& a, const Tensor& grad_out, std::array<Tensor, 3>& grads) {
  const Plan<T> p(a);
  const Operand<T> go(grad_out);
  T* dq = grads[0].defined() ? grads[0].data_ptr<T>() : nullptr;
  T* dk = grads[1].defined() ? grads[1].data_ptr<T>() : nullptr;
  T* dv = grads[2].defined() ? grads[2].data_ptr<T>() : nullptr;
  parallel_dynamic(p.batch, 1, [&](int64_t b0, int64_t b1) {
    Scratch<T> s(p);
    s.dp.resize(s.sc.size());
    for (int64_t b = b0; b < b1; ++b) {
      const Grads<T> g{dq ? dq + b * p.L * p.E : nullptr, dk ? dk + b * p.S * p.E : nullptr,
                       dv ? dv + b * p.S * p.Ev : nullptr};
      scaled_copy(p.k.matrix(b, 0, p.S, p.E), p.k_scale, s.ks.data());
      for (int64_t i0 = 0; i0 < p.L; i0 += p.block) {
        backward_block(p, go, b, i0, std::min(p.block, p.L - i0), s, g);
      }
      if (g.dk) {
        for (int64_t i = 0; i < p.S * p.E; ++i) g.dk[i] *= p.k_scale;
      }
    }
  });
}

DimVector with_last(IntArrayRef sizes, int64_t last) {
  DimVector out(sizes.begin(), sizes.end());
  out.back() = last;
  return out;
}

}  // namespace

Tensor attention_forward(const AttentionArgs& a) {
  Tensor out = make_tensor(with_last(a.q.sizes(), a.v.size(-1)), a.q.scalar_type(),
                           "scaled_dot_product_attention");
  if (a.q.scalar_type() == ScalarType::Float) {
    forward<float>(a, out);
  } else {
    forward<double>(a, out);
  }
  return out;
}

std::array<Tensor, 3> attention_backward(const AttentionArgs& a, const Tensor& grad_out,
                                         std::array<bool, 3> needed) {
  const ScalarType dtype = a.q.scalar_type();
  std::array<Tensor, 3> grads;
  if (needed[0]) grads[0] = make_tensor(a.q.sizes(), dtype, "scaled_dot_product_attention");
  if (needed[1]) grads[1] = zeros(a.k.sizes(), dtype);
  if (needed[2]) grads[2] = zeros(a.v.sizes(), dtype);
  if (!needed[0] && !needed[1] && !needed[2]) return grads;
  if (dtype == ScalarType::Float) {
    backward<float>(a, grad_out, grads);
  } else {
    backward<double>(a, grad_out, grads);
  }
  return grads;
}

}  // namespace native
}  // namespace gradgen
