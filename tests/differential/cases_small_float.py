"""Differential cases of float16 and bfloat16 beyond the element-wise ops (issue 23).

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). Every family PyTorch
2.13's CPU kernels run in float16 and bfloat16 (matrix products, convolutions, pooling,
normalization, softmax, the activations and losses, resampling and padding, embeddings,
attention, ...): values and gradients in both dtypes, which gradgen computes through its float32
kernels and rounds once (csrc/native/reduced_float.h) and which test_differential.py compares to
one unit in the last place; and the ops PyTorch refuses in them, whose exception type and message
each case returns as a tensor of character codes (compared exactly).
"""

from __future__ import annotations

from cases import NAN, D, L, R, case, error_message  # cases.py imports this module once they are defined

SMALL = ("float16", "bfloat16")


def r(*shape: int, seed: int, lo: float = -1.0, hi: float = 1.0, grad: bool = True):
    """A random input of the case's dtype."""
    return lambda dtype: R(*shape, seed=seed, lo=lo, hi=hi, dtype=dtype, grad=grad)


def given(data, grad: bool = True):
    """An input of the case's dtype with the given values."""
    return lambda dtype: D(data, dtype, grad)


def longs(data):
    return lambda dtype: L(data)


def both(name: str, fn, *makers, second: bool = False) -> None:
    """`name-float16` and `name-bfloat16`: fn on the inputs the makers give for each dtype."""
    for dtype in SMALL:
        case(f"{name}-{dtype}", fn, *[m(dtype) for m in makers], second=second)


def F(T):
    return T.nn.functional


def _register_products() -> None:
    both("mm/small-float/basic", lambda T, a, b: T.mm(a, b), r(3, 4, seed=1), r(4, 5, seed=2))
    both("mm/small-float/transposed", lambda T, a, b: T.mm(a.t(), b), r(4, 3, seed=3), r(4, 2, seed=4))
    both("bmm/small-float/basic", lambda T, a, b: T.bmm(a, b), r(2, 3, 4, seed=5), r(2, 4, 2, seed=6))
    both("matmul/small-float/matrix-vector", lambda T, a, b: T.matmul(a, b), r(3, 4, seed=7), r(4, seed=8))
    both("matmul/small-float/batched", lambda T, a, b: T.matmul(a, b), r(2, 3, 4, seed=9), r(4, 2, seed=10))
    both(
        "linear/small-float/bias",
        lambda T, x, w, b: F(T).linear(x, w, b),
        r(2, 3, 4, seed=11),
        r(5, 4, seed=12),
        r(5, seed=13),
    )
    both(
        "addmm/small-float/beta-alpha",
        lambda T, s, a, b: T.addmm(s, a, b, beta=0.5, alpha=-2),
        r(3, 2, seed=14),
        r(3, 4, seed=15),
        r(4, 2, seed=16),
    )
    both("addmv/small-float/basic", lambda T, s, a, v: T.addmv(s, a, v), r(3, seed=17), r(3, 4, seed=18), r(4, seed=19))
    both("addr/small-float/basic", lambda T, s, a, b: T.addr(s, a, b), r(3, 2, seed=20), r(3, seed=21), r(2, seed=22))
    both(
        "addbmm/small-float/basic",
        lambda T, s, a, b: T.addbmm(s, a, b),
        r(3, 2, seed=23),
        r(2, 3, 4, seed=24),
        r(2, 4, 2, seed=25),
    )
    both(
        "baddbmm/small-float/basic",
        lambda T, s, a, b: T.baddbmm(s, a, b, alpha=0.5),
        r(2, 3, 2, seed=26),
        r(2, 3, 4, seed=27),
        r(2, 4, 2, seed=28),
    )
    both("dot/small-float/basic", lambda T, a, b: T.dot(a, b), r(6, seed=29), r(6, seed=30))
    both("vdot/small-float/basic", lambda T, a, b: T.vdot(a, b), r(5, seed=31), r(5, seed=32))
    both("mv/small-float/basic", lambda T, a, v: T.mv(a, v), r(3, 5, seed=33), r(5, seed=34))
    both("outer/small-float/basic", lambda T, a, b: T.outer(a, b), r(3, seed=35), r(2, seed=36))
    both(
        "einsum/small-float/contraction",
        lambda T, a, b: T.einsum("ij,jk->ik", a, b),
        r(3, 4, seed=37),
        r(4, 2, seed=38),
    )
    both("einsum/small-float/batch-trace", lambda T, a: T.einsum("bii->b", a), r(2, 3, 3, seed=39))
    both("tensordot/small-float/basic", lambda T, a, b: T.tensordot(a, b, 1), r(2, 3, seed=40), r(3, 2, seed=41))
    both("kron/small-float/basic", lambda T, a, b: T.kron(a, b), r(2, 2, seed=42), r(2, 3, seed=43))
    both("trace/small-float/basic", lambda T, a: T.trace(a), r(3, 3, seed=44))
    both("linalg_cross/small-float/basic", lambda T, a, b: T.linalg.cross(a, b), r(2, 3, seed=45), r(2, 3, seed=46))


