"""The one way into the checks, for the CLI, the language server and the library: check one document, list its
tools, or find names across documents. The package resolves these names on first use, so this module and the
engine it imports load on the first check, and making an ``Analyzer`` (the checks' memory, passed as
``analyzer=``) costs the server's start nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..rules.findings import Finding
from .analyzer import Analyzer
from .collector import collector_paused
from .config import CheckConfig
from .document_report import DocumentReport
from .engine import run_document, run_summary

if TYPE_CHECKING:
    from ..document import ParsedDocument


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
    with collector_paused():
        return run_document(text, path=path, config=config or CheckConfig(), budget=budget, parsed=parsed,
                            analyzer=analyzer or Analyzer())


def summarize_document(text: str, path: str | None = None, *, analyzer: Analyzer | None = None,
                       parsed: ParsedDocument | None = None) -> DocumentReport:
    """The tools of a document and their names, without checking them: what duplicate-name checks
    across files need from files that are not open, or not checked yet (a fraction of the cost of
    ``check_document``). ``parsed``: the parse of ``text`` when the caller holds it."""
    return run_summary(text, path, analyzer=analyzer or Analyzer(), parsed=parsed)


def check_names_across(
    reports: Mapping[str, DocumentReport], config: CheckConfig, only: str | None = None
) -> dict[str, tuple[Finding, ...]]:
    """Duplicate tool names across files: path -> findings for that path, each with ``Related`` entries
    pointing at the other definitions (for the path ``only`` alone when given). Computed from the
    reports alone (nothing to remember: no analyzer)."""
    from .names import names_across

    return names_across(reports, config, only)
