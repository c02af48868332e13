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
#include <functional>
#include <memory>
#include <optional>  // generated signatures: Tensor? -> std::optional<Tensor>
#include <iosfwd>    // operator<< is declared here, defined in tensor.cc
#include <string>
#include <string_view>  // generated signatures: str -> std::string_view
#include <tuple>        // generated signatures: (Tensor, Tensor) -> std::tuple
#include <type_traits>
#include <utility>
#include <vector>

#include "csrc/generator.h"  // generated signatures: Generator? -> std::optional<Generator>
#include "csrc/scalar.h"
#include "csrc/util/array_ref.h"
#include "csrc/util/block_pool.h"
#include "csrc/util/intrusive_ptr.h"
#include "csrc/util/macros.h"
#include "csrc/util/optional_array_ref.h"  // generated signatures: int[]? -> OptionalIntArrayRef
#include "csrc/util/small_vector.h"

namespace gradgen {

namespace autograd {
struct Node;
struct TensorHooks;
struct ForwardGrad;
/// The node's name ("MulBackward0"), for messages of the tensor layer, which knows nodes only by
/// this declaration (defined with Node, in csrc/autograd/function.cc).
std::string node_name(const Node& node);
}  // namespace autograd

class Tensor;
struct TensorImpl;
struct StorageImpl;

/// Sizes or strides of one tensor; inline up to 5 dims.
using DimVector = SmallVector<int64_t, 5>;
using IntArrayRef = ArrayRef<int64_t>;
using TensorList = ArrayRef<Tensor>;

// Argument types of PyTorch schemas that gradgen's CPU-only, strided runtime
// accepts with a single meaningful value, so that specs can keep PyTorch's
// schemas (`zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, ...)`).
/// Memory layout: only strided tensors exist.
enum class Layout : int8_t { Strided };
/// Device: only the CPU exists.
enum class Device : int8_t { CPU };
/// Memory format asked of a new tensor: kernels produce row-major tensors for both.
enum class MemoryFormat : int8_t { Contiguous, Preserve };

/// How a loss reduces over the batch, as in ATen: the schema's `int reduction=Mean`.
namespace Reduction {
enum Reduction : int64_t { None = 0, Mean = 1, Sum = 2 };
}  // namespace Reduction

/// Formats a shape for error messages: "[2, 3]" ("[]" for a 0-dim tensor).
std::string shape_str(IntArrayRef shape);

// PyTorch's symbolic integers, in formulas written as PyTorch writes them: gradgen's shapes are
// concrete, so a SymInt is a plain integer and a SymIntArrayRef a plain IntArrayRef.
using SymInt = int64_t;
using SymIntArrayRef = IntArrayRef;

/// What PyTorch's `Tensor::options()` gives a formula (`split_backward(..., self.options())`):
/// the properties a new tensor takes from an existing one. gradgen's tensors differ only in
/// dtype (all are strided, on the CPU).
struct TensorOptions {
  ScalarType dtype_ = ScalarType::Float;
  ScalarType dtype() const noexcept { return dtype_; }
  Layout layout() const noexcept { return Layout::Strided; }
  Device device() const noexcept { return Device::CPU; }
};

namespace internal {
[[noreturn]] void throw_dim_out_of_range(int64_t dim, int64_t ndim, const char* op);
/// Returns the number of elements of a tensor of shape `sizes`; throws naming `op`
/// (or the op the user called, csrc/util/op_context.h) and the shape for a negative
/// size (std::invalid_argument) or a product that overflows int64 (std::runtime_error,
/// like PyTorch's "Storage size calculation overflowed").
int64_t checked_numel(IntArrayRef sizes, const char* op);
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
  // Copies and destruction are a reference count; forced inline so that big generated files
  // pay no call for them (see csrc/util/macros.h).
  GRADGEN_ALWAYS_INLINE Tensor(const Tensor&) noexcept = default;
  GRADGEN_ALWAYS_INLINE Tensor(Tensor&&) noexcept = default;
  GRADGEN_ALWAYS_INLINE Tensor& operator=(const Tensor&) noexcept = default;
  GRADGEN_ALWAYS_INLINE Tensor& operator=(Tensor&&) noexcept = default;
  GRADGEN_ALWAYS_INLINE ~Tensor() = default;
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

