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

from .conversation import (
    Block,
    Choice,
    FinishReason,
    MessageFormatError,
    ProviderError,
    ProviderErrorResponse,
    Response,
    Text,
    Thinking,
    ToolCall,
    Usage,
)
from .provider_json import WireReader

RESPONSE_SOURCES = ("anthropic", "openai", "openai-responses", "gemini", "mistral")
SOURCE_LABELS = {"anthropic": "Anthropic", "openai": "OpenAI Chat Completions", "openai-responses": "OpenAI Responses",
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
    r = WireReader(f"{SOURCE_LABELS[source]} response")
    body = r.obj(value, "")
    error = provider_error(body, source)
    if error is not None:
        raise ProviderErrorResponse(error)
    if source == "anthropic":
        return _anthropic(r, body)
    if source in ("openai", "mistral"):  # Mistral answers in the Chat Completions shape
        return _openai_chat(r, body)
    if source == "openai-responses":
        return _openai_responses(r, body)
    return _gemini(r, body, call_ids or stable_call_id)


def provider_error(body: dict[str, Any], source: str) -> ProviderError | None:
    """The error in an error body, or None for a response. A Responses object that failed also holds
    ``error`` but is a response (finish reason "error"), so only bodies without ``output`` count."""
    inner = body.get("error")
    if isinstance(inner, dict) and "output" not in body:
        # Anthropic {"type": "error", "error": {type, message}}; OpenAI {"error": {message, type, param, code}};
        # Gemini {"error": {code, message, status}}
        kind = inner.get("type") or inner.get("status") or inner.get("code") or "error"
        return ProviderError(SOURCE_LABELS[source], str(kind), _message(inner.get("message")),
                             None if inner.get("code") is None else str(inner["code"]),
                             None if inner.get("param") is None else str(inner["param"]))
    if body.get("object") == "error" or (set(body) == {"detail"}):  # Mistral's flat body; its 422 {"detail"}
        kind = body.get("type") or ("validation_error" if "detail" in body else "error")
        return ProviderError(SOURCE_LABELS[source], str(kind), _message(body.get("message", body.get("detail"))),
                             None if body.get("code") is None else str(body["code"]),
                             None if body.get("param") is None else str(body["param"]))
    return None


def _message(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


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
    reason = _reason({"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_use",
                      "refusal": "content_filter"}, body.get("stop_reason"))
    return Response(tuple(blocks), reason, anthropic_usage(r, body.get("usage") or {}), body.get("model"))


def anthropic_usage(r: WireReader, value: Any) -> Usage:
    """``input_tokens`` is only the uncached input after the last cache breakpoint: the input processed
    adds the cache reads and writes. ``output_tokens`` includes thinking; the split is reported only in
    ``output_tokens_details.thinking_tokens`` (newer API versions), else it is unknown (None)."""
    usage = r.obj(value, "/usage")
    read = r.count(usage, "cache_read_input_tokens", "/usage")
    write = r.count(usage, "cache_creation_input_tokens", "/usage")
    inp = r.count(usage, "input_tokens", "/usage") + read + write
    out = r.count(usage, "output_tokens", "/usage")
    details = r.obj(usage.get("output_tokens_details") or {}, "/usage/output_tokens_details")
    thinking = r.maybe_count(details, "thinking_tokens", "/usage/output_tokens_details")
    seed = r.maybe_count(usage, "thinking_tokens", "/usage")
    if thinking is None and seed is not None:  # seed 004's example: a separate count, outside output_tokens
        thinking, out = seed, out + seed
    return Usage(inp, out, inp + out, read, write, thinking)


def _chat_choice(r: WireReader, raw: Any, i: int) -> Choice:
    choice = r.obj(raw, f"/choices/{i}")
    index = choice.get("index", i)
    message = r.obj(choice.get("message"), f"/choices/{i}/message")
    blocks: list[Block] = []
    content = message.get("content")
    if isinstance(content, str) and content:
        blocks.append(Text(content))
    elif isinstance(content, list):  # Mistral: chunks, "thinking" ones from reasoning models
        for j, chunk_value in enumerate(content):
            chunk = r.obj(chunk_value, f"/choices/{i}/message/content/{j}")
            if chunk.get("type") == "text":
                blocks.append(Text(r.text(chunk.get("text"), f"/choices/{i}/message/content/{j}/text")))
            elif chunk.get("type") == "thinking":
                parts = chunk.get("thinking") or []
                text = "".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))
                blocks.append(Thinking(text, chunk.get("signature") or None))
    for k, raw_call in enumerate(message.get("tool_calls") or []):
        ptr = f"/choices/{i}/message/tool_calls/{k}"
        call = r.obj(raw_call, ptr)
        fn = r.obj(call.get("function"), ptr + "/function")
        blocks.append(ToolCall(r.text(call.get("id"), ptr + "/id"), r.text(fn.get("name"), ptr + "/function/name"),
                               r.arguments(fn.get("arguments"), ptr + "/function/arguments")))
    reason = _reason({"stop": "stop", "length": "length", "tool_calls": "tool_use", "function_call": "tool_use",
                      "content_filter": "content_filter"}, choice.get("finish_reason"))
    return Choice(index if isinstance(index, int) else i, tuple(blocks), reason)


