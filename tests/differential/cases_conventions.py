"""Differential cases of issue 23's conventions: max / min out=, several ellipses, einsum's words.

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). They check, against
PyTorch 2.13: `torch.max(x, dim, out=(values, indices))` and `torch.min` (max.dim_max,
min.dim_min: the objects passed are written and returned as PyTorch's max_out / min_out named
tuples); an index with several `...` (each skips the dims the other items leave, as PyTorch's
applySlicing; past the last dim it is PyTorch's IndexError); einsum's error messages, word for
word; and abs(-0.0) = +0.0 in every floating dtype (through 1 / abs(x)). Cases whose answer is an
error message return it as a tensor of character codes, compared exactly.
"""

from __future__ import annotations

from cases import D, R, case, error_message  # cases.py imports this module once they are defined


def _extremum_out(name, dim, keepdim=False, indices_dtype="int64"):
    def run(T, x):
        values, indices = T.zeros([0], dtype=x.dtype), T.zeros([0], dtype=getattr(T, indices_dtype))
        r = getattr(T, name)(x, dim, keepdim, out=(values, indices))
        same = [r[0] is values, r[1] is indices, r.values is values, type(r).__name__ == name + "_out"]
        return r[0], r[1], T.tensor(same)

    return run


def _register_extremum_out() -> None:
    x = R(3, 4, seed=1, grad=False)
    for name in ("max", "min"):
        case(f"{name}.dim_{name}/out", _extremum_out(name, 1), x)
        case(f"{name}.dim_{name}/out-keepdim-negative-dim", _extremum_out(name, -2, True), x)
        case(f"{name}.dim_{name}/out-float16", _extremum_out(name, 0), R(3, 4, seed=2, dtype="float16", grad=False))
        case(f"{name}.dim_{name}/out-int8", _extremum_out(name, 1), D([[3, -1, 7], [0, 2, -5]], "int8"))
        case(f"{name}.dim_{name}/out-indices-float-error", _extremum_out(name, 1, indices_dtype="float32"), x)
        case(f"{name}.dim_{name}/out-requires-grad-error", _extremum_out(name, 1), R(3, 4, seed=3))


def _register_ellipses() -> None:
    x = R(2, 3, 4, seed=4)
    case("select.int/two-ellipses", lambda T, a: a[..., 0, ...], x)
    case("select.int/ellipses-around-two-ints", lambda T, a: a[0, ..., 1, ...], x)
    case("unsqueeze/two-ellipses-none", lambda T, a: a[..., None, ...], x)
    case("slice.Tensor/two-ellipses-slice", lambda T, a: a[..., 1:, ...], x)
    case("select.int/ellipses-past-the-last-dim-error", error_message(lambda T, a: a[..., 1, ..., 2]), x)

    def set_two_ellipses(T, a):
        y = a * 1
        y[..., 0, ...] = 5.0
        return y

    case("copy_/two-ellipses-setitem", set_two_ellipses, x)
    case("select.int/out-of-bounds-names-the-key-position", error_message(lambda T, a: a[0, 5]), x)


def _register_einsum_messages() -> None:
    for name, equation, shapes in (
        ("broadcast", "ij,ij->ij", [(2, 3), (2, 2)]),
        ("broadcast-third-operand", "ij,ij,ij->ij", [(2, 3), (2, 1), (2, 4)]),
        ("broadcast-ellipsis", "...i,...i", [(5, 2, 3), (4, 3)]),
        ("repeated-sizes", "iji", [(2, 3, 3)]),
        ("repeated-sizes-second-operand", "ii,jj", [(2, 2), (3, 4)]),
        ("repeated-before-broadcast", "i,ii", [(3,), (4, 5)]),
        ("stray-dot-output", "i->i.", [(2,)]),
        ("second-ellipsis-output", "...i->......", [(2, 3)]),
        ("stray-dot-operand", "i.,i", [(2,), (2,)]),
    ):
        case(
            f"einsum/message-{name}",
            error_message(lambda T, *xs, e=equation: T.einsum(e, *xs)),
            *[R(*s, seed=10 + k, grad=False) for k, s in enumerate(shapes)],
        )


def _register_abs_of_negative_zero() -> None:
    for dtype in ("float64", "float32", "float16", "bfloat16"):
        case(f"abs/negative-zero-{dtype}", lambda T, x: 1 / T.abs(x), D([-0.0, 0.0, -2.0], dtype, False))


_register_extremum_out()
_register_ellipses()
_register_einsum_messages()
_register_abs_of_negative_zero()
