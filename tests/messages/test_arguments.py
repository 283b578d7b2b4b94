"""Tool calls mapped back to the canonical tool (adapters/messages/arguments.py): the original name, nulls
strict mode asked for taken out where the round-trip record says so (and only there), then validation
against the original parameters, never fetching anything."""

from __future__ import annotations

import json

from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.checks import check_document
from toolcast.adapters.convert import convert
from toolcast.adapters.messages.arguments import argument_errors, to_canonical_call
from toolcast.adapters.messages.conversation import ToolCall

NESTED = CanonicalTool("weather.get", "d", {"type": "object", "properties": {
    "a": {"type": "object", "properties": {"b": {"type": "string"}, "c": {"type": "integer"}}, "required": ["c"]},
    "u": {"type": "string"},
    "k": {"anyOf": [{"type": "object", "properties": {"z": {"type": "string"}}}]},
}, "required": ["a"]})
OTHER = CanonicalTool("other", "d", {"type": "object", "properties": {"x": {"type": "string"}}})


def test_nulls_for_optional_properties_are_dropped_at_every_depth_but_not_inside_combinators() -> None:
    tools = (OTHER, NESTED)
    convs = tuple(convert(t, "openai") for t in tools)
    sent = ToolCall("1", "weather_get", {"a": {"b": None, "c": None}, "u": None, "k": {"z": None}})
    call, tool = to_canonical_call(sent, tools, convs)
    assert tool is NESTED and call.name == "weather.get" and call.id == "1"
    # `a.c` is required in the original: its null is the model's answer, kept (and then an error).
    # `k.z` is inside `anyOf`: the schema-directed mapping follows the branch the value matches.
    assert call.arguments == {"a": {"c": None}, "k": {}}
    assert argument_errors(NESTED, call.arguments) == [("/a/c", "None is not of type 'integer'")]


def test_values_that_are_not_null_are_kept() -> None:
    convs = (convert(NESTED, "openai"),)
    call, _ = to_canonical_call(ToolCall("1", "weather_get", {"a": {"b": "", "c": 0}, "u": "x"}), (NESTED,), convs)
    assert call.arguments == {"a": {"b": "", "c": 0}, "u": "x"}


def test_the_original_name_and_the_wire_name_both_match_and_other_tools_are_skipped() -> None:
    for target in ("openai", "anthropic", "gemini", "openai-responses", "mistral"):
        convs = (convert(OTHER, target), convert(NESTED, target))
        out = convs[1].output
        wire = out["function"]["name"] if "function" in out else out["name"]
        assert wire in ("weather_get", "weather.get")  # sanitised where the provider's pattern has no dot
        for name in (wire, "weather.get"):
            call, tool = to_canonical_call(ToolCall("c", name, {"a": {"c": 1}}), (OTHER, NESTED), convs)
            assert tool is NESTED and call.name == "weather.get", (target, name)
        call, tool = to_canonical_call(ToolCall("c", "other", {"x": "y"}), (OTHER, NESTED), convs)
        assert tool is OTHER and call.arguments == {"x": "y"}
    unknown, none = to_canonical_call(ToolCall("c", "nope", {"a": None}), (OTHER,), (convert(OTHER, "openai"),))
    assert none is None and unknown == ToolCall("c", "nope", {"a": None})


def test_argument_errors_are_sorted_by_place_with_pointers() -> None:
    assert argument_errors(NESTED, {"u": 3, "a": {"c": "x", "b": 1}}) == [
        ("/a/b", "1 is not of type 'string'"), ("/a/c", "'x' is not of type 'integer'"),
        ("/u", "3 is not of type 'string'")]
    assert argument_errors(NESTED, {"a": {"c": 1}}) == []
    assert argument_errors(NESTED, {}) == [("", "'a' is a required property")]


def test_references_resolve_inside_the_schema_and_nothing_is_fetched() -> None:
    local = CanonicalTool("x", None, {"type": "object", "properties": {"a": {"$ref": "#/$defs/S"}},
                                      "$defs": {"S": {"type": "string"}}})
    assert argument_errors(local, {"a": "ok"}) == []
    assert argument_errors(local, {"a": 1}) == [("/a", "1 is not of type 'string'")]
    for ref in ("#/$defs/nope", "http://127.0.0.1:9/x.json"):
        tool = CanonicalTool("x", None, {"type": "object", "properties": {"a": {"$ref": ref}}})
        (error,) = argument_errors(tool, {"a": 1})
        assert error[0] == "" and error[1].startswith("the schema cannot be applied: ")


