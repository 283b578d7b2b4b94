"""The canonical conversation: a request (system prompt, messages of content blocks, tools, thinking
level, output limit, model) and a response (content blocks, finish reason, usage, provider data).

The JSON form (``request_from_json`` / ``request_to_json``) is the ``*.request.json`` file format:

    {"model": "claude-sonnet-4-5", "system": "You are helpful", "thinking": "medium",
     "max_output_tokens": 4096, "tools": [<tool in any shape toolcast reads>],
     "messages": [{"role": "user", "content": "Hello"},
                  {"role": "assistant", "content": [{"type": "thinking", "text": "..."},
                                                    {"type": "tool_call", "id": "c1", "name": "read_file",
                                                     "arguments": {"path": "/etc/hosts"}}]},
                  {"role": "user", "content": [{"type": "tool_result", "call_id": "c1", "content": "..."}]}]}

Tool calls may carry a ``signature`` (Gemini thought signature); user turns and tool results may hold
``{"type": "image" | "document", "url": ...}`` or ``{..., "data": <base64>, "media_type": "image/png"}``
(a tool result's ``content`` is then a list of text, image and document blocks).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any, Literal

from ..canonical import CanonicalTool
from ..errors import ToolcastError
from ..loading import load_tools

ThinkingLevel = Literal["none", "low", "medium", "high"]
THINKING_LEVELS: tuple[ThinkingLevel, ...] = ("none", "low", "medium", "high")
FinishReason = Literal["stop", "length", "tool_use", "content_filter", "error", "other"]
Role = Literal["user", "assistant"]
MediaKind = Literal["image", "document"]


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Thinking:
    """Model reasoning. ``signature`` is the provider's opaque token for it (Anthropic's signature,
    Gemini's thought signature), needed to send it back."""

    text: str
    signature: str | None = None


@dataclass(frozen=True)
class ToolCall:
    """``signature``: Gemini's thought signature on the function-call part, which Gemini 3 needs back."""

    id: str
    name: str
    arguments: dict[str, Any]
    signature: str | None = None


@dataclass(frozen=True)
class Media:
    """An image or a document (PDF, …) by ``url`` or as base64 ``data`` with its ``media_type``, in a
    user turn or a tool result (MCP tools return images and documents)."""

    kind: MediaKind
    url: str | None = None
    data: str | None = None
    media_type: str | None = None

    def data_url(self) -> str:
        """The ``data:`` URL OpenAI and Mistral take for base64 content."""
        return self.url if self.url is not None else f"data:{self.media_type};base64,{self.data}"


@dataclass(frozen=True)
class ToolResult:
    """``content``: a string, or text and media parts."""

    call_id: str
    content: str | tuple[Text | Media, ...]
    is_error: bool = False

    @property
    def text(self) -> str:
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text for p in self.content if isinstance(p, Text))

    @property
    def media(self) -> tuple[Media, ...]:
        return () if isinstance(self.content, str) else tuple(p for p in self.content if isinstance(p, Media))


Block = Text | Thinking | ToolCall | ToolResult | Media


@dataclass(frozen=True)
class Message:
    role: Role
    content: tuple[Block, ...]


@dataclass(frozen=True)
class Request:
    model: str
    messages: tuple[Message, ...]
    system: tuple[Text, ...] = ()
    tools: tuple[CanonicalTool, ...] = ()
    thinking: ThinkingLevel = "none"
    max_output_tokens: int | None = None


@dataclass(frozen=True)
class Usage:
    """Token counts with one meaning whatever the provider (the table in docs/design.md says which
    provider field fills each). The parts are included in their wholes: ``cache_read_tokens`` and
    ``cache_write_tokens`` in ``input_tokens``, ``thinking_tokens`` in ``output_tokens``."""

    input_tokens: int = 0  # all input the model processed: uncached + cache reads + cache writes
    output_tokens: int = 0  # all output generated, thinking included (thinking is billed as output)
    total_tokens: int = 0  # input + output, or the provider's own total when it reports one
    cache_read_tokens: int = 0  # input served from the provider's cache
    cache_write_tokens: int = 0  # input written to the cache (Anthropic bills it at a premium)
    thinking_tokens: int | None = None  # the thinking part of the output; None: the provider does not say


@dataclass(frozen=True)
class Choice:
    """One more completion of the same request (OpenAI ``n`` > 1, Gemini ``candidateCount`` > 1)."""

    index: int
    content: tuple[Block, ...]
    finish_reason: FinishReason


