"""The Python-binding emitter (gen_python_functions.py, python.py) on small inline specs.

What the bindings do when called is tested from Python in //tests/python:ops_test; here: which
Python callables a spec yields, their parameters, defaults, order and returns, as generated text.
"""

from __future__ import annotations

import re

import pytest

from tools.codegen import python
from tools.codegen.gen_autograd import generate
from tools.codegen.model import FunctionSchema

DECLS = """
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  variants: function, method
- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
  variants: method
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
- func: add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
  variants: function, method
- func: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  variants: function, method
- func: max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)
- func: split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]
- func: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
- func: cat(Tensor[] tensors, int dim=0) -> Tensor
- func: fill(Tensor self, str mode="a\\"b", float p=0.5, int reduction=Mean) -> Tensor
- func: named(Tensor self, Dimname dim) -> Tensor
  flags: [DONT_REQUIRE_DERIVATIVE]
"""

DERIVS = """
- name: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  self: grad
  other: grad * alpha
- name: add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
  self: grad
- name: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  self: grad
  output_differentiability: [True, False]
- name: split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]
  self: grad
- name: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
  self: grad
- name: cat(Tensor[] tensors, int dim=0) -> Tensor
  tensors: grad
- name: fill(Tensor self, str mode="a\\"b", float p=0.5, int reduction=Mean) -> Tensor
  self: grad
"""


@pytest.fixture
def files(tmp_path):
    nf = tmp_path / "native_functions.yaml"
    d = tmp_path / "derivatives.yaml"
    nf.write_text(DECLS)
    d.write_text(DERIVS)
    return generate(str(nf), str(d), native_functions_name="native_functions.yaml", derivatives_name="derivatives.yaml")


def _defs(text: str) -> list[tuple[str, str, str]]:
    """(kind, Python name, schema) of every binding, in file order."""
    out = []
    for m in re.finditer(
        r'  (m\.def\(\n      "(\w+)"|nanobind::cpp_function_def\()(.*?)\n      ("(?:[^"\\]|\\.)*")\);', text, re.S
    ):
        if m.group(1).startswith("m.def"):
            kind, name = "function", m.group(2)
        else:
            kind, name = "method", re.search(r'nanobind::name\("(\w+)"\)', m.group(3)).group(1)
        out.append((kind, name, m.group(4)[1:-1]))
    return out


def _binding(text: str, kind: str, schema_start: str) -> str:
    """The text of the one binding of `kind` whose schema starts with `schema_start`."""
    blocks = re.split(r"\n(?=  // \S)", text)
    hits = [
        b
        for b in blocks
        if b.startswith("  // " + schema_start)
        and (("m.def(" in b) if kind == "function" else ("cpp_function_def(" in b))
    ]
    assert len(hits) == 1, (kind, schema_start, hits)
    return hits[0]


def test_variants_make_functions_and_methods_and_overloads_share_a_name(files):
    defs = _defs(files["python_functions.cpp"])
    functions = [(n, s.split("(")[0]) for k, n, s in defs if k == "function"]
    methods = [(n, s.split("(")[0]) for k, n, s in defs if k == "method"]
    # Tensor overloads before Scalar ones, out= last among equals; file order otherwise.
    assert functions[:3] == [("add", "add.Tensor"), ("add", "add.out"), ("add", "add.Scalar")]
    assert ("add_", "add_.Tensor") in methods and ("add_", "add_.Tensor") not in functions
    assert ("add", "add.out") not in methods  # out= variants are functions only
    assert [n for n, _ in methods] == ["add", "add", "add_", "max"]
    assert ("max", "max.dim_max") in functions and ("split", "split.Tensor") in functions


def test_function_parameters_defaults_and_keyword_only(files):
    text = files["python_functions.cpp"]
    add = _binding(text, "function", "add.Tensor(")
    # add's Tensor arguments take numbers too, as wrapped numbers (PyTorch's numbers as tensors).
    assert (
        "[](const ::gradgen::python::TensorOrNumber& input, const ::gradgen::python::TensorOrNumber& other, "
        "::gradgen::Scalar alpha) {" in add
    )
    assert (
        'nanobind::arg("input"),\n      nanobind::arg("other"),\n      nanobind::kw_only(),\n      nanobind::arg("alpha") = nanobind::int_(1),'
        in add
    )
    assert "return ::gradgen::add(input, other, alpha);" in add
    s = _binding(text, "function", "sum.dim_IntList(")
    assert "std::optional<::gradgen::python::IntList> dim" in s
    assert 'nanobind::arg("dim").none(),' in s  # Tensor?/int[]? accept None
    assert 'nanobind::arg("dtype").none() = nanobind::none(),' in s
    assert "::gradgen::python::to_optional_ref(dim)" in s
    fill = _binding(text, "function", "fill(")
    assert 'nanobind::arg("mode") = nanobind::str("a\\"b"),' in fill
    assert 'nanobind::arg("p") = nanobind::float_(0.5),' in fill
    assert 'nanobind::arg("reduction") = nanobind::int_(1),' in fill
    # The schema is the docstring, escaped as a C++ string.
    assert '"fill(Tensor self, str mode=\\"a\\\\\\"b\\", float p=0.5, int reduction=Mean) -> Tensor");' in fill


