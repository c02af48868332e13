// Python's conversions of gradgen.Tensor (item, tolist, bool, float, int, index) and the
// tensor made from Python data (gradgen.tensor).
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "csrc/autograd/grad_mode.h"
#include "csrc/core_kernels.h"
#include "csrc/default_dtype.h"
#include "csrc/generated/VariableType.h"
#include "csrc/native/type_promotion.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"
#include "csrc/python/tensor_access.h"
#include "csrc/python/tensor_numpy.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

// --- Python numbers -------------------------------------------------------------------------

PyObject* element_to_python(const char* p, ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Bool: return PyBool_FromLong(*reinterpret_cast<const bool*>(p) ? 1 : 0);
    case ScalarType::Long: return PyLong_FromLongLong(*reinterpret_cast<const int64_t*>(p));
    case ScalarType::Float: return PyFloat_FromDouble(*reinterpret_cast<const float*>(p));
    case ScalarType::Double: return PyFloat_FromDouble(*reinterpret_cast<const double*>(p));
    case ScalarType::Int:
    case ScalarType::Short:
    case ScalarType::Char:
    case ScalarType::Byte: return PyLong_FromLongLong(internal::read_element<int64_t>(p, dtype));
    case ScalarType::Half:
    case ScalarType::BFloat16: return PyFloat_FromDouble(internal::read_element<double>(p, dtype));
  }
  return nullptr;
}

nb::object to_list(const Tensor& t, size_t d, int64_t offset) {
  const TensorImpl& impl = *t.unsafe_impl();
  if (d == impl.sizes.size()) {
    return nb::steal(element_to_python(element_address(t, offset), impl.dtype));
  }
  const int64_t n = impl.sizes[d];
  nb::list out;
  for (int64_t i = 0; i < n; ++i) out.append(to_list(t, d + 1, offset + i * impl.strides[d]));
  return out;
}

nb::object item(const Tensor& t) {
  if (t.numel() != 1) {
    throw std::invalid_argument("item: a Tensor with " + std::to_string(t.numel()) +
                                " elements cannot be converted to a Python number (shape " +
                                shape_str(t.sizes()) + ")");
  }
  return nb::steal(element_to_python(element_address(t, 0), t.scalar_type()));
}

// float(t), int(t): one element, else PyTorch's ValueError.
void check_one_element(const Tensor& t) {
  if (t.numel() != 1) {
    throw nb::value_error(("only one element tensors can be converted to Python scalars (got " +
                           std::to_string(t.numel()) + " elements, shape " + shape_str(t.sizes()) +
                           ")")
                              .c_str());
  }
}

// --- tensor(data) ---------------------------------------------------------------------------

// The deepest nesting tensor(data) accepts: PyTorch's limit.
constexpr size_t kMaxTensorDims = 128;

// Walks nested sequences, recording the shape (checked to be rectangular) and the leaves.
void collect(nb::handle o, size_t depth, std::vector<int64_t>& shape,
             std::vector<PyObject*>& leaves, std::vector<nb::object>& keep) {
  PyObject* p = o.ptr();
  if (is_tensor(p) && !nb::inst_ready(o)) {
    throw nb::type_error(
        "tensor: expected numbers or Tensors, got an uninitialized Tensor "
        "(Tensor.__new__ without __init__)");
  }
  const bool is_seq = !PyUnicode_Check(p) && !PyBytes_Check(p) && !is_tensor(p) &&
                      PySequence_Check(p) && !PyObject_HasAttrString(p, "__float__");
  if (!is_seq) {
    if (depth != shape.size()) {
      throw nb::value_error(("tensor: expected a sequence at dim " + std::to_string(depth) +
                             " (the data is not rectangular)")
                                .c_str());
    }
    leaves.push_back(p);
    return;
  }
  if (depth >= kMaxTensorDims) {
    // The recursion must end before the C stack does (a list nested 100,000 deep); PyTorch
    // raises the same ValueError past 128 dims.
    throw nb::value_error(("tensor: too many dimensions '" + std::string(Py_TYPE(p)->tp_name) +
                           "' (at most " + std::to_string(kMaxTensorDims) + " nested sequences)")
                              .c_str());
  }
  nb::object seq = nb::steal(PySequence_Fast(p, "tensor: expected a sequence"));
  if (!seq.is_valid()) throw nb::python_error();
  const int64_t n = PySequence_Fast_GET_SIZE(seq.ptr());
  if (depth == shape.size()) {
    if (!leaves.empty()) {
      throw nb::value_error(("tensor: expected a number at dim " + std::to_string(depth) +
                             ", got a sequence (the data is not rectangular)")
                                .c_str());
    }
    shape.push_back(n);
  } else if (shape[depth] != n) {
    throw nb::value_error(("tensor: expected a sequence of length " + std::to_string(shape[depth]) +
                           " at dim " + std::to_string(depth) + " (got " + std::to_string(n) + ")")
                              .c_str());
  }
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  for (int64_t i = 0; i < n; ++i) collect(nb::handle(items[i]), depth + 1, shape, leaves, keep);
  keep.push_back(std::move(seq));
}

