"""Canonical request → provider wire JSON (seed 004), with every piece a provider cannot carry reported
as a ``ContentLoss`` (pointer into the canonical request JSON). Tools go through ``convert()``, so
names are sanitised and schemas lowered exactly as ``toolcast convert`` does."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..convert import Conversion, convert
from ..errors import ToolcastError
from . import media as md
from .conversation import Media, Message, Request, Text, Thinking, ToolCall, ToolResult, is_base64
from .thinking import (
    DEFAULT_MODELS,
    anthropic_budget,
    anthropic_max_output,
    gemini_thinking,
    model_entry,
    model_provider,
    openai_effort,
)

#: Wire formats toolcast writes requests in.
REQUEST_TARGETS = ("anthropic", "openai", "openai-responses", "gemini", "mistral")
_MISTRAL_ID = re.compile(r"[A-Za-z0-9]{9}")


@dataclass(frozen=True)
class ContentLoss:
    target: str
    pointer: str  # into the canonical request JSON
    kind: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"target": self.target, "pointer": self.pointer, "kind": self.kind, "message": self.message}


@dataclass(frozen=True)
class WireRequest:
    target: str
    body: dict[str, Any]
    losses: tuple[ContentLoss, ...]
    tools: tuple[Conversion, ...]  # per request tool, for mapping tool calls back (``arguments``)


def _tool_name(conv: Conversion) -> str:
    out = conv.output
    name = out.get("function", {}).get("name") if "function" in out else out.get("name")
    return str(name)


class _Builder:
    def __init__(self, request: Request, target: str) -> None:
        self.request, self.target = request, target
        self.losses: list[ContentLoss] = []
        self.conversions = tuple(convert(t, target) for t in request.tools)
        self.names = {t.name: _tool_name(c) for t, c in zip(request.tools, self.conversions, strict=True)}
        self.call_names: dict[str, str] = {}  # call id -> provider tool name (Gemini function responses)

    def lose(self, pointer: str, kind: str, message: str) -> None:
        self.losses.append(ContentLoss(self.target, pointer, kind, message))

    def fit_output_limit(self, limit: int, budget: int, label: str) -> int:
        """The one policy for every provider that counts thinking inside its output limit (Anthropic
        ``max_tokens``, Gemini 2.5 ``maxOutputTokens``): a budget that does not fit below the limit
        raises the limit to budget + limit, so the requested output still fits after the thinking,
        and the raise is reported. (OpenAI and Mistral take an effort, not a number: nothing to fit.)"""
        if limit > budget:
            return limit
        self.lose("/max_output_tokens", "max_tokens", f"{label} raised from {limit} to {budget + limit}: "
                  f"the thinking budget ({budget}) is counted inside it")
        return budget + limit

    def mistral_id(self, original: str, pointer: str) -> str:
        """Mistral takes tool-call ids of exactly nine letters or digits: others are replaced by one
        derived from them (the same for a call and its result), and the replacement is reported."""
        if _MISTRAL_ID.fullmatch(original):
            return original
        digest = hashlib.sha256(original.encode("utf-8", "surrogatepass")).hexdigest()[:9]
        self.lose(pointer, "call_id", f"call id {original!r} is sent as {digest!r} (Mistral takes nine letters "
                  "or digits)")
        return digest

    def assistant_media(self, ptr: str, role: str, block: Any) -> bool:
        """Media in an assistant turn: no provider takes it back there (reported, True)."""
        if isinstance(block, Media) and role == "assistant":
            self.lose(ptr, "media", f"{self.target} takes images and documents from users and tools only; this "
                      f"{block.kind} in an assistant turn is left out")
            return True
        return False

    def name(self, call: ToolCall) -> str:
        return self.names.get(call.name, call.name)

    def system_text(self) -> str:
        return "\n\n".join(b.text for b in self.request.system)

    def blocks(self, i: int, message: Message) -> list[tuple[str, Any]]:
        return [(f"/messages/{i}/content/{j}", b) for j, b in enumerate(message.content)]


_OWNERS = {"anthropic": "an Anthropic", "openai": "an OpenAI", "gemini": "a Gemini", "mistral": "a Mistral"}


def to_wire(request: Request, target: str, *, model: str | None = None) -> WireRequest:
    """The request as ``target``'s API takes it: anthropic (Messages), openai (Chat Completions),
    openai-responses (Responses), gemini (generateContent) or mistral. ``model`` (``--model``) replaces
    the request's; without it, a request whose model belongs to another provider is sent for the
    target's default model (``DEFAULT_MODELS``), reported as a loss at ``/model``."""
    if target not in REQUEST_TARGETS:
        raise ToolcastError(f"unknown request target {target!r}; expected one of: {', '.join(REQUEST_TARGETS)}")
    family = "openai" if target == "openai-responses" else target
    owner = model_provider(request.model)
    notice = None
    if model is not None:
        request = replace(request, model=model)
    elif owner is not None and owner != family:
        notice = (f"{request.model!r} is {_OWNERS[owner]} model; sent for {DEFAULT_MODELS[target]!r}, "
                  f"{target}'s default (choose one with --model)")
        request = replace(request, model=DEFAULT_MODELS[target])
    b = _Builder(request, target)
    if notice is not None:
        b.lose("/model", "model", notice)
    body = {"anthropic": _anthropic, "openai": _openai_chat, "openai-responses": _openai_responses,
            "gemini": _gemini, "mistral": _mistral}[target](b)
    return WireRequest(target, body, tuple(b.losses), b.conversions)


