"""Provider request JSON → canonical ``Request``: the inverse of ``to_wire``, so a request written for one
provider can be read back (and re-targeted), and a round trip shows what each provider keeps.
Thinking settings map back to the level whose budget, effort or Gemini level they equal."""

from __future__ import annotations

import json
from typing import Any

from ..canonical import CanonicalTool
from ..loading import load_tools
from . import media as md
from .conversation import (
    THINKING_LEVELS,
    Block,
    Media,
    Message,
    MessageFormatError,
    Request,
    Text,
    Thinking,
    ThinkingLevel,
    ToolCall,
    ToolResult,
)
from .provider_json import WireReader
from .responses import stable_call_id
from .thinking import budget_tokens, model_entry, openai_effort


def request_from_wire(value: Any, source: str) -> Request:
    """The canonical request in ``source``'s request JSON (anthropic, openai, openai-responses, gemini,
    mistral)."""
    r = WireReader(f"{source} request")
    body = r.obj(value, "")
    model = r.text(body.get("model"), "/model")
    if source == "anthropic":
        return _anthropic(r, body, model)
    if source in ("openai", "mistral"):
        return _chat(r, body, model, "max_tokens" if source == "mistral" else "max_completion_tokens")
    if source == "openai-responses":
        return _responses(r, body, model)
    if source == "gemini":
        return _gemini(r, body, model)
    raise MessageFormatError("request", "", f"unknown source {source!r}")


def _tools(r: WireReader, value: Any, pointer: str) -> tuple[CanonicalTool, ...]:
    if not value:
        return ()
    try:
        return tuple(lt.tool for lt in load_tools(value))
    except Exception as exc:
        raise r.fail(pointer, f"tools do not load: {exc}") from None


def _grouped(blocks: list[tuple[str, Block]]) -> tuple[Message, ...]:
    """Consecutive blocks of one role as one message."""
    out: list[Message] = []
    for role, block in blocks:
        if out and out[-1].role == role:
            out[-1] = Message(out[-1].role, (*out[-1].content, block))
        else:
            out.append(Message("assistant" if role == "assistant" else "user", (block,)))
    return tuple(out)


def _result_content(r: WireReader, value: Any, pointer: str, text_key: str = "text") -> str | tuple[Text | Media, ...]:
    """A tool result's content: a string, or text and media parts (the provider's part shapes)."""
    if not isinstance(value, list):
        return r.text(value, pointer)
    parts: list[Text | Media] = []
    for k, raw in enumerate(value):
        part = r.obj(raw, f"{pointer}/{k}")
        media = md.from_part(part)
        if media is not None:
            parts.append(media)
        elif isinstance(part.get(text_key), str):
            parts.append(Text(part[text_key]))
    if all(isinstance(p, Text) for p in parts):
        return "".join(p.text for p in parts if isinstance(p, Text))
    return tuple(parts)


def _level_from_budget(minimum: int, maximum: int, budget: int) -> ThinkingLevel:
    return min(THINKING_LEVELS, key=lambda lv: abs(budget_tokens(minimum, maximum, lv) - budget))


