"""A recorded stream (server-sent events as the provider sends them, or a JSON list of the events) read into
the same canonical ``Response`` as the non-streamed answer: the events are folded back into the provider's
non-streamed body, which ``from_wire`` then reads, so both paths share one reader."""

from __future__ import annotations

import json
from typing import Any

from .conversation import MessageFormatError, Response
from .responses import RESPONSE_SOURCES, SOURCE_LABELS, CallIds, from_wire


def sse_events(text: str) -> list[Any]:
    """The JSON ``data`` of each event. SSE: events end at a blank line, ``data:`` lines join with a
    newline, ``event:``/``id:``/comment lines are skipped, OpenAI's ``[DONE]`` ends the stream. Text that
    starts with ``[`` is a JSON list of events (as the SDKs' event models dump)."""
    if text.lstrip().startswith("["):
        try:
            events = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MessageFormatError("stream", "", f"not JSON: {exc.msg} at character {exc.pos + 1}") from None
        if not isinstance(events, list):
            raise MessageFormatError("stream", "", "expected a list of events")
        return events
    out: list[Any] = []
    data: list[str] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate([*lines, ""], start=1):
        if line == "":
            if data and "\n".join(data) != "[DONE]":
                try:
                    out.append(json.loads("\n".join(data)))
                except json.JSONDecodeError as exc:
                    raise MessageFormatError("stream", f"line {number - 1}",
                                             f"event data is not JSON: {exc.msg}") from None
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    return out


def from_stream(text: str, source: str, *, call_ids: CallIds | None = None) -> Response:
    """The canonical response in a recorded ``source`` stream."""
    if source not in RESPONSE_SOURCES:
        raise MessageFormatError("stream", "", f"unknown source {source!r}; expected one of: "
                                 f"{', '.join(RESPONSE_SOURCES)}")
    events = sse_events(text)
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            raise MessageFormatError(f"{SOURCE_LABELS[source]} stream", f"event {i}", "expected an object")
        if isinstance(event.get("error"), dict) or event.get("type") == "error":
            # An error mid-stream is the provider's error body (Responses: the error's fields inline).
            # Responses' error event: {"type": "error", code, message, param}; "type" names the event there.
            body = event if isinstance(event.get("error"), dict) else {
                "error": {k: v for k, v in event.items() if k not in ("type", "sequence_number")}}
            return from_wire(body, source)
    fold = {"anthropic": _anthropic, "openai": _chat, "mistral": _chat, "openai-responses": _responses,
            "gemini": _gemini}[source]
    return from_wire(fold(events, SOURCE_LABELS[source] + " stream"), source, call_ids=call_ids)


def _anthropic(events: list[dict[str, Any]], where: str) -> dict[str, Any]:
    """message_start holds the message (and the input counts); content_block_start/delta/stop build each
    block (tool input as ``input_json_delta`` fragments); message_delta brings the stop reason and the
    cumulative output count."""
    body: dict[str, Any] | None = None
    for i, event in enumerate(events):
        kind = event.get("type")
        if kind == "message_start":
            body = dict(event.get("message") or {})
            body["content"] = []
            body["usage"] = dict(body.get("usage") or {})
            continue
        if kind in ("ping", "message_stop"):
            continue
        if body is None:
            raise MessageFormatError(where, f"event {i}", f"{kind} before message_start")
        if kind == "content_block_start":
            block = dict(event.get("content_block") or {})
            if block.get("type") == "tool_use":
                block["input"] = ""  # filled by input_json_delta; "" reads as {}
            _put(body["content"], event.get("index"), block, where, i)
        elif kind == "content_block_delta":
            block = _at(body["content"], event.get("index"), where, i)
            delta = event.get("delta") or {}
            field = {"text_delta": ("text", "text"), "thinking_delta": ("thinking", "thinking"),
                     "signature_delta": ("signature", "signature"),
                     "input_json_delta": ("input", "partial_json")}.get(str(delta.get("type")))
            if field is not None:
                block[field[0]] = str(block.get(field[0]) or "") + str(delta.get(field[1], ""))
        elif kind == "message_delta":
            body.update({k: v for k, v in (event.get("delta") or {}).items() if v is not None or k == "stop_sequence"})
            body["usage"].update({k: v for k, v in (event.get("usage") or {}).items() if v is not None})
    if body is None:
        raise MessageFormatError(where, "", "no message_start event")
    return body


def _put(blocks: list[Any], index: Any, block: Any, where: str, i: int) -> None:
    if not isinstance(index, int) or index < 0:
        raise MessageFormatError(where, f"event {i}", "expected a block index")
    blocks.extend({} for _ in range(index + 1 - len(blocks)))
    blocks[index] = block


