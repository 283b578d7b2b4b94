"""``--model``, the one output-limit policy for thinking budgets, and the providers' history rules
(TC806–TC808), with what toolcast sends validated by the providers' SDK request types."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from pydantic import TypeAdapter
from toolcast.adapters.checks import check_document
from toolcast.adapters.messages import history_problems, request_from_json, to_wire

EXE = Path(sys.executable).parent / "toolcast"
EXAMPLE = Path(__file__).parents[2] / "examples" / "weather.request.json"
TOOL = {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=60)


def _typed_dict(cls: Any, value: dict[str, Any]) -> None:
    TypeAdapter(cls).validate_python(value)
    assert set(value) <= set(get_type_hints(cls)), set(value) - set(get_type_hints(cls))


def validate(target: str, body: dict[str, Any]) -> None:
    """``body`` as the target's SDK types take a request."""
    if target == "anthropic":
        from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

        _typed_dict(MessageCreateParamsNonStreaming, body)
    elif target == "openai":
        from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

        _typed_dict(CompletionCreateParamsNonStreaming, body)
    elif target == "openai-responses":
        from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

        _typed_dict(ResponseCreateParamsNonStreaming, body)
    elif target == "gemini":
        from google.genai import types as g

        for content in body["contents"]:
            g.Content.model_validate(content)
        g.GenerationConfig.model_validate(body.get("generationConfig", {}))
        for tool in body.get("tools", []):
            g.Tool.model_validate(tool)
    else:
        from mistralai.client import models as m

        m.ChatCompletionRequest.model_validate(body)


@pytest.mark.parametrize("target", ["anthropic", "openai", "openai-responses", "gemini", "mistral"])
def test_the_example_converts_for_every_provider(target: str) -> None:
    run = _run("request", str(EXAMPLE), "--to", target)
    assert run.returncode == 0, run.stderr
    body = json.loads(run.stdout)
    validate(target, body)
    if target == "anthropic":
        assert body["model"] == "claude-sonnet-4-5" and "/model" not in run.stderr
    else:  # another provider's model: the target's default, said on stderr
        assert body["model"] != "claude-sonnet-4-5" and "/model:" in run.stderr and "--model" in run.stderr


