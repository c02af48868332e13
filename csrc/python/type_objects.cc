// The Python objects behind casters.h's casters (type_objects.h): gradgen.float64,
// gradgen.strided, ..., kept here once per process. dtypes.cc makes them.
#include "csrc/python/type_objects.h"

#include <cstring>

namespace gradgen {
namespace python {
namespace {

// Strong references, kept until the process ends (like PyTorch's dtype objects).
constexpr int kNumDtypes = kNumScalarTypes;
PyObject* g_dtypes[kNumDtypes] = {};
PyObject* g_strided = nullptr;
PyObject* g_contiguous_format = nullptr;
PyObject* g_preserve_format = nullptr;
PyObject* g_cpu = nullptr;
PyTypeObject* g_device_type = nullptr;
PyObject* g_tensor_type = nullptr;

int dtype_index(ScalarType t) noexcept { return static_cast<int>(t); }

PyObject* new_ref(PyObject* o) noexcept {
  Py_XINCREF(o);
  return o;
}

}  // namespace

PyObject* dtype_object(ScalarType t) noexcept { return new_ref(g_dtypes[dtype_index(t)]); }
PyObject* layout_object(Layout) noexcept { return new_ref(g_strided); }
PyObject* memory_format_object(MemoryFormat f) noexcept {
  return new_ref(f == MemoryFormat::Contiguous ? g_contiguous_format : g_preserve_format);
}
PyObject* device_object(Device) noexcept { return new_ref(g_cpu); }

const char* dtype_name(ScalarType t) noexcept {
  switch (t) {
    case ScalarType::Float: return "float32";
    case ScalarType::Double: return "float64";
    case ScalarType::Long: return "int64";
    case ScalarType::Bool: return "bool";
    case ScalarType::Int: return "int32";
    case ScalarType::Short: return "int16";
    case ScalarType::Char: return "int8";
    case ScalarType::Byte: return "uint8";
    case ScalarType::Half: return "float16";
    case ScalarType::BFloat16: return "bfloat16";
  }
  return "unknown";
}

bool dtype_from_object(PyObject* o, bool convert, ScalarType* out) noexcept {
  for (int i = 0; i < kNumDtypes; ++i) {
    if (o == g_dtypes[i]) {
      *out = static_cast<ScalarType>(i);
      return true;
    }
  }
  if (!convert) return false;
  // Python's own types, as torch accepts `dtype=float`.
  if (o == reinterpret_cast<PyObject*>(&PyFloat_Type)) {
    *out = ScalarType::Double;
  } else if (o == reinterpret_cast<PyObject*>(&PyBool_Type)) {
    *out = ScalarType::Bool;
  } else if (o == reinterpret_cast<PyObject*>(&PyLong_Type)) {
    *out = ScalarType::Long;
  } else {
    return false;
  }
  return true;
}

bool layout_from_object(PyObject* o, bool, Layout* out) noexcept {
  if (o != g_strided) return false;
  *out = Layout::Strided;
  return true;
}

bool memory_format_from_object(PyObject* o, bool, MemoryFormat* out) noexcept {
  if (o == g_contiguous_format) {
    *out = MemoryFormat::Contiguous;
  } else if (o == g_preserve_format) {
    *out = MemoryFormat::Preserve;
  } else {
    return false;
  }
  return true;
}

bool device_from_object(PyObject* o, bool convert, Device* out) noexcept {
  if (g_device_type && PyObject_TypeCheck(o, g_device_type)) {
    *out = Device::CPU;
    return true;
  }
  if (!convert || !PyUnicode_Check(o)) return false;
  const char* s = PyUnicode_AsUTF8(o);
  if (!s) {
    PyErr_Clear();
    return false;
  }
  if (std::strcmp(s, "cpu") != 0 && std::strcmp(s, "cpu:0") != 0) return false;
  *out = Device::CPU;
  return true;
}

PyObject* tensor_type() noexcept { return g_tensor_type; }

bool is_tensor(PyObject* o) noexcept {
  return g_tensor_type && PyObject_TypeCheck(o, reinterpret_cast<PyTypeObject*>(g_tensor_type));
}

void set_tensor_type(PyObject* type) noexcept {
  Py_XINCREF(type);
  g_tensor_type = type;
}

void set_type_objects(const TypeObjects& objects) noexcept {
  for (int i = 0; i < kNumDtypes; ++i) {
    Py_XINCREF(objects.dtypes[i]);
    g_dtypes[i] = objects.dtypes[i];
  }
  Py_XINCREF(objects.strided);
  g_strided = objects.strided;
  Py_XINCREF(objects.contiguous_format);
  g_contiguous_format = objects.contiguous_format;
  Py_XINCREF(objects.preserve_format);
  g_preserve_format = objects.preserve_format;
  Py_XINCREF(objects.cpu);
  g_cpu = objects.cpu;
  Py_XINCREF(objects.device_type);
  g_device_type = reinterpret_cast<PyTypeObject*>(objects.device_type);
}

}  // namespace python
}  // namespace gradgen
