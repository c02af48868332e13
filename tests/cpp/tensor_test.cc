// Tests for csrc/tensor.h: factories, geometry, the version counter, printing
// and error messages, plus the small utilities it is built from.
#include "csrc/tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/core_kernels.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

using test_util::values;

// The pool of small blocks (csrc/util/block_pool.h): a freed block is handed out again for a
// request of its size class, blocks of other classes and big ones are not pooled, and
// release_pooled_blocks() gives every cached byte back.
TEST(BlockPoolTest, ReusesBlocksOfTheSameClassAndReleasesThem) {
  internal::release_pooled_blocks();
  void* a = internal::pooled_allocate(100);
  ASSERT_NE(a, nullptr);
  internal::pooled_free(a, 100);
  EXPECT_EQ(internal::pooled_cached_bytes(), 112u);  // 100 bytes: the 112-byte class
  EXPECT_EQ(internal::pooled_allocate(97), a);       // the same class
  EXPECT_EQ(internal::pooled_cached_bytes(), 0u);
  void* b = internal::pooled_allocate(200);  // another class: not a
  EXPECT_NE(b, a);
  internal::pooled_free(b, 200);
  internal::pooled_free(a, 100);
  void* big = internal::pooled_allocate(internal::kMaxPooledBytes + 1);  // malloc's
  internal::pooled_free(big, internal::kMaxPooledBytes + 1);
  EXPECT_EQ(internal::pooled_cached_bytes(), 112u + 208u);
  EXPECT_EQ(internal::release_pooled_blocks(), 112u + 208u);
  EXPECT_EQ(internal::pooled_cached_bytes(), 0u);
}

TEST(BlockPoolTest, KeepsAtMostItsLimitPerThread) {
  internal::release_pooled_blocks();
  const size_t n = internal::kMaxCachedBytes / 512 + 10;
  std::vector<void*> blocks;
  for (size_t i = 0; i < n; ++i) blocks.push_back(internal::pooled_allocate(512));
  for (void* b : blocks) internal::pooled_free(b, 512);
  EXPECT_EQ(internal::pooled_cached_bytes(), internal::kMaxCachedBytes);
  internal::release_pooled_blocks();
}

// Tensors and nodes come from the pool; a graph made, run and freed leaves them cached, and a
// second one takes them back (the values are those of a fresh allocation).
TEST(BlockPoolTest, TensorsAreMadeFromFreedOnes) {
  internal::release_pooled_blocks();
  { Tensor t = full({3}, 2.0); }
  const size_t cached = internal::pooled_cached_bytes();
  EXPECT_GT(cached, 0u);  // the impl and the 24-byte storage
  Tensor u = full({3}, 5.0);
  EXPECT_EQ(values(u), (std::vector<double>{5, 5, 5}));
  EXPECT_LT(internal::pooled_cached_bytes(), cached);
}

// Expects `statement` to throw `exception_type` whose what() equals `message`.
TEST(ArrayRefTest, ViewsVectorsListsAndSingleElements) {
  std::vector<int64_t> v = {1, 2, 3};
  IntArrayRef from_vector = v;
  EXPECT_EQ(from_vector.size(), 3u);
  EXPECT_EQ(from_vector[2], 3);
  EXPECT_EQ(from_vector.data(), v.data());

  int64_t one = 7;
  IntArrayRef single = one;
  EXPECT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0], 7);

  const int64_t raw[] = {4, 5};
  IntArrayRef from_pointer(raw, 2);
  EXPECT_EQ(from_pointer.vec(), (std::vector<int64_t>{4, 5}));

  auto sum = [](IntArrayRef xs) {
    int64_t s = 0;
    for (int64_t x : xs) s += x;
    return s;
  };
  EXPECT_EQ(sum({1, 2, 3, 4}), 10);
  EXPECT_TRUE(IntArrayRef().empty());
  EXPECT_TRUE(from_vector.equals({1, 2, 3}));
}

TEST(SmallVectorTest, MovesToTheHeapPastItsInlineCapacity) {
  SmallVector<std::string, 2> v;
  for (int i = 0; i < 10; ++i) v.push_back(std::to_string(i));
  ASSERT_EQ(v.size(), 10u);
  EXPECT_EQ(v[9], "9");
  SmallVector<std::string, 2> copy = v;
  SmallVector<std::string, 2> moved = std::move(v);
  EXPECT_EQ(copy, moved);
  moved.resize(1);
  EXPECT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0], "0");
}

TEST(ScalarTest, ConvertsBetweenKinds) {
  EXPECT_TRUE(Scalar(2.5).is_floating_point());
  EXPECT_TRUE(Scalar(3).is_integral());
  EXPECT_TRUE(Scalar(true).is_boolean());
  EXPECT_EQ(Scalar(2.5).to_long(), 2);
  EXPECT_EQ(Scalar(3).to_double(), 3.0);
  EXPECT_EQ(Scalar(true).to<double>(), 1.0);
  EXPECT_EQ(Scalar(3).to_string(), "3");
}

