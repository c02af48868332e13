// PyTorch's calling conventions that nanobind's argument matching lacks (conventions.cc):
// NumPy's argument names as aliases, sizes as varargs and factories' requires_grad=. The generated
// bindings apply them to every op that takes them (codegen_support.h); Tensor.size/stride take
// `axis=` too.
#pragma once

#include <nanobind/nanobind.h>

namespace gradgen {
namespace python {

/// The conventions, for apply_conventions: bit flags.
enum Conventions : unsigned {
  kAxisAlias = 1,       // `axis=` for `dim=` (NumPy's name, as torch's python_arg_parser)
  kKeepdimsAlias = 2,   // `keepdims=` for `keepdim=`
  kVarargsIntList = 4,  // `view(2, 3)` for `view((2, 3))`: an op whose only positional
                        // parameter (after a method's self) is an int[] takes its ints as varargs
  kRequiresGrad = 8,    // `arange(3., requires_grad=True)`: a factory (an op taking dtype, layout,
                        // device and pin_memory) takes `requires_grad=`, a bool set on its result
};

/// Makes the function or method `name` of `scope` (a module, or gradgen.Tensor for a method)
/// accept these conventions, once all its overloads are defined: it is replaced by a callable
/// that rewrites such calls and hands them on. Returns false with a Python error set on failure.
bool apply_conventions(PyObject* scope, const char* name, unsigned conventions) noexcept;

}  // namespace python
}  // namespace gradgen
