"""Differential cases of the default dtype (issue 23): set_default_dtype / get_default_dtype.

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch, under each default dtype it accepts (float32, its own default, float64, float16,
bfloat16): what Python numbers become (tensor([1.5]), [1, 2.5], [True, 1]), the floating
factories given no dtype (zeros, ones, empty's shape, full with a float / an int / a bool fill,
arange with float and int bounds, linspace, logspace, eye, the *_like factories keeping their
input's dtype), the "wrapped number" promotions (int64 tensor * 1.5, true division of integers,
exp of an integer tensor), result_type (returned as a 0-dim zero tensor of that dtype, so that
the record holds it) and the refusal of a non-floating default. Every case restores the default
it found (both libraries run all cases in one process).
"""

from __future__ import annotations

from cases import D, L, case  # cases.py imports this module once they are defined

DEFAULTS = ("float32", "float64", "float16", "bfloat16")


def _under(default: str, fn):
    """fn run with the default dtype set to `default`, the previous one restored afterwards."""

    def run(T, *inputs):
        previous = T.get_default_dtype()
        T.set_default_dtype(getattr(T, default))
        try:
            return fn(T, *inputs)
        finally:
            T.set_default_dtype(previous)

    return run


def _dtype_of(T, dtype):
    """A 0-dim zero of `dtype`: a dtype as an output the records hold."""
    return T.zeros([], dtype=dtype)


FACTORIES = {
    "tensor-float": lambda T: T.tensor([1.5, -2.25]),
    "tensor-0-dim": lambda T: T.tensor(0.5),
    "tensor-int-and-float": lambda T: T.tensor([1, 2.5]),
    "tensor-ints": lambda T: T.tensor([1, 2]),
    "tensor-bool-and-int": lambda T: T.tensor([True, 1]),
    "tensor-empty": lambda T: T.tensor([]),
    "zeros": lambda T: T.zeros(2, 3),
    "ones": lambda T: T.ones([2]),
    "empty-zeroed": lambda T: T.empty(3).zero_(),
    "full-float": lambda T: T.full((2,), 1.5),
    "full-int": lambda T: T.full((2,), 7),
    "full-bool": lambda T: T.full((2,), True),
    "arange-float": lambda T: T.arange(0.0, 2.0),
    "arange-float-step": lambda T: T.arange(0, 1, 0.25),
    "arange-int": lambda T: T.arange(4),
    "linspace": lambda T: T.linspace(0, 1, 5),
    "logspace": lambda T: T.logspace(0, 2, 3),
    "eye": lambda T: T.eye(2),
    "eye-m": lambda T: T.eye(2, 3),
    "rand-shape": lambda T: T.rand(2, 3) * 0,
    "normal-shape": lambda T: T.normal(0.0, 1.0, (3,)) * 0,
}

for default in DEFAULTS:
    for name, make in FACTORIES.items():
        case(f"default_dtype/{default}/{name}", _under(default, lambda T, make=make: make(T)))
    case(
        f"default_dtype/{default}/likes-keep-dtype",
        _under(default, lambda T, x: [T.zeros_like(x), T.ones_like(x), T.full_like(x, 2.5)]),
        D([1.0, 2.0], "float32", grad=False),
    )
    case(
        f"default_dtype/{default}/likes-keep-float64",
        _under(default, lambda T, x: [T.zeros_like(x), T.empty_like(x).zero_()]),
        D([1.0, 2.0], grad=False),
    )
    # Wrapped numbers: a Python float meeting an integer tensor gives the default dtype.
    case(f"default_dtype/{default}/int-times-float", _under(default, lambda T, x: x * 1.5), L([1, -2, 3]))
    case(f"default_dtype/{default}/float-times-int", _under(default, lambda T, x: 2.5 * x), L([1, -2, 3]))
    case(f"default_dtype/{default}/int-true-div", _under(default, lambda T, x: x / 2), L([1, -3, 4]))
    case(f"default_dtype/{default}/int-div-int", _under(default, lambda T, x: T.div(x, x + 3)), L([1, -2, 4]))
    case(f"default_dtype/{default}/int-exp", _under(default, lambda T, x: T.exp(x)), L([0, 1, -1]))
    case(f"default_dtype/{default}/bool-sin", _under(default, lambda T, x: T.sin(x)), D([True, False], "bool"))
    case(
        f"default_dtype/{default}/float32-times-float", _under(default, lambda T, x: x * 1.5), D([1.0, 2.0], "float32")
    )
    case(f"default_dtype/{default}/float64-times-float", _under(default, lambda T, x: x * 1.5), D([1.0, 2.0]))
    case(
        f"default_dtype/{default}/result-types",
        _under(
            default,
            lambda T, i, f: [
                _dtype_of(T, T.result_type(i, 1.5)),
                _dtype_of(T, T.result_type(1.5, i)),
                _dtype_of(T, T.result_type(1, 1.5)),
                _dtype_of(T, T.result_type(1, 2)),
                _dtype_of(T, T.result_type(True, False)),
                _dtype_of(T, T.result_type(i, f)),
                _dtype_of(T, T.result_type(f, 2.5)),
                _dtype_of(T, T.result_type(f, T.tensor(1.0, dtype=T.float64))),
            ],
        ),
        L([1, 2]),
        D([1.0], "float32", grad=False),
    )

case("default_dtype/get-after-import", lambda T: _dtype_of(T, T.get_default_dtype()))
case("default_dtype/set-int64-refused", lambda T: T.set_default_dtype(T.int64))
case("default_dtype/set-bool-refused", lambda T: T.set_default_dtype(T.bool))
case(
    "default_dtype/round-trip",
    _under("float64", lambda T: [_dtype_of(T, T.get_default_dtype()), T.tensor([0.1])]),
)
case("default_dtype/promote-types", lambda T: [
    _dtype_of(T, T.promote_types(T.uint8, T.int8)),
    _dtype_of(T, T.promote_types(T.float16, T.bfloat16)),
    _dtype_of(T, T.promote_types(T.bool, T.int32)),
])  # fmt: skip
