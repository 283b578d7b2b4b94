"""Reading a tool keeps what its shape means: every field name the named shape uses, JSON Schema keywords
as keywords, and Gemini declarations that only need a name."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from toolcast.adapters.convert import convert
from toolcast.adapters.loading import detect_shape, load_tools

from ..convert.sdk import schema_of

#: The google-genai Python SDK spells Gemini's JSON Schema field `parameters_json_schema`.
SNAKE = {
    "name": "get_weather",
    "description": "Current weather.",
    "parameters_json_schema": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
        "additionalProperties": False,
    },
}


@pytest.mark.parametrize("field", ["parameters_json_schema", "parametersJsonSchema"])
@pytest.mark.parametrize("named", ["gemini", "gemini-json"])
def test_from_gemini_reads_the_json_schema_field_of_the_declaration(field: str, named: str) -> None:
    doc = {k: v for k, v in SNAKE.items() if k != "parameters_json_schema"} | {field: SNAKE["parameters_json_schema"]}
    (lt,) = load_tools(doc, named)
    assert lt.tool.parameters == SNAKE["parameters_json_schema"]
    assert "unknown" not in lt.tool.source_meta  # the schema is not dropped as an unknown field
    out = convert(lt.tool, "openai")
    schema = schema_of("openai", out.output)
    assert not jsonschema.Draft202012Validator(schema).is_valid({})  # `city` is still required
    assert not any(loss.keyword == field for loss in out.losses)


def test_from_gemini_json_reads_an_openapi_parameters_declaration_as_gemini() -> None:
    (lt,) = load_tools({"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}},
                       "gemini-json")
    assert lt.shape == "gemini"
    assert lt.tool.parameters["properties"] == {"a": {"type": "string"}}


@pytest.mark.parametrize("keyword,value", [
    ("additionalProperties", {"type": "string"}),
    ("items", {"type": "string"}),
    ("propertyNames", {"type": "string", "pattern": "^[a-z]+$"}),
    ("not", {"type": "object", "required": ["x"]}),
])
def test_a_json_schema_keyword_is_never_read_as_a_legacy_parameter(keyword: str, value: Any) -> None:
    doc = {"name": "t", "parameters": {keyword: value}}
    assert detect_shape(doc) == "canonical"
    (lt,) = load_tools(doc)
    assert lt.tool.parameters == {keyword: value}
    for target in ("anthropic", "gemini-json", "mcp"):
        schema = schema_of(target, convert(lt.tool, target).output)
        assert keyword not in (schema.get("properties") or {})


def test_additional_properties_map_keeps_its_meaning_for_anthropic() -> None:
    """The issue's case: the map of strings stays a map, never a property named `additionalProperties`."""
    (lt,) = load_tools({"name": "t", "parameters": {"additionalProperties": {"type": "string"}}})
    schema = schema_of("anthropic", convert(lt.tool, "anthropic").output)
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"a": "x"}) and not validator.is_valid({"a": 1})


def test_a_legacy_map_with_a_parameter_named_like_a_keyword_is_still_legacy() -> None:
    """`required: true` inside is the legacy map's own marker: `items` is then a parameter."""
    doc = {"name": "t", "parameters": {"items": {"type": "array", "required": True}, "n": {"type": "integer"}}}
    assert detect_shape(doc) == "legacy"
    (lt,) = load_tools(doc)
    assert lt.tool.parameters["required"] == ["items"]


#: google-gemini/cookbook, Live API function calling (`get_weather_vegas` with only a behavior): Gemini's
#: `parameters` and `description` are optional in a FunctionDeclaration.
NAME_ONLY = {"name": "get_weather_vegas", "behavior": "UNSPECIFIED"}


def test_a_name_only_gemini_declaration_is_a_tool() -> None:
    assert detect_shape(NAME_ONLY) == "gemini"
    (lt,) = load_tools(NAME_ONLY)
    assert lt.tool.name == "get_weather_vegas" and lt.tool.source_meta["behavior"] == "UNSPECIFIED"
    assert convert(lt.tool, "gemini").output == NAME_ONLY
    for target in ("openai", "anthropic", "bedrock"):
        conv = convert(lt.tool, target)
        assert conv.ok and not [loss for loss in conv.losses if loss.effect.value == "narrowing"]


def test_a_name_only_gemini_declaration_loads_inside_a_file_of_tools() -> None:
    doc = [{"name": "a", "description": "d", "parameters": {"type": "object"}}, NAME_ONLY]
    assert [lt.tool.name for lt in load_tools(doc)] == ["a", "get_weather_vegas"]
