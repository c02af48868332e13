"""Differential cases of the dtypes (issue 23): int32, int16, int8, uint8, float16, bfloat16.

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch: the promotion of every pair of dtypes (dimensioned tensors, zero-dim tensors, Python
numbers), casts (truncation toward zero, wrapping into narrower integers, float16 / bfloat16
rounding to nearest even, returned as float64 so that the rounding compares exactly), the integer
semantics of arithmetic (wrapping overflow, floor and truncating division, division by zero),
reductions (sum / prod / cumsum of small integers are int64), comparisons, shape and indexing
ops on the new dtypes, and float16 gradients of element-wise ops.
"""

from __future__ import annotations

from cases import INF, NAN, D, case  # cases.py imports this module once they are defined

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
FLOATS = ("float16", "bfloat16", "float32", "float64")


def _data(dtype: str, n: int, salt: int = 0):
    """n values that every dtype holds exactly (no overflow, no rounding)."""
    if dtype == "bool":
        return [(i + salt) % 2 == 0 for i in range(n)]
    if dtype == "uint8":
        return [(3 * i + salt) % 7 + 1 for i in range(n)]
    if dtype in FLOATS:
        return [0.5 * ((3 * i + salt) % 7) - 1.25 for i in range(n)]
    return [(3 * i + salt) % 7 - 3 for i in range(n)]


def _scalar(dtype: str, salt: int = 0):
    return _data(dtype, 1, salt)[0]


def _register_promotion() -> None:
    # Every ordered pair: dimensioned with dimensioned, with a zero-dim tensor, and each dtype with
    # Python numbers. add and mul (sub refuses bool), eq; floating inputs require grad, so that
    # each gradient comes back in its own input's dtype.
    for a in DTYPES:
        for b in DTYPES:
            x, y = D(_data(a, 3, 1), a), D(_data(b, 3, 2), b)
            case(f"add.Tensor/dtype/{a}+{b}", lambda T, u, v: T.add(u, v), x, y)
            case(f"mul.Tensor/dtype/{a}*{b}-0-dim", lambda T, u, v: T.mul(u, v), x, D(_scalar(b, 3), b))
            case(f"eq.Tensor/dtype/{a}=={b}", lambda T, u, v: T.eq(u, v), x, D(_data(b, 3, 1), b))
        x = D(_data(a, 3, 4), a)
        case(f"add.Tensor/dtype/{a}+python-int", lambda T, u: u + 3, x)
        case(f"add.Tensor/dtype/{a}+python-float", lambda T, u: u + 1.5, x)
        case(f"add.Tensor/dtype/{a}+python-bool", lambda T, u: u + True, x)
        case(f"mul.Tensor/dtype/0-dim-{a}*int64", lambda T, u, v: u * v, D(_scalar(a, 5), a), D([1, 2], "int64"))
        case(
            f"mul.Tensor/dtype/0-dim-{a}*float16", lambda T, u, v: u * v, D(_scalar(a, 6), a), D([0.5, 2.0], "float16")
        )


