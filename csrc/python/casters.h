// The nanobind type casters of gradgen's types, which every binding includes: the hand-written
// ones (csrc/python/*.cc, the `gradgen._C` module), the generated ones (`bind_generated(m)` of
// every autograd_library) and a user's (gradgen_py_extension).
//
// Including this header makes these C++ types usable as parameters, return values and default
// values (`nb::arg("x") = value`) of bound functions, converting both ways:
//
//   C++                                      Python
//   gradgen::Tensor (const& or &)            gradgen.Tensor (an undefined Tensor returns None)
//   std::optional<Tensor>                    Tensor or None
//   std::vector<Tensor>, vector<optional<>>  any sequence (list, tuple) of them
//   int64_t, double, bool, std::string       int, float, bool, str (nanobind's own casters)
//   gradgen::python::IntList                 a sequence of ints, or one int (PyTorch's int[1])
//   gradgen::Scalar                          int -> Long, float -> Double, bool -> Bool; never a
//                                            Tensor, so add(Tensor, Tensor) and add(Tensor,
//                                            Scalar) overloads resolve as in PyTorch
//   gradgen::ScalarType                      gradgen.float32/float64/int64/bool, or the Python
//                                            types float, int, bool
//   gradgen::Layout / Device / MemoryFormat  gradgen.strided / gradgen.device("cpu") or "cpu" /
//                                            gradgen.contiguous_format, gradgen.preserve_format
//   gradgen::Generator                       gradgen.Generator(seed)
//   std::optional<T> of any of these         T or None
//
// Caster names read like PyTorch's signatures ("Tensor", "Scalar", "Sequence[int]", "dtype"):
// nanobind prints them when no overload accepts the arguments.
//
// Every extension module of a process shares one runtime (grad mode, the engine, the
// registration of gradgen.Tensor): the runtime and nanobind are shared libraries that both
// `gradgen._C` and a user's module link (see gradgen_py_extension in bazel/private/python.bzl).
// A user's module imports gradgen._C before it binds anything: call import_runtime() first.
// The Python objects the casters convert are type_objects.h's.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "csrc/generator.h"
#include "csrc/python/memory_reserve.h"
#include "csrc/python/type_objects.h"
#include "csrc/scalar.h"
#include "csrc/tensor.h"
#include "csrc/util/optional_array_ref.h"

namespace gradgen {
namespace python {

/// An `int[]` argument: a std::vector<int64_t> that converts to IntArrayRef. From Python: a
/// sequence of ints or a single int (`sum(x, 1)` as `sum(x, [1])`, as PyTorch allows).
struct IntList {
  IntList() = default;
  IntList(std::vector<int64_t> v) : values(std::move(v)) {}  // NOLINT: implicit by design
  IntList(std::initializer_list<int64_t> v) : values(v) {}
  operator IntArrayRef() const { return IntArrayRef(values.data(), values.size()); }
  IntArrayRef ref() const { return *this; }

  std::vector<int64_t> values;
};

/// Converts an `int[]?` argument to what the generated C++ API takes.
inline OptionalIntArrayRef to_optional_ref(const std::optional<IntList>& list) {
  if (!list) return std::nullopt;
  return OptionalIntArrayRef(list->ref());
}

/// A Python number as a Tensor argument, as PyTorch's wrapped numbers: a 0-dim tensor of the
/// number's type (float64, int64 or bool) that type promotion counts as the number it was, not as
/// a 0-dim tensor (`float16 tensor * 0.1` stays float16).
inline Tensor wrapped_number(const Scalar& s) {
  const ScalarType type = s.is_floating_point() ? ScalarType::Double
                          : s.is_boolean()      ? ScalarType::Bool
                                                : ScalarType::Long;
  Tensor t = full({}, s, type);
  t.unsafe_impl()->is_wrapped_number = true;
  return t;
}

/// A Tensor argument that also takes a number, made a wrapped number: the arguments of the ops
/// whose Python bindings PyTorch lets take numbers as tensors (python_arg_parser's
/// should_allow_numbers_as_tensors: add, sub, mul, div, true_divide, floor_divide, copy_), so that
/// `x.mul(2)` is mul.Tensor (MulBackward0), as in torch. tools/codegen/python.py picks them.
struct TensorOrNumber {
  Tensor tensor;
  operator const Tensor&() const { return tensor; }  // NOLINT: implicit by design
};

/// Imports gradgen._C (which registers gradgen.Tensor and the types above); a user's module
/// calls it before binding its functions. Throws nb::python_error if the import fails.
inline void import_runtime() { nanobind::module_::import_("gradgen._C"); }

}  // namespace python
}  // namespace gradgen