// The dtype PyTorch infers from the leaves (its infer_scalar_type): a float counts as the default
// dtype (get_default_dtype()), an int as int64, a bool as bool, a tensor as its dtype, and they
// promote as types do ([1, 2.5] is the default dtype, [float64 0-dim tensor, 1.0] float64).
ScalarType infer_dtype(const std::vector<PyObject*>& leaves) {
  if (leaves.empty()) return get_default_dtype();
  std::optional<ScalarType> type;
  for (PyObject* p : leaves) {
    ScalarType t = get_default_dtype();
    if (PyBool_Check(p)) {
      t = ScalarType::Bool;
    } else if (is_tensor(p)) {
      t = nb::cast<const Tensor&>(nb::handle(p)).scalar_type();
    } else if (PyLong_Check(p) || (!PyFloat_Check(p) && PyIndex_Check(p))) {
      t = ScalarType::Long;
    }
    type = type ? native::promote_types(*type, t) : t;
  }
  return *type;
}

// PyTorch's checked conversion (c10::checked_convert) of a Python number into an integer element:
// torch.tensor([300], dtype=torch.int8), [127.9] and [nan] raise rather than wrap; a negative int
// into uint8 wraps (-1 is 255, c10's non-strict unsigned rule), a negative float raises.
// Floating dtypes take any float (out of range: infinity), as PyTorch's.
template <typename T>
void check_fits(double v, bool from_float) {
  if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    bool overflow = false;
    if (from_float) {
      overflow = !(v >= lo && v <= hi);  // NaN too
    } else if (sizeof(T) < sizeof(int64_t)) {
      overflow = std::is_unsigned<T>::value ? (v > hi || v < -hi) : (v < lo || v > hi);
    }
    if (overflow) {
      const char* name = std::is_same<T, uint8_t>::value   ? "uint8"
                         : std::is_same<T, int8_t>::value  ? "int8"
                         : std::is_same<T, int16_t>::value ? "int16"
                         : std::is_same<T, int32_t>::value ? "int32"
                                                           : "int64";
      throw std::runtime_error(std::string("value cannot be converted to type ") + name +
                               " without overflow");
    }
  }
}

template <typename T>
T leaf_value(PyObject* p) {
  if (is_tensor(p)) {
    const Tensor& t = nb::cast<const Tensor&>(nb::handle(p));
    return t.item<T>();
  }
  if (std::is_same<T, bool>::value) {
    const int truth = PyObject_IsTrue(p);
    if (truth < 0) throw nb::python_error();
    return static_cast<T>(truth);
  }
  if (std::is_integral<T>::value && !PyFloat_Check(p)) {
    const long long v = PyLong_AsLongLong(p);
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    check_fits<T>(static_cast<double>(v), false);
    return static_cast<T>(v);
  }
  const double v = PyFloat_AsDouble(p);
  if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
  check_fits<T>(v, true);
  return static_cast<T>(v);
}

