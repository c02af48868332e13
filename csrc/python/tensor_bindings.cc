// gradgen.Tensor: the class, its properties, Python's operators (direct calls into the
// generated C++ API: no Python code on the hot path), indexing, printing and NumPy interop.
// Methods of ops declared with `variants: method` (t.sum(), t.view(...)) come from the
// generated bindings (bind_generated), not from here.
#include <nanobind/ndarray.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/basic_ops.h"
#include "csrc/autograd/function.h"
#include "csrc/autograd/grad_mode.h"
#include "csrc/autograd/hooks.h"
#include "csrc/core_kernels.h"
#include "csrc/generated/VariableType.h"
#include "csrc/python/bind.h"
#include "csrc/python/bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

// --- printing -------------------------------------------------------------------------------

// PyTorch's repr: "tensor([1.0000, 2.0000], dtype=gradgen.float32, requires_grad=True)". The
// numbers come from Tensor::to_string of a detached alias (which prints no autograd suffix).
std::string tensor_repr(const Tensor& t) {
  if (!t.defined()) return "tensor(undefined)";
  std::string body = t.detach().to_string();
  // Tensor::to_string ends with ", dtype=<Name>)" for every dtype but Double, else ")".
  std::string cut = ")";
  if (t.scalar_type() != ScalarType::Double) {
    cut = std::string(", dtype=") + gradgen::to_string(t.scalar_type()) + ")";
  }
  if (body.size() >= cut.size() && body.compare(body.size() - cut.size(), cut.size(), cut) == 0) {
    body.resize(body.size() - cut.size());
  }
  if (t.scalar_type() == ScalarType::Bool) {  // Python's spelling, as torch prints them
    for (size_t at = body.find("true"); at != std::string::npos; at = body.find("true", at)) {
      body[at] = 'T';
    }
    for (size_t at = body.find("false"); at != std::string::npos; at = body.find("false", at)) {
      body[at] = 'F';
    }
  }
  if (t.scalar_type() != ScalarType::Double) {
    body += std::string(", dtype=gradgen.") + dtype_name(t.scalar_type());
  }
  if (t.grad_fn()) {
    body += ", grad_fn=<" + t.grad_fn()->name() + ">";
  } else if (t.requires_grad()) {
    body += ", requires_grad=True";
  }
  return body + ")";
}

// --- element access -------------------------------------------------------------------------

const char* element_address(const Tensor& t, int64_t offset) {
  const TensorImpl& impl = *t.unsafe_impl();
  return static_cast<const char*>(impl.storage->data) +
         (impl.storage_offset + offset) * static_cast<int64_t>(element_size(impl.dtype));
}

PyObject* element_to_python(const char* p, ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Bool: return PyBool_FromLong(*reinterpret_cast<const bool*>(p) ? 1 : 0);
    case ScalarType::Long: return PyLong_FromLongLong(*reinterpret_cast<const int64_t*>(p));
    case ScalarType::Float: return PyFloat_FromDouble(*reinterpret_cast<const float*>(p));
    case ScalarType::Double: return PyFloat_FromDouble(*reinterpret_cast<const double*>(p));
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

// --- type names -----------------------------------------------------------------------------

// Tensor.type(): PyTorch's legacy type names with gradgen's prefix ('torch.FloatTensor' is
// 'gradgen.FloatTensor'). Both prefixes are read back, so ported code's strings work.
const char* legacy_type_stem(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "FloatTensor";
    case ScalarType::Double: return "DoubleTensor";
    case ScalarType::Long: return "LongTensor";
    case ScalarType::Bool: return "BoolTensor";
  }
  return "Tensor";
}

std::string tensor_type_name(const Tensor& t) {
  return std::string("gradgen.") + legacy_type_stem(t.scalar_type());
}

nb::object tensor_as_type(nb::pointer_and_handle<Tensor> self, nb::handle type, bool) {
  ScalarType target;
  if (PyUnicode_Check(type.ptr())) {
    const std::string name = nb::cast<std::string>(type);
    bool found = false;
    for (ScalarType t :
         {ScalarType::Float, ScalarType::Double, ScalarType::Long, ScalarType::Bool}) {
      const std::string stem = legacy_type_stem(t);
      if (name == "gradgen." + stem || name == "torch." + stem) {
        target = t;
        found = true;
      }
    }
    if (!found) {
      throw nb::value_error(("invalid type: '" + name +
                             "' (expected 'gradgen.FloatTensor', 'gradgen.DoubleTensor', "
                             "'gradgen.LongTensor' or 'gradgen.BoolTensor')")
                                .c_str());
    }
  } else if (!dtype_from_object(type.ptr(), false, &target)) {
    throw nb::type_error(("type(): expected a dtype or a type name (str), got " +
                          std::string(Py_TYPE(type.ptr())->tp_name))
                             .c_str());
  }
  if (target == self.p->scalar_type()) return nb::borrow(self.h);  // as PyTorch: itself
  return nb::cast(gradgen::to(*self.p, target));
}

// --- transposes -----------------------------------------------------------------------------

