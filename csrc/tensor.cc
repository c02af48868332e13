#include "csrc/tensor.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <random>
#include <sstream>
#include <stdexcept>

#include "csrc/core_kernels.h"
#include "csrc/util/op_context.h"

namespace gradgen {

std::string shape_str(IntArrayRef shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

namespace internal {

void throw_dim_out_of_range(int64_t dim, int64_t ndim, const char* op) {
  const int64_t n = ndim == 0 ? 1 : ndim;  // a 0-dim tensor accepts -1 and 0
  throw std::invalid_argument(std::string(op) + ": dim " + std::to_string(dim) +
                              " out of range for a tensor with " + std::to_string(ndim) +
                              " dims (expected " + std::to_string(-n) + " <= dim < " +
                              std::to_string(n) + ")");
}

}  // namespace internal

std::string Scalar::to_string() const {
  switch (kind_) {
    case Kind::Double: {
      std::ostringstream out;
      out << v_.d;
      return out.str();
    }
    case Kind::Long: return std::to_string(v_.i);
    case Kind::Bool: return v_.b ? "true" : "false";
  }
  return "";
}

namespace internal {

void throw_undefined_tensor(const char* what) {
  // Inside an op, name the op the user called (csrc/util/op_context.h), not the accessor.
  if (current_op) {
    throw std::runtime_error(user_op_name("") +
                             ": expected a defined tensor for every argument, got an undefined "
                             "Tensor() (" +
                             what + "() called on it)");
  }
  throw std::runtime_error(std::string(what) + ": called on an undefined tensor");
}

namespace {

[[gnu::noinline, gnu::cold]] int64_t checked_numel_slow(IntArrayRef sizes, const char* op) {
  for (int64_t s : sizes) {
    if (s < 0) {
      throw std::invalid_argument(user_op_name(op) + ": expected non-negative sizes, got " +
                                  shape_str(sizes));
    }
  }
  // A zero size makes the product 0 however large the others are.
  for (int64_t s : sizes) {
    if (s == 0) return 0;
  }
  throw std::runtime_error(user_op_name(op) + ": the number of elements of shape " +
                           shape_str(sizes) + " overflows int64");
}

}  // namespace

int64_t checked_numel(IntArrayRef sizes, const char* op) {
  int64_t n = 1;
  bool suspicious = false;
  for (int64_t s : sizes) {
    suspicious |= s < 0;
    suspicious |= __builtin_mul_overflow(n, s, &n);
  }
  if (__builtin_expect(suspicious, 0)) return checked_numel_slow(sizes, op);
  return n;
}

void throw_dtype_mismatch(const char* what, ScalarType expected, ScalarType found) {
  throw std::invalid_argument(std::string(what) + ": expected a tensor of dtype " +
                              to_string(expected) + ", got " + to_string(found));
}

void throw_item_not_single(IntArrayRef sizes) {
  throw std::invalid_argument("item: expected a tensor with 1 element, got shape " +
                              shape_str(sizes));
}

}  // namespace internal

// ---------------------------------------------------------------------------
// Storage and impl
// ---------------------------------------------------------------------------

namespace {
// malloc's own alignment: enough for every dtype and for Eigen's unaligned maps,
// and much cheaper than an over-aligned allocation for the many tiny tensors.
constexpr size_t kAlignment = alignof(std::max_align_t);
// The StorageImpl header, rounded up so that the data after it stays aligned.
constexpr size_t kHeaderBytes = (sizeof(StorageImpl) + kAlignment - 1) / kAlignment * kAlignment;

// The pool of small blocks (csrc/util/block_pool.h: a tiny tensor's storage is freed and made
// again every op), else malloc; not operator new: a failed allocation is an exception here even
// under AddressSanitizer (whose operator new aborts instead; its malloc returns null with
// allocator_may_return_null=1, which --config=asan sets). Inlined into make_tensor, the hot
// caller.
GRADGEN_ALWAYS_INLINE intrusive_ptr<StorageImpl> allocate_storage(size_t nbytes) noexcept {
  if (nbytes > std::numeric_limits<size_t>::max() - kHeaderBytes) return {};
  void* memory = internal::pooled_allocate(kHeaderBytes + nbytes);
  if (!memory) return {};
  auto* storage = new (memory) StorageImpl();
  storage->inline_data = true;
  storage->data = static_cast<char*>(memory) + kHeaderBytes;
  storage->nbytes = nbytes;
  return intrusive_ptr<StorageImpl>::adopt_new(storage);
}

}  // namespace

intrusive_ptr<StorageImpl> StorageImpl::try_allocate(size_t nbytes) noexcept {
  return allocate_storage(nbytes);
}

intrusive_ptr<StorageImpl> StorageImpl::wrap(void* data, size_t nbytes,
                                             void (*release)(void*) noexcept, void* context) {
  // malloc'ed (inline_data false: intrusive_ptr_destroy frees it with free()).
  void* memory = std::malloc(sizeof(StorageImpl));
  if (!memory) throw std::bad_alloc();
  auto* storage = new (memory) StorageImpl();
  storage->data = data;
  storage->nbytes = nbytes;
  storage->release = release;
  storage->release_context = context;
  return intrusive_ptr<StorageImpl>::adopt_new(storage);
}

intrusive_ptr<StorageImpl> StorageImpl::allocate(size_t nbytes) {
  intrusive_ptr<StorageImpl> storage = try_allocate(nbytes);
  if (!storage) throw std::bad_alloc();
  return storage;
}

void intrusive_ptr_destroy(StorageImpl* storage) noexcept {
  // A wrapped storage hands its memory back to its owner (a NumPy array, say).
  if (storage->release) storage->release(storage->release_context);
  const size_t bytes = storage->inline_data ? kHeaderBytes + storage->nbytes : 0;
  storage->~StorageImpl();
  if (bytes != 0) {
    internal::pooled_free(storage, bytes);  // allocate()'s
  } else {
    std::free(static_cast<void*>(storage));  // wrap()'s
  }
}

void TensorImpl::refresh_numel_and_contiguity(const char* op) {
  int64_t n = 1;
  bool suspicious = false;  // checked_numel's loop, inlined: views are made often
  for (int64_t s : sizes) {
    suspicious |= s < 0;
    suspicious |= __builtin_mul_overflow(n, s, &n);
  }
  if (__builtin_expect(suspicious, 0)) {
    n = internal::checked_numel(IntArrayRef(sizes.data(), sizes.size()), op);
  }
  numel = n;
  bool contiguous = true;
  int64_t expected = 1;
  for (size_t d = sizes.size(); d > 0; --d) {
    const int64_t size = sizes[d - 1];
    if (size == 1) continue;  // the stride of a size-1 dim never matters
    if (strides[d - 1] != expected) {
      contiguous = false;
      break;
    }
    expected *= size;
  }
  is_contiguous = contiguous || n == 0;
}

namespace {

// The slow path of make_tensor's checks: throws the error a suspicious shape
// deserves, or returns numel when the fast loop's suspicion was unfounded (a
// product overflowed but a later size is 0).
[[gnu::noinline, gnu::cold]] int64_t diagnose_sizes(IntArrayRef sizes, ScalarType dtype,
                                                    const char* op) {
  const int64_t numel = internal::checked_numel(sizes, op);  // negative sizes, numel
  int64_t stride = 1;
  for (size_t d = sizes.size(); d > 1; --d) {
    if (__builtin_mul_overflow(stride, std::max<int64_t>(sizes[d - 1], 1), &stride)) {
      throw std::runtime_error(internal::user_op_name(op) + ": the strides of shape " +
                               shape_str(sizes) + " overflow int64");
    }
  }
  int64_t nbytes = 0;
  if (__builtin_mul_overflow(numel, static_cast<int64_t>(element_size(dtype)), &nbytes)) {
    throw std::runtime_error(internal::user_op_name(op) + ": the storage size of shape " +
                             shape_str(sizes) + " and dtype " + gradgen::to_string(dtype) +
                             " overflows: " + std::to_string(numel) + " elements of " +
                             std::to_string(element_size(dtype)) + " bytes");
  }
  return numel;
}

[[noreturn, gnu::noinline, gnu::cold]] void throw_allocation_failed(IntArrayRef sizes,
                                                                    ScalarType dtype,
                                                                    int64_t nbytes,
                                                                    const char* op) {
  throw std::runtime_error(internal::user_op_name(op) +
                           ": can't allocate memory: you tried to allocate " +
                           std::to_string(nbytes) + " bytes for a tensor of shape " +
                           shape_str(sizes) + " and dtype " + gradgen::to_string(dtype));
}

}  // namespace

Tensor make_tensor(IntArrayRef sizes, ScalarType dtype, const char* op) {
  auto* impl = new TensorImpl();
  intrusive_ptr<TensorImpl> handle = intrusive_ptr<TensorImpl>::adopt_new(impl);
  impl->dtype = dtype;
  impl->sizes.assign(sizes.begin(), sizes.end());
  impl->strides.resize(sizes.size());
  // Row-major strides (a size-0 or size-1 dim counts as 1, as in PyTorch), every
  // product checked: an overflow would make numel, strides or the byte count lie
  // about the storage and send reads out of bounds. One loop flags anything odd;
  // diagnose_sizes then says what.
  int64_t numel = 1, stride = 1;
  bool suspicious = false;
  for (size_t d = sizes.size(); d > 0; --d) {
    const int64_t size = sizes[d - 1];
    impl->strides[d - 1] = stride;
    suspicious |= size < 0;
    suspicious |= __builtin_mul_overflow(numel, size, &numel);
    if (d > 1) suspicious |= __builtin_mul_overflow(stride, size > 1 ? size : 1, &stride);
  }
  int64_t nbytes = 0;
  suspicious |= __builtin_mul_overflow(numel, static_cast<int64_t>(element_size(dtype)), &nbytes);
  if (__builtin_expect(suspicious, 0)) {
    numel = diagnose_sizes(sizes, dtype, op);
    nbytes = 0;  // numel is 0: a false alarm only happens for an empty tensor
  }
  impl->numel = numel;
  impl->is_contiguous = true;
  impl->storage = allocate_storage(static_cast<size_t>(nbytes));
  if (__builtin_expect(!impl->storage, 0)) throw_allocation_failed(sizes, dtype, nbytes, op);
  return Tensor(std::move(handle));
}

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                 void (*release)(void*) noexcept, void* context) {
  // Until the storage owns `release`, a failure must call it here.
  struct Guard {
    void (*release)(void*) noexcept;
    void* context;
    ~Guard() {
      if (release) release(context);
    }
  } guard{release, context};
  if (sizes.size() != strides.size()) {
    throw std::invalid_argument("from_blob: expected as many strides as sizes, got sizes " +
                                shape_str(sizes) + " and strides " + shape_str(strides));
  }
  int64_t last = 0;  // offset of the last element
  int64_t n = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] < 0 || strides[d] < 0) {
      throw std::invalid_argument("from_blob: expected non-negative sizes and strides, got sizes " +
                                  shape_str(sizes) + " and strides " + shape_str(strides));
    }
    n *= sizes[d];
    if (sizes[d] > 0) last += (sizes[d] - 1) * strides[d];
  }
  auto* impl = new TensorImpl();
  intrusive_ptr<TensorImpl> handle = intrusive_ptr<TensorImpl>::adopt_new(impl);
  impl->dtype = dtype;
  impl->sizes.assign(sizes.begin(), sizes.end());
  impl->strides.assign(strides.begin(), strides.end());
  const size_t nbytes = n == 0 ? 0 : static_cast<size_t>(last + 1) * element_size(dtype);
  impl->storage = StorageImpl::wrap(data, nbytes, release, context);
  guard.release = nullptr;  // the storage owns it now
  impl->refresh_numel_and_contiguity();
  return Tensor(std::move(handle));
}

