// PyTorch's calling conventions that nanobind's argument matching has no notion of (conventions.h,
// apply_conventions): NumPy's argument names as aliases (`x.sum(axis=1, keepdims=True)`) and
// sizes as varargs (`x.view(2, 3)` for `x.view((2, 3))`), as torch's python_arg_parser accepts
// them for every op.
//
// A function or method that takes them is replaced by a small callable object that rewrites
// the call and hands it on to the nanobind function unchanged, so nanobind still resolves the
// overloads, converts the arguments and writes the TypeErrors. A call that uses neither
// convention costs one C call more (no allocation); the object forwards every attribute
// (__doc__, __name__, nanobind's signatures) to the function it wraps.
//
// Python's C API only, like type_objects.cc: one type per process, shared by every extension
// module. conventions.h includes Python.h (through nanobind) before structmember.h, which needs it.
#include "csrc/python/conventions.h"
#include "csrc/python/type_objects.h"

#include <structmember.h>

#include <cstddef>
#include <memory>

namespace gradgen {
namespace python {
namespace {

struct ConventionFunction {
  PyObject_HEAD vectorcallfunc vectorcall;
  // The nanobind function (a module's) or method (gradgen.Tensor's), a strong reference.
  PyObject* func;
  unsigned conventions;
  // A method: the object it is called on comes first, and __get__ binds it.
  bool method;
};

// The most arguments a rewritten call copies on the stack (more go to the heap).
constexpr Py_ssize_t kStackArgs = 16;

// An int as torch's THPUtils_checkIndex sees one for a varargs size: a Python int (never a
// bool) or an object with __index__ (NumPy's integers), but not a Tensor.
bool is_index(PyObject* o) {
  if (PyBool_Check(o)) return false;
  if (PyLong_Check(o)) return true;
  return !is_tensor(o) && PyIndex_Check(o);
}

// The name `key` stands for, if it is one of NumPy's aliases this function accepts.
const char* canonical_name(PyObject* key, unsigned conventions) {
  if ((conventions & kAxisAlias) && PyUnicode_CompareWithASCIIString(key, "axis") == 0) {
    return "dim";
  }
  if ((conventions & kKeepdimsAlias) && PyUnicode_CompareWithASCIIString(key, "keepdims") == 0) {
    return "keepdim";
  }
  return nullptr;
}

PyObject* name_of(PyObject* func) {
  PyObject* name = PyObject_GetAttrString(func, "__name__");
  if (!name) PyErr_Clear();
  return name;
}

// The keyword names with NumPy's aliases replaced (a new reference), or `kwnames` itself
// (borrowed, *renamed false) when none is used; null with a TypeError when a name is given
// both ways (`dim=1, axis=1`).
PyObject* rename_keywords(ConventionFunction* self, PyObject* kwnames, bool* renamed) {
  *renamed = false;
  if (!kwnames || !(self->conventions & (kAxisAlias | kKeepdimsAlias))) return kwnames;
  const Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
  PyObject* out = nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    const char* canonical = canonical_name(PyTuple_GET_ITEM(kwnames, i), self->conventions);
    if (!canonical) continue;
    for (Py_ssize_t j = 0; j < n; ++j) {
      if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, j), canonical) == 0) {
        PyObject* name = name_of(self->func);
        PyErr_Format(PyExc_TypeError,
                     "%s(): got multiple values for argument '%s' (given as '%s' and as its "
                     "NumPy alias '%U')",
                     name ? PyUnicode_AsUTF8(name) : "function", canonical, canonical,
                     PyTuple_GET_ITEM(kwnames, i));
        Py_XDECREF(name);
        Py_XDECREF(out);
        return nullptr;
      }
    }
    if (!out) {
      out = PyTuple_New(n);
      if (!out) return nullptr;
      for (Py_ssize_t j = 0; j < n; ++j) {
        PyObject* item = PyTuple_GET_ITEM(kwnames, j);
        Py_INCREF(item);
        PyTuple_SET_ITEM(out, j, item);
      }
    }
    PyObject* replacement = PyUnicode_InternFromString(canonical);
    if (!replacement) {
      Py_DECREF(out);
      return nullptr;
    }
    Py_DECREF(PyTuple_GET_ITEM(out, i));
    PyTuple_SET_ITEM(out, i, replacement);
  }
  *renamed = out != nullptr;
  return out ? out : kwnames;
}