def _register_convolutions() -> None:
    both(
        "conv1d/small-float/bias",
        lambda T, x, w, b: F(T).conv1d(x, w, b, padding=1),
        r(2, 2, 6, seed=50),
        r(3, 2, 3, seed=51),
        r(3, seed=52),
    )
    both(
        "conv2d/small-float/stride-padding",
        lambda T, x, w, b: F(T).conv2d(x, w, b, stride=2, padding=1),
        r(2, 2, 5, 5, seed=53),
        r(3, 2, 3, 3, seed=54),
        r(3, seed=55),
    )
    both(
        "conv2d/small-float/depthwise",
        lambda T, x, w: F(T).conv2d(x, w, groups=2),
        r(1, 2, 4, 4, seed=56),
        r(4, 1, 2, 2, seed=57),
    )
    both(
        "conv3d/small-float/basic",
        lambda T, x, w, b: F(T).conv3d(x, w, b),
        r(1, 2, 3, 3, 3, seed=58),
        r(2, 2, 2, 2, 2, seed=59),
        r(2, seed=60),
    )
    both(
        "conv_transpose1d/small-float/basic",
        lambda T, x, w, b: F(T).conv_transpose1d(x, w, b, stride=2),
        r(1, 2, 4, seed=61),
        r(2, 3, 3, seed=62),
        r(3, seed=63),
    )
    both(
        "conv_transpose2d/small-float/output-padding",
        lambda T, x, w: F(T).conv_transpose2d(x, w, stride=2, output_padding=1),
        r(1, 2, 3, 3, seed=64),
        r(2, 2, 2, 2, seed=65),
    )
    both(
        "conv_transpose3d/small-float/basic",
        lambda T, x, w: F(T).conv_transpose3d(x, w),
        r(1, 2, 2, 2, 2, seed=66),
        r(2, 1, 2, 2, 2, seed=67),
    )


def _register_pooling() -> None:
    both("max_pool1d/small-float/basic", lambda T, x: F(T).max_pool1d(x, 2), r(1, 2, 6, seed=70))
    both("max_pool2d/small-float/overlapping", lambda T, x: F(T).max_pool2d(x, 3, stride=1), r(1, 2, 5, 5, seed=71))
    both("max_pool3d/small-float/basic", lambda T, x: F(T).max_pool3d(x, 2), r(1, 1, 4, 4, 4, seed=72))
    both(
        "max_pool2d_with_indices/small-float/indices",
        lambda T, x: F(T).max_pool2d(x, 2, return_indices=True),
        r(1, 2, 4, 4, seed=73),
    )
    both("avg_pool1d/small-float/basic", lambda T, x: F(T).avg_pool1d(x, 3, stride=2), r(1, 2, 7, seed=74))
    both(
        "avg_pool2d/small-float/padding",
        lambda T, x: F(T).avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False),
        r(1, 2, 5, 5, seed=75),
    )
    both("adaptive_avg_pool1d/small-float/basic", lambda T, x: F(T).adaptive_avg_pool1d(x, 4), r(1, 2, 7, seed=76))
    both(
        "adaptive_avg_pool2d/small-float/basic",
        lambda T, x: F(T).adaptive_avg_pool2d(x, (2, 3)),
        r(1, 2, 5, 7, seed=77),
    )
    both("adaptive_max_pool1d/small-float/basic", lambda T, x: F(T).adaptive_max_pool1d(x, 3), r(1, 2, 7, seed=78))
    both("adaptive_max_pool2d/small-float/basic", lambda T, x: F(T).adaptive_max_pool2d(x, 3), r(1, 2, 5, 5, seed=79))
    both(
        "max_unpool2d/small-float/basic",
        lambda T, x: F(T).max_unpool2d(*F(T).max_pool2d(x, 2, return_indices=True), 2),
        r(1, 2, 4, 4, seed=80),
    )


