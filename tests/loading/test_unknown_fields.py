"""A field a shape does not define is kept and reported, also inside the shape's wrapper (`function` of OpenAI
Chat and Mistral, `toolSpec` of Bedrock): converting never drops one silently."""

from __future__ import annotations

from typing import Any

import pytest
from toolcast.adapters.convert import convert
from toolcast.adapters.loading import load_tools

WRAPPED: dict[str, tuple[dict[str, Any], str]] = {
    # Bedrock's own `cachePoint` sits beside `toolSpec` in a request, not inside it.
    "bedrock": ({"toolSpec": {"name": "t", "description": "d", "inputSchema": {"json": {"type": "object"}},
                              "cachePoint": {"type": "default"}}}, "cachePoint"),
    "openai": ({"type": "function", "function": {"name": "t", "parameters": {"type": "object"}, "examples": [1]}},
               "examples"),
    "mistral": ({"type": "function", "function": {"name": "t", "parameters": {"type": "object"}, "hint": "x"}},
                "hint"),
}


@pytest.mark.parametrize("shape", sorted(WRAPPED))
def test_an_unknown_field_inside_the_wrapper_is_kept_and_reported_as_dropped(shape: str) -> None:
    doc, field = WRAPPED[shape]
    (loaded,) = load_tools(doc, shape)
    assert field in loaded.tool.source_meta.get("unknown", {})
    for target in ("anthropic", "gemini", shape):
        dropped = [loss for loss in convert(loaded.tool, target).losses if loss.keyword == field]
        assert dropped and dropped[0].action.value == "dropped", (target, dropped)