void warn(const std::string& message) {
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) < 0) throw nb::python_error();
}

// PyTorch's deprecation: the transposes of a 0-D tensor are the identity, with a warning.
void warn_zero_dim(const Tensor& t, const char* name) {
  if (t.dim() == 0) {
    warn(std::string("Tensor.") + name +
         " is deprecated on 0-D tensors (as in PyTorch); it is the identity on them.");
  }
}

Tensor numpy_transpose(const Tensor& t) {
  const int64_t n = t.dim();
  warn_zero_dim(t, "T");
  if (n != 2 && n != 0) {
    warn(
        "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
        "deprecated (as in PyTorch). Consider `x.mT` to transpose batches of matrices or "
        "`x.permute(*reversed(range(x.ndim)))` to reverse the dimensions of a tensor.");
  }
  std::vector<int64_t> dims(static_cast<size_t>(n));
  for (int64_t d = 0; d < n; ++d) dims[static_cast<size_t>(d)] = n - 1 - d;
  return gradgen::permute(t, dims);
}

Tensor matrix_transpose(const Tensor& t, const char* name) {
  if (t.dim() == 0) {
    warn_zero_dim(t, name);
    return gradgen::permute(t, std::vector<int64_t>());
  }
  if (t.dim() < 2) {
    throw std::runtime_error(std::string("tensor.") + name +
                             " is only supported on matrices or batches of matrices. Got " +
                             std::to_string(t.dim()) + "-D tensor.");
  }
  return gradgen::transpose(t, -2, -1);
}

// --- NumPy ----------------------------------------------------------------------------------

nb::dlpack::dtype dlpack_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return nb::dtype<float>();
    case ScalarType::Double: return nb::dtype<double>();
    case ScalarType::Long: return nb::dtype<int64_t>();
    case ScalarType::Bool: return nb::dtype<bool>();
  }
  return nb::dtype<double>();
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
  nb::handle owner = self.h;
  nb::object copy_owner;
  if (t.requires_grad()) {
    if (!force) {
      throw std::runtime_error(
          "numpy: can't call numpy() on a Tensor that requires grad; use tensor.detach().numpy() "
          "instead");
    }
  }
  if (force) {  // torch: a copy without history, not sharing memory
    autograd::NoGradGuard no_grad;
    t = t.detach().clone();
    copy_owner = nb::cast(t);
    owner = copy_owner;
  }
  const size_t ndim = static_cast<size_t>(t.dim());
  std::vector<size_t> shape(ndim);
  std::vector<int64_t> strides(ndim);
  for (size_t d = 0; d < ndim; ++d) {
    shape[d] = static_cast<size_t>(t.sizes()[d]);
    strides[d] = t.strides()[d];
  }
  void* data = const_cast<char*>(element_address(t, 0));
  nb::ndarray<nb::numpy> array(data, ndim, shape.data(), owner, strides.data(),
                               dlpack_dtype(t.scalar_type()));
  return array.cast(nb::rv_policy::reference);
}

}  // namespace

namespace {

// gradgen's strides are never negative (a[::-1]); as torch.from_numpy, refuse rather than share
// a copy. tensor(a), which copies anyway, has NumPy copy such arrays first (make_from_data).
[[noreturn]] void throw_negative_strides() {
  throw nb::value_error(
      "from_numpy: at least one stride in the given numpy array is negative, and tensors with "
      "negative strides are not supported (make a copy first: array.copy())");
}

template <typename Array>
Tensor wrap_array(const Array& array, nb::handle source) {
  ScalarType dtype;
  const nb::dlpack::dtype dt = array.dtype();
  if (dt == nb::dtype<float>()) {
    dtype = ScalarType::Float;
  } else if (dt == nb::dtype<double>()) {
    dtype = ScalarType::Double;
  } else if (dt == nb::dtype<int64_t>()) {
    dtype = ScalarType::Long;
  } else if (dt == nb::dtype<bool>()) {
    dtype = ScalarType::Bool;
  } else {
    throw nb::type_error(
        "from_numpy: expected an array of float32, float64, int64 or bool; gradgen has no other "
        "dtypes (convert it first, e.g. a.astype(numpy.float64))");
  }
  std::vector<int64_t> sizes(array.ndim()), strides(array.ndim());
  for (size_t d = 0; d < array.ndim(); ++d) {
    sizes[d] = static_cast<int64_t>(array.shape(d));
    strides[d] = array.stride(d);
    if (strides[d] < 0) throw_negative_strides();
  }
  (void)source;
  // The storage keeps a reference to the array until the last tensor over it dies.
  auto* keep = new Array(array);
  auto release = [](void* context) noexcept {
    nb::gil_scoped_acquire gil;
    delete static_cast<Array*>(context);
  };
  return from_blob(const_cast<void*>(static_cast<const void*>(array.data())), sizes, strides, dtype,
                   release, keep);
}

}  // namespace

