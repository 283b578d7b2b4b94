"""Output formats of ``toolcast check``: human, JSON, SARIF 2.1.0 and GitHub workflow annotations.
Positions are 1-based lines and code-point columns."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.findings import Finding, Severity
from ..rules.registry import RULES
from .config import ConfigProblem
from .engine import config_findings
from .positions import Positions


@dataclass(frozen=True)
class Located:
    """A finding with its file and 1-based start/end positions (end is exclusive, as in LSP)."""

    path: str
    finding: Finding
    line: int
    column: int
    end_line: int
    end_column: int
    line_text: str = ""
    #: A place that is not a file position, shown instead of ``path:line:column`` (a live MCP
    #: server's tool: ``mcp:<server>/<tool>#<pointer inside the tool>``); line and column then refer
    #: to the tool list as ``toolcast snapshot`` writes it.
    where: str = ""


def located_config(problems: Sequence[ConfigProblem]) -> list[Located]:
    """The configuration files' problems (TC7xx), each at the start of the file it names."""
    return [Located(p.source, f, 1, 1, 1, 1) for p, f in zip(problems, config_findings(problems), strict=True)]


def located_in(shown: str, text: str, findings: Iterable[Finding], line_text: bool = False) -> list[Located]:
    """The findings of the document ``text`` (named ``shown``) in document order, each with its 1-based
    positions; ``line_text``: with the text of its first line (the human format shows it)."""
    ordered = sorted(findings, key=lambda x: (x.span[0], x.span[1], x.code))
    if not ordered:
        return []  # no line index of a large clean file
    pos = Positions(text)
    out = []
    for finding in ordered:
        line, col = pos.line_col(finding.span[0])
        end_line, end_col = pos.line_col(finding.span[1])
        out.append(Located(shown, finding, line + 1, col + 1, end_line + 1, end_col + 1,
                           pos.line_text(line) if line_text else ""))
    return out


def record(item: Located) -> dict[str, Any]:
    f = item.finding
    return {
        "path": item.path,
        **({"location": item.where} if item.where else {}),
        "line": item.line,
        "column": item.column,
        "end_line": item.end_line,
        "end_column": item.end_column,
        "code": f.code,
        "severity": f.severity.value,
        "message": f.message,
        "pointer": f.pointer,
        "target": f.target,
        "tool_index": f.tool_index,
        "tool_name": f.tool_name,
        "rule": RULES[f.code].name if f.code in RULES else None,
        "fix": f.fix.to_dict() if f.fix else None,
        "fixes": [x.to_dict() for x in f.all_fixes()],
        "related": [
            {"path": r.path or item.path, "pointer": r.pointer, "message": r.message} for r in f.related
        ],
    }


def as_json(items: Sequence[Located]) -> str:
    return json.dumps([record(i) for i in items], ensure_ascii=False, indent=2)


#: Code points of a source line shown under a finding: a minified file is one line of megabytes, and
#: printing all of it under each of its findings made the output grow with the square of the file.
EXCERPT = 100


