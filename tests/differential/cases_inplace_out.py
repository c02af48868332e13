"""Differential cases of issue 23's in-place variants and out= overloads (the audit's ip_scalar,
ip_unary, .out and out2 families).

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch: in-place methods with a Python number (`x.add_(1.0)`, `pow_`, `true_divide_`, the
comparisons `eq_` ... `ge_`, which write 0 / 1 in self's dtype), `add_(y, alpha=2)`, the unary
in-place methods (`sqrt_`, `sigmoid_`, ...) through a clone, so that the gradient (and the second
one) flows back through the in-place node, `copy_` (broadcast, dtype conversion, gradients to
both), `rsub`, and the out= overloads: values, the out tensor returned as the very object passed,
out's dtype kept (a float32 out of float64 inputs, an int64 out of a sum), out resized, and the
refusals: a floating result into an integer out, an in-place op on an integer self whose result
is floating, inputs that require grad, a leaf that requires grad.
"""

from __future__ import annotations

from cases import D, L, P, R, case  # cases.py imports this module once they are defined


def _inplace(op, *args, **kwargs):
    """x.clone().<op>(*args): (the result, 1 if the call returned the clone else 0)."""

    def run(T, x):
        y = x.clone()
        r = getattr(y, op)(*args, **kwargs)
        return [r, T.tensor(1 if r is y else 0)]

    return run


def _inplace_tensor(op, **kwargs):
    """x.clone().<op>(y, **kwargs), y the second input (its gradient too)."""

    def run(T, x, y):
        z = x.clone()
        r = getattr(z, op)(y, **kwargs)
        return [r, T.tensor(1 if r is z else 0)]

    return run


def _out(op, *args, dtype="float64", size=0, **kwargs):
    """T.<op>(*inputs, *args, out=zeros(size, dtype)): (out, 1 if the call returned out else 0,
    out's dtype as a string's character codes)."""

    def run(T, *xs):
        o = T.zeros([size], dtype=getattr(T, dtype))
        r = getattr(T, op)(*xs, *args, out=o, **kwargs)
        return [o, T.tensor(1 if r is o else 0), T.tensor([ord(c) for c in str(o.dtype).split(".")[-1]])]

    return run


def _register_inplace_scalar() -> None:
    x = R(2, 3, seed=11)
    for op, arg in (
        ("add_", 1.0),
        ("sub_", 1),
        ("mul_", 2.0),
        ("div_", 2.0),
        ("pow_", 2.0),
        ("pow_", 3),
        ("floor_divide_", 0.7),
        ("true_divide_", 2.0),
        ("eq_", 0.5),
        ("ne_", 0.5),
        ("lt_", 0.5),
        ("le_", 0.5),
        ("gt_", 0.5),
        ("ge_", 0.5),
    ):
        case(f"{op}.Scalar/number-{arg}", _inplace(op, arg), x)
    ints = L([[3, -1, 7], [0, 2, -5]])
    case("add_.Scalar/int64-number", _inplace("add_", 2), ints)
    case("sub_.Scalar/int64-number-alpha", _inplace("sub_", 2, 3), ints)
    case("add_.Scalar/int64-float-number-error", _inplace("add_", 1.5), ints)
    case("div_.Scalar/int64-number-error", _inplace("div_", 2), ints)
    case("floor_divide_.Scalar/int64-number", _inplace("floor_divide_", 2), ints)
    case("pow_.Scalar/int64-number", _inplace("pow_", 2), ints)
    case("lt_.Scalar/int64-number", _inplace("lt_", 1), ints)
    case("eq_.Scalar/float32-number", _inplace("eq_", 1.0), D([1.0, 2.0, 1.0], "float32"))
    case("sub_.Scalar/bool-number-error", _inplace("sub_", 1), D([True, False], "bool"))
    case("add_.Tensor/alpha", _inplace_tensor("add_", alpha=2), R(2, 3, seed=12), R(3, seed=13))
    case("sub_.Tensor/alpha", _inplace_tensor("sub_", alpha=0.5), R(2, 3, seed=14), R(2, 3, seed=15))
    case("pow_.Tensor/tensor", _inplace_tensor("pow_"), P(2, 3, seed=16), R(2, 3, seed=17))
    case("true_divide_.Tensor/tensor", _inplace_tensor("true_divide_"), R(2, 3, seed=18), P(3, seed=19))
    case("lt_.Tensor/tensor", _inplace_tensor("lt_"), R(2, 3, seed=20), R(2, 3, seed=21))
    for i, op in enumerate(("eq_", "ne_", "le_", "gt_", "ge_")):
        case(f"{op}.Tensor/tensor-broadcast", _inplace_tensor(op), R(2, 3, seed=22 + i), D([0.5, -0.5, 0.0]))
    case("true_divide_.Scalar/int64-error", _inplace("true_divide_", 2), L([1, 2]))
    case("add_.Tensor/broadcast-shape-error", _inplace_tensor("add_"), R(3, seed=24), R(2, 3, seed=25))
    case("add_.Scalar/number-leaf-requires-grad-error", lambda T, x: x.add_(1.0), R(3, seed=26))
    case("eq_.Scalar/leaf-requires-grad-error", lambda T, x: x.eq_(1.0), R(3, seed=27))

    def view_inplace(T, x):
        y = x * 1
        y[0].add_(2.0)
        y[1].pow_(2)
        return y

    case("add_.Scalar/number-into-a-view", view_inplace, R(2, 3, seed=28))

    def version(T, x):
        y = x.clone()
        v0 = y._version
        y.add_(1.0).div_(2.0).sqrt_()
        return T.tensor(y._version - v0)

    case("add_.Scalar/version-counter", version, P(3, seed=29))