namespace {

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
// (float16, int32, complex, object, datetime64, ...) and the non-native byte orders, before
// nanobind's ndarray import sees them: it must not be handed what it cannot describe
// (datetime64 crashed it).
void check_numpy_dtype(const char* op, nb::handle array) {
  nb::object dtype = array.attr("dtype");
  const std::string kind = nb::cast<std::string>(dtype.attr("kind"));
  const int64_t itemsize = nb::cast<int64_t>(dtype.attr("itemsize"));
  const bool supported = (kind == "f" && (itemsize == 4 || itemsize == 8)) ||
                         (kind == "i" && itemsize == 8) || (kind == "b" && itemsize == 1);
  if (!supported) {
    throw nb::type_error((std::string(op) + ": expected an array of float32, float64, int64 or " +
                          "bool, got numpy." + nb::cast<std::string>(nb::str(dtype.attr("name"))) +
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

}  // namespace

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
    if (nb::cast<int64_t>(stride) < 0) throw_negative_strides();
  }
  nb::ndarray<nb::device::cpu> writable;
  if (nb::try_cast(source, writable)) return wrap_array(writable, source);
  nb::ndarray<nb::ro, nb::device::cpu> read_only;
  if (nb::try_cast(source, read_only)) {
    // As torch.from_numpy: shared all the same, with a warning (writes are the caller's risk).
    if (PyErr_WarnEx(PyExc_UserWarning,
                     "from_numpy: the array is not writable; the tensor shares its memory, and "
                     "writing to the tensor is undefined behavior (copy the array first)",
                     1) < 0) {
      throw nb::python_error();
    }
    return wrap_array(read_only, source);
  }
  throw nb::type_error((std::string("from_numpy: expected a CPU array (numpy.ndarray), got ") +
                        Py_TYPE(source.ptr())->tp_name)
                           .c_str());
}

namespace {

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

// The dtype PyTorch infers from Python numbers: float if any is, else int, else bool (gradgen's
// default floating type is float64, the dtype its kernels compute in).
ScalarType infer_dtype(const std::vector<PyObject*>& leaves) {
  bool any_float = false, any_int = false;
  for (PyObject* p : leaves) {
    if (PyBool_Check(p)) continue;
    if (is_tensor(p)) {
      ScalarType t = nb::cast<const Tensor&>(nb::handle(p)).scalar_type();
      if (is_floating_point(t)) any_float = true;
      if (t == ScalarType::Long) any_int = true;
      continue;
    }
    if (PyLong_Check(p) || (!PyFloat_Check(p) && PyIndex_Check(p))) {
      any_int = true;
    } else {
      any_float = true;
    }
  }
  if (any_float || leaves.empty()) return ScalarType::Double;
  return any_int ? ScalarType::Long : ScalarType::Bool;
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
    return static_cast<T>(v);
  }
  const double v = PyFloat_AsDouble(p);
  if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return static_cast<T>(v);
}

Tensor make_from_data(nb::handle data, std::optional<ScalarType> dtype) {
  if (is_tensor(data.ptr()) && nb::inst_ready(data)) {  // a copy without history, as torch's
    autograd::NoGradGuard no_grad;
    Tensor t = nb::cast<const Tensor&>(data).detach().clone();
    return dtype && *dtype != t.scalar_type() ? gradgen::to(t, *dtype) : t;
  }
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
  if (nb::hasattr(data, "__array_interface__") || nb::hasattr(data, "__dlpack__")) {
    nb::ndarray<nb::ro, nb::device::cpu> array;
    if (nb::try_cast(data, array)) {
      autograd::NoGradGuard no_grad;
      Tensor t = wrap_array(array, data).clone();
      return dtype && *dtype != t.scalar_type() ? gradgen::to(t, *dtype) : t;
    }
  }
  std::vector<int64_t> shape;
  std::vector<PyObject*> leaves;
  std::vector<nb::object> keep;
  collect(data, 0, shape, leaves, keep);
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
  const ScalarType type = dtype ? *dtype : infer_dtype(leaves);
  Tensor out = make_tensor(shape, type);
  internal::dispatch_all(type, [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* p = out.data_ptr<scalar_t>();
    for (size_t i = 0; i < leaves.size(); ++i) p[i] = leaf_value<scalar_t>(leaves[i]);
  });
  return out;
}

// --- comparisons ----------------------------------------------------------------------------

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };

template <typename T>
bool compare(T a, T b, Cmp op) {
  switch (op) {
    case Cmp::Eq: return a == b;
    case Cmp::Ne: return a != b;
    case Cmp::Lt: return a < b;
    case Cmp::Le: return a <= b;
    case Cmp::Gt: return a > b;
    case Cmp::Ge: return a >= b;
  }
  return false;
}

const char* cmp_name(Cmp op) {
  switch (op) {
    case Cmp::Eq: return "eq";
    case Cmp::Ne: return "ne";
    case Cmp::Lt: return "lt";
    case Cmp::Le: return "le";
    case Cmp::Gt: return "gt";
    case Cmp::Ge: return "ge";
  }
  return "";
}

// Element-wise comparison with NumPy broadcasting; a Bool tensor without history. Long against
// Long compares exactly, anything else as float64.
Tensor compare_tensors(const Tensor& a, const Tensor& b, Cmp op) {
  const int64_t ndim = std::max(a.dim(), b.dim());
  DimVector sizes(ndim), sa(ndim, 0), sb(ndim, 0);
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t da = i - (ndim - a.dim()), db = i - (ndim - b.dim());
    const int64_t na = da >= 0 ? a.sizes()[da] : 1, nb_ = db >= 0 ? b.sizes()[db] : 1;
    if (na != nb_ && na != 1 && nb_ != 1) {
      throw std::invalid_argument(std::string(cmp_name(op)) + ": shapes " + shape_str(a.sizes()) +
                                  " and " + shape_str(b.sizes()) +
                                  " cannot be broadcast together (dim " + std::to_string(i - ndim) +
                                  ": " + std::to_string(na) + " vs " + std::to_string(nb_) + ")");
    }
    sizes[i] = na == 1 ? nb_ : na;
    if (da >= 0 && na != 1) sa[i] = a.strides()[da];
    if (db >= 0 && nb_ != 1) sb[i] = b.strides()[db];
  }
  Tensor out = make_tensor(IntArrayRef(sizes.data(), sizes.size()), ScalarType::Bool);
  bool* o = out.data_ptr<bool>();
  const char* pa = element_address(a, 0);
  const char* pb = element_address(b, 0);
  const ScalarType ta = a.scalar_type(), tb = b.scalar_type();
  const int64_t ea = static_cast<int64_t>(element_size(ta)),
                eb = static_cast<int64_t>(element_size(tb));
  const IntArrayRef shape(sizes.data(), sizes.size());
  const IntArrayRef stra(sa.data(), sa.size()), strb(sb.data(), sb.size());
  int64_t k = 0;
  if (ta == ScalarType::Long && tb == ScalarType::Long) {
    internal::for_each_offset(shape, stra, strb, [&](int64_t oa, int64_t ob) {
      o[k++] = compare(*reinterpret_cast<const int64_t*>(pa + oa * ea),
                       *reinterpret_cast<const int64_t*>(pb + ob * eb), op);
    });
  } else {
    internal::for_each_offset(shape, stra, strb, [&](int64_t oa, int64_t ob) {
      o[k++] = compare(internal::read_element<double>(pa + oa * ea, ta),
                       internal::read_element<double>(pb + ob * eb, tb), op);
    });
  }
  return out;
}

