// Helpers shared by the runtime's gtests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "csrc/tensor.h"

/// Expects `statement` to throw `exception_type` whose what() is exactly `message`.
#define EXPECT_THROW_MESSAGE(statement, exception_type, message)      \
  do {                                                                \
    try {                                                             \
      statement;                                                      \
      ADD_FAILURE() << "expected " #exception_type ": " << (message); \
    } catch (const exception_type& e) {                               \
      EXPECT_EQ(std::string(e.what()), std::string(message));         \
    }                                                                 \
  } while (0)

namespace gradgen {
namespace test_util {

/// Returns a float64 leaf of the given shape with seeded normal values that requires grad.
inline Tensor leaf(IntArrayRef sizes, uint64_t seed) {
  return randn(sizes, seed).set_requires_grad(true);
}

/// Returns the elements of a float64 tensor in row-major order.
inline std::vector<double> values(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

}  // namespace test_util
}  // namespace gradgen
