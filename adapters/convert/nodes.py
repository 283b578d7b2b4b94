"""Questions about one schema node that the walker and the scan both ask, answered one way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import pointer as jp
from .keywords import ANNOTATIONS


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
