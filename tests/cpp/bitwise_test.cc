// Tests of the C++ API of the bitwise and logical ops' in-place, out= and Scalar_Tensor variants
// (issue 23): the values and dtypes PyTorch 2.13 gives for the same calls (run with torch; the
// differential test, tests/differential/cases_bitwise_ops.py, checks them from Python), that an
// in-place variant writes self (the same storage, a new version), and the refusals in PyTorch's
// order and words: the broadcast shape, then the result type self or out can hold, then the
// refusal of floats.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "csrc/generated/VariableType.h"
#include "csrc/tensor.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

Tensor of(std::vector<double> v, ScalarType dtype) {
  return gradgen::to(tensor(std::move(v)), dtype);
}

// The elements of t, whatever its dtype, as doubles.
std::vector<double> elements(const Tensor& t) {
  return test_util::values(gradgen::to(t, ScalarType::Double));
}

TEST(BitwiseVariantsTest, InPlaceWritesSelfInItsDtype) {
  Tensor x = of({6, 3}, ScalarType::Char);
  const uint64_t version = x.version();
  Tensor& r = gradgen::bitwise_or_(x, 300);  // 300 read as an int8: 44
  EXPECT_EQ(&r, &x);
  EXPECT_GT(x.version(), version);
  EXPECT_EQ(x.scalar_type(), ScalarType::Char);
  EXPECT_EQ(elements(x), (std::vector<double>{46, 47}));
  // A 0-dim int64 operand does not promote: 1000 is an int8 too (-24).
  Tensor y = of({6, 3}, ScalarType::Char);
  gradgen::bitwise_or_(y, full({}, 1000, ScalarType::Long));
  EXPECT_EQ(elements(y), (std::vector<double>{-18, -21}));
  Tensor z = of({12, -7, 0, 5}, ScalarType::Long);
  gradgen::bitwise_xor_(z, of({10, 3, -1, 5}, ScalarType::Long));
  EXPECT_EQ(elements(z), (std::vector<double>{6, -6, -1, 0}));
  Tensor n = of({0, -128, 127}, ScalarType::Char);
  gradgen::bitwise_not_(n);
  EXPECT_EQ(elements(n), (std::vector<double>{-1, 127, -128}));
}

TEST(BitwiseVariantsTest, ScalarTensorAndOutVariants) {
  const Tensor a = of({3, 5}, ScalarType::Long);
  const Tensor r = gradgen::bitwise_and(6, a);
  EXPECT_EQ(r.scalar_type(), ScalarType::Long);
  EXPECT_EQ(elements(r), (std::vector<double>{2, 4}));
  const Tensor i8 = gradgen::bitwise_or(300, of({3, 5}, ScalarType::Char));
  EXPECT_EQ(i8.scalar_type(), ScalarType::Char);
  EXPECT_EQ(elements(i8), (std::vector<double>{47, 45}));
  Tensor out = zeros({0}, ScalarType::Float);  // any dtype the result casts to
  EXPECT_EQ(&gradgen::bitwise_and_out(of({6, 3}, ScalarType::Long), 5, out), &out);
  EXPECT_EQ(out.scalar_type(), ScalarType::Float);
  EXPECT_EQ(elements(out), (std::vector<double>{4, 1}));
  Tensor same = zeros({0}, ScalarType::Long);
  gradgen::bitwise_xor_out(6, a, same);
  EXPECT_EQ(elements(same), (std::vector<double>{5, 3}));
  Tensor not_out = zeros({0}, ScalarType::Char);
  gradgen::bitwise_not_out(of({6, 3}, ScalarType::Char), not_out);
  EXPECT_EQ(elements(not_out), (std::vector<double>{-7, -4}));
}