namespace nanobind {
namespace detail {

// gradgen.Tensor is a bound class (registered in gradgen._C); this caster only adds that an
// undefined Tensor, e.g. an absent gradient, comes back to Python as None.
template <>
struct type_caster<gradgen::Tensor> : type_caster_base<gradgen::Tensor> {
  using Base = type_caster_base<gradgen::Tensor>;
  template <typename T>
  static handle from_cpp(T&& value, rv_policy policy, cleanup_list* cleanup) noexcept {
    const gradgen::Tensor* p;
    if constexpr (std::is_pointer_v<std::remove_reference_t<T>>) {
      p = value;
    } else {
      p = &value;
    }
    if (!p || !p->defined()) return none().release();
    if (gradgen::python::memory_is_low()) return handle();  // MemoryError (memory_reserve.h)
    return Base::from_cpp(std::forward<T>(value), policy, cleanup);
  }
};

template <>
struct type_caster<gradgen::Scalar> {
  NB_TYPE_CASTER(gradgen::Scalar, const_name("Scalar"))

  bool from_python(handle src, uint32_t flags, cleanup_list*) noexcept {
    PyObject* o = src.ptr();
    if (PyBool_Check(o)) {  // before int: bool is a subclass of int
      value = gradgen::Scalar(o == Py_True);
      return true;
    }
    if (PyLong_Check(o)) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
      if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return false;
      }
      value = gradgen::Scalar(static_cast<int64_t>(v));
      return true;
    }
    if (PyFloat_Check(o)) {
      value = gradgen::Scalar(PyFloat_AS_DOUBLE(o));
      return true;
    }
    // NumPy's scalars and other numbers, but never a Tensor (it has __float__ and __index__).
    if (!(flags & static_cast<uint32_t>(cast_flags::convert)) || gradgen::python::is_tensor(o)) {
      return false;
    }
    if (PyIndex_Check(o)) {
      PyObject* index = PyNumber_Index(o);
      if (index) {
        const long long v = PyLong_AsLongLong(index);
        Py_DECREF(index);
        if (!(v == -1 && PyErr_Occurred())) {
          value = gradgen::Scalar(static_cast<int64_t>(v));
          return true;
        }
      }
      PyErr_Clear();
      return false;
    }
    if (Py_TYPE(o)->tp_as_number && Py_TYPE(o)->tp_as_number->nb_float) {
      const double v = PyFloat_AsDouble(o);
      if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      value = gradgen::Scalar(v);
      return true;
    }
    return false;
  }

  static handle from_cpp(const gradgen::Scalar& s, rv_policy, cleanup_list*) noexcept {
    switch (s.kind()) {
      case gradgen::Scalar::Kind::Bool: return PyBool_FromLong(s.to_bool() ? 1 : 0);
      case gradgen::Scalar::Kind::Long: return PyLong_FromLongLong(s.to_long());
      case gradgen::Scalar::Kind::Double: break;
    }
    return PyFloat_FromDouble(s.to_double());
  }
};

template <>
struct type_caster<gradgen::python::TensorOrNumber> {
  NB_TYPE_CASTER(gradgen::python::TensorOrNumber, const_name("Tensor | Number"))

  bool from_python(handle src, uint32_t flags, cleanup_list* cleanup) noexcept {
    make_caster<gradgen::Tensor> tensor;
    if (tensor.from_python(src, flags, cleanup)) {
      value.tensor = tensor.operator gradgen::Tensor&();
      return true;
    }
    make_caster<gradgen::Scalar> number;
    if (!number.from_python(src, flags, cleanup)) return false;
    try {
      value.tensor = gradgen::python::wrapped_number(number.value);
    } catch (...) {
      return false;
    }
    return true;
  }

  static handle from_cpp(const gradgen::python::TensorOrNumber& v, rv_policy policy,
                         cleanup_list* cleanup) noexcept {
    return make_caster<gradgen::Tensor>::from_cpp(v.tensor, policy, cleanup);
  }
};

// The caster of an enum-like type whose Python objects type_objects.h keeps (gradgen.float64,
// gradgen.strided, ...): `Load` parses one (with `convert`, the looser forms), `ToObject` returns
// it. A specialization names the type as signatures print it (its `Name` hides this one's).
template <typename T, bool (*Load)(PyObject*, bool, T*) noexcept, PyObject* (*ToObject)(T) noexcept>
struct type_object_caster {
  NB_TYPE_CASTER(T, const_name("object"))

