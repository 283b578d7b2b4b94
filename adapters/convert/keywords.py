"""What the walker knows of JSON Schema: the annotations and every keyword it reads (the families it and the
scan descend by, and the type names, are JSON Schema's own: ``adapters/schema_keywords.py``)."""

from __future__ import annotations

from ..schema_keywords import JSON_TYPES, ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP

__all__ = ["ANNOTATIONS", "JSON_TYPES", "KNOWN", "ONE_SCHEMA", "SCHEMA_LIST", "SCHEMA_MAP"]

#: Keywords that only annotate: removing them never changes which instances are valid.
ANNOTATIONS = frozenset({
    "title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly",
    "$comment", "$schema", "$id", "$anchor", "propertyOrdering", "markdownDescription", "nullable",
})
#: Every keyword the walker knows: others are unknown (dropped by modes that drop unknown keywords).
KNOWN = frozenset(ANNOTATIONS | set(ONE_SCHEMA) | set(SCHEMA_MAP) | set(SCHEMA_LIST) | {
    "type", "enum", "const", "required", "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems",
    "minContains", "maxContains", "minProperties", "maxProperties", "dependentRequired", "$ref",
    "$dynamicRef", "$dynamicAnchor", "$vocabulary",
})
