"""torch.nn.functional's names and signatures over gradgen's ops.

    >>> import gradgen.nn.functional as F
    >>> y = F.gelu(x, approximate="tanh")
    >>> loss = F.cross_entropy(logits, target, label_smoothing=0.1)

Each function calls the gradgen op of the same meaning (gradgen.gelu, gradgen.cross_entropy_loss,
...), so gradients, second derivatives and forward-mode tangents are the ops'. What differs from
PyTorch is said where it does. `inplace=True` (and relu_, elu_, leaky_relu_, hardtanh_,
threshold_, celu_, selu_, rrelu_) write into the input through gradgen's in-place ops, as
PyTorch's: the version bumps, the backward is recorded, a leaf that requires grad is refused; the
dropouts' inplace=True multiply in place. `size_average` / `reduce` (deprecated in PyTorch) are
translated to `reduction` as PyTorch does. Many of the functions near the end are compositions,
as in torch/nn/functional.py (normalize, bilinear, affine_grid, the multi-margin and NLL
losses, ...), so their gradients are those of the ops they call.
"""

from __future__ import annotations

import math
import struct
import warnings
from typing import Optional

import gradgen

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "adaptive_max_pool3d",
    "affine_grid",
    "alpha_dropout",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "batch_norm",
    "bilinear",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "celu_",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "cosine_embedding_loss",
    "cosine_similarity",
    "cross_entropy",
    "ctc_loss",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "elu",
    "elu_",
    "embedding",
    "embedding_bag",
    "feature_alpha_dropout",
    "fold",
    "gaussian_nll_loss",
    "gelu",
    "glu",
    "grid_sample",
    "group_norm",
    "gumbel_softmax",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "hinge_embedding_loss",
    "huber_loss",
    "instance_norm",
    "interpolate",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "leaky_relu_",
    "linear",
    "local_response_norm",
    "log_softmax",
    "logsigmoid",
    "margin_ranking_loss",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
    "mish",
    "mse_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "pairwise_distance",
    "pdist",
    "pixel_shuffle",
    "pixel_unshuffle",
    "poisson_nll_loss",
    "prelu",
    "relu",
    "relu6",
    "relu_",
    "rms_norm",
    "rrelu",
    "rrelu_",
    "scaled_dot_product_attention",
    "selu",
    "selu_",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "soft_margin_loss",
    "softmax",
    "softmin",
    "softplus",
    "softshrink",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
    "threshold_",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "unfold",
    "upsample",
]

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction: str, size_average=None, reduce=None) -> int:
    """The op's `int reduction` (0 None, 1 Mean, 2 Sum) for PyTorch's string, legacy flags first."""
    if size_average is not None or reduce is not None:
        # PyTorch's torch.nn._reduction.legacy_get_string.
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "none" if not reduce else ("mean" if size_average else "sum")
        warnings.warn(
            "size_average and reduce args will be deprecated, please use reduction='%s' instead." % reduction,
            stacklevel=3,
        )
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTIONS[reduction]


# ---------------------------------------------------------------------------------------------
# Linear, dropout, embedding
# ---------------------------------------------------------------------------------------------


def linear(input, weight, bias=None):
    return gradgen.linear(input, weight, bias)


def dropout(input, p: float = 0.5, training: bool = True, inplace: bool = False, generator=None):
    """As torch's; `generator` (a gradgen.Generator) is gradgen's, for reproducible masks."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if inplace:
        # ATen's dropout_: input times the scaled Bernoulli mask, in place.
        return _dropout_impl("dropout", input, p, training, True, 0, False, generator)
    return gradgen.dropout(input, p, training, generator)


def embedding(
    input,
    weight,
    padding_idx: Optional[int] = None,
    max_norm: Optional[float] = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
):
    if padding_idx is None:
        padding_idx = -1
    else:
        rows = weight.shape[0]
        if padding_idx >= rows or padding_idx < -rows:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            padding_idx = rows + padding_idx
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    return gradgen.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def _embedding_renorm_(weight, input, max_norm: float, norm_type: float) -> None:
    """ATen's embedding_renorm_, under no_grad as torch's _no_grad_embedding_renorm_: each row of
    weight that input names and whose norm_type-norm exceeds max_norm is scaled in place by
    max_norm / (norm + 1e-7)."""
    if weight.dim() != 2:
        raise RuntimeError(
            f"embedding_renorm_: Expected 2-dimensional tensor for argument #1 'self', got {weight.dim()}"
        )
    with gradgen.no_grad():
        rows = gradgen.unique(input.reshape([-1]))
        if rows.numel() == 0:
            return
        values = gradgen.index_select(weight, 0, rows)
        norms = values.norm(norm_type, 1, keepdim=True)
        scale = gradgen.where(norms > max_norm, max_norm / (norms + 1e-7), gradgen.ones_like(norms))
        weight.index_put_((rows,), values * scale)


# ---------------------------------------------------------------------------------------------
# Activations
# ---------------------------------------------------------------------------------------------


def relu(input, inplace: bool = False):
    return gradgen.relu_(input) if inplace else gradgen.relu(input)


def relu6(input, inplace: bool = False):
    return gradgen.hardtanh_(input, 0.0, 6.0) if inplace else gradgen.hardtanh(input, 0.0, 6.0)


def sigmoid(input):
    return gradgen.sigmoid(input)


def tanh(input):
    return gradgen.tanh(input)


def gelu(input, approximate: str = "none"):
    return gradgen.gelu(input, approximate=approximate)


def silu(input, inplace: bool = False):
    return gradgen.silu_(input) if inplace else gradgen.silu(input)


def mish(input, inplace: bool = False):
    return gradgen.mish_(input) if inplace else gradgen.mish(input)


def elu(input, alpha: float = 1.0, inplace: bool = False):
    return gradgen.elu_(input, alpha) if inplace else gradgen.elu(input, alpha)


def selu(input, inplace: bool = False):
    return gradgen.selu_(input) if inplace else gradgen.selu(input)


def celu(input, alpha: float = 1.0, inplace: bool = False):
    return gradgen.celu_(input, alpha) if inplace else gradgen.celu(input, alpha)


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False):
    if inplace:
        return gradgen.leaky_relu_(input, negative_slope)
    return gradgen.leaky_relu(input, negative_slope)


def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return gradgen.hardtanh_(input, min_val, max_val)
    return gradgen.hardtanh(input, min_val, max_val)


def hardsigmoid(input, inplace: bool = False):
    return gradgen.hardsigmoid_(input) if inplace else gradgen.hardsigmoid(input)


def hardswish(input, inplace: bool = False):
    return gradgen.hardswish_(input) if inplace else gradgen.hardswish(input)


def softplus(input, beta: float = 1.0, threshold: float = 20.0):
    return gradgen.softplus(input, beta, threshold)


def softshrink(input, lambd: float = 0.5):
    return gradgen.softshrink(input, lambd)


def hardshrink(input, lambd: float = 0.5):
    return gradgen.hardshrink(input, lambd)


def tanhshrink(input):
    return input - gradgen.tanh(input)


def logsigmoid(input):
    return gradgen.log_sigmoid(input)


def threshold(input, threshold: float, value: float, inplace: bool = False):
    if inplace:
        return gradgen.threshold_(input, threshold, value)
    return gradgen.threshold(input, threshold, value)


# The in-place activations, as torch.nn.functional's (torch._C._nn's / torch's): each writes its
# result into input, bumps its version and records the backward (a leaf that requires grad is
# refused, as by every in-place op).


def relu_(input):
    return gradgen.relu_(input)


def elu_(input, alpha: float = 1.0):
    return gradgen.elu_(input, alpha)


def celu_(input, alpha: float = 1.0):
    return gradgen.celu_(input, alpha)


def selu_(input):
    return gradgen.selu_(input)


def leaky_relu_(input, negative_slope: float = 0.01):
    return gradgen.leaky_relu_(input, negative_slope)


def hardtanh_(input, min_val: float = -1.0, max_val: float = 1.0):
    return gradgen.hardtanh_(input, min_val, max_val)


def threshold_(input, threshold: float, value: float):
    return gradgen.threshold_(input, threshold, value)


def glu(input, dim: int = -1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return gradgen.glu(input, dim)


def prelu(input, weight):
    return gradgen.prelu(input, weight)


def _softmax_dim(name: str, ndim: int) -> int:
    # PyTorch's implicit choice (deprecated there too).
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=3,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim: Optional[int] = None, _stacklevel: int = 3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    return gradgen.softmax(input, dim, dtype)


def log_softmax(input, dim: Optional[int] = None, _stacklevel: int = 3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    return gradgen.log_softmax(input, dim, dtype)


# ---------------------------------------------------------------------------------------------
# Padding
# ---------------------------------------------------------------------------------------------


def pad(input, pad, mode: str = "constant", value: Optional[float] = None):
    """mode 'constant' (value, default 0), 'reflect', 'replicate' or 'circular', as torch's."""
    return gradgen.pad(input, list(pad), mode, value)


