"""gradgen.Size: a tensor's shape, as torch.Size (issue 23).

A tuple of ints (equal to a tuple of the same ints, accepted wherever a list of sizes is) whose
repr is `gradgen.Size([2, 3])`, with numel(); slicing it, adding it to a tuple or repeating it
gives a Size, as torch's. Tensor.shape and Tensor.size() return one (the C++ properties give a
tuple, wrapped here).
"""

import operator

from gradgen import _C


class Size(tuple):
    """The sizes of a tensor's dims: gradgen.Size([2, 3]) (a tuple subclass, as torch.Size)."""

    __slots__ = ()

    def __new__(cls, sizes=()):
        if isinstance(sizes, _C.Tensor):
            raise TypeError("gradgen.Size() takes an iterable of 'int' (item 0 is 'Tensor')")
        items = tuple(sizes)
        for i, s in enumerate(items):
            if isinstance(s, bool) or not isinstance(s, int):
                try:
                    items = items[:i] + (operator.index(s),) + items[i + 1 :]
                except TypeError:
                    raise TypeError(
                        "gradgen.Size() takes an iterable of 'int' (item %d is '%s')" % (i, type(s).__name__)
                    ) from None
        return tuple.__new__(cls, items)

    def __repr__(self):
        return "gradgen.Size([%s])" % ", ".join(str(s) for s in self)

    __str__ = __repr__

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, times):
        return Size(tuple(self) * times)

    __rmul__ = __mul__

    def numel(self):
        """The number of elements of a tensor of this shape (1 for Size([]))."""
        n = 1
        for s in self:
            n *= s
        return n

    def __reduce__(self):
        return (Size, (tuple(self),))


_shape_property = _C.Tensor.shape
_size_method = _C.Tensor.size


def _shape(self):
    return tuple.__new__(Size, _shape_property.__get__(self))


def _size(self, dim=None, **kwargs):
    if dim is None and not kwargs:
        return tuple.__new__(Size, _size_method(self))
    if dim is None:
        return _size_method(self, **kwargs)  # axis=, as PyTorch's argument parser allows
    return _size_method(self, dim)


_size.__doc__ = "size() -> gradgen.Size, the shape; size(dim) -> int, the size of one dim."

_C.Tensor.shape = property(_shape, doc="The sizes of the tensor's dims, a gradgen.Size.")
_C.Tensor.size = _size
