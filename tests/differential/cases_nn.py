"""Differential cases of the remaining nn ops (issue 26): 1-D linear, bicubic and 3-D resampling;
3-D reflection and replication padding; 3-D pooling and max_unpool2d; im2col / col2im;
scaled_dot_product_attention; embedding_bag.

Imported by cases.py (at its end), with whose `case` and input makers they register (same rules:
names unique and stable, expected.json regenerated with run_torch.py).
"""

from __future__ import annotations

from cases import NAN, B, D, L, R, case  # cases.py imports this module once they are defined


def _resampling() -> None:
    linear = [
        ("up", (2, 3, 4), [7], False, None),
        ("up-align-corners", (2, 3, 4), [7], True, None),
        ("down", (1, 2, 7), [3], False, None),
        ("down-align-corners", (1, 2, 7), [3], True, None),
        ("scales", (1, 1, 3), [7], False, 2.5),
        ("same", (1, 2, 4), [4], False, None),
        ("to-one-align-corners", (1, 1, 4), [1], True, None),
    ]
    for label, shape, size, ac, sc in linear:
        case(
            f"upsample_linear1d/{label}",
            lambda T, x, size=size, ac=ac, sc=sc: T.upsample_linear1d(x, size, ac, sc),
            R(*shape, seed=2600),
            second=True,
        )
    case(
        "upsample_linear1d/transposed",
        lambda T, x: T.upsample_linear1d(x.transpose(1, 2), [5], False, None),
        R(1, 3, 2, seed=2601),
        second=True,
    )
    case(
        "upsample_linear1d/expanded",
        lambda T, x: T.upsample_linear1d(x.expand([3, 2, 3]), [5], True, None),
        R(1, 2, 3, seed=2602),
    )
    case(
        "upsample_linear1d/float32",
        lambda T, x: T.upsample_linear1d(x, [5], False, None),
        R(1, 2, 3, seed=2603, dtype="float32"),
    )
    case(
        "upsample_linear1d/empty-batch", lambda T, x: T.upsample_linear1d(x.reshape([0, 2, 3]), [5], False, None), D([])
    )
    case("upsample_linear1d/dims-error", lambda T, x: T.upsample_linear1d(x, [5], False, None), R(2, 3))
    case("upsample_linear1d/zero-size-error", lambda T, x: T.upsample_linear1d(x, [0], False, None), R(1, 2, 3))
    case(
        "upsample_linear1d_backward/up",
        lambda T, g: T.upsample_linear1d_backward(g, [7], [2, 3, 4], False, None),
        R(2, 3, 7, seed=2604),
        second=True,
    )
    case(
        "upsample_linear1d_backward/align-corners",
        lambda T, g: T.upsample_linear1d_backward(g, [3], [1, 1, 5], True, None),
        R(1, 1, 3, seed=2605),
        second=True,
    )

    bicubic = [
        ("up", (1, 2, 3, 4), [5, 7], False, None, None),
        ("up-align-corners", (1, 2, 3, 4), [5, 7], True, None, None),
        ("down", (2, 1, 6, 5), [3, 2], False, None, None),
        ("down-align-corners", (2, 1, 6, 5), [3, 2], True, None, None),
        ("scales", (1, 1, 2, 3), [3, 6], False, 1.5, 2.0),
        ("one-by-one-align-corners", (1, 1, 3, 3), [1, 1], True, None, None),
        ("one-by-one", (1, 1, 3, 3), [1, 1], False, None, None),
        ("same-size", (1, 1, 3, 2), [3, 2], False, None, None),
        ("single-pixel", (1, 2, 1, 1), [3, 4], False, None, None),
    ]
    for label, shape, size, ac, sh, sw in bicubic:
        case(
            f"upsample_bicubic2d/{label}",
            lambda T, x, size=size, ac=ac, sh=sh, sw=sw: T.upsample_bicubic2d(x, size, ac, sh, sw),
            R(*shape, seed=2606),
            second=True,
        )
    case(
        "upsample_bicubic2d/transposed",
        lambda T, x: T.upsample_bicubic2d(x.transpose(2, 3), [4, 5], False, None, None),
        R(1, 2, 3, 2, seed=2607),
        second=True,
    )
    case(
        "upsample_bicubic2d/expanded",
        lambda T, x: T.upsample_bicubic2d(x.expand([2, 2, 2, 3]), [3, 4], True, None, None),
        R(1, 2, 2, 3, seed=2608),
    )
    case(
        "upsample_bicubic2d/float32",
        lambda T, x: T.upsample_bicubic2d(x, [5, 3], False, None, None),
        R(1, 2, 3, 2, seed=2609, dtype="float32"),
    )
    case(
        "upsample_bicubic2d/empty-batch",
        lambda T, x: T.upsample_bicubic2d(x.reshape([0, 1, 2, 2]), [4, 4], False, None, None),
        D([]),
    )
    case("upsample_bicubic2d/size-error", lambda T, x: T.upsample_bicubic2d(x, [4], False, None, None), R(1, 1, 2, 2))
    case("upsample_bicubic2d/dims-error", lambda T, x: T.upsample_bicubic2d(x, [4, 4], False, None, None), R(1, 2, 2))
    case(
        "upsample_bicubic2d_backward/up",
        lambda T, g: T.upsample_bicubic2d_backward(g, [5, 7], [1, 2, 3, 4], False, None, None),
        R(1, 2, 5, 7, seed=2610),
        second=True,
    )
    case(
        "upsample_bicubic2d_backward/align-corners",
        lambda T, g: T.upsample_bicubic2d_backward(g, [4, 5], [1, 1, 3, 3], True, None, None),
        R(1, 1, 4, 5, seed=2611),
        second=True,
    )

    trilinear = [
        ("up", (1, 2, 2, 3, 2), [3, 4, 3], False, None, None, None),
        ("up-align-corners", (1, 2, 2, 3, 2), [3, 4, 3], True, None, None, None),
        ("down", (1, 1, 4, 3, 5), [2, 2, 3], False, None, None, None),
        ("down-align-corners", (1, 1, 4, 3, 5), [2, 2, 3], True, None, None, None),
        ("scales", (1, 1, 2, 2, 2), [3, 4, 2], False, 1.5, 2.0, 1.0),
        ("same-size", (1, 1, 2, 2, 3), [2, 2, 3], False, None, None, None),
    ]
    for label, shape, size, ac, sd, sh, sw in trilinear:
        case(
            f"upsample_trilinear3d/{label}",
            lambda T, x, size=size, ac=ac, sd=sd, sh=sh, sw=sw: T.upsample_trilinear3d(x, size, ac, sd, sh, sw),
            R(*shape, seed=2612),
            second=True,
        )
    case(
        "upsample_trilinear3d/transposed",
        lambda T, x: T.upsample_trilinear3d(x.transpose(2, 4), [3, 3, 3], False, None, None, None),
        R(1, 1, 3, 2, 2, seed=2613),
        second=True,
    )
    case(
        "upsample_trilinear3d/float32",
        lambda T, x: T.upsample_trilinear3d(x, [3, 3, 3], False, None, None, None),
        R(1, 1, 2, 2, 2, seed=2614, dtype="float32"),
    )
    case(
        "upsample_trilinear3d/empty-batch",
        lambda T, x: T.upsample_trilinear3d(x.reshape([0, 1, 2, 2, 2]), [3, 3, 3], False, None, None, None),
        D([]),
    )
    case(
        "upsample_trilinear3d/dims-error",
        lambda T, x: T.upsample_trilinear3d(x, [3, 3, 3], False, None, None, None),
        R(1, 2, 2, 2),
    )
    case(
        "upsample_trilinear3d_backward/up",
        lambda T, g: T.upsample_trilinear3d_backward(g, [3, 4, 3], [1, 2, 2, 3, 2], False, None, None, None),
        R(1, 2, 3, 4, 3, seed=2615),
        second=True,
    )
    case(
        "upsample_trilinear3d_backward/align-corners",
        lambda T, g: T.upsample_trilinear3d_backward(g, [3, 2, 4], [1, 1, 2, 3, 3], True, None, None, None),
        R(1, 1, 3, 2, 4, seed=2616),
        second=True,
    )

    nearest = [
        ("up", (1, 2, 2, 3, 2), [3, 4, 4], None, None, None),
        ("down-scales", (2, 1, 4, 4, 3), [2, 3, 1], 0.5, 0.75, 0.4),
        ("double", (1, 1, 2, 2, 3), [4, 4, 6], None, None, None),
        ("odd", (1, 1, 3, 2, 5), [7, 3, 4], None, None, None),
    ]
    for label, shape, size, sd, sh, sw in nearest:
        case(
            f"upsample_nearest3d/{label}",
            lambda T, x, size=size, sd=sd, sh=sh, sw=sw: T.upsample_nearest3d(x, size, sd, sh, sw),
            R(*shape, seed=2617),
            second=True,
        )
    case(
        "upsample_nearest3d/expanded",
        lambda T, x: T.upsample_nearest3d(x.expand([2, 2, 2, 2, 2]), [3, 3, 3], None, None, None),
        R(1, 2, 2, 2, 2, seed=2618),
        second=True,
    )
    case(
        "upsample_nearest3d/empty-batch",
        lambda T, x: T.upsample_nearest3d(x.reshape([0, 1, 2, 2, 2]), [4, 4, 4], None, None, None),
        D([]),
    )
    case(
        "upsample_nearest3d/dims-error",
        lambda T, x: T.upsample_nearest3d(x, [4, 4, 4], None, None, None),
        R(1, 2, 2, 2),
    )
    case(
        "upsample_nearest3d_backward/up",
        lambda T, g: T.upsample_nearest3d_backward(g, [3, 4, 4], [1, 2, 2, 3, 2], None, None, None),
        R(1, 2, 3, 4, 4, seed=2619),
        second=True,
    )