# ---------------------------------------------------------------------------------------------
# Normalization
# ---------------------------------------------------------------------------------------------


def _shape_list(normalized_shape):
    return [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-5):
    return gradgen.layer_norm(input, _shape_list(normalized_shape), weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps: Optional[float] = None):
    """eps None is the input dtype's machine epsilon, as torch's."""
    return gradgen.rms_norm(input, _shape_list(normalized_shape), weight, eps)


def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-5):
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    return gradgen.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(
    input,
    running_mean,
    running_var,
    weight=None,
    bias=None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
):
    """As torch's: training normalizes with the batch's statistics and updates running_mean /
    running_var in place (when given); otherwise normalizes with them."""
    if training:
        # torch.nn.functional._verify_batch_size
        size = list(input.shape)
        values = size[0] if size else 1
        for s in size[2:]:
            values *= s
        if values == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")
    return gradgen.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def instance_norm(
    input,
    running_mean=None,
    running_var=None,
    weight=None,
    bias=None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
):
    """As torch's: each (sample, channel) normalized by its own statistics (use_input_stats) or by
    running_mean / running_var, which are updated in place when given and use_input_stats."""
    if use_input_stats:
        # torch.nn.functional._verify_spatial_size
        size = list(input.shape)
        values = 1
        for s in size[2:]:
            values *= s
        if values == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")
    return gradgen.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, False)


# ---------------------------------------------------------------------------------------------
# Convolution (channels first; padding a number, a list, or "valid" / "same")
# ---------------------------------------------------------------------------------------------


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    return gradgen.conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    return gradgen.conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    return gradgen.conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups: int = 1, dilation=1):
    return gradgen.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups: int = 1, dilation=1):
    return gradgen.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups: int = 1, dilation=1):
    return gradgen.conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups, dilation)


# ---------------------------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------------------------


def _pool_list(v, n: int):
    if v is None:
        return []
    return [v] * n if isinstance(v, int) else list(v)


def max_pool2d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False, return_indices: bool = False
):
    """stride None is kernel_size; return_indices gives (output, indices) as torch's."""
    out, indices = gradgen.max_pool2d_with_indices(
        input,
        _pool_list(kernel_size, 2),
        _pool_list(stride, 2),
        _pool_list(padding, 2),
        _pool_list(dilation, 2),
        ceil_mode,
    )
    return (out, indices) if return_indices else out


def max_pool1d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False, return_indices: bool = False
):
    """stride None is kernel_size; return_indices gives (output, indices) as torch's."""
    args = (_pool_list(kernel_size, 1), _pool_list(stride, 1), _pool_list(padding, 1), _pool_list(dilation, 1))
    if return_indices:
        return gradgen.max_pool1d_with_indices(input, *args, ceil_mode)
    return gradgen.max_pool1d(input, *args, ceil_mode)


def avg_pool2d(
    input,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Optional[int] = None,
):
    return gradgen.avg_pool2d(
        input,
        _pool_list(kernel_size, 2),
        _pool_list(stride, 2),
        _pool_list(padding, 2),
        ceil_mode,
        count_include_pad,
        divisor_override,
    )


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False, count_include_pad: bool = True):
    return gradgen.avg_pool1d(
        input,
        _pool_list(kernel_size, 1),
        _pool_list(stride, 1),
        _pool_list(padding, 1),
        ceil_mode,
        count_include_pad,
    )