  // PyTorch's spellings of the above, so that formulas taken from PyTorch's derivatives.yaml
  // compile as written: sizes are concrete (no SymInt), every tensor is strided and real, so the
  // layout is Strided and no tensor is a conjugate or negative view.
  IntArrayRef sym_sizes() const { return sizes(); }
  int64_t sym_size(int64_t d) const { return size(d); }
  IntArrayRef sym_strides() const { return strides(); }
  int64_t sym_stride(int64_t d) const { return stride(d); }
  int64_t sym_numel() const { return numel(); }
  Layout layout() const noexcept { return Layout::Strided; }
  bool is_conj() const noexcept { return false; }
  bool is_neg() const noexcept { return false; }
  bool is_complex() const noexcept { return false; }
  TensorOptions options() const { return TensorOptions{scalar_type()}; }
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
  /// Returns a contiguous copy of the data (a new storage at version 0). Like
  /// PyTorch's, it is differentiable: with GradMode on and a self that requires
  /// grad, the copy's history passes its gradient to self (the generated code of
  /// in-place ops saves `self.clone()`, which a double backward differentiates).
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
  /// Returns the node that computes this tensor's gradient inputs; null for leaves. For a
  /// view whose base was modified in place since, regenerates it first (Note [Views]); throws
  /// then for a view that may not follow its base (made in no_grad mode, or by split & co).
  const std::shared_ptr<autograd::Node>& grad_fn() const;
  /// Returns which input of grad_fn() this tensor's gradient feeds (0 for single-output ops).
  uint32_t output_nr() const;
  /// Returns true if the tensor has no grad_fn (created by the user or under no_grad).
  bool is_leaf() const;
  /// Returns the version counter: the number of in-place changes to the shared data.
  uint64_t version() const;
  /// Records an in-place change (kernels writing into existing data must call it).
  void bump_version() const;
  /// Computes the gradient of this tensor with respect to the graph leaves and
  /// accumulates it into their .grad. `gradient` may be omitted for 1-element tensors.
  /// See autograd::backward in csrc/autograd/engine.h.
  void backward(const Tensor& gradient = {}, bool retain_graph = false,
                bool create_graph = false) const;

  // Hooks (implemented in csrc/autograd/hooks.cc)
  /// Registers `hook`, called with this tensor's gradient each time one is computed
  /// (before it reaches .grad or flows further). It may return a replacement
  /// gradient (same shape and dtype), or return void / an undefined Tensor to keep
  /// it. Hooks run in registration order. Returns a handle for remove_hook().
  /// Throws for a tensor that does not require grad.
  template <typename F>
  unsigned register_hook(F&& hook) const;
  /// Removes a hook registered with register_hook(); unknown handles are ignored.
  void remove_hook(unsigned handle) const;
  /// Makes backward() store this non-leaf's gradient in .grad, like a leaf's
  /// (leaves retain theirs already: a no-op for them).
  void retain_grad() const;
  /// Returns true for a non-leaf whose gradient is retained (see retain_grad()).
  bool retains_grad() const noexcept;
  /// Returns true if this tensor was made by a view op (view, transpose, narrow, ...)
  /// and shares its storage with the tensor it was made from.
  bool is_view() const noexcept;
  /// Returns the root base of a view (the non-view tensor it was made from, through any
  /// chain of views), or an undefined tensor for a non-view (PyTorch's `_base`).
  const Tensor& base() const noexcept;

  /// Returns a printout like "tensor([[1.0000, 2.0000]], grad_fn=<MmBackward0>)".
  std::string to_string() const;

