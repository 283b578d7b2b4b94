"""Requests and responses across providers (seed 004), checked with the providers' own SDK types: what
toolcast sends validates against their request parameter types, and responses built with their
response types, dumped as the wire JSON, parse to the expected canonical form."""

from __future__ import annotations

import json
from typing import Any, get_type_hints

import pytest
from pydantic import TypeAdapter
from toolcast.adapters.messages import (
    MessageFormatError,
    Text,
    Thinking,
    ToolCall,
    Usage,
    argument_errors,
    budget_tokens,
    from_wire,
    gemini_thinking,
    request_from_json,
    request_to_json,
    stable_call_id,
    to_canonical_call,
    to_wire,
)
from toolcast.adapters.messages.thinking import anthropic_budget

TOOL = {"name": "get_weather", "description": "Current weather.", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
    "required": ["city"]}}
REQUEST = {
    "model": "claude-sonnet-4-5-20250929",
    "system": "You are helpful",
    "thinking": "medium",
    "max_output_tokens": 4096,
    "tools": [TOOL],
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": [
            {"type": "thinking", "text": "Call the tool.", "signature": "sig-1"},
            {"type": "text", "text": "Checking."},
            {"type": "tool_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
        {"role": "user", "content": [{"type": "tool_result", "call_id": "call_1", "content": "18 C"}]},
    ],
}


def _typed_dict(cls: Any, value: dict[str, Any]) -> None:
    TypeAdapter(cls).validate_python(value)
    assert set(value) <= set(get_type_hints(cls)), set(value) - set(get_type_hints(cls))


# -- thinking budgets: seed 004's formulas -------------------------------------------------------------

def test_thinking_budgets_reproduce_seed_004() -> None:
    assert [anthropic_budget("claude-sonnet-4-5-20250929", lv) for lv in ("none", "low", "medium", "high")] == [
        1024, 22016, 43008, 64000]  # seed: "43000" for medium, 2/3 of the way from 1,024 to 64,000
    assert anthropic_budget("claude-haiku-4-5", "high") == 32000
    assert [gemini_thinking("gemini-2.5-pro", lv)["thinkingBudget"] for lv in ("none", "low", "medium", "high")] == [
        128, 11008, 21888, 32768]  # seed's formula; its comment's "~21,760" leaves out the minimum of 128
    assert [gemini_thinking("gemini-2.5-flash", lv)["thinkingBudget"] for lv in ("none", "low", "medium", "high")] == [
        0, 8192, 16384, 24576]
    assert [gemini_thinking("gemini-3-pro-preview", lv)["thinkingLevel"] for lv in ("none", "low", "medium", "high")] \
        == ["LOW", "LOW", "HIGH", "HIGH"]
    assert budget_tokens(0, 3, "low") == 1
    with pytest.raises(Exception, match="no thinking budget"):
        anthropic_budget("claude-unknown", "low")


# -- requests ------------------------------------------------------------------------------------------

def test_request_file_round_trips_through_its_json_form() -> None:
    request = request_from_json(REQUEST)
    assert request_from_json(request_to_json(request)) == request


@pytest.mark.parametrize(("value", "pointer"), [
    ({"messages": []}, "/model"),
    ({"model": "m", "messages": [{"role": "system", "content": "x"}]}, "/messages/0/role"),
    ({"model": "m", "messages": [{"role": "user", "content": [{"type": "video"}]}]}, "/messages/0/content/0/type"),
    ({"model": "m", "messages": [{"role": "user", "content": [{"type": "image"}]}]}, "/messages/0/content/0"),
    ({"model": "m", "messages": [{"role": "user", "content": [{"type": "image", "data": "iVBORw0KGgo="}]}]},
     "/messages/0/content/0/media_type"),
    ({"model": "m", "messages": [], "thinking": "max"}, "/thinking"),
    ({"model": "m", "messages": [], "max_output_tokens": -1}, "/max_output_tokens"),
    ({"model": "m", "messages": [], "tools": [{"nothing": 1}]}, "/tools"),
])
def test_malformed_request_files_name_the_place(value: dict[str, Any], pointer: str) -> None:
    with pytest.raises(MessageFormatError) as err:
        request_from_json(value)
    assert (err.value.pointer or "/") == pointer


