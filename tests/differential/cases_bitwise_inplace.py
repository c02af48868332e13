"""Differential cases of Python's in-place bitwise operators (issue 23): `&=`, `|=`, `^=`.

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch, Tensor.__iand__ / __ior__ / __ixor__ (PyTorch's bitwise_and_ / or_ / xor_): integer and
bool tensors with tensor and number operands, the result cast into self's dtype (uint8 |= an
int64 tensor stays uint8), broadcasting of the operand, that the tensor written is self (its
values after the operator), and the refusals: a result type self cannot hold (bool &= int64,
int64 &= float32), floating operands, an operand whose broadcast shape is not self's.
"""

from __future__ import annotations

from cases import B, D, L, case  # cases.py imports this module once they are defined

OPS = {"and": "__iand__", "or": "__ior__", "xor": "__ixor__"}


def _inplace(method: str, other=None):
    """x.clone() <op>= other (the second input unless `other` is given), returned with a check
    that the operator returned the same object: (result values, 1 if it is self else 0)."""

    def run(T, x, *rest):
        y = x.clone()
        operand = rest[0] if other is None else other
        r = getattr(y, method)(operand)
        return [r, T.tensor(1 if r is y else 0)]

    return run


for name, method in OPS.items():
    case(f"bitwise_{name}_/python/int64-tensor", _inplace(method), L([6, -3, 0, 5]), L([3, 5, -1, 12]))
    case(f"bitwise_{name}_/python/int8-number", _inplace(method, 3), D([6, -3, 0, 127], "int8"))
    case(f"bitwise_{name}_/python/uint8-int64-tensor", _inplace(method), D([6, 3, 255], "uint8"), L([8, 16, 1]))
    case(f"bitwise_{name}_/python/int16-int64-0-dim", _inplace(method), D([6, -3], "int16"), L(300))
    case(f"bitwise_{name}_/python/int32-bool-number", _inplace(method, True), D([6, 3], "int32"))
    case(
        f"bitwise_{name}_/python/bool-tensor",
        _inplace(method),
        B([True, False, True, False]),
        B([True, True, False, False]),
    )
    case(f"bitwise_{name}_/python/bool-number", _inplace(method, True), B([True, False]))
    case(f"bitwise_{name}_/python/broadcast-operand", _inplace(method), L([[1, 2], [3, 4]]), L([5]))
    # Refusals, as PyTorch's (RuntimeError, NotImplementedError).
    case(f"bitwise_{name}_/python/bool-int64-tensor", _inplace(method), B([True]), L([1]))
    case(f"bitwise_{name}_/python/bool-int-number", _inplace(method, 1), B([True]))
    case(f"bitwise_{name}_/python/int64-float32-tensor", _inplace(method), L([1, 2]), D([1.5], "float32", grad=False))
    case(f"bitwise_{name}_/python/int64-float-number", _inplace(method, 1.5), L([1, 2]))
    case(f"bitwise_{name}_/python/float32-int-number", _inplace(method, 1), D([1.0], "float32", grad=False))
    case(f"bitwise_{name}_/python/float64-int64-tensor", _inplace(method), D([1.0], grad=False), L([1]))
    case(f"bitwise_{name}_/python/shape-mismatch", _inplace(method), L([6, 3]), L([[1], [2]]))
