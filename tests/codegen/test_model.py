"""Tests for tools/codegen/model.py: parsing function schemas, round trips, kinds, signatures."""

from __future__ import annotations

import pytest
import yaml

from tools.codegen.errors import SchemaParseError
from tools.codegen.model import (
    Annotation,
    Argument,
    Arguments,
    BaseOperatorName,
    BaseTy,
    BaseType,
    FunctionSchema,
    ListType,
    OperatorName,
    OptionalType,
    Return,
    SchemaKind,
    Type,
)

TENSOR = BaseType(BaseTy.Tensor)
INT = BaseType(BaseTy.int)

# ---------------------------------------------------------------------------------------------
# PyTorch's own specs
# ---------------------------------------------------------------------------------------------


def _yaml_list(path):
    with open(path, "rb") as f:
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def test_every_pytorch_schema_round_trips(pytorch_specs):
    entries = _yaml_list(pytorch_specs / "native_functions.yaml")
    schemas = [e["func"] for e in entries]
    assert len(schemas) == 2585
    mismatched = [s for s in schemas if str(FunctionSchema.parse(s)) != s]
    assert mismatched == []


def test_every_pytorch_derivative_name_round_trips(pytorch_specs):
    entries = _yaml_list(pytorch_specs / "derivatives.yaml")
    names = [e["name"] for e in entries]
    assert len(names) == 688
    assert [n for n in names if str(FunctionSchema.parse(n)) != n] == []


# ---------------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Tensor", TENSOR),
        ("int", INT),
        ("SymInt", BaseType(BaseTy.SymInt)),
        ("ScalarType", BaseType(BaseTy.ScalarType)),
        ("Tensor?", OptionalType(TENSOR)),
        ("Tensor[]", ListType(TENSOR, None)),
        ("Tensor?[]", ListType(OptionalType(TENSOR), None)),
        ("int[2]", ListType(INT, 2)),
        ("int[]?", OptionalType(ListType(INT, None))),
        ("SymInt[1]?", OptionalType(ListType(BaseType(BaseTy.SymInt), 1))),
    ],
)
def test_type_parse(text, expected):
    assert Type.parse(text) == expected
    assert str(expected) == text


def test_type_predicates():
    assert Type.parse("Tensor?[]").is_tensor_like()
    assert not Type.parse("int[]").is_tensor_like()


def test_every_base_type_in_pytorch_is_known():
    for name in [
        "Generator",
        "Dimname",
        "DeviceIndex",
        "QScheme",
        "Storage",
        "Stream",
        "SymBool",
        "ConstQuantizerPtr",
        "GraphModule",
        "MemoryFormat",
        "Layout",
        "Device",
    ]:
        assert Type.parse(name) == BaseType(BaseTy[name])


# ---------------------------------------------------------------------------------------------
# Arguments, annotations, returns
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a", Annotation(("a",), False, ())),
        ("a!", Annotation(("a",), True, ())),
        ("a -> *", Annotation(("a",), False, ("*",))),
        ("a|b", Annotation(("a", "b"), False, ())),
        ("a! -> a|b", Annotation(("a",), True, ("a", "b"))),
    ],
)
def test_annotation_parse(text, expected):
    assert Annotation.parse(text) == expected
    assert str(expected) == text


@pytest.mark.parametrize(
    "text, expected",
    [
        ("int[1] dim=[]", Argument("dim", ListType(INT, 1), "[]", None)),
        ('str reduce="mean"', Argument("reduce", BaseType(BaseTy.str), '"mean"', None)),
        ("str mode='linear'", Argument("mode", BaseType(BaseTy.str), "'linear'", None)),
        ("ScalarType? dtype=None", Argument("dtype", OptionalType(BaseType(BaseTy.ScalarType)), "None", None)),
        ("float eps=1e-05", Argument("eps", BaseType(BaseTy.float), "1e-05", None)),
        ("int[2] dims=[-2,-1]", Argument("dims", ListType(INT, 2), "[-2,-1]", None)),
        ("int reduction=Mean", Argument("reduction", INT, "Mean", None)),
        ("Tensor(a!) self", Argument("self", TENSOR, None, Annotation(("a",), True, ()))),
        ("Tensor(b!)[] out", Argument("out", ListType(TENSOR, None), None, Annotation(("b",), True, ()))),
        ("Tensor(a)? base", Argument("base", OptionalType(TENSOR), None, Annotation(("a",), False, ()))),
        ("Tensor(a -> *) self", Argument("self", TENSOR, None, Annotation(("a",), False, ("*",)))),
        ('str s="\\"\'\\\\"', Argument("s", BaseType(BaseTy.str), '"\\"\'\\\\"', None)),
    ],
)
def test_argument_parse(text, expected):
    assert Argument.parse(text) == expected
    assert str(expected) == text