def test_anthropic_request() -> None:
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    wire = to_wire(request_from_json(REQUEST), "anthropic")
    body = wire.body
    _typed_dict(MessageCreateParamsNonStreaming, body)
    assert body["system"] == "You are helpful"
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 43008}
    assert body["max_tokens"] == 43008 + 4096  # thinking counts inside max_tokens: raised, and said so
    assert [loss.kind for loss in wire.losses] == ["max_tokens"]
    assistant = body["messages"][1]["content"]
    assert assistant[0] == {"type": "thinking", "thinking": "Call the tool.", "signature": "sig-1"}
    assert assistant[2] == {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}}
    assert body["messages"][2]["content"][0] == {"type": "tool_result", "tool_use_id": "call_1", "content": "18 C"}
    unsigned = dict(REQUEST, messages=[{"role": "assistant", "content": [{"type": "thinking", "text": "hm"}]}])
    assert [(x.kind, x.pointer) for x in to_wire(request_from_json(unsigned), "anthropic").losses] == [
        ("thinking", "/messages/0/content/0"), ("max_tokens", "/max_output_tokens")]


def test_openai_chat_request() -> None:
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    wire = to_wire(request_from_json(dict(REQUEST, model="o3")), "openai")
    body = wire.body
    _typed_dict(CompletionCreateParamsNonStreaming, body)
    assert body["messages"][0] == {"role": "system", "content": "You are helpful"}
    call = body["messages"][2]["tool_calls"][0]
    assert call["function"] == {"name": "get_weather", "arguments": '{"city": "Paris"}'}  # a JSON string
    assert body["messages"][3] == {"role": "tool", "tool_call_id": "call_1", "content": "18 C"}
    assert body["reasoning_effort"] == "medium" and body["max_completion_tokens"] == 4096
    assert [(x.kind, x.pointer) for x in wire.losses] == [("thinking", "/messages/1/content/0")]
    assert body["tools"][0]["function"]["strict"] is True  # through convert(): strict by default


def test_openai_responses_request() -> None:
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    wire = to_wire(request_from_json(dict(REQUEST, model="o3")), "openai-responses")
    body = wire.body
    _typed_dict(ResponseCreateParamsNonStreaming, body)
    assert body["instructions"] == "You are helpful"
    assert body["reasoning"] == {"effort": "medium", "summary": "auto"}
    kinds = [item.get("type", item.get("role")) for item in body["input"]]
    assert kinds == ["user", "assistant", "function_call", "function_call_output"]
    assert body["input"][3] == {"type": "function_call_output", "call_id": "call_1", "output": "18 C"}


def test_gemini_request() -> None:
    from google.genai import types as g

    wire = to_wire(request_from_json(dict(REQUEST, model="gemini-2.5-pro")), "gemini")
    body = wire.body
    for content in body["contents"]:
        g.Content.model_validate(content)
    g.Content.model_validate(body["systemInstruction"])
    g.GenerationConfig.model_validate(body["generationConfig"])
    for tool in body["tools"]:
        g.Tool.model_validate(tool)
    assert [c["role"] for c in body["contents"]] == ["user", "model", "user"]
    # Anthropic's signature is no Gemini thought signature: sent without it, and said so.
    assert body["contents"][1]["parts"][0] == {"text": "Call the tool.", "thought": True}
    assert [(x.kind, x.pointer) for x in wire.losses] == [("signature", "/messages/1/content/0"),
                                                          ("max_tokens", "/max_output_tokens")]
    # Gemini 2.5 counts thoughts inside maxOutputTokens: the same policy as Anthropic's max_tokens.
    assert body["generationConfig"] == {"maxOutputTokens": 21888 + 4096,
                                        "thinkingConfig": {"thinkingBudget": 21888, "includeThoughts": True}}
    response = body["contents"][2]["parts"][0]["functionResponse"]
    assert response == {"id": "call_1", "name": "get_weather", "response": {"content": "18 C"}}
    signed = json.loads(json.dumps(REQUEST).replace("sig-1", "c2lnLTE="))
    parts = to_wire(request_from_json(dict(signed, model="gemini-2.5-pro")), "gemini").body["contents"][1]["parts"]
    assert parts[0]["thoughtSignature"] == "c2lnLTE="
    orphan = dict(REQUEST, model="gemini-2.5-pro", messages=[
        {"role": "user", "content": [{"type": "tool_result", "call_id": "nope", "content": "x"}]}])
    with pytest.raises(Exception, match="no earlier message"):
        to_wire(request_from_json(orphan), "gemini")


