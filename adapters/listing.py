"""Lists of places or names inside a message, cut to a few: a finding naming every other file that defines
its tool (or every character a name may not hold) grows with the input, and a message per file then makes
the output grow with its square."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

#: Places or names a message lists at most; the rest are counted ("and 12 more").
LISTED = 5


def listed(items: Iterable[str], total: int | None = None, limit: int = LISTED) -> str:
    """``a, b, c`` for up to ``limit`` items, else the first ``limit`` and ``and N more``. ``total``: how
    many there are, when ``items`` may stop after the first ``limit`` (the caller need not build the whole
    list); without it the items are counted."""
    it = iter(items)
    shown = list(islice(it, limit))
    count = len(shown) + sum(1 for _ in it) if total is None else max(total, len(shown))
    if count <= limit:
        return ", ".join(shown)
    return f"{', '.join(shown[:limit])} and {count - limit:,} more"


__all__ = ["LISTED", "listed"]
