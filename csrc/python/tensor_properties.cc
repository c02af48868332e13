// gradgen.Tensor's class and what describes a tensor: shape, strides, dtype, printing,
// PyTorch's legacy type names and the transposes (T, mT, H, mH). The other tensor_*.cc add
// conversions, indexing, autograd and operators to the class made here; methods of ops declared
// with `variants: method` (t.sum(), t.view(...)) come from the generated bindings.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrc/autograd/function.h"
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

void def_shape(nb::class_<Tensor>& cls) {
  cls.def_prop_ro("shape", [](const Tensor& t) { return as_int_list(t.sizes()); })
      .def("size", [](const Tensor& t) { return as_int_list(t.sizes()); })
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
}

}  // namespace python
}  // namespace gradgen
