"""The output judge (adapters/convert/accept.py) answers for any JSON it is given, never raising: the checks
run it on what the walker makes of text being typed, where `required` can hold an object and `type` a list
of anything (a `required` entry that was a dict raised TypeError in a check of an edited file)."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from toolcast.adapters.convert.accept import first_violation, root_problem, schema_violation
from toolcast.adapters.targets import TARGETS

KEYS = st.sampled_from(["type", "properties", "required", "items", "enum", "anyOf", "$ref", "$defs",
                        "additionalProperties", "format", "nullable", "prefixItems", "description", "x"])
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5)
                    | st.sampled_from(["object", "array", "string", "OBJECT", "#/$defs/a"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS | st.text(max_size=3), inner,
                                                                                 max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(schema=JSON, strict=st.booleans())
@example(schema={"type": "OBJECT", "properties": {"a": {"type": "STRING"}}, "required": [{"a": 1}]}, strict=False)
@example(schema={"type": "object", "properties": {"a": {}}, "required": [["a"]], "items": {"required": [{}]}},
         strict=True)
def test_the_judge_answers_for_any_schema(schema: Any, strict: bool) -> None:
    root_problem(schema)
    for target in TARGETS:
        found = schema_violation(target, strict, schema)
        assert found is None or found.message
        first_violation(target, {"name": "t", "description": "d", "parameters": schema, "input_schema": schema,
                                 "inputSchema": schema, "function": {"name": "t", "parameters": schema}})