def _register_casts() -> None:
    floats = [1.5, -1.5, 2.7, -2.7, 0.0, -0.0, 100.99, -100.99, 127.5, -128.5]
    for dtype in ["int8", "int16", "int32", "int64"]:
        case(f"to/dtype/float64-to-{dtype}", lambda T, x, d=dtype: x.to(getattr(T, d)), D(floats, "float64", False))
        case(f"to/dtype/float32-to-{dtype}", lambda T, x, d=dtype: x.to(getattr(T, d)), D(floats, "float32", False))
    case("to/dtype/float64-to-uint8", lambda T, x: x.to(T.uint8), D([0.0, 1.5, 2.7, 254.9, 255.0], "float64", False))
    wide = [300, -129, 65536 + 5, 2**31 + 7, -(2**31) - 9, 255, 256, -1]
    for dtype in ["uint8", "int8", "int16", "int32"]:
        case(f"to/dtype/int64-to-{dtype}-wraps", lambda T, x, d=dtype: x.to(getattr(T, d)), D(wide, "int64"))
    case("to/dtype/int8-to-uint8", lambda T, x: x.to(T.uint8), D([-1, -128, 127, 0], "int8"))
    case("to/dtype/uint8-to-int8", lambda T, x: x.to(T.int8), D([255, 128, 127, 0], "uint8"))
    case("to/dtype/to-bool", lambda T, x: x.to(T.bool), D([0.0, -0.0, 0.5, NAN, INF], "float64", False))
    case("to/dtype/int8-to-bool", lambda T, x: x.to(T.bool), D([0, -1, 2], "int8"))
    case("to/dtype/bool-to-int8", lambda T, x: x.to(T.int8), D([True, False], "bool"))
    halfs = [0.1, 1 / 3, 65504.0, 65519.0, 65520.0, 1e-8, 6e-8, 3e-5, -0.0, INF, -INF, NAN, 2049.0, 2051.0, 2050.0]
    halfs += [1e5, -1e5, 1.0009765625, 1.00048828125, 1.00146484375]
    case("to/dtype/float64-to-float16", lambda T, x: x.half().double(), D(halfs, "float64", False))
    case("to/dtype/float32-to-float16", lambda T, x: x.half().double(), D(halfs, "float32", False))
    bf = [0.1, 1 / 3, 3e38, 3.4e38, 1e-40, -0.0, INF, NAN, 1.00390625, 1.005859375, 1.0078125, 257.0, 259.0]
    case("to/dtype/float64-to-bfloat16", lambda T, x: x.bfloat16().double(), D(bf, "float64", False))
    case("to/dtype/float32-to-bfloat16", lambda T, x: x.bfloat16().double(), D(bf, "float32", False))
    case(
        "to/dtype/float16-to-bfloat16",
        lambda T, x: x.bfloat16().double(),
        D([0.1, 3.0, 65504.0, 6e-8], "float16", False),
    )
    case(
        "to/dtype/float16-to-int",
        lambda T, x: (x.int(), x.short(), x.char(), x.long()),
        D([1.5, -2.5, 100.7, -0.9], "float16", False),
    )
    case(
        "to/dtype/methods",
        lambda T, x: (x.int(), x.short(), x.char(), x.byte(), x.long(), x.half(), x.bfloat16()),
        D([1.0, 2.0, 3.5], "float64", False),
    )
    case("to/dtype/differentiable-float16", lambda T, x: x.half() * 2, D([1.5, -0.25, 3.0], "float64"))
    case("to/dtype/differentiable-from-float16", lambda T, x: x.double() * x.float(), D([1.5, -0.25, 3.0], "float16"))
    case("to/dtype/int-no-grad", lambda T, x: x.int(), D([1.5, -2.5], "float64"))


