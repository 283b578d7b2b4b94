"""examples/mcp_to_providers.py runs as a user runs it: the official MCP client lists the tools of a real stdio
server (examples/weather_server.py), toolcast adapts them for Gemini and Anthropic, and the recorded responses'
tool calls come back with the MCP tool's own name and reach the server. The adapted tools are validated with
the providers' SDK types, and the recorded responses with the SDKs' response types. No provider is called."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "convert"))
from sdk import VALIDATORS, check_documented_rules

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(EXAMPLES / "mcp_to_providers.py"), *args], capture_output=True,
                          text=True, timeout=120, cwd=EXAMPLES.parent)


@pytest.fixture(scope="module")
def summary() -> dict[str, Any]:
    done = run("--json")
    assert done.returncode == 0, done.stderr
    value: dict[str, Any] = json.loads(done.stdout)
    return value


def test_the_servers_tools_are_listed_by_the_mcp_client(summary: dict[str, Any]) -> None:
    assert summary["tools"] == ["weather.forecast", "list_cities"]


def test_the_gemini_tools_are_what_the_genai_sdk_takes(summary: dict[str, Any]) -> None:
    from google.genai import types

    gemini = summary["adapted"]["gemini"]
    tool = types.Tool.model_validate(gemini[0])  # extra="forbid" at every level
    assert tool.function_declarations is not None
    assert [d.name for d in tool.function_declarations] == ["weather.forecast", "list_cities"]
    for declaration in gemini[0]["functionDeclarations"]:
        VALIDATORS["gemini"](declaration)
        check_documented_rules("gemini", False, declaration)
    days = tool.function_declarations[0].parameters.properties["days"]  # type: ignore[union-attr,index]
    assert (days.type, days.nullable, days.minimum, days.maximum) == (types.Type.INTEGER, True, 1, 7)


def test_the_anthropic_tools_are_what_the_anthropic_sdk_takes(summary: dict[str, Any]) -> None:
    anthropic = summary["adapted"]["anthropic"]
    for tool in anthropic:
        VALIDATORS["anthropic"](tool)
        check_documented_rules("anthropic", False, tool)
    assert [t["name"] for t in anthropic] == ["weather_forecast", "list_cities"]  # Anthropic's name rule
    assert {(x["tool"], x["keyword"]) for x in summary["losses"]["anthropic"]} >= {("weather.forecast", "name")}


def test_the_recorded_responses_are_in_the_providers_shapes() -> None:
    from anthropic.types import Message
    from google.genai import types

    message = Message.model_validate_json((EXAMPLES / "recorded" / "anthropic.message.json").read_text())
    assert message.stop_reason == "tool_use" and message.content[1].type == "tool_use"
    response = types.GenerateContentResponse.model_validate_json(
        (EXAMPLES / "recorded" / "gemini.generate_content.json").read_text())
    assert response.function_calls and response.function_calls[0].name == "weather.forecast"


def test_each_recorded_call_is_mapped_back_validated_and_run_by_the_server(summary: dict[str, Any]) -> None:
    calls = {c["source"]: c for c in summary["calls"]}
    anthropic, gemini = calls["anthropic"], calls["gemini"]
    assert anthropic["sent"]["name"] == "weather_forecast"  # as Anthropic was told the tool's name
    assert (anthropic["id"], anthropic["name"], anthropic["arguments"], anthropic["problems"]) == (
        "toolu_01A09q90qw90lq917835lq9", "weather.forecast", {"city": "Paris", "days": 3, "unit": "celsius"}, [])
    assert (gemini["name"], gemini["arguments"], gemini["problems"]) == (
        "weather.forecast", {"city": "Lyon", "unit": "fahrenheit"}, [])
    assert anthropic["result"] == "Paris: sunny for the next 3 day(s), 21 degrees celsius"
    assert gemini["result"] == "Lyon: sunny for the next 1 day(s), 21 degrees fahrenheit"


def test_the_text_report_names_each_step() -> None:
    done = run()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "MCP server tools: weather.forecast, list_cities"
    assert ("  weather.forecast /name: name `weather.forecast` is not valid for anthropic; sent as `weather_forecast` "
            "(mapped back by toolcast)") in lines
    assert "  server: Paris: sunny for the next 3 day(s), 21 degrees celsius" in lines
