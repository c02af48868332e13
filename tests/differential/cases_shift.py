"""Differential cases of the shifts (issue 23): bitwise_left_shift and bitwise_right_shift.

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch: every integer dtype shifted by amounts inside and outside its bit width (negative, the
width, beyond; PyTorch's CPU kernels give 0 for a left shift and the sign for a right shift
there), the Tensor, Tensor_Scalar and Scalar_Tensor overloads, promotion as the other bitwise
ops (the amount is read in the result dtype: int8 << 300 shifts by 44), in-place and out=
variants, Python's << >> <<= >>= (and 2 << x), and the refusals of floating and Bool operands.
"""

from __future__ import annotations

from cases import B, D, L, case  # cases.py imports this module once they are defined

INTS = {"uint8": 8, "int8": 8, "int16": 16, "int32": 32, "int64": 64}
OPS = ("bitwise_left_shift", "bitwise_right_shift")


def _values(dtype: str):
    if dtype == "uint8":
        return [1, 253, 5, 100, 7, 0, 128, 255]
    return [1, -3, 5, 100, 7, 0, -128, 127]


def _amounts(dtype: str, bits: int):
    # In range, at the edges and out of range; uint8 cannot hold a negative amount.
    out = [0, 1, bits - 1, bits, bits + 1, 70 if bits < 70 else 100, 3, 2]
    if dtype != "uint8":
        out[-1] = -1
    return out


def _register_dtypes() -> None:
    for dtype, bits in INTS.items():
        x, s = D(_values(dtype), dtype), D(_amounts(dtype, bits), dtype)
        for op in OPS:
            case(f"{op}.Tensor/{dtype}", lambda T, a, b, op=op: getattr(T, op)(a, b), x, s)
            for k in (1, bits - 1, bits, bits + 3):
                case(f"{op}.Tensor_Scalar/{dtype}-by-{k}", lambda T, a, op=op, k=k: getattr(T, op)(a, k), x)
        if dtype != "uint8":
            case(f"bitwise_left_shift.Tensor_Scalar/{dtype}-by-minus-1", lambda T, a: T.bitwise_left_shift(a, -1), x)
            case(f"bitwise_right_shift.Tensor_Scalar/{dtype}-by-minus-2", lambda T, a: a.bitwise_right_shift(-2), x)


def _register_overloads() -> None:
    x = L([[1, -2, 3], [-40, 50, 7]])
    case("bitwise_left_shift.Tensor/broadcast", lambda T, a, b: a.bitwise_left_shift(b), x, L([1, 0, 62]))
    case("bitwise_right_shift.Tensor/broadcast", lambda T, a, b: T.bitwise_right_shift(a, b), x, L([[1], [3]]))
    case("bitwise_left_shift.Tensor/empty", lambda T, a, b: T.bitwise_left_shift(a, b), L([]), L([]))
    case("bitwise_right_shift.Tensor/0-dim", lambda T, a, b: T.bitwise_right_shift(a, b), L(-9), L(2))
    case("bitwise_left_shift.Tensor_Scalar/method", lambda T, a: a.bitwise_left_shift(4), x)
    case("bitwise_right_shift.Tensor_Scalar/method", lambda T, a: a.bitwise_right_shift(1), x)
    case("bitwise_left_shift.Tensor_Scalar/int8-by-300", lambda T, a: T.bitwise_left_shift(a, 300), D([1, 2], "int8"))
    case("bitwise_right_shift.Tensor_Scalar/bool-by-int", lambda T, a: T.bitwise_right_shift(a, 1), B([True, False]))
    case("bitwise_left_shift.Tensor_Scalar/bool-by-bool", lambda T, a: T.bitwise_left_shift(a, True), L([1, 2]))
    amounts = L([0, 1, 5, 63, 64, -1])
    case("bitwise_left_shift.Scalar_Tensor/int", lambda T, b: T.bitwise_left_shift(3, b), amounts)
    case("bitwise_right_shift.Scalar_Tensor/int", lambda T, b: T.bitwise_right_shift(-64, b), amounts)
    i8 = D([1, 2, 7, 8, -1], "int8")
    case("bitwise_left_shift.Scalar_Tensor/int8", lambda T, b: T.bitwise_left_shift(2, b), i8)
    case("bitwise_right_shift.Scalar_Tensor/int8", lambda T, b: T.bitwise_right_shift(300, b), i8)


def _register_promotion() -> None:
    i8, i16, u8 = D([1, -2, 3], "int8"), D([3, 9, 15], "int16"), D([200, 1, 7], "uint8")
    case("bitwise_left_shift.Tensor/int8-int16", lambda T, a, b: T.bitwise_left_shift(a, b), i8, i16)
    left, right = (lambda T, a, b: T.bitwise_left_shift(a, b)), (lambda T, a, b: T.bitwise_right_shift(a, b))
    case("bitwise_left_shift.Tensor/uint8-int8", left, u8, D([1, 2, 8], "int8"))
    case("bitwise_right_shift.Tensor/int8-0-dim-int64", right, i8, L(1))
    case("bitwise_left_shift.Tensor/0-dim-int8-int32", left, D(5, "int8"), D([1, 30], "int32"))
    case("bitwise_right_shift.Tensor/bool-int8", right, B([True, True]), D([0, 1], "int8"))


