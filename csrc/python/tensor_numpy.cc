// gradgen.Tensor and NumPy: Tensor.numpy() and the array protocols (__array__, __dlpack__) that
// share a tensor's memory, gradgen.from_numpy that shares an array's, and the copy that
// gradgen.tensor(array) makes (tensor_numpy.h). gradgen imports without NumPy: only these need it.
#include "csrc/python/tensor_numpy.h"

#include <nanobind/ndarray.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "csrc/autograd/grad_mode.h"
#include "csrc/generated/VariableType.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"
#include "csrc/python/tensor_access.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

// The shape and strides (in elements) of a tensor, as nanobind's ndarray takes them.
struct ArrayShape {
  explicit ArrayShape(const Tensor& t)
      : ndim(static_cast<size_t>(t.dim())), shape(ndim), strides(ndim) {
    for (size_t d = 0; d < ndim; ++d) {
      shape[d] = static_cast<size_t>(t.sizes()[d]);
      strides[d] = t.strides()[d];
    }
  }
  size_t ndim;
  std::vector<size_t> shape;
  std::vector<int64_t> strides;
};

// The 16-bit floating types, which nanobind has no C++ type for.
nb::dlpack::dtype float16_dtype(nb::dlpack::dtype_code code) {
  return nb::dlpack::dtype{static_cast<uint8_t>(code), 16, 1};
}

nb::dlpack::dtype dlpack_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return nb::dtype<float>();
    case ScalarType::Double: return nb::dtype<double>();
    case ScalarType::Long: return nb::dtype<int64_t>();
    case ScalarType::Bool: return nb::dtype<bool>();
    case ScalarType::Int: return nb::dtype<int32_t>();
    case ScalarType::Short: return nb::dtype<int16_t>();
    case ScalarType::Char: return nb::dtype<int8_t>();
    case ScalarType::Byte: return nb::dtype<uint8_t>();
    case ScalarType::Half: return float16_dtype(nb::dlpack::dtype_code::Float);
    case ScalarType::BFloat16: return float16_dtype(nb::dlpack::dtype_code::Bfloat);
  }
  return nb::dtype<double>();
}

// The dtype of a DLPack / NumPy array, if gradgen has it.
bool dtype_of_array(const nb::dlpack::dtype& dt, ScalarType* out) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (dlpack_dtype(static_cast<ScalarType>(i)) == dt) {
      *out = static_cast<ScalarType>(i);
      return true;
    }
  }
  return false;
}

// A NumPy array over the tensor's memory (no copy); the array keeps the Python tensor alive.
nb::object to_numpy(nb::pointer_and_handle<Tensor> self, bool force) {
  // gradgen imports without NumPy; only this needs it.
  PyObject* numpy = PyImport_ImportModule("numpy");
  if (!numpy) {
    PyErr_Clear();
    throw nb::import_error("numpy: Tensor.numpy() needs NumPy, which is not installed");
  }
  Py_DECREF(numpy);
  Tensor t = *self.p;
  if (t.scalar_type() == ScalarType::BFloat16) {  // PyTorch's TypeError: NumPy has no bfloat16
    throw nb::type_error(
        "numpy: Got unsupported ScalarType BFloat16 (NumPy has no bfloat16; convert first, e.g. "
        "t.float().numpy())");
  }
  nb::handle owner = self.h;
  nb::object copy_owner;
  if (t.requires_grad() && !force) {
    throw std::runtime_error(
        "numpy: can't call numpy() on a Tensor that requires grad; use tensor.detach().numpy() "
        "instead");
  }
  if (force) {  // torch: a copy without history, not sharing memory
    autograd::NoGradGuard no_grad;
    t = t.detach().clone();
    copy_owner = nb::cast(t);
    owner = copy_owner;
  }
  const ArrayShape a(t);
  void* data = const_cast<char*>(element_address(t, 0));
  nb::ndarray<nb::numpy> array(data, a.ndim, a.shape.data(), owner, a.strides.data(),
                               dlpack_dtype(t.scalar_type()));
  return array.cast(nb::rv_policy::reference);
}

