// What the decomposition kernels share (csrc/native/linalg_decomp*.cc): PyTorch's input checks
// and its linalg error messages (at::_linalg_check_errors' wording), batch shapes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "csrc/tensor.h"

namespace gradgen {
namespace native {
namespace decomp {

/// Throws, in PyTorch's words naming `api` (linalg.det, ...), unless A has at least two dims and
/// a floating dtype (float32 / float64).
void check_matrix(const char* api, const Tensor& A, const char* name);
/// check_matrix, and the last two dims equal.
void check_square(const char* api, const Tensor& A, const char* name);
/// Throws unless A is float32 or float64 ("Expected a floating point or complex tensor").
void check_floating(const char* api, const Tensor& A, const char* name);

/// A's leading dims, without its last `matrix_dims`.
std::vector<int64_t> batch_shape(const Tensor& A, int64_t matrix_dims);
/// The number of matrices of a batch shape.
int64_t count(const std::vector<int64_t>& shape);
/// a followed by b.
std::vector<int64_t> concat(std::vector<int64_t> a, std::initializer_list<int64_t> b);

/// What a nonzero info means, for its message.
enum class Failure { kSolve, kInverse, kCholesky, kEig, kSvd };
/// Throws std::runtime_error as PyTorch's _linalg_check_errors for the first nonzero element of
/// info (a Long tensor of the batch's shape): "<api>: (Batch element i): <what failed>", without
/// the batch element for a single matrix (is_matrix).
void check_errors(const Tensor& info, const std::string& api, bool is_matrix, Failure what);

}  // namespace decomp
}  // namespace native
}  // namespace gradgen