// ---------------------------------------------------------------------------
// Tensor methods
// ---------------------------------------------------------------------------

namespace internal {

Tensor copy_contiguous(const Tensor& t) {
  if (!t.defined()) throw_undefined_tensor("clone");
  const TensorImpl& self = *t.unsafe_impl();
  Tensor out = make_tensor(IntArrayRef(self.sizes.data(), self.sizes.size()), self.dtype);
  internal::copy_(out, t);
  out.unsafe_impl()->storage->version = 0;  // a fresh storage starts at version 0
  return out;
}

namespace {
std::atomic<ToDtypeFn> to_dtype_fn{nullptr};
}  // namespace

void set_to_dtype_fn(ToDtypeFn fn) noexcept { to_dtype_fn.store(fn); }

namespace {
std::atomic<WarningHandler> warning_handler{nullptr};
}  // namespace

WarningHandler set_warning_handler(WarningHandler handler) noexcept {
  return warning_handler.exchange(handler);
}

void warn(const std::string& message) {
  if (WarningHandler handler = warning_handler.load()) handler(message);
}

Tensor to_dtype(const Tensor& t, ScalarType dtype) {
  if (!t.defined()) throw_undefined_tensor("to_dtype");
  if (t.scalar_type() == dtype) return t;
  if (ToDtypeFn fn = to_dtype_fn.load()) return fn(t, dtype);
  const TensorImpl& self = *t.unsafe_impl();
  Tensor out = make_tensor(IntArrayRef(self.sizes.data(), self.sizes.size()), dtype);
  convert_into(out, t);
  return out;
}

void init_view(TensorImpl& view, const Tensor& self, bool grad_mode) {
  const TensorImpl& base = *self.unsafe_impl();
  view.is_view = true;
  view.view = std::make_unique<ViewMeta>();
  view.view->base = base.is_view ? base.view->base : self;
  view.view->version = base.storage->version;
  // As PyTorch's propagate_creation_meta: no_grad mode wins, else the parent's kind is kept.
  view.view->creation = !grad_mode     ? ViewCreation::NoGradMode
                        : base.is_view ? base.view->creation
                                       : ViewCreation::Default;
}

}  // namespace internal