def _anthropic(b: _Builder) -> dict[str, Any]:
    req = b.request
    out: dict[str, Any] = {"model": req.model}
    if req.system:
        out["system"] = b.system_text()  # seed 004: the text blocks, concatenated
    messages = []
    for i, m in enumerate(req.messages):
        content: list[dict[str, Any]] = []
        for ptr, block in b.blocks(i, m):
            if isinstance(block, Text):
                content.append({"type": "text", "text": block.text})
            elif isinstance(block, Thinking):
                if block.signature:
                    content.append({"type": "thinking", "thinking": block.text, "signature": block.signature})
                else:
                    b.lose(ptr, "thinking", "Anthropic takes back only signed thinking blocks; this one has no "
                           "signature and is left out")
            elif isinstance(block, ToolCall):
                content.append({"type": "tool_use", "id": block.id, "name": b.name(block), "input": block.arguments})
            elif isinstance(block, Media):
                if not b.assistant_media(ptr, m.role, block) and (part := md.anthropic(block, ptr, b.lose)):
                    content.append(part)
            else:
                result: dict[str, Any] = {"type": "tool_result", "tool_use_id": block.call_id,
                                          "content": _anthropic_result(b, ptr, block)}
                if block.is_error:
                    result["is_error"] = True
                content.append(result)
        messages.append({"role": m.role, "content": content})
    out["messages"] = messages
    limit = req.max_output_tokens or anthropic_max_output(req.model) or 4096
    if req.thinking != "none":
        budget = anthropic_budget(req.model, req.thinking)
        out["thinking"] = {"type": "enabled", "budget_tokens": budget}
        limit = b.fit_output_limit(limit, budget, "max_tokens")  # the API also needs max_tokens > budget
    out["max_tokens"] = limit
    if req.tools:
        out["tools"] = [c.output for c in b.conversions]
    return out


def _anthropic_result(b: _Builder, ptr: str, block: ToolResult) -> Any:
    if isinstance(block.content, str):
        return block.content
    parts: list[dict[str, Any]] = []
    for k, part in enumerate(block.content):
        if isinstance(part, Text):
            parts.append({"type": "text", "text": part.text})
        elif (converted := md.anthropic(part, f"{ptr}/content/{k}", b.lose)) is not None:
            parts.append(converted)
    return parts


def _text_only_result(b: _Builder, ptr: str, block: ToolResult, where: str) -> str:
    """Providers whose tool results hold text only: the media parts are reported and left out."""
    for k, part in enumerate(block.content if not isinstance(block.content, str) else ()):
        if isinstance(part, Media):
            b.lose(f"{ptr}/content/{k}", "media", f"{where} holds text only; this {part.kind} is left out")
    return block.text


