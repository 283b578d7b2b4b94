"""Completion of JSON Schema keywords and `type` values where the cursor is inside a tool's schema."""

from __future__ import annotations

from toolcast.adapters.document import ParsedDocument

KEYWORDS = (
    "type", "description", "title", "properties", "required", "items", "enum", "const", "default",
    "additionalProperties", "anyOf", "oneOf", "allOf", "$ref", "$defs", "format", "pattern", "minLength",
    "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems",
    "maxItems", "uniqueItems", "examples",
)
TYPES = ("object", "string", "number", "integer", "boolean", "array", "null")
SCHEMA_FIELDS = ("/parameters", "/input_schema", "/inputSchema", "/parametersJsonSchema", "/json", "/returns",
                 "/outputSchema")


def in_schema(pointer: str) -> bool:
    return any(f"{field}/" in pointer + "/" for field in SCHEMA_FIELDS)


def complete(parsed: ParsedDocument, offset: int) -> tuple[str, tuple[str, ...]] | None:
    """("key" | "type", candidates) at ``offset`` of a parsed document, or None outside a schema."""
    loc = parsed.location(offset)
    pointer = loc.pointer
    if loc.is_key:
        parent = pointer.rsplit("/", 1)[0]
        return ("key", KEYWORDS) if in_schema(parent + "/") and not parent.endswith("/properties") else None
    if pointer.endswith("/type") and in_schema(pointer):
        return ("type", TYPES)
    node = loc.node
    if node is not None and node.properties is not None and in_schema(pointer + "/") \
            and not pointer.endswith("/properties"):
        return ("key", KEYWORDS)
    return None
