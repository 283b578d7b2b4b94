"""Diagnostics as LSP JSON, built once per tool and reused while the tool is unchanged.

A file of thousands of tools has thousands of diagnostics; turning each into lsprotocol objects and
back into JSON on every keystroke costs far more than checking the one tool that changed. So the
diagnostics of a tool are serialised to a JSON fragment, cached by the identity of the tool's
findings (shared between check reports while the tool's text is unchanged) and the tool's start
position, and a publish joins the fragments.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from toolcast.adapters.checks import DocumentReport, Finding, Severity, rule_url
from toolcast.adapters.checks.api import FindingBlock
from toolcast.adapters.document import Encoding, LineIndex

SEVERITY = {Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFO: 3, Severity.HINT: 4}

#: (uri, text index) of another open or indexed file, for related information across files.
Locate = Callable[[str], "tuple[str, LineIndex] | None"]


class RawJson:
    """Text that is already JSON: sent as it is instead of being converted object by object."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def lsp_range(index: LineIndex, span: tuple[int, int], enc: Encoding) -> dict[str, Any]:
    sl, sc = index.position(span[0], enc)
    el, ec = index.position(span[1], enc)
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}


def diagnostic(uri: str, index: LineIndex, finding: Finding, enc: Encoding, locate: Locate) -> dict[str, Any]:
    """One finding as an LSP ``Diagnostic``. ``data`` names the targets of a loss and says whether a
    quick fix exists; the fix itself is computed again for the version the client asks about."""
    out: dict[str, Any] = {
        "range": lsp_range(index, finding.span, enc),
        "severity": SEVERITY.get(finding.severity, 2),
        "code": finding.code,
        "codeDescription": {"href": rule_url(finding.code)},
        "source": "toolcast",
        "message": finding.message,
    }
    related = []
    for rel in finding.related:
        if rel.span is None:
            continue
        where = (uri, index) if rel.path is None else locate(rel.path)
        if where is None:
            continue
        related.append({"location": {"uri": where[0], "range": lsp_range(where[1], rel.span, enc)},
                        "message": rel.message})
    if related:
        out["relatedInformation"] = related
    # Kept small: a file of thousands of tools sends thousands of these on every change.
    data: dict[str, Any] = {}
    if finding.targets:
        data["targets"] = list(finding.targets)
    if finding.all_fixes():
        data["fixable"] = True
    if data:
        out["data"] = data
    return out


class FragmentCache:
    """Per document: the JSON of each tool's diagnostics, keyed by the identity of its findings tuple
    and where the tool starts (line and column in the negotiated encoding). Same findings at the same
    start means the same ranges, because the tool's own text is unchanged."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[tuple[Finding, ...], tuple[int, int], str, str]] = {}

    def fragments(self, uri: str, index: LineIndex, blocks: Iterable[FindingBlock], enc: Encoding,
                  locate: Locate) -> list[str]:
        out: list[str] = []
        fresh: dict[int, tuple[tuple[Finding, ...], tuple[int, int], str, str]] = {}
        for block in blocks:
            at = index.position(block.start, enc)
            key = id(block.findings)
            hit = self._entries.get(key)
            if hit is None or hit[0] is not block.findings or hit[1] != at or hit[2] != enc:
                text = ",".join(json.dumps(diagnostic(uri, index, f, enc, locate), ensure_ascii=False)
                                for f in block.placed())
                hit = (block.findings, at, enc, text)
            fresh[key] = hit  # only the current blocks stay: memory follows the document
            out.append(hit[3])
        self._entries = fresh
        return out


def diagnostics_json(uri: str, index: LineIndex, report: DocumentReport, extra: Iterable[Finding],
                     enc: Encoding, cache: FragmentCache, locate: Locate) -> str:
    """The JSON array of every diagnostic for the document: cached tool fragments, then the findings
    outside tools (syntax, file-level, across files), which are few."""
    parts = [p for p in cache.fragments(uri, index, report.blocks, enc, locate) if p]
    parts.extend(json.dumps(diagnostic(uri, index, f, enc, locate), ensure_ascii=False)
                 for f in (*report.loose, *extra))
    return "[" + ",".join(parts) + "]"