  bool from_python(handle src, uint32_t flags, cleanup_list*) noexcept {
    return Load(src.ptr(), (flags & static_cast<uint32_t>(cast_flags::convert)) != 0, &value);
  }
  static handle from_cpp(T v, rv_policy, cleanup_list*) noexcept { return ToObject(v); }
};

template <>
struct type_caster<gradgen::ScalarType>
    : type_object_caster<gradgen::ScalarType, &gradgen::python::dtype_from_object,
                         &gradgen::python::dtype_object> {
  static constexpr auto Name = const_name("dtype");
};

template <>
struct type_caster<gradgen::Layout>
    : type_object_caster<gradgen::Layout, &gradgen::python::layout_from_object,
                         &gradgen::python::layout_object> {
  static constexpr auto Name = const_name("layout");
};

template <>
struct type_caster<gradgen::MemoryFormat>
    : type_object_caster<gradgen::MemoryFormat, &gradgen::python::memory_format_from_object,
                         &gradgen::python::memory_format_object> {
  static constexpr auto Name = const_name("memory_format");
};

template <>
struct type_caster<gradgen::Device>
    : type_object_caster<gradgen::Device, &gradgen::python::device_from_object,
                         &gradgen::python::device_object> {
  static constexpr auto Name = const_name("device");
};

template <>
struct type_caster<gradgen::python::IntList> {
  NB_TYPE_CASTER(gradgen::python::IntList, const_name("Sequence[int]"))

  bool from_python(handle src, uint32_t flags, cleanup_list*) noexcept {
    PyObject* o = src.ptr();
    value.values.clear();
    int64_t v;
    if (!PyBool_Check(o) && load_int(o, flags, &v)) {  // one int: int[1] / int[2] shorthand
      value.values.push_back(v);
      return true;
    }
    if (PyUnicode_Check(o) || PyBytes_Check(o) || gradgen::python::is_tensor(o) ||
        !PySequence_Check(o)) {
      return false;
    }
    PyObject* seq = PySequence_Fast(o, "");
    if (!seq) {
      PyErr_Clear();
      return false;
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject** items = PySequence_Fast_ITEMS(seq);
    value.values.reserve(static_cast<size_t>(n));
    bool ok = true;
    for (Py_ssize_t i = 0; i < n && ok; ++i) {
      ok = !PyBool_Check(items[i]) && load_int(items[i], flags, &v);
      if (ok) value.values.push_back(v);
    }
    Py_DECREF(seq);
    return ok;
  }

  static handle from_cpp(const gradgen::python::IntList& list, rv_policy, cleanup_list*) noexcept {
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(list.values.size()));
    if (!t) return handle();
    for (size_t i = 0; i < list.values.size(); ++i) {
      PyObject* item = PyLong_FromLongLong(list.values[i]);
      if (!item) {
        Py_DECREF(t);
        return handle();
      }
      PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), item);
    }
    return t;
  }

 private:
  static bool load_int(PyObject* o, uint32_t flags, int64_t* out) noexcept {
    if (PyLong_CheckExact(o) || PyLong_Check(o)) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
      if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return false;
      }
      *out = v;
      return true;
    }
    if ((flags & static_cast<uint32_t>(cast_flags::convert)) && !gradgen::python::is_tensor(o) &&
        PyIndex_Check(o)) {  // NumPy integers
      PyObject* index = PyNumber_Index(o);
      if (!index) {
        PyErr_Clear();
        return false;
      }
      const long long v = PyLong_AsLongLong(index);
      Py_DECREF(index);
      if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      *out = v;
      return true;
    }
    return false;
  }
};

// A Tensor[] argument takes a sequence of tensors, but never a Tensor itself (a Tensor is a
// sequence of its rows): `gradgen.cat(x)` is a TypeError, as in PyTorch, not a cat of x's rows.
// Hidden, as nanobind's own namespace is (NB_NAMESPACE), like the list_caster it derives from.
template <typename Entry>
struct __attribute__((visibility("hidden"))) tensor_list_caster
    : list_caster<std::vector<Entry>, Entry> {
  bool from_python(handle src, uint32_t flags, cleanup_list* cleanup) noexcept {
    if (gradgen::python::is_tensor(src.ptr())) return false;
    return list_caster<std::vector<Entry>, Entry>::from_python(src, flags, cleanup);
  }
};
template <>
struct type_caster<std::vector<gradgen::Tensor>> : tensor_list_caster<gradgen::Tensor> {};
template <>
struct type_caster<std::vector<std::optional<gradgen::Tensor>>>
    : tensor_list_caster<std::optional<gradgen::Tensor>> {};

}  // namespace detail
}  // namespace nanobind
