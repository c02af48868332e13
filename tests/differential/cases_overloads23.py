"""Differential cases of the overloads an audit against PyTorch found missing (issue 23b).

Imported by cases.py (its last lines), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json's records from run_torch.py). They check, against
PyTorch: div / div_ with a Scalar divisor and a rounding mode (integer and floating inputs, the
result dtype, a mode that is not one, the in-place cast refused); var / std / var_mean / std_mean
with unbiased= (positional and keyword, dims, keepdim); the out= variants of var, std, cumsum,
nansum, nanmean, argmin, all and any; all / any over several dims; clamp_min / clamp_max with
Tensor bounds (ties, NaN, broadcasting, in place, out=); clamp_ with Scalar bounds; split with a
list of sizes; to(other).
"""

from __future__ import annotations

from cases import INF, NAN, D, L, R, case  # cases.py imports this module once they are defined


def _div_scalar_mode() -> None:
    case("div.Scalar_mode/int-floor", lambda T, x: T.div(x, 2, rounding_mode="floor"), L([-7, 5, 7, 0]))
    case("div.Scalar_mode/int-trunc", lambda T, x: T.div(x, 2, rounding_mode="trunc"), L([-7, 5, 7, 0]))
    case("div.Scalar_mode/int-negative", lambda T, x: x.div(-3, rounding_mode="floor"), L([-7, 5, 7, 0]))
    case("div.Scalar_mode/int-float-scalar", lambda T, x: T.div(x, 2.5, rounding_mode="floor"), L([-7, 5, 7]))
    case("div.Scalar_mode/int-None", lambda T, x: T.div(x, 2, rounding_mode=None), L([-7, 5, 7]))
    case("div.Scalar_mode/int32-floor", lambda T, x: T.div(x, 2, rounding_mode="floor"), D([-7, 5, 7], "int32"))
    case("div.Scalar_mode/bool-trunc", lambda T, x: T.div(x, 2, rounding_mode="trunc"), D([True, False], "bool"))
    case(
        "div.Scalar_mode/float32-floor",
        lambda T, x: T.div(x, 2, rounding_mode="floor"),
        R(5, seed=1, lo=-4, hi=4, dtype="float32"),
    )
    case(
        "div.Scalar_mode/floor",
        lambda T, x: T.div(x, 0.7, rounding_mode="floor") * x,
        R(2, 3, seed=2, lo=-3, hi=3),
        second=True,
    )
    case(
        "div.Scalar_mode/trunc-method",
        lambda T, x: x.div(-1.5, rounding_mode="trunc") + x,
        R(4, seed=3, lo=-3, hi=3),
        second=True,
    )
    case("div.Scalar_mode/None", lambda T, x: T.div(x, 2.5, rounding_mode=None), R(2, 3, seed=4), second=True)
    case(
        "div.Scalar_mode/special",
        lambda T, x: T.div(x, 2.0, rounding_mode="floor"),
        D([INF, -INF, NAN, -0.5, 0.5], grad=False),
    )
    case("div.Scalar_mode/by-zero", lambda T, x: T.div(x, 0.0, rounding_mode="trunc"), D([1.0, -1.0, 0.0], grad=False))
    case("div.Scalar_mode/int-by-zero-error", lambda T, x: T.div(x, 0, rounding_mode="floor"), L([1, 2]))
    case("div.Scalar_mode/bad-mode-error", lambda T, x: T.div(x, 2, rounding_mode="round"), R(3, seed=5))
    case("div_.Scalar_mode/int-floor", lambda T, x: x.div_(2, rounding_mode="floor"), L([-7, 5, 7]))
    case(
        "div_.Scalar_mode/float",
        lambda T, x: (x * 1).div_(1.5, rounding_mode="trunc") * x,
        R(3, seed=6, lo=-3, hi=3),
        second=True,
    )
    case("div_.Scalar_mode/None", lambda T, x: (x * 1).div_(-2.0, rounding_mode=None), R(2, 2, seed=7), second=True)
    case("div_.Scalar_mode/int-float-scalar-error", lambda T, x: x.div_(2.5, rounding_mode="floor"), L([-7, 5, 7]))
    case("div_.Scalar_mode/int-None-error", lambda T, x: x.div_(2, rounding_mode=None), L([-7, 5, 7]))