def _register_normalization() -> None:
    def batch_norm(T, x, w, b, mean, var):
        out = F(T).batch_norm(x, mean, var, w, b, training=True, momentum=0.3)
        return out, mean, var  # the running statistics, updated in place

    both(
        "native_batch_norm/small-float/training",
        batch_norm,
        r(3, 2, 4, seed=85),
        r(2, seed=86),
        r(2, seed=87),
        given([0.1, -0.2], grad=False),
        given([1.0, 0.5], grad=False),
    )
    both(
        "native_batch_norm/small-float/eval",
        lambda T, x, w, b, mean, var: F(T).batch_norm(x, mean, var, w, b, training=False),
        r(3, 2, 4, seed=88),
        r(2, seed=89),
        r(2, seed=90),
        given([0.1, -0.2], grad=False),
        given([1.0, 0.5], grad=False),
    )
    both(
        "native_layer_norm/small-float/affine",
        lambda T, x, w, b: F(T).layer_norm(x, [4], w, b),
        r(2, 3, 4, seed=91),
        r(4, seed=92),
        r(4, seed=93),
    )
    both(
        "native_layer_norm/small-float/outputs",
        lambda T, x: T.native_layer_norm(x, [3, 4], None, None, 1e-5),
        r(2, 3, 4, seed=94),
    )
    both(
        "native_group_norm/small-float/affine",
        lambda T, x, w, b: F(T).group_norm(x, 2, w, b),
        r(2, 4, 3, seed=95),
        r(4, seed=96),
        r(4, seed=97),
    )
    both("instance_norm/small-float/basic", lambda T, x: F(T).instance_norm(x), r(2, 3, 4, seed=98))
    both("rms_norm/small-float/weight", lambda T, x, w: F(T).rms_norm(x, [4], w), r(2, 3, 4, seed=99), r(4, seed=100))


def _register_softmax() -> None:
    both("softmax/small-float/last-dim", lambda T, x: F(T).softmax(x, 1), r(3, 5, seed=105, lo=-3, hi=3))
    both("softmax/small-float/first-dim", lambda T, x: F(T).softmax(x, 0), r(3, 5, seed=106, lo=-3, hi=3))
    both("log_softmax/small-float/last-dim", lambda T, x: F(T).log_softmax(x, -1), r(2, 3, 4, seed=107, lo=-3, hi=3))
    both("log_softmax/small-float/middle-dim", lambda T, x: F(T).log_softmax(x, 1), r(2, 3, 4, seed=108, lo=-3, hi=3))
    both(
        "softmax/small-float/dtype-float32",
        lambda T, x: F(T).softmax(x, 1, dtype=T.float32),
        r(2, 4, seed=109, lo=-3, hi=3),
    )
    both("logsumexp/small-float/basic", lambda T, x: T.logsumexp(x, 1), r(2, 4, seed=110, lo=-3, hi=3))


