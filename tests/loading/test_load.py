"""Loading every input shape into canonical tools, and finding tools in any JSON without raising."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toolcast.adapters.errors import ConversionError
from toolcast.adapters.loading import detect_shape, iter_tool_objects, load_tools, to_canonical

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _load(name: str) -> list:  # type: ignore[type-arg]
    return load_tools(json.loads((FIXTURES / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    "name,shapes,pointers",
    [
        ("kitchen_sink.tool.json", ["canonical"], [""]),
        ("openai_list.json", ["openai", "openai"], ["/0", "/1"]),
        ("responses.json", ["openai-responses"], [""]),
        ("anthropic.json", ["anthropic"], ["/tools/0"]),
        ("gemini.json", ["gemini", "gemini"], ["/0/functionDeclarations/0", "/0/functionDeclarations/1"]),
        ("gemini_json.json", ["gemini-json"], ["/functionDeclarations/0"]),
        ("mcp.json", ["mcp"], ["/tools/0"]),
        ("bedrock.json", ["bedrock"], ["/toolConfig/tools/0"]),
        ("legacy.tool.json", ["legacy"], [""]),
    ],
)
def test_every_fixture_shape_is_detected_and_loaded(name: str, shapes: list[str], pointers: list[str]) -> None:
    loaded = _load(name)
    assert [lt.shape for lt in loaded] == shapes
    assert [lt.pointer for lt in loaded] == pointers
    assert all(lt.tool.parameters.get("type") == "object" for lt in loaded)


def test_provider_fields_become_canonical_fields() -> None:
    (mcp,) = _load("mcp.json")
    assert mcp.tool.title == "List tools" and mcp.tool.annotations == {"readOnlyHint": True}
    assert mcp.tool.returns is not None and mcp.tool.source_meta == {"_meta": {"owner": "ops"}}
    (ant,) = _load("anthropic.json")
    assert ant.tool.examples == ({"ticker": "ACME"},)
    first = _load("openai_list.json")[0]
    assert first.tool.overrides == {"openai": {"strict": True}}


def test_gemini_types_and_nullable_become_json_schema() -> None:
    light, ping = _load("gemini.json")
    assert light.tool.parameters["properties"]["level"] == {"type": ["integer", "null"], "minimum": 0, "maximum": 100}
    assert ping.tool.parameters == {"type": "object", "properties": {}}


def test_legacy_map_becomes_json_schema_and_points_back() -> None:
    (legacy,) = _load("legacy.tool.json")
    assert legacy.tool.parameters == {
        "type": "object",
        "properties": {"file_path": {"type": "string", "description": "Path"}, "limit": {"type": "integer"}},
        "required": ["file_path"],
    }
    assert legacy.doc_pointer("/parameters/properties/limit/type") == "/parameters/limit/type"
    assert legacy.doc_pointer("/parameters/required") == "/parameters"


def test_doc_pointer_maps_through_provider_envelopes() -> None:
    (bedrock,) = _load("bedrock.json")
    expected = "/toolConfig/tools/0/toolSpec/inputSchema/json/properties/sign"
    assert bedrock.doc_pointer("/parameters/properties/sign") == expected
    assert bedrock.doc_pointer("/name") == "/toolConfig/tools/0/toolSpec/name"
    assert bedrock.doc_pointer("/title") == "/toolConfig/tools/0"


@pytest.mark.parametrize(
    "value,message",
    [
        ({"foo": 1}, "not a recognised tool shape"),
        ([{"name": "ok", "parameters": {"type": "object"}}, 7], "expected a tool object"),
        ({"type": "function", "function": {"parameters": {}}}, "no `name`"),
        ({"name": "x", "parameters": []}, "parameters must be a JSON object"),
        ([], "no tool found"),
    ],
)
def test_bad_shapes_raise_a_conversion_error_naming_adapter_and_direction(value: object, message: str) -> None:
    with pytest.raises(ConversionError) as info:
        load_tools(value)
    assert message in str(info.value) and info.value.direction == "to_canonical"


def test_from_overrides_detection_and_unknown_shape_is_an_error() -> None:
    obj = {"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}}
    assert load_tools(obj, "mistral")[0].shape == "mistral"
    with pytest.raises(ConversionError):
        load_tools(obj, "nope")
    with pytest.raises(ConversionError):
        to_canonical({"name": "a"}, "bedrock")


def test_detect_shape_examples() -> None:
    assert detect_shape({"name": "a", "description": "b"}) == "canonical"
    assert detect_shape({"name": "a", "parameters": {"type": "OBJECT"}}) == "gemini"
    assert detect_shape({"name": "a"}) is None
    assert detect_shape([1]) is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(
        st.sampled_from(["name", "tools", "parameters", "type", "function", "toolSpec", "functionDeclarations",
                         "inputSchema", "x"]), c, max_size=4),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_iter_tool_objects_never_raises_and_load_tools_raises_only_conversion_errors(value: object) -> None:
    for obj in iter_tool_objects(value):
        assert obj.pointer == "" or obj.pointer.startswith("/")
    with contextlib.suppress(ConversionError):
        load_tools(value)
