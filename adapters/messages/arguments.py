"""Tool calls mapped back to the canonical tools: the original name for a sanitised one, and the
arguments as the original schema expects them (a ``null`` for an optional property that OpenAI strict
mode made required and nullable means "absent"), then validated against the original parameters."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import referencing
import referencing.exceptions
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from referencing.jsonschema import DRAFT202012

from .. import pointer as jp
from ..convert import Conversion
from ..model import CanonicalTool
from .model import ToolCall


def _no_retrieval(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]  # never the network


def to_canonical_call(call: ToolCall, tools: tuple[CanonicalTool, ...],
                      conversions: tuple[Conversion, ...]) -> tuple[ToolCall, CanonicalTool | None]:
    """The call with the tool's original name and arguments, and the tool it calls (None if unknown)."""
    for tool, conv in zip(tools, conversions, strict=True):
        out = conv.output
        wire_name = out.get("function", {}).get("name") if "function" in out else out.get("name")
        if call.name not in (wire_name, tool.name):
            continue
        args = dict(call.arguments)
        for ptr in conv.roundtrip.get("optional") or []:
            _drop_null(args, ptr)
        return replace(call, name=tool.name, arguments=args), tool
    return call, None


def _drop_null(args: dict[str, Any], ptr: str) -> None:
    """``ptr`` is a property in the parameters (``/parameters/properties/a/properties/b``)."""
    parts = jp.parts(ptr)[1:]  # without "parameters"
    names = [parts[i + 1] for i in range(0, len(parts) - 1, 2) if parts[i] == "properties"]
    if len(names) * 2 != len(parts):
        return  # inside combinators or arrays: left as sent
    node: Any = args
    for name in names[:-1]:
        node = node.get(name) if isinstance(node, dict) else None
    if isinstance(node, dict) and names and names[-1] in node and node[names[-1]] is None:
        del node[names[-1]]


def argument_errors(tool: CanonicalTool, arguments: dict[str, Any]) -> list[tuple[str, str]]:
    """(pointer into the arguments, message) for each way ``arguments`` break the tool's parameters."""
    registry: referencing.Registry[Any] = referencing.Registry(retrieve=_no_retrieval)  # type: ignore[call-arg]
    resource = referencing.Resource.from_contents(tool.parameters, default_specification=DRAFT202012)
    validator = Draft202012Validator(tool.parameters, registry=registry.with_resource("urn:toolcast:call", resource))
    try:
        errors = sorted(validator.iter_errors(arguments), key=lambda e: list(e.absolute_path))
    except (referencing.exceptions.Unresolvable, RecursionError) as exc:
        return [("", f"the schema cannot be applied: {type(exc).__name__}")]
    return [(jp.from_parts(list(e.absolute_path)), e.message) for e in errors]
