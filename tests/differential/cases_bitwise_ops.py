"""Differential cases of the bitwise and logical ops' other variants (issue 23).

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch: the in-place methods bitwise_and_ / or_ / xor_ (Tensor and Scalar overloads) and
bitwise_not_, the out= variants (Tensor_out, Scalar_out, bitwise_not.out, whose out must have
self's dtype), the Scalar_Tensor overloads (`bitwise_and(6, x)`) and Python's reflected operators
with a number on the left (`6 & x`), the logical ops in place (self keeps its dtype, any dtype),
and the refusals in PyTorch's order: the broadcast shape, then the result type self (out) cannot
hold, then floating operands. Also aminmax's out= result type (torch.return_types.aminmax_out)
and as_tensor of a NumPy array (shared memory).
"""

from __future__ import annotations

from cases import B, D, L, case  # cases.py imports this module once they are defined

OPS = ("bitwise_and", "bitwise_or", "bitwise_xor")


def _inplace(op: str, other=None):
    """x.clone().<op>(other) (the second input unless `other` is given): (self's values after
    the call, 1 if the call returned self else 0)."""

    def run(T, x, *rest):
        y = x.clone()
        r = getattr(y, op)(rest[0] if other is None else other)
        return [y, T.tensor(1 if r is y else 0)]

    return run


def _out(op: str, dtype: str, size: int = 0, other=None):
    """T.<op>(x, other, out=zeros(size, dtype)) (other: the second input unless given): (out's
    values, 1 if the call returned out else 0)."""

    def run(T, x, *rest):
        o = T.zeros([size], dtype=getattr(T, dtype))
        r = getattr(T, op)(x, rest[0] if other is None else other, out=o)
        return [o, T.tensor(1 if r is o else 0)]

    return run


def _register_inplace() -> None:
    for op in OPS:
        m = op + "_"
        case(f"{m}.Tensor/int64", _inplace(m), L([12, -7, 0, 5]), L([10, 3, -1, 5]))
        case(f"{m}.Tensor/int8-int64", _inplace(m), D([6, -3, 127], "int8"), L([300, 5, -1]))
        case(f"{m}.Tensor/int8-0-dim-int64", _inplace(m), D([6, -3, 127], "int8"), L(1000))
        case(f"{m}.Tensor/uint8-broadcast", _inplace(m), D([[6, 3], [255, 0]], "uint8"), D([9, 1], "uint8"))
        case(f"{m}.Tensor/bool", _inplace(m), B([True, True, False, False]), B([True, False, True, False]))
        case(f"{m}.Scalar/int64", _inplace(m, 6), L([12, -7, 0, 5]))
        case(f"{m}.Scalar/int8-300", _inplace(m, 300), D([6, -3, 127], "int8"))
        case(f"{m}.Scalar/int16-bool", _inplace(m, True), D([6, 3], "int16"))
        case(f"{m}.Scalar/bool-bool", _inplace(m, False), B([True, False]))
        # Refusals: RuntimeError (shape, cast) before NotImplementedError (floating operands).
        case(f"{m}.Tensor/shape-error", _inplace(m), L([6, 3]), L([[1], [2]]))
        case(f"{m}.Tensor/shape-before-cast-error", _inplace(m), L([6]), D([[1.0], [2.0]], grad=False))
        case(f"{m}.Tensor/bool-int64-error", _inplace(m), B([True]), L([1]))
        case(f"{m}.Tensor/int64-float-error", _inplace(m), L([1, 2]), D([1.0], "float32", grad=False))
        case(f"{m}.Tensor/float-int64-error", _inplace(m), D([1.0], grad=False), L([1]))
        case(f"{m}.Scalar/int64-float-error", _inplace(m, 1.5), L([1, 2]))
        case(f"{m}.Scalar/bool-int-error", _inplace(m, 1), B([True]))
        case(f"{m}.Scalar/float-int-error", _inplace(m, 1), D([1.0], "float32", grad=False))
    case("bitwise_not_/int64", _inplace_unary("bitwise_not_"), L([0, -1, 5, -8]))
    case("bitwise_not_/int8", _inplace_unary("bitwise_not_"), D([0, -128, 127], "int8"))
    case("bitwise_not_/uint8", _inplace_unary("bitwise_not_"), D([0, 255, 6], "uint8"))
    case("bitwise_not_/bool", _inplace_unary("bitwise_not_"), B([True, False]))
    case("bitwise_not_/float-error", _inplace_unary("bitwise_not_"), D([1.0], grad=False))


def _inplace_unary(op: str):
    def run(T, x):
        y = x.clone()
        r = getattr(y, op)()
        return [y, T.tensor(1 if r is y else 0)]

    return run


