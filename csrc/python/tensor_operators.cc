// Python's operators on gradgen.Tensor: arithmetic (one call each into the generated
// differentiable API: no Python code on the hot path), comparisons (Bool tensors, never recorded
// by autograd) and the in-place operators (`x += y`).
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "csrc/core_kernels.h"
#include "csrc/default_dtype.h"
#include "csrc/generated/VariableType.h"
#include "csrc/python/casters.h"
#include "csrc/python/module_init.h"
#include "csrc/python/tensor_access.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace gradgen {
namespace python {
namespace {

// --- numbers as operands --------------------------------------------------------------------

Tensor scalar_tensor(const Scalar& s, const Tensor& like) {
  // A 0-dim tensor of `like`'s dtype, unless the number needs a wider one (2.5 vs an int64: the
  // default dtype, get_default_dtype(), as PyTorch's wrapped numbers).
  ScalarType type = like.scalar_type();
  if (s.is_floating_point() && !is_floating_point(type)) type = get_default_dtype();
  if (s.is_integral() && type == ScalarType::Bool) type = ScalarType::Long;
  return full({}, s, type);
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

Tensor compare_scalar(const Tensor& a, const Scalar& s, Cmp op) {
  return compare_tensors(a, scalar_tensor(s, a), op);
}

// --- arithmetic -----------------------------------------------------------------------------

using TensorOp = Tensor (*)(const Tensor& self, const Tensor& other);
using ScalarOp = Tensor (*)(const Tensor& self, const Scalar& other);

// A binary operator: its overloads for a Tensor and for a number on the right (null: none).
// The reflected ones (`2 - x`) take the number only; nanobind hands them self first.
struct BinaryOperator {
  const char* name;  // Python's: "__add__"
  TensorOp tensor_op;
  ScalarOp scalar_op;
};

const BinaryOperator kBinaryOperators[] = {
    // `x + 0.1` adds a wrapped number, as PyTorch's operator: its add kernel reads the number
    // converted to the tensor's dtype (float16 + 0.1 adds 0.1 rounded to float16, unlike mul and
    // div, whose kernels keep it at float precision: those take a float64 wrapped number,
    // casters.h).
    {"__add__", [](const Tensor& a, const Tensor& b) { return gradgen::add(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::add(a, python::wrapped_number(b)); }},
    {"__radd__", nullptr,
     [](const Tensor& a, const Scalar& b) { return gradgen::add(a, python::wrapped_number(b)); }},
    {"__sub__", [](const Tensor& a, const Tensor& b) { return gradgen::sub(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::sub(a, python::wrapped_number(b)); }},
    {"__rsub__", nullptr, [](const Tensor& a, const Scalar& b) { return gradgen::rsub(a, b); }},
    {"__mul__", [](const Tensor& a, const Tensor& b) { return gradgen::mul(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::mul(a, python::wrapped_number(b)); }},
    {"__rmul__", nullptr,
     [](const Tensor& a, const Scalar& b) { return gradgen::mul(a, python::wrapped_number(b)); }},
    {"__truediv__", [](const Tensor& a, const Tensor& b) { return gradgen::div(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::div(a, python::wrapped_number(b)); }},
    // `2 / x` is reciprocal(x) * 2, as torch's __rtruediv__ (MulBackward0).
    {"__rtruediv__", nullptr,
     [](const Tensor& a, const Scalar& b) {
       return gradgen::mul(gradgen::reciprocal(a), python::wrapped_number(b));
     }},
    {"__matmul__", [](const Tensor& a, const Tensor& b) { return gradgen::matmul(a, b); }, nullptr},
    {"__pow__", [](const Tensor& a, const Tensor& b) { return gradgen::pow(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::pow(a, b); }},
    {"__rpow__", nullptr, [](const Tensor& a, const Scalar& b) { return gradgen::pow(b, a); }},
    // Integer (and floating) division and remainder, and the bitwise operators, as PyTorch's:
    // floor_divide, remainder, bitwise_and / or / xor (logical on bool tensors).
    {"__floordiv__", [](const Tensor& a, const Tensor& b) { return gradgen::floor_divide(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::floor_divide(a, b); }},
    {"__rfloordiv__", nullptr,
     [](const Tensor& a, const Scalar& b) {
       return gradgen::floor_divide(python::wrapped_number(b), a);
     }},
    {"__mod__", [](const Tensor& a, const Tensor& b) { return gradgen::remainder(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::remainder(a, b); }},
    {"__rmod__", nullptr,
     [](const Tensor& a, const Scalar& b) {
       return gradgen::remainder(python::wrapped_number(b), a);
     }},
    {"__and__", [](const Tensor& a, const Tensor& b) { return gradgen::bitwise_and(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_and(a, b); }},
    {"__rand__", nullptr,
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_and(a, b); }},
    {"__or__", [](const Tensor& a, const Tensor& b) { return gradgen::bitwise_or(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_or(a, b); }},
    {"__ror__", nullptr,
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_or(a, b); }},
    {"__xor__", [](const Tensor& a, const Tensor& b) { return gradgen::bitwise_xor(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_xor(a, b); }},
    {"__rxor__", nullptr,
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_xor(a, b); }},
    // Shifts: `2 << x` is bitwise_left_shift.Scalar_Tensor, as torch's __rlshift__.
    {"__lshift__",
     [](const Tensor& a, const Tensor& b) { return gradgen::bitwise_left_shift(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_left_shift(a, b); }},
    {"__rlshift__", nullptr,
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_left_shift(b, a); }},
    {"__rshift__",
     [](const Tensor& a, const Tensor& b) { return gradgen::bitwise_right_shift(a, b); },
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_right_shift(a, b); }},
    {"__rrshift__", nullptr,
     [](const Tensor& a, const Scalar& b) { return gradgen::bitwise_right_shift(b, a); }},
};

void def_arithmetic(nb::class_<Tensor>& cls) {
  for (const BinaryOperator& entry : kBinaryOperators) {
    if (entry.tensor_op) cls.def(entry.name, entry.tensor_op, nb::is_operator());
    if (entry.scalar_op) cls.def(entry.name, entry.scalar_op, nb::is_operator());
  }
  cls.def("__neg__", [](const Tensor& a) { return gradgen::neg(a); })
      .def("__pos__", [](nb::handle self) { return nb::borrow(self); })
      .def("__abs__", [](const Tensor& a) { return gradgen::abs(a); })
      .def("__invert__", [](const Tensor& a) { return gradgen::bitwise_not(a); });
}

// --- in-place operators ---------------------------------------------------------------------

// `x += y` runs add_(x, y) and returns the same Python object. A number on the right goes
// through the same Tensor op as a wrapped number, as in PyTorch, so that `x *= 2` records the
// node `x *= tensor(2)` does (MulBackward0) and refuses what it refuses (a leaf that requires
// grad, a result dtype x cannot hold, `x -= True`).
using InplaceOp = void (*)(Tensor& self, const Tensor& other);

struct InplaceOperator {
  const char* name;  // Python's: "__iadd__"
  InplaceOp op;
};

const InplaceOperator kInplaceOperators[] = {
    {"__iadd__", [](Tensor& a, const Tensor& b) { gradgen::add_(a, b); }},
    {"__isub__", [](Tensor& a, const Tensor& b) { gradgen::sub_(a, b); }},
    {"__imul__", [](Tensor& a, const Tensor& b) { gradgen::mul_(a, b); }},
    {"__itruediv__", [](Tensor& a, const Tensor& b) { gradgen::div_(a, b); }},
    {"__ifloordiv__", [](Tensor& a, const Tensor& b) { gradgen::floor_divide_(a, b); }},
    {"__imod__", [](Tensor& a, const Tensor& b) { gradgen::remainder_(a, b); }},
    {"__ilshift__", [](Tensor& a, const Tensor& b) { gradgen::bitwise_left_shift_(a, b); }},
    {"__irshift__", [](Tensor& a, const Tensor& b) { gradgen::bitwise_right_shift_(a, b); }},
    // PyTorch's bitwise_and_ / or_ / xor_ (logical on bool tensors).
    {"__iand__", [](Tensor& a, const Tensor& b) { gradgen::bitwise_and_(a, b); }},
    {"__ior__", [](Tensor& a, const Tensor& b) { gradgen::bitwise_or_(a, b); }},
    {"__ixor__", [](Tensor& a, const Tensor& b) { gradgen::bitwise_xor_(a, b); }},
};

}  // namespace

void init_tensor_operators(nb::module_& m) {
  nb::class_<Tensor> cls = tensor_class_of(m);
  def_arithmetic(cls);
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
}

void init_tensor_inplace_operators(nb::module_& m) {
  nb::class_<Tensor> cls = tensor_class_of(m);
  for (const InplaceOperator& entry : kInplaceOperators) {
    const InplaceOp op = entry.op;
    cls.def(
        entry.name,
        [op](nb::pointer_and_handle<Tensor> self, const Tensor& other) {
          op(*self.p, other);
          return nb::borrow(self.h);
        },
        nb::is_operator());
    cls.def(
        entry.name,
        [op](nb::pointer_and_handle<Tensor> self, const Scalar& other) {
          op(*self.p, python::wrapped_number(other));
          return nb::borrow(self.h);
        },
        nb::is_operator());
  }
}

}  // namespace python
}  // namespace gradgen