// Tensor::clone() records a TensorCloneBackward node, so it is defined beside that node, in
// csrc/autograd/basic_ops.cc: the tensor layer builds no autograd graph itself.

Tensor Tensor::detach() const {
  const TensorImpl& self = checked("detach");
  auto* impl = new TensorImpl();
  intrusive_ptr<TensorImpl> handle = intrusive_ptr<TensorImpl>::adopt_new(impl);
  impl->storage = self.storage;
  impl->storage_offset = self.storage_offset;
  impl->numel = self.numel;
  impl->sizes = self.sizes;
  impl->strides = self.strides;
  impl->dtype = self.dtype;
  impl->is_contiguous = self.is_contiguous;
  return Tensor(std::move(handle));
}

const Tensor& Tensor::set_requires_grad(bool requires_grad) const {
  const TensorImpl& self = checked("set_requires_grad");
  if (self.grad_fn) {
    throw std::runtime_error(
        "set_requires_grad: only leaf tensors can change requires_grad; this tensor was "
        "produced by " +
        autograd::node_name(*self.grad_fn) + " (use detach() to get a leaf)");
  }
  if (requires_grad && !is_floating_point(self.dtype)) {
    throw std::invalid_argument(
        "set_requires_grad: only Tensors of floating point and complex dtype can require "
        "gradients (PyTorch's words), got dtype " +
        std::string(gradgen::to_string(self.dtype)));
  }
  impl_->requires_grad = requires_grad;
  return *this;
}

