"""Reads derivatives.yaml and matches each entry to its declaration: the analysis step.

Each YAML entry is read once into a typed `_Entry` (its sections and formulas, each with its
location), then analysed against the declarations into `DifferentiabilityInfo`s
(tools/codegen/autograd_info.py, the types the emitters read). For every entry this computes
what the emitters need and nothing else:
  * which inputs get a gradient, in the order of the op's arguments (`args_with_derivatives`),
    so `apply()` can lay out index ranges at run time;
  * each formula rewritten so that cheap facts about inputs are saved instead of whole tensors
    (`self.sizes()` becomes the member `self_sizes`), and which inputs and outputs must be kept;
  * the Backward node's name (`MmBackward0`), numbered per op name in file order;
  * the facts the emitters print (`_with_facts`): differentiable outputs, uses of `grad` and
    `retain_variables`, `Tensor[]` size members, `wrap_opt_if` conditions.

The language and its meaning are PyTorch's (tools/autograd/load_derivatives.py in PyTorch 2.x);
where gradgen's spec language is wider (it keeps `.sizes()` and `.size(d)`, which PyTorch 2.x
replaced by their SymInt spellings) both spellings work.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from tools.codegen import cpp
from tools.codegen.autograd_info import (
    Condition,
    Derivative,
    DifferentiabilityInfo,
    ForwardDerivative,
    ListSize,
    SavedAttribute,
    SavedFact,
    SavedKind,
    formula_output_names,
    is_composite_implicit,
    list_size_member,
)
from tools.codegen.errors import Location, SchemaParseError, SpecError
from tools.codegen.formula_check import expression_problem, one_line
from tools.codegen.formula_env import FormulaEnvironment, to_cpp
from tools.codegen.formula_text import rename, uses
from tools.codegen.memo import LRU, MISSING, ByIdentity
from tools.codegen.model import (
    Argument,
    BaseTy,
    BaseType,
    FunctionSchema,
    ListType,
    NativeFunction,
    OptionalType,
    SchemaKind,
    Type,
    is_cpp_identifier,
)
from tools.codegen.yaml_block import Unsupported, split_items
from tools.codegen.yaml_loader import Node, Seq, load_block_item, load_yaml, read_spec_bytes

# `(^|\W)NAME($|\W)`: NAME used as a whole identifier.
IDENT_REGEX = r"(^|\W){}($|\W)"
GRAD_INDEX_REGEX = r"(?:^|\W)grads\[(\d+)\]"
_GRADS_USE = re.compile(IDENT_REGEX.format("grads"))
_GRAD_INDEX = re.compile(GRAD_INDEX_REGEX)
_SPEC_NAME = re.compile(r"(\w+)(\.\w+)?\(")
_RESULT_N = re.compile(r"^result(\d+)$")
_WHITESPACE = re.compile(r"\s+")
_NOT_IMPLEMENTED = re.compile(r"^\s*not_implemented\(")
_WRAP_OPT_IF = re.compile(r"wrap_opt_if\((\w+),")
_GRAD_INPUT_MASK_INDEX = re.compile(r"grad_input_mask\[(\d+)\]")
# `result`, `result1`: an output, as a name of its own (not a member: `x.result`, `x->result`).
_RESULT_NAME = re.compile(r"(?<![\w.>:])result\d*(?!\w)")
# Locals of a node's apply() (templates/Functions.cpp) that a saved input or output would shadow.
_APPLY_LOCALS = ("grad", "grads", "gen", "grad_inputs", "any_grad_defined")
# Dispatch keys a `dispatch:` section of derivatives.yaml may name (PyTorch's AUTOGRAD_KEYS).
AUTOGRAD_KEYS = (
    "Default",
    "AutogradNestedTensor",
    "Autograd",
    "AutogradCPU",
    "AutogradCUDA",
    "AutogradMeta",
    "AutogradMPS",
    "AutogradXLA",
    "AutogradLazy",
    "AutogradIPU",
    "AutogradXPU",
    "AutogradPrivateUse1",
)
# Keys an entry may have besides formulas.
_ENTRY_KEYS = ("name", "dispatch", "output_differentiability")


@dataclass(frozen=True)
class _Rewrite:
    """One saved-value rewrite: a fact of variable `{}` that a formula reads."""

    # The regex over the formula; `{}` is the variable's name.
    pattern: str
    # The member's name after the variable's: "_sizes", or (for facts with an argument) a
    # function of the match: `self.size(-1)` -> "_argsize_minus_1".
    suffix: Union[str, Callable[["re.Match[str]"], str]]
    # The member's C++ type.
    member_type: str
    # What is saved, and how the forward computes it.
    fact: SavedFact
    # What the formula reads instead, if not the member itself: "{}_info.zeros()".
    use: Optional[str] = None
    # Whether the fact is only allowed in a formula for that variable alone (strides).
    own_formula_only: bool = False


def _argsize_suffix(prefix: str) -> Callable[["re.Match[str]"], str]:
    return lambda m: f"{prefix}{m.group(1).replace('-', 'minus_')}"


_SIZES = SavedFact("sizes", "{var}.sizes().vec()")
# The member is a std::optional<std::vector<int64_t>>: an optional IntArrayRef does not convert to
# it (found by fuzz_test's structured specs), so the sizes are copied into a vector here.
_SIZES_OPT = SavedFact(
    "sizes_opt",
    "{var}.has_value() ? std::optional<std::vector<int64_t>>({var}->sizes().vec()) : std::nullopt",
)
_ARGSIZE = SavedFact("argsize", "{var}.size({arg})")
_NUMEL = SavedFact("numel", "{var}.numel()")
_ARGS_SIZES = SavedFact("args_sizes", "to_args_sizes({var})")
_STRIDES = SavedFact("strides", 'strides_or_error({var}, "{var}")')

# Saved-value rewriting, in PyTorch's order: an expression over an input or output that only needs
# a cheap fact about it is replaced by a member holding that fact, so the tensor itself need not be
# kept alive. gradgen's runtime has no SymInt: the sym_ spellings save the plain facts.
_REPLACEMENTS: List[_Rewrite] = [
    _Rewrite(r"{}.sym_sizes\(\)", "_sym_sizes", "std::vector<int64_t>", _SIZES),
    _Rewrite(r"{}->sym_sizes\(\)", "_sym_sizes_opt", "std::optional<std::vector<int64_t>>", _SIZES_OPT),
    _Rewrite(r"{}.sizes\(\)", "_sizes", "std::vector<int64_t>", _SIZES),
    _Rewrite(r"{}->sizes\(\)", "_sizes_opt", "std::optional<std::vector<int64_t>>", _SIZES_OPT),
    _Rewrite(
        r"{}.sym_blocksize\(\)",
        "_self_sym_blocksize_opt",
        "std::optional<std::vector<int64_t>>",
        SavedFact("blocksize", "sparse_csr::getSymIntBlockSize({var})"),
    ),
    _Rewrite(r"{}.options\(\)", "_options", "TensorOptions", SavedFact("options", "{var}.options()")),
    _Rewrite(r"zeros_like\({}\)", "_info", "TypeAndSize", SavedFact("type_and_size", "{var}"), use="{}_info.zeros()"),
    _Rewrite(r"{}.sym_size\((-?\w+)\)", _argsize_suffix("_sym_argsize_"), "int64_t", _ARGSIZE),
    _Rewrite(r"{}.size\((-?\w+)\)", _argsize_suffix("_argsize_"), "int64_t", _ARGSIZE),
    _Rewrite(r"{}.numel\(\)", "_numel", "int64_t", _NUMEL),
    _Rewrite(r"{}.sym_numel\(\)", "_sym_numel", "int64_t", _NUMEL),
    _Rewrite(r"to_args_sizes\({}\)", "_args_sizes", "std::vector<std::vector<int64_t>>", _ARGS_SIZES),
    _Rewrite(r"to_args_sizes_symint\({}\)", "_args_sizes_symint", "std::vector<std::vector<int64_t>>", _ARGS_SIZES),
    _Rewrite(
        r"to_args_scalartypes\({}\)",
        "_args_scalartypes",
        "std::vector<ScalarType>",
        SavedFact("args_scalartypes", "to_args_scalartypes({var})"),
    ),
    _Rewrite(r"TensorGeometry\({}\)", "_geometry", "TensorGeometry", SavedFact("geometry", "TensorGeometry({var})")),
    _Rewrite(r"{}.scalar_type\(\)", "_scalar_type", "ScalarType", SavedFact("scalar_type", "{var}.scalar_type()")),
    _Rewrite(r"{}.dim\(\)", "_dim", "int64_t", SavedFact("dim", "{var}.dim()")),
    _Rewrite(r"{}.sym_strides\(\)", "_sym_strides", "std::vector<int64_t>", _STRIDES, own_formula_only=True),
    _Rewrite(r"{}.strides\(\)", "_strides", "std::vector<int64_t>", _STRIDES, own_formula_only=True),
    _Rewrite(r"{}.layout\(\)", "_layout", "Layout", SavedFact("layout", "{var}.layout()")),
    _Rewrite(r"{}.is_conj\(\)", "_conjugate", "bool", SavedFact("conjugate", "{var}.is_conj()")),
]
# A literal piece of each pattern: a formula without it cannot match, so most patterns are skipped
# by a substring test before any regex is compiled (the codegen's hot loop on big spec files).
_REPLACEMENT_KEYS = [
    re.sub(r"\\", "", r.pattern.replace("{}", "").replace("(-?\\w+)", "")).split("(")[0].lstrip(".->")
    for r in _REPLACEMENTS
]
_COMPILED: Dict[Tuple[int, str], Any] = {}


def _pattern_parts(pattern: str) -> Tuple[str, Any]:
    r"""A rewrite's pattern around its variable: the literal text before `{}` and the compiled
    regex after it. `zeros_like\({}\)` -> ("zeros_like(", re.compile(r"\)"))."""
    pre, post = pattern.split("{}")
    # Before `{}` every pattern has plain text only: letters, digits, `_` and escaped punctuation.
    assert re.fullmatch(r"(?:\w|\\\W)*", pre), pattern
    return re.sub(r"\\(\W)", r"\1", pre), re.compile(post)


_PATTERN_PARTS = [_pattern_parts(r.pattern) for r in _REPLACEMENTS]


def _may_match(i: int, name: str, formula: str) -> bool:
    """Whether rewrite i's pattern for variable `name` matches somewhere in `formula`, without
    compiling that pattern: most variables a formula names match none of the facts its text
    mentions (on PyTorch's derivatives.yaml 46 of 523 variable-pattern pairs), and compiling a
    regex for each pair was a tenth of loading the file. Exactly `_compiled(i, name).search(formula)
    is not None`, since `name` is an identifier (no regex syntax)."""
    pre, post = _PATTERN_PARTS[i]
    n = len(name)
    at = formula.find(name)
    while at >= 0:
        if post.match(formula, at + n) is not None and (not pre or formula.endswith(pre, 0, at)):
            return True
        at = formula.find(name, at + 1)
    return False


def _compiled(i: int, name: str) -> Any:
    got = _COMPILED.get((i, name))
    if got is None:
        got = _COMPILED[(i, name)] = re.compile(_REPLACEMENTS[i].pattern.format(name))
    return got


def used_gradient_indices(formula: str) -> List[int]:
    """The i of every `grads[i]` in a formula: `f(grads[0], grads[1])` -> [0, 1]."""
    if "grads" not in formula:  # most formulas: no regex to run
        return []
    return [int(i) for i in _GRAD_INDEX.findall(formula)]


def saved_variables(
    formula: str,
    variables: Sequence[Tuple[str, Type]],
    var_names: Tuple[str, ...],
    is_output: bool,
    loc: Location,
    facts: bool = True,
) -> Tuple[str, Tuple[SavedAttribute, ...]]:
    """Rewrites `formula` to read members instead of `variables`, and says which members.
    Without `facts`, variables are only ever saved whole (a foreach op's per-element formulas)."""
    saved: List[SavedAttribute] = []
    for name, typ in variables:
        # Cheap: a substring test rules out nearly every variable before any regex runs.
        if name not in formula:
            continue
        for i, rewrite in enumerate(_REPLACEMENTS if facts else ()):
            if _REPLACEMENT_KEYS[i] not in formula or not _may_match(i, name, formula):
                continue
            regex = _compiled(i, name)

            def repl(m: "re.Match[str]", rewrite: _Rewrite = rewrite, name: str = name) -> str:
                suffix = rewrite.suffix(m) if callable(rewrite.suffix) else rewrite.suffix
                if rewrite.own_formula_only and var_names != (name,):
                    raise SpecError(
                        f"'{m.group(0)}' is only supported in the formula of '{name}' alone, "
                        f"not in a formula for {', '.join(var_names)}",
                        loc,
                    )
                arg = m.group(1) if m.re.groups else None
                saved.append(
                    SavedAttribute(
                        name + suffix,
                        cpp.member_type(rewrite.member_type),
                        SavedKind.VALUE,
                        name,
                        is_output,
                        rewrite.fact,
                        arg,
                    )
                )
                return rewrite.use.format(name) if rewrite.use is not None else name + suffix

            if regex.search(formula):
                formula = regex.sub(repl, formula)
        if isinstance(typ, Type) and _is_optional_str(typ):
            formula = rename(
                formula, {name: f"{name}.has_value() ? std::optional<std::string_view>({name}.value()) : std::nullopt"}
            )
        if uses(name, formula):
            if cpp.is_tensor(typ) or (is_output and _is_scalar(typ)):
                kind = SavedKind.TENSOR
            elif cpp.is_tensor_list(typ):
                kind = SavedKind.TENSOR_LIST
            else:
                kind = SavedKind.VALUE
            saved.append(SavedAttribute(name, cpp.saved_member_type(typ, is_output), kind, name, is_output))
    return formula, tuple(saved)


def _is_optional_str(t: Type) -> bool:
    """`str?`"""
    return isinstance(t, OptionalType) and isinstance(t.elem, BaseType) and t.elem.name is BaseTy.str


def _is_scalar(t: Type) -> bool:
    """`Scalar`"""
    return isinstance(t, BaseType) and t.name is BaseTy.Scalar


def _create_op_prefix(name: str) -> str:
    """`add` -> `AddBackward`; `_foreach_add` -> `ForeachAddBackward` (PyTorch's convention)."""
    camel = "".join(p.title() for p in name.split("_"))
    return (camel + "Backward").replace("ForwardBackward", "Backward")


def _dedup(saved: Sequence[SavedAttribute]) -> Tuple[SavedAttribute, ...]:
    seen: set = set()
    out: List[SavedAttribute] = []
    for s in saved:
        if s.name not in seen:
            seen.add(s.name)
            out.append(s)
    return tuple(out)


def _check_identifier(name: str, what: str, loc: Location) -> None:
    if not is_cpp_identifier(name):
        raise SpecError(f"{what} '{name}' is not a valid C++ identifier", loc)


class _Index:
    """Declarations indexed the ways derivative entries are matched against them.

    Signatures (schemas without overload name, mutability and out arguments) are only computed
    for declarations sharing a base name with an entry (and kept by the schema): matching
    PyTorch's 2,585 declarations otherwise spends most of its time there.
    """

    def __init__(self, functions: Sequence[NativeFunction]) -> None:
        self.by_schema: Dict[str, NativeFunction] = {}
        self.by_base: Dict[str, List[NativeFunction]] = defaultdict(list)
        # By operator name (`add.Tensor`): the `{view}_copy` twins (_add_view_copy_infos).
        self.by_name: Dict[str, NativeFunction] = {}
        for f in functions:
            self.by_schema[str(f.func)] = f
            self.by_base[f.func.name.name.base.rstrip("_")].append(f)
            self.by_name[str(f.func.name)] = f

    def same_signature(self, f: NativeFunction) -> List[NativeFunction]:
        """The declarations with `f`'s signature (its in-place, out= and functional variants)."""
        sig = f.func.signature()
        return [g for g in self.by_base[f.func.name.name.base.rstrip("_")] if g.func.signature() == sig]


def _canonical_function(functions: Sequence[NativeFunction], name: str) -> NativeFunction:
    """The declaration formulas are written against: the out-of-place one, else the in-place one."""
    for f in functions:
        fn = f.func
        if "functional" not in fn.name.overload_name and not fn.is_out_fn() and str(fn.name.name) == name:
            return f
    return functions[0]


def _closest_signatures(spec: str, index: _Index, base: str) -> List[str]:
    candidates = [str(f.func) for f in index.by_base.get(base.rstrip("_"), [])]
    close = difflib.get_close_matches(spec, candidates, n=3, cutoff=0.0) if candidates else []
    if not close:
        close = difflib.get_close_matches(spec, list(index.by_schema), n=3, cutoff=0.6)
    return close


def _split_name(spec: str) -> str:
    m = _SPEC_NAME.match(spec)
    return m.group(1) if m else spec


# ---------------------------------------------------------------------------------------------
# Reading: one YAML mapping -> a typed entry with the location of everything in it
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Formula:
    """One `names: formula` pair of an entry (or of one of its dispatch sections)."""

    # The key as written: "self, other".
    key: str
    # The inputs (or, for a forward formula, outputs) it is for: ("self",), ("self", "other").
    names: Tuple[str, ...]
    # The formula as written, or "non_differentiable".
    text: str
    key_loc: Location
    value_loc: Location

    @property
    def non_differentiable(self) -> bool:
        return self.text.lower().strip() == "non_differentiable"


@dataclass(frozen=True)
class _Section:
    """The formulas of one autograd dispatch key ("Default" without a `dispatch:` section)."""

    dispatch_key: str
    # In file order.
    formulas: Tuple[_Formula, ...]


@dataclass(frozen=True)
class _Entry:
    """One entry of derivatives.yaml, as written, with the location of each part."""

    # The `name:` schema, as written and parsed.
    spec: str
    schema: FunctionSchema
    name_loc: Location
    # Where the entry starts (its line).
    loc: Location
    # `output_differentiability:` as a list of bools, or as a single C++ condition; with its place.
    output_differentiability: Optional[Tuple[bool, ...]]
    output_differentiability_condition: Optional[str]
    output_differentiability_loc: Optional[Location]
    sections: Tuple[_Section, ...]


def _formula_text(value: Any, loc: Callable[[int], Location]) -> str:
    """The formula's text, on one line, after checking it is one C++ expression (formula_check)."""
    if isinstance(value, bool) or value is None or isinstance(value, (list, dict)):
        raise SpecError("a formula must be a C++ expression written as a string", loc(0))
    text = str(value)
    problem = expression_problem(text)
    if problem is not None:
        raise SpecError(problem[1], loc(problem[0]))
    return one_line(text)


def _read_entry(node: Any, loc: Location) -> _Entry:
    """Checks the shape of one entry and returns it typed; `loc` is where it starts."""
    if not isinstance(node, Node):
        raise SpecError("each derivative entry must be a mapping with a 'name:' key", loc)
    if "name" not in node:
        raise SpecError("a derivative entry needs a 'name:' with the op's full schema", loc)
    spec = node["name"]
    if not isinstance(spec, str):
        raise SpecError(
            "'name:' must be a schema string such as 'mm(Tensor self, Tensor mat2) -> Tensor'", node.value_loc("name")
        )
    try:
        schema = FunctionSchema.parse(spec)
    except SchemaParseError as e:
        raise SpecError(e.message, node.value_loc("name", e.offset)) from None
    od, condition, od_loc = _read_output_differentiability(node)
    sections = _read_sections(node, _split_name(spec))
    return _Entry(spec, schema, node.value_loc("name"), loc, od, condition, od_loc, sections)


def _read_output_differentiability(node: Node) -> Tuple[Optional[Tuple[bool, ...]], Optional[str], Optional[Location]]:
    if "output_differentiability" not in node:
        return None, None, None
    od = node["output_differentiability"]
    od_loc = node.value_loc("output_differentiability")
    if not isinstance(od, list) or not od:
        raise SpecError(
            "output_differentiability must be a list of booleans or a one-element list of a C++ condition", od_loc
        )
    if any(isinstance(x, str) for x in od):
        if len(od) != 1:
            raise SpecError(
                "output_differentiability given as a condition supports single-output functions only "
                "(write a one-element list)",
                od_loc,
            )
        condition = str(od[0])
        problem = expression_problem(condition)
        if problem is not None:
            raise SpecError(problem[1], od.item_loc(0, problem[0]) if isinstance(od, Seq) else od_loc)
        return (True,), one_line(condition), od_loc
    if not all(isinstance(x, bool) for x in od):
        raise SpecError("output_differentiability must contain only true/false", od_loc)
    return tuple(od), None, od_loc


def _read_sections(node: Node, defn_name: str) -> Tuple[_Section, ...]:
    if "dispatch" not in node:
        formulas = {k: v for k, v in node.items() if k not in _ENTRY_KEYS}
        return (_Section("Default", _read_formulas(formulas, node, defn_name)),)
    dispatch = node["dispatch"]
    if not isinstance(dispatch, Node) or not dispatch:
        raise SpecError("'dispatch:' must map autograd dispatch keys to formulas", node.value_loc("dispatch"))
    for key in dispatch:
        if key != "Default" and key not in AUTOGRAD_KEYS:
            raise SpecError(
                f"invalid dispatch key '{key}'; expected one of {', '.join(AUTOGRAD_KEYS)}", dispatch.key_loc(key)
            )
    extra = [k for k in node if k not in _ENTRY_KEYS]
    if extra:
        raise SpecError(
            f"'{extra[0]}' given beside a 'dispatch:' section; put formulas inside the section", node.key_loc(extra[0])
        )
    sections = []
    for key, formulas in dispatch.items():
        if not isinstance(formulas, Node):
            raise SpecError(f"dispatch section '{key}' must map inputs to formulas", node.value_loc("dispatch"))
        sections.append(_Section(key, _read_formulas(formulas, formulas, defn_name)))
    return tuple(sections)


def _read_formulas(formulas: Dict[Any, Any], node: Node, defn_name: str) -> Tuple[_Formula, ...]:
    """The formulas of a mapping, in file order. Each name may have one formula (or be
    non_differentiable) per entry; the error points at the second mention."""
    out: List[_Formula] = []
    seen: Dict[str, bool] = {}  # name -> whether it was marked non_differentiable
    for raw_names, value in formulas.items():
        key_loc = node.key_loc(raw_names)
        is_nondiff = str(value).lower().strip() == "non_differentiable"
        names = tuple(x.strip() for x in str(raw_names).split(","))
        for n in names:
            _check_identifier(n, "formula key", key_loc)
            if n in seen:
                what = (
                    "marked non_differentiable and also given a formula"
                    if is_nondiff or seen[n]
                    else "given a formula twice"
                )
                raise SpecError(f"'{n}' is {what} in the entry for {defn_name}", key_loc)
            seen[n] = is_nondiff
        value_loc = node.value_loc(raw_names)
        text = value if is_nondiff else _formula_text(value, functools.partial(node.value_loc, raw_names))
        out.append(_Formula(str(raw_names), names, text, key_loc, value_loc))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Analysis: a typed entry + the declarations -> one DifferentiabilityInfo per dispatch key
# ---------------------------------------------------------------------------------------------


def _create_info(
    entry: _Entry, index: _Index, op_counter: "Counter[str]"
) -> Tuple[NativeFunction, Dict[str, DifferentiabilityInfo]]:
    defn_name = _split_name(entry.spec)
    canonical = _declaration_of(entry, index, defn_name)
    if entry.output_differentiability is not None and entry.output_differentiability_condition is None:
        n_ret = len(canonical.func.returns)
        if len(entry.output_differentiability) != n_ret:
            raise SpecError(
                f"output_differentiability has {len(entry.output_differentiability)} entries but {defn_name} "
                f"returns {n_ret} outputs",
                entry.output_differentiability_loc,
            )
    infos = {s.dispatch_key: _set_up(canonical, defn_name, entry, s, op_counter) for s in entry.sections}
    return canonical, infos


def _declaration_of(entry: _Entry, index: _Index, defn_name: str) -> NativeFunction:
    """The declaration an entry's formulas are written against (see _canonical_function)."""
    schema_function = index.by_schema.get(str(entry.schema))
    if schema_function is None:
        close = _closest_signatures(str(entry.schema), index, entry.schema.name.name.base)
        hint = ("; closest declared: " + " | ".join(close)) if close else "; no declaration has that name"
        raise SpecError(f"no declaration matches '{entry.spec}'{hint}", entry.name_loc)
    variants = index.same_signature(schema_function)
    canonical = _canonical_function(variants, defn_name)
    for bad in ("grad_input_mask", "result"):
        if any(a.name == bad for a in canonical.func.arguments.flat_all):
            raise SpecError(
                f"the declaration of {defn_name} has an argument named '{bad}', a name formulas reserve",
                schema_function.loc,
            )
    # The differentiable wrapper (templates/VariableType.cpp) keeps its node in a local `grad_fn`.
    for f in variants:
        names = [a.name for a in f.func.arguments.flat_all] + [r.name for r in f.func.returns]
        if "grad_fn" in names:
            what = "an argument" if "grad_fn" in names[: len(f.func.arguments.flat_all)] else "a return"
            raise SpecError(
                f"the declaration of {f.func.name} has {what} named 'grad_fn', a name the generated wrapper "
                "uses for its own variable",
                f.loc,
            )
    return canonical


def _set_up(
    f: NativeFunction, defn_name: str, entry: _Entry, section: _Section, op_counter: "Counter[str]"
) -> DifferentiabilityInfo:
    """The info of one dispatch section of an entry for declaration `f`."""
    func = f.func
    differentiability = entry.output_differentiability or tuple([True] * len(func.returns))
    available_named_gradients = tuple(
        f"grad_{r.name}"
        for r, diff in zip(func.returns, differentiability)
        if diff and r.name is not None and r.type.is_tensor_like()
    )
    output_vars = list(zip(formula_output_names(func), (r.type for r in func.returns)))
    backward, forward_formulas, non_differentiable = _split_formulas(func, section, output_vars)
    derivatives = [
        _create_derivative(func, fm.text, fm.names, available_named_gradients, output_vars, fm.value_loc)
        for fm in backward
    ]
    with_derivatives = {n for fm in backward for n in fm.names}
    args_with_derivatives = tuple(a for a in func.arguments.flat_all if a.name in with_derivatives)
    forward = _forward_derivatives(
        func, defn_name, forward_formulas, derivatives, args_with_derivatives, [a.name for a in func.arguments.flat_all]
    )
    _check_grad_usage(defn_name, derivatives)
    return _info_with_facts(
        name=defn_name,
        func=f,
        op=_node_name(defn_name, section.dispatch_key, op_counter) if args_with_derivatives else None,
        dispatch_key=section.dispatch_key,
        derivatives=tuple(derivatives),
        forward_derivatives=tuple(forward),
        all_saved_inputs=_dedup([v for d in derivatives for v in d.saved_inputs]),
        all_saved_outputs=_dedup([v for d in derivatives for v in d.saved_outputs]),
        available_named_gradients=available_named_gradients,
        used_named_gradients=frozenset(n for d in derivatives for n in d.named_gradients),
        args_with_derivatives=args_with_derivatives,
        non_differentiable_arg_names=tuple(non_differentiable),
        output_differentiability=entry.output_differentiability,
        output_differentiability_conditions=(
            None if entry.output_differentiability_condition is None else (entry.output_differentiability_condition,)
        ),
        loc=entry.loc,
    )


def _split_formulas(
    func: FunctionSchema, section: _Section, output_vars: Sequence[Tuple[str, Type]]
) -> Tuple[List[_Formula], List[_Formula], List[str]]:
    """A section's formulas in PyTorch's order (sorted by key; node layout and saved members
    depend on it), split into backward formulas, forward formulas (keyed by outputs) and the
    names marked non_differentiable."""
    arg_by_name = {a.name: a for a in func.arguments.flat_all}
    arg_names = ", ".join(arg_by_name)
    output_names = {n for n, _ in output_vars} | {r.name for r in func.returns if r.name}
    backward: List[_Formula] = []
    forward: List[_Formula] = []
    non_differentiable: List[str] = []
    for fm in sorted(section.formulas, key=lambda fm: fm.key):
        is_input = [n in arg_by_name for n in fm.names]
        if not any(is_input):
            for n in fm.names:
                if n not in output_names and not _RESULT_N.match(n):
                    raise SpecError(
                        f"'{n}' is not an argument of {func}; arguments are: {arg_names or '(none)'}", fm.key_loc
                    )
            forward.append(fm)
        elif not all(is_input):
            bad = fm.names[is_input.index(False)]
            raise SpecError(f"'{bad}' is not an argument of {func}; arguments are: {arg_names}", fm.key_loc)
        elif fm.non_differentiable:
            non_differentiable.extend(fm.names)
        else:
            for n in fm.names:
                t = arg_by_name[n].type
                if not (cpp.is_tensor(t) or cpp.is_tensor_list(t)):
                    raise SpecError(
                        f"'{n}' has type {t}, which has no gradient; formulas are for Tensor arguments", fm.key_loc
                    )
            backward.append(fm)
    return backward, forward, non_differentiable


def _node_name(defn_name: str, dispatch_key: str, op_counter: "Counter[str]") -> str:
    """`MmBackward0`: numbered per prefix in file order; a dispatch section's key is part of it."""
    prefix = _create_op_prefix(defn_name)
    if dispatch_key != "Default":
        prefix += dispatch_key
    op = f"{prefix}{op_counter[prefix]}"
    op_counter[prefix] += 1
    return op


# The fields of a DifferentiabilityInfo that _info_with_facts computes from the others.
_FACT_FIELDS = (
    "uses_grad",
    "uses_retain_variables",
    "differentiable_outputs",
    "list_size_members",
    "wrap_opt_if",
    "foreach",
)
_GIVEN_FIELDS = tuple(f.name for f in dataclass_fields(DifferentiabilityInfo) if f.name not in _FACT_FIELDS)


def _info_with_facts(**given: Any) -> DifferentiabilityInfo:
    """The info of the `given` fields (all but _FACT_FIELDS), with the facts the emitters read
    computed from its formulas and declaration."""
    derivatives: Sequence[Derivative] = given["derivatives"]
    args_with_derivatives: Sequence[Argument] = given["args_with_derivatives"]
    uses_grad = any(d.uses_grad for d in derivatives)
    saved_names = {v.name for v in given["all_saved_inputs"]}
    return DifferentiabilityInfo(
        **given,
        uses_grad=uses_grad,
        uses_retain_variables=any(uses("retain_variables", d.formula) for d in derivatives),
        differentiable_outputs=_differentiable_outputs(
            given["func"].func, given["output_differentiability"], given["non_differentiable_arg_names"], uses_grad
        ),
        list_size_members=tuple(
            ListSize(a.name, list_size_member(a.name))
            for a in args_with_derivatives
            if cpp.is_tensor_list(a.type) and list_size_member(a.name) not in saved_names
        ),
        wrap_opt_if=_wrap_opt_if_conditions(derivatives, args_with_derivatives),
        foreach=given["name"].startswith("_foreach_"),
    )


def _differentiable_outputs(
    func: FunctionSchema,
    output_differentiability: Optional[Tuple[bool, ...]],
    non_differentiable_arg_names: Tuple[str, ...],
    uses_grad: bool,
) -> Tuple[int, ...]:
    """The outputs that get history, as PyTorch decides: `output_differentiability` when given;
    else every Tensor output, except that formulas using plain `grad` make only the first output
    differentiable (derivatives.yaml's header: "all but the first output will be marked as
    non-differentiable")."""
    if output_differentiability is not None:
        return tuple(i for i, d in enumerate(output_differentiability) if d)
    candidates = tuple(
        i
        for i, (n, r) in enumerate(zip(func.names_of_returns(), func.returns))
        if r.type.is_tensor_like() and n not in non_differentiable_arg_names
    )
    return candidates[:1] if uses_grad else candidates


def _wrap_opt_if_conditions(
    derivatives: Sequence[Derivative], args_with_derivatives: Sequence[Argument]
) -> Tuple[Tuple[str, Tuple[Condition, ...]], ...]:
    """`wrap_opt_if(x, grad_input_mask[1])` in a formula: save x only when that input needs grad.
    Each condition's `grad_input_mask[i]` becomes the position of the formula's i-th input."""
    positions = [a.name for a in args_with_derivatives]
    conds: Dict[str, List[Condition]] = {}
    for d in derivatives:
        for m in _WRAP_OPT_IF.finditer(d.formula):
            # The condition runs from after the comma to the matching parenthesis.
            depth, i, start = 1, m.end(), m.end()
            while i < len(d.formula) and depth:
                depth += {"(": 1, ")": -1}.get(d.formula[i], 0)
                i += 1
            text = d.formula[start : i - 1].strip()
            pieces: List[Union[str, int]] = []
            last = 0
            for mm in _GRAD_INPUT_MASK_INDEX.finditer(text):
                k = int(mm.group(1))
                if k >= len(d.var_names):
                    raise SpecError(
                        f"wrap_opt_if reads grad_input_mask[{k}], but this formula is for "
                        f"{len(d.var_names)} input{'s' if len(d.var_names) != 1 else ''} ({', '.join(d.var_names)})",
                        d.loc,
                    )
                pieces += [text[last : mm.start()], positions.index(d.var_names[k])]
                last = mm.end()
            pieces.append(text[last:])
            conds.setdefault(m.group(1), []).append(tuple(p for p in pieces if p != ""))
    return tuple((name, tuple(c)) for name, c in conds.items())


def _create_derivative(
    func: FunctionSchema,
    formula: str,
    var_names: Tuple[str, ...],
    available_named_gradients: Sequence[str],
    output_vars: Sequence[Tuple[str, Type]],
    loc: Location,
    facts: bool = True,
) -> Derivative:
    original = formula
    formula = to_cpp(formula)
    outputs = [n for n, _ in output_vars]
    for m in _RESULT_NAME.finditer(formula):
        if m.group() not in outputs and not any(a.name == m.group() for a in func.arguments.flat_all):
            raise SpecError(
                f"formula reads '{m.group()}', but the outputs of {func.name} are called "
                f"{', '.join(repr(n) for n in outputs) or '(none: it returns nothing)'}",
                loc,
            )
    for i in used_gradient_indices(formula):
        if i >= len(func.returns):
            raise SpecError(
                f"formula uses grads[{i}] but {func.name} returns {len(func.returns)} "
                f"output{'s' if len(func.returns) != 1 else ''}",
                loc,
            )
    inputs = [(a.name, a.type) for a in func.arguments.flat_all]
    formula, saved_inputs = saved_variables(formula, inputs, var_names, False, loc, facts)
    formula, saved_outputs = saved_variables(formula, output_vars, var_names, True, loc, facts)
    for v in saved_inputs + saved_outputs:
        if v.name in _APPLY_LOCALS:
            raise SpecError(
                f"the formula saves '{v.name}', a name the generated backward code uses for its own "
                "variables; rename the argument or return in the declaration",
                loc,
            )
    named = frozenset(n for n in available_named_gradients if n in formula and uses(n, formula))
    if len(var_names) == 1 and _NOT_IMPLEMENTED.match(formula):
        arg = next(a for a in func.arguments.flat_all if a.name == var_names[0])
        if cpp.is_tensor_list(arg.type):
            # The gradient of a Tensor[] is a list: not_implemented_list(...) returns one.
            formula = formula.replace("not_implemented(", "not_implemented_list(", 1)
    return Derivative(
        formula=formula,
        original_formula=original,
        var_names=var_names,
        saved_inputs=saved_inputs,
        saved_outputs=saved_outputs,
        named_gradients=named,
        uses_grad=uses("grad", formula),
        uses_grad_input_mask=uses("grad_input_mask", formula),
        loc=loc,
    )


def _check_grad_usage(defn_name: str, derivatives: Sequence[Derivative]) -> None:
    """Mistakes that compile but are wrong: PyTorch's check_grad_usage, with locations."""
    uses_grad = None
    grads_uses = 0
    named = None
    indices: List[int] = []
    for d in derivatives:
        if uses_grad is None and d.uses_grad:
            uses_grad = d
        n = len(_GRADS_USE.findall(d.formula)) if "grads" in d.formula else 0
        grads_uses += n
        if n and uses_grad is not None:
            raise SpecError(
                f"the entry for {defn_name} mixes 'grad' and 'grads[i]'; use 'grads[0]' instead of 'grad'",
                d.loc,
            )
        if named is None and d.named_gradients:
            named = d
        indices.extend(used_gradient_indices(d.formula))
    if uses_grad is not None and grads_uses:
        raise SpecError(
            f"the entry for {defn_name} mixes 'grad' and 'grads[i]'; use 'grads[0]' instead of 'grad'",
            uses_grad.loc,
        )
    if grads_uses == len(indices) and indices and set(indices) == {0}:
        raise SpecError(
            f"the entry for {defn_name} only uses 'grads[0]'; if the first output is the only "
            "differentiable one, write 'grad'",
            derivatives[0].loc,
        )
    if named is not None and (uses_grad is not None or grads_uses):
        raise SpecError(
            f"the entry for {defn_name} mixes 'grad_<output name>' with 'grad' or 'grads[i]'; "
            "use one style of naming gradients",
            named.loc,
        )


def _forward_derivatives(
    func: FunctionSchema,
    defn_name: str,
    raw: Sequence[_Formula],
    derivatives: Sequence[Derivative],
    args_with_derivatives: Sequence[Argument],
    all_arg_names: Sequence[str],
) -> List[ForwardDerivative]:
    out: List[ForwardDerivative] = []
    for fm in raw:
        formula, names, loc = fm.text, fm.names, fm.value_loc
        var_types = _forward_output_types(func, names, loc)
        tangents: Optional[Tuple[str, ...]] = None
        if formula == "auto_element_wise":
            if len(args_with_derivatives) != 1 or len(raw) > 1 or len(names) > 1:
                raise SpecError(
                    f"auto_element_wise for {defn_name} needs exactly one differentiable input and one output",
                    loc,
                )
            if len(derivatives) != 1:
                raise SpecError(f"auto_element_wise for {defn_name} needs the backward formula of its input", loc)
            formula = _auto_element_wise(derivatives[0], args_with_derivatives)
            tangents = tuple(all_arg_names)
        elif formula == "auto_linear":
            if len(raw) > 1 or len(names) > 1:
                raise SpecError(f"auto_linear for {defn_name} needs a single differentiable output", loc)
            if len(func.returns) != 1:
                # The op applied to the tangents returns what the op returns: all of its outputs.
                raise SpecError(
                    f"auto_linear for {defn_name} needs an op with one return: {defn_name} applied to the "
                    f"tangents gives all {len(func.returns)} of its returns, not the tangent of {names[0]}; "
                    "write the formula",
                    loc,
                )
            if not args_with_derivatives:
                raise SpecError(f"auto_linear for {defn_name} needs at least one differentiable input", loc)
            diff = {a.name for a in args_with_derivatives}
            formula = f"{defn_name}({', '.join(n + '_t' if n in diff else n for n in all_arg_names)})"
            tangents = tuple(a.name for a in args_with_derivatives)
        formula = to_cpp(formula)
        _check_forward_names(func, formula, names, args_with_derivatives, defn_name, loc)
        if tangents is None:
            tangents = _required_inputs(formula, "_t", args_with_derivatives, defn_name, loc)
        primals = _required_inputs(formula, "_p", args_with_derivatives, defn_name, loc)
        out.append(ForwardDerivative(formula, names, var_types, tangents, primals, loc))
    return out


# What only a backward formula has: the gradients of the outputs and the mask of inputs.
_BACKWARD_ONLY_NAMES = ("grad", "grads", "grad_input_mask")


def _check_forward_names(
    func: FunctionSchema,
    formula: str,
    names: Sequence[str],
    args_with_derivatives: Sequence[Argument],
    defn_name: str,
    loc: Location,
) -> None:
    """A forward formula computes an output's tangent from the inputs' tangents (`<input>_t`) and
    values (`<input>_p`): it has no `grad`, and only an input with a backward formula has a
    tangent and a primal local in the wrapper (as in PyTorch); other inputs go by their own name."""
    output = ", ".join(names)
    for name in _BACKWARD_ONLY_NAMES + tuple(f"grad_{r.name}" for r in func.returns if r.name):
        if uses(name, formula):
            raise SpecError(
                f"the forward formula for {output} of {defn_name} uses '{name}', which only a backward "
                "formula has; a forward formula reads the inputs' tangents (<input>_t) and values (<input>_p)",
                loc,
            )
    with_derivatives = {a.name for a in args_with_derivatives}
    arg_names = {a.name for a in func.arguments.flat_all}
    for a in func.arguments.flat_all:
        if a.name in with_derivatives:
            continue
        is_tensor = cpp.is_tensor(a.type) or cpp.is_tensor_list(a.type)
        for postfix, what in (("_t", "tangent"), ("_p", "primal")):
            if a.name + postfix in arg_names or not uses(a.name + postfix, formula):
                continue  # `<name>_t` is another argument's own name
            why = (
                f"'{a.name}' has no backward formula (or is non_differentiable), so it has no {what}; "
                f"write '{a.name}' for its value, or give it a backward formula"
                if is_tensor
                else f"'{a.name}' is {_article(str(a.type))} {a.type}, not a tensor, so it has no {what}; "
                f"write '{a.name}' for its value"
            )
            raise SpecError(
                f"the forward formula for {output} of {defn_name} reads '{a.name}{postfix}', but {why}", loc
            )


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiouAEIOU" else "a"


def _forward_output_types(func: FunctionSchema, names: Sequence[str], loc: Location) -> Tuple[Type, ...]:
    """The types of the outputs a forward formula defines (`values`, `result`, `result1`)."""
    ret_by_name = {r.name: r for r in func.returns if r.name}
    types: List[Type] = []
    for n in names:
        if n in ret_by_name:
            types.append(ret_by_name[n].type)
        elif n == "result" and len(func.returns) == 1:
            types.append(func.returns[0].type)
        elif _RESULT_N.match(n) and int(n[6:]) < len(func.returns):
            types.append(func.returns[int(n[6:])].type)
        else:
            raise SpecError(f"forward formula for '{n}', which is not an output of {func.name}", loc)
    return tuple(types)


def _required_inputs(
    text: str, postfix: str, args_with_derivatives: Sequence[Argument], defn_name: str, loc: Location
) -> Tuple[str, ...]:
    """The Tensor inputs whose `<name><postfix>` (`_t` tangent, `_p` primal) a forward formula reads."""
    found = []
    for a in args_with_derivatives:
        if cpp.is_tensor_list(a.type):
            # A Tensor[] input's bare name is its list of primals; `<name>_t` its tangents.
            if uses(a.name + postfix, text):
                found.append(a.name)
            continue
        if uses(a.name, text):
            raise SpecError(
                f"the forward formula for {defn_name} uses the bare name '{a.name}', which is "
                f"ambiguous: write {a.name}_p for its value or {a.name}_t for its tangent",
                loc,
            )
        if uses(a.name + postfix, text):
            found.append(a.name)
    return tuple(found)


def _auto_element_wise(d: Derivative, args_with_derivatives: Sequence[Argument]) -> str:
    """PyTorch's expansion of `auto_element_wise`: the backward formula with `grad` replaced by
    the input's tangent and inputs by their primals. PyTorch conjugates the tangent and the
    result (`(grad_formula(self_t.conj())).conj()`); gradgen's dtypes are all real, where the
    conjugate is the identity, so the expansion leaves it out and the formula compiles as is."""
    inp = args_with_derivatives[0].name
    fw = rename(d.original_formula, {"grad": f"{inp}_t"})
    return rename(fw, {a.name: f"{a.name}_p" for a in args_with_derivatives})


# Declarations that are views get a `{view}_copy` twin; PyTorch derives the twin's formula from
# the view's (Note [Codegen'd {view}_copy Operators]). Same here, so the node sets match.
def _is_view(f: NativeFunction) -> bool:
    func = f.func
    rets = func.returns
    if rets and any(r.annotation is not None and not r.annotation.is_write for r in rets):
        return True
    if "inplace_view" in f.tags:
        return True
    return any(a.annotation is not None and "*" in a.annotation.alias_set_after for a in func.arguments.flat_all)


def _add_view_copy_infos(
    infos: Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]],
    index: _Index,
    explicit: set,
    cache: Optional["EntryCache"],
) -> None:
    by_name = index.by_name
    added: Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]] = {}
    for per_key in infos.values():
        for key, info in per_key.items():
            f = info.func
            if not _is_view(f) or f.func.name.name.inplace:
                break
            if str(f.func.name) != "narrow" and (
                is_composite_implicit(f, implicit=True)
                or "inplace_view" in f.tags
                or f.func.name.name.base.endswith("_inverse")
            ):
                break
            overload = f.func.name.overload_name
            copy_name = f"{f.func.name.name.base}_copy" + (f".{overload}" if overload else "")
            copy = by_name.get(copy_name)
            if copy is None or copy.func in explicit:
                break
            made = functools.partial(_view_copy_info, info, copy)
            added.setdefault(copy.func, {})[key] = made() if cache is None else cache.derived.get((info, copy), 0, made)
    for k, v in added.items():
        infos.setdefault(k, v)


