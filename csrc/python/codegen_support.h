// What the generated Python bindings (python_functions[_k].cpp, from
// tools/codegen/gen_python_functions.py) call besides the API itself: conversions between the
// types Python hands over (csrc/python/casters.h) and those of the C++ API, and the shapes of
// returned values (tuples, named tuples). Kept out of the generated files so they stay one
// `def` per overload.
#pragma once

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "csrc/python/casters.h"
#include "csrc/python/conventions.h"
#include "csrc/tensor.h"

namespace gradgen {
namespace python {

/// `str? s` arrives as an optional std::string; the API takes an optional string_view.
inline std::optional<std::string_view> optional_string_view(const std::optional<std::string>& s) {
  return s ? std::optional<std::string_view>(*s) : std::nullopt;
}

/// The Python object of a Tensor the op wrote to (in-place `self`, `out=`): the result is the
/// very object passed in (`x.add_(y) is x`), typed so signatures read `-> Tensor`.
inline nanobind::typed<nanobind::object, Tensor> same_object(const Tensor& written) {
  return nanobind::typed<nanobind::object, Tensor>(nanobind::find(written));
}

/// A `Tensor[]` result as a tuple, as PyTorch returns them (`gradgen.split(x, 2)`).
inline nanobind::tuple to_tuple(std::vector<Tensor>&& tensors) {
  nanobind::object list = nanobind::cast(std::move(tensors));
  return nanobind::steal<nanobind::tuple>(PySequence_Tuple(list.ptr()));
}

/// The class of `gradgen.Tensor`, registered by gradgen._C; `library` names the bindings that
/// need it in the error raised when `import gradgen` has not happened yet.
inline nanobind::handle tensor_class(const char* library) {
  nanobind::handle type = nanobind::type<Tensor>();
  if (!type.is_valid()) {
    throw std::runtime_error(
        std::string(library) +
        " Python bindings: gradgen.Tensor is not registered; import gradgen first");
  }
  return type;
}

/// A named tuple type `gradgen.return_types.<name>` with these fields (one per op name, made
/// when the bindings are defined and kept for the life of the process).
inline nanobind::handle named_tuple_type(const char* name,
                                         std::initializer_list<const char*> fields) {
  nanobind::list names;
  for (const char* f : fields) names.append(nanobind::str(f));
  nanobind::object namedtuple = nanobind::module_::import_("collections").attr("namedtuple");
  nanobind::object type = namedtuple(name, names, nanobind::arg("module") = "gradgen.return_types");
  // Printed as PyTorch prints its return types: `gradgen.return_types.sort(\nvalues=...,\n...)`.
  // Made once and kept for the life of the process, as the types are.
  static const nanobind::handle repr = [] {
    nanobind::dict scope;
    nanobind::module_::import_("builtins")
        .attr("exec")(
            "def __repr__(self):\n"
            "    fields = ',\\n'.join(f'{k}={v!r}' for k, v in zip(self._fields, self))\n"
            "    return f'{type(self).__module__}.{type(self).__name__}(\\n{fields})'\n",
            scope);
    return nanobind::object(scope["__repr__"]).release();
  }();
  type.attr("__repr__") = repr;
  return type.release();
}

/// An op's tuple result as an instance of its named tuple type.
template <typename... T>
nanobind::object named_tuple(nanobind::handle type, std::tuple<T...>&& values) {
  return std::apply(
      [&](auto&&... v) { return type(nanobind::cast(std::forward<decltype(v)>(v))...); },
      std::move(values));
}

/// `out=(a, b)` of an op with several out arguments: exactly `count` tensors.
inline void check_outs(const char* op, const std::vector<Tensor*>& out, size_t count) {
  if (out.size() != count) {
    throw nanobind::type_error((std::string(op) + ": expected out= to be a sequence of " +
                                std::to_string(count) + " tensors, got " +
                                std::to_string(out.size()))
                                   .c_str());
  }
}

/// The Python objects passed as `out=(a, b)`, as a named tuple of `type` (or a plain tuple when
/// `type` is null): the op's result is those very objects, as in PyTorch.
inline nanobind::object same_objects(const std::vector<Tensor*>& out, nanobind::handle type) {
  nanobind::list items;
  for (Tensor* t : out) items.append(nanobind::find(*t));
  nanobind::tuple tuple = nanobind::steal<nanobind::tuple>(PySequence_Tuple(items.ptr()));
  return type.is_valid() ? type(*tuple) : nanobind::object(tuple);
}

}  // namespace python
}  // namespace gradgen
