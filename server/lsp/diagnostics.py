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
from typing import TYPE_CHECKING, Any, Protocol

from toolcast.adapters.checks import Finding, Severity, rule_url

if TYPE_CHECKING:
    from toolcast.adapters.checks import DocumentReport, FindingBlock
    from toolcast.adapters.document import Encoding, LineIndex

SEVERITY = {Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFO: 3, Severity.HINT: 4}



class Positioned(Protocol):
    """Where an offset is: a document's ``LineIndex``, or what the workspace index keeps of a closed file."""

    def position(self, offset: int, encoding: Encoding = "utf-16") -> tuple[int, int]: ...


#: (uri, positions) of another open or indexed file, for related information across files.
Locate = Callable[[str], "tuple[str, Positioned] | None"]


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class RawJson:
    """Text that is already JSON: sent as it is instead of being converted object by object."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def lsp_range(index: Positioned, span: tuple[int, int], enc: Encoding) -> dict[str, Any]:
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
        "source": "toolcast",
        "message": finding.message,
    }
    href = rule_url(finding.code)
    if href is not None:  # the installed rules reference; an install without it gets no link
        out["codeDescription"] = {"href": href}
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


class _Entry:
    __slots__ = ("at", "enc", "findings", "has_error", "text")

    def __init__(self, findings: tuple[Finding, ...]) -> None:
        self.findings = findings
        self.has_error = any(f.severity == Severity.ERROR for f in findings)
        self.at: tuple[int, int] | None = None
        self.enc: str | None = None
        self.text = ""


class FragmentCache:
    """Per document: the JSON of each tool's diagnostics, keyed by the identity of its findings tuple
    and where the tool starts (line and column in the negotiated encoding). Same findings at the same
    start means the same ranges, because the tool's own text is unchanged."""

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def fragments(self, uri: str, index: LineIndex, blocks: Iterable[FindingBlock], enc: Encoding,
                  locate: Locate, limit: int) -> tuple[list[str], int, int]:
        """(fragments, diagnostics in them, findings in all blocks). With a ``limit``, tools with an
        error come first, then the others in document order, while the count stays within it."""
        fresh: dict[int, _Entry] = {}
        chosen: list[tuple[FindingBlock, _Entry]] = []
        later: list[tuple[FindingBlock, _Entry]] = []
        total = 0
        for block in blocks:
            key = id(block.findings)
            entry = self._entries.get(key)
            if entry is None or entry.findings is not block.findings:
                entry = _Entry(block.findings)
            fresh[key] = entry  # only the current blocks stay: memory follows the document
            total += len(block.findings)
            (chosen if entry.has_error or not limit else later).append((block, entry))
        self._entries = fresh
        count = sum(len(b.findings) for b, _ in chosen)
        for block, entry in later:
            if count + len(block.findings) > limit:
                break
            chosen.append((block, entry))
            count += len(block.findings)
        out = []
        for block, entry in chosen:
            at = index.position(block.start, enc)
            if entry.at != at or entry.enc != enc:
                entry.text = ",".join(_dumps(diagnostic(uri, index, f, enc, locate)) for f in block.placed())
                entry.at, entry.enc = at, enc
            out.append(entry.text)
        return out, count, total


def diagnostics_json(uri: str, index: LineIndex, report: DocumentReport, extra: Iterable[Finding],
                     enc: Encoding, cache: FragmentCache, locate: Locate, limit: int = 0) -> str:
    """The JSON array of the document's diagnostics: the findings outside tools (syntax, file-level,
    across files; few), then the cached fragments of the tools. ``limit`` (0: none) bounds what an
    editor is sent for a file of thousands of tools; one notice says how many were left out."""
    loose = (*report.outside_tools, *extra)
    parts = [_dumps(diagnostic(uri, index, f, enc, locate)) for f in loose]
    budget = max(limit - len(loose), 1) if limit else 0
    fragments, shown, total = cache.fragments(uri, index, report.blocks, enc, locate, budget)
    parts.extend(p for p in fragments if p)
    if report.pending:
        done = len(report.tools) - report.pending
        parts.append(_dumps({
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "severity": 3,
            "source": "toolcast",
            "message": f"toolcast is still checking this file: {done:,} of {len(report.tools):,} tools done",
        }))
    if shown < total:
        parts.append(_dumps({
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "severity": 3,
            "source": "toolcast",
            "message": f"toolcast shows {shown + len(loose):,} of {total + len(loose):,} findings in this file "
                       "(tools with errors first); raise the `max_diagnostics` setting (0: no limit) or run "
                       "`toolcast check` for all of them",
        }))
    return "[" + ",".join(parts) + "]"