def _mistral(b: _Builder) -> dict[str, Any]:
    """Chat Completions' shape, with ``max_tokens`` and tool-call ids of nine letters or digits."""
    out = _openai_chat(b, call_id=b.mistral_id)
    if "max_completion_tokens" in out:
        out["max_tokens"] = out.pop("max_completion_tokens")
    return out


def _openai_chat(b: _Builder, call_id: Callable[[str, str], str] | None = None) -> dict[str, Any]:
    req = b.request
    ids = call_id or (lambda original, ptr: original)
    messages: list[dict[str, Any]] = []
    if req.system:
        messages.append({"role": "system", "content": b.system_text()})
    for i, m in enumerate(req.messages):
        texts: list[str] = []
        parts: list[dict[str, Any]] = []  # user media, with the texts as text parts when there is any
        calls: list[dict[str, Any]] = []
        for ptr, block in b.blocks(i, m):
            if isinstance(block, Text):
                texts.append(block.text)
                parts.append({"type": "text", "text": block.text})
            elif isinstance(block, Media):
                if not b.assistant_media(ptr, m.role, block) and (
                        part := md.chat(block, ptr, b.lose, mistral=b.target == "mistral")):
                    parts.append(part)
            elif isinstance(block, Thinking):
                b.lose(ptr, "thinking", "Chat Completions has no thinking blocks; left out")
            elif isinstance(block, ToolCall):
                calls.append({"id": ids(block.id, ptr), "type": "function", "function": {
                    "name": b.name(block), "arguments": json.dumps(block.arguments, ensure_ascii=False)}})
            else:
                messages.append({"role": "tool", "tool_call_id": ids(block.call_id, ptr),
                                 "content": _text_only_result(b, ptr, block, f"a {b.target} tool message")})
        if m.role == "assistant":
            msg: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
            if calls:
                msg["tool_calls"] = calls
            if texts or calls:
                messages.append(msg)
        elif len(parts) > len(texts):
            messages.append({"role": "user", "content": parts})
        elif texts:
            messages.append({"role": "user", "content": "".join(texts)})
    out: dict[str, Any] = {"model": req.model, "messages": messages}
    if req.thinking != "none":  # "none" is left out: models without reasoning reject the parameter
        out["reasoning_effort"] = openai_effort(req.model, req.thinking)
    if req.max_output_tokens is not None:
        out["max_completion_tokens"] = req.max_output_tokens
    if req.tools:
        out["tools"] = [c.output for c in b.conversions]
    return out


def _openai_responses(b: _Builder) -> dict[str, Any]:
    req = b.request
    items: list[dict[str, Any]] = []
    for i, m in enumerate(req.messages):
        for ptr, block in b.blocks(i, m):
            if isinstance(block, Text):
                items.append({"role": m.role, "content": block.text})
            elif isinstance(block, Thinking):
                b.lose(ptr, "thinking", "Responses takes reasoning back only as its own reasoning items; left out")
            elif isinstance(block, ToolCall):
                items.append({"type": "function_call", "call_id": block.id, "name": b.name(block),
                              "arguments": json.dumps(block.arguments, ensure_ascii=False)})
            elif isinstance(block, Media):
                if not b.assistant_media(ptr, m.role, block):
                    items.append({"role": "user", "content": [md.responses(block)]})
            else:
                output: Any = block.content if isinstance(block.content, str) else [
                    {"type": "input_text", "text": p.text} if isinstance(p, Text) else md.responses(p)
                    for p in block.content]
                items.append({"type": "function_call_output", "call_id": block.call_id, "output": output})
    out: dict[str, Any] = {"model": req.model, "input": items}
    if req.system:
        out["instructions"] = b.system_text()
    if req.thinking != "none":
        out["reasoning"] = {"effort": openai_effort(req.model, req.thinking), "summary": "auto"}
    if req.max_output_tokens is not None:
        out["max_output_tokens"] = req.max_output_tokens
    if req.tools:
        out["tools"] = [c.output for c in b.conversions]
    return out


