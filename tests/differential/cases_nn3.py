"""Differential cases of torch.nn.functional's calls gradgen.nn.functional gained in nnextra26:
the in-place activations (F.elu_, inplace=True, ...), compositions of torch/nn/functional.py
(normalize, softsign, softmin, local_response_norm, bilinear, pdist, affine_grid, upsample),
rrelu / dropout2d / dropout3d / alpha_dropout / feature_alpha_dropout where deterministic (eval,
p = 0 or 1), the losses (multi_margin, multilabel_soft_margin, triplet_margin_with_distance,
poisson_nll, gaussian_nll, hinge_embedding), adaptive 3-D pooling, interpolate's nearest-exact
mode and embedding's max_norm. Values, gradients (second ones where the ops have them), dtypes
and error types against PyTorch's.

Imported by cases.py (at its end), with whose `case` and input makers they register (same rules:
names unique and stable, expected.json regenerated with run_torch.py).
"""

from __future__ import annotations

from cases import D, L, P, R, case, error_message  # cases.py imports this module once they are defined


def _F(T):
    return T.nn.functional


def _inplace_activations() -> None:
    # Named by the op each call reaches (gradgen's declaration; torch._C._nn's or torch's op).
    calls = {
        "relu_/F.relu_": lambda F, y: F.relu_(y),
        "elu_/F.elu_": lambda F, y: F.elu_(y, 0.7),
        "celu_/F.celu_": lambda F, y: F.celu_(y, 1.5),
        "selu_/F.selu_": lambda F, y: F.selu_(y),
        "leaky_relu_/F.leaky_relu_": lambda F, y: F.leaky_relu_(y, 0.2),
        "hardtanh_/F.hardtanh_": lambda F, y: F.hardtanh_(y, -0.5, 0.6),
        "threshold_/F.threshold_": lambda F, y: F.threshold_(y, 0.1, 2.0),
        "leaky_relu_/F.rrelu_-eval": lambda F, y: F.rrelu_(y, 0.1, 0.3),
        "elu_/F.elu-inplace": lambda F, y: F.elu(y, inplace=True),
        "silu_/F.silu-inplace": lambda F, y: F.silu(y, inplace=True),
        "mish_/F.mish-inplace": lambda F, y: F.mish(y, inplace=True),
        "celu_/F.celu-inplace": lambda F, y: F.celu(y, 0.5, inplace=True),
        "selu_/F.selu-inplace": lambda F, y: F.selu(y, inplace=True),
        "relu_/F.relu-inplace": lambda F, y: F.relu(y, inplace=True),
        "hardtanh_/F.relu6-inplace": lambda F, y: F.relu6(y * 8, inplace=True),
        "leaky_relu_/F.leaky_relu-inplace": lambda F, y: F.leaky_relu(y, inplace=True),
        "hardtanh_/F.hardtanh-inplace": lambda F, y: F.hardtanh(y, inplace=True),
        "hardsigmoid_/F.hardsigmoid-inplace": lambda F, y: F.hardsigmoid(y * 4, inplace=True),
        "hardswish_/F.hardswish-inplace": lambda F, y: F.hardswish(y * 4, inplace=True),
        "threshold_/F.threshold-inplace": lambda F, y: F.threshold(y, 0.2, -1.0, inplace=True),
        "leaky_relu_/F.rrelu-inplace-eval": lambda F, y: F.rrelu(y, inplace=True),
    }
    for name, call in calls.items():
        case(
            name,
            lambda T, x, call=call: call(_F(T), x.clone()),
            R(2, 5, seed=3101),
            # PyTorch has no derivative of hardsigmoid_backward (gradgen has).
            second="hardsigmoid" not in name,
        )
        case(
            name + "/float32",
            lambda T, x, call=call: call(_F(T), x.clone()),
            R(7, seed=3102, dtype="float32"),
        )
    # The in-place result's version check: using the input's old value after the op fails.
    case(
        "elu_/saved-input-modified-error",
        lambda T, x: _saved_then_modified(T, x),
        R(4, seed=3103),
    )
    case(
        "leaky_relu_/leaf-error",
        lambda T, x: _F(T).leaky_relu_(x),
        R(4, seed=3104),
    )
    case("hardtanh_/long", lambda T, x: _F(T).hardtanh_(x.clone(), -1, 2), L([-3, -1, 0, 2, 5]))
    case("threshold_/long", lambda T, x: _F(T).threshold_(x.clone(), 0, 7), L([-3, -1, 0, 2, 5]))