TEST(TensorFactoriesTest, CreateTheRequestedShapeDtypeAndValues) {
  Tensor z = zeros({2, 3});
  EXPECT_EQ(z.sizes().vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(z.scalar_type(), ScalarType::Double);
  EXPECT_EQ(z.numel(), 6);
  EXPECT_EQ(values(z), std::vector<double>(6, 0.0));
  EXPECT_EQ(values(ones({4})), std::vector<double>(4, 1.0));
  EXPECT_EQ(values(full({2}, 2.5)), (std::vector<double>{2.5, 2.5}));

  Tensor longs = full({3}, 7, ScalarType::Long);
  EXPECT_EQ(longs.scalar_type(), ScalarType::Long);
  EXPECT_EQ(longs.data_ptr<int64_t>()[2], 7);
  Tensor flags = ones({2}, ScalarType::Bool);
  EXPECT_TRUE(flags.data_ptr<bool>()[1]);
  Tensor floats = full({1}, 0.5, ScalarType::Float);
  EXPECT_EQ(floats.item<double>(), 0.5);

  Tensor t = tensor({1, 2, 3, 4, 5, 6}, {3, 2});
  EXPECT_EQ(t.size(0), 3);
  EXPECT_EQ(t.size(-1), 2);
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(tensor({1, 2}).dim(), 1);

  Tensor scalar = full({}, 4.0);
  EXPECT_EQ(scalar.dim(), 0);
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_EQ(scalar.item<double>(), 4.0);
  EXPECT_EQ(empty({0, 3}).numel(), 0);
}

TEST(TensorFactoriesTest, RandnIsDeterministicPerSeedAndStandardNormal) {
  Tensor a = randn({1000}, 42);
  Tensor b = randn({1000}, 42);
  Tensor c = randn({1000}, 43);
  EXPECT_EQ(values(a), values(b));
  EXPECT_NE(values(a), values(c));

  Tensor big = randn({100000}, 7);
  double sum = 0, sum_sq = 0;
  for (double v : values(big)) {
    sum += v;
    sum_sq += v * v;
  }
  const double mean = sum / 100000, var = sum_sq / 100000 - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.02);
  EXPECT_NEAR(var, 1.0, 0.02);
  // An odd count uses half of the last Box-Muller pair.
  EXPECT_EQ(randn({3}, 42).numel(), 3);
  EXPECT_EQ(values(randn({3}, 42))[0], values(a)[0]);
}

TEST(TensorGeometryTest, ComputesRowMajorStridesAndContiguity) {
  Tensor x = zeros({2, 3, 4});
  EXPECT_EQ(x.strides().vec(), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(x.is_contiguous());
  EXPECT_EQ(x.stride(-1), 1);
  EXPECT_EQ(x.storage_offset(), 0);

  // A transposed view of a 2x3 matrix: sizes [3, 2], strides [1, 3].
  Tensor m = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor mt = internal::as_strided(m, {3, 2}, {1, 3}, 0);
  EXPECT_FALSE(mt.is_contiguous());
  Tensor c = mt.contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_FALSE(c.is_same(mt));
  EXPECT_EQ(values(c), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_TRUE(m.contiguous().is_same(m));

  // A column of the matrix, with a storage offset.
  Tensor column = internal::as_strided(m, {2}, {3}, 1);
  EXPECT_EQ(values(column), (std::vector<double>{2, 5}));
  EXPECT_TRUE(allclose(column, tensor({2, 5})));
}

TEST(TensorVersionTest, SharesTheCounterBetweenAliasesButNotCopies) {
  Tensor x = zeros({2, 2});
  Tensor alias = x.detach();
  Tensor view = internal::as_strided(x, {2}, {1}, 0);
  Tensor copy = x.clone();
  EXPECT_EQ(x.version(), 0u);
  alias.bump_version();
  EXPECT_EQ(x.version(), 1u);
  EXPECT_EQ(view.version(), 1u);
  EXPECT_EQ(copy.version(), 0u);
  internal::add_(view, ones({2}));
  EXPECT_EQ(x.version(), 2u);
  EXPECT_EQ(values(x), (std::vector<double>{1, 1, 0, 0}));
}

TEST(TensorAutogradMetadataTest, LeavesRequireGradOnlyWhenAsked) {
  Tensor x = zeros({2});
  EXPECT_FALSE(x.requires_grad());
  EXPECT_TRUE(x.is_leaf());
  EXPECT_FALSE(x.grad().defined());
  EXPECT_EQ(x.grad_fn(), nullptr);
  x.set_requires_grad(true);
  EXPECT_TRUE(x.requires_grad());
  EXPECT_FALSE(x.detach().requires_grad());
  x.mutable_grad() = ones({2});
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 1}));
  Tensor y = zeros({2}).set_requires_grad(true);
  EXPECT_TRUE(y.requires_grad());
}

