"""Recorded streams — events built with the providers' SDK event models, written as the server-sent events
each provider sends — read into the same canonical response as the non-streamed answer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters.messages import (
    ProviderErrorResponse,
    Text,
    Thinking,
    ToolCall,
    Usage,
    from_stream,
    from_wire,
)


def _sse(events: list[Any], *, named: bool, done: bool = False, newline: str = "\n") -> str:
    out = []
    for e in events:
        data = e.model_dump_json(by_alias=True, exclude_none=True)
        out.append((f"event: {e.type}{newline}" if named else "") + f"data: {data}{newline}{newline}")
    return "".join(out) + (f"data: [DONE]{newline}{newline}" if done else "")


def _anthropic_events() -> list[Any]:
    import anthropic.types as a

    raw: list[dict[str, Any]] = [
        {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-sonnet-4-5",
            "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 472, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 2000,
                      "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "",
                                                                      "signature": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": " check."}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQB"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Checking"}},
        {"type": "content_block_stop", "index": 1},
        {"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_1",
                                                                      "name": "get_weather", "input": {}}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": ""}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta",
                                                              "partial_json": '{"city": '}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": '"Paris"}'}},
        {"type": "content_block_stop", "index": 2},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
         "usage": {"output_tokens": 89}},
        {"type": "message_stop"},
    ]
    adapter: Any = __import__("pydantic").TypeAdapter(a.RawMessageStreamEvent)
    return [adapter.validate_python(e) for e in raw]


def test_anthropic_stream_equals_the_message() -> None:
    from anthropic.types import Message

    text = _sse(_anthropic_events(), named=True)
    resp = from_stream(text, "anthropic")
    assert resp.content == (Thinking("Let me check.", "EqQB"), Text("Checking"),
                            ToolCall("toolu_1", "get_weather", {"city": "Paris"}))
    assert resp.finish_reason == "tool_use"
    assert resp.usage == Usage(2572, 89, 2661, 2000, 100, None)  # input from message_start, output from the delta
    whole = Message.model_validate({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use", "stop_sequence": None,
        "content": [{"type": "thinking", "thinking": "Let me check.", "signature": "EqQB"},
                    {"type": "text", "text": "Checking"},
                    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}],
        "usage": {"input_tokens": 472, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 2000,
                  "output_tokens": 89}})
    assert from_wire(json.loads(whole.model_dump_json()), "anthropic") == resp
    as_list = json.dumps([json.loads(e.model_dump_json()) for e in _anthropic_events()])
    assert from_stream(as_list, "anthropic") == resp  # the SDK events as a JSON list


def test_anthropic_error_event_mid_stream() -> None:
    text = _sse(_anthropic_events()[:3], named=True) + (
        'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n')
    with pytest.raises(ProviderErrorResponse) as err:
        from_stream(text, "anthropic")
    assert (err.value.error.type, err.value.error.message) == ("overloaded_error", "Overloaded")


def _chat_chunks() -> list[Any]:
    from openai.types.chat import ChatCompletionChunk

    def chunk(choices: list[dict[str, Any]], usage: dict[str, Any] | None = None) -> Any:
        return ChatCompletionChunk.model_validate({"id": "c1", "object": "chat.completion.chunk", "created": 0,
                                                   "model": "gpt-5", "choices": choices, "usage": usage})

    call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}
    return [
        chunk([{"index": 0, "delta": {"role": "assistant", "content": None, "tool_calls": [call]}}]),
        chunk([{"index": 1, "delta": {"role": "assistant", "content": "It is"}}]),
        chunk([{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"city":'}}]}}]),
        chunk([{"index": 1, "delta": {"content": " sunny."}, "finish_reason": "stop"}]),
        chunk([{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '"Paris"}'}}]}}]),
        chunk([{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]),
        chunk([], {"prompt_tokens": 2006, "completion_tokens": 1186, "total_tokens": 3192,
                   "prompt_tokens_details": {"cached_tokens": 1920},
                   "completion_tokens_details": {"reasoning_tokens": 1024}}),  # stream_options.include_usage
    ]


def test_openai_chat_stream_with_two_choices(tmp_path: Path) -> None:
    text = _sse(_chat_chunks(), named=False, done=True)
    resp = from_stream(text, "openai")
    assert resp.content == (ToolCall("call_1", "get_weather", {"city": "Paris"}),)
    assert resp.finish_reason == "tool_use"
    assert [(c.index, c.content, c.finish_reason) for c in resp.choices] == [(1, (Text("It is sunny."),), "stop")]
    assert resp.usage == Usage(2006, 1186, 3192, 1920, 0, 1024)
    path = tmp_path / "chat.sse"
    path.write_text(text, encoding="utf-8")
    exe = Path(sys.executable).parent / "toolcast"
    run = subprocess.run([str(exe), "response", "--stream", str(path), "--from", "openai"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["content"][0]["arguments"] == {"city": "Paris"}


def test_gemini_stream_joins_thought_pieces_and_keeps_the_signature() -> None:
    from google.genai import types as g

    def chunk(parts: list[Any], finish: Any = None, usage: Any = None) -> Any:
        return g.GenerateContentResponse(candidates=[g.Candidate(index=0, finish_reason=finish, content=g.Content(
            role="model", parts=parts))], usage_metadata=usage, model_version="gemini-3-pro-preview")

    chunks = [chunk([g.Part(text="Let me", thought=True)]), chunk([g.Part(text=" look", thought=True)]),
              chunk([g.Part(function_call=g.FunctionCall(id="fc1", name="get_weather", args={"city": "Paris"}),
                            thought_signature=b"sig")], g.FinishReason.STOP,
                    g.GenerateContentResponseUsageMetadata(prompt_token_count=10, candidates_token_count=5,
                                                           thoughts_token_count=20, total_token_count=35))]
    text = "".join(f"data: {c.model_dump_json(by_alias=True, exclude_none=True)}\r\n\r\n" for c in chunks)
    resp = from_stream(text, "gemini")
    thought, call = resp.content
    assert thought == Thinking("Let me look")
    assert isinstance(call, ToolCall) and call.arguments == {"city": "Paris"} and call.signature
    assert resp.finish_reason == "tool_use" and resp.usage == Usage(10, 25, 35, 0, 0, 20)


def test_openai_responses_stream() -> None:
    from openai.types.responses import ResponseCompletedEvent, ResponseCreatedEvent

    base = {"id": "resp_1", "object": "response", "created_at": 0, "model": "o3", "parallel_tool_calls": True,
            "tool_choice": "auto", "tools": [], "output": []}
    done = dict(base, status="completed", output=[
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
         "arguments": '{"city":"Paris"}', "status": "completed"}],
        usage={"input_tokens": 75, "output_tokens": 1186, "total_tokens": 1261,
               "input_tokens_details": {"cached_tokens": 64, "cache_write_tokens": 0},
               "output_tokens_details": {"reasoning_tokens": 1024}})
    events = [ResponseCreatedEvent.model_validate({"type": "response.created", "sequence_number": 0,
                                                   "response": dict(base, status="in_progress")}),
              ResponseCompletedEvent.model_validate({"type": "response.completed", "sequence_number": 1,
                                                     "response": done})]
    resp = from_stream(_sse(events, named=True), "openai-responses")
    assert resp.content == (ToolCall("call_1", "get_weather", {"city": "Paris"}),)
    assert resp.usage == Usage(75, 1186, 1261, 64, 0, 1024)


def test_mistral_stream() -> None:
    from mistralai.client import models as m

    chunks = [m.CompletionChunk.model_validate(c) for c in [
        {"id": "r1", "model": "magistral-medium-latest", "choices": [{"index": 0, "finish_reason": None, "delta": {
            "role": "assistant", "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "Hm"}]}]}}]},
        {"id": "r1", "model": "magistral-medium-latest", "choices": [{"index": 0, "finish_reason": None,
                                                                      "delta": {"content": "Sunny"}}]},
        {"id": "r1", "model": "magistral-medium-latest", "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                                                                   "total_tokens": 15},
         "choices": [{"index": 0, "finish_reason": "stop", "delta": {"content": "."}}]}]]
    text = "".join(f"data: {c.model_dump_json()}\n\n" for c in chunks) + "data: [DONE]\n\n"
    resp = from_stream(text, "mistral")
    assert resp.content == (Thinking("Hm"), Text("Sunny.")) and resp.usage == Usage(10, 5, 15)


def test_openai_responses_error_event() -> None:
    from openai.types.responses import ResponseErrorEvent

    event = ResponseErrorEvent(type="error", code="server_error", message="The server had an error",
                               param=None, sequence_number=3)
    with pytest.raises(ProviderErrorResponse) as err:
        from_stream(_sse([event], named=True), "openai-responses")
    assert (err.value.error.type, err.value.error.message) == ("server_error", "The server had an error")
