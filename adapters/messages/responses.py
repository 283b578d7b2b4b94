"""Provider response JSON → canonical ``Response`` (seed 004): content blocks, finish reason, usage with
thinking tokens split out where a provider folds them into its output count, tool calls with parsed
arguments (ids generated for Gemini when it sends none). A malformed response raises
``MessageFormatError`` naming the provider and the pointer."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from typing import Any, cast

from .model import Block, FinishReason, MessageFormatError, Response, Text, Thinking, ToolCall, Usage
from .reading import WireReader

RESPONSE_SOURCES = ("anthropic", "openai", "openai-responses", "gemini", "mistral")
_LABELS = {"anthropic": "Anthropic", "openai": "OpenAI Chat Completions", "openai-responses": "OpenAI Responses",
           "gemini": "Gemini", "mistral": "Mistral"}


CallIds = Callable[[int, str, dict[str, Any]], str]


def _reason(table: dict[str, str], value: Any) -> FinishReason:
    return cast(FinishReason, table.get(str(value), "other"))


def from_wire(value: Any, source: str, *, call_ids: CallIds | None = None) -> Response:
    """The canonical form of a ``source`` response (anthropic, openai, openai-responses, gemini, mistral).
    ``call_ids`` makes the ids of Gemini function calls that come without one (default: derived from
    the call's position, name and arguments, so the same response always gets the same ids)."""
    if source not in RESPONSE_SOURCES:
        raise MessageFormatError("response", "", f"unknown source {source!r}; expected one of: "
                                 f"{', '.join(RESPONSE_SOURCES)}")
    r = WireReader(f"{_LABELS[source]} response")
    body = r.obj(value, "")
    if source == "anthropic":
        return _anthropic(r, body)
    if source in ("openai", "mistral"):  # Mistral answers in the Chat Completions shape
        return _openai_chat(r, body)
    if source == "openai-responses":
        return _openai_responses(r, body)
    return _gemini(r, body, call_ids or stable_call_id)


def stable_call_id(index: int, name: str, args: dict[str, Any]) -> str:
    """A 22-character base64url id (seed 004's format) derived from the call itself."""
    digest = hashlib.sha256(json.dumps([index, name, args], sort_keys=True, ensure_ascii=False).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:22]


def _anthropic(r: WireReader, body: dict[str, Any]) -> Response:
    blocks: list[Block] = []
    for i, raw in enumerate(r.arr(body.get("content"), "/content")):
        ptr = f"/content/{i}"
        block = r.obj(raw, ptr)
        kind = block.get("type")
        if kind == "text":
            blocks.append(Text(r.text(block.get("text"), ptr + "/text")))
        elif kind == "thinking":
            text = block.get("thinking", block.get("text"))  # seed 004 writes "text"; the API "thinking"
            blocks.append(Thinking(r.text(text, ptr + "/thinking"), block.get("signature")))
        elif kind == "redacted_thinking":
            blocks.append(Thinking("", r.text(block.get("data"), ptr + "/data")))
        elif kind == "tool_use":
            blocks.append(ToolCall(r.text(block.get("id"), ptr + "/id"), r.text(block.get("name"), ptr + "/name"),
                                   r.arguments(block.get("input", {}), ptr + "/input")))
    usage = r.obj(body.get("usage", {}), "/usage")
    inp = r.count(usage, "input_tokens", "/usage")
    out = r.count(usage, "output_tokens", "/usage")
    think = r.count(usage, "thinking_tokens", "/usage")
    reason = _reason({"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_use",
                      "refusal": "content_filter"}, body.get("stop_reason"))
    return Response(tuple(blocks), reason, Usage(inp, out, think, inp + out + think), body.get("model"))


def _openai_chat(r: WireReader, body: dict[str, Any]) -> Response:
    choices = r.arr(body.get("choices"), "/choices")
    if not choices:
        raise r.fail("/choices", "no choices")
    choice = r.obj(choices[0], "/choices/0")
    message = r.obj(choice.get("message"), "/choices/0/message")
    blocks: list[Block] = []
    if isinstance(message.get("content"), str) and message["content"]:
        blocks.append(Text(message["content"]))
    for i, raw in enumerate(message.get("tool_calls") or []):
        ptr = f"/choices/0/message/tool_calls/{i}"
        call = r.obj(raw, ptr)
        fn = r.obj(call.get("function"), ptr + "/function")
        blocks.append(ToolCall(r.text(call.get("id"), ptr + "/id"), r.text(fn.get("name"), ptr + "/function/name"),
                               r.arguments(fn.get("arguments"), ptr + "/function/arguments")))
    reason = _reason({"stop": "stop", "length": "length", "tool_calls": "tool_use", "function_call": "tool_use",
                      "content_filter": "content_filter"}, choice.get("finish_reason"))
    usage = r.obj(body.get("usage") or {}, "/usage")
    details = r.obj(usage.get("completion_tokens_details") or {}, "/usage/completion_tokens_details")
    thinking = r.count(details, "reasoning_tokens", "/usage/completion_tokens_details")
    inp = r.count(usage, "prompt_tokens", "/usage")
    completion = r.count(usage, "completion_tokens", "/usage")
    total = r.count(usage, "total_tokens", "/usage") or inp + completion
    return Response(tuple(blocks), reason, Usage(inp, completion - thinking, thinking, total), body.get("model"))


def _openai_responses(r: WireReader, body: dict[str, Any]) -> Response:
    blocks: list[Block] = []
    reasoning_ids: list[str] = []
    for i, raw in enumerate(r.arr(body.get("output"), "/output")):
        ptr = f"/output/{i}"
        item = r.obj(raw, ptr)
        kind = item.get("type")
        if kind == "message":
            for j, part in enumerate(r.arr(item.get("content"), ptr + "/content")):
                part = r.obj(part, f"{ptr}/content/{j}")
                if part.get("type") == "output_text":
                    blocks.append(Text(r.text(part.get("text"), f"{ptr}/content/{j}/text")))
        elif kind == "reasoning":
            summary = "\n".join(str(s.get("text", "")) for s in item.get("summary") or [] if isinstance(s, dict))
            blocks.append(Thinking(summary))
            if isinstance(item.get("id"), str):
                reasoning_ids.append(item["id"])
        elif kind == "function_call":
            blocks.append(ToolCall(r.text(item.get("call_id"), ptr + "/call_id"),
                                   r.text(item.get("name"), ptr + "/name"),
                                   r.arguments(item.get("arguments"), ptr + "/arguments")))
    status = body.get("status")
    details_value = body.get("incomplete_details")
    incomplete = details_value.get("reason") if isinstance(details_value, dict) else None
    reason: FinishReason
    if status == "incomplete":
        reason = _reason({"max_output_tokens": "length", "content_filter": "content_filter"}, incomplete)
    elif status == "failed":
        reason = "error"
    else:
        reason = "tool_use" if any(isinstance(b, ToolCall) for b in blocks) else "stop"
    usage = r.obj(body.get("usage") or {}, "/usage")
    if "input_tokens" in usage or "output_tokens" in usage:
        inp = r.count(usage, "input_tokens", "/usage")
        completion = r.count(usage, "output_tokens", "/usage")
        details = r.obj(usage.get("output_tokens_details") or {}, "/usage/output_tokens_details")
        thinking = r.count(details, "reasoning_tokens", "/usage/output_tokens_details")
    else:  # seed 004's example uses the Chat Completions names
        inp = r.count(usage, "prompt_tokens", "/usage")
        completion = r.count(usage, "completion_tokens", "/usage")
        details = r.obj(usage.get("completion_tokens_details") or {}, "/usage/completion_tokens_details")
        thinking = r.count(details, "reasoning_tokens", "/usage/completion_tokens_details")
    total = r.count(usage, "total_tokens", "/usage") or inp + completion
    data = {"reasoning_ids": reasoning_ids} if reasoning_ids else {}
    return Response(tuple(blocks), reason, Usage(inp, completion - thinking, thinking, total), body.get("model"), data)


def _gemini(r: WireReader, body: dict[str, Any], call_ids: CallIds) -> Response:
    candidates = r.arr(body.get("candidates"), "/candidates")
    if not candidates:
        raise r.fail("/candidates", "no candidates")
    cand = r.obj(candidates[0], "/candidates/0")
    content = r.obj(cand.get("content") or {"parts": []}, "/candidates/0/content")
    blocks: list[Block] = []
    signatures: list[str] = []
    for i, raw in enumerate(r.arr(content.get("parts") or [], "/candidates/0/content/parts")):
        ptr = f"/candidates/0/content/parts/{i}"
        part = r.obj(raw, ptr)
        sig = part.get("thoughtSignature")
        if isinstance(sig, str):
            signatures.append(sig)
        if isinstance(part.get("functionCall"), dict):
            fc = part["functionCall"]
            name = r.text(fc.get("name"), ptr + "/functionCall/name")
            args = r.arguments(fc.get("args") or {}, ptr + "/functionCall/args")
            call_id = fc.get("id") if isinstance(fc.get("id"), str) and fc.get("id") else call_ids(i, name, args)
            blocks.append(ToolCall(call_id, name, args))
        elif "text" in part:
            text = r.text(part.get("text"), ptr + "/text")
            blocks.append(Thinking(text, sig if isinstance(sig, str) else None) if part.get("thought") else Text(text))
    finish = str(cand.get("finishReason"))
    reason = _reason({"STOP": "stop", "MAX_TOKENS": "length", "SAFETY": "content_filter",
                      "RECITATION": "content_filter", "BLOCKLIST": "content_filter",
                      "PROHIBITED_CONTENT": "content_filter", "SPII": "content_filter",
                      "MALFORMED_FUNCTION_CALL": "error"}, finish)
    if reason == "stop" and any(isinstance(b, ToolCall) for b in blocks):
        reason = "tool_use"
    usage = r.obj(body.get("usageMetadata") or {}, "/usageMetadata")
    inp = r.count(usage, "promptTokenCount", "/usageMetadata")
    out = r.count(usage, "candidatesTokenCount", "/usageMetadata")  # excludes thoughts in the API
    thinking = r.count(usage, "thoughtsTokenCount", "/usageMetadata")
    total = r.count(usage, "totalTokenCount", "/usageMetadata") or inp + out + thinking
    data = {"thought_signatures": signatures} if signatures else {}
    return Response(tuple(blocks), reason, Usage(inp, out, thinking, total), body.get("modelVersion"), data)