def max_pool3d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False, return_indices: bool = False
):
    """[N, C, D, H, W] or [C, D, H, W]; stride None is kernel_size; return_indices gives (output,
    indices), flat positions within each D x H x W volume, as torch's."""
    out, indices = gradgen.max_pool3d_with_indices(
        input,
        _pool_list(kernel_size, 3),
        _pool_list(stride, 3),
        _pool_list(padding, 3),
        _pool_list(dilation, 3),
        ceil_mode,
    )
    return (out, indices) if return_indices else out


def avg_pool3d(
    input,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Optional[int] = None,
):
    return gradgen.avg_pool3d(
        input,
        _pool_list(kernel_size, 3),
        _pool_list(stride, 3),
        _pool_list(padding, 3),
        ceil_mode,
        count_include_pad,
        divisor_override,
    )


def _unpool_size(input, kernel_size, stride, padding, output_size, n):
    """torch's _unpool_output_size: (in - 1) * stride - 2 * padding + kernel_size per spatial
    dim unless output_size (n sizes, or n + 2 with the leading ones) names one within a stride of
    it; a negative size is a ValueError."""
    k = _pool_list(kernel_size, n)
    s = _pool_list(stride, n) if stride is not None else k
    p = _pool_list(padding, n)
    shape = list(input.shape)
    default = [(shape[len(shape) - n + d] - 1) * s[d] + k[d] - 2 * p[d] for d in range(n)]
    if output_size is None:
        size = default
    else:
        size = list(output_size)
        if len(size) == n + 2:
            size = size[2:]
        if len(size) != n:
            raise ValueError(
                f"output_size should be a sequence containing {n} or {n + 2} elements, "
                f"but it has a length of '{len(size)}'"
            )
        for d in range(n):
            lo, hi = default[d] - s[d], default[d] + s[d]
            if not lo < size[d] < hi:
                raise ValueError(f'invalid output_size "{size}" (dim {d} must be between {lo} and {hi})')
    for d in range(n):
        if size[d] < 0:
            raise ValueError(
                "max_unpooling: output_size must contain non-negative spatial dimensions, "
                f"but got output_size[{d}]={size[d]}"
            )
    return [int(v) for v in size], s, p


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool1d(..., return_indices=True), as torch's: max_unpool2d of the input
    with a trailing dim of 1."""
    size, _, _ = _unpool_size(input, kernel_size, stride, padding, output_size, 1)
    return gradgen.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), size + [1]).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool2d(..., return_indices=True), as torch's: the output's size is
    (in - 1) * stride - 2 * padding + kernel_size unless output_size (2 sizes, or 4 with the
    leading ones) names one within a stride of it."""
    size, _, _ = _unpool_size(input, kernel_size, stride, padding, output_size, 2)
    return gradgen.max_unpool2d(input, indices, size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool3d(..., return_indices=True), as torch's (sizes as max_unpool2d's,
    over D, H, W)."""
    size, s, p = _unpool_size(input, kernel_size, stride, padding, output_size, 3)
    return gradgen.max_unpool3d(input, indices, size, s, p)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding blocks of [N, C, H, W] (or [C, H, W]) as [N, C * kh * kw, L], as torch's."""
    return gradgen.im2col(
        input,
        _pool_list(kernel_size, 2),
        _pool_list(dilation, 2),
        _pool_list(padding, 2),
        _pool_list(stride, 2),
    )


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """unfold's adjoint: [N, C * kh * kw, L] (or [C * kh * kw, L]) blocks summed into an
    output_size image, as torch's."""
    return gradgen.col2im(
        input,
        _pool_list(output_size, 2),
        _pool_list(kernel_size, 2),
        _pool_list(dilation, 2),
        _pool_list(padding, 2),
        _pool_list(stride, 2),
    )


def scaled_dot_product_attention(
    query, key, value, attn_mask=None, dropout_p: float = 0.0, is_causal: bool = False, scale=None, enable_gqa=False
):
    """PyTorch's math composite: softmax(q k^T * scale + mask) v (a bool mask keeps where true);
    dropout_p > 0 drops attention weights with gradgen's default generator."""
    return gradgen.scaled_dot_product_attention(
        query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa
    )


def embedding_bag(
    input,
    weight,
    offsets=None,
    max_norm=None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights=None,
    include_last_offset: bool = False,
    padding_idx: Optional[int] = None,
):
    """As torch's: a 2-D input is a batch of bags of equal length (offsets None), a 1-D input
    has bags starting at offsets; mode "sum", "mean" or "max"; max_norm renormalizes the rows
    input names in place, as torch's. Sparse gradients raise NotImplementedError."""
    if sparse:
        raise NotImplementedError("embedding_bag: sparse gradients are not supported by gradgen")
    shape = list(input.shape)
    if len(shape) == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                f"length sequences. However, found offsets of type {type(offsets).__name__}"
            )
        offsets = gradgen.tensor(list(range(0, shape[0] * shape[1], shape[1])), dtype=gradgen.int64)
        input = input.reshape([-1])
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape([-1])
    elif len(shape) == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if len(offsets.shape) != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {len(shape)}")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    modes = {"sum": 0, "mean": 1, "max": 2}
    if mode not in modes:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
            f"mode='sum' (got mode='{mode}'). Please open a feature request on GitHub."
        )
    out = gradgen.embedding_bag(
        weight,
        input,
        offsets,
        scale_grad_by_freq,
        modes[mode],
        False,
        per_sample_weights,
        include_last_offset,
        padding_idx,
    )
    return out[0]


def _adaptive_size(output_size, input, n: int):
    """output_size as a list of n ints; a None entry keeps the input's size (as torch's)."""
    sizes = [output_size] * n if isinstance(output_size, int) or output_size is None else list(output_size)
    return [input.shape[len(input.shape) - n + i] if v is None else v for i, v in enumerate(sizes)]


def adaptive_avg_pool1d(input, output_size):
    return gradgen.adaptive_avg_pool1d(input, _adaptive_size(output_size, input, 1))


def adaptive_avg_pool2d(input, output_size):
    return gradgen.adaptive_avg_pool2d(input, _adaptive_size(output_size, input, 2))


def adaptive_max_pool1d(input, output_size, return_indices: bool = False):
    out, indices = gradgen.adaptive_max_pool1d(input, _adaptive_size(output_size, input, 1))
    return (out, indices) if return_indices else out


def adaptive_max_pool2d(input, output_size, return_indices: bool = False):
    out, indices = gradgen.adaptive_max_pool2d(input, _adaptive_size(output_size, input, 2))
    return (out, indices) if return_indices else out


