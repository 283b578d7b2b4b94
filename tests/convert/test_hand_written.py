"""Expected outputs typed out by hand from each provider's documentation (not produced by toolcast and
pasted back): an independent oracle for the envelopes and the plain-schema path of every target.

The tool is the documentation's own weather example, with every property required so that strict modes
need no rewriting; the field names and nesting come from the pages cited above each expectation."""

from __future__ import annotations

from typing import Any

import pytest
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import convert
from toolcast.adapters.targets import TargetOptions

NAME = "get_weather"
DESCRIPTION = "Get the current weather in a given location"
LOCATION = {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}
UNIT = {"type": "string", "enum": ["celsius", "fahrenheit"]}
TOOL = CanonicalTool(NAME, DESCRIPTION, {"type": "object", "properties": {"location": LOCATION, "unit": UNIT},
                                         "required": ["location", "unit"]})

EXPECTED: dict[tuple[str, bool | None], dict[str, Any]] = {
    # OpenAI Chat Completions, function calling with Structured Outputs:
    # https://platform.openai.com/docs/guides/function-calling ("strict": true inside "function";
    # "additionalProperties": false and every property in "required").
    ("openai", True): {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather in a given location",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                },
                "required": ["location", "unit"],
                "additionalProperties": False,
            },
            "strict": True,
        },
    },
    # OpenAI Responses API, function tools are flat (no "function" wrapper):
    # https://platform.openai.com/docs/api-reference/responses/create (tools → Function: type, name,
    # description, parameters, strict).
    ("openai-responses", True): {
        "type": "function",
        "name": "get_weather",
        "description": "Get the current weather in a given location",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location", "unit"],
            "additionalProperties": False,
        },
        "strict": True,
    },
    # Anthropic Messages API, client tools: name, description, input_schema:
    # https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
    ("anthropic", False): {
        "name": "get_weather",
        "description": "Get the current weather in a given location",
        "input_schema": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location", "unit"],
        },
    },
    # Gemini API, FunctionDeclaration with `parameters` (the OpenAPI subset; Type enum values are upper
    # case): https://ai.google.dev/api/caching#FunctionDeclaration and https://ai.google.dev/api/caching#Type
    ("gemini", None): {
        "name": "get_weather",
        "description": "Get the current weather in a given location",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "location": {"type": "STRING", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "STRING", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location", "unit"],
        },
    },
    # Gemini API, FunctionDeclaration with `parametersJsonSchema` (plain JSON Schema):
    # https://ai.google.dev/api/caching#FunctionDeclaration
    ("gemini-json", None): {
        "name": "get_weather",
        "description": "Get the current weather in a given location",
        "parametersJsonSchema": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location", "unit"],
        },
    },
    # Mistral chat completions, tools: {"type": "function", "function": {name, description, parameters}}:
    # https://docs.mistral.ai/capabilities/function_calling/
    ("mistral", False): {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather in a given location",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                },
                "required": ["location", "unit"],
            },
        },
    },
    # Model Context Protocol, Tool: name, description, inputSchema:
    # https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool
    ("mcp", None): {
        "name": "get_weather",
        "description": "Get the current weather in a given location",
        "inputSchema": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location", "unit"],
        },
    },
    # Amazon Bedrock Converse API, Tool → ToolSpecification {name, description, inputSchema: {json}}:
    # https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html
    ("bedrock", False): {
        "toolSpec": {
            "name": "get_weather",
            "description": "Get the current weather in a given location",
            "inputSchema": {
                "json": {
                    "type": "object",
                    "properties": {
                        "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    },
                    "required": ["location", "unit"],
                },
            },
        },
    },
}


@pytest.mark.parametrize("target,strict", list(EXPECTED), ids=[f"{t}-{s}" for t, s in EXPECTED])
def test_documented_shape(target: str, strict: bool | None) -> None:
    conv = convert(TOOL, target, TargetOptions(strict=strict))
    assert conv.ok
    # Only strict mode's closure is reported (additionalProperties: false, which the docs require).
    assert [(loss.pointer, loss.keyword) for loss in conv.losses] in (
        [], [("/parameters/additionalProperties", "additionalProperties")])
    assert conv.output == EXPECTED[(target, strict)]


def test_openai_strict_optional_property_allows_null() -> None:
    """https://platform.openai.com/docs/guides/structured-outputs#all-fields-must-be-required: an optional
    field is required and accepts null ("type": ["string", "null"] in the docs' example; an `anyOf` with a
    null branch says the same)."""
    tool = CanonicalTool(NAME, DESCRIPTION, {"type": "object", "properties": {"location": LOCATION, "unit": UNIT},
                                             "required": ["location"]})
    params = convert(tool, "openai", TargetOptions(strict=True)).output["function"]["parameters"]
    assert params["required"] == ["location", "unit"] and params["additionalProperties"] is False
    unit = params["properties"]["unit"]
    assert unit in ({"type": ["string", "null"], "enum": ["celsius", "fahrenheit", None]},
                    {"anyOf": [{"type": "string", "enum": ["celsius", "fahrenheit"]}, {"type": "null"}]})
