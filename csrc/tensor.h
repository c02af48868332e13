// Tensor: gradgen's dense, strided, CPU tensor, with the autograd metadata inline.
//
// A `Tensor` is a one-pointer handle to a shared `TensorImpl`; copying a Tensor
// copies the handle (like torch.Tensor in Python), never the data. The impl holds
//   - the data view: element type, sizes, strides, storage offset, and a shared
//     `StorageImpl` (the bytes and the version counter, see Note [Version counter]);
//   - the autograd metadata PyTorch keeps in AutogradMeta: `requires_grad` (for
//     leaves), `grad_fn` + `output_nr` (for results of differentiable ops), `.grad`,
//     and a weak reference to the leaf's AccumulateGrad node.
// The metadata is inline rather than lazily allocated: one allocation per tensor.
//
// This header also declares the non-differentiable factories (`zeros`, `randn`,
// `tensor`, ...). The differentiable ops (`mm`, `cat`, ...) are generated into
// csrc/generated/VariableType.h; their kernels into csrc/generated/NativeFunctions.h.
//
//   Tensor a = randn({2, 3}, /*seed=*/0).set_requires_grad(true);
//   Tensor b = tensor({1, 2, 3, 4, 5, 6}, {3, 2});
//   Tensor c = mm(a, b);          // from VariableType.h; c.grad_fn() is MmBackward0
//   c.backward(ones({2, 2}));     // a.grad() now holds dc/da
//
// Accessors of data and shape on an undefined Tensor (`Tensor()`) throw, naming
// the accessor; the identity and autograd queries (`defined()`, `is_same()`,
// `requires_grad()`, `grad_fn()`, `is_leaf()`, `output_nr()`) and printing do not.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>     // generated signatures: Tensor? -> std::optional<Tensor>
#include <ostream>
#include <string>
#include <string_view>  // generated signatures: str -> std::string_view
#include <tuple>        // generated signatures: (Tensor, Tensor) -> std::tuple
#include <vector>

#include "csrc/scalar.h"
#include "csrc/util/array_ref.h"
#include "csrc/util/intrusive_ptr.h"
#include "csrc/util/small_vector.h"

namespace gradgen {

namespace autograd {
struct Node;
}  // namespace autograd

class Tensor;
struct TensorImpl;
struct StorageImpl;

/// Sizes or strides of one tensor; inline up to 5 dims.
using DimVector = SmallVector<int64_t, 5>;
using IntArrayRef = ArrayRef<int64_t>;
using TensorList = ArrayRef<Tensor>;

/// Formats a shape for error messages: "[2, 3]" ("[]" for a 0-dim tensor).
std::string shape_str(IntArrayRef shape);

namespace internal {
[[noreturn]] void throw_dim_out_of_range(int64_t dim, int64_t ndim, const char* op);
}  // namespace internal

/// Returns dim wrapped into [0, ndim) (-1 is the last dim); throws naming `op`
/// when dim is out of range. A 0-dim tensor accepts dims -1 and 0.
inline int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  const int64_t n = ndim == 0 ? 1 : ndim;
  if (dim < -n || dim >= n) internal::throw_dim_out_of_range(dim, ndim, op);
  return dim < 0 ? dim + n : dim;
}

class Tensor {
 public:
  /// Constructs an undefined tensor (what an absent gradient is).
  Tensor() noexcept = default;
  /// Wraps an impl; used by factories and kernels.
  explicit Tensor(intrusive_ptr<TensorImpl> impl) noexcept : impl_(std::move(impl)) {}

  // Identity
  /// Returns true unless this is an undefined Tensor().
  bool defined() const noexcept { return static_cast<bool>(impl_); }
  /// Returns true if both handles point at the same TensorImpl.
  bool is_same(const Tensor& other) const noexcept { return impl_ == other.impl_; }
  /// Returns the impl (null for an undefined tensor). For the runtime's own use.
  TensorImpl* unsafe_impl() const noexcept { return impl_.get(); }
  /// Returns the number of handles sharing this tensor's impl.
  uint32_t use_count() const noexcept { return impl_.use_count(); }

  // Shape and data
  /// Returns the size of every dim.
  IntArrayRef sizes() const;
  /// Returns the size of dim d; negative d counts from the end.
  int64_t size(int64_t d) const;
  /// Returns the stride (in elements) of every dim.
  IntArrayRef strides() const;
  /// Returns the stride of dim d; negative d counts from the end.
  int64_t stride(int64_t d) const;
  /// Returns the number of dims.
  int64_t dim() const;
  /// Returns the number of elements.
  int64_t numel() const;
  /// Returns the element type.
  ScalarType scalar_type() const;
  /// Returns the offset (in elements) of element 0 within the storage.
  int64_t storage_offset() const;
  /// Returns a pointer to element 0; throws unless T matches scalar_type().
  template <typename T>
  T* data_ptr() const;
  /// Returns the only element converted to T; throws unless numel() == 1.
  template <typename T>
  T item() const;
  /// Returns true if the elements are laid out densely in row-major order.
  bool is_contiguous() const;
  /// Returns this tensor if contiguous, else a contiguous copy. The copy has no
  /// autograd history: this is a helper for kernels, not a differentiable op.
  Tensor contiguous() const;
  /// Returns a contiguous copy of the data with no autograd history.
  Tensor clone() const;
  /// Returns a new tensor sharing data and version counter, without autograd history.
  Tensor detach() const;