UNARY = {
    "log_": P,
    "sqrt_": P,
    "abs_": R,
    "neg_": R,
    "sigmoid_": R,
    "tanh_": R,
    "sin_": R,
    "cos_": R,
    "reciprocal_": P,
    "sign_": R,
    "exp_": R,
}


def _register_inplace_unary() -> None:
    for op, dom in UNARY.items():
        case(f"{op}/through-a-clone", _inplace(op), dom(2, 3, seed=31), second=op != "sign_")
        case(f"{op}/float32", _inplace(op), dom(4, seed=32, dtype="float32"))
    case("sqrt_/int64-error", _inplace("sqrt_"), L([1, 4, 9]))
    case("neg_/int64", _inplace("neg_"), L([1, -4, 0]))
    case("abs_/int64", _inplace("abs_"), L([1, -4, 0]))
    case("sign_/int64", _inplace("sign_"), L([3, -4, 0]))
    case("sigmoid_/leaf-requires-grad-error", lambda T, x: x.sigmoid_(), R(3, seed=33))

    def chained(T, x):
        y = x * 2
        y.sin_().mul_(3).tanh_()
        return y

    case("sin_/chained", chained, R(2, 2, seed=34), second=True)

    def fw(T, x):
        y = x.detach().clone()
        return y.sqrt_().reciprocal_()

    case("reciprocal_/no-grad-input", fw, P(3, seed=35))


def _register_copy() -> None:
    def copy_(T, x, y):
        z = x * 1.0
        r = z.copy_(y)
        return [r, T.tensor(1 if r is z else 0)]

    case("copy_/same-shape", copy_, R(2, 3, seed=41), R(2, 3, seed=42), second=True)
    case("copy_/broadcast", copy_, R(2, 3, seed=43), R(3, seed=44), second=True)
    case("copy_/float32-src", copy_, R(2, 3, seed=45), R(2, 3, seed=46, dtype="float32"))
    case("copy_/int-src", copy_, R(2, 3, seed=47), L([1, 2, 3]))
    case("copy_/shape-error", copy_, R(2, 3, seed=48), R(2, 2, seed=49))
    case("copy_/bigger-src-error", copy_, R(2, 3, seed=50), R(1, 2, 3, seed=51))
    case("copy_/into-int64", lambda T, x: T.zeros([3], dtype=T.int64).copy_(x), D([1.7, -2.7, 0.2], grad=False))
    case("copy_/leaf-requires-grad-error", lambda T, x, y: x.copy_(y), R(3, seed=52), R(3, seed=53))

    def into_view(T, x, y):
        z = x * 1.0
        z[1].copy_(y)
        return z

    case("copy_/into-a-view", into_view, R(2, 3, seed=54), R(3, seed=55), second=True)

    def from_plain(T, y):
        z = T.zeros([2, 3])
        z.copy_(y)
        return z

    case("copy_/requires-grad-src-into-plain", from_plain, R(3, seed=56, dtype="float32"))


def _register_rsub() -> None:
    case("rsub.Scalar/number", lambda T, x: T.rsub(x, 1.0), R(2, 3, seed=61), second=True)
    case("rsub.Scalar/alpha", lambda T, x: T.rsub(x, 5, alpha=2), R(2, 3, seed=62))
    case("rsub.Scalar/int64", lambda T, x: T.rsub(x, 5, alpha=2), L([1, 2]))
    case("rsub.Tensor/broadcast", lambda T, x, y: T.rsub(x, y, alpha=0.5), R(2, 3, seed=63), R(3, seed=64), second=True)
    case("sub.Scalar/method", lambda T, x: x.sub(1.5, 2), R(2, 3, seed=65))