namespace {

// How floating elements print, chosen as PyTorch's _Formatter does from the nonzero finite
// elements shown: every one a whole number, without decimals and with a trailing '.'
// ("tensor([1., 2.])"), else 4 decimals; scientific with 4 decimals when the largest is above
// 1e8 or over 1000 times the smallest (or, not all whole, the smallest below 1e-4).
enum class FloatMode { kFixed, kInt, kSci };

// Formats one element in `mode` (floating dtypes).
std::string format_element(const char* p, ScalarType dtype, FloatMode mode) {
  char buf[64];
  switch (dtype) {
    case ScalarType::Long:
    case ScalarType::Int:
    case ScalarType::Short:
    case ScalarType::Char:
    case ScalarType::Byte:
      std::snprintf(buf, sizeof(buf), "%lld",
                    static_cast<long long>(internal::read_element<int64_t>(p, dtype)));
      return buf;
    case ScalarType::Bool: return *reinterpret_cast<const bool*>(p) ? "true" : "false";
    default: {
      double v = internal::read_element<double>(p, dtype);
      if (std::isnan(v)) return "nan";  // Python's spelling (C may print "-nan")
      if (mode == FloatMode::kInt) {
        std::snprintf(buf, sizeof(buf), "%.0f", v);
        return std::isinf(v) ? std::string(buf) : std::string(buf) + ".";
      }
      std::snprintf(buf, sizeof(buf), mode == FloatMode::kFixed ? "%.4f" : "%.4e", v);
      return buf;
    }
  }
}

// PyTorch's print options (torch/_tensor_str.py): past kThreshold elements a tensor is
// summarized, each dim longer than 2 * kEdgeItems showing its first and last kEdgeItems entries;
// rows wrap at kLineWidth characters.
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr size_t kLineWidth = 80;

// Appends the elements of dim `d` onwards as PyTorch's _tensor_str_with_formatter does: nested
// brackets, the last dim's cells padded to `width` and wrapped to the line width (a summarized
// row's " ..." counts as a cell), the other dims one slice per line, separated by a blank line
// per dim below.
void format_dims(std::string& out, const TensorImpl& t, size_t d, int64_t offset, size_t indent,
                 FloatMode mode, size_t width, bool summarize) {
  const char* base = static_cast<const char*>(t.storage->data);
  const size_t esize = element_size(t.dtype);
  const int64_t n = t.sizes[d];
  const bool skip = summarize && n > 2 * kEdgeItems;
  const bool last = d + 1 == t.sizes.size();
  const size_t per_line =
      std::max<size_t>(1, (kLineWidth > indent ? kLineWidth - indent : 0) / (width + 2));
  out += "[";
  size_t cells = 0;  // on this dim, the separators already written
  auto separate = [&] {
    if (cells++ == 0) return;
    if (!last) {
      out += "," + std::string(t.sizes.size() - d - 1, '\n') + std::string(indent + 1, ' ');
    } else if ((cells - 1) % per_line == 0) {
      out += ",\n" + std::string(indent + 1, ' ');
    } else {
      out += ", ";
    }
  };
  for (int64_t i = 0; i < n; ++i) {
    if (skip && i == kEdgeItems) {
      separate();
      out += last ? " ..." : "...";
      i = n - kEdgeItems;
    }
    separate();
    const int64_t off = offset + i * t.strides[d];
    if (last) {
      std::string cell = format_element(base + off * esize, t.dtype, mode);
      if (cell.size() < width) out += std::string(width - cell.size(), ' ');
      out += cell;
    } else {
      format_dims(out, t, d + 1, off, indent + 1, mode, width, summarize);
    }
  }
  out += "]";
}

// Calls fn(offset) for each element format_dims prints (in a summarized tensor, the first and
// last kEdgeItems entries of each longer dim), so that choosing the notation and width of a huge
// or expanded tensor reads only what is shown, not every element (an expand to [2**40] would
// otherwise take hours).
template <typename F>
void for_each_shown(const TensorImpl& t, size_t d, int64_t offset, bool summarize, F&& fn) {
  if (d == t.sizes.size()) {
    fn(offset);
    return;
  }
  const int64_t n = t.sizes[d];
  for (int64_t i = 0; i < n; ++i) {
    if (summarize && n > 2 * kEdgeItems && i == kEdgeItems) i = n - kEdgeItems;
    for_each_shown(t, d + 1, offset + i * t.strides[d], summarize, fn);
  }
}

}  // namespace

