"""Registration checks across files: a tool name defined in more than one file (TC202)."""

from __future__ import annotations

from collections.abc import Mapping

from ..rules.codes import DUPLICATE_NAME_ACROSS_FILES
from ..rules.findings import Finding, Related
from ..rules.registry import RULES
from ..targets import export_target
from .config import CheckConfig
from .report import DocumentReport, ToolSummary


def names_across(
    reports: Mapping[str, DocumentReport], config: CheckConfig, only: str | None = None
) -> dict[str, tuple[Finding, ...]]:
    """path -> TC202 findings; each finding's ``related`` lists the other files' definitions. With ``only``,
    the findings of that path alone (the language server publishes one file at a time: building every
    other file's findings cost it 40–55 ms per publish in a folder of 6,000 tools)."""
    out: dict[str, list[Finding]] = {path: [] for path in reports if only is None or path == only}
    if not config.is_enabled(DUPLICATE_NAME_ACROSS_FILES):
        return {p: () for p in out}
    by_name: dict[str, list[tuple[str, ToolSummary]]] = {}
    for path in sorted(reports):
        if reports[path].is_request or export_target(path) is not None:
            continue  # a request or an export carries copies of tools defined elsewhere
        for tool in reports[path].tools:
            if tool.name is not None:
                by_name.setdefault(tool.name, []).append((path, tool))
    rule = RULES[DUPLICATE_NAME_ACROSS_FILES]
    severity = config.severity_override(DUPLICATE_NAME_ACROSS_FILES, rule.severity)
    for name, places in by_name.items():
        paths = {p for p, _ in places}
        if len(paths) < 2:
            continue
        for path, tool in places:
            if path not in out:
                continue
            others = tuple(
                Related(
                    p,
                    t.pointer + "/name" if t.name_span is None else t.pointer,
                    f"{name!r} is also defined here",
                    t.name_span,
                )
                for p, t in places
                if p != path
            )
            span = tool.name_span or (tool.span[0], tool.span[0] + 1)
            out[path].append(
                Finding(
                    DUPLICATE_NAME_ACROSS_FILES,
                    severity,
                    f"tool name {name!r} is also defined in "
                    + ", ".join(sorted({r.path or "" for r in others})),
                    tool.pointer,
                    span,
                    None,
                    tool.index,
                    tool.name,
                    related=others,
                    data={"rule": rule.name},
                )
            )
    return {p: tuple(sorted(fs, key=lambda f: f.span)) for p, fs in out.items()}
