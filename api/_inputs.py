"""What the API accepts: plain JSON values, and the official SDKs' objects (pydantic models: ``mcp.types.Tool``,
google-genai ``types.FunctionDeclaration``, a tool call of an SDK's response) read through their ``model_dump``,
so that no SDK is imported here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolcast.adapters.errors import ConversionError, Direction

_MAX_DEPTH = 512  # deeper than any schema a provider accepts; a cycle of containers stops here


def plain_json(value: Any, adapter: str, direction: Direction = "to_canonical") -> Any:
    """``value`` as plain JSON (dicts, lists, str, int, float, bool, None), SDK models dumped as their wire JSON
    (aliases, no unset fields). Anything else is a ``ConversionError`` naming where it is."""
    return _plain(value, adapter, direction, "", 0)


def _plain(value: Any, adapter: str, direction: Direction, where: str, depth: int) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if depth > _MAX_DEPTH:
        raise ConversionError(adapter, direction, f"nested more than {_MAX_DEPTH} levels deep", where)
    if not isinstance(value, (Mapping, list, tuple)):
        value = _dumped(value, adapter, direction, where)
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise ConversionError(adapter, direction, f"object key {key!r} is not a string", where)
            out[key] = _plain(item, adapter, direction, f"{where}/{_escape(key)}", depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(item, adapter, direction, f"{where}/{i}", depth + 1) for i, item in enumerate(value)]
    return _plain(value, adapter, direction, where, depth + 1)


def _dumped(value: Any, adapter: str, direction: Direction, where: str) -> Any:
    dump = getattr(value, "model_dump", None)
    if not callable(dump):
        raise ConversionError(adapter, direction, f"expected a JSON value or an SDK model with `model_dump`, "
                              f"found {type(value).__name__}", where)
    try:  # the wire form: camelCase aliases (Gemini, MCP), enums as their values, unset fields left out
        return dump(mode="json", by_alias=True, exclude_none=True)
    except TypeError:  # a model_dump without pydantic v2's keywords
        return dump()


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
