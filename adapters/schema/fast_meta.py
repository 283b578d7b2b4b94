"""A fast pre-check against the JSON Schema 2020-12 meta-schema.

jsonschema's meta-schema validation costs milliseconds per tool (it walks the meta-schema's dynamic
references for every node). Nearly every schema is valid, so this checks the keyword value types the
meta-schema constrains and answers True only when the schema is certainly valid; on any doubt (an
invalid value, or a keyword it does not model exactly) it answers False and the caller runs jsonschema,
which gives the messages. It must never answer True for a schema the meta-schema rejects."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..schema_keywords import ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP

_SIMPLE_TYPES = frozenset(("array", "boolean", "integer", "null", "number", "object", "string"))

#: The applicators' subschemas, and the content vocabulary's `contentSchema` (also a schema in the meta-schema).
_SCHEMA = (*ONE_SCHEMA, "contentSchema")
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


def _type_ok(v: Any) -> bool:
    if isinstance(v, str):
        return v in _SIMPLE_TYPES
    return (isinstance(v, list) and bool(v) and all(isinstance(t, str) and t in _SIMPLE_TYPES for t in v)
            and len(set(v)) == len(v))


def _never(v: Any) -> bool:
    return False


#: Keyword → what its value must be, for the keywords whose value is not a subschema. A keyword outside this
#: table and the subschema families (``const``, ``default``, non-vocabulary keywords) takes anything.
_VALUE_OK: dict[str, Callable[[Any], bool]] = {
    "type": _type_ok,
    **{key: (lambda v: isinstance(v, str)) for key in _STRING},
    **dict.fromkeys(_NUMBER, _is_number),
    "multipleOf": lambda v: _is_number(v) and v > 0,
    **dict.fromkeys(_NON_NEGATIVE, _is_non_negative_int),
    **{key: (lambda v: isinstance(v, bool)) for key in _BOOLEAN},
    **{key: (lambda v: isinstance(v, list)) for key in _ARRAY},
    "required": _unique_strings,
    "dependentRequired": lambda v: isinstance(v, dict) and all(_unique_strings(x) for x in v.values()),
    **dict.fromkeys(_DEFER, _never),
}
#: Keyword → how its subschemas are held: one schema, a map of schemas, a non-empty list of schemas.
_HOLDS: dict[str, str] = {**dict.fromkeys(_SCHEMA, "one"), **dict.fromkeys(SCHEMA_MAP, "map"),
                          **dict.fromkeys(SCHEMA_LIST, "list")}  # lists: non-empty arrays of schemas


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
            holds = _HOLDS.get(key)
            if holds == "one":
                stack.append(v)
            elif holds == "map":
                if not isinstance(v, dict):
                    return False
                stack.extend(v.values())
            elif holds == "list":
                if not isinstance(v, list) or not v:
                    return False
                stack.extend(v)
            else:
                ok = _VALUE_OK.get(key)
                if ok is not None and not ok(v):
                    return False
    return True
