// Kernels of bitwise_left_shift and bitwise_right_shift (issue 23), with their Scalar overloads,
// in-place and out= variants; Python's << and >> call them (csrc/python/tensor_operators.cc).
//
// Integer tensors only: a floating or Bool result type is refused in PyTorch's words ("lshift_cpu"
// not implemented for 'Float', its NotImplementedError). Operands promote as the other bitwise
// ops (type_promotion.h), and both are converted to the result dtype before shifting, so the
// amount is read in that dtype too (an int8 tensor << 300 shifts by 44). The result dtype's bit
// width bounds the amount, as in PyTorch's CPU kernels (C++ leaves such shifts undefined): by a
// negative amount or by the width or more, a left shift gives 0 and a right shift the sign
// (-1 for a negative value, else 0); otherwise a left shift wraps modulo 2^width and a right
// shift is arithmetic (sign-filling for signed dtypes, zero-filling for uint8).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/loops.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

namespace {

enum class Direction { kLeft, kRight };

const char* kernel_name(Direction d) { return d == Direction::kLeft ? "lshift_cpu" : "rshift_cpu"; }

// Throws PyTorch's dispatch error unless dtype is an integer dtype (Bool excluded).
void check_integral(Direction d, ScalarType dtype) {
  if (!is_integral(dtype, /*include_bool=*/false)) {
    throw std::runtime_error(std::string("\"") + kernel_name(d) + "\" not implemented for '" +
                             to_string(dtype) + "'");
  }
}

// One element: v and s hold values of the result dtype, whose width is `bits`.
int64_t shift_value(Direction d, int64_t v, int64_t s, int64_t bits) {
  if (s < 0 || s >= bits) return d == Direction::kLeft ? 0 : (v < 0 ? -1 : 0);
  if (d == Direction::kLeft) {
    // Shifted as unsigned, so that bits leaving the top are dropped (no signed overflow); the
    // cast back to the result dtype keeps the low `bits` bits.
    return static_cast<int64_t>(static_cast<uint64_t>(v) << s);
  }
  return v >> s;  // arithmetic on int64: a widened int8 shifts as the int8 would
}

Tensor shift(Direction d, const Tensor& a, const Tensor& b) {
  const ScalarType dtype = result_type(a, b);
  check_integral(d, dtype);
  const int64_t bits = static_cast<int64_t>(element_size(dtype)) * 8;
  // The narrower integers compute in int64 (widen converts through dtype first), cast back.
  const Tensor x = widen(a, dtype), y = widen(b, dtype);
  const Tensor r =
      loops::binary_map<int64_t, int64_t, int64_t>(kernel_name(d), x, y, ScalarType::Long,
                                                   [d, bits](int64_t v, int64_t s) {
                                                     return shift_value(d, v, s, bits);
                                                   });
  return cast(r, dtype);
}

// A Scalar operand as a 0-dim tensor of the result dtype (refused first when that is floating,
// so that the number is never converted into a dtype it does not fit).
Tensor scalar_operand(Direction d, const Scalar& s, ScalarType dtype) {
  check_integral(d, dtype);
  return full({}, s, dtype);
}

// The in-place variants: PyTorch checks that the broadcast shape is self's, then that self can
// hold the result type, before computing (an int8 tensor <<= 1.5 is "result type Float can't be
// cast to the desired output type Char").
Tensor& shift_inplace(Direction d, const char* op, Tensor& self, const Tensor& other) {
  const DimVector shape = loops::broadcast_shapes(op, self.sizes(), other.sizes());
  if (!self.sizes().equals(IntArrayRef(shape.data(), shape.size()))) {
    throw std::invalid_argument(std::string(op) + ": output with shape " + shape_str(self.sizes()) +
                                " doesn't match the broadcast shape " +
                                shape_str(IntArrayRef(shape.data(), shape.size())));
  }
  check_can_cast(op, result_type(self, other), self.scalar_type());
  const Tensor result = shift(d, self, other);
  gradgen::internal::assert_no_internal_overlap(self, op);
  gradgen::internal::copy_(self, cast(result, self.scalar_type()));  // bumps the version
  return self;
}

}  // namespace

#define GRADGEN_SHIFT(name, dir)                                                           \
  Tensor name(const Tensor& self, const Tensor& other) { return shift(dir, self, other); } \
  Tensor name(const Tensor& self, const Scalar& other) {                                   \
    return shift(dir, self, scalar_operand(dir, other, result_type(self, other)));         \
  }                                                                                        \
  Tensor name(const Scalar& self, const Tensor& other) {                                   \
    return shift(dir, scalar_operand(dir, self, result_type(other, self)), other);         \
  }                                                                                        \
  Tensor& name##_(Tensor& self, const Tensor& other) {                                     \
    return shift_inplace(dir, #name "_", self, other);                                     \
  }                                                                                        \
  Tensor& name##_(Tensor& self, const Scalar& other) {                                     \
    const ScalarType dtype = result_type(self, other);                                     \
    check_can_cast(#name "_", dtype, self.scalar_type());                                  \
    return shift_inplace(dir, #name "_", self, scalar_operand(dir, other, dtype));         \
  }                                                                                        \
  Tensor& name##_out(const Tensor& self, const Tensor& other, Tensor& out) {               \
    return write_out(#name ".Tensor_out", name(self, other), out);                         \
  }                                                                                        \
  Tensor& name##_out(const Tensor& self, const Scalar& other, Tensor& out) {               \
    return write_out(#name ".Tensor_Scalar_out", name(self, other), out);                  \
  }                                                                                        \
  Tensor& name##_out(const Scalar& self, const Tensor& other, Tensor& out) {               \
    return write_out(#name ".Scalar_Tensor_out", name(self, other), out);                  \
  }

GRADGEN_SHIFT(bitwise_left_shift, Direction::kLeft)
GRADGEN_SHIFT(bitwise_right_shift, Direction::kRight)

#undef GRADGEN_SHIFT

}  // namespace native
}  // namespace gradgen