ACTIVATIONS = {
    "relu": lambda T, x: F(T).relu(x),
    "gelu": lambda T, x: F(T).gelu(x),
    "gelu-tanh": lambda T, x: F(T).gelu(x, approximate="tanh"),
    "silu": lambda T, x: F(T).silu(x),
    "mish": lambda T, x: F(T).mish(x),
    "elu": lambda T, x: F(T).elu(x, alpha=0.7),
    "selu": lambda T, x: F(T).selu(x),
    "celu": lambda T, x: F(T).celu(x, alpha=1.5),
    "leaky_relu": lambda T, x: F(T).leaky_relu(x, 0.1),
    "hardtanh": lambda T, x: F(T).hardtanh(x, -0.5, 0.5),
    "hardsigmoid": lambda T, x: F(T).hardsigmoid(x),
    "hardswish": lambda T, x: F(T).hardswish(x),
    "softplus": lambda T, x: F(T).softplus(x, beta=2.0),
    "softshrink": lambda T, x: F(T).softshrink(x, 0.3),
    "hardshrink": lambda T, x: F(T).hardshrink(x, 0.3),
    "log_sigmoid": lambda T, x: F(T).logsigmoid(x),
    "threshold": lambda T, x: F(T).threshold(x, 0.1, 2.0),
    "sigmoid": lambda T, x: T.sigmoid(x),
    "tanh": lambda T, x: T.tanh(x),
}


def _register_activations() -> None:
    for name, fn in ACTIVATIONS.items():
        op = name.split("-")[0]
        both(f"{op}/small-float/{name}", fn, r(8, seed=115, lo=-3, hi=3))
    both("glu/small-float/basic", lambda T, x: F(T).glu(x, 1), r(2, 6, seed=116))
    both("prelu/small-float/channels", lambda T, x, w: F(T).prelu(x, w), r(2, 3, 2, seed=117), r(3, seed=118))
    both("logit/small-float/eps", lambda T, x: T.logit(x, eps=0.05), r(6, seed=119, lo=0.01, hi=0.99))
    both(
        "nan_to_num/small-float/defaults", lambda T, x: T.nan_to_num(x), given([NAN, float("inf"), -float("inf"), 1.5])
    )
    both("lerp/small-float/scalar", lambda T, a, b: T.lerp(a, b, 0.3), r(5, seed=120), r(5, seed=121))
    both("lerp/small-float/tensor", lambda T, a, b, w: T.lerp(a, b, w), r(5, seed=122), r(5, seed=123), r(5, seed=124))


def _register_losses() -> None:
    for reduction in ("mean", "sum", "none"):
        both(
            f"mse_loss/small-float/{reduction}",
            lambda T, a, b, red=reduction: F(T).mse_loss(a, b, reduction=red),
            r(7, seed=130),
            r(7, seed=131),
        )
    both("l1_loss/small-float/mean", lambda T, a, b: F(T).l1_loss(a, b), r(6, seed=132), r(6, seed=133))
    both(
        "smooth_l1_loss/small-float/mean",
        lambda T, a, b: F(T).smooth_l1_loss(a, b, beta=0.5),
        r(6, seed=134),
        r(6, seed=135),
    )
    both(
        "huber_loss/small-float/sum",
        lambda T, a, b: F(T).huber_loss(a, b, reduction="sum", delta=0.4),
        r(6, seed=136),
        r(6, seed=137),
    )
    both(
        "soft_margin_loss/small-float/mean",
        lambda T, a, b: F(T).soft_margin_loss(a, b),
        r(6, seed=138),
        given([1.0, -1.0, 1.0, 1.0, -1.0, -1.0], grad=False),
    )
    both(
        "binary_cross_entropy/small-float/weight",
        lambda T, a, b, w: F(T).binary_cross_entropy(a, b, w),
        r(6, seed=139, lo=0.05, hi=0.95),
        r(6, seed=140, lo=0.0, hi=1.0, grad=False),
        r(6, seed=141, lo=0.5, hi=1.5, grad=False),
    )
    both(
        "binary_cross_entropy_with_logits/small-float/pos-weight",
        lambda T, a, b, p: F(T).binary_cross_entropy_with_logits(a, b, pos_weight=p),
        r(2, 3, seed=142, lo=-3, hi=3),
        r(2, 3, seed=143, lo=0.0, hi=1.0, grad=False),
        r(3, seed=144, lo=0.5, hi=2.0, grad=False),
    )
    both(
        "kl_div/small-float/batchmean",
        lambda T, a, b: F(T).kl_div(a, b, reduction="batchmean"),
        r(2, 3, seed=145, lo=-2, hi=-0.1),
        r(2, 3, seed=146, lo=0.1, hi=1.0, grad=False),
    )
    both(
        "margin_ranking_loss/small-float/basic",
        lambda T, a, b, y: F(T).margin_ranking_loss(a, b, y, margin=0.1),
        r(5, seed=147),
        r(5, seed=148),
        given([1.0, -1.0, 1.0, -1.0, 1.0], grad=False),
    )
    both(
        "nll_loss/small-float/weight",
        lambda T, x, t, w: F(T).nll_loss(x, t, weight=w),
        r(4, 3, seed=149, lo=-3, hi=0),
        longs([0, 2, 1, 2]),
        r(3, seed=150, lo=0.5, hi=2.0, grad=False),
    )
    both(
        "nll_loss2d/small-float/spatial",
        lambda T, x, t: F(T).nll_loss(x, t, reduction="sum"),
        r(2, 3, 2, 2, seed=151, lo=-3, hi=0),
        longs([[[0, 1], [2, 0]], [[1, 1], [2, 2]]]),
    )
    both(
        "cross_entropy_loss/small-float/label-smoothing",
        lambda T, x, t: F(T).cross_entropy(x, t, label_smoothing=0.1),
        r(4, 5, seed=152, lo=-2, hi=2),
        longs([0, 4, 2, 1]),
    )
    both(
        "cosine_embedding_loss/small-float/basic",
        lambda T, a, b, y: F(T).cosine_embedding_loss(a, b, y, margin=0.2),
        r(3, 4, seed=153),
        r(3, 4, seed=154),
        given([1.0, -1.0, 1.0], grad=False),
    )
    both(
        "triplet_margin_loss/small-float/basic",
        lambda T, a, p, n: F(T).triplet_margin_loss(a, p, n),
        r(3, 4, seed=155),
        r(3, 4, seed=156),
        r(3, 4, seed=157),
    )


