"""What a check remembers of a file's tools for the next check: each tool's placed findings (``Placed``) by
their key (``PlacedKey``), the tool object as last checked (``Seen``), and the file's last run (``Run``: a
``Record`` per tool, and a ``Pending`` for each tool it left to check later)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..rules.findings import Finding
from .document_report import FindingBlock, ToolSummary
from .raw import ToolFacts

if TYPE_CHECKING:
    from ..document.parsed import ParsedDocument
    from ..loading import ToolObject

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Placed:
    """One tool's findings as placed when its text started at ``origin``; reused (shifted by the
    consumer when the tool moved) while the tool's text, pointer and configuration are unchanged, so
    an edit re-checks only the tool it touched."""

    origin: int
    findings: tuple[Finding, ...]
    facts: ToolFacts


@dataclass(frozen=True, slots=True)
class PlacedKey:
    """What one tool's placed findings depend on; made, hashed and looked up for every tool of a check
    that the parser did not keep. Measured against a NamedTuple (1,000 tools): making and finding the keys
    takes 1.68 ms against 0.76 ms, which neither the cold check (about 1.1 s) nor an edit (which makes one
    key) shows; a re-check of a new parse of the file, 40.7 ms against 39.8 ms."""

    #: The tool's text, as a digest (the cache would otherwise keep a copy of every tool's text).
    digest: bytes
    length: int
    #: The indentation of the tool's first line: fixes are rendered with it.
    indent: str
    pointer: str
    #: The tool's index among the file's tools (``ToolObject.index``).
    index: int
    shape: str | None
    #: The tool's field pointers, relative to its own pointer, sorted.
    fields: tuple[tuple[str, str], ...]
    #: The check context (configuration, folder, layout), interned: compared by identity first.
    context: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Pending:
    """A tool a run left unchecked (its time budget ran out): what checking it takes. It holds the tool's
    place, not its text: a slice per tool would keep a second copy of the file for as long as the first
    check goes on. Its text is ``text[start:start + key.length]``."""

    key: PlacedKey
    tool: ToolObject
    #: The tool's field pointers, relative to ``tool.pointer``.
    fields: dict[str, str]
    start: int

    def moved(self, start: int) -> Pending:
        return Pending(self.key, self.tool, self.fields, start)


@dataclass(frozen=True, slots=True)
class Record:
    """One tool as the last run placed it; reused as it is while the tool has not moved."""

    span: Span
    #: Its findings; None: left pending, not checked yet (its ``Pending`` is in ``Run.waiting``).
    placed: Placed | None
    name_span: Span | None
    #: What the report held of it.
    summary: ToolSummary
    block: FindingBlock | None


@dataclass(frozen=True, slots=True)
class Run:
    """What a run of ``run_document`` leaves for the next run of the same file: its parse, context
    and tool objects, and each tool's record, in the order of ``objects``; ``waiting`` maps the
    index of each tool left pending to what checking it takes (its entry in that run's list of tools to
    check later), so that an edit made while a large file's first check is still going on costs what an
    edit costs after it, instead of finding, slicing and hashing every tool again. Nothing changes a
    ``Run`` once made (its list and dictionaries included): the next run builds its own."""

    parsed: ParsedDocument
    context: tuple[Any, ...]
    objects: tuple[ToolObject, ...]
    records: list[Record]
    waiting: dict[int, Pending]
    #: Index in ``objects`` by tool pointer (the innermost tool around an edit is looked up by pointer).
    pointers: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pointers", {o.pointer: i for i, o in enumerate(self.objects)})


@dataclass(frozen=True, slots=True)
class Seen:
    """A tool object as last checked: reused while the parser hands back the very same object."""

    value: Any
    pointer: str
    index: int
    shape: str | None
    context: tuple[Any, ...]
    length: int
    placed: Placed
    #: The name's span, relative to the tool's start.
    name_at: Span | None


__all__ = ["Pending", "Placed", "PlacedKey", "Record", "Run", "Seen", "Span"]