def _view_copy_info(info: DifferentiabilityInfo, copy: NativeFunction) -> DifferentiabilityInfo:
    """The info of `{view}_copy` declaration `copy`: view `info`'s formulas, its node name + `_copy`."""
    parts = info.name.split(".", 1)
    diff_names = {b.name for b in info.args_with_derivatives}
    given = {name: getattr(info, name) for name in _GIVEN_FIELDS}
    given.update(
        name=f"{parts[0]}_copy" + ("." + parts[1] if len(parts) > 1 else ""),
        func=copy,
        op=None if info.op is None else f"{info.op}_copy",
        args_with_derivatives=tuple(a for a in copy.func.arguments.flat_all if a.name in diff_names),
    )
    return _info_with_facts(**given)


# ---------------------------------------------------------------------------------------------
# Foreach ops: formulas derived from the op each one applies to every list element
# ---------------------------------------------------------------------------------------------

# As torchgen (torchgen/api/autograd.py, gen_foreach_derivativeinfo): `_foreach_add.List` without
# an entry of its own takes add.Tensor's formulas, applied to element i of each list.
# These foreach ops name their reference's overload differently (the reference has `alpha`).
_FOREACH_SKIP_ARGUMENT_COUNT = frozenset(
    ["_foreach_add.Scalar", "_foreach_add.ScalarList", "_foreach_sub.Scalar", "_foreach_sub.ScalarList"]
)


