"""Tool calls mapped back to the canonical tools: the original name for a sanitised one, and the
arguments as the original schema expects them (a ``null`` for an optional property that OpenAI strict
mode made required and nullable means "absent"), then validated against the original parameters."""

from __future__ import annotations

import copy
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
        if call.name not in (wire_name(conv.output), tool.name):
            continue
        args = copy.deepcopy(call.arguments)
        # Deepest first, so that a nested null goes before its (possibly emptied) parent is looked at.
        for ptr in sorted(conv.roundtrip.get("optional") or [], key=len, reverse=True):
            _drop_null(args, jp.parts(ptr)[1:])  # without "parameters"
        return replace(call, name=tool.name, arguments=args), tool
    return call, None


def wire_name(output: dict[str, Any]) -> str | None:
    """A converted tool's name, whatever its envelope (Chat's ``function``, Bedrock's ``toolSpec``)."""
    for key in ("function", "toolSpec"):
        if isinstance(output.get(key), dict):
            output = output[key]
    name = output.get("name")
    return name if isinstance(name, str) else None


def _drop_null(node: Any, parts: list[str]) -> None:
    """Remove a null at schema path ``parts`` (``properties/a/items/properties/b``) from the value
    ``node``, at every place it applies: each element for ``items``, each object for ``properties``.
    Paths through combinators (``anyOf``, …) are left as sent: which branch applies is not known."""
    if not parts or (parts[0] == "properties" and len(parts) < 2):
        return
    if parts[0] == "properties" and isinstance(node, dict):
        name, rest = parts[1], parts[2:]
        if not rest:
            if name in node and node[name] is None:
                del node[name]
        elif name in node:
            _drop_null(node[name], rest)
    elif parts[0] == "items" and isinstance(node, list):
        for element in node:
            _drop_null(element, parts[1:])
    elif parts[0] == "additionalProperties" and isinstance(node, dict):
        for value in node.values():
            _drop_null(value, parts[1:])


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
