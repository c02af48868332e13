// A second extension module, built like a user's (gradgen_py_extension): it must share
// gradgen._C's runtime (grad mode, engine, gradgen.Tensor) and convert every type of the
// binding contract (csrc/python/casters.h) both ways, defaults included.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/python/casters.h"

namespace nb = nanobind;
using namespace nb::literals;
using gradgen::Tensor;
using gradgen::python::IntList;

namespace shared_runtime_ext {

void bind(nb::module_& m) {
  m.def("grad_enabled", []() { return gradgen::autograd::GradMode::is_enabled(); });
  m.def("scale", [](const Tensor& t, const gradgen::Scalar& s) { return gradgen::mul(t, s); });
  m.def("add_", [](Tensor& t, const Tensor& other) { gradgen::add_(t, other); });
  // Overloads resolve like PyTorch's add(Tensor, Tensor) / add(Tensor, Scalar).
  m.def(
      "which", [](const Tensor&, const Tensor&) { return "Tensor"; }, "self"_a, "other"_a);
  m.def(
      "which", [](const Tensor&, const gradgen::Scalar&) { return "Scalar"; }, "self"_a, "other"_a);
  m.def(
      "echo_scalar", [](const gradgen::Scalar& s) { return s; }, "s"_a = gradgen::Scalar(1));
  m.def("scalar_kind", [](const gradgen::Scalar& s) {
    switch (s.kind()) {
      case gradgen::Scalar::Kind::Bool: return "Bool";
      case gradgen::Scalar::Kind::Long: return "Long";
      case gradgen::Scalar::Kind::Double: break;
    }
    return "Double";
  });
  m.def(
      "echo_opt_scalar", [](std::optional<gradgen::Scalar> s) { return s; },
      "s"_a = std::optional<gradgen::Scalar>());
  m.def(
      "has_tensor", [](const std::optional<Tensor>& t) { return t.has_value(); },
      "t"_a = std::optional<Tensor>());
  m.def("count", [](const std::vector<Tensor>& ts) { return ts.size(); });
  m.def("count_defined", [](const std::vector<std::optional<Tensor>>& ts) {
    size_t n = 0;
    for (const auto& t : ts) n += t.has_value() ? 1 : 0;
    return n;
  });
  m.def(
      "echo_ints", [](const IntList& l) { return l; }, "l"_a = IntList{1, 2});
  m.def("sum_ints", [](const IntList& l) {
    int64_t total = 0;
    for (int64_t v : gradgen::IntArrayRef(l)) total += v;
    return total;
  });
  m.def(
      "echo_opt_ints", [](const std::optional<IntList>& l) { return l; },
      "l"_a = std::optional<IntList>());
  m.def(
      "echo_dtype", [](gradgen::ScalarType t) { return t; },
      "dtype"_a = gradgen::ScalarType::Float);
  m.def(
      "echo_opt_dtype", [](std::optional<gradgen::ScalarType> t) { return t; },
      "dtype"_a = std::optional<gradgen::ScalarType>());
  m.def(
      "echo_layout", [](std::optional<gradgen::Layout> l) { return l; },
      "layout"_a = gradgen::Layout::Strided);
  m.def(
      "echo_device", [](std::optional<gradgen::Device> d) { return d; },
      "device"_a = gradgen::Device::CPU);
  m.def(
      "echo_memory_format", [](std::optional<gradgen::MemoryFormat> f) { return f; },
      "memory_format"_a = gradgen::MemoryFormat::Contiguous);
  m.def(
      "echo_bools", [](std::array<bool, 3> a) { return a; },
      "mask"_a = std::array<bool, 3>{true, false, true});
  m.def(
      "echo_opt_bool", [](std::optional<bool> b) { return b; }, "b"_a = std::optional<bool>());
  m.def("sum_floats", [](const std::vector<double>& v) {
    double total = 0;
    for (double x : v) total += x;
    return total;
  });
  m.def(
      "echo_str",
      [](const std::string& s, const std::optional<std::string>& o) {
        return s + (o ? ":" + *o : std::string());
      },
      "s"_a = "mean", "o"_a = std::optional<std::string>());
  m.def(
      "seed_of",
      [](std::optional<gradgen::Generator> g) { return g ? g->initial_seed() : uint64_t{0}; },
      "generator"_a = std::optional<gradgen::Generator>());
  m.def("undefined", []() { return Tensor(); });
  m.def("select_dim", [](const Tensor& t, int64_t dim) { return gradgen::select(t, dim, 0); });
}

}  // namespace shared_runtime_ext