def _is_reference_for_foreach(f: NativeFunction, ref: FunctionSchema) -> bool:
    """Whether functional op `ref` is what foreach op `f` applies to each element: same base
    name, same number of (non-out) arguments, each of the reference's types being the foreach
    argument's type or its list's element type."""
    func = f.func
    if func.name.name.base[len("_foreach_") :] != ref.name.name.base or ref.name.name.inplace:
        return False
    args, ref_args = func.arguments.flat_non_out, ref.arguments.flat_non_out
    if str(func.name) not in _FOREACH_SKIP_ARGUMENT_COUNT and len(args) != len(ref_args):
        return False
    return all(r.type in (a.type, getattr(a.type, "elem", None)) for a, r in zip(args, ref_args))


def _add_foreach_infos(
    infos: Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]],
    functions: Sequence[NativeFunction],
    cache: Optional["EntryCache"],
) -> None:
    """Gives every functional `_foreach_*` op without an entry the Default formulas of its
    reference op (the first, in file order, that `_is_reference_for_foreach`), per element."""
    # Candidates by base name, in file order; signatures (costly) only for those compared.
    functional: Dict[str, List[Tuple[FunctionSchema, Dict[str, DifferentiabilityInfo]]]] = defaultdict(list)
    for schema, per_key in infos.items():
        if schema.kind() is SchemaKind.functional:
            functional[schema.name.name.base].append((schema, per_key))
    for f in functions:
        base = f.func.name.name.base
        if not base.startswith("_foreach_") or f.func.kind() is not SchemaKind.functional or f.func in infos:
            continue
        for schema, per_key in functional.get(base[len("_foreach_") :], []):
            ref = per_key.get("Default")
            ref_schema = schema.signature(strip_default=True)
            if ref is not None and ref.op is not None and _is_reference_for_foreach(f, ref_schema):
                made = functools.partial(_foreach_info, f, ref_schema, ref)
                infos[f.func] = {"Default": made() if cache is None else cache.derived.get((f, ref), 1, made)}
                break


