"""Declarations that `autogen:` asks for, made from the declaration that lists them.

PyTorch's native_functions.yaml writes `autogen: foo.out, foo_functional` under a declaration to
have its codegen derive those variants instead of spelling them out. Derivative entries may name
them (PyTorch's derivatives.yaml has one for `rrelu_with_noise_functional`), so they must exist
before formulas are matched to declarations.

Derived here, as in PyTorch's torchgen/native_function_generation.py:
  * `<op>_functional` of a mutable op: the same arguments without alias annotations, returning
    the op's outputs followed by one `Tensor <arg>_out` per argument the op mutates;
  * `<op>.out` / `<op>.<overload>_out` of a functional op: its arguments plus a keyword-only
    `Tensor(a!) out` (one `outN` per Tensor output), returning the out tensors.
Variants of other shapes are left to the declaring file.
"""

from __future__ import annotations

import dataclasses
from typing import List, Sequence

from tools.codegen.errors import SpecError
from tools.codegen.model import FunctionSchema, NativeFunction


def _arg_text(a, strip_annotation: bool) -> str:
    text = str(a)
    if strip_annotation and a.annotation is not None:
        text = text.replace(f"({a.annotation})", "", 1)
    return text


def _functional_variant(f: NativeFunction, name: str) -> FunctionSchema:
    func = f.func
    mutated = [a for a in func.arguments.flat_all if a.annotation is not None and a.annotation.is_write]
    pos = [_arg_text(a, True) for a in func.arguments.positional]
    kw = [_arg_text(a, True) for a in func.arguments.kwarg_only]
    args = ", ".join(pos + (["*"] + kw if kw else []))
    rets = [
        str(r.type) + (f" {r.name}" if r.name else "")
        for r in func.returns
        if not (r.annotation and r.annotation.is_write)
    ]
    rets += [f"{str(a.type)} {a.name}_out" for a in mutated]
    ret_text = rets[0] if len(rets) == 1 else "(" + ", ".join(rets) + ")"
    return FunctionSchema.parse(f"{name}({args}) -> {ret_text}")


def _alias_set(i: int) -> str:
    """The alias set of out= argument i: a, b, ..., z as PyTorch writes them, then z26, z27, ..."""
    return "abcdefghijklmnopqrstuvwxyz"[i] if i < 26 else f"z{i}"


def _out_variant(f: NativeFunction, name: str) -> FunctionSchema:
    func = f.func
    pos = [str(a) for a in func.arguments.positional]
    kw = [str(a) for a in func.arguments.kwarg_only]
    tensors = [r for r in func.returns if str(r.type) == "Tensor"]
    if len(func.returns) == 1:
        outs = ["Tensor(a!) out"]
        ret_text = "Tensor(a!)"
    else:
        outs = [f"Tensor({_alias_set(i)}!) out{i}" for i in range(len(tensors))]
        ret_text = "(" + ", ".join(f"Tensor({_alias_set(i)}!)" for i in range(len(tensors))) + ")"
    args = ", ".join(pos + ["*"] + kw + outs)
    return FunctionSchema.parse(f"{name}({args}) -> {ret_text}")


def add_autogen_variants(functions: Sequence[NativeFunction]) -> List[NativeFunction]:
    """`functions` plus the `<op>_functional` and out= variants their `autogen:` keys name."""
    existing = {str(f.func.name) for f in functions}
    out = list(functions)
    for f in functions:
        for autogen_name in f.autogen:
            name = str(autogen_name)
            if name in existing:
                continue
            base = str(f.func.name.name)
            overload = f.func.name.overload_name
            try:
                if name.split(".")[0] == base + "_functional":
                    schema = _functional_variant(f, name)
                elif name in (f"{base}.out", f"{base}.{overload}_out"):
                    if not f.func.returns or any(str(r.type) != "Tensor" for r in f.func.returns):
                        continue
                    schema = _out_variant(f, name)
                else:
                    continue
            except SpecError as e:
                raise SpecError(f"cannot derive autogen variant '{name}': {e.message}", f.loc) from None
            existing.add(name)
            # PyTorch gives derived variants a CompositeExplicitAutograd kernel.
            out.append(
                dataclasses.replace(
                    f,
                    func=schema,
                    autogen=(),
                    dispatch=(("CompositeExplicitAutograd", name.replace(".", "_")),),
                    has_dispatch_section=True,
                )
            )
    return out