_div_scalar_mode()


def _var_std_unbiased() -> None:
    case("var.dim/keywords", lambda T, x: T.var(x, 1, unbiased=False, keepdim=True), R(2, 3, seed=20), second=True)
    case("var.dim/method-positional", lambda T, x: x.var(1, False), R(2, 3, seed=21), second=True)
    case("var.dim/dims-unbiased", lambda T, x: T.var(x, [0, 2], True), R(2, 3, 2, seed=22), second=True)
    case("var.dim/None", lambda T, x: T.var(x, None, False), R(3, 2, seed=23))
    case("var/unbiased", lambda T, x: T.var(x, True), R(2, 3, seed=24), second=True)
    case("var/method-biased", lambda T, x: x.var(False), R(5, seed=25), second=True)
    case("var/keyword", lambda T, x: T.var(x, unbiased=False), R(2, 2, seed=26))
    case("var/one-element", lambda T, x: T.var(x, True), R(1, seed=27))
    case("var/int-error", lambda T, x: T.var(x, False), L([1, 2, 3]))
    case("var/float32", lambda T, x: T.var(x, 0, False), R(2, 3, seed=28, dtype="float32"))
    case("std/unbiased=False", lambda T, x: T.std(x, unbiased=False), R(2, 3, seed=29), second=True)
    case("std/method", lambda T, x: x.std(True), R(4, seed=30))
    case("std.dim/keepdim", lambda T, x: T.std(x, 1, False, True), R(2, 3, seed=31), second=True)
    case("std.dim/method", lambda T, x: x.std(dim=0, unbiased=True), R(3, 2, seed=32))
    case("var_mean/biased", lambda T, x: T.var_mean(x, False), R(2, 3, seed=33), second=True)
    case("var_mean/unbiased-keyword", lambda T, x: T.var_mean(x, unbiased=True), R(4, seed=34))
    case("var_mean.dim", lambda T, x: T.var_mean(x, 1, unbiased=False, keepdim=True), R(2, 3, seed=35), second=True)
    case("std_mean/biased", lambda T, x: T.std_mean(x, False), R(2, 3, seed=36), second=True)
    case("std_mean.dim", lambda T, x: T.std_mean(x, 1, unbiased=False), R(2, 3, seed=37), second=True)
    case("std_mean.dim/dims", lambda T, x: T.std_mean(x, [0, 1], True, True), R(2, 3, seed=38))


_var_std_unbiased()