# ---------------------------------------------------------------------------------------------
# Resampling
# ---------------------------------------------------------------------------------------------


def pixel_shuffle(input, upscale_factor: int):
    return gradgen.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor: int):
    return gradgen.pixel_unshuffle(input, downscale_factor)


def _interpolate_sizes(input, size, scale_factor, recompute_scale_factor):
    """(output_size, scales) as torch.nn.functional.interpolate computes them."""
    dim = len(input.shape) - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with "
                    f"spatial dimensions of {list(input.shape[2:])} and output size of {size}. Please provide "
                    "input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format."
                )
            return [int(v) for v in size], [None] * dim
        return [int(size)] * dim, [None] * dim
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != dim:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but got input with "
                f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. "
                "Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, "
                "...,sK) format."
            )
        scales = [float(v) for v in scale_factor]
    else:
        scales = [float(scale_factor)] * dim
    # The output size of ATen's .vec overloads: int(input size * scale), truncated.
    out = [int(input.shape[2 + i] * scales[i]) for i in range(dim)]
    if recompute_scale_factor:
        return [int(math.floor(float(input.shape[2 + i]) * scales[i])) for i in range(dim)], [None] * dim
    return out, scales


def _float32(v: float) -> float:
    return struct.unpack("f", struct.pack("f", v))[0]


def _nearest_exact(input, output_size, scales):
    """ATen's _upsample_nearest_exact{1,2,3}d: output index i reads input index
    min(floor((i + 0.5) * scale), in - 1), scale = 1 / scale_factor when given, else in / out (in
    float, as ATen's). Separable: one index_select per spatial dim, whose backward sums the
    gradient into the read positions, as ATen's backward."""
    out = input
    for k, (o, sc) in enumerate(zip(output_size, scales)):
        d = 2 + k
        n = input.shape[d]
        if o <= 0 or n <= 0:
            raise RuntimeError(
                "Input and output sizes should be greater than 0, but got input "
                f"({', '.join(str(v) for v in input.shape[2:])}) and output "
                f"({', '.join(str(v) for v in output_size)})"
            )
        scale = _float32(1.0 / sc) if sc is not None and sc > 0 else _float32(_float32(n) / _float32(o))
        index = [min(int(math.floor(_float32((i + 0.5) * scale))), n - 1) for i in range(o)]
        out = gradgen.index_select(out, d, gradgen.tensor(index, dtype=gradgen.int64))
    return out


_GRID_SAMPLE_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_GRID_SAMPLE_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


def _grid_align_corners(align_corners: Optional[bool]) -> bool:
    """grid_sample's and affine_grid's align_corners: None is False, with torch's warning (shown
    at the caller's caller, the user's line)."""
    if align_corners is None:
        warnings.warn(
            "Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
            "Please specify align_corners=True if the old behavior is desired. "
            "See the documentation of grid_sample for details.",
            stacklevel=3,
        )
        return False
    return align_corners


def grid_sample(input, grid, mode: str = "bilinear", padding_mode: str = "zeros", align_corners=None):
    """As torch's: samples input [N, C, H, W] at grid [N, H_out, W_out, 2] ((x, y) in [-1, 1]),
    modes "bilinear", "nearest", "bicubic", padding modes "zeros", "border", "reflection";
    input [N, C, D, H, W] at grid [N, D_out, H_out, W_out, 3] ((x, y, z), grid_sampler_3d:
    "bilinear" and "nearest"); align_corners None means False, with torch's warning."""
    if mode not in _GRID_SAMPLE_MODES:
        raise ValueError(
            f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '{mode}'"
        )
    if padding_mode not in _GRID_SAMPLE_PADDINGS:
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    align_corners = _grid_align_corners(align_corners)
    return gradgen.grid_sampler(
        input, grid, _GRID_SAMPLE_MODES[mode], _GRID_SAMPLE_PADDINGS[padding_mode], bool(align_corners)
    )


