"""Emits gradcheck_test.cpp, the generated gradient test of a library (docs/samples.md).

Formats the plan load_samples.plan_samples made: one C++ function per case calling the op (and
its in-place and out= variants) on a vector of inputs, and a main() handing every case to
gradgen::testing::SampleRunner (csrc/testing/sample_check.h), which runs the checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List

from tools.codegen.load_samples import ArgKind, Case, Layout, OpPlan, ResultKind, TestPlan


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


def _input(case: Case, i: int) -> str:
    """Input i as the op receives it: a float64 leaf converted to float32 for a float32 input."""
    if case.inputs[i].as_float32:
        return f"::gradgen::testing::as_float32(in[{i}])"
    return f"in[{i}]"


def _tensor_list(case: Case, first: int, count: int) -> str:
    if any(case.inputs[first + k].as_float32 for k in range(count)):
        return "std::vector<Tensor>{" + ", ".join(_input(case, first + k) for k in range(count)) + "}"
    return f"TensorList(in.data() + {first}, {count})"


def _call_args(case: Case, self_local: str = "") -> List[str]:
    args = []
    for a in case.args:
        if a.kind is ArgKind.TENSOR:
            args.append(self_local if self_local and a.name == "self" else _input(case, a.first))
        elif a.kind is ArgKind.OPTIONAL_TENSOR:
            args.append(f"std::optional<Tensor>({_input(case, a.first)})")
        elif a.kind is ArgKind.TENSOR_LIST:
            args.append(_tensor_list(case, a.first, a.count))
        elif a.kind is ArgKind.OPTIONAL_TENSOR_LIST:
            elements = ", ".join("std::nullopt" if i is None else f"std::optional<Tensor>(in[{i}])" for i in a.entries)
            args.append(f"std::vector<std::optional<Tensor>>{{{elements}}}")
        else:
            args.append(a.cpp)
    return args


def _results(op: OpPlan, call: str, float32: bool) -> str:
    """The statements returning the call's outputs; a float32 case's go back to float64."""
    prefix = ""
    if op.result_kind is ResultKind.LIST:
        outputs = call
    elif op.result_kind is ResultKind.TENSOR:
        outputs = f"std::vector<Tensor>{{{call}}}" if float32 else f"{{{call}}}"
    else:
        prefix = f"auto r = {call};\n  "
        gets = ", ".join(f"std::get<{k}>(r)" for k in range(op.returns))
        outputs = f"std::vector<Tensor>{{{gets}}}" if float32 else f"{{{gets}}}"
    if float32:
        outputs = f"::gradgen::testing::float64_outputs({outputs})"
    return f"{prefix}return {outputs};"


def case_code(op: OpPlan, case: Case, k: int, api: str) -> CaseCode:
    """Case k (numbering every case of the file) of `op`; `api` is the namespace of the API."""
    args = _call_args(case)
    fn = f"case_{k}"
    fn_body = _results(op, f"{api}::{op.cpp_name}({', '.join(args)})", case.float32)
    inplace = inplace_body = out = out_body = ""
    if "inplace" in case.checks and op.inplace_cpp_name:
        inplace = f"case_{k}_inplace"
        self_arg = next(a for a in case.args if a.name == "self")
        inplace_body = (
            f"Tensor self = ::gradgen::testing::inplace_self({_input(case, self_arg.first)});\n"
            f"  {api}::{op.inplace_cpp_name}({', '.join(_call_args(case, 'self'))});\n"
            f"  {_results(op, 'self', case.float32)}"
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
            # The layout only when it is not SampleInput's default.
            + ([c_string(i.layout.value)] if i.layout is not Layout.CONTIGUOUS else [])
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
    # The trailing fields only when they differ from SampleCase's defaults.
    hvp = "hvpcheck" in case.checks and "gradgradcheck" in case.checks and "fwgradcheck" in case.checks
    trailing = [repr(case.nondet_tol), repr(case.eps), "true" if hvp else "false"]
    defaults = [0.0 == case.nondet_tol, case.eps == 1e-6, hvp == ("fwgradcheck" in case.checks)]
    used = max((k + 1 for k, default in enumerate(defaults) if not default), default=0)
    fields += trailing[:used]
    return CaseCode(fn, inplace, out, fn_body, inplace_body, out_body, fields)


def cases_code(plan: TestPlan, api: str) -> List[CaseCode]:
    """Every case of the plan, in the file's order; a skipped op without samples gets one line."""
    out: List[CaseCode] = []
    for op in plan.ops:
        for case in op.cases:
            out.append(case_code(op, case, len(out), api))
    return out


# The dtypes of TensorInput (the runtime's ScalarType names) as gradgen.testing.Input spells them.
_PY_DTYPES = {"Double": "float64", "Float": "float32", "Long": "int64", "Bool": "bool"}


@dataclass(frozen=True)
class PyCaseCode:
    """One case as the Python template prints it: its call functions and its Case(...) fields."""

    fn: str
    fn_body: str
    inplace: str
    inplace_body: str
    out: str
    out_body: str
    fields: List[str]