@dataclass(frozen=True)
class Response:
    content: tuple[Block, ...]  # the first choice
    finish_reason: FinishReason
    usage: Usage  # for all choices together: providers report one usage per response
    model: str | None = None
    provider_data: dict[str, Any] = field(default_factory=dict)
    choices: tuple[Choice, ...] = ()  # the other choices, after the first


@dataclass(frozen=True)
class ProviderError:
    """A provider's error body (Anthropic ``{"type": "error", "error": {...}}``, OpenAI, Gemini and
    Mistral ``{"error": {...}}``): who answered, the provider's error type (or status) and message."""

    provider: str
    type: str
    message: str
    code: str | None = None  # OpenAI ``code``, Gemini's HTTP ``code``
    param: str | None = None  # OpenAI: the request parameter at fault

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"provider": self.provider, "type": self.type, "message": self.message}
        if self.code is not None:
            out["code"] = self.code
        if self.param is not None:
            out["param"] = self.param
        return out


class ProviderErrorResponse(ToolcastError):
    """Raised for a response that is a provider's error body rather than a response."""

    def __init__(self, error: ProviderError) -> None:
        super().__init__(f"{error.provider} returned an error: {error.type}: {error.message}")
        self.error = error


class MessageFormatError(ToolcastError):
    """A request file or a provider response that does not have the expected shape."""

    def __init__(self, where: str, pointer: str, message: str) -> None:
        super().__init__(f"{where}: {message} (at {pointer or '/'})")
        self.where, self.pointer = where, pointer


def _need(cond: bool, pointer: str, message: str) -> None:
    if not cond:
        raise MessageFormatError("request", pointer, message)


def _block_from_json(value: Any, ptr: str) -> Block:
    _need(isinstance(value, dict), ptr, "a content block must be an object")
    kind = value.get("type")
    if kind == "text":
        _need(isinstance(value.get("text"), str), ptr + "/text", "`text` must be a string")
        return Text(value["text"])
    if kind == "thinking":
        _need(isinstance(value.get("text"), str), ptr + "/text", "`text` must be a string")
        sig = value.get("signature")
        _need(sig is None or isinstance(sig, str), ptr + "/signature", "`signature` must be a string")
        return Thinking(value["text"], sig)
    if kind == "tool_call":
        _need(isinstance(value.get("id"), str), ptr + "/id", "`id` must be a string")
        _need(isinstance(value.get("name"), str), ptr + "/name", "`name` must be a string")
        args = value.get("arguments", {})
        _need(isinstance(args, dict), ptr + "/arguments", "`arguments` must be an object")
        sig = value.get("signature")
        _need(sig is None or isinstance(sig, str), ptr + "/signature", "`signature` must be a string")
        return ToolCall(value["id"], value["name"], args, sig)
    if kind == "tool_result":
        _need(isinstance(value.get("call_id"), str), ptr + "/call_id", "`call_id` must be a string")
        _need(isinstance(value.get("is_error", False), bool), ptr + "/is_error", "`is_error` must be true or false")
        content = value.get("content")
        if not isinstance(content, str):
            _need(isinstance(content, list), ptr + "/content", "`content` must be a string or a list of text, "
                  "image and document blocks")
            parts = [_block_from_json(p, f"{ptr}/content/{k}") for k, p in enumerate(content)]
            for k, part in enumerate(parts):
                _need(isinstance(part, Text | Media), f"{ptr}/content/{k}", "a tool result holds text, image and "
                      "document blocks")
            content = tuple(p for p in parts if isinstance(p, Text | Media))
        return ToolResult(value["call_id"], content, value.get("is_error", False))
    if kind in ("image", "document"):
        url, data, media_type = value.get("url"), value.get("data"), value.get("media_type")
        _need((url is None) != (data is None), ptr, "an image or document has either `url` or `data` (base64)")
        _need(url is None or (isinstance(url, str) and url != ""), ptr + "/url", "`url` must be a string")
        _need(media_type is None or isinstance(media_type, str), ptr + "/media_type", "`media_type` must be a string")
        if data is not None:
            _need(isinstance(data, str) and is_base64(data), ptr + "/data", "`data` must be base64")
            _need(media_type is not None, ptr + "/media_type", "base64 `data` needs its `media_type` "
                  "(e.g. image/png, application/pdf)")
        return Media(kind, url, data, media_type)
    raise MessageFormatError("request", ptr + "/type", f"unknown block type {kind!r}; expected text, thinking, "
                             "tool_call, tool_result, image or document")


def is_base64(value: str) -> bool:
    """Whether ``value`` is strict base64 (media data, thought signatures)."""
    try:
        base64.b64decode(value, validate=True)
    except (ValueError, binascii.Error):
        return False
    return True


