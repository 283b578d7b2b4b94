"""``Table``: the bounded, least-recently-used table every cache of the analysis is made of."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Table(OrderedDict[K, V]):
    """A table of at most ``size`` entries, the least recently used out first."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def hit(self, key: K) -> V | None:
        """The entry for ``key``, now the most recently used; None when there is none."""
        found = self.get(key)
        if found is not None:
            self.move_to_end(key)
        return found

    def keep(self, key: K, value: V) -> None:
        self[key] = value
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)
