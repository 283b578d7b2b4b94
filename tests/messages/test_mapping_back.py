"""``toolcast response --tools``: tool calls from a provider's response (built with its SDK types) come back
as the canonical tool expects them — original name, strict mode's nulls taken out at every depth — and
are validated against the canonical parameters."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from toolcast.adapters.messages import from_wire, map_calls, tool_set

EXE = Path(sys.executable).parent / "toolcast"
TOOL = {"name": "weather.get", "description": "Weather.", "parameters": {
    "type": "object", "required": ["city"], "properties": {
        "city": {"type": "string"},
        "unit": {"type": "string", "enum": ["c", "f"]},
        "options": {"type": "object", "properties": {"detail": {"type": "boolean"}}},
        "days": {"type": "array", "items": {"type": "object", "required": ["date"], "properties": {
            "date": {"type": "string"}, "note": {"type": "string"}}}}}}}
SENT = {"city": "Paris", "unit": None, "options": {"detail": None},
        "days": [{"date": "d1", "note": None}, {"date": "d2", "note": "rain"}]}
WANT = {"city": "Paris", "options": {}, "days": [{"date": "d1"}, {"date": "d2", "note": "rain"}]}


def _chat(*calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    from openai.types.chat import ChatCompletion

    completion = ChatCompletion.model_validate({
        "id": "c1", "object": "chat.completion", "created": 0, "model": "gpt-5",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                for i, (name, args) in enumerate(calls)]}}]})
    return json.loads(completion.model_dump_json())


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=60)


def test_library_maps_names_and_nulls_back_at_every_depth() -> None:
    tools = tool_set([TOOL], "openai")
    assert tools.conversions[0].output["function"]["name"] == "weather_get"  # what OpenAI was sent
    response, problems = map_calls(from_wire(_chat(("weather_get", SENT)), "openai"), tools)
    call = response.content[0]
    assert call.name == "weather.get" and call.arguments == WANT and problems == []  # type: ignore[union-attr]


def test_cli_with_a_canonical_tools_file_and_with_the_export(tmp_path: Path) -> None:
    response = tmp_path / "response.json"
    response.write_text(json.dumps(_chat(("weather_get", SENT), ("weather_get", {**SENT, "city": 5}))),
                        encoding="utf-8")
    canonical = tmp_path / "weather.tool.json"
    canonical.write_text(json.dumps(TOOL), encoding="utf-8")
    export = tmp_path / "weather.openai.json"
    exported = _run("convert", str(canonical), "--to", "openai", "--format", "json")
    assert exported.returncode == 0, exported.stderr
    export.write_text(exported.stdout, encoding="utf-8")
    assert json.loads(exported.stdout)["roundtrip"]["optional"]  # strict mode recorded what it made required
    for tools in (canonical, export):
        run = _run("response", str(response), "--from", "openai", "--tools", str(tools))
        assert run.returncode == 1, run.stderr  # the second call does not validate
        calls = json.loads(run.stdout)["content"]
        assert [(c["name"], c["arguments"]) for c in calls] == [("weather.get", WANT),
                                                                 ("weather.get", {**WANT, "city": 5})]
        assert "tool call 'call_1' (weather.get): /city: 5 is not of type 'string'" in run.stderr
    plain = _run("response", str(response), "--from", "openai")
    assert json.loads(plain.stdout)["content"][0]["arguments"] == SENT  # without --tools: as sent


def test_unknown_tool_is_reported() -> None:
    _response, problems = map_calls(from_wire(_chat(("nope", {})), "openai"), tool_set([TOOL], "openai"))
    assert [p.message for p in problems] == ["calls 'nope', which the tools file does not define"]


def test_an_exported_strict_tool_reads_back_as_the_original() -> None:
    from toolcast.adapters.convert import convert
    from toolcast.adapters.loading import load_tools

    example = Path(__file__).parents[2] / "examples" / "get_weather.tool.json"
    original = load_tools(json.loads(example.read_text(encoding="utf-8")))[0].tool
    conv = convert(original, "openai")
    units = conv.output["function"]["parameters"]["properties"]["units"]["anyOf"][0]  # required and nullable
    assert "default" not in units and "celsius" in units["description"]  # folded for strict mode
    tools = tool_set({"output": conv.output, "losses": [], "roundtrip": conv.roundtrip}, "openai")
    assert tools.tools[0].parameters == original.parameters  # optional again, default back, no null