def test_methods_bind_self_and_inplace_returns_the_same_object(files):
    text = files["python_functions.cpp"]
    m = _binding(text, "method", "add_.Tensor(")
    assert "[](::gradgen::Tensor& self, const ::gradgen::python::TensorOrNumber& other, ::gradgen::Scalar alpha) {" in m
    assert "::gradgen::add_(self, other, alpha);\n        return ::gradgen::python::same_object(self);" in m
    assert 'nanobind::scope(tensor), nanobind::name("add_"), nanobind::is_method(),' in m
    assert 'nanobind::arg("self")' not in m
    out = _binding(text, "function", "add.out(")
    assert "::gradgen::add_out(input, other, alpha, out);\n        return ::gradgen::python::same_object(out);" in out
    assert 'nanobind::kw_only(),\n      nanobind::arg("alpha") = nanobind::int_(1),\n      nanobind::arg("out"),' in out


def test_named_tuples_lists_and_several_outs(files):
    text = files["python_functions.cpp"]
    assert 'max_return_type = ::gradgen::python::named_tuple_type("max", {"values", "indices"});' in text
    assert "return ::gradgen::python::named_tuple(max_return_type, ::gradgen::max(input, dim, keepdim));" in text
    dim_max = _binding(text, "function", "max.dim_max(")
    assert "std::vector<::gradgen::Tensor*> out" in dim_max
    assert '::gradgen::python::check_outs("max.dim_max", out, 2);' in dim_max
    assert "::gradgen::max_out(input, dim, keepdim, *out[0], *out[1]);" in dim_max
    # out= returns PyTorch's other type, torch.return_types.max_out, with the same fields.
    assert "return ::gradgen::python::same_objects(out, max_out_return_type);" in dim_max
    assert 'max_out_return_type = ::gradgen::python::named_tuple_type("max_out", {"values", "indices"});' in text
    assert "return ::gradgen::python::to_tuple(::gradgen::split(input, split_size, dim));" in text
    assert "[](std::vector<::gradgen::Tensor> tensors, int64_t dim) {" in _binding(text, "function", "cat(")


def test_declarations_python_cannot_call_are_listed_not_bound(files):
    text = files["python_functions.cpp"]
    assert (
        "  // Not bound: named(Tensor self, Dimname dim) -> Tensor\n  //   as a function: argument 'dim' has type Dimname, which has no Python conversion"
        in text
    )
    assert '"named"' not in text


def test_header_declares_every_shard(tmp_path):
    nf = tmp_path / "nf.yaml"
    d = tmp_path / "d.yaml"
    nf.write_text(DECLS)
    d.write_text(DERIVS)
    files = generate(
        str(nf), str(d), native_functions_name="nf.yaml", derivatives_name="d.yaml", shards=3, namespace="demo::ops"
    )
    header = files["python_functions.h"]
    for k in range(3):
        assert f"void bind_functions_{k}(nanobind::module_& m);" in header
        assert f"  bind_functions_{k}(m);" in files["python_functions_0.cpp"]
        assert f"void bind_functions_{k}(nanobind::module_& m) {{" in files[f"python_functions_{k}.cpp"]
    assert "void bind_generated(nanobind::module_& m);" in header
    assert "void bind_generated(nanobind::module_& m) {" in files["python_functions_0.cpp"]
    assert "void bind_generated(" not in files["python_functions_1.cpp"]
    assert "namespace demo::ops {" in header
    # One group never spans shards: every overload of `add` is in one file.
    holders = [n for n, t in files.items() if n.startswith("python_functions_") and '"add"' in t]
    assert len(holders) == 1
    assert "::demo::ops::add(input, other, alpha)" in files[holders[0]]


@pytest.mark.parametrize(
    "schema, why",
    [
        ("foo(Tensor self, Storage s) -> Tensor", "argument 's' has type Storage"),
        ("foo(int x) -> (Tensor[] a, Tensor b)", "returns a Tensor[] inside a tuple"),
    ],
)
def test_unbindable(schema, why):
    with pytest.raises(python.Unbindable, match=re.escape(why)):
        python.overload(FunctionSchema.parse(schema), "foo", python.Variant.FUNCTION)