def _saved_then_modified(T, x):
    y = x * 1.0
    z = T.sin(y)  # saves y
    _F(T).elu_(y)
    (g,) = T.autograd.grad(z.sum(), [x])
    return g


def _activations() -> None:
    case("nn3/softsign", lambda T, x: _F(T).softsign(x), R(3, 4, seed=3111), second=True)
    case("nn3/softmin", lambda T, x: _F(T).softmin(x, dim=1), R(3, 4, seed=3112), second=True)
    case("nn3/softmin/dtype", lambda T, x: _F(T).softmin(x, 0, dtype=T.float64), R(3, 4, seed=3113, dtype="float32"))
    case("nn3/rrelu/eval", lambda T, x: _F(T).rrelu(x), R(3, 4, seed=3114), second=True)
    case("nn3/rrelu/eval-bounds", lambda T, x: _F(T).rrelu(x, 0.2, 0.5, training=False), R(6, seed=3115))
    case("nn3/rrelu/bounds-error", lambda T, x: _F(T).rrelu(x, 0.5, 0.1, training=True), R(6, seed=3116))
    case("nn3/rrelu/train-shape", lambda T, x: T.tensor(list(_F(T).rrelu(x, training=True).shape)), R(2, 3, seed=3117))
    for name in ["dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"]:
        shape = (2, 3, 2, 2, 2) if name == "dropout3d" else (2, 3, 2, 2)
        case(
            "nn3/%s/eval" % name,
            lambda T, x, name=name: getattr(_F(T), name)(x, 0.5, training=False),
            R(*shape, seed=3118),
        )
        case(
            "nn3/%s/p0" % name,
            lambda T, x, name=name: getattr(_F(T), name)(x, 0.0, training=True),
            R(*shape, seed=3119),
        )
        case(
            "nn3/%s/p1" % name,
            lambda T, x, name=name: getattr(_F(T), name)(x, 1.0, training=True),
            R(*shape, seed=3120),
        )
        case(
            "nn3/%s/p-error" % name,
            error_message(lambda T, x, name=name: getattr(_F(T), name)(x, 1.5)),
            R(*shape, seed=3121),
        )
        case(
            "nn3/%s/train-shape" % name,
            lambda T, x, name=name: T.tensor(list(getattr(_F(T), name)(x, 0.5, training=True).shape)),
            R(*shape, seed=3122),
        )
    case("nn3/dropout2d/1d-error", error_message(lambda T, x: _F(T).dropout2d(x, 0.5)), R(4, seed=3123))
    case("nn3/dropout3d/unbatched-p1", lambda T, x: _F(T).dropout3d(x, 1.0), R(3, 2, 2, 2, seed=3124))
    case(
        "nn3/feature_alpha_dropout/1d-error",
        error_message(lambda T, x: _F(T).feature_alpha_dropout(x, 0.5, True)),
        R(4, seed=3125),
    )
    case(
        "nn3/gumbel_softmax/shape",
        lambda T, x: T.tensor(list(_F(T).gumbel_softmax(x, tau=0.5, hard=True).shape)),
        R(3, 4, seed=3126),
    )