def _content(value: Any, ptr: str) -> tuple[Block, ...]:
    if isinstance(value, str):
        return (Text(value),)
    _need(isinstance(value, list), ptr, "`content` must be a string or a list of blocks")
    return tuple(_block_from_json(b, f"{ptr}/{i}") for i, b in enumerate(value))


def request_from_json(value: Any) -> Request:
    """The canonical request in a parsed ``*.request.json``; MessageFormatError names the pointer."""
    _need(isinstance(value, dict), "", "a request must be an object")
    _need(isinstance(value.get("model"), str) and value["model"] != "", "/model", "`model` must be a non-empty string")
    system_value = value.get("system", [])
    system = _content(system_value, "/system")
    _need(all(isinstance(b, Text) for b in system), "/system", "the system prompt holds text blocks only")
    messages_value = value.get("messages")
    _need(isinstance(messages_value, list), "/messages", "`messages` must be a list")
    messages = []
    for i, m in enumerate(messages_value):
        ptr = f"/messages/{i}"
        _need(isinstance(m, dict), ptr, "a message must be an object")
        _need(m.get("role") in ("user", "assistant"), ptr + "/role", "`role` must be \"user\" or \"assistant\"")
        messages.append(Message(m["role"], _content(m.get("content"), ptr + "/content")))
    thinking = value.get("thinking", "none")
    _need(thinking in THINKING_LEVELS, "/thinking", f"`thinking` must be one of {', '.join(THINKING_LEVELS)}")
    limit = value.get("max_output_tokens")
    _need(limit is None or (isinstance(limit, int) and not isinstance(limit, bool) and limit > 0),
          "/max_output_tokens", "`max_output_tokens` must be a positive integer")
    tools_value = value.get("tools", [])
    _need(isinstance(tools_value, list), "/tools", "`tools` must be a list")
    try:
        tools = tuple(lt.tool for lt in load_tools(tools_value)) if tools_value else ()
    except ToolcastError as exc:
        raise MessageFormatError("request", "/tools", str(exc)) from None
    return Request(value["model"], tuple(messages), tuple(b for b in system if isinstance(b, Text)), tools,
                   thinking, limit)


def block_to_json(block: Block) -> dict[str, Any]:
    if isinstance(block, Text):
        return {"type": "text", "text": block.text}
    if isinstance(block, Thinking):
        out: dict[str, Any] = {"type": "thinking", "text": block.text}
        if block.signature is not None:
            out["signature"] = block.signature
        return out
    if isinstance(block, ToolCall):
        call: dict[str, Any] = {"type": "tool_call", "id": block.id, "name": block.name, "arguments": block.arguments}
        if block.signature is not None:
            call["signature"] = block.signature
        return call
    if isinstance(block, Media):
        media: dict[str, Any] = {"type": block.kind}
        media.update({k: v for k, v in (("url", block.url), ("data", block.data), ("media_type", block.media_type))
                      if v is not None})
        return media
    content: Any = block.content if isinstance(block.content, str) else [block_to_json(p) for p in block.content]
    out = {"type": "tool_result", "call_id": block.call_id, "content": content}
    if block.is_error:
        out["is_error"] = True
    return out


def request_to_json(request: Request) -> dict[str, Any]:
    out: dict[str, Any] = {"model": request.model}
    if request.system:
        out["system"] = [block_to_json(b) for b in request.system]
    out["messages"] = [{"role": m.role, "content": [block_to_json(b) for b in m.content]} for m in request.messages]
    if request.tools:
        out["tools"] = [t.to_dict() for t in request.tools]
    if request.thinking != "none":
        out["thinking"] = request.thinking
    if request.max_output_tokens is not None:
        out["max_output_tokens"] = request.max_output_tokens
    return out


def usage_to_json(u: Usage) -> dict[str, Any]:
    return {"input_tokens": u.input_tokens, "cache_read_tokens": u.cache_read_tokens,
            "cache_write_tokens": u.cache_write_tokens, "output_tokens": u.output_tokens,
            "thinking_tokens": u.thinking_tokens, "total_tokens": u.total_tokens}


def response_to_json(response: Response) -> dict[str, Any]:
    out: dict[str, Any] = {
        "content": [block_to_json(b) for b in response.content],
        "finish_reason": response.finish_reason,
        "usage": usage_to_json(response.usage),
    }
    if response.choices:
        out["choices"] = [{"index": c.index, "content": [block_to_json(b) for b in c.content],
                           "finish_reason": c.finish_reason} for c in response.choices]
    if response.model is not None:
        out["model"] = response.model
    if response.provider_data:
        out["provider_data"] = response.provider_data
    return out