def _register_inplace_out() -> None:
    x = D([1, -2, 3, 100], "int8")

    def inplace(T, a, b):
        y = a.clone()
        r = y.bitwise_left_shift_(b)
        return y, r

    case("bitwise_left_shift_.Tensor/int8", inplace, x, D([1, 2, 8, 1], "int8"))
    left_, right_ = (
        (lambda T, a, b: a.clone().bitwise_left_shift_(b)),
        (lambda T, a, b: a.clone().bitwise_right_shift_(b)),
    )
    case("bitwise_right_shift_.Tensor/int8-by-int16", right_, x, D([1], "int16"))
    case("bitwise_left_shift_.Tensor/broadcast-error", left_, L([1]), L([1, 2]))
    case("bitwise_left_shift_.Tensor_Scalar/int8", lambda T, a: a.clone().bitwise_left_shift_(2), x)
    case("bitwise_right_shift_.Tensor_Scalar/int8", lambda T, a: a.clone().bitwise_right_shift_(9), x)
    case("bitwise_left_shift_.Tensor_Scalar/float-error", lambda T, a: a.clone().bitwise_left_shift_(1.5), x)
    case("bitwise_right_shift_.Tensor_Scalar/bool-error", lambda T, a: a.clone().bitwise_right_shift_(1), B([True]))
    for op in OPS:
        case(
            f"{op}.Tensor_out/into-int16",
            lambda T, a, b, op=op: getattr(T, op)(a, b, out=T.zeros([0], dtype=T.int16)),
            x,
            D([1, 2, 8, 1], "int8"),
        )
        case(
            f"{op}.Tensor_Scalar_out/into-int64",
            lambda T, a, op=op: getattr(T, op)(a, 3, out=T.zeros([4], dtype=T.int64)),
            x,
        )
        case(
            f"{op}.Tensor_out/into-float32",
            lambda T, a, op=op: getattr(T, op)(a, a, out=T.zeros([4], dtype=T.float32)),
            x,
        )


def _ilshift(T, a, b):
    y = a.clone()
    z = y
    y <<= b
    return y, z is y


def _irshift(T, a, b):
    y = a.clone()
    y >>= b
    return y


def _register_operators() -> None:
    x, s = L([1, -5, 12, 7]), L([1, 2, 63, 64])
    case("bitwise_left_shift.Tensor/operator", lambda T, a, b: (a << b, a << 2, 2 << b, a << True), x, s)
    case("bitwise_right_shift.Tensor/operator", lambda T, a, b: (a >> b, a >> 1, -256 >> b), x, s)
    case("bitwise_left_shift_.Tensor/operator", lambda T, a, b: _ilshift(T, a, b)[0], x, s)
    case("bitwise_left_shift_.Tensor/operator-same-object", lambda T, a: T.tensor(_ilshift(T, a, 1)[1]), x)
    case("bitwise_right_shift_.Tensor/operator", _irshift, x, s)
    case("bitwise_right_shift_.Tensor_Scalar/operator-int8", lambda T, a: _irshift(T, a, 1), D([-7, 8], "int8"))
    case("bitwise_left_shift_.Tensor_Scalar/operator-int8-300", lambda T, a: _ilshift(T, a, 300)[0], D([1, 2], "int8"))
    i8 = D([1, 2], "int8")
    case("bitwise_left_shift_.Tensor_Scalar/operator-float-error", lambda T, a: _ilshift(T, a, 1.5)[0], i8)
    case("bitwise_left_shift.Tensor/operator-float-error", lambda T, a: a << 1, D([1.0], "float32", False))
    case("bitwise_right_shift.Tensor/operator-float-scalar-error", lambda T, a: a >> 1.5, L([4]))
    case("bitwise_left_shift.Scalar_Tensor/operator-float-error", lambda T, a: 2.0 << a, L([1]))


def _register_errors() -> None:
    f = D([1.0, 2.0], "float32", False)
    for op in OPS:
        case(f"{op}.Tensor/float-error", lambda T, a, b, op=op: getattr(T, op)(a, b), f, L([1, 1]))
        case(f"{op}.Tensor/float-other-error", lambda T, a, b, op=op: getattr(T, op)(b, a), f, L([1, 1]))
        case(f"{op}.Tensor/bool-error", lambda T, a, op=op: getattr(T, op)(a, a), B([True, False]))
        case(f"{op}.Tensor/float16-error", lambda T, a, op=op: getattr(T, op)(a, 1), D([1.0], "float16", False))
        case(f"{op}.Tensor/bfloat16-error", lambda T, a, op=op: getattr(T, op)(a, 1), D([1.0], "bfloat16", False))
        case(f"{op}.Tensor_Scalar/float-error", lambda T, a, op=op: getattr(T, op)(a, 1.5), L([1]))
        case(f"{op}.Scalar_Tensor/float-error", lambda T, a, op=op: getattr(T, op)(2.5, a), L([1]))
        case(f"{op}.Tensor/float64-requires-grad-error", lambda T, a, op=op: getattr(T, op)(a, 1), D([1.0]))


_register_dtypes()
_register_overloads()
_register_promotion()
_register_inplace_out()
_register_operators()
_register_errors()


def _register_scalar_tensor_out() -> None:
    # PyTorch's Python binds no autogen variant, so torch.bitwise_left_shift(2, x, out=o) is its
    # TypeError; gradgen binds the declaration (known_differences.txt).
    for op in OPS:
        case(
            f"{op}.Scalar_Tensor_out/python",
            lambda T, b, op=op: getattr(T, op)(2, b, out=T.zeros([0], dtype=T.int64)),
            L([1, 2, 64]),
        )


_register_scalar_tensor_out()