def _compositions() -> None:
    F = _F
    case("nn3/normalize", lambda T, x: F(T).normalize(x, dim=1), R(3, 4, seed=3131), second=True)
    case("nn3/normalize/p1-dim0", lambda T, x: F(T).normalize(x, p=1.0, dim=0), R(3, 4, seed=3132), second=True)
    case("nn3/normalize/eps", lambda T, x: F(T).normalize(x * 1e-3, eps=0.5), R(2, 3, seed=3133))
    case("nn3/normalize/float32", lambda T, x: F(T).normalize(x, dim=-1), R(2, 3, seed=3134, dtype="float32"))
    case("nn3/local_response_norm/3d", lambda T, x: F(T).local_response_norm(x, 2), R(2, 5, 3, seed=3135), second=True)
    case(
        "nn3/local_response_norm/4d",
        lambda T, x: F(T).local_response_norm(x, 3, alpha=0.1, beta=0.6, k=2.0),
        R(2, 4, 3, 2, seed=3136),
        second=True,
    )
    case("nn3/local_response_norm/5d", lambda T, x: F(T).local_response_norm(x, 4), R(1, 5, 2, 2, 2, seed=3137))
    case("nn3/local_response_norm/2d-error", lambda T, x: F(T).local_response_norm(x, 2), R(3, 4, seed=3138))
    case(
        "nn3/bilinear",
        lambda T, a, b, w, c: F(T).bilinear(a, b, w, c),
        R(2, 3, seed=3139),
        R(2, 4, seed=3140),
        R(5, 3, 4, seed=3141),
        R(5, seed=3142),
        second=True,
    )
    case(
        "nn3/bilinear/batched-nobias",
        lambda T, a, b, w: F(T).bilinear(a, b, w),
        R(2, 3, 3, seed=3143),
        R(2, 3, 2, seed=3144),
        R(4, 3, 2, seed=3145),
    )
    case(
        "nn3/bilinear/size-error",
        error_message(lambda T, a, b, w: F(T).bilinear(a, b, w)),
        R(2, 3, seed=3146),
        R(2, 4, seed=3147),
        R(5, 4, 4, seed=3148),
    )
    case(
        "nn3/bilinear/dims-error",
        error_message(lambda T, a, b, w: F(T).bilinear(a, b, w)),
        R(2, 3, seed=3146),
        R(4, seed=3147),
        R(5, 3, 4, seed=3148),
    )
    # No second derivatives: PyTorch's _pdist_backward has none (gradgen's composition has).
    case("nn3/pdist", lambda T, x: F(T).pdist(x), R(4, 3, seed=3149))
    case("nn3/pdist/p1", lambda T, x: F(T).pdist(x, 1.0), R(4, 3, seed=3150))
    case("nn3/pdist/p3", lambda T, x: F(T).pdist(x, 3.0), R(5, 2, seed=3151))
    case("nn3/pdist/one-row", lambda T, x: F(T).pdist(x), R(1, 3, seed=3152))
    case("nn3/pdist/1d-error", error_message(lambda T, x: F(T).pdist(x)), R(4, seed=3153))
    case("nn3/pdist/negative-p-error", error_message(lambda T, x: F(T).pdist(x, -1.0)), R(3, 2, seed=3154))
    for ac in (False, True):
        case(
            "nn3/affine_grid/2d/align%d" % ac,
            lambda T, t, ac=ac: F(T).affine_grid(t, [2, 1, 3, 4], align_corners=ac),
            R(2, 2, 3, seed=3155),
        )
        case(
            "nn3/affine_grid/3d/align%d" % ac,
            lambda T, t, ac=ac: F(T).affine_grid(t, [1, 2, 2, 3, 4], align_corners=ac),
            R(1, 3, 4, seed=3156),
        )
        case(
            "nn3/affine_grid/unit/align%d" % ac,
            lambda T, t, ac=ac: F(T).affine_grid(t, [1, 1, 1, 3], align_corners=ac),
            R(1, 2, 3, seed=3157),
        )
    case(
        "nn3/affine_grid/float32",
        lambda T, t: F(T).affine_grid(t, (1, 1, 2, 2), align_corners=False),
        R(1, 2, 3, seed=3158, dtype="float32"),
    )
    case(
        "nn3/affine_grid/theta-shape-error",
        lambda T, t: F(T).affine_grid(t, [1, 1, 2, 2], align_corners=False),
        R(1, 3, 3, seed=3159),
    )
    case(
        "nn3/affine_grid/empty-size-error",
        error_message(lambda T, t: F(T).affine_grid(t, [1, 1, 0, 2], align_corners=False)),
        R(1, 2, 3, seed=3160),
    )
    case(
        "nn3/affine_grid/integer-theta-error",
        lambda T, t: F(T).affine_grid(t, [1, 1, 2, 2], align_corners=False),
        L([[[1, 0, 0], [0, 1, 0]]]),
    )
    case("nn3/upsample", lambda T, x: F(T).upsample(x, scale_factor=2, mode="nearest"), R(1, 2, 2, 3, seed=3161))
    case(
        "nn3/upsample/bilinear",
        lambda T, x: F(T).upsample(x, size=(3, 5), mode="bilinear", align_corners=True),
        R(1, 2, 2, 3, seed=3162),
    )


