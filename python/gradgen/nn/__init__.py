"""gradgen.nn: PyTorch's torch.nn names over gradgen's ops (for now, the functional interface).

>>> import gradgen.nn.functional as F
"""

from gradgen.nn import functional  # noqa: F401  (re-exported)

__all__ = ["functional"]
