"""Random sampling from Python: rand / rand_like / randn_like, randint, randperm, bernoulli,
multinomial, normal, the in-place samplers and tril_indices / triu_indices.

gradgen's numbers are not PyTorch's (another generator), so values are checked by what they must
satisfy: ranges, moments within five standard errors, permutations, reproducibility for one
seed. Dtypes, shapes, gradients and errors are PyTorch 2.13's, as its calls printed them
(run in a separate venv; noted at each).
"""

import math

import pytest

import gradgen


def gen(seed=0):
    return gradgen.Generator(seed)


def mean_var(values):
    m = math.fsum(values) / len(values)
    return m, math.fsum((v - m) ** 2 for v in values) / (len(values) - 1)


def test_rand_and_rand_like_are_uniform_in_0_1():
    x = gradgen.rand(4000, generator=gen(1))
    assert x.dtype == gradgen.float32 and x.shape == (4000,)  # the default dtype, as PyTorch's
    v = x.tolist()
    assert all(0 <= a < 1 for a in v)
    m, var = mean_var(v)
    assert abs(m - 0.5) < 5 * math.sqrt(1 / 12 / 4000) and abs(var - 1 / 12) < 0.01
    assert gradgen.rand(2, 3).shape == (2, 3)  # sizes as varargs
    assert gradgen.rand(2, dtype=gradgen.float32).dtype == gradgen.float32
    like = gradgen.rand_like(gradgen.zeros(3, 2, dtype=gradgen.float32))
    assert like.dtype == gradgen.float32 and like.shape == (3, 2)
    # One seed, one result; the generator advances between calls.
    g = gen(7)
    a, b = gradgen.rand(5, generator=g), gradgen.rand(5, generator=g)
    assert a.tolist() != b.tolist()
    assert gradgen.rand(5, generator=gen(7)).tolist() == a.tolist()


def test_randn_like_and_normal_have_their_moments():
    v = gradgen.randn_like(gradgen.zeros(5000), generator=gen(2)).tolist()
    m, var = mean_var(v)
    assert abs(m) < 5 / math.sqrt(5000) and abs(var - 1) < 0.1
    v = gradgen.normal(3.0, 2.0, (5000,), generator=gen(3)).tolist()
    m, var = mean_var(v)
    assert abs(m - 3) < 5 * 2 / math.sqrt(5000) and abs(var - 4) < 0.4
    mean = gradgen.tensor([[-10.0], [10.0]])
    y = gradgen.normal(mean, gradgen.tensor([0.0, 0.0, 0.0]))  # broadcast, as torch: [2, 3]
    assert y.tolist() == [[-10.0] * 3, [10.0] * 3]
    assert gradgen.normal(mean, 0.0).tolist() == [[-10.0], [10.0]]
    assert gradgen.normal(1.0, gradgen.zeros(2)).tolist() == [1.0, 1.0]


def test_randint_and_randperm():
    x = gradgen.randint(3, 7, (2000,), generator=gen(4))
    assert x.dtype == gradgen.int64  # torch: int64 by default
    v = x.tolist()
    assert set(v) == {3, 4, 5, 6}
    assert gradgen.randint(5, (3, 2)).shape == (3, 2)
    assert gradgen.randint(-2, 2, (4,), dtype=gradgen.float64).dtype == gradgen.float64
    p = gradgen.randperm(50, generator=gen(5))
    assert p.dtype == gradgen.int64 and sorted(p.tolist()) == list(range(50)) and p.tolist() != list(range(50))
    assert gradgen.randperm(0).shape == (0,)


def test_bernoulli_and_in_place_samplers():
    p = gradgen.full([4000], 0.3)
    v = gradgen.bernoulli(p, generator=gen(6)).tolist()
    assert set(v) == {0.0, 1.0} and abs(sum(v) / 4000 - 0.3) < 5 * math.sqrt(0.21 / 4000)
    assert gradgen.bernoulli(gradgen.tensor([0.0, 1.0])).tolist() == [0.0, 1.0]
    assert gradgen.zeros(3).bernoulli(1.0).tolist() == [1.0, 1.0, 1.0]  # bernoulli.p, a method
    # torch: bernoulli(x, 0.5) keeps x's dtype.
    assert gradgen.bernoulli(gradgen.zeros(2, dtype=gradgen.float32), 0.5).dtype == gradgen.float32
    x = gradgen.zeros(2000)
    assert x.uniform_(-2, 3, generator=gen(7)) is x
    assert all(-2 <= a < 3 for a in x.tolist())
    assert all(a > 0 for a in x.exponential_(2.0).tolist())
    m, _ = mean_var(x.exponential_(2.0, generator=gen(8)).tolist())
    assert abs(m - 0.5) < 5 * 0.5 / math.sqrt(2000)
    m, var = mean_var(x.normal_(1.0, 0.5, generator=gen(9)).tolist())
    assert abs(m - 1) < 0.05 and abs(var - 0.25) < 0.05
    assert set(x.random_(3, 6).tolist()) == {3.0, 4.0, 5.0}
    assert set(x.random_(2).tolist()) == {0.0, 1.0}
    assert all(a == int(a) and 0 <= a <= 2**53 for a in x.random_().tolist())
    b = gradgen.zeros(1000)
    assert abs(sum(b.bernoulli_(0.25, generator=gen(10)).tolist()) / 1000 - 0.25) < 0.07
    # A view is filled through its strides.
    base = gradgen.zeros(3, 4)
    base[:, 1].uniform_(5.0, 6.0)
    assert [row[1] >= 5 for row in base.tolist()] == [True] * 3 and base[:, 0].tolist() == [0.0] * 3