  // Autograd
  /// Returns true for a leaf marked by set_requires_grad(true) or a result with a grad_fn.
  bool requires_grad() const noexcept;
  /// Marks a leaf as requiring grad; throws for non-leaves and non-floating types.
  const Tensor& set_requires_grad(bool requires_grad) const;
  /// Returns the accumulated gradient (undefined until a backward reaches this leaf).
  const Tensor& grad() const;
  /// Returns the accumulated gradient for assignment (e.g. to zero it: `= Tensor()`).
  Tensor& mutable_grad() const;
  /// Returns the node that computes this tensor's gradient inputs; null for leaves.
  const std::shared_ptr<autograd::Node>& grad_fn() const noexcept;
  /// Returns which input of grad_fn() this tensor's gradient feeds (0 for single-output ops).
  uint32_t output_nr() const noexcept;
  /// Returns true if the tensor has no grad_fn (created by the user or under no_grad).
  bool is_leaf() const noexcept;
  /// Returns the version counter: the number of in-place changes to the shared data.
  uint64_t version() const;
  /// Records an in-place change (kernels writing into existing data must call it).
  void bump_version() const;
  /// Computes the gradient of this tensor with respect to the graph leaves and
  /// accumulates it into their .grad. `gradient` may be omitted for 1-element tensors.
  /// See autograd::backward in csrc/autograd/engine.h.
  void backward(const Tensor& gradient = {}, bool retain_graph = false,
                bool create_graph = false) const;

  /// Returns a printout like "tensor([[1.0000, 2.0000]], grad_fn=<MmBackward0>)".
  std::string to_string() const;

 private:
  const TensorImpl& checked(const char* what) const;
  intrusive_ptr<TensorImpl> impl_;
};

std::ostream& operator<<(std::ostream& out, const Tensor& t);

// Note [Version counter]
// ~~~~~~~~~~~~~~~~~~~~~~
// Every storage carries one counter, incremented by each in-place change to its
// data (Tensor::bump_version). A SavedVariable records the counter when the forward
// runs and compares on unpack, so a backward formula never silently reads data that
// was modified after it was saved. Keeping the counter in the storage (not the
// tensor) makes all views and detach()ed aliases of the data share it, as PyTorch
// does; a copy (contiguous(), clone()) starts a new storage at version 0.

/// The bytes of a tensor and their version counter, in one allocation.
struct StorageImpl final : intrusive_target {
  /// Allocates a storage of nbytes uninitialized bytes (malloc-aligned), in the
  /// same allocation as the StorageImpl itself.
  static intrusive_ptr<StorageImpl> allocate(size_t nbytes);

  void* data = nullptr;
  size_t nbytes = 0;
  uint64_t version = 0;  // Note [Version counter]
};
void intrusive_ptr_destroy(StorageImpl* storage) noexcept;

/// The shared state behind a Tensor handle. Fields are public for the runtime
/// (kernels, engine, saved variables); user code goes through Tensor.
struct TensorImpl final : intrusive_target {
  // Data view.
  intrusive_ptr<StorageImpl> storage;
  int64_t storage_offset = 0;
  int64_t numel = 0;
  DimVector sizes;
  DimVector strides;
  ScalarType dtype = ScalarType::Double;
  bool is_contiguous = true;

  // Autograd metadata (PyTorch's AutogradMeta).
  bool requires_grad = false;  // set on leaves only; non-leaves derive it from grad_fn
  uint32_t output_nr = 0;
  std::shared_ptr<autograd::Node> grad_fn;
  std::weak_ptr<autograd::Node> grad_accumulator;  // the leaf's AccumulateGrad, if alive
  Tensor grad;

  /// Recomputes numel and is_contiguous after sizes or strides change.
  void refresh_numel_and_contiguity();
};
void intrusive_ptr_destroy(TensorImpl* impl) noexcept;

/// Creates an impl with fresh contiguous storage for `sizes` (data uninitialized).
Tensor make_tensor(IntArrayRef sizes, ScalarType dtype);

// ---------------------------------------------------------------------------
// Factories (non-differentiable: results are leaves with requires_grad false).
// ---------------------------------------------------------------------------