def _anthropic(r: WireReader, body: dict[str, Any], model: str) -> Request:
    system_value = body.get("system", "")
    if isinstance(system_value, list):
        system = tuple(Text(r.text(r.obj(b, f"/system/{i}").get("text"), f"/system/{i}/text"))
                       for i, b in enumerate(system_value))
    else:
        system = (Text(r.text(system_value, "/system")),) if system_value else ()
    blocks: list[tuple[str, Block]] = []
    for i, m in enumerate(r.arr(body.get("messages"), "/messages")):
        m = r.obj(m, f"/messages/{i}")
        role = m.get("role")
        content = m.get("content")
        if isinstance(content, str):
            blocks.append((str(role), Text(content)))
            continue
        for j, raw in enumerate(r.arr(content, f"/messages/{i}/content")):
            ptr = f"/messages/{i}/content/{j}"
            b = r.obj(raw, ptr)
            kind = b.get("type")
            if kind == "text":
                blocks.append((str(role), Text(r.text(b.get("text"), ptr + "/text"))))
            elif kind == "thinking":
                blocks.append((str(role), Thinking(r.text(b.get("thinking"), ptr + "/thinking"), b.get("signature"))))
            elif kind == "tool_use":
                blocks.append((str(role), ToolCall(r.text(b.get("id"), ptr + "/id"),
                                                   r.text(b.get("name"), ptr + "/name"),
                                                   r.arguments(b.get("input", {}), ptr + "/input"))))
            elif kind == "tool_result":
                blocks.append((str(role), ToolResult(r.text(b.get("tool_use_id"), ptr + "/tool_use_id"),
                                                     _result_content(r, b.get("content", ""), ptr + "/content"),
                                                     bool(b.get("is_error", False)))))
            elif (media := md.from_part(b)) is not None:
                blocks.append((str(role), media))
    thinking: ThinkingLevel = "none"
    config = body.get("thinking")
    entry = model_entry("anthropic", model)
    if isinstance(config, dict) and config.get("type") == "enabled" and entry is not None:
        thinking = _level_from_budget(entry["budget"]["min"], entry["budget"]["max"], int(config["budget_tokens"]))
    limit = body.get("max_tokens")
    return Request(model, _grouped(blocks), system, _tools(r, body.get("tools"), "/tools"), thinking,
                   limit if isinstance(limit, int) else None)


def _level_from_effort(model: str, effort: Any) -> ThinkingLevel:
    for level in THINKING_LEVELS:
        if openai_effort(model, level) == effort:
            return level
    return "low" if effort == "minimal" else "high" if effort in ("xhigh", "max") else "none"


def _chat(r: WireReader, body: dict[str, Any], model: str, limit_key: str) -> Request:
    system: list[Text] = []
    blocks: list[tuple[str, Block]] = []
    for i, raw in enumerate(r.arr(body.get("messages"), "/messages")):
        ptr = f"/messages/{i}"
        m = r.obj(raw, ptr)
        role = m.get("role")
        content = m.get("content")
        if role in ("system", "developer"):
            system.append(Text(r.text(content, ptr + "/content")))
        elif role == "tool":
            blocks.append(("user", ToolResult(r.text(m.get("tool_call_id"), ptr + "/tool_call_id"),
                                              _result_content(r, content, ptr + "/content"))))
        else:
            if isinstance(content, str) and content:
                blocks.append((str(role), Text(content)))
            for k, part in enumerate(content if isinstance(content, list) else []):
                part = r.obj(part, f"{ptr}/content/{k}")
                media = md.from_part(part)
                blocks.append((str(role), media if media is not None else Text(str(part.get("text", "")))))
            for j, call in enumerate(m.get("tool_calls") or []):
                cptr = f"{ptr}/tool_calls/{j}"
                fn = r.obj(r.obj(call, cptr).get("function"), cptr + "/function")
                args = r.arguments(fn.get("arguments", "{}"), cptr + "/function/arguments")
                blocks.append((str(role), ToolCall(r.text(call.get("id"), cptr + "/id"),
                                                   r.text(fn.get("name"), cptr + "/function/name"), args)))
    limit = body.get(limit_key)
    return Request(model, _grouped(blocks), tuple(system), _tools(r, body.get("tools"), "/tools"),
                   _level_from_effort(model, body.get("reasoning_effort")), limit if isinstance(limit, int) else None)


