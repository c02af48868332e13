// Formula helpers of the tensor op library's sorting and roll, third batch (issue 23): the names
// PyTorch's roll entry in specs/derivatives.yaml calls (c10's fmap, reverse_list, the SymInt
// spellings), written with gradgen's differentiable API so that they are differentiable again.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace autograd {
namespace generated {
namespace details {

/// The list in reverse order (PyTorch's reverse_list; gradgen's SymInts are ints).
inline std::vector<int64_t> reverse_list(IntArrayRef list) {
  std::vector<int64_t> out(list.begin(), list.end());
  std::reverse(out.begin(), out.end());
  return out;
}
inline std::vector<int64_t> reverse_list_symint(IntArrayRef list) { return reverse_list(list); }

/// f applied to every element of the list (c10::fmap).
template <typename F>
std::vector<int64_t> fmap(const std::vector<int64_t>& list, F&& f) {
  std::vector<int64_t> out;
  out.reserve(list.size());
  for (int64_t v : list) out.push_back(f(v));
  return out;
}

/// PyTorch's SymInt spelling of roll (`grad.roll_symint(shifts, dims)`).
inline Tensor roll_symint(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  return ::gradgen::roll(self, shifts, dims);
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace gradgen
