"""``DocumentMemory``: the last few parsed documents ``parse`` compares a new text with. Its own module,
free of the parser, so that an ``Analyzer`` can be made before anything is parsed (the language server
makes its one at start-up). It is generic in what it holds, so that it needs nothing of ``parsed``
(which takes a ``DocumentMemory[ParsedDocument]``): the document modules import in one direction."""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

D = TypeVar("D")


class DocumentMemory(Generic[D]):
    """The last few parsed documents ``parse`` compares a new text with (an ``Analyzer`` owns one; the
    language server's lives as long as its session). Safe to share between threads."""

    def __init__(self, size: int = 3) -> None:
        self.size = size
        self._recent: list[D] = []
        self._lock = threading.Lock()

    def recent(self) -> list[D]:
        """The remembered documents, most recent first."""
        with self._lock:
            return list(reversed(self._recent))

    def remember(self, doc: D) -> None:
        with self._lock:
            if doc in self._recent:
                self._recent.remove(doc)
            self._recent.append(doc)
            del self._recent[: -self.size]

    def clear(self) -> None:
        with self._lock:
            self._recent.clear()

    def __len__(self) -> int:
        return len(self._recent)
