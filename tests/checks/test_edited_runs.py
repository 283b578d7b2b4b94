"""An edit inside one tool reuses the last run of the file for every other tool (``_edited_tool`` in the
engine): the report must be exactly what a cold check of the new text gives, whatever the layout of the
file's tools, and the reuse must really happen (counted, so a path that is never taken cannot pass)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cold_oracle import cold_report
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.checks import Analyzer, CheckConfig, DocumentReport, check_document

CONFIG = CheckConfig(targets=("openai", "anthropic", "gemini", "mcp"))


def _params(i: int) -> dict[str, Any]:
    return {"type": "object", "properties": {"n": {"type": "int" if i % 3 == 0 else "integer", "minimum": 1},
                                             "t": {"type": ["string", "null"], "format": "date"},
                                             "c": {"const": "x"} if i % 2 else {"enum": ["a", "b"]}},
            "required": ["n", "ghost"] if i % 4 == 0 else ["n"]}


def _tool(i: int) -> dict[str, Any]:
    """Tools of every shape a file can hold, with findings (TC110 `int`, TC302 `ghost`, losses)."""
    name = f"tool_{i % 7}" if i % 5 else f"tool {i}"  # repeated names (TC201) and names to sanitise
    kind = i % 4
    if kind == 0:
        return {"name": name, "description": f"Tool {i}", "parameters": _params(i)}
    if kind == 1:
        return {"type": "function", "function": {"name": name, "description": "d", "parameters": _params(i)}}
    if kind == 2:
        return {"name": name, "description": "d", "input_schema": _params(i), "strict": True}
    return {"name": name, "inputSchema": _params(i)}


LAYOUTS = {
    "list": json.dumps([_tool(i) for i in range(24)], indent=2),
    "tools": json.dumps({"tools": [_tool(i) for i in range(24)]}, indent=2),
    "gemini": json.dumps([{"functionDeclarations": [{"name": f"f{i}", "description": "d",
                                                     "parameters": {"type": "OBJECT", "properties": {
                                                         "q": {"type": "STRING", "format": "uuid"}}}}
                                                    for i in range(k, k + 6)]} for k in (0, 6, 12)], indent=1),
}
EDIT_TEXTS = ["", "x", " ", '"', ",", "{", "}", "[", "]", ":", "\n", "1", '"a": 1, ', '"type": "object", ']


def _view(report: DocumentReport) -> tuple[Any, ...]:
    return report.findings, report.tools, report.is_tool_file, report.pending, report.is_request


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(LAYOUTS)), st.data())
def test_edits_inside_tools_equal_a_cold_check(layout: str, data: st.DataObject) -> None:
    analyzer = Analyzer()
    doc = analyzer.parse(LAYOUTS[layout])
    check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    for _ in range(data.draw(st.integers(1, 6))):
        text = doc.text
        at = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(at, min(len(text), at + 6)))
        doc = analyzer.reparse(doc, at, end, data.draw(st.sampled_from(EDIT_TEXTS)))
        warm = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
        assert _view(warm) == _view(cold_report(doc.text, CONFIG))


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_an_edit_in_one_tool_reuses_the_rest(layout: str, runs: list[int]) -> None:
    analyzer = Analyzer()
    text = LAYOUTS[layout]
    doc = analyzer.parse(text)
    check_document(text, config=CONFIG, parsed=doc, analyzer=analyzer)
    edits = 0
    for needle in ('"d"', '"date"', '"STRING"'):  # a description, a format, a Gemini type: inside tools
        at = doc.text.find(needle, len(doc.text) // 3)
        if at < 0:
            continue
        for insert in ("Q", "QQ", ""):  # grow, grow again, then shrink back: tools after it move both ways
            doc = analyzer.reparse(doc, at + 1, at + 1 + (2 if insert == "" else 0), insert)
            runs.clear()
            warm = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
            edits += 1
            assert analyzer.edited_runs == edits
            assert len(runs) <= 1  # the edited tool at most (a known text is found by content)
            assert _view(warm) == _view(cold_report(doc.text, CONFIG))


def test_an_edit_that_changes_the_files_layout_is_a_full_run() -> None:
    analyzer = Analyzer()
    doc = analyzer.parse(LAYOUTS["list"])
    check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    at = doc.text.index('"name"') - 1  # inside the first tool: it becomes a Gemini wrapper
    doc = analyzer.reparse(doc, at, at, '"functionDeclarations": [{"name": "g"}], ')
    warm = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    assert analyzer.edited_runs == 0
    assert _view(warm) == _view(cold_report(doc.text, CONFIG))
    assert any(t.pointer == "/0/functionDeclarations/0" for t in warm.tools)


def test_a_run_with_another_configuration_does_not_reuse_the_last() -> None:
    analyzer = Analyzer()
    doc = analyzer.parse(LAYOUTS["list"])
    check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    at = doc.text.index('"d"') + 1
    doc = analyzer.reparse(doc, at, at, "Q")
    other = CheckConfig(targets=("gemini",))
    warm = check_document(doc.text, config=other, parsed=doc, analyzer=analyzer)
    assert analyzer.edited_runs == 0
    assert _view(warm) == _view(cold_report(doc.text, other))


def test_a_request_file_is_checked_again_around_its_tools() -> None:
    """The request's own checks (TC8xx) read every tool: renaming the tool a message calls is found."""
    request = {"model": "m", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "tool_1", "arguments": "{}"}}]}],
        "tools": [_tool(i) for i in range(1, 9)]}
    analyzer = Analyzer()
    doc = analyzer.parse(json.dumps(request, indent=2))
    first = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    assert first.is_request
    at = doc.text.index('"tool_1"', doc.text.index('"tools"')) + 1
    doc = analyzer.reparse(doc, at, at, "renamed_")
    warm = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    assert analyzer.edited_runs == 1
    assert _view(warm) == _view(cold_report(doc.text, CONFIG))
    assert {f.code for f in warm.findings} != {f.code for f in first.findings}


