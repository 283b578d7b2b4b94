"""The checks API the CLI and the language server use: check one document, or names across documents."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from .config import CheckConfig
from .findings import Finding

if TYPE_CHECKING:
    from ..document import ParsedDocument
    from .analyzer import Analyzer


@dataclass(frozen=True)
class ToolSummary:
    """One tool found in a document; spans are code-point offsets."""

    index: int
    name: str | None
    pointer: str
    span: tuple[int, int]
    name_span: tuple[int, int] | None
    shape: str | None


@dataclass(frozen=True)
class FindingBlock:
    """One tool's findings as computed when the tool started at ``origin``; it starts at ``start`` now.
    The tuple is shared between reports while the tool is unchanged, so a consumer (the language
    server) can cache what it derives from it by identity and pay only for the tool an edit touched."""

    start: int
    origin: int
    findings: tuple[Finding, ...]

    def placed(self) -> tuple[Finding, ...]:
        delta = self.start - self.origin
        return self.findings if delta == 0 else tuple(f.shifted(delta) for f in self.findings)


@dataclass(frozen=True)
class DocumentReport:
    """``loose`` holds the findings outside any tool's block (syntax, file-level, across tools);
    ``findings`` is every finding placed in the current text, sorted by position (built on first use)."""

    loose: tuple[Finding, ...]
    tools: tuple[ToolSummary, ...]
    is_tool_file: bool
    blocks: tuple[FindingBlock, ...] = ()
    pending: int = 0  # tools not checked yet (a time budget ran out): their findings are missing
    is_request: bool = False  # a request file: its tools are the request's, not definitions to register
    #: With ``pending``: ``resume(seconds)`` checks more of them (cached for the next call with this
    #: text) and returns how many are left; a caller can spread the work between other tasks.
    resume: Callable[[float], int] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def findings(self) -> tuple[Finding, ...]:
        if not self.blocks:
            return self.loose
        every = list(self.loose)
        for block in self.blocks:
            every.extend(block.placed())
        every.sort(key=lambda f: (f.span[0], f.span[1], f.code, f.target or ""))
        return tuple(every)


def check_document(
    text: str, *, path: str | None = None, config: CheckConfig | None = None, budget: float | None = None,
    parsed: ParsedDocument | None = None, analyzer: Analyzer | None = None,
) -> DocumentReport:
    """Every finding in ``text`` (a JSON/JSONC tool file), sorted by position.

    ``analyzer`` remembers the parsed document and each tool's findings, so that checking an edited
    text again re-checks only the tools the edit touched; without one the check is cold (a fresh
    ``Analyzer``, thrown away after the call).

    With ``budget`` (seconds), tools not checked before it runs out are left for later and counted in
    ``pending``; checked tools are remembered in the analyzer, so calling again with the same analyzer
    finishes the work (the language server shows the first tools of a very large file at once and the
    rest as they are done). ``parsed``: the parse of ``text`` when the caller holds it (the server's
    document store)."""
    from .analyzer import Analyzer

    return (analyzer or Analyzer()).check_document(text, path=path, config=config, budget=budget, parsed=parsed)


def summarize_document(text: str, path: str | None = None, *, analyzer: Analyzer | None = None) -> DocumentReport:
    """The tools of a document and their names, without checking them: what duplicate-name checks
    across files need from files that are not open (a fraction of the cost of ``check_document``)."""
    from .analyzer import Analyzer

    return (analyzer or Analyzer()).summarize_document(text, path)


def check_names_across(
    reports: Mapping[str, DocumentReport], config: CheckConfig, only: str | None = None
) -> dict[str, tuple[Finding, ...]]:
    """Duplicate tool names across files: path -> findings for that path, each with ``Related`` entries
    pointing at the other definitions (for the path ``only`` alone when given). Computed from the
    reports alone (nothing to remember: no analyzer)."""
    from .names import names_across

    return names_across(reports, config, only)
