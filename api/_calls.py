"""``map_call_back``: one tool call from a model's response, as the tool it calls defined it. The call is read by
the core's response reader and mapped by ``map_calls``, exactly as ``toolcast response --tools`` does."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolcast.adapters.errors import ConversionError
from toolcast.adapters.mapped_call import CallProblem, MappedCall
from toolcast.adapters.messages import RESPONSE_SOURCES, MessageFormatError, ToolCall, ToolSet, from_wire, map_calls

from ._adapt import Adapted, AdaptedList
from ._inputs import plain_json


def map_call_back(call: Any, tools: Adapted | AdaptedList | Iterable[Adapted], *,
                  source: str | None = None) -> MappedCall:
    """``call``, one tool call as the provider returned it (a dict or an SDK object): an Anthropic ``tool_use``
    block, an OpenAI or Mistral Chat ``tool_calls`` item, a Responses ``function_call`` item, a Gemini
    ``functionCall`` part or ``FunctionCall``. ``tools``: what ``adapt_all`` (or ``adapt``) gave for the request.
    ``source`` names the provider when the call's shape does not say it (detected otherwise)."""
    value = plain_json(call, source or "auto")
    kind = source or _source_of(value)
    kind = "gemini" if kind == "gemini-json" else kind  # both Gemini routes answer with the same calls
    if kind not in RESPONSE_SOURCES:
        raise ConversionError(kind, "to_canonical", f"unknown source; expected one of: {', '.join(RESPONSE_SOURCES)}")
    body, prefix = _as_response(value, kind)
    sent = _sent(tools)
    try:
        response = from_wire(body, kind)
    except MessageFormatError as exc:  # the place in the call, not in the response built around it
        pointer = exc.pointer.removeprefix(prefix)
        text = str(exc).removeprefix(f"{exc.where}: ").removesuffix(f" (at {exc.pointer or '/'})")
        raise ConversionError(kind, "to_canonical", f"tool call: {text}", pointer, cause=exc) from exc
    mapped, problems = map_calls(response, ToolSet(tuple(a._tool for a in sent), tuple(a._conversion for a in sent)))
    calls = [b for b in mapped.content if isinstance(b, ToolCall)]
    if len(calls) != 1:
        raise ConversionError(kind, "to_canonical", f"not a tool call of a {kind} response")
    found = calls[0]
    return MappedCall(found.id, found.name, found.arguments,
                      tuple(CallProblem(p.pointer, p.message) for p in problems))


def _sent(tools: Adapted | AdaptedList | Iterable[Adapted]) -> tuple[Adapted, ...]:
    """The tools as sent: their conversions hold the wire names and round-trip records the call is mapped with."""
    sent = (tools,) if isinstance(tools, Adapted) else tuple(tools.tools if isinstance(tools, AdaptedList) else tools)
    for item in sent:
        if not isinstance(item, Adapted):
            raise TypeError(f"tools: expected what adapt or adapt_all returned, found {type(item).__name__}")
    return sent


def _source_of(value: Any) -> str:
    if isinstance(value, dict):
        if value.get("type") == "tool_use":
            return "anthropic"
        if value.get("type") == "function_call":
            return "openai-responses"
        if isinstance(value.get("function"), dict):
            return "openai"  # Mistral's calls have the same shape and are read the same way
        if isinstance(value.get("functionCall"), dict) or ("name" in value and "args" in value):
            return "gemini"
    raise ConversionError("auto", "to_canonical", "not a tool call toolcast recognises: expected an Anthropic "
                          "`tool_use` block, an OpenAI/Mistral `tool_calls` item, a Responses `function_call` item "
                          "or a Gemini `functionCall` (or pass source=)")


def _as_response(call: Any, source: str) -> tuple[dict[str, Any], str]:
    """The smallest ``source`` response holding ``call``, and the pointer of the call in it."""
    if source == "anthropic":
        return {"content": [call]}, "/content/0"
    if source == "openai-responses":
        return {"output": [call]}, "/output/0"
    if source == "gemini":  # a part ({"functionCall": ...}) or the call alone (the SDK's FunctionCall)
        part, where = (call, "") if isinstance(call, dict) and "functionCall" in call else ({"functionCall": call},
                                                                                             "/functionCall")
        return {"candidates": [{"content": {"parts": [part]}}]}, "/candidates/0/content/parts/0" + where
    return {"choices": [{"index": 0, "message": {"tool_calls": [call]}}]}, "/choices/0/message/tool_calls/0"


__all__ = ["CallProblem", "MappedCall", "map_call_back"]
