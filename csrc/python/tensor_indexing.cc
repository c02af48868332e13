// Indexing gradgen.Tensor: len(t), iteration over dim 0, t[key] (ints, slices with step 1,
// None, ...) as views, and t[key] = value as an in-place copy into the view.
#include <cstdint>
#include <string>
#include <vector>

#include "csrc/autograd/basic_ops.h"
#include "csrc/generated/VariableType.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"
#include "csrc/python/tensor_access.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

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

int64_t length(const Tensor& t) {
  if (t.dim() == 0) throw nb::type_error("len() of a 0-d tensor");
  return t.size(0);
}

nb::iterator iterate(const Tensor& t) {
  if (t.dim() == 0) throw nb::type_error("iteration over a 0-d tensor");
  nb::list items;
  for (int64_t i = 0; i < t.size(0); ++i) items.append(gradgen::select(t, 0, i));
  return nb::iter(items);
}

}  // namespace

void init_tensor_indexing(nb::module_& m) {
  tensor_class_of(m)
      .def("__len__", &length)
      .def("__getitem__", &index, nb::arg("key").none())
      .def("__setitem__", &set_index, nb::arg("key").none(), nb::arg("value"))
      .def("__iter__", &iterate);
}

}  // namespace python
}  // namespace gradgen