def interpolate(
    input,
    size=None,
    scale_factor=None,
    mode: str = "nearest",
    align_corners: Optional[bool] = None,
    recompute_scale_factor: Optional[bool] = None,
    antialias: bool = False,
):
    """As torch's: modes "nearest" (3-D to 5-D inputs), "linear" (3-D), "bilinear" and "bicubic"
    (4-D), "trilinear" (5-D), "nearest-exact" (3-D to 5-D) and "area" (adaptive average pooling,
    3-D to 5-D inputs); antialias (bilinear and bicubic of 4-D inputs only, as torch's)
    resamples with PyTorch's antialiasing filters (_upsample_bilinear2d_aa,
    _upsample_bicubic2d_aa)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: linear | bilinear | "
                "bicubic | trilinear"
            )
    elif align_corners is None:
        align_corners = False
    if mode == "area" and size is None:
        # torch: area interpolation with a scale factor always recomputes the size.
        recompute_scale_factor = True
    output_size, scales = _interpolate_sizes(input, size, scale_factor, recompute_scale_factor)
    dim = len(input.shape)
    if antialias and not (mode in ("bilinear", "bicubic") and dim == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input"
        )
    if antialias and mode == "bilinear":
        return gradgen._upsample_bilinear2d_aa(input, output_size, align_corners, scales[0], scales[1])
    if antialias and mode == "bicubic":
        return gradgen._upsample_bicubic2d_aa(input, output_size, align_corners, scales[0], scales[1])
    if mode == "nearest" and dim == 3:
        return gradgen.upsample_nearest1d(input, output_size, scales[0])
    if mode == "nearest" and dim == 4:
        return gradgen.upsample_nearest2d(input, output_size, scales[0], scales[1])
    if mode == "nearest" and dim == 5:
        return gradgen.upsample_nearest3d(input, output_size, scales[0], scales[1], scales[2])
    if mode == "nearest-exact" and dim in (3, 4, 5):
        return _nearest_exact(input, output_size, scales)
    if mode == "area" and dim == 3:
        return gradgen.adaptive_avg_pool1d(input, output_size)
    if mode == "area" and dim == 4:
        return gradgen.adaptive_avg_pool2d(input, output_size)
    if mode == "linear" and dim == 3:
        return gradgen.upsample_linear1d(input, output_size, align_corners, scales[0])
    if mode == "bilinear" and dim == 4:
        return gradgen.upsample_bilinear2d(input, output_size, align_corners, scales[0], scales[1])
    if mode == "bicubic" and dim == 4:
        return gradgen.upsample_bicubic2d(input, output_size, align_corners, scales[0], scales[1])
    if mode == "trilinear" and dim == 5:
        return gradgen.upsample_trilinear3d(input, output_size, align_corners, scales[0], scales[1], scales[2])
    needs = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
    if dim in (3, 4, 5) and mode in needs:
        raise NotImplementedError(f"Got {dim}D input, but {mode} mode needs {needs[mode]}D input")
    if dim == 5 and mode == "area":
        return adaptive_avg_pool3d(input, output_size)
    if dim in (3, 4, 5) and mode == "area":
        raise NotImplementedError(f"interpolate: gradgen has no mode {mode!r} for {dim}-D input")
    raise NotImplementedError(
        f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {dim}D) for the modes: nearest | "
        f"linear | bilinear | bicubic | trilinear | area | nearest-exact (got {mode})"
    )


# ---------------------------------------------------------------------------------------------
# Distances, one_hot
# ---------------------------------------------------------------------------------------------


def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8):
    return gradgen.cosine_similarity(x1, x2, dim, eps)


def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
    return gradgen.pairwise_distance(x1, x2, p, eps, keepdim)


def one_hot(tensor, num_classes: int = -1):
    return gradgen.one_hot(tensor, num_classes)


# ---------------------------------------------------------------------------------------------
# Losses
# ---------------------------------------------------------------------------------------------


def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None):
    if weight is not None:
        raise NotImplementedError("mse_loss: weight is not supported by gradgen")
    return gradgen.mse_loss(input, target, _reduction(reduction, size_average, reduce))


def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    return gradgen.l1_loss(input, target, _reduction(reduction, size_average, reduce))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0):
    # As torch.nn.functional's: beta 0 is l1_loss (whose gradient is 0 where input == target;
    # the smooth_l1_loss op's own at beta 0 is -1 there, as ATen's).
    if beta == 0.0:
        return gradgen.l1_loss(input, target, _reduction(reduction, size_average, reduce))
    return gradgen.smooth_l1_loss(input, target, _reduction(reduction, size_average, reduce), beta)


def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0, weight=None):
    if weight is not None:
        raise NotImplementedError("huber_loss: weight is not supported by gradgen")
    return gradgen.huber_loss(input, target, _reduction(reduction), delta)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    return gradgen.soft_margin_loss(input, target, _reduction(reduction, size_average, reduce))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean"):
    if list(target.shape) != list(input.shape):
        raise ValueError(
            f"Using a target size ({list(target.shape)}) that is different to the input size "
            f"({list(input.shape)}) is deprecated. Please ensure they have the same size."
        )
    return gradgen.binary_cross_entropy(input, target, weight, _reduction(reduction, size_average, reduce))


def binary_cross_entropy_with_logits(
    input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean", pos_weight=None
):
    r = _reduction(reduction, size_average, reduce)
    if list(target.shape) != list(input.shape):
        raise ValueError(f"Target size ({list(target.shape)}) must be the same as input size ({list(input.shape)})")
    return gradgen.binary_cross_entropy_with_logits(input, target, weight, pos_weight, r)


def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False):
    if reduction == "batchmean":
        # The sum divided by the batch size (dim 0), PyTorch's mathematically correct mean.
        total = gradgen.kl_div(input, target, 2, log_target=log_target)
        return total / input.shape[0] if input.dim() != 0 else total
    if reduction == "mean" and size_average is None and reduce is None:
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support size."
            "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
            "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
            stacklevel=2,
        )
    return gradgen.kl_div(input, target, _reduction(reduction, size_average, reduce), log_target=log_target)


def margin_ranking_loss(
    input1, input2, target, margin: float = 0, size_average=None, reduce=None, reduction: str = "mean"
):
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {list(input1.shape)}, input2: {list(input2.shape)}, target: {list(target.shape)} "
        )
    return gradgen.margin_ranking_loss(input1, input2, target, margin, _reduction(reduction, size_average, reduce))


def nll_loss(
    input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None, reduction: str = "mean"
):
    # nll_loss_nd, as torch.nn.functional.nll_loss: [C], [N, C] and [N, C, d1, ..., dK].
    return gradgen.nll_loss_nd(input, target, weight, _reduction(reduction, size_average, reduce), ignore_index)


def cross_entropy(
    input,
    target,
    weight=None,
    size_average=None,
    ignore_index: int = -100,
    reduce=None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
):
    r = _reduction(reduction, size_average, reduce)
    return gradgen.cross_entropy_loss(input, target, weight, r, ignore_index, label_smoothing)


def ctc_loss(
    log_probs,
    targets,
    input_lengths,
    target_lengths,
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
):
    """torch's: log_probs [T, N, C] (or unbatched [T, C]), targets [N, S] padded or 1-D
    concatenated; the lengths as tensors (ctc_loss.Tensor) or lists / tuples of ints
    (ctc_loss.IntList). The gradient is PyTorch's, that of the loss through a log_softmax of
    log_probs (gradgen.ctc_loss's comment in specs/native_functions.yaml)."""
    return gradgen.ctc_loss(
        log_probs, targets, input_lengths, target_lengths, blank, _reduction(reduction), zero_infinity
    )


def cosine_embedding_loss(
    input1, input2, target, margin: float = 0, size_average=None, reduce=None, reduction: str = "mean"
):
    return gradgen.cosine_embedding_loss(input1, input2, target, margin, _reduction(reduction, size_average, reduce))


def triplet_margin_loss(
    anchor,
    positive,
    negative,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
):
    r = _reduction(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return gradgen.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, r)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    return gradgen.multilabel_margin_loss(input, target, _reduction(reduction, size_average, reduce))


# ---------------------------------------------------------------------------------------------
# Compositions of PyTorch's own (torch/nn/functional.py, or ATen's CompositeImplicitAutograd
# kernels), over gradgen's ops: their gradients are those of the ops they call.
# ---------------------------------------------------------------------------------------------


def softsign(input):
    return input / (gradgen.abs(input) + 1)


def softmin(input, dim: Optional[int] = None, _stacklevel: int = 3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmin", input.dim())
    return gradgen.softmax(-input, dim, dtype)


def normalize(input, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None):
    """input / max(||input||_p along dim, eps), as torch's."""
    denom = gradgen.clamp_min(input.norm(p, dim, keepdim=True), eps).expand_as(input)
    if out is None:
        return input / denom
    return gradgen.div(input, denom, rounding_mode=None, out=out)


def local_response_norm(input, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
    """input / (k + alpha * mean of input^2 over `size` neighbouring channels)^beta, as torch's."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input * input
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = list(input.shape)
        div = div.reshape([sizes[0], 1, sizes[1], sizes[2], -1])
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.reshape(sizes)
    div = gradgen.pow(div * alpha + k, beta)
    return input / div


def bilinear(input1, input2, weight, bias=None):
    """y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o], as ATen's
    bilinear (its checks and messages)."""
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    s1, s2, sw = list(input1.shape), list(input2.shape), list(weight.shape)
    for i in range(input1.dim() - 1):
        if s1[i] != s2[i]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match: got {s1[i]} and {s2[i]} for dimension {i}"
            )
    if weight.dim() != 3:
        raise RuntimeError(f"bilinear(): weight must be three-dimensional, but got {weight.dim()} dimension(s)")
    if s1[-1] != sw[1]:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {s1[-1]} but expected {sw[1]}")
    if s2[-1] != sw[2]:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {s2[-1]} but expected {sw[2]}")
    if bias is not None and (bias.dim() != 1 or list(bias.shape)[0] != sw[0]):
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {list(bias.shape)[-1] if bias.dim() else 1} "
            f"but expected {sw[0]}"
        )
    out = gradgen.einsum("...i,oij,...j->...o", input1, weight, input2)
    return out if bias is None else out + bias


def pdist(input, p: float = 2.0):
    """The p-norm distances between the rows of input [N, M], for i < j in row-major order
    ([N * (N - 1) / 2]), as torch's."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.is_floating_point():
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = input.shape[0]
    pairs = gradgen.triu_indices(n, n, 1)
    diff = gradgen.index_select(input, 0, pairs[0]) - gradgen.index_select(input, 0, pairs[1])
    return diff.norm(p, 1)


def affine_grid(theta, size, align_corners: Optional[bool] = None):
    """The sampling grid [N, H, W, 2] (size [N, C, H, W], theta [N, 2, 3]) or [N, D, H, W, 3]
    (size [N, C, D, H, W], theta [N, 3, 4]) of grid_sample for the affine maps theta, as torch's:
    the base grid's (x, y[, z], 1) rows times theta transposed."""
    align_corners = _grid_align_corners(align_corners)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = list(size)
    shape = list(theta.shape)
    if len(size) == 4:
        if theta.dim() != 3 or shape[-2] != 2 or shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got {shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or shape[-2] != 3 or shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. Got {shape}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
            f"Got size {size}."
        )
    if align_corners and min(spatial) == 1:
        warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when align_corners=True. "
            "This is not an intended use case of affine_grid. See the documentation of affine_grid for details.",
            stacklevel=2,
        )
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    n = size[0]

    def steps(num):  # ATen's linspace_from_neg_one
        if num <= 1:
            return gradgen.zeros([1], dtype=theta.dtype)
        r = gradgen.linspace(-1.0, 1.0, num, dtype=theta.dtype)
        return r * (num - 1) / num if not align_corners else r

    # The base grid's coordinates, x fastest: (x, y, 1) over [H, W] or (x, y, z, 1) over [D, H, W].
    coords = [steps(v) for v in reversed(spatial)]
    grid_shape = list(spatial)
    k = len(spatial)
    pieces = []
    for i, c in enumerate(coords):
        view = [1] * k
        view[k - 1 - i] = len(c) if spatial[k - 1 - i] > 1 else 1
        pieces.append(c.reshape(view).expand(grid_shape))
    pieces.append(gradgen.ones(grid_shape, dtype=theta.dtype))
    base = gradgen.stack(pieces, -1).reshape([1, -1, k + 1]).expand([n, -1, k + 1])
    grid = gradgen.bmm(base, theta.transpose(1, 2))
    return grid.reshape([n] + grid_shape + [k])


def gumbel_softmax(logits, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1):
    """softmax((logits + g) / tau) with g ~ Gumbel(0, 1) drawn from gradgen's default generator;
    hard: the one-hot of its argmax in the forward pass, the soft sample's gradient in the
    backward (straight through), as torch's."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -gradgen.log(gradgen.empty_like(logits).exponential_())
    y_soft = gradgen.softmax((logits + gumbels) / tau, dim)
    if not hard:
        return y_soft
    index = gradgen.max(y_soft, dim, True)[1]
    y_hard = gradgen.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def upsample(input, size=None, scale_factor=None, mode: str = "nearest", align_corners: Optional[bool] = None):
    """Deprecated in PyTorch (with its warning): interpolate."""
    warnings.warn(
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode, align_corners)


def _rrelu_slopes(input, lower: float, upper: float, training: bool):
    """rrelu's slope per element: a draw from U(lower, upper) where input <= 0 in training (ATen's
    rrelu_with_noise), else None (eval: leaky_relu with slope (lower + upper) / 2)."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not training:
        return None
    with gradgen.no_grad():
        noise = gradgen.empty_like(input).uniform_(lower, upper)
        return gradgen.where(input <= 0, noise, gradgen.ones_like(input))