def _openai_chat(r: WireReader, body: dict[str, Any]) -> Response:
    raw_choices = r.arr(body.get("choices"), "/choices")
    if not raw_choices:
        raise r.fail("/choices", "no choices")
    choices = sorted((_chat_choice(r, c, i) for i, c in enumerate(raw_choices)), key=lambda c: c.index)
    first = choices[0]
    return Response(first.content, first.finish_reason, chat_usage(r, body.get("usage") or {}), body.get("model"),
                    choices=tuple(choices[1:]))


def chat_usage(r: WireReader, value: Any) -> Usage:
    """Chat Completions (and Mistral): ``prompt_tokens`` includes the cached part, ``completion_tokens``
    the reasoning part; a missing details object means the split is not reported."""
    usage = r.obj(value, "/usage")
    prompt = r.obj(usage.get("prompt_tokens_details") or {}, "/usage/prompt_tokens_details")
    details = r.obj(usage.get("completion_tokens_details") or {}, "/usage/completion_tokens_details")
    inp = r.count(usage, "prompt_tokens", "/usage")
    out = r.count(usage, "completion_tokens", "/usage")
    return Usage(inp, out, r.count(usage, "total_tokens", "/usage") or inp + out,
                 r.count(prompt, "cached_tokens", "/usage/prompt_tokens_details"),
                 r.count(prompt, "cache_write_tokens", "/usage/prompt_tokens_details"),
                 r.maybe_count(details, "reasoning_tokens", "/usage/completion_tokens_details"))


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
    usage_value = body.get("usage") or {}
    data: dict[str, Any] = {"reasoning_ids": reasoning_ids} if reasoning_ids else {}
    if isinstance(body.get("error"), dict):
        data["error"] = body["error"]
    return Response(tuple(blocks), reason, responses_usage(r, usage_value), body.get("model"), data)


def responses_usage(r: WireReader, value: Any) -> Usage:
    """Responses: ``input_tokens`` includes ``input_tokens_details.cached_tokens``, ``output_tokens``
    includes ``output_tokens_details.reasoning_tokens``."""
    usage = r.obj(value, "/usage")
    if "input_tokens" not in usage and "output_tokens" not in usage:
        return chat_usage(r, usage)  # seed 004's example uses the Chat Completions names
    inp = r.count(usage, "input_tokens", "/usage")
    out = r.count(usage, "output_tokens", "/usage")
    prompt = r.obj(usage.get("input_tokens_details") or {}, "/usage/input_tokens_details")
    details = r.obj(usage.get("output_tokens_details") or {}, "/usage/output_tokens_details")
    return Usage(inp, out, r.count(usage, "total_tokens", "/usage") or inp + out,
                 r.count(prompt, "cached_tokens", "/usage/input_tokens_details"),
                 r.count(prompt, "cache_write_tokens", "/usage/input_tokens_details"),
                 r.maybe_count(details, "reasoning_tokens", "/usage/output_tokens_details"))