def test_model_option_drives_the_thinking_configuration(tmp_path: Path) -> None:
    run = _run("request", str(EXAMPLE), "--to", "gemini", "--model", "gemini-2.5-pro")
    assert run.returncode == 0, run.stderr
    body = json.loads(run.stdout)
    assert body["model"] == "gemini-2.5-pro" and "/model" not in run.stderr
    assert body["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 11008, "includeThoughts": True}
    run = _run("request", str(EXAMPLE), "--to", "gemini", "--model", "gemini-3-pro-preview")
    assert run.returncode == 2 and "TC808" in run.stderr  # its tool call has no Gemini 3 signature to send back
    modelless = tmp_path / "m.request.json"
    value = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    del value["model"]
    modelless.write_text(json.dumps(value), encoding="utf-8")
    run = _run("request", str(modelless), "--to", "openai", "--model", "o3")
    assert run.returncode == 0 and json.loads(run.stdout)["model"] == "o3"


# One policy: where thinking counts inside the output limit and the budget does not fit below it, the
# limit becomes budget + limit, reported at /max_output_tokens; providers that take an effort keep it.
LIMIT = {"model": "m", "thinking": "low", "max_output_tokens": 1024,
         "messages": [{"role": "user", "content": "Hi"}]}


@pytest.mark.parametrize(("target", "model", "key", "sent"), [
    ("anthropic", "claude-sonnet-4-5", "max_tokens", 22016 + 1024),
    ("gemini", "gemini-2.5-flash", "maxOutputTokens", 8192 + 1024),
    ("gemini", "gemini-3-pro-preview", "maxOutputTokens", 1024),  # a level, no budget to fit
    ("openai", "o3", "max_completion_tokens", 1024),  # an effort: nothing to fit
    ("openai-responses", "o3", "max_output_tokens", 1024),
    ("mistral", "magistral-medium-latest", "max_tokens", 1024),
])
def test_thinking_budget_and_output_limit(target: str, model: str, key: str, sent: int) -> None:
    wire = to_wire(request_from_json(dict(LIMIT, model=model)), target)
    validate(target, wire.body)
    config = wire.body.get("generationConfig", wire.body)
    assert config[key] == sent
    raised = [x for x in wire.losses if x.kind == "max_tokens"]
    assert [(x.pointer, f"raised from 1024 to {sent}" in x.message) for x in raised] == (
        [("/max_output_tokens", True)] if sent != 1024 else [])
    big = to_wire(request_from_json(dict(LIMIT, model=model, max_output_tokens=40000)), target)
    assert big.body.get("generationConfig", big.body)[key] == 40000 and not big.losses  # it fits: as asked


CALL = {"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}
RESULT = {"type": "tool_result", "call_id": "c1", "content": "18 C"}


def _codes(value: dict[str, Any]) -> list[tuple[str, str]]:
    report = check_document(json.dumps(value))
    return [(f.code, f.pointer) for f in report.findings if f.code in ("TC806", "TC807", "TC808")]


def test_anthropic_thinking_needs_the_tool_turns_thinking_block(tmp_path: Path) -> None:
    value = {"model": "claude-sonnet-4-5", "thinking": "low", "tools": [TOOL], "messages": [
        {"role": "user", "content": "Weather?"}, {"role": "assistant", "content": [CALL]},
        {"role": "user", "content": [RESULT]}]}
    assert _codes(value) == [("TC806", "/messages/1")]
    path = tmp_path / "r.request.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    run = _run("request", str(path), "--to", "anthropic")
    assert run.returncode == 2 and run.stdout == "" and "/messages/1: error TC806" in run.stderr
    assert _run("request", str(path), "--to", "openai").returncode == 0  # OpenAI has no such rule
    signed = {"type": "thinking", "text": "call it", "signature": "sig"}
    value["messages"][1]["content"] = [signed, CALL]
    assert _codes(value) == []
    value["messages"][1]["content"] = [CALL]
    value["messages"].append({"role": "user", "content": "Thanks, and Rome?"})  # the tool loop is over
    assert _codes(value) == []
    assert _codes(dict(value, thinking="none", messages=value["messages"][:3])) == []


def test_tool_results_follow_their_calls() -> None:
    value = {"model": "gpt-5", "tools": [TOOL], "messages": [
        {"role": "assistant", "content": [CALL]}, {"role": "user", "content": "And?"},
        {"role": "user", "content": [RESULT]}]}
    assert _codes(value) == [("TC807", "/messages/0/content/0/id"), ("TC807", "/messages/2/content/0/call_id")]
    text_first = {"model": "claude-sonnet-4-5", "tools": [TOOL], "messages": [
        {"role": "assistant", "content": [CALL]},
        {"role": "user", "content": [{"type": "text", "text": "here"}, RESULT]}]}
    assert _codes(text_first) == [("TC807", "/messages/1/content/1")]
    assert history_problems(request_from_json(text_first), "openai") == []  # OpenAI: tool messages go first anyway


def test_gemini_3_needs_thought_signatures_back() -> None:
    value = {"model": "gemini-3-pro-preview", "tools": [TOOL], "messages": [
        {"role": "user", "content": "Weather?"}, {"role": "assistant", "content": [CALL]},
        {"role": "user", "content": [RESULT]}]}
    assert _codes(value) == [("TC808", "/messages/1/content/0")]
    value["messages"][1]["content"] = [dict(CALL, signature="c2lnbmF0dXJl")]
    assert _codes(value) == []
    wire = to_wire(request_from_json(value), "gemini")
    validate("gemini", wire.body)
    assert wire.body["contents"][1]["parts"][0]["thoughtSignature"] == "c2lnbmF0dXJl"
    assert _codes(dict(value, model="gemini-2.5-pro", messages=[  # 2.5: signatures are optional
        value["messages"][0], {"role": "assistant", "content": [CALL]}, value["messages"][2]])) == []
