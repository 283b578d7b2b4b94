"""A response's tool calls mapped back to the tools as the program defined them (``toolcast response
--tools``): original names, nulls that strict mode forced taken out, arguments validated."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..canonical import CanonicalTool
from ..convert import Conversion, convert
from ..errors import ToolcastError
from ..loading import iter_tool_objects, load_tools, to_canonical
from .arguments import argument_errors, to_canonical_call
from .conversation import Block, Choice, Response, ToolCall


@dataclass(frozen=True)
class ToolSet:
    """Canonical tools and, for each, how it was sent (its conversion: wire name and round-trip record)."""

    tools: tuple[CanonicalTool, ...]
    conversions: tuple[Conversion, ...]


@dataclass(frozen=True)
class CallProblem:
    call_id: str
    name: str
    pointer: str  # into the call's arguments
    message: str


def tool_set(value: Any, source: str) -> ToolSet:
    """The tools in a parsed tools file, as ``source`` received them. Either ``toolcast convert --format
    json`` output (the provider export and its ``roundtrip`` record: read back and restored with it), or
    any tool file toolcast reads (canonical or a provider's shape), converted for ``source`` as
    ``toolcast request`` would send it."""
    if isinstance(value, dict) and "output" in value and "roundtrip" in value:
        objects = iter_tool_objects(value["output"])
        records = value["roundtrip"] if isinstance(value["roundtrip"], list) else [value["roundtrip"]]
        if len(records) != len(objects):
            raise ToolcastError(f"the export holds {len(objects)} tools but {len(records)} round-trip records")
        tools, conversions = [], []
        for obj, record in zip(objects, records, strict=True):
            if obj.shape is None or not isinstance(record, dict):
                raise ToolcastError(f"the export's tool at {obj.pointer or '/'} is not a tool toolcast reads")
            tools.append(to_canonical(obj.value, obj.shape, record))
            conversions.append(Conversion(source, obj.value, (), record))
        return ToolSet(tuple(tools), tuple(conversions))
    canonical = tuple(lt.tool for lt in load_tools(value))
    return ToolSet(canonical, tuple(convert(t, source) for t in canonical))


def map_calls(response: Response, tools: ToolSet) -> tuple[Response, list[CallProblem]]:
    """``response`` with every tool call (in every choice) as its canonical tool expects it, and what
    does not validate against the canonical parameters (or calls an unknown tool)."""
    problems: list[CallProblem] = []

    def blocks(content: tuple[Block, ...]) -> tuple[Block, ...]:
        out: list[Block] = []
        for block in content:
            if isinstance(block, ToolCall):
                call, tool = to_canonical_call(block, tools.tools, tools.conversions)
                if tool is None:
                    problems.append(CallProblem(call.id, call.name, "", f"calls {call.name!r}, which the tools "
                                                "file does not define"))
                else:
                    problems.extend(CallProblem(call.id, call.name, where, message)
                                    for where, message in argument_errors(tool, call.arguments))
                block = call
            out.append(block)
        return tuple(out)

    mapped = replace(response, content=blocks(response.content),
                     choices=tuple(Choice(c.index, blocks(c.content), c.finish_reason) for c in response.choices))
    return mapped, problems