def _gemini_candidate(r: WireReader, raw: Any, c: int, call_ids: CallIds,
                      signatures: list[str]) -> Choice:
    cand = r.obj(raw, f"/candidates/{c}")
    content = r.obj(cand.get("content") or {"parts": []}, f"/candidates/{c}/content")
    blocks: list[Block] = []
    for i, part_value in enumerate(r.arr(content.get("parts") or [], f"/candidates/{c}/content/parts")):
        ptr = f"/candidates/{c}/content/parts/{i}"
        part = r.obj(part_value, ptr)
        sig_value = part.get("thoughtSignature")
        sig = sig_value if isinstance(sig_value, str) else None
        if sig is not None:
            signatures.append(sig)
        if isinstance(part.get("functionCall"), dict):
            fc = part["functionCall"]
            name = r.text(fc.get("name"), ptr + "/functionCall/name")
            args = r.arguments(fc.get("args") or {}, ptr + "/functionCall/args")
            call_id = fc.get("id") if isinstance(fc.get("id"), str) and fc.get("id") else call_ids(i, name, args)
            blocks.append(ToolCall(call_id, name, args, sig))  # Gemini 3 wants the signature back on this part
        elif "text" in part:
            text = r.text(part.get("text"), ptr + "/text")
            blocks.append(Thinking(text, sig) if part.get("thought") else Text(text))
    reason = _reason({"STOP": "stop", "MAX_TOKENS": "length", "SAFETY": "content_filter",
                      "RECITATION": "content_filter", "BLOCKLIST": "content_filter",
                      "PROHIBITED_CONTENT": "content_filter", "SPII": "content_filter",
                      "MALFORMED_FUNCTION_CALL": "error"}, str(cand.get("finishReason")))
    if reason == "stop" and any(isinstance(b, ToolCall) for b in blocks):
        reason = "tool_use"
    index = cand.get("index", c)
    return Choice(index if isinstance(index, int) else c, tuple(blocks), reason)


def _gemini(r: WireReader, body: dict[str, Any], call_ids: CallIds) -> Response:
    raw = r.arr(body.get("candidates"), "/candidates")
    if not raw:
        raise r.fail("/candidates", "no candidates")
    signatures: list[str] = []
    choices = sorted((_gemini_candidate(r, c, i, call_ids, signatures) for i, c in enumerate(raw)),
                     key=lambda ch: ch.index)
    data = {"thought_signatures": signatures} if signatures else {}
    return Response(choices[0].content, choices[0].finish_reason, gemini_usage(r, body.get("usageMetadata") or {}),
                    body.get("modelVersion"), data, tuple(choices[1:]))


def gemini_usage(r: WireReader, value: Any) -> Usage:
    """``promptTokenCount`` includes ``cachedContentTokenCount``; ``candidatesTokenCount`` excludes
    ``thoughtsTokenCount``; ``toolUsePromptTokenCount`` is input outside the prompt count. Zero counts
    are left out of the JSON (proto3), so a missing count is 0."""
    usage = r.obj(value, "/usageMetadata")
    inp = r.count(usage, "promptTokenCount", "/usageMetadata") + r.count(usage, "toolUsePromptTokenCount",
                                                                          "/usageMetadata")
    thinking = r.count(usage, "thoughtsTokenCount", "/usageMetadata")
    out = r.count(usage, "candidatesTokenCount", "/usageMetadata") + thinking
    return Usage(inp, out, r.count(usage, "totalTokenCount", "/usageMetadata") or inp + out,
                 r.count(usage, "cachedContentTokenCount", "/usageMetadata"), 0, thinking)
