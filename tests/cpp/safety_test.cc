// The runtime's guards against out-of-bounds memory access (issue 12): size and
// allocation checks, embedding's index validation, in-place writes into tensors
// whose elements overlap, and errors that name the op the user called. Each case
// is also a case under --config=asan (AddressSanitizer + UBSan; see .bazelrc),
// where an unchecked read or a signed overflow fails the test.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/formulas.h"
#include "csrc/core_kernels.h"
#include "csrc/generated/VariableType.h"
#include "csrc/ops.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

using test_util::values;

/// Expects `statement` to throw `exception_type` whose what() contains `substring`.
#define EXPECT_THROW_CONTAINING(statement, exception_type, substring)                  \
  do {                                                                                 \
    try {                                                                              \
      statement;                                                                       \
      ADD_FAILURE() << "expected " #exception_type " containing: " << (substring);     \
    } catch (const exception_type& e) {                                                \
      EXPECT_NE(std::string(e.what()).find(substring), std::string::npos) << e.what(); \
    }                                                                                  \
  } while (0)

Tensor longs(std::vector<int64_t> data, IntArrayRef sizes) {
  Tensor t = empty(sizes, ScalarType::Long);
  for (size_t i = 0; i < data.size(); ++i) t.data_ptr<int64_t>()[i] = data[i];
  return t;
}

constexpr int64_t k2To32 = int64_t{1} << 32;
constexpr int64_t k2To40 = int64_t{1} << 40;
constexpr int64_t k2To61 = int64_t{1} << 61;

// ---------------------------------------------------------------------------
// Sizes and allocations
// ---------------------------------------------------------------------------

// Overflows are std::runtime_error, as PyTorch's ("Storage size calculation overflowed").
TEST(SizeTest, ByteCountOverflowIsAnErrorNotAnEmptyStorage) {
  // 2^61 float64 elements are 2^64 bytes: the count wrapped to 0 before.
  EXPECT_THROW_MESSAGE(zeros({k2To61}), std::runtime_error,
                       "zeros: the storage size of shape [2305843009213693952] and dtype Double "
                       "overflows: 2305843009213693952 elements of 8 bytes");
  EXPECT_THROW_MESSAGE(ones({k2To61}, ScalarType::Float), std::runtime_error,
                       "ones: the storage size of shape [2305843009213693952] and dtype Float "
                       "overflows: 2305843009213693952 elements of 4 bytes");
}

TEST(SizeTest, ElementCountOverflowIsAnError) {
  // 2^32 * 2^32 wrapped to numel 0 before.
  EXPECT_THROW_MESSAGE(empty({k2To32, k2To32}), std::runtime_error,
                       "empty: the number of elements of shape [4294967296, 4294967296] "
                       "overflows int64");
  EXPECT_THROW_MESSAGE(full({3, k2To32, k2To32}, 1.0), std::runtime_error,
                       "full: the number of elements of shape [3, 4294967296, 4294967296] "
                       "overflows int64");
  EXPECT_THROW_MESSAGE(tensor({}, {k2To32, k2To32}), std::runtime_error,
                       "tensor: the number of elements of shape [4294967296, 4294967296] "
                       "overflows int64");
  EXPECT_THROW_MESSAGE(randn({k2To32, k2To32}, 0), std::runtime_error,
                       "randn: the number of elements of shape [4294967296, 4294967296] "
                       "overflows int64");
}

TEST(SizeTest, StridesOfAnEmptyShapeMayNotOverflowEither) {
  // numel is 0, but the row-major strides (sizes 0 count as 1) would be 2^80.
  EXPECT_THROW_MESSAGE(empty({0, k2To40, k2To40}), std::runtime_error,
                       "empty: the strides of shape [0, 1099511627776, 1099511627776] overflow "
                       "int64");
  Tensor ok = empty({k2To40, 0, k2To40});  // strides 0 * ... fit: fine, and empty
  EXPECT_EQ(ok.numel(), 0);
  EXPECT_EQ(ok.strides().vec(), (std::vector<int64_t>{k2To40, k2To40, 1}));
}

TEST(SizeTest, NegativeSizesNameTheFactory) {
  EXPECT_THROW_MESSAGE(zeros({2, -1}), std::invalid_argument,
                       "zeros: expected non-negative sizes, got [2, -1]");
  EXPECT_THROW_MESSAGE(empty({-3}), std::invalid_argument,
                       "empty: expected non-negative sizes, got [-3]");
}