std::string Tensor::to_string() const {
  if (!impl_) return "Tensor(undefined)";
  const TensorImpl& t = *impl_;
  std::string out = "tensor(";
  const size_t indent = 7;  // strlen("tensor(")
  if (t.numel == 0) {
    // PyTorch's: the shape only when it is not (0,), as a Python tuple.
    out += "[]";
    if (t.sizes.size() != 1) {
      out += ", size=(";
      for (size_t i = 0; i < t.sizes.size(); ++i) {
        out += (i ? ", " : "") + std::to_string(t.sizes[i]);
      }
      out += t.sizes.size() == 1 ? ",)" : ")";
    }
  } else {
    const bool summarize = t.numel > kThreshold;
    // Pick the notation and the column width from the elements shown (PyTorch's _Formatter:
    // for floating dtypes from the nonzero finite ones only, the width at least 1).
    FloatMode mode = FloatMode::kInt;
    size_t width = 0;
    const size_t esize = element_size(t.dtype);
    const char* base = static_cast<const char*>(t.storage->data) + t.storage_offset * esize;
    if (is_floating_point(t.dtype)) {
      width = 1;
      double lo = INFINITY, hi = 0.0;
      bool any = false;
      for_each_shown(t, 0, 0, summarize, [&](int64_t off) {
        const double v = internal::read_element<double>(base + off * esize, t.dtype);
        if (!std::isfinite(v) || v == 0.0) return;
        any = true;
        lo = std::min(lo, std::fabs(v));
        hi = std::max(hi, std::fabs(v));
        if (v != std::ceil(v)) mode = FloatMode::kFixed;
      });
      if (any && (hi / lo > 1000.0 || hi > 1.0e8 || (mode == FloatMode::kFixed && lo < 1.0e-4))) {
        mode = FloatMode::kSci;
      }
      for_each_shown(t, 0, 0, summarize, [&](int64_t off) {
        const double v = internal::read_element<double>(base + off * esize, t.dtype);
        if (!std::isfinite(v) || v == 0.0) return;
        width = std::max(width, format_element(base + off * esize, t.dtype, mode).size());
      });
    } else {
      for_each_shown(t, 0, 0, summarize, [&](int64_t off) {
        width = std::max(width, format_element(base + off * esize, t.dtype, mode).size());
      });
    }
    if (t.sizes.empty()) {
      out += format_element(base, t.dtype, mode);
    } else {
      format_dims(out, t, 0, t.storage_offset, indent, mode, width, summarize);
    }
  }
  if (t.dtype != ScalarType::Double) out += std::string(", dtype=") + gradgen::to_string(t.dtype);
  if (const auto& fn = grad_fn()) {
    out += ", grad_fn=<" + autograd::node_name(*fn) + ">";
  } else if (t.requires_grad) {
    out += ", requires_grad=true";
  }
  return out + ")";
}

