// Indexing gradgen.Tensor: len(t), iteration over dim 0, t[key] (ints, slices, None, ...) as
// views, index tensors, lists of ints and bool masks as PyTorch's advanced
// indexing (gradgen::index), and t[key] = value as an in-place copy into the view or, with index
// tensors, index_put_ into it.
#include <cstdint>
#include <optional>
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

// An index tensor made of a Python list (`x[[0, 2]]`, `x[[True, False]]`), as PyTorch: by
// gradgen.tensor, an empty list giving an empty Long index.
Tensor tensor_of_list(nb::handle item) {
  Tensor t = nb::cast<Tensor>(nb::module_::import_("gradgen._C").attr("tensor")(item));
  if (t.numel() == 0 && t.scalar_type() != ScalarType::Bool) t = gradgen::to(t, ScalarType::Long);
  return t;
}

// How many dims of self an index item consumes: ints, slices and Long tensors one, a Bool tensor
// its dim() (a 0-dim one none: it adds a dim), None and ... none.
int64_t consumed_dims(PyObject* item, const Tensor* t) {
  if (item == Py_None || item == Py_Ellipsis) return 0;
  if (t != nullptr && t->scalar_type() == ScalarType::Bool) return t->dim();
  return 1;
}

// The view x[key] of the basic items (ints, slices, None, ...) and, per dim of that view, the
// index tensors of the advanced ones (PyTorch's applySlicing): the advanced indexing is then
// index(view, indices) or view.index_put_(indices, value).
struct Sliced {
  Tensor view;
  std::vector<std::optional<Tensor>> indices;
  bool advanced = false;
};

// The key's items: a tuple's elements, or the key alone.
std::vector<nb::handle> key_items(nb::handle key) {
  std::vector<nb::handle> items;
  if (PyTuple_Check(key.ptr())) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(key.ptr()); ++i) {
      items.push_back(PyTuple_GET_ITEM(key.ptr(), i));
    }
  } else {
    items.push_back(key);
  }
  return items;
}

// A NumPy array (or another object with the array interface) of at least one dim, or of bool
// dtype: an index tensor, as PyTorch (an integer array is a Long index, a bool one a mask). A
// 0-dim integer array has __index__ and is taken as an int.
bool is_array_index(PyObject* item) {
  if (!PyObject_HasAttrString(item, "__array_interface__")) return false;
  nb::handle h(item);
  nb::object ndim = nb::getattr(h, "ndim", nb::none());
  if (ndim.is_none()) return false;
  if (nb::cast<int64_t>(ndim) != 0) return true;
  nb::object dtype = nb::getattr(h, "dtype", nb::none());
  return !dtype.is_none() && nb::cast<std::string>(nb::str(dtype)) == "bool";
}

// The index tensors of the items (an undefined Tensor for the basic items); `consumed` is how
// many dims of self the items consume.
std::vector<Tensor> index_tensors(const std::vector<nb::handle>& items, int64_t& consumed) {
  std::vector<Tensor> tensors(items.size());
  consumed = 0;
  for (size_t k = 0; k < items.size(); ++k) {
    PyObject* item = items[k].ptr();
    if (is_tensor(item)) {
      tensors[k] = nb::cast<Tensor>(items[k]);
    } else if (is_array_index(item)) {
      tensors[k] = tensor_of_list(items[k]);
    } else if (PyList_Check(item) || PyTuple_Check(item) ||
               (!PyIndex_Check(item) && PySequence_Check(item) && !PyUnicode_Check(item) &&
                !PyBytes_Check(item))) {
      // A list, a tuple inside the key's tuple, a NumPy array: an index tensor, as PyTorch.
      tensors[k] = tensor_of_list(items[k]);
    } else if (PyBool_Check(item)) {
      // x[True] / x[False]: a 0-dim mask, as PyTorch (a dim of size 1 or 0 added).
      tensors[k] = full({}, Scalar(item == Py_True), ScalarType::Bool);
    }
    consumed += consumed_dims(item, tensors[k].defined() ? &tensors[k] : nullptr);
  }
  return tensors;
}

// apply_slicing's walk over the items: the view so far (out.view), the dim of it the next item
// applies to, and the index tensors so far.
struct Slicing {
  Sliced out;
  int64_t dim = 0;
  int64_t position = 0;  // the item's position in the key, which PyTorch's messages name

  // The size of the view's dim `dim` for an int or a slice; past the view's last dim (after a
  // second `...`) PyTorch's IndexError, whose size is 0 there.
  int64_t size_at(Py_ssize_t i) const {
    if (dim < out.view.dim()) return out.view.size(dim);
    index_error("index " + std::to_string(i) + " is out of bounds for dimension " +
                std::to_string(position) + " with size 0");
  }