def _padded3d(shape, pad):
    s = list(shape)
    for k in range(3):
        s[-1 - k] += pad[2 * k] + pad[2 * k + 1]
    return s


def _padding3d() -> None:
    pads = {
        "reflection_pad3d": [2, 1, 0, 2, 1, 1],
        "replication_pad3d": [3, 1, 2, 0, 0, 2],
    }
    unbatched, batched = (2, 2, 3, 3), (1, 2, 2, 3, 4)
    for op, pad in pads.items():

        def fwd(T, x, op=op, pad=pad, **kw):
            return getattr(T, op)(x, pad, **kw)

        def bwd(T, g, x, op=op, pad=pad, **kw):
            return getattr(T, op + "_backward")(g, x, pad, **kw)

        padded = _padded3d(unbatched, pad)
        case(f"{op}/unbatched", fwd, R(*unbatched, seed=2630), second=True)
        case(f"{op}/batched", fwd, R(*batched, seed=2631), second=True)
        case(f"{op}/float32", fwd, R(*unbatched, seed=2632, dtype="float32"))
        case(
            f"{op}/crop",
            lambda T, x, op=op: getattr(T, op)(x, [-1, 1, 1, 0, 0, -1]),
            R(*batched, seed=2633),
            second=True,
        )
        case(
            f"{op}/transposed",
            lambda T, x, fwd=fwd: fwd(T, x.transpose(2, 4)),
            R(1, 1, 3, 3, 3, seed=2634),
            second=True,
        )
        case(f"{op}/expanded", lambda T, x, fwd=fwd: fwd(T, x.expand([2, 2, 2, 3, 3])), R(1, 2, 2, 3, 3, seed=2635))
        case(f"{op}/empty-batch", lambda T, x, fwd=fwd: fwd(T, x.reshape([0, 1, 2, 3, 3])), D([]))
        case(f"{op}/3d-input-error", fwd, R(2, 3, 3))
        case(f"{op}/zero-size-error", lambda T, x, fwd=fwd: fwd(T, x.reshape([1, 0, 3, 3])), D([]))
        case(
            f"{op}.out/values",
            lambda T, x, fwd=fwd, padded=padded: fwd(T, x, out=T.zeros(padded, dtype=T.float64)),
            R(*unbatched, seed=2636, grad=False),
        )
        case(f"{op}_backward/unbatched", bwd, R(*padded, seed=2637), R(*unbatched, seed=2638), second=True)
        case(
            f"{op}_backward/batched",
            bwd,
            R(*_padded3d(batched, pad), seed=2639),
            R(*batched, seed=2640),
            second=True,
        )
        case(
            f"{op}_backward.grad_input/values",
            lambda T, g, x, bwd=bwd, s=list(unbatched): bwd(T, g, x, grad_input=T.zeros(s, dtype=T.float64)),
            R(*padded, seed=2641, grad=False),
            R(*unbatched, seed=2642, grad=False),
        )
    case(
        "reflection_pad3d/too-large-error",
        lambda T, x: T.reflection_pad3d(x, [0, 0, 0, 0, 2, 0]),
        R(1, 2, 3, 3),
    )
    case(
        "replication_pad3d/large",
        lambda T, x: T.replication_pad3d(x, [4, 3, 2, 3, 3, 2]),
        R(1, 1, 2, 2, 2, seed=2643),
        second=True,
    )
    modes = [
        ("reflect-3d", [1, 2, 2, 1, 1, 0], (1, 2, 3, 3, 3)),
        ("reflect-3d-unbatched", [1, 0, 0, 1, 1, 1], (2, 2, 3, 3)),
        ("replicate-3d", [1, 2, 3, 0, 2, 1], (2, 1, 2, 3, 2)),
        ("replicate-3d-unbatched", [0, 1, 1, 0, 2, 2], (1, 2, 2, 3)),
    ]
    for label, pad, shape in modes:
        mode = label.split("-")[0]
        case(
            f"pad/{label}",
            lambda T, x, pad=pad, mode=mode: T.pad(x, pad, mode),
            R(*shape, seed=2644),
            second=True,
        )
    case("pad/reflect-3d-too-large-error", lambda T, x: T.pad(x, [0, 0, 0, 0, 3, 0], "reflect"), R(1, 1, 3, 3, 3))
    case("pad/replicate-3d-3d-input-error", lambda T, x: T.pad(x, [1] * 6, "replicate"), R(2, 3, 3))
    # circular of an unbatched input (ATen pads all but the first dim), and a combination
    # PyTorch refuses for every non-constant mode
    case(
        "pad/circular-unbatched-2d", lambda T, x: T.pad(x, [1, 1, 1, 1], "circular"), R(2, 4, 5, seed=2645), second=True
    )
    case("pad/circular-unbatched-1d", lambda T, x: T.pad(x, [1, 2], "circular"), R(2, 5, seed=2646), second=True)
    case("pad/circular-fewer-dims-error", lambda T, x: T.pad(x, [1, 1], "circular"), R(2, 3, 4, 5))
    # smooth_l1_loss with beta 0: the op's gradient is -1 where self == target (ATen's kernel),
    # torch.nn.functional's is l1_loss's, 0 there
    case(
        "smooth_l1_loss/functional-beta-0-ties",
        lambda T, a, b: T.nn.functional.smooth_l1_loss(a, b, reduction="sum", beta=0.0),
        D([0.0, 1.0, -1.0, 0.5]),
        D([0.0, 0.0, -1.0, 0.2]),
        second=True,
    )
    case(
        "smooth_l1_loss/beta-0-ties",
        lambda T, a, b: T.smooth_l1_loss(a, b, 2, 0.0),
        D([0.0, 1.0, -1.0, 0.5]),
        D([0.0, 0.0, -1.0, 0.2]),
        second=True,
    )
    case(
        "smooth_l1_loss_backward/beta-0-ties",
        lambda T, g, a, b: T.smooth_l1_loss_backward(g, a, b, 0, 0.0),
        D([1.5, -2.0, 0.5, 1.0]),
        D([0.0, 1.0, -1.0, 0.5]),
        D([0.0, 0.0, -1.0, 0.2]),
    )