def excerpt(line: str, column: int, end: int | None) -> tuple[str, int, int]:
    """(the part of ``line`` shown, where the caret starts in it, the caret's width) for a finding from the
    0-based ``column`` to ``end`` (None: past the end of the line). A line longer than ``EXCERPT`` is cut
    around the column, each cut end marked with ``…``; tabs are shown as spaces, so that the caret lines up."""
    lo, hi = 0, len(line)
    if hi > EXCERPT:
        lo = max(0, min(column - EXCERPT // 4, hi - EXCERPT))
        hi = lo + EXCERPT
    stop = hi if end is None else min(max(end, column), hi)
    head, tail = ("…" if lo > 0 else ""), ("…" if hi < len(line) else "")
    text = head + line[lo:hi].replace("\t", " ") + tail
    return text, len(head) + column - lo, max(1, stop - column)


def as_human(items: Sequence[Located], color: bool = False) -> str:
    out: list[str] = []
    sev_color = {Severity.ERROR: "31", Severity.WARNING: "33", Severity.INFO: "36", Severity.HINT: "2"}
    for i in items:
        f = i.finding
        code = f"\x1b[{sev_color[f.severity]}m{f.code}\x1b[0m" if color else f.code
        if i.where:
            out.append(f"{i.where}: {code} {f.message}")
        else:
            where = f" [{f.tool_name}]" if f.tool_name else ""
            out.append(f"{i.path}:{i.line}:{i.column}: {code} {f.message}{where}")
        if i.line_text and not i.where:
            text, at, width = excerpt(i.line_text, i.column - 1, i.end_column - 1 if i.end_line == i.line else None)
            out.append(f"    {text}")
            out.append("    " + " " * at + "^" * width)
        for fx in f.all_fixes():
            out.append(f"    fix available: {fx.title}")
    return "\n".join(out)


def _level(sev: Severity) -> str:
    return {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(sev, "note")


def as_sarif(items: Sequence[Located], version: str) -> str:
    """A SARIF 2.1.0 log of one run: every rule toolcast has, and a result per finding."""
    index = {code: n for n, code in enumerate(RULES)}
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "toolcast",
                        "version": version,
                        "rules": _sarif_rules(),
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": [_sarif_result(i, index) for i in items],
            }
        ],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2)


def _sarif_rules() -> list[dict[str, Any]]:
    """The driver's rule descriptors, in the registry's order (a result's ``ruleIndex`` points into it)."""
    # No `helpUri` (nor the driver's `informationUri`): SARIF wants an absolute URI there, and toolcast
    # has no web site; a `file:` URI would name the checking machine's copy (a CI runner's), not one the
    # log's reader has. `help` carries each rule's whole text instead.
    return [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.doc},
            "help": {"text": r.doc, "markdown": r.doc},
            "defaultConfiguration": {"level": _level(r.severity)},
        }
        for r in RULES.values()
    ]


def _sarif_result(i: Located, index: Mapping[str, int]) -> dict[str, Any]:
    """One finding as a SARIF result: its rule, level, message, location and toolcast's own properties."""
    f = i.finding
    result: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": index.get(f.code, 0),
        "level": _level(f.severity),
        "message": {"text": f.message},
        "locations": [_sarif_location(i)],
        "properties": {
            "pointer": f.pointer,
            "target": f.target,
            "toolIndex": f.tool_index,
            "toolName": f.tool_name,
        },
    }
    if f.related:
        result["relatedLocations"] = [
            {
                "id": n,
                "message": {"text": r.message},
                "physicalLocation": {"artifactLocation": {"uri": r.path or i.path}},
            }
            for n, r in enumerate(f.related)
        ]
    return result


def _sarif_location(i: Located) -> dict[str, Any]:
    """Where a finding is: its file region, and for a place that is not a file position (a live MCP
    server's tool) that place as a logical location."""
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": i.path},
            "region": {
                "startLine": i.line,
                "startColumn": i.column,
                "endLine": i.end_line,
                "endColumn": i.end_column,
            },
        },
        **({"logicalLocations": [{"fullyQualifiedName": i.where, "kind": "function"}]} if i.where else {}),
    }


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def as_github(items: Sequence[Located]) -> str:
    kind = {Severity.ERROR: "error", Severity.WARNING: "warning"}
    lines = []
    for i in items:
        f = i.finding
        if i.where:  # not a file in the repository: an annotation without a file
            lines.append(
                f"::{kind.get(f.severity, 'notice')} title={_gh_escape(f.code, True)}::"
                f"{_gh_escape(i.where + ': ' + f.code + ' ' + f.message)}"
            )
            continue
        lines.append(
            f"::{kind.get(f.severity, 'notice')} file={_gh_escape(i.path, True)},"
            f"line={i.line},col={i.column},"
            f"endLine={i.end_line},endColumn={i.end_column},title={_gh_escape(f.code, True)}::"
            f"{_gh_escape(f.code + ' ' + f.message)}"
        )
    return "\n".join(lines)
