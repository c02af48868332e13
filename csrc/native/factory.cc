// Kernels of the factory-like ops that read only an input's shape (and maybe
// dtype): zeros_like, ones_like. Their outputs carry no gradient.
#include "csrc/generated/NativeFunctions.h"

namespace gradgen {
namespace native {

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
