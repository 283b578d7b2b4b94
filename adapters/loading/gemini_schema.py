"""Gemini's OpenAPI ``Schema`` subset → JSON Schema: lower-case types, ``nullable`` → a type union."""

from __future__ import annotations

from typing import Any

from ..jsonvalue import copy_json

_MAX_DEPTH = 200


def from_gemini_schema(schema: Any, depth: int = 0) -> Any:
    if not isinstance(schema, dict) or depth > _MAX_DEPTH:
        return copy_json(schema)
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            out["type"] = value.lower()
        elif key in ("properties", "defs") and isinstance(value, dict):
            out["$defs" if key == "defs" else key] = {k: from_gemini_schema(v, depth + 1) for k, v in value.items()}
        elif key == "items":
            out[key] = from_gemini_schema(value, depth + 1)
        elif key == "anyOf" and isinstance(value, list):
            out[key] = [from_gemini_schema(v, depth + 1) for v in value]
        elif key == "ref" and isinstance(value, str):
            out["$ref"] = value.replace("#/defs/", "#/$defs/")
        elif key in ("nullable", "propertyOrdering"):
            continue
        else:
            out[key] = copy_json(value)
    if schema.get("nullable") is True:
        t = out.get("type")
        if isinstance(t, str) and t != "null":
            out["type"] = [t, "null"]
        elif "anyOf" in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
    return out