def _reduction_outs() -> None:
    def out(T, dtype="float64"):
        return T.zeros([0], dtype=getattr(T, dtype))

    case("var.correction_out", lambda T, x: T.var(x, 1, correction=0, out=out(T)), R(2, 3, seed=40, grad=False))
    case(
        "var.correction_out/keepdim", lambda T, x: T.var(x, [0], keepdim=True, out=out(T)), R(3, 2, seed=41, grad=False)
    )
    case(
        "var.correction_out/returns-out",
        lambda T, x: (lambda o: T.var(x, out=o) is o)(out(T)) and T.tensor(True),
        R(4, seed=42, grad=False),
    )
    case("var.correction_out/requires-grad-error", lambda T, x: T.var(x, 1, out=out(T)), R(2, 3, seed=43))
    case("std.correction_out", lambda T, x: T.std(x, 0, correction=2, out=out(T)), R(4, 2, seed=44, grad=False))
    case("std.correction_out/all", lambda T, x: T.std(x, out=out(T)), R(2, 3, seed=45, grad=False))
    case("cumsum.out", lambda T, x: T.cumsum(x, 1, out=out(T)), R(2, 3, seed=46, grad=False))
    case("cumsum.out/int", lambda T, x: T.cumsum(x, 0, out=out(T, "int64")), L([1, 2, 3]))
    case("cumsum.out/dtype", lambda T, x: T.cumsum(x, 0, dtype=T.float64, out=out(T)), L([1, -2, 3]))
    case("cumsum.out/requires-grad-error", lambda T, x: T.cumsum(x, 0, out=out(T)), R(3, seed=47))
    case("nansum.out", lambda T, x: T.nansum(x, 0, out=out(T)), D([[1.0, NAN], [2.0, 3.0]], grad=False))
    case("nansum.out/all", lambda T, x: T.nansum(x, out=out(T)), D([1.0, NAN, 2.5], grad=False))
    case("nanmean.out", lambda T, x: T.nanmean(x, 1, keepdim=True, out=out(T)), D([[1.0, NAN], [2.0, 3.0]], grad=False))
    case("nanmean.out/all", lambda T, x: T.nanmean(x, out=out(T)), D([1.0, NAN, 2.5], grad=False))
    case("nanmean.out/requires-grad-error", lambda T, x: T.nanmean(x, out=out(T)), R(3, seed=48))
    case("argmin.out", lambda T, x: T.argmin(x, 1, out=out(T, "int64")), R(3, 4, seed=49, grad=False))
    case(
        "argmin.out/all-keepdim",
        lambda T, x: T.argmin(x, keepdim=True, out=out(T, "int64")),
        R(2, 3, seed=50, grad=False),
    )
    case("all.out", lambda T, x: T.all(x, 1, out=out(T, "bool")), D([[1.0, 0.0], [2.0, 3.0]], grad=False))
    case("all.out/keepdim", lambda T, x: T.all(x, 0, True, out=out(T, "bool")), D([[1.0, 0.0], [2.0, 3.0]], grad=False))
    case("all.all_out", lambda T, x: T.all(x, out=out(T, "bool")), D([1.0, 2.0], grad=False))
    case("any.out", lambda T, x: T.any(x, 0, out=out(T, "bool")), D([[1.0, 0.0], [0.0, 0.0]], grad=False))
    case("any.all_out", lambda T, x: T.any(x, out=out(T, "bool")), D([0.0, 0.0], grad=False))
    case("any.all_out/int", lambda T, x: T.any(x, out=out(T, "bool")), L([0, 3]))


def _all_any_dims() -> None:
    m = [[[1.0, 0.0], [2.0, 3.0]], [[1.0, 1.0], [0.0, 5.0]]]
    case("all.dims", lambda T, x: T.all(x, dim=(0, 1)), D(m, grad=False))
    case("all.dims/keepdim-method", lambda T, x: x.all([0, 2], keepdim=True), D(m, grad=False))
    case("all.dims/empty-list", lambda T, x: T.all(x, dim=[]), D(m, grad=False))
    case("all.dims/negative", lambda T, x: T.all(x, dim=(-1,)), D(m, grad=False))
    case("all.dims/int", lambda T, x: T.all(x, dim=(0,)), L([[1, 0], [2, 3]]))
    case("all.dims/requires-grad", lambda T, x: T.all(x, dim=(0, 1)), R(2, 3, seed=60))
    case("all.dims/repeated-error", lambda T, x: T.all(x, dim=(0, 0)), D(m, grad=False))
    case("any.dims", lambda T, x: T.any(x, dim=(0, 1)), D(m, grad=False))
    case("any.dims/method", lambda T, x: x.any((1, 2)), D(m, grad=False))
    case("any.dims/out-of-range-error", lambda T, x: T.any(x, dim=(0, 3)), D(m, grad=False))
    case("any.dims/bool", lambda T, x: T.any(x, dim=[1]), D([[True, False], [False, False]], "bool"))


