"""The plan stage: what the analysis decided, one frozen value per declaration and per node.

    loaders (model.py, load_*.py) -> plan() -> emitters (gen_*.py) -> templates

`plan()` runs every analysis step that can still find a mistake in the specs (which formulas
each declaration uses, its wrapper kind, its forward-mode behaviour) and decides the Python
bindings (which declarations Python can call, grouped by name), so every `SpecError` is raised
by the loaders or here; the emitters only format the values below, and
tests/codegen/test_structure.py checks that no emitter is reachable from the analysis.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from tools.codegen.autograd_info import (
    DifferentiabilityInfo,
    ForwardAD,
    HookFacts,
    WrapperKind,
    forward_ad_of,
    hook_facts,
    match_infos,
    wrapper_kinds,
)
from tools.codegen.memo import ByIdentity
from tools.codegen.model import FunctionSchema, NativeFunction

if TYPE_CHECKING:
    from tools.codegen.python import Bindings


@dataclass(frozen=True)
class DeclarationPlan:
    """One declaration's wrapper, as decided: the differentiable API function that
    gen_variable_type.wrapper_code prints."""

    f: NativeFunction
    # Its formulas (an in-place or out= variant's are its out-of-place op's), or None.
    info: Optional[DifferentiabilityInfo]
    kind: WrapperKind
    forward_ad: ForwardAD
    hooks: HookFacts
    # Which shard the wrapper lives in: the base name of the op whose node it records (add_ builds
    # AddBackward0, from add's entry), else its own (Note [Shards] in gen_autograd.py).
    shard_key: str


@dataclass(frozen=True)
class Plan:
    """Everything the emitters format."""

    # Nodes, in the order of the derivatives file (dispatch keys in their written order).
    nodes: Tuple[DifferentiabilityInfo, ...]
    # One per declaration, in declaration order.
    declarations: Tuple[DeclarationPlan, ...]
    # The Python API: groups of overloads, and the declarations Python cannot call (python.py);
    # None when the caller plans it (plan()'s `python_bindings`).
    python: Optional["Bindings"]

    @property
    def functions(self) -> List[NativeFunction]:
        return [d.f for d in self.declarations]

    @property
    def matched(self) -> Dict[str, Optional[DifferentiabilityInfo]]:
        """Each declaration's formulas, by its schema's text."""
        return {str(d.f.func): d.info for d in self.declarations}

    @property
    def kinds(self) -> List[WrapperKind]:
        return [d.kind for d in self.declarations]


def _shard_key(f: NativeFunction, info: Optional[DifferentiabilityInfo]) -> str:
    if info is not None and info.op is not None:
        return info.func.func.name.name.base
    return f.func.name.name.base


def plan(
    functions: Sequence[NativeFunction],
    infos: Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]],
    missing_derivative: str,
    implicit_composite: bool,
    python_bindings: bool = True,
    cache: Optional[ByIdentity] = None,
) -> Plan:
    """The plan of `functions` with the formulas `infos` (load_derivatives). Raises SpecError.

    With `python_bindings` False, `Plan.python` is None: the caller plans them itself
    (python.bindings(functions), which needs nothing else; gen_autograd does it in a second
    process, Note [Python bindings in a second process]). With a `cache` (a persistent worker's,
    Note [Worker cache] in gen_autograd.py), a declaration's plan is made once per declaration,
    info and wrapper kind (the same objects: the same inputs) and then taken from it."""
    nodes = tuple(i for per_key in infos.values() for i in per_key.values() if i.op)
    matched = match_infos(functions, infos)
    kinds = wrapper_kinds(functions, matched, missing_derivative, implicit_composite)
    declarations = []
    for f, kind in zip(functions, kinds):
        info = matched[str(f.func)]
        if cache is None:
            declarations.append(_declaration_plan(f, info, kind))
        else:
            declarations.append(cache.get((f, info), kind, functools.partial(_declaration_plan, f, info, kind)))
    if not python_bindings:
        return Plan(nodes, tuple(declarations), None)
    # Imported only here: a command-line run plans the bindings in another process (about 10 ms).
    from tools.codegen.python import bindings

    return Plan(nodes, tuple(declarations), bindings(functions))


def _declaration_plan(f: NativeFunction, info: Optional[DifferentiabilityInfo], kind: WrapperKind) -> DeclarationPlan:
    return DeclarationPlan(f, info, kind, forward_ad_of(f, info, kind), hook_facts(f), _shard_key(f, info))