def _pooling3d() -> None:
    maxpools = [
        ("kernel-2", (1, 2, 3, 3, 3), ([2], [1], [0], [1], False)),
        ("stride-padding", (1, 1, 4, 5, 5), ([3], [2], [1], [1], False)),
        ("dilation-unbatched", (2, 3, 4, 5), ([1, 2, 2], [1, 1, 2], [0, 1, 0], [1, 2, 2], False)),
        ("ceil-mode", (1, 1, 3, 5, 3), ([2], [2], [1], [1], True)),
        ("ceil-mode-no-padding", (1, 1, 5, 4, 6), ([3], [2], [0], [1], True)),
        ("default-stride", (2, 1, 4, 4, 4), ([2], [], [0], [1], False)),
    ]
    for label, shape, (k, s, p, d, cm) in maxpools:
        case(
            f"max_pool3d_with_indices/{label}",
            lambda T, x, k=k, s=s, p=p, d=d, cm=cm: T.max_pool3d_with_indices(x, k, s, p, d, cm),
            R(*shape, seed=2650),
            second=True,
        )
        case(
            f"max_pool3d/{label}",
            lambda T, x, k=k, s=s, p=p, d=d, cm=cm: T.max_pool3d(x, k, s, p, d, cm),
            R(*shape, seed=2651),
            second=True,
        )
    case(
        "max_pool3d/transposed",
        lambda T, x: T.max_pool3d(x.transpose(2, 4), [2]),
        R(1, 2, 4, 3, 2, seed=2652),
        second=True,
    )
    case(
        "max_pool3d/expanded",
        lambda T, x: T.max_pool3d(x.expand([2, 2, 3, 3, 3]), [2], [1]),
        R(1, 2, 3, 3, 3, seed=2653),
        second=True,
    )
    case("max_pool3d/empty-batch", lambda T, x: T.max_pool3d(x.reshape([0, 1, 2, 2, 2]), [2]), D([]))
    case(
        "max_pool3d_with_indices/nan",
        lambda T, x: T.max_pool3d_with_indices(x, [1, 2, 2]),
        D([[[[1.0, NAN], [2.0, 3.0]], [[NAN, 0.5], [4.0, NAN]]]], grad=False),
    )
    # Two NaN in one window: PyTorch's index is the last NaN's (2-D as 3-D).
    case(
        "max_pool2d_with_indices/two-nans",
        lambda T, x: T.max_pool2d_with_indices(x, [1, 4]),
        D([[[1.0, NAN, 2.0, NAN], [NAN, 3.0, NAN, 0.0]]], grad=False),
    )
    case("max_pool3d/float32", lambda T, x: T.max_pool3d(x, [2], [1]), R(1, 3, 3, 3, seed=2654, dtype="float32"))
    case("max_pool3d/padding-too-large-error", lambda T, x: T.max_pool3d(x, [3], [1], [2], [2]), R(1, 4, 4, 4))
    case("max_pool3d/output-too-small-error", lambda T, x: T.max_pool3d(x, [3]), R(1, 2, 2, 2))
    case("max_pool3d/input-dims-error", lambda T, x: T.max_pool3d(x, [2]), R(4, 4, 4))
    case("max_pool3d/stride-zero-error", lambda T, x: T.max_pool3d(x, [2], [0, 1, 1]), R(1, 4, 4, 4))
    case(
        "max_pool3d_with_indices_backward/overlapping",
        lambda T, g, x: T.max_pool3d_with_indices_backward(
            g, x, [2], [1], [0], [1], False, T.max_pool3d_with_indices(x.detach(), [2], [1])[1]
        ),
        R(1, 2, 2, 2, 2, seed=2655),
        R(1, 2, 3, 3, 3, seed=2656),
        second=True,
    )
    case(
        "max_pool3d_with_indices_backward/ceil-mode",
        lambda T, g, x: T.max_pool3d_with_indices_backward(
            g, x, [2], [2], [1], [1], True, T.max_pool3d_with_indices(x.detach(), [2], [2], [1], [1], True)[1]
        ),
        R(1, 1, 2, 3, 2, seed=2657),
        R(1, 1, 3, 5, 3, seed=2658),
        second=True,
    )
    case(
        "max_pool3d_with_indices_backward.grad_input/values",
        lambda T, g, x: T.max_pool3d_with_indices_backward(
            g,
            x,
            [2],
            [1],
            [0],
            [1],
            False,
            T.max_pool3d_with_indices(x, [2], [1])[1],
            grad_input=T.zeros([1, 1, 3, 3, 3], dtype=T.float64),
        ),
        R(1, 1, 2, 2, 2, seed=2681, grad=False),
        R(1, 1, 3, 3, 3, seed=2682, grad=False),
    )
    case(
        "max_pool3d_with_indices.out/values-indices",
        lambda T, x: T.max_pool3d_with_indices(
            x,
            [2],
            [1],
            [0],
            [1],
            False,
            out=(T.zeros([1, 1, 2, 2, 2], dtype=T.float64), T.zeros([1, 1, 2, 2, 2], dtype=T.int64)),
        ),
        R(1, 1, 3, 3, 3, seed=2659, grad=False),
    )

    avgpools = [
        ("kernel-2", (1, 2, 3, 3, 3), ([2], [1], [0], False, True, None)),
        ("padding-include", (1, 1, 3, 4, 4), ([3], [2], [1], False, True, None)),
        ("padding-exclude", (1, 1, 3, 4, 4), ([3], [2], [1], False, False, None)),
        ("ceil-mode-include", (1, 1, 3, 5, 3), ([2], [2], [1], True, True, None)),
        ("ceil-mode-exclude", (1, 1, 3, 5, 3), ([2], [2], [1], True, False, None)),
        ("ceil-mode-no-padding", (1, 1, 5, 4, 6), ([3], [2], [0], True, True, None)),
        ("divisor-override", (2, 3, 3, 4), ([1, 2, 3], [1], [0, 1, 1], False, True, 3)),
        ("default-stride", (2, 1, 4, 4, 4), ([2], [], [0], False, True, None)),
    ]
    for label, shape, (k, s, p, cm, cip, dv) in avgpools:
        case(
            f"avg_pool3d/{label}",
            lambda T, x, k=k, s=s, p=p, cm=cm, cip=cip, dv=dv: T.avg_pool3d(x, k, s, p, cm, cip, dv),
            R(*shape, seed=2660),
            second=True,
        )
    case(
        "avg_pool3d/transposed",
        lambda T, x: T.avg_pool3d(x.transpose(2, 4), [2]),
        R(1, 2, 4, 3, 2, seed=2661),
        second=True,
    )
    case(
        "avg_pool3d/expanded",
        lambda T, x: T.avg_pool3d(x.expand([2, 2, 3, 3, 3]), [2], [1]),
        R(1, 2, 3, 3, 3, seed=2662),
        second=True,
    )
    case("avg_pool3d/empty-batch", lambda T, x: T.avg_pool3d(x.reshape([0, 1, 2, 2, 2]), [2]), D([]))
    case("avg_pool3d/float32", lambda T, x: T.avg_pool3d(x, [2], [1]), R(1, 3, 3, 3, seed=2663, dtype="float32"))
    case(
        "avg_pool3d/divisor-zero-error",
        lambda T, x: T.avg_pool3d(x, [2], [2], [0], False, True, 0),
        R(1, 4, 4, 4),
    )
    case("avg_pool3d/padding-too-large-error", lambda T, x: T.avg_pool3d(x, [2], [1], [2]), R(1, 4, 4, 4))
    case("avg_pool3d/input-dims-error", lambda T, x: T.avg_pool3d(x, [2]), R(4, 4, 4))
    case(
        "avg_pool3d.out/values",
        lambda T, x: T.avg_pool3d(x, [2], [1], out=T.zeros([1, 1, 2, 2, 2], dtype=T.float64)),
        R(1, 1, 3, 3, 3, seed=2664, grad=False),
    )
    case(
        "avg_pool3d_backward/ceil-mode",
        lambda T, g, x: T.avg_pool3d_backward(g, x, [2], [2], [1], True, False, None),
        R(1, 1, 2, 3, 2, seed=2665),
        R(1, 1, 3, 5, 3, seed=2666, grad=False),
        second=True,
    )
    case(
        "avg_pool3d_backward/divisor-override",
        lambda T, g, x: T.avg_pool3d_backward(g, x, [2], [2], [0], False, True, 2),
        R(1, 2, 1, 2, 2, seed=2667),
        R(1, 2, 2, 4, 4, seed=2668, grad=False),
        second=True,
    )
    case(
        "avg_pool3d_backward.grad_input/values",
        lambda T, g, x: T.avg_pool3d_backward(
            g, x, [2], [1], [0], False, True, None, grad_input=T.zeros([1, 1, 3, 3, 3], dtype=T.float64)
        ),
        R(1, 1, 2, 2, 2, seed=2669, grad=False),
        R(1, 1, 3, 3, 3, seed=2670, grad=False),
    )

    def unpool(T, x, src, size, k=2):
        return T.max_unpool2d(x, T.max_pool2d_with_indices(src, [k])[1], size)

    case(
        "max_unpool2d/batched",
        lambda T, x, src: unpool(T, x, src, [4, 4]),
        R(1, 2, 2, 2, seed=2671),
        R(1, 2, 4, 4, seed=2672, grad=False),
        second=True,
    )
    case(
        "max_unpool2d/unbatched-odd",
        lambda T, x, src: unpool(T, x, src, [5, 6]),
        R(2, 2, 3, seed=2673),
        R(2, 5, 6, seed=2674, grad=False),
        second=True,
    )
    case(
        "max_unpool2d/larger-output",
        lambda T, x, src: unpool(T, x, src, [6, 5]),
        R(1, 1, 2, 2, seed=2675),
        R(1, 1, 4, 4, seed=2676, grad=False),
        second=True,
    )
    case(
        "max_unpool2d/transposed",
        lambda T, x, src: unpool(T, x.transpose(2, 3), src, [4, 4]),
        R(1, 1, 2, 2, seed=2677),
        R(1, 1, 4, 4, seed=2678, grad=False),
    )
    case(
        "max_unpool2d/empty-batch",
        lambda T, x: T.max_unpool2d(x.reshape([0, 1, 2, 2]), T.zeros([0, 1, 2, 2], dtype=T.int64), [4, 4]),
        D([]),
    )
    case(
        "max_unpool2d/duplicate-indices",
        lambda T, x, i: T.max_unpool2d(x, i, [3, 3]),
        D([[[[1.0, 2.0], [3.0, 4.0]]]], grad=False),
        L([[[[0, 0], [2, 8]]]]),
    )
    case(
        "max_unpool2d/index-out-of-range-error",
        lambda T, x, i: T.max_unpool2d(x, i, [3, 3]),
        D([[[[1.0, 2.0], [3.0, 4.0]]]], grad=False),
        L([[[[0, 1], [2, 9]]]]),
    )
    case(
        "max_unpool2d/float-indices-error",
        lambda T, x: T.max_unpool2d(x, T.zeros([1, 1, 2, 2]), [4, 4]),
        R(1, 1, 2, 2),
    )
    case(
        "max_unpool2d/shape-error",
        lambda T, x: T.max_unpool2d(x, T.zeros([1, 1, 2, 1], dtype=T.int64), [4, 4]),
        R(1, 1, 2, 2),
    )
    case(
        "max_unpool2d/output-size-error",
        lambda T, x: T.max_unpool2d(x, T.zeros([1, 1, 2, 2], dtype=T.int64), [4]),
        R(1, 1, 2, 2),
    )
    case(
        "max_unpool2d.out/values",
        lambda T, x, src: T.max_unpool2d(
            x, T.max_pool2d_with_indices(src, [2])[1], [4, 4], out=T.zeros([1, 1, 4, 4], dtype=T.float64)
        ),
        R(1, 1, 2, 2, seed=2679, grad=False),
        R(1, 1, 4, 4, seed=2680, grad=False),
    )


