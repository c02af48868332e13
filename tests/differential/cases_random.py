"""Differential cases of the random samplers (issue 23) where PyTorch's answer is determined:
tril_indices / triu_indices, and samplers whose distribution leaves one value (bernoulli with p in
{0, 1}, normal with std 0, randint over one integer, multinomial with one category of weight),
with their dtypes, shapes, errors and (zero) gradients. gradgen's other random numbers are not
PyTorch's (another generator): tests/python/test_random.py checks their distributions.

Imported by cases.py (its last lines), with whose `case` and input makers they register.
"""

from __future__ import annotations

from cases import D, R, case  # cases.py imports this module once they are defined


def _register() -> None:
    for row, col, offset in [(3, 4, 0), (3, 4, 1), (4, 3, -1), (5, 5, -7), (2, 6, 9), (0, 3, 0), (3, 0, 0)]:
        case(f"tril_indices/{row}x{col}@{offset}", lambda T, r=row, c=col, o=offset: T.tril_indices(r, c, o))
        case(f"triu_indices/{row}x{col}@{offset}", lambda T, r=row, c=col, o=offset: T.triu_indices(r, c, o))
    case("tril_indices/negative-row-error", lambda T: T.tril_indices(-1, 3))
    case("bernoulli/p-0-or-1", lambda T, p: T.bernoulli(p), D([[0.0, 1.0], [1.0, 0.0]]))
    case("bernoulli/grad-zero", lambda T, p: T.bernoulli(p.clamp(0.0, 0.0)) + p * 0.0, R(3, seed=1))
    case("bernoulli/p-out-of-range-error", lambda T, p: T.bernoulli(p), D([1.5]))
    case("bernoulli.p/p-1", lambda T, x: T.bernoulli(x, 1.0), R(2, 3, seed=2))
    case("bernoulli.p/p-0-method", lambda T, x: x.bernoulli(0.0), R(4, seed=3))
    case("normal.Tensor_float/std-0", lambda T, m: T.normal(m, 0.0), R(2, 3, seed=4))
    case("normal.float_Tensor/std-0", lambda T, s: T.normal(2.5, s * 0.0), R(4, seed=5))
    case("normal.Tensor_Tensor/broadcast", lambda T, m, s: T.normal(m, s * 0.0), R(2, 1, seed=6), R(3, seed=7))
    case("normal.Tensor_Tensor/negative-std-error", lambda T, m: T.normal(m, T.ones_like(m) * -1.0), R(2, seed=8))
    case("normal.float_float/std-0", lambda T: T.normal(-1.0, 0.0, (2, 2), dtype=T.float64))
    case("randint.low/one-value", lambda T: T.randint(4, 5, (3, 2)))
    case("randint/high-1-float", lambda T: T.randint(1, (4,), dtype=T.float64))
    case("randint.low/empty-range-error", lambda T: T.randint(3, 3, (2,)))
    case("randperm/1", lambda T: T.randperm(1))
    case("randperm/0", lambda T: T.randperm(0))
    case(
        "multinomial/one-category",
        lambda T, w: T.multinomial(w * 0.0 + T.tensor([0.0, 2.0, 0.0], dtype=T.float64), 4, True),
        R(3, seed=9),
    )
    case("multinomial/3-dim-error", lambda T, w: T.multinomial(w, 1), R(2, 2, 2, seed=10))
    case("rand/negative-size-error", lambda T: T.rand(-1))
    case("rand/int64-error", lambda T: T.rand(2, dtype=T.int64))
    case("uniform_/from-above-to-error", lambda T, x: x.clone().uniform_(2.0, 1.0), R(2, seed=11))
    case("uniform_/equal-bounds", lambda T, x: x.clone().uniform_(1.5, 1.5), R(3, seed=12))
    case("exponential_/lambda-0-error", lambda T, x: x.clone().exponential_(0.0), R(2, seed=13))
    case("random_.from/one-value", lambda T, x: x.clone().random_(3, 4), R(2, 2, seed=14))
    case("random_.to/one-value", lambda T, x: x.clone().random_(1), R(3, seed=16))
    case(
        "random_/non-negative-integers",
        lambda T, x: (lambda r: T.logical_and(r >= 0, r == r.floor()))(x.clone().random_()),
        R(3, seed=17),
    )
    case("bernoulli_.float/p-1", lambda T, x: x.clone().bernoulli_(1.0), R(2, 3, seed=18))
    # The generator overloads: values within the distribution's support (the numbers differ).
    case(
        "rand.generator/in-0-1",
        lambda T: (lambda r: T.logical_and(r >= 0, r < 1))(
            T.rand(2, 3, generator=T.Generator().manual_seed(5), dtype=T.float64)
        ),
    )
    case("rand_like/in-0-1", lambda T, x: (lambda r: T.logical_and(r >= 0, r < 1))(T.rand_like(x)), R(4, seed=19))
    case(
        "rand_like.generator/float32",
        lambda T, x: (lambda r: T.logical_and(r >= 0, r < 1))(
            T.rand_like(x, generator=T.Generator().manual_seed(5), dtype=T.float32)
        ),
        R(2, seed=20),
    )
    case("randn_like/shape-and-dtype", lambda T, x: T.randn_like(x).abs() * 0.0, R(2, 2, seed=21))
    case(
        "randn_like.generator/shape-and-dtype",
        lambda T, x: T.randn_like(x, generator=T.Generator().manual_seed(5)).abs() * 0.0,
        R(3, seed=22),
    )
    case("randint.generator/high-1", lambda T: T.randint(1, (3,), generator=T.Generator().manual_seed(5)))
    case("randint.low_generator/one-value", lambda T: T.randint(-3, -2, (2, 2), generator=T.Generator().manual_seed(5)))
    case("randperm.generator/1", lambda T: T.randperm(1, generator=T.Generator().manual_seed(5)))
    case("normal_/std-0", lambda T, x: x.clone().normal_(0.25, 0.0), R(3, seed=15))


_register()
