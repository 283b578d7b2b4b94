"""Helpers for the checks tests: run a check, locate the text a finding covers, apply fixes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolcast.adapters.checks import CheckConfig, Finding, TextEdit, check_document


def findings(text: str, code: str | None = None, **config: Any) -> list[Finding]:
    cfg = CheckConfig(**config) if config else None
    out = list(check_document(text, config=cfg).findings)
    return [f for f in out if code is None or f.code == code]


def span_of(text: str, snippet: str, occurrence: int = 0) -> tuple[int, int]:
    """The code-point range of the ``occurrence``-th appearance of ``snippet`` in ``text``."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(snippet, start + 1)
    return (start, start + len(snippet))


def apply_fix(text: str, finding: Finding, which: int = 0) -> str:
    return apply_edits(text, finding.all_fixes()[which].edits)


def apply_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """Apply non-overlapping edits (any order) to ``text``: the tests' own application of a fix, as an editor
    applies a workspace edit."""
    out = text
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        out = out[: e.start] + e.new_text + out[e.end :]
    return out