 private:
  unsigned register_hook_impl(std::function<Tensor(const Tensor&)> hook) const;
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

// Note [Views]
// ~~~~~~~~~~~~
// View ops (view, reshape when it can, transpose, permute, t, expand, squeeze,
// unsqueeze, narrow, select, split, unbind, chunk, to without a copy) return a new
// TensorImpl over the same storage with its own sizes, strides and offset: no data
// is copied, and an in-place change through either is seen by both (they share the
// version counter). Their Backward nodes map the view's gradient back to the base's
// shape. As in PyTorch, autograd follows in-place changes through views:
//  - every view keeps, in its `ViewMeta` (null for non-views), its *root base* (the
//    first non-view tensor of the chain, so a view of a view points at the root) and the
//    storage version at which its grad_fn was last set;
//  - an in-place op on a view (`x[0].mul_(3)`) rewrites the base's history: the base's
//    grad_fn becomes a `CopySlices` node, which passes the gradient of the base
//    through unchanged except for the view's slice, which goes through the in-place
//    op's node (csrc/autograd/basic_ops.h);
//  - when the storage's version moved since a view's grad_fn was set (its base, or
//    another view of it, was modified in place), grad_fn() regenerates it as an
//    `AsStridedBackward0` node from the base's current history, which maps the view's
//    gradient into the base's geometry (sizes, strides, offset). Non-views pay one
//    well-predicted branch in grad_fn() for this.
// Refused, as in PyTorch (check_inplace, csrc/autograd/variable_type_utils.h): an
// in-place op on a view of a leaf that requires grad; on a view made in no_grad mode,
// or one of several views returned by one op (split, unbind, chunk), when autograd
// would need to rewrite the history (and such a view's grad_fn once its base was
// modified in place). detach() returns a non-view alias: changes through it bump the
// version (so views regenerate their grad_fn) but record no history.

/// The bytes of a tensor and their version counter, in one allocation.
struct StorageImpl final : intrusive_target {
  /// Allocates a storage of nbytes uninitialized bytes (malloc-aligned), in the
  /// same allocation as the StorageImpl itself.
  /// Throws std::bad_alloc if the allocation fails.
  static intrusive_ptr<StorageImpl> allocate(size_t nbytes);
  /// The same, but returns null if the allocation fails.
  static intrusive_ptr<StorageImpl> try_allocate(size_t nbytes) noexcept;
  /// Makes a storage over nbytes at `data`, memory it does not own (a NumPy array's, say):
  /// when the storage dies it calls release(context) instead of freeing anything.
  static intrusive_ptr<StorageImpl> wrap(void* data, size_t nbytes, void (*release)(void*) noexcept,
                                         void* context);

  // The data follows the header in the same block (allocate()); false for wrap(). First, so
  // that it fills the padding after the reference count.
  bool inline_data = false;
  void* data = nullptr;
  size_t nbytes = 0;
  void (*release)(void*) noexcept = nullptr;  // set by wrap(): gives the memory back
  void* release_context = nullptr;
  uint64_t version = 0;  // Note [Version counter]
};
void intrusive_ptr_destroy(StorageImpl* storage) noexcept;

/// How a view was made, for the in-place ops autograd refuses on it (Note [Views]).
enum class ViewCreation : uint8_t {
  Default,      // by a view op with GradMode on
  NoGradMode,   // with GradMode off
  MultiOutput,  // one of several views returned by one op (split, unbind, chunk)
};

/// What a view keeps of how it was made (Note [Views]).
struct ViewMeta {
  Tensor base;           // the root base (never a view itself): its history is rewritten
  uint64_t version = 0;  // storage version when grad_fn was last set; stale: regenerate
  ViewCreation creation = ViewCreation::Default;

