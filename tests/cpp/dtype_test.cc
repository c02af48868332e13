// Tests of the dtypes int32, int16, int8, uint8, float16 and bfloat16 (issue 23): the 16-bit
// float conversions of csrc/half.h (round to nearest even, checked over every bit pattern),
// promotion (PyTorch's promoteTypes), the kernels that compute them through int64 and float32
// (type_promotion.h's compute_dtype), and the clear refusal of the kernels that do not take them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/generated/VariableType.h"
#include "csrc/half.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace {

float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// The reference: float -> binary16 by exact arithmetic in double, rounding to nearest even.
uint16_t reference_half(float f) {
  if (std::isnan(f)) return std::signbit(f) ? 0xfe00 : 0x7e00;
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  double a = std::fabs(static_cast<double>(f));
  if (a >= 65520.0) return sign | 0x7c00;
  int e = 0;
  std::frexp(a, &e);                          // a = m * 2^e, m in [0.5, 1)
  const int exponent = std::max(e - 1, -14);  // the binade; subnormals share -14's ulp
  const double ulp = std::ldexp(1.0, exponent - 10);
  const double q = std::nearbyint(a / ulp);     // the FPU's default: to nearest even
  const uint32_t n = static_cast<uint32_t>(q);  // significand in ulps of that binade
  if (exponent == -14 && n < 1024) return sign | static_cast<uint16_t>(n);  // subnormal
  // n may have rounded up to 2048: the next binade's 1.0.
  const int biased = exponent + 15 + (n >= 2048 ? 1 : 0);
  const uint32_t mant = (n >= 2048 ? n / 2 : n) - 1024;
  return sign | static_cast<uint16_t>((biased << 10) | mant);
}

TEST(HalfTest, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = half_bits_to_float(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_EQ(float_to_half_bits(f) & 0x7e00u, 0x7e00u) << h;
      continue;
    }
    ASSERT_EQ(float_to_half_bits(f), h) << "half bits " << h;
  }
}

TEST(HalfTest, RoundsToNearestEvenAsIeee) {
  // Every float between consecutive halves, the midpoints (ties) and one float each side of
  // them, across the range: normal, subnormal, near overflow.
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    const float lo = half_bits_to_float(static_cast<uint16_t>(h));
    const float hi = h + 1 == 0x7c00 ? 65536.0f : half_bits_to_float(static_cast<uint16_t>(h + 1));
    const float mid = static_cast<float>((static_cast<double>(lo) + hi) / 2);
    for (float f : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f), -mid}) {
      ASSERT_EQ(float_to_half_bits(f), reference_half(f)) << "float " << f;
    }
  }
  EXPECT_EQ(float_to_half_bits(65519.0f), 0x7bffu);
  EXPECT_EQ(float_to_half_bits(65520.0f), 0x7c00u);
  EXPECT_EQ(float_to_half_bits(bits_to_float(0x7f800000u)), 0x7c00u);
  EXPECT_EQ(float_to_half_bits(1e-8f), 0u);
  EXPECT_EQ(float_to_half_bits(-0.0f), 0x8000u);
}

TEST(HalfTest, BFloat16RoundsToNearestEven) {
  EXPECT_EQ(float_to_bfloat16_bits(1.0f), 0x3f80u);
  EXPECT_EQ(float_to_bfloat16_bits(bits_to_float(0x3f808000u)), 0x3f80u);  // tie, even below
  EXPECT_EQ(float_to_bfloat16_bits(bits_to_float(0x3f818000u)), 0x3f82u);  // tie, even above
  EXPECT_EQ(float_to_bfloat16_bits(bits_to_float(0x3f808001u)), 0x3f81u);
  EXPECT_EQ(float_to_bfloat16_bits(bits_to_float(0x7f7fffffu)), 0x7f80u);  // overflows to inf
  EXPECT_EQ(float_to_bfloat16_bits(std::nanf("")), 0x7fc0u);
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const float f = bfloat16_bits_to_float(static_cast<uint16_t>(b));
    if (!std::isnan(f)) {
      ASSERT_EQ(float_to_bfloat16_bits(f), b);
    }
  }
}

// The dtype add gives two dimensioned tensors: PyTorch's promoteTypes.
ScalarType promoted(ScalarType a, ScalarType b) {
  return gradgen::add(zeros({2}, a), zeros({2}, b)).scalar_type();
}

TEST(PromotionTest, PyTorchsTable) {
  using S = ScalarType;
  EXPECT_EQ(promoted(S::Byte, S::Char), S::Short);
  EXPECT_EQ(promoted(S::Byte, S::Short), S::Short);
  EXPECT_EQ(promoted(S::Char, S::Int), S::Int);
  EXPECT_EQ(promoted(S::Int, S::Long), S::Long);
  EXPECT_EQ(promoted(S::Bool, S::Byte), S::Byte);
  EXPECT_EQ(promoted(S::Long, S::Half), S::Half);
  EXPECT_EQ(promoted(S::Half, S::BFloat16), S::Float);
  EXPECT_EQ(promoted(S::BFloat16, S::Float), S::Float);
  EXPECT_EQ(promoted(S::Half, S::Double), S::Double);
  for (int a = 0; a < kNumScalarTypes; ++a) {
    for (int b = 0; b < kNumScalarTypes; ++b) {
      EXPECT_EQ(promoted(static_cast<S>(a), static_cast<S>(b)),
                promoted(static_cast<S>(b), static_cast<S>(a)));
    }
  }
}

