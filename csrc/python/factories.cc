// gradgen's factories empty, full and randn, and its random number generators (zeros and ones are
// declared ops, bound with the generated functions). Without
// dtype=, a floating result gets the default dtype (csrc/default_dtype.h), as PyTorch's.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "csrc/default_dtype.h"
#include "csrc/generated/VariableType.h"
#include "csrc/generator.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

// Sizes given as zeros(2, 3), zeros((2, 3)) or zeros([2, 3]).
std::vector<int64_t> parse_sizes(const nb::args& args, const char* op) {
  nb::handle source = args;
  if (args.size() == 1 && !PyLong_Check(args[0].ptr()) && !PyIndex_Check(args[0].ptr())) {
    source = args[0];
  }
  IntList sizes;
  if (!nb::try_cast(source, sizes)) {
    throw nb::type_error(
        (std::string(op) + "(): expected sizes as ints or one sequence of ints, e.g. (2, 3)")
            .c_str());
  }
  return sizes.values;
}

Tensor finish(Tensor t, bool requires_grad) {
  if (requires_grad) t.set_requires_grad(true);
  return t;
}

Tensor full_of(const IntList& size, const Scalar& fill_value, std::optional<ScalarType> dtype,
               bool requires_grad) {
  // torch infers the dtype from the value: full((2,), 7) is int64, full((2,), 7.) the default.
  ScalarType type = get_default_dtype();
  if (dtype) {
    type = *dtype;
  } else if (fill_value.is_integral()) {
    type = ScalarType::Long;
  } else if (fill_value.is_boolean()) {
    type = ScalarType::Bool;
  }
  return finish(full(size, fill_value, type), requires_grad);
}

// Standard normal samples, the same for the same seed everywhere. Without a seed, one is drawn
// from `generator` (default: the default generator, see manual_seed).
Tensor randn_of(nb::args size, std::optional<uint64_t> seed, std::optional<Generator> generator,
                std::optional<ScalarType> dtype, bool requires_grad) {
  uint64_t s = seed ? *seed : (generator ? *generator : default_generator()).next_u64();
  // The samples are drawn in float64 (the same values for a seed whatever the dtype), then cast.
  Tensor t = randn(parse_sizes(size, "randn"), s);
  const ScalarType type = dtype.value_or(get_default_dtype());
  if (type != ScalarType::Double) {
    if (!is_floating_point(type)) {
      throw nb::type_error("randn(): expected a floating dtype (float32 or float64)");
    }
    t = gradgen::to(t, type);
  }
  return finish(t, requires_grad);
}

nb::object manual_seed_of(nb::pointer_and_handle<Generator> self, uint64_t seed) {
  self.p->manual_seed(seed);
  return nb::borrow(self.h);
}

}  // namespace

void init_random(nb::module_& m) {
  nb::class_<Generator>(m, "Generator",
                        "A seeded random number generator (dropout's generator=...). Copies "
                        "share their state.")
      .def(nb::init<uint64_t>(), "seed"_a = Generator::kDefaultSeed)
      .def("manual_seed", &manual_seed_of, "seed"_a)
      .def("initial_seed", &Generator::initial_seed)
      .def("__repr__", [](const Generator& g) {
        return "gradgen.Generator(seed=" + std::to_string(g.initial_seed()) + ")";
      });
  m.def(
      "default_generator", []() { return default_generator(); },
      "The process-wide generator used by ops given none (shares its state).");
  m.def(
      "manual_seed",
      [](uint64_t seed) {
        gradgen::manual_seed(seed);
        return default_generator();
      },
      "seed"_a, "Reseeds the default generator; returns it.");
}

void init_factories(nb::module_& m) {
  // empty(2, 3, dtype=..., requires_grad=...): sizes as varargs or one sequence.
  m.def(
      "empty",
      [](nb::args size, std::optional<ScalarType> dtype, bool requires_grad) {
        return finish(empty(parse_sizes(size, "empty"), dtype.value_or(get_default_dtype())),
                      requires_grad);
      },
      "size"_a, nb::kw_only(), "dtype"_a = nb::none(), "requires_grad"_a = false);
  m.def("full", &full_of, "size"_a, "fill_value"_a, nb::kw_only(), "dtype"_a = nb::none(),
        "requires_grad"_a = false);
  m.def("randn", &randn_of, "size"_a, nb::kw_only(), "seed"_a = nb::none(),
        "generator"_a = nb::none(), "dtype"_a = nb::none(), "requires_grad"_a = false);
}

}  // namespace python
}  // namespace gradgen
