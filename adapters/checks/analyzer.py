"""``Analyzer``: the checks' entry point with their memory. The CLI makes one per run, the language server
one per session (``ToolcastServer.analyzer``); both pass it to every check. Its tables are ``Caches``'; the
engine is imported on the first check, so making one costs the server's start nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .caches import Caches
from .collector import collector_paused

if TYPE_CHECKING:
    from ..document.parsed import ParsedDocument
    from .config import CheckConfig
    from .report import DocumentReport


class Analyzer(Caches):
    """``Caches`` and the checks that use them."""

    def check_document(self, text: str, *, path: str | None = None, config: CheckConfig | None = None,
                       budget: float | None = None, parsed: ParsedDocument | None = None) -> DocumentReport:
        """``checks.check_document`` with this analyzer's memory (see there)."""
        from .config import CheckConfig
        from .engine import run_document

        with collector_paused():
            return run_document(text, path=path, config=config or CheckConfig(), budget=budget, parsed=parsed,
                                analyzer=self)

    def summarize_document(self, text: str, path: str | None = None) -> DocumentReport:
        """``checks.summarize_document`` with this analyzer's memory."""
        from .engine import run_summary

        return run_summary(text, path, analyzer=self)


__all__ = ["Analyzer"]
