// The parts of the gradgen._C module init: module.cc calls them in this order (each adds to what
// the ones before it made: gradgen.Tensor's methods need the class, the casters the dtypes).
#pragma once

#include <nanobind/nanobind.h>

namespace gradgen {
namespace python {

// --- types (types.cc) -------------------------------------------------------------------------

/// The translation of the runtime's C++ exceptions into Python's.
void init_exceptions(nanobind::module_& m);
/// gradgen.dtype, layout, memory_format, device and their instances (the objects of casters.h).
void init_dtypes(nanobind::module_& m);

// --- gradgen.Tensor (tensor_*.cc) ---------------------------------------------------------------

/// The class, its shape, dtype, printing, type() and transposes (tensor_properties.cc).
void init_tensor_class(nanobind::module_& m);
/// Python's conversions (item, tolist, bool, float, int, index), gradgen.tensor(data) and
/// gradgen.is_tensor (tensor_conversion.cc).
void init_tensor_conversion(nanobind::module_& m);
/// Tensor.numpy, __array__, __dlpack__ and gradgen.from_numpy (tensor_numpy.cc).
void init_tensor_numpy(nanobind::module_& m);
/// len, iteration, x[key] and x[key] = value (tensor_indexing.cc).
void init_tensor_indexing(nanobind::module_& m);
/// requires_grad, grad, grad_fn, backward, register_hook and RemovableHandle
/// (tensor_autograd.cc).
void init_tensor_autograd(nanobind::module_& m);
/// The arithmetic operators and comparisons (tensor_operators.cc).
void init_tensor_operators(nanobind::module_& m);
/// The in-place operators `x += y`, ... (tensor_operators.cc).
void init_tensor_inplace_operators(nanobind::module_& m);

// --- autograd -----------------------------------------------------------------------------------

/// The graph's nodes (t.grad_fn: Node, AccumulateGrad) and its dot rendering (graph.cc).
void init_graph(nanobind::module_& m);
/// Grad mode, anomaly mode and autograd.backward/grad (autograd.cc).
void init_autograd(nanobind::module_& m);
/// Forward-mode AD: dual levels, make_dual and unpack_dual (autograd.cc).
void init_forward_ad(nanobind::module_& m);
/// gradgen.profiler's recorder (profiler.cc).
void init_profiler(nanobind::module_& m);
/// gradgen.jit's tracer (tracer.cc).
void init_tracer(nanobind::module_& m);

// --- factories (factories.cc) -------------------------------------------------------------------

/// gradgen.Generator, default_generator and manual_seed.
void init_random(nanobind::module_& m);
/// gradgen.empty, full and randn (zeros and ones are declared ops, bound by bind_generated).
void init_factories(nanobind::module_& m);

/// gradgen.set_default_dtype, get_default_dtype, result_type, promote_types and can_cast
/// (dtype_functions.cc).
void init_dtype_functions(nanobind::module_& m);

}  // namespace python
}  // namespace gradgen