def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, inplace: bool = False):
    if inplace:
        return rrelu_(input, lower, upper, training)
    slopes = _rrelu_slopes(input, lower, upper, training)
    if slopes is None:
        return gradgen.leaky_relu(input, (lower + upper) / 2)
    return input * slopes


def rrelu_(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False):
    slopes = _rrelu_slopes(input, lower, upper, training)
    if slopes is None:
        return gradgen.leaky_relu_(input, (lower + upper) / 2)
    return input.mul_(slopes)


# ATen's _dropout_impl: feature variants draw one Bernoulli per (sample, channel), alpha variants
# keep SELU's self-normalizing mean and variance (dropped values set to -alpha * scale, then an
# affine correction).
_SELU_ALPHA_SCALE = 1.7580993408473766


def _dropout_impl(name: str, input, p: float, training: bool, inplace: bool, feature: int, alpha: bool, generator=None):
    """feature: 0 draws per element; 2 per (sample, channel) of [N, C, ...]; 1 per channel of an
    unbatched [C, ...] (torch unsqueezes it to a batch of one)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = gradgen.zeros([], dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    if feature:
        if input.dim() + (2 - feature) < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = list(input.shape)[:feature] + [1] * (input.dim() - feature)
        noise = gradgen.empty(shape, dtype=input.dtype)
    else:
        noise = gradgen.empty_like(input)
    with gradgen.no_grad():
        noise.bernoulli_(1 - p, generator=generator)
        if alpha:
            a = 1.0 / math.sqrt((_SELU_ALPHA_SCALE * _SELU_ALPHA_SCALE * p + 1) * (1 - p))
            b = (noise - 1) * (_SELU_ALPHA_SCALE * a) + _SELU_ALPHA_SCALE * a * p
            noise = noise * a
        else:
            noise = noise / (1 - p)
    if not alpha:
        return input.mul_(noise) if inplace else input * noise
    return input.mul_(noise).add_(b) if inplace else input * noise + b


def dropout1d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zeroes whole channels of [N, C, L] (or [C, L]) with probability p, as torch's."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that dropout1d "
            "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, "
            "and an optional batch dimension (i.e. 2D or 3D inputs)."
        )
    return _dropout_impl("dropout1d", input, p, training, inplace, 2 if input.dim() == 3 else 1, False)


def dropout2d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zeroes whole channels (dim 1) with probability p, scaling the others by 1 / (1 - p), as
    torch's, warnings included (a 3-D input is taken as [N, C, L], as torch does today)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    inp_dim = input.dim()
    if inp_dim not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {inp_dim}-D input to dropout2d, which is deprecated and will result in an "
            "error in a future release. To retain the behavior and silence this warning, please use dropout "
            "instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial "
            "dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
            stacklevel=2,
        )
    if inp_dim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is "
            "desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will "
            "change in a future release to interpret the input as one without a batch dimension, i.e. shape "
            "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d "
            "instead.",
            stacklevel=2,
        )
    return _dropout_impl("dropout2d", input, p, training, inplace, 2, False)


def dropout3d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zeroes whole channels of [N, C, D, H, W] (or [C, D, H, W]) with probability p, as torch's."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    inp_dim = input.dim()
    if inp_dim not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {inp_dim}-D input to dropout3d, which is deprecated and will result in an "
            "error in a future release. To retain the behavior and silence this warning, please use dropout "
            "instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial "
            "dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).",
            stacklevel=2,
        )
    return _dropout_impl("dropout3d", input, p, training, inplace, 2 if inp_dim == 5 else 1, False)


def alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """Dropout that keeps SELU's zero mean and unit variance, as torch's (eval: input itself)."""
    return _dropout_impl("alpha_dropout", input, p, training, inplace, 0, True)


def feature_alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """alpha_dropout by whole channels (dim 1), as torch's."""
    return _dropout_impl("feature_alpha_dropout", input, p, training, inplace, 2, True)