def _register_arithmetic() -> None:
    i8a, i8b = D([100, 127, -128, -100, 50], "int8"), D([100, 1, -1, -100, 3], "int8")
    case("add.Tensor/dtype/int8-wraps", lambda T, a, b: a + b, i8a, i8b)
    case("sub.Tensor/dtype/int8-wraps", lambda T, a, b: a - b, i8a, i8b)
    case("mul.Tensor/dtype/int8-wraps", lambda T, a, b: a * b, i8a, i8b)
    case("mul.Tensor/dtype/int8-scalar-wraps", lambda T, a: a * 3, i8a)
    case("add.Tensor/dtype/int8-alpha", lambda T, a, b: T.add(a, b, alpha=3), i8a, i8b)
    case("sub.Tensor/dtype/uint8-wraps", lambda T, a, b: a - b, D([200, 0, 5], "uint8"), D([201, 1, 5], "uint8"))
    case("add.Tensor/dtype/uint8-wraps", lambda T, a, b: a + b, D([200, 255, 5], "uint8"), D([100, 1, 5], "uint8"))
    case(
        "mul.Tensor/dtype/int16-wraps",
        lambda T, a, b: a * b,
        D([300, -32768, 181], "int16"),
        D([300, -1, 181], "int16"),
    )
    case(
        "mul.Tensor/dtype/int32-wraps",
        lambda T, a, b: a * b,
        D([65536, -(2**31), 46341], "int32"),
        D([65536, -1, 46341], "int32"),
    )
    case("neg/dtype/int8", lambda T, a: -a, D([-128, 127, 0, -5], "int8"))
    case("neg/dtype/uint8", lambda T, a: T.neg(a), D([0, 1, 255], "uint8"))
    case("abs/dtype/int8", lambda T, a: T.abs(a), D([-128, 127, -5], "int8"))
    case("sign/dtype/int16", lambda T, a: T.sign(a), D([-7, 0, 9], "int16"))
    case("relu/dtype/int32", lambda T, a: T.relu(a), D([-7, 0, 9], "int32"))
    case("pow.Tensor_Scalar/dtype/int8", lambda T, a: a**3, D([2, 5, -6, 7], "int8"))
    case("pow.Tensor_Scalar/dtype/uint8-negative-exponent", lambda T, a: a ** (-1), D([2, 5], "uint8"))
    case("pow.Tensor_Tensor/dtype/int16", lambda T, a, b: T.pow(a, b), D([3, -2, 10], "int16"), D([3, 5, 5], "int16"))
    case("clamp/dtype/int8", lambda T, a: T.clamp(a, -5, 100), D([-128, 0, 127], "int8"))
    case("clamp/dtype/int8-float-bound", lambda T, a: T.clamp(a, min=0.5), D([-128, 0, 127], "int8"))
    # Integer division: floor and truncation toward zero, the remainder's sign, by zero.
    n, d = D([7, -7, 7, -7, -128, 0], "int8"), D([2, 2, -2, -2, -1, 3], "int8")
    case("floor_divide/dtype/int8", lambda T, a, b: T.floor_divide(a, b), n, d)
    case("div.Tensor_mode/dtype/int8-trunc", lambda T, a, b: T.div(a, b, rounding_mode="trunc"), n, d)
    case("div.Tensor_mode/dtype/int8-floor", lambda T, a, b: T.div(a, b, rounding_mode="floor"), n, d)
    case("remainder.Tensor/dtype/int8", lambda T, a, b: T.remainder(a, b), n, d)
    case("fmod.Tensor/dtype/int8", lambda T, a, b: T.fmod(a, b), n, d)
    case("div.Tensor/dtype/int8-true", lambda T, a, b: T.div(a, b), n, d)
    case("true_divide.Tensor/dtype/int16", lambda T, a, b: T.true_divide(a, b), D([7, -7], "int16"), D([2, 4], "int16"))
    case(
        "true_divide.Tensor/dtype/float16-grad",
        lambda T, a, b: a.true_divide(b),
        D([7.0, -7.0], "float16"),
        D([2.0, 0.3], "float16"),
    )
    case(
        "true_divide.Tensor/float64-grad",
        lambda T, a, b: T.true_divide(a, b),
        D([[7.0, -7.0]]),
        D([2.0, 0.3]),
        second=True,
    )
    case("true_divide.Scalar/dtype/uint8", lambda T, a: T.true_divide(a, 3), D([200, 7], "uint8"))
    case("true_divide.Scalar/float64-grad", lambda T, a: a.true_divide(2.5), D([7.0, -7.0]))
    case("div.Tensor/dtype/uint8-by-int8", lambda T, a, b: a / b, D([200, 3], "uint8"), D([-3, 2], "int8"))
    case(
        "floor_divide/dtype/int32-by-zero", lambda T, a, b: T.floor_divide(a, b), D([1, 2], "int32"), D([1, 0], "int32")
    )
    case(
        "remainder.Tensor/dtype/uint8-by-zero",
        lambda T, a, b: T.remainder(a, b),
        D([1, 2], "uint8"),
        D([1, 0], "uint8"),
    )
    case("floor_divide/dtype/uint8-scalar", lambda T, a: T.floor_divide(a, 7), D([200, 13, 0], "uint8"))
    case(
        "bitwise_and.Tensor/dtype/int8",
        lambda T, a, b: T.bitwise_and(a, b),
        D([-1, 12, 7], "int8"),
        D([5, 10, -8], "int8"),
    )
    case(
        "bitwise_or.Tensor/dtype/uint8-int8",
        lambda T, a, b: T.bitwise_or(a, b),
        D([200, 12], "uint8"),
        D([-1, 3], "int8"),
    )
    case("bitwise_not/dtype/uint8", lambda T, a: T.bitwise_not(a), D([0, 200, 255], "uint8"))
    case("bitwise_not/dtype/int16", lambda T, a: T.bitwise_not(a), D([0, -1, 300], "int16"))
    # In place: the result type must fit self's dtype (PyTorch's can't-cast error otherwise).
    case("add_.Tensor/dtype/int8-int64", lambda T, a, b: a.clone().add_(b), D([100, 1], "int8"), D([100, 300], "int64"))
    case("mul_.Tensor/dtype/int8-float-error", lambda T, a: a.clone().mul_(1.5), D([1, 2], "int8"))
    case(
        "add_.Tensor/dtype/float16-float64",
        lambda T, a, b: a.clone().add_(b),
        D([1.0, 2.5], "float16", False),
        D([0.1, 0.2], "float64", False),
    )
    case(
        "add.out/dtype/int8-into-int16",
        lambda T, a, b: T.add(a, b, out=T.zeros([2], dtype=T.int16)),
        D([100, 1], "int8"),
        D([100, 2], "int8"),
    )
    # Comparisons in the promoted dtype.
    case("lt.Tensor/dtype/uint8-int8", lambda T, a, b: a < b, D([200, 3, 0], "uint8"), D([-56, 4, 0], "int8"))
    case("eq.Scalar/dtype/int8-int", lambda T, a: a == 100, D([100, -100], "int8"))
    case("ge.Scalar/dtype/float16-float", lambda T, a: a >= 0.1, D([0.1, 0.0999, 0.2], "float16", False))
    case("maximum/dtype/int8-uint8", lambda T, a, b: T.maximum(a, b), D([-1, 5], "int8"), D([200, 1], "uint8"))
    case(
        "where.self/dtype/int8-int16",
        lambda T, c, a, b: T.where(c, a, b),
        D([True, False], "bool"),
        D([1, 2], "int8"),
        D([300, 400], "int16"),
    )


