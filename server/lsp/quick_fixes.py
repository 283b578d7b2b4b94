"""Quick fixes: the code actions that apply a finding's fixes to the diagnostics the client sends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types as t

if TYPE_CHECKING:
    from toolcast.adapters.checks import DocumentReport, Finding

    from .documents import Document
    from .state import ToolcastServer

#: The edits of one fix as plain values (start, end, new text): fixes with the same key make the same edit.
EditKey = tuple[tuple[int, int, str], ...]


def quick_fixes(ls: ToolcastServer, doc: Document, report: DocumentReport,
                diagnostics: Sequence[t.Diagnostic]) -> list[t.CodeAction]:
    """Quick fixes for the diagnostics the client sends, computed for the current text: a diagnostic
    whose code and range no longer match a current finding (the text changed) gets none, and each edit
    names the version it was computed for, so a client refuses it once that is stale."""
    fixable = [d for d in diagnostics if isinstance(d.data, dict) and d.data.get("fixable")]
    if not fixable:
        return []
    return [t.CodeAction(
        title=title, kind=t.CodeActionKind.QuickFix, diagnostics=fixed,
        edit=t.WorkspaceEdit(document_changes=[t.TextDocumentEdit(
            t.OptionalVersionedTextDocumentIdentifier(doc.uri, doc.version), edits)]))
        for title, edits, fixed in _fixes_by_edit(ls, doc, report, fixable).values()]


def _fixes_by_edit(ls: ToolcastServer, doc: Document, report: DocumentReport, fixable: list[t.Diagnostic],
                   ) -> dict[EditKey, tuple[str, list[t.TextEdit], list[t.Diagnostic]]]:
    """One fix per fact: fixes of several diagnostics that make the same edit (TC203 and TC204 both
    renaming a name to one spelling) are one action, which lists every diagnostic it fixes."""
    enc = ls.encoding
    current = {(f.code, f.span): f for f in report.findings if f.all_fixes()}
    by_edit: dict[EditKey, tuple[str, list[t.TextEdit], list[t.Diagnostic]]] = {}
    for diag in fixable:
        span = (doc.index.offset(diag.range.start.line, diag.range.start.character, enc),
                doc.index.offset(diag.range.end.line, diag.range.end.character, enc))
        finding: Finding | None = current.get((str(diag.code), span))
        for fix in finding.all_fixes() if finding is not None else ():
            edits = [t.TextEdit(ls.range(doc, (e.start, e.end), enc), e.new_text) for e in fix.edits]
            fixed = by_edit.setdefault(tuple((e.start, e.end, e.new_text) for e in fix.edits),
                                       (fix.title, edits, []))[2]
            if diag not in fixed:
                fixed.append(diag)
    return by_edit