def _register_out() -> None:
    for op in OPS:
        case(f"{op}.Tensor_out/int64", _out(op, "int64"), L([12, -7, 0, 5]), L([10, 3, -1, 5]))
        case(f"{op}.Tensor_out/int8-into-int16", _out(op, "int16"), D([6, -3, 127], "int8"), D([3, 5, -1], "int8"))
        case(f"{op}.Tensor_out/into-float32", _out(op, "float32", 2), L([6, 3]), L([5, 1]))
        case(f"{op}.Tensor_out/bool-into-int8", _out(op, "int8"), B([True, False]), B([True, True]))
        case(f"{op}.Tensor_out/broadcast", _out(op, "int64"), L([[1, 2], [3, 4]]), L([7]))
        case(f"{op}.Tensor_out/into-bool-error", _out(op, "bool"), L([6, 3]), L([5, 1]))
        case(f"{op}.Tensor_out/float-into-int64-error", _out(op, "int64"), D([1.0], grad=False), D([1.0], grad=False))
        case(f"{op}.Tensor_out/float-into-float-error", _out(op, "float64"), D([1.0], grad=False), D([1.0], grad=False))
        case(f"{op}.Scalar_out/int64", _out(op, "int64", other=5), L([12, -7, 0, 5]))
        case(f"{op}.Scalar_out/int8-into-int16", _out(op, "int16", other=300), D([6, -3, 127], "int8"))
        case(f"{op}.Scalar_out/into-float64", _out(op, "float64", 2, other=3), L([6, 3]))
        case(f"{op}.Scalar_out/into-bool-error", _out(op, "bool", other=1), L([6, 3]))
        case(f"{op}.Scalar_out/float-error", _out(op, "int64", other=1.5), L([6, 3]))
    for dtype in ("int8", "int16", "int64"):

        def not_out(T, x, dtype=dtype):
            o = T.zeros([0], dtype=getattr(T, dtype))
            r = T.bitwise_not(x, out=o)
            return [o, T.tensor(1 if r is o else 0)]

        case(f"bitwise_not.out/int8-into-{dtype}", not_out, D([6, -3, 127], "int8"))
    case(
        "bitwise_not.out/bool-into-bool",
        lambda T, x: T.bitwise_not(x, out=T.zeros([2], dtype=T.bool)),
        B([True, False]),
    )
    case(
        "bitwise_not.out/float-into-int64-error",
        lambda T, x: T.bitwise_not(x, out=T.zeros([0], dtype=T.int64)),
        D([1.5], grad=False),
    )
    case(
        "bitwise_not.out/float-error",
        lambda T, x: T.bitwise_not(x, out=T.zeros([0], dtype=T.float64)),
        D([1.5], grad=False),
    )


def _register_scalar_tensor() -> None:
    for op in OPS:
        case(f"{op}.Scalar_Tensor/int64", lambda T, b, op=op: getattr(T, op)(6, b), L([12, -7, 0, 5]))
        case(f"{op}.Scalar_Tensor/int8-300", lambda T, b, op=op: getattr(T, op)(300, b), D([6, -3, 127], "int8"))
        case(f"{op}.Scalar_Tensor/bool-bool", lambda T, b, op=op: getattr(T, op)(True, b), B([True, False]))
        case(f"{op}.Scalar_Tensor/int-bool", lambda T, b, op=op: getattr(T, op)(3, b), B([True, False]))
        case(f"{op}.Scalar_Tensor/float-error", lambda T, b, op=op: getattr(T, op)(1.5, b), L([1, 2]))
        case(f"{op}.Scalar_Tensor/float-tensor-error", lambda T, b, op=op: getattr(T, op)(1, b), D([1.0], grad=False))
        # PyTorch binds no Python out= for its derived Scalar_Tensor_out (a TypeError); gradgen
        # declares it (known_differences.txt), as the shifts'.
        case(
            f"{op}.Scalar_Tensor_out/python",
            lambda T, b, op=op: getattr(T, op)(6, b, out=T.zeros([0], dtype=T.int64)),
            L([1, 2, 4]),
        )
    # Python's operators with a number on the left: x.__rand__(n) is bitwise_and(x, n).
    ops = {"and": lambda a, n: n & a, "or": lambda a, n: n | a, "xor": lambda a, n: n ^ a}
    for name, f in ops.items():
        case(f"__r{name}__/int64", lambda T, a, f=f: f(a, 6), L([12, -7, 0, 5]))
        case(f"__r{name}__/int8-300", lambda T, a, f=f: f(a, 300), D([6, -3, 127], "int8"))
        case(f"__r{name}__/uint8", lambda T, a, f=f: f(a, 3), D([3, 5, 255], "uint8"))
        case(f"__r{name}__/bool-True", lambda T, a, f=f: f(a, True), B([True, False]))
        case(f"__r{name}__/int64-True", lambda T, a, f=f: f(a, True), L([3, 4]))
        case(f"__r{name}__/bool-int", lambda T, a, f=f: f(a, 3), B([True, False]))
        case(f"__r{name}__/float-error", lambda T, a, f=f: f(a, 1.5), L([3, 4]))
        case(f"__r{name}__/float-tensor-error", lambda T, a, f=f: f(a, 1), D([1.0], grad=False))