def _register_reductions() -> None:
    i8 = D([[100, 100, 100], [-128, -128, 5]], "int8")
    case("sum/dtype/int8-is-int64", lambda T, x: T.sum(x), i8)
    case("sum.dim_IntList/dtype/int8", lambda T, x: T.sum(x, 1), i8)
    case("sum.dim_IntList/dtype/int8-dtype-int8-wraps", lambda T, x: T.sum(x, 1, dtype=T.int8), i8)
    case("sum/dtype/uint8", lambda T, x: x.sum(), D([200, 200, 255], "uint8"))
    case("sum/dtype/bool", lambda T, x: x.sum(), D([True, True, False], "bool"))
    case("prod/dtype/int16-is-int64", lambda T, x: T.prod(x), D([300, 300, -2], "int16"))
    case("prod.dim_int/dtype/int8-dtype-int8", lambda T, x: T.prod(x, 0, dtype=T.int8), D([16, 16, 3], "int8"))
    case("cumsum/dtype/int8-is-int64", lambda T, x: T.cumsum(x, 0), D([100, 100, 100], "int8"))
    case("cumsum/dtype/int8-dtype-int8-wraps", lambda T, x: T.cumsum(x, 0, dtype=T.int8), D([100, 100, 100], "int8"))
    case("cumprod/dtype/int32", lambda T, x: T.cumprod(x, 0), D([65536, 65536, 3], "int32"))
    case("mean/dtype/int32-error", lambda T, x: T.mean(x), D([1, 2], "int32"))
    case("mean/dtype/int32-dtype-float", lambda T, x: T.mean(x, dtype=T.float32), D([1, 2], "int32"))
    case("max/dtype/int8", lambda T, x: (T.max(x), T.min(x), T.argmax(x), T.argmin(x)), D([3, -128, 127, 0], "int8"))
    case("max.dim/dtype/uint8", lambda T, x: T.max(x, 1), D([[3, 200], [255, 0]], "uint8"))
    case("amax/dtype/int16", lambda T, x: T.amax(x, [0]), D([[3, -200], [255, 0]], "int16"))
    case("sum/dtype/float16", lambda T, x: x.sum(), D([0.1, 0.2, 1000.0, 3.0], "float16"))
    case("sum.dim_IntList/dtype/float16", lambda T, x: x.sum(1), D([[0.1, 0.2], [1000.0, 3.0]], "float16"))
    case("mean/dtype/float16", lambda T, x: x.mean(), D([0.1, 0.2, 1000.0, 3.0], "float16"))
    case("prod/dtype/float16", lambda T, x: x.prod(), D([0.1, 0.2, 30.0, 3.0], "float16"))
    case("cumsum/dtype/float16", lambda T, x: x.cumsum(0), D([0.1, 0.2, 30.0, 3.0], "float16"))
    case("sum/dtype/bfloat16", lambda T, x: x.sum(), D([0.1, 0.2, 1000.0, 3.0], "bfloat16"))
    case("max/dtype/float16-nan", lambda T, x: (x.max(), x.min()), D([0.1, NAN, 3.0], "float16"))
    case("sum/dtype/float16-overflow", lambda T, x: x.sum(), D([60000.0, 60000.0], "float16"))


