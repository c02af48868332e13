"""gradgen.utils: torch.utils's parts that gradgen has (dlpack)."""

from gradgen.utils import dlpack  # noqa: F401  (re-exported: gradgen.utils.dlpack.from_dlpack)

__all__ = ["dlpack"]
