"""A fast pre-check against the JSON Schema 2020-12 meta-schema.

jsonschema's meta-schema validation costs milliseconds per tool (it walks the meta-schema's dynamic
references for every node). Nearly every schema is valid, so this checks the keyword value types the
meta-schema constrains and answers True only when the schema is certainly valid; on any doubt (an
invalid value, or a keyword it does not model exactly) it answers False and the caller runs jsonschema,
which gives the messages. It must never answer True for a schema the meta-schema rejects."""

from __future__ import annotations

from typing import Any

_SIMPLE_TYPES = frozenset(("array", "boolean", "integer", "null", "number", "object", "string"))

_SCHEMA = (
    "items",
    "contains",
    "additionalProperties",
    "propertyNames",
    "if",
    "then",
    "else",
    "not",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
_SCHEMA_MAP = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
_SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")  # non-empty arrays of schemas
_STRING = (
    "$ref",
    "$schema",
    "$comment",
    "$dynamicRef",
    "title",
    "description",
    "pattern",
    "format",
    "contentEncoding",
    "contentMediaType",
)
_NUMBER = ("maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum")
_NON_NEGATIVE = (
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
)
_BOOLEAN = ("uniqueItems", "deprecated", "readOnly", "writeOnly")
_ANY = ("const", "default")
_ARRAY = ("enum", "examples")
#: Vocabulary keywords with constraints this module does not model (patterns, nested forms): defer.
_DEFER = frozenset(
    ("$id", "$anchor", "$dynamicAnchor", "$vocabulary", "dependencies", "$recursiveAnchor", "$recursiveRef")
)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_non_negative_int(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return v >= 0
    return isinstance(v, float) and v.is_integer() and v >= 0


def _unique_strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v) and len(set(v)) == len(v)


def certainly_valid(schema: Any, max_nodes: int = 100_000) -> bool:
    stack = [schema]
    nodes = 0
    while stack:
        node = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            return False
        if isinstance(node, bool):
            continue
        if not isinstance(node, dict):
            return False
        for key, v in node.items():
            if key in _SCHEMA:
                stack.append(v)
            elif key in _SCHEMA_MAP:
                if not isinstance(v, dict):
                    return False
                stack.extend(v.values())
            elif key in _SCHEMA_LIST:
                if not isinstance(v, list) or not v:
                    return False
                stack.extend(v)
            elif key == "type":
                if isinstance(v, str):
                    if v not in _SIMPLE_TYPES:
                        return False
                elif not (
                    isinstance(v, list)
                    and v
                    and all(isinstance(t, str) and t in _SIMPLE_TYPES for t in v)
                    and len(set(v)) == len(v)
                ):
                    return False
            elif key in _STRING:
                if not isinstance(v, str):
                    return False
            elif key in _NUMBER:
                if not _is_number(v):
                    return False
            elif key == "multipleOf":
                if not (_is_number(v) and v > 0):
                    return False
            elif key in _NON_NEGATIVE:
                if not _is_non_negative_int(v):
                    return False
            elif key in _BOOLEAN:
                if not isinstance(v, bool):
                    return False
            elif key in _ARRAY:
                if not isinstance(v, list):
                    return False
            elif key == "required":
                if not _unique_strings(v):
                    return False
            elif key == "dependentRequired":
                if not (isinstance(v, dict) and all(_unique_strings(x) for x in v.values())):
                    return False
            elif key in _DEFER:
                return False
            # _ANY keywords and unknown (non-vocabulary) keywords: anything goes.
    return True
