## The differentiable API: one wrapper per declaration. Its shape is `w.kind`
## (autograd_info.WrapperKind), printed by the def `body_<kind>` below.
##
## `hooks`: the profiler's and the tracer's scopes (csrc/autograd/profiler.h, tracer.h), from
## autograd_info.hook_facts; the tracer also gets each result, through `record_outputs`, just
## before the wrapper returns it.
<%def name="hooks(w)">\
<% h = w.hooks %>\
% if h.profile:
  profiler::RecordFunction profile_scope("${w.op_name}"${"".join(", " + a for a in h.args)});
% endif
% if h.trace:
  tracer::TracedOp trace_op("${w.op_name}", tracer::replay(static_cast<${h.function_pointer_type}>(&${w.op_ref})), {${", ".join('"%s"' % a for a in h.args)}}${"".join(", " + a for a in h.args)});
% else:
  tracer::UntracedOp trace_op("${w.op_name}");
% endif
</%def>\
<%def name="record_outputs(w, names)">\
% if not w.hooks.records_outputs:
% elif len(names) == 1:
  trace_op.output(${names[0]});
% elif names:
  trace_op.output(std::tie(${", ".join(names)}));
% endif
</%def>\
<%def name="call_kernel(w)">\
% if w.returns_void:
  ${w.call};
% else:
  ${w.return_type} result_ = ${w.call};
${record_outputs(w, ["result_"])}\
  return result_;
% endif
</%def>\
<%def name="name_value_pairs(names)">\
% for i, name in enumerate(names):
${", " if i else ""}{"${name}", ${name}}\
% endfor
</%def>\
## Forward mode, before the kernel (Note [Forward AD in wrappers], csrc/autograd/forward_ad.h):
## an op without forward formulas refuses tangents; one with formulas notes whether it has to
## compute them, and an in-place one keeps self's value when its formula reads it. One def per
## ForwardADKind, `forward_ad_before_<kind>`; after the kernel, `forward_ad_after_<kind>`.
<%def name="forward_ad_before_none(w, fw)"></%def>\
<%def name="forward_ad_before_not_implemented(w, fw)">\
  if (${fw.condition}) {
    forward_ad::throw_not_implemented("${w.op_name}", "${fw.reason}");
  }
</%def>\
<%def name="forward_ad_before_formulas(w, fw)">\
  const bool fw_grad_defined = ${fw.condition};
% if fw.original_self:
  const Tensor original_self_p = fw_grad_defined ? self.detach().clone() : Tensor();
% endif
</%def>\
## Forward mode, after the kernel: the outputs' tangents from the formulas, whose own ops
## compute no tangents (FormulaGuard); inputs without a tangent count as zeros.
<%def name="forward_ad_after_none(w, fw)"></%def>\
<%def name="forward_ad_after_not_implemented(w, fw)"></%def>\
<%def name="forward_ad_after_formulas(w, fw)">\
  if (fw_grad_defined) {
    forward_ad::FormulaGuard formula_guard;
% for t in fw.tangents:
    ${t}
% endfor
% if fw.original_self_t:
    const Tensor original_self_t = self_t.clone();
% endif
% for s in fw.sets:
    ${s}
% endfor
  }
</%def>\
<%def name="body_out(w)">\
## An out= variant: not differentiable, refuses inputs that require grad.
% if w.checked_args:
  check_out_no_requires_grad("${w.op_name}", { ${name_value_pairs(w.checked_args)} });
% endif
${call_kernel(w)}\
</%def>\
<%def name="body_not_implemented(w)">\
## No formulas: raises when a gradient would be needed.
% if w.checked_args:
  if (compute_requires_grad(${", ".join(w.checked_args)})) {
    throw_not_implemented("${w.op_name}");
  }
% endif
${call_kernel(w)}\
</%def>\
<%def name="body_plain(w)">\
## No gradient flows: calls the kernel.
${call_kernel(w)}\
</%def>\
<%def name="save(s)">\
% if s.condition:
    if (${s.condition}) grad_fn->${s.member} = ${s.value};
% else:
    grad_fn->${s.member} = ${s.value};
% endif
</%def>\
<%def name="body_differentiable(w)">\
## Builds the node when an input requires grad (saving what the formulas read of the inputs),
## runs the kernel, then wires the outputs into the graph and saves what is read of them.
<% n = w.node %>\
% if n.inplace:
  check_inplace(self, "${w.op_name}");
% endif
  GradFn<${n.node}> grad_fn;
  if (compute_requires_grad(${", ".join(n.diff_args)})) {
    grad_fn.create();
    grad_fn->set_next_edges(collect_next_edges(${", ".join(n.diff_args)}));
% for s in n.saved_inputs:
${save(s)}\
% endfor
% for s in n.list_sizes:
    grad_fn->${s.member} = ${s.arg}.size();
% endfor
  }
% if not n.outputs or (len(n.outputs) == 1 and n.inplace):
  ${w.call};
% elif len(n.outputs) == 1:
  ${w.return_type} ${n.outputs[0].name} = ${w.call};
% else:
%   for o in n.outputs:
  ${o.cpp_type} ${o.name};
%   endfor
  std::tie(${", ".join(o.name for o in n.outputs)}) = ${w.call};
% endif
${getattr(self, "forward_ad_after_" + w.forward_ad.kind)(w, w.forward_ad)}\
  if (grad_fn${n.history_condition}) {
% if n.inplace:
    rebase_history(self, grad_fn);
% else:
%   for name in n.history:
    set_history(${name}, grad_fn);
%   endfor
% endif
% for s in n.saved_outputs:
${save(s)}\
% endfor
  }
${record_outputs(w, [o.name for o in n.outputs])}\
% if len(n.outputs) == 1:
  return ${n.outputs[0].name};
% elif n.outputs:
  return ${w.return_type}(${", ".join(o.name for o in n.outputs)});
% endif
</%def>\
## Each wrapper, for `wrappers` in order (the file is the texts of its wrappers).
<%def name="definitions(wrappers)">\
% for w in wrappers:

// ${w.schema}
${w.signature} {
${hooks(w)}\
${getattr(self, "forward_ad_before_" + w.forward_ad.kind)(w, w.forward_ad)}\
${getattr(self, "body_" + w.kind)(w)}\
}
% endfor
</%def>\
// @generated by gradgen from ${functions_file} and ${derivatives_file}. Do not edit.

${variable_type_preamble}\

namespace ${namespace} {
% for ns in runtime_namespaces:
using namespace ${ns};
% endfor
using namespace ::gradgen::autograd;
using namespace ::${namespace}::autograd::generated;
% for ns in using_namespaces:
using namespace ${ns};
% endfor
${wrapper_definitions}\

}  // namespace ${namespace}
