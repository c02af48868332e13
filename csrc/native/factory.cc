// Kernels of zeros and ones (by size, with their out= variants) and of the factory-like ops that
// read only an input's shape (and maybe dtype): zeros_like, ones_like. Their outputs carry no
// gradient. Without dtype= a result has the default dtype (csrc/default_dtype.h), as PyTorch's;
// an out= variant fills out, resized to size, in out's own dtype.
#include "csrc/default_dtype.h"
#include "csrc/generated/NativeFunctions.h"
#include "csrc/native/type_promotion.h"

namespace gradgen {
namespace native {

Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> /*layout*/,
             std::optional<Device> /*device*/, std::optional<bool> /*pin_memory*/) {
  return zeros(size, dtype.value_or(get_default_dtype()));
}

Tensor& zeros_out(IntArrayRef size, Tensor& out) {
  return write_out("zeros.out", zeros(size, out.scalar_type()), out);
}

Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> /*layout*/,
            std::optional<Device> /*device*/, std::optional<bool> /*pin_memory*/) {
  return ones(size, dtype.value_or(get_default_dtype()));
}

Tensor& ones_out(IntArrayRef size, Tensor& out) {
  return write_out("ones.out", ones(size, out.scalar_type()), out);
}

Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype,
                  std::optional<Layout> /*layout*/, std::optional<Device> /*device*/,
                  std::optional<bool> /*pin_memory*/,
                  std::optional<MemoryFormat> /*memory_format*/) {
  return zeros(self.sizes(), dtype.value_or(self.scalar_type()));
}

Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype,
                 std::optional<Layout> /*layout*/, std::optional<Device> /*device*/,
                 std::optional<bool> /*pin_memory*/,
                 std::optional<MemoryFormat> /*memory_format*/) {
  return ones(self.sizes(), dtype.value_or(self.scalar_type()));
}

}  // namespace native
}  // namespace gradgen