def _register_shape_and_index() -> None:
    i8 = D([[1, -2, 3], [4, 5, -6]], "int8")
    u8 = D([[1, 2, 3], [4, 5, 255]], "uint8")
    for name, x in [("int8", i8), ("uint8", u8), ("int16", D([[1, -2, 3], [4, 5, 300]], "int16"))]:
        case(f"t/dtype/{name}-contiguous", lambda T, a: a.t().contiguous(), x)
        case(f"cat/dtype/{name}", lambda T, a: T.cat([a, a], 0), x)
        case(f"stack/dtype/{name}", lambda T, a: T.stack([a, a], 1), x)
        case(f"index_select/dtype/{name}", lambda T, a, i: T.index_select(a, 1, i), x, D([2, 0], "int64"))
        case(f"flip/dtype/{name}", lambda T, a: T.flip(a, [0, 1]), x)
        case(f"masked_fill.Scalar/dtype/{name}", lambda T, a, m: a.masked_fill(m, 7), x, D([True, False, True], "bool"))
        case(f"sort/dtype/{name}", lambda T, a: T.sort(a, 1), x)
        case(f"gather/dtype/{name}", lambda T, a, i: T.gather(a, 1, i), x, D([[2, 0], [1, 1]], "int64"))
        case(f"reshape/dtype/{name}", lambda T, a: a.reshape([3, 2]) * 1, x)
    case("index/dtype/int8-mask", lambda T, a: a[a > 0], i8)
    case("index/dtype/int32-indices", lambda T, a, i: a[i], D([10.0, 20.0, 30.0], "float64"), D([2, 0], "int32"))
    case("cat/dtype/int8-int16-promote", lambda T, a, b: T.cat([a, b]), D([1, 2], "int8"), D([300], "int16"))
    case("cat/dtype/float16", lambda T, a, b: T.cat([a, b]), D([1.5, 2.0], "float16"), D([0.25], "float16"))
    case(
        "zeros/dtype/factories",
        lambda T: (
            T.zeros([2], dtype=T.int8),
            T.ones([2], dtype=T.uint8),
            T.full([2], 7, dtype=T.int16),
            T.arange(3, dtype=T.int32),
            T.full([2], 0.1, dtype=T.float16),
        ),
    )
    # The constructor's checked conversion of Python numbers.
    for i, (v, d) in enumerate([(300, "int8"), (-1, "uint8"), (-256, "uint8"), (127.9, "int8"), (NAN, "int16"),
                                (1e30, "int64"), (-0.5, "uint8"), (1e10, "float16"), (2**31, "int32")]):  # fmt: skip
        case(f"tensor/dtype/checked-{d}-{i}", lambda T, v=v, d=d: T.tensor([v], dtype=getattr(T, d)))
    case("requires_grad_/dtype/int32-error", lambda T, x: x.requires_grad_(), D([1, 2], "int32"))
    case("requires_grad_/dtype/float16", lambda T, x: x.detach().requires_grad_() * 2, D([1.0, 2.0], "float16"))