def _foreach_info(f: NativeFunction, ref_schema: FunctionSchema, ref: DifferentiabilityInfo) -> DifferentiabilityInfo:
    func = f.func
    # Each reference argument is the foreach argument at its position; a list's element is `x[i]`.
    pairs = list(zip(func.arguments.flat_non_out, ref_schema.arguments.flat_non_out))
    renamed = {r.name: a.name for a, r in pairs}
    substitutions = {r.name: a.name + "[i]" if isinstance(a.type, ListType) else a.name for a, r in pairs}
    substitutions.update(grad="grads[i]", result="result[i]")
    output_vars = list(zip(formula_output_names(func), (r.type for r in func.returns)))
    derivatives = []
    for d in ref.derivatives:
        formula = rename(d.original_formula, substitutions)
        names = tuple(renamed[n] for n in d.var_names)
        # As torchgen, the arguments are saved whole: `self[i].sizes()` is no fact of `self`.
        derivatives.append(_create_derivative(func, formula, names, (), output_vars, d.loc, facts=False))
    with_derivatives = {n for d in derivatives for n in d.var_names}
    return _info_with_facts(
        name=func.name.name.base,
        func=f,
        op=f"Foreach{ref.op}{func.name.overload_name}",
        dispatch_key="Default",
        derivatives=tuple(derivatives),
        forward_derivatives=(),
        all_saved_inputs=_dedup([v for d in derivatives for v in d.saved_inputs]),
        all_saved_outputs=_dedup([v for d in derivatives for v in d.saved_outputs]),
        available_named_gradients=(),
        used_named_gradients=frozenset(),
        args_with_derivatives=tuple(a for a in func.arguments.flat_non_out if a.name in with_derivatives),
        non_differentiable_arg_names=(),
        output_differentiability=None,
        output_differentiability_conditions=None,
        loc=ref.loc,
    )


