"""The checks API the CLI and the language server use: check one document, or names across documents."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .config import CheckConfig
from .findings import Finding


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
class DocumentReport:
    findings: tuple[Finding, ...]
    tools: tuple[ToolSummary, ...]
    is_tool_file: bool


def check_document(
    text: str, *, path: str | None = None, config: CheckConfig | None = None
) -> DocumentReport:
    """Every finding in ``text`` (a JSON/JSONC tool file), sorted by position."""
    from .engine import run_document

    return run_document(text, path=path, config=config or CheckConfig())


def check_names_across(
    reports: Mapping[str, DocumentReport], config: CheckConfig
) -> dict[str, tuple[Finding, ...]]:
    """Duplicate tool names across files: path -> findings for that path, each with ``Related`` entries
    pointing at the other definitions."""
    from .names import names_across

    return names_across(reports, config)