def _py_input(case: Case, i: int) -> str:
    """Input i as the Python call passes it (a float32 input: the float64 leaf converted)."""
    return f"as_float32(t[{i}])" if case.inputs[i].as_float32 else f"t[{i}]"


def _py_call_args(case: Case, skip_self: bool) -> List[str]:
    """The call's arguments: positional in order until one is omitted, then by keyword."""
    args: List[str] = []
    by_keyword = False
    for a in case.args:
        if skip_self and a.name == "self":
            continue
        if a.kind is ArgKind.TENSOR or a.kind is ArgKind.OPTIONAL_TENSOR:
            value = _py_input(case, a.first)
        elif a.kind is ArgKind.TENSOR_LIST:
            value = "[" + ", ".join(_py_input(case, a.first + k) for k in range(a.count)) + "]"
        elif a.kind is ArgKind.OPTIONAL_TENSOR_LIST:
            value = "[" + ", ".join("None" if i is None else f"t[{i}]" for i in a.entries) + "]"
        elif a.py is None:
            by_keyword = True  # left at its default: omitted, the binding's default applies
            continue
        else:
            value = a.py
        if a.kwarg_only or by_keyword:
            args.append(f"{a.py_name}={value}")
        else:
            args.append(value)
    return args


def _self_input(case: Case) -> int:
    return next(a for a in case.args if a.name == "self").first


def py_case_code(op: OpPlan, case: Case, k: int, module: str) -> PyCaseCode:
    """Case k of `op` for the Python test; `module` is the local name of the bindings' module."""
    if op.py_function is not None:
        call = f"{module}.{op.py_function}({', '.join(_py_call_args(case, False))})"
    else:
        call = f"{_py_input(case, _self_input(case))}.{op.py_method}({', '.join(_py_call_args(case, True))})"
    fn = f"case_{k}"
    inplace = inplace_body = out = out_body = ""
    if "inplace" in case.checks and op.py_inplace:
        inplace = f"case_{k}_inplace"
        if op.py_inplace_is_method:
            call_inplace = f"self.{op.py_inplace}({', '.join(_py_call_args(case, True))})"
        else:
            args = ", ".join(["self"] + _py_call_args(case, True))
            call_inplace = f"{module}.{op.py_inplace}({args})"
        if case.float32:
            call_inplace = f"float64_outputs({call_inplace})"
        inplace_body = f"self = {_py_input(case, _self_input(case))}.clone()\n    return {call_inplace}"
    if "out" in case.checks and op.py_out:
        out = f"case_{k}_out"
        outs = "outs[0]" if op.returns == 1 else "tuple(outs)"
        out_body = f"{module}.{op.py_function}({', '.join(_py_call_args(case, False) + [f'{op.py_out_name}={outs}'])})"
    inputs = ", ".join(
        f"Input({i.label!r}, {tuple(i.shape)!r}, {_PY_DTYPES[i.dtype]!r}, {i.domain!r}, {i.lo!r}, {i.hi!r}, "
        f"{i.requires_grad!r}" + (f", {i.layout.value!r})" if i.layout is not Layout.CONTIGUOUS else ")")
        for i in case.inputs
    )
    fields = [
        f"op={op.op_name!r}",
        f"sample={case.sample}",
        f"label={case.label!r}",
        f"inputs=({inputs},)" if case.inputs else "inputs=()",
        f"fn={fn}",
        f"inplace={inplace or None}",
        f"inplace_name={(op.py_inplace or '')!r}",
        f"out={out or None}",
        f"differentiable_outputs={tuple(op.differentiable_outputs)!r}",
        f"gradgradcheck={'gradgradcheck' in case.checks}",
        f"fwgradcheck={'fwgradcheck' in case.checks}",
        f"history={'history' in case.checks}",
        f"skip={(case.skip or op.skip)!r}",
        f"atol={case.atol!r}",
        f"rtol={case.rtol!r}",
    ]
    if case.eps != 1e-6:
        fields.append(f"eps={case.eps!r}")
    if case.float32:
        call = f"float64_outputs({call})"
    return PyCaseCode(fn, call, inplace, inplace_body, out, out_body, fields)


def py_cases_code(plan: TestPlan, module: str) -> List[PyCaseCode]:
    """Every case of the plan, numbered as cases_code numbers them, for ops Python can call."""
    out: List[PyCaseCode] = []
    k = 0
    for op in plan.ops:
        for case in op.cases:
            if op.py_function is not None or op.py_method is not None:
                out.append(py_case_code(op, case, k, module))
            k += 1
    return out


def python_import(module: str) -> str:
    """The import statement binding the module `python_module` names ("pkg/_ops") to `lib`."""
    parts = module.split("/")
    if len(parts) == 1:
        return f"import {parts[0]} as lib"
    return f"from {'.'.join(parts[:-1])} import {parts[-1]} as lib"