# ---------------------------------------------------------------------------------------------
# Losses composed as PyTorch's (torch/nn/functional.py, ATen's Loss.cpp)
# ---------------------------------------------------------------------------------------------


def _reduce(loss, r: int):
    return loss if r == 0 else (loss.mean() if r == 1 else loss.sum())


def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None, reduce=None, reduction: str = "mean"):
    """input where target is 1, max(0, margin - input) where it is -1 (ATen's composite)."""
    r = _reduction(reduction, size_average, reduce)
    zeros = gradgen.zeros_like(input)
    margin_clamp = gradgen.clamp_min(margin - input, 0)
    output = gradgen.where(target != 1, margin_clamp, zeros) + gradgen.where(target != -1, input, zeros)
    return _reduce(output, r)


def poisson_nll_loss(
    input,
    target,
    log_input: bool = True,
    full: bool = False,
    size_average=None,
    eps: float = 1e-8,
    reduce=None,
    reduction: str = "mean",
):
    """exp(input) - target * input (log_input), else input - target * log(input + eps); full adds
    Stirling's term where target > 1 (ATen's composite)."""
    if size_average is not None or reduce is not None:
        reduction = ["none", "mean", "sum"][_reduction(reduction, size_average, reduce)]
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        loss = gradgen.exp(input) - target * input
    else:
        loss = input - target * gradgen.log(input + eps)
    if full:
        stirling = target * gradgen.log(target) - target + 0.5 * gradgen.log(2 * math.pi * target)
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, _REDUCTIONS[reduction])