def _register_logical_inplace() -> None:
    for op in ("logical_and_", "logical_or_", "logical_xor_"):
        case(f"{op}/int64", _inplace(op), L([2, 0, -1, 0]), L([1, 1, 0, 0]))
        case(f"{op}/float-int64", _inplace(op), D([1.5, 0.0, -0.0, 2.0], grad=False), L([1, 1, 0, 0]))
        case(f"{op}/bool-float", _inplace(op), B([True, False, True]), D([2.0, 0.0, 0.0], grad=False))
        case(f"{op}/uint8-broadcast", _inplace(op), D([[3, 0], [0, 0]], "uint8"), D([0.0, 1.0], grad=False))
        case(f"{op}/shape-error", _inplace(op), L([2, 0]), L([[1], [0]]))
        case(f"{op}/number-error", _inplace(op, 3), L([2, 0]))
    for name, data in (("int64", L([2, 0, -3])), ("float32", D([1.5, 0.0, -0.0], "float32", grad=False))):
        case(f"logical_not_/{name}", _inplace_unary("logical_not_"), data)
    case("logical_not_/bool", _inplace_unary("logical_not_"), B([True, False]))


def _register_aminmax_out_type() -> None:
    # The result type of aminmax's out= is torch.return_types.aminmax_out (without out=:
    # aminmax), as for every op of named outputs with out=: sort.values gives sort_out.
    def named(T, x):
        r = T.aminmax(x, dim=0, out=(T.zeros([0], dtype=T.float64), T.zeros([0], dtype=T.float64)))
        n = T.aminmax(x, dim=0)
        ok = type(r).__name__ == "aminmax_out" and type(n).__name__ == "aminmax"
        return [r.min, r.max, T.tensor(1 if ok else 0)]

    case("aminmax.out/return-type", named, D([[1.0, 5.0], [-2.0, 3.0]], grad=False))

    def sort_out(T, x):
        r = T.sort(x, 1, out=(T.zeros([0], dtype=T.float64), T.zeros([0], dtype=T.int64)))
        return [r.values, r.indices, T.tensor(1 if type(r).__name__ == "sort_out" else 0)]

    case("sort.values/return-type", sort_out, D([[1.0, 5.0], [-2.0, -3.0]], grad=False))


def _register_as_tensor() -> None:
    # as_tensor of a NumPy array shares its memory (a write to either shows in the other) when
    # the dtype is the array's, else it is a copy; the inputs give the values, as lists.
    def shared(T, x, dtype=None):
        import numpy

        a = numpy.array(x.tolist(), dtype=numpy.float64 if x.dtype == T.float64 else numpy.int64)
        t = T.as_tensor(a, dtype=getattr(T, dtype) if dtype else None)
        a[0] = 40  # through the array
        t[1] = 50  # through the tensor
        return [t, T.tensor(a.tolist())]

    case("as_tensor/numpy-float64-shared", lambda T, x: shared(T, x), D([1.0, 2.0, 3.0, 4.0], grad=False))
    case("as_tensor/numpy-int64-shared", lambda T, x: shared(T, x), L([1, 2, 3, 4]))
    case("as_tensor/numpy-same-dtype-shared", lambda T, x: shared(T, x, "float64"), D([1.0, 2.0, 3.0, 4.0], grad=False))
    case(
        "as_tensor/numpy-other-dtype-copied", lambda T, x: shared(T, x, "float32"), D([1.0, 2.0, 3.0, 4.0], grad=False)
    )

    def transposed(T, x):
        import numpy

        a = numpy.array(x.tolist(), dtype=numpy.float64).reshape(2, 2).T  # not contiguous
        t = T.as_tensor(a)
        a[0, 1] = 60.0
        return [t, T.tensor(a.tolist())]

    case("as_tensor/numpy-transposed-shared", transposed, D([1.0, 2.0, 3.0, 4.0], grad=False))

    def negative_strides(T, x):
        import numpy

        return T.as_tensor(numpy.array(x.tolist())[::-1])

    case("as_tensor/numpy-negative-strides-error", negative_strides, D([1.0, 2.0], grad=False))


_register_inplace()
_register_out()
_register_scalar_tensor()
_register_logical_inplace()
_register_aminmax_out_type()
_register_as_tensor()