def _losses() -> None:
    F = _F
    target = [1, 3, 0]
    for p in (1, 2):
        for reduction in ("none", "mean", "sum"):
            case(
                "nn3/multi_margin_loss/p%d/%s" % (p, reduction),
                lambda T, x, t, w, p=p, reduction=reduction: F(T).multi_margin_loss(
                    x, t, p=p, margin=0.7, weight=w, reduction=reduction
                ),
                R(3, 4, seed=3170 + p),
                L(target),
                D([0.5, 1.0, 2.0, 1.5], grad=False),
            )
    case("nn3/multi_margin_loss/default", lambda T, x, t: F(T).multi_margin_loss(x, t), R(3, 4, seed=3173), L(target))
    case("nn3/multi_margin_loss/1d", lambda T, x, t: F(T).multi_margin_loss(x, t), R(4, seed=3174), L([2]))
    case(
        "nn3/multi_margin_loss/1d-none",
        lambda T, x, t: F(T).multi_margin_loss(x, t, reduction="none"),
        R(4, seed=3175),
        L(2),
    )
    case(
        "nn3/multi_margin_loss/empty-batch", lambda T, x, t: F(T).multi_margin_loss(x.reshape([0, 4]), t), D([]), L([])
    )
    case(
        "nn3/multi_margin_loss/target-range-error",
        lambda T, x, t: F(T).multi_margin_loss(x, t),
        R(3, 4, seed=3176),
        L([1, 4, 0]),
    )
    case(
        "nn3/multi_margin_loss/target-size-error",
        error_message(lambda T, x, t: F(T).multi_margin_loss(x, t)),
        R(3, 4, seed=3177),
        L([1, 3]),
    )
    case(
        "nn3/multi_margin_loss/p3-error",
        error_message(lambda T, x, t: F(T).multi_margin_loss(x, t, p=3)),
        R(3, 4, seed=3178),
        L(target),
    )
    case(
        "nn3/multi_margin_loss/weight-grad-error",
        lambda T, x, t, w: F(T).multi_margin_loss(x, t, weight=w),
        R(3, 4, seed=3179),
        L(target),
        P(4, seed=3180),
    )
    labels = [[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0]]
    case(
        "nn3/multilabel_soft_margin_loss",
        lambda T, x, t: F(T).multilabel_soft_margin_loss(x, t),
        R(3, 4, seed=3181),
        D(labels, grad=False),
        second=True,
    )
    case(
        "nn3/multilabel_soft_margin_loss/weight-none",
        lambda T, x, t, w: F(T).multilabel_soft_margin_loss(x, t, w, reduction="none"),
        R(3, 4, seed=3182),
        D(labels, grad=False),
        P(4, seed=3183),
    )
    case(
        "nn3/multilabel_soft_margin_loss/reduction-error",
        error_message(lambda T, x, t: F(T).multilabel_soft_margin_loss(x, t, reduction="avg")),
        R(3, 4, seed=3184),
        D(labels, grad=False),
    )
    case(
        "nn3/triplet_margin_with_distance_loss",
        lambda T, a, p, n: F(T).triplet_margin_with_distance_loss(a, p, n),
        R(3, 4, seed=3185),
        R(3, 4, seed=3186),
        R(3, 4, seed=3187),
    )
    case(
        "nn3/triplet_margin_with_distance_loss/swap-none",
        lambda T, a, p, n: F(T).triplet_margin_with_distance_loss(a, p, n, swap=True, margin=2.0, reduction="none"),
        R(3, 4, seed=3188),
        R(3, 4, seed=3189),
        R(3, 4, seed=3190),
    )
    case(
        "nn3/triplet_margin_with_distance_loss/cosine",
        lambda T, a, p, n: F(T).triplet_margin_with_distance_loss(
            a, p, n, distance_function=lambda x, y: 1.0 - F(T).cosine_similarity(x, y), reduction="sum"
        ),
        R(3, 4, seed=3191),
        R(3, 4, seed=3192),
        R(3, 4, seed=3193),
    )
    case(
        "nn3/triplet_margin_with_distance_loss/margin-error",
        error_message(lambda T, a, p, n: F(T).triplet_margin_with_distance_loss(a, p, n, margin=0.0)),
        R(3, 4, seed=3194),
        R(3, 4, seed=3195),
        R(3, 4, seed=3196),
    )
    case(
        "nn3/triplet_margin_with_distance_loss/dims-error",
        error_message(lambda T, a, p, n: F(T).triplet_margin_with_distance_loss(a, p, n)),
        R(3, 4, seed=3194),
        R(4, seed=3195),
        R(3, 4, seed=3196),
    )
    counts = [[0.0, 1.0, 2.5, 4.0], [3.0, 0.5, 1.0, 7.0]]
    for log_input in (True, False):
        for full in (False, True):
            case(
                "nn3/poisson_nll_loss/log%d-full%d" % (log_input, full),
                lambda T, x, t, log_input=log_input, full=full: F(T).poisson_nll_loss(
                    x, t, log_input=log_input, full=full
                ),
                P(2, 4, seed=3200),
                D(counts, grad=False),
                second=True,
            )
    case(
        "nn3/poisson_nll_loss/eps-none",
        lambda T, x, t: F(T).poisson_nll_loss(x, t, log_input=False, eps=0.1, reduction="none"),
        P(2, 4, seed=3201),
        D(counts, grad=False),
    )
    case(
        "nn3/poisson_nll_loss/sum-float32",
        lambda T, x, t: F(T).poisson_nll_loss(x, t, reduction="sum"),
        R(2, 4, seed=3202, dtype="float32"),
        D(counts, dtype="float32", grad=False),
    )
    case(
        "nn3/poisson_nll_loss/reduction-error",
        error_message(lambda T, x, t: F(T).poisson_nll_loss(x, t, reduction="avg")),
        R(2, 4, seed=3203),
        D(counts, grad=False),
    )
    for var_name, var in {
        "same": P(3, 4, seed=3204),
        "short": P(3, seed=3205),
        "one-dim": P(3, 1, seed=3206),
        "row": P(1, 4, seed=3207),
    }.items():
        case(
            "nn3/gaussian_nll_loss/" + var_name,
            lambda T, x, t, v: F(T).gaussian_nll_loss(x, t, v),
            R(3, 4, seed=3208),
            R(3, 4, seed=3209),
            var,
            second=True,
        )
    case(
        "nn3/gaussian_nll_loss/full-none",
        lambda T, x, t, v: F(T).gaussian_nll_loss(x, t, v, full=True, eps=0.6, reduction="none"),
        R(3, 4, seed=3210),
        R(3, 4, seed=3211),
        P(3, 4, seed=3212),
    )
    case(
        "nn3/gaussian_nll_loss/float-var",
        lambda T, x, t: F(T).gaussian_nll_loss(x, t, 0.5, reduction="sum"),
        R(3, 4, seed=3213),
        R(3, 4, seed=3214),
    )
    case(
        "nn3/gaussian_nll_loss/size-error",
        error_message(lambda T, x, t, v: F(T).gaussian_nll_loss(x, t, v)),
        R(3, 4, seed=3215),
        R(3, 4, seed=3216),
        P(2, 1, seed=3217),
    )
    case(
        "nn3/gaussian_nll_loss/negative-error",
        error_message(lambda T, x, t, v: F(T).gaussian_nll_loss(x, t, v)),
        R(3, 4, seed=3218),
        R(3, 4, seed=3219),
        R(3, 4, seed=3220),
    )
    signs = [[1.0, -1.0, 1.0, -1.0], [-1.0, -1.0, 1.0, 1.0]]
    case(
        "nn3/hinge_embedding_loss",
        lambda T, x, y: F(T).hinge_embedding_loss(x, y),
        R(2, 4, seed=3221),
        D(signs, grad=False),
    )
    case(
        "nn3/hinge_embedding_loss/margin-none",
        lambda T, x, y: F(T).hinge_embedding_loss(x, y, margin=0.3, reduction="none"),
        R(2, 4, seed=3222),
        D(signs, grad=False),
    )
    case(
        "nn3/hinge_embedding_loss/sum",
        lambda T, x, y: F(T).hinge_embedding_loss(x, y, reduction="sum"),
        R(2, 4, seed=3223),
        D(signs, grad=False),
    )