def test_an_edit_checked_under_a_spent_budget_leaves_the_edited_tool_pending() -> None:
    """The server checks large files with a time budget: when it is spent before the edited tool, that
    tool is pending, the others are still the last run's, and the next call finishes the work."""
    analyzer = Analyzer()
    doc = analyzer.parse(LAYOUTS["list"])
    check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    at = doc.text.index('"Tool 0"') + 2
    doc = analyzer.reparse(doc, at, at, "Q")
    partial = check_document(doc.text, config=CONFIG, parsed=doc, budget=0.0, analyzer=analyzer)
    assert analyzer.edited_runs == 1 and partial.pending == 1
    assert partial.resume is not None and partial.resume(60.0) == 0
    complete = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    assert complete.pending == 0
    assert _view(complete) == _view(cold_report(doc.text, CONFIG))


def _placed_in_blocks(report: DocumentReport) -> list[Any]:
    return [f for block in report.blocks for f in block.placed()]


def _check_partial(partial: DocumentReport, text: str) -> None:
    """A report with tools still pending: the tools are the cold check's, and each checked tool's own
    findings (its block) are the cold check's, at their places in this text. The file-level findings (loose:
    duplicate names, names colliding after sanitising, per-file budgets) wait for every tool: a collision of a
    checked tool with a pending one cannot be known yet."""
    cold = cold_report(text, CONFIG)
    assert partial.tools == cold.tools
    assert [f for f in _placed_in_blocks(partial) if f not in cold.findings] == []
    checked = {f.tool_index for f in _placed_in_blocks(partial)}
    assert [f for f in _placed_in_blocks(cold) if f.tool_index in checked and f not in partial.findings] == []


