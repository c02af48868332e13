// gradgen.dtype, layout, memory_format and device (the objects casters.h's casters convert), and
// the translation of the runtime's C++ exceptions into Python's.
#include <cstring>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"

namespace nb = nanobind;

namespace gradgen {
namespace python {
namespace {

// Python-side types of the enum-like C++ types. Their instances are singletons made by
// init_dtypes (gradgen.device is the exception: device("cpu") makes a new one).
struct PyDtype {
  ScalarType type;
};
struct PyLayout {
  Layout layout;
};
struct PyMemoryFormat {
  MemoryFormat format;
};
struct PyDevice {
  Device device;
};

// True for messages the runtime raises about an index or a dim outside its range; PyTorch
// raises IndexError for these ("Dimension out of range", "index 3 is out of bounds"), but a
// RuntimeError for topk's and kthvalue's "selected ... k out of range".
bool is_index_message(const char* what) noexcept {
  return std::strstr(what, " out of range") != nullptr &&
         std::strstr(what, "out of range for a node") == nullptr &&
         std::strstr(what, " k out of range") == nullptr;
}

// True for PyTorch's dispatch refusals, `"lshift_cpu" not implemented for 'Float'`, which it
// raises as NotImplementedError (a RuntimeError subclass, so `except RuntimeError` still works).
bool is_not_implemented_message(const char* what) noexcept {
  return std::strstr(what, "\" not implemented for '") != nullptr;
}

PyObject* runtime_error_type(const char* what) noexcept {
  if (is_index_message(what)) return PyExc_IndexError;
  return is_not_implemented_message(what) ? PyExc_NotImplementedError : PyExc_RuntimeError;
}

Device parse_device(const std::string& spec) {
  if (spec == "cpu" || spec == "cpu:0") return Device::CPU;
  throw std::runtime_error("device: gradgen has only the CPU device (\"cpu\"), got \"" + spec +
                           "\"");
}

void translate_exception(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const nb::builtin_exception&) {
    throw;  // nb::value_error and friends: nanobind's own translator maps them
  } catch (const std::out_of_range& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(is_index_message(e.what()) ? PyExc_IndexError : PyExc_RuntimeError, e.what());
  } catch (const std::runtime_error& e) {
    PyErr_SetString(runtime_error_type(e.what()), e.what());
  } catch (const std::bad_cast&) {
    // A result that could not become a Python object because memory ran out (memory_reserve.h's
    // memory_is_low): its MemoryError stands.
    if (PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_MemoryError)) return;
    // nb::cast_error from an nb::cast<T> in C++ code whose object is not a T. The call sites
    // check their objects and raise saying what they expected; this is the last resort, so
    // that no error reads a bare "std::bad_cast".
    PyErr_SetString(PyExc_TypeError,
                    "gradgen: a Python object could not be converted to the C++ type this call "
                    "expects (a Tensor, number, list of Tensors, ...: see the call's signature)");
  }
}

void def_device(nb::module_& m, TypeObjects& objects) {
  auto device =
      nb::class_<PyDevice>(m, "device", "A device: gradgen has only device('cpu').")
          .def(nb::new_([](const std::string& spec) { return PyDevice{parse_device(spec)}; }),
               nb::arg("type"))
          .def_prop_ro("type", [](const PyDevice&) { return "cpu"; })
          .def_prop_ro("index", [](const PyDevice&) { return nb::none(); })
          .def("__repr__", [](const PyDevice&) { return "device(type='cpu')"; })
          .def("__str__", [](const PyDevice&) { return "cpu"; })
          .def("__eq__",
               [](const PyDevice&, nb::handle other) {
                 Device d;
                 return device_from_object(other.ptr(), true, &d);
               })
          .def("__hash__", [](const PyDevice&) { return 0; });
  m.attr("_cpu") = nb::cast(PyDevice{Device::CPU});
  objects.cpu = m.attr("_cpu").ptr();
  objects.device_type = device.ptr();
}

}  // namespace

void init_exceptions(nb::module_&) {
  // The runtime's exceptions. Its messages name the op; PyTorch raises RuntimeError for shape,
  // dtype and autograd errors and IndexError for dims and indices out of range. nanobind's own
  // exceptions (nb::type_error, ...) and Python errors pass through untouched.
  nb::register_exception_translator(&translate_exception);
}

void init_dtypes(nb::module_& m) {
  nb::class_<PyDtype>(m, "dtype",
                      "The element type of a tensor: gradgen.float32, float64, float16, "
                      "bfloat16, int64, int32, int16, int8, uint8 or bool.")
      .def("__repr__",
           [](const PyDtype& d) { return std::string("gradgen.") + dtype_name(d.type); })
      .def_prop_ro("is_floating_point", [](const PyDtype& d) { return is_floating_point(d.type); })
      .def_prop_ro("itemsize", [](const PyDtype& d) { return element_size(d.type); })
      .def_prop_ro("is_signed",
                   [](const PyDtype& d) {
                     return d.type != ScalarType::Byte && d.type != ScalarType::Bool;
                   })
      .def("__reduce__", [](const PyDtype& d) { return std::string(dtype_name(d.type)); });
  TypeObjects objects;
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const ScalarType t = static_cast<ScalarType>(i);
    nb::object o = nb::cast(PyDtype{t});
    m.attr(dtype_name(t)) = o;
    objects.dtypes[static_cast<int>(t)] = o.ptr();  // the module's attribute keeps it alive
  }
  // torch's aliases.
  m.attr("float") = m.attr("float32");
  m.attr("double") = m.attr("float64");
  m.attr("long") = m.attr("int64");
  m.attr("int") = m.attr("int32");
  m.attr("short") = m.attr("int16");
  m.attr("half") = m.attr("float16");

  nb::class_<PyLayout>(m, "layout", "How a tensor is laid out in memory: only gradgen.strided.")
      .def("__repr__", [](const PyLayout&) { return "gradgen.strided"; })
      .def("__reduce__", [](const PyLayout&) { return "strided"; });
  m.attr("strided") = nb::cast(PyLayout{Layout::Strided});
  objects.strided = m.attr("strided").ptr();

  nb::class_<PyMemoryFormat>(m, "memory_format",
                             "The memory format asked of a new tensor: "
                             "gradgen.contiguous_format or gradgen.preserve_format.")
      .def("__repr__",
           [](const PyMemoryFormat& f) {
             return f.format == MemoryFormat::Contiguous ? "gradgen.contiguous_format"
                                                         : "gradgen.preserve_format";
           })
      .def("__reduce__", [](const PyMemoryFormat& f) {
        return f.format == MemoryFormat::Contiguous ? "contiguous_format" : "preserve_format";
      });
  m.attr("contiguous_format") = nb::cast(PyMemoryFormat{MemoryFormat::Contiguous});
  m.attr("preserve_format") = nb::cast(PyMemoryFormat{MemoryFormat::Preserve});
  objects.contiguous_format = m.attr("contiguous_format").ptr();
  objects.preserve_format = m.attr("preserve_format").ptr();

  def_device(m, objects);
  set_type_objects(objects);  // type_objects.cc keeps its own references
}

}  // namespace python
}  // namespace gradgen