TEST(SizeTest, FailedAllocationIsAnExceptionNamingTheBytes) {
  // 2^48 bytes: more than a 47-bit user address space can map.
  const int64_t n = int64_t{1} << 45;
  EXPECT_THROW_MESSAGE(empty({n}), std::runtime_error,
                       "empty: can't allocate memory: you tried to allocate 281474976710656 "
                       "bytes for a tensor of shape [35184372088832] and dtype Double");
}

TEST(SizeTest, OpsNameThemselvesWhenTheirResultWouldOverflow) {
  // Two broadcast views of one element each (no memory), whose broadcast is 2^80.
  Tensor a = expand(ones({1, 1}), {k2To40, 1});
  Tensor b = expand(ones({1, 1}), {1, k2To40});
  EXPECT_EQ(a.numel(), k2To40);
  EXPECT_THROW_MESSAGE(add(a, b), std::runtime_error,
                       "add: the number of elements of shape [1099511627776, 1099511627776] "
                       "overflows int64");
  EXPECT_THROW_MESSAGE(expand(ones({1}), {k2To32, k2To32}), std::runtime_error,
                       "expand: the number of elements of shape [4294967296, 4294967296] "
                       "overflows int64");
  EXPECT_THROW_MESSAGE(view(zeros({0}), {k2To40, k2To40, 0}), std::runtime_error,
                       "view: the number of elements of shape [1099511627776, 1099511627776, 0] "
                       "overflows int64");
  EXPECT_THROW_MESSAGE(reshape(zeros({0}), {k2To32, 0, k2To32}), std::runtime_error,
                       "reshape: the number of elements of shape [4294967296, 0, 4294967296] "
                       "overflows int64");
}

TEST(SizeTest, AsStridedRefusesOffsetsPastInt64) {
  Tensor x = zeros({4});
  EXPECT_THROW_MESSAGE(internal::as_strided(x, {3}, {k2To61 * 2}, 0), std::runtime_error,
                       "as_strided: a view of sizes [3] and strides [4611686018427387904] "
                       "reaches past the largest int64 element offset");
}

// ---------------------------------------------------------------------------
// embedding
// ---------------------------------------------------------------------------

TEST(EmbeddingTest, NegativeIndexIsOutOfRangeNamingItsPosition) {
  Tensor weight = test_util::leaf({10, 3}, 0);
  // Before, -1 selected the last row and the scale_grad_by_freq backward then read
  // counts[-1] (ASan: heap-buffer-overflow in embedding_backward).
  EXPECT_THROW_MESSAGE(embedding(weight, longs({0, 3, -1}, {3}), -1, true), std::out_of_range,
                       "embedding: index out of range: indices[2] is -1, expected 0 <= index < "
                       "10 (the number of rows of weight)");
  EXPECT_THROW_MESSAGE(embedding(weight, longs({0, 1, 2, 10}, {2, 2})), std::out_of_range,
                       "embedding: index out of range: indices[1, 1] is 10, expected 0 <= index "
                       "< 10 (the number of rows of weight)");
  EXPECT_THROW_MESSAGE(embedding(weight, longs({-5}, {})), std::out_of_range,
                       "embedding: index out of range: indices is -5, expected 0 <= index < 10 "
                       "(the number of rows of weight)");
  EXPECT_THROW_MESSAGE(embedding(weight, tensor({1.0})), std::invalid_argument,
                       "embedding: expected indices of dtype Long, got Double");
}

TEST(EmbeddingTest, BackwardHelperChecksIndicesItself) {
  // The formula helper is public: it must not trust its indices either.
  EXPECT_THROW_MESSAGE(
      autograd::generated::details::embedding_backward(ones({2, 3}), longs({1, -2}, {2}), 4, -1,
                                                       true),
      std::out_of_range,
      "embedding_backward: index out of range: indices[1] is -2, expected 0 <= index < 4 (the "
      "number of rows of weight)");
}

TEST(EmbeddingTest, ScaleGradByFreqStillWorksOnValidIndices) {
  Tensor weight = test_util::leaf({4, 2}, 1);
  Tensor out = embedding(weight, longs({0, 2, 0, 3}, {2, 2}), /*padding_idx=*/3,
                         /*scale_grad_by_freq=*/true);
  sum(out).backward();
  // Row 0 twice (scaled by 1/2), row 2 once, row 3 is padding, row 1 unused.
  EXPECT_EQ(values(weight.grad()), (std::vector<double>{1, 1, 0, 0, 1, 1, 0, 0}));
}

// ---------------------------------------------------------------------------
// In-place writes into overlapping elements (expand)
// ---------------------------------------------------------------------------

constexpr const char* kOverlap =
    ": unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location (shape [2, 3], strides [0, 1], as expand() makes); clone() it "
    "before writing into it";