def _register_float16_grads() -> None:
    # Element-wise ops in float16 (computed in float32, rounded once), with gradients in float16.
    h = D([0.5, -1.25, 2.0, 0.1], "float16")
    hp = D([0.5, 1.25, 2.0, 0.1], "float16")
    unary = {
        "neg": lambda T, x: -x,
        "exp": lambda T, x: T.exp(x),
        "tanh": lambda T, x: T.tanh(x),
        "sigmoid": lambda T, x: T.sigmoid(x),
        "relu": lambda T, x: T.relu(x),
        "sin": lambda T, x: T.sin(x),
        "abs": lambda T, x: T.abs(x),
        "square": lambda T, x: T.square(x),
    }
    for name, f in unary.items():
        case(f"{name}/dtype/float16", f, h)
    case("log/dtype/float16", lambda T, x: T.log(x), hp)
    case("sqrt/dtype/float16", lambda T, x: T.sqrt(x), hp)
    case("reciprocal/dtype/float16", lambda T, x: T.reciprocal(x), hp)
    case("pow.Tensor_Scalar/dtype/float16", lambda T, x: x**2.5, hp)
    a, b = D([0.5, -1.25, 2.0], "float16"), D([3.0, 0.1, -0.75], "float16")
    case("mul.Tensor/dtype/float16-grad", lambda T, x, y: x * y, a, b)
    case("div.Tensor/dtype/float16-grad", lambda T, x, y: x / y, a, b)
    case("sub.Tensor/dtype/float16-grad", lambda T, x, y: T.sub(x, y, alpha=2), a, b)
    case("add.Tensor/dtype/float16-scalar", lambda T, x: x + 0.1, a)
    case("mul.Tensor/dtype/float16-scalar", lambda T, x: x * 0.1, a)
    case("div.Tensor/dtype/float16-scalar", lambda T, x: x / 3, a)
    case(
        "mul.Tensor/dtype/float16-broadcast",
        lambda T, x, y: x * y,
        D([[0.5], [2.0]], "float16"),
        D([3.0, 0.1, -0.75], "float16"),
    )
    case("sum/dtype/float16-grad", lambda T, x: (x * x).sum(), a)
    case("mean/dtype/float16-grad", lambda T, x: T.mean(x * 3), a)
    case("where.self/dtype/float16-grad", lambda T, c, x, y: T.where(c, x, y), D([True, False, True], "bool"), a, b)
    case("clamp/dtype/float16-grad", lambda T, x: T.clamp(x, -1.0, 1.0), a)
    case("mul.Tensor/dtype/float16-float32-grad", lambda T, x, y: x * y, a, D([3.0, 0.1, -0.75], "float32"))
    case("exp/dtype/bfloat16", lambda T, x: T.exp(x), D([0.5, -1.25, 2.0, 0.1], "bfloat16"))
    case(
        "mul.Tensor/dtype/bfloat16",
        lambda T, x, y: x * y + 0.1,
        D([0.5, -1.25, 2.0], "bfloat16"),
        D([3.0, 0.1, -0.75], "bfloat16"),
    )


