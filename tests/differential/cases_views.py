"""Differential cases of views and in-place ops (PyTorch's CopySlices and view regeneration).

Imported by cases.py (its last line), with whose `case` and input makers they register (same
rules: names unique and stable, expected.json regenerated with run_torch.py). Each case builds
a non-leaf from its inputs, so that in-place ops on its views rewrite its history, and returns
tensors whose gradients flow through the rewritten history (or raises where PyTorch refuses, in
both libraries).
"""

from __future__ import annotations

from cases import P, R, case  # cases.py imports this module once they are defined


def _register() -> None:

    def row_mul_scalar(T, a):
        x = a * 2
        x[0].mul_(3)
        return x

    def row_mul_tensor(T, a, b):
        x = a * 2
        x.select(0, 1).mul_(b)
        return x

    def view_of_view(T, a, b):
        x = a * 1
        v = x.narrow(0, 1, 2)
        v.select(1, 0).add_(b)
        return x * v.sum()

    def transposed_whole(T, a, c):
        x = a * 1
        x.t().mul_(c)
        return x

    def chain_of_views(T, a, b):
        x = a * 1
        x.view([3, 2]).t().select(1, 2).narrow(0, 0, 2).mul_(b)
        return x

    def chain_through_flat_view(T, a, b):
        x = a * 1
        x.view([2, 3]).select(0, 1).view([3]).narrow(0, 1, 2).mul_(b)
        return x

    def expanded_view_after_base(T, a):
        x = a * 2
        e = x.narrow(0, 0, 1).expand([4, 2])
        x.mul_(a)
        return e

    def view_used_after_base(T, a, b):
        x = a * 2
        v = x[0]
        x.mul_(b)
        return v * 3, x

    def base_without_grad(T, b):
        x = T.zeros([3, 2], dtype=T.float64)
        old = x[0]
        x[1].add_(b)
        return x * x + x, old * 1

    def successive(T, a, b):
        x = a * 1
        r0 = x[0]
        c1 = x.select(1, 1)
        r0.mul_(b)
        c1.mul_(3)
        x.mul_(a)
        return x + r0.sum() * c1.sum()

    def narrow_transpose_view_bases(T, a, b):
        x = a * 1
        n = x.narrow(1, 1, 1)
        tr = x.transpose(0, 1)
        v = x.view([6])
        x.select(0, 2).mul_(b)
        return n.sum() * tr + v.view([2, 3])

    def exp_of_row(T, a):
        x = a * 1
        x[1].exp_()  # exp_ saves its result: a view
        return x

    def relu_of_column(T, a):
        x = a * 1
        x.select(1, 0).relu_()
        return x

    def zero_of_narrow(T, a):
        x = a * 3
        x.narrow(1, 0, 1).zero_()
        return x

    def div_of_column(T, a, b):
        x = a * 1
        x.select(1, 1).div_(b)
        return x

    def sub_of_unsqueezed(T, a, b):
        x = a * 1
        x.unsqueeze(0).sub_(b)
        return x

    def detached_alias_then_view(T, a):
        x = a * 2
        v = x[0]
        x.detach()[0].mul_(0)
        return v * 1 + x

    def setitem_row(T, a, b):
        x = a * 2
        x[1] = b
        return x * x

    def setitem_broadcast_column(T, a, c):
        x = a * 1
        x[:, 0] = c  # c of shape [1], broadcast
        return x

    def setitem_from_itself(T, a):
        x = a * 1
        x[0] = x[2]
        return x

    def leaf_view(T, a):
        a[0].mul_(2)
        return a

    def split_output(T, a):
        x = a * 1
        x.split(1)[0].mul_(2)
        return x

    def unbind_output(T, a):
        x = a * 1
        x.unbind(1)[0].mul_(2)
        return x

    def split_output_after_base(T, a):
        x = a * 1
        pieces = x.split(1)
        x.mul_(2)
        return pieces[0] * 1

    def no_grad_view(T, a):
        x = a * 1
        with T.no_grad():
            v = x[0]
        v.mul_(2)
        return x

    def no_grad_view_after_base(T, a):
        x = a * 1
        with T.no_grad():
            v = x[0]
        x.mul_(2)
        return v * 1

    def no_grad_inplace_on_leaf_view(T, a):
        v = a[0]
        with T.no_grad():
            a.mul_(2)
        return v * 1

    case("mul_.Scalar/row-of-result", row_mul_scalar, R(3, 2, seed=20))
    case("mul_.Tensor/row-of-result", row_mul_tensor, R(3, 2, seed=21), R(2, seed=22), second=True)
    case("add_.Tensor/view-of-view", view_of_view, R(3, 2, seed=23), R(2, seed=24), second=True)
    case("mul_.Tensor/transposed-whole", transposed_whole, R(3, 2, seed=25), R(2, 3, seed=26), second=True)
    case("mul_.Tensor/chain-view-t-select-narrow", chain_of_views, R(3, 2, seed=27), R(2, seed=28))
    case("mul_.Tensor/chain-through-flat-view", chain_through_flat_view, R(3, 2, seed=29), R(2, seed=30))
    case("mul_.Tensor/expanded-view-after-base", expanded_view_after_base, R(3, 2, seed=31), second=True)
    case("mul_.Tensor/view-used-after-base", view_used_after_base, R(3, 2, seed=32), R(2, seed=33), second=True)
    case("add_.Tensor/base-without-grad", base_without_grad, R(2, seed=34))
    case("mul_.Tensor/successive-views-and-base", successive, R(3, 2, seed=35), R(2, seed=36), second=True)
    case("mul_.Tensor/narrow-transpose-view-bases", narrow_transpose_view_bases, R(3, 2, seed=37), R(2, seed=38))
    case("exp_/row-of-result", exp_of_row, R(3, 2, seed=39), second=True)
    case("relu_/column-of-result", relu_of_column, R(3, 2, seed=40))
    case("zero_/narrow-of-result", zero_of_narrow, R(3, 2, seed=41))
    case("div_.Tensor/column-of-result", div_of_column, R(3, 2, seed=42), P(3, seed=43))
    case("sub_.Tensor/unsqueezed-view", sub_of_unsqueezed, R(3, 2, seed=44), R(2, seed=45))
    case("mul_.Scalar/detached-alias-then-view", detached_alias_then_view, R(3, 2, seed=46))
    case("mul_.Scalar/leaf-view-error", leaf_view, R(3, 2, seed=47))
    case("select/setitem-row", setitem_row, R(3, 2, seed=54), R(2, seed=55), second=True)
    case("select/setitem-broadcast-column", setitem_broadcast_column, R(3, 2, seed=56), R(1, seed=57))
    case("select/setitem-from-itself", setitem_from_itself, R(3, 2, seed=58))
    case("mul_.Scalar/split-output-error", split_output, R(3, 2, seed=48))
    case("mul_.Scalar/unbind-output-error", unbind_output, R(3, 2, seed=49))
    case("mul_.Scalar/split-output-after-base-error", split_output_after_base, R(3, 2, seed=50))
    case("mul_.Scalar/no-grad-view-error", no_grad_view, R(3, 2, seed=51))
    case("mul_.Scalar/no-grad-view-after-base-error", no_grad_view_after_base, R(3, 2, seed=52))
    case("mul_.Scalar/leaf-view-no-grad-inplace", no_grad_inplace_on_leaf_view, R(3, 2, seed=53))


_register()