def _blocks() -> None:
    unfolds = [
        ("kernel-2", (1, 2, 3, 4), ([2, 2], [1, 1], [0, 0], [1, 1])),
        ("padding-stride-dilation", (2, 1, 5, 4), ([2, 3], [2, 1], [1, 1], [2, 1])),
        ("unbatched", (2, 3, 3), ([3, 2], [1, 1], [1, 0], [1, 2])),
        ("kernel-1", (1, 3, 2, 2), ([1, 1], [1, 1], [0, 0], [1, 1])),
        ("whole-image", (1, 1, 3, 4), ([3, 4], [1, 1], [0, 0], [1, 1])),
        ("stride-skips-rows", (1, 1, 6, 5), ([2, 2], [1, 1], [0, 0], [3, 2])),
    ]
    for label, shape, (k, d, p, st) in unfolds:
        case(
            f"im2col/{label}",
            lambda T, x, k=k, d=d, p=p, st=st: T.im2col(x, k, d, p, st),
            R(*shape, seed=2690),
            second=True,
        )
    case(
        "im2col/transposed",
        lambda T, x: T.im2col(x.transpose(2, 3), [2, 2], [1, 1], [0, 0], [1, 1]),
        R(1, 1, 4, 3, seed=2691),
        second=True,
    )
    case(
        "im2col/expanded",
        lambda T, x: T.im2col(x.expand([2, 2, 3, 3]), [2, 2], [1, 1], [1, 1], [1, 1]),
        R(1, 2, 3, 3, seed=2692),
    )
    case("im2col/empty-batch", lambda T, x: T.im2col(x.reshape([0, 1, 3, 3]), [2, 2], [1, 1], [0, 0], [1, 1]), D([]))
    case(
        "im2col/float32",
        lambda T, x: T.im2col(x, [2, 2], [1, 1], [0, 0], [1, 1]),
        R(1, 2, 3, 3, seed=2693, dtype="float32"),
    )
    case("im2col/too-small-error", lambda T, x: T.im2col(x, [4, 4], [1, 1], [0, 0], [1, 1]), R(1, 1, 3, 3))
    case("im2col/dims-error", lambda T, x: T.im2col(x, [2, 2], [1, 1], [0, 0], [1, 1]), R(3, 3))
    case("im2col/stride-error", lambda T, x: T.im2col(x, [2, 2], [1, 1], [0, 0], [0, 1]), R(1, 1, 3, 3))
    case("im2col/padding-error", lambda T, x: T.im2col(x, [2, 2], [1, 1], [-1, 0], [1, 1]), R(1, 1, 3, 3))
    case(
        "im2col.out/values",
        lambda T, x: T.im2col(x, [2, 2], [1, 1], [0, 0], [1, 1], out=T.zeros([1, 8, 4], dtype=T.float64)),
        R(1, 2, 3, 3, seed=2694, grad=False),
    )
    folds = [
        ("overlapping", (1, 8, 6), [3, 4], ([2, 2], [1, 1], [0, 0], [1, 1])),
        ("padding-stride-dilation", (2, 6, 12), [5, 4], ([2, 3], [2, 1], [1, 1], [2, 1])),
        ("unbatched", (12, 3), [3, 3], ([3, 2], [1, 1], [1, 0], [1, 2])),
        ("stride-skips-rows", (1, 4, 4), [6, 5], ([2, 2], [1, 1], [0, 0], [3, 2])),
    ]
    for label, shape, size, (k, d, p, st) in folds:
        case(
            f"col2im/{label}",
            lambda T, x, size=size, k=k, d=d, p=p, st=st: T.col2im(x, size, k, d, p, st),
            R(*shape, seed=2695),
            second=True,
        )
    case(
        "col2im/transposed",
        lambda T, x: T.col2im(x.transpose(1, 2), [3, 4], [2, 2], [1, 1], [0, 0], [1, 1]),
        R(1, 6, 8, seed=2696),
        second=True,
    )
    case(
        "col2im/empty-batch",
        lambda T, x: T.col2im(x.reshape([0, 4, 4]), [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]),
        D([]),
    )
    case(
        "col2im/blocks-mismatch-error",
        lambda T, x: T.col2im(x, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]),
        R(1, 4, 5),
    )
    case(
        "col2im/divisible-error",
        lambda T, x: T.col2im(x, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]),
        R(1, 6, 4),
    )
    case("col2im/dims-error", lambda T, x: T.col2im(x, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]), R(16))
    case(
        "col2im.out/values",
        lambda T, x: T.col2im(x, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1], out=T.zeros([1, 2, 3, 3], dtype=T.float64)),
        R(1, 8, 4, seed=2697, grad=False),
    )
    # unfold then fold: each pixel times the number of blocks covering it.
    case(
        "col2im/of-im2col",
        lambda T, x: T.col2im(T.im2col(x, [2, 2], [1, 1], [1, 1], [1, 1]), [3, 4], [2, 2], [1, 1], [1, 1], [1, 1]),
        R(1, 2, 3, 4, seed=2698),
        second=True,
    )