def test_multinomial():
    w = gradgen.tensor([0.0, 1.0, 3.0])
    v = gradgen.multinomial(w, 4000, True, generator=gen(11)).tolist()
    assert set(v) == {1, 2} and abs(v.count(2) / 4000 - 0.75) < 5 * math.sqrt(0.1875 / 4000)
    rows = gradgen.multinomial(gradgen.ones(2, 5), 3, generator=gen(12))
    assert rows.dtype == gradgen.int64 and rows.shape == (2, 3)
    assert all(len(set(r)) == 3 for r in rows.tolist())  # without replacement: distinct
    # torch 2.13: multinomial([1, 0, 0], 2) gives [0, 1]: zero-weight categories fill in.
    v = gradgen.multinomial(gradgen.tensor([1.0, 0.0, 0.0]), 2).tolist()
    assert v[0] == 0 and v[1] in (1, 2)


def test_tril_and_triu_indices_match_pytorch():
    # torch.tril_indices(3, 4, 1) and torch.triu_indices(4, 3, -1), as torch 2.13 printed them.
    assert gradgen.tril_indices(3, 4, 1).tolist() == [[0, 0, 1, 1, 1, 2, 2, 2, 2], [0, 1, 0, 1, 2, 0, 1, 2, 3]]
    assert gradgen.triu_indices(4, 3, -1).tolist() == [[0, 0, 0, 1, 1, 1, 2, 2, 3], [0, 1, 2, 0, 1, 2, 1, 2, 2]]
    assert gradgen.tril_indices(0, 3).shape == (2, 0) and gradgen.triu_indices(3, 0, 2).shape == (2, 0)


def test_gradients_of_samples_are_zero_as_in_pytorch():
    # torch 2.13: bernoulli(x) requires grad and x.grad is zeros; so for normal(mean, 1.0).
    x = gradgen.tensor([0.2, 0.7], requires_grad=True)
    y = gradgen.bernoulli(x)
    assert y.requires_grad
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    m = gradgen.zeros(3, requires_grad=True)
    gradgen.normal(m, 1.0).sum().backward()
    assert m.grad.tolist() == [0.0, 0.0, 0.0]
    assert not gradgen.rand(2, requires_grad=False).requires_grad
    assert gradgen.rand(2, requires_grad=True).requires_grad  # a factory takes requires_grad=


@pytest.mark.parametrize(
    "call, message",
    [
        # The messages PyTorch 2.13 gives (gradgen names the op first).
        (lambda: gradgen.rand(2, dtype=gradgen.int64), "expected a floating dtype"),
        (lambda: gradgen.randint(3, 3, (2,)), "random_ expects 'from' to be less than 'to', but got from=3 >= to=3"),
        (lambda: gradgen.bernoulli(gradgen.tensor([1.5])), "expects p to be in \\[0, 1\\]"),
        (lambda: gradgen.zeros(2).uniform_(2, 1), "expects to return a \\[from, to\\) range, but found from=2 > to=1"),
        (lambda: gradgen.zeros(2).exponential_(0), "exponential_ expects lambda > 0.0, but found lambda=0"),
        (lambda: gradgen.normal(gradgen.zeros(2), -1.0), "expected std >= 0.0, but found std -1"),
        (lambda: gradgen.rand(-1), "Trying to create tensor with negative dimension -1"),
        (lambda: gradgen.multinomial(gradgen.ones(2, 2, 2), 1), "prob_dist must be 1 or 2 dim"),
        (lambda: gradgen.multinomial(gradgen.tensor([1.0, -1.0]), 1), "contains either `inf`, `nan` or element < 0"),
        (lambda: gradgen.multinomial(gradgen.ones(3), 4), "cannot sample n_sample > prob_dist.size\\(-1\\)"),
    ],
)
def test_errors(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()