/// Returns a tensor of the given shape with uninitialized data.
Tensor empty(IntArrayRef sizes, ScalarType dtype = ScalarType::Double);
/// Returns a tensor of the given shape filled with 0.
Tensor zeros(IntArrayRef sizes, ScalarType dtype = ScalarType::Double);
/// Returns a tensor of the given shape filled with 1.
Tensor ones(IntArrayRef sizes, ScalarType dtype = ScalarType::Double);
/// Returns a tensor of the given shape filled with value.
Tensor full(IntArrayRef sizes, const Scalar& value, ScalarType dtype = ScalarType::Double);
/// Returns a float64 tensor of the given shape holding data in row-major order;
/// throws unless data.size() equals the product of sizes.
Tensor tensor(std::vector<double> data, IntArrayRef sizes);
/// Returns a 1-D float64 tensor holding data.
Tensor tensor(std::vector<double> data);
/// Returns a float64 tensor of standard normal samples, the same for the same
/// seed on every platform (std::mt19937_64 and Box-Muller).
Tensor randn(IntArrayRef sizes, uint64_t seed);
/// Returns true if a and b have the same shape and |a - b| <= atol + rtol * |b|
/// elementwise (NaNs compare unequal).
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8);

// ---------------------------------------------------------------------------
// Inline definitions (the hot accessors).
// ---------------------------------------------------------------------------

namespace internal {
[[noreturn]] void throw_undefined_tensor(const char* what);
[[noreturn]] void throw_dtype_mismatch(const char* what, ScalarType expected, ScalarType found);
[[noreturn]] void throw_item_not_single(IntArrayRef sizes);

/// Reads the element at p, stored as dtype, converted to T.
template <typename T>
T read_element(const void* p, ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Float: return static_cast<T>(*static_cast<const float*>(p));
    case ScalarType::Double: return static_cast<T>(*static_cast<const double*>(p));
    case ScalarType::Long: return static_cast<T>(*static_cast<const int64_t*>(p));
    case ScalarType::Bool: return static_cast<T>(*static_cast<const bool*>(p));
  }
  return T();
}
}  // namespace internal

inline const TensorImpl& Tensor::checked(const char* what) const {
  if (!impl_) internal::throw_undefined_tensor(what);
  return *impl_;
}
inline IntArrayRef Tensor::sizes() const {
  const TensorImpl& impl = checked("sizes");
  return IntArrayRef(impl.sizes.data(), impl.sizes.size());
}
inline IntArrayRef Tensor::strides() const {
  const TensorImpl& impl = checked("strides");
  return IntArrayRef(impl.strides.data(), impl.strides.size());
}
inline int64_t Tensor::size(int64_t d) const {
  const TensorImpl& impl = checked("size");
  return impl.sizes[wrap_dim(d, static_cast<int64_t>(impl.sizes.size()), "size")];
}
inline int64_t Tensor::stride(int64_t d) const {
  const TensorImpl& impl = checked("stride");
  return impl.strides[wrap_dim(d, static_cast<int64_t>(impl.strides.size()), "stride")];
}
inline int64_t Tensor::dim() const { return static_cast<int64_t>(checked("dim").sizes.size()); }
inline int64_t Tensor::numel() const { return checked("numel").numel; }
inline ScalarType Tensor::scalar_type() const { return checked("scalar_type").dtype; }
inline int64_t Tensor::storage_offset() const { return checked("storage_offset").storage_offset; }
inline bool Tensor::is_contiguous() const { return checked("is_contiguous").is_contiguous; }
inline Tensor Tensor::contiguous() const {
  return checked("contiguous").is_contiguous ? *this : clone();
}
inline bool Tensor::requires_grad() const noexcept {
  return impl_ && (impl_->requires_grad || impl_->grad_fn);
}
inline const std::shared_ptr<autograd::Node>& Tensor::grad_fn() const noexcept {
  static const std::shared_ptr<autograd::Node> kNone;
  return impl_ ? impl_->grad_fn : kNone;
}
inline uint32_t Tensor::output_nr() const noexcept { return impl_ ? impl_->output_nr : 0; }
inline bool Tensor::is_leaf() const noexcept { return !impl_ || !impl_->grad_fn; }
inline uint64_t Tensor::version() const { return checked("version").storage->version; }
inline void Tensor::bump_version() const { ++checked("bump_version").storage->version; }
inline const Tensor& Tensor::grad() const { return checked("grad").grad; }
inline Tensor& Tensor::mutable_grad() const {
  checked("mutable_grad");
  return impl_->grad;
}

template <typename T>
T* Tensor::data_ptr() const {
  const TensorImpl& impl = checked("data_ptr");
  if (impl.dtype != scalar_type_of<T>::value) {
    internal::throw_dtype_mismatch("data_ptr", scalar_type_of<T>::value, impl.dtype);
  }
  return static_cast<T*>(impl.storage->data) + impl.storage_offset;
}

template <typename T>
T Tensor::item() const {
  const TensorImpl& impl = checked("item");
  if (impl.numel != 1) {
    internal::throw_item_not_single(IntArrayRef(impl.sizes.data(), impl.sizes.size()));
  }
  const char* base = static_cast<const char*>(impl.storage->data);
  const size_t offset = static_cast<size_t>(impl.storage_offset) * element_size(impl.dtype);
  return internal::read_element<T>(base + offset, impl.dtype);
}

inline void intrusive_ptr_destroy(TensorImpl* impl) noexcept { delete impl; }

}  // namespace gradgen