def _pooling_resampling_embedding() -> None:
    F = _F
    case(
        "nn3/adaptive_avg_pool3d",
        lambda T, x: F(T).adaptive_avg_pool3d(x, (2, 3, 2)),
        R(2, 2, 5, 4, 3, seed=3231),
        second=True,
    )
    case(
        "nn3/adaptive_avg_pool3d/unbatched-none",
        lambda T, x: F(T).adaptive_avg_pool3d(x, (3, None, 2)),
        R(2, 5, 4, 3, seed=3232),
    )
    case("nn3/adaptive_avg_pool3d/int", lambda T, x: F(T).adaptive_avg_pool3d(x, 2), R(1, 1, 3, 3, 3, seed=3233))
    case("nn3/adaptive_max_pool3d", lambda T, x: F(T).adaptive_max_pool3d(x, (2, 3, 2)), R(2, 2, 5, 4, 3, seed=3234))
    case(
        "nn3/adaptive_max_pool3d/indices",
        lambda T, x: F(T).adaptive_max_pool3d(x, 2, return_indices=True),
        R(3, 5, 4, 3, seed=3235),
    )
    ties = [[[[float((d * 7 + h * 3 + w) % 4) for w in range(5)] for h in range(4)] for d in range(3)]]
    case(
        "nn3/adaptive_max_pool3d/ties-indices",
        lambda T, x: F(T).adaptive_max_pool3d(x, (2, 3, 2), return_indices=True),
        D([ties]),
    )
    case(
        "nn3/adaptive_max_pool3d/nan",
        lambda T, x: F(T).adaptive_max_pool3d(x, 1, return_indices=True),
        D([[[[1.0, float("nan")], [2.0, 3.0]]]], grad=False),
    )
    case("nn3/adaptive_max_pool3d/3d-error", lambda T, x: F(T).adaptive_max_pool3d(x, 2), R(3, 4, 3, seed=3236))
    for shape, size in (((2, 3, 5), (7,)), ((2, 3, 5, 4), (7, 3)), ((1, 2, 3, 4, 5), (4, 7, 2))):
        k = len(shape)
        case(
            "nn3/interpolate/nearest-exact/%dd" % k,
            lambda T, x, size=size: F(T).interpolate(x, size=size, mode="nearest-exact"),
            R(*shape, seed=3237 + k),
        )
        case(
            "nn3/interpolate/nearest-exact/%dd-scale" % k,
            lambda T, x, k=k: F(T).interpolate(x, scale_factor=[1.7] * (k - 2), mode="nearest-exact"),
            R(*shape, seed=3241 + k),
        )
    case(
        "nn3/interpolate/area/5d",
        lambda T, x: F(T).interpolate(x, size=(2, 3, 2), mode="area"),
        R(1, 2, 3, 4, 5, seed=3247),
    )

    def embed_renorm(T, w, i, max_norm, norm_type):
        w = w.detach().clone()
        out = F(T).embedding(i, w, max_norm=max_norm, norm_type=norm_type)
        return out, w

    weight = [[3.0, 4.0], [0.3, 0.4], [6.0, 8.0], [-1.0, 2.0]]
    case("nn3/embedding/max_norm", lambda T, w, i: embed_renorm(T, w, i, 1.0, 2.0), D(weight), L([[0, 2], [2, 1]]))
    case("nn3/embedding/max_norm-p1", lambda T, w, i: embed_renorm(T, w, i, 2.5, 1.0), D(weight), L([3, 2, 0]))

    def bag_renorm(T, w, i):
        w = w.detach().clone()
        out = F(T).embedding_bag(i, w, max_norm=2.0, mode="sum")
        return out, w

    case("nn3/embedding_bag/max_norm", bag_renorm, D(weight), L([[0, 2], [3, 1]]))


_inplace_activations()
_activations()
_compositions()
_losses()
_pooling_resampling_embedding()
