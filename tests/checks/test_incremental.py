"""Per-tool results are remembered by content (in an ``Analyzer``) and shifted when a tool moves; a
warm check must equal a cold one after any edit. "Cold" is really cold: a fresh ``Analyzer`` (proven
cold in ``test_cold_oracle.py``) or a fresh Python process. The warm side is really warm: the tests
count the tools checked again, so a cache that stopped working cannot pass for one that works."""

from __future__ import annotations

import json

import pytest
from cold_oracle import cold_findings, fresh_process_findings, summary
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.checks import Analyzer, CheckConfig, check_document

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
#: (edited text, how many tools the warm check checks again from their text)
EDITS = [
    (TEXT.replace('"d"', '"a longer description"', 1), 1),  # first tool grows: the rest shift
    (TEXT.replace('"tool 3"', '"tool_3"'), 1),  # one tool changes in place
    (TEXT.replace('"tool 3"', '"tool 1"'), 0),  # a name taken twice (TC201): tool 1's text, reused
    ("[\n" + json.dumps(_tool("new"), indent=2) + ",\n" + TEXT[1:], 1),  # insert a tool: indexes change
    (TEXT.replace("  {", "    {"), 0),  # re-indent: the same tool texts, reused by content
]


@pytest.mark.parametrize("edit", range(len(EDITS)))
def test_warm_results_equal_cold_results_after_edits(edit: int, runs: list[int]) -> None:
    edited, rechecked = EDITS[edit]
    analyzer = Analyzer()
    check_document(TEXT, config=CONFIG, analyzer=analyzer)  # warm the analyzer with the original
    runs.clear()
    warm = check_document(edited, config=CONFIG, analyzer=analyzer).findings
    assert len(runs) == rechecked  # only the edited tool was checked again: the rest came from memory
    cold = cold_findings(edited, CONFIG)
    distinct = {json.dumps(tool) for tool in json.loads(edited)}
    assert len(runs) == rechecked + len(distinct)  # the cold side checked every (distinct) tool
    assert len(cold) >= 6 * 3  # each tool: TC110 `int`, TC302 `ghost`, ...
    assert warm == cold


def test_warm_results_equal_a_fresh_process(runs: list[int]) -> None:
    analyzer = Analyzer()
    check_document(TEXT, config=CONFIG, analyzer=analyzer)
    edited = EDITS[0][0]
    runs.clear()
    warm = summary(check_document(edited, config=CONFIG, analyzer=analyzer).findings)
    assert len(runs) == 1
    assert warm == fresh_process_findings(edited, {"targets": ["openai", "gemini"]})


def test_a_large_file_is_parsed_incrementally_and_checked_warm(runs: list[int]) -> None:
    """Past ``INCREMENTAL_MIN`` the analyzer's document memory re-parses only the edited tool, so the
    other tools keep their parsed objects and are reused by identity (no text digest at all)."""
    text = json.dumps([_tool(f"tool {i}") for i in range(200)], indent=2)
    analyzer = Analyzer()
    before = analyzer.parse(text)
    check_document(text, config=CONFIG, analyzer=analyzer)
    at = text.index('"tool 100"') + 1
    edited = text[:at] + "x" + text[at:]
    runs.clear()
    warm = check_document(edited, config=CONFIG, analyzer=analyzer)
    assert len(runs) == 1
    doc = analyzer.parse(edited)
    assert doc.changed_pointer is not None and doc.value[0] is before.value[0]  # re-parsed incrementally
    assert warm.findings == cold_findings(edited, CONFIG)


#: Small edits anywhere in the text: insert, delete or replace a few characters.
edits = st.lists(st.tuples(st.integers(0, len(TEXT)), st.integers(0, 6),
                           st.sampled_from(["", " ", "x", '"', ",", "{", "}", "\n", "  ", '"a": 1, '])),
                 min_size=1, max_size=3)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(edits)
def test_random_edits_warm_equals_cold(changes: list[tuple[int, int, str]]) -> None:
    analyzer = Analyzer()
    text = TEXT
    check_document(text, config=CONFIG, analyzer=analyzer)
    for at, removed, inserted in changes:
        at = min(at, len(text))
        text = text[:at] + inserted + text[at + removed:]
        warm = check_document(text, config=CONFIG, analyzer=analyzer).findings  # each intermediate state
    assert warm == cold_findings(text, CONFIG)


def test_a_server_session_checks_with_its_own_analyzer(runs: list[int]) -> None:
    """The language server's reports share one analyzer per session (an edit re-checks one tool), and
    two sessions share nothing."""
    from toolcast.server.lsp.documents import Document
    from toolcast.server.lsp.state import ToolcastServer

    server, other = ToolcastServer(), ToolcastServer()
    assert server.analyzer is not other.analyzer
    doc = Document("untitled:tools.tool.json", TEXT, 1)
    server.report(doc)
    assert len(runs) == len(TOOLS)
    edited, rechecked = EDITS[0]
    doc.set_text(edited, 2)
    runs.clear()
    report = server.report(doc)
    assert report is not None and len(runs) == rechecked
    assert report.findings == cold_findings(edited, server.config_for(doc))
    runs.clear()
    other.report(Document("untitled:tools.tool.json", edited, 1))  # another session: cold
    assert len(runs) == len(TOOLS)
