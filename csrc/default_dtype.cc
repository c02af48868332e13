#include "csrc/default_dtype.h"

#include <atomic>
#include <stdexcept>
#include <string>

namespace gradgen {
namespace {

// Atomic so that a read from a worker thread (the autograd engine's) is well-defined even if a
// caller changes the default concurrently; the value itself is process-wide, as PyTorch's.
std::atomic<ScalarType>& default_dtype() {
  static std::atomic<ScalarType> value{ScalarType::Double};
  return value;
}

}  // namespace

ScalarType get_default_dtype() noexcept { return default_dtype().load(std::memory_order_relaxed); }

void set_default_dtype(ScalarType dtype) {
  if (!is_floating_point(dtype)) {
    throw std::invalid_argument(
        std::string("set_default_dtype: only floating-point types are supported as the default "
                    "type, got ") +
        to_string(dtype));
  }
  default_dtype().store(dtype, std::memory_order_relaxed);
}

}  // namespace gradgen