# -- found by mutation testing (scripts/mutation.py arguments) -----------------------------------------

def test_a_property_named_properties_and_values_that_are_not_objects() -> None:
    tool = CanonicalTool("t", None, {"type": "object", "properties": {
        "properties": {"type": "object", "properties": {"x": {"type": "string"}}},
        "o": {"type": "object", "properties": {"y": {"type": "string"}}},
        "d": {"type": "object", "properties": {"e": {"type": "object", "properties": {"f": {"type": "string"}}}}}}})
    convs = (convert(tool, "openai"),)
    assert "/parameters/properties/properties/properties/x" in convs[0].roundtrip["optional"]
    call, _ = to_canonical_call(ToolCall("1", "t", {"properties": {"x": None}, "o": None}), (tool,), convs)
    assert call.arguments == {"properties": {}}  # both nulls meant "absent"
    for sent in ("text", None, [1], 3):  # not an object where one was expected: left as sent, no crash
        call, _ = to_canonical_call(ToolCall("1", "t", {"o": sent}), (tool,), convs)
        assert call.arguments == ({"o": sent} if sent is not None else {})
        call, _ = to_canonical_call(ToolCall("1", "t", {"d": {"e": sent}}), (tool,), convs)  # two levels down
        assert call.arguments == ({"d": {"e": sent}} if sent is not None else {"d": {}})
        call, _ = to_canonical_call(ToolCall("1", "t", {"d": sent}), (tool,), convs)
        assert call.arguments == ({"d": sent} if sent is not None else {})


def test_tools_and_conversions_must_pair_up() -> None:
    import pytest

    with pytest.raises(ValueError):
        to_canonical_call(ToolCall("1", "nope", {}), (OTHER, NESTED), (convert(OTHER, "openai"),))


def test_the_retriever_refuses_every_uri() -> None:
    import pytest
    import referencing.exceptions
    from toolcast.adapters.schema import bounded

    with pytest.raises(referencing.exceptions.NoSuchResource) as err:
        bounded._no_retrieval("http://127.0.0.1:9/x.json")
    assert err.value.ref == "http://127.0.0.1:9/x.json"
    tool = CanonicalTool("x", None, {"type": "object", "properties": {"a": {"$ref": "http://127.0.0.1:9/x.json"}}})
    ((pointer, message),) = argument_errors(tool, {"a": 1})
    name = message.removeprefix("the schema cannot be applied: ")
    assert pointer == "" and name != message and name.endswith("Error") and name != "NoneType"


def test_a_misspelt_type_is_a_finding_not_a_crash() -> None:
    """`"type": "strin"` in a request file's tool made the check raise jsonschema's UnknownType: the CLI
    printed a traceback and the editor got no diagnostics for the file."""
    tool = CanonicalTool("get_weather", "d", {"type": "object", "properties": {"city": {"type": "strin"}}})
    assert argument_errors(tool, {"city": "Paris"}) == [
        ("", "the schema cannot be applied: 'strin' is not a JSON Schema type")]
    request = {"model": "gpt-4o", "tools": [{"name": "get_weather", "parameters": tool.parameters}],
               "messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": [
                   {"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}]}]}
    codes = {f.code for f in check_document(json.dumps(request), path="w.request.json").findings}
    assert {"TC110", "TC805"} <= codes


def test_a_pattern_that_is_not_a_regular_expression_is_a_problem_not_a_crash() -> None:
    """`"pattern": "("` in a tool made mapping a call back raise the regular expression's error: `toolcast
    response --tools` printed a traceback and the library's map_call_back raised."""
    tool = CanonicalTool("lookup", "d", {"type": "object", "properties": {"code": {"type": "string", "pattern": "("}}})
    ((pointer, message),) = argument_errors(tool, {"code": "x"})
    assert pointer == "" and message.startswith("the schema cannot be applied: a pattern is not a regular expression")
