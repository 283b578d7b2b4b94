"""Checks of request files (TC8xx): a canonical request's shape, its tool calls against its tools, and
whether its thinking level can be configured for its model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rules.codes import (
    REQUEST_FORMAT,
    REQUEST_INVALID_ARGUMENTS,
    REQUEST_ORPHAN_TOOL_RESULT,
    REQUEST_THINKING_UNSUPPORTED,
    REQUEST_UNDEFINED_TOOL,
)

if TYPE_CHECKING:
    from .raw import Unplaced


def is_request(value: Any) -> bool:
    return isinstance(value, dict) and "messages" in value and "model" in value


def request_raws(value: Any) -> list[Unplaced]:
    from ..messages import (
        MessageFormatError,
        ToolCall,
        ToolResult,
        argument_errors,
        history_problems,
        request_from_json,
    )
    from ..messages.thinking import model_entry, model_provider
    from .raw import Unplaced

    try:
        request = request_from_json(value)
    except MessageFormatError as exc:
        text = str(exc).split(": ", 1)[-1].rsplit(" (at ", 1)[0]
        return [Unplaced(REQUEST_FORMAT, text, exc.pointer, "value")]
    raws: list[Unplaced] = []
    tools = {t.name: t for t in request.tools}
    calls: set[str] = set()
    for i, message in enumerate(request.messages):
        for j, block in enumerate(message.content):
            ptr = f"/messages/{i}/content/{j}"
            if isinstance(block, ToolCall):
                calls.add(block.id)
                tool = tools.get(block.name)
                if tool is None:
                    raws.append(Unplaced(REQUEST_UNDEFINED_TOOL,
                                    f"tool call names {block.name!r}, which `tools` does not define",
                                    ptr + "/name", "value"))
                    continue
                for where, problem in argument_errors(tool, block.arguments)[:20]:
                    raws.append(Unplaced(REQUEST_INVALID_ARGUMENTS, f"arguments for {block.name!r}: {problem}",
                                    ptr + "/arguments" + where, "value"))
            elif isinstance(block, ToolResult) and block.call_id not in calls:
                raws.append(Unplaced(REQUEST_ORPHAN_TOOL_RESULT,
                                f"tool result for call {block.call_id!r}, which no earlier message makes",
                                ptr + "/call_id", "value"))
    # The provider's history rules, for the provider the model belongs to (pairing for any model).
    provider_rules = history_problems(request, model_provider(request.model))
    raws += [Unplaced(p.code, p.message, p.pointer, "value") for p in provider_rules]
    if request.thinking != "none":
        provider = "anthropic" if request.model.startswith("claude") else (
            "gemini" if request.model.startswith("gemini") else None)
        if provider is not None and model_entry(provider, request.model) is None:
            raws.append(Unplaced(REQUEST_THINKING_UNSUPPORTED,
                                 f"no thinking configuration is known for {request.model!r} "
                                     "(schemas/models.json)", "/thinking", "value"))
    return raws