def _gemini(b: _Builder) -> dict[str, Any]:
    req = b.request
    contents: list[dict[str, Any]] = []
    for i, m in enumerate(req.messages):
        parts = [part for ptr, block in b.blocks(i, m) if (part := _gemini_part(b, ptr, m.role, block)) is not None]
        contents.append({"role": "model" if m.role == "assistant" else "user", "parts": parts})
    out: dict[str, Any] = {"model": req.model, "contents": contents}
    if req.system:
        out["systemInstruction"] = {"parts": [{"text": t.text} for t in req.system]}
    config = _gemini_config(b)
    if config:
        out["generationConfig"] = config
    if req.tools:
        out["tools"] = [{"functionDeclarations": [c.output for c in b.conversions]}]
    return out


def _gemini_part(b: _Builder, ptr: str, role: str, block: Any) -> dict[str, Any] | None:
    """One content block as a Gemini part (None when it is left out, reported)."""
    if isinstance(block, Text):
        return {"text": block.text}
    if isinstance(block, Thinking):
        return _signed(b, ptr, {"text": block.text, "thought": True}, block.signature, "the thinking block")
    if isinstance(block, ToolCall):
        b.call_names[block.id] = b.name(block)
        call = {"functionCall": {"id": block.id, "name": b.name(block), "args": block.arguments}}
        return _signed(b, ptr, call, block.signature, "the tool call")
    if isinstance(block, Media):
        if b.assistant_media(ptr, role, block):
            return None
        return md.gemini(block, ptr, b.lose)
    return {"functionResponse": _gemini_response(b, ptr, block)}


def _signed(b: _Builder, ptr: str, part: dict[str, Any], signature: str | None, what: str) -> dict[str, Any]:
    """``part`` with its thought signature, which Gemini takes only in base64 (another is dropped, reported)."""
    if signature and is_base64(signature):
        part["thoughtSignature"] = signature
    elif signature:
        b.lose(ptr, "signature", f"{what}'s signature is not a Gemini thought signature (base64); sent without it")
    return part


def _gemini_response(b: _Builder, ptr: str, block: ToolResult) -> dict[str, Any]:
    """A tool result as a function response, named after the call it answers (Gemini needs the name)."""
    name = b.call_names.get(block.call_id)
    if name is None:
        raise ToolcastError(f"gemini: the tool result at {ptr} answers call {block.call_id!r}, which no "
                            "earlier message makes (Gemini needs the function's name)")
    key = "error" if block.is_error else "content"
    response: dict[str, Any] = {"id": block.call_id, "name": name, "response": {key: block.text}}
    media = [(k, p) for k, p in enumerate(block.content) if isinstance(p, Media)] if not isinstance(
        block.content, str) else []
    converted = [md.gemini(p, f"{ptr}/content/{k}", b.lose) for k, p in media]
    if any(converted):  # multimodal function responses: media as the response's own parts
        response["parts"] = [c for c in converted if c]
    return response


def _gemini_config(b: _Builder) -> dict[str, Any]:
    """The generation config: the output limit and the thinking settings, fitted to each other."""
    req = b.request
    config: dict[str, Any] = {}
    if req.max_output_tokens is not None:
        config["maxOutputTokens"] = req.max_output_tokens
    if req.thinking != "none" or model_entry("gemini", req.model) is not None:
        # Seed 004: "none" is the model's minimum budget (0 turns thinking off on Flash, Pro keeps 128);
        # left out, Gemini 2.5 would think as much as it likes.
        thinking = gemini_thinking(req.model, req.thinking)
        if req.thinking == "none":
            thinking["includeThoughts"] = False
        level = thinking.get("thinkingLevel")
        if level is not None and level.lower() != req.thinking:
            b.lose("/thinking", "thinking", f"thinking {req.thinking!r} is sent as Gemini's level {level}")
        config["thinkingConfig"] = thinking
        budget = thinking.get("thinkingBudget")
        if req.max_output_tokens is not None and isinstance(budget, int):
            config["maxOutputTokens"] = b.fit_output_limit(req.max_output_tokens, budget, "maxOutputTokens")
    return config
