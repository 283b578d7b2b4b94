"""The fast meta-schema pre-check never accepts a schema the 2020-12 meta-schema rejects (differential
test against jsonschema), and accepts the common valid ones so the slow path is rarely taken."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from toolcast.adapters.checks.fast_meta import certainly_valid

META = Draft202012Validator(Draft202012Validator.META_SCHEMA)
KEYWORDS = [
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "const",
    "minimum",
    "maxLength",
    "minItems",
    "multipleOf",
    "anyOf",
    "allOf",
    "oneOf",
    "not",
    "additionalProperties",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "uniqueItems",
    "description",
    "default",
    "examples",
    "prefixItems",
    "dependentRequired",
    "$id",
    "$anchor",
    "exclusiveMinimum",
    "readOnly",
    "x-custom",
    "nullable",
]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-2, 2, allow_nan=False),
    st.sampled_from(["string", "object", "int", "array", "#", "a"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from([*KEYWORDS, "a", "b"]), inner, max_size=3),
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYWORDS), values, max_size=5))
def test_never_accepts_what_the_meta_schema_rejects(schema: dict[str, Any]) -> None:
    if certainly_valid(schema):
        assert META.is_valid(schema), schema


def test_accepts_common_valid_schemas() -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["a"],
        "properties": {
            "a": {"type": "string", "enum": ["x", "y"], "description": "A."},
            "b": {"type": ["integer", "null"], "minimum": 0, "default": 1},
            "c": {"type": "array", "items": {"$ref": "#/$defs/C"}, "minItems": 1, "uniqueItems": True},
            "d": {"anyOf": [{"type": "string", "format": "date-time"}, {"const": 3}]},
        },
        "$defs": {"C": {"type": "object", "properties": {}, "x-extra": {"anything": [1]}}},
    }
    assert certainly_valid(schema)
    assert META.is_valid(schema)


def test_defers_on_invalid_or_unmodelled_keywords() -> None:
    assert not certainly_valid({"type": "object", "properties": {"n": {"exclusiveMinimum": True}}})
    assert not certainly_valid({"type": "str"})
    assert not certainly_valid({"$id": "x#y"})
    assert not certainly_valid({"required": ["a", "a"]})