# -- responses -----------------------------------------------------------------------------------------

def test_anthropic_response() -> None:
    from anthropic.types import Message, TextBlock, ThinkingBlock, ToolUseBlock
    from anthropic.types import Usage as AUsage

    msg = Message(id="msg_1", type="message", role="assistant", model="claude-sonnet-4-5", stop_reason="tool_use",
                  stop_sequence=None, usage=AUsage(input_tokens=50, output_tokens=100),
                  content=[ThinkingBlock(type="thinking", thinking="I should call it", signature="s1"),
                           TextBlock(type="text", text="Checking."),
                           ToolUseBlock(type="tool_use", id="toolu_1", name="get_weather", input={"city": "Paris"})])
    resp = from_wire(json.loads(msg.model_dump_json()), "anthropic")
    assert resp.content == (Thinking("I should call it", "s1"), Text("Checking."),
                            ToolCall("toolu_1", "get_weather", {"city": "Paris"}))
    assert resp.finish_reason == "tool_use" and resp.usage == Usage(50, 100, 150, 0, 0, None)
    seed = {"content": [{"type": "thinking", "text": "x"}], "stop_reason": "end_turn",
            "usage": {"input_tokens": 50, "output_tokens": 100, "thinking_tokens": 20}}
    assert from_wire(seed, "anthropic").usage == Usage(50, 120, 170, thinking_tokens=20)  # seed 004's numbers


