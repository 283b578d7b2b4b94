"""Per-tool results are cached by content and shifted when a tool moves; a cached check must equal a
cold one after any edit."""

from __future__ import annotations

import json

from toolcast.adapters.checks import CheckConfig, check_document, engine, tool_checks


def _cold(text: str, config: CheckConfig) -> tuple[object, ...]:
    engine._PLACED.clear()
    tool_checks._CACHE.clear()
    return check_document(text, config=config).findings


def _tool(name: str, extra: str = "") -> dict[str, object]:
    return {
        "name": name,
        "description": "d" + extra,
        "parameters": {
            "type": "object",
            "properties": {"n": {"type": "int"}, "t": {"type": "array"}},
            "required": ["n", "ghost"],
        },
    }


def test_cached_results_equal_cold_results_after_edits() -> None:
    config = CheckConfig(targets=("openai", "gemini"))
    tools = [_tool(f"tool {i}") for i in range(6)]
    text = json.dumps(tools, indent=2)
    check_document(text, config=config)  # warm the caches
    edits = [
        text.replace('"d"', '"a longer description"', 1),  # first tool grows: the rest shift
        text.replace('"tool 3"', '"tool_3"'),  # one tool changes in place
        "[\n" + json.dumps(_tool("new"), indent=2) + ",\n" + text[1:],  # insert a tool: indexes change
        text.replace("  {", "    {"),  # re-indent
    ]
    for edited in edits:
        warm = check_document(edited, config=config).findings
        assert warm == _cold(edited, config)
        check_document(text, config=config)  # back to the original, caches still warm