def test_keyword_only_and_out_arguments():
    args = Arguments.parse("Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out")
    assert [a.name for a in args.positional] == ["self", "other"]
    assert [a.name for a in args.kwarg_only] == ["alpha"]
    assert [a.name for a in args.out] == ["out"]
    assert [a.name for a in args.flat_non_out] == ["self", "other", "alpha"]
    assert [a.name for a in args.flat_all] == ["self", "other", "alpha", "out"]
    assert [a.name for a in args.tensor_args] == ["self", "other"]
    assert args.self_arg == Argument("self", TENSOR, None, None)


def test_keyword_only_without_out():
    args = Arguments.parse("*, ScalarType? dtype=None, Device? device=None")
    assert args.positional == ()
    assert [a.name for a in args.kwarg_only] == ["dtype", "device"]
    assert args.out == ()


def test_written_positional_argument_is_not_out():
    args = Arguments.parse("Tensor(a!) self, Tensor other")
    assert [a.name for a in args.positional] == ["self", "other"]
    assert args.out == ()
    assert [a.name for a in args.flat_all if a.is_write] == ["self"]


@pytest.mark.parametrize(
    "text, returns",
    [
        (
            "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
            (Return("values", TENSOR, None), Return("indices", TENSOR, None)),
        ),
        (
            "unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]",
            (Return(None, ListType(TENSOR, None), Annotation(("a",), False, ())),),
        ),
        (
            "split_copy(Tensor self, SymInt split_size, int dim=0) -> Tensor[]",
            (Return(None, ListType(TENSOR, None), None),),
        ),
        ("_foreach_zero_(Tensor(a!)[] self) -> ()", ()),
        (
            "aminmax(Tensor self) -> (Tensor min, Tensor max)",
            (Return("min", TENSOR, None), Return("max", TENSOR, None)),
        ),
        (
            "_fused_dropout(Tensor self, float p) -> (Tensor, Tensor)",
            (Return(None, TENSOR, None), Return(None, TENSOR, None)),
        ),
        ("q_scale(Tensor self) -> float", (Return(None, BaseType(BaseTy.float), None),)),
    ],
)
def test_returns(text, returns):
    schema = FunctionSchema.parse(text)
    assert schema.returns == returns
    assert str(schema) == text


# ---------------------------------------------------------------------------------------------
# Operator names
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("add", BaseOperatorName("add", False, False, False)),
        ("add_", BaseOperatorName("add", True, False, False)),
        ("__and__", BaseOperatorName("and", False, True, False)),
        ("__iand__", BaseOperatorName("and", True, True, False)),
        ("__ilshift__", BaseOperatorName("lshift", True, True, False)),
        ("_native_batch_norm_legit_functional", BaseOperatorName("_native_batch_norm_legit", False, False, True)),
        ("_functional_assert_scalar", BaseOperatorName("_functional_assert_scalar", False, False, False)),
    ],
)
def test_base_operator_name(text, expected):
    assert BaseOperatorName.parse(text) == expected
    assert str(expected) == text


def test_operator_name():
    name = OperatorName.parse("add_.Tensor")
    assert name == OperatorName(BaseOperatorName("add", True, False), "Tensor")
    assert str(name) == "add_.Tensor"
    assert OperatorName.parse("mm") == OperatorName(BaseOperatorName("mm", False, False), "")


# ---------------------------------------------------------------------------------------------
# Whole schemas: kind, signature, returns
# ---------------------------------------------------------------------------------------------

