"""Emits gradcheck_test.cpp, the generated gradient test of a library (docs/samples.md).

Formats the plan load_samples.plan_samples made: one C++ function per case calling the op (and
its in-place and out= variants) on a vector of inputs, and a main() handing every case to
gradgen::testing::SampleRunner (csrc/testing/sample_check.h), which runs the checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List

from tools.codegen.load_samples import ArgKind, Case, OpPlan, ResultKind, TestPlan


@dataclass(frozen=True)
class CaseCode:
    """One case as the template prints it."""

    # The C++ function names of the case's calls ("" for a variant it does not check).
    fn: str
    inplace: str
    out: str
    # Their bodies' statements.
    fn_body: str
    inplace_body: str
    out_body: str
    # The SampleCase's initializer fields, as C++ expressions.
    fields: List[str]


def c_string(text: str) -> str:
    """`text` as a C++ string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _call_args(case: Case, self_local: str = "") -> List[str]:
    args = []
    for a in case.args:
        if a.kind is ArgKind.TENSOR:
            args.append(self_local if self_local and a.name == "self" else f"in[{a.first}]")
        elif a.kind is ArgKind.OPTIONAL_TENSOR:
            args.append(f"std::optional<Tensor>(in[{a.first}])")
        elif a.kind is ArgKind.TENSOR_LIST:
            args.append(f"TensorList(in.data() + {a.first}, {a.count})")
        else:
            args.append(a.cpp)
    return args


def _results(op: OpPlan, call: str) -> str:
    if op.result_kind is ResultKind.TENSOR:
        return f"return {{{call}}};"
    if op.result_kind is ResultKind.LIST:
        return f"return {call};"
    gets = ", ".join(f"std::get<{k}>(r)" for k in range(op.returns))
    return f"auto r = {call};\n  return {{{gets}}};"


def case_code(op: OpPlan, case: Case, k: int, api: str) -> CaseCode:
    """Case k (numbering every case of the file) of `op`; `api` is the namespace of the API."""
    args = _call_args(case)
    fn = f"case_{k}"
    fn_body = _results(op, f"{api}::{op.cpp_name}({', '.join(args)})")
    inplace = inplace_body = out = out_body = ""
    if "inplace" in case.checks and op.inplace_cpp_name:
        inplace = f"case_{k}_inplace"
        self_arg = next(a for a in case.args if a.name == "self")
        inplace_body = (
            f"Tensor self = in[{self_arg.first}].clone();\n"
            f"  {api}::{op.inplace_cpp_name}({', '.join(_call_args(case, 'self'))});\n"
            "  return {self};"
        )
    if "out" in case.checks and op.out_cpp_name:
        out = f"case_{k}_out"
        outs = ", ".join(f"outs[{o}]" for o in range(op.returns))
        out_body = f"{api}::{op.out_cpp_name}({', '.join(args + [outs])});"
    inputs = ", ".join(
        "SampleInput{"
        + ", ".join(
            [
                c_string(i.label),
                "{" + ", ".join(str(d) for d in i.shape) + "}",
                f"ScalarType::{i.dtype}",
                c_string(i.domain),
                repr(i.lo),
                repr(i.hi),
                "true" if i.requires_grad else "false",
            ]
        )
        + "}"
        for i in case.inputs
    )
    fields = [
        c_string(op.op_name),
        str(case.sample),
        c_string(case.label),
        "{" + inputs + "}",
        fn,
        inplace or "nullptr",
        c_string(op.inplace_cpp_name or ""),
        out or "nullptr",
        c_string(op.out_cpp_name or ""),
        "{" + ", ".join("true" if d else "false" for d in op.differentiable_outputs) + "}",
        "true" if "gradgradcheck" in case.checks else "false",
        "true" if "fwgradcheck" in case.checks else "false",
        "true" if "history" in case.checks else "false",
        c_string(case.skip or op.skip),
        repr(case.atol),
        repr(case.rtol),
    ]
    if case.nondet_tol:
        fields.append(repr(case.nondet_tol))
    return CaseCode(fn, inplace, out, fn_body, inplace_body, out_body, fields)


def cases_code(plan: TestPlan, api: str) -> List[CaseCode]:
    """Every case of the plan, in the file's order; a skipped op without samples gets one line."""
    out: List[CaseCode] = []
    for op in plan.ops:
        for case in op.cases:
            out.append(case_code(op, case, len(out), api))
    return out