Tensor scalar_tensor(const Scalar& s, const Tensor& like) {
  // A 0-dim tensor of `like`'s dtype, unless the number needs a wider one (2.5 vs an int64: the
  // default float dtype, float32, as PyTorch's wrapped numbers).
  ScalarType type = like.scalar_type();
  if (s.is_floating_point() && !is_floating_point(type)) type = ScalarType::Float;  // default dtype
  if (s.is_integral() && type == ScalarType::Bool) type = ScalarType::Long;
  return full({}, s, type);
}

Tensor compare_scalar(const Tensor& a, const Scalar& s, Cmp op) {
  return compare_tensors(a, scalar_tensor(s, a), op);
}

// --- indexing -------------------------------------------------------------------------------

[[noreturn]] void index_error(const std::string& message) {
  throw nb::index_error(message.c_str());
}

bool consumes_dim(PyObject* item) { return item != Py_None && item != Py_Ellipsis; }

Tensor index(const Tensor& self, nb::handle key) {
  std::vector<PyObject*> items;
  if (PyTuple_Check(key.ptr())) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(key.ptr()); ++i) {
      items.push_back(PyTuple_GET_ITEM(key.ptr(), i));
    }
  } else {
    items.push_back(key.ptr());
  }
  int64_t consumed = 0;
  for (PyObject* item : items) consumed += consumes_dim(item) ? 1 : 0;
  if (consumed > self.dim()) {
    index_error("too many indices for tensor of dimension " + std::to_string(self.dim()));
  }
  Tensor result = self;
  int64_t dim = 0;
  bool seen_ellipsis = false;
  for (PyObject* item : items) {
    if (item == Py_None) {
      result = gradgen::unsqueeze(result, dim);
      ++dim;
    } else if (item == Py_Ellipsis) {
      if (seen_ellipsis) index_error("an index can only have a single ellipsis ('...')");
      seen_ellipsis = true;
      dim += self.dim() - consumed;
    } else if (PySlice_Check(item)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) throw nb::python_error();
      const int64_t size = result.size(dim);
      const Py_ssize_t length = PySlice_AdjustIndices(size, &start, &stop, step);
      if (step != 1) {
        throw nb::value_error("gradgen: slices with a step other than 1 are not supported");
      }
      if (start != 0 || length != size) result = gradgen::narrow(result, dim, start, length);
      ++dim;
    } else if (!PyBool_Check(item) && !is_tensor(item) && PyIndex_Check(item)) {
      const Py_ssize_t i = PyNumber_AsSsize_t(item, PyExc_IndexError);
      if (i == -1 && PyErr_Occurred()) throw nb::python_error();
      const int64_t size = result.size(dim);
      if (i < -size || i >= size) {
        index_error("index " + std::to_string(i) + " is out of bounds for dimension " +
                    std::to_string(dim) + " with size " + std::to_string(size));
      }
      result = gradgen::select(result, dim, i);
    } else {
      throw nb::type_error(
          (std::string("only integers, slices (`:`), ellipsis (`...`) and None are valid "
                       "indices (got ") +
           Py_TYPE(item)->tp_name + ")")
              .c_str());
    }
  }
  return result;
}

