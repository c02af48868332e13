// gradgen.Tensor's class and what describes a tensor: shape, strides, dtype, printing,
// PyTorch's legacy type names and the transposes (T, mT, H, mH). The other tensor_*.cc add
// conversions, indexing, autograd and operators to the class made here; methods of ops declared
// with `variants: method` (t.sum(), t.view(...)) come from the generated bindings.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/forward_ad.h"
#include "csrc/autograd/function.h"
#include "csrc/autograd/variable_type_utils.h"
#include "csrc/default_dtype.h"
#include "csrc/generated/VariableType.h"
#include "csrc/python/casters.h"
#include "csrc/python/conventions.h"
#include "csrc/python/module_init.h"
#include "csrc/python/tensor_access.h"

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
  // torch names the dtype unless it is the default floating one (float32 unless
  // set_default_dtype), int64 or bool, which Python's ints and bools make; an empty tensor has no
  // numbers to tell int64 from the default, so it names every dtype but the default.
  const ScalarType st = t.scalar_type();
  const bool implied = st == get_default_dtype() ||
                       (t.numel() != 0 && (st == ScalarType::Long || st == ScalarType::Bool));
  std::vector<std::string> suffixes;
  if (!implied) suffixes.push_back(std::string("dtype=gradgen.") + dtype_name(st));
  if (t.grad_fn()) {
    suffixes.push_back("grad_fn=<" + t.grad_fn()->name() + ">");
  } else if (t.requires_grad()) {
    suffixes.push_back("requires_grad=True");
  }
  // As PyTorch's _add_suffixes: a suffix that would pass the line width goes on a line of its
  // own, indented under "tensor(" (its last-line length, quirks included).
  constexpr size_t kLineWidth = 80, kIndent = 7;
  const size_t newline = body.rfind('\n');
  size_t line = newline == std::string::npos ? body.size() + 2 : body.size() - newline + 1;
  for (const std::string& suffix : suffixes) {
    if (line + suffix.size() + 2 > kLineWidth) {
      body += ",\n" + std::string(kIndent, ' ') + suffix;
      line = kIndent + suffix.size();
    } else {
      body += ", " + suffix;
      line += suffix.size() + 2;
    }
  }
  return body + ")";
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
    case ScalarType::Int: return "IntTensor";
    case ScalarType::Short: return "ShortTensor";
    case ScalarType::Char: return "CharTensor";
    case ScalarType::Byte: return "ByteTensor";
    case ScalarType::Half: return "HalfTensor";
    case ScalarType::BFloat16: return "BFloat16Tensor";
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
    for (int i = 0; i < kNumScalarTypes; ++i) {
      const ScalarType t = static_cast<ScalarType>(i);
      const std::string stem = legacy_type_stem(t);
      if (name == "gradgen." + stem || name == "torch." + stem) {
        target = t;
        found = true;
      }
    }
    if (!found) {
      throw nb::value_error(("invalid type: '" + name +
                             "' (expected a name such as 'gradgen.FloatTensor', "
                             "'gradgen.DoubleTensor', 'gradgen.HalfTensor', "
                             "'gradgen.BFloat16Tensor', 'gradgen.LongTensor', 'gradgen.IntTensor', "
                             "'gradgen.ShortTensor', 'gradgen.CharTensor', 'gradgen.ByteTensor' or "
                             "'gradgen.BoolTensor'; 'torch.' works too)")
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

// PyTorch's casting methods (x.int() is x.to(gradgen.int32)): the tensor itself when it has the
// dtype already, else a differentiable conversion.
void def_casts(nb::class_<Tensor>& cls) {
  static const struct {
    const char* name;
    ScalarType dtype;
  } kCasts[] = {{"double", ScalarType::Double}, {"float", ScalarType::Float},
                {"half", ScalarType::Half},     {"bfloat16", ScalarType::BFloat16},
                {"long", ScalarType::Long},     {"int", ScalarType::Int},
                {"short", ScalarType::Short},   {"char", ScalarType::Char},
                {"byte", ScalarType::Byte},     {"bool", ScalarType::Bool}};
  for (const auto& c : kCasts) {
    const ScalarType dtype = c.dtype;
    cls.def(
        c.name,
        [dtype](nb::pointer_and_handle<Tensor> self, nb::handle /*memory_format*/) -> nb::object {
          if (self.p->scalar_type() == dtype) return nb::borrow(self.h);
          return nb::cast(gradgen::to(*self.p, dtype));
        },
        "memory_format"_a = nb::none(),
        "This tensor converted to the dtype the method names (x.int(): gradgen.int32, x.char(): "
        "int8, x.byte(): uint8, x.half(): float16), as PyTorch's; itself when it has it already.");
  }
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

IntList as_int_list(IntArrayRef values) {
  return IntList(std::vector<int64_t>(values.begin(), values.end()));
}

Tensor conjugate_transpose(const Tensor& t) {
  if (t.dim() == 0) {
    warn_zero_dim(t, "H");
    return gradgen::permute(t, std::vector<int64_t>());
  }
  if (t.dim() != 2) {
    throw std::runtime_error(
        "tensor.H is only supported on matrices (2-D tensors). Got " + std::to_string(t.dim()) +
        "-D tensor." + (t.dim() > 2 ? " For batches of matrices, consider using tensor.mH" : ""));
  }
  return numpy_transpose(t);
}

// gradgen.Size (python/gradgen/_size.py, a tuple subclass): registered by that module when
// gradgen is imported; shapes are plain tuples before.
PyObject* g_size_type = nullptr;

// The shape as a gradgen.Size: allocated as tuple's constructor allocates a subclass's instance
// (tp_alloc, then the items set in place; no Python code runs), a tuple before Size exists.
nb::object shape_of(const Tensor& t) {
  const IntArrayRef sizes = t.sizes();
  const auto n = static_cast<Py_ssize_t>(sizes.size());
  auto* type = reinterpret_cast<PyTypeObject*>(g_size_type);
  nb::object shape = nb::steal(type != nullptr ? type->tp_alloc(type, n) : PyTuple_New(n));
  if (!shape.is_valid()) throw nb::python_error();
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* v = PyLong_FromLongLong(sizes[static_cast<size_t>(i)]);
    if (v == nullptr) throw nb::python_error();
    PyTuple_SET_ITEM(shape.ptr(), i, v);
  }
  return shape;
}

void def_shape(nb::class_<Tensor>& cls) {
  cls.def_prop_ro("shape", &shape_of, "The sizes of the dims, a gradgen.Size.")
      .def("size", &shape_of, "The sizes of the dims, a gradgen.Size.")
      .def(
          "size", [](const Tensor& t, int64_t dim) { return t.size(dim); }, "dim"_a)
      .def("stride", [](const Tensor& t) { return as_int_list(t.strides()); })
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
      .def_prop_ro("is_view", &Tensor::is_view);
  // `x.size(axis=0)`, as PyTorch's argument parser allows for every `dim`.
  for (const char* name : {"size", "stride"}) {
    if (!apply_conventions(cls.ptr(), name, kAxisAlias)) throw nb::python_error();
  }
}

void def_type_and_transposes(nb::class_<Tensor>& cls) {
  def_casts(cls);
  cls.def("__repr__", &tensor_repr)
      .def("type", &tensor_type_name,
           "The type's name, as PyTorch's 'torch.FloatTensor' with gradgen's prefix: "
           "'gradgen.FloatTensor', 'gradgen.DoubleTensor', 'gradgen.HalfTensor', "
           "'gradgen.BFloat16Tensor', 'gradgen.LongTensor', 'gradgen.IntTensor', "
           "'gradgen.ShortTensor', 'gradgen.CharTensor', 'gradgen.ByteTensor' or "
           "'gradgen.BoolTensor'.")
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
      .def_prop_ro("H", &conjugate_transpose,
                   "The conjugate transpose of a matrix (its transpose: gradgen's tensors are "
                   "real).")
      .def_prop_ro(
          "mH", [](const Tensor& t) { return matrix_transpose(t, "mH"); },
          "The conjugate transpose of each matrix of a batch (mT: the tensors are real).")
      .def("__hash__", [](nb::handle self) { return reinterpret_cast<intptr_t>(self.ptr()) >> 4; });
}

// --- in-place view ops ---------------------------------------------------------------------

// squeeze_, unsqueeze_, t_, transpose_, as_strided_ (PyTorch's in-place view ops): self takes the
// sizes and strides of the view op's result. They are in-place ops for autograd (check_inplace: a
// leaf that requires grad is refused, as a view of one; the version is bumped): a tensor that is no
// view takes the view op's node as its history (its gradient goes through it to the old history);
// a view's grad_fn is regenerated from its base's history in its new geometry (Note [Views]).
// A forward-mode tangent takes the same geometry.
template <typename ViewOp>
void set_geometry_of(const Tensor& self, const char* op, ViewOp view_op) {
  const Tensor view = view_op(self);
  TensorImpl* s = self.unsafe_impl();
  const TensorImpl* v = view.unsafe_impl();
  s->sizes = v->sizes;
  s->strides = v->strides;
  s->storage_offset = v->storage_offset;
  s->refresh_numel_and_contiguity(op);
  if (!s->is_view && v->grad_fn) {
    if (s->hooks) autograd::internal::move_hooks_on_rebase(*s, v->grad_fn);
    s->grad_fn = v->grad_fn;
    s->output_nr = v->output_nr;
  }
}

template <typename ViewOp>
nb::object inplace_view(nb::pointer_and_handle<Tensor> self, const char* op, ViewOp view_op) {
  const Tensor& t = *self.p;
  if (!t.defined()) internal::throw_undefined_tensor(op);
  autograd::check_inplace(t, op);
  if (autograd::forward_ad::has_fw_grad(t)) {
    const Tensor tangent = autograd::forward_ad::fw_grad(t);
    const autograd::AutoGradMode no_grad(false);
    set_geometry_of(tangent, op, view_op);
  }
  set_geometry_of(t, op, view_op);
  t.bump_version();
  return nb::borrow(self.h);  // the same object, as PyTorch's in-place methods
}

// --- view(dtype) ----------------------------------------------------------------------------

// PyTorch's message: "<what> to view Float as Half (different element sizes)[, but got <got>]".
[[noreturn]] void throw_view_dtype(const Tensor& t, ScalarType dtype, const std::string& what,
                                   std::optional<int64_t> got = std::nullopt) {
  throw std::runtime_error(what + " to view " + gradgen::to_string(t.scalar_type()) + " as " +
                           gradgen::to_string(dtype) + " (different element sizes)" +
                           (got ? ", but got " + std::to_string(*got) : std::string()));
}

// The new geometry when the element size changes (PyTorch's view_dtype): the last dim (of
// stride 1) holds `ratio` times more elements (smaller ones) or ratio times fewer.
void resize_last_dim(TensorImpl& v, const Tensor& t, ScalarType dtype, int64_t from, int64_t to) {
  const int64_t n = t.dim();
  if (n == 0) throw_view_dtype(t, dtype, "self.dim() cannot be 0");
  if (from > to) {
    const int64_t ratio = from / to;
    if (t.stride(-1) != 1) throw_view_dtype(t, dtype, "self.stride(-1) must be 1", t.stride(-1));
    for (int64_t d = 0; d < n - 1; ++d) v.strides[d] *= ratio;
    v.sizes[n - 1] *= ratio;
    v.storage_offset *= ratio;
    return;
  }
  const int64_t ratio = to / from;
  const std::string divisible = " must be divisible by " + std::to_string(ratio);
  if (t.size(-1) % ratio != 0) throw_view_dtype(t, dtype, "self.size(-1)" + divisible, t.size(-1));
  if (t.stride(-1) != 1) throw_view_dtype(t, dtype, "self.stride(-1) must be 1", t.stride(-1));
  if (t.storage_offset() % ratio != 0) {
    throw_view_dtype(t, dtype, "self.storage_offset()" + divisible, t.storage_offset());
  }
  for (int64_t d = 0; d < n - 1; ++d) {
    if (t.stride(d) % ratio != 0) {
      throw_view_dtype(t, dtype, "self.stride(" + std::to_string(d) + ")" + divisible, t.stride(d));
    }
    v.strides[d] /= ratio;
  }
  v.sizes[n - 1] /= ratio;
  v.storage_offset /= ratio;
}

// x.view(dtype): the same bytes read as another dtype (PyTorch's view.dtype; no gradient flows
// through it: the result is a new tensor without history, as PyTorch's, even for self's dtype).
Tensor view_dtype(const Tensor& t, ScalarType dtype) {
  const Tensor v = t.detach();
  TensorImpl& impl = *v.unsafe_impl();
  impl.dtype = dtype;
  const auto from = static_cast<int64_t>(element_size(t.scalar_type()));
  const auto to = static_cast<int64_t>(element_size(dtype));
  if (from != to) resize_last_dim(impl, t, dtype, from, to);
  impl.refresh_numel_and_contiguity("view");
  return v;
}

void def_inplace_views(nb::class_<Tensor>& cls) {
  cls.def("view", &view_dtype, "dtype"_a,
          "The same memory read as dtype (another element size changes the last dim's size, "
          "which must have stride 1), as PyTorch's view(dtype); no gradient flows through it.");
  cls.def(
         "squeeze_",
         [](nb::pointer_and_handle<Tensor> self) {
           return inplace_view(self, "squeeze_",
                               [](const Tensor& t) { return gradgen::squeeze(t); });
         },
         "Removes every dim of size 1, in place (a view op: no data moves).")
      .def(
          "squeeze_",
          [](nb::pointer_and_handle<Tensor> self, int64_t dim) {
            return inplace_view(self, "squeeze_",
                                [dim](const Tensor& t) { return gradgen::squeeze(t, dim); });
          },
          "dim"_a, "Removes dim if its size is 1, in place.")
      .def(
          "squeeze_",
          [](nb::pointer_and_handle<Tensor> self, const IntList& dims) {
            return inplace_view(self, "squeeze_",
                                [&dims](const Tensor& t) { return gradgen::squeeze(t, dims); });
          },
          "dim"_a, "Removes those of the dims whose size is 1, in place.")
      .def(
          "as_strided_",
          [](nb::pointer_and_handle<Tensor> self, const IntList& size, const IntList& stride,
             std::optional<int64_t> storage_offset) {
            return inplace_view(self, "as_strided_", [&](const Tensor& t) {
              return gradgen::as_strided(t, size, stride, storage_offset);
            });
          },
          "size"_a, "stride"_a, "storage_offset"_a = nb::none(),
          "Takes these sizes, strides and storage offset over the same storage, in place.")
      .def(
          "unsqueeze_",
          [](nb::pointer_and_handle<Tensor> self, int64_t dim) {
            return inplace_view(self, "unsqueeze_",
                                [dim](const Tensor& t) { return gradgen::unsqueeze(t, dim); });
          },
          "dim"_a, "Inserts a dim of size 1 at dim, in place.")
      .def(
          "t_",
          [](nb::pointer_and_handle<Tensor> self) {
            return inplace_view(self, "t_", [](const Tensor& t) { return gradgen::t(t); });
          },
          "Transposes a matrix (at most 2 dims), in place.")
      .def(
          "transpose_",
          [](nb::pointer_and_handle<Tensor> self, int64_t dim0, int64_t dim1) {
            return inplace_view(self, "transpose_", [dim0, dim1](const Tensor& t) {
              return gradgen::transpose(t, dim0, dim1);
            });
          },
          "dim0"_a, "dim1"_a, "Swaps dims dim0 and dim1, in place.");
}

}  // namespace

void init_tensor_class(nb::module_& m) {
  auto cls = nb::class_<Tensor>(m, "Tensor",
                                "A dense CPU tensor with autograd (gradgen.tensor, gradgen.zeros, "
                                "... make them).");
  // Users know it as gradgen.Tensor: so do reprs and the signatures in TypeErrors.
  cls.attr("__module__") = "gradgen";
  set_tensor_type(cls.ptr());
  def_shape(cls);
  def_type_and_transposes(cls);
  def_inplace_views(cls);
  m.def(
      "_set_size_type",
      [](nb::handle type) {
        if (!PyType_Check(type.ptr()) ||
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()), &PyTuple_Type)) {
          throw nb::type_error("_set_size_type: expected a subclass of tuple");
        }
        Py_XDECREF(g_size_type);
        g_size_type = nb::handle(type).inc_ref().ptr();
      },
      "type"_a, "Registers gradgen.Size, the type of Tensor.shape and Tensor.size().");
}

}  // namespace python
}  // namespace gradgen
