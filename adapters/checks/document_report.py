"""What a check of one document reports: its tools, and their findings in blocks that move with them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from ..rules.findings import Finding


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
class FindingBlock:
    """One tool's findings as computed when the tool started at ``origin``; it starts at ``start`` now.
    The tuple is shared between reports while the tool is unchanged, so a consumer (the language
    server) can cache what it derives from it by identity and pay only for the tool an edit touched."""

    start: int
    origin: int
    findings: tuple[Finding, ...]

    def placed(self) -> tuple[Finding, ...]:
        delta = self.start - self.origin
        return self.findings if delta == 0 else tuple(f.shifted(delta) for f in self.findings)


@dataclass(frozen=True)
class DocumentReport:
    """``outside_tools`` holds the findings outside any tool's block (syntax, file-level, across tools);
    ``findings`` is every finding placed in the current text, sorted by position (built on first use)."""

    outside_tools: tuple[Finding, ...]
    tools: tuple[ToolSummary, ...]
    is_tool_file: bool
    blocks: tuple[FindingBlock, ...] = ()
    pending: int = 0  # tools not checked yet (a time budget ran out): their findings are missing
    is_request: bool = False  # a request file: its tools are the request's, not definitions to register
    #: With ``pending``: ``resume(seconds)`` checks more of them (cached for the next call with this
    #: text) and returns how many are left; a caller can spread the work between other tasks.
    resume: Callable[[float], int] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def findings(self) -> tuple[Finding, ...]:
        if not self.blocks:
            return self.outside_tools
        every = list(self.outside_tools)
        for block in self.blocks:
            every.extend(block.placed())
        every.sort(key=lambda f: (f.span[0], f.span[1], f.code, f.target or ""))
        return tuple(every)

    def tool_at(self, offset: int) -> ToolSummary | None:
        """The tool whose block holds ``offset`` (its ends included), or None: what hover and the code actions
        ask about the place under the cursor."""
        for tool in self.tools:
            if tool.span[0] <= offset <= tool.span[1]:
                return tool
        return None
