"""Conversations across providers (seed 004): canonical requests and responses, serialised to and
parsed from each provider's wire JSON, tool calls mapped back to the canonical tools."""

from .arguments import argument_errors, to_canonical_call
from .conversation import (
    THINKING_LEVELS,
    Block,
    Choice,
    Message,
    MessageFormatError,
    ProviderError,
    ProviderErrorResponse,
    Request,
    Response,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
    Usage,
    request_from_json,
    request_to_json,
    response_to_json,
)
from .history import HistoryProblem, history_problems
from .mapping import CallProblem, ToolSet, map_calls, tool_set
from .read_requests import request_from_wire
from .requests import REQUEST_TARGETS, ContentLoss, WireRequest, to_wire
from .responses import RESPONSE_SOURCES, from_wire, stable_call_id
from .streams import from_stream, sse_events
from .thinking import anthropic_budget, budget_tokens, gemini_thinking, openai_effort

__all__ = [
    "REQUEST_TARGETS", "RESPONSE_SOURCES", "THINKING_LEVELS", "Block", "CallProblem", "Choice", "ContentLoss",
    "HistoryProblem", "Message", "MessageFormatError", "ProviderError", "ProviderErrorResponse", "Request",
    "Response", "Text", "Thinking", "ToolCall", "ToolResult", "ToolSet", "Usage", "WireRequest", "anthropic_budget",
    "argument_errors", "budget_tokens", "from_stream", "from_wire", "gemini_thinking", "history_problems", "map_calls",
    "openai_effort", "request_from_json", "request_from_wire", "request_to_json", "response_to_json", "sse_events",
    "stable_call_id", "to_canonical_call", "to_wire", "tool_set",
]
