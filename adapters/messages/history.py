"""Provider rules on conversation history that a request can break before it is sent (TC806–TC808): the
editor shows them as findings (provider taken from the model), ``toolcast request`` refuses the target."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.codes import (
    REQUEST_ANTHROPIC_THINKING_HISTORY,
    REQUEST_GEMINI_THOUGHT_SIGNATURE,
    REQUEST_TOOL_RESULT_ORDER,
)
from .conversation import Message, Request, Text, Thinking, ToolCall, ToolResult


@dataclass(frozen=True)
class HistoryProblem:
    code: str
    pointer: str  # into the canonical request JSON
    message: str


def history_problems(request: Request, provider: str | None) -> list[HistoryProblem]:
    """The rules ``provider`` (a request target, or None when the model's provider is unknown) enforces
    that ``request`` breaks."""
    problems = _pairing(request.messages, provider)
    if provider == "anthropic" and request.thinking != "none":
        problems += _anthropic_thinking(request.messages)
    if provider == "gemini" and request.model.startswith("gemini-3"):
        problems += _gemini_signatures(request.messages)
    return problems


def _only_results(message: Message) -> bool:
    return message.role == "user" and all(isinstance(b, ToolResult) for b in message.content)


def _pairing(messages: tuple[Message, ...], provider: str | None) -> list[HistoryProblem]:
    """Every provider pairs calls and results by position: the results of an assistant turn's calls
    come in the very next (user) message — OpenAI rejects an assistant ``tool_calls`` message not
    followed by a tool message per call, Anthropic a ``tool_use`` without a ``tool_result`` in the next
    turn, Gemini a function call without its response."""
    out: list[HistoryProblem] = []
    made: dict[str, int] = {}
    for i, message in enumerate(messages):
        for j, block in enumerate(message.content):
            ptr = f"/messages/{i}/content/{j}"
            if isinstance(block, ToolCall) and message.role == "assistant":
                made[block.id] = i
                answered = i + 1 < len(messages) and any(
                    isinstance(b, ToolResult) and b.call_id == block.id for b in messages[i + 1].content)
                if i + 1 < len(messages) and not answered:
                    out.append(HistoryProblem(REQUEST_TOOL_RESULT_ORDER, ptr + "/id",
                                              f"call {block.id!r} gets no result in the next "
                                              "message; providers need each call answered right after it"))
            elif isinstance(block, ToolResult) and block.call_id in made and made[block.call_id] != i - 1:
                out.append(HistoryProblem(REQUEST_TOOL_RESULT_ORDER, ptr + "/call_id",
                                          f"result for call {block.call_id!r} is not in "
                                          f"the message right after the call (message {made[block.call_id]})"))
            elif (isinstance(block, ToolResult) and provider == "anthropic"
                  and any(isinstance(b, Text) for b in message.content[:j])):
                out.append(HistoryProblem(REQUEST_TOOL_RESULT_ORDER, ptr,
                                          "Anthropic needs tool results before any text in their "
                                          "message"))
    return out


def _anthropic_thinking(messages: tuple[Message, ...]) -> list[HistoryProblem]:
    """With thinking on, Anthropic needs the assistant turn whose tool calls are being answered (the
    last one, followed only by tool results) to start with its signed thinking block, as returned."""
    last = max((i for i, m in enumerate(messages) if m.role == "assistant"), default=None)
    if last is None or not any(isinstance(b, ToolCall) for b in messages[last].content):
        return []
    if not all(_only_results(m) for m in messages[last + 1:]):
        return []  # the tool loop has ended: earlier thinking may be left out
    first = messages[last].content[0]
    if isinstance(first, Thinking) and first.signature:
        return []
    return [HistoryProblem(REQUEST_ANTHROPIC_THINKING_HISTORY, f"/messages/{last}",
                           "with thinking enabled, Anthropic needs the last assistant "
                           "turn that used a tool to start with its thinking block (with its signature), as the "
                           "response returned it")]


def _gemini_signatures(messages: tuple[Message, ...]) -> list[HistoryProblem]:
    """Gemini 3 checks the thought signature on the first function call of each step of the current
    turn (since the last user text) and rejects the request without it."""
    start = max((i for i, m in enumerate(messages) if m.role == "user" and not _only_results(m)), default=-1)
    out: list[HistoryProblem] = []
    for i in range(start + 1, len(messages)):
        calls = [(j, b) for j, b in enumerate(messages[i].content) if isinstance(b, ToolCall)]
        if messages[i].role == "assistant" and calls and not calls[0][1].signature:
            out.append(HistoryProblem(REQUEST_GEMINI_THOUGHT_SIGNATURE, f"/messages/{i}/content/{calls[0][0]}",
                                      "Gemini 3 needs the thought "
                                      "signature of the first function call of each step in the current turn sent "
                                      "back (`signature` on the tool call, as the response returned it)"))
    return out
