"""torch.nn.functional's names and signatures over gradgen's ops.

    >>> import gradgen.nn.functional as F
    >>> y = F.gelu(x, approximate="tanh")
    >>> loss = F.cross_entropy(logits, target, label_smoothing=0.1)

Each function calls the gradgen op of the same meaning (gradgen.gelu, gradgen.cross_entropy_loss,
...), so gradients, second derivatives and forward-mode tangents are the ops'. What differs from
PyTorch is said where it does: `inplace=True` is supported where gradgen has the in-place op
(relu) and raises NotImplementedError elsewhere; `size_average` / `reduce` (deprecated in
PyTorch) are translated to `reduction` as PyTorch does.
"""

from __future__ import annotations

import math
import warnings
from typing import Optional

import gradgen

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "batch_norm",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
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
    "elu",
    "embedding",
    "embedding_bag",
    "fold",
    "gelu",
    "glu",
    "grid_sample",
    "group_norm",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "huber_loss",
    "instance_norm",
    "interpolate",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "linear",
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
    "multilabel_margin_loss",
    "nll_loss",
    "one_hot",
    "pad",
    "pairwise_distance",
    "pixel_shuffle",
    "pixel_unshuffle",
    "prelu",
    "relu",
    "relu6",
    "rms_norm",
    "scaled_dot_product_attention",
    "selu",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "soft_margin_loss",
    "softmax",
    "softplus",
    "softshrink",
    "tanh",
    "tanhshrink",
    "threshold",
    "triplet_margin_loss",
    "unfold",
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


def _no_inplace(name: str, inplace: bool) -> None:
    if inplace:
        raise NotImplementedError(f"{name}: gradgen has no in-place {name}; call it with inplace=False")


# ---------------------------------------------------------------------------------------------
# Linear, dropout, embedding
# ---------------------------------------------------------------------------------------------


def linear(input, weight, bias=None):
    return gradgen.linear(input, weight, bias)


def dropout(input, p: float = 0.5, training: bool = True, inplace: bool = False, generator=None):
    """As torch's; `generator` (a gradgen.Generator) is gradgen's, for reproducible masks."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    _no_inplace("dropout", inplace)
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
    if max_norm is not None:
        raise NotImplementedError("embedding: max_norm is not supported by gradgen")
    if padding_idx is None:
        padding_idx = -1
    else:
        rows = weight.shape[0]
        if padding_idx >= rows or padding_idx < -rows:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            padding_idx = rows + padding_idx
    return gradgen.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


# ---------------------------------------------------------------------------------------------
# Activations
# ---------------------------------------------------------------------------------------------


def relu(input, inplace: bool = False):
    return gradgen.relu_(input) if inplace else gradgen.relu(input)


def relu6(input, inplace: bool = False):
    return hardtanh(input, 0.0, 6.0, inplace)


def sigmoid(input):
    return gradgen.sigmoid(input)


def tanh(input):
    return gradgen.tanh(input)


def gelu(input, approximate: str = "none"):
    return gradgen.gelu(input, approximate=approximate)


def silu(input, inplace: bool = False):
    _no_inplace("silu", inplace)
    return gradgen.silu(input)


def mish(input, inplace: bool = False):
    _no_inplace("mish", inplace)
    return gradgen.mish(input)


def elu(input, alpha: float = 1.0, inplace: bool = False):
    _no_inplace("elu", inplace)
    return gradgen.elu(input, alpha)


def selu(input, inplace: bool = False):
    _no_inplace("selu", inplace)
    return gradgen.selu(input)


def celu(input, alpha: float = 1.0, inplace: bool = False):
    _no_inplace("celu", inplace)
    return gradgen.celu(input, alpha)


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False):
    _no_inplace("leaky_relu", inplace)
    return gradgen.leaky_relu(input, negative_slope)


def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    _no_inplace("hardtanh", inplace)
    return gradgen.hardtanh(input, min_val, max_val)


def hardsigmoid(input, inplace: bool = False):
    _no_inplace("hardsigmoid", inplace)
    return gradgen.hardsigmoid(input)


def hardswish(input, inplace: bool = False):
    _no_inplace("hardswish", inplace)
    return gradgen.hardswish(input)


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
    _no_inplace("threshold", inplace)
    return gradgen.threshold(input, threshold, value)


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
    has bags starting at offsets; mode "sum", "mean" or "max". max_norm and sparse gradients
    raise NotImplementedError."""
    if max_norm is not None:
        raise NotImplementedError("embedding_bag: max_norm is not supported by gradgen")
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


_GRID_SAMPLE_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_GRID_SAMPLE_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


def grid_sample(input, grid, mode: str = "bilinear", padding_mode: str = "zeros", align_corners=None):
    """As torch's: samples input [N, C, H, W] at grid [N, H_out, W_out, 2] ((x, y) in [-1, 1]),
    modes "bilinear", "nearest", "bicubic", padding modes "zeros", "border", "reflection";
    align_corners None means False, with torch's warning. 5-D input (grid_sampler_3d) raises
    RuntimeError: gradgen has only the 2-D sampler."""
    if mode not in _GRID_SAMPLE_MODES:
        raise ValueError(
            f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '{mode}'"
        )
    if padding_mode not in _GRID_SAMPLE_PADDINGS:
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    if align_corners is None:
        warnings.warn(
            "Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
            "Please specify align_corners=True if the old behavior is desired. "
            "See the documentation of grid_sample for details.",
            stacklevel=2,
        )
        align_corners = False
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
    (4-D), "trilinear" (5-D) and "area" (adaptive average pooling, 3-D and 4-D inputs). The modes
    "nearest-exact", "area" of a 5-D input and antialias raise NotImplementedError."""
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
            "Anti-alias option is restricted to bilinear and bicubic modes and requires a 4-D tensor as input"
        )
    if antialias:
        raise NotImplementedError("interpolate: gradgen has no antialiased resampling")
    if mode == "nearest" and dim == 3:
        return gradgen.upsample_nearest1d(input, output_size, scales[0])
    if mode == "nearest" and dim == 4:
        return gradgen.upsample_nearest2d(input, output_size, scales[0], scales[1])
    if mode == "nearest" and dim == 5:
        return gradgen.upsample_nearest3d(input, output_size, scales[0], scales[1], scales[2])
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
    if dim in (3, 4, 5) and mode in ("area", "nearest-exact"):
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