def _register_resampling() -> None:
    both("upsample_nearest1d/small-float/scale", lambda T, x: F(T).interpolate(x, scale_factor=2), r(1, 2, 3, seed=160))
    both("upsample_nearest2d/small-float/size", lambda T, x: F(T).interpolate(x, size=(5, 4)), r(1, 2, 3, 3, seed=161))
    both(
        "upsample_nearest3d/small-float/scale",
        lambda T, x: F(T).interpolate(x, scale_factor=2),
        r(1, 1, 2, 2, 2, seed=162),
    )
    both(
        "upsample_linear1d/small-float/align-corners",
        lambda T, x: F(T).interpolate(x, size=7, mode="linear", align_corners=True),
        r(1, 2, 4, seed=163),
    )
    both(
        "upsample_bilinear2d/small-float/basic",
        lambda T, x: F(T).interpolate(x, size=(5, 6), mode="bilinear", align_corners=False),
        r(1, 2, 3, 4, seed=164),
    )
    both(
        "upsample_bicubic2d/small-float/basic",
        lambda T, x: F(T).interpolate(x, size=(5, 5), mode="bicubic", align_corners=False),
        r(1, 1, 3, 3, seed=165),
    )
    both(
        "upsample_trilinear3d/small-float/basic",
        lambda T, x: F(T).interpolate(x, scale_factor=2, mode="trilinear", align_corners=False),
        r(1, 1, 2, 2, 2, seed=166),
    )
    for mode in ("constant", "reflect", "replicate", "circular"):
        both(f"pad/small-float/{mode}-1d", lambda T, x, m=mode: F(T).pad(x, (2, 1), mode=m), r(1, 2, 4, seed=167))
        both(
            f"pad/small-float/{mode}-2d",
            lambda T, x, m=mode: F(T).pad(x, (1, 1, 2, 0), mode=m),
            r(1, 2, 3, 3, seed=168),
        )
    both(
        "pad/small-float/reflect-3d",
        lambda T, x: F(T).pad(x, (1, 1, 1, 1, 1, 1), mode="reflect"),
        r(1, 1, 2, 2, 2, seed=169),
    )
    both(
        "pad/small-float/replicate-3d",
        lambda T, x: F(T).pad(x, (1, 0, 0, 1, 1, 0), mode="replicate"),
        r(1, 1, 2, 2, 2, seed=170),
    )
    both("pixel_shuffle/small-float/basic", lambda T, x: F(T).pixel_shuffle(x, 2), r(1, 4, 2, 2, seed=171))
    both(
        "grid_sampler_2d/small-float/bilinear",
        lambda T, x, g: F(T).grid_sample(x, g, align_corners=False),
        r(1, 2, 3, 3, seed=172),
        r(1, 2, 2, 2, seed=173, lo=-0.9, hi=0.9),
    )
    both("im2col/small-float/unfold", lambda T, x: F(T).unfold(x, 2, padding=1), r(1, 2, 3, 3, seed=174))
    both("col2im/small-float/fold", lambda T, x: F(T).fold(x, (3, 3), 2), r(1, 8, 4, seed=175))