def _at(blocks: list[Any], index: Any, where: str, i: int) -> dict[str, Any]:
    if not isinstance(index, int) or not 0 <= index < len(blocks) or not isinstance(blocks[index], dict):
        raise MessageFormatError(where, f"event {i}", "a delta for a block that was not started")
    block: dict[str, Any] = blocks[index]
    return block


def _chat(events: list[dict[str, Any]], where: str) -> dict[str, Any]:
    """Chat Completions (and Mistral) chunks: per choice, ``delta.content`` fragments and tool calls by
    their ``index`` (id and name in the first fragment, ``arguments`` in pieces); usage in the last chunk
    (OpenAI: with ``stream_options.include_usage``). Mistral's content may come as chunks, thinking ones
    included."""
    body: dict[str, Any] = {}
    choices: dict[int, dict[str, Any]] = {}
    for event in events:
        for key in ("id", "model", "created"):
            body.setdefault(key, event.get(key))
        if isinstance(event.get("usage"), dict):
            body["usage"] = event["usage"]
        for raw in event.get("choices") or []:
            index = raw.get("index", 0)
            state = choices.setdefault(index, {"text": "", "thinking": "", "calls": {}, "finish_reason": None})
            delta = raw.get("delta") or {}
            content = delta.get("content")
            chunks: list[Any] = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
            for chunk in chunks:
                if chunk.get("type") == "text":
                    state["text"] += str(chunk.get("text") or "")
                elif chunk.get("type") == "thinking":
                    state["thinking"] += "".join(str(p.get("text", "")) for p in chunk.get("thinking") or [])
            for k, call in enumerate(delta.get("tool_calls") or []):
                slot = state["calls"].setdefault(call.get("index", k), {"id": None, "name": None, "arguments": ""})
                fn = call.get("function") or {}
                slot["id"] = slot["id"] or call.get("id")
                slot["name"] = slot["name"] or fn.get("name")
                args = fn.get("arguments")
                slot["arguments"] += json.dumps(args) if isinstance(args, dict) else str(args or "")
            if raw.get("finish_reason") is not None:
                state["finish_reason"] = raw["finish_reason"]
    if not choices:
        raise MessageFormatError(where, "", "no chunk with choices")
    body["choices"] = [_chat_choice(index, state) for index, state in sorted(choices.items())]
    return body


def _chat_choice(index: int, state: dict[str, Any]) -> dict[str, Any]:
    content: Any = state["text"] or None
    if state["thinking"]:
        content = [{"type": "thinking", "thinking": [{"type": "text", "text": state["thinking"]}]},
                   {"type": "text", "text": state["text"]}]
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if state["calls"]:
        message["tool_calls"] = [{"id": c["id"], "type": "function", "function": {"name": c["name"],
                                                                                 "arguments": c["arguments"]}}
                                 for _, c in sorted(state["calls"].items())]
    return {"index": index, "message": message, "finish_reason": state["finish_reason"]}


def _responses(events: list[dict[str, Any]], where: str) -> dict[str, Any]:
    """Responses streams end with ``response.completed`` (or ``.incomplete`` / ``.failed``), which holds
    the whole response; the deltas before it say nothing more."""
    for event in reversed(events):
        if event.get("type") in ("response.completed", "response.incomplete", "response.failed"):
            response: dict[str, Any] = event.get("response") or {}
            return response
    raise MessageFormatError(where, "", "the stream ends without response.completed (or incomplete, failed)")


def _gemini(events: list[dict[str, Any]], where: str) -> dict[str, Any]:
    """Each chunk is a GenerateContentResponse holding the next parts; the last chunk has the finish
    reason and the usage. Text pieces of one kind (thought or not) are joined back into one part."""
    if not events:
        raise MessageFormatError(where, "", "no chunks")
    body: dict[str, Any] = {}
    candidates: dict[int, dict[str, Any]] = {}
    for event in events:
        for key in ("modelVersion", "responseId", "usageMetadata"):
            if event.get(key) is not None:
                body[key] = event[key]
        for c, raw in enumerate(event.get("candidates") or []):
            index = raw.get("index", c)
            cand = candidates.setdefault(index, {"index": index, "content": {"role": "model", "parts": []}})
            if raw.get("finishReason") is not None:
                cand["finishReason"] = raw["finishReason"]
            parts: list[dict[str, Any]] = cand["content"]["parts"]
            for part in (raw.get("content") or {}).get("parts") or []:
                last = parts[-1] if parts else None
                if (last is not None and "text" in part and "text" in last
                        and bool(last.get("thought")) == bool(part.get("thought"))):
                    last["text"] += part["text"]
                    if part.get("thoughtSignature"):
                        last["thoughtSignature"] = part["thoughtSignature"]
                else:
                    parts.append(dict(part))
    body["candidates"] = [cand for _, cand in sorted(candidates.items())]
    return body