def test_openai_chat_response_splits_reasoning_tokens_and_parses_arguments() -> None:
    from openai.types.chat import ChatCompletion

    completion = ChatCompletion.model_validate({
        "id": "c1", "object": "chat.completion", "created": 0, "model": "o3",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
                "name": "get_weather", "arguments": '{"city":"Paris","unit":null}'}}]}}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 120, "total_tokens": 170,
                  "completion_tokens_details": {"reasoning_tokens": 20}}})
    resp = from_wire(json.loads(completion.model_dump_json()), "openai")
    assert resp.content == (ToolCall("call_1", "get_weather", {"city": "Paris", "unit": None}),)
    assert resp.finish_reason == "tool_use" and resp.usage == Usage(50, 120, 170, thinking_tokens=20)
    broken = json.loads(completion.model_dump_json())
    broken["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = '{"city": '
    with pytest.raises(MessageFormatError, match=r"OpenAI Chat Completions response.*not JSON") as err:
        from_wire(broken, "openai")
    assert err.value.pointer == "/choices/0/message/tool_calls/0/function/arguments"


def test_openai_responses_response() -> None:
    from openai.types.responses import Response

    response = Response.model_validate({
        "id": "resp_1", "object": "response", "created_at": 0, "model": "o3", "status": "completed",
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Thinking it over"}]},
            {"type": "message", "id": "m1", "role": "assistant", "status": "completed",
             "content": [{"type": "output_text", "text": "I'm well", "annotations": []}]}],
        "usage": {"input_tokens": 50, "output_tokens": 120, "total_tokens": 170,
                  "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                  "output_tokens_details": {"reasoning_tokens": 20}}})
    resp = from_wire(json.loads(response.model_dump_json()), "openai-responses")
    assert resp.content == (Thinking("Thinking it over"), Text("I'm well"))
    assert resp.finish_reason == "stop" and resp.usage == Usage(50, 120, 170, thinking_tokens=20)
    assert resp.provider_data == {"reasoning_ids": ["rs_1"]}
    seed = {"output": [], "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
            "usage": {"prompt_tokens": 50, "completion_tokens": 120,
                      "completion_tokens_details": {"reasoning_tokens": 20}}}
    assert from_wire(seed, "openai-responses").usage == Usage(50, 120, 170, thinking_tokens=20)  # seed's names
    assert from_wire(seed, "openai-responses").finish_reason == "length"


def test_gemini_response_generates_stable_call_ids() -> None:
    from google.genai import types as g

    response = g.GenerateContentResponse(
        candidates=[g.Candidate(finish_reason=g.FinishReason.STOP, content=g.Content(role="model", parts=[
            g.Part(text="Let me look", thought=True, thought_signature=b"sig"),
            g.Part(function_call=g.FunctionCall(name="get_weather", args={"city": "Paris"}))]))],
        usage_metadata=g.GenerateContentResponseUsageMetadata(
            prompt_token_count=50, candidates_token_count=100, thoughts_token_count=20, total_token_count=170),
        model_version="gemini-2.5-pro")
    wire = response.model_dump(mode="json", by_alias=True, exclude_none=True)
    resp = from_wire(wire, "gemini")
    thought, call = resp.content
    assert isinstance(thought, Thinking) and thought.text == "Let me look" and thought.signature
    assert isinstance(call, ToolCall) and call.name == "get_weather" and call.arguments == {"city": "Paris"}
    assert call.id == stable_call_id(1, "get_weather", {"city": "Paris"}) and len(call.id) == 22
    assert from_wire(wire, "gemini").content == resp.content  # the same response, the same ids
    assert resp.finish_reason == "tool_use" and resp.usage == Usage(50, 120, 170, thinking_tokens=20)
    assert resp.model == "gemini-2.5-pro" and resp.provider_data["thought_signatures"]
    chosen = from_wire(wire, "gemini", call_ids=lambda i, name, args: f"id-{i}")
    assert chosen.content[1] == ToolCall("id-1", "get_weather", {"city": "Paris"})


MALFORMED_RESPONSES: list[Any] = [None, [], {"content": 5}, {"choices": [{}]}, {"candidates": [{"content": 3}]},
                                  {"output": [{"type": "function_call", "call_id": 1}]}]
#: Where each source's reader stops, per value above (every one of them is an error for every source).
RESPONSE_ERRORS = {
    "anthropic": ["/", "/", "/content", "/content", "/content", "/content"],
    "openai": ["/", "/", "/choices", "/choices/0/message", "/choices", "/choices"],
    "openai-responses": ["/", "/", "/output", "/output", "/output", "/output/0/call_id"],
    "gemini": ["/", "/", "/candidates", "/candidates", "/candidates/0/content", "/candidates"],
}
SOURCE_NAMES = {"anthropic": "Anthropic response", "openai": "OpenAI Chat Completions response",
                "openai-responses": "OpenAI Responses response", "gemini": "Gemini response"}


@pytest.mark.parametrize("source", ["anthropic", "openai", "openai-responses", "gemini"])
@pytest.mark.parametrize("case", range(len(MALFORMED_RESPONSES)))
def test_malformed_responses_are_clear_errors(source: str, case: int) -> None:
    with pytest.raises(MessageFormatError) as err:
        from_wire(MALFORMED_RESPONSES[case], source)
    assert str(err.value).startswith(SOURCE_NAMES[source] + ": expected")
    assert (err.value.pointer or "/") == RESPONSE_ERRORS[source][case]


# -- tool calls back to the canonical tool -------------------------------------------------------------

def test_tool_calls_map_back_to_the_original_schema() -> None:
    tool = dict(TOOL, name="weather.get")  # sanitised for every provider
    request = request_from_json(dict(REQUEST, model="o3", tools=[tool], messages=[]))
    wire = to_wire(request, "openai")
    assert wire.body["tools"][0]["function"]["name"] == "weather_get"
    sent = ToolCall("call_1", "weather_get", {"city": "Paris", "unit": None})  # strict: null means absent
    call, canonical = to_canonical_call(sent, request.tools, wire.tools)
    assert canonical is not None and call.name == "weather.get" and call.arguments == {"city": "Paris"}
    assert argument_errors(canonical, call.arguments) == []
    assert argument_errors(canonical, {"city": 5, "unit": "k"}) == [
        ("/city", "5 is not of type 'string'"), ("/unit", "'k' is not one of ['c', 'f']")]
    unknown, none = to_canonical_call(ToolCall("c", "nope", {}), request.tools, wire.tools)
    assert none is None and unknown.name == "nope"


def test_mistral_request_and_response() -> None:
    from mistralai.client import models as m

    wire = to_wire(request_from_json(dict(REQUEST, model="mistral-large-latest")), "mistral")
    m.ChatCompletionRequest.model_validate(wire.body)
    assert wire.body["max_tokens"] == 4096 and "max_completion_tokens" not in wire.body
    call_id = wire.body["messages"][2]["tool_calls"][0]["id"]
    assert len(call_id) == 9 and call_id.isalnum() and wire.body["messages"][3]["tool_call_id"] == call_id
    assert [x.kind for x in wire.losses] == ["thinking", "call_id", "call_id"]
    response = m.ChatCompletionResponse.model_validate({
        "id": "r1", "object": "chat.completion", "model": "mistral-large-latest", "created": 0,
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "", "tool_calls": [
                {"id": "abc123XYZ", "type": "function", "function": {"name": "get_weather",
                                                                     "arguments": {"city": "Paris"}}}]}}]})
    resp = from_wire(json.loads(response.model_dump_json()), "mistral")
    assert resp.content == (ToolCall("abc123XYZ", "get_weather", {"city": "Paris"}),)
    assert resp.finish_reason == "tool_use" and resp.usage == Usage(10, 5, 15)