TEST(BitwiseVariantsTest, LogicalInPlaceKeepsAnyDtype) {
  Tensor f = of({1.5, 0.0}, ScalarType::Float);
  gradgen::logical_and_(f, of({1, 1}, ScalarType::Long));
  EXPECT_EQ(f.scalar_type(), ScalarType::Float);
  EXPECT_EQ(elements(f), (std::vector<double>{1, 0}));
  Tensor l = of({2, 0}, ScalarType::Long);
  gradgen::logical_not_(l);
  EXPECT_EQ(l.scalar_type(), ScalarType::Long);
  EXPECT_EQ(elements(l), (std::vector<double>{0, 1}));
  Tensor u = of({3, 0}, ScalarType::Byte);
  gradgen::logical_or_(u, of({0, 0}, ScalarType::Double));
  EXPECT_EQ(elements(u), (std::vector<double>{1, 0}));
  Tensor b = of({1, 0}, ScalarType::Long);
  EXPECT_THROW_MESSAGE(
      gradgen::logical_xor_(b, zeros({2, 2}, ScalarType::Long)), std::invalid_argument,
      "logical_xor_: output with shape [2] doesn't match the broadcast shape [2, 2]");
}

TEST(BitwiseVariantsTest, RefusalsInPyTorchsOrderAndWords) {
  Tensor x = of({6}, ScalarType::Long);
  // The shape first, then the cast (both PyTorch's RuntimeError), then floats.
  EXPECT_THROW_MESSAGE(
      gradgen::bitwise_and_(x, zeros({2, 1}, ScalarType::Double)), std::invalid_argument,
      "bitwise_and_: output with shape [1] doesn't match the broadcast shape [2, 1]");
  EXPECT_THROW_MESSAGE(
      gradgen::bitwise_and_(x, zeros({1}, ScalarType::Float)), std::invalid_argument,
      "bitwise_and_: result type Float can't be cast to the desired output type Long");
  EXPECT_THROW_MESSAGE(
      gradgen::bitwise_or_(x, 1.5), std::invalid_argument,
      "bitwise_or_: result type Double can't be cast to the desired output type Long");
  Tensor f = of({1}, ScalarType::Float);
  EXPECT_THROW_MESSAGE(gradgen::bitwise_xor_(f, 1), std::runtime_error,
                       "\"bitwise_xor_cpu\" not implemented for 'Float'");
  EXPECT_THROW_MESSAGE(gradgen::bitwise_not_(f), std::runtime_error,
                       "\"bitwise_not_cpu\" not implemented for 'Float'");
  Tensor b = of({1}, ScalarType::Bool);
  EXPECT_THROW_MESSAGE(
      gradgen::bitwise_and_(b, 1), std::invalid_argument,
      "bitwise_and_: result type Long can't be cast to the desired output type Bool");
  EXPECT_EQ(elements(x), (std::vector<double>{6}));  // nothing written
  // out=: the cast before the refusal of floats.
  Tensor l = zeros({0}, ScalarType::Long);
  EXPECT_THROW_MESSAGE(
      gradgen::bitwise_and_out(f, f, l), std::invalid_argument,
      "bitwise_and.Tensor_out: result type Float can't be cast to the desired output type Long");
  Tensor s = zeros({0}, ScalarType::Short);
  EXPECT_THROW_MESSAGE(gradgen::bitwise_not_out(of({1}, ScalarType::Char), s),
                       std::invalid_argument,
                       "bitwise_not.out: Found dtype Short but expected Char");
  Tensor fo = zeros({0}, ScalarType::Float);
  EXPECT_THROW_MESSAGE(
      gradgen::bitwise_and_out(6, of({1}, ScalarType::Long), fo), std::invalid_argument,
      "bitwise_and.Scalar_Tensor_out: Expected out tensor to have dtype long int, but got float "
      "instead");
  EXPECT_THROW_MESSAGE(gradgen::bitwise_and(1.5, of({1}, ScalarType::Long)), std::runtime_error,
                       "\"bitwise_and_cpu\" not implemented for 'Double'");
}

}  // namespace
}  // namespace gradgen
