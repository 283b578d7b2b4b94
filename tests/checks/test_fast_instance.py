"""The fast check of defaults and examples against jsonschema itself (the oracle): it may leave a valid
value to jsonschema, but it must never call a value valid that jsonschema rejects."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from toolcast.adapters.schema.fast_instance import certainly_valid_instance

TYPES = ["string", "integer", "number", "boolean", "null", "object", "array"]
scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False) \
    | st.sampled_from([1.0, 0.0, 2.5, "", "a", "abc", "ab\U0001F600"])
values = scalars | st.lists(scalars, max_size=2) | st.dictionaries(st.sampled_from(["a", "b"]), scalars, max_size=2)
keyword = st.one_of(
    st.tuples(st.just("type"), st.sampled_from(TYPES) | st.lists(st.sampled_from(TYPES), min_size=1, max_size=3,
                                                                  unique=True)),
    st.tuples(st.just("enum"), st.lists(values, min_size=1, max_size=4)),
    st.tuples(st.just("const"), values),
    st.tuples(st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]),
              st.integers(-3, 3) | st.floats(-3, 3, allow_nan=False)),
    st.tuples(st.sampled_from(["minLength", "maxLength"]), st.integers(0, 4)),
    st.tuples(st.sampled_from(["format", "description", "title", "x-note"]), st.sampled_from(["email", "d"])),
    st.tuples(st.sampled_from(["pattern", "items", "properties", "$ref"]), st.just("a")),  # not modelled
)
schemas = st.lists(keyword, max_size=5).map(dict)


@settings(max_examples=1500, deadline=None)
@given(schema=schemas, value=values)
def test_never_valid_where_jsonschema_says_invalid(schema: dict[str, Any], value: Any) -> None:
    try:
        Draft202012Validator.check_schema(schema)
    except Exception:
        return  # the checks validate only schemas that pass the meta-schema
    if certainly_valid_instance(schema, value):
        assert Draft202012Validator(schema).is_valid(value), (schema, value)


@pytest.mark.parametrize("schema,value,fast", [
    ({"type": "string", "enum": ["a", "b"], "description": "d"}, "a", True),
    ({"type": "integer", "minimum": 0, "maximum": 10}, 5, True),
    ({"type": ["string", "null"], "maxLength": 3}, None, True),
    ({"type": "number", "exclusiveMinimum": 0}, 0, False),
    ({"type": "integer"}, 1.0, False),          # valid for jsonschema; left to it
    ({"enum": [1]}, True, False),               # True is not 1
    ({"type": "string", "pattern": "^a"}, "a", False),  # patterns are jsonschema's
    ({"type": "string", "minLength": 2}, "a", False),
    ({}, {"any": "thing"}, True),
    ({"type": "string", "minLength": 2, "maxLength": 2}, "ab", True),   # both bounds met exactly
    ({"type": "string", "maxLength": 2}, "abc", False),
    ({"minLength": 1}, 7, True),                # length bounds concern strings only
    ({"type": "integer", "minimum": 3, "maximum": 3}, 3, True),
    ({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}, 0.5, True),
    ({"type": "number", "exclusiveMaximum": 1}, 1, False),
    ({"type": "number", "maximum": 1}, 2, False),
    ({"maximum": 1}, "not a number", True),     # numeric bounds concern numbers only
    ({"type": "boolean", "const": False}, False, True),
    ({"const": "a"}, "b", False),
    ({"type": "null"}, None, True),
    ({"type": "array"}, [1, "x"], True),
    ({"type": "object", "title": "t", "x-note": "n", "format": "email"}, {}, True),
    ({"type": "integer"}, True, False),         # a boolean is not an integer
    ({"type": "number"}, False, False),
    ({"enum": ["a", 1, None]}, None, True),
    (True, {"a": 1}, True),                     # the boolean schemas
    (False, 1, False),
])
def test_what_it_answers(schema: Any, value: Any, fast: bool) -> None:
    assert certainly_valid_instance(schema, value) is fast
    if fast:
        assert Draft202012Validator(schema).is_valid(value)