MODELS = {"anthropic": "claude-sonnet-4-5", "openai": "o3", "openai-responses": "o3", "gemini": "gemini-2.5-pro",
          "mistral": "mistral-large-latest"}


@pytest.mark.parametrize("target", list(MODELS))
def test_request_round_trip_keeps_everything_not_reported_lost(target: str) -> None:
    from toolcast.adapters import pointer as jp
    from toolcast.adapters.messages import request_from_wire

    # Ids and a signature every provider accepts as they are, so that what changes is what is reported.
    value = json.loads(json.dumps(REQUEST).replace("call_1", "call00001").replace("sig-1", "c2lnLTE="))
    original = request_from_json(dict(value, model=MODELS[target]))
    wire = to_wire(original, target)
    back = request_from_wire(json.loads(json.dumps(wire.body)), target)
    want, got = request_to_json(original), request_to_json(back)
    want["tools"] = [t["name"] for t in want["tools"]]  # schemas: the converters' own round-trip tests
    got["tools"] = [t["name"] for t in got["tools"]]
    for loss in sorted(wire.losses, key=lambda x: x.pointer, reverse=True):
        parts = jp.parts(loss.pointer)
        if loss.kind == "max_tokens":
            want.pop(parts[0]), got.pop(parts[0])
        else:  # a block the target cannot carry: it is not there on the way back
            container = jp.resolve(want, jp.from_parts(parts[:-1]))
            del container[int(parts[-1])]
    assert got == want
    assert {loss.kind for loss in wire.losses} == {
        "anthropic": {"max_tokens"}, "openai": {"thinking"}, "openai-responses": {"thinking"}, "gemini": {"max_tokens"},
        "mistral": {"thinking"}}[target]


MALFORMED_REQUESTS: list[Any] = [
    None, {"model": 3}, {"model": "m", "messages": 5}, {"model": "m", "contents": [3]},
    {"model": "m", "input": [{"type": "function_call", "arguments": "{"}]},
    {"model": "m", "messages": [{"role": "assistant", "tool_calls": [{"function": 1}]}]}]
#: Where each source's reader stops, per value above; None: not an error for that source (the Responses API
#: reads `input`, so `messages` and `contents` are other APIs' fields, ignored: an empty conversation).
REQUEST_ERRORS: dict[str, list[str | None]] = {
    "anthropic": ["/", "/model", "/messages", "/messages", "/messages", "/messages/0/content"],
    "openai": ["/", "/model", "/messages", "/messages", "/messages", "/messages/0/tool_calls/0/function"],
    "openai-responses": ["/", "/model", None, None, "/input/0/call_id", None],
    "gemini": ["/", "/model", "/contents", "/contents/0", "/contents", "/contents"],
    "mistral": ["/", "/model", "/messages", "/messages", "/messages", "/messages/0/tool_calls/0/function"],
}


@pytest.mark.parametrize("source", list(MODELS))
@pytest.mark.parametrize("case", range(len(MALFORMED_REQUESTS)))
def test_malformed_wire_requests_are_clear_errors(source: str, case: int) -> None:
    from toolcast.adapters.messages import request_from_wire
    from toolcast.adapters.messages.conversation import Request

    pointer = REQUEST_ERRORS[source][case]
    if pointer is None:
        request = request_from_wire(MALFORMED_REQUESTS[case], source)
        assert isinstance(request, Request) and request.model == "m" and request.messages == ()
        return
    with pytest.raises(MessageFormatError) as err:
        request_from_wire(MALFORMED_REQUESTS[case], source)
    assert str(err.value).startswith(f"{source} request: expected")
    assert (err.value.pointer or "/") == pointer