PyObject* forward_call(ConventionFunction* self, PyObject* const* args, size_t nargsf,
                       PyObject* kwnames) {
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  const Py_ssize_t first = self->method ? 1 : 0;  // the first argument after the object
  bool renamed = false;
  PyObject* names = rename_keywords(self, kwnames, &renamed);
  if (!names && kwnames) return nullptr;

  // Sizes as varargs: `view(2, 3)` is `view((2, 3))` when the first argument is an int (torch
  // packs every positional argument then; one that is not an int fails the overload's check).
  const bool pack =
      (self->conventions & kVarargsIntList) && nargs - first > 1 && is_index(args[first]);
  PyObject* result;
  if (!pack) {
    result = PyObject_Vectorcall(self->func, args, nargsf, names);
  } else {
    PyObject* sizes = PyTuple_New(nargs - first);
    if (!sizes) {
      if (renamed) Py_DECREF(names);
      return nullptr;
    }
    for (Py_ssize_t i = first; i < nargs; ++i) {
      Py_INCREF(args[i]);
      PyTuple_SET_ITEM(sizes, i - first, args[i]);
    }
    // The object (for a method), the sizes, then the keyword values.
    const Py_ssize_t total = first + 1 + nkw;
    PyObject* stack[kStackArgs];
    std::unique_ptr<PyObject*[]> heap;
    PyObject** packed = stack;
    if (total > kStackArgs) {
      heap.reset(new PyObject*[static_cast<size_t>(total)]);
      packed = heap.get();
    }
    if (first) packed[0] = args[0];
    packed[first] = sizes;
    for (Py_ssize_t i = 0; i < nkw; ++i) packed[first + 1 + i] = args[nargs + i];
    result = PyObject_Vectorcall(self->func, packed, static_cast<size_t>(first + 1), names);
    Py_DECREF(sizes);
  }
  if (renamed) Py_DECREF(names);
  return result;
}

// `requires_grad=` of a factory (kRequiresGrad), as torch's python_arg_parser adds it to every op
// taking TensorOptions: the keyword is taken out of the call, and the result's requires_grad set
// after it (refused, by the Tensor's setter, for a result that is not floating point).
PyObject* convention_call(PyObject* callable, PyObject* const* args, size_t nargsf,
                          PyObject* kwnames) {
  auto* self = reinterpret_cast<ConventionFunction*>(callable);
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  Py_ssize_t at = -1;
  if (self->conventions & kRequiresGrad) {
    for (Py_ssize_t i = 0; i < nkw && at < 0; ++i) {
      if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "requires_grad") == 0)
        at = i;
    }
  }
  if (at < 0) return forward_call(self, args, nargsf, kwnames);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* flag = args[nargs + at];
  if (!PyBool_Check(flag)) {
    PyObject* name = name_of(self->func);
    PyErr_Format(PyExc_TypeError, "%s(): argument 'requires_grad' must be bool, not %s",
                 name ? PyUnicode_AsUTF8(name) : "function", Py_TYPE(flag)->tp_name);
    Py_XDECREF(name);
    return nullptr;
  }
  PyObject* names = nkw > 1 ? PyTuple_New(nkw - 1) : nullptr;
  if (nkw > 1 && !names) return nullptr;
  std::unique_ptr<PyObject*[]> rest(new PyObject*[static_cast<size_t>(nargs + nkw)]);
  for (Py_ssize_t i = 0; i < nargs; ++i) rest[i] = args[i];
  for (Py_ssize_t i = 0, k = 0; i < nkw; ++i) {
    if (i == at) continue;
    rest[nargs + k] = args[nargs + i];
    PyObject* key = PyTuple_GET_ITEM(kwnames, i);
    Py_INCREF(key);
    PyTuple_SET_ITEM(names, k++, key);
  }
  PyObject* result = forward_call(self, rest.get(), static_cast<size_t>(nargs), names);
  Py_XDECREF(names);
  if (result && flag == Py_True && PyObject_SetAttrString(result, "requires_grad", Py_True) < 0) {
    Py_DECREF(result);
    return nullptr;
  }
  return result;
}