def test_methods_need_a_tensor_self():
    with pytest.raises(python.Unbindable, match="needs a `Tensor self`"):
        python.overload(FunctionSchema.parse("foo(Tensor input) -> Tensor"), "foo", python.Variant.METHOD)


def test_overload_order_counts_scalar_arguments_not_scalar_types():
    def o(schema):
        return python.overload(FunctionSchema.parse(schema), "f", python.Variant.FUNCTION)

    g = python.group(
        "f",
        python.Variant.FUNCTION,
        [
            o("f.Scalar(Tensor self, Scalar other) -> Tensor"),
            o("f.dtype(Tensor self, ScalarType dtype) -> Tensor"),
            o("f.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"),
            o("f.Tensor(Tensor self, Tensor other) -> Tensor"),
        ],
    )
    assert [x.op_name for x in g.overloads] == ["f.dtype", "f.Tensor", "f.out", "f.Scalar"]


def test_a_declaration_too_wide_for_nanobind_is_not_bound():
    # Issue 28: ~475 Tensor parameters exceeded g++'s template depth in the binding (the C++ API
    # compiled); past python.MAX_PARAMETERS the declaration is listed as unbindable instead.
    def schema(n: int) -> FunctionSchema:
        return FunctionSchema.parse(f"w({', '.join(f'Tensor a{i}' for i in range(n))}) -> Tensor")

    assert (
        len(python.overload(schema(python.MAX_PARAMETERS), "w", python.Variant.FUNCTION).params)
        == python.MAX_PARAMETERS
    )
    with pytest.raises(
        python.Unbindable, match=f"it has {python.MAX_PARAMETERS + 1} parameters; a Python binding has at most"
    ):
        python.overload(schema(python.MAX_PARAMETERS + 1), "w", python.Variant.FUNCTION)


def test_conventions_numpy_aliases_and_varargs_sizes():
    # PyTorch's python_arg_parser: `axis=` for `dim`, `keepdims=` for `keepdim` wherever an
    # overload has them; sizes as varargs where an overload's only positional parameter (a
    # method's self aside) is an unsized int[] (x.view(2, 3), x.permute(2, 0, 1)), never a sized
    # one (PyTorch refuses x.std(0, 1)).
    def g(kind, *schemas):
        return python.group("f", kind, [python.overload(FunctionSchema.parse(s), "f", kind) for s in schemas])

    assert g("method", "f(Tensor self, int dim, bool keepdim=False) -> Tensor").conventions == (
        "kAxisAlias",
        "kKeepdimsAlias",
    )
    assert g(
        python.Variant.METHOD,
        "f(Tensor self, SymInt[] size) -> Tensor",
        "f.dtype(Tensor self, ScalarType dtype) -> Tensor",
    ).conventions == ("kVarargsIntList",)
    # As a function, `input` is positional too: torch.permute(x, 2, 0, 1) is refused.
    assert g("function", "f(Tensor self, int[] dims) -> Tensor").conventions == ()
    assert g("function", "f(SymInt[] size, *, ScalarType? dtype=None) -> Tensor").conventions == ("kVarargsIntList",)
    # A factory (TensorOptions) takes requires_grad=, as torch's parser adds it.
    options = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"
    assert g("function", f"f(Scalar end, *, {options}) -> Tensor").conventions == ("kRequiresGrad",)
    assert g("function", f"f(Tensor self, *, {options}, MemoryFormat? memory_format=None) -> Tensor").conventions == (
        "kRequiresGrad",
    )
    assert g("method", "f(Tensor self, int[1]? dim=None, *, bool keepdim=False) -> Tensor").conventions == (
        "kAxisAlias",
        "kKeepdimsAlias",
    )
    assert g("method", "f(Tensor self, int[] dims, bool flag=False) -> Tensor").conventions == ()


def test_groups_with_conventions_are_wrapped_after_their_overloads(files):
    text = files["python_functions.cpp"]
    # Methods and functions with a `dim`/`keepdim` get apply_conventions after their last def.
    assert (
        'apply_conventions(tensor.ptr(), "max", ::gradgen::python::kAxisAlias | ::gradgen::python::kKeepdimsAlias)'
        in text
    )
    assert 'apply_conventions(m.ptr(), "cat", ::gradgen::python::kAxisAlias)' in text
    assert 'apply_conventions(m.ptr(), "add"' not in text
    last_max = text.rindex('nanobind::name("max")')
    assert text.index('apply_conventions(tensor.ptr(), "max"') > last_max
