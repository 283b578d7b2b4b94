"""Images and documents (URL and base64) in user turns and tool results: sent as each provider's SDK
request types take them, and reported as a content loss where a provider cannot take them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from toolcast.adapters.messages import request_from_json, request_to_json, to_wire

from .test_models_and_history import validate

PNG, PDF = "iVBORw0KGgo=", "JVBERi0xLjQK"  # the first bytes of a PNG and of a PDF
IMAGE_URL = {"type": "image", "url": "https://example.com/cat.png", "media_type": "image/png"}
IMAGE_DATA = {"type": "image", "data": PNG, "media_type": "image/png"}
DOC_URL = {"type": "document", "url": "https://example.com/report.pdf"}
DOC_DATA = {"type": "document", "data": PDF, "media_type": "application/pdf"}
TOOL = {"name": "screenshot", "parameters": {"type": "object", "properties": {}}}
REQUEST = {"model": "m", "tools": [TOOL], "messages": [
    {"role": "user", "content": [{"type": "text", "text": "What is this?"}, IMAGE_URL, IMAGE_DATA, DOC_URL, DOC_DATA]},
    {"role": "assistant", "content": [{"type": "tool_call", "id": "call00001", "name": "screenshot", "arguments": {}}]},
    {"role": "user", "content": [{"type": "tool_result", "call_id": "call00001", "content": [
        {"type": "text", "text": "the screen"}, IMAGE_DATA, DOC_URL]}]}]}
MODELS = {"anthropic": "claude-sonnet-4-5", "openai": "gpt-5", "openai-responses": "gpt-5",
          "gemini": "gemini-2.5-flash", "mistral": "mistral-medium-latest"}
# What each provider cannot take, by pointer into the request.
LOST = {
    "anthropic": [],
    "openai": ["/messages/0/content/3", "/messages/2/content/0/content/1", "/messages/2/content/0/content/2"],
    "openai-responses": [],
    "gemini": ["/messages/0/content/3", "/messages/2/content/0/content/2"],  # a URL without its MIME type
    "mistral": ["/messages/0/content/4", "/messages/2/content/0/content/1", "/messages/2/content/0/content/2"],
}


def test_the_json_form_round_trips() -> None:
    request = request_from_json(REQUEST)
    assert request_to_json(request_from_json(request_to_json(request))) == request_to_json(request)
    assert request_to_json(request)["messages"][2]["content"][0]["content"][1] == IMAGE_DATA


@pytest.mark.parametrize("target", list(MODELS))
def test_media_per_provider(target: str) -> None:
    wire = to_wire(request_from_json(dict(REQUEST, model=MODELS[target])), target)
    validate(target, wire.body)
    assert sorted(x.pointer for x in wire.losses if x.kind == "media") == sorted(LOST[target])
    user, result = _user_and_result(target, wire.body)
    expected_user = {
        "anthropic": [{"type": "text", "text": "What is this?"},
                      {"type": "image", "source": {"type": "url", "url": IMAGE_URL["url"]}},
                      {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
                      {"type": "document", "source": {"type": "url", "url": DOC_URL["url"]}},
                      {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                                      "data": PDF}}],
        "openai": [{"type": "text", "text": "What is this?"},
                   {"type": "image_url", "image_url": {"url": IMAGE_URL["url"]}},
                   {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
                   {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{PDF}",
                                             "filename": "document.pdf"}}],
        "openai-responses": [{"type": "input_image", "image_url": IMAGE_URL["url"], "detail": "auto"},
                             {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "auto"},
                             {"type": "input_file", "file_url": DOC_URL["url"]},
                             {"type": "input_file", "file_data": f"data:application/pdf;base64,{PDF}",
                              "filename": "document.pdf"}],
        "gemini": [{"text": "What is this?"}, {"fileData": {"mimeType": "image/png", "fileUri": IMAGE_URL["url"]}},
                   {"inlineData": {"mimeType": "image/png", "data": PNG}},
                   {"inlineData": {"mimeType": "application/pdf", "data": PDF}}],
        "mistral": [{"type": "text", "text": "What is this?"}, {"type": "image_url", "image_url": IMAGE_URL["url"]},
                    {"type": "image_url", "image_url": f"data:image/png;base64,{PNG}"},
                    {"type": "document_url", "document_url": DOC_URL["url"]}],
    }[target]
    assert user == expected_user
    expected_result = {
        "anthropic": [{"type": "text", "text": "the screen"},
                      {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
                      {"type": "document", "source": {"type": "url", "url": DOC_URL["url"]}}],
        "openai": "the screen",
        "openai-responses": [{"type": "input_text", "text": "the screen"},
                             {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "auto"},
                             {"type": "input_file", "file_url": DOC_URL["url"]}],
        "gemini": {"id": "call00001", "name": "screenshot", "response": {"content": "the screen"},
                   "parts": [{"inlineData": {"mimeType": "image/png", "data": PNG}}]},
        "mistral": "the screen",
    }[target]
    assert result == expected_result


def _user_and_result(target: str, body: dict[str, Any]) -> tuple[Any, Any]:
    if target == "anthropic":
        return body["messages"][0]["content"], body["messages"][2]["content"][0]["content"]
    if target in ("openai", "mistral"):
        return body["messages"][0]["content"], body["messages"][2]["content"]
    if target == "openai-responses":
        user = [part for item in body["input"][1:5] for part in item["content"]]
        return user, body["input"][-1]["output"]
    return body["contents"][0]["parts"], body["contents"][2]["parts"][0]["functionResponse"]


def test_media_in_an_assistant_turn_is_reported() -> None:
    value = dict(REQUEST, model="gpt-5", tools=[], messages=[{"role": "assistant", "content": [IMAGE_URL]}])
    for target in MODELS:
        wire = to_wire(request_from_json(dict(value, model=MODELS[target])), target)
        assert [(x.kind, x.pointer) for x in wire.losses] == [("media", "/messages/0/content/0")], target


def _normalised(value: dict[str, Any]) -> dict[str, Any]:
    """What a round trip may change without losing anything: the media type of a URL (providers take
    the URL alone) and a text-only part list written as one string."""
    def block(b: dict[str, Any]) -> dict[str, Any]:
        if b["type"] in ("image", "document") and "url" in b:
            return {k: v for k, v in b.items() if k != "media_type"}
        if b["type"] == "tool_result" and isinstance(b["content"], list):
            parts = [block(p) for p in b["content"]]
            texts = all(p["type"] == "text" for p in parts)
            return dict(b, content="".join(p["text"] for p in parts) if texts else parts)
        return b

    value["messages"] = [dict(m, content=[block(b) for b in m["content"]]) for m in value["messages"]]
    value["tools"] = [t["name"] for t in value.get("tools", [])]
    return value


@pytest.mark.parametrize("target", list(MODELS))
def test_media_read_back_from_each_providers_request(target: str) -> None:
    from toolcast.adapters import pointer as jp
    from toolcast.adapters.messages import request_from_wire

    original = request_from_json(dict(REQUEST, model=MODELS[target]))
    wire = to_wire(original, target)
    want = request_to_json(original)
    for loss in sorted(wire.losses, key=lambda x: x.pointer, reverse=True):  # what is reported lost is gone
        parts = jp.parts(loss.pointer)
        del jp.resolve(want, jp.from_parts(parts[:-1]))[int(parts[-1])]
    got = request_to_json(request_from_wire(json.loads(json.dumps(wire.body)), target))
    got.pop("max_output_tokens", None), want.pop("max_output_tokens", None)
    assert _normalised(got) == _normalised(want)
