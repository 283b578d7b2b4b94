"""Registration checks across files: a tool name defined in more than one file (TC202).

``NameIndex`` holds which files define each name, updated one file at a time: ``toolcast check`` adds every
file once, the language server updates a file as it is opened, edited or closed and learns which names'
files changed (the other files holding those names have new findings). A file's findings cost its own
tools times a bounded number of places: each names ``LISTED`` other files at most, and ``LISTED``
definitions in each."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Collection, Iterator, Mapping
from itertools import islice

from ..listing import LISTED, listed
from ..rules.codes import DUPLICATE_NAME_ACROSS_FILES
from ..rules.findings import Finding, Related
from ..rules.registry import RULES
from ..targets import export_target
from .config import CheckConfig
from .document_report import DocumentReport, ToolSummary


def registers_names(path: str, report: DocumentReport) -> bool:
    """Whether a file's tools are definitions: a request or an export carries copies of tools defined elsewhere."""
    return not report.is_request and export_target(path) is None


class NameIndex:
    """tool name -> the files defining it (in path order) and, per file, its tools of that name."""

    __slots__ = ("_files", "_paths")

    def __init__(self) -> None:
        self._files: dict[str, dict[str, tuple[ToolSummary, ...]]] = {}
        self._paths: dict[str, list[str]] = {}  # sorted

    def __contains__(self, path: str) -> bool:
        return path in self._files

    def update(self, path: str, report: DocumentReport | None) -> set[str]:
        """``path`` now defines the named tools of ``report`` (None: nothing). The names whose definitions
        another file's findings list changed (a file added or gone, a tool more or fewer); a tool that only
        moved inside its file is not a change for the others."""
        named: dict[str, list[ToolSummary]] = {}
        if report is not None and registers_names(path, report):
            for tool in report.tools:
                if tool.name is not None:
                    named.setdefault(tool.name, []).append(tool)
        new = {name: tuple(tools) for name, tools in named.items()}
        old = self._files.pop(path, {})
        if new:
            self._files[path] = new
        for name in old.keys() - new.keys():
            paths = self._paths[name]
            del paths[bisect_left(paths, path)]
            if not paths:
                del self._paths[name]
        for name in new.keys() - old.keys():
            insort(self._paths.setdefault(name, []), path)
        return {name for name in old.keys() | new.keys() if len(old.get(name, ())) != len(new.get(name, ()))}

    def sharing(self, names: set[str], but: str, among: Collection[str] | None = None) -> set[str]:
        """The files other than ``but`` that define one of ``names`` (those of ``among`` only, when given:
        the language server asks about its open documents, a few beside thousands of indexed files)."""
        if among is not None and len(among) < sum(len(self._paths.get(name, ())) for name in names):
            return {p for p in among if p != but and not names.isdisjoint(self._files.get(p, ()))}
        found = {p for name in names for p in self._paths.get(name, ()) if p != but}
        return found if among is None else {p for p in found if p in among}

    def _others(self, name: str, path: str) -> Iterator[str]:
        return (p for p in self._paths[name] if p != path)

    def findings(self, path: str, config: CheckConfig) -> tuple[Finding, ...]:
        """TC202 for each tool of ``path`` whose name another file defines, in the file's order."""
        tools = self._files.get(path)
        if not tools or not config.is_enabled(DUPLICATE_NAME_ACROSS_FILES):
            return ()
        rule = RULES[DUPLICATE_NAME_ACROSS_FILES]
        severity = config.severity_override(DUPLICATE_NAME_ACROSS_FILES, rule.severity)
        out: list[Finding] = []
        for name, mine in tools.items():
            count = len(self._paths[name]) - 1
            if count < 1:
                continue
            shown = list(islice(self._others(name, path), LISTED))
            # Each file named gets its definitions (a file defining the name many times: its first few).
            related = tuple(
                Related(p, t.pointer + "/name" if t.name_span is None else t.pointer,
                        f"{name!r} is also defined here", t.name_span)
                for p in shown for t in self._files[p][name][:LISTED])
            message = f"tool name {name!r} is also defined in {listed(shown, count)}"
            for tool in mine:
                span = tool.name_span or (tool.span[0], tool.span[0] + 1)
                out.append(Finding(DUPLICATE_NAME_ACROSS_FILES, severity, message, tool.pointer, span, None,
                                   tool.index, tool.name, related=related, data={"rule": rule.name}))
        return tuple(sorted(out, key=lambda f: f.span))


def names_across(
    reports: Mapping[str, DocumentReport], config: CheckConfig, only: str | None = None
) -> dict[str, tuple[Finding, ...]]:
    """path -> TC202 findings; each finding's ``related`` lists the definitions in the other files its
    message names. With ``only``, the findings of that path alone."""
    index = NameIndex()
    for path in sorted(reports):  # in path order: each insertion goes to the end of its name's list
        index.update(path, reports[path])
    return {path: index.findings(path, config) for path in reports if only is None or path == only}


__all__ = ["NameIndex", "names_across", "registers_names"]