def _attention() -> None:
    def sdpa(T, q, k, v, *rest, **kw):
        return T.scaled_dot_product_attention(q, k, v, *rest, **kw)

    qkv = [R(2, 3, 4, seed=2700), R(2, 5, 4, seed=2701), R(2, 5, 3, seed=2702)]
    case("scaled_dot_product_attention/plain", sdpa, *qkv, second=True)
    case(
        "scaled_dot_product_attention/heads",
        sdpa,
        R(2, 2, 3, 4, seed=2703),
        R(2, 2, 4, 4, seed=2704),
        R(2, 2, 4, 2, seed=2705),
        second=True,
    )
    case("scaled_dot_product_attention/scale", lambda T, q, k, v: sdpa(T, q, k, v, scale=0.3), *qkv, second=True)
    case(
        "scaled_dot_product_attention/negative-scale",
        lambda T, q, k, v: sdpa(T, q, k, v, scale=-0.7),
        *qkv,
        second=True,
    )
    case(
        "scaled_dot_product_attention/causal",
        lambda T, q, k, v: sdpa(T, q, k, v, None, 0.0, True),
        R(1, 2, 4, 3, seed=2706),
        R(1, 2, 4, 3, seed=2707),
        R(1, 2, 4, 3, seed=2708),
        second=True,
    )
    case(
        "scaled_dot_product_attention/causal-rectangular",
        lambda T, q, k, v: sdpa(T, q, k, v, None, 0.0, True),
        *qkv,
        second=True,
    )
    case(
        "scaled_dot_product_attention/bool-mask",
        lambda T, q, k, v, m: sdpa(T, q, k, v, m),
        *qkv,
        B([[True, False, True, True, False], [True, True, False, False, True], [False, True, True, True, True]]),
        second=True,
    )
    case(
        "scaled_dot_product_attention/bool-mask-row-all-false",
        lambda T, q, k, v, m: sdpa(T, q, k, v, m),
        *qkv,
        B([[True, False, True, True, False], [False, False, False, False, False], [False, True, True, True, True]]),
        second=True,
    )
    case(
        "scaled_dot_product_attention/float-mask",
        lambda T, q, k, v, m: sdpa(T, q, k, v, m),
        *qkv,
        R(3, 5, seed=2709),
        second=True,
    )
    case(
        "scaled_dot_product_attention/float-mask-broadcast-batch",
        lambda T, q, k, v, m: sdpa(T, q, k, v, m),
        *qkv,
        R(2, 1, 5, seed=2710),
        second=True,
    )
    case(
        "scaled_dot_product_attention/gqa",
        lambda T, q, k, v: sdpa(T, q, k, v, enable_gqa=True),
        R(1, 4, 2, 3, seed=2711),
        R(1, 2, 3, 3, seed=2712),
        R(1, 2, 3, 2, seed=2713),
        second=True,
    )
    case(
        "scaled_dot_product_attention/transposed",
        lambda T, q, k, v: sdpa(T, q.transpose(1, 2), k, v),
        R(2, 4, 3, seed=2714),
        R(2, 5, 4, seed=2715),
        R(2, 5, 3, seed=2716),
        second=True,
    )
    case(
        "scaled_dot_product_attention/float32",
        sdpa,
        R(2, 3, 4, seed=2717, dtype="float32"),
        R(2, 5, 4, seed=2718, dtype="float32"),
        R(2, 5, 3, seed=2719, dtype="float32"),
    )
    case(
        "scaled_dot_product_attention/empty-batch",
        lambda T, q, k, v: sdpa(T, q.reshape([0, 3, 4]), k.reshape([0, 5, 4]), v.reshape([0, 5, 3])),
        D([]),
        D([]),
        D([]),
    )
    case(
        "scaled_dot_product_attention/causal-with-mask-error",
        lambda T, q, k, v, m: sdpa(T, q, k, v, m, 0.0, True),
        *qkv,
        R(3, 5, seed=2720),
    )
    case(
        "scaled_dot_product_attention/dtype-error",
        sdpa,
        R(2, 3, 4, seed=2721),
        R(2, 5, 4, seed=2722, dtype="float32"),
        R(2, 5, 3, seed=2723),
    )