def _register_out() -> None:
    a, b = R(2, 3, seed=71, grad=False), R(2, 3, seed=72, grad=False)
    pos = P(2, 3, seed=73, grad=False)
    case("add.Scalar_out/number", _out("add", 1.5), a)
    case("add.Scalar_out/alpha", _out("add", 1.5, alpha=2), a)
    case("add.Scalar_out/int64-into-float32", _out("add", 1.5, dtype="float32"), L([1, 2]))
    case("add.Scalar_out/float-into-int64-error", _out("add", 1.5, dtype="int64"), L([1, 2]))
    case("mul.Scalar_out/number", _out("mul", 2.0), a)
    case("sub.out/tensor", _out("sub", alpha=2), a, b)
    case("sub.Scalar_out/number", _out("sub", 0.5), a)
    case("div.out/tensor", _out("div"), a, pos)
    case("div.out/int64-into-float32", _out("div", dtype="float32"), L([1, 7]), L([2, 2]))
    case("div.out/floor-mode", _out("div", rounding_mode="floor"), a, pos)
    case("div.Scalar_out/number", _out("div", 4.0), a)
    case("true_divide.out/tensor", _out("true_divide"), a, pos)
    case("pow.Tensor_Scalar_out/number", _out("pow", 2.0), pos)
    case("pow.Tensor_Tensor_out/tensor", _out("pow"), pos, b)
    for op in ("exp", "log", "sqrt", "abs", "neg", "sigmoid", "tanh", "sin", "cos", "reciprocal", "sign"):
        case(f"{op}.out/values", _out(op), pos)
    case("clamp.out/min-max", _out("clamp", -0.5, 0.5), a)
    case("clamp.out/min-only-float32-error", _out("clamp", min=0.0, dtype="float32"), a)
    case("clamp.out/int64-float-bound-into-float32", _out("clamp", 0.5, 3, dtype="float32"), L([1, 5]))
    case("exp.out/resize-non-empty", _out("exp", size=5), a)
    case("exp.out/float32-out", _out("exp", dtype="float32"), a)
    case("exp.out/int64-out-error", _out("exp", dtype="int64"), a)
    case("exp.out/requires-grad-error", _out("exp"), R(3, seed=74))
    case("sum.IntList_out/dim", _out("sum", 1), a)
    case("sum.IntList_out/keepdim", _out("sum", [0, 1], True), a)
    case("sum.IntList_out/float-into-int64", _out("sum", 1, dtype="int64"), D([[1.5, 1.5], [2.0, 3.5]], grad=False))
    case(
        "sum.IntList_out/dtype-mismatch-error",
        lambda T, x: T.sum(x, 1, dtype=T.float64, out=T.zeros([0], dtype=T.int64)),
        a,
    )
    case("mean.out/dim", _out("mean", 1), a)
    case("mean.out/float32-out", _out("mean", 0, dtype="float32"), a)
    case("prod.int_out/dim", _out("prod", 1), a)
    case("prod.int_out/int64-into-float64", _out("prod", 1), L([[1, 2], [3, 4]]))
    case("logsumexp.out/dim", _out("logsumexp", [1]), a)
    case("cumprod.out/dim", _out("cumprod", 1), a)
    case("cumprod.out/int64-into-int32", _out("cumprod", 1, dtype="int32"), L([[1, 2], [3, 4]]))
    case("matmul.out/matrices", lambda T, x, y: _out("matmul")(T, x, y.t()), a, b)
    case("matmul.out/vector", _out("matmul"), a, R(3, seed=75, grad=False))
    case("bmm.out/batches", _out("bmm"), R(2, 2, 3, seed=76, grad=False), R(2, 3, 2, seed=77, grad=False))
    case("cat.out/list", lambda T, x, y: _out("cat")(T, [x, y]), a, b)
    case("cat.out/dim1", lambda T, x, y: _out("cat", 1)(T, [x, y]), a, b)
    case("where.self_out/values", lambda T, x, y: _out("where")(T, x > 0, x, y), a, b)
    idx = L([2, 0, 2])
    case("index_select.out/dim1", lambda T, x, i: _out("index_select")(T, x, 1, i), a, idx)
    case("gather.out/dim1", lambda T, x, i: _out("gather")(T, x, 1, i), a, L([[0, 2], [1, 1]]))
    case(
        "index_add.out/alpha",
        lambda T, x, i, s: _out("index_add")(T, x, 0, i, s, alpha=2),
        a,
        L([1, 1]),
        R(2, 3, seed=78, grad=False),
    )
    case(
        "scatter_add.out/dim1",
        lambda T, x, i, s: _out("scatter_add")(T, x, 1, i, s),
        a,
        L([[0, 0, 2], [1, 2, 2]]),
        R(2, 3, seed=79, grad=False),
    )

    def randperm_out(T, dtype):
        o = T.zeros([0], dtype=getattr(T, dtype))
        r = T.randperm(6, out=o)
        return [o.sort().values, T.tensor(1 if r is o else 0), T.tensor([ord(c) for c in str(o.dtype).split(".")[-1]])]

    case("randperm.out/int64", lambda T: randperm_out(T, "int64"))
    case("randperm.out/float64", lambda T: randperm_out(T, "float64"))
    for op in ("eq", "ne", "lt", "le", "gt", "ge"):
        case(f"{op}.Scalar_out/number", _out(op, 0.0, dtype="bool"), a)
        case(f"{op}.Tensor_out/tensor", _out(op, dtype="bool"), a, b)
        case(f"{op}.Tensor_out/float-out", _out(op), a, b)
    case("cumprod_/dim", _inplace("cumprod_", 1), R(2, 3, seed=80))
    case("cumprod_/int64", _inplace("cumprod_", 0), L([[1, 2], [3, 4]]))


_register_inplace_scalar()
_register_inplace_unary()
_register_copy()
_register_rsub()
_register_out()