// x[key] = value: copies value (a Tensor, broadcast, or a number) into the view x[key], with
// autograd as torch: the copy is an in-place op on the view (CopySlices on x's history).
void set_index(const Tensor& self, nb::handle key, nb::handle value) {
  const bool value_is_tensor = is_tensor(value.ptr()) && nb::inst_ready(value);
  Tensor src;
  if (value_is_tensor) {
    src = nb::cast<Tensor>(value);
  } else {
    Scalar s;
    if (!nb::try_cast(value, s)) {
      throw nb::type_error((std::string("can't assign a ") + Py_TYPE(value.ptr())->tp_name +
                            " to a Tensor; expected a Tensor or a number")
                               .c_str());
    }
    src = full({}, s, self.scalar_type());
  }
  Tensor view = index(self, key);
  if (src.scalar_type() != view.scalar_type()) src = gradgen::to(src, view.scalar_type());
  if (src.unsafe_impl()->storage.get() == view.unsafe_impl()->storage.get()) src = src.clone();
  if (!src.sizes().equals(view.sizes())) src = gradgen::expand(src, view.sizes());
  autograd::copy_into(view, src);
}

// --- hooks ----------------------------------------------------------------------------------

// Calls a Python hook with the gradient; None keeps it, a Tensor replaces it.
struct PythonHook {
  nb::object fn;
  Tensor operator()(const Tensor& grad) const {
    nb::gil_scoped_acquire gil;
    nb::object result = fn(grad);
    if (result.is_none()) return Tensor();
    if (!is_tensor(result.ptr())) {
      throw nb::type_error(
          (std::string("hook: expected the hook to return None or a Tensor, got ") +
           Py_TYPE(result.ptr())->tp_name)
              .c_str());
    }
    return nb::cast<Tensor>(result);
  }
};

// What register_hook returns: handle.remove() unregisters the hook (torch's RemovableHandle).
struct RemovableHandle {
  std::shared_ptr<autograd::TensorHooks> hooks;
  unsigned id = 0;
  void remove() {
    if (!hooks) return;
    auto& fns = hooks->fns;
    for (auto it = fns.begin(); it != fns.end(); ++it) {
      if (it->first == id) {
        fns.erase(it);
        break;
      }
    }
    hooks.reset();
  }
};

// In-place updates: `x += y` runs add_ and returns the same Python object.
template <typename F>
nb::object inplace(nb::pointer_and_handle<Tensor> self, F&& f) {
  f(*self.p);
  return nb::borrow(self.h);
}

}  // namespace