nb::object to_array(nb::pointer_and_handle<Tensor> self, nb::handle dtype, nb::handle copy) {
  // copy is NumPy's: None, a bool or a numpy.bool_; anything else is refused before any work, so
  // that the error says what was expected (the fuzzer found an empty TypeError otherwise).
  bool want_copy = false;
  if (!copy.is_none()) {
    const bool numpy_bool = std::string(Py_TYPE(copy.ptr())->tp_name) == "numpy.bool" ||
                            std::string(Py_TYPE(copy.ptr())->tp_name) == "numpy.bool_";
    if (!PyBool_Check(copy.ptr()) && !numpy_bool) {
      throw nb::type_error((std::string("__array__(): argument 'copy' must be bool or None, not ") +
                            Py_TYPE(copy.ptr())->tp_name)
                               .c_str());
    }
    want_copy = PyObject_IsTrue(copy.ptr()) == 1;
  }
  nb::object array = to_numpy(self, false);
  if (!dtype.is_none()) array = array.attr("astype")(dtype, "copy"_a = false);
  if (want_copy) array = array.attr("copy")();
  return array;
}

// The DLPack protocol (numpy.from_dlpack, torch.from_dlpack): no copy (unless copy=True); the
// capsule keeps this tensor alive (nanobind makes it). nanobind's exporter object answers the
// keywords: with max_version (NumPy 2 asks for (1, 0)) a versioned capsule, not flagged
// read-only, so that NumPy's array is writable and shares memory, as PyTorch's; without it the
// unversioned "dltensor" capsule of older consumers.
nb::object to_dlpack(nb::pointer_and_handle<Tensor> self, nb::kwargs kwargs) {
  Tensor t = *self.p;
  if (t.requires_grad()) {
    throw std::runtime_error(
        "__dlpack__: can't export a Tensor that requires grad; use tensor.detach() first");
  }
  nb::handle owner = self.h;
  nb::object copy_owner;
  nb::dict rest;
  for (auto [key, value] : kwargs) {
    if (std::string(nb::str(key).c_str()) != "copy") {
      rest[key] = value;
    } else if (PyObject_IsTrue(value.ptr()) == 1) {  // PyTorch's copy=True: a fresh copy
      autograd::NoGradGuard no_grad;
      t = t.clone();
      copy_owner = nb::cast(t);
      owner = copy_owner;
    }
  }
  const ArrayShape a(t);
  nb::ndarray<nb::array_api> array(const_cast<char*>(element_address(t, 0)), a.ndim, a.shape.data(),
                                   owner, a.strides.data(), dlpack_dtype(t.scalar_type()),
                                   nb::device::cpu::value);
  nb::object exporter = array.cast(nb::rv_policy::reference);
  return exporter.attr("__dlpack__")(**rest);
}

// gradgen's strides are never negative (a[::-1]); as torch.from_numpy, refuse rather than share
// a copy. tensor(a), which copies anyway, has NumPy copy such arrays first (copy_of_array).
[[noreturn]] void throw_negative_strides(const char* op) {
  throw nb::value_error((std::string(op) +
                         ": at least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not supported (make a copy first: "
                         "array.copy())")
                            .c_str());
}

template <typename Array>
Tensor wrap_array(const Array& array, const char* op) {
  ScalarType dtype;
  if (!dtype_of_array(array.dtype(), &dtype)) {
    throw nb::type_error((std::string(op) +
                          ": expected an array of float64, float32, float16, int64, int32, int16, "
                          "int8, uint8 or bool; gradgen has no other dtypes (convert it first, "
                          "e.g. a.astype(numpy.float64))")
                             .c_str());
  }
  std::vector<int64_t> sizes(array.ndim()), strides(array.ndim());
  for (size_t d = 0; d < array.ndim(); ++d) {
    sizes[d] = static_cast<int64_t>(array.shape(d));
    strides[d] = array.stride(d);
    if (strides[d] < 0) throw_negative_strides(op);
  }
  // The storage keeps a reference to the array until the last tensor over it dies.
  auto* keep = new Array(array);
  auto release = [](void* context) noexcept {
    nb::gil_scoped_acquire gil;
    delete static_cast<Array*>(context);
  };
  return from_blob(const_cast<void*>(static_cast<const void*>(array.data())), sizes, strides, dtype,
                   release, keep);
}

