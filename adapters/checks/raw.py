"""Findings before placement (``Unplaced``: a pointer, not yet a span) and what a tool's check leaves for the
file-level checks (``ToolFacts``, ``ToolResult``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .edits import FixSpec


@dataclass(frozen=True, slots=True)
class Unplaced:
    """A finding before placement. ``place``: ``value``, ``key``, or ``missing`` (``pointer`` names the
    absent member; it is shown on its parent's key, or the parent's ``{`` when the parent has none)."""

    code: str
    message: str
    pointer: str
    place: str = "value"
    target: str | None = None
    fixes: tuple[FixSpec, ...] = ()
    related: tuple[tuple[str, str], ...] = ()  # (pointer in the same document, message)
    data: Mapping[str, Any] = field(default_factory=dict)
    tool: tuple[int, str | None] | None = None  # (index, name) of the tool it concerns

    def rebased(self, base: str, tool: tuple[int, str | None]) -> Unplaced:
        return Unplaced(
            self.code,
            self.message,
            base + self.pointer,
            self.place,
            self.target,
            tuple(f.rebased(base) for f in self.fixes),
            tuple((base + p, m) for p, m in self.related),
            self.data,
            tool,
        )


@dataclass(frozen=True, slots=True)
class ToolFacts:
    """What document-level checks need from a tool (counted once, cached with the tool)."""

    name: str | None
    target_names: Mapping[str, str]  # target -> the name that target would see
    anthropic_strict: bool
    optional_params: int
    union_params: int


@dataclass(frozen=True, slots=True)
class ToolResult:
    raws: tuple[Unplaced, ...]
    facts: ToolFacts