void bind_tensor(nb::module_& m) {
  auto cls = nb::class_<Tensor>(m, "Tensor",
                                "A dense CPU tensor with autograd (gradgen.tensor, gradgen.zeros, "
                                "... make them).");
  // Users know it as gradgen.Tensor: so do reprs and the signatures in TypeErrors.
  cls.attr("__module__") = "gradgen";
  set_tensor_type(cls.ptr());

  cls
      // Shape and data.
      .def_prop_ro("shape",
                   [](const Tensor& t) {
                     return IntList(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()));
                   })
      .def("size",
           [](const Tensor& t) {
             return IntList(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()));
           })
      .def(
          "size", [](const Tensor& t, int64_t dim) { return t.size(dim); }, "dim"_a)
      .def("stride",
           [](const Tensor& t) {
             return IntList(std::vector<int64_t>(t.strides().begin(), t.strides().end()));
           })
      .def(
          "stride", [](const Tensor& t, int64_t dim) { return t.stride(dim); }, "dim"_a)
      .def("dim", &Tensor::dim)
      .def_prop_ro("ndim", &Tensor::dim)
      .def("numel", &Tensor::numel)
      .def("element_size", [](const Tensor& t) { return element_size(t.scalar_type()); })
      .def_prop_ro("dtype", &Tensor::scalar_type)
      .def_prop_ro("device", [](const Tensor&) { return Device::CPU; })
      .def_prop_ro("layout", [](const Tensor&) { return Layout::Strided; })
      .def("is_contiguous", &Tensor::is_contiguous)
      .def("is_floating_point", [](const Tensor& t) { return is_floating_point(t.scalar_type()); })
      .def("storage_offset", &Tensor::storage_offset)
      .def(
          "data_ptr",
          [](const Tensor& t) { return reinterpret_cast<uintptr_t>(element_address(t, 0)); },
          "The address of element 0, as an int (to check that memory is shared).")
      .def_prop_ro("_version", &Tensor::version)
      .def_prop_ro("is_view", &Tensor::is_view)
      .def("item", &item, "The only element as a Python number.")
      .def(
          "tolist", [](const Tensor& t) { return to_list(t, 0, 0); },
          "The elements as nested Python lists (a number for a 0-dim tensor).")
      .def("numpy", &to_numpy, "force"_a = false,
           "A NumPy array sharing this tensor's memory (force=True: a copy, allowed with grad).")
      .def(
          "__array__",
          [](nb::pointer_and_handle<Tensor> self, nb::handle dtype, nb::handle copy) {
            nb::object array = to_numpy(self, false);
            if (!dtype.is_none()) array = array.attr("astype")(dtype, "copy"_a = false);
            if (!copy.is_none() && nb::cast<bool>(copy)) array = array.attr("copy")();
            return array;
          },
          "dtype"_a = nb::none(), "copy"_a = nb::none())
      .def("__dlpack__",
           [](nb::pointer_and_handle<Tensor> self, nb::kwargs kwargs) {
             // The DLPack protocol (numpy.from_dlpack, torch.from_dlpack): no copy; the
             // capsule keeps this tensor alive (nanobind makes it).
             const Tensor& t = *self.p;
             if (t.requires_grad()) {
               throw std::runtime_error(
                   "__dlpack__: can't export a Tensor that requires grad; use "
                   "tensor.detach() first");
             }
             const size_t ndim = static_cast<size_t>(t.dim());
             std::vector<size_t> shape(ndim);
             std::vector<int64_t> strides(ndim);
             for (size_t d = 0; d < ndim; ++d) {
               shape[d] = static_cast<size_t>(t.sizes()[d]);
               strides[d] = t.strides()[d];
             }
             nb::ndarray<> array(const_cast<char*>(element_address(t, 0)), ndim, shape.data(),
                                 self.h, strides.data(), dlpack_dtype(t.scalar_type()),
                                 nb::device::cpu::value);
             (void)kwargs;  // stream / max_version / dl_device / copy: a CPU, unversioned capsule
             return array.cast(nb::rv_policy::reference);  // a "dltensor" capsule
           })
      .def("__dlpack_device__", [](const Tensor&) { return nb::make_tuple(1, 0); })  // kDLCPU
      .def("detach", &Tensor::detach, "A tensor sharing the data, without autograd history.")
      .def_prop_ro("data", &Tensor::detach)
      .def("__repr__", &tensor_repr)
      .def("__len__",
           [](const Tensor& t) {
             if (t.dim() == 0) throw nb::type_error("len() of a 0-d tensor");
             return t.size(0);
           })
      .def("__getitem__", &index, nb::arg("key").none())
      .def("__setitem__", &set_index, nb::arg("key").none(), nb::arg("value"))
      .def("__iter__",
           [](const Tensor& t) {
             if (t.dim() == 0) throw nb::type_error("iteration over a 0-d tensor");
             nb::list items;
             for (int64_t i = 0; i < t.size(0); ++i) items.append(gradgen::select(t, 0, i));
             return nb::iter(items);
           })
      // Python's conversions, with PyTorch's error types and messages.
      .def("__bool__",
           [](const Tensor& t) {
             if (t.numel() != 1) {
               throw std::runtime_error(std::string("Boolean value of Tensor with ") +
                                        (t.numel() == 0 ? "no values" : "more than one value") +
                                        " is ambiguous (shape " + shape_str(t.sizes()) +
                                        "; use .any() or .all())");
             }
             return t.item<bool>();
           })
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
      .def("__index__",
           [](const Tensor& t) {
             // As PyTorch: integer and bool tensors only (a float is no index).
             if ((t.scalar_type() != ScalarType::Long && t.scalar_type() != ScalarType::Bool) ||
                 t.numel() != 1) {
               throw nb::type_error(
                   "only integer tensors of a single element can be converted to an index");
             }
             return t.item<int64_t>();
           })
      .def("type", &tensor_type_name,
           "The type's name, as PyTorch's 'torch.FloatTensor': 'gradgen.FloatTensor', "
           "'gradgen.DoubleTensor', 'gradgen.LongTensor' or 'gradgen.BoolTensor'.")
      .def("type", &tensor_as_type, "dtype"_a, "non_blocking"_a = false,
           "This tensor converted to `dtype` (a dtype or a type name such as "
           "'gradgen.DoubleTensor'; PyTorch's 'torch.DoubleTensor' is accepted too); the tensor "
           "itself when it has that type already.")
      // Transposes (a real tensor is its own conjugate: H and mH are T and mT of matrices).
      .def_prop_ro("T", &numpy_transpose,
                   "The dims reversed (a matrix transposed); PyTorch deprecates it for other "
                   "than 2 dims, and so warns.")
      .def_prop_ro(
          "mT", [](const Tensor& t) { return matrix_transpose(t, "mT"); },
          "The last two dims swapped (each matrix of a batch transposed).")
      .def_prop_ro(
          "H",
          [](const Tensor& t) {
            if (t.dim() == 0) {
              warn_zero_dim(t, "H");
              return gradgen::permute(t, std::vector<int64_t>());
            }
            if (t.dim() != 2) {
              throw std::runtime_error(
                  "tensor.H is only supported on matrices (2-D tensors). Got " +
                  std::to_string(t.dim()) + "-D tensor." +
                  (t.dim() > 2 ? " For batches of matrices, consider using tensor.mH" : ""));
            }
            return numpy_transpose(t);
          },
          "The conjugate transpose of a matrix (its transpose: gradgen's tensors are real).")
      .def_prop_ro(
          "mH", [](const Tensor& t) { return matrix_transpose(t, "mH"); },
          "The conjugate transpose of each matrix of a batch (mT: the tensors are real).")
      .def("__hash__", [](nb::handle self) { return reinterpret_cast<intptr_t>(self.ptr()) >> 4; })

      // Autograd.
      .def_prop_rw("requires_grad", &Tensor::requires_grad,
                   [](Tensor& t, bool requires_grad) { t.set_requires_grad(requires_grad); })
      .def(
          "requires_grad_",
          [](nb::pointer_and_handle<Tensor> self, bool requires_grad) {
            return inplace(self, [&](Tensor& t) { t.set_requires_grad(requires_grad); });
          },
          "requires_grad"_a = true)
      .def_prop_rw(
          "grad", [](const Tensor& t) { return t.grad(); },
          [](Tensor& t, std::optional<Tensor> grad) {
            if (grad && grad->defined() &&
                (!grad->sizes().equals(t.sizes()) || grad->scalar_type() != t.scalar_type())) {
              throw std::runtime_error("grad: assigned grad of shape " + shape_str(grad->sizes()) +
                                       " and dtype " + gradgen::to_string(grad->scalar_type()) +
                                       " to a tensor of shape " + shape_str(t.sizes()) +
                                       " and dtype " + gradgen::to_string(t.scalar_type()));
            }
            t.mutable_grad() = grad.value_or(Tensor());
          },
          nb::arg("grad").none())
      .def_prop_ro("grad_fn", [](const Tensor& t) { return t.grad_fn(); })
      .def_prop_ro("is_leaf", &Tensor::is_leaf)
      .def_prop_ro("retains_grad", &Tensor::retains_grad)
      .def("retain_grad", &Tensor::retain_grad)
      .def_prop_ro("output_nr", &Tensor::output_nr)
      .def(
          "backward",
          [](const Tensor& t, std::optional<Tensor> gradient, std::optional<bool> retain_graph,
             bool create_graph) {
            t.backward(gradient.value_or(Tensor()), retain_graph.value_or(create_graph),
                       create_graph);
          },
          "gradient"_a = nb::none(), "retain_graph"_a = nb::none(), "create_graph"_a = false,
          "Accumulates the gradient of this tensor into the .grad of the graph's leaves.")
      .def(
          "register_hook",
          [](const Tensor& t, nb::callable fn) {
            const unsigned id = t.register_hook(PythonHook{std::move(fn)});
            return RemovableHandle{t.unsafe_impl()->hooks, id};
          },
          "hook"_a,
          "Calls hook(grad) whenever this tensor's gradient is computed; a Tensor it returns "
          "replaces the gradient. Returns a handle whose remove() unregisters it.")

      // Operators: one C++ call each into the generated differentiable API.
      .def(
          "__add__", [](const Tensor& a, const Tensor& b) { return gradgen::add(a, b); },
          nb::is_operator())
      .def(
          "__add__", [](const Tensor& a, const Scalar& b) { return gradgen::add(a, b); },
          nb::is_operator())
      .def(
          "__radd__", [](const Tensor& a, const Scalar& b) { return gradgen::add(a, b); },
          nb::is_operator())
      .def(
          "__sub__", [](const Tensor& a, const Tensor& b) { return gradgen::sub(a, b); },
          nb::is_operator())
      .def(
          "__sub__",
          [](const Tensor& a, const Scalar& b) {
            // PyTorch's sub: a bool number is a bool operand, which subtraction refuses.
            return gradgen::sub(a, b.is_boolean() ? full({}, b, ScalarType::Bool)
                                                  : scalar_tensor(b, a));
          },
          nb::is_operator())
      .def(
          "__rsub__",
          [](const Tensor& a, const Scalar& b) { return gradgen::add(gradgen::neg(a), b); },
          nb::is_operator())
      .def(
          "__mul__", [](const Tensor& a, const Tensor& b) { return gradgen::mul(a, b); },
          nb::is_operator())
      .def(
          "__mul__", [](const Tensor& a, const Scalar& b) { return gradgen::mul(a, b); },
          nb::is_operator())
      .def(
          "__rmul__", [](const Tensor& a, const Scalar& b) { return gradgen::mul(a, b); },
          nb::is_operator())
      .def(
          "__truediv__", [](const Tensor& a, const Tensor& b) { return gradgen::div(a, b); },
          nb::is_operator())
      .def(
          "__truediv__", [](const Tensor& a, const Scalar& b) { return gradgen::div(a, b); },
          nb::is_operator())
      .def(
          "__rtruediv__",
          [](const Tensor& a, const Scalar& b) { return gradgen::mul(gradgen::reciprocal(a), b); },
          nb::is_operator())
      .def(
          "__matmul__", [](const Tensor& a, const Tensor& b) { return gradgen::matmul(a, b); },
          nb::is_operator())
      .def(
          "__pow__", [](const Tensor& a, const Scalar& b) { return gradgen::pow(a, b); },
          nb::is_operator())
      .def(
          "__pow__", [](const Tensor& a, const Tensor& b) { return gradgen::pow(a, b); },
          nb::is_operator())
      .def(
          "__rpow__",
          [](const Tensor& a, const Scalar& b) { return gradgen::pow(scalar_tensor(b, a), a); },
          nb::is_operator())
      .def("__neg__", [](const Tensor& a) { return gradgen::neg(a); })
      .def("__pos__", [](nb::handle self) { return nb::borrow(self); })
      .def("__abs__", [](const Tensor& a) { return gradgen::abs(a); })
      .def(
          "__iadd__",
          [](nb::pointer_and_handle<Tensor> s, const Tensor& b) {
            return inplace(s, [&](Tensor& a) { gradgen::add_(a, b); });
          },
          nb::is_operator())
      .def(
          "__iadd__",
          [](nb::pointer_and_handle<Tensor> s, const Scalar& b) {
            return inplace(s, [&](Tensor& a) { gradgen::add_(a, scalar_tensor(b, a)); });
          },
          nb::is_operator())
      .def(
          "__isub__",
          [](nb::pointer_and_handle<Tensor> s, const Tensor& b) {
            return inplace(s, [&](Tensor& a) { gradgen::sub_(a, b); });
          },
          nb::is_operator())
      .def(
          "__isub__",
          [](nb::pointer_and_handle<Tensor> s, const Scalar& b) {
            return inplace(s, [&](Tensor& a) { gradgen::sub_(a, scalar_tensor(b, a)); });
          },
          nb::is_operator())
      .def(
          "__imul__",
          [](nb::pointer_and_handle<Tensor> s, const Tensor& b) {
            return inplace(s, [&](Tensor& a) { gradgen::mul_(a, b); });
          },
          nb::is_operator())
      .def(
          "__imul__",
          [](nb::pointer_and_handle<Tensor> s, const Scalar& b) {
            return inplace(s, [&](Tensor& a) { gradgen::mul_(a, b); });
          },
          nb::is_operator())
      .def(
          "__itruediv__",
          [](nb::pointer_and_handle<Tensor> s, const Tensor& b) {
            return inplace(s, [&](Tensor& a) { gradgen::div_(a, b); });
          },
          nb::is_operator())
      .def(
          "__itruediv__",
          [](nb::pointer_and_handle<Tensor> s, const Scalar& b) {
            return inplace(s, [&](Tensor& a) { gradgen::div_(a, scalar_tensor(b, a)); });
          },
          nb::is_operator());

  // Comparisons: Bool tensors, never recorded by autograd.
  const std::pair<const char*, Cmp> comparisons[] = {
      {"__eq__", Cmp::Eq}, {"__ne__", Cmp::Ne}, {"__lt__", Cmp::Lt},
      {"__le__", Cmp::Le}, {"__gt__", Cmp::Gt}, {"__ge__", Cmp::Ge},
  };
  for (const auto& [name, op] : comparisons) {
    const Cmp cmp = op;
    cls.def(
        name, [cmp](const Tensor& a, const Tensor& b) { return compare_tensors(a, b, cmp); },
        nb::is_operator());
    cls.def(
        name, [cmp](const Tensor& a, const Scalar& b) { return compare_scalar(a, b, cmp); },
        nb::is_operator());
  }

  // `x.size(axis=0)`, as PyTorch's argument parser allows for every `dim`.
  for (const char* name : {"size", "stride"}) {
    if (!apply_conventions(cls.ptr(), name, kAxisAlias)) throw nb::python_error();
  }

  nb::class_<RemovableHandle>(m, "RemovableHandle",
                              "Returned by Tensor.register_hook: remove() unregisters the hook.")
      .def("remove", &RemovableHandle::remove);

  m.def(
      "tensor",
      [](nb::handle data, std::optional<ScalarType> dtype, bool requires_grad) {
        Tensor t = make_from_data(data, dtype);
        if (requires_grad) t.set_requires_grad(true);
        return t;
      },
      "data"_a, nb::kw_only(), "dtype"_a = nb::none(), "requires_grad"_a = false,
      "A tensor holding a copy of data: a number, nested sequences of numbers, a NumPy array or "
      "a Tensor. Python floats give float64 (gradgen's default), ints int64, bools bool.");
  m.def("from_numpy", &from_numpy, "array"_a,
        "A tensor sharing the array's memory (no copy); writes show in both.");
  m.def(
      "is_tensor", [](nb::handle o) { return is_tensor(o.ptr()); }, "obj"_a);
}

}  // namespace python
}  // namespace gradgen
