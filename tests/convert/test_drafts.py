"""A schema is read as the draft its `$schema` names and sent as 2020-12: draft-07's `dependencies` becomes
`dependentRequired`/`dependentSchemas`, and a root `$schema` naming the older draft is sent as 2020-12 once
its forms are rewritten (a draft-07 validator would ignore `prefixItems` and `dependentRequired`)."""

from __future__ import annotations

from typing import Any

import pytest
import toolcast

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
PROPS = {"a": {"type": "string"}, "b": {"type": "string"}}


def _sent(parameters: dict[str, Any], target: str = "mcp") -> tuple[dict[str, Any], dict[str, str]]:
    adapted = toolcast.adapt({"name": "t", "description": "d", "parameters": parameters}, target)
    schema = adapted.output["inputSchema"] if target == "mcp" else adapted.output["input_schema"]
    return schema, {x.pointer: x.message for x in adapted.losses}


@pytest.mark.parametrize("target", ["mcp", "anthropic"])
def test_draft_07_dependencies_are_split_and_the_draft_declared_is_2020_12(target: str) -> None:
    schema, losses = _sent({"$schema": DRAFT_07, "type": "object", "properties": PROPS,
                            "dependencies": {"a": ["b"], "b": {"required": ["a"]}}}, target)
    assert "dependencies" not in schema
    assert schema["dependentRequired"] == {"a": ["b"]} and schema["dependentSchemas"] == {"b": {"required": ["a"]}}
    assert schema["$schema"] == DRAFT_2020_12
    assert "rewritten as `dependentRequired`/`dependentSchemas`" in losses["/parameters/dependencies"]
    assert "sent as 2020-12" in losses["/parameters/$schema"]


def test_a_draft_07_tuple_is_sent_under_a_2020_12_declaration() -> None:
    schema, losses = _sent({"$schema": DRAFT_07, "type": "object",
                            "properties": {"pair": {"type": "array", "items": [{"type": "string"}]}}})
    assert schema["properties"]["pair"] == {"type": "array", "prefixItems": [{"type": "string"}]}
    assert schema["$schema"] == DRAFT_2020_12 and "/parameters/$schema" in losses


@pytest.mark.parametrize(("dependencies", "beside"), [
    ({"a": ["b"]}, {"dependentRequired": {"a": []}}),
    ({"a": {"required": ["b"]}}, {"dependentSchemas": {"a": {}}}),
])
def test_dependencies_that_disagree_with_the_newer_keywords_stay(dependencies: dict[str, Any],
                                                                  beside: dict[str, Any]) -> None:
    """A name the node already gives in `dependentRequired` or `dependentSchemas` (two drafts disagreeing) is
    left as written: which one the author meant is not toolcast's to choose."""
    schema, losses = _sent({"type": "object", "properties": PROPS, "dependencies": dependencies, **beside})
    assert schema["dependencies"] == dependencies and "/parameters/dependencies" not in losses


def test_a_2020_12_schema_keeps_its_declaration_and_gets_none_added() -> None:
    schema, losses = _sent({"type": "object", "properties": PROPS, "dependentRequired": {"a": ["b"]}})
    assert "$schema" not in schema and not losses
    schema, losses = _sent({"$schema": DRAFT_07, "type": "object", "properties": PROPS})
    assert schema["$schema"] == DRAFT_07 and not losses  # nothing rewritten: the declaration still fits
