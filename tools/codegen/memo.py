"""Bounded caches that a persistent worker keeps between requests (Note [Worker cache] in
gen_autograd.py).

Two kinds of key, both about content, never about time:
  * text: a derivative entry's source text and first line, a file's SHA-256;
  * identity: objects that are themselves results of a content-keyed cache (a declaration parsed
    from the same bytes, the info of an unchanged entry). The same object means the same inputs,
    since every value here is immutable; the cache keeps the object alive, so its `id` cannot
    be reused by another object while the cache entry exists.
A one-shot run makes none of these.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Hashable, Tuple

# What `LRU.get` returns for a key it does not hold.
MISSING: Any = object()


class LRU:
    """At most `capacity` values, the least recently used dropped first."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.data: Dict[Hashable, Any] = {}

    def get(self, key: Hashable) -> Any:
        value = self.data.pop(key, MISSING)
        if value is not MISSING:
            self.data[key] = value  # now the most recent
        return value

    def put(self, key: Hashable, value: Any) -> None:
        self.data.pop(key, None)
        self.data[key] = value
        while len(self.data) > self.capacity:
            del self.data[next(iter(self.data))]

    def __len__(self) -> int:
        return len(self.data)


class ByIdentity:
    """Values computed from objects (and hashable `extra` data), kept by the objects' identity:
    `get(objects, extra, make)` is `make()` the first time, then the same value."""

    def __init__(self, capacity: int) -> None:
        self.lru = LRU(capacity)

    def get(self, objects: Tuple[Any, ...], extra: Hashable, make: Callable[[], Any]) -> Any:
        key = (tuple(map(id, objects)), extra)
        found = self.lru.get(key)
        if found is not MISSING:
            return found[1]
        value = make()
        # The objects are kept with the value: their ids stay theirs while the entry lives.
        self.lru.put(key, (objects, value))
        return value