Tensor int8_tensor(std::vector<double> v) {
  return gradgen::to(tensor(std::move(v)), ScalarType::Char);
}

TEST(DtypeKernelsTest, NarrowIntegersWrapAsPyTorch) {
  const Tensor a = int8_tensor({100, 127, -128});
  const Tensor sum = gradgen::add(a, a);
  ASSERT_EQ(sum.scalar_type(), ScalarType::Char);
  EXPECT_EQ(sum.data_ptr<int8_t>()[0], -56);
  EXPECT_EQ(sum.data_ptr<int8_t>()[1], -2);
  EXPECT_EQ(sum.data_ptr<int8_t>()[2], 0);
  const Tensor total = gradgen::sum(a);  // int64, not wrapped
  EXPECT_EQ(total.scalar_type(), ScalarType::Long);
  EXPECT_EQ(total.item<int64_t>(), 99);
  const Tensor u = gradgen::to(tensor({3.0}), ScalarType::Byte);
  EXPECT_EQ(gradgen::sub(u, gradgen::to(tensor({5.0}), ScalarType::Byte)).data_ptr<uint8_t>()[0],
            254);
  EXPECT_EQ(gradgen::to(tensor({-2.7}), ScalarType::Int).data_ptr<int32_t>()[0], -2);
}

TEST(DtypeKernelsTest, HalfComputesInFloat32AndRoundsOnce) {
  const Tensor h = gradgen::to(tensor({0.1, 2048.0}), ScalarType::Half);
  const Tensor r = gradgen::add(h, Scalar(1.0));
  ASSERT_EQ(r.scalar_type(), ScalarType::Half);
  EXPECT_EQ(static_cast<float>(r.data_ptr<Half>()[0]), static_cast<float>(Half(1.0999755859375f)));
  EXPECT_EQ(static_cast<float>(r.data_ptr<Half>()[1]), 2048.0f);  // 2049 ties to even
  EXPECT_EQ(gradgen::sum(h).item<double>(), 2048.0);  // 2048.1 rounds to 2048 in float16
  EXPECT_TRUE(is_floating_point(ScalarType::Half));
  EXPECT_NO_THROW(h.detach().set_requires_grad(true));
  EXPECT_THROW(int8_tensor({1}).set_requires_grad(true), std::invalid_argument);
}

TEST(DtypeKernelsTest, SmallFloatsComputeInFloat32AndRoundOnce) {
  // conv2d takes float16 through its float32 kernel (csrc/native/reduced_float.h): the float32
  // result of the same (exactly converted) operands, rounded once.
  const Tensor x32 = gradgen::div(gradgen::arange(9.0), 7.0);
  const Tensor x = gradgen::to(gradgen::reshape(x32, {1, 1, 3, 3}), ScalarType::Half);
  const Tensor w =
      gradgen::to(gradgen::full({1, 1, 2, 2}, 0.3, ScalarType::Float), ScalarType::Half);
  const std::vector<int64_t> one = {1, 1}, none = {0, 0};
  const Tensor y = gradgen::conv2d(x, w, std::nullopt, one, none, one, 1);
  const Tensor want = gradgen::to(gradgen::conv2d(gradgen::to(x, ScalarType::Float),
                                                  gradgen::to(w, ScalarType::Float), std::nullopt,
                                                  one, none, one, 1),
                                  ScalarType::Half);
  EXPECT_EQ(y.scalar_type(), ScalarType::Half);
  const Tensor got = gradgen::to(y, ScalarType::Double).contiguous();
  const Tensor expected = gradgen::to(want, ScalarType::Double).contiguous();
  ASSERT_EQ(got.numel(), 4);
  for (int64_t i = 0; i < got.numel(); ++i) {
    EXPECT_EQ(got.data_ptr<double>()[i], expected.data_ptr<double>()[i]) << i;
  }
}

TEST(DtypeKernelsTest, KernelsWithoutTheDtypeRefuseByName) {
  // Where PyTorch 2.13's CPU kernel has no float16 instance: its words.
  try {
    gradgen::avg_pool3d(gradgen::to(ones({1, 1, 2, 2, 2}), ScalarType::Half), {2, 2, 2}, {},
                        {0, 0, 0}, false, true, std::nullopt);
    ADD_FAILURE() << "avg_pool3d of float16 computed";
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "\"avg_pool3d_out_frame\" not implemented for 'Half'");
  }
}

TEST(DtypeKernelsTest, IntegerProductsWrapAsPyTorchs) {
  // PyTorch 2.13's CPU mm has int8 (and every integer) instances, wrapping on overflow.
  const Tensor m = gradgen::reshape(int8_tensor({100, 27, 3, 120}), {2, 2});
  const Tensor p = gradgen::mm(m, m);
  EXPECT_EQ(p.scalar_type(), ScalarType::Char);
  const int8_t want[] = {97, 52, -108, -111};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(p.data_ptr<int8_t>()[i], want[i]) << i;
}

}  // namespace
}  // namespace gradgen