  // Made with every view (a formula's narrow, expand, ...): from the pool of small blocks, as
  // TensorImpl is (csrc/util/block_pool.h).
  static void* operator new(size_t bytes) { return internal::pooled_new(bytes); }
  static void operator delete(void* p, size_t bytes) noexcept { internal::pooled_free(p, bytes); }
};

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
  bool is_view = false;  // made by a view op: shares storage with its base (Note [Views])
  // A Python number made a 0-dim tensor by an operator (`x * 2`), as PyTorch's wrapped numbers:
  // type promotion counts it as the number it was (ResultType), not as a 0-dim tensor.
  bool is_wrapped_number = false;

  // Autograd metadata (PyTorch's AutogradMeta).
  bool requires_grad = false;  // set on leaves only; non-leaves derive it from grad_fn
  uint32_t output_nr = 0;
  std::shared_ptr<autograd::Node> grad_fn;
  std::weak_ptr<autograd::Node> grad_accumulator;  // the leaf's AccumulateGrad, if alive
  Tensor grad;
  std::shared_ptr<autograd::TensorHooks> hooks;  // register_hook / retain_grad; usually null

  // Forward-mode AD (csrc/autograd/forward_ad.h): this tensor's tangent and the dual level it
  // belongs to; null for a tensor that never had a tangent. Read and written only through
  // forward_ad.h's functions. A tangent from a level that has exited is ignored (and freed when
  // that level exits). Shared by the detached copies a SavedVariable keeps of an output, so that
  // formulas run in a backward (forward-over-reverse) see the output's tangent.
  std::shared_ptr<autograd::ForwardGrad> fw_grad;

  // View metadata (Note [Views]): set by make_view, with is_view; null for non-views (one
  // pointer, so that tensors that are not views stay as small as before).
  std::unique_ptr<ViewMeta> view;

  TensorImpl() = default;
  ~TensorImpl() {
    if (hooks) release_hooks();
  }
  // Allocated from the runtime's pool of small blocks (csrc/util/block_pool.h): a few
  // instructions instead of malloc's slow paths for the many short-lived tensors of a graph.
  static void* operator new(size_t bytes) { return internal::pooled_new(bytes); }
  static void operator delete(void* p, size_t bytes) noexcept { internal::pooled_free(p, bytes); }

  /// Recomputes numel and is_contiguous after sizes or strides change; throws
  /// naming `op` if the number of elements overflows (internal::checked_numel).
  void refresh_numel_and_contiguity(const char* op = "view");

 private:
  void release_hooks() noexcept;  // tells retain_grad's hook that this tensor died
};
void intrusive_ptr_destroy(TensorImpl* impl) noexcept;

/// Creates an impl with fresh contiguous storage for `sizes` (data uninitialized).
/// Throws naming `op` (or the op the user called) and the shape when a size is
/// negative (std::invalid_argument), numel, a stride or the byte count overflows
/// int64, or the allocation fails (std::runtime_error).
Tensor make_tensor(IntArrayRef sizes, ScalarType dtype, const char* op = "empty");

// ---------------------------------------------------------------------------
// Factories (non-differentiable: results are leaves with requires_grad false).
// ---------------------------------------------------------------------------

/// Returns a tensor over memory it does not own (no copy), `strides` in elements (not negative):
/// element i0, i1, ... is at data + sum(ik * strides[k]) * element_size(dtype). When the last
/// tensor or view of it dies, release(context) is called (it may be null). The caller keeps the
/// memory alive and does not free it until then. Throws, calling release, on a negative stride
/// or size or a size/stride count mismatch.
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                 void (*release)(void*) noexcept = nullptr, void* context = nullptr);

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
/// Returns a contiguous copy of t with no autograd history (for kernels).
Tensor copy_contiguous(const Tensor& t);
/// A differentiable conversion to a dtype (the op library registers its `to`).
using ToDtypeFn = Tensor (*)(const Tensor& t, ScalarType dtype);
/// Registers the conversion to_dtype uses.
void set_to_dtype_fn(ToDtypeFn fn) noexcept;
/// Returns t converted to dtype (t itself if it has it): through the registered, differentiable
/// conversion, else a copy without history. The engine converts gradients to their input's dtype
/// with it, as PyTorch's validate_outputs.
Tensor to_dtype(const Tensor& t, ScalarType dtype);
/// Shows a warning (PyTorch's TORCH_WARN): the Python bindings install a handler that raises a
/// Python UserWarning; without one, nothing is shown.
using WarningHandler = void (*)(const std::string& message);
/// Installs the handler warn() calls; returns the previous one (null: none).
WarningHandler set_warning_handler(WarningHandler handler) noexcept;
void warn(const std::string& message);