ADD = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
ADD_ = "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"
ADD_OUT = "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"
BATCH_NORM = (
    "_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, "
    "Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)"
)
BATCH_NORM_FUNCTIONAL = (
    "_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
    "Tensor running_var, bool training, float momentum, float eps) "
    "-> (Tensor, Tensor, Tensor, Tensor running_mean_out, Tensor running_var_out)"
)


@pytest.mark.parametrize(
    "text, kind",
    [
        (ADD, SchemaKind.functional),
        (ADD_, SchemaKind.inplace),
        (ADD_OUT, SchemaKind.out),
        (BATCH_NORM, SchemaKind.mutable),
        ("_foo.out(Tensor self, *, Tensor(a!) out, Tensor(b!) _scratch_x) -> Tensor(a!)", SchemaKind.scratch),
        ("set_data(Tensor(a!) self, Tensor new_data) -> ()", SchemaKind.mutable),
    ],
)
def test_kind(text, kind):
    assert FunctionSchema.parse(text).kind() == kind
    assert FunctionSchema.parse(text).kind() == kind.value


def test_is_out_fn():
    assert FunctionSchema.parse(ADD_OUT).is_out_fn()
    assert not FunctionSchema.parse(ADD_).is_out_fn()


def test_inplace_out_and_functional_share_a_signature():
    expected = "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
    assert str(FunctionSchema.parse(ADD).signature()) == expected
    assert str(FunctionSchema.parse(ADD_).signature()) == expected
    assert str(FunctionSchema.parse(ADD_OUT).signature()) == expected
    assert FunctionSchema.parse(ADD_).signature() == FunctionSchema.parse(ADD).signature()


def test_signature_strips_defaults_on_request():
    schema = FunctionSchema.parse(ADD_)
    assert str(schema.signature(strip_default=True)) == "add(Tensor self, Tensor other, *, Scalar alpha) -> Tensor"


def test_signature_strips_return_names():
    schema = FunctionSchema.parse(
        "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
    )
    assert str(schema.signature()) == "max(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)"


def test_signature_returns_written_inputs():
    inplace = FunctionSchema.parse("_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()")
    functional = FunctionSchema.parse("_foreach_add.List(Tensor[] self, Tensor[] other, *, Scalar alpha=1) -> Tensor[]")
    assert inplace.signature() == functional.signature()
    assert FunctionSchema.parse(BATCH_NORM).signature() == FunctionSchema.parse(BATCH_NORM_FUNCTIONAL).signature()


def test_signature_drops_tensor_options():
    factory = FunctionSchema.parse(
        "arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor"
    )
    out = FunctionSchema.parse("arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!)")
    assert str(factory.signature()) == "arange(Scalar end) -> Tensor"
    assert factory.signature() == out.signature()


def test_dunder_signature_keeps_dunder():
    schema = FunctionSchema.parse("__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)")
    assert str(schema.signature()) == "__and__(Tensor self, Tensor other) -> Tensor"


@pytest.mark.parametrize(
    "text, names",
    [
        (ADD, ("result",)),
        (ADD_, ("self",)),
        (ADD_OUT, ("out",)),
        ("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", ("values", "indices")),
        ("_fused_dropout(Tensor self, float p) -> (Tensor, Tensor)", ("result0", "result1")),
        ("_unpack_dual(Tensor(a) dual, int level) -> (Tensor(a) primal, Tensor tangent)", ("primal", "tangent")),
        ("foo(Tensor self, Tensor values) -> (Tensor values, Tensor b)", ("values_return", "b")),
    ],
)
def test_names_of_returns(text, names):
    assert FunctionSchema.parse(text).names_of_returns() == names