TEST(InternalOverlapTest, InPlaceOpsRefuseExpandedTensors) {
  Tensor base = zeros({3});
  Tensor e = expand(base, {2, 3});
  // Before, add_ added twice into each of base's 3 elements.
  EXPECT_THROW_MESSAGE(add_(e, ones({2, 3})), std::runtime_error, std::string("add_") + kOverlap);
  EXPECT_THROW_MESSAGE(mul_(e, ones({2, 3})), std::runtime_error, std::string("mul_") + kOverlap);
  EXPECT_THROW_MESSAGE(mul_(e, 2.0), std::runtime_error, std::string("mul_") + kOverlap);
  EXPECT_THROW_MESSAGE(exp_(e), std::runtime_error, std::string("exp_") + kOverlap);
  EXPECT_THROW_MESSAGE(add_out(ones({2, 3}), ones({2, 3}), 1, e), std::runtime_error,
                       std::string("add.out") + kOverlap);
  EXPECT_EQ(values(base), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(base.version(), 0u);
}

TEST(InternalOverlapTest, FillAndNonOverlappingViewsAreFine) {
  Tensor base = zeros({3});
  Tensor e = expand(base, {2, 3});
  zero_(e);  // one value written several times: allowed, as PyTorch's fill_
  Tensor m = zeros({2, 3});
  Tensor tm = t(m);  // strided, but every element its own location
  add_(tm, ones({3, 2}));
  EXPECT_EQ(values(m), (std::vector<double>{1, 1, 1, 1, 1, 1}));
  Tensor one = expand(zeros({1}), {1, 1});  // stride 0 on size-1 dims: no overlap
  add_(one, ones({1, 1}));
  EXPECT_EQ(values(one), (std::vector<double>{1}));
}

// ---------------------------------------------------------------------------
// Errors name the op the user called
// ---------------------------------------------------------------------------

TEST(OpNameTest, UndefinedArgumentsNameTheOp) {
  Tensor x = ones({2});
  // Before: "scalar_type: called on an undefined tensor".
  EXPECT_THROW_MESSAGE(add(Tensor(), x), std::runtime_error,
                       "add: expected a defined tensor for every argument, got an undefined "
                       "Tensor() (scalar_type() called on it)");
  // With autograd recording, the wrapper reads the shapes first: the same op is named.
  Tensor w = test_util::leaf({2}, 0);
  EXPECT_THROW_CONTAINING(add(w, Tensor()), std::runtime_error,
                          "add: expected a defined tensor for every argument, got an undefined "
                          "Tensor()");
  EXPECT_THROW_CONTAINING(mm(Tensor(), ones({2, 2})), std::runtime_error,
                          "mm: expected a defined tensor for every argument");
  EXPECT_THROW_CONTAINING(matmul(ones({2, 2}), Tensor()), std::runtime_error,
                          "matmul: expected a defined tensor for every argument");
  // Outside any op, the accessor names itself as before.
  EXPECT_THROW_MESSAGE(Tensor().sizes(), std::runtime_error,
                       "sizes: called on an undefined tensor");
}

TEST(OpNameTest, CompositeOpsNameThemselvesBeforeTheOpTheyCall) {
  EXPECT_THROW_MESSAGE(
      cross_entropy_loss(ones({2, 3}), longs({0, 1, 2, 0}, {4})), std::invalid_argument,
      "cross_entropy_loss: nll_loss: expected self of shape [N, C] and target "
      "of shape [N] (or [C] and []; nll_loss_nd takes [N, C, d1, ..., dK]), got [2, 3] "
      "and [4]");
  EXPECT_THROW_MESSAGE(matmul(zeros({2, 3}, ScalarType::Bool), zeros({3, 2}, ScalarType::Bool)),
                       std::invalid_argument,
                       "matmul: mm: expected a floating point tensor (Double or Float), got Bool");
  EXPECT_THROW_MESSAGE(dropout(ones({2}), 1.5, true), std::invalid_argument,
                       "dropout: native_dropout: expected a probability p in [0, 1], got "
                       "1.500000");
  // An error the composite raises itself is not prefixed twice.
  EXPECT_THROW_MESSAGE(matmul(ones({2, 3}), ones({4, 5})), std::invalid_argument,
                       "matmul: shapes [2, 3] and [4, 5] cannot be multiplied");
  // Index errors keep their type through the composite.
  EXPECT_THROW_CONTAINING(cross_entropy_loss(ones({2, 3}), longs({0, 7}, {2})), std::exception,
                          "cross_entropy_loss: ");
}

}  // namespace
}  // namespace gradgen
