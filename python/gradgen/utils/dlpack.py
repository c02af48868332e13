"""gradgen.utils.dlpack: torch.utils.dlpack's two functions over gradgen's DLPack interop.

to_dlpack(tensor) is the tensor's DLPack capsule (tensor.__dlpack__(): the unversioned
"dltensor" capsule, sharing the tensor's memory); from_dlpack(ext) takes such a capsule or any
object with __dlpack__ / __dlpack_device__ (a NumPy array, another library's tensor) and gives a
tensor sharing its memory (gradgen.from_dlpack).
"""

from gradgen import _C


def to_dlpack(tensor):
    """A DLPack capsule of `tensor` (sharing its memory), for another library's from_dlpack."""
    if not isinstance(tensor, _C.Tensor):
        raise TypeError("to_dlpack(): argument 'tensor' must be Tensor, not %s" % type(tensor).__name__)
    return tensor.__dlpack__()


def from_dlpack(ext_tensor):
    """A tensor sharing the memory of `ext_tensor`: a DLPack capsule, or an object with
    __dlpack__ (gradgen.from_dlpack)."""
    return _C.from_dlpack(ext_tensor)


__all__ = ["from_dlpack", "to_dlpack"]
