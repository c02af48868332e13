// gradgen.set_default_dtype / get_default_dtype (csrc/default_dtype.h) and the type promotion
// queries result_type, promote_types and can_cast, as torch's: they report the dtypes the kernels
// compute in (csrc/native/type_promotion.h), so an answer cannot drift from what an op does.
#include <stdexcept>
#include <string>

#include "csrc/default_dtype.h"
#include "csrc/native/type_promotion.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

// PyTorch accepts a dtype object only, and floating ones only, both as a TypeError.
void set_default_dtype_of(nb::handle d) {
  ScalarType type;
  if (!dtype_from_object(d.ptr(), false, &type)) {
    throw nb::type_error(
        "invalid dtype object: only floating-point types are supported as the default type");
  }
  if (!is_floating_point(type)) {
    throw nb::type_error("only floating-point types are supported as the default type");
  }
  set_default_dtype(type);
}

// The result type of two Python numbers: both are "wrapped numbers" of one priority, so the
// float one counts as the default dtype (result_type(1, 1.5) is float32) as in ResultType.
ScalarType scalars_result_type(const Scalar& a, const Scalar& b) {
  return native::ResultType().add(a).add(b).get();
}

}  // namespace

void init_dtype_functions(nb::module_& m) {
  m.def("get_default_dtype", &get_default_dtype,
        "The default floating dtype: what Python floats and factories with dtype=None make "
        "(float32 unless set_default_dtype changed it).");
  m.def("set_default_dtype", &set_default_dtype_of, "d"_a.none(),
        "Sets the default floating dtype (float32, float64, float16 or bfloat16), as "
        "torch.set_default_dtype.");
  // Overloads in PyTorch's order: Tensor/Tensor, Tensor/Number, Number/Tensor, Number/Number.
  m.def(
      "result_type", [](const Tensor& a, const Tensor& b) { return native::result_type(a, b); },
      "tensor"_a, "other"_a,
      "The dtype an arithmetic op of the operands computes in (torch.result_type).");
  m.def(
      "result_type", [](const Tensor& a, const Scalar& b) { return native::result_type(a, b); },
      "tensor"_a, "other"_a);
  m.def(
      "result_type", [](const Scalar& a, const Tensor& b) { return native::result_type(b, a); },
      "scalar"_a, "tensor"_a);
  m.def("result_type", &scalars_result_type, "scalar1"_a, "scalar2"_a);
  m.def("promote_types", &native::promote_types, "type1"_a, "type2"_a,
        "The smallest dtype both promote to (torch.promote_types).");
  m.def("can_cast", &native::can_cast, "from_"_a, "to"_a,
        "Whether a value of from_ may be written into to under PyTorch's casting rules "
        "(torch.can_cast: never into a lower category, bool < integer < floating).");
}

}  // namespace python
}  // namespace gradgen
