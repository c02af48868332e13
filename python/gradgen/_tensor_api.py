"""Tensor methods PyTorch has in Python only: cpu() (gradgen's tensors are CPU tensors: the
tensor itself, as torch's on a CPU tensor), nelement() (numel's other name), new_tensor() (a
copy of the data, of this tensor's dtype unless told); the functions numel() and allclose()
(isclose(...).all(), as ATen's: in C++, gradgen::allclose is the runtime's own helper)."""

import warnings

from gradgen import _C


def _cpu(self, memory_format=None):
    return self


def _nelement(self):
    return self.numel()


def _new_tensor(self, data, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    if isinstance(data, _C.Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
            "sourceTensor.detach().clone().requires_grad_(True), rather than tensor.new_tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
        data = data.detach().clone()
        return data.to(dtype or self.dtype).requires_grad_(requires_grad)
    return _C.tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


def numel(input):
    """The number of elements of `input`, as torch.numel."""
    if not isinstance(input, _C.Tensor):
        raise TypeError("numel(): argument 'input' (position 1) must be Tensor, not %s" % type(input).__name__)
    return input.numel()


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every element of isclose(input, other, rtol, atol, equal_nan) is, as torch.allclose."""
    return bool(_C.isclose(input, other, rtol=rtol, atol=atol, equal_nan=equal_nan).all())


_C.Tensor.cpu = _cpu
_C.Tensor.allclose = allclose
_C.Tensor.nelement = _nelement
_C.Tensor.new_tensor = _new_tensor
