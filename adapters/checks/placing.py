"""From raw findings to findings: each placed on its span in the text (``DocView``), attributed to the
nearest enclosing tool, its fixes rendered, and the configuration applied (``place_findings``).

Range conventions follow vscode-json-languageservice: a missing member is reported on its parent's
key (or the parent's ``{`` when the parent has no key), a wrong value on the value, an unwanted member
on its key, a feature loss on the lost keyword's key."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

from .. import pointer as jp
from ..document.parsed import ParsedDocument, Part
from ..rules.codes import DOCUMENT_TOO_LARGE, DUPLICATE_KEY, NOT_A_TOOL_FILE
from ..rules.findings import Finding, Fix, Related, Severity
from ..rules.registry import RULES
from .config import CheckConfig
from .edits import Renderer
from .raw import Unplaced


class DocView:
    """Span look-ups on the parsed document that never raise: None when a pointer is absent."""

    def __init__(self, text: str, parsed: ParsedDocument) -> None:
        self.text = text
        self.parsed = parsed

    def span(self, pointer: str, part: str = "value") -> tuple[int, int] | None:
        try:  # `part` is a str: the fix renderer asks through `edits.SpanFn`
            return self.parsed.span(pointer, cast(Part, part))
        except (KeyError, ValueError, IndexError, LookupError):
            return None

    def place(self, pointer: str, place: str) -> tuple[str, tuple[int, int]]:
        """(pointer actually used, span) for a finding about ``pointer``."""
        if place == "missing":
            parent = jp.from_parts(jp.parts(pointer)[:-1])
            return self._on_container(parent)
        if place == "key":
            s = self.span(pointer, "key") or self.span(pointer, "value")
        else:
            s = self.span(pointer, "value")
        if s is not None:
            return pointer, s
        # Absent (recovered value differs from the text): fall back to the nearest ancestor.
        parts = jp.parts(pointer)
        while parts:
            parts.pop()
            ptr = jp.from_parts(parts)
            s = self.span(ptr, "key") or self.span(ptr, "value")
            if s is not None:
                return ptr, s
        return "", (0, min(1, len(self.text)))

    def _on_container(self, pointer: str) -> tuple[str, tuple[int, int]]:
        key = self.span(pointer, "key")
        if key is not None:
            return pointer, key
        value = self.span(pointer, "value")
        if value is not None:
            return pointer, (value[0], min(value[0] + 1, value[1]))
        return self.place(pointer, "value")


#: A tool's (index, name) by its pointer: who a finding inside it belongs to.
Owners = Mapping[str, tuple[int, str | None]]


def _placed(raw: Unplaced, text: str, view: DocView | None) -> tuple[str, tuple[int, int]]:
    if view is None:
        return raw.pointer, (0, min(1, len(text)))
    if raw.code == DUPLICATE_KEY and "span" in raw.data:
        return raw.pointer, raw.data["span"]
    return view.place(raw.pointer, raw.place)


def _fixes(raw: Unplaced, renderer: Renderer | None) -> list[Fix]:
    if renderer is None:
        return []
    return [fx for fx in map(renderer.fix, raw.fixes) if fx is not None]


def _owner(raw: Unplaced, tools: Owners) -> tuple[int | None, str | None]:
    """The tool a finding belongs to: its own, else the nearest enclosing one (O(depth), not O(tools))."""
    if raw.tool is not None:
        return raw.tool
    if raw.code in (NOT_A_TOOL_FILE, DOCUMENT_TOO_LARGE) or not tools:
        return None, None
    parts = jp.parts(raw.pointer)
    while True:
        hit = tools.get(jp.from_parts(parts))
        if hit is not None:
            return hit
        if not parts:
            return None, None
        parts.pop()


def _finding(raw: Unplaced, text: str, view: DocView | None, tools: Owners, renderer: Renderer | None) -> Finding:
    rule = RULES[raw.code]
    pointer, span = _placed(raw, text, view)
    fixes = _fixes(raw, renderer)
    related = tuple(Related(None, p, m, view.span(p, "value") if view else None) for p, m in raw.related)
    index, name = _owner(raw, tools)
    data = dict(raw.data)
    data.setdefault("rule", rule.name)
    return Finding(
        raw.code,
        Severity(raw.data["severity"]) if "severity" in raw.data else rule.severity,
        raw.message,
        raw.pointer if raw.place == "missing" else pointer,
        span,
        raw.target,
        index,
        name,
        fixes[0] if fixes else None,
        tuple(fixes[1:]),
        related,
        data,
    )


def place_findings(text: str, view: DocView | None, raws: Sequence[Unplaced], config: CheckConfig, value: Any = None,
           tools: Owners | None = None, renderer: Renderer | None = None) -> list[Finding]:
    """Place, attribute (to the nearest enclosing tool), render fixes, configure."""
    if renderer is None and view is not None:
        renderer = Renderer(text, view.span, value)
    out: list[Finding] = []
    for raw in raws:
        if not config.is_enabled(raw.code):
            continue
        configured = configure(_finding(raw, text, view, tools or {}, renderer), config)
        if configured is not None:
            out.append(configured)
    return out


def configure(f: Finding, config: CheckConfig) -> Finding | None:
    """``f`` with the configuration's severity for its rule; None when the configuration turns it off."""
    if not config.is_enabled(f.code):
        return None
    sev = config.severity_of(f.code, f.severity)
    if sev is None:
        return None
    if sev != f.severity:
        return replace(f, severity=Severity(sev))
    return f


def syntax_filter(findings: list[Finding], config: CheckConfig) -> list[Finding]:
    return [f for f in (configure(f, config) for f in findings) if f is not None]


def in_order(findings: Iterable[Finding]) -> list[Finding]:
    """Sorted by position (then code and target)."""
    return sorted(findings, key=lambda f: (f.span[0], f.span[1], f.code, f.target or ""))


__all__ = ["DocView", "Owners", "configure", "in_order", "place_findings", "syntax_filter"]