// Refuses leaves that are no numbers (a dict, a str in a list, a Tensor of several elements).
void check_numbers(const std::vector<PyObject*>& leaves) {
  for (PyObject* p : leaves) {
    const bool number =
        PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p) ||
        (is_tensor(p) && nb::cast<const Tensor&>(nb::handle(p)).numel() == 1) ||
        (!is_tensor(p) && (PyIndex_Check(p) || PyObject_HasAttrString(p, "__float__")));
    if (!number) {
      throw nb::type_error(
          (std::string("tensor: expected numbers, got an object of type ") + Py_TYPE(p)->tp_name)
              .c_str());
    }
  }
}

Tensor with_dtype(const Tensor& t, std::optional<ScalarType> dtype) {
  return dtype && *dtype != t.scalar_type() ? gradgen::to(t, *dtype) : t;
}

Tensor make_from_data(nb::handle data, std::optional<ScalarType> dtype) {
  if (is_tensor(data.ptr()) && nb::inst_ready(data)) {  // a copy without history, as torch's
    autograd::NoGradGuard no_grad;
    return with_dtype(nb::cast<const Tensor&>(data).detach().clone(), dtype);
  }
  if (std::optional<Tensor> copy = copy_of_array(data)) return with_dtype(*copy, dtype);
  std::vector<int64_t> shape;
  std::vector<PyObject*> leaves;
  std::vector<nb::object> keep;
  collect(data, 0, shape, leaves, keep);
  check_numbers(leaves);
  const ScalarType type = dtype ? *dtype : infer_dtype(leaves);
  Tensor out = make_tensor(shape, type);
  internal::dispatch_all(type, [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* p = out.data_ptr<scalar_t>();
    for (size_t i = 0; i < leaves.size(); ++i) p[i] = leaf_value<scalar_t>(leaves[i]);
  });
  return out;
}

Tensor tensor_of(nb::handle data, std::optional<ScalarType> dtype, bool requires_grad) {
  Tensor t = make_from_data(data, dtype);
  if (requires_grad) t.set_requires_grad(true);
  return t;
}

bool to_bool(const Tensor& t) {
  if (t.numel() != 1) {
    throw std::runtime_error(std::string("Boolean value of Tensor with ") +
                             (t.numel() == 0 ? "no values" : "more than one value") +
                             " is ambiguous (shape " + shape_str(t.sizes()) +
                             "; use .any() or .all())");
  }
  return t.item<bool>();
}

int64_t to_index(const Tensor& t) {
  // As PyTorch: integer and bool tensors only (a float is no index).
  if (!is_integral(t.scalar_type(), /*include_bool=*/true) || t.numel() != 1) {
    throw nb::type_error("only integer tensors of a single element can be converted to an index");
  }
  return t.item<int64_t>();
}

}  // namespace

void init_tensor_conversion(nb::module_& m) {
  tensor_class_of(m)
      .def("item", &item, "The only element as a Python number.")
      .def(
          "tolist", [](const Tensor& t) { return to_list(t, 0, 0); },
          "The elements as nested Python lists (a number for a 0-dim tensor).")
      // Python's conversions, with PyTorch's error types and messages.
      .def("__bool__", &to_bool)
      .def("__float__",
           [](const Tensor& t) {
             check_one_element(t);
             return t.item<double>();
           })
      .def("__int__",
           [](const Tensor& t) {
             check_one_element(t);
             return t.item<int64_t>();
           })
      .def("__index__", &to_index);
  m.def("tensor", &tensor_of, "data"_a, nb::kw_only(), "dtype"_a = nb::none(),
        "requires_grad"_a = false,
        "A tensor holding a copy of data: a number, nested sequences of numbers, a NumPy array or "
        "a Tensor. Python floats give the default dtype (get_default_dtype(), float32 unless "
        "changed), ints int64, bools bool.");
  m.def(
      "is_tensor", [](nb::handle o) { return is_tensor(o.ptr()); }, "obj"_a);
}

}  // namespace python
}  // namespace gradgen