// Everything but the wrapped function itself is the function's (__doc__, __name__, ...).
PyObject* convention_getattro(PyObject* o, PyObject* name) {
  auto* self = reinterpret_cast<ConventionFunction*>(o);
  if (PyUnicode_CompareWithASCIIString(name, "__wrapped__") == 0) {
    Py_INCREF(self->func);
    return self->func;
  }
  return PyObject_GetAttr(self->func, name);
}

PyObject* convention_repr(PyObject* o) {
  return PyObject_Repr(reinterpret_cast<ConventionFunction*>(o)->func);
}

// As a method of gradgen.Tensor: `x.sum` is bound to x (Python's method calls skip this and
// call the object with x first: the type is a method descriptor).
PyObject* convention_get(PyObject* o, PyObject* obj, PyObject*) {
  auto* self = reinterpret_cast<ConventionFunction*>(o);
  if (!obj || obj == Py_None || !self->method) {
    Py_INCREF(o);
    return o;
  }
  return PyMethod_New(o, obj);
}

void convention_dealloc(PyObject* o) {
  PyTypeObject* type = Py_TYPE(o);
  Py_XDECREF(reinterpret_cast<ConventionFunction*>(o)->func);
  type->tp_free(o);
  Py_DECREF(type);
}

PyMemberDef convention_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET,
     static_cast<Py_ssize_t>(offsetof(ConventionFunction, vectorcall)), READONLY, nullptr},
    {nullptr},
};

PyTypeObject* convention_type() {
  static PyTypeObject* type = nullptr;
  if (type) return type;
  static PyType_Slot slots[] = {
      {Py_tp_call, reinterpret_cast<void*>(&PyVectorcall_Call)},
      {Py_tp_getattro, reinterpret_cast<void*>(&convention_getattro)},
      {Py_tp_repr, reinterpret_cast<void*>(&convention_repr)},
      {Py_tp_descr_get, reinterpret_cast<void*>(&convention_get)},
      {Py_tp_dealloc, reinterpret_cast<void*>(&convention_dealloc)},
      {Py_tp_members, convention_members},
      {0, nullptr},
  };
  static PyType_Spec spec = {
      "gradgen._C.op",
      sizeof(ConventionFunction),
      0,
      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR |
          Py_TPFLAGS_DISALLOW_INSTANTIATION,
      slots,
  };
  type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  return type;
}

}  // namespace

bool apply_conventions(PyObject* scope, const char* name, unsigned conventions) noexcept {
  if (conventions == 0) return true;
  PyTypeObject* type = convention_type();
  if (!type) return false;
  PyObject* func = PyObject_GetAttrString(scope, name);
  if (!func) return false;
  if (Py_IS_TYPE(func, type)) {  // already wrapped (a second library's overloads): widen it
    reinterpret_cast<ConventionFunction*>(func)->conventions |= conventions;
    Py_DECREF(func);
    return true;
  }
  auto* wrapper = PyObject_New(ConventionFunction, type);
  if (!wrapper) {
    Py_DECREF(func);
    return false;
  }
  wrapper->vectorcall = &convention_call;
  wrapper->func = func;  // the reference GetAttr returned
  wrapper->conventions = conventions;
  wrapper->method = PyType_Check(scope);
  const int status = PyObject_SetAttrString(scope, name, reinterpret_cast<PyObject*>(wrapper));
  Py_DECREF(wrapper);
  return status == 0;
}

}  // namespace python
}  // namespace gradgen
