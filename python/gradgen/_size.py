"""gradgen.Size: a tensor's shape, as torch.Size (issue 23).

A tuple of ints (equal to a tuple of the same ints, accepted wherever a list of sizes is) whose
repr is `gradgen.Size([2, 3])`, with numel(); slicing it, adding it to a tuple or repeating it
gives a Size, as torch's. Tensor.shape and Tensor.size() return one (C++ makes it through
tuple's constructor: registered by _C._set_size_type).
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


_C._set_size_type(Size)  # Tensor.shape and Tensor.size() make one (in C++: no Python code runs)