# ---------------------------------------------------------------------------------------------
# Errors: exact text and offset
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, offset, message",
    [
        ("foo(Tensr x) -> Tensor", 4, "unknown type 'Tensr'"),
        ("foo(Tensor x", 3, "unbalanced parentheses: '(' is never closed"),
        ("foo(Tensor x)) -> Tensor", 13, "unbalanced parentheses: unexpected ')'"),
        ("foo(Tensor x) -> (Tensor a, Tensor b", 17, "unbalanced parentheses: '(' is never closed"),
        ("foo(Tensor x)", 13, "missing ' -> ' and the return type after the argument list"),
        ("foo(Tensor x)->Tensor", 13, "expected ' -> ' (one space each side) after the argument list"),
        ("foo(Tensor x, Tensor x) -> Tensor", 21, "duplicate argument name 'x'"),
        ("foo(Tensor x) -> (Tensor a, Tensor a)", 35, "duplicate return name 'a'"),
        ("foo(Tensor class) -> Tensor", 11, "'class' is not a valid C++ identifier"),
        ("foo(Tensor 1x) -> Tensor", 11, "'1x' is not a valid C++ identifier"),
        ("foo(Tensor x) -> (Tensor a-b, Tensor c)", 25, "'a-b' is not a valid C++ identifier"),
        ("foo(Tensor x, *, Tensor(a!) out=None) -> Tensor(a!)", 31, "out argument 'out' cannot have a default"),
        (
            "foo(Tensor x, *, Tensor(a!) out, int y) -> Tensor",
            33,
            "keyword-only argument 'y' must come before the out arguments",
        ),
        ("foo(Tensor x, *) -> Tensor", 14, "'*' must be followed by a keyword-only argument"),
        ("foo(Tensor x, *, *, int y) -> Tensor", 17, "'*' may appear only once"),
        ("foo(Tensor x,Tensor y) -> Tensor", 12, "expected ', ' (comma and one space) between arguments"),
        ("foo(Tensor  x) -> Tensor", 11, "expected one space between the type and the name"),
        ("foo(Tensor) -> Tensor", 10, "expected a space and an argument name after the type"),
        ("foo(Tensor x, ) -> Tensor", 14, "expected a type"),
        ("foo(int(a) x) -> Tensor", 7, "alias annotations are only allowed on Tensor, not on 'int'"),
        ("foo(Tensor(a!b) x) -> Tensor", 11, "invalid alias annotation '(a!b)'"),
        (
            "foo(Tensor(a|b!) x) -> Tensor",
            11,
            "an alias annotation with '!' must name a single alias set, not '(a|b!)'",
        ),
        ("foo(Tensor(a!) x) -> (Tensor(a!))", 21, "a single return is written without parentheses"),
        ("foo(int[2 x) -> Tensor", 7, "unbalanced brackets: '[' is never closed"),
        ("foo(int x=) -> Tensor", 10, "expected a default value after '='"),
        ('foo(str x="abc) -> Tensor', 10, "unterminated string literal"),
        ("foo(int?? x) -> Tensor", 8, "a type cannot be optional twice"),
        ("foo(int[02] x) -> Tensor", 8, "invalid list size '02'"),
        ("foo(Tensor-x y) -> Tensor", 4, "invalid type 'Tensor-x'"),
        (
            "foo_out(Tensor x) -> Tensor",
            3,
            "operator name 'foo_out' must not end in '_out'; name an out= variant with an overload, e.g. 'foo.out'",
        ),
        ("foo.(Tensor x) -> Tensor", 4, "'' is not a valid overload name"),
        ("foo-bar(Tensor x) -> Tensor", 0, "'foo-bar' is not a valid operator name"),
        ("(Tensor x) -> Tensor", 0, "expected an operator name"),
        ("foo", 3, "expected '(' after the operator name 'foo'"),
        (
            "add_.out(Tensor(a!) self, *, Tensor(a!) out) -> Tensor(a!)",
            0,
            "in-place operator 'add_' cannot have out arguments",
        ),
        ("foo(Tensor x) -> Tensor y z", 25, "unexpected text after the return type: ' z'"),
    ],
)
def test_schema_errors(text, offset, message):
    with pytest.raises(SchemaParseError) as info:
        FunctionSchema.parse(text)
    assert (info.value.offset, str(info.value)) == (offset, message)


def test_type_parse_rejects_annotation():
    with pytest.raises(SchemaParseError) as info:
        Type.parse("Tensor(a!)")
    assert (info.value.offset, str(info.value)) == (6, "an alias annotation is not part of a type")