def _register_embeddings_attention() -> None:
    both(
        "embedding/small-float/padding-idx",
        lambda T, w, i: F(T).embedding(i, w, padding_idx=1),
        r(4, 3, seed=180),
        longs([[0, 1, 3], [3, 3, 2]]),
    )
    for mode in ("sum", "mean", "max"):
        both(
            f"embedding_bag/small-float/{mode}",
            lambda T, w, i, o, m=mode: F(T).embedding_bag(i, w, o, mode=m),
            r(5, 3, seed=181),
            longs([0, 2, 4, 2, 1, 3]),
            longs([0, 2, 5]),
        )
    both(
        "embedding_bag/small-float/per-sample-weights",
        lambda T, w, i, o, p: F(T).embedding_bag(i, w, o, mode="sum", per_sample_weights=p),
        r(5, 3, seed=182),
        longs([0, 2, 4, 2]),
        longs([0, 1]),
        r(4, seed=183),
    )
    both(
        "scaled_dot_product_attention/small-float/basic",
        lambda T, q, k, v: F(T).scaled_dot_product_attention(q, k, v),
        r(1, 2, 3, 4, seed=184),
        r(1, 2, 3, 4, seed=185),
        r(1, 2, 3, 4, seed=186),
    )
    both(
        "scaled_dot_product_attention/small-float/mask",
        lambda T, q, k, v, m: F(T).scaled_dot_product_attention(q, k, v, attn_mask=m),
        r(1, 3, 4, seed=187),
        r(1, 3, 4, seed=188),
        r(1, 3, 4, seed=189),
        r(3, 3, seed=190, grad=False),
    )
    both(
        "lstm_cell/small-float/basic",
        lambda T, x, h, c, wi, wh, bi, bh: T.lstm_cell(x, [h, c], wi, wh, bi, bh),
        r(2, 3, seed=191),
        r(2, 2, seed=192),
        r(2, 2, seed=193),
        r(8, 3, seed=194),
        r(8, 2, seed=195),
        r(8, seed=196),
        r(8, seed=197),
    )


def _register_reductions_and_indexing() -> None:
    both("var/small-float/dim", lambda T, x: T.var(x, 1), r(3, 5, seed=200))
    both("std/small-float/all", lambda T, x: T.std(x), r(3, 5, seed=201))
    both("var_mean/small-float/dim", lambda T, x: T.var_mean(x, 0, correction=0), r(3, 5, seed=202))
    both("std_mean/small-float/dim", lambda T, x: T.std_mean(x, 1), r(3, 5, seed=203))
    both("cumprod/small-float/grad", lambda T, x: T.cumprod(x, 0), r(5, seed=204, lo=0.5, hi=1.5))
    both("sort/small-float/grad", lambda T, x: T.sort(x, 1), r(2, 5, seed=205))
    both("topk/small-float/grad", lambda T, x: T.topk(x, 2), r(2, 5, seed=206))
    both("kthvalue/small-float/grad", lambda T, x: T.kthvalue(x, 2, 1), r(2, 5, seed=207))
    both("cummax/small-float/grad", lambda T, x: T.cummax(x, 0), r(6, seed=208))
    both(
        "index_add/small-float/repeated",
        lambda T, s, i, x: T.index_add(s, 0, i, x, alpha=0.5),
        r(3, 2, seed=209),
        longs([0, 2, 0, 0]),
        r(4, 2, seed=210),
    )
    both(
        "scatter_add/small-float/repeated",
        lambda T, s, i, x: T.scatter_add(s, 1, i, x),
        r(2, 3, seed=211),
        longs([[0, 0, 2], [1, 1, 1]]),
        r(2, 3, seed=212),
    )
    both("linalg_vector_norm/small-float/ord-2", lambda T, x: T.linalg.vector_norm(x, 2, 1), r(3, 4, seed=213))
    both("norm/small-float/p-3", lambda T, x: T.norm(x, 3, 0), r(3, 4, seed=214))
    both(
        "cosine_similarity/small-float/basic",
        lambda T, a, b: F(T).cosine_similarity(a, b),
        r(3, 4, seed=215),
        r(3, 4, seed=216),
    )
    both(
        "pairwise_distance/small-float/basic",
        lambda T, a, b: F(T).pairwise_distance(a, b),
        r(3, 4, seed=217),
        r(3, 4, seed=218),
    )
    both("native_dropout/small-float/eval", lambda T, x: F(T).dropout(x, 0.5, training=False), r(4, seed=219))