def _resampling_out() -> None:
    def z(T, shape):
        return T.zeros(shape, dtype=T.float64)

    NG = {"grad": False}
    case(
        "upsample_linear1d.out/values",
        lambda T, x: T.upsample_linear1d(x, [5], False, None, out=z(T, [1, 2, 5])),
        R(1, 2, 3, seed=2730, **NG),
    )
    case(
        "upsample_linear1d_backward.grad_input/values",
        lambda T, g: T.upsample_linear1d_backward(g, [5], [1, 2, 3], True, None, grad_input=z(T, [1, 2, 3])),
        R(1, 2, 5, seed=2731, **NG),
    )
    case(
        "upsample_bicubic2d.out/values",
        lambda T, x: T.upsample_bicubic2d(x, [3, 5], False, None, None, out=z(T, [1, 1, 3, 5])),
        R(1, 1, 2, 3, seed=2732, **NG),
    )
    case(
        "upsample_bicubic2d_backward.grad_input/values",
        lambda T, g: T.upsample_bicubic2d_backward(
            g, [3, 5], [1, 1, 2, 3], False, None, None, grad_input=z(T, [1, 1, 2, 3])
        ),
        R(1, 1, 3, 5, seed=2733, **NG),
    )
    case(
        "upsample_trilinear3d.out/values",
        lambda T, x: T.upsample_trilinear3d(x, [3, 3, 3], False, None, None, None, out=z(T, [1, 1, 3, 3, 3])),
        R(1, 1, 2, 2, 2, seed=2734, **NG),
    )
    case(
        "upsample_trilinear3d_backward.grad_input/values",
        lambda T, g: T.upsample_trilinear3d_backward(
            g, [3, 3, 3], [1, 1, 2, 2, 2], True, None, None, None, grad_input=z(T, [1, 1, 2, 2, 2])
        ),
        R(1, 1, 3, 3, 3, seed=2735, **NG),
    )
    case(
        "upsample_nearest3d.out/values",
        lambda T, x: T.upsample_nearest3d(x, [3, 4, 3], None, None, None, out=z(T, [1, 1, 3, 4, 3])),
        R(1, 1, 2, 2, 2, seed=2736, **NG),
    )
    case(
        "upsample_nearest3d_backward.grad_input/values",
        lambda T, g: T.upsample_nearest3d_backward(
            g, [3, 4, 3], [1, 1, 2, 2, 2], None, None, None, grad_input=z(T, [1, 1, 2, 2, 2])
        ),
        R(1, 1, 3, 4, 3, seed=2737, **NG),
    )