// NumPy's module when it is imported (an object can't be a NumPy array otherwise); null if not.
PyObject* numpy_if_imported() {
  PyObject* modules = PyImport_GetModuleDict();
  return PyDict_GetItemString(modules, "numpy");  // borrowed
}

bool is_numpy_array(PyObject* numpy, nb::handle o) {
  if (!numpy) return false;
  nb::object ndarray = nb::steal(PyObject_GetAttrString(numpy, "ndarray"));
  if (!ndarray.is_valid()) throw nb::python_error();
  return PyObject_IsInstance(o.ptr(), ndarray.ptr()) == 1;
}

bool is_numpy_scalar(PyObject* numpy, nb::handle o) {
  if (!numpy) return false;
  nb::object generic = nb::steal(PyObject_GetAttrString(numpy, "generic"));
  if (!generic.is_valid()) throw nb::python_error();
  return PyObject_IsInstance(o.ptr(), generic.ptr()) == 1;
}

// Refuses, with torch.from_numpy's error types, the NumPy arrays gradgen has no dtype for
// (uint16, complex, object, datetime64, ...) and the non-native byte orders, before
// nanobind's ndarray import sees them: it must not be handed what it cannot describe
// (datetime64 crashed it).
void check_numpy_dtype(const char* op, nb::handle array) {
  nb::object dtype = array.attr("dtype");
  const std::string kind = nb::cast<std::string>(dtype.attr("kind"));
  const int64_t itemsize = nb::cast<int64_t>(dtype.attr("itemsize"));
  const bool supported =
      (kind == "f" && (itemsize == 2 || itemsize == 4 || itemsize == 8)) ||
      (kind == "i" && (itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8)) ||
      (kind == "u" && itemsize == 1) || (kind == "b" && itemsize == 1);
  if (!supported) {
    throw nb::type_error((std::string(op) +
                          ": expected an array of float64, float32, float16, int64, int32, int16, "
                          "int8, uint8 or bool, got numpy." +
                          nb::cast<std::string>(nb::str(dtype.attr("name"))) +
                          "; gradgen has no other dtypes (convert it first, e.g. "
                          "a.astype(numpy.float64))")
                             .c_str());
  }
  if (!nb::cast<bool>(dtype.attr("isnative"))) {
    throw nb::value_error(
        (std::string(op) +
         ": the given numpy array has a byte order different from the native byte order; "
         "conversion between byte orders is not supported (convert it first: "
         "a.astype(a.dtype.newbyteorder('=')))")
            .c_str());
  }
}

Tensor from_numpy(nb::handle source) {
  PyObject* numpy = numpy_if_imported();
  if (!is_numpy_array(numpy, source)) {
    throw nb::type_error((std::string("from_numpy: expected np.ndarray (got ") +
                          Py_TYPE(source.ptr())->tp_name + ")")
                             .c_str());
  }
  check_numpy_dtype("from_numpy", source);
  // NumPy's own strides: the ones nanobind reports may be normalized on dims of size 1, where
  // torch.from_numpy(numpy.zeros(1)[::-1]) raises all the same.
  for (nb::handle stride : source.attr("strides")) {
    if (nb::cast<int64_t>(stride) < 0) throw_negative_strides("from_numpy");
  }
  nb::ndarray<nb::device::cpu> writable;
  if (nb::try_cast(source, writable)) return wrap_array(writable, "from_numpy");
  nb::ndarray<nb::ro, nb::device::cpu> read_only;
  if (nb::try_cast(source, read_only)) {
    // As torch.from_numpy: shared all the same, with a warning (writes are the caller's risk).
    if (PyErr_WarnEx(PyExc_UserWarning,
                     "from_numpy: the array is not writable; the tensor shares its memory, and "
                     "writing to the tensor is undefined behavior (copy the array first)",
                     1) < 0) {
      throw nb::python_error();
    }
    return wrap_array(read_only, "from_numpy");
  }
  throw nb::type_error((std::string("from_numpy: expected a CPU array (numpy.ndarray), got ") +
                        Py_TYPE(source.ptr())->tp_name)
                           .c_str());
}

}  // namespace

