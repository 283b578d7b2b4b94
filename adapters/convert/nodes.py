"""Questions about one schema node that the walker and the scan both ask, answered one way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import pointer as jp
from .keywords import ANNOTATIONS, JSON_TYPES


def no_arguments(schema: Mapping[str, Any], is_root: bool) -> bool:
    """A tool without parameters: a root that declares no property and no extra keys. Every provider
    takes it as a function with no arguments, so closing it (strict) or leaving it out (Gemini) loses
    nothing the author wrote."""
    return is_root and not schema.get("properties") and not schema.get("patternProperties") \
        and schema.get("additionalProperties") in (None, False)


def kept_ref(root: Any, ref: str) -> bool:
    """Whether the output still has what ``ref`` points at: the root, or a definition of the root's
    ``$defs``/``definitions`` (lowered by ``lower``). Anything else (a nested ``$defs``, a path into
    ``properties`` that lowering may rename) is inlined rather than left dangling."""
    parts = jp.parts(ref[1:])
    return not parts or (len(parts) == 2 and parts[0] in ("$defs", "definitions")
                         and isinstance(root, dict) and isinstance(root.get(parts[0]), dict))


def is_null(branch: Any) -> bool:
    """A branch that is only ``type: null`` (and annotations)."""
    return isinstance(branch, dict) and branch.get("type") == "null" and not set(branch) - ANNOTATIONS - {"type"}


def with_null(schema: Any) -> Any:
    """``schema`` that also accepts null: what strict mode makes of an optional member it requires."""
    if not isinstance(schema, dict):
        return schema
    t = schema.get("type")
    if isinstance(t, str) and "enum" not in schema and "const" not in schema and "$ref" not in schema:
        return {**schema, "type": t if t == "null" else [t, "null"]}
    if isinstance(t, list) and "enum" not in schema and "$ref" not in schema:
        return schema if "null" in t else {**schema, "type": [*t, "null"]}
    if isinstance(schema.get("anyOf"), list) and not set(schema) - ANNOTATIONS - {"anyOf"}:
        if any(is_null(b) for b in schema["anyOf"]):
            return schema
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {"anyOf": [schema, {"type": "null"}]}


def json_type(value: Any) -> str:
    """The JSON Schema type name of a JSON value (``integer`` for an int, ``number`` for a float)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "null"


def type_names(type_: Any) -> list[str] | None:
    """A node's `type` as a list of JSON Schema type names, or None when it states none (or not only those)."""
    names = [type_] if isinstance(type_, str) else type_
    if not isinstance(names, list) or not names or not all(isinstance(t, str) and t in JSON_TYPES for t in names):
        return None
    return names


def allows(kinds: list[str], value: Any) -> bool:
    """Whether a `type` of these names allows ``value`` (an integer is a number; 2.0 is an integer)."""
    kind = json_type(value)
    if kind == "number" and isinstance(value, float) and value.is_integer():
        kind = "integer"
    return kind in kinds or (kind == "integer" and "number" in kinds)