def _embedding_bag() -> None:
    idx = L([0, 2, 2, 5, 1, 4, 3, 2])
    offs = L([0, 3, 3, 5])

    def eb(T, w, i, o, *rest):
        return T._embedding_bag(w, i, o, *rest)

    for mode, label in [(0, "sum"), (1, "mean"), (2, "max")]:
        case(
            f"_embedding_bag/{label}",
            lambda T, w, i, o, m=mode: eb(T, w, i, o, False, m),
            R(6, 3, seed=2740),
            idx,
            offs,
        )
        case(
            f"_embedding_bag/{label}-include-last-offset",
            lambda T, w, i, o, m=mode: eb(T, w, i, o, False, m, False, None, True),
            R(6, 3, seed=2741),
            idx,
            offs,
        )
        case(
            f"_embedding_bag/{label}-padding-idx",
            lambda T, w, i, o, m=mode: eb(T, w, i, o, False, m, False, None, False, 2),
            R(6, 3, seed=2742),
            idx,
            offs,
        )
        case(
            f"embedding_bag/{label}",
            lambda T, w, i, o, m=mode: T.embedding_bag(w, i, o, False, m),
            R(6, 3, seed=2743),
            idx,
            offs,
        )
    case(
        "_embedding_bag/per-sample-weights",
        lambda T, w, i, o, p: eb(T, w, i, o, False, 0, False, p),
        R(6, 3, seed=2745),
        idx,
        offs,
        R(8, seed=2746),
    )
    case(
        "embedding_bag.padding_idx/mean-negative",
        lambda T, w, i, o: T.embedding_bag(w, i, o, False, 1, False, None, False, -4),
        R(6, 3, seed=2747),
        idx,
        offs,
    )
    case(
        "embedding_bag/transposed-weight",
        lambda T, w, i, o: T.embedding_bag(w.t(), i, o, False, 0),
        R(3, 6, seed=2748),
        idx,
        offs,
    )
    case(
        "embedding_bag/float32",
        lambda T, w, i, o: T.embedding_bag(w, i, o, False, 1),
        R(6, 3, seed=2749, dtype="float32"),
        idx,
        offs,
    )
    case("embedding_bag/index-error", lambda T, w, i, o: T.embedding_bag(w, i, o), R(6, 3), L([0, 6]), L([0]))
    case(
        "embedding_bag/per-sample-weights-mean-error",
        lambda T, w, i, o, p: T.embedding_bag(w, i, o, False, 1, False, p),
        R(6, 3),
        L([0, 1]),
        L([0]),
        R(2),
    )
    case(
        "_embedding_bag_dense_backward/sum",
        lambda T, g, w: T._embedding_bag_dense_backward(
            g, T.tensor([0, 2, 2, 5, 1, 4, 3, 2]), *_aux(T, w, 0), 6, False, 0, None
        ),
        R(4, 3, seed=2750, grad=False),
        R(6, 3, seed=2751, grad=False),
    )
    case(
        "_embedding_bag_dense_backward/max",
        lambda T, g, w: T._embedding_bag_dense_backward(
            g, T.tensor([0, 2, 2, 5, 1, 4, 3, 2]), *_aux(T, w, 2), 6, False, 2, None
        ),
        R(4, 3, seed=2752, grad=False),
        R(6, 3, seed=2753, grad=False),
    )
    case(
        "_embedding_bag_per_sample_weights_backward/sum",
        lambda T, g, w: T._embedding_bag_per_sample_weights_backward(
            g, w, T.tensor([0, 2, 2, 5, 1, 4, 3, 2]), T.tensor([0, 3, 3, 5]), _aux(T, w, 0)[0], 0
        ),
        R(4, 3, seed=2754, grad=False),
        R(6, 3, seed=2755, grad=False),
    )


