"""A tool call mapped back to the tool's own name and arguments, validated: what ``toolcast.map_call_back`` gives
for a call in a provider's response and what ``toolcast proxy`` forwards to the server for a host's ``tools/call``
(``proxy_plan.Plan.map_call``). Public as ``toolcast.MappedCall`` and ``toolcast.CallProblem``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CallProblem:
    """Why a call's arguments would not be accepted by its tool: ``pointer`` is into the arguments."""

    pointer: str
    message: str


@dataclass(frozen=True)
class MappedCall:
    """A tool call with the tool's own ``name`` (a name sanitised for the provider mapped back) and its
    ``arguments`` as the tool's own parameters expect them (nulls strict mode forced taken out), validated:
    ``problems`` is empty when the tool accepts them. ``id`` is the provider's id for the call (empty for an
    MCP ``tools/call``, which has none)."""

    id: str
    name: str
    arguments: dict[str, Any]
    problems: tuple[CallProblem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "arguments": self.arguments,
                "problems": [{"pointer": p.pointer, "message": p.message} for p in self.problems]}


__all__ = ["CallProblem", "MappedCall"]
