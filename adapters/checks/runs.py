"""What a check remembers of a file's tools for the next check: each tool's placed findings (``Placed``),
the tool object as last checked (``Seen``), and the file's last run (``Run``, its ``Record`` per tool)."""

from __future__ import annotations

from typing import Any

from ..rules.findings import Finding
from .raw import ToolFacts
from .report import FindingBlock, ToolSummary


class Placed:
    """One tool's findings as placed when its text started at ``origin``; reused (shifted by the
    consumer when the tool moved) while the tool's text, pointer and configuration are unchanged, so
    an edit re-checks only the tool it touched."""

    __slots__ = ("facts", "findings", "origin")

    def __init__(self, origin: int, findings: tuple[Finding, ...], facts: ToolFacts) -> None:
        self.origin, self.findings, self.facts = origin, findings, facts


#: One tool as the last run placed it: its span, findings (None: left pending, not checked yet), name's
#: span, and what the report held of it (reused as they are while the tool has not moved).
Record = tuple[tuple[int, int], "Placed | None", "tuple[int, int] | None", ToolSummary, "FindingBlock | None"]


class Run:
    """What a run of ``run_document`` leaves for the next run of the same file: its parse, context
    and tool objects, and each tool's record, in the order of ``objects``; ``waiting`` maps the
    index of each tool left pending to what checking it takes (its entry in that run's ``later``), so
    that an edit made while a large file's first check is still going on costs what an edit costs
    after it, instead of finding, slicing and hashing every tool again."""

    __slots__ = ("context", "objects", "parsed", "pointers", "records", "waiting")

    def __init__(self, parsed: Any, context: tuple[Any, ...], objects: tuple[Any, ...],
                 records: list[Record], waiting: dict[int, tuple[Any, ...]]) -> None:
        self.parsed, self.context, self.objects, self.records = parsed, context, objects, records
        self.waiting = waiting
        self.pointers = {o.pointer: i for i, o in enumerate(objects)}


class Seen:
    """A tool object as last checked: reused while the parser hands back the very same object."""

    __slots__ = ("context", "index", "length", "name_at", "placed", "pointer", "shape", "value")

    def __init__(self, value: Any, pointer: str, index: int, shape: str | None, context: tuple[Any, ...],
                 length: int, placed: Placed, name_at: tuple[int, int] | None) -> None:
        self.value, self.pointer, self.index, self.shape = value, pointer, index, shape
        self.context, self.length, self.placed, self.name_at = context, length, placed, name_at
