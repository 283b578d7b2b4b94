"""A fast pre-check of a value (a ``default``, an example) against a simple schema.

Validating a ``default`` with jsonschema builds a validator per schema node and costs about a quarter of a
millisecond; nearly every default is a string, number or boolean against a schema of a type, an enum and a
few bounds. This answers True only when such a schema certainly accepts the value; on any doubt (a keyword
it does not model, a value it would have to compare loosely) it answers False and the caller runs
jsonschema, which also gives the message. It must never answer True for a value jsonschema rejects
(``tests/checks/test_fast_instance.py`` holds it to jsonschema)."""

from __future__ import annotations

from typing import Any

#: Keywords that never make a value invalid (2020-12 without format assertion, as toolcast validates).
_ANNOTATIONS = frozenset(("title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
                          "$comment", "format"))
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def _is_type(value: Any, name: Any) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "integer":  # 1.0 is an integer in 2020-12; only exact ints are taken here
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    return False


def certainly_valid_instance(schema: Any, value: Any) -> bool:
    """True only when ``schema`` certainly accepts ``value``."""
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        return False
    for key, bound in schema.items():
        if key in _ANNOTATIONS or key.startswith("x-"):
            continue
        if key == "type":
            names = bound if isinstance(bound, list) else [bound]
            if not any(_is_type(value, n) for n in names):
                return False
        elif key == "enum":
            # the same type and an equal value: what jsonschema's comparison certainly calls equal
            if not isinstance(bound, list) or isinstance(value, (dict, list)) or not any(
                    type(v) is type(value) and v == value for v in bound):
                return False
        elif key == "const":
            if isinstance(value, (dict, list)) or type(bound) is not type(value) or bound != value:
                return False
        elif key in _BOUNDS:
            if not _within(key, bound, value):
                return False
        elif key in ("minLength", "maxLength"):
            if not isinstance(bound, int) or isinstance(bound, bool):
                return False
            if isinstance(value, str) and (len(value) < bound if key == "minLength" else len(value) > bound):
                return False
        else:
            return False
    return True


def _within(key: str, bound: Any, value: Any) -> bool:
    if not isinstance(bound, (int, float)) or isinstance(bound, bool):
        return False
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return True  # bounds apply to numbers only
    if key == "minimum":
        return bool(value >= bound)
    if key == "maximum":
        return bool(value <= bound)
    if key == "exclusiveMinimum":
        return bool(value > bound)
    return bool(value < bound)