std::ostream& operator<<(std::ostream& out, const Tensor& t) { return out << t.to_string(); }

// ---------------------------------------------------------------------------
// Factories
// ---------------------------------------------------------------------------

Tensor empty(IntArrayRef sizes, ScalarType dtype) { return make_tensor(sizes, dtype, "empty"); }

Tensor zeros(IntArrayRef sizes, ScalarType dtype) {
  Tensor out = make_tensor(sizes, dtype, "zeros");
  std::memset(out.unsafe_impl()->storage->data, 0, out.unsafe_impl()->storage->nbytes);
  return out;
}

Tensor ones(IntArrayRef sizes, ScalarType dtype) {
  Tensor out = make_tensor(sizes, dtype, "ones");
  internal::fill_(out, Scalar(1));
  out.unsafe_impl()->storage->version = 0;  // a fresh tensor starts at version 0
  return out;
}

Tensor full(IntArrayRef sizes, const Scalar& value, ScalarType dtype) {
  Tensor out = make_tensor(sizes, dtype, "full");
  internal::fill_(out, value);
  out.unsafe_impl()->storage->version = 0;  // a fresh tensor starts at version 0
  return out;
}

Tensor tensor(std::vector<double> data, IntArrayRef sizes) {
  const int64_t n = internal::checked_numel(sizes, "tensor");
  if (static_cast<int64_t>(data.size()) != n) {
    throw std::invalid_argument("tensor: expected " + std::to_string(n) + " values for shape " +
                                shape_str(sizes) + ", got " + std::to_string(data.size()));
  }
  Tensor out = make_tensor(sizes, ScalarType::Double, "tensor");
  if (n > 0) std::memcpy(out.data_ptr<double>(), data.data(), data.size() * sizeof(double));
  return out;
}

Tensor tensor(std::vector<double> data) {
  const int64_t n = static_cast<int64_t>(data.size());
  return tensor(std::move(data), IntArrayRef(&n, 1));
}

Tensor randn(IntArrayRef sizes, uint64_t seed) {
  Tensor out = make_tensor(sizes, ScalarType::Double, "randn");
  double* p = out.data_ptr<double>();
  const int64_t n = out.numel();
  std::mt19937_64 gen(seed);
  // Uniform doubles from the top 53 bits; u1 in (0, 1] so that log(u1) is finite.
  constexpr double kInv53 = 1.0 / 9007199254740992.0;
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  for (int64_t i = 0; i < n; i += 2) {
    const double u1 = (static_cast<double>(gen() >> 11) + 1.0) * kInv53;
    const double u2 = static_cast<double>(gen() >> 11) * kInv53;
    const double r = std::sqrt(-2.0 * std::log(u1));
    p[i] = r * std::cos(kTwoPi * u2);
    if (i + 1 < n) p[i + 1] = r * std::sin(kTwoPi * u2);
  }
  return out;
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol) {
  if (!a.defined() || !b.defined()) {
    throw std::invalid_argument("allclose: expected two defined tensors");
  }
  if (!a.sizes().equals(b.sizes())) return false;
  const size_t ea = element_size(a.scalar_type()), eb = element_size(b.scalar_type());
  const char* pa =
      static_cast<const char*>(a.unsafe_impl()->storage->data) + a.storage_offset() * ea;
  const char* pb =
      static_cast<const char*>(b.unsafe_impl()->storage->data) + b.storage_offset() * eb;
  bool close = true;
  internal::for_each_offset(a.sizes(), a.strides(), b.strides(), [&](int64_t oa, int64_t ob) {
    const double x = internal::read_element<double>(pa + oa * ea, a.scalar_type());
    const double y = internal::read_element<double>(pb + ob * eb, b.scalar_type());
    if (!(x == y || std::fabs(x - y) <= atol + rtol * std::fabs(y))) close = false;
  });
  return close;
}

}  // namespace gradgen