def gaussian_nll_loss(input, target, var, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
    """0.5 * (log(max(var, eps)) + (input - target)^2 / max(var, eps)) (+ 0.5 log(2 pi) when
    full), as torch's: var the input's shape, or one dim short, or with one dim of size 1; the
    clamp is not differentiated (var's gradient passes it as the identity)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * gradgen.ones_like(input)
    elif bool(gradgen.any(var < 0)):
        raise ValueError("var has negative entry/entries")
    in_shape, var_shape = list(input.shape), list(var.shape)
    if var_shape != in_shape:
        if in_shape[:-1] == var_shape:
            var = var.unsqueeze(-1)
        elif len(in_shape) == len(var_shape) and sum(y for x, y in zip(in_shape, var_shape) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with gradgen.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (gradgen.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, _REDUCTIONS[reduction])


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean"):
    if size_average is not None or reduce is not None:
        reduction = ["none", "mean", "sum"][_reduction(reduction, size_average, reduce)]
    loss = -(target * gradgen.log_sigmoid(input) + (1 - target) * gradgen.log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(class_dim) / input.shape[class_dim]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def multi_margin_loss(
    input,
    target,
    p: int = 1,
    margin: float = 1.0,
    weight=None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
):
    """sum over j != y of max(0, margin - x[y] + x[j])^p * weight[y], divided by the number of
    classes, per sample (input [N, C], [C] or a scalar; target [N] or a scalar), as ATen's
    multi_margin_loss (its checks and messages)."""
    r = _reduction(reduction, size_average, reduce)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    ndims = input.dim()
    shape = list(input.shape)
    if not ((ndims == 2 and shape[1] != 0) or (ndims == 1 and shape[0] != 0) or ndims == 0):
        raise RuntimeError(
            f"multi_margin_loss: Expected non-empty vector or matrix with optional 0-dim batch size, but got: {shape}"
        )
    nframe, dim = (1, 1 if ndims == 0 else shape[0]) if ndims <= 1 else (shape[0], shape[1])
    if target.dim() > 1 or target.numel() != nframe:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples "
            f"(batch size). Expected target size [{nframe}], but got {list(target.shape)}. Input has shape {shape}."
        )
    if weight is not None and (weight.dim() > 1 or weight.numel() != dim):
        raise RuntimeError(f"multi_margin_loss: inconsistent weight size, expected {dim} but got {list(weight.shape)}")
    if weight is not None and weight.requires_grad and gradgen.is_grad_enabled():
        # As PyTorch's: its derivative entry has no formula for weight.
        raise RuntimeError(
            "The function 'multi_margin_loss' is not differentiable with respect to argument 'weight'. "
            "This input cannot have requires_grad True."
        )
    t = target.reshape([nframe])
    if t.numel() and (bool(gradgen.any(t < 0)) or bool(gradgen.any(t >= dim))):
        raise RuntimeError("multi_margin_loss: target out of range")
    x = input.reshape([nframe, dim])
    x_target = gradgen.gather(x, 1, t.unsqueeze(1))
    z = gradgen.clamp_min(margin - x_target + x, 0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * gradgen.index_select(weight, 0, t).unsqueeze(1)
    is_target = gradgen.arange(dim).unsqueeze(0) == t.unsqueeze(1)
    loss = z.masked_fill(is_target, 0).sum(1) / dim
    if r == 0:
        return loss if target.dim() > 0 else loss.reshape([])
    if r == 1 and nframe == 0:
        return loss.sum()  # ATen's mean of no samples is 0
    return _reduce(loss, r)


def triplet_margin_with_distance_loss(
    anchor,
    positive,
    negative,
    *,
    distance_function=None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
):
    """max(d(a, p) - d(a, n) + margin, 0) with the distance function (pairwise_distance by
    default), as torch's."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, "
            f"but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs"
        )
    if distance_function is None:
        distance_function = gradgen.pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = gradgen.minimum(dist_neg, distance_function(positive, negative))
    loss = gradgen.clamp_min(margin + dist_pos - dist_neg, 0)
    return _reduce(loss, _REDUCTIONS[reduction])


# ---------------------------------------------------------------------------------------------
# 3-D adaptive pooling
# ---------------------------------------------------------------------------------------------


def _adaptive_windows(in_size: int, out_size: int):
    """ATen's adaptive windows: [floor(i * in / out), ceil((i + 1) * in / out))."""
    return [((i * in_size) // out_size, -((-(i + 1) * in_size) // out_size)) for i in range(out_size)]


def _check_adaptive3d(name: str, input, output_size):
    if input.dim() not in (4, 5):
        raise RuntimeError(f"{name}(): Expected 4D or 5D tensor, but got: {list(input.shape)}")
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(
                f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
                f"{list(input.shape)} with dimension {i} being empty"
            )
    size = _adaptive_size(output_size, input, 3)
    if len(size) != 3:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be 3")
    return size


def adaptive_avg_pool3d(input, output_size):
    """[N, C, D, H, W] (or [C, D, H, W]) averaged over ATen's adaptive windows. An average over a
    box is the average over each of its dims in turn, so it is adaptive_avg_pool1d over D after
    adaptive_avg_pool2d over (H, W); the gradient is theirs."""
    size = _check_adaptive3d("adaptive_avg_pool3d", input, output_size)
    shape = list(input.shape)
    lead, (d, h, w) = shape[:-3], shape[-3:]
    x = gradgen.adaptive_avg_pool2d(input.reshape([-1, d, h, w]), size[1:])  # [B, D, oh, ow]
    x = gradgen.adaptive_avg_pool1d(x.reshape([-1, d, size[1] * size[2]]).transpose(1, 2), size[:1])
    return x.transpose(1, 2).reshape(lead + size)


def _window_index(in_size: int, out_size: int):
    """[out_size, K] input positions of ATen's adaptive windows, K the longest window; a shorter
    window repeats its last position (which changes neither its maximum nor, max taking the
    first of equal values, which element is chosen)."""
    windows = _adaptive_windows(in_size, out_size)
    k = max(end - start for start, end in windows)
    return [[min(start + j, end - 1) for j in range(k)] for start, end in windows], k


def adaptive_max_pool3d(input, output_size, return_indices: bool = False):
    """The maximum over ATen's adaptive windows of [N, C, D, H, W] (or [C, D, H, W]), with its
    flat index within D * H * W (return_indices): the first in (d, h, w) order on ties, NaN
    propagating, as ATen's. The windows are gathered (index_select per dim, padded to the
    longest window), then one max over their elements; the gradient is theirs."""
    size = _check_adaptive3d("adaptive_max_pool3d", input, output_size)
    shape = list(input.shape)
    lead, spatial = shape[:-3], shape[-3:]
    x = input.reshape([-1] + spatial)
    flat = gradgen.arange(spatial[0] * spatial[1] * spatial[2]).reshape(spatial)
    ks = []
    for d in range(3):
        index, k = _window_index(spatial[d], size[d])
        ks.append(k)
        index = gradgen.tensor(index, dtype=gradgen.int64).reshape([-1])
        x = gradgen.index_select(x, 1 + 2 * d, index)
        flat = gradgen.index_select(flat, 2 * d, index)
        # The gathered dim becomes (out, K): [B, od, kd, H, W] -> ... -> [B, od, kd, oh, kh, ow, kw].
        x = x.reshape(list(x.shape)[: 1 + 2 * d] + [size[d], k] + list(x.shape)[2 + 2 * d :])
        flat = flat.reshape(list(flat.shape)[: 2 * d] + [size[d], k] + list(flat.shape)[1 + 2 * d :])
    window = ks[0] * ks[1] * ks[2]
    x = x.permute([0, 1, 3, 5, 2, 4, 6]).reshape([x.shape[0]] + size + [window])
    out, local = gradgen.max(x, -1)
    out = out.reshape(lead + size)
    if not return_indices:
        return out
    flat = flat.permute([0, 2, 4, 1, 3, 5]).reshape(size + [window])
    indices = gradgen.gather(flat.unsqueeze(0).expand([local.shape[0]] + size + [window]), 4, local.unsqueeze(-1))
    return out, indices.squeeze(-1).reshape(lead + size)