def test_a_collision_with_a_pending_tool_shows_once_both_are_checked() -> None:
    """The file-level rules read the facts of the checked tools only: while `tool_0` waits, `tool 0` collides
    with nothing; once the check completes, TC205 names both (this is why partial reports are compared with
    the cold check tool by tool, not on their file-level findings)."""
    tools = [{"name": "tool 0", "description": "a", "parameters": {"type": "object", "properties": {}}},
             {"name": "tool_0", "description": "b", "parameters": {"type": "object", "properties": {}}}]
    text = json.dumps(tools, indent=2)
    analyzer = Analyzer()
    partial = check_document(text, config=CONFIG, budget=0.0, analyzer=analyzer)
    assert partial.pending == 2 and "TC205" not in {f.code for f in partial.findings}
    assert partial.resume is not None and partial.resume(60.0) == 0
    complete = check_document(text, config=CONFIG, analyzer=analyzer)
    assert complete.pending == 0 and "TC205" in {f.code for f in complete.outside_tools}
    assert _view(complete) == _view(cold_report(text, CONFIG))


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(LAYOUTS)), st.data())
def test_edits_while_the_first_check_is_pending_equal_a_cold_check(layout: str, data: st.DataObject) -> None:
    """A large file's first check runs in slices; edits made meanwhile carry the tools still waiting
    over to the next run (moved), and those checked in between are found by content."""
    analyzer = Analyzer()
    doc = analyzer.parse(LAYOUTS[layout])
    report = check_document(doc.text, config=CONFIG, parsed=doc, budget=0.0, analyzer=analyzer)
    assert report.pending == len(report.tools) > 0
    for _ in range(data.draw(st.integers(1, 6))):
        # Drawn whether or not tools are still waiting (how many a timed slice checks depends on the
        # machine's load), so that hypothesis replays the same draws.
        background = data.draw(st.booleans())
        if report.resume is not None and background:
            report.resume(0.002)  # a background slice: some tools are checked, by the last run's text
        text = doc.text
        at = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(at, min(len(text), at + 6)))
        doc = analyzer.reparse(doc, at, end, data.draw(st.sampled_from(EDIT_TEXTS)))
        report = check_document(doc.text, config=CONFIG, parsed=doc, budget=0.0, analyzer=analyzer)
        if report.pending:
            _check_partial(report, doc.text)
    if report.resume is not None:
        assert report.resume(60.0) == 0
    complete = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    assert _view(complete) == _view(cold_report(doc.text, CONFIG))


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_an_edit_while_tools_are_pending_reuses_the_last_run(layout: str, runs: list[int]) -> None:
    """An edit inside a tool while the first check is still going on checks that tool alone: the tools
    still waiting are carried over (not found, sliced and hashed again), and those checked by a
    background slice since then are placed where they are now."""
    analyzer = Analyzer()
    doc = analyzer.parse(LAYOUTS[layout])
    first = check_document(doc.text, config=CONFIG, parsed=doc, budget=0.0, analyzer=analyzer)
    total = first.pending
    assert first.resume is not None
    while first.resume(0.0005) > total // 2:  # about half of them checked in the background
        pass
    at = doc.text.find('"d"' if layout != "gemini" else '"STRING"') + 1  # inside the first tools: the others move
    doc = analyzer.reparse(doc, at, at, "QQ")
    runs.clear()
    partial = check_document(doc.text, config=CONFIG, parsed=doc, budget=0.0, analyzer=analyzer)
    assert analyzer.edited_runs == 1 and runs == []
    assert 0 < partial.pending <= total // 2 + 1
    _check_partial(partial, doc.text)
    assert len({f.tool_index for f in _placed_in_blocks(partial)}) >= total - partial.pending - 1
    doc = analyzer.reparse(doc, at, at + 2, "")  # and back: still pending ones move back too
    again = check_document(doc.text, config=CONFIG, parsed=doc, budget=0.0, analyzer=analyzer)
    assert analyzer.edited_runs == 2 and 0 < again.pending <= partial.pending  # the edited tool may be known
    _check_partial(again, doc.text)
    # Without a budget the waiting tools are checked in the same call: the report is complete.
    doc = analyzer.reparse(doc, at, at, "Q")
    complete = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    assert analyzer.edited_runs == 3 and complete.pending == 0
    assert _view(complete) == _view(cold_report(doc.text, CONFIG))


def test_a_waiting_tool_checked_after_an_edit_elsewhere_is_checked_by_its_own_text() -> None:
    """A tool left pending, then edited, then checked in a later edit's unbudgeted run: its findings are its
    new text's, not those remembered for an earlier text at the same place."""
    analyzer = Analyzer()
    doc = analyzer.parse(LAYOUTS["list"])
    assert check_document(doc.text, config=CONFIG, parsed=doc, budget=0.0, analyzer=analyzer).pending == 24
    first_d = doc.text.index('"Tool 0"') + 2
    doc = analyzer.reparse(doc, first_d, first_d, "Q")  # an edit in tool 0: tool 3 is checked as it waits
    before = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    assert before.pending == 0 and any(f.code == "TC110" and f.tool_index == 3 for f in before.findings)
    int_at = doc.text.index('"int"', doc.text.index('"tool_3"'))
    doc = analyzer.reparse(doc, int_at + 4, int_at + 4, "eger")  # tool 3's `int` becomes `integer`...
    # ...and waits
    assert check_document(doc.text, config=CONFIG, parsed=doc, budget=0.0, analyzer=analyzer).pending == 1
    doc = analyzer.reparse(doc, first_d, first_d, "Q")  # another edit in tool 0, checked without a budget
    after = check_document(doc.text, config=CONFIG, parsed=doc, analyzer=analyzer)
    assert analyzer.edited_runs == 3 and after.pending == 0
    assert not any(f.code == "TC110" and f.tool_index == 3 for f in after.findings)
    assert _view(after) == _view(cold_report(doc.text, CONFIG))