def _check_names(
    infos: Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]],
    env: FormulaEnvironment,
    cache: Optional["EntryCache"],
) -> None:
    """Every function a formula calls is one the environment defines (point 3 of PyTorch's formula
    environment): a misspelt helper is an error at its formula, not a C++ error in Functions.cpp."""
    for per_key in infos.values():
        for info in per_key.values():
            if cache is None:
                _check_info_names(info, env)
            else:  # once per info and environment: a mistake raises, and is not kept
                cache.derived.get((info, env), 2, functools.partial(_check_info_names, info, env))


def _check_info_names(info: DifferentiabilityInfo, env: FormulaEnvironment) -> None:
    formulas = [(", ".join(d.var_names), d.formula, d.loc) for d in info.derivatives]
    formulas += [(", ".join(f.var_names), f.formula, f.loc) for f in info.forward_derivatives]
    for names, formula, loc in formulas:
        unknown = env.unknown(formula)
        if unknown:
            name = unknown[0][0]
            raise SpecError(
                f"the formula for {names} of {info.name} calls '{name}', which the formula "
                f"environment does not define{env.suggestion(name)}: it is no op of this library "
                "or of gradgen and no function of the headers the generated code includes "
                "(gradgen's csrc/autograd/formulas.h, your hdrs and deps)",
                loc,
            )