  // An index tensor: the advanced index of the view's next dims (a Bool one: of its dim() dims).
  void index_tensor(Tensor t) {
    out.advanced = true;
    if (t.scalar_type() == ScalarType::Int) t = gradgen::to(t, ScalarType::Long);
    if (t.scalar_type() == ScalarType::Byte) {  // a mask, as PyTorch's deprecated form
      if (PyErr_WarnEx(PyExc_UserWarning,
                       "indexing with dtype gradgen.uint8 is now deprecated, please use a dtype "
                       "gradgen.bool instead.",
                       1) < 0) {
        throw nb::python_error();
      }
      t = gradgen::to(t, ScalarType::Bool);
    }
    if (t.scalar_type() == ScalarType::Bool && t.dim() == 0) {
      // x[True] adds a dim of size 1 and keeps it (x[False]: of size 0), as PyTorch.
      none();
      out.indices.back() = gradgen::reshape(t, {1});
      return;
    }
    if (t.scalar_type() != ScalarType::Bool && t.scalar_type() != ScalarType::Long) {
      index_error(std::string("tensors used as indices must be long, int, byte or bool "
                              "tensors (got ") +
                  to_string(t.scalar_type()) + ")");
    }
    out.indices.emplace_back(t);
    dim += t.scalar_type() == ScalarType::Bool ? t.dim() : 1;
  }

  // None: a dim of size 1 added.
  void none() {
    out.view = gradgen::unsqueeze(out.view, dim);
    out.indices.emplace_back(std::nullopt);
    ++dim;
  }

  // A slice: the next dim narrowed, or strided (a view either way).
  void slice(PyObject* item) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(item, &start, &stop, &step) < 0) throw nb::python_error();
    const int64_t size = size_at(start);
    const Py_ssize_t length = PySlice_AdjustIndices(size, &start, &stop, step);
    if (step <= 0) throw nb::value_error("step must be greater than zero");
    if (step != 1) {
      out.view = gradgen::slice(out.view, dim, start, start + length * step, step);
    } else if (start != 0 || length != size) {
      out.view = gradgen::narrow(out.view, dim, start, length);
    }
    out.indices.emplace_back(std::nullopt);
    ++dim;
  }

  // An int: the next dim selected away.
  void integer(PyObject* item) {
    const Py_ssize_t i = PyNumber_AsSsize_t(item, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) throw nb::python_error();
    const int64_t size = size_at(i);
    if (i < -size || i >= size) {
      index_error("index " + std::to_string(i) + " is out of bounds for dimension " +
                  std::to_string(position) + " with size " + std::to_string(size));
    }
    out.view = gradgen::select(out.view, dim, i);
  }
};

Sliced apply_slicing(const Tensor& self, nb::handle key) {
  const std::vector<nb::handle> items = key_items(key);
  int64_t consumed = 0;
  const std::vector<Tensor> tensors = index_tensors(items, consumed);
  if (consumed > self.dim()) {
    index_error("too many indices for tensor of dimension " + std::to_string(self.dim()));
  }
  Slicing s;
  s.out.view = self;
  for (size_t k = 0; k < items.size(); ++k) {
    PyObject* item = items[k].ptr();
    s.position = static_cast<int64_t>(k);
    if (tensors[k].defined()) {
      s.index_tensor(tensors[k]);
    } else if (item == Py_None) {
      s.none();
    } else if (item == Py_Ellipsis) {
      // Every `...` skips the dims the other items leave, as PyTorch's applySlicing (NumPy allows
      // one; PyTorch any number: x[..., 0, ...] is x[..., 0], and past the last dim it raises).
      for (int64_t j = 0; j < self.dim() - consumed; ++j) s.out.indices.emplace_back(std::nullopt);
      s.dim += self.dim() - consumed;
    } else if (PySlice_Check(item)) {
      s.slice(item);
    } else if (!PyBool_Check(item) && PyIndex_Check(item)) {
      s.integer(item);
    } else {
      throw nb::type_error(
          (std::string("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                       "Variables are valid indices (got ") +
           Py_TYPE(item)->tp_name + ")")
              .c_str());
    }
  }
  // The dims a second `...` skipped past the view's last dim index nothing.
  while (s.out.indices.size() > static_cast<size_t>(s.out.view.dim()) && !s.out.indices.back()) {
    s.out.indices.pop_back();
  }
  return s.out;
}

Tensor index(const Tensor& self, nb::handle key) {
  Sliced s = apply_slicing(self, key);
  if (!s.advanced) return s.view;
  return gradgen::index(s.view, s.indices);
}

// value without its leading dims of size 1 (PyTorch's slicePrefix1sSize: a [1, 3] value assigns
// into a [3] result); broadcasting puts back those the result has.
Tensor strip_leading_ones(Tensor value) {
  while (value.dim() > 0 && value.size(0) == 1) value = gradgen::squeeze(value, 0);
  return value;
}

// x[key] = value: copies value (a Tensor, broadcast, or a number) into the view x[key], with
// autograd as torch: the copy is an in-place op on the view (CopySlices on x's history); with
// index tensors in key, value is written by index_put_ on the view of the basic items, so the
// gradient reaches both x and value.
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
  Sliced sliced = apply_slicing(self, key);
  Tensor view = sliced.view;
  // A copy converts value to the view's dtype; index_put_ does not (PyTorch raises "Index put
  // requires the source and destination dtypes match").
  if (!sliced.advanced && src.scalar_type() != view.scalar_type()) {
    src = gradgen::to(src, view.scalar_type());
  }
  if (src.unsafe_impl()->storage.get() == view.unsafe_impl()->storage.get()) src = src.clone();
  if (sliced.advanced) {
    // index_put_ broadcasts value to the indexing result (PyTorch's message when it cannot).
    gradgen::index_put_(view, sliced.indices, strip_leading_ones(src));
    return;
  }
  src = strip_leading_ones(src);
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