def _register_refusals() -> None:
    # PyTorch 2.13's CPU kernels without a 16-bit instance: gradgen refuses them in PyTorch's words.
    refused = {
        "avg_pool3d": lambda T, x: F(T).avg_pool3d(x.reshape([1, 1, 2, 2, 4]), 2),
        "multilabel_margin_loss": lambda T, x: F(T).multilabel_margin_loss(
            x.reshape([2, 8]), T.zeros([2, 8], dtype=T.int64)
        ),
        "cdist": lambda T, x: T.cdist(x.reshape([4, 4]), x.reshape([4, 4])),
        "linalg_det": lambda T, x: T.linalg.det(x.reshape([4, 4])),
        "linalg_slogdet": lambda T, x: T.linalg.slogdet(x.reshape([4, 4])),
        "logdet": lambda T, x: T.logdet(x.reshape([4, 4])),
        "linalg_inv": lambda T, x: T.linalg.inv(x.reshape([4, 4])),
        "linalg_solve": lambda T, x: T.linalg.solve(x.reshape([4, 4]), x.reshape([4, 4])),
        "linalg_cholesky": lambda T, x: T.linalg.cholesky(x.reshape([4, 4])),
        "linalg_qr": lambda T, x: T.linalg.qr(x.reshape([4, 4])),
        "linalg_svd": lambda T, x: T.linalg.svd(x.reshape([4, 4])),
        "linalg_eigh": lambda T, x: T.linalg.eigh(x.reshape([4, 4])),
    }
    for name, call in refused.items():
        both(f"{name}/small-float/refused", error_message(call), r(16, seed=230, grad=False))


def _register_python_numbers() -> None:
    # A Python number beside a float16 / bfloat16 tensor: PyTorch's add and sub kernels read it
    # converted to the tensor's dtype, mul and div at float precision; 0.3 + 0.1 in float16 is a
    # tie that the two readings round differently.
    def values(dtype):
        return D([0.3, 1.0, 3.0, 1000.0, 0.7, -2.5], dtype, grad=False)

    numbers = {
        "add": lambda T, x: x + 0.1,
        "radd": lambda T, x: 0.1 + x,
        "sub": lambda T, x: x - 0.1,
        "rsub": lambda T, x: 0.1 - x,
        "mul": lambda T, x: x * 0.1,
        "rmul": lambda T, x: 0.1 * x,
        "div": lambda T, x: x / 0.1,
        "rdiv": lambda T, x: 0.1 / x,
        "iadd": lambda T, x: x.clone().__iadd__(0.1),
    }
    for name, fn in numbers.items():
        both(f"python-number/{name}/small-float", fn, values)


_register_python_numbers()
_register_products()
_register_convolutions()
_register_pooling()
_register_normalization()
_register_softmax()
_register_activations()
_register_losses()
_register_resampling()
_register_embeddings_attention()
_register_reductions_and_indexing()
_register_refusals()