def _clamp_split_to() -> None:
    case("clamp_min.Tensor", lambda T, x, m: T.clamp_min(x, m), R(2, 3, seed=70), R(3, seed=71), second=True)
    case(
        "clamp_min.Tensor/method-ties",
        lambda T, x, m: x.clamp_min(m),
        D([0.5, -1.0, 2.0]),
        D([0.5, 0.0, 2.0]),
        second=True,
    )
    case(
        "clamp_min.Tensor/nan",
        lambda T, x, m: T.clamp_min(x, m),
        D([NAN, 1.0, 0.0], grad=False),
        D([0.0, NAN, -1.0], grad=False),
    )
    case("clamp_min.Tensor/int-float", lambda T, x, m: T.clamp_min(x, m), L([-2, 0, 3]), D([0.5, 0.5, 0.5], grad=False))
    case("clamp_min.Tensor/bound-broadcasts-self", lambda T, x, m: T.clamp_min(x, m), R(3, seed=72), R(2, 3, seed=73))
    case("clamp_min_.Tensor", lambda T, x, m: (x * 1).clamp_min_(m) * x, R(2, 3, seed=74), R(3, seed=75), second=True)
    case("clamp_min_.Tensor/function", lambda T, x, m: T.clamp_min_(x * 1, m), R(3, seed=76), R(3, seed=77))
    case("clamp_min_.Tensor/int-float-error", lambda T, x, m: x.clamp_min_(m), L([-2, 0, 3]), D([0.5], grad=False))
    case(
        "clamp_min.Tensor_out",
        lambda T, x, m: T.clamp_min(x, m, out=T.zeros([0], dtype=T.float64)),
        R(2, 3, seed=78, grad=False),
        R(3, seed=79, grad=False),
    )
    case("clamp_max.Tensor", lambda T, x, m: T.clamp_max(x, m), R(2, 3, seed=80), R(2, 1, seed=81), second=True)
    case(
        "clamp_max.Tensor/method-ties",
        lambda T, x, m: x.clamp_max(m),
        D([0.5, -1.0, 2.0]),
        D([0.5, 0.0, 2.0]),
        second=True,
    )
    case("clamp_max.Tensor/float32", lambda T, x, m: T.clamp_max(x, m), R(4, seed=82, dtype="float32"), R(4, seed=83))
    case("clamp_max_.Tensor", lambda T, x, m: (x * 1).clamp_max_(m), R(3, seed=84), R(3, seed=85), second=True)
    case(
        "clamp_max.Tensor_out",
        lambda T, x, m: T.clamp_max(x, m, out=T.zeros([0], dtype=T.float64)),
        R(2, 3, seed=86, grad=False),
        R(3, seed=87, grad=False),
    )
    case(
        "clamp_max.Tensor_out/requires-grad-error",
        lambda T, x, m: T.clamp_max(x, m, out=T.zeros([3], dtype=T.float64)),
        R(3, seed=88),
        R(3, seed=89),
    )
    case("clamp_/min-keyword", lambda T, x: (x * 1).clamp_(min=0.0), R(2, 3, seed=90), second=True)
    case(
        "clamp_/both-positional", lambda T, x: (x * 1).clamp_(0.0, 1.0) * x, R(2, 3, seed=91, lo=-1, hi=2), second=True
    )
    case("clamp_/max-only", lambda T, x: T.clamp_(x * 1, max=0.25), R(4, seed=92))
    case("clamp_/int", lambda T, x: x.clamp_(0, 2), L([-3, 1, 5]))
    case("clamp_/int-float-bound-error", lambda T, x: x.clamp_(0.5), L([-3, 1, 5]))
    case("clamp_/none-error", lambda T, x: (x * 1).clamp_(), R(3, seed=93))
    case(
        "split.sizes",
        lambda T, x: [p * (i + 1) for i, p in enumerate(T.split(x, [1, 2], dim=1))],
        R(2, 3, seed=100),
        second=True,
    )
    case(
        "split.sizes/method",
        lambda T, x: [p * (i + 2) for i, p in enumerate(x.split([2, 1], 1))],
        R(2, 3, seed=101),
        second=True,
    )
    case("split.sizes/zero-size", lambda T, x: x.split([2, 0, 1]), R(3, 2, seed=102))
    case("split.sizes/tuple-default-dim", lambda T, x: T.split(x, (1, 1, 1)), R(3, 2, seed=103))
    case("split.sizes/sum-error", lambda T, x: T.split(x, [1, 1], dim=1), R(2, 3, seed=104))
    case("to.other/float32", lambda T, x, y: x.to(y), R(2, 3, seed=110), R(1, seed=111, dtype="float32"))
    case("to.other/same-dtype", lambda T, x, y: x.to(y) * y.sum(), R(3, seed=112), R(2, seed=113), second=True)
    case("to.other/int", lambda T, x, y: x.to(y), D([1.7, -2.5, 0.0], grad=False), L([0]))
    case("to.other/copy", lambda T, x, y: x.to(y, copy=True) * 2, R(3, seed=114), R(1, seed=115))
    case("to.other/bool", lambda T, x, y: x.to(y), L([0, 2, -1]), D([True], "bool"))


_reduction_outs()
_all_any_dims()
_clamp_split_to()