def _register_operators() -> None:
    # Python's //, %, &, |, ^, ~ (and their reflected and in-place forms) on the new dtypes.
    a, b = D([7, -7, 100, -128], "int8"), D([2, -3, 7, -1], "int8")
    case("floor_divide/dtype/operator-int8", lambda T, x, y: (x // y, x // 3, 7 // y, x // 2.5), a, b)
    case("remainder.Tensor/dtype/operator-int8", lambda T, x, y: (x % y, x % 3, 7 % y, x % 2.5), a, b)
    case("bitwise_and.Tensor/dtype/operator-int8", lambda T, x, y: (x & y, x & 3, 3 & x), a, b)
    case(
        "bitwise_or.Tensor/dtype/operator-uint8",
        lambda T, x, y: (x | y, x | 1, 1 | x),
        D([200, 3], "uint8"),
        D([7, 8], "uint8"),
    )
    case(
        "bitwise_xor.Tensor/dtype/operator-int16",
        lambda T, x, y: (x ^ y, x ^ 5, 5 ^ x),
        D([300, -3], "int16"),
        D([7, 8], "int16"),
    )
    case("bitwise_not/dtype/operator-int8-bool", lambda T, x, m: (~x, ~m), a, D([True, False], "bool"))
    case("bitwise_and.Tensor/dtype/operator-float-error", lambda T, x: x & 1, D([1.0], "float32", False))
    case("floor_divide/dtype/operator-float16", lambda T, x: (x // 0.3, x % 0.3), D([1.0, -2.5, 7.0], "float16", False))

    def inplace(T, x, y):
        z = x.clone()
        z //= y
        w = x.clone()
        w %= 3
        return z, w

    case("floor_divide_/dtype/operator-int32", inplace, D([7, -7, 9], "int32"), D([2, 2, -4], "int32"))


def _register_numbers_as_tensors() -> None:
    # A Python number is a wrapped number (PyTorch's Python API): x * 2, x.mul(2) and add(2, x) are
    # the Tensor overloads (their nodes' names compared), float16 * 0.1 reads 0.1 at float
    # precision and stays float16, also for a 0-dim float16 tensor.
    def names(T, x):
        y = x * 1.0
        return T.tensor(
            [
                (x * 2).grad_fn.name() == "MulBackward0",
                (2 * x).grad_fn.name() == "MulBackward0",
                (x / 2).grad_fn.name() == "DivBackward0",
                (2 / x).grad_fn.name() == "MulBackward0",
                x.mul(2).grad_fn.name() == "MulBackward0",
                x.div(2, rounding_mode="floor").grad_fn.name() == "DivBackward2",
                T.add(2, x).grad_fn.name() == "AddBackward0",
                T.multiply(x, 3).grad_fn.name() == "MulBackward0",
                T.subtract(x, 3).grad_fn.name() == "SubBackward0",
                T.divide(x, 3).grad_fn.name() == "DivBackward0",
                y.mul_(3).grad_fn.name() == "MulBackward0",
            ]
        )

    case("mul.Tensor/number/node-names", names, D([1.0, 2.0]))
    h = D([1.1, 2.3, -0.7], "float16", False)
    case("mul.Tensor/number/float16", lambda T, x: (x * 0.1, 0.1 * x, x / 3, 3 / x, x.mul(0.1), x.div(0.3)), h)
    case("mul.Tensor/number/float16-0dim", lambda T, x: (x[0] * 0.1, x[1] / 3, T.add(x[2], 2.5)), h)
    case("mul_.Tensor/number/float16", lambda T, x: (x.clone().mul_(0.1), x.clone().div_(3)), h)
    case("mul.Tensor/number/int8-wraps", lambda T, x: (x * 300, x.mul(2.5), T.add(2, 3)), D([1, 2, -3], "int8"))
    # divide, multiply, subtract: PyTorch's aliases of div, mul, sub.
    a, b = D([[1.5, -2.0, 3.0]]), D([0.5, 4.0, -2.5])
    case("multiply.Tensor/grad", lambda T, x, y: T.multiply(x, y), a, b, second=True)
    case("multiply.Scalar/grad", lambda T, x: x.multiply(2.5), a, second=True)
    case("divide.Tensor/grad", lambda T, x, y: T.divide(x, y), a, b, second=True)
    case("divide.Scalar/grad", lambda T, x: x.divide(2.5), a)
    case("divide.Tensor_mode/floor", lambda T, x, y: T.divide(x, y, rounding_mode="floor"), a, b)
    case("divide.Scalar_mode/trunc", lambda T, x: x.divide(2.5, rounding_mode="trunc"), a)
    case("subtract.Tensor/grad", lambda T, x, y: T.subtract(x, y, alpha=2), a, b, second=True)
    case("subtract.Scalar/grad", lambda T, x: x.subtract(2.5), a)
    x0, y0 = D([[1.5, -2.0, 3.0]], grad=False), D([0.5, 4.0, -2.5], grad=False)

    def in_place(method, *args, **kwargs):
        def run(T, x, y):
            z = x.clone()
            getattr(z, method)(*[y if a == "y" else a for a in args], **kwargs)
            return z

        return run

    def out(fn, **kwargs):
        def run(T, x, y):
            o = T.empty(0, dtype=T.float64)
            getattr(T, fn)(x, y, out=o, **kwargs)
            return o

        return run

    case("multiply_.Tensor/in-place", in_place("multiply_", "y"), x0, y0)
    case("multiply_.Scalar/in-place", in_place("multiply_", 2.5), x0, y0)
    case("divide_.Tensor/in-place", in_place("divide_", "y"), x0, y0)
    case("divide_.Scalar/in-place", in_place("divide_", 2.5), x0, y0)
    case("divide_.Tensor_mode/in-place", in_place("divide_", "y", rounding_mode="trunc"), x0, y0)
    case("divide_.Scalar_mode/in-place", in_place("divide_", 2.5, rounding_mode="floor"), x0, y0)
    case("subtract_.Tensor/in-place", in_place("subtract_", "y", alpha=3), x0, y0)
    case("subtract_.Scalar/in-place", in_place("subtract_", 2.5), x0, y0)
    case("multiply.out/out", out("multiply"), x0, y0)
    case("divide.out/out", out("divide"), x0, y0)
    case("divide.out_mode/out", out("divide", rounding_mode="floor"), x0, y0)
    case("subtract.out/out", out("subtract", alpha=2), x0, y0)


def _register() -> None:
    _register_promotion()
    _register_casts()
    _register_arithmetic()
    _register_reductions()
    _register_shape_and_index()
    _register_float16_grads()
    _register_operators()
    _register_numbers_as_tensors()


_register()