std::optional<Tensor> copy_of_array(nb::handle data) {
  PyObject* numpy = numpy_if_imported();
  nb::object converted;
  if (is_numpy_scalar(numpy, data)) {  // numpy.float64(2.0), numpy.datetime64(...): 0-dim
    converted = nb::steal(PyObject_CallMethod(numpy, "asarray", "O", data.ptr()));
    if (!converted.is_valid()) throw nb::python_error();
    data = converted;
  }
  if (is_numpy_array(numpy, data)) {
    check_numpy_dtype("tensor", data);
    bool negative = false;
    for (nb::handle stride : data.attr("strides")) negative |= nb::cast<int64_t>(stride) < 0;
    if (negative) {  // a copy anyway: NumPy's own (C order, strides >= 0) is the one to wrap
      converted = nb::steal(PyObject_CallMethod(numpy, "array", "O", data.ptr()));
      if (!converted.is_valid()) throw nb::python_error();
      data = converted;
    }
  }
  if (!nb::hasattr(data, "__array_interface__") && !nb::hasattr(data, "__dlpack__")) {
    return std::nullopt;
  }
  nb::ndarray<nb::ro, nb::device::cpu> array;
  if (!nb::try_cast(data, array)) return std::nullopt;
  autograd::NoGradGuard no_grad;
  return wrap_array(array, "tensor").clone();
}

// torch.from_dlpack: any CPU array exporting __dlpack__ (NumPy's, PyTorch's, gradgen's own) or a
// DLPack capsule, shared without a copy.
Tensor from_dlpack(nb::handle source) {
  if (!nb::hasattr(source, "__dlpack__") && !PyCapsule_CheckExact(source.ptr())) {
    throw nb::type_error((std::string("from_dlpack: expected an object with __dlpack__ or a DLPack "
                                      "capsule, got ") +
                          Py_TYPE(source.ptr())->tp_name)
                             .c_str());
  }
  nb::ndarray<nb::device::cpu> array;
  if (nb::try_cast(source, array)) return wrap_array(array, "from_dlpack");
  nb::ndarray<nb::ro, nb::device::cpu> read_only;  // shared all the same, as torch.from_dlpack
  if (!nb::try_cast(source, read_only)) {
    throw nb::type_error(
        (std::string("from_dlpack: expected a CPU array of a strided layout, got ") +
         Py_TYPE(source.ptr())->tp_name)
            .c_str());
  }
  return wrap_array(read_only, "from_dlpack");
}

void init_tensor_numpy(nb::module_& m) {
  tensor_class_of(m)
      .def("numpy", &to_numpy, "force"_a = false,
           "A NumPy array sharing this tensor's memory (force=True: a copy, allowed with grad).")
      .def("__array__", &to_array, "dtype"_a = nb::none(), "copy"_a = nb::none())
      .def("__dlpack__", &to_dlpack)
      .def("__dlpack_device__", [](const Tensor&) { return nb::make_tuple(1, 0); });  // kDLCPU
  m.def("from_numpy", &from_numpy, "array"_a,
        "A tensor sharing the array's memory (no copy); writes show in both.");
  m.def("from_dlpack", &from_dlpack, "ext_tensor"_a,
        "A tensor sharing the memory of an object with __dlpack__ (or a DLPack capsule).");
}

}  // namespace python
}  // namespace gradgen