def _responses(r: WireReader, body: dict[str, Any], model: str) -> Request:
    blocks: list[tuple[str, Block]] = []
    for i, raw in enumerate(r.arr(body.get("input", []), "/input")):
        ptr = f"/input/{i}"
        item = r.obj(raw, ptr)
        kind = item.get("type", "message")
        if kind == "message":
            content = item.get("content")
            if isinstance(content, list):
                for k, part in enumerate(content):
                    part = r.obj(part, f"{ptr}/content/{k}")
                    media = md.from_part(part)
                    block: Block = media if media is not None else Text(str(part.get("text", "")))
                    blocks.append((str(item.get("role")), block))
            else:
                blocks.append((str(item.get("role")), Text(r.text(content, ptr + "/content"))))
        elif kind == "function_call":
            blocks.append(("assistant", ToolCall(r.text(item.get("call_id"), ptr + "/call_id"),
                                                 r.text(item.get("name"), ptr + "/name"),
                                                 r.arguments(item.get("arguments", "{}"), ptr + "/arguments"))))
        elif kind == "function_call_output":
            blocks.append(("user", ToolResult(r.text(item.get("call_id"), ptr + "/call_id"),
                                              _result_content(r, item.get("output"), ptr + "/output"))))
    instructions = body.get("instructions")
    reasoning_value = body.get("reasoning")
    reasoning: dict[str, Any] = reasoning_value if isinstance(reasoning_value, dict) else {}
    limit = body.get("max_output_tokens")
    return Request(model, _grouped(blocks), (Text(instructions),) if isinstance(instructions, str) else (),
                   _tools(r, body.get("tools"), "/tools"), _level_from_effort(model, reasoning.get("effort")),
                   limit if isinstance(limit, int) else None)


def _gemini(r: WireReader, body: dict[str, Any], model: str) -> Request:
    system_value = body.get("systemInstruction") or {}
    system = tuple(Text(r.text(p.get("text"), f"/systemInstruction/parts/{i}/text"))
                   for i, p in enumerate(r.arr(r.obj(system_value, "/systemInstruction").get("parts", []),
                                               "/systemInstruction/parts")))
    blocks: list[tuple[str, Block]] = []
    for i, raw in enumerate(r.arr(body.get("contents"), "/contents")):
        c = r.obj(raw, f"/contents/{i}")
        role = "assistant" if c.get("role") == "model" else "user"
        for j, part_value in enumerate(r.arr(c.get("parts", []), f"/contents/{i}/parts")):
            ptr = f"/contents/{i}/parts/{j}"
            part = r.obj(part_value, ptr)
            if isinstance(part.get("functionCall"), dict):
                fc = part["functionCall"]
                name = r.text(fc.get("name"), ptr + "/functionCall/name")
                args = r.arguments(fc.get("args", {}), ptr + "/functionCall/args")
                blocks.append((role, ToolCall(fc.get("id") or stable_call_id(j, name, args), name, args,
                                              part.get("thoughtSignature"))))
            elif isinstance(part.get("functionResponse"), dict):
                fr = part["functionResponse"]
                response = r.obj(fr.get("response", {}), ptr + "/functionResponse/response")
                error = "error" in response and "content" not in response
                text = response.get("error" if error else "content", json.dumps(response, ensure_ascii=False))
                media = [m for p in fr.get("parts") or [] if isinstance(p, dict) and (m := md.from_part(p))]
                content: str | tuple[Text | Media, ...] = (Text(str(text)), *media) if media else str(text)
                blocks.append((role, ToolResult(str(fr.get("id") or fr.get("name")), content, error)))
            elif (inline := md.from_part(part)) is not None:
                blocks.append((role, inline))
            elif "text" in part:
                text = r.text(part.get("text"), ptr + "/text")
                thought = part.get("thought")
                blocks.append((role, Thinking(text, part.get("thoughtSignature")) if thought else Text(text)))
    config = r.obj(body.get("generationConfig") or {}, "/generationConfig")
    thinking_config = config.get("thinkingConfig") if isinstance(config.get("thinkingConfig"), dict) else None
    level: ThinkingLevel = "none"
    entry = model_entry("gemini", model)
    if thinking_config is not None and entry is not None:
        if "thinkingLevel" in thinking_config:
            level = "high" if str(thinking_config["thinkingLevel"]).upper() == "HIGH" else "low"
        elif "thinkingBudget" in thinking_config and "budget" in entry:
            level = _level_from_budget(entry["budget"]["min"], entry["budget"]["max"],
                                       int(thinking_config["thinkingBudget"]))
    tools: list[Any] = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            tools.extend(tool.get("functionDeclarations") or [])
    limit = config.get("maxOutputTokens")
    return Request(model, _grouped(blocks), system, _tools(r, [{"functionDeclarations": tools}] if tools else [],
                                                           "/tools"), level, limit if isinstance(limit, int) else None)