def _antialias() -> None:
    # interpolate(antialias=True)'s ops: down and up, align_corners, scales, float32, the .vec
    # overloads and the backward ops. (An output width of 1 is left out: PyTorch 2.13's CPU
    # forward then applies the first output row's vertical weights to every row.)
    sizes = [
        ("down", (1, 2, 9, 7), [4, 3], False, None, None),
        ("down-align-corners", (1, 1, 9, 7), [4, 3], True, None, None),
        ("up", (2, 1, 3, 4), [7, 6], False, None, None),
        ("up-align-corners", (1, 2, 3, 4), [5, 9], True, None, None),
        ("mixed-scales", (1, 1, 6, 4), [2, 7], False, 0.4, 1.9),
        ("same-height-scaled", (1, 1, 5, 6), [5, 2], False, 1.2, 0.4),
        ("to-one-pixel", (1, 1, 5, 6), [1, 2], False, None, None),
    ]
    seed = 8800
    for op in ("_upsample_bilinear2d_aa", "_upsample_bicubic2d_aa"):
        for label, shape, size, ac, sh, sw in sizes:
            case(
                f"{op}/{label}",
                lambda T, x, op=op, size=size, ac=ac, sh=sh, sw=sw: getattr(T, op)(x, size, ac, sh, sw),
                R(*shape, seed=seed),
                second=True,
            )
            seed += 1
        case(
            f"{op}/float32",
            lambda T, x, op=op: getattr(T, op)(x, [3, 8], False, None, None),
            R(1, 2, 7, 5, seed=seed, dtype="float32"),
        )
        case(
            f"{op}/transposed",
            lambda T, x, op=op: getattr(T, op)(x.transpose(2, 3), [2, 5], False, None, None),
            R(1, 1, 4, 6, seed=seed + 1),
        )
        case(
            f"{op}.vec/scale-factors",
            lambda T, x, op=op: getattr(T, op)(x, None, False, [0.45, 1.5]),
            R(1, 1, 8, 4, seed=seed + 2),
            second=True,
        )
        case(
            f"{op}.vec/output-size",
            lambda T, x, op=op: getattr(T, op)(x, [3, 3], True, None),
            R(1, 1, 8, 4, seed=seed + 3),
        )
        case(
            f"{op}_backward/down",
            lambda T, g, op=op: getattr(T, op + "_backward")(g, [4, 3], [1, 2, 9, 7], False, None, None),
            R(1, 2, 4, 3, seed=seed + 4),
            second=True,
        )
        case(
            f"{op}_backward/up-align-corners",
            lambda T, g, op=op: getattr(T, op + "_backward")(g, [5, 9], [1, 2, 3, 4], True, None, None),
            R(1, 2, 5, 9, seed=seed + 5),
        )
        case(f"{op}/dims-error", lambda T, x, op=op: getattr(T, op)(x, [2, 2], False, None, None), R(2, 3, 4))
        case(f"{op}/zero-size-error", lambda T, x, op=op: getattr(T, op)(x, [0, 2], False, None, None), R(1, 1, 3, 4))
        seed += 10


def _aux(T, w, mode):
    """offset2bag, bag_size, maximum_indices of _embedding_bag over the cases' bags."""
    r = T._embedding_bag(w, T.tensor([0, 2, 2, 5, 1, 4, 3, 2]), T.tensor([0, 3, 3, 5]), False, mode)
    return r[1], r[2], r[3]


_resampling()
_padding3d()
_pooling3d()
_blocks()
_attention()
_resampling_out()
_embedding_bag()
_antialias()