TEST(TensorPrintingTest, PrintsValuesLikePyTorch) {
  EXPECT_EQ(tensor({1, 2, 3, 4}, {2, 2}).to_string(),
            "tensor([[1., 2.],\n"
            "        [3., 4.]])");
  EXPECT_EQ(tensor({-1.5, 2}).set_requires_grad(true).to_string(),
            "tensor([-1.5000,  2.0000], requires_grad=true)");
  EXPECT_EQ(full({}, 3.0).to_string(), "tensor(3.)");
  EXPECT_EQ(full({}, 3.5).to_string(), "tensor(3.5000)");
  EXPECT_EQ(full({2}, 3, ScalarType::Long).to_string(), "tensor([3, 3], dtype=Long)");
  EXPECT_EQ(tensor({1e-9, 1}).to_string(), "tensor([1.0000e-09, 1.0000e+00])");
  EXPECT_EQ(zeros({0, 2}).to_string(), "tensor([], size=(0, 2))");
  EXPECT_EQ(zeros({0}).to_string(), "tensor([])");
  EXPECT_EQ(Tensor().to_string(), "Tensor(undefined)");
  // PyTorch's print options: summarized past 1000 elements, rows wrapped at 80 characters.
  EXPECT_EQ(zeros({10}).to_string(), "tensor([0., 0., 0., 0., 0., 0., 0., 0., 0., 0.])");
  EXPECT_EQ(zeros({2000}).to_string(), "tensor([0., 0., 0.,  ..., 0., 0., 0.])");
  EXPECT_EQ(full({20}, 10.5).to_string(),
            "tensor([10.5000, 10.5000, 10.5000, 10.5000, 10.5000, 10.5000, 10.5000, 10.5000,\n"
            "        10.5000, 10.5000, 10.5000, 10.5000, 10.5000, 10.5000, 10.5000, 10.5000,\n"
            "        10.5000, 10.5000, 10.5000, 10.5000])");
  std::ostringstream out;
  out << ones({1});
  EXPECT_EQ(out.str(), "tensor([1.])");
}

TEST(TensorAllcloseTest, ComparesWithinTolerances) {
  EXPECT_TRUE(allclose(tensor({1.0, 2.0}), tensor({1.0, 2.0 + 1e-9})));
  EXPECT_FALSE(allclose(tensor({1.0, 2.0}), tensor({1.0, 2.1})));
  EXPECT_TRUE(allclose(tensor({1.0, 2.0}), tensor({1.0, 2.1}), 0.1, 0.0));
  EXPECT_FALSE(allclose(tensor({1.0, 2.0}), tensor({1.0, 2.0, 3.0})));
}

TEST(TensorErrorsTest, NameTheOperationAndWhatWasExpected) {
  EXPECT_THROW_MESSAGE(tensor({1, 2, 3}, {2, 2}), std::invalid_argument,
                       "tensor: expected 4 values for shape [2, 2], got 3");
  EXPECT_THROW_MESSAGE(
      zeros({2, 3}).size(2), std::invalid_argument,
      "size: dim 2 out of range for a tensor with 2 dims (expected -2 <= dim < 2)");
  EXPECT_THROW_MESSAGE(zeros({2}).data_ptr<int64_t>(), std::invalid_argument,
                       "data_ptr: expected a tensor of dtype Long, got Double");
  EXPECT_THROW_MESSAGE(zeros({2, 3}).item<double>(), std::invalid_argument,
                       "item: expected a tensor with 1 element, got shape [2, 3]");
  EXPECT_THROW_MESSAGE(
      zeros({2}, ScalarType::Long).set_requires_grad(true), std::invalid_argument,
      "set_requires_grad: only Tensors of floating point and complex dtype can require "
      "gradients (PyTorch's words), got dtype Long");
  EXPECT_THROW_MESSAGE(empty({2, -1}), std::invalid_argument,
                       "empty: expected non-negative sizes, got [2, -1]");
  EXPECT_THROW_MESSAGE(Tensor().sizes(), std::runtime_error,
                       "sizes: called on an undefined tensor");
  EXPECT_THROW_MESSAGE(
      internal::as_strided(zeros({4}), {3}, {2}, 0), std::invalid_argument,
      "as_strided: a view of sizes [3], strides [2] and offset 0 reaches element 4 "
      "of a storage of 4 elements");
  EXPECT_THROW_MESSAGE(internal::add(zeros({2}), zeros({3})), std::invalid_argument,
                       "add: expected tensors of the same shape, got [2] and [3]");
}

TEST(UndefinedTensorTest, AnswersAutogradQueriesWithoutThrowing) {
  Tensor u;
  EXPECT_FALSE(u.defined());
  EXPECT_FALSE(u.requires_grad());
  EXPECT_TRUE(u.is_leaf());
  EXPECT_EQ(u.grad_fn(), nullptr);
  EXPECT_TRUE(u.is_same(Tensor()));
}

}  // namespace
}  // namespace gradgen