def load_derivatives(
    path: str,
    functions: Sequence[NativeFunction],
    display_name: Optional[str] = None,
    environment: Optional[FormulaEnvironment] = None,
    cache: Optional["EntryCache"] = None,
) -> Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]]:
    """Parses derivatives.yaml against `functions`: canonical schema -> dispatch key -> info.
    With an `environment`, the functions every formula calls are checked against it. With a
    `cache` (a persistent worker's, made for these `functions`), the entries it read and analysed
    before are taken from it: the result is the same."""
    file = display_name or path
    index = _Index(functions) if cache is None else cache.index
    items = None if cache is None else _cached_items(path, file, cache)
    if items is None:
        items = _items(path, file)
    infos = _analyse_entries(items, index, cache)
    _add_view_copy_infos(infos, index, set(infos), cache)
    _add_foreach_infos(infos, functions, cache)
    if environment is not None:
        _check_names(infos, environment, cache)
    return infos


@dataclass(frozen=True)
class _Analysed:
    """An entry read and analysed: what a worker's EntryCache keeps of it."""

    entry: _Entry
    # Its spec with runs of whitespace made one space (to find a duplicate entry).
    norm: str
    canonical: NativeFunction
    infos: Dict[str, DifferentiabilityInfo]


# One derivative entry to analyse: its cache key (or None), and its YAML value and where it
# starts, or what the cache holds of it.
_Item = Tuple[Optional[tuple], Union[Tuple[Any, Location], _Analysed]]


