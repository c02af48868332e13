// embedding_bag (nn, issue 26's remaining ops): _embedding_bag and its backward ops, and the
// composites embedding_bag / embedding_bag.padding_idx. Bag b holds
// indices [offsets[b], offsets[b + 1]) (the last bag runs to the end of indices, also with
// include_last_offset, whose last offset is then not a bag of its own, as PyTorch's CPU kernel);
// mode 0 sums the weight rows (times per_sample_weights), 1 takes their mean, 2 their
// element-wise max (the first maximum's row in maximum_indices). Entries equal to padding_idx
// are skipped and not counted; an empty bag gives zeros. The auxiliary outputs are PyTorch's:
// offset2bag (each index's bag), bag_size (zeros for mode 0, else the counts) and
// maximum_indices ([B, D] row indices for mode 2, bag_size's values for mode 1, zeros for 0).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/reduced_float.h"
#include "csrc/native/loops.h"
#include "csrc/ops.h"
#include "csrc/util/op_context.h"

namespace gradgen {
namespace native {

namespace {

using gradgen::internal::in_composite_op;

std::vector<int64_t> as_indices(const char* op, const char* name, const Tensor& t) {
  if (t.scalar_type() != ScalarType::Long) {
    throw std::invalid_argument(std::string(op) + ": Expected tensor for argument '" + name +
                                "' to have scalar type Long; but got " +
                                to_string(t.scalar_type()) + " instead");
  }
  const Tensor c = t.contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

/// The bag of every index and the bags' bounds.
struct Bags {
  int64_t B;
  std::vector<int64_t> start, end, offset2bag;
};

Bags make_bags(const char* op, const std::vector<int64_t>& offsets, int64_t n,
               bool include_last_offset) {
  Bags b;
  const int64_t count = static_cast<int64_t>(offsets.size());
  b.B = include_last_offset ? count - 1 : count;
  if (include_last_offset && count < 1) {
    throw std::invalid_argument(std::string(op) +
                                ": include_last_offset: number of offsets should be at least 1");
  }
  if (b.B > 0 && offsets[0] != 0) {
    throw std::invalid_argument(std::string(op) +
                                ": offsets[0] has to be 0, i.e., the first sequence in the "
                                "mini-batch has to start from position 0. However, got " +
                                std::to_string(offsets[0]));
  }
  b.offset2bag.assign(static_cast<size_t>(n), 0);
  for (int64_t i = 0; i < b.B; ++i) {
    const int64_t s = offsets[i], e = i + 1 < b.B ? offsets[i + 1] : n;
    if (s < 0 || e > n || s > e) {
      throw std::invalid_argument(std::string(op) + ": offsets must be non-decreasing within [0, " +
                                  std::to_string(n) + "], got offset " + std::to_string(s) +
                                  " to " + std::to_string(e) + " for bag " + std::to_string(i));
    }
    b.start.push_back(s);
    b.end.push_back(e);
    for (int64_t j = s; j < e; ++j) b.offset2bag[static_cast<size_t>(j)] = i;
  }
  return b;
}

Tensor long_tensor(const std::vector<int64_t>& v, IntArrayRef shape) {
  Tensor t = zeros(shape, ScalarType::Long);
  std::copy(v.begin(), v.end(), t.data_ptr<int64_t>());
  return t;
}

// The shapes and mode _embedding_bag takes (before its indices are read).
void check_arguments(const char* op, const Tensor& weight, const Tensor& indices_,
                     const Tensor& offsets_, int64_t mode, bool has_psw) {
  if (weight.dim() != 2) {
    throw std::invalid_argument(std::string(op) + ": weight has to be a 2D Tensor, but got " +
                                shape_str(weight.sizes()));
  }
  if (indices_.dim() != 1 || offsets_.dim() != 1) {
    throw std::invalid_argument(
        std::string(op) + ": input and offsets have to be 1D Tensors, but got input " +
        shape_str(indices_.sizes()) + " and offsets " + shape_str(offsets_.sizes()));
  }
  if (mode < 0 || mode > 2) {
    throw std::invalid_argument(std::string(op) + ": mode has to be one of sum, mean or max");
  }
  if (has_psw && mode != 0) {
    throw std::invalid_argument(
        std::string("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                    "supported for mode='sum' (got mode='") +
        (mode == 1 ? "mean" : "max") + "'). Please open a feature request on GitHub.");
  }
}

// One bag, the rows idx[start, end) of weight (pw, D columns) but padding_idx, reduced into
// `row` by `mode`: 0 sum (each row times its ps[j] when ps is given), 1 mean, 2 max (the row
// each column's maximum came from written to argmax). Returns how many rows it reduced.
template <typename T>
int64_t reduce_bag(T* row, const T* pw, const T* ps, const std::vector<int64_t>& idx, int64_t start,
                   int64_t end, int64_t D, int64_t mode, int64_t padding_idx, int64_t* argmax) {
  int64_t count = 0;
  for (int64_t j = start; j < end; ++j) {
    const int64_t r = idx[static_cast<size_t>(j)];
    if (r == padding_idx) continue;
    const T* src = pw + r * D;
    for (int64_t c = 0; c < D; ++c) {
      if (mode == 2) {
        if (count == 0 || src[c] > row[c]) {
          row[c] = src[c];
          argmax[c] = r;
        }
      } else {
        row[c] += ps ? src[c] * ps[j] : src[c];
      }
    }
    ++count;
  }
  if (mode == 1 && count > 0) {
    for (int64_t c = 0; c < D; ++c) row[c] /= static_cast<T>(count);
  }
  return count;
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor, Tensor> _embedding_bag(
    const Tensor& weight, const Tensor& indices_, const Tensor& offsets_, bool scale_grad_by_freq,
    int64_t mode, bool sparse, const std::optional<Tensor>& per_sample_weights,
    bool include_last_offset, int64_t padding_idx) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(_embedding_bag, weight, indices_, offsets_, scale_grad_by_freq,
                                   mode, sparse, per_sample_weights, include_last_offset,
                                   padding_idx);
  (void)scale_grad_by_freq;
  (void)sparse;
  const char* op = "_embedding_bag";
  const bool has_psw = per_sample_weights.has_value() && per_sample_weights->defined();
  check_arguments(op, weight, indices_, offsets_, mode, has_psw);
  const std::vector<int64_t> idx = as_indices(op, "indices", indices_);
  const std::vector<int64_t> offsets = as_indices(op, "offsets", offsets_);
  const int64_t n = static_cast<int64_t>(idx.size()), V = weight.size(0), D = weight.size(1);
  if (has_psw && !per_sample_weights->sizes().equals(indices_.sizes())) {
    throw std::invalid_argument(
        std::string(op) + ": expected per_sample_weights to have the shape of input " +
        shape_str(indices_.sizes()) + ", got " + shape_str(per_sample_weights->sizes()));
  }
  for (int64_t i : idx) {
    if (i < 0 || i >= V) {
      throw std::out_of_range(std::string(op) + ": index " + std::to_string(i) +
                              " is out of bounds for dimension 0 with size " + std::to_string(V));
    }
  }
  const Bags bags = make_bags(op, offsets, n, include_last_offset);
  const int64_t B = bags.B;
  Tensor out = zeros({B, D}, weight.scalar_type());
  std::vector<int64_t> bag_size(static_cast<size_t>(B), 0), max_idx;
  if (mode == 2) max_idx.assign(static_cast<size_t>(B * D), 0);
  const Tensor w = weight.contiguous();
  const Tensor psw = has_psw ? per_sample_weights->contiguous() : Tensor();
  gradgen::internal::dispatch_floating(weight.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* pw = w.data_ptr<T>();
    const T* ps = has_psw ? psw.data_ptr<T>() : nullptr;
    T* po = out.data_ptr<T>();
    for (int64_t b = 0; b < B; ++b) {
      int64_t* argmax = mode == 2 ? max_idx.data() + b * D : nullptr;
      bag_size[static_cast<size_t>(b)] = reduce_bag(po + b * D, pw, ps, idx, bags.start[b],
                                                    bags.end[b], D, mode, padding_idx, argmax);
    }
  });
  const std::vector<int64_t> sizes = mode == 0 ? std::vector<int64_t>(B, 0) : bag_size;
  Tensor maximum = mode == 2   ? long_tensor(max_idx, {B, D})
                   : mode == 1 ? long_tensor(sizes, {B})
                               : zeros({B}, ScalarType::Long);
  return {out, long_tensor(bags.offset2bag, {n}), long_tensor(sizes, {B}), maximum};
}

Tensor _embedding_bag_dense_backward(const Tensor& grad, const Tensor& indices_,
                                     const Tensor& offset2bag_, const Tensor& bag_size_,
                                     const Tensor& maximum_indices, int64_t num_weights,
                                     bool scale_grad_by_freq, int64_t mode,
                                     const std::optional<Tensor>& per_sample_weights,
                                     int64_t padding_idx) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(_embedding_bag_dense_backward, grad, indices_, offset2bag_,
                                   bag_size_, maximum_indices, num_weights, scale_grad_by_freq,
                                   mode, per_sample_weights, padding_idx);
  const char* op = "_embedding_bag_dense_backward";
  if (scale_grad_by_freq) {
    throw std::invalid_argument(std::string(op) +
                                ": scale_grad_by_freq is not supported by gradgen's embedding_bag");
  }
  const std::vector<int64_t> idx = as_indices(op, "indices", indices_);
  const std::vector<int64_t> bag_of = as_indices(op, "offset2bag", offset2bag_);
  const int64_t n = static_cast<int64_t>(idx.size()), D = grad.size(-1), B = grad.size(0);
  const bool has_psw = per_sample_weights.has_value() && per_sample_weights->defined();
  Tensor gw = zeros({num_weights, D}, grad.scalar_type());
  // The number of non-padding entries per bag (mean's divisor), counted again from offset2bag.
  std::vector<int64_t> count(static_cast<size_t>(B), 0);
  std::unordered_map<int64_t, int64_t> freq;
  for (int64_t j = 0; j < n; ++j) {
    if (idx[static_cast<size_t>(j)] == padding_idx) continue;
    ++count[static_cast<size_t>(bag_of[static_cast<size_t>(j)])];
    ++freq[idx[static_cast<size_t>(j)]];
  }
  (void)bag_size_;
  const Tensor g = grad.contiguous();
  const Tensor psw = has_psw ? per_sample_weights->contiguous() : Tensor();
  const Tensor mi = mode == 2 ? maximum_indices.contiguous() : Tensor();
  gradgen::internal::dispatch_floating(grad.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* pg = g.data_ptr<T>();
    T* po = gw.data_ptr<T>();
    if (mode == 2) {
      const int64_t* pm = mi.data_ptr<int64_t>();
      for (int64_t b = 0; b < B; ++b) {
        if (count[static_cast<size_t>(b)] == 0) continue;
        for (int64_t c = 0; c < D; ++c) {
          const int64_t r = pm[b * D + c];
          const double scale = scale_grad_by_freq ? 1.0 / static_cast<double>(freq[r]) : 1.0;
          po[r * D + c] += static_cast<T>(scale * static_cast<double>(pg[b * D + c]));
        }
      }
      return;
    }
    const T* ps = has_psw ? psw.data_ptr<T>() : nullptr;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t r = idx[static_cast<size_t>(j)];
      if (r == padding_idx) continue;
      const int64_t b = bag_of[static_cast<size_t>(j)];
      double scale = scale_grad_by_freq ? 1.0 / static_cast<double>(freq[r]) : 1.0;
      if (mode == 1) scale /= static_cast<double>(count[static_cast<size_t>(b)]);
      if (ps) scale *= static_cast<double>(ps[j]);
      for (int64_t c = 0; c < D; ++c) {
        po[r * D + c] += static_cast<T>(scale * static_cast<double>(pg[b * D + c]));
      }
    }
  });
  return gw;
}

Tensor _embedding_bag_per_sample_weights_backward(const Tensor& grad, const Tensor& weight,
                                                  const Tensor& indices_, const Tensor& offsets,
                                                  const Tensor& offset2bag_, int64_t mode,
                                                  int64_t padding_idx) {
  GRADGEN_REDUCED_FLOAT_IN_FLOAT32(_embedding_bag_per_sample_weights_backward, grad, weight,
                                   indices_, offsets, offset2bag_, mode, padding_idx);
  (void)offsets;
  const char* op = "_embedding_bag_per_sample_weights_backward";
  if (mode != 0) {
    throw std::invalid_argument(std::string(op) +
                                ": per_sample_weights is only supported for mode='sum'");
  }
  const std::vector<int64_t> idx = as_indices(op, "indices", indices_);
  const std::vector<int64_t> bag_of = as_indices(op, "offset2bag", offset2bag_);
  const int64_t n = static_cast<int64_t>(idx.size()), D = weight.size(1);
  Tensor out = zeros({n}, grad.scalar_type());
  const Tensor g = grad.contiguous(), w = weight.contiguous();
  gradgen::internal::dispatch_floating(grad.scalar_type(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* pg = g.data_ptr<T>();
    const T* pw = w.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t j = 0; j < n; ++j) {
      const int64_t r = idx[static_cast<size_t>(j)];
      if (r == padding_idx) continue;
      const int64_t b = bag_of[static_cast<size_t>(j)];
      double acc = 0;
      for (int64_t c = 0; c < D; ++c) {
        acc += static_cast<double>(pg[b * D + c]) * static_cast<double>(pw[r * D + c]);
      }
      po[j] = static_cast<T>(acc);
    }
  });
  return out;
}

std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(
    const Tensor& weight, const Tensor& indices, const Tensor& offsets, bool scale_grad_by_freq,
    int64_t mode, bool sparse, const std::optional<Tensor>& per_sample_weights,
    bool include_last_offset, std::optional<int64_t> padding_idx) {
  return in_composite_op("embedding_bag", [&] {
    int64_t pad = -1;
    if (padding_idx.has_value()) {
      const int64_t V = weight.size(0);
      pad = *padding_idx;
      if (pad < -V || pad >= V) {
        throw std::invalid_argument(
            "embedding_bag: padding_idx must be within the number of "
            "embeddings, -" +
            std::to_string(V) + " through " + std::to_string(V - 1) + ", but got " +
            std::to_string(pad));
      }
      if (pad < 0) pad += V;
    }
    return gradgen::_embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                                   per_sample_weights, include_last_offset, pad);
  });
}

std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(
    const Tensor& weight, const Tensor& indices, const Tensor& offsets, bool scale_grad_by_freq,
    int64_t mode, bool sparse, const std::optional<Tensor>& per_sample_weights,
    bool include_last_offset) {
  return native::embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                               per_sample_weights, include_last_offset, std::nullopt);
}

}  // namespace native
}  // namespace gradgen
