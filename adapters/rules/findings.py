"""Findings: what a check reports. Positions are code-point offsets into the document text; the
language server and the CLI convert them to line/column with ``document.line_index.LineIndex``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"


@dataclass(frozen=True)
class TextEdit:
    """Replace ``text[start:end]`` (code-point offsets) with ``new_text``."""

    start: int
    end: int
    new_text: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "new_text": self.new_text}


@dataclass(frozen=True)
class Fix:
    """A machine-applicable fix: edits to the same document, computed against ``text`` as checked."""

    title: str
    edits: tuple[TextEdit, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "edits": [e.to_dict() for e in self.edits]}


@dataclass(frozen=True)
class Related:
    """A second place that matters (the other definition of a duplicate name)."""

    path: str | None      # file path; None = the same document
    pointer: str
    message: str
    span: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem. ``pointer`` is a JSON pointer into the checked document (not the canonical tool),
    ``span`` the code-point range the editor underlines. ``tool_index``/``tool_name`` say which tool of
    the file it concerns (None for file-level findings)."""

    code: str
    severity: Severity
    message: str
    pointer: str
    span: tuple[int, int]
    target: str | None = None
    tool_index: int | None = None
    tool_name: str | None = None
    fix: Fix | None = None
    fixes: tuple[Fix, ...] = ()
    related: tuple[Related, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)

    def all_fixes(self) -> tuple[Fix, ...]:
        return ((self.fix,) if self.fix else ()) + self.fixes

    @property
    def targets(self) -> tuple[str, ...]:
        """Every target the finding concerns (a loss several targets share is one finding)."""
        listed = self.data.get("targets")
        if isinstance(listed, list) and listed:
            return tuple(str(x) for x in listed)
        return (self.target,) if self.target else ()

    def shifted(self, delta: int) -> Finding:
        """The same finding ``delta`` code points later (its tool moved); other files' places stay."""
        if delta == 0:
            return self

        def moved(fix: Fix) -> Fix:
            return Fix(fix.title, tuple(TextEdit(e.start + delta, e.end + delta, e.new_text) for e in fix.edits))

        return replace(
            self,
            span=(self.span[0] + delta, self.span[1] + delta),
            fix=moved(self.fix) if self.fix else None,
            fixes=tuple(moved(x) for x in self.fixes),
            related=tuple(
                replace(r, span=(r.span[0] + delta, r.span[1] + delta)) if r.span and r.path is None else r
                for r in self.related
            ),
        )