def _items(path: str, file: str) -> List[_Item]:
    """The entries of the whole file, read by load_yaml (no cache)."""
    entries = load_yaml(path, file)
    if entries is None:
        entries = Seq()
    if not isinstance(entries, Seq):
        raise SpecError("a derivatives file must be a list of entries ('- name: ...')", Location(file, 1))
    return [
        (None, (node, Location(file, node.line) if isinstance(node, Node) else entries.item_loc(i)))
        for i, node in enumerate(entries)
    ]


def _cached_items(path: str, file: str, cache: "EntryCache") -> Optional[List[_Item]]:
    """The entries, each by its text, read only when the cache does not hold it; None when the
    file is not one yaml_block.split_items splits (the whole file is read then, and its mistakes
    reported, as without a cache). Every entry is read before any is analysed, so a YAML mistake
    is reported before a mistake of an entry above it, as without a cache."""
    try:
        _, parts = split_items(read_spec_bytes(path, file))
        items: List[_Item] = []
        for first_line, text in parts:
            key = (file, text)
            found = cache.entries.get(key)
            if found is MISSING:
                node, loc = load_block_item(text, first_line, file)
                found = (node, Location(file, node.line) if isinstance(node, Node) else loc)
            items.append((key, found))
        return items
    except (Unsupported, SpecError):
        return None