/// Makes `view` (a fresh impl over self's storage) a view of self (Note [Views]): is_view, the
/// root base, the current version, and how it was made (grad_mode: GradMode was on; a view of
/// a view made in no_grad mode or by split & co inherits that).
void init_view(TensorImpl& view, const Tensor& self, bool grad_mode);
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
    case ScalarType::Int: return static_cast<T>(*static_cast<const int32_t*>(p));
    case ScalarType::Short: return static_cast<T>(*static_cast<const int16_t*>(p));
    case ScalarType::Char: return static_cast<T>(*static_cast<const int8_t*>(p));
    case ScalarType::Byte: return static_cast<T>(*static_cast<const uint8_t*>(p));
    case ScalarType::Half: return static_cast<T>(static_cast<float>(*static_cast<const Half*>(p)));
    case ScalarType::BFloat16:
      return static_cast<T>(static_cast<float>(*static_cast<const BFloat16*>(p)));
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
  return checked("contiguous").is_contiguous ? *this : internal::copy_contiguous(*this);
}
namespace internal {
/// The grad_fn of a view, regenerated if its storage's version moved (Note [Views]). Defined
/// with the node it makes, in csrc/autograd/basic_ops.cc.
const std::shared_ptr<autograd::Node>& view_grad_fn(const Tensor& view);
}  // namespace internal

GRADGEN_ALWAYS_INLINE bool Tensor::requires_grad() const noexcept {
  if (!impl_) return false;
  if (impl_->requires_grad || impl_->grad_fn) return true;
  if (__builtin_expect(!impl_->is_view, 1)) return false;
  // A view requires grad when its base does (even before its grad_fn is regenerated). The
  // root base is never a view: no recursion, so this stays inline.
  const TensorImpl& base = *impl_->view->base.impl_;
  return base.requires_grad || base.grad_fn;
}
GRADGEN_ALWAYS_INLINE const std::shared_ptr<autograd::Node>& Tensor::grad_fn() const {
  static const std::shared_ptr<autograd::Node> kNone;
  if (!impl_) return kNone;
  if (__builtin_expect(impl_->is_view, 0)) return internal::view_grad_fn(*this);
  return impl_->grad_fn;
}
inline uint32_t Tensor::output_nr() const {
  if (!impl_) return 0;
  if (__builtin_expect(impl_->is_view, 0)) internal::view_grad_fn(*this);
  return impl_->output_nr;
}
inline bool Tensor::is_leaf() const { return !grad_fn(); }
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

inline bool Tensor::is_view() const noexcept { return impl_ && impl_->is_view; }
inline const Tensor& Tensor::base() const noexcept {
  static const Tensor kNone;
  return impl_ && impl_->is_view ? impl_->view->base : kNone;
}

template <typename F>
unsigned Tensor::register_hook(F&& hook) const {
  using R = decltype(hook(std::declval<const Tensor&>()));
  if constexpr (std::is_void<R>::value) {
    return register_hook_impl([fn = std::forward<F>(hook)](const Tensor& grad) mutable {
      fn(grad);
      return Tensor();
    });
  } else {
    static_assert(std::is_convertible<R, Tensor>::value,
                  "A tensor hook must return void or a Tensor (the replacement gradient).");
    return register_hook_impl(std::function<Tensor(const Tensor&)>(std::forward<F>(hook)));
  }
}

}  // namespace gradgen
