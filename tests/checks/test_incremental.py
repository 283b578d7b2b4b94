"""Per-tool results are cached by content and shifted when a tool moves; a cached check must equal a
cold one after any edit. "Cold" is really cold: every cache emptied (``reset_all_caches``, proven cold
in ``test_cold_oracle.py``) or a fresh Python process."""

from __future__ import annotations

import json

from cold_oracle import cold_findings, fresh_process_findings, reset_all_caches, summary
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.checks import CheckConfig, check_document

CONFIG = CheckConfig(targets=("openai", "gemini"))


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


TOOLS = [_tool(f"tool {i}") for i in range(6)]
TEXT = json.dumps(TOOLS, indent=2)
EDITS = [
    TEXT.replace('"d"', '"a longer description"', 1),  # first tool grows: the rest shift
    TEXT.replace('"tool 3"', '"tool_3"'),  # one tool changes in place
    "[\n" + json.dumps(_tool("new"), indent=2) + ",\n" + TEXT[1:],  # insert a tool: indexes change
    TEXT.replace("  {", "    {"),  # re-indent
]


def test_cached_results_equal_cold_results_after_edits() -> None:
    for edited in EDITS:
        reset_all_caches()
        check_document(TEXT, config=CONFIG)  # warm the caches with the original
        warm = check_document(edited, config=CONFIG).findings
        cold = cold_findings(edited, CONFIG)
        assert len(cold) >= 6 * 3  # each tool: TC110 `int`, TC302 `ghost`, ...
        assert warm == cold


def test_cached_results_equal_a_fresh_process() -> None:
    reset_all_caches()
    check_document(TEXT, config=CONFIG)
    edited = EDITS[0]
    warm = summary(check_document(edited, config=CONFIG).findings)
    assert warm == fresh_process_findings(edited, {"targets": ["openai", "gemini"]})


#: Small edits anywhere in the text: insert, delete or replace a few characters.
edits = st.lists(st.tuples(st.integers(0, len(TEXT)), st.integers(0, 6),
                           st.sampled_from(["", " ", "x", '"', ",", "{", "}", "\n", "  ", '"a": 1, '])),
                 min_size=1, max_size=3)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(edits)
def test_random_edits_warm_equals_cold(changes: list[tuple[int, int, str]]) -> None:
    reset_all_caches()
    text = TEXT
    check_document(text, config=CONFIG)
    for at, removed, inserted in changes:
        at = min(at, len(text))
        text = text[:at] + inserted + text[at + removed:]
        warm = check_document(text, config=CONFIG).findings  # each intermediate state, incrementally
    assert warm == cold_findings(text, CONFIG)