def _analyse_entries(
    items: Sequence[_Item], index: _Index, cache: Optional["EntryCache"]
) -> Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]]:
    """The infos of the entries, in file order; node names numbered in that order."""
    op_counter: Counter = Counter()
    infos: Dict[FunctionSchema, Dict[str, DifferentiabilityInfo]] = {}
    first_seen: Dict[str, Location] = {}
    for key, found in items:
        if isinstance(found, _Analysed):
            entry, norm = found.entry, found.norm
        else:
            entry = _read_entry(*found)
            norm = _WHITESPACE.sub(" ", entry.spec.strip())
        if norm in first_seen:
            raise SpecError(
                f"duplicate derivative entry for '{entry.spec}' (first given at {first_seen[norm]})", entry.name_loc
            )
        first_seen[norm] = entry.name_loc
        if isinstance(found, _Analysed):
            canonical, per_key = found.canonical, _renumbered(found, op_counter, key, cache)
        else:
            canonical, per_key = _create_info(entry, index, op_counter)
            if key is not None and cache is not None:
                cache.entries.put(key, _Analysed(entry, norm, canonical, per_key))
        if canonical.func in infos:
            prev = next(iter(infos[canonical.func].values()))
            raise SpecError(
                f"a second derivative entry for {canonical.func.name} (its formulas are already given at {prev.loc})",
                entry.name_loc,
            )
        infos[canonical.func] = per_key
    return infos


def _renumbered(
    found: _Analysed, op_counter: "Counter[str]", key: Optional[tuple], cache: Optional["EntryCache"]
) -> Dict[str, DifferentiabilityInfo]:
    """A cached entry's infos with their node names numbered as here (`MmBackward1` when an entry
    for mm was added above): the names _set_up gives, which nothing else of an info depends on."""
    defn_name = _split_name(found.entry.spec)
    per_key = found.infos
    for dispatch_key, info in found.infos.items():
        if info.op is None:
            continue
        op = _node_name(defn_name, dispatch_key, op_counter)
        if op != info.op:
            if per_key is found.infos:
                per_key = dict(per_key)
            per_key[dispatch_key] = dataclasses.replace(info, op=op)
    if per_key is not found.infos and key is not None and cache is not None:
        cache.entries.put(key, dataclasses.replace(found, infos=per_key))
    return per_key


# The derivative entries (and infos made from them) a worker keeps: a few files of PyTorch's size.
_CACHE_SIZE = 8192


class EntryCache:
    """What a persistent worker keeps of derivatives files between requests, for one list of
    declarations (Note [Worker cache] in gen_autograd.py): each entry read and analysed, by its
    file name and text; the infos made from them (`{view}_copy` twins, foreach ops) and the
    formula environment checks passed, by the identity of what they were made from. The
    numbering of node names, which depends on the entries above, is redone per request
    (_renumbered). An entry's Locations are those of where it was first read: an entry that
    moves (a line added above it) is taken as it is, since no Location reaches a generated file,
    and a request that raises a SpecError is run again without the caches (gen_autograd.py), so
    that every message cites the lines of the files as they are."""

    def __init__(self, functions: Sequence[NativeFunction]) -> None:
        self.index = _Index(functions)
        self.entries = LRU(_CACHE_SIZE)
        self.derived = ByIdentity(_CACHE_SIZE)
