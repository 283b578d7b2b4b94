"""Usage, choices and error bodies from each provider, built with the provider's SDK types and dumped to the
wire JSON. The numbers follow the providers' documented examples (prompt caching, reasoning)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters.messages import (
    MessageFormatError,
    ProviderError,
    ProviderErrorResponse,
    Text,
    ToolCall,
    Usage,
    from_wire,
)


def _wire(model: Any) -> Any:
    return json.loads(model.model_dump_json(by_alias=True, exclude_none=True))


def test_anthropic_counts_cache_reads_and_writes_as_input() -> None:
    from anthropic.types import Message, TextBlock, ThinkingBlock
    from anthropic.types import Usage as AUsage

    msg = Message(id="msg_1", type="message", role="assistant", model="claude-sonnet-4-5", stop_reason="end_turn",
                  stop_sequence=None, content=[ThinkingBlock(type="thinking", thinking="hm", signature="s"),
                                               TextBlock(type="text", text="Hi")],
                  usage=AUsage(input_tokens=472, cache_creation_input_tokens=100, cache_read_input_tokens=2000,
                               output_tokens=89))
    usage = from_wire(_wire(msg), "anthropic").usage
    # The numbers: billed input is 472 + 100 + 2,000; thinking is inside output and not split out.
    assert usage == Usage(input_tokens=2572, output_tokens=89, total_tokens=2661, cache_read_tokens=2000,
                          cache_write_tokens=100, thinking_tokens=None)


def test_anthropic_thinking_split_when_the_api_reports_it() -> None:
    from anthropic.types import Message, TextBlock
    from anthropic.types import Usage as AUsage
    from anthropic.types.output_tokens_details import OutputTokensDetails

    msg = Message(id="msg_1", type="message", role="assistant", model="claude-sonnet-4-5", stop_reason="end_turn",
                  stop_sequence=None, content=[TextBlock(type="text", text="Hi")],
                  usage=AUsage(input_tokens=10, output_tokens=300,
                               output_tokens_details=OutputTokensDetails(thinking_tokens=250)))
    assert from_wire(_wire(msg), "anthropic").usage == Usage(10, 300, 310, 0, 0, 250)


def test_openai_chat_cached_and_reasoning_tokens_and_every_choice() -> None:
    from openai.types.chat import ChatCompletion

    completion = ChatCompletion.model_validate({
        "id": "c1", "object": "chat.completion", "created": 0, "model": "o3",
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Sunny."}},
            {"index": 1, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None,
                                                                    "tool_calls": [{
                                                                        "id": "call_2", "type": "function",
                                                                        "function": {"name": "get_weather",
                                                                                     "arguments": "{}"}}]}}],
        # The prompt-caching and reasoning guides' examples, combined.
        "usage": {"prompt_tokens": 2006, "completion_tokens": 1186, "total_tokens": 3192,
                  "prompt_tokens_details": {"cached_tokens": 1920},
                  "completion_tokens_details": {"reasoning_tokens": 1024}}})
    resp = from_wire(_wire(completion), "openai")
    assert resp.usage == Usage(input_tokens=2006, output_tokens=1186, total_tokens=3192, cache_read_tokens=1920,
                               thinking_tokens=1024)
    assert resp.content == (Text("Sunny."),) and resp.finish_reason == "stop"
    assert [(c.index, c.content, c.finish_reason) for c in resp.choices] == [
        (1, (ToolCall("call_2", "get_weather", {}),), "tool_use")]
    from toolcast.adapters.messages import response_to_json

    assert response_to_json(resp)["choices"][0]["finish_reason"] == "tool_use"


def test_openai_responses_cached_and_reasoning_tokens() -> None:
    from openai.types.responses import Response

    response = Response.model_validate({
        "id": "resp_1", "object": "response", "created_at": 0, "model": "o3", "status": "completed",
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
        "output": [{"type": "message", "id": "m1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "Hi", "annotations": []}]}],
        "usage": {"input_tokens": 75, "output_tokens": 1186, "total_tokens": 1261,
                  "input_tokens_details": {"cached_tokens": 64, "cache_write_tokens": 0},
                  "output_tokens_details": {"reasoning_tokens": 1024}}})
    assert from_wire(_wire(response), "openai-responses").usage == Usage(75, 1186, 1261, 64, 0, 1024)


def test_gemini_cached_content_and_thoughts_and_every_candidate() -> None:
    from google.genai import types as g

    response = g.GenerateContentResponse(
        candidates=[g.Candidate(index=0, finish_reason=g.FinishReason.STOP,
                                content=g.Content(role="model", parts=[g.Part(text="A")])),
                    g.Candidate(index=1, finish_reason=g.FinishReason.MAX_TOKENS,
                                content=g.Content(role="model", parts=[g.Part(text="B")]))],
        usage_metadata=g.GenerateContentResponseUsageMetadata(
            prompt_token_count=2100, cached_content_token_count=2048, candidates_token_count=50,
            thoughts_token_count=300, total_token_count=2450))
    resp = from_wire(response.model_dump(mode="json", by_alias=True, exclude_none=True), "gemini")
    # candidatesTokenCount leaves thoughts out: output is 50 + 300, so that output means the same everywhere.
    assert resp.usage == Usage(input_tokens=2100, output_tokens=350, total_tokens=2450, cache_read_tokens=2048,
                               thinking_tokens=300)
    assert resp.content == (Text("A"),) and [(c.index, c.content, c.finish_reason) for c in resp.choices] == [
        (1, (Text("B"),), "length")]


def test_mistral_usage_and_thinking_chunks() -> None:
    from mistralai.client import models as m

    response = m.ChatCompletionResponse.model_validate({
        "id": "r1", "object": "chat.completion", "model": "magistral-medium-latest", "created": 0,
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": [
            {"type": "thinking", "thinking": [{"type": "text", "text": "Let me see"}]},
            {"type": "text", "text": "Done"}]}}]})
    resp = from_wire(json.loads(response.model_dump_json()), "mistral")
    assert resp.usage == Usage(10, 5, 15, 0, 0, None)  # Mistral does not split reasoning out
    assert [type(b).__name__ for b in resp.content] == ["Thinking", "Text"]


def _error_bodies() -> list[tuple[str, Any, ProviderError]]:
    from anthropic.types.shared import ErrorResponse
    from openai.types.shared import ErrorObject

    anthropic = ErrorResponse.model_validate({"type": "error", "error": {"type": "overloaded_error",
                                                                         "message": "Overloaded"}})
    openai = {"error": _wire(ErrorObject(message="Invalid 'tools[0].function.name'", type="invalid_request_error",
                                         param="tools[0].function.name", code="invalid_value"))}
    # google-genai raises APIError from this body; it reads the same fields.
    gemini = {"error": {"code": 400, "message": "API key not valid.", "status": "INVALID_ARGUMENT"}}
    mistral = {"object": "error", "message": "Invalid model: mistral-huge", "type": "invalid_model", "param": None,
               "code": "1500"}
    return [
        ("anthropic", _wire(anthropic), ProviderError("Anthropic", "overloaded_error", "Overloaded")),
        ("openai", openai, ProviderError("OpenAI Chat Completions", "invalid_request_error",
                                         "Invalid 'tools[0].function.name'", "invalid_value",
                                         "tools[0].function.name")),
        ("gemini", gemini, ProviderError("Gemini", "INVALID_ARGUMENT", "API key not valid.", "400")),
        ("mistral", mistral, ProviderError("Mistral", "invalid_model", "Invalid model: mistral-huge", "1500")),
        ("mistral", {"error": openai["error"]}, ProviderError("Mistral", "invalid_request_error",
                                                              "Invalid 'tools[0].function.name'", "invalid_value",
                                                              "tools[0].function.name")),
    ]


def test_error_bodies_become_a_canonical_error() -> None:
    from google.genai.errors import APIError

    for source, body, expected in _error_bodies():
        with pytest.raises(ProviderErrorResponse) as err:
            from_wire(body, source)
        assert err.value.error == expected
        if source == "gemini":
            assert APIError(400, body).message == expected.message  # the SDK reads the same body the same way


def test_cli_prints_the_error_and_fails(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "toolcast"
    source, body, _ = _error_bodies()[0]
    run = subprocess.run([str(exe), "response", "-", "--from", source], input=json.dumps(body),
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert "Anthropic returned an error: overloaded_error: Overloaded" in run.stderr
    assert json.loads(run.stdout) == {"error": {"provider": "Anthropic", "type": "overloaded_error",
                                                "message": "Overloaded"}}


def test_invalid_arguments_message_is_whole() -> None:
    body = {"id": "c", "object": "chat.completion", "created": 0, "model": "o3", "choices": [{
        "index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "tool_calls": [{
            "id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"city": "Par'}}]}}]}
    with pytest.raises(MessageFormatError) as err:
        from_wire(body, "openai")
    assert "Unterminated string starting at character 10 of \"{\\\"city\\\": \\\"Par\"" in str(err.value)
